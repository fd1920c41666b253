"""Over-hiding: ordinary text the watcher hid or redacted though it held no secret, each fixed for its class, and the
secrets beside each still hidden.

1. A command line's "N lines will be prompted" is only a prediction (`su -` run by root asks nothing, nor a `git`
   with cached credentials): a hidden line counts off only the prompt that consumed it. A line the shell's own line
   editor read (raw mode, echo shown) answered no prompt: it is kept and the prediction is dropped. A line read by
   a real prompt (echo off), or typed ahead while the predicted program runs (echo on, line input), or an answer
   to a prompter that reads in a line editor of its own (`read -es`) stays hidden.
2. Credentials in a git URL (`https://user:token@host/...`): git asks nothing (`https://user@...`: the password).
3. A prompt's text is not a password: `read -ers -p 'Token: ' t`, `sudo -p`, `getpass('Password: ')` are stored as
   typed (the answer to `read -s` stays hidden); a real value after a keyword still goes.
4. A word that ends an accessible field's text when the person moves on to another field is whole, as a terminal
   line's last word is: not stored as a fragment; typing cut by a window switch still is.

Fast tests through the real pipeline with a real bash pty whose echo state is read (keys typed live while the pty is
put in each state), and end to end in xterm on Xvfb with `proactive watch`: root's `su - USER` and a `git clone` of a
URL holding credentials.
"""

from __future__ import annotations

import functools
import os
import pwd
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from proactive.watcher.capture.sources import Source
from proactive.watcher.events import KEY, TEXT, WINDOW, RawEvent
from proactive.watcher.privacy.compose import FRAGMENT, TextComposer
from proactive.watcher.privacy.filter import PrivacyFilter
from proactive.watcher.privacy.password_prompts import answered_in_line_editor, prompt_lines
from proactive.watcher.privacy.redact import redact
from proactive.watcher.store.home import Config

from .conftest import ListSource, WatcherProcess, XSession, all_bytes, run_pipeline, wait_for
from .shell_pty import ShellPty
from .test_atspi import typing, window as gui_window
from .test_hidden_input import Lines, at_shell, shell_xterm
from .test_terminal_secrets import HIDDEN, XTERM, stored_lines

# -- the recogniser: what a command line can know ------------------------------------------------------------------


@pytest.mark.parametrize("line, lines", [
    ("git clone https://alice:ghtok3n@example.com/team/repo.git", 0),  # the URL holds the credentials
    ("git clone https://alice:@example.com/team/repo.git", 0),  # an empty password is one too
    ("git push https://alice:t0k@example.com/team/repo.git main", 0),
    ("git clone http://alice:t0k@127.0.0.1:8080/repo.git copy", 0),
    ("git clone https://alice@example.com/team/repo.git", 1),  # the user given: only the password
    ("git clone https://example.com/team/repo.git", 2),  # neither: username, then password
    ("git push", 2),
    ("read -ers -p 'Token: ' t", 1),
    ("read -rsp 'Token: ' t", 1),
    ("read -s -p 'Password: ' pw", 1),
    ("read -p 'Password: ' -s pw", 1),
    ("read -r -s -- pw", 1),
    ("read --silent pw", 1),  # fish
    ("read -ps pw", 0),  # `-p s`: a prompt "s", echo on
    ("read line", 0),
])
def test_what_a_command_line_says_it_prompts(line: str, lines: int) -> None:
    assert prompt_lines(line) == lines


@pytest.mark.parametrize("line, in_editor", [
    ("read -ers -p 'Token: ' t", True),  # bash's read -e: readline, raw mode, the shell itself reads the answer
    ("bash -c 'read -s x'", True),
    # a client's own prompt: once the shell's line editor reads a line, the client has exited (its prompt, if it
    # came, was answered: linenoise's masked input is unseen, mysql's echo-off prompt hidden)
    ("redis-cli --askpass", False),
    ("mysql -u root -p", False),
    ("su - alice", False),  # su asks with echo off and line input: a line editor's line answered it not
    ("sudo ls", False),
    ("git pull", False),
    ("ls", False),
])
def test_which_prompts_may_be_answered_in_a_line_editor(line: str, in_editor: bool) -> None:
    assert answered_in_line_editor(line) is in_editor


# -- the filter: a hidden line counts off only the prompt that consumed it -------------------------------------------


def terminal_filter() -> PrivacyFilter:
    f = PrivacyFilter(Config())
    assert f.clean(RawEvent("window", WINDOW, dict(XTERM))) is not None
    return f


def enter(f: PrivacyFilter, line: str, hidden: bool = False, by_shell: bool = False) -> tuple[str, bool]:
    """A terminal line ending as the pipeline ends it: what the shell's line editor read (`by_shell`) is told to the
    filter first, then the line is handed on, then the filter is asked about the next line. Returns the line as
    stored (HIDDEN for a hidden one) and whether the next line is hidden."""
    if by_shell:
        f.read_by_shell()
    out = f.clean(RawEvent("keyboard", TEXT, {"text": "" if hidden else line, "erase": 0, "enter": True,
                                                 **({"hidden": "password"} if hidden else {})}))
    stored = HIDDEN if out is None or out.data.get("hidden") else out.data["text"]
    return stored, f.asks_password(line, hidden, by_shell)


def test_a_line_the_shell_read_drops_the_prediction() -> None:
    f = terminal_filter()
    assert enter(f, "su - alice", by_shell=True) == ("su - alice", True)  # predicted: su asks
    assert enter(f, "ls -la", by_shell=True) == ("ls -la", False)  # root's su asked nothing: a command
    assert enter(f, "git pull", by_shell=True) == ("git pull", True)  # two predicted
    assert enter(f, "make test", by_shell=True) == ("make test", False)  # cached credentials: both dropped
    assert enter(f, "cd /tmp && sudo ls", by_shell=True) == ("cd /tmp && sudo ls", True)
    assert enter(f, "sudo ls", by_shell=True) == ("sudo ls", True)  # a command, whose own prompt is predicted


def test_lines_a_prompt_consumed_still_count_off() -> None:
    f = terminal_filter()
    assert enter(f, "git push", by_shell=True)[1]
    assert enter(f, "alice", hidden=False) == (HIDDEN, True)  # the username, typed at git's echoed prompt
    assert enter(f, "gitpw4242", hidden=True) == (HIDDEN, False)  # the password, echo off
    assert enter(f, "echo done", by_shell=True) == ("echo done", False)
    assert enter(f, "sudo ls", by_shell=True)[1]
    assert enter(f, "typedAhead4242") == (HIDDEN, False)  # typed ahead while sudo started: not the shell's


def test_what_was_shown_or_answered_in_a_line_editor_is_not_refuted() -> None:
    f = terminal_filter()
    assert enter(f, "read -ers -p 'Token: ' t", by_shell=True) == ("read -ers -p 'Token: ' t", True)
    assert not f.read_by_shell()  # readline reads `read -e`'s answer: the shell's line editor, and still a prompt
    assert enter(f, "tokenCanary1x7Q", by_shell=True) == (HIDDEN, False)
    f.prompt_shown({"prompt": "password", "pid": XTERM["pid"]})  # the terminal showed "Password:"
    assert enter(f, "shownCanary2k8W", by_shell=True) == (HIDDEN, False)
    assert enter(f, "echo after", by_shell=True) == ("echo after", False)


# -- the pipeline: keys typed live into a real bash pty's window ------------------------------------------------------

Step = str | Callable[[], Any]


class Typist(Source):
    """Keys emitted as they are typed (each stamped when typed, `pause` apart), and between the lines, steps that
    put the terminal in the state a program there would (run `read -s`, start a shell...)."""

    name = "typist"

    def __init__(self, steps: list[Step], pause: float = 0.02):
        self.steps, self.pause = steps, pause
        self.ready, self.done = threading.Event(), threading.Event()
        self.error: BaseException | None = None

    def start(self, emit: Any) -> None:
        def run() -> None:
            try:
                assert self.ready.wait(30)
                for step in self.steps:
                    if callable(step):
                        step()
                        continue
                    for c in step:
                        time.sleep(self.pause)
                        emit(RawEvent("keyboard", KEY, {"key": "enter"} if c == "\n" else {"char": c}))
            except BaseException as exc:  # noqa: BLE001  (raised in the test's thread)
                self.error = exc
            finally:
                self.done.set()

        threading.Thread(target=run, daemon=True).start()

    def stop(self) -> None:
        pass


def typed_in(terminal: ShellPty, steps: list[Step]) -> list[str]:
    """The lines stored after `steps` were typed in `terminal`'s window through the real pipeline."""
    from proactive.watcher.pipeline import Watcher

    source = Typist(steps)
    watcher = Watcher(None, Config(), [ListSource([RawEvent("window", WINDOW, {**XTERM, "pid": terminal.pid})]),
                                       source], flush_interval=0.05)
    thread = threading.Thread(target=watcher.run)
    thread.start()
    try:
        assert watcher.started.wait(30)
        source.ready.set()
        assert source.done.wait(60)
        time.sleep(0.2)
    finally:
        watcher.stop()
        thread.join(10)
    if source.error is not None:
        raise source.error
    return stored_lines()


def foreground(terminal: ShellPty) -> int:
    """The pty's foreground process group (the shell's own pid when it reads at its prompt)."""
    with open(f"/proc/{terminal.shell}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[5])


def run(terminal: ShellPty, line: str, state: Callable[[bool, bool], bool], settle: float = 0.0) -> Step:
    """A step: `line` typed into the pty itself (the program the keys' line would start), then waited for the
    terminal's (echo, line input) `state`."""
    def step() -> None:
        terminal.run(line)
        time.sleep(settle)
        terminal.wait_for(state)
    return step


def echo_off(echo: bool, canonical: bool) -> bool:
    return canonical and not echo


def echo_on(echo: bool, canonical: bool) -> bool:
    return canonical and echo


def raw(echo: bool, canonical: bool) -> bool:
    return not canonical


def child_shell(terminal: ShellPty) -> Step:
    """A step: a shell started by the shell (what `su -` run by root starts), at its own prompt."""
    def step() -> None:
        terminal.run("PS1='# ' bash --norc --noprofile -i")
        wait_for(lambda: foreground(terminal) != terminal.shell and terminal.lflag()[1] is False, timeout=10,
                 what="the child shell's prompt")
        time.sleep(0.1)
    return step


def test_the_line_after_a_prompt_that_never_came_is_kept(proactive_home: Path, terminal: ShellPty) -> None:
    """Root's `su - alice`: a shell starts and reads the next line with its line editor; no password was asked.
    `git pull` with cached credentials: the next line is read by the shell. Both lines are kept; the command after
    them is read as a command (its own prompt predicted)."""
    lines = typed_in(terminal, [
        "su - alice\n", child_shell(terminal), "ls -la /srv\n", "echo as alice\n",
        "git pull\n", "make test\n", "exit\n", run(terminal, "exit", raw, settle=0.3),
        "echo back\n"])
    assert lines == ["su - alice", "ls -la /srv", "echo as alice", "git pull", "make test", "exit", "echo back"]


def test_a_git_url_with_credentials_hides_nothing_after_it(proactive_home: Path, terminal: ShellPty) -> None:
    line = "git clone https://alice:ghtok3nCanary9@example.com/team/repo.git\n"
    lines = typed_in(terminal, [line, "ls\n", "echo cloned\n"])
    assert lines == [redact(line.strip()), "ls", "echo cloned"]
    assert "ghtok3nCanary9" not in repr(lines) and b"ghtok3nCanary9" not in all_bytes(proactive_home)


def test_answers_to_prompts_that_came_stay_hidden(proactive_home: Path, terminal: ShellPty) -> None:
    """The counter-cases: su that asks (echo off), git over HTTPS that asks a username (echoed, line input) then a
    password (echo off), `read -ers` (answered in the shell's own readline, raw mode: still hidden), `read -s`, and
    a password typed ahead while sudo starts (echo on, line input: the program's, not the shell's line editor)."""
    canaries = ["suCanary1k8W", "gitUserCanary2", "gitPwCanary3m9E", "readeCanary4n1R", "readsCanary5p2T",
                "aheadCanary6q3Y"]
    lines = typed_in(terminal, [
        "su - alice\n", run(terminal, "read -s x", echo_off), f"{canaries[0]}\n", run(terminal, "x", raw, 0.2),
        "git clone https://example.com/team/repo.git\n", run(terminal, "read u", echo_on), f"{canaries[1]}\n",
        run(terminal, "u", raw, 0.2), run(terminal, "read -s p", echo_off), f"{canaries[2]}\n",
        run(terminal, "p", raw, 0.2),
        "read -ers -p 'Token: ' t\n", run(terminal, "read -ers -p 'Token: ' t", raw, 0.3), f"{canaries[3]}\n",
        run(terminal, "t", raw, 0.3),
        "read -s -p 'Password: ' pw\n", run(terminal, "read -s -p 'Password: ' pw", echo_off), f"{canaries[4]}\n",
        run(terminal, "pw", raw, 0.2),
        "sudo ls\n", run(terminal, "head -n1 >/dev/null", echo_on), f"{canaries[5]}\n", run(terminal, "x", raw, 0.2),
        "echo after\n"])
    assert lines == ["su - alice", HIDDEN, "git clone https://example.com/team/repo.git", HIDDEN, HIDDEN,
                     "read -ers -p 'Token: ' t", HIDDEN, "read -s -p 'Password: ' pw", HIDDEN, "sudo ls", HIDDEN,
                     "echo after"]
    blob = all_bytes(proactive_home)
    for canary in canaries:
        assert canary.encode() not in blob


# -- a prompt's text is not a password --------------------------------------------------------------------------------

PROMPT_LINES = [
    "read -ers -p 'Token: ' t",
    "read -s -p 'Password: ' pw",
    "read -rsp 'Token: ' t",
    "read -p 'Password: ' -s pw",
    "read -r -s -p 'API token: ' TOKEN",
    "read -s -p \"Token: \" t",
    "read -rs -p'Token: ' t",
    "read -ersp Token: t",
    "read -s -p $'Token:\\n' t",
    "read -p \"Password for $USER: \" -s pw",
    "vared -p 'Password: ' pw",
    "sudo -p 'Password for %u: ' ls",
    "sudo -u deploy --prompt='Password: ' ls",
    "sudo -p \"[sudo] token: \" true",
    "kdialog --password 'Password: '",
    "whiptail --passwordbox 'Password: ' 8 40",
    "python3 -c \"import getpass; getpass.getpass('Password: ')\"",
    "pw = getpass.getpass(prompt='Password: ')",
    "x = input(\"Token: \")",
    "printf 'Password: '; read -rs pw",
    "printf 'Password: %s\\n' \"$PW\"",
    "grep 'API_KEY=' .env",
    "mysql --prompt='pass: ' -u root",
    "ssh login@example.com -p 2222",  # a port, not `docker login -p`'s password
]


@pytest.mark.parametrize("line", PROMPT_LINES)
def test_a_prompts_text_is_stored_as_typed(line: str) -> None:
    assert redact(line) == line


@pytest.mark.parametrize("line, secret", [
    ("echo \"password: hunter2x\"", "hunter2x"),
    ("git commit -m 'token: abc123def'", "abc123def"),
    ('{"password": "hunter2x"}', "hunter2x"),
    ("password: 'hunter2x'", "hunter2x"),
    ("config = {'password': 'hunter2x'}", "hunter2x"),
    ("don't forget the password: 'hunter2x'", "hunter2x"),
    ("export PASSWORD='hunter2x'", "hunter2x"),
    ("echo 'password: 'hunter2x", "hunter2x"),
    ("docker login -u me -p hunter2x registry.example.com", "hunter2x"),
    ("oc login -p hunter2x https://api.example.com", "hunter2x"),
    ("mysql -u root -p'hunter2x'", "hunter2x"),
    ("sudo -E mysql -p password: hunter2x", "hunter2x"),
])
def test_values_after_a_keyword_are_still_redacted(line: str, secret: str) -> None:
    assert secret not in redact(line)


def test_read_s_command_kept_and_its_answer_hidden(proactive_home: Path, terminal: ShellPty) -> None:
    lines = typed_in(terminal, ["read -ers -p 'Token: ' t\n", run(terminal, "read -ers -p 'Token: ' t", raw, 0.3),
                                "tokenCanary7r4U\n", run(terminal, "t", raw, 0.3), "echo \"$t\" | wc -c\n"])
    assert lines == ["read -ers -p 'Token: ' t", HIDDEN, 'echo "$t" | wc -c']
    assert b"tokenCanary7r4U" not in all_bytes(proactive_home)


# -- an accessible field's last word ------------------------------------------------------------------------------


WORD = "Tr0ub4dorZq9"  # a password-shaped word (`redact.secret_start`: a fragment when typing is cut in it)


def composed(feed: Callable[[TextComposer], None]) -> str:
    out: list[RawEvent] = []
    composer = TextComposer(out.append, source="atspi")
    for c in f"login as {WORD}":
        composer.key(1.0, c)
    feed(composer)
    text = ""
    for e in out:
        text = text[: len(text) - e.data["erase"]] + e.data["text"]
    return text


def test_a_fields_text_ended_by_moving_on_is_whole() -> None:
    assert composed(lambda c: c.flush(field_end=True)) == f"login as {WORD}"
    assert composed(lambda c: c.key(2.0, key="enter")) == f"login as {WORD}"  # a multi-line field's Enter
    assert composed(lambda c: c.flush()) == "login as " + FRAGMENT  # typing cut (a window switch): a fragment


def test_a_single_line_fields_last_word_is_kept_when_the_next_field_begins(proactive_home: Path) -> None:
    """A single-line field's Enter inserts nothing: the field's text ends where the next field's begins, and its
    last word is whole, as a terminal line's is."""
    raw, episodes = run_pipeline([gui_window(), *typing(f"sign in as {WORD}", obj=":1.5/field/1"),
                                  *typing("next field", obj=":1.5/field/2"), gui_window("Notes", "todo", 77, "notes")])
    assert f"'sign in as {WORD}'" in episodes and FRAGMENT not in raw + episodes, episodes


def test_a_fields_word_cut_by_a_window_switch_is_still_a_fragment(proactive_home: Path) -> None:
    """The same word cut by a detour to another window, and the first word typed in the field on coming back
    (the rest of a token split in two), are fragments."""
    raw, episodes = run_pipeline([gui_window(), *typing(f"sign in as {WORD}", obj=":1.5/field/1"),
                                  gui_window("Notes", "todo", 77, "notes"), gui_window(),
                                  *typing("Zr8tail more words", obj=":1.5/field/1")])
    assert WORD not in raw + episodes and "Zr8tail" not in raw + episodes
    assert raw.count(FRAGMENT) == 2, raw


# -- end to end: xterm on Xvfb, `proactive watch` ---------------------------------------------------------------------


@pytest.fixture
def other_user() -> Iterator[str]:
    """A user root can `su` to without a password, removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("root's su asks no password; the test runs as root (CI does)")
    if not (shutil.which("useradd") and shutil.which("userdel") and shutil.which("su")):
        pytest.skip("useradd, userdel and su are needed")
    name = f"ohide{os.getpid() % 1000}"
    subprocess.run(["useradd", "-m", "-s", "/bin/bash", name], check=True, capture_output=True)
    try:
        yield name
    finally:
        subprocess.run(["userdel", "-r", "-f", name], capture_output=True)


def users_shell(pty: str, user: str) -> bool:
    """`user`'s shell is in the foreground of `pty`, reading at its prompt."""
    uid = str(pwd.getpwnam(user).pw_uid)
    ps = subprocess.run(["ps", "-o", "uid=,stat=,comm=", "-t", pty.removeprefix("/dev/")], capture_output=True,
                        text=True).stdout
    rows = [row.split() for row in ps.splitlines()]
    return any(row == [uid, row[1], "bash"] and "+" in row[1] for row in rows if len(row) == 3) and at_shell(pty)


@pytest.mark.x11
def test_root_su_to_a_user_keeps_the_next_line(xsession: XSession, proactive_home: Path, tmp_path: Path,
                                               other_user: str) -> None:
    pty = shell_xterm(xsession, tmp_path, "su", tmp_path)
    line = Lines(xsession)
    watcher = line.watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    try:
        line("echo before")
        line(f"su - {other_user}")
        wait_for(lambda: users_shell(pty, other_user), timeout=20, what=f"{other_user}'s shell")
        time.sleep(0.3)
        line("echo as the other user")
        line("exit")
        wait_for(lambda: users_shell(pty, "root"), timeout=20, what="root's shell again")
        time.sleep(0.3)  # (a whole line typed within the keyboard's batch wait has no echo reading in time)
        line("echo back")
        wait_for(lambda: len(stored_lines()) == len(line.expected), timeout=20, what="every line stored")
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert stored_lines() == line.expected, watcher.echo_log()


@pytest.fixture
def git_http(tmp_path: Path) -> Iterator[str]:
    """A bare repository served over git's dumb HTTP by a server that asks no credentials: its URL's authority."""
    if not shutil.which("git"):
        pytest.skip("git is not installed")
    served = tmp_path / "served"
    served.mkdir()
    subprocess.run(["git", "init", "-q", "--bare", str(served / "repo.git")], check=True)
    work = tmp_path / "seed"
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    (work / "README").write_text("seed\n")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "add", "README"], check=True)
    subprocess.run([*git, "commit", "-qm", "seed"], check=True)
    subprocess.run([*git, "push", "-q", str(served / "repo.git"), "HEAD:refs/heads/main"], check=True)
    subprocess.run(["git", "-C", str(served / "repo.git"), "symbolic-ref", "HEAD", "refs/heads/main"], check=True)
    subprocess.run(["git", "-C", str(served / "repo.git"), "update-server-info"], check=True)

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(served)))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


CLONE_SECRET = "cloneTok3nCanary8z4K"


@pytest.mark.x11
def test_git_clone_of_a_url_with_credentials_hides_nothing(xsession: XSession, proactive_home: Path, tmp_path: Path,
                                                           git_http: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    pty = shell_xterm(xsession, tmp_path, "git clone", work)
    clone = f"git clone -q http://alice:{CLONE_SECRET}@{git_http}/repo.git copy"
    line = Lines(xsession)
    watcher = line.watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    try:
        line(clone, stored=redact(clone), in_time=True)
        wait_for(lambda: (work / "copy" / "README").exists() and at_shell(pty), timeout=20, what="the clone")
        line("ls copy")
        line("echo cloned")
        wait_for(lambda: len(stored_lines()) == len(line.expected), timeout=20, what="every line stored")
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert stored_lines() == line.expected, watcher.echo_log()
    assert CLONE_SECRET.encode() not in live + all_bytes(proactive_home) + err.encode()
