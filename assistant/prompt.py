"""The agent's prompt: the paper's output format, the recent observations within a token budget, and the
user's recent decisions.

Order matters for speed: everything that does not change between two calls comes first (instructions and
examples, then the observations oldest first), so llama.cpp reuses its KV cache and only evaluates what is new.
When the observations exceed the budget, the oldest half is dropped at once rather than one at a time, so the
cached prefix stays valid for many calls in a row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from proactive.models.base import Observation

from .grounding import Grounding

AGENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "Purpose": {"type": "string", "maxLength": 40},
        "Thoughts": {"type": "string", "maxLength": 60},
        "Proactive Task": {"anyOf": [{"type": "string", "maxLength": 80}, {"type": "null"}]},
        "Response": {"type": "string", "maxLength": 60},
    },
    "required": ["Purpose", "Thoughts", "Proactive Task", "Response"],
    "additionalProperties": False,
}

SYSTEM = """You are a proactive assistant on the user's computer. You see short descriptions of what the user \
just did, oldest first. Work out what the user is trying to do and whether they need help right now.
Offer help only when it is clearly useful: the user hit an error, searches for how to do something, seems \
stuck, or repeats a tedious step. Otherwise stay silent: most of the time nobody needs help.
A task must be concrete and tied to the latest events (name the file, error or topic from the list you are \
given); never describe what the user does, and never name anything that is not in the events.
Answer with a JSON object:
{"Purpose": "what the user's last action is for",
 "Thoughts": "your reasoning about whether help is needed now",
 "Proactive Task": "the task you offer, or null when no help is needed",
 "Response": "one sentence telling the user what you can do"}"""

EXAMPLES: list[dict[str, str]] = [
    {"role": "user", "content": 'Events:\n{"Time": "10:02:11", "Event": "The user searches on Google for '
                                "'python requests timeout' in Firefox.\"}\n"
                                '{"Time": "10:02:40", "Event": "The user copies an error message starting '
                                "'TimeoutError: timed out' from the terminal.\"}\nDecide now."},
    {"role": "assistant", "content": json.dumps({
        "Purpose": "Fix a request that times out in client.py",
        "Thoughts": "A TimeoutError copied after a search: the user is stuck.",
        "Proactive Task": "Suggest a fix for the requests TimeoutError in client.py",
        "Response": "Want a fix for the TimeoutError in client.py?"})},
    {"role": "user", "content": 'Events:\n{"Time": "14:20:05", "Event": "The user types \'Dear Anna, thanks for '
                                "the notes' in report.docx in LibreOffice.\"}\nDecide now."},
    {"role": "assistant", "content": json.dumps({
        "Purpose": "Write a reply to Anna",
        "Thoughts": "The user writes fluently: no help needed.",
        "Proactive Task": None,
        "Response": ""})},
]


#: the prompt's version: part of every replay cache key, so a changed prompt is never answered from the cache
PROMPT_VERSION = 13  # 4: offers from the pages read (assistant/material.py); 5: which page offers are made; 6: a page opened from a search already helped on is held back; 7: objects named later in one event rank as more recent; 8, 10: nothing from the pages opened from a search while reading them; 11: no manual offer at an error it does not answer; 12: no offer of any kind about the page on screen; 13: a copied error's quoted lines (and an error a terminal shows) read whole
CHOICE_SYSTEM = ("You help a person at their computer. Read what they just did, then pick the offer that would "
                 "help them most right now. Answer with its number only.")


def choice_messages(observations: Sequence[Observation], offers: Sequence[str],
                    recent: int = 2) -> list[dict[str, str]]:
    """The built-in model's prompt: the last few events and the numbered grounded offers (short: every token
    here is evaluated at each decision, and the answer is one token, read from the model's probabilities)."""
    events = "\n".join(f"- {o.get('event', '')}" for o in list(observations)[-recent:])
    numbered = "\n".join(f"{i}. {offer}" for i, offer in enumerate(offers, 1))
    return [{"role": "system", "content": CHOICE_SYSTEM},
            {"role": "user", "content": f"What they just did:\n{events}\nOffers:\n{numbered}\nBest offer number:"}]


def clock(time_value: str) -> str:
    """Epoch seconds -> HH:MM:SS (UTC, so prompts are the same on every machine); other strings unchanged."""
    try:
        return datetime.fromtimestamp(float(time_value), UTC).strftime("%H:%M:%S")
    except (TypeError, ValueError, OverflowError, OSError):
        return str(time_value)


def observation_line(obs: Observation) -> str:
    return json.dumps({"Time": clock(obs.get("time", "")), "Event": obs.get("event", "")}, ensure_ascii=False)


class PromptBuilder:
    """Builds agent messages; keeps the dropped-prefix position between calls so trimming happens in chunks."""

    def __init__(self, count_tokens: Callable[[str], int], budget_tokens: int = 700):
        self.count_tokens = count_tokens
        self.budget = budget_tokens
        self.start = 0  # index of the first observation still shown
        self._lengths: dict[str, int] = {}

    def _tokens(self, line: str) -> int:
        n = self._lengths.get(line)
        if n is None:
            n = self._lengths[line] = self.count_tokens(line) + 1
            if len(self._lengths) > 5000:
                self._lengths.clear()
        return n

    def window(self, observations: Sequence[Observation]) -> list[Observation]:
        """The observations that fit the budget, always including the newest."""
        if self.start > len(observations):
            self.start = 0
        lines = [observation_line(o) for o in observations]
        total = sum(self._tokens(line) for line in lines[self.start:])
        while total > self.budget and self.start < len(lines) - 1:
            # drop the older half of what is shown, so the next calls share this new prefix
            drop = max(1, (len(lines) - self.start) // 2)
            total -= sum(self._tokens(line) for line in lines[self.start:self.start + drop])
            self.start += drop
        return list(observations[self.start:])

    def messages(self, observations: Sequence[Observation], feedback: Sequence[str] = (),
                 objects: Grounding | None = None) -> list[dict[str, str]]:
        shown = self.window(observations)
        body = "Events:\n" + "\n".join(observation_line(o) for o in shown)
        if objects is not None and objects.objects:
            body += (f"\nWhat the user is doing now: {objects.activity}. Things they work with (name only these):\n"
                     + "\n".join(f"- {o.kind}: {o.text}" for o in objects.objects[:10]))
        if feedback:
            body += "\nThe user's recent answers to your offers:\n" + "\n".join(f"- {line}" for line in feedback)
            body += "\nDo not offer again what was rejected or ignored."
        body += "\nDecide now."
        return [{"role": "system", "content": SYSTEM}, *EXAMPLES, {"role": "user", "content": body}]
