"""Idle/away detection on Wayland: the same IDLE events as `idle.py` (data `state` idle|active, `seconds`).

- `SwayIdle`: `swayidle -w timeout N 'echo idle' resume 'echo active'`, whose lines we read: the compositor
  itself says when no input came for N seconds and when input is back (the `ext-idle-notify-v1` protocol, or
  KDE's older `org_kde_kwin_idle`, which sway, Hyprland, KDE Plasma and most wlroots compositors offer). Nothing
  is polled. Tested on headless sway.
- `MutterIdle`: GNOME's `org.gnome.Mutter.IdleMonitor.GetIdletime` (milliseconds since the last input) over the
  session D-Bus (jeepney), asked every few seconds like the X11 source. Tested on headless GNOME Shell 43.
- `ScreenSaverIdle`: `org.freedesktop.ScreenSaver.GetSessionIdleTime` (KDE Plasma answers it), the same way.
  UNTESTED here.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Callable
from typing import Any

from proactive.watcher.capture.idle import IdleTracker, _PollingIdleBase
from proactive.watcher.capture.sources import Probe, Source, SourceUnavailable
from proactive.watcher.capture.wayland import stop_helper
from proactive.watcher.events import Emit

log = logging.getLogger(__name__)

CAPTURES = "idle and back"


class SwayIdle(Source):
    """Idle through swayidle (the compositor's idle-notify protocol). Tested on headless sway."""

    name = "idle"
    captures = CAPTURES

    def __init__(self, idle_seconds: float = 120.0) -> None:
        self.idle_seconds = idle_seconds
        self.timeout = max(1, round(idle_seconds))  # swayidle counts whole seconds
        self._proc: subprocess.Popen[str] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def probe(self) -> Probe:
        from proactive.watcher.capture.wayland import IDLE_NOTIFY, has_protocol

        label = "idle (swayidle)"
        if shutil.which("swayidle") is None:
            return Probe(label, CAPTURES, False, "swayidle is not installed", "install swayidle (apt install swayidle)")
        ok, detail = has_protocol(IDLE_NOTIFY)
        return Probe(label, CAPTURES, ok, detail,
                     "" if ok else "this compositor offers no idle-notify protocol: idle is not detected")

    def command(self) -> list[str]:
        return ["swayidle", "-w", "timeout", str(self.timeout), "echo idle", "resume", "echo active"]

    def start(self, emit: Emit) -> None:
        if shutil.which("swayidle") is None:
            raise SourceUnavailable("swayidle is not installed (apt install swayidle): no idle detection")
        from proactive.watcher.capture.wayland import IDLE_NOTIFY, has_protocol

        ok, detail = has_protocol(IDLE_NOTIFY)
        if not ok:
            raise SourceUnavailable(f"no idle detection: {detail}")
        self._proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, start_new_session=True)
        tracker = IdleTracker(emit, self.idle_seconds, self.name)
        proc = self._proc

        def run() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                word = line.strip()
                if word == "idle":
                    tracker.update(float(self.timeout))
                elif word == "active":
                    tracker.update(0.0)
            if not self._stop.is_set():
                err = proc.stderr.read().strip() if proc.stderr else ""
                log.warning("idle detection stopped: swayidle exited (%s)%s", proc.poll(), f": {err}" if err else "")

        self._thread = threading.Thread(target=run, name="swayidle", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        proc, self._proc = self._proc, None
        thread, self._thread = self._thread, None
        stop_helper(proc, thread)


class _DBusIdle(_PollingIdleBase):
    """Seconds since the last input asked of a D-Bus service every few seconds, on one kept connection."""

    captures = CAPTURES
    label = ""
    call: tuple[str, str, str, str] = ("", "", "", "")
    fix = ""
    tested = False  # whether a test here runs it in its desktop

    def _convert(self, value: Any) -> float:
        raise NotImplementedError

    def _reader(self) -> Callable[[], float]:
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection
        from jeepney.wrappers import unwrap_msg

        destination, path, interface, method = self.call
        address = DBusAddress(path, bus_name=destination, interface=interface)
        try:
            conn = open_dbus_connection(bus="SESSION")
        except Exception as exc:
            raise SourceUnavailable(f"no session D-Bus for {self.label}: {exc}") from None

        def read() -> float:
            reply = conn.send_and_get_reply(new_method_call(address, method), timeout=2.0)
            return self._convert(unwrap_msg(reply)[0])

        try:
            read()
        except Exception as exc:
            conn.close()
            raise SourceUnavailable(f"{self.label} does not answer ({exc})") from None  # the warning adds the fix
        self._conn = conn
        return read

    def probe(self) -> Probe:
        from proactive.watcher.capture.wayland import dbus_call

        try:
            dbus_call(*self.call)
        except Exception as exc:
            return Probe(self.label, CAPTURES, False, f"does not answer: {exc}", self.fix, tested=self.tested)
        return Probe(self.label, CAPTURES, True, "answers on the session bus", tested=self.tested)

    def stop(self) -> None:
        super().stop()
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()
            self._conn = None


class MutterIdle(_DBusIdle):
    """GNOME (Mutter) IdleMonitor over D-Bus. Tested on headless GNOME Shell 43 (tests/test_gnome.py)."""

    tested = True
    label = "idle (GNOME IdleMonitor)"
    call = ("org.gnome.Mutter.IdleMonitor", "/org/gnome/Mutter/IdleMonitor/Core", "org.gnome.Mutter.IdleMonitor",
            "GetIdletime")
    fix = "run inside GNOME Shell with a session D-Bus"

    def _convert(self, value: Any) -> float:
        return float(value) / 1000.0  # milliseconds


class ScreenSaverIdle(_DBusIdle):
    """org.freedesktop.ScreenSaver's session idle time over D-Bus (KDE Plasma). UNTESTED here."""

    label = "idle (org.freedesktop.ScreenSaver)"
    call = ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver",
            "GetSessionIdleTime")
    fix = "install swayidle (apt install swayidle), or run a desktop whose screen saver service answers"

    def _convert(self, value: Any) -> float:
        return float(value)  # seconds, per the freedesktop.org specification
