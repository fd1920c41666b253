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
    tests/test_raw_mode_watched.py): vim (with `-x`, `-r`/`-L`, or an `X`/`key` command in its argv it may ask a key:
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
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from proactive.watcher.privacy.echo_programs import (
    MULTIPLEXER,
    REMOTE,
    REPLS,
    SHELLS,
    VIM_NAMES,
    argv_of,
    echoes_locally,
    names_of,
    program_of,
    vim_key_file,
)
from proactive.watcher.privacy.proc_table import (
    Processes,
    Stat,
    all_processes,
    forked_copy,
    local_flags,
    master_ptys,
    pts_path,
    queued_bytes,
    read_proc,
    stat_of,
)

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


@dataclass(frozen=True)
class Pty:
    """One pseudo-terminal shown by a window: its slave device and the session leader there (its shell)."""

    path: str
    leader: int | None = None


#: said in a reading's `why` when keys waited unread (tests/conftest.py waits for a reading without it)
QUEUED_NOTE = ", keys queued"


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
    names: frozenset[str]  # every name it goes by (`names_of`)
    echoes: bool
    shell: bool
    why: str


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
        masters = master_ptys(pid) if self.linux else None
        if not self.linux:
            view = self._view_psutil(pid, now)
            if view is None:
                return None
        elif masters:
            missing = [p for p in masters if not self._leader_alive(p)]
            if missing:
                self._find_leaders(all_processes(), missing)
            view = View(tuple(Pty(p, self._leaders.get(p)) for p in masters), owner=True, at=now)
        else:
            table = all_processes()
            ttys = self._descendant_ttys(pid, table)
            self._find_leaders(table, ttys)
            view = View(tuple(Pty(p, self._leaders.get(p)) for p in ttys), owner=False, at=now)
        if len(self._views) >= MAX_CACHE:
            self._views.clear()
        self._views[pid] = view
        return view

    def _leader_alive(self, path: str) -> bool:
        leader = self._leaders.get(path)
        stat = stat_of(leader) if leader else None
        return bool(stat and stat.session == leader and pts_path(stat.tty_nr) == path)

    def _find_leaders(self, table: dict[int, Stat], paths: list[str]) -> None:
        wanted = set(paths)
        for pid, stat in table.items():
            path = pts_path(stat.tty_nr)
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
            path = pts_path(tty_nr) if tty_nr != own else None
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
        stat = stat_of(pty.leader) if pty.leader else None
        return local_flags(pty.path), stat.tpgid if stat else None

    def _pty_once(self, pty: Pty, depth: int) -> Reading:
        import termios

        lflag = local_flags(pty.path)
        if lflag is None:
            gone = not os.path.exists(pty.path)
            return Reading(VISIBLE if gone else UNSEEN, why=f"{pty.path} {'closed' if gone else 'unreadable'}")
        echo, canonical = bool(lflag & termios.ECHO), bool(lflag & termios.ICANON)
        if canonical and not echo:
            return Reading(HIDDEN, why=f"{pty.path}: echo off, line input")
        if echo:
            return Reading(VISIBLE, raw=not canonical, why=f"{pty.path}: echo on")
        try:
            return self._raw(pty, depth, bool(lflag & termios.ISIG))
        except Exception:  # never let a surprise in /proc make a line visible
            log.exception("judging %s's raw mode failed", pty.path)
            return Reading(UNSEEN, raw=True, why=f"{pty.path}: raw mode, judging it failed")

    def _raw(self, pty: Pty, depth: int, signals: bool = True) -> Reading:
        """Raw mode with echo off: the program echoes (or not) itself. Who set it? (The module's docstring.)
        `signals`: the line discipline still turns Ctrl+C into a signal (ISIG), as a REPL's own line editor leaves
        it (GNU readline, Python's REPL); code the REPL runs that reads the keys itself (prompt_toolkit's
        `prompt(is_password=True)`, a curses dialog) turns it off: then the REPL is not what reads them."""
        def unseen(why: str, program: str = "") -> Reading:
            return Reading(UNSEEN, raw=True, why=f"{pty.path}: {why}", program=program)

        if not self.linux:
            return unseen("raw mode, foreground unknown here")
        stat = stat_of(pty.leader) if pty.leader else None
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
        repl = next((j.name for j in judged.values() if j.name in REPLS), None)
        if repl is not None and not signals:  # judged by what the terminal shows, not by the program's name
            return unseen(f"{repl} runs code that reads the keys itself (signals off)", repl)
        programs = sorted({j.name for j in judged.values()})
        shell = all(j.shell for j in judged.values())
        what = ("the shell's line editor" if shell
                else " and ".join(programs) + (" echo" if len(programs) > 1 else " echoes"))
        # keys waiting in the terminal's input (`queued_bytes`): the shell has not read them, perhaps not even the Enter
        # of the line before (a busy machine), after which another program may read them (sudo's typed-ahead
        # password): such a reading cannot say the shell reads the line being typed (`queued`)
        queued = shell and queued_bytes(pty.path) != 0
        return Reading(VISIBLE, raw=True, why=f"{pty.path}: {what}{QUEUED_NOTE if queued else ''}",
                       program=",".join(programs), shell=shell, queued=queued)

    def _in_multiplexer(self, pty: Pty, depth: int, pid: int, mux: Judged,
                        unseen: Callable[[str, str], Reading]) -> Reading:
        """tmux in the foreground: the reading of the pane it shows (one level deep: tmux inside tmux is unseen)."""
        if depth:
            return unseen("tmux inside tmux", MULTIPLEXER)
        pane = self._pane_of(pid, pty.path, argv_of(mux.cmdline))
        if pane is None:
            return unseen("tmux pane not resolved", MULTIPLEXER)
        return self._pty(pane, depth + 1)

    def _judge(self, pid: int, st: Stat, path: str) -> Judged:
        """What a foreground process is: a shell at its own prompt, an allowlisted program, or neither (cached
        while its command line and name stay the same: an exec changes them)."""
        now = time.monotonic()
        cmdline = read_proc(f"/proc/{pid}/cmdline") or b""
        cached = self._judged.get(pid)
        if (cached is not None and now - cached.at < PROGRAM_CACHE_SECONDS and cached.cmdline == cmdline
                and cached.comm == st.comm):
            return cached
        name, argv = program_of(pid, cmdline)
        echoes, shell, why = echoes_locally(name, argv), False, ""
        names = names_of(pid, st.comm, argv)
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
                elif forked_copy(pid, st.ppid):
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
    for pid, known in names + [(pid, names_of(pid, st.comm)) for pid, st in below.items()]:
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
            key = vim_key_file(pid)
            if key:
                return f"vim: {key} (pid {pid})", j.name
    return None
