"""Dictated observations (`assistant/dictation.py`): spoken punctuation written back, so a voice note about an
error gives the help its written form gives; English that only uses the words is left alone."""

from __future__ import annotations

import pytest

from proactive.assistant.dictation import written
from proactive.assistant.grounding import COMMAND, ERROR, ground


@pytest.mark.parametrize("spoken, text", [
    ("got ModuleNotFoundError colon No module named quote yamll unquote", "got ModuleNotFoundError: No module named 'yamll'"),
    ("it says Traceback (most recent call last) colon next line KeyError colon quote id unquote",
     "it says Traceback (most recent call last):\nKeyError: 'id'"),
    ("error reads cp colon cannot stat open quote a.txt close quote colon No such file or directory end of error",
     "error reads cp: cannot stat 'a.txt': No such file or directory"),
    ("um, so it prints, uh, Connection refused period Is the server running question mark",
     "so it prints, Connection refused. Is the server running?"),
    ("next line error open bracket E0599 close bracket colon no method", "\nerror[E0599]: no method"),
])
def test_spoken_marks_are_written(spoken, text):
    assert written(spoken) == text


@pytest.mark.parametrize("prose", [
    "The user reads about the colon in Python's slice syntax.",
    "The user copies 'SyntaxError: invalid syntax' after a period of editing main.py.",
    "A comma separated list of hosts is pasted into the terminal.",
    # pip's own mark under a failed build's output is printed, not spoken
    "      error: command 'gcc' failed: No such file or directory\n      [end of output]\n  note: This error originates "
    "from a subprocess",
])
def test_prose_that_names_a_mark_is_not_dictation(prose):
    assert written(prose) == prose


@pytest.mark.parametrize("spoken, message, command", [
    ("Speaker 1: um, so when I run pip install yamll it prints, uh, ERROR colon No matching distribution found for "
     "yamll\nSpeaker 1: that's it, that's the whole thing", "ERROR: No matching distribution found for yamll",
     "pip install yamll"),
    ("Transcript (Talon): command was cargo run error reads error open bracket E0425 close bracket colon cannot find "
     "value quote totl unquote in this scope end of error", "error[E0425]: cannot find value 'totl' in this scope",
     "cargo run"),
    ("[dictation 09:12] note to self, ran python3 sync.py in Kitty, got ModuleNotFoundError colon No module named "
     "quote boto4 unquote", "ModuleNotFoundError: No module named 'boto4'", "python3 sync.py"),
])
def test_a_dictated_error_and_command_are_read(spoken, message, command):
    objects = ground([{"time": "1", "event": spoken}]).objects
    assert [o.text for o in objects if o.kind == ERROR] == [message], objects
    assert [o.text for o in objects if o.kind == COMMAND] == [command], objects


def test_a_programs_own_words_for_a_mark_stay():
    """Python asks 'Perhaps you forgot a comma?' on two lines of a post: the word is the message's, not a mark."""
    post = ("## SyntaxError: invalid syntax. Perhaps you forgot a comma?\n\nOutput:\n  File \"/srv/a.py\", line 2\n"
            "    print(\"x:\" y)\nSyntaxError: invalid syntax. Perhaps you forgot a comma?")
    assert written(post) == post


def test_a_dictated_traceback_keeps_its_lines_and_its_code():
    """'…, then …' reads out the next line, a spoken backtick quote is code: the help reads them as written."""
    assert written("Speaker 1: um, so it prints, uh, pirnt(quote hi unquote), then ^^^^^, then NameError colon name "
                   "quote pirnt unquote is not defined") == \
        "Speaker 1: so it prints, pirnt('hi')\n^^^^^\nNameError: name 'pirnt' is not defined"
    assert written("got error[E0425] colon cannot find value backtick totl backtick in this scope end of error") == \
        "got error[E0425]: cannot find value `totl` in this scope"
    prose = "The user runs make, then pytest, then opens report.html in Firefox."
    assert written(prose) == prose
