"""Secrets by shape and context: a password-shaped token named by a credential word, a `user%X`, a pgpass or netrc
line, a `wpa_passphrase` operand, a value holding `&`, anywhere in the text (typed lines, titles, prose); a copy
that is one password-shaped token; and what stays (ordinary developer text: under 1% of it changed).

The passwords are generated (hypothesis) in the shapes people and generators make: random letters and digits,
random with symbols, a word with digits and a symbol. The ordinary text is tests/fixtures/ordinary_text.txt,
sampled by bench/over_redaction.py from the standard library, man pages, docs, commit ids, UUIDs, versions and
paths (the benchmark's full corpus is in the README).
"""

from __future__ import annotations

import random
import string
from pathlib import Path

from hypothesis import given, settings, strategies as st

from proactive.watcher.privacy.redact import redact
from proactive.watcher.privacy.secret_shape import ordinary, password_shaped, secret_copy

FIXTURE = Path(__file__).parent / "fixtures" / "ordinary_text.txt"

_ALNUM = string.ascii_letters + string.digits
_SYMBOLS = "!@#$%^&*?~"


def _mixed(text: str) -> bool:
    return (any(c.isdigit() for c in text) and any(c.islower() for c in text)
            and any(c.isupper() for c in text))


def generated(alphabet: str, low: int, high: int) -> st.SearchStrategy[str]:
    """Passwords as a generator makes them: each character drawn uniformly from `alphabet`."""
    def make(seed: int) -> str:
        rnd = random.Random(seed)
        return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(low, high)))

    return st.integers(0, 2**32).map(make).filter(_mixed)


#: generated passwords: 16-24 random letters and digits (all three kinds), 12-20 with symbols, a word + digits + symbol
random_alnum = generated(_ALNUM, 16, 24)
random_symbols = st.builds(lambda body, sym, at: body[:at] + sym + body[at:], generated(_ALNUM + _SYMBOLS, 11, 19),
                           st.sampled_from(_SYMBOLS), st.integers(1, 10))
human = st.builds(lambda word, year, sym: f"{word.capitalize()}{year}{sym}",
                  st.sampled_from(["summer", "dragon", "monkey", "sunshine", "princess", "football", "welcome"]),
                  st.integers(1970, 2030), st.sampled_from(_SYMBOLS))
passwords = st.one_of(random_alnum, random_symbols, human)

#: where a credential is said in the open: {pw} is the password
CONTEXTS = [
    "nmcli dev wifi connect HomeNet password {pw}",
    "nmcli connection modify HomeNet wifi-sec.psk {pw}",
    "wpa_passphrase HomeNet {pw}",
    "wpa_passphrase 'Home Net 5G' {pw} > /etc/wpa.conf",
    "net rpc user -U bob%{pw} -S fileserver",
    "rpcclient -U 'CORP\\bob%{pw}' dc01",
    "smbmap -H 10.0.0.5 -U alice%{pw}",
    "db.internal:5432:billing:report:{pw}",
    "*:*:*:postgres:{pw}",
    "machine api.example.com login bob password {pw}",
    "curl -d 'user=bob&password={pw}' https://example.com/login",
    "https://example.com/login?user=bob&password={pw}&next=/home",
    "the db password is {pw} for now",
    "Wi-Fi key {pw} - Router settings",
    "ALTER USER report IDENTIFIED BY '{pw}';",
    "passphrase: {pw}",
    "api key {pw}",
]


def leaked(password: str, out: str) -> str | None:
    """A piece of the password (4+ characters between what the rules split on) left in the output."""
    for piece in [password, *(p for p in password.replace("&", " ").replace("%", " ").split() if len(p) >= 4)]:
        if piece in out:
            return piece
    return None


@settings(max_examples=60, deadline=None, derandomize=True)
@given(passwords, st.sampled_from(CONTEXTS))
def test_a_password_named_by_its_context_is_redacted_wherever_it_is(password, context):
    out = redact(context.format(pw=password))
    assert "[REDACTED:" in out and leaked(password, out) is None, (context, password, out)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(passwords)
def test_a_copied_password_without_a_mark_is_a_secret(password):
    assert password_shaped(password) and secret_copy(password) and secret_copy(f"  {password}\n")


def test_ordinary_tokens_are_not_taken_for_passwords():
    ordinary_tokens = [
        "getUserById2", "os.path.join", "requests.exceptions.ReadTimeout", "snake_case_v2", "3.11.7", "v2.0.0-rc1",
        "9fceb02", "9fceb02d0ae598e95dc970b74767f19372d61af8", "123e4567-e89b-12d3-a456-426614174000",
        "/usr/local/bin/python3", "~/.config/proactive/config.toml", "https://example.com/a?b=1&c=2",
        "bob@example.com", "127.0.0.1:8765", "2026-12-06T11:21:14Z", "numpy>=1.26", "PyYAML==6.0.4",
        "TLS_AES_128_GCM_SHA256", "_PyHASH_INF", "**Records.**", "10**shift", "HEAD~3", "--no-verify",
        "$HOME", "#ff8800", "KeyError", "Hello", "x86_64-linux-gnu", "sha256sum", "main.c:12:5:",
        "bartowski/SmolLM2-1.7B-Instruct-GGUF", "openai:http://127.0.0.1:8080#default", "[REDACTED:password]",
    ]
    taken = [t for t in ordinary_tokens if secret_copy(t)]
    assert not taken
    assert all(ordinary(t) for t in ["getUserById2", "os.path.join", "3.11.7", "9fceb02", "/usr/bin/env"])


def test_words_around_credential_words_stay():
    for text in ["the password is wrong", "key points of the page", "token bucket rate limiter",
                 "password = getpass()", "if password is None:", "password: str", "enter your password below",
                 "password hashing with bcrypt", "secret sauce", "KeyError: 'password'", "pin numpy to 1.26",
                 "read -sp 'Password: ' PASSWD", "api key file ~/.config/openai", "the token expired at 12:30",
                 "elif token == TOKEN_END:", "ssh-keygen -t ed25519 -C 'laptop key'"]:
        assert redact(text) == text, text


def test_a_value_holding_an_ampersand_is_redacted_whole_and_the_next_parameter_kept():
    assert redact("curl -d password=Tr0ub4dor&3x! https://h/login") == \
        "curl -d password=[REDACTED:password] https://h/login"
    assert redact("GET /login?user=bob&password=Tr0ub&4dor&next=/home") == \
        "GET /login?user=bob&password=[REDACTED:password]&next=/home"
    assert redact("password=hunter2 && make") == "password=[REDACTED:password] && make"
    assert "Tr0ub" not in redact("password=Tr0ub&&4dor")


def test_ordinary_developer_text_is_under_one_percent_changed():
    lines = [line.split("\t", 1)[1] for line in FIXTURE.read_text().splitlines() if "\t" in line]
    assert len(lines) >= 500
    changed = [line for line in lines if redact(line) != line]
    assert len(changed) / len(lines) < 0.01, changed
    words = [word for line in lines for word in line.split()]
    copies = [word for word in words if secret_copy(word)]
    assert len(copies) / len(words) < 0.01, copies[:20]


def test_password_cut_short_or_mistyped_still_names_its_value():
    """Typing read a key at a time may lose a letter (a busy machine, a browser's field merging its changes), and
    people mistype: the word still names the secret after it."""
    for text in ["th d passwor i Hunter7Canary", "pasword: Tr0ub4dor", "passowrd Tr0ub4dor9", "the passwd was Xk29qLm"]:
        assert "[REDACTED:password]" in redact(text), text
    for text in ["compass points", "bypass mode", "pass the test", "password for bob"]:
        assert redact(text) == text, text
