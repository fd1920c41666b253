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
