"""The errors a sentence quotes, however it is worded (`assistant/quotes.py`), and the help a replayed sentence
gives: the same as the live path's for the same error, in phrasings of several ecosystems."""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from pathlib import Path

import pytest

from proactive.assistant.grounding import COMMAND, ERROR, ground
from proactive.assistant.quotes import quotes, said_errors, unquoted_command

ROOT = Path(__file__).resolve().parent.parent
NUMPYY = "ModuleNotFoundError: No module named 'numpyy'"


@pytest.mark.parametrize("sentence, expected", [
    ("The user sees 'ModuleNotFoundError: No module named 'numpyy'' in the terminal.", [NUMPYY]),
    ("It says “ModuleNotFoundError: No module named ‘numpyy’”.", ["ModuleNotFoundError: No module named ‘numpyy’"]),
    ("Le terminal affiche « npm error code ERESOLVE » après « npm install ».", ["npm error code ERESOLVE",
                                                                           "npm install"]),
    ("The user runs `cargo build`: `error[E0425]: cannot find value `total` in this scope`.",
     ["cargo build", "error[E0425]: cannot find value `total` in this scope"]),
    ("ld prints '/usr/bin/ld: in function `main':' then 'undefined reference to `sqrt''.",
     ["/usr/bin/ld: in function `main':", "undefined reference to `sqrt'"]),
    ("Don't touch the users' files: 'fatal: not a git repository'.", ["fatal: not a git repository"]),
    ('output: "File \\"app.py\\", line 2" and more', ['File \\"app.py\\", line 2']),
    ('用户输入"你好"。', ["你好"]),
])
def test_every_quote_style_is_read_whole_with_the_quotes_it_holds(sentence, expected):
    """Plain, typographic, guillemets and backticks; a quote inside a quote of the same mark (an error that
    quotes a name) and GNU's `name' inside a plain quote do not end it; apostrophes and escaped marks are text."""
    assert [q.text for q in quotes(sentence)] == expected


@pytest.mark.parametrize("sentence, lines", [
    # the first and last lines, in double quotes
    ('The user copies an error message starting "Traceback (most recent call last):" and ending "' + NUMPYY
     + '" from the terminal.', ["Traceback (most recent call last):", NUMPYY]),
    # several quotes: the command run is not a line of its error
    ("The developer runs 'go run .', which prints 'main.go:8:2: no required module provides package x/y; to add "
     "it:' followed by 'go get x/y'.", ["main.go:8:2: no required module provides package x/y; to add it:",
                                         "go get x/y"]),
    # unquoted after a colon, and after "got"
    ('Running psql fails with: psql: error: FATAL:  role "dev" does not exist', ['psql: error: FATAL:  role "dev" '
                                                                                  'does not exist']),
    ("I ran python3 -c 'import numpyy' and got " + NUMPYY, [NUMPYY]),
    # a whole traceback flattened into one line: its lines back, the frame and its code indented as printed
    ('Terminal output: Traceback (most recent call last): File "/home/dev/p/fetch.py", line 1, in <module> '
     "import requests ModuleNotFoundError: No module named 'requests'",
     ["Traceback (most recent call last):", '  File "/home/dev/p/fetch.py", line 1, in <module>',
      "    import requests", "ModuleNotFoundError: No module named 'requests'"]),
    # a log line's JSON string, its line breaks and quote marks escaped
    ('cmd: `python3 a.py` output: "Traceback (most recent call last):\\n  File \\"/x/a.py\\", line 1, in <module>'
     '\\nKeyError: \'id\'"', ["Traceback (most recent call last):", '  File "/x/a.py", line 1, in <module>',
                              "KeyError: 'id'"]),
])
def test_an_error_is_read_as_its_lines_in_any_wording(sentence, lines):
    said = said_errors(sentence)
    assert len(said) == 1
    assert [ln.strip() for ln in said[0].text.splitlines()] == [ln.strip() for ln in lines]
    if lines[0].startswith("Traceback"):  # frames indented as Python prints them, for the rules that read them
        assert said[0].text.splitlines()[1:3] == lines[1:3] or len(lines) < 4


def test_words_that_go_on_with_the_sentence_are_no_unquoted_error_and_searches_are_no_error():
    assert said_errors("The user searches on Google for 'python error handling'.") == []
    assert said_errors("The user opens the page titled 'Error handling in Go - go.dev'.") == []
    assert [s.text for s in said_errors("The error message starting \"fatal: bad revision\" appears.")] == [
        "fatal: bad revision"]


@pytest.mark.parametrize("sentence, command", [
    ("I typed gti status and bash answered 'bash: gti: command not found'.", "gti status"),
    ("Running psql -U postgres fails with: psql: error: FATAL: Peer authentication failed", "psql -U postgres"),
    ("The user ran into 'TypeError: x is not a function'.", None),
])
def test_a_command_run_is_read_even_unquoted(sentence, command):
    assert unquoted_command(sentence) == command


def test_grounding_reads_the_error_and_the_command_of_a_sentence_worded_by_others():
    g = ground([{"time": "1", "event": "After running “python3 -c 'import numpyy'”, the terminal shows “" + NUMPYY
                                       .replace("'numpyy'", "‘numpyy’") + "”."}])
    assert g.first(COMMAND).text == "python3 -c 'import numpyy'"
    assert "numpyy" in g.first(ERROR).text and g.activity == "debugging"


def test_our_own_sentence_is_read_as_before():
    """The watcher's wording keeps its own reading: one error per copied message, named by its error line."""
    event = ("The user copies an error message starting 'Traceback (most recent call last):' and ending '" + NUMPYY
             + "' from the terminal.")
    errors = ground([{"time": "1", "event": event}]).of(ERROR)
    assert [e.text for e in errors] == [NUMPYY]
    assert errors[0].detail == "Traceback (most recent call last):\n    " + NUMPYY


def _help_quality():
    spec = importlib.util.spec_from_file_location("help_quality", ROOT / "bench" / "help_quality.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["help_quality"] = module
    spec.loader.exec_module(module)
    return module


def test_replayed_phrasings_give_the_live_help(tmp_path, monkeypatch):
    """Phrasings of cases of several ecosystems (Python, Go, Docker, C builds, PostgreSQL, the shell, Rust), in
    every style: a one-sentence session's help has the case's specific next step, as the live path's has."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    bench = _help_quality()
    cases = {f"{path.stem}:{i}": case for path in sorted((ROOT / "bench" / "help_cases").glob("*.toml"))
             for i, case in enumerate(tomllib.loads(path.read_text(encoding="utf-8"))["case"], 1)}
    fixture = ROOT / "tests" / "fixtures" / "help_phrasings_small.jsonl"
    rows = bench.read_phrasings(fixture, cases)
    assert len({json.loads(line)["file"] for line in fixture.read_text().splitlines()}) >= 6
    report = bench.compare_phrasings(rows, cases, str(tmp_path))
    assert report["misses"] == [] and report["same"] == report["phrasings"] == len(rows)
