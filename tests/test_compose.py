"""The text composer: reconstruction (backspace, enter), safe partial flushes, and secrets never split."""

from __future__ import annotations

import time

import pytest

from proactive.watcher.episodes.builder import EpisodeBuilder
from proactive.watcher.events import TEXT, WINDOW, RawEvent
from proactive.watcher.pipeline import Watcher
from proactive.watcher.privacy.compose import TextComposer
from proactive.watcher.store.home import Config


def compose(keys: list, pause_after: set[int] | None = None) -> tuple[list[dict], str]:
    """Feed keys ("x" chars or "<backspace>"/"<enter>"); tick with a long pause after the given indexes.
    Returns the TEXT payloads and what an episode renders from them."""
    out: list[RawEvent] = []
    c = TextComposer(out.append)
    t = 1000.0
    for i, k in enumerate(keys):
        t += 0.05
        if k.startswith("<") and len(k) > 1:
            c.key(t, key=k.strip("<>"))
        else:
            c.key(t, char=k)
        if pause_after and i in pause_after:
            t += 2
            c.tick(t)
    c.flush()
    builder = EpisodeBuilder()
    builder.add(0, RawEvent("window", WINDOW, {"app": "Editor", "title": "notes.txt"}, ts=999))
    for i, e in enumerate(out, 1):
        builder.add(i, e)
    episode = builder.close()
    return [e.data for e in out], episode.event if episode else ""


def chars(text: str) -> list[str]:
    return list(text)


@pytest.mark.parametrize(
    "keys, expected",
    [
        (chars("import requests") + ["<enter>"], "types 'import requests' and presses Enter"),
        (chars("helo") + ["<backspace>", "<backspace>"] + chars("llo"), "types 'hello'"),
        (chars("ab") + ["<backspace>"] * 5 + chars("cd"), "types 'cd'"),
        (chars("one") + ["<enter>"] + chars("two") + ["<enter>"], "types 'one' and presses Enter"),
    ],
    ids=["enter", "backspace", "backspace-past-start", "two-lines"],
)
def test_reconstruction(keys, expected):
    _, rendered = compose(keys)
    assert expected in rendered


def test_partial_flush_keeps_last_token_and_erase_crosses_chunks():
    keys = chars("hello wor") + chars("ld") + ["<backspace>"] * 7 + chars("there")
    payloads, rendered = compose(keys, pause_after={8})
    assert payloads[0]["text"] == "hello "  # "wor" was held back at the pause
    assert any(p["erase"] for p in payloads)  # backspace into flushed text is expressed as erase
    assert "types 'hellthere'" in rendered


@pytest.mark.parametrize(
    "typed, pause_at, secret",
    [
        ("key is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z done", 20, "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"),
        ("card 4111 1111 1111 1111 ok", 13, "4111 1111 1111 1111"),
        ("password = hunter2hunter2 end", 11, "hunter2hunter2"),
    ],
    ids=["api-key-split-by-pause", "card-split-by-pause", "assignment-split-by-pause"],
)
def test_secret_typed_with_a_pause_in_the_middle_is_never_stored_in_pieces(typed, pause_at, secret):
    payloads, rendered = compose(chars(typed) + ["<enter>"], pause_after={pause_at})
    stored = "".join(p["text"] for p in payloads)
    for piece in (secret[: len(secret) // 2], secret[len(secret) // 2:]):
        assert piece not in stored
        assert piece not in rendered
    assert "REDACTED" in rendered


def test_hidden_line_is_dropped():
    out: list[RawEvent] = []
    c = TextComposer(out.append)
    c.hide_line = "password"
    for i, ch in enumerate("hunter2"):
        c.key(float(i), char=ch)
    c.tick(100.0)
    c.key(8.0, key="enter")
    assert [e.data for e in out] == [{"text": "", "erase": 0, "enter": True, "hidden": "password"}]
    assert all(e.kind == TEXT for e in out)


def typed(c: TextComposer, text: str, t: float) -> float:
    """Types `text` into `c` a key every 0.1 s from `t`; returns the last key's time."""
    for ch in text:
        t += 0.1
        c.key(t, char=ch)
    return t


@pytest.mark.parametrize("text, held", [
    ("git comm", "comm"),  # an unfinished word: held until it is finished
    ("echo my words", "echo my words"),  # a line with echo: held whole until Enter
    ("use sk-proj-Ab3dEf", "sk-proj-Ab3dEf"),  # a secret's start
], ids=["unfinished-word", "echo-line", "secret-start"])
def test_due_says_when_tick_flushes_and_is_none_while_nothing_can_be_flushed_before_a_key(text, held):
    out: list[RawEvent] = []
    c = TextComposer(out.append)
    assert c.due() is None  # nothing typed
    last = typed(c, text, 1000.0)
    due = c.due()
    assert due == pytest.approx(1000.1 + 1.0)  # a second after the first key not flushed
    c.tick(due - 0.01)
    assert out == [] and c.due() == due  # not yet
    now = last + 5.0
    c.tick(now)
    stored = "".join(e.data["text"] for e in out)
    assert stored == text[: len(text) - len(held)]
    assert c.due() is None  # what is left waits for a key: the loop must not wake for it
    c.tick(now + 1.0)
    assert "".join(e.data["text"] for e in out) == stored  # indeed nothing more
    c.key(now + 2.0, char=" ")
    assert c.due() is not None  # a key: flushable again


def test_due_is_none_while_the_line_is_held_or_hidden():
    for attr, value in (("hold", True), ("hide_line", "password")):
        c = TextComposer(lambda _e: None)
        typed(c, "ordinary words here ", 1000.0)
        assert c.due() is not None
        setattr(c, attr, value)
        assert c.due() is None, attr


def test_the_watchers_loop_sleeps_to_its_next_look_while_the_typed_text_waits_for_a_key():
    """The loop's next look (`Watcher._next_look`): when the typed text is due, and an interval after the flush
    time while it waits for a key (it woke every flush, twice a second, for a word left unfinished)."""
    w = Watcher(None, Config(), [], flush_interval=0.5)
    start = time.time()
    typed(w.composer, "git comm", start - 0.8)  # keys 0.7 s ago to now
    next_flush = time.monotonic() + 0.5
    assert w._next_look(next_flush) == next_flush  # its first key is due 0.1 s from now: the flush time caps it
    w._tick(start + 10)  # "git " flushed, "comm" waits for its end
    assert [e.data["text"] for e in w.batch] == ["git "] and w.composer.due() is None
    w.batch.clear()  # written
    assert w._next_look(next_flush) == next_flush + 0.5  # the look for requests
    w.composer.key(time.time(), char="i")
    assert w._next_look(next_flush) < next_flush + 0.5


# -- a token split in two by a window switch -----------------------------------------------------------------------

def test_a_token_split_by_a_window_switch_is_stored_in_neither_half(proactive_home, terminal):
    """Half a token typed in a terminal, a look at the browser, the rest typed on coming back: the real pipeline
    flushes the composer at each focus change, and neither half reaches the database."""
    from .test_privacy import keys, run_pipeline, window

    halves = [("ghp_Ab3dEf6hIj", "9kLm2nOp5qRs8tUv1wXy4zAb3dEf6h"),  # a vendor prefix, then its random rest
              ("a8F3kd9QzXw2", "Lp0Rt5vB"),  # no prefix: 12 + 8 random characters
              ("Zq7Wm2Xk9Lp4Rt6Yv3Bn8Hs5", "Jd1")]  # the first half alone is recognised; a short rest
    for first, rest in halves:
        blob = "".join(run_pipeline([window("XTerm", "shell", "xterm", terminal.pid), *keys("export GH=" + first),
                                     window("Firefox", "Tokens - GitHub", "firefox"),
                                     window("XTerm", "shell", "xterm", terminal.pid), *keys(rest + " && make\n")]))
        assert "export GH=" in blob and "&& make" in blob
        for half in (first, rest):
            assert half not in blob, blob
        assert "[REDACTED:fragment]" in blob


@pytest.mark.parametrize("word", ["hello", "Tuesday", "getUserById2", "user_id2", "HttpClient2ConnectionManager",
                                  "sha256sum", "s3Bucket", "README.md", "2024-05-01", "v1.2.3", "/tmp/build2",
                                  "sk-learn", "key-value"])
def test_ordinary_words_and_identifiers_cut_by_a_window_switch_are_kept(proactive_home, terminal, word):
    from .test_privacy import keys, run_pipeline, window

    blob = "".join(run_pipeline([window("XTerm", "app.py - vim", "xterm", terminal.pid), *keys("call " + word),
                                 window("XTerm", "docs - less", "xterm", terminal.pid), *keys("thanks a lot\n")]))
    assert "call " + word in blob and "thanks a lot" in blob
    assert "REDACTED" not in blob


def test_a_plain_word_typed_after_a_cut_secret_is_kept_and_the_cut_ends_there():
    out: list[RawEvent] = []
    c = TextComposer(out.append)
    for ch in "token x9Kd3LmQ7":
        c.key(1.0, char=ch)
    c.flush()  # the window changed
    for ch in "Hello there":
        c.key(2.0, char=ch)
    c.key(2.0, key="enter")
    for ch in "ab3Xy9":  # a new line: no longer the first word after the cut (and too short to be a start)
        c.key(3.0, char=ch)
    c.flush()
    assert [e.data["text"] for e in out] == ["token [REDACTED:fragment]", "Hello there", "ab3Xy9"]
