"""The privacy stage's promises, tested on the stage alone (watcher/privacy/stage.py: `take`, `tick`, `flush`) with
property-based event streams (hypothesis; derandomized, bounded): no threads, no X server, no store.

A generated stream moves the focus among kinds of windows and types, copies and pauses in them, the clock
advancing by generated steps with the loop's ticks between. Each piece of typed or copied text carries a marker
naming the context it was made in, and some carry a generated secret. Whatever the stream:
1. no text from a context that may not be kept (an excluded application, a password title, a password field, a
   field of unknown role, a GUI window nothing describes, a pause) is in any event out;
2. no secret (a vendor token, a generated password after a credential word, a copied generated password) is in
   any event out;
3. no line typed in an observed ordinary field is lost: each reaches the events out whole.
"""

from __future__ import annotations

import json
import random
import string

from hypothesis import HealthCheck, given, settings, strategies as st

from proactive.watcher.events import CLIPBOARD, FOCUS, KEY, TYPED, WINDOW, RawEvent
from proactive.watcher.privacy.stage import PrivacyStage
from proactive.watcher.store.home import Config

#: process ids above the kernel's highest (pid_max is at most 2^22): no process of this machine is read for them
PIDS = {"excluded": 4_194_401, "password-title": 4_194_402, "password-field": 4_194_403, "unknown-role": 4_194_404,
        "undescribed": 4_194_405, "field": 4_194_406}
WINDOWS = {
    "excluded": {"app": "KeePassXC", "title": "vault.kdbx", "process": "keepassxc"},
    "password-title": {"app": "Firefox", "title": "Sign in - Bank", "process": "firefox"},
    "password-field": {"app": "a11y_app.py", "title": "Account form", "process": "python3"},
    "unknown-role": {"app": "a11y_app.py", "title": "Notes form", "process": "python3"},
    "undescribed": {"app": "wish", "title": "Tk form", "process": "wish"},
    "field": {"app": "a11y_app.py", "title": "Notes", "process": "python3"},
}
#: the contexts whose typed text may be kept: only an observed ordinary field here; a copy is kept anywhere but in
#: an excluded application, a password window or a password field (what is copied is not typed)
KEPT = {"field"}
COPY_KEPT = {"field", "unknown-role", "undescribed"}
#: plain words, so a marker is never taken for the rest of a secret cut short (compose.py's split-token rule)
NATO = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
WORDS = ["open", "the", "report", "fix", "retry", "build", "release", "notes", "draft", "config", "timeout", "page"]


def bounded(n: int) -> settings:
    return settings(derandomize=True, max_examples=n, deadline=None, database=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def generated_password(seed: int) -> str:
    rng = random.Random(seed)
    body = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randint(16, 22)))
    return body[:5] + rng.choice("!@#%&*") + body[5:] + rng.choice(string.digits)


def vendor_token(seed: int) -> str:
    rng = random.Random(seed)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


@st.composite
def steps(draw: st.DrawFn) -> list[tuple[str, str, str, str | None]]:
    """(action, context, marker text, secret or None): type a line, copy, or pause/resume, each in a context."""
    out = []
    for i in range(draw(st.integers(1, len(NATO)))):
        context = draw(st.sampled_from(sorted(WINDOWS)))
        action = draw(st.sampled_from(["type", "type", "copy", "pause"]))
        words = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4)))
        marker = f"mk{''.join(w[0] for w in context.split('-'))}{NATO[i]}"
        secret = draw(st.one_of(st.none(), st.integers(0, 2**32).map(
            lambda s: draw(st.sampled_from([generated_password, vendor_token]))(s))))
        out.append((action, context, f"{marker} {words}", secret))
    return out


def secret_text(text: str, secret: str | None, copy: bool) -> str:
    """The text with its secret where a person would write it: after a credential word, or alone as a copy."""
    if secret is None:
        return text
    return secret if copy else f"{text} password {secret}"


def run(stream: list[tuple[str, str, str, str | None]], gaps: list[float]) -> tuple[list[RawEvent], list[str]]:
    """Feeds the stream to a fresh stage; returns every event out and the lines typed in kept contexts."""
    stage = PrivacyStage(Config())
    out: list[RawEvent] = []
    kept_lines: list[str] = []
    now = 1_000_000.0
    for n, (action, context, text, secret) in enumerate(stream):
        now += gaps[n % len(gaps)]
        pid = PIDS[context]
        out += stage.take(RawEvent("window", WINDOW, {**WINDOWS[context], "pid": pid}, ts=now))
        role = {"password-field": "password text", "unknown-role": None}.get(context, "text")
        if context in ("field", "password-field", "unknown-role"):
            out += stage.take(RawEvent("atspi", FOCUS, {**WINDOWS[context], "role": role, "pid": pid}, ts=now))
        if action == "pause":
            out += stage.pause(float("inf"))
            paused = text + " typed while paused"
            for char in paused:
                out += stage.take(RawEvent("keyboard", KEY, {"char": char}, ts=now))
            out += stage.resume()
            continue
        if action == "copy":
            out += stage.take(RawEvent("clipboard", CLIPBOARD, {"text": secret_text(text, secret, copy=True),
                                                                  "length": 40, "truncated": False}, ts=now))
            continue
        line = secret_text(text, secret, copy=False)
        if context in ("field", "password-field", "unknown-role"):  # the bus gives the field's text
            for char in line:  # one insertion per key, as a toolkit tells typing
                out += stage.take(RawEvent("atspi", TYPED, {"text": char, "role": role, "pid": pid,
                                                            "object": f":1.5/field/{context}"}, ts=now))
        else:  # keys
            for char in line:
                out += stage.take(RawEvent("keyboard", KEY, {"char": char}, ts=now))
        out += stage.tick(now + 0.5)
        if context in KEPT and secret is None:
            kept_lines.append(line)
    out += stage.flush(now + 5)
    return out, kept_lines


GAPS = st.lists(st.floats(0.01, 3.0), min_size=1, max_size=5)


@bounded(150)
@given(steps(), GAPS)
def test_nothing_of_a_context_that_may_not_be_kept_comes_out(stream, gaps):
    out, _ = run(stream, gaps)
    everything = json.dumps([e.data for e in out])
    for action, context, text, _secret in stream:
        marker = text.split()[0]
        if context not in (COPY_KEPT if action == "copy" else KEPT):
            assert marker not in everything, (context, marker)
    assert "typed while paused" not in everything


@bounded(150)
@given(steps(), GAPS)
def test_no_secret_comes_out(stream, gaps):
    out, _ = run(stream, gaps)
    everything = json.dumps([e.data for e in out])
    for _action, _context, _text, secret in stream:
        if secret is not None:
            for piece in (secret, secret[:8], secret[-8:]):
                assert piece not in everything, piece


@bounded(150)
@given(steps(), GAPS)
def test_no_line_typed_where_nothing_hides_it_is_lost(stream, gaps):
    out, kept = run(stream, gaps)
    texts = [e.data.get("text") or "" for e in out if e.kind == "text"]
    told = "\n".join(texts)
    for line in kept:
        assert line in told, (line, texts)
