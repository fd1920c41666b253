"""Where the benchmarks find ProactiveBench's developer split: its recorded sessions (`sessions/*.json`) and the
human-labelled rows of them (`reward_train.jsonl`, reward format, each row with its `session`).

$PROACTIVEBENCH_DATA names the folder; without it, the `shared/data/proactivebench` folder beside the repository
that development machines have. A clone has neither: `need` then says in one line what to give (exit 2), instead
of a traceback or a benchmark of nothing. The data itself comes from github.com/thunlp/ProactiveAgent
(docs/research.md says what is where)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PROACTIVEBENCH_DATA") or ROOT.parent / "shared" / "data" / "proactivebench")
SESSIONS = DATA / "sessions"
LABELS = DATA / "reward_train.jsonl"


def need(path: Path | str, option: str) -> Path:
    """`path` (given with `option`), or exit 2 with one line saying what to give when it is not there."""
    path = Path(path)
    if not path.exists():
        print(f"{path}: not found. Give {option} PATH, or set PROACTIVEBENCH_DATA to a folder holding sessions/ "
              "and reward_train.jsonl (ProactiveBench's developer split: github.com/thunlp/ProactiveAgent, see "
              "docs/research.md)", file=sys.stderr)
        sys.exit(2)
    return path
