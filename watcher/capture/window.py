"""Active-window capture: application name (from the window's process) and window title.

X11: event-driven through `_NET_ACTIVE_WINDOW` on the root window (needs a window manager) and title changes on
the active window. Windows and macOS: polling once a second through their native APIs; these two are written
against the documented APIs but UNTESTED here (this project's CI runs on Linux only).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from proactive.watcher.capture.ordering import announced
from proactive.watcher.capture.sources import Probe, Source, SourceUnavailable
from proactive.watcher.capture.x11 import XEventThread, open_display, x11_probe, x11_window_manager
from proactive.watcher.events import WINDOW, Emit, RawEvent

log = logging.getLogger(__name__)

#: Process names whose usual display name differs from the executable.
FRIENDLY_NAMES = {
    "code": "Visual Studio Code", "code-oss": "Visual Studio Code", "codium": "VSCodium",
    "firefox": "Firefox", "firefox-esr": "Firefox", "chrome": "Google Chrome", "google-chrome": "Google Chrome",
    "chromium": "Chromium", "msedge": "Microsoft Edge", "gnome-terminal-server": "Terminal",
    "konsole": "Konsole", "xterm": "XTerm", "alacritty": "Alacritty", "kitty": "kitty",
    "soffice.bin": "LibreOffice", "libreoffice": "LibreOffice", "slack": "Slack", "thunderbird": "Thunderbird",
    "pycharm": "PyCharm", "idea": "IntelliJ IDEA", "emacs": "Emacs", "gvim": "Vim", "nautilus": "Files",
}


def app_name(pid: int | None, wm_class: str | None = None) -> tuple[str, str]:
    """(display name, process name) for a window's process; falls back to WM_CLASS when the PID is unknown."""
    process = ""
    if pid:
        import psutil  # here, not at the top: its Linux backend imports POSIX-only modules (test_portability)

        try:
            process = psutil.Process(pid).name()
        except (psutil.Error, OSError):
            process = ""
    key = (process or wm_class or "").lower()
    name = FRIENDLY_NAMES.get(key) or FRIENDLY_NAMES.get(key.removesuffix(".exe")) or wm_class or process
    return name or "unknown", process or (wm_class or "")


class X11ActiveWindow(Source):
    name = "window"

    def __init__(self) -> None:
        self._thread: XEventThread | None = None

    def start(self, emit: Emit) -> None:
        import Xlib.error
        import Xlib.X

        display = open_display()
        root = display.screen().root
        atoms = {n: display.intern_atom(n) for n in ("_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "WM_NAME", "_NET_WM_PID",
                                                      "UTF8_STRING")}
        if not root.get_full_property(atoms["_NET_ACTIVE_WINDOW"], Xlib.X.AnyPropertyType):
            log.warning("no _NET_ACTIVE_WINDOW on the root window: is a window manager running?")
        root.change_attributes(event_mask=Xlib.X.PropertyChangeMask)
        state: dict[str, Any] = {"window": None, "last": None, "handover": None}

        def read_active(xtime: int | None = None) -> None:
            try:
                update(xtime)
            except Xlib.error.XError:  # the active window vanished between the notification and our query
                log.debug("active window vanished")

        def update(xtime: int | None) -> None:
            prop = root.get_full_property(atoms["_NET_ACTIVE_WINDOW"], Xlib.X.AnyPropertyType)
            wid = prop.value[0] if prop and len(prop.value) else 0
            window = display.create_resource_object("window", wid) if wid else None
            if (state["window"].id if state["window"] else 0) != wid:
                if state["window"] is not None:
                    try:
                        state["window"].change_attributes(event_mask=Xlib.X.NoEventMask)
                    except Exception:
                        pass
                if window is not None:
                    window.change_attributes(event_mask=Xlib.X.PropertyChangeMask)
                state["window"] = window
            if window is None:
                info = {"app": "desktop", "title": "", "pid": None, "process": ""}
            else:
                info = self._describe(window, atoms)
            key = (info["app"], info["title"])
            if key != state["last"]:
                state["last"] = key
                emit(RawEvent(self.name, WINDOW, info, xtime=xtime))

        def superseded() -> int | None:
            """The server time of a later change of the active window that has already arrived (a switch often
            passes through "no window"), else None: the state this one would read is gone."""
            display.pending_events()  # reads what has arrived into python-xlib's queue, without waiting
            return next((e.time for e in display.display.event_queue
                         if e.type == Xlib.X.PropertyNotify and e.atom == atoms["_NET_ACTIVE_WINDOW"]), None)

        def hand_over(later: int | None) -> None:
            """The announcement that holds keys passes to the later change (`later`), or ends (None). Why: keys
            typed after the later change were held by this one's; settled first, they would be taken before the
            later change is announced, and told in the window left."""
            announce = getattr(emit, "announce", None)
            token, state["handover"] = state["handover"], announce(later) if announce and later is not None else None
            if token is not None:
                emit.settle(token)  # type: ignore[attr-defined]  # (a ServerOrder: it announced)

        def handle(event: Any) -> None:
            if event.type != Xlib.X.PropertyNotify:
                return
            active = event.atom == atoms["_NET_ACTIVE_WINDOW"]
            if active and superseded() is not None:
                return
            if active or (
                state["window"] is not None and event.window.id == state["window"].id
                and event.atom in (atoms["_NET_WM_NAME"], atoms["WM_NAME"])
            ):
                with announced(emit, event.time):  # keys typed from now on wait for the switch (ordering.py)
                    if active:
                        hand_over(None)  # this change's own announcement holds the keys now
                        # the keys before the switch queued first (it can take a while on a busy machine), then
                        # the check again: a later change that came meanwhile makes this one's state stale
                        getattr(emit, "catch_up", lambda: None)()
                        later = superseded()
                        if later is not None:
                            hand_over(later)
                            return
                    read_active(event.time)

        read_active()
        display.flush()
        self._thread = XEventThread(display, handle, "x11-window")
        self._thread.start()

    def probe(self) -> Probe:
        """The X display opens and an EWMH window manager runs (_NET_SUPPORTING_WM_CHECK): it is what publishes
        the active window (_NET_ACTIVE_WINDOW)."""
        found = x11_probe(self.name, "window titles and applications")
        if not found.works:
            return found
        wm = x11_window_manager()
        if wm is None:
            return replace(found, works=False, detail=found.detail + "; no EWMH window manager runs, so no "
                           "active window is published", fix="run a window manager (openbox, xfwm4, mutter, "
                           "kwin...) in this session")
        return replace(found, detail=found.detail + f", window manager {wm or '(unnamed)'}")

    @staticmethod
    def _describe(window: Any, atoms: dict[str, int]) -> dict[str, Any]:
        import Xlib.X

        title = ""
        prop = window.get_full_property(atoms["_NET_WM_NAME"], atoms["UTF8_STRING"])
        if prop is not None:
            title = prop.value.decode("utf-8", "replace") if isinstance(prop.value, bytes) else str(prop.value)
        else:
            name = window.get_wm_name()
            title = name.decode("latin-1") if isinstance(name, bytes) else (name or "")
        pid_prop = window.get_full_property(atoms["_NET_WM_PID"], Xlib.X.AnyPropertyType)
        pid = int(pid_prop.value[0]) if pid_prop is not None and len(pid_prop.value) else None
        wm_class = window.get_wm_class()
        app, process = app_name(pid, wm_class[1] if wm_class else None)
        return {"app": app, "title": title, "pid": pid, "process": process}

    def sync(self, timeout: float) -> None:
        if self._thread is not None:
            self._thread.sync(timeout)

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None


class PollingActiveWindow(Source):
    """Windows (ctypes) and macOS (pyobjc AppKit/Quartz) active window, polled every second. UNTESTED here."""

    name = "window"

    def __init__(self, interval: float = 1.0) -> None:
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, emit: Emit) -> None:
        read: Callable[[], dict[str, Any]]
        if sys.platform == "win32":
            read = _windows_foreground
        elif sys.platform == "darwin":
            read = _macos_frontmost
        else:
            raise SourceUnavailable(f"no active-window capture for {sys.platform}")

        def run() -> None:
            last = None
            while not self._stop.wait(self.interval):
                try:
                    info = read()
                except Exception:
                    log.exception("active window read failed")
                    continue
                if (info["app"], info["title"]) != last:
                    last = (info["app"], info["title"])
                    emit(RawEvent(self.name, WINDOW, info))

        self._thread = threading.Thread(target=run, name="poll-window", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()


def _windows_foreground() -> dict[str, Any]:  # pragma: no cover - Windows only, untested here
    import ctypes
    from ctypes import wintypes

    user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    hwnd = user32.GetForegroundWindow()
    length = user32.GetWindowTextLengthW(hwnd)
    buf = ctypes.create_unicode_buffer(length + 1)
    user32.GetWindowTextW(hwnd, buf, length + 1)
    pid = wintypes.DWORD()
    user32.GetWindowThreadProcessId(hwnd, ctypes.byref(pid))
    app, process = app_name(pid.value)
    return {"app": app, "title": buf.value, "pid": pid.value, "process": process}


def _macos_frontmost() -> dict[str, Any]:  # pragma: no cover - macOS only, untested here
    from AppKit import NSWorkspace  # type: ignore[import-not-found]
    from Quartz import (  # type: ignore[import-not-found]
        CGWindowListCopyWindowInfo,
        kCGNullWindowID,
        kCGWindowListOptionOnScreenOnly,
    )

    app = NSWorkspace.sharedWorkspace().frontmostApplication()
    pid = int(app.processIdentifier())
    title = ""
    for w in CGWindowListCopyWindowInfo(kCGWindowListOptionOnScreenOnly, kCGNullWindowID) or []:
        if w.get("kCGWindowOwnerPID") == pid and w.get("kCGWindowLayer") == 0:
            title = w.get("kCGWindowName") or ""  # needs the Screen Recording permission
            break
    return {"app": str(app.localizedName()), "title": title, "pid": pid, "process": str(app.localizedName())}
