"""What the focused terminal window shows, read from the accessibility bus at the moment a command ends.

A command's error is often never copied: the person reads it where it is. Terminals built on VTE (GNOME
Terminal, lxterminal, xfce4-terminal, Tilix, Terminator) and Konsole put their text on the AT-SPI bus for screen
readers: an object of role "terminal" below the window's frame, whose `org.a11y.atspi.Text` gives the lines shown
(the screen and the scrollback the terminal keeps). `read_terminal` finds the active window (of process `pid`, or
of any application on the bus), the terminal object in it, and returns its last `max_chars` characters.

This is read on demand by the assistant, for one decision, and never emitted as an event: the watcher stores
no terminal output (watcher/capture/atspi.py reads a terminal's text only for password prompts). Terminals not on the
bus (xterm, urxvt, kitty, alacritty, foot) answer nothing: the command line typed is then the only material.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from proactive.watcher.capture.atspi import ACCESSIBLE, ROOT_PATH
from proactive.watcher.capture.browser_page import (
    PROPERTIES,
    STATE_SHOWING,
    TEXT,
    _CallFailed,
    _Reader,
    read_over_bus,
)

log = logging.getLogger(__name__)

ROLE_TERMINAL = 60  # AtspiRole ATSPI_ROLE_TERMINAL (at-spi2-core's atspi-constants.h)
MAX_CHARS = 8_000  # the end of the terminal's text read: the last screenfuls
MAX_NODES = 200  # objects of the window looked through for the terminal


@dataclass(frozen=True)
class Terminal:
    """The terminal shown in the active window: its application, the window's title, the end of its text."""

    app: str
    title: str
    text: str


def read_terminal(pid: int | None = None, timeout: float = 1.0, max_chars: int = MAX_CHARS) -> Terminal | None:
    """The end of the text of the terminal in the active window (of process `pid` when given), or None: no
    accessibility bus, no active window with a terminal object, or no answer within `timeout` per round trip."""
    return read_over_bus("a terminal", timeout, lambda reader: _read(reader, pid, max_chars))


def _read(reader: _Reader, pid: int | None, max_chars: int) -> Terminal | None:
    found = reader.window(pid)
    if found is None:
        return None
    app, frame, title = found
    terminal = _terminal_below(reader, frame)
    if terminal is None:
        return None
    name, path = terminal
    (count,) = reader.calls([(name, path, PROPERTIES, "Get", "ss", (TEXT, "CharacterCount"))])
    if not isinstance(count, tuple) or len(count) != 2 or not isinstance(count[1], int):
        return None
    end = count[1]  # a variant: (signature, value)
    (text,) = reader.calls([(name, path, TEXT, "GetText", "ii", (max(0, end - max_chars), end))])
    if isinstance(text, _CallFailed) or not isinstance(text, str):
        return None
    (app_name,) = reader.calls([(app, ROOT_PATH, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name"))])
    label = str(app_name[1]) if isinstance(app_name, tuple) and len(app_name) == 2 else ""
    return Terminal(label, title, text)


def _terminal_below(reader: _Reader, frame: tuple[str, str]) -> tuple[str, str] | None:
    """The first showing object of role terminal below the window, breadth first (a tabbed terminal shows one)."""
    level: list[Any] = [frame]
    seen = 0
    while level and seen < MAX_NODES:
        seen += len(level)
        answers = reader.calls([q for n, p in level for q in (
            (n, p, ACCESSIBLE, "GetRole", None, ()), (n, p, ACCESSIBLE, "GetState", None, ()),
            (n, p, ACCESSIBLE, "GetChildren", None, ()))])
        below: list[tuple[str, str]] = []
        for i, obj in enumerate(level):
            role, state, children = answers[3 * i:3 * i + 3]
            if isinstance(state, _CallFailed) or not state[0] & STATE_SHOWING:
                continue
            if role == ROLE_TERMINAL:
                return obj[0], obj[1]
            if not isinstance(children, _CallFailed):
                below.extend(tuple(c) for c in children)
        level = below
    return None
