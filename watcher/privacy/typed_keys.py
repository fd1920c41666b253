"""Which of the accessibility bus's text changes the person typed: the keys that made them, or their shape.

The bus says "text inserted" or "text deleted" in an object, whoever did it: the person's keys, the widget itself
(a browser's inline completion, selected so the next key replaces it; the address bar rewritten after a navigation,
Enter or a click on a link), or a program (output, a field filled in). Only the first is typed text. What tells
them apart is an observable fact, never the application's name:

- **Where keys are known** (X11: the RECORD extension gives every key, `KeyMatch`): the keys are the text, and the
  bus says where they went. A key is applied once a text change shows it took effect in the field: a character
  by an insertion holding it, Backspace by a deletion, Enter by an inserted line break, or, where Enter inserts
  nothing (a single-line field submitting), as soon as the keys before it are applied. Text no key explains is
  not typed (a completion, a rewrite, output: a program presses no key), and a deletion no Backspace explains
  erases nothing the person typed (the address bar cleared by a navigation). Keys no text change shows (a
  shortcut, a key read by a page) are dropped after MATCH_SECONDS, at a click or a switch to another window, and
  at a focus change (`KeyMatch.focused`) as far as they were pressed before what moved the focus. Firefox
  edits its address bar by difference: typing `127` over a selected `http://127.0.0.1/` may insert only `7`,
  keeping the `1` and `2` it held, so the keys skipped before a matched one count as typed there too (the keys
  are the text; the bus only shows where they went).
  The bus's events are queued behind the keys the X server sent before them (watcher/capture/ordering.py), so
  the key that made an insertion is always there when the insertion is. A focus event is queued so too, and
  the application tells it only when it handles the input that moved the focus: on a busy machine it comes
  after keys typed into the field it names (Ctrl+L, then an address at once). The bus tells an application's
  events in the order it handled them, so the keys still waiting then made no text where the focus was: those
  pressed before the click, window switch, shortcut or Escape that moved it went elsewhere and are dropped;
  those pressed after it are the new field's and wait for its text (none where a password field has the
  focus: they may have been typed into it).
- **Where keys are not known** (Wayland, `by_shape`): a key inserts one character, so an insertion of more is
  not typed (a completion, a paste, a rewrite, a program's text). Not covered: an input method committing a
  word at once is dropped too (fail closed: text kept only where typing shows).

Each Backspace explained erases one character, as in a terminal: a deletion of a selected completion (text never
kept) must not erase the typed characters before it. A key typed over an inline completion that already shows its
character changes no text (the widget only shrinks the selection): such a key is typed all the same, as far as
it follows the completion (`KeyMatch.ahead`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

MATCH_SECONDS = 1.5  # a key no text change shows within this long went elsewhere (a shortcut, a page)
MAX_PENDING = 512  # keys waiting for their text change (a runaway key repeat: the oldest go)
#: what an Enter inserts: a line feed, a carriage return (and the pair), Qt's paragraph and line separators
LINE_BREAKS = "\n\r\u2029\u2028"


@dataclass
class Key:
    """A key pressed in a window whose text comes from the bus: a character, or "enter", "backspace", "tab"."""

    ts: float
    char: str | None = None
    name: str | None = None

    def makes(self, char: str) -> bool:
        """Whether this key inserts `char`."""
        if char in LINE_BREAKS:
            return self.name == "enter"
        if char == "\t":
            return self.name == "tab"
        return self.char == char


class KeyMatch:
    """Keys pressed in a window whose text the bus gives, waiting for the text changes that show where they went."""

    def __init__(self) -> None:
        self.pending: deque[Key] = deque(maxlen=MAX_PENDING)
        self.entered = False  # an Enter was applied before its line break came: that line break is not another
        #: text inserted after the last typed character that no key made (an inline completion, selected): a key
        #: typed over it that matches its next character is typed without any text change
        self.ahead = ""
        #: when the last input that may move the focus without being a key waiting here was pressed (a click, a
        #: switch to another window, a shortcut, Escape): the keys pressed before it never go to a field it focuses
        self.moved_at: float | None = None

    def key(self, ts: float, char: str | None, name: str | None) -> list[Key]:
        """A key pressed; returns the keys to apply now: a character the completion ahead already shows (nothing
        waiting before it), or an Enter with no key before it waiting (it ends the line whether or not its field
        inserts a line break)."""
        if char is not None and not self.pending and self.ahead[:1] == char:
            self.ahead = self.ahead[1:]
            return [Key(ts, char, name)]
        if name is not None:
            self.ahead = ""  # Enter, Tab, Backspace: the completion is taken, left or erased, never typed on
        self.pending.append(Key(ts, char, name))
        return self._enter_at_head()

    def forget(self, ts: float | None = None) -> None:
        """A click or a switch to another window (at `ts`): the keys still waiting went to what was left, not to
        the next field."""
        self.pending.clear()
        self.entered = False
        self.ahead = ""
        if ts is not None:
            self.moved(ts)

    def moved(self, ts: float) -> None:
        """An input at `ts` that may move the focus and is no key waiting here (a click, a window switch, a
        shortcut such as Ctrl+L, Escape)."""
        self.moved_at = ts if self.moved_at is None else max(self.moved_at, ts)

    def focused(self, ts: float, keeps: bool = True) -> None:
        """A focus event, taken at `ts` (after the keys the X server sent before it, which may be keys typed into
        the field it names: the application told it late). The keys still waiting made no text where the focus
        was (the bus tells an application's events in the order it handled them): those pressed before the input
        that moved the focus went elsewhere (a shortcut, a page) and are dropped; those pressed after it go to
        the field focused now and wait for its text (a Tab among them that moves the focus on is seen by the
        text that follows it: `insertion`). With `keeps` False (a password field focused) none of them is kept:
        they may have been typed into it."""
        self._expire(ts)
        moved_at = self.moved_at
        kept = [key for key in self.pending if keeps and moved_at is not None and key.ts > moved_at]
        self.pending.clear()
        self.pending.extend(kept)
        self.entered = False
        self.ahead = ""

    def insertion(self, text: str, ts: float) -> list[Key]:
        """The keys that made the inserted `text`, in order (removed from the waiting ones); the characters no key
        makes are not typed. A key skipped before a matched one is the field keeping a character it held, unless
        a Tab that inserted nothing comes between them (the focus moved on: the key went to the field left)."""
        self._expire(ts)
        taken: list[Key] = []
        text = text.replace("\r\n", "\n")
        if self.entered and text[:1] in LINE_BREAKS and text:
            text = text[1:]  # the line break of an Enter already applied
        self.entered = False
        unmade = ""  # the characters after the last one a key made
        for char in text:
            found = next((i for i, key in enumerate(self.pending) if key.makes(char)), None)
            if found is None:
                unmade += char  # no key made it: the widget's or a program's text
                continue
            unmade = ""
            made = [self.pending.popleft() for _ in range(found + 1)]
            # a Tab skipped (it inserted no tab) moved the focus on: the keys before it went to the field left
            tab = max((i for i, key in enumerate(made[:-1]) if key.name == "tab"), default=-1)
            taken.extend(made[tab + 1:])
        self.ahead = unmade if text else self.ahead
        return taken + self._enter_at_head()

    def deletion(self, ts: float) -> list[Key]:
        """The Backspace that made a deletion, if one waits (before any character key: a character typed over a
        selection deletes it, and that is no Backspace of the person's); nothing otherwise."""
        self._expire(ts)
        selected, self.ahead = self.ahead, ""
        for i, key in enumerate(self.pending):
            if key.char is not None:
                return []
            if key.name == "backspace":
                del self.pending[i]
                return [] if selected else [key]  # (a Backspace over a completion erases only the completion)
        return []

    def _enter_at_head(self) -> list[Key]:
        """An Enter that nothing waits before is applied at once: a single-line field inserts nothing for it."""
        if self.pending and self.pending[0].name == "enter":
            self.entered = True
            return [self.pending.popleft()]
        return []

    def _expire(self, now: float) -> None:
        while self.pending and now - self.pending[0].ts > MATCH_SECONDS:
            self.pending.popleft()


def by_shape(text: str) -> str:
    """Where no keys are known (Wayland): the inserted `text` if one key could have made it (one character, or a
    line break), else "" (a completion, a paste, a rewrite, a program's text)."""
    text = text.replace("\r\n", "\n")
    return text if len(text) == 1 else ""
