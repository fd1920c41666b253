#!/usr/bin/env python3
"""Write bench/help_phrasings_ninth.jsonl, the ninth blind phrasing set.

What it writes
--------------
One JSON object per line:

    {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}

``file`` is the base name of a TOML file under bench/help_cases/ or
bench/help_heldout/ (set*.toml), ``case`` the 0-based index of a ``[[case]]``
table inside it, ``style`` one of the 16 media below, and ``text`` one
observation of somebody hitting that case's error, usually right after
running its command, shown the way that medium really shows it (prompts,
escapes, timestamps, markup, quoting).  Every case gets exactly two rows in
two different styles.  Styles are dealt from a seeded sequence of shuffled
16-style decks, two cards per case, so style counts differ by at most one.
All randomness comes from random.Random with fixed seeds (one per row), so
rerunning the script gives byte-identical output.

The 16 styles (all media new to the project)
--------------------------------------------
script_typescript  a script(1) typescript: header, coloured prompt, CRs,
                   backspaces, bracketed-paste markers, "Script done" line.
fancy_prompt       terminal copy under starship, oh-my-zsh, powerlevel10k,
                   agnoster, fish or zsh right-prompts with times/exit codes.
remote_shell       nested sessions: ssh (and jump hosts), docker exec,
                   kubectl exec, vagrant/lxc shells, prompts changing inside.
junit_xml          JUnit XML report from a CI step, failure text XML-escaped
                   (&lt; &gt; &amp; &quot; &#10;), system-err blocks.
tap_output         TAP 13/14 from node-tap, bats or prove, with YAML
                   diagnostic blocks or "# " diagnostics.
ci_raw_log         raw job logs from GitLab CI, Azure Pipelines, CircleCI or
                   Buildkite with their section markers and ANSI escapes.
docker_classic     legacy (non-BuildKit) docker build output, "Step 4/9 : RUN",
                   "---> Running in", "returned a non-zero code".
config_mgmt        Salt state output, Puppet agent runs, Chef client
                   ShellCommandFailed blocks.
distro_build       Debian sbuild / dpkg-buildpackage and rpmbuild / mock
                   build logs failing in the build step.
gerrit_review      a Gerrit change page copied as text: Verified-1 from a CI
                   bot with a log excerpt, reviewer replies and inline notes.
matrix_chat        Matrix/Element room copies and exports, several people,
                   replies ("In reply to"), ``` code blocks.
telegram_json      a fragment of a Telegram Desktop JSON chat export with
                   "pre"/"code" text entities.
rst_asciidoc       reStructuredText or AsciiDoc notes and troubleshooting
                   pages with console/listing blocks and admonitions.
exam_question      quiz, exam, homework or lab-report text built around the
                   command and its output.
postmortem_doc     incident postmortem / retrospective with summary, impact,
                   UTC timeline, "the job logged:" excerpt, action items.
mastodon_thread    a Mastodon/fediverse thread copied from the web: handles,
                   boosts, content warnings, hashtags, alt text, replies.

Blind writing
-------------
The writer of this script read only the ``error`` and ``command`` keys of
each ``[[case]]`` table in bench/help_cases/*.toml and
bench/help_heldout/set*.toml (loaded with tomllib; no other key was looked
at), plus a few ProactiveBench session files for tone.  No other file of the
project was read (no code, docs, tests, other phrasing sets or writer
scripts), no git history was consulted, and no project code was run.  The
script itself likewise reads only those two keys.
"""

import calendar
import glob
import json
import os
import random
import re
import textwrap
import tomllib
from datetime import datetime, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "help_phrasings_ninth.jsonl")
SEED = 909_2025

STYLES = [
    "script_typescript", "fancy_prompt", "remote_shell", "junit_xml",
    "tap_output", "ci_raw_log", "docker_classic", "config_mgmt",
    "distro_build", "gerrit_review", "matrix_chat", "telegram_json",
    "rst_asciidoc", "exam_question", "postmortem_doc", "mastodon_thread",
]

ESC = "\x1b"

# ---------------------------------------------------------------- pools
NAMES = [
    "Alice Nguyen", "Bob Kowalski", "Carmen Ruiz", "Dmitri Volkov",
    "Priya Raman", "Tomás Herrera", "Yuki Tanaka", "Fatima Zahra",
    "Liam O'Connor", "Sofia Rossi", "Kwame Mensah", "Hannah Becker",
    "Arjun Mehta", "Mei Lin", "Oliver Grant", "Noor Haddad", "Lars Eriksen",
    "Isabel Costa", "Mateo García", "Chloé Martin", "Jonas Weber",
    "Ayesha Siddiqui", "Ravi Iyer", "Emma Johansson", "Kenji Watanabe",
    "Zanele Dlamini", "Pavel Novak", "Grace Okafor", "Diego Alvarez",
    "Leah Goldberg", "Sven Lindqvist", "Amira Saleh", "Ethan Brooks",
    "Nadia Petrova", "Omar Farouk", "Julia Schmidt", "Hiro Sato",
    "Tariq Aziz", "Rosa Jiménez", "Femi Adeyemi", "Anja Horvat",
    "Marek Dvořák", "Camille Laurent", "Wen Zhao", "Siobhan Murphy",
]
LASTS = ["Okoye", "Fischer", "Moreau", "Silva", "Kaur", "Park", "Novak",
         "Mendes", "Hughes", "Sato", "Ivanova", "Reyes", "Adler", "Banda"]
PROJECTS = [
    "ledgerline", "tinyqueue", "pagewright", "orbit-api", "harbor-sync",
    "inkwell", "fieldnotes", "cartwheel", "lumen", "quarry", "beacon",
    "driftwood", "paperboat", "kestrel", "mosaic", "tallyho", "greenhouse",
    "signalbox", "waypoint", "bramble", "stockroom", "nightjar", "atlas-web",
]
HOSTS = ["devbox", "thinkpad", "x1", "workstation", "nuc", "framework",
         "buildbox", "ubuntu", "debian", "fedora", "lab-pc-14", "mbp-vm"]
SERVERS = ["web-03", "app-01", "staging-2", "build-07", "db-02", "edge-1",
           "worker-5", "ci-runner-3", "jump-1", "api-04", "batch-02"]
DOMAINS = ["acme.dev", "corp.internal", "example.net", "lab.local",
           "intra.kestrel.io", "infra.orbit.cloud"]
ORGS = ["acme", "platform", "orbit", "kestrel-labs", "greenhouse", "infra"]
TZS = ["+00:00", "+01:00", "+02:00", "-04:00", "-07:00", "+05:30", "+09:00"]

LANG_INFO = {
    # lang: (starship module, docker base image, hashtags, distro build dep)
    "python": ("via 🐍 v3.11.7 ", "python:3.11-slim", "#Python #programming", "python3-all"),
    "node": ("via ⬢ v20.11.1 ", "node:20-bookworm", "#NodeJS #JavaScript", "nodejs"),
    "rust": ("via 🦀 v1.77.2 ", "rust:1.77", "#RustLang", "cargo"),
    "go": ("via 🐹 v1.22.1 ", "golang:1.22", "#golang", "golang-go"),
    "ruby": ("via 💎 v3.2.3 ", "ruby:3.2", "#Ruby #Rails", "ruby"),
    "java": ("via ☕ v17.0.10 ", "maven:3.9-eclipse-temurin-17", "#Java #JVM", "default-jdk"),
    "c": ("via △ v3.28.3 ", "gcc:13", "#C #gcc", "build-essential"),
    "docker": ("via 🐳 ", "docker:25-cli", "#Docker #containers", "docker.io"),
    "k8s": ("on ☸ kind-dev ", "bitnami/kubectl:1.29", "#Kubernetes #k8s", "kubernetes-client"),
    "db": ("", "postgres:16", "#PostgreSQL #databases", "postgresql-client"),
    "ssh": ("", "debian:bookworm", "#SSH #sysadmin", "openssh-client"),
    "systemd": ("", "debian:bookworm", "#systemd #Linux", "systemd"),
    "tls": ("", "alpine:3.19", "#TLS #OpenSSL", "openssl"),
    "git": ("", "alpine/git:2.43.0", "#git", "git"),
    "shell": ("", "ubuntu:22.04", "#bash #Linux", "bash"),
}
FIRST_WORD_LANG = [
    (("python", "python3", "pip", "pip3", "pyhton3", "pytest", "python3.12",
      "poetry", "flask", "uvicorn"), "python"),
    (("node", "npm", "npx", "yarn", "tsc", "pnpm"), "node"),
    (("cargo", "rustc", "rustup"), "rust"),
    (("go",), "go"),
    (("bundle", "ruby", "rails", "bin/rails", "gem", "rbenv", "rake"), "ruby"),
    (("javac", "java", "mvn", "gradle", "./gradlew", "./mvnw"), "java"),
    (("gcc", "g++", "make", "cmake", "pkg-config", "clang", "cc"), "c"),
    (("docker",), "docker"),
    (("kubectl", "helm", "minikube"), "k8s"),
    (("psql", "mysql", "sqlite3", "pg_dump", "mongosh", "redis-cli"), "db"),
    (("ssh", "scp", "ssh-add", "ssh-copy-id", "rsync", "sftp"), "ssh"),
    (("systemctl", "journalctl"), "systemd"),
    (("openssl", "curl", "certbot", "wget"), "tls"),
    (("git", "gti"), "git"),
]
SRC_EXT = (".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".go", ".rs", ".c",
           ".cc", ".cpp", ".h", ".java", ".sh", ".erb", ".kt")


# ---------------------------------------------------------------- helpers
def epoch(dt):
    """Seconds since the epoch, reading the naive datetime as UTC (TZ-independent)."""
    return calendar.timegm(dt.timetuple())


def rand_dt(rng):
    base = datetime(2024, 1, 8, 0, 0, 0)
    return base + timedelta(seconds=rng.randint(0, 700 * 86400))


def hexs(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def alnum(rng, n):
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(n))


def ascii_fold(s):
    table = str.maketrans("áàéèíóöúüñçčřšžěůåäøłõã", "aaeeioouunccrszeuaaoloa")
    return s.lower().translate(table)


def handle_of(name, rng=None):
    first, _, last = name.partition(" ")
    h = re.sub(r"[^a-z0-9]", "", ascii_fold(first))
    if rng is not None:
        k = rng.random()
        if k < 0.3:
            h += re.sub(r"[^a-z]", "", ascii_fold(last))[:1]
        elif k < 0.45:
            h += str(rng.randint(2, 99))
        elif k < 0.6:
            h = h[0] + re.sub(r"[^a-z]", "", ascii_fold(last))
    return h


def slug(s, n=40):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")[:n].strip("-") or "step"


def lang_of(cmd):
    words = cmd.split()
    while words and (words[0] == "sudo" or "=" in words[0] or words[0] in ("cd", "&&", "env")):
        if words[0] == "cd" and "&&" in words:
            words = words[words.index("&&") + 1:]
            continue
        words = words[1:]
    w = words[0] if words else ""
    for firsts, lang in FIRST_WORD_LANG:
        if w in firsts:
            return lang
    return "shell"


def key_line(err):
    lines = [ln.strip() for ln in err.splitlines() if ln.strip()]
    pat = re.compile(r"(rror|ERROR|fatal|FATAL|[Ff]ailed|denied|refused|not found|"
                     r"No such|[Cc]annot|[Cc]ould not|xception|panic|abort|invalid|"
                     r"[Uu]nable|missing|undefined|E\d{3,4}|mismatch)")
    skip = ("at ", "Node.js v", "npm error A complete log", "(Use `node", "note:",
            "help:", "hint:", "Run '", "See '", "For more information")
    cands = [ln for ln in lines if pat.search(ln) and not ln.startswith(skip)]
    if not cands:
        cands = lines or [err.strip()]
    if "Traceback" in err or "panic:" in err:
        pick = cands[-1]
    else:
        pick = cands[0]
    return pick if len(pick) <= 150 else pick[:147] + "..."


def exit_code(cmd, err, lang):
    last = err.strip().splitlines()[-1] if err.strip() else ""
    m = re.search(r"curl: \((\d+)\)", err)
    if m:
        return int(m.group(1))
    words = [w for w in cmd.split() if w != "sudo" and "=" not in w]
    first = os.path.basename(words[0]) if words else ""
    for ln in err.splitlines():
        if ("command not found" in ln or ln.rstrip().endswith(": not found")) and first and first in ln:
            return 127
    if re.search(r"^(ba)?sh: .*: Permission denied", err, re.M):
        return 126
    if lang == "rust" and cmd.split()[0] == "cargo":
        return 101
    if "make: ***" in err or "make[1]: ***" in err:
        return 2
    if lang == "ssh" and cmd.split()[0] == "ssh" and ("Permission denied (" in err or
                                                      "ssh:" in err or "Host key" in err):
        return 255
    if lang == "git" and "fatal:" in err:
        return 128
    if lang == "docker" and "Error response from daemon" in err and " run" in cmd:
        return 125
    if lang == "systemd" and "not found" in last:
        return 5
    if "psql: error: connection" in err:
        return 2
    return 1


def infer_location(cmd, err):
    m = re.search(r"/home/([a-z][a-z0-9_-]*)/", err)
    user = m.group(1) if m else None
    cwd = None
    for p in re.findall(r"/home/[a-z][a-z0-9_-]*/[^\s'\"():,]+", err):
        parts = p.split("/")
        if any(seg.startswith(".") for seg in parts[3:]) or not p.endswith(SRC_EXT):
            continue
        for tok in (cmd or "").split():
            t = tok.lstrip("./") if tok.startswith("./") else tok
            if "/" in t and p.endswith("/" + t):
                cwd = p[: -(len(t) + 1)]
                break
        if not cwd:
            cwd = os.path.dirname(p)
        break
    return user, cwd


def infer_command(err):
    m = re.search(r'File "(/[^"]+\.py)"', err)
    if m:
        return "python3 " + os.path.basename(m.group(1))
    return "python3 main.py"


class Case:
    def __init__(self, fname, idx, error, command):
        self.file = fname
        self.idx = idx
        self.error = error.rstrip("\n").rstrip()
        self.command = (command or infer_command(error)).strip()
        self.lang = lang_of(self.command)
        self.code = exit_code(self.command, self.error, self.lang)
        self.err_user, self.err_cwd = infer_location(self.command, error)

    def ctx(self, rng):
        """Per-row context: user, host, project, cwd."""
        user = self.err_user or rng.choice(["dev", "dev", "alex", "sam", "kim", "jo", "ci", "mara", "theo"])
        if self.err_cwd and self.err_cwd.rstrip("/") != f"/home/{user}":
            cwd = self.err_cwd
            proj = os.path.basename(cwd)
        else:
            proj = rng.choice(PROJECTS)
            cwd = f"/home/{user}/" + rng.choice(["", "", "code/", "src/", "projects/", "work/"]) + proj
        home = f"/home/{user}"
        tilde = "~" + cwd[len(home):] if cwd.startswith(home) else cwd
        if user == "dev":
            person = rng.choice(NAMES)
        else:
            person = user.capitalize() + " " + rng.choice(LASTS)
        return {"user": user, "host": rng.choice(HOSTS), "proj": proj, "cwd": cwd,
                "tilde": tilde, "person": person}


def lines_of(err):
    return err.split("\n")


def indent(text, pre):
    return "\n".join((pre + ln) if ln.strip() else pre.rstrip() for ln in text.split("\n"))


def indent_keep(text, pre):
    return "\n".join(pre + ln for ln in text.split("\n"))


def crlf(text):
    return text.replace("\n", "\r\n")


def partial(rng, err, p):
    """Occasionally quote only part of a long error, as people do."""
    ls = lines_of(err)
    if len(ls) <= 10 or rng.random() >= p:
        return err, False
    if rng.random() < 0.6:
        return "\n".join(ls[-rng.randint(3, 6):]), True
    return "\n".join(ls[:3] + ["[...]"] + ls[-4:]), True


def protect(s):
    return s.replace(" ", "\u00a0").replace("-", "\u2011")


def unprotect(s):
    return s.replace("\u00a0", " ").replace("\u2011", "-")


def wrap(text, width=72, pre=""):
    """Wrap prose; inline spans marked by protect() survive unbroken."""
    out = textwrap.fill(text, width=width, initial_indent=pre, subsequent_indent=pre,
                        break_long_words=False, break_on_hyphens=False)
    return unprotect(out)


def sudo_pre(rng, c, ctx):
    if c.command.startswith("sudo ") and rng.random() < 0.45 and "[sudo]" not in c.error:
        return f"[sudo] password for {ctx['user']}: \n"
    return ""


# ================================================================ styles
# ---------------------------------------------------------------- 1
def typo_echo(rng, cmd):
    r = rng.random()
    if r < 0.18 and len(cmd) > 5:
        k = rng.randint(2, len(cmd) - 2)
        wrong = rng.choice("qwertyuiopasdfghjklzxcvbnm")
        return cmd[:k] + wrong + "\b" + ESC + "[K" + cmd[k:]
    if r < 0.30:
        return ESC + "[7m" + cmd + ESC + "[27m" + "\b" * len(cmd) + cmd
    return cmd


def s_script_typescript(rng, c):
    x = c.ctx(rng)
    dt = rand_dt(rng)
    tz = rng.choice(TZS)
    cols, rows = rng.choice([(80, 24), (120, 36), (160, 48), (211, 52), (100, 30)])
    tty = f"/dev/pts/{rng.randint(0, 12)}"
    end = dt + timedelta(seconds=rng.randint(5, 400))
    out = crlf(sudo_pre(rng, c, x) + c.error)
    u, h = x["user"], x["host"]
    title = f"{ESC}]0;{u}@{h}: {x['tilde']}\x07"
    prompt = f"{ESC}[01;32m{u}@{h}{ESC}[00m:{ESC}[01;34m{x['tilde']}{ESC}[00m$ "
    home_prompt = f"{ESC}]0;{u}@{h}: ~\x07{ESC}[01;32m{u}@{h}{ESC}[00m:{ESC}[01;34m~{ESC}[00m$ "
    bp_on, bp_off = f"{ESC}[?2004h", f"{ESC}[?2004l\r"
    v = rng.random()
    if v < 0.2:
        head = (f'Script started on {dt:%Y-%m-%d %H:%M:%S}{tz} [COMMAND="{c.command}" '
                f'TERM="xterm-256color" TTY="{tty}" COLUMNS="{cols}" LINES="{rows}"]')
        body = out + "\r\n"
        foot = f'Script done on {end:%Y-%m-%d %H:%M:%S}{tz} [COMMAND_EXIT_CODE="{c.code}"]'
        return head + "\n" + body + "\n" + foot + "\n"
    body = ""
    if rng.random() < 0.4:
        body += bp_on + home_prompt + "cd " + x["tilde"] + "\r\n" + bp_off
    body += bp_on + title + prompt + typo_echo(rng, c.command) + "\r\n" + bp_off + out + "\r\n"
    last = c.code
    if rng.random() < 0.3:
        body += bp_on + title + prompt + "echo $?\r\n" + bp_off + f"{c.code}\r\n"
        last = 0
    body += bp_on + title + prompt + "exit\r\n" + bp_off + "exit\r\n"
    if v < 0.85:
        head = (f'Script started on {dt:%Y-%m-%d %H:%M:%S}{tz} [TERM="xterm-256color" '
                f'TTY="{tty}" COLUMNS="{cols}" LINES="{rows}"]')
        foot = f'Script done on {end:%Y-%m-%d %H:%M:%S}{tz} [COMMAND_EXIT_CODE="{last}"]'
    else:
        tzname = rng.choice(["UTC", "CET", "EST", "IST", "JST"])
        head = f"Script started on {dt:%a %d %b %Y %I:%M:%S %p} {tzname}"
        foot = f"Script done on {end:%a %d %b %Y %I:%M:%S %p} {tzname}"
    return head + "\n" + body + "\n" + foot + "\n"


# ---------------------------------------------------------------- 2
def s_fancy_prompt(rng, c):
    x = c.ctx(rng)
    err = sudo_pre(rng, c, x) + c.error
    proj, tilde, u, h = x["proj"], x["tilde"], x["user"], x["host"]
    branch = rng.choice(["main", "main", "master", "dev", f"feat/{slug(rng.choice(PROJECTS), 12)}",
                         f"fix-{rng.randint(10, 999)}", "wip"])
    dirty = rng.random() < 0.6
    dt = rand_dt(rng)
    t1 = dt.strftime("%H:%M:%S")
    t2 = (dt + timedelta(seconds=rng.randint(1, 40))).strftime("%H:%M:%S")
    took = rng.choice(["2s", "3s", "1s", "12s", "4s", "1m3s", "7s"])
    v = rng.randrange(6)
    if v == 0:  # starship
        mod = LANG_INFO[c.lang][0]
        status = rng.choice(["[!?] ", "[!] ", "[?] ", "[⇡1] ", ""]) if dirty else ""
        line = f"{proj} on  {branch} {status}{mod}"
        return (f"{line}\n❯ {c.command}\n{err}\n\n{line}took {took} \n❯ ")
    if v == 1:  # oh-my-zsh robbyrussell
        mark = " ✗" if dirty else ""
        return f"➜  {proj} git:({branch}){mark} {c.command}\n{err}\n➜  {proj} git:({branch}){mark} "
    if v == 2:  # powerlevel10k two-line
        st = f" !{rng.randint(1, 5)}" if dirty else ""
        st += f" ?{rng.randint(1, 3)}" if rng.random() < 0.4 else ""
        left = f"╭─  {tilde}   {branch}{st} "
        width = rng.choice([100, 110, 120])
        r1 = f" ✔  {t1}  "
        r2 = f" {c.code} ✘  {took}  {t2}  "
        fill1 = "·" * max(3, width - len(left) - len(r1))
        fill2 = "·" * max(3, width - len(left) - len(r2))
        return (f"{left}{fill1}{r1}\n╰─ {c.command}\n{err}\n{left}{fill2}{r2}\n╰─ ")
    if v == 3:  # agnoster
        mark = " ±" if dirty else ""
        return (f" {u}@{h}  {tilde}   {branch}{mark}  {c.command}\n{err}\n"
                f" ✘  {u}@{h}  {tilde}   {branch}{mark}  ")
    if v == 4:  # fish
        parts = tilde.split("/")
        short = "/".join([p if i in (0, len(parts) - 1) else p[:1] for i, p in enumerate(parts)])
        return (f"{u}@{h} {short} ({branch})> {c.command}\n{err}\n"
                f"{u}@{h} {short} ({branch}) [{c.code}]> ")
    # zsh with RPROMPT on the same line
    width = rng.choice([96, 110, 132])
    left = f"[{u}@{h} {proj}]% "
    l1 = left + c.command
    r1 = f"[{t1}]"
    r2 = f"{c.code} ↵  [{t2}]"
    pad1 = " " * max(2, width - len(l1) - len(r1))
    pad2 = " " * max(2, width - len(left) - len(r2))
    return f"{l1}{pad1}{r1}\n{err}\n{left}{pad2}{r2}"


# ---------------------------------------------------------------- 3
def motd(rng, host):
    dist = rng.choice([
        ("Ubuntu 22.04.4 LTS", "5.15.0-105-generic"), ("Ubuntu 24.04.1 LTS", "6.8.0-45-generic"),
        ("Debian GNU/Linux 12 (bookworm)", "6.1.0-18-amd64")])
    dt = rand_dt(rng)
    ip = f"10.{rng.randint(0, 40)}.{rng.randint(0, 255)}.{rng.randint(2, 250)}"
    if dist[0].startswith("Ubuntu"):
        return (f"Welcome to {dist[0]} (GNU/Linux {dist[1]} x86_64)\n\n"
                f" * Documentation:  https://help.ubuntu.com\n"
                f" * Management:     https://landscape.canonical.com\n"
                f" * Support:        https://ubuntu.com/pro\n\n"
                f"Last login: {dt:%a %b %d %H:%M:%S %Y} from {ip}\n")
    return (f"Linux {host} {dist[1]} #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64\n\n"
            "The programs included with the Debian GNU/Linux system are free software;\n"
            "the exact distribution terms for each program are described in the\n"
            "individual files in /usr/share/doc/*/copyright.\n\n"
            f"Last login: {dt:%a %b %d %H:%M:%S %Y} from {ip}\n")


def s_remote_shell(rng, c):
    x = c.ctx(rng)
    err = c.error
    lu, lh = rng.choice(["me", "alex", "sam", "kim", "jo", x["user"]]), rng.choice(HOSTS)
    local = f"{lu}@{lh}:~$ "
    dom = rng.choice(DOMAINS)
    srv = rng.choice(SERVERS)
    has_home = "/home/" in err
    kinds = ["ssh", "jump", "vagrant"] if has_home else ["ssh", "jump", "docker", "kubectl", "lxc", "docker"]
    if c.lang in ("docker", "k8s", "systemd", "ssh"):
        kinds = ["ssh", "jump", "vagrant"]
    kind = rng.choice(kinds)
    ru = x["user"]
    rp = f"{ru}@{srv}:{x['tilde']}$ "
    pre_cd = x["tilde"] != "~"
    cmdline = c.command
    if kind == "ssh":
        s = f"{local}ssh {ru}@{srv}.{dom}\n" + motd(rng, srv)
        if pre_cd:
            s += f"{ru}@{srv}:~$ cd {x['tilde']}\n"
        s += f"{rp}{cmdline}\n" + sudo_pre(rng, c, x) + err + f"\n{rp}exit\nlogout\nConnection to {srv}.{dom} closed.\n{local}"
        return s
    if kind == "jump":
        jump = rng.choice(["bastion", "jump-1", "gw"])
        s = (f"{local}ssh -J {lu}@{jump}.{dom} {ru}@{srv}.internal\n" + motd(rng, srv))
        if pre_cd:
            s += f"{ru}@{srv}:~$ cd {x['tilde']}\n"
        s += f"{rp}{cmdline}\n" + err + f"\n{rp}"
        return s
    if kind == "vagrant":
        box = rng.choice(["ubuntu-jammy", "bookworm", "devvm", "vagrant"])
        vp = f"vagrant@{box}:{('/vagrant' if rng.random() < 0.5 else '~')}$ "
        s = (f"{local}cd ~/vms/{x['proj']} && vagrant ssh\n" + motd(rng, box) +
             f"{vp}{cmdline}\n{err}\n{vp}logout\nConnection to 127.0.0.1 closed.\n")
        return s
    if kind == "docker":
        cid = hexs(rng, 12)
        wd = rng.choice(["/app", "/usr/src/app", "/srv/" + x["proj"], "/workspace"])
        cname = f"{x['proj']}-{rng.choice(['app', 'web', 'api', 'worker'])}-1"
        outer = f"{ru}@{srv}:~/{x['proj']}$ "
        s = f"{local}ssh {srv}\n{outer}docker exec -it {cname} bash\n" if rng.random() < 0.5 else f"{local}docker exec -it {cname} bash\n"
        ip = f"root@{cid}:{wd}# "
        s += f"{ip}{cmdline.removeprefix('sudo ')}\n{err}\n{ip}exit\nexit\n"
        s += outer if s.startswith(local + "ssh") else local
        return s
    if kind == "kubectl":
        ns = rng.choice(["staging", "dev", "default", "prod", x["proj"]])
        pod = f"{x['proj']}-{hexs(rng, 9)}-{alnum(rng, 5).lower()}"
        shell = rng.choice(["sh", "bash"])
        s = f"{local}kubectl -n {ns} exec -it {rng.choice(['deploy/' + x['proj'], pod])} -- {shell}\n"
        if shell == "sh":
            ip = rng.choice(["/app $ ", "/app # ", "~ $ "])
        else:
            ip = f"root@{pod}:/app# "
        s += f"{ip}{cmdline.removeprefix('sudo ')}\n{err}\n{ip}exit\n"
        if rng.random() < 0.4:
            s += f"command terminated with exit code {c.code}\n"
        return s + local
    # lxc
    ct = rng.choice(["build", "sandbox", "jammy-test", x["proj"]])
    ip = f"root@{ct}:~# "
    return (f"{local}lxc exec {ct} -- bash\n{ip}cd /root/{x['proj']}\n"
            f"root@{ct}:~/{x['proj']}# {cmdline.removeprefix('sudo ')}\n{err}\nroot@{ct}:~/{x['proj']}# ")


# ---------------------------------------------------------------- 4
def xml_text(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_attr(s):
    return xml_text(s).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


def s_junit_xml(rng, c):
    x = c.ctx(rng)
    dt = rand_dt(rng)
    ts = dt.strftime("%Y-%m-%dT%H:%M:%S")
    host = rng.choice(["runner-" + alnum(rng, 8).lower(), "fv-az" + str(rng.randint(100, 999)) + "-" + str(rng.randint(100, 999)),
                       "ip-10-0-" + str(rng.randint(1, 250)) + "-" + str(rng.randint(1, 250)), "jenkins-agent-" + str(rng.randint(1, 9))])
    n_ok = rng.randint(1, 6)
    tt = round(rng.uniform(0.5, 90), 3)
    oks = [rng.choice(["checkout", "setup toolchain", "restore cache", "lint", "format check",
                       "unit", "install dependencies", "typecheck", "license scan"]) for _ in range(n_ok)]
    oks = list(dict.fromkeys(oks))
    v = rng.randrange(4)
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n'
    if v == 0:  # shell step wrapper
        suite = rng.choice(["ci-steps", "smoke", "build", "verify"])
        xml += f'<testsuites name="{x["proj"]}" tests="{len(oks) + 1}" failures="1" errors="0" time="{tt}">\n'
        xml += (f'  <testsuite name="{suite}" tests="{len(oks) + 1}" failures="1" errors="0" skipped="0" '
                f'timestamp="{ts}" hostname="{host}" time="{tt}">\n')
        for o in oks:
            xml += f'    <testcase classname="{suite}" name="{o}" time="{round(rng.uniform(0.1, 20), 3)}"/>\n'
        xml += (f'    <testcase classname="{suite}" name="{xml_attr(c.command)}" time="{round(rng.uniform(0.2, 30), 3)}">\n'
                f'      <failure message="command exited with status {c.code}" type="ExitStatus">'
                f'$ {xml_text(c.command)}\n{xml_text(c.error)}\n</failure>\n'
                f'    </testcase>\n  </testsuite>\n</testsuites>\n')
        return xml
    if v == 1:  # pytest wrapping subprocess
        tname = "test_" + slug(c.command, 30).replace("-", "_")
        xml += (f'<testsuites><testsuite name="pytest" errors="0" failures="1" skipped="0" tests="{len(oks) + 1}" '
                f'time="{tt}" timestamp="{ts}.{rng.randint(100000, 999999)}" hostname="{host}">')
        for o in oks:
            xml += f'<testcase classname="tests.test_pipeline" name="test_{slug(o).replace("-", "_")}" time="{round(rng.uniform(0.01, 3), 3)}" />'
        msg = f"subprocess.CalledProcessError: Command '{c.command}' returned non-zero exit status {c.code}."
        xml += (f'<testcase classname="tests.test_smoke" name="{tname}" time="{round(rng.uniform(0.2, 30), 3)}">'
                f'<failure message="{xml_attr(msg)}">def {tname}():\n'
                f'&gt;       subprocess.run({xml_text(repr(c.command))}, shell=True, check=True, capture_output=True, text=True)\n\n'
                f'tests/test_smoke.py:{rng.randint(8, 90)}: \n'
                f'E   {xml_text(msg)}</failure>'
                f'<system-err>{xml_text(c.error)}\n</system-err></testcase></testsuite></testsuites>')
        return xml
    if v == 2:  # jest-junit
        title = f"runs {c.command}"
        xml += (f'<testsuites name="jest tests" tests="{len(oks) + 1}" failures="1" errors="0" time="{tt}">\n'
                f'  <testsuite name="cli smoke" errors="0" failures="1" skipped="0" timestamp="{ts}" time="{tt}" tests="{len(oks) + 1}">\n')
        for o in oks:
            xml += f'    <testcase classname="cli smoke {o}" name="cli smoke {o}" time="{round(rng.uniform(0.01, 3), 3)}">\n    </testcase>\n'
        body = f"Error: Command failed: {c.command}\n{c.error}\n    at ChildProcess.exithandler (node:child_process:422:12)"
        xml += (f'    <testcase classname="cli smoke {xml_attr(title)}" name="cli smoke {xml_attr(title)}" time="{round(rng.uniform(0.2, 20), 3)}">\n'
                f'      <failure>{xml_text(body)}</failure>\n    </testcase>\n  </testsuite>\n</testsuites>')
        return xml
    # go-junit-report / gotestsum style, encoding/xml escapes newlines in text
    pkg = f"github.com/{rng.choice(ORGS)}/{x['proj']}/e2e"
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n'
    xml += (f'<testsuites tests="{len(oks) + 1}" failures="1" errors="0" time="{tt}">\n'
            f'\t<testsuite tests="{len(oks) + 1}" failures="1" time="{tt}" name="{pkg}" timestamp="{ts}">\n'
            f'\t\t<properties>\n\t\t\t<property name="go.version" value="go1.22.1 linux/amd64"></property>\n\t\t</properties>\n')
    for o in oks:
        xml += f'\t\t<testcase classname="{pkg}" name="Test{slug(o).title().replace("-", "")}" time="{round(rng.uniform(0.0, 2), 2)}"></testcase>\n'
    out = f"    e2e_test.go:{rng.randint(20, 140)}: $ {c.command}\n" + indent_keep(c.error, "        ") + f"\n    e2e_test.go:{rng.randint(20, 140)}: exit status {c.code}\n"
    xml += (f'\t\t<testcase classname="{pkg}" name="TestCLI/{slug(c.command, 24)}" time="{round(rng.uniform(0.1, 9), 2)}">\n'
            f'\t\t\t<failure message="Failed" type="">{xml_attr(out)}</failure>\n\t\t</testcase>\n'
            f'\t</testsuite>\n</testsuites>\n')
    return xml


# ---------------------------------------------------------------- 5
def yaml_sq(s):
    return "'" + s.replace("'", "''") + "'"


def s_tap_output(rng, c):
    x = c.ctx(rng)
    n = rng.randint(3, 9)
    k = rng.randint(1, n)
    names = ["checkout is clean", "toolchain present", "dependencies install", "config parses",
             "lint passes", "migrations apply", "server starts", "healthcheck responds", "docs build"]
    rng.shuffle(names)
    v = rng.randrange(3)
    if v == 0:  # TAP 13 YAML
        out = "TAP version 13\n"
        for i in range(1, k):
            out += f"ok {i} - {names[i % len(names)]}\n"
        out += (f"not ok {k} - {c.command} exits 0\n  ---\n"
                f"  message: {yaml_sq('command failed with exit code ' + str(c.code))}\n"
                f"  severity: fail\n  data:\n    command: {yaml_sq(c.command)}\n"
                f"    cwd: {yaml_sq(x['cwd'])}\n    exitcode: {c.code}\n"
                f"  stderr: |-\n{indent_keep(c.error, '    ')}\n"
                f"  at:\n    file: test/smoke.t.js\n    line: {rng.randint(10, 80)}\n  ...\n")
        for i in range(k + 1, n + 1):
            out += f"ok {i} - {names[i % len(names)]} # SKIP previous step failed\n"
        out += f"1..{n}\n# failed 1 of {n} tests\n# time={rng.randint(200, 9000)}ms\n"
        return out
    if v == 1:  # bats
        fname = rng.choice(["test/smoke.bats", "tests/cli.bats", "t/build.bats"])
        out = f"1..{n}\n"
        for i in range(1, k):
            out += f"ok {i} {names[i % len(names)]}\n"
        out += (f"not ok {k} {rng.choice(['runs', 'builds with', 'can run'])} {c.command}\n"
                f"# (in test file {fname}, line {rng.randint(8, 60)})\n"
                f"#   `[ \"$status\" -eq 0 ]' failed\n"
                + indent_keep(c.error, "# ") + "\n")
        for i in range(k + 1, n + 1):
            out += f"ok {i} {names[i % len(names)]}\n"
        return out
    # prove / Test::More
    tf = rng.choice(["t/02-build.t", "t/10-cli.t", "xt/smoke.t"])
    out = f"{tf} .. \n"
    for i in range(1, k):
        out += f"ok {i} - {names[i % len(names)]}\n"
    out += (f"not ok {k} - {c.command}\n"
            f"#   Failed test '{c.command}'\n#   at {tf} line {rng.randint(10, 90)}.\n"
            f"#          got: '{c.code}'\n#     expected: '0'\n# stderr:\n"
            + indent_keep(c.error, "# ") + "\n")
    for i in range(k + 1, n + 1):
        out += f"ok {i} - {names[i % len(names)]}\n"
    out += (f"1..{n}\n# Looks like you failed 1 test of {n}.\n{tf} .. Dubious, test returned 1 (wstat 256, 0x100)\n"
            f"Failed 1/{n} subtests \n\nTest Summary Report\n-------------------\n"
            f"{tf} (Wstat: 256 (exited 1) Tests: {n} Failed: 1)\n  Failed test:  {k}\n"
            f"  Non-zero exit status: 1\nFiles=1, Tests={n},  {rng.randint(1, 20)} wallclock secs\nResult: FAIL\n")
    return out


# ---------------------------------------------------------------- 6
def s_ci_raw_log(rng, c):
    x = c.ctx(rng)
    dt = rand_dt(rng)
    org = rng.choice(ORGS)
    img = LANG_INFO[c.lang][1]
    v = rng.randrange(4)
    if v == 0:  # GitLab
        t = epoch(dt)
        sha = hexs(rng, 8)
        runner = rng.choice(["shared-runner-4", "docker-auto-scale", "gitlab-runner-k8s", "blue-3.saas-linux-small-amd64"])
        E0 = f"{ESC}[0K"
        def sec(name, title, body, t0, t1):
            return (f"section_start:{t0}:{name}\r{E0}{E0}{ESC}[36;1m{title}{ESC}[0;m{ESC}[0;m\n{body}"
                    f"section_end:{t1}:{name}\r{E0}")
        s = (f"{E0}Running with gitlab-runner 16.{rng.randint(5, 11)}.{rng.randint(0, 3)} ({hexs(rng, 8)}){ESC}[0;m\n"
             f"{E0}  on {runner} {alnum(rng, 8)}, system ID: s_{hexs(rng, 12)}{ESC}[0;m\n")
        s += sec("prepare_executor", 'Preparing the "docker" executor',
                 f"{E0}Using Docker executor with image {img} ...{ESC}[0;m\n"
                 f"{E0}Pulling docker image {img} ...{ESC}[0;m\n"
                 f"{E0}Using docker image sha256:{hexs(rng, 64)} for {img} with digest {img.split(':')[0]}@sha256:{hexs(rng, 64)} ...{ESC}[0;m\n",
                 t, t + 9)
        s += sec("get_sources", "Getting source from Git repository",
                 f"{ESC}[32;1mFetching changes with git depth set to 20...{ESC}[0;m\n"
                 f"Initialized empty Git repository in /builds/{org}/{x['proj']}/.git/\n"
                 f"{ESC}[32;1mCreated fresh repository.{ESC}[0;m\n"
                 f"{ESC}[32;1mChecking out {sha} as detached HEAD (ref is {rng.choice(['main', 'develop', 'mr-' + str(rng.randint(10, 900))])})...{ESC}[0;m\n\n"
                 f"{ESC}[32;1mSkipping Git submodules setup{ESC}[0;m\n", t + 9, t + 11)
        s += sec("step_script", 'Executing "step_script" stage of the job script',
                 f"{E0}Using docker image sha256:{hexs(rng, 64)} for {img} ...{ESC}[0;m\n"
                 f"{ESC}[32;1m$ {c.command}{ESC}[0;m\n{c.error}\n", t + 11, t + 11 + rng.randint(1, 200))
        s += f"\n{E0}{ESC}[31;1mERROR: Job failed: exit code {c.code}\n{ESC}[0;m\n"
        return s
    if v == 1:  # Azure Pipelines
        cur = [dt]
        def ts():
            cur[0] += timedelta(microseconds=rng.randint(1000, 900000))
            return cur[0].strftime("%Y-%m-%dT%H:%M:%S.%f") + f"{rng.randint(0, 9)}Z"
        step = rng.choice(["Build", "Run tests", "Bash", "Smoke test", "CmdLine"])
        pre = [f"##[section]Starting: {step}",
               "==============================================================================",
               "Task         : Command line",
               "Description  : Run a command line script using Bash on Linux and macOS and cmd.exe on Windows",
               "Version      : 2.231.1",
               "Author       : Microsoft Corporation",
               "Help         : https://docs.microsoft.com/azure/devops/pipelines/tasks/utility/command-line",
               "==============================================================================",
               "Generating script.", "Script contents:", c.command,
               "========================== Starting Command Output ===========================",
               f"[command]/usr/bin/bash --noprofile --norc /home/vsts/work/_temp/{hexs(rng, 8)}-{hexs(rng, 4)}-{hexs(rng, 4)}-{hexs(rng, 4)}-{hexs(rng, 12)}.sh"]
        post = [f"##[error]Bash exited with code '{c.code}'.", f"##[section]Finishing: {step}"]
        return "\n".join(f"{ts()} {ln}" for ln in pre + lines_of(c.error) + post) + "\n"
    if v == 2:  # CircleCI
        s = ""
        if rng.random() < 0.5:
            s += (f"Build-agent version 1.0.{rng.randint(200000, 260000)}-{hexs(rng, 8)} ({dt:%Y-%m-%dT%H:%M:%S}+0000)\n"
                  "System information:\n Server Version: 24.0.9\n Storage Driver: overlay2\n"
                  "  Backing Filesystem: xfs\n Cgroup Driver: cgroupfs\n Cgroup Version: 1\n"
                  f" Kernel Version: 5.15.0-1057-aws\n Operating System: Ubuntu 20.04.6 LTS\n OSType: linux\n Architecture: x86_64\n\n"
                  f"Starting container cimg/{rng.choice(['base:2024.02', 'python:3.11', 'node:20.11', 'go:1.22', 'rust:1.77', 'ruby:3.2', 'openjdk:17.0'])}\n\n")
        s += f"#!/bin/bash -eo pipefail\n{c.command}\n{c.error}\n\nExited with code exit status {c.code}\n"
        if rng.random() < 0.4:
            s += f"CircleCI received exit code {c.code}\n"
        return s
    # Buildkite
    ms = epoch(dt) * 1000 + rng.randint(0, 999)
    raw = rng.random() < 0.5
    out = []
    def L(text):
        nonlocal ms
        ms += rng.randint(1, 900)
        out.append((f"{ESC}_bk;t={ms}\x07" if raw else "") + text)
    agent = f"{rng.choice(['ci-agent', 'buildkite-agent', 'elastic'])}-{rng.randint(1, 9)}-1"
    L("~~~ Preparing working directory")
    L(f"$ cd /var/lib/buildkite-agent/builds/{agent}/{org}/{x['proj']}")
    L("# Host \"github.com\" already in list of known hosts at \"/var/lib/buildkite-agent/.ssh/known_hosts\"")
    L("$ git clean -ffxdq")
    L(f"$ git fetch -v --prune -- origin {rng.choice(['main', 'refs/pull/' + str(rng.randint(10, 999)) + '/head'])}")
    L(f"$ git checkout -f {hexs(rng, 40)}")
    L("# Cleaning again to catch any post-checkout changes")
    L("~~~ Running commands")
    L(f"$ trap 'kill -- $$' INT TERM QUIT; {rng.choice(['.buildkite/steps/build.sh', 'ci/test.sh', 'make ci'])}")
    L(f"--- :hammer: Running {rng.choice(['build', 'tests', 'checks', x['proj']])}")
    L(f"$ {c.command}")
    for ln in lines_of(c.error):
        L(ln)
    L(f"🚨 Error: The command exited with status {c.code}")
    L("^^^ +++")
    L(f"user command error: exit status {c.code}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 7
def error_shell(err):
    m = re.match(r"(-?bash|zsh|fish|sh)(?::| \d+:| line \d+:)", err.lstrip())
    return {"-bash": "bash", "sh": None}.get(m.group(1), m.group(1)) if m else None


def classic_steps(rng, c, x, run_cmd, final_fail=True, shell=None):
    img = LANG_INFO[c.lang][1]
    if shell and "alpine" in img:
        img = "debian:bookworm"
    alpine = "alpine" in img
    wd = rng.choice(["/app", "/usr/src/app", "/src", "/build"])
    steps = [f"FROM {img}", f"WORKDIR {wd}"]
    if shell:
        if shell != "bash":
            steps.append(f"RUN apt-get update && apt-get install -y {shell}")
        steps.append(f'SHELL ["/bin/{shell}", "-c"]')
    if rng.random() < 0.5:
        steps.append(rng.choice(["ENV PIP_NO_CACHE_DIR=1", "ENV NODE_ENV=production", "ENV DEBIAN_FRONTEND=noninteractive",
                                 "ARG VERSION=dev", "ENV LANG=C.UTF-8"]))
    if rng.random() < 0.5 and not shell:
        pkgs = rng.choice(["curl ca-certificates", "git make", "build-essential", "libpq-dev"])
        steps.append(("RUN apk add --no-cache " if alpine else
                      "RUN apt-get update && apt-get install -y --no-install-recommends ") + pkgs)
    steps.append(rng.choice(["COPY . .", f"COPY . {wd}", "ADD . ."]))
    steps.append(f"RUN {run_cmd}")
    extra = rng.randint(0, 3)
    total = len(steps) + extra
    out = []
    for i, st in enumerate(steps, 1):
        out.append(f"Step {i}/{total} : {st}")
        if i == 1:
            if rng.random() < 0.4:
                out.append(f"{img.split(':')[-1]}: Pulling from {('library/' + img.split(':')[0]) if '/' not in img else img.split(':')[0]}")
                out.append("Digest: sha256:" + hexs(rng, 64))
                out.append(f"Status: Downloaded newer image for {img}")
            out.append(" ---> " + hexs(rng, 12))
            continue
        if i == len(steps) and final_fail:
            out.append(" ---> Running in " + hexs(rng, 12))
            return out, total
        if st.startswith("RUN") and rng.random() < 0.6:
            out.append(" ---> Using cache")
        elif st.startswith("RUN"):
            rid = hexs(rng, 12)
            out.append(" ---> Running in " + rid)
            if alpine:
                out.append("fetch https://dl-cdn.alpinelinux.org/alpine/v3.19/main/x86_64/APKINDEX.tar.gz")
                out.append(f"OK: {rng.randint(8, 40)} MiB in {rng.randint(15, 60)} packages")
            else:
                out.append("Get:1 http://deb.debian.org/debian bookworm InRelease [151 kB]")
                out.append(f"Fetched {rng.randint(8, 30)}.{rng.randint(0, 9)} MB in {rng.randint(2, 9)}s ({rng.randint(1, 9)} MB/s)")
            out.append("Removing intermediate container " + rid)
        elif st.startswith(("ENV", "ARG", "WORKDIR", "SHELL")) and rng.random() < 0.5:
            rid = hexs(rng, 12)
            out.append(" ---> Running in " + rid)
            out.append("Removing intermediate container " + rid)
        out.append(" ---> " + hexs(rng, 12))
    return out, total


def s_docker_classic(rng, c):
    x = c.ctx(rng)
    tag = x["proj"] + rng.choice([":latest", ":dev", "", ":ci"])
    local = f"{x['user']}@{x['host']}:{x['tilde']}$ "
    ctxsize = f"{rng.randint(2, 900)}.{rng.randint(10, 99)}{rng.choice(['kB', 'MB'])}"
    dep = ""
    r = rng.random()
    if r < 0.5:
        inv = f"DOCKER_BUILDKIT=0 docker build -t {tag.rstrip(':')} ."
        dep = ("DEPRECATED: The legacy builder is deprecated and will be removed in a future release.\n"
               "            BuildKit is currently disabled; enable it by removing the DOCKER_BUILDKIT=0\n"
               "            environment-variable.\n\n")
    else:
        inv = f"docker build -t {tag.rstrip(':')} ."
    head = f"{local}{inv}\n{dep}Sending build context to Docker daemon  {ctxsize}\n"
    if c.lang in ("docker", "k8s", "systemd", "ssh") or c.command.startswith(("journalctl", "systemctl")):
        if c.command.startswith("docker build"):
            return f"{local}{c.command}\n{dep if 'DOCKER_BUILDKIT=0' in c.command else ''}{c.error}\n{local}"
        steps, total = classic_steps(rng, c, x, rng.choice(["pip install -r requirements.txt", "npm ci", "make",
                                                            "chmod +x /usr/local/bin/entrypoint.sh"]), final_fail=False)
        img_id = steps[-1].split()[-1]
        steps += [f"Successfully built {img_id}",
                  f"Successfully tagged {tag.rstrip(':')}{'' if ':' in tag.rstrip(':') else ':latest'}"]
        nxt = c.command
        if not c.command.startswith("docker"):
            nxt = f"docker run --rm -it {tag.rstrip(':')} {c.command.removeprefix('sudo ')}"
        return head + "\n".join(steps) + f"\n{local}{nxt}\n{c.error}\n{local}"
    run_cmd = c.command.removeprefix("sudo ")
    shell = error_shell(c.error)
    steps, total = classic_steps(rng, c, x, run_cmd, shell=shell)
    return (head + "\n".join(steps) + "\n" + c.error + "\n" +
            f"The command '/bin/{shell or 'sh'} -c {run_cmd}' returned a non-zero code: {c.code}\n{local}")


# ---------------------------------------------------------------- 8
def s_config_mgmt(rng, c):
    x = c.ctx(rng)
    dom = rng.choice(DOMAINS)
    srv = rng.choice(SERVERS)
    fqdn = f"{srv}.{dom}"
    dt = rand_dt(rng)
    sid = f"{x['proj']}-{rng.choice(['build', 'setup', 'migrate', 'deploy', 'bootstrap', 'check'])}"
    v = rng.randrange(3)
    if v == 0:  # Salt
        ok = rng.randint(2, 14)
        body = (f"{fqdn}:\n----------\n          ID: {sid}\n    Function: cmd.run\n        Name: {c.command}\n"
                f"      Result: False\n     Comment: Command \"{c.command}\" run\n"
                f"     Started: {dt:%H:%M:%S}.{rng.randint(100000, 999999)}\n    Duration: {rng.randint(40, 9000)}.{rng.randint(100, 999)} ms\n"
                f"     Changes:   \n              ----------\n              pid:\n                  {rng.randint(1000, 60000)}\n"
                f"              retcode:\n                  {c.code}\n              stderr:\n"
                f"{indent_keep(c.error, '                  ')}\n              stdout:\n\n")
        return (f"root@salt-master:~# salt '{srv}*' state.apply {x['proj'].replace('-', '_')}\n" + body +
                f"Summary for {fqdn}\n------------\nSucceeded: {ok} (changed={rng.randint(1, ok)})\nFailed:    1\n"
                f"------------\nTotal states run:     {ok + 1}\nTotal run time:  {rng.randint(1, 60)}.{rng.randint(100, 999)} s\n"
                f"ERROR: Minions returned with non-zero exit code\n")
    cls = x["proj"].replace("-", "_")
    if v == 1:  # Puppet
        res = f"/Stage[main]/{cls.capitalize()}::{rng.choice(['Build', 'Install', 'App', 'Deploy'])}/Exec[{sid}]/returns"
        syslog = rng.random() < 0.35
        pre = f"{dt:%b %d %H:%M:%S} {srv} puppet-agent[{rng.randint(1000, 40000)}]: " if syslog else ""
        lines = [f"Info: Using environment '{rng.choice(['production', 'staging'])}'",
                 "Info: Retrieving pluginfacts", "Info: Retrieving plugin", "Info: Loading facts",
                 f"Info: Caching catalog for {fqdn}",
                 f"Info: Applying configuration version '{epoch(dt)}'"]
        lines += [f"Notice: {res}: {ln}" for ln in lines_of(c.error)]
        lines += [f"Error: '{c.command}' returned {c.code} instead of one of [0]",
                  f"Error: {res}: change from 'notrun' to ['0'] failed: '{c.command}' returned {c.code} instead of one of [0] (corrective)",
                  f"Notice: Applied catalog in {rng.randint(2, 90)}.{rng.randint(10, 99)} seconds"]
        head = "" if syslog else f"[root@{srv} ~]# puppet agent -t\n"
        return head + "\n".join(pre + ln for ln in lines) + "\n"
    # Chef
    err_l = lines_of(c.error)
    stderr = "    STDERR: " + err_l[0] + ("\n" + "\n".join("    " + ln for ln in err_l[1:]) if len(err_l) > 1 else "")
    return (f"Recipe: {cls}::default\n  * execute[{c.command}] action run\n"
            f"    \n    ================================================================================\n"
            f"    Error executing action `run` on resource 'execute[{c.command}]'\n"
            f"    ================================================================================\n    \n"
            f"    Mixlib::ShellOut::ShellCommandFailed\n    ------------------------------------\n"
            f"    Expected process to exit with [0], but received '{c.code}'\n"
            f"    ---- Begin output of {c.command} ----\n    STDOUT: \n{stderr}\n"
            f"    ---- End output of {c.command} ----\n    Ran {c.command} returned {c.code}\n    \n"
            f"    Resource Declaration:\n    ---------------------\n"
            f"    # In /var/chef/cache/cookbooks/{cls}/recipes/default.rb\n    \n"
            f"     {(n := rng.randint(12, 80))}: execute '{c.command}' do\n"
            f"     {n + 1}:   cwd '{rng.choice(['/srv/', '/opt/'])}{x['proj']}'\n"
            f"     {n + 2}:   user '{rng.choice(['deploy', 'app', x['user']])}'\n     {n + 3}: end\n    \n"
            f"    System Info:\n    ------------\n    chef_version=18.{rng.randint(2, 4)}.{rng.randint(0, 12)}\n"
            f"    platform=ubuntu\n    platform_version=22.04\n    ruby=ruby 3.1.4p223\n\n"
            f"Running handlers:\n[{dt:%Y-%m-%dT%H:%M:%S}+00:00] ERROR: Running exception handlers\n"
            f"Running handlers complete\n[{dt:%Y-%m-%dT%H:%M:%S}+00:00] ERROR: Exception handlers complete\n"
            f"Infra Phase failed. {rng.randint(1, 9)} resources updated in {rng.randint(5, 90)} seconds\n"
            f"[{dt:%Y-%m-%dT%H:%M:%S}+00:00] FATAL: Stacktrace dumped to /var/chef/cache/chef-stacktrace.out\n"
            f"[{dt:%Y-%m-%dT%H:%M:%S}+00:00] FATAL: Mixlib::ShellOut::ShellCommandFailed: execute[{c.command}] "
            f"({cls}::default line {n}) had an error: Mixlib::ShellOut::ShellCommandFailed: "
            f"Expected process to exit with [0], but received '{c.code}'\n")


# ---------------------------------------------------------------- 9
def s_distro_build(rng, c):
    x = c.ctx(rng)
    dt = rand_dt(rng)
    pkg = x["proj"].lower().replace("_", "-")
    ver = f"{rng.randint(0, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
    cmd = c.command.removeprefix("sudo ")
    v = rng.randrange(3)
    if v == 0:  # sbuild
        arch = rng.choice(["amd64", "arm64"])
        title = f"| {pkg} {ver}-1 ({arch})"
        date = dt.strftime("%a, %d %b %Y %H:%M:%S +0000")
        title = title + " " * max(1, 80 - len(title) - len(date) - 3) + date + "  |"
        ln = rng.randint(10, 30)
        s = (f"sbuild (Debian sbuild) 0.85.{rng.randint(0, 10)} (22 February 2024) on {rng.choice(['x86-conova-01', 'buildd-' + rng.choice(SERVERS), 'sbuild-host'])}\n\n"
             "+==============================================================================+\n"
             f"{title}\n"
             "+==============================================================================+\n\n"
             f"Package: {pkg}\nVersion: {ver}-1\nSource Version: {ver}-1\nDistribution: unstable\n"
             f"Machine Architecture: {arch}\nHost Architecture: {arch}\nBuild Architecture: {arch}\nBuild Type: any\n\n"
             "[...]\n\n+------------------------------------------------------------------------------+\n"
             "| Build                                                                        |\n"
             "+------------------------------------------------------------------------------+\n\n\n"
             f"Unpack source\n-------------\n\ndpkg-source: info: extracting {pkg} in /<<PKGBUILDDIR>>\n"
             f"dpkg-source: info: unpacking {pkg}_{ver}.orig.tar.gz\n\n"
             "dpkg-buildpackage\n-----------------\n\n"
             f"dpkg-buildpackage: info: source package {pkg}\ndpkg-buildpackage: info: source version {ver}-1\n"
             "dpkg-buildpackage: info: source distribution unstable\n"
             f"dpkg-buildpackage: info: host architecture {arch}\n"
             " debian/rules clean\ndh clean\n   dh_clean\n"
             " debian/rules binary-arch\ndh binary-arch\n   dh_update_autotools_config -a\n"
             "   dh_autoreconf -a\n   dh_auto_configure -a\n   debian/rules override_dh_auto_build\n"
             "make[1]: Entering directory '/<<PKGBUILDDIR>>'\n"
             f"{cmd}\n{c.error}\n"
             f"make[1]: *** [debian/rules:{ln}: override_dh_auto_build] Error {c.code}\n"
             "make[1]: Leaving directory '/<<PKGBUILDDIR>>'\n"
             f"make: *** [debian/rules:{rng.randint(4, 9)}: binary-arch] Error 2\n"
             "dpkg-buildpackage: error: debian/rules binary-arch subprocess returned exit status 2\n"
             "--------------------------------------------------------------------------------\n"
             f"Build finished at {dt + timedelta(minutes=rng.randint(1, 12)):%Y-%m-%dT%H:%M:%SZ}\n")
        return s
    if v == 1:  # rpmbuild / mock
        tmp = "rpm-tmp." + alnum(rng, 6)
        parts = [p.strip() for p in cmd.split("&&")]
        plus = "\n".join("+ " + p for p in parts)
        bdir = rng.choice(["/builddir/build/BUILD", f"/home/{x['user']}/rpmbuild/BUILD"])
        s = (f"Executing(%prep): /bin/sh -e /var/tmp/rpm-tmp.{alnum(rng, 6)}\n+ umask 022\n+ cd {bdir}\n"
             f"+ rm -rf {pkg}-{ver}\n+ /usr/bin/gzip -dc /builddir/build/SOURCES/{pkg}-{ver}.tar.gz\n+ /usr/bin/tar -xof -\n"
             f"+ STATUS=0\n+ '[' 0 -ne 0 ']'\n+ cd {pkg}-{ver}\n+ RPM_EC=0\n++ jobs -p\n+ exit 0\n"
             f"Executing(%build): /bin/sh -e /var/tmp/{tmp}\n+ umask 022\n+ cd {bdir}\n+ cd {pkg}-{ver}\n"
             f"{plus}\n{c.error}\n"
             f"error: Bad exit status from /var/tmp/{tmp} (%build)\n\n\nRPM build errors:\n"
             f"    Bad exit status from /var/tmp/{tmp} (%build)\n")
        if rng.random() < 0.5:
            s = (f"INFO: mock.py version 5.{rng.randint(0, 6)} starting (python version = 3.12.2, NVR = {pkg}-{ver}-1.fc40)...\n"
                 f"Start: rpmbuild {pkg}-{ver}-1.fc40.src.rpm\n" + s +
                 "Finish: rpmbuild " + f"{pkg}-{ver}-1.fc40.src.rpm\nFinish: build phase for {pkg}-{ver}-1.fc40.src.rpm\n"
                 "ERROR: Exception(/builddir/build/SRPMS/" + f"{pkg}-{ver}-1.fc40.src.rpm) Config(fedora-40-x86_64) "
                 f"{rng.randint(1, 4)} minutes {rng.randint(0, 59)} seconds\nERROR: Command failed: \n"
                 f" # /usr/bin/systemd-nspawn -q -M {hexs(rng, 32)} -D /var/lib/mock/fedora-40-x86_64/root "
                 f"... /usr/bin/bash --login -c /usr/bin/rpmbuild -bb  --target x86_64 --nodeps /builddir/build/SPECS/{pkg}.spec\n")
        return s
    # local debuild
    return (f"{x['user']}@{x['host']}:~/deb/{pkg}-{ver}$ debuild -us -uc -b\n"
            f" dpkg-buildpackage -us -uc -ui -b\ndpkg-buildpackage: info: source package {pkg}\n"
            f"dpkg-buildpackage: info: source version {ver}-1\ndpkg-buildpackage: info: source distribution UNRELEASED\n"
            f"dpkg-buildpackage: info: source changed by {x['person']} <{handle_of(x['person'])}@{rng.choice(DOMAINS)}>\n"
            " dpkg-source --before-build .\ndpkg-buildpackage: info: host architecture amd64\n"
            " debian/rules clean\ndh clean\n   dh_clean\n debian/rules binary\ndh binary\n"
            "   dh_update_autotools_config\n   dh_autoreconf\n   dh_auto_configure\n"
            "   debian/rules override_dh_auto_build\n"
            f"make[1]: Entering directory '/home/{x['user']}/deb/{pkg}-{ver}'\n{cmd}\n{c.error}\n"
            f"make[1]: *** [debian/rules:{rng.randint(10, 30)}: override_dh_auto_build] Error {c.code}\n"
            f"make[1]: Leaving directory '/home/{x['user']}/deb/{pkg}-{ver}'\n"
            "make: *** [debian/rules:6: binary] Error 2\n"
            "dpkg-buildpackage: error: debian/rules binary subprocess returned exit status 2\n"
            "debuild: fatal error at line 1182:\ndpkg-buildpackage -us -uc -ui -b failed\n")


# ---------------------------------------------------------------- shared prose
WHERE = ["on my laptop", "on the staging box", "on a fresh clone", "on the CI runner",
         "on the new VM", "in WSL", "on the build server", "after pulling main",
         "on a clean checkout", "in the lab VM", "on the Raspberry Pi", "in the devcontainer"]
SUBJECTS = ["Bump dependencies for the next release", "Add CSV export to reports",
            "Switch build image to bookworm", "Fix flaky retry in uploader",
            "Refactor config loading", "Add healthcheck endpoint", "Drop Python 3.8 support",
            "Move CI to the new runners", "Pin toolchain versions", "Add smoke test for CLI",
            "Cache dependencies in CI", "Split deploy script into stages",
            "Update TLS certificates handling", "Tidy up Makefile targets"]
ROOT_CAUSES = [
    "The build image was rebuilt on the previous day and no longer matched what the step assumed about its environment.",
    "A change merged late in the week was never exercised by pre-merge CI because the job only runs nightly.",
    "A dependency bump landed without the matching change to the setup step.",
    "The step relied on state left behind on long-lived runners; the new ephemeral runners start clean.",
    "The script was written against a developer laptop setup and was never run on a fresh machine.",
    "Configuration drift between staging and the release environment went unnoticed.",
]
OTHER_ACTIONS = ["Add a pre-merge job that runs the same command", "Pin the build image by digest",
                 "Page the owning team instead of the general on-call for this job",
                 "Document the setup step in the runbook", "Add an alert on two consecutive nightly failures",
                 "Make the job print its environment before the failing step"]


def other_name(rng, avoid):
    while True:
        n = rng.choice(NAMES)
        if n != avoid:
            return n


def fence(err):
    return "```\n" + err + "\n```"


# ---------------------------------------------------------------- 10
def s_gerrit_review(rng, c):
    x = c.ctx(rng)
    owner = x["person"]
    rev = other_name(rng, owner)
    bot = rng.choice(["Zuul", "Jenkins", "CI Bot", "verify-bot", "Gerrit Checks"])
    dom = rng.choice(DOMAINS)
    org = rng.choice(ORGS)
    ch = rng.randint(12000, 940000)
    ps = rng.randint(2, 9)
    dt = rand_dt(rng)
    subj = rng.choice(SUBJECTS)
    path = rng.choice(["ci/build.sh", "Makefile", ".gitlab-ci.yml", "scripts/check.sh", "zuul.d/jobs.yaml",
                       "tox.ini", "Jenkinsfile", "ci/verify.sh"])
    line = rng.randint(3, 140)
    excerpt, part = partial(rng, c.error, 0.3)
    job = f"{x['proj']}-{rng.choice(['verify', 'build', 'unit', 'tox-py311', 'check'])}"
    def t(m):
        return (dt + timedelta(minutes=m)).strftime("%b %d %H:%M")

    hdr = (f"Change {ch} - {rng.choice(['Needs Verified', 'Needs Code-Review', 'Active'])}\n{subj}\n\n"
           f"Owner\t{owner}\nReviewers\t{rev}, {bot}\nRepo | Branch\t{org}/{x['proj']} | {rng.choice(['main', 'master', 'stable/2.x'])}\n"
           f"Updated\t{t(90)}\nVerified\t-1 {bot}\nCode-Review\t\n\n"
           f"Change-Id: I{hexs(rng, 40)}\n\n")
    link = rng.choice([f"https://ci.{dom}/job/{job}/{rng.randint(100, 9999)}/",
                       f"https://zuul.{dom}/t/{org}/build/{hexs(rng, 32)}",
                       f"https://jenkins.{dom}/job/{job}/{rng.randint(100, 9999)}/console"])
    dur = f"{rng.randint(1, 14)}m {rng.randint(0, 59)}s"
    botmsg = (f"{bot}\t{t(7)}\nPatch Set {ps}: Verified-1\n\nBuild failed.\n\n"
              f"{link} : FAILURE in {dur}\n\n"
              f"Log excerpt ({rng.choice(['job-output.txt', 'console', 'step: build'])}):\n\n"
              f"  $ {c.command}\n{indent_keep(excerpt, '  ')}\n")
    if part:
        botmsg += "\n  (truncated, see full log)\n"
    asks = [f"This is not a flake, {c.command} fails the same way on PS{ps - 1}.",
            "Can you reproduce this locally? It looks like it's coming from this line.",
            "recheck won't help here I think.",
            f"The verify job runs `{c.command}` exactly as written here, so this is what breaks it.",
            "Please look at the bot output above before we go further with review."]
    replies = ["Ack, looking.", "Done", "Will fix in the next patch set.",
               "Reproduced locally, same output.", "Hmm, passes for me. Investigating."]
    nc = rng.randint(1, 3)
    rv = (f"{rev}\t{t(rng.randint(30, 300))}\nPatch Set {ps}:\n\n({nc} comment{'s' if nc > 1 else ''})\n\n"
          f"> Build failed.\n\n{rng.choice(asks)}\n\n"
          f"File {path}, Line {line}:\n\n> {c.command}\n\n"
          f"{rng.choice(['This call is what the job trips on:', 'From the CI log:', 'Here:'])}\n\n"
          + indent_keep(excerpt.split(chr(10))[-1] if len(excerpt) > 300 else excerpt, "  ") + "\n")
    ow = f"{owner}\t{t(rng.randint(301, 600))}\nPatch Set {ps}:\n\n(1 comment)\n\nFile {path}, Line {line}:\n\n> {c.command}\n\n{rng.choice(replies)}\n"
    first = f"{owner}\t{t(0)}\nUploaded patch set {ps}.\n\n"
    return hdr + first + botmsg + "\n" + rv + ("\n" + ow if rng.random() < 0.6 else "")


# ---------------------------------------------------------------- 11
def s_matrix_chat(rng, c):
    x = c.ctx(rng)
    a = x["person"]
    b = other_name(rng, a)
    d = other_name(rng, b)
    srv = rng.choice(["matrix.org", "fedora.im", "tchncs.de", "envs.net", "kde.org", "matrix." + rng.choice(DOMAINS)])
    ha, hb, hd = (f"@{handle_of(n, rng)}:{srv if rng.random() < 0.7 else 'matrix.org'}" for n in (a, b, d))
    err, part = partial(rng, c.error, 0.12)
    where = rng.choice(WHERE)
    intro = rng.choice([f"anyone seen this before? `{c.command}` {where} gives me",
                        f"morning all. trying to get {x['proj']} going {where}, `{c.command}` dies with:",
                        f"ok I'm stuck. ran `{c.command}` and got",
                        f"quick one: what does this mean? (from `{c.command}`)",
                        f"hey, `{c.command}` started failing for me {where}:"])
    reply = rng.choice(["which version are you on?", "did you pull latest main?",
                        "can you paste the full output?" if part else "ugh, I had the same thing last week",
                        "works on my machine™ 🙃", "same here since this morning",
                        "is that the whole output or was there more above?"])
    follow = rng.choice(["that's everything it printed", "yep, fresh clone", "let me check",
                         "thanks, I'll try that", "no luck, same error"])
    dt = rand_dt(rng)
    def tm(m, f="%H:%M"):
        return (dt + timedelta(minutes=m)).strftime(f)

    v = rng.randrange(3)
    if v == 0:  # Element web copy
        lead = rng.choice(["", f"{d}\n{tm(-3)}\nhas anyone touched the {x['proj']} CI today?\n"])
        return (f"{lead}{a}\n{tm(0)}\n{intro}\n{fence(err)}\n"
                f"{b}\n{tm(2)}\nIn reply to\n{a}\n{intro}\n{reply}\n"
                f"{a}\n{tm(4)}\n{follow}")
    if v == 1:  # plain-text export
        def line(m, who, txt):
            return f"{(dt + timedelta(minutes=m)):%a, %b %d %Y, %H:%M} - {who}: {txt}"
        return "\n".join([line(-5, d, f"anyone around for a {x['proj']} question?"),
                          line(0, a, intro + "\n" + fence(err)),
                          line(2, b, f"<In reply to {a}> {reply}"),
                          line(4, a, follow)])
    # weechat-style log with matrix ids
    out = [f"{tm(-1, '%H:%M:%S')} --> {hd} joined the room" if rng.random() < 0.3 else f"{tm(-1, '%H:%M:%S')} <{hd}> o/"]
    msg = intro + "\n```\n" + err + "\n```"
    for ln in msg.split("\n"):
        out.append(f"{tm(0, '%H:%M:%S')} <{ha}> {ln}")
    out.append(f"{tm(2, '%H:%M:%S')} <{hb}> {ha}: {reply}")
    out.append(f"{tm(3, '%H:%M:%S')} <{ha}> {follow}")
    return "\n".join(out)


# ---------------------------------------------------------------- 12
def s_telegram_json(rng, c):
    x = c.ctx(rng)
    a = x["person"]
    b = other_name(rng, a)
    dt = rand_dt(rng)
    mid = rng.randint(1000, 90000)
    err, part = partial(rng, c.error, 0.1)
    def uid():
        return "user" + str(rng.randint(100000000, 7999999999))

    ua, ub = uid(), uid()

    def msg(i, m, who, wid, parts, reply=None):
        d = dt + timedelta(minutes=m, seconds=rng.randint(0, 59))
        o = {"id": mid + i, "type": "message", "date": d.strftime("%Y-%m-%dT%H:%M:%S"),
             "date_unixtime": str(epoch(d)), "from": who, "from_id": wid}
        if reply:
            o["reply_to_message_id"] = reply
        if all(isinstance(p, str) for p in parts):
            o["text"] = "".join(parts)
            o["text_entities"] = [{"type": "plain", "text": "".join(parts)}]
        else:
            o["text"] = parts
            ents = []
            for p in parts:
                ents.append({"type": "plain", "text": p} if isinstance(p, str) else p)
            o["text_entities"] = ents
        return o

    style = rng.random()
    intro, tail = rng.choice([("ran ", " and got:\n"), ("tried ", ", it fails:\n"), ("running ", " → \n"),
                              ("hey, so ", " gives this now:\n"), ("after ", " I get\n")])
    if style < 0.6:
        parts = [intro, {"type": "code", "text": c.command}, tail, {"type": "pre", "text": err, "language": ""}]
    elif style < 0.8:
        parts = [intro + c.command + tail + err]
    else:
        parts = [{"type": "pre", "text": "$ " + c.command + "\n" + err, "language": rng.choice(["", "bash", "shell"])},
                 "\n" + rng.choice(["help 🙏", "any idea?", "wtf", "what am I doing wrong"])]
    msgs = [msg(0, 0, b, ub, [rng.choice(["ok who broke the build 😅", f"{x['proj']} works for everyone else?",
                                          "morning", "pushed the fix for the login page"])]),
            msg(1, 2, a, ua, parts)]
    if rng.random() < 0.4:
        msgs[-1]["edited"] = (dt + timedelta(minutes=3)).strftime("%Y-%m-%dT%H:%M:%S")
        msgs[-1]["edited_unixtime"] = str(epoch(dt + timedelta(minutes=3)))
    msgs.append(msg(2, 5, b, ub, [rng.choice(["did you run the install step first?", "which branch?",
                                              "send the full log pls" if part else "hmm never seen that one",
                                              "same for me on the server"])], reply=mid + 1))
    if rng.random() < 0.5:
        body = {"name": rng.choice([f"{x['proj']} devs", "backend chat", "Linux help", "CS201 study group", "infra 🔧"]),
                "type": rng.choice(["private_supergroup", "private_group", "public_supergroup"]),
                "id": rng.randint(1000000000, 2999999999), "messages": msgs}
        return json.dumps(body, ensure_ascii=False, indent=1)
    inner = ",\n".join(indent_keep(json.dumps(m, ensure_ascii=False, indent=1), "  ") for m in msgs)
    return ' "messages": [\n' + inner + ",\n"


# ---------------------------------------------------------------- 13
def rst_title(t, ch, over=False):
    bar = ch * len(t)
    return (bar + "\n" if over else "") + t + "\n" + bar


def s_rst_asciidoc(rng, c):
    x = c.ctx(rng)
    key = key_line(c.error)
    err, part = partial(rng, c.error, 0.1)
    dt = rand_dt(rng)
    who = x["person"].split()[0]
    pc = protect("``" + c.command + "``")
    pa = protect("`" + c.command + "`")
    seen = rng.choice([f"Seen {where} on {dt:%Y-%m-%d}." for where in WHERE])
    status = rng.choice(["Cause not confirmed yet; ask in #build before changing anything.",
                         "We have not pinned this down yet. Add what you find below.",
                         f"{who} is looking into it; see the ticket for updates.",
                         "Workaround: none known so far. Please record the full output if you hit it."])
    v = rng.randrange(4)
    if v == 0:  # RST troubleshooting with code-block console
        title = f"{c.command} fails with ``{key}``" if len(key) < 90 else f"{c.command} fails"
        body = (rst_title("Troubleshooting", "=", over=True) + "\n\n" + rst_title(title, "-") + "\n\n" +
                wrap(f"When running {pc} {rng.choice(WHERE)} the command stops with the following output:") + "\n\n"
                ".. code-block:: console\n\n" + indent("$ " + c.command + "\n" + err, "   ") + "\n\n"
                ".. note::\n\n" + wrap(seen + " " + status, 69, "   ") + "\n")
        return body
    if v == 1:  # RST notes with :: literal
        title = rng.choice(["Build notes", "Setup log", f"Notes: {x['proj']} on a fresh machine", "Onboarding gotchas"])
        return (rst_title(title, "#") + "\n\n" + f":Author: {x['person']}\n:Date: {dt:%Y-%m-%d}\n\n" +
                wrap(f"Step {rng.randint(2, 9)}. Ran {pc} from {protect(x['tilde'])}. Output::") + "\n\n" +
                indent("$ " + c.command + "\n" + err, "    ") + "\n\n" +
                (".. warning::\n   " + wrap(status, 69, "   ").lstrip() + "\n" if rng.random() < 0.6 else wrap(status) + "\n"))
    if v == 2:  # AsciiDoc known issues with [source,console]
        return (f"= {x['proj']} developer guide\n:toc:\n:icons: font\n\n"
                f"== Known issues\n\n=== {rng.choice(['Running', 'Problem with', 'Failure in'])} `{c.command}`\n\n" +
                wrap(f"If you run {pa} {rng.choice(WHERE)} you may get this instead of a clean exit:") + "\n\n"
                "[source,console]\n----\n$ " + c.command + "\n" + err + "\n----\n\n" +
                f"NOTE: {seen}\n\n" + wrap(status) + "\n")
    # AsciiDoc literal block with admonitions
    return (f"== Troubleshooting\n\n[[err-{slug(key, 30)}]]\n=== {key if len(key) < 100 else 'Build step fails'}\n\n" +
            f".Command\n[source,shell]\n----\n{c.command}\n----\n\n.Output\n....\n{err}\n....\n\n" +
            f"WARNING: {status}\n\nTIP: {seen}\n")


# ---------------------------------------------------------------- 14
OPTIONS = {
    "python": ["A required package is not installed in the active environment",
               "The script contains a typo or syntax mistake", "The Python version does not match what the code expects",
               "The program was started from the wrong working directory", "The input data is not in the expected format"],
    "node": ["A dependency is missing from node_modules", "The Node.js version is too old or too new",
             "The code mixes module systems", "The package name is spelled wrong", "A value is null where an object was expected"],
    "rust": ["The borrow checker rejected the code", "A crate or feature is missing from Cargo.toml",
             "A type does not match what the function expects", "The toolchain is older than the crate needs"],
    "go": ["A package is missing from go.mod", "The Go toolchain version is too old",
           "An import or identifier is misspelled", "The code does not compile because of a type mismatch"],
    "java": ["The classpath is wrong", "The JDK version does not match the build target",
             "The package declaration does not match the directory layout", "A dependency could not be resolved"],
    "c": ["A header or library is not installed", "The linker was not given the right library",
          "The compiler flags are wrong", "The source has a syntax error"],
}
GENERIC_OPTIONS = ["The user lacks the needed permissions", "A required service is not running",
                   "A configuration file has a mistake in it", "The network or name resolution is failing",
                   "A file or path does not exist", "The tool version differs from the one the project expects",
                   "The command was typed incorrectly"]


def s_exam_question(rng, c):
    x = c.ctx(rng)
    err, part = partial(rng, c.error, 0.1)
    qn = rng.randint(1, 14)
    pts = rng.choice([1, 2, 2, 3, 4, 5])
    opts = list(OPTIONS.get(c.lang, [])) + GENERIC_OPTIONS
    rng.shuffle(opts)
    opts = opts[:4]
    who = rng.choice(["A student", "A new team member", "Your lab partner", "A junior developer", "Sam"])
    v = rng.randrange(4)
    if v == 0:  # printed exam
        ch = ["a)", "b)", "c)", "d)"]
        return (f"Question {qn} ({pts} point{'s' if pts > 1 else ''}). {who} runs the following command in a terminal:\n\n"
                f"    $ {c.command}\n\nand sees this output:\n\n{indent(err, '    ')}\n\n"
                f"What is the most likely cause?\n\n" + "\n".join(f"  {ch[i]} {o}" for i, o in enumerate(opts)) + "\n")
    if v == 1:  # Moodle copy
        return (f"Question {qn}\nNot yet answered\nMarked out of {pts}.00\nFlag question\nQuestion text\n"
                f"{who} typed {c.command} and the terminal printed:\n\n{err}\n\n"
                f"Which of the following best explains the output?\n"
                + "\n".join(f"{'abcd'[i]}.\n{o}" for i, o in enumerate(opts)) +
                "\nClear my choice\n")
    if v == 2:  # homework short answer
        return (f"Exercise {rng.randint(1, 6)}.{qn} ({pts} marks)\n\n"
                + wrap(f"You are setting up {x['proj']} for the first time. After running {protect(c.command)} the following is printed:") +
                f"\n\n{indent(err, '    ')}\n\n"
                "(a) Identify the line of the output that states the actual problem.\n"
                "(b) Explain in one or two sentences what went wrong.\n"
                "(c) Suggest one command you would run next to investigate.\n")
    # lab report
    dt = rand_dt(rng)
    step = rng.randint(2, 8)
    return (f"Lab {rng.randint(1, 10)} report — {x['person']} — {rng.choice(['CS', 'COMP', 'INF', 'SE'])}{rng.randint(100, 399)} "
            f"section {rng.randint(1, 6)} — {dt:%d %B %Y}\n\n"
            f"Procedure, step {step}:\n" + wrap(f"I ran {protect(c.command)} in {protect(x['tilde'])} as the handout says. "
                                            "Instead of the expected result the terminal showed:") +
            f"\n\n{indent(err, '    ')}\n\n" + "Discussion:\n" +
            wrap(rng.choice(["I was not sure what caused this. I asked the TA and we ran out of time before finding it.",
                             "I think the problem is explained by the last line, but I could not fix it during the lab.",
                             "My partner got the same output on their machine, so it is probably not my setup alone."])) + "\n")


# ---------------------------------------------------------------- 15
def s_postmortem_doc(rng, c):
    x = c.ctx(rng)
    dt = rand_dt(rng)
    err, part = partial(rng, c.error, 0.18)
    job = rng.choice(["nightly release", "deploy", "data import", "backup", "docs publish", "build"])
    author = x["person"]
    revs = ", ".join(dict.fromkeys(other_name(rng, author) for _ in range(2)))
    def t(m):
        return (dt + timedelta(minutes=m)).strftime("%H:%M")

    dur = rng.randint(40, 400)
    span = f"{dur // 60}h {dur % 60}m" if dur >= 60 else f"{dur}m"
    tick = f"{rng.choice(['INC', 'OPS', 'PLAT', x['proj'][:4].upper()])}-{rng.randint(100, 4999)}"
    md = rng.random() < 0.65
    h1, h2 = ("# ", "## ") if md else ("", "")
    code_open, code_close = ("```\n", "\n```") if md else ("", "")
    logblock = (code_open + err + code_close) if md else indent(err, "    ")
    actions = rng.sample(OTHER_ACTIONS, 2)
    s = (f"{h1}Postmortem: {job} job for {x['proj']} failed ({dt:%Y-%m-%d})\n\n"
         f"Status: {rng.choice(['Draft', 'In review', 'Final'])} · Author: {author} · Reviewers: {revs} · Ticket: {tick}\n\n"
         f"{h2}Summary\n\n" +
         wrap(f"The {job} job stopped at the step that runs {protect('`' + c.command + '`' if md else c.command)} and exited with status {c.code}. "
              f"Nothing downstream ran for about {span}.", 78) + "\n\n"
         f"{h2}Impact\n\n- {rng.choice(['Release delayed', 'No fresh data on the dashboards', 'Staging was not updated', 'Backups skipped for one night'])} "
         f"for {span}\n- {rng.choice(['No customer-facing impact', 'Two internal teams blocked', 'One support ticket from a customer'])}\n\n"
         f"{h2}Timeline (UTC)\n\n"
         f"- {t(0)} — job #{rng.randint(100, 9999)} starts on {rng.choice(SERVERS)}\n"
         f"- {t(rng.randint(1, 9))} — step runs {('`' + c.command + '`') if md else repr(c.command) if chr(39) not in c.command else chr(34) + c.command + chr(34)}; the job logged:\n\n{indent_keep(logblock, '  ') if md else logblock}\n\n"
         f"- {t(12)} — alert fires, on-call ({other_name(rng, author).split()[0]}) acknowledges\n"
         f"- {t(rng.randint(20, 60))} — reproduced by re-running the step by hand\n"
         f"- {t(dur)} — fix merged, job re-run succeeds\n\n"
         f"{h2}Root cause\n\n" + wrap(rng.choice(ROOT_CAUSES), 78) + "\n\n"
         f"{h2}Action items\n\n")
    if md:
        s += "| # | Action | Owner | Ticket |\n|---|--------|-------|--------|\n"
        for i, a in enumerate(actions, 1):
            s += f"| {i} | {a} | {other_name(rng, '').split()[0]} | {tick.split('-')[0]}-{rng.randint(100, 4999)} |\n"
    else:
        for a in actions:
            s += f"- [ ] {a} (owner: {other_name(rng, '').split()[0]})\n"
    return s


# ---------------------------------------------------------------- 16
INSTANCES = ["mastodon.social", "hachyderm.io", "fosstodon.org", "infosec.exchange", "mas.to",
             "social.coop", "chaos.social", "toot.cafe", "floss.social", "techhub.social",
             "mstdn.social", "ruby.social", "types.pl", "tech.lgbt"]


def s_mastodon_thread(rng, c):
    x = c.ctx(rng)
    a = x["person"]
    ha = f"@{handle_of(a, rng)}@{rng.choice(INSTANCES)}"
    b = other_name(rng, a)
    hb = f"@{handle_of(b, rng)}@{rng.choice(INSTANCES)}"
    dt = rand_dt(rng)
    tags = LANG_INFO[c.lang][2]
    when = f"{dt:%b} {dt.day}, {dt:%Y}, {dt:%H:%M}"
    stats = f"{rng.randint(0, 40)}\nboosts\n·\n{rng.randint(1, 90)}\nfavorites"
    cw = rng.random() < 0.45
    head = ""
    if rng.random() < 0.3:
        head = f"{other_name(rng, a)} boosted\n"
    cwline = ("CW: " + rng.choice(["tech rant", "computer frustration", "swearing at terminals", "long error message"]) +
              "\nShow more\n") if cw else ""
    err = c.error
    intro = rng.choice([f"me: {c.command}\ncomputer:", f"Ran `{c.command}` and was greeted by",
                        f"friday afternoon, `{c.command}`, and of course:", f"why does `{c.command}` do this to me",
                        f"Today's puzzle. `{c.command}` says:"])
    posts = []
    if len(err) <= 380:
        posts.append(f"{intro}\n\n{err}\n\n{tags}")
    elif len(err) <= 1400 and rng.random() < 0.5:
        posts.append(f"{intro} (screenshot, text in alt)\n\n{tags}\n\n[Image]\nALT\n"
                     f"Terminal screenshot. Text: $ {c.command}\n{err}")
    else:
        if rng.random() < 0.3:
            tail = "\n".join(lines_of(err)[-4:])
            posts.append(f"{intro}\n\n[...]\n{tail}\n\nfull log: https://paste.{rng.choice(['sr.ht', 'debian.net', 'rs', 'mozilla.org'])}/{alnum(rng, 8)}\n\n{tags}")
        else:
            chunks, cur = [], ""
            for ln in lines_of(err):
                if cur and len(cur) + len(ln) > 420:
                    chunks.append(cur)
                    cur = ""
                cur += (("\n" if cur else "") + ln)
            chunks.append(cur)
            n = len(chunks) + 1
            posts.append(f"{intro} 🧵 1/{n}\n\n{tags}")
            for i, ch in enumerate(chunks, 2):
                posts.append(f"{ch}\n\n{i}/{n}")
    out = head + f"{a}\n{ha}\n\n{cwline}{posts[0]}\n\n{when}\n·\nWeb\n\n{stats}\n"
    for p in posts[1:]:
        out += f"\n{a}\n{ha}\n·\n{rng.randint(1, 5)}m\n\n{p}\n"
    out += (f"\n{b}\n{hb}\n·\n{rng.choice(['2h', '45m', '1h', '3h', '12m'])}\n\n{ha} "
            + rng.choice(["oof. been there.", "which version? this smells like an upgrade thing",
                          "have you tried turning it off and on again 🙃", "pls post if you find the fix, same here",
                          "the real error is always three lines above where you're looking"]) + "\n")
    return out


# ================================================================ main
DISPATCH = {
    "script_typescript": s_script_typescript, "fancy_prompt": s_fancy_prompt,
    "remote_shell": s_remote_shell, "junit_xml": s_junit_xml, "tap_output": s_tap_output,
    "ci_raw_log": s_ci_raw_log, "docker_classic": s_docker_classic, "config_mgmt": s_config_mgmt,
    "distro_build": s_distro_build, "gerrit_review": s_gerrit_review, "matrix_chat": s_matrix_chat,
    "telegram_json": s_telegram_json, "rst_asciidoc": s_rst_asciidoc, "exam_question": s_exam_question,
    "postmortem_doc": s_postmortem_doc, "mastodon_thread": s_mastodon_thread,
}
assert sorted(DISPATCH) == sorted(STYLES) and len(STYLES) == 16


def load_cases():
    files = (sorted(glob.glob(os.path.join(HERE, "help_cases", "*.toml"))) +
             sorted(glob.glob(os.path.join(HERE, "help_heldout", "set*.toml"))))
    cases = []
    for path in files:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for i, tbl in enumerate(data.get("case", [])):
            # Only the two allowed keys are ever touched.
            cases.append(Case(os.path.basename(path), i, tbl.get("error", ""), tbl.get("command")))
    return cases


def main():
    cases = load_cases()
    deal = random.Random(SEED)
    deck = []

    def draw(avoid=None):
        if not deck:
            d = list(STYLES)
            deal.shuffle(d)
            deck.extend(d)
        for j, s in enumerate(deck):
            if s != avoid:
                return deck.pop(j)
        return deck.pop(0)

    rows = []
    for c in cases:
        s1 = draw()
        s2 = draw(avoid=s1)
        for st in (s1, s2):
            rng = random.Random(f"{SEED}|{c.file}|{c.idx}|{st}")
            text = DISPATCH[st](rng, c)
            rows.append({"file": c.file, "case": c.idx, "style": st, "text": text})
    with open(OUT, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows for {len(cases)} cases to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
