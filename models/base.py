"""The interface every language-model backend implements, and what a generation returns.

The assistant only ever asks a model for one thing: a JSON object that follows a schema (the agent's
`Purpose/Thoughts/Proactive Task/Response`, a judge's verdict). Backends differ in how they make the output
follow the schema; callers never see malformed output: a generation either has validated `data`, or `data` is
None and `error` says why (counted by the caller, never raised).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import jsonschema

Messages = list[dict[str, str]]


class Page(TypedDict):
    """A page visited during an observation (ActivityWatch's web watcher, or the browser's own)."""

    url: str
    title: str


class Observation(TypedDict):
    """One moment of a session, as the assistant, every model and replay read it: when it began (epoch seconds as
    text, or a recording's own time) and what happened, in English sentences (watcher/episodes/builder.py). Live,
    the latest ones also carry what the sentences only quote: the whole texts copied (`copies`), the pages visited
    (`pages`) and the error a terminal shows (`screen`), held in memory for the offer. Its JSON form is itself, so it
    is serialised only where it is written (replay files, `episodes --json`)."""

    time: str
    event: str
    copies: NotRequired[list[str]]
    pages: NotRequired[list[Page]]
    screen: NotRequired[list[str]]


class ModelError(RuntimeError):
    """The model cannot be used at all (missing file, not GGUF, unreachable endpoint). One-line message."""


@dataclass
class Generation:
    data: dict[str, Any] | None
    text: str = ""
    finish_reason: str = "stop"  # "stop", "length" or "error"
    prompt_tokens: int = 0  # tokens the backend had to process (cached prefix excluded where known)
    completion_tokens: int = 0
    seconds: float = 0.0
    engine_seconds: float = 0.0  # time spent inside the inference engine itself, where measurable
    error: str | None = None
    attempts: int = 1
    #: probabilities the backend measured while deciding, e.g. {"Proactive Task": {"null": 0.93}}
    probs: dict[str, dict[str, float]] = field(default_factory=dict)


class Predictor(ABC):
    """A language model that completes chat messages into a JSON object following `schema`."""

    name: str = "model"
    #: whether the model writes usable free-text tasks; the built-in 135M model does not (it only ranks offers)
    capable: bool = True
    #: seconds inside the inference engine and prompt tokens evaluated by the last `rank_options` call
    last_rank_stats: tuple[float, int] = (0.0, 0)

    @abstractmethod
    def complete_json(self, messages: Messages, schema: dict[str, Any], *, temperature: float = 0.0,
                      seed: int | None = None, fixed: dict[str, Any] | None = None) -> Generation:
        """`fixed`: values of leading properties already decided (e.g. by an earlier greedy answer); backends
        that can continue from them do, so a resampled candidate costs only its own tokens."""

    def rank_options(self, messages: Messages, n: int) -> list[float] | None:
        """The model's probability for each of `n` numbered options (the prompt asks for a number), or None on
        failure. This default asks for a JSON choice and trusts it fully; backends that can read token
        probabilities override it (one pass, no sampling)."""
        schema = {"type": "object", "properties": {"offer": {"type": "integer", "enum": list(range(1, n + 1))}},
                  "required": ["offer"], "additionalProperties": False}
        gen = self.complete_json(messages, schema)
        if gen.data is None:
            return None
        return [1.0 if gen.data["offer"] == i else 0.0 for i in range(1, n + 1)]

    def count_tokens(self, text: str) -> int:
        """Token count used for context budgets; backends with a tokenizer override this estimate."""
        return max(1, len(text) // 4)

    def close(self) -> None:  # noqa: B027 - optional hook: most backends hold nothing to release
        """Release what the model holds (memory, connections)."""


FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def parse_json_output(text: str, schema: dict[str, Any]) -> dict[str, Any]:
    """Parse and validate a model's JSON answer. Over-long strings are cut to their `maxLength` (harmless);
    anything else that does not match the schema raises ValueError with a short reason."""
    if not text or not text.strip():
        raise ValueError("empty output")
    match = FENCE.match(text)
    if match:
        text = match.group(1)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON ({exc.msg} at char {exc.pos})") from None
    if not isinstance(data, dict):
        raise ValueError("output is not a JSON object")
    for name, spec in schema.get("properties", {}).items():
        limit = max_length(spec)
        if limit and isinstance(data.get(name), str) and len(data[name]) > limit:
            data[name] = data[name][:limit]
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError as exc:
        raise ValueError(f"schema mismatch: {exc.message[:120]}") from None
    return data


def max_length(spec: dict[str, Any]) -> int | None:
    if "maxLength" in spec:
        return int(spec["maxLength"])
    for option in spec.get("anyOf", []):
        if "maxLength" in option:
            return int(option["maxLength"])
    return None


def is_nullable(spec: dict[str, Any]) -> bool:
    types = spec.get("type")
    if isinstance(types, list) and "null" in types:
        return True
    return any(option.get("type") == "null" for option in spec.get("anyOf", []))
