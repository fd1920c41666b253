"""Reward rows (ProactiveBench's reward format, and the user's exported decisions): reading and checking them,
their hash (recorded in an artefact), and the need label of a context."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .labels import CATEGORY_NAMES, normalize_task, row_category

REQUIRED = ("obs", "pred_task", "valid")


def read_reward_rows(paths: Iterable[Path | str]) -> list[dict[str, Any]]:
    """Reward-format JSONL rows; a bad line raises ValueError("{path}:{line}: reason").

    `obs`, `pred_task` and `valid` are required. Rows exported from the user's own decisions may lack
    `category`, `annotation`, `help_needed` or `session`: they are derived (category from pred_task/valid) or
    left for the trainer to default. Every field present is checked by type (`check_reward_row`), and the file
    must be a regular file of UTF-8 text: anything else raises ValueError naming the file (and line)."""
    from .files import decode_utf8, json_lines, read_regular_file

    rows: list[dict[str, Any]] = []
    for path in paths:
        text = decode_utf8(path, read_regular_file(path, ValueError))
        for lineno, line, row in json_lines(path, text):
            where = f"{path}:{lineno}"
            problem = check_reward_row(row, has_escapes="\\u" in line)
            if problem:
                raise ValueError(f"{where}: {problem}")
            row["pred_task"] = normalize_task(row["pred_task"])
            row["category"] = CATEGORY_NAMES[row_category(row)]
            if row.get("session") is None:
                row["session"] = str(path)
            rows.append(row)
    return rows


def _is_time(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _strings_or_null(value: Any) -> bool:
    return value is None or isinstance(value, str) or (isinstance(value, list) and all(isinstance(t, str) for t in value))


#: each field of a reward row: what it must be, and the one line that says so (the required ones are present by then)
FIELD_CHECKS: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("obs", lambda obs: isinstance(obs, list) and bool(obs) and all(
        isinstance(o, dict) and isinstance(o.get("event"), str) and _is_time(o.get("time")) for o in obs),
     "obs must be a non-empty list of {time, event} objects (event text, time a string or number)"),
    ("valid", lambda v: isinstance(v, bool), "valid must be true or false"),
    ("pred_task", _strings_or_null, "pred_task must be a string, a list of strings or null"),
    ("help_needed", lambda v: v is None or isinstance(v, bool), "help_needed must be true, false or null"),
    ("annotation", lambda v: v is None or (isinstance(v, list) and all(isinstance(a, bool) for a in v)),
     "annotation must be a list of booleans"),
    ("category", lambda v: v is None or isinstance(v, str), "category must be a string or null"),
    ("session", lambda v: v is None or isinstance(v, str), "session must be a string or null"),
)


def check_reward_row(row: Any, has_escapes: bool = True) -> str | None:
    """What is wrong with a parsed reward row (one line of text), or None. `has_escapes=False` (the line has no
    `\\u` escape) skips the search for unpaired surrogates, which only an escape can produce."""
    if not isinstance(row, dict):
        return "expected a JSON object"
    missing = [k for k in REQUIRED if k not in row]
    if missing:
        return f"missing field(s) {', '.join(missing)}"
    for field, holds, message in FIELD_CHECKS:
        if not holds(row.get(field)):
            return message
    if has_escapes:
        from .files import unpaired_surrogate

        bad = unpaired_surrogate(json.dumps(row, ensure_ascii=False))
        if bad:
            return f"holds an unpaired surrogate ({bad}), which is not text"
    return None


def data_hash(rows: Sequence[dict[str, Any]]) -> str:
    """Identifies the training data, independent of file names and key order."""
    h = hashlib.sha256()
    for row in rows:
        h.update(json.dumps({k: row.get(k) for k in ("obs", "pred_task", "valid", "annotation")},
                            sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()[:16]


def need_label(row: dict[str, Any]) -> bool:
    """`help_needed`; rows exported from a user's decisions may lack it: an accepted task means it was needed."""
    if isinstance(row.get("help_needed"), bool):
        return bool(row["help_needed"])
    return row["pred_task"] is not None and bool(row["valid"])


def need_contexts(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per distinct context (first occurrence), needed if any of its rows says so."""
    by_key: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r.get("synthetic"):
            continue
        key = json.dumps(r["obs"], sort_keys=True, ensure_ascii=False)
        if key not in by_key:
            by_key[key] = {**r, "need": need_label(r)}
        elif need_label(r):
            by_key[key]["need"] = True
    return list(by_key.values())
