"""One replay run, from loaded parts to its summary, notes and report (`proactive replay` is a thin layer on it).

The CLI checks every input and builds the parts (model, gate, judge, cache) from its options; this runs our
agent over the sessions, judges the baselines' archived traces with the same judge, and writes `turns.jsonl`,
the traces and `report.md` when asked. Kept apart from `replay.py`, which holds the per-turn machinery.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from proactive.assistant.pages import PageReader
from proactive.assistant.policy import Gate

from .assessment import Progress, no_progress
from .metrics import Summary, definitions, summarize
from .provenance import provenance, settings_line
from .replay import Baselines, Cache, Judge, Replayer, agent_name, judge_trace, save_run
from .turns import Turn


@dataclass
class ReplayRun:
    summary: dict[str, Any]  # `replay --json`: our metrics, the judge, cache counts, baselines
    results: dict[str, Summary]  # agent name -> metrics (ours first)
    notes: list[str] = field(default_factory=list)  # what a reader needs to know: model, judge, gate, files
    turns: list[Turn] = field(default_factory=list)
    ours: str = "ours"  # our row's name in `results`
    agent: str = "ours"  # our traces' folder name
    header: dict[str, Any] = field(default_factory=dict)  # provenance.provenance(): version, command, inputs


def settings(model_spec: str, k: int, rm_spec: str | None, proactivity: str | None, judge_spec: str,
             as_live: bool, search_engine: str | None) -> dict[str, Any]:
    """Every setting that changes a replay's figures, as the report's header lists them: a figure quoted with
    these (and the inputs' digests) can be reproduced on any machine. `rm_spec` and `proactivity` are None
    without a gate; `search_engine` None when no page is fetched."""
    return {"model": model_spec, "k": k, "gate": rm_spec or "none (the first candidate is shown)",
            "proactivity": proactivity, "judge": judge_spec,
            "timing": "as live (--as-live)" if as_live else "every turn (the paper's protocol)",
            "fetch": search_engine or "off"}


def run(paths: list[Path], total: int, replayer: Replayer, gate: Gate | None, judge: Judge, cache: Cache, model_spec: str,
        rm_spec: str, judge_spec: str, baselines: Baselines | None, labels: dict[str, bool] | None,
        progress: Progress = no_progress, command: str = "", labels_path: Path | None = None,
        settings: dict[str, Any] | None = None) -> ReplayRun:
    """Replay `paths` (`total` turns in all) and judge `baselines` with the same judge (the models left out
    because a trace could not be read are named in the notes and the summary). `settings` (`settings()`) go into
    the header."""
    baselines = baselines or Baselines()
    started = time.time()
    notes = [f"model: {model_spec}, k={replayer.k}", f"judge: {judge.name}",
             "gate: none (raw first candidate)" if gate is None else
             f"gate: {gate.scorer.name}, need first: P(need) >= {gate.proactivity.threshold} or nothing is "
             "generated"]
    if settings:
        notes.insert(0, settings_line(settings).removeprefix("- "))
    if gate is not None and judge_spec == rm_spec:
        notes.append("WARNING: the judge is the gate's own reward model, so judged metrics are circular (it "
                     "accepts what it let through); need detection against human labels is the headline.")
    turns: list[Turn] = []
    with progress(total, "replaying") as advance:
        for path in paths:
            turns += replayer.session(path, advance)
    warned = in_sample(gate, turns) if gate is not None else []
    notes += warned
    ours = f"ours ({model_spec}{'' if gate is None else ' + gate'})"
    scored_on = ("in-sample (the gate was trained on these sessions)" if warned else
                 "sessions the gate was not trained on" if gate is not None else "no gate")
    held = held_out(gate) if warned and gate is not None else None
    results = {ours: replace(summarize(turns, labels), scored_on=scored_on, held_out=held)}
    notes += figure_notes(results[ours], gate is not None)
    for name, reason in baselines.failed.items():
        notes.append(f"baseline {name} left out: {reason}")
    results.update(judged_baselines(baselines, judge, labels, progress))
    cache.close()
    summary = dict(results[ours].to_json(), judge=judge.name, cache={"hits": cache.hits, "misses": cache.misses})
    if len(results) > 1:
        summary["baselines"] = {name: r.to_json() for name, r in results.items() if name != ours}
    if baselines.failed:
        summary["baselines_failed"] = dict(baselines.failed)
    header = provenance(command, started, paths, labels_path,
                        {name: [t.path for t in traces] for name, traces in baselines.traces.items()}, settings)
    summary["run"] = header
    summary["definitions"] = definitions()  # what each reported figure is (metrics.JUDGED, metrics.NEED)
    return ReplayRun(summary, results, notes, turns, ours,
                     agent_name(model_spec, None if gate is None else rm_spec,
                                None if gate is None else gate.proactivity.threshold, replayer.as_live), header)


def figure_notes(ours: Summary, gated: bool) -> list[str]:
    """The notes on our figures: offers at the moments the gate recognised a need, and P(need)'s calibration."""
    from .report import fmt

    notes = []
    at_need = ours.offers_at_need
    if gated and at_need.recognised:
        notes.append(f"offers at the {at_need.recognised} moments the gate recognised a need: shown at "
                     f"{at_need.shown} ({fmt(at_need.shown_share)}), on screen at {at_need.on_screen} "
                     f"({fmt(at_need.on_screen_share)}: shown then, or at most {at_need.on_screen_s:.0f} s "
                     "earlier and not answered)")
    calib = ours.need_calibration
    if calib and calib["n"]:
        notes.append(f"P(need) vs human labels: ECE {fmt(calib['ece'])} ({calib['bins']} equal-width bins), "
                     f"ROC AUC {fmt(calib['auc'])}, {calib['n']} labelled turns")
    return notes


def judged_baselines(baselines: Baselines, judge: Judge, labels: dict[str, bool] | None,
                     progress: Progress = no_progress) -> dict[str, Summary]:
    """Each archived model's summary, its traces judged by the same judge."""
    results = {}
    if baselines.traces:
        with progress(sum(map(len, baselines.traces.values())), "judging baselines") as advance:
            for name, traces in baselines.traces.items():
                judged: list[Turn] = []
                for trace in traces:
                    judged += judge_trace(trace, judge)
                    advance()
                results[name] = summarize(judged, labels)
    return results


def held_out(gate: Gate) -> dict[str, Any] | None:
    """The gate's need figures on sessions it was not trained on, where its artefact records them at this
    threshold (each session scored by a need model trained on the others: `need.cross_validation_loso`), so an
    in-sample row is read beside the fair one."""
    cv = ((getattr(gate.scorer, "meta", None) or {}).get("need") or {}).get("cross_validation_loso") or {}
    for level in cv.values():
        if isinstance(level, dict) and level.get("threshold") == gate.proactivity.threshold:
            return {**{k: level[k] for k in ("precision", "recall", "f1", "fpr")}, "contexts": cv.get("contexts")}
    return None


def in_sample(gate: Gate, turns: list[Turn]) -> list[str]:
    """A warning when the gate's reward model was trained on contexts of the replayed sessions (the artefact
    lists them, `training_contexts`): its need figures here are then in-sample, not a measure of new sessions."""
    trained = set((getattr(gate.scorer, "meta", None) or {}).get("training_contexts") or ())
    seen = {str(t.time).strip(): t.session for t in turns}
    overlap = trained & seen.keys()
    if not overlap:
        return []
    return [f"WARNING: the gate's reward model was trained on {len(overlap)} of the {len(seen)} replayed "
            f"contexts ({len({seen[k] for k in overlap})} of {len(set(seen.values()))} sessions): its figures here are "
            "in-sample; held-out figures come from session-grouped cross-validation (bench/need_cv.py)."]


def write(result: ReplayRun, out: Path, labels: dict[str, bool] | None) -> None:
    """`turns.jsonl`, our traces (which `--baselines` reads back) and `report.md` in `out`; OSError if it cannot
    (the model calls are cached, so a rerun is quick)."""
    from .report import write_report

    save_run(out, result.agent, result.turns, labels)
    report = write_report(out, result.ours, result.turns, result.results, labels, result.notes, result.header)
    result.notes += [f"report: {report}", f"turns: {out / 'turns.jsonl'}",
                     f"traces: {out / 'traces' / result.agent} (read back with --baselines {out / 'traces'})"]


HELP_KEYS = ("parts", "text", "url", "history", "answer", "pages")


def accept_all(turns: list[Turn], paths: list[Path], model: Any, out: Path,
               progress: Progress = no_progress, on_row: Callable[[dict[str, Any]], None] | None = None,
               reader: PageReader | None = None) -> Path:
    """`replay --accept`: accept every shown offer and write what the help produced to `out/help.jsonl`, one line
    per shown offer: `{"session","index","task","help":{"parts","text","url","history","answer"}}`.

    The help is `help.do_task`, as the tray does it on Accept, except that a web search is recorded as its URL and
    never opened (nothing is sent), and no history is read: a recorded session is not this computer's person, so
    their own history must neither help nor leak into the file. `model` answers, as live (None: no answer).
    `reader` (`--fetch`): the pages of page offers are read through it (the search engine's results for the
    search or the page's title); without it nothing is fetched and page help says so. `parts` names what was
    given ("code", "points", "notes" from pages). OSError if `out` cannot be written."""
    from proactive.assistant.help import do_task
    from proactive.assistant.material import replay_source, searched_source

    from .sessions import load_session

    observations = {p.name: load_session(p) for p in paths}
    shown = [t for t in turns if t.shown]
    out.mkdir(parents=True, exist_ok=True)
    target = out / "help.jsonl"
    with target.open("w", encoding="utf-8") as f, progress(len(shown), "accepting") as advance:
        for t in shown:
            context = observations[t.session][: t.index + 1]
            material = searched_source(reader) if reader is not None else replay_source(context)
            result = do_task(model, context, t.shown or "", t.action, search="on", open_browser=False,
                             history_search=False, material=material)
            data = result.to_json()
            row = {"session": t.session, "index": t.index, "task": t.shown,
                   "help": {k: list(data[k]) if isinstance(data[k], tuple) else data[k] for k in HELP_KEYS}}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            if on_row is not None:
                on_row(row)
            advance()
    return target
