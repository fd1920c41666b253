"""The privacy filter: decides, before anything is stored, what is dropped and what is redacted.

It sees every stream together, because privacy depends on context: a key press is harmless in an editor and a
secret in a password manager; a clipboard copy made right after focusing a "Sign in" dialog is a password.
Rules, in order:
1. paused: everything is dropped (only the pause/resume markers are kept);
   our own window (the tray app's history, settings, popups: a window of this very process, `is_own_window`):
   nothing is kept, not even the window, so it makes no episode; idle periods and web pages, which are not
   seen in a window, still are;
2. excluded application or title pattern (password managers, private/incognito windows): the window is stored as
   an anonymous "private window" and nothing typed, clicked or copied there is kept;
3. password context: the focused window's title mentions a password, PIN, passphrase, sign-in... or shows a
   prompt ("[sudo] password for", "Username for 'https://..."), or the accessibility bus says the focused widget
   is a password field (role "password text", `PASSWORD_ROLES`; watcher/atspi.py): typed text and copies are
   dropped (clicks and hotkeys stay); in a terminal, the lines typed after a command line that will prompt for a
   password or a username (see `prompt_lines`), or after a prompt the terminal shows through the accessibility
   bus (`terminal_prompt`), are hidden;
4. every string that remains (text, clipboard, titles, URLs) goes through secret redaction.
If any rule fails with an error, the event is dropped and counted (fail closed).
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import events
from .echo_state import UNSEEN, EchoWatch, Reading
from .events import CLICK, CLIPBOARD, CONTROL, HOTKEY, IDLE, KEY, SCROLL, TEXT, WEB, WINDOW, RawEvent
from .home import Config
from .redact import redact

log = logging.getLogger(__name__)

PRIVATE_APP = "private window"
#: Prompts a window (a terminal's title, a dialog) may show: they always count as a password context, even when
#: the user's `password_titles` replace the defaults.
PROMPT_TITLE = re.compile(
    r"(?i)\[sudo\] password|\b(?:username|password|passphrase|pin) for ['\"]|\benter (?:passphrase|pin)\b"
    r"|^\s*(?:password|passphrase|pin)\s*:"
)
#: An answer to a yes/no question (ssh's unknown host) is not the answer to the password prompt that follows.
CONFIRMATION = re.compile(r"(?i)y|n|yes|no")
MAX_WINDOWS = 32  # terminal windows whose pending prompts are remembered
TERMINAL_APPS = {"xterm", "terminal", "konsole", "alacritty", "kitty", "gnome-terminal", "gnome-terminal-server",
                 "tilix", "terminator", "urxvt", "rxvt", "st", "wezterm", "foot", "iterm2", "windowsterminal",
                 "cmd", "powershell", "pwsh", "xfce4-terminal", "lxterminal", "mate-terminal", "qterminal"}
STRING_FIELDS = ("text", "title", "url", "app", "process", "combo")


def is_terminal(app: str | None, process: str | None = None) -> bool:
    return any((n or "").lower().removesuffix(".exe") in TERMINAL_APPS for n in (app, process))


def is_own_window(pid: Any) -> bool:
    """Whether a window belongs to this process: the tray app runs the watcher in its own process, so its
    history, settings and popup windows have our pid. Why the pid and not the titles ("Proactive: history"):
    another application may show the same title, and a title can change. Why not our child processes too: the
    browser the help opens (`webbrowser`) may be one, and the person's own browsing must still be captured."""
    return isinstance(pid, int) and not isinstance(pid, bool) and pid == os.getpid()


# -- the accessibility bus: roles and terminal prompts ------------------------------------------------------------
#: AT-SPI roles of widgets whose text is a secret: nothing typed there is kept (Qt sends the real characters).
PASSWORD_ROLES = frozenset({"password text"})
#: A terminal line that waits for a secret: it ends with `...password...:` ("[sudo] password for u:",
#: "Password:", "u@host's password:", "Enter passphrase for key '/k':", "Password for 'https://u@h':", "PIN:"),
#: or asks a username for a site ("Username for 'https://github.com':"). Only the last line counts (the one at the
#: cursor): output that merely mentions a password is followed by other lines or does not end with a colon.
PROMPT_TEXT = re.compile(r"(?i)(?:^|[\s\]'\"(])(?P<word>password|passphrase|passcode|pin|username)\b"
                         r"""(?:[^:\n'"]|'[^'\n]*'|"[^"\n]*"){0,160}:\s*$""")


def terminal_prompt(text: str) -> str | None:
    """"password" or "username" when the last line of a terminal's text is a prompt waiting for one, else None."""
    lines = re.split(r"[\r\n]", text.rstrip())  # trailing blank lines: a redrawn screen below the cursor
    match = PROMPT_TEXT.search(lines[-1][-300:]) if lines else None
    if match is None:
        return None
    return "username" if match.group("word").lower() == "username" else "password"


# -- which terminal command lines prompt for a password ---------------------------------------------------------
# Why a recogniser and not a regex on the start of the line: `cd /tmp && sudo ls`, `env X=1 git push` and
# `time docker login` prompt just the same. The line is split the way a shell would (quotes, `&&`, `||`, `;`, `|`,
# `( )`, `$( )`, backquotes), each simple command is unwrapped (assignments, env/time/nohup/exec..., sudo -u x...)
# and the program it runs is looked up, with its arguments where they decide. Arguments never count as programs:
# `echo sudo is great`, `man ssh`, `grep passwd /etc/passwd` prompt for nothing.
# The result is a number of lines, not a yes/no: `git push` asks a username, then a password, and the username is
# personal data too. The numbers are the prompts of one run; a failed attempt's retry (sudo's "Sorry, try again")
# is not seen (the terminal's output is not captured).

#: A command line hides at most this many lines, however many prompters it chains.
MAX_HIDDEN_LINES = 5

#: Programs that may prompt whatever their arguments -> lines their prompts take.
ALWAYS: dict[str, int] = {
    "scp": 1, "sftp": 1, "ssh-add": 1, "ssh-copy-id": 1, "sshfs": 1, "mosh": 1,
    "ssh-keygen": 3,  # file name, passphrase, the same again
    "passwd": 3,  # current, new, retype
    "chsh": 1, "chfn": 1, "login": 2, "ftp": 2, "telnet": 2, "smbclient": 1,
    "kinit": 1, "cryptsetup": 3,  # luksFormat: YES, passphrase, verify
    "htpasswd": 2, "vncpasswd": 2, "tigervncpasswd": 2, "keytool": 2,
    "systemd-ask-password": 1, "keepassxc-cli": 1, "openvpn": 2,
}
#: Programs that prompt only in some subcommands (one word, or two: `gh auth login`) -> lines; "" is the default.
SUBCOMMANDS: dict[str, dict[str, int]] = {
    **dict.fromkeys(("npm", "yarn", "pnpm"), {"login": 3, "adduser": 3, "add-user": 3}),  # user, password, e-mail
    "twine": {"upload": 2, "register": 2},
    **dict.fromkeys(("pip", "pip3"), {"login": 2, "upload": 2}),
    "poetry": {"publish": 2}, "gem": {"signin": 2, "push": 2}, "cargo": {"login": 1},
    "az": {"login": 1}, "heroku": {"login": 2}, "vault": {"login": 1}, "aws": {"configure": 2},
    "gh": {"auth login": 5},  # menu answers, then the token
    "gcloud": {"auth login": 1},
    "openssl": {"passwd": 2, "enc": 2, "genrsa": 2, "genpkey": 2, "gendsa": 2, "req": 2, "rsa": 2, "pkcs8": 2,
                "ec": 2, "dsa": 2, "pkcs12": 3, "smime": 1, "cms": 1, "ca": 1},
    "ansible-vault": {"": 2, "rekey": 3},
    "op": {"signin": 1}, "bw": {"login": 2, "unlock": 1}, "lpass": {"login": 1}, "pass": {"insert": 2},
}
#: Run the command that follows them: (option letters taking a value, long options taking one, positionals).
WRAPPERS: dict[str, tuple[str, frozenset[str], int]] = {
    "env": ("uCS", frozenset({"--unset", "--chdir", "--split-string"}), 0),
    "time": ("fo", frozenset({"--format", "--output"}), 0),
    "nice": ("n", frozenset({"--adjustment"}), 0), "ionice": ("cnp", frozenset(), 0),
    "stdbuf": ("ioe", frozenset(), 0), "timeout": ("sk", frozenset({"--signal", "--kill-after"}), 1),
    "exec": ("a", frozenset(), 0), "xargs": ("IndPELsa", frozenset(), 0),
    **dict.fromkeys(("nohup", "command", "builtin", "setsid", "chronic", "unbuffer", "torsocks", "proxychains",
                     "proxychains4", "then", "do", "else", "elif", "if", "while", "until", "!", "{", "}"),
                    ("", frozenset(), 0)),
}
#: Run a command as someone else, asking the user's password first: (option letters taking a value, long ones).
ELEVATORS: dict[str, tuple[str, frozenset[str]]] = {
    "sudo": ("ugpChDrRtTU", frozenset({"--user", "--group", "--prompt", "--close-from", "--chdir", "--chroot",
                                      "--role", "--type", "--command-timeout", "--other-user", "--host"})),
    "doas": ("uC", frozenset()), "pkexec": ("", frozenset({"--user"})),
}
SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "eval", "su"}
REGISTRY_CLIENTS = {"docker", "podman", "buildah", "skopeo", "nerdctl", "oras", "helm", "crane"}
MYSQL = {"mysql", "mariadb", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow", "mysqlsh",
         "mariadb-dump", "mariadb-admin"}
POSTGRES = {"psql", "pgcli", "pg_dump", "pg_dumpall", "pg_restore", "pg_basebackup", "createdb", "dropdb",
            "createuser", "dropuser", "vacuumdb", "reindexdb", "clusterdb"}
ANSIBLE = {"ansible", "ansible-playbook", "ansible-pull", "ansible-console"}
GIT_REMOTE_COMMANDS = {"push", "pull", "fetch", "clone", "ls-remote", "submodule"}
GPG_QUIET = {"-k", "-K", "--list-keys", "--list-secret-keys", "--list-sigs", "--fingerprint", "--version",
             "--help", "--verify", "--recv-keys", "--search-keys", "--list-packets"}
SSH_VALUE_OPTIONS = "BbcDEeFIiJLlmOopQRSWw"
ASSIGNMENT = re.compile(r"[A-Za-z_]\w*\+?=.*", re.S)
SUBSTITUTION = re.compile(r"\$\(|`")
OPERATOR_CHARS = set(";&|()<>\n")
SECRET_WORD = re.compile(r"(?i)pass|\bpin\b|token|secret|user ?name|login")


def prompt_lines(line: str) -> int:
    """How many lines typed after this terminal command line answer its password (or username) prompts."""
    return min(_line_prompts(line), MAX_HIDDEN_LINES)


def _line_prompts(line: str, depth: int = 0) -> int:
    return sum(_command_prompts(words, fed, depth) for words, fed in _commands(line)) if depth <= 3 else 0


def _continued(line: str) -> str:
    """The start of a command line that goes on in the next line (a trailing `\\`, `|` or `&&`, an open quote),
    or "" when the line is complete."""
    if len(line) > 4000:  # a runaway line is not carried on
        return ""
    stripped = line.rstrip()
    if stripped.endswith("\\"):
        return stripped[:-1] + " "
    if stripped.endswith(("|", "&&")):
        return stripped + " "
    try:
        shlex.split(line)
    except ValueError:
        return line + "\n"
    return ""


def _commands(line: str, depth: int = 0) -> list[tuple[list[str], bool]]:
    """The simple commands of a shell line, each as its words (redirections left out) and whether its input is
    fed by a pipe or a redirection, including the commands of `$( )` and backquote substitutions."""
    tokens = _tokens(line)
    commands: list[list[str]] = [[]]
    fed = [False]
    skip = False
    for i, token in enumerate(tokens):
        if skip:
            skip = False
        elif token and set(token) <= OPERATOR_CHARS and (set(token) & set(";|()") or set(token) == {"&"}):
            commands.append([])  # ; && || | & ( ) and the <( of a process substitution
            fed.append(token in ("|", "|&"))
        elif token and set(token) <= OPERATOR_CHARS:
            skip = True  # a redirection (> 2>&1 <<<): its target is not a word of the command
            fed[-1] = fed[-1] or token.startswith("<")
            if i and commands[-1] and tokens[i - 1] == commands[-1][-1] and commands[-1][-1].isdigit():
                commands[-1].pop()  # the `2` of `2>&1`
        else:
            commands[-1].append(token)
            if depth < 3 and SUBSTITUTION.search(token):  # "$(...)" or `...` inside quotes still runs
                inner = _commands(SUBSTITUTION.sub(";", token).replace(")", ";"), depth + 1)
                commands.extend(c for c, _ in inner)
                fed.extend(f for _, f in inner)
    return [(c, f) for c, f in zip(commands, fed, strict=True) if c]


def _tokens(line: str) -> list[str]:
    """Shell words and operators; an unfinished quote is closed, and if the line still cannot be read it is split
    on blanks and operators (a wrong split only hides more)."""
    for attempt in (line, line + '"', line + "'"):
        lexer = shlex.shlex(attempt, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        try:
            return list(lexer)
        except ValueError:
            continue
    return re.findall(r"[;&|()<>]+|[^\s;&|()<>]+", line)


def _options(words: list[str], start: int, value_letters: str = "",
             value_longs: frozenset[str] = frozenset()) -> tuple[list[str], int]:
    """The options of a command from `start`, and the index of its first operand. A short option whose letter is
    in `value_letters` (and a long one in `value_longs`) takes a value, attached or as the next word."""
    flags: list[str] = []
    i = start
    while i < len(words) and words[i].startswith("-") and words[i] != "-":
        word = words[i]
        i += 1
        if word == "--":
            break
        flags.append(word)
        if word.startswith("--"):
            if "=" not in word and word in value_longs and i < len(words):
                i += 1
            continue
        letters = word[1:]
        for k, letter in enumerate(letters):
            if letter in value_letters:
                if k == len(letters) - 1 and i < len(words):
                    i += 1  # `-u root`; in `-uroot` the value is attached
                break
    return flags, i


def _program(word: str) -> str:
    return word.rsplit("/", 1)[-1].lstrip("\\")


def _command_prompts(words: list[str], fed: bool = False, depth: int = 0) -> int:
    """Lines prompted by one simple command: wrappers and assignments are skipped, elevators (sudo...) count and
    then the command they run counts too. `fed`: its input is a pipe or a redirection (`echo X | sudo -S`)."""
    total = 0
    i = 0
    while i < len(words):
        word = words[i]
        name = _program(word)
        if ASSIGNMENT.fullmatch(word):
            i += 1
        elif name in WRAPPERS:
            letters, longs, positionals = WRAPPERS[name]
            _, i = _options(words, i + 1, letters, longs)
            i += positionals
        elif name in ELEVATORS:
            flags, i = _options(words, i + 1, *ELEVATORS[name])
            stdin = any(f == "--stdin" or (not f.startswith("--") and "S" in f) for f in flags)
            quiet = {"-n", "--non-interactive"} & set(flags) or (stdin and fed) or (
                i >= len(words) and {"-k", "-K", "--reset-timestamp", "--remove-timestamp"} & set(flags))
            total += 0 if quiet else 1
        elif name in SHELLS:
            return total + _shell_prompts(name, words[i + 1:], depth)
        elif name == "ssh":
            _, j = _options(words, i + 1, SSH_VALUE_OPTIONS)
            remote = " ".join(words[j + 1:])  # the command run on the server (it may prompt there)
            return total + 1 + _line_prompts(remote, depth + 1)
        else:
            return total + _program_prompts(name, words[i + 1:])
    return total


def _shell_prompts(name: str, args: list[str], depth: int) -> int:
    """`bash -c '...'`, `eval ...`, `su -c '...'`: the command string is a command line of its own (su itself asks
    for the target user's password)."""
    script = " ".join(args) if name == "eval" else ""
    for k, word in enumerate(args if name != "eval" else []):
        if word.startswith("--command="):
            script = word.split("=", 1)[1]
            break
        if word == "--command" or re.fullmatch(r"-[A-Za-z]*c", word):
            script = args[k + 1] if k + 1 < len(args) else ""
            break
    return int(name == "su") + (_line_prompts(script, depth + 1) if script else 0)


def _program_prompts(name: str, args: list[str]) -> int:
    """Lines prompted by a program that is not a wrapper: from the tables, or from its arguments."""
    if "--help" in args or "--version" in args:
        return 0
    rule = ARGUMENT_RULES.get(name)
    if rule is not None:
        return rule(args)
    if name in ALWAYS:
        return ALWAYS[name]
    if name in SUBCOMMANDS:
        table = SUBCOMMANDS[name]
        operands = [a for a in args if not a.startswith("-")][:3]
        for sub, lines in table.items():
            if sub and any(" ".join(operands[k:k + len(sub.split())]) == sub for k in range(2)):
                return lines
        return table.get("", 0)
    return 0


def _git(args: list[str]) -> int:
    """git over HTTP(S) may ask a username and a password (2 lines), over SSH a passphrase or password (1);
    a named remote (`origin`) or none may be either, so it counts as HTTPS; a local path asks nothing."""
    _, i = _options(args, 0, "cC", frozenset({"--git-dir", "--work-tree", "--namespace", "--exec-path"}))
    if i >= len(args) or args[i] not in GIT_REMOTE_COMMANDS:
        return 0
    operands = [a for a in args[i + 1:] if not a.startswith("-")]
    if any(re.match(r"(?i)https?://", a) for a in operands) or not operands:
        return 2
    repo = operands[0]
    if re.match(r"(?i)(?:ssh|git\+ssh|ssh\+git)://|[^/:]+:(?!//)", repo):
        return 1
    if re.match(r"(?i)file://|\.{1,2}(?:/|$)|[/~]", repo) and not any("://" in a for a in operands):
        return 0
    return 2


def _registry_login(args: list[str]) -> int:
    """`docker login` (podman, helm registry...): a username unless -u is given, a password unless -p or
    --password-stdin is."""
    operands = [a for a in args if not a.startswith("-")]
    if "login" not in operands[:2]:
        return 0
    given = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    user = not given & {"-u", "--username"} and not any(a.startswith("-u") and len(a) > 2 for a in args)
    password = not given & {"-p", "--password", "--password-stdin"} and not any(
        a.startswith("-p") and len(a) > 2 for a in args)
    return int(user) + int(password)


def _mysql(args: list[str]) -> int:
    """`mysql -p` (nothing attached) and `--password` without a value prompt; `-pSECRET` is redacted instead."""
    return int(any(a in ("-p", "--password") for a in args))


def _postgres(args: list[str]) -> int:
    """psql and friends ask unless told not to (-w); `createuser -P` asks the new role's password twice more."""
    if {"-w", "--no-password"} & set(args):
        return 0
    return 1 + (2 if {"-P", "--pwprompt"} & set(args) else 0)


def _mongo(args: list[str]) -> int:
    """mongosh asks a password when a user is given without one (`-u me`, `-p` last, a URI `user@host`)."""
    return int(any(a in ("-p", "--password", "-u", "--username") or re.match(r"mongodb(?:\+srv)?://[^:@/]+@", a)
                   for a in args))


def _ansible(args: list[str]) -> int:
    """One line per --ask-pass (-k), --ask-become-pass (-K) and --ask-vault-pass (-J)."""
    longs = {"--ask-pass", "--ask-become-pass", "--ask-sudo-pass", "--ask-su-pass", "--ask-vault-pass",
             "--ask-vault-password"}
    count = sum(1 for a in args if a in longs)
    count += sum(sum(c in "kKJ" for c in a[1:]) for a in args if re.fullmatch(r"-[A-Za-z]+", a))
    return count


def _gpg(args: list[str]) -> int:
    """gpg asks a passphrase (twice to encrypt symmetrically) except when it only lists or fetches keys."""
    return 0 if GPG_QUIET & set(args) else 2


def _curl(args: list[str]) -> int:
    """`curl -u user` (no `:password`) asks "Enter host password for user"."""
    for k, a in enumerate(args):
        if a in ("-u", "--user", "-U", "--proxy-user"):
            value = args[k + 1] if k + 1 < len(args) else ""
        elif a.startswith(("--user=", "--proxy-user=")) or re.match(r"-[uU].", a):
            value = a.split("=", 1)[1] if a.startswith("--") else a[2:]
        else:
            continue
        if ":" not in value:
            return 1
    return 0


def _read(args: list[str]) -> int:
    """The shell's `read -s` (silent) or a `read -p 'Password: '` prompt."""
    silent = any(re.fullmatch(r"-[A-Za-z]*s[A-Za-z]*", a) for a in args)
    return int(silent or any(SECRET_WORD.search(a) for a in args if not a.startswith("-")))


def _redis(args: list[str]) -> int:
    return int("--askpass" in args)


def _zip(args: list[str]) -> int:
    return 2 if {"-e", "--encrypt"} & set(args) else 0


#: Programs whose arguments decide whether they prompt.
ARGUMENT_RULES: dict[str, Callable[[list[str]], int]] = {
    "git": _git, **dict.fromkeys(REGISTRY_CLIENTS, _registry_login), **dict.fromkeys(MYSQL, _mysql),
    **dict.fromkeys(POSTGRES, _postgres), "mongo": _mongo, "mongosh": _mongo, **dict.fromkeys(ANSIBLE, _ansible),
    "gpg": _gpg, "gpg2": _gpg, "curl": _curl, "read": _read, "redis-cli": _redis, "zip": _zip,
}


class PrivacyFilter:
    """Stateful filter over the merged event stream. Not thread-safe: the pipeline thread owns it."""

    def __init__(self, config: Config):
        self.reconfigure(config)
        self.paused_until: float | None = None  # None: capturing; math.inf: paused until resumed
        self.private = False
        self.own_window = False  # the focused window is one of ours (is_own_window)
        self.password_context = False
        self.window: dict[str, Any] = {}
        # terminal window -> lines still to hide there: the count stays with the terminal that asked, so typing
        # in another window meanwhile is not hidden and the answer typed on coming back still is
        self.hidden: dict[tuple[Any, ...], int] = {}
        self.continued = ""  # the start of a command line that goes on in the next line (`\`, an open quote)
        # the accessibility bus said the focused widget is a password field: its application's pid (0: unknown)
        self.password_focus: int | None = None
        self.prompt_pids: dict[int, None] = {}  # terminals (pids) that showed a prompt while not focused
        self.echo = EchoWatch()  # the pseudo-terminals behind windows and their echo state
        self.dropped = 0
        self.failures = 0

    def reconfigure(self, config: Config) -> None:
        """Take the exclusions of `config` (the settings window saved it). Each list is built first and then
        swapped in whole, so the pipeline thread never sees a half-made one."""
        apps = {a.lower() for a in config.excluded_apps}
        titles = [re.compile(p) for p in config.excluded_titles]
        passwords = [re.compile(p) for p in config.password_titles]
        self.excluded_apps, self.excluded_titles, self.password_titles = apps, titles, passwords

    # -- state -----------------------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        if self.paused_until is not None and time.time() >= self.paused_until:
            self.paused_until = None
        return self.paused_until is not None

    def pause(self, until: float) -> RawEvent:
        self.paused_until = until
        return RawEvent("control", CONTROL, {"state": "paused", "until": None if until == float("inf") else until})

    def resume(self) -> RawEvent:
        self.paused_until = None
        return RawEvent("control", CONTROL, {"state": "resumed"})

    def accepts_keys(self) -> bool:
        """Whether key presses may reach the text composer at all right now."""
        return not (self.paused or self.private or self.own_window or self.password_context
                    or self.password_focused())

    # -- the accessibility bus (FOCUS, TYPED and PROMPT events of watcher/atspi.py; never stored) ----------------

    def password_focused(self) -> bool:
        """A password field has the focus in the focused window (or the window or the field's application is
        unknown: fail closed). Keys typed in another window (an xterm, which the bus does not see) still count."""
        if self.password_focus is None:
            return False
        window_pid = self.window.get("pid")
        return not self.password_focus or not window_pid or window_pid == self.password_focus

    def focus(self, data: dict[str, Any]) -> None:
        """A FOCUS event: the focused widget's role says whether what is typed next is a password."""
        if data.get("role") in PASSWORD_ROLES:
            try:
                self.password_focus = int(data.get("pid") or 0)
            except (TypeError, ValueError):
                self.password_focus = 0
        else:
            self.password_focus = None

    def accepts_typed(self, data: dict[str, Any]) -> bool:
        """Whether a TYPED event (text inserted or deleted in a widget) may reach the text composer: never from a
        password field, nor from a widget whose role is unknown (fail closed). The role is the one of the object
        that emitted the text (watcher/atspi.py), so a field's text is judged by that field."""
        role = data.get("role")
        # the emitting object's role decides, not the last focus event (a hint that may arrive after the text)
        return isinstance(role, str) and role not in PASSWORD_ROLES and not (
            self.paused or self.private or self.own_window or self.password_context)

    def prompt_shown(self, data: dict[str, Any]) -> bool:
        """A PROMPT event: a terminal shows a password or username prompt. When it is the focused window's
        terminal (or either pid is unknown), its next line is hidden; returns whether it is. A prompt shown by a
        terminal in the background is remembered: its next line is hidden when it gets the focus."""
        window_pid, pid = self.window.get("pid"), data.get("pid")
        if (not is_terminal(self.window.get("app"), self.window.get("process")) and not (
                window_pid and window_pid == pid)) or (window_pid and pid and window_pid != pid):
            if isinstance(pid, int) and pid:
                self.prompt_pids[pid] = None
                while len(self.prompt_pids) > MAX_WINDOWS:
                    del self.prompt_pids[next(iter(self.prompt_pids))]
            return False
        self._hide_next_line()
        return True

    def _hide_next_line(self) -> None:
        key = self._window_key()
        self.hidden[key] = max(self.hidden.get(key, 0), 1)
        while len(self.hidden) > MAX_WINDOWS:
            del self.hidden[next(iter(self.hidden))]

    def is_excluded(self, app: str | None, process: str | None, title: str | None) -> bool:
        names = {(app or "").lower(), (process or "").lower(), (process or "").lower().removesuffix(".exe")}
        if names & self.excluded_apps:
            return True
        return any(p.search(title or "") for p in self.excluded_titles)

    def is_password_title(self, title: str | None) -> bool:
        return bool(PROMPT_TITLE.search(title or "")) or any(p.search(title or "") for p in self.password_titles)

    def asks_password(self, line: str, hidden: bool = False) -> bool:
        """Called by the pipeline with every line finished (Enter) in a terminal, raw and never stored: whether the
        next line typed there must be hidden. `hidden`: the terminal did not show the line (its echo was off, or
        could not be seen): it answered a prompt and is never read as a command.

        A line typed while lines were still to hide was an answer (hidden): it counts one off, unless it was a
        yes/no. It is still read as a command too: if the expected prompt never came (credentials cached), that
        "answer" was a command, and its own prompt must be hidden. Any failure hides the next line (fail closed).
        """
        key = self._window_key()
        left = self.hidden.pop(key, 0)
        try:
            if hidden:
                left, command, self.continued = max(0, left - 1), "", ""
            elif left:
                left -= 0 if CONFIRMATION.fullmatch(line.strip()) else 1
                command, self.continued = line, ""
            else:
                command = self.continued + line
                self.continued = _continued(command)
            left = max(left, prompt_lines(command))
        except Exception:
            self.failures += 1
            log.exception("password prompt recognition failed; the next line is hidden")
            left = max(left, 1)
        if left:
            self.hidden[key] = left
            while len(self.hidden) > MAX_WINDOWS:
                del self.hidden[next(iter(self.hidden))]
        return left > 0

    def hides_typing(self) -> bool:
        """Whether what is typed now answers a prompt: the focused terminal still has lines to hide."""
        return bool(self.hidden.get(self._window_key())) and self.in_terminal()

    def in_terminal(self) -> bool:
        """The focused window is a terminal: its name says so, or its process holds pseudo-terminal masters."""
        if is_terminal(self.window.get("app"), self.window.get("process")):
            return True
        view = self.echo.view(self.window.get("pid"))
        return bool(view and view.owner and view.ptys)

    def echo_reading(self) -> Reading | None:
        """Whether the focused window's terminal shows what is typed now (watcher/echo_state.py), or None when
        the window shows no pseudo-terminal. A window named as a terminal whose pseudo-terminal cannot be found
        (no pid, another machine's process) is unseen: its lines are not stored (fail closed). Where the platform
        has no pseudo-terminals to read (Windows), the command-line rules are the only defence."""
        view = self.echo.view(self.window.get("pid"))
        if view is not None and view.ptys:
            return self.echo.read(view)
        if os.name == "posix" and is_terminal(self.window.get("app"), self.window.get("process")):
            return Reading(UNSEEN, why="a terminal whose pseudo-terminal cannot be found")
        return None

    def _window_key(self) -> tuple[Any, ...]:
        """A terminal window, whatever its title says (shells rewrite titles as commands run)."""
        return self.window.get("app"), self.window.get("process"), self.window.get("pid")

    # -- filtering ---------------------------------------------------------------------------------------------

    def clean(self, event: RawEvent) -> RawEvent | None:
        """The event as it may be stored, or None to drop it. Never raises: failures drop the event."""
        try:
            out = self._clean(event)
        except Exception:
            self.failures += 1
            log.exception("privacy filter failed on a %s event; dropped", event.kind)
            return None
        if out is None:
            self.dropped += 1
        return out

    def _clean(self, event: RawEvent) -> RawEvent | None:
        kind = event.kind
        if kind == CONTROL:
            return event
        if kind == WINDOW:
            self._focus(event.data)
        if self.paused:
            return None
        if self.own_window and kind not in (IDLE, WEB):
            return None  # our own window: what is done there is not the person's work, nor a secret to keep
        if kind == WINDOW:
            if self.private:
                return replace(event, data={"app": PRIVATE_APP, "title": "", "private": True})
            data = {k: v for k, v in event.data.items() if k != "pid"}
            if self.password_context:
                data["password_context"] = True
            return replace(event, data=self._redact_fields(data))
        if kind in (KEY, events.FOCUS, events.TYPED, events.PROMPT):
            return None  # never stored; the composer turns allowed keys and typed text into TEXT
        if kind == WEB:
            data = event.data
            if data.get("incognito") or self.is_excluded(None, None, data.get("title")):
                return None
            return replace(event, data=self._redact_fields(dict(data)))
        if kind == IDLE:
            return event
        if self.private:
            return None
        # text rebuilt from the accessibility bus was judged by its own field's role (accepts_typed); keys and
        # copies only have the focus to go by
        focused = self.password_focused() and not (kind == TEXT and event.source == "atspi")
        if (self.password_context or focused) and kind in (TEXT, CLIPBOARD):
            return None
        if kind == TEXT and self.hides_typing():
            # normally the composer already hid the line; if it flushed pieces (its state was reset by another
            # event), the pieces are dropped and the line is hidden as a whole at Enter
            if not (event.data.get("hidden") or event.data.get("enter")):
                return None
            return replace(event, data={"text": "", "erase": 0, "enter": bool(event.data.get("enter")),
                                        "hidden": "password"})
        if kind in (TEXT, CLIPBOARD, HOTKEY, CLICK, SCROLL):
            return replace(event, data=self._redact_fields(dict(event.data)))
        log.warning("unknown event kind %r dropped", kind)
        return None

    def _focus(self, data: dict[str, Any]) -> None:
        if (data.get("app"), data.get("process"), data.get("pid")) != self._window_key():
            self.continued = ""
        self.window = data
        app, process, title = data.get("app"), data.get("process"), data.get("title")
        self.private = bool(data.get("private")) or self.is_excluded(app, process, title)
        self.own_window = is_own_window(data.get("pid"))
        self.password_context = self.is_password_title(title)
        if data.get("pid") in self.prompt_pids:  # back to a terminal whose prompt appeared meanwhile
            del self.prompt_pids[data["pid"]]
            self._hide_next_line()

    @staticmethod
    def _redact_fields(data: dict[str, Any]) -> dict[str, Any]:
        for key in STRING_FIELDS:
            value = data.get(key)
            if isinstance(value, str) and value:
                data[key] = redact(value)
        return data
