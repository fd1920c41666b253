"""A fake model for fast tests (`--model fake`), in the manner of `llm`'s mock model: deterministic, instant, no
file and no engine. It ranks like the built-in model (it only chooses among given offers, `capable = False`),
preferring the first offer a little over the next, and answers any JSON request with the schema's simplest valid
object (null where allowed, the first of an enum, an empty string), so the code around a model can be tested
without the 0.3-1 s a real ranking costs. Tests about what a model does use the real built-in model."""

from __future__ import annotations

import json
from typing import Any

from .base import Generation, Messages, Predictor, parse_json_output


def simplest(schema: dict[str, Any]) -> Any:
    """The simplest value a JSON schema accepts: null where allowed, else the first enum value, else empty."""
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "null" in kinds or any(s.get("type") == "null" for s in schema.get("anyOf", [])):
        return None
    if "enum" in schema:
        return schema["enum"][0]
    if "object" in kinds:
        return {name: simplest(spec) for name, spec in schema.get("properties", {}).items()}
    if "array" in kinds:
        return []
    if "integer" in kinds or "number" in kinds:
        return 0
    if "boolean" in kinds:
        return False
    return ""


class FakeModel(Predictor):
    """Deterministic and instant; counts its calls so tests can tell whether a model was asked."""

    name = "fake"
    capable = False

    def __init__(self) -> None:
        self.calls = 0

    def rank_options(self, messages: Messages, n: int) -> list[float] | None:
        self.calls += 1
        self.last_rank_stats = (0.0, 0)
        weights = [1.0 / (i + 1) for i in range(n)]  # the first offer preferred, then the next...
        return [w / sum(weights) for w in weights]

    def complete_json(self, messages: Messages, schema: dict[str, Any], *, temperature: float = 0.0,
                      seed: int | None = None, fixed: dict[str, Any] | None = None) -> Generation:
        self.calls += 1
        data = {**simplest({**schema, "type": "object"}), **(fixed or {})}
        text = json.dumps(data, ensure_ascii=False)
        return Generation(parse_json_output(text, schema), text)
