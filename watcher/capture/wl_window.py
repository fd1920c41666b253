"""The focused window on Wayland, per compositor, as the same WINDOW events as the X11 source (`window.py`):
data `app` (display name), `title`, `pid`, `process`.

- **sway** (and i3-compatible compositors): the i3/sway IPC over the Unix socket `SWAYSOCK`: one connection
  subscribed to `window` and `workspace` events (focus and title changes arrive as they happen, nothing is
  polled), one for `get_tree` (the focus at start and after a window closes). Each message is the magic
  "i3-ipc", the payload's length and the message type (both 32-bit, native byte order), then JSON. The
  application is named from the window's process (its pid), else its `app_id` (native Wayland) or X11 class
  (XWayland). Tested on headless sway (tests/test_wayland.py).
- **Hyprland**: its event socket (`.socket2.sock`, lines `EVENT>>DATA`) wakes us on `activewindow` and
  `windowtitle`; the request socket (`j/activewindow`) gives class, title and pid. UNTESTED here.
- **KDE Plasma (KWin)**: a KWin script, written to the person's data folder and loaded over D-Bus
  (`org.kde.kwin.Scripting.loadScript`), calls us back over D-Bus (`callDBus`) at once with the active window,
  then on every activation and title change; the source works only once that first call came. Tested on
  headless KWin 5.27 (tests/test_kwin.py).
- **GNOME**: Mutter tells no client which window is focused: Proactive's own Shell extension
  (`gnome_extension.py`, installed by `proactive gnome-extension install`) signals each focus and title change on
  the session bus. Until it runs (the next login after installing), the AT-SPI source gives the focused
  accessible application and window title. Tested on headless GNOME Shell 43 (tests/test_gnome.py).
Each probe says whether the backend can work now and, when not, what the person can do.
"""

from __future__ import annotations

import json
import logging
import os
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from proactive.watcher.capture.sources import Probe, Source, SourceUnavailable
from proactive.watcher.capture.window import app_name
from proactive.watcher.events import WINDOW, Emit, RawEvent

if TYPE_CHECKING:
    import socket

log = logging.getLogger(__name__)

CAPTURES = "focused window (application, title)"
DESKTOP = {"app": "desktop", "title": "", "pid": None, "process": ""}

# -- sway / i3 IPC --------------------------------------------------------------------------------------------

MAGIC = b"i3-ipc"
HEADER = struct.Struct("=6sII")  # magic, payload length, message type (native byte order)
RUN_COMMAND, GET_WORKSPACES, SUBSCRIBE, GET_OUTPUTS, GET_TREE = 0, 1, 2, 3, 4
GET_VERSION = 7
EVENT_BIT = 0x80000000
EVENT_WORKSPACE, EVENT_WINDOW, EVENT_SHUTDOWN = EVENT_BIT | 0, EVENT_BIT | 3, EVENT_BIT | 6


def pack_message(kind: int, payload: str | bytes = b"") -> bytes:
    """One IPC message: "i3-ipc", the payload's length and the type, then the payload."""
    data = payload.encode() if isinstance(payload, str) else payload
    return HEADER.pack(MAGIC, len(data), kind) + data


def unpack_header(header: bytes) -> tuple[int, int]:
    """(payload length, message type) from the 14 header bytes; ValueError when they are not an IPC header."""
    if len(header) != HEADER.size:
        raise ValueError(f"an i3-ipc header has {HEADER.size} bytes, got {len(header)}")
    magic, length, kind = HEADER.unpack(header)
    if magic != MAGIC:
        raise ValueError(f"not an i3-ipc message (magic {magic!r})")
    return length, kind


class SwayIPC:
    """A blocking connection to sway's IPC socket."""

    def __init__(self, path: str, timeout: float | None = 5.0):
        import socket

        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(path)
        except OSError:
            self.sock.close()
            raise

    def _read(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("sway closed its IPC connection")
            data += chunk
        return data

    def receive(self) -> tuple[int, Any]:
        """The next message: (type, decoded JSON payload)."""
        length, kind = unpack_header(self._read(HEADER.size))
        return kind, json.loads(self._read(length) or b"null")

    def request(self, kind: int, payload: str | bytes = b"") -> Any:
        self.sock.sendall(pack_message(kind, payload))
        while True:
            reply_kind, body = self.receive()
            if reply_kind == kind:
                return body
            # an event can arrive before the reply on a subscribed connection: requests are made before that

    def close(self) -> None:
        import socket

        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def focused_node(tree: dict[str, Any]) -> dict[str, Any] | None:
    """The focused node of a `get_tree` answer (a window, or a workspace when it is empty), depth first."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.get("focused"):
            return node
        stack.extend(node.get("nodes", []) + node.get("floating_nodes", []))
    return None


def _positive_int(value: Any) -> int | None:
    """A pid as a compositor's JSON gives it: a positive number, else None (absent, 0, or not a number)."""
    return value if isinstance(value, int) and value > 0 else None


def container_info(node: dict[str, Any] | None) -> dict[str, Any]:
    """The WINDOW event data for a sway container; the desktop for anything that is not a window."""
    if not node or node.get("type") not in ("con", "floating_con") or (node.get("nodes") and not node.get("pid")):
        return dict(DESKTOP)
    props = node.get("window_properties") or {}
    pid = node.get("pid") or None
    app, process = app_name(pid, node.get("app_id") or props.get("class") or props.get("instance"))
    return {"app": app, "title": node.get("name") or "", "pid": pid, "process": process}


class _ThreadSource(Source):
    """A window source with one reader thread that emits only changes of (app, title)."""

    name = "window"
    captures = CAPTURES

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last: tuple[str, str] | None = None
        self._emit: Emit | None = None

    def _report(self, info: dict[str, Any]) -> None:
        key = (info["app"], info["title"])
        if key != self._last and self._emit is not None:
            self._last = key
            self._emit(RawEvent(self.name, WINDOW, info))

    def _run_thread(self, target: Callable[[], None], name: str) -> None:
        def run() -> None:
            try:
                target()
            except Exception as exc:  # the compositor went away, or answered nonsense: say so once, stop
                if not self._stop.is_set():
                    log.warning("%s source stopped: %s", self.name, exc)

        self._thread = threading.Thread(target=run, name=name, daemon=True)
        self._thread.start()


class SwayWindow(_ThreadSource):
    """The focused window on sway, from its IPC events. Tested on headless sway."""

    def __init__(self) -> None:
        super().__init__()
        self._events: SwayIPC | None = None
        self._query: SwayIPC | None = None

    def probe(self) -> Probe:
        path = os.environ.get("SWAYSOCK", "")
        if not path:
            return Probe("window (sway IPC)", CAPTURES, False, "SWAYSOCK is not set: this is not a sway session",
                         "run inside sway, or set SWAYSOCK to its IPC socket (`sway --get-socketpath`)")
        try:
            ipc = SwayIPC(path, timeout=2.0)
            try:
                version = ipc.request(GET_VERSION).get("human_readable", "?")
            finally:
                ipc.close()
        except (OSError, ValueError) as exc:
            return Probe("window (sway IPC)", CAPTURES, False, f"cannot reach sway at {path}: {exc}",
                         "check that sway runs and SWAYSOCK names its socket")
        return Probe("window (sway IPC)", CAPTURES, True, f"sway {version} at {path}")

    def start(self, emit: Emit) -> None:
        path = os.environ.get("SWAYSOCK", "")
        if not path:
            raise SourceUnavailable("SWAYSOCK is not set: no sway IPC socket to read the focused window from")
        try:
            self._query = SwayIPC(path)
            self._events = SwayIPC(path)
            reply = self._events.request(SUBSCRIBE, json.dumps(["window", "workspace", "shutdown"]))
            if not (isinstance(reply, dict) and reply.get("success")):
                raise SourceUnavailable(f"sway refused the subscription: {reply}")
            self._events.sock.settimeout(None)
            self._emit = emit
            self._report(container_info(focused_node(self._query.request(GET_TREE))))
        except (OSError, ValueError) as exc:
            self.stop()
            raise SourceUnavailable(f"cannot reach sway's IPC at {path}: {exc}") from None
        self._run_thread(self._loop, "sway-window")

    def _refresh(self) -> None:
        assert self._query is not None
        self._report(container_info(focused_node(self._query.request(GET_TREE))))

    def _loop(self) -> None:
        assert self._events is not None
        while not self._stop.is_set():
            kind, event = self._events.receive()
            if kind == EVENT_WINDOW:
                change, con = event.get("change"), event.get("container") or {}
                if change in ("focus", "title") and con.get("focused"):
                    self._report(container_info(con))
                elif change == "close":
                    self._refresh()
            elif kind == EVENT_WORKSPACE and event.get("change") == "focus":
                self._refresh()  # an empty workspace is the desktop; a full one reports its focused window
            elif kind == EVENT_SHUTDOWN:
                log.warning("sway is shutting down: window capture stops")
                return

    def stop(self) -> None:
        self._stop.set()
        for ipc in (self._events, self._query):
            if ipc is not None:
                ipc.close()
        self._events = self._query = None


# -- Hyprland (UNTESTED here) ---------------------------------------------------------------------------------


def hyprland_dir(env: dict[str, str] | None = None) -> Path | None:
    env = dict(os.environ) if env is None else env
    signature = env.get("HYPRLAND_INSTANCE_SIGNATURE", "")
    if not signature:
        return None
    for base in (Path(env.get("XDG_RUNTIME_DIR", "/nonexistent")) / "hypr", Path("/tmp/hypr")):
        if (base / signature / ".socket2.sock").exists():
            return base / signature
    return None


class HyprlandWindow(_ThreadSource):
    """Hyprland's active window, woken by its event socket. UNTESTED here (no Hyprland in CI)."""

    _sock: socket.socket | None = None  # the event socket, while started

    def probe(self) -> Probe:
        folder = hyprland_dir()
        if folder is None:
            return Probe("window (Hyprland socket)", CAPTURES, False,
                         "HYPRLAND_INSTANCE_SIGNATURE is not set or its sockets are missing: this is not Hyprland",
                         "run inside Hyprland", tested=False)
        return Probe("window (Hyprland socket)", CAPTURES, True, f"Hyprland sockets in {folder}", tested=False)

    def _active(self, folder: Path) -> dict[str, Any]:
        import socket

        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(2.0)
            sock.connect(str(folder / ".socket.sock"))
            sock.sendall(b"j/activewindow")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        window = json.loads(data or b"{}")
        if not window or not window.get("address"):
            return dict(DESKTOP)
        pid = _positive_int(window.get("pid"))
        app, process = app_name(pid, window.get("class") or window.get("initialClass"))
        return {"app": app, "title": window.get("title") or "", "pid": pid, "process": process}

    def start(self, emit: Emit) -> None:
        import socket

        folder = hyprland_dir()
        if folder is None:
            raise SourceUnavailable("not a Hyprland session (HYPRLAND_INSTANCE_SIGNATURE unset or no sockets)")
        self._emit = emit
        try:
            self._report(self._active(folder))
            events = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            events.connect(str(folder / ".socket2.sock"))
        except (OSError, ValueError) as exc:
            raise SourceUnavailable(f"cannot reach Hyprland at {folder}: {exc}") from None
        self._sock = events

        def loop() -> None:
            buffer = b""
            while not self._stop.is_set():
                chunk = events.recv(65536)
                if not chunk:
                    raise ConnectionError("Hyprland closed its event socket")
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                names = {line.split(b">>", 1)[0] for line in lines}
                if names & {b"activewindow", b"activewindowv2", b"windowtitle", b"windowtitlev2", b"closewindow"}:
                    self._report(self._active(folder))

        self._run_thread(loop, "hyprland-window")

    def stop(self) -> None:
        import socket

        self._stop.set()
        sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
            self._sock = None


# -- KDE Plasma: a KWin script calling us back over D-Bus -----------------------------------------------------

KWIN_INTERFACE = "org.proactive.Window"
KWIN_SCRIPT = """
var service = %(service)s;
function report(w) {
    if (!w) { callDBus(service, "/proactive", "%(iface)s", "Focus", "", "", 0); return; }
    callDBus(service, "/proactive", "%(iface)s", "Focus", String(w.resourceClass || ""), String(w.caption || ""),
             w.pid || 0);
}
var watched = [];
function active() { return workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient; }
function activated(w) {
    if (w && watched.indexOf(w) < 0) {
        watched.push(w);
        w.captionChanged.connect(function () { if (active() === w) report(w); });
    }
    report(w);
}
if (workspace.windowActivated !== undefined) workspace.windowActivated.connect(activated);  // Plasma 6
else workspace.clientActivated.connect(activated);  // Plasma 5
activated(active());
"""
KWIN_LABEL = "window (KWin script)"
KWIN_NO_WINDOW = 0.3  # seconds "no active window" must last to be the desktop, not a switch's midpoint
KWIN_FIRST_CALL = 5.0  # seconds to wait for the script's first call (it reports the active window at once)
KWIN_FIX = ("run proactive as the same user as KWin (KWin reads the script from the person's data folder) "
            "inside a KDE Plasma session with its session D-Bus")


def kwin_script_path(plugin: str) -> Path:
    """Where the KWin script is written: in the person's data folder (KWin, running as the same user, reads it;
    a private temporary folder of ours is not always visible to KWin), readable by that user only."""
    from proactive.watcher.store import home

    folder = home.data_dir() / "kwin"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder / f"{plugin}.js"


class KWinWindow(_ThreadSource):
    """KDE Plasma's active window through a KWin script that calls us over D-Bus on every activation and title
    change. It works only once the script has called back: loading a script KWin cannot read succeeds all the
    same and then nothing ever comes, so `start()` waits (bounded) for the first call, which the script makes at
    once with the active window. Tested on headless KWin 5.27 (tests/test_kwin.py)."""

    def __init__(self, plugin: str = "proactive-focus", first_call: float = KWIN_FIRST_CALL) -> None:
        super().__init__()
        self.plugin = plugin
        self.first_call = first_call
        self._conn: Any = None
        self._script: Path | None = None
        self._first = threading.Event()

    def probe(self) -> Probe:
        """Loads the script under its own name (a running watcher's is left alone), waits for its first call
        and unloads it: only a script that ran says the source works."""
        probe = KWinWindow(plugin=f"{self.plugin}-probe", first_call=min(self.first_call, 3.0))
        try:
            probe.start(lambda event: None)
        except SourceUnavailable as exc:
            return Probe(KWIN_LABEL, CAPTURES, False, str(exc).removesuffix(f": {KWIN_FIX}"), KWIN_FIX)
        finally:
            probe.stop()
        return Probe(KWIN_LABEL, CAPTURES, True, "KWin ran the focus script, which reported the active window")

    def start(self, emit: Emit) -> None:
        from jeepney import MessageType, new_method_return
        from jeepney.io.blocking import open_dbus_connection

        from proactive.watcher.capture.wayland import dbus_call

        try:
            conn = open_dbus_connection(bus="SESSION")
        except Exception as exc:
            raise SourceUnavailable(f"no session D-Bus to reach KWin: {exc}") from None
        self._conn = conn
        try:
            script = self._script = kwin_script_path(self.plugin)
            script.write_text(KWIN_SCRIPT % {"service": json.dumps(conn.unique_name), "iface": KWIN_INTERFACE})
        except OSError as exc:
            self.stop()
            raise SourceUnavailable(f"cannot write the KWin script: {exc}") from None
        self._emit = emit

        def loop() -> None:
            desktop_pending = False  # KWin activates "no window" between two windows: told only if it lasts
            while not self._stop.is_set():
                try:
                    msg = conn.receive(timeout=KWIN_NO_WINDOW if desktop_pending else None)
                except TimeoutError:
                    desktop_pending = False
                    self._report(dict(DESKTOP))
                    continue
                header = msg.header
                if header.message_type != MessageType.method_call:
                    continue
                conn.send(new_method_return(msg))
                if header.fields.get(3) == "Focus" and len(msg.body) >= 3:  # field 3: the member
                    wm_class, title, pid = msg.body[0], msg.body[1], int(msg.body[2] or 0) or None
                    desktop_pending = not wm_class and not title
                    if not desktop_pending:
                        app, process = app_name(pid, wm_class)
                        self._report({"app": app, "title": title, "pid": pid, "process": process})
                    self._first.set()

        self._run_thread(loop, "kwin-window")
        try:
            dbus_call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", "s", (self.plugin,))
            (number,) = dbus_call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "loadScript", "ss",
                                  (str(script), self.plugin))
            if number < 0:
                raise OSError(f"loadScript answered {number}")
            dbus_call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "start")
        except Exception as exc:
            self.stop()
            raise SourceUnavailable(f"KWin did not load the focus script (not KDE Plasma?): {exc}") from None
        if not self._first.wait(self.first_call):
            self.stop()
            raise SourceUnavailable(f"KWin loaded the focus script {script} but it did not run within "
                                    f"{self.first_call:g} s (KWin cannot read it, or runs as another user): "
                                    f"{KWIN_FIX}")

    def stop(self) -> None:
        self._stop.set()
        conn, self._conn = self._conn, None
        if conn is None:
            return
        from proactive.watcher.capture.wayland import dbus_call

        try:
            dbus_call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", "s", (self.plugin,))
        except Exception:
            pass
        try:
            conn.sock.shutdown(2)  # wakes the reader; closed only once it has left its poll (a socket closed
        except OSError:  # under a waiting poll leaves the poll's interest list, and the thread waiting forever)
            pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        conn.close()
        if self._script is not None:
            self._script.unlink(missing_ok=True)
            self._script = None


# -- GNOME: our own Shell extension (watcher/capture/gnome_extension.py), tested on headless GNOME Shell 43 ------------------


def gnome_info(text: str) -> dict[str, Any]:
    """The WINDOW event data for the extension's JSON (the desktop for "{}")."""
    window = json.loads(text or "{}") or {}
    if not window:
        return dict(DESKTOP)
    pid = _positive_int(window.get("pid"))
    app, process = app_name(pid, window.get("wm_class") or window.get("app_id") or window.get("wm_class_instance"))
    return {"app": app, "title": window.get("title") or "", "pid": pid, "process": process}


class GnomeShellWindow(_ThreadSource):
    """GNOME's focused window from Proactive's own Shell extension: its `Changed` signal on the session bus, for
    every window (accessible or not, Wayland or X11); nothing is polled. Tested on headless GNOME Shell 43."""

    label = "window (GNOME Shell extension)"

    def _get(self) -> dict[str, Any]:
        from proactive.watcher.capture import gnome_extension as ext
        from proactive.watcher.capture.wayland import dbus_call

        (text,) = dbus_call(ext.BUS_NAME, ext.PATH, ext.INTERFACE, "Get")
        return gnome_info(text)

    def probe(self) -> Probe:
        from proactive.watcher.capture import gnome_extension as ext

        try:
            self._get()
        except Exception as exc:
            why = f"the Proactive focus reporter (our GNOME Shell extension) does not answer ({exc})"
            found = ext.state()
            if not found.installed:
                why = "our GNOME Shell extension is not installed"
            elif not found.enabled:
                why = "our GNOME Shell extension is installed but not enabled"
            return Probe(self.label, CAPTURES, False,
                         f"{why}; meanwhile the accessibility bus reports the accessible "
                         "applications' windows only", found.fix())
        return Probe(self.label, CAPTURES, True, f"the Proactive focus reporter answers ({ext.UUID})")

    def start(self, emit: Emit) -> None:
        from jeepney import MatchRule
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection

        from proactive.watcher.capture import gnome_extension as ext

        try:
            first = self._get()
            conn = open_dbus_connection(bus="SESSION")
        except Exception as exc:
            raise SourceUnavailable(f"our GNOME Shell extension does not answer ({exc})") from None
        # the bus resolves the Shell's well-known name; locally the sender is its unique name, so not compared
        ours = MatchRule(type="signal", path=ext.PATH, interface=ext.INTERFACE, member="Changed")
        try:
            conn.send_and_get_reply(message_bus.AddMatch(MatchRule(type="signal", sender=ext.BUS_NAME, path=ext.PATH,
                                                                   interface=ext.INTERFACE, member="Changed")),
                                    timeout=5)
        except Exception as exc:
            conn.close()
            raise SourceUnavailable(f"the session bus refused our signal subscription ({exc})") from None
        self._conn = conn
        self._emit = emit
        self._report(first)

        def loop() -> None:
            while not self._stop.is_set():
                msg = conn.receive()
                if ours.matches(msg) and msg.body:
                    self._report(gnome_info(msg.body[0]))

        self._run_thread(loop, "gnome-window")

    def stop(self) -> None:
        import socket

        self._stop.set()
        conn = getattr(self, "_conn", None)
        if conn is None:
            return
        try:
            conn.sock.shutdown(socket.SHUT_RDWR)  # ends the reader's blocking receive
        except OSError:
            pass
        if self._thread is not None:
            self._thread.join(timeout=2)
        conn.close()
        self._conn = None


class NoWindow(Source):
    """A Wayland compositor we have no window backend for: says so (probe, and once at start)."""

    name = "window"
    captures = CAPTURES

    def __init__(self, compositor: str = "") -> None:
        self.compositor = compositor or "unknown"

    def _why(self) -> str:
        return (f"no window backend for the {self.compositor} Wayland compositor (sway, Hyprland, KDE and GNOME "
                "have one)")

    def probe(self) -> Probe:
        return Probe("window", CAPTURES, False, self._why(),
                     "the AT-SPI source still reports the focused accessible application and title; "
                     "ActivityWatch's window watcher may support this compositor", tested=False)

    def start(self, emit: Emit) -> None:
        raise SourceUnavailable(self._why())

    def stop(self) -> None:
        pass
