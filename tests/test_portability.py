"""Runs where Python runs: no module needs a POSIX-only module or signal when it is imported, outside code guarded
by the platform, so the CLI starts on Windows and macOS too.

1. For real, in a subprocess that looks like Windows as far as imports go: the POSIX-only modules (fcntl, termios,
   pwd, resource...) are blocked (None in sys.modules, so importing them raises ImportError) and the POSIX-only
   signals (SIGUSR1, SIGHUP, SIGCHLD...) and signal functions (alarm, setitimer...) are deleted from `signal`.
   Then every module of proactive.* is imported, `--help` is asked of every command, and `pause`, `status` and
   `resume` run against a private home.
2. Statically: no module-level `import fcntl` (or any POSIX-only module) and no module-level `signal.SIGUSR1`
   (or any POSIX-only signal) outside an `if sys.platform ...` / `if os.name ...` block or a `try`.
3. Pause and resume reach a running watcher without signals: `proactive pause` in a process without SIGUSR1 is
   acknowledged by the watcher, which reads the pause file at its next flush.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from .conftest import ROOT, WatcherProcess
from .xsession import wait_for

PACKAGES = [importlib.import_module(f"proactive.{name}") for name in ("watcher", "assistant", "models", "eval", "ui", "app")]

#: Modules Python has on POSIX systems only (not `posix` itself: on Linux `os` is built on it).
POSIX_MODULES = ["fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "syslog", "crypt", "nis", "spwd",
                 "readline", "posix_ipc", "_posixshmem"]

#: What `signal` has on Windows: every other SIG* name is POSIX-only.
WINDOWS_SIGNALS = {"SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM", "SIGBREAK", "SIG_DFL", "SIG_IGN",
                   "CTRL_C_EVENT", "CTRL_BREAK_EVENT"}
POSIX_SIGNAL_FUNCTIONS = ["alarm", "pause", "setitimer", "getitimer", "siginterrupt", "sigpending", "sigwait",
                          "sigwaitinfo", "sigtimedwait", "pthread_kill", "pthread_sigmask", "ITIMER_REAL",
                          "ITIMER_VIRTUAL", "ITIMER_PROF", "ItimerError"]


def bootstrap(block_modules: bool = True) -> str:
    """Python source that makes this process look like Windows to imports: run before anything of ours."""
    return textwrap.dedent(f"""
        import signal, sys
        for name in {POSIX_MODULES!r} if {block_modules!r} else []:
            sys.modules[name] = None  # `import name` now raises ImportError
        for name in list(vars(signal)):
            if name.startswith("SIG") and name not in {sorted(WINDOWS_SIGNALS)!r}:
                delattr(signal, name)
        for name in {POSIX_SIGNAL_FUNCTIONS!r}:
            if hasattr(signal, name):
                delattr(signal, name)
    """)


CHILD = """
import importlib, json, os, pkgutil, sys, traceback

import click
from click.testing import CliRunner

report = {"import_errors": {}, "help": {}, "runs": {}}
for package in ("watcher", "assistant", "models", "eval", "ui", "app"):
    root = importlib.import_module("proactive." + package)
    for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
        try:
            importlib.import_module(info.name)
        except BaseException:
            report["import_errors"][info.name] = traceback.format_exc(limit=-3)

from proactive.app.cli import cli

def commands(group, path):
    yield path
    if isinstance(group, click.Group):
        for name, command in sorted(group.commands.items()):
            yield from commands(command, [*path, name])

runner = CliRunner()
for path in commands(cli, []):
    result = runner.invoke(cli, [*path, "--help"], prog_name="proactive")
    error = "".join(traceback.format_exception(*result.exc_info)) if result.exception else ""
    report["help"][" ".join(path) or "(proactive)"] = [result.exit_code, result.output[:200], error[-1500:]]
for args in (["pause", "--for", "10m"], ["status"], ["resume"], ["status"]):
    result = runner.invoke(cli, args, prog_name="proactive")
    error = "".join(traceback.format_exception(*result.exc_info)) if result.exception and not isinstance(
        result.exception, SystemExit) else ""
    report["runs"][" ".join(args) + f" #{len(report['runs'])}"] = [result.exit_code, result.output, error[-1500:]]
print(json.dumps(report))
"""


def run_child(home: Path, code: str) -> dict:
    env = dict(os.environ, PROACTIVE_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    env.pop("DISPLAY", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_every_module_and_command_without_posix_modules_or_signals(proactive_home: Path):
    report = run_child(proactive_home, bootstrap() + CHILD)
    assert report["import_errors"] == {}, "\n".join(report["import_errors"].values())
    helps = report["help"]
    assert len(helps) > 20 and "pause" in helps and "(proactive)" in helps  # every command was reached
    for command, (code, output, error) in helps.items():
        assert code == 0 and not error, f"proactive {command} --help: exit {code}\n{output}\n{error}"
        assert "Usage: proactive" in output, command
    runs = list(report["runs"].values())
    assert [code for code, _, _ in runs] == [0, 0, 0, 0], runs
    assert all(not error for _, _, error in runs), runs
    assert runs[0][1].startswith("capture paused until ") and "no watcher running now" in runs[0][1]
    assert "watcher: not running" in runs[1][1] and "capture: off (no watcher running" in runs[1][1]
    assert "; paused until" in runs[1][1] and "once one starts" in runs[1][1]
    assert "capture: off (no watcher running" in runs[3][1] and "paused" not in runs[3][1]


def test_the_simulation_really_blocks():
    """The bootstrap does what it says: a module that imports fcntl or reads SIGUSR1 at import fails under it."""
    code = bootstrap() + textwrap.dedent("""
        import signal
        failures = []
        for source in ("import fcntl", "import pwd", "import resource", "signal.SIGUSR1", "signal.SIGHUP",
                       "signal.alarm"):
            try:
                exec(source)
            except (ImportError, AttributeError):
                failures.append(source)
        assert getattr(signal, "SIGUSR1", None) is None and signal.SIGTERM and signal.SIGINT
        import os, subprocess, json
        print(json.dumps(failures))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)) == 6


# -- static check --------------------------------------------------------------------------------------------

POSIX_SIGNALS = {"SIGUSR1", "SIGUSR2", "SIGHUP", "SIGQUIT", "SIGCHLD", "SIGALRM", "SIGPIPE", "SIGKILL", "SIGSTOP",
                 "SIGCONT", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGWINCH", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPOLL",
                 "SIGSYS", "SIGTRAP", "SIGBUS", "SIGXCPU", "SIGXFSZ", "SIGURG", "SIGPWR", "SIGRTMIN", "SIGRTMAX"}


def _guarded(test: ast.expr) -> bool:
    """An `if` that asks which platform this is."""
    text = ast.unparse(test)
    return any(word in text for word in ("sys.platform", "os.name", "platform.system", "TYPE_CHECKING"))


class ImportTimeUse(ast.NodeVisitor):
    """POSIX-only modules imported and POSIX-only signals read when the module is imported: at module or class
    level, outside platform checks and try blocks (function bodies run later, when the caller chose to)."""

    def __init__(self) -> None:
        self.found: list[tuple[int, str]] = []

    def visit_FunctionDef(self, node: ast.AST) -> None:  # noqa: N802
        for decorator in getattr(node, "decorator_list", []):  # decorators run at import
            self.visit(decorator)

    visit_AsyncFunctionDef = visit_FunctionDef  # noqa: N815

    def visit_Lambda(self, node: ast.Lambda) -> None:  # noqa: N802
        pass

    def visit_If(self, node: ast.If) -> None:  # noqa: N802
        if not _guarded(node.test):
            self.generic_visit(node)

    def visit_Try(self, node: ast.Try) -> None:  # noqa: N802
        for statement in node.finalbody:
            self.visit(statement)

    def visit_Import(self, node: ast.Import) -> None:  # noqa: N802
        for alias in node.names:
            if alias.name.split(".")[0] in POSIX_MODULES:
                self.found.append((node.lineno, f"import {alias.name}"))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:  # noqa: N802
        module = (node.module or "").split(".")[0]
        if node.level == 0 and module in POSIX_MODULES:
            self.found.append((node.lineno, f"from {node.module} import ..."))
        if node.level == 0 and module == "signal":
            self.found += [(node.lineno, f"from signal import {a.name}") for a in node.names if a.name in POSIX_SIGNALS]

    def visit_Attribute(self, node: ast.Attribute) -> None:  # noqa: N802
        if node.attr in POSIX_SIGNALS:
            self.found.append((node.lineno, ast.unparse(node)))
        self.generic_visit(node)


def import_time_uses(source: str) -> list[tuple[int, str]]:
    visitor = ImportTimeUse()
    visitor.visit(ast.parse(source))
    return visitor.found


def test_no_import_time_posix_only_use_in_the_source():
    files = [p for package in PACKAGES for folder in package.__path__ for p in sorted(Path(folder).rglob("*.py"))]
    assert len(files) > 40
    found = {f"{path}:{line}": what for path in files for line, what in import_time_uses(path.read_text())}
    assert found == {}


def test_the_static_check_finds_what_it_looks_for():
    bad = "import fcntl\nimport signal\nPAUSE = signal.SIGUSR1\nclass A:\n    hup = signal.SIGHUP\n" \
          "from pwd import getpwnam\n"
    assert [line for line, _ in import_time_uses(bad)] == [1, 3, 5, 6]
    fine = ("import sys, signal\nif sys.platform != 'win32':\n    import fcntl\ntry:\n    import termios\n"
            "except ImportError:\n    termios = None\nPAUSE = getattr(signal, 'SIGUSR1', None)\n"
            "def f():\n    import pwd\n    return signal.SIGHUP\n")
    assert import_time_uses(fine) == []


# -- pause without signals -----------------------------------------------------------------------------------

def test_pause_reaches_a_running_watcher_without_signals(proactive_home: Path):
    """`proactive pause` where SIGUSR1 does not exist: the watcher sees the pause file at its next flush and
    acknowledges it before the command returns; `resume` likewise (the capture state is in the database)."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    watcher_proc = WatcherProcess(proactive_home, env)
    no_signals = bootstrap(block_modules=False) + "from proactive.app.cli import main\nmain()\n"
    try:
        started = time.monotonic()
        out = subprocess.run([sys.executable, "-c", no_signals, "pause"], env=watcher_proc.env, cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "capture paused until resumed", out.stdout  # a watcher confirmed it
        assert time.monotonic() - started < 5
        ack = (proactive_home / "pause.ack").read_text()
        assert ack and ack == json.loads((proactive_home / "paused.json").read_text())["id"]
        out = subprocess.run([sys.executable, "-c", no_signals, "resume"], env=watcher_proc.env, cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and out.stdout.strip() == "capture resumed", out.stdout + out.stderr
        wait_for(lambda: (proactive_home / "pause.ack").read_text() == "", timeout=5, what="the resume")
    finally:
        code, err = watcher_proc.stop()
    assert code == 0, err


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT"])
def test_a_watcher_without_posix_signals_stops_on_sigterm_and_sigint(proactive_home: Path, how: str):
    """install_handlers where SIGHUP and SIGUSR1/2 do not exist: the missing ones are skipped, the watcher starts,
    and SIGTERM / SIGINT still stop it with exit 0."""
    import signal

    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    code = bootstrap(block_modules=False) + "from proactive.app.cli import main\nmain()\n"
    proc = subprocess.Popen([sys.executable, "-c", code, "watch", "--no-aw"], cwd=ROOT, text=True,
                            env=dict(env, PROACTIVE_HOME=str(proactive_home)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        log = proactive_home / "logs" / "proactive.log"
        wait_for(lambda: (log.exists() and "watcher started" in log.read_text()) or proc.poll() is not None,
                 timeout=30, what="watcher start")
        assert proc.poll() is None, proc.communicate()[1]
        proc.send_signal(getattr(signal, how))
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
