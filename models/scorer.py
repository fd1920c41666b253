"""The one interface every reward model offers: the gate, the live assistant and the replay harness ask only this.

A scorer answers two questions about a moment (the recent observations, oldest first):
- `need(context)`: P(help is needed now), read before anything is generated;
- `score(context, task)`: P(the person accepts `task`), or for `task=None`, P(silence is right).

It has a `name` (shown in logs, replay reports and cache keys) and `meta` (what its artefact carries besides
weights; a trained model's `meta["need"]` holds the assistant's calibrated need model). Implementations:
`reward.TrainedRewardModel` (the shipped CPU model), `signals.SignalScorer` (hand-written) and
`judge.LLMJudge` (an LLM judging as the user). `registry.load_reward` turns a spec string into one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .base import Observation

Context = Sequence[Observation]


@runtime_checkable
class Scorer(Protocol):
    name: str
    meta: dict[str, Any]

    def score(self, context: Context, task: str | None) -> float:
        """P(the person accepts `task`) at this moment; for None, P(silence is right)."""
        ...

    def need(self, context: Context) -> float:
        """P(help is needed now)."""
        ...
