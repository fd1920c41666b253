"""Property-based tests (hypothesis; derandomized, bounded, no deadline) of the parts that take input from outside:
the session and reward-row readers, the episode builder, the text composer and the redaction engine.

- Readers: what is written is read back; anything else (bytes, odd JSON, wrong types) is refused with the file
  and line, never with another exception.
- Episode builder: deterministic, incremental and batch building agree, raw-id ranges are ordered and disjoint.
- Composer: whatever the pauses, what reaches the store is the redacted line, and a secret typed in it never
  appears in any chunk.
- Redaction: a generated secret of every kind we and the imported gitleaks rules know, inside generated text, never
  survives; generated ordinary text (words, numbers, hex hashes, UUIDs, dates and times) is kept; redaction is
  idempotent.
"""

from __future__ import annotations

import atexit
import base64
import json
import random
import re
import shutil
import string
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from proactive.eval.sessions import SessionError, load_session
from proactive.models.reward_data import read_reward_rows
from proactive.watcher.episodes.builder import EpisodeBuilder, build_episodes
from proactive.watcher.events import (
    CLICK,
    CLIPBOARD,
    CONTROL,
    HOTKEY,
    IDLE,
    SCROLL,
    TEXT,
    WEB,
    WINDOW,
    RawEvent,
)
from proactive.watcher.privacy.compose import PAUSE_SECONDS, TextComposer
from proactive.watcher.privacy.redact import RULES, find_secrets, imported_rules, redact
from tests.conftest import FIXTURES
from tests.secret_samples import b64url, with_luhn


def bounded(n: int) -> settings:
    """Fixed seed (derandomize), at most n examples, no per-example deadline (a loaded CI machine is slow), no
    example database written to the working tree."""
    return settings(derandomize=True, max_examples=n, deadline=None, database=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


TMP = Path(tempfile.mkdtemp(prefix="proactive-properties-"))  # the readers' files; removed at exit
atexit.register(shutil.rmtree, TMP, ignore_errors=True)


def write(name: str, data: bytes | str) -> Path:
    path = TMP / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


# text without unpaired surrogates (which no file can hold)
TEXT_CHARS = st.characters(blacklist_categories=("Cs",))
EVENT = st.text(TEXT_CHARS, min_size=1, max_size=80).filter(lambda s: s.strip())
TIME = st.one_of(st.text(TEXT_CHARS, max_size=20), st.integers(-(10**15), 10**15),
                 st.floats(allow_nan=False, allow_infinity=False))
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(TEXT_CHARS,
                                                                                                      max_size=10),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=4),
                    max_leaves=12)


# ------------------------------------------------------------------------------------------- session reader

@bounded(80)
@given(st.lists(st.tuples(TIME, EVENT), min_size=1, max_size=12), st.booleans(), st.sampled_from(["", " ", "\n\n"]))
def test_session_round_trip(turns, as_lines, gap):
    expected = [{"time": str(json.loads(json.dumps(t))), "event": e} for t, e in turns]
    if as_lines:  # `proactive episodes --json`; raw U+2028 and friends inside strings must not split a line
        text = "".join(json.dumps({"time": t, "event": e}, ensure_ascii=False) + "\n" + gap for t, e in turns)
    else:
        text = "[" + ("," + gap).join(json.dumps({"observation": {"time": t, "event": e}, "agent_response": []},
                                                 ensure_ascii=False) for t, e in turns) + "]"
    assert load_session(write("round.json", text)) == expected


@bounded(60)
@given(st.lists(EVENT, min_size=1, max_size=8), st.data())
def test_session_error_names_the_line_of_the_bad_turn(events, data):
    bad = data.draw(st.integers(0, len(events) - 1))
    blanks = data.draw(st.lists(st.integers(0, 3), min_size=len(events), max_size=len(events)))
    lines, where = ["["], None
    for i, e in enumerate(events):
        lines += [""] * blanks[i]
        if i == bad:
            where = len(lines) + 1
            turn = data.draw(st.sampled_from([{"observation": {"time": "1"}}, {"observation": "x"}, [1],
                                              {"observation": {"time": "1", "event": ""}},
                                              {"observation": {"time": True, "event": "e"}},
                                              {"observation": {"time": "1", "event": "\ud800"}}]))
        else:
            turn = {"observation": {"time": str(i), "event": e}}
        lines.append(json.dumps(turn) + ("," if i < len(events) - 1 else ""))
    lines.append("]")
    path = write("bad.json", "\n".join(lines))
    with pytest.raises(SessionError) as info:
        load_session(path)
    assert str(info.value).startswith(f"{path}:{where}: turn {bad + 1}: ")
    assert "\n" not in str(info.value)


@bounded(150)
@given(st.one_of(st.binary(max_size=300),
                 JSON.map(lambda v: json.dumps(v).encode()),
                 st.lists(JSON, max_size=5).map(lambda v: json.dumps(v).encode()),
                 st.lists(JSON, max_size=5).map(lambda v: "\n".join(json.dumps(x) for x in v).encode()),
                 st.builds(lambda s, cut: s[:cut], st.just(b'[{"observation": {"time": "1", "event": "e"}}]'),
                           st.integers(0, 48))))
def test_session_reader_refuses_anything_else_in_one_line(data):
    path = write("any.json", data)
    try:
        observations = load_session(path)
    except SessionError as exc:
        assert str(exc).startswith(f"{path}") and "\n" not in str(exc)
        return
    assert observations and all(set(o) == {"time", "event"} and o["event"].strip() for o in observations)
    for o in observations:
        (o["time"] + o["event"]).encode("utf-8")  # printable and storable


# ---------------------------------------------------------------------------------------------- reward rows

def valid_row(obs: list, task: object, valid: bool, need: object, votes: object) -> dict:
    return {"obs": obs, "pred_task": task, "valid": valid, "help_needed": need, "annotation": votes}


ROW = st.builds(valid_row, st.lists(st.builds(lambda t, e: {"time": t, "event": e}, TIME, st.text(TEXT_CHARS,
                                                                                                  max_size=30)),
                                    min_size=1, max_size=4),
                st.none() | st.text(TEXT_CHARS, max_size=30) | st.lists(st.text(TEXT_CHARS, max_size=10),
                                                                        max_size=3),
                st.booleans(), st.none() | st.booleans(), st.none() | st.lists(st.booleans(), max_size=3))


@bounded(60)
@given(st.lists(ROW, min_size=1, max_size=6))
def test_reward_rows_round_trip(rows):
    path = write("rows.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    read = read_reward_rows([path])
    assert len(read) == len(rows)
    for got, row in zip(read, rows, strict=True):
        assert got["obs"] == row["obs"] and got["valid"] == row["valid"]
        assert got["help_needed"] == row["help_needed"] and got["annotation"] == row["annotation"]
        assert got["session"] == str(path) and got["category"]


FIELD_TYPES: dict[str, Callable[[object], bool]] = {
    "pred_task": lambda v: v is None or isinstance(v, str) or (isinstance(v, list)
                                                               and all(isinstance(t, str) for t in v)),
    "valid": lambda v: isinstance(v, bool),
    "help_needed": lambda v: v is None or isinstance(v, bool),
    "annotation": lambda v: v is None or (isinstance(v, list) and all(isinstance(a, bool) for a in v)),
    "category": lambda v: v is None or isinstance(v, str),
    "session": lambda v: v is None or isinstance(v, str),
}


@bounded(200)
@given(ROW, st.sampled_from(sorted(FIELD_TYPES)), JSON, st.integers(0, 3))
def test_reward_rows_are_checked_by_type(row, field, value, blank_lines):
    row[field] = value
    path = write("typed.jsonl", "\n" * blank_lines + json.dumps(row) + "\n")
    if FIELD_TYPES[field](value):
        assert len(read_reward_rows([path])) == 1
    else:
        with pytest.raises(ValueError) as info:
            read_reward_rows([path])
        assert str(info.value).startswith(f"{path}:{blank_lines + 1}: {field}")


@bounded(150)
@given(st.lists(st.one_of(st.binary(max_size=80).filter(lambda b: b"\n" not in b),
                          JSON.map(lambda v: json.dumps(v).encode())), min_size=1, max_size=4))
def test_reward_reader_refuses_anything_else_with_file_and_line(lines):
    path = write("junk.jsonl", b"\n".join(lines))
    try:
        read_reward_rows([path])
    except ValueError as exc:
        message = str(exc)
        assert message.startswith(f"{path}:") and "\n" not in message
        line = int(message[len(str(path)) + 1:].split(":")[0])
        assert 1 <= line <= len(lines)


# ------------------------------------------------------------------------------------------ episode builder

PRINTABLE = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40)
APPS = st.sampled_from(["Visual Studio Code", "XTerm", "Firefox", "Google Chrome", "", "Private"]) | PRINTABLE


def event_for(kind: str, draw: st.DrawFn) -> dict:
    if kind == WINDOW:
        return {"app": draw(APPS), "title": draw(PRINTABLE), "private": draw(st.booleans())}
    if kind == TEXT:
        return {"text": draw(PRINTABLE), "erase": draw(st.integers(0, 5)), "enter": draw(st.booleans()),
                **({"hidden": "password"} if draw(st.integers(0, 9)) == 0 else {})}
    if kind == HOTKEY:
        return {"combo": draw(st.sampled_from(["ctrl+c", "ctrl+s", "alt+tab", "ctrl+shift+p", "super"]))}
    if kind == CLICK:
        return {"button": draw(st.sampled_from(["left", "right", "middle"])), "x": 1, "y": 2}
    if kind == SCROLL:
        return {"dx": draw(st.integers(-3, 3)), "dy": draw(st.integers(-3, 3)), "count": 1}
    if kind == CLIPBOARD:
        text = draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=60))
        return {"text": text, "length": len(text), "truncated": draw(st.booleans())}
    if kind == IDLE:
        return {"state": draw(st.sampled_from(["idle", "active"])), "seconds": draw(st.integers(0, 10**6))}
    if kind == WEB:
        return {"url": draw(st.sampled_from(["https://www.google.com/search?q=x+y", "https://example.com/a",
                                             "not a url", ""])), "title": draw(PRINTABLE), "browser": "Firefox"}
    return {"state": draw(st.sampled_from(["paused", "resumed"]))}


@st.composite
def event_streams(draw: st.DrawFn) -> list[tuple[int, RawEvent]]:
    kinds = draw(st.lists(st.sampled_from([WINDOW, WINDOW, TEXT, HOTKEY, CLICK, SCROLL, CLIPBOARD, IDLE, WEB,
                                           CONTROL]), max_size=30))
    ts, out = 1000.0, []
    for raw_id, kind in enumerate(kinds, 1):
        ts += draw(st.sampled_from([0.0, 0.1, 0.5, 2.0, 30.0]))
        out.append((raw_id, RawEvent("test", kind, event_for(kind, draw), ts=ts)))
    return out


@bounded(150)
@given(event_streams())
def test_episode_builder_is_deterministic_incremental_and_ordered(stream):
    episodes = build_episodes(stream)
    again = build_episodes(stream)
    assert [e.row() for e in episodes] == [e.row() for e in again]
    builder, incremental = EpisodeBuilder(), []
    for raw_id, event in stream:
        incremental += builder.add(raw_id, event)
    last = builder.close()
    incremental += [last] if last else []
    assert [e.row() for e in incremental] == [e.row() for e in episodes]
    previous = 0
    for e in episodes:
        assert previous < e.first_raw_id <= e.last_raw_id
        previous = e.last_raw_id
        assert e.start <= e.end
        assert all(isinstance(s, str) and s.endswith(".") for s in e.sentences)
        e.event.encode("utf-8")  # text the database and a JSON file can hold: no half of a character
    if stream:
        assert episodes and episodes[-1].last_raw_id == stream[-1][0]  # the open span is kept however short


# ----------------------------------------------------------------------------------------------- composer

def rnd_body(seed: int, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rnd = random.Random(seed)
    while True:  # a real token is random: upper, lower and digits
        body = "".join(rnd.choice(alphabet) for _ in range(n))
        if set(alphabet) <= set(string.ascii_uppercase + string.digits) or (
                any(c.isdigit() for c in body) and any(c.isupper() for c in body) and any(c.islower() for c in body)):
            return body


def rnd_chars(seed: int, n: int, alphabet: str) -> str:
    rnd = random.Random(seed)
    return "".join(rnd.choice(alphabet) for _ in range(n))


UPPER = string.ascii_uppercase + string.digits
B64 = string.ascii_letters + string.digits + "+/"
B64URL = string.ascii_letters + string.digits + "-_"
BEGIN, END = "-----BEGIN ", "-----END "


def pem(seed: int) -> str:
    body = "\n".join(rnd_body(seed + i, 64, B64) for i in range(4))
    return f"{BEGIN}RSA PRIVATE KEY-----\n{body}\n{END}RSA PRIVATE KEY-----"


#: kind -> seed -> (text containing the secret, the secret). Built at run time from a seed, so this file holds no
#: string a secret scanner would flag. Every kind of our own rules is here (checked below).
SECRETS: dict[str, Callable[[int], tuple[str, str]]] = {
    "private-key": lambda s: (lambda k: (k, k))(pem(s)),
    "jwt": lambda s: (lambda t: (t, t))(".".join([b64url({"alg": "HS256"}), b64url({"sub": str(s)}),
                                                  rnd_body(s, 43, B64URL)])),
    "aws-access-key": lambda s: (lambda t: (t, t))("AKIA" + rnd_body(s, 16, UPPER)),
    "aws-secret-key": lambda s: (lambda v: (f"aws_secret_access_key = {v}" if s % 2 else v, v))(
        rnd_body(s, 40, B64) if s % 2 else rnd_body(s, 12, B64) + "/" + rnd_body(s + 1, 9, B64) + "/"
        + rnd_body(s + 2, 17, B64)),  # even seeds: a bare key holding `/`, which only its length tells
    "github-token": lambda s: (lambda t: (t, t))("ghp_" + rnd_body(s, 36)),
    "gitlab-token": lambda s: (lambda t: (t, t))("glpat-" + rnd_body(s, 20, B64URL)),
    "slack-token": lambda s: (lambda t: (t, t))("xoxb-" + rnd_body(s, 12, string.digits) + "-" + rnd_body(s, 24)),
    "slack-webhook": lambda s: (lambda t: (t, t))("https://hooks.slack.com/services/T" + rnd_body(s, 8, UPPER)
                                                  + "/B" + rnd_body(s + 1, 8, UPPER) + "/" + rnd_body(s, 24)),
    "stripe-key": lambda s: (lambda t: (t, t))("sk_live_" + rnd_body(s, 24)),
    "anthropic-key": lambda s: (lambda t: (t, t))("sk-ant-api03-" + rnd_body(s, 93, B64URL) + "AA"),
    "openai-key": lambda s: (lambda t: (t, t))("sk-proj-" + rnd_body(s, 48)),
    "google-api-key": lambda s: (lambda t: (t, t))("AIza" + rnd_body(s, 35, B64URL)),
    "huggingface-token": lambda s: (lambda t: (t, t))("hf_" + rnd_body(s, 34)),
    "npm-token": lambda s: (lambda t: (t, t))("npm_" + rnd_body(s, 36)),
    "pypi-token": lambda s: (lambda t: (t, t))("pypi-AgEIcHlwaS5vcmc" + rnd_body(s, 60, B64URL)),
    "sendgrid-key": lambda s: (lambda t: (t, t))("SG." + rnd_body(s, 22, B64URL) + "." + rnd_body(s, 43, B64URL)),
    "bearer-token": lambda s: (lambda v: (f"Authorization: Bearer {v}", v))(rnd_body(s, 32)),
    "authorization": lambda s: (lambda v: (f"Authorization: Basic {v}", v))(
        base64.b64encode(f"user{s}:{rnd_body(s, 12)}".encode()).decode()),
    "url-password": lambda s: (lambda v: (f"postgres://app:{v}@db.internal:5432/app", v))(rnd_body(s, 14)),
    "password": lambda s: (lambda v: (random.Random(s).choice(["password = {}", "export API_TOKEN={}",
                                                                "mysql -u root -p{}", "--token {}",
                                                                "echo {} | sudo -S ls", "sqlcmd -U sa -P {}",
                                                                "7z a -p{} out.7z", "net use \\\\nas\\s {}",
                                                                "app:{}@tcp(db:3306)/app",
                                                                "sqlplus scott/{}@orcl"]).format(v), v))(
        rnd_body(s, random.Random(s).randint(6, 20))),
    "card": lambda s: (lambda v: (v, v))(with_luhn("4" + rnd_body(s, 14, string.digits))),
    "high-entropy": lambda s: (lambda t: (t, t))(rnd_body(s, 40)),
    "hex-key": lambda s: (lambda t: (t, t))(rnd_chars(s, 64, random.Random(s).choice(["0123456789abcdef",
                                                                                        "0123456789ABCDEF"]))),
    "mailgun-key": lambda s: (lambda t: (t, t))("key-" + rnd_chars(s, 31, string.ascii_lowercase + string.digits)
                                                   + str(s % 10)),
}

#: the generated secrets of the imported gitleaks rules (drawn from each rule's own regex), with their contexts
GITLEAKS_SECRETS = sorted({(c["text"], c["secret"]) for c in json.loads(
    (FIXTURES / "gitleaks_cases.json").read_text(encoding="utf-8"))["cases"]
    if "secret" in c and c["rule"] in {r.kind for r in imported_rules()}})

#: everyday words; not credential words (`token = 1234` is rightly redacted) nor vendor names
WORDS = ("the a an of to and in is it that for on with as was at by from this be or are build report meeting file "
         "line user name page window project version branch merge review deploy server release notes update fixed "
         "error log time date run job test open close save copy paste search results error warning done today "
         "tomorrow yesterday monday friday invoice order total amount price items room floor street city count "
         "value values index list table column row width height size max min average sum id number step phase "
         "commit checkout pull push status diff main master origin remote local").split()


@st.composite
def ordinary_text(draw: st.DrawFn) -> str:
    """Words with numbers, hex hashes, UUIDs, versions, dates and times, as in logs, notes, chat and code."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    pieces = []
    for _ in range(draw(st.integers(1, 30))):
        kind = draw(st.sampled_from(["word"] * 6 + ["int", "decimal", "grouped", "hash", "uuid", "short-sha",
                                                     "time", "date", "datetime", "epoch", "version", "percent"]))
        pieces.append({
            "word": lambda: rnd.choice(WORDS) if rnd.random() < 0.8 else rnd.choice(WORDS).capitalize(),
            "int": lambda: str(rnd.randint(-10**6, 10**12)),
            "decimal": lambda: f"{rnd.uniform(-1e6, 1e6):.{rnd.randint(1, 6)}f}",
            "grouped": lambda: f"{rnd.randint(0, 10**9):,}",
            # (64 hex digits are a key now: `proactive key export` prints one; see test_hex_keys_go)
            "hash": lambda: "".join(rnd.choice("0123456789abcdef") for _ in range(rnd.choice([32, 40]))),
            "uuid": lambda: "-".join("".join(rnd.choice("0123456789abcdef") for _ in range(n))
                                     for n in (8, 4, 4, 4, 12)),
            "short-sha": lambda: "".join(rnd.choice("0123456789abcdef") for _ in range(7)),
            "time": lambda: f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}" + (
                f":{rnd.randint(0, 59):02d}" if rnd.random() < 0.5 else ""),
            "date": lambda: rnd.choice(["{y}-{m:02d}-{d:02d}", "{d:02d}/{m:02d}/{y}", "{d}.{m}.{y}"]).format(
                y=rnd.randint(1990, 2040), m=rnd.randint(1, 12), d=rnd.randint(1, 28)),
            "datetime": lambda: f"{rnd.randint(1990, 2040)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}T"
                                f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}:{rnd.randint(0, 59):02d}"
                                + rnd.choice(["Z", "+02:00", ".123456", ""]),
            "epoch": lambda: str(rnd.randint(10**9, 2 * 10**9)) + rnd.choice(["", f".{rnd.randint(0, 999):03d}"]),
            "version": lambda: f"v{rnd.randint(0, 20)}.{rnd.randint(0, 50)}.{rnd.randint(0, 200)}",
            "percent": lambda: f"{rnd.randint(0, 100)}%",
        }[kind]())
    seps = [" "] * 8 + [", ", ". ", "\n", " - ", ": ", " = ", "; ", " (", ") ", " | ", "/"]
    return "".join(p + draw(st.sampled_from(seps)) for p in pieces).strip()


def test_every_kind_of_ours_has_a_generator():
    assert {rule.kind for rule in RULES} == set(SECRETS)


@bounded(300)
@given(ordinary_text())
def test_ordinary_text_is_kept(text):
    assert find_secrets(text) == [], [text[a:b] for _k, a, b in find_secrets(text)]
    assert redact(text) == text


SEPARATORS = st.sampled_from([" ", "\n", ". ", ": ", " - ", "\n\n", "\t"])


@bounded(300)
@given(ordinary_text(), ordinary_text(), st.sampled_from(sorted(SECRETS)), st.integers(0, 2**32 - 1), SEPARATORS,
       SEPARATORS)
def test_generated_secrets_of_our_kinds_never_survive(before, after, kind, seed, sep1, sep2):
    context, secret = SECRETS[kind](seed)
    text = before + sep1 + context + sep2 + after
    out = redact(text)
    assert secret not in out, (kind, out)
    assert redact(out) == out


@bounded(300)
@given(ordinary_text(), ordinary_text(), st.sampled_from(GITLEAKS_SECRETS), SEPARATORS, SEPARATORS)
def test_generated_secrets_of_imported_kinds_never_survive(before, after, case, sep1, sep2):
    context, secret = case
    text = before + sep1 + context + sep2 + after
    out = redact(text)
    assert secret not in out, out
    assert redact(out) == out


@bounded(100)
@given(st.lists(st.one_of(ordinary_text(), st.tuples(st.sampled_from(sorted(SECRETS)), st.integers(0, 2**32 - 1))),
                min_size=1, max_size=6), SEPARATORS)
def test_redaction_is_idempotent_and_every_secret_goes(parts, sep):
    secrets = []
    texts = []
    for part in parts:
        if isinstance(part, tuple):
            context, secret = SECRETS[part[0]](part[1])
            secrets.append(secret)
            texts.append(context)
        else:
            texts.append(part)
    text = sep.join(texts)
    once = redact(text)
    assert redact(once) == once
    for secret in secrets:
        assert secret not in once


# ------------------------------------------------------------------------------------------- card numbers

#: how people group a card's digits (the groups' lengths), by the number's length; and digit by digit
CARD_SHAPES = {13: [(13,), (4, 3, 3, 3), (4, 4, 5), (4, 4, 4, 1)], 14: [(14,), (4, 6, 4), (4, 4, 4, 2)],
               15: [(15,), (4, 6, 5), (4, 4, 4, 3)], 16: [(16,), (4, 4, 4, 4), (4, 4, 8)],
               17: [(17,), (4, 4, 4, 5)], 18: [(18,), (4, 4, 4, 6)], 19: [(19,), (4, 4, 4, 4, 3), (4, 5, 5, 5)]}
CARD_SEPARATORS = [" ", "  ", ".", "/", "-", " - ", " / ", "\t", ". "]


@st.composite
def written_card(draw: st.DrawFn, valid: bool) -> str:
    """A card number (passing Luhn, or with its check digit broken) written in one of the usual groupings or
    digit by digit, each gap with a separator drawn on its own (mixed styles)."""
    n = draw(st.integers(13, 19))
    body = str(draw(st.integers(2, 6))) + "".join(draw(st.lists(st.sampled_from(string.digits), min_size=n - 2,
                                                                max_size=n - 2)))
    number = with_luhn(body)
    if not valid:
        number = number[:-1] + str((int(number[-1]) + draw(st.integers(1, 9))) % 10)
    shape = draw(st.sampled_from([*CARD_SHAPES[n], (1,) * n]))
    groups, pos = [], 0
    for size in shape:
        groups.append(number[pos : pos + size])
        pos += size
    return "".join(g + (draw(st.sampled_from(CARD_SEPARATORS)) if i < len(groups) - 1 else "")
                   for i, g in enumerate(groups))


WORDS_ONLY = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)


@bounded(300)
@given(WORDS_ONLY, WORDS_ONLY, written_card(valid=True), SEPARATORS, SEPARATORS)
def test_cards_are_redacted_whatever_separates_their_digits(before, after, card, sep1, sep2):
    assert redact(before + sep1 + card + sep2 + after) == before + sep1 + "[REDACTED:card]" + sep2 + after


def _holds_a_shorter_card(text: str) -> bool:
    """Whether a part of the run (from its first or to its last group) has 13+ digits and passes Luhn by itself:
    a different number, which may rightly be a card."""
    groups = re.findall(r"\d+", text)
    return any(len(d) >= 13 and with_luhn(d[:-1]) == d
               for d in ["".join(groups[1:]), "".join(groups[:-1])] if len(groups) > 1)


@bounded(300)
@given(WORDS_ONLY, WORDS_ONLY, written_card(valid=False), SEPARATORS, SEPARATORS)
def test_the_same_digits_failing_luhn_are_kept(before, after, number, sep1, sep2):
    assume(not _holds_a_shorter_card(number))
    text = before + sep1 + number + sep2 + after
    assert redact(text) == text


#: secrets a user types on one line (no PEM blocks); the composer must never hand any of them on, whole or split
TYPED_KINDS = sorted(set(SECRETS) - {"private-key"})


@bounded(200)
@given(ordinary_text().map(lambda t: t.replace("\n", " ")), st.sampled_from(TYPED_KINDS), st.integers(0, 2**32 - 1),
       st.data())
def test_composer_never_hands_on_a_typed_secret(words, kind, seed, data):
    """Typed with pauses anywhere (each long enough for a partial flush) and typos corrected with Backspace."""
    context, secret = SECRETS[kind](seed)
    line = f"{words} {context} {words[:20]}".strip()
    pauses = set(data.draw(st.lists(st.integers(0, len(line)), max_size=8)))
    typos = set(data.draw(st.lists(st.integers(0, len(line)), max_size=4)))
    chunks: list[dict] = []
    composer = TextComposer(lambda e: chunks.append(e.data))
    ts = 1000.0
    for i, ch in enumerate(line):
        if i in typos:
            composer.key(ts + 0.01, char="#")
            composer.key(ts + 0.02, key="backspace")
        ts += 0.05
        composer.key(ts, char=ch)
        if i in pauses:
            ts += PAUSE_SECONDS + 0.5
            composer.tick(ts)
    composer.key(ts + 0.05, key="enter")
    state = ""
    for chunk in chunks:
        state = state[: len(state) - chunk["erase"]] + chunk["text"]
        assert secret not in state
    assert state == redact(line)
    # nor in pieces: every chunk is stored as it was sent (a later `erase` does not unsend it), so no chunk may
    # hold any 8 characters of the secret
    pieces = {secret[i : i + 8] for i in range(max(1, len(secret) - 7))}
    for chunk in chunks:
        assert not any(piece in chunk["text"] for piece in pieces), (chunk, secret)



@bounded(200)
@given(ordinary_text().map(lambda t: t.replace("\n", " ")), st.sampled_from(sorted(set(TYPED_KINDS) - {"card", "hex-key"})),
       st.integers(0, 2**32 - 1), st.data())
def test_a_secret_cut_by_a_window_switch_is_stored_in_neither_half(words, kind, seed, data):
    """The focus changes (a forced flush) anywhere inside a typed secret, the rest is typed afterwards: no chunk
    holds 8 characters of it. Not covered: a card or a hex key cut in two (a first half of digits only is an
    ordinary number)."""
    context, secret = SECRETS[kind](seed)
    start = context.index(secret)
    # (cut within its first 7 characters, the half typed is too short to tell: `glpa` + `t-...` are two words)
    cut = start + data.draw(st.integers(min(8, len(secret) - 1), len(secret) - 1))
    chunks: list[dict] = []
    composer = TextComposer(lambda e: chunks.append(e.data))
    for i, ch in enumerate(f"{context} {words[:20]}".strip()):
        if i == cut:
            composer.flush()
        composer.key(1000.0 + i * 0.05, char=ch)
    composer.key(2000.0, key="enter")
    pieces = {secret[i : i + 8] for i in range(max(1, len(secret) - 7))}
    for chunk in chunks:
        assert not any(piece in chunk["text"] for piece in pieces), (chunk, secret, cut - start)
