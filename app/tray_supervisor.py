"""The tray app as a process of its own, supervised by `proactive run`: a crash of the GUI cannot take capture down.

Why a process: Qt and its Python bindings run C++ that can abort the whole process (a binding's reference bug
once freed `None` on every void call; a platform plugin can abort at start). With the tray in the watcher's
process, that took capture and the assistant with it, silently. Here the watcher and the assistant run in
`proactive run`'s process and the tray in a child (`python -m proactive.ui.tray_main`), joined by a socket pair
(`assistant.tray_wire`). When the child dies for any reason but the person's Quit, the cause goes to the log
(its exit status and its last words on stderr, where its `faulthandler` writes a crash's Python stack), and it is
started again after a short delay; after `len(RESTART_DELAYS)` quick deaths in a row it is left stopped, said
once, and capture goes on. `proactive status` shows the tray's state (`control.write_tray_state`).

The child's log lines come over its stderr and are written to this process's log, so one process writes the
log file.
"""

from __future__ import annotations

import collections
import logging
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from proactive.assistant.tray_backend import Backend
from proactive.assistant.tray_wire import Line, serve
from proactive.ui.tray_main import ALREADY_RUNNING, TRAY_PROCESS_ARG
from proactive.watcher import control
from proactive.watcher.privacy.filter import own_process
from proactive.watcher.store import home

log = logging.getLogger(__name__)
child_log = logging.getLogger("proactive.tray")

#: seconds before each restart of a tray that died quickly, in a row; one more quick death leaves it stopped
RESTART_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)
#: a tray that ran this long was healthy: its next death starts the delays again
STEADY_S = 120.0
#: how long a child asked to end (its socket closed) may take before it is killed
END_WAIT_S = 10.0
LEVELS = {"DEBUG": logging.DEBUG, "INFO": logging.INFO, "WARNING": logging.WARNING, "ERROR": logging.ERROR,
          "CRITICAL": logging.CRITICAL}


def tray_command(fd: int, db: str | None, verbose: bool) -> list[str]:
    """The child's command line: this interpreter running the tray's module, or, in a frozen (PyInstaller) app,
    the app itself with the tray's first argument (packaging/pyinstaller_entry.py)."""
    if getattr(sys, "frozen", False):
        command = [sys.executable, TRAY_PROCESS_ARG, "--fd", str(fd)]
    else:
        command = [sys.executable, "-m", "proactive.ui.tray_main", "--fd", str(fd)]
    if db:
        command += ["--db", db]
    return command + (["--verbose"] if verbose else [])


def exit_cause(returncode: int) -> str:
    """An exit status in words: "killed by SIGKILL", "exit status 1"."""
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


def last_words(lines: collections.deque[str]) -> str | None:
    """The line of a dying child's stderr that says why: a fatal error, else a traceback's exception, else the
    last line."""
    text = [line for line in lines if line.strip()]
    for line in text:
        if line.startswith("Fatal Python error"):
            return line
    for i, line in enumerate(text):
        if line.startswith("Traceback (most recent call last)"):
            tail = [t for t in text[i + 1:] if not t.startswith((" ", "\t"))]
            if tail:
                return tail[0]
    return text[-1] if text else None


class TraySupervisor:
    """Starts the tray app's process, serves its requests (`tray_wire.serve`), starts it again when it dies."""

    def __init__(self, backend: Backend, db: str | None, verbose: bool, reload_config: Callable[[], home.Config],
                 env: dict[str, str] | None = None):
        self.backend = backend
        self.db = db
        self.verbose = verbose
        self.reload_config = reload_config
        self.env = env
        self.stopping = threading.Event()
        self.child: subprocess.Popen[str] | None = None
        self.line: Line | None = None
        self.restarts = 0
        self.thread = threading.Thread(target=self._run, name="tray-supervisor", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        """End the tray's process (its socket closes: it quits) and stop supervising; the state file goes."""
        self.stopping.set()
        if self.line is not None:
            self.line.close()
        self.thread.join(timeout=END_WAIT_S + 5)
        control.clear_tray_state()

    def _run(self) -> None:
        quick = 0
        last_stop: str | None = None
        while not self.stopping.is_set():
            started = time.monotonic()
            outcome, returncode, words = self._one_run(last_stop)
            if outcome == "quit":  # the person's Quit: the whole app ends
                self.backend.quit()
                return
            if self.stopping.is_set():
                return
            last_stop = exit_cause(returncode) + (f": {words}" if words else "")
            log.error("the tray app stopped (%s); capture and the assistant go on", last_stop)
            if returncode == ALREADY_RUNNING:  # another tray app owns this home: never started again
                control.write_tray_state("stopped", restarts=self.restarts, last_stop=last_stop)
                return
            quick = 0 if time.monotonic() - started >= STEADY_S else quick + 1
            if quick > len(RESTART_DELAYS):
                log.error("the tray app stopped %d times in a row and is not started again; capture and the "
                          "assistant go on (`proactive decide` answers proposals; `proactive status` shows "
                          "this); restart `proactive run` to bring it back", quick)
                control.write_tray_state("stopped", restarts=self.restarts, last_stop=last_stop)
                return
            control.write_tray_state("restarting", restarts=self.restarts, last_stop=last_stop)
            if self.stopping.wait(RESTART_DELAYS[quick - 1] if quick else RESTART_DELAYS[0]):
                return
            self.restarts += 1
            log.info("starting the tray app again (restart %d)", self.restarts)

    def _one_run(self, last_stop: str | None) -> tuple[str, int, str | None]:
        """Start the child, serve it until it quits or dies; (outcome, its exit status, its last words)."""
        ours, theirs = socket.socketpair()
        tail: collections.deque[str] = collections.deque(maxlen=40)
        try:
            child = subprocess.Popen(tray_command(theirs.fileno(), self.db, self.verbose), pass_fds=[theirs.fileno()],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, errors="replace", env=self.env, start_new_session=True)
        finally:
            theirs.close()
        self.child = child
        own_process(child.pid)  # its windows are ours, not the person's work: the watcher keeps nothing of them
        relay = threading.Thread(target=self._relay, args=(child, tail), name="tray-log", daemon=True)
        relay.start()
        control.write_tray_state("running", child.pid, self.restarts, last_stop)
        self.line = Line(ours)
        if self.stopping.is_set():  # stop() came while the child was starting
            self.line.close()
        try:
            outcome = serve(self.backend, self.line, self.reload_config)
        except (OSError, ValueError):  # the socket closed under the reader (stop)
            outcome = "closed"
        self.line.close()
        try:
            returncode = child.wait(timeout=END_WAIT_S)
        except subprocess.TimeoutExpired:
            log.warning("the tray app did not end within %.0f s of its socket closing: killed", END_WAIT_S)
            child.kill()
            returncode = child.wait()
        relay.join(timeout=5)
        own_process(child.pid, own=False)
        return outcome, returncode, last_words(tail)

    def _relay(self, child: subprocess.Popen[str], tail: collections.deque[str]) -> None:
        """The child's stderr into this process's log: its log lines at their level ("LEVEL name: message"), any
        other output (Qt's warnings, a fatal error and its stack) as warnings; the last lines kept for the cause."""
        assert child.stderr is not None
        for raw in child.stderr:
            line = raw.rstrip("\n")
            tail.append(line)
            level, _, rest = line.partition(" ")
            if level in LEVELS:
                child_log.log(LEVELS[level], "%s", rest)
            elif line.strip():
                child_log.warning("%s", line)


def supervised(backend: Backend, db: str | None, verbose: bool,
               reload_config: Callable[[], home.Config]) -> TraySupervisor:
    """A started supervisor of the tray app for this run."""
    supervisor = TraySupervisor(backend, db, verbose, reload_config)
    supervisor.start()
    return supervisor

