"""Controlling a running watcher from outside: the pid file (one watcher per home) and pause/resume.

Pause state lives in a small file so it survives restarts and so `proactive pause` works whether or not a
watcher runs; the command also signals the running watcher (SIGUSR1 = pause, SIGUSR2 = resume) so the change
takes effect at once. The same signals sent by hand (`kill -USR1 PID`) pause and resume too.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import signal
import time
from pathlib import Path
from typing import IO

from . import home

PAUSE_SIGNAL = signal.SIGUSR1
RESUME_SIGNAL = signal.SIGUSR2


def pid_path() -> Path:
    return home.home() / "watcher.pid"


def pause_path() -> Path:
    return home.home() / "paused.json"


class AlreadyRunning(RuntimeError):
    pass


class PidLock:
    """Holds an exclusive lock on the pid file while the watcher runs (released by the OS if it is killed)."""

    def __init__(self) -> None:
        self.file: IO[str] | None = None

    def acquire(self) -> None:
        f = open(pid_path(), "a+")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            f.seek(0)
            other = f.read().strip()
            f.close()
            raise AlreadyRunning(f"a watcher is already running for {home.home()} (pid {other or '?'})") from exc
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


def read_pause() -> float | None:
    """When the pause ends (math.inf: until resumed), or None when capturing."""
    path = pause_path()
    if not path.exists():
        return None
    try:
        until = json.loads(path.read_text()).get("until")
    except (ValueError, AttributeError):
        return math.inf  # unreadable pause file: stay paused (fail closed)
    if until is None:
        return math.inf
    return float(until) if float(until) > time.time() else None


def write_pause(until: float) -> None:
    pause_path().write_text(json.dumps({"until": None if math.isinf(until) else until, "since": time.time()}))


def clear_pause() -> None:
    pause_path().unlink(missing_ok=True)


def signal_watcher(sig: signal.Signals) -> int | None:
    """Send `sig` to the running watcher; returns its pid, or None when none runs."""
    pid = running_pid()
    if pid is not None:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return None
    return pid
