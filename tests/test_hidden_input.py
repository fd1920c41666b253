"""Hidden input recognised by what the terminal shows, not by program names (watcher/privacy/echo_state.py).

Unit level: a real pty with a real bash (tests/shell_pty.py) read by `EchoWatch`. End to end: real programs that
read a secret with echo off under ordinary names (a Python getpass script, `stty -echo; read`, `read -s`, a Perl
script, unzip of an encrypted zip, `openssl pkey`, an alias, restic and borg), a tmux pane, and an ssh session to
a loopback sshd,
typed with xdotool into xterm on Xvfb while `proactive watch` runs: no secret anywhere (database, WAL, logs,
outputs), the command lines and the ordinary lines around them kept.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import termios
import time
from pathlib import Path

import pytest

from proactive.watcher.privacy.echo_programs import echoes_locally
from proactive.watcher.privacy.echo_state import HIDDEN, UNSEEN, VISIBLE, EchoWatch

from .conftest import WatcherProcess, XSession, all_bytes, run_cli, wait_for
from .shell_pty import ShellPty
from .test_terminal_secrets import HIDDEN as HIDDEN_LINE, stored_lines

# -- the echo state of a real pty ----------------------------------------------------------------------------------


def test_echo_state_of_a_real_shell(terminal: ShellPty) -> None:
    watch = EchoWatch()
    view = watch.view(terminal.pid)
    assert view is not None and view.owner and [p.path for p in view.ptys] == [terminal.path]
    assert view.ptys[0].leader == terminal.shell
    reading = watch.read(view)
    assert (reading.mode, reading.raw) == (VISIBLE, True)  # readline at the prompt
    terminal.run("read -s x")
    terminal.wait_for(lambda echo, canonical: canonical and not echo)
    assert watch.read(view).mode == HIDDEN
    terminal.run("answer")
    terminal.wait_for(lambda echo, canonical: not canonical)
    assert watch.read(view).mode == VISIBLE
    terminal.run("cat")  # a program reading lines it echoes
    terminal.wait_for(lambda echo, canonical: canonical and echo)
    assert (watch.read(view).mode, watch.read(view).raw) == (VISIBLE, False)


def test_a_raw_mode_program_that_is_not_a_line_editor_is_unseen(terminal: ShellPty, tmp_path: Path) -> None:
    """A program that reads raw keys and echoes what it likes (ssh, a curses password dialog) hides its echo."""
    relay = tmp_path / "relay"
    relay.write_text("#!/usr/bin/env python3\nimport sys, time, tty\ntty.setraw(0)\ntime.sleep(30)\n")
    relay.chmod(0o755)
    watch = EchoWatch()
    view = watch.view(terminal.pid)
    assert view is not None
    terminal.run(str(relay))
    wait_for(lambda: watch.read(view).mode == UNSEEN, timeout=10, what="the relay in the foreground")


@pytest.mark.parametrize("name, argv, echoes", [
    ("bash", ["bash"], True), ("vim", ["vim", "notes.md"], True), ("python", ["python3"], True),
    ("python", ["/usr/bin/python3", "./notes.py"], False), ("ssh", ["ssh", "host"], False),
    ("docker", ["docker", "exec", "-it", "db", "sh"], False), ("node", ["node", "login.js"], False),
    ("pinentry-curses", ["pinentry-curses"], False), ("sudo", ["sudo", "ls"], False),
])
def test_only_line_editors_count_as_echoing_in_raw_mode(name: str, argv: list[str], echoes: bool) -> None:
    assert echoes_locally(name, argv) is echoes


def test_a_window_without_a_terminal_has_no_ptys() -> None:
    sleeper = subprocess.Popen(["sleep", "30"], stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        view = EchoWatch().view(sleeper.pid)
        assert view is not None and view.ptys == ()
    finally:
        sleeper.kill()
        sleeper.wait()


# -- end to end: real programs in xterm ----------------------------------------------------------------------------


def lflag(path: str) -> tuple[bool, bool]:
    fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        flags = termios.tcgetattr(fd)[3]
    finally:
        os.close(fd)
    return bool(flags & termios.ECHO), bool(flags & termios.ICANON)


def hidden_prompt(path: str) -> bool:
    echo, canonical = lflag(path)
    return canonical and not echo


def at_shell(path: str) -> bool:
    return not lflag(path)[1]


def shell_xterm(xsession: XSession, tmp_path: Path, title: str, cwd: Path) -> str:
    """An xterm running bash in `cwd`, focused and at its prompt; returns its pty's path."""
    tty_file = tmp_path / f"tty-{title.replace(' ', '-')}"
    term = xsession.start_xterm(title, command=[
        "sh", "-c", f"cd {cwd} && tty > {tty_file} && exec env PS1='$ ' HOME={tmp_path} bash --norc --noprofile"])
    xsession.activate(term)
    wait_for(lambda: tty_file.exists() and tty_file.read_text().strip(), what="the xterm's shell")
    pty = tty_file.read_text().strip()
    wait_for(lambda: at_shell(pty), what="bash's prompt")
    return pty


SCRIPTS = {
    "notes.py": "#!/usr/bin/env python3\nimport getpass\ngetpass.getpass('Token: ')\n",
    "sync.sh": "#!/bin/sh\nprintf 'Key: '\nstty -echo\nread value\nstty echo\necho\n",
    "report.pl": "#!/usr/bin/perl\nprint 'Code: ';\nsystem('stty', '-echo');\nmy $x = <STDIN>;\n"
                 "system('stty', 'echo');\nprint \"\\n\";\n",
}


ZIP_SECRET = "zipCanary5p2T"  # the real passwords: the programs read them and finish
KEY_SECRET = "pkeyCanary6q3Y"
SEVEN_SECRET = "sevenCanary8z4K"


def prepare(work: Path) -> None:
    for name, text in SCRIPTS.items():
        (work / name).write_text(text)
        (work / name).chmod(0o755)
    (work / "plan.txt").write_text("the plan\n")
    subprocess.run(["zip", "-q", "-P", ZIP_SECRET, "vault.zip", "plan.txt"], cwd=work, check=True)
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-aes256", "-pass", f"pass:{KEY_SECRET}", "-out",
                    "key.pem"], cwd=work, check=True, capture_output=True)
    if shutil.which("7z"):
        subprocess.run(["7z", "a", f"-p{SEVEN_SECRET}", "-bso0", "vault.7z", "plan.txt"], cwd=work, check=True)


def prepared_shell(xsession: XSession, tmp_path: Path, title: str) -> str:
    """An xterm's bash in a folder with the prompting programs of `prepare`; returns its pty's path."""
    work = tmp_path / "work"
    work.mkdir()
    prepare(work)
    return shell_xterm(xsession, tmp_path, title, work)


class Lines:
    """Types lines (and Enter) into the focused window, noting what the store should hold for each. With a
    `watcher` (a verbose WatcherProcess), a line expected kept gets its Enter once the watcher has read the
    terminal's echo state for it (`WatcherProcess.enter_in_time`): a line whose keys a starved watcher reads only
    after its Enter is hidden (fail closed), which is not what these tests are about."""

    def __init__(self, xsession: XSession, watcher: WatcherProcess | None = None):
        self.xsession = xsession
        self.watcher = watcher
        self.expected: list[str] = []

    def __call__(self, text: str, stored: str | None = None, in_time: bool | None = None) -> None:
        """`in_time`: wait for the watcher's reading before Enter (by default: for a line expected kept as typed)."""
        if (stored is None if in_time is None else in_time) and self.watcher is not None:
            self.watcher.enter_in_time(self.xsession, text)
        else:
            self.xsession.type(text)
            self.xsession.key("Return")
        self.expected.append(text if stored is None else stored)


@pytest.mark.x11
def test_secrets_typed_at_echo_off_prompts_are_never_stored(xsession: XSession, proactive_home: Path,
                                                            tmp_path: Path) -> None:
    for tool in ("zip", "unzip", "openssl", "perl"):
        if not shutil.which(tool):
            pytest.skip(f"{tool} is not installed (packaging/setup.sh test installs it)")
    pty = prepared_shell(xsession, tmp_path, "hidden input")
    line = Lines(xsession)
    expected = line.expected
    canaries: list[str] = []

    def prompt(command: str, secret: str) -> None:
        """A command whose program asks for a secret with echo off; the secret typed once the prompt is up."""
        line(command)
        wait_for(lambda: hidden_prompt(pty), timeout=20, what=f"the prompt of {command!r}")
        canaries.append(secret)
        line(secret, stored=HIDDEN_LINE)
        wait_for(lambda: at_shell(pty), timeout=20, what=f"{command!r} to finish")

    def dialogue(command: str, *answers: tuple[str, bool]) -> None:
        """A command that asks several questions: (answer, hidden); a visible answer is typed once the terminal
        echoes again (a y/N question), a hidden one once echo is off."""
        line(command)
        for text, hidden in answers:
            wait_for(lambda hidden=hidden: hidden_prompt(pty) if hidden else lflag(pty) == (True, True),
                     timeout=30, what=f"a question of {command!r}")
            if hidden:
                canaries.append(text)
            line(text, stored=HIDDEN_LINE if hidden else None)
            time.sleep(0.3)  # the program reads the answer before the next question
        wait_for(lambda: at_shell(pty), timeout=60, what=f"{command!r} to finish")

    watcher = line.watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    try:
        line("echo first line")
        prompt("./notes.py", "getpassCanary1x7Q")
        prompt("./sync.sh", "sttyCanary2k8W")
        prompt("read -s -p 'Key: ' answer", "readsCanary3m9E")
        prompt("./report.pl", "perlCanary4n1R")
        prompt("unzip -o -d out vault.zip", ZIP_SECRET)
        prompt("openssl pkey -in key.pem -noout", KEY_SECRET)
        line("alias deploy=./notes.py")
        prompt("deploy", "aliasCanary7r4U")
        if shutil.which("restic"):
            dialogue("restic init --repo restic-repo", ("resticCanary8u5I", True), ("resticCanary8u5I", True))
        if shutil.which("borg"):
            dialogue("borg init --encryption=repokey borg-repo", ("borgCanary9w6O", True),
                     ("borgCanary9w6O", True), ("n", False))
        if shutil.which("7z"):
            prompt("7z x -y -oout7 vault.7z", SEVEN_SECRET)
        if shutil.which("mysql"):  # asks before it connects (nothing listens on port 1: it then exits)
            prompt("mysql -u root -p -h 127.0.0.1 -P 1", "mysqlCanary0v2B")
        line("echo last line")
        wait_for(lambda: len(stored_lines()) == len(expected), timeout=20, what="every line stored")
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    text_out = run_cli("episodes", env=watcher.env).stdout
    json_out = run_cli("episodes", "--json", env=watcher.env).stdout
    everything = live + all_bytes(proactive_home) + (text_out + json_out + err + watcher.stdout).encode()
    for canary in canaries:
        for piece in (canary, canary[:8], canary[-8:]):
            assert piece.encode() not in everything, f"{piece!r} leaked"
    assert stored_lines() == expected, watcher.echo_log()
    assert "./notes.py" in text_out and "enters a password (hidden)" in text_out


@pytest.mark.x11
def test_a_tmux_pane_prompt_is_resolved_through_tmux(xsession: XSession, proactive_home: Path,
                                                     tmp_path: Path) -> None:
    if not shutil.which("tmux"):
        pytest.skip("tmux is not installed (packaging/setup.sh test installs it)")
    sock = f"proactive-test-{os.getpid()}"
    env = f"PS1='$ ' HOME={tmp_path}"
    term = xsession.start_xterm("tmux", command=[
        "tmux", "-L", sock, "-f", "/dev/null", "new-session", "-s", "t", f"env {env} bash --norc --noprofile"])
    xsession.activate(term)

    def pane() -> str:
        out = subprocess.run(["tmux", "-L", sock, "list-panes", "-a", "-F", "#{pane_tty}"], capture_output=True,
                             text=True).stdout.split()
        return out[0] if out else ""

    try:
        wait_for(lambda: pane() and at_shell(pane()), timeout=20, what="tmux's pane")
        path = pane()
        watcher = WatcherProcess(proactive_home, xsession.env)
        try:
            xsession.type("echo in tmux")
            xsession.key("Return")
            xsession.type("read -s secret")
            xsession.key("Return")
            wait_for(lambda: hidden_prompt(path), timeout=20, what="read -s in the pane")
            xsession.type("tmuxCanary8s5I")
            xsession.key("Return")
            wait_for(lambda: at_shell(path), what="the pane's shell")
            xsession.type("echo after tmux")
            xsession.key("Return")
            watcher.flushed()
        finally:
            code, err = watcher.stop()
        assert code == 0, err
        assert b"tmuxCanary" not in all_bytes(proactive_home)
        assert stored_lines() == ["echo in tmux", "read -s secret", HIDDEN_LINE, "echo after tmux"]
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)


@pytest.fixture
def sshd(tmp_path: Path):
    """A real OpenSSH server on a loopback port, accepting one generated key for the current user."""
    binary = shutil.which("sshd") or "/usr/sbin/sshd"
    if not os.path.exists(binary) or not shutil.which("ssh"):
        pytest.skip("openssh-server is not installed (packaging/setup.sh test installs it)")
    if os.geteuid() != 0:
        pytest.skip("sshd needs root for privilege separation (CI runs as root)")
    d = tmp_path / "sshd"
    d.mkdir()
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d / "host")], check=True)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d / "user")], check=True)
    (d / "authorized_keys").write_text((d / "user.pub").read_text())
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (d / "config").write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {d / 'host'}\nPidFile {d / 'pid'}\n"
        f"AuthorizedKeysFile {d / 'authorized_keys'}\nStrictModes no\nUsePAM no\nPermitRootLogin yes\n"
        "PasswordAuthentication no\n")
    Path("/run/sshd").mkdir(exist_ok=True)
    proc = subprocess.Popen([binary, "-D", "-e", "-f", str(d / "config")], stderr=subprocess.PIPE, text=True)
    try:
        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0
        wait_for(listening, timeout=10, what="sshd listening")
        yield port, d / "user"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.x11
def test_typing_inside_an_ssh_session_is_not_stored(xsession: XSession, proactive_home: Path, tmp_path: Path,
                                                     sshd: tuple[int, Path]) -> None:
    port, key = sshd
    pty = shell_xterm(xsession, tmp_path, "ssh", tmp_path)
    command = (f"ssh -F /dev/null -p {port} -i {key} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
               f"-o LogLevel=ERROR {os.environ.get('USER') or 'root'}@127.0.0.1")
    marker = tmp_path / "remote-ran"
    watcher = WatcherProcess(proactive_home, xsession.env)
    try:
        xsession.type("echo before ssh")
        xsession.key("Return")
        xsession.type(command)
        xsession.key("Return")
        time.sleep(3)  # the login and the remote shell's prompt
        xsession.type(f"echo remoteCanary9t6O > {marker}")
        xsession.key("Return")
        wait_for(lambda: marker.exists(), timeout=20, what="the remote command to run")
        xsession.type("exit")
        xsession.key("Return")
        wait_for(lambda: at_shell(pty) and not re.search(r"\bssh\b", subprocess.run(
            ["ps", "-o", "comm=", "-t", pty.removeprefix("/dev/")], capture_output=True, text=True).stdout),
            timeout=20, what="ssh to end")
        xsession.type("echo after ssh")
        xsession.key("Return")
        watcher.flushed()
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    everything = all_bytes(proactive_home) + run_cli("episodes", env=watcher.env).stdout.encode()
    assert b"remoteCanary" not in everything
    lines = stored_lines()
    assert lines[0] == "echo before ssh" and lines[1] == command and lines[-1] == "echo after ssh", lines
    assert set(lines[2:-1]) == {HIDDEN_LINE}, lines  # the remote lines (the command and `exit`): not stored
    assert "not recorded" in run_cli("episodes", env=watcher.env).stdout
