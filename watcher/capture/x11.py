"""Shared plumbing for the X11 sources: a display connection served by a thread that sleeps in select(), and the
checks their probes make (`x11_probe`, `x11_window_manager`).

Each X11 source owns its own connection (Xlib displays are not thread-safe) and reacts to X events instead of
polling, so an idle desktop costs nothing (`stop()` wakes the thread through a pipe). The probes live
here, beside the connection they check, so a source asks nothing of `doctor.py` (which gathers the probes) and the
doctor can import the sources without a circle. A probe opens a display connection for a moment and closes it.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections.abc import Callable
from typing import Any

from proactive.watcher.capture.session import NO_DISPLAY_FIX
from proactive.watcher.capture.sources import Probe, SourceUnavailable

log = logging.getLogger(__name__)


#: tries to connect to an X server that is resetting (see open_display)
RESET_ATTEMPTS = 5


def _protocol_error(error: Any, request: Any) -> None:
    """An X error no request waited for (a window that closed before we asked about it: BadWindow): normal on a
    live desktop, so it goes to the debug log, not to stderr as python-xlib prints it by default."""
    log.debug("X protocol error (ignored): %s", error)


_OWN_TABLES = False  # _own_event_classes has run


def _own_event_classes() -> None:
    """Give each display connection its own tables of extension opcodes, event and error classes. python-xlib
    keeps them on the class, shared by every connection of the process, and each connection writes its X
    server's extension numbers into them: a process that opens a second X server whose extensions are numbered
    otherwise (Xvfb, then Xwayland) crashed in `Display()` with "'type' object does not support item assignment"
    (seen in the suite, where one worker talks to several servers), or would send the first server the second's
    opcodes."""
    import Xlib.protocol.display
    import Xlib.protocol.event
    from Xlib import error

    global _OWN_TABLES
    if _OWN_TABLES:
        return
    base = Xlib.protocol.display.Display
    original = base.__init__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        self.extension_major_opcodes = {}
        self.error_classes = error.xerror_class.copy()
        self.event_classes = {code: dict(kind) if isinstance(kind, dict) else kind
                              for code, kind in Xlib.protocol.event.event_class.items()}
        original(self, *args, **kwargs)

    base.__init__ = __init__  # type: ignore[method-assign]
    _OWN_TABLES = True


def open_display() -> Any:
    try:
        import Xlib.display
        import Xlib.error
        import Xlib.threaded  # noqa: F401  (real locks: a source's thread sends requests on a display another
        # thread uses too (the keyboard's keymap reads beside stop()); without it two threads read one socket
        # and a reply taken by the wrong one left the other waiting for ever)
    except ImportError as exc:
        raise SourceUnavailable(f"python-xlib is not installed: {exc}") from exc
    _own_event_classes()
    for attempt in range(RESET_ATTEMPTS):
        try:
            display = Xlib.display.Display()
            display.set_error_handler(_protocol_error)
            return display
        except (Xlib.error.ConnectionClosedError, ConnectionResetError) as exc:
            # an X server with no client left resets itself and drops connections made meanwhile (a bare Xvfb,
            # a session whose last program just quit): a moment later it answers again
            if attempt == RESET_ATTEMPTS - 1:
                raise SourceUnavailable(f"cannot open the X display: {exc}") from exc
            time.sleep(0.05 * (attempt + 1))
        except (Xlib.error.DisplayError, OSError) as exc:
            raise SourceUnavailable(f"cannot open the X display: {exc}") from exc
    raise AssertionError("unreachable")


class XEventThread:
    """Runs `handle(event)` for every X event on `display` until stopped.

    The thread sleeps in select() on the display and on a pipe with no timeout: `stop()` and `sync()` write to the
    pipe. An idle desktop costs no wake-up at all (a timeout to notice `stop()` would cost two a second per
    source). A source that must act a while after an event (the clipboard's PRIMARY selection, read once it
    settles) gives `tick`: called in the thread before each sleep, it does what is due and returns the seconds
    until it wants to be called again, or None to sleep until the next event."""

    def __init__(self, display: Any, handle: Callable[[Any], None], name: str,
                 tick: Callable[[], float | None] | None = None):
        self.display = display
        self.handle = handle
        self.tick = tick
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._synced = threading.Condition()
        self._asked = self._served = 0  # sync requests made, and how many the thread has served (-1: it ended)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        import Xlib.error

        try:
            while not self._stop.is_set():
                wait = self._tick()
                # events python-xlib has already read (with a reply) are pending without the socket being readable
                if not self.display.pending_events() and self._wake_r in select.select([self.display, self._wake_r],
                                                                                       [], [], wait)[0]:
                    os.read(self._wake_r, 64)  # before `asked` is read: a request after this leaves its byte
                if self._stop.is_set():
                    break
                asked = self._asked
                if asked != self._served:
                    self.display.sync()  # a round trip: what the server sent before its reply is queued now
                while self.display.pending_events():
                    event = self.display.next_event()
                    try:
                        self.handle(event)
                    except Xlib.error.XError as exc:  # a window vanished under us: routine
                        log.debug("X error in %s: %s", self._thread.name, exc)
                if asked != self._served:
                    with self._synced:
                        self._served = asked
                        self._synced.notify_all()
        except Exception:  # the connection died (X server gone): stop this source, keep the watcher alive
            log.exception("%s stopped", self._thread.name)
        finally:
            with self._synced:
                self._served = self._asked = -1  # nobody waits for a thread that has ended
                self._synced.notify_all()
            try:
                self.display.close()
            except Exception:
                pass
            os.close(self._wake_r)

    def _tick(self) -> float | None:
        """The source's timed work (`tick`), and how long the thread may then sleep (None: until an event)."""
        import Xlib.error

        if self.tick is None:
            return None
        try:
            return self.tick()
        except Xlib.error.XError as exc:  # a window vanished under us: routine
            log.debug("X error in %s: %s", self._thread.name, exc)
            return None

    def sync(self, timeout: float) -> None:
        """Returns once every event the server had sent this connection when called has been handled (or after
        `timeout`): the thread makes a round trip, then handles what came before its reply. For a flush request
        (`Source.sync`); the order of events between sources is `ordering.ServerOrder`'s, not this."""
        if not self._thread.is_alive() or threading.current_thread() is self._thread:
            return
        with self._synced:
            if self._served < 0 or self._stop.is_set():
                return
            self._asked += 1
            wanted = self._asked
            try:
                os.write(self._wake_w, b"s")
            except OSError:  # the thread is ending
                return
            if not self._synced.wait_for(lambda: self._served >= wanted or self._served < 0, timeout):
                log.debug("%s: not synced after %.1f s", self._thread.name, timeout)

    def stop(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        try:
            os.write(self._wake_w, b"x")
        except OSError:  # the thread has ended already (its X server is gone)
            pass
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        os.close(self._wake_w)


# -- the probes ---------------------------------------------------------------------------------------------------

def x11_probe(source: str, captures: str, extension: str | None = None) -> Probe:
    """The X11 sources' probe: the display can be opened and has `extension` (when named): what the source's start
    needs."""
    source = f"{source} (X11)"
    if not os.environ.get("DISPLAY"):
        return Probe(source, captures, False, "DISPLAY is not set: no X display", NO_DISPLAY_FIX)
    try:
        display = open_display()
    except SourceUnavailable as exc:
        fix = ("reinstall Proactive (python-xlib is one of its dependencies)" if "python-xlib" in str(exc) else
               f"check that the X server at DISPLAY={os.environ['DISPLAY']} runs and lets you in (XAUTHORITY)")
        return Probe(source, captures, False, str(exc), fix)
    try:
        detail = f"X display {os.environ['DISPLAY']}"
        if extension is not None:
            if not display.has_extension(extension):
                return Probe(source, captures, False, f"the X server has no {extension} extension",
                             f"use an X server with {extension} (Xorg and Xvfb have it by default)")
            detail += f", {extension} extension"
        if os.environ.get("WAYLAND_DISPLAY"):
            detail += "; XWayland: native Wayland windows are not seen"
    finally:
        display.close()
    return Probe(source, captures, True, detail)


def x11_window_manager() -> str | None:
    """The EWMH window manager's name (_NET_SUPPORTING_WM_CHECK's _NET_WM_NAME; "" when it gives none), or None
    when no window manager runs or there is no X display to ask."""
    if not os.environ.get("DISPLAY"):
        return None
    try:
        display = open_display()
    except SourceUnavailable:
        return None
    try:
        import Xlib.X

        root = display.screen().root
        check = root.get_full_property(display.intern_atom("_NET_SUPPORTING_WM_CHECK"), Xlib.X.AnyPropertyType)
        if not check or not len(check.value):
            return None
        window = display.create_resource_object("window", int(check.value[0]))
        name = window.get_full_property(display.intern_atom("_NET_WM_NAME"), display.intern_atom("UTF8_STRING"))
        if name is None:
            return ""
        value = name.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    except Exception:  # the check window vanished (the window manager is exiting): none
        return None
    finally:
        display.close()
