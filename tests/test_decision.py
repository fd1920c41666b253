"""One decision path: the live assistant and replay decide through assistant/decision.py, so for the same
context, feedback memory and moment they show the same offer and hold back the same ones; `--as-live` adds the
live trigger's timing."""

from __future__ import annotations

from pathlib import Path

import pytest

from proactive.assistant.agent import Agent
from proactive.assistant.feedback import FeedbackMemory
from proactive.assistant.live import Assistant
from proactive.assistant.policy import Gate, Proactivity
from proactive.assistant.trigger import TriggerPolicy
from proactive.eval.sessions import load_session
from proactive.models.reward import load_default
from proactive.watcher.store.database import Store

from .test_replay import parts

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("session, length, level, spec", [
    # the built-in model's own scores, up to the copied error (each of its generations takes seconds)
    ("session_small.json", 3, "medium", "default"),
    ("session_repeat.json", None, "1", "fake"),  # the same error again and again: the memory holds offers back
])
def test_live_and_replay_decide_the_same(proactive_home, tmp_path, session, length, level, spec):
    import json

    from proactive.eval.replay import Replayer
    from proactive.models.registry import load_model

    path = tmp_path / session
    path.write_text(json.dumps(json.loads((FIXTURES / session).read_text())[:length]))
    observations = load_session(path)
    cache, gate, judge = parts(tmp_path, level)
    model = load_model(spec)  # one instance for both: the same weights, loaded once
    turns = Replayer(spec, lambda _spec: model, 1, gate, judge, cache).session(path)

    p = Proactivity.parse(level)
    live = Assistant(None, Agent(model, k=1), Gate(load_default(), p), FeedbackMemory(),
                     TriggerPolicy(p.min_interval_s), record_shown_as_ignored=True)  # nobody answers, as in replay
    store = Store()
    try:
        for i, turn in enumerate(turns):
            proposal = live.think(store, observations[: i + 1], None, "episode", float(observations[i]["time"]))
            decision = proposal.decision
            assert decision is not None and proposal.task == turn.shown, (i, decision)
            assert decision.gate.p_need == pytest.approx(turn.p_need, abs=1e-6)
            assert decision.held_back == turn.held_back, i
            assert proposal.candidates == turn.candidates, i
    finally:
        store.close()
    assert any(t.shown for t in turns), "the fixture has moments that need help"
    if session == "session_repeat.json":
        assert any(t.held_back for t in turns)


def test_as_live_keeps_the_levels_interval_and_holds_back_an_unanswered_repeat(tmp_path):
    """Every turn (the paper's protocol) against the live timing on the events' own clock: after an offer is
    shown the assistant does not run again within the level's minimum interval (30 s at level 1) but for a new
    error, which is offered at once; the same error copied again inside it is silent, too soon; and an offer
    shown and not answered is not shown again."""
    from proactive.assistant.feedback import similar
    from proactive.eval.replay import Replayer
    from proactive.eval.turns import turn_seconds
    from proactive.models.registry import load_model

    session = FIXTURES / "session_repeat.json"
    cache, gate, judge = parts(tmp_path, "1")
    every = Replayer("fake", load_model, 1, gate, judge, cache).session(session)
    live = Replayer("fake", load_model, 1, gate, judge, cache, as_live=True).session(session)
    assert all(t.p_need is not None for t in every)
    shown = [t for t in live if t.shown]
    interval = gate.proactivity.min_interval_s
    assert shown and all(turn_seconds(b) - turn_seconds(a) >= interval or "copies an error" in b.event
                         for a, b in zip(shown, shown[1:], strict=False))
    assert any("copies an error" in t.event for t in shown)  # the new error, at once inside the interval
    again = live[5]  # the same error copied again, inside the interval of the offer about it
    assert "again" in again.event and again.p_need is not None and again.shown is None
    shown_at = [turn_seconds(t) for t in shown]
    skipped = [t for t in live if t.p_need is None]  # the trigger did not run the assistant
    assert skipped and all(any(0 <= turn_seconds(t) - s < gate.proactivity.min_interval_s for s in shown_at)
                           for t in skipped)
    shown = [t.shown for t in live if t.shown]
    for i, a in enumerate(shown):
        assert not any(similar(a, b) for b in shown[i + 1:]), shown
    assert len(shown) <= len([t for t in every if t.shown])


def test_replay_as_live_from_the_command_line(proactive_home, tmp_path):
    import json

    from .test_replay import replay

    session = FIXTURES / "session_repeat.json"
    out = tmp_path / "out"
    done = replay(str(session), "--model", "fake", "--as-live", "--proactivity", "1", "--cache", str(tmp_path / "c.db"), "--out",
                  str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["events"] == 6
    assert [p.name for p in (out / "traces").iterdir()] == ["fake+gate-default-t0.1+as-live"]
    refused = replay(str(session), "--model", "fake", "--as-live", "--no-gate", "--cache", str(tmp_path / "c.db"))
    assert refused.returncode == 2 and "--as-live" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
