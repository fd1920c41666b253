"""What reward-format labels mean, defined once for the agent, the reward models and the metrics.

- Silence: every null variant the paper's data and models produce (None, "", "null", "none", [] ...) means the
  assistant stays silent; the paper's scripts counted the string "null" as a proposal.
- Categories: CD (task accepted), FA (task rejected), CR (silence accepted: no help needed), MN (silence
  rejected: help was needed); rows without one (exports of the user's own decisions) get it from their task
  and label.
- Agreement of predicted acceptances with the human `valid` labels, overall and per category.
- Binary counts (`confusion`: tp, fp, tn, fn of a prediction against the truth) and the rates made of them
  (`rates`), for every such comparison here, in the need model's report and in the proactivity metrics.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

NULL_STRINGS = {"", "null", "none", "nil", "n/a"}
CATEGORIES = ("MN", "CR", "CD", "FA")
CATEGORY_NAMES = {"CD": "Correct-Detection (CD)", "FA": "False-Alarm (FA)", "CR": "Correct-Rejection (CR)",
                  "MN": "Missed-Need (MN)"}



def context_key(observations: Sequence[Mapping[str, Any]]) -> str:
    """A context's identity: the time of its last observation (event texts were lightly edited between
    dataset releases, times were not)."""
    return str(observations[-1]["time"]).strip()

def normalize_task(task: Any) -> str | None:
    """A task as shown to the user (whitespace collapsed), or None for every null variant."""
    if task is None:
        return None
    if isinstance(task, list):
        return normalize_task(task[0]) if task else None
    text = " ".join(str(task).split())
    return None if text.lower().strip(".") in NULL_STRINGS else text


def short_category(category: str | None, task: Any = None, valid: bool | None = None) -> str:
    """'Missed-Need (MN)' -> 'MN'; derived from task/valid when a row has no category."""
    if category:
        for short in CATEGORIES:
            if f"({short})" in category or category == short:
                return short
    if normalize_task(task) is None:
        return "CR" if valid else "MN"
    return "CD" if valid else "FA"


def row_category(row: Mapping[str, Any]) -> str:
    return short_category(row.get("category"), row.get("pred_task"), bool(row["valid"]))


def ratio(num: float, den: float) -> float:
    """num/den, with 0.0 when there is nothing to divide (reported next to the counts, so never misleading)."""
    return num / den if den else 0.0


def f1(precision: float, recall: float) -> float:
    return ratio(2 * precision * recall, precision + recall)


def confusion(predicted: Iterable[Any], actual: Iterable[Any]) -> dict[str, int]:
    """Counts of a binary prediction against the truth, pair by pair: tp (predicted and true), fp (predicted,
    false), tn (not predicted, false), fn (not predicted, true). Values are read as truth values."""
    counts = {"tp": 0, "fp": 0, "tn": 0, "fn": 0}
    for pred, truth in zip(predicted, actual, strict=True):
        counts[("t" if bool(pred) == bool(truth) else "f") + ("p" if pred else "n")] += 1
    return counts


def rates(counts: Mapping[str, int]) -> dict[str, float]:
    """Precision, recall, F1 and false-positive rate (FP/(FP+TN)) of `confusion` counts; 0.0 where nothing
    is there to divide."""
    tp, fp, tn, fn = counts["tp"], counts["fp"], counts["tn"], counts["fn"]
    precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
    return {"precision": precision, "recall": recall, "f1": f1(precision, recall), "fpr": ratio(fp, fp + tn)}


def agreement(rows: Sequence[Mapping[str, Any]], predicted: Sequence[bool]) -> dict[str, Any]:
    """Agreement of predicted acceptances with human `valid` labels (positive = valid true), overall and per
    category (a category with no rows has agreement None)."""
    truths = [bool(row["valid"]) for row in rows]
    counts = confusion(predicted, truths)
    per: dict[str, list[int]] = {cat: [0, 0] for cat in CATEGORIES}
    for row, pred, truth in zip(rows, predicted, truths, strict=True):
        cat = row_category(row)
        per[cat][0] += bool(pred) == truth
        per[cat][1] += 1
    r = rates(counts)
    return {"n": len(rows), "accuracy": ratio(counts["tp"] + counts["tn"], len(rows)),
            "precision": r["precision"], "recall": r["recall"], "f1": r["f1"],
            "agreement": {c: (ratio(*per[c]) if per[c][1] else None) for c in CATEGORIES},
            "category_counts": {c: per[c][1] for c in CATEGORIES}}


def calibration(probs: Sequence[float], labels: Sequence[bool], bins: int = 10) -> dict[str, Any]:
    """Expected calibration error over `bins` equal-width bins, with the reliability curve (per non-empty bin:
    mean predicted probability, observed frequency, count) and ROC AUC (the chance that a positive outranks a
    negative; ties count half). ECE weights each bin's |observed - predicted| by its share of the items."""
    n = len(probs)
    curve = []
    ece = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        idx = [i for i, p in enumerate(probs) if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if not idx:
            continue
        mean_p = sum(probs[i] for i in idx) / len(idx)
        freq = sum(bool(labels[i]) for i in idx) / len(idx)
        ece += len(idx) / n * abs(freq - mean_p)
        curve.append({"p": round(mean_p, 4), "observed": round(freq, 4), "n": len(idx)})
    pos = [p for p, y in zip(probs, labels, strict=True) if y]
    neg = [p for p, y in zip(probs, labels, strict=True) if not y]
    auc = None
    if pos and neg:
        auc = sum((a > b) + 0.5 * (a == b) for a in pos for b in neg) / (len(pos) * len(neg))
    return {"n": n, "bins": bins, "ece": round(ece, 4) if n else None, "auc": None if auc is None else round(auc, 4),
            "curve": curve}
