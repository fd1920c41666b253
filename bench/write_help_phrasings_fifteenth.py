#!/usr/bin/env python3
# ruff: noqa: E741, UP031  (a generated-data script kept as its blind writer wrote it)
"""Write bench/help_phrasings_fifteenth.jsonl: wrapped-tool renderings of help cases.

Each help case (a command a person ran and the error it printed) is rendered
twice, each time the way one real tool, service or export format would carry
that command and its output.  The sixteen styles of this set:

  sarif_result               SARIF 2.1.0 log from a CI wrapper / linter runner:
                             runs[].invocations[] (commandLine, exitCode,
                             toolExecutionNotifications, stderr/stdout artifacts)
                             or results[].message.text holding the output.
  activitywatch_export       ActivityWatch bucket export (aw-watcher-window,
                             aw-watcher-afk, clipboard / terminal watcher
                             buckets; events with timestamp, duration, data).
  screenpipe_frames          Screenpipe / Rewind-style screen memory records:
                             per frame app_name, window_name, timestamp and OCR
                             text of the visible terminal (lost indentation,
                             OCR confusions, repeated frames), optional audio
                             transcription.
  msbuild_exec               MSBuild / Visual Studio / dotnet build output where
                             an Exec task or a post-build event ran the command
                             (1> prefixes, EXEC : error :, error MSB3073, build
                             summary; OEM code page mojibake on Windows).
  sublime_build_panel        Sublime Text build output panel: the output, then
                             [Finished in ...], [cmd: [...]] / [shell_cmd: ...],
                             [dir: ...], [path: ...].
  ci_failure_email           CI failure notification mail (GitLab "Pipeline #N
                             has failed", GitHub Actions "Run failed" with
                             annotations, Jenkins email-ext with log excerpt),
                             rendered or as raw quoted-printable MIME source.
  renovate_artifact_comment  Renovate "Artifact update problem" PR comment with
                             "File name:" and "Command failed: <cmd>" plus the
                             stderr in a fenced block (direct, docker sidecar or
                             containerbase wrapping).
  pre_commit_hook            pre-commit run / git commit hook output (dotted
                             Passed/Failed/Skipped lines, - hook id, - exit
                             code, output), also lefthook and husky renderings.
  nvim_messages              Vim / Neovim after :!cmd (shell returned N, Press
                             ENTER), :make with tee, quickfix list (|| lines),
                             AsyncRun, :terminal and :messages dumps.
  rstudio_console            R / RStudio console: system(), system2(), intern
                             output printed as an R character vector with
                             attr(,"status"), running command ... had status N
                             warnings, processx::run() errors (old and new).
  devcontainer_log           VS Code Dev Containers / Codespaces / devcontainer
                             CLI creation logs (Start: Run in container, the
                             output, lifecycle command failed with exit code N).
  gh_run_log_failed          gh run view --log-failed: job<TAB>step<TAB>ts line,
                             ##[group]Run ..., shell/env, ##[error]Process
                             completed with exit code N. (BOMs, UNKNOWN STEP).
  kubectl_logs_prefix        kubectl logs --prefix --timestamps of a Job /
                             initContainer running the command, or stern output,
                             with sidecars interleaved and retried pods.
  warp_block_share           Warp block copied as text/Markdown, its share page
                             text, or a block attached to Warp AI, with prompt
                             context (cwd, git branch), duration and exit badge.
  chatgpt_export_json        AI chat exports (ChatGPT conversations.json mapping
                             nodes, Claude and Open WebUI exports) where the
                             person pasted the command and error and asked.
  google_chat_export         Google Chat Takeout messages.json (creator,
                             created_date, text, annotations; Gson escaping) or
                             Rocket.Chat exports (mongoexport / JSON lines).

Output format: one JSON object per line,
    {"file": "<toml base name>", "case": <0-based index>, "style": "<style>",
     "text": "<observation text>"}
covering every [[case]] of bench/help_cases/*.toml (files sorted by name) and
then bench/help_heldout/set*.toml (sorted by name), exactly two rows per case,
in case order, the two rows of a case in two different styles.

Determinism: styles are dealt from shuffled decks of the sixteen styles (deck
RNG seeded with a fixed string), two cards per case, so per-style counts differ
by at most one.  Every row's details (names, paths, hosts, times, layout) come
from a random.Random seeded with the string "file|case|slot|style".  No clock,
environment or hash-order dependence: rerunning gives byte-identical output.

Blind writing: to write this script and its texts only the following were
read: the `error` and `command` keys of the [[case]] tables in
bench/help_cases/*.toml and bench/help_heldout/set*.toml (loaded with
tomllib), and, for tone, one ProactiveBench session file
(/work/shared/data/proactivebench/sessions/code_11.json).  No other file of the
project was opened: no project code (assistant/, watcher/, app/, eval/,
models/, ui/), no tests, no docs or README, no other bench/ files (in
particular no other help_phrasings*.jsonl sets or write_help_phrasings*.py
scripts) and no git history; no project code or benchmark was run.  Public
reference material (issue threads, docs, source of the tools) was consulted
only to check what the real output formats look like.
"""

import json
import quopri
import random
import re
import shlex
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "help_phrasings_fifteenth.jsonl"

STYLES = [
    "sarif_result",
    "activitywatch_export",
    "screenpipe_frames",
    "msbuild_exec",
    "sublime_build_panel",
    "ci_failure_email",
    "renovate_artifact_comment",
    "pre_commit_hook",
    "nvim_messages",
    "rstudio_console",
    "devcontainer_log",
    "gh_run_log_failed",
    "kubectl_logs_prefix",
    "warp_block_share",
    "chatgpt_export_json",
    "google_chat_export",
]

# --------------------------------------------------------------------------
# pools
# --------------------------------------------------------------------------

USERS = ["dev", "ana", "maria", "luis", "keiko", "dana", "amara", "sam", "tomek",
         "priya", "jonas", "lea", "omar", "chen", "nina", "felix", "ravi", "marco",
         "yuki", "sofia", "ben", "hana"]
FULLNAMES = {
    "dev": "Dev Patel", "ana": "Ana Souza", "maria": "Maria Lindqvist",
    "luis": "Luis Ortega", "keiko": "Keiko Tanaka", "dana": "Dana Kim",
    "amara": "Amara Okafor", "sam": "Sam Rivera", "tomek": "Tomasz Nowak",
    "priya": "Priya Raman", "jonas": "Jonas Becker", "lea": "Léa Martin",
    "omar": "Omar Haddad", "chen": "Chen Wei", "nina": "Nina Petrova",
    "felix": "Felix Wagner", "ravi": "Ravi Iyer", "marco": "Marco Bianchi",
    "yuki": "Yuki Sato", "sofia": "Sofia Costa", "ben": "Ben Carter",
    "hana": "Hana Novak", "ines": "Inès Laurent",
}
COLLEAGUES = ["Jordan Lee", "Mia Schultz", "Arjun Mehta", "Elif Yilmaz", "Tom Becker",
              "Grace Liu", "Pedro Alves", "Hannah Müller", "Kofi Mensah", "Ola Nordmann",
              "Sara Rossi", "Nikhil Rao", "Zoe Adams", "Lukas Brandt", "Aiko Mori"]
HOSTS = ["box", "thinkpad", "devbox", "ws-014", "nuc", "x1", "fedora", "buildbox", "desk",
         "pop-os", "ubuntu", "framework", "lab-03", "arch", "t14s", "xps13", "zen",
         "workstation", "latitude", "ryzen"]
MAC_HOSTS = ["MacBook-Pro", "Anas-MBP", "mbp-2021", "mac-mini", "MacBook-Air"]
PROJECTS = ["shop", "api", "notes-app", "billing", "site", "tools", "inventory",
            "scraper", "dashboard", "worker", "blog", "infra", "etl", "cli", "relay",
            "pipeline", "ledger", "catalog", "portal", "reports", "sync", "backend"]
BRANCHES = ["main", "main", "main", "master", "develop", "feature/login", "fix/build",
            "chore/deps", "wip", "release/1.4", "feat/search", "bugfix/ci", "dev"]
ORGS = ["acme", "northwind", "lumen-labs", "kiwi-io", "brightline", "fernhill",
        "octo-co", "bluefin", "redwood-apps", "tinybird-dev", "mosaic-hq"]
COMMIT_MSGS = ["Bump dependencies", "Fix typo in README", "Add CSV export",
               "Refactor config loading", "WIP", "Update CI", "Add health check",
               "Handle empty input", "Pin versions", "Initial import",
               "Merge branch 'main' into feature", "Tidy up build script",
               "Add retry to fetcher", "Move settings to env vars"]

TERM_APPS_LINUX = ["gnome-terminal-server", "kitty", "konsole", "Alacritty", "org.wezfurlong.wezterm",
                   "xfce4-terminal", "Tilix", "foot"]
TERM_APPS_MAC = ["iTerm2", "Terminal", "WezTerm", "Ghostty"]

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MONTHS_LONG = ["January", "February", "March", "April", "May", "June", "July",
               "August", "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

# --------------------------------------------------------------------------
# generic helpers
# --------------------------------------------------------------------------


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def alnum(rng, n, chars="abcdefghijklmnopqrstuvwxyz0123456789"):
    return "".join(rng.choice(chars) for _ in range(n))


def uuid4(rng):
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:32]}"


def iso_z(dt, digits=3):
    base = dt.strftime("%Y-%m-%dT%H:%M:%S")
    if digits == 0:
        return base + "Z"
    frac = f"{dt.microsecond:06d}"
    if digits <= 6:
        frac = frac[:digits]
    else:
        frac = frac + "".join(str((dt.microsecond * 7 + i * 3) % 10) for i in range(digits - 6))
    return f"{base}.{frac}Z"


def rfc3339nano(dt, rng):
    frac = f"{dt.microsecond:06d}{rng.randrange(1000):03d}".rstrip("0")
    base = dt.strftime("%Y-%m-%dT%H:%M:%S")
    return f"{base}.{frac}Z" if frac else base + "Z"


def shell_has_ops(cmd):
    return bool(re.search(r"&&|\|\||[|;<>]|\$\(|`", cmd))


def split_cmd(cmd):
    try:
        return shlex.split(cmd)
    except ValueError:
        return cmd.split()


def nonempty(lines):
    return [l for l in lines if l.strip()]


def fence(text, lang=""):
    ticks = "```"
    if "```" in text:
        ticks = "````"
    return f"{ticks}{lang}\n{text}\n{ticks}"


def maybe(rng, p):
    return rng.random() < p


def pick_weighted(rng, items):
    total = sum(w for _, w in items)
    r = rng.random() * total
    for v, w in items:
        r -= w
        if r < 0:
            return v
    return items[-1][0]


def dumps(obj, rng=None, indent=None, ensure_ascii=False):
    return json.dumps(obj, indent=indent, ensure_ascii=ensure_ascii)


def gson_escape(s):
    # Gson's default HTML-safe escaping as found in Google Takeout JSON files
    return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("=", "\\u003d").replace("'", "\\u0027"))


def oem_mojibake(text, codepage="cp437"):
    """UTF-8 bytes shown through a Windows OEM code page."""
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
        else:
            out.append(ch.encode("utf-8").decode(codepage, errors="replace"))
    return "".join(out)


def ansi_mojibake(text):
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
        else:
            out.append(ch.encode("utf-8").decode("cp1252", errors="replace"))
    return "".join(out)


# --------------------------------------------------------------------------
# case analysis
# --------------------------------------------------------------------------

PATH_RE = re.compile(r"(/home/([A-Za-z0-9_.-]+)|/Users/([A-Za-z0-9_.-]+))((?:/[^\s'\"`:(),\]\[]+)*)")
CONTAINER_DIRS = {"src", "code", "projects", "work", "repos", "git", "Projects", "Code", "dev"}
SKIP_TOP = {"go", "snap", "Downloads", "Desktop", "dumps", "backup"}


def eco_of(cmd, err):
    c = (cmd or "").strip()
    words = split_cmd(c) if c else []
    while words and (words[0] in ("sudo", "cd") or "=" in words[0]):
        if words[0] == "cd":
            words = words[1:]
            if "&&" in words:
                words = words[words.index("&&") + 1:]
            else:
                words = []
            continue
        words = words[1:]
    w = words[0] if words else ""
    w = w.split("/")[-1] if w.startswith("./") or w.startswith("bin/") else w
    table = [
        (("python3", "python", "pip", "pip3", "pytest", "black", "python3.12", "pyhton3"), "python"),
        (("npm", "npx", "node", "yarn", "tsc", "pnpm"), "node"),
        (("cargo", "rustc"), "rust"),
        (("go", "air"), "go"),
        (("javac", "java", "mvn", "gradle", "gradlew", "mvnw", "keytool"), "java"),
        (("gcc", "g++", "make", "cmake", "pkg-config", "tar", "cc"), "c"),
        (("docker", "docker-compose"), "docker"),
        (("kubectl", "helm"), "k8s"),
        (("psql", "mysql", "sqlite3", "pg_dump", "redis-cli"), "db"),
        (("ssh", "scp", "rsync", "ssh-add", "ssh-copy-id"), "ssh"),
        (("git", "gti"), "git"),
        (("systemctl", "journalctl", "systemd-analyze", "nginx", "apache2ctl"), "systemd"),
        (("bundle", "rails", "gem", "ruby", "rbenv"), "ruby"),
        (("curl", "openssl"), "tls"),
        (("jq",), "json"),
        (("apt", "apt-get"), "apt"),
    ]
    for names, eco in table:
        if w in names:
            return eco
    if not c and ("Traceback" in err or 'File "' in err):
        return "python"
    return "shell"


def guess_exit(cmd, err, eco):
    c = cmd or ""
    words = split_cmd(c) if c else []
    first = words[0] if words else ""
    if first == "sudo" and len(words) > 1:
        first = words[1]
    m = re.search(r"curl: \((\d+)\)", err)
    if m:
        return int(m.group(1))
    m = re.search(r"rsync error: .*\(code (\d+)\)", err)
    if m:
        return int(m.group(1))
    m = re.search(r"ERROR: Job failed: exit code (\d+)", err)
    if m:
        return int(m.group(1))
    if first == "journalctl":
        return 0
    if re.match(r"kubectl (describe|logs)\b", c):
        return 0
    if re.match(r"kubectl get\b", c) and not re.search(r"^(error|Error from server|The connection|Unable to connect|E\d{4})", err, re.M):
        return 0
    if re.match(r"git status\b", c) and "fatal:" not in err:
        return 0
    if first == "redis-cli":
        return 0
    if "command not found" in err or re.search(r"^(?:bash|zsh|sh|/bin/sh): (?:\d+: )?\S+: not found", err, re.M):
        if first != "make":
            return 127
    if "make: ***" in err or first == "make" or "&& make" in c:
        return 2
    if "bad interpreter" in err:
        return 126
    if first.startswith("./") and "Permission denied" in err.split("\n")[0]:
        return 126
    if first in ("ssh", "ssh-copy-id"):
        return 255 if first == "ssh" else 1
    if first == "cargo":
        return 101
    if re.search(r"^E: ", err, re.M):
        return 100
    if first in ("psql", "pg_dump"):
        return 2 if re.search(r"connection to server|could not translate host|Connection refused", err) else 1
    if first in ("git", "gti"):
        return 128 if re.search(r"^fatal:", err, re.M) else 1
    if first == "docker" and len(words) > 1 and words[1] == "run":
        return 125 if re.search(r"docker: |Cannot connect|Unable to find image", err) else 1
    if first == "systemctl" and "status" in words:
        if "could not be found" in err:
            return 4
        return 3
    if first == "systemctl" and "not found" in err:
        return 5
    if first == "jq":
        return 5 if "jq: error" in err else 2
    if first == "tar":
        return 2
    if first == "mvn" or first.endswith("gradlew") or first == "gradle":
        return 1
    return 1


def guess_host(err):
    m = re.search(r"^[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d ([A-Za-z0-9_.-]+) ", err, re.M)
    if m:
        return m.group(1)
    return None


def guess_time(err, rng):
    m = re.search(r"(20\d\d)[-/](\d\d)[-/](\d\d)[ T](\d\d):(\d\d):(\d\d)", err)
    if m:
        y, mo, d, h, mi, s = map(int, m.groups())
        try:
            return datetime(y, mo, d, h, mi, s, tzinfo=UTC)
        except ValueError:
            pass
    m = re.search(r"\b(\d{1,2}) (" + "|".join(MONTHS) + r") (20\d\d) (\d\d):(\d\d):(\d\d)", err)
    if m:
        d, mon, y, h, mi, s = m.groups()
        return datetime(int(y), MONTHS.index(mon) + 1, int(d), int(h), int(mi), int(s), tzinfo=UTC)
    m = re.search(r"^(" + "|".join(MONTHS) + r") (\d\d) (\d\d):(\d\d):(\d\d) ", err, re.M)
    if m:
        mon, d, h, mi, s = m.groups()
        mo = MONTHS.index(mon) + 1
        y = 2024 if mo >= 10 else 2025
        return datetime(y, mo, int(d), int(h), int(mi), int(s), tzinfo=UTC)
    m = re.search(r"^[EWI](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.", err, re.M)
    if m:
        mo, d, h, mi, s = map(int, m.groups())
        y = 2024 if mo >= 10 else 2025
        try:
            return datetime(y, mo, d, h, mi, s, tzinfo=UTC)
        except ValueError:
            pass
    return None


def key_line(err):
    lines = [l.strip() for l in err.split("\n") if l.strip()]
    if not lines:
        return err.strip()
    if "Traceback (most recent call last)" in err or re.search(r'^\s*File "', err, re.M):
        for l in reversed(lines):
            if re.match(r"^[A-Za-z_.]*(Error|Exception|Warning|Exit|Interrupt)\b", l) or ":" in l:
                return l
        return lines[-1]
    pats = [r"(?i)\berror\b", r"fatal", r"denied", r"not found", r"No such",
            r"failed", r"refused", r"ERR!", r"cannot", r"Cannot", r"Could not", r"could not",
            r"unable", r"Unable", r"panic", r"Exception", r"invalid", r"Invalid", r"forbidden",
            r"Forbidden", r"CrashLoopBackOff", r"OOMKilled", r"rejected", r"CONFLICT", r"Failed"]
    for l in lines:
        if "error here" in l or re.fullmatch(r"[\s^~|>\-]+", l) or l.startswith("^"):
            continue
        for p in pats:
            if re.search(p, l):
                return l
    return lines[-1]


def short_key(err, maxlen=90):
    k = key_line(err)
    k = re.sub(r"^(npm (ERR!|error)|E\d{4} [\d:.]+\s+\d+ \S+\])\s*", "", k)
    if len(k) > maxlen:
        k = k[:maxlen].rsplit(" ", 1)[0]
    return k.rstrip(" :,;-(")


def duration_for(c, rng):
    """Plausible wall-clock seconds for the command to fail."""
    fw = c.first_word()
    slow = c.eco in ("rust", "java") or fw in ("make", "cmake", "mvn", "gradle", "./gradlew", "./mvnw", "helm") or \
        re.match(r"(docker (build|pull|compose)|npm (install|ci|run build)|yarn install|bundle install|pip install|go (build|install|get|mod))", c.cmd)
    net = c.eco in ("ssh", "tls", "k8s", "db") or fw in ("git", "curl")
    if slow:
        return rng.uniform(1.5, 45.0)
    if net:
        return rng.uniform(0.08, 6.0)
    return rng.uniform(0.03, 1.4)


def spoken(err, rng):
    """What a person mutters when reading the error out loud (as speech-to-text renders it)."""
    def clean(k):
        k = re.sub(r"^\S+:\d+(:\d+)?:\s*", "", k)
        k = re.sub(r"^(npm (ERR!|error)|E\d{4} [\d:.]+\s+\d+ \S+\])\s*", "", k)
        k = re.sub(r"^\[(ERROR|INFO|WARNING)\]\s*", "", k)
        k = re.sub(r"\b(fatal error|error|ERROR|Error)(\[\w+\])?:\s*", "", k)
        k = re.sub(r"[/\\][\w./\\-]+", " ", k)
        k = re.sub(r"[^\w\s'.-]", " ", k).lower()
        return [w.strip(".'") for w in k.split() if w.strip(".'")]
    first = key_line(err)
    cands = [first] + [l.strip() for l in err.split("\n") if l.strip() and l.strip() != first]
    for cand in cands:
        words = clean(cand)
        content = [w for w in words if w not in ("error", "errors", "compilation", "failed", "info")]
        if len(set(content)) >= 3 and re.search(r"(?i)error|not|no |denied|fail|cannot|unable|refused|invalid|unknown|missing", cand):
            return " ".join(words[:rng.randrange(5, 10)])
    return " ".join(clean(first)[:8])


def infer_cmd(err, cwd, rng):
    m = re.search(r'File "(/[^"]+\.py)"', err)
    if not m:
        return None
    path = m.group(1)
    if path.startswith(cwd + "/"):
        rel = path[len(cwd) + 1:]
    else:
        rel = path
    py = pick_weighted(rng, [("python3", 8), ("python", 2)])
    return f"{py} {rel}"


class Case:
    def __init__(self, fname, idx, command, error, rng):
        self.fname = fname
        self.idx = idx
        self.command = command if command else None
        self.err = error.rstrip("\n")
        while self.err.startswith("\n"):
            self.err = self.err[1:]
        self.lines = self.err.split("\n")
        self.eco = eco_of(self.command, self.err)
        # location
        self.user, self.mac, self.home, self.cwd = self._location(rng)
        self.proj = self.cwd.rstrip("/").split("/")[-1] if self.cwd != self.home else rng.choice(PROJECTS)
        self.tcwd = "~" + self.cwd[len(self.home):] if self.cwd.startswith(self.home) else self.cwd
        self.dirname = "~" if self.cwd == self.home else self.cwd.rstrip("/").split("/")[-1]
        h = guess_host(self.err)
        if h:
            self.host = h
        else:
            self.host = rng.choice(MAC_HOSTS if self.mac else HOSTS)
        t = guess_time(self.err, rng)
        if t is None:
            t = datetime(2024, 9, 1, tzinfo=UTC) + timedelta(
                days=rng.randrange(0, 300), hours=rng.randrange(7, 20),
                minutes=rng.randrange(60), seconds=rng.randrange(60),
                microseconds=rng.randrange(1000000))
        else:
            t = t + timedelta(microseconds=rng.randrange(1000000))
        self.dt = t
        inferred = infer_cmd(self.err, self.cwd, rng) if not self.command else None
        self.cmd = self.command or inferred or "./run.sh"
        self.cmd_inferred = self.command is None
        self.natural_exit = guess_exit(self.cmd, self.err, self.eco)
        self.exit = self.natural_exit if self.natural_exit != 0 else 1
        self.branch = rng.choice(BRANCHES)
        self.org = rng.choice(ORGS)
        self.fullname = FULLNAMES.get(self.user, self.user.capitalize() + " " + rng.choice(["Smith", "Meyer", "Khan", "Silva"]))

    def _location(self, rng):
        text = self.err + "\n" + (self.command or "")
        fallback = None
        m_role = re.search(r'role "([a-z][a-z0-9_]*)" does not exist', self.err)
        for m in PATH_RE.finditer(text):
            user = m.group(2) or m.group(3)
            mac = m.group(3) is not None
            home = m.group(1)
            rest = [p for p in m.group(4).split("/") if p]
            if not rest or rest[0].startswith(".") or rest[0] in SKIP_TOP:
                fallback = fallback or (user, mac, home)
                continue
            if len(rest) == 1:
                cwd = home if "." in rest[0] else home + "/" + rest[0]
            elif rest[0] in CONTAINER_DIRS and len(rest) >= 3:
                cwd = f"{home}/{rest[0]}/{rest[1]}"
            else:
                cwd = f"{home}/{rest[0]}"
            return user, mac, home, cwd
        if fallback:
            user, mac, home = fallback
        else:
            if m_role:
                user = m_role.group(1)
            else:
                user = "dev" if maybe(rng, 0.35) else rng.choice(USERS)
            mac = maybe(rng, 0.12) and self.eco not in ("systemd", "apt")
            home = ("/Users/" if mac else "/home/") + user
        sub = rng.choice(["", "", "src/", "code/", "projects/"])
        return user, mac, home, f"{home}/{sub}{rng.choice(PROJECTS)}"

    # helpers ------------------------------------------------------------
    def script_name(self):
        w = split_cmd(self.cmd)
        for x in w:
            if re.search(r"\.(py|js|mjs|rb|sh|go|java)$", x):
                return x
        return None

    def first_word(self):
        w = split_cmd(self.cmd)
        while w and (w[0] == "sudo" or "=" in w[0]):
            w = w[1:]
        return w[0] if w else self.cmd.split()[0]


# --------------------------------------------------------------------------
# diagnostics parsing (for SARIF results, annotations, quickfix)
# --------------------------------------------------------------------------


def parse_diags(err):
    """Return list of dicts: file, line, col, level, msg, rule."""
    out = []
    lines = err.split("\n")
    for i, l in enumerate(lines):
        s = l.strip()
        m = re.match(r"^(\.?/?[\w./-]+\.(?:c|h|cpp|cc|hpp|go|rs|py|js|ts|tsx|mjs|java|rb|yml|yaml|json|sql)):(\d+):(?:(\d+):)? ((?:fatal )?error|warning|note)?:? ?(.*)$", s)
        if m and (m.group(4) or m.group(5)):
            out.append(dict(file=m.group(1).lstrip("./") if m.group(1).startswith("./") else m.group(1),
                            line=int(m.group(2)), col=int(m.group(3)) if m.group(3) else None,
                            level="warning" if (m.group(4) or "").startswith("warn") else "error",
                            msg=((m.group(4) + ": ") if m.group(4) else "") + m.group(5), rule=None))
            continue
        m = re.match(r"^([\w./-]+\.tsx?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$", s)
        if m:
            out.append(dict(file=m.group(1), line=int(m.group(2)), col=int(m.group(3)),
                            level=m.group(4), msg=m.group(6), rule=m.group(5)))
            continue
        m = re.match(r"^(error|warning)(\[E\d+\])?: (.*)$", s)
        if m and i + 1 < len(lines):
            m2 = re.match(r"^\s*--> ([^:]+):(\d+):(\d+)", lines[i + 1])
            if m2:
                out.append(dict(file=m2.group(1), line=int(m2.group(2)), col=int(m2.group(3)),
                                level=m.group(1), msg=m.group(3), rule=(m.group(2) or "").strip("[]") or None))
                continue
    m = None
    frames = re.findall(r'File "([^"]+)", line (\d+)', err)
    if not out and frames:
        last = nonempty(lines)[-1].strip()
        f, ln = frames[-1]
        # prefer the user's own frame
        for ff, ll in reversed(frames):
            if not ff.startswith("/usr/") and "site-packages" not in ff:
                f, ln = ff, ll
                break
        out.append(dict(file=f, line=int(ln), col=None, level="error", msg=last, rule=last.split(":")[0]))
    return out


# --------------------------------------------------------------------------
# person-written pieces (chat exports, forum framings)
# --------------------------------------------------------------------------

GOALS = {
    "python": ["run my script", "get this script working", "run this", "test a quick script"],
    "node": ["start the app", "build the frontend", "run the script", "get the project running"],
    "rust": ["build the project", "compile this crate", "get cargo to build"],
    "go": ["build the service", "run the tool", "compile this"],
    "java": ["compile this", "build the jar", "run the app"],
    "c": ["compile this", "build it from source", "get the build going"],
    "docker": ["start the containers", "build the image", "run the container"],
    "k8s": ["deploy", "check the pods", "roll out the new version"],
    "db": ["connect to the db", "load the data", "run a query"],
    "ssh": ["log into the box", "copy the release over", "deploy"],
    "git": ["push my branch", "sync with main", "get this repo sorted"],
    "systemd": ["restart the service", "get the service up", "check the service"],
    "ruby": ["set up the project", "start the rails app", "install the gems"],
    "tls": ["hit the API", "check the cert", "call the endpoint"],
    "json": ["read the config", "parse the file"],
    "apt": ["install a package"],
    "shell": ["run this", "deploy", "do a quick thing"],
}

ASKS = ["how do I fix this?", "what am I missing?", "any idea what's wrong?", "what does this mean?",
        "what should I do here?", "how do I get past this?", "can you help?", "",
        "no idea what changed since yesterday", "thanks in advance", "is this something on my side?",
        "what's the fix?", "pls help", "it worked last week"]


def err_block(c, rng, allow_partial=True, with_prompt=None):
    """The error as a person pastes it: fenced or raw, sometimes partial."""
    text = c.err
    lines = c.lines
    partial = allow_partial and len(lines) > 8 and maybe(rng, 0.18)
    if partial:
        k = rng.choice([3, 4, 5])
        text = "\n".join(lines[:2] + ["..."] + lines[-k:])
    if with_prompt:
        text = with_prompt + "\n" + text
    mode = rng.random()
    if mode < 0.62:
        return fence(text, rng.choice(["", "", "", "console", "bash", "text", "sh"]))
    if mode < 0.8:
        return text
    return "\n".join("> " + l if l else ">" for l in text.split("\n"))


def person_message(c, rng, medium="chat"):
    cmd = c.cmd
    goal = rng.choice(GOALS.get(c.eco, GOALS["shell"]))
    if re.search(r"\b(install|ci|add|get)\b", c.cmd) and c.eco in ("python", "node", "ruby", "go", "rust", "apt"):
        goal = rng.choice(["install deps", "install a package", "set up the project", "add a dependency"])
    ask = rng.choice(ASKS)
    show_cmd = not c.cmd_inferred or maybe(rng, 0.6)
    prompt_line = None
    if show_cmd and maybe(rng, 0.3):
        prompt_line = rng.choice([f"$ {cmd}", f"{c.user}@{c.host}:{c.tcwd}$ {cmd}", f"❯ {cmd}", f"% {cmd}"])
    block = err_block(c, rng, with_prompt=prompt_line)
    k = short_key(c.err, 70)
    if show_cmd and not prompt_line:
        intros = [
            f"I ran `{cmd}` and got this:",
            f"getting this when I run {cmd}",
            f"`{cmd}` keeps failing with",
            f"trying to {goal}, `{cmd}` fails:",
            f"Why does `{cmd}` give me this?",
            f"hey, quick one. `{cmd}` in {c.tcwd} prints:",
            f"{cmd} → error:",
            f"Running `{cmd}` on my {rng.choice(['laptop', 'machine', 'VM', 'dev box', 'server'])}:",
            f"So I'm trying to {goal}. ran {cmd}\noutput:",
        ]
    elif prompt_line:
        intros = [f"trying to {goal}:", "this is what I get:", "terminal says:", "", "help:",
                  f"anyone seen this? trying to {goal}"]
    else:
        intros = ["my script crashes with this:", f"got this in {c.proj}:", "traceback:",
                  "this pops up when I run it:", "running the file gives:", "why??"]
    intro = rng.choice(intros)
    layout = rng.random()
    if layout < 0.55:
        parts = [intro, block, ask]
    elif layout < 0.75:
        parts = [block, (f"that's from `{cmd}`. " if show_cmd and not prompt_line else "") + ask]
    elif layout < 0.9:
        kk = short_key(c.err, 200)
        kq = f'"{k}..."' if len(kk) > len(k) else k
        parts = [f"{intro} {kq}" if intro else k, block, ask]
    else:
        parts = [intro, block]
    msg = "\n\n".join(p for p in parts if p.strip())
    if medium == "chat" and maybe(rng, 0.25):
        msg = msg[0].lower() + msg[1:] if msg and msg[0].isalpha() else msg
    return msg


def assistant_followup(c, rng):
    q = {
        "python": "Which Python are you running this with (`python3 --version`), and is a virtual environment active?",
        "node": "Which Node and npm versions are you on (`node -v`, `npm -v`), and is there a lockfile in the project?",
        "rust": "Which toolchain are you on (`rustc --version`) and which OS/distro is this?",
        "go": "What does `go version` and `go env GOPATH GOMOD` print in that directory?",
        "java": "What do `java -version` and `javac -version` print?",
        "c": "Which distro is this, and which compiler version (`gcc --version`)?",
        "docker": "Is this Docker Engine on Linux or Docker Desktop, and what does `docker version` show?",
        "k8s": "Which cluster/context is this (`kubectl config current-context`), and is it a local or a managed cluster?",
        "db": "Is the database server on the same machine, and how was it installed?",
        "ssh": "Can you run it again with `-v` and share the last lines of the output?",
        "git": "What does `git status` and `git remote -v` show?",
        "systemd": "Can you share the unit file (`systemctl cat <unit>`) too?",
        "ruby": "Which Ruby are you on (`ruby -v`) and how is it installed (rbenv, system, asdf)?",
        "tls": "Is this going through a corporate proxy, and which OS is this on?",
    }.get(c.eco, "Which OS are you on, and did this work before?")
    lead = rng.choice(["Happy to help. Before guessing: ", "Thanks for the full output. ", "", "Got it. Quick question first: "])
    return lead + q


# --------------------------------------------------------------------------
# OCR helpers (screen memory)
# --------------------------------------------------------------------------

OCR_SUBS = [("l", "1"), ("1", "l"), ("O", "0"), ("0", "O"), ("rn", "m"), ("I", "l"), ("|", "l"),
            ("'", "`"), ("`", "'"), (",", "."), ("~", "-"), ("{", "("), ("}", ")"), (";", ":"),
            ("S", "5"), ("_", " "), ("\"", "''"), ("cl", "d"), ("e", "c")]


def ocr_line(line, rng, rate, glyphs=None):
    if not line:
        return line
    s = line
    if re.fullmatch(r"\s*[\^~]+[\s\^~]*", s):
        r = rng.random()
        if r < 0.45:
            return None
        if r < 0.7:
            return s.strip().replace("^", "A")
        return s.strip().replace("~", "-")
    if rng.random() < rate * len(s) / 12:
        a, b = rng.choice(OCR_SUBS)
        idxs = [i for i in range(len(s)) if s.startswith(a, i)]
        if idxs:
            i = rng.choice(idxs)
            s = s[:i] + b + s[i + len(a):]
    s = s.replace("\t", "    ")
    g = glyphs or {"➜": "→", "×": "x"}
    s = (s.replace("➜", g["➜"]).replace("❯", ">")
          .replace("╰─>", "L>").replace("│", "|").replace("╰", "L").replace("─", "-")
          .replace("", "").replace("×", g["×"]))
    return s


def ocr_text(lines, rng, rate=0.08, keep_indent=False):
    out = []
    glyphs = {"➜": rng.choice(["→", "=>", "»", "->"]), "×": rng.choice(["x", "×", "X"])}
    for l in lines:
        if not keep_indent:
            l = l.strip()
        else:
            l = l.rstrip()
        r = ocr_line(l, rng, rate, glyphs)
        if r is None:
            continue
        if not keep_indent:
            r = re.sub(r" {3,}", "  ", r)
        out.append(r)
    # OCR often drops blank lines
    return "\n".join(x for x in out if x.strip() or maybe(rng, 0.3))


def wrap_cols(lines, width):
    out = []
    for l in lines:
        l = l.replace("\t", "        ")
        while len(l) > width:
            out.append(l[:width])
            l = l[width:]
        out.append(l)
    return out


# --------------------------------------------------------------------------
# prompts
# --------------------------------------------------------------------------


def prompt_for(c, rng, kind=None):
    kinds = ["bash", "bash", "omz", "starship", "fish", "plain"]
    if c.mac:
        kinds = ["zsh_mac", "zsh_mac", "omz", "starship"]
    kind = kind or rng.choice(kinds)
    if kind == "bash":
        return f"{c.user}@{c.host}:{c.tcwd}$ "
    if kind == "omz":
        if c.cwd == c.home:
            return "➜  ~ "
        return f"➜  {c.dirname} git:({c.branch}) " + ("✗ " if maybe(rng, 0.4) else "")
    if kind == "starship":
        if c.cwd == c.home:
            return "~ \n❯ "
        return f"{c.dirname} on  {c.branch} \n❯ "
    if kind == "fish":
        return f"{c.user}@{c.host} {c.tcwd}" + (f" ({c.branch})" if c.cwd != c.home else "") + "> "
    if kind == "zsh_mac":
        return f"{c.user}@{c.host} {c.dirname} % "
    return "$ "


def terminal_title(c, rng, running=False):
    if c.mac:
        app = rng.choice(TERM_APPS_MAC)
        if app == "iTerm2":
            t = f"{c.dirname} — {c.first_word() if running else '-zsh'} — {rng.choice(['120×36', '80×24', '158×44'])}"
        elif app == "Terminal":
            t = f"{c.dirname} — {c.first_word() if running else '-zsh'} — {rng.choice(['80×24', '120×40'])}"
        else:
            t = c.cmd if running else c.tcwd
        return app, t
    app = rng.choice(TERM_APPS_LINUX)
    if app == "konsole":
        t = f"{c.dirname} : {c.first_word() if running else 'zsh'} — Konsole"
    elif app == "kitty":
        t = c.cmd if running else c.tcwd
    elif app == "Alacritty" and maybe(rng, 0.5):
        t = "Alacritty"
    else:
        t = f"{c.user}@{c.host}: {c.tcwd}" + (rng.choice([" — zsh", "", ""]) if not running else "")
    return app, t


# ==========================================================================
# style renderers
# ==========================================================================

# ---------------------------------------------------------------- SARIF ----

SARIF_TOOLS = [
    ("MegaLinter", "8.3.0", "https://megalinter.io"),
    ("ci-exec", "0.9.2", "https://github.com/{org}/ci-exec"),
    ("sarif-wrap", "1.3.1", None),
    ("build-doctor", "2.0.0", None),
    ("trunk", "1.22.8", "https://docs.trunk.io"),
    ("step-runner", "0.4.7", None),
    ("lintrunner", "0.12.5", "https://github.com/suo/lintrunner"),
]
SARIF_SCHEMAS = [
    "https://json.schemastore.org/sarif-2.1.0.json",
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
    "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json",
]


def rel_uri(c, path):
    if path.startswith(c.cwd + "/"):
        return path[len(c.cwd) + 1:]
    if path.startswith("/"):
        return "file://" + path
    return path


def r_sarif(c, rng):
    name, ver, uri = rng.choice(SARIF_TOOLS)
    driver = {"name": name, "version": ver}
    if uri:
        driver["informationUri"] = uri.format(org=c.org)
    start = c.dt
    end = start + timedelta(seconds=duration_for(c, rng))
    exitc = c.natural_exit
    ok = exitc == 0
    inv = {
        "commandLine": c.cmd,
        "executionSuccessful": ok,
        "exitCode": exitc,
    }
    if maybe(rng, 0.5):
        inv["startTimeUtc"] = iso_z(start)
        inv["endTimeUtc"] = iso_z(end)
    if maybe(rng, 0.6):
        inv["workingDirectory"] = {"uri": "file://" + c.cwd + "/"}
    if maybe(rng, 0.3):
        inv["machine"] = c.host
    layout = rng.randrange(5)
    run = {"tool": {"driver": driver}}
    diags = parse_diags(c.err)
    if layout == 0:
        inv["toolExecutionNotifications"] = [{
            "level": "error" if not ok else "warning",
            "message": {"text": c.err},
            "descriptor": {"id": rng.choice(["EXEC1001", "nonzero-exit", "command-output", "step-failed"])},
        }]
        if not ok:
            inv["exitCodeDescription"] = rng.choice(["command exited with a non-zero status",
                                                     f"exit status {exitc}", "failure"])
        run["invocations"] = [inv]
        run["results"] = []
    elif layout == 1:
        stream = "stderr" if maybe(rng, 0.75) else "stdout"
        inv[stream] = {"uri": f"logs/{stream}.txt", "uriBaseId": "%SRCROOT%", "index": 0}
        inv["toolExecutionNotifications"] = [{
            "level": "error" if not ok else "note",
            "message": {"text": f"`{c.cmd}` exited with code {exitc}" if rng.random() < 0.5 else f"Process completed with exit code {exitc}."},
        }]
        run["invocations"] = [inv]
        run["artifacts"] = [{"location": {"uri": f"logs/{stream}.txt", "uriBaseId": "%SRCROOT%"},
                             "mimeType": "text/plain", "contents": {"text": c.err + "\n"}}]
        run["results"] = []
    elif layout == 2 or not diags:
        res = {
            "ruleId": rng.choice(["command-failed", "exec/nonzero-exit", "RUN001", "step-error"]),
            "level": "error" if not ok else "warning",
            "message": {"text": rng.choice([c.err, f"Command `{c.cmd}` failed with exit code {exitc}:\n{c.err}",
                                            f"{c.cmd}\n\n{c.err}"])},
        }
        if diags:
            d = diags[0]
            region = {"startLine": d["line"]}
            if d["col"]:
                region["startColumn"] = d["col"]
            res["locations"] = [{"physicalLocation": {"artifactLocation": {"uri": rel_uri(c, d["file"]), "uriBaseId": "%SRCROOT%"}, "region": region}}]
        run["invocations"] = [inv]
        run["results"] = [res]
    elif layout == 3:
        results = []
        rules = []
        for d in diags:
            rid = d["rule"] or rng.choice(["compiler-error", "build-error", "E"])
            if rid not in [r["id"] for r in rules]:
                rules.append({"id": rid, "shortDescription": {"text": rid}})
            region = {"startLine": d["line"]}
            if d["col"]:
                region["startColumn"] = d["col"]
            results.append({"ruleId": rid, "level": d["level"], "message": {"text": d["msg"]},
                            "locations": [{"physicalLocation": {"artifactLocation": {"uri": rel_uri(c, d["file"])}, "region": region}}]})
        driver["rules"] = rules
        inv["stdout"] = {"uri": "output.log", "index": 0}
        run["invocations"] = [inv]
        run["artifacts"] = [{"location": {"uri": "output.log"}, "contents": {"text": c.err}}]
        run["results"] = results
    else:
        inv["toolExecutionNotifications"] = [{"level": "error", "message": {"text": c.err}}]
        run["invocations"] = [inv]
        run["results"] = []
        doc = {"version": "2.1.0", "$schema": rng.choice(SARIF_SCHEMAS), "runs": [run]}
        return json.dumps(doc, ensure_ascii=maybe(rng, 0.5), separators=(",", ":"))
    if maybe(rng, 0.3):
        run["properties"] = {"job": rng.choice(["build", "lint", "test", "check"]),
                             "ref": f"refs/heads/{c.branch}", "sha": hexid(rng, 40)}
    doc = {"$schema": rng.choice(SARIF_SCHEMAS), "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=rng.choice([2, 2, 4]), ensure_ascii=maybe(rng, 0.4))


# --------------------------------------------------------- ActivityWatch ----


def aw_ts(dt):
    return dt.isoformat(timespec="microseconds").replace("+00:00", "+00:00")


def r_activitywatch(c, rng):
    host = c.host
    t0 = c.dt - timedelta(seconds=rng.randrange(20, 200))
    term_app, term_title_idle = terminal_title(c, rng)
    _, term_title_run = terminal_title(c, random.Random(rng.random()), running=True)
    if term_app in ("kitty",) or maybe(rng, 0.3):
        term_title_run = c.cmd
    browser = rng.choice([("firefox", "Mozilla Firefox"), ("Google-chrome", "Google Chrome"),
                          ("Brave-browser", "Brave"), ("firefox", "Mozilla Firefox")])
    if c.mac:
        browser = rng.choice([("Google Chrome", "Google Chrome"), ("Firefox", "Mozilla Firefox"), ("Safari", "")])
    query = short_key(c.err, 80)
    sep = " — " if browser[1] == "Mozilla Firefox" else " - "
    search_title = f"{query} - Google Search" + (sep + browser[1] if browser[1] else "")
    editor_file = c.script_name() or rng.choice(["README.md", "Makefile", "main.go", "index.js", "config.yml"])
    editor = ("Code", f"{editor_file.split('/')[-1]} - {c.proj} - Visual Studio Code")
    # window events in ascending order; index 2 is the terminal while the command runs
    win = []
    t = t0
    seq = [editor, (term_app, term_title_idle), (term_app, term_title_run), (term_app, term_title_idle)]
    if maybe(rng, 0.7):
        seq.append((browser[0], search_title))
    if maybe(rng, 0.3):
        seq.append((term_app, term_title_idle))
    run_ts = run_end = None
    for i, (app, title) in enumerate(seq):
        d = round(rng.uniform(1.5, 70.0), 3)
        if i == 2:
            d = round(rng.uniform(0.4, 25.0), 3)
            run_ts = t
            run_end = t + timedelta(seconds=d)
        win.append({"timestamp": aw_ts(t), "duration": d, "data": {"app": app, "title": title}})
        t = t + timedelta(seconds=d + rng.uniform(0.0, 1.2))
    copy_ts = run_end + timedelta(seconds=rng.uniform(1.5, 12))
    afk = [{"timestamp": aw_ts(t0 - timedelta(seconds=rng.randrange(100, 900))),
            "duration": round((t - t0).total_seconds() + rng.uniform(200, 900), 3),
            "data": {"status": "not-afk"}}]
    layout = rng.randrange(5)
    buckets = {}

    def bucket(bid, btype, client, events, created=None):
        return {"id": bid, "created": aw_ts(created or (t0 - timedelta(days=rng.randrange(20, 400)))),
                "name": None, "type": btype, "client": client, "hostname": host, "data": {},
                "events": events}

    desc = maybe(rng, 0.75)

    def order(evs):
        evs = sorted(evs, key=lambda e: e["timestamp"], reverse=desc)
        for _i, e in enumerate(evs):
            e_id = rng.randrange(10000, 900000)
            e.setdefault("id", e_id)
        return [dict([("id", e["id"]), ("timestamp", e["timestamp"]), ("duration", e["duration"]), ("data", e["data"])]) for e in evs]

    clip_text = c.err
    if len(c.lines) > 30 and maybe(rng, 0.5):
        clip_text = "\n".join(c.lines[-rng.randrange(12, 24):])
    clip_ev = {"timestamp": aw_ts(copy_ts), "duration": 0.0,
               "data": {rng.choice(["text", "content", "clipboard"]): clip_text}}
    sh_name, sh_ver = rng.choice([("zsh", "5.9"), ("zsh", "5.8.1"), ("bash", "5.2.21"), ("bash", "5.1.16"), ("fish", "3.7.1")])
    term_ev = {"timestamp": aw_ts(run_ts + timedelta(milliseconds=rng.randrange(30, 900))), "duration": round((run_end - run_ts).total_seconds() * rng.uniform(0.6, 0.95), 3),
               "data": {"command": c.cmd, "path": c.cwd, "shell": sh_name, "shell_version": sh_ver,
                        "exit_code": c.natural_exit, "session_id": rng.randrange(1, 40)}}
    if layout in (0, 1, 2):
        buckets[f"aw-watcher-window_{host}"] = bucket(f"aw-watcher-window_{host}", "currentwindow", "aw-watcher-window", order(win))
        if layout != 2:
            buckets[f"aw-watcher-afk_{host}"] = bucket(f"aw-watcher-afk_{host}", "afkstatus", "aw-watcher-afk", order(afk))
        if layout in (1, 2):
            buckets[f"aw-watcher-terminal_{host}"] = bucket(f"aw-watcher-terminal_{host}", "app.terminal.command", "aw-watcher-terminal", order([term_ev]))
        cb = rng.choice(["aw-watcher-clipboard", "aw-watcher-clip"])
        buckets[f"{cb}_{host}"] = bucket(f"{cb}_{host}", rng.choice(["os.clipboard", "clipboard.copy"]), cb, order([clip_ev]))
        keys = list(buckets.keys())
        if maybe(rng, 0.5):
            keys.sort()
        doc = {"buckets": {k: buckets[k] for k in keys}}
        return json.dumps(doc, indent=rng.choice([2, 4, None]), ensure_ascii=False)
    if layout == 3:
        # CSV exports of the window and clipboard buckets from the web UI
        import csv
        import io
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["timestamp", "duration", "app", "title"])
        for e in sorted(win, key=lambda e: e["timestamp"]):
            w.writerow([e["timestamp"], e["duration"], e["data"]["app"], e["data"]["title"]])
        buf2 = io.StringIO()
        w2 = csv.writer(buf2, lineterminator="\n")
        key = list(clip_ev["data"].keys())[0]
        w2.writerow(["timestamp", "duration", key])
        w2.writerow([clip_ev["timestamp"], clip_ev["duration"], clip_ev["data"][key]])
        return (f"aw-watcher-window_{host}.csv\n{buf.getvalue()}\n"
                f"aw-watcher-clipboard_{host}.csv\n{buf2.getvalue()}").rstrip("\n")
    # layout 4: three REST API reads pasted one after the other
    wl = order(win)
    n = rng.randrange(3, len(wl) + 1)
    a = json.dumps(wl[:n] if desc else wl[-n:], indent=2, ensure_ascii=False)
    b = json.dumps(order([term_ev]), indent=2, ensure_ascii=False)
    cb = json.dumps(order([clip_ev]), indent=2, ensure_ascii=False)
    parts = [f"$ curl -s 'http://localhost:5600/api/0/buckets/aw-watcher-window_{host}/events?limit={n}'\n{a}",
             f"$ curl -s 'http://localhost:5600/api/0/buckets/aw-watcher-terminal_{host}/events?limit=1'\n{b}",
             f"$ curl -s 'http://localhost:5600/api/0/buckets/aw-watcher-clipboard_{host}/events?limit=1'\n{cb}"]
    if maybe(rng, 0.4):
        parts = parts[1:]
    return "\n\n".join(parts)


# ----------------------------------------------------------- Screenpipe ----


def screen_lines(c, rng, prompt, prev=True):
    lines = []
    if prev and maybe(rng, 0.6):
        pc = rng.choice(["ls", "git status -s", "clear", f"cd {c.tcwd}", "git pull", "ls"])
        if pc != "clear":
            lines += (prompt + pc).split("\n")
            if pc.startswith("ls"):
                lines.append("  ".join(rng.sample(["README.md", "src", "Makefile", "docs", "tests",
                                                   "package.json", "requirements.txt", "go.mod",
                                                   "Dockerfile", "config.yml", "scripts", ".env.example"], 5)))
            elif pc.startswith("git status"):
                lines.append(" M " + rng.choice(["README.md", "src/main.py", "index.js", "Makefile"]))
            elif pc == "git pull":
                lines.append("Already up to date.")
    lines += (prompt + c.cmd).split("\n")
    lines += c.lines
    lines += prompt.split("\n")
    return lines


def r_screenpipe(c, rng):
    prompt = prompt_for(c, rng)
    cols = rng.choice([80, 100, 120, 132, 160])
    rows = rng.choice([30, 40, 48, 54])
    term_app, title_idle = terminal_title(c, rng)
    _, title_run = terminal_title(c, random.Random(rng.random()), running=True)
    vscode = maybe(rng, 0.25)
    all_lines = wrap_cols(screen_lines(c, rng, prompt), cols)
    if vscode:
        app, win = "Code", f"{c.script_name() or 'README.md'} — {c.proj} — Visual Studio Code"
        if c.mac:
            app = "Code"
        chrome = ["PROBLEMS  OUTPUT  DEBUG CONSOLE  TERMINAL  PORTS", rng.choice(["zsh", "bash"]) + "  +  v  ..."]
        rows = min(rows, 22)
    else:
        app, win = term_app, title_idle
        chrome = []
        if c.mac and maybe(rng, 0.6):
            chrome = [rng.choice(["iTerm2 Shell Edit View Session Scripts Profiles Window Help",
                                  "Terminal Shell Edit View Window Help"])]
    frames = []
    t = c.dt
    # frame A: command typed, output starting (only if error long), frame B: full visible
    screen_full = all_lines[-rows:]
    rate = rng.choice([0.04, 0.08, 0.12])
    if len(all_lines) > rows and maybe(rng, 0.7):
        # two frames of a scrolling output: top part then bottom part
        top = all_lines[:rows]
        frames.append((t, chrome + top))
        t = t + timedelta(seconds=rng.uniform(1, 4))
        frames.append((t, chrome + screen_full))
    else:
        frames.append((t, chrome + screen_full))
        if maybe(rng, 0.6):
            t = t + timedelta(seconds=rng.uniform(1.0, 6.0))
            frames.append((t, chrome + screen_full))
    fps_dir = f"{c.home}/.screenpipe/data"
    layout = rng.randrange(4)
    data = []
    frame_id = rng.randrange(20000, 900000)
    for ft, lines in frames:
        text = ocr_text(lines, rng, rate=rate, keep_indent=maybe(rng, 0.25))
        frame_id += rng.randrange(1, 9)
        data.append((ft, text, frame_id))
    audio = None
    if maybe(rng, 0.35):
        k = spoken(c.err, rng)
        phr = rng.choice([f"okay so it says {k}", f"why is it saying {k}", f"hm, {k}, great",
                          f"wait, what. {k}", f"it's failing again, {k}"])
        audio = (frames[-1][0] + timedelta(seconds=rng.uniform(1, 8)), phr)
    dev_mon = rng.choice(["monitor_1", "monitor_0", "Display 1", "DELL U2720Q"])
    if layout == 0:
        items = []
        for ft, text, fid in data:
            items.append({"type": "OCR", "content": {
                "frame_id": fid, "text": text, "timestamp": iso_z(ft, 6),
                "file_path": f"{fps_dir}/{dev_mon.replace(' ', '_')}_{ft.strftime('%Y-%m-%d_%H-%M-%S')}.mp4",
                "offset_index": rng.randrange(0, 60), "app_name": app, "window_name": win,
                "tags": [], "frame": None, "device_name": dev_mon}})
        if audio:
            items.append({"type": "Audio", "content": {
                "chunk_id": rng.randrange(100, 9000), "transcription": audio[1],
                "timestamp": iso_z(audio[0], 6),
                "file_path": f"{fps_dir}/{rng.choice(['MacBook Pro Microphone (input)', 'Built-in Audio Analog Stereo (input)'])}_{audio[0].strftime('%Y-%m-%d_%H-%M-%S')}.mp4",
                "offset_index": 0, "tags": [], "device_name": "default (input)", "device_type": "Input"}})
        items.sort(key=lambda x: x["content"]["timestamp"], reverse=maybe(rng, 0.6))
        doc = {"data": items, "pagination": {"limit": rng.choice([10, 20, 50]), "offset": 0, "total": len(items)}}
        return json.dumps(doc, indent=2, ensure_ascii=False)
    if layout == 1:
        rows_out = []
        for ft, text, fid in data:
            rows_out.append({"frame_id": fid, "timestamp": ft.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
                             "app_name": app, "window_name": win, "text": text})
        s = json.dumps(rows_out, indent=2, ensure_ascii=False)
        q = ("SELECT f.id AS frame_id, f.timestamp, o.app_name, o.window_name, o.text FROM frames f "
             "JOIN ocr_text o ON o.frame_id = f.id WHERE o.app_name = '" + app + "' ORDER BY f.timestamp LIMIT " + str(len(rows_out)))
        return f"POST /raw_sql {{\"query\": \"{q}\"}}\n\n{s}"
    if layout == 2:
        recs = []
        for ft, text, _fid in data:
            recs.append({"timestamp": ft.astimezone(UTC).isoformat(timespec="milliseconds"),
                         "app_name": app, "window_name": win, "text": text})
        if audio:
            recs.append({"timestamp": audio[0].isoformat(timespec="milliseconds"), "type": "transcript",
                         "speaker": "me", "text": audio[1]})
        return json.dumps({"source": rng.choice(["rewind", "screen-memory", "limitless-export"]),
                           "frames": recs}, indent=2, ensure_ascii=False)
    # layout 3: JSON lines stream from a pipe
    out = []
    for ft, text, fid in data:
        out.append(json.dumps({"type": "OCR", "frame_id": fid, "timestamp": iso_z(ft, 3),
                               "app_name": app, "window_name": win, "focused": True, "text": text},
                              ensure_ascii=False))
    if audio:
        out.append(json.dumps({"type": "Audio", "timestamp": iso_z(audio[0], 3),
                               "transcription": audio[1], "device_name": "default (input)"}, ensure_ascii=False))
    return "\n".join(out)


# -------------------------------------------------------------- MSBuild ----

CANON_RE = re.compile(r"^\s*(error|warning)(?: ([^: ]+))?\s*:(.*)$", re.I)


def msbuild_lines(c, rng, mark_canonical=True):
    """Output lines as MSBuild's Exec logs them; returns (lines, canonical_errors)."""
    out, errs = [], []
    for l in c.lines:
        m = CANON_RE.match(l) if mark_canonical else None
        if m:
            cat = m.group(1).lower()
            code = (" " + m.group(2)) if m.group(2) else ""
            msg = f"EXEC : {cat}{code} :{m.group(3)}"
            out.append(("canon", msg))
            if cat == "error":
                errs.append(msg)
        else:
            out.append(("msg", l))
    return out, errs


def r_msbuild(c, rng):
    layout = rng.randrange(5)
    if c.mac and layout < 2:
        layout += 2
    proj = "".join(p.capitalize() for p in re.split(r"[-_.]", c.proj) if p) or "Tools"
    proj = proj + rng.choice([".Tools", ".Build", "", ".Web", ".Scripts"])
    target = rng.choice(["RunScript", "GenerateAssets", "BuildFrontend", "PostBuild", "RunTool", "Codegen", "AfterBuildStep"])
    line_no = rng.randrange(12, 60)
    secs = rng.uniform(0.8, 40.0)
    lines, canon = msbuild_lines(c, rng)
    zero = c.natural_exit == 0
    if layout in (0, 1):
        # Visual Studio IDE output window, command goes through WSL
        winroot = rng.choice([r"C:\src", r"C:\Users\%s\source\repos" % c.user, r"D:\work", r"C:\dev"])
        projdir = f"{winroot}\\{c.proj}"
        if maybe(rng, 0.5):
            wcmd = f"wsl --cd {c.cwd} {c.cmd}"
        else:
            inner = c.cmd.replace('"', '\\"')
            wcmd = f'wsl bash -lc "cd {c.tcwd} && {inner}"'
        mangle = (lambda s: oem_mojibake(s, rng.choice(["cp437", "cp850"]))) if maybe(rng, 0.7) else (lambda s: s)
        ind = rng.choice(["  ", "  ", ""])
        out = []
        tm = c.dt.strftime(rng.choice(["%H:%M", "%I:%M %p"])).lstrip("0")
        out.append(f"Build started at {tm}...")
        if layout == 0:
            out.append(f"1>------ Build started: Project: {proj}, Configuration: Debug Any CPU ------")
            out.append(f"1>{proj} -> {projdir}\\bin\\Debug\\net8.0\\{proj}.dll")
            for kind, l in lines:
                out.append("1>" + (l if kind == "canon" else ind + mangle(l)))
            if zero:
                pass
            else:
                out.append(f'1>{projdir}\\{proj}.csproj({line_no},5): error MSB3073: The command "{wcmd}" exited with code {c.exit}.')
            out.append(f'1>Done building project "{proj}.csproj" -- FAILED.')
        else:
            # C++ project post-build event: command echoed line by line in the MSB3073 error
            vs = rng.choice([("2022", "v170", "Community"), ("2022", "v170", "Professional"), ("2019", "v160", "Community")])
            pf = r"C:\Program Files" if vs[0] == "2022" else r"C:\Program Files (x86)"
            targets = f"{pf}\\Microsoft Visual Studio\\{vs[0]}\\{vs[2]}\\MSBuild\\Microsoft\\VC\\{vs[1]}\\Microsoft.CppCommon.targets({rng.choice([155, 157, 166, 160])},5)"
            cfg = rng.choice(["Debug x64", "Release x64", "Debug Win32"])
            out.append(f"1>------ Build started: Project: {proj}, Configuration: {cfg} ------")
            out.append(f"1>{rng.choice(['main.cpp', 'app.cpp', 'plugin.cpp'])}")
            out.append(f"1>{proj}.vcxproj -> {projdir}\\x64\\{cfg.split()[0]}\\{proj}.exe")
            for kind, l in lines:
                out.append("1>" + (l if kind == "canon" else mangle(l)))
            body = ["setlocal", wcmd, "if %errorlevel% neq 0 goto :cmEnd", ":cmEnd",
                    "endlocal & call :cmErrorLevel %errorlevel% & goto :cmDone", ":cmErrorLevel",
                    "exit /b %1", ":cmDone", "if %errorlevel% neq 0 goto :VCEnd", ":VCEnd"]
            for i, b in enumerate(body):
                pre = f"1>{targets}: error MSB3073: "
                if i == 0:
                    out.append(pre + 'The command "' + b)
                elif i == len(body) - 1:
                    out.append(pre + b + f'" exited with code {c.exit}.')
                else:
                    out.append(pre + b)
            out.append(f'1>Done building project "{proj}.vcxproj" -- FAILED.')
        out.append("========== Build: 0 succeeded, 1 failed, 0 up-to-date, 0 skipped ==========")
        if maybe(rng, 0.7):
            out.append(f"========== Build completed at {tm} and took {secs:06.3f} seconds ==========")
        return "\n".join(out)
    projfile = f"{c.cwd}/{proj}.{rng.choice(['csproj', 'csproj', 'proj', 'targets'])}"
    projref = projfile if not projfile.endswith(".targets") else f"{c.cwd}/{proj}.csproj"
    exec_err = f'{projfile}({line_no},5): error MSB3073: The command "{c.cmd}" exited with code {c.exit}.'
    if layout == 2:
        # dotnet build, classic console logger
        out = [rng.choice(["MSBuild version 17.8.3+195e7f5a3 for .NET", "MSBuild version 17.11.9+a69bbaaf5 for .NET",
                           "Microsoft (R) Build Engine version 17.3.2+561848881 for .NET"]),
               "  Determining projects to restore...",
               "  All projects are up-to-date for restore."]
        if maybe(rng, 0.6):
            out.append(f"  {proj} -> {c.cwd}/bin/Debug/net8.0/{proj}.dll")
        if maybe(rng, 0.5):
            out.append("  " + c.cmd)
        errs = []
        for kind, l in lines:
            if kind == "canon":
                s = f"{l} [{projref}]"
                out.append(s)
                errs.append(s)
            else:
                out.append(("  " + l) if l else "")
        final = [] if zero else [exec_err + f" [{projref}]"]
        out += final
        out += ["", "Build FAILED.", ""]
        out += errs + final
        out += ["    0 Warning(s)", f"    {len(errs) + len(final)} Error(s)", "",
                f"Time Elapsed 00:00:{secs:05.2f}"]
        return "\n".join(out)
    if layout == 3:
        # msbuild -v:n log
        d = c.dt
        out = [f"Build started {d.strftime('%d/%m/%Y %H:%M:%S') if maybe(rng, 0.5) else d.strftime('%-m/%-d/%Y %-I:%M:%S %p')}.",
               f'     1>Project "{projfile}" on node 1 (default targets).',
               f"     1>{target}:",
               "         " + c.cmd]
        errs = []
        for kind, l in lines:
            if kind == "canon":
                out.append("     1>" + l + f" [{projfile}]")
                errs.append(l + f" [{projfile}]")
            else:
                out.append(("         " + l) if l else "")
        if not zero:
            out.append("     1>" + exec_err)
            errs.append(exec_err)
        out.append(f'     1>Done Building Project "{projfile}" (default targets) -- FAILED.')
        out += ["", "Build FAILED.", "",
                f'       "{projfile}" (default target) (1) ->',
                f"       ({target} target) -> "]
        out += ["         " + e for e in errs]
        out += ["", "    0 Warning(s)", f"    {len(errs)} Error(s)", "", f"Time Elapsed 00:00:{secs:05.2f}"]
        return "\n".join(out)
    # layout 4: Azure-DevOps-free plain `msbuild build.proj -t:Target` on Linux with -nologo
    out = [f"$ dotnet msbuild build.proj -t:{target} -nologo" if maybe(rng, 0.5) else f"> msbuild /t:{target}"]
    for kind, l in lines:
        out.append(l if kind == "canon" else ("  " + l if l else ""))
    if not zero:
        out.append(exec_err.replace(projfile, f"{c.cwd}/build.proj"))
    return "\n".join(out)


# --------------------------------------------------------------- Sublime ----


def sublime_path(c, rng):
    if c.mac:
        return rng.choice(["/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
                           "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:/Library/Apple/usr/bin"])
    extra = rng.choice(["", f"{c.home}/.local/bin:", f"{c.home}/.cargo/bin:{c.home}/.local/bin:", f"{c.home}/go/bin:"])
    return extra + rng.choice(["/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                               "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:/usr/local/games:/snap/bin"])


def r_sublime(c, rng):
    secs = duration_for(c, rng)
    st4_ms = maybe(rng, 0.4) and secs < 1.0
    zero = c.natural_exit == 0
    dur = f"{int(secs * 1000)}ms" if st4_ms else f"{secs:.1f}s"
    words = split_cmd(c.cmd)
    layout = rng.randrange(5)
    cwd = c.cwd
    if c.cmd_inferred and c.eco == "python" and layout in (0, 1, 2):
        script = words[-1]
        full = script if script.startswith("/") else f"{c.cwd}/{script}"
        cmdline = f"[cmd: {['python3', '-u', full]!r}]"
    elif shell_has_ops(c.cmd) or layout in (1, 3):
        cmdline = f"[shell_cmd: {c.cmd}]"
    else:
        cmdline = f"[cmd: {words!r}]"
    body = c.err
    if zero:
        tail = f"[Finished in {dur}]"
    else:
        tail = f"[Finished in {dur} with exit code {c.exit}]\n{cmdline}\n[dir: {cwd}]\n[path: {sublime_path(c, rng)}]"
    panel = body + "\n" + tail
    if layout == 4 or (layout == 3 and maybe(rng, 0.5)):
        # a forum post with the build system and the panel
        if cmdline.startswith("[shell_cmd"):
            cfg = {"shell_cmd": c.cmd, "working_dir": "${project_path}" if maybe(rng, 0.5) else "${file_path}"}
        else:
            cfg = {"cmd": words if not c.cmd_inferred else ["python3", "-u", "$file"],
                   "working_dir": "${file_path}"}
        if c.eco == "python" and maybe(rng, 0.6):
            cfg["file_regex"] = '^\\s*File "(...*?)", line ([0-9]*)'
        elif c.eco in ("c", "go", "rust") and maybe(rng, 0.6):
            cfg["file_regex"] = "^(..[^:]*):([0-9]+):?([0-9]+)?:? (.*)$"
        if maybe(rng, 0.3):
            cfg["selector"] = rng.choice(["source.python", "source.c", "source.go", "source.js", "source.shell"])
        bname = rng.choice([c.proj, c.first_word(), "Run", "My Build"])
        intro = rng.choice([
            f"I made a custom build system ({bname}.sublime-build):",
            f"Sublime Text {rng.choice(['4', '4 (build 4180)', '4 build 4189', '3'])} on {rng.choice(['macOS 14', 'macOS 15', 'Sonoma']) if c.mac else rng.choice(['Ubuntu 24.04', 'Fedora 40', 'Debian 12', 'Pop!_OS 22.04', 'Mint 21'])}. Build system:",
            "My .sublime-build:",
        ])
        outro = rng.choice(["Ctrl+B gives this in the build panel:", "and the output panel shows:",
                            "Tools > Build prints:", "Output:"])
        return f"{intro}\n\n{fence(json.dumps(cfg, indent=4), 'json')}\n\n{outro}\n\n{fence(panel)}"
    if layout == 2 and maybe(rng, 0.5):
        # panel copied with the build-variant line the user selected
        return panel
    return panel


# -------------------------------------------------------------- CI email ----


def job_name(c, rng):
    return rng.choice({
        "python": ["test", "pytest", "build", "lint", "unit-tests"],
        "node": ["build", "test", "lint", "typecheck", "ci"],
        "rust": ["build", "cargo-build", "test", "check"],
        "go": ["build", "test", "go-build"],
        "java": ["build", "compile", "package", "maven"],
        "c": ["build", "compile", "make"],
        "docker": ["docker-build", "image", "build-image", "compose-up"],
        "k8s": ["deploy", "deploy-staging", "kube-apply", "smoke"],
        "db": ["migrate", "db-check", "seed", "integration"],
        "ssh": ["deploy", "release", "sync"],
        "git": ["mirror", "sync", "release"],
        "systemd": ["deploy", "restart", "healthcheck"],
        "ruby": ["build", "test", "jekyll", "rspec"],
        "tls": ["smoke", "healthcheck", "cert-check"],
    }.get(c.eco, ["build", "run", "check", "script"]))


def gitlab_trace(c, rng, tail=None):
    lines = []
    if "ERROR: Job failed" not in c.err and not c.err.startswith("$ "):
        lines.append(f"$ {c.cmd}")
    el = c.lines
    if tail and len(el) > tail:
        el = el[-tail:]
    lines += el
    if "ERROR: Job failed" not in c.err:
        if maybe(rng, 0.6):
            lines += ["", "Cleaning up project directory and file based variables"]
        lines.append(f"ERROR: Job failed: exit code {c.exit}")
    return "\n".join(lines)


def r_ci_email(c, rng):
    layout = rng.randrange(6)
    raw = (layout in (1, 4) and maybe(rng, 0.6)) or maybe(rng, 0.08)
    d = c.dt + timedelta(seconds=rng.randrange(20, 400))
    date_hdr = d.strftime("%a, %d %b %Y %H:%M:%S +0000")
    sha = hexid(rng, 40)
    repo = f"{c.org}/{c.proj}"
    job = job_name(c, rng)
    to = f"{c.fullname} <{c.user}@{rng.choice(['acme.dev', 'example.com', 'gmail.com', c.org + '.io'])}>"
    msg = rng.choice(COMMIT_MSGS)
    if layout in (0, 1):
        host = rng.choice(["gitlab.com", f"gitlab.{c.org}.dev", "git.example.com", "gitlab.example.com"])
        pid = rng.randrange(1000, 2000000)
        jid = pid * rng.randrange(2, 9) + rng.randrange(100)
        group = c.org.replace("-", " ").title()
        subj = f"{group} / {c.proj} | Pipeline #{pid} has failed for {c.branch} | {sha[:8]}"
        hdrs = [f"From: GitLab <gitlab@{host}>", f"To: {to}", f"Date: {date_hdr}", f"Subject: {subj}",
                f"Message-ID: <{hexid(rng, 24)}_{rng.randrange(1000, 9999)}@{host}.mail>",
                f"X-GitLab-Project: {c.proj}", f"X-GitLab-Project-Path: {repo}",
                f"X-GitLab-Pipeline-Id: {pid}", "X-GitLab-Pipeline-Status: failed"]
        stage = rng.choice(["test", "build", "deploy", "check"])
        tail = rng.choice([None, 10, 20, 30]) if len(c.lines) > 12 else None
        trace = gitlab_trace(c, rng, tail)
        body = [
            "Your pipeline has failed.", "",
            f"Project: {group} / {c.proj} ( https://{host}/{repo} )",
            f"Branch: {c.branch} ( https://{host}/{repo}/-/commits/{c.branch} )", "",
            f"Commit: {sha[:8]} ( https://{host}/{repo}/-/commit/{sha} )",
            f"Commit Message: {msg}",
            f"Commit Author: {c.fullname} ( https://{host}/{c.user} )", "",
            f"Pipeline #{pid} ( https://{host}/{repo}/-/pipelines/{pid} ) triggered by {c.fullname} ( https://{host}/{c.user} )",
            "had 1 failed job.", "",
            "Job #%d ( https://%s/%s/-/jobs/%d/raw )" % (jid, host, repo, jid), "",
            f"Stage: {stage}", f"Name: {job}", "",
            "Trace: " + trace, "", "-- ",
            f"You're receiving this email because of your account on {host}.",
            f"Manage all notifications: https://{host}/-/profile/notifications",
            f"Help: https://{host}/help",
        ]
    elif layout in (2, 3):
        run_id = rng.randrange(7000000000, 15000000000)
        wf = rng.choice(["CI", "Build", "Tests", "ci.yml", "Deploy", "Lint & Test"])
        subj = f"[{repo}] Run failed: {wf} - {c.branch} ({sha[:7]})"
        hdrs = [f'From: "{c.fullname}" <notifications@github.com>' if maybe(rng, 0.3) else "From: GitHub <notifications@github.com>",
                f"To: {repo} <{c.proj}@noreply.github.com>", f"Date: {date_hdr}", f"Subject: {subj}",
                f"Message-ID: <{repo}/actions/runs/{run_id}@github.com>", "X-GitHub-Reason: ci_activity"]
        jobname = job if maybe(rng, 0.6) else f"{job} ({rng.choice(['ubuntu-latest', '3.12', '20.x', 'stable'])})"
        ann = []
        diags = parse_diags(c.err)
        for dg in diags[:3]:
            ann.append(f"{jobname}: {dg['file']}#L{dg['line']}\n{dg['msg']}")
        if not diags or maybe(rng, 0.5):
            tail = c.lines
            if len(c.lines) > 16:
                k = key_line(c.err)
                idx = next((i for i, l in enumerate(c.lines) if l.strip() == k), len(c.lines) - 12)
                tail = c.lines[max(0, min(idx, len(c.lines) - 6)):][:rng.randrange(10, 18)]
            ann.append(f"{jobname}\n" + "\n".join(tail))
        ann.append(f"{jobname}\nProcess completed with exit code {c.exit}.")
        mins = rng.randrange(0, 5)
        body = [
            f"[{repo}] {wf} workflow run", "",
            f"{wf}: {'All jobs have failed' if maybe(rng, 0.6) else 'Some jobs were not successful'}", "",
            f"View workflow run: https://github.com/{repo}/actions/runs/{run_id}", "",
            f"    {jobname}", f"    failed {rng.choice(['1 minute ago', '2 minutes ago', 'now'])} in {mins}m {rng.randrange(1, 59)}s", "",
            "Annotations", f"{len(ann)} error{'s' if len(ann) != 1 else ''}", "",
        ]
        for a in ann:
            body += ["X " + a.split("\n")[0]] + a.split("\n")[1:] + [""]
        body += ["—", "You are receiving this because you are subscribed to this thread.",
                 "Manage your GitHub Actions notifications here: https://github.com/settings/notifications"]
    else:
        host = rng.choice(["ci.acme.dev", "jenkins.internal", "jenkins.example.com", "build.lan:8080"])
        num = rng.randrange(12, 2400)
        jobpath = f"{c.proj}/{c.branch}"
        jurl = f"https://{host}/job/{c.proj}/job/{c.branch.replace('/', '%252F')}/{num}/"
        subj = rng.choice([f"{c.proj} » {c.branch} - Build # {num} - Failure!",
                           f"FAILURE: Job '{jobpath}' [#{num}]", f"Build failed in Jenkins: {jobpath} #{num}"])
        hdrs = [f"From: Jenkins <jenkins@{host.split(':')[0]}>", f"To: {to}", f"Date: {date_hdr}", f"Subject: {subj}",
                f"Message-ID: <{rng.randrange(10**8, 10**9)}.{rng.randrange(100, 999)}.{rng.randrange(10**12, 10**13)}@{host.split(':')[0]}>"]
        log = []
        skipped = rng.randrange(40, 700)
        log.append(f"[...truncated {skipped} lines...]" if maybe(rng, 0.7) else f"[...truncated {skipped * 37} KB...]")
        if maybe(rng, 0.6):
            log += ["[Pipeline] sh", f"+ {c.cmd}"]
        else:
            log += [f"[{c.proj}] $ /bin/sh -xe /tmp/jenkins{rng.randrange(10**17, 10**18)}.sh", f"+ {c.cmd}"]
        el = c.lines if len(c.lines) <= 60 else c.lines[-60:]
        log += el
        log += ["[Pipeline] }", "[Pipeline] // stage", "[Pipeline] }", "[Pipeline] // node",
                "[Pipeline] End of Pipeline", f"ERROR: script returned exit code {c.exit}", "Finished: FAILURE"]
        body = [f"{c.proj} » {c.branch} - Build # {num} - Failure:", "",
                f"Check console output at {jurl} to view the results.", "", *log]
    body_s = "\n".join(body)
    if raw:
        enc = quopri.encodestring(body_s.encode("utf-8")).decode("ascii")
        mime = ["MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8",
                "Content-Transfer-Encoding: quoted-printable"]
        if any(ord(ch) > 127 for ch in hdrs[3]):
            hdrs[3] = "Subject: =?UTF-8?Q?" + quopri.encodestring(hdrs[3][9:].encode(), header=True).decode() + "?="
        return "\n".join(hdrs + mime) + "\n\n" + enc
    # mail client rendering: show a subset of headers
    shown = [h for h in hdrs if h.split(":")[0] in ("From", "To", "Date", "Subject")]
    if maybe(rng, 0.5):
        shown = [shown[3].replace("Subject: ", ""), shown[0], shown[2]]
    return "\n".join(shown) + "\n\n" + body_s


# -------------------------------------------------------------- Renovate ----

RENOVATE_FILES = {
    "python": ["requirements.txt", "poetry.lock", "requirements/dev.txt", "pyproject.toml", "uv.lock"],
    "node": ["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "frontend/package-lock.json"],
    "rust": ["Cargo.lock", "Cargo.toml"],
    "go": ["go.sum", "go.mod"],
    "java": ["pom.xml", "build.gradle", "gradle/libs.versions.toml", "gradle/wrapper/gradle-wrapper.properties"],
    "c": ["CMakeLists.txt", "conanfile.txt", "vcpkg.json", "Makefile"],
    "docker": ["Dockerfile", "docker-compose.yml", "compose.yaml"],
    "k8s": ["k8s/deployment.yaml", "chart/Chart.lock", "helmfile.yaml"],
    "db": ["docker-compose.yml", "migrations/schema.sql", ".tool-versions"],
    "ssh": [".github/workflows/deploy.yml", "ansible/requirements.yml"],
    "git": [".gitmodules", ".pre-commit-config.yaml"],
    "systemd": ["deploy/app.service", "ansible/requirements.yml"],
    "ruby": ["Gemfile.lock", "Gemfile"],
    "tls": [".tool-versions", "Dockerfile"],
    "json": ["package.json", "renovate.json"],
}


def r_renovate(c, rng):
    files = RENOVATE_FILES.get(c.eco, [".tool-versions", "mise.toml", "Dockerfile"])
    fname = rng.choice(files)
    warn = rng.choice(["### ⚠️ Artifact update problem", "### ⚠ Artifact update problem",
                       "### :warning: Artifact update problem", "### ⚠️ Artifact update problem"])
    first = rng.choice(["Renovate failed to update an artifact related to this branch. You probably do not want to merge this PR as-is.",
                        "Renovate failed to update artifacts related to this branch. You probably do not want to merge this PR as-is."])
    recyc = rng.choice(["♻", "♻️", ":recycle:"])
    check = rng.choice(["you click the rebase/retry checkbox if found above", "you check the rebase/retry checkbox if found above"])
    intro = [warn, "", first, "",
             f"{recyc} Renovate will retry this branch, including artifacts, only when one of the following happens:", "",
             " - any of the package files in this branch needs updating, or ",
             " - the branch becomes conflicted, or",
             f" - {check}, or",
             ' - you rename this PR\'s title to start with "rebase!" to trigger it manually', "",
             "The artifact failure details are included below:", ""]
    layout = rng.randrange(5)
    base = f"/tmp/renovate/repos/github/{c.org}/{c.proj}"
    if layout == 0:
        failed = c.cmd
    elif layout == 1:
        tool = {"python": "python 3.12.7", "node": "node 20.18.0", "rust": "rust 1.82.0", "go": "golang 1.23.2",
                "java": "java 21.0.4+7.0.LTS", "ruby": "ruby 3.3.5", "k8s": "kubectl 1.31.2", "docker": "docker 27.3.1",
                "json": "node 20.18.0", "db": "python 3.12.7"}.get(c.eco, rng.choice(["python 3.12.7", "node 20.18.0"]))
        inner = c.cmd.replace("\\", "\\\\").replace('"', '\\"')
        failed = (f'docker run --rm --name=renovate_sidecar --label=renovate_child -v "{base}":"{base}" '
                  f'-v "/tmp/renovate/cache":"/tmp/renovate/cache" -e CONTAINERBASE_CACHE_DIR -w "{base}" '
                  f'ghcr.io/containerbase/sidecar bash -l -c "install-tool {tool} && {inner}"')
    elif layout == 2:
        failed = c.cmd
    else:
        failed = c.cmd
    stderr = c.err
    if layout == 2:
        t = c.dt
        noise = [f"[{t.strftime('%H:%M:%S')}.{rng.randrange(100, 999)}] INFO ({rng.randrange(20, 400)}): Installing tool {c.first_word()}...",
                 f"[{(t + timedelta(seconds=2)).strftime('%H:%M:%S')}.{rng.randrange(100, 999)}] INFO ({rng.randrange(20, 400)}): Installed tool {c.first_word()} in {rng.randrange(1, 9)}.{rng.randrange(10)}s."]
        stderr = "\n".join(noise) + "\n" + stderr
    if layout == 3:
        body = f"Post-upgrade command '{c.cmd}' failed:\nCommand failed: {failed}\n{stderr}\n"
    else:
        body = f"Command failed: {failed}\n{stderr}\n"
    sections = [f"##### File name: {fname}", "", fence(body.rstrip("\n") + "\n")]
    if layout == 4 and maybe(rng, 0.6):
        other = rng.choice([f for f in files if f != fname] or [fname])
        sections = [f"##### File name: {other}", "", fence(body.rstrip("\n") + "\n"), ""] + sections
    text = "\n".join(intro + sections)
    if maybe(rng, 0.35):
        who = rng.choice(["renovate bot", "renovate[bot]", "Renovate Bot", "mend-renovate bot"])
        ago = rng.choice(["commented 3 minutes ago", "commented 2 hours ago", "commented yesterday", "commented now"])
        text = f"{who} {ago}\n\n" + text
    return text


# ------------------------------------------------------------ pre-commit ----

OTHER_HOOKS = ["trim trailing whitespace", "fix end of files", "check yaml", "check for added large files",
               "check json", "check for merge conflicts", "detect private key", "mixed line ending",
               "black", "isort", "ruff", "ruff-format", "prettier", "eslint", "gofmt", "shellcheck",
               "markdownlint", "check toml", "codespell", "hadolint"]


def dots(name, status, cols=80):
    n = cols - len(name) - len(status) - 1
    return name + "." * max(n, 3) + status


HOOK_FILES = [r"\.py$", r"\.(js|ts)$", r"\.go$", r"\.rs$", r"\.ya?ml$", r".*"]


def hook_ident(c, rng):
    fw = c.first_word()
    ids = {
        "python": [("run-script", "run script"), ("smoke", "smoke test"), ("pytest", "pytest"), ("pip-check", "install requirements")],
        "node": [("tsc", "Type check"), ("build", "npm build"), ("node-smoke", "node smoke test"), ("npm-install", "npm install")],
        "rust": [("cargo-build", "cargo build"), ("cargo-check", "cargo check")],
        "go": [("go-build", "go build"), ("go-vet", "go vet"), ("go-run", "go run smoke")],
        "java": [("javac", "javac compile"), ("mvn-compile", "maven compile"), ("gradle-build", "gradle build")],
        "c": [("make", "make"), ("compile", "compile C sources"), ("cmake-configure", "cmake configure")],
        "docker": [("docker-build", "docker build"), ("compose-up", "compose up"), ("docker-check", "docker smoke test")],
        "k8s": [("kube-apply-dry-run", "kubectl apply"), ("kube-check", "cluster check"), ("helm-lint", "helm")],
        "db": [("schema-check", "schema check"), ("db-smoke", "db smoke test"), ("sql-apply", "apply SQL")],
        "ruby": [("bundle", "bundle install"), ("rails-boot", "rails boot check")],
        "json": [("jq-validate", "validate json"), ("check-config", "check config")],
    }.get(c.eco, [(fw.strip("./") + "-check", fw.strip("./")), ("local-check", "local check"), ("run", "run command")])
    return rng.choice(ids)


def r_pre_commit(c, rng):
    hid, hname = hook_ident(c, rng)
    if maybe(rng, 0.5):
        hname = c.cmd if len(c.cmd) < 50 else hname
    config = None
    if maybe(rng, 0.25) and not ("'" in c.cmd and '"' in c.cmd):
        entry = c.cmd if not shell_has_ops(c.cmd) else (f"bash -c '{c.cmd}'" if "'" not in c.cmd else f'bash -c "{c.cmd}"')
        if ": " in entry or " #" in entry or entry[0] in "[{*&!%@`'\"|>":
            entry = "'" + entry.replace("'", "''") + "'"
        config = "\n".join(["$ cat .pre-commit-config.yaml", "repos:", "  - repo: local", "    hooks:",
                             f"      - id: {hid}", f"        name: {hname}", f"        entry: {entry}",
                             "        language: system", "        pass_filenames: false",
                             "        always_run: true" if maybe(rng, 0.5) else "        files: " + rng.choice(HOOK_FILES), ""])
    layout = rng.randrange(6)
    others = rng.sample(OTHER_HOOKS, rng.randrange(1, 5))
    exitc = c.exit
    if layout in (0, 1, 2, 3):
        cols = max(80, max(len(h) for h in others + [hname]) + 3 + len("(no files to check)") + 1 + len("Skipped"))
        out = []
        if layout == 0:
            out.append(rng.choice(["$ pre-commit run --all-files", "$ pre-commit run -a", f"$ pre-commit run {hid} --all-files"]))
        elif layout == 1:
            out.append(f"$ git commit -m \"{rng.choice(COMMIT_MSGS)}\"")
            if maybe(rng, 0.5):
                out.append("[WARNING] Unstaged files detected.")
                patch = f"{c.home}/.cache/pre-commit/patch{int(c.dt.timestamp())}-{rng.randrange(1000, 99999)}"
                out.append(f"[INFO] Stashing unstaged files to {patch}.")
            else:
                patch = None
        elif layout == 3:
            out.append(f"$ pre-commit run {hid} --verbose")
            others = []
        if layout == 2 and maybe(rng, 0.5):
            out.append(f"[INFO] Initializing environment for {rng.choice(['https://github.com/pre-commit/pre-commit-hooks', 'https://github.com/psf/black', 'https://github.com/astral-sh/ruff-pre-commit'])}.")
            out.append("[INFO] Installing environment for https://github.com/pre-commit/pre-commit-hooks.")
            out.append("[INFO] Once installed this environment will be reused.")
            out.append("[INFO] This may take a few minutes...")
        pos = rng.randrange(0, len(others) + 1)
        seq = others[:pos] + [None] + others[pos:]
        for h in seq:
            if h is None:
                out.append(dots(hname, "Failed", cols))
                out.append(f"- hook id: {hid}")
                if layout == 3 or maybe(rng, 0.2):
                    out.append(f"- duration: {duration_for(c, rng):.2f}s")
                out.append(f"- exit code: {exitc}")
                out.append("")
                out.extend(c.lines)
                out.append("")
            else:
                st = rng.choice(["Passed", "Passed", "Passed", "(no files to check)Skipped"])
                out.append(dots(h, st, cols))
        if layout == 1 and patch:
            out.append(f"[INFO] Restored changes from {patch}.")
        res = "\n".join(out).rstrip("\n")
        return (config + "\n" + res) if config else res
    if layout == 4:
        ver = rng.choice(["1.5.5", "1.6.10", "1.7.18", "1.8.2"])
        head = f"│ 🥊 lefthook v{ver}  hook: pre-commit │"
        bar = "─" * (len(head) - 1)
        out = [f"╭{bar}╮", head, f"╰{bar}╯"]
        for h in rng.sample(["lint", "fmt", "typos"], rng.randrange(0, 2)):
            out.append(f"┃  {h} ❯ ")
            out.append("")
        out.append(f"┃  {hid} ❯ ")
        out.append("")
        out.extend(c.lines)
        out.append("")
        out.append("                                      ")
        out.append("────────────────────────────────────")
        out.append(f"summary: (done in {duration_for(c, rng) + 0.05:.2f} seconds)")
        out.append(f"🥊  {hid}")
        return "\n".join(out)
    # husky
    pkg = c.proj
    out = [f"$ git commit -m \"{rng.choice(COMMIT_MSGS)}\""]
    if maybe(rng, 0.5):
        out += ["", f"> {pkg}@{rng.randrange(0, 3)}.{rng.randrange(0, 12)}.0 precommit", f"> {c.cmd}", ""]
    out.extend(c.lines)
    out.append(rng.choice([f"husky - pre-commit script failed (code {exitc})",
                           f"husky - pre-commit hook exited with code {exitc} (error)"]))
    return "\n".join(out)


# ------------------------------------------------------------------ nvim ----


def qf_lines(c):
    out = []
    for l in c.lines:
        s = l
        m = re.match(r"^(\.?/?[\w./-]+\.\w+):(\d+):(\d+): (.*)$", s)
        if m:
            out.append(f"{m.group(1)}|{m.group(2)} col {m.group(3)}| {m.group(4)}")
            continue
        m = re.match(r"^(\.?/?[\w./-]+\.\w+):(\d+): (.*)$", s)
        if m:
            out.append(f"{m.group(1)}|{m.group(2)}| {m.group(3)}")
            continue
        m = re.match(r'^\s*File "([^"]+)", line (\d+)(.*)$', s)
        if m:
            out.append(f"{m.group(1)}|{m.group(2)}| {m.group(3).lstrip(', ')}".rstrip())
            continue
        out.append("|| " + s if s else "||")
    return out


def r_nvim(c, rng):
    layout = rng.randrange(7)
    cmd = c.cmd
    if c.cmd_inferred and maybe(rng, 0.5):
        shown = cmd  # the expanded form of :!python3 %
    else:
        shown = cmd
    if layout == 0:
        # Vim :!cmd in a terminal (alternate screen off: previous shell lines visible)
        out = []
        if maybe(rng, 0.5):
            out.append(f"{c.user}@{c.host}:{c.tcwd}$ vim {c.script_name() or rng.choice(['Makefile', 'notes.md', 'config.yml'])}")
        out.append(f":!{shown}")
        out.extend(c.lines)
        out.append("")
        if c.natural_exit:
            out.append(f"shell returned {c.natural_exit}")
            out.append("")
        out.append("Press ENTER or type command to continue")
        return "\n".join(out)
    if layout == 1:
        # Neovim message area over the buffer
        out = ["~"] * rng.randrange(0, 5)
        out.append(f":!{shown}")
        out.extend(c.lines)
        if c.natural_exit:
            out.append("")
            out.append(f"shell returned {c.natural_exit}")
        out.append("")
        out.append("Press ENTER or type command to continue")
        return "\n".join(out)
    if layout == 2:
        # :make with makeprg set to the command
        if c.first_word() == "make":
            ":make" + cmd[4:] if cmd.startswith("make") else ":make"
            prg = cmd
        else:
            prg = cmd
        if maybe(rng, 0.5):
            tmp = f"/tmp/v{alnum(rng, 6, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}/{rng.randrange(1, 9)}"
            sep = " 2>&1| tee "
        else:
            tmp = f"/tmp/nvim.{c.user}/{alnum(rng, 6, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')}/{rng.randrange(0, 9)}"
            sep = "  2>&1| tee "
        out = []
        if prg != "make" and maybe(rng, 0.5):
            esc = prg.replace(" ", "\\ ")
            out.append(f":set makeprg={esc}")
        out.append(f":!{prg}{sep}{tmp}")
        out.extend(c.lines)
        out.append("")
        out.append("Press ENTER or type command to continue")
        qf = qf_lines(c)
        n_err = sum(1 for q in qf if not q.startswith("||"))
        total = len(qf)
        if n_err:
            first = next(q for q in qf if not q.startswith("||"))
            fname, rest = first.split("|", 1)
            msg = rest.split("| ", 1)[-1]
            out.append(f"({1} of {total}): {msg}")
        else:
            out.append(f"(1 of {total}): {qf[0][3:] if qf[0].startswith('|| ') else qf[0]}")
        return "\n".join(out)
    if layout == 3:
        # quickfix window after :make / :copen
        qf = qf_lines(c)
        sq = cmd.replace("'", "''")
        title = rng.choice([f":cexpr system('{sq}')", ":make", f":!{cmd}  2>&1| tee /tmp/nvim.{c.user}/{alnum(rng, 6, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')}/0"])
        out = qf + [f"[Quickfix List] {title}" if maybe(rng, 0.7) else f"[Quickfix List] {title}  {len(qf)},1  All"]
        return "\n".join(out)
    if layout == 4:
        # AsyncRun into the quickfix window
        secs = duration_for(c, rng)
        out = [f"|| [{cmd}]"]
        out += ["|| " + l if l else "||" for l in c.lines]
        out.append(f"|| [Finished in {secs:.2f} seconds with code {c.natural_exit}]")
        if maybe(rng, 0.5):
            out.append(f"[Quickfix List] :AsyncRun {cmd}")
        return "\n".join(out)
    if layout == 5:
        # :terminal buffer
        prompt = prompt_for(c, rng, "bash") if maybe(rng, 0.5) else ""
        out = []
        if prompt:
            out.append(prompt + cmd)
            out.extend(c.lines)
            out.append(prompt)
        else:
            out.extend(c.lines)
            out.append("")
            out.append(f"[Process exited {c.natural_exit}]")
        status = f"term://{c.tcwd}//{rng.randrange(10000, 99999)}:{'/bin/bash' if prompt else cmd}"
        out.append(status)
        return "\n".join(out)
    # :messages dump with output echoed through vim.notify / :echo system()
    script = c.script_name() or rng.choice(["Makefile", "README.md", "init.lua"])
    nlines = rng.randrange(8, 300)
    out = [":messages",
           f"\"{script}\" {nlines}L, {nlines * rng.randrange(18, 40)}B written"]
    if maybe(rng, 0.5):
        out.append(f"[run] {cmd}")
    out.extend(c.lines)
    if c.natural_exit:
        out.append(rng.choice([f"[run] exited with code {c.natural_exit}", f"shell_error: {c.natural_exit}",
                               f"Command failed with exit code {c.natural_exit}"]))
    out.append("Press ENTER or type command to continue")
    return "\n".join(out)


# --------------------------------------------------------------- RStudio ----


def r_string(s, rng, prefer=None):
    q = prefer or ("'" if ('"' in s and "'" not in s) else '"')
    if q == '"':
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def r_print_chr(values, width=80):
    def q(v):
        v = v.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r")
        return '"' + v + '"'
    items = [q(v) for v in values]
    if not items:
        return ["character(0)"]
    w = max(len(x) for x in items)
    n = len(items)
    labw = len(f"[{n}]")
    per = max(1, (width - labw) // (w + 1))
    out = []
    for i in range(0, n, per):
        lab = f"[{i + 1}]".rjust(labw)
        chunk = items[i:i + per]
        if per == 1:
            out.append(lab + " " + chunk[0].ljust(w))
        else:
            out.append(lab + "".join(" " + x.ljust(w) for x in chunk))
    return [l.rstrip() if per == 1 and False else l for l in out]


def r_rstudio(c, rng):
    layout = rng.randrange(6)
    cmd = c.cmd
    words = split_cmd(cmd)
    simple = not shell_has_ops(cmd) and "~" not in cmd and "$" not in cmd
    status = c.natural_exit
    out = []
    if rng.random() < 0.3:
        out.append(f"> setwd({r_string(c.tcwd if maybe(rng, 0.5) else c.cwd, rng)})")
    if layout == 0:
        if maybe(rng, 0.5):
            out.append(f"> system({r_string(cmd, rng)})")
            out.extend(c.lines)
        else:
            out.append(f"> status <- system({r_string(cmd, rng)})")
            out.extend(c.lines)
            out.append("> status")
            out.append(f"[1] {status}")
        out.append(">")
        return "\n".join(out)
    if layout == 1:
        full = cmd + " 2>&1"
        var = rng.choice(["out", "res", "log", "x"])
        out.append(f"> {var} <- system({r_string(full, rng)}, intern = TRUE)")
        if status:
            out += ["Warning message:", f"In system({r_string(full, rng)}, intern = TRUE) :",
                    f"  running command '{full}' had status {status}"]
        if maybe(rng, 0.5):
            out.append(f"> {var}")
            out.extend(r_print_chr(c.lines))
            if status:
                out += ['attr(,"status")', f"[1] {status}"]
        else:
            out.append(f'> cat({var}, sep = "\\n")')
            out.extend(c.lines)
        out.append(">")
        return "\n".join(out)
    if layout == 2 and simple and len(words) >= 1:
        prog = words[0]
        args = words[1:]
        if len(args) == 0:
            a = "character()"
        elif len(args) == 1:
            a = r_string(args[0], rng)
        else:
            a = "c(" + ", ".join(r_string(x, rng) for x in args) + ")"
        call = f"system2({r_string(prog, rng)}, {a}, stdout = TRUE, stderr = TRUE)"
        out.append("> " + call)
        out.extend(r_print_chr(c.lines))
        if status:
            out += ['attr(,"status")', f"[1] {status}"]
            shown = "'" + prog + "'" + ("" if not args else " " + " ".join(args))
            out += ["Warning message:", f"In {call} :", f"  running command '{shown} 2>&1' had status {status}"]
        out.append(">")
        return "\n".join(out)
    if layout in (2, 3, 4):
        if simple and len(words) >= 1:
            prog, args = words[0], words[1:]
            call_args = r_string(prog, rng) + (", " + ("c(" + ", ".join(r_string(x, rng) for x in args) + ")" if len(args) != 1 else r_string(args[0], rng)) if args else "")
            errprog = prog
        else:
            prog = "bash"
            call_args = f'"bash", c("-c", {r_string(cmd, rng)})'
            errprog = "bash"
        wd = f", wd = {r_string(c.cwd, rng)}" if maybe(rng, 0.4) else ""
        call = f"processx::run({call_args}{wd})"
        if layout == 4 and status:
            # old processx error format
            out.append("> " + call)
            out.append(f"Error in processx::run({call_args}{wd}) : ")
            out.append(f"  System command '{errprog}' failed, exit status: {status}, stdout + stderr:")
            out.extend("E> " + l for l in c.lines)
            out.append(">")
            return "\n".join(out)
        if status:
            out.append("> " + call)
            out.append(f"Error in `{call}`:")
            out.append(f"! System command '{errprog}' failed")
            out.append("---")
            out.append(f" Exit status: {status}")
            out.append(rng.choice([" Stderr:", " stderr & stdout:"]))
            out.extend(c.lines)
            out.append("---")
            out.append("Type .Last.error to see the more details.")
            out.append(">")
            return "\n".join(out)
        out.append(f"> res <- {call}")
        out.append("> cat(res$stdout)")
        out.extend(c.lines)
        out.append(">")
        return "\n".join(out)
    # layout 5: RStudio with a small wrapper function in a script, sourced
    fn = rng.choice(["run_step", "sh", "run_cmd"])
    out.append(f"> {fn} <- function(cmd) {{")
    out.append("+   rc <- system(cmd)")
    out.append('+   if (rc != 0) stop(sprintf("command failed (%d): %s", rc, cmd))')
    out.append("+ }")
    out.append(f"> {fn}({r_string(cmd, rng)})")
    out.extend(c.lines)
    if status:
        shown_cmd = cmd
        out.append(f"Error in {fn}({r_string(cmd, rng)}) : command failed ({status}): {shown_cmd}")
    out.append(">")
    return "\n".join(out)


# ---------------------------------------------------------- devcontainer ----

LIFECYCLE = [("postCreateCommand", 6), ("onCreateCommand", 2), ("postStartCommand", 2),
             ("updateContentCommand", 1), ("postAttachCommand", 1)]


def dc_stack(rng, user, cli=False):
    ver = rng.choice(["0.384.0", "0.388.0", "0.394.0", "0.401.0"])
    base = rng.choice([f"/home/{user}/.vscode/extensions/ms-vscode-remote.remote-containers-{ver}",
                       f"c:\\Users\\{user}\\.vscode\\extensions\\ms-vscode-remote.remote-containers-{ver}"])
    if cli:
        base = rng.choice(["/usr/local/lib/node_modules/@devcontainers/cli", "/usr/lib/node_modules/@devcontainers/cli",
                           f"/home/{user}/.npm-global/lib/node_modules/@devcontainers/cli"])
    sep = "\\" if base.startswith("c:") else "/"
    f = f"{base}{sep}dist{sep}spec-node{sep}devContainersSpecCLI.js"
    fr = []
    for name in rng.sample(["dL", "wg", "xg", "wae", "Ose", "Y5", "Ah"], 3):
        fr.append(f"    at {'async ' if fr else ''}{name} ({f}:{rng.randrange(400, 2000)}:{rng.randrange(100, 9000)})")
    return fr


def r_devcontainer(c, rng):
    which = pick_weighted(rng, LIFECYCLE)
    layout = rng.randrange(5)
    array_form = not shell_has_ops(c.cmd) and maybe(rng, 0.25)
    run_desc = c.cmd if array_form else f"/bin/sh -c {c.cmd}"
    code = c.exit
    ms0 = rng.randrange(3000, 200000)
    ms1 = ms0 + int(duration_for(c, rng) * 1000) + rng.randrange(40, 400)
    newmsg = maybe(rng, 0.6)
    fail_msg = (f"{which} from devcontainer.json failed with exit code {code}. Skipping any further user-provided commands."
                if newmsg else f"{which} failed with exit code {code}. Skipping any further user-provided commands.")
    if layout == 0:
        # VS Code "Dev Containers" output log with ISO timestamps, output logged in chunks
        t = c.dt
        out = []

        def ts():
            return "[" + iso_z(t, 3) + "]"
        out.append(f"{ts()} Start: Run in container: {run_desc}")
        i = 0
        lines = c.lines
        while i < len(lines):
            n = rng.randrange(1, 6)
            chunk = lines[i:i + n]
            t = t + timedelta(milliseconds=rng.randrange(1, 900))
            out.append(f"{ts()} {chunk[0]}")
            out.extend(chunk[1:])
            i += n
        t = max(t, c.dt + timedelta(milliseconds=ms1 - ms0))
        out.append(f"{ts()} Stop ({ms1 - ms0} ms): Run in container: {run_desc}")
        out.append(f"{ts()} {fail_msg}")
        return "\n".join(out)
    if layout == 1:
        # the creation terminal
        out = [f"Running the {which} from devcontainer.json...", "",
               f"[{ms0} ms] Start: Run in container: {run_desc}"]
        out.extend(c.lines)
        out.append(f"[{ms1} ms] {fail_msg}")
        if maybe(rng, 0.5):
            out.append(f"[{ms1} ms] Error: Command failed: {run_desc}")
            out.extend(f"[{ms1 + (i // 2)} ms] {fr}" for i, fr in enumerate(dc_stack(rng, c.user)))
        out.append("Done. Press any key to close the terminal.")
        return "\n".join(out)
    if layout == 2:
        # Codespaces creation log
        t = c.dt - timedelta(seconds=rng.randrange(30, 300))
        out = []

        def p(s):
            return f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d}Z: {s}"
        for pre in rng.sample(["Configuration starting...", "Container started", "Outcome: success User: codespace WorkspaceFolder: /workspaces/" + c.proj,
                               "devcontainer process exited with exit code 0", "Running blocking commands..."], 2):
            out.append(p(pre))
            t += timedelta(milliseconds=rng.randrange(50, 9000))
        out.append(p(f"Running the {which} from devcontainer.json..."))
        out.append(p(""))
        t += timedelta(milliseconds=rng.randrange(5, 200))
        out.append(p(f"[{ms0} ms] Start: Run in container: {run_desc}"))
        for l in c.lines:
            t += timedelta(milliseconds=rng.randrange(0, 120))
            out.append(p(l))
        t += timedelta(milliseconds=rng.randrange(5, 200))
        out.append(p(f"{which} failed with exit code {code}. Skipping any further user-provided commands."))
        out.append(p(f"Error: Command failed: {run_desc}"))
        return "\n".join(out)
    if layout == 3:
        # devcontainer CLI
        ver = rng.choice(["0.65.0", "0.71.0", "0.72.0", "0.75.0"])
        nodev = rng.choice(["v18.20.4", "v20.18.0", "v22.11.0"])
        out = [f"$ devcontainer up --workspace-folder {rng.choice(['.', c.tcwd])}",
               f"[{rng.randrange(1, 9)} ms] @devcontainers/cli {ver}. Node.js {nodev}. linux {rng.choice(['6.8.0-51-generic', '6.5.0-1025-azure', '6.11.5-300.fc41.x86_64'])} x64.",
               f"[{ms0} ms] Start: Run in container: {run_desc}"]
        out.extend(c.lines)
        out.append(f"[{ms1} ms] Error: Command failed: {run_desc}")
        out.extend(dc_stack(rng, c.user, cli=True))
        out.append(json.dumps({"outcome": "error", "message": f"Command failed: {run_desc}",
                               "description": f"{which} from devcontainer.json failed."}, separators=(",", ":")))
        return "\n".join(out)
    # layout 4: ISO + ms log lines (as in the Dev Containers log with both clocks)
    t = c.dt
    out = []
    ms = ms0
    out.append(f"[{iso_z(t)}] [{ms} ms] Start: Run in container: {run_desc}")
    for l in c.lines:
        dtm = rng.randrange(0, 80)
        ms += dtm
        t += timedelta(milliseconds=dtm)
        out.append(l)
    ms += rng.randrange(10, 200)
    t += timedelta(milliseconds=rng.randrange(10, 200))
    out.append(f"[{iso_z(t)}] [{ms} ms] {fail_msg}")
    return "\n".join(out)


# --------------------------------------------------------------- gh logs ----


def gh_ts(t, rng):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}{rng.randrange(10)}Z"


def r_gh(c, rng):
    job = job_name(c, rng)
    if maybe(rng, 0.35):
        job = f"{job} ({rng.choice(['ubuntu-latest', '3.12', '3.11', '20.x', 'stable', 'ubuntu-22.04, 3.12'])})"
    layout = rng.randrange(5)
    step = rng.choice([f"Run {c.cmd}", f"Run {c.cmd}", rng.choice(["Build", "Test", "Run script", "Install dependencies", "Deploy", "Compile", "Smoke test"])])
    if len(step) > 80:
        step = step[:80]
    if layout == 4:
        step = "UNKNOWN STEP"
    t = c.dt
    out = []
    first = [True]

    def add(line, stp=None):
        nonlocal t
        t = t + timedelta(microseconds=rng.randrange(0, 400000))
        bom = "\ufeff" if first[0] and maybe(rng, 0.7) else ""
        first[0] = False
        out.append(f"{job}\t{stp or step}\t{bom}{gh_ts(t, rng)} {line}")
    script = [c.cmd]
    if maybe(rng, 0.3) and c.eco == "python" and not c.cmd.startswith("pip"):
        script = ["pip install -r requirements.txt", c.cmd]
        if step.startswith("Run "):
            step = "Run pip install -r requirements.txt"
    if layout == 3:
        # a preceding multi-line run block
        pre = {"python": "python -m pip install --upgrade pip", "node": "npm ci", "rust": "rustup show",
               "go": "go version", "java": "java -version"}.get(c.eco, "echo \"ref: $GITHUB_REF\"")
        script = [pre, c.cmd]
        if step.startswith("Run "):
            step = f"Run {pre}"
    add(f"##[group]Run {script[0]}")
    for s in script:
        add(s)
    shell = rng.choice(["/usr/bin/bash -e {0}", "/usr/bin/bash -e {0}", "/usr/bin/bash --noprofile --norc -e -o pipefail {0}", "sh -e {0}"])
    add(f"shell: {shell}")
    if maybe(rng, 0.6):
        add("env:")
        pyv = rng.choice(["3.12.8", "3.12.7", "3.11.11", "3.13.1"])
        envs = {"python": [f"pythonLocation: /opt/hostedtoolcache/Python/{pyv}/x64",
                           f"PKG_CONFIG_PATH: /opt/hostedtoolcache/Python/{pyv}/x64/lib/pkgconfig",
                           f"LD_LIBRARY_PATH: /opt/hostedtoolcache/Python/{pyv}/x64/lib"],
                "node": ["NODE_ENV: test", "CI: true"],
                "rust": ["CARGO_TERM_COLOR: always", "RUSTFLAGS: -Dwarnings"],
                "go": ["GOTOOLCHAIN: local", "GOFLAGS: -mod=readonly"],
                "java": ["JAVA_HOME: /opt/hostedtoolcache/Java_Temurin-Hotspot_jdk/17.0.13-11/x64",
                         "JAVA_HOME_17_X64: /opt/hostedtoolcache/Java_Temurin-Hotspot_jdk/17.0.13-11/x64"],
                "k8s": ["KUBECONFIG: /home/runner/work/_temp/kubeconfig_1741083072345"],
                "docker": ["DOCKER_BUILDKIT: 1", "REGISTRY: ghcr.io"]}.get(c.eco, ["CI: true", f"APP_ENV: {rng.choice(['ci', 'staging'])}"])
        for e in rng.sample(envs, rng.randrange(1, len(envs) + 1)):
            add("  " + e)
    add("##[endgroup]")
    if len(script) > 1 and script[0].startswith("pip install"):
        add("Collecting requests (from -r requirements.txt (line 1))")
        add("Successfully installed certifi-2024.8.30 charset-normalizer-3.4.0 idna-3.10 requests-2.32.3 urllib3-2.2.3")
    for l in c.lines:
        add(l)
    diags = parse_diags(c.err)
    if diags and maybe(rng, 0.5):
        for d in diags[:2]:
            add(f"##[error]{d['file']}:{d['line']}" + (f":{d['col']}" if d['col'] else "") + f": {d['msg']}")
    add(f"##[error]Process completed with exit code {c.exit}.")
    if layout == 2 and maybe(rng, 0.7):
        # a second failed job (matrix sibling) with the same failure
        job2 = job.split(" (")[0] + f" ({rng.choice(['macos-latest', '3.13', '22.x', 'windows-latest'])})"
        t = t + timedelta(seconds=rng.randrange(1, 30))
        for l in [f"##[group]Run {c.cmd}", c.cmd, f"shell: {shell}", "##[endgroup]"] + c.lines + [f"##[error]Process completed with exit code {c.exit}."]:
            t = t + timedelta(microseconds=rng.randrange(0, 300000))
            out.append(f"{job2}\t{step}\t{gh_ts(t, rng)} {l}")
    return "\n".join(out)


# --------------------------------------------------------------- kubectl ----


def pod_name(base, rng, kind):
    if kind == "job":
        return f"{base}-{alnum(rng, 5, 'bcdfghjklmnpqrstvwxz2456789')}"
    if kind == "cron":
        return f"{base}-{rng.randrange(28900000, 29100000)}-{alnum(rng, 5, 'bcdfghjklmnpqrstvwxz2456789')}"
    return f"{base}-{hexid(rng, 9)}-{alnum(rng, 5, 'bcdfghjklmnpqrstvwxz2456789')}"


def r_kubectl(c, rng):
    base = rng.choice({
        "python": ["import-job", "etl", "report", "fetch", "worker", "migrate"],
        "node": ["build-assets", "seed", "sync", "node-job", "web"],
        "db": ["db-migrate", "migrate", "db-seed", "backup", "restore"],
        "k8s": ["deployer", "ci-deploy", "kube-ops", "rollout"],
        "ssh": ["deploy", "rsync-release", "bastion-job"],
        "git": ["git-sync", "mirror", "clone-repo"],
        "docker": ["image-builder", "kaniko-build", "dind-build"],
        "tls": ["cert-check", "healthcheck", "smoke"],
    }.get(c.eco, ["job", "build", "runner", "task", c.proj]))
    kind = rng.choice(["job", "job", "cron", "deploy"])
    ns = rng.choice(["default", c.proj, "jobs", "ci", "staging", "batch"])
    main_c = rng.choice(["main", base, "job", "app", "runner"])
    layout = rng.randrange(5)
    t = c.dt

    def ts():
        nonlocal t
        t = t + timedelta(microseconds=rng.randrange(0, 250000))
        return rfc3339nano(t, rng)
    pre = []
    if maybe(rng, 0.6):
        pre = [f"+ {c.cmd}"] if maybe(rng, 0.6) else [f"Running: {c.cmd}", f"==> {c.cmd}"][rng.randrange(2):][:1]
    if maybe(rng, 0.3):
        pre = [f"+ cd {rng.choice(['/app', '/workspace', '/srv/' + c.proj, '/src'])}"] + pre
    body = pre + c.lines
    pod = pod_name(base, rng, kind)
    out = []
    if layout == 0:
        hdr = rng.choice([f"$ kubectl logs job/{base} -n {ns} --prefix --timestamps",
                          f"$ kubectl logs {pod} -n {ns} --prefix --timestamps", ""])
        if hdr:
            out.append(hdr)
        if maybe(rng, 0.3):
            out.append(f'Defaulted container "{main_c}" out of: {main_c}, {rng.choice(["istio-proxy", "cloud-sql-proxy", "vault-agent"])}, {rng.choice(["wait-for-db", "init-config"])} (init)')
        for l in body:
            out.append(f"[pod/{pod}/{main_c}] {ts()} {l}")
        return "\n".join(out)
    if layout == 1:
        # --all-containers: init container(s) first, the failing one last
        init = rng.choice(["wait-for-db", "fetch-config", "init-perms"])
        out.append(f"$ kubectl logs {pod} -n {ns} --all-containers --prefix --timestamps")
        init_lines = {"wait-for-db": ["waiting for postgres:5432...", "postgres:5432 is available"],
                      "fetch-config": ["downloading config from s3://" + c.org + "-config/" + ns + "/app.env", "ok"],
                      "init-perms": ["+ chown -R 1000:1000 /data", "done"]}[init]
        for l in init_lines:
            out.append(f"[pod/{pod}/{init}] {ts()} {l}")
        failing = main_c if maybe(rng, 0.5) else rng.choice(["migrate", "setup", "bootstrap"])
        for l in body:
            out.append(f"[pod/{pod}/{failing}] {ts()} {l}")
        return "\n".join(out)
    if layout == 2:
        # stern with a sidecar interleaved
        side = rng.choice(["istio-proxy", "cloud-sql-proxy", "linkerd-proxy"])
        out.append(f"$ stern {base} -n {ns} --timestamps" if maybe(rng, 0.6) else f"$ stern {base} --timestamps --since 10m")
        out.append(f"+ {pod} › {side}")
        out.append(f"+ {pod} › {main_c}")
        side_msgs = {"istio-proxy": ["info\tEnvoy proxy is ready", "info\txdsproxy\tconnected to upstream XDS server: istiod.istio-system.svc:15012"],
                     "cloud-sql-proxy": ["Authorizing with Application Default Credentials", f"[{c.org}:europe-west1:{c.proj}-db] Listening on 127.0.0.1:5432", "The proxy has started successfully and is ready for new connections!"],
                     "linkerd-proxy": ["INFO linkerd2_proxy: release 2.257.0 (b2b0d1e) by linkerd on 2024-07-30T19:35:06Z", "INFO linkerd2_proxy: Admin interface on 0.0.0.0:4191"]}[side]
        side_iter = iter(side_msgs)
        for i, l in enumerate(body):
            if i in (0, 2) or (i == len(body) // 2):
                sm = next(side_iter, None)
                if sm:
                    out.append(f"{pod} {side} {ts()} {sm}")
            out.append(f"{pod} {main_c} {ts()} {l}")
        out.append(f"- {pod} › {main_c}")
        return "\n".join(out)
    if layout == 3:
        # job retried: two pods with the same failure
        out.append(f"$ kubectl logs -l job-name={base} -n {ns} --prefix --timestamps --tail=-1")
        pod = pod_name(base, rng, "job")
        pod2 = pod_name(base, rng, "job")
        for p in (pod, pod2):
            for l in body:
                out.append(f"[pod/{p}/{main_c}] {ts()} {l}")
            t = t + timedelta(seconds=rng.randrange(10, 40))
        return "\n".join(out)
    # layout 4: follow mode, interleaved with a second container of the same pod
    other = rng.choice(["log-shipper", "metrics", "fluent-bit"])
    other_msgs = ["[ info] [input:tail:tail.0] inotify_fs_add(): inode=2013 watch_fd=1 name=/var/log/app/app.log",
                  "[ info] [output:forward:forward.0] worker #0 started", "flush: 0 records"]
    out.append(f"$ kubectl logs -f {pod} -n {ns} --all-containers --prefix --timestamps")
    oi = iter(other_msgs)
    for i, l in enumerate(body):
        if i % 4 == 1:
            m = next(oi, None)
            if m:
                out.append(f"[pod/{pod}/{other}] {ts()} {m}")
        out.append(f"[pod/{pod}/{main_c}] {ts()} {l}")
    return "\n".join(out)


# ------------------------------------------------------------------ Warp ----


def r_warp(c, rng):
    layout = rng.randrange(5)
    dur = duration_for(c, rng)
    dur_s = f"{dur:.2f}s" if dur < 10 else f"{dur:.1f}s"
    ctx = rng.choice([f"{c.tcwd} git:({c.branch})", f"{c.tcwd} ({c.branch})", f"{c.user}@{c.host} {c.tcwd} {c.branch}",
                      f"{c.tcwd}  {c.branch}"])
    badge = rng.choice([f"Exit code {c.natural_exit}", f"✕ {c.natural_exit}", f"exit {c.natural_exit}",
                        f"Exited with code {c.natural_exit}"])
    if layout == 0:
        # Copy command + copy output (Markdown)
        out = [f"`{ctx}`" if maybe(rng, 0.5) else ctx, fence(c.cmd, rng.choice(["", "sh", "bash", "shell"])),
               fence(c.err)]
        if maybe(rng, 0.6):
            out.append(f"_{badge} · {dur_s}_" if maybe(rng, 0.5) else f"{badge} ({dur_s})")
        return "\n".join(out) if maybe(rng, 0.4) else "\n\n".join(out)
    if layout == 1:
        # shared block page text
        bid = alnum(rng, 22, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        out = ["Warp", "", f"Shared by {c.fullname}" if maybe(rng, 0.6) else "Shared block",
               f"{c.dt.strftime('%b')} {c.dt.day}, {c.dt.year}", "", ctx, c.cmd, "", c.err, ""]
        if c.natural_exit:
            out.append(badge)
        out += ["", "Open in Warp", "Sign up for Warp", f"https://app.warp.dev/block/{bid}"]
        return "\n".join(out)
    if layout == 2:
        # plain text copy of the block (prompt + command, then output)
        prompt = rng.choice([f"{c.tcwd} git:({c.branch})\n", f"{c.user}@{c.host} {c.tcwd}\n", ""])
        out = prompt + ("$ " if maybe(rng, 0.5) else "") + c.cmd + "\n" + c.err
        if maybe(rng, 0.4):
            out += f"\n\n{badge}  {dur_s}"
        return out
    if layout == 3:
        # block attached to Warp AI / Agent Mode
        q = rng.choice(["Fix this error", "why did this fail?", "what's wrong here", "Explain this output",
                        "how do I fix this", "help"])
        out = [rng.choice(["Agent Mode", "Warp AI", "Ask Warp AI"]), "",
               f"Attached block: {c.cmd}" + (f" ({badge.lower()})" if c.natural_exit else ""),
               fence(f"{ctx}\n$ {c.cmd}\n{c.err}"), "", q]
        return "\n".join(out)
    # layout 4: Warp "Copy output" with a short note from the person in a ticket
    note = rng.choice([f"Block from Warp ({c.tcwd}, {c.branch}):", "shared from warp:", f"{c.cmd} in {c.tcwd}, output:",
                       "copied from my terminal (Warp):"])
    return f"{note}\n\n{fence('❯ ' + c.cmd + chr(10) + c.err)}\n{badge} · {dur_s}"


# --------------------------------------------------------------- ChatGPT ----


def chat_title(c, rng):
    k = short_key(c.err, 60)
    words = re.findall(r"[A-Za-z][A-Za-z0-9_.+-]*", k)
    eco_names = {"python": "Python", "node": "Node", "rust": "Rust", "go": "Go", "java": "Java",
                 "c": "C build", "docker": "Docker", "k8s": "Kubernetes", "db": "Database",
                 "ssh": "SSH", "git": "Git", "systemd": "Systemd", "ruby": "Ruby", "tls": "TLS",
                 "json": "JSON", "apt": "APT", "shell": "Shell"}
    en = eco_names.get(c.eco, "Command")
    opts = [f"{en} error help", f"Fix {' '.join(words[:4])}" if words else f"{en} error",
            f"{en} {rng.choice(['Error Fix', 'Troubleshooting', 'Issue', 'Command Failed'])}",
            f"Troubleshooting {c.first_word()}", "New chat"]
    return rng.choice(opts)


def r_chatgpt(c, rng):
    layout = rng.randrange(4)
    user_text = person_message(c, rng)
    ts0 = c.dt.timestamp() + rng.uniform(20, 300)
    answer = assistant_followup(c, rng) if maybe(rng, 0.5) else None
    title = chat_title(c, rng)
    if layout in (0, 1):
        root = uuid4(rng)
        sys_id = uuid4(rng)
        uid = uuid4(rng)
        aid = uuid4(rng) if answer else None
        mapping = {}
        mapping[root] = {"id": root, "message": None, "parent": None, "children": [sys_id]}
        mapping[sys_id] = {"id": sys_id, "message": {
            "id": sys_id, "author": {"role": "system", "name": None, "metadata": {}}, "create_time": None,
            "update_time": None, "content": {"content_type": "text", "parts": [""]}, "status": "finished_successfully",
            "end_turn": True, "weight": 0.0, "metadata": {"is_visually_hidden_from_conversation": True},
            "recipient": "all", "channel": None}, "parent": root, "children": [uid]}
        mapping[uid] = {"id": uid, "message": {
            "id": uid, "author": {"role": "user", "name": None, "metadata": {}}, "create_time": round(ts0, 6),
            "update_time": None, "content": {"content_type": "text", "parts": [user_text]},
            "status": "finished_successfully", "end_turn": None, "weight": 1.0,
            "metadata": {"request_id": hexid(rng, 16) + "-" + rng.choice(["AMS", "FRA", "IAD", "SJC", "LHR"]), "message_source": None, "timestamp_": "absolute"},
            "recipient": "all", "channel": None}, "parent": sys_id, "children": [aid] if aid else []}
        if aid:
            mapping[aid] = {"id": aid, "message": {
                "id": aid, "author": {"role": "assistant", "name": None, "metadata": {}},
                "create_time": round(ts0 + rng.uniform(3, 20), 6), "update_time": None,
                "content": {"content_type": "text", "parts": [answer]}, "status": "finished_successfully",
                "end_turn": True, "weight": 1.0, "metadata": {"model_slug": rng.choice(["gpt-4o", "gpt-4o-mini", "o4-mini", "gpt-4-1"]),
                                                              "default_model_slug": "auto", "parent_id": uid},
                "recipient": "all", "channel": None}, "parent": uid, "children": []}
        conv = {"title": title, "create_time": round(ts0 - 0.5, 6), "update_time": round(ts0 + 25, 6),
                "mapping": mapping, "moderation_results": [], "current_node": aid or uid,
                "plugin_ids": None, "conversation_id": uuid4(rng), "conversation_template_id": None,
                "gizmo_id": None, "is_archived": False, "safe_urls": [], "default_model_slug": "auto",
                "id": None}
        conv["id"] = conv["conversation_id"]
        if layout == 0:
            return json.dumps([conv], indent=2, ensure_ascii=False)
        return json.dumps([conv], separators=(", ", ": "), ensure_ascii=True)
    if layout == 2:
        # Claude export
        created = datetime.fromtimestamp(ts0, tz=UTC)
        msgs = [{"uuid": uuid4(rng), "text": user_text,
                 "content": [{"start_timestamp": created.isoformat(timespec="microseconds").replace("+00:00", "Z"),
                              "stop_timestamp": created.isoformat(timespec="microseconds").replace("+00:00", "Z"),
                              "type": "text", "text": user_text, "citations": []}],
                 "sender": "human", "created_at": created.isoformat(timespec="microseconds").replace("+00:00", "Z"),
                 "updated_at": created.isoformat(timespec="microseconds").replace("+00:00", "Z"), "attachments": [], "files": []}]
        if answer:
            a_t = created + timedelta(seconds=rng.uniform(3, 15))
            msgs.append({"uuid": uuid4(rng), "text": answer,
                         "content": [{"type": "text", "text": answer, "citations": []}],
                         "sender": "assistant", "created_at": a_t.isoformat(timespec="microseconds").replace("+00:00", "Z"),
                         "updated_at": a_t.isoformat(timespec="microseconds").replace("+00:00", "Z"), "attachments": [], "files": []})
        conv = {"uuid": uuid4(rng), "name": title, "created_at": msgs[0]["created_at"],
                "updated_at": msgs[-1]["updated_at"], "account": {"uuid": uuid4(rng)}, "chat_messages": msgs}
        return json.dumps([conv], indent=rng.choice([2, 4]), ensure_ascii=False)
    # Open WebUI export
    mid_u = uuid4(rng)
    mid_a = uuid4(rng)
    model = rng.choice(["llama3.1:8b", "qwen2.5-coder:14b", "mistral-nemo:latest", "deepseek-coder-v2:16b", "gemma2:9b"])
    msgs = {mid_u: {"id": mid_u, "parentId": None, "childrenIds": [mid_a] if answer else [], "role": "user",
                    "content": user_text, "timestamp": int(ts0), "models": [model]}}
    if answer:
        msgs[mid_a] = {"id": mid_a, "parentId": mid_u, "childrenIds": [], "role": "assistant", "content": answer,
                       "model": model, "modelName": model, "timestamp": int(ts0) + rng.randrange(2, 30), "done": True}
    chat = {"id": uuid4(rng), "user_id": uuid4(rng), "title": title,
            "chat": {"id": "", "title": title, "models": [model], "params": {},
                     "history": {"messages": msgs, "currentId": mid_a if answer else mid_u},
                     "messages": list(msgs.values()), "tags": [], "timestamp": int(ts0 * 1000)},
            "updated_at": int(ts0) + 40, "created_at": int(ts0), "share_id": None, "archived": False,
            "pinned": False, "meta": {}, "folder_id": None}
    return json.dumps([chat], indent=rng.choice([None, 2]), ensure_ascii=False)


# ----------------------------------------------------------- Google Chat ----


def gchat_date(dt, rng, us):
    day = DAYS[dt.weekday()]
    if us:
        h12 = dt.hour % 12 or 12
        ampm = "AM" if dt.hour < 12 else "PM"
        sp = rng.choice([" ", "\u202f"])
        return f"{day}, {MONTHS_LONG[dt.month - 1]} {dt.day}, {dt.year} at {h12}:{dt.minute:02d}:{dt.second:02d}{sp}{ampm} UTC"
    return f"{day}, {dt.day} {MONTHS_LONG[dt.month - 1]} {dt.year} at {dt.hour:02d}:{dt.minute:02d}:{dt.second:02d} UTC"


def r_gchat(c, rng):
    layout = rng.randrange(5)
    me = c.fullname
    mate = rng.choice(COLLEAGUES)
    dom = rng.choice(["acme.dev", c.org + ".io", "example.com", "gmail.com"])
    me_email = f"{c.user}@{dom}"
    mate_email = mate.split()[0].lower() + "@" + dom
    t = c.dt + timedelta(seconds=rng.randrange(10, 200))
    msgs = []
    topic = alnum(rng, 11, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
    group = alnum(rng, 11, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    texts = []
    if maybe(rng, 0.3):
        texts.append((mate, rng.choice(["how's the deploy going?", "did you get it running?", "any luck with the setup?", "standup in 10"])))
    if layout == 1 or maybe(rng, 0.3):
        # split: one line first, then the paste
        texts.append((me, rng.choice([f"ugh, `{c.cmd}` is broken for me", f"{c.cmd} fails, one sec", f"anyone seen this? running {c.cmd}",
                                      f"stuck on {c.cmd}"])))
        texts.append((me, err_block(c, rng)))
    else:
        texts.append((me, person_message(c, rng)))
    if maybe(rng, 0.4):
        texts.append((mate, rng.choice(["looking", "hmm, one sec", "which branch?", "did it work yesterday?", "👀"])))
    if layout in (0, 1, 2):
        us = maybe(rng, 0.55)
        for who, text in texts:
            em = me_email if who == me else mate_email
            m = {"creator": {"name": who, "email": em, "user_type": "Human"},
                 "created_date": gchat_date(t, rng, us), "text": text, "topic_id": topic,
                 "message_id": f"{group}/{topic}/{alnum(rng, 11, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}"}
            urls = re.findall(r"https?://[^\s'\"`)>]+", text)
            if urls and maybe(rng, 0.7):
                u = urls[0]
                m["annotations"] = [{"start_index": text.index(u), "length": len(u),
                                     "url_metadata": {"title": "", "snippet": "", "image_url": "",
                                                      "url": {"private_do_not_access_or_else_safe_url_wrapped_value": u}}}]
            msgs.append(m)
            t += timedelta(seconds=rng.randrange(5, 180))
        s = json.dumps({"messages": msgs}, indent=2, ensure_ascii=False)
        if layout != 2 or maybe(rng, 0.5):
            s = gson_escape(s)
        return s
    if layout == 3:
        # Rocket.Chat mongoexport of rocketchat_message
        rid = alnum(rng, 17, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        out = []
        for who, text in texts:
            uname = c.user if who == me else mate.split()[0].lower()
            ts = iso_z(t, 3)
            out.append(json.dumps({"_id": alnum(rng, 17, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"),
                                   "rid": rid, "msg": text, "ts": {"$date": ts},
                                   "u": {"_id": alnum(rng, 17, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"),
                                         "username": uname, "name": who},
                                   "_updatedAt": {"$date": ts}, "urls": [], "mentions": [], "channels": [],
                                   "md": [{"type": "PARAGRAPH", "value": [{"type": "PLAIN_TEXT", "value": text.split("\n")[0]}]}]},
                                  ensure_ascii=False))
            t += timedelta(seconds=rng.randrange(5, 180))
        return "\n".join(out)
    # layout 4: Rocket.Chat user data download (JSON lines, username/msg/ts)
    out = []
    for who, text in texts:
        uname = c.user if who == me else mate.split()[0].lower()
        out.append(json.dumps({"username": uname, "msg": text, "ts": iso_z(t, 3)}, ensure_ascii=False))
        t += timedelta(seconds=rng.randrange(5, 180))
    return "\n".join(out)


RENDERERS = {
    "sarif_result": r_sarif,
    "activitywatch_export": r_activitywatch,
    "screenpipe_frames": r_screenpipe,
    "msbuild_exec": r_msbuild,
    "sublime_build_panel": r_sublime,
    "ci_failure_email": r_ci_email,
    "renovate_artifact_comment": r_renovate,
    "pre_commit_hook": r_pre_commit,
    "nvim_messages": r_nvim,
    "rstudio_console": r_rstudio,
    "devcontainer_log": r_devcontainer,
    "gh_run_log_failed": r_gh,
    "kubectl_logs_prefix": r_kubectl,
    "warp_block_share": r_warp,
    "chatgpt_export_json": r_chatgpt,
    "google_chat_export": r_gchat,
}


# ==========================================================================
# main
# ==========================================================================


def load_cases():
    files = sorted((HERE / "help_cases").glob("*.toml")) + sorted((HERE / "help_heldout").glob("set*.toml"))
    for f in files:
        with open(f, "rb") as fh:
            data = tomllib.load(fh)
        for i, case in enumerate(data.get("case", [])):
            yield f.name, i, case.get("command"), case.get("error", "")


def main():
    assert len(STYLES) == 16 and set(STYLES) == set(RENDERERS)
    deck_rng = random.Random("help_phrasings_fifteenth/deck/v1")
    deck = []

    def draw():
        if not deck:
            d = list(STYLES)
            deck_rng.shuffle(d)
            deck.extend(d)
        return deck.pop(0)

    rows = []
    for fname, idx, command, error in load_cases():
        s1 = draw()
        s2 = draw()
        if s2 == s1:  # cannot happen with 16-card decks dealt in pairs; kept for safety
            deck.append(s2)
            s2 = draw()
        for slot, style in enumerate((s1, s2)):
            rng = random.Random(f"{fname}|{idx}|{slot}|{style}")
            case = Case(fname, idx, command, error, rng)
            text = RENDERERS[style](case, rng)
            rows.append({"file": fname, "case": idx, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
