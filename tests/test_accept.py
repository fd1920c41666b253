"""One Accept (assistant/accept.py): the tray and `proactive decide` do the same help on the same offer, and a help
that fails is a failure said and stored, never a crash."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from proactive.app.cli import cli
from proactive.assistant.accept import Acceptance
from proactive.assistant.agent import Agent
from proactive.assistant.feedback import FeedbackMemory
from proactive.assistant.live import Assistant, Proposal, recent_context
from proactive.assistant.pages import PageReader
from proactive.assistant.policy import Gate, Proactivity
from proactive.assistant.proposals import ProposalLog
from proactive.assistant.trigger import TriggerPolicy
from proactive.models.signals import SignalScorer
from proactive.watcher.events import CLIPBOARD, TEXT, WINDOW, RawEvent
from proactive.watcher.store.database import Store

ERRORS = [
    ("python3 fetch.py", "Traceback (most recent call last):\n  File \"/home/ana/fetch.py\", line 1, in <module>\n"
                         "    import requests\nModuleNotFoundError: No module named 'requests'", "pip install requests"),
    ("git push", "To github.com:ana/notes.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push "
                 "some refs to 'github.com:ana/notes.git'", "git pull"),
]


def offer(store: Store, command: str, error: str, fake_model) -> Proposal:
    """The assistant's offer at a copied error, then the person moves on (the Accept must not follow them)."""
    store.add_events([
        RawEvent("window", WINDOW, {"app": "XTerm", "title": "bash", "process": "xterm"}, ts=1000.0),
        RawEvent("keyboard", TEXT, {"text": command, "erase": 0, "enter": True}, ts=1001.0),
        RawEvent("clipboard", CLIPBOARD, {"text": error, "length": len(error), "truncated": False}, ts=1004.0),
    ])
    level = Proactivity.parse("high")
    assistant = Assistant(None, Agent(fake_model), Gate(SignalScorer(), level), FeedbackMemory(),
                          TriggerPolicy(level.min_interval_s, min_gap_s=0), reader=PageReader("off"))
    observations, episode_id, key = recent_context(store)
    proposal = assistant.think(store, observations, episode_id, "test", 1006.0, key)
    assert proposal.task is not None, proposal.decision
    store.add_events([RawEvent("keyboard", TEXT, {"text": "ls docs", "erase": 0, "enter": True}, ts=1020.0)])
    return proposal


@pytest.mark.parametrize("command,error,step", ERRORS, ids=["python", "git"])
def test_the_tray_and_decide_give_the_same_help_on_the_same_offer(proactive_home, fake_model, command, error, step):
    store = Store()
    proposal = offer(store, command, error, fake_model)
    live, stored = Acceptance.of(store, proposal), Acceptance.of(store, Proposal.from_row(ProposalLog(store).get(proposal.id)))
    assert (live.task, live.action) == (stored.task, stored.action) and live.action is not None
    assert "ls docs" not in json.dumps(live.context) + json.dumps(stored.context)  # the offer's own moment
    reader = PageReader("off")
    tray = live.run(None, store.path, "off", live.material(reader, "off"))
    store.close()
    (proactive_home / "config.toml").write_text('web_search = "off"\n')
    out = CliRunner().invoke(cli, ["decide", str(proposal.id), "accepted", "--json"])
    assert out.exit_code == 0, out.output
    decided = json.loads(out.output)["result"]
    assert step in tray.text and decided["text"] == tray.text and decided["parts"] == list(tray.parts)


def test_a_help_that_fails_is_said_and_stored_not_a_crash(proactive_home, fake_model, monkeypatch):
    store = Store()
    proposal = offer(store, *ERRORS[0][:2], fake_model)
    store.close()

    def broken(*args, **kwargs):
        raise RuntimeError("the page reader broke")

    monkeypatch.setattr("proactive.assistant.accept.do_task", broken)
    out = CliRunner().invoke(cli, ["decide", str(proposal.id), "accepted", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)["result"]
    assert result["parts"] == ["error"] and "the page reader broke" in result["text"]
    store = Store()
    [(decision, kept)] = store.db.execute("SELECT decision, result FROM decisions WHERE proposal_id = ?",
                                          [proposal.id]).fetchall()
    store.close()
    assert decision == "accepted" and "could not do the task" in json.loads(kept)["text"]
