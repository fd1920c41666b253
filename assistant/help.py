"""Doing the work once the user accepts: the assistant produces the help itself.

A task that asks to look something up opens a web search in the user's browser (the only network use, started
by the user's click); anything else is answered by the model from the same context the proposal came from,
as a short text the user can copy (an answer, a draft, a command, a summary).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote_plus

from models.base import Predictor

from .prompt import observation_line

HELP_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "maxLength": 600}},
    "required": ["answer"],
    "additionalProperties": False,
}
SEARCH_TASK = re.compile(r"^\s*(search|look up|google|find (?:docs|documentation|examples?|articles?) (?:for|on|about))"
                         r"\s+(?:for\s+|the web for\s+)?(.+)$", re.I)
SYSTEM = ("You are a helpful assistant on the user's computer. The user accepted your offer; do the task now. "
          "Answer directly and concretely in a few sentences (code or a command if that is what helps). "
          'Reply as JSON: {"answer": "..."}')


@dataclass
class Help:
    kind: str  # "answer" | "search" | "error"
    text: str  # the answer, or the search URL, or what went wrong
    seconds: float = 0.0


def search_url(task: str) -> str | None:
    match = SEARCH_TASK.match(task)
    return f"https://duckduckgo.com/?q={quote_plus(match.group(2).strip(' .'))}" if match else None


def do_task(model: Predictor, context: Sequence[dict[str, str]], task: str) -> Help:
    url = search_url(task)
    if url:
        return Help("search", url)
    events = "\n".join(observation_line(o) for o in list(context)[-8:])
    gen = model.complete_json([{"role": "system", "content": SYSTEM},
                               {"role": "user", "content": f"Recent events:\n{events}\nTask: {task}"}], HELP_SCHEMA)
    if gen.data is None:
        return Help("error", f"the model gave no usable answer ({gen.error})", gen.seconds)
    return Help("answer", gen.data["answer"], gen.seconds)
