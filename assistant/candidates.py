"""Tasks grounded by construction: an action applied to objects taken from the grounding.

The built-in 135M model cannot write a useful task (it narrates the user or copies the prompt's examples), but
it can choose among given options. So every task here is a template filled only with objects the person met
("Explain the error 'ReadTimeout…' and suggest a fix for client.py"), and the popup message is built from the
same parts: nothing can be invented. The primary object must come from the last three events, so a task is
always about what the person is doing now; a secondary object (the file or document being worked on) may be
older, since it names where the help goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .grounding import (
    CHAT,
    CHATTING,
    CODING,
    COMMAND,
    DEBUGGING,
    DOCUMENT,
    ERROR,
    FILE,
    NOISE,
    PAGE,
    QUERY,
    READING,
    SEARCHING,
    TOPIC,
    WRITING,
    Grounding,
    Obj,
    fits_file,
    is_navigational,
    is_url,
    url_host,
)

SEARCH, HISTORY, ANSWER = "search", "history", "answer"  # kinds of help an accepted task gets


@dataclass(frozen=True)
class Action:
    id: str
    needs: tuple[str, ...]  # object kinds: the first must be recent, the others give where the help goes
    task: str  # template over the kinds' names
    message: str  # what the popup says, same parts
    help: tuple[str, ...]  # kinds of help on accept, best first


ACTIONS: tuple[Action, ...] = (
    Action("explain_error_file", (ERROR, FILE), "Explain the error '{error}' and suggest a fix for {file}",
           "You hit '{error}'. Want an explanation and a fix for {file}?", (HISTORY, SEARCH, ANSWER)),
    Action("explain_error", (ERROR,), "Explain the error '{error}' and suggest a fix",
           "You hit '{error}'. Want an explanation and a fix?", (HISTORY, SEARCH, ANSWER)),
    Action("code_for_query", (QUERY, FILE), "Show example code for '{query}' to use in {file}",
           "Want example code for '{query}' to use in {file}?", (SEARCH, HISTORY, ANSWER)),
    Action("draft_from_query", (QUERY, DOCUMENT), "Draft a paragraph on '{query}' for {document}",
           "Want a draft paragraph on '{query}' for {document}?", (SEARCH, HISTORY, ANSWER)),
    Action("draft_on_topic", (TOPIC, DOCUMENT), "Draft the next paragraph on '{topic}' for {document}",
           "Want a draft of the next paragraph on '{topic}' for {document}?", (SEARCH, HISTORY, ANSWER)),
    Action("summarise_results", (QUERY,), "Summarise the top results for '{query}'",
           "Want a summary of the top results for '{query}'?", (SEARCH, HISTORY, ANSWER)),
    Action("collect_page", (PAGE, DOCUMENT), "Collect the key points of '{page}' into {document}",
           "Want the key points of '{page}' collected into {document}?", (SEARCH, HISTORY, ANSWER)),
    Action("apply_page", (PAGE, FILE), "Show how to apply '{page}' in {file}",
           "Want to see how '{page}' applies to {file}?", (SEARCH, HISTORY, ANSWER)),
    Action("summarise_page", (PAGE,), "Summarise the key points of '{page}'",
           "Want the key points of '{page}'?", (SEARCH, HISTORY, ANSWER)),
    Action("explain_command", (COMMAND,), "Explain what '{command}' does and how to fix its output",
           "Want an explanation of '{command}' and its output?", (HISTORY, SEARCH, ANSWER)),
    Action("compare_chat", (CHAT, QUERY), "Compare the {chat} answer with the top results for '{query}'",
           "Want the {chat} answer checked against the top results for '{query}'?", (SEARCH, HISTORY, ANSWER)),
    Action("review_file", (FILE,), "Review the latest changes in {file} for bugs",
           "Want a quick review of your latest changes in {file}?", (HISTORY, ANSWER)),
)
BY_ID = {a.id: a for a in ACTIONS}

#: which actions fit an activity, best first; actions not listed still count, after these
FIT: dict[str, tuple[str, ...]] = {
    DEBUGGING: ("explain_error_file", "explain_error", "explain_command"),
    SEARCHING: ("code_for_query", "draft_from_query", "summarise_results", "compare_chat"),
    READING: ("collect_page", "apply_page", "summarise_page", "code_for_query", "draft_from_query",
              "summarise_results"),
    CODING: ("code_for_query", "apply_page", "explain_error_file", "review_file"),
    WRITING: ("draft_from_query", "draft_on_topic", "collect_page", "summarise_results", "summarise_page"),
    CHATTING: ("compare_chat", "summarise_results"),
    NOISE: ("code_for_query", "draft_from_query", "collect_page", "summarise_results", "summarise_page"),
}
MAX_OBJECT_CHARS = 60
TITLE_SPLIT = re.compile(r"\s+[-–—|·]\s+")


@dataclass(frozen=True)
class Candidate:
    action: str
    objects: tuple[Obj, ...]
    task: str
    message: str
    prior: float  # how well the action fits the activity, 1 = best

    @property
    def help(self) -> tuple[str, ...]:
        return BY_ID[self.action].help


def short(obj: Obj) -> str:
    """The object as quoted in a task: a page without its site suffix (a page known only by its address, by its
    site), anything cut to a readable length (the cut text stays a prefix of what the person saw, with an
    ellipsis, so the validator can find it)."""
    text = obj.text
    if obj.kind == PAGE:
        if is_url(text):
            text = url_host(text) or text
        parts = [p for p in TITLE_SPLIT.split(text) if p.strip()]
        if parts and len(parts[0]) >= 4:
            text = parts[0]
    if obj.kind == ERROR:
        text = text.splitlines()[0]
    if len(text) > MAX_OBJECT_CHARS:
        text = text[: MAX_OBJECT_CHARS - 1].rstrip() + "…"
    return text.replace("'", "’")


def offerable(obj: Obj) -> bool:
    """Whether an object can be what an offer is about: a navigational search ('github', 'gmail login') is a way
    to a site, not a topic; an address is never a page name (`grounding.extract` gives its title or site)."""
    if obj.kind == QUERY:
        return not is_navigational(obj.text)
    if obj.kind == PAGE:
        return not is_url(obj.text) or url_host(obj.text) is not None
    return True


def fits(primary: Obj, other: Obj) -> bool:
    """Whether `other` can be where help about `primary` goes: a file is written in the language the query, page
    or error names, if it names one (no Go code for a .py file)."""
    return other.kind != FILE or fits_file(primary.text, other.text)


def build(grounding: Grounding, limit: int = 6) -> list[Candidate]:
    """Grounded candidates for this moment, best-fitting first; at most `limit`."""
    order = FIT.get(grounding.activity, ()) + tuple(a.id for a in ACTIONS if a.id not in FIT.get(
        grounding.activity, ()))
    out: list[Candidate] = []
    seen: set[str] = set()
    for rank, action_id in enumerate(order):
        action = BY_ID[action_id]
        primary_kind, *others = action.needs
        primaries = [o for o in grounding.of(primary_kind, recent_only=True) if offerable(o)][:2]
        for primary in primaries:
            # where the help goes: the latest object of each other kind that suits the primary one
            secondary = [next((o for o in grounding.of(kind) if offerable(o) and fits(primary, o)), None)
                         for kind in others]
            if any(o is None for o in secondary):
                continue
            parts = {primary_kind: short(primary), **{o.kind: short(o) for o in secondary if o is not None}}
            task = action.task.format(**parts)
            if task.lower() in seen:
                continue
            seen.add(task.lower())
            prior = round(1.0 - rank / max(1, len(order)), 4) - (0.05 if primary is not primaries[0] else 0.0)
            out.append(Candidate(action.id, (primary, *[o for o in secondary if o is not None]), task,
                                 action.message.format(**parts), round(prior, 4)))
    out.sort(key=lambda c: -c.prior)
    return out[:limit]
