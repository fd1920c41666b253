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

What is deliberately *not* redacted (to keep the captured context useful): hex strings such as git SHAs, UUIDs,
words, CamelCase identifiers, file paths, numbers that fail the Luhn check (phone numbers, dates, order ids), and
random-looking strings shorter than 24 characters unless a rule recognises their prefix or the name they are assigned to.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["RULES", "Rule", "contains_secret", "find_secrets", "redact"]

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


def _card(m: re.Match[str]) -> bool:
    digits = re.sub(r"[ -]", "", m.group())
    return 13 <= len(digits) <= 19 and len(set(digits)) > 1 and _luhn_ok(digits)


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
        if s.startswith("/") or (
            len(segments) > 2 and 2 * sum(map(_plain_segment, segments)) > len(segments)
        ):
            return False  # a file path or URL path: its segments are checked one by one by the next rule
    return _token_like(s)


def _high_entropy_segment(m: re.Match[str]) -> bool:
    return _token_like(m.group())


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
_SEP = r"[\"']?[ \t]*(?::=|=>|==|[:=])[ \t]*"
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
]
_PASSWORD_OPTION_HINTS = ("sshpass", "mysql", "mariadb", "login", "mongo", "redis-cli", "openssl", "pass", "ldap",
                          "zip", "smbclient", "curl", "http")

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
    # `htpasswd -b FILE USER PASSWORD`: the last word.
    Rule(
        "password",
        _rx(
            r"\bhtpasswd\b(?=" + _CMD + r"[ \t]-[A-Za-z]*b)[^|;&\n]{0,256}[ \t](?P<secret>" + _NOT_MARKER
            + r"[^\s|;&]+)(?=[ \t]*(?:$|[|;&\n]))"
        ),
        hints=("htpasswd",),
    ),
    # 13-19 digits, plain or grouped by single spaces/dashes (4-4-4-4, 4-6-5, ...), that pass Luhn.
    Rule(
        "card",
        _rx(
            r"(?<!\d)(?<!\d[.-])(?:\d{13,19}|\d{4}(?P<sep>[ -])\d{3,6}(?:(?P=sep)\d{3,6}){1,3})(?!\d)(?!-\d)"
        ),
        _card,
    ),
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

_MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def find_secrets(text: str) -> list[tuple[str, int, int]]:
    """All secrets in `text` as sorted, non-overlapping `(kind, start, end)` spans.

    Overlapping matches are merged into one span so no part of a secret survives; the label comes from the match that
    starts first (then the longest, then the earlier rule in `RULES`).
    """
    if not text:
        return []
    lower = text.lower()
    found: list[tuple[int, int, int, str]] = []
    for priority, rule in enumerate(RULES):
        if rule.hints and not any(h in lower for h in rule.hints):
            continue
        has_secret_group = "secret" in rule.pattern.groupindex
        for m in rule.pattern.finditer(text):
            if rule.validator is not None and not rule.validator(m):
                continue
            start, end = m.span("secret") if has_secret_group else m.span()
            if start < end:
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
