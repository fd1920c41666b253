"""The errors a sentence quotes, however it is worded (`assistant/quotes.py`), and the help a replayed sentence
gives: the same as the live path's for the same error, in phrasings of several ecosystems."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from proactive.assistant.grounding import COMMAND, ERROR, ground
from proactive.assistant.quotes import quotes, said_errors, unquoted_command
from tests.bench_support import help_quality

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



def test_replayed_phrasings_give_the_live_help(tmp_path, monkeypatch):
    """Phrasings of cases of several ecosystems (Python, Go, Docker, C builds, PostgreSQL, the shell, Rust), in
    every style: a one-sentence session's help has the case's specific next step, as the live path's has."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    bench = help_quality()
    cases = {f"{path.stem}:{i}": case for path in sorted((ROOT / "bench" / "help_cases").glob("*.toml"))
             for i, case in enumerate(tomllib.loads(path.read_text(encoding="utf-8"))["case"], 1)}
    fixture = ROOT / "tests" / "fixtures" / "help_phrasings_small.jsonl"
    rows = bench.read_phrasings(fixture, cases)
    assert len({json.loads(line)["file"] for line in fixture.read_text().splitlines()}) >= 6
    report = bench.compare_phrasings(rows, cases, str(tmp_path))
    assert report["misses"] == [] and report["same"] == report["phrasings"] == len(rows)
    # and each offer quotes what the program printed or the command, not the words around them
    assert report["quotes"]["offers"] == len(rows) and report["quotes"]["the_program_s"] == len(rows)


@pytest.mark.parametrize("sentence, message, command", [
    # a command and its output glued in one quote (pasted into a search box too)
    ("Pasted into the search field: 'terraform plan Error: No configuration files'",
     "Error: No configuration files", "terraform plan"),
    # screen text: a prompt, its command line and the output on one line
    ("Screen text (Tilix): ana@laptop:~/shop$ mvn package [ERROR] Failed to execute goal on project shop",
     "[ERROR] Failed to execute goal on project shop", "mvn package"),
    ("$ helm install web ./chart Error: INSTALLATION FAILED: cannot re-use a name that is still in use",
     "Error: INSTALLATION FAILED: cannot re-use a name that is still in use", "helm install web ./chart"),
    # a mistyped program after a prompt: its name and a colon start the shell's message
    ("Screen: $ dokcer ps dokcer: command not found", "dokcer: command not found", "dokcer ps"),
    # a sentence starting the output ('invalid argument … for …') after the command's own words
    ("OCR: ... $ podman run -p 80:80 -v data:/srv web:latest invalid reference format: repository name must be "
     "lowercase ...", "invalid reference format: repository name must be lowercase",
     "podman run -p 80:80 -v data:/srv web:latest"),
])
def test_a_command_and_its_output_run_together_are_read_apart(sentence, message, command):
    """A known program's command line glued to what it printed, in a quote or after a shell's prompt: the output
    is the message, the line before it the command run."""
    assert [s.text for s in said_errors(sentence)] == [message]
    assert unquoted_command(sentence) == command


@pytest.mark.parametrize("sentence, message, command", [
    # the message on its own lines after the sentence's first, a command quoted or after a prompt
    ("Got this from `terraform init`:\nError: Failed to query available provider packages",
     "Error: Failed to query available provider packages", "terraform init"),
    ("$ redis-cli ping\nCould not connect to Redis at 127.0.0.1:6379: Connection refused",
     "Could not connect to Redis at 127.0.0.1:6379: Connection refused", "redis-cli ping"),
    # after a colon the message may start with any word, and its words 'while trying …' are its own
    ("Visible text: permission denied while trying to connect to the Docker daemon socket at unix:///run/docker.sock",
     "permission denied while trying to connect to the Docker daemon socket at unix:///run/docker.sock", None),
    # a label before the message is no part of it
    ("2026-01-04T10:00:00 Tilix: stderr: KeyError: 'sku'", "KeyError: 'sku'", None),
    # an arrow before it, an ellipsis after it
    ("09:12 kitty: $ cargo test -> error[E0433]: failed to resolve: use of undeclared crate ...",
     "error[E0433]: failed to resolve: use of undeclared crate", "cargo test"),
    # a command a clause starts with, 'tried' as a run
    ("Tried cargo run again, still getting ‘error: `cargo run` could not determine which binary to run.’",
     "error: `cargo run` could not determine which binary to run.", "cargo run"),
    ("sudo systemctl restart nginx » Job for nginx.service failed because the control process exited",
     "Job for nginx.service failed because the control process exited", "sudo systemctl restart nginx"),
])
def test_a_message_set_off_by_a_colon_an_arrow_or_a_line_break_is_read_to_its_end(sentence, message, command):
    assert [s.text for s in said_errors(sentence)] == [message]
    assert unquoted_command(sentence) == command


@pytest.mark.parametrize("sentence, lines, command", [
    # a quoted chat message that quotes the command and the error in turn
    ("Message sent: “each time I run `cargo check` I get ‘error[E0432]: unresolved import `serde`’”",
     ["error[E0432]: unresolved import `serde`"], "cargo check"),
    ('The user writes: "after `make test` the terminal says \'make: *** [Makefile:9: test] Error 2\'"',
     ["make: *** [Makefile:9: test] Error 2"], "make test"),
    # a message that quotes names is no chat message: read whole
    ("The user sees 'package `foo v1.0.0` cannot be built because it requires rustc 1.80 or newer'",
     ["package `foo v1.0.0` cannot be built because it requires rustc 1.80 or newer"], None),
    # a message described around its quoted lines: the quotes hold it
    ("The user pastes an error (first line 'Traceback (most recent call last):', last line 'KeyError: 'sku'') into "
     "a chat window.", ["Traceback (most recent call last):", "KeyError: 'sku'"], None),
    # a search for a message quoted once more
    ("The user searches on Google for '\"TypeError: Cannot read properties of undefined (reading 'map')\"'.",
     ["TypeError: Cannot read properties of undefined (reading 'map')"], None),
])
def test_nested_quotes_are_unwrapped_to_the_message_and_the_command(sentence, lines, command):
    said = said_errors(sentence)
    assert len(said) == 1 and [ln.strip() for ln in said[0].text.splitlines()] == lines
    assert unquoted_command(sentence) == command


@pytest.mark.parametrize("sentence, expect", [
    # the facts in the one line given
    ("Visible text: psych: Could not be configured. It will not be installed.", ["libyaml-dev"]),
    ("Visible text: Can't find the 'sqlite3.h header", ["libsqlite3-dev"]),
    ("Terminal shows: FileNotFoundError: [Errno 2] No such file or directory: 'ffmpeg'", ["apt install ffmpeg"]),
    ("`npm ci` fails: `npm error Error: EACCES: permission denied, open '/home/ana/shop/node_modules/.package-lock"
     ".json'`", ["sudo chown -R $(whoami) /home/ana/shop/node_modules"]),
    ("I ran node main.js and got: Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/srv/app/lib/config' imported "
     "from /srv/app/main.js", ["./lib/config.js"]),
    ("git pull prints 'fatal: Authentication failed for 'https://github.com/lea/blog.git/''",
     ["git remote set-url origin"]),
    ("so I typed bundle install and it just says 'Your user account isn't allowed to install to the system "
     "RubyGems.'", ["bundle config set --local path"]),
    # and in the command line
    ("$ ssh -p 2200 deploy@ci.example.org -> WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!",
     ["ssh-keygen -R [ci.example.org]:2200"]),
    ("Why does `go get github.com/spf13/cobra-cli` keep saying 'go: go.mod file not found in current directory or "
     "any parent directory.'?", ["go install github.com/spf13/cobra-cli@latest"]),
    ("Screen: lea@pi:~$ cargo run error: `cargo run` could not determine which binary to run.", ["cargo run --bin"]),
    ("The user pastes into the search box: 'mysql -u shop ERROR 2002 (HY000): Can't connect to local server through "
     "socket '/run/mysqld/mysqld.sock' (2)'.", ["systemctl start"]),
])
def test_the_help_is_read_from_the_one_line_a_sentence_gives(sentence, expect, tmp_path, monkeypatch):
    """The specific next step from the line of the message a sentence quotes, and the command it names, when the
    facts it needs are there (a copy would have given the lines around it too)."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


@pytest.mark.parametrize("sentence, expect", [
    # npm's own prefix is the message's start: the command comes from the other quote, not from "npm ERR!"
    ("Whenever I do “npm install vue-draggable” I see “npm ERR! ERESOLVE could not resolve”",
     ["npm install vue-draggable@latest"]),
    # an arrow from the command to its output: the quote after it is a line of the message
    ("Console: `ssh -i ~/.ssh/id_work me@build.lan` => `WARNING: UNPROTECTED PRIVATE KEY FILE!` … `Permissions 0640 "
     "for '/home/me/.ssh/id_work' are too open.`", ["chmod 600 /home/me/.ssh/id_work"]),
    # a selection's first and last lines, and a line it includes
    ("The user highlights the text in Konsole from 'Resolving dependencies...' to 'Run `bundle install` to install "
     "missing gems.'; it includes 'The bundle currently has rack locked at 2.2.8.'", ["bundle update rack"]),
    # a subcommand that is also an English verb ('get', 'show') stays on the command line
    ("Tried go get golang.org/x/tools/cmd/stringer twice, still getting «go: go.mod file not found in current "
     "directory or any parent directory.»", ["go install golang.org/x/tools/cmd/stringer@latest"]),
    # a message set off by a colon goes on after its comma
    ("Panel text: Your Ruby version is 2.7.8, but your Gemfile specified 3.1.4", ["rbenv install 3.1.4"]),
    # the line alone names what the help needs: a kubelet event's reason, a std::io trait's method, Node's fetch
    ("Screen: Warning  Failed  12s (x3 over 40s)  kubelet  Error: ErrImagePull", ["imagePullSecrets"]),
    ("cargo check says ‘error[E0599]: no method named `write_all` found for struct `TcpStream` in the current "
     "scope’", ["use std::io::Write;"]),
    ("Terminal shows: TypeError: fetch failed [cause]: Error: unable to get local issuer certificate",
     ["NODE_EXTRA_CA_CERTS"]),
])
def test_the_help_is_read_from_lines_worded_as_others_word_them(sentence, expect, tmp_path, monkeypatch):
    """Quotes joined into one message by how the sentence links them (an arrow, a selection's range, "it
    includes"), a command whose subcommand reads as a verb, a message going on past a comma, and lines that name
    their program or fix by themselves: the one-sentence session's help has the specific next step."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_a_window_named_after_from_is_no_line_of_the_message():
    """'copies 'X' from 'Code.exe'' names the window: only a range, "from '…' to '…'", makes both ends lines."""
    said = said_errors("The user copies the error message 'TypeError: fetch failed' from 'Code.exe' using 'cmd+c'.")
    assert [s.text for s in said] == ["TypeError: fetch failed"]


@pytest.mark.parametrize("sentence, lines", [
    # an error line by its form after a CI step's or a log's prefix, with no word saying it was printed
    ("##[error]TypeError: Cannot read properties of undefined (reading 'map')",
     ["TypeError: Cannot read properties of undefined (reading 'map')"]),
    ("Build 812 / stage test FAILED — KeyError: 'user_id'", ["KeyError: 'user_id'"]),
    ("Problems ⓧ 2 ✓ 0 npm error code ENOENT", ["npm error code ENOENT"]),
    # lines joined with a separator: cut where the next piece starts a line by its form or the piece before is a
    # frame; a division inside the code line stays whole
    ('Crash report: File "/srv/app/rates.py", line 9, in <module> / ratio = hits / total / ZeroDivisionError: '
     "division by zero", ['  File "/srv/app/rates.py", line 9, in <module>', "    ratio = hits / total",
                          "ZeroDivisionError: division by zero"]),
    ("Log: cannot find symbol | symbol:   class HashMap | location: class Cache",
     ["cannot find symbol", "symbol:   class HashMap", "location: class Cache"]),
    # each line quoted in a mail or a review, and the bare prompt after the output
    ("Hi, my build died with\n> Traceback (most recent call last):\n> ImportError: cannot import name 'escape' "
     "from 'jinja2'\nThanks!", ["Traceback (most recent call last):",
                                "    ImportError: cannot import name 'escape' from 'jinja2'"]),
    ("pane 2:\n$ make deps\nmake: *** No rule to make target 'deps'.  Stop.\n$",
     ["make: *** No rule to make target 'deps'.  Stop."]),
])
def test_a_message_is_read_from_logs_mails_and_joined_lines(sentence, lines):
    """Messages as logs, CI pages, mails and reviews carry them: their lines as the program printed them."""
    said = said_errors(sentence)
    assert said and said[-1].text.splitlines() == lines, said


def test_a_log_prefix_on_every_line_is_not_part_of_the_message():
    """Syslog writes its time, host and program before each line; pip's 'ERROR: ' before each line is its own."""
    journal = ("Mar 02 09:14:55 lab kitty[4410]: Traceback (most recent call last):\n"
               "Mar 02 09:14:55 lab kitty[4410]:   File \"/home/u/fetch.py\", line 1, in <module>\n"
               "Mar 02 09:14:55 lab kitty[4410]: ModuleNotFoundError: No module named 'httpx'")
    lines = [ln.strip() for ln in said_errors(journal)[-1].text.splitlines()]
    assert lines == ["Traceback (most recent call last):", 'File "/home/u/fetch.py", line 1, in <module>',
                     "ModuleNotFoundError: No module named 'httpx'"]
    pip = ("Output:\nERROR: Could not find a version that satisfies the requirement torchh (from versions: none)\n"
           "ERROR: No matching distribution found for torchh")
    assert all(ln.startswith("ERROR: ") for ln in said_errors(pip)[-1].text.splitlines())
    # the program's own name after the log's prefix stays: it says whose message each line is
    daemon = ("Output:\nJob for haproxy.service failed because the control process exited with error code.\n"
              "Apr 11 08:02:10 edge haproxy[771]: haproxy: [ALERT] parsing [/etc/haproxy/haproxy.cfg:12] : unknown "
              "keyword 'bindd'\nApr 11 08:02:10 edge haproxy[771]: haproxy: [ALERT] Fatal errors found in configuration.")
    assert said_errors(daemon)[-1].text.splitlines()[1:] == [
        "haproxy: [ALERT] parsing [/etc/haproxy/haproxy.cfg:12] : unknown keyword 'bindd'",
        "haproxy: [ALERT] Fatal errors found in configuration"]  # (the sentence's full stop is not the message's)


@pytest.mark.parametrize("sentence, expect", [
    # a page's text with its quotes written as HTML entities
    ("Issue opened: Running &#39;python3 scrape.py&#39; fails with &quot;ModuleNotFoundError: No module named "
     "&#39;bs4&#39;&quot;", ["pip install beautifulsoup4"]),
    # syslog's escaped line breaks inside one record
    ("<14>1 2026-01-05T10:00:00Z box konsole 77 - - Traceback (most recent call last):#012  File "
     "\"/home/u/t.py\", line 1, in <module>#012ModuleNotFoundError: No module named 'yaml'", ["PyYAML"]),
    # a CI step's prefix before the error line
    ("Pipeline #77 / job unit FAILED — ModuleNotFoundError: No module named 'requests'", ["pip install requests"]),
])
def test_the_help_is_read_from_pages_and_logs(sentence, expect, tmp_path, monkeypatch):
    """Text from a web page (HTML entities), a syslog record and a CI page gives the live help."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


@pytest.mark.parametrize("sentence, message, command", [
    # a shell's name before its message is the message's start, not a label
    ("[cmd=\"yarn build\"] zsh: yarn: command not found", "zsh: yarn: command not found", "yarn build"),
    # a logger's typed line entered with a key field or '+ Enter'
    ("[10:02:11] app=kitty shell=bash typed='mkae test' key=Enter output='bash: mkae: command not found'",
     "bash: mkae: command not found", "mkae test"),
    ("activity: app=foot | typed «sl -la» + Enter | terminal printed 'bash: sl: command not found'",
     "bash: sl: command not found", "sl -la"),
])
def test_a_logs_typed_line_and_a_shells_message_are_read(sentence, message, command):
    grounding = ground([{"time": "1", "event": sentence}])
    assert [o.text for o in grounding.of(ERROR)] == [message]
    assert [o.text for o in grounding.of(COMMAND)] == [command]


@pytest.mark.parametrize("sentence, expect", [
    # a CI runner's annotation marks a line's start, whatever the line says
    ("##[error]rm: cannot remove 'node_modules': Is a directory", ["rm -r node_modules"]),
    ("::error file=ci.sh,line=3::cp: -r not specified; omitting directory 'assets'", ["cp -r assets"]),
    # the runner's closing line is not the error: the traceback's is
    ("[unit] Traceback (most recent call last):\n[unit] ModuleNotFoundError: No module named 'bs4'\n"
     "[unit] ERROR: Job failed: exit code 1", ["pip install beautifulsoup4"]),
    # a traceback's lines after a header, joined by ' | ', and lines set apart by ' … '
    ("PROBLEMS Traceback (most recent call last): | File \"/w/a.py\", line 1, in <module> | import yaml | "
     "ModuleNotFoundError: No module named 'yaml'", ["PyYAML"]),
    # a caret line joined in loses its column: left out, the code line is fixed from the message
    ("Screen: « File \"/home/u/bill.py\", line 2 … print(\"Total:\" total) … ^^^^^^^^^^ … SyntaxError: invalid syntax. "
     "Perhaps you forgot a comma? »", ['print("Total:", total)']),
])
def test_the_help_is_read_from_ci_pages(sentence, expect, tmp_path, monkeypatch):
    """A CI page's annotations, its closing line and lines joined on one line: the live help."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_phrasings_that_carry_the_lines_the_help_needs_are_counted_apart(tmp_path, monkeypatch):
    """`carried`: a phrasing's case keeps the error lines and the command the sentence gives word for word (after
    entities, escapes and typographic quotes), so a line the writer left out is not counted as a misreading."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    case = {"error": 'Traceback (most recent call last):\n  File "/w/t.py", line 2, in <module>\n    x = 1 / 0\n'
                     "ZeroDivisionError: division by zero", "command": "python3 t.py", "expect": ["t.py, line 2"]}
    part = help_quality().carried(case, "Terminal: &quot;ZeroDivisionError: division by zero&quot; after python3 t.py")
    assert part["error"] == "ZeroDivisionError: division by zero" and part["command"] == "python3 t.py"
    assert help_quality().carried(case, "It says “ZeroDivisionError: division by zero”")["command"] is None


def test_a_ci_runners_closing_line_is_not_the_error():
    """'ERROR: Job failed: exit code 1' closes every failed job: the error is the line before it that names one."""
    sentence = ("[build] cp: cannot stat 'dist/app.js': No such file or directory\n"
                "[build] ERROR: Job failed: exit code 1")
    assert [o.text for o in ground([{"time": "1", "event": sentence}]).of(ERROR)] == [
        "cp: cannot stat 'dist/app.js': No such file or directory"]


def test_a_path_of_names_is_no_ci_annotation():
    """`std::error::Error` is Rust's trait, not GitHub's `::error::` annotation: the message keeps it."""
    sentence = ("Terminal shows: error[E0277]: the trait bound `Oops: std::error::Error` is not satisfied")
    assert "std::error::Error" in ground([{"time": "1", "event": sentence}]).of(ERROR)[0].text


def test_a_csv_records_doubled_quotes_are_read_as_one():
    """An activity table exported as CSV doubles the quote marks inside a quoted field."""
    sentence = ('09:14:02,konsole,ran psql shop,"psql: error: connection to server on socket '
                '""/var/run/postgresql/.s.PGSQL.5432"" failed: FATAL:  database ""shop"" does not exist"')
    errors = [o.text for o in ground([{"time": "1", "event": sentence}]).of(ERROR)]
    assert errors and 'database "shop" does not exist' in errors[0] and '""' not in errors[0]


@pytest.mark.parametrize("sentence, message, command", [
    # a mistyped program in backticks: the shell's message names it, so it is the command run
    ("PR review: `pyhton3 manage.py migrate` fails with `bash: pyhton3: command not found`",
     "bash: pyhton3: command not found", "pyhton3 manage.py migrate"),
    # a ticket's fields on one line: the command after 'Steps:', the message up to the next field's label
    ("Bug #88 · Steps: cargo run --release · Actual result: error: linker `cc` not found · Expected result: the app "
     "starts · Reporter: kim", "error: linker `cc` not found", "cargo run --release"),
    # a system log, each line with its own program's prefix; a line labelling the command run
    ("Mar 03 09:01:12 t14 zsh[311]: HISTORY: sl\nMar 03 09:01:12 t14 foot[312]: zsh: command not found: sl",
     "zsh: command not found: sl", "sl"),
    ("<14>1 2026-03-01T10:00:00Z vm foot 311 - - CONFLICT (content): Merge conflict in lib/db.rb",
     "CONFLICT (content): Merge conflict in lib/db.rb", None),
    # and a message with no error word after it, known to a diagnosis
    ("Jul 01 10:00:00 box bash[1]: exec: git checkout 4f2a9c1\nJul 01 10:00:00 box kitty[2]: You are in 'detached "
     "HEAD' state. You can look around, make experimental", "You are in 'detached HEAD' state. You can look around, "
     "make experimental", "git checkout 4f2a9c1"),
])
def test_tickets_logs_and_reviews_give_their_message_and_command(sentence, message, command):
    """A command named by a field's label or by the shell's complaint about it, and a message that ends where a
    ticket's next field starts or starts after a log's prefix on its line."""
    objects = ground([{"time": "1", "event": sentence}]).objects
    assert [o.text for o in objects if o.kind == ERROR] == [message]
    assert [o.text for o in objects if o.kind == COMMAND] == ([command] if command else [])


@pytest.mark.parametrize("sentence, message, detail, command", [
    # a review's quoted block: the marks off its lines, the block ends where they end
    ("Review on #12 (step `pip install torchh`):\n\n> ERROR: Could not find a version that satisfies the requirement "
     "torchh (from versions: none)\n> ERROR: No matching distribution found for torchh\n\nPlease pin it.",
     "ERROR: Could not find a version that satisfies the requirement torchh (from versions: none)",
     None, "pip install torchh"),
    # a forum page's reaction count and buttons, and its tags, are no part of the message
    ("asked 3 hours ago\nI ran `node app.js` and got:\nTypeError: Cannot read properties of undefined (reading "
     "'map') 👍 3\nReply  Share  Report", "TypeError: Cannot read properties of undefined (reading 'map')", None,
     "node app.js"),
    ("Why does this fail?\n\n[python] [pip]\n\nModuleNotFoundError: No module named 'yamll'\nTags: [python] [yaml]",
     "ModuleNotFoundError: No module named 'yamll'", "ModuleNotFoundError: No module named 'yamll'", None),
])
def test_a_pages_quote_marks_buttons_and_tags_are_not_the_message(sentence, message, detail, command):
    objects = ground([{"time": "1", "event": sentence}]).objects
    errors = [o for o in objects if o.kind == ERROR]
    assert [o.text for o in errors] == [message]
    assert detail is None or errors[0].detail == detail
    assert ">" not in errors[0].detail
    assert "Reply" not in errors[0].detail and "👍" not in errors[0].detail and "[pip]" not in errors[0].detail
    assert [o.text for o in objects if o.kind == COMMAND] == ([command] if command else [])


@pytest.mark.parametrize("sentence, message, command", [
    # a fenced block with its language: its lines whole, the quote marks of the code in it its own
    ('Got this in class:\n```python\n  File "/home/kim/greet.py", line 3, in <module>\n    print("Hi " + name + 5)\n'
     'TypeError: can only concatenate str (not "int") to str\n```\nany idea?',
     'TypeError: can only concatenate str (not "int") to str', None),
    # a shell session in a fence: its prompt's line is the command run
    ("CI again:\n```console\n$ cargo test --locked\nerror: the lock file /w/Cargo.lock needs to be updated but "
     "--locked was passed to prevent this\n```", "error: the lock file /w/Cargo.lock needs to be updated but --locked "
     "was passed to prevent this", "cargo test --locked"),
])
def test_a_fenced_block_is_read_whole_with_its_prompt(sentence, message, command):
    objects = ground([{"time": "1", "event": sentence}]).objects
    assert [o.text for o in objects if o.kind == ERROR] == [message]
    assert [o.text for o in objects if o.kind == COMMAND] == ([command] if command else [])


@pytest.mark.parametrize("sentence, message, in_detail, command", [
    # a messenger's export: each line's time and speaker off, the person's own words no line of the message
    ("03/04/25, 10:00 - Kim Park: hey\n03/04/25, 10:01 - Lee Chen: yep\n03/04/25, 10:02 - Kim Park: I typed pyhton3 "
     "-m venv env\n03/04/25, 10:02 - Kim Park: bash: pyhton3: command not found", "bash: pyhton3: command not found",
     "bash: pyhton3: command not found", "pyhton3 -m venv env"),
    # a Matrix export, the traceback's frame indented after the speaker
    ("[2026-01-05 09:00:01] <@kim:matrix.org> got this:\n[2026-01-05 09:00:02] <@kim:matrix.org>   File "
     "\"/srv/app/run.py\", line 7, in <module>\n[2026-01-05 09:00:02] <@kim:matrix.org>     import yamll\n"
     "[2026-01-05 09:00:02] <@kim:matrix.org> ModuleNotFoundError: No module named 'yamll'",
     "ModuleNotFoundError: No module named 'yamll'", 'File "/srv/app/run.py", line 7', None),
    # a screen reader's label on every line
    ("Orca: Terminal\nOrca: npm ERR! code E404\nOrca: npm ERR! 404 Not Found - GET https://registry.npmjs.org/expresss"
     " - Not found", "npm ERR! code E404", "npm ERR! 404 Not Found", None),
    # a post's hashtags and counts
    ("Kim @kim@fosstodon.org\nwhy does `cargo build` say “error: linker `cc` not found” #rustlang #linux\n3 replies  1 "
     "boosts  9 favourites", "error: linker `cc` not found", "error: linker `cc` not found", "cargo build"),
    # a README's admonition: a quoted block with a fence inside it
    ('> [!TIP]\n> If `psql -U dev` stops with\n> ```\n> psql: error: connection to server on socket '
     '"/var/run/postgresql/.s.PGSQL.5432" failed: FATAL:  role "dev" does not exist\n> ```\n> see below.',
     'psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: FATAL:  role "dev" '
     "does not exist", 'role "dev" does not exist', "psql -U dev"),
    # MySQL's numbered error names the message, not an emoji on the line after it
    ("me: mysql -u kim -p\nterminal: ERROR 1045 (28000): Access denied for user 'kim'@'localhost' (using password: "
     "YES)\n😩", "terminal: ERROR 1045 (28000): Access denied for user 'kim'@'localhost' (using password: YES)",
     "ERROR 1045", None),
])
def test_chats_screen_readers_posts_and_readmes_give_their_message(sentence, message, in_detail, command):
    objects = ground([{"time": "1", "event": sentence}]).objects
    errors = [o for o in objects if o.kind == ERROR]
    assert [o.text for o in errors] == [message] and in_detail in errors[0].detail
    assert not any(mark in errors[0].detail for mark in ("Kim Park:", "<@kim", "Orca:", "#rustlang", "replies", "> "))
    if command:
        assert [o.text for o in objects if o.kind == COMMAND] == [command]


@pytest.mark.parametrize("sentence, message, in_detail, command", [
    # an alert's fields: the command by its label, the message after its 'Details:' label
    ("[Alert] Job failed on ci-2\nCommand: pyhton3 app.py\nDetails: bash: pyhton3: command not found\nAck: reply 1",
     "bash: pyhton3: command not found", "bash: pyhton3: command not found", "pyhton3 app.py"),
    # an agent's trace: its action's input is the command run
    ("Thought: build it\nAction: shell\nAction Input: gti push\nObservation: bash: gti: command not found",
     "bash: gti: command not found", "bash: gti: command not found", "gti push"),
    # a traceback flattened on one line of several, behind a label
    ("Alert #4\nDetails: File \"/srv/x.py\", line 4, in <module> import yamll ModuleNotFoundError: No module named "
     "'yamll'\nResolve: reply 6", "ModuleNotFoundError: No module named 'yamll'", 'File "/srv/x.py", line 4', None),
])
def test_alerts_and_agent_traces_give_their_message_and_command(sentence, message, in_detail, command):
    objects = ground([{"time": "1", "event": sentence}]).objects
    errors = [o for o in objects if o.kind == ERROR]
    assert [o.text for o in errors] == [message] and in_detail in errors[0].detail
    assert [o.text for o in objects if o.kind == COMMAND] == ([command] if command else [])


@pytest.mark.parametrize("sentence, message, in_detail", [
    # a printed code line's string ends in a space: its mark between spaces closes it, not a later quote's mark
    ('tmux pane 3:\n  File "/srv/tally.py", line 9, in total\n    label = "sum is " + count\n'
     'TypeError: can only concatenate str (not "float") to str\n$',
     'TypeError: can only concatenate str (not "float") to str', 'File "/srv/tally.py", line 9'),
    ('PROBLEMS ⓧ File "/srv/tally.py", line 9 ↵ label = "sum is " + count ↵ TypeError: can only concatenate str '
     '(not "float") to str', 'TypeError: can only concatenate str (not "float") to str', "label = "),
    # a terminal's text without a word around it: the frames over the exception's line are its own
    ('  File "/opt/etl/load.py", line 12, in run\n    rows = csv.readerr(handle)\n'
     'AttributeError: module \'csv\' has no attribute \'readerr\'',
     "AttributeError: module 'csv' has no attribute 'readerr'", 'File "/opt/etl/load.py", line 12'),
    ('VoiceOver caption panel:\nKonsole, text area\nFile "/opt/etl/load.py", line 3\n    import yamll\n'
     "ModuleNotFoundError: No module named 'yamll'\ninsertion point at end of text",
     "ModuleNotFoundError: No module named 'yamll'", 'File "/opt/etl/load.py", line 3'),
    # a traceback flattened into a field's text, its caret run into the code line
    ('a11y: role=terminal name="xterm" text=File "/opt/etl/cfg.py", line 7 while n < 3 ^ SyntaxError: expected \':\'',
     "SyntaxError: expected ':'", 'File "/opt/etl/cfg.py", line 7'),
])
def test_a_terminals_bare_traceback_keeps_its_frames_and_its_strings(sentence, message, in_detail):
    errors = [o for o in ground([{"time": "1", "event": sentence}]).objects if o.kind == ERROR]
    assert [o.text for o in errors] == [message] and in_detail in errors[0].detail, errors


def test_an_apostrophe_or_a_lone_mark_in_prose_still_ends_where_it_did():
    """A mark between spaces closes a quote only when nothing closes it later on the same terms: an apostrophe
    in a word and a quote that closes by nesting are read as before."""
    assert [q.text for q in quotes("He copies 'Can't open the 'wal' file' from the pane.")] == \
        ["Can't open the 'wal' file"]
    assert [q.text for q in quotes('He writes "x = " and then "yes"')] == ["x =", "yes"]


def test_a_caret_keeps_its_column_under_the_code_it_points_at(tmp_path, monkeypatch):
    """A pasted SyntaxError with its carets: the help corrects the line where the carets point, as live."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    sentence = ('## SyntaxError in my script\n\nNew to Python, sorry. Output:\n\n  File "/home/kim/pets.py", line 2\n'
                '    print("Pets:" count)\n          ^^^^^^^^^^^^^\nSyntaxError: invalid syntax. Perhaps you forgot '
                'a comma?\n\nedit: formatting')
    got = help_quality().help_for([{"time": "1", "event": sentence}], ['print("Pets:", count)'])
    assert got["ok"], got


@pytest.mark.parametrize("sentence, message, command", [
    # a screen reader speaks the typed line bare, under the window's own words and over its output
    ("Narrator: kim@lab: ~/site, terminal window\nNarrator: hugo server -D\nNarrator: Error: Unable to locate config "
     "file or config directory.", "Error: Unable to locate config file or config directory.", "hugo server -D"),
    ("SPEECH OUTPUT: 'Konsole'\nSPEECH OUTPUT: 'terminal'\nSPEECH OUTPUT: 'sqlite3 shop.db 'SELECT name, qty FROM "
     "stock;''\nSPEECH OUTPUT: 'Error: in prepare, no such table: stock'",
     "Error: in prepare, no such table: stock", "sqlite3 shop.db 'SELECT name, qty FROM stock;'"),
    # a chat's "the command was:" and a note's speaker before the command line, its quoted argument whole
    ("[02/03/2025, 10:01:02] Lee: the command was: sqlite3 shop.db 'SELECT name, qty FROM stock;'\n"
     "[02/03/2025, 10:01:09] Lee: Error: in prepare, no such table: stock",
     "Error: in prepare, no such table: stock", "sqlite3 shop.db 'SELECT name, qty FROM stock;'"),
    ("   - Lee: sqlite3 shop.db 'SELECT name, qty FROM stock;' fails with “Error: in prepare, no such table: stock”",
     "Error: in prepare, no such table: stock", "sqlite3 shop.db 'SELECT name, qty FROM stock;'"),
    # a possessive after a bracket opens no quote, and the person's own line under the message is not part of it
    ("Student 07 (Ana)'s build stopped with\nmake: *** No rule to make target 'tset'.  Stop.\nDid not see it at first.",
     "make: *** No rule to make target 'tset'. Stop", None),
    # a full stop written apart from the message ends it before the writer's next sentence
    ("Hello, when i am doing `node app.js` the result is error: Error: listen EADDRINUSE: address already in use "
     ":::3000 . Somebody know?", "Error: listen EADDRINUSE: address already in use :::3000", "node app.js"),
    # a forum's question: the message after its words, without the question's mark
    ("Q: Why does `git rebase main` fail with CONFLICT (content): Merge conflict in lib/db.rb?\n\nAsked today\n\n"
     "Output:\n\nCONFLICT (content): Merge conflict in lib/db.rb", "CONFLICT (content): Merge conflict in lib/db.rb",
     "git rebase main"),
])
def test_a_typed_line_given_bare_or_after_a_speaker_is_the_command(sentence, message, command):
    objects = ground([{"time": "1", "event": sentence}]).objects
    assert [o.text.rstrip(".") for o in objects if o.kind == ERROR] == [message.rstrip(".")], objects
    assert [o.text for o in objects if o.kind == COMMAND] == ([command] if command else []), objects


def test_an_output_line_of_a_known_program_is_no_typed_line():
    """npm's and pip's own lines start with their program's name: over the message they are its lines, not a
    command typed."""
    objects = ground([{"time": "1", "event": "Narrator: terminal window\nNarrator: npm ERR! code ENOENT\nNarrator: "
                                             "npm ERR! syscall open\nNarrator: npm ERR! enoent Could not read "
                                             "package.json"}]).objects
    assert [o.text for o in objects if o.kind == COMMAND] == [], objects
    # nor is a line of the person's words over a message, though it names a path
    objects = ground([{"time": "1", "event": "Narrator: moved the photos to ~/old first\nNarrator: cp: cannot stat "
                                             "'img': No such file or directory"}]).objects
    assert [o.text for o in objects if o.kind == COMMAND] == [], objects


@pytest.mark.parametrize("sentence, expect", [
    # git's '! [rejected]' line under a prompt's command and after a log's 'output:' is the message's first
    ("ana@box:~/blog$ git push origin main\n ! [rejected]        main -> main (fetch first)\nerror: failed to push "
     "some refs to 'git@example.org:ana/blog.git'", ["git pull --rebase"]),
    ("[09:01:02] shell=zsh cmd=git push -> exit 1; output: ! [rejected]        main -> main (fetch first) / error: "
     "failed to push some refs to 'git@example.org:ana/blog.git'", ["git pull --rebase"]),
    # a build's '*** ' line starts the message, and a line after one ending in a colon is no command
    ("Running `rbenv install 3.4.1` gives me:\n```\n*** Following extensions are not compiled:\nopenssl:\n"
     "Could not be configured. It will not be installed.\n```", ["libssl-dev"]),
])
def test_a_messages_first_line_by_its_form_is_kept(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_a_command_the_message_itself_names_is_no_command_run():
    """Printed advice inside a message ("run 'npm install' first") is the message's words: the command run is the
    one the sentence says was run."""
    note = ("Build notes\n\nRunning `npm ci` on the runner fails with:\n\n    npm ERR! code EUSAGE\n    npm ERR! The "
            "ci command can only install with an existing package-lock.json.\n    npm ERR! To fix it, run 'npm "
            "install' first and commit the lockfile.\n\nRefs #12")
    objects = ground([{"time": "1", "event": note}]).objects
    assert [o.text for o in objects if o.kind == COMMAND] == ["npm ci"], objects


def test_a_resolvers_report_goes_on_past_so_because():
    """PubGrub's report (bundler, uv, poetry) says "So, because …" within the message: not the writer's next
    sentence."""
    report = ("$ bundle install\nResolving dependencies...\nCould not find compatible versions\n\nBecause every version "
              "of rubocop-ast depends on parser >= 3.3\n  and Gemfile depends on parser = 3.1,\n  rubocop-ast cannot be "
              "used.\nSo, because Gemfile depends on rubocop-ast >= 0,\n  version solving has failed.")
    assert said_errors(report)[-1].text.splitlines()[-1].strip() == "version solving has failed"


@pytest.mark.parametrize("sentence, expect", [
    # a MySQL error's own 'ERROR 1045 (28000):' after the writer's colon starts the message
    ("Opening the shop db fails: ERROR 1045 (28000): Access denied for user 'ravi'@'localhost' (using "
     'password: NO)',
     ['mysql -u ravi -p']),
    # a message's own 'error:' inside its line, and pip's '[end of output]'
    ("Reviewer note: while building 'psutil' extension error: command 'gcc' failed: No such file or "
     'directory [end of output]',
     ['sudo apt install build-essential']),
    # one line quoted in a mail or review, after a line that leads up to it
    ('Build broke on main:\n\n> /usr/bin/ld: cannot find -lz: No such file or directory\n\nthanks',
     ['zlib1g-dev']),
    # a numbered item of a panel's list
    ("Problems (2):\n2. Unable to find image 'postgress:16' locally docker: Error response from "
     "daemon: pull access denied for postgress, repository does not exist or may require 'docker "
     "login': denied: requested access to the resource is denied.",
     ['postgres']),
    # 'the error is showing:' leads up to the message
    ('hello, the error is showing: permission denied while trying to connect to the Docker daemon '
     'socket at unix:///var/run/docker.sock: Get '
     '"http://%2Fvar%2Frun%2Fdocker.sock/v1.45/containers/json": dial unix /var/run/docker.sock: '
     'connect: permission denied',
     ['usermod -aG docker']),
    # a command run, in a writer's other verb ('I try to make go get …')
    ('Hi all, I try to make go get golang.org/x/tools/cmd/stringer but not work, it say "go: go.mod '
     "file not found in current directory or any parent directory. 'go get' is no longer supported "
     'outside a module."',
     ['go install golang.org/x/tools/cmd/stringer@latest']),
    # a log record's lines joined by ' | ', its command in a tab-separated field
    ('2025-03-01 10:02\tkonsole\tnode app.js\tnode:internal/modules/cjs/loader:1228 | throw err; | ^ | '
     "Error: Cannot find module 'lodash' | Require stack: | - /home/ana/app/app.js",
     ['npm install lodash']),
    # a mail: its subject names 'an error', the message is quoted in its body with its lines joined by ' | '
    ('Subject: a question about an error\n\nHi Sam,\n\nthis is what my terminal showed me today: '
     '"Traceback (most recent call last): | File "/home/sam/plot.py", line 1, in <module> | from '
     'sklearn.linear_model import Ridge | ModuleNotFoundError: No module named '
     '\'sklearn\'"\n\nthanks,\nLee',
     ['pip install scikit-learn']),
    # javac's lines run together: the code, caret, symbol and location after 'cannot find symbol'
    ('Ticket 88: `javac Main.java` fails: Main.java:5: error: cannot find symbol List<Integer> xs = '
     'new ArrayList<>(); ^ symbol:   class ArrayList location: class Main 1 error',
     ['import java.util.ArrayList']),
    # a table's rows joined by '; ' after its capitalised heading
    ('| 09:12 | Konsole | `kubectl get pods` → NAME          READY   STATUS             RESTARTS     '
     'AGE; api-5f6d7-abcde   0/1     CrashLoopBackOff   3 (10s ago)   1m |',
     ['kubectl logs api-5f6d7-abcde --previous']),
    # a Go program's klog line between a status bar's ' | ' fields, its message quoted inside it
    ('Panel: ✖ 2  |  kubectl get pods  |  E0301 09:00:01.000001   4242 memcache.go:265] "Unhandled '
     'Error" err="couldn\'t get current server API group list: Get '
     '\\"https://192.168.49.2:8443/api?timeout=32s\\": dial tcp 192.168.49.2:8443: connect: no route '
     'to host"',
     ['minikube start']),
    # a step the writer names in prose ('while running `x`') is no step the program printed
    ('Update 14:02\nWe saw failures on the runner while running `git checkout main`. What it reported '
     'is \n    Warning: you are leaving 1 commit behind, not connected to\n    any of your '
     'branches:\n\n      3f2a1bc wip\n\n    If you want to keep it by creating a new branch, this may '
     'be a good time\n    to do so with:\n\n     git branch <new-branch-name> 3f2a1bc\n\n    Switched '
     "to branch 'main'",
     ['git branch', '3f2a1bc']),
    # a mail's subject cut off with '…': the whole message in its body
    ('Subject: Re: Failed to start nginxx.service: Unit…\n\nHello Ana,\n\nrunning `sudo systemctl '
     'restart nginxx` gives me this:\n\n    Failed to restart nginxx.service: Unit nginxx.service not '
     'found.\n\nAny ideas?\nRavi',
     ['nginx']),
    # pytest's 'E' lines and the assertion around the output of the program a test ran
    ('=================================== FAILURES ===================================\n___________ '
     "test_cli ___________\n\n    def test_cli():\n        r = run('python3 cli.py')\n>       assert "
     'r.returncode == 0, r.stderr\nE       AssertionError: Traceback (most recent call last):\nE       '
     '    File "/home/ana/cli.py", line 1, in <module>\nE             import click\nE         '
     "ModuleNotFoundError: No module named 'click'\nE       assert 1 == 0\n\ntests/test_cli.py:5: "
     'AssertionError',
     ['pip install click']),
    # a report: a heading, the writer's list item and lead-in line are no message; rustc's ', but' goes on
    ('Weekly report\n\nDone:\n- The release notes were written.\n\nProblems:\n- When `cargo build` was '
     'run, the following was printed:\n       Compiling shapes v0.1.0 (/home/ana/shapes)\n    '
     'error[E0106]: missing lifetime specifier\n     --> src/lib.rs:1:30\n      |\n    1 | fn first(a: '
     '&str, b: &str) -> &str {\n      |             ----     ----     ^ expected named lifetime '
     "parameter\n      |\n      = help: this function's return type contains a borrowed value, but the "
     'signature does not say whether it is borrowed from `a` or `b`\n    help: consider introducing a '
     "named lifetime parameter\n      |\n    1 | fn first<'a>(a: &'a str, b: &'a str) -> &'a str {\n   "
     '   |         ++++     ++          ++          ++\n\nNext week: more tests.',
     ["fn first<'a>"]),
    # a pane of several prompts: the command is the last one before the message
    ('ana@box:~/site$ ls\nindex.js  package.json\nana@box:~/site$ gti commit -m wip\nbash: gti: '
     'command not found\nana@box:~/site$ ',
     ['git commit -m wip']),
    # a CI runner's raw log: a timestamp before every line
    ('2025-02-03T08:00:01.1234567Z ##[group]Run python3 fetch.py\n2025-02-03T08:00:01.2234567Z python3 '
     'fetch.py\n2025-02-03T08:00:02.1234567Z Traceback (most recent call last):\n'
     '2025-02-03T08:00:02.2234567Z   File "/home/runner/work/app/fetch.py", line 1, in <module>\n'
     '2025-02-03T08:00:02.3234567Z     import requests\n2025-02-03T08:00:02.4234567Z '
     "ModuleNotFoundError: No module named 'requests'\n2025-02-03T08:00:02.5234567Z ##[error]Process "
     'completed with exit code 1.',
     ['pip install requests']),
    # a screenshot's description: its own sentence before the message, 'the command entered is …'
    ('Alt text: A terminal window. The command entered is pyhton3 app.py. The only line of output '
     'reads: bash: pyhton3: command not found',
     ['python3 app.py']),
])
def test_the_help_is_read_from_messages_set_in_other_writers_pages(sentence, expect, tmp_path, monkeypatch):
    """Mails, tickets, status bars, tables and logs each set a message in its own way (a subject line, a list's
    number, a field separator, a klog prefix): the message is read out of them as the program printed it."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def _wrapped(text: str, width: int = 80) -> str:
    """`text` as a terminal window `width` columns wide shows it: long lines cut at the width."""
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("sentence, expect", [
    # a window's dump whose title gives its size; zsh's 'user@host dir %' prompt before and after
    ("notes — -zsh — 80×24\n" + _wrapped("ana@mbp notes % go build\n# example.com/shop\n./internal/checkout/"
                                         "cart_total.go:12:9: invalid operation: total * rate (mismatched types int "
                                         "and float64)\nana@mbp notes % "), ["float64(total)"]),
    # a tmux pane: lines cut at the width its status line fills, the status line no line of the message
    (_wrapped("ana@box:~/api$ cargo build\n   Compiling api v0.1.0 (/home/ana/api)\nerror[E0599]: no method named "
              "`flush` found for struct `Stdout` in the current scope\n --> src/main.rs:4:18\n  |\n4 |     "
              "io::stdout().flush().unwrap();\n  |                  ^^^^^ method not found in `Stdout`\n  |\n  = help: "
              "items from traits can only be used if the trait is in scope\nhelp: trait `Write` which provides `flush` "
              "is implemented but not in scope; perhaps you want to import it\n  |\n1 + use std::io::Write;\n  |\n"
              "ana@box:~/api$ ") + "\n[main] 0:bash* 1:vim-" + " " * 38 + "\"box\" 09:41 02-Mar-25",
     ["use std::io::Write"]),
])
def test_a_terminals_lines_cut_at_its_width_are_read_whole(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_a_line_that_fills_the_width_by_chance_keeps_the_next_line_apart():
    """Without a window's size, a line of 80 characters is joined to the next only where that one goes on
    mid-word: a next line of its own (a capital, an indent) stays a line."""
    line = "x" * 72 + " failed:"
    assert len(line) == 80
    objects = ground([{"time": "1", "event": f"$ make\n{line}\nTraceback (most recent call last):\n"
                                             "  File \"a.py\", line 1, in <module>\nNameError: name 'y' is not "
                                             "defined"}]).objects
    assert any(f"{line}\nTraceback (most recent call last):" in o.detail for o in objects if o.kind == ERROR), objects


def test_a_tables_rows_padded_alike_are_no_wrapped_lines(tmp_path, monkeypatch):
    """kubectl pads its rows to one length: rows as long as each other are rows, not one line the window cut."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    rows = ["NAME                                READY   STATUS             RESTARTS      AGE",
            "billing-scheduler-59c7d8b6f-r7wzn   1/1     Running            0             4m51s",
            "billing-worker-6b8d9f7c4-kx2pq      0/1     CrashLoopBackOff   5 (38s ago)   4m51s"]
    assert len(rows[1]) == len(rows[2])
    note = "The step `kubectl get pods -n jobs` failed.\n\n```\n" + "\n".join(rows) + "\n```"
    got = help_quality().help_for([{"time": "1", "event": note}], ["kubectl logs billing-worker-6b8d9f7c4-kx2pq"])
    assert got["ok"], got


@pytest.mark.parametrize("sentence, expect", [
    # the next command already typed at the prompt under the message
    ("lee@dev:~/app$ node server.js\nnode:internal/modules/cjs/loader:1148\n  throw err;\n  ^\n\nError: Cannot find "
     "module 'express'\nRequire stack:\n- /home/lee/app/server.js\nlee@dev:~/app$ clear", ["npm install express"]),
    # a root shell's prompt with the cursor drawn by a screenshot's text recognition
    ("root@web:/srv/shop# python3 manage.py migrate\nTraceback (most recent call last):\n  File "
     "\"/srv/shop/manage.py\", line 2, in <module>\n    import django\nModuleNotFoundError: No module named "
     "'django'\nroot@web:/srv/shop# █", ["pip install django"]),
    # zsh's prompt, a quoted path in the output above the idle prompt
    ('ana@mbp legacy % python3 "report.py"\n  File "/Users/ana/legacy/report.py", line 3\n    print "total"\n    '
     "^^^^^^^^^^^^^\nSyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?\n"
     "ana@mbp legacy % |", ["print("]),
])
def test_the_next_prompt_under_a_message_ends_it(sentence, expect, tmp_path, monkeypatch):
    """A terminal's text goes on past the message to the next prompt, idle or with the next command typed: the
    message is the output between the two prompts, the command the first prompt's."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


@pytest.mark.parametrize("sentence, expect", [
    # a pod's log with each line behind its source's name
    ("[pod/api-7d9f/api] Traceback (most recent call last):\n[pod/api-7d9f/api]   File \"/app/main.py\", line 1, in <module>\n[pod/api-7d9f/api]     import requests\n[pod/api-7d9f/api] ModuleNotFoundError: No module named 'requests'",
     ["pip install requests"]),
    # a shell's trace ('+ ') of the command a CI script ran
    ("Run ./deploy.sh\n+ cd /srv/app\n+ pyhton3 app.py\n./deploy.sh: line 4: pyhton3: command not found\nError: Process completed with exit code 127.",
     ["python3 app.py"]),
    # prose wrapped at a width across the quoted message
    ("Our runbook warns about the message “bash: pyhton3: command\nnot found”, which shows when someone runs pyhton3 app.py on a\nfresh machine that was never set up.",
     ["python3 app.py"]),
    # a table's padded columns: the command cell and the message cell, its wrapped line under it
    ("Command              Output\nnode server.js       Error: Cannot find module 'express'\n                     Require stack:\n\nOwner: Li",
     ["npm install express"]),
    # a JSON payload inside a log line: its command and its escaped lines
    ("2026-03-01T10:00:00Z ERROR job=deploy result={\"cmd\": \"node server.js\", \"rc\": 1, \"stderr\": \"node:internal/modules/cjs/loader:1148\\n  throw err;\\n  ^\\n\\nError: Cannot find module 'express'\\nRequire stack:\\n- /srv/app/server.js\"}",
     ["npm install express"]),
    # Ansible's 'FAILED! =>' object, cut short, its command given as argv
    ("PLAY [db] ***\nTASK [install] ***\nfatal: [db1]: FAILED! => {\"changed\": false, \"cmd\": [\"apt-get\", \"install\", \"-y\", \"ripgrepp\"], \"msg\": \"non-zero return code\", \"stderr\": \"E: Unable to locate package ripgrepp\", ...}",
     ["apt update"]),
])
def test_the_help_is_read_from_relayed_traced_wrapped_and_tabled_output(sentence, expect, tmp_path, monkeypatch):
    """A tool that relays a program's output (a pod's log, Ansible, a CI step's shell trace), a report's table or
    a document's wrapped prose: the message and the command read as the program printed them."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got
    assert "FAILED!" not in (got["offer"] or ""), got  # the offer quotes the program's message, not the relay's


@pytest.mark.parametrize("sentence, message", [
    ("The last lines say: ... ModuleNotFoundError: No module named 'bs4'", "ModuleNotFoundError: No module named 'bs4'"),
    ('Terminal shows: … npm error Missing script: "start"', 'npm error Missing script: "start"'),
    ("The pane ends with .. fatal: not a git repository (or any of the parent directories): .git",
     "fatal: not a git repository (or any of the parent directories): .git"),
    ("Terminal shows: ./deploy.sh: line 4: pyhton3: command not found", "./deploy.sh: line 4: pyhton3: command not found"),
    ("Terminal shows: ../run.sh: line 2: cd: /srv/x: No such file or directory",
     "../run.sh: line 2: cd: /srv/x: No such file or directory"),
])
def test_a_writers_dots_before_a_message_go_and_a_paths_stay(sentence, message):
    assert [o.text for o in ground([{"time": "1", "event": sentence}]).objects if o.kind == ERROR] == [message]


def test_a_line_padded_by_chance_is_no_tables_row():
    """npm's stack line has a known program's name, a wide gap and an error's word, but no other row has its next
    cell at that column: it is output, not a table's command and message."""
    text = ("The user runs 'npm install bcrypt' and the terminal prints:\nnpm error gyp ERR! stack Error: not found: "
            "make\nnpm error gyp ERR! stack     at getNotFoundError (/usr/lib/node_modules/npm/lib/index.js:16:17)")
    commands = [o.text for o in ground([{"time": "1", "event": text}]).objects if o.kind == COMMAND]
    assert commands == ["npm install bcrypt"]


@pytest.mark.parametrize("sentence, expect", [
    # a bug tracker's reply: the quoted question and the attachment line are no message
    ("Li Wei 2026-03-02 10:11:12 UTC\n\n(In reply to Ana from comment #2)\n> Could you paste the output of `npm start`?\n\nHere:\n\nnpm error Missing script: \"start\"\n\nCreated attachment 1234 [details]\nlog",
     ["npm run"]),
    # a bug report's template: what was expected and the version are the reporter's fields
    ("Description of problem:\n`sudo apt install ripgrepp` fails.\n\nVersion-Release number of selected component (if applicable):\napt-2.7.3-1.fc40\n\nActual results:\nE: Unable to locate package ripgrepp\n\nExpected results:\n\nNo error\n\nAdditional info:",
     ["apt update"]),
    # a video's chapters, each behind its time
    ("Chapters:\n0:00 Intro\n3:10 Running `pyhton3 app.py`\n3:42 bash: pyhton3: command not found\n9:00 Outro",
     ["python3 app.py"]),
    # a viewer's comment: its time, the quoted message, the reactions and the author's line
    ("@devnotes · 2 days ago\n12:04 \"ModuleNotFoundError: No module named 'requests'\" — same here after the update\n👍 12   Reply",
     ["pip install requests"]),
    # Vagrant: the provisioner's indented name on each relayed line, its closing paragraph
    ("==> web: Running provisioner: shell...\n    web: + node server.js\n    web: Error: Cannot find module 'express'\n    web: Require stack:\nThe SSH command responded with a non-zero exit status. Vagrant\nassumes that this means the command failed. The output for this command\nshould be in the log above. Please read the output to determine what\nwent wrong.",
     ["npm install express"]),
    # Packer's machine-readable lines, its escaped commas
    ("1700000000,amazon-ebs.web,ui,message,    amazon-ebs.web: + pyhton3 app.py\n1700000000,amazon-ebs.web,ui,message,    amazon-ebs.web: /tmp/script.sh: line 3: pyhton3: command not found\n1700000001,amazon-ebs.web,ui,error,Script exited with non-zero exit status: 127%!(PACKER_COMMA) Allowed exit codes are: [0]",
     ["python3 app.py"]),
    # Jenkins: the timestamper's time, a colour code left in, its closing lines
    ("[Pipeline] sh\n12:00:01  + python3 fetch.py\n12:00:02  Traceback (most recent call last):\n12:00:02    File \"/var/lib/jenkins/workspace/app/fetch.py\", line 1, in <module>\n12:00:02      import requests\n12:00:02  \u001b[31mModuleNotFoundError: No module named 'requests'\u001b[0m\nERROR: script returned exit code 1\nFinished: FAILURE",
     ["pip install requests"]),
    # Fluent Bit's records, one printed line in each
    ("[0] docker.abc123: [[1700000000.1, {}], {\"log\"=>\"Error: Cannot find module 'express'\", \"stream\"=>\"stderr\"}]\n[1] docker.abc123: [[1700000000.2, {}], {\"log\"=>\"Require stack:\", \"stream\"=>\"stderr\"}]\n[2] docker.abc123: [[1700000000.3, {}], {\"log\"=>\"- /srv/app/server.js\", \"stream\"=>\"stderr\"}]",
     ["npm install express"]),
    # a Compose service's name and time before its one line
    ("$ docker compose logs api\napi-1  | 2026-01-05T10:00:00.123456789Z Error: Cannot find module 'express'",
     ["npm install express"]),
])
def test_the_help_is_read_from_trackers_videos_provisioners_and_log_shippers(sentence, expect, tmp_path, monkeypatch):
    """Each wraps the program's lines in its own way (a field, a time, a source's name, a record, a colour code)
    and adds words of its own around them: the message is read as the program printed it, and the offer quotes it."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got
    quoted = (got["offer"] or "").split("'")[1]
    assert not re.match(r"(?:log|ERROR: script|- /|went wrong|amazon-ebs)", quoted), got


def test_a_units_name_before_its_lines_is_the_messages_own():
    """systemd writes 'unit.service: …' before each line about a unit: the name says which service (a help step
    edits that unit), unlike a provisioner's indented source name before the lines it relays."""
    text = ("Nov 28 10:25:26 web01 systemd[1]: reportd.service: Main process exited, code=exited, status=1/FAILURE\n"
            "Nov 28 10:25:26 web01 systemd[1]: reportd.service: Failed with result 'exit-code'.")
    details = [o.detail for o in ground([{"time": "1", "event": text}]).objects if o.kind == ERROR]
    assert details and "reportd.service: Failed with result" in details[0], details


@pytest.mark.parametrize("sentence, expect", [
    # a retry: the command run again prints the same error, its repeat cut to one line by the writer
    ("$ cargo build\nerror[E0433]: failed to resolve: use of undeclared type `HashMap`\n --> src/main.rs:3:17\n"
     "  |\n3 |     let mut m = HashMap::new();\n  |                 ^^^^^^^ use of undeclared type `HashMap`\n"
     "  |\nhelp: consider importing this struct\n  |\n1 + use std::collections::HashMap;\n  |\n"
     "$ git checkout HEAD~2\nHEAD is now at 1a2b3c4 older\n$ cargo build\n"
     "error[E0433]: failed to resolve: use of undeclared type `HashMap`\n$ git checkout -", ["std::collections::HashMap"]),
    # the idle prompt under the repeat is the screen's
    ("ana@box:~/svc$ python3 worker.py\nTraceback (most recent call last):\n"
     "  File \"/home/ana/svc/worker.py\", line 4, in <module>\n    token = os.environ[\"SLACK_TOKEN\"]\n"
     "            ~~~~~~~~~~^^^^^^^^^^^^^^^\n  File \"<frozen os>\", line 714, in __getitem__\n"
     "KeyError: 'SLACK_TOKEN'\nana@box:~/svc$ git stash\n"
     "Saved working directory and index state WIP on main: 1a2b3c4 x\nana@box:~/svc$ python3 worker.py\n"
     "KeyError: 'SLACK_TOKEN'\nana@box:~/svc$ \n",
     ["SLACK_TOKEN="]),
])
def test_a_commands_repeated_message_is_read_from_its_whole_first_copy(sentence, expect, tmp_path, monkeypatch):
    """A bisect or a retry runs one command again and again; a writer keeps the first output whole and shortens
    the repeats: the message read is the whole one the person saw."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_a_repeat_that_says_more_than_the_first_copy_is_its_own_message():
    """Only a repeat whose every line the earlier output holds is a shortened copy: a changed message is new."""
    text = ("$ make\ncc -o app app.c\napp.c:1:10: fatal error: zlib.h: No such file or directory\n$ vim app.c\n"
            "$ make\ncc -o app app.c -lz\n/usr/bin/ld: cannot find -lz: No such file or directory\n")
    details = [o.detail for o in ground([{"time": "1", "event": text}]).objects if o.kind == ERROR]
    assert details and "cannot find -lz" in details[0] and "zlib.h" not in details[0], details


def test_the_writers_short_question_is_no_message(tmp_path, monkeypatch):
    """'What am I missing?' under a pasted block has an error's word in it ('missing') and is still the writer's."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    for question in ("What am I missing?", "Where is the missing piece??", "Any ideas why it fails?"):
        sentence = (f"Hi all, `bin/rails server` then opening the app gives:\n\n```\nBlocked hosts: dev.acme.test\n```\n\n"
                    f"{question}\n\nthanks\n")
        got = help_quality().help_for([{"time": "1", "event": sentence}], ["config.hosts"])
        assert got["ok"], (question, got)


@pytest.mark.parametrize("sentence, expect", [
    # GitLab's folding sections and erase codes, its stage named in quotes: the job's command is npm's
    ("section_start:1700000000:step_script\n"
     "\u001b[0K\u001b[0K\u001b[36;1mExecuting \"step_script\" stage of the job script\u001b[0;m\n"
     "\u001b[32;1m$ npm ci\u001b[0;m\nnpm error code SELF_SIGNED_CERT_IN_CHAIN\n"
     "npm error errno SELF_SIGNED_CERT_IN_CHAIN\n"
     "npm error request to https://registry.npmjs.org/left-pad failed, reason: self-signed certificate in certificate chain\n"
     "section_end:1700000003:step_script\n\u001b[0K\u001b[31;1mERROR: Job failed: exit code 1\u001b[0;m\n\n",
     ["cafile"]),
    # Buildkite's time before each line, its closing line
    ("_bk;t=1700000000000~~~ Running commands\n_bk;t=1700000000100$ gti status\n"
     "_bk;t=1700000000200bash: gti: command not found\n"
     "_bk;t=1700000000300🚨 Error: The command exited with status 127\n\n",
     ["git status"]),
    # Azure's runner lines, its seven-digit times, the script's line under 'Script contents:'
    ("2025-03-02T10:00:01.1234567Z ##[section]Starting: Bash\n2025-03-02T10:00:01.2234567Z Script contents:\n"
     "2025-03-02T10:00:01.3234567Z python3 -m json.tool settings.json\n"
     "2025-03-02T10:00:01.4234567Z [command]/usr/bin/bash --noprofile --norc /home/vsts/work/_temp/5f2c.sh\n"
     "2025-03-02T10:00:02.1234567Z Expecting value: line 1 column 1 (char 0)\n"
     "2025-03-02T10:00:02.2234567Z ##[error]Bash exited with code '1'.\n"
     "2025-03-02T10:00:02.3234567Z ##[section]Finishing: Bash\n\n",
     ["empty"]),
    # Puppet relays what its resource's command printed behind the resource's path; its own closing error
    ("Mar 02 10:00:01 web-1 puppet-agent[812]: Info: Applying configuration version '1740909601'\n"
     "Mar 02 10:00:02 web-1 puppet-agent[812]: Notice: /Stage[main]/Web::Deploy/Exec[assets]/returns: Traceback (most recent call last):\n"
     "Mar 02 10:00:02 web-1 puppet-agent[812]: Notice: /Stage[main]/Web::Deploy/Exec[assets]/returns:   File \"/srv/web/build.py\", line 1, in <module>\n"
     "Mar 02 10:00:02 web-1 puppet-agent[812]: Notice: /Stage[main]/Web::Deploy/Exec[assets]/returns:     import jinja2\n"
     "Mar 02 10:00:02 web-1 puppet-agent[812]: Notice: /Stage[main]/Web::Deploy/Exec[assets]/returns: ModuleNotFoundError: No module named 'jinja2'\n"
     "Mar 02 10:00:02 web-1 puppet-agent[812]: Error: 'python3 build.py' returned 1 instead of one of [0]\n\n",
     ["pip install jinja2"]),
    # a chat's time before its sender, and the person's 'no luck, same error' after it
    ("09:10:01 <@ana:matrix.org> ran node app.js on the box:\n"
     "09:10:01 <@ana:matrix.org> Error: Cannot find module 'dotenv'\n09:10:01 <@ana:matrix.org> Require stack:\n"
     "09:10:01 <@ana:matrix.org> - /srv/app/app.js\n09:12:40 <@bo:matrix.org> did you npm install?\n"
     "09:14:02 <@ana:matrix.org> no luck, same error\n\n",
     ["npm install dotenv"]),
    # Ant relays what its task ran behind the task's name, and closes with its own verdict
    ("$ ant build\nBuildfile: /home/dev/tally/build.xml\nbuild:\n     [exec] Executing 'sh' with arguments:\n"
     "     [exec] '-c'\n     [exec] 'python3 tally.py'\n"
     "     [exec]   File \"/home/dev/tally/tally.py\", line 2\n     [exec]     if total > 10\n"
     "     [exec]                  ^\n     [exec] SyntaxError: expected ':'\n     [exec] Result: 1\n\n"
     "BUILD FAILED\n/home/dev/tally/build.xml:4: exec returned: 1\n\n",
     ["if total > 10:"]),
    # Maven's exec plugin: its wrapper's exception and goal line after the program's message
    ("[INFO] --- exec:3.1.0:exec (fetch) @ tally ---\nError: Cannot find module 'axios'\nRequire stack:\n"
     "- /home/dev/tally/fetch.js\n[ERROR] Command execution failed.\n"
     "org.apache.commons.exec.ExecuteException: Process exited with an error: 1 (Exit value: 1)\n"
     "    at org.apache.commons.exec.DefaultExecutor.executeInternal (DefaultExecutor.java:404)\n"
     "[INFO] BUILD FAILURE\n"
     "[ERROR] Failed to execute goal org.codehaus.mojo:exec-maven-plugin:3.1.0:exec (fetch) on project tally: Command execution failed.: Process exited with an error: 1 (Exit value: 1) -> [Help 1]\n"
     "\n",
     ["npm install axios"]),
])
def test_the_help_is_read_from_ci_runners_config_tools_and_chats(sentence, expect, tmp_path, monkeypatch):
    """Each runner or tool marks its lines its own way and closes with its own verdict: the command is the job's,
    the message the program's, and the offer quotes it rather than the runner's verdict."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got
    quoted = (got["offer"] or "").split("'")[1]
    assert not re.match(r"(?:<|🚨|Error: ’python3|ERROR: Job|_bk|\[exec\]|org\.apache)", quoted), got


@pytest.mark.parametrize("speakers", ["labels", "lines"])
def test_a_message_said_in_a_talk_is_read_where_its_notes_print_it(speakers):
    """A transcript's speaker says the message in words ('it just comes back with curl failed to …'); the notes
    under it print it: the printed one is the program's. The speaker is named before each line or on a line of
    its own over it ('Dana Ruiz  31:44')."""
    text = ("[00:31:40] Speaker 1: And the API call?\n"
     "[00:31:44] Speaker 2: So I run curl https://git.lab.internal/api/v4/version and\n"
     "[00:31:49] Speaker 2: it just comes back with curl failed to verify the legitimacy of the server.\n"
     "[00:31:52] Speaker 1: Oh no.\n[00:31:55] Speaker 2: There is a wall of text after it, but that is the line that matters.\n\n---\n\nShow notes\n\n"
     "31:40 — Dana's error after running `curl https://git.lab.internal/api/v4/version`:\n\n"
     "curl: (60) SSL certificate problem: unable to get local issuer certificate\n"
     "More details here: https://curl.se/docs/sslcerts.html\n\n")
    if speakers == "lines":
        text = re.sub(r"^\[00:(\d\d:\d\d)\] (Speaker \d): ", r"\2  \1\n", text, flags=re.M)
        assert "Speaker 2  31:49\nit just comes back" in text
    details = [o.detail for o in ground([{"time": "1", "event": text}]).objects if o.kind == ERROR]
    assert details and "curl: (60) SSL certificate problem" in details[0] and "comes back" not in details[0], details


@pytest.mark.parametrize("flat, lines", [
    # an exception's name after an error's word and colon is that line's own
    ("keytool error: java.security.UnrecoverableKeyException: Get Key failed: Given final block not properly padded",
     1),
    # after a code line's colon it starts the exception's line
    ("Traceback (most recent call last): File \"/srv/a.py\", line 3, in <module> for row in rnage(3): NameError: "
     "name 'rnage' is not defined", 4),
])
def test_a_one_line_message_is_cut_only_where_its_lines_start(flat, lines):
    from proactive.assistant.quotes import said_errors
    said = said_errors(f"The terminal shows: {flat}")
    assert said and len(said[0].text.splitlines()) == lines, said


@pytest.mark.parametrize("sentence, command, expect", [
    # Maven's exec plugin runs the project's script: its chatter before the traceback, its verdict and Java stack
    # after it are Maven's; the command is the one its plugin handed the shell
    ("<!-- pom.xml: exec-maven-plugin runs: sh -c \"python3 t.py\" -->\n\ndev@x1:~$ mvn package\n"
     "[INFO] Scanning for projects...\n[INFO] --- exec:3.1.0:exec (bootstrap) @ tally ---\n"
     "Traceback (most recent call last):\n  File \"/home/dev/t.py\", line 3, in <module>\n    print(os.getcwd())\n"
     "NameError: name 'os' is not defined\n[ERROR] Command execution failed.\n"
     "org.apache.commons.exec.ExecuteException: Process exited with an error: 1 (Exit value: 1)\n"
     "    at org.apache.commons.exec.DefaultExecutor.executeInternal (DefaultExecutor.java:404)\n[INFO] BUILD FAILURE\n",
     "python3 t.py", ["import os"]),
    # Meson's custom target under Ninja: the shell's command line in its runner's line
    ("ana@box:~/ledger$ meson compile -C build prepare\nninja: Entering directory `/home/ana/ledger/build'\n"
     "[4/5] Running external command prepare (wrapped by meson to set env)\nFAILED: meson-internal__prepare\n"
     "/usr/bin/meson --internal commandrunner /home/ana/ledger /home/ana/ledger/build '' /usr/bin/meson /bin/sh -c "
     "'gti status'\nbash: gti: command not found\nninja: build stopped: subcommand failed.\n",
     "gti status", ["git status"]),
    # Ant's exec task, each argument on a line of its own
    ("$ ant deps\n     [exec] Executing 'sh' with arguments:\n     [exec] '-c'\n     [exec] 'pip install flask-sqlalchemy==9.9'\n"
     "     [exec] ERROR: Could not find a version that satisfies the requirement flask-sqlalchemy==9.9 (from "
     "versions: 3.0.5, 3.1.1)\n     [exec] ERROR: No matching distribution found for flask-sqlalchemy==9.9\n"
     "BUILD FAILED\n", "pip install flask-sqlalchemy==9.9", ["pip index versions"]),
])
def test_a_build_tools_step_is_read_as_the_command_it_ran(sentence, command, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    grounding = ground([{"time": "1", "event": sentence}])
    assert command in [o.text for o in grounding.objects if o.kind == COMMAND]
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_a_wrapper_without_a_shells_line_stays_the_command():
    assert unquoted_command("$ mvn -q install\n[ERROR] Failed to execute goal x: Could not resolve dependencies") \
        == "mvn -q install"
    assert unquoted_command("$ bash -c 'make instal'\nmake: *** No rule to make target 'instal'.  Stop.") \
        == "bash -c 'make instal'"


@pytest.mark.parametrize("sentence, expect", [
    # a wiki's page: its 'Error' heading, the session in an ASCII box
    ("wicket - python error\n\nError\n\n+-----------------\n| $ python3 t.py\n| Traceback (most recent call last):\n"
     "|   File \"/home/dev/t.py\", line 2, in <module>\n|     stack.push(3)\n"
     "| AttributeError: 'list' object has no attribute 'push'\n+-----------------\n\nResolution\n", ["append"]),
])
def test_a_message_in_an_ascii_box_under_a_heading_is_read(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


@pytest.mark.parametrize("sentence, expect", [
    # macOS's unified log relaying a VM's or a runner's lines: its default, syslog and compact styles, Console.app
    ("Timestamp                       Thread     Type        Activity             PID    TTL  \n"
     "2024-04-21 22:56:29.097184+0530 0x12584d   Default     0x0                  30626  0    UTM: (Foundation) "
     "[com.utmapp.UTM:serial] ssh finn@dev.local -- gti log\n"
     "2024-04-21 22:56:29.118335+0530 0x12584d   Error       0x0                  30626  0    UTM: (Foundation) "
     "[com.utmapp.UTM:serial] zsh: command not found: gti\n", ["git log"]),
    ("% log show --style syslog --last 15m\n"
     "2024-05-12 13:23:41.119866+0100  MacBook-Pro helper[86902]: (helper) [dev.vm:console] python3 fetch.py\n"
     "2024-05-12 13:23:41.123677+0100  MacBook-Pro helper[86902]: (helper) [dev.vm:console] Traceback (most recent call last):\n"
     "2024-05-12 13:23:41.137391+0100  MacBook-Pro helper[86902]: (helper) [dev.vm:console]   File \"/home/dev/fetch.py\", line 1, in <module>\n"
     "2024-05-12 13:23:41.160567+0100  MacBook-Pro helper[86902]: (helper) [dev.vm:console]     import requests\n"
     "2024-05-12 13:23:41.184284+0100  MacBook-Pro helper[86902]: (helper) [dev.vm:console] ModuleNotFoundError: No module named 'requests'\n",
     ["pip install requests"]),
    ("Timestamp               Ty Process[PID:TID]\n"
     "2025-03-26 09:37:21.634 Df multipassd[45008:103e55] [com.canonical.multipass:exec] ssh dev@b.local -- make instal\n"
     "2025-03-26 09:37:21.649 E  multipassd[45008:103e55] [com.canonical.multipass:exec] make: *** No rule to make target 'instal'.  Stop.\n",
     ["make install"]),
    ("Copied from Console.app:\ndefault\t11:36:41.501213-0700\tUTM\tssh dev@jammy.local -- bundle install\n"
     "error\t11:36:41.521100-0700\tUTM\tYour Ruby version is 3.0.2, but your Gemfile specified 3.2.2\n"
     "error\t11:36:41.600190-0700\tUTM\tstep failed (exit 1)\n", ["3.2.2"]),
    # grep's hits and the lines around them in a searched log, a container's log prefix on each; grep's pattern
    # typed at the prompt is no message
    ("$ rg -n -B 1 -A 3 'error|Error|failed|Traceback|not found' logs/\n"
     "logs/ci-2024-09-12.log-755-$ python3 app.py\nlogs/ci-2024-09-12.log:756:Traceback (most recent call last):\n"
     "logs/ci-2024-09-12.log-757-  File \"/home/dev/gui/app.py\", line 1, in <module>\n"
     "logs/ci-2024-09-12.log-758-    import requests\n"
     "logs/ci-2024-09-12.log:759:ModuleNotFoundError: No module named 'requests'\n", ["pip install requests"]),
    ("rg output (2 matching lines):\n/var/log/pods/shop_x/app/0.log-1594-2025-09-05T01:45:18.605819921Z stderr F + pyhton3 cart.py\n"
     "/var/log/pods/shop_x/app/0.log:1595:2025-09-05T01:45:18.606715456Z stderr F bash: pyhton3: command not found\n",
     ["python3 cart.py"]),
    # a forwarded mail: the outside sender's warning, the forward's note, the original below its rule
    ("From: Noor Haddad <nh@example.com>\nSent: Saturday, May 11, 2024 2:26 AM\nTo: Platform Team\n"
     "Subject: FW: Help needed - terminal error\n\nCAUTION: This email originated from outside of the organization. "
     "Do not click links unless you recognize the sender.\n\nHi, please see below.\n\nNoor\n\n-----Original Message-----\n"
     "From: Li Wei <li@example.com>\nSent: Friday, May 10, 2024 5:06 AM\nTo: Noor Haddad <nh@example.com>\n"
     "Subject: Help needed - terminal error\n\nHello,\n\nI ran:\n\ngit push\n\nand got this:\n\n"
     "fatal: No configured push destination.\n\n[cid:image002.png@01DECFFE.018B01F8]\n\nThanks\nLi\n",
     ["git remote add origin"]),
    # a talk's transcript: the speaker's first word and comma, a message said in passing, then a sentence's stop
    ("WEBVTT\n\n1\n00:26:26.228 --> 00:26:29.690\nYara Costa: What happened?\n\n2\n00:26:32.474 --> 00:26:36.817\n"
     "Lena Ivanova: Right, so all I did was run gti log. That's it. And\n\n3\n00:26:38.113 --> 00:26:40.539\n"
     "Lena Ivanova: it just comes back with zsh: command not found: gti.\n\n4\n00:26:42.324 --> 00:26:45.724\n"
     "Yara Costa: Yeah, I've seen that one.\n", ["git log"]),
    # the same, the message printed whole in the notes after the last cue
    ("WEBVTT\n\n1\n00:21:31.157 --> 00:21:34.929\nGreta: So I type go install github.com/air-verse/air, hit enter, and\n\n"
     "2\n00:21:37.008 --> 00:21:41.912\nGreta: it just comes back with go: go install requires a version when current "
     "directory is not in a module.\n\n3\n00:21:43.467 --> 00:21:47.705\nJonas: Oh no.\n\n---\n\nSHOW NOTES\n\n"
     "21:21 - Greta's error after running `go install github.com/air-verse/air`:\n\n"
     "go: 'go install' requires a version when current directory is not in a module\n"
     "\tTry 'go install github.com/air-verse/air@latest' to install the latest version\n", ["@latest"]),
])
def test_the_help_is_read_from_system_logs_searches_forwards_and_talks(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_a_compilers_file_and_line_are_no_grep_hits():
    """javac names its file and line as grep does ('Guess.java:3: error: …'): they stay the message's."""
    sentence = ("```\nGuess.java:3: error: cannot find symbol\n        Scanner in = new Scanner(System.in);\n"
                "        ^\n  symbol:   class Scanner\n  location: class Guess\nGuess.java:4: error: cannot find symbol\n"
                "1 error\n```")
    grounding = ground([{"time": "1", "event": sentence}])
    assert any(o.text.startswith("Guess.java:3: error") for o in grounding.objects if o.kind == ERROR)


def test_a_remote_command_is_the_one_run():
    assert unquoted_command("$ ssh -p 2222 dev@box -- gti status\nbash: gti: command not found") == "gti status"
    assert unquoted_command("$ ssh deploy@build.example.com\ndeploy@build.example.com: Permission denied (publickey).") \
        == "ssh deploy@build.example.com"


@pytest.mark.parametrize("sentence, expect", [
    # a terminal saved as HTML: a row per <div>, colours in <span>s, entities
    ("<html><body><!--StartFragment--><pre><div style='color: #d3d7cf;'><div><span style='color: #4e9a06;'>dev@box"
     "</span><span>:</span><span>~/app</span><span>$ python3 fetch.py</span></div><div><span style='color: #ef2929;'>"
     "Traceback (most recent call last):</span></div><div><span>  File \"/home/dev/app/fetch.py\", line 1, in "
     "&lt;module&gt;</span></div><div><span>    import requests</span></div><div><span style='color: #ef2929;'>"
     "ModuleNotFoundError: No module named 'requests'</span></div></div></pre><!--EndFragment--></body></html>",
     ["pip install requests"]),
    # a quiz in Moodle's GIFT: its own marks escaped in the message
    ("// question: 22640  name: W10 - make\n::W10 - make\\: No rule::[html]<p>During the exercise you run\\:</p>"
     "<pre>make instal</pre><p>The output is\\:</p><pre>make\\: *** No rule to make target 'instal'.  Stop.</pre>"
     "<p>True or false\\: the command worked.</p>{FALSE}", ["make install"]),
    # a stream's chat: the message pasted in numbered parts, others talking between them
    ("[49:12] pavel: pasting the error for the people on mobile:\n[49:37] pavel: (1/2) Traceback (most recent call "
     "last): File \"/home/dev/app/fetch.py\", line 1, in <module> import\n[49:40] rosa: monkaS\n"
     "[49:54] pavel: (2/2) requests ModuleNotFoundError: No module named 'requests'\n", ["pip install requests"]),
    # an SMS relay cutting the message inside a word
    ("16/04 08:26 FRM:alerts@example.org\nSUBJ:ferry FAIL\nMSG:(1/2) [ALERT] job ferry exit 1. cmd=psql inventory "
     "err= psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: FATAL: da\n"
     "16/04 08:26 (2/2) tabase \"inventory\" does not exist\n", ["createdb"]),
    # a man page's session, its command in bold (each letter struck over itself)
    ("D\bDI\bIA\bAG\bGN\bNO\bOS\bST\bTI\bIC\bCS\bS\n       A typical failure:\n\n"
     "              $ m\bma\bak\bke\be i\bin\bns\bst\bta\bal\bl\n"
     "              make: *** No rule to make target 'instal'.  Stop.\n", ["make install"]),
    # a terminal's text in an accessibility tree: a Python string with its line breaks written '\\n'
    ("[terminal | Terminal]\n  text: 'dev@box:~/app$ python3 fetch.py\\nTraceback (most recent call last):\\n  File "
     "\"/home/dev/app/fetch.py\", line 1, in <module>\\n    import requests\\nModuleNotFoundError: No module named "
     "\\'requests\\''\n", ["pip install requests"]),
])
def test_the_help_is_read_from_saved_pages_quizzes_and_split_messages(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


def test_of_several_commands_the_last_before_the_message_is_the_one_run():
    """A cheat sheet's commands, then its note of the one that failed: the message came from the last before it."""
    sheet = ("# To push local commits to the remote:\ngit push {{remote}} {{branch}}\n\n# To run the project command:\n"
             "gti status\n\n# GOTCHA - note to self: `gti status` ->\n#   bash: gti: command not found\n")
    assert unquoted_command(sheet) == "gti status"
    assert unquoted_command("I ran make and got: make: *** No rule to make target 'instal'.  Stop. Then I ran "
                            "make install") == "make"


@pytest.mark.parametrize("sentence, expect", [
    # a summary's list: the writer's items around the message they quote
    ("**Activity (10:02-10:04)**\n\n- Before that, the user read a wiki page.\n- At 10:03 they ran `./backup.sh` in "
     "kitty.\n- It failed; the output included \"./backup.sh: line 5: OUT_DIR: command not found\" and more.\n"
     "- Nothing else was typed.", ["OUT_DIR="]),
    # a recording's seconds before each frame's caption, the message quoted in the writer's words
    ("t=12.0s — A terminal shows the prompt \"$\".\nt=14.5s — The command \"python3 convert.py\" has been typed.\n"
     "t=17.0s — The lower part shows \"FileNotFoundError: [Errno 2] No such file or directory: 'ffmpeg'\".\n"
     "t=19.5s — The user scrolls up; \"FileNotFoundError: [Errno 2] No such file or directory: 'ffmpeg'\" is now in "
     "the middle.", ["install ffmpeg"]),
    # a chat export's message naming its command in its first line, the output quoted in Markdown
    ('{"messages": [{"role": "user", "content": "when I run my tool, `pip install requests` it fails:\\n\\n'
     '> error: externally-managed-environment\\n> \\n> × This environment is externally managed\\n\\nany idea?"}]}',
     ["pip install requests"]),
])
def test_the_help_is_read_from_summaries_recordings_and_chat_exports(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


@pytest.mark.parametrize("sentence, expect", [
    # a recorder that keeps only what changed between two screens: its own hunk headers, '+ ' before each line
    ("@@ Konsole | t=09:12:04 @@\n+ ana@pad:~/shop$ python3 serve.py\n+ Traceback (most recent call last):\n"
     "+   File \"/home/ana/shop/serve.py\", line 1, in <module>\n+     import flask\n"
     "+ ModuleNotFoundError: No module named 'flask'\n@@ Konsole | status line @@\n- idle\n+ exit 1",
     ["pip install flask"]),
    # a terminal's output under its prompt going on past a blank line, its status lines starting '-- '
    ("dev@box:~/probe/build$ cmake ..\n-- The C compiler identification is GNU 12.2.0\n-- Detecting C compiler ABI info"
     " - done\nCMake Error at CMakeLists.txt:9 (add_subdirectory):\n  The source directory\n\n"
     "    /home/dev/probe/extern/fmt\n\n  does not contain a CMakeLists.txt file.\n\n\n"
     "-- Configuring incomplete, errors occurred!", ["git submodule update --init"]),
    # an answer in a data set's record: a sentence about someone, the message in its quotes
    ("Q: What happened after the command?\nA: They executed `npx eslint .`; it failed with \"ESLint couldn't find an "
     "eslint.config.(js|mjs|cjs) file.\"", ["eslint.config"]),
    # a Markdown table under its title, a time tracker's list whose item holds the message and the next item
    # another, a screen read onto one line with the prompt waiting after the message, a note in brackets
    ("Timeline, Tuesday\n\n| time | window | event | text |\n|---|---|---|---|\n| 11:02 | Terminal | keys | "
     "`ssh deploy@ci.example.org` |\n| 11:03 | Terminal | output | deploy@ci.example.org: Permission denied "
     "(publickey). |", ["ssh-copy-id"]),
    ("• 09:40–09:44 (4 min) Terminal — ran `sudo systemctl restart mysql`\n    • exit 5\n"
     "    • Failed to restart mysql.service: Unit mysql.service not found.\n• 09:44–09:50 (6 min) Firefox — searching"
     " \"Failed to restart mysql.service: Unit mysql.service not\"", ["systemctl list-unit-files"]),
    ('screen after Enter: "pat@lab:~/tools$ python3 plot.py Traceback (most recent call last): File '
     '"/home/pat/tools/plot.py", line 1, in <module> import numpy ModuleNotFoundError: No module named \'numpy\' '
     'pat@lab:~/tools$"', ["install numpy"]),
    ("so I type make and it fails [pasted by the transcriber: main.c:2:10: fatal error: openssl/ssl.h: No such file "
     "or directory]", ["libssl-dev"]),
    # a code span of two backticks holding single ones
    ("You ran `cargo watch -x run`. It failed with `` error: no such command: `watch` `` and stopped.",
     ["cargo install cargo-watch"]),
    # a caption model's lowercased message
    ("user typed git push, got error fatal: authentication failed for 'https://github.com/kim/notes.git/'",
     ["token"]),
    # an accessibility recorder's XML: the command's element, the lines' elements (one line or several)
    ('<evt kind="text-inserted" app="xterm" at="2025-02-01T10:00:00Z">\n  <cmd>node app.mjs</cmd>\n'
     '  <out>node:internal/modules/esm/resolve:283\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '
     '&apos;/srv/app/lib/db&apos; imported from /srv/app/app.mjs</out>\n</evt>', ["./lib/db.js"]),
    ('<log>\n <entry kind="typed"><input>sudo printf &quot;x\\n&quot; &gt;&gt; /etc/fstab</input></entry>\n'
     ' <entry kind="printed"><row>bash: /etc/fstab: Permission denied</row></entry>\n</log>', ["sudo tee -a"]),
    # a program's own line without an error word, its next step run onto it ('…; to update it: go mod tidy')
    ("user executes 'go build'; terminal prints error 'go: updates to go.mod needed; to update it: go mod tidy'",
     ["go mod tidy"]),
    # panes side by side in a terminal multiplexer's capture, its status line under them
    ("\n".join(f"{a:<40}│{b}" for a, b in zip(
        ["ana@pad:~$ git status", "On branch main", "nothing to commit", "ana@pad:~$", "", ""],
        ["ana@pad:~/api$ python3 serve.py", "Traceback (most recent call last):",
         '  File "/home/ana/api/serve.py", line 1, in <module>', "    import flask",
         "ModuleNotFoundError: No module named 'flask'", "ana@pad:~/api$"], strict=True))
     + "\n[main] 0:bash*  1:vim-                 12:04 07-Dec", ["pip install flask"]),
    # a screen's hardcopy: every line padded to 80 columns, a long one wrapped at a space
    ("\n".join(f"{line:<80}" for line in [
        "kim@mint ~ % psql shop", 'psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" ',
        'failed: FATAL:  database "shop" does not exist', "kim@mint ~ %", "", ""]), ["createdb"]),
    # pm2's process number and name before each line, its clock after them
    ("$ pm2 start app.js --name api\n$ pm2 logs api\n0|api    | 2025-01-02T10:00:01: node:internal/modules/cjs/loader:1228\n"
     "0|api    | 2025-01-02T10:00:01: Error: Cannot find module 'express'\n0|api    | 2025-01-02T10:00:01: "
     "Require stack:\n0|api    | 2025-01-02T10:00:01: - /srv/api/app.js", ["npm install express"]),
    # a keystroke logger's typed and printed streams, with a terminal's paste markers and caret-notation returns
    ("09:01:02 > ^[[200~pip install requests^[[201~<Enter>\n09:01:04 < error: externally-managed-environment^M\n"
     "09:01:04 < ^M\n09:01:04 < × This environment is externally managed", ["python3 -m venv"]),
    ("2025-03-01T10:00:00Z KEY gti status<Enter>\n2025-03-01T10:00:00Z OUT zsh: command not found: gti",
     ["git status"]),
    # a container's bare name before each of its lines
    ("$ podman logs --names web-api\nweb-api Traceback (most recent call last):\n"
     "web-api   File \"/srv/app.py\", line 1, in <module>\nweb-api     import yaml\n"
     "web-api ModuleNotFoundError: No module named 'yaml'", ["PyYAML"]),
    # a phone's narrow terminal, lines wrapped mid-word at its width
    ("~ $ cd blog\n~/blog $ git push\n" + "\n".join(
        line[i:i + 46] for line in ("fatal: The current branch draft-post has no upstream branch.",
                                    "To push the current branch and set the remote as upstream, use", "",
                                    "    git push --set-upstream origin draft-post")
        for i in range(0, max(len(line), 1), 46)) + "\n~/blog $", ["git push --set-upstream origin draft-post"]),
    # a time tracker's line: the command run and an arrow to what it printed
    ("- 14:02-14:05 (3 min) Zed — editing src/main.rs\n"
     "- 14:05-14:20 (15 min) Alacritty · ~/api · ran `cargo watch` → error: no such command: `watch`",
     ["cargo install cargo-watch"]),
])
def test_the_help_is_read_from_screen_recorders_data_sets_and_transcripts(sentence, expect, tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


@pytest.mark.parametrize("sentence, expect", [
    # a compiler's own sentence going on after ', but it …' on a line with its printed place under it
    ("$ cargo run\n   Compiling tail v0.1.0 (/home/io/tail)\nerror[E0373]: closure may outlive the current function, "
     "but it borrows `name`, which is owned by the current function\n  --> src/main.rs:7:30\n   |\n"
     "7  |     let h = thread::spawn(|| {\n   |                           ^^ may outlive borrowed value `name`\n"
     "help: to force the closure to take ownership of `name` (and any other referenced variables), use the `move` "
     "keyword\n   |\n7  |     let h = thread::spawn(move || {\n   |                           ++++\n", ["move ||"]),
    # a string literal's '\n' in the code a compiler quotes is no written line break
    ("kai@t14:~/fmt$ cargo check\nerror[E0599]: no method named `push_string` found for struct `String` in the "
     "current scope\n --> src/lib.rs:9:9\n  |\n9 |     s.push_string(&format!(\"{k}={v}\\n\"));\n  |       "
     "^^^^^^^^^^^\n  |\nhelp: there is a method `push_str` with a similar name\n  |\n9 -     "
     "s.push_string(&format!(\"{k}={v}\\n\"));\n9 +     s.push_str(&format!(\"{k}={v}\\n\"));\n  |\n",
     ["push_str"]),
    # PyYAML's "found character '\t'" written with its backslash, in a CI step's log
    ("step 3/5 lint-config\n+ python3 -c 'import yaml; yaml.safe_load(open(\"deploy/app.yml\"))'\n"
     "yaml.scanner.ScannerError: while scanning for the next token\nfound character '\\t' that cannot start any "
     "token\n  in \"deploy/app.yml\", line 12, column 1\nstep failed (exit 1)", ["sed -i"]),
    # CMake's indented block after a blank line, in a forum's code tags (no prompt above it)
    ("Result:\n[code]-- Detecting CXX compile features - done\nCMake Error at CMakeLists.txt:11 (add_subdirectory):\n"
     "  The source directory\n\n    /home/li/cam/vendor/imgui\n\n  does not contain a CMakeLists.txt file.\n\n"
     "-- Configuring incomplete, errors occurred![/code]", ["git submodule update --init"]),
    # a relay's words before the message on its line: a CI runner's step and line, a tracker's 'failed:'
    # (each line's prefix its own, so no prefix common to them; two lines as long as the longest are no window's
    # wrapping)
    ("$ woodpecker-cli exec .woodpecker/ci.yaml\n[lint:L0:0s] + python3 check.py\n[lint:L1:0s] Traceback (most "
     "recent call last):\n[lint:L2:0s]   File \"/src/check.py\", line 3, in <module>\n[lint:L3:0s]     import yaml\n"
     "[lint:L4:1s] ModuleNotFoundError: No module named 'yaml'\nlint : exit code 1", ["pyyaml"]),
    ("• 16:20-16:31 (11m) Konsole — ran `python3 plot.py` → failed: ModuleNotFoundError: No module named 'matplotlib'",
     ["matplotlib"]),
    # a coding agent's transcript: its tool call, the output under it after '⎿' (cut by the agent), its own words
    ("⏺ Bash(python3 report.py)\n  ⎿  Error: Traceback (most recent call last):\n       File \"/home/kim/report.py\", "
     "line 1, in <module>\n         import pandas\n     ModuleNotFoundError: No module named 'pandas'\n\n"
     "⏺ The script needs pandas, which is not installed.", ["pip install pandas"]),
    ("• Ran ./release.sh\n  └ bash: ./release.sh: Permission denied\n\n• The script is not executable.", ["chmod +x"]),
    # a terminal's shell-integration marks kept as text, with and without their escape
    ("]633;A\\kim@box:~/app$ ]633;B\\./release.sh\n]633;E;./release.sh;0f3e9a12-5b7c-4d21-9e0a-6c1d2b3a4f56\\"
     "]633;C\\bash: ./release.sh: Permission denied\n]633;D;126\\]633;A\\kim@box:~/app$ ]633;B\\", ["chmod +x"]),
    ("^[]0;kim@box: ~/app^G^[]133;A^Gkim@box:~/app$ ^[]133;B^Gpython3 app.py^M\n^[]133;C^GTraceback (most recent "
     "call last):^M\n  File \"/home/kim/app/app.py\", line 2, in <module>^M\n    import flask^M\n"
     "ModuleNotFoundError: No module named 'flask'^M\n^[]133;D;1^G", ["pip install flask"]),
    # an accessibility tree's text nodes, in a web agent's record
    ('{"action": "[textbox] Terminal -> TYPE: cargo build", "observation": ["[StaticText] \'error[E0425]: cannot '
     'find value `totl` in this scope\'", "[StaticText] \' --> src/main.rs:4:20\'", "[StaticText] \'help: a local '
     'variable with a similar name exists: `total`\'"]}', ["total"]),
    # strace's record of what the program wrote, among its other calls
    ("$ strace -f -e trace=openat,write node server.js\n4411 openat(AT_FDCWD, \"/home/kim/srv/node_modules/express\", "
     "O_RDONLY) = -1 ENOENT (No such file or directory)\n4411 write(2, \"node:internal/modules/cjs/loader:1228\\n"
     "  throw err;\\n  ^\\n\\nError: Cannot find module 'express'\\nRequire stack:\\n- /home/kim/srv/server.js\\n\""
     ", 120) = 120\n4411 +++ exited with 1 +++", ["npm install express"]),
    # a search's hits marked in the text it found
    ("Search: 'module named' — 10:02 Konsole — kim@box:~/app$ python3 app.py Traceback (most recent call last): "
     "File \"/home/kim/app/app.py\", line 1, in <module> import yaml ModuleNotFoundError: No **module** **named** "
     "'yaml'", ["pyyaml"]),
    # a message pasted into a chat CLI between '"""', each line after the first behind '... '
    ('$ ollama run llama3.2\n>>> """why does this fail\n... $ ./backup.sh\n... ./backup.sh: line 4: OUT_DIR: command '
     'not found\n... """', ["OUT_DIR="]),
    # a chat's mark on an edited message, the writer's question after a dash
    ("[09:14] Kim Lee\nwhen I run python3 app.py: KeyError: 'SECRET_KEY' (edited)", ["SECRET_KEY"]),
    ("javac Shop.java → Shop.java:5: error: cannot find symbol - any idea?\n[09:20] Kim Lee\nShop.java:5: error: cannot"
     " find symbol\n        List<String> xs = new ArrayList<>();\n                              ^\n  symbol:   class "
     "ArrayList\n  location: class Shop\n1 error", ["java.util"]),
    # first and last lines given with the writer's ' ... ' for what they left out
    ("After `java Shop.class` the screen reads \"Error: Could not find or load main class Shop.class ... Caused by: "
     "java.lang.ClassNotFoundException: Shop.class\".", ["java Shop"]),
    # a mail to a help desk: its subject the writer's words, its body wrapped by the mail program at its width
    ("Subject: Urgent - error in terminal\n\nHello,\n\nI was told to start the app like the wiki says and typed "
     "java Report in the\nfolder target/classes/com/shop/reports. This is what came back:\n\nError: Could not find "
     "or load main class Report\nCaused by: java.lang.NoClassDefFoundError: Report (wrong name:\ncom/shop/reports/"
     "Report)\n\nWhat should I do?\n\nBest regards,\nAnna", ["com.shop.reports.Report"]),
    # a shell's history listed, the last entry the command that printed the message under it
    ("$ HISTTIMEFORMAT='%F %T ' history | tail -n 2\n  311  2025-01-04 10:02:11 cd ~/shop\n  312  2025-01-04 10:02:19 "
     "python3 app/main.py\n(exit 1)\nTraceback (most recent call last):\n  File \"/home/kim/shop/app/main.py\", line 1, "
     "in <module>\n    from .config import settings\nImportError: attempted relative import with no known parent "
     "package", ["-m app.main"]),
    ("$ atuin search --exit 1 --limit 1 --format \"{time} | {exit} | {duration} | {directory} | {command}\" git\n"
     "2025-02-01 09:12:44 | 1 | 31ms | /home/kim/site | gti status\n\noutput ->\nbash: gti: command not found",
     ["git status"]),
    # aider's chat history: the person's lines behind '#### ', a command run for the chat after a rule line
    ("# aider chat started at 2025-03-02 11:02:10\n\n#### why does this fail  \n####   \n#### Traceback (most recent "
     "call last):  \n####   File \"/home/kim/t.py\", line 2, in <module>  \n####     import requests  \n"
     "#### ModuleNotFoundError: No module named 'requests'  \n", ["pip install requests"]),
    ("Use /help <question> for help, run \"aider --help\" to see cmd line args\n" + "─" * 80 + "\n"
     "> /run sudo echo \"10.0.0.5 api.local\" >> /etc/hosts\n\nbash: /etc/hosts: Permission denied\n\n"
     "Add 0.1k tokens of command output to the chat? (Y)es/(N)o [Yes]: y\n" + "─" * 80 + "\n> fix it", ["sudo tee"]),
    # Node's place, code line and caret over a blank line and the exception
    ("The message is:\n\n/home/kim/app/totals.js:3\n  sum += Number(row.match(/(\\d+) EUR/)[1]);\n"
     "                                       ^\n\nTypeError: Cannot read properties of null (reading '1')\n"
     "    at Object.<anonymous> (/home/kim/app/totals.js:3:40)\n\nNode.js v20.11.1", ["row.match"]),
    # `script`'s raw typescript: the line typed over after backspaces, '\r\n' line ends, a title's escape
    ("Script started on 2025-01-02 10:00:00+01:00\n\x1b]0;kim@box: ~/app\x07kim@box:~/app$ \x1b[7mpython3 app.py"
     "\x1b[27m" + "\x08" * 14 + "python3 app.py\r\n\rTraceback (most recent call last):\r\n  File \"/home/kim/app/"
     "app.py\", line 1, in <module>\r\n    import flask\r\nModuleNotFoundError: No module named 'flask'\r\n"
     "\x1b]0;kim@box: ~/app\x07kim@box:~/app$ exit\r\n", ["pip install flask"]),
    # a command line said bare mid-sentence, then what it gave (quoted arguments whole)
    ("ugh 🙃 psql -U billing -d crm -c \"SELECT * FROM invoices;\" gives me \"ERROR:  permission denied for table "
     "invoices\" again", ["GRANT SELECT"]),
    # a build's own failing step named in its output: that command, not the prompt's 'docker build'
    ("kim@box:~/crm$ docker build -t crm:dev .\nStep 4/6 : RUN psql -h localhost -U billing crm -c 'SELECT 1 FROM "
     "invoices;'\n ---> Running in 3f2a1b0c9d8e\nERROR:  permission denied for table invoices\nThe command '/bin/sh -c "
     "psql -h localhost -U billing crm -c 'SELECT 1 FROM invoices;'' returned a non-zero code: 1", ["TO billing"]),
    # a forwarded mail: a prompt's line, then a line longer than the mail's width (no wrapped line of it)
    ("From: Kim Lee <kim@example.org>\nSent: Monday, March 3, 2025 9:12 AM\nTo: Ops\nSubject: restart failing\n\n"
     "Hi,\n\nI ran this on the box and got:\n\nkim@web-02:~$ sudo systemctl restart worker\nWarning: The unit file, "
     "source configuration file or drop-ins of worker.service changed on disk. Run 'systemctl daemon-reload' to "
     "reload units.\n\nThanks,\nKim", ["systemctl daemon-reload"]),
])
def test_the_help_is_read_whatever_records_or_relays_the_program_s_lines(sentence, expect, tmp_path, monkeypatch):
    """A program's lines as tools around it keep them: a relay's words before them, an agent's transcript, a
    terminal's marks, a tree's nodes, strace's calls, a search's hits, a chat CLI's, a mail's, a history's."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got


@pytest.mark.parametrize("sentence, expect", [
    # an event log as a JSON array: the entry that says a line was typed gives the command
    ('[\n {"ts": "09:01:02", "type": "input", "text": "gti stash pop"},\n'
     ' {"ts": "09:01:03", "type": "stderr", "text": "bash: gti: command not found"}\n]', ["git stash pop"]),
    ('[{"when": 1, "event": "Typed Command", "detail": "pyhton3 -m http.server 8000"}, '
     '{"when": 2, "event": "terminal shows", "detail": "zsh: command not found: pyhton3"}]',
     ["python3 -m http.server 8000"]),
    # a writer's label before a compiler's place in an entry, and a selection quoting the line
    ('[{"event": "typing", "detail": "go run main.go"}, {"event": "output", "detail": "in red: ./main.go:9:2: '
     'undefined: loadConfig"}, {"event": "select", "detail": "marks \\"./main.go:9:2: undefined: loadConfig\\""}]',
     ["go run ."]),
    # an editor's problems copied as JSON: the message field's traceback, its place included
    ('[{\n\t"resource": "/home/ana/calc.py",\n\t"owner": "python",\n\t"severity": 8,\n\t"message": "  File \\"/home/'
     'ana/calc.py\\", line 4\\n    while n > 0\\n               ^\\nSyntaxError: expected \':\'",\n\t"startLineNumber": '
     '4\n}]', ["while n > 0:"]),
    # an agent's turn ends with the command it runs in a fence; the next turn is what it printed
    ('{"id": "run-7", "steps": [{"role": "assistant", "content": "Checking the log.\\n```\\ngti log --oneline\\n```"},'
     ' {"role": "tool", "content": "bash: gti: command not found"}]}', ["git log --oneline"]),
    # Windows's cmd.exe prompt (no space after it) and wsl.exe's options before the command it runs
    ("Microsoft Windows [Version 10.0.22631.4602]\n\nC:\\Users\\ravi>wsl -d Ubuntu-22.04 --cd ~/app gti pull\n"
     "/bin/bash: line 1: gti: command not found\n\nC:\\Users\\ravi>", ["git pull"]),
    # a job's output sent to a file, then shown with cat or tail
    ("ops@ci-3:~$ nohup gti fetch --all > fetch.log 2>&1 &\n[1] 4411\nops@ci-3:~$ tail -n 5 fetch.log\n"
     "nohup: ignoring input\nbash: gti: command not found\n[1]+  Exit 127   nohup gti fetch --all > fetch.log 2>&1\n"
     "ops@ci-3:~$", ["git fetch --all"]),
    # a screenshot's text as a table of lines: Accept reads the row the offer quotes
    ("**capture-0412.png** - text found\n\n| line | text | confidence |\n|---|---|---|\n| 1 | ops@jump:~$ ssh build-7 | "
     "0.95 |\n| 2 | Received disconnect from 10.1.4.7 port 22:2: Too many authentication failures | 0.93 |\n| 3 | "
     "Disconnected from 10.1.4.7 port 22 | 0.92 |", ["IdentitiesOnly"]),
    # an alert with the message cut short in its summary and whole in its description
    ('{"status": "firing", "alerts": [{"labels": {"alertname": "JobFailed"}, "annotations": {"description": "Command '
     '`createuser app` exited with status 1.\\nLast lines:\\ncreateuser: error: connection to server on socket '
     '\\"/var/run/postgresql/.s.PGSQL.5432\\" failed: FATAL:  role \\"root\\" does not exist", "summary": "Job: '
     'createuser: error: connection to server on socket \\"/var/run/postgresql/.s..."}}]}', ["sudo -u postgres"]),
    # a quote cut short in the offer, a backtick in it: Accept reads the error of the context, not the task's words
    ("The user copies the error message 'fetch.c:(.text+0x1d): undefined reference to `curl_easy_init'' from the "
     "terminal using 'ctrl+shift+c'.", ["-lcurl"]),
    # a message line that fills a 80-column terminal exactly, the prompt under it
    ("dev@t480:~/calc$ python3 calc.py\n  File \"/home/dev/calc/calc.py\", line 10\n    return total\n    ^\n"
     "IndentationError: expected an indented block after function definition on line 9\ndev@t480:~/calc$",
     ["line 10"]),
])
def test_the_help_is_read_from_event_logs_problem_lists_agents_and_other_shells(sentence, expect, tmp_path,
                                                                                   monkeypatch):
    """A program's lines as event logs, an editor's problem list, an agent's turns, Windows's shells and a
    job's log file keep them: the command typed, run through wsl or sent to a file, and the message whole."""
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    got = help_quality().help_for([{"time": "1", "event": sentence}], expect)
    assert got["ok"], got
