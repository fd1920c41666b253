"""Hidden input by observation: does the terminal echo what the person types into it right now?

The one fact that defines a hidden prompt, whatever program asks (sudo, getpass, `read -s`, `stty -echo`, a
person's own script under an ordinary name), is the pseudo-terminal's line discipline: **ECHO off with ICANON
on** while the person types. We read it with `tcgetattr` on the window's `/dev/pts/N`, opened read-only without
making it our controlling terminal and closed at once (a held slave would keep the terminal alive after its shell
exits).

In raw mode (ICANON off) the program reads key by key and echoes itself, so the line discipline says nothing: a
shell's line editor (readline: the session leader is in the foreground), an editor, a pager or an interactive
REPL echoes what is typed; anything else (ssh, mosh, telnet, `docker|podman|kubectl exec -it`, a serial console,
a curses password dialog) may forward the keys where we cannot see the echo, so its lines count as *unseen* and
are not stored (fail closed). tmux is resolved through its own client list to the pane the person types in.

Window -> pseudo-terminals: on Linux, the ptmx descriptors the window's process holds (`fdinfo` tty-index: a
terminal emulator), else the controlling terminals of its descendants (an IDE's integrated terminal); elsewhere
psutil's view of the descendants. Each window's answer is cached for `REFRESH_SECONDS`; a line costs a
`tcgetattr` and one `/proc` read per pseudo-terminal.

macOS: `IsSecureEventInputEnabled()` (a password field or a terminal's secure keyboard entry) also means hidden;
written against the documented Carbon call, UNTESTED here. Windows offers no way to read another process's
console echo mode: there the command-line rules (watcher/privacy.py) are the only defence, said by `doctor`.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

VISIBLE = "visible"  # the person sees what they type (and so may we)
HIDDEN = "password"  # ECHO off, ICANON on: a program reads a line it does not show
UNSEEN = "unseen"  # the echo cannot be seen (a remote session, an unresolved multiplexer, an unreadable pty)

REFRESH_SECONDS = 2.0  # a terminal emulator's pseudo-terminals are looked up again after this long
SLOW_REFRESH_SECONDS = 10.0  # other windows (a browser, an IDE): a look costs a scan of every process
PROGRAM_CACHE_SECONDS = 5.0
PANE_CACHE_SECONDS = 1.0
TMUX_TIMEOUT = 1.0
MAX_CACHE = 64
PTS_MAJORS = range(136, 144)  # Unix98 pseudo-terminal slaves

#: Raw-mode programs that echo what is typed themselves, on this machine: shells' line editors, editors, pagers,
#: monitors. An allowlist, so an unknown raw-mode program fails closed.
LOCAL_ECHO = frozenset({
    "bash", "sh", "dash", "zsh", "fish", "ksh", "mksh", "tcsh", "csh", "nu", "elvish", "xonsh", "pwsh",
    "vi", "vim", "nvim", "view", "nano", "pico", "micro", "emacs", "hx", "helix", "kak", "joe", "mcedit", "ne",
    "jed", "less", "more", "most", "man", "top", "htop", "btop",
    "psql", "mysql", "mariadb", "sqlite", "sqlite3", "redis-cli",
})
#: Interpreters whose REPL echoes (only when run without a script: a script may read a password in raw mode).
REPLS = frozenset({"python", "ipython", "bpython", "ptpython", "node", "irb", "lua", "ghci"})
MULTIPLEXER = "tmux"


@dataclass(frozen=True)
class Pty:
    """One pseudo-terminal shown by a window: its slave device and the session leader there (its shell)."""

    path: str
    leader: int | None = None


@dataclass
class Reading:
    """The mode of a window's terminal at one moment: the mode, whether a line editor reads key by key (raw), and
    why (for the log)."""

    mode: str
    raw: bool = False
    why: str = ""


@dataclass
class View:
    """The pseudo-terminals a window shows (none: not a terminal)."""

    ptys: tuple[Pty, ...]
    owner: bool  # the window's process holds the pty masters: a terminal emulator (else an IDE's terminals)
    at: float = field(default_factory=time.monotonic)

    def stale(self, now: float) -> bool:
        return now - self.at >= (REFRESH_SECONDS if self.owner and self.ptys else SLOW_REFRESH_SECONDS)


def _lflag(path: str) -> int | None:
    """The pty's local mode flags, or None when it cannot be read (gone, not ours)."""
    import termios

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        return int(termios.tcgetattr(fd)[3])
    except (OSError, termios.error):
        return None
    finally:
        os.close(fd)


def _stat(pid: int) -> tuple[int, int, int, int, int] | None:
    """(ppid, pgrp, session, tty_nr, tpgid) of a process from /proc (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2:].split()
    try:
        return int(fields[1]), int(fields[2]), int(fields[3]), int(fields[4]), int(fields[5])
    except (IndexError, ValueError):
        return None


def _pts_path(tty_nr: int) -> str | None:
    major, minor = (tty_nr >> 8) & 0xFFF, (tty_nr & 0xFF) | ((tty_nr >> 12) & 0xFFF00)
    return f"/dev/pts/{(major - 136) * 256 + minor}" if major in PTS_MAJORS else None


def _master_ptys(pid: int) -> list[str] | None:
    """The slaves of the ptmx descriptors a process holds (Linux fdinfo `tty-index`); None when its descriptors
    cannot be read."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return None
    out = []
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") not in ("/dev/ptmx", "/dev/pts/ptmx"):
                continue
            with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                match = re.search(r"^tty-index:\s*(\d+)", f.read(), re.M)
        except OSError:
            continue
        if match:
            out.append(f"/dev/pts/{match.group(1)}")
    return out


def _processes() -> dict[int, tuple[int, int, int, int, int]]:
    """Every process's stat (one /proc scan)."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None:
                table[int(name)] = stat
    return table


def _program(pid: int) -> tuple[str, list[str]]:
    """(normalised program name, argv) of a process: the executable's name ("python3.11" -> "python",
    "vim.basic" -> "vim"), else its comm when the executable cannot be read (another user's process)."""
    name = ""
    try:
        name = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        try:
            with open(f"/proc/{pid}/comm") as f:
                name = f.read().strip()
        except OSError:
            return "", []
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        argv = []
    base = name.removesuffix(" (deleted)").split(".")[0]
    return (base.rstrip("0123456789") or base).lower(), argv


def echoes_locally(name: str, argv: list[str]) -> bool:
    """Whether a raw-mode program shows what is typed on this screen (an allowlisted line editor, or a REPL with no
    script); everything else fails closed."""
    if name in LOCAL_ECHO:
        return True
    return name in REPLS and not any(not a.startswith("-") for a in argv[1:])


def secure_input_macos() -> bool | None:
    """macOS: a password field or secure keyboard entry is active (Carbon `IsSecureEventInputEnabled`). UNTESTED
    here; None where it cannot be asked."""
    if sys.platform != "darwin":
        return None
    try:
        import ctypes

        carbon = ctypes.cdll.LoadLibrary("/System/Library/Frameworks/Carbon.framework/Carbon")
        carbon.IsSecureEventInputEnabled.restype = ctypes.c_bool
        return bool(carbon.IsSecureEventInputEnabled())
    except (OSError, AttributeError):
        return None


class EchoWatch:
    """Reads the echo state of the pseudo-terminals behind a window. Thread-safe enough for one reader thread plus
    the pipeline: caches are plain dicts replaced or updated whole."""

    def __init__(self) -> None:
        self.linux = sys.platform.startswith("linux") and os.path.isdir("/proc/self/fd")
        self._views: dict[int, View] = {}
        self._leaders: dict[str, int] = {}  # pty path -> its session leader, found by a scan
        self._programs: dict[int, tuple[float, str, list[str]]] = {}
        self._panes: dict[int, tuple[float, Pty | None]] = {}  # tmux client -> the pane it shows
        self.tmux = shutil.which(MULTIPLEXER)

    # -- window -> ptys ----------------------------------------------------------------------------------------

    def view(self, pid: int | None) -> View | None:
        """The window's pseudo-terminals (cached; `ptys` empty when it shows none), or None when they cannot be
        seen on this platform or the window's process is unknown."""
        if not pid or os.name != "posix":
            return None
        now = time.monotonic()
        cached = self._views.get(pid)
        if cached is not None and not cached.stale(now):
            return cached
        masters = _master_ptys(pid) if self.linux else None
        if not self.linux:
            view = self._view_psutil(pid, now)
            if view is None:
                return None
        elif masters:
            missing = [p for p in masters if not self._leader_alive(p)]
            if missing:
                self._find_leaders(_processes(), missing)
            view = View(tuple(Pty(p, self._leaders.get(p)) for p in masters), owner=True, at=now)
        else:
            table = _processes()
            ttys = self._descendant_ttys(pid, table)
            self._find_leaders(table, ttys)
            view = View(tuple(Pty(p, self._leaders.get(p)) for p in ttys), owner=False, at=now)
        if len(self._views) >= MAX_CACHE:
            self._views.clear()
        self._views[pid] = view
        return view

    def forget(self, pid: int | None) -> None:
        """Look the window up afresh next time (a new line, a new tab may have opened)."""
        if pid:
            self._views.pop(pid, None)

    def _leader_alive(self, path: str) -> bool:
        leader = self._leaders.get(path)
        stat = _stat(leader) if leader else None
        return bool(stat and stat[2] == leader and _pts_path(stat[3]) == path)

    def _find_leaders(self, table: dict[int, tuple[int, int, int, int, int]], paths: list[str]) -> None:
        wanted = set(paths)
        for pid, (_, _, session, tty_nr, _) in table.items():
            path = _pts_path(tty_nr)
            if path in wanted and session == pid:
                self._leaders[path] = pid
        if len(self._leaders) > 4 * MAX_CACHE:
            self._leaders = {p: self._leaders[p] for p in paths if p in self._leaders}

    @staticmethod
    def _descendant_ttys(pid: int, table: dict[int, tuple[int, int, int, int, int]]) -> list[str]:
        children: dict[int, list[int]] = {}
        for child, stat in table.items():
            children.setdefault(stat[0], []).append(child)
        out: list[str] = []
        stack = list(children.get(pid, []))
        own = table.get(pid, (0, 0, 0, 0, 0))[3]  # the terminal the window's program was started from
        while stack:
            p = stack.pop()
            tty_nr = table[p][3]
            path = _pts_path(tty_nr) if tty_nr != own else None
            if path and path not in out:
                out.append(path)
            stack.extend(children.get(p, []))
        return out

    @staticmethod
    def _view_psutil(pid: int, now: float) -> View | None:
        """macOS and other POSIX systems: the descendants' terminals through psutil (UNTESTED here)."""
        import psutil

        try:
            ttys = {c.terminal() for c in psutil.Process(pid).children(recursive=True)}
        except (psutil.Error, OSError):
            return None
        paths = sorted(t for t in ttys if t)
        return View(tuple(Pty(p) for p in paths), owner=True, at=now)

    # -- reading -----------------------------------------------------------------------------------------------

    def read(self, view: View) -> Reading:
        """The window's mode now. Any pty hiding input hides the window's line (we cannot tell which tab or pane
        of a multi-window terminal program has the focus: it errs on hiding). An unseen pty counts only for a
        terminal emulator's own ptys (an IDE's editor keeps its typing while a terminal in it runs ssh)."""
        if secure_input_macos():
            return Reading(HIDDEN, why="macOS secure input is on")
        readings = [self._pty(p) for p in view.ptys]
        for r in readings:
            if r.mode == HIDDEN:
                return r
        if view.owner:
            for r in readings:
                if r.mode == UNSEEN:
                    return r
        return Reading(VISIBLE, raw=any(r.raw for r in readings), why="echo on")

    def _pty(self, pty: Pty, depth: int = 0) -> Reading:
        import termios

        lflag = _lflag(pty.path)
        if lflag is None:
            gone = not os.path.exists(pty.path)
            return Reading(VISIBLE if gone else UNSEEN, why=f"{pty.path} {'closed' if gone else 'unreadable'}")
        echo, canonical = bool(lflag & termios.ECHO), bool(lflag & termios.ICANON)
        if canonical and not echo:
            return Reading(HIDDEN, why=f"{pty.path}: echo off, line input")
        if echo:
            return Reading(VISIBLE, raw=not canonical, why=f"{pty.path}: echo on")
        # raw mode: the program echoes (or not) itself; who is it?
        if not self.linux:
            return Reading(UNSEEN, raw=True, why=f"{pty.path}: raw mode, foreground unknown here")
        stat = _stat(pty.leader) if pty.leader else None
        if stat is None:
            return Reading(UNSEEN, raw=True, why=f"{pty.path}: raw mode, no shell found")
        foreground = stat[4]
        if foreground == pty.leader:
            return Reading(VISIBLE, raw=True, why=f"{pty.path}: the shell's line editor")
        name, argv = self._program_of(foreground)
        if name == MULTIPLEXER and depth == 0:
            pane = self._pane_of(foreground, pty.path, argv)
            if pane is None:
                return Reading(UNSEEN, raw=True, why=f"{pty.path}: tmux pane not resolved")
            return self._pty(pane, depth + 1)
        if name and echoes_locally(name, argv):
            return Reading(VISIBLE, raw=True, why=f"{pty.path}: {name} echoes")
        return Reading(UNSEEN, raw=True, why=f"{pty.path}: {name or 'a program'} reads raw keys")

    def _program_of(self, pid: int) -> tuple[str, list[str]]:
        now = time.monotonic()
        cached = self._programs.get(pid)
        if cached is not None and now - cached[0] < PROGRAM_CACHE_SECONDS:
            return cached[1], cached[2]
        name, argv = _program(pid)
        if len(self._programs) >= MAX_CACHE:
            self._programs.clear()
        self._programs[pid] = (now, name, argv)
        return name, argv

    def _pane_of(self, client: int, client_tty: str, argv: list[str]) -> Pty | None:
        """The pane a tmux client shows, asked of tmux at most once a second (a key costs no process start)."""
        now = time.monotonic()
        cached = self._panes.get(client)
        if cached is not None and now - cached[0] < PANE_CACHE_SECONDS:
            return cached[1]
        pane = self._tmux_pane(client, client_tty, argv)
        if len(self._panes) >= MAX_CACHE:
            self._panes.clear()
        self._panes[client] = (now, pane)
        return pane

    def _tmux_pane(self, client: int, client_tty: str, argv: list[str]) -> Pty | None:
        """The pane a tmux client shows, from tmux's own client list (the client's server: its -S/-L, else its
        TMUX_TMPDIR), or None."""
        if not self.tmux:
            return None
        command = [self.tmux]
        for i, arg in enumerate(argv[1:-1], start=1):
            if arg in ("-S", "-L"):
                command += [arg, argv[i + 1]]
        env = dict(os.environ)
        env.pop("TMUX", None)
        try:
            with open(f"/proc/{client}/environ", "rb") as f:
                for item in f.read().split(b"\0"):
                    if item.startswith(b"TMUX_TMPDIR="):
                        env["TMUX_TMPDIR"] = item.split(b"=", 1)[1].decode(errors="replace")
        except OSError:
            pass
        try:
            out = subprocess.run([*command, "list-clients", "-F", "#{client_tty} #{pane_tty} #{pane_pid}"],
                                 capture_output=True, text=True, timeout=TMUX_TIMEOUT, env=env,
                                 stdin=subprocess.DEVNULL).stdout
        except (OSError, subprocess.SubprocessError):
            return None
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == client_tty and parts[2].isdigit():
                return Pty(parts[1], int(parts[2]))
        return None
