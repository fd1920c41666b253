"""The agent: from recent observations, up to k candidate tasks in the paper's format, or silence.

The first candidate is the model's greedy answer; further candidates (the paper's pred@k, k <= 3) are sampled
from the same prompt, which llama.cpp has cached, so each costs only its own tokens. A generation that failed
(unparseable, truncated, engine error) is counted in `errors` and contributes no candidate: failures are
silence, never a crash.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from models.base import Generation, Predictor
from models.labels import normalize_task

from .prompt import AGENT_SCHEMA, PromptBuilder

MAX_K = 3


@dataclass
class Prediction:
    """What the agent produced at one moment."""

    candidates: list[str]  # distinct non-null tasks, best first, at most k
    purpose: str = ""
    thoughts: str = ""
    response: str = ""
    p_silence: float | None = None  # the model's own probability of answering null, when measurable
    latency_s: float = 0.0
    engine_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def task(self) -> str | None:
        return self.candidates[0] if self.candidates else None

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "candidates": self.candidates, "purpose": self.purpose,
                "thoughts": self.thoughts, "response": self.response, "p_silence": self.p_silence,
                "latency_s": round(self.latency_s, 3), "errors": self.errors}


class Agent:
    def __init__(self, model: Predictor, k: int = 1, budget_tokens: int = 700):
        if not 1 <= k <= MAX_K:
            raise ValueError(f"k must be between 1 and {MAX_K}")
        self.model = model
        self.k = k
        self.prompts = PromptBuilder(model.count_tokens, budget_tokens)

    def predict(self, observations: Sequence[dict[str, str]], feedback: Sequence[str] = (),
                k: int | None = None) -> Prediction:
        k = self.k if k is None else k
        started = time.perf_counter()
        messages = self.prompts.messages(observations, feedback)
        prediction = Prediction(candidates=[])
        fixed: dict[str, str] | None = None
        for i in range(k):
            gen = self.model.complete_json(messages, AGENT_SCHEMA, temperature=0.0 if i == 0 else 0.8, seed=i,
                                           fixed=fixed)
            self._account(prediction, gen)
            if gen.data is None:
                prediction.errors.append(gen.error or "no output")
                continue
            if i == 0 or not prediction.purpose:
                prediction.purpose = gen.data.get("Purpose") or ""
                prediction.thoughts = gen.data.get("Thoughts") or ""
                prediction.response = gen.data.get("Response") or ""
                if "Proactive Task" in gen.probs:
                    prediction.p_silence = gen.probs["Proactive Task"]["null"]
                # further candidates share this reading of the situation and differ only in the task
                fixed = {"Purpose": prediction.purpose, "Thoughts": prediction.thoughts}
            task = normalize_task(gen.data.get("Proactive Task"))
            if task and task.lower() not in {c.lower() for c in prediction.candidates}:
                prediction.candidates.append(task)
        prediction.latency_s = time.perf_counter() - started
        return prediction

    @staticmethod
    def _account(prediction: Prediction, gen: Generation) -> None:
        prediction.engine_s += gen.engine_seconds
        prediction.prompt_tokens += gen.prompt_tokens
        prediction.completion_tokens += gen.completion_tokens
