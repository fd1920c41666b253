"""The text composer: reconstruction (backspace, enter), safe partial flushes, and secrets never split."""

from __future__ import annotations

import pytest

from proactive.watcher.compose import TextComposer
from proactive.watcher.episodes import EpisodeBuilder
from proactive.watcher.events import TEXT, WINDOW, RawEvent


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
