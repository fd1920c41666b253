"""The person's own history as help: the earlier times they met the task's subject, read from their episodes
(SQLite FTS5, `Store.search_episodes`), each told with what they did next; and whether there is any
(`recalled`), which decides whether a history offer is made at all.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from proactive.models.base import Observation
from proactive.watcher.episodes.builder import place
from proactive.watcher.store import crypto
from proactive.watcher.store.database import Store, StoreError

from .grounding import Obj

MAX_HISTORY = 3


VISIT_GAP_S = 1800.0  # matches closer than this to a newer one are the same visit, told once


RECALL_CHARS = 40  # the subject's leading text looked up in the history: earlier quotes may be cut differently


#: what reading the history raises: the store's errors, or either SQLite driver's (plain or SQLCipher)
# a named tuple of classes, not `except (A, *B)`: mypy cannot type an unpacking inside an except clause
_UNREADABLE: tuple[type[Exception], ...] = (StoreError, *crypto.Error)


def history_before(context: Sequence[Observation]) -> float:
    """Where the person's history ends for this context: before its first event (what is on screen now is not
    an earlier time)."""
    starts = [float(o["time"]) for o in context if o.get("time")]
    return min(starts, default=time.time()) - 1.0  # times are rounded: keep the first episode out too


def recalled(store: Store, obj: Obj, before: float) -> bool:
    """Whether `store` holds an earlier mention of `obj`, i.e. whether a history offer would show something
    (the same search as `recall`, one row; an unreadable store recalls nothing)."""
    try:
        return bool(store.search_episodes(recall_text(obj), before, limit=1))
    except _UNREADABLE:
        return False


def recall(text: str, before: float, db: Path | str | None = None) -> list[str]:
    """One sentence per earlier visit where the person met `text` (newest first), with what they did next."""
    store = Store(db, readonly=True)
    try:
        matches = store.search_episodes(text, before)
    finally:
        store.close()
    lines: list[str] = []
    visit_start: float | None = None
    for e in matches:
        same_visit = visit_start is not None and visit_start - e["end"] < VISIT_GAP_S
        visit_start = e["start"]
        if same_visit:
            continue
        did = did_next(e, text)
        if did:
            then = "; then you " + ", ".join(did[:-1]) + (" and " if len(did) > 1 else "") + did[-1]
        else:
            then = f", then went to {place(e['next']['app'], e['next']['title'])}" if e["next"] else ""
        when = datetime.fromtimestamp(e["start"])
        lines.append(f"You met this on {when:%A} {when.day} {when:%b} at {when:%H:%M} in "
                     f"{place(e['app'], e['title'])}{then}.")
        if len(lines) == MAX_HISTORY:
            break
    return lines


SENTENCE_START = re.compile(r"(?<=[.!?])\s+(?=The user\b)")


#: what the person did after meeting the subject, read from our own episode sentences (watcher/episodes/builder.py), the
#: history's only source: (pattern, how the recall says it)
DID: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"types '(?P<x>.+)' and presses Enter in the terminal"), "ran '{x}'"),
    (re.compile(r"types '(?P<x>.+)'(?: and presses Enter)? in (?P<where>.+?)\.$"), "typed '{x}' in {where}"),
    (re.compile(r"searches on [\w ]+ for '(?P<x>.+)'"), "searched for '{x}'"),
    (re.compile(r"views the page '(?P<x>.+?)(?: - [^-']+)?'"), "read '{x}'"),
)
MAX_DID = 3


def did_next(episode: dict[str, Any], text: str) -> list[str]:
    """What the person did after meeting `text` in an earlier episode: the commands they ran, what they typed
    where, the searches and pages, from the rest of that episode and the one that followed (their own earlier
    fix is often the best help). At most MAX_DID, in the order done."""
    event = episode["event"]
    at = event.lower().find(text.lower())
    rest = event[at + len(text):] if at >= 0 else ""
    rest = rest[rest.find(". The user") + 2:] if ". The user" in rest else ""
    sentences = SENTENCE_START.split(rest) if rest else []
    if episode.get("next"):
        sentences += SENTENCE_START.split(episode["next"]["event"])
    did: list[str] = []
    for sentence in sentences:
        for pattern, said in DID:
            m = pattern.search(sentence)
            if m:
                item = said.format(**m.groupdict())
                if item not in did:
                    did.append(item)
                break
        if len(did) >= MAX_DID:
            break
    return did


def first_line(obj: Obj) -> str:
    """The object's text up to its first line break, without the ellipsis of a cut quote."""
    return obj.text.splitlines()[0].rstrip("…").strip()


def recall_text(obj: Obj) -> str:
    """The leading words of the object's first line: what earlier mentions of it most likely share."""
    text = first_line(obj)
    if len(text) > RECALL_CHARS:
        text = text[:RECALL_CHARS].rsplit(" ", 1)[0]
    return text
