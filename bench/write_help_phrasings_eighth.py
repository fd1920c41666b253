"""Write bench/help_phrasings_eighth.jsonl: two re-phrasings of every help case.

For every ``[[case]]`` table in ``bench/help_cases/*.toml`` and
``bench/help_heldout/set*.toml`` this script writes two JSON rows, each in a
different style, one object per line::

    {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}

``file`` is the TOML file's base name, ``case`` the 0-based index of the
``[[case]]`` table inside it, ``style`` one of the 16 styles below and
``text`` one observation of somebody hitting that case's error (usually after
running its command), written, quoted or recorded the way that kind of
writer, tool or recording would show it.  Styles are dealt from a seeded
sequence of shuffled decks, so every case gets two different styles and the
style counts differ by at most one.  Everything is seeded, so reruns give
byte-identical output.

The 16 styles:

    make_recursive    GNU make build log with nested ``make[1]:`` lines
    gitlab_mr_thread  GitLab merge-request discussion copied from the web UI
    jenkins_console   Jenkins console output with timestamps and ANSI escapes
    k8s_events        ``kubectl get events`` / ``describe pod`` / ``logs``
    git_hook          pre-commit, husky, lefthook or remote pre-receive output
    crash_reporter    apport ``.crash``/``apport-cli`` and ABRT problem summaries
    fluent_record     Fluent Bit / Fluentd stdout records of the output lines
    systemd_run       ``systemd-run`` transient unit output and its journal
    tox_nox           tox 3 / tox 4 / nox session logs
    provisioner_log   Vagrant and Packer provisioning output
    hn_comment        Hacker News comment or Ask HN post as copied from a page
    bugzilla_report   Bugzilla bug page (Description of problem / Actual results)
    nix_build         Nix builder failures with ``> `` prefixed last log lines
    compose_logs      ``docker compose up``/``logs`` with service prefixes
    flashcard_deck    Anki / Quizlet / Mochi flashcard exports made by a learner
    video_chapters    video description chapters, VOD comments, stream markers

Blind writing: the writer of this script read only the ``error`` and
``command`` keys of each ``[[case]]`` in the TOML files named above (never
``expect`` or any other key) and, for tone, a few ProactiveBench sessions
under /work/shared/data/proactivebench/sessions/.  No other code, docs, tests
or earlier phrasing files of the project were read, and the project's code
was not run.

Run from the repository root::

    python3 bench/write_help_phrasings_eighth.py
"""

from __future__ import annotations

import glob
import json
import os
import random
import re
import tomllib
import unicodedata
import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "help_phrasings_eighth.jsonl")
SEED = 80808

STYLES = [
    "make_recursive",
    "gitlab_mr_thread",
    "jenkins_console",
    "k8s_events",
    "git_hook",
    "crash_reporter",
    "fluent_record",
    "systemd_run",
    "tox_nox",
    "provisioner_log",
    "hn_comment",
    "bugzilla_report",
    "nix_build",
    "compose_logs",
    "flashcard_deck",
    "video_chapters",
]

# --------------------------------------------------------------------------
# pools

NAMES = [
    "Priya Raman", "Tomasz Wójcik", "Amara Okafor", "Lukas Brenner",
    "Mei Lin", "Diego Fernández", "Sofia Rossi", "Jonas Lindqvist",
    "Aisha Khan", "Kenji Watanabe", "Fatima Zahra", "Oliver Grant",
    "Chloé Martin", "Rahul Verma", "Nadia Petrova", "Samuel Mensah",
    "Hannah Becker", "Arjun Nair", "Elena García", "Yusuf Demir",
    "Grace Liu", "Mateo Silva", "Ingrid Hansen", "Kwame Asante",
    "Noor Haddad", "Bea Santos", "Pavel Novák", "Leilani Kahale",
]
HN_USERS = [
    "throwaway_8812", "quietbyte", "ferrous_ox", "pg_dumpster",
    "oldunixhand", "nullpointr", "cr0ssbar", "hnreader42", "lowlatency",
    "sigchld", "tabs_not_spaces", "kernelpanicky", "ymmv_dev", "fsckit",
    "bikeshedder", "mutable_mel", "yakshaver9", "grepper",
]
PROJECTS = [
    "webshop", "invoice-tool", "ledger", "report-gen", "shop-api",
    "inventory", "notes", "site", "billing", "photo-sync", "stats",
    "tracker", "pipeline", "helpdesk", "scheduler", "dashboard",
]
SERVICES = ["api", "web", "worker", "app", "backend", "jobs", "cron", "tools"]
CLUSTER_NS = ["default", "jobs", "staging", "dev", "batch", "ci"]
NIX_ALPHA = "0123456789abcdfghijklmnpqrsvwxyz"
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
HEX = "0123456789abcdef"
K8S_ALPHA = "bcdfghjklmnpqrstvwxz2456789"

# --------------------------------------------------------------------------
# reading the cases (only `error` and `command` are used)

EXC = re.compile(
    r"^(?:[A-Za-z_][\w.$]*\.)?[A-Z]\w*"
    r"(?:Error|Exception|Exit|Interrupt|Failure|Fault|Denied|NotFound\w*)(?::|$)"
)
PREFIX = re.compile(
    r"^(?:fatal|error|panic|fatal error|npm ERR!|npm error|ERR!|error\[E\d+\]"
    r"|Caused by|FAILED|CRITICAL|Exception|E)\b[:\s!\[]"
    r"|^[\w./-]+: \(\d+\)"
    r"|: (?:fatal )?error\b",
    re.I,
)
FILE_POS = re.compile(r"^[\w./-]+:\d+(?::\d+)?:")
KEYWORDS = re.compile(
    r"error|failed|failure|denied|not found|no such|cannot|can't|could not"
    r"|couldn't|refused|unable|invalid|allowed|unknown|missing|undefined"
    r"|permission|timed out|expired|mismatch|conflict|segmentation|aborted"
    r"|killed|violat|exceed|no space|not permitted|unsupported|not a |problem"
    r"|crashloop|backoff|oomkilled|masked|bad |incompatible|declined",
    re.I,
)
NOISE = re.compile(
    r"complete log of this run|--help|for more information|^\s*at |^\s*File \""
    r"|^hint:|trace-warnings|compilation terminated|^\s*\d+ \||^\s*\||^\s*\^"
    r"|See .*for|full trace|re-run|rerun|^\s*note:|^\s*help:|^npm error\s*\d*\s*$"
    r"|^\s*-->|^\s*Usage:|^Traceback| gyp info |^# |-Werror",
    re.I,
)


def key_line(lines: list[str]) -> str:
    """The line a person would most likely quote from the output."""
    text = "\n".join(lines)
    traceback = "Traceback (most recent call last)" in text
    best, best_score = None, -99
    for line in lines:
        s = line.strip()
        if not s:
            continue
        score = 0
        if EXC.match(s):
            score += 6
        if PREFIX.search(s):
            score += 4
        if FILE_POS.match(s):
            score += 2
        if KEYWORDS.search(s):
            score += 3
        if NOISE.search(line):
            score -= 6
        if score > best_score or (score == best_score and traceback):
            best, best_score = s, score
    return best or lines[-1].strip()


@dataclass
class Case:
    file: str
    index: int
    command: str | None
    lines: list[str]
    key: str
    user: str
    cwd: str
    traceback: bool

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def tool(self) -> str:
        if not self.command:
            return "python3"
        words = [w for w in self.command.split() if "=" not in w]
        while words and words[0] in ("sudo", "env", "time", "nohup", "cd"):
            words = words[1:] if words[0] != "cd" else words[3:]
        return os.path.basename(words[0]) if words else "sh"

    @property
    def exit_code(self) -> int:
        t = self.text
        if re.search(r"command not found|: not found$|No such file or directory$", self.key):
            if re.match(r"^(?:ba|z)?sh:|^[\w./-]+\.sh:", self.key):
                return 127
        if re.match(r"^(?:ba|z)?sh: .*Permission denied", self.key):
            return 126
        if "panicked at" in t or "called `Result::unwrap()`" in t:
            return 101
        if t.startswith("panic:") or "\npanic:" in t or "*** " in self.key:
            return 2
        return 1

    @property
    def project(self) -> str:
        name = os.path.basename(self.cwd.rstrip("/"))
        if not name or name == self.user or name.lower() in GENERIC_DIRS:
            name = PROJECTS[zlib.crc32(f"{self.file}:{self.index}".encode()) % len(PROJECTS)]
        return name


GENERIC_DIRS = {"downloads", "desktop", "projects", "code", "src", "work", "documents", "tmp", "repos", "git"}
STOP_DIRS = {
    "vendor", "node_modules", "target", "src", "lib", "build", "dist", "cmd",
    "internal", "bin", "venv", "public", "gems", "com",
}


def guess_cwd(text: str, rng: random.Random) -> tuple[str, str]:
    """A plausible user and working directory consistent with the output."""
    for m in re.finditer(r"/home/([A-Za-z0-9_-]+)((?:/[\w@+.-]+)*)", text):
        user, rest = m.group(1), m.group(2)
        parts = [p for p in rest.split("/") if p]
        keep: list[str] = []
        for p in parts:
            if p.startswith(".") or p in STOP_DIRS:
                break
            keep.append(p)
        if keep and "." in keep[-1] and keep[-1] == parts[-1]:
            keep = keep[:-1]
        keep = keep[:2]
        return user, "/".join(["/home", user] + keep)
    user = rng.choice(["dev", "dev", "ana", "sam", "mei", "kofi", "lena"])
    return user, f"/home/{user}/{rng.choice(PROJECTS)}"


def infer_command(lines: list[str], cwd: str) -> str | None:
    for line in lines:
        m = re.search(r'File "(/[^"]+\.py)"', line)
        if m:
            path = m.group(1)
            rel = os.path.relpath(path, cwd) if path.startswith(cwd + "/") else path
            return f"python3 {rel}"
    return None


def load_cases() -> list[Case]:
    files = sorted(glob.glob(os.path.join(ROOT, "bench", "help_cases", "*.toml")))
    files += sorted(glob.glob(os.path.join(ROOT, "bench", "help_heldout", "set*.toml")))
    cases = []
    for path in files:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        name = os.path.basename(path)
        for i, table in enumerate(data.get("case", [])):
            error = table.get("error", "").replace("\t", "    ")
            lines = [ln.rstrip() for ln in error.strip("\n").splitlines()]
            while lines and not lines[-1].strip():
                lines.pop()
            while lines and not lines[0].strip():
                lines.pop(0)
            seed_rng = random.Random(zlib.crc32(f"{name}:{i}:cwd".encode()))
            user, cwd = guess_cwd(error, seed_rng)
            command = table.get("command")
            if command is not None:
                command = command.strip()
            inferred = command or infer_command(lines, cwd)
            cases.append(
                Case(
                    file=name,
                    index=i,
                    command=inferred,
                    lines=lines,
                    key=key_line(lines),
                    user=user,
                    cwd=cwd,
                    traceback="Traceback (most recent call last)" in error,
                )
            )
    return cases


# --------------------------------------------------------------------------
# small helpers


def clip(lines: list[str], maxn: int, gap: str = "...", head: int | None = None) -> list[str]:
    """Keep at most ``maxn`` lines: a head, a gap marker and a tail."""
    if len(lines) <= maxn:
        return list(lines)
    if head is None:
        head = max(1, maxn // 3)
    tail = max(1, maxn - head - 1)
    return lines[:head] + [gap] + lines[-tail:]


def keep_key(lines: list[str], maxn: int, key: str, gap: str = "...", head: int | None = None) -> list[str]:
    """Like ``clip`` but never drops the key line."""
    out = clip(lines, maxn, gap=gap, head=head)
    if any(ln.strip() == key for ln in out):
        return out
    k = next((i for i, ln in enumerate(lines) if ln.strip() == key), None)
    if k is None:
        return out
    h = 1 if head is None else max(1, min(head, 2))
    size = max(2, maxn - h - 2)
    start = max(h, k - min(2, size // 3))
    end = min(len(lines), start + size)
    res = lines[:h]
    if start > h:
        res.append(gap)
    res += lines[start:end]
    if end < len(lines):
        res.append(gap)
        if end < len(lines) - 1:
            res.append(lines[-1])
    return res


def cut(c: Case, rng: random.Random, maxn: int | None = None, gap: str = "...") -> list[str]:
    if maxn is None:
        maxn = rng.choice([6, 10, 14, 24, 60])
    return keep_key(c.lines, maxn, c.key, gap=gap, head=1 if c.traceback else None)


def when(rng: random.Random) -> datetime:
    base = datetime(2024, 1, 8, 6, 0, 0)
    return base + timedelta(
        days=rng.randrange(0, 640),
        hours=rng.randrange(0, 15),
        minutes=rng.randrange(0, 60),
        seconds=rng.randrange(0, 60),
        microseconds=rng.randrange(0, 1000000),
    )


def ascii_slug(text: str) -> str:
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", norm.lower())


def handle(name: str) -> str:
    first, last = name.split(" ", 1)
    return ascii_slug(first[0] + last)


def rand_str(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def cmd_or(c: Case, fallback: str = "the script") -> str:
    return c.command or fallback


def short(s: str, n: int = 90) -> str:
    return s if len(s) <= n else s[: n - 1].rstrip() + "…"


def indent(lines: list[str], pre: str) -> list[str]:
    return [(pre + ln) if ln else pre.rstrip() for ln in lines]


# --------------------------------------------------------------------------
# styles


def s_make_recursive(c: Case, r: random.Random) -> str:
    target = r.choice(["all", "build", "test", "check", "run", "deps", "lint", "ci", "dev", "setup"])
    sub = r.choice(["src", "app", "server", "tools", "backend", "pkg/core", "services/api"])
    n1, n2 = r.choice([4, 7, 9, 12, 18, 23]), r.choice([31, 42, 57, 63, 88])
    code = c.exit_code
    body = cut(c, r)
    recipe = [c.command] if c.command else []
    t = r.randrange(5)
    if t == 0:
        out = [
            f"$ make {target}",
            f"make -C {sub} {target}",
            f"make[1]: Entering directory '{c.cwd}/{sub}'",
            *recipe,
            *body,
            f"make[1]: *** [Makefile:{n1}: {target}] Error {code}",
            f"make[1]: Leaving directory '{c.cwd}/{sub}'",
            f"make: *** [Makefile:{n2}: {target}] Error 2",
        ]
    elif t == 1:
        inner = r.choice(["unit", "compile", "gen", "prepare", "assets"])
        out = [
            f"make -j{r.choice([4, 8, 12, 16])} {target}",
            f"make[1]: Entering directory '{c.cwd}'",
            f"make[2]: Entering directory '{c.cwd}/{sub}'",
            f"echo '>> {inner}'",
            f">> {inner}",
            *recipe,
            *body,
            f"make[2]: *** [Makefile:{n1}: {inner}] Error {code}",
            "make[2]: *** Waiting for unfinished jobs....",
            f"make[2]: Leaving directory '{c.cwd}/{sub}'",
            f"make[1]: *** [Makefile:{n2}: {target}] Error 2",
            f"make[1]: Leaving directory '{c.cwd}'",
            f"make: *** [GNUmakefile:{r.choice([3, 5, 11])}: {target}] Error 2",
        ]
    elif t == 2:
        intro = r.choice([
            f"Running `make {target}` from the repo root ends with:",
            f"make {target} output (old make on the build box, no line numbers):",
            f"this is what `make {target}` prints on a clean checkout:",
        ])
        out = [intro, "", *recipe, *body, f"make: *** [{target}] Error {code}"]
    elif t == 3:
        rule = f"Makefile:{n1}: recipe for target '{target}' failed"
        out = [
            f"{c.user}@{r.choice(['buildbox', 'devbox', 'ci-runner-3', 'laptop'])}:{c.cwd}$ make --no-print-directory {target}",
            *keep_key(c.lines, 4, c.key, gap="[...]"),
            rule,
            f"make: *** [{target}] Error {code}",
        ]
    else:
        out = [
            f"make -k {target} 2>&1 | tail -n 20",
            *keep_key(body, 14, c.key),
            f"make[1]: *** [Makefile:{n1}: {target}-{sub.split('/')[-1]}] Error {code}",
            f"make: *** [Makefile:{n2}: {target}] Error 2",
            f"make: Target '{target}' not remade because of errors.",
        ]
    return "\n".join(out)


def s_gitlab_mr_thread(c: Case, r: random.Random) -> str:
    a, b = r.sample(NAMES, 2)
    ago = r.choice(["2 hours ago", "1 day ago", "35 minutes ago", "3 days ago", "just now", "1 week ago"])
    role = r.choice(["Developer", "Maintainer", "Author", "Reporter", "Owner"])
    mr = r.randrange(12, 980)
    cmd = cmd_or(c)
    job = r.choice(["test:unit", "build", "lint", "deploy:staging", "integration", "package"])
    body = cut(c, r)
    t = r.randrange(5)
    if t == 0:
        path = r.choice(["Makefile", ".gitlab-ci.yml", "README.md", "scripts/setup.sh", "docker-compose.yml", "pyproject.toml"])
        out = [
            f"{a}",
            f"@{handle(a)} started a thread on the diff {ago}",
            f"{path} +{r.randrange(3, 80)}",
            "",
            f"With this change `{cmd}` no longer works for me:",
            "",
            "```",
            *body,
            "```",
            "",
            "Reply…",
        ]
    elif t == 1:
        out = [
            f"{a} @{handle(a)} · {ago}",
            role,
            f"Pipeline for !{mr} is red, job `{job}` stops at `{c.key}`",
            "",
            f"{b} @{handle(b)} · {r.choice(['1 hour ago', '20 minutes ago', '5 hours ago'])}",
            f"Same thing locally after `{cmd}`:",
            "",
            "```",
            *keep_key(c.lines, 8, c.key),
            "```",
        ]
    elif t == 2:
        sha = rand_str(r, HEX, 8)
        out = [
            f"{a} @{handle(a)} added 1 commit {ago}",
            f"• {sha} - {r.choice(['bump deps', 'fix review comments', 'rebase on main', 'wip'])}",
            "Compare with previous version",
            "",
            f"{a} @{handle(a)} · {ago}",
            f"After that commit `{cmd}` gives me:",
            "",
            "```",
            *body,
            "```",
            "",
            f"/cc @{handle(b)}",
            "👍 1",
        ]
    elif t == 3:
        out = [
            f"{b} @{handle(b)} · {ago}",
            role,
            f"> {c.key}",
            "",
            r.choice([
                f"I get this too when running `{cmd}` on a fresh clone.",
                f"Seeing exactly this in `{job}` since yesterday.",
                f"Can't reproduce on my laptop, but the runner shows it every time (`{cmd}`).",
            ]),
            "",
            f"{a} @{handle(a)} · {r.choice(['just now', '2 minutes ago', '1 hour ago'])}",
            "Full output from my side:",
            "",
            "```",
            *body,
            "```",
        ]
    else:
        out = [
            f"{a} @{handle(a)} marked this merge request as draft {ago}",
            "",
            f"{a} @{handle(a)} · {ago}",
            f"**Blocking:** `{cmd}` fails, so I'm putting this back to draft.",
            "",
            "<details><summary>output</summary>",
            "",
            "```",
            *body,
            "```",
            "",
            "</details>",
            "",
            f"{b} @{handle(b)} resolved all threads {r.choice(['later', '2 days later'])}" if r.random() < 0.2 else "Reply…",
        ]
    return "\n".join(out)


def _ansi(text: str, color: str, caret: bool) -> str:
    esc = "^[" if caret else "\x1b"
    return f"{esc}[{color}m{text}{esc}[0m"


def s_jenkins_console(c: Case, r: random.Random) -> str:
    t0 = when(r)
    job = r.choice([f"{c.project}/PR-{r.randrange(10, 600)}", f"{c.project}_main", f"nightly-{c.project}", f"{c.project}-build"])
    agent = r.choice(["agent-linux-04", "built-in", "docker-agent-2", "ec2-fleet-17", "k8s-pod-6fz9q"])
    caret = r.random() < 0.35
    code = c.exit_code
    body = cut(c, r)
    t = r.randrange(4)

    offsets = [0]
    for _ in range(len(body) + 1):
        offsets.append(offsets[-1] + r.choice([1, 2, 5, 12, 40, 180]))

    def stamp(i: int) -> str:
        return (t0 + timedelta(milliseconds=offsets[i])).strftime("[%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z]"

    if t == 0:
        out = [
            f"Started by user {r.choice(NAMES)}",
            "[Pipeline] Start of Pipeline",
            "[Pipeline] node",
            f"Running on {agent} in /var/lib/jenkins/workspace/{job.replace('/', '_')}",
            "[Pipeline] {",
            "[Pipeline] stage",
            f"[Pipeline] {{ ({r.choice(['Build', 'Test', 'Install', 'Deploy'])})",
            "[Pipeline] sh",
        ]
        i = 0
        if c.command:
            out.append(f"{stamp(i)} + {c.command}")
        for ln in body:
            i += 1
            out.append(f"{stamp(i)} {_ansi(ln, '31', caret) if ln == c.key else ln}")
        out += [
            "[Pipeline] }",
            "[Pipeline] // stage",
            "[Pipeline] }",
            "[Pipeline] // node",
            "[Pipeline] End of Pipeline",
            f"ERROR: script returned exit code {code}",
            "Finished: FAILURE",
        ]
    elif t == 1:
        tmp = r.randrange(10**17, 10**18)
        out = [
            "Started by an SCM change",
            "Running as SYSTEM",
            f"Building on the built-in node in workspace /var/lib/jenkins/workspace/{job.replace('/', '_')}",
            f"[{job.split('/')[0]}] $ /bin/sh -xe /tmp/jenkins{tmp}.sh",
        ]
        if c.command:
            out.append(f"+ {c.command}")
        out += body
        out += ["Build step 'Execute shell' marked build as failure", "Finished: FAILURE"]
    elif t == 2:
        esc = "^[" if caret else "\x1b"
        out = [f"{esc}[8mha:////4{rand_str(r, B64, 42)}={esc}[0m[Pipeline] sh"]
        if c.command:
            out.append(f"{t0.strftime('%H:%M:%S')}  + {c.command}")
        for ln in body:
            shown = _ansi(ln, r.choice(["31", "1;31", "91"]), caret) if KEYWORDS.search(ln) else ln
            out.append(f"{t0.strftime('%H:%M:%S')}  {shown}")
        out += [
            f"{esc}[8mha:////4{rand_str(r, B64, 38)}=={esc}[0m[Pipeline] }}",
            f"{esc}[8mha:////4{rand_str(r, B64, 40)}={esc}[0m[Pipeline] // timestamps",
            f"ERROR: script returned exit code {code}",
            "Finished: FAILURE",
        ]
        if r.random() < 0.5:
            out.insert(0, r.choice([
                "console text straight from /consoleText, escape codes and all:",
                "(copied from the raw log, the AnsiColor plugin isn't installed so it looks like this)",
            ]))
    else:
        step = f"Shell Script — {cmd_or(c, 'sh ./ci.sh')}"
        out = [
            f"{job} #{r.randrange(40, 3000)}",
            r.choice(["Build", "Test", "Checks", "Install deps"]),
            f"{step}  <{r.randrange(1, 59)}s",
            *body,
            f"script returned exit code {code}",
        ]
    return "\n".join(out)


def _pod(r: random.Random, app: str, cron: bool) -> str:
    if cron:
        return f"{app}-{r.randrange(28000000, 29999999)}-{rand_str(r, K8S_ALPHA, 5)}"
    return f"{app}-{rand_str(r, '0123456789abcdef', r.choice([9, 10]))}-{rand_str(r, K8S_ALPHA, 5)}"


def s_k8s_events(c: Case, r: random.Random) -> str:
    app = r.choice([c.project, c.project, "worker", "migrate", "report"])
    cron = r.random() < 0.35
    pod = _pod(r, app, cron)
    ns = r.choice(CLUSTER_NS)
    image = f"registry.{r.choice(['acme.dev', 'example.com', 'internal.lan'])}/{app}:{r.choice(['1.4.2', 'latest', '0.9.0', 'sha-' + rand_str(r, HEX, 7)])}"
    code = c.exit_code
    body = cut(c, r)
    restarts = r.randrange(2, 9)
    started = when(r)
    t = r.randrange(5)
    if t == 0:
        out = [
            f"$ kubectl get events -n {ns} --sort-by=.lastTimestamp",
            "LAST SEEN   TYPE      REASON      OBJECT                 MESSAGE",
            f"4m12s       Normal    Scheduled   pod/{pod}   Successfully assigned {ns}/{pod} to {r.choice(['node-2', 'worker-a1', 'minikube', 'gke-pool-1-7f2c'])}",
            f"4m11s       Normal    Pulled      pod/{pod}   Container image \"{image}\" already present on machine",
            f"2m3s        Normal    Started     pod/{pod}   Started container {app}",
            f"90s         Warning   BackOff     pod/{pod}   Back-off restarting failed container {app} in pod {pod}_{ns}({rand_str(r, HEX, 8)}-{rand_str(r, HEX, 4)})",
            "",
            f"$ kubectl logs -n {ns} {pod} --previous",
            *body,
        ]
    elif t == 1:
        out = [
            f"$ kubectl describe pod {pod} -n {ns}",
            "...",
            "    Command:",
            "      sh",
            "      -c",
            f"      {cmd_or(c, './entrypoint.sh')}",
            "    State:          Waiting",
            "      Reason:       CrashLoopBackOff",
            "    Last State:     Terminated",
            "      Reason:       Error",
            f"      Exit Code:    {code}",
            "    Ready:          False",
            f"    Restart Count:  {restarts}",
            "...",
            "Events:",
            "  Type     Reason   Age                 From     Message",
            "  ----     ------   ----                ----     -------",
            f"  Warning  BackOff  {r.randrange(5, 59)}s (x{restarts * 3} over 6m)  kubelet  Back-off restarting failed container {app} in pod {pod}_{ns}",
            "",
            f"$ kubectl logs {pod} -n {ns} -p",
            *body,
        ]
    elif t == 2:
        out = [
            f"$ kubectl get pods -n {ns} -l app={app}",
            "NAME                           READY   STATUS   RESTARTS   AGE",
            f"{pod}   0/1     Error    {restarts}          {r.randrange(2, 50)}m",
            f"$ kubectl logs -n {ns} {pod}",
            *body,
        ]
    elif t == 3:
        out = [
            f"$ kubectl get pod {pod} -n {ns} -o jsonpath='{{.status.containerStatuses[0].lastState.terminated}}' | jq .",
            "{",
            f'  "containerID": "containerd://{rand_str(r, HEX, 64)}",',
            f'  "exitCode": {code},',
            f'  "finishedAt": "{(started + timedelta(seconds=r.randrange(1, 40))).strftime("%Y-%m-%dT%H:%M:%SZ")}",',
            f'  "message": {json.dumps(chr(10).join(keep_key(c.lines, 6, c.key)) + chr(10))},',
            '  "reason": "Error",',
            f'  "startedAt": "{started.strftime("%Y-%m-%dT%H:%M:%SZ")}"',
            "}",
        ]
    else:
        job = pod.rsplit("-", 1)[0]
        out = [
            f"$ kubectl get jobs -n {ns}",
            "NAME                      STATUS   COMPLETIONS   DURATION   AGE",
            f"{job}   Failed   0/1           {r.randrange(1, 9)}m          {r.randrange(10, 59)}m",
            f"$ kubectl get events -n {ns} --field-selector involvedObject.name={job}",
            "LAST SEEN   TYPE      REASON                 OBJECT             MESSAGE",
            f"{r.randrange(10, 59)}m         Warning   BackoffLimitExceeded   job/{job}   Job has reached the specified backoff limit",
            f"$ kubectl logs -n {ns} job/{job}",
            *body,
        ]
    return "\n".join(out)


def s_git_hook(c: Case, r: random.Random) -> str:
    hook_id = re.sub(r"[^a-z0-9]+", "-", c.tool.lower()).strip("-") or "check"
    hook_id = r.choice([hook_id, f"local-{hook_id}", f"{hook_id}-check", "run-tests", "smoke"])
    branch = r.choice(["main", "feature/reports", "fix/login", "dev", f"{c.user}/wip"])
    remote = r.choice(["git.acme.dev", "gitea.home.lan", "code.example.org", "git.internal"])
    msg = r.choice(["add stats", "wip", "fix typo", "update deps", "refactor config"])
    body = cut(c, r)
    code = c.exit_code
    t = r.randrange(5)
    if t == 0:
        def dots(name: str, res: str) -> str:
            return name + "." * max(3, 79 - len(name) - len(res)) + res
        out = [
            f'$ git commit -m "{msg}"',
            dots("trim trailing whitespace", "Passed"),
            dots("check yaml", "(no files to check)Skipped"),
            dots(hook_id, "Failed"),
            f"- hook id: {hook_id}",
            f"- exit code: {code}",
            "",
            *body,
        ]
    elif t == 1:
        n = r.randrange(5, 40)
        repo = f"{c.user}/{c.project}.git"
        out = [
            f"$ git push origin {branch}",
            f"Enumerating objects: {n}, done.",
            f"Counting objects: 100% ({n}/{n}), done.",
            f"Writing objects: 100% ({n - 2}/{n - 2}), {r.randrange(1, 90)}.{r.randrange(10, 99)} KiB | 3.1 MiB/s, done.",
            f"remote: pre-receive: running `{cmd_or(c, 'checks')}` on {branch}",
            *indent(body, "remote: "),
            "remote: ",
            f"To {remote}:{repo}",
            f" ! [remote rejected] {branch} -> {branch} (pre-receive hook declined)",
            f"error: failed to push some refs to '{remote}:{repo}'",
        ]
    elif t == 2:
        out = [
            f'$ git commit -m "{msg}"',
            f"> {c.project}@1.0.0 precommit",
            f"> {cmd_or(c, 'npm test')}",
            "",
            *body,
            f"husky - pre-commit script failed (code {code})",
        ]
    elif t == 3:
        secs = f"{r.randrange(0, 9)}.{r.randrange(10, 99)}"
        out = [
            "╭───────────────────────────────────────╮",
            "│ 🥊 lefthook v1.7.2  hook: pre-push │",
            "╰───────────────────────────────────────╯",
            f"┃  {hook_id} ❯ ",
            "",
            *body,
            "",
            "────────────────────────────────────",
            f"summary: (done in {secs} seconds)",
            f"🥊  {hook_id}",
        ]
    else:
        out = [
            f"$ git push -u origin {branch}",
            f"running .git/hooks/pre-push ({cmd_or(c, 'make check')})",
            *body,
            f"error: failed to push some refs to '{remote}:{c.user}/{c.project}.git'",
        ]
        if r.random() < 0.5:
            out.insert(0, r.choice([
                "pre-push hook output, the push never went out:",
                "Hook blocked my push. Output:",
            ]))
    return "\n".join(out)


def _python_title(c: Case) -> str:
    exc = c.key.split(":", 1)
    func = "<module>"
    script = os.path.basename((c.command or "python3 script.py").split()[-1])
    for ln in c.lines:
        m = re.match(r'\s*File "([^"]+)", line \d+, in (\S+)', ln)
        if m:
            func = m.group(2)
            if c.cwd in m.group(1) or "/home/" in m.group(1):
                script = os.path.basename(m.group(1))
    name = exc[0].split(".")[-1]
    rest = exc[1].strip() if len(exc) > 1 else ""
    where = "" if func == "<module>" else f" in {func}()"
    return f"{script} crashed with {name}{where}: {rest}".rstrip(": ")


def s_crash_reporter(c: Case, r: random.Random) -> str:
    t0 = when(r)
    distro = r.choice(["Ubuntu 24.04", "Ubuntu 22.04", "Ubuntu 24.10"])
    pyver = "3.12" if "24" in distro else "3.10"
    cmd = cmd_or(c, c.tool)
    t = r.randrange(4)
    if t == 0 or (t == 1 and c.traceback):
        if c.traceback:
            title = _python_title(c)
            out = [
                "ProblemType: Crash",
                "Architecture: amd64",
                f"Date: {t0.strftime('%a %b %d %H:%M:%S %Y')}",
                f"DistroRelease: {distro}",
                f"ExecutablePath: {c.cwd}/{os.path.basename(cmd.split()[-1])}",
                f"InterpreterPath: /usr/bin/python{pyver}",
                f"ProcCmdline: {cmd}",
                f"ProcCwd: {c.cwd}",
                "PythonArgs: " + repr(cmd.split()[1:]),
                f"Title: {title}",
                "Traceback:",
                *indent(c.lines, " "),
                f"UserGroups: adm cdrom sudo dip plugdev {c.user}",
            ]
        else:
            out = [
                "ProblemType: Bug",
                f"Date: {t0.strftime('%a %b %d %H:%M:%S %Y')}",
                f"DistroRelease: {distro}",
                f"Package: {c.tool} (not installed)" if r.random() < 0.3 else f"SourcePackage: {c.tool}",
                f"ProcCmdline: {cmd}",
                f"Title: {short(c.key, 100)}",
                "ErrorMessage: " + c.key,
                "TerminalLog:",
                *indent(keep_key(c.lines, 20, c.key), " "),
            ]
        if t == 1:
            out = [
                f"$ apport-cli -c /var/crash/_usr_bin_python{pyver}.{r.choice([1000, 1001])}.crash",
                "",
                "*** Send problem report to the developers?",
                "",
                "After the problem report has been sent, please fill out the form in the",
                "automatically opened web browser.",
                "",
                "What would you like to do? Your options are:",
                "  S: Send report (4.1 KB)",
                "  E: Examine locally",
                "  V: View report",
                "  K: Keep report file for sending later or copying to somewhere else",
                "  I: Cancel and ignore future crashes of this program version",
                "  C: Cancel",
                "Please choose (S/E/V/K/I/C): V",
                "",
                "== ProblemType =================================",
                "Crash",
                "",
                "== Title =================================",
                _python_title(c),
                "",
                "== ProcCmdline =================================",
                cmd,
                "",
                "== Traceback =================================",
                *c.lines,
            ]
    elif t == 1 or t == 2:
        pid = r.randrange(1200, 99999)
        did = f"/var/spool/abrt/{'Python3' if c.traceback else 'ccpp'}-{t0.strftime('%Y-%m-%d-%H:%M:%S')}-{pid}"
        reason = c.key
        if c.traceback:
            frames = [ln for ln in c.lines if ln.strip().startswith("File ")]
            loc = ""
            if frames:
                m = re.search(r'File "([^"]+)", line (\d+), in (\S+)', frames[-1])
                if m:
                    loc = f"{os.path.basename(m.group(1))}:{m.group(2)}:{m.group(3)}:"
            reason = loc + c.key
        out = [
            "$ abrt-cli list --since " + str(int(t0.timestamp()) - 600),
            f"id {rand_str(r, HEX, 40)}",
            f"reason:         {reason}",
            f"time:           {t0.strftime('%a %d %b %Y %I:%M:%S %p')} UTC",
            f"cmdline:        {cmd}",
            f"uid:            1000 ({c.user})",
            f"count:          {r.randrange(1, 6)}",
            f"Directory:      {did}",
            "Run 'abrt-cli report " + did + "' for creating a case in Red Hat Customer Portal",
        ]
        if t == 2:
            out = out[1:] + ["", "$ cat " + did + "/backtrace", *cut(c, r)]
    else:
        out = [
            f"Sorry, {distro} has experienced an internal error." if c.traceback else f"Sorry, the program \"{c.tool}\" closed unexpectedly.",
            "",
            "Send problem report to the developers?",
            "",
            "☐ Remember this in future",
            "",
            "▼ Details",
            "  ▸ CrashCounter",
            f"  ▸ Date: {t0.strftime('%a %b %d %H:%M:%S %Y')}",
            f"  ▸ ProcCmdline: {cmd}",
            f"  ▸ ProcCwd: {c.cwd}",
            "  ▾ Traceback" if c.traceback else "  ▾ ErrorMessage",
            *indent(keep_key(c.lines, 16, c.key), "      "),
            "",
            "[ Don't send ]   [ Send ]",
        ]
    return "\n".join(out)


def _ruby_hash(d: dict) -> str:
    return "{" + ", ".join(f'"{k}"=>{json.dumps(v, ensure_ascii=False)}' for k, v in d.items()) + "}"


def s_fluent_record(c: Case, r: random.Random) -> str:
    t0 = when(r)
    ts = t0.timestamp()
    cid = rand_str(r, HEX, 64)
    svc = r.choice([c.project, "app", "worker", "api"])
    lines = [ln for ln in keep_key(c.lines, r.choice([8, 12, 30]), c.key, gap="") if ln.strip()]
    t = r.randrange(5)
    out: list[str] = []
    if t == 0:
        tag = f"docker.{cid[:12]}"
        for i, ln in enumerate(lines):
            stamp = f"{ts + i * 0.000731:.9f}"
            rec = {"container_id": cid, "container_name": f"/{svc}", "source": "stderr", "log": ln}
            out.append(f"[{i}] {tag}: [[{stamp}, {{}}], {_ruby_hash(rec)}]")
    elif t == 1:
        pod = _pod(r, svc, False)
        ns = r.choice(CLUSTER_NS)
        tag = f"kube.var.log.containers.{pod}_{ns}_{svc}-{cid[:64]}.log"
        for i, ln in enumerate(lines):
            stamp = f"{ts + i * 0.0004:.9f}"
            rec = {"time": (t0 + timedelta(microseconds=i * 400)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "stream": "stderr", "_p": "F", "log": ln}
            out.append(f"[{i}] {tag}: [{stamp}, {_ruby_hash(rec)}]")
    elif t == 2:
        tag = f"docker.{cid[:12]}"
        for i, ln in enumerate(lines):
            stamp = (t0 + timedelta(microseconds=i * 650)).strftime("%Y-%m-%d %H:%M:%S.%f000 +0000")
            rec = {"log": ln + "\n", "stream": "stderr", "container_id": cid, "container_name": f"/{svc}"}
            out.append(f"{stamp} {tag}: {json.dumps(rec, ensure_ascii=False, separators=(',', ':'))}")
    elif t == 3:
        rec = {
            "date": round(ts, 6),
            "log": "\n".join(ln for ln in keep_key(c.lines, 20, c.key)),
            "stream": "stderr",
            "host": r.choice(["web-01", "devbox", "build-7", "ip-10-0-3-12"]),
            "unit": f"{svc}.service",
            "multiline": True,
        }
        out = [
            r.choice([
                "After enabling the multiline parser the whole thing arrives as one record:",
                "fluent-bit json_lines output for the failing run:",
                "one record from the forwarder:",
            ]),
            json.dumps(rec, ensure_ascii=False),
        ]
    else:
        out.append(f"[{r.choice(['2024', '2025'])}/{t0.strftime('%m/%d %H:%M:%S')}] [ info] [output:stdout:stdout.0] worker #0 started")
        tag = f"tail.{r.randrange(0, 3)}"
        for i, ln in enumerate(lines):
            stamp = f"{ts + i * 0.0011:.9f}"
            rec = {"log": ln, "path": f"/var/log/{svc}/{svc}.err.log"}
            out.append(f"[{i}] {tag}: [[{stamp}, {{}}], {_ruby_hash(rec)}]")
    return "\n".join(out)


def s_systemd_run(c: Case, r: random.Random) -> str:
    unit = f"run-u{r.randrange(20, 999)}.service"
    inv = rand_str(r, HEX, 32)
    t0 = when(r)
    host = r.choice(["devbox", "buildbox", "pi4", "web01", "thinkpad", "nuc"])
    code = c.exit_code
    cmd = cmd_or(c, "./run.sh")
    body = cut(c, r)
    upid = r.randrange(900, 4000)
    pid = r.randrange(4000, 99999)
    runtime = f"{r.randrange(40, 990)}ms"
    status_word = {1: "FAILURE", 2: "INVALIDARGUMENT", 126: "NOPERMISSION", 127: "NOTINSTALLED"}.get(code, str(code))
    jstamp = t0.strftime("%b %d %H:%M:%S")
    t = r.randrange(4)
    if t == 0:
        out = [
            f"$ systemd-run --user --wait --pipe --collect -p WorkingDirectory={c.cwd} {cmd}",
            f"Running as unit: {unit}; invocation ID: {inv}",
            *body,
            "          Finished with result: exit-code",
            f"Main processes terminated with: code=exited/status={code}",
            f"               Service runtime: {runtime}",
            f"             CPU time consumed: {r.randrange(20, 900)}ms",
            f"                   Memory peak: {r.randrange(2, 90)}.{r.randrange(0, 9)}M",
        ]
    elif t == 1:
        out = [
            f"$ systemd-run --user -p WorkingDirectory={c.cwd} {cmd}",
            f"Running as unit: {unit}; invocation ID: {inv}",
            f"$ journalctl --user -u {unit} --no-pager",
            f"{jstamp} {host} systemd[{upid}]: Started {unit} - /usr/bin/{cmd.split()[0]} {' '.join(cmd.split()[1:])}".rstrip(),
            *[f"{jstamp} {host} {c.tool}[{pid}]: {ln}" for ln in body],
            f"{jstamp} {host} systemd[{upid}]: {unit}: Main process exited, code=exited, status={code}/{status_word}",
            f"{jstamp} {host} systemd[{upid}]: {unit}: Failed with result 'exit-code'.",
        ]
    elif t == 2:
        since = t0.strftime("%a %Y-%m-%d %H:%M:%S UTC")
        out = [
            f"$ systemctl --user status {unit}",
            f"× {unit} - /bin/sh -c \"{cmd}\"",
            f"     Loaded: loaded (/run/user/1000/systemd/transient/{unit}; transient)",
            "  Transient: yes",
            f"     Active: failed (Result: exit-code) since {since}; {r.randrange(2, 59)}s ago",
            f"   Duration: {runtime}",
            f"    Process: {pid} ExecStart=/bin/sh -c \"{cmd}\" (code=exited, status={code}/{status_word})",
            f"   Main PID: {pid} (code=exited, status={code}/{status_word})",
            "",
            *[f"{jstamp} {host} sh[{pid}]: {ln}" for ln in keep_key(c.lines, 10, c.key, gap="…")],
        ]
    else:
        out = [
            r.choice([
                "Ran it under a transient unit so the timer setup matches prod:",
                "Same command via systemd-run (works fine in my shell, fails here):",
                "testing the nightly job with systemd-run --on-active:",
            ]),
            f"$ systemd-run --user --on-active=5s --unit={c.project}-try {cmd}",
            f"Running timer as unit: {c.project}-try.timer",
            f"Will run service as unit: {c.project}-try.service",
            f"$ journalctl --user -u {c.project}-try -o short-iso",
            *[f"{t0.strftime('%Y-%m-%dT%H:%M:%S')}+00:00 {host} {c.tool}[{pid}]: {ln}" for ln in body],
            f"{t0.strftime('%Y-%m-%dT%H:%M:%S')}+00:00 {host} systemd[{upid}]: {c.project}-try.service: Failed with result 'exit-code'.",
        ]
    return "\n".join(out)


def s_tox_nox(c: Case, r: random.Random) -> str:
    py = c.tool.startswith(("python", "pip", "pytest", "py"))
    env = r.choice(["py312", "py311", "py310"]) if py else r.choice(["integration", "e2e", "build", "lint", "docs", "smoke"])
    cmd = cmd_or(c, "pytest")
    code = c.exit_code
    body = cut(c, r)
    secs = r.randrange(1, 90) / 10
    setup = round(secs * r.choice([2, 3, 4]) + 0.37, 2)
    pid = r.randrange(2000, 60000)
    t = r.randrange(4)
    if t == 0:
        out = [
            f"$ tox -e {env}",
            f"{env}: install_deps> python -I -m pip install -r requirements.txt",
            f"{env}: commands[0]> {cmd}",
            *body,
            f"{env}: exit {code} ({secs:.2f} seconds) {c.cwd}> {cmd} pid={pid}",
            f"  {env}: FAIL code {code} ({setup + secs:.2f}=setup[{setup:.2f}]+cmd[{secs:.2f}] seconds)",
            f"  evaluation failed :( ({setup + secs + 0.09:.2f} seconds)",
        ]
    elif t == 1:
        exe = cmd.split()[0]
        out = [
            f"{env} create: {c.cwd}/.tox/{env}",
            f"{env} installdeps: -rrequirements.txt",
            f"{env} installed: {r.choice(['attrs==23.2.0', 'certifi==2024.2.2', 'iniconfig==2.0.0'])},packaging==24.0,pluggy==1.4.0",
            f"{env} run-test-pre: PYTHONHASHSEED='{r.randrange(10**8, 10**10)}'",
            f"{env} run-test: commands[0] | {cmd}",
            *body,
            f"ERROR: InvocationError for command {c.cwd}/.tox/{env}/bin/{exe} {' '.join(cmd.split()[1:])} (exited with code {code})".replace("  (", " ("),
            "___________________________________ summary ____________________________________",
            f"ERROR:   {env}: commands failed",
        ]
    elif t == 2:
        sess = r.choice(["tests", "lint", "integration", "build"]) + r.choice(["", "-3.12", "-3.11"])
        out = [
            f"nox > Running session {sess}",
            f"nox > Creating virtual environment (virtualenv) using python{sess.split('-')[-1] if '-' in sess else '3'} in .nox/{sess.replace('.', '-')}",
            "nox > python -m pip install -r requirements.txt",
            f"nox > {cmd}",
            *body,
            f"nox > Command {cmd} failed with exit code {code}",
            f"nox > Session {sess} failed.",
        ]
    else:
        out = [
            r.choice([
                f"CI runs `tox -e {env}` and it dies right after the command:",
                f"tox {env} env fails (full output below, trimmed the pip noise)",
                f"Locally `{cmd}` is fine, but under tox:",
            ]),
            "",
            f"{env}: commands[{r.randrange(0, 3)}]> {cmd}",
            *keep_key(c.lines, 10, c.key, gap="[...]"),
            f"{env}: exit {code} ({secs:.2f} seconds) {c.cwd}> {cmd} pid={pid}",
            f"  {env}: FAIL code {code} ({setup + secs:.2f} seconds)",
        ]
    return "\n".join(out)


def s_provisioner_log(c: Case, r: random.Random) -> str:
    code = c.exit_code
    body = cut(c, r)
    cmd = cmd_or(c, "./setup.sh")
    t = r.randrange(5)
    if t in (0, 1):
        machine = "default" if t == 0 else r.choice(["web", "db", "app", "builder"])
        out = [
            f"$ vagrant {'provision' if r.random() < 0.5 else 'up --provision'}" + ("" if t == 0 else f" {machine}"),
            f"==> {machine}: Running provisioner: shell...",
            f"    {machine}: Running: inline script" if t == 0 else f"    {machine}: Running: /tmp/vagrant-shell{r.randrange(2024, 99999)}.sh",
        ]
        if c.command and r.random() < 0.6:
            out.append(f"    {machine}: + {c.command}")
        out += [f"    {machine}: {ln}" for ln in body]
        out += [
            "The SSH command responded with a non-zero exit status. Vagrant",
            "assumes that this means the command failed. The output for this command",
            "should be in the log above. Please read the output to determine what",
            "went wrong.",
        ]
    elif t in (2, 3):
        builder = r.choice(["amazon-ebs.ubuntu", "docker.ubuntu", "qemu.debian", "googlecompute.base"])
        mins = r.randrange(1, 14)
        secs = r.randrange(1, 59)
        script = r.choice(["scripts/setup.sh", "scripts/bootstrap.sh", "provision/app.sh"])
        out = [
            f"==> {builder}: Provisioning with shell script: {script}",
            *[f"    {builder}: {ln}" for ln in body],
            f"==> {builder}: Script exited with non-zero exit status: {code}. Allowed exit codes are: [0]",
        ]
        if builder.startswith("amazon"):
            out.append(f"==> {builder}: Terminating the source AWS instance...")
        out += [
            f"Build '{builder}' errored after {mins} minutes {secs} seconds: Script exited with non-zero exit status: {code}. Allowed exit codes are: [0]",
            "",
            f"==> Wait completed after {mins} minutes {secs} seconds",
            "",
            "==> Some builds didn't complete successfully and had errors:",
            f"--> {builder}: Script exited with non-zero exit status: {code}. Allowed exit codes are: [0]",
            "",
            "==> Builds finished but no artifacts were created.",
        ]
        if t == 3 and c.command:
            out.insert(1, f"    {builder}: + {cmd}")
    else:
        builder = r.choice(["amazon-ebs.ubuntu", "docker.base", "qemu.alma9"])
        ts = int(when(r).timestamp())
        out = [f"$ packer build -machine-readable {r.choice(['image.pkr.hcl', 'build.pkr.hcl', '.'])} | tee build.log"]
        for ln in keep_key(c.lines, 12, c.key):
            enc = ln.replace(",", "%!(PACKER_COMMA)")
            out.append(f"{ts},{builder},ui,message,    {builder}: {enc}")
        out += [
            f"{ts + 1},{builder},ui,error,Script exited with non-zero exit status: {code}. Allowed exit codes are: [0]",
            f"{ts + 2},,ui,error,Build '{builder}' errored after {r.randrange(20, 400)} seconds: Script exited with non-zero exit status: {code}. Allowed exit codes are: [0]",
            f"{ts + 2},{builder},error,Script exited with non-zero exit status: {code}. Allowed exit codes are: [0]",
        ]
    return "\n".join(out)


def s_hn_comment(c: Case, r: random.Random) -> str:
    user = r.choice(HN_USERS)
    ago = r.choice(["3 hours ago", "47 minutes ago", "1 day ago", "6 hours ago", "2 hours ago"])
    cmd = cmd_or(c)
    t = r.randrange(5)
    if t == 0:
        out = [
            f"{user} {ago} | parent | next [–]",
            "",
            r.choice([
                f"Ran into exactly this last week. `{cmd}` kept dying with",
                f"Related: on a fresh box `{cmd}` just gives me",
                "Funny, I hit this yesterday on a brand new laptop:",
            ]),
            "",
            *indent(keep_key(c.lines, 6, c.key), "  "),
            "",
            r.choice([
                "Still not sure what the actual root cause was.",
                "Error messages like this are why people hate this ecosystem.",
                "Anyone know what's going on there?",
            ]),
            "",
            "reply",
        ]
    elif t == 1:
        pts = r.randrange(3, 140)
        out = [
            f"Ask HN: Why does `{short(cmd, 50)}` fail with \"{short(c.key, 70)}\"?",
            f"{pts} points by {user} {ago} | hide | past | favorite | {r.randrange(2, 60)} comments",
            "",
            f"I'm on {r.choice(['Ubuntu 24.04', 'Debian 12', 'Fedora 40', 'Arch', 'WSL2'])} and running `{cmd}` from {c.cwd} prints:",
            "",
            *indent(cut(c, r, r.choice([8, 14])), "  "),
            "",
            "Searching gives me a dozen years-old answers that all contradict each other. What am I missing?",
        ]
    elif t == 2:
        other = r.choice(HN_USERS)
        out = [
            f"{user} {ago} | prev | next [–]",
            "",
            f"> {c.key}",
            "",
            r.choice([
                "This is such a classic. Every new hire on our team sees it in week one.",
                "I see this one more than any other error in our onboarding channel.",
                "Had the same thing show up in CI with zero changes on our side.",
            ]),
            "",
            f"  {other} {r.choice(['2 hours ago', '1 hour ago', '30 minutes ago'])} | parent | next [–]",
            "",
            f"  Same. For me it was `{cmd}` that triggered it.",
        ]
    elif t == 3:
        out = [
            f"{user} {ago} [–]",
            "",
            f"My favourite bit of the article is that it glosses over setup. I followed it step by step and the `{cmd}` step gives *{short(c.key, 120)}*",
            "",
            "Full output for the curious:",
            "",
            *indent(cut(c, r), "  "),
        ]
    else:
        out = [
            f"{user} {ago} | parent | context | flag | on: {r.choice(['Show HN: a tiny build tool', 'The state of Linux dev setups', 'Why I went back to Makefiles', 'Ask HN: What broke your dev env this week?'])}",
            "",
            "Tried it. First thing I got was",
            "",
            *indent(keep_key(c.lines, 4, c.key), "  "),
            "",
            f"after `{cmd}`. Not a great first impression.",
        ]
    return "\n".join(out)


TOOL_COMPONENT = {
    "python3": "python3.12", "python": "python3.12", "pip": "python-pip", "pip3": "python-pip",
    "npm": "nodejs-npm", "node": "nodejs", "npx": "nodejs-npm", "go": "golang", "cargo": "rust",
    "rustc": "rust", "gcc": "gcc", "g++": "gcc", "make": "make", "cmake": "cmake", "docker": "moby-engine",
    "kubectl": "kubernetes-client", "psql": "postgresql", "mysql": "mariadb", "ssh": "openssh",
    "scp": "openssh", "git": "git", "curl": "curl", "openssl": "openssl", "java": "java-21-openjdk",
    "javac": "java-21-openjdk", "mvn": "maven", "gradle": "gradle", "bundle": "rubygem-bundler",
    "gem": "rubygems", "ruby": "ruby", "systemctl": "systemd", "journalctl": "systemd", "sqlite3": "sqlite",
}


def s_bugzilla_report(c: Case, r: random.Random) -> str:
    bug = r.randrange(2200000, 2330000)
    reporter = r.choice(NAMES)
    t0 = when(r)
    comp = TOOL_COMPONENT.get(c.tool, c.tool)
    version = r.choice(["40", "41", "rawhide", "39"])
    cmd = cmd_or(c)
    summary = f"{comp}: {short(c.key, 80)}"
    stamp = t0.strftime("%Y-%m-%d %H:%M:%S UTC")
    body = cut(c, r)
    if comp.startswith("python3."):
        pkg_ver = f"{comp[6:]}.{r.randrange(1, 9)}"
    else:
        pkg_ver = f"{r.randrange(1, 9)}.{r.randrange(0, 20)}.{r.randrange(0, 9)}"
    t = r.randrange(4)
    if t in (0, 1):
        out = [
            f"Bug {bug} - {summary}",
            "Summary: " + summary,
            "Status: NEW",
            f"Product: Fedora    Component: {comp}    Version: {version}",
            f"Reported: {t0.strftime('%Y-%m-%d %H:%M UTC')} by {reporter}",
            "",
            f"{reporter} {stamp}",
            "",
            "Description of problem:",
            f"`{cmd}` fails." if t == 0 else c.key,
            "",
            "Version-Release number of selected component (if applicable):",
            f"{comp}-{pkg_ver}-{r.randrange(1, 5)}.fc{version if version.isdigit() else '42'}",
            "",
            "How reproducible:",
            r.choice(["Always", "Every time", "Always on this machine"]),
            "",
            "Steps to Reproduce:",
            f"1. cd {c.cwd}",
            f"2. {cmd}",
            "3.",
            "",
            "Actual results:",
            *body,
            "",
            "Expected results:",
            r.choice(["Command succeeds.", "No error.", "It works like it does on my other machine."]),
            "",
            "Additional info:",
        ]
    elif t == 2:
        other = r.choice([n for n in NAMES if n != reporter])
        out = [
            f"{other} {stamp}",
            "",
            f"(In reply to {reporter} from comment #{r.randrange(0, 4)})",
            f"> Can you attach the exact output of `{cmd}`?",
            "",
            "Sure:",
            "",
            *body,
            "",
            f"Created attachment {r.randrange(2000000, 2100000)} [details]",
            "full output",
        ]
    else:
        out = [
            f"Bug {r.randrange(1800000, 1990000)} - {short(c.key, 90)}",
            f"Reporter: {reporter}",
            "",
            "User Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
            "",
            "Steps to reproduce:",
            "",
            f"Ran `{cmd}` in {c.cwd}",
            "",
            "Actual results:",
            "",
            *keep_key(c.lines, 12, c.key),
            "",
            "Expected results:",
            "",
            "No error",
        ]
    return "\n".join(out)


def _drv(r: random.Random, name: str) -> str:
    return f"/nix/store/{rand_str(r, NIX_ALPHA, 32)}-{name}.drv"


def s_nix_build(c: Case, r: random.Random) -> str:
    pname = f"{c.project}-{r.randrange(0, 3)}.{r.randrange(0, 12)}.{r.randrange(0, 9)}"
    drv = _drv(r, pname)
    code = c.exit_code
    phases = [
        "Running phase: unpackPhase",
        f"unpacking source archive /nix/store/{rand_str(r, NIX_ALPHA, 32)}-source",
        "source root is source",
        "Running phase: patchPhase",
        "Running phase: configurePhase",
        "no configure script, doing nothing",
        "Running phase: buildPhase",
    ]
    t = r.randrange(4)
    if t == 0:
        n = r.choice([10, 25])
        last = (phases + c.lines)[-n:]
        out = [
            f"$ nix build .#{c.project}",
            f"error: builder for '{drv}' failed with exit code {code};",
            f"       last {n} log lines:",
            *[f"       > {ln}" for ln in last],
            f"       For full logs, run 'nix log {drv}'.",
        ]
    elif t == 1:
        n = 10
        last = (phases + c.lines)[-n:]
        out = [
            "$ nix-build",
            "these derivations will be built:",
            f"  {drv}",
            f"building '{drv}'...",
            *(phases + keep_key(c.lines, 14, c.key))[-18:],
            f"error: builder for '{drv}' failed with exit code {code};",
            f"       last {n} log lines:",
            *[f"       > {ln}" for ln in last],
            f"       For full logs, run 'nix-store -l {drv}'.",
        ]
    elif t == 2:
        out = [
            f"$ nix develop -c {cmd_or(c, 'make')}",
            f"warning: Git tree '{c.cwd}' is dirty",
            *cut(c, r),
        ]
        if r.random() < 0.5:
            out.insert(0, r.choice([
                "inside the flake dev shell it still fails:",
                "even with everything pinned by the flake:",
            ]))
    else:
        out = [
            f"$ nix log {drv} | tail -n 15",
            *keep_key(c.lines, 15, c.key),
            "",
            f"(from `nix flake check`: error: builder for '{drv}' failed with exit code {code})",
        ]
    return "\n".join(out)


def s_compose_logs(c: Case, r: random.Random) -> str:
    svc = r.choice(SERVICES)
    proj = c.project.replace(".", "")
    code = c.exit_code
    body = cut(c, r)
    width = max(len(svc) + 2, 6)
    t = r.randrange(5)
    if t == 0:
        out = [
            "$ docker compose up",
            "[+] Running 3/3",
            f" ✔ Network {proj}_default  Created{' ' * 14}0.1s",
            f" ✔ Container {proj}-db-1  Running{' ' * 12}0.0s",
            f" ✔ Container {proj}-{svc}-1  Recreated{' ' * 9}0.3s",
            f"Attaching to {svc}-1, db-1",
            *[f"{svc + '-1':<{width}} | {ln}" for ln in body],
            f"{svc}-1 exited with code {code}",
        ]
    elif t == 1:
        t0 = when(r)
        out = [f"$ docker compose logs --timestamps {svc}"]
        for i, ln in enumerate(body):
            stamp = (t0 + timedelta(microseconds=i * 913)).strftime("%Y-%m-%dT%H:%M:%S.%f") + "123Z"
            out.append(f"{svc}-1  | {stamp} {ln}")
    elif t == 2:
        out = [
            "$ docker-compose up",
            f"Starting {proj}_db_1 ... done",
            f"Recreating {proj}_{svc}_1 ... done",
            f"Attaching to {proj}_db_1, {proj}_{svc}_1",
            f"db_1   | {when(r).strftime('%Y-%m-%d %H:%M:%S.%f')[:-3]} UTC [1] LOG:  database system is ready to accept connections",
            *[f"{svc}_1  | {ln}" for ln in body],
            f"{proj}_{svc}_1 exited with code {code}",
        ]
    elif t == 3:
        out = [
            r.choice([
                f"the {svc} container keeps restarting, logs say:",
                f"`{svc}` service in compose dies on start ({cmd_or(c, 'its entrypoint')} is the command):",
                "compose output (db is fine, it's the app container):",
            ]),
            "",
            *[f"{svc}-1  | {ln}" for ln in keep_key(c.lines, 10, c.key)],
            f"{svc}-1 exited with code {code}",
            f"{svc}-1 exited with code {code}" if r.random() < 0.5 else "",
        ]
    else:
        out = [
            f"$ docker compose run --rm {svc} {cmd_or(c, '')}".rstrip(),
            "[+] Creating 1/0",
            f" ✔ Container {proj}-db-1  Running{' ' * 12}0.0s",
            *body,
        ]
    return "\n".join(ln for ln in out).rstrip("\n")


def _html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def s_flashcard_deck(c: Case, r: random.Random) -> str:
    cmd = cmd_or(c)
    tags = " ".join(sorted({c.tool, r.choice(["errors", "debugging", "linux", "cli", "setup"]), c.file.split(".")[0]}))
    date = when(r).strftime("%Y-%m-%d")
    t = r.randrange(4)
    if t == 0:
        front = f"What does <code>{_html(c.key)}</code> mean after <code>{_html(cmd)}</code>?"
        back = f"Seen {date}. Full output:<br><pre>{'<br>'.join(_html(ln) for ln in keep_key(c.lines, 12, c.key))}</pre>TODO: write down the fix"
        out = ["#separator:tab", "#html:true", "#tags column:3", f"{front}\t{back}\t{tags}"]
    elif t == 1:
        parts = c.key.split(":", 1)
        if len(parts) == 2 and parts[1].strip():
            cloze = f"{{{{c1::{_html(parts[0])}}}}}:{_html(parts[1])}"
        else:
            words = c.key.split()
            k = max(1, len(words) // 2)
            cloze = _html(" ".join(words[:k])) + " {{c1::" + _html(" ".join(words[k:])) + "}}"
        out = [
            "#separator:tab",
            "#html:true",
            "#notetype:Cloze",
            f"Running <code>{_html(cmd)}</code> prints: {cloze}\t{_html(date)} — hit this myself\t{tags}",
        ]
    elif t == 2:
        out = [
            f"{c.key}\tError I get from `{cmd}` ({r.choice(['week 3', 'bootcamp day 9', 'lab 4', 'side project'])}); meaning: ???",
            r.choice([
                "Permission denied\tno rights on the file/dir -- check ls -l",
                "command not found\tthe program isn't installed or not on PATH",
                "No such file or directory\tpath is wrong or file missing",
            ]),
        ]
        if r.random() < 0.5:
            out.reverse()
    else:
        out = [
            f"# {short(c.key, 70)}",
            "",
            f"Where: `{cmd}` in `{c.cwd}`",
            "",
            "```",
            *keep_key(c.lines, 8, c.key),
            "```",
            "---",
            "Why did this happen? (answer after asking in class)",
        ]
    return "\n".join(out)


def _ts(sec: int) -> str:
    h, rem = divmod(sec, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def s_video_chapters(c: Case, r: random.Random) -> str:
    cmd = cmd_or(c)
    topic = r.choice([
        f"Building {c.project} from scratch", f"Setting up {c.project} on a fresh machine",
        f"Live coding: {c.project} part {r.randrange(2, 9)}", f"Debugging {c.project} with viewers",
        f"Beginner {c.tool} walkthrough",
    ])
    start = r.randrange(200, 3000)
    err_at = start + r.randrange(3, 40)
    t = r.randrange(5)
    if t == 0:
        out = [
            f"{topic} (stream VOD)",
            "",
            "Chapters:",
            "0:00 Intro",
            f"{_ts(r.randrange(40, start // 2))} Project setup",
            f"{_ts(start)} First run of `{short(cmd, 60)}`",
            f"{_ts(err_at)} {short(c.key, 95)}",
            f"{_ts(err_at + r.randrange(200, 900))} Digging into the error",
            f"{_ts(err_at + r.randrange(1000, 2400))} Wrap-up",
        ]
    elif t == 1:
        out = [
            topic,
            "",
            f"At {_ts(err_at)} I run `{cmd}` and get this (pasted here since the font is tiny on stream):",
            "",
            *cut(c, r, r.choice([6, 10, 16])),
            "",
            "Timestamps:",
            "00:00 intro",
            f"{_ts(start)} running it",
            f"{_ts(err_at)} the error",
        ]
    elif t == 2:
        user = "@" + r.choice(HN_USERS).replace("_", "")
        out = [
            f"{user} · {r.choice(['2 weeks ago', '3 days ago', '1 month ago', '8 months ago'])}",
            f"{_ts(err_at)} \"{c.key}\" — {r.choice(['same thing happened to me, glad it is not just me', 'got exactly this on my machine too', 'this is where I got stuck as well'])}",
            f"👍 {r.randrange(1, 300)}   Reply",
        ]
    elif t == 3:
        base = r.randrange(600, 9000)
        out = ["Timestamp,Marker description"]
        out.append(f"{_ts(base).rjust(8, '0') if base >= 3600 else '00:' + _ts(base).rjust(5, '0')},start {short(cmd, 40)}")
        mark = base + r.randrange(5, 60)
        desc = short(c.key, 140).replace('"', '""')
        out.append(f"{'00:' + _ts(mark).rjust(5, '0') if mark < 3600 else _ts(mark).rjust(8, '0')},\"{desc}\"")
        out.insert(0, r.choice(["stream markers export from last night:", "markers.csv (Twitch export)", ""]))
        out = [ln for ln in out if ln]
    else:
        out = [
            f"{topic} — pinned comment",
            "",
            f"Correction: at {_ts(err_at)} the output was cut off by my overlay. Full text:",
            "",
            f"$ {cmd}",
            *keep_key(c.lines, 12, c.key),
        ]
    return "\n".join(out)


STYLE_FUNCS = {
    "make_recursive": s_make_recursive,
    "gitlab_mr_thread": s_gitlab_mr_thread,
    "jenkins_console": s_jenkins_console,
    "k8s_events": s_k8s_events,
    "git_hook": s_git_hook,
    "crash_reporter": s_crash_reporter,
    "fluent_record": s_fluent_record,
    "systemd_run": s_systemd_run,
    "tox_nox": s_tox_nox,
    "provisioner_log": s_provisioner_log,
    "hn_comment": s_hn_comment,
    "bugzilla_report": s_bugzilla_report,
    "nix_build": s_nix_build,
    "compose_logs": s_compose_logs,
    "flashcard_deck": s_flashcard_deck,
    "video_chapters": s_video_chapters,
}


def deal_styles(n_cases: int, rng: random.Random) -> list[tuple[str, str]]:
    """Two different styles per case, style counts balanced to within one."""
    pool: list[str] = []
    while len(pool) < 2 * n_cases:
        deck = list(STYLES)
        rng.shuffle(deck)
        pool.extend(deck)
    return [(pool[2 * i], pool[2 * i + 1]) for i in range(n_cases)]


def main() -> None:
    assert set(STYLE_FUNCS) == set(STYLES) and len(STYLES) == 16
    cases = load_cases()
    rng = random.Random(SEED)
    pairs = deal_styles(len(cases), rng)
    rows = []
    for case, pair in zip(cases, pairs, strict=True):
        for style in pair:
            row_rng = random.Random(zlib.crc32(f"{case.file}:{case.index}:{style}".encode()) ^ SEED)
            text = STYLE_FUNCS[style](case, row_rng).strip("\n")
            rows.append({"file": case.file, "case": case.index, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["style"]] = counts.get(row["style"], 0) + 1
    print(f"wrote {len(rows)} rows for {len(cases)} cases to {os.path.relpath(OUT, ROOT)}")
    for style in STYLES:
        print(f"  {style:18} {counts.get(style, 0)}")


if __name__ == "__main__":
    main()
