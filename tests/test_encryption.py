"""Encryption at rest (watcher/store/crypto.py) against a real OS keyring: gnome-keyring-daemon serving the Secret
Service on a private D-Bus session bus (tests/keyring_session.py), and the real `proactive` CLI in subprocesses.

- typed text captured on a real X server reaches neither the database, its WAL nor the logs as bytes, while
  `proactive episodes` shows it; a process without the key cannot open the database;
- `key export` / `key import` move the key to another "machine" (another path: another keyring entry);
- a plain database is encrypted in place, and a migration killed in the middle leaves it plain and whole;
- without a keyring (no bus, a bus without Secret Service, keyring's null backend) the store stays plain and the
  watcher says so in one line; `encryption = "required"` refuses to start (exit 2, one line); a bus that never
  answers cannot hang the start."""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from proactive.assistant.proposals import ProposalLog
from proactive.watcher.events import TEXT, WINDOW, RawEvent
from proactive.watcher.privacy.redact import redact
from proactive.watcher.store import crypto, keyring_access
from proactive.watcher.store.database import Store, StoreError

from .conftest import PROACTIVE, ROOT, WatcherProcess, XSession, run_cli, wait_for
from .keyring_session import KeyringSession, available

pytestmark = pytest.mark.skipif(available() is not None, reason=str(available()))

CANARY = "quokka marmalade zeppelin"  # plain words: the privacy filter keeps them, so they are stored
WAL_CANARY = "walrus tangerine harmonica"
PLAIN = b"SQLite format 3\x00"


@pytest.fixture
def keyring_session(tmp_path: Path) -> Iterator[KeyringSession]:
    session = KeyringSession(tmp_path / "keyring").start()
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This (test) process without a keyring: its stores are plain, as on a server."""
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND", raising=False)
    crypto.reset()
    yield
    crypto.reset()


def env_without_keyring(env: dict[str, str] | None = None) -> dict[str, str]:
    return {k: v for k, v in (env or os.environ).items()
            if k not in ("DBUS_SESSION_BUS_ADDRESS", "PYTHON_KEYRING_BACKEND")}


def files_bytes(home: Path) -> dict[str, bytes]:
    """Every file under the home (database, WAL, -shm, logs, caches, temporaries) by name."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


def assert_no_canary(home: Path, canary: str = CANARY) -> None:
    for name, data in files_bytes(home).items():
        for piece in (canary, *canary.split()):
            assert piece.encode() not in data, f"{piece!r} is in {name} as plaintext"


def one_line(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 2, out
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


KILLED_WRITER = """
import os, sys
from proactive.watcher.events import TEXT, RawEvent
from proactive.watcher.store.database import Store
store = Store(sys.argv[1])
store.db.execute("PRAGMA wal_autocheckpoint = 0")
store.add_events([RawEvent("keyboard", TEXT, {"text": sys.argv[2], "erase": 0, "enter": True}, ts=1002.0)])
os._exit(0)  # no close: the WAL keeps the text
"""


def plain_store_with_canary(path: Path, canary: str = CANARY) -> None:
    store = Store(path)
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "notes"}, ts=1000.0),
                      RawEvent("keyboard", TEXT, {"text": canary, "erase": 0, "enter": True}, ts=1001.0)])
    store.close()
    assert path.read_bytes()[:16] == PLAIN


# -- with a real keyring ---------------------------------------------------------------------------------------

@pytest.mark.x11
def test_typed_text_is_encrypted_on_disk_and_readable_with_the_key(xsession: XSession, keyring_session,
                                                                    proactive_home: Path):
    term = xsession.start_xterm("encrypted notes", command=["cat"])
    xsession.activate(term)
    env = dict(xsession.env, DBUS_SESSION_BUS_ADDRESS=keyring_session.address)
    env.pop("PYTHON_KEYRING_BACKEND", None)
    watcher = WatcherProcess(proactive_home, env)
    db = proactive_home / "proactive.db"
    try:
        xsession.type(CANARY)
        xsession.key("Return")
        xsession.type("echo second line")
        xsession.key("Return")
        wal = Path(f"{db}-wal")
        wait_for(lambda: wal.exists() and wal.stat().st_size > 0, timeout=10, what="the WAL")
        watcher.flushed()
        assert wal.stat().st_size > 0  # the typed text is in the WAL now, if anywhere
        assert_no_canary(proactive_home)  # database, WAL and logs while the watcher runs
        running = run_cli("status", env=watcher.env).stdout
        assert "watcher: running (pid" in running and "capture: capturing" in running, running  # one story
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert "stored unencrypted" not in err
    assert db.read_bytes()[:16] != PLAIN
    assert_no_canary(proactive_home)
    log = (proactive_home / "logs" / "proactive.log").read_text()
    assert "encrypted at rest, key in the OS keyring (Secret Service" in log
    out = run_cli("episodes", env=watcher.env)
    assert out.returncode == 0, out.stderr
    assert f"The user types '{CANARY}' and presses Enter" in out.stdout
    assert_no_canary(proactive_home)  # reading left no plaintext either
    status = run_cli("status", env=watcher.env).stdout
    assert "encryption: encrypted at rest" in status
    assert "watcher: not running" in status and "capture: off (no watcher running" in status, status
    # a process without the key: not the CLI without a keyring, not SQLite, not SQLCipher without the key
    line = one_line(run_cli("episodes", env=env_without_keyring(watcher.env)))
    assert str(db) in line and "needs its key" in line
    with pytest.raises(sqlite3.DatabaseError, match="not a database"):
        sqlite3.connect(db).execute("SELECT count(*) FROM sqlite_master").fetchone()
    import sqlcipher3.dbapi2 as sqlcipher

    with pytest.raises(sqlcipher.DatabaseError, match="not a database"):
        sqlcipher.connect(str(db)).execute("SELECT count(*) FROM sqlite_master").fetchone()


def test_migration_key_export_and_import_round_trip(keyring_session, proactive_home: Path, tmp_path: Path,
                                                   no_keyring):
    db = proactive_home / "proactive.db"
    plain_store_with_canary(db)  # made where there was no keyring
    # a plain watcher killed with text still in its WAL (never checkpointed into the file)
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(db), WAL_CANARY], cwd=ROOT,
                            env=env_without_keyring(), capture_output=True, text=True, timeout=60)
    assert killed.returncode == 0, killed.stderr
    assert WAL_CANARY.encode() in Path(f"{db}-wal").read_bytes()
    env = dict(keyring_session.env, PROACTIVE_HOME=str(proactive_home))
    out = run_cli("episodes", env=env)  # the first open with a keyring encrypts it in place
    assert out.returncode == 0 and CANARY in out.stdout and WAL_CANARY in out.stdout, out.stderr
    assert db.read_bytes()[:16] != PLAIN
    assert sorted(p.name for p in proactive_home.iterdir() if "encrypting" in p.name) == []
    assert_no_canary(proactive_home)
    assert_no_canary(proactive_home, WAL_CANARY)  # the plain WAL did not survive

    key_file = tmp_path / "key.txt"
    out = run_cli("key", "export", str(key_file), env=env)
    assert out.returncode == 0, out.stderr
    assert key_file.stat().st_mode & 0o777 == 0o600
    key = key_file.read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", key), key  # 32 random bytes in hex
    printed = run_cli("key", "export", env=env).stdout
    assert printed.strip() == key  # or on stdout
    assert redact(printed) == "[REDACTED:hex-key]\n"  # a terminal's text showing it is never stored

    # another machine: the database elsewhere, with no key for it in the keyring
    other_home = tmp_path / "other"
    other_home.mkdir()
    for p in proactive_home.glob("proactive.db*"):
        (other_home / p.name).write_bytes(p.read_bytes())
    other = dict(env, PROACTIVE_HOME=str(other_home))
    line = one_line(run_cli("episodes", env=other))
    assert "proactive key import" in line
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(secrets.token_hex(32) + "\n")
    assert "this key does not open" in one_line(run_cli("key", "import", str(wrong), env=other))
    assert "not a proactive database key" in one_line(run_cli("key", "import", str(ROOT / "README.md"), env=other))
    assert one_line(run_cli("episodes", env=other))  # a refused key was not stored
    out = run_cli("key", "import", "-", env=other, input=key_file.read_text())  # '-': stdin
    assert out.returncode == 0 and "it opens" in out.stdout, out.stderr
    out = run_cli("episodes", env=other)
    assert out.returncode == 0 and CANARY in out.stdout, out.stderr


def test_full_text_search_and_purge_on_an_encrypted_store(keyring_session, proactive_home: Path,
                                                        monkeypatch: pytest.MonkeyPatch):
    """In this process, with the real keyring: sqlite-utils over the SQLCipher connection, the FTS5 index (its
    trigram tokenizer) and a purge that reaches the WAL."""
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", keyring_session.address)
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND", raising=False)
    crypto.reset()
    try:
        store = Store()
        store.add_episodes([{"start": 1000.0, "end": 1010.0, "app": "XTerm", "title": "shell",
                             "event": f"The user types '{CANARY}'.", "sentences": [], "first_raw_id": 0,
                             "last_raw_id": 0}])
        assert "trigram" in store.db.execute("SELECT sql FROM sqlite_master WHERE name = 'episodes_fts'"
                                             ).fetchone()[0]
        [hit] = store.search_episodes("MARMALADE", before=2000.0)  # a substring, any case
        assert hit["title"] == "shell"
        assert_no_canary(proactive_home)
        assert store.purge() == 1
        store.close()
        assert crypto.stored_key(store.path) is not None
    finally:
        crypto.reset()


def test_migration_killed_in_the_middle_leaves_the_plain_database_whole(keyring_session, proactive_home: Path,
                                                                        no_keyring):
    db = proactive_home / "proactive.db"
    store = Store(db)
    filler = "lorem ipsum dolor sit amet " * 8
    n = 120_000  # ~40 MB: its export takes a few hundred milliseconds, the window the kill lands in
    store.add_events([RawEvent("keyboard", TEXT, {"text": f"{CANARY} {filler} {i}", "erase": 0, "enter": False},
                               ts=1000.0 + i) for i in range(n)])
    store.close()
    tmp = proactive_home / "proactive.db.encrypting"
    env = dict(keyring_session.env, PROACTIVE_HOME=str(proactive_home))
    proc = subprocess.Popen([*PROACTIVE, "status"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not tmp.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.0005)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL, "the migration ended before the kill"
    assert tmp.exists()  # killed in the middle: the encrypted copy was being written...
    assert db.read_bytes()[:16] == PLAIN  # ...and the database is still the plain one, whole
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert con.execute("SELECT count(*) FROM raw_events").fetchone() == (n,)
    con.close()

    out = run_cli("status", env=env)  # the next start finishes the job
    assert out.returncode == 0 and f"{n} raw events" in out.stdout, out.stderr
    assert db.read_bytes()[:16] != PLAIN
    assert not tmp.exists() and not Path(f"{tmp}-journal").exists()
    assert_no_canary(proactive_home)  # no plain WAL or -shm survived, nor the temporary copy


LONG_LIVED = """
import logging, sys
from proactive.watcher.store import crypto
from proactive.watcher.events import TEXT, RawEvent
from proactive.watcher.store.database import Store
logging.basicConfig(level=logging.INFO, format="%(message)s")
for line in sys.stdin:  # each line: a database to open, write to and close
    store = Store(line.strip())
    store.add_events([RawEvent("keyboard", TEXT, {"text": sys.argv[1], "erase": 0, "enter": True}, ts=1000.0)])
    store.close()
    print(crypto.file_state(store.path), flush=True)
"""


def test_a_keyring_that_comes_up_later_is_used_at_the_next_open(tmp_path: Path, proactive_home: Path):
    """A process started before the Secret Service was on its bus (a tray started at login before the keyring
    daemon): its first open finds no keyring and stays plain; once the keyring is there, its next open encrypts
    (a new database, and the plain one in place) and says so. keyring.get_keyring() would have kept "no keyring"
    for the life of the process."""
    session = KeyringSession(tmp_path / "keyring").start(keyring=False)
    env = dict(session.env, PROACTIVE_HOME=str(proactive_home))
    proc = subprocess.Popen([sys.executable, "-c", LONG_LIVED, CANARY], env=env, cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first, second = proactive_home / "first.db", proactive_home / "second.db"

    def open_in_process(path: Path) -> str:
        proc.stdin.write(f"{path}\n")
        proc.stdin.flush()
        return proc.stdout.readline().strip()

    try:
        assert open_in_process(first) == "plain"
        session.start_keyring()
        assert open_in_process(first) == "encrypted"
        assert open_in_process(second) == "encrypted"
        proc.stdin.close()
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        session.stop()
    err = proc.stderr.read()
    proc.stderr.close()
    assert f"{first}: an OS keyring answers now: encrypted from this open on" in err, err
    assert f"{first}: plain database encrypted in place" in err
    assert "answers now" not in err.replace(f"{first}: an OS keyring answers now", "")  # once, for that one
    assert first.read_bytes()[:16] != PLAIN and second.read_bytes()[:16] != PLAIN
    assert_no_canary(proactive_home)


# -- without a keyring -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["no bus", "bus without Secret Service", "null backend", "locked keyring"])
def test_without_a_keyring_the_store_stays_plain_and_says_so_once(case, tmp_path: Path, proactive_home: Path):
    env = env_without_keyring()
    env.pop("DISPLAY", None)  # no capture sources: the watcher starts and waits
    session = None
    if case != "no bus":
        session = KeyringSession(tmp_path / "keyring").start()
        env["DBUS_SESSION_BUS_ADDRESS"] = session.address
        if case == "bus without Secret Service":
            session.stop_keyring()
        elif case == "null backend":
            env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
        else:
            session.lock()  # reading it would need a password prompt: we never prompt
    try:
        watcher = WatcherProcess(proactive_home, env)
        code, err = watcher.stop()
        # `doctor` tells the state the watcher met, in the same words (not "the keyring answers")
        doctor = run_cli("doctor", "--json", env=dict(env, PROACTIVE_HOME=str(proactive_home)), process=True)
    finally:
        if session is not None:
            session.stop()
    assert code == 0, err
    told = json.loads(doctor.stdout)["database"]
    assert told["detail"].startswith("stored unencrypted: ") and told["fix"], told
    said = [line for line in err.splitlines() if "stored unencrypted" in line]
    assert len(said) == 1, err
    reason = {"no bus": "no D-Bus session bus", "bus without Secret Service": "Secret Service daemon is neither running",
              "null backend": "null.Keyring", "locked keyring": "waiting for its password"}[case]
    assert reason in said[0] and reason in told["detail"], (said, told)
    log = (proactive_home / "logs" / "proactive.log").read_text()
    assert log.count("stored unencrypted") == 1
    assert (proactive_home / "proactive.db").read_bytes()[:16] == PLAIN


def test_required_without_a_keyring_refuses_to_start(proactive_home: Path):
    (proactive_home / "config.toml").write_text('encryption = "required"\n')
    line = one_line(run_cli("watch", "--no-aw", env=env_without_keyring()))
    assert 'encryption = "required"' in line and "no D-Bus session bus" in line
    assert not (proactive_home / "proactive.db").exists()
    line = one_line(run_cli("run", "--headless", "--no-aw", env=env_without_keyring()))
    assert 'encryption = "required"' in line


WRITERS = (("watch", "--no-aw"), ("run", "--headless", "--no-aw"), ("decide", "1", "accepted"),
           ("purge", "--all", "-y"))


@pytest.mark.parametrize("config, problem", [
    ('encryption = "required"\nidle_seconds = 0\n', "idle_seconds = 0: must be a number"),
    ('encryption = "required"\nexcluded_apps = ["keepassxc",\n', "not valid TOML"),
])
def test_required_holds_whatever_else_is_wrong_with_the_config(config: str, problem: str, proactive_home: Path,
                                                             tmp_path: Path, no_keyring):
    """A config with one bad setting (or not TOML at all) beside encryption = "required": every command that
    reads the config stops on the bad setting (exit 2, one line naming it), and a process using the library
    refuses for want of a keyring: nothing is written plain."""
    db = proactive_home / "proactive.db"
    plain_store_with_canary(db)  # from before "required", where there was no keyring
    before = {name: data for name, data in files_bytes(proactive_home).items() if name.startswith("proactive.db")}
    (proactive_home / "config.toml").write_text(config)
    env = env_without_keyring()
    # the readers too: every command that reads the config checks it first, as watch does
    for args in (*WRITERS, ("episodes",), ("status",), ("export", "--out", str(tmp_path / "rows.jsonl"))):
        line = one_line(run_cli(*args, env=env))
        assert "config.toml" in line and problem in line, (args, line)
    with pytest.raises(StoreError, match='encryption = "required"'):
        Store()
    after = {name: data for name, data in files_bytes(proactive_home).items() if name.startswith("proactive.db")}
    assert after == before


def test_decide_with_required_and_no_keyring_writes_nothing(proactive_home: Path, no_keyring):
    db = proactive_home / "proactive.db"
    store = Store(db)  # plain: made where there was no keyring, before "required"
    pid = ProposalLog(store).add(1000.0, None, "Search the error", "Want me to search it?", 0.8, {"trigger": "episode"})
    store.close()
    before = files_bytes(proactive_home)
    (proactive_home / "config.toml").write_text('encryption = "required"\n')
    line = one_line(run_cli("decide", str(pid), "rejected", env=env_without_keyring()))
    assert 'encryption = "required"' in line and "no D-Bus session bus" in line
    after = files_bytes(proactive_home)
    assert {k: v for k, v in after.items() if k != "config.toml"} == before
    assert sqlite3.connect(db).execute("SELECT count(*) FROM decisions").fetchone() == (0,)


def test_a_bus_that_never_answers_cannot_hang_the_start(proactive_home: Path, tmp_path: Path):
    """A wedged bus at DBUS_SESSION_BUS_ADDRESS: it accepts the client and its authentication, then never answers
    a message (jeepney's Hello would wait forever). The keyring lookup gives up after keyring_access.KEYRING_TIMEOUT_S,
    and encryption = "required" then refuses to start."""
    path = tmp_path / "silent-bus"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(4)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn = server.accept()[0]
                conn.settimeout(5)
                seen = b""
                while b"\r\n" not in seen:  # "\0AUTH EXTERNAL <uid>\r\n"
                    seen += conn.recv(1024) or b"\r\n"
                conn.sendall(b"OK 0123456789abcdef0123456789abcdef\r\n")
                held.append(conn)  # then silence
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    (proactive_home / "config.toml").write_text('encryption = "required"\n')
    env = dict(env_without_keyring(), DBUS_SESSION_BUS_ADDRESS=f"unix:path={path}")
    started = time.monotonic()
    try:
        line = one_line(run_cli("watch", "--no-aw", env=env, timeout=30))
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()
    assert time.monotonic() - started < keyring_access.KEYRING_TIMEOUT_S + 8
    assert "did not answer" in line


def test_off_keeps_the_store_plain_and_quiet(keyring_session, proactive_home: Path):
    (proactive_home / "config.toml").write_text('encryption = "off"\n')
    env = dict(keyring_session.env, PROACTIVE_HOME=str(proactive_home))
    env.pop("DISPLAY", None)
    watcher = WatcherProcess(proactive_home, env)
    code, err = watcher.stop()
    assert code == 0, err
    assert "unencrypted" not in err
    assert (proactive_home / "proactive.db").read_bytes()[:16] == PLAIN
    assert "holds no key" in one_line(run_cli("key", "export", env=env))


def test_exception_tuples_cover_both_drivers():
    import sqlcipher3.dbapi2 as sqlcipher

    for name in ("Error", "DatabaseError", "OperationalError"):
        caught = getattr(crypto, name)
        assert getattr(sqlite3, name) in caught and getattr(sqlcipher, name) in caught
    assert issubclass(crypto.EncryptionError, sqlite3.DatabaseError)


def test_the_header_is_read_once_per_file(proactive_home: Path, no_keyring, monkeypatch: pytest.MonkeyPatch):
    """Closing any descriptor of a database file drops the POSIX locks this process's connections hold on it: once
    a store is open, opening another (the watcher's threads, the tray's windows) must not read the file again."""
    Store().close()  # the first open reads the header
    opened: list[str] = []
    real_open = open

    def spy(path, *args, **kwargs):
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(crypto, "open", spy, raising=False)
    first, second = Store(), Store()
    first.close()
    second.close()
    assert str(proactive_home / "proactive.db") not in opened
