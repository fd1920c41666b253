"""vim in a terminal: which keys sent to it are the text of the file, and which are its commands.

A terminal gives keys, not text, and vim reads them raw: `Go`, `dd`, `:wq` are commands, not what the person
writes. The design chosen is the simplest that is robust: vim's mode is followed from the keys themselves, as vim
follows it. Only what is typed in insert mode is text (a line of its own: Escape ends it, `o`/`O` start a new
one); a `:`, `/` or `?` command line is a line of its own too (it is still judged by the terminal's rules: vim's
`:X` and `inputsecret(` hide the lines typed after them), except the saving and quitting ones, which are said as
what they do ("saves the file", `EX_COMMANDS`). Normal-mode keys are dropped, but their Enter still ends a line
(the answer to a key prompt vim shows after `:X` counts off the lines it hides).

Why not read the file vim writes: the file is written only at `:w`, holds the whole file (not what was typed
now), may be one the person only reads, and reading it would be reading a file behind the person's back, where
keys are what they did. Where the mode cannot be followed (a mapping, a plugin, a count before `i`), the text is
at worst a command's keys lost or kept as text, never text from somewhere else. Which terminal runs vim comes from
its echo reading (`Reading.program`: the foreground program judged by echo_state.py), not from the window's name,
and the modes act only where that reading shows the terminal showing what is typed and the line is not hidden
(watcher/privacy/stage.py): a key prompt's answer is never read as commands.
"""

from __future__ import annotations

from dataclasses import dataclass

from proactive.watcher.privacy.echo_programs import VIM_NAMES

#: normal-mode keys that start insert mode; `o` and `O` open a new line
INSERT_KEYS = frozenset("iaIAsSoOC")
NEW_LINE_KEYS = frozenset("oO")
#: normal-mode keys that take the next key as their argument (an operator, a motion's target, a register...)
PREFIX_KEYS = frozenset("cdyfFtTrmgzZq@'`\"<>=")
COMMAND_KEYS = frozenset(":/?")
#: command lines said as what they do (`ZZ` and `ZQ` are `:x` and `:q!`)
EX_COMMANDS = {":w": "saves the file", ":wq": "saves the file and quits", ":x": "saves the file and quits",
               ":wq!": "saves the file and quits", ":x!": "saves the file and quits", ":wa": "saves every file",
               ":wqa": "saves every file and quits", ":xa": "saves every file and quits", ":q": "quits",
               ":q!": "quits without saving", ":qa": "quits", ":qa!": "quits without saving"}
LEAVE_KEYS = frozenset({"esc", "ctrl+c", "ctrl+["})  # leave insert or command-line mode
QUITS = frozenset({":x", ":wq", ":wq!", ":x!", ":wqa", ":xa", ":q", ":q!", ":qa", ":qa!"})
#: operators: after one, `i` or `a` begin a text object (`ciw`, `da(`), whose next key is its kind, not a command
OPERATORS = frozenset("cdy<>=")
#: after a quit command, the keys are the shell's until a reading shows vim gone, or still there this much later
#: (the quit refused: unsaved changes)
VIM_QUIT_SECONDS = 1.0


def is_vim(program: str) -> bool:
    """Whether an echo reading's `program` ("vim", "vi", or several joined by ",") is vim."""
    return any(name in VIM_NAMES for name in program.split(","))


@dataclass
class Step:
    """What one key sent to vim is: `text` (the key goes to the line being typed), `end` (the line being typed
    ends first), `drop` (the command line typed is dropped: cancelled, or said as what it does, `says`)."""

    text: bool = False
    end: bool = False
    drop: bool = False
    says: str = ""


class VimModes:
    """vim's mode in each terminal (by the window's pid), followed from the keys sent to it."""

    def __init__(self) -> None:
        self.modes: dict[object, str] = {}  # window -> "normal", "insert", "command"
        self.prefix: dict[object, str] = {}  # window -> a normal-mode key waiting for its argument
        self.command: dict[object, str] = {}  # window -> the command line typed so far
        self.quits: dict[object, float] = {}  # window -> when a quit command was given there (time.time())

    def key(self, window: object, char: str | None, name: str | None) -> Step:
        """One key (a character, or "enter", "backspace", "tab", or a LEAVE_KEYS name) sent to vim in `window`."""
        mode = self.modes.get(window, "normal")  # vim starts in normal mode
        if mode == "insert":
            if name in LEAVE_KEYS:
                self.modes[window] = "normal"
                return Step(end=True)
            return Step(text=True)
        if mode == "command":
            return self._command_key(window, char, name)
        return self._normal_key(window, char, name)

    def leave(self, window: object) -> None:
        """Ctrl+C (a hotkey): vim goes back to normal mode."""
        if window in self.modes:
            self.modes[window] = "normal"
        self.command.pop(window, None)

    def forget(self, window: object) -> None:
        """vim left that terminal (another program reads its keys): it starts in normal mode next time."""
        for table in (self.modes, self.prefix, self.command, self.quits):
            table.pop(window, None)

    def follows(self, window: object) -> bool:
        """Whether anything of vim's state is held for `window` (a mode other than normal, a key waiting)."""
        return any(window in table for table in (self.modes, self.prefix, self.command, self.quits))

    def _normal_key(self, window: object, char: str | None, name: str | None) -> Step:
        prefix = self.prefix.pop(window, "")
        if prefix:
            if prefix == "Z" and char in ("Z", "Q"):
                return Step(says=":x" if char == "Z" else ":q!")
            if char is None:
                return Step()  # (Escape, Enter, Backspace cancel an operator)
            if prefix in OPERATORS and (char in "ia" or char.isdigit()):
                self.prefix[window] = prefix + (char if char in "ia" else "")  # `ciw`, `d2w`: one more key
            elif prefix[0] == "c" or (prefix == "g" and char in "iI"):
                self.modes[window] = "insert"  # `cw`, `cc`, `ciw`, `gi`: the change is typed next
            return Step()
        if name == "enter":
            return Step(text=True, end=True)  # an empty line: it still counts off a hidden prompt's lines
        if char is None:
            return Step()
        if char in INSERT_KEYS:
            self.modes[window] = "insert"
            return Step(end=char in NEW_LINE_KEYS)
        if char in PREFIX_KEYS:
            self.prefix[window] = char
        elif char in COMMAND_KEYS:
            self.modes[window], self.command[window] = "command", char
            return Step(text=True, end=True)
        return Step()

    def _command_key(self, window: object, char: str | None, name: str | None) -> Step:
        line = self.command.get(window, "")
        if name in LEAVE_KEYS or (name == "backspace" and len(line) <= 1):
            self.leave(window)
            return Step(drop=True)  # cancelled: nothing said
        if name == "enter":
            self.leave(window)
            said = line.strip()
            return Step(drop=True, says=said) if said in EX_COMMANDS else Step(text=True)
        if name == "backspace":
            self.command[window] = line[:-1]
        elif char is not None:
            self.command[window] = line + char
        return Step(text=True)
