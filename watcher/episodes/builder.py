"""Merges stored raw events into episodes: one per focus span (application + window title).

An episode gathers what happened while one window had the focus: typed text (already reconstructed and
redacted), hotkeys, clicks and scrolls, clipboard copies, web pages (from ActivityWatch) and idle periods. It is
rendered deterministically as English sentences in ProactiveBench's observation style, so what the model sees
live is exactly what the replay harness feeds it offline. Each episode keeps the id range of its raw events.

The sentences follow the order in which things happened (the order of the raw events), one per thing: a pause,
a typed line, a copy, the next line, the next copy, each where it came. Why: the model, the grounding and the
history's "what you did next" read the episode as a story; "types A, types B, copies error A, copies error B"
for "types A, copies A, types B, copies B" is a story that did not happen. What went on without anything else
between is one thing and one sentence: a line typed in pieces, a run of clicks, a scroll gesture, a hotkey
pressed again and again.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlparse

from proactive.watcher.episodes.error_lines import ERROR_HINT, LOG_POINTER, key_lines, quote_ends
from proactive.watcher.episodes.wording import plural
from proactive.watcher.events import (
    CLICK,
    CLIPBOARD,
    CONTROL,
    HOTKEY,
    IDLE,
    SCROLL,
    TEXT,
    WEB,
    WINDOW,
    RawEvent,
)
from proactive.watcher.privacy.compose import UNOBSERVED
from proactive.watcher.privacy.echo_state import UNSEEN
from proactive.watcher.privacy.editor_keys import EX_COMMANDS
from proactive.watcher.privacy.filter import PRIVATE_APP, is_terminal

if TYPE_CHECKING:
    from proactive.watcher.store.database import Store

log = logging.getLogger(__name__)

MAX_QUOTE = 100  # characters of typed or copied text quoted in a sentence
MAX_LINES = 6  # typed lines quoted per episode; more are counted
MAX_SENTENCES = 16  # after the switch; more: the first HEAD_SENTENCES and the latest, the rest counted
HEAD_SENTENCES = 4
MIN_EMPTY_SECONDS = 1.0  # a focus span shorter than this with nothing in it (alt-tab passing by) is dropped

HOTKEY_MEANINGS = {
    "ctrl+c": "copy", "ctrl+v": "paste", "ctrl+x": "cut", "ctrl+s": "save", "ctrl+z": "undo", "ctrl+y": "redo",
    "ctrl+shift+z": "redo", "ctrl+f": "find", "ctrl+a": "select all", "ctrl+t": "new tab", "ctrl+w": "close tab",
    "ctrl+shift+t": "reopen tab", "ctrl+n": "new window", "ctrl+o": "open", "ctrl+p": "quick open",
    "ctrl+shift+p": "command palette", "ctrl+shift+c": "copy", "ctrl+shift+v": "paste", "ctrl+l": "address bar",
    "ctrl+r": "reload", "ctrl+tab": "next tab", "alt+tab": "switch window", "ctrl+/": "toggle comment",
    "alt+f4": "close window", "ctrl+q": "quit",
}
#: a terminal emulator's hotkeys: Ctrl+letter goes to the program in it (the terminal turns Ctrl+C, Ctrl+D and
#: Ctrl+Z into an interrupt, an end of input and a suspend), the emulator's own shortcuts add Shift. Only what
#: holds whatever runs there; other combos are named bare.
TERMINAL_HOTKEY_MEANINGS = {
    "ctrl+c": "interrupt", "ctrl+d": "end of input", "ctrl+z": "suspend", "ctrl+shift+c": "copy",
    "ctrl+shift+v": "paste", "ctrl+shift+t": "new tab", "ctrl+shift+w": "close tab",
    "ctrl+shift+n": "new window", "alt+tab": "switch window", "alt+f4": "close window",
}
SEARCH_HOSTS = {"www.google.com": "Google", "google.com": "Google", "www.bing.com": "Bing", "bing.com": "Bing",
                "duckduckgo.com": "DuckDuckGo", "html.duckduckgo.com": "DuckDuckGo",
                "search.brave.com": "Brave Search", "www.startpage.com": "Startpage"}
BROWSER_APP = re.compile(r"firefox|chrom(e|ium)|\bedge\b|brave|opera|vivaldi|safari|epiphany|web browser",
                         re.IGNORECASE)
#: the title suffix of a search engine's result page -> the engine
SEARCH_TITLES = {"Google Search": "Google", "Google 搜索": "Google", "Bing": "Bing", "搜索": "Bing",
                 "DuckDuckGo": "DuckDuckGo", "Brave Search": "Brave Search", "Startpage": "Startpage",
                 "百度搜索": "Baidu"}
#: a result page titled "QUERY at ENGINE" (DuckDuckGo's titles)
SEARCH_AT_TITLE = re.compile(r"^(?P<query>.+?)\s+at\s+(?P<engine>DuckDuckGo)$")
TITLE_SEPARATORS = re.compile(r"\s+[-\u2013\u2014|]\s+")


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """Single-line, length-capped text for a quoted sentence fragment."""
    text = " ".join(text.replace("\t", " ").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"






def place(app: str, title: str) -> str:
    """Where something happens, e.g. "client.py in Visual Studio Code", "the terminal", "Firefox"."""
    if app == PRIVATE_APP:
        return "a private window"
    if is_terminal(app):
        return "the terminal"
    parts = [p for p in TITLE_SEPARATORS.split(title or "") if p.strip()]
    if parts and parts[-1].strip().lower() in (app.lower(), "mozilla firefox", "google chrome", "chromium"):
        parts = parts[:-1]
    subject = parts[0].strip() if parts else ""
    if subject and subject.lower() != app.lower():
        return f"{quote(subject, 60)} in {app}"
    return app or "an unknown application"


def duration(seconds: float) -> str:
    if seconds < 90:
        return plural(max(1, round(seconds)), "second")
    if seconds < 5400:
        return plural(round(seconds / 60), "minute")
    return plural(round(seconds / 3600), "hour")


@dataclass
class Episode:
    """One focus span. `sentences` is the rendering; raw ids link it back to its raw events; `id` is its row's
    once stored."""

    start: float
    end: float
    app: str
    title: str
    first_raw_id: int
    last_raw_id: int
    private: bool = False
    sentences: list[str] = field(default_factory=list)
    id: int | None = None

    @property
    def event(self) -> str:
        return " ".join(self.sentences)

    def row(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "app": self.app, "title": self.title, "event": self.event,
                "sentences": self.sentences, "first_raw_id": self.first_raw_id, "last_raw_id": self.last_raw_id}


class EpisodeBuilder:
    """Incremental: feed (id, event) in id order; `add` returns episodes that just closed, `close` the open one."""

    def __init__(self) -> None:
        self.current: _Span | None = None

    def add(self, raw_id: int, event: RawEvent) -> list[Episode]:
        closed: list[Episode] = []
        if event.kind == WINDOW:
            key = (event.data.get("app") or "", event.data.get("title") or "")
            if self.current is not None and (self.current.app, self.current.title) == key:
                self.current.touch(raw_id, event.ts)
                return closed
            if self.current is not None:
                closed.extend(self._close_current(event.ts))
            self.current = _Span(raw_id, event)
            return closed
        if self.current is None:
            self.current = _Span(raw_id, RawEvent("window", WINDOW, {"app": "", "title": ""}, ts=event.ts))
        self.current.feed(raw_id, event)
        return closed

    def open_episode(self) -> Episode | None:
        """The span still open, rendered as it stands (as `close` would, without closing it)."""
        return self.current.render(None) if self.current is not None else None

    def close(self, end: float | None = None) -> Episode | None:
        """Close the open span. With `end` (the focus really ended then) an empty, short span is dropped like
        any other; without it the span is still in focus, so it is kept however short."""
        out = self._close_current(end, drop_empty=end is not None)
        return out[0] if out else None

    def _close_current(self, end: float | None, drop_empty: bool = True) -> list[Episode]:
        span, self.current = self.current, None
        if span is None:
            return []
        episode = span.render(end)
        if drop_empty and not span.has_activity and episode.end - episode.start < MIN_EMPTY_SECONDS:
            return []
        return [episode]


def build_episodes(events: Iterable[tuple[int, RawEvent]], close: bool = True) -> list[Episode]:
    """All episodes of a stream of stored events; the last one is included when `close`."""
    builder = EpisodeBuilder()
    out: list[Episode] = []
    for raw_id, event in events:
        out.extend(builder.add(raw_id, event))
    if close:
        last = builder.close()
        if last is not None:
            out.append(last)
    return out


def unstored_episodes(store: Store) -> list[Episode]:
    """The episodes not stored yet, built from the raw events after the last stored episode's: the one a running
    watcher still has open, or those a killed watcher left. The last one is closed here, on its last event,
    however short (it may still be in focus)."""
    return build_episodes(store.iter_events(after_id=store.last_episode_raw_id()))


def recover_episodes(store: Store) -> None:
    """Episodes left open by a watcher that was killed are closed now from the stored raw events (at a start)."""
    episodes = unstored_episodes(store)
    if episodes:
        store.add_episodes(e.row() for e in episodes)
        log.info("recovered %d episodes from raw events %d to %d", len(episodes), episodes[0].first_raw_id,
                 episodes[-1].last_raw_id)


@dataclass(slots=True)
class _Typed:
    """A piece of one typed line: what was typed between two other happenings. A line typed in one go is one
    piece; a click or a hotkey in the middle of it splits it, so each piece is told where it happened."""

    line: int  # which line of the span it belongs to
    text: str = ""
    enter: bool = False  # the line ends here with Enter
    hidden: str = ""  # why the whole line is not shown: "password", UNSEEN, UNOBSERVED...
    count: int = 0  # UNOBSERVED: how many characters it held


#: one happening of a span, in time order: (kind, value); clicks, scrolls and repeats of a hotkey are merged
#: while nothing else happens between them (into a new item: an item never changes once made)
_Item = tuple[str, Any]


class _Span:
    """What happened during one focus span, accumulated cheaply in time order; rendered to sentences once, at
    the end."""

    __slots__ = ("app", "title", "terminal", "start", "last_ts", "first_id", "last_id", "private", "items",
                 "has_activity", "line", "lines")

    def __init__(self, raw_id: int, window: RawEvent):
        self.app = window.data.get("app") or ""
        self.title = window.data.get("title") or ""
        self.terminal = is_terminal(self.app, window.data.get("process"))
        self.private = bool(window.data.get("private"))
        self.start = self.last_ts = window.ts
        self.first_id = self.last_id = raw_id
        self.items: list[_Item] = []  # what happened, in the order it happened
        self.has_activity = False
        self.line: list[_Typed] = []  # the pieces of the line being typed (not ended by Enter yet)
        self.lines = 0  # lines started in this span

    def touch(self, raw_id: int, ts: float) -> None:
        self.last_id = raw_id
        if ts > self.last_ts:
            self.last_ts = ts

    def feed(self, raw_id: int, event: RawEvent) -> None:
        self.touch(raw_id, event.ts)
        self.has_activity = True
        kind, data = event.kind, event.data
        if kind == TEXT:
            self._type(data)
        elif kind == CLICK:
            _append(self.items, (CLICK, {data.get("button") or "left": int(data.get("count") or 1)}))
        elif kind == SCROLL:
            _append(self.items, (SCROLL, (-int(data.get("dy") or 0), int(data.get("dx") or 0))))
        elif kind == HOTKEY:
            _append(self.items, (HOTKEY, (data.get("combo") or "", 1)))
        elif kind in (CLIPBOARD, WEB, IDLE, CONTROL):
            self.items.append((kind, data))

    def _type(self, data: dict[str, Any]) -> None:
        """A TEXT event: it continues the line being typed (in the same piece when nothing happened since), or
        ends it (Enter, or the field's text ends); a hidden line replaces whatever was shown of it."""
        if data.get("hidden"):
            for piece in self.line:  # pieces stored before the line was known to be hidden are not shown
                piece.text = ""
            self.line = []
            self.lines += 1
            self.items.append((TEXT, _Typed(self.lines, enter=True, hidden=str(data["hidden"]),
                                            count=_count(data.get("count")))))
            return
        line = self.line
        if not line:
            self.lines += 1
        if line and self.items[-1][1] is line[-1]:  # nothing happened since: the same piece goes on
            piece = line[-1]
        else:
            piece = _Typed(self.lines)
            line.append(piece)
            self.items.append((TEXT, piece))
        erase = data.get("erase")
        if erase:
            self._erase(int(erase))
        piece.text += data.get("text") or ""
        if data.get("enter") or (data.get("end") and any(p.text for p in line)):
            piece.enter = bool(data.get("enter"))
            self.line = []

    def _erase(self, n: int) -> None:
        """Backspace: from the end of the line being typed, reaching into a piece typed before a click."""
        for piece in reversed(self.line):
            cut = min(n, len(piece.text))
            piece.text, n = piece.text[: len(piece.text) - cut], n - cut
            if n <= 0:
                return

    def render(self, end: float | None) -> Episode:
        where = place(self.app, self.title)
        out: list[str] = []
        if self.private:
            out.append("The user works in a private window (not recorded).")
        elif self.app:
            out.append(switch_sentence(self.app, self.title, where))
        out.extend(_sentence(item, where, self.terminal) for item in _bounded(self._told(where), where))
        end_ts = max(self.last_ts, end if end is not None else self.last_ts)
        return Episode(start=self.start, end=end_ts, app=self.app, title=self.title, first_raw_id=self.first_id,
                       last_raw_id=self.last_id, private=self.private, sentences=out)

    def _told(self, where: str) -> list[_Item]:
        """The items worth a sentence (one each), in time order, with typing turned into what is said of it:
        the first MAX_LINES lines are quoted, later ones counted ("more lines"); pieces left empty (erased,
        hidden) drop out, and what they separated merges again (two runs of clicks become one)."""
        quoted: set[int] = set()
        told: list[_Item] = []
        for item in self.items:
            kind, value = item
            said: _Item | None = item
            if kind == TEXT:
                said = _typed_item(value, quoted)
            elif kind not in (CLICK, SCROLL, HOTKEY):
                sentence = _item_sentence(kind, value, where)
                said = ("said", sentence) if sentence else None
            if said is not None:
                _append(told, said)
        return [item for item in told if item != (SCROLL, (0, 0))]  # a scroll back and forth says nothing


def _count(value: Any) -> int:
    """A hidden line's character count as stored (an int; anything else counts nothing)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _typed_item(piece: _Typed, quoted: set[int]) -> _Item | None:
    """What one typed piece says: a hidden line, a quoted piece (its line among the first MAX_LINES quoted),
    a line beyond those (counted), the Enter that ends a line whose text was told before, or nothing."""
    if piece.hidden == UNOBSERVED:
        return ("unobserved", piece.count) if piece.count else None
    if piece.hidden:
        return ("hidden", piece.hidden)
    if piece.text.strip():
        if piece.line in quoted or len(quoted) < MAX_LINES:
            quoted.add(piece.line)
            return ("typed", (piece.text, piece.enter))
        return ("more", frozenset((piece.line,)))
    if piece.enter and piece.line in quoted:
        return ("enter", None)
    return None


def _bounded(told: list[_Item], where: str) -> list[_Item]:
    """At most MAX_SENTENCES items: the first ones and the latest ones, in order, and how many were left out
    between. Why: an episode is one observation of the model's prompt, whose budget is a few hundred tokens;
    only the kept ones are rendered."""
    if len(told) <= MAX_SENTENCES:
        return told
    tail = MAX_SENTENCES - HEAD_SENTENCES - 1
    left_out = len(told) - HEAD_SENTENCES - tail
    return [*told[:HEAD_SENTENCES], ("said", f"The user does {plural(left_out, 'more thing')} in {where}."),
            *told[-tail:]]


def _append(items: list[_Item], item: _Item) -> None:
    """Add `item` after the last one, or merge the two when they are one thing that went on: clicks, a scroll
    gesture, the same hotkey pressed again, lines typed beyond the quoted ones."""
    last = items[-1] if items else None
    if last is None or last[0] != item[0]:
        items.append(item)
        return
    kind, (was, new) = item[0], (last[1], item[1])
    if kind == CLICK:
        items[-1] = (CLICK, {b: was.get(b, 0) + new.get(b, 0) for b in {**was, **new}})
    elif kind == SCROLL:
        items[-1] = (SCROLL, (was[0] + new[0], was[1] + new[1]))
    elif kind == HOTKEY and was[0] == new[0]:
        items[-1] = (HOTKEY, (was[0], was[1] + new[1]))
    elif kind == "more":
        items[-1] = ("more", was | new)
    elif kind == "unobserved":
        items[-1] = ("unobserved", was + new)
    else:
        items.append(item)


def switch_sentence(app: str, title: str, where: str) -> str:
    """The focus change. A browser's title is all we know of its page when no ActivityWatch extension reports
    URLs, so it is kept whole: a search engine's result page becomes the search ("searches on Google for
    'requests timeout'"), any other page is quoted as the page viewed."""
    if where == "the terminal":
        return f"The user switches to the terminal ('{quote(title, 80)}')." if title else "The user switches to the terminal."
    if BROWSER_APP.search(app) and title:
        parts = [p.strip() for p in TITLE_SEPARATORS.split(title) if p.strip()]
        if parts and BROWSER_APP.search(parts[-1]):
            parts = parts[:-1]  # "... - Mozilla Firefox"
        if len(parts) >= 2 and parts[-1] in SEARCH_TITLES:
            query = " - ".join(parts[:-1])
            return f"The user switches to {app} and searches on {SEARCH_TITLES[parts[-1]]} for '{quote(query, 80)}'."
        at = SEARCH_AT_TITLE.match(" - ".join(parts))
        if at:  # DuckDuckGo's own form: "how to split a string at DuckDuckGo"
            return f"The user switches to {app} and searches on {at['engine']} for '{quote(at['query'], 80)}'."
        if parts:
            return f"The user switches to {app} and views the page '{quote(' - '.join(parts), 80)}'."
    return f"The user switches to {where}."


def hotkey_sentence(combo: str, n: int, where: str, terminal: bool = False) -> str:
    """A hotkey with what it does there. In a terminal emulator the program in it gets Ctrl+letter (Ctrl+C
    interrupts, Ctrl+Z suspends) and the emulator's own shortcuts add Shift (copy is Ctrl+Shift+C), so the
    applications' meanings do not apply: a combo a terminal gives no fixed meaning is named bare."""
    if combo in EX_COMMANDS:  # an editor's command line said as what it does (watcher/privacy/editor_keys.py)
        return f"The user {EX_COMMANDS[combo]} ({combo}) in {where}."
    name = "+".join(p.capitalize() if len(p) > 1 else p.upper() for p in combo.split("+"))
    meaning = (TERMINAL_HOTKEY_MEANINGS if terminal else HOTKEY_MEANINGS).get(combo)
    what = f"{name} ({meaning})" if meaning else name
    times = f" {n} times" if n > 1 else ""
    return f"The user presses {what}{times} in {where}."


def _sentence(item: _Item, where: str, terminal: bool) -> str:
    """The sentence of one item of `_Span._told`."""
    kind, value = item
    if kind == "typed":
        text, entered = value
        return f"The user types '{quote(text)}'{' and presses Enter' if entered else ''} in {where}."
    if kind == "more":
        return f"The user types {plural(len(value), 'more line')} in {where}."
    if kind == "enter":
        return f"The user presses Enter in {where}."
    if kind == "unobserved":
        return (f"The user types {plural(value, 'character')} in {where} (not recorded: the application does not "
                f"say whether the field is a password field).")
    if kind == "hidden":
        if value == UNSEEN:
            return (f"The user types a line that is not recorded (the terminal's echo cannot be seen) in "
                    f"{where}.")
        return f"The user enters a password (hidden) in {where}."
    if kind == HOTKEY:
        return hotkey_sentence(value[0], value[1], where, terminal)
    if kind == CLICK:
        parts = [f"{'clicks' if b == 'left' else b + '-clicks'} {plural(n, 'time')}" if n > 1 else
                 ("clicks" if b == "left" else f"{b}-clicks") for b, n in value.items()]
        return f"The user {' and '.join(parts)} in {where}."
    if kind == SCROLL:  # one gesture, one sentence, whichever ways it went
        down, right = value
        ways = [f"{'down' if down > 0 else 'up'} ({plural(abs(down), 'step')})"] if down else []
        if right:
            ways.append(f"{'right' if right > 0 else 'left'} ({plural(abs(right), 'step')})")
        return f"The user scrolls {' and '.join(ways)} in {where}."
    return value  # "said": rendered already














def _item_sentence(kind: str, data: dict[str, Any], where: str) -> str | None:
    """A copy, a selection, a page, an idle period or a pause as a sentence; None when there is nothing to say (an
    empty copy)."""
    if kind == CLIPBOARD:
        return _copy_sentence(data, where)
    if kind == WEB:
        return web_sentence(data)
    if kind == IDLE:
        if data.get("state") == "active":
            return f"The user comes back after being away for {duration(float(data.get('seconds') or 0))}."
        return "The user stops using the computer (idle)."
    if kind == CONTROL:
        return "Capture is paused by the user." if data.get("state") == "paused" else "Capture resumes."
    return None


def _copy_sentence(data: dict[str, Any], where: str) -> str | None:
    """A copy ("The user copies '…' from the terminal.") or a text selected with the mouse, the PRIMARY selection
    ("The user selects '…' in the terminal."): the same words for what it holds, an error quoted by its lines."""
    act = "selects" if data.get("selection") == "primary" else "copies"
    at = f"in {where}" if act == "selects" else f"from {where}"
    if data.get("private"):  # its owner marked it a secret (a password manager), or it is one: never read
        return f"The user {act} a secret {at}."
    text = data.get("text") or ""
    if not text.strip():
        return f"The user {act} a large piece of content {at}." if data.get("truncated") else None
    lines = [ln for ln in text.splitlines() if ln.strip()] or [text]
    if ERROR_HINT.search(text):
        # a traceback names its error on its last line, and other tools end with what is left to choose
        # ("available binaries: migrate, server"): quoted too, unless it only says where a log is
        last = lines[-1].strip()
        ends = len(lines) > 1 and not LOG_POINTER.search(last)
        ending = f" and ending '{quote_ends(last)}'" if ends else ""
        saying = "".join(f", saying '{quote_ends(line)}'"
                         for line in key_lines(lines[1:-1] if ends else lines[1:], lines[0]))
        return f"The user {act} an error message starting '{quote_ends(lines[0])}'{saying}{ending} {at}."
    # a terminal's line is a message, whose cause or next step is often at its end ("… Run 'systemctl
    # daemon-reload' to reload units."): its start and end, as an error's lines
    return f"The user {act} '{quote_ends(text) if where == 'the terminal' else quote(text, 80)}' {at}."


def web_sentence(data: dict[str, Any]) -> str:
    """A page visit as a sentence; a search engine results page becomes 'searches on Google for ...'."""
    url = data.get("url") or ""
    title = data.get("title") or ""
    browser = data.get("browser") or "the browser"
    parsed = urlparse(url)
    engine = SEARCH_HOSTS.get(parsed.hostname or "")
    if engine:
        query = (parse_qs(parsed.query).get("q") or [""])[0]
        if query:
            return f"The user searches on {engine} for '{quote(query, 80)}' in {browser}."
    host = (parsed.hostname or "").removeprefix("www.")
    label = f"'{quote(title, 80)}'" if title else "a page"
    return f"The user visits {label}{f' on {host}' if host else ''} in {browser}."
