"""The next step a program states itself, when no rule of ours knows the error (issue 35, item 1).

Many messages carry their own next step: rustc's `help:` lines and `try \\`rustc --explain E0502\\``, Go's
`to add: go get …`, systemd's `See "systemctl status x.service" …`, git's `did you mean …?`, docker's
`See 'docker run --help'.`, npm's `Run \\`npm audit fix\\``. Asked after every family with rules (its module is last
in `FAMILIES`), this diagnoser gives those lines as the next step, each with the command it names to copy when
it names one. Why our own few patterns and not a library: the lines are plain English conventions of each tool,
and no maintained library collects them.
"""

from __future__ import annotations

import re

from . import Diagnosis, Situation, Step, diagnoser

#: a line that states a next step: its lead word, then what it says
HINT = re.compile(
    r"^\s*(?:[\w.-]+\s+(?=[\w.\[\]-]+[:!]))?(?:[\w.\[\]-]+[:!]\s*)?(?:error:\s*)?(?P<lead>"
    r"help:|hint:|tip:|suggestion:|to fix:|to add:|"
    r"did you mean\b|perhaps you meant\b|maybe you meant\b|"
    r"(?:for more information[^,]*,\s*)?try\s+(?=running\b|again\b|[`'\"])|"
    r"see\s+['\"`]|run\s+['\"`]|please run\b|you (?:may|might) need to run\b|"
    r"consider\b|use\s+['\"`]"
    r")(?P<rest>.*)$", re.I)
#: a question inside a line that points at the fix ("connection refused - did you specify the right host or port?")
HINT_INSIDE = re.compile(r"\b(?P<lead>did you (?:mean|specify|forget|run|set)\b)(?P<rest>.*)$", re.I)
#: a line that ends by announcing the command on the next, indented line (Go's "…; to add it:")
ANNOUNCES = re.compile(r"(?:to add it|to fix it|run|try|with):\s*$", re.I)
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
    if lead_l.startswith("to add:"):
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


def own_steps(error: str) -> list[Step]:
    """The next steps the message itself states, in its order, without repeats."""
    steps: list[Step] = []
    seen: set[str] = set()
    lines = error.splitlines()
    for i, line in enumerate(lines):
        after = lines[i + 1] if i + 1 < len(lines) else ""
        if ANNOUNCES.search(line) and after[:1] in (" ", "\t") and after.split()[:1] and \
                after.split()[0] in PROGRAM_WORDS:
            command = " ".join(after.split())
            if command.lower() not in seen:
                seen.add(command.lower())
                steps.append(Step(f"Run what the message says: {command}", command))
            continue
        m = HINT.match(line) or HINT_INSIDE.search(line)
        if m is None:
            continue
        said = " ".join((m["lead"] + m["rest"]).split())
        if len(said) < 8 or said.lower() in seen:
            continue
        seen.add(said.lower())
        steps.append(Step(said[0].upper() + said[1:], _command(m["lead"], m["rest"])))
        if len(steps) >= MAX_STEPS:
            break
    return steps


def _headline(error: str) -> str:
    """The message's first line that says what went wrong (not a hint, not a blank)."""
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
    return Diagnosis("tool.own_words", f"\"{_headline(situation.error)}\": the program says what to do next.",
                     tuple(steps), offer, "the message itself")
