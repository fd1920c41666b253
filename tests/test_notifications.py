"""Proposals as freedesktop notifications (ui/notify.py), against a real notification server: dunst on a private
session bus (dbus-daemon) under Xvfb.

- On a Wayland session (`proposals = "auto"`), a proposal appears in dunst with Accept / Reject / Snooze, and
  choosing Accept in dunst's own action menu (`dunstctl context`, which hands the actions to its `dmenu` command,
  here a script that picks one line, as a user picks an entry) stores `accepted` with its latency, as the popup
  does; Reject, Snooze (the proposal comes back as a notification), dismissing it in dunst and the timeout store
  what the popup path stores.
- Do Not Disturb (dunst paused): the proposal is held, neither shown nor decided, and shown when it ends.
- Without a server (no bus, or a bus where nobody owns org.freedesktop.Notifications), with `proposals =
  "popup"`, and by default on X11, the popup shows the proposal.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from jeepney import HeaderFields  # noqa: E402

from bench.wayland_session import start_private_bus  # noqa: E402
from proactive.assistant.agent import Agent  # noqa: E402
from proactive.assistant.feedback import FeedbackMemory  # noqa: E402
from proactive.assistant.live import Assistant, Proposal  # noqa: E402
from proactive.assistant.policy import Gate, Proactivity  # noqa: E402
from proactive.assistant.proposals import ProposalLog
from proactive.assistant.trigger import TriggerPolicy  # noqa: E402
from proactive.models.openai_http import OpenAICompatible  # noqa: E402
from proactive.models.signals import SignalScorer  # noqa: E402
from proactive.ui.notify import ACTIONS  # noqa: E402
from proactive.watcher.store.database import Store  # noqa: E402
from proactive.watcher.store.home import Config  # noqa: E402

from .conftest import open_tray  # noqa: E402
from .models_support import assistant_replies  # noqa: E402
from .xsession import XSession, wait_for  # noqa: E402

TASK = "Suggest a fix for the TimeoutError in client.py"
pytestmark = pytest.mark.skipif(not all(shutil.which(t) for t in ("dbus-daemon", "dunst", "dunstctl")),
                                reason="needs dbus-daemon and dunst (packaging/setup.sh test installs them)")

DUNSTRC = """[global]
    dmenu = {pick}
    browser = /bin/true
    show_indicators = no
    history_length = 50
"""
# dunst's "dmenu": reads the menu (one line per action, `#LABEL (SUMMARY) [ID,KEY]`), keeps a copy, and answers
# the line of the label the test chose, as a user picking that entry
PICK = """#!/bin/sh
cat > "{folder}/menu"
grep -m1 "^#$(cat "{folder}/choice") " "{folder}/menu"
"""


class Bus:
    """A private session bus (dbus-daemon, no service files: nothing is activated on it)."""

    def __init__(self, root: Path):
        root.mkdir(parents=True, exist_ok=True)
        self.proc, self.address = start_private_bus(root, dict(os.environ))

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        self.proc.stdout.close()


class Dunst:
    """dunst on a private bus and the test's X server, with a minimal config; `dunstctl` against it."""

    def __init__(self, root: Path, bus: Bus, x: XSession):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "choice").write_text("Accept")
        pick = root / "pick"
        pick.write_text(PICK.format(folder=root))
        pick.chmod(0o755)
        rc = root / "dunstrc"
        rc.write_text(DUNSTRC.format(pick=pick))
        self.env = dict(x.env, DBUS_SESSION_BUS_ADDRESS=bus.address, HOME=str(root))
        self.proc = subprocess.Popen(["dunst", "-config", str(rc)], env=self.env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        wait_for(lambda: self.proc.poll() is not None or self.ctl("is-paused", check=False).returncode == 0,
                 timeout=20, what="dunst on the bus")
        assert self.proc.poll() is None, self.proc.stderr.read()

    def ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        out = subprocess.run(["dunstctl", *args], env=self.env, capture_output=True, text=True, timeout=10)
        if check:
            assert out.returncode == 0, out.stderr
        return out

    def displayed(self) -> int:
        return int(self.ctl("count", "displayed").stdout.strip())

    def choose(self, label: str) -> None:
        """Pick `label` in dunst's action menu (what its context-menu shortcut opens)."""
        (self.root / "choice").write_text(label)
        menu = self.root / "menu"
        menu.unlink(missing_ok=True)
        self.ctl("context")  # dunst runs its menu in a thread of its own: wait for the menu to be read
        wait_for(lambda: menu.exists() and menu.read_text().count("\n") >= len(ACTIONS) - 1, what="dunst's menu")

    def menu(self) -> list[str]:
        return (self.root / "menu").read_text().splitlines()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stderr.close()


@pytest.fixture
def bus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Bus]:
    bus = Bus(tmp_path / "bus")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)  # conftest removes it: this process uses ours
    yield bus
    bus.stop()


@pytest.fixture
def dunst(tmp_path: Path, bus: Bus, xserver: XSession) -> Iterator[Dunst]:
    server = Dunst(tmp_path / "dunst", bus, xserver)
    yield server
    server.stop()


@pytest.fixture
def wayland(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a Wayland desktop session says about itself (Qt itself stays offscreen here)."""
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-test")


def make_tray(model_url: str, **settings):

    level = Proactivity.parse("high")
    assistant = Assistant(None, Agent(OpenAICompatible(model_url, "m")), Gate(SignalScorer(), level),
                          FeedbackMemory(), TriggerPolicy(level.min_interval_s, min_gap_s=0))
    settings.setdefault("web_search", "off")  # the web-search question (test_ui_app.py) is not what is tested here
    return open_tray(assistant, Config(popup_seconds=30, **settings))


@pytest.fixture
def tray_factory(qtbot, proactive_home, scripted, browser):
    scripted.answer_with(assistant_replies())
    made = []

    def make(**settings):
        """A tray app (one per home: the one made before is closed first)."""
        close_all()
        made.append(make_tray(scripted.url, **settings))
        return made[-1]

    def close_all() -> None:
        while made:
            made.pop().close()

    make.close_all = close_all
    yield make
    close_all()


def proposal(task: str = TASK) -> Proposal:
    store = Store()
    pid = ProposalLog(store).add(1002.0, None, task, "Want a fix for client.py?", 0.8, {"trigger": "episode"})
    store.close()
    return Proposal(pid, 1002.0, task, "Want a fix for client.py?", 0.8, "episode")


def decisions() -> list[tuple]:
    store = Store()
    rows = store.db.execute("SELECT proposal_id, decision, latency_s FROM decisions ORDER BY id").fetchall()
    store.close()
    return rows


def is_popup(widget) -> bool:
    from proactive.ui.popup import ProposalPopup

    return isinstance(widget, ProposalPopup)


def test_accept_in_the_notification_server_stores_accepted_with_latency(qtbot, dunst, wayland, tray_factory):
    tray = tray_factory()  # proposals = "auto" on a Wayland session: notifications
    assert tray.notifications is not None
    p = proposal()
    tray.backend.assistant.on_proposal(p)
    qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
    assert not is_popup(tray.popups[p.id]) and tray.state == "proposal"
    wait_for(lambda: dunst.displayed() == 1, what="the notification on screen")
    time.sleep(0.6)  # the user reads it
    dunst.choose("Accept")
    menu = dunst.menu()  # the actions the server shows for it
    nid = tray.popups.get(p.id).nid if p.id in tray.popups else None
    assert sorted(line.split(" (")[0] for line in menu) == ["#Accept", "#Fewer like this", "#Not this kind",
                                                            "#Reject", "#Snooze"], menu
    assert all(f"({TASK})" in line for line in menu), menu
    qtbot.waitUntil(lambda: bool(decisions()), timeout=30000)  # the help ran (model answer, search opened)
    qtbot.waitUntil(lambda: not tray.helping, timeout=30000)  # the help's result shown
    [(pid, decision, latency)] = decisions()
    assert (pid, decision) == (p.id, "accepted") and 0.6 <= latency < 10
    assert nid is None or any(line.endswith(f"[{nid},accepted]") for line in menu)
    wait_for(lambda: dunst.displayed() == 0, what="the notification withdrawn")
    # the help, as from the popup (no captured context here: the model's answer cannot be grounded, so not shown)
    assert "Your history has no earlier mention of 'TimeoutError'" in tray.windows[-1].text.toPlainText()
    assert tray.state == "capturing" and not tray.popups


def test_reject_snooze_dismiss_and_timeout_are_stored_as_from_the_popup(qtbot, dunst, wayland, tray_factory):
    tray = tray_factory()
    tray.snooze_s = 0.5
    rejected, snoozed, dismissed, expired = (proposal(f"{TASK} ({n})") for n in range(4))

    def show(p: Proposal) -> None:
        tray.backend.assistant.on_proposal(p)
        qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
        assert not is_popup(tray.popups[p.id])
        wait_for(lambda: dunst.displayed() == 1, what="the notification on screen")

    show(rejected)
    dunst.choose("Reject")
    qtbot.waitUntil(lambda: len(decisions()) == 1, timeout=5000)
    show(snoozed)
    dunst.choose("Snooze")
    qtbot.waitUntil(lambda: len(decisions()) == 2, timeout=5000)
    qtbot.waitUntil(lambda: snoozed.id in tray.popups, timeout=5000)  # back after the snooze, as a notification
    assert not is_popup(tray.popups[snoozed.id])
    wait_for(lambda: dunst.displayed() == 1, what="the snoozed proposal again")
    dunst.choose("Reject")
    qtbot.waitUntil(lambda: len(decisions()) == 3, timeout=5000)
    show(dismissed)
    dunst.ctl("close")  # the user closes it in dunst: no action
    qtbot.waitUntil(lambda: len(decisions()) == 4, timeout=5000)
    tray.popup_timeout_s = 0.5
    show(expired)
    qtbot.waitUntil(lambda: len(decisions()) == 5, timeout=5000)
    wait_for(lambda: dunst.displayed() == 0, what="the expired notification withdrawn")
    assert [(d[0], d[1]) for d in decisions()] == [
        (rejected.id, "rejected"), (snoozed.id, "snoozed"), (snoozed.id, "rejected"), (dismissed.id, "ignored"),
        (expired.id, "ignored")]
    assert 0.4 <= decisions()[-1][2] < 5  # ignored at the popup's timeout
    # the two that steer what is learned, as the popup's: both stored as "fewer"
    tray.popup_timeout_s = 30
    fewer, not_kind = (proposal(f"{TASK} ({n})") for n in (4, 5))
    for p, label in ((fewer, "Fewer like this"), (not_kind, "Not this kind")):
        show(p)
        dunst.choose(label)
        qtbot.waitUntil(lambda p=p: any(d[0] == p.id for d in decisions()), timeout=5000)
    assert [(d[0], d[1]) for d in decisions()[-2:]] == [(fewer.id, "fewer"), (not_kind.id, "fewer")]
    assert not tray.popups and not tray.snoozed and tray.state == "capturing"


def test_do_not_disturb_holds_the_proposal_until_it_ends(qtbot, dunst, wayland, tray_factory, monkeypatch):
    from proactive.ui import notify

    monkeypatch.setattr(notify, "DND_POLL_MS", 200)
    tray = tray_factory()
    dunst.ctl("set-paused", "true")
    p = proposal()
    tray.backend.assistant.on_proposal(p)
    qtbot.wait(1000)
    assert p.id not in tray.popups and tray.notifications.held == [p]  # neither shown nor decided
    assert dunst.ctl("count", "waiting").stdout.strip() == "0" and dunst.displayed() == 0  # never sent
    assert decisions() == []
    dunst.ctl("set-paused", "false")
    qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
    assert not is_popup(tray.popups[p.id]) and not tray.notifications.held
    wait_for(lambda: dunst.displayed() == 1, what="the held proposal on screen")
    dunst.choose("Reject")
    qtbot.waitUntil(lambda: bool(decisions()), timeout=5000)
    assert [d[1] for d in decisions()] == ["rejected"]


def test_the_popup_without_a_notification_server(qtbot, tmp_path, wayland, tray_factory, monkeypatch):
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)  # no session bus at all
    tray = tray_factory()
    assert tray.notifications is None
    bus = Bus(tmp_path / "empty-bus")  # a bus, but nobody owns org.freedesktop.Notifications
    try:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", bus.address)
        tray = tray_factory()
        assert tray.notifications is not None
        assert "no notification server" in tray.notifications.notifier.problem()
        p = proposal()
        tray.backend.assistant.on_proposal(p)
        qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
        popup = tray.popups[p.id]
        assert is_popup(popup) and popup.isVisible()
        popup.reject_button.click()
        assert [(d[0], d[1]) for d in decisions()] == [(p.id, "rejected")]
        tray_factory.close_all()  # the tray leaves the bus before it stops
    finally:
        bus.stop()


class ActionlessServer:
    """A notification server without the "actions" capability (as some minimal servers are): it owns the name and
    answers GetCapabilities with ["body"]; anything else is an error."""

    def __init__(self, address: str):
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection

        self.conn = open_dbus_connection(bus=address)
        assert self.conn.send_and_get_reply(message_bus.RequestName("org.freedesktop.Notifications")).body[0] == 1
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        from jeepney import MessageType, new_error, new_method_return

        while not self.stopped.is_set():
            try:
                msg = self.conn.receive(timeout=0.2)
            except TimeoutError:
                continue
            except OSError:
                return
            if msg.header.message_type != MessageType.method_call:
                continue
            if msg.header.fields.get(HeaderFields.member) == "GetCapabilities":
                self.conn.send(new_method_return(msg, "as", (["body"],)))
            else:
                self.conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod"))

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(5)
        self.conn.close()


def test_the_popup_when_the_server_cannot_show_actions(qtbot, bus, wayland, tray_factory):
    server = ActionlessServer(bus.address)
    try:
        tray = tray_factory()
        assert tray.notifications.notifier.problem() == "the notification server cannot show actions (buttons)"
        p = proposal()
        tray.backend.assistant.on_proposal(p)
        qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
        assert is_popup(tray.popups[p.id])
        tray.popups[p.id].accept_button.click()
        qtbot.waitUntil(lambda: bool(decisions()), timeout=30000)
        qtbot.waitUntil(lambda: not tray.helping, timeout=30000)  # the help's result shown
        assert [(d[0], d[1]) for d in decisions()] == [(p.id, "accepted")]
        tray_factory.close_all()
    finally:
        server.stop()


def test_the_setting_and_the_session_choose_the_path(dunst, monkeypatch, tray_factory):
    from proactive.ui.notify import wants_notifications

    assert wants_notifications("auto", {"XDG_SESSION_TYPE": "wayland"})
    assert wants_notifications("auto", {"WAYLAND_DISPLAY": "wayland-0"})
    assert not wants_notifications("auto", {"XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"})
    assert wants_notifications("notification", {"DISPLAY": ":0"})
    assert not wants_notifications("popup", {"WAYLAND_DISPLAY": "wayland-0"})
    for name in ("XDG_SESSION_TYPE", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    assert tray_factory().notifications is None  # X11, auto: the popup, though a server is there
    assert tray_factory(proposals="notification").notifications.notifier.problem() is None  # X11, asked for
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    assert tray_factory(proposals="popup").notifications is None
