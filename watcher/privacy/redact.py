"""Secret redaction for every piece of captured text.

Why this exists: the assistant records what the user types and copies, window titles and URLs. Anything secret that
slips through would be written to the database and from there could reach logs, exports for annotators and LLM
prompts. So every captured string goes through `redact()` *before* it is stored, and each secret is replaced by a
`[REDACTED:<kind>]` marker: the kind keeps enough context for the episode builder and the agent ("the user pasted an
API key") without keeping a single byte of the secret.

Design choices:

* The rules are one readable table (`RULES`): a kind, a compiled regex and an optional validator that rejects look-alikes
  (Luhn for card numbers, entropy for generic tokens, placeholders such as `password: str`). If a pattern has a
  group named `secret`, only that group is replaced, so `password = hunter2` keeps its key and becomes
  `password = [REDACTED:password]`; otherwise the whole match is replaced.
* When in doubt we fail closed: a private key without its END line is redacted to the end of the text, overlapping
  matches are merged into one span, and an unquoted assignment value is taken up to the next whitespace.
* Every pattern is linear (no nested unbounded repetition, bounded key prefixes, lookbehinds so a run is tried once)
  and most rules have a cheap substring pre-check (`Rule.hints`), so ordinary text costs a few microseconds.
* `redact()` is idempotent: markers are never matched again (values that are a marker are skipped and spans
  inside existing markers are dropped).
* Beside our own table, the maintained rule set of gitleaks (MIT; `watcher/privacy/rules/gitleaks.toml`, loaded by
  `redact_gitleaks.imported_rules()`) covers some 200 vendors' token formats. Its Go (RE2) patterns are translated to Python's
  syntax where there is an exact equivalent, its keywords, entropy thresholds and allowlists are applied as gitleaks
  applies them, and the rules that are left out (`GITLEAKS_EXCLUDED`: false positives on ordinary text, or
  backtracking that Python's engine cannot bound) or cannot be translated are listed with the reason
  (`skipped_rules()`). Two changes, for prose and for Python's engine: a token may also end at a full stop, comma or
  colon (`_PROSE_SUFFIX`), and the lazy identifier prefix before a keyword is dropped (`_without_identifier_prefix`;
  same secrets found). One keyword scan over the text picks the rules worth running, ours and gitleaks' alike.

What is deliberately *not* redacted (to keep the captured context useful): hex strings up to 63 digits such as git
SHAs (64 and more are keys: `proactive key export` prints one), UUIDs,
words, CamelCase identifiers, file paths, numbers that fail the Luhn check (phone numbers, dates, order ids), and
random-looking strings shorter than 24 characters unless a rule recognises their prefix or the name they are assigned to.

The rules are in `redact_rules.py` (ours) and `redact_gitleaks.py` (gitleaks' import); this module is the engine:
one keyword scan picks the rules worth running, then spans are found, merged and replaced.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from proactive.watcher.privacy.redact_gitleaks import imported_rules, skipped_rules
from proactive.watcher.privacy.redact_rules import RULES, Rule
from proactive.watcher.privacy.secret_checks import SECRET_PREFIXES, secret_rest, secret_start

__all__ = ["RULES", "SECRET_PREFIXES", "Rule", "contains_secret", "find_secrets", "imported_rules", "redact",
           "secret_rest", "secret_start", "skipped_rules"]

# --- choosing the rules worth running: one scan for every rule's keywords ------------------------------------------


def _keyword_trie(words: set[str]) -> str:
    """A regex matching any of `words`, factored as a trie so the engine tries one branch per character."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = "(?:" + "|".join(branches) + ")"
        return body + "?" if "" in node else body

    return build(trie)


@dataclass(frozen=True)
class _RuleIndex:
    rules: tuple[Rule, ...]  # ours, then gitleaks'
    keywords: re.Pattern[str]  # finds every keyword occurrence (overlapping: a lookahead at each position)
    by_keyword: dict[str, tuple[int, ...]]  # keyword (and every keyword it starts with) -> rule indexes
    always: tuple[int, ...]  # rules without keywords


@functools.cache
def _rule_index() -> _RuleIndex:
    rules = (*RULES, *imported_rules())
    words = {h for rule in rules for h in rule.hints}
    by_word: dict[str, list[int]] = {}
    for i, rule in enumerate(rules):
        for h in rule.hints:
            by_word.setdefault(h, []).append(i)
    # the trie match is the longest keyword at a position: it also stands for the keywords it starts with
    by_keyword = {w: tuple(sorted({i for v in words if w.startswith(v) for i in by_word[v]})) for w in words}
    return _RuleIndex(rules, re.compile(f"(?=({_keyword_trie(words)}))"), by_keyword,
                      tuple(i for i, rule in enumerate(rules) if not rule.hints))


def prepare() -> None:
    """Parse and compile the rules now (gitleaks' table and the keyword index: a few hundred milliseconds, more on
    a busy machine). Why: built at the first text redacted, they held up the events after it, so a terminal's first
    line after the watcher started had its keys handled late and was hidden as unseen (fail closed)."""
    _rule_index()


def _rules_for(text: str) -> list[tuple[int, Rule]]:
    """(priority, rule) for the rules whose keywords occur in `text` (and those without keywords), in order."""
    index = _rule_index()
    chosen = set(index.always)
    for word in {m.group(1) for m in index.keywords.finditer(text.lower())}:
        chosen.update(index.by_keyword[word])
    return [(i, index.rules[i]) for i in sorted(chosen)]


_MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def find_secrets(text: str) -> list[tuple[str, int, int]]:
    """All secrets in `text` as sorted, non-overlapping `(kind, start, end)` spans.

    Overlapping matches are merged into one span so no part of a secret survives; the label comes from the match that
    starts first (then the longest, then the earlier rule in `RULES`).
    """
    if not text:
        return []
    found: list[tuple[int, int, int, str]] = []
    for priority, rule in _rules_for(text):
        for start, end in rule.spans(text):
            found.append((start, end, priority, rule.kind))
    if not found:
        return []
    if "[REDACTED:" in text:  # already-redacted text: never redact a marker again
        markers = [m.span() for m in _MARKER.finditer(text)]
        starts = [ms for ms, _me in markers]

        def inside_marker(start: int, end: int) -> bool:
            i = bisect_right(starts, start) - 1
            return i >= 0 and end <= markers[i][1]

        found = [f for f in found if not inside_marker(f[0], f[1])]
    found.sort(key=lambda f: (f[0], f[0] - f[1], f[2]))
    merged: list[list] = []
    for start, end, _priority, kind in found:
        if merged and start < merged[-1][2]:
            merged[-1][2] = max(merged[-1][2], end)
        else:
            merged.append([kind, start, end])
    return [(kind, start, end) for kind, start, end in merged]


def contains_secret(text: str) -> bool:
    """True if `redact(text)` would change anything."""
    return bool(find_secrets(text))


def redact(text: str) -> str:
    """`text` with every secret replaced by `[REDACTED:<kind>]`. Deterministic and idempotent."""
    spans = find_secrets(text)
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for kind, start, end in spans:
        out.append(text[pos:start])
        out.append(f"[REDACTED:{kind}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)
