"""An error shown in the terminal, not copied: the failed command's last lines, read at the moment it ends.

When a command is entered in a terminal (a moment: `live.is_moment`), the assistant reads what the terminal shows
from the accessibility bus (`watcher.terminal_text`: VTE terminals and Konsole), keeps the lines the command
printed when they hold an error, redacted, and hands them to this one decision as the observation's `screen`
texts (grounded like a copied error's whole text). They live in memory only, with the proposal made from them
(its Accept uses the same observations); nothing of them is written to the database, the logs or an export, and a
proposal rebuilt from the store later has the command alone, as for terminals not on the bus (xterm, kitty).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from proactive.models.base import Observation
from proactive.watcher.privacy.redact import redact

#: the lines of a command's output kept at most (its end: errors come last)
MAX_LINES = 60
#: our own sentence for a line entered in a terminal (watcher/episodes/builder.py), its text read whole
ENTERED = re.compile(r"\btypes '(?P<typed>.+?)' and presses Enter in the terminal\b")

ScreenReader = Callable[[str], "str | None"]  # the command entered -> its output holding an error, or None


def command_output(text: str, command: str) -> str:
    """What `command` printed: the lines after the last one showing it (its prompt line), without the prompt shown
    again after it. '' when the command is not on the screen (scrolled away, or wrapped beyond recognition)."""
    command = " ".join(command.split())
    if not command:
        return ""
    lines = text.rstrip().splitlines()
    at = next((i for i in range(len(lines) - 1, -1, -1) if " ".join(lines[i].split()).endswith(command)), None)
    if at is None:
        return ""
    out = lines[at + 1:]
    prompt = lines[at][: lines[at].rfind(command.split()[0])].strip()
    while out and (not out[-1].strip() or (prompt and out[-1].strip() == prompt)):
        out.pop()  # the next prompt, waiting for input
    return "\n".join(out[-MAX_LINES:]).strip()


#: programs that print what they read (a file, a log, a search's matches, their arguments): an error in their
#: output is the content's, not theirs; they say their own failure on a line that starts with their name ('cat:
#: notes.txt: No such file or directory')
SHOWS_CONTENT = frozenset({"cat", "tac", "less", "more", "head", "tail", "nl", "bat", "batcat", "zcat", "bzcat",
                           "xzcat", "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "sed", "awk", "cut", "sort",
                           "uniq", "wc", "column", "echo", "printf", "diff", "strings", "xxd", "hexdump", "od"})


def _own_lines(output: str, command: str | None) -> str:
    """What of a command's output can be its own error: all of it, except when every program of the line only
    shows content (`cat app.log`, `grep -rn Error src | head`): then the lines one of them starts with its name."""
    from .command_lines import program_name, split_commands

    programs = {program_name(part) for part in split_commands(command or "")}
    if not programs or not programs <= SHOWS_CONTENT:
        return output
    own = tuple(f"{name}:" for name in programs if name)
    return "\n".join(line for line in output.splitlines() if line.lstrip().startswith(own))


def holds_error(output: str, command: str | None = None) -> bool:
    """Whether a command's output reads as its error: a line that names one, or one a diagnosis knows; for a
    command that shows content (a file, a log, matches), only a line it says in its own name."""
    from .diagnose import Situation, diagnose
    from .error_names import error_line

    output = _own_lines(output, command)
    return bool(output.strip()) and (bool(error_line(output)) or diagnose(Situation(output, command)) is not None)


def shown_error(command: str, excluded_apps: Iterable[str] = (), excluded_titles: Iterable[str] | None = None,
                timeout: float = 1.0) -> str | None:
    """The output of `command` in the terminal on screen, redacted, when it holds an error; None otherwise (no
    terminal on the accessibility bus, a window the privacy filter excludes, no error)."""
    from proactive.watcher.capture.browser_page import is_private_title
    from proactive.watcher.capture.terminal_text import read_terminal

    shown = read_terminal(timeout=timeout)
    if shown is None or is_private_title(shown.title, excluded_titles):
        return None
    if any(name.strip() and name.strip().lower() in shown.app.lower() for name in excluded_apps):
        return None
    output = command_output(shown.text, command)
    return redact(output) if holds_error(output, command) else None


def entered_command(observation: Observation) -> str | None:
    """The last line the observation says was entered in a terminal."""
    found = list(ENTERED.finditer(str(observation.get("event", ""))))
    return found[-1]["typed"] if found else None


def with_screen(observations: Sequence[Observation], read: ScreenReader | None) -> list[Observation]:
    """The observations, the last one carrying the error its terminal shows (`screen`) when its last line entered
    printed one; unchanged when there is none or nothing to read it with."""
    out = list(observations)
    if read is None or not out or "screen" in out[-1]:
        return out
    command = entered_command(out[-1])
    output = read(command) if command else None
    if output:
        out[-1] = {**out[-1], "screen": [output]}
    return out
