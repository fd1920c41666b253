"""A system-call trace (`strace -e trace=write,execve`) as the session it records: each `execve` is a command line
run, each `write` to the terminal (standard output or error) the text it printed. A trace holds the program's
message whole, but one C-escaped string per call ('write(2, "bash: gti: command not found\\n", 33) = 33'), with
the call's time and process before it; grounding reads a message by its lines, so the calls are read back into
the lines they wrote before anything else reads the text.

A line that is no such call (the shell's prompt that started strace, `+++ exited with 1 +++`) stays as it is,
except strace's own notes about signals and exits, which no program printed."""

from __future__ import annotations

import codecs
import re
import shlex

#: what strace writes before a call: the process's id when it follows children, the time with -t/-tt/-ttt
CALL_HEAD = r"^[ \t]*(?:\[pid +\d+\] +|\d+ +)?(?:\d+(?::\d\d:\d\d)?(?:\.\d+)? +)?"
#: a call writing to the terminal: 'write(2, "…\n", 33) = 33' (strace cuts a long string: '"…"...')
WRITE = re.compile(CALL_HEAD + r'write\([12], "(?P<text>(?:[^"\\]|\\.)*)"(?:\.\.\.)?, \d+\)[ \t]*=[^\n]*$', re.M)
#: a program started: 'execve("/usr/bin/git", ["git", "checkout", "main"], 0x7ff… /* 43 vars */) = 0'
EXECVE = re.compile(CALL_HEAD + r'execve\("[^"]*", \[(?P<argv>(?:"(?:[^"\\]|\\.)*"(?:\.\.\.)?(?:, )?)*)\][^\n]*= 0[^\n]*$',
                    re.M)
#: strace's own lines: a signal delivered, a process's exit, a call interrupted and resumed
NOTE = re.compile(CALL_HEAD + r"(?:\+\+\+ .* \+\+\+|--- SIG\w+ .* ---|<\.\.\. \w+ resumed>.*|.*<unfinished \.\.\.>)[ \t]*$")
#: one C-escaped string of an argv
ARG = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unescaped(text: str) -> str:
    """A C-escaped string as its text: '\\n', '\\"', '\\t', octal bytes ('\\342\\200\\231' is '’')."""
    return codecs.escape_decode(text.encode("utf-8"))[0].decode("utf-8", "replace")  # type: ignore[attr-defined]


def untraced(text: str) -> str:
    """`text` with a system-call trace read back into the session it records (two calls or more), else
    unchanged: an execve as the prompt's line that ran it ('$ git checkout main'), the writes as what they
    printed (a write that ends no line goes on with the next), strace's notes left out."""
    if "write(" not in text or len(WRITE.findall(text)) + len(EXECVE.findall(text)) < 2:
        return text
    out: list[str] = []
    printed = ""  # what the writes in a row printed so far
    for line in text.split("\n"):
        write, execve = WRITE.match(line), EXECVE.match(line)
        if write is not None:
            printed += _unescaped(write["text"])
            continue
        if printed:
            out += printed.rstrip("\n").split("\n")
            printed = ""
        if execve is not None:
            out.append("$ " + shlex.join(_unescaped(a) for a in ARG.findall(execve["argv"])))
        elif not NOTE.match(line):
            out.append(line)
    if printed:
        out += printed.rstrip("\n").split("\n")
    return "\n".join(out)
