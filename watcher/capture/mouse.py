"""Mouse capture: clicks with button and position, and scroll ticks.

Pointer motion is deliberately not listened to: a Python callback per motion event costs about 0.75% of a core
at 30 moves/s. On X11 the record context (`xrecord.RecordThread`) is limited to ButtonPress..ButtonRelease, so
the X server never sends motion to us at all; the click position comes with the button event. Buttons 4 to 7 are
the scroll wheel's ticks, as X11 sends them. Scroll ticks are accumulated by the pipeline into one row per scroll
gesture. Windows and macOS: pynput's listener.
"""

from __future__ import annotations

import sys
from typing import Any

from proactive.watcher.capture.sources import ListenerSource, Probe, SourceUnavailable
from proactive.watcher.capture.x11 import x11_probe
from proactive.watcher.events import CLICK, SCROLL, Emit, RawEvent

BUTTON_NAMES = {"left": "left", "right": "right", "middle": "middle"}


#: X11 buttons 4 to 7: one scroll tick each, (dx, dy) as pynput gives them
SCROLL_BUTTONS = {4: (0, 1), 5: (0, -1), 6: (-1, 0), 7: (1, 0)}


def x11_button_name(detail: int) -> str:
    """A click's button name from its X11 button number (pynput's names: left, middle, right, button8...)."""
    return {1: "left", 2: "middle", 3: "right"}.get(detail) or (f"button{detail}" if 8 <= detail <= 30 else "unknown")


class Mouse(ListenerSource):
    name = "mouse"

    def start(self, emit: Emit) -> None:
        if sys.platform.startswith("linux"):
            self._start_x11(emit)
            return
        try:
            from pynput import mouse
        except ImportError as exc:
            raise SourceUnavailable(f"mouse capture unavailable: {exc}") from exc

        def on_click(x: int, y: int, button: Any, pressed: bool, *_: Any) -> None:
            if pressed:
                name = getattr(button, "name", str(button))
                emit(RawEvent(self.name, CLICK, {"button": BUTTON_NAMES.get(name, name), "x": x, "y": y}))

        def on_scroll(x: int, y: int, dx: int, dy: int, *_: Any) -> None:
            emit(RawEvent(self.name, SCROLL, {"dx": dx, "dy": dy, "x": x, "y": y}))

        self._start_listener(mouse.Listener(on_click=on_click, on_scroll=on_scroll))

    def _start_x11(self, emit: Emit) -> None:
        import Xlib.X

        from proactive.watcher.capture.xrecord import RecordThread

        def handle(kind: int, detail: int, _state: int, x: int, y: int, xtime: int) -> None:
            if kind != Xlib.X.ButtonPress:
                return  # a click is its press; a wheel tick is a press and a release
            if detail in SCROLL_BUTTONS:
                dx, dy = SCROLL_BUTTONS[detail]
                emit(RawEvent(self.name, SCROLL, {"dx": dx, "dy": dy, "x": x, "y": y}, xtime=xtime))
            else:
                emit(RawEvent(self.name, CLICK, {"button": x11_button_name(detail), "x": x, "y": y}, xtime=xtime))

        record = RecordThread(Xlib.X.ButtonPress, Xlib.X.ButtonRelease, handle, "x11-mouse")
        record.start()
        self._record = record

    def probe(self) -> Probe:
        """On Linux: the X display opens and has the RECORD extension the clicks are recorded through."""
        if sys.platform.startswith("linux"):
            return x11_probe(self.name, "clicks and scrolling", "RECORD")
        return super().probe()
