"""Privacy as one stage of the pipeline: events in, events out, and nothing out that may not be kept.

The pipeline is inbox -> order -> privacy -> batch -> store -> episodes (watcher/pipeline.py). This stage owns
everything that decides what of the person's activity may be kept: the filter (pause, excluded windows, password
contexts, copies of secrets, redaction: `filter.PrivacyFilter`), the typed-text composer (keys to lines, flushed
in pieces that cannot split a secret: `compose.TextComposer`), the terminal's echo readings and the judging of
each terminal line by them (`terminal_lines.TerminalLines`), the accessibility bus's focus, prompts and typed text,
and the scroll gestures summarised. Its interface is small, so its promises can be tested on their own
(tests/test_privacy_stage.py, property-based): `take(event)` for each event in the server's order, `tick(now)`
when the loop looks (typed text and gestures due), `flush(now)` when what is held must come out now (a stop, a
purge of a period, a pause); each returns the events that may be stored, already cleaned. Not thread-safe: the
pipeline calls it under its one lock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from proactive.watcher.capture.sources import Source
from proactive.watcher.events import CLIPBOARD, FOCUS, KEY, PROMPT, SCROLL, TYPED, WINDOW, RawEvent
from proactive.watcher.privacy.compose import UNOBSERVED, TextComposer
from proactive.watcher.privacy.filter import PrivacyFilter
from proactive.watcher.privacy.terminal_lines import TerminalLines
from proactive.watcher.store.home import Config

log = logging.getLogger("proactive.watcher.pipeline")  # the tests wait on these debug lines under that name

SCROLL_GESTURE_SECONDS = 1.0


class PrivacyStage(TerminalLines):
    """Raw events in (`take`, `tick`, `flush`), events that may be kept out. `typists`: the sources that may say
    a window's text comes from them rather than its keys (the accessibility bus: `Source.types_in`)."""

    def __init__(self, config: Config, typists: Sequence[Source] = ()):
        self.filter = PrivacyFilter(config)
        self._out: list[RawEvent] = []
        self.composer = TextComposer(self._emit)
        self._lines_init()
        self.typists = list(typists)
        self.typed_object: str | None = None  # the accessible object whose typed text the composer holds
        self.key_logger = False  # a started source gives keys (X11): the bus's text counts only where it types
        self.scroll: dict[str, Any] | None = None

    # -- the interface ----------------------------------------------------------------------------------------

    def take(self, event: RawEvent) -> list[RawEvent]:
        """One event, in the server's order: what may be kept of it (and of the text it ended)."""
        if event.kind == KEY:
            self._take_key(event)
        elif event.kind in (FOCUS, TYPED, PROMPT):
            self._accessibility(event)
        elif event.kind == SCROLL:
            self._add_scroll(event)
        else:
            if event.kind == CLIPBOARD and self.filter.window:
                event.data.setdefault("app", self.filter.window.get("app"))  # copies are attributed to the focus
            # any other event ends the text being typed and the scroll gesture, in this order
            self._end_line(event.ts)
            self._flush_scroll()
            self._emit(event)
            if event.kind == WINDOW:
                self._focus_changed()
        return self._taken()

    def tick(self, now: float) -> list[RawEvent]:
        """The loop looks: typed text older than the composer's pause, and a scroll gesture that ended."""
        if self.filter.accepts_keys():
            self.composer.tick(now)
        if self.scroll is not None and now - self.scroll["last"] >= SCROLL_GESTURE_SECONDS:
            self._flush_scroll()
        return self._taken()

    def flush(self, now: float) -> list[RawEvent]:
        """The line being typed and the scroll gesture end now (a stop, a purge of a period, a pause)."""
        self._end_line(now)
        self._flush_scroll()
        return self._taken()

    def due(self) -> float | None:
        """When `tick` has something to give (time.time()), or None: not before another event."""
        dues = [d for d in (self.composer.due(),
                            self.scroll["last"] + SCROLL_GESTURE_SECONDS if self.scroll else None) if d is not None]
        return min(dues, default=None)

    def pause(self, until: float) -> list[RawEvent]:
        """Capture pauses until `until` (math.inf: until resumed): what was typed before is judged and kept, then
        the pause's marker; nothing after it. A pause already on only gets its new end."""
        if self.filter.paused:
            self.filter.paused_until = until
            return []
        self.flush(time.time())
        self._emit(self.filter.pause(until))
        return self._taken()

    def resume(self) -> list[RawEvent]:
        """Capture goes on: the resume's marker, and the window that has the focus (a fresh episode)."""
        if not self.filter.paused:
            return []
        self._emit(self.filter.resume())
        return self.focus_again()

    def focus_again(self) -> list[RawEvent]:
        """The focused window said again (after a purge of everything, or a resume): a fresh episode starts."""
        if self.filter.window and not self.filter.paused:
            self._emit(RawEvent("window", WINDOW, dict(self.filter.window)))
        return self._taken()

    def discard(self) -> int:
        """A purge of everything: the line being typed and the scroll gesture are forgotten, not kept; returns
        how many such items there were."""
        dropped = (self.scroll is not None) + self.composer.discard()
        self.scroll = None
        self._out = []
        return dropped

    # -- inside -------------------------------------------------------------------------------------------------

    def _emit(self, event: RawEvent) -> None:
        """Every event that leaves the stage goes through the filter here: the composer's text and our own."""
        clean = self.filter.clean(event)
        if clean is not None:
            self._out.append(clean)

    def _taken(self) -> list[RawEvent]:
        out, self._out = self._out, []
        return out

    def _take_key(self, event: RawEvent) -> None:
        if self.typists and self._bus_types_here():
            return  # the accessibility bus gives this window's text, each piece with the field that took it
        if not self.filter.accepts_keys():
            self.filter.dropped += 1
            return
        if self.composer.source != "keyboard":  # text from the accessibility bus ends where keys begin
            self.composer.flush()
            self.composer.source, self.typed_object = "keyboard", None
        if not self.filter.in_terminal():
            # a GUI application whose fields nothing describes (no accessibility bus, or an application not on
            # it): nothing shows the field is not a password field, so only the fact of typing is kept, never the
            # text (a terminal's keys are judged by its echo state instead)
            self.composer.hide_line = self.composer.hide_line or UNOBSERVED
        self._key(event.ts, event.data.get("char"), event.data.get("key"), event.xtime is not None)

    def _bus_types_here(self) -> bool:
        """Whether the focused window's text comes from the accessibility bus rather than its keys: its process is
        an application on the bus (AtspiSource.types_in) and not a terminal emulator (a terminal's bus text is
        its output; the person's typing there is keys). Why: a key reaches us at once, the focus event saying
        "password field" may come after it on a busy machine; the bus's text names the field that took it."""
        pid = self.filter.window.get("pid") if self.filter.window else None
        # (the terminal first: it is cached, where a process not on the bus is asked of the registry each second)
        return bool(pid) and not self.filter.in_terminal() and any(s.types_in(pid) for s in self.typists)

    def _accessibility(self, event: RawEvent) -> None:
        """FOCUS, TYPED and PROMPT events from the accessibility bus (watcher/capture/atspi.py), never stored: the
        focused widget's role goes to the filter; typed text is fed to the composer like keys (inserted characters,
        then Backspace for deleted ones), unless the filter refuses it (a password field, an unknown role); a
        terminal's password prompt hides the line typed next there. Any failure drops the event (fail closed)."""
        try:
            if event.kind == FOCUS:
                if self.composer.source != "atspi":  # keys: the focus is all we know of where they go
                    self._end_line(event.ts)  # what was typed in the widget left is kept
                # typed text from the bus ends where another object's text begins (below), not at a focus
                # event, which may arrive before the last characters of the field left
                self.filter.focus(event.data)
            elif event.kind == PROMPT:
                if self.filter.prompt_shown(event.data):
                    log.debug("a password prompt is shown in the focused terminal: its next line is hidden")
                    self.composer.hide_line = "password"
            else:
                self._typed(event)
        except Exception:
            self.filter.failures += 1
            log.exception("an accessibility event could not be applied; dropped")

    def _typed(self, event: RawEvent) -> None:
        """A TYPED event: text inserted or deleted in one accessible object. A field's text ends where another
        object's text begins (even a password field's, which is dropped), so it never continues another field's
        line, and coming back to a field starts a new line."""
        emitter = event.data.get("object")
        window_pid = self.filter.window.get("pid") if self.filter.window else None
        if self.key_logger and event.data.get("pid") != window_pid:
            return  # not typed in the focused window (a program filling a field): keys give that window's text
        if emitter != self.typed_object or self.composer.source != "atspi":
            if self.composer.source == "keyboard" and self.key_logger:
                # keys typed here before its application was seen on the bus: its own text of them follows, and
                # those keys were judged by a focus event that may have been late (fail closed: dropped)
                self.composer.discard()
            else:
                self.composer.flush(field_end=True)
            self.typed_object, self.composer.source = emitter, "atspi"
        if not self.filter.accepts_typed(event.data):
            self.filter.dropped += 1
            return
        for char in (event.data.get("text") or "").replace("\r\n", "\n"):
            if char in "\r\n":
                self._key(event.ts, None, "enter")
            elif char == "\t" or char.isprintable():
                self._key(event.ts, char if char != "\t" else None, "tab" if char == "\t" else None)
        for _ in range(min(int(event.data.get("erase") or 0), 10000)):
            self._key(event.ts, None, "backspace")

    def _add_scroll(self, event: RawEvent) -> None:
        if self.scroll is None:
            self.scroll = {"ts": event.ts, "dx": 0, "dy": 0, "count": 0, "last": event.ts}
        self.scroll["dx"] += int(event.data.get("dx") or 0)
        self.scroll["dy"] += int(event.data.get("dy") or 0)
        self.scroll["count"] += 1
        self.scroll["last"] = event.ts

    def _flush_scroll(self) -> None:
        if self.scroll is not None:
            s, self.scroll = self.scroll, None
            self._emit(RawEvent("mouse", SCROLL, {"dx": s["dx"], "dy": s["dy"], "count": s["count"]}, ts=s["ts"]))
