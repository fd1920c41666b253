"""Secrets in the open, end to end: credentials no prompt asks for, input fed to programs that take credentials,
programs that hide what is typed themselves, and titles that repeat a typed line.

Real terminals on Xvfb (xterm and lxterminal, a VTE terminal) running bash, keys typed with xdotool, a real
`proactive watch`; a real test user whom sudo really asks (root's `su - USER`), a real `git credential`, a
real psql, prompt_toolkit's password prompt inside the Python REPL, vim's `inputsecret()`. Every secret is a
canary looked for everywhere the watcher wrote (database, WAL, logs, episodes); the ordinary lines around them are
kept. The filter's logic is tested fast first, with the recogniser's cases.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from proactive.watcher.events import WINDOW, RawEvent
from proactive.watcher.privacy.password_prompts import fed_input, prompt_lines
from proactive.watcher.privacy.redact import redact
from proactive.watcher.privacy.secret_shape import typed_secret

from .conftest import WatcherProcess, XSession, all_bytes, wait_for
from .raw_mode_support import foreground
from .test_hidden_input import HIDDEN_LINE, Lines, at_shell, lflag
from .test_over_hiding import XTERM, enter, terminal_filter
from .test_raw_mode_watched import alice, assert_never_stored, assert_run, live_everything
from .test_terminal_secrets import stored_lines

__all__ = ["alice"]  # the fixture: a real user whom sudo asks (tests/test_raw_mode_watched.py)

# -- the recogniser and the filter ---------------------------------------------------------------------------------


@pytest.mark.parametrize("line, fed", [
    ("sudo -S -k true <<'EOF'", (200, "EOF")),
    ("cat <<-END | sudo -S make install", (200, "END")),
    ("mysql -u root <<SQL", (200, "SQL")),  # statements carry passwords (ALTER USER ... IDENTIFIED BY)
    ("head -n1 | sudo -S -k true", (5, None)),
    ("read -r pw; printf %s \"$pw\" | sudo -S true", (5, None)),
    ("git credential fill", (5, None)),
    ("chpasswd", (5, None)),
    ("passwd --stdin bob", (5, None)),
    ("docker login -u bob --password-stdin", (5, None)),
    ("cat pw.txt | sudo -S true", (0, None)),  # a file, not the terminal
    ("echo hi | sudo -S true", (0, None)),  # the line itself (redacted there)
    ("cat <<EOF > notes.txt", (0, None)),  # a here-document to a file
    ("psql -h db app", (0, None)),  # a client at its own prompt: its line editor's lines
    ("ls | head", (0, None)),
])
def test_input_fed_to_a_program_that_takes_credentials(line: str, fed: tuple[int, str | None]) -> None:
    assert fed_input(line) == fed


def test_a_here_document_is_hidden_to_its_delimiter_even_though_the_shell_reads_it() -> None:
    f = terminal_filter()
    assert enter(f, "sudo -S -k true <<'EOF'", by_shell=True) == ("sudo -S -k true <<'EOF'", True)
    assert enter(f, "Tr0ub4dor3x", by_shell=True) == (HIDDEN_LINE, True)  # bash's line editor reads it: still
    assert enter(f, "EOF", by_shell=True) == (HIDDEN_LINE, False)
    assert enter(f, "ls -la", by_shell=True) == ("ls -la", False)


def test_lines_fed_through_a_pipe_are_hidden_until_the_shell_reads_again() -> None:
    f = terminal_filter()
    assert enter(f, "head -n1 | sudo -S ls", by_shell=True)[1]
    assert enter(f, "hunter22") == (HIDDEN_LINE, True)  # read by head: line input, echo on
    assert enter(f, "make test", by_shell=True) == ("make test", False)  # the shell again: the rest dropped


@pytest.mark.parametrize("line, asked, secret", [
    ("q7Xk2mPz9LwR4tYb8NcV", False, True),  # a password typed where nothing asked for it
    ("Summer2031!", False, True),
    ("hunter22", True, True),  # right after `sudo ls` that asked nothing
    ("hunter22", False, False),  # otherwise a word like any other
    ("ls", True, False), ("make", False, False), ("gti", True, False), ("cd ..", True, False),
    ("python3", False, False), ("./configure", False, False), ("X=1", True, False),
])
def test_a_password_typed_at_the_shell(line: str, asked: bool, secret: bool) -> None:
    assert typed_secret(line, asked) is secret


def test_programs_given_their_password_ask_nothing() -> None:
    assert prompt_lines("PGPASSWORD=x psql -h db app") == 0 and prompt_lines("psql -h db app") == 1
    assert redact("sshpass -p Tr0ub4dor ssh -p 9 bob@127.0.0.1") == \
        "sshpass -p [REDACTED:password] ssh -p 9 bob@127.0.0.1"  # ssh's own -p is no password


def test_a_title_is_judged_with_the_line_it_repeats() -> None:
    f = terminal_filter()
    enter(f, "echo Tr0ub4dorCanary | sudo -S -k true", by_shell=True)
    out = f.clean(RawEvent("window", WINDOW, dict(XTERM, title="echo Tr0ub4dorCanary")))
    assert out is not None and out.data["title"] == "echo [REDACTED:password]"
    enter(f, "sudo ls", by_shell=True)
    enter(f, "hunter22")  # hidden: it may answer sudo's prompt
    out = f.clean(RawEvent("window", WINDOW, dict(XTERM, title="root@box: hunter22")))
    assert out is not None and "hunter22" not in out.data["title"]
    out = f.clean(RawEvent("window", WINDOW, dict(XTERM, title="vim notes.md")))
    assert out is not None and out.data["title"] == "vim notes.md"
    web = f.clean(RawEvent("aw", "web", {"url": "http://192.168.1.1/", "title": "Wi-Fi: x7#kP2mQ9z@L4wTe - Router"}))
    assert web is not None and "x7#kP2mQ9z@L4wTe" not in web.data["title"]


# -- end to end ------------------------------------------------------------------------------------------------------

TERMINALS = ["xterm", "lxterminal"]


def terminal_shell(xsession: XSession, tmp_path: Path, program: str, title: str, titles: bool = False) -> str:
    """A terminal (`program`) running root's bash in `tmp_path`, focused and at its prompt; returns its pty's
    path. `titles`: the shell puts each command it runs in the window's title (`$BASH_COMMAND`), as some
    configurations do."""
    tty_file = tmp_path / f"tty-{title.replace(' ', '-')}"
    rc = tmp_path / "titles.rc"
    rc.write_text("trap 'printf \"\\033]0;%s\\007\" \"$BASH_COMMAND\"' DEBUG\n" if titles else "")
    shell = (f"cd {tmp_path} && tty > {tty_file} && exec env PS1='$ ' HOME={tmp_path} "
             f"bash --noprofile --rcfile {rc}")
    if program == "xterm":
        args = ["xterm", "-xrm", f"XTerm*allowTitleOps: {'true' if titles else 'false'}", "-T", title,
                "-geometry", "100x30", "-e", "sh", "-c", shell]
    else:
        args = ["lxterminal", "--no-remote", "-t", title, f"--command=sh -c \"{shell}\""]
    env = dict(xsession.env, XDG_CONFIG_HOME=str(tmp_path / "config"))
    proc = subprocess.Popen(args, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    xsession.procs.append(proc)
    wid = wait_for(lambda: xsession._find(title), timeout=20, what=program)
    xsession.activate(wid)
    wait_for(lambda: tty_file.exists() and tty_file.read_text().strip(), what="the terminal's shell")
    pty = tty_file.read_text().strip()
    wait_for(lambda: at_shell(pty), what="bash's prompt")
    return pty


def wait_shell(pty: str, user: str | None = None) -> None:
    """Back at an interactive bash prompt (the user's login shell when `user` is given)."""
    wait_for(lambda: at_shell(pty), timeout=30, what="the shell's prompt")
    time.sleep(0.3)


@pytest.mark.x11
@pytest.mark.parametrize("terminal", TERMINALS)
def test_secrets_fed_to_programs_and_typed_where_nothing_asked(xsession: XSession, proactive_home: Path,
                                                               tmp_path: Path, alice: tuple[str, str, Path],
                                                               terminal: str) -> None:
    name, password, _home = alice
    pty = terminal_shell(xsession, tmp_path, terminal, "secrets in the open")
    secrets = [password, "RootPw7Canary", "q7Xk2mPz9LwR4tYb8NcV", "GitUser3Canary", "GitPw4Canary", "Printf5Canary",
               "PgPw6Canary"]
    line = Lines(xsession)
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    line.watcher = watcher
    try:
        line("echo root here")
        line("sudo ls")  # root: sudo asks nothing, and the password typed next reaches the shell
        wait_shell(pty)
        line("RootPw7Canary", stored=HIDDEN_LINE)
        wait_shell(pty)
        line("q7Xk2mPz9LwR4tYb8NcV", stored=HIDDEN_LINE)  # a generated password typed at the shell
        wait_shell(pty)
        line(f"su - {name}")
        wait_shell(pty)
        line(f"echo {name} here", stored=None)
        line("sudo -S -k true <<'EOF'")  # sudo really asks alice: the password in a here-document
        time.sleep(0.3)
        line(password, stored=HIDDEN_LINE)
        line("EOF", stored=HIDDEN_LINE)
        wait_shell(pty)
        line("head -n1 | sudo -S -k true")  # the password read by head, piped to sudo
        wait_for(lambda: lflag(pty) == (True, True), timeout=20, what="head reading the terminal")
        line(password, stored=HIDDEN_LINE)
        wait_shell(pty)
        line("git credential fill")
        wait_for(lambda: lflag(pty) == (True, True), timeout=20, what="git reading the terminal")
        for text in ("protocol=https", "host=example.com", "username=GitUser3Canary", "password=GitPw4Canary", ""):
            line(text, stored=HIDDEN_LINE)
            time.sleep(0.2)
        wait_shell(pty)
        line("printf 'username=bob\\npassword=Printf5Canary\\n' | git credential approve",
             stored="printf 'username=bob\\npassword=[REDACTED:password]' | git credential approve")
        wait_shell(pty)
        line("PGPASSWORD=PgPw6Canary psql -h 127.0.0.1 -p 1 -c 'select 1'",
             stored="PGPASSWORD=[REDACTED:password] psql -h 127.0.0.1 -p 1 -c 'select 1'")
        wait_shell(pty)
        line("echo after psql")  # psql had its password: nothing asked, this line is kept
        line("exit")
        wait_shell(pty)
        line("echo root again")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, secrets, line.expected, proactive_home)


@pytest.mark.x11
def test_a_title_repeating_the_typed_line_is_redacted_with_it(xsession: XSession, proactive_home: Path,
                                                              tmp_path: Path, alice: tuple[str, str, Path]) -> None:
    """The shell titles the window with the start of each line it runs: `echo PW | sudo -S -k true` titles it
    `echo PW`, which is redacted as the line is (the title alone says nothing of sudo)."""
    import sqlite3

    name, _password, _home = alice
    pty = terminal_shell(xsession, tmp_path, "xterm", "titled shell", titles=True)
    line = Lines(xsession)
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    line.watcher = watcher
    secrets = ["Title7Canary", "Title8Canary"]
    try:
        line(f"su - {name}")
        wait_shell(pty)
        # the window titled with the start of the line being run (its first two words), as some prompts do
        line("trap 'printf \"\\033]0;%s\\007\" \"$(history 1 | awk \"{print \\$2, \\$3}\")\"' DEBUG")
        for secret in secrets:
            line(f"echo {secret} | sudo -S -k true", stored="echo [REDACTED:password] | sudo -S -k true")
            wait_shell(pty)
            time.sleep(0.5)
        line("echo done here")
        time.sleep(0.5)
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        stopped = watcher.stop()
    db = sqlite3.connect(proactive_home / "proactive.db")
    try:
        titles = [t or "" for (t,) in db.execute("SELECT title FROM raw_events WHERE kind = 'window' ORDER BY id")]
    finally:
        db.close()
    assert titles.count("echo [REDACTED:password]") >= 2, titles  # the shell did title the window so
    assert f"{name}@" in " ".join(titles), titles  # its prompt's "user@host: ~" title is no password
    assert_run(watcher, stopped, live, secrets, line.expected, proactive_home)


@pytest.mark.x11
def test_programs_that_hide_input_themselves_inside_allowlisted_ones(xsession: XSession, proactive_home: Path,
                                                                     tmp_path: Path) -> None:
    """prompt_toolkit's `prompt(is_password=True)` inside the Python REPL (raw mode with signals off: not the
    REPL's line editor) and vim's `inputsecret()`: the secrets are never stored; the REPL's and vim's ordinary
    lines are."""
    term = terminal_shell(xsession, tmp_path, "xterm", "hiding programs")
    line = Lines(xsession)
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    line.watcher = watcher
    secrets = ["ToolkitCanary9x", "VimSecretCanary4"]
    try:
        line(f"{sys.executable} -q")  # the project's Python: prompt_toolkit is installed there
        wait_for(lambda: lflag(term) == (False, False), timeout=20, what="the REPL's prompt")
        time.sleep(0.5)
        line("x = 6 * 7")
        line("from prompt_toolkit import prompt; p = prompt('pw: ', is_password=True)")
        wait_for(lambda: lflag(term) == (False, False), timeout=20, what="prompt_toolkit's prompt")
        time.sleep(1.0)
        line("ToolkitCanary9x", stored=HIDDEN_LINE)
        time.sleep(0.5)
        line("print(len(p))")
        xsession.key("ctrl+d")
        wait_for(lambda: at_shell(term), timeout=20, what="the shell")
        time.sleep(0.3)
        line("vim -u NONE -N notes.txt", stored=None)
        time.sleep(1.0)
        xsession.type(":let p = inputsecret('pw: ')")
        xsession.key("Return")
        line.expected.append(":let p = inputsecret('pw: ')")
        time.sleep(0.5)
        line("VimSecretCanary4", stored=HIDDEN_LINE)
        time.sleep(0.3)
        xsession.type(":q!")
        xsession.key("Return")
        line.expected.append(":q!")
        wait_for(lambda: at_shell(term), timeout=20, what="the shell after vim")
        time.sleep(0.3)
        line("echo after vim")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        stopped = watcher.stop()
    code, err = stopped
    assert code == 0, err
    assert_never_stored(live_everything(watcher, live, err), secrets)
    kept = stored_lines()
    assert "x = 6 * 7" in kept and "print(len(p))" in kept and "echo after vim" in kept, kept


@pytest.mark.x11
@pytest.mark.parametrize("terminal", TERMINALS)
def test_a_second_terminal_is_kept_while_sudo_waits_in_the_first(xsession: XSession, proactive_home: Path,
                                                                 tmp_path: Path, alice: tuple[str, str, Path],
                                                                 terminal: str) -> None:
    """alice's sudo waits at its prompt in one terminal; the person works in a second one meanwhile: those lines
    are kept, and the password typed on coming back to the first is hidden."""
    name, password, _home = alice
    first_dir, second_dir = tmp_path / "first", tmp_path / "second"
    first_dir.mkdir()
    second_dir.mkdir()
    first = terminal_shell(xsession, first_dir, terminal, "first shell")
    first_wid = xsession.active()
    line = Lines(xsession)
    watcher = WatcherProcess(proactive_home, xsession.env, verbose=True)
    line.watcher = watcher
    try:
        line(f"su - {name}")
        wait_shell(first)
        line(f"echo {name} here")
        line("sudo -k true")
        wait_for(lambda: "sudo" in [n for _, n, _ in foreground(first)] and lflag(first)[0] is False, timeout=20,
                 what="sudo's prompt")  # (pwfeedback: sudo reads in raw mode, showing a `*` per key)
        time.sleep(0.3)
        terminal_shell(xsession, second_dir, terminal, "second shell")
        line("echo in the second terminal")
        line("ls -la")
        assert first_wid is not None
        xsession.activate(first_wid)
        time.sleep(0.3)
        line(password, stored=HIDDEN_LINE)
        wait_shell(first)
        line("echo back in the first")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        stopped = watcher.stop()
    assert_run(watcher, stopped, live, [password], line.expected, proactive_home)


EDITABLE_PAGE = """<!doctype html><html><head><title>Team notes</title></head><body>
<h1>Team notes</h1><div id="notes" contenteditable="true" style="min-height:200px;border:1px solid #888">
</div></body></html>"""


@pytest.mark.x11
def test_firefox_address_bar_and_an_editable_page_keep_no_password(xsession: XSession, proactive_home: Path,
                                                                   tmp_path: Path, monkeypatch) -> None:
    """Firefox ESR on the accessibility bus: an address typed with `?password=X&next=...` (X holding an `&`), and
    "db password is Y" typed into a `contenteditable` field of a loopback page. Neither password is stored
    anywhere; the page's visit and the words around the passwords are."""
    import shutil as shutil_
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    from .test_browser_page import (
        Firefox,
        a11y as a11y_fixture,  # noqa: F401 - the fixture's code, started below
        firefox_window,
        read_from,
        stop_typing_run,
    )

    if shutil_.which("firefox-esr") is None:
        pytest.fail("firefox-esr is not installed: packaging/setup.sh test installs it")
    site = tmp_path / "site"
    site.mkdir()
    (site / "notes.html").write_text(EDITABLE_PAGE)
    (site / "login").write_text("<html><head><title>Signed in</title></head><body>ok</body></html>")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"

    from .test_atspi_x11 import A11ySession

    session = A11ySession(tmp_path / "a11y", xsession.env).start()
    url_secret, typed_secret_ = "Tr0ub4dor&3xQ9", "Hunter7Canary22"
    firefox = None
    watcher = None
    try:
        read_from(session.env, monkeypatch)
        firefox = Firefox(session.env, tmp_path / "firefox", base + "notes.html")
        firefox_window(xsession, firefox)
        time.sleep(3.0)  # the page loaded and on the bus
        watcher = WatcherProcess(proactive_home, session.env)
        time.sleep(1.0)
        xsession.key("ctrl+l")
        time.sleep(0.5)
        xsession.type(f"{base}login?user=bob&password={url_secret}&next=/home", delay_ms=30)
        xsession.key("Return")
        time.sleep(2.0)
        xsession.key("alt+Left")  # back to the notes
        time.sleep(2.0)
        xsession.key("Tab")  # into the editable field
        time.sleep(0.5)
        xsession.xdotool("mousemove", "300", "300", "click", "1")
        time.sleep(0.5)
        xsession.type(f"the db password is {typed_secret_} for now", delay_ms=30)
        xsession.key("Return")
        time.sleep(2.0)
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        stopped = stop_typing_run(watcher, firefox, session, server)
    assert stopped is not None
    code, err = stopped
    assert code == 0, err
    for secret in (url_secret, typed_secret_):
        watcher.assert_nowhere(secret, live, err)
    told = " ".join(e["event"] for e in watcher.episodes())
    assert "password=[REDACTED:password]&next=/home" in told, told  # the address was typed and kept, redacted
