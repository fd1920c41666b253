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
from dataclasses import dataclass
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

from .turns import Turn, label_of, turn_seconds

__all__ = ["CATEGORIES", "agreement", "short_category", "Judgement", "judgement", "confusion", "paper_metrics",
           "event_at_k", "need_labels", "context_key", "need_detection", "percentile", "calibration",
           "clustered_bootstrap", "summarize", "offers_at_need", "need_calibration", "ON_SCREEN_S", "Metric", "JUDGED",
           "NEED", "definitions", "definitions_table"]


@dataclass(frozen=True)
class Judgement:
    """One judged moment: what the agent did (`task` after null normalisation) and whether the user accepts it;
    `accepted` None means the judgement failed."""

    task: str | None
    accepted: bool | None


def judgement(task: Any, accepted: bool | None) -> Judgement:
    return Judgement(normalize_task(task), accepted)


def confusion(judgements: Iterable[Judgement]) -> dict[str, int]:
    """tp, fp, tn, fn and errors of judged predictions: a proposal is a positive prediction, and the truth is
    positive (help was wanted) when the proposal was accepted or the silence rejected."""
    judgements = list(judgements)
    judged = [j for j in judgements if j.accepted is not None]
    counts = binary_confusion([j.task is not None for j in judged],
                              [(j.task is not None) == j.accepted for j in judged])
    return {**counts, "errors": len(judgements) - len(judged)}


def paper_metrics(judgements: Iterable[Judgement]) -> dict[str, Any]:
    """The paper's recall, precision, accuracy, false alarm (FP/(TP+FP)) and F1, plus the conventional FPR."""
    c = confusion(judgements)
    tp, fp, tn, fn = c["tp"], c["fp"], c["tn"], c["fn"]
    r = rates(c)
    return {
        "paper": {"recall": r["recall"], "precision": r["precision"],
                  "accuracy": ratio(tp + tn, tp + fp + tn + fn), "false_alarm": ratio(fp, tp + fp), "f1": r["f1"]},
        "fpr": r["fpr"],
        "counts": c,
        "errors": c["errors"],
    }


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


def need_detection(spoke: Mapping[str, bool], labels: Mapping[str, bool]) -> dict[str, Any]:
    """Speaking (showing a task) vs needing help, at every labelled context the agent saw. No judge involved."""
    seen = [key for key in labels if key in spoke]
    counts = binary_confusion([spoke[key] for key in seen], [labels[key] for key in seen])
    return {"contexts": len(seen), **counts, **rates(counts)}


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
    """One reported figure: its column's name, where it is in a replay summary (`key`: in the protocol's figures
    for `scope` "protocol", in the summary itself for "run", in `need` for "need"), what it means, and whether it is
    given with its 95% interval (whole sessions resampled: `paper_ci`, `need_ci`). The report's tables, the
    summary's `definitions` in `replay --json` and the table in docs/research.md are written from these lists."""

    name: str
    key: str
    definition: str
    scope: str = "protocol"
    interval: bool = False

    def value(self, summary: Mapping[str, Any], protocol: str = "paper") -> Any:
        """This figure of a summary (`summarize`), under `protocol` for a protocol's figure."""
        if self.scope == "need":
            return (summary.get("need") or {}).get(self.key)
        if self.scope == "run":
            found: Any = summary
            for part in self.key.split("."):
                found = found.get(part) if isinstance(found, Mapping) else None
            return found
        figures = {**summary["paper"], "fpr": summary["fpr"]} if protocol == "paper" else summary[protocol]
        return figures.get(self.key)

    def interval_of(self, summary: Mapping[str, Any], protocol: str = "paper") -> tuple[Any, Any] | None:
        """The figure's 95% interval, when it has one there (the paper protocol's, or need detection's)."""
        if not self.interval or (self.scope == "protocol" and protocol != "paper"):
            return None
        ci = summary.get("need_ci" if self.scope == "need" else "paper_ci")
        return tuple(ci[self.key]) if ci and ci.get(self.key) is not None else None  # type: ignore[return-value]


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


def offers_at_need(turns: Sequence[Turn], on_screen_s: float = ON_SCREEN_S) -> dict[str, Any]:
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
    return {"recognised": recognised, "shown": shown, "on_screen": on_screen,
            "shown_share": shown / recognised if recognised else None,
            "on_screen_share": on_screen / recognised if recognised else None, "on_screen_s": on_screen_s}


def summarize(turns: Sequence[Turn], labels: dict[str, bool] | None) -> dict[str, Any]:
    """The replay summary for one set of turns: the judged metrics under both protocols, each labelled (`paper`:
    the task proposed at each turn, as ProactiveBench scores it, whether or not this configuration can deliver it;
    `live`: what this configuration shows), pred@k, counts and, with labels, need detection against them (with
    its intervals) and the calibration of P(need)."""
    shown = [Judgement(t.shown, t.judged_shown) for t in turns]
    proposed = [Judgement(t.proposed, t.judged_proposed) for t in turns]
    at_k = [event_at_k(t.candidates, t.judged_candidates, t.judged_silence) for t in turns]
    paper = paper_metrics(proposed)
    live = paper_metrics(shown)
    k_metrics = paper_metrics(at_k)
    latencies = [t.latency_s for t in turns if t.latency_s is not None]
    generation_errors = sum(len(t.errors) for t in turns)
    out: dict[str, Any] = {
        "events": len(turns),
        "paper": paper["paper"],
        "fpr": paper["fpr"],
        "live": {**live["paper"], "fpr": live["fpr"], "counts": live["counts"]},
        "pred_at_k": {**k_metrics["paper"], "fpr": k_metrics["fpr"]},
        "counts": paper["counts"],
        "latency_s": {"p50": percentile(latencies, 0.5), "p95": percentile(latencies, 0.95)},
        "errors": generation_errors + paper["errors"],
        "judge_failures": paper["errors"],
        "generation_failures": generation_errors,
    }
    out["offers_at_need"] = offers_at_need(turns)
    # 95% intervals of the judged figures too, resampling whole sessions (None for fewer than two)
    by_session: dict[str, list[Turn]] = {}
    for t in turns:
        by_session.setdefault(t.session, []).append(t)
    out["paper_ci"] = clustered_bootstrap([paper_metrics([Judgement(t.proposed, t.judged_proposed) for t in ts])
                                           ["counts"] for ts in by_session.values()])
    if labels is not None:
        # need detected: an offer shown, or the offer for this need held back because it was just shown and not
        # answered (the feedback memory; live does the same); `need_shown` counts shown offers only
        spoke = {str(t.time).strip(): t.shown is not None or t.withheld for t in turns}
        out["need"] = need_detection(spoke, labels)
        sessions: dict[str, dict[str, bool]] = {}
        for t in turns:
            key = str(t.time).strip()
            sessions.setdefault(t.session, {})[key] = spoke[key]
        # 95% intervals, resampling whole sessions (those with labelled contexts; None for fewer than two)
        clusters = [need_detection(s, labels) for s in sessions.values()]
        out["need_ci"] = clustered_bootstrap([c for c in clusters if c["contexts"]])
        out["need_shown"] = need_detection({str(t.time).strip(): t.shown is not None for t in turns}, labels)
        if any(t.p_need is not None for t in turns):
            out["need_calibration"] = need_calibration(turns, labels)
    return out
