"""Clipboard capture: text copies, size-capped, read only when the clipboard changes.

X11: the XFixes extension notifies us when the CLIPBOARD selection changes owner; only then do we ask the owner
for its TARGETS (the formats it offers) and, unless it marks the copy as a secret (`is_marked_secret`), for its
text (no polling, no process spawned per read). Both requests carry the time the owner took the selection, so an
owner that took it since (ICCCM: Qt and GTK check the time) refuses them rather than answering with its own copy;
an answer to an earlier copy's request is dropped. Copies larger than `max_chars` are cut, and the row says so.
The source application is attributed by the pipeline (the focused window at the time of the copy), and the
privacy filter drops copies made in excluded or password contexts (password managers copy passwords).

A copy its owner marks as a secret (password managers: KeePassXC, KDE's Klipper, 1Password, Bitwarden...; see
`is_marked_secret`) is never read: it is recorded as a copy of a secret (`secret_event`: no text, no length), and
the episode says "The user copies a secret from ...". Tested on X11 and on Wayland (wl_clipboard.py) with a real
Qt owner offering `x-kde-passwordManagerHint` (tests/test_clipboard_secrets.py).

Windows/macOS: the clipboard's change counter polled once a second, its formats checked for the marks before the
text is read with pyperclip; UNTESTED here.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from proactive.watcher.capture.sources import Probe, Source, SourceUnavailable
from proactive.watcher.capture.x11 import XEventThread, open_display, x11_probe
from proactive.watcher.events import CLIPBOARD, Emit, RawEvent

log = logging.getLogger(__name__)

#: The format by which a password manager marks its copy as a secret that clipboard managers and history must not
#: keep: an X11 target or a Wayland MIME type whose content is "secret" (KDE's convention: Klipper honours it,
#: KeePassXC and other Qt password managers set it).
PASSWORD_HINT = "x-kde-passwordManagerHint"
#: macOS pasteboard types with the same meaning (nspasteboard.org): a concealed copy (a password) and a transient
#: one (not to be kept).
MAC_CONCEALED = "org.nspasteboard.ConcealedType"
MAC_TRANSIENT = "org.nspasteboard.TransientType"
#: Windows registered clipboard formats: present, the copy is not for clipboard monitors; "can include in clipboard
#: history" holding the DWORD 0, it must not be kept either (Windows' own history honours both).
WIN_EXCLUDE = "ExcludeClipboardContentFromMonitorProcessing"
WIN_HISTORY = "CanIncludeInClipboardHistory"
#: Every format name that may mark a copy as a secret, on any platform.
SECRET_MARKS = (PASSWORD_HINT, MAC_CONCEALED, MAC_TRANSIENT, WIN_EXCLUDE, WIN_HISTORY)


def is_marked_secret(offered: Mapping[str, bytes | None] | Iterable[str]) -> bool:
    """Whether the owner of a copy marks it as a secret not to be kept, from the formats it offers: their names,
    or a mapping of each name to its content (None: it could not be read). Names compare without case.

    - `x-kde-passwordManagerHint` (X11 target, Wayland MIME type): its one defined content is "secret", so its
      presence is the mark, whatever it holds and whether or not it can be read (fail closed).
    - `org.nspasteboard.ConcealedType`, `org.nspasteboard.TransientType` (macOS): present.
    - `ExcludeClipboardContentFromMonitorProcessing` (Windows): present.
    - `CanIncludeInClipboardHistory` (Windows): a DWORD 0 forbids keeping the copy; present but not read (a list
      of names, None, fewer than 4 bytes) counts as 0 (fail closed); any other value allows it.

    The macOS and Windows names are used by `PollingClipboard` (UNTESTED here); X11 and Wayland only meet the KDE
    hint, tested with a real Qt owner."""
    contents: Mapping[str, bytes | None] = (
        offered if isinstance(offered, Mapping) else dict.fromkeys(offered, None))
    for name, content in contents.items():
        name = str(name).lower()
        if name == WIN_HISTORY.lower():
            if content is None or len(content) < 4 or int.from_bytes(content[:4], "little") == 0:
                return True
        elif name in _ALWAYS_SECRET:
            return True
    return False


_ALWAYS_SECRET = frozenset(name.lower() for name in SECRET_MARKS if name != WIN_HISTORY)


def clip_event(text: str, max_chars: int, source: str = "clipboard", xtime: int | None = None) -> RawEvent:
    return RawEvent(source, CLIPBOARD, {"text": text[:max_chars], "length": len(text),
                                        "truncated": len(text) > max_chars}, xtime=xtime)


def secret_event(source: str = "clipboard", xtime: int | None = None) -> RawEvent:
    """A copy its owner marks as a secret (`is_marked_secret`): only the fact of it, never its text or length."""
    return RawEvent(source, CLIPBOARD, {"text": "", "length": None, "truncated": False, "private": True},
                    xtime=xtime)


class X11Clipboard(Source):
    name = "clipboard"

    def __init__(self, max_chars: int = 2000) -> None:
        self.max_chars = max_chars
        self._thread: XEventThread | None = None

    def start(self, emit: Emit) -> None:
        import Xlib.X
        from Xlib.ext import xfixes

        display = open_display()
        if not display.has_extension("XFIXES"):
            display.close()
            raise SourceUnavailable("the X server has no XFIXES extension")
        display.xfixes_query_version()
        screen = display.screen()
        window = screen.root.create_window(0, 0, 1, 1, 0, screen.root_depth)
        clipboard = display.intern_atom("CLIPBOARD")
        utf8 = display.intern_atom("UTF8_STRING")
        targets = display.intern_atom("TARGETS")
        incr = display.intern_atom("INCR")
        prop = display.intern_atom("PROACTIVE_CLIP")  # where the owner puts the text
        offers = display.intern_atom("PROACTIVE_TARGETS")  # and what it offers: a late answer overwrites no text
        marks = {display.intern_atom(name): name for name in SECRET_MARKS}  # interned once: no lookup per copy
        display.xfixes_select_selection_input(window, clipboard, xfixes.XFixesSetSelectionOwnerNotifyMask)
        display.sync()  # the server has taken the request: a copy made once `start` returns is seen
        owner_event = display.extension_event.SetSelectionOwnerNotify
        # the server's time of the last copy (its event is ordered by it) and its announcement (ordering.py):
        # keys pressed after the copy wait until its text has been read from the owner
        copied: list[int | None] = [None]
        announcing: list[object] = []
        announce = getattr(emit, "announce", None)
        # the copy being read: the time its owner took the selection (sent with each request and echoed in each
        # answer) and what was asked of it ("targets", then "text"; "" once read)
        asking: dict[str, Any] = {"time": None, "what": ""}

        def settle() -> None:
            while announcing:
                emit.settle(announcing.pop())  # type: ignore[attr-defined]  # (it announced)

        def ask(what: str, target: int, into: int) -> None:
            asking["what"] = what
            window.convert_selection(clipboard, target, into, asking["time"])
            display.flush()

        def handle(event: Any) -> None:
            if (event.type, getattr(event, "sub_code", None)) == owner_event:
                if not event.owner:  # clipboard cleared (its owner exited)
                    return
                copied[0] = event.timestamp
                settle()
                if announce is not None:
                    announcing.append(announce(event.timestamp))
                asking["time"] = getattr(event, "selection_timestamp", 0) or Xlib.X.CurrentTime
                ask("targets", targets, offers)  # first what it offers: a secret's text is never asked for
            elif event.type == Xlib.X.SelectionNotify and event.selection == clipboard:
                what = asking["what"]
                if not what or event.time != asking["time"] or event.target != (targets if what == "targets"
                                                                                 else utf8):
                    drop(event)  # an answer to an earlier copy's request: the newer copy is being read
                    return
                done = True
                try:
                    if what == "targets":
                        offered = read_targets(event)
                        if offered is None:  # refused: whether it is a secret cannot be known, so it is not read
                            asking["what"] = ""
                            log.debug("a clipboard owner did not say what it offers; its copy is not read")
                        elif is_marked_secret(offered):
                            asking["what"] = ""
                            emit(secret_event(self.name, copied[0]))
                        else:
                            done = False
                            ask("text", utf8, prop)
                        return
                    asking["what"] = ""
                    copy = read(event)
                    if copy is not None:
                        emit(copy)
                finally:
                    if done:
                        settle()

        def drop(event: Any) -> None:
            """A late answer: text (an owner that answered for a copy replaced since) is not left on the server."""
            if event.property == prop:
                window.delete_property(prop)
                display.flush()

        def read_targets(event: Any) -> list[str] | None:
            """The secret marks among the formats the owner offers ([] for none), or None when it said nothing."""
            if event.property == Xlib.X.NONE:
                return None
            value = window.get_full_property(offers, Xlib.X.AnyPropertyType, sizehint=4096)
            window.delete_property(offers)
            display.flush()
            if value is None or value.property_type == incr or value.format != 32:
                return None
            return [marks[atom] for atom in value.value if atom in marks]

        def read(event: Any) -> RawEvent | None:
            """The copy the owner's answer holds: its text, or a note that it was too large; None without text."""
            if event.property == Xlib.X.NONE:
                return None  # the owner has no text (an image, files)
            value = window.get_full_property(prop, Xlib.X.AnyPropertyType, sizehint=self.max_chars * 4)
            window.delete_property(prop)
            display.flush()
            if value is None:
                return None
            if value.property_type == incr:  # too large for one transfer: note the copy, keep none of it
                return RawEvent(self.name, CLIPBOARD, {"text": "", "length": None, "truncated": True}, xtime=copied[0])
            raw = value.value if isinstance(value.value, bytes) else bytes(value.value)
            return clip_event(raw.decode("utf-8", "replace"), self.max_chars, self.name, copied[0])

        self._thread = XEventThread(display, handle, "x11-clipboard")
        self._thread.start()

    def probe(self) -> Probe:
        """The X display opens and has XFIXES (clipboard owner changes are notified through it)."""
        return x11_probe(self.name, "copied text", "XFIXES")

    def sync(self, timeout: float) -> None:
        if self._thread is not None:
            self._thread.sync(timeout)

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None


class PollingClipboard(Source):
    """Windows and macOS: the clipboard's change counter (Windows' sequence number, NSPasteboard's changeCount)
    polled once a second; at a change the formats offered are checked for the marks of a secret
    (`is_marked_secret`: the registered formats on Windows, the pasteboard types on macOS) before the text is read
    with pyperclip, and a text read while the clipboard changed again is dropped (the next poll reads the new
    copy). A copy whose formats cannot be listed is not read. UNTESTED here."""

    name = "clipboard"

    def __init__(self, max_chars: int = 2000, interval: float = 1.0) -> None:
        self.max_chars = max_chars
        self.interval = interval
        self._stop = threading.Event()

    def start(self, emit: Emit) -> None:  # pragma: no cover - Windows and macOS only, untested here
        import pyperclip

        changes, offered = _polling_backend()

        def run() -> None:
            last = changes()
            while not self._stop.wait(self.interval):
                try:
                    now = changes()
                    if now == last:
                        continue
                    last = now
                    if is_marked_secret(offered()):
                        emit(secret_event(self.name))
                        continue
                    text = pyperclip.paste()
                    if changes() != now:  # changed while read: maybe to a secret; the next poll reads it
                        continue
                except Exception:
                    log.exception("clipboard read failed; the copy is not recorded")
                    continue
                if text:
                    emit(clip_event(text, self.max_chars, self.name))

        threading.Thread(target=run, name="poll-clipboard", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()


def _polling_backend() -> tuple[Callable[[], int], Callable[[], Mapping[str, bytes | None] | list[str]]]:
    """(the change counter, the formats offered now) of this platform's clipboard. UNTESTED here."""
    if sys.platform == "win32":  # pragma: no cover - Windows only
        return _windows_sequence, _windows_formats
    if sys.platform == "darwin":  # pragma: no cover - macOS only
        from AppKit import NSPasteboard  # type: ignore[import-not-found]

        board = NSPasteboard.generalPasteboard()
        return (lambda: int(board.changeCount())), (lambda: [str(t) for t in (board.types() or [])])
    raise SourceUnavailable(f"no clipboard capture for {sys.platform}")


def _windows_sequence() -> int:  # pragma: no cover - Windows only, untested here
    import ctypes

    return int(ctypes.windll.user32.GetClipboardSequenceNumber())  # type: ignore[attr-defined]


def _windows_formats() -> dict[str, bytes | None]:  # pragma: no cover - Windows only, untested here
    """The registered formats on the clipboard that mark a secret, each with its content where it matters
    (CanIncludeInClipboardHistory's DWORD; None when it cannot be read). Raises OSError when the clipboard cannot
    be opened (another program holds it): the copy is then not read."""
    import ctypes
    from ctypes import wintypes

    user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    user32.GetClipboardData.restype = wintypes.HANDLE
    kernel32.GlobalLock.restype = ctypes.c_void_p
    kernel32.GlobalLock.argtypes = [wintypes.HANDLE]
    kernel32.GlobalUnlock.argtypes = [wintypes.HANDLE]
    kernel32.GlobalSize.restype = ctypes.c_size_t
    kernel32.GlobalSize.argtypes = [wintypes.HANDLE]
    found: dict[str, bytes | None] = {}
    if not user32.OpenClipboard(None):
        raise OSError("the clipboard is open in another program")
    try:
        fmt = user32.EnumClipboardFormats(0)
        name = ctypes.create_unicode_buffer(256)
        while fmt:
            if user32.GetClipboardFormatNameW(fmt, name, 256) and name.value.lower() in _MARKS_LOWER:
                content = None
                handle = user32.GetClipboardData(fmt)
                pointer = kernel32.GlobalLock(handle) if handle else None
                if pointer:
                    content = ctypes.string_at(pointer, min(int(kernel32.GlobalSize(handle)), 4))
                    kernel32.GlobalUnlock(handle)
                found[name.value] = content
            fmt = user32.EnumClipboardFormats(fmt)
    finally:
        user32.CloseClipboard()
    return found


_MARKS_LOWER = frozenset(name.lower() for name in SECRET_MARKS)
