"""Clipboard capture: text copies, size-capped, read only when the clipboard changes.

X11: the XFixes extension notifies us when the CLIPBOARD selection changes owner; only then do we ask the owner
for its text (no polling, no process spawned per read). Copies larger than `max_chars` are cut, and the row says
so. The source application is attributed by the pipeline (the focused window at the time of the copy), and the
privacy filter drops copies made in excluded or password contexts (password managers copy passwords).
Windows/macOS: pyperclip polled once a second, comparing content; UNTESTED here.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from .events import CLIPBOARD, Emit, RawEvent
from .sources import Probe, Source, SourceUnavailable
from .x11 import XEventThread, open_display, x11_probe

log = logging.getLogger(__name__)


def clip_event(text: str, max_chars: int, source: str = "clipboard", xtime: int | None = None) -> RawEvent:
    return RawEvent(source, CLIPBOARD, {"text": text[:max_chars], "length": len(text),
                                        "truncated": len(text) > max_chars}, xtime=xtime)


class X11Clipboard(Source):
    name = "clipboard"

    def __init__(self, max_chars: int = 2000) -> None:
        self.max_chars = max_chars
        self._thread: XEventThread | None = None

    def start(self, emit: Emit) -> None:
        import Xlib.X
        from Xlib.ext import xfixes

        display = open_display()
        if not display.has_extension("XFIXES"):
            display.close()
            raise SourceUnavailable("the X server has no XFIXES extension")
        display.xfixes_query_version()
        screen = display.screen()
        window = screen.root.create_window(0, 0, 1, 1, 0, screen.root_depth)
        clipboard = display.intern_atom("CLIPBOARD")
        utf8 = display.intern_atom("UTF8_STRING")
        incr = display.intern_atom("INCR")
        prop = display.intern_atom("PROACTIVE_CLIP")
        display.xfixes_select_selection_input(window, clipboard, xfixes.XFixesSetSelectionOwnerNotifyMask)
        display.flush()
        owner_event = display.extension_event.SetSelectionOwnerNotify
        # the server's time of the last copy (its event is ordered by it) and its announcement (ordering.py):
        # keys pressed after the copy wait until its text has been read from the owner
        copied: list[int | None] = [None]
        announcing: list[object] = []
        announce = getattr(emit, "announce", None)

        def settle() -> None:
            while announcing:
                emit.settle(announcing.pop())  # type: ignore[attr-defined]  # (it announced)

        def handle(event: Any) -> None:
            if (event.type, getattr(event, "sub_code", None)) == owner_event:
                if not event.owner:  # clipboard cleared (its owner exited)
                    return
                copied[0] = event.timestamp
                settle()
                if announce is not None:
                    announcing.append(announce(event.timestamp))
                window.convert_selection(clipboard, utf8, prop, Xlib.X.CurrentTime)
                display.flush()
            elif event.type == Xlib.X.SelectionNotify and event.selection == clipboard:
                try:
                    copy = read(event)
                    if copy is not None:
                        emit(copy)
                finally:
                    settle()

        def read(event: Any) -> RawEvent | None:
            """The copy the owner's answer holds: its text, or a note that it was too large; None without text."""
            if event.property == Xlib.X.NONE:
                return None  # the owner has no text (an image, files)
            value = window.get_full_property(prop, Xlib.X.AnyPropertyType, sizehint=self.max_chars * 4)
            window.delete_property(prop)
            display.flush()
            if value is None:
                return None
            if value.property_type == incr:  # too large for one transfer: note the copy, keep none of it
                return RawEvent(self.name, CLIPBOARD, {"text": "", "length": None, "truncated": True}, xtime=copied[0])
            raw = value.value if isinstance(value.value, bytes) else bytes(value.value)
            return clip_event(raw.decode("utf-8", "replace"), self.max_chars, self.name, copied[0])

        self._thread = XEventThread(display, handle, "x11-clipboard")
        self._thread.start()

    def probe(self) -> Probe:
        """The X display opens and has XFIXES (clipboard owner changes are notified through it)."""
        return x11_probe(self.name, "copied text", "XFIXES")

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None


class PollingClipboard(Source):
    """pyperclip, compared once a second (Windows/macOS). UNTESTED here."""

    name = "clipboard"

    def __init__(self, max_chars: int = 2000, interval: float = 1.0) -> None:
        self.max_chars = max_chars
        self.interval = interval
        self._stop = threading.Event()

    def start(self, emit: Emit) -> None:
        import pyperclip

        def run() -> None:
            last = None
            while not self._stop.wait(self.interval):
                try:
                    text = pyperclip.paste()
                except Exception:
                    log.exception("clipboard read failed")
                    continue
                if last is not None and text and text != last:
                    emit(clip_event(text, self.max_chars, self.name))
                last = text

        threading.Thread(target=run, name="poll-clipboard", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
