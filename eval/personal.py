"""Does the person model learn the person? Measured like need detection, on reward-format rows
(`proactive reward personal`).

Each (session, annotator) of the rows is simulated as one person: their own labels (`annotation[i]`; a row
without annotators counts as its `valid`), their rows in the order of each context's last observation. Two
protocols:

- **prequential** (`simulate`): every decision is predicted by the shared reward model and by the person model
  before the person model learns it, so nothing is ever scored on what was learned from it. "After K" pools
  every person's decisions from their (K+1)-th on: the learning curve.
- **as live** (`as_live`): the person judges only the offers the person model lets through (the offers of the
  rows, in order; silent moments are never judged, as live), and learns only from those. For persons who turn
  down more offers than they take, the share taken should rise from their first shown offers to their last.
  As `decision.choose` does live, while the adjustments are not in use the shared gate decides alone (shown at
  P(accept) >= threshold, nothing explored: an offer the shared gate holds back is its silence, not the person
  model's); while they are, the person model decides and re-shows what it holds back with its bounded chance.
  The same persons' shares with the shared model alone (no learning) are given beside: the share taken may rise
  with the session itself (a recording's later moments can be ones where help is wanted more), and what the
  person model adds is the difference.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proactive.assistant.person_model import ACCEPTED, REJECTED, PersonModel, Situation

AFTER = (0, 10, 25, 50)
WORST_AFTER = 50
EDGE = 20  # as live: the share taken over a person's first and last EDGE shown offers


@dataclass
class Decision:
    """One simulated decision: the row's shared P(accept), its situation and the person's verdict."""

    shared: float
    situation: Situation
    accepted: bool


def _time(row: dict[str, Any]) -> float | None:
    try:
        return float(row["obs"][-1]["time"])
    except (TypeError, ValueError):
        return None


def persons(rows: Sequence[dict[str, Any]], shared: Sequence[float]) -> dict[str, list[Decision]]:
    """Each (session, annotator) as a person, their decisions in the order of each context's last observation
    (the rows' order where a person's times are not all numbers: a recording's own clock, "Day 1, 11:30 PM")."""
    by_person: dict[str, list[tuple[float | None, int, Decision]]] = defaultdict(list)
    situations: dict[int, Situation] = {}
    for i, (row, p) in enumerate(zip(rows, shared, strict=True)):
        votes = row.get("annotation") or [row["valid"]]
        situation = situations.setdefault(i, Situation.of(row["obs"], row["pred_task"]))
        for a, vote in enumerate(votes):
            by_person[f"{row.get('session')}#{a + 1}"].append((_time(row), i, Decision(p, situation, bool(vote))))
    ordered = {}
    for name, items in by_person.items():
        numeric = all(t is not None for t, _, _ in items)
        items.sort(key=lambda item: (item[0], item[1]) if numeric else (0.0, item[1]))
        ordered[name] = [d for _, _, d in items]
    return ordered


def simulate(people: dict[str, list[Decision]], make: Callable[[], PersonModel] = PersonModel) -> dict[str, Any]:
    """The prequential protocol: every decision predicted by both models before the person model learns it."""
    scored: dict[str, list[tuple[bool, bool]]] = {}
    for name, decisions in people.items():
        model = make()
        rows = []
        for d in decisions:
            shared_right = (d.shared >= 0.5) == d.accepted
            personal_right = (model.p_accept(d.shared, d.situation) >= 0.5) == d.accepted
            rows.append((shared_right, personal_right))
            model.learn(d.shared, d.situation, d.accepted)
        scored[name] = rows
    after = {}
    for k in AFTER:
        pooled = [r for rows in scored.values() for r in rows[k:]]
        after[str(k)] = {"n": len(pooled), "shared": _share(r[0] for r in pooled),
                         "personal": _share(r[1] for r in pooled)}
    per_person = {name: {"n": len(rows[WORST_AFTER:]), "shared": _share(r[0] for r in rows[WORST_AFTER:]),
                         "personal": _share(r[1] for r in rows[WORST_AFTER:])}
                  for name, rows in scored.items()}
    deltas = [p["personal"] - p["shared"] for p in per_person.values() if p["n"]]
    curve = [{"decision": j + 1, "n": len(at), "shared": _share(r[0] for r in at), "personal": _share(r[1] for r in at)}
             for j in range(max((len(r) for r in scored.values()), default=0))
             for at in [[rows[j] for rows in scored.values() if len(rows) > j]]]
    return {"persons": len(people), "decisions": sum(len(d) for d in people.values()), "after": after,
            "worst_person_delta": round(min(deltas), 4) if deltas else None, "per_person": per_person,
            "curve": curve}


def as_live(people: dict[str, list[Decision]], make: Callable[[], PersonModel] = PersonModel,
            threshold: float = 0.5) -> dict[str, Any]:
    """The live protocol: a person judges only the offers the person model shows (expected cost at `threshold`,
    with its small chance of showing a held-back kind), and it learns only from those."""
    result: dict[str, dict[str, Any]] = {}
    for name, decisions in people.items():
        offers = [d for d in decisions if d.situation.kind != "silence"]
        if not offers:
            continue
        model = make()
        taken = []
        for d in offers:
            p = model.p_accept(d.shared, d.situation)
            if model.trusted:  # the person model decides, and re-shows some of what it holds back
                shown = model.shows(p, threshold, model.explore_chance(d.shared, d.situation, threshold))
            else:  # the shared gate alone, as live: what it holds back is its silence
                shown = p >= threshold
            if shown:
                taken.append(d.accepted)
                model.learn(d.shared, d.situation, ACCEPTED if d.accepted else REJECTED)
        alone = [d.accepted for d in offers if d.shared >= threshold]  # the shared gate alone, learning nothing
        strict = sum(d.accepted for d in offers) < len(offers) / 2
        edge, shared_edge = _edge(taken), _edge(alone)
        result[name] = {"offers": len(offers), "shown": len(taken), "strict": strict, "edge": edge,
                        "first": _share(taken[:edge]), "last": _share(taken[len(taken) - edge:]),
                        "shared_edge": shared_edge, "shared_first": _share(alone[:shared_edge]),
                        "shared_last": _share(alone[len(alone) - shared_edge:])}
    chosen = [p for p in result.values() if p["strict"] and p["edge"]]
    return {"persons": len(result), "strict_persons": len(chosen),
            "first": _pooled(chosen, "first", "edge"), "last": _pooled(chosen, "last", "edge"),
            "rising": sum(p["last"] > p["first"] for p in chosen),
            "shared_first": _pooled(chosen, "shared_first", "shared_edge"),
            "shared_last": _pooled(chosen, "shared_last", "shared_edge"), "per_person": result}


def _edge(taken: Sequence[bool]) -> int:
    """How many shown offers make a person's first and last: EDGE, or half of them when fewer than 2 x EDGE."""
    return min(EDGE, len(taken) // 2)


def _pooled(chosen: Sequence[dict[str, Any]], key: str, edge: str) -> float:
    """A share pooled over persons, each counting as many times as the offers it is measured on."""
    return _share(x for p in chosen for x in [p[key]] * int(p[edge]))


def _share(values: Any) -> float:
    values = [float(v) for v in values]
    return round(sum(values) / len(values), 4) if values else 0.0


def curve_plot(path: Path, result: dict[str, Any], title: str, smooth: int = 10) -> Path:
    """Accuracy at the n-th decision of each person, shared against personal (a moving mean over `smooth`)."""
    from .report import _pyplot

    plt = _pyplot()
    curve = result["curve"]
    xs = [c["decision"] for c in curve]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for key, label in (("shared", "shared reward model"), ("personal", "person model")):
        ys = [c[key] for c in curve]
        weights = [c["n"] for c in curve]
        smoothed = []
        for j in range(len(ys)):
            lo = max(0, j - smooth + 1)
            total = sum(weights[lo:j + 1])
            smoothed.append(sum(y * w for y, w in zip(ys[lo:j + 1], weights[lo:j + 1], strict=True)) / total)
        ax.plot(xs, smoothed, label=label)
    ax.set_xlabel("the person's n-th decision")
    ax.set_ylabel(f"accuracy (moving mean of {smooth})")
    ax.set_ylim(0.3, 1.0)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def summary_json(result: dict[str, Any]) -> str:
    """The `--json` line: the pooled figures, without the per-person detail and the curve."""
    return json.dumps({k: v for k, v in result.items() if k not in ("per_person", "curve")})


def lines(result: dict[str, Any]) -> list[str]:
    """The result for a terminal: the learning curve, or the live protocol's shares."""
    if "after" not in result:
        out = [f"{result['persons']} persons; {result['strict_persons']} turn down more offers than they take",
               f"share of shown offers taken (pooled): first {EDGE} {result['first']:.3f}, last {EDGE} "
               f"{result['last']:.3f} (the first and last half for a person shown fewer than {2 * EDGE}); "
               f"rising for {result['rising']} of {result['strict_persons']}",
               f"the shared model alone, the same persons: first {EDGE} {result['shared_first']:.3f}, last {EDGE} "
               f"{result['shared_last']:.3f}"]
        return out
    out = [f"{result['persons']} persons, {result['decisions']} decisions, each predicted before it was learned",
           "from decision   n      shared  personal"]
    for k, a in result["after"].items():
        out.append(f"{int(k) + 1:>13}  {a['n']:>5}  {a['shared']:.3f}   {a['personal']:.3f}")
    out.append(f"worst person (personal - shared, from decision {WORST_AFTER + 1}): {result['worst_person_delta']}")
    if "plot" in result:
        out.append(f"learning curve: {result['plot']}")
    return out
