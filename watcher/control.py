"""Controlling a running watcher from outside: the pid file (one watcher per home) and pause/resume.

Pause state lives in a small file so it survives restarts and so `proactive pause` works whether or not a
watcher runs; the command also signals the running watcher (SIGUSR1 = pause, SIGUSR2 = resume) and waits until
the watcher acknowledges it (`pause.ack` holds the id of the pause it applied), so nothing typed after the command
returns is kept. The same signals sent by hand (`kill -USR1 PID`) pause (until resumed, unless a timed pause is
already set) and resume too. A pause file that cannot be read as a pause fails closed: capture stays paused, said
once in the log.
"""

from __future__ import annotations

import fcntl
import json
import logging
import math
import os
import signal
import time
import uuid
from pathlib import Path
from typing import IO

from . import home

log = logging.getLogger(__name__)

PAUSE_SIGNAL = signal.SIGUSR1
RESUME_SIGNAL = signal.SIGUSR2


def pid_path() -> Path:
    return home.home() / "watcher.pid"


def pause_path() -> Path:
    return home.home() / "paused.json"


def ack_path() -> Path:
    return home.home() / "pause.ack"


class AlreadyRunning(RuntimeError):
    pass


class PidLock:
    """Holds an exclusive lock on a pid file while the watcher runs (released by the OS if it is killed). By
    default the home's `watcher.pid`: one watcher per home. The file stays after release: unlinking a lock file
    races with the next process locking it."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or pid_path()
        self.file: IO[str] | None = None

    def busy(self, other: str) -> str:
        return f"a watcher is already running for {home.home()} (pid {other or '?'})"

    def acquire(self) -> None:
        f = open(self.path, "a+")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            f.seek(0)
            other = f.read().strip()
            f.close()
            raise AlreadyRunning(self.busy(other)) from exc
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self.file = f

    def release(self) -> None:
        if self.file is not None:
            self.file.seek(0)
            self.file.truncate()
            self.file.close()
            self.file = None


class DatabaseLock(PidLock):
    """One watcher per database, whatever its home: two homes given the same `--db` would store every event
    twice. The lock is `<db>.lock`."""

    def __init__(self, db: Path):
        self.db = db
        super().__init__(Path(str(db) + ".lock"))

    def busy(self, other: str) -> str:
        return f"another watcher (pid {other or '?'}) already captures into {self.db}: stop it, or give this " \
               "one another --db"


def running_pid() -> int | None:
    """The pid of the watcher holding the lock, or None."""
    path = pid_path()
    if not path.exists():
        return None
    with open(path) as f:
        try:
            fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            text = f.read().strip()
            return int(text) if text.isdigit() else None
        fcntl.flock(f, fcntl.LOCK_UN)
    return None


_warned: set[str] = set()  # malformed pause files already reported (one log line each)


def _pause_state() -> tuple[float | None, str]:
    """(when the pause ends, math.inf: until resumed, or None: capturing; the pause's id)."""
    path = pause_path()
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None, ""
    except (OSError, UnicodeDecodeError) as exc:
        return _malformed(path, f"unreadable ({getattr(exc, 'strerror', None) or exc.reason})"), ""
    try:
        data = json.loads(text)
        until = data["until"]
        pause_id = str(data.get("id", ""))
        if until is None:
            return math.inf, pause_id
        if isinstance(until, bool) or not isinstance(until, int | float) or not math.isfinite(until):
            raise TypeError
    except (ValueError, KeyError, TypeError, AttributeError):
        return _malformed(path, "not a pause written by proactive"), ""
    return (float(until) if until > time.time() else None), pause_id


def _malformed(path: Path, why: str) -> float:
    if why not in _warned:
        _warned.add(why)
        log.warning("%s is %s: capture stays paused until `proactive resume`", path, why)
    return math.inf


def read_pause() -> float | None:
    """When the pause ends (math.inf: until resumed), or None when capturing. Fails closed (paused)."""
    return _pause_state()[0]


def write_pause(until: float) -> str:
    """Record a pause; returns its id, which the watcher acknowledges once it has applied it."""
    pause_id = uuid.uuid4().hex
    tmp = pause_path().with_suffix(".tmp")
    tmp.write_text(json.dumps({"until": None if math.isinf(until) else until, "since": time.time(),
                               "id": pause_id}))
    tmp.replace(pause_path())  # atomic: a watcher never reads half a pause
    return pause_id


def acknowledge_pause() -> None:
    """Called by the watcher once the pause state in the file is applied (typed text flushed, capture stopped)."""
    until, pause_id = _pause_state()
    ack_path().write_text(pause_id if until is not None else "")


def wait_acknowledged(pause_id: str, timeout: float = 5.0) -> bool:
    """True once the running watcher has applied pause `pause_id`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if ack_path().read_text().strip() == pause_id:
                return True
        except FileNotFoundError:
            pass
        time.sleep(0.02)
    return False


def clear_pause() -> None:
    pause_path().unlink(missing_ok=True)


# -- purge requests ----------------------------------------------------------------------------------------------
# `proactive purge` (and the tray's privacy view) write a request; the watcher picks it up at its next flush (every
# half second), drops what it holds in memory, purges every copy and answers with its report.


def purge_request_path() -> Path:
    return home.home() / "purge.request"


def purge_answer_path() -> Path:
    return home.home() / "purge.answer"


def request_purge(before: float | None, db: Path) -> str:
    """Ask the running watcher to purge `db` before `before` (everything when None); returns the request's id."""
    request_id = uuid.uuid4().hex
    purge_answer_path().unlink(missing_ok=True)
    tmp = purge_request_path().with_suffix(".tmp")
    tmp.write_text(json.dumps({"id": request_id, "before": before, "db": str(Path(db).resolve())}))
    tmp.replace(purge_request_path())
    return request_id


def pending_purge() -> dict | None:
    """The purge request waiting for this home's watcher, or None. A request that cannot be read is answered
    with an error by the caller (its id is unknown, so it is removed and logged)."""
    path = purge_request_path()
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise ValueError
        before = data.get("before")
        if before is not None and (isinstance(before, bool) or not isinstance(before, int | float)
                                   or not math.isfinite(before)):
            raise ValueError
        return data
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        log.warning("%s is not a purge request written by proactive: removed", path)
        path.unlink(missing_ok=True)
        return None


def answer_purge(request_id: str, answer: dict) -> None:
    """The watcher's answer: {"applied": true, "report": {...}}, {"applied": false} (another database) or
    {"error": "one line"}."""
    tmp = purge_answer_path().with_suffix(".tmp")
    tmp.write_text(json.dumps(dict(answer, id=request_id)))
    tmp.replace(purge_answer_path())
    purge_request_path().unlink(missing_ok=True)


def wait_purged(request_id: str, timeout: float) -> dict | None:
    """The watcher's answer to request `request_id`, or None after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            answer = json.loads(purge_answer_path().read_text())
            if answer.get("id") == request_id:
                purge_answer_path().unlink(missing_ok=True)
                return answer
        except (FileNotFoundError, ValueError):
            pass
        time.sleep(0.05)
    return None


def cancel_purge(request_id: str) -> None:
    """Withdraw a request nobody answered (so a watcher started later does not apply a purge nobody awaits)."""
    try:
        if json.loads(purge_request_path().read_text()).get("id") == request_id:
            purge_request_path().unlink(missing_ok=True)
    except (OSError, ValueError):
        pass


def signal_watcher(sig: signal.Signals) -> int | None:
    """Send `sig` to the running watcher; returns its pid, or None when none runs."""
    pid = running_pid()
    if pid is not None:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return None
    return pid
