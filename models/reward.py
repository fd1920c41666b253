"""The trained CPU reward model: `score(context, task_or_None) -> P(the user accepts)`.

Why it looks like this (see `bench/rm_study.py` for the numbers):
- Bag-of-words and sentence embeddings of the context + task, fed to logistic regression or an MLP, do not beat
  always-accept on F1 on ProactiveBench's 1,190 human judgements (TF-IDF + LR: F1 0.50, missed needs 25%): with
  ~230 contexts, words learn the sessions' topics, not when help is welcome. So the model reads a few dozen *hand-described* features that carry across topics:
  what just happened (a search, an error, a copy, a question, code typed, only mouse/keys noise, a switch of
  application), how long the session and the last gap are, and, for a task, how concrete it is (named files,
  quoted or code terms, length) and how much it talks about the latest events versus generic offers ("help the
  user", "provide assistance", "monitor").
- Silence and tasks are different questions (is help needed here? / is this offer worth it?), so there are two
  small logistic regressions, one per kind, each on its own features (giving the task model the context's need
  features, or the silence model's need estimate, made it worse or no better).
- Annotators split 2-vs-1 on most proposals. Fitting task rows on the fraction of annotators who accepted (soft
  labels, `soft_labels: true`) was tried and is supported; the majority label (`valid`) did slightly better in
  both cross-validations (accuracy 0.643 vs 0.629, F1 0.592 vs 0.584), so it is the default.
- Classes are reweighted so that each sub-model treats accept and reject alike: a model that always rejects
  proposals would look accurate and be useless as a gate.
Inference is numpy + stdlib only (sklearn is imported by `train` alone), and the artefact is one JSON file.

The model is split by job, so the running app imports no training code: `reward_features.py` (the features),
this module (the artefact: loading and scoring, numpy + stdlib), `reward_data.py` (reading and checking rows),
`reward_training.py` (fitting, with scikit-learn, and the cross-validations an artefact records) and
`reward_evaluation.py` (folds and metrics).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from .labels import normalize_task
from .reward_features import context_features, task_features
from .scorer import Context

VERSION = 2  # 2: may carry the assistant's need model (key "need", kept in `meta`); version 1 still loads
READABLE_VERSIONS = (1, 2)
DEFAULT_ARTEFACT = Path(__file__).with_name("reward_default.json")


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


class LinearModel:
    """One logistic regression over named features, standardised: everything inference needs, as JSON."""

    def __init__(self, names: list[str], mean: list[float], scale: list[float], coef: list[float],
                 intercept: float):
        self.names, self.intercept = names, float(intercept)
        self.mean, self.scale, self.coef = (np.asarray(v, dtype=np.float64) for v in (mean, scale, coef))
        self.w = self.coef / self.scale  # folded: z = w.x + b
        self.b = self.intercept - float(self.w @ self.mean)

    def vector(self, feats: dict[str, float]) -> np.ndarray:
        return np.fromiter((feats.get(k, 0.0) for k in self.names), dtype=np.float64, count=len(self.names))

    def prob(self, feats: dict[str, float]) -> float:
        return _sigmoid(float(self.w @ self.vector(feats)) + self.b)

    def to_json(self) -> dict[str, Any]:
        return {"features": self.names, "mean": [round(float(v), 10) for v in self.mean],
                "scale": [round(float(v), 10) for v in self.scale],
                "coef": [round(float(v), 10) for v in self.coef], "intercept": round(self.intercept, 10)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LinearModel:
        names = list(d["features"])
        if not len(names) == len(d["mean"]) == len(d["scale"]) == len(d["coef"]):
            raise ValueError("feature, mean, scale and coef lengths differ")
        return cls(names, d["mean"], d["scale"], d["coef"], d["intercept"])


class TrainedRewardModel:
    """Two logistic regressions on hand-described features: one for silence, one for tasks.

    The artefact may also carry the assistant's need model (`meta["need"]`, written by `assistant/need.py`,
    which reads grounding features this package cannot compute); the gate uses it when present.
    (Feeding the silence model's need estimate into the task model was tried: no gain in cross-validation.)"""

    def __init__(self, silence: LinearModel, task: LinearModel, meta: dict[str, Any] | None = None,
                 name: str = "trained"):
        self.silence, self.task, self.meta, self.name = silence, task, dict(meta or {}), name

    def need(self, context: Context) -> float:
        """P(help is needed now) read from the silence model: 1 - P(silence is right). Not calibrated (the
        silence model is class-reweighted); the gate prefers the need model stored with the artefact."""
        return round(1.0 - self.silence.prob(context_features(context)), 6)

    def features(self, context: Context, task: str | None) -> dict[str, float]:
        feats = context_features(context)
        if task is not None:
            feats.update(task_features(context, task))
        return feats

    def score(self, context: Context, task: str | None) -> float:
        task = normalize_task(task)
        feats = self.features(context, task)
        return round((self.silence if task is None else self.task).prob(feats), 6)

    def score_many(self, items: Iterable[tuple[Context, str | None]]) -> list[float]:
        return [self.score(context, task) for context, task in items]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "proactive-reward-model", "version": VERSION, "name": self.name, **self.meta,
                "silence": self.silence.to_json(), "task": self.task.to_json()}

    def save(self, path: Path) -> None:
        """Sorted keys and rounded floats: the same data and seed give the same bytes."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                              encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> TrainedRewardModel:
        """Raises ValueError with a one-line reason when the file is not a reward model of this version."""
        from .files import json_problem, read_regular_file

        try:
            text = read_regular_file(path, ValueError, named=False).decode("utf-8")
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a reward-model file (bad JSON: {exc.msg} at line {exc.lineno})") from None
        except UnicodeDecodeError:
            raise ValueError("not a reward-model file (not UTF-8 text)") from None
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not a reward-model file ({json_problem(exc)})") from None
        if not isinstance(data, dict) or data.get("kind") != "proactive-reward-model":
            raise ValueError("not a reward-model file")
        if data.get("version") not in READABLE_VERSIONS:
            raise ValueError(f"reward-model version {data.get('version')} is not supported (expected {VERSION})")
        try:
            silence, task = LinearModel.from_json(data["silence"]), LinearModel.from_json(data["task"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"corrupt reward-model file: {exc}") from None
        meta = {k: v for k, v in data.items() if k not in ("kind", "version", "name", "silence", "task")}
        return cls(silence, task, meta, name=str(data.get("name", Path(path).stem)))


def load_default() -> TrainedRewardModel:
    model = TrainedRewardModel.load(DEFAULT_ARTEFACT)
    model.name = "default"
    return model
