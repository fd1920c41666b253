"""Linux processes and pseudo-terminals as /proc shows them, for judging a terminal's echo (`echo_state`).

Each read opens the /proc file with os.open and reads it once (a quarter of the cost of open()); anything gone
or unreadable is None, and the caller fails closed on None. `Processes` keeps the table of the terminal sessions
asked about current with a few reads a look instead of a scan of every process.
"""

from __future__ import annotations

import os
import re
import time
from typing import NamedTuple

PTS_MAJORS = range(136, 144)  # Unix98 pseudo-terminal slaves
FULL_SCAN_SECONDS = 60.0  # the process table is rebuilt from a scan at least this often (stale entries dropped)
SESSION_FORGET_SECONDS = 120.0  # a terminal session not asked about for this long is no longer followed
ENVIRON_MAX = 1 << 20  # environments compared up to this size (equal beyond it: taken as a copy, fail closed)


class Stat(NamedTuple):
    """A process's /proc/PID/stat fields used here."""

    ppid: int
    pgrp: int
    session: int
    tty_nr: int
    tpgid: int
    comm: str



def read_proc(path: str, limit: int = 1 << 15) -> bytes | None:
    """A /proc file's bytes, up to `limit` (one read gives a whole stat, cmdline or environ; os.open: a quarter of
    the cost of open()), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        return os.read(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def local_flags(path: str) -> int | None:
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


def queued_bytes(path: str) -> int | None:
    """How many bytes wait in the pty's input, not read by the program in the foreground yet (TIOCINQ), or None
    when it cannot be asked."""
    import fcntl
    import struct
    import termios

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        return int(struct.unpack("i", fcntl.ioctl(fd, termios.TIOCINQ, b"\0\0\0\0"))[0])
    except OSError:
        return None
    finally:
        os.close(fd)


def stat_of(pid: int) -> Stat | None:
    """(ppid, pgrp, session, tty_nr, tpgid, comm) of a process from /proc (Linux), or None."""
    data = read_proc(f"/proc/{pid}/stat", 1024)
    if not data:
        return None
    end = data.rfind(b")")
    fields = data[end + 2:].split()
    try:
        return Stat(int(fields[1]), int(fields[2]), int(fields[3]), int(fields[4]), int(fields[5]),
                    data[data.find(b"(") + 1:end].decode(errors="replace"))
    except (IndexError, ValueError):
        return None


def last_pid() -> int | None:
    """The last pid the kernel handed out (a process or a thread), from /proc/loadavg, or None."""
    data = read_proc("/proc/loadavg", 256)
    try:
        return int(data.split()[4]) if data else None
    except (IndexError, ValueError):
        return None


def pts_path(tty_nr: int) -> str | None:
    major, minor = (tty_nr >> 8) & 0xFFF, (tty_nr & 0xFF) | ((tty_nr >> 12) & 0xFFF00)
    return f"/dev/pts/{(major - 136) * 256 + minor}" if major in PTS_MAJORS else None


def master_ptys(pid: int) -> list[str] | None:
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


def all_processes() -> dict[int, Stat]:
    """Every process's stat (one /proc scan)."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = stat_of(int(name))
            if stat is not None:
                table[int(name)] = stat
    return table


def forked_copy(pid: int, ppid: int) -> bool:
    """Whether a process is a forked copy of its parent (a subshell): the same command line, and the same
    environment byte for byte (never exec'd); when the command line is the same and either environment cannot be
    read: yes (fail closed)."""
    own, parent = read_proc(f"/proc/{pid}/cmdline"), read_proc(f"/proc/{ppid}/cmdline")
    if not own:
        return True
    if own != parent:
        return False
    own_env, parent_env = read_proc(f"/proc/{pid}/environ", ENVIRON_MAX), read_proc(f"/proc/{ppid}/environ", ENVIRON_MAX)
    return own_env is None or parent_env is None or own_env == parent_env



class Processes:
    """Linux: the processes of the terminal sessions asked about and their descendants, kept current with a few
    /proc reads a look instead of a scan of every process. A scan when a session is first asked about (and at
    least every FULL_SCAN_SECONDS); then at each look the pids handed out since the last look (/proc/loadavg names
    the last one; a process or a thread) are read, and the session's known processes again. A process only joins a
    session, or comes below one of its processes, by being created, so none is missed; a pid handed out but not
    yet in /proc is looked at once more the next time."""

    def __init__(self) -> None:
        self.table: dict[int, Stat] = {}
        self.sessions: dict[int, float] = {}  # session -> when last asked about
        self.last_pid: int | None = None
        self.pending: set[int] = set()
        self.scanned = float("-inf")
        self.scans = 0  # full scans made (for the tests)

    def job(self, session: int, group: int) -> tuple[dict[int, Stat], dict[int, Stat]]:
        """The foreground job of a terminal, read now: (the processes of the group `group` in `session`, the
        processes below them that may read the terminal or relay it: their descendants, except those in a
        background group of the same session)."""
        now = time.monotonic()
        last = last_pid()
        if (session not in self.sessions or last is None or self.last_pid is None or last < self.last_pid
                or last - self.last_pid > max(256, 4 * len(self.table)) or now - self.scanned > FULL_SCAN_SECONDS):
            self.sessions[session] = now
            self._scan(now, last)
        else:
            self.sessions[session] = now
            self._new(last)
        # the session's processes and everything below them, read again (their group, parent and name now)
        children = self._children()
        tree = [pid for pid, st in self.table.items() if st.session == session]
        seen = set(tree)
        while tree:
            pid = tree.pop()
            fresh = stat_of(pid)
            if fresh is None:
                self.table.pop(pid, None)
                continue
            self.table[pid] = fresh
            for child in children.get(pid, ()):
                if child not in seen:
                    seen.add(child)
                    tree.append(child)
        members = {pid: st for pid, st in self.table.items() if pid in seen and st.session == session
                   and st.pgrp == group}
        children = self._children(seen)
        below: dict[int, Stat] = {}
        stack = [c for pid in members for c in children.get(pid, ())]
        while stack:
            pid = stack.pop()
            st = self.table.get(pid)
            if st is None or pid in below or pid in members:
                continue
            if not (st.session == session and st.pgrp != group):  # a background job of the terminal cannot read it
                below[pid] = st
            stack.extend(children.get(pid, ()))
        return members, below

    def _children(self, among: set[int] | None = None) -> dict[int, list[int]]:
        children: dict[int, list[int]] = {}
        for pid, st in self.table.items():
            if among is None or pid in among:
                children.setdefault(st.ppid, []).append(pid)
        return children

    def _scan(self, now: float, last: int | None) -> None:
        """The table from a scan of every process: the sessions asked about lately and all below them."""
        for session, at in list(self.sessions.items()):
            if now - at > SESSION_FORGET_SECONDS:
                del self.sessions[session]
        everything = all_processes()
        self.scans += 1
        children: dict[int, list[int]] = {}
        for pid, st in everything.items():
            children.setdefault(st.ppid, []).append(pid)
        stack = [pid for pid, st in everything.items() if st.session in self.sessions]
        table: dict[int, Stat] = {}
        while stack:
            pid = stack.pop()
            if pid not in table:
                table[pid] = everything[pid]
                stack.extend(children.get(pid, ()))
        self.table, self.last_pid, self.pending, self.scanned = table, last, set(), now

    def _new(self, last: int | None) -> None:
        """The pids handed out since the last look (in order: a parent before its children), kept when they belong
        to a session followed or come below a process kept."""
        assert last is not None and self.last_pid is not None
        pending, self.pending = self.pending, set()
        for pid in [*sorted(pending), *range(self.last_pid + 1, last + 1)]:
            st = stat_of(pid)
            if st is None:
                if pid not in pending:
                    self.pending.add(pid)  # handed out, not yet in /proc (or already gone): once more next time
            elif st.session in self.sessions or st.ppid in self.table:
                self.table[pid] = st
            else:
                self.table.pop(pid, None)  # a pid used again by a process of no concern
        self.last_pid = last
