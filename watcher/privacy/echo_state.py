"""Hidden input by observation: does the terminal echo what the person types into it right now?

**Line input** (ICANON on): the pseudo-terminal's line discipline echoes, and **ECHO off** there is a hidden
prompt, whatever program asks (sudo, getpass, `read -s`, `stty -echo`, a person's own script under an ordinary
name): HIDDEN. ECHO on: VISIBLE. We read the flags with `tcgetattr` on the window's `/dev/pts/N`, opened read-only
without making it our controlling terminal and closed at once (a held slave would keep the terminal alive after
its shell exits).

**Raw mode** (ICANON off) with ECHO on is VISIBLE (the line discipline echoes). With ECHO off, as every line
editor sets it, the program echoes, or not, itself: the line discipline says nothing, so the mode is judged by
*who set it*, from the foreground process group of the terminal (its members: the processes of that group in the
terminal's session) and what runs below them:

- **A remote session anywhere in the foreground job or below it** (ssh, mosh, telnet, `docker|podman|kubectl
  exec -it`, a serial console: `REMOTE`, by executable, process or argv[0] name) is UNSEEN, however it was
  started: typed at the prompt, run by a wrapper script, a `set +m` shell, an editor's `:!ssh`, or in another
  session below (a `setsid` child, a terminal inside an editor). Below means the descendants of the group's
  processes, except those in a background group of the same terminal (the kernel stops them if they read it:
  an `ssh -N` tunnel left in the background does not hide the prompt).
- **Every member must echo itself** for the line to be VISIBLE; any other member makes it UNSEEN, so an
  allowlisted program keeps text only while it is itself in the foreground (vim's `:!./script` is the script's):
  - *an interactive shell at its own prompt* (its line editor): a shell executable (`SHELLS`) whose argv has no
    script operand, no `-c` and no `-s` (a login shell `-bash` counts; `--rcfile FILE` and `-o OPTION` take
    values), whose standard input is this terminal (when it can be read: `bash < script` is not interactive),
    and which is not a forked subshell of its parent: a subshell (`( read -e -s x )`, a pipeline's part) has
    its parent's command line and, never having exec'd, its parent's environment byte for byte, while an exec'd
    nested shell (`bash` typed at a bash prompt: bash passes `_=` and `SHLVL`) has not; when the parent's command
    line is the same and either environment cannot be read, it counts as a subshell (fail closed). The session
    leader is judged the same way: `xterm -e ./script.sh` makes the script the leader, and a script (`bash
    ./ask.sh`, `sh -c ...`), `bash < file` or a subshell reading raw keys (`read -e -s`) is UNSEEN. A nested
    shell started with its parent's command line and exactly its parent's environment would be taken for a
    subshell: UNSEEN (bash adds `_=` and SHLVL, dash adds PWD, so none tried here is). What the interactive
    shell runs *itself* (`read -e -s` typed at its prompt, a function, a sourced script) cannot be told from its
    prompt: the command-line rules (watcher/privacy/password_prompts.py: `read -s`) are the defence there.
  - *an allowlisted program that echoes* (`LOCAL_ECHO`, each tested with its own hidden prompts in
    tests/test_raw_mode.py): vim (with `-x`, `-r`/`-L`, or an `X`/`key` command in its argv it may ask a key:
    UNSEEN until it exits; while it holds a file with vim's encryption header open it asks that file's key, and
    while it holds an encrypted swap file it edits an encrypted buffer: both UNSEEN; `:X` typed in it is only
    seen in the typed line: `editor_key_lines`), nano, less, more, man (with its pager), top, sqlite3; a REPL
    (`REPLS`: python) only when run without a script or command. As with the shell, what a REPL runs itself
    cannot be told from its prompt: getpass (line input, echo off) is HIDDEN, but code that reads raw keys
    itself (a masked password library) would be taken for the REPL.
- **tmux**: a client alone in the foreground is resolved through tmux's own client list to the pane the person
  types in, and that pane is judged the same way.
- Anything else (an unknown program, an interpreter running a script, a curses password dialog, sudo asking
  with `pwfeedback`, a terminal whose processes cannot be listed) is UNSEEN: its lines are not stored (fail
  closed). A `Reading` says which program was judged (`program`) and whether the keys go to an interactive
  shell's own line editor (`shell`).

The processes are kept in a small table (`Processes`): a scan of /proc when a terminal's session is first asked
about, then at each reading only the pids handed out since (/proc/loadavg names the last one) and the session's
known processes are read again, so a reading costs a few /proc reads, not a scan of every process.

Window -> pseudo-terminals: on Linux, the ptmx descriptors the window's process holds (`fdinfo` tty-index: a
terminal emulator), else the controlling terminals of its descendants (an IDE's integrated terminal); elsewhere
psutil's view of the descendants. Each window's answer is cached for `REFRESH_SECONDS`.

macOS: `IsSecureEventInputEnabled()` (a password field or a terminal's secure keyboard entry) also means hidden;
written against the documented Carbon call, UNTESTED here, and raw mode there is always UNSEEN (no /proc).
Windows offers no way to read another process's console echo mode: there the command-line rules
(watcher/privacy/filter.py) are the only defence, said by `doctor`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import stat as stat_mode
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

log = logging.getLogger(__name__)

VISIBLE = "visible"  # the person sees what they type (and so may we)
HIDDEN = "password"  # ECHO off, ICANON on: a program reads a line it does not show
UNSEEN = "unseen"  # the echo cannot be seen (a remote session, an unresolved multiplexer, an unreadable pty)

REFRESH_SECONDS = 2.0  # a terminal emulator's pseudo-terminals are looked up again after this long
SLOW_REFRESH_SECONDS = 10.0  # other windows (a browser, an IDE): a look costs a scan of every process
SETTLE_TRIES = 3  # a reading not showing the typing is taken again while the mode changes under it (`_pty`)
PROGRAM_CACHE_SECONDS = 5.0  # a process's judgement, while its command line and name stay the same
PANE_CACHE_SECONDS = 1.0
TMUX_TIMEOUT = 1.0
MAX_CACHE = 64
PTS_MAJORS = range(136, 144)  # Unix98 pseudo-terminal slaves
FULL_SCAN_SECONDS = 60.0  # the process table is rebuilt from a scan at least this often (stale entries dropped)
SESSION_FORGET_SECONDS = 120.0  # a terminal session not asked about for this long is no longer followed
ENVIRON_MAX = 1 << 20  # environments compared up to this size (equal beyond it: taken as a copy, fail closed)

#: Shell executables: in raw mode an *interactive* one (no script, no -c) is at its own prompt, its line editor.
SHELLS = frozenset({"bash", "sh", "dash", "ash", "zsh", "fish", "ksh", "mksh", "pdksh", "oksh", "yash", "posh",
                    "tcsh", "csh"})
#: A shell's options that take the next argument as their value: short letters, long options.
SHELL_VALUES = {"fish": ("dofpD", frozenset({"--debug", "--debug-output", "--features", "--profile",
                                             "--profile-startup", "--debug-stack-frames"}))}
SH_VALUES = ("oO", frozenset({"--rcfile", "--init-file", "--emulate"}))  # bash, zsh, ksh...: -o opt, --rcfile f
#: Options that give a shell its commands other than from the person at the terminal (-c, fish's init command,
#: -s: commands from standard input).
SHELL_COMMANDS = "cCs"
SHELL_LONG_COMMANDS = frozenset({"--command", "--init-command"})
#: Raw-mode programs that echo what is typed themselves, kept because each is tested with its own hidden prompts
#: (tests/test_raw_mode.py): vim (its key prompts: VIM_NAMES rules), an editor, pagers, a monitor, sqlite3.
#: An allowlist, so an unknown raw-mode program fails closed. Shells are judged by `interactive_shell`.
VIM_NAMES = frozenset({"vi", "vim", "view", "vimdiff", "rvim", "rview"})
LOCAL_ECHO = VIM_NAMES | frozenset({"nano", "less", "more", "man", "top", "sqlite"})
#: Interpreters whose REPL echoes (only when run without a script: a script may read a password in raw mode).
REPLS = frozenset({"python"})
#: Programs that relay the keys to where we cannot see the echo: anywhere in the foreground job, or below it.
REMOTE = frozenset({"ssh", "mosh", "mosh-client", "telnet", "rlogin", "rsh", "autossh", "sshpass", "et", "tsh",
                    "docker", "podman", "kubectl", "oc", "nerdctl", "lxc", "incus", "machinectl", "virsh", "vagrant",
                    "session-manager-plugin", "nc", "ncat", "netcat", "socat", "minicom", "picocom", "cu",
                    "screen", "dtach", "abduco", "tmate", "waypipe"})
MULTIPLEXER = "tmux"
#: vim asks for an encryption key: -x, recovery of a swap file (-r, -L), a command that runs :X or sets 'key'.
VIM_KEY_COMMAND = re.compile(r"(?:^|[\s|:])X!?\s*(?:$|\|)|\bkey\b|inputsecret")
#: The typed line (what the keys since the last Enter made) that runs vim's :X: the key is asked twice after it.
VIM_X_LINE = re.compile(r":\s*X\s*$")  # also after text typed in insert mode ("ihello" Escape ":X")
VIM_CRYPT = b"VimCrypt~"  # the header of a file vim encrypted


class Stat(NamedTuple):
    """A process's /proc/PID/stat fields used here."""

    ppid: int
    pgrp: int
    session: int
    tty_nr: int
    tpgid: int
    comm: str


@dataclass(frozen=True)
class Pty:
    """One pseudo-terminal shown by a window: its slave device and the session leader there (its shell)."""

    path: str
    leader: int | None = None


@dataclass
class Reading:
    """The mode of a window's terminal at one moment: the mode, whether a line editor reads key by key (raw), and
    why (for the log). In raw mode: the foreground program judged (`program`), and whether the keys go to an
    interactive shell's own line editor (`shell`)."""

    mode: str
    raw: bool = False
    why: str = ""
    program: str = ""
    shell: bool = False
    queued: bool = False  # keys were waiting unread in the terminal's input: `shell` says nothing of this line


@dataclass
class View:
    """The pseudo-terminals a window shows (none: not a terminal)."""

    ptys: tuple[Pty, ...]
    owner: bool  # the window's process holds the pty masters: a terminal emulator (else an IDE's terminals)
    at: float = field(default_factory=time.monotonic)

    def stale(self, now: float) -> bool:
        return now - self.at >= (REFRESH_SECONDS if self.owner and self.ptys else SLOW_REFRESH_SECONDS)


@dataclass
class Judged:
    """What a process in the foreground is, cached while its command line and name stay the same."""

    at: float
    cmdline: bytes
    comm: str
    name: str
    names: frozenset[str]  # every name it goes by (`_names`)
    echoes: bool
    shell: bool
    why: str


def _read(path: str, limit: int = 1 << 15) -> bytes | None:
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


def _queued(path: str) -> int | None:
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


def _stat(pid: int) -> Stat | None:
    """(ppid, pgrp, session, tty_nr, tpgid, comm) of a process from /proc (Linux), or None."""
    data = _read(f"/proc/{pid}/stat", 1024)
    if not data:
        return None
    end = data.rfind(b")")
    fields = data[end + 2:].split()
    try:
        return Stat(int(fields[1]), int(fields[2]), int(fields[3]), int(fields[4]), int(fields[5]),
                    data[data.find(b"(") + 1:end].decode(errors="replace"))
    except (IndexError, ValueError):
        return None


def _last_pid() -> int | None:
    """The last pid the kernel handed out (a process or a thread), from /proc/loadavg, or None."""
    data = _read("/proc/loadavg", 256)
    try:
        return int(data.split()[4]) if data else None
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


def _processes() -> dict[int, Stat]:
    """Every process's stat (one /proc scan)."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None:
                table[int(name)] = stat
    return table


def _normalise(name: str) -> str:
    """"python3.11" -> "python", "vim.basic" -> "vim", "sqlite3" -> "sqlite"."""
    base = name.removesuffix(" (deleted)").split(".")[0]
    return (base.rstrip("0123456789") or base).lower()


def _argv(cmdline: bytes | None) -> list[str]:
    return [a.decode(errors="replace") for a in (cmdline or b"").split(b"\0") if a]


def _program(pid: int, cmdline: bytes | None = None) -> tuple[str, list[str]]:
    """(normalised program name, argv) of a process: the executable's name ("python3.11" -> "python",
    "vim.basic" -> "vim"), else its comm when the executable cannot be read (another user's process)."""
    name = ""
    try:
        name = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        comm = _read(f"/proc/{pid}/comm", 256)
        if comm is None:
            return "", []
        name = comm.decode(errors="replace").strip()
    if cmdline is None:
        cmdline = _read(f"/proc/{pid}/cmdline")
    return _normalise(name), _argv(cmdline)


def _names(pid: int, comm: str, argv: list[str] | None = None) -> frozenset[str]:
    """Every name a process goes by: its executable's, its process name (comm, which a program may set), its
    argv[0]'s (for the remote programs: a renamed copy of one still counts by some name)."""
    names = {_normalise(comm), comm.lower()}
    with contextlib.suppress(OSError):
        names.add(_normalise(os.path.basename(os.readlink(f"/proc/{pid}/exe"))))
    if argv is None:
        argv = _argv(_read(f"/proc/{pid}/cmdline", 4096))
    if argv and argv[0].split():
        first = os.path.basename(argv[0].split()[0])
        names |= {first.lower().lstrip("-"), _normalise(first.lstrip("-"))}
    return frozenset(names)


def interactive_shell(name: str, argv: list[str]) -> bool:
    """Whether a shell's command line runs it interactively, reading commands from the person: no script operand,
    no `-c` (nor fish's `-C` init command), no `-s` (commands from standard input); a login shell (`-bash`) counts.
    Options that take a value (`-o vi`, `--rcfile FILE`) are skipped with it; anything not understood is an
    operand (fail closed). Says nothing of whether it is a forked subshell (`EchoWatch` looks at that)."""
    if name not in SHELLS or not argv:
        return False
    letters, longs = SHELL_VALUES.get(name, SH_VALUES)
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("--", "-"):
            return i + 1 >= len(args)  # what follows is a script and its arguments
        if arg.startswith("--"):
            key = arg.split("=", 1)[0]
            if key in SHELL_LONG_COMMANDS:
                return False
            if key in longs and "=" not in arg:
                i += 1
        elif arg[:1] in "-+" and len(arg) > 1:
            cluster = arg[1:]
            if set(cluster) & set(SHELL_COMMANDS):
                return False
            for j, letter in enumerate(cluster):
                if letter in letters:
                    i += 1 if j == len(cluster) - 1 else 0  # the value: the next argument, or the rest here
                    break
        else:
            return False  # an operand: a script
        i += 1
    return True


def vim_may_ask_key(argv: list[str]) -> bool:
    """Whether vim's command line may make it ask for an encryption key at any time: -x, recovering a swap file
    (-r, -L: an encrypted one asks its key), a command (+cmd, -c, --cmd) that runs :X or sets 'key'."""
    values = False
    for arg in argv[1:]:
        if values:
            if VIM_KEY_COMMAND.search(arg):
                return True
            values = False
        elif arg == "--":
            return False
        elif arg in ("-c", "--cmd"):
            values = True
        elif arg.startswith("+"):
            if VIM_KEY_COMMAND.search(arg[1:]):
                return True
        elif arg.startswith("-") and not arg.startswith("--") and ("x" in arg or arg in ("-r", "-L")):
            return True
    return False


def echoes_locally(name: str, argv: list[str]) -> bool:
    """Whether a raw-mode program shows what is typed on this screen, by its name and command line: an interactive
    shell's line editor (`interactive_shell`), an allowlisted program (vim not asking for a key), or a REPL with
    no script; everything else fails closed. (EchoWatch also looks at what only the running process shows: a
    subshell, vim's open files.)"""
    if name in SHELLS:
        return interactive_shell(name, argv)
    if name in VIM_NAMES:
        return not vim_may_ask_key(argv)
    if name in LOCAL_ECHO:
        return True
    return name in REPLS and not any(not a.startswith("-") for a in argv[1:])


def editor_key_lines(line: str) -> int:
    """How many lines typed after a finished terminal line answer a key prompt that the terminal's state cannot
    show: vim's `:X` asks "Enter encryption key" then "Enter same key again" in its own raw-mode line editor, with
    vim in the foreground as while it edits. `line` is what the keys since the last Enter made ("ihello" then
    Escape then ":X"): a line ending in `:X` (capital: `:x` writes and quits) -> 2. For the privacy filter's
    line-by-line count (`PrivacyFilter.asks_password`); a line answered there is read by a line editor, so the
    count must stand (not be forgotten as a prediction)."""
    return 2 if VIM_X_LINE.search(line) else 0


def _forked_copy(pid: int, ppid: int) -> bool:
    """Whether a process is a forked copy of its parent (a subshell): the same command line, and the same
    environment byte for byte (never exec'd); when the command line is the same and either environment cannot be
    read: yes (fail closed)."""
    own, parent = _read(f"/proc/{pid}/cmdline"), _read(f"/proc/{ppid}/cmdline")
    if not own:
        return True
    if own != parent:
        return False
    own_env, parent_env = _read(f"/proc/{pid}/environ", ENVIRON_MAX), _read(f"/proc/{ppid}/environ", ENVIRON_MAX)
    return own_env is None or parent_env is None or own_env == parent_env


def _vim_key_file(pid: int) -> str | None:
    """Why vim may be asking for a key now, from the files it holds open, or None: a file with vim's encryption
    header (it asks the key to read it: `vim secret.txt`, `:e secret.txt`), an encrypted swap file (a buffer with
    a key is being edited); its descriptors, or a regular file it holds, cannot be read (fail closed)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return "its open files cannot be read"
    for fd in fds:
        path = f"/proc/{pid}/fd/{fd}"
        try:
            if not stat_mode.S_ISREG(os.stat(path).st_mode):
                continue
        except OSError:
            continue  # closed meanwhile
        head = _read(path, 12)
        if head is None:
            return "it holds a file we cannot read"
        if head.startswith(VIM_CRYPT):
            return "it asks the key of an encrypted file"
        if head[:1] == b"b" and head[1:2] != b"0" and head[2:5] == b"VIM":
            return "it edits an encrypted buffer"
    return None


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
        last = _last_pid()
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
            fresh = _stat(pid)
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
        everything = _processes()
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
            st = _stat(pid)
            if st is None:
                if pid not in pending:
                    self.pending.add(pid)  # handed out, not yet in /proc (or already gone): once more next time
            elif st.session in self.sessions or st.ppid in self.table:
                self.table[pid] = st
            else:
                self.table.pop(pid, None)  # a pid used again by a process of no concern
        self.last_pid = last


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
        self._judged: dict[int, Judged] = {}
        self._panes: dict[int, tuple[float, Pty | None]] = {}  # tmux client -> the pane it shows
        self.procs = Processes()
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
        return bool(stat and stat.session == leader and _pts_path(stat.tty_nr) == path)

    def _find_leaders(self, table: dict[int, Stat], paths: list[str]) -> None:
        wanted = set(paths)
        for pid, stat in table.items():
            path = _pts_path(stat.tty_nr)
            if path in wanted and stat.session == pid:
                self._leaders[path] = pid
        if len(self._leaders) > 4 * MAX_CACHE:
            self._leaders = {p: self._leaders[p] for p in paths if p in self._leaders}

    @staticmethod
    def _descendant_ttys(pid: int, table: dict[int, Stat]) -> list[str]:
        children: dict[int, list[int]] = {}
        for child, stat in table.items():
            children.setdefault(stat.ppid, []).append(child)
        out: list[str] = []
        stack = list(children.get(pid, []))
        own = table[pid].tty_nr if pid in table else 0  # the terminal the window's program was started from
        while stack:
            p = stack.pop()
            tty_nr = table[p].tty_nr
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
        raw = [r for r in readings if r.raw]
        if len(readings) == 1 and readings[0].mode == VISIBLE:
            return readings[0]
        return Reading(VISIBLE, raw=bool(raw), why="echo on", shell=bool(raw) and all(r.shell for r in raw))

    def _pty(self, pty: Pty, depth: int = 0) -> Reading:
        """One pty's mode. A reading that does not show the typing is taken again while the terminal's mode or its
        foreground group changed during it (up to SETTLE_TRIES times). Why: the mode is read first and the
        foreground judged after, so a program that quits in between (it restores the mode, then exits) is judged
        as it dies: its executable can no longer be read, and it counts by a name it no longer goes by (less run as
        man's `pager`), hiding a line typed in plain sight. A state still changing after that stays unseen."""
        for _ in range(SETTLE_TRIES - 1):
            before = self._state(pty)
            reading = self._pty_once(pty, depth)
            if reading.mode == VISIBLE or self._state(pty) == before:
                return reading
            log.debug("%s changed while it was read (%s): read again", pty.path, reading.why)
        return self._pty_once(pty, depth)  # the last try stands as it is

    @staticmethod
    def _state(pty: Pty) -> tuple[int | None, int | None]:
        """What a reading rests on: the pty's mode flags and its foreground process group."""
        stat = _stat(pty.leader) if pty.leader else None
        return _lflag(pty.path), stat.tpgid if stat else None

    def _pty_once(self, pty: Pty, depth: int) -> Reading:
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
        try:
            return self._raw(pty, depth)
        except Exception:  # never let a surprise in /proc make a line visible
            log.exception("judging %s's raw mode failed", pty.path)
            return Reading(UNSEEN, raw=True, why=f"{pty.path}: raw mode, judging it failed")

    def _raw(self, pty: Pty, depth: int) -> Reading:
        """Raw mode with echo off: the program echoes (or not) itself. Who set it? (The module's docstring.)"""
        def unseen(why: str, program: str = "") -> Reading:
            return Reading(UNSEEN, raw=True, why=f"{pty.path}: {why}", program=program)

        if not self.linux:
            return unseen("raw mode, foreground unknown here")
        stat = _stat(pty.leader) if pty.leader else None
        if stat is None or pty.leader is None:
            return unseen("raw mode, no shell found")
        if stat.tpgid <= 0:
            return unseen("raw mode, no foreground process group")
        members, below = self.procs.job(pty.leader, stat.tpgid)
        if not members:
            return unseen("raw mode, the foreground process group is gone")
        judged = {pid: self._judge(pid, st, pty.path) for pid, st in members.items()}
        remote = _relayed(judged, below)
        if remote is not None:
            return unseen(*remote)
        if len(judged) == 1:
            (pid, only), = judged.items()
            if only.name == MULTIPLEXER:
                return self._in_multiplexer(pty, depth, pid, only, unseen)
        hidden = _not_echoing(judged)
        if hidden is not None:
            return unseen(*hidden)
        programs = sorted({j.name for j in judged.values()})
        shell = all(j.shell for j in judged.values())
        what = ("the shell's line editor" if shell
                else " and ".join(programs) + (" echo" if len(programs) > 1 else " echoes"))
        # keys waiting in the terminal's input (`_queued`): the shell has not read them, perhaps not even the Enter
        # of the line before (a busy machine), after which another program may read them (sudo's typed-ahead
        # password): such a reading cannot say the shell reads the line being typed (`queued`)
        queued = shell and _queued(pty.path) != 0
        return Reading(VISIBLE, raw=True, why=f"{pty.path}: {what}", program=",".join(programs), shell=shell,
                       queued=queued)

    def _in_multiplexer(self, pty: Pty, depth: int, pid: int, mux: Judged,
                        unseen: Callable[[str, str], Reading]) -> Reading:
        """tmux in the foreground: the reading of the pane it shows (one level deep: tmux inside tmux is unseen)."""
        if depth:
            return unseen("tmux inside tmux", MULTIPLEXER)
        pane = self._pane_of(pid, pty.path, _argv(mux.cmdline))
        if pane is None:
            return unseen("tmux pane not resolved", MULTIPLEXER)
        return self._pty(pane, depth + 1)

    def _judge(self, pid: int, st: Stat, path: str) -> Judged:
        """What a foreground process is: a shell at its own prompt, an allowlisted program, or neither (cached
        while its command line and name stay the same: an exec changes them)."""
        now = time.monotonic()
        cmdline = _read(f"/proc/{pid}/cmdline") or b""
        cached = self._judged.get(pid)
        if (cached is not None and now - cached.at < PROGRAM_CACHE_SECONDS and cached.cmdline == cmdline
                and cached.comm == st.comm):
            return cached
        name, argv = _program(pid, cmdline)
        echoes, shell, why = echoes_locally(name, argv), False, ""
        names = _names(pid, st.comm, argv)
        if name in SHELLS:
            if not echoes:  # (never the command line in the log: it may hold a secret)
                why = f"a script or command run by {name}"
            else:
                try:
                    stdin = os.readlink(f"/proc/{pid}/fd/0")
                except OSError:
                    stdin = path  # another user's shell (root's `su - alice`): its command line is what we know
                if stdin != path:
                    echoes, why = False, f"{name} reads its commands from elsewhere than this terminal"
                elif _forked_copy(pid, st.ppid):
                    echoes, why = False, f"a subshell of {name}"
                else:
                    shell = True
        elif name in VIM_NAMES and not echoes:
            why = "vim may ask for a key (its command line)"
        judged = Judged(now, cmdline, st.comm, name, names, echoes, shell, why)
        if len(self._judged) >= MAX_CACHE:
            self._judged.clear()
        self._judged[pid] = judged
        return judged

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


def _relayed(judged: dict[int, Judged], below: dict[int, Stat]) -> tuple[str, str] | None:
    """(why, program) when a foreground process, or one below it, relays the keys to where their echo cannot be
    seen (ssh, a remote shell); None otherwise."""
    names = [(pid, j.names) for pid, j in judged.items()]
    for pid, known in names + [(pid, _names(pid, st.comm)) for pid, st in below.items()]:
        remote = known & REMOTE
        if remote:
            return f"keys relayed where their echo cannot be seen ({min(remote)}, pid {pid})", min(remote)
    return None


def _not_echoing(judged: dict[int, Judged]) -> tuple[str, str] | None:
    """(why, program) when a foreground process reads raw keys without echoing them, or is a vim with an
    encryption key; None when every one echoes."""
    for pid, j in judged.items():
        if not j.echoes:
            return f"{j.why or (j.name or 'a program') + ' reads raw keys'} (pid {pid})", j.name
        if j.name in VIM_NAMES:
            key = _vim_key_file(pid)
            if key:
                return f"vim: {key} (pid {pid})", j.name
    return None
