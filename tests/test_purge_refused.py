"""A purge the running watcher cannot apply (another program holds the database, so its bytes cannot be
overwritten) is one line in the watcher's log and on its stderr, at WARNING, without a traceback (kept for
`--verbose`, at DEBUG); the `purge` command says the same in its own one line."""

from __future__ import annotations

import os
import time
from pathlib import Path

from .conftest import WatcherProcess, run_cli
from .test_purge import CANARY, hold_read_transaction, store_canaries


def refused_purge(home: Path, *args: str) -> tuple[int, str, str]:
    """`proactive watch ARGS` (no display: no sources) while another program reads the database; `purge --all`
    with --wait 1. Returns the reader's pid, the watcher's stderr, and its log."""
    (home / "config.toml").write_text("activitywatch = false\n")
    store_canaries(time.time())
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    watcher = WatcherProcess(home, env, args=("--no-aw", *args))
    try:
        reader = hold_read_transaction(home / "proactive.db")
        try:
            out = run_cli("purge", "--all", "--yes", "--wait", "1", env=dict(env, PROACTIVE_HOME=str(home)))
        finally:
            reader.communicate("")
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert out.returncode == 2, (out.stdout, out.stderr)
    [line] = out.stderr.strip().splitlines()
    assert f"pid {reader.pid} (" in line and "proactive.db" in line, line
    return reader.pid, err, (home / "logs" / "proactive.log").read_text()


def test_a_refused_purge_is_one_warning_line_in_the_watcher(proactive_home: Path):
    pid, err, log = refused_purge(proactive_home)
    assert all(line.startswith("proactive: ") for line in err.splitlines()), err  # one line per message
    said = [line for line in err.splitlines() if "purge refused" in line or "purge failed" in line]
    assert len(said) == 1 and said[0].startswith("proactive: WARNING: purge refused: "), err
    assert f"pid {pid} (" in said[0] and "proactive.db" in said[0], said
    assert "Traceback" not in err and "Traceback" not in log, err + log
    logged = [line for line in log.splitlines() if "purge refused" in line]
    assert len(logged) == 1 and " WARNING proactive.watcher.pipeline: purge refused: " in logged[0], log
    assert CANARY not in err + log


def test_a_refused_purge_keeps_its_traceback_for_verbose(proactive_home: Path):
    _, err, _ = refused_purge(proactive_home, "--verbose")
    assert "proactive: WARNING: purge refused: " in err
    assert "proactive: DEBUG: purge failed\nTraceback (most recent call last):" in err, err
    assert "StoreError" in err
