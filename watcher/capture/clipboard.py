"""Clipboard capture: text copies and text selected with the mouse, size-capped, read only when they change.

X11: the XFixes extension notifies us when the CLIPBOARD selection (a copy) or the PRIMARY selection (text
selected with the mouse: an error selected in a terminal is never copied) changes owner; only then do we ask the
owner for its TARGETS (the formats it offers) and, unless it marks the selection as a secret (`is_marked_secret`),
for its text (no polling, no process spawned per read). Both requests carry the time the owner took the selection,
so an owner that took it since (ICCCM: Qt and GTK check the time) refuses them rather than answering with its own
content; an answer to an earlier request is dropped. A drag takes PRIMARY again as it goes, so PRIMARY is read once,
after its owner has kept it `PRIMARY_SETTLE_SECONDS` with no mouse button held. Texts larger than `max_chars` are
cut, and the row says so. Both are CLIPBOARD-kind events, a selection's data saying `"selection": "primary"` (a
copy's says nothing more than before), so the privacy filter and the assistant treat them alike; selecting then
pressing the copy key is told once (`OneCopy`). The source application is attributed by the pipeline (the focused
window at the time of the copy), and the privacy filter drops copies made in excluded or password contexts
(password managers copy passwords).

A copy or selection its owner marks as a secret (password managers: KeePassXC, KDE's Klipper, 1Password,
Bitwarden...; see `is_marked_secret`) is never read: it is recorded as the fact of it (`secret_event`: no text, no
length), and the episode says "The user copies a secret from ..." ("selects a secret in ..."). Tested on X11 and
on Wayland (wl_clipboard.py) with a real Qt owner offering `x-kde-passwordManagerHint`
(tests/test_clipboard_secrets.py, tests/test_primary_selection.py).

Windows/macOS: the clipboard's change counter polled once a second, its formats checked for the marks before the
text is read with pyperclip; UNTESTED here.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
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


#: How long the PRIMARY selection must keep its owner before it is read: a drag may take it again as it goes, and
#: the selection is read once, when the person has chosen what to select (a mouse button still held postpones the
#: read: the drag is not over).
PRIMARY_SETTLE_SECONDS = 0.4
#: A CLIPBOARD copy of the text a PRIMARY selection held this shortly before is the same act (select, then the
#: copy key): see `OneCopy`.
SAME_ACT_SECONDS = 2.0


class OneCopy:
    """Which copies and selections are new, across the CLIPBOARD and PRIMARY selections of one source.

    Selecting text and then pressing the copy key is one act that sets both selections with the same text,
    PRIMARY first. The simplest rule that tells it once, without delaying either event or taking one back: the
    first told stands, the second is not new.
    - a PRIMARY selection whose text is that of the last copy or selection told (however long ago), or of any
      told in the last `SAME_ACT_SECONDS`, is not new: the same text selected again, a terminal that sets both
      at once, an owner that takes PRIMARY again without changing it, a selection read after its settling time
      when the copy it led to was told first;
    - a CLIPBOARD copy whose text is that of a PRIMARY selection told in the last `SAME_ACT_SECONDS` is not new:
      it was told as selected a moment ago. Any other copy is, as before (the same text copied twice is two
      copies; selected long ago and copied now, a new moment).
    Texts are compared by a digest of the text kept and the whole length, so no text is held here; an event with
    no text read (a secret, a copy too large) is always new. Thread-safe: on Wayland each selection has its own
    reader thread."""

    def __init__(self, window: float = SAME_ACT_SECONDS):
        self.window = window
        self._lock = threading.Lock()
        # (selection, digest, monotonic time) of those told in the last `window` seconds, and the last one told
        self._told: list[tuple[str, bytes | None, float]] = []

    def is_new(self, event: RawEvent) -> bool:
        """Whether `event` (a CLIPBOARD-kind event, with `"selection": "primary"` for PRIMARY) is to be told;
        remembered as told when it is."""
        selection = "primary" if event.data.get("selection") == "primary" else "clipboard"
        text = event.data.get("text") or ""
        digest = (hashlib.sha256(f"{event.data.get('length')}:{text}".encode()).digest()
                  if text and not event.data.get("private") else None)
        now = time.monotonic()
        with self._lock:
            recent = [told for told in self._told if now - told[2] < self.window]
            if digest is not None:
                if selection == "primary":
                    if any(told[1] == digest for told in [*recent, *self._told[-1:]]):
                        return False
                elif any(told[0] == "primary" and told[1] == digest for told in recent):
                    return False
            self._told = [*recent, (selection, digest, now)]
            return True


class X11Clipboard(Source):
    """Text copies (the CLIPBOARD selection) and text selected with the mouse (PRIMARY) on X11, both through XFixes
    notifications of a new owner, on one connection. A copy is read at once; a PRIMARY selection once it has kept
    its owner `PRIMARY_SETTLE_SECONDS` with no mouse button held (`SelectionReader`). Both are CLIPBOARD-kind
    events, a selection's data saying `"selection": "primary"`; `OneCopy` tells select-then-copy once."""

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
        link = _Link(display=display, window=screen.root.create_window(0, 0, 1, 1, 0, screen.root_depth),
                     utf8=display.intern_atom("UTF8_STRING"), targets=display.intern_atom("TARGETS"),
                     incr=display.intern_atom("INCR"),
                     marks={display.intern_atom(name): name for name in SECRET_MARKS},  # interned once
                     emit=emit, max_chars=self.max_chars, source=self.name, one_copy=OneCopy())
        readers = {reader.atom: reader for reader in (
            SelectionReader(link, "CLIPBOARD", "PROACTIVE_CLIP", "PROACTIVE_TARGETS"),
            SelectionReader(link, "PRIMARY", "PROACTIVE_PRIMARY", "PROACTIVE_PRIMARY_TARGETS",
                            settle=PRIMARY_SETTLE_SECONDS))}
        for atom in readers:
            display.xfixes_select_selection_input(link.window, atom, xfixes.XFixesSetSelectionOwnerNotifyMask)
        display.sync()  # the server has taken the requests: a copy made once `start` returns is seen
        owner_event = display.extension_event.SetSelectionOwnerNotify

        def handle(event: Any) -> None:
            if (event.type, getattr(event, "sub_code", None)) == owner_event:
                reader = readers.get(event.selection)
                if reader is not None:
                    reader.owner_changed(event)
            elif event.type == Xlib.X.SelectionNotify and event.selection in readers:
                readers[event.selection].answered(event)

        def tick() -> float | None:
            waits = [wait for reader in readers.values() if (wait := reader.tick()) is not None]
            return min(waits, default=None)

        self._thread = XEventThread(display, handle, "x11-clipboard", tick)
        self._thread.start()

    def probe(self) -> Probe:
        """The X display opens and has XFIXES (clipboard owner changes are notified through it)."""
        return x11_probe(self.name, "copied and selected text", "XFIXES")

    def sync(self, timeout: float) -> None:
        if self._thread is not None:
            self._thread.sync(timeout)

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None


@dataclass
class _Link:
    """What the readers of the selections share: the connection and its window, the atoms they ask with, where the
    events go."""

    display: Any
    window: Any  # ours: the owner puts its answers in its properties
    utf8: int
    targets: int
    incr: int
    marks: dict[int, str]  # the atoms of SECRET_MARKS, and their names
    emit: Emit
    max_chars: int
    source: str
    one_copy: OneCopy


class SelectionReader:
    """One X selection (CLIPBOARD or PRIMARY) read from its owner at each new owner.

    When the selection changes owner, we ask the owner for its TARGETS (the formats it offers) and, unless it marks
    the selection as a secret (`is_marked_secret`), for its text. Both requests carry the time the owner took the
    selection, so an owner that took it since (ICCCM: Qt and GTK check the time) refuses them rather than answering
    with its own content; an answer to an earlier request is dropped. With `settle` (PRIMARY), the owner is asked
    only once it has kept the selection that long with no mouse button held, the time of its latest taking."""

    def __init__(self, link: _Link, selection: str, text_property: str, targets_property: str,
                 settle: float = 0.0):
        display = link.display
        self.link = link
        self.atom = display.intern_atom(selection)
        self.primary = selection == "PRIMARY"
        self.prop = display.intern_atom(text_property)  # where the owner puts the text
        self.offers = display.intern_atom(targets_property)  # and what it offers: a late answer overwrites no text
        self.settle = settle
        self.announce: Callable[[int], object] | None = getattr(link.emit, "announce", None)
        # the server's time of the last owner change (its event is ordered by it) and its announcement
        # (ordering.py): keys pressed after it wait until its text has been read from the owner
        self.copied: int | None = None
        self.announcing: list[object] = []
        # the selection being read: the time its owner took it (sent with each request and echoed in each answer)
        # and what was asked of it ("targets", then "text"; "" once read or while it settles)
        self.time: int | None = None
        self.what = ""
        self.due: float | None = None  # (settle) when to ask, monotonic

    def owner_changed(self, event: Any) -> None:
        import Xlib.X

        if not event.owner:  # cleared (its owner exited)
            return
        self.copied = event.timestamp
        self._settle()
        if self.announce is not None:
            self.announcing.append(self.announce(event.timestamp))
        self.time = getattr(event, "selection_timestamp", 0) or Xlib.X.CurrentTime
        if self.settle:
            self.what = ""  # an answer still on its way is for an earlier owner: dropped
            self.due = time.monotonic() + self.settle
        else:
            self._ask("targets", self.link.targets, self.offers)  # first what it offers: a secret's text never

    def tick(self) -> float | None:
        """(settle) Asks the owner once the selection has settled; the seconds until then, or None."""
        if self.due is None:
            return None
        left = self.due - time.monotonic()
        if left > 0:
            return left
        if self._button_held():  # the drag goes on: look again later, keeping keys typed after it waiting
            self.due = time.monotonic() + self.settle
            if self.announce is not None and self.copied is not None:
                token = self.announce(self.copied)  # afresh, before the old one is let go: an old announcement
                self._settle()  # is dropped after a few seconds (ordering.PENDING_SECONDS)
                self.announcing.append(token)
            return self.settle
        self.due = None
        self._ask("targets", self.link.targets, self.offers)
        return None

    def _button_held(self) -> bool:
        import Xlib.X

        mask = self.link.display.screen().root.query_pointer().mask
        return bool(mask & (Xlib.X.Button1Mask | Xlib.X.Button2Mask | Xlib.X.Button3Mask))

    def answered(self, event: Any) -> None:
        """The owner's answer (SelectionNotify) to one of our requests."""
        what = self.what
        if not what or event.time != self.time or event.target != (self.link.targets if what == "targets"
                                                                   else self.link.utf8):
            self._drop(event)  # an answer to an earlier request: the newer selection is being read
            return
        done = True
        try:
            if what == "targets":
                offered = self._read_targets(event)
                if offered is None:  # refused: whether it is a secret cannot be known, so it is not read
                    self.what = ""
                    log.debug("a selection's owner did not say what it offers; its text is not read")
                elif is_marked_secret(offered):
                    self.what = ""
                    self._tell(secret_event(self.link.source, self.copied))
                else:
                    done = False
                    self._ask("text", self.link.utf8, self.prop)
                return
            self.what = ""
            copy = self._read(event)
            if copy is not None:
                self._tell(copy)
        finally:
            if done:
                self._settle()

    def _tell(self, event: RawEvent) -> None:
        """Emits what was read (a selection's data saying so) unless it repeats what was just told (`OneCopy`)."""
        if self.primary:
            event.data["selection"] = "primary"
        if self.link.one_copy.is_new(event):
            self.link.emit(event)

    def _settle(self) -> None:
        while self.announcing:
            self.link.emit.settle(self.announcing.pop())  # type: ignore[attr-defined]  # (it announced)

    def _ask(self, what: str, target: int, into: int) -> None:
        self.what = what
        self.link.window.convert_selection(self.atom, target, into, self.time)
        self.link.display.flush()

    def _drop(self, event: Any) -> None:
        """A late answer: text (an owner that answered for a selection replaced since) is not left on the server."""
        if event.property == self.prop:
            self.link.window.delete_property(self.prop)
            self.link.display.flush()

    def _read_targets(self, event: Any) -> list[str] | None:
        """The secret marks among the formats the owner offers ([] for none), or None when it said nothing."""
        import Xlib.X

        if event.property == Xlib.X.NONE:
            return None
        window = self.link.window
        value = window.get_full_property(self.offers, Xlib.X.AnyPropertyType, sizehint=4096)
        window.delete_property(self.offers)
        self.link.display.flush()
        if value is None or value.property_type == self.link.incr or value.format != 32:
            return None
        return [self.link.marks[atom] for atom in value.value if atom in self.link.marks]

    def _read(self, event: Any) -> RawEvent | None:
        """What the owner's answer holds: its text, or a note that it was too large; None without text."""
        import Xlib.X

        if event.property == Xlib.X.NONE:
            return None  # the owner has no text (an image, files)
        link = self.link
        value = link.window.get_full_property(self.prop, Xlib.X.AnyPropertyType, sizehint=link.max_chars * 4)
        link.window.delete_property(self.prop)
        link.display.flush()
        if value is None:
            return None
        if value.property_type == link.incr:  # too large for one transfer: note it, keep none of it
            return RawEvent(link.source, CLIPBOARD, {"text": "", "length": None, "truncated": True},
                            xtime=self.copied)
        raw = value.value if isinstance(value.value, bytes) else bytes(value.value)
        return clip_event(raw.decode("utf-8", "replace"), link.max_chars, link.source, self.copied)


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
