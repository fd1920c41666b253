"""What accepting a proposal does: a web search for look-up tasks, otherwise an answer from the real model."""

from __future__ import annotations

import pytest

from assistant.help import do_task, search_url


@pytest.mark.parametrize(
    "task, url",
    [
        ("Search for python requests timeout retry", "https://duckduckgo.com/?q=python+requests+timeout+retry"),
        ("Look up pandas merge on multiple columns.", "https://duckduckgo.com/?q=pandas+merge+on+multiple+columns"),
        ("Find documentation for asyncio.gather", "https://duckduckgo.com/?q=asyncio.gather"),
        ("Suggest a fix for the TimeoutError in client.py", None),
    ],
)
def test_search_tasks(task, url):
    assert search_url(task) == url


def test_answer_from_the_default_model(default_model):
    context = [{"time": "1763800041.2", "event": "The user copies an error message starting 'TimeoutError: "
                                                 "timed out' from the terminal."}]
    result = do_task(default_model, context, "Explain the TimeoutError")
    assert result.kind == "answer" and result.text.strip() and len(result.text) <= 600
