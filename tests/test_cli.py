"""Command-line contract: exit codes, one-line errors, pause/resume, episodes output, purge."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from proactive.watcher.events import TEXT, WINDOW, RawEvent
from proactive.watcher.store.database import Store

from .conftest import run_cli


@pytest.mark.parametrize(
    "args, needle",
    [
        (["episodes", "--since", "yesterday-ish"], "bad time"),
        (["purge", "--before", "not-a-date"], "bad time"),
        (["purge"], "exactly one of"),
        (["episodes", "--bogus"], "No such option"),
        (["pause", "--for", "soon"], "bad duration"),
        (["pause", "--for", "1h soon"], "bad duration"),
        (["purge", "--before", "-2h"], "bad time"),
        (["episodes", "--since", "0m"], "more than 0"),
    ],
)
def test_bad_input_exits_2_with_one_line(proactive_home, args, needle):
    out = run_cli(*args)
    assert out.returncode == 2, out
    assert needle in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_a_new_home_has_no_episodes_and_a_purge_of_it_creates_and_claims_nothing(proactive_home):
    """Nothing captured yet: `episodes` is an empty list (a note on stderr, exit 0), and `purge` creates no
    database, folder or claim about copies that cannot exist (ActivityWatch: nothing was published)."""
    for args in (["episodes"], ["episodes", "-n", "5"], ["episodes", "--json", "--since", "2h"]):
        out = run_cli(*args)
        assert out.returncode == 0 and out.stdout == "", out
        assert "no episodes yet" in out.stderr and "proactive run" in out.stderr
    before = sorted(p.name for p in proactive_home.iterdir())
    for args in (["purge", "--all", "--yes"], ["purge", "--before", "1d"]):
        out = run_cli(*args)
        assert out.returncode == 0, out.stderr
        assert "database: none at" in out.stdout and "nothing to delete" in out.stdout
        assert "ActivityWatch" not in out.stdout and "deleted 0 rows" not in out.stdout
    assert sorted(p.name for p in proactive_home.iterdir()) == before  # nothing made
    assert "logs: none" in run_cli("purge", "--all", "--yes").stdout


@pytest.mark.parametrize("value, seconds", [
    ("90", 90), ("90s", 90), ("15m", 900), ("15 min", 900), ("1h30m", 5400), ("1h 30m", 5400), ("2 days", 172800),
    ("1w", 604800), ("1.5h", 5400), ("2 hours", 7200),
])
def test_one_duration_grammar_for_for_since_and_before(value, seconds):
    """--for takes a duration; --since and --before a time ago in the same grammar (a bare number is seconds
    only for --for: '2026' is no time ago) or an ISO 8601 time."""
    import time as clock

    from proactive.watcher.command_line import duration_seconds, parse_duration, parse_time

    assert parse_duration(value) == seconds
    assert duration_seconds(value) == seconds
    if not value.isdigit():
        for option in ("--since", "--before"):
            assert abs(parse_time(value, option) - (clock.time() - seconds)) < 5
    assert parse_time("2026-11-22T09:30", "--before") == parse_time("2026-11-22T09:30", "--since")


def test_purge_before_a_time_ago_keeps_what_is_newer(proactive_home):
    import time as clock

    now = clock.time()
    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "old"}, ts=now - 3 * 86400),
                      RawEvent("window", WINDOW, {"app": "XTerm", "title": "new"}, ts=now - 60)])
    store.close()
    out = run_cli("purge", "--before", "1d")
    assert out.returncode == 0, out.stderr
    store = Store()
    titles = [r[0] for r in store.db.execute("SELECT title FROM raw_events").fetchall()]
    store.close()
    assert titles == ["new"]


def test_no_at_the_purge_question_exits_1_and_deletes_nothing(proactive_home, tmp_path):
    """Asked on a terminal, "n" is a refusal: exit 1 ("aborted"), everything kept."""
    import pty
    import subprocess

    from .conftest import PROACTIVE

    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "kept"}, ts=1000.0)])
    store.close()
    leader, follower = pty.openpty()
    proc = subprocess.Popen([*PROACTIVE, "purge", "--all"], stdin=follower, stdout=follower, stderr=follower,
                            env=os.environ.copy())
    os.close(follower)
    seen = b""
    while b"[y/N]" not in seen:
        seen += os.read(leader, 1024)
    os.write(leader, b"n\n")
    assert proc.wait(timeout=60) == 1
    while True:
        try:
            chunk = os.read(leader, 1024)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert b"aborted" in seen
    store = Store()
    assert store.db.execute("SELECT count(*) FROM raw_events").fetchone()[0] == 1
    store.close()


def test_unreadable_database_exits_2(proactive_home, tmp_path):
    bad = tmp_path / "x.db"
    bad.write_bytes(b"garbage" * 1000)
    out = run_cli("episodes", "--db", str(bad))
    assert out.returncode == 2 and "x.db" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_bad_config_exits_2(proactive_home):
    (proactive_home / "config.toml").write_text("excluded_apps = 3\n")
    out = run_cli("watch", "--no-aw")
    assert out.returncode == 2 and "excluded_apps" in out.stderr


def test_episodes_json_and_text(proactive_home):
    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "t"}, ts=1000.0),
                      RawEvent("keyboard", TEXT, {"text": "ls -la", "erase": 0, "enter": True}, ts=1001.0)])
    store.close()
    out = run_cli("episodes", "--json")
    assert out.returncode == 0, out.stderr
    [row] = [json.loads(line) for line in out.stdout.splitlines()]
    assert row == {"time": "1000.000", "app": "XTerm", "title": "t",
                   "event": "The user switches to the terminal ('t'). "
                            "The user types 'ls -la' and presses Enter in the terminal."}
    text = run_cli("episodes")
    assert "The user types 'ls -la'" in text.stdout
    assert run_cli("episodes", "--since", "2100-01-01").stdout == ""


def test_pause_resume_without_watcher(proactive_home):
    out = run_cli("pause", "--for", "15m")
    assert out.returncode == 0 and "paused until" in out.stdout
    assert json.loads((proactive_home / "paused.json").read_text())["until"] > 0
    assert "paused" in run_cli("status").stdout
    assert run_cli("resume").returncode == 0
    assert not (proactive_home / "paused.json").exists()


def test_purge_all(proactive_home):
    store = Store()
    store.add_events([RawEvent("keyboard", TEXT, {"text": "UNIQUEPURGEWORD"})])
    store.close()
    (proactive_home / "logs").mkdir(exist_ok=True)
    (proactive_home / "logs" / "proactive.log").write_text("log line\n")
    out = run_cli("purge", "--all", "--yes")
    assert out.returncode == 0, out.stderr
    for name in os.listdir(proactive_home):
        p = proactive_home / name
        if p.is_file():
            assert b"UNIQUEPURGEWORD" not in p.read_bytes()
    assert (proactive_home / "logs" / "proactive.log").read_text() == ""


@pytest.mark.parametrize("command", ["run", "tray"])
@pytest.mark.parametrize("desktop, named", [
    ({}, "neither DISPLAY nor WAYLAND_DISPLAY is set"),
    ({"DISPLAY": ":987"}, "DISPLAY=:987"),  # no X server there
    ({"WAYLAND_DISPLAY": "no-such-wayland-9"}, "WAYLAND_DISPLAY=no-such-wayland-9"),
], ids=["none", "x11 display without a server", "wayland socket missing"])
def test_the_tray_without_a_desktop_exits_2_pointing_to_headless(proactive_home: Path, command: str,
                                                                 desktop: dict[str, str], named: str):
    """Over SSH (or with a desktop that is gone) Qt would abort the process (exit 134, "libxcb-cursor0 is
    needed"): one line instead, naming what is missing and `--headless`. Real processes: an abort is what
    would happen without the check."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(desktop, PROACTIVE_HOME=str(proactive_home))
    out = run_cli(command, "--no-aw", "--model", "fake", "--rm", "signals", env=env, process=True, timeout=60)
    assert out.returncode == 2, (out.returncode, out.stderr[-2000:])
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("proactive: error: ") and named in lines[0], out.stderr
    assert "proactive run --headless" in lines[0] and out.stdout == ""


def test_status_tells_one_story_and_as_json(proactive_home: Path):
    """No watcher: capture is off (not "capturing" beside "watcher: not running"); a pause is said to apply when
    one starts. --json gives the same facts and every file's place."""
    store = Store()
    store.add_events([RawEvent("keyboard", TEXT, {"text": "x"})])
    store.close()
    text = run_cli("status").stdout
    assert "watcher: not running" in text and "capture: off (no watcher running" in text and "capturing" not in text
    assert "(1 raw event, 0 episodes)" in text
    info = json.loads(run_cli("status", "--json").stdout)
    assert info["watcher"] == {"running": False, "pid": None} and info["capture"] == "off"
    assert info["paused"] is False and info["paused_until"] is None
    assert info["paths"]["config"] == str(proactive_home / "config.toml")
    assert info["paths"]["database"] == str(proactive_home / "proactive.db")
    assert info["database"]["raw_events"] == 1 and info["encryption"] in ("plain", "encrypted")
    assert run_cli("pause", "--for", "1h").returncode == 0
    paused = json.loads(run_cli("status", "--json").stdout)
    assert paused["paused"] is True and paused["capture"] == "off" and paused["paused_until"][:4].isdigit()
    assert "once one starts" in run_cli("status").stdout
    assert run_cli("pause").returncode == 0  # until resumed: no end time
    assert json.loads(run_cli("status", "--json").stdout)["paused_until"] is None


def test_plural():
    from proactive.watcher.episodes.wording import plural

    assert [plural(n, "row") for n in (0, 1, 2)] == ["0 rows", "1 row", "2 rows"]
    assert plural(3, "entry", "entries") == "3 entries"


def test_episodes_last_n_and_a_time_ago(proactive_home: Path):
    """`episodes -n N` prints the last N; `--since 2h` means two hours ago; a bare number is no time ago."""
    import time

    now = time.time()
    store = Store()
    events = []
    for i, (ago, title) in enumerate([(3 * 86400, "old"), (7200 + 600, "earlier"), (1800, "recent"), (60, "last")]):
        events += [RawEvent("window", WINDOW, {"app": "XTerm", "title": title}, ts=now - ago),
                   RawEvent("keyboard", TEXT, {"text": f"echo {i}", "erase": 0, "enter": True}, ts=now - ago + 1)]
    store.add_events(events)
    store.close()

    def titles(*args: str) -> list[str]:
        out = run_cli("episodes", "--json", *args)
        assert out.returncode == 0, out.stderr
        return [json.loads(line)["title"] for line in out.stdout.splitlines()]

    assert titles() == ["old", "earlier", "recent", "last"]
    assert titles("-n", "2") == ["recent", "last"]
    assert titles("--since", "2h") == ["earlier", "recent", "last"]  # "earlier" ends when "recent" begins
    assert titles("--since", "1d", "-n", "1") == ["last"]
    assert titles("--since", "5d") == ["old", "earlier", "recent", "last"]
    for bad, needle in (("2026", "or a time ago: 30m, 2h, 1d"), ("0h", "must be more than 0")):
        out = run_cli("episodes", "--since", bad)
        assert out.returncode == 2 and needle in out.stderr and len(out.stderr.strip().splitlines()) == 1
    out = run_cli("episodes", "-n", "0")
    assert out.returncode == 2 and "-n" in out.stderr
