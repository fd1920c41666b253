"""Controlling a running watcher from outside: the lock (one watcher per home), pause/resume, purge and flush
requests.

Pause state lives in a small file so it survives restarts and so `proactive pause` works whether or not a
watcher runs. The running watcher reads that file at each flush (every half second), so the command works
wherever Python runs; where POSIX signals exist it also signals the watcher (SIGUSR1 = pause, SIGUSR2 = resume),
which applies the pause at once. Either way the command waits until the watcher acknowledges it (`pause.ack`
holds the id of the pause it applied), so nothing typed after the command returns is kept. The same signals sent
by hand (`kill -USR1 PID`) pause (until resumed, unless a timed pause is already set) and resume too. A pause file
that cannot be read as a pause fails closed: capture stays paused, said once in the log.

Nothing here needs a POSIX-only module: the locks are `filelock`'s (flock on POSIX, LockFileEx on Windows) and
the signals that only some systems have are looked up with getattr.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import signal
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from filelock import FileLock, Timeout

from proactive.watcher.store import home

log = logging.getLogger(__name__)
logging.getLogger("filelock").setLevel(logging.WARNING)  # its debug lines (every probe) would flood `-v`

#: None where the signal does not exist (Windows): the watcher then sees the pause file at its next flush.
PAUSE_SIGNAL: signal.Signals | None = getattr(signal, "SIGUSR1", None)
RESUME_SIGNAL: signal.Signals | None = getattr(signal, "SIGUSR2", None)

#: How long a start waits for a lock someone holds for a moment (a `status` or `pause` checking it), and how long
#: a check waits before it concludes the holder is a watcher. Exclusive locks only (Windows has no shared ones):
#: a check holds the lock for microseconds, a watcher for its whole life, so a short wait tells them apart.
START_WAIT = 0.5
PROBE_WAIT = 0.15


# The pid and lock are in the runtime folder (they mean nothing after a reboot); the pause and purge files in the
# state folder, which the watcher watches (watcher.home.Places says why).


def pid_path() -> Path:
    return home.runtime_dir() / "watcher.pid"


def lock_path() -> Path:
    return home.runtime_dir() / "watcher.lock"


def pause_path() -> Path:
    return home.state_dir() / "paused.json"


def ack_path() -> Path:
    return home.state_dir() / "pause.ack"


class AlreadyRunning(RuntimeError):
    pass


class PidLock:
    """Holds an exclusive lock while the watcher runs (released by the OS if it is killed), and its pid in a file
    beside it. By default the home's `watcher.lock` and `watcher.pid`: one watcher per home. The pid has a file of
    its own because Windows forbids reading a locked file's bytes. The lock file stays after release on POSIX:
    unlinking a lock file races with the next process locking it."""

    def __init__(self, path: Path | None = None, pid_file: Path | None = None) -> None:
        self.path = path or lock_path()
        self.pid_file = pid_file or (pid_path() if path is None else Path(str(self.path) + ".pid"))
        self.lock: FileLock | None = None

    def busy(self, other: str) -> str:
        return f"a watcher is already running for {home.data_dir()} (pid {other or '?'})"

    def acquire(self) -> None:
        lock = FileLock(str(self.path), thread_local=False)
        try:
            lock.acquire(timeout=START_WAIT, poll_interval=0.02)
        except Timeout as exc:
            raise AlreadyRunning(self.busy(_read_pid(self.pid_file))) from exc
        self.lock = lock
        self.pid_file.write_text(str(os.getpid()))

    def release(self) -> None:
        if self.lock is not None:
            self.pid_file.unlink(missing_ok=True)
            self.lock.release()
            self.lock = None


class DatabaseLock(PidLock):
    """One watcher per database, whatever its home: two homes given the same `--db` would store every event
    twice. The lock is `<db>.lock`, the holder's pid in `<db>.pid`."""

    def __init__(self, db: Path):
        self.db = db
        super().__init__(Path(str(db) + ".lock"), Path(str(db) + ".pid"))

    def busy(self, other: str) -> str:
        return f"another watcher (pid {other or '?'}) already captures into {self.db}: stop it, or give this " \
               "one another --db"


def _read_pid(path: Path) -> str:
    try:
        return path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return ""


def holder(lock: Path, pid_file: Path) -> str | None:
    """None when nobody holds `lock`; else the holder's pid as written in `pid_file` ("" when unknown)."""
    if not lock.exists():  # checking never creates lock files
        return None
    probe = FileLock(str(lock), thread_local=False)
    try:
        probe.acquire(timeout=PROBE_WAIT, poll_interval=0.01)
    except Timeout:
        pid = _read_pid(pid_file)
        deadline = time.monotonic() + 0.5
        while not pid.isdigit() and time.monotonic() < deadline:  # a watcher that has just started writes it
            time.sleep(0.02)
            pid = _read_pid(pid_file)
        return pid
    probe.release()
    return None


def running_pid() -> int | None:
    """The pid of the watcher holding this home's lock, or None."""
    pid = holder(lock_path(), pid_path())
    return int(pid) if pid and pid.isdigit() else None


def database_held(db: Path) -> bool:
    """A watcher (of any home) holds the database's lock `<db>.lock`."""
    return holder(Path(str(db) + ".lock"), Path(str(db) + ".pid")) is not None


def install_handlers(stop: Callable[[], object], pause: Callable[[], object] | None = None,
                     resume: Callable[[], object] | None = None,
                     hangup: Callable[[], object] | None = None) -> list[signal.Signals]:
    """This process's signal handlers, on any system: SIGINT and SIGTERM (and Windows' SIGBREAK, Ctrl+Break) call
    `stop`; SIGHUP (the terminal was closed) `hangup`, or `stop`; SIGUSR1 `pause` and SIGUSR2 `resume`. Signals
    this system lacks are skipped (pause and resume then reach the watcher through the pause file). Returns the
    signals handled. Call from the main thread; keep the callbacks short (they run between bytecodes)."""
    wanted: list[tuple[str, Callable[[], object] | None]] = [
        ("SIGINT", stop), ("SIGTERM", stop), ("SIGBREAK", stop), ("SIGHUP", hangup or stop),
        ("SIGUSR1", pause), ("SIGUSR2", resume)]
    installed = []
    for name, callback in wanted:
        sig = getattr(signal, name, None)
        if sig is None or callback is None:
            continue
        def handler(_signum: int, _frame: FrameType | None, callback: Callable[[], object] = callback) -> None:
            callback()

        signal.signal(sig, handler)
        installed.append(sig)
    return installed


_warned: set[str] = set()  # malformed pause files already reported (one log line each)


def _pause_state() -> tuple[float | None, str]:
    """(when the pause ends, math.inf: until resumed, or None: capturing; the pause's id)."""
    path = pause_path()
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None, ""
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.reason if isinstance(exc, UnicodeDecodeError) else exc.strerror or exc
        return _malformed(path, f"unreadable ({why})"), ""
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


def _replace(path: Path, data: dict) -> None:
    """Write `data` as JSON to `path` through a new file renamed over it: a reader never sees half of it. The new
    file's name is this write's own: a request and its answer (flush.request, flush.answer) written at once by
    two processes each rename their own file (a shared `flush.tmp` gave one's text the other's name)."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)


def write_pause(until: float) -> str:
    """Record a pause; returns its id, which the watcher acknowledges once it has applied it."""
    pause_id = uuid.uuid4().hex
    _replace(pause_path(), {"until": None if math.isinf(until) else until, "since": time.time(), "id": pause_id})
    return pause_id


def pause_state() -> tuple[float | None, str]:
    """(when the pause ends: math.inf until resumed, None when capturing; the pause's id). Fails closed."""
    return _pause_state()


def acknowledge_pause(state: tuple[float | None, str] | None = None) -> None:
    """Called by the watcher once the pause state in the file (or `state`, the one it read and applied) is
    applied (typed text flushed, capture stopped)."""
    until, pause_id = state if state is not None else _pause_state()
    ack_path().write_text(pause_id if until is not None else "")


def wait_acknowledged(pause_id: str, timeout: float = 5.0) -> bool:
    """True once the running watcher has applied pause `pause_id`."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(FileNotFoundError):
            if ack_path().read_text().strip() == pause_id:
                return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def clear_pause() -> None:
    pause_path().unlink(missing_ok=True)


# -- purge requests ----------------------------------------------------------------------------------------------
# `proactive purge` (and the tray's privacy view) write a request; the watcher picks it up at its next flush (every
# half second), drops what it holds in memory, purges every copy and answers with its report.


def purge_request_path() -> Path:
    return home.state_dir() / "purge.request"


def purge_answer_path() -> Path:
    return home.state_dir() / "purge.answer"


def request_purge(before: float | None, db: Path, wait: float | None = None) -> str:
    """Ask the running watcher to purge `db` before `before` (everything when None); returns the request's id.
    `wait` is the command's --wait: the request carries its deadline (epoch s), so the watcher waits for readers
    of the database only as long as the command waits for the answer (None: the watcher's own default)."""
    request_id = uuid.uuid4().hex
    purge_answer_path().unlink(missing_ok=True)
    deadline = None if wait is None else time.time() + wait
    _replace(purge_request_path(), {"id": request_id, "before": before, "db": str(Path(db).resolve()),
                                    "deadline": deadline})
    return request_id


def pending_purge() -> dict | None:
    """The purge request waiting for this home's watcher, or None. A request that cannot be read is answered
    with an error by the caller (its id is unknown, so it is removed and logged)."""
    path = purge_request_path()
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise ValueError
        for key in ("before", "deadline"):
            value = data.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                      or not math.isfinite(value)):
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
    _replace(purge_answer_path(), dict(answer, id=request_id))
    purge_request_path().unlink(missing_ok=True)


def reader_wait(request: dict) -> float | None:
    """Seconds the watcher may wait for readers of the database while it applies `request`: what is left of the
    command's --wait (at least a moment, so a checkpoint is tried at all), or None (the store's default) for a
    request without a deadline."""
    deadline = request.get("deadline")
    return None if deadline is None else max(0.1, deadline - time.time())


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


# -- flush requests ----------------------------------------------------------------------------------------------
# A reader of the database while a watcher runs (`proactive episodes`, a test) asks it to write what it has taken:
# the watcher reads what the X server has already sent it (`Watcher._catch_up`), commits its batch, then answers.
# What the composer still holds (a line being typed) is not yet an event, and stays. Each request is a file of its
# own (`flush-ID.request`, answered by `flush-ID.answer`), so readers asking at once are each answered, and taking
# a request (removing it) never removes another's.


def _flush_path(request_id: str, kind: str) -> Path:
    return home.state_dir() / f"flush-{request_id}.{kind}"


def request_flush() -> str:
    """Ask the running watcher to write what it has taken; returns the request's id (see `wait_flushed`)."""
    request_id = uuid.uuid4().hex
    _replace(_flush_path(request_id, "request"), {})
    return request_id


def take_flush_requests() -> list[str]:
    """The ids of the flush requests waiting for this home's watcher, taken (their files removed)."""
    taken = []
    for path in home.state_dir().glob("flush-*.request"):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            taken.append(path.name.removeprefix("flush-").removesuffix(".request"))
    return taken


def answer_flush(request_ids: list[str]) -> None:
    """The watcher's answer: everything it had taken when it took these requests is in the database."""
    for request_id in request_ids:
        _replace(_flush_path(request_id, "answer"), {})


def wait_flushed(request_id: str, timeout: float) -> bool:
    """True once the watcher has answered flush request `request_id`; False after `timeout` seconds (no watcher,
    or one that is stopped or cannot write: the request is withdrawn)."""
    answer = _flush_path(request_id, "answer")
    deadline = time.monotonic() + timeout
    while not answer.exists():
        if time.monotonic() >= deadline:
            _flush_path(request_id, "request").unlink(missing_ok=True)
            return False
        time.sleep(0.02)
    answer.unlink(missing_ok=True)
    return True


def flush_running_watcher(timeout: float) -> bool:
    """Ask the running watcher (if any) to write what it has taken and wait for it, at most `timeout` seconds;
    True when it answered. No watcher: False at once."""
    if running_pid() is None:
        return False
    return wait_flushed(request_flush(), timeout)


def signal_watcher(sig: signal.Signals | None) -> int | None:
    """Send `sig` to the running watcher (None, a signal this system lacks: nothing is sent, the watcher reads
    the pause file at its next flush); returns its pid, or None when none runs."""
    pid = running_pid()
    if pid is not None and sig is not None:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return None
    return pid


#: the pause, purge and flush files are read at least this often, changed folder or not
CONTROL_RECHECK_SECONDS = 2.0


class RequestWatch:
    """Whether the running watcher should read the control files at this flush: their folder (the state folder,
    which holds nothing else the watcher writes: watcher.home.Places) changed (every request is written by renaming
    a new file into it), a timed pause is due to end, or CONTROL_RECHECK_SECONDS passed (a change within the file
    system's timestamp granularity). Why: reading them every half second cost about as much as the rest of a
    flush. The folder is looked at before the files are read, so a change made after the reading changes what the
    next look sees."""

    def __init__(self) -> None:
        self.folder = home.state_dir()
        self._seen: tuple[int | None, float] = (None, 0.0)  # the folder's mtime, when to read anyway

    def changed(self, pause_until: float | None) -> bool:
        """`pause_until`: the end of the pause applied now (None: not paused)."""
        try:
            stamp: int | None = os.stat(self.folder).st_mtime_ns
        except OSError:
            stamp = None
        now, (seen, recheck) = time.monotonic(), self._seen
        if stamp == seen and now < recheck and not (pause_until is not None and time.time() >= pause_until):
            return False
        self._seen = (stamp, now + CONTROL_RECHECK_SECONDS)
        return True


# -- the tray app's state, as the running app supervises it (app/tray_supervisor.py), for `proactive status` ----


def tray_state_path() -> Path:
    return home.runtime_dir() / "tray.json"


def write_tray_state(state: str, pid: int | None = None, restarts: int = 0, last_stop: str | None = None) -> None:
    """The tray app's state: "running" (its pid), "restarting" or "stopped" (it will not be started again this
    run), how often it was restarted and why it last stopped."""
    _replace(tray_state_path(), {"state": state, "pid": pid, "restarts": restarts, "last_stop": last_stop,
                                 "since": time.time()})


def read_tray_state() -> dict | None:
    """What `write_tray_state` wrote, or None (no tray app supervised: headless, `watch`, or nothing running)."""
    try:
        data = json.loads(tray_state_path().read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def clear_tray_state() -> None:
    with contextlib.suppress(OSError):
        tray_state_path().unlink()
