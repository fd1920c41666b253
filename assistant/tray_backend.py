"""What the tray app asks of the running assistant and watcher, done where they run; and what it is told back.

Why a seam here: the tray app runs in a process of its own (`proactive run` supervises it, app/tray_supervisor.py),
so that a crash of the GUI toolkit cannot take capture down. Everything the tray did to the assistant and the
watcher is one of `Backend`'s requests (a decision, "Not this kind", an Accept and its consent, pause, resume,
settings, what was learned reset, an episode deleted, the answers model, quit), and everything the assistant tells the tray is one of `TrayEvents`' calls (a
proposal, busy, a consent question, a help done). The same `Backend` serves a tray in this process (the tests'
pytest-qt trays) and one across the wire (`tray_wire.serve`): each request is written once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from proactive.watcher.store import home
from proactive.watcher.store.database import Store

from . import person_store
from .accept import Acceptance
from .feedback import ACCEPTED, IGNORED, REJECTED, SNOOZED
from .help import NOT_NOW, Help
from .live import Assistant, Proposal
from .pages import PageReader
from .person_model import FEWER, kind_of
from .policy import Proactivity
from .proposals import ProposalLog

log = logging.getLogger(__name__)

#: decisions that end an offer: a popup timing out afterwards (`ignored`) does not replace them
FINAL = (ACCEPTED, REJECTED, FEWER)


class TrayEvents(Protocol):
    """What the assistant tells the tray app (called from the assistant's threads: the tray moves each into its
    GUI thread)."""

    def proposal(self, proposal: Proposal) -> None: ...

    def busy(self, busy: bool) -> None: ...

    def question(self, proposal_id: int, question: str) -> None: ...

    def help_done(self, proposal_id: int, task: str, result: Help, answers: bool) -> None: ...


@dataclass
class _Pending:
    """An accepted offer waiting for the person's consent to search or read pages."""

    accepted: Acceptance
    latency: float
    earlier: str | None  # the decision it replaces (an offer not answered, taken from History), or None


class Backend:
    """The running assistant and watcher (None: capture runs elsewhere, or not at all) as the tray app reaches
    them. The offers on screen are kept here with the context they were made from, so Accept acts on the offer's
    own moment, whichever process shows it; a tray that connects (again, after a restart) is shown the offers
    still unanswered."""

    def __init__(self, assistant: Assistant, watcher: Any | None, store_path: Path | str | None,
                 config: home.Config | None = None, on_quit: Callable[[], object] | None = None):
        config = config or home.Config()
        self.assistant = assistant
        self.watcher = watcher
        self.store_path = store_path
        self.config = config
        self.on_quit = on_quit
        # the pages read for the person (held for the task, in memory): the assistant's reader, whose cache the
        # offers filled, or one of our own under the same settings
        self.pages = assistant.reader or PageReader(config.web_search, tuple(config.never_fetch),
                                                    config.search_engine)
        self.events: TrayEvents | None = None
        self.offers: dict[int, Proposal] = {}  # shown, not answered yet (snoozed ones stay)
        self.pending: dict[int, _Pending] = {}
        self.lock = threading.Lock()

    @property
    def captures(self) -> bool:
        """Whether a watcher runs here (the tray then asks about accessibility)."""
        return self.watcher is not None

    @contextlib.contextmanager
    def store(self) -> Iterator[Store]:
        """A connection for one request, closed after it: none is held open between requests (a purge needs
        every reader gone)."""
        store = Store(self.store_path)
        try:
            yield store
        finally:
            store.close()

    # -- the assistant's side ---------------------------------------------------------------------------------

    def connect(self, events: TrayEvents | None) -> None:
        """Tell `events` the assistant's proposals and work from now on (None: nobody is told; a tray that
        stopped). A tray connecting is shown the offers still waiting for an answer."""
        with self.lock:
            self.events = events
            waiting = list(self.offers.values())
        self.assistant.on_proposal = self._proposed if events is not None else None
        self.assistant.on_busy = events.busy if events is not None else None
        for proposal in waiting:
            if events is not None:
                events.proposal(proposal)

    def _proposed(self, proposal: Proposal) -> None:
        with self.lock:
            if proposal.task is not None:
                self.offers[proposal.id] = proposal
            events = self.events
        if events is not None:
            events.proposal(proposal)

    def offer(self, proposal_id: int) -> Proposal | None:
        """A shown offer, with its context; one this process did not make (an older run's) from the store."""
        with self.lock:
            proposal = self.offers.get(proposal_id)
        if proposal is not None:
            return proposal
        with self.store() as store:
            row = ProposalLog(store).get(proposal_id)
        return Proposal.from_row(row) if row is not None else None

    # -- the tray's requests -----------------------------------------------------------------------------------

    def decided(self, proposal_id: int, decision: str, latency: float) -> None:
        """Reject, "Fewer like this", ignore (the popup's timeout) or snooze: remembered by the feedback memory
        and stored. Accept is `accept`, which stores the decision with what the help did. A decision that replaces
        an earlier one (History's "Fewer like this" after a timeout) replaces what the person model learned from
        it too (`_replaced`)."""
        proposal = self.offer(proposal_id)
        if proposal is None:
            log.warning("a decision on proposal %s, which is not in the store", proposal_id)
            return
        if decision == ACCEPTED:
            self.accept(proposal_id, latency)
            return
        with self.store() as store:
            proposals = ProposalLog(store)
            row = proposals.get(proposal_id)
            if decision == IGNORED and row is not None and row.get("decision") in FINAL:
                return  # answered elsewhere meanwhile (`proactive decide`): the popup's timeout says nothing more
            self.assistant.memory.record(proposal.task or "", decision)
            if decision != SNOOZED:
                with self.lock:
                    self.offers.pop(proposal_id, None)
            proposals.decide(proposal_id, decision, latency)
            self._replaced(store, row.get("decision") if row is not None else None, decision)

    def _replaced(self, store: Store, earlier: str | None, decision: str) -> None:
        """A decision stored over an earlier, different one on the same offer: the person model, which learned
        from the first, is rebuilt from the latest decisions (`person_store.load`)."""
        if earlier is not None and earlier != decision:
            self.assistant.load_person(store)

    def not_this_kind(self, proposal_id: int, latency: float) -> None:
        """"Not this kind": offers of this one's kind are never made again (until Reset), kept in the store, and
        this offer is answered "Fewer like this"."""
        proposal = self.offer(proposal_id)
        if proposal is None or proposal.task is None:
            log.warning("'Not this kind' on proposal %s, which is not an offer in the store", proposal_id)
            return
        person = self.assistant.memory.person
        person.mute(kind_of(proposal.task, proposal.actions.get(proposal.task)))
        with self.store() as store:
            person_store.save_muted(store, person.muted)
        self.decided(proposal_id, FEWER, latency)

    def reset_learning(self) -> None:
        """Settings' and the privacy view's Reset: what was learned about the person is forgotten, in the store
        (decisions before now are not learned from again) and in the running assistant."""
        with self.store() as store:
            person_store.reset(store)
        self.assistant.memory.forget_person()

    def accept(self, proposal_id: int, latency: float) -> None:
        """Accept does the work (`assistant.accept`) in a thread (the model may take seconds; a web search opens
        from there). With web_search = "ask" and a help that would search or read pages, the tray is asked the
        question first (`TrayEvents.question`), and the help starts at its answer (`consent`)."""
        proposal = self.offer(proposal_id)
        if proposal is None:
            log.warning("Accept of proposal %s, which is not in the store", proposal_id)
            return
        with self.lock:
            self.offers.pop(proposal_id, None)
        with self.store() as store:
            accepted = Acceptance.of(store, proposal)
            row = ProposalLog(store).get(proposal_id)
        earlier = row.get("decision") if row is not None else None
        if self.config.web_search == "ask":
            question = accepted.question(accepted.material(self.pages, "ask", self.assistant.browser))
            if question is not None and self.events is not None:
                self.pending[proposal_id] = _Pending(accepted, latency, earlier)
                self.events.question(proposal_id, question)
                return
        self._start_help(accepted, latency, self.config.web_search, earlier)

    def consent(self, proposal_id: int, answer: str) -> None:
        """The web-search question answered: "on"/"off" holds from now on (the tray remembers it in
        config.toml), NOT_NOW for this task only. Then the help starts."""
        pending = self.pending.pop(proposal_id, None)
        if pending is None:
            return
        if answer != NOT_NOW:
            self.config = dataclasses.replace(self.config, web_search=answer)
            self.pages.fetch = answer
        self._start_help(pending.accepted, pending.latency, answer, pending.earlier)

    def _start_help(self, accepted: Acceptance, latency: float, search: str, earlier: str | None) -> None:
        material = accepted.material(self.pages, search, self.assistant.browser)

        def work() -> None:
            result = accepted.run(self.assistant.agent.answer_model, self.store_path, search, material)
            # held back like an accepted one only when it gave something (an offer that can is made later)
            self.assistant.memory.record(accepted.task, ACCEPTED, gave=result.gave)
            try:
                with self.store() as store:
                    accepted.record(store, latency, result)
                    self._replaced(store, earlier, ACCEPTED)
            except Exception:  # noqa: BLE001 - the help is shown even when its record cannot be written
                log.exception("the accepted help could not be stored")
            events = self.events
            if events is not None:
                events.help_done(accepted.proposal_id, accepted.task, result,
                                 self.assistant.agent.answers is not None)

        threading.Thread(target=work, name="help", daemon=True).start()

    def pause(self, until: float) -> None:
        if self.watcher is not None:
            self.watcher.request_pause(until)
        else:
            from proactive.watcher import control

            control.write_pause(until)

    def resume(self) -> None:
        if self.watcher is not None:
            self.watcher.request_resume()
        else:
            from proactive.watcher import control

            control.clear_pause()

    def apply_settings(self, config: home.Config) -> None:
        """What can change without a restart: proactivity, privacy exclusions, the pages' settings."""
        self.assistant.set_proactivity(Proactivity.parse(config.proactivity))
        self.config = config
        self.pages.fetch, self.pages.never_fetch = config.web_search, tuple(config.never_fetch)
        self.pages.engine = config.search_engine
        if self.watcher is not None:
            self.watcher.filter.reconfigure(config)

    def forget_episode(self, episode_id: int) -> None:
        self.assistant.forget_episode(episode_id)

    def use_answer_model(self, spec: str) -> None:
        """Load the answers model the person chose (in a thread: it may take seconds), then use it."""
        from . import answers

        def work() -> None:
            model = answers.load(spec)
            if model is None:
                return
            old, self.assistant.agent.answers = self.assistant.agent.answers, model
            if old is not None:
                old.close()

        threading.Thread(target=work, name="answer-model-load", daemon=True).start()

    def quit(self) -> None:
        """The person quit from the tray: the whole app ends (the watcher flushes and stops)."""
        if self.watcher is not None:
            self.watcher.stop()
        if self.on_quit is not None:
            self.on_quit()


def help_to_json(result: Help) -> dict[str, Any]:
    """A help result across the wire, whole (the tray shows the pages' text too; nothing of it is stored)."""
    return dataclasses.asdict(result)


def help_from_json(data: dict[str, Any]) -> Help:
    """The help result `help_to_json` wrote."""
    tuples = {"parts", "history", "steps", "pages"}
    fields: dict[str, Any] = {k: tuple(v) if k in tuples else v for k, v in data.items()}
    return Help(**fields)
