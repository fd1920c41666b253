"""The interface every capture source implements, and what its probe answers; nothing else.

A source runs in its own thread (or its library's), calls `emit` for what it sees, and must stop promptly and
release its resources when `stop()` is called. Sources never filter: the pipeline applies privacy rules to every
stream together. Which sources run here is `platform.py`'s choice: this module imports no source, so every source
module can import it without a circle.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from typing import Any

from proactive.watcher.events import Emit


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

    def catch_up(self, timeout: float) -> None:
        """Returns once what this source's system had sent it when called has been emitted. The pipeline calls it
        before queueing another source's event (a window switch, a copy), so keys and clicks that came before
        that event are told before it however late this source's thread runs (X RECORD: `RecordThread`). Sources
        whose thread reads no device events have nothing to catch up with."""
        return

    def sync(self, timeout: float) -> None:
        """Returns once what this source's system had sent it when called has been emitted, or announced to the
        order (`ordering.ServerOrder.announce`: a copy whose text is being read). For a flush request (the
        watcher writes what it has taken: watcher/control.py). By default what `catch_up` does: the X sources
        that read more than device events make a round trip on their connection (`x11.XEventThread.sync`);
        sources with nothing to ask (Wayland's, the accessibility bus) return at once."""
        self.catch_up(timeout)

    def types_in(self, pid: int | None) -> bool:
        """Whether this source reports the text typed in the windows of process `pid`, each piece with the field
        that took it (the accessibility bus): the pipeline then uses it instead of the keys typed there."""
        return False


class ListenerSource(Source):
    """A device source (keyboard, mouse): an X RECORD thread on Linux (`self._record`, a `xrecord.RecordThread`),
    a pynput listener thread elsewhere; started, waited for, caught up with and stopped alike."""

    def __init__(self) -> None:
        self._listener: Any = None
        self._record: Any = None

    def _start_listener(self, listener: Any) -> None:
        listener.daemon = True
        listener.start()
        listener.wait()  # returns once the listener is recording, so no early event is missed
        self._listener = listener

    def catch_up(self, timeout: float) -> None:
        if self._record is not None:
            self._record.catch_up(timeout)

    def stop(self) -> None:
        if self._record is not None:
            self._record.stop()
            self._record = None
        if self._listener is not None:
            self._listener.stop()
            self._listener = None


class SourceUnavailable(RuntimeError):
    """Raised by `start` when the platform lacks what the source needs (no display, missing library)."""


def probe_fix(source: Source, reason: str = "") -> str:
    """'; fix: ...' from the source's probe, so the one warning about a missing source says what to do (once: not
    when the reason already says it)."""
    try:
        fix = source.probe().fix
    except Exception:  # noqa: BLE001  (a probe that fails adds nothing to the warning)
        return ""
    return f"; fix: {fix}" if fix and fix not in reason else ""
