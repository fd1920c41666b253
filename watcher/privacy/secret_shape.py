"""Whether one token is shaped like a password, or is clearly something ordinary: the judgement behind the secrets
that no vendor's format names (a password after "password", a Wi-Fi key in a title, a password copied without a
password manager's mark, a password typed at the shell where nothing asked for it).

Why our own and not a detector's: detect-secrets' keyword plugin wants an assignment or a quoted value and its
entropy plugins look only inside quotes, and gitleaks' generic rule needs 10+ characters after `key=`-like names;
people type `password Tr0ub4dor&3` and copy a bare `x7Fq!...`. What is ordinary is listed once here (paths, URLs,
e-mail addresses, numbers, versions, dates, commit ids, UUIDs, words, identifiers made of words, code) and every
caller uses the same list, so over-redaction is measured in one place (bench/over_redaction.py).
"""

from __future__ import annotations

import re

from proactive.watcher.privacy.secret_checks import shannon_entropy, wordy

#: a token (what a password can be): no blanks, 6 to 128 characters
_TOKEN = re.compile(r"\S{6,128}")
_ORDINARY = re.compile(
    r"""(?x)
      [~.]?/\S*                                   # a path
    | [A-Za-z][A-Za-z0-9+.-]*://[^\s:@/]*(?:/\S*)?  # a URL with no user:password@ (that rule is redaction's)
    | [+-]?\d[\d,._]*(?:[eE][+-]?\d+)?%?         # a number
    | v?\d+(?:\.\w+)+(?:[-+~]\w+(?:\.\w+)*)*        # a version: 1.2.3, v2.0.0-rc1, 3.11.7+deb12u1
    | \d{4}-\d\d-\d\d(?:[T\ ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?  # a date or a time stamp
    | \d\d?:\d\d(?::\d\d)?                        # a time of day
    | [0-9a-f]{7,40} | [0-9A-F]{7,40}              # a commit id, a short hash
    | [0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}  # a UUID
    | (?:\d{1,3}\.){3}\d{1,3}(?::\d+)?             # an IPv4 address, with its port
    | [0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}   # an IPv6 address
    | [\w.-]+(?:[=<>!~]=|[<>])[\w.*+!-]+            # a requirement: name==1.2, numpy>=1.26
    | [\w-]+(?:\.[\w-]+)*:\d{1,5}                  # host:port
    | -{1,2}[A-Za-z][\w-]*(?:=\S*)?              # an option (its value is judged by the option rules)
    | \#[0-9a-fA-F]{3,8}                           # a colour
    | [\w.]+\*\*[\w.]+                              # a power: 10**shift
    | \*{1,2}[^*\s]+\*{1,2}[.,:;]?                   # Markdown's emphasis: **Records.**
    | \[REDACTED:[a-z0-9-]+\]                      # already redacted
    """)
#: characters of code, not of the passwords people choose: a token with one is code or a path, not a password
_CODE = re.compile(r"[()\[\]{}<>\"'`,;\\]")
_WORD = re.compile(r"(?:[A-Z]?[a-z]+|[A-Z]+)(?:['’-](?:[A-Z]?[a-z]+|[A-Z]+))*[.,:;!?]?")


def _ordinary_form(token: str) -> bool:
    """A path, a URL without credentials, an e-mail address, a number, a version, a date or time, a commit id, a
    UUID, an address, an option, a variable, a plain word or a piece of code."""
    if "://" in token and not re.search(r"://[^/\s@]*:[^/\s@]*@", token):  # an address (openai:http://h:1#m too)
        return True
    sigil = re.fullmatch(r"[$%@]\{?([A-Za-z_][\w.]*)\}?", token)  # a variable, a format field, a decorator
    if sigil:
        return ordinary(sigil.group(1))
    address = re.fullmatch(r"([\w.+-]+)@([\w-]+(?:\.[\w-]+)*)(?::\S*)?", token)  # user@host[:path], e-mail
    if address:  # ordinary unless a part of it looks generated (a password with an `@` in it)
        return not any(_random_look(p) for p in re.split(r"[._+-]+", f"{address.group(1)}.{address.group(2)}"))
    return bool(_ORDINARY.fullmatch(token) or _WORD.fullmatch(token) or _CODE.search(token))


def ordinary(token: str) -> bool:
    """A token that is clearly not a secret: one of `_ordinary_form`'s, or an identifier (`getUserById2`,
    `os.path.join`, `snake_case_v2`): none of its parts looks generated."""
    if _ordinary_form(token):
        return True
    parts = [p for p in re.split(r"[._:/=+-]+", token) if p]
    if len(parts) > 1 and all(p.isupper() or p.isdigit() for p in parts):  # TLS_AES_128_GCM_SHA256, ECDHE-RSA
        return all(len(p) <= 4 or re.search(r"[AEIOUY]", p) for p in parts)
    return not any(_random_look(p) for p in parts)


def _classes(token: str) -> int:
    """How many of lower-case letters, capitals, digits and other characters the token mixes."""
    return sum((any(c.islower() for c in token), any(c.isupper() for c in token), any(c.isdigit() for c in token),
                any(not c.isalnum() for c in token)))


#: the letter pairs that make up 98.5% of those in the words of Python's standard library (its identifiers,
#: comments and docstrings, split at capitals): a run of letters made mostly of them reads as words; random
#: letters are about 45% of them (bench/over_redaction.py measures what that gives)
_COMMON_BIGRAMS = frozenset((
    "ab ac ad af ag ai ak al am an ap ar as at au av aw ax ay ba bc be bi bj bl bo br bs bu by ca cc ce "
    "ch ci ck cl cm co cr cs ct cu da dd de di dl do dr ds dt du dy ea eb ec ed ee ef eg ei ek el em en "
    "eo ep eq er es et ev ew ex ey fa fd fe ff fi fl fo fp fr fs ft fu ga ge gh gi gl gn go gr gs gt gu "
    "ha he hi ho hr ht hu ia ib ic id ie if ig ik il im in io ip ir is it iv ix iz je jo ju ka ke ki kl "
    "ks kw la lb ld le lf li ll ln lo lp ls lt lu ly ma mb md me mi ml mm mo mp ms mt mu na nc nd ne nf "
    "ng ni nk nl nn no np ns nt nu nv ny oa ob oc od oe of og oi ok ol om on oo op or os ot ou ov ow pa "
    "pd pe pi pl po pp pr ps pt pu py qu ra rb rc rd re rf rg ri rk rl rm rn ro rp rr rs rt ru rv rw ry "
    "sa sc se sg sh si sk sl sm sn so sp sr ss st su sw sy ta tc td te tf th ti tl tm to tp tr ts tt tu "
    "tw ty ua ub uc ud ue uf ug ui ul um un up ur us ut va ve vi wa we wh wi wn wo wr ws xa xc xe xi xp "
    "xt ye yi ym yn yp ys yt ze zi "
).split())


def _spoken(token: str) -> bool:
    """The letters of `token`, taken in pieces split at capitals and digits (`getUserById2`: get, User, By, Id),
    are words: pieces of 2.5 letters or more on average (random capitals and small letters cut each other into
    pieces of about 2) made of pairs that words have (three in four at least). An identifier or a word, not
    random letters."""
    pieces = [piece.lower() for piece in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", token)]
    pairs = [piece[i:i + 2] for piece in pieces for i in range(len(piece) - 1)]
    if not pairs:
        return not pieces or len(pieces) == 1
    return (sum(map(len, pieces)) >= 2.5 * len(pieces)
            and sum(p in _COMMON_BIGRAMS for p in pairs) >= 0.75 * len(pairs))


#: the symbols people put in passwords (and identifiers, paths and numbers do not hold)
_PASSWORD_SYMBOL = re.compile(r"(?<=.)[!@#$%^&*?~]|^[!@#%^&*?~]")


def _transitions(token: str) -> float:
    """How often the kind of character (lower, upper, digit, other) changes from one to the next: random tokens
    change at about 0.6 per character, identifiers and words at 0.1-0.4."""
    kinds = [0 if c.islower() else 1 if c.isupper() else 2 if c.isdigit() else 3 for c in token]
    return sum(a != b for a, b in zip(kinds, kinds[1:], strict=False)) / max(1, len(token) - 1)


def password_shaped(token: str) -> bool:
    """A token that reads as a chosen or generated password rather than anything ordinary (8+ characters): one
    with a password's symbol among letters and digits (`Tr0ub4dor&3x!`, `Summer2024!`), or a random-looking mix
    of letters and digits that is not made of words (`q7Xk2mPz9LwR4tYb8NcV`: the kind of character changes at
    every other character or more; `a8f3k2m9q1w7`: three runs of digits or more). A token with `/` is judged by
    its segments (a path of ordinary names is no password)."""
    if not _TOKEN.fullmatch(token) or len(token) < 8 or _ordinary_form(token):
        return False
    if "/" in token.strip("/"):
        return any(password_shaped(part) for part in token.split("/"))
    letters, digits = sum(c.isalpha() for c in token), sum(c.isdigit() for c in token)
    if _PASSWORD_SYMBOL.search(token):  # with a digit, or a symbol inside (not `**bold**` markup)
        inside = bool(_PASSWORD_SYMBOL.search(token.strip("!@#$%^&*?~.,:;")))
        if letters >= 2 and (digits >= 1 or inside and _classes(token) >= 3):
            return True
        token = token.strip("!@#$%^&*?~.,:;")  # the rest may still be random
    return not ordinary(token)


def _random_look(part: str) -> bool:
    """One run of letters and digits (an identifier's parts are short words) that looks generated: capitals, small
    letters and digits mixed in 16+ characters that are not long words (`HttpClient2ConnectionManager` is), or in
    fewer that are not words at all (`_spoken`); or one case of letters with digits inside it twice or more
    (`utlfjt4kdf8z`; `sha256sum` once); or two kinds that are not words, in 12+ characters or switching at every
    other character or more (a random token's rate; identifiers switch at 0.1-0.4)."""
    if len(part) < 8 or shannon_entropy(part) < 3.0:
        return False
    kinds = _classes(part)
    if kinds >= 3:
        return not (_spoken(part) and (len(part) < 16 or wordy(part)))
    if kinds == 2 and len(part) >= 10 and len(re.findall(r"(?<=[A-Za-z])\d+(?=[A-Za-z])", part)) >= 2:
        return True
    return kinds == 2 and not _spoken(part) and (len(part) >= 12 or _transitions(part) >= 0.5)


def secret_value(token: str) -> bool:
    """A value that a strong credential word names (`password X`, `passphrase: X`, `PIN X`): a secret unless it
    has an ordinary form (a plain word, as in "password is wrong"; a path; a variable; code). An identifier-like
    word is one here (`hunter2`), and so is a number of 4+ digits (a PIN)."""
    if re.fullmatch(r"\d{4,}", token):
        return True
    if not re.fullmatch(r"\S{4,128}", token) or _ordinary_form(token):
        return False
    return not ("." in token.strip(".") and ordinary(token))  # an attribute (`os.environ`), a file name


def secret_copy(text: str) -> bool:
    """A copy that is one password-shaped token and nothing else (what `pass -c` or a generator puts on the
    clipboard), which no password manager marked: at most "copies a secret" is kept."""
    token = text.strip()
    return bool(token) and "\n" not in token and password_shaped(token)


#: the shell's own words, which are commands though no file on PATH is named so
SHELL_WORDS = frozenset(
    "alias bg bind break builtin caller case cd command compgen complete continue declare dirs disown do done echo "
    "elif else enable esac eval exec exit export false fc fg fi for function getopts hash help history if jobs "
    "kill let local logout mapfile popd printf pushd pwd read readarray readonly return select set shift shopt "
    "source suspend test then time times trap true type typeset ulimit umask unalias unset until wait while "
    "abbr funced funcsave end".split())


def known_command(word: str) -> bool:
    """A word the shell would run: a program on PATH, a builtin or keyword, a path, an assignment."""
    import shutil

    return (word in SHELL_WORDS or word[:1] in "./~$-" or "=" in word
            or shutil.which(word) is not None)


def typed_secret(line: str, asked: bool) -> bool:
    """A terminal line that is a password typed where nothing asked for it: one word that is no command, shaped
    like a password; or, right after a command that can ask for credentials (`asked`: root's `sudo ls` asks
    nothing, so the password typed next reaches the shell), any such word that is not an ordinary one
    (`secret_value`: `hunter2` too). People type passwords into the wrong place; the shell's "command not found"
    is no reason to keep them."""
    words = line.split()
    if len(words) != 1 or known_command(words[0]):
        return False
    return password_shaped(words[0]) or asked and secret_value(words[0])


_TITLE_TOKEN = re.compile(r"[^\s|—–·»«]+")


def redact_shaped(text: str) -> str:
    """A title with each password-shaped word replaced by `[REDACTED:password]` (a page or window titled with a
    Wi-Fi key or a generated password; no credential word needs to name it in a title)."""
    return _TITLE_TOKEN.sub(lambda m: "[REDACTED:password]" if password_shaped(m.group()) else m.group(), text)


def repeated_secrets(title: str, line: str, hidden: bool, secrets: list[tuple[str, int, int]]) -> str:
    """A terminal's title judged with the typed line it repeats (a shell that shows `$BASH_COMMAND` titles the
    window `echo PW` for the line `echo PW | sudo -S true`): the line hidden, any run of it (6+ characters, or
    the whole line) in the title goes; else each secret the line's redaction found (`secrets`: its spans, from
    `redact.find_secrets(line)`) goes from the title too, with its kind."""
    if hidden:
        text = line.strip()
        if text and (len(text) >= 6 or text == title.strip()) and text in title:
            return title.replace(text, "[REDACTED:password]")
        return title
    for kind, start, end in secrets:
        secret = line[start:end].strip()
        if len(secret) >= 3 and secret in title:
            title = title.replace(secret, f"[REDACTED:{kind}]")
    return title
