"""What the assistant learns about one person, on top of the shared reward model and need gate.

The shared models are fitted on many people; a person may want far fewer offers (or more) than they, or none of
one kind. After every decision on a shown offer (accepted, rejected, snoozed, ignored, timed out, "fewer like
this") this model moves a few numbers: adjustments, in log-odds, to the shared P(accept) by kind of offer (the
popup's headings, `candidates.HEADLINES`), by activity and by application, and one for the person as a whole.
The same numbers move the gate's threshold by activity and application (an offer wanted less in a browser makes
P(need) there count for less).

Why these choices:

- **Shrinkage, and drift.** Every adjustment starts at 0 (the shared model) with a Gaussian prior and is updated
  by one Bayesian (Laplace) step per decision, with a full covariance over the few adjustments: a handful of
  decisions cannot move it far, many consistent ones can. Before each step every adjustment's variance grows a
  little (`drift`: a random walk, a Kalman filter's step): a person's later decisions may differ from their first
  (measured: someone who took every code example early and turned most down later), and a posterior that only
  ever narrows would keep what the first decisions said for good.
- **Only while its own record says so.** A person the shared model already fits loses by personal noise
  (measured: lenient annotators lose when strict ones gain), so the adjustments are used only while their own
  record on the person's past decisions, each predicted before it was learned, beats the shared model's: the
  difference of the two predictions' log-likelihoods, each earlier decision counting `forget` times the next. They
  are taken up once that record is `take_up` nats ahead (and at least `min_decisions` were learned) and dropped
  once it is `drop` nats behind: hysteresis, so one decision does not flip them, and asymmetric, since using them
  is the risk (a person the shared model fits would otherwise be handed its noise now and then). A log-likelihood
  counts how sure each was, so a few confident misses weigh more than many near-ties; the forgetting lets a change
  in the person end the adjustments' use within a few decisions, where a count over the whole past (a sign test)
  kept them for dozens. Until they are taken up, and once dropped, the shared model decides unchanged.
- **Expected cost.** An offer is shown when P(accept) x cost(missed need) >= (1 - P(accept)) x cost(false alarm):
  P(accept) >= c / (1 + c), the proactivity level's threshold (`policy.Proactivity`).
- **Learning from what is shown, without starving.** A kind held back on implicit signals alone is still shown
  with a small bounded chance, so the person can say otherwise; only an explicit "Not this kind" mutes it for good
  (until they undo it or reset). The chance is what the adjustments themselves allow: the posterior probability
  that the offer is worth showing after all (they could be that wrong), kept between `explore_floor` and
  `explore`. A flat chance re-showed offers of a kind turned down many times, which the adjustments were sure
  of, as often as any, and nearly all were turned down again; an offer they are unsure of (a kind met twice) is
  still re-shown at `explore`, and none falls below `explore_floor`.

The model is a handful of floats: under a millisecond per decision (`bench/person_model.py`), and its state is
JSON (`to_json`), the person's data, stored encrypted with everything else.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .candidates import HEADLINES
from .grounding import ground

ACCEPTED, REJECTED, SNOOZED, IGNORED = "accepted", "rejected", "snoozed", "ignored"
TIMED_OUT, FEWER = "timed out", "fewer"
NOT_THIS_KIND = "not this kind"  # the popup's and History's answer: stored as FEWER, with the offer's kind muted
#: how each outcome counts, as (offer wanted, weight): a snooze says "not now" more than "not this", an ignored or
#: timed-out offer is a weak no, "Fewer like this" a strong one
OUTCOMES: dict[str, tuple[bool, float]] = {
    ACCEPTED: (True, 1.0), REJECTED: (False, 1.0), SNOOZED: (False, 0.3), IGNORED: (False, 0.5),
    TIMED_OUT: (False, 0.5), FEWER: (False, 2.0)}

#: a prediction's probability of what happened, at least this in the record (one sure miss costs ~7 nats at most)
RECORD_FLOOR = 1e-3

SILENCE = "silence"  # the kind of a silent moment (only simulated persons judge one)
SEARCHES = "Something to look up"  # a free-text offer to search or read (no grounded heading says it)
OTHER = "Other help"
#: a free-text offer (a capable model's own, or a recorded one) by the words it uses, first match wins
KIND_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((kind, re.compile(words, re.I)) for kind, words in (
    ("About this error", r"\b(?:error|bug|fix|debug|exception|traceback|crash)"),
    ("About this command", r"\b(?:command|terminal|shell|install)"),
    ("A look at your changes", r"\b(?:review|changes|refactor)"),
    ("A draft paragraph", r"\b(?:draft|paragraph|outline|essay|rewrite|wording|write)"),
    ("A summary of the results", r"\b(?:summar|key points|overview)"),
    ("Notes for your document", r"\b(?:notes?|organi[sz]|collect)"),
    ("Example code", r"\b(?:code|function|implement|snippet|example|method|class|librar|api)"),
    (SEARCHES, r"\b(?:search|find|look up|research|articles?|resources?|tutorials?|read)"),
))
#: the application of the moment, from the sentences (ours and ProactiveBench's name it in words)
APP_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((app, re.compile(words, re.I)) for app, words in (
    ("an AI chat", r"\b(?:ChatGPT|Claude|Gemini|Copilot Chat|AI chat)"),
    ("a terminal", r"\b(?:terminal|xterm|konsole|shell|command line)"),
    ("a code editor", r"\b(?:Visual Studio|VS ?Code|code editor|PyCharm|IntelliJ|Xcode|vim|emacs|IDE)\b"),
    ("a browser", r"\b(?:browser|Google|Chrome|Firefox|Safari|Edge|web ?page|tab|Bing|Baidu)"),
    ("a document", r"\b(?:document|Word|Pages|Notion|Docs|LibreOffice|Writer|Obsidian)\b"),
))


def kind_of(task: str | None, action: str | None = None) -> str:
    """The kind of an offer, as the popup heads it: its grounded action's heading, else by its words."""
    if task is None:
        return SILENCE
    if action and action in HEADLINES:
        return HEADLINES[action]
    return next((kind for kind, words in KIND_WORDS if words.search(task)), OTHER)


def application(context: Sequence[Any]) -> str:
    """The kind of application the latest sentences name (the last naming one wins), or "another application"."""
    for observation in reversed(context[-3:]):
        text = observation.get("event", "") if isinstance(observation, dict) else str(observation)
        found = next((app for app, words in APP_WORDS if words.search(text)), None)
        if found:
            return found
    return "another application"


@dataclass(frozen=True)
class Situation:
    """What a decision was about: the kind of offer, the activity and the application."""

    kind: str
    activity: str
    app: str

    @classmethod
    def of(cls, context: Sequence[Any], task: str | None, action: str | None = None,
           activity: str | None = None) -> Situation:
        return cls(kind_of(task, action), activity or ground(context).activity, application(context))

    def features(self, with_kind: bool = True) -> list[str]:
        """The adjustments that apply: the person's, the kind's (a silent moment has its own), activity's, app's."""
        out = ["person", f"activity:{self.activity}", f"app:{self.app}"]
        return out + [f"kind:{self.kind}"] if with_kind else out


def logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


@dataclass
class Tally:
    """Offers shown of one kind and how they were taken: what Settings and "Why quiet?" say in words."""

    shown: int = 0
    taken: int = 0
    turned_down: int = 0  # rejected or "fewer like this"
    last: float = 0.0  # when the last one was decided


@dataclass
class PersonModel:
    """Per-person adjustments to the shared P(accept) and the gate's threshold, shrunk toward the shared model.

    `prior_var`: the prior variance of each adjustment (log-odds): the strength of the shrinkage. `drift`: the
    variance each adjustment gains per decision learned (how fast the person may change). `forget`: how much an
    earlier decision counts in the record against the next one. `take_up`, `drop`: how far (nats) the personal
    prediction's record must be ahead of the shared one's for the adjustments to be used, and behind for them to be
    dropped (asymmetric: using them is the risk, the shared model the safe side). `explore`, `explore_floor`: the
    largest and the smallest chance that an offer the adjustments would hold back is shown anyway
    (`explore_chance`).

    The defaults were chosen on the 34 annotators of the ProactiveBench developer split; chosen on two of its three
    groups of sessions and measured on the third, the worst person stays within 0.02 of the shared model on one
    held-out group and misses by one decision on the other two (`bench/person_gate_study.py`)."""

    prior_var: float = 0.3
    drift: float = 0.005
    forget: float = 0.9
    take_up: float = 2.0
    drop: float = 1.0
    explore: float = 0.05
    explore_floor: float = 0.01  # about one held-back offer in a hundred: a kind is never out of sight for good
    min_decisions: int = 5  # decisions learned before the record may say anything: a handful never changes offers
    names: list[str] = field(default_factory=list)
    mean: np.ndarray = field(default_factory=lambda: np.zeros(0))
    cov: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    #: the personal prediction's log-likelihood minus the shared one's over the person's past decisions, each
    #: predicted before it was learned, an earlier one counting `forget` times the next
    record: float = 0.0
    decisions: int = 0  # decisions learned
    trusted: bool = False  # whether the adjustments are in use: the record went past +take_up, not since past -drop
    muted: set[str] = field(default_factory=set)  # kinds the person said "Not this kind" to
    tallies: dict[str, Tally] = field(default_factory=dict)
    rng: random.Random = field(default_factory=lambda: random.Random(0), repr=False)

    # -- what it predicts ---------------------------------------------------------------------------------------

    def adjustment(self, situation: Situation, with_kind: bool = True) -> float:
        """The learned log-odds adjustment for an offer in this situation (0 where nothing is learned)."""
        index = {n: i for i, n in enumerate(self.names)}
        return float(sum(self.mean[index[f]] for f in situation.features(with_kind) if f in index))

    def _personal(self, shared: float, situation: Situation) -> float:
        """P(the offer is wanted), or for a silent moment P(the silence is accepted), with the adjustments."""
        if situation.kind == SILENCE:  # a silence is accepted when no offer is wanted
            return 1.0 - sigmoid(logit(1.0 - shared) + self.adjustment(situation))
        return sigmoid(logit(shared) + self.adjustment(situation))

    def p_accept(self, shared: float, situation: Situation) -> float:
        """P(accept) as the person would: the shared one unless the adjustments are in use (`trusted`)."""
        if situation.kind in self.muted:
            return 0.0
        return self._personal(shared, situation) if self.trusted else shared

    def need(self, p_need: float, activity: str, app: str) -> float:
        """P(need) as the gate reads it for this person: moved by what was learned in this activity and app
        (equivalently, the threshold moved the other way)."""
        if not self.trusted:
            return p_need
        return sigmoid(logit(p_need) + self.adjustment(Situation(SILENCE, activity, app), with_kind=False))

    def shows(self, p_accept: float, threshold: float, chance: float | None = None) -> bool:
        """Expected cost: shown when P(accept) >= c / (1 + c) (`threshold`); else, unless the kind is muted, still
        shown with the small chance `chance` (`explore_chance`; `explore` when not given), so implicit signals
        never hold a kind back for good."""
        chance = self.explore if chance is None else chance
        return p_accept >= threshold or (p_accept > 0.0 and self.rng.random() < chance)

    def explore_chance(self, shared: float, situation: Situation, threshold: float) -> float:
        """The chance an offer the adjustments hold back is shown anyway: the posterior probability that its
        P(accept) is past `threshold` after all (the adjustments are a Gaussian; where they are sure, it is small),
        kept between `explore_floor` and `explore`. 0 for a muted kind: only an explicit answer mutes."""
        if situation.kind in self.muted:
            return 0.0
        if situation.kind == SILENCE:
            return self.explore
        index = {n: i for i, n in enumerate(self.names)}
        features = situation.features()
        known = [index[f] for f in features if f in index]
        variance = float(self.cov[np.ix_(known, known)].sum()) + (len(features) - len(known)) * self.prior_var
        mean = logit(shared) + self.adjustment(situation)
        past = 0.5 * math.erfc((logit(threshold) - mean) / math.sqrt(2.0 * max(variance, 1e-12)))
        return min(self.explore, max(self.explore_floor, past))

    # -- what it learns -----------------------------------------------------------------------------------------

    def _index(self, names: list[str]) -> list[int]:
        """Indices of the adjustments `names`, adding new ones at the prior (mean 0, variance prior_var)."""
        new = [n for n in names if n not in self.names]
        if new:
            k = len(self.names)
            cov = np.zeros((k + len(new), k + len(new)))
            cov[:k, :k] = self.cov
            cov[k:, k:] = np.eye(len(new)) * self.prior_var
            self.cov, self.mean = cov, np.concatenate([self.mean, np.zeros(len(new))])
            self.names.extend(new)
        return [self.names.index(n) for n in names]

    def learn(self, shared: float, situation: Situation, outcome: str | bool, ts: float = 0.0) -> None:
        """One decision: `outcome` one of OUTCOMES, or for a silent moment whether the silence was accepted.

        The record is fed first (both predictions made before this decision is learned), then the adjustments
        drift and take one Laplace step; the record's term and the step are weighted by how much the outcome says."""
        if isinstance(outcome, bool):
            accepted, weight = outcome, 1.0
        else:
            accepted, weight = OUTCOMES[outcome]
        self._score(self._personal(shared, situation), shared, accepted, weight)
        silent = situation.kind == SILENCE
        wanted = not accepted if silent else accepted  # in offer terms: a rejected silence wanted an offer
        offset = logit(1.0 - shared if silent else shared)
        idx = self._index(situation.features())
        self.cov = self.cov + np.eye(len(self.names)) * self.drift
        x = np.zeros(len(self.names))
        x[idx] = 1.0
        p = sigmoid(offset + float(self.mean @ x))
        h = weight * p * (1.0 - p)
        cx = self.cov @ x
        self.cov = self.cov - np.outer(cx, cx) * (h / (1.0 + h * float(x @ cx)))
        self.mean = self.mean + (self.cov @ x) * (weight * ((1.0 if wanted else 0.0) - p))
        if not silent:
            tally = self.tallies.setdefault(situation.kind, Tally())
            tally.shown += 1
            tally.taken += accepted
            tally.turned_down += outcome in (REJECTED, FEWER)
            tally.last = ts

    def _score(self, personal: float, shared: float, accepted: bool, weight: float) -> None:
        """The record after one more decision, and whether the adjustments are in use from the next one."""
        def loglik(p: float) -> float:
            return math.log(min(max(p if accepted else 1.0 - p, RECORD_FLOOR), 1.0))

        self.record = self.record * self.forget + weight * (loglik(personal) - loglik(shared))
        self.decisions += 1
        if self.trusted and self.record < -self.drop:
            self.trusted = False
        elif not self.trusted and self.record > self.take_up and self.decisions >= self.min_decisions:
            self.trusted = True

    def mute(self, kind: str) -> None:
        """"Not this kind": never offered again, until `unmute` or `reset`."""
        self.muted.add(kind)

    def unmute(self, kind: str) -> None:
        self.muted.discard(kind)

    def reset(self) -> None:
        """Forget everything learned: back to the shared model."""
        fresh = PersonModel(self.prior_var, self.drift, self.forget, self.take_up, self.drop, self.explore,
                            self.explore_floor, self.min_decisions)
        self.__dict__.update(fresh.__dict__)

    # -- what the person reads ----------------------------------------------------------------------------------

    def held_back(self, kind: str) -> bool:
        """Whether the learned adjustments hold offers of this kind back (implicitly: `explore` still shows some)."""
        return kind in self.muted or (self.trusted and self.adjustment(Situation(kind, "", ""), True)
                                      - self.adjustment(Situation(kind, "", ""), False) < -0.5)

    def why_quiet(self, kind: str, now: float, week_s: float = 7 * 86400.0) -> str | None:
        """Why an offer of this kind was kept back because of what was learned, in words, or None."""
        if kind in self.muted:
            return f"you asked for no more offers of the kind '{kind}'"
        tally = self.tallies.get(kind)
        if tally is None or not tally.turned_down:
            return None
        when = " this week" if now - tally.last <= week_s else ""
        return f"you turned down {tally.turned_down} offer{'s' if tally.turned_down != 1 else ''} " \
               f"of the kind '{kind}'{when}"

    def describe(self) -> list[str]:
        """What was learned, per kind, in words (Settings shows these lines)."""
        lines = []
        for kind in sorted(set(self.tallies) | self.muted):
            tally = self.tallies.get(kind, Tally())
            if kind in self.muted:
                state = "never offered (you said: not this kind)"
            elif self.held_back(kind):
                state = "offered less often"
            elif self.trusted and self.adjustment(Situation(kind, "", ""), True) \
                    - self.adjustment(Situation(kind, "", ""), False) > 0.5:
                state = "offered more readily"
            else:
                state = "as for everyone"
            lines.append(f"{kind}: {state}; {tally.taken} taken of {tally.shown} shown")
        if not lines:
            lines.append("Nothing learned yet: offers are made as for everyone.")
        return lines

    # -- its state, the person's data ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"names": self.names, "mean": [round(float(v), 6) for v in self.mean],
                "cov": [[round(float(v), 8) for v in row] for row in self.cov],
                "record": round(self.record, 6), "decisions": self.decisions, "trusted": self.trusted, "muted": sorted(self.muted),
                "tallies": {k: [t.shown, t.taken, t.turned_down, t.last] for k, t in self.tallies.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any], **settings: Any) -> PersonModel:
        """The state `to_json` wrote; a damaged one (wrong shapes, wrong types) gives a fresh model."""
        model = cls(**settings)
        try:
            names = [str(n) for n in data["names"]]
            mean = np.array(data["mean"], dtype=float)
            cov = np.array(data["cov"], dtype=float).reshape(len(names), len(names))
            if mean.shape != (len(names),):
                raise ValueError("shapes differ")
            model.names, model.mean, model.cov = names, mean, cov
            model.record, model.trusted = float(data["record"]), bool(data["trusted"])
            model.decisions = int(data["decisions"])
            model.muted = {str(k) for k in data.get("muted", [])}
            model.tallies = {str(k): Tally(int(v[0]), int(v[1]), int(v[2]), float(v[3]))
                             for k, v in data.get("tallies", {}).items()}
        except (KeyError, TypeError, ValueError, IndexError):
            return cls(**settings)
        return model
