"""Shell errors about files: permission denied (the execute bit, the owner, a serial device's group) and a path
that does not exist (close names in its folder, a script's missing interpreter), from `os.stat` and the parent
folder's entries, read at accept time. The command and port errors are `shell_errors.py`.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from pathlib import Path

from . import Diagnosis, Situation, Step, diagnoser
from .shell_errors import (
    _first_line,
    _first_match,
    _quote,
    close_names,
    path_commands,
)

log = logging.getLogger(__name__)


# ---------------------------------------------------------------- permission denied

def _plain(path: str) -> str:
    """A path as the person would type it to chmod: './deploy.sh' -> 'deploy.sh' (same file, fewer characters)."""
    return path[2:] if path.startswith("./") and len(path) > 2 else path


_DENIED = (
    re.compile(r"could not open port ['\"]?(?P<path>/dev/[^\s:'\"]+)"),
    re.compile(r"Permission denied: ['\"](?P<path>[^'\"]+)['\"]"),  # Python's PermissionError
    re.compile(r"(?:EACCES|[Pp]ermission denied),? (?:\w+ )?['\"](?P<path>[^'\"]+)['\"]"),  # npm, node
    re.compile(r"['‘\"](?P<path>[^'’\"\n]+)['’\"]: Permission denied"),  # cp, mkdir, touch, rm
    re.compile(r"open\(\) \"(?P<path>[^\"]+)\" failed \(13: Permission denied\)"),  # nginx
    re.compile(r"^(?:.*?\s)??(?P<prog>[^\s:]+): (?:line \d+: )?(?:cd: )?(?P<path>[^:\n]+): Permission denied", re.M),
    re.compile(r"(?P<prog>zsh): permission denied: (?P<path>\S+)"),
)
_SHELLS = {"bash", "-bash", "sh", "zsh", "dash", "ksh", "fish", "/bin/bash", "/bin/sh", "/usr/bin/bash", "/usr/bin/env"}
_SERIAL = re.compile(r"/dev/tty(?:USB|ACM|S|AMA)\d+$")


def _owner(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _resolve(path: str, cwd: str | None) -> str | None:
    path = os.path.expanduser(path)
    if os.path.isabs(path):
        return path
    return os.path.join(cwd, path) if cwd else None


def _nearest_existing(path: str) -> str:
    p = Path(path)
    while not p.exists() and p != p.parent:
        p = p.parent
    return str(p)


@diagnoser
def permission_denied(situation: Situation) -> Diagnosis | None:
    """Permission denied for a path: a script without the execute bit, a file or folder of another user
    (root), a serial device and its group."""
    m = _first_match(_DENIED, situation.error)
    if m is None:
        return None
    raw = m["path"].strip()
    prog = m.groupdict().get("prog")
    quoted = _first_line(situation.error, raw)
    details = {"path": raw}
    problem = f"Permission denied for '{raw}': \"{quoted}\"."

    if raw.startswith("/dev/") and _SERIAL.search(raw):
        group = "dialout"
        try:
            import grp  # POSIX only

            group = grp.getgrgid(os.stat(raw).st_gid).gr_name
        except (OSError, KeyError):
            pass
        details["group"] = group
        return Diagnosis("shell.permission_denied.device", problem,
                         (Step(f"Serial devices such as {raw} belong to the group '{group}': add yourself to it, "
                               "then log out and back in.", f"sudo usermod -aG {group} $USER"),
                          Step("Or use the group in this shell only, until you log in again.", f"newgrp {group}")),
                         f"how to get access to {raw} (the '{group}' group)", "the device's group", details)

    path = _resolve(raw, situation.cwd)
    # the shell refusing to open the file of a `>` is a write, not a run
    tee = _tee_instead(situation.command, raw)
    if path is None:
        if prog in _SHELLS and not raw.startswith("cd") and tee is None:
            return Diagnosis("shell.permission_denied.exec", problem,
                             (Step(f"If '{raw}' is a script, it lacks the execute permission: add it.",
                                   f"chmod +x {_quote(_plain(raw))}"),),
                             f"the command that makes '{raw}' executable", "the message", details)
        return None
    try:
        st = os.stat(path)
    except OSError:
        st = None
    executing = prog in _SHELLS and situation.error.find("cd:") < 0 and tee is None
    if st is not None and stat.S_ISREG(st.st_mode) and executing:
        mode = stat.filemode(st.st_mode)
        details["mode"] = mode
        if not st.st_mode & 0o111:
            return Diagnosis("shell.permission_denied.exec",
                             f"'{raw}' cannot be run: it has no execute permission ({mode}).",
                             (Step(f"Make '{raw}' executable, then run it again.", f"chmod +x {_quote(_plain(raw))}"),),
                             f"the command that makes '{raw}' executable", "the file's permissions", details)
        if not os.access(path, os.X_OK):
            if st.st_uid != os.getuid() and not st.st_mode & 0o001:
                details["owner"] = _owner(st.st_uid)
            return Diagnosis("shell.permission_denied.exec",
                             f"'{raw}' cannot be run by you ({mode}, owner {_owner(st.st_uid)}).",
                             (Step("Run it through its interpreter instead (or ask its owner to allow you).",
                                   f"bash {_quote(raw)}"),),
                             f"how to run '{raw}'", "the file's permissions", details)
    target = path if st is not None else _nearest_existing(path)
    try:
        tst = os.stat(target)
    except OSError:
        return None
    if tst.st_uid == os.getuid() and os.getuid() != 0:
        return None  # ours: nothing specific known (a read-only mount, an ACL)
    owner = _owner(tst.st_uid)
    details["owner"] = owner
    kind = "folder" if stat.S_ISDIR(tst.st_mode) else "file"
    problem = (f"'{target}' belongs to {owner} ({stat.filemode(tst.st_mode)}), so your account may not change it: "
               f"\"{quoted}\".")
    home = os.path.expanduser("~")
    steps: list[Step] = []
    if target.startswith(home + os.sep) and target != home:
        steps.append(Step(f"This {kind} is in your home folder but belongs to {owner} (left by an earlier sudo): "
                          "take it back.", f"sudo chown -R $USER: {_quote(target)}"))
    elif tee is not None:
        steps.append(Step(f"This {kind} belongs to {owner}, and the redirection (>) is done by your own shell "
                          "before the command runs, so sudo in front does not reach it: let sudo tee write the file "
                          "(tee -a appends, as >> does).", tee))
    elif situation.command:
        steps.append(Step(f"This {kind} belongs to {owner}: run the command with sudo if you mean to change it.",
                          situation.command if situation.command.startswith("sudo ") else "sudo " + situation.command))
    else:
        steps.append(Step(f"This {kind} belongs to {owner}: run the same command with sudo in front if you mean to "
                          "change it, or work on a copy in your home folder."))
    return Diagnosis("shell.permission_denied.owner", problem, tuple(steps),
                     f"who owns '{target}' and what to do", "the file's owner and permissions", details)


#: a command line whose output the shell writes into a file: `[sudo] cmd … >> file`
_REDIRECT = re.compile(r"^(?:sudo\s+(?:-\S+\s+)*)?(?P<cmd>.*?\S)\s*(?P<op>>>?)\s*(?P<file>[^\s>|&;]+)\s*$")


def _tee_instead(command: str | None, path: str) -> str | None:
    """The command line with its redirection into `path` done by `sudo tee` (the only part that needs root), when
    the shell's own redirection was what was refused."""
    found = _REDIRECT.match(command or "")
    if found is None or found["file"].strip("'\"") != path:
        return None
    append = " -a" if found["op"] == ">>" else ""
    return f"{found['cmd']} | sudo tee{append} {_quote(path)} > /dev/null"


# ---------------------------------------------------------------- no such file or directory

_MISSING = (
    re.compile(r"^(?:.*?\s)??(?P<prog>[^\s:]+): (?:line \d+: )?(?P<cd>cd): (?P<path>[^:\n]+): No such file or directory",
               re.M),
    re.compile(r"(?P<cd>cd): no such file or directory: (?P<path>.+)$", re.M),  # zsh
    re.compile(r"(?P<prog>zsh): no such file or directory: (?P<path>.+)$", re.M),
    re.compile(r"can't open file ['\"](?P<path>[^'\"]+)['\"]: \[Errno 2\] No such file or directory"),  # python3
    re.compile(r"['‘\"](?P<path>[^'’\"\n]+)['’\"]: No such file or directory"),  # ls, cp, rm: quoted
    re.compile(r"^(?:.*?\s)??(?P<prog>[^\s:]+): (?:line \d+: |\d+: )?(?P<path>[^:\n]+): No such file or directory",
               re.M),
)
_BAD_INTERPRETER = re.compile(r"(?P<path>[^\s:]+): (?P<interp>[^:\n]+): bad interpreter: No such file or directory")
# bash 5.1 and later, for a missing interpreter or loader: "bash: line 1: ./tool: cannot execute: required file not found"
_REQUIRED_FILE = re.compile(r"(?P<path>[^\s:]+): cannot execute: required file not found")


def close_paths(path: str) -> list[str]:
    """Existing paths close to `path`: the first missing part replaced by close names in its folder."""
    p = Path(path)
    parts = p.parts
    for i in range(1, len(parts) + 1):
        if not Path(*parts[:i]).exists():
            break
    else:
        return []
    parent = Path(*parts[:i - 1]) if i > 1 else Path(".")
    missing, rest = parts[i - 1], parts[i:]
    try:
        entries = os.listdir(parent)
    except OSError:
        return []
    out = []
    for name in close_names(missing, set(entries), n=3):
        candidate = parent.joinpath(name, *rest)
        if candidate.exists() or not rest:
            out.append(str(candidate))
    return out


def _display(candidate: str, raw: str, cwd: str | None) -> str:
    """`candidate` written the way the person wrote `raw` (relative to the working directory stays relative)."""
    if os.path.isabs(os.path.expanduser(raw)) or not cwd:
        return candidate
    shown = os.path.relpath(candidate, cwd)
    return "./" + shown if raw.startswith("./") and not shown.startswith(".") else shown


@diagnoser
def no_such_file(situation: Situation) -> Diagnosis | None:
    """A path that does not exist (a command, a `cd` target, a file argument): close names in its folder; a
    program that exists but whose interpreter or loader does not."""
    bad = _BAD_INTERPRETER.search(situation.error)
    if bad is not None:
        return _bad_interpreter(situation, bad["path"], bad["interp"].strip(" "))
    required = _REQUIRED_FILE.search(situation.error)
    if required is not None:
        return _required_file(situation, required["path"])
    m = _first_match(_MISSING, situation.error)
    if m is None:
        return None
    raw = m["path"].strip()
    is_cd = bool(m.groupdict().get("cd"))
    prog = m.groupdict().get("prog") or ""
    quoted = _first_line(situation.error, raw)
    path = _resolve(raw, situation.cwd)
    if path is None:
        return None
    details = {"path": raw}
    if os.path.exists(path):
        if prog in _SHELLS and os.path.isfile(path) and not is_cd:
            return Diagnosis("shell.no_such_file.loader",
                             f"'{raw}' exists, but the system cannot start it: \"{quoted}\". Its interpreter or "
                             "loader is missing (a program built for another system or architecture).",
                             (Step("See what kind of program it is (its architecture and the loader it needs).",
                                   f"file {_quote(raw)}"),),
                             f"how to find out why '{raw}' cannot start", "the file", details)
        return None
    close = close_paths(path)
    if not close:
        return None
    shown = [_display(c, raw, situation.cwd) for c in close]
    details["close"] = ", ".join(shown)
    if is_cd:
        command = f"cd {_quote(shown[0])}"
    elif situation.command and raw in situation.command:
        command = situation.command.replace(raw, shown[0], 1)
    else:
        command = None
    also = f" (or: {', '.join(shown[1:])})" if len(shown) > 1 else ""
    return Diagnosis("shell.no_such_file", f"'{raw}' does not exist: \"{quoted}\".",
                     (Step(f"Did you mean '{shown[0]}'?{also}", command),),
                     f"the close name '{shown[0]}'", "the folder's entries", details)


def _required_file(situation: Situation, raw: str) -> Diagnosis | None:
    """bash's "cannot execute: required file not found": the script's interpreter (its #! line, read from the
    file) or the program's loader does not exist."""
    path = _resolve(raw, situation.cwd)
    first = b""
    if path is not None:
        try:
            with open(path, "rb") as f:
                first = f.readline(512)
        except OSError:
            path = None
    if first.startswith(b"#!"):
        words = first[2:].decode("utf-8", "replace").rstrip("\n").split(None, 1)
        if words:
            interp = words[0]
            if first.rstrip(b"\n").endswith(b"\r"):
                interp = interp.rstrip("\r") + "\r"
            return _bad_interpreter(situation, raw, interp)
    if path is None:
        return Diagnosis("shell.no_such_file.loader",
                         f"'{raw}' cannot start: the interpreter on its first line (#!) or its loader is missing.",
                         (Step("See its first line: the interpreter it names must exist.", f"head -1 {_quote(raw)}"),),
                         f"how to find out why '{raw}' cannot start", "the message", {"path": raw})
    return Diagnosis("shell.no_such_file.loader",
                     f"'{raw}' is a program whose loader is missing (built for another system or architecture).",
                     (Step("See what kind of program it is (its architecture and the loader it needs).",
                           f"file {_quote(raw)}"),),
                     f"how to find out why '{raw}' cannot start", "the file", {"path": raw})


def _bad_interpreter(situation: Situation, raw: str, interp: str) -> Diagnosis | None:
    details = {"path": raw, "interpreter": interp}
    problem = f"The script '{raw}' names the interpreter '{interp}' on its first line, which does not exist."
    if interp.endswith(("\r", "^M")):
        return Diagnosis("shell.bad_interpreter.crlf", problem + " The line ends with a Windows line ending.",
                         (Step("Remove the Windows line endings (\\r) from the script.",
                               f"sed -i 's/\\r$//' {_quote(raw)}"),),
                         "the command that fixes the script's line endings", "the message", details)
    base = os.path.basename(interp)
    commands = path_commands()
    replacement = next((commands[c] for c in (base, base + "3") if c in commands), None)
    if replacement is None:
        close = close_names(base, commands, n=1)
        replacement = commands[close[0]] if close else None
    if replacement is None:
        return None
    details["replacement"] = replacement
    return Diagnosis("shell.bad_interpreter", problem,
                     (Step(f"Point the first line at {replacement}, which exists here.",
                           f"sed -i '1s|^#!.*|#!{replacement}|' {_quote(raw)}"),),
                     f"the interpreter to use instead ({replacement})", "the commands on PATH", details)
