"""One validator for every task, however it was made (grounded template or a capable model's free text).

A task is dropped when it narrates the person instead of offering help ("The user switches to ..."), names a
file, error or quoted query that is not in the context (invented, or copied from the prompt's examples), is a
generic offer ("help the user", "provide assistance"), or names nothing from the last three events.
"""

from __future__ import annotations

import re
import unicodedata

from .grounding import Grounding
from .sentence_patterns import FILE_NAME, QUOTED, RECENT, TITLE_SPLIT

NARRATION = re.compile(r"^\s*(?:the\s+)?users?\b|\bthe user\b|\buser'?s\b|^\s*(?:he|she|they)\s+(?:is|are|was|"
                       r"switch|type|open)|用户", re.I)
GENERIC = re.compile(r"^\s*(?:help|assist|provide|offer|support|guide|monitor|continue|keep)\b|"
                     r"\b(?:provide|offer)\s+(?:assistance|help|support|guidance)\b|\bhelp (?:the user|you|them)\b|"
                     r"\b(?:any|further|additional)\s+(?:help|assistance|questions?)\b", re.I)
ERROR_NAME = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b")
WORD = re.compile(r"[\w+#.-]{3,}|[\u3400-\u9fff]")


def norm(text: str) -> str:
    """Lowercase, one kind of quote and dash, single spaces: how a name is compared with the context."""
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("‘", "'")
    return " ".join(text.split())


def _in_context(fragment: str, context: str) -> bool:
    fragment = norm(fragment).rstrip("…").rstrip(".").strip()
    return bool(fragment) and fragment in context


def _unquoted(task: str, grounding: Grounding) -> str:
    """The task without the quotes of what the person met: an error's own words are not a narration of the
    person ("Error: no such table: users")."""
    names = [norm(o.detail or o.text) for o in grounding.objects]

    def keep_unless_met(m: re.Match[str]) -> str:
        fragment = norm(next(g for g in m.groups() if g is not None)).rstrip("…").strip()
        return "" if fragment and any(fragment in name for name in names) else m.group(0)

    return QUOTED.sub(keep_unless_met, task)


def rejection(task: str, grounding: Grounding) -> str | None:
    """Why `task` must not be shown here, or None when it is grounded."""
    text = task.strip()
    if not text:
        return "empty"
    if NARRATION.search(_unquoted(text, grounding)):
        return "narrates the user"
    context = norm(grounding.context_text)
    for m in QUOTED.finditer(text):
        fragment = next(g for g in m.groups() if g is not None)
        if not _in_context(fragment, context):
            return f"names '{fragment[:40]}', which is not in the context"
    for m in FILE_NAME.finditer(text):
        if norm(m.group(1)) not in context:
            return f"names the file {m.group(1)}, which is not in the context"
    for m in ERROR_NAME.finditer(text):
        if norm(m.group(0)) not in context:
            return f"names the error {m.group(0)}, which is not in the context"
    recent = [o for o in grounding.objects if o.index >= grounding.n_events - RECENT]
    if not any(mentions(text, o.text) for o in recent):
        return "generic offer" if GENERIC.search(text) else "names nothing from the last three events"
    return None


def mentions(task: str, name: str) -> bool:
    """The task names the object: its (possibly shortened) text, or most of its words."""
    t, n = norm(task), norm(name)
    if n in t:
        return True
    head = TITLE_SPLIT.split(n)[0]
    if len(head) >= 4 and head[: max(4, min(len(head), 40))] in t:
        return True
    words = set(WORD.findall(n))
    return len(words) >= 2 and len(words & set(WORD.findall(t))) / len(words) >= 0.6


def keep(tasks: list[str], grounding: Grounding) -> tuple[list[str], dict[str, str]]:
    """The grounded tasks (order kept) and, for each dropped one, why."""
    kept, dropped = [], {}
    for task in tasks:
        reason = rejection(task, grounding)
        if reason is None:
            kept.append(task)
        else:
            dropped[task] = reason
    return kept, dropped
