"""The interface every capture source implements, and the registry that picks the ones this platform has.

A source runs in its own thread (or its library's), calls `emit` for what it sees, and must stop promptly and
release its resources when `stop()` is called. Sources never filter: the pipeline applies privacy rules to every
stream together.
"""

from __future__ import annotations

import logging
import os
import sys
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from typing import Any

from .events import Emit

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Probe:
    """Whether a source can work here now, checked without starting it (`proactive doctor`, the watcher's start
    log, the settings window): what it captures, and when it cannot, why and what the person can do."""

    source: str  # the source's name, e.g. "window (X11)"
    captures: str  # what it gives: "window titles", "typed text", "copies", "idle"...
    works: bool
    detail: str = ""  # what was found, or why it cannot work
    fix: str = ""  # what the person can do about it ("" when it works)
    tested: bool = True  # False for backends no test here verifies (KDE, Hyprland, GNOME Shell...)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Source(ABC):
    """A capture source: `start(emit)` begins delivering events, `stop()` ends it (idempotent)."""

    name: str = "source"
    captures: str = ""
    gives_keys: bool = False  # a key logger: the text typed in every window, judged by the focus

    @abstractmethod
    def start(self, emit: Emit) -> None: ...

    @abstractmethod
    def stop(self) -> None: ...

    def probe(self) -> Probe:
        """Can this source work here now? Sources override this with a real check; the default only says the
        source exists."""
        return Probe(self.name, self.captures, True, "not checked")

    def types_in(self, pid: int | None) -> bool:
        """Whether this source reports the text typed in the windows of process `pid`, each piece with the field
        that took it (the accessibility bus): the pipeline then uses it instead of the keys typed there."""
        return False


class ListenerSource(Source):
    """A source backed by a pynput listener thread (keyboard, mouse): started, waited for, stopped alike."""

    def __init__(self) -> None:
        self._listener: Any = None

    def _start_listener(self, listener: Any) -> None:
        listener.daemon = True
        listener.start()
        listener.wait()  # returns once the listener is recording, so no early event is missed
        self._listener = listener

    def stop(self) -> None:
        if self._listener is not None:
            self._listener.stop()
            self._listener = None


class SourceUnavailable(RuntimeError):
    """Raised by `start` when the platform lacks what the source needs (no display, missing library)."""


def default_sources(idle_seconds: float, clipboard_max_chars: int) -> list[Source]:
    """The sources for this platform, chosen by the session (`session.detect()`): on Linux, Wayland whenever
    WAYLAND_DISPLAY is set (even with DISPLAY set for XWayland, whose X11 sources would see only XWayland
    windows): the compositor's window source, wl-paste's clipboard, the idle source and AT-SPI for focus, roles
    and typed text, without any key logger (`wayland.py`); X11 otherwise. Windows and macOS variants are
    untested here."""
    if sys.platform.startswith("linux"):
        from .session import detect

        session = detect()
        if session.kind == "wayland":
            from .wayland import wayland_sources

            log.info("session: %s", session.describe())
            found = wayland_sources(session, idle_seconds, clipboard_max_chars)
            # GNOME without the "focused window" Shell extension: the accessibility bus's window:activate is the
            # window source (untested here: no GNOME Shell; the same events are tested on X11 and sway)
            windows = session.compositor == "gnome" and not found[0].probe().works
            if windows:
                found.pop(0)
            try:
                from .atspi import AtspiSource
            except Exception as exc:  # noqa: BLE001 - any import failure: capture goes on without it, said once
                log.warning("source atspi unavailable: %s (no typed text on Wayland)", exc)
            else:
                # focus, roles and typed text: no key logger on Wayland
                found.append(AtspiSource(text=True, windows=windows))
            return found
        if not os.environ.get("DISPLAY"):
            log.warning("neither WAYLAND_DISPLAY nor DISPLAY is set: no desktop capture here (ActivityWatch "
                        "can still give windows and idle)")
            return []
        from .atspi import AtspiSource
        from .clipboard import X11Clipboard
        from .idle import X11Idle
        from .keyboard import Keyboard
        from .mouse import Mouse
        from .window import X11ActiveWindow

        return [
            X11ActiveWindow(),
            Keyboard(),
            Mouse(),
            X11Clipboard(max_chars=clipboard_max_chars),
            X11Idle(idle_seconds=idle_seconds),
            # typed text from applications on the accessibility bus (by the emitting field's role: a key arrives
            # before the focus event that says "password field"), password fields, terminal prompts; keys from
            # pynput everywhere else
            AtspiSource(text=True),
        ]
    from .clipboard import PollingClipboard
    from .idle import PollingIdle
    from .keyboard import Keyboard
    from .mouse import Mouse
    from .window import PollingActiveWindow

    return [
        PollingActiveWindow(),
        Keyboard(),
        Mouse(),
        PollingClipboard(max_chars=clipboard_max_chars),
        PollingIdle(idle_seconds=idle_seconds),
    ]
