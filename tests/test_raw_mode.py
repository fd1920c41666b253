"""Raw mode judged by who set it, not by the program's name (watcher/privacy/echo_state.py).

With ICANON and ECHO off the program echoes, or not, itself. Only an interactive shell at its own prompt and an
allowlisted program that is itself in the foreground are taken to echo; a script, a subshell, an interpreter
running something else, an unknown program is unseen, and a remote session anywhere in the foreground job or
below it is unseen however it was started.

Unit level (no X): the argv rules, then real processes on real ptys: a bash script reading `read -e -s`, a
subshell, a nested `bash` with its parent's very command line, a pager quitting while its mode is read (read again;
unseen when killed without restoring it), a script as the session leader that execs a shell,
a remote client in a `set +m` shell's job and in another session below it, vim's key prompts (`-x`, an encrypted
file, an encrypted buffer), and the process table following new processes without scanning /proc again.
End to end: real programs in xterm on Xvfb with keys typed by xdotool while `proactive watch` runs: `read -e -s`
in a bash script (five times, beside CPU hogs) and `xterm -e` a script; sudo with `Defaults pwfeedback` called
from a script by a test user after root's `su - alice` (five times, beside CPU hogs); ssh to a loopback sshd from
a wrapper script (five remote `read -s`); the allowlisted programs' ordinary typing (less, man, more, top,
sqlite3, nano, the Python REPL with a getpass in it, vim) with vim's own key prompts (`vim -x`, then opening the
file it encrypted); `:X` typed in vim (an expected failure until the privacy filter counts `editor_key_lines`).
No secret anywhere (database, WAL, logs, outputs); the lines around them kept (or, where the watcher read a line's
keys late on this shared machine, hidden as the pipeline says in its log: `assert_stored`).
"""

from __future__ import annotations

import contextlib
import os
import pty
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from proactive.watcher.privacy import proc_table
from proactive.watcher.privacy.echo_programs import (
    echoes_locally,
    editor_key_lines,
    interactive_shell,
    program_of,
    vim_may_ask_key,
)
from proactive.watcher.privacy.echo_state import UNSEEN, VISIBLE, EchoWatch, Pty, Reading
from proactive.watcher.privacy.proc_table import Processes

from .conftest import WatcherProcess, XSession, all_bytes, run_cli, wait_for
from .shell_pty import ShellPty
from .test_hidden_input import (
    HIDDEN_LINE,
    Lines,
    at_shell,
    hidden_prompt,
    lflag,
    shell_xterm,
    sshd,
    stored_lines,
)

__all__ = ["sshd"]  # the loopback sshd fixture, shared with tests/test_hidden_input.py

PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else shutil.which("python3") or "python3"


# -- the rules on command lines ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, argv, interactive", [
    ("bash", ["bash"], True), ("bash", ["-bash"], True), ("bash", ["/bin/bash", "--norc", "--noprofile", "-i"], True),
    ("bash", ["bash", "--rcfile", "/x/shellIntegration.sh"], True), ("bash", ["bash", "--init-file=/x"], True),
    ("bash", ["bash", "-o", "vi"], True), ("zsh", ["zsh", "-il"], True), ("fish", ["fish", "-d", "x"], True),
    ("dash", ["sh"], True), ("bash", ["bash", "-"], True),
    ("bash", ["/bin/bash", "./ask.sh"], False), ("bash", ["bash", "-c", "read -e -s x"], False),
    ("bash", ["bash", "-lc", "x"], False), ("bash", ["bash", "-O", "extglob", "script"], False),
    ("bash", ["bash", "-o", "errexit", "script"], False), ("bash", ["bash", "--", "script"], False),
    ("dash", ["sh", "-s"], False), ("bash", ["bash", "-i", "script"], False), ("fish", ["fish", "-C", "x"], False),
    ("fish", ["fish", "--init-command=read -s"], False), ("bash", [], False), ("python", ["python3"], False),
])
def test_an_interactive_shell_has_no_script_and_no_command(name: str, argv: list[str], interactive: bool) -> None:
    assert interactive_shell(name, argv) is interactive


@pytest.mark.parametrize("argv, asks", [
    (["vim", "notes.md"], False), (["vim", "-u", "NONE", "-N", "+42", "notes.md"], False),
    (["vim", "--remote-expr", "x"], False),
    (["vim", "-x", "notes.md"], True), (["vim", "-Rx", "notes.md"], True), (["vim", "-r", "notes.md"], True),
    (["vim", "+X", "notes.md"], True), (["vim", "-c", "X", "notes.md"], True),
    (["vim", "--cmd", "set key=abc"], True), (["vim", "-c", "let k = inputsecret('k')"], True),
])
def test_vim_may_ask_a_key_by_its_command_line(argv: list[str], asks: bool) -> None:
    assert vim_may_ask_key(argv) is asks
    assert echoes_locally("vim", argv) is not asks


@pytest.mark.parametrize("name, argv, echoes", [
    ("less", ["less", "file"], True), ("man", ["man", "ls"], True), ("top", ["top"], True), ("nano", ["nano"], True),
    ("more", ["more", "f"], True), ("sqlite", ["sqlite3"], True), ("python", ["python3", "-q"], True),
    ("python", ["python3", "-c", "code"], False), ("python", ["python3", "-m", "mod"], False),
    ("node", ["node"], False), ("mysql", ["mysql"], False), ("psql", ["psql"], False), ("nvim", ["nvim"], False),
    ("emacs", ["emacs", "-nw"], False), ("redis-cli", ["redis-cli", "--askpass"], False),
])
def test_the_allowlist_keeps_only_programs_tested_here(name: str, argv: list[str], echoes: bool) -> None:
    assert echoes_locally(name, argv) is echoes


@pytest.mark.parametrize("line, lines", [
    (":X", 2), ("ihello:X", 2), (": X ", 2), (":x", 0), (":wq", 0), ("echo X", 0), ("ls", 0), ("a:Xb", 0),
])
def test_vims_x_command_asks_its_key_twice(line: str, lines: int) -> None:
    assert editor_key_lines(line) == lines


# -- the judgement of real processes on real ptys ------------------------------------------------------------------


def script(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    path.chmod(0o755)
    return path


def foreground(path: str) -> list[tuple[int, str, list[str]]]:
    """The processes of a pty's foreground group: (pid, program name, argv)."""
    table = proc_table.all_processes()
    leaders = [pid for pid, st in table.items() if st.session == pid and proc_table.pts_path(st.tty_nr) == path]
    if not leaders:
        return []
    group = table[leaders[0]].tpgid
    out = []
    for pid, st in table.items():
        if st.session == leaders[0] and st.pgrp == group:
            name, argv = program_of(pid)
            out.append((pid, name, argv))
    return out


def reading_of(path: str) -> Reading:
    """The echo state of one pty (its session leader found by a scan), from a fresh EchoWatch."""
    table = proc_table.all_processes()
    leader = next((pid for pid, st in table.items() if st.session == pid and proc_table.pts_path(st.tty_nr) == path),
                  None)
    return EchoWatch()._pty(Pty(path, leader))


def wait_reading(read: Callable[[], Reading], mode: str, what: str, why: str = "") -> Reading:
    """The first reading in `mode` (and saying `why`), waiting for it."""
    def found() -> Reading | None:
        reading = read()
        return reading if reading.mode == mode and why in reading.why else None

    return wait_for(found, what=what)


def test_a_script_a_subshell_and_a_nested_shell(terminal: ShellPty, tmp_path: Path) -> None:
    """`read -e -s` (readline: raw mode, echo off) run by a bash script and by a subshell is unseen; a nested
    interactive bash with its parent's very command line (`bash --norc --noprofile -i`) is told apart from a
    subshell by its environment, and echoes."""
    ask = script(tmp_path, "ask.sh", "#!/bin/bash\nread -e -s -p 'Key: ' key\n")
    watch = EchoWatch()
    view = watch.view(terminal.pid)
    assert view is not None
    prompt = watch.read(view)
    assert (prompt.mode, prompt.raw, prompt.shell, prompt.program) == (VISIBLE, True, True, "bash")
    for command, why in ((str(ask), "a script or command run by bash"), ("( read -e -s x )", "a subshell of bash"),
                         ("bash -c 'read -e -s x'", "a script or command run by bash")):
        terminal.run(command)
        reading = wait_reading(lambda: watch.read(view), UNSEEN, f"{command} in the foreground")
        assert reading.raw and why in reading.why and not reading.shell, reading
        terminal.run("typed")
        wait_reading(lambda: watch.read(view), VISIBLE, "the prompt again")
    terminal.run("bash --norc --noprofile -i")  # the parent's own command line
    wait_for(lambda: [p for p in foreground(terminal.path) if p[0] != terminal.shell], what="the nested bash")
    (nested, name, argv), = foreground(terminal.path)
    assert nested != terminal.shell and argv == ["bash", "--norc", "--noprofile", "-i"]
    wait_for(lambda: not terminal.lflag()[1], what="the nested bash's prompt")
    reading = watch.read(view)
    assert (reading.mode, reading.shell) == (VISIBLE, True), reading
    terminal.run("( read -e -s x )")  # a subshell of the nested shell
    wait_reading(lambda: watch.read(view), UNSEEN, "the nested shell's subshell")
    terminal.run("typed")
    wait_for(lambda: [p[0] for p in foreground(terminal.path)] == [nested], what="the nested shell's prompt")
    terminal.run("exit")
    wait_for(lambda: [p[0] for p in foreground(terminal.path)] == [terminal.shell], what="the first shell again")


def process_state(pid: int) -> str:
    """A process's state letter from /proc (R, S, T, Z...), or "" once it is gone."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return ""


def test_a_program_quitting_while_its_mode_is_read_is_read_again(terminal: ShellPty, tmp_path: Path) -> None:
    """less run by a name it does not otherwise go by (man's `pager`) quits between the reading of the terminal's
    raw mode and the judging of the foreground: dead, its executable can no longer be read, so it would count by
    that name and hide a line typed in plain sight. The mode changed under the reading (less restored it), so it
    is taken again and shows the echo. A pager killed without restoring the mode leaves nothing changing: unseen
    (fail closed; the last case: the terminal stays in its mode). bash is stopped meanwhile, so the dead pager stays in the foreground as a zombie."""
    less = shutil.which("less")
    if not less:
        pytest.skip("less is not installed (packaging/setup.sh test installs it)")
    (tmp_path / "pager").symlink_to(less)
    (tmp_path / "long.txt").write_text("".join(f"line {i}\n" for i in range(400)))

    class Quitting(EchoWatch):
        """Quits the pager (`how`) once the raw mode was read, before the foreground is judged."""

        def __init__(self, how: Callable[[int], None]) -> None:
            super().__init__()
            self.how: Callable[[int], None] | None = how

        def _raw(self, pty: Pty, depth: int) -> Reading:
            if self.how is not None:
                (pid, _, _), = foreground(terminal.path)
                self.how(pid)
                self.how = None
                wait_for(lambda: process_state(pid) == "Z", what="the pager to end")
            return super()._raw(pty, depth)

    for how, mode in ((lambda pid: terminal.run("q"), VISIBLE), (lambda pid: os.kill(pid, 9), UNSEEN)):
        terminal.run(f"{tmp_path / 'pager'} {tmp_path / 'long.txt'}")
        wait_for(lambda: [name for _, name, _ in foreground(terminal.path)] == ["less"]
                 and terminal.lflag() == (False, False), what="the pager in raw mode")
        os.kill(terminal.shell, signal.SIGSTOP)
        try:
            reading = Quitting(how)._pty(Pty(terminal.path, terminal.shell))
        finally:
            os.kill(terminal.shell, signal.SIGCONT)
        assert reading.mode == mode, reading
        # the prompt (a line typed while bash takes the terminal back may be lost)
        wait_for(lambda: [p[0] for p in foreground(terminal.path)] == [terminal.shell]
                 and terminal.lflag() == (False, False), what="the prompt again")


def test_a_script_as_the_session_leader_is_unseen_until_it_execs_a_shell(tmp_path: Path) -> None:
    """`xterm -e ./script.sh`: the session leader itself is the script. Once it execs an interactive shell, the
    same process (a new command line) is a shell at its prompt."""
    leader = script(tmp_path, "leader.sh", "#!/bin/bash\nread -e -s -p 'Key: ' key\n"
                                           "PS1='$ ' exec bash --norc --noprofile -i\n")
    pid, master = pty.fork()
    if pid == 0:  # the child: the session leader on the new pty
        os.execve(str(leader), [str(leader)], {"PATH": os.environ["PATH"], "TERM": "xterm", "HOME": str(tmp_path)})
    try:
        watch = EchoWatch()

        def state() -> Reading:
            drain(master)
            watch.forget(os.getpid())  # the child may not have taken its terminal yet at the first look
            view = watch.view(os.getpid())
            assert view is not None and len(view.ptys) == 1
            return watch.read(view)

        reading = wait_reading(state, UNSEEN, "the script's read", "a script or command run by bash")
        assert reading.program == "bash" and f"(pid {pid})" in reading.why, reading
        os.write(master, b"typed\r")
        reading = wait_reading(state, VISIBLE, "the exec'd shell", "the shell's line editor")
        assert reading.shell and reading.raw, reading
        os.write(master, b"exit\r")
    finally:
        os.close(master)
        os.waitpid(pid, 0)


def test_a_remote_client_in_the_foreground_job_or_below_it_is_unseen(terminal: ShellPty, tmp_path: Path) -> None:
    """A relay named ssh (a raw-mode program forwarding keys) run by an interactive shell without job control (it
    joins the shell's own group), and in a session of its own below the shell (`setsid`): unseen, the shell in
    the foreground notwithstanding. One left in the background does not hide the prompt."""
    relay = script(tmp_path, "ssh", f"#!{PYTHON}\nimport sys, time, tty\ntty.setraw(0)\ntime.sleep(60)\n")
    watch = EchoWatch()
    view = watch.view(terminal.pid)
    assert view is not None

    def stop_relays() -> None:
        for pid in subprocess.run(["pgrep", "-f", str(relay)], capture_output=True, text=True).stdout.split():
            os.kill(int(pid), 9)  # only the relays this test started (their path is in this test's folder)

    try:
        for command in (str(relay), f"setsid {relay}"):
            terminal.run(f"set +m; {command}")  # one line: the pty's holder may keep a second one until a third
            reading = wait_reading(lambda: watch.read(view), UNSEEN, f"{command} running")
            assert "keys relayed where their echo cannot be seen (ssh" in reading.why, reading
            stop_relays()
            wait_reading(lambda: watch.read(view), VISIBLE, "the prompt again")
        terminal.run(f"set -m; {relay} &")
        wait_for(lambda: subprocess.run(["pgrep", "-f", str(relay)], capture_output=True).returncode == 0,
                 what="the background relay")
        time.sleep(0.3)
        reading = watch.read(view)
        assert (reading.mode, reading.shell) == (VISIBLE, True), reading
    finally:
        stop_relays()


def test_a_real_relay_that_turns_echo_off_is_unseen(terminal: ShellPty, tmp_path: Path) -> None:
    """socat, a real relay (not a script named like one), sets the terminal raw with echo off and forwards the
    keys to a process whose echo nobody can see: unseen, and the prompt visible again once it ends."""
    watch = EchoWatch()
    view = watch.view(terminal.pid)
    assert view is not None
    marker = tmp_path / "relayed"
    try:
        terminal.run(f"socat STDIO,raw,echo=0 SYSTEM:'sleep 60; touch {marker}'")
        reading = wait_reading(lambda: watch.read(view), UNSEEN, "socat relaying")
        assert "keys relayed where their echo cannot be seen (socat" in reading.why, reading
    finally:
        subprocess.run(["pkill", "-f", "socat STDIO,raw,echo=0"], check=False)
    wait_reading(lambda: watch.read(view), VISIBLE, "the prompt again")


def test_the_process_table_follows_new_processes_without_scanning_again(terminal: ShellPty,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """After one scan, the processes a shell starts are found from the pids handed out since (a scan is
    forbidden here); the ones that end leave the table."""
    procs = Processes()
    members, below = procs.job(terminal.shell, terminal.shell)
    assert list(members) == [terminal.shell] and below == {} and procs.scans == 1
    monkeypatch.setattr(proc_table, "all_processes", lambda: pytest.fail("scanned /proc again"))
    terminal.run("set +m; sleep 30")  # in the shell's own group: a member
    # (the child is bash until it has exec'd sleep: a busy machine may show that first)
    wait_for(lambda: [st.comm for pid, st in procs.job(terminal.shell, terminal.shell)[0].items()
                      if pid != terminal.shell] == ["sleep"], what="sleep in the table")
    members, _ = procs.job(terminal.shell, terminal.shell)
    sleeper = next(pid for pid in members if pid != terminal.shell)
    assert members[sleeper].comm == "sleep"
    os.kill(sleeper, 9)
    wait_for(lambda: list(procs.job(terminal.shell, terminal.shell)[0]) == [terminal.shell], what="sleep gone")
    assert sleeper not in procs.table and procs.scans == 1


@pytest.fixture
def vim() -> str:
    binary = shutil.which("vim")
    if not binary:
        pytest.skip("vim is not installed (packaging/setup.sh test installs it)")
    if "+cryptv" not in subprocess.run([binary, "--version"], capture_output=True, text=True).stdout:
        pytest.skip("this vim has no encryption (+cryptv)")
    return binary


def drain(master: int) -> None:
    """Read what a pty of ours shows (never looked at), so its program never waits to write."""
    try:
        while select.select([master], [], [], 0.05)[0]:
            os.read(master, 65536)
    except OSError:  # its program ended
        pass


def vim_encrypt(folder: Path, name: str, key: str) -> Path:
    """A file encrypted by vim itself (its key typed at its prompt on a pty of ours)."""
    path = folder / name
    pid, master = pty.fork()
    if pid == 0:
        os.chdir(folder)
        os.execvpe("vim", ["vim", "-u", "NONE", "-N", "-n", "-x", name],
                   {"PATH": os.environ["PATH"], "TERM": "xterm", "HOME": str(folder)})
    try:
        for keys in (f"{key}\r", f"{key}\r", "ithe plan\x1b", ":wq\r"):
            time.sleep(0.4)
            os.write(master, keys.encode())
            drain(master)
        wait_for(lambda: path.exists() and path.read_bytes().startswith(b"VimCrypt~"), what="vim's encrypted file")
    finally:
        os.close(master)
        os.waitpid(pid, 0)
    return path


def test_vims_own_key_prompts_are_unseen(terminal: ShellPty, tmp_path: Path, vim: str) -> None:
    """vim echoes what is typed into it, except its key prompts: with -x it may ask at any time (unseen until it
    exits); while it holds a file with vim's encryption header it asks that file's key; while it edits an
    encrypted buffer (its swap file is encrypted) the text typed is the file's secret content."""
    locked = vim_encrypt(tmp_path, "locked.txt", "unitKey1")
    watch = EchoWatch()
    view = watch.view(terminal.pid)
    assert view is not None
    terminal.run(f"cd {tmp_path} && vim -u NONE -N plain.txt")
    wait_for(lambda: any(name == "vim" for _, name, _ in foreground(terminal.path)), what="vim")
    # (vim is in the foreground a moment before it sets raw mode: its first readings are the line discipline's)
    reading = wait_for(lambda: (r := watch.read(view)).program == "vim" and r, what="vim reading raw keys")
    assert reading.mode == VISIBLE and not reading.shell, reading
    terminal.run("\x1b:q!")
    wait_for(lambda: [p[0] for p in foreground(terminal.path)] == [terminal.shell], what="vim to quit")
    terminal.run("vim -u NONE -N -x other.txt")
    reading = wait_reading(lambda: watch.read(view), UNSEEN, "vim -x")
    assert "vim may ask for a key" in reading.why, reading
    terminal.run("unitKey2\runitKey2\r:q!")  # the key, again, and quit (one write: see above)
    wait_for(lambda: [p[0] for p in foreground(terminal.path)] == [terminal.shell], what="vim -x to quit")
    terminal.run(f"vim -u NONE -N {locked.name}")
    reading = wait_reading(lambda: watch.read(view), UNSEEN, "vim asking the file's key")
    assert "it asks the key of an encrypted file" in reading.why, reading
    terminal.run("unitKey1")
    wait_reading(lambda: watch.read(view), UNSEEN, "vim editing the encrypted buffer", "encrypted buffer")
    terminal.run("\x1b:q!")
    wait_for(lambda: [p[0] for p in foreground(terminal.path)] == [terminal.shell], what="vim to quit")


# -- end to end: real programs in xterm ----------------------------------------------------------------------------


def live_everything(watcher: WatcherProcess, live: bytes, err: str) -> bytes:
    text = run_cli("episodes", env=watcher.env).stdout + run_cli("episodes", "--json", env=watcher.env).stdout
    return live + all_bytes(watcher.home) + (text + err + watcher.stdout).encode()


def assert_never_stored(everything: bytes, secrets: list[str]) -> None:
    for secret in secrets:
        for piece in (secret, secret[:7], secret[-7:]):
            assert piece.encode() not in everything, f"{piece!r} leaked"


LATE = "its echo state was read only after it was sent"  # the pipeline's debug log (TerminalLines._judge_line)


def assert_stored(expected: Sequence[str | tuple[str, ...]], home: Path) -> None:
    """The typed lines stored are the expected ones (an entry may allow several), except that a line expected kept
    may instead be hidden when the watcher read its keys late (`TerminalLines._judge_line` fails closed, and says so in
    the --verbose log: beside CPU hogs, or on this shared machine's load); never the other way round, and never
    more such lines than the log counts."""
    lines = stored_lines()
    assert len(lines) == len(expected), (lines, expected)
    wrong = [(got, want) for got, want in zip(lines, expected, strict=True)
             if got != want and not (isinstance(want, tuple) and got in want)]
    log = (home / "logs" / "proactive.log").read_text()
    late = log.count(LATE)
    why = [row for row in log.splitlines() if "line hidden" in row or "password prompt" in row]
    assert all(got == HIDDEN_LINE for got, _ in wrong) and len(wrong) <= late, (lines, expected, late, why)
    assert any(got == want != HIDDEN_LINE for got, want in zip(lines, expected, strict=True)), lines  # not all hidden


def wait_file(path: Path, what: str, timeout: float = 20) -> None:
    wait_for(path.exists, timeout=timeout, what=what)


@pytest.mark.x11
def test_a_secret_read_in_raw_mode_by_a_script_is_never_stored(xsession: XSession, proactive_home: Path,
                                                              tmp_path: Path, cpu_hogs: None) -> None:
    """`read -e -s` (readline, raw mode) in a bash script, five times beside two CPU hogs: the foreground program
    is bash, which made it visible by name before; the secret is never stored, the lines around it are. Then
    `xterm -e` a script: the session leader itself reads the secret (and a name) in raw mode, then execs a shell
    whose lines are kept."""
    work = tmp_path / "work"
    work.mkdir()
    script(work, "ask.sh", '#!/bin/bash\n: > "$1.ready"\nread -e -s -p "Key: " key\n: > "$1.done"\n')
    pty_path = shell_xterm(xsession, tmp_path, "raw scripts", work)
    line = Lines(xsession)
    secrets = [f"rawScript{i}Canary{i * 7}Q" for i in range(5)] + ["leaderCanary5Z", "leaderName6Y"]
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    try:
        time.sleep(1)  # the watcher's start beside the hogs
        line("echo before scripts")
        for i in range(5):
            line(f"./ask.sh r{i}")
            wait_file(work / f"r{i}.ready", "the script's read")
            wait_for(lambda: lflag(pty_path) == (False, False), what="readline in the script")
            line(secrets[i], stored=HIDDEN_LINE)
            wait_file(work / f"r{i}.done", "the script to read the secret")
            wait_for(lambda: [n for _, n, _ in foreground(pty_path)] == ["bash"] and at_shell(pty_path),
                     what="the prompt")
        line("echo after scripts")
        time.sleep(0.5)
        script(work, "leader.sh", f"#!/bin/bash\ntty > {work}/leader.tty\nread -e -s -p 'Key: ' key\n"
                                  "read -e -p 'Name: ' name\n"
                                  "PS1='$ ' exec bash --norc --noprofile\n")
        term = xsession.start_xterm("raw leader", command=[str(work / "leader.sh")])
        xsession.activate(term)
        wait_file(work / "leader.tty", "the leader script")
        leader_pty = (work / "leader.tty").read_text().strip()
        wait_for(lambda: lflag(leader_pty) == (False, False), what="the leader's read")
        line(secrets[5], stored=HIDDEN_LINE)
        time.sleep(0.3)
        line(secrets[6], stored=HIDDEN_LINE)  # not a password, but a script's raw read: unseen all the same
        wait_for(lambda: [n for _, n, a in foreground(leader_pty) if a[:1] == ["bash"]], what="the exec'd shell")
        line("echo in the leader's shell")
        time.sleep(0.3)
        live = all_bytes(proactive_home)  # the last line is stored when the watcher stops
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert_never_stored(live_everything(watcher, live, err), secrets)
    assert_stored(line.expected, proactive_home)


@pytest.fixture
def alice() -> Iterator[tuple[str, str, Path]]:
    """A real user with a password who may use sudo, which shows `*` per key of it (`Defaults pwfeedback`: sudo
    reads the password in raw mode); removed afterwards. Yields (name, password, home)."""
    if os.geteuid() != 0:
        pytest.skip("creating a user with a password and a sudoers drop-in needs root (CI runs as root)")
    for tool in ("useradd", "chpasswd", "userdel", "sudo", "su", "visudo"):
        if not shutil.which(tool):
            pytest.skip(f"{tool} is not installed (packaging/setup.sh test installs sudo)")
    name = f"praw{os.getpid() % 100000}"
    password = f"sudoCanary{os.getpid() % 1000}Pw7"
    dropin = Path(f"/etc/sudoers.d/proactive-test-{name}")
    subprocess.run(["useradd", "-m", "-s", "/bin/bash", name], check=True)
    try:
        home = Path(os.path.expanduser(f"~{name}"))
        subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True)
        dropin.write_text(f"Defaults:{name} pwfeedback, !lecture\n{name} ALL=(ALL) ALL\n")
        dropin.chmod(0o440)
        subprocess.run(["visudo", "-c", "-f", str(dropin)], check=True, capture_output=True)
        yield name, password, home
    finally:
        dropin.unlink(missing_ok=True)
        subprocess.run(["userdel", "-r", "-f", name], capture_output=True)


@pytest.mark.x11
def test_sudo_with_pwfeedback_called_by_a_script_after_su(xsession: XSession, proactive_home: Path, tmp_path: Path,
                                                          alice: tuple[str, str, Path], cpu_hogs: None) -> None:
    """Root's `su - alice` (alice's interactive login shell `-bash`, parent su: its lines kept), then a script of
    alice's that calls sudo, which reads her password in raw mode printing `*`s (`pwfeedback`): the foreground
    program is sh, which made it visible by name before. Five times beside two CPU hogs."""
    name, password, home = alice
    script(home, "elevate.sh", '#!/bin/sh\n: > "$HOME/$1.ready"\nsudo -k true && : > "$HOME/$1.done"\n')
    pty_path = shell_xterm(xsession, tmp_path, "su sudo", tmp_path)
    line = Lines(xsession)
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    try:
        time.sleep(1)  # the watcher's start beside the hogs
        line("echo root here")
        line(f"su - {name}")
        wait_for(lambda: [a for _, _, a in foreground(pty_path)] == [["-bash"]] and at_shell(pty_path),
                 what=f"{name}'s login shell")
        time.sleep(0.3)
        reading = reading_of(pty_path)
        assert (reading.mode, reading.shell) == (VISIBLE, True), reading
        # the first line after `su`: su may have asked a password, so the line is kept or hidden as its answer
        # (the pipeline's business, `PrivacyFilter.read_by_shell`; not the echo state's)
        line(f"echo {name} here")
        expected: list[str | tuple[str, ...]] = [*line.expected]
        expected[-1] = (f"echo {name} here", HIDDEN_LINE)
        time.sleep(0.3)
        line(f"echo {name} again")
        for i in range(5):
            line(f"./elevate.sh s{i}")
            wait_file(home / f"s{i}.ready", "the script")
            wait_for(lambda: lflag(pty_path) == (False, False) and "sudo" in [n for _, n, _ in foreground(pty_path)],
                     what="sudo's prompt")
            time.sleep(0.2)
            line(password, stored=HIDDEN_LINE)
            wait_file(home / f"s{i}.done", "sudo to accept the password")
            wait_for(lambda: [a for _, _, a in foreground(pty_path)] == [["-bash"]] and at_shell(pty_path),
                     what="the prompt")
        line("exit")
        wait_for(lambda: [n for _, n, _ in foreground(pty_path)] == ["bash"] and at_shell(pty_path),
                 what="root's shell")
        line("echo root again")
        time.sleep(0.3)
        live = all_bytes(proactive_home)  # the last line is stored when the watcher stops
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert_never_stored(live_everything(watcher, live, err), [password])
    assert_stored([*expected, *line.expected[len(expected):]], proactive_home)


@pytest.mark.x11
def test_an_ssh_session_started_by_a_wrapper_script_is_unseen(xsession: XSession, proactive_home: Path,
                                                              tmp_path: Path, sshd: tuple[int, Path]) -> None:
    """ssh run by a wrapper script (the foreground program is sh, ssh its child): a password typed at a remote
    `read -s` (five times) and every remote command are not stored; the lines around the session are."""
    port, key = sshd
    work = tmp_path / "work"
    work.mkdir()
    script(work, "connect.sh", f"#!/bin/sh\nssh -F /dev/null -p {port} -i {key} -o StrictHostKeyChecking=no "
                               f"-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -t root@127.0.0.1\n")
    pty_path = shell_xterm(xsession, tmp_path, "ssh wrapper", work)
    line = Lines(xsession)
    secrets = [f"remoteCanary{i}K{i * 3}x" for i in range(5)]
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    try:
        line("echo before ssh")
        line("./connect.sh")

        # ssh holds the terminal in raw mode once its session is up; the remote shell then says which terminal it
        # is on (a file on this machine: the server is on loopback), whatever other tests' terminals do meanwhile
        wait_for(lambda: reading_of(pty_path).mode == UNSEEN, timeout=20, what="ssh's session")
        line(f"cd {work}; tty > remote-tty", stored=HIDDEN_LINE)
        wait_file(work / "remote-tty", "the remote shell")
        remote = wait_for(lambda: (work / "remote-tty").read_text().strip(), what="the remote terminal's name")
        wait_for(lambda: at_shell(remote), timeout=20, what="the remote shell's prompt")
        for i in range(5):
            line(f"read -s pw; : > got{i}", stored=HIDDEN_LINE)
            wait_for(lambda: hidden_prompt(remote), timeout=20, what="the remote read -s")
            line(secrets[i], stored=HIDDEN_LINE)
            wait_file(work / f"got{i}", "the remote read to finish")
            wait_for(lambda: at_shell(remote), what="the remote prompt")
        line("echo remoteLineCanary > last", stored=HIDDEN_LINE)
        wait_file(work / "last", "the remote command")
        line("exit", stored=HIDDEN_LINE)
        wait_for(lambda: [n for _, n, _ in foreground(pty_path)] == ["bash"] and at_shell(pty_path),
                 timeout=20, what="ssh and its wrapper to end")
        line("echo after ssh")
        time.sleep(0.3)
        live = all_bytes(proactive_home)  # the last line is stored when the watcher stops
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert_never_stored(live_everything(watcher, live, err), [*secrets, "remoteLineCanary"])
    assert_stored(line.expected, proactive_home)


def wait_vim(path: str, present: bool = True) -> None:
    if present:
        wait_for(lambda: "vim" in [n for _, n, _ in foreground(path)], what="vim in the foreground")
        time.sleep(0.3)  # its prompt or its screen
    else:
        wait_for(lambda: [n for _, n, _ in foreground(path)] == ["bash"] and at_shell(path), what="vim to quit")


def holds(path: str, file: Path) -> bool:
    """A process of the pty's foreground holds `file` open (vim reading a file, asking its key)."""
    for pid, _, _ in foreground(path):
        with contextlib.suppress(OSError):
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(file) for fd in os.listdir(f"/proc/{pid}/fd")):
                return True
    return False


@pytest.mark.x11
def test_vims_x_command_never_stores_the_key(xsession: XSession, proactive_home: Path, tmp_path: Path,
                                             vim: str) -> None:
    """`:X` typed in a plain vim: vim asks the key twice in its own line editor, in the foreground as while it
    edits; the key must not be stored (the text typed before it is)."""
    work = tmp_path / "work"
    work.mkdir()
    pty_path = shell_xterm(xsession, tmp_path, "vim X", work)
    line = Lines(xsession)
    secret = "colonXCanary8P"
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    try:
        line("vim -u NONE -N -n later.txt")
        wait_vim(pty_path)
        xsession.type("ibefore the key")
        xsession.key("Escape")
        line(":X", stored="ibefore the key:X")
        time.sleep(0.5)
        line(secret, stored=HIDDEN_LINE)
        time.sleep(0.3)
        line(secret, stored=HIDDEN_LINE)
        time.sleep(0.3)
        # with a swap file vim now edits an encrypted buffer, whose encrypted swap shows it (hidden); with -n
        # nothing shows it, and the command is kept
        line(":wq", stored=(HIDDEN_LINE, ":wq"))
        wait_vim(pty_path, present=False)
        line("echo after vim")
        time.sleep(0.3)
        live = all_bytes(proactive_home)  # the last line is stored when the watcher stops
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert_never_stored(live_everything(watcher, live, err), [secret])
    assert_stored(line.expected, proactive_home)


@pytest.mark.x11
def test_the_allowlisted_programs_keep_their_typing_but_never_their_keys(xsession: XSession, proactive_home: Path,
                                                                        tmp_path: Path, vim: str) -> None:
    """The programs kept on the allowlist, each in the foreground, reading raw keys and echoing them: less, man (its
    pager), more, top, sqlite3, nano, the Python REPL and vim keep what is typed into them; their own hidden
    prompts do not: a getpass in the REPL (line input, echo off), and vim's keys: `vim -x` (the key typed twice,
    and everything typed in that vim: it may ask again at any time), then opening the file it encrypted (the key,
    and the text typed into the encrypted buffer)."""
    for tool in ("less", "man", "more", "top", "nano", "sqlite3"):
        if not shutil.which(tool):
            pytest.skip(f"{tool} is not installed (packaging/setup.sh test installs it)")
    work = tmp_path / "work"
    work.mkdir()
    (work / "long.txt").write_text("".join(f"line {i}\n" for i in range(400)))
    pty_path = shell_xterm(xsession, tmp_path, "echoing programs", work)
    line = Lines(xsession)
    secrets = ["replGetpassCanary9M", "vimKeyCanary3R", "vimTextCanary4T", "vimMoreCanary5U"]
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)

    def running(name: str) -> Callable[[], bool]:
        return lambda: name in [n for _, n, _ in foreground(pty_path)] and not lflag(pty_path)[1]

    def back() -> None:
        wait_for(lambda: [n for _, n, _ in foreground(pty_path)] == ["bash"] and at_shell(pty_path),
                 what="the prompt")

    try:
        for command, name, keys, stored, quit_key in (
                ("less long.txt", "less", "/line 250", "/line 250", "q"),
                ("man ls", "less", "/sort", "/sort", "q"),
                ("more long.txt", "more", "/line 120", "/line 120", "q"),
                ("top -d 5", "top", "u", None, "q"),
                ("sqlite3", "sqlite", "select 41 + 1;", "select 41 + 1;", None)):
            line(command)
            wait_for(running(name), what=command)
            time.sleep(0.1)
            if name == "top":
                xsession.type("u")
                time.sleep(0.2)
                line("root", stored="uroot")
            else:
                line(keys, stored=stored)
            if quit_key:
                xsession.type(quit_key)
            else:
                line(".quit")
            back()
            if quit_key:
                line("echo done", stored=f"{quit_key}echo done")  # the quit key begins the next line
        line("nano -I notes.txt")
        wait_for(running("nano"), what="nano")
        time.sleep(0.3)
        line("a note in nano")
        xsession.key("ctrl+o")  # write out: its file name prompt, taken with Enter
        time.sleep(0.3)
        xsession.key("Return")
        line.expected.append("")  # (Ctrl+O types nothing: an empty line)
        time.sleep(0.3)
        xsession.key("ctrl+x")
        back()
        assert (work / "notes.txt").read_text().startswith("a note in nano")
        line(f"{PYTHON} -q")
        wait_for(running("python"), what="the REPL")
        time.sleep(0.3)
        line("x = 6 * 7")
        line("import getpass; k = getpass.getpass('Key: ')")
        wait_for(lambda: hidden_prompt(pty_path), what="getpass")
        line(secrets[0], stored=HIDDEN_LINE)
        wait_for(lambda: not lflag(pty_path)[1], what="the REPL's prompt")
        line("exit()")
        back()
        line("vim -u NONE -N -n plain.txt")
        wait_vim(pty_path)
        xsession.type("ihello plain vim")
        xsession.key("Escape")
        line(":wq", stored="ihello plain vim:wq")  # the keys since the last Enter; Escape adds nothing
        wait_vim(pty_path, present=False)
        line("vim -u NONE -N -n -x vault.txt")
        wait_vim(pty_path)
        line(secrets[1], stored=HIDDEN_LINE)
        time.sleep(0.3)
        line(secrets[1], stored=HIDDEN_LINE)
        time.sleep(0.3)
        xsession.type(f"i{secrets[2]}")
        xsession.key("Escape")
        line(":wq", stored=HIDDEN_LINE)
        wait_vim(pty_path, present=False)
        assert (work / "vault.txt").read_bytes().startswith(b"VimCrypt~")
        line("vim -u NONE -N vault.txt")
        wait_for(lambda: holds(pty_path, work / "vault.txt"), what="vim asking the file's key")
        line(secrets[1], stored=HIDDEN_LINE)
        wait_for(lambda: not holds(pty_path, work / "vault.txt"), what="vim to read the file")
        xsession.type(f"o{secrets[3]}")
        xsession.key("Escape")
        line(":q!", stored=HIDDEN_LINE)
        wait_vim(pty_path, present=False)
        line("echo after the programs")
        time.sleep(0.3)
        live = all_bytes(proactive_home)  # the last line is stored when the watcher stops
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert_never_stored(live_everything(watcher, live, err), secrets)
    assert_stored(line.expected, proactive_home)
