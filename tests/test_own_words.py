"""The next step a program states itself (help:, hint:, did you mean, to add:, try `…`, See "…", run …), given
when no rule of ours knows the error: examples from several ecosystems, and texts where no such line exists."""

from __future__ import annotations

import pytest

from proactive.assistant.diagnose import Situation, diagnose
from proactive.assistant.diagnose.own_words import own_steps

RUSTC = """error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable
 --> src/main.rs:4:5
  |
3 |     let first = &v[0];
  |                  - immutable borrow occurs here
4 |     v.push(6);
  |     ^^^^^^^^^ mutable borrow occurs here
help: consider cloning the value if the performance cost is acceptable
For more information about this error, try `rustc --explain E0502`."""
GO = """main.go:4:2: no required module provides package github.com/gorilla/mux; to add it:
\tgo get github.com/gorilla/mux"""


@pytest.mark.parametrize("text, said, command", [
    (RUSTC, "try `rustc --explain E0502`", "rustc --explain E0502"),
    (GO, "go get github.com/gorilla/mux", "go get github.com/gorilla/mux"),
    ("unknown flag: --prot\nSee 'docker run --help'.", "See 'docker run --help'", "docker run --help"),
    ("The connection to the server localhost:8080 was refused - did you specify the right host or port?",
     "Did you specify the right host or port?", None),
    ("found 3 vulnerabilities (1 moderate, 2 high)\n  run `npm audit fix` to fix them, or `npm audit` for details",
     "npm audit fix", "npm audit fix"),
    ("error: could not compile `foo` due to 2 previous errors\nhelp: try running cargo update", "cargo update",
     "cargo update"),
    ("npm ERR! please run npm install to fix it", "npm install", "npm install"),
    # commands announced on the lines below, after a blank line, several of them
    ("Your user account isn't allowed to install to the system RubyGems.\n  You can cancel this installation and run:"
     "\n\n      bundle config set --local path 'vendor/bundle'\n      bundle install\n\n  to install the gems into "
     "./vendor/bundle/", "bundle config set", "bundle config set --local path 'vendor/bundle' && bundle install"),
    # a command quoted in the middle of a sentence
    ("Your bundle requires a different version of Bundler than the one you're running.\nInstall the necessary "
     "version with `gem install bundler:2.7.2` and rerun bundler", "gem install bundler:2.7.2",
     "gem install bundler:2.7.2"),
    ("hint: Updates were rejected because the remote contains work that you do not\n"
     "hint: have locally. You may want to first integrate the remote changes", "Updates were rejected", None),
])
def test_the_message_s_own_next_step_is_given_with_its_command(text, said, command):
    steps = own_steps(text)
    assert any(said.lower() in s.text.lower() for s in steps), steps
    assert (command in [s.command for s in steps]) if command else True, steps
    found = diagnose(Situation(text))
    assert found is not None and found.steps, found
    if command:
        assert any(s.command == command and s.language == "shell" for s in found.steps), found


RUSTC_SUGGESTS = """error[E0599]: no method named `read_to_string` found for struct `File` in the current scope
 --> src/main.rs:5:7
  |
5 |     f.read_to_string(&mut s).unwrap();
  |       ^^^^^^^^^^^^^^ method not found in `File`
  |
help: trait `Read` which provides `read_to_string` is implemented but not in scope; perhaps you want to import it
  |
1 + use std::io::Read;
  |
For more information about this error, try `rustc --explain E0599`.
error: could not compile `notes` (bin "notes") due to 1 previous error"""
RUSTC_MARKS = """error[E0308]: mismatched types
 --> src/main.rs:2:24
  |
2 |     let name: String = "ana";
  |               ------   ^^^^^- help: try using a conversion method: `.to_string()`
  |               |        |
  |               expected due to this
help: try using a conversion method
  |
2 |     let name: String = "ana".to_string();
  |                             ++++++++++++"""


@pytest.mark.parametrize(("text", "code"), [(RUSTC_SUGGESTS, "use std::io::Read;"),
                                            (RUSTC_MARKS, 'let name: String = "ana".to_string();')])
def test_rustc_s_suggested_code_is_given_as_code_under_the_error_s_own_headline(text: str, code: str) -> None:
    found = diagnose(Situation(text))
    assert found is not None and found.rule == "tool.own_words"
    first = found.steps[0]
    assert first.command == code and first.language == "rust" and first.copy_label == "Copy code"
    assert found.problem.startswith('"error[E0')  # the error's line, not "Compiling …" or "could not compile"


@pytest.mark.parametrize("text", [
    "Segmentation fault (core dumped)",
    'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    try: x = load()\nFrobError: bad frob',
    "make: *** [Makefile:12: all] Error 1",
    "We will try our best to help you with the error",  # "try" in a sentence, no step
])
def test_no_step_is_made_up_where_the_message_states_none(text):
    assert own_steps(text) == []
    found = diagnose(Situation(text))
    assert found is None or found.rule != "tool.own_words", found


def test_a_rule_of_ours_comes_before_the_message_s_own_words():
    """systemd's failed unit has its own rule (the log's last lines first); the generic reading comes last."""
    text = ("Job for nginx.service failed because the control process exited with error code.\n"
            'See "systemctl status nginx.service" and "journalctl -xeu nginx.service" for details.')
    found = diagnose(Situation(text))
    assert found is not None and found.rule != "tool.own_words"
    assert [s.command for s in own_steps(text)] == ["systemctl status nginx.service"]
