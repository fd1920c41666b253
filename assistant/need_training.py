"""Training the need model (`proactive reward train` stores it in the reward-model artefact): a logistic regression
on grounding features over the distinct contexts of reward rows, with a leave-one-session-out report. Kept
apart from `need.py` so the running app imports no training code."""

from __future__ import annotations

from typing import Any

from proactive.models.reward import LinearModel, TrainedRewardModel
from proactive.models.reward_data import need_contexts
from proactive.models.reward_evaluation import need_report, session_folds
from proactive.models.reward_training import fit_linear

from .need import CONFIG, NeedModel, features


def _fit(contexts: list[dict[str, Any]], seed: int, cfg: dict[str, Any]) -> LinearModel:
    return fit_linear([c["_g"] for c in contexts], [float(c["need"]) for c in contexts], cfg["C"], 0.0, seed,
                      cfg["features"])


def train(rows: list[dict[str, Any]], seed: int = 0, thresholds: dict[str, float] | None = None) -> NeedModel:
    """Fit on the distinct contexts of reward rows; record a leave-one-session-out report (calibration, and
    precision/recall/F1/FPR at each proactivity level's threshold) in the model's metadata."""
    contexts = need_contexts(rows)
    for c in contexts:
        c["_g"] = features(c["obs"])
    model = NeedModel(_fit(contexts, seed, CONFIG), {"config": CONFIG, "seed": seed, "contexts": len(contexts)})
    sessions = len({str(c.get("session")) for c in contexts})
    if sessions >= 2:
        probs, labels = [], []
        for test in session_folds(contexts, sessions):
            held = set(test)
            linear = _fit([c for i, c in enumerate(contexts) if i not in held], seed, CONFIG)
            for i in test:
                probs.append(linear.prob(contexts[i]["_g"]))
                labels.append(bool(contexts[i]["need"]))
        model.meta["cross_validation_loso"] = need_report(probs, labels, thresholds or {})
    return model


def train_artefact(rows: list[dict[str, Any]], seed: int = 0) -> TrainedRewardModel:
    """The shipped kind of artefact (`proactive reward train`): the reward model with the gate's need model in its
    metadata, with each proactivity level's threshold in the need model's report. Same rows and seed, same
    bytes."""
    from proactive.models.reward_training import train as train_reward

    from .policy import Proactivity

    model = train_reward(rows, seed=seed)
    levels = {name: Proactivity.parse(name).threshold for name in Proactivity.LEVELS}
    model.meta["need"] = train(rows, seed=seed, thresholds=levels).to_json()
    return model
