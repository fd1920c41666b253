"""Counts in words a person reads ("1 row", "2 rows"), written once: "1 thing(s)" reads as a program's shortcut."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """`count` and `word`, or its plural (`many`, else `word` + "s") unless `count` is 1."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
