"""Episode building and deterministic rendering."""

from __future__ import annotations

import pytest

from proactive.watcher.episodes import EpisodeBuilder, build_episodes, place, switch_sentence, web_sentence
from proactive.watcher.events import CLICK, CLIPBOARD, HOTKEY, IDLE, SCROLL, TEXT, WINDOW, RawEvent


def ev(kind: str, ts: float, **data) -> RawEvent:
    return RawEvent("test", kind, data, ts=ts)


def stream() -> list[tuple[int, RawEvent]]:
    events = [
        ev(WINDOW, 100, app="Visual Studio Code", title="client.py - proj - Visual Studio Code"),
        ev(TEXT, 101, text="import requests", erase=0, enter=True),
        ev(HOTKEY, 102, combo="ctrl+s"),
        ev(HOTKEY, 103, combo="ctrl+s"),
        ev(CLICK, 104, button="left", x=1, y=2),
        ev(CLICK, 105, button="left", x=1, y=2),
        ev(WINDOW, 110, app="XTerm", title="shell"),
        ev(CLIPBOARD, 111, text="Traceback (most recent call last):\n  File x\nTimeoutError", length=40,
           truncated=False),
        ev(SCROLL, 112, dx=0, dy=-3, count=3),
        ev(WINDOW, 120, app="Firefox", title="requests timeout - Google Search \u2014 Mozilla Firefox"),
        ev(IDLE, 130, state="idle", seconds=120),
        ev(IDLE, 400, state="active", seconds=270),
    ]
    return list(enumerate(events, 1))


def test_one_episode_per_focus_span_with_sentences():
    episodes = build_episodes(stream())
    assert [e.app for e in episodes] == ["Visual Studio Code", "XTerm", "Firefox"]
    vs, term, ff = episodes
    assert "The user types 'import requests' and presses Enter in client.py in Visual Studio Code." in vs.sentences
    assert "The user presses Ctrl+S (save) 2 times in client.py in Visual Studio Code." in vs.sentences
    assert "The user clicks 2 times in client.py in Visual Studio Code." in vs.sentences
    assert ("The user copies an error message starting 'Traceback (most recent call last):' and ending "
            "'TimeoutError' from the terminal." in term.sentences)
    assert "The user scrolls down (3 steps) in the terminal." in term.sentences
    assert "The user comes back after being away for 4 minutes." in ff.sentences
    assert (vs.first_raw_id, vs.last_raw_id) == (1, 6)
    assert (term.first_raw_id, term.last_raw_id) == (7, 9)
    assert vs.observation() == {"time": "100.000", "event": vs.event}


def test_rendering_is_deterministic():
    assert [e.row() for e in build_episodes(stream())] == [e.row() for e in build_episodes(stream())]


def test_incremental_builder_matches_batch():
    builder = EpisodeBuilder()
    closed = []
    for raw_id, event in stream():
        closed.extend(builder.add(raw_id, event))
    closed.append(builder.close())
    assert [e.row() for e in closed] == [e.row() for e in build_episodes(stream())]


def test_alt_tab_passing_through_is_dropped_but_real_spans_kept():
    events = [ev(WINDOW, 0, app="A", title="a"), ev(TEXT, 1, text="x", erase=0, enter=False),
              ev(WINDOW, 5, app="B", title="b"), ev(WINDOW, 5.2, app="C", title="c"),
              ev(TEXT, 6, text="y", erase=0, enter=False)]
    assert [e.app for e in build_episodes(enumerate(events, 1))] == ["A", "C"]


@pytest.mark.parametrize(
    "app, title, expected",
    [
        ("Visual Studio Code", "client.py - proj - Visual Studio Code", "client.py in Visual Studio Code"),
        ("XTerm", "bash", "the terminal"),
        ("Firefox", "", "Firefox"),
        ("private window", "", "a private window"),
    ],
)
def test_place(app, title, expected):
    assert place(app, title) == expected


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"url": "https://www.google.com/search?q=requests+timeout", "title": "x", "browser": "Firefox"},
         "The user searches on Google for 'requests timeout' in Firefox."),
        ({"url": "https://docs.python.org/3/library/json.html", "title": "json - JSON encoder",
          "browser": "Chrome"},
         "The user visits 'json - JSON encoder' on docs.python.org in Chrome."),
    ],
)
def test_web_sentences(data, expected):
    assert web_sentence(data) == expected


@pytest.mark.parametrize(
    "app, title, sentence",
    [
        ("Firefox", "requests timeout - Google Search - Mozilla Firefox",
         "The user switches to Firefox and searches on Google for 'requests timeout'."),
        ("Google Chrome", "go 语言 - Google 搜索 - Google Chrome",
         "The user switches to Google Chrome and searches on Google for 'go 语言'."),
        ("Firefox", "Timeouts - Requests documentation — Mozilla Firefox",
         "The user switches to Firefox and views the page 'Timeouts - Requests documentation'."),
        ("XTerm", "build shell", "The user switches to the terminal ('build shell')."),
        ("Visual Studio Code", "client.py - proj - Visual Studio Code",
         "The user switches to client.py in Visual Studio Code."),
        ("Firefox", "", "The user switches to Firefox."),
    ],
)
def test_switch_sentence_keeps_what_a_browser_title_says(app, title, sentence):
    """Without ActivityWatch's browser extension the title is all we know of a page: a search stays a search."""
    assert switch_sentence(app, title, place(app, title)) == sentence
