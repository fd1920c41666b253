"""One decision path for live use and replay: from a context, the feedback memory and the moment, to what the
person is shown (or the silence), with everything that led there.

The sequence is need first (a silent decision costs no generation), then the agent's candidates with the offers
the memory holds back left out, then the gate's pick among what the memory allows. The live assistant
(`live.Assistant.think`) and replay (`eval/replay.Replayer`) both call `decide` (replay's parallel path calls its
two halves, `need_first` and `choose`, around its batched generations), so replay scores the sequence that
ships. What differs stays with the caller: where the prediction comes from (the agent, or replay's cache of it),
and what happens after (live stores the decision and shows it; replay judges it).

A moment inside the interval between offers (`trigger.Pace`) is decided too: after need, only a new error (one
the moment's episode shows that no offer inside the interval was about: a copied, selected or shown error, a
failing command) goes on to the agent, and, once the person took the offer that started the interval, help
that builds on it (the code for their file from the page whose key points they took: `feedback.follows`);
anything else is silent, "too soon", with no generation where nothing was taken.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from proactive.models.base import Observation

from .agent import Prediction
from .feedback import FeedbackMemory, follows
from .grounding import ERROR, ground
from .person_model import PersonModel, Situation, application
from .policy import Gate, GateDecision
from .trigger import Pace

#: makes the agent's prediction for this moment; its argument tells the offers the memory holds back now
Predict = Callable[[Callable[[str], bool]], Prediction]


@dataclass
class Decision:
    """What was decided at one moment, shown or silent, and why."""

    gate: GateDecision  # the gate's decision: the task shown (None: silent), its score and reason
    need: float  # the gate's P(help needed now)
    prediction: Prediction | None  # None: silent before any generation (help not needed)
    held_back: list[str] = field(default_factory=list)  # candidates the feedback memory kept from being shown
    latency_s: float = 0.0

    @property
    def task(self) -> str | None:
        return self.gate.task

    @property
    def generated(self) -> bool:
        return self.prediction is not None

    @property
    def message(self) -> str:
        """What the popup says for the shown task."""
        return self.prediction.message(self.task) if self.prediction is not None and self.task else ""

    def to_json(self) -> dict[str, Any]:
        """The decision as stored with the proposal (live) and written to turns.jsonl (replay)."""
        data = self.prediction.to_json() if self.prediction is not None else {}
        if self.prediction is not None:
            data["blocked_by_feedback"] = self.held_back
        data.update({"gate": self.gate.reason, "scores": self.gate.scores,
                     "silence_score": self.gate.silence_score, "p_need": self.gate.p_need,
                     "latency_s": self.latency_s})
        return data


def silent(reason: str, need: float = 0.0, latency_s: float = 0.0) -> Decision:
    """A silent decision taken before any generation, for `reason` (as stored: the history says why)."""
    return Decision(GateDecision(None, None, 1.0 - need, {}, reason, need), need, None, [], latency_s)


def moment_errors(context: Sequence[Observation]) -> set[str]:
    """The errors (lower case) the last observation shows: copied or selected, on the terminal's screen, or a
    command the shell would not know. What makes a moment strong, and what an offer made at it is about."""
    grounded = ground(context)
    return {o.text.lower() for o in grounded.of(ERROR) if o.index == grounded.n_events - 1}


def new_error(context: Sequence[Observation], pace: Pace) -> bool:
    """Whether the moment shows an error no offer inside the running interval was about."""
    return bool(moment_errors(context) - pace.offered)


def need_first(gate: Gate, context: Sequence[Observation],
               person: PersonModel | None = None) -> tuple[float, GateDecision | None]:
    """P(need) (for the person, while what was learned is in use: `PersonModel.need`), and the silent decision
    taken before generating when help is not needed (None: generate)."""
    need = gate.need(context)
    if person is not None and person.trusted:
        need = round(person.need(need, ground(context).activity, application(context)), 6)
    return need, gate.worth_generating(context, need=need)


def choose(gate: Gate, memory: FeedbackMemory, context: Sequence[Observation], prediction: Prediction,
           need: float, now: float) -> tuple[GateDecision, list[str]]:
    """The gate's pick among the candidates the memory allows at `now`, and every candidate held back (by the
    agent before ranking, by the memory here, and a kind the person said "Not this kind" to). The pick is then
    weighed for the person (`PersonModel.shows`: expected cost, while what was learned is in use); a shown one is
    remembered, so the person model learns from the decision on it."""
    person = memory.person
    situations = {c: Situation.of(context, c, prediction.actions.get(c)) for c in prediction.candidates} \
        if person.trusted or person.muted else {}
    muted = [c for c in prediction.candidates if c in situations and situations[c].kind in person.muted]
    allowed = [c for c in memory.allowed(prediction.candidates, now) if c not in muted]
    held = list(prediction.held_back) + [c for c in prediction.candidates if c not in allowed]
    picked = gate.decide(context, allowed, prediction.preference, need=need)
    if picked.task is None:
        if muted and not allowed:  # nothing left but kinds the person said "Not this kind" to: "Why quiet?" says so
            why = person.why_quiet(situations[muted[0]].kind, now)
            picked = dataclasses.replace(picked, reason=f"learned: {why}")
        return picked, held
    shared = picked.scores.get(picked.task, 0.5)
    situation = situations.get(picked.task) or Situation.of(context, picked.task, prediction.actions.get(picked.task))
    threshold = gate.proactivity.threshold
    if person.trusted and not person.shows(person.p_accept(shared, situation), threshold,
                                           person.explore_chance(shared, situation, threshold)):
        why = person.why_quiet(situation.kind, now) or f"offers of the kind '{situation.kind}' are taken less often"
        return (GateDecision(None, None, picked.silence_score, picked.scores, f"learned: {why}", picked.p_need),
                held + [picked.task])
    memory.offered(picked.task, shared, situation)
    return picked, held


def decide(gate: Gate, memory: FeedbackMemory, context: Sequence[Observation], now: float,
           predict: Predict, pace: Pace | None = None) -> Decision:
    """The whole decision at `now` (the memory's clock: wall time live, the events' own times in replay); `pace`:
    a moment inside the interval between offers, where only a new error, or help building on an offer taken
    inside it, is offered."""
    started = time.perf_counter()
    need, early = need_first(gate, context, memory.person)
    if early is not None:
        return Decision(early, need, None, [], time.perf_counter() - started)
    taken = None
    if pace is not None and not new_error(context, pace):
        taken = memory.taken_since(now - pace.since_offer_s)
        if taken is None:
            return silent(pace.reason, need, time.perf_counter() - started)
    prediction = predict(lambda task: memory.blocked(task, now) is not None)
    if pace is not None and taken is not None:  # inside the interval after an offer taken: help building on it
        prediction = dataclasses.replace(prediction, candidates=[c for c in prediction.candidates
                                                                 if follows(c, taken)])
        if not prediction.candidates:
            return Decision(silent(pace.reason, need).gate, need, prediction, list(prediction.held_back),
                            time.perf_counter() - started)
    picked, held = choose(gate, memory, context, prediction, need, now)
    return Decision(picked, need, prediction, held, time.perf_counter() - started)
