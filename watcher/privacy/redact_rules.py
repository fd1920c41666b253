"""Our own secret rules (`RULES`): each a kind, a compiled regex and a validator that rejects look-alikes (Luhn for
card numbers, entropy for generic tokens, placeholders such as `password: str`). Why they look like this, and
what is deliberately not redacted, is in `redact.py`, the engine that runs them."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from proactive.watcher.privacy.secret_checks import (
    assigned_value,
    aws_secret,
    card_spans,
    hex_key,
    high_entropy,
    high_entropy_segment,
    literal,
    mailgun,
    random_token,
)
from proactive.watcher.privacy.secret_shape import password_shaped, secret_value

Validator = Callable[[re.Match[str]], bool]


MAX_OPTIONS = 16  # secret options looked for in one command after its first (`Rule.every_option`)
#: how far from a program's name its later options are looked for (`Rule.every_option`): its options start within
#: the rules' 256-character reach, and a value may run on to here (a 100 kB clipboard of `login -p ` repeated
#: took 1.1 CPU s when the whole text was copied for each option)
COMMAND_CHARS = 4096


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
    #: the pattern names a program, then one of its options: each later option of the same command is a match too
    #: (`ssh-keygen -P OLD -N NEW`, whose one match ends at the first)
    every_option: bool = False

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
        later: set[int] = set()  # where the later options found so far begin (`_later_options`)
        for m in self.pattern.finditer(text):
            if self.finder is not None:
                yield from self.finder(m)
            else:
                start, end = self.span(m)
                if start < end:
                    if self.validator is None or self.validator(m):
                        yield start, end
                    if self.every_option:
                        yield from self._later_options(text, m, later)

    def _later_options(self, text: str, m: re.Match[str], later: set[int]) -> Iterator[tuple[int, int]]:
        """The secrets of the options after the one `m` found (or refused), in the command whose program's name `m`
        began with. Each value found is masked with its own quote (a bare one with `'`: same length, so the
        positions hold, and no value can be read from a run of the quote it would start with), and the pattern is
        matched again from the program's name, so its lazy scan reaches the next option. Why: Python's `re` has
        no variable-length lookbehind that would let one scan find them all. A value an earlier match's search
        found already (`later`) ends the search: it went on from there (a text of `login -p ` repeated searched
        each option again from every match)."""
        program = m.start()
        masked = text[:min(len(text), program + COMMAND_CHARS)]  # (a copy per option: of the command, not all text)
        start, end = self.span(m)
        for _ in range(MAX_OPTIONS):
            if end > len(masked):  # a value past the command's reach: its end is where the first match put it
                return
            masked = masked[:start] + (m.groupdict().get("q") or "'") * (end - start) + masked[end:]
            again = self.pattern.match(masked, program)
            if again is None or self.span(again)[0] <= start:  # none further on (or the same again: never loops)
                return
            m, (start, end) = again, self.span(again)
            if start in later:
                return
            later.add(start)
            if start < end and (self.validator is None or self.validator(m)):
                yield start, end




# --- shared pattern pieces ---------------------------------------------------------------------------------------

_NOT_MARKER = r"(?!\[REDACTED:[a-z0-9-]+\])"
# An assigned value: quoted (up to the closing quote or the end of the line: fail closed) or bare (up to whitespace,
# quotes or an `&` that starts the next `name=` of a query: a password may hold `&`, and `x&&y` is one word;
# trailing punctuation such as `,` `.` `)` is left in place).
_VALUE = (
    r"(?P<q>[\"'`]?)(?P<secret>" + _NOT_MARKER + r"(?:(?<=\")[^\"\n]+|(?<=')[^'\n]+|(?<=`)[^`\n]+"
    r"|(?:[^\s'\"`&]|&(?![A-Za-z_][\w.\[\]-]*=))*(?:[^\s'\"`&,;.)\]}>]|&(?=[ \t]|$))))"
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
    r"\b(?:mysql\w*|mariadb[\w-]*)\b" + _CMD + r"[ \t]-p(?=\S)",  # `-p` alone prompts
    # docker, podman, helm registry, oras, az, oc, cf login: `login` a word of its own (not `ssh login@host -p 22`)
    r"(?<![\w@.:/-])login(?=[ \t])" + _CMD + r"[ \t]-p[ \t=]*",
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
    # the new (-N) and old (-P) passphrase, after flags (`-qN X`); `-N ''` is none
    r"\bssh-keygen\b" + _CMD + r"[ \t]-[ABHKLQRUceghiklpqruvy]*[NP][ \t]*",
    r"\bldappasswd\b" + _CMD + r"[ \t]-[as][ \t]+",  # the new (-s) and old (-a) password
    r"\bmysqladmin\b" + _CMD + r"[ \t]password[ \t]+",  # `mysqladmin -u root password NEW`
    r"\blftp\b" + _CMD + r"[ \t]-u[ \t]*[\"']?[^\s,\"']*,",  # `lftp -u user,password host`
    r"\bncftp\w*\b" + _CMD + r"[ \t]-p[ \t]+",
    r"\buser(?:add|mod)\b" + _CMD + r"[ \t]-[DMNUlmor]*p[ \t]+",  # meant as a hash, often typed as the password
    r"\brabbitmqctl\b" + _CMD + r"[ \t](?:add_user|change_password)[ \t]+[^\s|;&]+[ \t]+",  # NAME PASSWORD
]
_PASSWORD_OPTION_HINTS = ("mysql", "mariadb", "login", "mongo", "redis-cli", "openssl", "pass", "ldap",
                          "zip", "smbclient", "curl", "http", "sqlcmd", "bcp", "osql", "7z", "rar", "ssh-keygen",
                          "lftp", "ncftp", "useradd", "usermod", "rabbitmqctl")
# htpasswd's options, `-C COST` and `-r ROUNDS` with their value (never given back: a value is no operand)
_HTPASSWD_OPTIONS = r"(?:[ \t]+(?:-[A-Za-z]*[Cr][ \t]+[^\s|;&]+|-[^\s|;&]*))*+"
# Programs whose first operand is the password: `openssl passwd [-6] [-salt S] PASSWORD` and whois's
# `mkpasswd [-m METHOD] [-S SALT] PASSWORD` (hash it); their options that take a value are skipped with it, and
# never given back (`*+`): a salt is not taken for the password when the password is not there (a prompt).
# openssl passwd hashes every operand: an operand already found (masked with quotes: `Rule._later_options`) is
# skipped, so the next is found.
_PASSWORD_OPERAND = (
    r"(?:\bopenssl[ \t]+passwd\b(?:[ \t]+(?:-(?:salt|in|rand|writerand|provider|provider-path|propquery)[ \t]+"
    r"[^\s|;&]+|-[^\s|;&]*|[\"'`]+(?=[ \t]|$|[|;&<>\n])))*+"
    r"|\bmkpasswd\b(?:[ \t]+(?:-[mSRP][ \t]+[^\s|;&]+|--(?:method|salt|rounds|password-fd)(?:=|[ \t]+)[^\s|;&]+"
    r"|-[^\s|;&]*))*+)"
    r"[ \t]+(?![-<>|;&])"
)
# Oracle's `user/password[@db]` after the tools that take it (`sqlplus scott/tiger@orcl`, `expdp u/p@db`, `rman
# target sys/p@db`), SQL*Plus's `connect u/p` and a JDBC thin URL: the password goes.
_ORACLE_LOGIN = (
    r"(?:\b(?:sqlplus|sqlldr|sqlcl|expdp|impdp|rman|dgmgrl)\b" + _CMD + r"|^[ \t]*(?:SQL>[ \t]*)?conn(?:ect)?[ \t]+"
    r"|jdbc:oracle:[a-z]+:)(?<![\w/.-])[A-Za-z_][\w$#.]{0,127}/(?P<secret>" + _NOT_MARKER
    + r"[^\s/@\"']+)(?=@|[\s\"']|$)"
)
_ORACLE_HINTS = ("sqlplus", "sqlldr", "sqlcl", "expdp", "impdp", "rman", "dgmgrl", "conn", "jdbc:oracle")

_AUTH_SCHEMES = r"(?:basic|bearer|token|digest|negotiate|ntlm|hoba|mutual|dpop|apikey|aws4-hmac-sha256)"


#: credential words: a strong one names its value a secret unless ordinary, a weak one only a password-shaped value.
#: "password" cut short or mistyped counts too (`passwor`, `pasword`, `passowrd`): typing read a key at a time
#: loses or swaps a letter (a busy machine, a browser's field that merges its changes), and a person's typo is
#: still the word.
_STRONG_WORDS = (r"pass(?:w(?:o(?:r(?:d)?)?)?|wd|phrase|code|key|owrd|wrod|wrd)?s?|pasw(?:o(?:r(?:d)?)?)?|paswd"
                 r"|pwd|psk|pin|identified[ \t]+by")
_WEAK_WORDS = r"(?:api[ _-]?|access[ _-]?|private[ _-]?|secret[ _-]?|license[ _-]?)?keys?|tokens?|secrets?|credentials?"
_IN_WORDS = (
    r"(?i)(?:(?<![\w.$/-])|(?<=\\[nrt]))(?P<key>(?:[A-Za-z0-9]+[_.-]){0,3}(?:(?P<strong>" + _STRONG_WORDS + r")|" + _WEAK_WORDS
    + r"))(?![\w-])(?:[ \t]*[:=][ \t]*|[ \t]+(?:[a-z]{1,3}|=)[ \t]+|[ \t]+)"
    r"(?P<q>[\"'`]?)(?P<secret>" + _NOT_MARKER + r"(?:(?<=\")[^\"\n]{1,128}|(?<=')[^'\n]{1,128}|(?<=`)[^`\n]{1,128}"
    r"|(?:[^\s\"'`&]|&(?![A-Za-z_][\w.\[\]-]*=)){0,127}(?:[^\s\"'`&.,;:)\]}>]|&(?=[ \t]|$))))"
)


def _named_value(m: re.Match[str]) -> bool:
    """The value a credential word names is a secret: any value after a strong word that is not ordinary
    (`secret_value`), a password-shaped one after a weak word; never a placeholder or a prompt's text. A quoted
    value of several words after a strong word is one too (a passphrase)."""
    value = m.group("secret")
    if not literal(m):
        return False
    if m.group("q") and " " in value.strip():
        return bool(m.group("strong")) and not _PROMPT_LIKE.search(value)
    return secret_value(value) if m.group("strong") else password_shaped(value)


_PROMPT_LIKE = re.compile(r"[:?>]\s*$|%s|\{\}")


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
        random_token,
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
        random_token,
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
            r"(?i)(?:(?<![A-Za-z0-9_.-])|(?<=\\[nrt]))(?<!//)(?P<key>-{0,2}(?:[A-Za-z0-9]{1,40}[_.-]){0,6}"
            + _KEYWORDS
            + r")"
            + _SEP
            + _VALUE
        ),
        assigned_value,
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
        assigned_value,
        hints=("pass", "pwd", "secret", "token", "key"),
    ),
    # Command lines: `--password hunter2` (the `--password=` form is the rule above), `--token X`, `--api-key X`.
    Rule(
        "password",
        _rx(
            r"(?i)(?<![\w-])(?P<key>--(?!no-|ask-)(?:[a-z0-9]+-){0,4}(?:password|passwd|passphrase|pass|secret|token"
            r"|api-?key|apikey|access-token|auth-token|client-secret|secret-key))[ \t]+(?![-<])" + _VALUE
        ),
        assigned_value,
        hints=("--",),
    ),
    # Options that take a password in one program: `sshpass -p X`, `mysql -pX`, `docker login -p X`, `curl -u me:X`...
    Rule("password", _rx(r"(?:" + "|".join(_PASSWORD_OPTIONS) + r")" + _VALUE), literal,
         hints=_PASSWORD_OPTION_HINTS, every_option=True),
    # `sshpass -p X cmd ...`: among sshpass's own options only (those of the command it runs are not its own:
    # `sshpass -p X ssh -p 22 host` keeps the port)
    Rule("password", _rx(r"\bsshpass(?:[ \t]+-(?:[fdP][ \t]*[^\s|;&]+|[evh]+))*[ \t]+-p[ \t]*" + _VALUE), literal,
         hints=("sshpass",)),
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
    Rule("password", _rx(_STDIN_READER + r"[^|;&\n]{0,256}?<<<[ \t]*(?:\$(?=')|(?!\$'))" + _VALUE), literal,
         hints=("<<<",)),
    # Windows: `net use \\\\host\\share PASSWORD /user:me` (a `*` prompts) and `net user NAME PASSWORD`.
    Rule(
        "password",
        _rx(
            r"(?i)\bnet[ \t]+(?:use(?:[ \t]+(?:[A-Za-z]:|\*|\\\\\S+|/\S+))*|user(?:[ \t]+/\S+)*[ \t]+[^\s/]\S*)"
            r"[ \t]+(?![/*\\])(?![A-Za-z]:(?:\s|$))" + _VALUE
        ),
        literal,
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
    # `openssl passwd PASSWORD...` (every operand), `mkpasswd PASSWORD [SALT]` (the first).
    Rule("password", _rx(_PASSWORD_OPERAND + _VALUE), literal, hints=("passwd",), every_option=True),
    # `htpasswd -b FILE USER PASSWORD` (`-nb USER PASSWORD`: no file): the operand after the user, whatever
    # follows it (a redirection), and the last word of the command too (fail closed: options after the operands)
    Rule(
        "password",
        _rx(
            r"\bhtpasswd\b(?=" + _CMD + r"[ \t]-[A-Za-z]*b)(?:(?=" + _CMD + r"[ \t]-[A-Za-z]*n)|(?!" + _CMD
            + r"[ \t]-[A-Za-z]*n)" + _HTPASSWD_OPTIONS + r"[ \t]+(?![-<>])[^\s|;&<>]+)" + _HTPASSWD_OPTIONS
            + r"[ \t]+(?![-<>])[^\s|;&<>]+[ \t]+(?![-<>])" + _VALUE
        ),
        literal,
        hints=("htpasswd",),
    ),
    Rule(
        "password",
        _rx(
            r"\bhtpasswd\b(?=" + _CMD + r"[ \t]-[A-Za-z]*b)[^|;&\n]{0,256}[ \t](?P<secret>" + _NOT_MARKER
            + r"[^\s|;&]+)(?=[ \t]*(?:$|[|;&\n]))"
        ),
        hints=("htpasswd",),
    ),
    # 13-19 digits that pass Luhn, plain or in groups separated by anything people type between them (spaces,
    # double spaces, dots, slashes, dashes, mixed: `card_spans` picks the card out of a run of digit groups); not
    # the digits a hex hash or an identifier starts or ends with.
    Rule("card", _rx(r"(?<![0-9A-Za-z])\d+(?:(?:[ \t]{1,2}|[ \t]?[./-][ \t]?)\d+)*(?![0-9A-Za-z])"), finder=card_spans),
    # 64 or more hex digits in one case (a SHA-256-sized key: our own `proactive key export`, an Ethereum private
    # key, a `secrets.token_hex(32)`); 40-hex git SHAs are shorter and stay.
    Rule("hex-key", _rx(r"(?<![0-9A-Za-z])(?:0[xX])?(?:[0-9a-f]{64,}|[0-9A-F]{64,})(?![0-9A-Za-z])"), hex_key),
    # An AWS secret access key on its own (no `aws_secret_access_key =` before it): 40 characters of base64 that
    # hold a `/` or `+`, which the generic rules below take for a path. A path of 40 characters reads as words.
    Rule("aws-secret-key", _rx(r"(?<![A-Za-z0-9/+=_.-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_-])"), aws_secret,
         hints=("/", "+")),
    # Mailgun's private and public API keys: `key-` or `pubkey-` and 32 random lower-case letters and digits.
    Rule("mailgun-key", _rx(r"(?<![A-Za-z0-9_-])(?:pub)?key-[0-9a-z]{32}(?![A-Za-z0-9])"), mailgun,
         hints=("key-",)),
    # Generic: a run of >= 24 chars of [A-Za-z0-9_-+/=] with upper, lower, digit and >= 4 bits/char of entropy.
    Rule("high-entropy", _rx(r"(?<![A-Za-z0-9_+/-])[A-Za-z0-9_+/-]{24,}=*"), high_entropy),
    # ... and the segments of path-like runs (`/srv/<token>/x`), which the rule above skips as a whole.
    Rule(
        "high-entropy",
        _rx(r"(?<=/)[A-Za-z0-9_+-]{24,}=*|(?<![A-Za-z0-9_+/-])[A-Za-z0-9_+-]{24,}=*(?=/)"),
        high_entropy_segment,
        hints=("/",),
    ),
    # (last: where a vendor's or a generic rule finds the same secret, it gives the label)
    # A password in words: a credential word, then its value after `:`/`=`, a short word ("is", "was", "for") or a
    # blank, wherever the text
    # says it (`nmcli dev wifi connect N password X`, a netrc line `login u password X`, "db password is X" typed in
    # a document, `ALTER USER u IDENTIFIED BY 'X'`, a page titled "Wi-Fi key X"). A strong word (password, passphrase,
    # PIN, PSK) names a secret unless the value has an ordinary form (a plain word: "password is wrong"); a weak one
    # (key, token, secret) only a password-shaped value (secret_shape.py).
    Rule("password", _rx(_IN_WORDS), _named_value, hints=("pass", "pasw", "pwd", "psk", "pin", "identified", "key", "token",
                                                             "secret", "credential")),
    # `-U user%password` (Samba's `net`, `rpcclient`, `smbclient`, `smbmap`, `winexe`...): the part after `%`.
    Rule("password", _rx(r"(?<![\w-])(?:-U[ \t]*|--user(?:name)?(?:=|[ \t]+))[\"']?[^\s%\"'|;&]+%" + _VALUE), literal,
         hints=("-u", "--user")),
    # `wpa_passphrase SSID PASSPHRASE`: the operand after the network's name.
    Rule("password", _rx(r"\bwpa_passphrase[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s|;&]+)[ \t]+(?![-<>|])" + _VALUE),
         literal, hints=("wpa_passphrase",)),
    # a pgpass line, `host:port:database:user:password` (PostgreSQL's ~/.pgpass): the fifth field.
    Rule("password", _rx(r"(?m)^[ \t]*[^\s:#]+:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:(?P<secret>" + _NOT_MARKER
                          + r"(?:\\:|[^\s:])+)[ \t]*$"), hints=(":",)),
]
