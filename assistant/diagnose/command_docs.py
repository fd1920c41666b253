"""A command's one-line description from local documentation: its man page's summary, or `--help` for a few.

Only documentation is read: `man -f` (the whatis database, built from man pages by man-db) never runs the command.
`NAME --help` runs the program itself, so it is used only for the well-known tools in `HELP_ALLOWED`, found on PATH;
an unknown program captured from the screen is never executed (its `--help` could do anything).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
from functools import lru_cache

log = logging.getLogger(__name__)

#: programs whose `--help` is safe and fast to run (a first line that says what the tool is)
HELP_ALLOWED = frozenset({"git", "pip", "pip3", "npm", "node", "python3", "python", "docker", "cargo", "go",
                          "make", "gcc", "ls", "cp", "mv", "rm", "mkdir", "grep", "sed", "tar", "curl", "wget"})
#: man sections that document commands (user commands, games, administration)
COMMAND_SECTIONS = ("1", "8", "6")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")
_WHATIS_LINE = re.compile(r"^(?P<name>\S+) \((?P<section>[^)]+)\)\s+- (?P<summary>.+)$")
TIMEOUT = 2.0


def _env() -> dict[str, str]:
    """A plain, English, non-interactive environment for man and the allowed programs."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "MANPATH")}
    env.update(LC_ALL="C.UTF-8", LANG="C.UTF-8", MANPAGER="cat", PAGER="cat", MAN_KEEP_FORMATTING="0",
               GIT_PAGER="cat", COLUMNS="100")
    return env


def man_summary(name: str) -> str | None:
    """The one-line summary of `name`'s man page in a command section ("the stupid content tracker"), or None."""
    if not _NAME.fullmatch(name):
        return None
    for tool in (["man", "-f", name], ["whatis", name]):
        exe = shutil.which(tool[0])
        if exe is None:
            continue
        try:
            out = subprocess.run([exe, *tool[1:]], capture_output=True, text=True, timeout=TIMEOUT, env=_env(),
                                 stdin=subprocess.DEVNULL, check=False).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            log.debug("%s failed: %s", tool[0], exc)
            continue
        found: dict[str, str] = {}
        for line in out.splitlines():
            m = _WHATIS_LINE.match(line.strip())
            if m and m["name"] == name:
                found.setdefault(m["section"].split()[0][:1], m["summary"].strip())
        for section in COMMAND_SECTIONS:
            if section in found:
                return found[section]
        if out.strip():
            return None  # documented, but not as a command (a C function, a file format)
    return None


def help_summary(name: str) -> str | None:
    """The first lines of `name --help`, only for the allowed well-known programs found on PATH."""
    if name not in HELP_ALLOWED:
        return None
    exe = shutil.which(name)
    if exe is None:
        return None
    try:
        done = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=TIMEOUT, env=_env(),
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        log.debug("%s --help failed: %s", name, exc)
        return None
    lines = [line.rstrip() for line in (done.stdout or done.stderr).splitlines() if line.strip()]
    return "\n".join(lines[:3]) or None


@lru_cache(maxsize=256)
def command_doc(name: str) -> str | None:
    """What the command `name` is, from local documentation: its man page's summary, else (for the allowed
    well-known programs only) the first lines of its `--help`; None when neither says."""
    return man_summary(name) or help_summary(name)


#: words that run another command (its name follows them)
WRAPPERS = frozenset({"sudo", "doas", "env", "time", "nice", "nohup", "exec", "command", "builtin", "xargs",
                      "watch", "timeout", "strace", "stdbuf"})


def _from_program(line: str) -> list[str]:
    """The words of a command line from the program it runs on, past wrappers (sudo, env VAR=x, time...) and
    their options; [] when it names no program."""
    import shlex

    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    while words and (words[0] in WRAPPERS or "=" in words[0] or words[0].startswith("-")
                     or (words[0].isdigit() and len(words) > 1)):
        words.pop(0)
    return words if words and re.fullmatch(r"[\w.+/-]+", words[0]) else []


def program_word(line: str) -> str | None:
    """The program a command line runs, as typed (a path stays a path); None when it names none."""
    words = _from_program(line)
    return words[0] if words else None


def program_of(line: str) -> tuple[str, str | None] | None:
    """The program a command line runs and its subcommand when it has a man page of its own (`git commit` ->
    ("git", "git-commit")), past wrappers and their options; None when none."""
    words = _from_program(line)
    if not words:
        return None
    program = os.path.basename(words[0])
    sub = next((w for w in words[1:3] if re.fullmatch(r"[a-z][a-z-]+", w)), None)
    sub_page = f"{program}-{sub}" if sub and man_summary(f"{program}-{sub}") else None
    return program, sub_page
