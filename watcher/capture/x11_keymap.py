"""What an X11 key code types in a modifier state: (character, key name), read from the display's keymap.

Written here with python-xlib alone, not taken from pynput as before, because pynput depends on `evdev` on Linux,
which has no binary wheel: the base install needed a compiler for a package it never used. The rules are the X
protocol's (keysym at index shift + level), with the keypad read under Num Lock and letters under Caps Lock; a
keysym becomes a character by its Latin-1 or Unicode value, or, for the legacy blocks (Cyrillic, Greek, the euro
sign...), by libxkbcommon's table (`xkb_keysym_to_utf32`, the library every Qt and GTK desktop has loaded
already), read through ctypes so no compiler is needed either.

A key code bound for a moment (xdotool, auto-type and on-screen keyboards bind a spare code to a character the
keymap lacks, press it, and bind it back) is read from the binding request itself, recorded in order with the
keys (`keymap_changes`, `X11Keymap.set_keys`): the keymap read from the server after the MappingNotify is the
keymap of that later moment, already bound back or to the next character when the watcher is busy.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import struct
import sys
from collections.abc import Iterator
from typing import Any

log = logging.getLogger(__name__)

SHIFT_MASK = 1 << 0
LOCK_MASK = 1 << 1
CONTROL_MASK = 1 << 2

NUM_LOCK = 0xFF7F
MODE_SWITCH = 0xFF7E
ISO_LEVEL3_SHIFT = 0xFE03
ALT_KEYS = (0xFFE9, 0xFFEA)  # Alt_L, Alt_R
SUPER_KEYS = (0xFFEB, 0xFFEC)  # Super_L, Super_R

#: Named keys: keysym -> the name the keyboard source uses (modifiers as in keyboard.MODIFIERS, editing keys as in
#: keyboard.EDIT_KEYS, the rest as hotkeys write them: "ctrl+f4", "alt+left").
NAMED_KEYS: dict[int, str] = {
    0xFF08: "backspace", 0xFF09: "tab", 0xFF0D: "enter", 0xFF0A: "enter", 0xFF1B: "esc", 0xFFFF: "delete",
    0x0020: "space", 0xFF50: "home", 0xFF51: "left", 0xFF52: "up", 0xFF53: "right", 0xFF54: "down",
    0xFF55: "page_up", 0xFF56: "page_down", 0xFF57: "end", 0xFF63: "insert", 0xFF67: "menu", 0xFF13: "pause",
    0xFF61: "print_screen", 0xFF14: "scroll_lock", NUM_LOCK: "num_lock", 0xFFE5: "caps_lock",
    0xFFE1: "shift", 0xFFE2: "shift_r", 0xFFE3: "ctrl", 0xFFE4: "ctrl_r", 0xFFE9: "alt", 0xFFEA: "alt_r",
    0xFFE7: "alt", 0xFFE8: "alt_r",  # Meta_L/R: the Alt keys of some keymaps
    MODE_SWITCH: "alt_gr", ISO_LEVEL3_SHIFT: "alt_gr", 0xFFEB: "cmd", 0xFFEC: "cmd_r",
    **{0xFFBE + n: f"f{n + 1}" for n in range(24)},  # F1..F24
}

#: The keypad under Num Lock: (character, key name) of each keysym
KEYPAD: dict[int, tuple[str | None, str | None]] = {
    **{0xFFB0 + n: (str(n), None) for n in range(10)},  # KP_0..KP_9
    0xFFAB: ("+", None), 0xFFAD: ("-", None), 0xFFAA: ("*", None), 0xFFAF: ("/", None), 0xFFAE: (".", None),
    0xFFAC: (",", None), 0xFFBD: ("=", None), 0xFF80: (" ", None), 0xFF89: (None, "tab"), 0xFF8D: (None, "enter"),
    0xFF95: (None, "home"), 0xFF96: (None, "left"), 0xFF97: (None, "up"), 0xFF98: (None, "right"),
    0xFF99: (None, "down"), 0xFF9A: (None, "page_up"), 0xFF9B: (None, "page_down"), 0xFF9C: (None, "end"),
    0xFF9E: (None, "insert"), 0xFF9F: (None, "delete"),
}

DEAD_KEYS = range(0xFE50, 0xFE94)  # dead_grave..: they type nothing themselves
CHANGE_KEYBOARD_MAPPING = 100  # the core request binding key codes to keysyms (xmodmap, xdotool's spare codes)


@functools.cache
def _xkb_to_utf32() -> Any:
    """libxkbcommon's keysym-to-UTF-32 function, or None where the library is missing (then only Latin-1 and
    Unicode keysyms have characters)."""
    name = ctypes.util.find_library("xkbcommon") or "libxkbcommon.so.0"
    try:
        function = ctypes.CDLL(name).xkb_keysym_to_utf32
    except (OSError, AttributeError) as exc:
        log.warning("libxkbcommon not found (%s): keys of non-Latin keymaps are not named", exc)
        return None
    function.argtypes = [ctypes.c_uint32]
    function.restype = ctypes.c_uint32
    return function


def keysym_char(keysym: int) -> str | None:
    """The character a keysym types, or None (a function key, a dead key, an unknown keysym)."""
    if 0x20 <= keysym <= 0x7E or 0xA0 <= keysym <= 0xFF:  # Latin-1: the keysym is the code point
        return chr(keysym)
    if 0x01000100 <= keysym <= 0x0110FFFF:  # a Unicode keysym
        return chr(keysym - 0x01000000)
    if keysym in DEAD_KEYS or keysym >= 0xFF00:  # dead keys, and function keys (KP_*, F*, cursor keys...)
        return None
    function = _xkb_to_utf32()
    code = function(keysym) if function is not None else 0
    return chr(code) if code >= 0x20 and code != 0x7F else None


def keymap_changes(data: bytes, swapped: bool) -> Iterator[tuple[int, list[list[int]]]]:
    """(first key code, the keysyms of each code) of each ChangeKeyboardMapping in `data`, recorded requests as one
    client sent them, one after another (others are skipped; a request cut short ends the reading). `swapped`:
    the client's byte order is not ours."""
    order = ("<" if sys.byteorder == "big" else ">") if swapped else "="
    offset = 0
    while offset + 4 <= len(data):
        opcode, count, length = struct.unpack_from(order + "BBH", data, offset)
        header = 4
        if length == 0:  # BIG-REQUESTS: the length follows in 32 bits
            if offset + 8 > len(data):
                return
            (length,) = struct.unpack_from(order + "I", data, offset + 4)
            header = 8
        end = offset + 4 * length
        if end > len(data) or 4 * length < header:
            return
        if opcode == CHANGE_KEYBOARD_MAPPING and end - offset >= header + 4:
            first, per_code = data[offset + header], data[offset + header + 1]
            if per_code and header + 4 + 4 * count * per_code <= end - offset:
                keysyms = struct.unpack_from(f"{order}{count * per_code}I", data, offset + header + 4)
                yield first, [list(keysyms[n * per_code:(n + 1) * per_code]) for n in range(count)]
        offset = end


def modifier_mask(display: Any, keysyms: tuple[int, ...]) -> int:
    """The X modifier bits (Mod1..Mod5, Lock) that hold a key with one of `keysyms` in this keymap (0: none)."""
    codes = {code for keysym in keysyms for code, _ in display.keysym_to_keycodes(keysym)}
    mask = 0
    for index, held in enumerate(display.get_modifier_mapping()):
        if codes & set(held):
            mask |= 1 << index
    return mask


class X11Keymap:
    """(char, name) of a key code in a modifier state. `read_masks` again when the modifier mapping changes; a
    keyboard mapping change is python-xlib's (`display._update_keymap`), read at the next `key`."""

    def __init__(self, display: Any):
        self.display = display
        self.num_lock = self.level3 = 0
        self.chord_masks: list[tuple[int, str]] = []
        self.read_masks()

    def read_masks(self) -> None:
        """Which modifier bits mean what in this keymap. `chord_masks`: (bit, modifier) for the modifiers a hotkey
        names; Shift and Control have fixed bits, Alt and Super are whichever of Mod1..Mod5 hold their keys
        (usually Mod1 and Mod4)."""
        self.chord_masks = [(SHIFT_MASK, "shift"), (CONTROL_MASK, "ctrl")]
        for keysyms, modifier in ((ALT_KEYS, "alt"), (SUPER_KEYS, "super")):
            mask = modifier_mask(self.display, keysyms)
            self.chord_masks += [(1 << index, modifier) for index in range(3, 8) if mask & 1 << index]
        self.num_lock = modifier_mask(self.display, (NUM_LOCK,))
        # AltGr: ISO_Level3_Shift on XKB keymaps (level 3 is index 4 of the core table), Mode_switch on old ones
        # (group 2, index 2); most keymaps put both on Mod5
        self.level3 = modifier_mask(self.display, (ISO_LEVEL3_SHIFT, MODE_SWITCH))

    def set_keys(self, first: int, rows: list[list[int]]) -> bool:
        """Binds codes `first`.. to `rows` as a ChangeKeyboardMapping request does (python-xlib's copy of the
        keymap, both ways: code to keysyms, keysym to codes); False, and nothing changed, where the server refuses
        the request (codes outside its range)."""
        info = self.display.display.info
        last = first + len(rows)
        if not rows or first < info.min_keycode or last - 1 > info.max_keycode:
            return False
        symbols: dict[int, list[tuple[int, int]]] = self.display._keymap_syms
        for codes in symbols.values():
            codes[:] = [(index, code) for index, code in codes if not first <= code < last]
        self.display._keymap_codes[first:last] = [list(row) for row in rows]
        for code, row in enumerate(rows, first):
            for index, keysym in enumerate(row):
                if keysym:
                    symbols.setdefault(keysym, []).append((index, code))
                    symbols[keysym].sort()
        return True

    def confirm(self, first: int, rows: list[list[int]]) -> None:
        """Codes `first`.. were bound to `rows` (`set_keys`): takes the server's keymap for them instead where it
        still holds that binding, as it keeps it (XKB gives a key bound to one letter both cases: Æ unshifted is
        æ, as every application reads it). Where it holds something else, it has moved on since (bound back, or
        to the next character), and `rows` stay: the binding as asked for, in force when its key was pressed."""
        held = self.display.get_keyboard_mapping(first, len(rows))
        pairs = zip(rows, held, strict=True)
        if all(set(row) - {0} <= set(now) and (any(row) or not any(now)) for row, now in pairs):
            self.set_keys(first, [list(now) for now in held])

    def keysym(self, code: int, state: int) -> int:
        """The keysym of `code` in `state`: at the level the state picks, falling back to lower levels where the
        keymap leaves that one empty (as Xlib does)."""
        shift = 1 if state & SHIFT_MASK else 0
        levels = [shift, 0]
        if state & self.level3:
            levels = [4 + shift, 4, 2 + shift, 2, *levels]
        for index in levels:
            keysym: int = self.display.keycode_to_keysym(code, index)
            if keysym:
                return keysym
        return 0

    def key(self, code: int, state: int) -> tuple[str | None, str | None]:
        """(char, name): a printable character, or a key's name (see NAMED_KEYS), or (None, None)."""
        keysym = self.keysym(code, state)
        if 0xFF80 <= keysym <= 0xFFBD:  # the keypad (KP_*): Num Lock picks digits over arrows
            keysym = self.display.keycode_to_keysym(code, 1 if state & self.num_lock else 0) or keysym
            return KEYPAD.get(keysym, (None, None))
        if keysym in NAMED_KEYS:
            return None, NAMED_KEYS[keysym]
        char = keysym_char(keysym)
        if char is not None and state & LOCK_MASK and char.isalpha():
            # Caps Lock: capitals, and Shift with it gives small letters again (XKB's default caps behaviour); a
            # letter whose other case is not one character (ß: "SS") stays as it is, as X leaves its keysym
            cased = char.lower() if state & SHIFT_MASK else char.upper()
            char = cased if len(cased) == 1 else char
        return char, None
