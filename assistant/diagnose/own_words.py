"""The next step a program states itself, when no rule of ours knows the error.

Many messages carry their own next step: rustc's `help:` lines and `try \\`rustc --explain E0502\\``, Go's
`to add: go get …`, systemd's `See "systemctl status x.service" …`, git's `did you mean …?`, docker's
`See 'docker run --help'.`, npm's `Run \\`npm audit fix\\``. Asked after every family with rules (its module is last
in `FAMILIES`), this diagnoser gives those lines as the next step, each with the command it names to copy when
it names one. Why our own few patterns and not a library: the lines are plain English conventions of each tool,
and no maintained library collects them.
"""

from __future__ import annotations

import re

from proactive.watcher.episodes.error_lines import CHANGE_MARKER as MARKER

from . import OWN_WORDS, Diagnosis, Situation, Step, diagnoser

#: a line that states a next step: its lead word, then what it says
HINT = re.compile(
    r"^\s*(?:=\s*)?(?:[\w.-]+\s+(?=[\w.\[\]-]+[:!]))?(?:[\w.\[\]-]+[:!]\s*)?(?:error:\s*)?(?P<lead>"
    r"help:|hint:|tip:|suggestion:|to fix:|to add:|to (?:add|fix|update) it:(?=\s*\S)|"
    r"did you mean\b|perhaps you meant\b|maybe you meant\b|"
    r"(?:for more information[^,]*,\s*)?try\s+(?=running\b|again\b|[`'\"])|"
    r"see\s+['\"`]|run\s+['\"`]|please run\b|you (?:may|might) need to run\b|"
    r"consider\b|use\s+['\"`]"
    r")(?P<rest>.*)$", re.I)
#: a question inside a line that points at the fix ("connection refused - did you specify the right host or port?")
HINT_INSIDE = re.compile(r"\b(?P<lead>did you (?:mean|specify|forget|run|set)\b|(?<=; )to (?:add|fix|update) it:(?=\s*\S))"
                         r"(?P<rest>.*)$", re.I)
#: (and Go's '…; to update it:' with the command it announces run onto the same line)
#: a line that ends by announcing the command on the next, indented line (Go's "…; to add it:")
ANNOUNCES = re.compile(r"(?:to add it|to add|to fix it|to update it|run|try|with|following commands?):\s*$", re.I)
#: a command named in the middle of a sentence: "Install the necessary version with `gem install bundler:2.7.2`"
INLINE = re.compile(r"\b(?:run|running|use|using|with|try|execute|type)\s*:?\s+`(?P<command>[^`]+)`", re.I)
#: rustc's suggested code under a help: line: "3 + use std::io::Read;" (an added line) or "5 |     code" followed
#: by a marker line of +, ~ or ^ under the change
SUGGESTED = re.compile(r"^\s*\d+\s*(?P<kind>[+~|])\s?(?P<code>.*\S)\s*$")
#: the line that names the error, for the diagnosis' headline
ERROR_HEAD = re.compile(r"^\s*(?:error\[\w+\]|(?:error|fatal|Error|ERROR|FATAL|E)\b)[:!\s]")
#: a command named in a hint: quoted in backticks, single or double quotes, or after "to add:" / "run"
QUOTED_COMMAND = re.compile(r"`([^`]+)`|'([^']+)'|\"([^\"]+)\"")
#: text that reads as a command line: a program name, then anything (not a sentence, not a bare word of code)
COMMAND_SHAPE = re.compile(r"^[a-z][\w.+-]*(?:\s+\S+)+$|^[a-z][\w.+-]*\s*$")
PROGRAM_WORDS = frozenset({
    "git", "go", "cargo", "rustc", "rustup", "npm", "npx", "yarn", "pnpm", "pip", "pip3", "python", "python3",
    "docker", "kubectl", "systemctl", "journalctl", "apt", "sudo", "brew", "make", "cmake", "gradle", "mvn",
    "bundle", "gem", "rails", "node", "deno", "dotnet", "helm", "terraform", "ssh", "ssh-keygen", "chmod",
    "chown", "composer", "php", "java", "javac", "gcc", "clang", "tsc", "ng", "poetry", "uv", "conda",
})
MAX_STEPS = 4


def _command(lead: str, rest: str) -> str | None:
    """The command a hint names, when it names one to run."""
    lead_l = lead.lower()
    if lead_l.startswith(("to add:", "to add it:", "to fix it:", "to update it:")):  # Go's, its next line run onto it
        text = rest.strip().rstrip(".")
        return text if text.split()[:1] and text.split()[0] in PROGRAM_WORDS else None
    for m in QUOTED_COMMAND.finditer(lead + rest):
        text = next(g for g in m.groups() if g is not None).strip()
        first = text.split()[0] if text.split() else ""
        if first in PROGRAM_WORDS and COMMAND_SHAPE.match(text):
            return text
    # unquoted, after "try running" or "run": the words up to the end of the clause ("try running cargo update")
    said = re.sub(r"^(?:running|again)\s+", "", rest.strip(), flags=re.I)
    clause = re.split(r"[.;,]\s|\s(?:to|and|or|then|for|if)\s|[.;,]$", said)[0].strip()
    words = clause.split()
    if lead_l.rstrip().endswith(("try", "run")) and words and words[0] in PROGRAM_WORDS and len(words) <= 8:
        return clause
    return None


def _announced(lines: list[str], i: int) -> list[str]:
    """The indented command lines after an announcing line (blank lines before them allowed): Go's "to add it:"
    and its `go get …`, bundler's "run:" and its two commands."""
    commands: list[str] = []
    j = i + 1
    while j < len(lines) and not lines[j].strip() and not commands:
        j += 1
    while j < len(lines) and lines[j][:1] in (" ", "\t") and lines[j].split():
        words = lines[j].split()
        if words[0] not in PROGRAM_WORDS and not words[0].startswith(("bin/", "./")):
            break
        commands.append(" ".join(words))
        j += 1
    return commands


def _suggestion(lines: list[str], i: int) -> str | None:
    """The code rustc suggests under the help: line `i` (within its next few lines), when it shows one."""
    for j in range(i + 1, min(i + 6, len(lines))):
        m = SUGGESTED.match(lines[j])
        if m is None:
            if lines[j].strip() in ("", "|") or lines[j].lstrip().startswith("|"):
                continue
            return None
        if m["kind"] in "+~" or (j + 1 < len(lines) and MARKER.match(lines[j + 1])):
            return m["code"].strip()
    return None


def own_steps(error: str) -> list[Step]:
    """The next steps the message itself states, in its order, without repeats."""
    steps: list[Step] = []
    seen: set[str] = set()
    lines = error.splitlines()
    language = "rust" if re.search(r"-->\s*\S+\.rs:\d", error) else "code"
    for i, line in enumerate(lines):
        if ANNOUNCES.search(line):
            commands = [c for c in _announced(lines, i) if c.lower() not in seen]
            if commands:
                seen.update(c.lower() for c in commands)
                command = " && ".join(commands)
                steps.append(Step(f"Run what the message says: {command}", command))
                continue
        m = HINT.match(line) or HINT_INSIDE.search(line)
        inline = INLINE.search(line)
        if m is None and inline is not None and inline["command"].split()[:1] and \
                inline["command"].split()[0] in PROGRAM_WORDS and inline["command"].lower() not in seen:
            seen.add(inline["command"].lower())
            said = " ".join(line.split())
            steps.append(Step(said[0].upper() + said[1:], inline["command"].strip()))
            continue
        if m is None:
            continue
        said = " ".join((m["lead"] + m["rest"]).split())
        if len(said) < 8 or said.lower() in seen:
            continue
        seen.add(said.lower())
        helps = re.match(r"\s*(?:=\s*)?help:", line, re.I) is not None  # rustc's, whatever the lead word after it
        code = _suggestion(lines, i) if helps else None
        if helps and code is None:  # "help: consider making this binding mutable: `mut total`"
            inline_code = re.search(r":\s*`([^`]+)`\s*$", line)
            code = inline_code.group(1) if inline_code and not (inline_code.group(1).split()[:1] and
                                                              inline_code.group(1).split()[0] in PROGRAM_WORDS) else None
        steps.append(Step(said[0].upper() + said[1:], code, language) if code else
                     Step(said[0].upper() + said[1:], _command(m["lead"], m["rest"])))
        if len(steps) >= MAX_STEPS:
            break
    return steps


def _headline(error: str) -> str:
    """The message's line that names the error ("error[E0599]: …"), else its first line that is not a hint."""
    for line in error.splitlines():
        if ERROR_HEAD.match(line) and not line.lstrip().lower().startswith("error: could not compile"):
            return " ".join(line.split())[:160]
    for line in error.splitlines():
        if line.strip() and HINT.match(line) is None and not ANNOUNCES.search(line):
            return " ".join(line.split())[:160]
    return " ".join(error.split())[:160]


@diagnoser
def own_words(situation: Situation) -> Diagnosis | None:
    """The program's own next step, when its message states one."""
    steps = own_steps(situation.error)
    if not steps:
        return None
    command = next((s.command for s in steps if s.command), None)
    offer = (f"the next step the message itself gives ('{command}')" if command else
             "the next step the message itself gives")
    return Diagnosis(OWN_WORDS, f"\"{_headline(situation.error)}\": the program says what to do next.",
                     tuple(steps), offer, "the message itself")
