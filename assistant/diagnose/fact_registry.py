"""The registry of facts (`@fact`), filled by the modules that read them: this machine's (`facts.py`) and the
person's code and data (`code_facts.py`); `read` fills a rule's values from the facts it names. Its own module so
that both fact modules depend on it and not on each other."""

from __future__ import annotations

import logging
import shlex
import tomllib
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from . import Situation

log = logging.getLogger(__name__)

Fact = Callable[[dict[str, str], Situation], dict[str, str]]
FACTS: dict[str, Fact] = {}


def fact(fn: Fact) -> Fact:
    """Register a fact under its function's name (the name rules use)."""
    FACTS[fn.__name__] = fn
    return fn


def read(names: tuple[str, ...], values: dict[str, str], situation: Situation) -> dict[str, str]:
    """`values` with each named fact's values added (a fact's failure is logged and adds nothing)."""
    out = dict(values)
    for name in names:
        try:
            out.update({k: v for k, v in FACTS[name](out, situation).items() if v is not None})
        except Exception:  # noqa: BLE001 - an unreadable fact leaves the rule's plain texts
            log.exception("fact %s failed", name)
    return out


@cache
def _table(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("rules", f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _words(command: str) -> list[str]:
    """A command line's words as the shell splits them (a quoted SQL statement is one word), after sudo, env,
    time, nohup and variable assignments, and past a change of folder chained before it ('cd app && npm install':
    the folder is where npm runs, npm is what failed); split at spaces when its quotes do not close (a line cut
    short)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    while len(words) > 2 and words[0] in ("cd", "pushd") and (words[1].endswith(";") or words[2] in ("&&", ";")):
        words = words[2:] if words[1].endswith(";") else words[3:]
    while words and words[0] in ("sudo", "env", "time", "nohup") or words and "=" in words[0]:
        words = words[1:]
    return words
