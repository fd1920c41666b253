"""Window-title patterns in words: what the settings window shows and reads for `excluded_titles` and
`password_titles`.

Why: config.toml holds regular expressions (the privacy filter compiles them, `watcher/privacy/filter.py`), but
`(?i)\\bprivate browsing\\b` means nothing to most people. The window shows each pattern as the words it matches
and turns what a person types back into a pattern:

- plain words, `private browsing`, are stored as a case-insensitive whole-word match, `(?i)\\bprivate browsing\\b`
  (the form of the built-in patterns, so those show as words too);
- a regular expression written on purpose goes between slashes, `/(?i)payroll \\d+/`, stored as written. Slashes
  rather than an "advanced" switch: the row says by itself what it is, a list can mix both, and every stored
  pattern, whoever wrote it, has a spelling in the list (an older config's raw regexes show between slashes and
  are saved unchanged);
- the few built-in patterns that are not plain words have a description of their own (`BUILT_IN`), which reads
  back as the same pattern.

`words(pattern)` is only ever a spelling that `pattern_of` reads back as `pattern`, so showing and saving an
untouched list never changes the file.
"""

from __future__ import annotations

import re

#: the built-in patterns (watcher.home's defaults) that are not plain words, as a person would say them
BUILT_IN = {
    r"(?i)\b(keepass|1password|bitwarden|lastpass)\b": "keepass, 1password, bitwarden or lastpass",
    r"(?i)pass(word|phrase|code)": "password, passphrase or passcode, also inside a word",
    r"(?i)\b(sign|log)[ -]?in\b": "sign in or log in (also signin, sign-in, login, log-in)",
    r"(?i)\bauthenticat(e|ion)\b": "authenticate or authentication",
    r"(?i)\b2fa\b|\bmfa\b|one[- ]time code": "2fa, mfa or one-time code",
}
BUILT_IN_PATTERNS = {text: pattern for pattern, text in BUILT_IN.items()}
#: a stored whole-word pattern: (?i), a word boundary where the words start or end with a word character
WHOLE_WORDS = re.compile(r"\(\?i\)(?:\\b)?(?P<inner>.*?)(?:\\b)?", re.DOTALL)


def pattern_of(text: str) -> str:
    """The pattern a person means by `text` (one row of the list): `/regex/` as written, a built-in description
    as its pattern, anything else as a case-insensitive whole-word match of the words."""
    text = text.strip()
    if len(text) >= 2 and text.startswith("/") and text.endswith("/"):
        return text[1:-1]
    if text in BUILT_IN_PATTERNS:
        return BUILT_IN_PATTERNS[text]
    escaped = re.escape(text).replace("\\ ", " ")  # a space needs no backslash outside verbose mode
    start = r"\b" if re.match(r"\w", text) else ""  # \b beside "+" would need a letter there: "C++" never matched
    end = r"\b" if re.search(r"\w$", text) else ""
    return f"(?i){start}{escaped}{end}"


def words(pattern: str) -> str:
    """How the list shows `pattern`: its words, its built-in description, or the regex between slashes."""
    if pattern in BUILT_IN:
        return BUILT_IN[pattern]
    match = WHOLE_WORDS.fullmatch(pattern)
    if match:
        text = re.sub(r"\\(.)", r"\1", match["inner"])  # undo re.escape
        if text.strip() == text and text and pattern_of(text) == pattern:
            return text
    return f"/{pattern}/"
