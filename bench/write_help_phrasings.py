"""Write bench/help_phrasings.jsonl: natural-language renderings of the help cases.

For every `[[case]]` in bench/help_cases/*.toml (an `error` text, usually the `command` that produced it) this
writes several one-to-three-sentence observations of the moment "the person ran COMMAND and got/copied/saw
ERROR", worded the way different sources would word it:

  proactivebench  ProactiveBench-style activity narration ("The user copies an error message starting '...'")
  log             activity-log / dataset records (`User executed "make" in terminal; output: "..."`)
  person          a person writing in their own words, often with typographic quotes
  first-last      only the first and the last meaningful line of a multi-line error are quoted
  several-quotes  command and error (or two parts of the error) in separate quotes
  nested          the error sits inside another quotation (quotes inside quotes, chat message quoting output)
  backticks       Markdown / chat style with `inline code`
  own-line        the error on its own line(s) after a colon
  screen          screen-reader / OCR-ish descriptions of what the terminal window shows
  handwritten     a fixed set of sentences written by hand for chosen cases (HANDWRITTEN below)

The error's key identifying line(s) are always quoted verbatim (leading indentation aside); only which lines
are quoted varies (the full error when short, the key line, the first and last lines, ...). The `expect`
answers of the cases are never used. Everything is deterministic: each case gets its own seeded RNG.

This script was written without looking at the grounding/parsing code of the assistant (assistant/, watcher/,
models/, eval/, bench/*.py); it reads only bench/help_cases/*.toml. Standard library only (tomllib, json, random).

Run from the repository root (Python 3.11+):

    python3 bench/write_help_phrasings.py            # writes bench/help_phrasings.jsonl and prints counts
    python3 bench/write_help_phrasings.py --check    # only validates the existing file

Output: one JSON object per line: {"file": "python.toml", "case": <0-based index in that file>,
"style": "...", "text": "..."}.
"""

import collections
import glob
import json
import os
import random
import re
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "help_cases")
OUT = os.path.join(HERE, "help_phrasings.jsonl")
SEED = 20250611

# ----------------------------------------------------------------------------------------------------------
# Reading the error text: first line, last meaningful line, key line(s)
# ----------------------------------------------------------------------------------------------------------

# Lines a person would not pick as "the error": stack frames, banners, pointers, trailers, help footers.
NOISE = [
    r"^Node\.js v\d", r"^at ", r"^See ", r"^Run '", r"^For more information", r"^compilation terminated",
    r"^\(Use `node", r"^Traceback \(most recent call last\):$", r'^File "', r"^[\^~|+\-\s]*$", r"^\d+ \|",
    r"^\d+ [+-] ", r"^\|", r"^-->", r"^\[INFO\]", r"^hint:", r"^Require stack", r"^- /", r"^[{}\[\]]",
    r"^@+$", r"^-- ", r"More details here", r"^npm (ERR!|error)( 404)?\s*$", r"A complete log of this run",
    r"correct access rights", r"^and the repository exists", r"^collect2: error: ld returned",
    r"^make: \*\*\* \[.*\] Error \d+$", r"^error: could not compile", r"^Usage:", r"^To (github|https)",
    r"^Call Stack", r"^[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d .*(Starting|Started|Failed with result)",
    r"^(Fetching|Resolving|Installing|Compiling|Reading|Building) ", r"^\d+ errors?$", r"^\*\*\* Please tell",
    r"^Please (commit|make sure|see|contact)", r"^Aborting$", r"^throw err;$", r"^triggerUncaughtException",
    r"^Error\.captureStackTrace", r"^this\[kHandle\]", r"^code: '", r"^\}$", r"^Enter password:$",
    r"^(symbol|location):", r"^Cloning into", r"^depth=0", r"^verify return", r"^---", r"^node:internal",
    r"^<internal:.*>:\d+:in `require'$",
]
NOISE_RE = [re.compile(p) for p in NOISE]

STRONG = [
    (r"^[\w.]*(Error|Exception)( \[\w+\])?: ", 10),
    (r"^(error|fatal|ERROR|Error|FATAL)(\[E\d+\])?:? ", 8),
    (r"fatal error:", 9),
    (r"^E: ", 7),
    (r"^npm (ERR!|error) ", 3),
    (r"^CMake Error", 6),
    (r"Permission denied|permission denied|No such file or directory|not found|command not found", 4),
    (r"\b(failed|Failed|cannot|Cannot|refused|does not exist|Unable|unable|could not|Could not|Could NOT|"
     r"CONFLICT|missing|invalid|not allowed|unknown|no space|No space|already|too open|panic|Forbidden|"
     r"expired|masked|BackOff|OOMKilled|CrashLoopBackOff|undefined reference|not supported|no longer|"
     r"not a |denied|no matching|Unknown|mismatched|unresolved|Missing|changed on disk|requires)\b", 3),
]
STRONG_RE = [(re.compile(p), w) for p, w in STRONG]

# Cases whose key line(s) the heuristic above would not pick the way a person quoting it would.
KEY_OVERRIDES = {
    ("c_builds.toml", 3): ["stats.c:(.text+0x35): undefined reference to `sqrt'"],
    ("c_builds.toml", 4): ["tls_client.c:(.text+0x9): undefined reference to `TLS_client_method'"],
    ("c_builds.toml", 8): ["Package gtk+-3.0 was not found in the pkg-config search path."],
    ("c_builds.toml", 9): ["CMake Error at CMakeLists.txt:3 (find_package):",
                           'Could not find a package configuration file provided by "SDL2" with any of'],
    ("c_builds.toml", 10): ["Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR)"],
    ("c_builds.toml", 11): ["make: cc: No such file or directory"],
    ("docker.toml", 0): ["permission denied while trying to connect to the Docker daemon socket at "
                         "unix:///var/run/docker.sock: Post \"http://%2Fvar%2Frun%2Fdocker.sock/v1.50/build?"
                         "dockerfile=Dockerfile&t=blog&version=1\": dial unix /var/run/docker.sock: connect: "
                         "permission denied"],
    ("docker.toml", 3): ["failed to register layer: write /opt/conda/lib/python3.11/site-packages/torch/lib/"
                         "libtorch_cuda.so: no space left on device"],
    ("docker.toml", 4): ["docker: Error response from daemon: pull access denied for ngnix, repository does not "
                         "exist or may require 'docker login': denied: requested access to the resource is "
                         "denied."],
    ("java.toml", 3): ["java.lang.UnsupportedClassVersionError: Billing has been compiled by a more recent "
                       "version of the Java Runtime (class file version 65.0), this version of the Java Runtime "
                       "only recognizes class file versions up to 61.0"],
    ("java.toml", 6): ["[ERROR] Source option 5 is no longer supported. Use 7 or later."],
    ("kubernetes.toml", 2): ["Warning  Failed     75s (x6 over 3m12s)  kubelet            Error: ImagePullBackOff"],
    ("kubernetes.toml", 3): ["worker-7c9d8b6f4-lq2zn   0/1     CrashLoopBackOff   5 (41s ago)   4m2s"],
    ("kubernetes.toml", 4): ["Reason:       CrashLoopBackOff", "Reason:       OOMKilled"],
    ("kubernetes.toml", 6): ['error: resource mapping not found for name: "web" namespace: "" from "deploy.yaml": '
                             'no matches for kind "Deployment" in version "extensions/v1beta1"'],
    ("node.toml", 8): ["Error: error:0308010C:digital envelope routines::unsupported"],
    ("python.toml", 26): ["error: externally-managed-environment"],
    ("python.toml", 27): ["npm ERR! ERESOLVE unable to resolve dependency tree"],
    ("python.toml", 31): ["OSError: mysql_config not found"],
    ("python.toml", 33): ["error: can't find Rust compiler"],
    ("python.toml", 34): ["The virtual environment was not created successfully because ensurepip is not",
                          "apt install python3.11-venv"],
    ("python.toml", 45): ["ERROR: Could not find a version that satisfies the requirement pandas==2.2.0 "
                          "(from versions: 1.1.5, 1.3.5)"],
    ("python.toml", 47): ['npm ERR! Missing script: "start"'],
    ("python.toml", 48): ["npm error gyp ERR! stack Error: not found: make"],
    ("ruby.toml", 3): ["Your user account isn't allowed to install to the system RubyGems."],
    ("ruby.toml", 4): ["Your bundle requires a different version of Bundler than the one you're running."],
    ("ruby.toml", 5): ["The bundle currently has tzinfo locked at 2.0.2."],
    ("ruby.toml", 7): ["Can't find the 'libpq-fe.h header"],
    ("ruby.toml", 8): ["psych:", "Could not be configured. It will not be installed."],
    ("rust.toml", 6): ["error: failed to run custom build command for `openssl-sys v0.9.108`",
                       "Could not find directory of OpenSSL installation, and this `-sys` crate cannot"],
    ("rust.toml", 7): ["package `icu_normalizer_data v2.0.0` cannot be built because it requires rustc 1.82 or "
                       "newer, while the currently active rustc version is 1.75.0"],
    ("shell.toml", 0): [" ! [rejected]        main -> main (fetch first)".strip()],
    ("shell.toml", 1): ["! [rejected]        feature -> feature (non-fast-forward)"],
    ("shell.toml", 3): ["Your branch is behind 'origin/main' by 3 commits, and can be fast-forwarded."],
    ("shell.toml", 8): ["You are in 'detached HEAD' state. You can look around, make experimental"],
    ("shell.toml", 11): ["Author identity unknown", "fatal: unable to auto-detect email address (got 'ana@laptop.(none)')"],
    ("shell.toml", 18): ["WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!", "Host key verification failed."],
    ("shell.toml", 36): ["Warning: you are leaving 2 commits behind, not connected to"],
    ("ssh.toml", 0): ["WARNING: UNPROTECTED PRIVATE KEY FILE!",
                      "Permissions 0644 for '/home/dev/.ssh/deploy_key' are too open."],
    ("ssh.toml", 1): ["WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!", "Host key verification failed."],
    ("systemd.toml", 1): ["Nov 29 15:57:41 srv1 systemd[4007]: ledger.service: Failed at step EXEC spawning "
                          "/opt/ledger/run.sh: Permission denied"],
    ("systemd.toml", 2): ["Job for nginx.service failed because the control process exited with error code.",
                          'Jan 08 13:46:17 web1 nginx[14213]: nginx: [emerg] unknown directive "server_nme" in '
                          "/etc/nginx/sites-enabled/blog:4"],
    ("tls.toml", 1): ["verify error:num=20:unable to get local issuer certificate"],
    ("tls.toml", 4): ["TypeError: fetch failed", "[cause]: Error: self-signed certificate in certificate chain"],
    ("tls.toml", 5): ["curl: (60) SSL: no alternative certificate subject name matches target host name '10.0.0.5'"],
    ("tls.toml", 6): ["error 10 at 0 depth lookup: certificate has expired"],
    ("kubernetes.toml", 0): ["The connection to the server localhost:8080 was refused - did you specify the right host or port?"],
    ("kubernetes.toml", 7): ["0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }."],
    ("tls.toml", 0): ["curl: (60) SSL certificate problem: self-signed certificate in certificate chain"],
    ("shell.toml", 10): ["error: src refspec main does not match any"],
    ("shell.toml", 16): ["fatal: 'origin' does not appear to be a git repository"],
    ("shell.toml", 17): ["git@github.com: Permission denied (publickey)."],
    ("rust.toml", 3): ["error[E0308]: mismatched types", "expected `String`, found `&str`"],
    ("java.toml", 1): ["Error: Could not find or load main class App",
                       "Caused by: java.lang.NoClassDefFoundError: App (wrong name: com/acme/App)"],
    ("ruby.toml", 2): ["ERROR:  While executing gem ... (Gem::FilePermissionError)",
                       "You don't have write permissions for the /var/lib/gems/3.1.0 directory."],
    ("node.toml", 7): ["npm error 404 Not Found - GET https://registry.npmjs.org/@type%2fnode"],

}


def lines_of(error):
    """Non-empty lines, stripped of surrounding whitespace (a person selecting text drops the indentation)."""
    return [ln.strip() for ln in error.splitlines() if ln.strip()]


def is_noise(line):
    s = line.strip().strip("@").strip() if line.startswith("@") else line
    return any(r.search(s) for r in NOISE_RE)


def score(line):
    return sum(w for r, w in STRONG_RE if r.search(line))


def key_lines(fname, idx, error):
    if (fname, idx) in KEY_OVERRIDES:
        keys = KEY_OVERRIDES[(fname, idx)]
        for k in keys:
            assert k in error, (fname, idx, k)
        return keys
    lines = lines_of(error)
    cands = [ln for ln in lines if not is_noise(ln)] or lines
    best = max(cands, key=score)  # max() keeps the first of equal scores
    return [best]


def first_line(error):
    return lines_of(error)[0]


def last_meaningful(error):
    lines = lines_of(error)
    for ln in reversed(lines):
        if not is_noise(ln):
            return ln
    return lines[-1]


# ----------------------------------------------------------------------------------------------------------
# Vocabulary
# ----------------------------------------------------------------------------------------------------------

PLACES = ["the terminal", "the VS Code terminal", "the integrated terminal of Visual Studio Code", "xterm",
          "iTerm2", "GNOME Terminal", "Konsole", "the console", "a tmux pane", "Windows Terminal (WSL)",
          "the 'Terminal' application", "the terminal panel of 'Code.exe'", "Alacritty", "a bash shell"]
PB_APPS = ["Visual Studio Code", "'Code.exe'", "the 'Terminal' application", "iTerm2", "GNOME Terminal",
           "the terminal"]
QUOTES = [("'", "'"), ('"', '"'), ("`", "`"), ("\u201c", "\u201d"), ("\u2018", "\u2019"), ("\u00ab", "\u00bb")]
PERSON_QUOTES = [("\u201c", "\u201d"), ('"', '"'), ("\u2018", "\u2019"), ("'", "'"), ("\u00ab", "\u00bb")]


def q(text, pair):
    return pair[0] + text + pair[1]


def pick_quote(rng, text, choices=QUOTES):
    """A quote pair whose closing mark does not occur in the text, if there is one (logs avoid ambiguity)."""
    ok = [p for p in choices if p[1] not in text and p[0] not in text]
    return rng.choice(ok or list(choices))


def short_full(error, max_lines=3, max_chars=260):
    """The whole error on one line (lines joined by a space) when it is short enough, else None."""
    lines = lines_of(error)
    if len(lines) <= max_lines and sum(len(x) for x in lines) <= max_chars:
        return lines
    return None


def key_text(keys, joiner=" ... "):
    return joiner.join(keys)


# ----------------------------------------------------------------------------------------------------------
# Style generators: each takes (rng, cmd, error, keys) and returns one text
# ----------------------------------------------------------------------------------------------------------

def gen_proactivebench(rng, cmd, error, keys):
    first, last = first_line(error), last_meaningful(error)
    app = rng.choice(PB_APPS)
    key = key_text(keys, " ")
    multi = len(lines_of(error)) > 1
    opts = []
    if multi and first != last:
        opts.append(f"The user copies an error message starting '{first}' and ending '{last}' from the terminal.")
        opts.append(f"The user selects the output in {app}, from '{first}' to '{last}', and copies it using 'ctrl+c'.")
    opts.append(f"The user copies the error message '{key}' from {app} using 'cmd+c'.")
    opts.append(f"The user views an error '{key}' in the terminal of {app}.")
    if cmd:
        opts.append(f"The user types '{cmd}' in {app} and presses 'Enter'; the terminal displays '{key}'.")
        opts.append(f"The user runs '{cmd}' in the terminal of Visual Studio Code, which prints an error: '{key}'.")
        opts.append(f"The user executed '{cmd}' in the terminal and the output shows the error '{key}'.")
    else:
        opts.append(f"The user runs a script in {app} and the terminal shows an error ending with '{last}'.")
    text = rng.choice(opts)
    missing = [k for k in keys if k not in text]
    if missing:  # the start/end quoted do not contain the key line: the narration mentions it as well
        text = text.rstrip(".") + "; it includes " + " and ".join(f"'{k}'" for k in missing) + "."
    return text


def gen_log(rng, cmd, error, keys):
    key = key_text(keys, " | ")
    full = short_full(error)
    out = " | ".join(full) if full else key
    qp = pick_quote(rng, out, [('"', '"'), ("'", "'"), ("`", "`")])
    cq = pick_quote(rng, cmd or "", [('"', '"'), ("'", "'")])
    app = rng.choice(["Terminal", "iTerm2", "Code", "gnome-terminal", "xterm", "WindowsTerminal"])
    ts = f"2025-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T{rng.randint(8, 19):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
    if cmd:
        opts = [
            f"User executed {q(cmd, cq)} in terminal; output: {q(out, qp)}",
            f"[{ts}] app={app} action=run_command command={q(cmd, cq)} exit_code=1 stderr={q(key, qp)}",
            f"{ts} {app}: $ {cmd} -> {out}",
            f"event=command_finished shell=bash cmd={q(cmd, cq)} status=failed last_error={q(key, qp)}",
            f"Activity: ran {q(cmd, cq)} ({app}). Result: error {q(key, qp)}.",
        ]
    else:
        opts = [
            f"event=clipboard_copy source={app} text={q(out, qp)}",
            f"[{ts}] app={app} window='bash' new_output={q(key, qp)}",
            f"Activity: terminal output in {app} contains an error: {q(key, qp)}.",
            f"{ts} {app}: stderr: {out}",
        ]
    return rng.choice(opts)


def gen_person(rng, cmd, error, keys):
    qp = rng.choice(PERSON_QUOTES)
    full = short_full(error, 2, 200)
    if full and rng.random() < 0.5:
        said = " ".join(full)
    else:  # several key lines: each in its own quotes ("X" and then "Y")
        said = (qp[1] + " and then " + qp[0]).join(keys)
    if cmd:
        opts = [
            f"I ran {cmd} and got {q(said, qp)}",
            f"When I run {q(cmd, qp)} it fails with {q(said, qp)}. What am I doing wrong?",
            f"Tried {cmd} again, still getting {q(said, qp)} :(",
            f"so I typed {cmd} and the terminal just says {q(said, qp)}",
            f"Why does {q(cmd, qp)} keep giving me {q(said, qp)}?",
            f"Help! {cmd} errors out: {q(said, qp)}",
        ]
    else:
        opts = [
            f"My script crashes with {q(said, qp)}",
            f"I keep getting {q(said, qp)} when I run my code",
            f"Running the program gives me {q(said, qp)} and I don't know why",
            f"any idea what {q(said, qp)} means? just got it in the terminal",
        ]
    return rng.choice(opts)


def gen_first_last(rng, cmd, error, keys):
    first, last = first_line(error), last_meaningful(error)
    qp = rng.choice(QUOTES)
    lead = f"After running {q(cmd, qp)}, " if cmd and rng.random() < 0.6 else ""
    opts = [
        f"{lead}the user copies terminal output that begins with {q(first, qp)} and ends with {q(last, qp)}.",
        f"{lead}the terminal output starts {q(first, qp)} ... and ends {q(last, qp)}.",
        f"{lead}the user sees a long error; first line: {q(first, qp)}, last line: {q(last, qp)}.",
        f"{lead}the user pastes an error (first line {q(first, qp)}, last line {q(last, qp)}) into a chat window.",
    ]
    text = rng.choice(opts)
    # keep the key line in the text if it is neither the first nor the last line
    missing = [k for k in keys if k not in text]
    if missing:
        text = text.rstrip(".") + ", with " + " and ".join(q(k, qp) for k in missing) + " in between."
    return text[0].upper() + text[1:]


def gen_several_quotes(rng, cmd, error, keys):
    qa, qb = rng.sample(QUOTES, 2)
    if cmd:
        key = keys[0]
        rest = keys[1:]
        opts = [
            f"The user types {q(cmd, qa)} in {rng.choice(PLACES)}. The output says {q(key, qb)}.",
            f"Command: {q(cmd, qa)}. Error: {q(key, qb)}.",
            f"The user ran {q(cmd, qa)} and got back {q(key, qb)}.",
            f"Ran {q(cmd, qa)} in {rng.choice(PLACES)}; it answered {q(key, qb)}.",
        ]
        text = rng.choice(opts)
        if rest:
            text += " It also says " + ", ".join(q(k, qb) for k in rest) + "."
        return text
    lines = lines_of(error)
    first = lines[0]
    parts = [first] + [k for k in keys if k != first]
    if len(parts) == 1:
        parts = [lines[0], lines[-1]] if len(lines) > 1 else parts
    quoted = " and then ".join(q(p, rng.choice([qa, qb])) for p in parts)
    return f"The terminal in {rng.choice(PLACES)} prints {quoted}."


def gen_nested(rng, cmd, error, keys):
    key = key_text(keys, " ")
    # ProactiveBench-like: the error is quoted with the same quote character that occurs inside it,
    # or a chat message (quoted) that itself quotes the error.
    inner = "'" if "'" in key else ('"' if '"' in key else rng.choice(["'", '"']))
    opts = [
        f"The user copies {inner}{key}{inner} from {rng.choice(PLACES)}.",
        f"The terminal says {inner}{key}{inner}.",
    ]
    if cmd:
        opts += [
            f"The user writes in the chat: \"I ran '{cmd}' and it says '{key}'\".",
            f"The user sends a message: \u201cafter `{cmd}` I get \u2018{key}\u2019\u201d.",
            f"The user pastes into the search box: '{cmd} {key}'.",
        ]
    else:
        opts += [
            f"The user writes in the chat: \"my script says '{key}'\".",
            f"The user searches on Google for '\"{key}\"' after typing and clicking 'Enter'.",
        ]
    return rng.choice(opts)


def gen_backticks(rng, cmd, error, keys):
    key = key_text(keys, "` ... `")
    if cmd:
        opts = [
            f"ran `{cmd}` and got `{key}`",
            f"`{cmd}` fails: `{key}`",
            f"The user runs `{cmd}` in {rng.choice(PLACES)} -> `{key}`",
            f"getting `{key}` from `{cmd}`, any ideas?",
        ]
    else:
        opts = [
            f"getting `{key}` when I run it",
            f"The user sees `{key}` in {rng.choice(PLACES)}.",
        ]
    return rng.choice(opts)


def gen_own_line(rng, cmd, error, keys):
    full = short_full(error, 6, 500)
    # a paste keeps the original indentation of the lines
    body = "\n".join(ln.rstrip() for ln in error.strip("\n").splitlines() if ln.strip()) if full else "\n".join(keys)
    if cmd:
        opts = [
            f"The user runs '{cmd}' and the terminal prints:\n{body}",
            f"Got this when running {cmd}:\n{body}",
            f"$ {cmd}\n{body}",
            f"Output of `{cmd}`:\n\n{body}",
        ]
    else:
        opts = [
            f"The user copies the following from the terminal:\n{body}",
            f"Error:\n{body}",
            f"my program printed this:\n{body}",
        ]
    return rng.choice(opts)


def gen_screen(rng, cmd, error, keys):
    key = key_text(keys, " ")
    place = rng.choice(["Terminal", "xterm", "iTerm2", "Konsole", "Visual Studio Code - Terminal", "bash",
                        "Windows Terminal", "console"])
    prompt = f"$ {cmd} " if cmd else ""
    opts = [
        f"Terminal shows: {key}",
        f"Screen text in window '{place}': {prompt}{key}",
        f"[screen reader] {place}, text area: {key}",
        f"OCR of the active window ({place}): ... {prompt}{key} ...",
        f"The {place} window is in focus. Visible text: {key}",
    ]
    return rng.choice(opts)


GENERATORS = {
    "proactivebench": gen_proactivebench,
    "log": gen_log,
    "person": gen_person,
    "first-last": gen_first_last,
    "several-quotes": gen_several_quotes,
    "nested": gen_nested,
    "backticks": gen_backticks,
    "own-line": gen_own_line,
    "screen": gen_screen,
}
ALWAYS = ["proactivebench", "log", "person", "screen"]
OPTIONAL = ["first-last", "several-quotes", "nested", "backticks", "own-line"]


# ----------------------------------------------------------------------------------------------------------
# Hand-written renderings (file, case, text)
# ----------------------------------------------------------------------------------------------------------

HANDWRITTEN = [
    ("python.toml", 0, "The user types 'python3 -c 'import numpyy'' in the terminal and gets 'ModuleNotFoundError: No module named 'numpyy''."),
    ("python.toml", 1, "ugh, python3 fetch.py -> \u201cModuleNotFoundError: No module named 'requests'\u201d. I literally just installed it??"),
    ("python.toml", 13, "The user runs t.py in VS Code and the terminal shows \u2018NameError: name 'pritn' is not defined. Did you mean: 'print'?\u2019"),
    ("python.toml", 16, "My age calculator dies with TypeError: can only concatenate str (not \"int\") to str on line 2."),
    ("python.toml", 26, "The user copies 'error: externally-managed-environment' from the terminal after 'pip install requests' fails, then opens a browser tab."),
    ("python.toml", 44, "pip install sklearn says \u00abERROR: No matching distribution found for sklearn\u00bb"),
    ("python.toml", 47, "The user types 'npm start' in iTerm2; the output reads 'npm ERR! Missing script: \"start\"'."),
    ("c_builds.toml", 0, "compiling my TLS client: gcc tls_client.c -o tls_client \u2192 \u201ctls_client.c:1:10: fatal error: openssl/ssl.h: No such file or directory\u201d"),
    ("c_builds.toml", 6, "make just prints \u201cMakefile:4: *** missing separator (did you mean TAB instead of 8 spaces?).  Stop.\u201d and quits"),
    ("c_builds.toml", 7, "The user ran 'make instal' and the terminal printed \"make: *** No rule to make target 'instal'.  Stop.\""),
    ("databases.toml", 1, "Trying psql -U postgres on the new server: psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: FATAL:  Peer authentication failed for user \"postgres\""),
    ("databases.toml", 5, "The user selects 'ERROR 2002 (HY000): Can't connect to local server through socket '/run/mysqld/mysqld.sock' (2)' in the terminal and copies it."),
    ("docker.toml", 2, "docker run for nginx fails, terminal says: Bind for 0.0.0.0:8080 failed: port is already allocated"),
    ("docker.toml", 6, "The user runs `docker build -t MyApp .` and sees: invalid argument \"MyApp\" for \"-t, --tag\" flag: invalid reference format: repository name (library/MyApp) must be lowercase"),
    ("go.toml", 6, "go run . crashes: \u2018panic: assignment to entry in nil map\u2019 (main.go:12)"),
    ("java.toml", 7, "The user compiles hello.java with javac and the console shows 'hello.java:1: error: class Hello is public, should be declared in a file named Hello.java'."),
    ("kubernetes.toml", 1, "The user types 'kubectl config use-context staging' in Windows Terminal; it replies 'error: no context exists with the name: \"staging\"'."),
    ("node.toml", 1, "node send.js \u2192 SyntaxError: Cannot use import statement outside a module (the line is import nodemailer from 'nodemailer';)"),
    ("node.toml", 6, "Screen: bash \u2014 ~/api. Last line: bash: tsc: command not found"),
    ("rust.toml", 1, "cargo run gives me error[E0382]: borrow of moved value: `items` and I don't get why, I only assigned it once"),
    ("rust.toml", 5, "The user runs 'cargo build' on a fresh machine and copies 'error: linker `cc` not found' from the terminal."),
    ("shell.toml", 2, "The user types 'git push' and the terminal answers 'fatal: The current branch feature/login has no upstream branch.'"),
    ("shell.toml", 13, "git status in /srv/site: \u201cfatal: detected dubious ownership in repository at '/srv/site'\u201d"),
    ("shell.toml", 23, "I ran ./deploy.sh and got \u201cbash: ./deploy.sh: /bin/bash^M: bad interpreter: No such file or directory\u201d \u2014 the script worked on my other laptop"),
    ("shell.toml", 28, "The user types echo \"hello world!\" in bash and gets 'bash: !\": event not found'."),
    ("ssh.toml", 6, "The user runs 'ssh pi@192.168.1.50' in the terminal. It says 'ssh: connect to host 192.168.1.50 port 22: Connection refused'."),
    ("systemd.toml", 4, "sudo systemctl start hostapd \u00bb Failed to start hostapd.service: Unit hostapd.service is masked."),
    ("tls.toml", 0, "The user runs curl against the intranet API and copies 'curl: (60) SSL certificate problem: self-signed certificate in certificate chain' from the terminal."),
    ("tls.toml", 3, "git clone https://github.com/dev/tools.git: fatal: unable to access 'https://github.com/dev/tools.git/': server certificate verification failed. CAfile: none CRLfile: none"),
    ("ruby.toml", 0, "ruby weather.rb blows up with `cannot load such file -- httparty (LoadError)`"),
]


# ----------------------------------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------------------------------

def load_cases():
    cases = []
    for path in sorted(glob.glob(os.path.join(CASES_DIR, "*.toml"))):
        fname = os.path.basename(path)
        with open(path, "rb") as f:
            data = tomllib.load(f)
        for idx, case in enumerate(data.get("case", [])):
            cases.append((fname, idx, case))
    return cases


def generate(cases):
    rows = []
    for fname, idx, case in cases:
        error, cmd = case["error"], case.get("command")
        keys = key_lines(fname, idx, error)
        rng = random.Random(f"{SEED}:{fname}:{idx}")
        styles = list(ALWAYS)
        optional = list(OPTIONAL)
        if first_line(error) == last_meaningful(error):
            optional.remove("first-last")
        rng.shuffle(optional)
        styles += optional[: rng.randint(2, 3)]
        seen = set()
        for style in styles:
            for _ in range(10):  # re-draw if an identical text was already made for this case
                text = GENERATORS[style](rng, cmd, error, keys)
                if text not in seen:
                    break
            seen.add(text)
            rows.append({"file": fname, "case": idx, "style": style, "text": text})
    by_case = {(f, i): c for f, i, c in cases}
    for fname, idx, text in HANDWRITTEN:
        assert (fname, idx) in by_case, (fname, idx)
        rows.append({"file": fname, "case": idx, "style": "handwritten", "text": text})
    return rows


def validate(path, cases):
    per_case = collections.defaultdict(list)
    styles = collections.Counter()
    n = 0
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            obj = json.loads(line)  # raises on invalid JSON
            assert set(obj) == {"file", "case", "style", "text"}, lineno
            assert isinstance(obj["text"], str) and obj["text"].strip(), lineno
            per_case[(obj["file"], obj["case"])].append(obj)
            styles[obj["style"]] += 1
            n += 1
    problems = []
    for fname, idx, case in cases:
        got = per_case.get((fname, idx), [])
        texts = {o["text"] for o in got}
        if len(got) < 5 or len(texts) < 5 or len({o["style"] for o in got}) < 4:
            problems.append(f"{fname}#{idx}: {len(got)} lines, {len(texts)} distinct, "
                            f"{len({o['style'] for o in got})} styles")
        for o in got:  # every generated line keeps at least one key line verbatim
            if o["style"] != "handwritten" and not any(k in o["text"] for k in key_lines(fname, idx, case["error"])):
                problems.append(f"{fname}#{idx} {o['style']}: no key line in {o['text'][:80]!r}")
    extra = set(per_case) - {(f, i) for f, i, _ in cases}
    problems += [f"unknown case {k}" for k in sorted(extra)]
    print(f"{n} lines, {len(per_case)} cases covered of {len(cases)}")
    for style, c in styles.most_common():
        print(f"  {style:15s} {c}")
    for p in problems:
        print("PROBLEM:", p)
    return not problems


def main():
    cases = load_cases()
    if "--check" not in sys.argv:
        rows = generate(cases)
        with open(OUT, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    ok = validate(OUT, cases)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
