"""Which terminal command lines will prompt for a password, and for how many lines: the privacy filter hides
that many lines typed after such a command (`privacy.PrivacyFilter.asks_password`), where the terminal's echo
state cannot be read. A recogniser of shell command lines, kept apart from the filter that uses it."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

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
    "passwd": 3,  # current, new, retype
    "chsh": 1, "chfn": 1, "login": 2, "ftp": 2, "telnet": 2, "smbclient": 1,
    "kinit": 1, "cryptsetup": 3,  # luksFormat: YES, passphrase, verify
    "vncpasswd": 2, "tigervncpasswd": 2, "keytool": 2,
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
#: Programs that take their password from a variable given on the command line, and ask nothing then (the
#: variable's value is redacted on the line)
PASSWORD_VARIABLES = {**dict.fromkeys(POSTGRES, "PGPASSWORD"), "sshpass": "SSHPASS", "restic": "RESTIC_PASSWORD",
                      "borg": "BORG_PASSPHRASE"}
ANSIBLE = {"ansible", "ansible-playbook", "ansible-pull", "ansible-console"}
GIT_REMOTE_COMMANDS = {"push", "pull", "fetch", "clone", "ls-remote", "submodule"}
GPG_QUIET = {"-k", "-K", "--list-keys", "--list-secret-keys", "--list-sigs", "--fingerprint", "--version",
             "--help", "--verify", "--recv-keys", "--search-keys", "--list-packets"}
SSH_VALUE_OPTIONS = "BbcDEeFIiJLlmOopQRSWw"
OPENSSL_VALUED = {"-salt", "-in", "-rand", "-writerand", "-provider", "-provider-path", "-propquery"}  # (passwd)
SSH_KEYGEN_VALUES = "abCDEFfIJjMmNnOPrstVwYzZ"  # ssh-keygen's options that take a value
SSH_KEYGEN_MAKING = "abCfNOPqtvwZ"  # the options of making a key (-q quiet, -v verbose)
ASSIGNMENT = re.compile(r"[A-Za-z_]\w*\+?=.*", re.S)
SUBSTITUTION = re.compile(r"\$\(|`")
OPERATOR_CHARS = set(";&|()<>\n")
SECRET_WORD = re.compile(r"(?i)pass|\bpin\b|token|secret|user ?name|login")
#: Prompters that may read their answer in the interactive shell's own line editor: the shell's `read` (bash's
#: `read -e -s` is readline in raw mode, in the interactive shell itself; fish's `read --silent`; zsh's `vared`).
#: That the shell's line editor read a line does not show their prompt never came. Any other program's prompt, read
#: in its own line editor or with echo off, has been left once the shell's line editor reads a line: the program
#: exited, and a prediction of its prompt that never came ends there (`PrivacyFilter.read_by_shell`).
LINE_EDITOR_PROMPTERS = frozenset({"read", "vared"})
#: `read`'s options that take a value (bash: -a -d -i -n -N -p -t -u; fish: -P -R -c -n -d; zsh: -k -u -d -t)
READ_VALUES = "adiknNptuPRc"


def prompt_lines(line: str) -> int:
    """How many lines typed after this terminal command line answer its password (or username) prompts. Only a
    prediction: the pipeline may see that a line it would hide was read by the shell's own line editor, which
    no prompt did (`privacy.PrivacyFilter.asks_password`)."""
    return min(_line_prompts(line), MAX_HIDDEN_LINES)


def prompters(line: str) -> set[str]:
    """The programs whose prompts `prompt_lines` counts in this command line (`sudo`, `git`, `read`...)."""
    names: set[str] = set()
    _line_prompts(line, 0, names)
    return names


def answered_in_line_editor(line: str) -> bool:
    """Whether a prompt this command line predicts may be answered in a line editor: a program that reads the
    answer in raw mode and echoes (or masks) it itself, as the shell's line editor does, so that seeing a line
    read by a line editor does not show that the prompt never came (`LINE_EDITOR_PROMPTERS`)."""
    return bool(prompters(line) & LINE_EDITOR_PROMPTERS)


def _line_prompts(line: str, depth: int = 0, names: set[str] | None = None) -> int:
    if depth > 3:
        return 0
    return sum(_command_prompts(words, fed, depth, names) for words, fed in _commands(line))


def continued(line: str) -> str:
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


def _command_prompts(words: list[str], fed: bool = False, depth: int = 0, names: set[str] | None = None) -> int:
    """Lines prompted by one simple command: wrappers and assignments are skipped, elevators (sudo...) count and
    then the command they run counts too. `fed`: its input is a pipe or a redirection (`echo X | sudo -S`).
    `names`: where the programs that prompt are noted (`prompters`)."""
    names = set() if names is None else names
    total = 0
    i = 0
    given: set[str] = set()  # the variables this command is given (`PGPASSWORD=... psql` asks nothing)
    while i < len(words):
        word = words[i]
        name = _program(word)
        if ASSIGNMENT.fullmatch(word):
            given.add(word.split("=", 1)[0].rstrip("+"))
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
            if not quiet:
                total += 1
                names.add(name)
        elif name in SHELLS:
            return total + _shell_prompts(name, words[i + 1:], depth, names)
        elif name == "ssh":
            _, j = _options(words, i + 1, SSH_VALUE_OPTIONS)
            remote = " ".join(words[j + 1:])  # the command run on the server (it may prompt there)
            names.add(name)
            return total + 1 + _line_prompts(remote, depth + 1, names)
        else:
            lines = 0 if PASSWORD_VARIABLES.get(name, "") in given else _program_prompts(name, words[i + 1:])
            if lines:
                names.add(name)
            return total + lines
    return total


def _shell_prompts(name: str, args: list[str], depth: int, names: set[str]) -> int:
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
    if name == "su":
        names.add(name)
    return int(name == "su") + (_line_prompts(script, depth + 1, names) if script else 0)


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
        return _subcommand_prompts(SUBCOMMANDS[name], args)
    return 0


def _subcommand_prompts(table: dict[str, int], args: list[str]) -> int:
    """The lines of the first subcommand of `table` among the first operands (one word, or two), or its default."""
    operands = [a for a in args if not a.startswith("-")][:3]
    for sub, lines in table.items():
        if sub and any(" ".join(operands[k:k + len(sub.split())]) == sub for k in range(2)):
            return lines
    return table.get("", 0)


def _git(args: list[str]) -> int:
    """git over HTTP(S) may ask a username and a password (2 lines), over SSH a passphrase or password (1);
    a named remote (`origin`) or none may be either, so it counts as HTTPS; a local path asks nothing. A URL's
    own credentials are not asked: `https://user:token@host/...` asks nothing, `https://user@host/...` only
    the password."""
    _, i = _options(args, 0, "cC", frozenset({"--git-dir", "--work-tree", "--namespace", "--exec-path"}))
    if i >= len(args) or args[i] not in GIT_REMOTE_COMMANDS:
        return 0
    operands = [a for a in args[i + 1:] if not a.startswith("-")]
    web = next((a for a in operands if re.match(r"(?i)https?://", a)), None)
    if web is not None:
        userinfo = re.match(r"(?i)https?://([^/?#\s]*)@", web)  # (the authority's last `@`)
        return 2 if userinfo is None else 0 if ":" in userinfo.group(1) else 1
    if not operands:
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
    """The shell's `read -s` (silent: `-rs`, `-ers`, `-s -p 'Token: '`, fish's `--silent`) or a
    `read -p 'Password: '` prompt."""
    silent = "s" in _short_options(args, READ_VALUES) or "--silent" in args
    return int(silent or any(SECRET_WORD.search(a) for a in args if not a.startswith("-")))


def _short_options(args: list[str], value_letters: str) -> dict[str, str]:
    """A program's one-letter options (clustered or not) -> their values ("" for a flag); a letter in
    `value_letters` takes the rest of its word or the next word."""
    given: dict[str, str] = {}
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            break
        if not word.startswith("-") or word.startswith("--") or word == "-":
            continue
        for k, letter in enumerate(word[1:], 1):
            if letter in value_letters:
                value = word[k + 1:]
                if not value and i < len(args):
                    value, i = args[i], i + 1
                given[letter] = value
                break
            given[letter] = ""
    return given


def _ssh_keygen(args: list[str]) -> int:
    """ssh-keygen asks a file name unless -f names it. Making a key (the default) asks the new passphrase twice
    unless -N gives it, and a security key's PIN (`-t ed25519-sk`, `-t sk-ssh-ed25519@openssh.com`); -p (change
    the passphrase) also the old one unless -P gives it; -y and -c (print, comment) the old one; fingerprints and
    certificates (-l, -B, -L) only the file; known_hosts and host keys (-F, -R, -H, -A) nothing. Other operations
    count as making a key. "Overwrite (y/n)?" for a file that exists is a yes/no, which counts off no line
    (`privacy.CONFIRMATION`)."""
    given = _short_options(args, SSH_KEYGEN_VALUES)
    file, old, new = int("f" not in given), int("P" not in given), 0 if "N" in given else 2
    if "p" in given:
        return file + old + new
    if given.keys() & set("yc"):
        return file + old + int("c" in given)
    if given.keys() & set("lBL"):
        return file
    if given.keys() & set("FRHA"):
        return 0
    if given.keys() - set(SSH_KEYGEN_MAKING):  # an operation these rules do not know: as many as making a key
        return 3
    kind = given.get("t", "")
    return file + new + int(kind.startswith("sk-") or kind.endswith("-sk"))  # a security key's PIN


def _htpasswd(args: list[str]) -> int:
    """htpasswd asks the password twice, unless -b gives it on the line (redacted there)."""
    return 0 if "b" in _short_options(args, "C") else 2


def _openssl(args: list[str]) -> int:
    """openssl's subcommands from the table; `openssl passwd` asks only when no password is given on the line
    (its operands, redacted there) nor read from a file or the input (-in, -stdin): twice ("Verifying -
    Password:"), or once when the salt is given (-salt: apps/passwd.c verifies only without it)."""
    if args[:1] == ["passwd"]:
        rest = args[1:]
        operands = [a for k, a in enumerate(rest) if not a.startswith("-") and not (k and rest[k - 1] in OPENSSL_VALUED)]
        if operands or {"-in", "-stdin"} & set(rest):
            return 0
        if "-salt" in rest:
            return 1
    return _subcommand_prompts(SUBCOMMANDS["openssl"], args)


def _redis(args: list[str]) -> int:
    return int("--askpass" in args)


def _zip(args: list[str]) -> int:
    """zip -e asks the password twice, unless -P gives it (redacted on the line)."""
    given = _short_options(args, "bnPtxiOZ")  # (`-TT cmd` and `-UN=v` are long forms: -T and -U are flags)
    return 2 if ("e" in given or "--encrypt" in args) and "P" not in given and "--password" not in args else 0


#: Programs whose arguments decide whether they prompt.
ARGUMENT_RULES: dict[str, Callable[[list[str]], int]] = {
    "git": _git, **dict.fromkeys(REGISTRY_CLIENTS, _registry_login), **dict.fromkeys(MYSQL, _mysql),
    **dict.fromkeys(POSTGRES, _postgres), "mongo": _mongo, "mongosh": _mongo, **dict.fromkeys(ANSIBLE, _ansible),
    "gpg": _gpg, "gpg2": _gpg, "curl": _curl, "read": _read, "redis-cli": _redis, "zip": _zip,
    "ssh-keygen": _ssh_keygen, "htpasswd": _htpasswd, "openssl": _openssl,
}


# -- input fed to a program that takes credentials -----------------------------------------------------------------
# Why: `sudo -S cmd <<'EOF'`, `head -n1 | sudo -S cmd`, `git credential fill`, `chpasswd`: the lines typed next are
# a password (or credential lines), read with echo on, by the shell's line editor (a here-document's lines) or by
# a program reading whole lines (head, git): no prompt turns echo off, so the echo state cannot hide them.

#: Lines hidden at most after a command line that feeds the terminal's lines to such a program, until the shell
#: reads a line again (a here-document: until its delimiter line).
FED_LINES = MAX_HIDDEN_LINES
#: A here-document's lines hidden at most before its delimiter comes (a runaway one is not hidden for ever).
HEREDOC_LINES = 200
#: Programs that take credentials on their standard input: `sudo -S`, `--stdin`/`--password-stdin` options, key
#: files read from `-`/`/dev/stdin`, `chpasswd`, `git credential`, `smbpasswd -s`, `htpasswd -i`.
CREDENTIAL_READER = re.compile(
    r"^(?:(?:sudo|doas)\b.*\s-[A-Za-z]*S\b|.*\s--(?:password-)?stdin\b|.*\s--passphrase-fd[= ]0\b"
    r"|.*\s(?:--key-file[= ]-|--vault-password-file[= ]/dev/stdin)(?:\s|$)|.*\s-pass(?:in)?\s+(?:stdin|fd:0)\b"
    r"|ch(?:g)?passwd\b|git\s+credential(?:-\w+)?\b|git-credential-\w+|smbpasswd\b.*\s-[A-Za-z]*s\b"
    r"|htpasswd\b.*\s-[A-Za-z]*i\b)")
#: Database clients: the statements a here-document or a pipe feeds them carry passwords (`ALTER USER ... PASSWORD
#: '...'`); typed at their own prompt, they are their line editor's lines, judged as such.
STATEMENT_READER = re.compile(r"^(?:mysql|mariadb|psql|sqlplus|mongosh?|redis-cli|sqlcmd|cqlsh)\b")
#: Programs that read the terminal when given no file: the left side of `head -n1 | sudo -S cmd`.
LINE_READERS = {"head", "cat", "tee", "line", "sed", "awk", "tr", "cut", "xargs", "read", "dd", "tail"}


def fed_input(line: str) -> tuple[int, str | None]:
    """How many lines typed after this command line go to a program that takes credentials on its input, and the
    delimiter of the here-document that carries them (None: until the shell reads a line again). (0, None): none.
    """
    tokens = _tokens(line)
    if not any(t.startswith("<<") and t != "<<<" for t in tokens) and not _reads_credentials(line, tokens):
        return 0, None
    commands = [c for c, _ in _commands(line)]
    read_at = next((k for k, c in enumerate(commands) if _unwrapped(c)[:1] == ["read"]), None)
    if read_at is not None and any(_reader(c, statements=False) for c in commands[read_at + 1:]):
        return FED_LINES, None  # `read pw; echo "$pw" | sudo -S cmd`: the line read is the password
    pipeline: list[tuple[list[str], str | None, bool]] = []  # each command: words, its here-document, fed
    words: list[str] = []
    heredoc: str | None = None
    redirected = False
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in ("<<", "<<-") and i + 1 < len(tokens):
            heredoc = tokens[i + 1].lstrip("-") if token == "<<" and tokens[i + 1].startswith("-") else tokens[i + 1]
            i += 2
            continue
        if token and set(token) <= OPERATOR_CHARS:
            if token in ("|", "|&"):
                pipeline.append((words, heredoc, redirected))
            elif set(token) & set(";&()"):
                found = _fed(pipeline + [(words, heredoc, redirected)])
                if found[0]:
                    return found
                pipeline = []
            else:
                redirected = redirected or token.startswith("<")
                i += 1  # the redirection's target
            words, heredoc, redirected = ([], None, False) if set(token) & set(";&|()") else (
                words, heredoc, redirected)
            i += 1
            continue
        words.append(token)
        i += 1
    return _fed(pipeline + [(words, heredoc, redirected)])


def _reads_credentials(text: str, tokens: list[str]) -> bool:
    return any(_reader(c) for c, _ in _commands(text)) if tokens else False


def _reader(words: list[str], statements: bool = True) -> bool:
    """A command that takes credentials on its input (`statements`: a database client counts too)."""
    command = " ".join(_unwrapped(words))
    return bool(CREDENTIAL_READER.match(command) or statements and STATEMENT_READER.match(command))


def _fed(pipeline: list[tuple[list[str], str | None, bool]]) -> tuple[int, str | None]:
    """One pipeline: a here-document to any of its commands, or the terminal read by its first command, reaching
    a command that takes credentials."""
    readers = [k for k, (words, _, _) in enumerate(pipeline) if words and _reader(words)]
    if not readers:
        return 0, None
    for k, (_, heredoc, _) in enumerate(pipeline):
        if heredoc and k <= readers[-1]:
            return HEREDOC_LINES, heredoc
    first, _, redirected = pipeline[0]
    if redirected:
        return 0, None
    if readers[0] == 0:  # `chpasswd`, `git credential fill` read the terminal themselves (a client: its prompt)
        return (FED_LINES, None) if _reader(first, statements=False) else (0, None)
    program = _program(_unwrapped(first)[0]) if _unwrapped(first) else ""
    operands = [w for w in _unwrapped(first)[1:] if not w.startswith("-") and not w.isdigit()]
    if program in LINE_READERS and not operands:
        return FED_LINES, None
    return 0, None


def _unwrapped(words: list[str]) -> list[str]:
    """A command's words from its program on (assignments and wrappers such as `env`, `time` left out)."""
    i = 0
    while i < len(words) and (ASSIGNMENT.fullmatch(words[i]) or _program(words[i]) in WRAPPERS):
        i += 1
    return words[i:]
