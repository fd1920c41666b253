#!/usr/bin/env python3
# ruff: noqa: E741, F541, UP031, B905, UP032, B007, UP017  (a generated-data script kept as its blind writer wrote it)
"""Write bench/help_phrasings_seventeenth.jsonl: a blind set of tool-rendered observations.

Every `[[case]]` of bench/help_cases/*.toml (files sorted by name) and then of
bench/help_heldout/set*.toml (sorted by name) gets exactly two rows, in case
order, in two different styles.  Each row is an observation of somebody
hitting that case's error after running (or trying to run) its command, as
one of the tools below really shows, logs or relays it.  When a case has no
command, the writer infers one from the traceback path (the tools need one).

Styles (sixteen; all are tools that run a command and render what it printed):

  tmux_split_panes        `tmux capture-pane -p`-like copy of a window split side
                          by side (editor / other shell on the left, failing
                          command on the right, columns joined by a `│` border,
                          long lines cut or wrapped at the pane width) with the
                          tmux status line at the bottom.
  gnu_screen_hardcopy     GNU screen `hardcopy -h` file: scrollback, prompts, lines
                          padded with spaces to the window width (80 mostly),
                          wrapped at the width, tabs expanded, sometimes
                          non-ASCII mangled to `?`, a hardstatus/caption line.
  vscode_output_channel   VS Code task terminal (` *  Executing task: ...`), Code
                          Runner (`[Running] ... [Done] exited with code=1`),
                          language-client channels (`[Error - 10:02:12 AM]`) and
                          LogOutputChannel (`2025-03-04 10:02:11.482 [error]`)
                          relaying the command's stderr.
  termux_session          a Termux session copied from the phone: `~ $` prompts,
                          $PREFIX paths, the welcome banner, native runs, ssh
                          from the phone into a box, or proot-distro logins.
  bracketed_paste_keylog  keystroke-logger records: typed keys with `<Enter>`,
                          `<BS>`, pasted text between `^[[200~` and `^[[201~`,
                          then the terminal's reply; also `script -I/-O` logs
                          seen through `cat -v` and asciinema casts with stdin.
  emacs_eshell_vterm      Emacs buffers copied as text: eshell (`~/proj $`), vterm,
                          `M-x shell` (job-control warnings, `^M`, `^[[?2004h`),
                          `M-x compile` (*compilation*), each with a mode line.
  gitea_actions_log       Gitea / Forgejo Actions job logs (act_runner): raw
                          downloads with 7-digit `Z` timestamps, `⭐ Run Main`,
                          `❌  Failure - Main`, `exitcode '1': failure`, UI copies
                          with line numbers, workflow excerpts.
  woodpecker_drone_ci     Woodpecker / Drone step logs copied from the web UI with
                          line numbers (`+ command` lines, `exit code 1`), pipeline
                          YAML excerpts, `drone exec` and `woodpecker-cli exec`.
  nomad_alloc_logs        HashiCorp Nomad: job-file HCL excerpt (command/args,
                          HCL escaping), `nomad job run`, `nomad alloc status`
                          events and `nomad alloc logs -stderr`, or UI copies.
  supervisord_log         supervisord: program config, supervisord.log lines
                          (`spawned:`, `exited: ... (exit status 1; not expected)`,
                          `gave up: ... FATAL`), the program's stderr logfile
                          (repeated per retry), `supervisorctl tail` (1600-byte cut).
  pm2_logs                `pm2 start` + `pm2 logs`: `0|api      | ` prefixes,
                          `PM2        | ... App [api:0] exited with code [1] via
                          signal [SIGINT]`, TAILING headers, status tables.
  tilt_skaffold_dev       Tilt (`local_resource`, `Running cmd:`, `name │ line` or
                          `[name] line`, `Build Failed:`) and Skaffold dev loops
                          (hooks, custom builds, `[pod container] line`).
  bazel_wrapped           Bazel wrapping a genrule / sh_binary / sh_test: `INFO:
                          Analyzed target`, `ERROR: .../BUILD:12:8: Executing
                          genrule ... failed: (Exit 1)`, stderr, test.log excerpts,
                          `--verbose_failures` command blocks.
  rundeck_awx_job         Rundeck log-output copies (time/node/step columns,
                          `Failed: NonZeroResultCode: ...`) and AWX / Ansible job
                          output (`fatal: [web01]: FAILED! => {...}` JSON-escaped,
                          or the YAML result format), with line numbers sometimes.
  podman_kube_play        `podman kube play` with the pod YAML, `podman logs
                          --names`, `name | line` or `[name] line` prefixes,
                          `podman ps -a` tables, exit lines.
  dagger_earthly_log      Earthly (`+target | line`, `*failed*`, `Repeating the
                          failure error...`) and Dagger output (`┃ ` bars,
                          `✘ exec <cmd> ERROR [0.4s]`, Stdout/Stderr sections).

A minority of rows start with a one-sentence observation ("The user copies ...")
in the tone of ProactiveBench before the capture.

Output: bench/help_phrasings_seventeenth.jsonl, one JSON object per line:
    {"file": "python.toml", "case": 0, "style": "<style>", "text": "<text>"}
`file` is the TOML file's base name, `case` the 0-based index of the table in
that file.  Two rows per case (1362 rows for 681 cases), in case order.

Determinism: styles are dealt from shuffled decks of the 16 styles
(random.Random("seventeenth-style-deck")), two cards per case, so per-style
counts differ by at most one and the two rows of a case never share a style.
Every row's details (names, paths, hosts, times, layout) come from its own
random.Random seeded with "seventeenth|<file>|<case>|<slot>|<style>"; a rerun
gives byte-identical output.  Only the standard library is used (Python 3.11).

Blind writing: the writer read only the `error` and `command` keys of the
`[[case]]` tables in bench/help_cases/*.toml and bench/help_heldout/set*.toml
(loaded with tomllib), and, for tone, two ProactiveBench session files
(/work/shared/data/proactivebench/sessions/code_11.json and writing_13.json).
No other file of the project (code, tests, docs, other bench files or
phrasing sets, git history) was opened, no project code or benchmark was run,
and the scoring was not asked about.  Public reference material was used only
to check what the real tool formats look like.
"""

import datetime as dt
import glob
import json
import os
import random
import re
import shlex
import tomllib
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "help_phrasings_seventeenth.jsonl")

STYLES = [
    "tmux_split_panes",
    "gnu_screen_hardcopy",
    "vscode_output_channel",
    "termux_session",
    "bracketed_paste_keylog",
    "emacs_eshell_vterm",
    "gitea_actions_log",
    "woodpecker_drone_ci",
    "nomad_alloc_logs",
    "supervisord_log",
    "pm2_logs",
    "tilt_skaffold_dev",
    "bazel_wrapped",
    "rundeck_awx_job",
    "podman_kube_play",
    "dagger_earthly_log",
]

# ---------------------------------------------------------------------------
# loading
# ---------------------------------------------------------------------------


def load_cases():
    cases = []
    for pattern in ("help_cases/*.toml", "help_heldout/set*.toml"):
        for path in sorted(glob.glob(os.path.join(HERE, pattern))):
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
            for idx, case in enumerate(data.get("case", [])):
                cases.append((os.path.basename(path), idx, case.get("command"), case.get("error", "")))
    return cases


# ---------------------------------------------------------------------------
# text geometry
# ---------------------------------------------------------------------------


def cwidth(ch):
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def dwidth(s):
    return sum(cwidth(c) for c in s)


def wrap_cols(line, width):
    if line == "":
        return [""]
    out, cur, w = [], "", 0
    for ch in line:
        c = cwidth(ch)
        if w + c > width:
            out.append(cur)
            cur, w = "", 0
        cur += ch
        w += c
    out.append(cur)
    return out


def cut_cols(line, width):
    cur, w = "", 0
    for ch in line:
        c = cwidth(ch)
        if w + c > width:
            break
        cur += ch
        w += c
    return cur


def pad_cols(s, width):
    return s + " " * max(0, width - dwidth(s))


def expand(line):
    return line.expandtabs(8)


def caret(s):
    """Render control characters the way a terminal viewer shows them."""
    out = []
    for ch in s:
        o = ord(ch)
        if o == 27:
            out.append("^[")
        elif o == 127:
            out.append("^?")
        elif o < 32 and ch not in "\t\n":
            out.append("^" + chr(o + 64))
        else:
            out.append(ch)
    return "".join(out)


def cat_v(s):
    """What `cat -v` prints for a string (UTF-8 bytes above 127 as M- notation)."""
    out = []
    for b in s.encode("utf-8"):
        pre = ""
        if b >= 128:
            pre = "M-"
            b -= 128
        if b == 127:
            out.append(pre + "^?")
        elif b < 32 and b not in (9, 10):
            out.append(pre + "^" + chr(b + 64))
        else:
            out.append(pre + chr(b))
    return "".join(out)


def ascii_mangle(s):
    return "".join(ch if ord(ch) < 128 else "?" for ch in s)


# ---------------------------------------------------------------------------
# pools
# ---------------------------------------------------------------------------

USERS = ["dev", "ana", "sam", "maria", "lee", "priya", "tom", "jo", "kai", "nina", "omar", "ines", "felix", "rui"]
HOSTS = ["devbox", "thinkpad", "x1", "nuc", "buildbox", "ws-07", "laptop", "mint", "fedora", "pop-os",
         "workstation", "carbon", "zenbook", "precision", "tower", "optiplex", "framework", "t480"]
PROJ_POOL = ["app", "proj", "site", "tools", "notes", "api", "scripts", "work", "svc", "demo", "backend", "infra"]
NODES = ["web01", "web-02", "app1", "build-01", "worker-3", "srv1", "db01", "ops-runner", "localhost", "edge-1"]
BRANCHES = ["main", "main", "master", "dev", "feature/login", "fix/ci", "wip"]
COMMIT_MSGS = ["tidy up logging", "bump deps", "move config to env vars", "fix typo in README", "add healthcheck",
               "refactor parser", "wip", "split handlers", "update lockfile", "first pass at caching",
               "rename helpers", "docs: usage section", "drop unused imports", "ci: cache deps",
               "add retries to client", "format", "merge branch 'dev'", "initial import"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid4(rng):
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:32]}"


def slug(s):
    s = re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
    return s or "app"


# ---------------------------------------------------------------------------
# case context
# ---------------------------------------------------------------------------

SCRIPT_EXT = (".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".rb", ".java", ".go", ".jar", ".c", ".cpp", ".pl")
SKIP_TOOLS = {"sudo", "env", "time", "nice", "exec"}
SHELL_META = re.compile(r"[|&;<>()`*?~]|\$\(|\$\{|^\s*[A-Za-z_][A-Za-z0-9_]*=")


def needs_shell(cmd):
    return bool(SHELL_META.search(cmd)) or cmd.startswith("cd ")


def split_cmd(cmd):
    try:
        return shlex.split(cmd)
    except ValueError:
        return cmd.split()


def argv_for(cmd):
    if needs_shell(cmd):
        return ["/bin/sh", "-c", cmd]
    return split_cmd(cmd)


def tool_of(cmd):
    toks = split_cmd(cmd)
    i = 0
    while i < len(toks):
        t = toks[i]
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", t) or t in SKIP_TOOLS:
            i += 1
            continue
        if t == "cd" and i + 2 < len(toks) and toks[i + 2] in ("&&", ";"):
            i += 3
            continue
        return t
    return toks[0] if toks else ""


ERR_WORDS = re.compile(r"error|fatal|denied|not found|failed|exception|refused|no such|cannot|unable|invalid|"
                       r"aborting|stop\.|traceback|panic|unknown|missing|warning", re.I)


def guess_exit(cmd, err):
    c = cmd or ""
    lines = [l for l in err.rstrip("\n").split("\n")]
    first = lines[0] if lines else ""
    nonblank = [l for l in lines if l.strip()]
    last = nonblank[-1] if nonblank else ""
    t = tool_of(c) if c else "python3"
    low = err.lower()
    if c.startswith(("kubectl get", "kubectl describe")) and not re.search(r"error|refused|unable|forbidden", low):
        return 0
    if c.startswith("journalctl") or " journalctl " in c or "; journalctl" in c:
        return 0
    if c.startswith(("git status", "git switch", "git checkout")) and not re.search(r"error|fatal|aborting", low):
        return 0
    if c.startswith("openssl s_client"):
        return 0
    if first.startswith("Warning: The unit file"):
        return 0
    if re.search(r"(^|\s)(sh|bash)\s+\S+\.sh|^\./\S+\.sh", c) and not ERR_WORDS.search(last) and \
            not re.search(r"permission denied|bad interpreter|required file", low):
        return 0
    if c.startswith("systemctl status") or c.startswith("sudo systemctl status"):
        return 3
    if "command not found" in first or first.endswith(": not found") and first.startswith(("bash", "sh", "zsh")):
        return 127
    if "required file not found" in first:
        return 127
    if "bad interpreter" in first:
        return 126
    if re.match(r"^(bash|zsh|sh): \./\S+: Permission denied", first):
        return 126
    if last.strip() == "Aborted":
        return 134
    if last.strip() == "Killed":
        return 137
    m = re.search(r"curl: \((\d+)\)", err)
    if m:
        return int(m.group(1))
    m = re.search(r"rsync error: .*\(code (\d+)\)", err)
    if m:
        return int(m.group(1))
    if t == "cargo" and "error" in low:
        return 101
    if re.search(r"^(g?make)(\[\d+\])?: \*\*\*", err, re.M) and t in ("make", "gmake", "cmake"):
        return 2
    if t == "make" and "*** " in err:
        return 2
    if "tsc" in c and "error TS" in err:
        return 2
    if t == "jq":
        return 2 if "parse error" in err else 5
    if t in ("ssh",) and not c.startswith("ssh-"):
        return 255
    if t == "git" and "fatal:" in err:
        return 128
    if t in ("apt", "apt-get") or first.startswith("E: ") or "\nE: " in err:
        return 100
    if t == "docker" and ("docker: Error response from daemon" in err) and " run" in c:
        return 125
    if t == "psql" and "psql: error: connection" in err:
        return 2
    if t == "openssl" and "verify" in c:
        return 2
    if t == "ssh-add":
        return 2
    if "Unit " in err and "not found" in err and "systemctl" in c:
        return 5
    m = re.search(r"^exit status (\d+)$", last)
    if m and not c.startswith("go run"):
        return int(m.group(1))
    return 1


def infer_command(err, rng):
    m = re.search(r'File "(/home/[^"]+\.py)"', err)
    if not m:
        return "python3 main.py", None
    path = m.group(1)
    d, base = os.path.split(path)
    home = "/".join(path.split("/")[:3])
    rel_dir = os.path.relpath(d, home)
    cwd = "~" if rel_dir == "." else "~/" + rel_dir
    r = rng.random()
    if r < 0.55:
        return f"python3 {base}", cwd
    if r < 0.75:
        return f"python3 {path}", "~"
    if r < 0.9:
        return f"python {base}", cwd
    return f"python3 -u {base}", cwd


class Ctx:
    pass


def derive_ctx(fname, idx, command, err, rng):
    c = Ctx()
    c.file, c.idx, c.orig_cmd, c.err = fname, idx, command, err
    c.lines = err.rstrip("\n").split("\n")
    blob = (command or "") + "\n" + err
    c.mac = "/Users/" in blob or "/Library/Frameworks/" in blob
    m = re.search(r"/(?:home|Users)/([a-z][a-z0-9_-]*)/", blob)
    m2 = re.search(r"got '([a-z][a-z0-9_-]*)@([A-Za-z0-9_-]+)\.\(none\)'", err)
    if m:
        c.user = m.group(1)
    elif m2:
        c.user = m2.group(1)
    else:
        c.user = rng.choice(USERS)
    c.home = ("/Users/" if c.mac else "/home/") + c.user
    mh = re.search(r"^\w{3} [ \d]\d \d\d:\d\d:\d\d (\S+) \S+\[\d+\]:", err, re.M)
    if mh:
        c.host = mh.group(1)
    elif m2:
        c.host = m2.group(2)
    elif c.mac:
        c.host = rng.choice([f"{c.user}s-MacBook-Pro", "MacBook-Air", f"{c.user}-mbp"])
    else:
        c.host = rng.choice(HOSTS)
    # project directory
    proj = None
    for mm in re.finditer(r"/(?:home|Users)/[a-z][a-z0-9_-]*((?:/[^/\s'\"`:()\[\],]+)+)(/?)", blob):
        comps = mm.group(1).strip("/").split("/")
        if not mm.group(2) and comps and re.search(r"\.[A-Za-z0-9]{1,5}$", comps[-1]):
            comps = comps[:-1]
        if not comps or comps[0].startswith("."):
            continue
        if comps[0] in ("projects", "src", "code", "work", "repos", "git"):
            if len(comps) > 1 and not comps[1].startswith("."):
                proj = comps[0] + "/" + comps[1]
                break
            continue
        proj = comps[0]
        break
    if proj is None:
        for pat in (r"could not compile `([\w-]+)`", r"^> ([\w.-]+)@[\d.]+ ", r"github\.com/[\w-]+/([\w-]+)",
                    r"Compiling ([\w-]+) v", r"@ ([\w-]+) ---"):
            mm = re.search(pat, err, re.M)
            if mm:
                proj = mm.group(1)
                break
    c.inferred_cwd = None
    if command:
        c.command = command
    else:
        c.command, c.inferred_cwd = infer_command(err, rng)
    if c.inferred_cwd is not None:
        c.cwd = c.inferred_cwd
        c.proj = None if c.cwd == "~" else c.cwd[2:]
    else:
        c.proj = proj
        if proj is None and rng.random() < 0.7:
            c.proj = rng.choice(PROJ_POOL)
        c.cwd = "~/" + c.proj if c.proj else "~"
    c.projname = (c.proj or "").split("/")[-1] or rng.choice(PROJ_POOL)
    c.absdir = c.home + ("/" + c.proj if c.proj else "")
    c.tool = tool_of(c.command)
    c.code = guess_exit(c.command, err)
    c.name = app_name(c, rng)
    c.t0 = base_time(err, rng)
    c.shell_hint = "bash" if re.match(r"^bash: ", err) else ("zsh" if re.match(r"^zsh: ", err) else None)
    return c


def app_name(c, rng):
    toks = split_cmd(c.command)
    for t in toks:
        base = os.path.basename(t)
        if base.endswith(SCRIPT_EXT) and not base.startswith("-"):
            stem = base.rsplit(".", 1)[0]
            return slug(stem.replace("_", "-"))[:20]
    t = c.tool
    if t in ("cargo", "go", "npm", "npx", "yarn", "mvn", "./gradlew", "make", "cmake", "gcc", "g++", "javac",
             "bundle", "bin/rails", "rails", "tsc"):
        if c.projname and rng.random() < 0.6:
            return slug(c.projname)[:20]
        return {"cargo": "cargo-build", "go": "go-build", "npm": "web", "npx": "tsc", "yarn": "web",
                "mvn": "maven-build", "./gradlew": "gradle-build", "make": "build", "cmake": "cmake-configure",
                "gcc": "compile", "g++": "compile", "javac": "javac", "bundle": "bundle", "bin/rails": "rails",
                "rails": "rails", "tsc": "tsc"}[t]
    named = {"git": ["git-sync", "repo-sync", "mirror"], "ssh": ["tunnel", "remote", "ssh-check"],
             "scp": ["upload", "publish"], "rsync": ["deploy-sync", "rsync-site"], "psql": ["db-check", "pg-report"],
             "mysql": ["db-seed", "mysql-check"], "sqlite3": ["report", "db-query"], "docker": ["containers", "docker-up"],
             "kubectl": ["kube-check", "k8s-status"], "helm": ["helm-release"], "curl": ["healthcheck", "probe"],
             "pip": ["pip-setup", "deps"], "pip3": ["deps"], "systemctl": ["svc-restart"], "journalctl": ["svc-logs"],
             "openssl": ["cert-check", "tls-check"], "apt": ["pkg-install"], "apt-get": ["pkg-install"]}
    if t in named:
        return rng.choice(named[t])
    return slug(os.path.basename(t))[:16] or "job"


def base_time(err, rng):
    m = re.search(r"(20\d\d)-(\d\d)-(\d\d)T(\d\d)_(\d\d)_(\d\d)", err)
    if m:
        y, mo, d, h, mi, s = map(int, m.groups())
        return dt.datetime(y, mo, d, h, mi, s) - dt.timedelta(seconds=rng.randint(3, 40), microseconds=rng.randint(0, 999999))
    m = re.search(r"(20\d\d)/(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)", err)
    if m:
        y, mo, d, h, mi, s = map(int, m.groups())
        return dt.datetime(y, mo, d, h, mi, s) - dt.timedelta(seconds=rng.randint(1, 5), microseconds=rng.randint(0, 999999))
    ms = re.findall(r"^(\w{3}) ([ \d]\d) (\d\d):(\d\d):(\d\d) ", err, re.M)
    if ms and ms[-1][0] in MONTHS:
        m = ms[-1]
        mo = MONTHS.index(m[0]) + 1
        return dt.datetime(rng.choice([2024, 2025]), mo, int(m[1]), int(m[2]), int(m[3]),
                           int(m[4])) + dt.timedelta(seconds=rng.randint(3, 90), microseconds=rng.randint(0, 999999))
    start = dt.datetime(2024, 1, 8)
    day = rng.randint(0, 700)
    return start + dt.timedelta(days=day, hours=rng.randint(7, 22), minutes=rng.randint(0, 59),
                                seconds=rng.randint(0, 59), microseconds=rng.randint(0, 999999))


# ---------------------------------------------------------------------------
# shared rendering helpers
# ---------------------------------------------------------------------------

def shell_kind(c, rng, allow=("bash", "bash", "bash", "zsh_omz", "zsh", "fish", "fedora", "dollar")):
    if c.shell_hint == "bash":
        return rng.choice(["bash", "bash", "fedora", "dollar"])
    if c.shell_hint == "zsh" or c.mac:
        return rng.choice(["zsh_omz", "zsh"])
    return rng.choice(list(allow))


def make_prompt(kind, user, host, cwd, branch=None):
    base = cwd if cwd == "~" else cwd.rsplit("/", 1)[-1]
    if kind == "bash":
        return f"{user}@{host}:{cwd}$ "
    if kind == "fedora":
        return f"[{user}@{host} {base}]$ "
    if kind == "zsh_omz":
        return f"➜  {base} " + (f"git:({branch}) " if branch else "")
    if kind == "zsh":
        return f"{user}@{host} {cwd} % "
    if kind == "fish":
        return f"{user}@{host} {cwd}> "
    if kind == "root":
        return f"root@{host}:{cwd}# "
    return "$ "


def session_lines(c, rng, kind=None, user=None, host=None, pre=True, sudo_prompt=True, trailing_prompt=True):
    """A plain terminal transcript (list of lines, tabs kept) of running the command."""
    kind = kind or shell_kind(c, rng)
    user = user or c.user
    host = host or c.host
    branch = rng.choice(BRANCHES) if rng.random() < 0.5 else None
    out = []
    cwd = c.cwd
    if pre and cwd != "~" and rng.random() < 0.45:
        out.append(make_prompt(kind, user, host, "~", None) + "cd " + cwd)
    elif pre and rng.random() < 0.2:
        out.append(make_prompt(kind, user, host, cwd, branch) + rng.choice(["clear", "pwd", "ls", "git log --oneline -1"]))
        last = out[-1]
        if last.endswith("pwd"):
            out.append(c.absdir.replace("/home/" + c.user, "/home/" + user))
        elif last.endswith(" ls"):
            out.append(neutral_ls(c, rng))
        elif last.endswith("--oneline -1"):
            out.append(f"{hexid(rng, 7)} {rng.choice(COMMIT_MSGS)}")
        elif last.endswith("clear"):
            out = []
    out.append(make_prompt(kind, user, host, cwd, branch) + c.command)
    if sudo_prompt and c.command.startswith("sudo ") and not c.err.startswith("sudo:") and rng.random() < 0.4:
        out.append(f"[sudo] password for {user}: ")
    out.extend(c.lines)
    if trailing_prompt:
        out.append(make_prompt(kind, user, host, cwd, branch))
    return out


def neutral_history(c, rng, kind):
    out = []
    p = make_prompt(kind, c.user, c.host, "~")
    for cmd in rng.sample(["date", "uptime", "whoami", "echo $SHELL", "ls"], rng.randint(1, 3)):
        out.append(p + cmd)
        t = c.t0 - dt.timedelta(minutes=rng.randint(1, 40))
        if cmd == "date":
            out.append(t.strftime("%a %b ") + f"{t.day:>2} " + t.strftime("%H:%M:%S %Z").strip() + " UTC " + str(t.year))
        elif cmd == "uptime":
            out.append(f" {t.strftime('%H:%M:%S')} up {rng.randint(1, 40)} days, {rng.randint(0, 23)}:{rng.randint(0, 59):02d},  "
                       f"{rng.randint(1, 3)} users,  load average: {rng.uniform(0, 2):.2f}, {rng.uniform(0, 2):.2f}, {rng.uniform(0, 2):.2f}")
        elif cmd == "whoami":
            out.append(c.user)
        elif cmd == "echo $SHELL":
            out.append({"zsh_omz": "/usr/bin/zsh", "zsh": "/bin/zsh", "fish": "/usr/bin/fish"}.get(kind, "/bin/bash"))
        else:
            out.append("  ".join(sorted(set([c.projname.split("/")[-1], "Downloads", "Documents", "notes.txt"]))))
    return out


def neutral_ls(c, rng):
    items = []
    for t in split_cmd(c.command):
        b = os.path.basename(t)
        if b.endswith(SCRIPT_EXT) and "/" not in t and not re.search(re.escape(b) + r".{0,40}(No such|not found|can't open)", c.err):
            items.append(b)
    items += rng.sample(["README.md", "docs", "LICENSE", "notes.txt", ".editorconfig", "scripts"], 2)
    return "  ".join(sorted(set(items)))


def clock(t):
    return t.strftime("%H:%M:%S")


def ampm(t):
    h = t.hour % 12 or 12
    return f"{h}:{t.minute:02d}:{t.second:02d} {'AM' if t.hour < 12 else 'PM'}"


def iso7(t, rng):
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ".%06d%dZ" % (t.microsecond, rng.randint(0, 9))


def msec(t):
    return "%03d" % (t.microsecond // 1000)


def adv(t, rng, lo=0.01, hi=0.4):
    return t + dt.timedelta(seconds=rng.uniform(lo, hi))


def ci_image(c, rng):
    t = c.tool
    cm = c.command
    if t in ("python3", "python", "pip", "pip3", "python3.12") or cm.startswith("python"):
        return rng.choice(["python:3.11-slim", "python:3.11", "python:3.11-bookworm"])
    if t in ("node", "npm", "npx", "yarn", "tsc"):
        return rng.choice(["node:20-bookworm", "node:20", "node:20-slim"])
    if t in ("cargo", "rustc", "rustup"):
        return rng.choice(["rust:1.79", "rust:1.77-bookworm", "rust:latest"])
    if t == "go":
        return rng.choice(["golang:1.22", "golang:1.22-bookworm", "golang:1.21"])
    if t in ("javac", "java", "mvn"):
        return rng.choice(["maven:3.9-eclipse-temurin-17", "eclipse-temurin:17-jdk", "eclipse-temurin:21-jdk"])
    if t in ("./gradlew", "gradle"):
        return rng.choice(["gradle:8.7-jdk17", "eclipse-temurin:17-jdk"])
    if t in ("gcc", "g++", "make", "cmake", "pkg-config", "tar"):
        return rng.choice(["gcc:13", "debian:bookworm", "ubuntu:22.04"])
    if t in ("ruby", "bundle", "gem", "rails", "bin/rails", "rbenv", "rake"):
        return rng.choice(["ruby:3.3", "ruby:3.2-bookworm"])
    if t in ("docker", "docker-compose"):
        return rng.choice(["docker:26-cli", "docker:24-dind"])
    if t in ("kubectl", "helm"):
        return rng.choice(["bitnami/kubectl:1.29", "alpine/k8s:1.29.2", "dtzar/helm-kubectl:3.14"])
    if t in ("psql", "pg_dump"):
        return rng.choice(["postgres:16", "postgres:16-alpine"])
    if t == "mysql":
        return rng.choice(["mysql:8.0", "mariadb:11"])
    if t == "git":
        return rng.choice(["alpine/git:2.43.0", "bitnami/git:latest", "debian:bookworm-slim"])
    return rng.choice(["alpine:3.19", "debian:bookworm-slim", "ubuntu:22.04", "ubuntu:24.04"])


def yaml_scalar(s):
    if s == "" or re.search(r": |\s#|^[\s'\"{\[&*!|>%@`,?:-]|:$|\s$", s) or s in ("yes", "no", "true", "false", "null"):
        return "'" + s.replace("'", "''") + "'"
    return s


def dq(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


LEADS = {
    "tmux_split_panes": ["The user copies the contents of a tmux window split into two panes.",
                         "The user captures the tmux window with both panes and pastes it.",
                         "The user pastes a tmux capture of the window where the command was just run."],
    "gnu_screen_hardcopy": ["The user opens the hardcopy file GNU screen wrote for the current window.",
                            "The user pastes a screen hardcopy of the terminal session."],
    "vscode_output_channel": ["The user looks at the Output panel in Visual Studio Code.",
                              "The user copies the text of the VS Code output panel after the task ran.",
                              "The user switches to the Output tab in VS Code and copies its contents."],
    "termux_session": ["The user copies text from a Termux session on the phone.",
                       "The user shares the Termux transcript from the Android phone."],
    "bracketed_paste_keylog": ["The keystroke logger records the following terminal session.",
                               "The user's terminal input log shows the following."],
    "emacs_eshell_vterm": ["The user copies the contents of an Emacs buffer.",
                           "The user is working in Emacs and copies the shell buffer."],
    "gitea_actions_log": ["The user opens the failed Actions run in Gitea and copies the job log.",
                          "The user downloads the job log of the failed Forgejo Actions run."],
    "woodpecker_drone_ci": ["The user copies the failed step's log from the CI web UI.",
                            "The user opens the failed pipeline in the CI server and copies the step log."],
    "nomad_alloc_logs": ["The user inspects a failed Nomad allocation in the terminal.",
                         "The user checks why the Nomad task keeps failing."],
    "supervisord_log": ["The user looks at the supervisord logs on the server.",
                        "The user checks supervisor's logs for the program that keeps restarting."],
    "pm2_logs": ["The user runs pm2 to check the process that keeps crashing.",
                 "The user tails pm2 logs in the terminal."],
    "tilt_skaffold_dev": ["The user watches the dev loop output in the terminal.",
                          "The user copies the dev-loop log from the terminal."],
    "bazel_wrapped": ["The user runs a Bazel build in the terminal.",
                      "The user copies Bazel's output from the terminal."],
    "rundeck_awx_job": ["The user opens the failed job's output page and copies it.",
                        "The user copies the job output from the automation server's web page."],
    "podman_kube_play": ["The user runs the pod with podman and reads its logs.",
                         "The user checks the podman container logs in the terminal."],
    "dagger_earthly_log": ["The user runs the containerised build locally and copies its output.",
                           "The user copies the build output from the terminal."],
}


def with_lead(style, body, rng):
    if rng.random() < 0.18:
        return rng.choice(LEADS[style]) + "\n\n" + body
    return body


# ---------------------------------------------------------------------------
# 1. tmux_split_panes
# ---------------------------------------------------------------------------

GITIGNORE = ["__pycache__/", "*.pyc", ".env", "*.log", "build/", "dist/", "node_modules/", "target/", ".venv/",
             ".idea/", ".vscode/", "*.swp", "coverage/", ".DS_Store", "tmp/"]
TODO_LINES = ["- [ ] tidy up logging", "- [x] move config to env vars", "- [ ] write tests for the parser",
              "- [ ] ask about the staging box", "- [x] rename helpers", "- [ ] check timeouts on the client",
              "- [ ] update the screenshot in docs", "- [ ] clean old branches", "- [x] set up pre-commit",
              "- [ ] benchmark the import step", "- [ ] reply to review comments", "- [ ] backup notes to nas"]


def left_pane(c, rng, width, height):
    kind = rng.choice(["vim", "vim", "gitlog", "tail", "shell_ls"])
    rows = []
    if kind == "vim":
        fname = rng.choice(["TODO.md", "notes.md", ".gitignore", "notes.txt"])
        if fname == ".gitignore":
            body = rng.sample(GITIGNORE, rng.randint(6, 11))
        else:
            body = (["# " + c.projname, ""] if fname.endswith(".md") else []) + rng.sample(TODO_LINES, rng.randint(5, 10))
        numbered = rng.random() < 0.6
        for i, l in enumerate(body, 1):
            rows.append((f"{i:>3} " if numbered else "") + l)
        while len(rows) < height - 2:
            rows.append("~")
        rows = rows[:height - 2]
        pos = f"{rng.randint(1, len(body))},{rng.randint(1, 12)}"
        rows.append(pad_cols(f"{fname} [+]" if rng.random() < 0.4 else fname, max(1, width - 18)) + f"{pos:<10}All")
        rows.append(rng.choice(["", f'"{fname}" {len(body)}L, {sum(len(x) + 1 for x in body)}B written', "-- INSERT --"]))
    elif kind == "gitlog":
        p = make_prompt("bash", c.user, c.host, c.cwd)
        rows.append(p + "git log --oneline -n 10")
        for _ in range(10):
            rows.append(f"{hexid(rng, 7)} {rng.choice(COMMIT_MSGS)}")
        rows.append(p)
    elif kind == "tail":
        rows.append(make_prompt("bash", c.user, c.host, "~") + "tail -f /var/log/nginx/access.log")
        t = c.t0 - dt.timedelta(minutes=3)
        for _ in range(height - 2):
            t = adv(t, rng, 1, 20)
            ip = f"192.168.1.{rng.randint(2, 254)}"
            path = rng.choice(["/", "/healthz", "/static/app.css", "/favicon.ico", "/api/items?page=2", "/login"])
            rows.append(f'{ip} - - [{t.strftime("%d/%b/%Y:%H:%M:%S")} +0000] "GET {path} HTTP/1.1" '
                        f'{rng.choice([200, 200, 200, 304, 404])} {rng.randint(0, 5400)} "-" "Mozilla/5.0 (X11; Linux x86_64)"')
    else:
        p = make_prompt("bash", c.user, c.host, c.cwd)
        rows.append(p + "ls -la")
        rows.append(f"total {rng.randint(20, 90)}")
        t = c.t0 - dt.timedelta(days=rng.randint(0, 30))
        for n in [".", "..", ".git", "README.md", "docs", "notes.txt"]:
            d = n in (".", "..", ".git", "docs")
            rows.append(f"{'drwxr-xr-x' if d else '-rw-r--r--'}  {rng.randint(1, 8)} {c.user} {c.user} "
                        f"{4096 if d else rng.randint(80, 9000):>5} {MONTHS[t.month - 1]} {t.day:>2} {t.strftime('%H:%M')} {n}")
        rows.append(p)
    return [cut_cols(expand(r), width) for r in rows[:height]]


def s_tmux(c, rng):
    W = rng.choice([158, 172, 190, 204, 211, 238])
    L = rng.choice([W // 2 - 1, W // 2, int(W * 0.4), int(W * 0.45), int(W * 0.55)])
    R = W - L - 1
    H = rng.randint(34, 54)
    kind = shell_kind(c, rng)
    right_src = []
    if rng.random() < 0.45:
        right_src = neutral_history(c, rng, kind)
    right_src += [expand(l) for l in session_lines(c, rng, kind=kind)]
    mode = rng.choice(["wrap", "wrap", "cut"])
    right = []
    for l in right_src:
        right.extend(wrap_cols(l, R) if mode == "wrap" else [cut_cols(l, R)])
    if len(right) > H:
        if rng.random() < 0.75:
            H = min(len(right), 78)
        right = right[-H:]
    border_status = rng.random() < 0.15
    body_h = H - 1 if border_status else H
    right = right[-body_h:]
    left = left_pane(c, rng, L, body_h)
    rows = []
    if border_status:
        lt = f'─ 0 "{rng.choice(["vim", "nvim", "bash"])}" '
        rt = f'─ 1 "{c.user}@{c.host}: {c.cwd}" '
        rows.append((lt + "─" * W)[:L] + "┬" + (rt + "─" * W)[:R])
    for i in range(body_h):
        lv = left[i] if i < len(left) else ""
        rv = right[i] if i < len(right) else ""
        rows.append((pad_cols(lv, L) + "│" + rv).rstrip())
    # status line
    session = rng.choice(["0", "dev", "work", c.projname[:10], "main"])
    wins = [rng.choice(["vim", "nvim", "bash", "htop"]), {"zsh_omz": "zsh", "zsh": "zsh", "fish": "fish"}.get(kind, "bash")]
    if rng.random() < 0.5:
        wins.append(rng.choice(["ssh", "bash", "logs"]))
    active = 1
    parts = []
    for i, w in enumerate(wins):
        flag = "*" if i == active else ("-" if i == 0 else "")
        parts.append(f"{i}:{w}{flag}")
    left_s = f"[{session}] " + " ".join(parts)
    t = adv(c.t0, rng, 5, 60)
    if rng.random() < 0.7:
        right_s = f'"{c.host[:21]}" {t.strftime("%H:%M %d-%b-%y")}'
    else:
        right_s = f" {t.strftime('%Y-%m-%d')}  {t.strftime('%H:%M')} "
    rows.append(left_s + " " * max(1, W - len(left_s) - len(right_s)) + right_s)
    return "\n".join(rows)


# ---------------------------------------------------------------------------
# 2. gnu_screen_hardcopy
# ---------------------------------------------------------------------------

def s_screen(c, rng):
    W = rng.choice([80, 80, 80, 80, 100, 120, 132])
    H = rng.choice([24, 25, 40, 43, 50])
    kind = shell_kind(c, rng, allow=("bash", "bash", "fedora", "dollar", "zsh"))
    remote = rng.random() < 0.25
    src = []
    if remote:
        src.append(make_prompt("bash", rng.choice(USERS), rng.choice(HOSTS), "~") + f"ssh {c.user}@{c.host}")
        src.append(f"Last login: {(c.t0 - dt.timedelta(hours=rng.randint(2, 60))).strftime('%a %b %d %H:%M:%S %Y')} from 192.168.{rng.randint(0, 9)}.{rng.randint(2, 250)}")
    src += session_lines(c, rng, kind=kind)
    mangle = rng.random() < 0.25
    rows = []
    for l in src:
        l = expand(l)
        if mangle:
            l = ascii_mangle(l)
        rows.extend(wrap_cols(l, W))
    fill = max(0, H - 1 - len(rows) % H) if rng.random() < 0.5 else rng.randint(0, 3)
    rows.extend([""] * fill)
    rows = [pad_cols(r, W) for r in rows]
    t = adv(c.t0, rng, 3, 50)
    wname = {"zsh": "zsh"}.get(kind, "bash")
    hs = rng.choice(["brackets", "caption", "pipes", "simple"])
    if hs == "brackets":
        mid = f"  0$ {rng.choice(['bash', 'vim', 'htop'])}  (1*$ {wname})  "
        if rng.random() < 0.5:
            mid += f"2-$ {rng.choice(['logs', 'mutt', 'irssi'])}  "
        left = f"[ {c.host} ]["
        right = f"][ {t.strftime('%m/%d')} {t.strftime('%H:%M')} ]"
        line = left + mid.center(max(len(mid), W - len(left) - len(right))) + right
    elif hs == "caption":
        left = f" 0 bash  1* {wname}  2 {rng.choice(['vim', 'top', 'notes'])}"
        right = f"@{c.host} - {t.strftime('%A %d %B')} - {t.strftime('%H:%M')} "
        line = left + " " * max(1, W - len(left) - len(right)) + right
    elif hs == "pipes":
        line = f"{c.host} | 0 bash  1* {wname} | load {rng.uniform(0, 2):.2f} {rng.uniform(0, 2):.2f} {rng.uniform(0, 2):.2f} | {t.strftime('%H:%M')}"
    else:
        line = f"0-$ {rng.choice(['vim', 'bash', 'htop'])}  1*$ {wname}" + (f"  2$ {rng.choice(['logs', 'ssh'])}" if rng.random() < 0.5 else "")
    rows.append(pad_cols(line[:W], W))
    return "\n".join(rows)


# ---------------------------------------------------------------------------
# 3. vscode_output_channel
# ---------------------------------------------------------------------------

def vs_shell_repr(cmd, shell):
    return f"\"{shell} '-c', '{cmd}'\""


def s_vscode(c, rng):
    layout = rng.choice(["task_new", "task_new", "task_old", "coderunner", "langclient", "logchannel"])
    if c.tool == "git" and rng.random() < 0.6:
        layout = "git"
    t = c.t0
    out = []
    shell = rng.choice(["/usr/bin/bash", "/bin/bash", "/usr/bin/zsh", "/bin/sh"])
    if layout == "task_new":
        out.append(f" *  Executing task: {c.command} ")
        out.append("")
        out += c.lines
        out.append("")
        if c.code:
            out.append(f" *  The terminal process {vs_shell_repr(c.command, shell)} terminated with exit code: {c.code}. ")
        out.append(" *  Terminal will be reused by tasks, press any key to close it. ")
        if rng.random() < 0.3:
            out.insert(0, f" *  Executing task in folder {c.projname}: {c.command} ")
            del out[1]
    elif layout == "task_old":
        out.append(f"> Executing task: {c.command} <")
        out.append("")
        out += c.lines
        if c.code:
            out.append(f"The terminal process {vs_shell_repr(c.command, shell)} terminated with exit code: {c.code}.")
        out.append("")
        out.append("Terminal will be reused by tasks, press any key to close it.")
    elif layout == "coderunner":
        out.append(f'[Running] cd "{c.absdir}/" && {c.command}')
        out += c.lines
        out.append("")
        out.append(f"[Done] exited with code={c.code} in {rng.uniform(0.05, 9):.3f} seconds")
        out.append("")
        if rng.random() < 0.3:
            prev = [f'[Running] cd "{c.absdir}/" && {c.command}', "", "[Done] exited with code=0 in 0.%03d seconds" % rng.randint(40, 999), ""]
            out = prev + out
    elif layout == "langclient":
        ext = rng.choice(["Task Runner", "Build Helper", "Run on Save", "Tasks", "Command Runner"])
        out.append(f"[Info  - {ampm(t)}] {ext} started")
        t = adv(t, rng, 1, 20)
        out.append(f"[Info  - {ampm(t)}] Running: {c.command}")
        if rng.random() < 0.5:
            out.append(f"[Info  - {ampm(t)}] cwd: {c.absdir}")
        t = adv(t, rng, 0.2, 3)
        every = rng.random() < 0.45
        if every:
            for l in c.lines:
                out.append(f"[Error - {ampm(t)}] {l}")
        else:
            out.append(f"[Error - {ampm(t)}] Command failed with exit code {c.code}: {c.command}")
            out += c.lines
        if not every and rng.random() < 0.5:
            out.append(f"[Info  - {ampm(t)}] Process exited with code {c.code}")
    elif layout == "logchannel":
        def stamp(tt):
            return tt.strftime("%Y-%m-%d %H:%M:%S") + "." + msec(tt)
        out.append(f"{stamp(t)} [info] Running \"{c.command}\" in {c.absdir}")
        t = adv(t, rng, 0.1, 4)
        if rng.random() < 0.5:
            for l in c.lines:
                out.append(f"{stamp(t)} [error] {l}")
                t = adv(t, rng, 0.0, 0.004)
        else:
            out.append(f"{stamp(t)} [error] " + c.lines[0])
            out += c.lines[1:]
        t = adv(t, rng, 0.001, 0.05)
        out.append(f"{stamp(t)} [info] \"{c.command}\" exited with code {c.code}")
    else:  # git output channel
        def stamp(tt):
            return tt.strftime("%Y-%m-%d %H:%M:%S") + "." + msec(tt)
        for pre in rng.sample(["git rev-parse --show-toplevel", "git config --get commit.template",
                               "git status -z -uall", "git symbolic-ref --short HEAD",
                               "git for-each-ref --format=%(refname)%00%(upstream:short) refs/heads"], rng.randint(1, 3)):
            out.append(f"{stamp(t)} [info] > {pre} [{rng.randint(3, 60)}ms]")
            t = adv(t, rng, 0.05, 2)
        out.append(f"{stamp(t)} [info] > {c.command} [{rng.randint(200, 4000)}ms]")
        out += c.lines
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 4. termux_session
# ---------------------------------------------------------------------------

TERMUX_MOTD = """Welcome to Termux!

Docs:       https://termux.dev/docs
Donate:     https://termux.dev/donate
Community:  https://termux.dev/community

Working with packages:

 - Search:  pkg search <query>
 - Install: pkg install <package>
 - Upgrade: pkg upgrade

Subscribing to additional repositories:

 - Root:    pkg install root-repo
 - X11:     pkg install x11-repo

For fixing any repository issues,
try 'termux-change-repo' command.

Report issues at https://termux.dev/issues"""

LINUX_PATHS = re.compile(r"/home/|/usr/|/var/|/etc/|/opt/|/run/|/srv/|/lib/|/tmp/|/media/|/root/")


def termux_prompt(cwd):
    return f"{cwd} $ "


def s_termux(c, rng):
    out = []
    if rng.random() < 0.4:
        out += TERMUX_MOTD.split("\n")
        out.append("")
    has_linux = bool(LINUX_PATHS.search(c.err)) or bool(LINUX_PATHS.search(c.command))
    is_ssh = c.tool in ("ssh", "scp", "ssh-copy-id", "rsync", "ssh-add")
    if not has_linux or (is_ssh and not re.search(r"/home/", c.err)):
        framing = "native"
    else:
        framing = rng.choice(["ssh", "ssh", "proot"])
    if framing == "native":
        if rng.random() < 0.5:
            out.append(termux_prompt("~") + rng.choice(["echo $PREFIX", "which python", "pkg list-installed | wc -l", "uname -m"]))
            last = out[-1]
            if last.endswith("$PREFIX"):
                out.append("/data/data/com.termux/files/usr")
            elif last.endswith("python"):
                out.append("/data/data/com.termux/files/usr/bin/python")
            elif last.endswith("wc -l"):
                out.append(str(rng.randint(90, 400)))
            else:
                out.append("aarch64")
        cwd = c.cwd
        if cwd != "~":
            out.append(termux_prompt("~") + "cd " + cwd)
        out.append(termux_prompt(cwd) + c.command)
        out += c.lines
        out.append(termux_prompt(cwd))
    elif framing == "ssh":
        port = rng.choice(["", "", " -p 2222"])
        target = f"{c.user}@{c.host}" + rng.choice(["", ".lan", ".local"])
        out.append(termux_prompt("~") + f"ssh{port} {target}")
        if rng.random() < 0.6:
            ver = rng.choice(["Ubuntu 22.04.4 LTS (GNU/Linux 6.5.0-27-generic x86_64)", "Ubuntu 24.04.1 LTS (GNU/Linux 6.8.0-45-generic x86_64)",
                              "Debian GNU/Linux 12 (bookworm)"])
            out.append(f"Welcome to {ver}" if ver.startswith("Ubuntu") else f"Linux {c.host} 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64")
            out.append("")
        out.append(f"Last login: {(c.t0 - dt.timedelta(hours=rng.randint(1, 48))).strftime('%a %b %d %H:%M:%S %Y')} from 192.168.1.{rng.randint(20, 200)}")
        out += session_lines(c, rng, kind=shell_kind(c, rng, allow=("bash", "bash", "dollar")), pre=True)
        if rng.random() < 0.4:
            out[-1] = out[-1] + "exit"
            out.append("logout")
            out.append(f"Connection to {target.split('@')[1]} closed.")
            out.append(termux_prompt("~"))
    else:
        distro = rng.choice(["debian", "ubuntu", "archlinux"])
        out.append(termux_prompt("~") + f"proot-distro login {distro} --user {c.user}")
        out += session_lines(c, rng, kind="bash", host="localhost", pre=True)
    text_lines = [expand(l) for l in out]
    if rng.random() < 0.3:
        width = rng.choice([42, 46, 52, 58, 64])
        wrapped = []
        for l in text_lines:
            wrapped.extend(wrap_cols(l, width))
        text_lines = wrapped
    return "\n".join(text_lines)


# ---------------------------------------------------------------------------
# 5. bracketed_paste_keylog
# ---------------------------------------------------------------------------

ESC = "\x1b"


def keystrokes(cmd, rng):
    """Return a list of key tokens: ('paste', text) / ('key', name) / ('char', c)."""
    mode = rng.choice(["paste", "paste", "type", "typo", "prefix_paste", "clear_paste"])
    toks = []
    if mode == "paste":
        toks.append(("paste", cmd))
    elif mode == "type":
        toks += [("char", ch) for ch in cmd]
    elif mode == "typo":
        p = rng.randint(1, max(1, len(cmd) - 1))
        wrong = rng.choice("qwertasdfgzxcv")
        toks += [("char", ch) for ch in cmd[:p]] + [("char", wrong), ("key", "BS")] + [("char", ch) for ch in cmd[p:]]
    elif mode == "prefix_paste":
        sp = cmd.find(" ")
        if sp <= 0:
            toks.append(("paste", cmd))
        else:
            toks += [("char", ch) for ch in cmd[:sp + 1]] + [("paste", cmd[sp + 1:])]
    else:
        junk = rng.choice(["sl", "lss", "cd ..", "git st"])
        toks += [("char", ch) for ch in junk] + [("key", "BS")] * len(junk) + [("paste", cmd)]
    toks.append(("key", "Enter"))
    return toks


def keys_angle(toks, esc="^["):
    out = []
    for kind, v in toks:
        if kind == "paste":
            out.append(f"{esc}[200~{v}{esc}[201~")
        elif kind == "key":
            out.append(f"<{v}>")
        else:
            out.append(v)
    return "".join(out)


def keys_raw(toks):
    out = []
    for kind, v in toks:
        if kind == "paste":
            out.append(f"{ESC}[200~{v}{ESC}[201~")
        elif kind == "key":
            out.append({"Enter": "\r", "BS": "\x7f"}[v])
        else:
            out.append(v)
    return "".join(out)


def s_keylog(c, rng):
    layout = rng.choice(["stamped", "stamped", "inout", "scriptlog", "cast", "plain"])
    t = c.t0
    kind = shell_kind(c, rng, allow=("bash", "bash", "dollar", "fedora"))
    prompt = make_prompt(kind, c.user, c.host, c.cwd)
    toks = keystrokes(c.command, rng)
    pre = []
    if c.cwd != "~" and rng.random() < 0.4:
        pre = [("cd " + c.cwd, make_prompt(kind, c.user, c.host, "~"))]
    out = []
    if layout == "stamped":
        fmt = rng.choice(["[%Y-%m-%d %H:%M:%S]", "%Y-%m-%d %H:%M:%S+0000", "%H:%M:%S"])
        def st(tt):
            return tt.strftime(fmt)
        kw = rng.choice([("keys:", "tty:"), ("KEY", "OUT"), (">", "<")])
        for cmd, _ in pre:
            out.append(f"{st(t)} {kw[0]} {cmd}<Enter>")
            t = adv(t, rng, 1, 6)
        out.append(f"{st(t)} {kw[0]} {keys_angle(toks)}")
        t = adv(t, rng, 0.2, 3)
        for l in c.lines:
            out.append(f"{st(t)} {kw[1]} {l}")
        out.append(f"{st(t)} {kw[1]} {prompt.rstrip()}")
    elif layout == "inout":
        def ms(tt):
            return tt.strftime("%H:%M:%S") + "." + msec(tt)
        for cmd, p in pre:
            out.append(f"{ms(t)} IN   {cmd}")
            out.append(f"{ms(t)} IN   <Enter>")
            t = adv(t, rng, 1, 5)
        # split tokens into segments at Enter
        seg = keys_angle(toks[:-1])
        out.append(f"{ms(t)} IN   {seg}")
        t = adv(t, rng, 0.1, 1.5)
        out.append(f"{ms(t)} IN   <Enter>")
        t = adv(t, rng, 0.05, 2)
        for l in c.lines:
            out.append(f"{ms(t)} OUT  {l}")
            t = adv(t, rng, 0.0, 0.01)
        out.append(f"{ms(t)} OUT  {prompt}")
    elif layout == "scriptlog":
        raw_in = "".join(cmd + "\r" for cmd, _ in pre) + keys_raw(toks)
        out.append("$ cat -v typescript.in")
        out.append(cat_v(raw_in))
        out.append("$ cat -v typescript.out")
        stamp = t.strftime("%Y-%m-%d %H:%M:%S+00:00")
        out.append(f'Script started on {stamp} [COMMAND="/bin/bash" TERM="xterm-256color" TTY="/dev/pts/{rng.randint(0, 9)}" COLUMNS="{rng.choice([80, 120, 143, 190])}" LINES="{rng.choice([24, 40, 50])}"]')
        bp = rng.random() < 0.7
        on, off = ("^[[?2004h", "^[[?2004l^M") if bp else ("", "")
        for cmd, p in pre:
            out.append(f"{on}{cat_v(p)}{cmd}^M")
            out.append(f"{off}")
        out.append(f"{on}{cat_v(prompt)}{cat_v(c.command)}^M")
        first = True
        for l in c.lines:
            out.append((off if first else "") + cat_v(l) + "^M")
            first = False
        out.append(f"{on}{cat_v(prompt)}")
    elif layout == "cast":
        header = {"version": 2, "width": rng.choice([80, 120, 143]), "height": rng.choice([24, 36, 48]),
                  "timestamp": int(t.replace(tzinfo=dt.timezone.utc).timestamp()),
                  "env": {"SHELL": "/bin/bash", "TERM": "xterm-256color"}}
        out.append(json.dumps(header))
        clockf = rng.uniform(0.3, 2.0)
        def ev(kind_, data):
            nonlocal clockf
            clockf += rng.uniform(0.02, 0.6)
            return json.dumps([round(clockf, 6), kind_, data])
        out.append(ev("o", f"{ESC}[?2004h{prompt}"))
        for kind_, v in toks:
            if kind_ == "paste":
                out.append(ev("i", f"{ESC}[200~{v}{ESC}[201~"))
                out.append(ev("o", v))
            elif kind_ == "char":
                out.append(ev("i", v))
                out.append(ev("o", v))
            elif v == "BS":
                out.append(ev("i", "\x7f"))
                out.append(ev("o", "\b\x1b[K"))
            else:
                out.append(ev("i", "\r"))
                out.append(ev("o", f"\r\n{ESC}[?2004l\r"))
        body = "".join(l + "\r\n" for l in c.lines)
        chunks = []
        while body:
            n = rng.randint(60, 400)
            chunks.append(body[:n])
            body = body[n:]
        for ch in chunks:
            out.append(ev("o", ch))
        out.append(ev("o", f"{ESC}[?2004h{prompt}"))
    else:  # plain keystroke record + screen reply
        out.append(f"--- keys {t.strftime('%Y-%m-%d %H:%M:%S')} pts/{rng.randint(0, 9)} ---")
        for cmd, _ in pre:
            out.append(cmd + "<Enter>")
        out.append(keys_angle(toks))
        out.append("--- reply ---")
        for cmd, p in pre:
            out.append(p + cmd)
        out.append(prompt + c.command)
        out += c.lines
        out.append(prompt)
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 6. emacs_eshell_vterm
# ---------------------------------------------------------------------------

def modeline(bufname, mode, nlines, gui, rng, width=None):
    pos = rng.choice(["Bot", "Bot", "All"]) if nlines < 60 else "Bot"
    if gui:
        return f" U:**-  {bufname}   {pos} L{nlines}   ({mode})"
    head = f"-UUU:**--{rng.choice(['', 'F1', ''])}  {bufname}      {pos} L{nlines}    ({mode}) "
    width = width or rng.choice([80, 100, 120])
    return head + "-" * max(3, width - len(head))


def s_emacs(c, rng):
    layout = rng.choice(["eshell", "eshell", "vterm", "shell", "compile"])
    gui = rng.random() < 0.4
    out = []
    if layout == "eshell":
        if rng.random() < 0.5:
            out += ["Welcome to the Emacs shell", ""]
        if c.cwd != "~" and rng.random() < 0.5:
            out.append("~ $ cd " + c.cwd)
        out.append(f"{c.cwd} $ {c.command}")
        out += c.lines
        out.append(f"{c.cwd} $ ")
        out.append(modeline("*eshell*", "EShell", len(out), gui, rng))
    elif layout == "vterm":
        kind = shell_kind(c, rng, allow=("bash", "bash", "zsh", "fedora"))
        lines = session_lines(c, rng, kind=kind)
        width = rng.choice([80, 96, 110, 132])
        if rng.random() < 0.5:
            wrapped = []
            for l in lines:
                wrapped.extend(wrap_cols(expand(l), width))
            lines = wrapped
        out += lines
        out.append(modeline("*vterm*", rng.choice(["VTerm", "VTerm", "VTerm Copy"]), len(out), gui, rng, width))
    elif layout == "shell":
        out.append(f"bash: cannot set terminal process group ({rng.randint(1000, 99999)}): Inappropriate ioctl for device")
        out.append("bash: no job control in this shell")
        bp = rng.random() < 0.6
        on = "^[[?2004h" if bp else ""
        off = "^[[?2004l" if bp else ""
        p = make_prompt("bash", c.user, c.host, c.cwd)
        if c.cwd != "~" and rng.random() < 0.4:
            out.append(on + make_prompt("bash", c.user, c.host, "~") + "cd " + c.cwd)
            out.append(off)
        out.append(on + p + c.command)
        crlf = rng.random() < 0.5
        first = True
        for l in c.lines:
            s = (off + "\r" if first and bp else "") + l
            first = False
            out.append(caret(s) + ("^M" if crlf else ""))
        out.append(on + p)
        out.append(modeline("*shell*", "Shell:run", len(out), gui, rng))
    else:
        t = c.t0
        cwd = c.absdir + "/"
        cwd_disp = cwd.replace(c.home, "~")
        out.append(f'-*- mode: compilation; default-directory: "{cwd_disp}" -*-')
        out.append(f"Compilation started at {t.strftime('%a %b')} {t.day:>2} {t.strftime('%H:%M:%S')}")
        out.append("")
        out.append(c.command)
        out += c.lines
        out.append("")
        t2 = adv(t, rng, 0.2, 30)
        when = f"{t2.strftime('%a %b')} {t2.day:>2} {t2.strftime('%H:%M:%S')}"
        dur = f", duration {(t2 - t).total_seconds():.2f} s" if rng.random() < 0.6 else ""
        if c.code:
            out.append(f"Compilation exited abnormally with code {c.code} at {when}{dur}")
            status = f"Compilation:exit [{c.code}]"
        else:
            out.append(f"Compilation finished at {when}{dur}")
            status = "Compilation:exit [0]"
        out.append(modeline("*compilation*", status, len(out), gui, rng))
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 7. gitea_actions_log
# ---------------------------------------------------------------------------

def act_exit_line(code):
    if code == 127:
        return "exitcode '127': command not found, please refer to https://github.com/nektos/act/issues/107 for more information"
    return f"exitcode '{code}': failure"


def gitea_job(c, rng):
    """Return (meta, list of (stamp-able) log lines) for a full job."""
    forgejo = rng.random() < 0.4
    runner = rng.choice(["runner-01", "ci-runner", "docker-runner", "act-" + c.host, "forgejo-runner-2", "gitea-runner"])
    ver = rng.choice(["v3.5.1", "v4.0.1", "v6.0.1"]) if forgejo else rng.choice(["v0.2.6", "v0.2.10", "v0.2.11"])
    image = rng.choice(["gitea/runner-images:ubuntu-latest", "docker.gitea.com/runner-images:ubuntu-latest",
                        "catthehacker/ubuntu:act-22.04", "node:20-bookworm", ci_image(c, rng)])
    task = rng.randint(120, 9800)
    job = rng.choice(["build", "test", "ci", "check", "lint", "deploy"])
    wf = rng.choice(["ci", "build", "main", "test"])
    step = c.command if rng.random() < 0.6 else rng.choice(["Build", "Run script", "Test", "Install", "Check"])
    net = f"GITEA-ACTIONS-TASK-{task}_WORKFLOW-{wf}_JOB-{job}-{job}-network"
    pre = [f"{runner}(version:{ver}) received task {task} of job {job}, be triggered by event: push",
           "workflow prepared",
           "evaluating expression 'success()'",
           "expression 'success()' evaluated to 'true'",
           f"🚀  Start image={image}",
           f"  🐳  docker pull image={image} platform= username= forcePull=true",
           f"  🐳  docker create image={image} platform= entrypoint=[\"tail\" \"-f\" \"/dev/null\"] cmd=[] network=\"{net}\"",
           f"  🐳  docker run image={image} platform= entrypoint=[\"tail\" \"-f\" \"/dev/null\"] cmd=[] network=\"{net}\"",
           "⭐ Run Main actions/checkout@v4",
           f"  🐳  docker cp src=/root/.cache/act/actions-checkout@v4/ dst=/var/run/act/actions/actions-checkout@v4/",
           f"  🐳  docker exec cmd=[node /var/run/act/actions/actions-checkout@v4/dist/index.js] user= workdir=",
           "✅  Success - Main actions/checkout@v4" + ("\x00DUR\x00" if rng.random() < 0.5 else "")]
    n = rng.randint(1, 3)
    body = [f"⭐ Run Main {step}",
            f"  🐳  docker exec cmd=[bash -e /var/run/act/workflow/{n}] user= workdir={rng.choice(['', c.projname])}"]
    if step != c.command or rng.random() < 0.5:
        body.append(f"::group::Run {c.command}")
        body.append(c.command)
        body.append("::endgroup::")
    body += c.lines
    dur = "\x00DUR\x00" if rng.random() < 0.5 else ""
    if c.code:
        body += [f"❌  Failure - Main {step}{dur}", act_exit_line(c.code)]
        post = ["evaluating expression 'always()'", "expression 'always()' evaluated to 'true'",
                "⭐ Run Post actions/checkout@v4", "✅  Success - Post actions/checkout@v4", "Cleaning up container for job " + job,
                "🏁  Job failed"]
    else:
        body += [f"✅  Success - Main {step}{dur}"]
        post = ["Cleaning up container for job " + job, "🏁  Job succeeded"]
    return dict(job=job, wf=wf, step=step, forgejo=forgejo, task=task), pre, body, post


def s_gitea(c, rng):
    meta, pre, body, post = gitea_job(c, rng)
    layout = rng.choice(["raw", "raw", "ui_step", "ui_numbered", "yaml_tail"])
    t = c.t0
    out = []
    step_start = [t]

    def fill(l, tt):
        if "\x00DUR\x00" in l:
            l = l.replace("\x00DUR\x00", f" [{max(0.000512, (tt - step_start[0]).total_seconds()):.6f}s]")
        if l.startswith("⭐ Run "):
            step_start[0] = tt
        return l
    if layout == "raw":
        for l in pre:
            out.append(f"{iso7(t, rng)} {fill(l, t)}")
            t = adv(t, rng, 0.01, 1.4)
        for l in body:
            out.append(f"{iso7(t, rng)} {fill(l, t)}")
            t = adv(t, rng, 0.0001, 0.08)
        for l in post:
            t = adv(t, rng, 0.01, 0.6)
            out.append(f"{iso7(t, rng)} {fill(l, t)}")
    elif layout == "ui_step":
        out.append(f"{meta['job']}")
        out.append(f"{'Failure' if c.code else 'Success'} {rng.choice(['1 minute ago', '3 minutes ago', 'just now', '12 minutes ago'])} in {rng.randint(8, 190)}s")
        out.append("")
        out.append(f"Set up job\t{rng.randint(1, 9)}s")
        out.append(f"actions/checkout@v4\t{rng.randint(0, 4)}s")
        out.append(f"{meta['step']}\t{rng.randint(0, 60)}s")
        step_start[0] = t - dt.timedelta(seconds=rng.uniform(0.3, 30))
        for l in body[2:]:
            out.append(fill(l, t))
        out.append(f"Complete job\t{rng.randint(0, 3)}s")
    elif layout == "ui_numbered":
        out.append(f"{meta['step']}")
        sep = rng.choice(["  ", "\t", " "])
        show_time = rng.random() < 0.5
        step_start[0] = t - dt.timedelta(seconds=rng.uniform(0.3, 30))
        for i, l in enumerate(body[2:], 1):
            l = fill(l, t)
            if show_time:
                out.append(f"{i}{sep}{t.strftime('%Y-%m-%d %H:%M:%S')}{sep}{l}")
                t = adv(t, rng, 0.0, 0.5)
            else:
                out.append(f"{i}{sep}{l}")
    else:
        d = ".forgejo" if meta["forgejo"] else ".gitea"
        out.append(f"# {d}/workflows/{meta['wf']}.yml")
        out.append(f"name: {meta['wf']}")
        out.append("on: [push]")
        out.append("jobs:")
        out.append(f"  {meta['job']}:")
        out.append(f"    runs-on: {rng.choice(['ubuntu-latest', 'docker', 'self-hosted'])}")
        out.append("    steps:")
        out.append("      - uses: actions/checkout@v4")
        if meta["step"] != c.command:
            out.append(f"      - name: {yaml_scalar(meta['step'])}")
            out.append(f"        run: {yaml_scalar(c.command)}")
        else:
            out.append(f"      - run: {yaml_scalar(c.command)}")
        out.append("")
        out.append("--- job log ---")
        tail = body + post[-1:]
        for l in tail:
            out.append(f"{iso7(t, rng)} {fill(l, t)}")
            t = adv(t, rng, 0.0001, 0.08)
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 8. woodpecker_drone_ci
# ---------------------------------------------------------------------------

def s_woodpecker(c, rng):
    layout = rng.choice(["wp_ui", "wp_ui", "drone_ui", "drone_exec", "wp_exec", "yaml_ui"])
    step = rng.choice(["build", "test", "compile", "check", "run", "deploy", c.name])
    image = ci_image(c, rng)
    setup = []
    if rng.random() < 0.25 and not c.command.startswith("cd "):
        setup = [rng.choice(["cd " + c.projname, "set -e", "echo $CI_COMMIT_SHA"])]
    cmds = setup + [c.command]
    trace = []
    for cm in cmds:
        trace.append("+ " + cm)
        if cm == "echo $CI_COMMIT_SHA":
            trace.append(hexid(rng, 40))
    trace_full = trace + c.lines
    out = []
    code_line = f"exit code {c.code}"
    if layout in ("wp_ui", "yaml_ui"):
        if layout == "yaml_ui":
            out.append("# .woodpecker.yml" if rng.random() < 0.5 else "# .woodpecker/build.yaml")
            out.append("steps:")
            if rng.random() < 0.5:
                out.append(f"  - name: {step}")
                out.append(f"    image: {image}")
                out.append("    commands:")
                for cm in cmds:
                    out.append(f"      - {yaml_scalar(cm)}")
            else:
                out.append(f"  {step}:")
                out.append(f"    image: {image}")
                out.append("    commands:")
                for cm in cmds:
                    out.append(f"      - {yaml_scalar(cm)}")
            out.append("")
        repo = f"{c.user}/{c.projname}"
        out.append(f"{repo} · Pipeline #{rng.randint(12, 900)}" if rng.random() < 0.5 else f"#{rng.randint(12, 900)} {rng.choice(COMMIT_MSGS)}")
        out.append(f"{step}")
        numw = len(str(len(trace_full)))
        sep = rng.choice(["  ", "\t", " "])
        secs = 0
        show_secs = layout == "wp_ui" and rng.random() < 0.4
        for i, l in enumerate(trace_full, 1):
            if rng.random() < 0.1:
                secs += 1
            if show_secs:
                out.append(f"{i:>{numw}}{sep}{l}{sep}{secs}s")
            else:
                out.append(f"{i:>{numw}}{sep}{l}")
        out.append(code_line)
    elif layout == "drone_ui":
        out.append(f"{c.projname} #{rng.randint(3, 400)}")
        out.append("clone")
        out.append(step)
        out.append("")
        sep = rng.choice(["\t", "  "])
        for i, l in enumerate(trace_full, 1):
            out.append(f"{i}{sep}{l}")
        out.append("")
        out.append(code_line)
    elif layout == "drone_exec":
        out.append("$ drone exec --pipeline default")
        out.append(f"[clone:0] + git init")
        out.append(f"[clone:1] Initialized empty Git repository in /drone/src/.git/")
        for i, l in enumerate(trace_full):
            out.append(f"[{step}:{i}] {l}")
        if c.code:
            out.append(f"{adv(c.t0, rng, 1, 30).strftime('%Y/%m/%d %H:%M:%S')} {step} : exit code {c.code}")
    else:  # woodpecker-cli exec
        out.append(f"$ woodpecker-cli exec {rng.choice(['.woodpecker.yml', '.woodpecker/build.yaml', ''])}".rstrip())
        secs = 0
        for i, l in enumerate(trace_full):
            if rng.random() < 0.15:
                secs += 1
            out.append(f"[{step}:L{i}:{secs}s] {l}")
        if c.code:
            out.append(f"{step} : exit code {c.code}")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 9. nomad_alloc_logs
# ---------------------------------------------------------------------------

def hcl_str(s):
    s = s.replace("\\", "\\\\").replace('"', '\\"').replace("${", "$${").replace("%{", "%%{")
    return '"' + s + '"'


def nomad_jobfile(c, rng, job, group, task):
    drv = rng.choice(["raw_exec", "exec", "docker"])
    argv = argv_for(c.command)
    if rng.random() < 0.35:
        argv = ["/bin/sh", "-c", c.command]
    if drv != "docker" and argv[0] in ("/bin/sh",):
        argv = [rng.choice(["/bin/bash", "/bin/sh"]), "-c", c.command]
    out = [f'job "{job}" {{', f'  datacenters = ["{rng.choice(["dc1", "home", "lab"])}"]',
           f'  type        = "{rng.choice(["batch", "service"])}"', "", f'  group "{group}" {{', f'    task "{task}" {{',
           f'      driver = "{drv}"', "", "      config {"]
    if drv == "docker":
        out.append(f"        image   = {hcl_str(ci_image(c, rng))}")
    out.append(f"        command = {hcl_str(argv[0])}")
    if len(argv) > 1:
        out.append("        args    = [" + ", ".join(hcl_str(a) for a in argv[1:]) + "]")
    out.append("      }")
    if drv != "docker" and rng.random() < 0.6:
        out.append("")
        out.append(f'      user = "{c.user}"')
    out.append("    }")
    out.append("  }")
    out.append("}")
    return out


def nomad_events(c, rng, t):
    rows = []
    t1 = t
    rows.append((t1, "Received", "Task received by client"))
    t1 = adv(t1, rng, 0, 1)
    rows.append((t1, "Task Setup", "Building Task Directory"))
    t1 = adv(t1, rng, 0.2, 2)
    rows.append((t1, "Started", "Task started by client"))
    t1 = adv(t1, rng, 0.1, 3)
    rows.append((t1, "Terminated", f"Exit Code: {c.code}"))
    if rng.random() < 0.5:
        t1 = adv(t1, rng, 0, 0.1)
        rows.append((t1, "Restarting", f"Task restarting in {rng.uniform(15, 19):.6f}s"))
        t1 = adv(t1, rng, 15, 19)
        rows.append((t1, "Started", "Task started by client"))
        t1 = adv(t1, rng, 0.1, 3)
        rows.append((t1, "Terminated", f"Exit Code: {c.code}"))
    t1 = adv(t1, rng, 0, 0.1)
    rows.append((t1, "Not Restarting", 'Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"'))
    rows.reverse()
    return rows


def s_nomad(c, rng):
    job = c.name
    task = rng.choice([c.name, "main", "run", c.name])
    group = rng.choice([c.name, "app", "main"])
    alloc = uuid4(rng)
    short = alloc[:8]
    layout = rng.choice(["hcl_logs", "hcl_logs", "run_status", "ui", "job_flag"])
    out = []
    t = c.t0
    if layout in ("hcl_logs", "run_status", "job_flag"):
        fname = rng.choice([f"{job}.nomad.hcl", f"{job}.nomad", "job.hcl"])
        out.append(f"$ cat {fname}" if rng.random() < 0.6 else f"# {fname}")
        jf = nomad_jobfile(c, rng, job, group, task)
        out += jf
        out.append("")
    if layout == "run_status":
        ev = uuid4(rng)
        out.append(f"$ nomad job run {fname}")
        out.append(f'==> {t.strftime("%Y-%m-%dT%H:%M:%SZ")}: Monitoring evaluation "{ev[:8]}"')
        out.append(f'    {t.strftime("%Y-%m-%dT%H:%M:%SZ")}: Evaluation triggered by job "{job}"')
        t = adv(t, rng, 0.5, 2)
        out.append(f'    {t.strftime("%Y-%m-%dT%H:%M:%SZ")}: Allocation "{short}" created: node "{hexid(rng, 8)}", group "{group}"')
        out.append(f'    {t.strftime("%Y-%m-%dT%H:%M:%SZ")}: Evaluation status changed: "pending" -> "complete"')
        out.append(f'==> {t.strftime("%Y-%m-%dT%H:%M:%SZ")}: Evaluation "{ev[:8]}" finished with status "complete"')
        out.append("")
        out.append(f"$ nomad alloc status {short}")
        out.append(f"ID                  = {short}")
        out.append(f"Eval ID             = {ev[:8]}")
        out.append(f"Name                = {job}.{group}[0]")
        out.append(f"Node ID             = {hexid(rng, 8)}")
        out.append(f"Job ID              = {job}")
        out.append(f"Client Status       = failed")
        out.append("")
        out.append(f'Task "{task}" is "dead"')
        out.append("Recent Events:")
        out.append(f"{'Time':<26} {'Type':<15} Description")
        for tt, ty, de in nomad_events(c, rng, t):
            out.append(f"{tt.strftime('%Y-%m-%dT%H:%M:%SZ'):<26} {ty:<15} {de}")
        out.append("")
    if layout == "ui":
        if rng.random() < 0.75:
            out.append(f"Jobs / {job} / Definition")
            out += nomad_jobfile(c, rng, job, group, task)
            out.append("")
        out.append(f"Allocation {short}")
        out.append(f"Job {job} · Task Group {group} · Client {rng.choice(NODES)}")
        out.append("")
        out.append(f"Task {task}  dead (failed)")
        out.append("Recent Events")
        out.append("Time\tType\tDescription")
        for tt, ty, de in nomad_events(c, rng, t):
            out.append(f"{tt.strftime('%b %d, %Y %H:%M:%S')}\t{ty}\t{de}")
        out.append("")
        out.append(f"Logs: {task}   stdout | stderr")
        out += c.lines
        return "\n".join(out)
    if layout == "job_flag":
        out.append(f"$ nomad alloc logs -job {job} -stderr {task}")
    else:
        id_shown = alloc if rng.random() < 0.3 else short
        out.append(f"$ nomad alloc logs -stderr {id_shown} {task}")
    out += c.lines
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 10. supervisord_log
# ---------------------------------------------------------------------------

def sv_stamp(t, rng):
    return t.strftime("%Y-%m-%d %H:%M:%S") + "," + msec(t)


def sv_command(c, rng):
    cmd = c.command
    if needs_shell(cmd):
        q = cmd.replace('"', '\\"')
        cmd = f'/bin/bash -c "{q}"'
    return cmd.replace("%", "%%")


def sv_conf(c, rng, prog, errlog, retries=3):
    out = [f"[program:{prog}]", f"command={sv_command(c, rng)}", f"directory={c.absdir}"]
    if rng.random() < 0.6:
        out.append(f"user={c.user}")
    out.append("autostart=true")
    out.append(rng.choice(["autorestart=true", "autorestart=unexpected"]))
    out.append(f"startretries={retries}")
    if errlog:
        out.append(f"stderr_logfile={errlog}")
        out.append(f"stdout_logfile={errlog.replace('.err.log', '.out.log').replace('stderr', 'stdout')}")
    if rng.random() < 0.4:
        out.append(f'environment=HOME="{c.home}",USER="{c.user}"')
    return out


def sv_cycle(c, rng, prog, t, attempts, lvl="INFO"):
    """supervisord.log lines for attempts; returns (lines, t)."""
    rows = []
    pid = rng.randint(1200, 48000)
    for a in range(attempts):
        rows.append(f"{sv_stamp(t, rng)} INFO spawned: '{prog}' with pid {pid}")
        t = adv(t, rng, 0.05, 0.9)
        rows.append(f"{sv_stamp(t, rng)} {lvl} exited: {prog} (exit status {c.code}; not expected)")
        t = adv(t, rng, a + 0.9, a + 1.2)
        pid += rng.randint(2, 60)
    rows.append(f"{sv_stamp(t, rng)} INFO gave up: {prog} entered FATAL state, too many start retries too quickly")
    return rows, t


def s_supervisord(c, rng):
    prog = c.name
    layout = rng.choice(["files", "files", "docker_stdout", "ctl_tail", "ctl_start"])
    t = c.t0
    big = len(c.lines) > 14
    retries = rng.choice([3, 3, 2, 5])
    attempts = retries + 1
    lvl = rng.choice(["INFO", "INFO", "WARN"])
    errlog = rng.choice([f"/var/log/supervisor/{prog}.err.log", f"/var/log/{prog}/stderr.log",
                         f"/var/log/supervisor/{prog}-stderr---supervisor-{hexid(rng, 8)}.log"])
    out = []
    def boot(tt):
        rows = []
        for msg in [f'INFO Included extra file "/etc/supervisor/conf.d/{prog}.conf" during parsing',
                    "INFO RPC interface 'supervisor' initialized",
                    "CRIT Server 'unix_http_server' running without any HTTP authentication checking",
                    f"INFO supervisord started with pid {rng.randint(300, 2000)}"]:
            rows.append(f"{sv_stamp(tt, rng)} {msg}")
            tt = adv(tt, rng, 0.0005, 0.01)
        return rows, tt
    if layout == "files":
        out.append(f"$ cat /etc/supervisor/conf.d/{prog}.conf")
        out += sv_conf(c, rng, prog, errlog, retries)
        out.append("")
        out.append("$ sudo tail -n 20 /var/log/supervisor/supervisord.log")
        b, t = boot(t)
        cyc, t = sv_cycle(c, rng, prog, adv(t, rng, 0.5, 2), attempts, lvl)
        out += (b[rng.randint(0, 3):] + cyc)[-20:]
        out.append("")
        if big:
            n = len(c.lines) + rng.randint(0, 3)
            out.append(f"$ sudo tail -n {n} {errlog}")
            out += (c.lines * 2)[-n:]
        else:
            out.append(f"$ sudo cat {errlog}")
            for _ in range(attempts):
                out += c.lines
    elif layout == "docker_stdout":
        if rng.random() < 0.6:
            out += [f"# /etc/supervisor/conf.d/{prog}.conf", f"[program:{prog}]", f"command={sv_command(c, rng)}",
                    f"directory={c.absdir}", "autorestart=true", f"startretries={retries}",
                    "stdout_logfile=/dev/stdout", "stdout_logfile_maxbytes=0", "redirect_stderr=true", ""]
        else:
            out += [f"$ docker exec {c.projname.split('/')[-1]}-app-1 grep command= /etc/supervisor/conf.d/{prog}.conf",
                    f"command={sv_command(c, rng)}", ""]
        out.append(f"$ docker logs {c.projname.split('/')[-1]}-{rng.choice(['app', 'worker', 'svc'])}-1")
        for msg in ["CRIT Supervisor is running as root.  Privileges were not dropped because no user is specified in the config file.  If you intend to run as root, you can set user=root in the config file to avoid this message.",
                    f'INFO Included extra file "/etc/supervisor/conf.d/{prog}.conf" during parsing',
                    "INFO RPC interface 'supervisor' initialized",
                    "INFO supervisord started with pid 1"]:
            out.append(f"{sv_stamp(t, rng)} {msg}")
            t = adv(t, rng, 0.0005, 0.01)
        t = adv(t, rng, 0.5, 1.5)
        pid = rng.randint(7, 40)
        shown = attempts if len(c.lines) <= 4 else (rng.choice([2, 3]) if not big else rng.choice([1, 2]))
        for a in range(shown):
            out.append(f"{sv_stamp(t, rng)} INFO spawned: '{prog}' with pid {pid}")
            out += c.lines
            t = adv(t, rng, 0.05, 0.9)
            out.append(f"{sv_stamp(t, rng)} {lvl} exited: {prog} (exit status {c.code}; not expected)")
            t = adv(t, rng, a + 0.9, a + 1.2)
            pid += rng.randint(2, 30)
        if shown == attempts:
            out.append(f"{sv_stamp(t, rng)} INFO gave up: {prog} entered FATAL state, too many start retries too quickly")
    elif layout == "ctl_tail":
        out.append("$ sudo supervisorctl status")
        others = rng.sample(["nginx", "celery", "redis-tunnel", "beat", "metrics"], rng.randint(0, 2))
        for o in sorted(others + [prog]):
            if o == prog:
                out.append(f"{prog:<33}FATAL     Exited too quickly (process log may have details)")
            else:
                out.append(f"{o:<33}RUNNING   pid {rng.randint(300, 9000)}, uptime {rng.randint(0, 40)}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}")
        out.append(f"$ sudo supervisorctl tail {prog} stderr")
        blob = "\n".join(c.lines * attempts) + "\n"
        if len(blob.encode()) > 1600:
            b = blob.encode()[-1600:]
            blob = b.decode("utf-8", "ignore")
        out.append(blob.rstrip("\n"))
        out.append("")
        out.append(f"$ grep {prog} /var/log/supervisor/supervisord.log | tail -n 4")
        cyc, t = sv_cycle(c, rng, prog, t, attempts, lvl)
        out += cyc[-4:]
    else:
        out.append(f"$ sudo supervisorctl start {prog}")
        out.append(f"{prog}: ERROR (spawn error)")
        out.append(f"$ sudo supervisorctl tail -{rng.choice([2000, 4000, 8000])} {prog} stderr")
        out += c.lines
        out.append("")
        out.append("$ sudo tail -n 6 /var/log/supervisor/supervisord.log")
        cyc, t = sv_cycle(c, rng, prog, t, attempts, lvl)
        out += cyc[-6:]
        if rng.random() < 0.5:
            out.append("")
            out.append(f"$ grep command /etc/supervisor/conf.d/{prog}.conf")
            out.append(f"command={sv_command(c, rng)}")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 11. pm2_logs
# ---------------------------------------------------------------------------

def pm2_start(c, rng, name):
    cmd = c.command
    toks = split_cmd(cmd)
    if not needs_shell(cmd) and toks and toks[0] == "node" and len(toks) >= 2:
        extra = (" -- " + " ".join(toks[2:])) if len(toks) > 2 else ""
        return f"pm2 start {toks[1]} --name {name}{extra}", toks[1]
    if not needs_shell(cmd) and toks and toks[0] in ("python3", "python") and len(toks) == 2 and toks[1].endswith(".py") and rng.random() < 0.6:
        return f"pm2 start {toks[1]} --name {name} --interpreter {toks[0]} --no-autorestart", toks[1]
    if not needs_shell(cmd) and toks and toks[0] == "npm" and len(toks) >= 2 and rng.random() < 0.6:
        return f"pm2 start npm --name {name} -- {' '.join(toks[1:])}", "/usr/bin/npm"
    q = cmd.replace('"', '\\"')
    return f'pm2 start "{q}" --name {name}' + rng.choice(["", " --no-autorestart", ""]), "/usr/bin/bash"


def pm2_table(name, pid, status, restarts, user):
    hdr = ["id", "name", "namespace", "version", "mode", "pid", "uptime", "↺", "status", "cpu", "mem", "user", "watching"]
    row = ["0", name, "default", "N/A", "fork", str(pid), "0", str(restarts), status, "0%", "0b" if status != "online" else "32.1mb", user, "disabled"]
    w = [max(len(h), len(r)) + 2 for h, r in zip(hdr, row)]
    top = "┌" + "┬".join("─" * x for x in w) + "┐"
    mid = "├" + "┼".join("─" * x for x in w) + "┤"
    bot = "└" + "┴".join("─" * x for x in w) + "┘"
    def fmt(cells):
        return "│" + "│".join(" " + cc.ljust(x - 1) for cc, x in zip(cells, w)) + "│"
    return [top, fmt(hdr), mid, fmt(row), bot]


def s_pm2(c, rng):
    name = c.name[:14]
    pad = max(len(name) + 1, rng.choice([6, 8, 10]))
    pfx = f"0|{name:<{pad}}| "
    pm2p = f"{'PM2':<{len('0|') + pad}}| "
    layout = rng.choice(["start_logs", "start_logs", "stream", "err_only", "timestamps"])
    start, script = pm2_start(c, rng, name)
    t = c.t0
    home = c.home
    out = []
    def pm2log(msg, tt):
        return f"{pm2p}{tt.strftime('%Y-%m-%dT%H:%M:%S')}: PM2 log: {msg}"
    if layout in ("start_logs", "err_only", "timestamps"):
        out.append(f"$ {start}")
        absscript = script if script.startswith("/") else f"{c.absdir}/{script}"
        out.append(f"[PM2] Starting {absscript} in fork_mode (1 instance)")
        out.append("[PM2] Done.")
        if rng.random() < 0.6:
            out += pm2_table(name, rng.randint(1200, 60000), rng.choice(["online", "online", "errored"]), 0, c.user)
        nlines = rng.choice([15, 20, 30, 50])
        if layout == "err_only":
            out.append(f"$ pm2 logs {name} --err --lines {nlines}")
        elif layout == "timestamps":
            out.append(f"$ pm2 logs {name} --timestamp --lines {nlines}")
        else:
            out.append(f"$ pm2 logs {name}" + rng.choice(["", f" --lines {nlines}"]))
        out.append(f"[TAILING] Tailing last {nlines} lines for [{name}] process (change the value with --lines option)")
        if layout != "err_only" and rng.random() < 0.5:
            out.append(f"{home}/.pm2/logs/{name}-out.log last {nlines} lines:")
            out.append("")
        out.append(f"{home}/.pm2/logs/{name}-error.log last {nlines} lines:")
        for l in c.lines[-nlines:]:
            if layout == "timestamps":
                out.append(f"{pfx}{t.strftime('%Y-%m-%dT%H:%M:%S')}: {l}")
            else:
                out.append(pfx + l)
        out.append("")
        if rng.random() < 0.5:
            t = adv(t, rng, 1, 30)
            out.append(pm2log(f"App [{name}:0] exited with code [{c.code}] via signal [SIGINT]", t))
    else:
        out.append(f"$ {start}")
        out.append("[PM2] Done.")
        out.append("$ pm2 logs")
        out.append("[TAILING] Tailing last 15 lines for [all] processes (change the value with --lines option)")
        out.append(f"{home}/.pm2/pm2.log last 15 lines:")
        reps = 1 if len(c.lines) > 12 else rng.choice([1, 2])
        for r in range(reps):
            out.append(pm2log(f"App [{name}:0] starting in -fork mode-", t))
            out.append(pm2log(f"App [{name}:0] online", t))
            t = adv(t, rng, 0.1, 1.5)
            for l in c.lines:
                out.append(pfx + l)
            out.append(pm2log(f"App [{name}:0] exited with code [{c.code}] via signal [SIGINT]", t))
            t = adv(t, rng, 0.1, 0.5)
        if rng.random() < 0.5 and c.code:
            absscript = script if script.startswith("/") else f"{c.absdir}/{script}"
            out.append(pm2log(f'Script {absscript} had too many unstable restarts (16). Stopped. "errored"', t))
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 12. tilt_skaffold_dev
# ---------------------------------------------------------------------------

def starlark_str(s):
    if "'" not in s:
        return "'" + s + "'"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def s_tilt(c, rng):
    layout = rng.choice(["tilt_bar", "tilt_bar", "tilt_brackets", "skaffold_hook", "skaffold_pod"])
    res = c.name
    out = []
    t = c.t0
    if layout in ("tilt_bar", "tilt_brackets"):
        ver = rng.choice(["v0.33.10", "v0.33.21", "v0.32.3", "v0.34.0"])
        if rng.random() < 0.5:
            out.append(rng.choice(["$ grep -A4 local_resource Tiltfile", "# Tiltfile"]))
            out.append(f"local_resource(")
            out.append(f"    {starlark_str(res)},")
            out.append(f"    cmd={starlark_str(c.command)},")
            out.append(f"    deps=[{starlark_str(rng.choice(['src', '.', 'app', 'cmd']))}],")
            out.append(")")
            out.append("")
        out.append(f"$ tilt up --stream")
        out.append(f"Tilt started on http://localhost:10350/")
        out.append(f"{ver}, built {(t - dt.timedelta(days=rng.randint(20, 200))).strftime('%Y-%m-%d')}")
        out.append("")
        if layout == "tilt_bar":
            w = max(len("Tiltfile"), len(res), rng.choice([10, 12, 14]))
            def pf(n):
                return f"{n:>{w}} │ "
        else:
            def pf(n):
                return f"[{n}] "
        out.append(pf("Tiltfile") + f"Loading Tiltfile at: {c.absdir}/Tiltfile")
        out.append(pf("Tiltfile") + f"Successfully loaded Tiltfile ({rng.uniform(1, 40):.6f}ms)".replace("0000ms", "ms"))
        out.append(pf(res))
        out.append(pf(res) + "Initial Build")
        out.append(pf(res) + f"Running cmd: {c.command}")
        for l in c.lines:
            out.append(pf(res) + l)
        if c.code:
            msg = rng.choice([f'Build Failed: Command "{c.command}" failed: exit status {c.code}',
                              f"Build Failed: exit status {c.code}",
                              f'ERROR: Build Failed: Command "{c.command}" failed: exit status {c.code}'])
            out.append(pf(res) + msg)
    elif layout == "skaffold_hook":
        img = c.name
        out.append("$ skaffold dev")
        out.append("Generating tags...")
        out.append(f" - {img} -> {img}:{hexid(rng, 7)}-dirty")
        out.append("Checking cache...")
        out.append(f" - {img}: Not found. Building")
        out.append("Starting build...")
        out.append(f"Found [{rng.choice(['minikube', 'kind-dev', 'docker-desktop', 'k3d-dev'])}] context, using local docker daemon.")
        out.append(f"Building [{img}]...")
        sub = rng.choice(["hook", "custom"])
        if sub == "hook":
            out.append(f'Starting pre-build hooks for artifact "{img}"...')
            out += c.lines
            out.append("Cleaning up...")
            out.append(" - No resources found")
            out.append(f'pre-build hook failed for artifact "{img}": exit status {c.code}')
        else:
            out += c.lines
            out.append("Cleaning up...")
            out.append(" - No resources found")
            out.append(f"build [{img}] failed: exit status {c.code}")
        out.insert(0, "")
        yaml = ["# skaffold.yaml (excerpt)", "build:", "  artifacts:", f"    - image: {img}"]
        if sub == "hook":
            argv = argv_for(c.command)
            yaml += ["      hooks:", "        before:", "          - command: [" + ", ".join(json.dumps(a) for a in argv) + "]",
                     f"            dir: {yaml_scalar(c.cwd.replace('~', '.', 1) if c.cwd != '~' else '.')}"]
        else:
            yaml += ["      custom:", f"        buildCommand: {yaml_scalar(c.command)}"]
        out = yaml + out
    else:
        pod = f"{c.name}-{''.join(rng.choice('bcdfghjklmnpqrstvwxz2456789') for _ in range(rng.choice([9, 10])))}-{''.join(rng.choice('bcdfghjklmnpqrstvwxz2456789') for _ in range(5))}"
        ctr = c.name
        argv = argv_for(c.command)
        out.append("# k8s/deployment.yaml (excerpt)")
        out.append("      containers:")
        out.append(f"        - name: {ctr}")
        out.append(f"          image: {ctr}")
        out.append("          command: [" + ", ".join(json.dumps(a) for a in argv) + "]")
        out.append("")
        out.append("$ skaffold dev")
        out.append("Listing files to watch...")
        out.append(f" - {ctr}")
        out.append("Generating tags...")
        out.append(f" - {ctr} -> {ctr}:latest")
        out.append("Checking cache...")
        out.append(f" - {ctr}: Found Locally")
        out.append("Tags used in deployment:")
        out.append(f" - {ctr} -> {ctr}:{hexid(rng, 12)}")
        out.append("Starting deploy...")
        out.append(f" - deployment.apps/{c.name} created")
        out.append("Waiting for deployments to stabilize...")
        out.append("Press Ctrl+C to exit")
        out.append("Watching for changes...")
        for l in c.lines:
            out.append(f"[{pod} {ctr}] {l}")
        if c.code:
            out.append(f" - deployment/{c.name}: container {ctr} terminated with exit code {c.code}")
            out.append(f"    - pod/{pod}: container {ctr} terminated with exit code {c.code}")
            for l in c.lines[-3:]:
                out.append(f"      > [{pod} {ctr}] {l}")
            out.append(f" - deployment/{c.name} failed. Error: container {ctr} terminated with exit code {c.code}.")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 13. bazel_wrapped
# ---------------------------------------------------------------------------

def bazel_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def s_bazel(c, rng):
    layout = rng.choice(["genrule", "genrule", "verbose", "run", "test"])
    pkg = rng.choice(["tools", "gen", "scripts", "ci", c.projname.replace("-", "_")])
    target = rng.choice(["gen", c.name.replace("-", "_"), "build_step", "check"])
    if layout == "test":
        target = rng.choice(["check", "smoke_test", c.name.replace("-", "_") + "_test", "integration_test"])
    label = f"//{pkg}:{target}"
    ws = c.absdir
    line = rng.randint(3, 40)
    col = rng.choice([1, 8, 8, 9])
    buildf = rng.choice(["BUILD", "BUILD.bazel"])
    t_el = rng.uniform(0.4, 25)
    out = []
    inv = [f"INFO: Invocation ID: {uuid4(rng)}"] if rng.random() < 0.5 else []
    loaded = f"({rng.randint(0, 60)} packages loaded, {rng.randint(0, 400)} targets configured)"
    if layout in ("genrule", "verbose"):
        outfile = rng.choice([f"{target}.stamp", f"{target}.txt", f"{target}.out", "gen.log"])
        ex = c.command + " > $@" if rng.random() < 0.5 else c.command + " && touch $@"
        build_cmd = ex.replace("$", "$$").replace("$$@", "$@")
        expanded = ex.replace("$@", f"bazel-out/k8-fastbuild/bin/{pkg}/{outfile}")
        out.append(f"$ cat {pkg}/{buildf}")
        out.append("genrule(")
        out.append(f'    name = "{target}",')
        out.append(f'    outs = ["{outfile}"],')
        out.append(f"    cmd = {dq(build_cmd)},")
        if rng.random() < 0.5:
            out.append("    local = True,")
        out.append(")")
        out.append("")
        out.append(f"$ bazel build {label}" + (" --verbose_failures" if layout == "verbose" else ""))
        out += inv
        out.append(f"INFO: Analyzed target {label} {loaded}.")
        out.append("INFO: Found 1 target...")
        what = rng.choice(["error executing Genrule command", "error executing command"])
        frm = rng.choice([f"(from target {label})", f"(from genrule rule target {label})"])
        setup = "source external/bazel_tools/tools/genrule/genrule-setup.sh; "
        if layout == "verbose":
            out.append(f"ERROR: {ws}/{pkg}/{buildf}:{line}:{col}: Executing genrule {label} failed: (Exit {c.code}): bash failed: {what} {frm}")
            out.append(f"  (cd {c.home}/.cache/bazel/_bazel_{c.user}/{hexid(rng, 32)}/execroot/_main && \\")
            out.append("  exec env - \\")
            out.append("    PATH=/usr/local/bin:/usr/bin:/bin \\")
            out.append(f"  /bin/bash -c {bazel_quote(setup + expanded)})")
            out.append("# Configuration: " + hexid(rng, 64))
            out.append("# Execution platform: @@platforms//host:host")
        else:
            out.append(f"ERROR: {ws}/{pkg}/{buildf}:{line}:{col}: Executing genrule {label} failed: (Exit {c.code}): bash failed: {what} {frm} /bin/bash -c {bazel_quote(setup + expanded)}")
        out += c.lines
        out.append(f"Target {label} failed to build")
        if layout != "verbose":
            out.append("Use --verbose_failures to see the command lines of failed actions.")
        out.append(f"INFO: Elapsed time: {t_el:.3f}s, Critical Path: {t_el * rng.uniform(0.3, 0.9):.2f}s")
        n_int = rng.randint(1, 4)
        out.append(f"INFO: {n_int + 1} processes: {n_int} internal, 1 linux-sandbox.")
        out.append(rng.choice(["FAILED: Build did NOT complete successfully", "ERROR: Build did NOT complete successfully"]))
    elif layout == "run":
        out.append(f"$ cat {pkg}/{target}.sh")
        out.append("#!/usr/bin/env bash")
        out.append("set -euo pipefail")
        if c.cwd != "~":
            out.append(f'cd "$BUILD_WORKSPACE_DIRECTORY"')
        out.append(c.command)
        out.append("")
        out.append(f"$ bazel run {label}")
        out += inv
        out.append(f"INFO: Analyzed target {label} {loaded}.")
        out.append("INFO: Found 1 target...")
        out.append(f"Target {label} up-to-date:")
        out.append(f"  bazel-bin/{pkg}/{target}")
        out.append(f"INFO: Elapsed time: {t_el:.3f}s, Critical Path: {t_el * 0.2:.2f}s")
        out.append("INFO: 1 process: 1 internal.")
        out.append("INFO: Build completed successfully, 1 total action")
        out.append(f"INFO: Running command line: bazel-bin/{pkg}/{target}")
        out += c.lines
    else:
        out.append(f"$ bazel test {label}")
        out += inv
        out.append(f"INFO: Analyzed target {label} {loaded}.")
        out.append("INFO: Found 1 test target...")
        logp = f"{c.home}/.cache/bazel/_bazel_{c.user}/{hexid(rng, 32)}/execroot/_main/bazel-out/k8-fastbuild/testlogs/{pkg}/{target}/test.log"
        out.append(f"FAIL: {label} (see {logp})" if c.code else f"INFO: {label} PASSED")
        out.append(f"Target {label} up-to-date:")
        out.append(f"  bazel-bin/{pkg}/{target}")
        out.append(f"INFO: Elapsed time: {t_el:.3f}s, Critical Path: {t_el * 0.7:.2f}s")
        out.append(f"INFO: Build completed, 1 test FAILED, {rng.randint(2, 5)} total actions" if c.code else "INFO: Build completed successfully")
        out.append(f"{label:<66}" + (f"FAILED in {rng.uniform(0.1, 9):.1f}s" if c.code else "PASSED"))
        out.append(f"  {logp}")
        out.append("")
        out.append("Executed 1 out of 1 test: 1 fails locally." if c.code else "Executed 1 out of 1 test: 1 test passes.")
        out.append("")
        out.append(f"$ cat bazel-testlogs/{pkg}/{target}/test.log")
        out.append('exec ${PAGER:-/usr/bin/less} "$0" || exit 1')
        out.append(f"Executing tests from {label}")
        out.append("-" * 79)
        out.append(f"+ {c.command}")
        out += c.lines
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 14. rundeck_awx_job
# ---------------------------------------------------------------------------

def ansible_banner(msg):
    return f"{msg} " + "*" * max(3, 79 - len(msg))


def s_rundeck_awx(c, rng):
    layout = rng.choice(["rundeck", "rundeck", "awx_json", "awx_json", "awx_yaml", "awx_numbered"])
    node = rng.choice(NODES)
    t = c.t0
    out = []
    if layout == "rundeck":
        execid = rng.randint(300, 90000)
        proj = rng.choice(["ops", "infra", "dev", c.projname])
        jobname = rng.choice([c.name, "build-and-restart", "nightly-" + c.name, "run " + c.name])
        out.append(f"#{execid}  {jobname}")
        out.append(f"{'Failed' if c.code else 'Succeeded'}  by {c.user}  {t.strftime('%Y-%m-%d %H:%M')}  in {rng.randint(1, 80)}s")
        out.append("")
        out.append("Log Output")
        out.append(f"1. Command: {c.command}" if rng.random() < 0.5 else f"Workflow\n1. {c.command}")
        sep = rng.choice(["\t", "  "])
        steplab = rng.choice(["1. Command", "1", "1. Run command"])
        compact = rng.random() < 0.4
        for i, l in enumerate(c.lines):
            if compact and i > 0:
                out.append(f"{sep}{sep}{sep}{l}")
            else:
                out.append(f"{clock(t)}{sep}{node}{sep}{steplab}{sep}{l}")
            t = adv(t, rng, 0, 0.05)
        if c.code:
            out.append(f"{clock(t)}{sep}{node}{sep}{steplab}{sep}Failed: NonZeroResultCode: Remote command failed with exit status {c.code}")
            t = adv(t, rng, 0, 0.3)
            out.append(f"{clock(t)}{sep}{sep}{sep}Execution failed: {execid} in project {proj}: [Workflow result: , step failures: {{1=Dispatch failed on 1 nodes: [{node}: NonZeroResultCode: Remote command failed with exit status {c.code}]}}, Node failures: {{{node}=[NonZeroResultCode: Remote command failed with exit status {c.code}]}}, status: failed]")
        return "\n".join(out)
    # AWX / Ansible
    play = rng.choice([f"Run {c.name}", "Build and deploy", "Maintenance", c.projname])
    taskname = rng.choice([f"Run {c.command}"[:60], f"run {c.name}", "Build", "Execute command", c.name])
    module_shell = needs_shell(c.command) or rng.random() < 0.5
    start = t + dt.timedelta(seconds=rng.randint(2, 10))
    delta = dt.timedelta(seconds=rng.uniform(0.05, 25))
    end = start + delta
    def aft(x):
        return x.strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % rng.randint(0, 999999)
    cmdval = c.command if module_shell else split_cmd(c.command)
    stderr = "\n".join(c.lines)
    res = {"changed": True, "cmd": cmdval, "delta": "%d:%02d:%02d.%06d" % (0, 0, int(delta.total_seconds()), delta.microseconds),
           "end": aft(end), "msg": "non-zero return code" if c.code else "", "rc": c.code, "start": aft(start),
           "stderr": stderr, "stderr_lines": c.lines, "stdout": "", "stdout_lines": []}
    if not c.code:
        del res["msg"]
    lines = []
    jid = rng.randint(40, 9000)
    lines.append(f"Identity added: /runner/artifacts/{jid}/ssh_key_data (/runner/artifacts/{jid}/ssh_key_data)")
    lines.append("")
    lines.append(ansible_banner(f"PLAY [{play}]"))
    lines.append("")
    lines.append(ansible_banner("TASK [Gathering Facts]"))
    lines.append(f"ok: [{node}]")
    lines.append("")
    lines.append(ansible_banner(f"TASK [{taskname}]"))
    if layout == "awx_yaml":
        status = "fatal" if c.code else "changed"
        lines.append(f"{status}: [{node}]: FAILED! => changed=true " if c.code else f"changed: [{node}]")
        if c.code:
            lines[-1] = lines[-1].rstrip()
            y = []
            if module_shell:
                y.append(f"  cmd: {yaml_scalar(c.command)}")
            else:
                y.append("  cmd:")
                for a in cmdval:
                    y.append(f"  - {yaml_scalar(a)}")
            y.append(f"  delta: '{res['delta']}'")
            y.append(f"  end: '{res['end']}'")
            y.append("  msg: non-zero return code")
            y.append(f"  rc: {c.code}")
            y.append(f"  start: '{res['start']}'")
            y.append("  stderr: |-")
            for l in c.lines:
                y.append(("    " + l) if l else "")
            y.append("  stderr_lines: <omitted>")
            y.append("  stdout: ''")
            y.append("  stdout_lines: <omitted>")
            lines += y
    else:
        if c.code:
            lines.append(f"fatal: [{node}]: FAILED! => " + json.dumps(res, ensure_ascii=False))
        else:
            lines.append(f"changed: [{node}]")
    lines.append("")
    lines.append(ansible_banner("PLAY RECAP"))
    lines.append(f"{node:<27}: ok=1    changed={0 if c.code else 1}    unreachable=0    failed={1 if c.code else 0}    skipped=0    rescued=0    ignored=0   ")
    if layout == "awx_numbered":
        w = len(str(len(lines)))
        out.append(f"Jobs / {jid} - {play}")
        out.append(f"Status {'Failed' if c.code else 'Successful'}")
        out.append("")
        for i, l in enumerate(lines, 1):
            out.append(f"{i:>{w}} {l}".rstrip() if l else f"{i:>{w}}")
    else:
        out += lines
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 15. podman_kube_play
# ---------------------------------------------------------------------------

def full_image(image):
    name = image.split(":")[0]
    if "/" not in name:
        return "docker.io/library/" + image
    if "." not in name.split("/")[0]:
        return "docker.io/" + image
    return image


def s_podman(c, rng):
    pod = c.name
    ctr = rng.choice([c.name, "app", "main", c.name])
    full = f"{pod}-{ctr}"
    image = full_image(ci_image(c, rng))
    argv = argv_for(c.command)
    if rng.random() < 0.3:
        argv = ["sh", "-c", c.command]
    layout = rng.choice(["kube_names", "kube_names", "kube_exit", "compose_provider", "podman_compose", "ps_logs"])
    out = []
    if layout in ("kube_names", "kube_exit", "ps_logs"):
        yname = rng.choice(["pod.yaml", f"{pod}.yaml", "kube.yaml"])
        out.append(f"$ cat {yname}")
        out += ["apiVersion: v1", "kind: Pod", "metadata:", f"  name: {pod}", "spec:",
                f"  restartPolicy: {rng.choice(['Never', 'OnFailure', 'Never'])}", "  containers:",
                f"  - name: {ctr}", f"    image: {image}", f"    workingDir: /{rng.choice(['app', 'src', 'work'])}",
                "    command: [" + ", ".join(json.dumps(a) for a in argv) + "]"]
        out.append("")
        out.append(f"$ podman kube play {yname}")
        out += ["Pod:", hexid(rng, 64), "Container:", hexid(rng, 64), ""]
    if layout == "kube_names":
        out.append(f"$ podman pod logs --names {pod}" if rng.random() < 0.5 else f"$ podman logs --names {full} {hexid(rng, 12)}-infra")
        for l in c.lines:
            out.append(f"{full} {l}")
        out.append(f"$ podman wait {full}")
        out.append(str(c.code))
    elif layout == "kube_exit":
        out.append(f"$ podman logs {full}")
        out += c.lines
        out.append(f"$ podman inspect {full} --format '{{{{.State.Status}}}} {{{{.State.ExitCode}}}}'")
        out.append(f"exited {c.code}")
    elif layout == "compose_provider":
        svc = ctr
        proj = slug(c.projname.split("/")[-1])
        cn = f"{svc}-1"
        out.append("$ cat compose.yaml")
        out += ["services:", f"  {svc}:", f"    image: {image}", "    working_dir: /app", "    volumes:", "      - .:/app:Z",
                f"    command: {yaml_scalar(c.command)}" if rng.random() < 0.5 else "    command: [" + ", ".join(json.dumps(a) for a in argv) + "]"]
        out.append("")
        out.append("$ podman compose up")
        out.append(">>>> Executing external compose provider \"/usr/local/bin/docker-compose\". Please see podman-compose(1) for how to disable this message. <<<<")
        out.append("")
        out.append(" Network {}_default  Creating".format(proj))
        out.append(" Network {}_default  Created".format(proj))
        out.append(f" Container {proj}-{cn}  Creating")
        out.append(f" Container {proj}-{cn}  Created")
        out.append(f"Attaching to {cn}")
        w = len(cn) + 2
        for l in c.lines:
            out.append(f"{cn:<{w}}| {l}")
        out.append(f"{cn} exited with code {c.code}")
    elif layout == "podman_compose":
        svc = ctr
        proj = slug(c.projname.split("/")[-1])
        cn = f"{proj}_{svc}_1"
        out.append("$ cat podman-compose.yml")
        out += ["services:", f"  {svc}:", f"    image: {image}", "    working_dir: /app", "    volumes:", "      - .:/app:Z",
                f"    command: {yaml_scalar(c.command)}" if rng.random() < 0.5 else "    command: [" + ", ".join(json.dumps(a) for a in argv) + "]"]
        out.append("")
        out.append("$ podman-compose -f podman-compose.yml up")
        out.append(f"podman-compose version: 1.{rng.randint(0, 2)}.{rng.randint(0, 3)}")
        out.append(f"podman start -a {cn}")
        sep = rng.choice([" ", " | "])
        for l in c.lines:
            out.append(f"[{svc}]{sep}{l}")
        out.append(f"container {cn} exited with status {c.code}" if rng.random() < 0.5 else f"exit code: {c.code}")
    else:
        out.append("$ podman ps -a --pod")
        cols = [("CONTAINER ID", 15), ("IMAGE", max(34, len(image) + 2)), ("COMMAND", 22), ("CREATED", 20),
                ("STATUS", 28), ("PORTS", 8), ("NAMES", max(22, len(full) + 2)), ("POD ID", 14), ("PODNAME", 0)]
        def row(vals):
            return "".join((v.ljust(w) if w else v) for v, (_, w) in zip(vals, cols)).rstrip()
        out.append(row([h for h, _ in cols]))
        cmd_short = " ".join(argv[1:]) if len(argv) > 1 else argv[0]
        cmd_short = (cmd_short[:17] + "...") if len(cmd_short) > 20 else cmd_short
        podid = hexid(rng, 12)
        out.append(row([hexid(rng, 12), "localhost/podman-pause:4.9.3-0", "", "About a minute ago", "Up About a minute",
                        "", hexid(rng, 12) + "-infra", podid, pod]))
        out.append(row([hexid(rng, 12), image, cmd_short, "About a minute ago",
                        f"Exited ({c.code}) {rng.randint(2, 50)} seconds ago", "", full, podid, pod]))
        out.append(f"$ podman logs {full}")
        out += c.lines
    return "\n".join(out)


# ---------------------------------------------------------------------------
# 16. dagger_earthly_log
# ---------------------------------------------------------------------------

def s_dagger_earthly(c, rng):
    layout = rng.choice(["earthly", "earthly", "dagger_tui", "dagger_tree", "dagger_plain"])
    image = ci_image(c, rng)
    out = []
    if layout == "earthly":
        tgt = rng.choice(["+build", "+test", "+check", f"+{c.name}", "+run"])
        wd = rng.choice(["/app", "/src", "/work", "/code"])
        line = rng.randint(6, 30)
        if rng.random() < 0.5:
            ef = ["VERSION 0.8", f"FROM {image}", f"WORKDIR {wd}", "", f"{tgt[1:]}:", "    COPY . .", f"    RUN {c.command}"]
            line = len(ef)
            out.append("$ cat Earthfile")
            out += ef
            out.append("")
        out.append(f"$ earthly {tgt}")
        out.append(" Init 🚀")
        out.append("—" * 80)
        out.append("")
        w = max(len("buildkitd"), len(image), len(tgt) + len(" *failed*")) + rng.choice([0, 2, 6])
        def pf(n, failed=False):
            return f"{(n + (' *failed*' if failed else '')):>{w}} | "
        out.append(pf("buildkitd") + "Found buildkit daemon as docker container (earthly-buildkitd)")
        out.append("")
        out.append(" Build 🔧")
        out.append("—" * 80)
        out.append("")
        out.append(pf(image) + f"--> Load metadata {image} linux/amd64")
        out.append(pf(tgt) + f"--> FROM {image}")
        out.append(pf(tgt) + f"[██████████] 100% resolve {full_image(image)}@sha256:{hexid(rng, 64)}")
        out.append(pf(tgt) + f"--> WORKDIR {wd}")
        out.append(pf(tgt) + "--> COPY . .")
        out.append(pf(tgt) + f"--> RUN {c.command}")
        for l in c.lines:
            out.append(pf(tgt) + l)
        if c.code:
            err_block = [f"ERROR Earthfile line {line}:4", "      The command", f"          RUN {c.command}",
                         f"      did not complete successfully. Exit code {c.code}"]
            for l in err_block:
                out.append(pf(tgt, True) + l)
            if rng.random() < 0.6:
                out.append("")
                out.append(pf(tgt, True) + "Repeating the failure error...")
                out.append(pf(tgt, True) + f"--> RUN {c.command}")
                for l in c.lines:
                    out.append(pf(tgt, True) + l)
                for l in err_block:
                    out.append(pf(tgt, True) + l)
            out.append("")
            out.append(f'Error: build target: build main: failed to solve: process "/bin/sh -c {c.command}" did not complete successfully: exit code: {c.code}')
        else:
            out.append("")
            out.append("=" * 26 + " 🌍 Earthly Build  ✅ SUCCESS " + "=" * 26)
    elif layout == "dagger_tui":
        argv = argv_for(c.command)
        execname = " ".join(argv) if argv[0] != "/bin/sh" else f"sh -c {c.command}"
        out.append(f"$ dagger run go run ./ci" if rng.random() < 0.5 else "$ dagger run python ci/main.py")
        out.append("┣─╮")
        out.append(f"│ ▽ from {image}")
        out.append(f"│ █ [{rng.uniform(0.2, 2):.2f}s] resolve image config for {full_image(image)}")
        out.append(f"│ █ [{rng.uniform(0.01, 0.3):.2f}s] pull {full_image(image)}")
        out.append(f"│ ┣ [{rng.uniform(0.01, 0.3):.2f}s] resolve {full_image(image)}@sha256:{hexid(rng, 64)}")
        out.append("┣─┼─╮")
        out.append("│ │ ▽ host.directory .")
        out.append(f"│ │ █ [{rng.uniform(0.05, 1):.2f}s] upload . from {c.host} (client id: {hexid(rng, 25)})")
        out.append("│ ┣─╯")
        dur = f"[{rng.uniform(0.1, 9):.1f}s]" if rng.random() < 0.5 else f"[{rng.uniform(0.1, 9):.2f}s]"
        out.append(f"│ █ {dur} ERROR exec {execname}" if c.code else f"│ █ {dur} exec {execname}")
        for l in c.lines:
            out.append("│ ┃ " + l)
        out.append("┻")
        if c.code:
            out.append(f"Error: response from query: input: container.from.withDirectory.withWorkdir.withExec.sync process \"{execname}\" did not complete successfully: exit code: {c.code}")
            out.append("")
            out.append("Stdout:")
            out.append("")
            out.append("Stderr:")
            out += c.lines
    elif layout == "dagger_tree":
        argv = argv_for(c.command)
        execname = " ".join(argv) if argv[0] != "/bin/sh" else f"sh -c {c.command}"
        fn = rng.choice(["build", "test", "check", "run"])
        out.append(f"$ dagger call {fn} --source=.")
        out.append(f"✔ connect {rng.uniform(0.1, 1.5):.1f}s")
        out.append(f"✔ load module {rng.uniform(0.4, 6):.1f}s")
        out.append(f"✔ parsing command line arguments {rng.uniform(0, 0.3):.1f}s")
        mark = "✘" if c.code else "✔"
        out.append(f"{mark} {c.projname.replace('-', '_')}: {''.join(p.title() for p in re.split('[-_]', c.projname))}! {rng.uniform(0, 0.2):.1f}s")
        out.append(f"{mark} .{fn}(source: Address.directory: Directory!): Container! {rng.uniform(1, 20):.1f}s")
        out.append(f"  {mark} exec {execname} {'ERROR ' if c.code else ''}[{rng.uniform(0.1, 9):.1f}s]")
        for l in c.lines:
            out.append("  ┃ " + l)
        if c.code:
            out.append(f"  ! process \"{execname}\" did not complete successfully: exit code: {c.code}")
            out.append("")
            out.append(f"Error logs:")
            out.append("")
            out.append(f"{mark} exec {execname} ERROR")
            for l in c.lines[-rng.randint(2, 6):]:
                out.append("┃ " + l)
            out.append("")
            out.append(f"Error: process \"{execname}\" did not complete successfully: exit code: {c.code}")
    else:
        argv = argv_for(c.command)
        execname = " ".join(argv) if argv[0] != "/bin/sh" else f"sh -c {c.command}"
        n = rng.randint(4, 12)
        out.append("$ dagger run --progress=plain go run ci/main.go")
        out.append(f"#1 resolve image config for {full_image(image)}")
        out.append(f"#1 DONE {rng.uniform(0.3, 2):.1f}s")
        out.append(f"#{n} [{rng.uniform(0.1, 9):.1f}s] {execname}")
        t = 0.0
        for l in c.lines:
            t += rng.uniform(0.0, 0.05)
            out.append(f"#{n} {t + 0.2:.3f} {l}")
        if c.code:
            out.append(f"#{n} ERROR: process \"{execname}\" did not complete successfully: exit code: {c.code}")
            out.append(f"Error: input: container.from.withExec.stdout process \"{execname}\" did not complete successfully: exit code: {c.code}")
        else:
            out.append(f"#{n} DONE {t + 0.3:.1f}s")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------

RENDER = {
    "tmux_split_panes": s_tmux,
    "gnu_screen_hardcopy": s_screen,
    "vscode_output_channel": s_vscode,
    "termux_session": s_termux,
    "bracketed_paste_keylog": s_keylog,
    "emacs_eshell_vterm": s_emacs,
    "gitea_actions_log": s_gitea,
    "woodpecker_drone_ci": s_woodpecker,
    "nomad_alloc_logs": s_nomad,
    "supervisord_log": s_supervisord,
    "pm2_logs": s_pm2,
    "tilt_skaffold_dev": s_tilt,
    "bazel_wrapped": s_bazel,
    "rundeck_awx_job": s_rundeck_awx,
    "podman_kube_play": s_podman,
    "dagger_earthly_log": s_dagger_earthly,
}


def deal(n_cases):
    deck_rng = random.Random("seventeenth-style-deck")
    stream = []

    def refill():
        d = list(STYLES)
        deck_rng.shuffle(d)
        stream.extend(d)

    pairs = []
    pos = 0
    for _ in range(n_cases):
        while len(stream) < pos + 3:
            refill()
        a = stream[pos]
        if stream[pos + 1] == a:
            stream[pos + 1], stream[pos + 2] = stream[pos + 2], stream[pos + 1]
        b = stream[pos + 1]
        pairs.append((a, b))
        pos += 2
    return pairs


def main():
    cases = load_cases()
    pairs = deal(len(cases))
    rows = []
    for (fname, idx, command, err), styles in zip(cases, pairs):
        for slot, style in enumerate(styles):
            rng = random.Random(f"seventeenth|{fname}|{idx}|{slot}|{style}")
            ctx = derive_ctx(fname, idx, command, err, rng)
            body = RENDER[style](ctx, rng)
            text = with_lead(style, body, rng)
            rows.append({"file": fname, "case": idx, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows for {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
