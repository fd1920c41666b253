"""Mouse capture: clicks with button and position, and scroll ticks.

Pointer motion is deliberately not listened to: a Python callback per motion event costs about 0.75% of a core
at 30 moves/s. On X11 the record context is limited to button press/release, so the X server never sends motion
to us at all; the click position comes with the button event. Scroll ticks are accumulated by the pipeline
into one row per scroll gesture.
"""

from __future__ import annotations

import sys
from typing import Any

from .events import CLICK, SCROLL, Emit, RawEvent
from .sources import ListenerSource, Probe, SourceUnavailable
from .x11 import x11_probe

BUTTON_NAMES = {"left": "left", "right": "right", "middle": "middle"}


class Mouse(ListenerSource):
    name = "mouse"

    def start(self, emit: Emit) -> None:
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

        listener_cls = mouse.Listener
        if sys.platform.startswith("linux"):
            import Xlib.X

            class ButtonsOnlyListener(mouse.Listener):  # type: ignore[misc,valid-type]
                # pynput records the range ButtonPress..LeaveNotify, which includes MotionNotify; we want
                # only ButtonPress..ButtonRelease.
                _EVENTS = (Xlib.X.ButtonPress, Xlib.X.ButtonRelease)

            listener_cls = ButtonsOnlyListener
        self._start_listener(listener_cls(on_click=on_click, on_scroll=on_scroll))

    def probe(self) -> Probe:
        """On Linux: the X display opens, has the RECORD extension pynput listens through, and pynput imports."""
        if sys.platform.startswith("linux"):
            return x11_probe(self.name, "clicks and scrolling", "RECORD", pynput="mouse")
        return super().probe()
