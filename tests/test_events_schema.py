"""Each kind's data as watcher/events.py describes it (`DATA`, `data_schema`), checked on the events the project
really makes: the fixtures, the sources' pure functions, the privacy filter, and what the pipeline stores."""

from __future__ import annotations

import json
import math
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import jsonschema
import pytest
from aw_core.models import Event

from proactive.watcher import events
from proactive.watcher.activitywatch import ActivityWatchSource
from proactive.watcher.capture.clipboard import clip_event
from proactive.watcher.capture.idle import IdleTracker
from proactive.watcher.capture.keyboard import KeyTranslator
from proactive.watcher.capture.wl_window import container_info
from proactive.watcher.events import (
    CLICK,
    CLIPBOARD,
    CONTROL,
    DATA,
    IDLE,
    SCROLL,
    TEXT,
    WEB,
    WINDOW,
    RawEvent,
    data_schema,
)
from proactive.watcher.privacy.compose import TextComposer
from proactive.watcher.privacy.filter import PrivacyFilter
from proactive.watcher.store.database import Store
from proactive.watcher.store.home import Config

from .conftest import ListSource, run_watcher

FIXTURES = Path(__file__).parent / "fixtures"


def check(event: RawEvent) -> None:
    """Raises jsonschema's ValidationError when `event.data` is not what its kind's description says."""
    jsonschema.Draft202012Validator(data_schema(event.kind)).validate(event.data)


def test_every_kind_is_described_by_a_valid_schema():
    kinds = {value for name, value in vars(events).items() if name.isupper() and isinstance(value, str)}
    assert kinds == set(DATA)
    for kind in kinds:
        jsonschema.Draft202012Validator.check_schema(data_schema(kind))


def test_schema_follows_the_typed_description():
    schema = data_schema(WINDOW)
    assert schema["required"] == ["app", "title"]
    assert schema["properties"]["pid"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert data_schema(IDLE)["properties"]["state"] == {"enum": ["idle", "active"]}


def test_fixture_events_match():
    rows = json.loads((FIXTURES / "history_events.json").read_text())
    assert rows
    for row in rows:
        check(RawEvent(row["source"], row["kind"], row["data"], ts=row["ts"]))


def sources_events() -> list[RawEvent]:
    """What the capture sources' display-free parts emit."""
    out: list[RawEvent] = [clip_event("Traceback (most recent call last)", 9), clip_event("short", 100)]
    idle = IdleTracker(out.append, idle_seconds=60)
    idle.update(300.0, now=1000.0)
    idle.update(0.0, now=1010.0)
    keys = KeyTranslator(out.append)
    for char, name in [("a", None), (None, "space"), (None, "enter"), (None, "ctrl"), ("c", None)]:
        keys.press(char, name)
    composer = TextComposer(out.append)
    for i, char in enumerate("ls -la"):
        composer.key(float(i), char)
    composer.key(7.0, key="enter")
    composer.key(8.0, "x")
    composer.flush(field_end=True)
    composer.hide_line = "password"  # what the pipeline sets at a password prompt
    composer.key(9.0, "s")
    composer.key(10.0, key="enter")
    out += [RawEvent("window", WINDOW, container_info(None)),
            RawEvent("window", WINDOW, container_info({"type": "con", "name": "notes", "pid": 0, "app_id": "foot"}))]
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for bucket, kind, data in [("aw-watcher-web-firefox", WEB, {"url": "https://x.org", "title": "X", "incognito": 0}),
                               ("aw-watcher-window_host", WINDOW, {"app": "kitty", "title": "vim"}),
                               ("aw-watcher-afk_host", IDLE, {"status": "afk"})]:
        raw = ActivityWatchSource._convert(bucket, kind, Event(timestamp=start, duration=timedelta(seconds=5),
                                                               data=data))
        assert raw is not None
        out.append(raw)
    privacy = PrivacyFilter(Config())
    out += [privacy.pause(math.inf), privacy.pause(time.time() + 60), privacy.resume()]
    return out


def test_sources_events_match():
    made = sources_events()
    assert {e.kind for e in made} >= {CLIPBOARD, IDLE, "key", "hotkey", TEXT, WINDOW, WEB, CONTROL}
    assert any(e.data.get("hidden") for e in made) and any(e.data.get("end") for e in made)
    for event in made:
        check(event)


def test_filtered_window_events_match():
    """The privacy filter rewrites window data: a private window, a password window's title."""
    privacy = PrivacyFilter(Config(excluded_apps=["Vault"]))
    kept = [privacy.clean(RawEvent("window", WINDOW, {"app": "Vault", "title": "db", "pid": 5, "process": "vault"})),
            privacy.clean(RawEvent("window", WINDOW, {"app": "XTerm", "title": "[sudo] password for ann", "pid": 6,
                                                      "process": "xterm"}))]
    assert kept[0] is not None and kept[0].data.get("private") is True
    assert kept[1] is not None and kept[1].data.get("password_context") is True
    for event in kept:
        check(event)


def test_stored_events_match():
    """Everything the real pipeline stores (scrolls summed into one gesture, keys into text) reads back valid."""
    feed = [RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "process": "xterm", "pid": 42}),
            *(RawEvent("keyboard", "key", {"char": c}) for c in "make"), RawEvent("keyboard", "key", {"key": "enter"}),
            RawEvent("keyboard", "hotkey", {"combo": "ctrl+c"}),
            RawEvent("mouse", CLICK, {"button": "left", "x": 3, "y": 4}),
            RawEvent("mouse", SCROLL, {"dx": 0, "dy": -1, "x": 3, "y": 4}),
            RawEvent("mouse", SCROLL, {"dx": 0, "dy": -1, "x": 3, "y": 4}),
            RawEvent("mouse", CLICK, {"button": "right", "x": 3, "y": 4}),
            clip_event("error: make failed", 4000)]
    run_watcher(ListSource(feed))
    stored = [event for _, event in Store().iter_events()]
    assert {e.kind for e in stored} >= {WINDOW, TEXT, CLICK, SCROLL, CLIPBOARD, "hotkey"}
    assert any(e.kind == SCROLL and e.data.get("count") == 2 for e in stored)
    for event in stored:
        check(event)


@pytest.mark.parametrize(("kind", "data"), [
    (WINDOW, {"app": "XTerm", "title": "shell", "pid": "42"}),  # a pid is a number
    (WINDOW, {"app": "XTerm"}),  # the title is required
    (IDLE, {"state": "asleep", "seconds": 3.0}),  # not one of the states
    (CLICK, {"button": "left", "x": True, "y": 1}),  # a bool is no coordinate
    (TEXT, {"text": "ls", "enter": "yes"}),
    (CLIPBOARD, {"text": "x", "html": "<b>x</b>"}),  # a field nobody described
    (CONTROL, {"state": "paused", "until": "soon"}),
])
def test_a_field_of_the_wrong_type_fails(kind, data):
    with pytest.raises(jsonschema.ValidationError):
        check(RawEvent("test", kind, data))
