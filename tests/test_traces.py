"""A system-call trace read back into the session it records (`assistant/traces.py`)."""

from __future__ import annotations

import pytest

from proactive.assistant.traces import untraced
from tests.bench_support import help_quality


def test_a_trace_reads_as_the_command_run_and_the_lines_it_wrote():
    trace = ('$ strace -f -tt -e trace=write,execve -s 128 git checkout main\n'
             '10:00:01.000001 execve("/usr/bin/git", ["git", "checkout", "main"], 0x7ffd /* 43 vars */) = 0\n'
             '[pid  4242] 10:00:01.000200 write(2, "error: Your local changes to the following files would be '
             'overwritten by checkout:\\n", 79) = 79\n'
             '[pid  4242] 10:00:01.000300 write(2, "\\tapp.py\\nPlease commit your changes ", 35) = 35\n'
             '[pid  4242] 10:00:01.000400 write(2, "or stash them before you switch branches.\\n", 42) = 42\n'
             '[pid  4242] 10:00:01.000500 write(1, "caf\\303\\251 \\"quoted\\"\\n", 15) = 15\n'
             '--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---\n'
             '+++ exited with 1 +++')
    assert untraced(trace) == (
        "$ strace -f -tt -e trace=write,execve -s 128 git checkout main\n$ git checkout main\n"
        "error: Your local changes to the following files would be overwritten by checkout:\n\tapp.py\n"
        "Please commit your changes or stash them before you switch branches.\ncafé \"quoted\"")


@pytest.mark.parametrize("text", [
    "I called write(2, \"x\", 1) in my C program and nothing showed.",  # one call named in prose: no trace
    "no trace here at all",
])
def test_text_without_a_trace_is_unchanged(text):
    assert untraced(text) == text


def test_a_traced_mistyped_command_gets_the_live_help(tmp_path, monkeypatch):
    monkeypatch.setenv("PROACTIVE_HOME", str(tmp_path))
    trace = ('$ strace -f -e trace=write,execve -s 4096 -o /tmp/t.out pyhton3 manage.py runserver\n$ cat /tmp/t.out\n'
             'execve("/usr/bin/pyhton3", ["pyhton3", "manage.py", "runserver"], 0x7ff8 /* 36 vars */) = 0\n'
             'write(2, "bash: pyhton3: command not found\\n", 33) = 33\n+++ exited with 127 +++')
    got = help_quality().help_for([{"time": "1", "event": trace}], ["python3 manage.py runserver"])
    assert got["ok"], got
