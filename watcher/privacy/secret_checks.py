"""The validators of our secret rules (watcher/privacy/redact_rules.py): each gets a candidate match and says
whether it really is a secret, so look-alikes stay (a number failing Luhn, a word of low entropy, a placeholder
such as `password: str`, a prompt string, a code expression). Why each is shaped so is said at each function.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator


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


def card_spans(m: re.Match[str]) -> Iterator[tuple[int, int]]:
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


def hex_key(m: re.Match[str]) -> bool:
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


def wordy(s: str) -> bool:
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
        and not wordy(core)
    )


def _plain_segment(seg: str) -> bool:
    """A path segment that reads like a name: short, single-case (`src`, a hex SHA) or made of words."""
    return len(seg) < 8 or seg.lower() == seg or seg.upper() == seg or wordy(seg)


def high_entropy(m: re.Match[str]) -> bool:
    s = m.group()
    if "/" in s:
        segments = s.split("/")
        if s.startswith("/") or 2 * sum(map(_plain_segment, segments)) > len(segments):
            # a file path or URL path (`<uuid>/Invoice` too): its segments are checked one by one by the next rule
            return False
    return _token_like(s)


def high_entropy_segment(m: re.Match[str]) -> bool:
    return _token_like(m.group())


def aws_secret(m: re.Match[str]) -> bool:
    s = m.group()
    return ("/" in s or "+" in s) and not s.startswith("/") and "//" not in s and _token_like(s)


def mailgun(m: re.Match[str]) -> bool:
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
    return bool(_HEX_WORD.fullmatch(word)) or not made_of_words(word)


_HEX_WORD = re.compile(r"[0-9a-f]{8,}|[0-9A-F]{8,}")
_VOWEL = re.compile(r"[aeiouyAEIOUY]")


def made_of_words(word: str) -> bool:
    """A code identifier rather than a piece of a random token: long letter pieces (`wordy`), or pieces that can
    be said (every piece of 2+ letters has a vowel, and they hold half the letters; at most two runs of digits and
    one capital per piece): `getUserById2`, `user_id2`, `sha256sum`, `s3Bucket`. (Random 12-character tokens pass this about one time in six.)"""
    if wordy(word):
        return True
    pieces = _LETTER_PIECE.findall(word)
    long = [p for p in pieces if len(p) >= 2]
    return (bool(long) and all(_VOWEL.search(p) for p in long) and 2 * sum(map(len, long)) >= sum(map(len, pieces))
            and len(re.findall(r"\d+", word)) <= 2 and len(re.findall(r"[A-Z]", word)) <= len(long))


def secret_rest(word: str) -> bool:
    """Whether the first word typed after a secret's start was cut off may be its rest: any word of a token's
    alphabet that is not a plain word (`hello`, `Hello`, `OK`, `snake_case`), however short."""
    return bool(_TOKEN_WORD.fullmatch(word)) and not _PLAIN_WORD.fullmatch(word)


def random_token(m: re.Match[str]) -> bool:
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


#: A prompt's text, not a password: words naming what is asked, ending as prompts end (`Password: `, `Enter token >`,
#: `[sudo] password for %u: `, `API key?`). (A password of words that ends with a colon is not typed quoted.)
_PROMPT_TEXT = re.compile(
    r"(?i)[^\n]{0,80}?(?<![A-Za-z0-9])(?:password|passwd|passphrase|pass|pin|token|secret|key|code|otp|login"
    r"|user ?name)(?![a-z])[^\n]{0,40}?[:?>][ \t]*(?:\\[nrt])*"
)
#: How far before a key its line is read for an open quote or a prompt option (the rules' own reach: `_CMD`).
_QUOTE_REACH = 256
#: An option whose value is a prompt's text, not a password, right before a key (the key starts that value): bash's
#: and zsh's `read -p`, zsh's `vared -p`, fish's `read -P`/`--prompt-str`, `sudo -p`/`--prompt`. (`_PROMPT_TAIL`: how
#: such text ends, looked for first.)
_PROMPT_OPTION = re.compile(
    r"(?<![\w-])(?:(?:read|vared)(?:[ \t]+[^\s|;&]+)*?[ \t]+(?:-[A-Za-z]*[pP]|--prompt-str)"
    r"|sudo(?:[ \t]+(?:-[A-Za-z]*[ugChDrRtTU][ \t]+[^\s|;&]+|-[^\s|;&]*))*?[ \t]+(?:-[A-Za-z]*p|--prompt))"
    r"(?:=|[ \t]+)\$?[\"']?$"
)
_PROMPT_TAIL = re.compile(r"(?:-[A-Za-z]*[pP]|--prompt(?:-str)?)(?:=|[ \t]+)\$?[\"']?$")
#: What may follow a string that closes: the end, a blank, an operator or bracket, a concatenation (`'a'"$b"`).
_AFTER_STRING = frozenset(" \t\r\n)]},;|&+.<>$\"'`")
#: A value that is only escapes and format fields of the string it is in (`$'Token:\n'`, `"Password: %s"`).
_FORMAT_ONLY = re.compile(r"(?:\\(?:[abefnrtv\\]|[0-7]{1,3}|x[0-9A-Fa-f]{1,2})|%[-+ #0-9.]*[sdrfx]|\{\w*\})+")
_QUOTE = re.compile(r"['\"]")


def _open_quote(text: str) -> str:
    """The quote (`'` or `"`) of the innermost string `text` ends inside, or "": quotes read as the shell and most
    languages read them, a quote of the other kind inside a string opening a string of its own (the script of
    `python3 -c "getpass('Password: ')"`). An apostrophe inside a word (`don't`) opens nothing, unless it follows
    an option (`-p'Token: '`)."""
    quotes: list[str] = []
    for found in _QUOTE.finditer(text):
        i, c = found.start(), found.group()
        if quotes and c == quotes[-1]:
            if not (c == '"' and _escaped(text, i)):
                quotes.pop()
            continue
        start = i
        while start and (text[start - 1].isalnum() or text[start - 1] in "_-"):
            start -= 1
        if start == i or (text[start] == "-" and (not start or text[start - 1].isspace())):
            quotes.append(c)
    return quotes[-1] if quotes else ""


def _escaped(text: str, i: int) -> bool:
    """Whether the character at `i` follows an odd run of backslashes."""
    run = 0
    while i > run and text[i - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _prompt_string(m: re.Match[str]) -> bool:
    """The key of a match is a word of a quoted string that the match's "value" does not belong to: the value's
    quote closes the key's string (`read -p 'Token: ' t`, `getpass('Password: ')`, `sudo -p "[sudo] token: "`:
    a prompt, then the next word), or the value is only the escapes and format fields that end that string
    (`$'Token:\n'`, `"Password: %s"`); or the key starts the value of a prompt option (`read -sp Token: t`). Or
    the value is itself a quoted prompt's text (`--password 'Password: '`). Such text shows what is asked, not a
    secret."""
    value, q = m.group("secret"), m.group("q")
    if q and len(value) <= 160 and _PROMPT_TEXT.fullmatch(value):
        return True
    if "key" not in m.re.groupindex:
        return False
    text, key = m.string, m.start("key")
    line = text[max(text.rfind("\n", max(0, key - _QUOTE_REACH), key) + 1, key - _QUOTE_REACH):key]
    if _PROMPT_TAIL.search(line[-40:]) and _PROMPT_OPTION.search(line):
        return True  # (the next word is a variable's name)
    inside = _open_quote(line)
    if not inside or inside in text[m.end("key"):m.start("q")]:  # (JSON's `"password": "x"` closed it before)
        return False
    if q:
        return q == inside and text[m.start("secret"):m.start("secret") + 1] in _AFTER_STRING
    after = text[m.end("secret"):m.end("secret") + 1]
    return after == inside and bool(_FORMAT_ONLY.fullmatch(value))


def assigned_value(m: re.Match[str]) -> bool:
    """Reject assigned values that are code, not literals, so source code stays readable in the context."""
    value = m.group("secret")
    if _PLACEHOLDER.fullmatch(value) or m.group("key") == "PWD":  # $PWD is the shell's working directory
        return False
    if _prompt_string(m):
        return False
    after = m.string[m.end("secret") : m.end("secret") + 1]
    if m.group("q") == "" and after and after in "'\"`)]" and _CODE_EXPRESSION.fullmatch(value):
        return False
    # `if token == TOKEN_END:`: a comparison with a name is code
    if m.group("q") == "" and re.fullmatch(r"[A-Za-z_][\w.]*:?", value) and re.search(
            r"[=!]=[ \t]*$", m.string[m.end("key"):m.start("secret")]):
        return False
    # `password=password`, `token=self.token`, `secret=cfg.db.secret`: a variable, not a literal.
    key = m.group("key").lstrip("-")
    names = "|".join(re.escape(n) for n in sorted({key, re.split(r"[_.-]", key)[-1]}))
    return not re.fullmatch(r"(?:[A-Za-z_]\w*\.)*(?:" + names + ")", value, re.IGNORECASE)


def literal(m: re.Match[str]) -> bool:
    """A value, not a placeholder: `-p <password>` and `-p ****` in documentation stay (a bare value ends before
    a closing `>`, so the placeholder is looked for with the character after it too)."""
    secret, after = m.group("secret"), m.string[m.end("secret"):m.end("secret") + 1]
    return not (_PLACEHOLDER.fullmatch(secret) or _PLACEHOLDER.fullmatch(secret + after) or _prompt_string(m))
