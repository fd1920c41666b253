"""What the assistant learned about the person, kept in the one encrypted store.

Why it is rebuilt rather than saved as numbers: the person model (`person_model.PersonModel`) is a fold over the
person's decisions on the offers shown, and those decisions are already rows in the store, each proposal holding
the situation it was shown in (`SITUATION`, written by the live assistant). Rebuilding from them at start (a few
thousand decisions: well under a second) means the learned state is exactly what the kept decisions say: purge
and retention, which delete decisions, take what was learned from them along, with no copy of the learning left
behind; and a later decision on an offer (accepted with `proactive decide` after a headless run recorded it as
ignored, "Fewer like this" in History after a timeout) replaces the earlier one, as it does in History.

What the decisions cannot say is kept in the `person_model` row: the kinds the person said "Not this kind" to,
and when they last reset what was learned (decisions on offers made before are not learned from again).
"""

from __future__ import annotations

import json
import time
from typing import Any

from proactive.watcher.store.database import Store

from .person_model import OUTCOMES, PersonModel, Situation
from .proposals import LATEST_DECISION

#: the key of a proposal's data that holds the shown offer's shared P(accept) and situation
SITUATION = "person"
ROW = 1  # the one row of `person_model`

LEARNED_SQL = (f"SELECT p.data, d.decision, d.ts FROM proposals p JOIN decisions d ON d.id = ({LATEST_DECISION}) "
               "WHERE p.task IS NOT NULL AND p.ts >= ? ORDER BY d.ts, d.id")


def situation_data(shared: float, situation: Situation) -> dict[str, Any]:
    """What a shown offer's proposal stores for the person model: enough to learn from its decision later."""
    return {"shared": shared, "kind": situation.kind, "activity": situation.activity, "app": situation.app}


def _situation(data: dict[str, Any]) -> tuple[float, Situation] | None:
    """The shared P(accept) and situation a proposal stored (`situation_data`), or None (a silent turn, an older
    or damaged row)."""
    value = data.get(SITUATION)
    if not isinstance(value, dict):
        return None
    try:
        return float(value["shared"]), Situation(str(value["kind"]), str(value["activity"]), str(value["app"]))
    except (KeyError, TypeError, ValueError):
        return None


def _row(store: Store) -> tuple[float, set[str]]:
    """(reset time, muted kinds) from the `person_model` row; (0, none) when there is none."""
    found = store.db.execute("SELECT since, muted FROM person_model WHERE id = ?", [ROW]).fetchone()
    if found is None:
        return 0.0, set()
    try:
        muted = {str(k) for k in json.loads(found[1] or "[]")}
    except (TypeError, ValueError):
        muted = set()
    return float(found[0] or 0.0), muted


def load(store: Store) -> PersonModel:
    """The person model as the store says: the muted kinds, and everything learned from the latest decision on
    each offer shown since the last reset, in the order they were taken."""
    since, muted = _row(store)
    model = PersonModel(muted=muted)
    for text, decision, ts in store.db.execute(LEARNED_SQL, [since]):
        try:
            data = json.loads(text or "{}")
        except ValueError:
            continue
        offer = _situation(data) if isinstance(data, dict) else None
        if offer is not None and decision in OUTCOMES:
            model.learn(*offer, decision, ts)
    return model


def _write(store: Store, since: float, muted: set[str]) -> None:
    with store.writing():
        store.db.execute("INSERT OR REPLACE INTO person_model (id, ts, since, muted) VALUES (?, ?, ?, ?)",
                         [ROW, time.time(), since, json.dumps(sorted(muted), ensure_ascii=False)])


def save_muted(store: Store, muted: set[str]) -> None:
    """The kinds the person said "Not this kind" to, kept with the reset time as it was."""
    _write(store, _row(store)[0], muted)


def reset(store: Store, now: float | None = None) -> None:
    """Forget what was learned: nothing muted, and no decision on an offer made before `now` is learned from."""
    _write(store, time.time() if now is None else now, set())
