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
* Beside our own table, the maintained rule set of gitleaks (MIT; `watcher/rules/gitleaks.toml`, loaded by
  `imported_rules()`) covers some 200 vendors' token formats. Its Go (RE2) patterns are translated to Python's
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
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["RULES", "SECRET_PREFIXES", "Rule", "contains_secret", "find_secrets", "imported_rules", "redact",
           "secret_rest", "secret_start", "skipped_rules"]

Validator = Callable[[re.Match[str]], bool]


@dataclass(frozen=True)
class Rule:
    """One kind of secret.

    `pattern` finds candidates; `validator` (optional) gets the match and says whether it really is a secret.
    If the pattern has a group named `secret`, only that group is redacted. `hints` are lower-case substrings, one of
    which must occur in the lower-cased text for the pattern to match at all: a fast pre-check, never a filter that
    changes the result.
    """

    kind: str
    pattern: re.Pattern[str]
    validator: Validator | None = None
    hints: tuple[str, ...] = ()
    #: which part of a match is the secret: None for the group named `secret` (else the whole match); for rules
    #: imported from gitleaks, its `secretGroup` (0: the first group that matched something, as gitleaks does)
    group: int | None = None
    source: str = "proactive"
    #: for a match that may hold several secrets or none (a run of digit groups holding a card number): their
    #: spans; replaces `validator` and `group`
    finder: Callable[[re.Match[str]], Iterator[tuple[int, int]]] | None = None

    def span(self, m: re.Match[str]) -> tuple[int, int]:
        """Where the secret is in a match of `pattern`."""
        if self.group is None:
            return m.span("secret") if "secret" in m.re.groupindex else m.span()
        if self.group > 0:
            return m.span(self.group)
        for i in range(1, m.re.groups + 1):
            start, end = m.span(i)
            if end > start:
                return start, end
        return m.span()

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """The secrets this rule alone finds in `text` (its hints are not checked here)."""
        for m in self.pattern.finditer(text):
            if self.finder is not None:
                yield from self.finder(m)
            elif self.validator is None or self.validator(m):
                start, end = self.span(m)
                if start < end:
                    yield start, end


# --- validators --------------------------------------------------------------------------------------------------


def _luhn_ok(digits: str) -> bool:
    """The Luhn checksum every payment card number satisfies (and ~90% of other numbers fail)."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _card_number(digits: str) -> bool:
    """13-19 digits, not all the same, that pass Luhn."""
    return 13 <= len(digits) <= 19 and len(set(digits)) > 1 and _luhn_ok(digits)


def _card_shape(groups: list[str], before: str, after: str) -> bool:
    """Whether consecutive digit groups are written the way people write a card number: one plain run (not the
    tail or head of a decimal, version or range: `3.14159...`), every digit on its own (`4 1 1 1 ...`), or a first
    group of four then groups of 3-6 digits, the last of 1-6 (4-4-4-4, 4-6-5, 4-4-4-4-3, 4-3-3-3)."""
    if len(groups) == 1:
        return before not in (".", "-") and after not in (".", "-")
    if all(len(g) == 1 for g in groups):
        return True
    return len(groups[0]) == 4 and all(3 <= len(g) <= 6 for g in groups[1:-1]) and 1 <= len(groups[-1]) <= 6


def _card_spans(m: re.Match[str]) -> Iterator[tuple[int, int]]:
    """The card numbers in a run of digit groups: every window of consecutive groups with a card's shape and
    13-19 digits that pass Luhn, whatever separates them (so `4111 1111 1111 1111 12/27` loses the card even
    though the expiry date continues the run)."""
    if len(m.group()) < 13:  # cheap: most runs are short numbers
        return
    groups = list(re.finditer(r"\d+", m.group()))
    seps = [m.group()[a.end() : b.start()] for a, b in zip(groups, groups[1:], strict=False)]
    if all(len(g.group()) == 1 for g in groups):  # digits spaced one by one: only the whole run is a card
        if _card_number("".join(g.group() for g in groups)):
            yield m.start() + groups[0].start(), m.start() + groups[-1].end()
        return
    for i in range(len(groups)):
        digits = ""
        for j in range(i, len(groups)):
            digits += groups[j].group()
            if len(digits) > 19:
                break
            before = seps[i - 1] if i else ""
            after = seps[j] if j < len(seps) else ""
            if _card_number(digits) and _card_shape([g.group() for g in groups[i : j + 1]], before, after):
                yield m.start() + groups[i].start(), m.start() + groups[j].end()


def _hex_key(m: re.Match[str]) -> bool:
    """A key, not a number: both hex digits and hex letters occur (after an `0x`)."""
    body = m.group()[2:] if m.group()[:2] in ("0x", "0X") else m.group()
    return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)


def shannon_entropy(s: str) -> float:
    """Bits per character of `s` (0 for the empty string)."""
    n = len(s)
    if not n:
        return 0.0
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


_LETTER_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _wordy(s: str) -> bool:
    """True if `s` splits into word-sized pieces, like `HttpClient2ConnectionManager` or `final_draft_v3`.

    Random tokens switch case every two characters or so (mean letter-piece length ~2.1; < 1 in 1,000 random
    32-character tokens reach 4), identifiers and file names are made of words (mean >= 4).
    """
    pieces = _LETTER_PIECE.findall(s)
    return bool(pieces) and sum(map(len, pieces)) / len(pieces) >= 4.0


def _token_like(s: str) -> bool:
    """A generic secret: >= 24 chars, upper + lower + digit, >= 4 bits/char of entropy and not made of words."""
    core = s.rstrip("=")
    return (
        len(s) >= 24
        and any(c.isupper() for c in core)
        and any(c.islower() for c in core)
        and any(c.isdigit() for c in core)
        and shannon_entropy(core) >= 4.0
        and not _wordy(core)
    )


def _plain_segment(seg: str) -> bool:
    """A path segment that reads like a name: short, single-case (`src`, a hex SHA) or made of words."""
    return len(seg) < 8 or seg.lower() == seg or seg.upper() == seg or _wordy(seg)


def _high_entropy(m: re.Match[str]) -> bool:
    s = m.group()
    if "/" in s:
        segments = s.split("/")
        if s.startswith("/") or 2 * sum(map(_plain_segment, segments)) > len(segments):
            # a file path or URL path (`<uuid>/Invoice` too): its segments are checked one by one by the next rule
            return False
    return _token_like(s)


def _high_entropy_segment(m: re.Match[str]) -> bool:
    return _token_like(m.group())


def _aws_secret(m: re.Match[str]) -> bool:
    s = m.group()
    return ("/" in s or "+" in s) and not s.startswith("/") and "//" not in s and _token_like(s)


def _mailgun(m: re.Match[str]) -> bool:
    body = m.group().rsplit("-", 1)[1]
    return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)


#: How the tokens of known vendors start (`ghp_`, `sk-`, `AKIA`...): an unfinished word that starts so is a secret's
#: beginning.
SECRET_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxa-", "xoxb-", "xoxp-",
                   "xoxr-", "xoxs-", "sk-", "sk-ant-", "sk-proj-", "sk-svcacct-", "sk-admin-", "sk_", "rk_", "whsec_", "AKIA", "ASIA", "AIza", "eyJ", "hf_", "npm_",
                   "pypi-", "SG.", "key-", "pubkey-")
_TOKEN_WORD = re.compile(r"[A-Za-z0-9_+/=.-]+")
_PLAIN_WORD = re.compile(r"[A-Z]?[a-z]+(?:[_-][a-z]+)*|[A-Z]+")
_LOWER_WORDS = re.compile(r"[a-z]+(?:[_-][a-z]+)*")


def secret_start(word: str) -> bool:
    """Whether an unfinished word (typing stopped in the middle of it: the window changed) may be the first part of
    a secret, which redaction cannot recognise in half: a known vendor prefix with nothing wordy after it, or 8+
    characters of a token's alphabet mixing letters and digits (or cases) that do not split into words. Ordinary
    words, `snake_case` and `CamelCase` identifiers, paths and numbers are not."""
    if not _TOKEN_WORD.fullmatch(word):
        return False
    prefixed = [word[len(p):] for p in SECRET_PREFIXES if word.startswith(p)]
    if prefixed:
        return any(len(rest) < 4 or not _LOWER_WORDS.fullmatch(rest) for rest in prefixed)  # `sk-learn` stays
    has_digit, has_alpha = any(c.isdigit() for c in word), any(c.isalpha() for c in word)
    mixed_case = any(c.isupper() for c in word) and any(c.islower() for c in word)
    if len(word) < 8 or not has_alpha or not (has_digit or mixed_case) or word[0] in "/.":
        return False
    return bool(_HEX_WORD.fullmatch(word)) or not _made_of_words(word)


_HEX_WORD = re.compile(r"[0-9a-f]{8,}|[0-9A-F]{8,}")
_VOWEL = re.compile(r"[aeiouyAEIOUY]")


def _made_of_words(word: str) -> bool:
    """A code identifier rather than a piece of a random token: long letter pieces (`_wordy`), or pieces that can
    be said (every piece of 2+ letters has a vowel, and they hold half the letters; at most two runs of digits and
    one capital per piece): `getUserById2`, `user_id2`, `sha256sum`, `s3Bucket`. (Random 12-character tokens pass this about one time in six.)"""
    if _wordy(word):
        return True
    pieces = _LETTER_PIECE.findall(word)
    long = [p for p in pieces if len(p) >= 2]
    return (bool(long) and all(_VOWEL.search(p) for p in long) and 2 * sum(map(len, long)) >= sum(map(len, pieces))
            and len(re.findall(r"\d+", word)) <= 2 and len(re.findall(r"[A-Z]", word)) <= len(long))


def secret_rest(word: str) -> bool:
    """Whether the first word typed after a secret's start was cut off may be its rest: any word of a token's
    alphabet that is not a plain word (`hello`, `Hello`, `OK`, `snake_case`), however short."""
    return bool(_TOKEN_WORD.fullmatch(word)) and not _PLAIN_WORD.fullmatch(word)


def _random_token(m: re.Match[str]) -> bool:
    """Real tokens are random: require a digit or mixed case, so prose such as `sk-learn-tutorial` is kept."""
    s = m.group("secret") if "secret" in m.re.groupindex else m.group()
    return any(c.isdigit() for c in s) or (any(c.isupper() for c in s) and any(c.islower() for c in s))


# Values that are types or placeholders, not secrets: `password: str`, `token: Optional[str]`, `"secret": null`,
# `pwd=****`, `api_key=<your key>`.
_PLACEHOLDER = re.compile(
    r"(?i)(?:typing\.)?(?:str|string|int|bytes|bool|boolean|any|object|none|null|nil|undefined|true|false|secretstr)"
    r"(?:\|none)?|(?:typing\.)?(?:optional|union|list|dict)\[[\w\[\],|]*|\*+|<[a-z_ -]+>"
)
# A call or subscript cut short at its quote or bracket: `os.environ['X']`, `getpass.getpass()`, `request.form["pw"]`.
_CODE_EXPRESSION = re.compile(r"[A-Za-z_][\w.]*[(\[]")


def _assigned_value(m: re.Match[str]) -> bool:
    """Reject assigned values that are code, not literals, so source code stays readable in the context."""
    value = m.group("secret")
    if _PLACEHOLDER.fullmatch(value) or m.group("key") == "PWD":  # $PWD is the shell's working directory
        return False
    after = m.string[m.end("secret") : m.end("secret") + 1]
    if m.group("q") == "" and after and after in "'\"`)]" and _CODE_EXPRESSION.fullmatch(value):
        return False
    # `password=password`, `token=self.token`, `secret=cfg.db.secret`: a variable, not a literal.
    key = m.group("key").lstrip("-")
    names = "|".join(re.escape(n) for n in sorted({key, re.split(r"[_.-]", key)[-1]}))
    return not re.fullmatch(r"(?:[A-Za-z_]\w*\.)*(?:" + names + ")", value, re.IGNORECASE)


def _literal(m: re.Match[str]) -> bool:
    """A value, not a placeholder: `-p <password>` and `-p ****` in documentation stay."""
    return not _PLACEHOLDER.fullmatch(m.group("secret"))


# --- shared pattern pieces ---------------------------------------------------------------------------------------

_NOT_MARKER = r"(?!\[REDACTED:[a-z0-9-]+\])"
# An assigned value: quoted (up to the closing quote or the end of the line: fail closed) or bare (up to whitespace,
# quotes or `&`; trailing punctuation such as `,` `.` `)` is left in place).
_VALUE = (
    r"(?P<q>[\"'`]?)(?P<secret>" + _NOT_MARKER + r"(?:(?<=\")[^\"\n]+|(?<=')[^'\n]+|(?<=`)[^`\n]+"
    r"|[^\s'\"`&]*[^\s'\"`&,;.)\]}>]))"
)
# (a `:` or `=` that is half of `:=`, `=>` or `==` is never the separator: `TOKEN := "[REDACTED:x]"` would
# otherwise offer `=` as the value)
_SEP = r"[\"']?[ \t]*(?::=|=>|==|[:=](?![=>]))[ \t]*"
_KEYWORDS = (
    r"(?:password|passwd|passphrase|pwd|pass|client[_-]?secret|secret[_-]?key|secret|access[_-]?token|"
    r"auth[_-]?token|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key)"
)


# --- secrets typed on a command line ------------------------------------------------------------------------------
# The rest of one simple command (up to a pipe, `;`, `&` or the end of the line), bounded so each rule is tried
# over a few hundred characters at most from any start.
_CMD = r"[^|;&\n]{0,256}?"
# A command that reads a password on its standard input: what is piped or here-string'ed into it is one.
_STDIN_READER = (
    r"(?:\bsudo\b" + _CMD + r"[ \t]-[A-Za-z]*S|--(?:password-)?stdin\b|--passphrase-fd\b|/dev/stdin\b"
    r"|-pass(?:in)?[ \t]+(?:stdin|fd:0)\b|\bchpasswd\b|\bcryptsetup\b|\bkinit\b|\bsshpass\b"
    r"|\bhtpasswd\b" + _CMD + r"[ \t]-[A-Za-z]*i)"
)
# What comes right before a password given as a program's option (the value follows).
_PASSWORD_OPTIONS = [
    r"\bsshpass\b" + _CMD + r"[ \t]-p[ \t]*",
    r"\b(?:mysql\w*|mariadb[\w-]*)\b" + _CMD + r"[ \t]-p(?=\S)",  # `-p` alone prompts
    r"\blogin\b" + _CMD + r"[ \t]-p[ \t=]*",  # docker, podman, helm registry, oras, az, oc, cf login
    r"\bmongo(?:sh)?\b" + _CMD + r"[ \t]-p[ \t]+",
    r"\bredis-cli\b" + _CMD + r"[ \t]-a[ \t]+",
    r"\bopenssl\b" + _CMD + r"[ \t]-k[ \t]+",
    r"(?<![\w-])-pass(?:in|out)?[ \t]+[\"']?pass:",  # openssl -passin pass:X
    r"(?<![\w-])-(?:src|dest)?(?:store|key)pass[ \t]+",  # keytool
    r"\bldap\w+\b" + _CMD + r"[ \t]-w[ \t]+",
    r"\b(?:un)?zip\b" + _CMD + r"[ \t]-P[ \t]+",
    r"\bsmbclient\b" + _CMD + r"[ \t]-U[ \t]*[\"']?[^\s%\"']*%",
    r"\bcurl\b" + _CMD + r"[ \t](?:-[uU][ \t]*|--(?:proxy-)?user(?:[ \t]+|=))[\"']?[^\s:\"']*:",
    r"\bhttps?\b" + _CMD + r"[ \t](?:-a[ \t]*|--auth(?:[ \t]+|=))[\"']?[^\s:\"']*:",  # HTTPie
    r"\b(?:sqlcmd|bcp|osql)\b" + _CMD + r"[ \t]-P[ \t]*",  # SQL Server
    r"\b(?:7z[arz]?|(?:un)?rar)\b" + _CMD + r"[ \t]-p(?=\S)",  # `-p` alone prompts
]
_PASSWORD_OPTION_HINTS = ("sshpass", "mysql", "mariadb", "login", "mongo", "redis-cli", "openssl", "pass", "ldap",
                          "zip", "smbclient", "curl", "http", "sqlcmd", "bcp", "osql", "7z", "rar")
# Oracle's `user/password[@db]` after the tools that take it (`sqlplus scott/tiger@orcl`, `expdp u/p@db`, `rman
# target sys/p@db`), SQL*Plus's `connect u/p` and a JDBC thin URL: the password goes.
_ORACLE_LOGIN = (
    r"(?:\b(?:sqlplus|sqlldr|sqlcl|expdp|impdp|rman|dgmgrl)\b" + _CMD + r"|^[ \t]*(?:SQL>[ \t]*)?conn(?:ect)?[ \t]+"
    r"|jdbc:oracle:[a-z]+:)(?<![\w/.-])[A-Za-z_][\w$#.]{0,127}/(?P<secret>" + _NOT_MARKER
    + r"[^\s/@\"']+)(?=@|[\s\"']|$)"
)
_ORACLE_HINTS = ("sqlplus", "sqlldr", "sqlcl", "expdp", "impdp", "rman", "dgmgrl", "conn", "jdbc:oracle")

_AUTH_SCHEMES = r"(?:basic|bearer|token|digest|negotiate|ntlm|hoba|mutual|dpop|apikey|aws4-hmac-sha256)"


def _rx(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# --- the rules ---------------------------------------------------------------------------------------------------
# Order matters only for the label when two rules match the same span: specific rules first, generic ones last.

RULES: list[Rule] = [
    # -----BEGIN ... PRIVATE KEY----- through the matching END line; without an END line, to the end of the text.
    Rule(
        "private-key",
        _rx(
            r"-----BEGIN (?P<label>[A-Z0-9 ]{0,40}?)PRIVATE KEY(?P<blk>(?: BLOCK)?)-----"
            r"(?:[\s\S]*?-----END (?P=label)PRIVATE KEY(?P=blk)-----|[\s\S]*)"
        ),
        hints=("private key",),
    ),
    Rule(
        "jwt",
        _rx(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
        hints=("eyj",),
    ),
    Rule(
        "aws-access-key",
        _rx(r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])"),
        hints=("akia", "asia", "abia", "acca"),
    ),
    Rule(
        "aws-secret-key",
        _rx(
            r"(?i)(?<![A-Za-z0-9])aws_?secret_?(?:access_?)?key"
            + _SEP
            + r"[\"']?(?P<secret>"
            + _NOT_MARKER
            + r"[A-Za-z0-9/+=]{16,})"
        ),
        hints=("secret",),
    ),
    Rule(
        "github-token",
        _rx(r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
        hints=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    Rule("gitlab-token", _rx(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}"), hints=("glpat-",)),
    Rule("slack-token", _rx(r"(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}"), hints=("xox",)),
    Rule(
        "slack-webhook",
        _rx(r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]+"),
        hints=("hooks.slack.com",),
    ),
    Rule(
        "stripe-key",
        _rx(r"(?<![A-Za-z0-9])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})"),
        hints=("_live_", "_test_", "whsec_"),
    ),
    Rule("anthropic-key", _rx(r"(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}"), hints=("sk-ant-",)),
    Rule(
        "openai-key",
        _rx(r"(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        _random_token,
        hints=("sk-",),
    ),
    Rule("google-api-key", _rx(r"(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}"), hints=("aiza",)),
    Rule("huggingface-token", _rx(r"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"), hints=("hf_",)),
    Rule("npm-token", _rx(r"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36,}"), hints=("npm_",)),
    Rule(
        "pypi-token",
        _rx(r"(?<![A-Za-z0-9])pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{20,}"),
        hints=("pypi-",),
    ),
    Rule("sendgrid-key", _rx(r"(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}"), hints=("sg.",)),
    # `Authorization: Bearer <token>` and a bare `Bearer <token>` (>= 16 chars, with a digit or mixed case).
    Rule(
        "bearer-token",
        _rx(r"(?i)(?<![A-Za-z0-9])bearer[ \t]+(?P<secret>" + _NOT_MARKER + r"[A-Za-z0-9._~+/-]{16,}=*)"),
        _random_token,
        hints=("bearer",),
    ),
    # Any other `Authorization:` header value (Basic, token, Negotiate ...): the credentials, not the scheme.
    Rule(
        "authorization",
        _rx(
            r"(?i)(?<![A-Za-z0-9])(?:proxy-)?authorization"
            + _SEP
            + r"[\"']?(?:"
            + _AUTH_SCHEMES
            + r"[ \t]+)?(?P<secret>"
            + _NOT_MARKER
            + r"(?!"
            + _AUTH_SCHEMES
            + r"[ \t])[^\s\"']{8,})"
        ),
        hints=("authorization",),
    ),
    # scheme://user:password@host: only the password goes (up to the last `@` of the authority).
    Rule(
        "url-password",
        _rx(r"://[^\s:/?#]{0,256}:(?P<secret>" + _NOT_MARKER + r"[^\s/?#]*[^\s/?#@])@"),
        hints=("://",),
    ),
    # password=..., "api_key": "...", --token=..., client_secret: ..., ?access_token=...&
    Rule(
        "password",
        _rx(
            r"(?i)(?<![A-Za-z0-9_.-])(?<!//)(?P<key>-{0,2}(?:[A-Za-z0-9]{1,40}[_.-]){0,6}"
            + _KEYWORDS
            + r")"
            + _SEP
            + _VALUE
        ),
        _assigned_value,
        hints=("pass", "pwd", "secret", "token", "key"),
    ),
    # Environment style: export GITHUB_TOKEN=..., PGPASSWORD=..., MYSQL_PWD=..., PASS=... cmd, SSHPASS=... sshpass -e
    Rule(
        "password",
        _rx(
            r"(?<![A-Za-z0-9_])(?P<key>[A-Z0-9_]{0,40}"
            r"(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API_?KEY|ACCESS_KEY|PRIVATE_KEY)"
            r"|(?:[A-Z0-9_]{0,40}_)?(?:PWD|PASS)|SSHPASS)(?:_[A-Z0-9_]{0,40})?=" + _VALUE
        ),
        _assigned_value,
        hints=("pass", "pwd", "secret", "token", "key"),
    ),
    # Command lines: `--password hunter2` (the `--password=` form is the rule above), `--token X`, `--api-key X`.
    Rule(
        "password",
        _rx(
            r"(?i)(?<![\w-])(?P<key>--(?!no-|ask-)(?:[a-z0-9]+-){0,4}(?:password|passwd|passphrase|pass|secret|token"
            r"|api-?key|apikey|access-token|auth-token|client-secret|secret-key))[ \t]+(?![-<])" + _VALUE
        ),
        _assigned_value,
        hints=("--",),
    ),
    # Options that take a password in one program: `sshpass -p X`, `mysql -pX`, `docker login -p X`, `curl -u me:X`...
    Rule("password", _rx(r"(?:" + "|".join(_PASSWORD_OPTIONS) + r")" + _VALUE), _literal,
         hints=_PASSWORD_OPTION_HINTS),
    # Echoed or here-string'ed into a command that reads a password on its input: `echo X | sudo -S ls`,
    # `printf 'X\n' | docker login --password-stdin`, `sudo -S true <<< X`. Every echoed argument goes.
    Rule(
        "password",
        _rx(
            r"(?<![\w-])(?:echo|printf)(?:[ \t]+-[neE]{1,3})*[ \t]+"
            r"(?P<secret>(?=[^ \t])(?!-[neE]{1,3}[ \t])" + _NOT_MARKER
            + r"(?:\"[^\"\n]{0,256}\"|'[^'\n]{0,256}'|[^;&|\n'\"]){1,256}?)"
            r"[ \t]*\|(?!\|)(?=[^|;&\n]{0,256}?" + _STDIN_READER + r")"
        ),
        hints=("echo", "printf"),
    ),
    Rule("password", _rx(_STDIN_READER + r"[^|;&\n]{0,256}?<<<[ \t]*(?:\$(?=')|(?!\$'))" + _VALUE), _literal,
         hints=("<<<",)),
    # Windows: `net use \\\\host\\share PASSWORD /user:me` (a `*` prompts) and `net user NAME PASSWORD`.
    Rule(
        "password",
        _rx(
            r"(?i)\bnet[ \t]+(?:use(?:[ \t]+(?:[A-Za-z]:|\*|\\\\\S+|/\S+))*|user(?:[ \t]+/\S+)*[ \t]+[^\s/]\S*)"
            r"[ \t]+(?![/*\\])(?![A-Za-z]:(?:\s|$))" + _VALUE
        ),
        _literal,
        hints=("net",),
    ),
    # Go's MySQL driver DSN, which has no scheme: `user:password@tcp(host:3306)/db`.
    Rule(
        "password",
        _rx(r"(?<![^\s\"'`=(,])[^\s:@/\"'`=(,]{0,128}:(?P<secret>" + _NOT_MARKER
            + r"[^\s\"'`]{1,256}?)@(?:tcp[46]?|udp|unix|unixgram)\("),
        hints=("@tcp", "@udp", "@unix"),
    ),
    Rule("password", _rx(_ORACLE_LOGIN, re.MULTILINE | re.IGNORECASE), hints=_ORACLE_HINTS),
    # `htpasswd -b FILE USER PASSWORD`: the last word.
    Rule(
        "password",
        _rx(
            r"\bhtpasswd\b(?=" + _CMD + r"[ \t]-[A-Za-z]*b)[^|;&\n]{0,256}[ \t](?P<secret>" + _NOT_MARKER
            + r"[^\s|;&]+)(?=[ \t]*(?:$|[|;&\n]))"
        ),
        hints=("htpasswd",),
    ),
    # 13-19 digits that pass Luhn, plain or in groups separated by anything people type between them (spaces,
    # double spaces, dots, slashes, dashes, mixed: `_card_spans` picks the card out of a run of digit groups); not
    # the digits a hex hash or an identifier starts or ends with.
    Rule("card", _rx(r"(?<![0-9A-Za-z])\d+(?:(?:[ \t]{1,2}|[ \t]?[./-][ \t]?)\d+)*(?![0-9A-Za-z])"), finder=_card_spans),
    # 64 or more hex digits in one case (a SHA-256-sized key: our own `proactive key export`, an Ethereum private
    # key, a `secrets.token_hex(32)`); 40-hex git SHAs are shorter and stay.
    Rule("hex-key", _rx(r"(?<![0-9A-Za-z])(?:0[xX])?(?:[0-9a-f]{64,}|[0-9A-F]{64,})(?![0-9A-Za-z])"), _hex_key),
    # An AWS secret access key on its own (no `aws_secret_access_key =` before it): 40 characters of base64 that
    # hold a `/` or `+`, which the generic rules below take for a path. A path of 40 characters reads as words.
    Rule("aws-secret-key", _rx(r"(?<![A-Za-z0-9/+=_.-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_-])"), _aws_secret,
         hints=("/", "+")),
    # Mailgun's private and public API keys: `key-` or `pubkey-` and 32 random lower-case letters and digits.
    Rule("mailgun-key", _rx(r"(?<![A-Za-z0-9_-])(?:pub)?key-[0-9a-z]{32}(?![A-Za-z0-9])"), _mailgun,
         hints=("key-",)),
    # Generic: a run of >= 24 chars of [A-Za-z0-9_-+/=] with upper, lower, digit and >= 4 bits/char of entropy.
    Rule("high-entropy", _rx(r"(?<![A-Za-z0-9_+/-])[A-Za-z0-9_+/-]{24,}=*"), _high_entropy),
    # ... and the segments of path-like runs (`/srv/<token>/x`), which the rule above skips as a whole.
    Rule(
        "high-entropy",
        _rx(r"(?<=/)[A-Za-z0-9_+-]{24,}=*|(?<![A-Za-z0-9_+/-])[A-Za-z0-9_+-]{24,}=*(?=/)"),
        _high_entropy_segment,
        hints=("/",),
    ),
]

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
    while True:
        flag = next((m for i, tok, in_class in _regex_tokens(pattern) if tok == "(" and not in_class and i > 0
                     for m in [_GO_FLAGS.match(pattern, i)] if m), None)
        if flag is None:
            break
        on, off = flag.group(1), flag.group(2) or ""
        leading = _GO_FLAGS.match(pattern)
        if leading and not off and set(on) <= set(leading.group(1)):
            pattern = pattern[: flag.start()] + pattern[flag.end():]
            continue
        depth, end = 0, len(pattern)
        for i, tok, in_class in _regex_tokens(pattern):
            if i < flag.end() or in_class or tok.startswith("\\"):
                continue
            if tok == "(":
                depth += 1
            elif tok == ")":
                if depth == 0:
                    end = i
                    break
                depth -= 1
            elif tok == "|" and depth == 0:
                raise ValueError(f"the inline flag {flag.group()} before an alternation applies to every later "
                                 "branch in Go; Python has no exact form")
        scoped = on + ("-" + off if off else "")
        pattern = f"{pattern[: flag.start()]}(?{scoped}:{pattern[flag.end() : end]}){pattern[end:]}"
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
