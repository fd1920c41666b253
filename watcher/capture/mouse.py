"""Mouse capture: clicks with button and position, and scroll ticks.

Pointer motion is deliberately not listened to: a Python callback per motion event costs about 0.75% of a core
at 30 moves/s. On X11 the record context (`xrecord.RecordThread`) is limited to ButtonPress..ButtonRelease, so
the X server never sends motion to us at all; the click position comes with the button event. Buttons 4 to 7 are
the scroll wheel's ticks, as X11 sends them. Scroll ticks are accumulated by the pipeline into one row per scroll
gesture. Windows and macOS: pynput's listener.
"""

from __future__ import annotations

import sys
from collections import deque
from typing import Any

from proactive.watcher.capture.sources import ListenerSource, Probe, SourceUnavailable
from proactive.watcher.capture.x11 import open_display, x11_probe
from proactive.watcher.events import CLICK, SCROLL, Emit, RawEvent

BUTTON_NAMES = {"left": "left", "right": "right", "middle": "middle"}


#: X11 buttons 4 to 7: one scroll tick each, (dx, dy) as pynput gives them
SCROLL_BUTTONS = {4: (0, 1), 5: (0, -1), 6: (-1, 0), 7: (1, 0)}


def x11_button_name(detail: int) -> str:
    """A click's button name from its X11 button number (pynput's names: left, middle, right, button8...)."""
    return {1: "left", 2: "middle", 3: "right"}.get(detail) or (f"button{detail}" if 8 <= detail <= 30 else "unknown")


def window_pid_at_pointer(display: Any) -> int | None:
    """The process (_NET_WM_PID) of the application window under the pointer, or None. Why: a click on one of our
    own windows that never takes the focus (the offer's popup) would otherwise be told as a click in the window
    that has it; the privacy filter drops clicks in our windows. The top-level child of the root is the window
    manager's frame, so the client (the window with WM_STATE) is looked for under it, two levels at most."""
    import Xlib.error

    root = display.screen().root
    wm_state = display.intern_atom("WM_STATE")
    pid_atom = display.intern_atom("_NET_WM_PID")
    try:
        level = [root.query_pointer().child]
        for _ in range(3):
            for window in level:
                if window and window.get_full_property(wm_state, 0) is not None:
                    prop = window.get_full_property(pid_atom, 0)
                    return int(prop.value[0]) if prop is not None and len(prop.value) else None
            level = [c for w in level if w for c in w.query_tree().children]
    except (Xlib.error.XError, Xlib.error.ConnectionClosedError):
        return None  # the window went away meanwhile: told as before, a click in the focused window
    return None


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

        display = open_display()  # the window under a click is asked on a connection of this thread's own
        # A click is announced to the order (ordering.py) as soon as it is read, and settled once emitted: the
        # keys stamped after it wait for it meanwhile, however long its window takes to ask (a busy machine: a
        # key typed at once after a click into a field was taken first, and the click dropped it as a key that
        # went to what was left); the keyboard's thread has this thread read before it hands its keys over
        # (xrecord.py `read_up`). An `emit` that is not the order (a test's list) announces nothing.
        announce, settle = getattr(emit, "announce", None), getattr(emit, "settle", None)
        announced: deque[object] = deque()  # the clicks read and not emitted yet, in order

        def read(kind: int, detail: int, _state: int, _x: int, _y: int, xtime: int) -> None:
            if kind == Xlib.X.ButtonPress and detail not in SCROLL_BUTTONS and announce is not None:
                announced.append(announce(xtime))

        def handle(kind: int, detail: int, _state: int, x: int, y: int, xtime: int) -> None:
            if kind != Xlib.X.ButtonPress:
                return  # a click is its press; a wheel tick is a press and a release
            if detail in SCROLL_BUTTONS:
                dx, dy = SCROLL_BUTTONS[detail]
                emit(RawEvent(self.name, SCROLL, {"dx": dx, "dy": dy, "x": x, "y": y}, xtime=xtime))
                return
            token = announced.popleft() if announced else None
            try:
                data = {"button": x11_button_name(detail), "x": x, "y": y}
                pid = window_pid_at_pointer(display)
                if pid is not None:
                    data["pid"] = pid
                emit(RawEvent(self.name, CLICK, data, xtime=xtime))
            finally:
                if token is not None and settle is not None:
                    settle(token)

        record = RecordThread(Xlib.X.ButtonPress, Xlib.X.ButtonRelease, handle, "x11-mouse", early=read)
        record.start()
        self._record = record
        self._display = display

    def stop(self) -> None:
        super().stop()
        display, self._display = getattr(self, "_display", None), None
        if display is not None:
            display.close()

    def probe(self) -> Probe:
        """On Linux: the X display opens and has the RECORD extension the clicks are recorded through."""
        if sys.platform.startswith("linux"):
            return x11_probe(self.name, "clicks and scrolling", "RECORD")
        return super().probe()
