"""Training the reward model (`proactive reward train`): synthetic negatives, weighted logistic regressions
(scikit-learn, the `research` extra) and the session-grouped cross-validations every artefact records. Never
imported by the running app."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .labels import CATEGORY_NAMES, context_key, normalize_task
from .reward import LinearModel, TrainedRewardModel
from .reward_data import data_hash
from .reward_evaluation import _metrics, session_folds
from .reward_features import context_features, event_text, task_features

#: training settings; stored in the artefact so a retrain with the same data reproduces it
TRAIN_CONFIG: dict[str, Any] = {
    "C_silence": 0.03, "C_task": 0.1, "balance": 1.0, "soft_labels": False,
    # feature-name prefixes each sub-model reads. Fewer features carried across sessions better: the silence
    # model reads only the last event (+ gap, length), the task model only the task and its overlap with the
    # context (leave-one-session-out AUC 0.71 and 0.67, against 0.65 and 0.61 with every feature).
    "silence_features": ["last_", "gap_", "n_events", "only_noise", "first_event", "repeat"],
    "task_features": ["t_"],
    # bad tasks the human rows lack, derived from each context (see synthetic_negatives)
    "synthetic_negatives": True,
}

SYNTHETIC_WEIGHT = 1.0  # a synthetic negative counts as much as a human rejection (0.3 left narration above grounded tasks)
#: the agent prompt's own example task (assistant/prompt.py): a task naming things absent from most contexts
EXAMPLE_TASK = "Suggest a fix for the requests TimeoutError in client.py"
GENERIC_OFFERS = ("Help the user with their current task", "Provide assistance with what you are working on",
                  "Offer support if needed", "Monitor the progress and offer further help")


def synthetic_negatives(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rejected tasks of kinds the human rows lack, one per distinct context, in data order (deterministic),
    taking turns: the narration of the last event ("The user switches to ..."), the prompt's own example task
    (it names a file and an error absent from the context; contexts that name client.py get a generic offer
    instead), and a generic offer (cycling a fixed list). One per context, not three: more synthetic rows
    outweighed the human rejections and lowered agreement on human-labelled false alarms."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for row in rows:
        key = json.dumps(row["obs"], sort_keys=True, ensure_ascii=False)
        if key in seen:
            continue
        seen.add(key)
        turn = len(seen) % 3
        last = event_text(row["obs"][-1]).strip()
        if turn == 0 and last:
            task = last
        elif turn == 1 and "client.py" not in key:
            task = EXAMPLE_TASK
        else:
            task = GENERIC_OFFERS[len(seen) % len(GENERIC_OFFERS)]
        out.append({"obs": row["obs"], "pred_task": task, "valid": False, "annotation": None,
                    "help_needed": row.get("help_needed"), "category": CATEGORY_NAMES["FA"],
                    "session": row.get("session"), "synthetic": True})
    return out


def _target(row: dict[str, Any], soft: bool) -> float:
    """`valid`; with soft labels, task rows use the fraction of annotators who accepted instead (silence rows'
    votes are not about the silence itself, so they keep `valid`)."""
    votes = row.get("annotation")
    if soft and row["pred_task"] is not None and votes:
        return sum(bool(v) for v in votes) / len(votes)
    return 1.0 if row["valid"] else 0.0


def fit_linear(feats: list[dict[str, float]], targets: list[float], c: float, balance: float, seed: int,
               prefixes: Sequence[str], counted: Sequence[bool] | None = None) -> LinearModel:
    """Weighted logistic regression on soft targets: each row counts as a positive with weight p and a negative
    with weight 1-p; classes are reweighted towards equal total weight (balance=1: fully). Rows not `counted`
    (synthetic negatives) take the class weights computed without them, so they add to the human rejections
    instead of diluting them."""
    from .extras import needs

    with needs("research", "training a reward model"):  # scikit-learn: one line naming the extra when missing
        from sklearn.linear_model import LogisticRegression

    names = sorted({k for f in feats for k in f if k.startswith(tuple(prefixes))})
    x = np.array([[f.get(k, 0.0) for k in names] for f in feats], dtype=np.float64)
    y = np.asarray(targets, dtype=np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = (x - mean) / scale
    mask = np.ones(len(y), dtype=bool) if counted is None else np.asarray(counted, dtype=bool)
    pos, neg = float(y[mask].sum()), float((1 - y[mask]).sum())
    if pos < 1e-9 or neg < 1e-9:  # one class only (e.g. a tiny export): a constant model
        p = min(max(pos / max(pos + neg, 1e-9), 0.02), 0.98)
        return LinearModel(names, mean.tolist(), scale.tolist(), [0.0] * len(names), math.log(p / (1 - p)))
    total = pos + neg
    w_pos = (total / (2 * pos)) ** balance
    w_neg = (total / (2 * neg)) ** balance
    xx = np.vstack([xs, xs])
    yy = np.concatenate([np.ones(len(y)), np.zeros(len(y))])
    ww = np.concatenate([y * w_pos, (1 - y) * w_neg]) * np.concatenate([np.where(mask, 1.0, SYNTHETIC_WEIGHT)] * 2)
    keep = ww > 0
    lr = LogisticRegression(C=c, max_iter=2000, random_state=seed)
    lr.fit(xx[keep], yy[keep], sample_weight=ww[keep])
    return LinearModel(names, mean.tolist(), scale.tolist(), lr.coef_[0].tolist(), float(lr.intercept_[0]))


def _with_negatives(rows: Sequence[dict[str, Any]], cfg: dict[str, Any]) -> list[dict[str, Any]]:
    return [*rows, *synthetic_negatives(rows)] if cfg.get("synthetic_negatives") else list(rows)


def _prepare(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Normalised rows with their features computed once (cross-validation refits on them many times)."""
    out = []
    for r in rows:
        task = normalize_task(r["pred_task"])
        feats = context_features(r["obs"])
        if task is not None:
            feats.update(task_features(r["obs"], task))
        out.append({**r, "pred_task": task, "_features": feats})
    return out


def _fit_prepared(rows: Sequence[dict[str, Any]], seed: int, cfg: dict[str, Any]) -> TrainedRewardModel:
    if not rows:
        raise ValueError("no training rows")
    silent = [r for r in rows if r["pred_task"] is None]
    tasks = [r for r in rows if r["pred_task"] is not None]
    # a sub-model without rows (e.g. training only on exported decisions, which are all tasks) is a constant 0.5
    silence_feats = [r["_features"] for r in silent] or [context_features([])]
    silence_y = [_target(r, False) for r in silent] or [0.5]
    task_feats = [r["_features"] for r in tasks] or [{**context_features([]), **task_features([], "")}]
    task_y = [_target(r, cfg["soft_labels"]) for r in tasks] or [0.5]
    silence = fit_linear(silence_feats, silence_y, cfg["C_silence"], cfg["balance"], seed, cfg["silence_features"])
    task = fit_linear(task_feats, task_y, cfg["C_task"], cfg["balance"], seed, cfg["task_features"],
                      counted=[not r.get("synthetic") for r in tasks] if tasks else None)
    human = [r for r in rows if not r.get("synthetic")]
    meta = {"config": cfg, "seed": seed, "training_rows": len(human), "training_silence_rows": len(silent),
            "training_synthetic_rows": len(rows) - len(human), "training_data_sha256": data_hash(human),
            # the contexts it learned from: a replay over them says its need figures are in-sample
            "training_contexts": sorted({context_key(r["obs"]) for r in human if r.get("obs")})}
    return TrainedRewardModel(silence, task, meta)


def train(rows: list[dict[str, Any]], seed: int = 0, config: dict[str, Any] | None = None,
          folds: int = 6) -> TrainedRewardModel:
    """Fit both sub-models on reward rows (as returned by `read_reward_rows`). Deterministic for data + seed.

    The artefact also records session-grouped cross-validations (`folds` folds and leave-one-session-out;
    folds=0 skips both) on the same data,
    so every model file says how well its recipe generalises to unseen sessions."""
    cfg = {**TRAIN_CONFIG, **(config or {})}
    prepared = _prepare(_with_negatives(rows, cfg))
    model = _fit_prepared(prepared, seed, cfg)
    if folds and len({str(r.get("session")) for r in prepared}) >= 2:
        model.meta["cross_validation"] = _cross_validate_prepared(prepared, folds, seed, cfg)
        model.meta["cross_validation_loso"] = _cross_validate_prepared(prepared, 0, seed, cfg)
    return model


# ------------------------------------------------------------------------------------------ cross-validation

def cross_validate(rows: list[dict[str, Any]], folds: int = 6, seed: int = 0,
                   config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Session-grouped cross-validation (folds=0: leave one session out): this model and always-accept, each
    with accuracy, precision, recall, F1 and agreement per category. No session is on both sides of a fold."""
    cfg = {**TRAIN_CONFIG, **(config or {})}
    return _cross_validate_prepared(_prepare(_with_negatives(rows, cfg)), folds, seed, cfg)


def cross_validated_scores(rows: list[dict[str, Any]], folds: int = 6, seed: int = 0,
                           config: dict[str, Any] | None = None) -> list[float]:
    """Each row's score from the model trained without its fold (for studies and threshold plots); the
    synthetic negatives train with their fold and are not scored."""
    cfg = {**TRAIN_CONFIG, **(config or {})}
    return _oof_scores(_prepare(_with_negatives(rows, cfg)), folds, seed, cfg)[: len(rows)]


def _oof_scores(rows: list[dict[str, Any]], folds: int, seed: int, cfg: dict[str, Any]) -> list[float]:
    n_sessions = len({str(r.get("session")) for r in rows})
    scores = [0.5] * len(rows)
    for test in session_folds(rows, n_sessions if folds <= 0 else folds):
        held = set(test)
        model = _fit_prepared([r for i, r in enumerate(rows) if i not in held], seed, cfg)
        for i in test:
            scores[i] = (model.silence if rows[i]["pred_task"] is None else model.task).prob(rows[i]["_features"])
    return scores


def _cross_validate_prepared(rows: list[dict[str, Any]], folds: int, seed: int,
                             cfg: dict[str, Any]) -> dict[str, Any]:
    """Scores on held-out sessions; metrics on the human rows only (synthetic negatives train, never score)."""
    scores = _oof_scores(rows, folds, seed, cfg)
    n_sessions = len({str(r.get("session")) for r in rows})
    human = [i for i, r in enumerate(rows) if not r.get("synthetic")]
    human_rows = [rows[i] for i in human]
    return {"folds": min(n_sessions, folds) if folds > 0 else n_sessions, "grouped_by": "session",
            "model": _metrics(human_rows, [scores[i] >= 0.5 for i in human]),
            "always_accept": _metrics(human_rows, [True] * len(human))}
