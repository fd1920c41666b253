"""Raw mode judged by who set it, end to end (watcher/privacy/echo_state.py; the unit level is tests/test_raw_mode.py).

Real programs in xterm on Xvfb with keys typed by xdotool while `proactive watch` runs: `read -e -s` in a bash
script (five times, beside CPU hogs) and `xterm -e` a script; sudo with `Defaults pwfeedback` called from a script
by a test user after root's `su - alice` (five times, beside CPU hogs); ssh to a loopback sshd from a wrapper script
(five remote `read -s`); the allowlisted programs' ordinary typing (less, man, more, top, sqlite3, nano, the Python
REPL with a getpass in it, vim) with vim's own key prompts (`vim -x`, then opening the file it encrypted); `:X`
typed in vim. No secret anywhere (database, WAL, logs, outputs); the lines around them kept (or, where the watcher
read a line's keys late on this shared machine, hidden as the pipeline says in its log: `assert_stored`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from proactive.watcher.privacy.echo_state import UNSEEN, VISIBLE

from .conftest import WatcherProcess, XSession, all_bytes, run_cli, wait_for
from .raw_mode_support import PYTHON, foreground, reading_of, script, vim
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

__all__ = ["sshd", "vim"]  # fixtures: the loopback sshd (tests/test_hidden_input.py), vim (tests/raw_mode_support.py)


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


def assert_run(watcher: WatcherProcess, stopped: tuple[int, str], live: bytes, secrets: list[str],
               expected: Sequence[str | tuple[str, ...]], home: Path) -> None:
    """After a watched run: the watcher exited cleanly, no secret anywhere it wrote, and the expected lines stored."""
    code, err = stopped
    assert code == 0, err
    assert_never_stored(live_everything(watcher, live, err), secrets)
    assert_stored(expected, home)


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
        watcher.flushed()
        live = all_bytes(proactive_home)  # database, WAL and logs while the watcher runs
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, secrets, line.expected, proactive_home)


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
        watcher.flushed()
        live = all_bytes(proactive_home)  # database, WAL and logs while the watcher runs
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, [password], [*expected, *line.expected[len(expected):]], proactive_home)


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
        watcher.flushed()
        live = all_bytes(proactive_home)  # database, WAL and logs while the watcher runs
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, [*secrets, "remoteLineCanary"], line.expected, proactive_home)


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
        line.expected.append("before the key")  # insert mode's text, ended by Escape; `i` is vim's command
        line(":X")  # a command line of its own, still read for the key prompt it opens
        time.sleep(0.5)
        line(secret, stored=HIDDEN_LINE)
        time.sleep(0.3)
        line(secret, stored=HIDDEN_LINE)
        time.sleep(0.3)
        # with a swap file vim now edits an encrypted buffer, whose encrypted swap shows it (hidden); with -n
        # nothing shows it, and the command is said as saving and quitting, no typed line
        xsession.type(":wq")
        xsession.key("Return")
        wait_vim(pty_path, present=False)
        line("echo after vim")
        watcher.flushed()
        live = all_bytes(proactive_home)  # database, WAL and logs while the watcher runs
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, [secret], line.expected, proactive_home)


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
        line.expected.append("hello plain vim")  # insert mode's text, ended by Escape
        # said as "saves the file and quits", no typed line; its Enter once the watcher has read the terminal for
        # it (a `:` it handles only after vim quit is the shell's line, read late: hidden, fail closed)
        watcher.enter_in_time(xsession, ":wq")
        wait_vim(pty_path, present=False)
        line("vim -u NONE -N -n -x vault.txt")
        wait_vim(pty_path)
        line(secrets[1], stored=HIDDEN_LINE)
        time.sleep(0.3)
        line(secrets[1], stored=HIDDEN_LINE)
        time.sleep(0.3)
        xsession.type(f"i{secrets[2]}")
        xsession.key("Escape")  # the line typed in insert mode ends, hidden
        line.expected.append(HIDDEN_LINE)
        xsession.type(":wq")
        xsession.key("Return")
        wait_vim(pty_path, present=False)
        assert (work / "vault.txt").read_bytes().startswith(b"VimCrypt~")
        line("vim -u NONE -N vault.txt")
        wait_for(lambda: holds(pty_path, work / "vault.txt"), what="vim asking the file's key")
        line(secrets[1], stored=HIDDEN_LINE)
        wait_for(lambda: not holds(pty_path, work / "vault.txt"), what="vim to read the file")
        xsession.type(f"o{secrets[3]}")
        xsession.key("Escape")
        line.expected.append(HIDDEN_LINE)
        xsession.type(":q!")
        xsession.key("Return")
        wait_vim(pty_path, present=False)
        line("echo after the programs")
        watcher.flushed()
        live = all_bytes(proactive_home)  # database, WAL and logs while the watcher runs
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, secrets, line.expected, proactive_home)
