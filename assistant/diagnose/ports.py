"""The process listening on a port, from /proc (only this user's processes can be named; another's is said to be
so): the fact behind "address already in use" (shell_errors.py) and the rules' `port_listening` (facts.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_TCP_LISTEN = "0A"
_UDP_BOUND = "07"


@dataclass(frozen=True)
class Holder:
    """A socket listening on the port: its inode and owner, and the process when this user can see it."""

    inode: int
    uid: int
    protocol: str
    pid: int | None = None
    name: str | None = None
    cmdline: str | None = None

    @property
    def user(self) -> str:
        try:
            import pwd  # POSIX only: imported where used (tests/test_portability.py)

            return pwd.getpwuid(self.uid).pw_name
        except KeyError:
            return f"uid {self.uid}"


def _sockets(port: int, proc: str = "/proc") -> list[tuple[int, int, str]]:
    """(inode, uid, protocol) of the TCP sockets listening on `port` (UDP bound ones when no TCP)."""
    found: list[tuple[int, int, str]] = []
    for table, state in (("tcp", _TCP_LISTEN), ("tcp6", _TCP_LISTEN), ("udp", _UDP_BOUND), ("udp6", _UDP_BOUND)):
        if found and table.startswith("udp"):
            break
        try:
            with open(os.path.join(proc, "net", table), encoding="ascii") as f:
                next(f, None)
                for line in f:
                    fields = line.split()
                    if len(fields) < 10 or fields[3] != state:
                        continue
                    if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[9] != "0":
                        found.append((int(fields[9]), int(fields[7]), table.rstrip("6")))
        except (OSError, ValueError, IndexError):
            continue
    return found


def port_holders(port: int, proc: str = "/proc") -> list[Holder]:
    """The sockets listening on `port` and the processes holding them (pid None when not readable: another
    user's process)."""
    sockets = _sockets(port, proc)
    if not sockets:
        return []
    wanted = {f"socket:[{inode}]": inode for inode, _, _ in sockets}
    pids: dict[int, int] = {}
    try:
        entries = [e for e in os.listdir(proc) if e.isdigit()]
    except OSError:
        entries = []
    for entry in entries:
        fd_dir = os.path.join(proc, entry, "fd")
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(os.path.join(fd_dir, fd))
            except OSError:
                continue
            if link in wanted and wanted[link] not in pids:
                pids[wanted[link]] = int(entry)
        if len(pids) == len(wanted):
            break
    holders = []
    seen: set[int] = set()
    for inode, uid, protocol in sockets:
        pid = pids.get(inode)
        if pid is not None and pid in seen:
            continue
        name = cmdline = None
        if pid is not None:
            seen.add(pid)
            try:
                name = Path(proc, str(pid), "comm").read_text(encoding="utf-8", errors="replace").strip()
                raw = Path(proc, str(pid), "cmdline").read_bytes()
                cmdline = " ".join(a.decode("utf-8", "replace") for a in raw.split(b"\0") if a)
            except OSError:
                pass
        holders.append(Holder(inode, uid, protocol, pid, name, cmdline))
    return holders
