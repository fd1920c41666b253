"""What Accept does, written once for the tray and `proactive decide`: the help acts on the offer's own moment
(the context it was made from, not what is on screen by now) and its grounded action, reads pages only under the
consent given, and the decision is stored with what the help did. A help that fails is a failure shown and
stored, never a crash.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass
from pathlib import Path

from proactive.models.base import Observation, Predictor
from proactive.watcher.store.database import Store

from .feedback import ACCEPTED
from .help import Help, consent_question, do_task
from .live import Proposal, offer_context
from .material import BrowserPage, Source, live_source
from .pages import PageReader
from .proposals import ProposalLog

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Acceptance:
    """One accepted offer, ready to be done: its proposal, task and grounded action (None for a model's own task),
    and the observations it was made from."""

    proposal_id: int
    task: str
    action: str | None
    context: list[Observation]

    @classmethod
    def of(cls, store: Store, proposal: Proposal) -> Acceptance:
        """The acceptance of a live proposal or of a stored one (`Proposal.from_row`), whose moment is rebuilt."""
        task = proposal.task or ""
        return cls(proposal.id, task, proposal.actions.get(task), offer_context(store, proposal))

    def material(self, reader: PageReader, search: str, browser: BrowserPage | None = None) -> Source:
        """The pages this help may read under `search`, the consent given (on, off, ask, or not now for this one:
        then nothing is fetched)."""
        reader = dataclasses.replace(reader, fetch=search if search in ("on", "off") else "ask")
        return live_source(self.context, reader, browser)

    def question(self, material: Source) -> str | None:
        """What this help would send or read on the network, as the question asked first; None when it stays on
        this machine."""
        return consent_question(self.context, self.task, self.action, material)

    def run(self, answers: Predictor | None, store_path: Path | str | None, search: str,
            material: Source) -> Help:
        """Do the task (`help.do_task`); an exception of the help is its failure, said and kept."""
        try:
            return do_task(answers, self.context, self.task, self.action, store_path, search, material=material)
        except Exception as exc:
            log.exception("accepted help failed")
            return Help.failure(f"could not do the task ({exc})")

    def record(self, store: Store, latency_s: float, result: Help | None) -> None:
        """The decision stored with what the help did (None: accepted without doing it)."""
        ProposalLog(store).decide(self.proposal_id, ACCEPTED, latency_s=latency_s,
                           result=None if result is None else json.dumps(result.record(), ensure_ascii=False))
