"""ActivityWatch interop against a real aw-server (tests/aw_server_fixture.py starts one on loopback)."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from aw_client import ActivityWatchClient
from aw_core.models import Event

from proactive.watcher.activitywatch import (
    CLIENT_NAME,
    EPISODE_EVENT_TYPE,
    ActivityWatchPublisher,
    ActivityWatchSource,
    browser_name,
    is_reachable,
)
from proactive.watcher.episodes.builder import EpisodeBuilder
from proactive.watcher.events import CLIPBOARD, IDLE, TEXT, WEB, WINDOW, RawEvent
from tests.aw_server_fixture import free_port

pytestmark = pytest.mark.aw

POLL = 0.5


class Collector:
    """A thread-safe emit that keeps what it was given."""

    def __init__(self) -> None:
        self.events: list[RawEvent] = []
        self._lock = threading.Lock()

    def __call__(self, event: RawEvent) -> None:
        with self._lock:
            self.events.append(event)

    def of(self, *kinds: str) -> list[RawEvent]:
        with self._lock:
            return [e for e in self.events if e.kind in kinds]

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.05)
        return predicate()


@pytest.fixture
def aw(aw_server_url: str, aw_dirs) -> Iterator[ActivityWatchClient]:
    """An aw-client playing the part of ActivityWatch's own watchers."""
    parts = urlsplit(aw_server_url)
    client = ActivityWatchClient("aw-test-watchers", testing=True, host=parts.hostname, port=parts.port)
    yield client


@pytest.fixture
def source_factory(
    aw_server_url: str, aw_dirs
) -> Iterator[Callable[..., tuple[ActivityWatchSource, Collector]]]:
    started: list[ActivityWatchSource] = []

    def make(**kwargs) -> tuple[ActivityWatchSource, Collector]:
        source = ActivityWatchSource(aw_server_url, poll_seconds=POLL, **kwargs)
        collector = Collector()
        source.start(collector)
        started.append(source)
        return source, collector

    yield make
    for source in started:
        source.stop()


def now() -> datetime:
    return datetime.now(UTC)


def unique(prefix: str) -> str:
    return f"{prefix}-{time.monotonic_ns()}"


def test_browser_name_from_bucket_id() -> None:
    assert browser_name("aw-watcher-web-firefox") == "Firefox"
    assert browser_name("aw-watcher-web-chrome_myhost") == "Chrome"
    assert browser_name("aw-watcher-web-unknown") == ""
    assert browser_name("my-own-bucket") == ""


def test_web_events_arrive_in_order_once(aw: ActivityWatchClient, source_factory) -> None:
    aw.create_bucket("aw-watcher-web-firefox", "web.tab.current", queued=False)
    source, got = source_factory()
    t0 = now() + timedelta(seconds=0.2)  # after the source started
    search = {"url": "https://www.google.com/search?q=pandas+merge", "title": "pandas merge - Google Search",
              "audible": False, "incognito": False, "tabCount": 3}  # fmt: skip
    docs = {"url": "https://pandas.pydata.org/docs/reference/api/pandas.merge.html",
            "title": "pandas.merge — pandas documentation", "audible": False, "incognito": False, "tabCount": 3}  # fmt: skip
    # Inserted newest first: the source must still emit in timestamp order.
    aw.insert_events(
        "aw-watcher-web-firefox",
        [
            Event(timestamp=t0 + timedelta(seconds=2), duration=3, data=docs),
            Event(timestamp=t0, duration=2, data=search),
        ],
    )
    assert got.wait_for(lambda: len(got.of(WEB)) >= 2), got.events
    web = got.of(WEB)
    assert [e.data["url"] for e in web] == [search["url"], docs["url"]]
    assert [e.data["title"] for e in web] == [search["title"], docs["title"]]
    assert {e.data["browser"] for e in web} == {"Firefox"}
    assert {e.source for e in web} == {"activitywatch"}
    assert web[0].data["incognito"] is False
    assert web[0].ts == pytest.approx(t0.timestamp(), abs=0.01)
    assert web[0].ts < web[1].ts

    # Further polls, and a heartbeat extending the docs event in place, deliver nothing again...
    time.sleep(4 * POLL)
    aw.heartbeat(
        "aw-watcher-web-firefox", Event(timestamp=t0 + timedelta(seconds=6), data=docs), pulsetime=60
    )
    time.sleep(4 * POLL)
    assert len(got.of(WEB)) == 2
    # ... while a new tab does arrive.
    other = {**docs, "url": "https://docs.python.org/3/", "title": "Python docs"}
    aw.heartbeat(
        "aw-watcher-web-firefox", Event(timestamp=t0 + timedelta(seconds=7), data=other), pulsetime=60
    )
    assert got.wait_for(lambda: len(got.of(WEB)) == 3)
    time.sleep(3 * POLL)
    assert [e.data["url"] for e in got.of(WEB)][2:] == [other["url"]]


def test_window_and_afk_buckets_are_opt_in(aw: ActivityWatchClient, source_factory) -> None:
    host = socket.gethostname()
    window_bucket, afk_bucket = unique(f"aw-watcher-window_{host}"), unique(f"aw-watcher-afk_{host}")
    aw.create_bucket(window_bucket, "currentwindow", queued=False)
    aw.create_bucket(afk_bucket, "afkstatus", queued=False)
    _, default = source_factory()
    _, opted_in = source_factory(use_windows=True, use_afk=True)

    t0 = now() + timedelta(seconds=0.2)
    aw.insert_events(
        window_bucket, [Event(timestamp=t0, duration=4, data={"app": "Code", "title": "main.py"})]
    )
    aw.insert_events(
        afk_bucket,
        [
            Event(timestamp=t0, duration=4, data={"status": "not-afk"}),
            Event(timestamp=t0 + timedelta(seconds=4), duration=90, data={"status": "afk"}),
        ],
    )
    assert opted_in.wait_for(lambda: len(opted_in.of(WINDOW)) == 1 and len(opted_in.of(IDLE)) == 2)
    assert opted_in.of(WINDOW)[0].data == {"app": "Code", "title": "main.py", "via": "activitywatch"}
    assert [e.data for e in opted_in.of(IDLE)] == [
        {"state": "active", "seconds": 4.0},
        {"state": "idle", "seconds": 90.0},
    ]
    kinds = [e.kind for e in opted_in.of(WINDOW, IDLE)]
    assert kinds in ([WINDOW, IDLE, IDLE], [IDLE, WINDOW, IDLE])  # timestamp order (first two share t0)
    time.sleep(3 * POLL)
    assert default.of(WINDOW, IDLE) == []


def test_buckets_from_other_machines_are_ignored(aw_server_url: str, aw_dirs, source_factory) -> None:
    parts = urlsplit(aw_server_url)
    remote = ActivityWatchClient("aw-test-remote", testing=True, host=parts.hostname, port=parts.port)
    remote.client_hostname = "some-other-laptop"
    bucket = unique("aw-watcher-window_some-other-laptop")
    remote.create_bucket(bucket, "currentwindow", queued=False)
    _, got = source_factory(use_windows=True)
    remote.insert_events(
        bucket, [Event(timestamp=now() + timedelta(seconds=0.2), duration=5, data={"app": "X", "title": "Y"})]
    )
    time.sleep(4 * POLL)
    assert [e for e in got.of(WINDOW) if e.data["app"] == "X"] == []  # (other tests' windows may show up)


def test_publisher_writes_our_bucket(aw_server_url: str, aw: ActivityWatchClient) -> None:
    host = unique("testhost")
    publisher = ActivityWatchPublisher(aw_server_url, hostname=host, text=True)  # with the sentences (opt-in)
    start = time.time() - 120
    episodes = [
        {"start": start, "end": start + 30.5, "app": "Firefox", "title": "pandas merge - Google Search",
         "event": "The user searched for pandas merge in Firefox."},
        {"start": start + 31, "end": start + 90, "app": "Code", "title": "main.py",
         "event": "The user typed 'df.merge(' in main.py."},
    ]  # fmt: skip
    try:
        assert publisher.publish(episodes) == 2
        assert publisher.publish(episodes[:1]) == 1  # the bucket is not created twice
    finally:
        publisher.close()

    bucket_id = f"{CLIENT_NAME}_{host}"
    with urllib.request.urlopen(f"{aw_server_url}/api/0/buckets/{bucket_id}", timeout=5) as resp:
        meta = json.loads(resp.read())
    assert meta["type"] == EPISODE_EVENT_TYPE
    assert meta["client"] == CLIENT_NAME
    assert meta["hostname"] == host

    events = sorted(aw.get_events(bucket_id), key=lambda e: (e.timestamp, e.duration))
    assert len(events) == 3
    first, _, second = events
    for got, want in ((first, episodes[0]), (second, episodes[1])):
        assert got.timestamp.timestamp() == pytest.approx(want["start"], abs=0.001)
        assert got.duration.total_seconds() == pytest.approx(want["end"] - want["start"], abs=0.001)
        assert got.data == {"app": want["app"], "title": want["title"], "event": want["event"]}


def _canary_episodes(typed: str, copied: str) -> list[dict]:
    """Real episodes (EpisodeBuilder's rendering) of typing `typed` and copying `copied` in a text editor."""
    builder = EpisodeBuilder()
    start = time.time() - 60
    feed = [RawEvent("window", WINDOW, {"app": "gedit", "title": "notes.txt - gedit"}, ts=start),
            RawEvent("keyboard", TEXT, {"text": typed, "enter": True}, ts=start + 1),
            RawEvent("clipboard", CLIPBOARD, {"text": copied}, ts=start + 2)]
    closed = [e for i, event in enumerate(feed, 1) for e in builder.add(i, event)] + [builder.close(start + 10)]
    return [e.row() for e in closed if e is not None]


@pytest.mark.parametrize("opt_in", [False, True], ids=["default", "activitywatch_text"])
def test_typed_and_copied_text_is_published_only_with_the_opt_in(
    aw_server_url: str, aw: ActivityWatchClient, opt_in: bool
) -> None:
    typed, copied = unique("typedcanary"), unique("copiedcanary")
    episodes = _canary_episodes(typed, copied)
    assert typed in episodes[0]["event"] and copied in episodes[0]["event"]  # the sentences quote both
    host = unique("testhost")
    with ActivityWatchPublisher(aw_server_url, hostname=host, text=opt_in) as publisher:
        assert publisher.publish(episodes) == len(episodes)
    with urllib.request.urlopen(f"{aw_server_url}/api/0/buckets/{CLIENT_NAME}_{host}/events", timeout=5) as resp:
        raw = resp.read().decode()
    events = json.loads(raw)
    assert [(e["data"]["app"], e["data"]["title"]) for e in events] == [("gedit", "notes.txt - gedit")]
    assert (typed in raw, copied in raw) == (opt_in, opt_in), raw


def test_lock_held_by_another_process_is_survived(
    aw_server_url: str,
    aw_dirs,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """aw-client calls sys.exit when another process has its lock: the source must log and carry on."""
    parts = urlsplit(aw_server_url)
    holder = subprocess.Popen(
        [
            sys.executable, "-c",
            "import sys, time; from aw_client import ActivityWatchClient; "
            f"c = ActivityWatchClient({CLIENT_NAME!r}, testing=True, host={parts.hostname!r}, port={parts.port}); "
            "print('locked', flush=True); time.sleep(60)",
        ],
        env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        caplog.set_level(logging.WARNING, logger="proactive.watcher.activitywatch")
        source = ActivityWatchSource(aw_server_url, poll_seconds=POLL)
        got = Collector()
        source.start(got)
        assert got.wait_for(lambda: "another process uses aw-client name" in caplog.text, timeout=5)
        assert source._thread is not None and source._thread.is_alive()
        source.stop()
        assert (
            ActivityWatchPublisher(aw_server_url, hostname=unique("locked")).publish(
                [{"start": time.time(), "end": time.time() + 1, "app": "a", "title": "t", "event": "e"}]
            )
            == 0
        )
    finally:
        holder.kill()
        holder.wait()


def test_no_server_nothing_breaks(aw_dirs) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    assert is_reachable(url) is False
    assert is_reachable("not a url at all") is False

    source = ActivityWatchSource(url, poll_seconds=POLL, use_windows=True, use_afk=True)
    got = Collector()
    t = time.monotonic()
    source.start(got)
    time.sleep(3 * POLL)  # a few polls against the closed port
    source.stop()
    source.stop()  # idempotent
    assert time.monotonic() - t < 2.0
    assert source._thread is None
    assert got.events == []

    publisher = ActivityWatchPublisher(url)
    assert (
        publisher.publish(
            [{"start": time.time(), "end": time.time() + 1, "app": "a", "title": "t", "event": "e"}]
        )
        == 0
    )
    publisher.close()
