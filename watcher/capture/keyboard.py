"""Keyboard capture: printable keys, editing keys and named hotkeys (X11: the RECORD extension, keys named from the
keymap by `x11_keymap`; Windows and macOS: pynput).

Key events stay in memory: the pipeline's text composer turns them into typed text, and the privacy filter drops
them in excluded or password contexts, so the raw key stream is never written anywhere.
pynput (not installed on Linux) is imported lazily: it raises ImportError at import time without a backend.
"""

from __future__ import annotations

import logging
import sys
from collections import deque
from typing import Any

from proactive.watcher.capture.sources import ListenerSource, Probe, SourceUnavailable
from proactive.watcher.capture.x11 import x11_probe
from proactive.watcher.events import HOTKEY, KEY, KEY_BATCH_SECONDS, Emit, RawEvent

log = logging.getLogger(__name__)

#: Keys that edit the line being typed, and Escape (vim's modes follow it: watcher/privacy/editor_keys.py);
#: everything else without a character is ignored.
EDIT_KEYS = {"enter", "backspace", "tab", "space", "esc"}
MODIFIERS = {
    "ctrl": "ctrl", "ctrl_l": "ctrl", "ctrl_r": "ctrl",
    "alt": "alt", "alt_l": "alt", "alt_r": "alt", "alt_gr": "altgr",
    "cmd": "super", "cmd_l": "super", "cmd_r": "super",
    "shift": "shift", "shift_l": "shift", "shift_r": "shift",
}
CHORD_MODIFIERS = frozenset({"ctrl", "alt", "super"})  # held with a key, they make it a hotkey
#: Order in which modifiers are written in a hotkey name, e.g. "ctrl+shift+t".
MODIFIER_ORDER = ("ctrl", "alt", "super", "shift")
_ENTER = {"key": "enter"}
#: the time (ms) between two key presses of a person typing steadily; closer together they come from a program
#: (xdotool, an auto-type), whose lines may begin and end within one wait; farther apart, a key after a pause
TYPING_MS = (40, 1000)


#: (key code, modifier state) pairs translated and kept; past this many (never, with real keyboards) they start over
MAX_KNOWN_KEYS = 4096
def key_name(key: Any) -> tuple[str | None, str | None]:
    """(char, name) for a pynput key: a printable character, or the name of a special key."""
    char = getattr(key, "char", None)
    if char is not None:
        return char, None
    name = getattr(key, "name", None)
    return None, name


class KeyTranslator:
    """Turns press/release of keys into KEY and HOTKEY events, tracking held modifiers (on X11 only `outcome` is
    used, with `held` set from each press's modifier state, once per key code and state).

    Kept apart from the pynput listener so it can be tested without a display."""

    def __init__(self, emit: Emit, source: str = "keyboard"):
        self.emit = emit
        self.source = source
        self.held: set[str] = set()

    def press(self, char: str | None, name: str | None, xtime: int | None = None) -> None:
        if name in MODIFIERS:
            self.held.add(MODIFIERS[name])
            return
        found = self.outcome(char, name)
        if found is not None:
            self.emit(RawEvent(self.source, found[0], dict(found[1]), xtime=xtime))

    def outcome(self, char: str | None, name: str | None) -> tuple[str, dict[str, str]] | None:
        """What a press of a key that is no modifier emits with `held` held: (kind, data), or None (nothing)."""
        chord = self.held & CHORD_MODIFIERS
        if chord:
            base = name or char
            if base is None:
                return None
            if len(base) == 1 and ord(base) < 32:  # ctrl+letter may arrive as a control character
                base = chr(ord(base) + 96)
            mods = [m for m in MODIFIER_ORDER if m in self.held]
            return HOTKEY, {"combo": "+".join([*mods, base.lower()])}
        if char is not None and char.isprintable():
            return KEY, {"char": char}
        if name in EDIT_KEYS:
            return KEY, {"char": " "} if name == "space" else {"key": name}
        return None

    def release(self, name: str | None) -> None:
        if name in MODIFIERS:
            mod = MODIFIERS[name]
            # left and right keys share a name: releasing either ends the chord, which is what users expect
            self.held.discard(mod)


class Keyboard(ListenerSource):
    """Global keyboard listener: X11's RECORD extension on Linux (`xrecord.RecordThread`, keys named by
    `x11_keymap.X11Keymap`), pynput's hooks on Windows and macOS."""

    name = "keyboard"
    gives_keys = True

    def start(self, emit: Emit) -> None:
        translator = KeyTranslator(emit)
        if sys.platform.startswith("linux"):
            self._start_x11(translator)
            return
        try:
            from pynput import keyboard
        except ImportError as exc:  # no backend on this platform
            raise SourceUnavailable(f"keyboard capture unavailable: {exc}") from exc

        def on_press(key: Any) -> None:
            translator.press(*key_name(key))

        def on_release(key: Any) -> None:
            translator.release(key_name(key)[1])

        self._start_listener(keyboard.Listener(on_press=on_press, on_release=on_release))

    def _start_x11(self, translator: KeyTranslator) -> None:
        """Record KeyPress only: the modifiers held come with each press (its `state`), so releases, half of all
        key events, need not wake us. What a key code types in a modifier state is read from the keymap
        (`X11Keymap`) once, and kept until the keymap changes (MappingNotify: the keymap is read again). Why: the
        thread wakes for each key with cold caches, where reading the keymap again took about 100 µs a key.

        A core ChangeKeyboardMapping request (a key code bound for a moment to a character the keymap lacks) is
        recorded too and applied where it comes among the keys; at its MappingNotify the server's keymap is taken
        only where it still holds that binding (`X11Keymap.confirm`): a busy watcher reads it after it was bound
        back or to the next character. Other changes (XKB's, modifiers) are read from the server.

        After a key typed in the middle of a line (a character, Space, Tab, Backspace) at a person's steady pace
        (TYPING_MS after the key before it) the thread waits KEY_BATCH_SECONDS before it reads again, so the keys
        typed meanwhile are handled in one wake-up (10 keys a second woke it 10 times, now about 4:
        bench/watcher_overhead.py). After Enter, a hotkey, a modifier, the first key after a pause, or keys a
        program types faster than anyone, it reads at once, so a line's first key is handled as it is pressed:
        a terminal line's echo state must be read before the line is sent (pipeline `_judge_line`). What the
        wait costs: a line typed whole, Enter included, within a wait that began in the line before it (its
        last keys, Enter, `q` and Enter within a quarter of a second) has no reading in time and is hidden (fail
        closed)."""
        import Xlib.X

        from proactive.watcher.capture.x11_keymap import CHANGE_KEYBOARD_MAPPING, X11Keymap, keymap_changes
        from proactive.watcher.capture.xrecord import RecordThread

        known: dict[tuple[int, int], tuple[str, dict[str, str]] | None] = {}  # (code, state) -> what it emits
        pressed = [0]  # the X time of the last key press
        applied: dict[tuple[int, int], deque[list[list[int]]]] = {}  # (first, count) -> bindings whose notice is due
        emit = translator.emit

        def translate(detail: int, state: int) -> tuple[str, dict[str, str]] | None:
            char, name = keymap.key(detail, state)
            if name in MODIFIERS:  # a modifier's own press says nothing: the next key's state names it
                return None
            translator.held = {modifier for mask, modifier in keymap.chord_masks if state & mask}
            return translator.outcome(char, name)

        def handle(_kind: int, detail: int, state: int, _x: int, _y: int, xtime: int) -> None:
            try:
                found = known[detail, state]
            except KeyError:
                if len(known) >= MAX_KNOWN_KEYS:
                    known.clear()
                found = known[detail, state] = translate(detail, state)
            mid_line = found is not None and found[0] == KEY and found[1] != _ENTER
            record.rest = KEY_BATCH_SECONDS if mid_line and TYPING_MS[0] <= (xtime - pressed[0]) % 2**32 <= TYPING_MS[1] else 0.0
            pressed[0] = xtime
            if found is not None:
                emit(RawEvent(translator.source, found[0], dict(found[1]), xtime=xtime))

        def bound(data: bytes, swapped: bool) -> None:
            for first, rows in keymap_changes(data, swapped):
                if keymap.set_keys(first, rows):
                    if len(applied) >= MAX_KNOWN_KEYS:  # notices that never came (another server's ranges)
                        applied.clear()
                    applied.setdefault((first, len(rows)), deque(maxlen=16)).append(rows)
            known.clear()

        def mapping_changed(request: int, first: int, count: int) -> None:
            if request == Xlib.X.MappingKeyboard:
                due = applied.get((first, count))
                if due:
                    keymap.confirm(first, due.popleft())
                    if not due:
                        del applied[first, count]
                else:
                    display._update_keymap(first, count)
            elif request == Xlib.X.MappingModifier:
                keymap.read_masks()
            known.clear()

        keys = CHANGE_KEYBOARD_MAPPING, CHANGE_KEYBOARD_MAPPING
        record = RecordThread(Xlib.X.KeyPress, Xlib.X.KeyPress, handle, "x11-keyboard", mapping_changed, keys, bound)
        display = record.display
        keymap = X11Keymap(display)
        record.start()
        self._record = record

    def probe(self) -> Probe:
        """On Linux: the X display opens and has the RECORD extension the keys are recorded through."""
        if sys.platform.startswith("linux"):
            return x11_probe(self.name, "typed text and hotkeys", "RECORD")
        return super().probe()
