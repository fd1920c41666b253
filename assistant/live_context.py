"""The assistant's context: the recent episodes as observations, with the texts copied in them and the pages
visited, built forward from what the watcher hands over as it writes (`LiveContext`), or from the database for
a moment of the past (`stored_context`: a stored proposal's Accept) and once at start (the history before it).

One assembly (`assemble`) for both: an observation per episode, the whole texts copied in the last few, and
the pages visited in each. Why forward: the episode text was rendered, stored, read back and rebuilt from raw
events at every trigger; now the watcher's own rendering reaches the popup, and the database is read only for
what happened before the assistant started. What a purge or retention removes from the database leaves this
memory too (`forget`: the watcher calls it before it answers the purge), and so does an episode deleted in
the privacy view (`forget_episode`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence

from proactive.models.base import Observation, Page
from proactive.watcher.episodes.builder import Episode, build_episodes
from proactive.watcher.events import CLIPBOARD, WEB, RawEvent
from proactive.watcher.store.database import Store

from .sentence_patterns import RECENT

#: an episode that says a copy, or a text selected with the mouse (the PRIMARY selection: stored as a copy)
COPY_SAID = re.compile(r"copies|selects")
COPIES_PER_EPISODE = 4  # the last texts copied in an episode read in full (its sentences quote only the ends)
PAGES_IN_CONTEXT = 200  # the last pages visited that the context carries


def observation_at(start: float, event: str) -> Observation:
    """An episode (its start, epoch seconds, and its sentences) as an observation: the one place its format is
    made for the assistant, whether the episode comes from the watcher, the database or is still open."""
    return Observation(time=f"{start:.3f}", event=event)


def assemble(spans: Sequence[Episode], copies: Callable[[int, int], list[str]],
             visits: Sequence[tuple[int, str, str]]) -> list[Observation]:
    """The observations of `spans`, oldest first: the last RECENT that say a copy carry the whole texts copied
    in them (`copies(first raw id, last raw id)`: the errors offers can be about), and each carries the pages
    visited in it (`visits`: raw id, url, title; the material of page help)."""
    obs = [observation_at(s.start, s.event) for s in spans]
    for o, s in list(zip(obs, spans, strict=True))[-RECENT:]:
        if COPY_SAID.search(o["event"]):
            found = copies(s.first_raw_id, s.last_raw_id)
            if found:
                o["copies"] = found
    for o, s in zip(obs, spans, strict=True):
        here = [Page(url=url, title=title) for rid, url, title in visits if s.first_raw_id <= rid <= s.last_raw_id]
        if here:
            o["pages"] = here
    return obs


def stored_episodes(store: Store, n: int, until_episode: int | None = None) -> list[Episode]:
    """The last `n` stored episodes (those up to id `until_episode` when given), as Episodes with their ids."""
    rows = store.episodes()
    if until_episode is not None:
        rows = [r for r in rows if r["id"] <= until_episode]
    return [Episode(start=r["start"], end=r["end"], app=r["app"], title=r["title"], first_raw_id=r["first_raw_id"],
                    last_raw_id=r["last_raw_id"], sentences=[r["event"]], id=r["id"]) for r in rows[-n:]]


def stored_context(store: Store, n: int, at: tuple[int | None, int]) -> list[Observation]:
    """The context of an earlier moment, rebuilt from the database: `at` is (the last closed episode's id, the
    newest raw event id) then (a stored proposal's `at`); what was purged since is gone."""
    episode_id, until = at
    closed = stored_episodes(store, n, episode_id) if episode_id is not None else []
    after = closed[-1].last_raw_id if closed else 0
    tail = build_episodes((rid, e) for rid, e in store.iter_events(after_id=after) if rid <= until)
    spans: list[Episode] = [*closed, *tail][-n:]
    if not spans:
        return []
    return assemble(spans, store.copies, store.pages(spans[0].first_raw_id, spans[-1].last_raw_id))


class LiveContext:
    """The recent episodes and what was copied and visited in them, handed forward by the watcher (`closed`,
    `written`) from its thread and read by the assistant's (`recent`). At its first reading it takes what the
    database already holds (`prime`: the history before the assistant started, or a store filled by hand)."""

    def __init__(self, keep: int = 30):
        self.keep = keep  # episodes held: at least the context's length
        self._lock = threading.Lock()
        self._primed = False
        self._closed: list[Episode] = []
        self._open: Episode | None = None
        self._copies: list[tuple[int, float, str]] = []  # (raw id, time, text)
        self._pages: list[tuple[int, float, str, str]] = []  # (raw id, time, url, title)
        self._newest = 0  # the newest raw event id taken

    # -- from the watcher's thread -----------------------------------------------------------------------------

    def closed(self, episode: Episode) -> None:
        """An episode stored (with its id)."""
        with self._lock:
            self._add_closed([episode])

    def written(self, stored: Iterable[tuple[int, RawEvent]], open_episode: Episode | None) -> None:
        """A batch written (raw ids and events), and the episode still open as it stands now."""
        with self._lock:
            self._take(stored)
            self._open = open_episode

    def forget(self, before: float | None) -> None:
        """What a purge or retention removed: everything before `before` (epoch s; None: everything), by the
        database's own rules (an episode goes once it ended before it, a raw event once it happened before it)."""
        with self._lock:
            if before is None:
                self._closed, self._open, self._copies, self._pages = [], None, [], []
                return
            self._closed = [e for e in self._closed if e.end >= before]
            self._copies = [c for c in self._copies if c[1] >= before]
            self._pages = [p for p in self._pages if p[1] >= before]

    def forget_episode(self, episode_id: int) -> None:
        """An episode deleted (the privacy view), with what was copied and visited in it."""
        with self._lock:
            gone = [e for e in self._closed if e.id == episode_id]
            self._closed = [e for e in self._closed if e.id != episode_id]
            for e in gone:
                self._copies = [c for c in self._copies if not e.first_raw_id <= c[0] <= e.last_raw_id]
                self._pages = [p for p in self._pages if not e.first_raw_id <= p[0] <= e.last_raw_id]

    # -- from the assistant's thread --------------------------------------------------------------------------

    def prime(self, store: Store) -> None:
        """Take what the database holds already (once): the last episodes stored, those a watcher left open (built
        from its raw events: the last is the open one) and the copies and pages in them. What the watcher handed
        over meanwhile is kept (by id, not twice)."""
        closed = stored_episodes(store, self.keep)
        after = closed[0].first_raw_id - 1 if closed else 0
        events = list(store.iter_events(after_id=after))
        last = closed[-1].last_raw_id if closed else 0
        tail = build_episodes((rid, e) for rid, e in events if rid > last)
        with self._lock:
            if self._primed:
                return
            self._primed = True
            known = {e.id for e in self._closed}
            # (the last of those built from raw events is the open one: the watcher's own, when it handed one over)
            self._closed = sorted([*(e for e in closed if e.id not in known), *tail[:-1], *self._closed],
                                  key=lambda e: e.first_raw_id)[-self.keep:]
            taken = {c[0] for c in self._copies} | {p[0] for p in self._pages}
            newest = self._newest
            self._take((rid, e) for rid, e in events if rid not in taken)
            self._newest = max(newest, self._newest)
            if self._open is None and tail:
                self._open = tail[-1]
            self._trim()

    def recent(self, store: Store, n: int, upto: int | None = None) -> tuple[list[Observation], int | None, int]:
        """The last `n` observations (closed episodes plus the one still open), the last closed episode's id and
        the newest raw event id (the context's identity). `upto`, a moment's raw event id: the context of that
        moment, the episodes up to the one it happened in (as that one stands now), without those after it."""
        if not self._primed:
            self.prime(store)
        with self._lock:
            spans = [s for s in self._spans() if upto is None or s.first_raw_id <= upto][-n:]
            closed = [s for s in spans if s is not self._open]
            copies, pages = list(self._copies), [(rid, url, title) for rid, _, url, title in self._pages]
        newest = spans[-1].last_raw_id if spans else 0
        episode_id = next((e.id for e in reversed(closed) if e.id is not None), None)  # the last one stored

        def copied(first: int, last: int) -> list[str]:
            return [text for rid, _, text in copies if first <= rid <= last][-COPIES_PER_EPISODE:]

        return assemble(spans, copied, pages[-PAGES_IN_CONTEXT:]), episode_id, newest

    def moved_since(self, raw_id: int) -> bool:
        """Whether the person is in another episode than the one raw event `raw_id` happened in (a later one)."""
        with self._lock:
            spans = self._spans()
        return bool(spans) and spans[-1].first_raw_id > raw_id

    # -- under the lock ----------------------------------------------------------------------------------------

    def _spans(self) -> list[Episode]:
        """The episodes held, oldest first: the closed ones, then the open one unless it closed since (its stored
        copy is then the last closed one)."""
        open_episode = self._open
        if open_episode is not None and self._closed and open_episode.first_raw_id <= self._closed[-1].last_raw_id:
            open_episode = None
        return [*self._closed, *([open_episode] if open_episode is not None else [])]


    def _take(self, stored: Iterable[tuple[int, RawEvent]]) -> None:
        for rid, event in stored:
            self._newest = max(self._newest, rid)
            text = event.data.get("text")
            if event.kind == CLIPBOARD and isinstance(text, str) and text.strip():
                self._copies.append((rid, event.ts, text))
            url = event.data.get("url")
            if event.kind == WEB and isinstance(url, str) and url and not event.data.get("incognito"):
                self._pages.append((rid, event.ts, url, str(event.data.get("title") or "")))
        self._trim()

    def _add_closed(self, episodes: Iterable[Episode]) -> None:
        known = {e.id for e in self._closed}
        self._closed.extend(e for e in episodes if e.id is None or e.id not in known)
        self._closed = self._closed[-self.keep:]
        self._trim()

    def _trim(self) -> None:
        """What is copied and visited is kept only as far back as the oldest episode held."""
        spans = [*self._closed, *([self._open] if self._open is not None else [])]
        if spans:
            oldest = min(s.first_raw_id for s in spans)
            self._copies = [c for c in self._copies if c[0] >= oldest]
            self._pages = [p for p in self._pages if p[0] >= oldest]
