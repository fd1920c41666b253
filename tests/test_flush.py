"""Flush requests (watcher/control.py): a reader of the database while a watcher runs asks it to write what it
has taken, and is answered once that is in the database. Real watcher on Xvfb, real keys (xdotool) and copies
(xclip), beside two CPU hogs; `proactive episodes` while the watcher runs shows the last second."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from proactive.watcher import control

from .conftest import WatcherProcess, XSession, run_cli
from .test_terminal_secrets import HIDDEN, stored_lines


def test_no_watcher_means_no_wait(proactive_home: Path) -> None:
    start = time.monotonic()
    assert control.flush_running_watcher(5.0) is False
    assert time.monotonic() - start < 1.0
    assert control.take_flush_requests() == []  # nothing left for a watcher started later


def test_a_request_nobody_answers_is_withdrawn(proactive_home: Path) -> None:
    request = control.request_flush()
    assert not control.wait_flushed(request, 0.1)
    assert control.take_flush_requests() == []


def test_readers_asking_at_once_are_each_answered(proactive_home: Path) -> None:
    """Requests taken together, one made while the watcher answered the others: each is answered once, none lost
    (each is a file of its own: taking one never removes another)."""
    first, second = control.request_flush(), control.request_flush()
    taken = control.take_flush_requests()
    assert sorted(taken) == sorted([first, second])
    third = control.request_flush()  # made while the watcher wrote for the first two
    control.answer_flush(taken)
    assert control.wait_flushed(first, 0.1) and control.wait_flushed(second, 0.1)
    assert not control.wait_flushed(first, 0.05)  # (an answer is read once)
    assert control.take_flush_requests() == [third]
    control.answer_flush([third])
    assert control.wait_flushed(third, 0.1)


def copies(home: Path) -> list[str]:
    """The copies in the database now."""
    with sqlite3.connect(home / "proactive.db") as db:
        return [text for (text,) in db.execute("SELECT json_extract(data, '$.text') FROM raw_events "
                                               "WHERE kind = 'clipboard' ORDER BY id")]


@pytest.mark.x11
def test_what_was_taken_is_in_the_database_when_the_watcher_answers(xsession: XSession, proactive_home: Path,
                                                                    cpu_hogs: None) -> None:
    """Five times, beside two CPU hogs: a copy and a line typed with Enter, then a flush request; once it is
    answered (no sleep anywhere) both are in the database, and `proactive episodes` run meanwhile says them. (A
    line is kept, or hidden where the watcher read its keys too late to judge it: fail closed, test_late_keys.)"""
    xsession.activate(xsession.start_xterm("flush shell", command=["cat"]))
    watcher = WatcherProcess(proactive_home, xsession.env)
    try:
        for i in range(5):
            xsession.copy(f"copied text number {i}")
            xsession.type(f"echo line {i}")
            xsession.key("Return")
            watcher.flushed()
            assert copies(proactive_home)[-1:] == [f"copied text number {i}"], copies(proactive_home)
            lines = stored_lines()
            assert len(lines) == i + 1 and lines[-1] in (f"echo line {i}", HIDDEN), lines
        assert sum(line != HIDDEN for line in lines) >= 3, lines
        xsession.copy("the last copy, not flushed by the test")
        episodes = run_cli("episodes", env=watcher.env)  # asks the watcher itself
        assert episodes.returncode == 0, episodes.stderr
        assert "the last copy" in episodes.stdout, episodes.stdout
    finally:
        code, err = watcher.stop()
    assert code == 0, err
