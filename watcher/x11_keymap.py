"""What an X11 key code types in a modifier state: (character, key name), read from the display's keymap.

Written here with python-xlib alone, not taken from pynput as before, because pynput depends on `evdev` on Linux,
which has no binary wheel: the base install needed a compiler for a package it never used. The rules are the X
protocol's (keysym at index shift + level), with the keypad read under Num Lock and letters under Caps Lock; a
keysym becomes a character by its Latin-1 or Unicode value, or, for the legacy blocks (Cyrillic, Greek, the euro
sign...), by libxkbcommon's table (`xkb_keysym_to_utf32`, the library every Qt and GTK desktop has loaded
already), read through ctypes so no compiler is needed either.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
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
