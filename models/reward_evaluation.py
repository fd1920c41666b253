"""Evaluating reward and need models: session-grouped folds (no session on both sides) and the metrics an
artefact records."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .labels import agreement, calibration, confusion, rates


def _metrics(rows: Sequence[dict[str, Any]], predicted: Sequence[bool]) -> dict[str, Any]:
    """Agreement rounded for the artefact's metadata (stable bytes across runs)."""
    m = agreement(rows, predicted)
    return {"n": m["n"], **{k: round(m[k], 4) for k in ("accuracy", "precision", "recall", "f1")},
            "agreement": {c: (None if v is None else round(v, 4)) for c, v in m["agreement"].items()}}


def session_folds(rows: Sequence[dict[str, Any]], folds: int) -> list[list[int]]:
    """Row indices per fold, whole sessions per fold (so no context or session is on both sides), balanced by
    row count greedily in a fixed order: deterministic, no randomness to report."""
    sizes: dict[str, int] = {}
    for r in rows:
        sizes[str(r.get("session"))] = sizes.get(str(r.get("session")), 0) + 1
    buckets: list[list[str]] = [[] for _ in range(min(folds, len(sizes)))]
    load = [0] * len(buckets)
    for s in sorted(sizes, key=lambda s: (-sizes[s], s)):
        i = load.index(min(load))
        buckets[i].append(s)
        load[i] += sizes[s]
    where = {s: i for i, b in enumerate(buckets) for s in b}
    return [[j for j, r in enumerate(rows) if where[str(r.get("session"))] == i] for i in range(len(buckets))]


def need_report(probs: Sequence[float], labels: Sequence[bool],
                thresholds: dict[str, float]) -> dict[str, Any]:
    """Calibration and, at each named threshold, speaking-vs-needing metrics (precision, recall, F1, FPR)."""
    out: dict[str, Any] = {"contexts": len(probs), "calibration": calibration(probs, labels)}
    for name, threshold in thresholds.items():
        scores = rates(confusion([p >= threshold for p in probs], labels))
        out[name] = {"threshold": threshold, **{k: round(v, 4) for k, v in scores.items()}}
    return out
