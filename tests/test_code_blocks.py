"""Code blocks written in LaTeX, Org and Jira markup read as Markdown fences, so a message quoted in one is read
whole and the report's words around it as the writer's."""

from __future__ import annotations

import pytest

from proactive.assistant.code_blocks import fenced
from tests.bench_support import help_quality


@pytest.mark.parametrize("text, expected", [
    ("Running \\verb|make test| printed\n\\begin{verbatim}\nmake: *** No rule to make target 'test'.  Stop.\n"
     "\\end{verbatim}", "Running `make test` printed\n```\nmake: *** No rule to make target 'test'.  Stop.\n```"),
    ("\\begin{lstlisting}[language=bash, caption={Output}]\nx\n\\end{lstlisting}", "```\nx\n```"),
    ("* TODO fix\n  #+RESULTS:\n  : Traceback (most recent call last):\n  :   File \"a.py\", line 1\n  - [ ] later",
     "* TODO fix\n```\nTraceback (most recent call last):\n  File \"a.py\", line 1\n```\n  - [ ] later"),
    ("#+begin_src shell\nls\n#+end_src", "```\nls\n```"),
    ("ran {{npm ci}}:\n{noformat}\nnpm ERR! code EUSAGE\n{noformat}", "ran `npm ci`:\n```\nnpm ERR! code EUSAGE\n```"),
])
def test_other_markups_code_becomes_fences_and_backticks(text, expected):
    assert fenced(text) == expected


@pytest.mark.parametrize("text", [
    "The user edits main.tex in TeXstudio.",
    "A dict {'a': 1} is printed; the set {x} is empty.",
    "price: 10 {EUR}",
])
def test_text_without_markup_is_left_as_it_is(text):
    assert fenced(text) == text


@pytest.mark.parametrize("sentence, expect", [
    # a lab report: the command in \verb, the message in a listing, a sentence of the report after it
    ("\\subsection*{Exercise 2}\nRunning \\verb|sudo systemctl restart billing| did not succeed; the terminal showed\n"
     "\\begin{lstlisting}[basicstyle=\\small]\nWarning: The unit file, source configuration file or drop-ins of "
     "billing.service changed on disk. Run 'systemctl daemon-reload' to reload units.\n\\end{lstlisting}\n"
     "Because of this, the remaining measurements could not be taken.", ["daemon-reload"]),
    # an Org note: the results behind ': '
    ("* NEXT scraper: broken\n  output of =python3 scrape.py=:\n  #+RESULTS:\n  : Traceback (most recent call last):\n"
     "  :   File \"/home/ana/scrape.py\", line 1, in <module>\n  :     import yaml\n"
     "  : ModuleNotFoundError: No module named 'yaml'\n  - [ ] look into it", ["pip install pyyaml"]),
])
def test_the_help_is_read_from_a_message_in_another_markups_block(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got
