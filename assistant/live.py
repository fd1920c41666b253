"""The live loop: the watcher's episodes and activity drive the trigger policy and the context (handed forward:
assistant/live_context.py); at each trigger the agent reads the recent episodes and proposes, the gate and the
feedback memory decide, and every decision (shown or silent) becomes a row in `proposals`.

Threads: the watcher's pipeline calls `on_episode`/`on_events`/`forget` (cheap: they update the trigger and the
context and wake the worker); the worker thread owns the model, its own database connection and all decisions.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proactive.models.base import Observation
from proactive.watcher.episodes.builder import Episode
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
from proactive.watcher.store.database import Store

from . import person_store
from .agent import Agent, Prediction
from .candidates import HEADLINES
from .decision import Decision, decide, moment_errors, silent
from .feedback import ACCEPTED, IGNORED, FeedbackMemory
from .help import gave
from .live_context import LiveContext, stored_context
from .material import BrowserPage, Source, live_source
from .pages import PageReader
from .policy import Gate, Proactivity
from .proposals import ProposalLog
from .recall import history_before, recalled
from .screen import ScreenReader, with_screen
from .trigger import Pace, TriggerPolicy

log = logging.getLogger(__name__)
WORDS = re.compile(r"\w+")  # the words of typed text, for the burst


Moment = tuple[int | None, int]  # a context's identity: the last closed episode's id, the newest raw event id


@dataclass
class Proposal:
    """A decision of the live assistant: `task` None means it stayed silent. What its readers need is typed here
    (the popup, Accept, the headless JSON line); the whole decision is stored with it as JSON (`ProposalLog`), and
    a stored one comes back through `from_row`."""

    id: int
    ts: float
    task: str | None
    response: str
    score: float | None
    trigger: str
    actions: dict[str, str] = field(default_factory=dict)  # each offer's grounded action: what Accept does
    candidates: list[str] = field(default_factory=list)
    latency_s: float | None = None
    at: Moment | None = None  # the moment it was made at, for an Accept from the stored row
    decision: Decision | None = field(default=None, repr=False, compare=False)  # live: the whole decision
    # the observations the offer was made from: Accept acts on them, not on whatever is on screen by then
    context: list[Observation] = field(default_factory=list, repr=False, compare=False)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Proposal:
        """A stored proposal (`ProposalLog.get`: its `data` parsed), read at this edge; a field a damaged or older
        row lacks is left empty (no moment: Accept uses the current context)."""
        data = row.get("data") or {}
        actions = data.get("actions")
        at = data.get("at")
        latency = data.get("latency_s")
        return cls(row["id"], row["ts"], row["task"], row.get("response") or "", row.get("score"),
                   str(data.get("trigger") or ""),
                   actions={k: v for k, v in actions.items() if isinstance(v, str)} if isinstance(actions, dict)
                   else {},
                   candidates=[c for c in data.get("candidates") or [] if isinstance(c, str)],
                   latency_s=float(latency) if isinstance(latency, int | float) else None,
                   at=(at[0] if isinstance(at[0], int) else None, at[1])
                   if isinstance(at, list) and len(at) == 2 and isinstance(at[1], int) else None)

    @property
    def headline(self) -> str:
        """The popup's heading: what kind of help this is in a few words (`candidates.HEADLINES`), or the task when
        the offer is a capable model's own; the message (`response`) says the rest."""
        action = self.actions.get(self.task or "")
        return (HEADLINES.get(action or "") if self.response else None) or self.task or ""

    @property
    def body(self) -> str:
        """The popup's text under the heading: the message (nothing when it only repeats the heading)."""
        return "" if self.response.strip() == self.headline.strip() else self.response

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "time": f"{self.ts:.3f}", "task": self.task, "response": self.response,
                "score": self.score, "trigger": self.trigger, "candidates": self.candidates,
                "latency_s": self.latency_s}


def recent_context(store: Store, n: int = 30) -> tuple[list[Observation], int | None, int]:
    """The last `n` observations in the database (closed episodes plus the one still open), the last closed
    episode's id and the newest raw event id: the context of another process's watcher (the live assistant's
    own is handed forward: `Assistant.context`)."""
    return LiveContext(n).recent(store, n)


def offer_context(store: Store, proposal: Proposal) -> list[Observation]:
    """The context an offer was made from, for its Accept: the live proposal's own observations, or a stored
    proposal's moment (`at`) rebuilt from the store. A proposal stored before moments were recorded gets the
    current context."""
    if proposal.context:
        return proposal.context
    if proposal.at is not None:
        return stored_context(store, 30, proposal.at)
    return recent_context(store)[0]


def is_moment(event: RawEvent) -> bool:
    """An event that may call for help by itself (trigger.MOMENT): a copy (an error, a snippet), a line entered (a
    command run, a search submitted) or a page visited."""
    return event.kind in (CLIPBOARD, WEB) or (event.kind == TEXT and bool(event.data.get("enter")))


def activity(events: Iterable[RawEvent]) -> int:
    """How much the person did in `events`, for the trigger's burst: one per event, except what the pipeline sums
    into one event: a scroll gesture counts its wheel steps (a page read through is a burst of reading, then a
    pause: the moment to offer what the page holds), typed text its words (a line written in an editor, then a
    pause: the moment to offer what goes with it; a line entered is a moment of its own)."""
    return sum(int(e.data.get("count") or 1) if e.kind == SCROLL else
               max(1, len(WORDS.findall(str(e.data.get("text") or "")))) if e.kind == TEXT else 1
               for e in events if e.kind not in (IDLE, CONTROL, WINDOW))


def last_input(events: Iterable[RawEvent], arrived: float) -> float:
    """When the person's last input among `events` (which `arrived` now) was, for the burst's pause: a scroll
    gesture's last wheel step, a click's or a shortcut's own time. Why: the pipeline stores a gesture a second after
    its last step and writes in batches, so a pause counted from the arrival was up to 1.5 s longer than the
    person's. Typed text counts from its arrival (its time is the line's start; the composer sends it a pause
    after the last key)."""
    ends = [min(arrived, e.ts + float(e.data.get("seconds") or 0.0) if e.kind == SCROLL else e.ts)
            if e.kind in (SCROLL, CLICK, HOTKEY) else arrived
            for e in events if e.kind not in (IDLE, CONTROL, WINDOW)]
    return max(ends, default=arrived)


class Assistant:
    def __init__(self, store_path: Path | str | None, agent: Agent, gate: Gate, memory: FeedbackMemory,
                 trigger: TriggerPolicy, on_proposal: Callable[[Proposal], None] | None = None,
                 context_episodes: int = 30, record_shown_as_ignored: bool = False,
                 reader: PageReader | None = None, browser: BrowserPage | None = None,
                 screen: ScreenReader | None = None):
        self.store_path = store_path
        self.agent = agent
        self.gate = gate
        self.memory = memory
        self.trigger = trigger
        self.on_proposal = on_proposal
        # told True/False around each generation, so a UI can show that the model is working
        self.on_busy: Callable[[bool], None] | None = None
        self.context_episodes = context_episodes
        self.live = LiveContext(max(30, context_episodes))  # what the watcher hands over (live_context.py)
        self.record_shown_as_ignored = record_shown_as_ignored  # headless: nobody answers
        # the pages the person reads, as material for offers (assistant/material.py): fetched under `reader`'s
        # consent, the browser's own page read through `browser`; None: no offer is made from pages
        self.reader = reader
        self.browser = browser
        # the error a command printed in a terminal on the accessibility bus (assistant/screen.py), held in memory
        # for the decision and its Accept only; None: the command line alone is the material
        self.screen = screen
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="assistant", daemon=True)
        self._last_app: str | None = None
        self._synced = time.time() - 86400.0  # decisions older than a day are not remembered
        self.stats = {"inferences": 0, "shown": 0, "silent": 0, "errors": 0, "skipped_before_generation": 0}

    # -- called from the watcher's pipeline thread --------------------------------------------------------------

    def on_episode(self, episode: Episode) -> None:
        """An episode stored: the context takes it, and a change of application is a trigger."""
        self.live.closed(episode)
        with self._lock:
            self.trigger.episode_closed(app_changed=self._last_app is not None and episode.app != self._last_app)
            self._last_app = episode.app
        self._wake.set()

    def on_events(self, stored: list[tuple[int, RawEvent]], open_episode: Episode | None = None) -> None:
        """A batch written (raw ids and events) and the episode still open: the context takes them, and the
        activity and the moments among them drive the trigger."""
        self.live.written(stored, open_episode)
        events = [e for _, e in stored]
        now = time.time()
        with self._lock:
            for e in events:
                if e.kind == IDLE:
                    self.trigger.set_idle(e.data.get("state") == "idle")
                elif e.kind == CONTROL:
                    self.trigger.set_paused(e.data.get("state") == "paused")
            self.trigger.activity_seen(activity(events), now, last_input(events, now))
            for rid, event in stored:
                if is_moment(event):
                    self.trigger.moment_seen(now, rid)
        self._wake.set()

    def forget(self, before: float | None) -> None:
        """A purge or retention removed everything before `before` (None: everything) from the database: the
        context forgets it, and what was learned from the decisions removed is forgotten (rebuilt from the
        decisions kept; after a full purge, nothing)."""
        self.live.forget(before)
        if before is None:
            self.memory.forget_person()
        else:
            self.load_person()

    def load_person(self, store: Store | None = None) -> None:
        """What was learned about the person, from the store (`person_store.load`): at start, and after
        retention removed decisions it was learned from."""
        own = store or Store(self.store_path)
        try:
            self.memory.relearn(person_store.load(own))
        finally:
            if store is None:
                own.close()

    def forget_episode(self, episode_id: int) -> None:
        """An episode deleted (the tray's privacy view)."""
        self.live.forget_episode(episode_id)

    # -- worker ----------------------------------------------------------------------------------------------

    def set_proactivity(self, level: Proactivity) -> None:
        """A new proactivity level (the settings window saved one): the gate's threshold and the trigger's minimum
        time between proposals change together."""
        with self._lock:
            self.gate.proactivity = level
            self.trigger.min_interval_s = level.min_interval_s

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            store = Store(self.store_path)
        except Exception:
            log.exception("the assistant cannot open the database; it stops, capture goes on")
            return
        try:
            self.load_person(store)
        except Exception:  # noqa: BLE001 - offers are made as for everyone until it can be read
            log.exception("what was learned about the person could not be read")
        try:
            from .diagnose import warm

            warm()  # the first offer about an error is not late by the installed-package scan
        except Exception:  # noqa: BLE001 - it only costs time later
            log.exception("warming the diagnoses failed")
        try:
            while not self._stop.is_set():
                with self._lock:
                    wait = self.trigger.wait_s(time.time(), 0.5)
                self._wake.wait(wait)
                self._wake.clear()
                if self._stop.is_set():
                    break
                try:
                    self.step(store)
                except Exception:  # one bad moment must not end the assistant
                    self.stats["errors"] += 1
                    log.exception("assistant step failed")
        finally:
            store.close()

    def context(self, store: Store) -> tuple[list[Observation], int | None, int]:
        """Recent observations (closed episodes plus the one still open), the last closed episode's id, and the
        newest raw event id (the context's identity): as the watcher handed them over, after what the database
        held when the assistant first looked (`store`)."""
        return self.live.recent(store, self.context_episodes)

    def sync_decisions(self, store: Store) -> None:
        """Bring decisions taken elsewhere (the tray, `proactive decide`) into the feedback memory, an accepted one
        with whether its help gave something (accepted without doing it: the person had what they needed)."""
        for task, decision, ts, result in ProposalLog(store).recent_decisions(since=self._synced):
            given = result is None or gave(result.get("parts") or (), result.get("history") or ())
            self.memory.record(task, decision, ts, gave=given)
            if decision == ACCEPTED and given:
                with self._lock:
                    self.trigger.offer_taken(ts)
            self._synced = max(self._synced, ts + 1e-6)

    def step(self, store: Store, now: float | None = None) -> Proposal | None:
        """Run the agent if the trigger says so; returns the decision made (shown or silent), or None. A moment is
        decided on its own context (the episodes up to the one it happened in), and silent when that comes too
        late: the person has moved to another window since, and an offer would be about what they left."""
        now = time.time() if now is None else now
        self.sync_decisions(store)
        observations, episode_id, key = self.context(store)
        with self._lock:
            due = self.trigger.due(now, key) if observations else None
        if due is None:
            return None
        late = None
        if due.moment is not None:
            observations, episode_id, key = self.live.recent(store, self.context_episodes, upto=due.moment)
            if due.at is not None and now - due.at > self.trigger.late_s and self.live.moved_since(due.moment):
                late = f"too late: decided {now - due.at:.0f} s after it, when you had moved to another window"
        with self._lock:
            self.trigger.ran(now, key, due.moment)
        return self.think(store, observations, episode_id, due.reason, now, key, pace=due.pace, late=late)

    def material(self, observations: list[Observation]) -> Source | None:
        """The pages that can be read for this context's objects, under the reader's consent."""
        return live_source(observations, self.reader, self.browser) if self.reader is not None else None

    def think(self, store: Store, observations: list[Observation], episode_id: int | None, reason: str,
              now: float, key: int | None = None, pace: Pace | None = None, late: str | None = None) -> Proposal:
        """Decide (`decision.decide`) on `observations` and store the decision; `pace`: a moment inside the
        interval between offers; `late`: why a moment's decision comes too late (it is then silent, so said)."""
        if late is not None:
            return self._record(store, observations, episode_id, reason, now, key, silent(late))
        observations = with_screen(observations, self.screen)
        before = history_before(observations)
        material = self.material(observations)

        def predict(held_back: Callable[[str], bool]) -> Prediction:
            self.stats["inferences"] += 1
            if self.on_busy is not None:
                self.on_busy(True)
            try:
                return self.agent.predict(observations, self.memory.prompt_lines(now), held_back=held_back,
                                          recalls=lambda obj: recalled(store, obj, before), material=material)
            finally:
                if self.on_busy is not None:
                    self.on_busy(False)

        decision = decide(self.gate, self.memory, observations, now, predict, pace)
        return self._record(store, observations, episode_id, reason, now, key, decision)

    def _record(self, store: Store, observations: list[Observation], episode_id: int | None, reason: str,
                now: float, key: int | None, decision: Decision) -> Proposal:
        """The decision stored as a proposal row (shown or silent), counted, and a shown one handed on."""
        if decision.prediction is None:  # scored before generating: a silent decision costs no generation
            self.stats["skipped_before_generation"] += 1
        else:
            self.stats["errors"] += len(decision.prediction.errors)
        data: dict[str, Any] = {"trigger": reason, "context_events": len(observations), **decision.to_json(),
                                "scorer": self.gate.scorer.name, "at": [episode_id, key]}
        offer = self.memory.shown.get(decision.task) if decision.task is not None else None
        if offer is not None:  # what the person model learns from the decision on it, after a restart too
            data[person_store.SITUATION] = person_store.situation_data(*offer)
        response = decision.message
        score = decision.gate.score
        proposal_id = ProposalLog(store).add(now, episode_id, decision.task, response, score, data)
        prediction = decision.prediction
        proposal = Proposal(proposal_id, now, decision.task, response, score, reason,
                            actions=dict(prediction.actions) if prediction is not None else {},
                            candidates=list(prediction.candidates) if prediction is not None else [],
                            latency_s=decision.latency_s, at=(episode_id, key) if key is not None else None,
                            decision=decision,
                            context=observations)
        if decision.task is None:
            self.stats["silent"] += 1
            log.info("silent decision (%s, %s)", reason, decision.gate.reason)
            return proposal
        self.stats["shown"] += 1
        with self._lock:
            self.trigger.proposed(now, moment_errors(observations))
        if self.record_shown_as_ignored:  # provisional: the person model learns from `proactive decide`'s answer
            self.memory.record(decision.task, IGNORED, now, learn=False)
        if self.on_proposal is not None:
            self.on_proposal(proposal)
        return proposal
