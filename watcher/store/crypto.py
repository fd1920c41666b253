"""Encryption at rest: the database (and so its WAL) encrypted with SQLCipher, its key kept in the OS keyring.

Why: the database holds what the person typed, copied and read. Disk encryption protects a powered-off laptop;
this protects the file from anything else that can read the user's files (a backup, a sync folder, another
program). SQLCipher encrypts every page, so the WAL and the free pages hold no plaintext either.

- The key: 32 random bytes, generated once per database and stored in the OS keyring through `keyring` (Secret
  Service on Linux, Keychain on macOS, Credential Locker on Windows) under service "proactive", user = the
  database's absolute path. It is given to SQLCipher as a raw key (`x'...'`), so opening costs no key derivation.
- `config.toml`'s `encryption`: "auto" (default) encrypts wherever an OS keyring answers and otherwise keeps the
  store plain, said once at start (`announce`); "required" refuses to open the store without one (exit 2, one
  line), read on its own so that another bad setting cannot turn it off (`home.encryption_setting`);
  "off" never encrypts (an already encrypted database still opens with its key).
- A plain database is encrypted in place the first time it is opened with a key available and no watcher
  running (`migrate`): a copy is exported into a temporary file beside it, checked, fsynced and renamed over it.
  Killed at any point, the plain original stays whole and usable; the plain WAL is checkpointed empty and removed
  before the swap, and the old file's bytes are overwritten after it.
- The keyring is looked for afresh at each open of a store (not through `keyring.get_keyring()`, which keeps the
  backend it found first for the whole process): a tray started before the Secret Service came up on the bus
  encrypts at its next open and says so. Without a session bus the answer costs nothing; with one, a D-Bus
  round trip, and only while no key is known (a key is read once per process).
- Keyring calls never prompt (a locked keyring counts as none) and never hang: each runs under a time limit; a
  call that did not answer is not followed by another until it returns.
- `key export` / `key import` move the key to another machine (`export_key`, `import_key`).

Logs and messages name paths and reasons only, never captured text.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from proactive.watcher.store import home, keyring_access
from proactive.watcher.store.keyring_access import NoKeyring, one_line

try:
    import sqlcipher3.dbapi2 as sqlcipher
except ImportError:  # the store still works, plain, and says why
    sqlcipher = None

log = logging.getLogger(__name__)

SERVICE = "proactive"
PLAIN_HEADER = b"SQLite format 3\x00"
KEY_PATTERN = re.compile(r"^[0-9a-f]{64}$")
#: First bytes of files that are something else (PNG, gzip, zip, ELF, xz, 7z, JPEG, UTF-8 text's BOM): at least
#: three bytes, so an SQLCipher salt (random) starts so by chance less than once in ten million files.
OTHER_MAGIC = (b"\x89PNG", b"\x1f\x8b\x08", b"PK\x03\x04", b"\x7fELF", b"\xfd7zXZ", b"7z\xbc\xaf", b"\xff\xd8\xff",
               b"\xef\xbb\xbf")

# The exception classes of both drivers: a connection is sqlite3's (plain) or sqlcipher3's (encrypted), and each
# raises its own. `except crypto.DatabaseError` catches either.
_DRIVERS = (sqlite3,) if sqlcipher is None else (sqlite3, sqlcipher)
Error: tuple[type[Exception], ...] = tuple(d.Error for d in _DRIVERS)
DatabaseError: tuple[type[Exception], ...] = tuple(d.DatabaseError for d in _DRIVERS)
OperationalError: tuple[type[Exception], ...] = tuple(d.OperationalError for d in _DRIVERS)
#: what encrypting a file in place raises: the file system's errors or either driver's
# a named tuple of classes, not `except (A, *B)`: mypy cannot type an unpacking inside an except clause
_IN_PLACE_ERRORS: tuple[type[Exception], ...] = (OSError, *Error)


class EncryptionError(sqlite3.DatabaseError):
    """The database cannot be opened as its encryption demands (no key, wrong key, no keyring while required).
    A sqlite3.DatabaseError, so the store reports it as it reports any unopenable database. One line."""


# -- the keyring -------------------------------------------------------------------------------------------------

_lock = threading.RLock()
_keys: dict[str, str] = {}  # database path -> key, read once per process
_said: set[str] = set()  # messages already logged
_plain_why: dict[str, str] = {}  # database path -> why this process left it plain (encryption not "off")
_unkeyed: set[str] = set()  # databases this process opened plain because no keyring answered
_failed: set[str] = set()  # databases whose migration failed in this process
_states: dict[str, tuple[tuple[int, int], str]] = {}  # database path -> ((device, inode), state): `file_state`


def reset() -> None:
    """Forget this process's keys and what it said (tests; a long-lived process never needs it)."""
    with _lock:
        keyring_access.reset()
        _keys.clear()
        _said.clear()
        _plain_why.clear()
        _unkeyed.clear()
        _failed.clear()
        _states.clear()


def keyring_backend() -> Any:
    """The OS keyring backend usable now, or NoKeyring: looked for at each call (each store open without a known
    key), so a keyring that starts after this process is found."""
    if sqlcipher is None:
        raise NoKeyring("SQLCipher is not installed (the sqlcipher3 package)")
    return keyring_access.backend()


def keyring_name() -> str:
    """What holds the keys, for messages (keyring_access.name); NoKeyring when none can hold a key now."""
    return keyring_access.name(keyring_backend())


def _keyring_call(method: str, *args: str) -> Any:
    return keyring_access.call(keyring_backend(), method, *args)


def key_user(path: Path | str) -> str:
    """The keyring user name of a database: its absolute path (one key per database)."""
    return str(Path(path).expanduser().resolve())


def stored_key(path: Path | str) -> str | None:
    """The database's key from the keyring (None when it holds none); NoKeyring when there is no keyring."""
    user = key_user(path)
    with _lock:
        if user not in _keys:
            key = _keyring_call("get_password", SERVICE, user)
            if key is None:
                return None
            if not KEY_PATTERN.match(key.strip().lower()):
                raise EncryptionError(f"the keyring's entry for it (service {SERVICE}, user {user}) is not a key "
                                      "written by proactive: remove it, or `proactive key import FILE`")
            _keys[user] = key.strip().lower()
        return _keys[user]


def store_key(path: Path | str, key: str) -> None:
    """Keep `key` in the keyring for this database, and check it reads back (a backend that drops it silently
    would leave an encrypted database nobody can open)."""
    user = key_user(path)
    with _lock:
        _keys.pop(user, None)
        _keyring_call("set_password", SERVICE, user, key)
        if stored_key(path) != key:
            _keys.pop(user, None)
            raise NoKeyring("the keyring did not keep the key")


def parse_key(text: str) -> str:
    """A key as `export_key` writes it (64 hex digits), or ValueError."""
    key = text.strip().lower()
    if not KEY_PATTERN.match(key):
        raise ValueError("not a proactive database key (expected 64 hexadecimal digits)")
    return key


# -- opening ---------------------------------------------------------------------------------------------------

def configured_mode() -> str:
    """config.toml's `encryption`, read on its own (`home.encryption_setting`): "required" holds even in a config
    the CLI refuses for another setting, so no process opens the store plain against it."""
    return home.encryption_setting()


def file_state(path: Path) -> str:
    """"new" (missing or empty), "plain" (an SQLite header), "damaged" (first bytes that are not random: text,
    zeros, another format's magic; `looks_damaged`) or "encrypted" (anything else: SQLCipher's first bytes are
    a random salt).

    The header is read once per file (device and inode) in a process: closing any descriptor of a database file
    drops every POSIX lock the process holds on it, so reading it again while this process has connections open
    (the watcher's, the assistant's, the tray's threads) would let SQLite's locking fail under them. A file
    replaced by a migration is a new inode, read afresh."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "new"
    with _lock:
        known = _states.get(str(path))
    if known is not None and known[0] == (st.st_dev, st.st_ino):
        return known[1]
    if st.st_size == 0:
        return "new"
    with open(path, "rb") as f:
        head = f.read(len(PLAIN_HEADER))
    state = ("plain" if head == PLAIN_HEADER else "new" if not head else "damaged" if looks_damaged(head)
             else "encrypted")
    if state != "new":
        _remember(path, state)
    return state


def looks_damaged(head: bytes) -> bool:
    """The first 16 bytes of a file that is neither SQLite (its header) nor SQLCipher (16 random bytes): all
    text or NULs (a config or a log saved over it, another SQLite version's header), four or more zero bytes (a file
    zeroed or cut), or another known format. Random bytes look like that less than once in a million files."""
    text = all(b in b"\0\t\n\r" or 0x20 <= b < 0x7f for b in head)  # NULs too: "SQLite format 2\0"
    return text or head.count(0) >= 4 or len(head) < len(PLAIN_HEADER) or head.startswith(OTHER_MAGIC)


def _remember(path: Path, state: str) -> None:
    """What this process knows the file at `path` (its current inode) to be."""
    with contextlib.suppress(FileNotFoundError):
        st = os.stat(path)
        with _lock:
            _states[str(path)] = ((st.st_dev, st.st_ino), state)


def open_plain(path: Path, timeout: float) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=timeout, check_same_thread=False)
    _remember(path, "plain")  # a new file too: the next open must not read it (`file_state`)
    return conn


def open_encrypted(path: Path, key: str, timeout: float) -> Any:
    """A sqlcipher3 connection with the key applied and checked (a wrong key fails here, not at the first read)."""
    conn = _cipher_connect(path, timeout)
    conn.execute(f"PRAGMA key = \"x'{parse_key(key)}'\"")
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlcipher.DatabaseError as exc:
        conn.close()
        if "not a database" in str(exc):
            raise EncryptionError(WRONG_KEY) from None
        raise
    _remember(path, "encrypted")
    return conn


def _cipher_connect(path: Path, timeout: float) -> Any:
    conn = sqlcipher.connect(str(path), timeout=timeout, check_same_thread=False)
    conn.execute("PRAGMA cipher_log_level = NONE")  # SQLCipher logs a wrong key's HMAC failures to stderr
    return conn


# The store turns SQLite's words ("locked", "not a database", "encrypted"...) into its own advice; these lines
# avoid them, so the user reads what to do about the key instead.
WRONG_KEY = ("the key in the keyring does not open it (damaged, or made with another key: `proactive key import "
             "FILE` stores the right one)")
DAMAGED = ("damaged or not a database: its first bytes are neither SQLite's header nor encrypted data; move it "
           "away (a backup?) or choose another file with --db")
NO_KEY = ("it needs its key and the keyring holds none for it (or it is damaged): `proactive key import FILE` "
          "stores it")


def connect(path: Path | str, timeout: float = 5.0) -> Any:
    """The store's connection to `path`: sqlcipher3 with the key when the database is (or becomes) encrypted,
    sqlite3 otherwise. Creates a new database encrypted when a keyring is there (unless encryption = "off"),
    encrypts a plain one in place (`migrate`), and raises EncryptionError (one line) when an encrypted database's
    key cannot be had or encryption is required and impossible."""
    path = Path(path)
    mode = configured_mode()
    state = file_state(path)
    if state == "damaged":
        raise EncryptionError(DAMAGED)
    if mode == "off" and state != "encrypted":
        return open_plain(path, timeout)
    try:
        key = stored_key(path)
        if key is None and state != "encrypted":
            key = _new_key(path)
    except NoKeyring as exc:
        if state == "encrypted":
            raise EncryptionError(f"it needs its key and no OS keyring can give it: {exc}") from None
        if mode == "required":
            raise EncryptionError(required_message(exc)) from None
        _plain_why[str(path)] = str(exc)  # said by the watcher at start (`announce`)
        with _lock:
            _unkeyed.add(str(path))
        log.debug("%s: plain: %s", path, exc)
        return open_plain(path, timeout)
    if key is None:
        raise EncryptionError(NO_KEY)
    if state == "plain" and not migrate(path, key, mode):
        _keyring_came(path, f"not encrypted yet: {_plain_why.get(str(path), 'see the log')}")
        return open_plain(path, timeout)
    _keyring_came(path, "encrypted from this open on")
    return open_encrypted(path, key, timeout)


def _keyring_came(path: Path, outcome: str) -> None:
    """The line saying that a database this process kept plain for want of a keyring has one now, once."""
    with _lock:
        if str(path) not in _unkeyed:
            return
        _unkeyed.discard(str(path))
    _say_once(f"{path}: an OS keyring answers now: {outcome}")


def _new_key(path: Path) -> str:
    """Generate and keep the database's key, unless another process did meanwhile (two first starts at once
    must not each encrypt with a key the other overwrote)."""
    with _migration_lock(path):
        with _lock:
            _keys.pop(key_user(path), None)
        key = stored_key(path)
        if key is None:
            key = secrets.token_hex(32)
            store_key(path, key)
            log.info("%s: generated its encryption key, kept in the keyring", path)
        return key


def required_message(reason: NoKeyring | str) -> str:
    return f'encryption = "required" but no OS keyring can hold the key: {reason}'


def say_plain(path: Path, reason: NoKeyring | str) -> None:
    """The one line saying the store stays plain, once per process (a warning: stderr and the log)."""
    _say_once(f"{path}: stored unencrypted: {reason}. Encryption is tried again at each open (a running "
              "watcher's own database: at its next start); encryption = \"off\" in config.toml silences this, "
              '"required" refuses to start without it')


def _say_once(line: str, level: int = logging.WARNING) -> None:
    """Log `line` unless this process logged it already (a store opened at every decision must not repeat it)."""
    with _lock:
        if line in _said:
            return
        _said.add(line)
    log.log(level, "%s", line)


def announce(path: Path | str | None, mode: str | None = None, say: bool = True) -> None:
    """At watcher start: refuse (EncryptionError, one line) when encryption is required and no keyring answers,
    and (`say`) say once whether the store is encrypted. The CLI checks first with say=False, so that a bad option
    found later is its only line, and says it once the watcher really starts."""
    path = Path(path) if path else home.db_path()
    mode = mode or configured_mode()
    if not say and mode != "required":
        return
    if mode == "off":
        log.info("%s: encryption at rest is off (config.toml)", path)
        return
    try:
        name = keyring_name()
    except NoKeyring as exc:
        if mode == "required":
            raise EncryptionError(f"{path}: {required_message(exc)}") from None
        if say and file_state(path) != "encrypted":  # an encrypted one fails to open with its own line
            say_plain(path, exc)
        return
    if not say:
        return
    state = file_state(path)  # the store was opened (and migrated) before this
    if state == "encrypted":
        log.info("%s: encrypted at rest, key in the OS keyring (%s)", path, name)
    elif state == "plain":  # a keyring that is there and failed, or a migration that failed
        say_plain(path, _plain_why.get(str(path), "it could not be encrypted in place (see the log)"))


# -- migration -------------------------------------------------------------------------------------------------

def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(*paths: Path) -> None:
    for p in paths:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


@contextlib.contextmanager
def _migration_lock(path: Path) -> Iterator[None]:
    """One key generation or migration at a time per database (two commands starting together): an exclusive
    `filelock` on `<db>.migrate.lock` (flock on POSIX, LockFileEx on Windows)."""
    from filelock import FileLock

    with FileLock(f"{path}.migrate.lock"):
        yield


def _watcher_holds(path: Path) -> bool:
    """A watcher runs for this home, or holds `<db>.lock` (watcher.control's per-database lock)."""
    from proactive.watcher import control

    return control.running_pid() is not None or control.database_held(path)


def _sidecars(path: Path) -> list[Path]:
    return [Path(f"{path}{suffix}") for suffix in ("-wal", "-shm", "-journal")]


def migrate(path: Path, key: str, mode: str = "auto") -> bool:
    """Encrypt the plain database at `path` in place with `key`; True when it is encrypted now.

    Only while no watcher runs: a running one holds connections to the plain file, and writes it would make after
    the swap would go to the replaced file. Then:
    1. checkpoint the plain WAL into the file (TRUNCATE: the WAL is left empty);
    2. `sqlcipher_export` into `proactive.db.encrypting` beside it, with the user_version, and compare every
       table's row count;
    3. fsync it; check the plain WAL is still empty (no writer came in) and remove it and the -shm, so no plain
       WAL can ever be replayed against the encrypted file;
    4. rename it over the database (atomic), fsync the folder, then overwrite the old file's bytes.
    Killed before 4, the plain database is whole (the next attempt removes the temporary file); after it, the
    encrypted one is. A failure leaves the plain database in use: "required" raises, "auto" says so."""
    tmp = path.with_name(path.name + ".encrypting")
    with _migration_lock(path):
        state = file_state(path)
        if state != "plain":
            return state == "encrypted"
        if _watcher_holds(path):
            _plain_why[str(path)] = "a watcher is running (it is encrypted at the next start)"
            _say_once(f"{path}: not encrypted yet: {_plain_why[str(path)]}", logging.INFO)
            return False
        if str(path) in _failed:  # once per process: a full disk is not retried at every open
            return False
        _remove(tmp, *_sidecars(tmp))
        try:
            _export(path, tmp, key)
            _fsync(tmp)
            wal = Path(f"{path}-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise EncryptionError("another process wrote to it meanwhile; it is encrypted at the next start")
            old = open(path, "r+b")  # kept open: the old bytes are overwritten through it after the swap
            try:
                _remove(*_sidecars(path))
                os.replace(tmp, path)
            except OSError:
                old.close()
                raise
        except _IN_PLACE_ERRORS as exc:
            _remove(tmp, *_sidecars(tmp))
            _failed.add(str(path))
            _plain_why[str(path)] = f"it could not be encrypted in place ({one_line(exc)})"
            if mode == "required":
                raise EncryptionError(_plain_why[str(path)]) from None
            log.info("%s: %s", path, _plain_why[str(path)])
            return False
        _remember(path, "encrypted")
        try:
            _fsync(path.parent)
            _overwrite(old)
        except OSError as exc:  # the swap is done: the database is the encrypted one whatever happens here
            log.info("%s: the replaced plain file could not be overwritten (%s)", path, one_line(exc))
        finally:
            old.close()
    log.info("%s: plain database encrypted in place", path)
    return True


def _export(path: Path, tmp: Path, key: str) -> None:
    """The plain database at `path` copied, encrypted with `key`, into `tmp`, then checked by opening the copy
    afresh (sqlcipher_export writes virtual tables straight into the schema: only a new connection sees them)
    and comparing every table's row count."""
    conn = _cipher_connect(path, 30.0)  # no key: reads the plain file
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute("ATTACH DATABASE ? AS encrypted KEY ?", [str(tmp), f"x'{parse_key(key)}'"])
        conn.execute("SELECT sqlcipher_export('encrypted')")
        conn.execute(f"PRAGMA encrypted.user_version = {version}")
        conn.commit()
        conn.execute("DETACH DATABASE encrypted")
        os.chmod(tmp, 0o600)
        copy = open_encrypted(tmp, key, 30.0)
        try:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                 "AND name NOT LIKE 'sqlite_%'")]
            for table in tables:
                quoted = '"' + table.replace('"', '""') + '"'
                a = conn.execute(f"SELECT count(*) FROM {quoted}").fetchone()[0]
                b = copy.execute(f"SELECT count(*) FROM {quoted}").fetchone()[0]
                if a != b:
                    raise EncryptionError(f"the copy of table {table} has {b} rows, not {a}")
        finally:
            copy.close()
    finally:
        conn.close()


def _overwrite(old: Any) -> None:
    """Zero the replaced plain file through the handle still open on it, so its bytes leave the disk blocks it
    had (where the file system overwrites in place), not just the directory."""
    size = os.fstat(old.fileno()).st_size
    old.seek(0)
    block = b"\0" * (1 << 20)
    while size > 0:
        n = min(size, len(block))
        old.write(block[:n])
        size -= n
    old.flush()
    os.fsync(old.fileno())


# -- moving the key --------------------------------------------------------------------------------------------

def export_key(path: Path | str) -> str:
    """The database's key as `key import` reads it (64 hex digits), or EncryptionError (one line)."""
    try:
        key = stored_key(path)
    except NoKeyring as exc:
        raise EncryptionError(f"{path}: no OS keyring to read the key from: {exc}") from None
    if key is None:
        state = file_state(Path(path))
        why = "it is not encrypted" if state != "encrypted" else "it is encrypted with a key this keyring lacks"
        raise EncryptionError(f"{path}: the keyring holds no key for this database ({why})")
    return key


def import_key(path: Path | str, text: str) -> str:
    """Store a key given by `key export` for the database at `path`; refuses (EncryptionError, one line) a key
    that does not open it. For a plain or missing database any key is taken: it is encrypted with it at the next
    start. Returns what happened, for the CLI."""
    path = Path(path)
    try:
        key = parse_key(text)
    except ValueError as exc:
        raise EncryptionError(str(exc)) from None
    state = file_state(path)
    if state == "encrypted":
        if sqlcipher is None:
            raise EncryptionError("SQLCipher is not installed (the sqlcipher3 package)")
        try:
            open_encrypted(path, key, timeout=5.0).close()
        except EncryptionError:
            raise EncryptionError(f"this key does not open {path}") from None
        except sqlcipher.DatabaseError as exc:
            raise EncryptionError(f"{path}: cannot check the key ({one_line(exc)})") from None
    try:
        store_key(path, key)
    except NoKeyring as exc:
        raise EncryptionError(f"no OS keyring to keep the key in: {exc}") from None
    if state == "encrypted":
        return f"key stored in the keyring; it opens {path}"
    return f"key stored in the keyring; {path} is encrypted with it at the next start"
