"""The assistant's context handed forward (assistant/live_context.py): the real pipeline (`Watcher`) hands each
batch and episode to a `LiveContext` as it writes them. At every step the context it holds is the one the
database gives (`recent_context`, built from the stored rows as before), it needs no database once it has
looked, and a purge (everything or a period), retention and an episode deleted leave it as they leave the
database."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from proactive.assistant.live import recent_context
from proactive.assistant.live_context import LiveContext
from proactive.watcher import control
from proactive.watcher.events import CLIPBOARD, KEY, WEB, WINDOW, Emit, RawEvent
from proactive.watcher.pipeline import Watcher
from proactive.watcher.store.database import Store
from proactive.watcher.store.home import Config

from .conftest import ListSource

T0 = time.time() - 3600  # an hour ago: the events' times, so a purge of a period in between can split them
TRACE = "Traceback (most recent call last):\n  File \"client.py\", line 3\nTimeoutError: timed out"
SAID = "Traceback (most recent call last)"  # how the text (a repr) of anything holding the error shows it


class Hand(ListSource):
    """A source the test emits through, one event at a time."""

    def __init__(self) -> None:
        super().__init__([])
        self.emit: Emit | None = None

    def start(self, emit: Emit) -> None:
        self.emit = emit


def steps() -> list[RawEvent]:
    """Windows, copies (an error, an API key that redaction takes), pages and keys, an hour ago."""
    events = [
        RawEvent("window", WINDOW, {"app": "Firefox", "title": "requests timeout - Search"}),
        RawEvent("aw-web", WEB, {"url": "https://docs.python-requests.org/timeouts", "title": "Timeouts"}),
        RawEvent("clipboard", CLIPBOARD, {"text": TRACE, "length": len(TRACE), "truncated": False}),
        RawEvent("window", WINDOW, {"app": "Code", "title": "client.py - Visual Studio Code"}),
        *[RawEvent("keyboard", KEY, {"char": c}) for c in "timeout=30"],
        RawEvent("clipboard", CLIPBOARD, {"text": "key sk-proj-Q7vX2mN9pL4kR8tY1wZ5aB3cD6eF0gH", "length": 44,
                                          "truncated": False}),
        RawEvent("window", WINDOW, {"app": "Firefox", "title": "requests docs"}),
        RawEvent("aw-web", WEB, {"url": "https://example.org/private", "title": "p", "incognito": True}),
        RawEvent("aw-web", WEB, {"url": "https://docs.python-requests.org/api", "title": "API"}),
        RawEvent("clipboard", CLIPBOARD, {"text": "requests.get(url, timeout=30)", "length": 29,
                                          "truncated": False}),
    ]
    for i, event in enumerate(events):
        event.ts = T0 + 10 * i
    return events


@pytest.fixture
def watched(proactive_home: Path) -> Iterator[tuple[Watcher, Hand, LiveContext, Store]]:
    """The real pipeline on this home's database, handing forward to a LiveContext that looked at the (empty)
    database first, as the assistant does at its first trigger."""
    store = Store()
    live = LiveContext(30)
    live.recent(store, 30)
    hand = Hand()
    watcher = Watcher(None, Config(), [hand], flush_interval=0.05, on_episode=live.closed, on_events=live.written,
                      on_forget=live.forget)
    thread = threading.Thread(target=watcher.run)
    thread.start()
    assert watcher.started.wait(10)
    try:
        yield watcher, hand, live, store
    finally:
        watcher.stop()
        thread.join(10)
        store.close()


def written(emit: Emit, event: RawEvent) -> None:
    """Emits `event`, then waits until the watcher has written it (a flush request, as a reader makes one)."""
    emit(event)
    assert control.wait_flushed(control.request_flush(), 10), "the watcher did not write"


def test_the_context_handed_forward_is_the_one_the_database_gives(watched) -> None:
    watcher, hand, live, store = watched
    assert hand.emit is not None
    for n in (30, 2):
        assert live.recent(store, n) == recent_context(store, n)
    for event in steps():
        written(hand.emit, event)
        for n in (30, 2):
            assert live.recent(store, n) == recent_context(store, n), event
    observations, episode_id, newest = live.recent(store, 30)
    assert len(observations) == 3 and episode_id is not None and newest > 0
    copied = [c for o in observations for c in o.get("copies", [])]
    assert copied[0] == TRACE and "sk-proj" not in str(observations)  # as stored: through redaction
    pages = [p["url"] for o in observations for p in o.get("pages", [])]
    assert pages == ["https://docs.python-requests.org/timeouts", "https://docs.python-requests.org/api"]


def test_once_it_has_looked_it_reads_no_database(watched, monkeypatch: pytest.MonkeyPatch) -> None:
    watcher, hand, live, store = watched
    assert hand.emit is not None
    events = steps()
    for event in events[:4]:
        written(hand.emit, event)
    before = recent_context(store, 30)

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError("the live context read the database")

    for name in ("episodes", "iter_events", "copies", "pages", "last_episode_raw_id"):
        monkeypatch.setattr(store, name, no_reading)  # (the watcher has its own connection)
    assert live.recent(store, 30) == before
    for event in events[4:]:
        written(hand.emit, event)
    observations = live.recent(store, 30)[0]
    assert "requests.get(url, timeout=30)" in observations[-1].get("copies", [])
    monkeypatch.undo()
    assert live.recent(store, 30) == recent_context(store, 30)


@pytest.mark.parametrize("period", [True, False], ids=["before-a-time", "everything"])
def test_a_purge_leaves_the_memory_as_it_leaves_the_database(watched, period: bool) -> None:
    watcher, hand, live, store = watched
    assert hand.emit is not None
    for event in steps():
        written(hand.emit, event)
    before = T0 + 35 if period else None  # between the first window's episode and the second's
    request = control.request_purge(before, Path(store.path))
    answer = control.wait_purged(request, 20)
    assert answer is not None and answer.get("applied"), answer
    written(hand.emit, RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}))
    now = live.recent(store, 30)
    assert now == recent_context(store, 30)
    assert SAID not in str(now) and "Timeouts" not in str(now)
    if period:
        assert "switches to client.py in Code" in str(now)  # (the episode that ended after the time)


def test_retention_leaves_the_memory_as_it_leaves_the_database(proactive_home: Path) -> None:
    """Events older than `retention_days` at the watcher's start: retention purges them, and the context the
    assistant looked at before (primed) forgets them."""
    store = Store()
    old = steps()[:4]
    for event in old:
        event.ts -= 3 * 86400
    store.add_events(old)
    live = LiveContext(30)
    assert SAID in str(live.recent(store, 30))
    watcher = Watcher(None, Config(retention_days=1), [ListSource([])], flush_interval=0.05,
                      on_episode=live.closed, on_events=live.written, on_forget=live.forget)
    thread = threading.Thread(target=watcher.run)
    thread.start()
    assert watcher.started.wait(10)
    watcher.stop()
    thread.join(10)
    assert SAID not in str(live.recent(store, 30)) and SAID not in str(recent_context(store, 30))
    store.close()


def test_an_episode_deleted_leaves_the_memory(watched) -> None:
    watcher, hand, live, store = watched
    assert hand.emit is not None
    for event in steps():
        written(hand.emit, event)
    first = store.episodes()[0]
    store.delete_episode(first["id"])
    live.forget_episode(first["id"])
    assert live.recent(store, 30) == recent_context(store, 30)
    assert SAID not in str(live.recent(store, 30))
