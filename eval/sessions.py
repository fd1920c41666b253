"""Reading recorded sessions in ProactiveBench format, with errors that name the file and line.

A session is a JSON list of turns `{"observation": {"time", "event"}, ...}`, oldest first; other keys
(`agent_response`, `task_status`) are ignored here. A session recorded by our own watcher is the output of
`proactive episodes --json`: one `{"time", "event", ...}` object per line, which is read too.

Hostile input: only regular files are opened (a FIFO or a device would block or never end), bytes that are not
UTF-8, numbers too long to convert, nesting too deep for the parser and unpaired surrogates (`"\\ud800"`, valid
JSON that no file or terminal can take) are refused with the file and line, and reading is linear in the size of
the file (the list is walked once, and line numbers are counted as it goes).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from proactive.models.base import Observation
from proactive.models.files import (
    decode_utf8,
    json_lines,
    json_problem,
    read_regular_file,
    unpaired_surrogate,
)


class SessionError(ValueError):
    """A session file that cannot be used; the message is one line naming the file (and line)."""


_WS = re.compile(r"[ \t\n\r]*")


def _after_ws(text: str, pos: int) -> int:
    """Where the JSON whitespace starting at `pos` ends (`_WS` matches anywhere, if only the empty string)."""
    found = _WS.match(text, pos)
    return found.end() if found else pos


def _list_items(path: Path, text: str) -> list[tuple[int, Any]]:
    """The elements of a top-level JSON list, each with the line it starts on, in one pass over `text`."""
    decoder = json.JSONDecoder()
    counted, line = 0, 1

    def line_at(pos: int) -> int:
        nonlocal counted, line
        line += text.count("\n", counted, pos)
        counted = pos
        return line

    pos = _after_ws(text, 0) + 1  # the caller saw the "["
    pos = _after_ws(text, pos)
    items: list[tuple[int, Any]] = []
    if text.startswith("]", pos):
        pos += 1
    else:
        while True:
            start = line_at(pos)
            try:
                value, pos = decoder.raw_decode(text, pos)
            except json.JSONDecodeError as exc:
                raise SessionError(f"{path}:{exc.lineno}: bad JSON ({exc.msg})") from None
            except (ValueError, RecursionError) as exc:
                raise SessionError(f"{path}:{start}: turn {len(items) + 1}: {json_problem(exc)}") from None
            items.append((start, value))
            pos = _after_ws(text, pos)
            if text.startswith(",", pos):
                pos = _after_ws(text, pos + 1)
            elif text.startswith("]", pos):
                pos += 1
                break
            else:
                raise SessionError(f"{path}:{line_at(pos)}: bad JSON (expected ',' or ']' after turn {len(items)})")
    pos = _after_ws(text, pos)
    if pos < len(text):
        raise SessionError(f"{path}:{line_at(pos)}: bad JSON (extra data after the list)")
    return items


def _observation(where: str, obs: Any) -> Observation:
    """A checked `{"time", "event"}` observation."""
    if not isinstance(obs, dict):
        raise SessionError(f"{where}: missing 'observation' object")
    for key in ("time", "event"):
        if key not in obs:
            raise SessionError(f"{where}: observation has no '{key}'")
    event, time = obs["event"], obs["time"]
    if not isinstance(event, str) or not event.strip():
        raise SessionError(f"{where}: empty or non-text 'event'")
    if isinstance(time, bool) or not isinstance(time, str | int | float):
        raise SessionError(f"{where}: 'time' must be a string or a number")
    time = str(time)
    for key, value in (("event", event), ("time", time)):
        bad = unpaired_surrogate(value)
        if bad:
            raise SessionError(f"{where}: '{key}' holds an unpaired surrogate ({bad}), which is not text")
    return {"time": time, "event": event}


#: the keys an archived `agent_response` object keeps its tasks under, in ProactiveBench's releases and ours
RESPONSE_KEYS = ("candidate_task", "task", "proposed_task")


def response_tasks(response: Any) -> list[Any]:
    """The tasks of a turn's `agent_response` in any of its archived forms, unchecked: [], ["task"], "task",
    null, or an object keeping them under `candidate_task` (the shared sessions), `task` or `proposed_task`."""
    if isinstance(response, dict):
        response = next((response[k] for k in RESPONSE_KEYS if k in response), None)
    return response if isinstance(response, list) else [response]


def load_session(path: Path | str) -> list[Observation]:
    """The observations of a session file, oldest first. Raises SessionError on anything malformed."""
    return [obs for _where, obs, _turn in load_turns(path)]


def load_turns(path: Path | str) -> list[tuple[str, Observation, Any]]:
    """Every turn of a session file as (where, observation, the turn as read): `where` is "FILE:LINE: turn N"
    (or "FILE:LINE" for a line-per-observation file), for errors about the turn's other keys. Raises
    SessionError on anything malformed."""
    path = Path(path)
    text = decode_utf8(path, read_regular_file(path, SessionError), SessionError)
    if not text.lstrip().startswith("["):
        return _load_lines(path, text)
    items = _list_items(path, text)
    if not items:
        raise SessionError(f"{path}: the session is empty")
    turns = []
    for i, (line, turn) in enumerate(items):
        where = f"{path}:{line}: turn {i + 1}"
        turns.append((where, _observation(where, turn.get("observation") if isinstance(turn, dict) else None), turn))
    return turns


def _load_lines(path: Path, text: str) -> list[tuple[str, Observation, Any]]:
    """`proactive episodes --json` output: one observation object per line."""
    turns = []
    for lineno, _line, obs in json_lines(path, text, SessionError):
        if not isinstance(obs, dict) or "time" not in obs or not isinstance(obs.get("event"), str):
            raise SessionError(f"{path}:{lineno}: expected an object with 'time' and 'event'")
        turns.append((f"{path}:{lineno}", _observation(f"{path}:{lineno}", obs), obs))
    if not turns:
        raise SessionError(f"{path}: the session is empty")
    return turns
