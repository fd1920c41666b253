"""What a key code types in a modifier state, read from a real X server's keymap (`watcher.x11_keymap`), and text
typed with characters outside ASCII captured as typed, end to end: the keyboard source needs nothing but
python-xlib (pynput, and its evdev that needs a compiler, are not installed on Linux)."""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

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
    from proactive.watcher.capture.x11_keymap import X11Keymap, modifier_mask

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

    from proactive.watcher.capture.x11_keymap import X11Keymap

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


def test_a_binding_is_read_as_the_server_keeps_it_or_as_asked_once_it_has_moved_on(display: Any, xsession: XSession):
    """A key code bound by a ChangeKeyboardMapping request is read from the request (`set_keys`, on a copy of the
    keymap that never asks the server otherwise), then (`confirm`) as the server keeps it while it still holds
    that binding: one legacy letter gets both cases (Æ unshifted is æ), Unicode keysyms and symbols stay as
    given. Once the server holds another binding (bound back, or the next character), the request's stays."""
    import Xlib.display

    from proactive.watcher.capture.x11_keymap import X11Keymap

    code = spare_code(display)
    local = Xlib.display.Display(xsession.env["DISPLAY"])
    server, copy = X11Keymap(display), X11Keymap(local)
    rows = [[0xC6], [0xE6], [0xFC], [0xDF], [0xFF], [0xB5], [0x1A1], [0x13BC], [0x6F0], [0x6B0], [0x7C1],
            [0x10020AC], [0x100041F], [0x101F600], [0x20AC], [0x61], [0x41, 0x42], [0xE6, 0], [0x31, 0x21],
            [0xFF0D], [0xFFE9], [0]]
    states = (0, SHIFT, LOCK, SHIFT | LOCK)
    try:
        for row in rows:
            remap(display, code, *row)
            assert copy.set_keys(code, [row])
            copy.confirm(code, [row])
            assert [copy.key(code, s) for s in states] == [server.key(code, s) for s in states], [hex(k) for k in row]
        for row, later in (([0xFC], [0]), ([0xFC], [0x10020AC]), ([0x6F0], [0xC6]), ([0], [0x61])):
            remap(display, code, *later)  # the server has moved on before the watcher reads it
            assert copy.set_keys(code, [row])
            copy.confirm(code, [row])
            assert copy.keysym(code, 0) == row[0], ([hex(k) for k in row], [hex(k) for k in later])
        assert not copy.set_keys(display.display.info.max_keycode, [[0x61], [0x62]])  # past the last code
        assert not copy.set_keys(display.display.info.min_keycode - 1, [[0x61]])
    finally:
        local.close()


def _request(first: int, rows: list[list[int]], order: str, big: bool = False) -> bytes:
    """A ChangeKeyboardMapping request as a client sends it (byte order `order`; `big`: the BIG-REQUESTS form)."""
    import struct

    width = len(rows[0]) if rows else 0
    body = struct.pack(f"{order}BB2x{len(rows) * width}I", first, width, *[k for row in rows for k in row])
    if big:
        return struct.pack(f"{order}BBHI", 100, len(rows), 0, (len(body) + 8) // 4) + body
    return struct.pack(f"{order}BBH", 100, len(rows), (len(body) + 4) // 4) + body


@given(changes=st.lists(st.tuples(st.integers(8, 255), st.integers(1, 4), st.integers(1, 5), st.booleans(),
                                  st.booleans(), st.integers(0, 0x10FFFF)), max_size=5),
       swapped=st.booleans(), cut=st.integers(1, 12))
def test_recorded_binding_requests_are_read_in_either_byte_order(changes: list[tuple[int, int, int, bool, bool, int]],
                                                                  swapped: bool, cut: int):
    """What a client sent, one request after another: each ChangeKeyboardMapping is read back, in the client's
    byte order and in the BIG-REQUESTS form, other requests skipped; a request cut short ends the reading and
    gives nothing made up."""
    import struct

    from proactive.watcher.capture.x11_keymap import keymap_changes

    order = ("<" if sys.byteorder == "big" else ">") if swapped else "="
    data, expected = b"", []
    for first, count, width, big, other, seed in changes:
        rows = [[(seed + n * width + level) % 0x1000000 for level in range(width)] for n in range(count)]
        if other:  # another recorded request in between (a NoOperation with a body)
            data += struct.pack(f"{order}BBH4x", 127, 0, 2)
        data += _request(first, rows, order, big)
        expected.append((first, rows))
    assert list(keymap_changes(data, swapped)) == expected
    if data:
        shorter = data[:-cut]
        assert list(keymap_changes(shorter, swapped)) == expected[:-1]


@pytest.mark.parametrize("busy", [False, True], ids=["idle", "busy"])
def test_text_with_characters_outside_ascii_is_captured_as_typed(xsession: XSession, monkeypatch: pytest.MonkeyPatch,
                                                                  busy: bool):
    """xdotool types a character its keymap lacks by binding it to a spare key code for the press (a keymap change
    per character): each is read as typed, whatever block it is in, also when the watcher reads the keys later
    than they are typed (busy: each key takes 40 ms to hand on, xdotool types one every 30), when the server's
    keymap is already bound back or to the next character. (Not a capital outside the keymap such as Æ: the
    server gives its scratch key both cases, so the application, as the watcher, reads æ without Shift.)"""
    from proactive.watcher.capture.keyboard import Keyboard

    for name, value in xsession.env.items():
        monkeypatch.setenv(name, value)
    text = "Grüße, ærø! Привет мир; ΑΒΓ αβγ; 5 € ½ ✓ naïve café"
    events: list[Any] = []

    def slowly(event: Any) -> None:
        time.sleep(0.04)
        events.append(event)

    keyboard = Keyboard()
    keyboard.start(slowly if busy else events.append)
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
