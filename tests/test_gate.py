"""The need-first gate: speak only when P(need) clears the proactivity level's cost-ratio threshold, then show
the best candidate that the task model does not veto; the shipped need model is calibrated."""

from __future__ import annotations

import pytest

from proactive.assistant.need import need_for
from proactive.assistant.policy import Gate, Proactivity
from proactive.models.labels import calibration
from proactive.models.reward import load_default

CONTEXT = [{"time": "1", "event": "The user searches on Google for 'requests timeout' in Firefox."}]


class TableScorer:
    """A scorer whose answers are given: the gate's logic is tested apart from any learned model."""

    name = "table"

    def __init__(self, need: float, accept: dict[str, float]):
        self._need, self.accept = need, accept
        self.meta: dict = {}

    def need(self, context):
        return self._need

    def score(self, context, task):
        return 1.0 - self._need if task is None else self.accept[task]


GOOD, OK, JUNK = "Summarise the top results for 'requests timeout'", "Show code for 'requests timeout'", "Help"


@pytest.mark.parametrize(
    "need, level, accept, preference, shown, reason",
    [
        (0.9, "medium", {GOOD: 0.6, JUNK: 0.05}, None, GOOD, "shown"),
        (0.45, "medium", {GOOD: 0.9}, None, None, "P(need) 0.45 < 0.5"),  # not needed: even a great task waits
        (0.45, "high", {GOOD: 0.3}, None, GOOD, "shown"),  # high speaks at 0.3: a miss costs more
        (0.7, "low", {GOOD: 0.9}, None, None, "P(need) 0.70 < 0.75"),
        (0.9, "medium", {JUNK: 0.1}, None, None, "every candidate below the veto 0.15"),
        (0.9, "medium", {}, None, None, "no candidate"),
        # the task model ranks, and the agent's preference counts half
        (0.9, "medium", {GOOD: 0.5, OK: 0.6}, None, OK, "shown"),
        (0.9, "medium", {GOOD: 0.5, OK: 0.6}, {GOOD: 0.9, OK: 0.2}, GOOD, "shown"),
    ],
)
def test_need_first_decisions(need, level, accept, preference, shown, reason):
    gate = Gate(TableScorer(need, accept), Proactivity.parse(level))
    decision = gate.decide(CONTEXT, list(accept), preference)
    assert (decision.task, decision.reason, decision.p_need) == (shown, reason, need)
    early = gate.worth_generating(CONTEXT)
    assert (early is None) == (need >= Proactivity.parse(level).threshold)  # silent before generating anything


def test_thresholds_are_cost_ratios():
    """threshold = c / (1 + c), c = cost of an interruption / cost of a missed need."""
    for level, c in (("low", 3.0), ("medium", 1.0), ("high", 3 / 7)):
        assert Proactivity.parse(level).threshold == pytest.approx(c / (1 + c), abs=1e-9)


def test_shipped_need_model_is_calibrated_and_separates():
    """The need model shipped in the default artefact: its leave-one-session-out report says it ranks and is
    calibrated (recorded at training time), and it rates an error moment above an idle one."""
    model = load_default()
    need = need_for(model)
    assert need is not None
    report = need.meta["cross_validation_loso"]
    assert report["calibration"]["auc"] > 0.65 and report["calibration"]["ece"] < 0.15
    error = [{"time": "1", "event": "The user copies an error message starting 'TypeError: x is undefined' from "
                                    "the terminal."}]
    idle = [{"time": "1", "event": "The user moves the mouse in an application."}]
    gate = Gate(model, Proactivity.parse("medium"))
    assert gate.need(error) > gate.need(idle)


def test_calibration_figures():
    probs = [0.1, 0.1, 0.9, 0.9]
    perfect = calibration(probs, [False, False, True, True], bins=10)
    assert perfect["auc"] == 1.0 and perfect["ece"] == pytest.approx(0.1)
    wrong = calibration(probs, [True, True, False, False], bins=10)
    assert wrong["auc"] == 0.0 and wrong["ece"] == pytest.approx(0.9)
    assert [b["n"] for b in wrong["curve"]] == [2, 2]
