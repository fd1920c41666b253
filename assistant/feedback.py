"""Feedback memory: what the user did with recent proposals, so the assistant learns within the day.

- A task similar to one the user rejected (or ignored) is not proposed again during a cooling-off period.
- A task similar to one the user accepted is not proposed again (it was done), when its Accept gave something
  (`help.gave`): help that gave nothing (no page could be read, a failure) is not help given, and an offer that
  can give it (once the person has read a page) is still made; the very same offer is not made again within the
  ignore cooldown (its Accept would give nothing again).
- Recent decisions are also written into the prompt, so the model sees what was unwelcome.
Similarity is word overlap (Jaccard on content words, Chinese by pairs of characters) or near-identical text:
cheap, deterministic, and good enough for "the same offer in other words" from a small model. Offers that quote
what they are about (every grounded offer: "Summarise the top results for '...'") are compared by what they quote
only: "Show example code for 'how to split a string in ruby'" is another offer than the same template about 'how
to capitalize a name in ruby' (and Chinese quotes are not all alike), while "Summarise the top results for 'X'" is
held back with an ignored "Show example code for 'X' to use in f.py" (help about X was not wanted just now).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from difflib import SequenceMatcher

from proactive.models.signals import words

from .person_model import FEWER, PersonModel, Situation
from .sentence_patterns import QUOTED

ACCEPTED, REJECTED, IGNORED, SNOOZED = "accepted", "rejected", "ignored", "snoozed"
#: decisions after which a proposal is never shown or decided again (a snoozed one comes back); FEWER ("Fewer like
#: this", from person_model) is a rejection the person model weighs more, and "Not this kind" is stored as it, with
#: the kind muted (`person_store.save_muted`)
FINAL = frozenset({ACCEPTED, REJECTED, IGNORED, FEWER})
DECISIONS = (ACCEPTED, REJECTED, IGNORED, SNOOZED, FEWER)
SHOWN_KEPT = 200  # offers shown and not decided yet, remembered for the person model (headless: often never)


@dataclass
class Decision:
    task: str
    decision: str
    ts: float
    gave: bool = True  # an accepted one: whether its Accept gave something (else it holds nothing back)


CJK = re.compile(r"[\u3400-\u9fff]+")


def tokens(text: str) -> set[str]:
    """Content words, and each pair of adjacent Chinese characters (a lone character counts alone)."""
    out = words(text)
    for run in CJK.findall(text):
        out |= {run[i:i + 2] for i in range(max(1, len(run) - 1))}
    return out


def _alike(a: str, b: str, threshold: float) -> bool:
    ta, tb = tokens(a), tokens(b)
    if ta and tb and len(ta & tb) / len(ta | tb) >= threshold:
        return True
    return SequenceMatcher(None, a.lower(), b.lower()).ratio() >= 0.8


def quoted(task: str) -> str:
    """What the task quotes."""
    return " | ".join(next(g for g in m.groups() if g is not None) for m in QUOTED.finditer(task))


def naming(name: str, like: str = "") -> str:
    """A task that names only `name`, worded as the offer `like` up to its first quote (so of its kind of help,
    `same_help`): the memory holds it back exactly when it holds back such help about `name` (an offer about a
    page opened from a search is held back with help on that search: it drew on the same pages)."""
    return f"{like.split(chr(39), 1)[0]}'{name}'"


INNER = re.compile(r"’([^’]+)’")  # a name quoted inside a quoted object (short() turns its quotes into ’)


def similar(a: str, b: str, threshold: float = 0.5) -> bool:
    qa, qb = quoted(a), quoted(b)
    if qa and qb:  # offers about named things: unwelcome help about a thing makes other help about it unwelcome too
        na, nb = set(INNER.findall(qa)), set(INNER.findall(qb))
        if na and nb and not na & nb:  # "No module named ’numpyy’" and "… ’reqeusts’": two different errors
            return False
        return _alike(qa, qb, threshold)
    return _alike(a, b, threshold)


def _same(a: str, b: str) -> bool:
    """The same offer, word for word (case and spacing aside)."""
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


#: an offer of code (a page's or the results' code examples, for a file): `candidates.ACTIONS` page_code...
GIVES_CODE = re.compile(r"^Show (?:the \d+ |the )?(?:code examples?|example code)\b", re.I)
#: an offer of notes for the person's document (`candidates.ACTIONS` page_notes...)
GIVES_NOTES = re.compile(r"^Collect notes\b", re.I)


def help_kind(task: str) -> str:
    """What an offer's Accept hands over: code for a file, notes for a document, or the thing itself explained
    (key points, an error's next step or explanation)."""
    return "code" if GIVES_CODE.match(task) else "notes" if GIVES_NOTES.match(task) else "about"


def same_help(a: str, b: str) -> bool:
    """Whether two offers about the same thing give the same help: after an accepted one, the code for a file
    and notes for a document are still offered after a page's key points (each is the page put to another use);
    help of the same kind about the same thing again is not (an explanation after the error's next step)."""
    return help_kind(a) == help_kind(b)


def follows(task: str, taken: str) -> bool:
    """Whether `task` builds on the accepted offer `taken`: another kind of help, about the same thing or putting
    what the person reads to use (code for their file, notes for their document: drawn from the page read last
    or the search made, which the offer may name by its query where the one taken named the page's title)."""
    return not same_help(task, taken) and (similar(task, taken) or help_kind(task) != "about")


class FeedbackMemory:
    def __init__(self, reject_cooldown_s: float = 1800.0, ignore_cooldown_s: float = 600.0,
                 accept_memory_s: float = 86400.0, prompt_items: int = 5):
        self.cooldown = {REJECTED: reject_cooldown_s, FEWER: reject_cooldown_s, IGNORED: ignore_cooldown_s,
                         SNOOZED: ignore_cooldown_s, ACCEPTED: accept_memory_s}
        self.prompt_items = prompt_items
        self.decisions: list[Decision] = []
        #: what is learned about the person (`person_model`), from the decisions on the offers shown
        self.person = PersonModel()
        #: the offers shown and not yet decided: their shared P(accept) and situation, for the person model
        self.shown: dict[str, tuple[float, Situation]] = {}

    def offered(self, task: str, shared: float, situation: Situation) -> None:
        """An offer shown (`decision.decide`): the person model learns from the first decision recorded on it."""
        self.shown[task] = (shared, situation)
        for old in list(self.shown)[:-SHOWN_KEPT]:
            del self.shown[old]

    def relearn(self, person: PersonModel) -> None:
        """What is learned about the person replaced: loaded from the store at start, rebuilt from the decisions
        kept (a decision replaced, retention). Its explore chances are kept."""
        person.explore, person.explore_floor = self.person.explore, self.person.explore_floor
        self.person = person

    def forget_person(self) -> None:
        """Forget what was learned (Reset, a full purge), and the offers shown before: not learned from either."""
        self.person.reset()
        self.shown.clear()

    def record(self, task: str, decision: str, ts: float | None = None, gave: bool = True,
               learn: bool = True) -> None:
        """A decision on `task`; `gave`: for an accepted one, whether its Accept gave something. `learn` False: a
        provisional decision (headless, an offer shown is ignored until `proactive decide` says otherwise) holds
        the offer back like any, and the person model waits for the final one."""
        if decision not in DECISIONS:
            raise ValueError(f"unknown decision {decision!r}")
        self.decisions.append(Decision(task, decision, time.time() if ts is None else ts, gave))
        offer = self.shown.pop(task, None) if learn else None
        if offer is not None:
            self.person.learn(*offer, decision, self.decisions[-1].ts)
        horizon = max(self.cooldown.values())
        now = self.decisions[-1].ts
        self.decisions = [d for d in self.decisions if now - d.ts <= horizon]

    def blocked(self, task: str, now: float | None = None) -> Decision | None:
        """The earlier decision that forbids proposing `task` now, if any."""
        now = time.time() if now is None else now
        for d in reversed(self.decisions):
            if now - d.ts >= self.cooldown[d.decision]:
                continue
            if d.gave and similar(task, d.task) and (d.decision != ACCEPTED or same_help(task, d.task)):
                return d
            if not d.gave and now - d.ts < self.cooldown[IGNORED] and _same(task, d.task):
                return d  # the very offer whose Accept just gave nothing: it would give nothing again
        return None

    def taken_since(self, since: float) -> str | None:
        """The offer accepted (and whose Accept gave something) at or after `since`, the latest, if any."""
        return next((d.task for d in reversed(self.decisions)
                     if d.ts >= since and d.decision == ACCEPTED and d.gave), None)

    def allowed(self, candidates: list[str], now: float | None = None) -> list[str]:
        return [c for c in candidates if self.blocked(c, now) is None]

    def prompt_lines(self, now: float | None = None) -> list[str]:
        now = time.time() if now is None else now
        recent = [d for d in self.decisions if now - d.ts < self.cooldown[d.decision]][-self.prompt_items:]
        return [f"{d.decision}: {d.task}" for d in recent]
