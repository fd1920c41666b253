"""Code blocks written in LaTeX, Org and Jira markup read as Markdown fences, so a message quoted in one is read
whole and the report's words around it as the writer's."""

from __future__ import annotations

import pytest

from proactive.assistant.code_blocks import ascii_unboxed, fenced, unbarred, unboxed, unmarked, unnumbered
from tests.bench_support import help_quality


@pytest.mark.parametrize("text, expected", [
    ("Running \\verb|make test| printed\n\\begin{verbatim}\nmake: *** No rule to make target 'test'.  Stop.\n"
     "\\end{verbatim}", "Running `make test` printed\n```\nmake: *** No rule to make target 'test'.  Stop.\n```"),
    ("\\begin{lstlisting}[language=bash, caption={Output}]\nx\n\\end{lstlisting}", "```\nx\n```"),
    ("* TODO fix\n  #+RESULTS:\n  : Traceback (most recent call last):\n  :   File \"a.py\", line 1\n  - [ ] later",
     "* TODO fix\n```\nTraceback (most recent call last):\n  File \"a.py\", line 1\n```\n  - [ ] later"),
    ("#+begin_src shell\nls\n#+end_src", "```\nls\n```"),
    ("ran {{npm ci}}:\n{noformat}\nnpm ERR! code EUSAGE\n{noformat}", "ran `npm ci`:\n```\nnpm ERR! code EUSAGE\n```"),
    # a wiki's and a page's HTML: inline code, nowiki, a preformatted block
    ("I get <code><nowiki>E: x</nowiki></code> after <tt>apt install x</tt>", "I get `E: x` after `apt install x`"),
    ('<syntaxhighlight lang="console">\n$ make\n</syntaxhighlight>', "\n```\n\n$ make\n\n```\n"),
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


@pytest.mark.parametrize("text, expected", [
    # a gist's tab after each number, a pastebin's right-aligned numbers, bat's box rule
    ("out.txt\n1\tTraceback (most recent call last):\n2\t  File \"a.py\", line 1\n3\tNameError: x",
     'out.txt\nTraceback (most recent call last):\n  File "a.py", line 1\nNameError: x'),
    ("  9 a\n 10   b\n 11 c", "a\n  b\nc"),
    ("Paste:\n\n 1 │ E: Unable to locate package x\n", "Paste:\n\nE: Unable to locate package x\n"),
    # a paste's numbers before a compiler's own gutter: the paste's go, the gutter stays
    ("  3 error[E0425]: x\n  4  --> src/a.rs:2:5\n  5   |\n  6 2 |     y();\n  7   |     ^",
     "error[E0425]: x\n --> src/a.rs:2:5\n  |\n2 |     y();\n  |     ^"),
    # one line numbered 1 before a tab (a gist's file of one line)
    ("output.txt\n1\tfatal: not a git repository\n@ana commented", "output.txt\nfatal: not a git repository\n@ana commented"),
])
def test_a_paste_sites_line_numbers_are_left_out(text, expected):
    assert unnumbered(text) == expected


@pytest.mark.parametrize("text", [
    "1 passed in 0.2s",  # one numbered line that is no paragraph of its own number: a count
    "3 errors\n5 warnings\n7 notes",  # counts, not lines numbered one after another
    "src/main.rs:4:5\n  |\n4 |     x\n5 |     y\n6 |     z",  # a compiler's gutter is its message's own
])
def test_numbers_that_number_no_lines_stay(text):
    assert unnumbered(text) == text


def test_a_box_around_lines_is_left_out():
    box = "plan:\n╷\n│ Error: x failed\n│\n│   with a.b,\n╵\ndone"
    assert unboxed(box) == "plan:\nError: x failed\n\n  with a.b,\ndone"
    panel = "╭─ Error ─────╮\n│ No such command 'buid'. │\n│ Try 'app --help'. │\n╰─────────────╯"
    assert unboxed(panel) == "No such command 'buid'.\nTry 'app --help'."
    assert unboxed("a │ b") == "a │ b"  # one line with a bar in it: no box


@pytest.mark.parametrize("sentence, expect", [
    # a wiki's talk page: the message and the command in <code><nowiki>, signatures after each reply
    ("== Build ==\nThe install step fails for me. [[User:Li|Li]] ([[User talk:Li|talk]]) 09:12, 3 March 2026 (UTC)\n"
     ":Which message? [[User:Ana|Ana]] ([[User talk:Ana|talk]]) 09:40, 3 March 2026 (UTC)\n::It says <code><nowiki>"
     "E: Unable to locate package ripgrepp</nowiki></code> after <code>sudo apt install ripgrepp</code>. "
     "[[User:Li|Li]] ([[User talk:Li|talk]]) 10:02, 3 March 2026 (UTC)", ["sudo apt update"]),
    # a paste site's numbered lines under its header
    ("Entry 42 - paste.example.org\n\nPoster: li  Language: Text\n\n  1 Traceback (most recent call last):\n"
     "  2   File \"/home/li/fetch.py\", line 1, in <module>\n  3     import requests\n  4 ModuleNotFoundError: No "
     "module named 'requests'", ["pip install requests"]),
    # Terraform's diagnostic box after a provisioner's relayed lines
    ("null_resource.seed: Provisioning with 'local-exec'...\nnull_resource.seed (local-exec): Executing: "
     "[\"/bin/sh\" \"-c\" \"node server.js\"]\nnull_resource.seed (local-exec): Error: Cannot find module "
     "'express'\n\n╷\n│ Error: local-exec provisioner error\n│\n│ Error running command 'node server.js': exit "
     "status 1.\n╵", ["npm install express"]),
])
def test_the_help_is_read_from_wikis_pastes_and_boxes(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_an_ascii_box_and_a_bar_before_each_line_are_left_out():
    box = "Error\n\n+------\n| $ python3 t.py\n| KeyError: 'x'\n+------\n\nResolution"
    assert ascii_unboxed(box) == "Error\n\n$ python3 t.py\nKeyError: 'x'\n\nResolution"
    assert ascii_unboxed("+---+---+\n| a | b |\n+---+---+") == "a | b"
    tree = "text:\n  | $ cargo build\n  | error[E0425]: cannot find value `x`\n  |  --> src/main.rs:2:5\n[scroll bar]"
    assert unbarred(tree) == "text:\n$ cargo build\nerror[E0425]: cannot find value `x`\n --> src/main.rs:2:5\n[scroll bar]"


@pytest.mark.parametrize("text", [
    "error[E1]: x\n --> src/main.rs:6:7\n  |\n6 |     f.x\n  |       ^^\n  |",  # a compiler's gutter
    "| a | b |\n|---|---|\n| 1 | 2 |",  # a Markdown table
    "+---\n| one line, no closing rule",
    # rustc's gutter: three ' |' lines in a row around its numbered source lines
    "error[E0382]: borrow of moved value: `tasks`\n  --> src/main.rs:17:51\n   |\n12 |     let tasks = vec![\n"
    "   |         ----- move occurs\n   |\n   |                 ^^^^^ value borrowed here after move\n   |",
])
def test_a_gutter_a_table_or_an_open_box_stays(text):
    assert unbarred(ascii_unboxed(text)) == text


def test_a_saved_terminals_markup_is_read_as_its_rows():
    page = ("<html><head><style>p {color: red}</style></head><body><pre><div><span style='color: #4e9a06'>dev@box"
            "</span><span>$ make</span></div><div><span>make: *** No rule to make target &#x27;x&#x27;.</span></div>"
            "</pre></body></html>")
    assert unmarked(page) == "<pre>\ndev@box$ make\nmake: *** No rule to make target &#x27;x&#x27;.</pre>"
