"""What a key code types in a modifier state, read from a real X server's keymap (`watcher.x11_keymap`), and text
typed with characters outside ASCII captured as typed, end to end: the keyboard source needs nothing but
python-xlib (pynput, and its evdev that needs a compiler, are not installed on Linux)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import XSession, wait_for

pytestmark = pytest.mark.x11

SHIFT, LOCK, CONTROL = 1, 2, 4


@pytest.fixture
def display(xsession: XSession) -> Iterator[Any]:
    """A connection to the test's X server, with one spare key code remapped by `remap` and restored after."""
    import Xlib.display

    display = Xlib.display.Display(xsession.env["DISPLAY"])
    saved = display.get_keyboard_mapping(display.display.info.min_keycode,
                                         display.display.info.max_keycode - display.display.info.min_keycode + 1)
    try:
        yield display
    finally:
        display.change_keyboard_mapping(display.display.info.min_keycode, saved)
        display.sync()
        display.close()


def spare_code(display: Any) -> int:
    """A key code with no keysym: the scratch key xdotool uses too."""
    for code in range(display.display.info.max_keycode, display.display.info.min_keycode, -1):
        if not any(display.get_keyboard_mapping(code, 1)[0]):
            return code
    raise AssertionError("no spare key code on this keymap")


def remap(display: Any, code: int, *keysyms: int) -> None:
    width = len(display.get_keyboard_mapping(code, 1)[0])
    display.change_keyboard_mapping(code, [tuple(list(keysyms) + [0] * (width - len(keysyms)))])
    display.sync()
    display._update_keymap(code, 1)  # what the keyboard source does on the MappingNotify this sends


def test_keys_are_named_from_the_keymap_in_every_state(display: Any):
    from proactive.watcher.x11_keymap import X11Keymap, modifier_mask

    code = spare_code(display)
    keymap = X11Keymap(display)
    level3 = keymap.level3
    assert level3, "the test server's keymap has AltGr (ISO_Level3_Shift / Mode_switch) on a modifier"
    assert keymap.num_lock == modifier_mask(display, (0xFF7F,)) and keymap.num_lock

    cases: list[tuple[tuple[int, ...], int, tuple[str | None, str | None]]] = [
        ((ord("q"), ord("Q"), ord("q"), ord("Q"), ord("@")), 0, ("q", None)),
        ((ord("q"), ord("Q"), ord("q"), ord("Q"), ord("@")), SHIFT, ("Q", None)),
        ((ord("q"), ord("Q"), ord("q"), ord("Q"), ord("@")), level3, ("@", None)),  # AltGr+q on a German keymap
        ((ord("q"), ord("Q"), ord("q"), ord("Q"), ord("@")), LOCK, ("Q", None)),  # Caps Lock
        ((ord("q"), ord("Q"), ord("q"), ord("Q"), ord("@")), LOCK | SHIFT, ("q", None)),
        ((ord("7"), ord("/")), LOCK, ("7", None)),  # Caps Lock leaves what is not a letter
        ((0xE9, 0xC9), 0, ("é", None)),  # Latin-1
        ((0xE9, 0xC9), LOCK, ("É", None)), ((0xDF,), LOCK, ("ß", None)),  # Caps Lock; ß has no one-letter capital
        ((0x6D1, 0x6F1), 0, ("я", None)),  # Cyrillic_ya: a legacy keysym block (libxkbcommon's table)
        ((0x6D1, 0x6F1), SHIFT, ("Я", None)),
        ((0x7E1,), 0, ("α", None)),  # Greek_alpha
        ((0x20AC,), 0, ("€", None)),  # EuroSign
        ((0x0101F600,), 0, ("😀", None)),  # a Unicode keysym (0x01000000 + code point)
        ((0x0100263A,), SHIFT, ("☺", None)),  # Shift on a key with one level types that level
        ((0xFE51,), 0, (None, None)),  # dead_acute types nothing by itself
        ((0xFF0D,), 0, (None, "enter")), ((0xFF0A,), 0, (None, "enter")),  # Return, and Linefeed as xdotool sends
        ((0xFF08,), 0, (None, "backspace")), ((0xFF09, 0xFE20), 0, (None, "tab")),
        ((0x20,), 0, (None, "space")), ((0xFFC1,), 0, (None, "f4")), ((0xFF51,), CONTROL, (None, "left")),
        ((0xFFE3,), 0, (None, "ctrl")), ((0xFFEA,), 0, (None, "alt_r")), ((0xFE03,), 0, (None, "alt_gr")),
        ((0xFF9C, 0xFFB1), 0, (None, "end")),  # keypad 1 without Num Lock
        ((0xFF9C, 0xFFB1), keymap.num_lock, ("1", None)),  # ... and with it
        ((0xFF8D,), 0, (None, "enter")), ((0xFFAB,), 0, ("+", None)),  # KP_Enter, KP_Add
        ((0xFFFFFF,), 0, (None, None)),  # VoidSymbol
    ]
    for keysyms, state, expected in cases:
        remap(display, code, *keysyms)
        assert keymap.key(code, state) == expected, ([hex(k) for k in keysyms], state)


def test_hotkeys_name_the_modifiers_this_keymap_binds(display: Any):
    """Alt and Super are whichever modifier bits hold their keys: moved to other bits, they are still read."""
    import Xlib.X

    from proactive.watcher.x11_keymap import X11Keymap

    keymap = X11Keymap(display)
    alt = [bit for bit, name in keymap.chord_masks if name == "alt"]
    assert alt == [1 << Xlib.X.Mod1MapIndex]
    mapping = [list(codes) for codes in display.get_modifier_mapping()]
    saved = [list(codes) for codes in mapping]
    mapping[Xlib.X.Mod3MapIndex], mapping[Xlib.X.Mod1MapIndex] = mapping[Xlib.X.Mod1MapIndex], []
    try:
        assert display.set_modifier_mapping(mapping) == Xlib.X.MappingSuccess
        keymap.read_masks()
        assert [bit for bit, name in keymap.chord_masks if name == "alt"] == [1 << Xlib.X.Mod3MapIndex]
    finally:
        display.set_modifier_mapping(saved)
        display.sync()


def test_text_with_characters_outside_ascii_is_captured_as_typed(xsession: XSession,
                                                                  monkeypatch: pytest.MonkeyPatch):
    """xdotool types a character its keymap lacks by binding it to a spare key code for the press (a keymap change
    per character): each is read as typed, whatever block it is in. (Not a capital outside the keymap such as Æ:
    the server gives its scratch key both cases, so the application, as the watcher, reads æ without Shift.)"""
    from proactive.watcher.keyboard import Keyboard

    for name, value in xsession.env.items():
        monkeypatch.setenv(name, value)
    text = "Grüße, ærø! Привет мир; ΑΒΓ αβγ; 5 € ½ ✓ naïve café"
    events: list[Any] = []
    keyboard = Keyboard()
    keyboard.start(events.append)
    try:
        xsession.type(text, delay_ms=30)
        wait_for(lambda: len(events) >= len(text), timeout=30, what="every typed character")
    finally:
        keyboard.stop()
    typed = "".join(e.data.get("char", "") for e in events)
    assert typed == text


def test_linux_needs_no_pynput():
    """The base install on Linux has no pynput (it pulls evdev, built with a compiler): nothing on Linux imports
    it, and the project does not ask for it there."""
    import tomllib

    if sys.platform.startswith("linux"):
        assert importlib.util.find_spec("pynput") is None, "pynput is installed: the Linux install asks for it"
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    pynput = [d for d in project["project"]["dependencies"] if d.startswith("pynput")]
    assert pynput and all("linux" not in d for d in pynput), pynput
