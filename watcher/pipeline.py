"""The watcher: capture sources -> order -> privacy (one stage: watcher/privacy/stage.py) -> batch -> store -> episodes.

Sources run in their own threads and emit events into one queue, in order. The pipeline's state (the privacy
stage, the batch of events to write and the episode builder) is used
under one lock, by one thread at a time: the source thread that emitted, which handles the queue at once when
no other thread is at it, or the loop's thread (the caller's, normally the main thread so that signals are handled
promptly), which handles what was queued while the lock was held and commits batches every `flush_interval`
seconds, so a killed watcher loses at most about one interval.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import math
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proactive.watcher import control
from proactive.watcher.capture.ordering import ServerOrder
from proactive.watcher.capture.sources import Source, SourceUnavailable, probe_fix
from proactive.watcher.episodes.builder import Episode, EpisodeBuilder, recover_episodes
from proactive.watcher.events import RawEvent
from proactive.watcher.privacy import redact
from proactive.watcher.privacy.compose import TextComposer
from proactive.watcher.privacy.filter import PrivacyFilter
from proactive.watcher.privacy.stage import PrivacyStage
from proactive.watcher.store import home, purging
from proactive.watcher.store.database import Store, StoreError
from proactive.watcher.store.home import Config

log = logging.getLogger(__name__)

FULL_RETRY_SECONDS = 5.0  # a full disk is tried again this often
#: Put on the loop's wake-up queue (SimpleQueue.put is safe in a signal handler, Event.set is not) so that a pause,
#: a resume, a stop or an event queued while another thread held the pipeline is handled at once.
_WAKE = object()


@contextlib.contextmanager
def _unlocked(lock: threading.Lock) -> Iterator[None]:
    """`lock`, held by this thread, released for the block and held again after it, whatever happens."""
    lock.release()
    try:
        yield
    finally:
        lock.acquire()


@dataclass
class Stats:
    events_in: int = 0
    stored: int = 0
    dropped: int = 0
    dropped_full: int = 0  # not captured while the disk was full
    filter_failures: int = 0
    episodes: int = 0
    sources: list[str] = field(default_factory=list)


class Watcher:
    """Runs capture until `stop()`. What it writes is handed forward to whoever acts on it (the assistant: its
    triggers and its context), so nobody reads it back from the database: `on_episode` gets each episode once
    it is stored (with its id), `on_events` each batch written (with the raw events' ids) and the episode still
    open as it stands, and `on_forget` the time before which a purge or retention removed everything (None:
    everything), for any copy held in memory. `publish` (ActivityWatch) receives closed episodes too."""

    def __init__(self, store_path: Path | str | None, config: Config, sources: list[Source],
                 flush_interval: float = 0.5,
                 on_episode: Callable[[Episode], None] | None = None,
                 on_events: Callable[[list[tuple[int, RawEvent]], Episode | None], None] | None = None,
                 publish: Callable[[list[dict[str, Any]]], int] | None = None,
                 unpublish: purging.Unpublish | None = None,
                 on_forget: Callable[[float | None], None] | None = None):
        self.store_path = store_path
        self.config = config
        self.sources = sources
        self.flush_interval = flush_interval
        self.on_episode = on_episode
        self.on_events = on_events
        self.on_forget = on_forget
        self.publish = publish
        self.unpublish = unpublish  # deletes from where `publish` wrote (purge and retention reach it too)
        self.inbox: collections.deque[RawEvent] = collections.deque()  # emitted, not handled yet (in order)
        self._lock = threading.Lock()  # held by the thread handling the inbox: a source's or the loop's
        self._wake: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._failure: BaseException | None = None  # raised by a source's thread's handling: the loop raises it
        self._loop_thread: threading.Thread | None = None  # the thread running `run`
        # what may be kept of what the sources emit; the sources that may say a window's text is theirs
        self.privacy = PrivacyStage(config, [s for s in sources if type(s).types_in is not Source.types_in])
        self.builder = EpisodeBuilder()
        self.batch: list[RawEvent] = []
        self.unsaved_episodes: list[Episode] = []  # closed while the database was locked or full
        self.store_trouble: str | None = None  # "locked" or "full" while writes fail; see _write
        self.retry_at = 0.0
        self.stats = Stats()
        self._stop = threading.Event()
        self._control: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._pause_seen: tuple[float | None, str] = (None, "")  # the pause file's state last applied
        self._requests = control.RequestWatch()  # whether the pause, purge and flush files may have changed
        self.started = threading.Event()
        self._flush_asked: list[str] = []  # flush requests (control.py), answered once their batch is written
        self.order = ServerOrder(sources, self._deliver)  # what sources emit into

    @property
    def filter(self) -> PrivacyFilter:
        """The privacy stage's filter: what the focused window is, and live settings (`reconfigure`)."""
        return self.privacy.filter

    @property
    def composer(self) -> TextComposer:
        return self.privacy.composer

    # -- control (safe from signal handlers and other threads) -------------------------------------------------

    def stop(self) -> None:
        self._stop.set()
        self._wake.put(_WAKE)

    def request_pause(self, until: float = math.inf) -> None:
        control.write_pause(until)
        self._control.put("reload")
        self._wake.put(_WAKE)

    def signal_pause(self) -> None:
        """SIGUSR1 (where it exists; elsewhere the loop sees the pause file change at its next flush): `proactive
        pause` wrote the pause already (a timed one must keep its end); sent by hand, it pauses until resumed.
        Decided in the loop, not in the signal handler."""
        self._control.put("signal")
        self._wake.put(_WAKE)

    def request_resume(self) -> None:
        control.clear_pause()
        self._control.put("reload")
        self._wake.put(_WAKE)

    # -- main loop -------------------------------------------------------------------------------------------

    def _start_sources(self) -> None:
        """Start every source; one that cannot start is said (with its fix) and capture goes on without it."""
        for source in self.sources:
            try:
                source.start(self.order)
                self.privacy.key_logger = self.privacy.key_logger or source.gives_keys
                self.stats.sources.append(source.name)
            except Exception as exc:  # noqa: BLE001  (one source that cannot start must not stop capture)
                reason = exc if isinstance(exc, SourceUnavailable) else f"{type(exc).__name__}: {exc}"
                log.warning("source %s unavailable: %s%s", source.name, reason, probe_fix(source, str(reason)))
        log.info("watcher started with sources: %s", ", ".join(self.stats.sources) or "none")

    def _apply_control_requests(self) -> None:
        """Each pause or resume asked (a signal, or the pause file changed): the pause state read and applied,
        then acknowledged to whoever asked."""
        while not self._control.empty():
            if self._control.get_nowait() == "signal" and control.read_pause() is None:
                control.write_pause(math.inf)
            self._pause_seen = control.pause_state()
            self._apply_pause(self._pause_seen[0])
            control.acknowledge_pause(self._pause_seen)

    def run(self) -> Stats:
        store = Store(self.store_path)
        self._lock.acquire()  # what sources emit while they start waits in the inbox (a source needs no lock)
        self._loop_thread = threading.current_thread()
        try:
            recover_episodes(store)
            self._retain(store)
            self._pause_seen = control.pause_state()
            self._apply_pause(self._pause_seen[0])
            redact.prepare()  # before the sources start, not at the first title or text (see there)
            self._start_sources()
            self.started.set()
            next_flush = time.monotonic() + self.flush_interval
            next_retention = time.monotonic() + purging.retention_interval(self.config.retention_days)
            while not self._stop.is_set():
                self._wait(self._next_look(next_flush))
                if self._failure is not None:
                    raise self._failure
                self._drain()
                requests = time.monotonic() >= next_flush and self._requests.changed(self._pause_seen[0])
                if requests and control.pause_state() != self._pause_seen:
                    self._control.put("reload")  # the pause file changed: `proactive pause` where no signal exists
                if not self._control.empty():  # the keys pressed before the request are taken under the old state
                    self._catch_up()
                self._apply_control_requests()
                if time.monotonic() >= next_flush:
                    self._tick(time.time())
                    request = control.pending_purge() if requests else None
                    if request is not None:
                        self._purge(store, request)
                    asked = control.take_flush_requests() if requests else []
                    if asked:  # what the sources had been sent is written with it
                        self.order.sync()
                        self._drain()
                    self._flush_asked += asked
                    self._write(store)
                    if self._flush_asked and not self.batch and not self.unsaved_episodes:
                        control.answer_flush(self._flush_asked)
                        self._flush_asked = []
                    next_flush = time.monotonic() + self.flush_interval
                if time.monotonic() >= next_retention:
                    self._retain(store)
                    next_retention = time.monotonic() + purging.retention_interval(self.config.retention_days)
        finally:
            self._lock.release()
            for source in self.sources:
                try:
                    source.stop()
                except Exception:
                    log.exception("stopping %s failed", source.name)
            self._lock.acquire()
            self._drain()
            for taken in self.order.release(everything=True):
                self._take(taken)
            self._keep(self.privacy.flush(time.time()))
            self.retry_at = 0.0  # a last attempt, whatever the back-off says
            self._write(store)
            last = self.builder.close(time.time())
            if last is not None:
                self._episodes_closed(store, [last])
            if self.batch or self.unsaved_episodes:
                log.warning("%d events and %d episodes could not be written (%s) and are lost",
                            len(self.batch), len(self.unsaved_episodes), self.store_trouble)
            try:
                store.checkpoint()
            except Exception:  # locked or full: the WAL is checkpointed by the next writer
                log.warning("the final checkpoint failed (%s); the next start completes it", self.store_trouble)
            store.close()
            self.stats.dropped = self.filter.dropped
            self.stats.filter_failures = self.filter.failures
            log.info("watcher stopped: %s events in, %s stored, %s dropped by the privacy filter (%s it could not "
                     "judge: dropped, fail closed)", self.stats.events_in, self.stats.stored, self.stats.dropped,
                     self.stats.filter_failures)
            self._lock.release()
        return self.stats

    def _next_look(self, next_flush: float) -> float:
        """When the loop looks next (monotonic): at the flush time when something waits to be written; else when
        the typed text or the scroll gesture held in memory is due to be flushed (the composer's and the scroll's
        pause), and an interval after the flush time at the latest (a look for pause and purge requests).
        An event put in an empty batch by a source's thread wakes the loop (`_keep`). Why: while someone types,
        the text is held in memory between its flushes, and a look every half second for it was most of the
        loop's CPU; and a look for requests sooner than the typed text's pause (a second) woke the loop twice for
        each flush of it (bench/watcher_overhead.py), where it now wakes once, when the text is due."""
        if self.batch or self.unsaved_episodes:
            return next_flush
        look = next_flush + self.flush_interval
        due = self.privacy.due()
        if due is not None:
            look = min(look, time.monotonic() + due - time.time())
        return max(look, next_flush)

    def _wait(self, until: float) -> None:
        """Lets go of the pipeline until the next flush is due or something asks for the loop (a stop, a pause,
        an event emitted while another thread held the pipeline); holds it again on return, whatever happens."""
        with _unlocked(self._lock):
            try:
                self._wake.get(timeout=max(0.0, until - time.monotonic()))
                while True:
                    self._wake.get_nowait()
            except queue.Empty:
                pass

    def _deliver(self, event: RawEvent) -> None:
        """What the sources emit (through `order`), from any thread. The event joins the inbox, then the thread
        that emitted it handles the inbox at once unless another thread is at it (that thread, or the loop it
        wakes, handles it: no source ever waits for the pipeline). Why not always the loop's thread: a key then
        wakes one thread, not two; the wake-ups were most of the watcher's CPU while someone types
        (bench/watcher_overhead.py). One inbox, handled under one lock, keeps the order the sources emitted in."""
        self.inbox.append(event)  # (handled before anything emitted after it, whichever thread handles that)
        if not self._lock.acquire(blocking=False):
            self._wake.put(_WAKE)  # the holder may have looked at the inbox before the append
            return
        try:
            self._drain()
        except BaseException as exc:  # a bug: the watcher stops as it would had the loop's thread met it
            self._failure = exc
            self.stop()
        finally:
            self._lock.release()

    def _catch_up(self) -> None:
        """Takes now what the device sources still hold (keys waiting in the keyboard's socket: keyboard.py reads
        them a batch at a time), so a request (pause, resume, purge) applies after what was pressed before it."""
        self.order.catch_up()
        self._drain()

    def _drain(self) -> None:
        """Handles the inbox (the pipeline's lock held)."""
        while self.inbox:
            self._handle(self.inbox.popleft())

    def _retain(self, store: Store) -> None:
        """Retention: what is older than `retention_days` leaves every copy (database, ActivityWatch, caches)."""
        cutoff = purging.retention_cutoff(self.config.retention_days)
        if cutoff is not None:
            try:
                with self._released():  # (it may wait on another process's lock)
                    report = purging.purge_copies(store, cutoff, self.unpublish)
            except StoreError as exc:
                if exc.kind not in ("locked", "full"):
                    raise
                log.warning("retention postponed: %s", exc)  # tried again at the next pass
                return
            self._forget(cutoff)
            if report.activitywatch_error:
                log.warning("retention could not reach ActivityWatch: %s", report.activitywatch_error)

    def _forget(self, before: float | None) -> None:
        """What a purge or retention removed from the database leaves the memory of whoever it was handed to."""
        if self.on_forget is not None:
            try:
                self.on_forget(before)
            except Exception:  # noqa: BLE001 - a failing callback must not end capture: the log says it
                log.exception("forgetting what was purged failed")

    def _purge(self, store: Store, request: dict[str, Any]) -> None:
        """Apply `proactive purge` here, where the open episode, typed text and pending batch live, so none of
        them is written back afterwards; then answer with what was removed where."""
        if str(Path(self.store_path or home.db_path()).resolve()) != request.get("db"):
            control.answer_purge(request["id"], {"applied": False})
            return
        self._catch_up()  # the keys pressed before the request are purged too
        before = request.get("before")
        try:
            if before is None:  # everything: drop, unsaved, what this process holds
                dropped = len(self.batch) + self.privacy.discard() + (self.builder.current is not None)
                self.batch, self.builder = [], EpisodeBuilder()
            else:  # a period in the past: save what is pending, so the purge below sees all of it
                dropped = 0
                self._keep(self.privacy.flush(time.time()))
                self._write(store, let_go=False)  # nothing comes in between the write and the purge
            report = purging.purge_copies(store, before, self.unpublish, wait=control.reader_wait(request))
        except Exception as exc:  # answered, never silent: the command that asked reports it
            # one line (a reader holding the database, ActivityWatch refusing): the command says it too; the
            # traceback only with --verbose
            log.warning("purge refused: %s", " ".join(str(exc).split()) or type(exc).__name__)
            log.debug("purge failed", exc_info=True)
            control.answer_purge(request["id"], {"error": f"the watcher could not purge: {exc}"})
            return
        report.by_watcher, report.memory_items = True, dropped
        self._forget(before)  # before the answer: once the command returns, no copy in memory is left either
        control.answer_purge(request["id"], {"applied": True, "report": report.as_dict()})
        if before is None:  # capture goes on in the window that has the focus: a fresh episode starts now
            self._keep(self.privacy.focus_again())

    def _apply_pause(self, until: float | None) -> None:
        """A pause (until `until`; math.inf: until resumed) or, None, the resume: the privacy stage applies it
        (the focus may have changed while paused: a resume starts a fresh episode)."""
        self._keep(self.privacy.resume() if until is None else self.privacy.pause(until))

    def _handle(self, event: RawEvent) -> None:
        for taken in self.order.admit(event):  # in the X server's order (ordering.py)
            self._take(taken)

    def _take(self, event: RawEvent) -> None:
        self.stats.events_in += 1
        self._keep(self.privacy.take(event))

    def _keep(self, events: list[RawEvent]) -> None:
        """What the privacy stage let through, into the batch to write (dropped while the disk is full: capture
        is paused until it has space again)."""
        for event in events:
            if self.store_trouble == "full":
                self.stats.dropped_full += 1
                continue
            if not self.batch and threading.current_thread() is not self._loop_thread:
                self._wake.put(_WAKE)  # the loop may sleep past the flush time (_next_look)
            self.batch.append(event)

    def _tick(self, now: float) -> None:
        self._keep(self.privacy.tick(now))

    def _write(self, store: Store, let_go: bool = True) -> None:
        """Commit the batch (and any episodes a lock or a full disk held back). A lock is waited out (SQLite's
        busy timeout, then again at the next flush) and a full disk pauses capture until a write succeeds: in
        both cases what was captured stays in memory and nothing is lost. Other store errors end the watcher.
        `let_go`: the sources' threads handle what they emit meanwhile (`_released`)."""
        if not self.batch and not self.unsaved_episodes:
            return
        if self.store_trouble is not None and time.monotonic() < self.retry_at:
            return
        batch, self.batch = self.batch, []
        episodes, self.unsaved_episodes = self.unsaved_episodes, []
        held: list[Episode] = []  # the episodes a lock or a full disk held back, stored now
        try:
            with self._released(let_go):
                if episodes:
                    for e, episode_id in zip(episodes, store.add_episodes(e.row() for e in episodes), strict=True):
                        e.id = episode_id
                    held, episodes = episodes, []
                ids = store.add_events(batch)
        except StoreError as exc:
            self.batch = batch + self.batch  # what came meanwhile follows
            self.unsaved_episodes = episodes + self.unsaved_episodes
            if held:
                self._episodes_stored(held)
            self._store_failed(exc)
            return
        if held:
            self._episodes_stored(held)
        if self.store_trouble is not None:
            log.warning("the database can be written again: capture goes on (%d events kept meanwhile, %d "
                        "dropped while the disk was full)", len(batch), self.stats.dropped_full)
            self.store_trouble = None
        self.stats.stored += len(ids)
        closed: list[Episode] = []
        for raw_id, event in zip(ids, batch, strict=True):
            closed.extend(self.builder.add(raw_id, event))
        if closed:
            self._episodes_closed(store, closed, let_go)
        if self.on_events is not None:
            self.on_events(list(zip(ids, batch, strict=True)), self.builder.open_episode())

    def _store_failed(self, exc: StoreError) -> None:
        if exc.kind not in ("locked", "full"):
            raise exc
        if self.store_trouble != exc.kind:  # one line per trouble, not one per retry
            log.warning("%s%s", exc, ": capture is paused until space returns" if exc.kind == "full" else
                        ": waiting for the lock (what is captured meanwhile is kept)")
            self.store_trouble = exc.kind
        self.retry_at = time.monotonic() + (FULL_RETRY_SECONDS if exc.kind == "full" else 0.0)

    def _released(self, let_go: bool = True) -> contextlib.AbstractContextManager[None]:
        """Lets go of the pipeline while the loop waits on the database, as in `_wait`: a lock held by another
        process can take SQLite's busy timeout (5 s), and meanwhile the sources' threads go on handling what
        they emit, so a key's terminal echo state is read when it is typed, not seconds later (a line read late
        is hidden: `_judge_line`). Called by the loop's thread, which holds the pipeline; `let_go` False keeps
        it (a purge: nothing may come in between)."""
        return _unlocked(self._lock) if let_go else contextlib.nullcontext()

    def _episodes_closed(self, store: Store, episodes: list[Episode], let_go: bool = True) -> None:
        try:
            with self._released(let_go):
                ids = store.add_episodes(e.row() for e in episodes)
        except StoreError as exc:
            self.unsaved_episodes.extend(episodes)
            self._store_failed(exc)
            return
        for e, episode_id in zip(episodes, ids, strict=True):
            e.id = episode_id
        self._episodes_stored(episodes)

    def _episodes_stored(self, episodes: list[Episode]) -> None:
        """Closed episodes now in the database: counted, published, handed on (`on_episode`)."""
        self.stats.episodes += len(episodes)
        if self.publish is not None:
            try:
                self.publish([e.row() for e in episodes])
            except Exception:
                log.exception("publishing episodes failed")
        if self.on_episode is not None:
            for e in episodes:
                self.on_episode(e)

