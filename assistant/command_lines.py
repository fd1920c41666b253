"""A line typed in a terminal, as the commands it runs: which program reads it (the shell, or an editor running
in the terminal), the simple commands of a compound line, and whether a command is one this machine knows.

Why here: grounding reads a typed line as commands (`grounding._typed`) and the command offers judge each one
(`candidates.command_in_question`); both need the same reading of a line, and it is the terminal's, not the
sentences' (our episode sentences say where a line was typed, "in the terminal", never which program read it).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from .diagnose.command_docs import program_word
from .diagnose.shell_errors import SHELL_WORDS, path_commands

#: editors that run inside the terminal: while one runs, the lines typed there are its own (vim's `:wq`, text
#: typed in insert mode), never commands. GUI editors started from a shell (`code .`) leave the terminal to it.
VI_EDITORS = frozenset({"vi", "vim", "nvim", "view", "vimdiff", "ex", "rvim", "gvim"})
TERMINAL_EDITORS = VI_EDITORS | frozenset({"nano", "pico", "micro", "emacs", "hx", "helix", "kak", "joe", "mg",
                                           "ne"})
#: the hotkey that ends an editor without ex commands, as our sentences name it ("presses Ctrl+X in the
#: terminal"); emacs's C-x C-c ends with the Ctrl+C named after it
QUIT_KEYS = {"nano": "Ctrl+X", "pico": "Ctrl+X", "micro": "Ctrl+Q", "emacs": "Ctrl+C", "mg": "Ctrl+C",
             "joe": "Ctrl+C", "ne": "Ctrl+Q"}
#: commands whose help nobody at a terminal needs: the person who types `ls` or `vim notes.md` knows what it
#: does. A list because "knows it by heart" cannot be observed; it applies only where a command would otherwise
#: be offered for being looked up or unknown here (a search "ls colors" is answered by the search's own offers)
KNOWN_BY_HEART = frozenset({"cat", "ls", "clear", "reset", "less", "more", "most", "man", "info", "tldr", "whatis",
                            "apropos", "code", "gedit", "kate", "subl"}) | TERMINAL_EDITORS
#: ex commands that end vi (the keys since the last Enter end with one: "ihello" Escape ":wq" is "ihello:wq")
VI_QUIT = re.compile(r":(?:w?q(?:a|all)?|wqa(?:ll)?|x(?:a|all|it)?|quit|exit|cq)!?\s*$")
#: a shell at its prompt names itself in the window's title ("user@host: ~/src", bash's default)
PROMPT_TITLE = re.compile(r"^[\w.-]+@[\w.-]+:")
#: vim's own title ("notes.md (~/src) - VIM", "- NVIM")
VIM_TITLE = re.compile(r"\s-\s(N?VIM)\d*\s*$", re.I)
#: a line's separators between simple commands (outside quotes); `&` alone runs the command before it apart
SEPARATORS = ("&&", "||", ";", "|", "&")


def split_commands(line: str) -> list[str]:
    """The simple commands of a typed line, in order (`clear; vim notes.md` -> ['clear', 'vim notes.md'], `ls |
    wc -l` -> ['ls', 'wc -l']): split at `;`, `&&`, `||`, `|` and `&` outside quotes, each part as typed."""
    parts: list[str] = []
    start, quote, i = 0, "", 0
    while i < len(line):
        char = line[i]
        if quote:
            quote = "" if char == quote else quote
        elif char == "\\":
            i += 1
        elif char in "'\"":
            quote = char
        else:
            sep = next((s for s in SEPARATORS if line.startswith(s, i)), None)
            if sep is not None and not (sep == "&" and line[i - 1:i] in (">", "<")):  # `2>&1` is no separator
                parts.append(line[start:i])
                i += len(sep)
                start = i
                continue
        i += 1
    parts.append(line[start:])
    return [p.strip() for p in parts if p.strip()]


def program_name(command: str) -> str | None:
    """The program a simple command runs, by its name (`/usr/bin/git log` -> git)."""
    word = program_word(command)
    return os.path.basename(word) if word else None


RC_FILES = (".bashrc", ".bash_aliases", ".zshrc", ".profile", ".config/fish/config.fish")
DEFINED = re.compile(r"^\s*(?:alias\s+([\w.+-]+)=|(?:function\s+)?([\w.+-]+)\s*\(\)\s*\{?|function\s+([\w.+-]+))",
                     re.M)


@lru_cache(maxsize=1)
def _defined_in(home: str) -> frozenset[str]:
    """The aliases and functions the person's shell start-up files define (read once: only names are kept)."""
    names: set[str] = set()
    for name in RC_FILES:
        try:
            text = (Path(home) / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        names |= {next(g for g in m.groups() if g) for m in DEFINED.finditer(text)}
    return frozenset(names)


def defined_names() -> frozenset[str]:
    """The aliases and functions we can know of: those of the person's shell start-up files."""
    return _defined_in(os.path.expanduser("~"))


def known_here(name: str) -> bool:
    """Whether this machine knows the program `name`: on PATH, a shell builtin or keyword, a path, or an alias or
    function of the person's shell start-up files."""
    return "/" in name or name in SHELL_WORDS or name in path_commands() or name in defined_names()


def title_reader(title: str) -> str | None:
    """What a terminal's title says reads its lines: an editor's name ("vim notes.md", vim's own "notes.md (~) -
    VIM"), "" for a shell at its prompt ("user@host: ~/src"), None when the title does not say."""
    title = title.strip()
    if PROMPT_TITLE.match(title):
        return ""
    if VIM_TITLE.search(title):
        return "vim"
    first = program_name(title) if title else None
    return first if first in TERMINAL_EDITORS else None


def editor_started(line: str) -> str | None:
    """The terminal editor a shell line starts in the foreground (`clear; vim notes.md` -> vim), or None."""
    line = line.rstrip()
    parts = split_commands(line)
    if line.endswith("&") and not line.endswith("&&"):
        parts = parts[:-1]  # the last command runs in the background: the shell keeps the terminal
    return next((name for name in map(program_name, parts) if name in TERMINAL_EDITORS), None)


def editor_quits(editor: str, line: str = "", hotkey: str = "") -> bool:
    """Whether a line typed in `editor` (with its Enter), or a hotkey pressed in it, ends it."""
    if editor in VI_EDITORS:
        return bool(VI_QUIT.search(line))
    return bool(hotkey) and hotkey == QUIT_KEYS.get(editor)


#: our sentences that tell who reads a terminal's lines, in order: its title at a switch, a line typed with
#: Enter, a hotkey (watcher/episodes/builder.py)
TERMINAL_STEP = re.compile(r"switches to the terminal \('(?P<title>.*?)'\)\.(?= The user\b|$)"
                           r"|\btypes '(?P<typed>.+?)' and presses Enter in the terminal\."
                           r"|\bpresses (?P<hotkey>Ctrl\+\w+)[^.]*? in the terminal\."
                           # an editor's command line said as what it does ("saves the file and quits (:wq)": the
                           # watcher's EX_COMMANDS), read as the line typed
                           r"|\bThe user [a-z ]+ \((?P<said>:\w+!?)\) in the terminal\.")


def editor_lines(sentence: str, editor: str | None) -> tuple[set[int], str | None]:
    """The lines of `sentence` typed into an editor running in the terminal rather than to the shell (each by
    the position of its opening quote), and the editor still running after it (None: the shell has the
    terminal). `editor`: the one running before the sentence.

    Our sentences say a line was typed "in the terminal", not which program read it, so two signals stand in:
    the window's title when the person switches to the terminal (a title naming an editor, or the shell's
    prompt), and the lines themselves (a shell line that starts vim; vim's `:wq` that ends it, typed or said as
    "saves the file and quits (:wq)"). The watcher
    knows the foreground program while the line is typed (its echo readings), but the sentence is what replayed
    sessions have too, and both must decide alike."""
    read: set[int] = set()
    for m in TERMINAL_STEP.finditer(sentence):
        if m["title"] is not None:
            said = title_reader(m["title"])
            editor = editor if said is None else said or None
        elif m["typed"] is not None:
            if editor:
                read.add(m.start("typed") - 1)
                editor = None if editor_quits(editor, m["typed"]) else editor
            else:
                editor = editor_started(m["typed"])
        elif m["said"] is not None:
            editor = None if editor and editor_quits(editor, m["said"]) else editor
        elif editor and editor_quits(editor, hotkey=m["hotkey"]):
            editor = None
    return read, editor
