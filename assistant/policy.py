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

Any scorer of `proactive.models.scorer` plugs in here: the trained reward model, the hand-written
`SignalScorer`, or an LLM judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from proactive.models.scorer import Context, Scorer

from .need import NeedModel, need_for


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
        return round(float(self.scorer.need(context)), 6)

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
