"""Doing the work once the user accepts. The task's action (`candidates.Action.help`) says which help it gets,
best first; every kind that applies is done, and the result window says plainly what was done:

- search: a web search for the error, query, page or command the task is about, opened in the person's browser
  through `webbrowser` (which honours BROWSER). The only network use: it sends captured text (an error message)
  to a search engine, so it happens only with the `web_search = "on"` setting; with "ask" and no way to ask (the
  headless `proactive decide`) the result gives the link and says how to allow it, with "off" there is none.
- history: the earlier times the person met the same thing, from their own episodes (SQLite FTS5,
  `Store.search_episodes`), each with what they did next: their own earlier fix is often the best help.
  Only episodes that ended before the context's first event count: the person has just seen the context's own
  episodes, and "you met this two minutes ago" helps nobody.
- answer: a summary or draft from the model. The built-in 135M model's free text is usually wrong, so its
  answer is shown only when it passes the same validator as every task (`validate.rejection`); a capable model's
  answer is shown as written.

A free-written task (a capable model's) has no action id: the action is inferred from the objects it names, as
the first action (in `candidates.ACTIONS` order) whose kinds it names; a task naming an error gets an error's help.
"""

from __future__ import annotations

import re
import time
import webbrowser
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus, urlsplit

from proactive.models.base import Predictor
from proactive.watcher import crypto
from proactive.watcher.episodes import place, plural
from proactive.watcher.store import Store, StoreError

from .candidates import ACTIONS, ANSWER, BY_ID, HISTORY, SEARCH, Action, short
from .grounding import CHAT, COMMAND, ERROR, PAGE, QUERY, TOPIC, Grounding, Obj, extract, ground
from .prompt import observation_line
from .validate import mentions, norm, rejection

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
SEARCHABLE = (ERROR, QUERY, PAGE, COMMAND, TOPIC)  # a file or document name means nothing to a search engine
MAX_HISTORY = 3
VISIT_GAP_S = 1800.0  # matches closer than this to a newer one are the same visit, told once
NOTHING = "Nothing could be done: the task names nothing from your recent work to search for or recall."
RECALL_CHARS = 40  # the subject's leading text looked up in the history: earlier quotes may be cut differently


@dataclass
class Help:
    """What accepting did. `text` is everything the result window shows, as plain sentences."""

    parts: tuple[str, ...]  # the kinds of help produced ("search", "history", "answer"), or ("error",)
    text: str
    url: str | None = None  # the web search (opened in the browser, or to open by hand when none could be)
    history: tuple[str, ...] = ()  # one sentence per earlier time the person met the task's subject
    answer: str | None = None  # the model's answer, only when shown
    dropped: str | None = None  # why the model's answer was not shown
    seconds: float = 0.0

    @property
    def kind(self) -> str:
        """The main part: the model's answer when shown, else the first help produced."""
        return ANSWER if self.answer else self.parts[0]

    @classmethod
    def failure(cls, message: str) -> Help:
        return cls(("error",), message)

    def to_json(self) -> dict[str, Any]:
        """The stored decision's `result`."""
        return {"kind": self.kind, **asdict(self)}


def search_url(query: str) -> str:
    return f"https://duckduckgo.com/?q={quote_plus(query)}"


def named_objects(task: str, grounding: Grounding) -> list[Obj]:
    """The objects the task names: the context's (in full: 'TimeoutError: timed out' for a task naming
    'TimeoutError'), and those only the task's own text names (a 'search for ...' task's query). The ones the
    task quotes as they are come first, since they are what it is about; newest first within each."""
    own = extract(task, grounding.n_events)
    asked = SEARCH_TASK.match(task)
    if asked:
        own.append(Obj(QUERY, asked.group(2).strip(" ."), grounding.n_events))

    def names(obj: Obj, part: Obj) -> bool:
        return obj.kind == part.kind and norm(part.text) in norm(obj.text)

    named = [o for o in grounding.objects if mentions(task, o.text) or any(names(o, t) for t in own)]
    named += [t for t in own if not any(names(o, t) for o in named)]
    return sorted(named, key=lambda o: short(o) not in task)


def plan(task: str, grounding: Grounding, action_id: str | None = None) -> tuple[tuple[str, ...], Obj | None]:
    """The kinds of help the task gets, best first, and the object it is about (its subject)."""
    named = named_objects(task, grounding)
    kinds = [o.kind for o in named]
    action: Action | None = BY_ID.get(action_id or "") or next(
        (a for a in ACTIONS if all(k in kinds for k in a.needs)), None)
    if action is None:
        return (ANSWER,), None
    subject = next((named[kinds.index(k)] for k in action.needs if k != CHAT and k in kinds), None)
    return action.help, subject


def recall(text: str, before: float, db: Path | str | None = None) -> list[str]:
    """One sentence per earlier visit where the person met `text` (newest first), with what they did next."""
    store = Store(db, readonly=True)
    try:
        matches = store.search_episodes(text, before)
    finally:
        store.close()
    lines: list[str] = []
    visit_start: float | None = None
    for e in matches:
        same_visit = visit_start is not None and visit_start - e["end"] < VISIT_GAP_S
        visit_start = e["start"]
        if same_visit:
            continue
        then = f", then went to {place(e['next']['app'], e['next']['title'])}" if e["next"] else ""
        when = datetime.fromtimestamp(e["start"])
        lines.append(f"You met this on {when:%A} {when.day} {when:%b} at {when:%H:%M} in "
                     f"{place(e['app'], e['title'])}{then}.")
        if len(lines) == MAX_HISTORY:
            break
    return lines


def first_line(obj: Obj) -> str:
    """The object's text up to its first line break, without the ellipsis of a cut quote."""
    return obj.text.splitlines()[0].rstrip("…").strip()


def recall_text(obj: Obj) -> str:
    """The leading words of the object's first line: what earlier mentions of it most likely share."""
    text = first_line(obj)
    if len(text) > RECALL_CHARS:
        text = text[:RECALL_CHARS].rsplit(" ", 1)[0]
    return text


def ask(model: Predictor, context: Sequence[dict[str, str]], task: str) -> tuple[str | None, str | None]:
    """The model's answer to the task from the last events, or (None, why not)."""
    events = "\n".join(observation_line(o) for o in list(context)[-8:])
    gen = model.complete_json([{"role": "system", "content": SYSTEM},
                               {"role": "user", "content": f"Recent events:\n{events}\nTask: {task}"}], HELP_SCHEMA)
    if gen.data is None:
        return None, f"the model gave no usable answer ({gen.error})"
    answer = gen.data["answer"].strip()
    return (answer, None) if answer else (None, "the model's answer was empty")


def web_search(query: str, setting: str, open_browser: bool = True) -> tuple[str | None, bool, str]:
    """The search for `query` under the `web_search` setting: (url, opened, the sentence saying what happened).

    Only "on" sends anything, and then the sentence names what went where. "ask" arrives here only when nobody
    could be asked (the tray's question is not built yet, so the tray too): the link, and how to allow it.
    `open_browser=False` (`proactive replay --accept`): the search is recorded as its URL, nothing is opened or
    sent."""
    url = search_url(query)
    host = urlsplit(url).hostname
    if setting == "off":
        return None, False, 'No web search: web_search = "off" in config.toml, so nothing was sent.'
    if not open_browser:
        return url, False, f"A web search for '{query}' on {host} (not opened, nothing sent): {url}"
    if setting != "on":
        return url, False, (f"A web search would send '{query}' to {host}; it was not opened. To allow web "
                            f'searches, set web_search = "on" in config.toml; or open it yourself: {url}')
    if webbrowser.open(url):
        return url, True, f"Sent '{query}' to {host} (web search), opened in your browser."
    return url, False, f"No browser could be opened, so nothing was sent; the web search for '{query}' is at {url}"


def do_task(model: Predictor | None, context: Sequence[dict[str, str]], task: str, action: str | None = None,
            db: Path | str | None = None, search: str = "ask", open_browser: bool = True,
            history_search: bool = True) -> Help:
    """Do the accepted `task` (of grounded action id `action`, if it has one) over the `context` it came from;
    `db` is the store whose episodes are the person's history (default: theirs). No `model`: no answer.
    `search` is the `web_search` setting ("ask", "on", "off"): whether a web search may be opened.
    `open_browser=False`: a web search is part of the help as its URL, never opened; `history_search=False`: no
    store is read (replay: a recorded session is not this computer's person)."""
    started = time.perf_counter()
    grounding = ground(context)
    kinds, subject = plan(task, grounding, action)
    parts: list[str] = []
    lines: list[str] = []
    url = answer = dropped = None
    history: list[str] = []
    name = short(subject) if subject else ""
    for kind in kinds:
        if kind == SEARCH and subject is not None and subject.kind in SEARCHABLE:
            url, opened, line = web_search(first_line(subject), search, open_browser)
            if opened or (url and not open_browser):
                parts.append(SEARCH)
            lines.append(line)
        elif kind == HISTORY and subject is not None and history_search:
            starts = [float(o["time"]) for o in context if o.get("time")]
            before = min(starts, default=time.time()) - 1.0  # times are rounded: keep the first episode out too
            try:
                history = recall(recall_text(subject), before, db)
            except (StoreError, *crypto.Error) as exc:  # plain or SQLCipher driver
                lines.append(f"Your history could not be read ({exc}).")
                continue
            parts.append(HISTORY)
            if history:
                lines.append(f"Found {plural(len(history), 'earlier time')} you met '{name}':\n" + "\n".join(history))
            else:
                lines.append(f"Your history has no earlier mention of '{name}'.")
        elif kind == ANSWER and model is not None:
            answer, dropped = ask(model, context, task)
            if answer is not None and not getattr(model, "capable", True):
                dropped = rejection(answer, grounding)
                answer = None if dropped else answer
            if answer is not None:
                parts.append(ANSWER)
            else:
                lines.append(f"The model's answer is not shown ({dropped}).")
    text = "\n\n".join([answer, *lines] if answer else lines) or NOTHING
    return Help(tuple(parts) or ("error",), text, url, tuple(history), answer, dropped,
                time.perf_counter() - started)
