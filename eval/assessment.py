"""How well a reward model agrees with human labels, and how calibrated its probabilities are (`proactive reward eval`).

Agreement (accuracy, precision, recall, F1, per category) of P(accept) >= 0.5 with `valid`; calibration of
P(need) as the gate reads it (the need model stored with a trained reward model, else the scorer's own) against
`help_needed`, one item per distinct context, and of P(accept) on task rows. A scorer that fails on a row (an
LLM judge with no verdict) is counted as a failure and as a disagreement, never guessed.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from proactive.assistant.agent import normalize_task
from proactive.assistant.policy import Gate, Proactivity
from proactive.models.base import ModelError
from proactive.models.judge import JudgeFailure
from proactive.models.labels import context_key
from proactive.models.reward_data import need_contexts
from proactive.models.scorer import Scorer

from .metrics import agreement, calibration

#: progress(total, label) -> a context giving advance(): the CLI passes a progress bar, tests pass nothing
Progress = Callable[[int, str], AbstractContextManager[Callable[[], None]]]


@contextlib.contextmanager
def no_progress(total: int, label: str) -> Iterator[Callable[[], None]]:
    yield lambda: None


def score_rows(scorer: Scorer, rows: list[dict[str, Any]],
               progress: Progress = no_progress) -> tuple[list[float | None], int, float]:
    """P(accept) of every row's task (None where the scorer failed), the failures and the seconds per item."""
    probs: list[float | None] = []
    failures = 0
    started = time.perf_counter()
    with progress(len(rows), "scoring") as advance:
        for row in rows:
            try:
                probs.append(float(scorer.score(row["obs"], normalize_task(row["pred_task"]))))
            except (JudgeFailure, ModelError):
                failures += 1
                probs.append(None)
            advance()
    return probs, failures, (time.perf_counter() - started) / max(1, len(rows))


def need_calibration(scorer: Scorer, rows: list[dict[str, Any]], progress: Progress = no_progress) -> dict[str, Any]:
    """Calibration of P(need) as the gate reads it against `help_needed`, one item per distinct context."""
    gate = Gate(scorer, Proactivity.parse("medium"))  # the level does not change P(need)
    contexts = need_contexts(rows)
    probs, labels, failures = [], [], 0
    with progress(len(contexts), "P(need)") as advance:
        for c in contexts:
            try:
                probs.append(gate.need(c["obs"]))
                labels.append(bool(c["need"]))
            except (JudgeFailure, ModelError):
                failures += 1
            advance()
    source = "need model stored with the reward model" if gate.need_model is not None else "the scorer's own"
    return {**calibration(probs, labels), "failures": failures, "source": source}


def trained_on(scorer: Scorer) -> str | None:
    """What a trained reward model learned from, as its artefact records it (None for one that was not trained:
    the hand-written scorer, an LLM judge)."""
    meta = getattr(scorer, "meta", None) or {}
    if "training_rows" not in meta:
        return None
    synthetic = meta.get("training_synthetic_rows")
    return (f"{meta['training_rows']} human rows over {len(meta.get('training_contexts') or ())} contexts"
            + (f" (+{synthetic} derived rejections)" if synthetic else "")
            + f", data sha256 {meta.get('training_data_sha256', '?')}")


def in_sample_contexts(scorer: Scorer, rows: list[dict[str, Any]]) -> int:
    """How many of the evaluated rows' distinct contexts the reward model was trained on: evaluated on them, its
    agreement is in-sample, not a measure of new data."""
    trained = set((getattr(scorer, "meta", None) or {}).get("training_contexts") or ())
    return len(trained & {context_key(r["obs"]) for r in rows if r.get("obs")})


def assess(scorer: Scorer, rows: list[dict[str, Any]], progress: Progress = no_progress,
           plot_folder: Path | None = None) -> dict[str, Any]:
    """Agreement and calibration of `scorer` on reward rows; with `plot_folder`, also reliability.png there."""
    probs, failures, seconds = score_rows(scorer, rows, progress)
    predicted = [not row["valid"] if p is None else p >= 0.5 for row, p in zip(rows, probs, strict=True)]
    result = agreement(rows, predicted)  # a failure counts as a disagreement
    result.update({"seconds_per_item": seconds, "failures": failures, "rm": scorer.name,
                   "trained_on": trained_on(scorer), "in_sample": in_sample_contexts(scorer, rows),
                   "contexts": len({context_key(r["obs"]) for r in rows if r.get("obs")})})
    task_rows = [(p, bool(r["valid"])) for r, p in zip(rows, probs, strict=True)
                 if p is not None and normalize_task(r["pred_task"]) is not None]
    result["calibration"] = {"need": need_calibration(scorer, rows, progress),
                             "accept": calibration([p for p, _ in task_rows], [y for _, y in task_rows])}
    if plot_folder is not None:
        from .report import reliability_plot

        plot_folder.mkdir(parents=True, exist_ok=True)
        curves = {name: c for name, c in (("P(need)", result["calibration"]["need"]),
                                          ("P(accept), task rows", result["calibration"]["accept"])) if c["n"]}
        result["calibration"]["plot"] = str(reliability_plot(plot_folder / "reliability.png", curves,
                                                             f"Reliability of {result['rm']}"))
    return result
