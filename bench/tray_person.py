"""The day's person at the tray: reads an offer's popup, clicks its Accept (a real click of the mouse), answers a
question the help asks with its default button, reads the help window as it is shown, closes it and goes back
to the window they were working in.

What a Qt window shows is read from the accessibility bus, as a screen reader reads it: Qt puts its widgets there
(roles, names, `org.a11y.atspi.Text`, `Component.GetExtents`) when toolkit accessibility is on. This is how the
benchmark sees the help a page offer gives: the pages' text is held by the running assistant and never written
to the database, so a second process (`proactive decide`) cannot produce it, and the stored decision holds only
its addresses. The reading reuses the watcher's pipelined bus reader (`browser_page._Reader`).
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.xsession import XSession
from proactive.watcher.capture.atspi import ACCESSIBLE, ROOT_PATH
from proactive.watcher.capture.browser_page import (
    PROPERTIES,
    REGISTRY,
    TEXT,
    _CallFailed,
    _Reader,
    read_over_bus,
)

COMPONENT = "org.a11y.atspi.Component"
ROLE_PUSH_BUTTON = 43  # AtspiRole ATSPI_ROLE_PUSH_BUTTON (at-spi2-core's atspi-constants.h)
COORD_SCREEN = 0  # ATSPI_COORD_TYPE_SCREEN
MAX_NODES = 400  # objects of one window looked through: a help window has a few dozen
POPUP_TITLE = "Proactive: proposal"  # ui/popup.py
CONSENT_TITLE = "Proactive: web search"  # ui/consent.py ConsentDialog
HELP_WAIT_S = 120.0  # the built-in model may write for a while on a busy machine


@dataclass
class Shown:
    """One window as the accessibility bus gives it: its title, every text it shows in reading order, and where
    its buttons are on the screen (x, y, width, height) by label."""

    title: str
    texts: list[str] = field(default_factory=list)
    buttons: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)


def read_window(title: Callable[[str], bool]) -> Shown | None:
    """The first window on the accessibility bus whose title `title` accepts, or None (no bus, no such window)."""
    return read_over_bus("a tray window", 2.0, lambda reader: _read(reader, title))


def _name(answer: Any) -> str:
    return str(answer[1]) if isinstance(answer, tuple) and len(answer) == 2 else ""


def _read(reader: _Reader, title: Callable[[str], bool]) -> Shown | None:
    (apps,) = reader.calls([(REGISTRY, ROOT_PATH, ACCESSIBLE, "GetChildren", None, ())])
    if isinstance(apps, _CallFailed):
        return None
    names = [name for name, _path in apps]
    frames_of = reader.calls([(n, ROOT_PATH, ACCESSIBLE, "GetChildren", None, ()) for n in names])
    frames = [tuple(child) for children in frames_of if not isinstance(children, _CallFailed) for child in children]
    titles = reader.calls([(n, p, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name")) for n, p in frames])
    for frame, name in zip(frames, titles, strict=True):
        if title(_name(name)):
            return _walk(reader, (frame[0], frame[1]), _name(name))
    return None


def _walk(reader: _Reader, frame: tuple[str, str], title: str) -> Shown:
    """Every object below the window, depth first in the order of its children (the order read on screen)."""
    shown = Shown(title)
    stack, seen = [frame], 0
    while stack and seen < MAX_NODES:
        name, path = stack.pop()
        seen += 1
        role, label, text, children = reader.calls([
            (name, path, ACCESSIBLE, "GetRole", None, ()),
            (name, path, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name")),
            (name, path, TEXT, "GetText", "ii", (0, -1)),
            (name, path, ACCESSIBLE, "GetChildren", None, ())])
        if role == ROLE_PUSH_BUTTON and _name(label):
            (extents,) = reader.calls([(name, path, COMPONENT, "GetExtents", "u", (COORD_SCREEN,))])
            if isinstance(extents, tuple) and len(extents) == 4:
                shown.buttons.setdefault(_name(label), tuple(int(v) for v in extents))  # type: ignore[arg-type]
        elif isinstance(text, str) and text.strip():
            shown.texts.append(text)
        elif _name(label) and (name, path) != frame:
            shown.texts.append(_name(label))
        if not isinstance(children, _CallFailed):
            stack.extend((c[0], c[1]) for c in reversed(children))
    return shown


def wait_window(title: Callable[[str], bool], timeout: float, ready: Callable[[Shown], bool] = bool
                ) -> Shown | None:
    """The window once it is on the bus and `ready` says it shows what is awaited, or None after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = read_window(title)
        if shown is not None and ready(shown):
            return shown
        time.sleep(0.3)
    return None


def click(session: XSession, title: str, extents: tuple[int, int, int, int]) -> None:
    """A real click in the middle of a button of the window titled `title`. Qt on X11 gives a widget's extents
    relative to its window (it does not know where the window manager put it): the window's place is added
    where the extents fit inside the window."""
    x, y, w, h = extents
    wid = session._find(re.escape(title))
    if wid is not None:
        g = dict(line.split("=", 1) for line in session.xdotool("getwindowgeometry", "--shell", wid).split())
        if x + w <= int(g["WIDTH"]) and y + h <= int(g["HEIGHT"]):
            x, y = x + int(g["X"]), y + int(g["Y"])
    session.xdotool("mousemove", str(x + w // 2), str(y + h // 2))
    time.sleep(0.15)
    session.xdotool("click", "1")


def close_window(session: XSession, title: str) -> None:
    """Close a window as its title bar's close button does: the window manager's WM_DELETE_WINDOW message."""
    from Xlib import X, display, protocol

    out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{re.escape(title)}$"], env=session.env,
                         capture_output=True, text=True, timeout=10)
    d = display.Display(session.display)
    try:
        delete, protocols = d.intern_atom("WM_DELETE_WINDOW"), d.intern_atom("WM_PROTOCOLS")
        for wid in out.stdout.split():
            window = d.create_resource_object("window", int(wid))
            window.send_event(protocol.event.ClientMessage(window=window, client_type=protocols,
                                                           data=(32, [delete, X.CurrentTime, 0, 0, 0])))
        d.flush()
    finally:
        d.close()


@dataclass
class Accepted:
    """What accepting one offer at the tray gave: the help window's text, or why there was none."""

    help: str | None = None
    error: str | None = None
    consent: str | None = None  # the question the help asked first, answered with its default button


def accept_at_tray(session: XSession, task: str, response: str, popup_wait: float = 15.0) -> Accepted:
    """Accept the popup that shows the offer (its `response`, as the popup words it) with a real click, answer a
    web-search question with its default button ("Not now": nothing is sent), and read the help window that
    opens (titled "Proactive: " and the offer's task)."""
    words = response.split()[:6]

    def shows_task(shown: Shown) -> bool:
        return "Accept" in shown.buttons and all(w in " ".join(shown.texts) for w in words)

    popup = wait_window(lambda t: t == POPUP_TITLE, popup_wait, shows_task)
    if popup is None:
        return Accepted(error="the offer's popup with an Accept button was not seen on the accessibility bus")
    click(session, POPUP_TITLE, popup.buttons["Accept"])
    prefix = "Proactive: " + task[:40]  # ResultWindow's title: the task, cut at 60 characters
    consent: str | None = None
    deadline = time.monotonic() + HELP_WAIT_S
    while time.monotonic() < deadline:
        question = read_window(lambda t: t == CONSENT_TITLE)
        if question is not None and consent is None:
            consent = " ".join(question.texts)[:300]
            default = question.buttons.get("Not now")
            if default is not None:
                click(session, CONSENT_TITLE, default)
        result = read_window(lambda t: t.startswith(prefix) and t != POPUP_TITLE)
        if result is not None and result.texts:
            close_window(session, result.title)
            return Accepted(help="\n".join(result.texts), consent=consent)
        time.sleep(0.3)
    return Accepted(error=f"no help window within {HELP_WAIT_S:.0f} s of Accept", consent=consent)
