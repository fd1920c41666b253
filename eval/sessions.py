"""Reading recorded sessions in ProactiveBench format, with errors that name the file and line.

A session is a JSON list of turns `{"observation": {"time", "event"}, ...}`, oldest first; other keys
(`agent_response`, `task_status`) are ignored here. A session recorded by our own watcher is the output of
`proactive episodes --json`: one `{"time", "event", ...}` object per line, which is read too.
"""

from __future__ import annotations

import json
from pathlib import Path


class SessionError(ValueError):
    """A session file that cannot be used; the message is one line naming the file (and line)."""


def _turn_lines(text: str) -> list[int]:
    """The line on which each element of a (valid) top-level JSON list starts."""
    decoder = json.JSONDecoder()
    lines, pos = [], text.index("[") + 1
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return lines
        lines.append(text.count("\n", 0, pos) + 1)
        _, pos = decoder.raw_decode(text, pos)


def load_session(path: Path | str) -> list[dict[str, str]]:
    """The observations of a session file, oldest first. Raises SessionError on anything malformed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SessionError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SessionError(f"{path}: cannot read ({exc})") from None
    if not text.lstrip().startswith("["):
        return _load_lines(path, text)
    try:
        turns = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SessionError(f"{path}:{exc.lineno}: bad JSON ({exc.msg})") from None
    if not turns:
        raise SessionError(f"{path}: the session is empty")
    observations = []
    lines = _turn_lines(text)
    for i, turn in enumerate(turns):
        where = f"{path}:{lines[i]}: turn {i + 1}"
        obs = turn.get("observation") if isinstance(turn, dict) else None
        if not isinstance(obs, dict):
            raise SessionError(f"{where}: missing 'observation' object")
        for key in ("time", "event"):
            if key not in obs:
                raise SessionError(f"{where}: observation has no '{key}'")
        if not isinstance(obs["event"], str) or not obs["event"].strip():
            raise SessionError(f"{where}: empty or non-text 'event'")
        observations.append({"time": str(obs["time"]), "event": obs["event"]})
    return observations


def _load_lines(path: Path, text: str) -> list[dict[str, str]]:
    """`proactive episodes --json` output: one observation object per line."""
    observations = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obs = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SessionError(f"{path}:{lineno}: bad JSON ({exc.msg})") from None
        if not isinstance(obs, dict) or "time" not in obs or not isinstance(obs.get("event"), str):
            raise SessionError(f"{path}:{lineno}: expected an object with 'time' and 'event'")
        observations.append({"time": str(obs["time"]), "event": obs["event"]})
    if not observations:
        raise SessionError(f"{path}: the session is empty")
    return observations
