"""Replay reports: `report.md` with the summary table (ours beside the baselines), per-session results, and
plots (confusion matrix, per-session bars, latency histogram) as PNG files next to it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .replay import Turn, summarize


def fmt(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def summary_rows(results: Mapping[str, Mapping[str, Any]]) -> list[str]:
    header = ("| model | events | recall | precision | accuracy | false alarm (paper) | F1 | FPR | pred@k F1 | "
              "need F1 | need FPR | errors |")
    lines = [header, "|---" * (header.count("|") - 1) + "|"]
    for name, s in results.items():
        p, need = s["paper"], s.get("need", {})
        lines.append(f"| {name} | {s['events']} | {fmt(p['recall'])} | {fmt(p['precision'])} | {fmt(p['accuracy'])} | "
                     f"{fmt(p['false_alarm'])} | {fmt(p['f1'])} | {fmt(s['fpr'])} | {fmt(s['pred_at_k']['f1'])} | "
                     f"{fmt(need.get('f1', '-'))} | {fmt(need.get('fpr', '-'))} | {s['errors']} |")
    return lines


def write_report(out: Path, ours_name: str, turns: Sequence[Turn], results: Mapping[str, Mapping[str, Any]],
                 labels: dict[str, bool] | None, notes: Sequence[str]) -> Path:
    """Write report.md and its plots into `out`; returns the report's path."""
    out.mkdir(parents=True, exist_ok=True)
    lines = [f"# Replay report: {ours_name}", ""]
    lines += [f"- {n}" for n in notes]
    lines += ["", "## Summary", "", *summary_rows(results), ""]
    by_session: dict[str, list[Turn]] = {}
    for t in turns:
        by_session.setdefault(t.session, []).append(t)
    per = {name: summarize(ts, labels) for name, ts in by_session.items()}
    lines += ["## Per session (ours)", "", *summary_rows(per), ""]
    plots = _plots(out, results[ours_name], per, turns)
    lines += ["## Plots", ""] + [f"![{name}]({name})" for name in plots]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _plots(out: Path, ours: Mapping[str, Any], per: Mapping[str, Mapping[str, Any]],
           turns: Sequence[Turn]) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = []
    c = ours["counts"]
    fig, ax = plt.subplots(figsize=(3.6, 3.2))
    grid = [[c["tp"], c["fp"]], [c["tn"], c["fn"]]]  # rows: what the agent did; columns: the judge
    ax.imshow(grid, cmap="Blues")
    top = max(max(row) for row in grid) or 1
    for i in range(2):
        for j in range(2):
            ax.text(j, i, str(grid[i][j]), ha="center", va="center",
                    color="white" if grid[i][j] > top / 2 else "black")
    ax.set_xticks([0, 1], ["judge accepts", "judge rejects"])
    ax.set_yticks([0, 1], ["spoke", "silent"])
    ax.set_title("Judged outcomes")
    fig.tight_layout()
    fig.savefig(out / "confusion.png", dpi=110)
    plt.close(fig)
    names.append("confusion.png")

    fig, ax = plt.subplots(figsize=(6, 3.2))
    sessions = list(per)
    ax.bar(range(len(sessions)), [per[s]["paper"]["f1"] for s in sessions], label="F1")
    ax.bar(range(len(sessions)), [per[s]["fpr"] for s in sessions], alpha=0.5, label="FPR")
    ax.set_xticks(range(len(sessions)), [s.removesuffix(".json") for s in sessions], rotation=45, ha="right")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title("Per session")
    fig.tight_layout()
    fig.savefig(out / "sessions.png", dpi=110)
    plt.close(fig)
    names.append("sessions.png")

    latencies = [t.latency_s for t in turns if t.latency_s is not None]
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.hist(latencies, bins=20)
    ax.set_xlabel("seconds per prediction")
    ax.set_title("Prediction latency")
    fig.tight_layout()
    fig.savefig(out / "latency.png", dpi=110)
    plt.close(fig)
    names.append("latency.png")
    return names
