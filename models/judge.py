"""An LLM as reward model: the paper's judge ("judge as the user"), with constrained JSON output.

Same interface as the trained reward model (`score(context, task_or_None) -> P(accept)`), so it can gate the
live assistant or judge a replay. With an in-process GGUF the verdict is chosen from the model's probabilities
of "accepted" vs "rejected", which gives a real P(accept); over HTTP the verdict is taken as 1.0 or 0.0.
A judge that cannot produce a verdict raises `JudgeFailure`: the harness counts it, never guesses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import Observation, Predictor

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "thought": {"type": "string", "maxLength": 160},
        "judgement": {"enum": ["accepted", "rejected"]},
    },
    "required": ["thought", "judgement"],
    "additionalProperties": False,
}

JUDGE_SYSTEM = """You are the user of a computer. A proactive assistant watches what you do and sometimes \
proposes a task. Judge its proposal as that user would.
- Read the observations (oldest first; the last one is now) to understand your situation and needs.
- If the proposed task is null (the assistant stays silent): accept it when you need no help now, reject it \
when you do need help.
- Interruptions cost you: accept a task only if it is valuable to you right now.
Answer with a JSON object: {"thought": "your reasoning, in the first person", "judgement": "accepted" or \
"rejected"}"""


class JudgeFailure(RuntimeError):
    pass


class LLMJudge:
    def __init__(self, model: Predictor, name: str | None = None):
        self.model = model
        self.name = name or f"llm:{model.name}"
        self.meta: dict[str, Any] = {}

    def need(self, context: Sequence[Observation]) -> float:
        """P(help is needed now): the judge rejecting silence."""
        return 1.0 - self.score(context, None)

    def messages(self, context: Sequence[Observation], task: str | None) -> list[dict[str, str]]:
        body = {"Observations (Time Ascending)": [{"time": o.get("time"), "event": o.get("event")} for o in context],
                "Proposed Task": task,
                "Instruction": "Now give your judgement."}
        return [{"role": "system", "content": JUDGE_SYSTEM},
                {"role": "user", "content": json.dumps(body, ensure_ascii=False, indent=1)}]

    def score(self, context: Sequence[Observation], task: str | None) -> float:
        gen = self.model.complete_json(self.messages(context, task), JUDGE_SCHEMA)
        if gen.data is None:
            raise JudgeFailure(gen.error or "no verdict")
        probs = gen.probs.get("judgement")
        if probs:
            return float(probs["accepted"])
        return 1.0 if gen.data["judgement"] == "accepted" else 0.0
