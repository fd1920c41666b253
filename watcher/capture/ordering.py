"""Events of different source threads, taken in the order the X server saw them.

Each capture source reads its own connection in its own thread, so on a busy machine one thread runs late: a wheel
tick made before a window switch could be read after the switch, and a key typed after the switch could be read
while the window thread is still asking the server for the new window's title. The pipeline would then tell the
tick in the next window's episode and the key in the window left (and judge it by that window's privacy rules).

`ServerOrder` is what sources emit into. It keeps the server's order with two facts every X event carries, not
with delays:
- **Catch-up:** before a non-device event (a switch, a copy, an idle spell) is queued, every device source reads
  what the server had sent it (`Source.catch_up`): the server sends a recorded key before anything that follows it,
  so each key made before the event is queued ahead of it.
- **Server time:** device events carry the server's timestamp (`RawEvent.xtime`), and so do the events that follow
  from X events (the switch's PropertyNotify, the copy's owner change). While such an event is being read
  (`announced`) or is queued and not taken yet, device events stamped after it are held, then taken after it.
  Their `ts` is set from the server's time too (`_stamp`), so a late thread does not move them in time. A click
  is announced so too, from when its thread reads it until it is emitted (its window is asked first: mouse.py),
  and the keyboard's thread has the mouse's read before it hands keys over (xrecord.py `read_up`): a key typed
  at once after a click into a field is taken after the click, never dropped by it as a key of what was left.

Sources without X timestamps (Wayland, the accessibility bus, ActivityWatch) are not held; they are caught up
with like any non-device event.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

from proactive.watcher.events import CLICK, HOTKEY, KEY, SCROLL, Emit, RawEvent

log = logging.getLogger(__name__)

#: Events a device source reads in the order they happened (its own thread); they never wait for a catch-up. The
#: accessibility bus's text changes (TYPED) are not: each waits for the keys the server sent before it, so the key
#: that made an insertion is always taken before it (watcher/privacy/typed_keys.py matches them).
DEVICE_KINDS = frozenset({KEY, HOTKEY, CLICK, SCROLL})
CATCH_UP_SECONDS = 2.0  # a source that cannot catch up in this long (stuck) no longer delays the event
PENDING_SECONDS = 5.0  # an announced event that never came (its thread died) holds device events no longer
#: an event this much later than the clocks' difference says: the server's clock started again (it wraps after
#: 49.7 days); nothing else moves it so far (a watcher stopped that long is not running)
SERVER_CLOCK_RESTART_SECONDS = 2**31 / 1000
SERVER_CLOCK_WRAP_SECONDS = 2**32 / 1000  # the server's clock counts 32-bit milliseconds
#: an event read within this long of what this machine's monotonic clock says the server's time was: the server
#: counts on that clock (a local X server, Xvfb, Xwayland: CLOCK_MONOTONIC in ms), and the clocks' difference is
#: taken as exact; a server counting on another clock shows so small a difference once in a million
SAME_CLOCK_SECONDS = 5.0
#: Queued when an announcement settles without an event (the title did not change): the held keys go on.
SETTLED = RawEvent("watcher", "settled")


class CatchesUp(Protocol):
    def catch_up(self, timeout: float) -> None: ...

    def sync(self, timeout: float) -> None: ...


def later(a: int, b: int) -> bool:
    """Whether X server time `a` comes after `b` (the server's millisecond clock wraps after 49 days)."""
    return 0 < (a - b) & 0xFFFFFFFF < 0x80000000


@contextmanager
def announced(emit: Emit, xtime: int | None) -> Iterator[None]:
    """Around turning an X event of server time `xtime` into a RawEvent when that takes round trips (a switch's
    title and process): device events stamped after it wait until what the block emits has been taken. An `emit`
    that is not a `ServerOrder` (a test's list) ignores it."""
    announce: Callable[[int], object] | None = getattr(emit, "announce", None)
    token = announce(xtime) if announce is not None and xtime is not None else None
    try:
        yield
    finally:
        if token is not None:
            emit.settle(token)  # type: ignore[attr-defined]  # (a ServerOrder: it announced)


class ServerOrder:
    """The sources' `emit` (thread-safe) and the pipeline's `admit` (under the pipeline's lock only)."""

    def __init__(self, sources: Sequence[CatchesUp], put: Callable[[RawEvent], None]):
        self.sources = sources
        self.put = put
        self._lock = threading.Lock()
        # what device events stamped later wait for: id of an announcement token or of a queued event ->
        # (X time, when registered, the object, kept so its id stays its own)
        self._pending: dict[int, tuple[int, float, object]] = {}
        self._held: list[RawEvent] = []  # the pipeline's (under its lock): device events waiting
        self._offset: float | None = None  # monotonic clock minus the server's clock (s), see _stamp

    # -- source threads ------------------------------------------------------------------------------------

    def __call__(self, event: RawEvent) -> None:
        if event.xtime is not None:
            self._stamp(event, event.xtime)
        if event.kind in DEVICE_KINDS:
            self.put(event)
            return
        if event.xtime is not None:
            self._register(event, event.xtime)
        try:
            self.catch_up()
        finally:
            self.put(event)

    def catch_up(self) -> None:
        """Every device source queues what the server had sent it (see the module's docstring)."""
        try:
            for source in self.sources:
                source.catch_up(CATCH_UP_SECONDS)
        except Exception:  # a source that cannot catch up costs the order, never the event
            log.exception("a source could not catch up")

    def sync(self, timeout: float = CATCH_UP_SECONDS) -> None:
        """For a flush request (the pipeline, under its lock): every source emits or announces what its system had
        sent it (`Source.sync`), then the announced events (a copy being read from its owner) are waited for, at
        most `timeout` seconds in all."""
        deadline = time.monotonic() + timeout
        try:
            for source in self.sources:
                source.sync(max(0.0, deadline - time.monotonic()))
        except Exception:  # a source that cannot sync costs the flush's completeness, never capture
            log.exception("a source could not sync")
        while self._announced() and time.monotonic() < deadline:
            time.sleep(0.01)

    def _announced(self) -> bool:
        """Whether an announced event is still being read (a queued event waits for the pipeline instead)."""
        with self._lock:
            return any(not isinstance(owner, RawEvent) for _, _, owner in self._pending.values())

    def _stamp(self, event: RawEvent, xtime: int) -> None:
        """Sets `event.ts` (when a thread made it) to when the server saw it: the server's clock plus the clocks'
        difference. Why: a late thread would otherwise stretch what came before it (an empty moment between two
        windows kept as an episode), and the privacy filter judges a terminal line's echo readings by when its
        keys were pressed (pipeline `_judge_line`).

        The difference is taken against the monotonic clock, which the server's follows (neither counts a
        suspend), so a watcher stopped for minutes still dates the keys typed meanwhile by their press, never by
        when it read them; the wall clock's own jumps (NTP, a suspend) are added when `ts` is made. A local
        server's clock *is* the monotonic clock in milliseconds (mod 2**32): the difference is then a whole
        number of wraps, known exactly from the first event (`SAME_CLOCK_SECONDS`). Otherwise it is the smallest
        seen (the least delayed event's), which dates keys late by that delay: a busy watcher's first keys read
        ~0.1 s late dated an echo reading taken after a line's Enter (the started program's prompt) as before it,
        and the command line was hidden."""
        wall, monotonic = time.time(), time.monotonic()
        seen = monotonic - (wall - event.ts) - xtime / 1000  # when the thread made it, less the server's time
        with self._lock:
            if self._offset is None or seen < self._offset or seen - self._offset > SERVER_CLOCK_RESTART_SECONDS:
                self._offset = seen  # the first, a less delayed one, or the server's clock wrapped
                delay = seen % SERVER_CLOCK_WRAP_SECONDS
                if delay <= SAME_CLOCK_SECONDS:  # the server counts on our clock: the delay is the thread's
                    self._offset = seen - delay
            event.ts = xtime / 1000 + self._offset + (wall - monotonic)

    def announce(self, xtime: int) -> object:
        """An X event of time `xtime` was read and becomes a RawEvent soon: later device events wait from now."""
        token = object()
        self._register(token, xtime)
        return token

    def settle(self, token: object) -> None:
        """The announced event has been emitted (its own registration now holds), or will not be."""
        with self._lock:
            self._pending.pop(id(token), None)
        self.put(SETTLED)

    def _register(self, owner: object, xtime: int) -> None:
        with self._lock:
            self._pending[id(owner)] = (xtime, time.monotonic(), owner)

    # -- the pipeline (under its lock, in whichever thread holds it) ----------------------------------------

    def admit(self, event: RawEvent) -> list[RawEvent]:
        """The events to take now, in order, now that `event` has come off the queue: the held events nothing
        pending comes before any more, then `event` itself, unless it is a device event stamped after an event
        not taken yet (then it is held too). A non-device event frees what waited for it."""
        if event is SETTLED:
            return self.release()
        if event.kind in DEVICE_KINDS:
            out = self.release()
            if event.xtime is not None and self._waits(event.xtime):
                self._held.append(event)
                return out
            return [*out, event]
        with self._lock:
            self._pending.pop(id(event), None)
        return [event, *self.release()]

    def release(self, everything: bool = False) -> list[RawEvent]:
        """The held device events nothing pending comes before any more (all of them with `everything`), in the
        server's order."""
        if not self._held:
            return []
        held, self._held = self._held, []
        base = (held[0].xtime or 0) - 0x40000000  # times within 12 days of the first sort as plain numbers
        out = []
        for event in sorted(held, key=lambda e: ((e.xtime or 0) - base) & 0xFFFFFFFF):
            if not everything and event.xtime is not None and self._waits(event.xtime):
                self._held.append(event)
            else:
                out.append(event)
        return out

    def _waits(self, xtime: int) -> bool:
        """Whether a device event of X time `xtime` comes after a pending event."""
        if not self._pending:  # nearly always; read without the lock (a registration racing this call would be
            return False  # missed with it too)
        with self._lock:
            now = time.monotonic()
            stale = [key for key, (_, since, _) in self._pending.items() if now - since >= PENDING_SECONDS]
            for key in stale:
                log.warning("an event announced %.0f s ago never came; keys no longer wait for it", PENDING_SECONDS)
                del self._pending[key]
            return any(later(xtime, pending) for pending, _, _ in self._pending.values())

