"""What accepting a proposal does: a web search opened through the real `webbrowser` (BROWSER is a script that
records the URL), the person's own history recalled from a real store (FTS5, kept in step with purge), and a
model answer only when the model is capable or the answer is grounded."""

from __future__ import annotations

import json
import time
import webbrowser
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlite_utils

from proactive.assistant.candidates import Candidate, build
from proactive.assistant.grounding import ground
from proactive.assistant.help import NOTHING, ask, do_task, plan
from proactive.assistant.validate import rejection
from proactive.models.openai_http import OpenAICompatible
from proactive.watcher.episodes.builder import build_episodes
from proactive.watcher.events import RawEvent
from proactive.watcher.store.database import Store, migrations
from proactive.watcher.store.purging import retention_cutoff

from .conftest import FIXTURES
from .models_support import FIX_TASK, assistant_replies

CONTEXT = [row["observation"] for row in json.loads((FIXTURES / "session_small.json").read_text())]
ERROR = "requests.exceptions.ReadTimeout: HTTPSConnectionPool"
ERROR_URL = "https://duckduckgo.com/?q=requests.exceptions.ReadTimeout%3A+HTTPSConnectionPool"


def candidate(action: str) -> Candidate:
    return next(c for c in build(ground(CONTEXT)) if c.action == action)


@pytest.fixture
def utc() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TZ", "UTC")
        time.tzset()
        yield
    time.tzset()


@pytest.fixture
def empty_store(proactive_home: Path) -> Path:
    Store().close()
    return proactive_home / "proactive.db"


@pytest.fixture
def history(proactive_home: Path) -> Path:
    """The person's store: raw events of two earlier visits to the same error (and of the current context)
    turned into episodes by the real episode builder."""
    store = Store()
    events = json.loads((FIXTURES / "history_events.json").read_text())
    store.add_events([RawEvent(e["source"], e["kind"], e["data"], ts=e["ts"]) for e in events])
    store.add_episodes(e.row() for e in build_episodes(store.iter_events()))
    store.close()
    return proactive_home / "proactive.db"


# -- which help a task gets ---------------------------------------------------------------------------------

@pytest.mark.parametrize("task, action, kinds, subject", [
    # an error's specific next step (assistant/diagnose), when one is known, comes first
    (candidate("explain_error_file").task, "explain_error_file", ("fix", "history", "search", "answer"), ERROR),
    (candidate("code_for_query").task, "code_for_query", ("search", "history", "answer"),
     "python requests timeout retry"),
    (candidate("review_file").task, "review_file", ("history", "answer"), "client.py"),
    # free-written tasks (a capable model's) have no action id: inferred from what they name
    ("Explain the ReadTimeout error 'requests.exceptions.ReadTimeout: HTTPSConnectionPool'", None,
     ("fix", "history", "search", "answer"), ERROR),
    ("Search for python requests retry backoff", None, ("search", "history", "answer"),
     "python requests retry backoff"),
    ("Write a retry wrapper for client.py", None, ("history", "answer"), "client.py"),
    ("Tidy up the desk", None, ("answer",), None),
])
def test_the_task_action_chooses_the_help(task, action, kinds, subject):
    got_kinds, got_subject = plan(task, ground(CONTEXT), action)
    assert got_kinds == kinds
    assert (got_subject.text if got_subject else None) == subject


# -- search -------------------------------------------------------------------------------------------------

def test_search_opens_the_error_in_the_browser(proactive_home, browser):
    c = candidate("explain_error_file")
    result = do_task(None, CONTEXT, c.task, c.action, search="on")
    assert browser.read_text().splitlines() == [ERROR_URL]
    assert result.url == ERROR_URL and "search" in result.parts and result.kind == "search"
    assert f"Sent '{ERROR}' to duckduckgo.com (web search), opened in your browser." in result.text


def test_search_asked_but_nobody_to_ask_gives_only_the_link(proactive_home, browser):
    """web_search = "ask" (the default) where nothing can ask (headless): nothing is sent, the person is told
    what would be sent where, how to allow it, and the link."""
    c = candidate("explain_error_file")
    for result in (do_task(None, CONTEXT, c.task, c.action), do_task(None, CONTEXT, c.task, c.action, search="ask")):
        assert not browser.exists()  # the browser was never started
        assert "search" not in result.parts and result.url == ERROR_URL
        line = next(ln for ln in result.text.splitlines() if "web search" in ln)
        assert line == (f"A web search would send '{ERROR}' to duckduckgo.com; it was not opened. To allow web "
                        f'searches, set web_search = "on" in config.toml; or open it yourself: {ERROR_URL}')
        assert "Sent '" not in result.text


def test_search_off_sends_nothing_and_says_so(proactive_home, browser):
    c = candidate("explain_error_file")
    result = do_task(None, CONTEXT, c.task, c.action, search="off")
    assert not browser.exists()
    assert "search" not in result.parts and result.url is None and "duckduckgo" not in result.text
    assert 'No web search: web_search = "off" in config.toml, so nothing was sent.' in result.text


def test_search_task_opens_its_own_query(proactive_home, browser):
    result = do_task(None, [], "Search for python requests retry backoff.", search="on")
    assert browser.read_text().splitlines() == ["https://duckduckgo.com/?q=python+requests+retry+backoff"]
    assert result.parts == ("search",) and "Your history could not be read" in result.text  # no store yet


def test_without_a_browser_the_link_is_given(proactive_home, monkeypatch):
    monkeypatch.setenv("BROWSER", "/bin/false")  # a browser that fails
    webbrowser.register_standard_browsers()
    try:
        result = do_task(None, CONTEXT, candidate("summarise_results").task, "summarise_results", search="on")
    finally:
        monkeypatch.delenv("BROWSER")
        webbrowser.register_standard_browsers()
    assert "No browser could be opened, so nothing was sent" in result.text and result.url in result.text
    assert "search" not in result.parts


# -- history ------------------------------------------------------------------------------------------------

def test_history_recalls_the_earlier_times(history, browser, utc):
    """Two earlier visits to the same error (one with two copies in it, told once); the current context's own
    episode, which mentions it too, is left out."""
    c = candidate("explain_error_file")
    result = do_task(None, CONTEXT, c.task, c.action, history)
    assert result.history == (  # with what they did next: the page they read, the line they changed
        "You met this on Wednesday 19 Nov at 08:13 in the terminal; then you read 'requests ReadTimeout error'.",
        "You met this on Sunday 16 Nov at 13:33 in the terminal; then you typed 'resp = requests.get(url, "
        "timeout=30)' in client.py in Visual Studio Code.",
    )
    assert result.parts == ("history",)  # web_search = "ask" by default: no search without consent
    assert result.text.startswith(f"Found 2 earlier times you met '{ERROR}':\n" + "\n".join(result.history))
    assert do_task(None, CONTEXT, c.task, c.action).history == result.history  # default: the person's store


@pytest.mark.parametrize("event, following, did", [
    ("The user copies an error message starting 'E: Unable to locate package foo' from the terminal. The user "
     "types 'apt search foo' and presses Enter in the terminal. The user types 'sudo apt install foo-utils' and "
     "presses Enter in the terminal.", None, ["ran 'apt search foo'", "ran 'sudo apt install foo-utils'"]),
    ("The user copies an error message starting 'E: Unable to locate package foo' from the terminal.",
     "The user switches to Firefox and searches on Google for 'ubuntu foo package'. The user switches to Firefox "
     "and views the page 'Installing foo on Ubuntu - Ask Ubuntu'.",
     ["searched for 'ubuntu foo package'", "read 'Installing foo on Ubuntu'"]),
    ("The user types 'ls' and presses Enter in the terminal. The user copies an error message starting "
     "'E: Unable to locate package foo' from the terminal.", None, []),  # before it: not what followed
])
def test_history_says_what_was_done_next(event, following, did):
    from proactive.assistant.recall import did_next

    episode = {"event": event, "next": {"event": following} if following else None}
    assert did_next(episode, "E: Unable to locate package foo") == did


def test_history_says_when_there_is_nothing(empty_store, browser):
    result = do_task(None, CONTEXT, candidate("review_file").task, "review_file")
    assert result.parts == ("history",) and result.history == ()
    assert result.text == "Your history has no earlier mention of 'client.py'."


def test_nothing_to_do_is_said(proactive_home):
    result = do_task(None, CONTEXT, "Tidy up the desk")
    assert (result.kind, result.text) == ("error", NOTHING)


# -- the history index follows the episodes -----------------------------------------------------------------

def trigrams(word: str) -> list[bytes]:
    return [word[i:i + 3].lower().encode() for i in range(len(word) - 2)]


def episode(start: float, event: str, raw_id: int) -> dict:
    return {"start": start, "end": start + 5, "app": "XTerm", "title": "build shell", "event": event,
            "sentences": [event], "first_raw_id": raw_id, "last_raw_id": raw_id}


def test_purge_and_delete_reach_the_index(proactive_home):
    store = Store()
    now = time.time()
    store.add_episodes([episode(now - 10 * 86400, "The user copies 'QZXJVWK timed out' from the terminal.", 1),
                        episode(now - 60, "The user copies 'JXQZWVB timed out' from the terminal.", 2),
                        episode(now - 30, "The user copies 'VKZQXJW timed out' from the terminal.", 3)])
    assert [e["id"] for e in store.search_episodes("qzxjvwk", now)] == [1]
    assert [e["id"] for e in store.search_episodes("TIMED OUT", now)] == [3, 2, 1]
    store.purge(before=retention_cutoff(7))
    assert store.search_episodes("QZXJVWK", now) == []
    store.delete_episode(2)
    assert store.search_episodes("JXQZWVB", now) == []
    assert [e["id"] for e in store.search_episodes("timed out", now)] == [3]
    store.checkpoint()
    blob = (proactive_home / "proactive.db").read_bytes()
    assert not any(t in blob for t in trigrams("QZXJVWK") + trigrams("JXQZWVB"))  # not even in old segments
    store.purge()
    assert store.search_episodes("VKZQXJW", now) == []
    store.close()
    assert not any(t in (proactive_home / "proactive.db").read_bytes() for t in trigrams("VKZQXJW"))


def test_index_covers_episodes_stored_before_it(proactive_home):
    path = proactive_home / "old.db"
    old = sqlite_utils.Database(path)  # the schema as it was before the index
    migrations.apply(old, stop_before="m004_episodes_fts")
    old["episodes"].insert(dict(episode(100.0, "The user searches on Google for 'pandas merge' in Firefox.", 1),
                                sentences="[]"))
    old.close()
    store = Store(path)
    assert [e["event"] for e in store.search_episodes("pandas merge", 1000.0)] == [
        "The user searches on Google for 'pandas merge' in Firefox."]
    store.close()


# -- answer ---------------------------------------------------------------------------------------------------

def test_builtin_model_text_is_shown_only_when_grounded(history, browser, default_model):
    """The built-in model's answer, asked the same way do_task asks it, appears only if the validator passes it;
    otherwise the window says what was done and why the answer is left out."""
    c = candidate("explain_error_file")
    raw, _ = ask(default_model, CONTEXT, c.task)
    result = do_task(default_model, CONTEXT, c.task, c.action, history, search="on")
    reason = rejection(raw, ground(CONTEXT)) if raw else "no answer"
    if reason is None:
        assert result.answer == raw and result.text.startswith(raw) and result.kind == "answer"
    else:
        assert result.answer is None and raw not in result.text
        assert result.dropped not in result.text and "not shown" not in result.text  # no internal reasons
    assert result.parts[:2] == ("history", "search") and browser.read_text().splitlines() == [ERROR_URL]


def test_ungrounded_answer_of_a_small_model_is_never_shown(empty_store, browser, scripted):
    scripted.answer_with(lambda request: json.dumps({"answer": "The user switches to main.rs and fixes it."}))
    model = OpenAICompatible(scripted.url, "m")
    model.capable = False  # as the built-in model
    result = do_task(model, CONTEXT, candidate("summarise_results").task, "summarise_results", search="on")
    assert result.answer is None and result.dropped == "narrates the user"
    assert "main.rs" not in result.text and "narrates" not in result.text  # the reason is recorded, not shown
    assert result.parts == ("search", "history")


def test_capable_model_answer_comes_first(empty_store, browser, scripted):
    """A free-written task naming an error: error help (history, search), and the capable model's answer."""
    scripted.answer_with(assistant_replies())
    context = [{"time": "1763800041.2", "event": "The user copies an error message starting 'TimeoutError: "
                                                 "timed out' from the terminal."}]
    result = do_task(OpenAICompatible(scripted.url, "m"), context, FIX_TASK, search="on")
    assert result.parts == ("history", "search", "answer") and result.kind == "answer"
    assert result.text.startswith("TimeoutError: timed out means the server was slow: requests.get(url, timeout=30).\n\n")
    assert browser.read_text().splitlines() == ["https://duckduckgo.com/?q=TimeoutError%3A+timed+out"]
    stored = json.loads(json.dumps(result.to_json()))
    assert stored["kind"] == "answer" and stored["text"] == result.text and stored["url"] == result.url


# -- a specific next step (assistant/diagnose) ------------------------------------------------------------------

TRACEBACK = """Traceback (most recent call last):
  File "/home/dev/weather/fetch.py", line 3, in <module>
    import reqests
ModuleNotFoundError: No module named 'reqests'"""


@pytest.mark.parametrize("command, error, offer_has, help_has", [
    ("python3 fetch.py", TRACEBACK, "'requests'", ["pip install requests", "fetch.py"]),
    ("pip install flask", "error: externally-managed-environment\n\n× This environment is externally managed\n"
     "╰─> To install Python packages system-wide, try apt install\n    python3-xyz", "virtual environment",
     ["python3 -m venv .venv", "pip install flask"]),
    ("pip install psycopg2", "Error: pg_config executable not found.\n\npg_config is required to build psycopg2 "
     "from source.", "libpq-dev", ["sudo apt install libpq-dev"]),
])
def test_a_copied_error_gets_the_next_step_its_offer_names(proactive_home, browser, command, error, offer_has,
                                                           help_has):
    """As live use: the typed command and the copied error become an episode; the context keeps the whole copy
    (the episode quotes its first and last lines); the built-in model's offer names the step, and Accept gives it
    with its command, without a web search."""
    from proactive.assistant.live import recent_context
    from proactive.watcher.events import CLIPBOARD, TEXT, WINDOW

    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "bash", "process": "xterm"}, ts=100.0),
                      RawEvent("keyboard", TEXT, {"text": command, "enter": True}, ts=101.0),
                      RawEvent("clipboard", CLIPBOARD, {"text": error, "length": len(error), "truncated": False},
                               ts=104.0)])
    context = recent_context(store)[0]
    store.close()
    assert context[-1]["copies"] == [error]
    offers = [c for c in build(ground(context), writes=False) if c.action == "fix_error"]
    assert offers and offer_has in offers[0].message, [c.message for c in build(ground(context), writes=False)]
    result = do_task(None, context, offers[0].task, offers[0].action, search="on")
    assert result.parts[0] == "fix" and result.url is None and not browser.exists()  # no browser opened
    for piece in help_has:
        assert piece in result.text, result.text
    assert any(step["command"] for step in result.steps)


def test_without_a_known_step_the_built_in_model_promises_only_what_accept_gives(proactive_home):
    context = [{"time": "1", "event": "The user copies an error message starting 'FrobnicationError: the widget "
                                      "refused' from the terminal."}]
    offers = build(ground(context), writes=False)
    assert offers and not any(c.action == "fix_error" for c in offers)
    assert all("explanation" not in c.message and "fix" not in c.message for c in offers), offers
    assert "explanation and a fix" in build(ground(context), writes=True)[0].message  # a model that can write


SEARCHED = "The user searches on Google for 'rust borrow checker lifetimes' in Firefox."
READING = "The user views the page 'Understanding Ownership - The Rust Programming Language' in Firefox."
WRITING_TOPIC = ("The user switches to notes.md in Typora. The user types '## Ferry timetables in winter' and "
                 "presses Enter in notes.md in Typora.")


@pytest.mark.parametrize("event, subject", [
    (SEARCHED, "rust borrow checker lifetimes"),  # the results they just searched
    (READING, "Understanding Ownership"),  # the page they are reading
    (WRITING_TOPIC, "Ferry timetables in winter"),  # the sentence they just typed (a search on it: judged useless)
])
def test_the_built_in_model_does_not_offer_what_is_already_on_screen(event, subject):
    """Without a model that writes, a search offer about a query just searched gives nothing new, unless the
    history holds an earlier time (then Accept shows it); a model that writes answers. The page being read is on
    their screen: nothing about it then, whatever the model or the history (the annotators wanted nothing there);
    once they turn back to their work, it is."""
    context = [{"time": "1", "event": event}]
    g = ground(context)

    def about(offers: list) -> list:
        return [c for c in offers if subject in c.task]

    assert about(build(g, writes=False)) == []
    assert about(build(g, writes=False, recalls=lambda obj: False)) == []
    remembered = about(build(g, writes=False, recalls=lambda obj: subject in obj.text))
    if event == READING:
        assert remembered == [] and about(build(g, writes=True)) == []
        back = ground([*context, {"time": "2", "event": "The user switches to main.rs in Visual Studio Code."}])
        assert about(build(back, writes=True)), build(back, writes=True)
        return
    assert remembered and all("before" in c.message or "earlier" in c.message for c in remembered), remembered
    assert about(build(g, writes=True))


@pytest.mark.parametrize("event, action", [
    ("The user copies an error message starting 'FrobnicationError: the widget refused' from the terminal.",
     "explain_error"),
])
def test_a_search_the_person_has_not_made_is_still_offered(event, action):
    offers = build(ground([{"time": "1", "event": event}]), writes=False)
    assert any(c.action == action for c in offers), [c.action for c in offers]


@pytest.mark.parametrize("copied", [
    "You are in 'detached HEAD' state. You can look around, make experimental\nchanges and commit them",
    "cp: -r not specified; omitting directory 'photos'",
])
def test_a_copy_without_an_error_word_is_an_error_when_a_next_step_is_known(copied):
    """The episode calls it a plain copy (no error word in it); the grounding still offers its next step."""
    event = f"The user copies '{copied.splitlines()[0][:60]}…' from the terminal."
    offers = build(ground([{"time": "1", "event": event, "copies": [copied]}]), writes=False)
    assert offers and offers[0].action == "fix_error", offers
    plain = build(ground([{"time": "1", "event": "The user copies 'def main(): return 0' from the terminal.",
                           "copies": ["def main(): return 0"]}]), writes=False)
    assert not any(c.action == "fix_error" for c in plain)


@pytest.mark.parametrize("searched, typed, offer_has, help_has", [
    ("git rebase squash commits", "git rebase -i HEAD~3", "git rebase (Reapply commits",
     ["git-rebase: Reapply commits", "man git-rebase"]),
    ("tar extract tgz", "sudo tar xzf backup.tgz", "tar (", ["tar: ", "man tar"]),
])
def test_a_command_looked_up_gets_what_its_manual_says(proactive_home, searched, typed, offer_has, help_has):
    """Local documentation (man-db's whatis): for a command the person looked up, the offer names the manual's
    summary, Accept shows it."""
    import shutil

    if shutil.which("man") is None:
        pytest.fail("man-db is needed: install it with packaging/setup.sh test")
    Store().close()
    context = [{"time": "0", "event": f"The user searches on Google for '{searched}' in Firefox."},
               {"time": "1", "event": f"The user types '{typed}' and presses Enter in the terminal."}]
    [offer] = [c for c in build(ground(context), writes=False) if c.action == "command_docs"]
    assert offer_has in offer.message, offer.message
    result = do_task(None, context, offer.task, offer.action)
    assert result.parts[0] == "docs" and all(piece in result.text for piece in help_has), result.text


def test_a_script_of_ones_own_has_no_manual_offer(proactive_home):
    context = [{"time": "1", "event": "The user types './deploy-nightly.sh --fast' and presses Enter in the "
                                      "terminal."}]
    assert not any(c.action == "command_docs" for c in build(ground(context), writes=False))


def test_every_kind_of_help_an_action_plans_is_registered():
    """`do_task` runs each planned kind from `HELP_KINDS`: an action naming a kind nobody registered would fail at
    its first Accept, so it fails here."""
    from proactive.assistant.candidates import ACTIONS
    from proactive.assistant.help import ANSWER, FIX, HELP_KINDS

    planned = {kind for action in ACTIONS for kind in action.help} | {FIX, ANSWER}
    assert planned <= set(HELP_KINDS), planned - set(HELP_KINDS)
