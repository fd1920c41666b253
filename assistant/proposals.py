"""The assistant's own records in the store: its proposals (every decision it takes, shown or silent) and the
person's decisions on them. The tables are in the one database, so its schema and migrations, encryption, purge
and retention are the store's (`watcher/store/database.py`); what the rows hold and how they are read is the
assistant's, here.
"""

from __future__ import annotations

import json
import time
from typing import Any

from proactive.watcher.store.database import Store

#: The latest decision on proposal `p`, the one rule every reader uses: the decision taken last, by its time
#: (`decisions.ts`), the later row when two share a time. By time rather than by row id because ids give the
#: order rows were written, not the order the user decided: decisions come from several processes (the tray,
#: `proactive decide`, a headless run), each takes its time and then waits for the write lock, so one decided
#: earlier can be written later; and a caller may record when a decision was taken (`decide(ts=...)`),
#: which is not when it is written. The id only settles equal times (a coarse clock), so the pick is stable.
LATEST_DECISION = "SELECT id FROM decisions WHERE proposal_id = p.id ORDER BY ts DESC, id DESC LIMIT 1"
PROPOSAL_COLUMNS = ("id", "ts", "episode_id", "task", "response", "score", "data")
PROPOSALS_SQL = (f"SELECT {', '.join('p.' + c for c in PROPOSAL_COLUMNS)}, d.decision FROM proposals p "
                 f"LEFT JOIN decisions d ON d.id = ({LATEST_DECISION})")


def _json_object(text: str | None) -> dict[str, Any]:
    """A row's JSON `data` as a dict; {} when empty or damaged (one bad row must not hide the others)."""
    try:
        value = json.loads(text or "{}")
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


class ProposalLog:
    """The proposals and decisions of one open store."""

    def __init__(self, store: Store):
        self.store = store

    def add(self, ts: float, episode_id: int | None, task: str | None, response: str,
            score: float | None, data: dict[str, Any]) -> int:
        """One decision of the assistant, shown or silent (`task` None); returns the proposal's id."""
        with self.store.writing():
            cur = self.store.db.execute(
                "INSERT INTO proposals (ts, episode_id, task, response, score, data) VALUES (?, ?, ?, ?, ?, ?)",
                [ts, episode_id, task, response, score, json.dumps(data, ensure_ascii=False, default=str)])
        assert cur.lastrowid is not None  # an INSERT just ran: the cursor has its row's id
        return cur.lastrowid

    def get(self, proposal_id: int) -> dict[str, Any] | None:
        """One proposal as `all()` gives it, or None when there is no such id."""
        rows = self._rows("p.id = ?", [proposal_id])
        return rows[0] if rows else None

    def all(self, *, with_task: bool = False, decided: bool = False, newest_first: bool = False,
            limit: int = -1) -> list[dict[str, Any]]:
        """Proposals in time order (reversed with `newest_first`), each a dict of `PROPOSAL_COLUMNS` (`data`
        parsed, {} when damaged) and `decision`, the latest decision on it (`LATEST_DECISION`), None when
        nobody answered. `with_task` leaves out the silent turns, `decided` the unanswered proposals."""
        where = [cond for cond, wanted in (("p.task IS NOT NULL", with_task), ("d.id IS NOT NULL", decided))
                 if wanted]
        return self._rows(" AND ".join(where) or "1", [], newest_first, limit)

    def _rows(self, where: str, params: list[Any], newest_first: bool = False,
              limit: int = -1) -> list[dict[str, Any]]:
        order = "p.ts DESC, p.id DESC" if newest_first else "p.ts, p.id"
        rows = self.store.db.execute(f"{PROPOSALS_SQL} WHERE {where} ORDER BY {order} LIMIT ?", [*params, limit])
        out = [dict(zip((*PROPOSAL_COLUMNS, "decision"), r, strict=True)) for r in rows]
        for p in out:
            p["data"] = _json_object(p["data"])
        return out

    def decide(self, proposal_id: int, decision: str, latency_s: float | None = None,
               result: str | None = None, ts: float | None = None) -> int:
        """The person's decision on a proposal (`result`: what accepting did, as JSON); returns its id."""
        with self.store.writing():
            cur = self.store.db.execute(
                "INSERT INTO decisions (ts, proposal_id, decision, latency_s, result) VALUES (?, ?, ?, ?, ?)",
                [time.time() if ts is None else ts, proposal_id, decision, latency_s, result])
        assert cur.lastrowid is not None  # an INSERT just ran: the cursor has its row's id
        return cur.lastrowid

    def recent_decisions(self, since: float) -> list[tuple[str, str, float, dict[str, Any] | None]]:
        """(task, decision, ts, result) of decisions taken since `since`, oldest first; `result`: what accepting
        did (`help.Help.record`), None when nothing was done (not accepted, or accepted without its help)."""
        rows = self.store.db.execute(
            "SELECT p.task, d.decision, d.ts, d.result FROM decisions d JOIN proposals p ON p.id = d.proposal_id "
            "WHERE d.ts >= ? AND p.task IS NOT NULL ORDER BY d.ts, d.id", [since])
        return [(task, decision, ts, _json_object(result) if result else None) for task, decision, ts, result in rows]
