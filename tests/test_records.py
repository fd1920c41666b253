"""An observation written as a logger's record (`assistant/records.py`): a JSON object, a tab-separated, CSV or
Markdown table row. Its command and printed text are read from its fields, so a replayed record gets the help the
live path gives for the same command typed and the same text copied."""

from __future__ import annotations

from pathlib import Path

import pytest

from proactive.assistant.grounding import COMMAND, ERROR, ground
from proactive.assistant.records import read_record
from tests.bench_support import help_quality

ROOT = Path(__file__).resolve().parent.parent
TRACEBACK = ('Traceback (most recent call last):\n  File "/home/li/bot.py", line 1, in <module>\n    import discrod\n'
             "ModuleNotFoundError: No module named 'discrod'")
PIP = ("ERROR: Could not find a version that satisfies the requirement flask-sqlalchemy==9.9 (from versions: 3.0.5, "
       "3.1.1)\nERROR: No matching distribution found for flask-sqlalchemy==9.9")

RECORDS = [
    # JSON: the command by its field's name, the printed text as a list of lines
    ('{"kind": "terminal", "cmd": "pip install flask-sqlalchemy==9.9", "stderr_lines": ["ERROR: Could not find a '
     'version that satisfies the requirement flask-sqlalchemy==9.9 (from versions: 3.0.5, 3.1.1)", "ERROR: No '
     'matching distribution found for flask-sqlalchemy==9.9"]}', "pip install flask-sqlalchemy==9.9", PIP),
    # nested fields; a mistyped program is a command too
    ('{"window": {"title": "zsh"}, "payload": {"output": "bash: pyhton3: command not found", "context": '
     '{"last_input": "pyhton3 app.py"}}}', "pyhton3 app.py", "bash: pyhton3: command not found"),
    # a traceback flattened into one field: its lines back
    ('{"ts": 1767000000, "app": "kitty", "text": "Traceback (most recent call last): File \\"/home/li/bot.py\\", '
     'line 1, in <module> import discrod ModuleNotFoundError: No module named \'discrod\'", "command": '
     '"python3 bot.py"}', "python3 bot.py", TRACEBACK),
    # tab-separated, no header: the field before the printed text is the command
    ("2026-01-03T09:12:44\tkonsole\tnpm start\tError: listen EADDRINUSE: address already in use :::3000",
     "npm start", "Error: listen EADDRINUSE: address already in use :::3000"),
    # CSV with a header, a quoted field of several lines starting with the prompt's command
    ('when,where,what\n10:01,alacritty,"$ git checkout relase\nerror: pathspec \'relase\' did not match any '
     'file(s) known to git"', "git checkout relase", "error: pathspec 'relase' did not match any file(s) known to git"),
    # a Markdown table, the command in backticks and an arrow to its output
    ("| when | terminal | what |\n|---|---|---|\n| 11:20 | foot | `git push origin dev` → error: src refspec dev "
     "does not match any |", "git push origin dev", "error: src refspec dev does not match any"),
    # CSV without a header, a time first, 'ran …'
    ("2026-02-11 15:40:02,tilix,ran sudo apt install ripgrepp,E: Unable to locate package ripgrepp",
     "sudo apt install ripgrepp", "E: Unable to locate package ripgrepp"),
    # logfmt, the printed text quoted with its escapes
    ('ts=2026-01-02T10:00:00Z level=error host=pi cmd="pip install flask-sqlalchemy==9.9" stderr="ERROR: Could not '
     'find a version that satisfies the requirement flask-sqlalchemy==9.9 (from versions: 3.0.5, 3.1.1)\\nERROR: No '
     'matching distribution found for flask-sqlalchemy==9.9"', "pip install flask-sqlalchemy==9.9", PIP),
    # single quotes around a value, a bracketed time before the fields
    ("[2026-03-02T09:36:45] app=Code action=run_command command='pyhton3 app.py' exit_code=127 stderr=\"bash: "
     "pyhton3: command not found\"", "pyhton3 app.py", "bash: pyhton3: command not found"),
    # a single-quoted value holding quote marks of its own
    ("ts=2026-01-01T10:00:00 app=kitty cmd='mysql -u root' text='ERROR 2002 (HY000): Can't connect to local server "
     "through socket '/run/mysqld/mysqld.sock' (2)'", "mysql -u root",
     "ERROR 2002 (HY000): Can't connect to local server through socket '/run/mysqld/mysqld.sock' (2)"),
    # one Key=Value per line under a section's name
    ("[Event]\nTime=10:02\nApp=foot\nCommandLine=git checkout relase\nOutput=error: pathspec 'relase' did not match "
     "any file(s) known to git", "git checkout relase",
     "error: pathspec 'relase' did not match any file(s) known to git"),
    # a spreadsheet's tab-separated export: a field in CSV's quote marks, doubled inside, a label and an arrow
    ('Day\tProject\tNote\tHours\n2026-03-09\tshop\treview\t1.0\n2026-03-09\tshop\t"setup: ran psql -d shop -c '
     '""SELEC id FROM users;"" -> ERROR:  syntax error at or near ""SELEC"""\t0.5\n', 'psql -d shop -c "SELEC id FROM users;"',
     'ERROR:  syntax error at or near "SELEC"'),
    # a clipboard manager's history, newest first: the entry cut short in the list whole in its preview, the command
    # copied before it, a chat line copied after
    ("CopyQ - 3 items\n 1  thanks, trying it now                       just now\n 2  ERROR: Could not find a version th"
     "at satisfies the requ…  4 min ago\n 3  pip install flask-sqlalchemy==9.9          5 min ago\n\nPreview (item 2):\n"
     + PIP, "pip install flask-sqlalchemy==9.9", PIP),
    # a notebook's cell after its file's name, its shell escape the command
    ('scratch.ipynb:\n{\n "cell_type": "code",\n "outputs": [{"name": "stderr", "output_type": "stream", "text": '
     '["bash: pyhton3: command not found\\n"]}],\n "source": ["!pyhton3 -V"]\n}', "pyhton3 -V",
     "bash: pyhton3: command not found"),
    # a chat's export: the command in a message's code piece, its output in a block, a person's reply after it
    ('{"name": "ops", "messages": [{"id": 1, "type": "message", "from": "Ana", "text": ["ran ", {"type": "code", '
     '"text": "pyhton3 app.py"}, " and:\\n", {"type": "pre", "text": "bash: pyhton3: command not found"}]}, {"id": 2, '
     '"type": "message", "from": "Bo", "text": "did you run the setup script first?"}]}', "pyhton3 app.py",
     "bash: pyhton3: command not found"),
    # a piece cut out of a notebook's file (no parser reads it whole): a shell cell's last command, the stream's
    # lines (each with its line break) its message, the notebook's CalledProcessError about the cell left out
    (' "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 4,\n   "outputs": [\n    {\n     "name": '
     '"stderr",\n     "output_type": "stream",\n     "text": [\n      "ERROR: Could not find a version that satisfies '
     'the requirement flask-sqlalchemy==9.9 (from versions: 3.0.5, 3.1.1)\\n",\n      "ERROR: No matching '
     'distribution found for flask-sqlalchemy==9.9\\n"\n     ]\n    },\n    {\n     "ename": "CalledProcessError",\n'
     '     "evalue": "Command \'b\'cd ~/shop\\\\npip install flask-sqlalchemy==9.9\\\\n\'\' returned non-zero exit '
     'status 1.",\n     "output_type": "error",\n     "traceback": ["\\u001b[0;31mCalledProcessError\\u001b[0m"]\n'
     '    }\n   ],\n   "source": [\n    "%%bash\\n",\n    "cd ~/shop\\n",\n    "pip install flask-sqlalchemy==9.9\\n"\n'
     '   ]\n  },\n  {\n   "cell_type": "markdown",', "pip install flask-sqlalchemy==9.9", PIP),
    # an instruction dataset's record: the printed text in its 'input', the command named in its instruction
    ('{\n  "instruction": "The following error appeared after running `git checkout relase`. What is the problem?",\n'
     '  "input": "error: pathspec \'relase\' did not match any file(s) known to git",\n  "output": ""\n}',
     "git checkout relase", "error: pathspec 'relase' did not match any file(s) known to git"),
    # an agent's events, one object per line with a comma after each: the command it ran, what the run printed
    ('{"id": 8, "source": "agent", "message": "Running command: pyhton3 app.py", "action": "run", "args": {"command": '
     '"pyhton3 app.py", "thought": "Reproduce it first."}},\n{"id": 9, "source": "agent", "message": "Command '
     '`pyhton3 app.py` executed with exit code 127.", "cause": 8, "observation": "run", "content": "bash: pyhton3: '
     'command not found", "extras": {"command": "pyhton3 app.py", "metadata": {"exit_code": 127}}},',
     "pyhton3 app.py", "bash: pyhton3: command not found"),
    # a GUI agent's trajectory: what it typed, and the terminal's text under the prompt's line in its observation
    ('{"task_id": "52bd", "trajectory": [{"step": 1, "thought": "Type the command and press Enter.", "action": '
     '"pyautogui.typewrite(\'pyhton3 app.py\\\\n\')", "observation": "dana@devbox:~/webshop$ pyhton3 app.py\\nbash: '
     'pyhton3: command not found\\ndana@devbox:~/webshop$"}]}', "pyhton3 app.py", "bash: pyhton3: command not found"),
    # a chat's webhook card: the step's command quoted in the writer's words, the output in a fence of its own
    ('{"type": "AdaptiveCard", "body": [{"type": "TextBlock", "text": "Step `pyhton3 app.py` exited with code 127"}, '
     '{"type": "TextBlock", "text": "```bash: pyhton3: command not found```"}]}', "pyhton3 app.py",
     "bash: pyhton3: command not found"),
    # a screen-memory tool's frame: of the screen's several prompts, the last whose command printed something
    ('{"app_name": "kitty", "text": "dev@box:~/shop$ git status -s\\n M index.js\\ndev@box:~/shop$ pyhton3 app.py\\n'
     'bash: pyhton3: command not found\\ndev@box:~/shop$"}', "pyhton3 app.py", "bash: pyhton3: command not found"),
    # an AI chat's export: the message names its command first, in backticks, and fences the output
    ('{"role": "user", "content": "`pyhton3 app.py` keeps failing with\\n\\n```\\nbash: pyhton3: command not found\\n'
     '```"}', "pyhton3 app.py", "bash: pyhton3: command not found"),
    # or names it in its first line and quotes the output in Markdown, its own question under it
    ('{"role": "user", "content": "trying to run my script, `python3 app.py` fails:\\n\\n> Traceback (most recent '
     'call last):\\n>   File \\"/srv/app.py\\", line 1, in <module>\\n> ModuleNotFoundError: No module named '
     '\'flask\'\\n\\nwhat now?"}', "python3 app.py",
     'Traceback (most recent call last):\n  File "/srv/app.py", line 1, in <module>\nModuleNotFoundError: No module '
     "named 'flask'"),
]



@pytest.mark.parametrize("record, command, printed", RECORDS)
def test_a_records_command_and_printed_text_are_read_from_its_fields(record, command, printed):
    read = read_record(record)
    assert read is not None and read.command == command and read.texts == (printed,)
    grounding = ground([{"time": "1", "event": record}])
    assert [o.text for o in grounding.objects if o.kind == COMMAND] == [command]
    assert [o.detail for o in grounding.objects if o.kind == ERROR] == [printed]


@pytest.mark.parametrize("record, command, printed", RECORDS)
def test_a_replayed_record_gets_the_live_help(record, command, printed, tmp_path, monkeypatch):
    """The same help, word for word, as the live path's for the command typed and the text copied."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    bench = help_quality()
    live = bench.help_for(bench.context_for(printed, command), [])
    assert live["help"] and "Next step" in live["help"]
    assert bench.help_for([{"time": "1", "event": record}], [])["help"] == live["help"]


@pytest.mark.parametrize("event", [
    "The user types 'git push' and presses Enter in the terminal.",
    '{"app": "firefox", "url": "https://docs.python.org/3/", "title": "3.13 Documentation"}',
    "10:00, I went to the shop, then home",
    "| 10:00 | notes | wrote the summary, sent it |",
    '{"broken": json',
    "Clipboard\n 1  buy milk, eggs              just now\n 2  git status                  2 min ago",
])
def test_a_sentence_or_a_record_without_an_error_is_read_as_before(event):
    assert read_record(event) is None
    assert not [o for o in ground([{"time": "1", "event": event}]).objects if o.kind == ERROR]


def test_a_json_object_inside_a_text_is_written_out():
    """Its command as a prompt's line, what the program printed as its lines, other fields under their names."""
    from proactive.assistant.records import spelled_out
    line = ('fatal: [web]: FAILED! => {"changed": true, "cmd": ["make", "all"], "rc": 2, "msg": "non-zero return '
            'code", "stderr": "make: *** No rule to make target \'all\'.  Stop.", "stderr_lines": ["x"]}')
    assert spelled_out(line) == ("fatal: [web]: FAILED! => \n$ make all\nmsg: non-zero return code\n"
                                 "make: *** No rule to make target 'all'.  Stop.\n")
    cut = 'job: {"cmd": "make", "stderr": "bash: maek: command not found", ...}'
    assert "$ make\nbash: maek: command not found" in spelled_out(cut)  # cut short: the string fields it has
    for text in ('a set {1, 2} printed', 'config: {"debug": true}', '{"cmd": "ls", "note": "all fine"}'):
        assert spelled_out(text) == text  # no object, or one whose texts say no error


def test_an_alerts_log_lines_are_read_as_a_logs(tmp_path, monkeypatch):
    """An alert's payload: the command named in its description, the log's lines under it, each behind its prefix."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    alert = ('{"status": "firing", "annotations": {"description": "Command `pyhton3 app.py` on web-1 exited with status '
             '127.\\nLast output lines:\\n2025-04-03T17:40:48.031Z web-1 runner[406]: bash: pyhton3: command not found", '
             '"summary": "step failing"}}')
    assert read_record(alert).command == "pyhton3 app.py"
    got = help_quality().help_for([{"time": "1", "event": alert}], ["python3 app.py"])
    assert got["ok"], got
