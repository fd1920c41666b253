"""What the replay tests share (tests/test_replay.py, tests/test_replay_report.py): the small sessions, labels and
`proactive replay` run as a command."""

from __future__ import annotations

import subprocess

from .conftest import FIXTURES, run_cli

SESSION = FIXTURES / "session_small.json"
WRITING = FIXTURES / "session_writing.json"
LABELS = FIXTURES / "labels_small.jsonl"
TURN_KEYS = {"session", "index", "time", "event", "candidates", "scores", "p_need", "shown", "held_back", "withheld", "need", "proposed"}


def replay(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return run_cli("replay", *args, timeout=timeout)
