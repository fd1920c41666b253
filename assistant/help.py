"""Doing the work once the user accepts. The task's action (`candidates.Action.help`) says which help it gets,
best first; every kind that applies is done, and the result window says plainly what was done:

- search: a web search for the error, query, page or command the task is about, opened in the person's browser
  through `webbrowser` (which honours BROWSER). The only network use: it sends captured text (an error message)
  to a search engine, so it happens only with the `web_search = "on"` setting or the person's yes for this once.
  With "ask" the tray asks before the help starts (`consent_question` says what would be sent; the answer comes
  back as "on", "off" or NOT_NOW); where nobody can be asked (the headless `proactive decide`) the result gives
  the link and says how to allow it; with "off" there is none.
- history: the earlier times the person met the same thing, from their own episodes (SQLite FTS5,
  `Store.search_episodes`), each with what they did next: their own earlier fix is often the best help.
  Only episodes that ended before the context's first event count: the person has just seen the context's own
  episodes, and "you met this two minutes ago" helps nobody.
- fix: the specific next step for an error, from facts on this machine (`assistant/diagnose`): what went wrong,
  quoting the message, and the steps, each with its command to copy. No network, no model.
- code, points, notes: from the pages the person read (assistant/material.py says which; assistant/page_help.py
  takes their code in the file's language, their key points, notes as Markdown with links), each with its link
  and a copy button; pages are fetched only with web search allowed (the same consent), else only what the
  browser shows is read.
- answer: a summary or draft from the model (a capable one the person chose: assistant/answers.py). It is shown
  only when it passes the same validator as every task (`validate.rejection`): it quotes what it is about from
  the context and invents nothing; the built-in 135M model's free text rarely does.

A free-written task (a capable model's) has no action id: the action is inferred from the objects it names, as
the first action (in `candidates.ACTIONS` order) whose kinds it names; a task naming an error gets an error's help.
"""

from __future__ import annotations

import re
import time
import webbrowser
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus, urlsplit

from proactive.models.base import Observation, Predictor
from proactive.watcher.episodes.builder import quote
from proactive.watcher.episodes.wording import plural

from .candidates import (
    ACTIONS,
    ANSWER,
    BY_ID,
    CODE,
    DOCS,
    FIX,
    HISTORY,
    NOTES,
    PAGE_HELP,
    POINTS,
    SEARCH,
    Action,
    short,
)
from .diagnose import Diagnosis, diagnose
from .diagnose.command_docs import command_doc, program_of
from .diagnose.local_docs import python_doc
from .error_quote import as_met, situation
from .grounding import (
    CHAT,
    COMMAND,
    DOCUMENT,
    ERROR,
    FILE,
    PAGE,
    QUERY,
    TOPIC,
    Grounding,
    Obj,
    extract,
    ground,
)
from .material import Material, Source
from .page_help import code_examples, key_points, notes
from .pages import Page
from .prompt import observation_line
from .recall import _UNREADABLE, first_line, history_before, recall, recall_text
from .sentence_patterns import TITLE_SPLIT
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
          "Answer directly and concretely in a few sentences (code or a command if that is what helps), quoting "
          "the error message or the file name you answer about. "
          'Reply as JSON: {"answer": "..."}')
SEARCHABLE = (ERROR, QUERY, PAGE, COMMAND, TOPIC)  # a file or document name means nothing to a search engine
QUESTION_CHARS = 300  # captured text in the consent question: one line at most this long
NOT_NOW = "not now"  # do_task's `search` after the person declined this one search (the setting stays "ask")
NOTHING = "Nothing could be done: the task names nothing from your recent work to search for or recall."


@dataclass
class Help:
    """What accepting did. `text` is everything the result window shows, as plain sentences."""

    parts: tuple[str, ...]  # the kinds of help produced ("search", "history", "answer"), or ("error",)
    text: str
    url: str | None = None  # the web search (opened in the browser, or to open by hand when none could be)
    history: tuple[str, ...] = ()  # one sentence per earlier time the person met the task's subject
    answer: str | None = None  # the model's answer, only when shown
    dropped: str | None = None  # why the model's answer was not shown (kept for the record, never shown)
    seconds: float = 0.0
    steps: tuple[dict[str, str | None], ...] = ()  # the fix's next steps: {"text", "command", "copy"} (buttons)
    fix: str | None = None  # the diagnosis rule that gave them
    # the addresses of the pages read (their code examples and notes are in `steps`, {"text", "command", "copy",
    # "page"}: "page" marks text from pages, which a stored decision never keeps)
    pages: tuple[str, ...] = ()
    # `text` without what the pages said: what the store keeps (page text is held for the task, never stored)
    kept: str | None = None

    @property
    def gave(self) -> bool:
        """Whether this help gave the person something (`gave`)."""
        return gave(self.parts, self.history)

    @property
    def kind(self) -> str:
        """The main part: the model's answer when shown, else the first help produced."""
        return ANSWER if self.answer else self.parts[0]

    @classmethod
    def failure(cls, message: str) -> Help:
        return cls(("error",), message)

    def to_json(self) -> dict[str, Any]:
        """Everything, as the result window and `replay --accept` show it."""
        data = {"kind": self.kind, **asdict(self)}
        data.pop("kept")
        return data

    def record(self) -> dict[str, Any]:
        """The stored decision's `result`: without the pages' text (their addresses stay), which is held for the
        task and never written to the database."""
        data = self.to_json()
        if self.kept is not None:
            data["text"] = self.kept
            data["steps"] = [s for s in self.steps if not s.get("page")]
            if self.answer and self.answer not in self.kept:  # written from the pages: not kept either
                data["answer"] = None
        return data


#: the parts of a help that give something whenever they are produced: a fix's steps, the pages' code, key points
#: or notes, this machine's documentation, a model's answer shown, a web search opened (a history part is also
#: produced when the history holds nothing: it gives only its earlier times)
GIVING = frozenset({FIX, *PAGE_HELP, DOCS, ANSWER, SEARCH})


def gave(parts: Sequence[str], history: Sequence[str]) -> bool:
    """Whether a help with these parts and earlier times gave the person something: not a failure, not "no page
    could be read", not an empty history. The feedback memory holds an accepted offer back only then
    (`feedback.FeedbackMemory.record`): help that gave nothing is not help given."""
    return bool(GIVING.intersection(parts)) or bool(history)


def search_url(query: str) -> str:
    return f"https://duckduckgo.com/?q={quote_plus(query)}"


def search_host(query: str) -> str:
    """Where a web search for `query` sends it: what the consent question and every result name."""
    return urlsplit(search_url(query)).hostname or ""


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

    # (an error as its offer quoted it: `as_met`)
    objects = [as_met(o, grounding) if o.kind == ERROR else o for o in grounding.objects]
    named = [o for o in objects if mentions(task, o.text) or any(names(o, t) for t in own)
             or (o.kind == ERROR and norm(short(o)).rstrip("…") in norm(task))]  # (as an offer quoted it)
    named += [t for t in own if not any(names(o, t) for o in named)]
    # (the context's objects before the task's own words for them; of two errors the task names alike, the one
    # with more of its copy: what the help reads)
    context = set(map(id, objects))
    return sorted(named, key=lambda o: (short(o) not in task, id(o) not in context,
                                        -len(o.detail or o.text) if o.kind == ERROR else 0))


def plan(task: str, grounding: Grounding, action_id: str | None = None) -> tuple[tuple[str, ...], Obj | None]:
    """The kinds of help the task gets, best first, and the object it is about (its subject)."""
    named = named_objects(task, grounding)
    kinds = [o.kind for o in named]
    action: Action | None = BY_ID.get(action_id or "") or next(
        (a for a in ACTIONS if not set(a.help) & {FIX, *PAGE_HELP} and all(k in kinds for k in a.needs)), None)
    if action is None:
        return (ANSWER,), None
    subject = next((named[kinds.index(k)] for k in action.needs if k != CHAT and k in kinds), None)
    if subject is not None and subject.kind == ERROR and FIX not in action.help:
        return (FIX, *action.help), subject  # an error's specific next step, when one is known, comes first
    return action.help, subject
















def ask(model: Predictor, context: Sequence[Observation], task: str,
        pages: Sequence[Page] = ()) -> tuple[str | None, str | None]:
    """The model's answer to the task from the last events and the pages read for it (their key points and
    best code, each with its link), or (None, why not)."""
    events = "\n".join(observation_line(o) for o in list(context)[-8:])
    read = ""
    if pages:
        read = "\nPages the user read (use them, and name the link of each one you use):\n" + "\n".join(
            excerpt(i, page, task) for i, page in enumerate(pages[:3], 1))
    gen = model.complete_json([{"role": "system", "content": SYSTEM},
                               {"role": "user", "content": f"Recent events:\n{events}{read}\nTask: {task}"}],
                              HELP_SCHEMA)
    if gen.data is None:
        return None, f"the model gave no usable answer ({gen.error})"
    answer = gen.data["answer"].strip()
    return (answer, None) if answer else (None, "the model's answer was empty")


EXCERPT_CHARS = 1200


def excerpt(n: int, page: Page, task: str) -> str:
    """A page in the answer's prompt: its title and link, key points, and its best code for the task."""
    lines = [f"[{n}] {page.title or page.url} ({page.url})", *(f"- {p}" for p in key_points(page, 4))]
    code = code_examples([page], task, None, limit=1)
    if code:
        lines.append(code[0].code)
    text = "\n".join(lines)
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 1] + "…"


def cites(answer: str, pages: Sequence[Page]) -> bool:
    """Whether the answer names one of the pages it was given, by its link or its title."""
    said = norm(answer)
    return any(norm(p.url) in said or (p.title and norm(TITLE_SPLIT.split(p.title)[0]) in said) for p in pages)


DOTTED = re.compile(r"\b[a-z_]\w*(?:\.[A-Za-z_]\w*)+\b")


def local_docs(subject: Obj) -> list[str]:
    """What this machine's own documentation says about the subject: a command's manual page summary (and its
    subcommand's: `git-commit`), a standard-library Python symbol's docstring; no network, nothing run but
    `man -f`."""
    lines: list[str] = []
    if subject.kind == COMMAND:
        found = program_of(subject.text)
        if found is not None:
            program, sub_page = found
            for page in (program, sub_page):
                doc = command_doc(page) if page else None
                if doc:
                    lines.append(f"{page}: {doc}. Its manual: man {page}")
    for symbol in dict.fromkeys(DOTTED.findall(subject.text)):
        doc = python_doc(symbol)
        if doc:
            lines.append(f"From Python's documentation: {doc}")
    return lines


def fix_lines(found: Diagnosis) -> list[str]:
    """The diagnosis as the result window shows it: the problem, then numbered steps with their commands."""
    steps = [f"{i}. {step.text}" + (f"\n   {step.shown()}" if step.command else "")
             for i, step in enumerate(found.steps, 1)]
    return [found.problem, "Next step" + ("s" if len(steps) > 1 else "") + ":\n" + "\n".join(steps)]


def web_search(query: str, setting: str, open_browser: bool = True) -> tuple[str | None, bool, str]:
    """The search for `query` under the `web_search` setting: (url, opened, the sentence saying what happened).

    Only "on" sends anything, and then the sentence names what went where. NOT_NOW: the person was asked and
    declined this once. "ask" arrives here only when nobody could be asked (`proactive decide`): the link, and
    how to allow it. `open_browser=False` (`proactive replay --accept`): the search is recorded as its URL,
    nothing is opened or sent."""
    url = search_url(query)
    host = search_host(query)
    if setting == "off":
        return None, False, 'No web search: web_search = "off" in config.toml, so nothing was sent.'
    if not open_browser:
        return url, False, f"A web search for '{query}' on {host} (not opened, nothing sent): {url}"
    if setting == NOT_NOW:
        return url, False, (f"No web search: you chose not to send '{query}' to {host} this time, so nothing was "
                            f"sent; open it yourself if you like: {url}")
    if setting != "on":
        return url, False, (f"A web search would send '{query}' to {host}; it was not opened. To allow web "
                            f'searches, set web_search = "on" in config.toml; or open it yourself: {url}')
    if webbrowser.open(url):
        return url, True, f"Sent '{query}' to {host} (web search), opened in your browser."
    return url, False, f"No browser could be opened, so nothing was sent; the web search for '{query}' is at {url}"


def consent_question(context: Sequence[Observation], task: str, action: str | None = None,
                     material: Source | None = None) -> str | None:
    """What accepting `task` would send or read on the network, as the question the person is asked first (the
    tray's, with web_search = "ask"), or None when its help stays on this machine."""
    kinds, subject = plan(task, ground(context), action)
    query = _searched(kinds, subject)
    if query is not None:
        return f"Accepting sends '{quote(query, QUESTION_CHARS)}' to {search_host(query)}. Allow web searches?"
    found = material(subject) if material is not None and subject is not None and set(kinds) & set(PAGE_HELP) \
        else None
    if found is None or not found.pending:
        return None
    urls = [u for u in found.pending if urlsplit(u).hostname]
    if not urls:
        return (f"Accepting sends '{quote(found.query or found.pending[0], QUESTION_CHARS)}' to a search engine and reads the top "
                "results for you. Allow web searches and reading pages?")
    hosts = ", ".join(sorted({urlsplit(u).hostname or "" for u in urls}))
    return (f"Accepting reads {plural(len(urls), 'page')} for you from {hosts} (the site sees a visit from this "
            "computer, without your cookies). Allow web searches and reading pages?")


def _searched(kinds: Sequence[str], subject: Obj | None) -> str | None:
    if SEARCH in kinds and subject is not None and subject.kind in SEARCHABLE:
        return first_line(subject)
    return None


def page_help(kind: str, subject: Obj, grounding: Grounding, found: Material | None,
              ) -> tuple[list[str], list[dict[str, str | None]], tuple[str, ...]]:
    """The lines, copy buttons and links of one page help (`kind`: code, points or notes) about `subject`."""
    if found is None:
        return [f"No page about '{short(subject)}' could be read."], [], ()
    if not found.pages:
        what = ", ".join(found.pending[:3])
        return [f"Nothing was read: {found.unlock}. It would read: {what}."], [], ()
    links = tuple(p.url for p in found.pages)
    query = subject.text if subject.kind == QUERY else found.query or subject.text
    if kind == CODE:
        file = grounding.first(FILE)
        examples = code_examples(found.pages, query, file.text if file else None)
        if not examples:
            where = f" in the language of {file.text}" if file else ""
            return [f"The pages read have no code{where} for '{short(subject)}'."], [], links
        lines = [f"{plural(len(examples), 'code example')} for '{short(subject)}'"
                 f"{' for ' + file.text if file else ''}, best first:"]
        buttons: list[dict[str, str | None]] = []
        for e in examples:
            under = f", under '{e.heading}'" if e.heading else ""
            lines.append(f"From '{e.title or e.url}' ({e.url}){under}:\n{e.code}")
            buttons.append({"text": f"From {e.url}", "command": e.code, "copy": "Copy code", "page": e.url})
        return lines, buttons, links
    if kind == NOTES:
        document = grounding.first(DOCUMENT)
        topic = grounding.first(TOPIC)
        text = notes(found.pages, query, focus=topic.text if topic else "")
        where = f" for {document.text}" if document else ""
        return ([f"Notes{where} from {plural(len(found.pages), 'page')} you read, ready to paste (your file is not "
                 f"changed):\n{text}"], [{"text": "Notes", "command": text, "copy": "Copy notes", "page": "notes"}], links)
    lines = []
    topic = grounding.first(TOPIC)
    for page in found.pages:
        points = key_points(page, topic=f"{query} {topic.text if topic else ''}")
        if points:
            lines.append(f"Key points of '{page.title or page.url}' ({page.url}):\n" + "\n".join(f"- {p}" for p in points))
    if not lines:  # read, but nothing to give: no part of the help (`gave`)
        return [f"The pages read for '{short(subject)}' have no text to take points from."], [], ()
    return lines, [], links


@dataclass
class Job:
    """One Accept's inputs, as every help kind reads them (`do_task`'s arguments, the context grounded once)."""

    model: Predictor | None
    context: Sequence[Observation]
    task: str
    grounding: Grounding
    subject: Obj | None
    query: str | None
    db: Path | str | None
    search: str
    open_browser: bool
    history_search: bool
    material: Source | None


@dataclass
class Done:
    """What the help kinds produced so far, in the order they ran; `Help` is made from it."""

    parts: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    from_pages: list[str] = field(default_factory=list)  # the lines that quote pages: never stored
    kept: list[str] = field(default_factory=list)  # what the store keeps of each page help: one line, no page text
    buttons: list[dict[str, str | None]] = field(default_factory=list)
    links: tuple[str, ...] = ()
    url: str | None = None
    answer: str | None = None
    dropped: str | None = None
    history: list[str] = field(default_factory=list)
    found: Diagnosis | None = None


def _page_kind(kind: str) -> Callable[[Job, Done], None]:
    """Code examples, key points or notes from the pages the task's subject has (`page_help`)."""

    def run(job: Job, done: Done) -> None:
        if job.subject is None:
            return
        more, copies, read = page_help(kind, job.subject, job.grounding,
                                       job.material(job.subject) if job.material else None)
        done.lines.extend(more)
        done.from_pages.extend(more)
        done.buttons += copies
        done.links += read
        done.kept.append(f"{kind.capitalize()} from {', '.join(read)} (the pages' text is not kept)." if read
                         else more[0])
        if read and (copies or kind == POINTS):
            done.parts.append(kind)

    return run


def _docs(job: Job, done: Done) -> None:
    """This machine's documentation of the subject (a Python name's pydoc, a program's manual)."""
    docs = local_docs(job.subject) if job.subject is not None else None
    if docs:
        done.parts.append(DOCS)
        done.lines.extend(docs)


def _fix(job: Job, done: Done) -> None:
    """An error's specific next step, from the rules and this machine's facts (`diagnose`)."""
    if job.subject is not None:
        done.found = diagnose(situation(job.subject, job.grounding))
        if done.found is not None:
            done.parts.append(FIX)
            done.lines.extend(fix_lines(done.found))


def _search(job: Job, done: Done) -> None:
    """A web search for the subject, opened only under the consent given."""
    if job.query is not None:
        done.url, opened, line = web_search(job.query, job.search, job.open_browser)
        if opened or (done.url and not job.open_browser):
            done.parts.append(SEARCH)
        done.lines.append(line)


def _history(job: Job, done: Done) -> None:
    """The earlier times the person met the subject, from their own episodes (SQLite FTS5)."""
    if job.subject is None or not job.history_search:
        return
    name = short(job.subject)
    try:
        done.history = recall(recall_text(job.subject), history_before(job.context), job.db)
    except _UNREADABLE as exc:
        done.lines.append(f"Your history could not be read ({exc}).")
        return
    done.parts.append(HISTORY)
    if done.history:
        done.lines.append(f"Found {plural(len(done.history), 'earlier time')} you met '{name}':\n"
                          + "\n".join(done.history))
    else:
        done.lines.append(f"Your history has no earlier mention of '{name}'.")


def _answer(job: Job, done: Done) -> None:
    """The model's answer, shown only when grounded (it quotes what it is about) and, when written from pages,
    naming them."""
    if job.model is None:
        return
    given = job.material(job.subject) if job.material is not None and job.subject is not None else None
    pages = given.pages if given is not None else ()
    answer, done.dropped = ask(job.model, job.context, job.task, pages)
    if answer is not None:
        # what it may quote: the context, and the pages it was given (whose links it must name)
        grounding = job.grounding
        checked = replace(grounding, context_text=grounding.context_text + "\n" + "\n".join(
            f"{p.title}\n{p.url}\n{p.text}" for p in pages)) if pages else grounding
        done.dropped = rejection(answer, checked) or (
            None if not pages or cites(answer, pages) else "it does not name the pages it used")
        answer = None if done.dropped else answer
        if answer is not None and pages:
            done.links += tuple(p.url for p in pages if p.url not in done.links)
            done.kept.append(f"An answer written from {', '.join(p.url for p in pages)} (not kept: it quotes "
                             "the pages).")
    if answer is not None:
        done.answer = answer
        done.parts.append(ANSWER)


#: Every kind of help an Accept can do, by the name `plan` gives it: a new kind is one function here (it reads the
#: `Job`, adds to `Done`) and its name in `candidates.py`'s actions.
HELP_KINDS: dict[str, Callable[[Job, Done], None]] = {
    **{kind: _page_kind(kind) for kind in PAGE_HELP},
    DOCS: _docs, FIX: _fix, SEARCH: _search, HISTORY: _history, ANSWER: _answer,
}


def do_task(model: Predictor | None, context: Sequence[Observation], task: str, action: str | None = None,
            db: Path | str | None = None, search: str = "ask", open_browser: bool = True,
            history_search: bool = True, material: Source | None = None) -> Help:
    """Do the accepted `task` (of grounded action id `action`, if it has one) over the `context` it came from;
    `db` is the store whose episodes are the person's history (default: theirs). No `model`: no answer.
    `search` is the `web_search` setting ("ask", "on", "off"), or NOT_NOW when the person declined this one
    search: whether a web search may be opened. `open_browser=False`: a web search is part of the help as its
    URL, never opened; `history_search=False`: no store is read (replay: a recorded session is not this
    computer's person). `material`: the pages that can be read for the task's subject, under the consent given
    (assistant/material.py). Each kind of help the task plans runs in turn (`HELP_KINDS`)."""
    started = time.perf_counter()
    grounding = ground(context)
    kinds, subject = plan(task, grounding, action)
    job = Job(model, context, task, grounding, subject, _searched(kinds, subject), db, search, open_browser,
              history_search, material)
    done = Done()
    for kind in kinds:
        HELP_KINDS[kind](job, done)
    answer, lines, kept = done.answer, done.lines, done.kept
    text = "\n\n".join([answer, *lines] if answer else lines) or NOTHING
    answered_from_pages = answer is not None and any(k.startswith("An answer written from") for k in kept)
    kept_text = "\n\n".join(([answer] if answer and not answered_from_pages else []) +
                             [ln for ln in lines if ln not in done.from_pages] + kept)
    found = done.found
    steps = tuple({"text": s.text, "command": s.command, "copy": s.copy_label if s.command else None}
                  for s in found.steps) if found else ()
    return Help(tuple(done.parts) or ("error",), text, done.url, tuple(done.history), answer, done.dropped,
                time.perf_counter() - started, steps + tuple(done.buttons), found.rule if found else None,
                done.links, kept_text if kept else None)
