#!/usr/bin/env python3
"""Write bench/help_phrasings_fresh.jsonl: a third set of observation phrasings of the help cases, in 11 styles
(tickets, mails, forum questions, dictation, JSON events, syslog, IDE panels, review comments, HTML-escaped page
text, non-native English, table rows), by a writer who never saw the grounding nor the other two sets. Case
numbers are 0-based within their file, as `bench/help_quality.py --phrasings` reads them.

Run from the repository root:   python3 bench/write_help_phrasings_fresh.py
"""
import csv
import datetime
import glob
import io
import json
import os
import random
import re
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE_DIR = os.path.join(ROOT, "bench", "help_cases")

BOILER = re.compile(r"^(Run '.*--help' for more information|See '.*--help'\.|Node\.js v\d|For more information about this error|compilation terminated\.|collect2: error: ld returned|\[end of output\]|Please make sure you have the correct access rights|and the repository exists\.|-- Configuring incomplete|See also \"|More details here: |Usage: |\(Use `node --trace-warnings|at |\^|~|\||\d+ \||[0-9]+ errors?$|\[INFO\]|-+$|Aborting$|make: \*\*\* \[|error: could not compile|Caused by:|Require stack:|npm (ERR!|error)\s*$|npm error A complete log)")
STRONG = re.compile(r"(\b[A-Z][A-Za-z]*(Error|Exception)\b|\berror\b|\bERROR\b|\bfatal\b|\bFATAL\b|[Ff]ailed|denied|not found|No such|[Cc]annot|[Cc]ould not|[Cc]ouldn't|refused|[Uu]nable|invalid|BUILD FAILED|CrashLoopBackOff|OOMKilled|panic:|unknown|missing|is masked|expired|does not exist|[Pp]ermission|WARNING|Warning|ERR!|E: )")

def load():
    out = []
    for path in sorted(glob.glob(os.path.join(CASE_DIR, "*.toml"))):
        fn = os.path.basename(path)
        with open(path, "rb") as fh:
            d = tomllib.load(fh)
        for i, c in enumerate(d.get("case", []), 1):
            out.append(dict(file=fn, case=i, error=c["error"], command=c.get("command")))
    return out

def lines_of(err):
    return [ln.rstrip() for ln in err.strip("\n").rstrip().splitlines()]

PYEXC = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)(\s\[\w+\])?:")

def key_lines(err):
    ls = [ln.strip() for ln in lines_of(err) if ln.strip()]
    py = [ln for ln in ls if PYEXC.match(ln)]
    if any(ln.startswith("Traceback") or ln.startswith('File "') for ln in ls) and py:
        return [py[-1]]
    cands = [ln for ln in ls if STRONG.search(ln) and not BOILER.match(ln)]
    if cands:
        return [cands[0]]
    nb = [ln for ln in ls if not BOILER.match(ln)]
    return [nb[-1] if nb else ls[-1]]

# hand-picked quotes: what a person would most plausibly copy (exact text, whitespace-normalised)
OVERRIDE = {
 ("c_builds.toml", 5): ["tls_client.c:(.text+0x9): undefined reference to `TLS_client_method'", "/usr/bin/ld: tls_client.c:(.text+0x11): undefined reference to `SSL_CTX_new'"],
 ("c_builds.toml", 9): ["Package gtk+-3.0 was not found in the pkg-config search path.", "Package 'gtk+-3.0', required by 'virtual:world', not found"],
 ("c_builds.toml", 10): ["CMake Error at CMakeLists.txt:3 (find_package):", "Could not find a package configuration file provided by \"SDL2\" with any of the following names:"],
 ("c_builds.toml", 11): ["Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR)"],
 ("c_builds.toml", 12): ["make: cc: No such file or directory", "make: *** [<builtin>: hello] Error 127"],
 ("docker.toml", 5): ["docker: Error response from daemon: pull access denied for ngnix, repository does not exist or may require 'docker login': denied: requested access to the resource is denied."],
 ("go.toml", 1): ["main.go:8:2: no required module provides package github.com/go-chi/chi/v5; to add it:"],
 ("java.toml", 1): ["Inventory.java:3: error: cannot find symbol", "symbol:   class ArrayList"],
 ("java.toml", 2): ["Error: Could not find or load main class App", "Caused by: java.lang.NoClassDefFoundError: App (wrong name: com/acme/App)"],
 ("java.toml", 4): ["java.lang.UnsupportedClassVersionError: Billing has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0"],
 ("java.toml", 7): ["[ERROR] Source option 5 is no longer supported. Use 7 or later.", "[ERROR] Target option 5 is no longer supported. Use 7 or later."],
 ("kubernetes.toml", 1): ["The connection to the server localhost:8080 was refused - did you specify the right host or port?"],
 ("kubernetes.toml", 3): ["Failed to pull image \"registry.example.com/shop/api:1.4.2\": Error response from daemon: unauthorized: unauthorized to access repository: shop/api, action: pull: unauthorized to access repository: shop/api, action: pull", "Error: ImagePullBackOff"],
 ("kubernetes.toml", 5): ["Reason:       CrashLoopBackOff", "Last State:     Terminated", "Reason:       OOMKilled", "Exit Code:    137"],
 ("kubernetes.toml", 9): ["Unable to connect to the server: dial tcp 192.168.49.2:8443: connect: no route to host"],
 ("node.toml", 2): ["SyntaxError: Cannot use import statement outside a module"],
 ("node.toml", 3): ["Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/home/dev/calc/utils' imported from /home/dev/calc/index.js", "Did you mean to import \"./utils.js\"?"],
 ("node.toml", 8): ["npm error 404 Not Found - GET https://registry.npmjs.org/@type%2fnode", "npm error 404  The requested resource '@type/node@*' could not be found or you do not have permission to access it."],
 ("python.toml", 27): ["error: externally-managed-environment", "× This environment is externally managed"],
 ("python.toml", 28): ["npm ERR! ERESOLVE unable to resolve dependency tree"],
 ("python.toml", 35): ["The virtual environment was not created successfully because ensurepip is not available."],
 ("python.toml", 45): ["ERROR: Could not find a version that satisfies the requirement sklearn (from versions: none)", "ERROR: No matching distribution found for sklearn"],
 ("python.toml", 46): ["ERROR: No matching distribution found for pandas==2.2.0"],
 ("python.toml", 47): ["npm error Error: EACCES: permission denied, mkdir '/home/dev/web/node_modules/.vite'"],
 ("python.toml", 48): ["npm ERR! Missing script: \"start\""],
 ("python.toml", 49): ["npm error gyp ERR! stack Error: not found: make"],
 ("ruby.toml", 3): ["ERROR:  While executing gem ... (Gem::FilePermissionError)", "You don't have write permissions for the /var/lib/gems/3.1.0 directory."],
 ("ruby.toml", 4): ["Your user account isn't allowed to install to the system RubyGems."],
 ("ruby.toml", 5): ["Could not find compatible versions", "Your bundle requires a different version of Bundler than the one you're running."],
 ("ruby.toml", 6): ["You have requested: tzinfo ~> 1.2", "The bundle currently has tzinfo locked at 2.0.2."],
 ("ruby.toml", 8): ["Gem::Ext::BuildError: ERROR: Failed to build gem native extension.", "Can't find the 'libpq-fe.h header"],
 ("ruby.toml", 9): ["psych: Could not be configured. It will not be installed.", "BUILD FAILED (Ubuntu 24.04 on x86_64 using ruby-build 20241105)"],
 ("rust.toml", 4): ["error[E0308]: mismatched types", "expected `String`, found `&str`"],
 ("rust.toml", 7): ["error: failed to run custom build command for `openssl-sys v0.9.108`", "The system library `openssl` required by crate `openssl-sys` was not found."],
 ("rust.toml", 8): ["package `icu_normalizer_data v2.0.0` cannot be built because it requires rustc 1.82 or newer, while the currently active rustc version is 1.75.0"],
 ("shell.toml", 1): ["! [rejected]        main -> main (fetch first)", "error: failed to push some refs to 'github.com:ana/site.git'"],
 ("shell.toml", 2): ["! [rejected]        feature -> feature (non-fast-forward)", "error: failed to push some refs to 'https://github.com/ana/site.git'"],
 ("shell.toml", 4): ["Your branch is behind 'origin/main' by 3 commits, and can be fast-forwarded."],
 ("shell.toml", 6): ["error: Your local changes to the following files would be overwritten by merge:", "Please commit your changes or stash them before you merge."],
 ("shell.toml", 8): ["CONFLICT (content): Merge conflict in src/app.py", "Automatic merge failed; fix conflicts and then commit the result."],
 ("shell.toml", 9): ["You are in 'detached HEAD' state."],
 ("shell.toml", 12): ["Author identity unknown", "fatal: unable to auto-detect email address (got 'ana@laptop.(none)')"],
 ("shell.toml", 15): ["remote: Support for password authentication was removed on August 13, 2021.", "fatal: Authentication failed for 'https://github.com/ana/site.git/'"],
 ("shell.toml", 17): ["fatal: 'origin' does not appear to be a git repository", "fatal: Could not read from remote repository."],
 ("shell.toml", 18): ["git@github.com: Permission denied (publickey).", "fatal: Could not read from remote repository."],
 ("shell.toml", 19): ["WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!", "Host key verification failed."],
 ("shell.toml", 37): ["Warning: you are leaving 2 commits behind, not connected to any of your branches:"],
 ("ssh.toml", 1): ["WARNING: UNPROTECTED PRIVATE KEY FILE!", "Permissions 0644 for '/home/dev/.ssh/deploy_key' are too open."],
 ("ssh.toml", 2): ["WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!", "Host key verification failed."],
 ("ssh.toml", 3): ["No ED25519 host key is known for ci-runner.example.com and you have requested strict checking.", "Host key verification failed."],
 ("ssh.toml", 5): ["Received disconnect from 203.0.113.24 port 22:2: Too many authentication failures"],
 ("systemd.toml", 2): ["ledger.service: Failed at step EXEC spawning /opt/ledger/run.sh: Permission denied"],
 ("systemd.toml", 3): ["Job for nginx.service failed because the control process exited with error code.", "nginx: [emerg] unknown directive \"server_nme\" in /etc/nginx/sites-enabled/blog:4"],
 ("tls.toml", 1): ["curl: (60) SSL certificate problem: self-signed certificate in certificate chain"],
 ("tls.toml", 2): ["verify error:num=20:unable to get local issuer certificate", "verify error:num=21:unable to verify the first certificate"],
 ("tls.toml", 5): ["TypeError: fetch failed", "[cause]: Error: self-signed certificate in certificate chain", "code: 'SELF_SIGNED_CERT_IN_CHAIN'"],
 ("tls.toml", 6): ["curl: (60) SSL: no alternative certificate subject name matches target host name '10.0.0.5'"],
 ("tls.toml", 7): ["error 10 at 0 depth lookup: certificate has expired", "error /etc/letsencrypt/live/blog.example.com/cert.pem: verification failed"],
}

def norm(s):
    return " ".join(s.split())

def quotes_for(c):
    k = OVERRIDE.get((c["file"], c["case"])) or key_lines(c["error"])
    ne = norm(c["error"])
    for q in k:
        assert norm(q) in ne, (c["file"], c["case"], q)
    return k

# ---------------------------------------------------------------- generator

SEED = 20251206
OUT = os.path.join(ROOT, "bench", "help_phrasings_fresh.jsonl")
STYLES = ["ticket", "email", "forum_question", "voice", "json_event", "journal",
          "ide_hover", "pr_comment", "html_escaped", "non_native", "table_row"]
PER_CASE = 6
NL = "\n"

TERMS = ["xterm", "Konsole", "kitty", "WezTerm", "Terminator", "GNOME Terminal", "Alacritty",
         "tmux", "foot", "Tilix", "Guake", "Yakuake", "urxvt", "st", "Ghostty", "Ptyxis",
         "Console", "Terminology", "Warp", "Hyper", "Kgx", "QTerminal", "xfce4-terminal"]
IDES = ["VS Code", "PyCharm", "IntelliJ IDEA", "Emacs", "Neovim", "Zed", "Kate", "Sublime Text",
        "CLion", "GoLand", "RubyMine", "RustRover", "WebStorm", "VSCodium", "Eclipse", "Helix"]
IDE_BY_FILE = {
    "python.toml": ["PyCharm", "VS Code", "VSCodium", "Emacs", "Neovim", "Zed"],
    "java.toml": ["IntelliJ IDEA", "Eclipse", "VS Code", "Emacs"],
    "go.toml": ["GoLand", "VS Code", "Neovim", "Helix"],
    "rust.toml": ["RustRover", "VS Code", "Helix", "Zed", "Emacs"],
    "ruby.toml": ["RubyMine", "VS Code", "Emacs", "Sublime Text"],
    "node.toml": ["WebStorm", "VS Code", "Zed", "Neovim"],
    "c_builds.toml": ["CLion", "VS Code", "Emacs", "Kate", "Qt Creator"],
}
UNIT = {"xterm": "xterm", "Konsole": "konsole", "kitty": "kitty", "WezTerm": "wezterm-gui",
        "Terminator": "terminator", "GNOME Terminal": "gnome-terminal-server", "Alacritty": "alacritty",
        "tmux": "tmux", "foot": "foot", "Tilix": "tilix", "Guake": "guake", "Yakuake": "yakuake",
        "urxvt": "urxvt", "st": "st", "Ghostty": "ghostty", "Ptyxis": "ptyxis", "Console": "kgx",
        "Terminology": "terminology", "Warp": "warp-terminal", "Hyper": "hyper", "Kgx": "kgx",
        "QTerminal": "qterminal", "xfce4-terminal": "xfce4-terminal", "VS Code": "code",
        "PyCharm": "pycharm", "IntelliJ IDEA": "idea", "Emacs": "emacs", "Neovim": "nvim",
        "Zed": "zed-editor", "Kate": "kate", "Sublime Text": "sublime_text", "CLion": "clion",
        "GoLand": "goland", "RubyMine": "rubymine", "RustRover": "rustrover", "WebStorm": "webstorm",
        "VSCodium": "codium", "Eclipse": "eclipse", "Helix": "hx", "Qt Creator": "qtcreator"}
HOSTS = ["laptop", "ana-thinkpad", "devbox", "ws-0142", "x1carbon", "fedora", "raspberrypi",
         "build-vm", "pop-os", "arch", "nuc", "dell-xps", "framework", "mint-desktop"]
NAMES = ["Sam", "Priya", "Jonas", "Mei", "Tomás", "Aisha", "Lukas", "Noor", "Olga", "Ravi",
         "Chiara", "Kenji", "Fatima", "Marco", "Ines", "Dmitri", "Leah", "Bogdan", "Yuki", "Hannah"]
HANDLES = ["dev_ana", "kt91", "marek.s", "nullptr_joe", "ljubica", "code-monkey-42", "hsu.wen",
           "pbakker", "oxide_fan", "tiny_tux", "rosa-m", "j.okafor", "bitflip", "emre_k"]
PROJECTS = ["OPS", "DEV", "INFRA", "WEB", "PLAT", "BUILD", "SUP", "APP", "DATA", "CORE"]
OS = ["Ubuntu 24.04", "Debian 12", "Fedora 41", "Linux Mint 22", "Pop!_OS 22.04", "Arch Linux",
      "Ubuntu 22.04 (WSL2)", "openSUSE Tumbleweed", "Raspberry Pi OS", "Kubuntu 24.10"]
TAGS = {"python.toml": ["python", "python-3.x", "pip"], "java.toml": ["java", "javac", "maven"],
        "go.toml": ["go", "go-modules"], "rust.toml": ["rust", "cargo"], "ruby.toml": ["ruby", "bundler", "rubygems"],
        "node.toml": ["node.js", "npm", "typescript"], "c_builds.toml": ["c", "gcc", "makefile", "cmake"],
        "databases.toml": ["postgresql", "mysql", "sqlite"], "docker.toml": ["docker", "docker-compose"],
        "kubernetes.toml": ["kubernetes", "kubectl"], "shell.toml": ["linux", "bash", "git"],
        "ssh.toml": ["ssh", "openssh"], "systemd.toml": ["systemd", "linux"], "tls.toml": ["ssl", "curl", "openssl"]}


def rts(rng):
    base = datetime.datetime(2025, 1, 6, 8, 0, 0)
    return base + datetime.timedelta(days=rng.randrange(0, 330), seconds=rng.randrange(0, 11 * 3600),
                                     microseconds=rng.randrange(0, 999999))


EXIT_OVERRIDE = {("kubernetes.toml", 3): 0, ("kubernetes.toml", 4): 0, ("kubernetes.toml", 5): 0,
                 ("shell.toml", 4): 0, ("shell.toml", 9): 0, ("shell.toml", 37): 0,
                 ("systemd.toml", 2): 3, ("systemd.toml", 6): 0, ("tls.toml", 2): 0}


def exit_code(ctx):
    if (ctx.file, ctx.case) in EXIT_OVERRIDE:
        return EXIT_OVERRIDE[(ctx.file, ctx.case)]
    err = ctx.error
    if "command not found" in err or "Error 127" in err:
        return 127
    if "panic:" in err or "exit status 2" in err:
        return 2
    return 1


class Ctx:
    pass


def nonempty(lines):
    return [ln.strip() for ln in lines if ln.strip()]


def joined(ctx, sep):
    """whole or partial text joined onto one line"""
    if ctx.whole:
        return sep.join(nonempty(ctx.lines))
    return sep.join(norm(q) for q in ctx.quote)


def block(ctx):
    """whole or partial text with real newlines"""
    if ctx.whole:
        return "\n".join(ctx.lines)
    return "\n".join(ctx.quote_raw)


def body(ctx, rng, seps=None):
    seps = seps or ["\n", " | ", " / ", " ↵ ", " \\ ", "; ", " "]
    sep = rng.choice(seps)
    if sep == "\n":
        return block(ctx)
    return joined(ctx, sep)


def short(ctx, n=90):
    q = norm(ctx.key[0])
    if len(q) <= n:
        return q
    cut = q[:n].rsplit(" ", 1)[0]
    return cut + "…"


def cmd(ctx):
    return ctx.command if ctx.use_cmd else None


def term(rng):
    return rng.choice(TERMS)


def ide(ctx, rng):
    return rng.choice(IDE_BY_FILE.get(ctx.file, IDES[:8]))


def app_any(ctx, rng):
    return rng.choice([term(rng), term(rng), ide(ctx, rng)])


def indent(text, pre):
    return "\n".join(pre + ln if ln else pre.rstrip() for ln in text.split("\n"))


# ---------------------------------------------------------------- styles
def t_ticket(ctx, rng):
    c = cmd(ctx)
    k = rng.randrange(4)
    app = app_any(ctx, rng)
    if k == 0:
        steps = [f"Open {app}"] + ([f"Run `{c}`"] if c else ["Run the script / build as usual"]) + ["Look at the output"]
        title = f"`{c}` fails" if c and rng.random() < .5 else short(ctx)
        return (f"Summary: {title}\n\nSteps to reproduce:\n" +
                "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1)) +
                f"\n\nActual result:\n{block(ctx)}\n\nExpected result:\n" +
                rng.choice(["Command finishes without errors.", "It just works.", "No error.",
                            "Same as on my other machine: it runs."]) +
                f"\n\nEnvironment: {rng.choice(OS)}, {app}")
    if k == 1:
        pj = f"{rng.choice(PROJECTS)}-{rng.randrange(100, 4999)}"
        what = f"Running {{{{{c}}}}} in {app}" if c else f"Seen in {app}"
        return (f"[{pj}] {short(ctx, 70)}\n\nh3. Description\n{what} ends with the error below.\n\n"
                f"{{noformat}}\n{block(ctx)}\n{{noformat}}\n\n*Steps:* " +
                (f"# {{{{{c}}}}}" if c else "# run it") +
                f"\n*Actual result:* error above\n*Expected result:* success\n*Priority:* {rng.choice(['Minor', 'Major', 'Medium', 'Low'])}")
    if k == 2:
        return ("### What happened?\n" +
                (f"I ran `{c}` in {app} and it failed." if c else f"It failed in {app}.") +
                "\n\n### Steps to reproduce\n" + (f"1. `{c}`" if c else "1. run it") +
                f"\n\n### Relevant log output\n```shell\n{block(ctx)}\n```\n\n### OS\n{rng.choice(OS)}")
    sep = rng.choice([" | ", " / ", "; ", " ↵ "])
    return (f"Ticket #{rng.randrange(1000, 99999)} · Steps: " + (f"{c}" if c else f"run in {app}") +
            f" · Actual result: {joined(ctx, sep)} · Expected result: command succeeds · Reporter: {rng.choice(HANDLES)}")


def t_email(ctx, rng):
    c = cmd(ctx)
    to, me = rng.sample(NAMES, 2)
    k = rng.randrange(4)
    subj = rng.choice([f"{short(ctx, 60)}", f"Problem with {c}" if c else "Quick question about an error",
                       "error on my machine", f"Re: {short(ctx, 50)}"])
    if k == 0:
        intro = (f"when I run `{c}` in {term(rng)} I get this:" if c else
                 f"I keep getting this in {app_any(ctx, rng)}:")
        return f"Subject: {subj}\n\nHi {to},\n\n{intro}\n\n{indent(block(ctx), '    ')}\n\nAny idea? Thanks,\n{me}"
    if k == 1:
        return (f"From: {me.lower()}@example.org\nTo: {to.lower()}@example.org\nSubject: {subj}\n\n"
                f"Hey {to}, quick one — " + (f"`{c}` " if c else "my run ") +
                f"just died with\n\n{indent(block(ctx), '> ')}\n\nCan you have a look when you have a minute?\n\n-- {me}")
    if k == 2:
        return (f"Subject: {subj}\n\nHello {to},\n\nthis is what " +
                (f"{c} printed" if c else f"{app_any(ctx, rng)} showed me") +
                f" this morning: \"{body(ctx, rng, [' ', ' / ', ' | '])}\"\n\nBest regards,\n{me}")
    return (f"Hi {to},\n\n" + (f"I tried `{c}` again on {rng.choice(HOSTS)} and still get:\n\n" if c else "still stuck on this one:\n\n") +
            f"{block(ctx)}\n\nCheers\n{me}\n\nSent from my phone")


def t_forum(ctx, rng):
    c = cmd(ctx)
    tag = " ".join(f"[{t}]" for t in rng.sample(TAGS[ctx.file], min(2, len(TAGS[ctx.file]))))
    k = rng.randrange(4)
    if k == 0:
        title = f"\"{short(ctx, 80)}\"" + (f" when running {c}" if c else "")
        return (f"{title}\n\nI'm on {rng.choice(OS)}." + (f" When I run\n\n    {c}\n\nI get:" if c else " I get:") +
                f"\n\n{indent(block(ctx), '    ')}\n\nWhat am I doing wrong?\n\n{tag}")
    if k == 1:
        return (f"Title: {short(ctx, 70)}\n\n" + (f"Running `{c}` gives me the following error:\n" if c else "I get the following error:\n") +
                f"```\n{block(ctx)}\n```\nI searched but nothing I found matches exactly. Thanks in advance!\nTags: {tag}")
    if k == 2:
        return (f"Q: Why does {'`' + c + '`' if c else 'this'} fail with {short(ctx, 60)}?\n\n"
                f"Asked {rng.randrange(2, 59)} minutes ago · Viewed {rng.randrange(3, 40)} times\n\n"
                f"Output:\n\n{block(ctx)}\n\n{tag}")
    return (f"## {c + ' → ' if c else ''}{short(ctx, 70)}\n\nNew to this, sorry if it's obvious. Output from {term(rng)}:\n\n"
            f"{body(ctx, rng, [NL, ' '])}\n\nedit: formatting")


def _unquote(s):
    s = s.replace('""', "empty quotes")
    s = re.sub(r"(?<![A-Za-z0-9])'([^'\n]+)'(?![A-Za-z])", r"quote \1 unquote", s)
    s = re.sub(r'"([^"\n]+)"', r"quote \1 unquote", s)
    s = re.sub(r"`([^`\n]+)'", r"quote \1 unquote", s)
    s = re.sub(r"`([^`\n]+)`", r"backtick \1 backtick", s)
    return s


def _spoken(s, rng, mode):
    if mode == "strip":
        s = re.sub(r"[\"`‘’]", "", s)
        s = re.sub(r"(?<![A-Za-z0-9])'|'(?![A-Za-z])", "", s)
        return s
    if mode == "quote":
        return _unquote(s)
    s = _unquote(s)
    s = re.sub(r":(\s|$)", r" colon\1", s)
    s = re.sub(r"\.(\s|$)", r" period\1", s)
    s = re.sub(r",(\s)", r" comma\1", s)
    return s


def voice_text(ctx, rng):
    mode = rng.choice(["strip", "quote", "spell"])
    if ctx.whole:
        parts = [ln for ln in nonempty(ctx.lines) if re.search(r"[A-Za-z0-9]", ln)]
    else:
        parts = [norm(q) for q in ctx.quote]
    sep = rng.choice([" new line ", ". ", " ", ", then ", " next line "])
    return sep.join(_spoken(p, rng, mode) for p in parts)


def t_voice(ctx, rng):
    c = cmd(ctx)
    k = rng.randrange(4)
    v = voice_text(ctx, rng)
    if k == 0:
        return ("okay so " + (f"I typed {c} and " if c else "") + f"it says {v}")
    if k == 1:
        return (f"[dictation {rng.randrange(0, 3):02d}:{rng.randrange(0, 60):02d}] " +
                (f"note to self, ran {c} in {term(rng)}, got " if c else f"note to self, {app_any(ctx, rng)} shows ") + v)
    if k == 2:
        return ("Speaker 1: um, " + (f"so when I run {c} " if c else "so the terminal ") +
                f"it prints, uh, {v}\nSpeaker 1: that's it, that's the whole thing")
    return (f"Transcript ({rng.choice(['Whisper', 'Talon', 'nerd-dictation', 'Speech Note', 'Dragon'])}): "
            + (f"command was {c} " if c else "") + f"error reads {v} end of error")


def t_json(ctx, rng):
    c = cmd(ctx)
    ts = rts(rng)
    k = rng.randrange(4)
    app = app_any(ctx, rng)
    if k == 0:
        d = {"app": app, "event": "terminal_output", "text": block(ctx), "ts": ts.isoformat(timespec="seconds")}
        if c:
            d["command"] = c
    elif k == 1:
        d = {"timestamp": ts.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "source": "activity-logger",
             "window": {"class": UNIT.get(app, app.lower()), "title": f"{rng.choice(['dev', 'ana', 'me'])}@{rng.choice(HOSTS)}: ~"},
             "type": "command_finished" if c else "screen_text"}
        if c:
            d["command"] = c
            d["exit_code"] = exit_code(ctx)
        d["stderr" if c else "text"] = block(ctx)
    elif k == 2:
        d = {"ts": int(ts.timestamp() * 1000), "kind": "screen_text", "app": app, "panel": rng.choice(["TERMINAL", "Run", "OUTPUT", "shell"]),
             "lines": (ctx.lines if ctx.whole else ctx.quote_raw)}
        if c:
            d["last_input"] = c
    else:
        d = {"event": rng.choice(["clipboard_copy", "selection", "notification"]), "app": app,
             "content": body(ctx, rng, ["\n", " ", " | "]), "time": ts.strftime("%H:%M:%S")}
        if c:
            d["context"] = {"shell_history_last": c}
    return json.dumps(d, ensure_ascii=False)


def sd_escape(v):
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("]", "\\]")


def t_journal(ctx, rng):
    c = cmd(ctx)
    ts = rts(rng)
    host = rng.choice(HOSTS)
    app = app_any(ctx, rng)
    unit = UNIT.get(app, app.lower())
    pid = rng.randrange(900, 60000)
    lines = ctx.lines if ctx.whole else ctx.quote_raw
    k = rng.randrange(4)
    out = []
    if k == 0:
        stamp = ts.strftime("%b %d %H:%M:%S")
        if c:
            out.append(f"{stamp} {host} bash[{pid - 1}]: {rng.choice(['HISTORY', 'cmd', 'exec'])}: {c}")
        out += [f"{stamp} {host} {unit}[{pid}]: {ln}" for ln in lines if ln.strip()]
    elif k == 1:
        stamp = ts.strftime("%Y-%m-%dT%H:%M:%S+0100")
        if c:
            out.append(f"{stamp} {host} activity-logger[{pid + 7}]: command started in {app}: {c}")
        out += [f"{stamp} {host} {unit}[{pid}]: {ln}" for ln in lines]
    elif k == 2:
        stamp = ts.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        txt = "#012".join(ln.replace("\t", "#011") for ln in lines)
        out.append(f"<13>1 {stamp} {host} {unit} {pid} - - " + (f"[cmd=\"{sd_escape(c)}\"] " if c else "") + txt)
    else:
        stamp = ts.strftime("%b %d %H:%M:%S")
        out.append(f"{stamp} {host} {unit}[{pid}]: " + (f"$ {c} :: " if c else "") + joined(ctx, rng.choice([" ↵ ", " | ", " \\ "])))
    return "\n".join(out)


def t_ide(ctx, rng):
    c = cmd(ctx)
    k = rng.randrange(5)
    ed = ide(ctx, rng)
    if k == 0:
        src = {"python.toml": "Python", "rust.toml": "rust-analyzer", "go.toml": "gopls", "java.toml": "Java",
               "node.toml": "ts", "c_builds.toml": "C/C++", "ruby.toml": "Ruby LSP"}.get(ctx.file, "Terminal")
        return (f"{joined(ctx, ' ')}  {src}\n" + (f"Task: {c}  " if c else "") + "View Problem (Alt+F8)")
    if k == 1:
        t = rts(rng)
        return (f"-*- mode: compilation; default-directory: \"~/{rng.choice(['proj', 'src', 'work', 'code'])}/\" -*-\n"
                f"Compilation started at {t.strftime('%a %b %d %H:%M:%S')}\n\n" + (f"{c}\n" if c else "") + f"{block(ctx)}\n\n"
                f"Compilation exited abnormally with code {exit_code(ctx)} at {t.strftime('%a %b %d %H:%M:%S')}, duration {rng.randrange(1, 9)}.{rng.randrange(10, 99)} s")
    if k == 2:
        jb = {"python.toml": "PyCharm", "go.toml": "GoLand", "rust.toml": "RustRover", "node.toml": "WebStorm",
              "c_builds.toml": "CLion", "ruby.toml": "RubyMine"}.get(ctx.file, rng.choice(["IntelliJ IDEA", "PyCharm"]))
        return (f"{jb} — Run: " + (f"'{c}'" if c else "current file") + f"\n{block(ctx)}\n\nProcess finished with exit code {exit_code(ctx)}")
    if k == 3:
        return (f"{ed} status bar: ⊗ 1 ⚠ 0  |  " + (f"{c}  |  " if c else "") + joined(ctx, rng.choice([" ↵ ", " | ", " "])))
    return (f"Diagnostics ({ed}):\n1. " + joined(ctx, " ") + (f"\n   [terminal: {c}]" if c else ""))


def t_pr(ctx, rng):
    c = cmd(ctx)
    k = rng.randrange(4)
    if k == 0:
        return ((f"Checked out this branch and ran `{c}`, got:\n\n" if c else "Pulled this branch locally and got:\n\n") +
                f"```\n{block(ctx)}\n```\n\nCould you take a look before we merge?")
    if k == 1:
        return (f"{indent(block(ctx), '> ')}\n\n" + (f"^ that's what `{c}` prints for me on {rng.choice(OS)}" if c else "^ that's what I see locally") +
                ". Blocking until this is sorted, sorry.")
    if k == 2:
        return (f"@{rng.choice(HANDLES)} CI is red on this PR" + (f" (step `{c}`)" if c else "") +
                f":\n\n{indent(block(ctx), '> ')}\n\nRequesting changes.")
    return (f"**Changes requested** — {rng.choice(['nit aside', 'before anything else', 'one more thing'])}: " +
            (f"`{c}` " if c else "the build ") + f"fails for me with `{joined(ctx, ' ')}`")


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")


def t_html(ctx, rng):
    c = cmd(ctx)
    k = rng.randrange(4)
    if k == 0:
        txt = (f"{rng.choice(HANDLES)} asked {rng.randrange(2, 23)} hours ago\n" +
               (f"I ran \"{c}\" and got this:\n" if c else "I got this error:\n") + block(ctx) + "\nReply  Share  Report")
    elif k == 1:
        txt = (f"Gist · {rng.choice(HANDLES)} / error.log · Raw\n" + (f"$ {c}\n" if c else "") + block(ctx))
    elif k == 2:
        txt = (f"Issue #{rng.randrange(10, 3000)} opened by {rng.choice(HANDLES)} " +
               (f"Running '{c}' fails: " if c else "Error: ") + joined(ctx, " ") + " 👍 2")
    else:
        txt = f"[{rts(rng).strftime('%H:%M')}] <{rng.choice(HANDLES)}> " + \
              (f"anyone seen this? `{c}` → " if c else "anyone seen this? ") + joined(ctx, rng.choice([" ", " | "]))
    return esc(txt)


def t_nonnative(ctx, rng):
    c = cmd(ctx)
    k = rng.randrange(5)
    t = term(rng)
    if k == 0:
        return ("Hello everyone, i have problem " + (f"when i run {c} " if c else "") +
                f"in {t}, it show me this error:\n{block(ctx)}\nPlease help what i am doing wrong?")
    if k == 1:
        return ("Hi, sorry for my english. " + (f"When i am doing `{c}` in terminal " if c else "When i am start my program ") +
                f"the result is error: {body(ctx, rng, [' ', NL])} . Somebody know this?")
    if k == 2:
        return ("Good day. I try to " + (f"make {c}" if c else "run it") + f" but is not working, he say \"{joined(ctx, ' ')}\". "
                "Yesterday it was working good, today no. What is mean?")
    if k == 3:
        return (f"pls help, error is coming: {body(ctx, rng, [NL, ' ', ' / '])}\n" +
                (f"command what i run: {c}\n" if c else "") + f"i use {rng.choice(OS)} with {t}")
    return (f"Dear all, i am beginner. The {t} give me next message" + (f" after i write {c}" if c else "") +
            f":\n\n{block(ctx)}\n\nI dont understand, can someone explain me? Thank you very much")


def _csv(row):
    s = io.StringIO()
    csv.writer(s, lineterminator="\n").writerow(row)
    return s.getvalue()[:-1]


def t_table(ctx, rng):
    c = cmd(ctx)
    ts = rts(rng)
    app = app_any(ctx, rng)
    k = rng.randrange(4)
    if k == 0:
        return _csv([ts.strftime("%Y-%m-%d %H:%M:%S"), app, (f"ran {c}" if c else "output"), block(ctx) if rng.random() < .5 else joined(ctx, " ↵ ")])
    if k == 1:
        txt = joined(ctx, rng.choice([" ↵ ", " / ", "; ", " \\ "])).replace("|", "\\|")
        cc = f"`{c}` → " if c else ""
        row = f"| {ts.strftime('%H:%M')} | {app} | {cc}{txt} |"
        if rng.random() < .5:
            row = "| time | app | what happened |\n|---|---|---|\n" + row
        return row
    if k == 2:
        return "\t".join([ts.isoformat(timespec="seconds"), UNIT.get(app, app), c or "-", joined(ctx, " | ")])
    return ("time,app,window,event,detail\n" +
            _csv([ts.strftime("%H:%M:%S"), app, f"{rng.choice(['dev', 'ana'])}@{rng.choice(HOSTS)}", "error_shown",
                  (f"$ {c}\n" if c else "") + block(ctx)]))


FUNCS = {"ticket": t_ticket, "email": t_email, "forum_question": t_forum, "voice": t_voice,
         "json_event": t_json, "journal": t_journal, "ide_hover": t_ide, "pr_comment": t_pr,
         "html_escaped": t_html, "non_native": t_nonnative, "table_row": t_table}


def raw_quote(c, quote):
    """quote items as they appear in the error with their own line breaks where possible"""
    out = []
    lines = lines_of(c["error"])
    for q in quote:
        hit = [ln.strip() for ln in lines if ln.strip() == q.strip()]
        out.append(hit[0] if hit else norm(q))
    return out


def partial_quote(c, rng):
    quote = quotes_for(c)
    ls = nonempty(lines_of(c["error"]))
    modes = ["key", "key1"]
    if ls[0] not in [q.strip() for q in quote] and len(ls) > 2:
        modes.append("first_key")
    tail = ls[-3:]
    if norm(quote[-1]) in norm(" ".join(tail)) and len(ls) > 3:
        modes.append("tail")
    m = rng.choice(modes)
    if m == "key1":
        return [quote[0]] if c["file"] != "python.toml" else [quote[-1]]
    if m == "first_key":
        return [ls[0]] + quote
    if m == "tail":
        return tail
    return quote


def main():
    rng = random.Random(SEED)
    cases = load()
    usage = {s: 0 for s in STYLES}
    rows = []
    for c in cases:
        order = sorted(STYLES, key=lambda s: (usage[s], rng.random()))
        styles = order[:PER_CASE]
        rng.shuffle(styles)
        for s in styles:
            usage[s] += 1
        nlines = len(nonempty(lines_of(c["error"])))
        # half of the phrasings carry the whole error; voice only when it is short
        cands = [s for s in styles if s != "voice" or nlines <= 4]
        rng.shuffle(cands)
        whole_set = set(cands[:PER_CASE // 2])
        has_cmd = bool(c["command"])
        cmd_set = set(rng.sample(styles, rng.choice([4, 5, 6]))) if has_cmd else set()
        for s in styles:
            ctx = Ctx()
            ctx.file, ctx.case, ctx.error, ctx.command = c["file"], c["case"], c["error"], c["command"]
            ctx.lines = lines_of(c["error"])
            ctx.whole = s in whole_set
            ctx.quote = partial_quote(c, rng)
            ctx.key = quotes_for(c)
            ctx.quote_raw = raw_quote(c, ctx.quote)
            ctx.use_cmd = s in cmd_set
            text = FUNCS[s](ctx, rng)
            rows.append({"file": c["file"], "case": c["case"] - 1, "style": s, "text": text,
                         "_whole": ctx.whole, "_cmd": ctx.use_cmd})
    with open(OUT, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps({k: r[k] for k in ("file", "case", "style", "text")}, ensure_ascii=False) + "\n")
    return cases, rows


def check(cases):
    from collections import Counter, defaultdict
    per = defaultdict(list)
    styles = Counter()
    with open(OUT, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            o = json.loads(line)
            assert set(o) == {"file", "case", "style", "text"}, n
            assert o["style"] in STYLES and isinstance(o["text"], str) and o["text"].strip()
            per[(o["file"], o["case"] + 1)].append(o)
            styles[o["style"]] += 1
    for c in cases:
        ps = per[(c["file"], c["case"])]
        assert len(ps) >= 5, (c["file"], c["case"])
        assert len({p["text"] for p in ps}) == len(ps)
        assert len({p["style"] for p in ps}) >= 5
        if c["command"]:
            assert sum(c["command"] in p["text"] or esc(c["command"]) in p["text"] or json.dumps(c["command"])[1:-1] in p["text"] for p in ps) >= 3, (c["file"], c["case"])
    assert len(per) == len(cases)
    ncase = len(cases)
    print("cases:", ncase, " files:", len({c['file'] for c in cases}))
    for s in STYLES:
        cov = sum(1 for k, ps in per.items() if any(p["style"] == s for p in ps))
        print(f"  {s:15s} {styles[s]:4d} phrasings, on {cov}/{ncase} cases ({cov / ncase:.0%})")
    print("total:", sum(styles.values()))


if __name__ == "__main__":
    cases, rows = main()
    w = sum(r["_whole"] for r in rows)
    print(f"whole-error phrasings: {w}/{len(rows)}; with command: {sum(r['_cmd'] for r in rows)}")
    check(cases)
    print("wrote", OUT)
