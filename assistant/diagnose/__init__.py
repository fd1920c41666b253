"""Specific next steps for the errors developers meet most, from facts on this machine, without a model.

An accepted offer about an error should give what the offer says: what went wrong (quoting the message) and a
specific next step (the package to install, the close name on PATH, the process holding the port, the command
that resolves a rejected push), not a web search. Each family of errors is a module here that registers its
diagnosers with `@diagnoser`; `diagnose(situation)` asks them in order and the first answer wins.

Two kinds of knowledge, kept apart:
- rules as data (`rules/*.toml`, loaded by `rules.py`): a message pattern and the steps it calls for, each rule
  with its own example messages, checked by the tests (`tests/test_diagnose.py`);
- facts looked up at accept time (a Python function each): the distributions installed (`importlib.metadata`),
  the commands on PATH, Debian's command-not-found database, the process holding a port, `git status`.

A diagnoser never raises (a failure is logged and counts as no answer) and never uses the network.
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

log = logging.getLogger(__name__)

#: the family modules, asked in this order (each registers its diagnosers when imported)
#: the rule of the last family: a step the message states in its own words, when no rule knows the error
OWN_WORDS = "tool.own_words"
FAMILIES: tuple[str, ...] = ("python_errors", "packages", "ecosystems", "shell_errors", "shell_files", "git_errors",
                             "own_words")


@dataclass(frozen=True)
class Step:
    """One next step: a plain sentence, and the command to run when there is one (the result window gives it
    a copy button)."""

    text: str
    command: str | None = None
    #: what `command` is written in: "shell" (a command line to run: "Copy command", shown after "$") or the
    #: language of a line for the person's code ("python": "Copy code"), so a Python line is never offered as a
    #: shell command (in a shell, `import numpy` runs ImageMagick's import)
    language: str = "shell"

    @property
    def copy_label(self) -> str:
        return "Copy command" if self.language == "shell" else "Copy code"

    def shown(self) -> str:
        """The command as the help text shows it: after "$" when it is one to run, else as a line of code."""
        if not self.command:
            return ""
        return f"$ {self.command}" if self.language == "shell" else f"{self.command}    ({self.language})"


@dataclass(frozen=True)
class Situation:
    """What the person met: the error's text as they saw it (a whole traceback or just its last line) and, when
    known, the command line that produced it, the file they work on and the working directory."""

    error: str
    command: str | None = None
    file: str | None = None
    cwd: str | None = None


@dataclass(frozen=True)
class Diagnosis:
    """What went wrong and what to do next. `offer` is what the popup promises Accept will give (it must be
    what `steps` deliver); `source` names the facts used ("installed distributions", "the rule for PEP 668")."""

    rule: str  # e.g. "python.module_not_found"
    problem: str  # one sentence, quoting the message: "Python cannot find the module 'numpyy'."
    steps: tuple[Step, ...]  # best first; at least one
    offer: str  # e.g. "the install command for 'numpy'"
    source: str = ""
    details: dict[str, str] = field(default_factory=dict)  # facts found (the close match, the port's holder)


Diagnoser = Callable[[Situation], "Diagnosis | None"]
_DIAGNOSERS: list[tuple[str, Diagnoser]] = []
_loaded = False


def diagnoser(fn: Diagnoser) -> Diagnoser:
    """Register a diagnoser (a family module's function), asked in registration order."""
    _DIAGNOSERS.append((f"{fn.__module__}.{fn.__qualname__}", fn))
    return fn


def diagnosers() -> list[tuple[str, Diagnoser]]:
    """The registered diagnosers, the family modules imported first; asked in FAMILIES' order whichever module
    was imported first (the most specific family first: a Python PermissionError is Python's, not the shell's)."""
    global _loaded
    if not _loaded:
        _loaded = True
        for name in FAMILIES:
            importlib.import_module(f"{__name__}.{name}")

    def family(entry: tuple[str, Diagnoser]) -> int:
        module = entry[1].__module__.rsplit(".", 1)[-1]
        return FAMILIES.index(module) if module in FAMILIES else len(FAMILIES)

    return sorted(_DIAGNOSERS, key=family)  # stable: registration order within a family


def warm() -> None:
    """Do the slow lookups now (the installed distributions, the rule files), so the first offer about an error
    is not late: each family module may define `warm()`. Called once from the assistant's thread at start."""
    diagnosers()
    for name in FAMILIES:
        hook = getattr(importlib.import_module(f"{__name__}.{name}"), "warm", None)
        if hook is not None:
            try:
                hook()
            except Exception:  # noqa: BLE001 - a failed warm-up only costs time later
                log.exception("warming diagnoser family %s failed", name)


TYPOGRAPHIC_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
SWAPPED_QUOTES = str.maketrans({"'": '"', '"': "'"})


#: where a message starts inside a line that something put words before it on (a relay's '[test:5] ', a label
#: 'failed: ' or 'evidence: ', a chat's 'night_chen: ', a host and a program, an opening quote mark): an exception's
#: name, an error's word and colon, npm's and a shell's own start, a compiler's place
MESSAGE_INSIDE = re.compile(r"(?<![\w.$/-])(?:[A-Za-z_][\w.]*(?:Error|Exception)(?: \[[A-Z][A-Z\d_]+\])?: |"
                            r"(?:error|fatal|ERROR|FATAL|Error)(?:\[\w+\])?: |npm (?:ERR!|error) |(?:ba|z|da)?sh: |"
                            r"Traceback \(most recent call last\)|"
                            # a compiler's or checker's place and message ('./main.go:14:23: undefined: x')
                            r"(?:\.{1,2}/)?[\w/-]+(?:\.[\w-]+)*\.[A-Za-z]\w*:\d+:\d+: \S)")
#: a quote mark opened before a message, and the one that closes it
QUOTE_PAIRS = {"«": "»", "「": "」", "'": "'", '"': '"', "`": "`", "(": ")", "[": "]"}


def without_lead(error: str) -> str:
    """The message without what was put before it on its lines (a log's, a chat's or a label's words), and
    without the quote mark around it: 'failed: ModuleNotFoundError: …', '[deploy:5] ImportError: …',
    'error: «bash: ./deploy.sh: Permission denied». Further…'. Each line is cut where its message starts."""
    lines = []
    for line in error.split("\n"):
        start = MESSAGE_INSIDE.search(line, 1)
        if start is not None and (line[:start.start()].strip() or line[:1] in QUOTE_PAIRS) \
                and not re.search(r"[\w./-]+:\d+(?::\d+)?:\s*$", line[:start.start()]):  # a file's place is its
            before = line[:start.start()].rstrip()
            line = line[start.start():]
            closer = QUOTE_PAIRS.get(before[-1:]) if before else None
            if closer and closer in line[1:]:
                line = line[:line.rindex(closer) if closer in "»」" else line.index(closer, 1)]
        lines.append(line)
    return "\n".join(lines)


def diagnose(situation: Situation, relayed: bool = True) -> Diagnosis | None:
    """The first diagnosis any family gives for this situation, or None when no specific step is known (with
    `relayed`, also for the message without words put before it on its line: `without_lead`)."""
    if not situation.error.strip():
        return None
    # gcc, coreutils and others quote with ‘ ’ in a UTF-8 locale and ' elsewhere: the rules read one kind
    situation = replace(situation, error=situation.error.translate(TYPOGRAPHIC_QUOTES))
    found = _first(situation)
    if found is None and relayed and (bare := without_lead(situation.error)) != situation.error:
        # a message relayed with words before it on its line (a CI runner's '[test:5] ', a tracker's 'failed: ')
        situation = replace(situation, error=bare)
        found = _first(situation)
    error = situation.error
    if found is None and ("'" in error) != ('"' in error):
        # a message retyped or read aloud has lost which quote mark the program printed ('(not 'int')' for
        # Python's '(not "int")'): with one kind of mark only, the other kind is tried too
        found = _first(replace(situation, error=error.translate(SWAPPED_QUOTES)))
    if found is None and error == error.lower() and re.search(r"[a-z]{3}", error):
        # a message without one capital letter was lowercased on its way (a caption model's, a person's notes:
        # 'fatal: authentication failed for …'): the rules as data read it ignoring case
        from .rules import ignoring_case

        with ignoring_case():
            found = _first(situation)
    return found


def _first(situation: Situation) -> Diagnosis | None:
    """The first diagnosis any family gives for `situation` as it is."""
    for name, fn in diagnosers():
        try:
            found = fn(situation)
        except Exception:  # noqa: BLE001 - one broken diagnoser never stops help: logged, counted as no answer
            log.exception("diagnoser %s failed", name)
            continue
        if found is not None and found.steps:
            return found
    return None
