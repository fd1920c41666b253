"""Shell errors: a command not found and a port already in use (permission denied and a path that does not exist:
`shell_files.py`).

Rules as data first (`rules/shell.toml`: messages whose next step needs no facts, such as a script saved with
Windows line endings), then facts from this machine, read at accept time:
- the executables on PATH (close names, listed once every few seconds) and Debian's command-not-found database
  (`/var/lib/command-not-found/commands.db`, SQLite, opened read-only) for the package providing a command;
- `os.stat` of the path refused (execute bit, owner, a serial device's group);
- `/proc/net/tcp{,6}` and `/proc/<pid>/fd` for the process listening on a port (only this user's processes
  can be read; a holder that cannot be seen is said to be so);
- the parent folder's entries for a path that does not exist.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

from . import Diagnosis, Situation, Step, diagnoser, rules
from .command_docs import man_summary
from .ports import port_holders

log = logging.getLogger(__name__)

#: Debian's and Ubuntu's command-not-found databases (the first found is used)
CNF_DATABASES: tuple[str, ...] = ("/var/lib/command-not-found/commands.db", "/usr/share/command-not-found/commands.db")
PATH_CACHE_SECONDS = 10.0
#: apt's binary package cache (apt-cache answers in milliseconds only when it exists)
APT_CACHE = "/var/cache/apt/pkgcache.bin"


def _quote(path: str) -> str:
    return shlex.quote(path)


def _first_line(text: str, needle: str) -> str:
    """The line of `text` containing `needle` (for quoting the message), else its last non-empty line."""
    for line in text.splitlines():
        if needle in line:
            return line.strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


# ---------------------------------------------------------------- rules as data


def _first_match(patterns: tuple[re.Pattern[str], ...] | list[re.Pattern[str]], text: str) -> re.Match[str] | None:
    """The match of the first pattern (in the order given: most specific first) found in `text`."""
    return next((m for m in (p.search(text) for p in patterns) if m is not None), None)


@diagnoser
def shell_rules(situation: Situation) -> Diagnosis | None:
    """Messages whose next step is known from the message alone (`rules/shell.toml`)."""
    return rules.match("shell", situation)


# ---------------------------------------------------------------- command not found

_NOT_FOUND = (
    # Ubuntu's own handler already names the package: "Command 'tree' not found, but can be installed with:"
    re.compile(r"^Command '(?P<name>[^'\s]+)' not found", re.M),
    # bash, scripts and sudo: "bash: gti: command not found", "./run.sh: line 3: foo: command not found"
    re.compile(r"^(?:.*?\s)??(?P<shell>[^\s:]+)(?:: line \d+)?: (?P<name>[^\s:]+): command not found", re.M),
    # zsh: "zsh: command not found: gti"
    re.compile(r"(?P<shell>zsh): command not found: (?P<name>\S+?)(?=[.,;]?(?:\s|$))"),  # a sentence's stop is no name's
    # dash (sh): "sh: 1: gti: not found", "/bin/sh: 1: foo: not found"
    re.compile(r"^(?:.*?\s)??(?P<shell>[^\s:]+): \d+: (?P<name>[^\s:]+): not found", re.M),
    # fish: "fish: Unknown command: gti"
    re.compile(r"(?P<shell>fish): Unknown command:? '?(?P<name>[^\s']+)'?"),
    # a script's interpreter through env: "/usr/bin/env: 'python': No such file or directory"
    re.compile(r"(?P<shell>(?:/usr)?/bin/env|env): ['‘\"](?P<name>[^'’\"\s/]+)['’\"]: No such file or directory"),
)
_COMMAND_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}")
_path_cache: tuple[float, str, dict[str, str]] | None = None


def path_commands() -> dict[str, str]:
    """Every executable name on PATH and its full path (the first directory wins, as in the shell), listed
    again after `PATH_CACHE_SECONDS`."""
    global _path_cache
    path = os.environ.get("PATH", os.defpath)
    now = time.monotonic()
    if _path_cache is not None and _path_cache[1] == path and now - _path_cache[0] < PATH_CACHE_SECONDS:
        return _path_cache[2]
    found: dict[str, str] = {}
    for folder in path.split(os.pathsep):
        if not folder:
            continue
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries:
            for entry in entries:
                if entry.name in found:
                    continue
                try:
                    if entry.is_file() and os.access(entry.path, os.X_OK):
                        found[entry.name] = entry.path
                except OSError:
                    continue
    _path_cache = (now, path, found)
    return found


def close_names(name: str, names: set[str] | dict[str, str], n: int = 3) -> list[str]:
    """Names close to `name`: two neighbouring letters swapped first ('gti' -> 'git'), then difflib's."""
    pool = set(names)
    swaps = {name[:i] + name[i + 1] + name[i] + name[i + 2:] for i in range(len(name) - 1)} - {name}
    out = sorted(swaps & pool)
    lower = {p.lower(): p for p in pool}
    if name.lower() in lower and lower[name.lower()] != name:
        out.append(lower[name.lower()])
    for match in difflib.get_close_matches(name, pool, n=n + 2, cutoff=0.75 if len(name) > 3 else 0.8):
        if match != name and match not in out:
            out.append(match)
    return out[:n]


#: shell builtins and keywords (bash, zsh): never on PATH, never a typo
SHELL_WORDS = frozenset(
    "alias bg bind break builtin caller case cd command compgen complete continue declare dirs disown do done echo "
    "elif else enable esac eval exec exit export false fc fg fi for function getopts hash help history if in jobs "
    "kill let local logout mapfile popd printf pushd pwd read readarray readonly return select set shift shopt "
    "source suspend test then time times trap true type typeset ulimit umask unalias unset until wait while "
    "autoload bindkey compdef emulate noglob rehash setopt unsetopt whence where which zle zmodload".split())


def mistyped_command(command: str) -> str | None:
    """The shell's "command not found" for a command line whose program is not on PATH while a name one typo away
    is (two letters swapped, or the case: 'gti status', 'Git log'): what the shell printed, known without reading
    the terminal. None for a program on PATH, a path, a builtin, an assignment, or no such close name (an alias or
    a function of the person's shell may be meant)."""
    words = command.split()
    while words and "=" in words[0]:
        words = words[1:]
    if not words:
        return None
    name = words[0]
    if name in SHELL_WORDS or "/" in name or not _COMMAND_NAME.fullmatch(name) or name in path_commands():
        return None
    pool = path_commands()
    swaps = {name[:i] + name[i + 1] + name[i] + name[i + 2:] for i in range(len(name) - 1)} - {name}
    if not (swaps & set(pool)) and name.lower() not in pool:
        return None
    shell = os.path.basename(os.environ.get("SHELL", "") or "bash")
    return f"zsh: command not found: {name}" if shell == "zsh" else f"{shell}: {name}: command not found"


def cnf_packages(command: str) -> list[str]:
    """The Debian packages that provide `command`, from the command-not-found database (best first), or []
    when the database is absent or cannot be read."""
    for db in CNF_DATABASES:
        if not os.path.isfile(db):
            continue
        try:
            con = sqlite3.connect(f"{Path(db).as_uri()}?mode=ro", uri=True, timeout=1.0)
        except sqlite3.Error as exc:
            log.debug("command-not-found database %s: %s", db, exc)
            continue
        try:
            query = ("SELECT packages.name FROM commands JOIN packages ON packages.pkgID = commands.pkgID "
                     "WHERE commands.command = ?")
            try:
                rows = con.execute(query + " ORDER BY packages.priority DESC", (command,)).fetchall()
            except sqlite3.OperationalError:
                rows = con.execute(query, (command,)).fetchall()
        except sqlite3.Error as exc:
            log.debug("command-not-found database %s: %s", db, exc)
            continue
        finally:
            con.close()
        return list(dict.fromkeys(str(r[0]) for r in rows if r[0]))
    return []


def _replace_first_word(command: str | None, old: str, new: str) -> str:
    """The command line with the program `old` replaced by `new`, after `sudo`, `nohup`, `env` or a variable's
    assignment, or in a chain of commands ('cd app && gti status'); just `new` when the line is not known or runs
    no `old`."""
    if command:
        found = re.search(rf"(?:^|&&|\|\||;|\|)[ \t]*(?:(?:sudo|env|time|nohup|[A-Z_][A-Z0-9_]*=\S*)[ \t]+)*"
                          rf"(?P<old>{re.escape(old)})(?=[ \t]|$)", command)
        if found:
            return command[:found.start("old")] + new + command[found.end("old"):]
    return new


def _described(name: str) -> str:
    """'git' (the stupid content tracker): the man page's summary only (a --help first line is often usage)."""
    doc = man_summary(name)
    return f"'{name}' ({doc})" if doc else f"'{name}'"


def apt_package_named(name: str) -> bool:
    """Whether the local apt lists (no network) know a package named exactly `name`: many commands are
    packaged under their own name (tree, htop, jq). Used only when the command-not-found database is absent."""
    exe = shutil.which("apt-cache")
    if exe is None or not os.path.isfile(APT_CACHE):
        return False  # without apt's binary cache, apt-cache rebuilds it first: seconds, too slow for help
    try:
        done = subprocess.run([exe, "show", "--no-all-versions", name], capture_output=True, text=True,
                              timeout=2.0, stdin=subprocess.DEVNULL, env={"LC_ALL": "C", "PATH": os.defpath},
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and f"Package: {name}\n" in done.stdout


@diagnoser
def command_not_found(situation: Situation) -> Diagnosis | None:
    """A command the shell could not find: a file of that name in this folder, the package that provides it
    (Debian's command-not-found database), close names on PATH."""
    m = _first_match(_NOT_FOUND, situation.error)
    if m is None:
        return None
    name = m["name"]
    shell = m.groupdict().get("shell") or ""
    if not _COMMAND_NAME.fullmatch(name):
        return None
    on_path = path_commands()
    details: dict[str, str] = {"command": name}
    steps, offer = _found_here(situation, name, shell, on_path, details)
    # installed by this very command line: a close name or a package would be another program
    installed = _installed_off_path(situation.command, name) if name not in on_path else None
    if installed is not None:
        steps.insert(0, installed)
        offer = offer or f"how to put the folder '{name}' was installed in on PATH"
    packages, guessed = _packages_of(name, on_path, situation.error)
    close = [c for c in close_names(name, on_path) if c != name]
    swapped = bool(close) and sorted(close[0]) == sorted(name)
    install: Step | None = None
    if packages and name not in on_path and installed is None:
        details["package"] = packages[0]
        others = f" (also in: {', '.join(packages[1:3])})" if len(packages) > 1 else ""
        what = (f"a package named '{name}' exists; it most likely provides the command" if guessed
                else f"it provides the command '{name}'{others}")
        install = Step(f"Install the package '{packages[0]}' ({what}).", f"sudo apt install {packages[0]}")
    suggestion: Step | None = None
    if close and name not in on_path and installed is None:
        details["close"] = ", ".join(close)
        also = f" (or: {', '.join(close[1:])})" if len(close) > 1 else ""
        suggestion = Step(f"Did you mean {_described(close[0])}?{also}",
                          _replace_first_word(situation.command, name, close[0]))
    ordered = [suggestion, install] if swapped else [install, suggestion]
    steps += [step for step in ordered if step is not None]
    if not steps:
        return None
    if not offer:
        offer = (f"the close command '{close[0]}'" if ordered[0] is suggestion and suggestion
                 else f"the package that provides '{name}'")
    source = "the commands on PATH" + ((", the apt package lists" if guessed else
                                        ", Debian's command-not-found database") if "package" in details else "")
    quoted = _first_line(situation.error, name)
    return Diagnosis("shell.command_not_found", f"The shell says \"{quoted}\": no program named '{name}' is on PATH.",
                     tuple(steps), offer, source, details)


def _found_here(situation: Situation, name: str, shell: str, on_path: dict[str, str],
                details: dict[str, str]) -> tuple[list[Step], str]:
    """The steps when the command is here after all: a file of that name in this folder (run it as ./name), or
    a program on PATH now (sudo's secure PATH lacks it, or the shell remembers an old place)."""
    steps: list[Step] = []
    offer = ""
    if situation.cwd and os.path.isfile(os.path.join(situation.cwd, name)):
        local = os.path.join(situation.cwd, name)
        run = "./" + name
        if not os.access(local, os.X_OK):
            run = f"chmod +x {_quote(name)} && ./{name}"
        steps.append(Step(f"'{name}' is a file in this folder, but the shell looks for commands only on PATH: "
                          f"run it as ./{name}.", _replace_first_word(situation.command, name, run)))
        offer = f"how to run '{name}' from this folder"
    if name in on_path:
        full = on_path[name]
        details["path"] = full
        if shell == "sudo":
            steps.append(Step(f"'{name}' is on your PATH ({full}) but not on sudo's secure PATH: give sudo its "
                              "full path.", _replace_first_word(situation.command, name, full)
                              if situation.command and situation.command.startswith("sudo ") else f"sudo {full}"))
            offer = f"how to run '{name}' with sudo"
        else:
            steps.append(Step(f"'{name}' is on PATH now ({full}): forget the shell's remembered locations and "
                              "run the command again.", "hash -r"))
            offer = offer or f"where '{name}' is now"
    return steps, offer


#: installers that put a program in a folder of their own, that a fresh system does not have on PATH: the
#: installer's command (the program's name is its package's last word) and that folder
_USER_INSTALLS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bgo install (?:-\S+ )*(?P<name>[^\s@;&|]+)"), "$(go env GOPATH)/bin"),
    (re.compile(r"\bcargo install (?:-\S+ )*(?P<name>[\w-]+)"), "$HOME/.cargo/bin"),
    (re.compile(r"\b(?:pipx install|pip3? install (?:-\S+ )*--user) (?:-\S+ )*(?P<name>[\w.-]+)"), "$HOME/.local/bin"),
    (re.compile(r"\bnpm (?:install|i) (?:-\S+ )*(?:-g|--global) (?:-\S+ )*(?P<name>[@\w./-]+)"),
     "$(npm prefix -g)/bin"),
    (re.compile(r"\bgem install (?:-\S+ )*--user-install (?:-\S+ )*(?P<name>[\w-]+)"),
     "$(ruby -e 'print Gem.user_dir')/bin"),
    (re.compile(r"\bdotnet tool install (?:-g|--global) (?P<name>[\w.-]+)"), "$HOME/.dotnet/tools"),
)


def _installed_off_path(command: str | None, name: str) -> Step | None:
    """The step when the same command line installed `name` with an installer whose folder is not on PATH
    (`go install …/air@latest && air`): the folder to add, not a close name or an apt package."""
    for pattern, folder in _USER_INSTALLS:
        for found in pattern.finditer(command or ""):
            parts = found["name"].split("/")  # a Go module's path: its last element, before a major version's /v2
            installed = parts[-2] if len(parts) > 1 and re.fullmatch(r"v\d+", parts[-1]) else parts[-1]
            if installed.lower() in (name.lower(), name.lower().replace("-", "_")):
                return Step(f"'{name}' was installed in {folder}, which is not on PATH: add that folder to PATH "
                            "(and the same line to ~/.bashrc or ~/.profile to keep it), then run it again.",
                            f'export PATH="$PATH:{folder}"')
    return None


def _packages_of(name: str, on_path: dict[str, str], error: str) -> tuple[list[str], bool]:
    """The packages that provide the command (Debian's command-not-found database, or Ubuntu's own suggestion in
    the message), or, with no database here, a package of that very name (`guessed`)."""
    packages = cnf_packages(name)
    if packages or name in on_path:
        return packages, False
    ubuntu = re.search(r"sudo apt install (\S+)", error)
    if ubuntu:
        return [ubuntu[1]], False
    if not any(os.path.isfile(db) for db in CNF_DATABASES) and apt_package_named(name):
        return [name], True
    return [], False


# ---------------------------------------------------------------- address already in use

_IN_USE = re.compile(r"address already in use|EADDRINUSE|\[Errno 98\]|\[WinError 10048\]|"
                     r"port \d+ is (?:already )?in use|That port is already in use|"
                     r"Only one usage of each socket address", re.I)
_PORT_IN_MESSAGE = (
    re.compile(r"\(\s*['\"][^'\"]*['\"],\s*(\d{1,5})\s*\)"),  # ('127.0.0.1', 8000)
    re.compile(r"\bport\s+(\d{1,5})\b", re.I),  # port 3000, Port 5000 is in use
    # 0.0.0.0:5432, :::3000, [::]:80, localhost:8000, tcp :8080 (not a time of day, 12:30:45)
    re.compile(r"(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]*\]|::|\*|[A-Za-z][\w.-]*|(?<=\s)):(\d{1,5})\b(?!\.?\d)"),
)
_PORT_IN_COMMAND = (
    re.compile(r"--port[= ](\d{1,5})\b"),
    re.compile(r"(?:^|\s)-p\s*(?:[\d.]+:)?(\d{1,5})(?::\d+)?\b"),
    re.compile(r"\brunserver\s+(?:[\w.]+:)?(\d{1,5})\b"),
    re.compile(r"\bhttp\.server\s+(\d{1,5})\b"),
    re.compile(r"\bPORT=(\d{1,5})\b"),
    re.compile(r"(?:--bind|--listen|-b)[= ]\S*:(\d{1,5})\b"),
    re.compile(r"[\w\]]:(\d{2,5})\b"),
)
_DEFAULT_PORTS = ((re.compile(r"\brunserver\b"), 8000), (re.compile(r"\bhttp\.server\b"), 8000),
                  (re.compile(r"\bflask\b.*\brun\b"), 5000), (re.compile(r"\bjupyter\b"), 8888))


def port_of(situation: Situation) -> int | None:
    """The port in use: from the message's lines that say so, then the whole message, then the command line
    (`--port 8000`, `-p 8080:80`, `:3000`), then a well-known tool's default."""
    error = situation.error
    lines = [line for line in error.splitlines() if _IN_USE.search(line)]
    for text in ("\n".join(lines), error):
        for pattern in _PORT_IN_MESSAGE:
            for m in pattern.finditer(text):
                if 0 < int(m[1]) < 65536:
                    return int(m[1])
    command = situation.command or ""
    for pattern in _PORT_IN_COMMAND:
        found = pattern.search(command)
        if found and 0 < int(found[1]) < 65536:
            return int(found[1])
    for pattern, port in _DEFAULT_PORTS:
        if pattern.search(command):
            return port
    return None



def _other_port(command: str | None, port: int) -> Step:
    new = port + 1
    if command and str(port) in command:
        changed = re.sub(rf"(?<!\d){port}(?!\d)", str(new), command, count=1)
        return Step(f"Or start it on another port ({new}).", changed)
    return Step(f"Or start it on another port, such as {new}.")


@diagnoser
def address_in_use(situation: Situation) -> Diagnosis | None:
    """A port already in use: the process listening on it, from /proc (own processes only)."""
    m = _IN_USE.search(situation.error)
    if m is None:
        return None
    quoted = _first_line(situation.error, m.group(0))
    port = port_of(situation)
    if port is None:
        return Diagnosis("shell.address_in_use", f"The port is already taken: \"{quoted}\".",
                         (Step("List the listening ports and the processes holding them.", "ss -ltnp"),),
                         "the command that lists which process holds each port", "the message")
    holders = port_holders(port)
    details = {"port": str(port)}
    steps: list[Step] = []
    visible = [h for h in holders if h.pid is not None]
    for h in visible[:2]:
        what = f"'{h.name}' (pid {h.pid}" + (f": {h.cmdline[:100]}" if h.cmdline else "") + ")"
        steps.append(Step(f"Stop the process holding port {port}: {what}.", f"kill {h.pid}"))
    if visible:
        details.update(pid=str(visible[0].pid), process=visible[0].name or "")
        offer = f"the process holding port {port} ('{visible[0].name}', pid {visible[0].pid}) and how to stop it"
    elif holders:
        h = holders[0]
        details["user"] = h.user
        steps.append(Step(f"Port {port} is held by a process of the user '{h.user}' that this account cannot see; "
                          "find it with sudo.", f"sudo ss -ltnp 'sport = :{port}'"))
        offer = f"who holds port {port}"
    else:
        steps.append(Step(f"Nothing listens on port {port} now: whatever held it has exited. Run the command "
                          "again.", situation.command or None))
        steps.append(Step(f"If it happens again, see which process holds port {port} (then stop it with kill and "
                          "its pid).", f"sudo lsof -i :{port} -sTCP:LISTEN"))
        offer = f"the command that shows what holds port {port} (it is free now)"
    steps.append(_other_port(situation.command, port))
    return Diagnosis("shell.address_in_use", f"Port {port} is already in use: \"{quoted}\".", tuple(steps), offer,
                     "the listening sockets in /proc", details)
