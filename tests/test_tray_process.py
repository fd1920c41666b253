"""The tray app in a process of its own, supervised by `proactive run`: a GUI crash cannot take capture down.

- A real `proactive tray` on Xvfb + openbox + trayer: its tray child killed with SIGKILL mid-run, and again with
  SIGABRT (a crash: faulthandler's "Fatal Python error" in the log); the watcher's process keeps capturing through
  both (copies made before, while the tray is dead, and after are all stored), the tray is started again, the
  log says why it stopped, `proactive status` tells; SIGTERM then ends everything, exit 0.
- The supervisor's restart policy with real short-lived children: a child that keeps dying is started again
  after each delay, then left stopped, said once, with its last words as the cause.
- The wire between the two processes, over a real socket pair, against the real `Backend`: a proposal reaches
  the tray side, a decision is stored, Accept's consent question goes back and forth and its help comes back,
  pause writes the pause, Quit ends the serve loop; a tray that connects again is shown the unanswered offers.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import sys
import threading
import time
from pathlib import Path

import pytest

from proactive.assistant.agent import Agent
from proactive.assistant.feedback import FeedbackMemory
from proactive.assistant.help import Help
from proactive.assistant.live import Assistant, Proposal
from proactive.assistant.policy import Gate, Proactivity
from proactive.assistant.proposals import ProposalLog
from proactive.assistant.tray_backend import Backend
from proactive.assistant.tray_wire import Line, RemoteBackend, serve
from proactive.assistant.trigger import TriggerPolicy
from proactive.models.signals import SignalScorer
from proactive.watcher import control
from proactive.watcher.events import WINDOW, RawEvent
from proactive.watcher.store.database import Store
from proactive.watcher.store.home import Config

from .conftest import WatcherProcess, run_cli
from .models_support import assistant_replies
from .xsession import XSession, wait_for


def status(env: dict[str, str]) -> dict:
    out = run_cli("status", "--json", env=env, process=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def copies(home: Path) -> list[str]:
    db = sqlite3.connect(home / "proactive.db")
    try:
        return [json.loads(d).get("text") for (d,) in db.execute(
            "SELECT data FROM raw_events WHERE kind = 'clipboard' ORDER BY id")]
    finally:
        db.close()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def died(pid: int) -> bool:
    """The process is gone or a zombie (its state read from /proc, which fails once it is reaped meanwhile)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] == "Z"
    except OSError:
        return True


@pytest.mark.x11
def test_a_killed_or_crashed_tray_is_restarted_and_capture_goes_on(xsession: XSession, proactive_home: Path,
                                                                     scripted):
    scripted.answer_with(assistant_replies())
    xsession.start_tray()
    run = WatcherProcess(proactive_home, dict(xsession.env, QT_QPA_PLATFORM="xcb"), args=(), command="tray",
                         extra=("--no-aw", "--rm", "signals", "--model", f"openai:{scripted.url}#m"))
    env = run.env
    try:
        wait_for(lambda: (status(env).get("tray") or {}).get("state") == "running", timeout=30, what="the tray")
        first = status(env)["tray"]["pid"]
        assert first != run.proc.pid and alive(first)
        wait_for(lambda: xsession.tray_owner() is not None, timeout=10, what="the tray panel")
        xsession.copy("copied before the tray died")
        for number, (sig, cause) in enumerate([(signal.SIGKILL, "killed by SIGKILL"),
                                               (signal.SIGABRT, "Fatal Python error: Aborted")], start=1):
            pid = status(env)["tray"]["pid"]
            os.kill(pid, sig)
            wait_for(lambda pid=pid: died(pid), timeout=10, what="the tray to die")
            xsession.copy(f"copied while the tray was down {number}")  # capture does not wait for the tray
            wait_for(lambda n=number: (status(env).get("tray") or {}).get("restarts") == n
                     and status(env)["tray"]["state"] == "running", timeout=30, what="the tray's restart")
            state = status(env)
            assert state["watcher"]["pid"] == run.proc.pid and run.proc.poll() is None
            assert state["tray"]["pid"] != pid and cause in state["tray"]["last_stop"], state["tray"]
            assert run.logged(f"the tray app stopped ({'killed by SIGABRT' if sig == signal.SIGABRT else cause}") == 1
        log = run.log.read_text()
        assert "Fatal Python error: Aborted" in log  # the crash's own words, from the child's stderr
        text = run_cli("status", env=env, process=True).stdout
        assert "tray: running (pid" in text and "restarted 2 times" in text, text
        xsession.copy("copied after the restarts")
        time.sleep(0.3)
        run.proc.send_signal(signal.SIGTERM)
        assert run.proc.wait(timeout=20) == 0
        last = status(env)["tray"]
        assert last is None and not alive(state["tray"]["pid"])  # the child ended with its supervisor
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
            run.proc.wait()
    assert copies(proactive_home) == ["copied before the tray died", "copied while the tray was down 1",
                                      "copied while the tray was down 2", "copied after the restarts"]


def test_a_tray_that_keeps_dying_is_left_stopped_with_its_cause(proactive_home: Path, fake_model, monkeypatch,
                                                                 caplog):
    """Real child processes that die at once: started again after each delay, then left stopped (said once, in
    the log and in the state `status` reads), the cause being the child's own last words."""
    from proactive.app import tray_supervisor

    monkeypatch.setattr(tray_supervisor, "RESTART_DELAYS", (0.05, 0.05))
    monkeypatch.setattr(tray_supervisor, "tray_command", lambda fd, db, verbose: [
        sys.executable, "-c", "import sys; print('Traceback (most recent call last):', file=sys.stderr); "
                              "print('  File x', file=sys.stderr); "
                              "print('RuntimeError: no platform plugin', file=sys.stderr); sys.exit(1)"])
    caplog.set_level("INFO", logger="proactive")
    quit_called = threading.Event()
    backend = Backend(_assistant(fake_model), None, None, Config(), on_quit=quit_called.set)
    supervisor = tray_supervisor.TraySupervisor(backend, None, False, Config)
    supervisor.start()
    supervisor.thread.join(timeout=30)
    assert not supervisor.thread.is_alive()
    state = control.read_tray_state()
    assert state is not None and state["state"] == "stopped" and state["restarts"] == 2, state
    assert state["last_stop"] == "exit status 1: RuntimeError: no platform plugin"
    stopped = [r.getMessage() for r in caplog.records if "stopped" in r.getMessage()]
    assert len([m for m in stopped if "not started again" in m]) == 1, stopped
    assert len([m for m in stopped if m.startswith("the tray app stopped (exit status 1")]) == 3, stopped
    assert not quit_called.is_set()  # capture is not ended by a tray that died
    supervisor.stop()
    assert control.read_tray_state() is None


# -- the wire ---------------------------------------------------------------------------------------------------


def _assistant(model) -> Assistant:
    level = Proactivity.parse("high")
    return Assistant(None, Agent(model), Gate(SignalScorer(), level), FeedbackMemory(),
                     TriggerPolicy(level.min_interval_s, min_gap_s=0))


class Heard:
    """What the tray's side was told, in order."""

    def __init__(self) -> None:
        self.items: list[tuple] = []

    def proposal(self, proposal: Proposal) -> None:
        self.items.append(("proposal", proposal))

    def busy(self, busy: bool) -> None:
        self.items.append(("busy", busy))

    def question(self, proposal_id: int, question: str) -> None:
        self.items.append(("question", proposal_id, question))

    def help_done(self, proposal_id: int, task: str, result: Help, answers: bool) -> None:
        self.items.append(("help", proposal_id, task, result, answers))

    def wait(self, kind: str, n: int = 1) -> list[tuple]:
        wait_for(lambda: len([i for i in self.items if i[0] == kind]) >= n, timeout=30, what=kind)
        return [i for i in self.items if i[0] == kind]


def stored_proposal(task: str, context: list | None = None) -> Proposal:
    store = Store()
    pid = ProposalLog(store).add(1002.0, None, task, "Want me to help?", 0.8, {"trigger": "moment"})
    store.close()
    return Proposal(pid, 1002.0, task, "Want me to help?", 0.8, "moment", context=context or [
        {"time": "1001", "event": "The user copies 'TimeoutError: timed out' in XTerm."}])


def connected(backend: Backend, config_path_reader=Config.load):
    ours, theirs = socket.socketpair()
    outcome: list[str] = []
    server = threading.Thread(target=lambda: outcome.append(serve(backend, Line(ours), config_path_reader)),
                              daemon=True)
    server.start()
    remote = RemoteBackend(Line(theirs))
    heard = Heard()
    remote.connect(heard)
    closed = threading.Event()
    remote.listen(on_closed=closed.set)
    wait_for(lambda: backend.events is not None, timeout=10, what="the serve loop")
    return remote, heard, server, outcome, closed


def decisions() -> list[tuple]:
    store = Store()
    try:
        return store.db.execute("SELECT proposal_id, decision, result FROM decisions ORDER BY id").fetchall()
    finally:
        store.close()


def test_the_wire_carries_proposals_decisions_consent_help_pause_and_quit(proactive_home, fake_model):
    backend = Backend(_assistant(fake_model), None, None, Config(web_search="ask"))
    remote, heard, server, outcome, closed = connected(backend)
    rejected = stored_proposal("Explain the TimeoutError from client.py")
    backend.assistant.on_proposal(rejected)  # what the assistant's thread calls
    [(_, shown)] = heard.wait("proposal")
    assert (shown.id, shown.task, shown.headline, shown.body) == (rejected.id, rejected.task, rejected.headline,
                                                                  rejected.body)
    remote.decided(shown.id, "rejected", 2.5)
    wait_for(lambda: bool(decisions()), timeout=10, what="the decision")
    assert decisions() == [(rejected.id, "rejected", None)]
    assert backend.assistant.memory.blocked(rejected.task) is not None  # the feedback memory heard it too

    accepted = stored_proposal("Search the web for 'TimeoutError: timed out'")
    accepted.actions = {accepted.task: "search"}
    backend.assistant.on_proposal(accepted)
    heard.wait("proposal", 2)
    remote.accept(accepted.id, 1.5)
    [(_, asked_id, question)] = heard.wait("question")
    assert asked_id == accepted.id and "duckduckgo.com" in question
    remote.consent(accepted.id, "off")
    [(_, helped_id, task, result, answers)] = heard.wait("help")
    assert (helped_id, task, answers) == (accepted.id, accepted.task, False)
    assert isinstance(result, Help) and isinstance(result.parts, tuple) and result.text
    wait_for(lambda: len(decisions()) == 2, timeout=10, what="the accepted decision")
    assert decisions()[1][:2] == (accepted.id, "accepted") and json.loads(decisions()[1][2])["text"]

    remote.pause(time.time() + 60)
    wait_for(lambda: control.read_pause() is not None, timeout=10, what="the pause")
    remote.resume()
    wait_for(lambda: control.read_pause() is None, timeout=10, what="the resume")
    remote.quit()
    server.join(timeout=10)
    assert outcome == ["quit"] and backend.events is None and backend.assistant.on_proposal is None


def test_a_tray_that_connects_again_is_shown_the_unanswered_offers(proactive_home, fake_model):
    backend = Backend(_assistant(fake_model), None, None, Config())
    remote, heard, server, outcome, _ = connected(backend)
    waiting, answered = stored_proposal("Explain the TimeoutError"), stored_proposal("Explain the KeyError")
    backend.assistant.on_proposal(waiting)
    backend.assistant.on_proposal(answered)
    heard.wait("proposal", 2)
    remote.decided(answered.id, "rejected", 1.0)
    wait_for(lambda: bool(decisions()), timeout=10, what="the decision")
    remote.line.close()  # the tray's process died: its end of the socket closed
    server.join(timeout=10)
    assert outcome == ["closed"]
    again, heard_again, server_again, _, _ = connected(backend)
    [(_, shown)] = heard_again.wait("proposal")
    assert shown.id == waiting.id
    again.quit()
    server_again.join(timeout=10)


def test_a_bad_line_on_the_wire_is_skipped(proactive_home, fake_model, caplog):
    backend = Backend(_assistant(fake_model), None, None, Config())
    remote, heard, server, outcome, _ = connected(backend)
    remote.line.sock.sendall(b"not json\n{\"no\": \"op\"}\n{\"op\": \"decided\", \"id\": \"x\"}\n")
    remote.quit()
    server.join(timeout=10)
    assert outcome == ["quit"]
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "not JSON" in said and "without an op" in said and "'decided' failed" in said


def test_the_tray_s_windows_are_not_captured(proactive_home: Path, fake_model, monkeypatch):
    """The tray's process is registered as ours while it runs (its windows, the accessibility question, History,
    are not the person's work: the watcher keeps nothing of them) and forgotten when it ends."""
    from proactive.app import tray_supervisor
    from proactive.watcher.privacy.filter import PrivacyFilter, is_own_window

    monkeypatch.setattr(tray_supervisor, "tray_command", lambda fd, db, verbose: [
        sys.executable, "-c", "import time; time.sleep(60)"])
    backend = Backend(_assistant(fake_model), None, None, Config())
    supervisor = tray_supervisor.TraySupervisor(backend, None, False, Config)
    supervisor.start()
    try:
        wait_for(lambda: supervisor.child is not None and (control.read_tray_state() or {}).get("state") == "running",
                 timeout=20, what="the tray's process")
        pid = supervisor.child.pid
        assert is_own_window(pid)
        f = PrivacyFilter(Config())
        assert f.clean(RawEvent("window", WINDOW, {"app": "proactive", "title": "Proactive: accessibility",
                                                   "pid": pid, "process": "python3"})) is None
    finally:
        supervisor.stop()
    assert not is_own_window(pid)


def test_a_popup_timing_out_after_a_decision_taken_elsewhere_changes_nothing(proactive_home, fake_model):
    """Accepted with `proactive decide` while the tray's popup was up: the popup's timeout (ignored) is not
    stored over it, nor told to the feedback memory."""
    backend = Backend(_assistant(fake_model), None, None, Config())
    remote, heard, server, outcome, _ = connected(backend)
    p = stored_proposal("Explain the TimeoutError")
    backend.assistant.on_proposal(p)
    heard.wait("proposal")
    store = Store()
    ProposalLog(store).decide(p.id, "accepted", 3.0)  # what `proactive decide ID accepted` stores
    store.close()
    remote.decided(p.id, "ignored", 30.0)
    remote.quit()
    server.join(timeout=10)
    assert [d[1] for d in decisions()] == ["accepted"]
    assert backend.assistant.memory.blocked(p.task) is None  # no "ignored" cooling-off either


# -- steering what is learned about the person --------------------------------------------------------------------

ERROR_TASK = "Explain the error 'TimeoutError: timed out' and suggest a fix"
COMMAND_TASK = "Explain what the command 'pip install reqeusts' does"


def shown_offer(backend: Backend, task: str, action: str) -> Proposal:
    """An offer as the live assistant stores and shows it: its situation in the row, remembered as shown."""
    from proactive.assistant import person_store
    from proactive.assistant.person_model import Situation, kind_of

    situation = Situation(kind_of(task, action), "debugging", "a terminal")
    store = Store()
    pid = ProposalLog(store).add(time.time(), None, task, "Want me to help?", 0.7, {
        "trigger": "moment", "actions": {task: action},
        person_store.SITUATION: person_store.situation_data(0.7, situation)})
    store.close()
    backend.assistant.memory.offered(task, 0.7, situation)
    proposal = Proposal(pid, time.time(), task, "Want me to help?", 0.7, "moment", actions={task: action})
    backend.assistant.on_proposal(proposal)
    return proposal


def learned_in_store():
    from proactive.assistant import person_store

    store = Store()
    try:
        return person_store.load(store)
    finally:
        store.close()


@pytest.mark.parametrize("path", ["direct", "wire"])
def test_fewer_like_this_not_this_kind_and_reset_reach_the_assistant_and_the_store(proactive_home, fake_model,
                                                                                    path):
    """The tray's "Fewer like this", "Not this kind" and Reset, on the `Backend` itself and across the wire: the
    decision is stored and learned, the kind is muted in memory and in the store, and Reset forgets both."""
    backend = Backend(_assistant(fake_model), None, None, Config())
    backend.connect(Heard())
    tray: Backend | RemoteBackend = backend
    if path == "wire":
        tray, heard, server, _, _ = connected(backend)
    person = backend.assistant.memory.person
    fewer = shown_offer(backend, ERROR_TASK, "explain_error")
    tray.decided(fewer.id, "fewer", 2.0)
    wait_for(lambda: decisions() == [(fewer.id, "fewer", None)], timeout=10, what="the fewer decision")
    assert person.tallies["About this error"].turned_down == 1
    assert backend.assistant.memory.blocked(ERROR_TASK) is not None  # held back like a rejected one

    muted = shown_offer(backend, COMMAND_TASK, "explain_command")
    tray.not_this_kind(muted.id, 3.0)
    wait_for(lambda: len(decisions()) == 2, timeout=10, what="the 'Not this kind' decision")
    assert decisions()[1] == (muted.id, "fewer", None)
    assert person.muted == {"About this command"} and muted.id not in backend.offers
    stored = learned_in_store()
    assert stored.muted == {"About this command"}
    assert {k: (t.shown, t.turned_down) for k, t in stored.tallies.items()} == {
        "About this error": (1, 1), "About this command": (1, 1)}

    tray.reset_learning()
    wait_for(lambda: not backend.assistant.memory.person.tallies, timeout=10, what="the reset")
    assert not backend.assistant.memory.person.muted
    stored = learned_in_store()
    assert not stored.tallies and not stored.muted  # the decisions stay; what was learned from them does not
    assert len(decisions()) == 2
    if path == "wire":
        tray.quit()
        server.join(timeout=10)


def test_a_later_answer_in_history_replaces_what_was_learned_from_the_timeout(proactive_home, fake_model):
    """The popup timed out (ignored, learned as a weak no); "Fewer like this" from History later replaces it."""
    backend = Backend(_assistant(fake_model), None, None, Config())
    backend.connect(Heard())
    offer = shown_offer(backend, ERROR_TASK, "explain_error")
    backend.decided(offer.id, "ignored", 30.0)
    assert backend.assistant.memory.person.tallies["About this error"].turned_down == 0
    backend.decided(offer.id, "fewer", 300.0)
    tally = backend.assistant.memory.person.tallies["About this error"]
    assert (tally.shown, tally.turned_down) == (1, 1)  # one offer, its latest answer
