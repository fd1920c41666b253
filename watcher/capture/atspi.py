"""The accessibility bus (AT-SPI2 over D-Bus): the focused widget's role, typed text and terminal prompts.

Applications with toolkit accessibility on (GTK, Qt, LibreOffice, the browsers) tell the accessibility bus what
happens in them, on X11 and Wayland alike. This source listens there for:
- `object:state-changed:focused`: the focused widget and its role, as a FOCUS event; the privacy filter drops
  every key typed while a "password text" widget has the focus (on X11 keys still come from the RECORD extension);
- `object:text-changed:insert` / `:delete` in editable widgets, as TYPED events (with `text=True`): the privacy
  stage keeps of them what the person's keys made (watcher/privacy/typed_keys.py: matched to the keys on X11,
  one character per key on Wayland; a completion, a rewrite or a program's text is not typing) and feeds that to
  the same text composer as keys, dropped by role;
- the same events from terminals (role "terminal", e.g. VTE terminals: lxterminal, gnome-terminal): the text a
  terminal shows, read only to see a password or username prompt waiting for input ("[sudo] password for u:",
  "Password:", "Enter passphrase for key ...", "Username for 'https://...'"), as PROMPT events; the filter then
  hides the next line typed there. Terminal output itself is never emitted;
- `window:activate`: the window titles the FOCUS events carry.

Why jeepney and not pyatspi: pyatspi is a binding over libatspi through PyGObject, which has no wheels and would
have to build from PyPI in the virtual environment (a C compiler, the GLib, GObject-introspection and cairo
headers) in `setup.sh` and in every pipx install; jeepney is a pure-Python D-Bus client with no dependencies, and
AT-SPI2 is plain D-Bus: a registry to tell applications which events someone listens to, signals, and a few
method calls on the objects that sent them (their role, their application's name).

Where the bus is missing (no session bus, no at-spi2-core, a bare server) `start` raises `SourceUnavailable`,
which the watcher logs once; `probe()` says why and what to do, without starting anything.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
import time
from collections import deque
from typing import Any

from proactive.watcher.capture.sources import Probe, Source, SourceUnavailable
from proactive.watcher.events import FOCUS, PROMPT, TYPED, WINDOW, Emit, RawEvent

log = logging.getLogger(__name__)

CALL_TIMEOUT = 1.0  # seconds for one method call to an application (its role, its name)
SETUP_TIMEOUT = 5.0  # seconds for the calls at start: they may start the bus launcher or the registry
ROOT_PATH = "/org/a11y/atspi/accessible/root"
ACCESSIBLE = "org.a11y.atspi.Accessible"
#: The events registered with the registry (applications send only what someone listens to).
EVENTS = ("object:state-changed:focused", "window:activate", "object:text-changed:insert",
          "object:text-changed:delete")
#: (interface, member) of the signals received; a match rule each.
SIGNALS = (("org.a11y.atspi.Event.Object", "StateChanged"), ("org.a11y.atspi.Event.Object", "TextChanged"),
           ("org.a11y.atspi.Event.Window", "Activate"))
#: Roles whose text changes are typing (other widgets' text changes are programs writing: labels, status bars).
EDITABLE_ROLES = frozenset({"text", "entry", "password text", "paragraph", "document text", "editbar",
                            "spin button", "combo box", "document frame", "document web", "section", "heading",
                            "list item", "table cell"})
TERMINAL_ROLE = "terminal"
ROLE_PASSWORD_TEXT = 40  # AtspiRole ATSPI_ROLE_PASSWORD_TEXT
PASSWORD_ROLE = "password text"
MAX_CACHE = 256  # applications whose name and pid are remembered
MAX_PROMPT_TEXT = 400  # characters of a terminal's inserted text looked at (its last line only)
REGISTRY_RECHECK = 1.0  # seconds a process not on the bus is believed: applications register after their window maps

FIX = ("start the accessibility bus (install at-spi2-core; a desktop session starts it) and enable toolkit "
       "accessibility: `gsettings set org.gnome.desktop.interface toolkit-accessibility true` (GTK and Qt), or "
       "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 for Qt applications; GTK 3 applications need NO_AT_BRIDGE unset")


#: What the privacy filter does where no field's role can be seen (watcher/privacy/filter.py): said by the probe.
COUNT_ONLY = ("typed text is kept at most as a count of characters (a terminal's is judged by its echo state): "
              "nothing shows the field is not a password field")
TURN_ON = ("`proactive accessibility on` (or the tray's question, or `gsettings set org.gnome.desktop.interface "
           "toolkit-accessibility true`), then restart your applications")


def _session_address() -> str:
    """The session bus, from DBUS_SESSION_BUS_ADDRESS only (as the keyring does: no guessed socket, so a process
    started without a session bus never reaches the desktop's)."""
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")
    if address:
        return address
    raise SourceUnavailable("no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set), so no accessibility bus")


def _call(conn: Any, message: Any, timeout: float = CALL_TIMEOUT) -> tuple[Any, ...]:
    """A method call's reply body; D-Bus errors and timeouts raise `_CallFailed`."""
    from jeepney import MessageType

    try:
        reply = conn.send_and_get_reply(message, timeout=timeout)
    except TimeoutError as exc:
        raise _CallFailed("no answer") from exc
    if reply.header.message_type == MessageType.error:
        raise _CallFailed(f"{reply.header.fields.get(4, 'error')}: {reply.body[0] if reply.body else ''}")
    return reply.body


class _CallFailed(Exception):
    pass


def _call_many(conn: Any, messages: list[Any], timeout: float = CALL_TIMEOUT) -> list[tuple[Any, ...] | _CallFailed]:
    """Several method calls (no file descriptors) sent at once, in one write, and their replies read as they come:
    one round trip for all, where `_call` waits for each answer before the next question. Returns each reply's
    body, or a `_CallFailed` for an error reply (an object gone meanwhile); no answer to all of them within
    `timeout` raises `_CallFailed`. Other messages read meanwhile go to the connection's filters, as jeepney's
    `send_and_get_reply` does. Used where many objects are asked about (watcher/capture/browser_page.py)."""
    from jeepney import HeaderFields, MessageType

    from proactive.watcher.capture.dbus_wire import serialise

    pending: dict[int, int] = {}
    data = []
    for i, message in enumerate(messages):
        serial = next(conn.outgoing_serial)
        data.append(serialise(message, serial))
        pending[serial] = i
    conn.sock.sendall(b"".join(data))
    out: list[tuple[Any, ...] | _CallFailed] = [_CallFailed("no answer")] * len(messages)
    deadline = time.monotonic() + timeout
    while pending:
        try:
            reply = conn.receive(timeout=max(0.0, deadline - time.monotonic()))
        except TimeoutError as exc:
            raise _CallFailed("no answer") from exc
        i = pending.pop(reply.header.fields.get(HeaderFields.reply_serial, -1), -1)
        if i < 0:
            for rule in conn._filters.matches(reply):
                rule.queue.append(reply)
        elif reply.header.message_type == MessageType.error:
            out[i] = _CallFailed(f"{reply.header.fields.get(4, 'error')}: {reply.body[0] if reply.body else ''}")
        else:
            out[i] = reply.body
    return out


def a11y_bus_address() -> str:
    """The accessibility bus's address: AT_SPI_BUS_ADDRESS, else asked of `org.a11y.Bus` on the session bus
    (at-spi-bus-launcher, started on demand by the session bus). Raises SourceUnavailable saying what is missing."""
    address = os.environ.get("AT_SPI_BUS_ADDRESS", "")
    if address:
        return address
    from jeepney import DBusAddress, new_method_call
    from jeepney.io.blocking import open_dbus_connection

    session = _session_address()
    try:
        conn = open_dbus_connection(bus=session)
    except Exception as exc:  # OSError, authentication refused...
        raise SourceUnavailable(f"the session D-Bus does not answer ({exc})") from exc
    try:
        bus = DBusAddress("/org/a11y/bus", bus_name="org.a11y.Bus", interface="org.a11y.Bus")
        (address,) = _call(conn, new_method_call(bus, "GetAddress"), SETUP_TIMEOUT)
    except _CallFailed as exc:
        raise SourceUnavailable(f"the session bus has no accessibility bus (org.a11y.Bus: {exc})") from exc
    finally:
        conn.close()
    if not address:
        raise SourceUnavailable("org.a11y.Bus gave no accessibility bus address")
    return address


def toolkit_accessibility() -> bool | None:
    """org.a11y.Status.IsEnabled on the session bus (Qt reads it; gsettings' toolkit-accessibility sets it), or
    None when it cannot be read."""
    from jeepney import DBusAddress, Properties
    from jeepney.io.blocking import open_dbus_connection

    try:
        with open_dbus_connection(bus=_session_address()) as conn:
            status = DBusAddress("/org/a11y/bus", bus_name="org.a11y.Bus", interface="org.a11y.Status")
            (value,) = _call(conn, Properties(status).get("IsEnabled"))
            return bool(value[1])
    except Exception:
        return None


def set_toolkit_accessibility(on: bool) -> str:
    """Turns toolkit accessibility on (or off) for this desktop session: org.a11y.Status.IsEnabled on the session
    bus, the property at-spi-bus-launcher keeps (and saves as GNOME's `toolkit-accessibility` setting where
    GSettings has it). Qt applications follow it at once, GTK and the browsers from their next start; only then do
    their fields say what they are, so their typed text can be kept (watcher/privacy/filter.py). Returns "" when done,
    else why not (no session bus, no launcher): the caller says it, nothing is raised."""
    from jeepney import DBusAddress, Properties
    from jeepney.io.blocking import open_dbus_connection

    try:
        with open_dbus_connection(bus=_session_address()) as conn:
            status = DBusAddress("/org/a11y/bus", bus_name="org.a11y.Bus", interface="org.a11y.Status")
            _call(conn, Properties(status).set("IsEnabled", "b", on), SETUP_TIMEOUT)
    except (SourceUnavailable, _CallFailed, OSError, ValueError) as exc:
        return str(exc) or type(exc).__name__
    return ""


class AtspiSource(Source):
    """FOCUS (role of the focused widget), PROMPT (terminal prompts) and, with `text=True`, TYPED events from the
    accessibility bus. X11 uses `text=False` (keys come from the RECORD extension); Wayland `text=True`. With `windows=True`
    it is also the window source (WINDOW events from `window:activate`): GNOME on Wayland, where no client can
    ask Mutter for the focused window unless a Shell extension answers."""

    name = "accessibility (AT-SPI)"

    def __init__(self, text: bool = False, windows: bool = False):
        self.text = text
        self.windows = windows
        self.captures = (("window titles, " if windows else "") + ("typed text, " if text else "")
                         + "password fields by role, terminal password prompts")
        self._conn: Any = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._emit: Emit | None = None
        self._apps: dict[str, tuple[str, int | None]] = {}  # sender -> (application name, pid)
        self._titles: dict[str, str] = {}  # sender -> title of its last activated window
        self._focus: tuple[str, str] | None = None  # (sender, path) of the focused widget
        self._roles: dict[tuple[str, str], str] = {}  # (sender, path) -> role: asked once per object
        self._query: Any = None  # a second connection for `types_in`, asked by the pipeline (any thread)
        self._query_lock = threading.Lock()
        self._on_bus: dict[int, float] = {}  # pid -> until when that answer holds (inf: on the bus)

    # -- probe -------------------------------------------------------------------------------------------------

    def probe(self) -> Probe:
        """Works when the session bus gives the accessibility bus's address and that bus answers."""
        try:
            from jeepney.io.blocking import open_dbus_connection

            address = a11y_bus_address()
            try:
                open_dbus_connection(bus=address).close()
            except Exception as exc:
                raise SourceUnavailable(f"the accessibility bus does not answer ({exc})") from exc
        except SourceUnavailable as exc:
            return Probe(self.name, self.captures, False, f"{exc}; {COUNT_ONLY}", FIX)
        enabled = toolkit_accessibility()
        detail = "the accessibility bus answers"
        if enabled is False:
            detail += (f"; toolkit accessibility is off, so only applications started with it on (GTK 3, "
                       f"QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1) say what their fields are; in the others {COUNT_ONLY}")
            return Probe(self.name, self.captures, True, detail, TURN_ON)
        return Probe(self.name, self.captures, True, detail + f"; in applications not on it {COUNT_ONLY}")

    # -- start / stop ------------------------------------------------------------------------------------------

    def start(self, emit: Emit) -> None:
        from jeepney import DBusAddress, MatchRule, new_method_call
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection

        address = a11y_bus_address()
        try:
            conn = open_dbus_connection(bus=address)
        except Exception as exc:
            raise SourceUnavailable(f"the accessibility bus does not answer ({exc})") from exc
        from proactive.watcher.capture.dbus_wire import wire_parser

        conn.parser = wire_parser(conn.parser)  # one message a typed character: read faster than jeepney does
        try:
            for interface, member in SIGNALS:
                _call(conn, message_bus.AddMatch(MatchRule(type="signal", interface=interface, member=member)),
                      SETUP_TIMEOUT)
            registry = DBusAddress("/org/a11y/atspi/registry", bus_name="org.a11y.atspi.Registry",
                                   interface="org.a11y.atspi.Registry")
            for event in EVENTS:
                _call(conn, new_method_call(registry, "RegisterEvent", "s", (event,)), SETUP_TIMEOUT)
        except _CallFailed as exc:
            conn.close()
            raise SourceUnavailable(f"the accessibility registry refused the event registration ({exc})") from exc
        self._queue: deque[Any] = deque()
        conn.filter(MatchRule(type="signal"), queue=self._queue)
        self._conn, self._emit = conn, emit
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="atspi", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """The receiving thread sleeps in recv with no timeout (a timeout to look at a stop flag would wake it a
        few times a second for nothing): shutting the socket down ends that recv."""
        self._stopping.set()
        if self._thread is not None:
            try:
                self._conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:  # already closed by the bus
                pass
            self._thread.join(timeout=2 * CALL_TIMEOUT + 1)
            self._thread = None
        if self._conn is not None:
            self._conn.close()  # the registry forgets our events when our connection goes
            self._conn = None
        with self._query_lock:
            if self._query is not None:
                self._query.close()
                self._query = None

    # -- which processes type through the bus ------------------------------------------------------------------

    def types_in(self, pid: int | None) -> bool:
        """Whether the text typed in `pid`'s windows comes from here: with `text=True`, for a process that is an
        application on the accessibility bus. The pipeline then drops the keys typed there (X11's key logger),
        so each piece of text is judged by the role of the field that took it; keys reach us at once, the focus
        event that says "password field" may come later. The registry's list of applications answers, so an
        application is known before its first event; a "no" is asked again after REGISTRY_RECHECK seconds (an
        application registers a moment after its window maps). Any failure answers no (keys, judged by focus)."""
        if not self.text or not pid or self._emit is None:
            return False
        now = time.monotonic()
        until = self._on_bus.get(pid)
        if until is not None and now < until:
            return until == math.inf
        with self._query_lock:
            try:
                pids = self._registered_pids()
            except Exception as exc:  # noqa: BLE001 - the bus went away: keys, as before
                log.debug("the accessibility registry could not list its applications: %s", exc)
                pids = set()
            if len(self._on_bus) >= MAX_CACHE:
                self._on_bus.clear()
            for known in pids:
                self._on_bus[known] = math.inf
            if pid not in pids:
                self._on_bus[pid] = now + REGISTRY_RECHECK
        return pid in pids

    def _registered_pids(self) -> set[int]:
        """The pids of the applications the registry lists (GetChildren of its root), each bus name's pid asked
        of the bus once."""
        from jeepney import DBusAddress, new_method_call
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection

        if self._query is None:
            self._query = open_dbus_connection(bus=a11y_bus_address())
        root = DBusAddress(ROOT_PATH, bus_name="org.a11y.atspi.Registry", interface=ACCESSIBLE)
        (children,) = _call(self._query, new_method_call(root, "GetChildren"))
        pids: set[int] = set()
        for name, _path in children:
            known = self._apps.get(name)
            pid = known[1] if known is not None else None
            if pid is None:
                try:
                    (pid,) = _call(self._query, message_bus.GetConnectionUnixProcessID(name))
                except (_CallFailed, ValueError):
                    continue
            pids.add(int(pid))
        return pids

    # -- receiving ---------------------------------------------------------------------------------------------

    def _run(self) -> None:
        """Reads the connection's socket itself (a blocking `recv`, where jeepney's `recv_messages` asks a
        selector first and reads 4 KiB at a time: a wake-up per typed character costs each step) and queues the
        signals, as the connection's filter does while `_call` waits for a reply on the same connection."""
        from jeepney import MessageType

        conn, queue = self._conn, self._queue
        while not self._stopping.is_set():
            while not queue:
                try:
                    message = conn.parser.get_next_message()
                    if message is None:
                        data = conn.sock.recv(65536)
                        if not data:
                            raise ConnectionResetError("end of stream")
                        conn.parser.add_data(data)
                    elif message.header.message_type == MessageType.signal:
                        queue.append(message)
                except Exception as exc:  # the bus went away (EOF, reset): said once, then this source ends
                    if not self._stopping.is_set():
                        log.warning("the accessibility bus closed (%s): AT-SPI capture stops", exc)
                    return
            while queue and not self._stopping.is_set():
                message = queue.popleft()
                try:
                    self._dispatch(message)
                except Exception:  # one malformed event never ends the source
                    log.exception("an AT-SPI event could not be read")

    def _dispatch(self, message: Any) -> None:
        from jeepney import HeaderFields

        fields = message.header.fields
        interface, member = fields.get(HeaderFields.interface), fields.get(HeaderFields.member)
        sender, path = fields.get(HeaderFields.sender, ""), fields.get(HeaderFields.path, "")
        body = message.body
        if len(body) < 4 or not isinstance(body[0], str):
            return
        detail, detail1, detail2 = body[0], body[1], body[2]
        any_data = body[3][1] if isinstance(body[3], tuple) and len(body[3]) == 2 else None
        if interface == "org.a11y.atspi.Event.Window" and member == "Activate":
            if isinstance(any_data, str):
                self._titles[sender] = any_data
                if len(self._titles) > MAX_CACHE:
                    self._titles.pop(next(iter(self._titles)))
                if self.windows:
                    from proactive.watcher.capture.window import app_name

                    app, pid = self._app(sender)
                    name, process = app_name(pid, app or None)
                    self._send(WINDOW, {"app": name, "title": any_data, "pid": pid, "process": process})
        elif member == "StateChanged" and detail == "focused" and detail1 == 1:
            role = self._role(sender, path, fresh=True)
            self._focus = (sender, path)
            app, pid = self._app(sender)
            self._send(FOCUS, {"app": app, "title": self._titles.get(sender, ""), "role": role, "pid": pid})
        elif member == "TextChanged":
            self._text_changed(sender, path, detail.split(":")[0], detail2, any_data)

    def _text_changed(self, sender: str, path: str, change: str, length: int, text: Any) -> None:
        if change not in ("insert", "delete"):
            return
        role = self._role(sender, path)
        if role == TERMINAL_ROLE:
            if change == "insert" and isinstance(text, str):
                from proactive.watcher.privacy.filter import terminal_prompt

                prompt = terminal_prompt(text[-MAX_PROMPT_TEXT:])
                if prompt:
                    app, pid = self._app(sender)
                    self._send(PROMPT, {"prompt": prompt, "app": app, "pid": pid})
            return
        if not self.text or (role not in EDITABLE_ROLES and (sender, path) != self._focus and role is not None):
            return
        app, pid = self._app(sender)
        if change == "insert":
            if not isinstance(text, str) or not text:
                return
            data: dict[str, Any] = {"text": text}
        else:
            data = {"erase": len(text) if isinstance(text, str) and text else max(0, int(length))}
        # the role is the emitting object's, sent whatever it is (None: unknown): the privacy filter decides,
        # failing closed; `object` lets the pipeline end a field's text where another field's begins
        self._send(TYPED, {**data, "role": role, "app": app, "pid": pid, "object": f"{sender}{path}"})

    def _send(self, kind: str, data: dict[str, Any]) -> None:
        if self._emit is not None and not self._stopping.is_set():
            self._emit(RawEvent("atspi", kind, data))

    # -- questions to the bus and the applications ---------------------------------------------------------------

    def _role(self, sender: str, path: str, fresh: bool = False) -> str | None:
        """The role name ("text", "password text", "terminal"...) of the object that emitted an event, asked once
        per object and remembered: a busy application answers slowly, and a call per typed character would fall
        behind the typing. Asked again when the object takes the focus (`fresh`: Qt changes a line edit's role with
        its echo mode); a password role is never forgotten for a plainer one (fail closed). None when the
        application does not answer: the text is dropped. The number (GetRole) is asked first: Qt answers
        GetRoleName "text" for a QLineEdit in password mode but GetRole ROLE_PASSWORD_TEXT."""
        key = (sender, path)
        known = self._roles.get(key)
        if known is not None and (not fresh or known == PASSWORD_ROLE):
            return known
        role = self._ask_role(sender, path)
        if role is not None:
            if len(self._roles) >= 4 * MAX_CACHE:
                self._roles.clear()
            self._roles[key] = role
        return role

    def _ask_role(self, sender: str, path: str) -> str | None:
        from jeepney import DBusAddress, new_method_call

        widget = DBusAddress(path, bus_name=sender, interface=ACCESSIBLE)
        try:
            (number,) = _call(self._conn, new_method_call(widget, "GetRole"))
            if number == ROLE_PASSWORD_TEXT:
                return PASSWORD_ROLE
            (name,) = _call(self._conn, new_method_call(widget, "GetRoleName"))
            return str(name)
        except (_CallFailed, ValueError):
            return None

    def _app(self, sender: str) -> tuple[str, int | None]:
        """(application name, pid) of a sender, remembered per connection."""
        known = self._apps.get(sender)
        if known is not None:
            return known
        from jeepney import DBusAddress, Properties
        from jeepney.bus_messages import message_bus

        name, pid = "", None
        try:
            (value,) = _call(self._conn, Properties(DBusAddress(ROOT_PATH, bus_name=sender,
                                                                interface=ACCESSIBLE)).get("Name"))
            name = str(value[1])
        except (_CallFailed, ValueError):
            pass
        try:
            (pid,) = _call(self._conn, message_bus.GetConnectionUnixProcessID(sender))
        except (_CallFailed, ValueError):
            pid = None
        if len(self._apps) >= MAX_CACHE:
            self._apps.clear()
        self._apps[sender] = (name, pid)
        if pid:
            self._on_bus[int(pid)] = math.inf  # it sends events: on the bus, whatever the registry listed
        return name, pid
