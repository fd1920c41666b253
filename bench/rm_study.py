"""Reward-model study: session-grouped 6-fold and leave-one-session-out cross-validation of the trained CPU reward
model against always-accept and a TF-IDF + logistic-regression baseline, as a Markdown table, plus seconds per
item.

    .venv/bin/python bench/rm_study.py [--data ../shared/data/proactivebench/reward_train.jsonl]

Every method sees the same folds (`models.reward_evaluation.session_folds`): whole sessions are held out, so no context
and no session is on both sides. Targets: accuracy >= 0.75, F1 >= 0.68, every category >= 0.50.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bench_data import LABELS, need  # noqa: E402
from proactive.models.reward import load_default  # noqa: E402
from proactive.models.reward_data import read_reward_rows  # noqa: E402
from proactive.models.reward_evaluation import _metrics, session_folds  # noqa: E402
from proactive.models.reward_training import TRAIN_CONFIG, cross_validated_scores  # noqa: E402


def tfidf_text(row: dict[str, Any]) -> str:
    """What a bag-of-words model sees: the last three events and the task (or a silence marker)."""
    events = " ".join(o["event"] for o in row["obs"][-3:])
    return f"{events} TASK {row['pred_task']}" if row["pred_task"] is not None else f"{events} SILENCE_TOKEN"


def tfidf_scores(rows: list[dict[str, Any]], folds: int) -> list[float]:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    n_sessions = len({r["session"] for r in rows})
    scores = [0.5] * len(rows)
    for test in session_folds(rows, n_sessions if folds <= 0 else folds):
        held = set(test)
        train_rows = [r for i, r in enumerate(rows) if i not in held]
        vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
        x = vec.fit_transform([tfidf_text(r) for r in train_rows])
        lr = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced")
        lr.fit(x, [r["valid"] for r in train_rows])
        probs = lr.predict_proba(vec.transform([tfidf_text(rows[i]) for i in test]))[:, 1]
        for i, p in zip(test, probs, strict=True):
            scores[i] = float(p)
    return scores


def targets_met(m: dict[str, Any]) -> str:
    ok = [m["accuracy"] >= 0.75, m["f1"] >= 0.68, all((v or 0) >= 0.5 for v in m["agreement"].values())]
    return " ".join(f"{name}:{'yes' if good else 'no'}" for name, good in zip(("acc", "F1", "cat"), ok, strict=True))


def row_line(method: str, protocol: str, m: dict[str, Any]) -> str:
    a = m["agreement"]
    return (f"| {method} | {protocol} | {m['accuracy']:.3f} | {m['precision']:.3f} | {m['recall']:.3f} | "
            f"{m['f1']:.3f} | {a['MN']:.2f} | {a['CR']:.2f} | {a['CD']:.2f} | {a['FA']:.2f} | {targets_met(m)} |")


SYNTHETIC_SESSION = re.compile(r"code_[1-4]\.json")  # the 4 synthetic sessions; the others are recordings


def ceiling(rows: list[dict[str, Any]]) -> str:
    """How far the labels let any model go: one annotator's agreement with the majority vote that includes them
    (task rows with three votes), and the accuracy of knowing each context's human need label exactly (a task
    is accepted where help was needed, a silence where it was not)."""
    votes = [(v, r["valid"]) for r in rows if r["pred_task"] is not None and len(r.get("annotation") or []) == 3
             for v in r["annotation"]]
    oracle = sum((r["valid"] == bool(r["help_needed"])) if r["pred_task"] is not None else True for r in rows)
    return (f"ceiling: one annotator agrees with the majority (their own vote included) on "
            f"{sum(v == m for v, m in votes) / len(votes):.3f} of {len(votes)} task votes; knowing each context's "
            f"need label exactly gives accuracy {oracle / len(rows):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(LABELS))
    args = parser.parse_args()
    need(args.data, "--data")
    rows = read_reward_rows([Path(args.data)])
    print(f"{len(rows)} rows, {len({r['session'] for r in rows})} sessions, "
          f"{len({(r['session'], r['obs'][-1]['time']) for r in rows})} contexts\n")
    print("| method | protocol | accuracy | precision | recall | F1 | MN | CR | CD | FA | targets |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    on_recorded: dict[str, dict[str, Any]] = {}
    methods = {
        "trained RM (shipped recipe)": lambda f: cross_validated_scores(rows, f),
        "trained RM, soft labels (annotator fraction)": lambda f: cross_validated_scores(
            rows, f, config={"soft_labels": True}),
        "trained RM, every feature in both sub-models": lambda f: cross_validated_scores(
            rows, f, config={"silence_features": [""], "task_features": [""]}),
        "trained RM, no class reweighting (calibrated)": lambda f: cross_validated_scores(
            rows, f, config={"balance": 0.0}),
        "trained RM, task half also reads the last event": lambda f: cross_validated_scores(
            rows, f, config={"task_features": ["t_", *TRAIN_CONFIG["silence_features"]]}),
        "TF-IDF (last 3 events + task) + LR": lambda f: tfidf_scores(rows, f),
        "always-accept": lambda f: [1.0] * len(rows),
    }
    recorded = [i for i, r in enumerate(rows) if not SYNTHETIC_SESSION.fullmatch(str(r["session"]))]
    for method, scores_for in methods.items():
        for folds, protocol in ((6, "6-fold by session"), (0, "leave-one-session-out")):
            scores = scores_for(folds)
            print(row_line(method, protocol, _metrics(rows, [s >= 0.5 for s in scores])))
            if method.startswith("trained RM (shipped"):
                on_recorded[protocol] = _metrics([rows[i] for i in recorded], [scores[i] >= 0.5 for i in recorded])
    print(f"\nshipped recipe on the {len(recorded)} rows of the recorded (not synthetic) sessions, held out: "
          + ", ".join(f"{p}: accuracy {m['accuracy']:.3f}, F1 {m['f1']:.3f}" for p, m in on_recorded.items()))
    print(ceiling(rows))

    model = load_default()
    items = [(r["obs"], r["pred_task"]) for r in rows]
    started = time.perf_counter()
    model.score_many(items)
    per_item = (time.perf_counter() - started) / len(items)
    print(f"\nshipped model ({model.meta.get('training_data_sha256')}): {per_item * 1000:.2f} ms per item "
          f"({per_item:.5f} s), {len(items)} items, one thread")


if __name__ == "__main__":
    main()
