"""Proposals as freedesktop notifications (org.freedesktop.Notifications on the session bus), with Accept, Reject
and Snooze as the notification's actions, then "Fewer like this" and "Not this kind" as in the popup.

Why: a frameless popup cannot place itself on Wayland (the compositor decides where a window goes, so it lands in
the middle of the screen or wherever the compositor likes), while the desktop's own notification server shows a
notification where the user expects one and knows the desktop's Do Not Disturb. So on a Wayland session proposals
go to the notification server when one is there and it can show actions; everywhere else, and whenever no such
server answers, the popup (`popup.py`) stays. The `proposals` setting overrides the choice: `"popup"` always uses
the popup, `"notification"` uses notifications on X11 too (still falling back to the popup when no server can).

The decisions are the popup's, word for word: `NotificationProposal` has the popup's interface (`decided`,
`show`, `decide`, `close`, `raise_`), so the tray app records them the same way. An action is that decision; the
notification closed without an action (dismissed, expired by the server, closed by the app at quit) and no answer
within the popup's timeout are `ignored`; latency runs from when the server took the notification, with a
monotonic clock, like the popup's from when it was shown.

The bus is reached with jeepney (pure Python, already a dependency on Linux), not QtDBus, though QtDBus ships with
PySide6-Essentials: `Notify` takes the replaced id as a D-Bus `uint` and the hints as `a{sv}`, and PySide6 can
send neither. It has no unsigned QVariant (a Python int goes as `int32`, and servers that check signatures, such
as every GDBus-based one, dunst included, refuse the call), and a `QDBusInterface`'s introspected `Notify` takes
the hints as a raw type PySide6 cannot build (both checked against dunst). Servers address `ActionInvoked` and
`NotificationClosed` to the connection that called `Notify`, so the one jeepney connection does both: its
receiver thread hands the signals to the GUI thread through a queued Qt signal.
"""

from __future__ import annotations

import html
import logging
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from proactive.assistant.feedback import ACCEPTED, IGNORED, REJECTED, SNOOZED
from proactive.assistant.person_model import FEWER, NOT_THIS_KIND

from .popup import decide_once

log = logging.getLogger(__name__)

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
INTERFACE = "org.freedesktop.Notifications"
DUNST_INTERFACE = "org.dunstproject.cmd0"
#: the answers first (a server that shows only a few buttons shows these), then the two that steer what is learned
ACTIONS = ((ACCEPTED, "Accept"), (REJECTED, "Reject"), (SNOOZED, "Snooze"), (FEWER, "Fewer like this"),
           (NOT_THIS_KIND, "Not this kind"))
CALL_TIMEOUT_S = 2.0
DND_POLL_MS = 5000  # while proposals are held for Do Not Disturb: how often to look whether it ended


def wayland_session(env: Mapping[str, str] | None = None) -> bool:
    """A Wayland desktop session (even when Qt itself runs through XWayland)."""
    env = os.environ if env is None else env
    return env.get("XDG_SESSION_TYPE", "").lower() == "wayland" or bool(env.get("WAYLAND_DISPLAY"))


def wants_notifications(setting: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether the `proposals` setting asks for notifications here: `"notification"` always, `"auto"` on a
    Wayland session (on X11 the popup places itself well and is kept), `"popup"` never."""
    return setting == "notification" or (setting == "auto" and wayland_session(env))


def session_bus_address(env: Mapping[str, str] | None = None) -> str | None:
    """The session bus's address (DBUS_SESSION_BUS_ADDRESS; desktop sessions set it, pam_systemd included), or None.

    Read here and given to Qt explicitly, not left to libdbus, which reads it once per process and, without it,
    may start a bus of its own through X11 autolaunch."""
    env = os.environ if env is None else env
    return env.get("DBUS_SESSION_BUS_ADDRESS") or None


class _ToQt:
    """A jeepney filter "queue" that hands each matched message straight to a Qt signal (emitted from jeepney's
    receiver thread, delivered in the GUI thread: a queued connection)."""

    def __init__(self, emit: Callable[[Any], None]):
        self.emit = emit

    def put_nowait(self, message: Any) -> None:
        self.emit(message)


class Notifier(QObject):
    """One connection to the session bus's notification server: capabilities, Do Not Disturb, Notify and
    CloseNotification, and the server's ActionInvoked / NotificationClosed signals routed to the notification
    they concern. Calls block the GUI thread for at most `CALL_TIMEOUT_S` (a server answers in milliseconds)."""

    signal = Signal(object)  # a matched D-Bus signal, from jeepney's receiver thread

    def __init__(self, router: Any):
        super().__init__()
        from jeepney import MatchRule
        from jeepney.bus_messages import message_bus

        self.router = router
        self.open: dict[int, NotificationProposal] = {}  # notification id -> the proposal it shows
        self.signal.connect(self._dispatch)
        rule = MatchRule(type="signal", interface=INTERFACE, path=PATH)
        self.router.send_and_get_reply(message_bus.AddMatch(rule), timeout=CALL_TIMEOUT_S)
        self.filter = self.router.filter(rule, queue=_ToQt(self.signal.emit))

    @classmethod
    def connect_session(cls, env: Mapping[str, str] | None = None) -> Notifier | None:
        """A notifier on the session bus, or None when there is no session bus to reach."""
        address = session_bus_address(env)
        if address is None:
            return None
        try:
            from jeepney.io.threading import DBusRouter, open_dbus_connection

            router = DBusRouter(open_dbus_connection(bus=address, auth_timeout=CALL_TIMEOUT_S))
        except Exception as exc:  # no socket, refused, not a bus, authentication failed
            log.info("no session bus at %s (%s): proposals use the popup", address, exc)
            return None
        try:
            return cls(router)
        except Exception as exc:  # the bus refused the match rule, or stopped answering
            log.info("the session bus at %s refused a subscription (%s): proposals use the popup", address, exc)
            router.close()
            router.conn.close()
            return None

    # -- calls -----------------------------------------------------------------------------------------------

    def _call(self, method: str, signature: str | None = None, args: tuple = (), *, interface: str = INTERFACE,
              ) -> tuple | None:
        """Call a method of the server's object; its reply's body, or None on any error (no server, no such
        method or property, a closed connection, no answer in time)."""
        from jeepney import DBusAddress, MessageType, new_method_call

        address = DBusAddress(PATH, bus_name=SERVICE, interface=interface)
        try:
            reply = self.router.send_and_get_reply(new_method_call(address, method, signature, args),
                                                   timeout=CALL_TIMEOUT_S)
        except Exception as exc:
            log.debug("%s.%s failed: %s", interface, method, exc)
            return None
        if reply.header.message_type != MessageType.method_return:
            log.debug("%s.%s failed: %s", interface, method, reply.body)
            return None
        return reply.body

    def _property(self, interface: str, name: str) -> Any:
        reply = self._call("Get", "ss", (interface, name), interface="org.freedesktop.DBus.Properties")
        return reply[0][1] if reply else None  # a variant: (signature, value)

    def capabilities(self) -> list[str] | None:
        """The server's capabilities, or None when no notification server answers."""
        reply = self._call("GetCapabilities")
        return None if reply is None else [str(c) for c in reply[0]]

    def problem(self) -> str | None:
        """Why proposals cannot be shown as notifications now, or None (a server is there and shows actions)."""
        capabilities = self.capabilities()
        if capabilities is None:
            return f"no notification server ({SERVICE}) on the session bus"
        if "actions" not in capabilities:
            return "the notification server cannot show actions (buttons)"
        return None

    def server_name(self) -> str:
        reply = self._call("GetServerInformation")
        return str(reply[0]) if reply else ""

    def do_not_disturb(self) -> bool:
        """Whether the desktop's Do Not Disturb is on, as far as this server says.

        - the notification specification's `Inhibited` property (its later revisions; KDE Plasma has it: untested
          here, no Plasma on this machine);
        - dunst's `paused` property (`dunstctl set-paused true`; tested against a real dunst);
        - GNOME Shell: `show-banners` off in org.gnome.desktop.notifications (its Do Not Disturb switch; read
          with `gsettings`; untested here, no GNOME Shell on this machine).
        A server that says none of these has no Do Not Disturb we can see: proposals are shown."""
        if self._property(INTERFACE, "Inhibited") is True:
            return True
        if self._property(DUNST_INTERFACE, "paused") is True:
            return True
        if self.server_name().lower() == "gnome-shell" and shutil.which("gsettings"):
            try:
                out = subprocess.run(["gsettings", "get", "org.gnome.desktop.notifications", "show-banners"],
                                     capture_output=True, text=True, timeout=2)
            except (OSError, subprocess.SubprocessError):
                return False
            return out.stdout.strip() == "false"
        return False

    def notify(self, summary: str, body: str, actions: list[str], timeout_ms: int) -> int | None:
        """Show a notification; its id, or None if the server refused or is gone."""
        reply = self._call("Notify", "susssasa{sv}i",
                           ("Proactive", 0, "dialog-information", summary, body, actions,
                            {"desktop-entry": ("s", "proactive")}, timeout_ms))
        return int(reply[0]) if reply else None

    def close_notification(self, nid: int) -> None:
        self._call("CloseNotification", "u", (nid,))

    # -- signals ---------------------------------------------------------------------------------------------

    def _dispatch(self, message: Any) -> None:
        """ActionInvoked: the proposal's decision. NotificationClosed (expired, dismissed, closed by the app):
        ignored, as a popup closed any way other than its buttons; after an action the proposal has already
        decided, and this changes nothing. Notifications of other applications are not ours: skipped."""
        from jeepney import HeaderFields

        member, body = message.header.fields.get(HeaderFields.member), message.body
        proposal = self.open.get(int(body[0])) if body else None
        if proposal is None:
            return
        if member == "ActionInvoked" and body[1] in dict(ACTIONS):
            proposal.decide(str(body[1]))
        elif member == "NotificationClosed":
            proposal.server_closed()

    def shutdown(self) -> None:
        for proposal in list(self.open.values()):
            proposal.close()
        self.filter.close()
        self.router.close()
        self.router.conn.close()


class NotificationProposal(QObject):
    """One proposal shown as a notification, with `ProposalPopup`'s interface: `decided(proposal_id, decision,
    latency_s)` is emitted exactly once; `show()` sends it, `decide()` answers it, `close()` withdraws it
    (ignored)."""

    decided = Signal(int, str, float)

    def __init__(self, notifier: Notifier, proposal_id: int, task: str, response: str, timeout_s: float,
                 markup: bool):
        super().__init__()
        self.notifier = notifier
        self.proposal_id = proposal_id
        self.task, self.response, self.timeout_s, self.markup = task, response, timeout_s, markup
        self.nid: int | None = None
        self._done = False
        self._shown_at = time.monotonic()
        self.timer = QTimer(self)  # the popup's timeout: whatever the server does with expire_timeout
        self.timer.setSingleShot(True)
        self.timer.setInterval(max(0, int(timeout_s * 1000)))
        self.timer.timeout.connect(lambda: self.decide(IGNORED))

    def show(self) -> bool:
        """Send the notification; False if the server did not take it (the caller then uses the popup)."""
        body = html.escape(self.response, quote=False) if self.markup else self.response  # model text: no markup
        actions = [part for key, label in ACTIONS for part in (key, label)]
        nid = self.notifier.notify(self.task, body, actions, int(self.timeout_s * 1000))
        if nid is None:
            return False
        self.nid = nid
        self.notifier.open[nid] = self
        self._shown_at = time.monotonic()
        self.timer.start()
        return True

    def raise_(self) -> None:
        """The popup's raise_(): a notification server decides stacking; nothing to do."""

    def decide(self, decision: str) -> None:
        """Emit `decided` once (a later action, close or timeout is ignored), then withdraw the notification."""
        if self._emit(decision):
            self._withdraw()

    def server_closed(self) -> None:
        self._emit(IGNORED)
        if self.nid is not None:
            self.notifier.open.pop(self.nid, None)

    def close(self) -> None:
        """Withdrawn by the app (quit): ignored, as a popup closed by the app."""
        self._emit(IGNORED)
        self._withdraw()

    def _withdraw(self) -> None:
        if self.nid is not None and self.notifier.open.pop(self.nid, None) is not None:
            self.notifier.close_notification(self.nid)

    def _emit(self, decision: str) -> bool:
        return decide_once(self, decision)


HELD = object()  # `Notifications.present` held the proposal back (Do Not Disturb)


class Notifications(QObject):
    """The notification path of the tray app: it shows a proposal as a notification, holds it while Do Not
    Disturb is on, or says the popup must show it.

    Do Not Disturb: the proposal is held, not shown and not decided, and shown (then answered like any other) when
    Do Not Disturb ends, looked at every few seconds while something is held. Why held rather than recorded: the
    user never saw it, so `ignored` would teach the feedback memory and the exported reward data a "not now" the
    user never said; and why not sent anyway: servers that queue during Do Not Disturb (dunst) would show it
    after our timeout had already counted it as ignored. It is what the popup path does with a snoozed proposal
    that comes due while capture is paused: it waits, undecided, and is shown at resume."""

    def __init__(self, notifier: Notifier, show: Callable[[Any], None]):
        super().__init__()
        self.notifier = notifier
        self.show_again = show  # the tray's way to show a proposal (it calls present() again)
        self.held: list[Any] = []
        self.poll = QTimer(self)
        self.poll.setInterval(DND_POLL_MS)
        self.poll.timeout.connect(self._dnd_check)

    @classmethod
    def for_setting(cls, setting: str, show: Callable[[Any], None],
                    env: Mapping[str, str] | None = None) -> Notifications | None:
        """The notification path if the `proposals` setting wants it here and a session bus is there, else None
        (the popup then shows every proposal). Whether a server with actions answers is asked per proposal, so
        a server started later, or restarted, is found."""
        if not wants_notifications(setting, env):
            return None
        notifier = Notifier.connect_session(env)
        return None if notifier is None else cls(notifier, show)

    def present(self, proposal: Any, timeout_s: float) -> Any:
        """A shown `NotificationProposal` (connect `decided` before anything can happen: it is emitted from the
        event loop only), `HELD` during Do Not Disturb, or None: the popup must show it."""
        problem = self.notifier.problem()
        if problem is not None:
            log.info("proposal %s in the popup: %s", proposal.id, problem)
            return None
        if self.notifier.do_not_disturb():
            self.held.append(proposal)
            self.poll.start()
            return HELD
        markup = "body-markup" in (self.notifier.capabilities() or [])
        shown = NotificationProposal(self.notifier, proposal.id, proposal.headline, proposal.body,
                                     timeout_s, markup)
        return shown if shown.show() else None

    def _dnd_check(self) -> None:
        if self.notifier.problem() is None and self.notifier.do_not_disturb():
            return
        self.poll.stop()
        held, self.held = self.held, []
        for proposal in held:
            self.show_again(proposal)

    def shutdown(self) -> None:
        self.poll.stop()
        self.notifier.shutdown()
