"""Which programs echo what is typed in raw mode, judged from their names and command lines (`echo_state`).

An allowlist: a shell at its own prompt, vim not asking for a key, an editor, a pager, a monitor, sqlite3, a REPL
without a script. Anything else fails closed (its typing is unseen). The names are read from /proc.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat as stat_mode

from proactive.watcher.privacy.proc_table import read_proc

#: Shell executables: in raw mode an *interactive* one (no script, no -c) is at its own prompt, its line editor.
SHELLS = frozenset({"bash", "sh", "dash", "ash", "zsh", "fish", "ksh", "mksh", "pdksh", "oksh", "yash", "posh",
                    "tcsh", "csh"})
#: A shell's options that take the next argument as their value: short letters, long options.
SHELL_VALUES = {"fish": ("dofpD", frozenset({"--debug", "--debug-output", "--features", "--profile",
                                             "--profile-startup", "--debug-stack-frames"}))}
SH_VALUES = ("oO", frozenset({"--rcfile", "--init-file", "--emulate"}))  # bash, zsh, ksh...: -o opt, --rcfile f
#: Options that give a shell its commands other than from the person at the terminal (-c, fish's init command,
#: -s: commands from standard input).
SHELL_COMMANDS = "cCs"
SHELL_LONG_COMMANDS = frozenset({"--command", "--init-command"})
#: Raw-mode programs that echo what is typed themselves, kept because each is tested with its own hidden prompts
#: (tests/test_raw_mode_watched.py): vim (its key prompts: VIM_NAMES rules), an editor, pagers, a monitor, sqlite3.
#: An allowlist, so an unknown raw-mode program fails closed. Shells are judged by `interactive_shell`.
VIM_NAMES = frozenset({"vi", "vim", "view", "vimdiff", "rvim", "rview"})
LOCAL_ECHO = VIM_NAMES | frozenset({"nano", "less", "more", "man", "top", "sqlite"})
#: Interpreters whose REPL echoes (only when run without a script: a script may read a password in raw mode).
REPLS = frozenset({"python"})
#: Programs that relay the keys to where we cannot see the echo: anywhere in the foreground job, or below it.
REMOTE = frozenset({"ssh", "mosh", "mosh-client", "telnet", "rlogin", "rsh", "autossh", "sshpass", "et", "tsh",
                    "docker", "podman", "kubectl", "oc", "nerdctl", "lxc", "incus", "machinectl", "virsh", "vagrant",
                    "session-manager-plugin", "nc", "ncat", "netcat", "socat", "minicom", "picocom", "cu",
                    "screen", "dtach", "abduco", "tmate", "waypipe"})
MULTIPLEXER = "tmux"
#: vim asks for an encryption key: -x, recovery of a swap file (-r, -L), a command that runs :X or sets 'key'.
VIM_KEY_COMMAND = re.compile(r"(?:^|[\s|:])X!?\s*(?:$|\|)|\bkey\b|inputsecret")
#: The typed line (what the keys since the last Enter made) that runs vim's :X: the key is asked twice after it.
VIM_X_LINE = re.compile(r":\s*X\s*$")  # also after text typed in insert mode ("ihello" Escape ":X")
#: A typed vim command that reads a secret in vim's own line editor (`inputsecret()`: one line, shown as `*`).
VIM_SECRET_LINE = re.compile(r":.*\binputsecret\s*\(")
#: Addresses netrw opens by asking a user name and a password in vim's own line editor (`vim ftp://host/file`,
#: `:e scp://...`): a vim with one on its command line may ask at any time; a command that opens one asks two lines.
NETRW_URL = re.compile(r"(?i)\b(?:ftp|sftp|scp|rcp|dav|davs|rsync|fetch|https?)://")
VIM_NETRW_LINE = re.compile(r"(?i):\s*(?:e|edit|r|read|w|write|sp|split|vs|vsplit|new|vnew|tabe|tabedit|"
                            r"Nread|Nwrite|Nsource|Explore)!?\s+\S*(?:ftp|sftp|scp|rcp|dav|davs|rsync|fetch)://")
VIM_CRYPT = b"VimCrypt~"  # the header of a file vim encrypted


def normalise(name: str) -> str:
    """"python3.11" -> "python", "vim.basic" -> "vim", "sqlite3" -> "sqlite"."""
    base = name.removesuffix(" (deleted)").split(".")[0]
    return (base.rstrip("0123456789") or base).lower()


def argv_of(cmdline: bytes | None) -> list[str]:
    return [a.decode(errors="replace") for a in (cmdline or b"").split(b"\0") if a]


def program_of(pid: int, cmdline: bytes | None = None) -> tuple[str, list[str]]:
    """(normalised program name, argv) of a process: the executable's name ("python3.11" -> "python",
    "vim.basic" -> "vim"), else its comm when the executable cannot be read (another user's process)."""
    name = ""
    try:
        name = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        comm = read_proc(f"/proc/{pid}/comm", 256)
        if comm is None:
            return "", []
        name = comm.decode(errors="replace").strip()
    if cmdline is None:
        cmdline = read_proc(f"/proc/{pid}/cmdline")
    return normalise(name), argv_of(cmdline)


def names_of(pid: int, comm: str, argv: list[str] | None = None) -> frozenset[str]:
    """Every name a process goes by: its executable's, its process name (comm, which a program may set), its
    argv[0]'s (for the remote programs: a renamed copy of one still counts by some name)."""
    names = {normalise(comm), comm.lower()}
    with contextlib.suppress(OSError):
        names.add(normalise(os.path.basename(os.readlink(f"/proc/{pid}/exe"))))
    if argv is None:
        argv = argv_of(read_proc(f"/proc/{pid}/cmdline", 4096))
    if argv and argv[0].split():
        first = os.path.basename(argv[0].split()[0])
        names |= {first.lower().lstrip("-"), normalise(first.lstrip("-"))}
    return frozenset(names)



def interactive_shell(name: str, argv: list[str]) -> bool:
    """Whether a shell's command line runs it interactively, reading commands from the person: no script operand,
    no `-c` (nor fish's `-C` init command), no `-s` (commands from standard input); a login shell (`-bash`) counts.
    Options that take a value (`-o vi`, `--rcfile FILE`) are skipped with it; anything not understood is an
    operand (fail closed). Says nothing of whether it is a forked subshell (`EchoWatch` looks at that)."""
    if name not in SHELLS or not argv:
        return False
    letters, longs = SHELL_VALUES.get(name, SH_VALUES)
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("--", "-"):
            return i + 1 >= len(args)  # what follows is a script and its arguments
        if arg.startswith("--"):
            key = arg.split("=", 1)[0]
            if key in SHELL_LONG_COMMANDS:
                return False
            if key in longs and "=" not in arg:
                i += 1
        elif arg[:1] in "-+" and len(arg) > 1:
            cluster = arg[1:]
            if set(cluster) & set(SHELL_COMMANDS):
                return False
            for j, letter in enumerate(cluster):
                if letter in letters:
                    i += 1 if j == len(cluster) - 1 else 0  # the value: the next argument, or the rest here
                    break
        else:
            return False  # an operand: a script
        i += 1
    return True


def vim_may_ask_key(argv: list[str]) -> bool:
    """Whether vim's command line may make it ask for a key or a password at any time: -x, recovering a swap file
    (-r, -L: an encrypted one asks its key), a command (+cmd, -c, --cmd) that runs :X, sets 'key' or calls
    inputsecret(), a remote address netrw opens (`vim ftp://host/file` asks a user name and a password)."""
    values = False
    for arg in argv[1:]:
        if values:
            if VIM_KEY_COMMAND.search(arg):
                return True
            values = False
        elif arg == "--":
            return False
        elif arg in ("-c", "--cmd"):
            values = True
        elif arg.startswith("+"):
            if VIM_KEY_COMMAND.search(arg[1:]):
                return True
        elif arg.startswith("-") and not arg.startswith("--") and ("x" in arg or arg in ("-r", "-L")):
            return True
        elif NETRW_URL.match(arg):  # netrw asks the address's user name and password
            return True
    return False


def echoes_locally(name: str, argv: list[str]) -> bool:
    """Whether a raw-mode program shows what is typed on this screen, by its name and command line: an interactive
    shell's line editor (`interactive_shell`), an allowlisted program (vim not asking for a key), or a REPL with
    no script; everything else fails closed. (EchoWatch also looks at what only the running process shows: a
    subshell, vim's open files.)"""
    if name in SHELLS:
        return interactive_shell(name, argv)
    if name in VIM_NAMES:
        return not vim_may_ask_key(argv)
    if name in LOCAL_ECHO:
        return True
    return name in REPLS and not any(not a.startswith("-") for a in argv[1:])


def editor_key_lines(line: str) -> int:
    """How many lines typed after a finished terminal line answer a key prompt that the terminal's state cannot
    show: vim's `:X` asks "Enter encryption key" then "Enter same key again" in its own raw-mode line editor, with
    vim in the foreground as while it edits; `:let p = inputsecret('pw: ')` reads one line shown as `*`; `:e
    ftp://host/file` makes netrw ask a user name and a password. `line` is what the keys since the last Enter made
    ("ihello" then Escape then ":X"): a line ending in `:X` (capital: `:x` writes and quits) or opening a remote
    address -> 2, an `inputsecret(` -> 1. For the privacy filter's
    line-by-line count (`PrivacyFilter.asks_password`); a line answered there is read by a line editor, so the
    count must stand (not be forgotten as a prediction)."""
    if VIM_X_LINE.search(line) or VIM_NETRW_LINE.search(line):
        return 2
    return 1 if VIM_SECRET_LINE.search(line) else 0



def vim_key_file(pid: int) -> str | None:
    """Why vim may be asking for a key now, from the files it holds open, or None: a file with vim's encryption
    header (it asks the key to read it: `vim secret.txt`, `:e secret.txt`), an encrypted swap file (a buffer with
    a key is being edited); its descriptors, or a regular file it holds, cannot be read (fail closed)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return "its open files cannot be read"
    for fd in fds:
        path = f"/proc/{pid}/fd/{fd}"
        try:
            if not stat_mode.S_ISREG(os.stat(path).st_mode):
                continue
        except OSError:
            continue  # closed meanwhile
        head = read_proc(path, 12)
        if head is None:
            return "it holds a file we cannot read"
        if head.startswith(VIM_CRYPT):
            return "it asks the key of an encrypted file"
        if head[:1] == b"b" and head[1:2] != b"0" and head[2:5] == b"VIM":
            return "it edits an encrypted buffer"
    return None
