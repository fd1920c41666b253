"""Terminal text kept as an asciinema recording, a diff of two logs or a log view listing the newest line first,
read back as the screen showed it; an error in it gets the help a copied one gets."""

from __future__ import annotations

import json

import pytest

from proactive.assistant.code_blocks import fenced
from proactive.assistant.recordings import element_lines, new_side, oldest_first, played, side_by_side
from tests.bench_support import help_quality

CAST = "\n".join([
    json.dumps({"version": 2, "width": 80, "height": 24, "timestamp": 1740000000}),
    json.dumps([0.5, "o", "ana@box:~/app$ "]), json.dumps([0.9, "o", "python3 run.py"]),
    json.dumps([1.2, "o", "\r\n"]), json.dumps([1.6, "o", "Traceback (most recent call last):\r\n  File "
                                                     "\"/home/ana/app/run.py\", line 1, in <module>\r\n"]),
    json.dumps([1.7, "o", "    import yaml\r\nModuleNotFoundError: No module named 'yaml'\r\n"]),
    json.dumps([2.0, "o", "\x1b[1mana@box:~/app$ \x1b[0m"]),
])

DIFF = """$ diff -u before.log after.log
--- before.log	2025-01-01 10:00:00.000000000 +0100
+++ after.log	2025-01-01 12:00:00.000000000 +0100
@@ -1,3 +1,4 @@
 $ npm start
-listening on 3000
+Error: Cannot find module 'express'
+Require stack:
+- /home/ana/site/server.js"""

LOKI = """Explore › Loki   Last 1 hour
Logs · 3 lines · Newest first
2025-07-04 08:01:07.300\tModuleNotFoundError: No module named 'yaml'
2025-07-04 08:01:07.200\t  File "/home/ana/app/run.py", line 1, in <module>
2025-07-04 08:01:07.100\tTraceback (most recent call last):"""


def test_a_recording_is_the_screen_it_printed():
    assert played(CAST) == ("ana@box:~/app$ python3 run.py\nTraceback (most recent call last):\n  File "
                            "\"/home/ana/app/run.py\", line 1, in <module>\n    import yaml\nModuleNotFoundError: No "
                            "module named 'yaml'\nana@box:~/app$ ")


def test_a_diff_is_its_newer_log_and_a_newest_first_view_is_put_in_order():
    assert new_side(DIFF) == ("$ diff -u before.log after.log\n$ npm start\nError: Cannot find module 'express'\n"
                              "Require stack:\n- /home/ana/site/server.js")
    assert [ln.split("\t")[1] for ln in oldest_first(LOKI).splitlines()[2:]] == [
        "Traceback (most recent call last):", '  File "/home/ana/app/run.py", line 1, in <module>',
        "ModuleNotFoundError: No module named 'yaml'"]


@pytest.mark.parametrize("text", [
    "The user reads a diff of two files in the editor.",
    '[1.0, "o", "one event only"]',
    "Logs, newest first: nothing yet",
    "- removed\n+ added",
])
def test_text_that_holds_none_of_them_is_left_as_it_is(text):
    assert played(text) == new_side(text) == oldest_first(text) == text


def test_a_posts_indented_block_is_a_fence_and_a_terminals_indented_lines_are_not():
    post = "When I run\n\n    python3 a.py\n\nI get:\n\n    Traceback (most recent call last):\n      File \"a.py\"\n\nThanks"
    assert fenced(post) == ("When I run\n\n```\npython3 a.py\n```\n\nI get:\n\n```\nTraceback (most recent call "
                            "last):\n  File \"a.py\"\n```\n\nThanks")
    # a block's blank lines go on with it: one message, not three
    resolver = "Full output:\n\n    Resolving dependencies...\n\n    Because x depends on y\n\n    version solving has failed."
    assert fenced(resolver) == ("Full output:\n\n```\nResolving dependencies...\n\nBecause x depends on y\n\n"
                                "version solving has failed.\n```")
    screen = "$ go build\ngo: inconsistent vendoring in /home/ana/svc:\n\n\tTo sync the vendor directory, run:\n\t\tgo mod vendor"
    assert fenced(screen) == screen


@pytest.mark.parametrize("text, expect", [
    (CAST, ["pip install pyyaml"]),
    (DIFF, ["npm install express"]),
    (LOKI, ["pip install pyyaml"]),
    ("r/learnpython • Posted by u/ana 1h ago\nStuck on python3 a.py (ModuleNotFoundError: No module named 'yaml')\n\n"
     "When I run\n\n    python3 a.py\n\nI get this:\n\n    Traceback (most recent call last):\n      File "
     "\"/home/ana/a.py\", line 1, in <module>\n        import yaml\n    ModuleNotFoundError: No module named 'yaml'\n\n"
     "Thanks!", ["pip install pyyaml"]),
    ("[+] Building 3.1s (6/7)\n => ERROR [3/3] RUN python3 app.py                                 0.5s\n------\n"
     " > [3/3] RUN python3 app.py:\n0.481 Traceback (most recent call last):\n0.482   File \"/app/app.py\", line 1, "
     "in <module>\n0.482     import yaml\n0.483 ModuleNotFoundError: No module named 'yaml'\n------",
     ["pip install pyyaml"]),
])
def test_an_error_in_a_recording_a_diff_a_log_view_a_post_or_a_build_gets_its_help(text, expect, tmp_path,
                                                                                     monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": text}], expect)
    assert got["ok"], got


@pytest.mark.parametrize("text, expect", [
    # a code comment quoting the message, each line behind '# ' or '// '
    ("collect.py\n# TODO(ana): \"python3 collect.py\" dies with:\n#   Traceback (most recent call last):\n#     File "
     "\"/home/ana/app/collect.py\", line 3, in <module>\n#       tags.add(\"urgent\")\n#   AttributeError: 'list' "
     "object has no attribute 'add'\n# look into this", ["append"]),
    ("// FIXME: `node sync.js` crashes:\n//   node:internal/modules/cjs/loader:1228\n//   Error: Cannot find module "
     "'lodash'\n//   Require stack:\n//   - /home/ana/sync.js", ["npm install lodash"]),
    # Vim's quickfix lines of no file, and its prompt after them
    (":make\n|| Traceback (most recent call last):\n||   File \"/home/ana/a.py\", line 1, in <module>\n||     import "
     "yaml\n|| ModuleNotFoundError: No module named 'yaml'\nPress ENTER or type command to continue",
     ["pip install pyyaml"]),
])
def test_a_message_behind_a_comments_or_quickfix_marks_gets_its_help(text, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": text}], expect)
    assert got["ok"], got


def test_a_root_shells_prompts_keep_their_mark():
    """'# ' before a known program's command lines is a root shell's prompt: those lines stay commands run."""
    from proactive.assistant.grounding import COMMAND, ground

    objects = ground([{"time": "1", "event": "# apt update\n# apt install nginx\n# systemctl start nginx\nFailed to "
                                             "start nginx.service: Unit nginx.service not found."}]).objects
    assert [o.text for o in objects if o.kind == COMMAND][-1:] == ["systemctl start nginx"], objects


def test_panes_side_by_side_are_read_one_after_the_other():
    """Each pane's lines in order, left pane first, a third pane after the second; the status line across the
    window is no pane's."""
    rows = [("a$ ls", "b$ make", "c$ top"), ("x.txt", "make: *** No targets.  Stop.", "load 0.3"),
            ("a$", "b$", "")]
    text = "\n".join(f"{a:<12}│{b:<30}│{c}" for a, b, c in rows) + "\n[0] 0:bash*          09:00"
    assert side_by_side(text) == "a$ ls\nx.txt\na$\n\nb$ make\nmake: *** No targets.  Stop.\nb$\n\nc$ top\nload 0.3"
    assert side_by_side("a table │ with one bar\nand lines without") == "a table │ with one bar\nand lines without"


def test_an_xml_event_logs_elements_are_their_lines_and_a_page_is_left_to_the_page_reader():
    text = ('<event app="xterm">\n  <command>make test</command>\n  <text>make: *** No rule to make target '
            "'test'.  Stop.\nmake: done</text>\n</event>")
    assert element_lines(text) == "$ make test\nmake: *** No rule to make target 'test'.  Stop.\nmake: done"
    page = "<html><body><pre>$ make</pre><p>make: *** No targets.</p></body></html>"
    assert element_lines(page) == page
    # a record's fields, one of each (or in CDATA sections): read by their names, not as lines
    record = "<event>\n  <app>kitty</app>\n  <exit>1</exit>\n  <message>oops</message>\n</event>"
    assert element_lines(record) == record
    cdata = "<event>\n  <command><![CDATA[cp a b]]></command>\n  <output>cp: error</output>\n</event>"
    assert element_lines(cdata) == cdata
