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
from proactive.watcher.events import (
    CLICK,
    CLIPBOARD,
    FOCUS,
    HOTKEY,
    KEY,
    PROMPT,
    SCROLL,
    TYPED,
    WINDOW,
    RawEvent,
)
from proactive.watcher.privacy.compose import UNOBSERVED, TextComposer
from proactive.watcher.privacy.echo_state import VISIBLE
from proactive.watcher.privacy.editor_keys import LEAVE_KEYS, QUITS, VIM_QUIT_SECONDS, VimModes, is_vim
from proactive.watcher.privacy.filter import PrivacyFilter
from proactive.watcher.privacy.terminal_lines import TerminalLines
from proactive.watcher.privacy.typed_keys import LINE_BREAKS, Key, KeyMatch, by_shape
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
        self.key_logger = False  # a started source gives keys (X11): the bus's text counts only where keys made it
        self.keys = KeyMatch()  # keys typed where the bus gives the text, waiting for the changes they made
        self.vim = VimModes()  # vim's mode in each terminal that runs it: only insert mode's keys are text
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
            retitled = event.kind == WINDOW and self._retitled(event)
            if event.kind == CLICK or event.kind == WINDOW and not retitled:
                self.keys.forget(event.ts)  # keys still waiting went to what was clicked or switched away from
            elif event.kind == HOTKEY:
                self.keys.moved(event.ts)  # a shortcut may move the focus (Ctrl+L): keys before it went elsewhere
            field_end = False
            if event.kind == HOTKEY and event.data.get("combo") in LEAVE_KEYS and self.filter.window:
                field_end = self._vim_leaves(event.ts)
            # any other event ends the text being typed and the scroll gesture, in this order; the focused
            # window's new title (its page loaded while an address is typed) ends no text its field's own
            # accessible object tells: that field's line goes on in the episode of the new title
            if not (retitled and self.composer.source == "atspi"):
                self._end_line(event.ts, field_end=field_end)
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
        char, name = event.data.get("char"), event.data.get("key")
        if self.typists and self._bus_types_here():
            # the accessibility bus says which field took this window's keys: they wait for its text changes
            if name == "esc":
                self.keys.moved(event.ts)  # Escape may close what had the focus (a menu, a dialog, a find bar)
            elif self.filter.accepts_keys():
                for key in self.keys.key(event.ts, char, name):
                    self._bus_key(key)
            return
        if not self.filter.accepts_keys():
            self.filter.dropped += 1
            return
        in_vim = self.filter.in_terminal() and self._in_vim(event.ts)
        if in_vim and self.composer.hide_line:
            # a line judged hidden stays one hidden line to its Enter, its keys not read as vim's: they are a key
            # prompt's answer (`:X`), after which vim is in the mode it was in
            in_vim = False
        if name == "esc" and not in_vim:
            return  # Escape edits no line; it only tells vim's modes
        if self.composer.source != "keyboard":  # text from the accessibility bus ends where keys begin
            self.composer.flush()
            self.composer.source, self.typed_object = "keyboard", None
        if not self.filter.in_terminal():
            # a GUI application whose fields nothing describes (no accessibility bus, or an application not on
            # it): nothing shows the field is not a password field, so only the fact of typing is kept, never the
            # text (a terminal's keys are judged by its echo state instead)
            self.composer.hide_line = self.composer.hide_line or UNOBSERVED
        if in_vim:
            self._vim_key(event, char, name)
        else:
            self._key(event.ts, char, name, event.xtime is not None)

    def _in_vim(self, ts: float) -> bool:
        """Whether vim's modes may decide what the focused terminal's keys are: its foreground program is vim and
        the terminal shows what is typed (a VISIBLE reading: never where echo is off or unseen, as at `vim -x`'s
        key prompt, whose keys are judged as any hidden line's). A reading taken at a new line's first key is
        fresh (vim may have started since the last line); after a quit command only a fresh reading counts, and
        until one shows vim still there a second later (the quit refused) the keys are the shell's. Within a line
        a line editor reads, the editor known before the key was pressed keeps it (`_line_editor`). A terminal
        that no longer runs vim forgets its mode and ends the line typed in it (`_vim_exited`)."""
        pid = self.filter.window.get("pid")
        cached, until, reading = self._echo_cache
        quit_at = self.vim.quits.get(pid)
        starting = not self.composer.line and not self.composer.sent
        if cached != pid or reading is None or time.monotonic() >= until or starting or quit_at is not None:
            reading = self.filter.echo_reading()
        if reading is not None and reading.mode == VISIBLE and not starting and quit_at is None:
            editor = self._line_editor(pid, ts)
            if editor is not None:
                return editor
        if reading is not None and reading.mode == VISIBLE and is_vim(reading.program):
            if quit_at is None:
                return True
            if time.time() - quit_at >= VIM_QUIT_SECONDS:
                del self.vim.quits[pid]  # the quit was refused (unsaved changes): vim is in normal mode
                return True
            return False
        self._vim_exited(pid, ts)
        return False

    def _line_editor(self, pid: object, ts: float) -> bool | None:
        """Whose line editor reads the line being typed, by the line's last echo reading taken before its key of
        `ts` was pressed: vim's command line (True), the shell's own line editor with no key waiting unread
        (False), or None when no such reading says. Why: a line editor keeps the terminal until the line's Enter
        (vim starts only once the shell has read it; vim quits at its command line's Enter, never inside it), so
        when a busy machine has the line's keys handled after that Enter, a reading taken then that shows another
        program in front is about what came after the line: the shell's `vim plain.txt` was read as vim's
        commands (its Enter an operator's cancel, the line run into the next), vim's `:q!` was cut at `:q` and
        its `!` hidden as the shell's. Only a VISIBLE reading taken now is overruled (`_in_vim`): one that does
        not show what is typed always hides."""
        before = [reading for at, reading in self.line_reads if at < ts]
        if not before or before[-1].mode != VISIBLE:
            return None
        last = before[-1]
        if self.vim.modes.get(pid) == "command" and is_vim(last.program):
            return True
        if last.raw and last.shell and not last.queued:
            return False
        return None

    def _vim_exited(self, pid: object, ts: float) -> None:
        """vim no longer reads the keys of the terminal `pid` (it quit, or another program runs in front of it):
        its mode is forgotten, and a line typed in it ends there, so the shell's next line never continues it.
        A hidden line is left whole (it ends hidden at its Enter: nothing is ever unhidden)."""
        if self.vim.follows(pid):
            if not self.composer.hide_line:
                self._end_line(ts, field_end=True)
            self.vim.forget(pid)

    def _vim_leaves(self, ts: float) -> bool:
        """Ctrl+C (or Ctrl+[) in a terminal running vim: it leaves insert or command-line mode. Returns whether
        the line typed ends as a line of its own (insert mode's text); a command line it cancels is dropped."""
        pid = self.filter.window.get("pid")
        mode = self.vim.modes.get(pid)
        self.vim.leave(pid)
        if mode == "command" and not self.composer.hide_line:
            self._drop_line(ts)
        return mode == "insert"

    def _vim_key(self, event: RawEvent, char: str | None, name: str | None) -> None:
        """A key sent to vim (watcher/privacy/editor_keys.py): text in insert mode, a command line of its own, a
        save or quit said as what it does, nothing in normal mode. A command line not kept is still judged first
        (`_drop_line`): one judged hidden is stored as hidden and never said."""
        pid = self.filter.window.get("pid")
        step = self.vim.key(pid, char, name)
        if step.end:
            self._end_line(event.ts, field_end=True)
        hidden = self._drop_line(event.ts) if step.drop else False
        if step.says and not hidden:
            self._emit(RawEvent("keyboard", HOTKEY, {"combo": step.says}, ts=event.ts))
            if step.says in QUITS:
                self.vim.quits[pid] = time.time()
        if step.text:
            self._key(event.ts, char, name, event.xtime is not None)
            if self.vim.modes.get(pid) == "command":
                self.composer.hold = True  # a command line is judged whole, at its Enter: no piece before

    def _retitled(self, event: RawEvent) -> bool:
        """Whether a WINDOW event is the focused window's new title (a page loading while an address is typed:
        the keys waiting are still that window's), not a switch to another application's window."""
        window = self.filter.window or {}
        return bool(window.get("pid")) and event.data.get("title") != window.get("title") and (
            (event.data.get("pid"), event.data.get("app")) == (window.get("pid"), window.get("app")))

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
                # the keys waiting made no text in the widget left; those pressed after what moved the focus
                # were typed into the one focused now (read late on a busy machine), unless it is a password field
                self.keys.focused(event.ts, keeps=self.filter.accepts_keys())
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
        """A TYPED event: text inserted or deleted in one accessible object, kept as far as the person typed it
        (watcher/privacy/typed_keys.py: the keys that made it, or its shape where keys are not known). A field's
        text ends where another object's typed text begins (even a password field's, which is dropped), so it
        never continues another field's line, and coming back to a field starts a new line; a change nobody
        typed (a completion, a page loading, a program's output) ends nothing."""
        emitter = event.data.get("object")
        window_pid = self.filter.window.get("pid") if self.filter.window else None
        if self.key_logger and event.data.get("pid") != window_pid:
            return  # not typed in the focused window (a program filling a field): keys give that window's text
        keys = self._typed_keys(event)
        if emitter != self.typed_object and not keys:
            self.keys.ahead = ""  # a completion counts as ahead only in the field whose text is being typed
        if not keys:
            return
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
            self.keys.ahead = ""  # a field refused (a password field): no key is typed on over its text
            return
        for key in keys:
            self._key(event.ts, key.char, key.name)

    def _typed_keys(self, event: RawEvent) -> list[Key]:
        """The keys a TYPED event shows typed: matched to the keys pressed where they are known (X11), else the
        inserted text one key could make (Wayland), and a deletion as that many Backspaces."""
        text, erase = event.data.get("text") or "", min(int(event.data.get("erase") or 0), 10000)
        if self.key_logger:
            return self.keys.insertion(text, event.ts) if text else self.keys.deletion(event.ts) if erase else []
        keys = [Key(event.ts, None, "enter") if c in LINE_BREAKS else Key(event.ts, None, "tab") if c == "\t"
                else Key(event.ts, c) for c in by_shape(text) if c.isprintable() or c in LINE_BREAKS or c == "\t"]
        return keys + [Key(event.ts, None, "backspace")] * erase

    def _bus_key(self, key: Key) -> None:
        """A key applied with no text change of its own, in a window whose text the bus gives, to the field whose
        text is being typed: a character typed over the inline completion that showed it, or an Enter no key
        waits before, which ends the field's line now, since a single-line field (an address bar) inserts nothing
        for it (the line break a multi-line one inserts then ends nothing more: `KeyMatch.entered`)."""
        if self.composer.source == "atspi" and (self.composer.line or self.composer.sent):
            self._key(key.ts, key.char, key.name)

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
            self._emit(RawEvent("mouse", SCROLL, {"dx": s["dx"], "dy": s["dy"], "count": s["count"],
                                                  "seconds": round(s["last"] - s["ts"], 3)}, ts=s["ts"]))
