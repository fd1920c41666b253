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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .command_lines import KNOWN_BY_HEART, known_here, program_name, split_commands
from .diagnose import Diagnosis, diagnose
from .diagnose.command_docs import command_doc, program_of, program_word
from .diagnose.shell_errors import SHELL_WORDS
from .error_quote import as_met, situation
from .page_help import code_examples, file_language, key_points, query_language

if TYPE_CHECKING:
    from .material import Source
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
from .sentence_patterns import TITLE_SPLIT
from .validate import norm

SEARCH, HISTORY, ANSWER, FIX, DOCS = "search", "history", "answer", "fix", "docs"  # kinds of help on Accept
#: help from the pages read (assistant/page_help.py): their code, their key points, notes for a document
CODE, POINTS, NOTES = "code", "points", "notes"
PAGE_HELP = (CODE, POINTS, NOTES)


@dataclass(frozen=True)
class Action:
    id: str
    needs: tuple[str, ...]  # object kinds: the first must be recent, the others give where the help goes
    task: str  # template over the kinds' names
    message: str  # what the popup says, same parts
    help: tuple[str, ...]  # kinds of help on accept, best first
    # what the popup says when the model cannot write the answer the message promises (the built-in model): only
    # what Accept then gives (the earlier times, a web search); "" when the action needs no model's text
    plain: str = ""


ACTIONS: tuple[Action, ...] = (
    # from the pages the person read (assistant/material.py): {examples} says how many code examples when the
    # pages are in hand ("the 3 code examples"), {where} names the pages ("the page you opened", "the top results")
    Action("page_code", (QUERY, FILE), "Show {examples} for '{query}' from {where}, for {file}",
           "Want {examples} for '{query}' from {where}, for {file}?", (CODE,)),
    Action("page_code_page", (PAGE, FILE), "Show {examples} from '{page}' for {file}",
           "Want {examples} from '{page}' for {file}?", (CODE,)),
    Action("results_code", (QUERY,), "Show {examples} for '{query}' from {where}",
           "Want {examples} for '{query}' from {where}?", (CODE,)),
    Action("page_notes", (QUERY, DOCUMENT), "Collect notes on '{query}' from {where} for {document}",
           "Want notes on '{query}' from {where}, ready to paste into {document}?", (NOTES,)),
    Action("page_notes_page", (PAGE, DOCUMENT), "Collect notes from '{page}' for {document}",
           "Want notes from '{page}', with its link, ready to paste into {document}?", (NOTES,)),
    Action("page_points", (PAGE,), "Show the key points of '{page}'",
           "Want the key points of '{page}', with its link?", (POINTS,)),
    Action("results_points", (QUERY,), "Show the key points of {where} for '{query}'",
           "Want the key points of {where} for '{query}', with links?", (POINTS,)),
    # a specific next step known for this error (assistant/diagnose): {offer} is what Accept gives
    Action("fix_error", (ERROR,), "Give the next step for the error '{error}': {offer}",
           "You hit '{error}'. Want {offer}?", (FIX, HISTORY)),
    Action("explain_error_file", (ERROR, FILE), "Explain the error '{error}' and suggest a fix for {file}",
           "You hit '{error}'. Want an explanation and a fix for {file}?", (HISTORY, SEARCH, ANSWER),
           "You hit '{error}'. Want the times you met it before, and a web search for it?"),
    Action("explain_error", (ERROR,), "Explain the error '{error}' and suggest a fix",
           "You hit '{error}'. Want an explanation and a fix?", (HISTORY, SEARCH, ANSWER),
           "You hit '{error}'. Want the times you met it before, and a web search for it?"),
    Action("code_for_query", (QUERY, FILE), "Show example code for '{query}' to use in {file}",
           "Want example code for '{query}' to use in {file}?", (SEARCH, HISTORY, ANSWER),
           "Want a web search for '{query}' examples, and your earlier visits on it?"),
    Action("draft_from_query", (QUERY, DOCUMENT), "Draft a paragraph on '{query}' for {document}",
           "Want a draft paragraph on '{query}' for {document}?", (SEARCH, HISTORY, ANSWER),
           "Want a web search for '{query}', and your earlier visits on it?"),
    Action("draft_on_topic", (TOPIC, DOCUMENT), "Draft the next paragraph on '{topic}' for {document}",
           "Want a draft of the next paragraph on '{topic}' for {document}?", (SEARCH, HISTORY, ANSWER),
           "Want a web search on '{topic}', and your earlier visits on it?"),
    Action("summarise_results", (QUERY,), "Summarise the top results for '{query}'",
           "Want a summary of the top results for '{query}'?", (SEARCH, HISTORY, ANSWER),
           "Want the results for '{query}' again, and what you found on it before?"),
    Action("collect_page", (PAGE, DOCUMENT), "Collect the key points of '{page}' into {document}",
           "Want the key points of '{page}' collected into {document}?", (SEARCH, HISTORY, ANSWER),
           "Want '{page}' found again, with when you read it before?"),
    Action("apply_page", (PAGE, FILE), "Show how to apply '{page}' in {file}",
           "Want to see how '{page}' applies to {file}?", (SEARCH, HISTORY, ANSWER),
           "Want '{page}' found again, with when you read it before?"),
    Action("summarise_page", (PAGE,), "Summarise the key points of '{page}'",
           "Want the key points of '{page}'?", (SEARCH, HISTORY, ANSWER),
           "Want '{page}' found again, with when you read it before?"),
    # what the command's manual page says (local documentation), when it has one: {doc} is its summary
    Action("command_docs", (COMMAND,), "Show what the manual says about {program} ('{command}')",
           "Want what the manual says about {program} ({doc}), and the times you ran it before?", (DOCS, HISTORY)),
    Action("explain_command", (COMMAND,), "Explain what '{command}' does and how to fix its output",
           "Want an explanation of '{command}' and its output?", (HISTORY, SEARCH, ANSWER),
           "Want the times you ran '{command}' before, and a web search for it?"),
    Action("compare_chat", (CHAT, QUERY), "Compare the {chat} answer with the top results for '{query}'",
           "Want the {chat} answer checked against the top results for '{query}'?", (SEARCH, HISTORY, ANSWER),
           "Want the web results for '{query}' to check the {chat} answer against?"),
    Action("review_file", (FILE,), "Review the latest changes in {file} for bugs",
           "Want a quick review of your latest changes in {file}?", (HISTORY, ANSWER),
           "Want a look back at your earlier work on {file}?"),
)
BY_ID = {a.id: a for a in ACTIONS}

#: what each offer is, in a few words: the popup's heading above its message (the task itself, a long sentence
#: that the message says again in other words, is not shown twice)
HEADLINES = {
    "page_code": "Code from the pages you read", "page_code_page": "Code from the page you read",
    "results_code": "Code from the top results", "page_notes": "Notes for your document",
    "page_notes_page": "Notes for your document", "page_points": "The page's key points",
    "results_points": "Key points of the top results", "fix_error": "A next step for this error",
    "explain_error_file": "About this error", "explain_error": "About this error", "code_for_query": "Example code",
    "draft_from_query": "A draft paragraph", "draft_on_topic": "A draft paragraph",
    "summarise_results": "A summary of the results", "collect_page": "The page's key points",
    "apply_page": "Using what you read", "summarise_page": "The page's key points",
    "command_docs": "From the manual", "explain_command": "About this command",
    "compare_chat": "A check of the chat's answer", "review_file": "A look at your changes",
}

#: which actions fit an activity, best first; actions not listed still count, after these
FIT: dict[str, tuple[str, ...]] = {
    DEBUGGING: ("fix_error", "explain_error_file", "explain_error", "command_docs", "explain_command"),
    SEARCHING: ("page_code", "results_code", "page_notes", "results_points", "code_for_query", "draft_from_query", "summarise_results", "compare_chat"),
    READING: ("page_code_page", "page_notes_page", "page_code", "results_code", "page_notes", "page_points",
              "results_points",
              "collect_page", "apply_page", "summarise_page", "code_for_query", "draft_from_query",
              "summarise_results"),
    CODING: ("fix_error", "page_code", "page_code_page", "code_for_query", "apply_page", "explain_error_file", "review_file"),
    WRITING: ("page_notes", "page_notes_page", "draft_from_query", "draft_on_topic", "collect_page", "summarise_results", "summarise_page"),
    CHATTING: ("compare_chat", "summarise_results"),
    NOISE: ("page_code", "results_code", "page_notes", "code_for_query", "draft_from_query", "collect_page", "summarise_results", "summarise_page"),
}
MAX_OBJECT_CHARS = 60


@dataclass(frozen=True)
class Candidate:
    action: str
    objects: tuple[Obj, ...]
    task: str
    message: str
    prior: float  # how well the action fits the activity, 1 = best
    diagnosis: Diagnosis | None = None  # the specific next step Accept gives (fix_error)
    #: for an offer about a page, the search it was opened from (as quoted): help on that search already drew on
    #: its results, so the memory holds this offer back as it would one about the search (agent.predict)
    origin: str = ""

    @property
    def help(self) -> tuple[str, ...]:
        return BY_ID[self.action].help

    @property
    def grounded_text(self) -> str:
        """The task as the validator checks it: without a diagnosis's offer, which names what the rules found
        (the package 'requests' for the import 'reqeusts'), not something the person met."""
        return self.task.replace(self.diagnosis.offer, "") if self.diagnosis is not None else self.task


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


def manual(command: str) -> tuple[str, str] | None:
    """(the program a command line runs, its manual page's one-line summary), or None when it has none: what a
    command_docs offer names and what Accept then shows in full (help.local_docs)."""
    found = program_of(command)
    if found is None:
        return None
    program, sub_page = found
    page = sub_page or program  # `git rebase`: git-rebase's page says more than git's
    doc = command_doc(page)
    return (page.replace("-", " ", 1) if sub_page else program, doc) if doc else None


#: an error about how a program was called: its manual answers it (an option, an argument, the usage)
USAGE_ERROR = re.compile(r"unrecognized option|unrecognised option|invalid option|unknown option|illegal option|"
                         r"invalid argument|missing operand|\busage:|unknown command|unknown subcommand|"
                         r"is not a \w+ command|requires an argument|unexpected argument", re.I)


def manual_answers(grounding: Grounding) -> bool:
    """Whether a manual offer fits this moment: no error just met, or an error about how the program was called
    (its options, arguments or usage). At any other error the manual of the program that failed is noise beside
    the error's own help ("python3: an interpreted, interactive… language" for a KeyError)."""
    errors = grounding.of(ERROR, recent_only=True)
    return not errors or any(USAGE_ERROR.search(o.detail or o.text) for o in errors)


def _names(name: str, text: str) -> bool:
    """Whether `text` names the program `name` as a word ('rsync exclude folder' names rsync)."""
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text, re.I) is not None


def failed(command: Obj, grounding: Grounding) -> bool:
    """Whether an error was seen after the command (copied, selected, shown by the terminal, or the shell's
    "command not found"). Of a compound line's commands, the one the error names failed; when it names none,
    the line's last command."""
    errors = [e.detail or e.text for e in grounding.of(ERROR) if e.index >= command.index]
    if not errors:
        return False
    name = program_name(command.text) or ""
    if any(_names(name, e) for e in errors):
        return True
    parts = split_commands(command.detail) if command.detail else [command.text]
    others = {program_name(p) for p in parts} - {name, None}
    return parts[-1] == command.text and not any(_names(o, e) for o in others for e in errors if o)


#: programs that show another program's documentation: `man rsync` looks rsync up
DOC_READERS = frozenset({"man", "info", "tldr", "whatis", "apropos", "help"})


def looked_up(name: str, grounding: Grounding, command: Obj | None = None) -> bool:
    """Whether the person looked the program up: a search or a page that names it, its manual or `--help` read
    in the terminal (another line than `command` itself: `free -h` is not a look at free's help)."""
    for o in grounding.objects:
        if o.kind in (QUERY, PAGE) and _names(name, o.text):
            return True
        if o.kind == COMMAND and o != command:
            words = o.text.split()
            reader = program_name(o.text) in DOC_READERS and name in words[1:]
            # `-h` asks for help only alone (`tar -h`); among other arguments it is an option (`sort -h`, `du -sh`)
            if reader or (program_name(o.text) == name and ("--help" in words or words[1:] == ["-h"])):
                return True
    return False


def command_in_question(command: Obj, grounding: Grounding) -> bool:
    """Whether a command may want an offer about it (its manual, what it does): it failed (`failed`), this
    machine does not know it (`command_lines.known_here`), or the person looked it up (`looked_up`). A command
    on PATH that ran without an error nobody looked up wants nothing (`echo step 4`, `make`); nor, whatever was
    seen, a shell builtin or a command known by heart (`cd`, `ls`, `vim notes.md`): their failures get the
    error's own offers."""
    word, name = program_word(command.text), program_name(command.text)
    if word is None or name is None or name in SHELL_WORDS or name in KNOWN_BY_HEART:
        return False
    return failed(command, grounding) or not known_here(word) or looked_up(name, grounding, command)


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


#: whether the person's history holds an earlier mention of an object (what a history offer would show)
Recalls = Callable[[Obj], bool]


def gives_something(action: Action, objects: tuple[Obj, ...], writes: bool, recalls: Recalls | None) -> bool:
    """Whether Accept would give the person something they do not have on screen. A model that writes gives its
    answer. Without one (the built-in model), an offer of history and a web search gives something only when
    the history holds an earlier mention of its subject, or when the search is one the person has not made:
    searching again for the query they just searched, or finding the page they are reading, gives nothing (such
    offers were most of those shown over the shared sessions, and a person would take none of them).
    `objects`: the action's objects in the order of its `needs`; the subject is the first that is not a chat
    (what help.plan searches and recalls)."""
    if writes or not action.plain:
        return True
    subject = next(o for o in objects if o.kind != CHAT)
    if recalls is not None and recalls(subject):
        return True
    # a search for what the person just searched, the page they read, or the sentence they typed gives nothing
    return SEARCH in action.help and subject.kind not in (QUERY, PAGE, TOPIC)


def origin(page: Obj, grounding: Grounding) -> Obj | None:
    """The search a page was opened from: the latest search the person made before they first came to the page
    (within the grounding's window), if any."""
    if page.kind != PAGE:
        return None
    before = [o for o in grounding.of(QUERY) if offerable(o) and 0 <= o.first <= page.first]
    return max(before, key=lambda o: o.first, default=None)


def _asked_once(recalls: Recalls) -> Recalls:
    """`recalls` asked once per object: several actions share a subject, and each question is a store query."""
    asked: dict[tuple[str, str], bool] = {}

    def once(obj: Obj) -> bool:
        key = (obj.kind, obj.text)
        if key not in asked:
            asked[key] = recalls(obj)
        return asked[key]

    return once


#: offers that summarise a page (from its text, or a model's): fit while the person stays on it
SUMMARIES = ("page_points", "summarise_page", "collect_page")


def on_screen(action: Action, primary: Obj, grounding: Grounding) -> bool:
    """Whether an offer about a page would repeat what the person is looking at: the page is the one the last
    event shows (the annotators of the shared sessions wanted nothing there), except a summary of a page they
    stay on (named by an earlier event too) and do not read for a program (`reads_for_code`). Its code, notes or
    how it applies come once they turn back."""
    return primary.kind == PAGE and primary.index >= grounding.n_events - 1 and not (
        action.id in SUMMARIES and stays_on(primary, grounding) and not reads_for_code(primary, grounding))


#: a sentence of reading on a page: a scroll, a copy or a selection in it (a key pressed there, like Ctrl+L to
#: leave for another address, is not reading it)
READ_ON_PAGE = re.compile(r"\b(?:scroll\w*|cop(?:y|ies|ied)|select\w*|highlight\w*)\b", re.I)


def _head(page: Obj) -> str:
    """The beginning of a page's title as the sentences name its window (the part before " - Site", cut)."""
    return norm(TITLE_SPLIT.split(page.text)[0]).rstrip(".…").strip()[:30]


def _sentences(grounding: Grounding) -> list[str]:
    return [norm(s) for s in re.split(r"(?<=[.!?])\s+(?=The user\b)", grounding.context_text.strip()) if s]


def stays_on(page: Obj, grounding: Grounding) -> bool:
    """Whether the person stays on the page, reading: a sentence of reading (`READ_ON_PAGE`) names it, by the
    beginning of its title (ellipsis or not)."""
    head = _head(page)
    return bool(head) and any(0 < s.find(head) and READ_ON_PAGE.search(s[:s.find(head)]) for s in _sentences(grounding))


def reads_now(page: Obj, grounding: Grounding) -> bool:
    """Whether the person is reading the page at this moment: they stay on it, and it is the last thing done (the
    page is named by the last event, or by the context's last sentence: a scroll in it)."""
    if not stays_on(page, grounding):
        return False
    sentences = _sentences(grounding)
    return page.index >= grounding.n_events - 1 or bool(sentences and _head(page) in sentences[-1])


def reads_for_code(page: Obj, grounding: Grounding) -> bool:
    """Whether the person reads the page for a program of theirs: its title names a language (`query_language`) a
    file of their work is written in. Then a summary of the page is not the help: its code for the file is, once
    they turn to it (the annotators of the shared sessions wanted nothing while a coder read a Q&A thread)."""
    language = query_language(page.text)
    return language is not None and any(file_language(f.text) == language for f in grounding.of(FILE))


def from_pages(action: Action, primary: Obj, secondary: Sequence[Obj | None], material: Source | None,
               parts: dict[str, str], grounding: Grounding) -> bool:
    """For an action whose help is the pages' (code, key points, notes): whether the material can be had, and, when
    the pages are in hand, whether they hold what the offer promises; fills the offer's {examples} and {where}.
    Not about the page the person has just opened (the last event): it is on their screen, and a summary of it
    then repeats it (the annotators of the shared sessions wanted nothing there); its key points once they stay
    on it (named by an earlier event too), its code and notes once they turn to their file or document; nothing
    from the pages opened from a search while the person is reading them (offered once they turn back). Code
    without a file to put it in only for a search that names its language."""
    if POINTS in action.help and grounding.activity in (CODING, WRITING, DEBUGGING):
        return False  # at work in a file or document: a page's summary is beside the point (its code or notes are not)
    if on_screen(action, primary, grounding):
        if material is not None:
            material(primary)  # read while the browser shows it (held for the task): offered once they turn back
        return False
    if primary.kind == PAGE and any(q.index > primary.index for q in grounding.of(QUERY)):
        return False  # the person searched for something else since reading it: they have moved on
    if action.id in SUMMARIES and primary.kind == PAGE and reads_for_code(primary, grounding):
        return False  # read for a program in the page's language: its code, at the file, is the help
    if action.id in SUMMARIES and primary.kind == PAGE and not reads_now(primary, grounding):
        # a page only passed through (opened, then another address), or left for other work (a form, a shell):
        # its key points are wanted while the person reads it; once they turn to their file, its code or notes
        return False
    target = next((o for o in secondary if o is not None and o.kind in (FILE, DOCUMENT)), None)
    if primary.kind == PAGE and target is not None and target.index < grounding.n_events - 1:
        return False  # a page's code or notes for a file or document the person is not at now (offered once they are)
    file = next((o.text for o in secondary if o is not None and o.kind == FILE), None)
    if CODE in action.help and file is None and query_language(primary.text) is None:
        return False
    found = material(primary) if material is not None else None
    if found is None:
        return False
    if grounding.activity == READING and primary.kind == QUERY and found.where != "the top results":
        return False  # help from the pages the person is reading now: offered once they turn back
    parts["where"] = found.where
    if CODE in action.help:
        if not found.known:
            parts["examples"] = "code examples"
            return True
        n = len(code_examples(found.pages, primary.text if primary.kind == QUERY else found.query or primary.text,
                              file))
        parts["examples"] = "the code example" if n == 1 else f"the {n} code examples"
        return n > 0
    return not found.known or any(key_points(p, 1) for p in found.pages)


def _specific(action: Action, primary: Obj, secondary: list[Obj | None], grounding: Grounding,
              material: Source | None, parts: dict[str, str]) -> tuple[bool, Diagnosis | None]:
    """Whether the action's own condition holds, and what it found, its texts' parts filled in: a page help needs
    pages with something to give, an offer about the page on screen would repeat it, an error's fix needs a known
    next step, a manual needs to answer the moment."""
    if set(action.help) & set(PAGE_HELP):
        return from_pages(action, primary, secondary, material, parts, grounding), None
    if on_screen(action, primary, grounding):
        return False, None  # about the page on their screen: it repeats it (whatever the help)
    if primary.kind == COMMAND and not command_in_question(primary, grounding):
        return False, None
    if action.id == "fix_error":
        found = diagnose(situation(primary, grounding))
        if found is not None:
            parts["offer"] = found.offer
        return found is not None, found
    if action.id == "command_docs":
        doc = manual(primary.text)
        if doc is None or not manual_answers(grounding):
            return False, None
        parts["program"], parts["doc"] = doc
    return True, None


def _candidate(action: Action, primary: Obj, prior: float, grounding: Grounding, writes: bool,
               recalls: Recalls | None, material: Source | None) -> Candidate | None:
    """The action's offer about `primary`, or None: where the help goes is the latest object of each other kind
    it needs that suits the primary one (none: no offer), and the offer must give something and pass the
    action's own condition (`_specific`)."""
    primary_kind, *others = action.needs
    found_others = [next((o for o in grounding.of(kind) if offerable(o) and fits(primary, o)), None)
                    for kind in others]
    secondary = [o for o in found_others if o is not None]
    if len(secondary) < len(found_others):
        return None
    if not gives_something(action, (primary, *secondary), writes, recalls):
        return None
    parts = {primary_kind: short(primary), **{o.kind: short(o) for o in secondary}}
    offered, found = _specific(action, primary, list(found_others), grounding, material, parts)
    if not offered:
        return None
    message = action.plain if action.plain and not writes else action.message
    came_from = origin(primary, grounding)
    return Candidate(action.id, (primary, *secondary), action.task.format(**parts), message.format(**parts),
                     round(prior, 4), found, short(came_from) if came_from is not None else "")


def build(grounding: Grounding, limit: int = 6, writes: bool = True,
          recalls: Recalls | None = None, material: Source | None = None) -> list[Candidate]:
    """Grounded candidates for this moment, best-fitting first; at most `limit`. `writes`: the model can write
    what the messages promise (an explanation, a draft); without it (the built-in model) each offer says only
    what Accept gives without the model's text, an error with a known next step is offered that step, and an
    offer that would give nothing new is left out (`gives_something`; `recalls`: the history check, None when
    there is no history to read, as in replay). `material`: the pages that can be read for an object
    (assistant/material.py); without it no offer is made from pages."""
    recalls = _asked_once(recalls) if recalls is not None else None
    order = FIT.get(grounding.activity, ()) + tuple(a.id for a in ACTIONS if a.id not in FIT.get(
        grounding.activity, ()))
    out: list[Candidate] = []
    seen: set[str] = set()
    met: dict[Obj, Obj] = {}  # each error object as quoted (`as_met`), worked out once
    for rank, action_id in enumerate(order):
        action = BY_ID[action_id]
        primaries = [o for o in grounding.of(action.needs[0], recent_only=True) if offerable(o)][:2]
        if action.needs[0] == ERROR:
            for o in primaries:
                if o not in met:
                    met[o] = as_met(o, grounding)
            primaries = [met[o] for o in primaries]
        for primary in primaries:
            if primary is not primaries[0] and primary.kind == PAGE and set(action.help) & set(PAGE_HELP):
                continue  # a page read before the latest one: the person has moved on from it
            prior = round(1.0 - rank / max(1, len(order)), 4) - (0.05 if primary is not primaries[0] else 0.0)
            candidate = _candidate(action, primary, prior, grounding, writes, recalls, material)
            if candidate is None or candidate.task.lower() in seen:
                continue
            seen.add(candidate.task.lower())
            out.append(candidate)
    if any(c.action == "fix_error" for c in out):
        # a known next step for the error the command printed: "how to fix its output" offers the same failure
        # without it, and a model that ranks it first hides the step (offers at an error are about it)
        out = [c for c in out if c.action != "explain_command"]
    out.sort(key=lambda c: -c.prior)
    return out[:limit]
