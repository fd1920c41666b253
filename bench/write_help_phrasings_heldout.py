"""Write bench/help_phrasings_heldout.jsonl: held-out observation phrasings of the help cases.

For every [[case]] in bench/help_cases/*.toml this writes (at least) five one-observation renderings of the
moment "the person ran COMMAND and saw / copied / got ERROR", each in a different source style:

  vision_caption    a screen-recording / vision-model caption of the terminal
  activity_log      an activity-tracker line, key=value or JSON-ish
  chat_message      a person's own chat / ticket message (casual, own-word typos, error quoted exactly)
  narration         ProactiveBench-style narration ("The user copies ... from the terminal")
  ci_log            an IDE problems panel / CI job log line
  shell_transcript  a `$ command` transcript followed by output lines
  markdown_fence    the error pasted in a Markdown code fence
  screen_text       OCR / accessibility-tree text scraped from the screen

The key identifying line(s) of each error (KEYS below, or the default pick) always appear verbatim, modulo
leading whitespace; the rest of the error is quoted whole, partly or not at all. The fix (a case's `expect`)
is never added unless it is literally part of the error or command: every line is checked for that.
About thirty renderings are hand-written (HANDWRITTEN); the rest come from the templates below, driven by
random.Random(SEED) so the output is reproducible.

This script was written without seeing the assistant's grounding code or the other phrasing set; it reads
only bench/help_cases/*.toml. Standard library only.

Run from the repository root:   python3 bench/write_help_phrasings_heldout.py
(add --check to validate the existing output without rewriting it)
"""
import glob
import json
import os
import random
import re
import sys
import tomllib

SEED = 20250611
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES_DIR = os.path.join(ROOT, "bench", "help_cases")
OUT = os.path.join(ROOT, "bench", "help_phrasings_heldout.jsonl")
STYLES = ["vision_caption", "activity_log", "chat_message", "narration", "ci_log",
          "shell_transcript", "markdown_fence", "screen_text"]
PER_CASE = 5

# Key identifying line(s) per case, where the default pick (below) is not the identifying part.
# Each item is a whole line (leading whitespace dropped) or, for lines wrapped in gutter art, a fragment of one.
KEYS = {
    ("c_builds.toml", 3): ["stats.c:(.text+0x35): undefined reference to `sqrt'"],
    ("c_builds.toml", 4): ["tls_client.c:(.text+0x9): undefined reference to `TLS_client_method'"],
    ("c_builds.toml", 5): ["/usr/bin/ld: cannot find -lpcap: No such file or directory"],
    ("c_builds.toml", 9): ["CMake Error at CMakeLists.txt:3 (find_package):",
                           'Could not find a package configuration file provided by "SDL2" with any of'],
    ("c_builds.toml", 10): ["Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR)"],
    ("c_builds.toml", 11): ["make: cc: No such file or directory"],
    ("databases.toml", 8): ["ERROR 1049 (42000): Unknown database 'shop'"],
    ("go.toml", 3): ["go: go.mod file not found in current directory or any parent directory.",
                     "'go get' is no longer supported outside a module."],
    ("java.toml", 0): ["Inventory.java:3: error: cannot find symbol", "symbol:   class ArrayList"],
    ("java.toml", 1): ["Error: Could not find or load main class App",
                       "Caused by: java.lang.NoClassDefFoundError: App (wrong name: com/acme/App)"],
    ("java.toml", 6): ["[ERROR] Source option 5 is no longer supported. Use 7 or later."],
    ("kubernetes.toml", 0): ["The connection to the server localhost:8080 was refused - did you specify the right host or port?"],
    ("kubernetes.toml", 3): ["worker-7c9d8b6f4-lq2zn   0/1     CrashLoopBackOff   5 (41s ago)   4m2s"],
    ("kubernetes.toml", 4): ["Reason:       OOMKilled", "Exit Code:    137"],
    ("kubernetes.toml", 8): ["Unable to connect to the server: dial tcp 192.168.49.2:8443: connect: no route to host"],
    ("node.toml", 2): ["Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/home/dev/calc/utils' imported from /home/dev/calc/index.js",
                       'Did you mean to import "./utils.js"?'],
    ("node.toml", 7): ["npm error 404 Not Found - GET https://registry.npmjs.org/@type%2fnode"],
    ("python.toml", 26): ["error: externally-managed-environment", "× This environment is externally managed"],
    ("python.toml", 27): ["npm ERR! ERESOLVE unable to resolve dependency tree",
                          'npm ERR! peer react@"^16.8.0 || ^17.0.0" from react-beautiful-dnd@13.1.1'],
    ("python.toml", 34): ["The virtual environment was not created successfully because ensurepip is not",
                          "available.  On Debian/Ubuntu systems, you need to install the python3-venv"],
    ("ruby.toml", 2): ["ERROR:  While executing gem ... (Gem::FilePermissionError)",
                       "You don't have write permissions for the /var/lib/gems/3.1.0 directory."],
    ("ruby.toml", 3): ["Your user account isn't allowed to install to the system RubyGems."],
    ("ruby.toml", 4): ["Could not find compatible versions",
                       "Your bundle requires a different version of Bundler than the one you're running."],
    ("ruby.toml", 5): ["tzinfo ~> 1.2", "The bundle currently has tzinfo locked at 2.0.2."],
    ("ruby.toml", 7): ["Gem::Ext::BuildError: ERROR: Failed to build gem native extension.",
                       "Can't find the 'libpq-fe.h header"],
    ("ruby.toml", 8): ["*** Following extensions are not compiled:", "psych:",
                       "Could not be configured. It will not be installed."],
    ("rust.toml", 3): ["error[E0308]: mismatched types", 'let u = User { name: "ana" };',
                       "expected `String`, found `&str`"],
    ("rust.toml", 6): ["error: failed to run custom build command for `openssl-sys v0.9.108`",
                       "Could not find openssl via pkg-config:"],
    ("rust.toml", 7): ["package `icu_normalizer_data v2.0.0` cannot be built because it requires rustc 1.82 or newer, while the currently active rustc version is 1.75.0"],
    ("shell.toml", 0): ["! [rejected]        main -> main (fetch first)",
                        "error: failed to push some refs to 'github.com:ana/site.git'"],
    ("shell.toml", 1): ["! [rejected]        feature -> feature (non-fast-forward)",
                        "error: failed to push some refs to 'https://github.com/ana/site.git'"],
    ("shell.toml", 3): ["Your branch is behind 'origin/main' by 3 commits, and can be fast-forwarded."],
    ("shell.toml", 5): ["error: Your local changes to the following files would be overwritten by merge:", "src/app.py"],
    ("shell.toml", 7): ["CONFLICT (content): Merge conflict in src/app.py",
                        "Automatic merge failed; fix conflicts and then commit the result."],
    ("shell.toml", 8): ["Note: switching to 'a1b2c3d'.", "You are in 'detached HEAD' state."],
    ("shell.toml", 11): ["Author identity unknown",
                         "fatal: unable to auto-detect email address (got 'ana@laptop.(none)')"],
    ("shell.toml", 14): ["remote: Support for password authentication was removed on August 13, 2021.",
                         "fatal: Authentication failed for 'https://github.com/ana/site.git/'"],
    ("shell.toml", 17): ["git@github.com: Permission denied (publickey)."],
    ("shell.toml", 18): ["WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!", "Host key verification failed."],
    ("shell.toml", 36): ["Warning: you are leaving 2 commits behind, not connected to", "9be41f0 tidy imports"],
    ("ssh.toml", 0): ["WARNING: UNPROTECTED PRIVATE KEY FILE!",
                      "Permissions 0644 for '/home/dev/.ssh/deploy_key' are too open."],
    ("ssh.toml", 1): ["WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!",
                      "Host key for [git.example.com]:2222 has changed and you have requested strict checking."],
    ("ssh.toml", 2): ["No ED25519 host key is known for ci-runner.example.com and you have requested strict checking."],
    ("systemd.toml", 1): ["Nov 29 15:57:41 srv1 systemd[4007]: ledger.service: Failed at step EXEC spawning /opt/ledger/run.sh: Permission denied"],
    ("systemd.toml", 2): ["Job for nginx.service failed because the control process exited with error code.",
                          'nginx: [emerg] unknown directive "server_nme" in /etc/nginx/sites-enabled/blog:4'],
    ("tls.toml", 0): ["curl: (60) SSL certificate problem: self-signed certificate in certificate chain"],
    ("tls.toml", 1): ["verify error:num=20:unable to get local issuer certificate",
                      "verify error:num=21:unable to verify the first certificate"],
    ("tls.toml", 4): ["TypeError: fetch failed", "[cause]: Error: self-signed certificate in certificate chain"],
    ("tls.toml", 5): ["curl: (60) SSL: no alternative certificate subject name matches target host name '10.0.0.5'"],
}
# Python cases whose identifying part includes the innermost user frame (file, line and source line).
PY_FRAME = {13, 16, 17, 18, 19, 20, 21, 23, 24, 35, 36, 37, 38, 39, 40}

_PAT = [(r"fatal error:", 9), (r"^error\[E\d+\]", 9), (r"error TS\d+", 9), (r"^\w+(\.\w+)*(Error|Exception)(:| \[)", 8),
        (r"^(fatal|error|ERROR|E):", 7), (r"^\w[\w.-]*: error:", 7), (r"Error", 5), (r"error", 4),
        (r"(denied|not found|No such file|refused|cannot|Cannot|Could not|Unable|unknown|invalid|Failed|failed"
         r"|no space|not allowed|does not exist)", 3)]


def default_keys(err):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    if lines[0].startswith("Traceback") or re.match(r'\s*File "', lines[0]):
        return [lines[-1].strip()]
    best, score = None, -1
    for ln in lines:
        s = ln.strip()
        sc = max([w for p, w in _PAT if re.search(p, s)] + [0])
        if sc > score:
            best, score = s, sc
    return [best]


def python_frame(err):
    """The innermost frame outside /usr/lib: its File line and its source line (stripped)."""
    lines = err.splitlines()
    idx = [i for i, ln in enumerate(lines) if ln.strip().startswith('File "') and "/usr/lib/" not in ln]
    i = idx[-1]
    out = [lines[i].strip()]
    if i + 1 < len(lines) and not re.match(r"^\s*[~^ ]+$", lines[i + 1]) and lines[i + 1].strip() != lines[-1].strip():
        out.append(lines[i + 1].strip())
    return out


def load_cases():
    cases = []
    for path in sorted(glob.glob(os.path.join(CASES_DIR, "*.toml"))):
        fname = os.path.basename(path)
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for i, c in enumerate(data.get("case", [])):
            keys = KEYS.get((fname, i)) or default_keys(c["error"])
            if fname == "python.toml" and i in PY_FRAME:
                keys = python_frame(c["error"]) + keys
            cases.append({"file": fname, "case": i, "error": c["error"], "command": c.get("command"),
                          "expect": c.get("expect", []), "keys": keys})
    return cases


# ---------------------------------------------------------------- excerpts

def nonempty(err):
    return [ln.rstrip() for ln in err.splitlines() if ln.strip()]


def key_line_indices(c):
    lines = nonempty(c["error"])
    out = []
    for k in c["keys"]:
        for i, ln in enumerate(lines):
            if k in ln and i not in out:
                out.append(i)
                break
    return sorted(out)


def excerpt(c, rng, multiline, mode=None):
    """Lines of the error to quote. multiline: keep indentation (transcripts, fences)."""
    lines = nonempty(c["error"])
    kidx = key_line_indices(c)
    limit = 22 if multiline else 5
    modes = ["key", "key", "first_key", "context"]
    if len(lines) <= limit:
        modes += ["whole", "whole"]
    mode = mode or rng.choice(modes)
    if mode == "key":
        # whole key lines, or the bare fragment for lines wrapped in gutter art
        out = []
        for k in c["keys"]:
            full = next((ln for ln in lines if k in ln), k)
            frag = full.strip()
            if frag != k and (frag.startswith(("@", "|", "-->")) or re.match(r"^\d+ \|", frag) or
                              re.match(r"^\w{3} \d+ [\d:]+ ", frag) or len(frag) > len(k) + 25):
                frag = k
            if frag not in out:
                out.append(frag)
        return out if not multiline else out
    if mode == "first_key":
        idx = sorted(set([0] + kidx))
    elif mode == "context":
        idx = sorted(set(j for i in kidx for j in (i - 1, i, i + 1) if 0 <= j < len(lines)))
    else:
        idx = list(range(len(lines)))
    out, prev = [], None
    for i in idx:
        if prev is not None and i != prev + 1 and multiline:
            out.append("...")
        out.append(lines[i] if multiline else lines[i].strip())
        prev = i
    return out


SEPS = [" ", " | ", " / ", " ⏎ ", " … ", "; ", " ↵ "]
QUOTES = [('"', '"'), ("'", "'"), ("`", "`"), ("“", "”"), ("‘", "’"), ("«", "»"), ("« ", " »"), ("", ""),
          ('"', '"'), ("'", "'")]


def joined(c, rng, mode=None):
    ex = excerpt(c, rng, False, mode)
    return rng.choice(SEPS).join(ex) if len(ex) > 1 else ex[0]


def q(rng, s, avoid=None):
    for _ in range(10):
        a, b = rng.choice(QUOTES)
        if avoid is None or a not in avoid:
            break
    return f"{a}{s}{b}"


APPS = ["the Terminal", "GNOME Terminal", "Konsole", "iTerm2", "Windows Terminal (WSL: Ubuntu)",
        "the VS Code integrated terminal", "a tmux pane", "kitty", "Alacritty", "xterm", "Tilix",
        "the terminal panel in VS Code", "Terminator", "a tmux window inside GNOME Terminal", "WezTerm"]
APP_IDS = ["gnome-terminal-server", "konsole", "iTerm2", "WindowsTerminal.exe", "code", "tmux", "kitty",
           "alacritty", "xterm", "tilix", "wezterm-gui"]
HOSTS = ["dev@laptop", "ana@thinkpad", "dev@buildbox", "ana@wsl", "dev@ubuntu-vm", "me@desk"]
TYPO_OPENERS = ["hey", "hi all", "hiya", "yo", "hello", "ok so", "quick q", "sorry to bug you"]


def cwd_of(c):
    m = re.search(r"/home/(\w+)/([\w.-]+)", c["error"] + " " + (c["command"] or ""))
    return f"~/{m.group(2)}" if m else rng_choice_static(["~", "~/proj", "~/src", "~/work"], c)


def rng_choice_static(seq, c):
    return seq[(c["case"] * 7 + len(c["file"])) % len(seq)]


def cmdq(rng, cmd):
    return q(rng, cmd, avoid=["'"] if "'" in cmd else None)


def ts(rng):
    return f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def clock(rng):
    return f"{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


# ---------------------------------------------------------------- styles

def vision_caption(c, rng):
    app, cmd = rng.choice(APPS), c["command"]
    ex = joined(c, rng)
    name_cmd = cmd and rng.random() < 0.75
    opts = []
    if name_cmd:
        opts += [
            f"The screenshot shows {app} where the command {cmdq(rng, cmd)} has just been run; the output reads {q(rng, ex)}.",
            f"Screen recording frame: {app} is in focus, the last prompt line is {cmdq(rng, cmd)} and below it the text {q(rng, ex)} is printed in red.",
            f"The image shows a terminal ({app}) with {cmdq(rng, cmd)} typed at the prompt, followed by the message {q(rng, ex)}.",
            f"A {rng.choice(['dark-themed', 'light', 'maximised', 'split'])} terminal window is visible. After {cmdq(rng, cmd)} it displays {q(rng, ex)}, and the cursor sits on a new prompt.",
            f"Caption: user at a terminal in {app}; command {cmdq(rng, cmd)}; visible output {q(rng, ex)}.",
        ]
    opts += [
        f"The screenshot shows {app} with several lines of output; the last visible lines say {q(rng, ex)}.",
        f"In the captured frame, {app} displays {q(rng, ex)} and the mouse pointer hovers over that text.",
        f"The screen shows a terminal in {app}; the highlighted text reads {q(rng, ex)}.",
        f"Frame {rng.randint(40, 900)}: the focused window is {app}. Output on screen: {q(rng, ex)}",
    ]
    return rng.choice(opts)


def activity_log(c, rng):
    cmd = c["command"]
    ex = joined(c, rng)
    app = rng.choice(APP_IDS)
    avoid_dq = ['"'] if '"' in ex else None
    opts = [
        f"ts={ts(rng)} app={app} action=clipboard_copy chars={len(ex)} text={q(rng, ex, avoid=avoid_dq)}",
        f'{{"time": "{ts(rng)}", "app": "{app}", "event": "text_selected", "content": {q(rng, ex)}}}',
        f"[{clock(rng)}] {app}: focus=terminal selection={q(rng, ex)}",
        f"event=paste target=chat.slack.com source={app} payload={q(rng, ex)}",
    ]
    if cmd:
        opts += [
            f"ts={ts(rng)} app={app} action=command_exit cmd={cmdq(rng, cmd)} status={rng.choice([1, 1, 2, 127, 1])} stderr_tail={q(rng, ex)}",
            f'{{"ts": "{ts(rng)}", "window": "{app}", "typed": {cmdq(rng, cmd)}, "key": "Enter", "screen_text": {q(rng, ex)}}}',
            f"[{clock(rng)}] shell={rng.choice(['bash', 'zsh', 'fish'])} cwd={cwd_of(c)} cmd={cmdq(rng, cmd)} -> nonzero exit; output: {ex}",
            f"activity: app={app} | typed {cmdq(rng, cmd)} + Enter | terminal printed {q(rng, ex)}",
        ]
    return rng.choice(opts)


OWN_TYPOS = [("the", "teh"), ("doesn't", "dosnt"), ("what's", "whats"), ("weird", "wierd"), ("please", "plz"),
             ("because", "bc"), ("really", "rly"), ("anyone", "any1"), ("I'm", "im")]


def typo(rng, s):
    # only in the person's own words, which never contain the quoted error
    for a, b in OWN_TYPOS:
        if a in s and rng.random() < 0.35:
            s = s.replace(a, b, 1)
    return s


def chat_message(c, rng):
    cmd = c["command"]
    ex = joined(c, rng)
    op = rng.choice(TYPO_OPENERS)
    C = cmdq(rng, cmd) if cmd else ""
    if cmd and rng.random() < 0.8:
        head = rng.choice([
            "{op}, I'm running {C} and it fails with",
            "{op} — whenever I do {C} I get",
            "{op}, tried {C} just now and the terminal says",
            "{op}! {C} is broken for me, it prints",
            "Subject: stuck on {C}. Body: running it gives",
            "{op}, so {C} keeps erroring out with",
            "{op}, because of a deadline I really need {C} to work but it says",
        ])
    else:
        head = rng.choice([
            "{op}, my script just died with",
            "{op}, getting this and I have no clue what's up:",
            "{op} — anyone seen this before?",
            "{op}, copy-pasting what the terminal shows:",
            "Subject: error on my machine. Body: I keep getting",
            "{op}, this is weird, the run stops with",
        ])
    # typos go into the person's own words only, before the command is filled in
    head = typo(rng, head).replace("{op}", op).replace("{C}", C)
    tail = rng.choice(["", " any idea?", " what's going on??", " it worked yesterday on my other laptop.",
                       " been staring at this for an hour", " please help", " is this something on my end?",
                       " really weird bc nothing changed", " :(", " (ubuntu, if that matters)"])
    return head + " " + q(rng, ex) + typo(rng, tail)


def narration(c, rng):
    cmd = c["command"]
    ex = joined(c, rng)
    app = rng.choice(["the terminal", "the terminal", "Visual Studio Code's terminal", "the Terminal application",
                      "Konsole", "iTerm2", "Windows Terminal"])
    opts = [
        f"The user copies the error message {q(rng, ex)} from {app}.",
        f"The user views the terminal output showing {q(rng, ex)}.",
        f"The user scrolls up in {app} and highlights the text {q(rng, ex)}.",
        f"The user selects {q(rng, ex)} in {app} and presses 'ctrl_shift_c'.",
    ]
    if cmd:
        opts += [
            f"The user types {cmdq(rng, cmd)} in {app} and presses 'Enter'; the output shows {q(rng, ex)}.",
            f"The user runs {cmdq(rng, cmd)} in {app}, which returns {q(rng, ex)}.",
            f"The user switches to {app}, executes {cmdq(rng, cmd)}, and copies the resulting error {q(rng, ex)}.",
            f"The user presses 'Enter' after typing {cmdq(rng, cmd)} and views the message {q(rng, ex)} in {app}.",
        ]
    return rng.choice(opts)


def ci_log(c, rng):
    cmd = c["command"]
    ex = joined(c, rng)
    job = rng.choice(["build", "test", "lint", "deploy", "setup", "check"])
    opts = [
        f"Build failed: {ex}",
        f"PROBLEMS  ⓧ {ex}",
        f"##[error]{ex}",
        f"Problems panel (1 error): {q(rng, ex)}",
        f"Pipeline #{rng.randint(100, 9999)} / job {job} FAILED — {ex}",
    ]
    if cmd:
        opts += [
            f"✗ job {job}: step {cmdq(rng, cmd)} exited with code 1. Log: {ex}",
            f"Task {cmdq(rng, cmd)} terminated with exit code 1. Output: {q(rng, ex)}",
            f"[{job}] $ {cmd}\n[{job}] {ex}\n[{job}] ERROR: Job failed: exit code 1",
            f"Run {cmd}\n{ex}\nError: Process completed with exit code 1.",
        ]
    return rng.choice(opts)


def shell_transcript(c, rng):
    cmd = c["command"]
    ex = excerpt(c, rng, True)
    host = rng.choice(HOSTS)
    pr = rng.choice([f"{host}:{cwd_of(c)}$ ", "$ ", "% ", f"➜  {cwd_of(c).split('/')[-1]} ", f"[{host} {cwd_of(c).split('/')[-1]}]$ ",
                     "(.venv) $ "])
    head = rng.choice(["", "", "", "Terminal transcript:\n", f"tmux pane {rng.randint(0, 4)}:\n", "shell history capture:\n"])
    body = "\n".join(ex)
    if cmd:
        s = f"{head}{pr}{cmd}\n{body}"
    else:
        s = f"{head}{body}"
    if rng.random() < 0.5:
        s += "\n" + pr.rstrip()
    return s


def markdown_fence(c, rng):
    cmd = c["command"]
    ex = "\n".join(excerpt(c, rng, True))
    lang = rng.choice(["", "", "text", "console", "shell", "bash", "log"])
    opts = [
        f"Error output:\n```{lang}\n{ex}\n```",
        f"Pasted into notes.md:\n\n```{lang}\n{ex}\n```",
    ]
    if cmd:
        opts += [
            f"Running `{cmd}` gives me:\n```{lang}\n{ex}\n```",
            f"```console\n$ {cmd}\n{ex}\n```",
            f"After `{cmd}`:\n\n```\n{ex}\n```\nThat's all it prints.",
        ]
    if "\n" not in ex and "`" not in ex:
        opts.append(f"Got ```{ex}``` in the terminal" + (f" after running `{cmd}`." if cmd else "."))
    return rng.choice(opts)


def screen_text(c, rng):
    cmd = c["command"]
    ex = joined(c, rng)
    win = rng.choice(["Terminal", "bash — 80×24", "zsh", "Ubuntu", "TERMINAL", "tmux", "Konsole"])
    opts = [
        f"OCR of active window [{win}]: ... {ex} ...",
        f"AXWindow '{win}' > AXTextArea value (last lines): {q(rng, ex)}",
        f"Screen text (region: terminal, confidence 0.{rng.randint(80, 99)}): {ex}",
        f"accessibility: role=terminal name=\"{win}\" text={q(rng, ex)}",
    ]
    if cmd:
        opts += [
            f"OCR [{win}]: {pr_sym(rng)}{cmd} {ex}",
            f"Visible text in {win}: {q(rng, cmd)} then {q(rng, ex)}",
        ]
    return rng.choice(opts)


def pr_sym(rng):
    return rng.choice(["$ ", "> ", "% ", "$ "])


GEN = {"vision_caption": vision_caption, "activity_log": activity_log, "chat_message": chat_message,
       "narration": narration, "ci_log": ci_log, "shell_transcript": shell_transcript,
       "markdown_fence": markdown_fence, "screen_text": screen_text}

# ---------------------------------------------------------------- hand-written renderings

HANDWRITTEN = [
    ("python.toml", 0, "chat_message", "lol typo city. i did python3 -c 'import numpyy' and got ModuleNotFoundError: No module named 'numpyy' — is my python install broken or what"),
    ("python.toml", 1, "narration", "The user runs 'python3 fetch.py' in the terminal and views the traceback ending in 'ModuleNotFoundError: No module named 'requests''."),
    ("python.toml", 7, "vision_caption", "The screenshot shows VS Code with app.py open and the terminal panel below it; the last line of the panel reads “ModuleNotFoundError: No module named 'tkinter'”."),
    ("python.toml", 13, "shell_transcript", "dev@laptop:~$ python3 t.py\nTraceback (most recent call last):\n  File \"/home/dev/t.py\", line 1, in <module>\n    pritn(\"hello\")\n    ^^^^^\nNameError: name 'pritn' is not defined. Did you mean: 'print'?"),
    ("python.toml", 16, "chat_message", "why does this not work?? File \"/home/dev/age.py\", line 2, in <module> — print(\"Next year you will be \" + age + 1) — and python says TypeError: can only concatenate str (not \"int\") to str"),
    ("python.toml", 22, "activity_log", "ts=2025-03-02T10:11:09 app=code action=terminal_output text='FileNotFoundError: [Errno 2] No such file or directory: 'data.csv''"),
    ("python.toml", 26, "markdown_fence", "pip refuses to do anything:\n```\n$ pip install requests\nerror: externally-managed-environment\n\n× This environment is externally managed\n```"),
    ("python.toml", 44, "ci_log", "Step 3/7 : RUN pip install sklearn\nERROR: Could not find a version that satisfies the requirement sklearn (from versions: none)"),
    ("python.toml", 47, "narration", "The user types 'npm start' in the terminal, presses 'Enter', and views the output 'npm ERR! Missing script: \"start\"'."),
    ("c_builds.toml", 0, "ci_log", "gcc: tls_client.c:1:10: fatal error: openssl/ssl.h: No such file or directory — compilation terminated."),
    ("c_builds.toml", 3, "chat_message", "my tiny C program wont link. gcc stats.c -o stats -> stats.c:(.text+0x35): undefined reference to `sqrt' ... but I included math.h??"),
    ("c_builds.toml", 6, "vision_caption", "The frame shows a Makefile open in gedit next to a terminal in which make has printed ‘Makefile:4: *** missing separator (did you mean TAB instead of 8 spaces?).  Stop.’"),
    ("databases.toml", 0, "narration", "The user runs 'psql' in the terminal and sees 'psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: No such file or directory'."),
    ("databases.toml", 6, "chat_message", "typed my password right, i think? mysql -u root -p → ERROR 1698 (28000): Access denied for user 'root'@'localhost'"),
    ("docker.toml", 2, "screen_text", "OCR [Windows Terminal — Ubuntu]: docker: Error response from daemon: failed to set up container networking: driver failed programming external connectivity on endpoint web (5493922010cb7348aa77777e5a9a06b6baa10955e8b0994218676a74f7a1a1e1): Bind for 0.0.0.0:8080 failed: port is already allocated"),
    ("docker.toml", 4, "narration", "The user types 'docker run -d -p 80:80 ngnix' and presses 'Enter'; the terminal shows 'Unable to find image 'ngnix:latest' locally' followed by 'docker: Error response from daemon: pull access denied for ngnix, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.'"),
    ("go.toml", 6, "markdown_fence", "`go run .` crashes immediately:\n```\npanic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.main()\n\t/home/dev/wordcount/main.go:12 +0x8c\n```"),
    ("java.toml", 5, "activity_log", "{\"ts\": \"2025-05-19T08:44:10\", \"app\": \"konsole\", \"typed\": \"./gradlew build\", \"output\": \"bash: ./gradlew: Permission denied\"}"),
    ("kubernetes.toml", 3, "vision_caption", "The screenshot shows a tmux session where kubectl get pods -n jobs lists one row: worker-7c9d8b6f4-lq2zn   0/1     CrashLoopBackOff   5 (41s ago)   4m2s"),
    ("kubernetes.toml", 5, "ci_log", "deploy job failed: Error from server (Forbidden): pods is forbidden: User \"system:serviceaccount:ci:deployer\" cannot list resource \"pods\" in API group \"\" in the namespace \"shop\""),
    ("node.toml", 0, "chat_message", "fresh clone, ran node server.js and boom: «Error: Cannot find module 'express'». the file is right there though??"),
    ("node.toml", 8, "narration", "The user copies 'Error: error:0308010C:digital envelope routines::unsupported' from the output of 'npm run build' in Visual Studio Code's terminal."),
    ("ruby.toml", 6, "screen_text", "AXTextArea (iTerm2): “$ bundle install” / “Your Ruby version is 3.0.2, but your Gemfile specified 3.2.2”"),
    ("rust.toml", 1, "markdown_fence", "```\nerror[E0382]: borrow of moved value: `items`\n --> src/main.rs:4:26\n```\nfrom `cargo run`, no idea what moved where"),
    ("rust.toml", 5, "vision_caption", "A WSL Ubuntu terminal is shown; cargo build stops after “Compiling hello v0.1.0 (/home/dev/hello)” with “error: linker `cc` not found”."),
    ("shell.toml", 9, "chat_message", "um. git status in my new folder just says fatal: not a git repository (or any of the parent directories): .git"),
    ("shell.toml", 23, "narration", "The user runs './deploy.sh' in the terminal and views the error 'bash: ./deploy.sh: /bin/bash^M: bad interpreter: No such file or directory'."),
    ("shell.toml", 28, "shell_transcript", "ana@thinkpad:~$ echo \"hello world!\"\nbash: !\": event not found\nana@thinkpad:~$"),
    ("shell.toml", 32, "activity_log", "[09:12:44] app=gnome-terminal shell=bash typed='gti status' key=Enter output='bash: gti: command not found'"),
    ("ssh.toml", 6, "chat_message", "can't get into my raspberry pi anymore: ssh pi@192.168.1.50 gives ssh: connect to host 192.168.1.50 port 22: Connection refused. it pings fine"),
    ("systemd.toml", 4, "ci_log", "ansible TASK [start hostapd] fatal: Failed to start hostapd.service: Unit hostapd.service is masked."),
    ("tls.toml", 6, "narration", "The user views the terminal output of 'openssl verify' showing 'error 10 at 0 depth lookup: certificate has expired'."),
]

# ---------------------------------------------------------------- checks


def leaks(c, text):
    hay = (c["error"] + "\n" + (c["command"] or "")).lower()
    return [e for e in c["expect"] if e.lower() in text.lower() and e.lower() not in hay]


def missing_keys(c, text):
    flat = text
    return [k for k in c["keys"] if k.strip() not in flat]


def validate(cases, rows):
    errors = []
    by = {}
    for r in rows:
        by.setdefault((r["file"], r["case"]), []).append(r)
    for c in cases:
        got = by.get((c["file"], c["case"]), [])
        if len(got) < PER_CASE:
            errors.append(f"{c['file']}#{c['case']}: only {len(got)} lines")
        if len({r['style'] for r in got}) < 4:
            errors.append(f"{c['file']}#{c['case']}: fewer than 4 styles")
        for r in got:
            if missing_keys(c, r["text"]):
                errors.append(f"{c['file']}#{c['case']} [{r['style']}]: key missing {missing_keys(c, r['text'])}")
            if leaks(c, r["text"]):
                errors.append(f"{c['file']}#{c['case']} [{r['style']}]: leaks {leaks(c, r['text'])}")
    for c in cases:
        for k in c["keys"]:
            if k not in c["error"]:
                errors.append(f"{c['file']}#{c['case']}: key not in error: {k!r}")
    return errors


def generate(cases):
    rng = random.Random(SEED)
    hand = {}
    for f, i, style, text in HANDWRITTEN:
        hand.setdefault((f, i), []).append((style, text))
    rows = []
    for c in cases:
        mine = [{"file": c["file"], "case": c["case"], "style": s, "text": t} for s, t in hand.get((c["file"], c["case"]), [])]
        used = {r["style"] for r in mine}
        pool = [s for s in STYLES if s not in used]
        rng.shuffle(pool)
        for style in pool[:PER_CASE - len(mine)]:
            for _ in range(50):
                text = GEN[style](c, rng)
                if not leaks(c, text) and not missing_keys(c, text):
                    break
            else:
                raise SystemExit(f"could not render {c['file']}#{c['case']} as {style}")
            mine.append({"file": c["file"], "case": c["case"], "style": style, "text": text})
        rows.extend(mine)
    return rows


def main():
    cases = load_cases()
    if "--check" in sys.argv:
        with open(OUT, encoding="utf-8") as fh:
            rows = [json.loads(ln) for ln in fh]
    else:
        rows = generate(cases)
    errs = validate(cases, rows)
    if errs:
        print("\n".join(errs))
        raise SystemExit(f"{len(errs)} problems")
    if "--check" not in sys.argv:
        with open(OUT, "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    counts = {}
    for r in rows:
        counts[r["style"]] = counts.get(r["style"], 0) + 1
    print(f"{len(rows)} lines, {len({(r['file'], r['case']) for r in rows})} cases; styles: {counts}")


if __name__ == "__main__":
    main()
