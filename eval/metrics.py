"""Proactivity metrics, defined once so every report computes them the same way.

Per judged prediction, as in ProactiveBench: a task proposed and accepted is a TP, proposed and rejected an FP,
silence accepted a TN, silence rejected an FN. Where the paper's scripts went wrong, this module does not:
- every null variant (None, "", "null", "none", [] ...) is silence, never a proposal;
- "false alarm" is reported as the paper defines it, FP/(TP+FP), *and* the conventional FPR, FP/(FP+TN), under
  its own name;
- a prediction whose judgement failed is counted in `errors`, never silently dropped or scored.

Calibration (of P(need) and P(accept)): `calibration(probs, labels)` gives the expected calibration error (ECE)
over 10 equal-width bins of the predicted probability (its `bins` argument; the result says how many): each
bin's |observed frequency - mean prediction|, weighted by its share of the items. It also gives the reliability
curve (per non-empty bin: mean prediction, observed frequency, count) and ROC AUC. It is defined once, in
`models/labels.py`, because the need model's training report uses it too.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from proactive.models.labels import (
    CATEGORIES,
    agreement,
    calibration,
    context_key,
    normalize_task,
    rates,
    ratio,
    short_category,
)
from proactive.models.labels import confusion as binary_confusion

__all__ = ["CATEGORIES", "agreement", "short_category", "Judgement", "judgement", "confusion", "paper_metrics",
           "event_at_k", "need_labels", "context_key", "need_detection", "percentile", "calibration",
           "clustered_bootstrap"]


@dataclass(frozen=True)
class Judgement:
    """One judged moment: what the agent did (`task` after null normalisation) and whether the user accepts it;
    `accepted` None means the judgement failed."""

    task: str | None
    accepted: bool | None


def judgement(task: Any, accepted: bool | None) -> Judgement:
    return Judgement(normalize_task(task), accepted)


def confusion(judgements: Iterable[Judgement]) -> dict[str, int]:
    """tp, fp, tn, fn and errors of judged predictions: a proposal is a positive prediction, and the truth is
    positive (help was wanted) when the proposal was accepted or the silence rejected."""
    judgements = list(judgements)
    judged = [j for j in judgements if j.accepted is not None]
    counts = binary_confusion([j.task is not None for j in judged],
                              [(j.task is not None) == j.accepted for j in judged])
    return {**counts, "errors": len(judgements) - len(judged)}


def paper_metrics(judgements: Iterable[Judgement]) -> dict[str, Any]:
    """The paper's recall, precision, accuracy, false alarm (FP/(TP+FP)) and F1, plus the conventional FPR."""
    c = confusion(judgements)
    tp, fp, tn, fn = c["tp"], c["fp"], c["tn"], c["fn"]
    r = rates(c)
    return {
        "paper": {"recall": r["recall"], "precision": r["precision"],
                  "accuracy": ratio(tp + tn, tp + fp + tn + fn), "false_alarm": ratio(fp, tp + fp), "f1": r["f1"]},
        "fpr": r["fpr"],
        "counts": c,
        "errors": c["errors"],
    }


def event_at_k(candidates: Sequence[Any], candidate_accepted: Sequence[bool | None],
               silence_accepted: bool | None) -> Judgement:
    """pred@k at event level: the event is a proposal if any of its k candidates is a task, and it is accepted
    if any candidate is; a silent event is judged as silence. Failed candidate judgements are ignored unless
    all of them failed."""
    tasks = [(normalize_task(c), a) for c, a in zip(candidates, candidate_accepted, strict=True)]
    tasks = [(t, a) for t, a in tasks if t is not None]
    if not tasks:
        return Judgement(None, silence_accepted)
    known = [a for _, a in tasks if a is not None]
    if not known:
        return Judgement(tasks[0][0], None)
    accepted = [t for t, a in tasks if a]
    return Judgement(accepted[0] if accepted else tasks[0][0], bool(accepted))


def need_labels(rows: Iterable[Mapping[str, Any]]) -> dict[str, bool]:
    """Context key (the time of its last observation) -> whether help was needed there: true if any labelled
    row ending at that time has `help_needed` true. Times identify contexts because event texts were lightly
    edited between dataset releases while times were not."""
    labels: dict[str, bool] = {}
    for row in rows:
        key = context_key(row["obs"])
        labels[key] = labels.get(key, False) or bool(row.get("help_needed"))
    return labels


def need_detection(spoke: Mapping[str, bool], labels: Mapping[str, bool]) -> dict[str, Any]:
    """Speaking (showing a task) vs needing help, at every labelled context the agent saw. No judge involved."""
    seen = [key for key in labels if key in spoke]
    counts = binary_confusion([spoke[key] for key in seen], [labels[key] for key in seen])
    return {"contexts": len(seen), **counts, **rates(counts)}


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in [0, 1]); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def clustered_bootstrap(clusters: Sequence[Mapping[str, int]], samples: int = 1000, seed: int = 0,
                        level: float = 0.95) -> dict[str, list[float]] | None:
    """`level` intervals of precision, recall, F1 and FPR from confusion counts (tp, fp, tn, fn) per cluster (a
    session), resampling whole clusters with replacement `samples` times (percentile intervals, a fixed seed, so
    a report is reproducible). Why clusters: the turns of one session are not independent (one person, one
    task), so resampling turns would give intervals too narrow. None with fewer than two clusters."""
    if len(clusters) < 2:
        return None
    rng = random.Random(seed)
    drawn: dict[str, list[float]] = {"precision": [], "recall": [], "f1": [], "fpr": []}
    for _ in range(samples):
        pick = [clusters[rng.randrange(len(clusters))] for _ in clusters]
        for name, value in rates({k: sum(c[k] for c in pick) for k in ("tp", "fp", "tn", "fn")}).items():
            drawn[name].append(value)
    tail = (1 - level) / 2
    return {name: [percentile(values, tail), percentile(values, 1 - tail)] for name, values in drawn.items()}
