"""One replayed turn (`Turn`): what the agent proposed at an event, what the gate made of it and what the judge
said. Read by the replay (which fills it), the metrics (which count it) and the report (which quotes it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass
class Turn:
    session: str
    index: int
    time: str
    event: str
    candidates: list[str] = field(default_factory=list)
    shown: str | None = None  # what the user would see (after the gate)
    latency_s: float | None = None
    errors: list[str] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)  # the gate's P(accept) per candidate
    p_need: float | None = None  # the gate's P(help needed now); None without a gate
    judged_shown: bool | None = None
    judged_candidates: list[bool | None] = field(default_factory=list)
    judged_silence: bool | None = None
    held_back: list[str] = field(default_factory=list)  # candidates the feedback memory kept from being shown
    #: silent only because the memory held back the offers for this need (shown on an earlier turn, unanswered), or
    #: because no offer would give anything new (the built-in model: candidates.gives_something); the gate
    #: recognised the need and would have shown an offer without these
    withheld: bool = False
    action: str | None = None  # the grounded action id of the shown task, when the agent gave one
    #: the paper's protocol: the task the system proposes here, whether or not this configuration can deliver
    #: it or the feedback memory holds it back (the shown task, else the one `withheld` stands for); None: silent
    proposed: str | None = None
    judged_proposed: bool | None = None


def turn_seconds(turn: Turn) -> float:
    """The time of a turn's last observation, in seconds (the feedback memory's clock); a recording without
    usable times counts a minute per turn."""
    try:
        return float(str(turn.time).strip())
    except ValueError:
        return 60.0 * turn.index


def label_of(turn: Turn, labels: Mapping[str, bool] | None) -> bool | None:
    """The human need label of a turn's context (matched by the time of its last observation), if any."""
    return None if labels is None else labels.get(str(turn.time).strip())


def by_session(turns: Sequence[Turn]) -> dict[str, list[Turn]]:
    """The turns of each session, in order."""
    out: dict[str, list[Turn]] = {}
    for t in turns:
        out.setdefault(t.session, []).append(t)
    return out
