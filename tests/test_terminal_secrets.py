"""Terminal secrets: the answers to password and username prompts, recognised from the whole
command line, are hidden; passwords written into the command line itself are redacted.

Three levels: the recogniser (`prompt_lines`) table-driven; the filter and the pipeline with events as the X11
sources deliver them; and end to end on a real X server, where real prompters (git over HTTP against a loopback
server that answers 401, docker login, openssl passwd, sudo) read canaries typed with xdotool in a real xterm while
a real `proactive watch` runs.
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from proactive.watcher.events import CLICK, TEXT, WINDOW, RawEvent
from proactive.watcher.privacy.filter import PrivacyFilter
from proactive.watcher.privacy.password_prompts import MAX_HIDDEN_LINES, prompt_lines
from proactive.watcher.store.database import Store
from proactive.watcher.store.home import Config

from .conftest import WatcherProcess, XSession, all_bytes, run_cli, wait_for
from .shell_pty import ShellPty
from .test_privacy import keys, run_pipeline

# -- the recogniser ----------------------------------------------------------------------------------------------

# (command line, lines its prompts take)
PROMPTING = [
    ("sudo apt update", 1),
    ("cd /tmp && sudo ls", 1),
    ("make || sudo make install", 1),
    ("ls; sudo reboot", 1),
    ("cat notes | sudo tee /etc/motd", 1),
    ("echo $(sudo cat /etc/shadow)", 1),
    ('echo "$(sudo cat /etc/shadow)"', 1),
    ("echo `sudo cat /etc/shadow`", 1),
    ("diff <(sudo cat a) b", 1),
    ("(cd /srv && sudo ls)", 1),
    ("env DEBUG=1 sudo ls", 1),
    ("LANG=C sudo ls", 1),
    ("time sudo ls", 1),
    ("nohup sudo ls &", 1),
    ("exec sudo -i", 1),
    ("nice -n 5 sudo ls", 1),
    ("timeout 10 sudo ls", 1),
    ("/usr/bin/sudo ls", 1),
    ("if sudo true; then ls; fi", 1),
    ("ls 2>&1 >/dev/null && sudo ls", 1),
    ("sudo -k && sudo true", 1),  # `sudo -k` alone only forgets the cached password
    ("sudo -S ls", 1),  # -S reads the terminal when nothing is piped in
    ("doas ls", 1),
    ("pkexec visudo", 1),
    ("su -", 1),
    ("bash -c 'sudo ls'", 1),
    ("sudo \\", 1),  # continued on the next line: what is seen already prompts
    ("ssh me@host", 1),
    ("ssh -p 2222 host sudo ls", 2),  # the password of the server, then sudo's on it
    ("scp notes.txt host:", 1),
    ("sftp host", 1),
    ("ssh-add", 1),
    ("ssh-keygen -t ed25519", 3),  # file, passphrase, the same again
    ("ssh-keygen -t ed25519 -f id_work", 2),  # the file named: the passphrase twice
    ("ssh-keygen -q -N '' -t rsa", 1),  # the passphrase given (none): only the file
    ("ssh-keygen -t ed25519-sk -f id_sk", 3),  # a security key's PIN too
    ("ssh-keygen -t sk-ssh-ed25519@openssh.com -f id_sk", 3),
    ("ssh-keygen -A -p -f id_work", 3),  # -p whatever else is given
    ("ssh-keygen -p -f id_work", 3),  # old passphrase, new, again
    ("ssh-keygen -p -P old -f id_work", 2),
    ("ssh-keygen -y -f id_work", 1),  # printing the public key: the passphrase
    ("ssh-keygen -l", 1),  # a fingerprint: the file name
    ("ssh-keygen -s ca -I me id.pub", 3),  # an operation the rules do not know: as many as making a key
    ("htpasswd -c .htpasswd alice", 2),
    ("zip -e notes.zip notes.txt", 2),
    ("zip -T -e notes.zip notes.txt", 2),  # -T (test) takes no value: -e is still read
    ("zip -rTe site.zip site/", 2),
    ("passwd", 3),  # current, new, retype
    ("gpg -c notes.txt", 2),
    ("gpg --decrypt notes.gpg", 2),
    ("docker login", 2),  # username, password
    ("docker login -u me", 1),
    ("time docker login -u me registry.example.com", 1),
    ("podman login -u me quay.io", 1),
    ("helm registry login ghcr.io", 2),
    ("oras login -u me ghcr.io", 1),
    ("git push", 2),  # git over HTTPS: username, then password
    ("git pull origin main", 2),  # a named remote may be HTTPS
    ("git fetch", 2),
    ("git clone https://example.com/team/repo.git", 2),
    ("git ls-remote https://example.com/team/repo.git", 2),
    ("git -c credential.helper= push", 2),
    ("git -C repo pull", 2),
    ("cd repo && git push", 2),
    ("git clone git@github.com:team/repo.git", 1),  # over SSH: a passphrase or a password
    ("git push ssh://git@host/repo.git", 1),
    ("sudo -u deploy git push", 3),  # sudo's password, then git's two prompts
    ("git push && sudo reboot", 3),
    ("git pull && git push && sudo reboot", MAX_HIDDEN_LINES),
    ("npm login", 3),  # username, password, e-mail
    ("yarn login", 3),
    ("pnpm adduser", 3),
    ("twine upload dist/*", 2),
    ("pip upload dist/x.whl", 2),
    ("mysql -u root -p", 1),
    ("mysql -p mydb", 1),
    ("psql -h db -U me", 1),
    ("mongosh -u admin", 1),
    ("mongo -p", 1),
    ("ansible-playbook site.yml --ask-pass", 1),
    ("ansible all -k -K -m ping", 2),
    ("ansible-playbook -kK site.yml", 2),
    ("ansible-playbook --ask-vault-pass site.yml", 1),
    ("ansible-vault create vault.yml", 2),
    ("ansible-vault rekey vault.yml", 3),
    ("openssl genrsa -aes256 -out key.pem 4096", 2),
    ("openssl req -new -key key.pem -out req.csr", 2),
    ("openssl pkcs12 -export -out cert.p12", 3),
    ("openssl passwd -5", 2),  # the password, then "Verifying - Password:"
    ("openssl passwd -5 -salt pepper", 1),  # with the salt given, openssl verifies nothing
    ("kinit me@EXAMPLE.COM", 1),
    ("cryptsetup luksOpen /dev/sdb1 vault", 3),
    ("vncpasswd", 2),
    ("keytool -genkey -alias site", 2),
    ("az login", 1),
    ("gh auth login", 5),  # menu answers, then the token
    ("heroku login -i", 2),
    ("vault login", 1),
    ("curl -u alice https://api.example.com", 1),  # curl asks "Enter host password for user 'alice'"
    ("read -s pw", 1),
    ("read -p 'Password: ' pw", 1),
    ("aws configure", 2),
]
NOT_PROMPTING = [
    "ls",
    "ls -la",
    "echo sudo is great",
    "echo 'a && sudo ls'",  # quoted: an argument of echo
    "grep passwd /etc/passwd",  # arguments never count as programs, whatever they say
    "man ssh",
    "which sudo",
    "apt install sudo",
    "history | grep sudo",
    "vim ~/.ssh/config",
    "git status",
    "git log --oneline",
    "git commit -m 'sudo make me a sandwich'",
    "git clone /srv/repo.git",  # a local repository asks nothing
    "git clone ../repo copy",
    "git push --help",
    "docker ps",
    "docker run -it debian",
    "mysql -u root -pS3cret",  # the password is on the line (redacted), no prompt
    "ssh-keygen -t ed25519 -N '' -f id_ci",  # the passphrase (none) and the file given
    "ssh-keygen -qN S3cret -f id_ci",
    "ssh-keygen -p -P 0ld -N n3w -f id_ci",
    "ssh-keygen -lf id_ci.pub",
    "ssh-keygen -R github.com",
    "htpasswd -bc .htpasswd alice S3cret",
    "zip -e -P S3cret notes.zip notes.txt",
    "zip -r site.zip site/",
    "openssl passwd -1 S3cret Other5 > hashes.txt",  # the passwords on the line (redacted there)
    "openssl passwd -6 -salt pepper -stdin < pw.txt",
    "mysql -u root",
    "psql -w -h db",
    "openssl x509 -in cert.pem -noout -text",
    "gpg --list-keys",
    "curl -u alice:S3cret https://api.example.com",
    "curl https://example.com",
    "python manage.py runserver",
    "sudo -k",
    "sudo -n true",
    "echo Tr0ub4dor | sudo -S true",  # the password is piped in (and redacted): no prompt
    "sudo -S true <<< Tr0ub4dor",
    "npm install",
    "ansible-playbook site.yml",
    "read line",
    "pip install requests",
    "gh pr list",
    "",
]


@pytest.mark.parametrize("line, lines", PROMPTING, ids=[p[0] for p in PROMPTING])
def test_command_lines_that_prompt(line: str, lines: int) -> None:
    assert prompt_lines(line) == lines


@pytest.mark.parametrize("line", NOT_PROMPTING, ids=[n or "empty" for n in NOT_PROMPTING])
def test_command_lines_that_do_not_prompt(line: str) -> None:
    assert prompt_lines(line) == 0


@pytest.mark.parametrize("line", ['echo "unfinished', "sudo 'unfinished", "((((", ")))", "|||", "\\"])
def test_unreadable_lines_never_raise(line: str) -> None:
    assert prompt_lines(line) in (0, 1)


# -- the filter --------------------------------------------------------------------------------------------------

XTERM = {"app": "XTerm", "title": "shell", "process": "xterm", "pid": 42}


def focus(f: PrivacyFilter, **data: object) -> None:
    assert f.clean(RawEvent("window", WINDOW, {**XTERM, **data})) is not None


def enter(f: PrivacyFilter, line: str) -> tuple[dict | None, bool]:
    """A line typed in one go and Enter, as the composer hands it on (hidden when the previous answer said so)
    followed by the pipeline's question; returns the stored event's data and the answer."""
    event = RawEvent("keyboard", TEXT, {"text": line, "erase": 0, "enter": True})
    out = f.clean(event)
    return (out.data if out else None), f.asks_password(line)


def hidden(data: dict | None) -> bool:
    return data == {"text": "", "erase": 0, "enter": True, "hidden": "password"}


KEPT, HIDDEN_LINE = "kept", "hidden"
# Lines typed one after the other in one terminal: (line, how it is stored, whether the next line is hidden).
SEQUENCES = {
    "compound-sudo": [("cd /tmp && sudo ls", KEPT, True), ("hunter2secret", HIDDEN_LINE, False),
                      ("echo done", KEPT, False)],
    "git-push-two-lines": [("git push", KEPT, True), ("alice.username", HIDDEN_LINE, True),
                           ("gitpassword99", HIDDEN_LINE, False), ("git status", KEPT, False)],
    "ls-nothing": [("ls", KEPT, False), ("make test", KEPT, False)],
    # "Are you sure you want to continue connecting (yes/no)?" comes before the password
    "ssh-yes-is-not-the-password": [("ssh newhost", KEPT, True), ("yes", HIDDEN_LINE, True),
                                    ("sshpassword1", HIDDEN_LINE, False), ("ls", KEPT, False)],
    # git had cached credentials and asked nothing: the "answer" was `sudo ls`, whose prompt is hidden too
    "answer-that-was-a-command": [("git push", KEPT, True), ("sudo ls", HIDDEN_LINE, True),
                                  ("hunter2secret", HIDDEN_LINE, False), ("ls", KEPT, False)],
    # the quote closes on the next line: `echo "start\n" && sudo ls`
    "continued-line": [('echo "start', KEPT, False), ('" && sudo ls', KEPT, True),
                       ("hunter2secret", HIDDEN_LINE, False)],
}


@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_lines_after_a_prompting_command_are_hidden(sequence: list[tuple[str, str, bool]]) -> None:
    f = PrivacyFilter(Config())
    focus(f)
    for line, how, next_hidden in sequence:
        stored, asks = enter(f, line)
        assert (HIDDEN_LINE if hidden(stored) else stored["text"]) == (line if how == KEPT else HIDDEN_LINE)
        assert asks is next_hidden, line


def test_the_count_stays_with_the_terminal_that_asked() -> None:
    """Switching windows: nothing is hidden in the other window, and the answer typed on coming back still is,
    even when the shell has rewritten the terminal's title meanwhile (same window: same process)."""
    f = PrivacyFilter(Config())
    focus(f)
    assert enter(f, "sudo apt upgrade")[1]
    f.clean(RawEvent("window", WINDOW, {"app": "Code", "title": "notes.md", "process": "code", "pid": 7}))
    assert enter(f, "some notes")[0]["text"] == "some notes"
    focus(f, pid=43, title="other shell")  # another terminal window
    assert enter(f, "uptime")[0]["text"] == "uptime"
    focus(f, title="sudo apt upgrade")
    stored, asks = enter(f, "hunter2secret")
    assert hidden(stored) and not asks
    assert enter(f, "ls")[0]["text"] == "ls"


def test_pieces_flushed_before_enter_are_dropped() -> None:
    """The composer flushes typed text after a pause unless it hides the line; if its state was reset by another
    event, the filter still holds the answer back and hides it whole at Enter."""
    f = PrivacyFilter(Config())
    focus(f)
    assert enter(f, "sudo ls")[1]
    assert f.clean(RawEvent("keyboard", TEXT, {"text": "hunter", "erase": 0, "enter": False})) is None
    out = f.clean(RawEvent("keyboard", TEXT, {"text": "2secret", "erase": 0, "enter": True}))
    assert hidden(out.data)
    composer_hidden = {"text": "", "erase": 0, "enter": False, "hidden": "password"}
    assert enter(f, "sudo -v")[1]
    assert f.clean(RawEvent("keyboard", TEXT, dict(composer_hidden))).data == composer_hidden


def test_recognition_failure_hides_the_next_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import proactive.watcher.privacy.filter as privacy

    def broken(line: str) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(privacy, "prompt_lines", broken)
    f = PrivacyFilter(Config())
    focus(f)
    assert f.asks_password("ls") is True
    assert f.failures == 1
    assert hidden(f.clean(RawEvent("keyboard", TEXT, {"text": "anything", "erase": 0, "enter": True})).data)


def test_inline_secrets_are_redacted_by_the_filter() -> None:
    f = PrivacyFilter(Config())
    focus(f)
    for line in ["echo Tr0ub4dor | sudo -S ls", "sudo -S true <<< Tr0ub4dor", "mysql -u root -pTr0ub4dor db",
                 "sshpass -p Tr0ub4dor ssh h", "curl -u me:Tr0ub4dor https://x", "PASSWORD=Tr0ub4dor ./run"]:
        stored, _ = enter(f, line)
        assert "Tr0ub4dor" not in stored["text"] and "[REDACTED:password]" in stored["text"], line


# -- the pipeline --------------------------------------------------------------------------------------------------


def test_pipeline_hides_prompt_answers(proactive_home: Path, terminal: ShellPty) -> None:
    """Through the real pipeline and composer; a click in the middle of the username resets the composer's
    hiding, and the filter still holds the rest back."""
    events = [RawEvent("window", WINDOW, {**XTERM, "pid": terminal.pid}), *keys("cd /tmp && sudo ls\nsudopw4242\ngit push\nmyname"),
              RawEvent("mouse", CLICK, {"button": "left", "x": 1, "y": 1}),
              *keys("zz77\ngitpw4242\nls\necho pw4242x | sudo -S true\n")]
    raw, episodes = run_pipeline(events)
    for secret in ("sudopw4242", "myname", "zz77", "gitpw4242", "pw4242x"):
        assert secret not in raw + episodes
    for kept in ("cd /tmp && sudo ls", "git push", "'ls'", "echo [REDACTED:password] | sudo -S true"):
        assert kept in episodes
    # sudo's answer, the username in two pieces (the click cut it), the password; not the line after `sudo -S`
    # fed by a pipe
    assert raw.count("'hidden': 'password'") == 4


# -- end to end on a real X server --------------------------------------------------------------------------------


class Unauthorized(BaseHTTPRequestHandler):
    """Answers every request 401 with a Basic challenge, and records the credentials it was sent."""

    def _deny(self) -> None:
        self.server.auth.append(self.headers.get("Authorization") or "")  # type: ignore[attr-defined]
        body = b"unauthorized"
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="x"')
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _deny

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def http_401() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Unauthorized)
    server.auth = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


HIDDEN = "<hidden>"


def stored_lines() -> list[str]:
    """The typed lines as stored in raw_events (the composer's chunks put back together), HIDDEN for hidden ones."""
    store = Store()
    lines, current = [], ""
    for _, event in store.iter_events():
        if event.kind != TEXT:
            continue
        if event.data.get("hidden"):
            lines.append(HIDDEN)
            current = ""
            continue
        current = current[: len(current) - int(event.data.get("erase") or 0)] + (event.data.get("text") or "")
        if event.data.get("enter") or event.data.get("end"):  # (an end: the field's or vim's insert mode's)
            lines.append(current)
            current = ""
    store.close()
    return lines


CANARY_GIT_USER = "gituser7Qx9canary"
CANARY_GIT_PW = "gitpass4Zr8canary"
CANARY_DOCKER = "dockerpw6Wm2canary"
CANARY_OPENSSL = "opensslpw3Kd5canary"
CANARY_SUDO = "sudopw8Hn1canary"
CANARY_INLINE = "inlinepw2Tb7canary"
CANARY_KEYGEN = "keygenpw5Vc3canary"


@pytest.mark.x11
def test_real_prompters_in_a_real_terminal(xsession: XSession, proactive_home: Path, tmp_path: Path,
                                           http_401: ThreadingHTTPServer) -> None:
    port = http_401.server_address[1]
    repo = tmp_path / "repo"
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "first"], check=True)
    subprocess.run([*git, "remote", "add", "origin", f"http://127.0.0.1:{port}/repo.git"], check=True)
    subprocess.run([*git, "config", "branch.main.remote", "origin"], check=True)
    subprocess.run([*git, "config", "branch.main.merge", "refs/heads/main"], check=True)
    shell_home = tmp_path / "shell-home"  # no ~/.gitconfig (no credential helper), no docker credentials kept
    shell_home.mkdir()
    term = xsession.start_xterm("secrets shell", command=[
        "env", "-u", "GIT_ASKPASS", "-u", "SSH_ASKPASS", f"HOME={shell_home}", "GIT_CONFIG_NOSYSTEM=1",
        "GIT_TERMINAL_PROMPT=1", "PS1=$ ", "bash", "--norc", "--noprofile"])
    xsession.activate(term)
    hash_file = tmp_path / "hash.txt"
    ran: list[str] = []
    expected: list[str] = []  # the lines as they must be stored, HIDDEN for a hidden one

    def line(text: str, wait: float = 0.3, stored: str | None = None) -> None:
        xsession.type(text)
        xsession.key("Return")
        expected.append(text if stored is None else stored)
        time.sleep(wait)

    watcher = WatcherProcess(proactive_home, xsession.env)
    try:
        line(f"cd {repo}")
        # git over HTTP: the loopback server answers 401, git asks "Username for 'http://127.0.0.1:PORT':" and
        # "Password for 'http://USER@127.0.0.1:PORT':" on the terminal; the server then receives what was typed
        line("git -c credential.helper= push", wait=0)
        wait_for(lambda: http_401.auth, timeout=20, what="git's first request")
        time.sleep(1.0)  # git prints its prompt (and flushes typed-ahead input when it turns echo off)
        line(CANARY_GIT_USER, wait=1.0, stored=HIDDEN)
        line(CANARY_GIT_PW, wait=0, stored=HIDDEN)
        wait_for(lambda: basic(CANARY_GIT_USER, CANARY_GIT_PW) in http_401.auth, timeout=20,
                 what="git sending the typed credentials")
        ran.append("git")
        time.sleep(0.5)
        line("echo after git")
        # a prompter behind `cd /tmp &&`: whichever real ones this machine has (CI runs as root, where sudo, if
        # installed at all, does not prompt: then docker login, else openssl passwd are the real prompters)
        if shutil.which("sudo") and os.geteuid() != 0:
            line("cd /tmp && sudo -k && sudo true", wait=1.5)
            line(CANARY_SUDO, wait=1.5, stored=HIDDEN)  # not the user's password: sudo says "Sorry, try again"
            xsession.key("ctrl+c")
            ran.append("sudo")
        if shutil.which("docker"):
            line(f"cd /tmp && docker login -u me 127.0.0.1:{port}", wait=2.0)
            line(CANARY_DOCKER, wait=0, stored=HIDDEN)
            wait_for(lambda: basic("me", CANARY_DOCKER) in http_401.auth, timeout=30,
                     what="docker login sending the typed password")
            ran.append("docker")
        if shutil.which("openssl"):
            line(f"cd /tmp && openssl passwd -5 -salt pepper > {hash_file}", wait=1.0)
            line(CANARY_OPENSSL, wait=0, stored=HIDDEN)  # (asked once: with the salt given, no "Verifying -")
            digest = subprocess.run(["openssl", "passwd", "-5", "-salt", "pepper", CANARY_OPENSSL],
                                    capture_output=True, text=True, check=True).stdout
            wait_for(lambda: hash_file.exists() and hash_file.read_text() == digest, timeout=20,
                     what="openssl reading the typed password")
            ran.append("openssl")
        if shutil.which("ssh-keygen"):
            # the passphrase given on the line (none): no prompt, so the next line is kept
            line(f"ssh-keygen -q -t ed25519 -N '' -f {tmp_path}/k1", wait=1.0)
            line("echo after keygen")
            # the file given: the passphrase, then the same again
            line(f"ssh-keygen -q -t ed25519 -f {tmp_path}/k2", wait=1.0)
            line(CANARY_KEYGEN, wait=1.0, stored=HIDDEN)
            line(CANARY_KEYGEN, wait=1.0, stored=HIDDEN)
            wait_for(lambda: (tmp_path / "k2.pub").exists(), timeout=20, what="ssh-keygen writing the key")
            # the passphrase on the line: redacted there, and it opens the key
            line(f"ssh-keygen -y -P {CANARY_KEYGEN} -f {tmp_path}/k2 > {tmp_path}/k2.out", wait=1.0,
                 stored=f"ssh-keygen -y -P [REDACTED:password] -f {tmp_path}/k2 > {tmp_path}/k2.out")
            opened = tmp_path / "k2.out"
            wait_for(lambda: opened.exists() and opened.read_text().split()[:2]
                     == (tmp_path / "k2.pub").read_text().split()[:2], timeout=20,
                     what="ssh-keygen opening the key with the typed passphrase")
            ran.append("ssh-keygen")
        # inline: the password is on the command line itself (sudo may be missing: the line is what matters)
        line(f"cd /tmp && echo {CANARY_INLINE} | sudo -S true 2>/dev/null; echo inline done",
             stored="cd /tmp && echo [REDACTED:password] | sudo -S true 2>/dev/null; echo inline done")
        line("echo visible")
        watcher.flushed()
        live = all_bytes(proactive_home)  # database, WAL and logs while the watcher runs
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert len(ran) >= 2, ran  # git and at least one prompter behind `cd /tmp &&`
    text_out = run_cli("episodes", env=watcher.env).stdout
    json_out = run_cli("episodes", "--json", env=watcher.env).stdout
    outputs = (text_out + json_out + err + watcher.stdout).encode()
    everything = live + all_bytes(proactive_home) + outputs
    for canary in (CANARY_GIT_USER, CANARY_GIT_PW, CANARY_DOCKER, CANARY_OPENSSL, CANARY_SUDO, CANARY_INLINE,
                   CANARY_KEYGEN):
        for piece in (canary, canary[:10], canary[-10:]):
            assert piece.encode() not in everything, f"{piece!r} leaked ({ran})"
    # ...while the command lines around them were kept, and exactly the answers hidden
    assert stored_lines() == expected
    assert "git -c credential.helper= push" in json_out and "enters a password (hidden)" in text_out


def test_echoed_password_is_held_until_the_pipe_shows_it() -> None:
    """`echo PW ` then a pause, then `| sudo -S ls`: nothing of the line is handed on before Enter, so the
    password is redacted whole, never stored as an early piece."""
    from proactive.watcher.privacy.compose import TextComposer

    out: list[RawEvent] = []
    composer = TextComposer(out.append)
    for i, ch in enumerate("echo Tr0ub4dor "):
        composer.key(100.0 + i * 0.01, char=ch)
    composer.tick(105.0)  # a long pause: ordinary text would be flushed now
    assert out == []
    for ch in "| sudo -S ls":
        composer.key(106.0, char=ch)
    composer.key(106.1, key="enter")
    text = "".join(e.data["text"] for e in out)
    assert "Tr0ub4dor" not in text and "[REDACTED:password]" in text and "sudo -S ls" in text
    plain: list[RawEvent] = []
    composer = TextComposer(plain.append)
    for ch in "git status ":
        composer.key(100.0, char=ch)
    composer.tick(105.0)
    assert plain and plain[0].data["text"] == "git status "
