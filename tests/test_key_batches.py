"""Keys read a batch at a time (watcher/capture/keyboard.py, watcher/capture/xrecord.py `RecordThread.rest`): typed at a person's
pace in the middle of a line, the keys that come while the record thread waits are read in one wake-up; a
catch-up (another source's event) and a stop end the wait at once. On a real X server (Xvfb) with xdotool."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import XSession, wait_for

pytestmark = pytest.mark.x11


def handled(xsession: XSession, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[tuple[float, Any]]]:
    """A started X11 keyboard source and the (monotonic time, event) of each key it hands on."""
    from proactive.watcher.capture.keyboard import Keyboard

    for name, value in xsession.env.items():
        monkeypatch.setenv(name, value)
    events: list[tuple[float, Any]] = []
    keyboard = Keyboard()
    keyboard.start(lambda event: events.append((time.monotonic(), event)))
    return keyboard, events


def reads(events: list[tuple[float, Any]]) -> int:
    """How many reads handed the events on: events handed on within 3 ms of the one before came in the same read."""
    return 1 + sum(1 for (a, _), (b, _) in zip(events, events[1:], strict=False) if b - a > 0.003)


def test_keys_typed_at_a_persons_pace_are_read_in_fewer_wake_ups_than_keys(xsession: XSession,
                                                                           monkeypatch: pytest.MonkeyPatch):
    keyboard, events = handled(xsession, monkeypatch)
    text = "steady typing here"
    try:
        xsession.type(text, delay_ms=240)  # (xdotool: a key every 120 ms, 8 a second)
        wait_for(lambda: len(events) >= len(text), timeout=30, what="every typed key")
    finally:
        keyboard.stop()
    assert "".join(e.data.get("char", "") for _, e in events) == text
    assert reads(events) <= 0.7 * len(text), [round(t - events[0][0], 3) for t, _ in events]


def test_a_catch_up_and_a_stop_end_the_wait(xsession: XSession, monkeypatch: pytest.MonkeyPatch):
    """While the thread waits (here 30 s) another source's catch-up still has it read what waits, and a stop
    ends it: the order of events and the watcher's exit never depend on the wait."""
    import proactive.watcher.capture.keyboard as keyboard_module

    monkeypatch.setattr(keyboard_module, "KEY_BATCH_SECONDS", 30.0)
    keyboard, events = handled(xsession, monkeypatch)
    stopped = False
    try:
        xsession.type("ab", delay_ms=400)  # a, then b 200 ms later: the thread waits after b
        wait_for(lambda: len(events) >= 2, timeout=10, what="the first keys")
        xsession.type("c")
        time.sleep(0.3)
        assert len(events) == 2  # c waits in the socket
        start = time.monotonic()
        keyboard.catch_up(5.0)
        assert time.monotonic() - start < 3.0
        assert [e.data.get("char") for _, e in events] == ["a", "b", "c"]
        xsession.type("d")
        start = time.monotonic()
        keyboard.stop()
        stopped = True
        assert time.monotonic() - start < 1.5
    finally:
        if not stopped:
            keyboard.stop()
