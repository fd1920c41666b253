"""Clipboard capture on Wayland: `wl-paste --watch` (wl-clipboard), event-driven through the data-control protocol
(wlroots' `zwlr_data_control_manager_v1` or `ext_data_control_manager_v1`), never polled.

wl-paste runs a tiny shell command each time the selection changes: it copies the new text (`--type text`: text
offers only; images and files are never read) to its stdout, which is our pipe, followed by a delimiter made of
control characters and a random token of this run, so one long-lived reader thread splits the stream into copies
without a process of ours per copy. Only the first `max_chars` characters are kept (the rest is counted and
dropped as it streams), as `clipboard.clip_event` does on X11. The selection present when capture starts is
not a copy the person made now, and is skipped. Copies of images or files (no text type) and a cleared clipboard
run nothing (checked on sway). Text selected with the mouse (the PRIMARY selection, which data-control offers
from its version 2: sway has it) is watched the same way by a second `wl-paste --primary --watch`, its types
listed with `--primary` too; a compositor without it makes that wl-paste exit at once, which the log says once.

An offer marked secret by a password manager (the MIME type `x-kde-passwordManagerHint`, as KeePassXC sets; see
`clipboard.is_marked_secret`) is never passed on: its text is discarded unread by the shell command and the copy
is recorded as a secret (`clipboard.secret_event`). wl-clipboard 2.2 and later say so themselves
(CLIPBOARD_STATE=sensitive, for the very offer being read); with older ones (Debian 12's 2.1) the command asks
`wl-paste --list-types`, which lists the selection of the moment, before and again after streaming the text: a
mark seen either time drops the copy, and a selection that cannot be listed is not read. Tested on headless sway
with a real Qt owner offering the text and the mark (tests/test_clipboard_secrets.py).

GNOME's Mutter offers no data-control, but it mirrors the Wayland clipboard to Xwayland's X11 selections (so X11
applications can paste): `XwaylandClipboard` reads copies there, through XFixes like the X11 source, with no
action from the person. Tested on headless GNOME Shell 43 (tests/test_gnome.py).
"""

from __future__ import annotations

import logging
import os
import secrets
import select
import shutil
import subprocess
import threading
import time

from proactive.watcher.capture.clipboard import (
    PASSWORD_HINT,
    PRIMARY_SETTLE_SECONDS,
    OneCopy,
    X11Clipboard,
    clip_event,
    secret_event,
)
from proactive.watcher.capture.sources import Probe, Source, SourceUnavailable
from proactive.watcher.capture.wayland import stop_helper
from proactive.watcher.events import Emit, RawEvent

log = logging.getLogger(__name__)

CAPTURES = "copied and selected text"
FIX_INSTALL = "install wl-clipboard (apt install wl-clipboard)"
FIX_PROTOCOL = ("none here: copies are not captured, as this compositor offers no data-control protocol "
                "(wlroots compositors such as sway and Hyprland, and KDE Plasma, have it)")
FIX_XWAYLAND = ("start the GNOME session with Xwayland (GNOME's default; a session started with --no-x11 has none): "
                "copies are read from Xwayland's clipboard, which GNOME keeps in step with Wayland's")
#: A copy's first bytes kept to decode its first `max_chars` characters (UTF-8: at most 4 bytes each).
BYTES_PER_CHAR = 4


#: Run by wl-paste for each copy, its text on stdin, this run's token as $0 (and $1 "--primary" for the PRIMARY
#: selection, so the types listed are its own). `marked` answers 0 (marked secret:
#: wl-clipboard's own CLIPBOARD_STATE, or the hint among the types listed), 1 (not marked) or 2 (the types could
#: not be listed). A marked copy prints only the delimiter with "S"; one that cannot be checked prints an empty copy
#: (nothing is said of it); any other prints its text then the delimiter with "T", or with "S" when the mark shows
#: up after all (listed again once the text is out: a newer selection may have replaced the one listed first).
#: A cleared selection (CLIPBOARD_STATE nil or clear, wl-clipboard 2.2) prints nothing.
WATCH_SCRIPT = """\
case "$CLIPBOARD_STATE" in nil|clear) exit 0;; esac
which=$1
mark() { printf '\\000\\036%s%s\\036\\000' "$1" "$0"; }
marked() {
  [ "$CLIPBOARD_STATE" = sensitive ] && return 0
  types=$(wl-paste $which --list-types 2>/dev/null) || return 2
  printf '%s\\n' "$types" | grep -qixF 'HINT' && return 0
  return 1
}
marked; seen=$?
if [ "$seen" -ne 1 ]; then
  cat >/dev/null
  if [ "$seen" -eq 0 ]; then mark S; else mark T; fi
else
  cat
  if marked; then mark S; else mark T; fi
fi
""".replace("HINT", PASSWORD_HINT)


def watch_command(token: str, primary: bool = False) -> list[str]:
    """wl-paste in watch mode (of the PRIMARY selection with `primary`), running `WATCH_SCRIPT` per copy: a copy
    marked secret prints only the delimiter with a "S" (secret) mark, anything else its text then the delimiter
    with "T"."""
    which = ["--primary"] if primary else []
    return ["wl-paste", *which, "--no-newline", "--type", "text", "--watch", "sh", "-c", WATCH_SCRIPT, token, *which]


class Framer:
    """Splits wl-paste's stream into copies: each copy is its text then NUL RS mark token RS NUL, where the mark
    is T (text) or S (secret: no text). Keeps at most `keep` bytes of each copy and counts the rest, so a huge
    copy costs no memory."""

    def __init__(self, token: str, keep: int):
        self.keep = keep
        self._ends = {b"\0\x1e" + mark + token.encode() + b"\x1e\0": mark == b"S" for mark in (b"T", b"S")}
        self._hold = max(len(end) for end in self._ends) - 1  # bytes that may be a delimiter's start
        self._pending = b""  # not yet searched through
        self._head = b""  # the current copy's kept bytes
        self._count = 0  # the current copy's bytes consumed so far

    def _consume(self, data: bytes) -> None:
        room = self.keep - len(self._head)
        if room > 0:
            self._head += data[:room]
        self._count += len(data)

    def feed(self, chunk: bytes) -> list[tuple[bytes, int, bool]]:
        """The copies completed by `chunk`: (kept bytes, total bytes, secret)."""
        self._pending += chunk
        done: list[tuple[bytes, int, bool]] = []
        while True:
            hits = [(at, end) for end in self._ends if (at := self._pending.find(end)) >= 0]
            if not hits:
                break
            at, end = min(hits)
            self._consume(self._pending[:at])
            done.append((self._head, self._count, self._ends[end]))
            self._head, self._count = b"", 0
            self._pending = self._pending[at + len(end):]
        cut = max(0, len(self._pending) - self._hold)
        self._consume(self._pending[:cut])
        self._pending = self._pending[cut:]
        return done


class WlClipboard(Source):
    """Text copies (the clipboard) and text selected with the mouse (the PRIMARY selection, where the compositor's
    data-control offers it: sway does) on Wayland, each through its own `wl-paste --watch`. A selection is told
    once it has held still `PRIMARY_SETTLE_SECONDS` (a client may set it again as a drag goes on), with
    `"selection": "primary"` in its data; select-then-copy is told once (`OneCopy`). Tested on headless sway."""

    name = "clipboard"
    captures = CAPTURES

    def __init__(self, max_chars: int = 2000) -> None:
        self.max_chars = max_chars
        self._watchers: list[tuple[subprocess.Popen[bytes], threading.Thread]] = []
        self._stop = threading.Event()
        self._one_copy = OneCopy()

    def probe(self) -> Probe:
        from proactive.watcher.capture.wayland import DATA_CONTROL, has_protocol

        label = "clipboard (wl-paste)"
        if not os.environ.get("WAYLAND_DISPLAY"):
            return Probe(label, CAPTURES, False, "WAYLAND_DISPLAY is not set", "run inside the Wayland session")
        if shutil.which("wl-paste") is None:
            return Probe(label, CAPTURES, False, "wl-paste is not installed", FIX_INSTALL)
        ok, detail = has_protocol(DATA_CONTROL)
        return Probe(label, CAPTURES, ok, detail, "" if ok else FIX_PROTOCOL)

    def start(self, emit: Emit) -> None:
        if shutil.which("wl-paste") is None:
            raise SourceUnavailable(f"wl-paste is not installed: {FIX_INSTALL}")
        from proactive.watcher.capture.wayland import DATA_CONTROL, has_protocol

        ok, detail = has_protocol(DATA_CONTROL)
        if not ok:
            raise SourceUnavailable(detail)  # the pipeline's warning adds the probe's fix
        for primary in (False, True):
            self._watch(emit, primary)

    def _watch(self, emit: Emit, primary: bool) -> None:
        """Starts `wl-paste --watch` on the clipboard (or PRIMARY) and the thread that reads what it prints."""
        which = ["--primary"] if primary else []
        try:  # what is on the selection now: wl-paste --watch reports it first, and that is not a new copy
            types = subprocess.run(["wl-paste", *which, "--list-types"], capture_output=True,
                                   timeout=5).stdout.decode("utf-8", "replace").split()
        except (OSError, subprocess.TimeoutExpired):
            types = []
        initial = any(t.startswith("text/") or t in ("UTF8_STRING", "STRING", "TEXT") for t in types)
        token = secrets.token_hex(8)
        proc = subprocess.Popen(watch_command(token, primary), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        thread = threading.Thread(target=self._read, args=(proc, emit, token, initial, primary),
                                  name="wl-primary" if primary else "wl-clipboard", daemon=True)
        self._watchers.append((proc, thread))
        thread.start()

    def _read(self, proc: subprocess.Popen[bytes], emit: Emit, token: str, skip_first: bool,
              primary: bool) -> None:
        """Tells each copy wl-paste prints; a PRIMARY selection only once no other has followed it for
        `PRIMARY_SETTLE_SECONDS` (until then it is held, and a newer one replaces it)."""
        framer = Framer(token, self.max_chars * BYTES_PER_CHAR)
        started = time.monotonic()
        out = proc.stdout.fileno()  # type: ignore[union-attr]  # (piped)
        held: RawEvent | None = None
        while True:
            if held is not None and not select.select([out], [], [], PRIMARY_SETTLE_SECONDS)[0]:
                self._tell(emit, held)
                held = None
                continue
            chunk = os.read(out, 65536)
            if not chunk:
                break
            for kept, total, secret in framer.feed(chunk):
                if skip_first and time.monotonic() - started < 2.0:
                    skip_first = False  # the selection that was there before capture started
                    continue
                skip_first = False
                if secret:  # its text (read only as far as the mark shown after it) is let go unread
                    event = secret_event(self.name)
                else:
                    event = clip_event(kept.decode("utf-8", "ignore"), self.max_chars, self.name)
                    if total > len(kept):
                        event.data.update(length=None, truncated=True)
                if primary:
                    event.data["selection"] = "primary"
                    held = event
                else:
                    self._tell(emit, event)
        if held is not None and not self._stop.is_set():
            self._tell(emit, held)
        if not self._stop.is_set():
            err = proc.stderr.read().decode("utf-8", "replace").strip() if proc.stderr else ""
            log.warning("%s capture stopped: wl-paste exited (%s)%s", "primary selection" if primary else "clipboard",
                        proc.poll(), f": {err}" if err else "")

    def _tell(self, emit: Emit, event: RawEvent) -> None:
        if self._one_copy.is_new(event):
            emit(event)

    def stop(self) -> None:
        self._stop.set()
        watchers, self._watchers = self._watchers, []
        for proc, thread in watchers:
            stop_helper(proc, thread)


class XwaylandClipboard(X11Clipboard):
    """Text copies on GNOME (Wayland) from Xwayland's CLIPBOARD selection, which Mutter keeps in step with the
    Wayland clipboard: the X11 source's XFixes notifications, on Xwayland's DISPLAY. Where Xwayland starts on
    demand, opening the display starts it (untested here: the tests' shell starts Xwayland with itself). Tested on
    headless GNOME Shell 43."""

    label = "clipboard (Xwayland)"

    def probe(self) -> Probe:
        from proactive.watcher.capture.x11 import x11_probe

        if not os.environ.get("DISPLAY"):
            return Probe(self.label, CAPTURES, False, "this GNOME session has no Xwayland (DISPLAY is not set) and "
                         "GNOME offers Wayland clients no clipboard watching (no data-control)", FIX_XWAYLAND)
        found = x11_probe(self.name, CAPTURES, "XFIXES")
        if not found.works:
            return Probe(self.label, CAPTURES, False, found.detail, found.fix)
        return Probe(self.label, CAPTURES, True, f"Xwayland's clipboard at DISPLAY={os.environ['DISPLAY']}, which "
                     "GNOME keeps in step with the Wayland clipboard")
