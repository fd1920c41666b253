"""Deciding what is shown: need first, then which task.

Whether to speak at all is one question: is help needed now? The scorer's calibrated P(need) is compared with
the proactivity level's threshold, and nothing is generated below it. The threshold is a cost ratio (the
cost-based rule of decision theory): speaking is right when P(need) x cost(missed need) exceeds
(1 - P(need)) x cost(unwanted interruption), i.e. when P(need) >= c / (1 + c) with c = interruption cost /
missed-need cost. Low: an interruption costs three missed needs (0.75); medium: both cost the same (0.5);
high: a miss costs two and a third interruptions (0.3).

Which task is shown is a second, separate question: the scorer's task half (P(the user accepts this task))
ranks the candidates together with the agent's own preference, and vetoes only clear junk (below `veto`).
Mixing the two questions (a task had to beat silence) hid most moments where help was wanted.

The scorer interface is the reward model's (`score(context, task_or_None) -> P(the user accepts)`, plus
`need(context)`), so a trained reward model plugs in here unchanged. `SignalScorer` is a hand-written fallback.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .need import NeedModel, need_for

Context = Sequence[dict[str, str]]


class Scorer(Protocol):
    name: str

    def score(self, context: Context, task: str | None) -> float:
        """Probability that the user accepts `task` (or, for None, that silence is right) at this moment."""
        ...

    def need(self, context: Context) -> float:
        """Calibrated probability that help is needed at this moment."""
        ...


@dataclass(frozen=True)
class Proactivity:
    """How readily the assistant speaks: the gate's threshold and the minimum time between two proposals."""

    threshold: float
    min_interval_s: float

    #: threshold = c / (1 + c), c = cost of an unwanted interruption / cost of a missed need (see above)
    LEVELS = {"low": (0.75, 300.0), "medium": (0.5, 90.0), "high": (0.3, 30.0)}

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
        return cls(threshold=round(0.9 - 0.8 * level, 3), min_interval_s=round(300 - 270 * level, 1))


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


def p_need(scorer: Scorer, context: Context) -> float:
    """P(help is needed now) from any scorer: its own `need`, else 1 - P(silence is right)."""
    need = getattr(scorer, "need", None)
    return float(need(context)) if need is not None else 1.0 - float(scorer.score(context, None))


@dataclass
class GateDecision:
    task: str | None  # what to show, or None: stay silent
    score: float | None  # the shown task's ranking score
    silence_score: float  # 1 - p_need
    scores: dict[str, float]  # every candidate's P(accept) from the scorer's task half
    reason: str
    p_need: float = 0.0


class Gate:
    """Need first (P(need) >= the level's threshold), then the best candidate that is not junk."""

    def __init__(self, scorer: Scorer, proactivity: Proactivity, veto: float = 0.15,
                 need_model: NeedModel | None = None):
        self.scorer = scorer
        self.proactivity = proactivity
        self.veto = veto
        # the calibrated need model stored with a trained reward model; otherwise the scorer's own estimate
        self.need_model = need_model or need_for(scorer)

    def need(self, context: Context) -> float:
        if self.need_model is not None:
            return self.need_model.prob(context)
        return round(p_need(self.scorer, context), 6)

    def worth_generating(self, context: Context, need: float | None = None) -> GateDecision | None:
        """Decide silence before any text is generated: returns the silent decision when help is not needed."""
        p = self.need(context) if need is None else need
        if p < self.proactivity.threshold:
            return GateDecision(None, None, 1.0 - p, {}, f"P(need) {p:.2f} < {self.proactivity.threshold}", p)
        return None

    def decide(self, context: Context, candidates: Sequence[str], preference: dict[str, float] | None = None,
               need: float | None = None) -> GateDecision:
        """`preference`: the agent's own ranking of its candidates (0..1); it counts half of the final rank."""
        p = self.need(context) if need is None else need
        scores = {c: round(float(self.scorer.score(context, c)), 6) for c in candidates}
        if p < self.proactivity.threshold:
            return GateDecision(None, None, 1.0 - p, scores, f"P(need) {p:.2f} < {self.proactivity.threshold}", p)
        kept = [c for c in candidates if scores[c] >= self.veto]
        if not kept:
            return GateDecision(None, None, 1.0 - p, scores, "no candidate" if not scores else
                                f"every candidate below the veto {self.veto}", p)
        rank = {c: scores[c] if preference is None else (scores[c] + preference.get(c, 0.0)) / 2 for c in kept}
        best = max(kept, key=lambda c: rank[c])  # max keeps the first of equals: the agent's order
        return GateDecision(best, round(rank[best], 6), 1.0 - p, scores, "shown", p)
