"""Reconstructs typed text from key presses, in memory, and hands it on in redacted chunks.

Why chunks and not whole lines: a line typed for a minute without Enter must not be lost if the watcher is
killed, so text older than one second is flushed as far as it is safe. Why "safe": secret redaction needs to see
a secret whole, so the trailing token (and a trailing run of digit groups, which may be a card number, and a
`password =` that still waits for its value) is held back until it is complete. Every chunk is the difference
between the redacted line already handed on and the redacted line now, so a secret recognised late never leaks
in pieces, and Backspace into already-flushed text is expressed as `erase`.

A token split in two by a window switch (half typed in a terminal, a look at the browser, the rest typed on coming
back) would be stored as two halves that no rule recognises. So at a forced flush (`flush()`: the focus changed,
or any other event came) an unfinished trailing word that looks like the start of a secret (`redact.secret_start`:
a vendor prefix, or 8+ characters mixing letters and digits that are not made of words) is stored as
`[REDACTED:fragment]`; and when a word cut so was redacted (as a fragment or as a secret recognised though
unfinished), the first word of the next line typed, wherever it is typed, is stored so too unless it is a plain
word (`redact.secret_rest`). Ordinary words and identifiers cut by a click are kept. Not covered: a card number
cut in two (its halves are ordinary digits).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from proactive.watcher.events import TEXT, RawEvent
from proactive.watcher.privacy.redact import find_secrets, redact, secret_rest, secret_start

#: The tail of a line that must wait: an unfinished token, a run of digit groups, or a keyword awaiting a value.
HOLD_BACK = re.compile(
    r"(?:(?i:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|key)\S*\s*[:=]?\s*)?(?:\d[\d \-]*)?\S*$"
)
#: A line with `echo`/`printf` is held whole until Enter: its words are a password if `| sudo -S` (or another
#: command reading a password on its input) is typed after them, which redaction can only know at the end.
HOLD_LINE = re.compile(r"(?<![\w-])(?:echo|printf)\b")
#: Why a typed line's text is not kept (TextData.hidden): it was typed in a GUI application whose field cannot be
#: observed (no accessibility bus, or an application not on it), so nothing shows it is not a password field; only
#: its length is kept ("The user types 9 characters in ...").
UNOBSERVED = "unobserved"
PAUSE_SECONDS = 1.0
MAX_LINE = 4000  # a runaway line (key repeat) is flushed whole beyond this
FRAGMENT = "[REDACTED:fragment]"
#: a made-up rest of a secret: what rules that wait for a value take, but no secret by itself (3 distinct characters)
_PROBE = "Aa1" * 14
_ENDS_IN_MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]$")


class TextComposer:
    """Key presses -> TEXT events ({"text", "erase", "enter", "hidden"?}) for the current focus context."""

    def __init__(self, emit: Callable[[RawEvent], None], source: str = "keyboard"):
        self.emit = emit
        self.source = source
        self.line: list[str] = []
        self.sent = ""  # redacted text of the current line already emitted
        self.first_ts: float | None = None  # time of the first key not yet emitted
        self.last_ts = 0.0
        # the current line is not stored: "password" (it answers a prompt), "unseen" (its echo cannot be seen)
        self.hide_line: str | None = None
        self.after_cut = False  # a forced flush cut a secret's start: this line's first word may be its rest
        self.hold = False  # no pieces of this line before its end (its keys were read late: judged at the end)
        self.cut_secret = False  # the last `_redacted` found a secret cut short
        self.stalled = False  # `tick` can flush nothing more of this line before another key (`due`)

    def key(self, ts: float, char: str | None = None, key: str | None = None) -> str | None:
        """Feed one key. Returns the finished line's raw text when Enter ends a line (for the password heuristic),
        which the caller must not store."""
        if self.first_ts is None:
            self.first_ts = ts
        self.last_ts = ts
        self.stalled = False
        if char is not None:
            self.line.append(char)
        elif key == "tab":
            self.line.append("\t")
        elif key == "backspace":
            if self.line:
                self.line.pop()
        elif key == "enter":
            finished = "".join(self.line)
            self._flush(len(self.line), enter=True)
            return finished
        if len(self.line) > MAX_LINE and not self.hold:
            self._flush(len(self.line))
        return None

    def tick(self, now: float) -> None:
        """Called by the pipeline when `due`: text typed more than a second ago is flushed, as far as it is safe."""
        if self.first_ts is not None and now - self.first_ts >= PAUSE_SECONDS and not (self.hide_line or self.hold):
            text = "".join(self.line)
            if not HOLD_LINE.search(text):
                held = HOLD_BACK.search(text)  # always found: every part of it may be empty
                self._flush(len(text) - (len(held.group(0)) if held else 0))
            # what is still due now waits for a key (an unfinished token, a line held whole)
            self.stalled = self.first_ts is not None and now - self.first_ts >= PAUSE_SECONDS

    def due(self) -> float | None:
        """When `tick` will flush something (time.time()), or None: not before another key or the line's end.
        Why: the pipeline's loop sleeps until then, and a time already past (a word left unfinished, a line held
        whole until its Enter) would wake it at every flush while nothing can be flushed."""
        if self.first_ts is None or self.stalled or self.hide_line or self.hold:
            return None
        return self.first_ts + PAUSE_SECONDS

    #: the text being flushed ended whole (`flush`): its last word is finished, not cut short
    whole = False

    def flush(self, field_end: bool = False) -> None:
        """Flush everything, e.g. because the focus changed or another kind of event happened: typing may have
        stopped in the middle of a word there (a cut: see the module's docstring). `field_end`: the text ends here
        (the person moved to another field): the episode shows it as a line of its own. A field's text from the
        accessibility bus that ends because another field's text begins is whole, as a line ended by Enter is,
        not cut: the person went on to another field (by Enter in a single-line field, which inserts nothing, by
        Tab...), and nothing typed later continues that field's line (coming back to it starts a new one). A
        token split by a detour to another window and back is still cut: a window switch (and any other event)
        flushes without `field_end`, and so does keys' text."""
        if self.line or self.sent or self.first_ts is not None:
            self.whole = field_end and self.source == "atspi"
            try:
                self._flush(len(self.line), final=True, field_end=field_end)
            finally:
                if self.whole:
                    self.after_cut = False  # (a finished last word has no rest to come)
                self.whole = False

    def discard(self) -> int:
        """Forget the line being typed (purge); returns 1 when there was one, else 0."""
        held = bool(self.line or self.sent)
        self._reset()
        return int(held)

    def _flush(self, end: int, enter: bool = False, final: bool = False, field_end: bool = False) -> None:
        ts = self.first_ts if self.first_ts is not None else self.last_ts
        if self.hide_line:
            if enter or final:
                data: dict[str, object] = {"text": "", "erase": 0, "enter": enter, "hidden": self.hide_line}
                if self.hide_line == UNOBSERVED:  # the fact of typing: the line's length (never a password's)
                    data["count"] = len(self.line)
                self.emit(RawEvent(self.source, TEXT, data, ts=ts))
                self._reset()
            return
        raw = "".join(self.line[:end])
        if self.after_cut and not (enter or final) and not re.search(r"\S\s", raw):
            return  # the first word is not finished: whether it is a secret's rest is not known yet
        full = self._redacted(raw, cut=final and not enter)
        cut_secret = self.cut_secret
        common = os.path.commonprefix([self.sent, full])
        erase, chunk = len(self.sent) - len(common), full[len(common):]
        if erase or chunk or enter or (field_end and full):
            data = {"text": chunk, "erase": erase, "enter": enter}
            if field_end and not enter:
                data["end"] = True
            self.emit(RawEvent(self.source, TEXT, data, ts=ts))
            self.sent = full
            self.first_ts = None if end == len(self.line) else self.last_ts
        if enter or final:
            self._reset()
            # typing stopped inside a word that was redacted (a fragment, or a secret recognised though unfinished)
            self.after_cut = final and not enter and (cut_secret or raw[-1:].strip() != ""
                                                      and bool(_ENDS_IN_MARKER.search(full)))

    def _redacted(self, raw: str, cut: bool) -> str:
        """`redact(raw)`, and the split-token rule: the first word after a cut and, when typing is `cut` short,
        the secret it stopped in are stored as FRAGMENT (each part redacted on its own)."""
        head = ""
        first = re.match(r"[A-Za-z0-9_+/.-]+=*", raw)  # the rest of a token ends where its alphabet does
        if self.after_cut and first and secret_rest(first.group()):
            head, raw = FRAGMENT, raw[first.end():]
        start = self._secret_cut(raw) if cut and not self.whole else None
        self.cut_secret = start is not None
        if start is not None and start < len(raw):
            return head + redact(raw[:start]) + FRAGMENT
        return head + redact(raw)

    @staticmethod
    def _secret_cut(raw: str) -> int | None:
        """Where a secret that typing stopped in begins, or None: the unfinished last word looks like a secret's
        start (`redact.secret_start`), or the text before it says a secret comes there (`password = h`,
        `Authorization: Basic d`, `sqlplus scott/t`): with a made-up value there, a rule redacts it."""
        last = re.search(r"[^\s=:'\"`(\[{<,;]+$", raw)
        word_start = last.start() if last else len(raw)
        if last and secret_start(last.group()):
            return word_start
        before = raw[:word_start]
        if any(start == word_start for _kind, start, _end in find_secrets(before + _PROBE)):
            return word_start  # the context asks for a value here
        # a value that starts inside the word (`scott/t` of `sqlplus scott/tiger`); a vendor prefix alone is
        # judged by secret_start (`sk-learn` stays)
        return next((start for _kind, start, end in find_secrets(raw + _PROBE) if word_start < start <= len(raw) < end),
                    None)

    def _reset(self) -> None:
        self.line = []
        self.sent = ""
        self.first_ts = None
        self.hide_line = None
        self.hold = False
        self.stalled = False
        self.after_cut = False
