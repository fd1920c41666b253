"""Proactivity metrics, defined once so every report computes them the same way.

Per judged prediction, as in ProactiveBench: a task proposed and accepted is a TP, proposed and rejected an FP,
silence accepted a TN, silence rejected an FN. Where the paper's scripts went wrong, this module does not:
- every null variant (None, "", "null", "none", [] ...) is silence, never a proposal;
- "false alarm" is reported as the paper defines it, FP/(TP+FP), *and* the conventional FPR, FP/(FP+TN), under
  its own name;
- a prediction whose judgement failed is counted in `errors`, never silently dropped or scored.

Calibration (of P(need) and P(accept)): `calibration(probs, labels)` gives the expected calibration error (ECE)
over 10 equal-width bins of the predicted probability (its `bins` argument; the result says how many): each
bin's |observed frequency - mean prediction|, weighted by its share of the items. It also gives the reliability
curve (per non-empty bin: mean prediction, observed frequency, count) and ROC AUC. It is defined once, in
`models/labels.py`, because the need model's training report uses it too.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from proactive.models.labels import (
    CATEGORIES,
    agreement,
    calibration,
    confusion as binary_confusion,
    context_key,
    normalize_task,
    rates,
    ratio,
    short_category,
)

from .turns import Turn, by_session, label_of, turn_seconds

__all__ = ["CATEGORIES", "agreement", "short_category", "Judgement", "judgement", "confusion", "paper_metrics",
           "event_at_k", "need_labels", "context_key", "need_detection", "percentile", "calibration",
           "clustered_bootstrap", "summarize", "offers_at_need", "need_calibration", "ON_SCREEN_S", "Metric", "JUDGED",
           "NEED", "definitions", "definitions_table", "Counts", "Judged", "NeedFigures", "OffersAtNeed", "Summary"]


@dataclass(frozen=True)
class Judgement:
    """One judged moment: what the agent did (`task` after null normalisation) and whether the user accepts it;
    `accepted` None means the judgement failed."""

    task: str | None
    accepted: bool | None


def judgement(task: Any, accepted: bool | None) -> Judgement:
    return Judgement(normalize_task(task), accepted)


class _Cells:
    """What has confusion counts (`tp`, `fp`, `tn`, `fn` fields): `Counts` and `NeedFigures`."""

    tp: int
    fp: int
    tn: int
    fn: int

    def confusion(self) -> dict[str, int]:
        """tp, fp, tn, fn as `models.labels.rates` and `clustered_bootstrap` read them."""
        return {"tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn}


@dataclass(frozen=True)
class Counts(_Cells):
    """Confusion counts (a proposal is a positive prediction; the truth is positive where help was wanted) and the
    judgements that failed (`errors`: counted, never scored)."""

    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0
    errors: int = 0


def confusion(judgements: Iterable[Judgement]) -> Counts:
    """tp, fp, tn, fn and errors of judged predictions: a proposal is a positive prediction, and the truth is
    positive (help was wanted) when the proposal was accepted or the silence rejected."""
    judgements = list(judgements)
    judged = [j for j in judgements if j.accepted is not None]
    counts = binary_confusion([j.task is not None for j in judged],
                              [(j.task is not None) == j.accepted for j in judged])
    return Counts(**counts, errors=len(judgements) - len(judged))


@dataclass(frozen=True)
class Judged:
    """One protocol's judged figures: the paper's recall, precision, accuracy, false alarm (FP/(TP+FP)) and F1,
    the conventional FPR (FP/(FP+TN)), and the counts they come from."""

    recall: float
    precision: float
    accuracy: float
    false_alarm: float
    f1: float
    fpr: float
    counts: Counts

    def paper(self) -> dict[str, float]:
        """The paper's five figures, as `replay --json` gives them."""
        return {"recall": self.recall, "precision": self.precision, "accuracy": self.accuracy,
                "false_alarm": self.false_alarm, "f1": self.f1}


def paper_metrics(judgements: Iterable[Judgement]) -> Judged:
    """The paper's recall, precision, accuracy, false alarm (FP/(TP+FP)) and F1, plus the conventional FPR."""
    c = confusion(judgements)
    r = rates(c.confusion())
    return Judged(recall=r["recall"], precision=r["precision"], accuracy=ratio(c.tp + c.tn, c.tp + c.fp + c.tn + c.fn),
                  false_alarm=ratio(c.fp, c.tp + c.fp), f1=r["f1"], fpr=r["fpr"], counts=c)


def event_at_k(candidates: Sequence[Any], candidate_accepted: Sequence[bool | None],
               silence_accepted: bool | None) -> Judgement:
    """pred@k at event level: the event is a proposal if any of its k candidates is a task, and it is accepted
    if any candidate is; a silent event is judged as silence. Failed candidate judgements are ignored unless
    all of them failed."""
    tasks = [(normalize_task(c), a) for c, a in zip(candidates, candidate_accepted, strict=True)]
    tasks = [(t, a) for t, a in tasks if t is not None]
    if not tasks:
        return Judgement(None, silence_accepted)
    known = [a for _, a in tasks if a is not None]
    if not known:
        return Judgement(tasks[0][0], None)
    accepted = [t for t, a in tasks if a]
    return Judgement(accepted[0] if accepted else tasks[0][0], bool(accepted))


def need_labels(rows: Iterable[Mapping[str, Any]]) -> dict[str, bool]:
    """Context key (the time of its last observation) -> whether help was needed there: true if any labelled
    row ending at that time has `help_needed` true. Times identify contexts because event texts were lightly
    edited between dataset releases while times were not."""
    labels: dict[str, bool] = {}
    for row in rows:
        key = context_key(row["obs"])
        labels[key] = labels.get(key, False) or bool(row.get("help_needed"))
    return labels


@dataclass(frozen=True)
class NeedFigures(_Cells):
    """Need detection at the labelled contexts an agent saw: whether it spoke (a positive prediction) against
    whether help was needed (the truth), with precision, recall, F1 and FPR."""

    contexts: int
    tp: int
    fp: int
    tn: int
    fn: int
    precision: float
    recall: float
    f1: float
    fpr: float


def need_detection(spoke: Mapping[str, bool], labels: Mapping[str, bool]) -> NeedFigures:
    """Speaking (showing a task) vs needing help, at every labelled context the agent saw. No judge involved."""
    seen = [key for key in labels if key in spoke]
    counts = binary_confusion([spoke[key] for key in seen], [labels[key] for key in seen])
    r = rates(counts)
    return NeedFigures(contexts=len(seen), tp=counts["tp"], fp=counts["fp"], tn=counts["tn"], fn=counts["fn"],
                       precision=r["precision"], recall=r["recall"], f1=r["f1"], fpr=r["fpr"])


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in [0, 1]); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def clustered_bootstrap(clusters: Sequence[Mapping[str, int]], samples: int = 1000, seed: int = 0,
                        level: float = 0.95) -> dict[str, list[float]] | None:
    """`level` intervals of precision, recall, F1 and FPR from confusion counts (tp, fp, tn, fn) per cluster (a
    session), resampling whole clusters with replacement `samples` times (percentile intervals, a fixed seed, so
    a report is reproducible). Why clusters: the turns of one session are not independent (one person, one
    task), so resampling turns would give intervals too narrow. None with fewer than two clusters."""
    if len(clusters) < 2:
        return None
    rng = random.Random(seed)
    drawn: dict[str, list[float]] = {"precision": [], "recall": [], "f1": [], "fpr": []}
    for _ in range(samples):
        pick = [clusters[rng.randrange(len(clusters))] for _ in clusters]
        for name, value in rates({k: sum(c[k] for c in pick) for k in ("tp", "fp", "tn", "fn")}).items():
            drawn[name].append(value)
    tail = (1 - level) / 2
    return {name: [percentile(values, tail), percentile(values, 1 - tail)] for name, values in drawn.items()}


# ------------------------------------------------------------------------------------ the metrics, as reported

@dataclass(frozen=True)
class Metric:
    """One reported figure: its column's name, the attribute of a `Summary` it reads (`key`, dotted for a nested
    one: of the protocol's `Judged` figures for `scope` "protocol", of the summary itself for "run", of `need` for
    "need"), what it means, and whether it is
    given with its 95% interval (whole sessions resampled: `paper_ci`, `need_ci`). The report's tables, the
    summary's `definitions` in `replay --json` and the table in docs/research.md are written from these lists."""

    name: str
    key: str
    definition: str
    scope: str = "protocol"
    interval: bool = False

    def value(self, summary: Summary, protocol: str = "paper") -> Any:
        """This figure of a summary (`summarize`), under `protocol` ("paper" or "live") for a protocol's figure."""
        if self.scope == "need":
            return None if summary.need is None else getattr(summary.need, self.key)
        found: Any = summary if self.scope == "run" else getattr(summary, protocol)
        for part in self.key.split("."):
            found = getattr(found, part)
        return found

    def interval_of(self, summary: Summary, protocol: str = "paper") -> tuple[float, float] | None:
        """The figure's 95% interval, when it has one there (the paper protocol's, or need detection's)."""
        if not self.interval or (self.scope == "protocol" and protocol != "paper"):
            return None
        ci = summary.need_ci if self.scope == "need" else summary.paper_ci
        found = ci.get(self.key) if ci else None
        return (found[0], found[1]) if found else None


#: the judged columns of a replay, ProactiveBench's metrics (the judge decides whether each task is accepted)
JUDGED: tuple[Metric, ...] = (
    Metric("events", "events", "the turns replayed (every recorded event)", scope="run"),
    Metric("recall", "recall", "TP/(TP+FN)"),
    Metric("precision", "precision", "TP/(TP+FP)"),
    Metric("accuracy", "accuracy", "(TP+TN)/(TP+FP+TN+FN)"),
    Metric("false alarm (paper)", "false_alarm", "FP/(TP+FP), the paper's name for 1 - precision"),
    Metric("F1", "f1", "2 x precision x recall/(precision + recall)", interval=True),
    Metric("FPR", "fpr", "FP/(FP+TN), the share of moments where nobody wanted help at which the agent spoke",
           interval=True),
    Metric("pred@k F1", "pred_at_k.f1", "F1 where a turn counts as accepted if any of its k candidates is",
           scope="run"),
    Metric("errors", "errors", "generations that could not be read and judgements that failed: counted, never "
                               "scored", scope="run"),
)

#: need detection against the human labels (no judge): did the agent speak where a person needed help?
NEED: tuple[Metric, ...] = (
    Metric("labelled contexts", "contexts", "the distinct contexts with a human need label", scope="need"),
    Metric("need precision", "precision", "of the labelled contexts where the agent spoke, the share that needed "
                                          "help", scope="need", interval=True),
    Metric("need recall", "recall", "of the labelled contexts that needed help, the share where the agent spoke",
           scope="need", interval=True),
    Metric("need F1", "f1", "2 x need precision x need recall/(need precision + need recall)", scope="need",
           interval=True),
    Metric("need FPR", "fpr", "of the labelled contexts that needed no help, the share where the agent spoke",
           scope="need", interval=True),
)


def definitions() -> dict[str, str]:
    """Every reported figure's name and what it is (`replay --json`'s `definitions`)."""
    return {m.name: m.definition for m in (*JUDGED, *NEED)}


def definitions_table() -> list[str]:
    """The figures as a Markdown table (docs/research.md holds this table; a test keeps them the same)."""
    return ["| figure | what it is | 95% interval |", "|---|---|---|",
            *(f"| {m.name} | {m.definition} | {'yes' if m.interval else '-'} |" for m in (*JUDGED, *NEED))]


# ---------------------------------------------------------------------------------------- a replay's summary

def need_calibration(turns: Sequence[Turn], labels: Mapping[str, bool]) -> dict[str, Any]:
    """Calibration of the gate's P(need) against the human need label, one item per labelled turn."""
    pairs = [(t.p_need, label_of(t, labels)) for t in turns]
    known = [(p, y) for p, y in pairs if p is not None and y is not None]
    return calibration([p for p, _ in known], [y for _, y in known])


#: seconds an unanswered offer stays on screen (the tray's default `popup_seconds`)
ON_SCREEN_S = 30.0


@dataclass(frozen=True)
class OffersAtNeed:
    """At the moments the gate recognised a need: how many showed an offer, and how many had one on screen."""

    recognised: int
    shown: int
    on_screen: int
    on_screen_s: float

    @property
    def shown_share(self) -> float | None:
        return self.shown / self.recognised if self.recognised else None

    @property
    def on_screen_share(self) -> float | None:
        return self.on_screen / self.recognised if self.recognised else None

    def to_json(self) -> dict[str, Any]:
        return {"recognised": self.recognised, "shown": self.shown, "on_screen": self.on_screen,
                "shown_share": self.shown_share, "on_screen_share": self.on_screen_share,
                "on_screen_s": self.on_screen_s}


def offers_at_need(turns: Sequence[Turn], on_screen_s: float = ON_SCREEN_S) -> OffersAtNeed:
    """At the moments the gate recognises a need (an offer shown, or one proposed and withheld): how many show
    an offer, and how many have one on screen (shown then, or shown at most `on_screen_s` earlier in the session
    and not answered: replay answers nothing, and the feedback memory does not repeat an offer while it is up)."""
    recognised = shown = on_screen = 0
    last: dict[str, float] = {}
    for t in turns:
        now = turn_seconds(t)
        if t.shown is not None or t.withheld:
            recognised += 1
            shown += t.shown is not None
            on_screen += t.shown is not None or (t.session in last and now - last[t.session] <= on_screen_s)
        if t.shown is not None:
            last[t.session] = now
    return OffersAtNeed(recognised, shown, on_screen, on_screen_s)


#: 95% intervals by figure name (`clustered_bootstrap`), or None for fewer than two sessions
Intervals = dict[str, list[float]] | None


@dataclass(frozen=True)
class Summary:
    """A replay's figures for one agent over a set of turns (`summarize`); `to_json` is `replay --json`'s form.

    `paper` judges the task proposed at each turn, as ProactiveBench scores it, whether or not this
    configuration can deliver it; `live` what this configuration shows; `pred_at_k` an event accepted if any of
    its k candidates is. The need figures are there only with human labels. `scored_on` and `held_out` are said
    by the replay harness about our own row (what the gate was trained on, and its held-out figures)."""

    events: int
    paper: Judged
    live: Judged
    pred_at_k: Judged
    latency_p50: float
    latency_p95: float
    generation_failures: int
    offers_at_need: OffersAtNeed
    paper_ci: Intervals
    need: NeedFigures | None = None
    need_ci: Intervals = None
    need_shown: NeedFigures | None = None
    need_calibration: dict[str, Any] | None = None  # models.labels.calibration's result, P(need) vs the labels
    scored_on: str | None = None
    held_out: dict[str, Any] | None = None

    @property
    def judge_failures(self) -> int:
        return self.paper.counts.errors

    @property
    def errors(self) -> int:
        """Generations that could not be read and judgements that failed: counted, never scored."""
        return self.generation_failures + self.judge_failures

    def to_json(self) -> dict[str, Any]:
        """The summary as `replay --json` writes it (its layout is the command's contract)."""
        out: dict[str, Any] = {
            "events": self.events,
            "paper": self.paper.paper(),
            "fpr": self.paper.fpr,
            "live": {**self.live.paper(), "fpr": self.live.fpr, "counts": asdict(self.live.counts)},
            "pred_at_k": {**self.pred_at_k.paper(), "fpr": self.pred_at_k.fpr},
            "counts": asdict(self.paper.counts),
            "latency_s": {"p50": self.latency_p50, "p95": self.latency_p95},
            "errors": self.errors,
            "judge_failures": self.judge_failures,
            "generation_failures": self.generation_failures,
            "offers_at_need": self.offers_at_need.to_json(),
            "paper_ci": self.paper_ci,
        }
        if self.need is not None:
            out |= {"need": asdict(self.need), "need_ci": self.need_ci,
                    "need_shown": None if self.need_shown is None else asdict(self.need_shown)}
        if self.need_calibration is not None:
            out["need_calibration"] = self.need_calibration
        if self.scored_on is not None:
            out["scored_on"] = self.scored_on
        if self.held_out is not None:
            out["held_out"] = self.held_out
        return out


def summarize(turns: Sequence[Turn], labels: Mapping[str, bool] | None) -> Summary:
    """The replay summary for one set of turns: the judged metrics under both protocols, pred@k, counts and,
    with labels, need detection against them (with its intervals) and the calibration of P(need)."""
    proposed = [Judgement(t.proposed, t.judged_proposed) for t in turns]
    latencies = [t.latency_s for t in turns if t.latency_s is not None]
    sessions = by_session(turns)
    summary = Summary(
        events=len(turns),
        paper=paper_metrics(proposed),
        live=paper_metrics(Judgement(t.shown, t.judged_shown) for t in turns),
        pred_at_k=paper_metrics(event_at_k(t.candidates, t.judged_candidates, t.judged_silence) for t in turns),
        latency_p50=percentile(latencies, 0.5), latency_p95=percentile(latencies, 0.95),
        generation_failures=sum(len(t.errors) for t in turns),
        offers_at_need=offers_at_need(turns),
        # 95% intervals of the judged figures too, resampling whole sessions (None for fewer than two)
        paper_ci=clustered_bootstrap([confusion(Judgement(t.proposed, t.judged_proposed) for t in ts).confusion()
                                      for ts in sessions.values()]))
    if labels is None:
        return summary
    # need detected: an offer shown, or the offer for this need held back because it was just shown and not
    # answered (the feedback memory; live does the same); `need_shown` counts shown offers only
    spoke = {str(t.time).strip(): t.shown is not None or t.withheld for t in turns}
    # 95% intervals, resampling whole sessions (those with labelled contexts; None for fewer than two)
    clusters = [need_detection({str(t.time).strip(): spoke[str(t.time).strip()] for t in ts}, labels)
                for ts in sessions.values()]
    return replace(
        summary, need=need_detection(spoke, labels),
        need_ci=clustered_bootstrap([c.confusion() for c in clusters if c.contexts]),
        need_shown=need_detection({str(t.time).strip(): t.shown is not None for t in turns}, labels),
        need_calibration=need_calibration(turns, labels) if any(t.p_need is not None for t in turns) else None)
