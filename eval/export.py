"""Export the live assistant's decisions as reward-format rows, so `proactive rm train` learns from the user.

Each decided proposal becomes one row: the episodes before it as `obs` (ProactiveBench observations), the task
as `pred_task`, and the user's decision as the label:
- accepted -> valid true (category CD), help_needed true;
- rejected -> valid false (FA), help_needed false (the offer was unwelcome; whether other help was needed is
  unknown, so the conservative label is used);
- ignored  -> skipped by default: a proposal that timed out may simply not have been seen; with
  `treat_ignored_as="rejected"` it counts as a rejection;
- snoozed  -> skipped: "not now" says nothing about the task.
The latest decision on a proposal wins. Silent decisions are not exported: nobody judged them.
"""

from __future__ import annotations

import json
from pathlib import Path

from proactive.watcher.store import Store


def export_decisions(store: Store, out: Path, treat_ignored_as: str = "skip", n_context: int = 10) -> int:
    rows = store.db.execute(
        "SELECT p.id, p.ts, p.task, d.decision FROM proposals p JOIN decisions d ON d.proposal_id = p.id "
        "WHERE p.task IS NOT NULL AND d.id = (SELECT max(id) FROM decisions WHERE proposal_id = p.id) "
        "ORDER BY p.ts").fetchall()
    episodes = store.episodes()
    written = 0
    with open(out, "w", encoding="utf-8") as f:
        for _, ts, task, decision in rows:
            if decision == "ignored" and treat_ignored_as == "rejected":
                decision = "rejected"
            if decision not in ("accepted", "rejected"):
                continue
            before = [e for e in episodes if e["start"] <= ts][-n_context:]
            if not before:
                continue
            valid = decision == "accepted"
            f.write(json.dumps({
                "obs": [{"time": f"{e['start']:.3f}", "event": e["event"]} for e in before],
                "pred_task": task, "valid": valid, "help_needed": valid, "annotation": [valid],
                "category": "Correct-Detection (CD)" if valid else "False-Alarm (FA)",
                "session": f"live-{int(before[0]['start'])}",
            }, ensure_ascii=False) + "\n")
            written += 1
    return written
