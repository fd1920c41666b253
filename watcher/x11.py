"""Shared plumbing for the X11 sources: a display connection served by a thread that sleeps in select().

Each X11 source owns its own connection (Xlib displays are not thread-safe) and reacts to X events instead of
polling, so an idle desktop costs nothing but a wake-up every `tick` seconds to notice `stop()`.
"""

from __future__ import annotations

import logging
import select
import threading
from collections.abc import Callable
from typing import Any

from .sources import SourceUnavailable

log = logging.getLogger(__name__)


def open_display() -> Any:
    try:
        import Xlib.display
        import Xlib.error
    except ImportError as exc:
        raise SourceUnavailable(f"python-xlib is not installed: {exc}") from exc
    try:
        return Xlib.display.Display()
    except (Xlib.error.DisplayError, Xlib.error.ConnectionClosedError, OSError) as exc:
        raise SourceUnavailable(f"cannot open the X display: {exc}") from exc


class XEventThread:
    """Runs `handle(event)` for every X event on `display`, and `tick()` every `tick` seconds, until stopped."""

    def __init__(self, display: Any, handle: Callable[[Any], None], name: str, tick: float = 0.5,
                 on_tick: Callable[[], None] | None = None):
        self.display = display
        self.handle = handle
        self.tick = tick
        self.on_tick = on_tick
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        import Xlib.error

        try:
            while not self._stop.is_set():
                readable, _, _ = select.select([self.display], [], [], self.tick)
                if self._stop.is_set():
                    break
                if readable or self.display.pending_events():
                    while self.display.pending_events():
                        event = self.display.next_event()
                        try:
                            self.handle(event)
                        except Xlib.error.XError as exc:  # a window vanished under us: routine
                            log.debug("X error in %s: %s", self._thread.name, exc)
                if self.on_tick:
                    self.on_tick()
        except Exception:  # the connection died (X server gone): stop this source, keep the watcher alive
            log.exception("%s stopped", self._thread.name)
        finally:
            try:
                self.display.close()
            except Exception:
                pass

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
