"""Deciding what is shown: a scorer judges each candidate task and silence, the gate applies the user's
proactivity level.

The scorer interface is the reward model's (`score(context, task_or_None) -> P(the user accepts)`), so a
trained reward model plugs in here unchanged. Until one is configured, `SignalScorer` is the default: it looks
for the few signals that most often mean a person wants help (an error, a search, a question, repeated undo,
coming back to the same problem) in the latest observations, and for how much the task talks about them.
The gate shows a task only when its score clears the level's threshold *and* beats the score of silence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

Context = Sequence[dict[str, str]]


class Scorer(Protocol):
    name: str

    def score(self, context: Context, task: str | None) -> float:
        """Probability that the user accepts `task` (or, for None, that silence is right) at this moment."""
        ...


@dataclass(frozen=True)
class Proactivity:
    """How readily the assistant speaks: the gate's threshold and the minimum time between two proposals."""

    threshold: float
    min_interval_s: float

    LEVELS = {"low": (0.75, 300.0), "medium": (0.55, 90.0), "high": (0.35, 30.0)}

    @classmethod
    def parse(cls, value: str | float) -> Proactivity:
        """'low' | 'medium' | 'high', or a number in [0, 1] (1 = speaks most)."""
        if isinstance(value, str) and value.lower() in cls.LEVELS:
            threshold, interval = cls.LEVELS[value.lower()]
            return cls(threshold, interval)
        try:
            level = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"proactivity must be low, medium, high or a number in [0, 1], not {value!r}") from None
        if not 0.0 <= level <= 1.0:
            raise ValueError(f"proactivity must be between 0 and 1, not {level}")
        return cls(threshold=round(0.95 - 0.7 * level, 3), min_interval_s=round(300 - 270 * level, 1))


SIGNALS: list[tuple[str, re.Pattern[str], float]] = [
    ("error", re.compile(r"\b(error|exception|traceback|failed|failure|fatal|panic|cannot|can't|undefined|"
                         r"not found|denied|segmentation)\b", re.I), 0.45),
    ("search", re.compile(r"\bsearch(es|ed)?\b|\bgoogles?\b|stack ?overflow|\bdocs?\b|documentation", re.I), 0.25),
    ("question", re.compile(r"\bhow (to|do|can)\b|\bwhat is\b|\bwhy\b|\?", re.I), 0.2),
    ("undo", re.compile(r"ctrl\+z \(undo\) (\d+) times", re.I), 0.15),
    ("copy", re.compile(r"\bcopies\b", re.I), 0.1),
]
WORD = re.compile(r"[a-z0-9_.']{3,}")
STOP = set("the user and with for that this from into their they them his her its about after before while "
           "then than you your are was were has have had not but can will would should could in on of to a an "
           "is it as at by or be".split())


def words(text: str) -> set[str]:
    return {w.strip(".'") for w in WORD.findall(text.lower())} - STOP


class SignalScorer:
    """The default scorer until a reward model is configured: need signals x task relevance. Deterministic."""

    name = "signals"

    def __init__(self, recent: int = 3):
        self.recent = recent

    def need(self, context: Context) -> float:
        text = " ".join(o.get("event", "") for o in list(context)[-self.recent:])
        score = 0.1 + sum(weight for _, pattern, weight in SIGNALS if pattern.search(text))
        return min(score, 0.95)

    def upper_bound(self, context: Context) -> float:
        """The best score any task could get here (a perfectly relevant one): lets the gate skip generation."""
        return self.need(context)

    def score(self, context: Context, task: str | None) -> float:
        need = self.need(context)
        if task is None:
            return 1.0 - need
        recent = words(" ".join(o.get("event", "") for o in list(context)[-self.recent:]))
        task_words = words(task)
        overlap = len(task_words & recent) / max(1, min(len(task_words), 6))
        relevance = 0.5 + 0.5 * min(1.0, overlap * 2)  # a task about nothing recent is worth half
        return round(need * relevance, 4)


@dataclass
class GateDecision:
    task: str | None  # what to show, or None: stay silent
    score: float | None  # the shown task's score
    silence_score: float
    scores: dict[str, float]  # every candidate's score
    reason: str


class Gate:
    def __init__(self, scorer: Scorer, proactivity: Proactivity):
        self.scorer = scorer
        self.proactivity = proactivity

    def worth_generating(self, context: Context) -> GateDecision | None:
        """Score silence before any text is generated: when no task could be shown, return that decision.

        A scorer may say how high any task could score here (`upper_bound`); otherwise a task is taken to be
        worth at most the probability that help is needed, 1 - P(silence is right)."""
        silence = self.scorer.score(context, None)
        bound = getattr(self.scorer, "upper_bound", None)
        best = bound(context) if bound is not None else 1.0 - silence
        if best < self.proactivity.threshold:
            return GateDecision(None, None, silence, {}, f"no task can reach threshold {self.proactivity.threshold}")
        if best <= silence:
            return GateDecision(None, None, silence, {}, "silence scores higher than any task could")
        return None

    def decide(self, context: Context, candidates: Sequence[str]) -> GateDecision:
        silence = self.scorer.score(context, None)
        scores = {c: self.scorer.score(context, c) for c in candidates}
        if not scores:
            return GateDecision(None, None, silence, scores, "no candidate")
        best = max(scores, key=lambda c: scores[c])
        if scores[best] < self.proactivity.threshold:
            return GateDecision(None, None, silence, scores, f"below threshold {self.proactivity.threshold}")
        if scores[best] <= silence:
            return GateDecision(None, None, silence, scores, "silence scores higher")
        return GateDecision(best, scores[best], silence, scores, "shown")
