"""Metrics, table-driven: every null variant, pred@k at event level, FPR vs the paper's false alarm, failures,
one confusion count for every comparison, calibration (ECE over equal-width bins, reliability curve), and the
calibration `proactive reward eval` reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proactive.eval.metrics import (
    Counts,
    Judgement,
    agreement,
    calibration,
    confusion,
    event_at_k,
    judgement,
    need_detection,
    need_labels,
    paper_metrics,
    percentile,
    short_category,
)
from proactive.models.labels import confusion as binary_confusion, rates
from proactive.models.reward_evaluation import need_report

from .conftest import FIXTURES, run_cli


@pytest.mark.parametrize("task", [None, "", "null", "NULL", "None", "none", [], ["null"], "  ", "n/a"])
@pytest.mark.parametrize("accepted", [True, False])
def test_every_null_variant_is_silence(task, accepted):
    c = confusion([judgement(task, accepted)])
    assert c == Counts(tp=0, fp=0, tn=int(accepted), fn=int(not accepted), errors=0)


@pytest.mark.parametrize(
    "judged, expected",
    [
        # tp fp tn fn
        ([("t", True)] * 2 + [("t", False)] * 2 + [(None, True)] * 6, dict(recall=1.0, precision=0.5,
                                                                            accuracy=0.8, false_alarm=0.5,
                                                                            f1=2 / 3, fpr=0.25)),
        ([("t", False)] * 9 + [("t", True)], dict(recall=1.0, precision=0.1, accuracy=0.1, false_alarm=0.9,
                                                   f1=2 * 0.1 / 1.1, fpr=1.0)),
        ([(None, False)] * 3 + [(None, True)], dict(recall=0.0, precision=0.0, accuracy=0.25, false_alarm=0.0,
                                                    f1=0.0, fpr=0.0)),
    ],
    ids=["mixed", "always-speaks", "always-silent"],
)
def test_paper_metrics_and_fpr(judged, expected):
    m = paper_metrics([judgement(t, a) for t, a in judged])
    for key, value in expected.items():
        assert getattr(m, key) == pytest.approx(value), key


def test_failures_are_counted_not_scored():
    m = paper_metrics([judgement("t", True), judgement("t", None), judgement(None, None)])
    assert m.counts.errors == 2 and m.accuracy == 1.0 and m.counts.tp == 1


@pytest.mark.parametrize(
    "candidates, accepted, silence, expected",
    [
        (["a", "b", "c"], [False, True, False], None, Judgement("b", True)),  # any accepted: accepted
        (["a", "b"], [False, False], None, Judgement("a", False)),
        (["null", ""], [True, True], False, Judgement(None, False)),  # null candidates: a silent event
        ([], [], True, Judgement(None, True)),
        (["a", "b"], [None, False], None, Judgement("a", False)),  # one failed judgement ignored
        (["a"], [None], None, Judgement("a", None)),  # all failed: a failure
    ],
    ids=["any-accepted", "none-accepted", "null-candidates", "silent", "partial-failure", "all-failed"],
)
def test_pred_at_k_is_event_level(candidates, accepted, silence, expected):
    assert event_at_k(candidates, accepted, silence) == expected


def test_pred_at_3_counts_events_not_candidates():
    events = [event_at_k(["a", "b", "c"], [True, False, False], None), event_at_k([], [], True)]
    m = paper_metrics(events)
    assert m.counts == Counts(tp=1, fp=0, tn=1, fn=0, errors=0)


def test_need_labels_and_detection():
    rows = [{"obs": [{"time": "1", "event": "a"}], "help_needed": False},
            {"obs": [{"time": "1", "event": "a"}, {"time": "2", "event": "b"}], "help_needed": True},
            {"obs": [{"time": "1", "event": "a"}, {"time": "2", "event": "b edited"}], "help_needed": False},
            {"obs": [{"time": "3", "event": "c"}], "help_needed": False}]
    labels = need_labels(rows)
    assert labels == {"1": False, "2": True, "3": False}
    result = need_detection({"1": True, "2": True, "3": False, "99": True}, labels)
    assert (result.tp, result.fp, result.tn, result.fn) == (1, 1, 1, 0)
    assert result.contexts == 3 and result.fpr == 0.5 and result.precision == 0.5


@pytest.mark.parametrize(
    "category, task, valid, short",
    [("Missed-Need (MN)", None, False, "MN"), ("Correct-Detection (CD)", "t", True, "CD"),
     (None, None, True, "CR"), (None, "null", False, "MN"), (None, "t", False, "FA"), ("", "t", True, "CD")],
)
def test_short_category(category, task, valid, short):
    assert short_category(category, task, valid) == short


def test_agreement_per_category():
    rows = [{"valid": True, "category": "Correct-Detection (CD)", "pred_task": "t"},
            {"valid": False, "category": "False-Alarm (FA)", "pred_task": "t"},
            {"valid": True, "category": "Correct-Rejection (CR)", "pred_task": None},
            {"valid": False, "category": "Missed-Need (MN)", "pred_task": None}]
    always = agreement(rows, [True] * 4)
    assert always["accuracy"] == 0.5 and always["agreement"] == {"MN": 0.0, "CR": 1.0, "CD": 1.0, "FA": 0.0}
    perfect = agreement(rows, [True, False, True, False])
    assert perfect["f1"] == 1.0 and all(v == 1.0 for v in perfect["agreement"].values())


@pytest.mark.parametrize(
    "pairs, counts",
    [
        ([(True, True)] * 3 + [(True, False)] * 2 + [(False, False)] * 4 + [(False, True)],
         {"tp": 3, "fp": 2, "tn": 4, "fn": 1}),
        ([(True, True), (True, True)], {"tp": 2, "fp": 0, "tn": 0, "fn": 0}),
        ([(False, True), (False, False)], {"tp": 0, "fp": 0, "tn": 1, "fn": 1}),
        ([], {"tp": 0, "fp": 0, "tn": 0, "fn": 0}),
    ],
    ids=["mixed", "all-right-positives", "never-predicts", "empty"],
)
def test_one_confusion_count_for_every_comparison(pairs, counts):
    """(predicted, true) pairs counted once, in models/labels.py; need detection, agreement with human labels,
    the need model's report and the paper's metrics all count through it and agree."""
    predicted, actual = [p for p, _ in pairs], [a for _, a in pairs]
    assert binary_confusion(predicted, actual) == counts
    expected = rates(counts)
    keys = [str(i) for i in range(len(pairs))]
    detection = need_detection(dict(zip(keys, predicted, strict=True)), dict(zip(keys, actual, strict=True)))
    assert detection.confusion() == counts and detection.contexts == len(pairs)
    assert {k: getattr(detection, k) for k in expected} == pytest.approx(expected)
    agreed = agreement([{"valid": a, "pred_task": "t"} for a in actual], predicted)
    assert {k: agreed[k] for k in ("precision", "recall", "f1")} == pytest.approx(
        {k: expected[k] for k in ("precision", "recall", "f1")})
    report = need_report([0.9 if p else 0.1 for p in predicted], actual, {"at": 0.5})["at"]
    assert {k: report[k] for k in expected} == pytest.approx(expected, abs=1e-4)
    # a proposal is a positive; the truth is positive when a proposal is accepted or a silence rejected
    paper = paper_metrics([judgement("t" if p else None, a if p else not a) for p, a in pairs])
    assert paper.counts == Counts(**counts) and paper.fpr == pytest.approx(expected["fpr"])


def test_percentile():
    assert percentile([], 0.5) == 0.0
    assert percentile([3, 1, 2], 0.5) == 2
    assert percentile(list(range(101)), 0.95) == 95


@pytest.mark.parametrize(
    "probs, labels, ece, curve",
    [
        # perfectly calibrated: 20% of the 0.2s and 80% of the 0.8s are positive
        ([0.2] * 5 + [0.8] * 5, [True] + [False] * 4 + [True] * 4 + [False], 0.0,
         [{"p": 0.2, "observed": 0.2, "n": 5}, {"p": 0.8, "observed": 0.8, "n": 5}]),
        # overconfident: says 0.9, right half the time
        ([0.9] * 4, [True, False, True, False], 0.4, [{"p": 0.9, "observed": 0.5, "n": 4}]),
        # bins weigh by their share: 0.025 * 2/4 + 0.1 * 1/4 + 0 * 1/4; 1.0 falls in the last bin, 0.0 in the first
        ([0.0, 0.1, 0.05, 1.0], [False, False, False, True], 0.0375,
         [{"p": 0.025, "observed": 0.0, "n": 2}, {"p": 0.1, "observed": 0.0, "n": 1},
          {"p": 1.0, "observed": 1.0, "n": 1}]),
        ([], [], None, []),
    ],
    ids=["calibrated", "overconfident", "weighted-bins", "empty"],
)
def test_calibration_ece_and_reliability_curve(probs, labels, ece, curve):
    result = calibration(probs, labels)
    assert result["bins"] == 10 and result["n"] == len(probs)
    assert result["ece"] == (None if ece is None else pytest.approx(ece, abs=1e-4))
    assert result["curve"] == curve


def test_calibration_bins_are_equal_width():
    assert [b["n"] for b in calibration([0.1, 0.3, 0.45, 0.9], [True] * 4, bins=2)["curve"]] == [3, 1]
    assert calibration([0.2, 0.8], [False, True])["auc"] == 1.0


def test_rm_eval_reports_calibration(proactive_home, tmp_path):
    legacy = {"n", "accuracy", "precision", "recall", "f1", "agreement", "seconds_per_item", "failures", "rm"}
    out = run_cli("reward", "eval", "--data", str(FIXTURES / "reward_small.jsonl"), "--json", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == legacy | {"calibration", "trained_on", "in_sample", "contexts"}
    need, accept = result["calibration"]["need"], result["calibration"]["accept"]
    rows = [json.loads(line) for line in (FIXTURES / "reward_small.jsonl").read_text().splitlines()]
    assert need["n"] == len({json.dumps(r["obs"], sort_keys=True) for r in rows})  # one per distinct context
    assert accept["n"] == sum(r["pred_task"] is not None for r in rows)  # task rows only
    for c in (need, accept):
        assert c["bins"] == 10 and 0.0 <= c["ece"] <= 1.0 and sum(b["n"] for b in c["curve"]) == c["n"]
    assert need["source"] == "need model stored with the reward model" and need["failures"] == 0
    assert Path(result["calibration"]["plot"]).stat().st_size > 1000
    text = run_cli("reward", "eval", "--data", str(FIXTURES / "reward_small.jsonl"), "--rm", "signals")
    assert text.returncode == 0, text.stderr
    assert "calibration (10 equal-width bins" in text.stdout and "P(need)   ECE" in text.stdout
    assert "P(accept) ECE" in text.stdout and "the scorer's own" in text.stdout
    bad = run_cli("reward", "eval", "--data", str(FIXTURES / "reward_small.jsonl"), "--out",
                  str(FIXTURES / "reward_small.jsonl"))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def _turns() -> list:
    """Two sessions of judged turns: offers accepted and rejected, silences right and wrong, with P(need)."""
    from proactive.eval.turns import Turn

    out = []
    for session, marks in (("a.json", "TFnN"), ("b.json", "TnNF")):
        for i, mark in enumerate(marks):
            spoke = mark in "TF"
            task = f"task {session} {i}" if spoke else None
            out.append(Turn(session, i, f"{100 * len(out) + i}", f"event {i}", candidates=[task] if task else [],
                            shown=task, proposed=task, judged_shown=mark in "TN" if spoke else None,
                            judged_proposed=mark == "T" if spoke else None, judged_silence=None if spoke else
                            mark == "N", judged_candidates=[mark == "T"] if spoke else [], p_need=0.8 if spoke
                            else 0.2))
    return out


def test_every_reported_figure_is_read_from_the_summary_and_defined_once():
    """The report's tables, `replay --json`'s definitions and docs/research.md come from `metrics.JUDGED` and
    `metrics.NEED`: each figure has a value in a real summary, under both protocols, and one definition."""
    from pathlib import Path

    from proactive.eval.metrics import JUDGED, NEED, definitions, definitions_table, summarize
    from proactive.eval.report import need_rows, summary_rows

    turns = _turns()
    labels = {t.time: t.shown is not None for t in turns}
    summary = summarize(turns, labels)
    for metric in JUDGED:
        for protocol in ("paper", "live"):
            assert metric.value(summary, protocol) is not None, (metric.name, protocol)
    for metric in (*JUDGED, *NEED):
        assert metric.value(summary) is not None, metric.name
        assert (metric.interval_of(summary) is not None) == metric.interval, metric.name
    assert summary.need is not None and summary.need.f1 == 1.0 and JUDGED[1].value(summary) == summary.paper.recall
    rows = summary_rows({"ours": summary}, "ours")
    assert rows[0] == "| model | protocol | " + " | ".join(m.name for m in JUDGED) + " |"
    assert len(rows) == 4 and all(r.count("|") == len(JUDGED) + 3 for r in rows)
    assert need_rows({"ours": summary})[2].count("[") == sum(m.interval for m in NEED)
    assert list(definitions()) == [m.name for m in (*JUDGED, *NEED)]
    docs = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text(encoding="utf-8")
    assert "\n".join(definitions_table()) in docs, "docs/research.md's table of figures differs from eval/metrics.py"
