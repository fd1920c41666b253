"""Device events of every X client through the RECORD extension, read straight off the socket (keyboard, mouse).

Why not pynput's listener, which the keyboard and mouse sources used before: it passes every recorded event
through python-xlib's generic reply parser and then its generic event parser, about 0.4 ms of Python per key press
or release, which was nearly all of the watcher's CPU while someone types. A recorded device event is a fixed
32-byte core event, and the sources need five of its fields, so `RecordThread` unpacks those with one `struct`
call. python-xlib still opens the connections (authentication) and sends the context's create, disable and free
requests; only the data connection's stream of replies is read here. Between events the thread sleeps in `poll`
with no timeout: `stop()` disables the context, and the server's EndOfData reply ends the loop; `catch_up()` wakes
it to read what waits (the pipeline orders other sources' events behind the keys recorded before them).

Two record threads (the keyboard's, the mouse's) each hand over their own events in order, but not in order with
each other's: the mouse's thread asks the server which window a click is in before it emits the click, so on a
busy machine a key typed just after the click (a click into a field, and typing at once) was read, emitted and
taken first, and the click then dropped it as a key that went to what was left (watcher/privacy/typed_keys.py).
So a thread with an `early` callback (the mouse's) calls it for every event as soon as it has read it, before it
handles any (the click is announced to the order there: keys stamped after it wait for it, ordering.py), and
every other record thread, before it handles what it read, has those threads read what the server had sent them
(`read_up`: the server sends a recorded event before anything that follows it, so a click made before a key is
on the mouse's socket by the time the key is read). The reading, not the handling, is waited for: a key waits
behind the click's round trips in the order, never in its thread.

The recorded range is `first..last` of the core event types: KeyPress..KeyRelease for the keyboard,
ButtonPress..ButtonRelease for the mouse (MotionNotify is never recorded, so the server sends us nothing while the
pointer moves).
"""

from __future__ import annotations

import logging
import os
import select
import socket
import struct
import threading
import weakref
from collections.abc import Callable

from proactive.watcher.capture.sources import SourceUnavailable
from proactive.watcher.capture.x11 import open_display

log = logging.getLogger(__name__)

#: handle(type, detail, state, root_x, root_y, time) for each recorded event; type without the send_event bit,
#: time the server's (ms)
Handler = Callable[[int, int, int, int, int, int], None]
#: mapping_changed(request, first_keycode, count) for each MappingNotify (request: X.MappingModifier,
#: MappingKeyboard or MappingPointer), the event every client gets when the keymap changes
MappingHandler = Callable[[int, int, int], None]
#: requests(data, swapped) for each run of recorded core requests (one client's, one after another, as sent);
#: swapped: that client's byte order is not ours
RequestHandler = Callable[[bytes, bool], None]

_ERROR, _REPLY, _GENERIC_EVENT = 0, 1, 35  # the first byte of what the server sends (2 to 34: other events)
_MAPPING_NOTIFY = 34
_FROM_SERVER, _FROM_CLIENT, _START_OF_DATA, _END_OF_DATA = 0, 1, 4, 5  # the categories of a RECORD EnableContext reply
_ENABLE_CONTEXT = 5  # RECORD's minor opcode
_HEADER = struct.Struct("=BBHI")  # reply: type, category, sequence, length (4-byte units after the 32 bytes)
_CLIENT_SWAPPED = 12  # the reply's byte saying the recorded client's byte order differs from ours
#: core event: type, detail, time (offset 4), root_x, root_y (offset 20), state (offset 28)
_EVENT = struct.Struct("=BB2xI12xhh4xH")
_EVENT_SIZE = 32
_MAPPING = struct.Struct("=4xBBB")  # MappingNotify: request, first key code, count
_CHUNK = 65536  # bytes read at once
READ_UP_SECONDS = 2.0  # a thread that has not read what waits for it in this long (stuck) no longer delays another
#: the running record threads with an `early` callback: the others have them read what waits before they handle
_EARLY: weakref.WeakSet[RecordThread] = weakref.WeakSet()


class RecordThread:
    """Calls `handle` for every core device event of type `first`..`last` any client receives, until stopped.

    `display` is the control connection (python-xlib): it creates, disables and frees the context. A source may
    send its own requests on it before `start()` (the keyboard's modifier masks); after it, `stop()` sends some,
    and `mapping_changed`, called in the record thread when the keymap changes (the data connection gets the
    MappingNotify every client gets), may read the new keymap (python-xlib serialises requests itself).

    `requests` (first, last core opcode) also records those requests of every client, passed to `on_requests` in
    the order the server took them among the device events: what a request changed is known at the right place
    in the stream, where a reply read afterwards tells the state at the time it is read.

    `early` is called for every event as soon as it is read, before `handle` is called for any of them: the other
    record threads wait for that call (`read_up`), never for `handle` (see the module's docstring)."""

    def __init__(self, first: int, last: int, handle: Handler, name: str,
                 mapping_changed: MappingHandler | None = None, requests: tuple[int, int] = (0, 0),
                 on_requests: RequestHandler | None = None, early: Handler | None = None):
        self.handle = handle
        self.early = early
        self.mapping_changed = mapping_changed
        self.on_requests = on_requests
        self.name = name
        self.display = open_display()
        if not self.display.has_extension("RECORD"):
            self.display.close()
            raise SourceUnavailable("the X server has no RECORD extension")
        from Xlib.ext import record

        self.context = self.display.record_create_context(0, [record.AllClients], [{
            "core_requests": requests, "core_replies": (0, 0), "ext_requests": (0, 0, 0, 0),
            "ext_replies": (0, 0, 0, 0), "delivered_events": (0, 0), "device_events": (first, last),
            "errors": (0, 0), "client_started": False, "client_died": False}])
        self.display.sync()  # the context exists before the data connection enables it
        self._ready = threading.Event()
        self._caught = threading.Condition()
        self._asked = self._served = 0  # catch-up requests made, and how many of them the thread has served
        self._scanned = 0  # the catch-up requests whose reading (`early` called) is done, if not their handling
        self._reading = False  # between a read of the socket and `early` called for what it gave
        self._failed: str | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        #: seconds the thread waits after handling what it read before it reads again, set by `handle` (0: it
        #: reads each event as it comes); what comes meanwhile is read in one go, and `catch_up` and `stop` still
        #: end the wait. Why: the thread's wake-up, cold, costs more than handling the keys it reads
        self.rest = 0.0

    def start(self, timeout: float = 5.0) -> None:
        """Enables recording; returns once the server says it records, so no early event is missed."""
        try:
            data = open_display()
        except SourceUnavailable:
            self._free()
            raise
        self._data = data
        self._socket = socket.socket(fileno=os.dup(data.fileno()))  # a copy: python-xlib closes its own
        opcode = data.query_extension("RECORD").major_opcode
        self._socket.sendall(struct.pack("=BBHI", opcode, _ENABLE_CONTEXT, 2, self.context))
        self._socket.setblocking(False)
        self._wake_out, self._wake_in = socket.socketpair()  # catch_up wakes the thread through it
        self._wake_in.setblocking(False)
        self._thread.start()
        if self.early is not None:
            _EARLY.add(self)
        if not self._ready.wait(timeout) or self._failed:
            self.stop()
            raise SourceUnavailable(f"X RECORD did not start: {self._failed or 'no answer from the X server'}")

    def _run(self) -> None:
        """Sleeps in `poll` until the server sends something or `catch_up` asks; reads what waits each time, then
        waits `rest` seconds if `handle` asked for it. Two system calls a read (poll, recv): each lets other
        threads take the GIL, so each costs."""
        buf = bytearray()
        poller = select.poll()
        data, wake = self._socket.fileno(), self._wake_in.fileno()
        poller.register(data, select.POLLIN)
        poller.register(wake, select.POLLIN)
        resting = select.poll()  # the wait after a read: only a catch-up ends it early
        resting.register(wake, select.POLLIN)
        try:
            while True:
                ready = [fd for fd, _ in poller.poll()]
                if wake in ready:
                    try:
                        self._wake_in.recv(4096)  # before `asked` is read: a request after this leaves its byte
                    except BlockingIOError:
                        pass
                asked = self._asked  # every request counted here came before the read below
                ended = (data in ready or asked != self._served) and self._read_waiting(buf, asked)
                if asked != self._served:
                    with self._caught:
                        self._served = asked
                        self._caught.notify_all()
                if ended:
                    return
                if self.rest > 0:
                    resting.poll(self.rest * 1000)
        except OSError as exc:  # the connection died (X server gone): this source stops, the watcher goes on
            log.warning("%s stopped: %s", self.name, exc)
        finally:
            _EARLY.discard(self)
            self._ready.set()
            with self._caught:
                self._served = self._asked = -1  # nobody waits for a thread that has ended
                self._caught.notify_all()
            for closing in (self._socket, self._wake_in, self._wake_out, self._data):
                closing.close()

    def _read_waiting(self, buf: bytearray, asked: int) -> bool:
        """Reads and handles what waits on the data connection; True when the stream has ended. One `recv` takes
        all that waits unless it fills the buffer (only then is there a second). Before handling, `early` is called
        for what was read (the `read_up` requests counted in `asked` are then served), and the threads with an
        `early` callback read what the server had sent them."""
        while True:
            self._reading = True
            try:
                chunk = self._socket.recv(_CHUNK)
            except BlockingIOError:
                chunk = None
            if chunk:
                buf += chunk
                if self.early is not None:
                    self._scan(buf)
            self._read(asked)
            if chunk is None:
                return False
            if not chunk:
                log.warning("%s: the X server closed the connection", self.name)
                return True
            for other in list(_EARLY):
                if other is not self:
                    other.read_up(READ_UP_SECONDS)
            if self._parse(buf):
                return True
            if len(chunk) < _CHUNK:
                return False

    def _read(self, asked: int) -> None:
        """What the socket had is read and `early` called for it: the `read_up` requests counted in `asked` are
        served."""
        self._reading = False
        if asked != self._scanned:
            with self._caught:
                self._scanned = asked
                self._caught.notify_all()

    def _scan(self, buf: bytearray) -> None:
        """`early` for every event of the whole replies in `buf` (all of them are handled next: `_parse`; a reply
        not whole yet is scanned once it is)."""
        start = 0
        while len(buf) - start >= 32:
            kind, category, _, length = _HEADER.unpack_from(buf, start)
            end = start + (32 + 4 * length if kind in (_REPLY, _GENERIC_EVENT) else 32)
            if kind == _ERROR or len(buf) < end:
                return
            if kind == _REPLY and category == _FROM_SERVER:
                for offset in range(start + 32, end - _EVENT_SIZE + 1, _EVENT_SIZE):
                    kind_, detail, xtime, x, y, state = _EVENT.unpack_from(buf, offset)
                    try:
                        self.early(kind_ & 0x7F, detail, state, x, y, xtime)  # type: ignore[misc]  # (not None)
                    except Exception:  # the event is still handled
                        log.exception("%s: an event could not be announced", self.name)
            start = end

    def read_up(self, timeout: float) -> None:
        """Returns once this thread has read what the server had sent it when called, and called `early` for it
        (or after `timeout`); at once when nothing waits to be read. Called by another record thread before it
        handles what it read (see the module's docstring): one `poll` of this thread's socket when nothing waits."""
        if not self._unread() or threading.current_thread() is self._thread:
            return
        self._ask(lambda: self._scanned, timeout, "read up")

    def _unread(self) -> bool:
        """Whether the server sent this thread something it has not read, or read and not scanned yet. The socket
        is looked at first: the thread says it reads before it reads, so what left the socket meanwhile is seen."""
        try:
            poller = select.poll()
            poller.register(self._socket.fileno(), select.POLLIN)
            if poller.poll(0):
                return True
        except (OSError, ValueError):  # closed: the thread has ended
            return False
        return self._reading

    def _parse(self, buf: bytearray) -> bool:
        """Handles the whole replies at the start of `buf` and removes them; True at the end of the stream."""
        while len(buf) >= 32:
            kind, category, _, length = _HEADER.unpack_from(buf)
            if kind == _ERROR:  # the context could not be enabled
                self._failed = f"X error {category}"
                self._ready.set()
                return True
            # a reply, or an event every client gets (MappingNotify); only GenericEvents are longer
            end = 32 + 4 * length if kind in (_REPLY, _GENERIC_EVENT) else 32
            if len(buf) < end:
                return False
            if kind == _REPLY and category == _FROM_SERVER:
                self._events(buf, end)
            elif kind == _REPLY and category == _FROM_CLIENT and self.on_requests is not None:
                try:
                    self.on_requests(bytes(buf[32:end]), bool(buf[_CLIENT_SWAPPED]))
                except Exception:  # capture goes on with what was known before
                    log.exception("%s: a recorded request could not be read", self.name)
            elif kind == _REPLY and category == _START_OF_DATA:
                self._ready.set()
            elif kind == _REPLY and category == _END_OF_DATA:
                return True
            elif kind & 0x7F == _MAPPING_NOTIFY and self.mapping_changed is not None:
                try:
                    self.mapping_changed(*_MAPPING.unpack_from(buf))
                except Exception:  # the old keymap goes on being used: capture does not end
                    log.exception("%s: the new keymap could not be read", self.name)
            del buf[:end]
        return False

    def catch_up(self, timeout: float) -> None:
        """Returns once every event the server had sent when called has been handled (or after `timeout`).

        Why: the X server sends a recorded key or wheel tick before anything that follows it (a window switch, a
        copy), but on a busy machine this thread may read it later than another source's thread reads what
        followed; the pipeline would then tell the key in the next window. Another source calls this before it
        queues its event (after its own round trips to the server, so what was recorded before is on our socket),
        and the event lands behind every key recorded before it."""
        if not self._thread.is_alive() or threading.current_thread() is self._thread:
            return
        self._ask(lambda: self._served, timeout, "caught up")

    def _ask(self, done: Callable[[], int], timeout: float, what: str) -> None:
        """One request to this thread (woken through its pipe), waited for until `done()` counts it served or the
        thread has ended (or `timeout`): what `catch_up` and `read_up` share."""
        with self._caught:
            if self._served < 0:
                return
            self._asked += 1
            wanted = self._asked
            self._wake_out.send(b"\0")
            if not self._caught.wait_for(lambda: done() >= wanted or self._served < 0, timeout):
                log.debug("%s: not %s after %.1f s", self.name, what, timeout)

    def _events(self, buf: bytearray, end: int) -> None:
        """The recorded events in the reply `buf[:end]`, one 32-byte core event after another."""
        for offset in range(32, end - _EVENT_SIZE + 1, _EVENT_SIZE):
            kind, detail, xtime, x, y, state = _EVENT.unpack_from(buf, offset)
            try:
                self.handle(kind & 0x7F, detail, state, x, y, xtime)
            except Exception:  # one event that cannot be handled must not end capture
                log.exception("%s: an event could not be handled", self.name)

    def stop(self) -> None:
        """Disables the context (the server then ends the stream), waits for the thread, frees the context."""
        if self._thread.is_alive():
            try:
                self.display.record_disable_context(self.context)
                self.display.sync()
                self._wake_out.send(b"\0")  # a thread in its `rest` reads the end now
            except Exception:  # the X server is gone: the thread ends on its own
                pass
            self._thread.join(timeout=2)
        self._free()

    def _free(self) -> None:
        try:
            self.display.record_free_context(self.context)
            self.display.close()
        except Exception:  # already closed, or the X server is gone
            pass
