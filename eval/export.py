"""Export the live assistant's decisions as reward-format rows, so `proactive reward train` learns from the user.

Each decided proposal becomes one row: the episodes before it as `obs` (ProactiveBench observations), the task
as `pred_task`, and the user's decision as the label:
- accepted -> valid true (category CD), help_needed true;
- rejected -> valid false (FA), help_needed false (the offer was unwelcome; whether other help was needed is
  unknown, so the conservative label is used);
- ignored  -> skipped by default: a proposal that timed out may simply not have been seen; with
  `treat_ignored_as="rejected"` it counts as a rejection;
- snoozed  -> skipped: "not now" says nothing about the task.
The latest decision on a proposal wins (the store's one rule, `LATEST_DECISION`). Silent decisions are not
exported: nobody judged them.
"""

from __future__ import annotations

import json
from pathlib import Path

from proactive.assistant.live_context import observation_at
from proactive.assistant.proposals import ProposalLog
from proactive.watcher.store.database import Store


def export_decisions(store: Store, out: Path, treat_ignored_as: str = "skip", n_context: int = 10) -> int:
    written = 0
    with open(out, "w", encoding="utf-8") as f:
        for proposal in ProposalLog(store).all(with_task=True, decided=True):
            decision = proposal["decision"]
            if decision == "ignored" and treat_ignored_as == "rejected" or decision == "fewer":
                decision = "rejected"  # "Fewer like this" is a rejection that says more
            if decision not in ("accepted", "rejected"):
                continue
            before = store.episodes_before(proposal["ts"], n_context)
            if not before:
                continue
            valid = decision == "accepted"
            f.write(json.dumps({
                "obs": [observation_at(e["start"], e["event"]) for e in before],
                "pred_task": proposal["task"], "valid": valid, "help_needed": valid, "annotation": [valid],
                "category": "Correct-Detection (CD)" if valid else "False-Alarm (FA)",
                "session": f"live-{int(before[0]['start'])}",
            }, ensure_ascii=False) + "\n")
            written += 1
    return written
