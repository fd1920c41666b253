"""Idle/away detection: no keyboard or pointer input for `idle_seconds`.

X11 asks the server (MIT-SCREEN-SAVER extension) how long it has been since the last input, which counts pointer
motion that we deliberately do not listen to. While the person is active the next reading is when idle could begin
at the earliest (`next_reading`); while idle, every few seconds.
Windows (GetLastInputInfo) and macOS (Quartz) are polled the same way; UNTESTED here.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable

from proactive.watcher.capture.sources import Probe, Source, SourceUnavailable
from proactive.watcher.capture.x11 import open_display, x11_probe
from proactive.watcher.events import IDLE, Emit, RawEvent

log = logging.getLogger(__name__)


class IdleTracker:
    """Turns "seconds since last input" readings into idle/active transitions (testable without a display)."""

    def __init__(self, emit: Emit, idle_seconds: float, source: str = "idle"):
        self.emit = emit
        self.idle_seconds = idle_seconds
        self.source = source
        self.idle_since: float | None = None

    def update(self, since_input: float, now: float | None = None) -> None:
        now = time.time() if now is None else now
        if self.idle_since is None and since_input >= self.idle_seconds:
            self.idle_since = now - since_input
            self.emit(RawEvent(self.source, IDLE, {"state": "idle", "seconds": round(since_input, 1)},
                               ts=self.idle_since))
        elif self.idle_since is not None and since_input < self.idle_seconds:
            back = now - since_input
            self.emit(RawEvent(self.source, IDLE, {"state": "active", "seconds": round(back - self.idle_since, 1)},
                               ts=back))
            self.idle_since = None


class _PollingIdleBase(Source):
    name = "idle"

    def __init__(self, idle_seconds: float = 120.0) -> None:
        self.idle_seconds = idle_seconds
        self.interval = max(0.5, min(5.0, idle_seconds / 4))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _reader(self) -> Callable[[], float]:
        raise NotImplementedError

    def next_reading(self, since_input: float) -> float:
        """Seconds until the next reading while active: idle cannot begin before `idle_seconds - since_input`
        from now, so there is no reading before then (a typing person costs one wake-up per `idle_seconds`, not
        one every `interval`). While idle the reading comes every `interval`, to see the person come back."""
        return max(0.5, self.idle_seconds - since_input)

    def start(self, emit: Emit) -> None:
        read = self._reader()
        tracker = IdleTracker(emit, self.idle_seconds, self.name)

        def run() -> None:
            wait = self.interval
            while not self._stop.wait(wait):
                try:
                    since_input = read()
                    tracker.update(since_input)
                except Exception:
                    log.exception("idle reading failed; idle detection stops")
                    return
                wait = self.interval if tracker.idle_since is not None else self.next_reading(since_input)

        self._thread = threading.Thread(target=run, name="idle", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)


class X11Idle(_PollingIdleBase):
    def _reader(self) -> Callable[[], float]:
        display = open_display()
        if not display.has_extension("MIT-SCREEN-SAVER"):
            display.close()
            raise SourceUnavailable("the X server has no MIT-SCREEN-SAVER extension")
        root = display.screen().root
        return lambda: root.screensaver_query_info().idle / 1000.0

    def probe(self) -> Probe:
        """The X display opens and has MIT-SCREEN-SAVER (it says how long since the last input)."""
        return x11_probe(self.name, "idle and back", "MIT-SCREEN-SAVER")


class PollingIdle(_PollingIdleBase):
    """Windows and macOS. UNTESTED here."""

    def _reader(self) -> Callable[[], float]:  # pragma: no cover - not Linux
        if sys.platform == "win32":
            import ctypes

            class LASTINPUTINFO(ctypes.Structure):
                _fields_ = [("cbSize", ctypes.c_uint), ("dwTime", ctypes.c_uint)]

            def read() -> float:
                info = LASTINPUTINFO(ctypes.sizeof(LASTINPUTINFO), 0)
                ctypes.windll.user32.GetLastInputInfo(ctypes.byref(info))  # type: ignore[attr-defined]
                return (ctypes.windll.kernel32.GetTickCount() - info.dwTime) / 1000.0  # type: ignore[attr-defined]

            return read
        if sys.platform == "darwin":
            from Quartz import (  # type: ignore[import-not-found]
                CGEventSourceSecondsSinceLastEventType,
                kCGAnyInputEventType,
                kCGEventSourceStateCombinedSessionState,
            )

            return lambda: CGEventSourceSecondsSinceLastEventType(
                kCGEventSourceStateCombinedSessionState, kCGAnyInputEventType)
        raise SourceUnavailable(f"no idle detection for {sys.platform}")
