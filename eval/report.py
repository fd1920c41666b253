"""Replay reports: `report.md` with the summary table (ours beside the baselines), per-session results, the
tasks the person would have seen (quoted with the events before them, so anyone can judge them), the
calibration of P(need) against human labels, and plots (confusion matrix, per-session bars, latency histogram,
reliability) as PNG files next to it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .metrics import JUDGED, NEED, Metric, Summary, percentile, summarize
from .turns import Turn, by_session, label_of

QUOTES = 20  # shown tasks quoted in the report


def fmt(value: Any) -> str:
    """Floats to 3 decimals; a missing value (None) as '-'."""
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


#: what the judged columns mean (ProactiveBench's metrics; the judge decides whether each task would be accepted),
#: written from their definitions (`metrics.JUDGED`)
DEFINITIONS = (
    "Definitions: a proposed task the judge accepts is a TP, one it rejects an FP; silence the judge accepts is a "
    "TN, silence it rejects an FN. " + "; ".join(f"{m.name} {m.definition}" for m in JUDGED) + ". In brackets: 95% "
    "intervals of the paper protocol's " + " and ".join(m.name for m in JUDGED if m.interval) + ", resampling whole "
    "sessions. Protocols: *paper* judges the task the system proposes at each turn (for ours: the gate's pick, also "
    "where this configuration could not deliver it or the feedback memory held it back); *live* judges only what "
    "this configuration shows.")


def cell(metric: Metric, summary: Summary, protocol: str = "paper") -> str:
    """One figure as a table shows it: 3 decimals, with its 95% interval in brackets when it has one."""
    value, ci = metric.value(summary, protocol), metric.interval_of(summary, protocol)
    return f"{fmt(value)} [{fmt(ci[0])}, {fmt(ci[1])}]" if ci else fmt(value)


def in_sample(summary: Summary) -> bool:
    """Whether a row's figures were scored on sessions its gate was trained on (so they are not a measure of new
    sessions)."""
    return (summary.scored_on or "").startswith("in-sample")


def row_name(name: str, summary: Summary) -> str:
    """A row's name, marked when its figures are in-sample."""
    return f"{name} (in-sample)" if in_sample(summary) else name


def summary_rows(results: Mapping[str, Summary], ours: str | None = None) -> list[str]:
    """The judged metrics (`metrics.JUDGED`), one row per model and protocol: ours (the row named `ours`; None:
    every row is ours) under both, each labelled, marked when in-sample; an archived model's predictions as it
    proposed them (the paper's)."""
    header = "| model | protocol | " + " | ".join(m.name for m in JUDGED) + " |"
    lines = [header, "|---" * (header.count("|") - 1) + "|"]
    for name, s in results.items():
        protocols = ["paper", *(["live"] if ours is None or name == ours else [])]
        for protocol in protocols:
            lines.append(f"| {row_name(name, s)} | {protocol} | " + " | ".join(cell(m, s, protocol) for m in JUDGED)
                         + " |")
    return lines


#: what the held-out row was scored on, and why its count of contexts differs from the other rows'
HELD_OUT_SCORED_ON = ("held out by session (the need model alone, as its artefact records): all its training "
                      "contexts, synthetic ones included, so the count differs")


def need_rows(results: Mapping[str, Summary]) -> list[str]:
    """Need detection against the human labels (the headline: no judge involved; `metrics.NEED`), each figure
    with its 95% interval from resampling whole sessions (`need_ci`), and what each row's figures were scored
    on. Where ours is in-sample, the held-out figure its artefact records comes first: it is the fair one."""
    lines = ["| model | scored on | " + " | ".join(m.name for m in NEED) + " |", "|---" * (2 + len(NEED)) + "|"]
    for name, s in results.items():
        if s.need is None:
            continue
        held = s.held_out
        if held:  # the fair figure first, then the in-sample one it stands for
            lines.append(f"| {name}, held out | {HELD_OUT_SCORED_ON} | {held.get('contexts') or '-'} | "
                         + " | ".join(fmt(held[m.key]) for m in NEED if m.interval) + " |")
        scored = s.scored_on or "archived predictions"
        lines.append(f"| {row_name(name, s)} | {scored} | " + " | ".join(cell(m, s) for m in NEED) + " |")
    return lines


#: why the counts differ between rows and tables
COUNTS = ("Counts: *events* are the turns replayed (every recorded event); *labelled contexts* are the distinct "
          "contexts with a human need label (two events can share one, a few have none); an archived model's "
          "trace may lack turns its run did not reach, so its counts can be a little lower.")


def write_report(out: Path, ours_name: str, turns: Sequence[Turn], results: Mapping[str, Summary],
                 labels: dict[str, bool] | None, notes: Sequence[str], header: Mapping[str, Any] | None = None
                 ) -> Path:
    """Write report.md and its plots into `out`; returns the report's path. Without matplotlib (the [research]
    extra) the report is written without plots and says so."""
    from proactive.models.extras import MissingExtra

    from .provenance import header_lines

    out.mkdir(parents=True, exist_ok=True)
    lines = [f"# Replay report: {ours_name}", ""]
    if header:
        lines += [*header_lines(dict(header)), ""]
    lines += [f"- {n}" for n in notes]
    if labels is not None:
        lines += ["", "## Need detection against the human labels (the headline)", "",
                  "Whether the agent spoke where the annotators said help was needed; no judge involved. In "
                  "brackets: 95% intervals, resampling whole sessions 1,000 times (seed 0; none for one session). "
                  "*in-sample*: the gate was trained on these sessions' labels, so the figure is not a measure of "
                  "new sessions; the *held out* row above it is the fair figure (bench/need_cv.py measures it on "
                  "the replayed sessions alone; docs/research.md).", "", *need_rows(results), "", COUNTS, ""]
    lines += ["", "## Judged by the reward model, both protocols", "", DEFINITIONS, "", *summary_rows(results, ours_name), ""]
    per = {name: summarize(ts, labels) for name, ts in by_session(turns).items()}
    lines += ["## Per session (ours)", "", *summary_rows(per), ""]
    lines += quotes(turns, labels)
    calib = results[ours_name].need_calibration
    if calib is not None:
        lines += ["## Calibration of P(need) against the human labels", "",
                  f"{calib['n']} labelled turns, {calib['bins']} equal-width bins: expected calibration error "
                  f"{fmt(calib['ece'])}, ROC AUC {fmt(calib['auc'])} (see reliability_need.png).", ""]
    try:
        plots = _plots(out, ours_name, results, per, turns, labels is not None)
        if calib is not None and calib["n"]:
            plots.append(reliability_plot(out / "reliability_need.png", {"P(need)": calib},
                                          "P(need) vs human need labels").name)
        lines += ["## Plots", ""] + [f"![{name}]({name})" for name in plots]
    except MissingExtra as exc:
        lines += ["## Plots", "", f"Not drawn: {exc}."]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def spread(turns: Sequence[Turn], limit: int = QUOTES) -> list[Turn]:
    """Up to `limit` turns that showed a task: shared out among the sessions in turn (so every session is
    quoted), evenly spaced within each; all of them if there are fewer."""
    shown: dict[str, list[Turn]] = {}
    for t in turns:
        if t.shown is not None:
            shown.setdefault(t.session, []).append(t)
    quota = dict.fromkeys(shown, 0)
    while sum(quota.values()) < min(limit, sum(map(len, shown.values()))):
        for name, ts in shown.items():
            if quota[name] < len(ts) and sum(quota.values()) < limit:
                quota[name] += 1
    return [ts[j * len(ts) // quota[name]] for name, ts in shown.items() for j in range(quota[name])]


def quotes(turns: Sequence[Turn], labels: Mapping[str, bool] | None) -> list[str]:
    """Markdown quoting shown tasks with the three events up to them, the gate's numbers and the verdicts."""
    events = {(t.session, t.index): t for t in turns}
    picked = spread(turns)
    lines = [f"## What the person would have seen ({len(picked)} of {sum(t.shown is not None for t in turns)} "
             "shown tasks)", ""]
    for t in picked:
        lines.append(f"**{t.session}, turn {t.index + 1}** ({t.time})")
        lines += [f"> {events[(t.session, i)].event}  " for i in range(max(0, t.index - 2), t.index + 1)]
        judged = {True: "accepts", False: "rejects", None: "failed"}[t.judged_shown]
        need = {True: "help needed", False: "no help needed", None: "no label"}[label_of(t, labels)]
        # spread() picks shown turns: `t.shown is None` only narrows the type
        numbers = "" if t.p_need is None or t.shown is None else f"P(need) {t.p_need:.2f}, P(accept) {t.scores.get(t.shown, 0):.2f}; "
        lines += ["", f"- shown: **{t.shown}**", f"- {numbers}judge {judged}; human: {need}", ""]
    return lines


def reliability_plot(path: Path, curves: Mapping[str, Mapping[str, Any]], title: str) -> Path:
    """Observed frequency against mean predicted probability per bin (the diagonal is perfect calibration), one
    line per `calibration` result, labelled with its ECE; point size follows the bin's count."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.2, 4))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="perfect")
    for name, c in curves.items():
        xs, ys, ns = ([b[key] for b in c["curve"]] for key in ("p", "observed", "n"))
        [line] = ax.plot(xs, ys, marker="o", label=f"{name} (ECE {fmt(c['ece'])}, n={c['n']})")
        ax.scatter(xs, ys, s=[12 + 60 * n / max(ns) for n in ns] if ns else [], alpha=0.4, color=line.get_color())
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("predicted probability (bin mean)")
    ax.set_ylabel("observed frequency")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")  # nothing drawn outside the axes (a legend, a label) is cut
    plt.close(fig)
    return path


def _pyplot() -> Any:
    from proactive.models.extras import needs

    with needs("research", "plotting a report (--out)"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    return plt


def _save(fig: Any, plt: Any, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")  # nothing drawn outside the axes (a legend, a label) is cut
    plt.close(fig)
    return path.name


def _plots(out: Path, ours_name: str, results: Mapping[str, Summary], per: Mapping[str, Summary],
           turns: Sequence[Turn], labelled: bool) -> list[str]:
    """The report's plots; with human labels the need figures (the headline), else the judged ones."""
    plt = _pyplot()
    ours = results[ours_name]
    names = []
    if labelled and ours.need is not None:  # agreement with the human need labels
        n = ours.need
        grid, columns, title = [[n.tp, n.fp], [n.fn, n.tn]], ["help needed", "no help needed"], \
            "Spoke vs the human need labels"
        names.append(_confusion(plt, out / "confusion.png", grid, columns, title))
    c = ours.paper.counts
    names.append(_confusion(plt, out / "judged.png", [[c.tp, c.fp], [c.tn, c.fn]],
                            ["judge accepts", "judge rejects"], "Judged outcomes"))
    names.append(_sessions_plot(plt, out / "sessions.png", per, labelled))
    names.append(_latency_plot(plt, out / "latency.png", turns))
    names.append(_agents_plot(plt, out / "agents.png", ours_name, results, labelled))
    return names


def _f1_fpr(summary: Summary, need: bool) -> tuple[float, float]:
    """The (F1, FPR) a plot shows of a summary: need detection's with labels, else the judged paper protocol's."""
    if need:
        return (0.0, 0.0) if summary.need is None else (summary.need.f1, summary.need.fpr)
    return summary.paper.f1, summary.paper.fpr


def _sessions_plot(plt: Any, path: Path, per: Mapping[str, Summary], need: bool) -> str:
    """F1 and FPR per session (ours)."""
    fig, ax = plt.subplots(figsize=(7, 3.4))
    sessions = list(per)
    xs = range(len(sessions))
    figures = [_f1_fpr(per[s], need) for s in sessions]
    ax.bar([x - 0.2 for x in xs], [f for f, _ in figures], width=0.4, label="need F1" if need else "F1")
    ax.bar([x + 0.2 for x in xs], [r for _, r in figures], width=0.4, label="need FPR" if need else "FPR")
    ax.set_xticks(list(xs), [s.removesuffix(".json") for s in sessions], rotation=45, ha="right")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title("Per session (ours)")
    return _save(fig, plt, path)


def _latency_plot(plt: Any, path: Path, turns: Sequence[Turn]) -> str:
    """The time each decision took, with its p50 and p95."""
    latencies = [t.latency_s for t in turns if t.latency_s is not None]
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.hist(latencies, bins=20)
    for q, style in ((0.5, "--"), (0.95, ":")):
        value = percentile(latencies, q)
        ax.axvline(value, color="black", linestyle=style, linewidth=1, label=f"p{round(q * 100)} {value:.3g} s")
    ax.set_xlabel("seconds per decision")
    ax.set_title(f"Time to decide, {len(latencies)} decisions\n(the need-first gate; the model only where help "
                 "looked needed)", fontsize=9)
    ax.legend(fontsize=8)
    return _save(fig, plt, path)


def _agents_plot(plt: Any, path: Path, ours_name: str, results: Mapping[str, Summary], need: bool) -> str:
    """Every agent's F1 against its FPR: ours a star (hollow: its held-out figure), with 95% intervals."""
    fig, ax = plt.subplots(figsize=(9, 4.6))
    colours = plt.get_cmap("tab20").colors
    shown: list[float] = []  # the F1 values drawn, interval ends included: the y range
    for i, (name, r) in enumerate(results.items()):
        f1_value, fpr_value = _f1_fpr(r, need and r.need is not None)
        mine = name == ours_name
        colour = "tab:red" if mine else colours[(i - 1) % len(colours)]
        ci = r.need_ci if need else None
        if ci:
            ax.errorbar(fpr_value, f1_value, xerr=[[fpr_value - ci["fpr"][0]], [ci["fpr"][1] - fpr_value]],
                        yerr=[[f1_value - ci["f1"][0]], [ci["f1"][1] - f1_value]], fmt="none", ecolor=colour,
                        alpha=0.9 if mine else 0.35, linewidth=1.5 if mine else 1)
            shown += [ci["f1"][0], ci["f1"][1]]
        held = r.held_out if mine and need else None
        if held:  # the fair figure: a filled star, and ours in-sample hollow, each named by its own label
            ax.scatter([held["fpr"]], [held["f1"]], s=160, color=colour, zorder=4, marker="*",
                       label=f"{name}, held out")
            ax.scatter([fpr_value], [f1_value], s=110, facecolors="none", edgecolors=colour, zorder=3,
                       marker="D", label=row_name(name, r))
            # the two are often a few hundredths apart: labels pulled apart so neither hides the other
            for (x, y), text, dy in (((held["fpr"], held["f1"]), "held out", 14),
                                     ((fpr_value, f1_value), "in-sample", -16)):
                ax.annotate(text, (x, y), xytext=(12, dy), textcoords="offset points", fontsize=7, color=colour,
                            arrowprops={"arrowstyle": "-", "color": colour, "linewidth": 0.6})
            shown += [held["f1"], f1_value]
            continue
        ax.scatter([fpr_value], [f1_value], s=140 if mine else 35, color=colour, zorder=3,
                   marker="*" if mine else "o", label=row_name(name, r))
        shown.append(f1_value)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(max(0.0, min(shown) - 0.05), min(1.0, max(shown) + 0.05))
    ax.set_xlabel("need FPR (lower is better)" if need else "FPR (lower is better)")
    ax.set_ylabel("need F1" if need else "F1")
    ax.set_title("Agents: F1 against false-positive rate" + (" (95% intervals)" if need else ""))
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    return _save(fig, plt, path)


def _confusion(plt: Any, path: Path, grid: list[list[int]], columns: list[str], title: str) -> str:
    """A 2x2 count matrix: rows what the agent did (spoke, silent), columns the truth."""
    fig, ax = plt.subplots(figsize=(3.8, 3.2))
    ax.imshow(grid, cmap="Blues")
    top = max(max(row) for row in grid) or 1
    for i in range(2):
        for j in range(2):
            ax.text(j, i, str(grid[i][j]), ha="center", va="center",
                    color="white" if grid[i][j] > top / 2 else "black")
    ax.set_xticks([0, 1], columns)
    ax.set_yticks([0, 1], ["spoke", "silent"])
    ax.set_title(title)
    return _save(fig, plt, path)


def assessment_lines(result: dict[str, Any], data: str, spec: str | None = None) -> list[str]:
    """`proactive reward eval`'s report as text lines: the model (`spec`, as the person named it), what it was
    trained on and a warning when that includes the evaluated contexts, agreement with the labels of `data`, per
    category, speed, failures, and the calibration of P(need) and P(accept) with their reliability curves."""
    lines = [f"reward model {spec or result['rm']}: evaluated on {result['n']} rows of {data}",
             f"trained on: {result['trained_on'] or 'nothing (not a trained model)'}"]
    if result["in_sample"]:
        lines.append(f"WARNING: in-sample: the model was trained on {result['in_sample']} of the "
                     f"{result['contexts']} contexts evaluated here, so these figures overstate how it does on new "
                     "data")
    lines += [f"accuracy {result['accuracy']:.3f}  precision {result['precision']:.3f}  "
              f"recall {result['recall']:.3f}  F1 {result['f1']:.3f}",
              "agreement  " + "  ".join(f"{c} {'-' if v is None else f'{v:.2f}'} (n={result['category_counts'][c]})"
                                        for c, v in result["agreement"].items()),
              f"{result['seconds_per_item'] * 1000:.2f} ms per item, {result['failures']} failures"]
    need, accept = result["calibration"]["need"], result["calibration"]["accept"]
    lines.append(f"calibration ({need['bins']} equal-width bins; ECE = |observed - predicted| per bin, weighted by "
                 "its share of the items):")
    for label, c, what in (("P(need)  ", need, f"distinct contexts vs help_needed; {need['source']}"),
                           ("P(accept)", accept, "task rows vs valid")):
        curve = "  ".join(f"{b['p']:.2f}->{b['observed']:.2f} (n={b['n']})" for b in c["curve"])
        lines.append(f"  {label} ECE {fmt(c['ece'])}  AUC {fmt(c['auc'])}  on {c['n']} {what}")
        lines.append(f"    reliability (predicted -> observed): {curve or '-'}")
    return lines
