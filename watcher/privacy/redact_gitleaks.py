"""The maintained rule set of gitleaks (MIT; `watcher/privacy/rules/gitleaks.toml`, refreshed by
`tools/update_gitleaks.py`) as our `Rule`s: its Go (RE2) patterns translated to Python's syntax where there is an
exact equivalent, its keywords, entropy thresholds and allowlists applied as gitleaks applies them, and the rules
left out listed with the reason (`skipped_rules()`). See `redact.py` for how they run beside our own."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proactive.watcher.privacy.redact_rules import Rule
from proactive.watcher.privacy.secret_checks import shannon_entropy

# --- rules imported from gitleaks ----------------------------------------------------------------------------------

GITLEAKS_FILE = Path(__file__).with_name("rules") / "gitleaks.toml"

#: gitleaks rules deliberately left out, and why. Each was checked on generated ordinary text (words, numbers, hex
#: hashes, UUIDs, times) and on 100 KB of its own keywords; the rest of the set passes both.
GITLEAKS_EXCLUDED: dict[str, str] = {
    "generic-api-key": "its keywords are everyday words (key, token, auth, password, ...) and it takes any 10+ "
                       "character value after them: ordinary text and code lose words; our `password` rules and "
                       "`high-entropy` cover assignments with placeholder and code checks",
    "sourcegraph-access-token": "one of its branches is any 40-character hex string, so every git SHA in a text "
                                "that mentions Sourcegraph would go",
    "linear-client-secret": "its keyword is the everyday word 'linear' and its secret any 32-character hex string "
                            "(an MD5 hash)",
    "curl-auth-user": "nested `.*` repetitions backtrack without bound in Python's engine (RE2 is linear): 30 s on "
                      "100 KB of 'curl -u'; our command-line rules redact `curl -u user:password`",
    "curl-auth-header": "nested `.*` repetitions backtrack without bound in Python's engine; our `authorization` "
                        "and `bearer-token` rules redact the header's credentials",
}

#: RE2's ASCII character classes, as the contents of a Python character class
_POSIX_CLASSES = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7f", "blank": "\\t ",
                  "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~",
                  "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\v\\f\\r ", "upper": "A-Z", "word": "0-9A-Za-z_",
                  "xdigit": "0-9A-Fa-f"}
_GO_FLAGS = re.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]+))?\)")
#: the identifier prefix gitleaks' generator puts before a keyword (`GenerateSemiGenericRegex`)
_IDENTIFIER_PREFIX = r"[\w.-]{0,50}?"


def _regex_tokens(pattern: str) -> Iterator[tuple[int, str, bool]]:
    """(index, token, inside a character class) for each character or escape of a regex."""
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            yield i, pattern[i : i + 2], in_class
            i += 2
        elif in_class and pattern.startswith("[:", i) and ":]" in pattern[i + 2 :]:
            end = pattern.index(":]", i + 2) + 2  # a POSIX class such as [:alnum:]
            yield i, pattern[i:end], True
            i = end
        elif in_class:
            in_class = c != "]"
            yield i, c, True
            i += 1
        elif c == "[":
            yield i, c, False
            in_class, i = True, i + 1
            if pattern.startswith("^", i):
                yield i, "^", True
                i += 1
            if pattern.startswith("]", i):  # a `]` first in a class is a literal
                yield i, "]", True
                i += 1
        else:
            yield i, c, False
            i += 1


def go_regex(pattern: str) -> str:
    """A Go (RE2) pattern in Python's syntax. Raises ValueError where Python has no exact equivalent.

    - `\\z` (end of text) is Python's `\\Z`;
    - a flag group such as `(?i)` after the start applies, in Go, to the rest of its enclosing group: it becomes a
      scoped group `(?i:...)` around that rest (or is dropped when the whole pattern already has the flag); when
      the rest holds an alternation Go applies the flag to every later branch, which a scoped group cannot say;
    - a POSIX class inside a character class (`[[:alnum:]]`) is spelt out, and any other `[` inside a class is
      escaped (Python reserves `[[` for nested sets).
    Compile the result with re.ASCII: RE2's `\\w`, `\\d`, `\\s` and `\\b` are ASCII-only."""
    pattern = re.sub(r"(?<!\\)((?:\\\\)*)\\z", r"\1\\Z", pattern)
    return _spelt_classes(_scoped_flags(pattern))


def _scoped_flags(pattern: str) -> str:
    """Each inline flag group after the start as a scoped group over the rest of its enclosing group (or dropped
    when the leading flags already set it)."""
    while True:
        flag = next((m for i, tok, in_class in _regex_tokens(pattern) if tok == "(" and not in_class and i > 0
                     for m in [_GO_FLAGS.match(pattern, i)] if m), None)
        if flag is None:
            return pattern
        on, off = flag.group(1), flag.group(2) or ""
        leading = _GO_FLAGS.match(pattern)
        if leading and not off and set(on) <= set(leading.group(1)):
            pattern = pattern[: flag.start()] + pattern[flag.end():]
            continue
        end = _group_end(pattern, flag)
        scoped = on + ("-" + off if off else "")
        pattern = f"{pattern[: flag.start()]}(?{scoped}:{pattern[flag.end() : end]}){pattern[end:]}"


def _group_end(pattern: str, flag: re.Match[str]) -> int:
    """Where the group enclosing the flag ends (the pattern's end at the top level); ValueError when an
    alternation follows the flag in that group, which Go applies the flag to and a scoped group cannot say."""
    depth = 0
    for i, tok, in_class in _regex_tokens(pattern):
        if i < flag.end() or in_class or tok.startswith("\\"):
            continue
        if tok == "(":
            depth += 1
        elif tok == ")":
            if depth == 0:
                return i
            depth -= 1
        elif tok == "|" and depth == 0:
            raise ValueError(f"the inline flag {flag.group()} before an alternation applies to every later "
                             "branch in Go; Python has no exact form")
    return len(pattern)


def _spelt_classes(pattern: str) -> str:
    """POSIX classes inside a character class spelt out, and any other `[` inside a class escaped."""
    out = []
    for _i, tok, in_class in _regex_tokens(pattern):
        if in_class and tok.startswith("[:"):
            if tok[2:-2] not in _POSIX_CLASSES:
                raise ValueError(f"the character class {tok} has no Python form")
            tok = _POSIX_CLASSES[tok[2:-2]]
        out.append("\\[" if in_class and tok == "[" else tok)
    return "".join(out)


def _without_identifier_prefix(pattern: str) -> str:
    """Drop the lazy `[\\w.-]{0,50}?` before a keyword (also inside a leading `(?i)` or `(?i:`): it can match
    nothing and we redact only the secret group, so the secrets found are the same, and Python's backtracking
    engine would otherwise try up to 50 x 50 starts at every position of a text that holds the keyword."""
    changed = True
    while changed:
        changed = False
        for head in ("", "(?i)"):
            for opener in ("", "(?i:"):
                if pattern.startswith(head + opener + _IDENTIFIER_PREFIX):
                    pattern = head + opener + pattern[len(head + opener + _IDENTIFIER_PREFIX):]
                    changed = True
    return pattern


#: gitleaks' end of a secret (`secretSuffix` in its generator): a quote, space, `;`, an escaped newline or the end.
#: In captured prose a token is as often followed by a full stop or a comma ("my key is X."), so ours also takes
#: `.`, `,`, `:`, `!`, `?` and `)` when a space or the end follows.
_SECRET_SUFFIX = "(?:[\\x60'\"\\s;]|\\\\[nr]|$)"
_PROSE_SUFFIX = "(?:[\\x60'\"\\s;]|\\\\[nr]|$|[.,:!?)](?=\\s|$))"


def _compile_go(pattern: str) -> re.Pattern[str]:
    return re.compile(go_regex(pattern), re.ASCII)


@dataclass(frozen=True)
class _Allowlist:
    """A gitleaks allowlist: a finding is allowed (not a secret) when its target matches one of the regexes or its
    secret contains a stopword ("OR"), or when every kind of check it has passes ("AND"; a check of file paths or
    commits never passes on captured text)."""

    regexes: tuple[re.Pattern[str], ...]
    stopwords: tuple[str, ...]
    target: str = "secret"  # or "match" or "line"
    all_of: bool = False
    other_checks: bool = False  # paths or commits

    @classmethod
    def parse(cls, spec: dict[str, Any]) -> _Allowlist:
        return cls(tuple(_compile_go(r) for r in spec.get("regexes", ())),
                   tuple(w.lower() for w in spec.get("stopwords", ())), spec.get("regexTarget", "secret"),
                   spec.get("condition", "OR").upper() == "AND", bool(spec.get("paths") or spec.get("commits")))

    def allows(self, m: re.Match[str], secret: str) -> bool:
        if self.target == "match":
            target = m.group()
        elif self.target == "line":
            text = m.string
            target = text[text.rfind("\n", 0, m.start()) + 1 : (text.find("\n", m.end()) + 1 or len(text) + 1) - 1]
        else:
            target = secret
        by_regex = bool(target) and any(r.search(target) for r in self.regexes)
        lower = secret.lower()
        by_word = bool(secret) and any(w in lower for w in self.stopwords)
        if not self.all_of:
            return by_regex or by_word
        checks = [by_regex] * bool(self.regexes) + [by_word] * bool(self.stopwords) + [False] * self.other_checks
        return bool(checks) and all(checks)


def _gitleaks_rule(spec: dict[str, Any], global_allow: _Allowlist) -> Rule:
    """A Rule that finds what gitleaks' rule finds: its regex (translated), its secret group, and a finding kept
    only above its entropy threshold and outside the global and the rule's allowlists."""
    pattern = re.compile(_without_identifier_prefix(go_regex(spec["regex"])).replace(_SECRET_SUFFIX, _PROSE_SUFFIX),
                         re.ASCII)
    group = int(spec.get("secretGroup", 0))
    if group > pattern.groups:
        raise ValueError(f"secretGroup {group} but the regex has {pattern.groups} groups")
    entropy = float(spec.get("entropy", 0))
    allowlists = (global_allow, *(_Allowlist.parse(a) for a in spec.get("allowlists", ())))
    rule: Rule

    def valid(m: re.Match[str]) -> bool:
        start, end = rule.span(m)
        secret = m.string[start:end]
        if entropy and shannon_entropy(secret) <= entropy:
            return False
        return not any(a.allows(m, secret) for a in allowlists)

    rule = Rule(spec["id"], pattern, valid, tuple(k.lower() for k in spec.get("keywords", ())), group, "gitleaks")
    return rule


@functools.cache
def _load_gitleaks(path: Path = GITLEAKS_FILE) -> tuple[tuple[Rule, ...], tuple[tuple[str, str], ...]]:
    """The rules of a gitleaks config that we use, and (rule id, why not) for the others."""
    with open(path, "rb") as f:
        config = tomllib.load(f)
    global_allow = _Allowlist.parse(config.get("allowlist", {}))
    rules, skipped = [], []
    for spec in config.get("rules", []):
        rule_id = spec.get("id", "?")
        if rule_id in GITLEAKS_EXCLUDED:
            skipped.append((rule_id, f"excluded: {GITLEAKS_EXCLUDED[rule_id]}"))
        elif "regex" not in spec:
            skipped.append((rule_id, "matches file names only (captured text has none)"))
        elif "path" in spec:
            skipped.append((rule_id, f"applies only to files whose path matches {spec['path']!r} (captured text "
                                     "has no path)"))
        else:
            try:
                rules.append(_gitleaks_rule(spec, global_allow))
            except (ValueError, re.error) as exc:
                skipped.append((rule_id, f"not translatable to Python's re: {exc}"))
    return tuple(rules), tuple(skipped)


def imported_rules() -> tuple[Rule, ...]:
    """The gitleaks rules in use, in the file's order (after our own `RULES` when labels tie)."""
    return _load_gitleaks()[0]


def skipped_rules() -> tuple[tuple[str, str], ...]:
    """(rule id, reason) for every gitleaks rule not in use."""
    return _load_gitleaks()[1]
