"""The hand-written reward model: need signals in the recent sentences x task relevance. Deterministic.

Used when no trained model is wanted (`--rm signals`) and as a fast scorer in tests: words such as "error",
"search" or "how to" in the last three events raise P(need); a task scores higher the more of its words the
recent events share.
"""

from __future__ import annotations

import re
from typing import Any

from .scorer import Context

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
    """Need signals x task relevance."""

    name = "signals"

    def __init__(self, recent: int = 3):
        self.recent = recent
        self.meta: dict[str, Any] = {}

    def need(self, context: Context) -> float:
        text = " ".join(o.get("event", "") for o in list(context)[-self.recent:])
        score = 0.1 + sum(weight for _, pattern, weight in SIGNALS if pattern.search(text))
        return min(score, 0.95)

    def score(self, context: Context, task: str | None) -> float:
        need = self.need(context)
        if task is None:
            return 1.0 - need
        recent = words(" ".join(o.get("event", "") for o in list(context)[-self.recent:]))
        task_words = words(task)
        overlap = len(task_words & recent) / max(1, min(len(task_words), 6))
        relevance = 0.5 + 0.5 * min(1.0, overlap * 2)  # a task about nothing recent is worth half
        return round(need * relevance, 4)
