"""Rules as data: `rules/<family>.toml`, one `[[rule]]` table each, read once.

A rule is a message pattern (a Python regular expression, searched in the error's text, its named groups
usable in the texts as `{name}`; a group named with a digit at the end, `port2`, is `{port}` too, for patterns with
several alternatives) and what it calls for:

    [[rule]]
    id = "pip.externally_managed"
    pattern = "error: externally-managed-environment"
    problem = "pip refuses to install into the system Python (PEP 668)."
    offer = "the commands to install into a virtual environment instead"
    steps = [
      { text = "Create a virtual environment and install there.", command = "python3 -m venv .venv && . .venv/bin/activate" },
    ]
    examples = ["error: externally-managed-environment\\n\\n× This environment is externally managed"]

`examples` are real messages the rule must match (the tests check each, and that no other rule of the family
matches first); `not_examples` are messages it must not match.

A step whose command is a line of the person's code names its language (`language = "rust"`), so it is offered
as code to copy, never as a shell command. A rule may give fixed `values` (`values = { vocabulary = "npm" }`, read
by a fact). Where the answer depends on
this machine, a rule names `facts` (functions in `facts.py`, read at accept time:
the package shipping a header, a key file's mode, the docker group, the kube config) whose values fill the texts
like the pattern's groups, and `[[rule.variant]]` tables choose other texts by a value (`if = "in_group=no"`,
or `if = "contexts"`: the value is known and not empty); the first variant that holds wins, else the rule's own.
`when` is such a condition for the whole rule: a misspelt name is only a misspelling when a fact finds the name
meant (`when = "close"`), else the message is left to the next rule. Why our own small format rather than a library's:
the rule sets that exist (thefuck's) are code that rewrites the last command, not data with messages and steps.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from . import Diagnosis, Situation, Step


class RuleError(ValueError):
    """A rule file that cannot be used: names the file, the rule and what to fix."""


#: whether the rules read the text ignoring case (`ignoring_case`): for a message that was lowercased on its way
_IGNORE_CASE: ContextVar[bool] = ContextVar("ignore_case", default=False)


@contextmanager
def ignoring_case() -> Iterator[None]:
    """Within it, every rule matches its pattern ignoring case."""
    token = _IGNORE_CASE.set(True)
    try:
        yield
    finally:
        _IGNORE_CASE.reset(token)


@cache
def _folded(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`pattern` ignoring case (compiled once per rule)."""
    return re.compile(pattern.pattern, pattern.flags | re.IGNORECASE)


@dataclass(frozen=True)
class Rule:
    id: str
    pattern: re.Pattern[str]
    problem: str
    offer: str
    steps: tuple[tuple[str, str | None, str], ...]  # (text, command, the command's language)
    examples: tuple[str, ...]
    not_examples: tuple[str, ...]
    source: str
    facts: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = ()
    values: tuple[tuple[str, str], ...] = ()  # the rule's own values ("vocabulary": the list a fact looks in)
    when: str = ""  # a condition on the values (as a variant's `if`) without which the rule does not match

    def match(self, situation: Situation) -> Diagnosis | None:
        """The diagnosis when the pattern is found in the error's text, its groups and facts filled into the texts."""
        pattern = _folded(self.pattern) if _IGNORE_CASE.get() else self.pattern
        found = pattern.search(situation.error)
        if found is None:
            return None
        values = {k: v for k, v in found.groupdict().items() if v is not None}
        values.setdefault("file", situation.file or "your file")
        values.update(self.values)
        values.update({k: "" for k, v in found.groupdict().items() if v is None and k not in values})
        for name, value in list(values.items()):  # Python's re names a group once: 'port2' in another
            base = name.rstrip("0123456789")     # alternative of the pattern is 'port' too
            if base != name and value and not values.get(base):
                values[base] = value
        if self.facts:
            from .fact_registry import read

            values = read(self.facts, values, situation)
        if self.when and not Variant(self.when, None, None, ()).holds(values):
            return None  # what makes the rule true was not found: the next rule may know better
        texts = next((v for v in self.variants if v.holds(values)), None)
        problem = texts.problem if texts and texts.problem else self.problem
        offer = texts.offer if texts and texts.offer else self.offer
        steps = texts.steps if texts and texts.steps else self.steps

        def fill(text: str) -> str:
            return text.format_map(_Missing(values))

        return Diagnosis(self.id, fill(problem), tuple(Step(fill(t), fill(c) if c else None, lang)
                                                       for t, c, lang in steps),
                         fill(offer), self.source, dict(values))


@dataclass(frozen=True)
class Variant:
    """Other texts for a rule, used when a value holds: `if = "name"` (known, not empty, not "no") or
    `if = "name=value"` (equal); `if = "!name"` holds when the value is unknown, empty or "no"."""

    condition: str
    problem: str | None
    offer: str | None
    steps: tuple[tuple[str, str | None, str], ...]

    def holds(self, values: dict[str, str]) -> bool:
        name, equals, wanted = self.condition.lstrip("!").partition("=")
        value = values.get(name.strip(), "")
        held = value == wanted.strip() if equals else value not in ("", "no")
        return not held if self.condition.startswith("!") else held


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@cache
def load(family: str) -> tuple[Rule, ...]:
    """The rules of `rules/<family>.toml`, checked: a bad file raises RuleError naming it and the rule."""
    name = f"{family}.toml"
    text = resources.files(__package__).joinpath("rules", name).read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"rules/{name}: {exc}") from exc
    rules: list[Rule] = []
    for i, raw in enumerate(data.get("rule", [])):
        rules.append(_rule(raw, f"rules/{name}, rule {i + 1}"))
    return tuple(rules)


VARIANT_KEYS = {"if", "problem", "offer", "steps"}


def _rule(raw: dict[str, Any], where: str) -> Rule:
    try:
        pattern = re.compile(raw["pattern"], re.M)
        steps = _steps(raw["steps"])
        if not steps:
            raise KeyError("steps")
        facts = tuple(raw.get("facts", ()))
        if facts:
            from . import code_facts as _code, facts as _machine  # noqa: F401 - loaded: their facts register
            from .fact_registry import FACTS

            unknown = [name for name in facts if name not in FACTS]
            if unknown:
                raise RuleError(f"{where}: unknown fact {unknown[0]!r} (known: {', '.join(sorted(FACTS))})")
        for v in raw.get("variant", ()):
            unknown = sorted(set(v) - VARIANT_KEYS)
            if unknown:  # a rule's `examples` written after its variant end up in the variant: refused, not lost
                raise RuleError(f"{where}: a [[rule.variant]] cannot have {unknown[0]!r} (only {sorted(VARIANT_KEYS)}): "
                                "put it before the rule's first variant")
        variants = tuple(Variant(v["if"], v.get("problem"), v.get("offer"), _steps(v.get("steps", ())))
                         for v in raw.get("variant", ()))
        for text in (raw["problem"], raw["offer"], *(t for s in (steps, *(v.steps for v in variants)) for x in s
                                                     for t in x if t), *(v.problem or "" for v in variants)):
            list(string.Formatter().parse(text))  # a lone "{" or "}" is refused here, not at the first error
        return Rule(raw["id"], pattern, raw["problem"], raw["offer"], steps, tuple(raw.get("examples", ())),
                    tuple(raw.get("not_examples", ())), raw.get("source", f"the rule {raw['id']}"), facts, variants,
                    tuple((str(k), str(v)) for k, v in raw.get("values", {}).items()), raw.get("when", ""))
    except RuleError:
        raise
    except KeyError as exc:
        raise RuleError(f"{where}: missing {exc.args[0]!r}") from exc
    except (re.error, TypeError, ValueError) as exc:
        raise RuleError(f"{where}: {exc}") from exc


def _steps(raw: Any) -> tuple[tuple[str, str | None, str], ...]:
    """Each step's text, command and what the command is written in (`language = "rust"` for a line of the
    person's code, which is offered to copy as code, never run as a shell command; a shell command by default)."""
    return tuple((s["text"], s.get("command"), s.get("language", "shell")) for s in raw)


def match(family: str, situation: Situation) -> Diagnosis | None:
    """The first rule of `family` that matches."""
    for rule in load(family):
        found = rule.match(situation)
        if found is not None:
            return found
    return None
