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
End to end, with `proactive watch` running: tests/test_raw_mode_watched.py.
"""

from __future__ import annotations

import contextlib
import os
import pty
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from proactive.watcher.privacy import proc_table
from proactive.watcher.privacy.echo_programs import (
    echoes_locally,
    editor_key_lines,
    interactive_shell,
    vim_may_ask_key,
)
from proactive.watcher.privacy.echo_state import UNSEEN, VISIBLE, EchoWatch, Pty, Reading
from proactive.watcher.privacy.proc_table import Processes

from .conftest import wait_for
from .raw_mode_support import PYTHON, drain, foreground, script, vim, vim_encrypt, wait_reading
from .shell_pty import ShellPty

__all__ = ["vim"]  # a fixture (tests/raw_mode_support.py)



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

        def _raw(self, pty: Pty, depth: int, signals: bool = True) -> Reading:
            if self.how is not None:
                (pid, _, _), = foreground(terminal.path)
                self.how(pid)
                self.how = None
                wait_for(lambda: process_state(pid) == "Z", what="the pager to end")
            return super()._raw(pty, depth, signals)

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
        def state() -> Reading:
            drain(master)
            watch = EchoWatch()  # looked up afresh: the child may not have taken its terminal yet at the first look
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
