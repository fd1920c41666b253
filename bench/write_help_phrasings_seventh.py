"""Write bench/help_phrasings_seventh.jsonl: a seventh, blind set of help phrasings.

What it writes
--------------
For every ``[[case]]`` table of ``bench/help_cases/*.toml`` and
``bench/help_heldout/set*.toml`` (681 cases) the script writes TWO rows, each
in a different style, to ``bench/help_phrasings_seventh.jsonl``.  One row is
one JSON object per line::

    {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}

``file`` is the base name of the TOML file, ``case`` the 0-based index of the
``[[case]]`` table inside it, ``style`` one of the 16 styles below and ``text``
one observation of someone hitting that case's error (usually after running
its command), worded, quoted or recorded the way that kind of writer, tool or
recording would.  Styles are dealt from a seeded, reshuffled deck of all 16
styles, two per case, so every style is used 85 or 86 times and the two rows
of a case always differ in style.  All other choices (names, hosts, paths,
timestamps, templates) come from a ``random.Random`` seeded with the file,
case and style, so the output is identical on every run.

The 16 styles
-------------
powershell_transcript  Windows PowerShell Start-Transcript log of someone
                       running the command through ``wsl``/``ssh`` (incl. the
                       PS 5.1 NativeCommandError wrapping of stderr).
mailing_list_digest    a Mailman digest / list message, sometimes a quoted
                       reply, sometimes quoted-printable encoded.
pdf_extract            text pulled out of a PDF handout or report: running
                       headers, page footers, form feeds, hyphenated prose,
                       ligatures, hard-wrapped console listings.
zulip_message          raw Zulip markdown: stream>topic, @**mentions**,
                       ```text / ```quote / ```spoiler blocks.
obsidian_note          an Obsidian vault page: YAML front matter, [[links]],
                       callouts, tasks, inline fields.
kanban_card            a Trello-like card: copied card text, JSON export,
                       activity feed, a plain-text "Blocked" column dump.
meeting_minutes        meeting minutes, calendar invite bodies, retro notes.
bisect_log             ``git bisect run`` output and ``git bisect log`` files.
support_widget         a website live-chat widget transcript (bot, visitor,
                       support agent), sometimes with collapsed newlines.
wiki_talk              a MediaWiki talk-page thread with <pre>/<code>,
                       colon-indented replies and signatures.
cron_mail              the mail cron sends when a job prints output (raw
                       headers, mbox, mailx, mutt pager, forwarded).
ansible_play           ansible-playbook output: FAILED! JSON, yaml callback,
                       PLAY RECAP.
terraform_exec         Terraform local-exec/remote-exec provisioner output
                       with the boxed "Error: ... provisioner error".
cram_test              a cram ``.t`` regression test capturing the failure,
                       or the ``.t.err`` diff of a failing cram run.
paste_site             text copied from a paste service page (pastebin,
                       paste.debian.net, termbin/ix.io, gist), often with
                       line numbers.
known_issues           a release-notes/changelog "Known issues" entry in
                       Markdown, reStructuredText, AsciiDoc or GNU NEWS form.

Blindness
---------
The writer of this script worked blind.  It read only the ``error`` and
``command`` keys of each ``[[case]]`` table of ``bench/help_cases/*.toml`` and
``bench/help_heldout/set*.toml`` (never ``expect`` or any other key) and, for
tone, a few ProactiveBench session JSON files under
``/work/shared/data/proactivebench/sessions/``.  It did not read any other
code or documentation of the project (not the assistant, watcher, app, eval,
models, ui, tests or docs trees, not README/CHANGELOG/ARCHITECTURE, not
bench/help_quality.py, nor any existing help_phrasings*.jsonl or
write_help_phrasings*.py file) and did not run the project's code.

Running
-------
From the repository root::

    python3 bench/write_help_phrasings_seventh.py

Standard library only (Python 3.11+ for ``tomllib``).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import quopri
import random
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
OUT = ROOT / "help_phrasings_seventh.jsonl"
SEED = 7_2024_0517

STYLES = [
    "powershell_transcript",
    "mailing_list_digest",
    "pdf_extract",
    "zulip_message",
    "obsidian_note",
    "kanban_card",
    "meeting_minutes",
    "bisect_log",
    "support_widget",
    "wiki_talk",
    "cron_mail",
    "ansible_play",
    "terraform_exec",
    "cram_test",
    "paste_site",
    "known_issues",
]

# --------------------------------------------------------------------------
# pools

PEOPLE = [
    ("Ana", "Ruiz"), ("Tomasz", "Berg"), ("Priya", "Nair"), ("Jonas", "Keller"),
    ("Mei", "Tanaka"), ("Oluwaseun", "Adeyemi"), ("Lena", "Fischer"),
    ("Diego", "Alvarez"), ("Sofia", "Rossi"), ("Kwame", "Mensah"),
    ("Hannah", "Lindqvist"), ("Rahul", "Mehta"), ("Chloe", "Martin"),
    ("Yusuf", "Demir"), ("Ines", "Carvalho"), ("Marek", "Novak"),
    ("Aiko", "Sato"), ("Ben", "Okafor"), ("Freya", "Olsen"), ("Luca", "Bianchi"),
    ("Nadia", "Haddad"), ("Pavel", "Ivanov"), ("Grace", "Liu"), ("Sam", "Whitfield"),
]
HOSTS = [
    "devbox", "buildbox", "ci-runner-03", "thinkpad", "web-01", "staging-2",
    "nuc", "lab-pc7", "xps13", "worker-a", "pi4", "app-stage", "ws-0142",
]
WIN_HOSTS = ["DESKTOP-7QK2M4L", "LAPTOP-ANA01", "DEV-WS-118", "DESKTOP-H3R9PX2"]
ORGS = ["acme", "northwind", "orbit", "fieldlab", "tinyco", "bluefin", "kestrel"]
PROJECTS = [
    "webshop", "billing-api", "release-tools", "inventory", "photo-sync",
    "metrics", "notes-app", "ingest", "site", "payroll", "scheduler", "infra",
]
LIST_NAMES = [
    "dev-help", "platform-users", "lab-computing", "devops", "python-newbies",
    "infra-discuss", "build-team",
]
STREAMS = ["help", "backend", "infra", "dev-env", "ci", "general", "newcomers"]
BOARDS = ["Platform Q3", "Website relaunch", "Dev Experience", "Sprint 42", "Ops backlog"]
COMMITS = [
    "bump dependencies", "refactor config loading", "switch base image",
    "add healthcheck endpoint", "move scripts into tools/", "drop legacy flags",
    "update lockfile", "split settings per env", "pin toolchain", "cleanup imports",
    "add retry to uploader", "rename package", "enable strict mode", "migrate CI runner",
]

# --------------------------------------------------------------------------
# error analysis

KEY_RE = re.compile(
    r"(?i)(error|fatal|failed|failure|denied|cannot|can't|could not|couldn't|"
    r"unable|not found|no such|refused|invalid|exception|panic|abort|missing|"
    r"unknown|undefined|not allowed|forbidden|timed? ?out|conflict|mismatch|"
    r"incompatible|unsupported|expected|segmentation|killed|errno|not defined|"
    r"no module|violat|unresolved|mismatched|required|multiple definition|duplicate|"
    r"conflicting|overflow|blocked|read-only file|no space|too many|rejected|bad syntax)"
)
SKIP_RE = re.compile(
    r"^\s*(at |File \"|hint:|Run '|Use '|See '|\(Use |npm (error|ERR!) A complete log|"
    r"A complete log|Node\.js v|For more information|-->|\||\^|~|Caused by:|"
    r"\.\.\. \d+ more|\(See full trace)"
)
STRONG_RE = re.compile(
    r"^\s*([\w.$]*(Error|Exception|Failure)\b|fatal:|error(\[\w+\])?:|E:|FATAL|"
    r"ERROR|panic:|Exception in thread|Error:|\S+:\d+(:\d+)?: (fatal )?error)"
)


JOURNAL_RE = re.compile(r"^[A-Z][a-z]{2} +\d+ [\d:]+ \S+ [^:]+?: ")
SUMMARY_RE = re.compile(
    r"(?i)(could not compile|due to \d+ previous error|ld returned \d+ exit status|"
    r"^BUILD FAILED|^FAILURE: Build failed|aborting due to|Errors? were encountered|"
    r"complete log of this run|^make(\[\d+\])?: \*\*\* .*Error \d+$)"
)
WEAK_RE = re.compile(
    r"(?i)\b(not|no|isn't|can't|won't|obsolete|behind|crashloopbackoff|lacks|warning|stop|"
    r"requires?|needed|expecting)\b"
)


def key_line(lines: list[str]) -> str:
    """Pick the line a person would single out as "the error"."""
    traceback = any("Traceback (most recent call last)" in s or 'File "' in s for s in lines)
    best, best_score = None, 0.0
    prev = ""
    for i, raw in enumerate(lines):
        body = JOURNAL_RE.sub("", raw)
        s = body.strip()
        after_what = prev == "* What went wrong:"
        if s:
            prev = s
        if len(s) < 6 or SKIP_RE.match(body) or 'File "' in s:
            continue
        if traceback and body.startswith("    "):
            continue
        score = float(len(KEY_RE.findall(s)))
        if STRONG_RE.match(s):
            score += 3
        if after_what:
            score += 4
        if SUMMARY_RE.search(s):
            score -= 3
        if score <= 0:
            continue
        if traceback:
            score += i / 1000.0
        if score > best_score:
            best, best_score = raw.strip(), score
    if best is None:
        for raw in lines:
            if WEAK_RE.search(raw):
                return raw.strip()
        for raw in lines:
            if raw.strip():
                return raw.strip()
        return ""
    return best


def exit_code(err: str) -> int:
    low = err.lower()
    if "command not found" in low or "not found" in low and ": command" in low:
        return 127
    if "permission denied" in low and low.count("\n") == 0:
        return 126
    if "segmentation fault" in low:
        return 139
    if "killed" in low and "oom" in low:
        return 137
    if "usage:" in low:
        return 2
    return 1


def shorten(s: str, n: int) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1].rstrip() + "…"


def clip(lines: list[str], head: int, tail: int, marker: str = "[...]") -> list[str]:
    if len(lines) <= head + tail + 1:
        return list(lines)
    return lines[:head] + [marker] + lines[-tail:]


class Ctx:
    """Everything a template needs for one row."""

    def __init__(self, rng: random.Random, file: str, idx: int, command: str | None, error: str):
        self.rng = rng
        self.file = file
        self.idx = idx
        self.err = error.rstrip("\n").rstrip()
        while self.err.startswith("\n"):
            self.err = self.err[1:]
        self.lines = [s.rstrip() for s in self.err.split("\n")]
        self.key = key_line(self.lines)
        nonempty = [s for s in self.lines if s.strip()]
        self.first = nonempty[0].strip() if nonempty else ""
        self.last = nonempty[-1].strip() if nonempty else ""
        self.cmd = command.strip() if command else None
        m = re.search(r"/home/([\w.-]+)/((?:projects|code|src|work|repos|git)/)?([\w.-]+)", error)
        if m and not m.group(3).startswith("."):
            self.user, self.proj = m.group(1), (m.group(2) or "") + m.group(3)
        elif m:
            self.user, self.proj = m.group(1), rng.choice(PROJECTS)
        else:
            self.user, self.proj = rng.choice(["dev", "dev", "ana", "tberg", "pnair", "ci"]), rng.choice(PROJECTS)
        if "." in self.proj:
            self.proj = rng.choice(PROJECTS)
        self.proj_path, self.proj = self.proj, self.proj.rsplit("/", 1)[-1]
        self.home = f"/home/{self.user}"
        self.cwd = f"{self.home}/{self.proj_path}"
        self.run = self.cmd
        if self.run is None:
            pm = re.search(r'File "(/[^"]+\.py)"', error)
            if pm:
                path = pm.group(1)
                self.cwd = os.path.dirname(path)
                self.run = "python3 " + os.path.basename(path)
        self.tcwd = self.cwd.replace(self.home, "~", 1) if self.cwd.startswith(self.home) else self.cwd
        self.host = rng.choice(HOSTS)
        first, last = rng.choice(PEOPLE)
        self.first_name, self.last_name = first, last
        self.name = f"{first} {last}"
        self.handle = (first[0] + last).lower()
        other = rng.choice([p for p in PEOPLE if p[0] != first])
        self.other_first, self.other = other[0], f"{other[0]} {other[1]}"
        self.org = rng.choice(ORGS)
        self.email = f"{first.lower()}.{last.lower()}@{self.org}.example"
        base = dt.datetime(2024, 1, 8, 8, 0, tzinfo=dt.UTC)
        self.ts = base + dt.timedelta(seconds=rng.randrange(0, 60 * 60 * 24 * 540))
        if self.ts.hour < 7:
            self.ts += dt.timedelta(hours=8)
        self.code = exit_code(error)
        self.title = shorten(self.key, 72)

    # small helpers -----------------------------------------------------
    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def cmd_words(self) -> str:
        return self.run if self.run else "the script"

    def clipped(self, head: int = 6, tail: int = 6, marker: str = "[...]") -> list[str]:
        """Head and tail of the output; the key line is kept even if it sits in the middle."""
        shown = clip(self.lines, head, tail, marker)
        if len(shown) == len(self.lines) or any(s.strip() == self.key for s in shown):
            return shown
        k = next((i for i, s in enumerate(self.lines) if s.strip() == self.key), None)
        if k is None:
            return shown
        out = self.lines[:head]
        if k > head:
            out.append(marker)
        out.append(self.lines[k])
        if k < len(self.lines) - tail - 1:
            out.append(marker)
        return out + self.lines[-tail:]

    def body(self, head: int = 6, tail: int = 6, marker: str = "[...]") -> str:
        return "\n".join(self.clipped(head, tail, marker))

    def sha(self, n: int = 40) -> str:
        return "".join(self.rng.choice("0123456789abcdef") for _ in range(n))

    def later(self, minutes: int) -> dt.datetime:
        return self.ts + dt.timedelta(minutes=minutes)


def indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + s if s else prefix.rstrip() for s in text.split("\n"))


# --------------------------------------------------------------------------
# 1. powershell_transcript


def _ps_wrap(c: Ctx) -> tuple[str, str]:
    """Return (PowerShell command line, Linux-side prompt context)."""
    win_user = c.first_name.lower()
    cmd = c.run
    if c.chance(0.5):
        q = '"' if "'" in cmd else "'"
        line = f"wsl -e bash -lc {q}cd {c.tcwd} && {cmd}{q}"
    elif c.chance(0.5):
        line = f"wsl --cd {c.tcwd} {cmd}"
    else:
        q = "'" if '"' in cmd else '"'
        line = f"ssh {c.user}@{c.host} {q}cd {c.proj_path}; {cmd}{q}"
    return line, win_user


def ps_full(c: Ctx):
    if not c.run:
        return None
    line, wu = _ps_wrap(c)
    wh = c.pick(WIN_HOSTS)
    stamp = c.ts.strftime("%Y%m%d%H%M%S")
    end = c.later(c.rng.randint(1, 9)).strftime("%Y%m%d%H%M%S")
    rnd = "".join(c.rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(8))
    ver = c.pick(["7.4.2", "7.4.5", "7.3.12", "7.4.6"])
    return "\n".join([
        "**********************",
        "PowerShell transcript start",
        f"Start time: {stamp}",
        f"Username: {wh}\\{wu}",
        f"RunAs User: {wh}\\{wu}",
        "Configuration Name: ",
        f"Machine: {wh} (Microsoft Windows NT 10.0.{c.pick(['22631', '19045', '26100'])}.0)",
        "Host Application: C:\\Program Files\\PowerShell\\7\\pwsh.dll -WorkingDirectory ~",
        f"Process ID: {c.rng.randint(2000, 39999)}",
        f"PSVersion: {ver}",
        "PSEdition: Core",
        f"GitCommitId: {ver}",
        "OS: Microsoft Windows 10.0.22631",
        "Platform: Win32NT",
        "PSCompatibleVersions: 1.0, 2.0, 3.0, 4.0, 5.0, 5.1, 6.0, 7.0",
        "PSRemotingProtocolVersion: 2.3",
        "SerializationVersion: 1.1.0.1",
        "WSManStackVersion: 3.0",
        "**********************",
        f"Transcript started, output file is C:\\Users\\{wu}\\Documents\\PowerShell_transcript.{wh}.{rnd}.{stamp}.txt",
        f"PS C:\\Users\\{wu}> {line}",
        c.err,
        f"PS C:\\Users\\{wu}> $LASTEXITCODE",
        str(c.code),
        f"PS C:\\Users\\{wu}> Stop-Transcript",
        "**********************",
        "PowerShell transcript end",
        f"End time: {end}",
        "**********************",
    ])


def ps_native_error(c: Ctx):
    """Windows PowerShell 5.1 wraps the first stderr line in an ErrorRecord."""
    if not c.run:
        return None
    wu = c.first_name.lower()
    line = f"wsl {c.run}" if c.chance(0.6) else f"ssh {c.user}@{c.host} {c.run}"
    exe = line.split()[0]
    first = c.lines[0] if c.lines else c.key
    rest = c.lines[1:]
    tilde = "~" * min(len(line), 110)
    out = [
        f"PS C:\\Users\\{wu}\\src\\{c.proj}> {line}",
        f"{exe} : {first.strip()}",
        "At line:1 char:1",
        f"+ {line}",
        f"+ {tilde}",
        f"    + CategoryInfo          : NotSpecified: ({shorten(first, 60)}:String) [], RemoteException",
        "    + FullyQualifiedErrorId : NativeCommandError",
        " ",
    ]
    out += clip(rest, 14, 6, "...") if rest else []
    out.append(f"PS C:\\Users\\{wu}\\src\\{c.proj}> ")
    return "\n".join(out)


def ps_short(c: Ctx):
    wu = c.first_name.lower()
    stamp = c.ts.strftime("%Y%m%d%H%M%S")
    if c.run:
        line, _ = _ps_wrap(c)
        shown = [f"PS C:\\Users\\{wu}> {line}"] + c.clipped(4, 4, "...")
    else:
        shown = [f"PS C:\\Users\\{wu}> wsl"] + c.clipped(4, 4, "...")
    return "\n".join([
        f"(from PowerShell_transcript.{c.pick(WIN_HOSTS)}.{stamp}.txt, trimmed)",
        *shown,
        f"PS C:\\Users\\{wu}> ",
    ])


def ps_wsl_interactive(c: Ctx):
    wu = c.first_name.lower()
    wh = c.pick(WIN_HOSTS)
    prompt = f"{c.user}@{wh}:{c.tcwd}$ "
    cmd = c.run or f"cd {c.tcwd}"
    out = [
        "**********************",
        f"Command start time: {c.ts.strftime('%Y%m%d%H%M%S')}",
        "**********************",
        f"PS C:\\Users\\{wu}> wsl -d Ubuntu-{c.pick(['22.04', '24.04'])}",
        prompt + cmd,
        c.err,
        prompt + "exit",
        "logout",
        "**********************",
        f"Command start time: {c.later(2).strftime('%Y%m%d%H%M%S')}",
        "**********************",
        f"PS C:\\Users\\{wu}> Stop-Transcript",
    ]
    return "\n".join(out)


def ps_key_only(c: Ctx):
    wu = c.first_name.lower()
    pre = f"PS C:\\Users\\{wu}> wsl {c.run}" if c.run else f"PS C:\\Users\\{wu}> wsl python3"
    return "\n".join([
        "**********************",
        f"Command start time: {c.ts.strftime('%Y%m%d%H%M%S')}",
        "**********************",
        pre,
        c.key,
        "**********************",
        f"Command start time: {c.later(1).strftime('%Y%m%d%H%M%S')}",
        "**********************",
        f"PS C:\\Users\\{wu}> $?",
        "False",
    ])


# --------------------------------------------------------------------------
# 2. mailing_list_digest


def _ml_header(c: Ctx, lst: str, vol: int, issue: int, topics: list[tuple[str, str]]) -> list[str]:
    dom = f"lists.{c.org}.example"
    out = [
        f"Send {lst} mailing list submissions to",
        f"\t{lst}@{dom}",
        "",
        "To subscribe or unsubscribe via the World Wide Web, visit",
        f"\thttps://{dom}/mailman/listinfo/{lst}",
        "or, via email, send a message with subject or body 'help' to",
        f"\t{lst}-request@{dom}",
        "",
        "When replying, please edit your Subject line so it is more specific",
        f'than "Re: Contents of {lst} digest..."',
        "",
        "",
        "Today's Topics:",
        "",
    ]
    for i, (subj, who) in enumerate(topics, 1):
        out.append(f"   {i}. {subj} ({who})")
    out += ["", "", "-" * 70, ""]
    return out


def _ml_message(c: Ctx, n: int, lst: str, subj: str, body: str, qp: bool = False) -> list[str]:
    date = c.ts.strftime("%a, %d %b %Y %H:%M:%S +0000")
    mid = f"<{c.sha(12)}.{c.rng.randint(1000, 9999)}@{c.org}.example>"
    ctype = 'Content-Type: text/plain; charset="utf-8"'
    out = [
        f"Message: {n}",
        f"Date: {date}",
        f"From: {c.name} <{c.email}>",
        f"To: {lst}@lists.{c.org}.example",
        f"Subject: [{lst}] {subj}",
        f"Message-ID: {mid}",
        ctype,
    ]
    if qp:
        out.append("Content-Transfer-Encoding: quoted-printable")
        body = quopri.encodestring(body.encode("utf-8")).decode("ascii")
    out += ["", body, "", "", "-" * 30, ""]
    return out


def ml_question(c: Ctx):
    lst = c.pick(LIST_NAMES)
    subj = c.pick([
        f"{shorten(c.cmd_words(), 40)} fails on {c.host}",
        f"\"{shorten(c.key, 50)}\"",
        "help: build broken after update",
        f"error when running {shorten(c.cmd_words(), 40)}",
    ])
    intro = c.pick([
        f"Hi all,\n\nI'm stuck on something probably simple. In {c.tcwd} I run\n\n    $ {c.cmd_words()}\n\nand get:",
        f"Hello list,\n\nsince this morning `{c.cmd_words()}` stops with the following on {c.host}:",
        "Hi,\n\nfirst post here, apologies if this is the wrong list. This is what I get:",
    ])
    outro = c.pick([
        "Any pointers appreciated.", "Has anyone seen this before?",
        "What am I missing?", "Thanks in advance!",
    ])
    body = f"{intro}\n\n{indent(c.body(10, 8), '    ')}\n\n{outro}\n\n-- \n{c.first_name}"
    topics = [(f"Re: {c.pick(['disk quota on', 'VPN drops on', 'new runner for'])} {c.pick(HOSTS)}", c.other),
              (subj, c.name)]
    return "\n".join(_ml_header(c, lst, c.rng.randint(3, 60), c.rng.randint(1, 30), topics)
                     + _ml_message(c, 2, lst, subj, body, qp=c.chance(0.35))
                     + [f"End of {lst} Digest, Vol {c.rng.randint(3, 60)}, Issue {c.rng.randint(1, 30)}",
                        "*" * 40])


def ml_reply(c: Ctx):
    lst = c.pick(LIST_NAMES)
    subj = f"Re: {shorten(c.key, 55)}"
    when = c.ts - dt.timedelta(hours=c.rng.randint(2, 30))
    quoted = [
        f"On {when.strftime('%a, %d %b %Y at %H:%M')}, {c.other} wrote:",
        f"> I get this when running {c.cmd_words()}:",
        ">",
        indent(c.body(5, 5, "[snip]"), "> "),
        ">",
        "> Same machine worked last week.",
    ]
    mine = c.pick([
        "Same here, identical output on a fresh clone.",
        f"I can reproduce it on {c.host} too, exact same last line.",
        "Not a fix, but you're not alone: I see it as well since Tuesday.",
        "Which version are you on? I only see it on the newer one.",
    ])
    body = "\n".join(quoted) + "\n\n" + mine + "\n\n" + c.first_name
    return "\n".join(_ml_message(c, c.rng.randint(1, 6), lst, subj, body)).rstrip()


def ml_single_line(c: Ctx):
    lst = c.pick(LIST_NAMES)
    subj = c.pick(["quick question", "build error", f"{c.proj}: error on {c.host}", "newbie question"])
    body = (f"Hi,\n\nrunning `{c.cmd_words()}` ends with\n\n  {c.key}\n\n"
            f"(full log is {len(c.lines)} lines, can send it if useful)\n\nCheers,\n{c.first_name}")
    topics = [(subj, c.name), (f"Re: {c.pick(COMMITS)}", c.other)]
    return "\n".join(_ml_header(c, lst, c.rng.randint(3, 60), c.rng.randint(1, 30), topics)
                     + _ml_message(c, 1, lst, subj, body, qp=c.chance(0.3))).rstrip()


def ml_archive(c: Ctx):
    lst = c.pick(LIST_NAMES)
    thread = f"https://lists.{c.org}.example/pipermail/{lst}/{c.ts.strftime('%Y-%B')}/{c.rng.randint(100, 9999):06d}.html"
    out = [
        f"[{lst}] {shorten(c.key, 60)}",
        f"{c.name} {c.email.replace('@', ' at ')}",
        c.ts.strftime("%a %b %d %H:%M:%S UTC %Y"),
        "",
        f"    * Previous message: [{lst}] Re: {c.pick(COMMITS)}",
        f"    * Next message: [{lst}] Re: {shorten(c.key, 40)}",
        "    * Messages sorted by: [ date ] [ thread ] [ subject ] [ author ]",
        "",
        "-" * 40,
        "",
        c.pick(["Hi,", "Hello,", "Hey folks,"]),
        "",
        f"I ran {c.cmd_words()} and it printed:" if c.run else "My script dies with:",
        "",
        c.body(8, 8),
        "",
        c.pick(["Ideas?", "Any help welcome.", "Thanks."]),
        "",
        "-" * 40,
        thread,
    ]
    return "\n".join(out)


# --------------------------------------------------------------------------
# 3. pdf_extract

LIGS = [("ffi", "ﬃ"), ("ffl", "ﬄ"), ("ff", "ﬀ"), ("fi", "ﬁ"), ("fl", "ﬂ")]


def _ligate(text: str) -> str:
    for a, b in LIGS:
        text = text.replace(a, b)
    return text


def _pdf_wrap(c: Ctx, text: str, width: int) -> str:
    """Wrap prose like a justified PDF column, hyphenating some long words."""
    words = text.split()
    lines, cur = [], ""
    for w in words:
        if not cur:
            cur = w
        elif len(cur) + 1 + len(w) <= width:
            cur += " " + w
        elif len(w) > 7 and w.isalpha() and c.chance(0.6):
            room = width - len(cur) - 2
            cut = max(3, min(room, len(w) - 3))
            if room >= 3:
                lines.append(cur + " " + w[:cut] + "-")
                cur = w[cut:]
            else:
                lines.append(cur)
                cur = w
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return _ligate("\n".join(lines))


def _hard_wrap(lines: list[str], width: int) -> list[str]:
    out = []
    for s in lines:
        while len(s) > width:
            out.append(s[:width])
            s = s[width:]
        out.append(s)
    return out


def pdf_handout(c: Ctx):
    course = c.pick(["CS 2110 Lab", "Intro to Systems", "DevOps Bootcamp", "Research Computing Workshop"])
    week = c.rng.randint(2, 12)
    page = c.rng.randint(2, 14)
    prose = (f"If you run {c.cmd_words()} before finishing the setup steps in section {week}.2 you will most likely see "
             f"output similar to the following. Do not panic: read the last lines of the output first, they usually "
             f"tell you what the problem is.")
    listing = _hard_wrap(c.clipped(10, 6, "..."), c.pick([72, 78, 84]))
    prompt = [f"$ {c.run}"] if c.run else []
    return "\n".join([
        f"{course} — Week {week}",
        "",
        _pdf_wrap(c, prose, c.rng.randint(60, 74)),
        "",
        *prompt,
        *listing,
        "",
        f"Listing {week}.{c.rng.randint(1, 6)}: typical error output",
        "",
        f"{page}",
        "\f",
    ])


def pdf_report(c: Ctx):
    title = c.pick(["Post-incident review", "Build infrastructure report", "Onboarding findings", "Migration notes"])
    org = c.org.capitalize()
    page = c.rng.randint(3, 20)
    prose = (f"During the {c.pick(['dry run', 'migration window', 'onboarding session', 'nightly build'])} on "
             f"{c.ts.strftime('%d %B %Y')}, {c.first_name} executed the documented step on {c.host} and the "
             f"process terminated with the following message:")
    quote = _hard_wrap(c.clipped(4, 4, "…"), 70)
    prose2 = ("The remainder of the run was aborted. The configuration of the affected machine was "
              "captured for further analysis (see Appendix C).")
    parts = [
        f"{org} Engineering — {title}",
        "CONFIDENTIAL",
        "",
        _pdf_wrap(c, prose, c.rng.randint(62, 76)),
        "",
    ]
    if c.run:
        parts.append(f"    {c.run}")
    parts += ["    " + s if s else "" for s in quote]
    parts += ["", _pdf_wrap(c, prose2, c.rng.randint(62, 76)), "",
              f"Page {page} of {page + c.rng.randint(2, 12)}", "\f"]
    return "\n".join(parts)


def pdf_page_break(c: Ctx):
    """Console listing split across a page break with header/footer in the middle."""
    head = f"{c.pick(['Troubleshooting Guide', 'Runbook', 'Developer Handbook'])} v{c.rng.randint(1, 4)}.{c.rng.randint(0, 9)}"
    page = c.rng.randint(4, 30)
    lines = _hard_wrap(c.clipped(12, 8, "[...]"), 80)
    split = max(1, len(lines) // 2)
    prose = f"Example: output of {c.cmd_words()} on a misconfigured workstation."
    out = [_pdf_wrap(c, prose, 70), ""]
    if c.run:
        out.append(f"{c.user}@{c.host}:{c.tcwd}$ {c.run}")
    out += lines[:split]
    out += ["", f"{page}", "\f" + head, ""]
    out += lines[split:]
    out += ["", _pdf_wrap(c, "Figure 7: the error as printed in the terminal (continued from previous page).", 70)]
    return "\n".join(out)


def pdf_key_sentence(c: Ctx):
    prose = (f"A common stumbling block is the message “{c.key}”, which appears when "
             f"{('running ' + c.run) if c.run else 'the script is started'} in an environment that has not been "
             f"prepared as described in the previous chapter.")
    return "\n".join([
        f"{c.rng.randint(2, 9)}.{c.rng.randint(1, 9)} Frequently seen errors",
        "",
        _pdf_wrap(c, prose, c.rng.randint(58, 70)),
        "",
        f"{c.rng.randint(10, 120)}",
    ])


def pdf_table(c: Ctx):
    page = c.rng.randint(2, 40)
    cmd = _hard_wrap([c.run or "(script)"], 28)
    key = _hard_wrap([c.key], 46)
    n = max(len(cmd), len(key))
    cmd += [""] * (n - len(cmd))
    key += [""] * (n - len(key))
    rows = [f"{a:<30}{b}".rstrip() for a, b in zip(cmd, key, strict=True)]
    return "\n".join([
        "Table 3. Observed failures during lab setup",
        "",
        f"{'Command':<30}Message",
        "",
        *rows,
        "",
        f"{'Machine':<30}{c.host}",
        f"{'Reported by':<30}{c.name}",
        "",
        f"— {page} —",
    ])


# --------------------------------------------------------------------------
# 4. zulip_message


def zu_fenced(c: Ctx):
    stream, topic = c.pick(STREAMS), shorten(c.pick([c.proj, c.cmd_words(), "build failures", "setup"]), 40)
    hi = c.pick([f"@**{c.other}** ", "", "hey all, ", "quick one: "])
    lead = c.pick([
        f"{hi}`{c.cmd_words()}` is giving me this:",
        f"{hi}anyone seen this? ran `{c.cmd_words()}` on {c.host}",
        f"{hi}stuck on this since lunch :sweat_smile:",
    ])
    return (f"#**{stream}>{topic}**  ·  {c.name}  ·  {c.ts.strftime('%b %d, %I:%M %p')}\n\n"
            f"{lead}\n```text\n{c.body(14, 8)}\n```")


def zu_spoiler(c: Ctx):
    return (f"**{c.name}** in #{c.pick(STREAMS)} > {c.proj}\n\n"
            f"`{c.cmd_words()}` dies with `{c.key}`\n"
            f"````spoiler full output\n```text\n{c.err}\n```\n````")


def zu_quote(c: Ctx):
    mid = c.rng.randint(100000, 999999)
    return (f"@_**{c.other}|{c.rng.randint(10, 900)}** [said](https://chat.{c.org}.example/#narrow/stream/"
            f"{c.rng.randint(2, 40)}-{c.pick(STREAMS)}/topic/{c.proj}/near/{mid}):\n"
            f"```quote\n{c.body(3, 3, '...')}\n```\n"
            f"{c.pick(['same here', 'getting exactly this on my machine too', '+1, hit it after pulling main', 'this. since the update'])}"
            f" — `{c.cmd_words()}`")


def zu_plain_copy(c: Ctx):
    t = c.ts
    return "\n".join([
        f"{c.name}",
        t.strftime("%I:%M %p").lstrip("0"),
        f"ran {c.cmd_words()} and",
        c.key,
        c.other,
        (t + dt.timedelta(minutes=1)).strftime("%I:%M %p").lstrip("0"),
        c.pick(["full output?", "which branch?", "can you paste the whole thing?"]),
        c.name,
        (t + dt.timedelta(minutes=3)).strftime("%I:%M %p").lstrip("0"),
        c.body(6, 6),
    ])


def zu_me(c: Ctx):
    return (f"/me is fighting `{c.cmd_words()}` again\n\n"
            f"```console\n$ {c.cmd_words()}\n{c.body(6, 4)}\n```\n"
            f"@**{c.other}** you touched this last, any idea? #**{c.pick(STREAMS)}>{c.proj}**")


# --------------------------------------------------------------------------
# 5. obsidian_note


def _tag(c: Ctx) -> str:
    word = (c.run or "python").split()[0].split("/")[-1].strip("./")
    word = re.sub(r"[^\w-]", "", word) or "debug"
    return word.lower()


def ob_callout(c: Ctx):
    kind = c.pick(["bug", "failure", "error", "danger", "quote"])
    fold = c.pick(["", "-", "+"])
    return "\n".join([
        "---",
        f"created: {c.ts.strftime('%Y-%m-%d %H:%M')}",
        f"tags: [debugging, {_tag(c)}]",
        f"project: \"[[{c.proj}]]\"",
        "---",
        f"# {shorten(c.key, 60)}",
        "",
        f"Ran `{c.cmd_words()}` in `{c.tcwd}` on {c.host}." if c.run else f"Script in `{c.tcwd}` blew up.",
        "",
        f"> [!{kind}]{fold} Output",
        "> ```",
        indent(c.body(12, 8), "> "),
        "> ```",
        "",
        "- [ ] find out why",
        f"- [ ] ask [[{c.other}]] if it keeps happening",
        "",
        f"Related: [[{c.pick(['Python venv notes', 'Dev machine setup', 'CI quirks', 'Docker cheatsheet'])}]]",
    ])


def ob_daily(c: Ctx):
    d = c.ts
    t = d.strftime("%H:%M")
    t2 = c.later(c.rng.randint(5, 40)).strftime("%H:%M")
    return "\n".join([
        f"# {d.strftime('%Y-%m-%d %A')}",
        "",
        f"<< [[{(d - dt.timedelta(days=1)).strftime('%Y-%m-%d')}]] | [[{(d + dt.timedelta(days=1)).strftime('%Y-%m-%d')}]] >>",
        "",
        "## Log",
        f"- {c.ts.replace(hour=9, minute=0).strftime('%H:%M')} standup",
        f"- {t} `{c.cmd_words()}` → `{c.key}`",
        f"- {t2} still broken #stuck",
        "",
        "## Tasks",
        f"- [ ] fix {c.proj} build 📅 {d.strftime('%Y-%m-%d')}",
    ])


def ob_inline_fields(c: Ctx):
    return "\n".join([
        f"# Error – {c.proj}",
        "status:: open",
        f"seen:: {c.ts.strftime('%Y-%m-%d')}",
        f"machine:: [[{c.host}]]",
        f"command:: `{c.cmd_words()}`",
        f"message:: {c.key}",
        "",
        "## Full output",
        "```",
        c.body(10, 10),
        "```",
    ])


def ob_embed(c: Ctx):
    return "\n".join([
        f"## {c.ts.strftime('%H:%M')} — {c.cmd_words()}",
        "",
        c.pick(["Copied straight from the terminal:", "what it printed:", "error:"]),
        "",
        "```shell",
        *([f"$ {c.run}"] if c.run else []),
        c.body(4, 6, "…"),
        "```",
        f"%% first line: {c.first} %%",
        f"![[Screenshot {c.ts.strftime('%Y-%m-%d at %H.%M.%S')}.png|400]]",
        "#todo #error",
    ])


def ob_highlight(c: Ctx):
    return "\n".join([
        f"- [[{c.ts.strftime('%Y-%m-%d')}]] {c.pick(['trying to', 'attempt #2 to', 'again trying to'])} run `{c.cmd_words()}`",
        f"\t- ==`{c.key}`==",
        f"\t- full thing in [[{c.proj} errors#{c.ts.strftime('%Y-%m-%d')}]]",
        "\t- > [!question] why?",
        f"\t  > last line was `{c.last}`",
    ])


# --------------------------------------------------------------------------
# 6. kanban_card


def kb_copy(c: Ctx):
    col = c.pick(["Blocked", "Doing", "To Do", "Needs triage"])
    return "\n".join([
        shorten(c.pick([f"{c.cmd_words()} fails", c.key, f"{c.proj}: broken step"]), 70),
        f"in list {col}",
        f"{c.pick(BOARDS)}",
        "",
        "Labels",
        c.pick(["bug", "bug  infra", "blocked  build", "dev-env"]),
        "Members",
        c.first_name[0] + c.last_name[0],
        "",
        "Description",
        c.pick([f"Running `{c.cmd_words()}` on {c.host}:",
                f"Happens every time on {c.host} when I run `{c.cmd_words()}`.",
                "Output below."]),
        "```",
        c.body(8, 6),
        "```",
        "",
        "Activity",
        f"{c.name} added this card to {col}",
        c.ts.strftime("%b %d, %Y, %I:%M %p"),
    ])


def kb_json(c: Ctx):
    desc = (f"Ran `{c.cmd_words()}`\n\n```\n{c.body(6, 6)}\n```" if c.chance(0.6)
            else f"`{c.key}` when running `{c.cmd_words()}`")
    card = {
        "id": c.sha(24),
        "name": shorten(c.pick([c.key, f"{c.cmd_words()} broken"]), 80),
        "desc": desc,
        "idList": c.sha(24),
        "closed": False,
        "dateLastActivity": c.ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{c.rng.randint(0, 999):03d}Z",
        "labels": [{"name": c.pick(["bug", "blocked", "build"]), "color": c.pick(["red", "orange", "purple"])}],
        "shortUrl": f"https://trello.com/c/{c.sha(8)}",
    }
    return json.dumps(card, indent=2, ensure_ascii=False)


def kb_activity(c: Ctx):
    t = c.ts
    return "\n".join([
        f"{c.name} moved this card from Doing to Blocked",
        (t + dt.timedelta(minutes=2)).strftime("%b %d at %I:%M %p"),
        "",
        f"{c.name}",
        c.pick([f"`{c.cmd_words()}` still fails:", "Blocked on this:", "Same error again after rebasing:"]),
        f"> {c.key}",
        t.strftime("%b %d at %I:%M %p") + " (edited)",
        "",
        f"{c.other} joined this card",
    ])


def kb_column(c: Ctx):
    n = c.rng.randint(101, 499)
    return "\n".join([
        f"BLOCKED ({c.rng.randint(1, 4)})",
        f"  • #{n - c.rng.randint(3, 40)} {c.pick(COMMITS)} — waiting on review",
        f"  • #{n} {shorten(c.cmd_words(), 40)} fails on {c.host} — {c.first_name}",
        f"      {c.key}",
        f"      since {c.ts.strftime('%a %d %b')}",
        "",
        f"DOING ({c.rng.randint(1, 5)})",
        f"  • #{n + 1} {c.pick(COMMITS)}",
    ])


def kb_checklist(c: Ctx):
    steps = [
        "clone repo", "create venv / install deps",
        f"run `{c.cmd_words()}`", "open PR",
    ]
    return "\n".join([
        f"Card: Set up {c.proj} on {c.host}",
        f"Due: {(c.ts + dt.timedelta(days=2)).strftime('%d %b')}",
        "",
        "Checklist 2/4",
        f"[x] {steps[0]}",
        f"[x] {steps[1]}",
        f"[ ] {steps[2]}  ← fails: {c.key}",
        f"[ ] {steps[3]}",
        "",
        "Comment:",
        "```",
        c.body(3, 5, "..."),
        "```",
    ])


# --------------------------------------------------------------------------
# 7. meeting_minutes


def mm_weekly(c: Ctx):
    people = sorted({c.first_name, c.other_first, c.pick(PEOPLE)[0], c.pick(PEOPLE)[0]})
    return "\n".join([
        f"{c.pick(['Weekly sync', 'Platform standup (long form)', 'Team meeting', 'Build WG'])} — {c.ts.strftime('%Y-%m-%d')}",
        f"Attendees: {', '.join(people)}",
        "",
        "Agenda",
        "1. Release status",
        "2. Blockers",
        "3. AOB",
        "",
        "Notes",
        f"- Release: {c.pick(['on track', 'slipping a few days', 'RC cut on Monday'])}",
        f"- Blockers: {c.first_name} — `{c.cmd_words()}` fails on {c.host}, output:",
        indent(c.body(4, 4, "…"), "      "),
        f"  - {c.other_first} saw something similar before, will pair after the meeting",
        "",
        "Action items",
        f"- [ ] {c.first_name}: share full log in the channel",
        f"- [ ] {c.other_first}: pair with {c.first_name} on the {c.proj} error",
    ])


def mm_invite(c: Ctx):
    start = c.ts.replace(minute=0) + dt.timedelta(hours=1)
    end = start + dt.timedelta(minutes=30)
    return "\n".join([
        f"Debug session: {shorten(c.key, 50)}",
        f"{start.strftime('%A, %B %d')} · {start.strftime('%H:%M')} – {end.strftime('%H:%M')} (UTC)",
        f"Organizer: {c.email}",
        f"Guests: {c.other.split()[0].lower()}.{c.other.split()[1].lower()}@{c.org}.example",
        "",
        "Description:",
        f"Can we look at this together? `{c.cmd_words()}` on {c.host}:",
        "",
        c.body(8, 6),
        "",
        f"Join: https://meet.{c.org}.example/{c.sha(3)}-{c.sha(4)}-{c.sha(3)}",
    ])


def mm_passive(c: Ctx):
    return "\n".join([
        f"Minutes — {c.pick(['Infra', 'Onboarding', 'Lab IT', 'Release'])} meeting, {c.ts.strftime('%d %B %Y')}",
        f"Present: {c.first_name[0]}{c.last_name[0]}, {c.other_first[0]}{c.other.split()[1][0]} (chair), "
        f"{c.pick(PEOPLE)[0]} (minutes)",
        "",
        f"3. It was reported that running {c.cmd_words()} on {c.host} ends with:",
        f"     \"{c.key}\"",
        "   The issue has been seen twice this week. No owner was assigned yet.",
        "",
        "4. AOB — none.",
    ])


def mm_retro(c: Ctx):
    return "\n".join([
        f"Sprint {c.rng.randint(10, 80)} retro",
        "",
        "😞 What didn't go well",
        f"  - lost half a day to `{c.cmd_words()}` → \"{shorten(c.key, 90)}\" ({c.first_name}) +{c.rng.randint(1, 4)}",
        f"  - flaky {c.pick(['e2e', 'integration', 'staging'])} tests +{c.rng.randint(1, 3)}",
        "",
        "🙂 What went well",
        f"  - {c.pick(['pairing', 'the new dashboards', 'shorter reviews'])}",
        "",
        "🔧 Actions",
        f"  - document the {c.proj} setup error in the wiki ({c.first_name})",
    ])


def mm_transcript_summary(c: Ctx):
    return "\n".join([
        f"Notes from call with {c.other_first} ({c.ts.strftime('%d.%m.%Y %H:%M')})",
        f"* {c.other_first} shared screen, ran {c.cmd_words()}",
        "* terminal showed:",
        "",
        indent(c.body(2, 5, "..."), "    "),
        "",
        "* happens on their laptop, not on mine",
        "* next: compare versions",
    ])


# --------------------------------------------------------------------------
# 8. bisect_log


def _commit_line(c: Ctx) -> str:
    return f"[{c.sha()}] {c.pick(COMMITS)}"


def bi_run(c: Ctx):
    if not c.run:
        return None
    q = c.run.replace("'", "'\\''")
    good_sha, bad_sha = c.sha(), c.sha()
    revs = c.rng.randint(5, 40)
    step_sha = c.sha()
    first_bad = c.sha()
    subj = c.pick(COMMITS)
    return "\n".join([
        f"$ git bisect start {bad_sha[:10]} {good_sha[:10]}",
        f"Bisecting: {revs} revisions left to test after this (roughly {max(1, revs.bit_length() - 1)} steps)",
        f"[{step_sha}] {c.pick(COMMITS)}",
        f"$ git bisect run sh -c '{q}'",
        f"running  'sh' '-c' '{c.run}'",
        c.body(10, 6),
        f"Bisecting: {revs // 2} revisions left to test after this (roughly {max(1, (revs // 2).bit_length() - 1)} steps)",
        f"[{c.sha()}] {c.pick(COMMITS)}",
        f"running  'sh' '-c' '{c.run}'",
        *([c.key] if c.chance(0.5) else []),
        f"{first_bad} is the first bad commit",
        f"commit {first_bad}",
        f"Author: {c.other} <{c.other.split()[0].lower()}@{c.org}.example>",
        f"Date:   {(c.ts - dt.timedelta(days=c.rng.randint(1, 20))).strftime('%a %b %d %H:%M:%S %Y')} +0200",
        "",
        f"    {subj}",
        "",
        f" {c.pick(['requirements.txt', 'Dockerfile', 'go.mod', 'package.json', 'Makefile', 'Cargo.toml'])} | {c.rng.randint(1, 9)} {'+' * c.rng.randint(1, 4)}{'-' * c.rng.randint(1, 3)}",
        " 1 file changed",
        "bisect found first bad commit",
    ])


def bi_log(c: Ctx):
    good, bad = c.sha(), c.sha()
    out = [
        "git bisect start",
        "# status: waiting for both good and bad commits",
        f"# bad: [{bad}] {c.pick(COMMITS)}",
        f"git bisect bad {bad}",
        "# status: waiting for good commit(s), bad commit known",
        f"# good: [{good}] Release v{c.rng.randint(0, 3)}.{c.rng.randint(0, 20)}.0",
        f"git bisect good {good}",
    ]
    for _ in range(c.rng.randint(2, 4)):
        s = c.sha()
        verdict = c.pick(["good", "bad"])
        out += [f"# {verdict}: [{s}] {c.pick(COMMITS)}", f"git bisect {verdict} {s}"]
    fb = c.sha()
    out.append(f"# first bad commit: [{fb}] {c.pick(COMMITS)}")
    note = c.pick([
        f"bisected `{c.cmd_words()}` failing with\n\n    {c.key}\n\nlog:",
        f"Here's my bisect log; \"bad\" = `{c.cmd_words()}` prints `{c.key}`",
        f"bisect log (test: {c.cmd_words()}; bad means it ends in \"{shorten(c.last, 80)}\")",
    ])
    return note + "\n\n" + "\n".join(out)


def bi_manual(c: Ctx):
    rest = f"{c.user}@{c.host}:{c.tcwd}$ "
    s1, s2 = c.sha(), c.sha()
    run = c.run or "python3 main.py"
    return "\n".join([
        rest + "git bisect bad",
        f"Bisecting: {c.rng.randint(2, 12)} revisions left to test after this (roughly {c.rng.randint(1, 4)} steps)",
        f"[{s1}] {c.pick(COMMITS)}",
        rest + run,
        c.body(6, 5),
        rest + "git bisect bad",
        "Bisecting: 0 revisions left to test after this (roughly 0 steps)",
        f"[{s2}] {c.pick(COMMITS)}",
        rest + run,
        c.key,
        rest + "git bisect bad",
        f"{s2} is the first bad commit",
    ])


def bi_replay_file(c: Ctx):
    return "\n".join([
        f"# {c.proj}: bisect for \"{shorten(c.key, 60)}\"",
        f"# test command: {c.cmd_words()}",
        "# output at each bad step (identical every time):",
        *["#   " + s for s in c.clipped(3, 3, "...")],
        "git bisect start",
        f"# bad: [{c.sha()}] {c.pick(COMMITS)}",
        f"git bisect bad {c.sha()}",
        f"# good: [{c.sha()}] {c.pick(COMMITS)}",
        f"git bisect good {c.sha()}",
        f"# first bad commit: {_commit_line(c)}",
    ])


# --------------------------------------------------------------------------
# 9. support_widget

BOT_HELLO = [
    "Hi there 👋 How can we help today?",
    "Hello! Ask us anything, or share your feedback.",
    "Hey! 👋 We typically reply in a few minutes.",
]
AGENT_REPLIES = [
    "Thanks for sending that over! Which OS and version are you on?",
    "Got it, let me check with our engineering team and get back to you.",
    "Thanks — could you tell me when this started happening?",
    "I'm sorry about that! I've created a ticket so the team can take a look.",
    "Thanks! Does it happen every time, or only sometimes?",
]


def _clock(t: dt.datetime) -> str:
    return t.strftime("%I:%M %p").lstrip("0")


def sw_full(c: Ctx):
    t = c.ts
    product = c.pick(["Acme Cloud", "Kestrel CLI", "Bluefin SDK", "Orbit Deploy", "Fieldlab Desktop"])
    return "\n".join([
        f"Conversation with {c.first_name} · {product} · started from https://docs.{c.org}.example/{c.pick(['install', 'quickstart', 'cli', 'getting-started'])}",
        f"Visitor: {c.email} · {c.pick(['Chrome 124 on Linux', 'Firefox 126 on Ubuntu', 'Safari on macOS', 'Edge on Windows'])}",
        "",
        f"[{_clock(t)}] Bot: {c.pick(BOT_HELLO)}",
        f"[{_clock(t)}] {c.first_name}: {c.pick(['install fails', 'getting an error', 'your quickstart does not work', 'help with an error pls'])}",
        f"[{_clock(t)}] Bot: Could you paste the exact error message? A teammate will join shortly.",
        f"[{_clock(t + dt.timedelta(minutes=1))}] {c.first_name}: {('ran ' + c.run) if c.run else 'here'}",
        f"[{_clock(t + dt.timedelta(minutes=1))}] {c.first_name}: {c.body(8, 6)}",
        f"[{_clock(t + dt.timedelta(minutes=4))}] {c.pick(['Sam', 'Riley', 'Jordan', 'Alex'])} (Support): {c.pick(AGENT_REPLIES)}",
    ])


def sw_collapsed(c: Ctx):
    """Single-line chat inputs collapse the pasted newlines into spaces."""
    flat = " ".join(s.strip() for s in c.clipped(6, 4, "...") if s.strip())
    t = c.ts
    return "\n".join([
        f"Chat transcript — {t.strftime('%d %b %Y')}",
        "",
        f"{_clock(t)} | Visitor {c.rng.randint(1000, 99999)}: hi",
        f"{_clock(t)} | Visitor: when I do {c.cmd_words()} I get {flat}",
        f"{_clock(t + dt.timedelta(minutes=2))} | Operator: {c.pick(AGENT_REPLIES)}",
        f"{_clock(t + dt.timedelta(minutes=3))} | Visitor: {c.pick(['ubuntu 22.04', 'debian', 'WSL2', 'fedora 40', 'mac but inside docker'])}",
    ])


def sw_email_transcript(c: Ctx):
    t = c.ts
    agent = c.pick(["Sam", "Riley", "Jordan", "Alex", "Morgan"])
    return "\n".join([
        f"Subject: Your conversation with {c.org.capitalize()} Support",
        "",
        "Here's a copy of your conversation:",
        "",
        f"You ({_clock(t)}):",
        f"{c.pick(['Hi, ', 'Hello, ', ''])}I'm following the setup guide and {c.cmd_words()} fails with:",
        "",
        c.body(6, 6),
        "",
        f"{agent} ({_clock(t + dt.timedelta(minutes=3))}):",
        c.pick(AGENT_REPLIES),
        "",
        f"You ({_clock(t + dt.timedelta(minutes=5))}):",
        c.pick(["ok thanks", "it happens every time", "started today after updating", "👍"]),
        "",
        "—",
        f"Conversation #{c.rng.randint(10000, 999999)}. Reply to this email to continue.",
    ])


def sw_attachment(c: Ctx):
    t = c.ts
    fname = c.pick(["error.txt", "output.log", "log.txt", "terminal.txt"])
    return "\n".join([
        f"{_clock(t)}  Visitor ({c.first_name})",
        f"{c.pick(['my', 'the'])} {shorten(c.cmd_words(), 40)} command stops with '{c.key}'",
        f"📎 {fname} ({max(1, len(c.err) // 1024)}.{c.rng.randint(0, 9)} KB)",
        "",
        f"{_clock(t + dt.timedelta(minutes=1))}  Bot",
        "Thanks! We've received your file. Our team usually replies within 2 hours.",
        "",
        f"{_clock(t + dt.timedelta(minutes=1))}  Visitor ({c.first_name})",
        "last lines are:",
        *[s for s in c.lines[-3:]],
    ])


def sw_widget_box(c: Ctx):
    return "\n".join([
        "┌ Chat with us ─────────────────── ✕ ┐",
        f"  {c.pick(BOT_HELLO)}",
        "",
        f"  You · {_clock(c.ts)}",
        f"  {c.key}",
        f"  (that's from {c.cmd_words()})",
        "",
        "  Typing…",
        "└ Write a message…            📎  ➤ ┘",
    ])


# --------------------------------------------------------------------------
# 10. wiki_talk


def _sig(c: Ctx, name: str | None = None, t: dt.datetime | None = None) -> str:
    name = name or c.name
    user = name.replace(" ", "")
    t = t or c.ts
    return f"[[User:{user}|{name.split()[0]}]] ([[User talk:{user}|talk]]) {t.strftime('%H:%M, %-d %B %Y')} (UTC)"


def wt_pre(c: Ctx):
    heading = c.pick([f"<code>{shorten(c.cmd_words(), 40)}</code> fails", f"Error: {shorten(c.key, 50)}",
                      "Install instructions outdated?", f"Problem on {c.pick(['Ubuntu', 'Debian', 'Fedora', 'WSL'])}"])
    reply = c.pick([
        f":Same here on {c.host}. {_sig(c, c.other, c.later(300))}",
        f":Can you post your versions? {_sig(c, c.other, c.later(95))}",
        f":Confirmed with a fresh checkout. {_sig(c, c.other, c.later(1440))}",
    ])
    return "\n".join([
        f"== {heading} ==",
        f"Following the page I ran <code>{c.cmd_words()}</code> and got:",
        "<pre>",
        c.body(12, 8),
        "</pre>",
        f"Is the page out of date or am I doing something wrong? {_sig(c)}",
        reply,
    ])


def wt_syntaxhighlight(c: Ctx):
    return "\n".join([
        f"== {shorten(c.key, 60)} ==",
        f"{{{{unsigned|{c.rng.randint(10, 200)}.{c.rng.randint(0, 255)}.{c.rng.randint(0, 255)}.{c.rng.randint(1, 254)}}}}}"
        if c.chance(0.3) else "",
        f"Step 4 doesn't work for me. <code>{c.cmd_words()}</code> prints",
        '<syntaxhighlight lang="text">',
        c.body(8, 8),
        "</syntaxhighlight>",
        f"--{_sig(c)}",
    ]).replace("\n\n", "\n")


def wt_nested(c: Ctx):
    return "\n".join([
        f"== Section \"{c.pick(['Building', 'Setup', 'Running tests', 'Deployment'])}\" ==",
        f"The command in this section gives me an error. {_sig(c, c.other, c.ts - dt.timedelta(days=3))}",
        f":What error? {_sig(c, 'Wiki Gnome', c.ts - dt.timedelta(days=2))}",
        f"::Not the original poster but I get <code><nowiki>{c.key}</nowiki></code> when running <code>{c.cmd_words()}</code>. {_sig(c)}",
        f":::{c.pick(['Same.', 'Me too, on a clean VM.', 'Seeing it as well.'])} {_sig(c, c.pick(PEOPLE)[0] + ' ' + c.pick(PEOPLE)[1], c.later(60))}",
    ])


def wt_leading_space(c: Ctx):
    """Wikitext preformatted by leading spaces."""
    return "\n".join([
        f"=== {c.ts.strftime('%B %Y')}: {shorten(c.cmd_words(), 40)} ===",
        "Running",
        f" $ {c.cmd_words()}",
        "gives",
        *[" " + s for s in c.clipped(5, 5, "...")],
        f"on a {c.pick(['stock', 'fresh', 'company'])} laptop. Ideas? {_sig(c)}",
    ])


def wt_rendered(c: Ctx):
    """The same talk thread as seen rendered and copied from the browser."""
    return "\n".join([
        f"{shorten(c.key, 70)}",
        "[edit source]",
        f"I ran {c.cmd_words()} and got:",
        "",
        c.body(6, 6),
        "",
        f"{c.first_name} (talk) {c.ts.strftime('%H:%M, %-d %B %Y')} (UTC)",
        "Reply",
        f"    {c.pick(['Same problem here.', 'Which version?', 'Happens for me too.'])} {c.other.split()[0]} (talk) "
        f"{c.later(200).strftime('%H:%M, %-d %B %Y')} (UTC)",
    ])


# --------------------------------------------------------------------------
# 11. cron_mail


def _cron_spec(c: Ctx) -> str:
    return c.pick(["15 2 * * *", "*/30 * * * *", "0 6 * * 1-5", "@daily", "5 4 * * 0"])


def _cron_cmd(c: Ctx) -> str:
    run = c.run or "python3 job.py"
    return f"cd {c.cwd} && {run}"


def cm_raw(c: Ctx):
    t = c.ts.replace(hour=c.rng.choice([2, 3, 4, 6]), minute=c.rng.choice([0, 5, 15, 30]), second=1)
    host = c.host
    return "\n".join([
        f"From {c.user}@{host}  {t.strftime('%a %b %e %H:%M:%S %Y')}",
        f"Return-Path: <{c.user}@{host}>",
        f"From: root@{host} (Cron Daemon)",
        f"To: {c.user}@{host}",
        f"Subject: Cron <{c.user}@{host}> {_cron_cmd(c)}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
        "X-Cron-Env: <SHELL=/bin/sh>",
        f"X-Cron-Env: <HOME={c.home}>",
        "X-Cron-Env: <PATH=/usr/bin:/bin>",
        f"X-Cron-Env: <LOGNAME={c.user}>",
        f"Message-Id: <{t.strftime('%Y%m%d%H%M%S')}.{c.sha(10).upper()}@{host}>",
        f"Date: {t.strftime('%a, %e %b %Y %H:%M:%S +0000 (UTC)')}",
        "",
        c.err,
        "",
    ])


def cm_mailx(c: Ctx):
    t = c.ts.replace(hour=c.rng.choice([1, 2, 3, 5]), minute=c.rng.choice([0, 10, 30]))
    n = c.rng.randint(2, 40)
    host = c.host
    subj = f"Cron <{c.user}@{host}> {_cron_cmd(c)}"
    return "\n".join([
        f"{c.user}@{host}:~$ mail",
        f"\"/var/mail/{c.user}\": {n} messages {n} new",
        f">N   1 Cron Daemon        {t.strftime('%a %b %e %H:%M')}  {12 + len(c.lines)}/{300 + len(c.err)}   {shorten(subj, 40)}",
        f" N   2 Cron Daemon        {(t + dt.timedelta(days=1)).strftime('%a %b %e %H:%M')}  {12 + len(c.lines)}/{300 + len(c.err)}   {shorten(subj, 40)}",
        "? 1",
        f"Return-Path: <{c.user}@{host}>",
        f"From: root@{host} (Cron Daemon)",
        f"Subject: {subj}",
        f"Date: {t.strftime('%a, %e %b %Y %H:%M:%S +0000')}",
        "",
        c.body(20, 10),
        "? q",
    ])


def cm_mutt(c: Ctx):
    host = c.host
    t = c.ts
    return "\n".join([
        "i:Exit  -:PrevPg  <Space>:NextPg v:View Attachm.  d:Del  r:Reply  j:Next ?:Help",
        f"Date: {t.strftime('%a, %d %b %Y %H:%M:%S +0000')}",
        f"From: Cron Daemon <root@{host}>",
        f"To: {c.user}@{host}",
        f"Subject: Cron <{c.user}@{host}> {_cron_cmd(c)}",
        "",
        c.body(14, 6),
        "",
        f"-N +- 1/{c.rng.randint(3, 90)}: Cron Daemon          Cron <{c.user}@{host}> ...         -- (all)",
    ])


def cm_forward(c: Ctx):
    host = c.host
    return "\n".join([
        c.pick([
            f"Hi {c.other_first}, this lands in my inbox every night since {c.ts.strftime('%A')}:",
            f"FYI — nightly job on {host} is failing, see below.",
            "Is anyone else getting these? Started a few days ago.",
        ]),
        "",
        "---------- Forwarded message ---------",
        f"From: Cron Daemon <root@{host}>",
        f"Date: {c.ts.strftime('%a, %b %d, %Y at %I:%M %p').replace(' 0', ' ')}",
        f"Subject: Cron <{c.user}@{host}> {_cron_cmd(c)}",
        f"To: <{c.user}@{host}>",
        "",
        "",
        c.body(8, 8),
        "",
        f"{c.first_name}",
    ])


def cm_crontab_note(c: Ctx):
    return "\n".join([
        f"{c.user}@{c.host}:~$ crontab -l | grep -v '^#'",
        f"{_cron_spec(c)} {_cron_cmd(c)}",
        f"{c.user}@{c.host}:~$ tail -n {min(len(c.lines) + 2, 30)} /var/mail/{c.user}",
        f"Subject: Cron <{c.user}@{c.host}> {_cron_cmd(c)}",
        f"Date: {c.ts.strftime('%a, %e %b %Y %H:%M:%S +0000 (UTC)')}",
        "",
        c.body(12, 12),
        "",
    ])


# --------------------------------------------------------------------------
# 12. ansible_play


def _stars(title: str) -> str:
    return title + " " + "*" * max(3, 79 - len(title))


def _ans_task(c: Ctx) -> str:
    word = _tag(c)
    return c.pick([f"{c.proj} : run {word}", f"build {c.proj}", f"app : {word} step",
                   f"Run {shorten(c.cmd_words(), 30)}", "deploy : build release"])


def _ans_result(c: Ctx, with_cmd: bool = True) -> dict:
    start = c.ts.replace(tzinfo=None)
    end = start + dt.timedelta(seconds=c.rng.randint(0, 40), microseconds=c.rng.randint(0, 999999))
    res = {"changed": True}
    if with_cmd:
        res["cmd"] = c.run
    res["delta"] = str(end - start)
    res["end"] = end.strftime("%Y-%m-%d %H:%M:%S.%f")
    res["msg"] = "non-zero return code"
    res["rc"] = c.code
    res["start"] = start.strftime("%Y-%m-%d %H:%M:%S.%f")
    res["stderr"] = c.err
    res["stderr_lines"] = c.lines
    res["stdout"] = ""
    res["stdout_lines"] = []
    return res


def _recap(hosts: list[str], failed: str) -> list[str]:
    out = [_stars("PLAY RECAP"), ]
    for h in hosts:
        f = 1 if h == failed else 0
        out.append(f"{h:<27}: ok={3 + f}    changed={1 + f}    unreachable=0    failed={f}    skipped=0    rescued=0    ignored=0   ")
    return out


def an_default(c: Ctx):
    if not c.run:
        return None
    host = c.pick(HOSTS)
    return "\n".join([
        _stars(f"TASK [{_ans_task(c)}]"),
        f"fatal: [{host}]: FAILED! => " + json.dumps(_ans_result(c), ensure_ascii=False),
        "",
        *_recap([host], host),
    ])


def an_yaml(c: Ctx):
    if not c.run:
        return None
    host = c.pick(HOSTS)
    res = _ans_result(c)
    body = "\n".join(["      " + s if s else "" for s in c.lines])
    return "\n".join([
        _stars(f"PLAY [{c.pick(['app servers', 'all', 'build hosts', 'workers'])}]"),
        "",
        _stars("TASK [Gathering Facts]"),
        f"ok: [{host}]",
        "",
        _stars(f"TASK [{_ans_task(c)}]"),
        f"fatal: [{host}]: FAILED! => changed=true ",
        f"  cmd: {c.run}",
        f"  delta: '{res['delta']}'",
        f"  end: '{res['end']}'",
        "  msg: non-zero return code",
        f"  rc: {c.code}",
        f"  start: '{res['start']}'",
        "  stderr: |-",
        body,
        "  stderr_lines: <omitted>",
        "  stdout: ''",
        "  stdout_lines: <omitted>",
    ])


def an_multi(c: Ctx):
    if not c.run:
        return None
    hosts = sorted(c.rng.sample(HOSTS, 3))
    bad = c.pick(hosts)
    res = {"changed": True, "msg": "non-zero return code", "rc": c.code,
           "stderr": "\n".join(c.clipped(6, 6, "...")), "cmd": c.run}
    out = [
        f"{c.user}@{c.host}:~/{c.proj}-deploy$ ansible-playbook -i inventory/{c.pick(['staging', 'prod', 'lab'])} site.yml",
        "",
        _stars("TASK [" + _ans_task(c) + "]"),
    ]
    for h in hosts:
        if h == bad:
            out.append(f"fatal: [{h}]: FAILED! => " + json.dumps(res, ensure_ascii=False))
        else:
            out.append(f"changed: [{h}]")
    out += ["", "NO MORE HOSTS LEFT " + "*" * 60, "", *_recap(hosts, bad)]
    return "\n".join(out)


def an_debug_msg(c: Ctx):
    host = c.pick(HOSTS)
    return "\n".join([
        _stars("TASK [show build output]"),
        f"ok: [{host}] => {{",
        '    "build.stderr_lines": [',
        ",\n".join("        " + json.dumps(s, ensure_ascii=False) for s in c.clipped(8, 6, "...")),
        "    ]",
        "}",
        "",
        _stars("TASK [fail if build broke]"),
        f"fatal: [{host}]: FAILED! => {{\"changed\": false, \"msg\": \"build failed: {c.key.replace(chr(34), chr(92) + chr(34))}\"}}",
    ])


def an_summary(c: Ctx):
    host = c.pick(HOSTS)
    return (f"{c.pick(['Playbook died on', 'Ansible run failed at', 'Deploy stopped at'])} "
            f"TASK [{_ans_task(c)}] on {host}:\n\n"
            f"fatal: [{host}]: FAILED! => {{\"changed\": true, \"cmd\": {json.dumps(c.cmd_words())}, "
            f"\"msg\": \"non-zero return code\", \"rc\": {c.code}, \"stderr\": {json.dumps(c.key, ensure_ascii=False)}, ...}}")


# --------------------------------------------------------------------------
# 13. terraform_exec


def _tf_res(c: Ctx) -> tuple[str, str]:
    name = c.pick(["build", "bootstrap", "migrate", "package", "seed_db", "setup"])
    return c.pick(["null_resource", "terraform_data"]), name


def _tf_box(lines: list[str]) -> list[str]:
    return ["╷"] + [("│ " + s).rstrip() for s in lines] + ["╵"]


def tf_local(c: Ctx):
    if not c.run:
        return None
    kind, name = _tf_res(c)
    addr = f"{kind}.{name}"
    line_no = c.rng.randint(5, 80)
    body = c.clipped(12, 6, "...")
    err_lines = [
        "Error: local-exec provisioner error",
        "",
        f"  with {addr},",
        f"  on main.tf line {line_no}, in resource \"{kind}\" \"{name}\":",
        f"  {line_no}:   provisioner \"local-exec\" {{",
        "",
        f"Error running command '{c.run}': exit status {c.code}. Output: {body[0]}",
        *body[1:],
    ]
    return "\n".join([
        f"{addr}: Creating...",
        f"{addr}: Provisioning with 'local-exec'...",
        f"{addr} (local-exec): Executing: [\"/bin/sh\" \"-c\" {json.dumps(c.run)}]",
        *[f"{addr} (local-exec): {s}" for s in body],
        "",
        *_tf_box(err_lines),
    ])


def tf_remote(c: Ctx):
    res = f"{c.pick(['aws_instance', 'hcloud_server', 'google_compute_instance'])}.{c.pick(['web', 'app', 'worker', 'bastion'])}"
    ip = f"10.{c.rng.randint(0, 255)}.{c.rng.randint(0, 255)}.{c.rng.randint(2, 254)}"
    run = c.run or "python3 setup.py"
    out = [
        f"{res}: Provisioning with 'remote-exec'...",
        f"{res} (remote-exec): Connecting to remote host via SSH...",
        f"{res} (remote-exec):   Host: {ip}",
        f"{res} (remote-exec):   User: {c.pick(['ubuntu', 'admin', 'root', c.user])}",
        f"{res} (remote-exec):   Password: false",
        f"{res} (remote-exec):   Private key: true",
        f"{res} (remote-exec):   Certificate: false",
        f"{res} (remote-exec):   SSH Agent: false",
        f"{res} (remote-exec):   Checking Host Key: false",
        f"{res} (remote-exec):   Target Platform: unix",
        f"{res} (remote-exec): Connected!",
        f"{res} (remote-exec): + {run}",
        *[f"{res} (remote-exec): {s}" for s in c.clipped(10, 6, "...")],
        "",
        *_tf_box([
            "Error: remote-exec provisioner error",
            "",
            f"  with {res},",
            f"  on {c.pick(['main.tf', 'compute.tf', 'servers.tf'])} line {c.rng.randint(10, 120)}, in resource \"{res.split('.')[0]}\" \"{res.split('.')[1]}\":",
            "",
            f"error executing \"/tmp/terraform_{c.rng.randint(100000000, 2147483647)}.sh\": Process exited with status {c.code}",
        ]),
    ]
    return "\n".join(out)


def tf_plain(c: Ctx):
    """Terraform run as seen in a CI/TFC web log without the box drawing."""
    if not c.run:
        return None
    kind, name = _tf_res(c)
    addr = f"{kind}.{name}"
    return "\n".join([
        f"{addr}: Still creating... [{c.rng.randint(1, 6) * 10}s elapsed]",
        f"{addr} (local-exec): {c.key}",
        "",
        "Error: local-exec provisioner error",
        "",
        f"  with {addr},",
        f"  on {c.pick(['build.tf', 'main.tf'])} line {c.rng.randint(3, 60)}, in resource \"{kind}\" \"{name}\":",
        "",
        f"Error running command '{c.run}': exit status {c.code}. Output:",
        *c.clipped(5, 5, "..."),
        "",
        "Operation failed: failed running terraform apply (exit 1)",
    ])


def tf_comment(c: Ctx):
    kind, name = _tf_res(c)
    return "\n".join([
        c.pick([
            f"`terraform apply` keeps failing at the local-exec in `{kind}.{name}`:",
            "apply blew up in the provisioner:",
            f"The provisioner running `{c.cmd_words()}` fails:",
        ]),
        "",
        "```",
        *_tf_box([
            "Error: local-exec provisioner error",
            "",
            f"  with {kind}.{name},",
            "",
            f"Error running command '{c.cmd_words()}': exit status {c.code}. Output: {c.first}",
            *([s for s in clip(c.lines[1:], 3, 3, "...")] if len(c.lines) > 1 else []),
        ]),
        "```",
    ])


# --------------------------------------------------------------------------
# 14. cram_test


def _cram_out(c: Ctx, lines: list[str], prefix: str = "  ") -> list[str]:
    return [prefix + s if s else prefix.rstrip() or "" for s in lines]


def cr_regression(c: Ctx):
    if not c.run:
        return None
    issue = c.rng.randint(10, 999)
    return "\n".join([
        f"Reproduce issue #{issue}: {shorten(c.key, 60)}",
        "",
        f"  $ cd \"$TESTDIR/{c.pick(['..', 'fixtures/' + c.proj, '../examples'])}\"",
        f"  $ {c.run}",
        *_cram_out(c, c.lines),
        f"  [{c.code}]",
        "",
    ])


def cr_err_diff(c: Ctx):
    if not c.run:
        return None
    tname = f"tests/{c.pick(['smoke', 'cli', 'build', 'install', 'basic'])}.t"
    n = len(c.lines) + 1
    expected = c.pick(["ok", "done", "Build succeeded", "0 errors"])
    return "\n".join([
        f"{c.user}@{c.host}:{c.tcwd}$ cram {tname}",
        "!",
        f"--- {tname}",
        f"+++ {tname}.err",
        f"@@ -{c.rng.randint(1, 9)},2 +{c.rng.randint(1, 9)},{n + 1} @@",
        f"   $ {c.run}",
        f"-  {expected}",
        *_cram_out(c, c.lines, "+  "),
        f"+  [{c.code}]",
        "",
        "# Ran 1 tests, 0 skipped, 1 failed.",
    ])


def cr_globbed(c: Ctx):
    """Cram file where the author replaced volatile bits by (glob)/(re)."""
    if not c.run:
        return None
    out = []
    for s in c.clipped(8, 4, "..."):
        if s == "...":
            out.append("  \\.\\.\\. (re)" if c.chance(0.3) else "  *(glob)")
            continue
        g = re.sub(r"/home/[\w.-]+/", "*/", s)
        g = re.sub(r"\b\d{4}-\d\d-\d\dT[\d_:.]+Z?", "*", g)
        out.append("  " + g + (" (glob)" if g != s else "") if s else "")
    return "\n".join([
        f"{c.pick(['Known failure', 'Fails without setup', 'Current behaviour'])} (see {c.ts.strftime('%Y-%m-%d')} notes):",
        "",
        f"  $ {c.run} 2>&1",
        *out,
        f"  [{c.code}]",
    ])


def cr_chat(c: Ctx):
    if not c.run:
        return None
    return "\n".join([
        c.pick([
            "turned it into a cram test so we can track it:",
            f"repro as a .t file ({c.pick(['passes', 'matches'])} today, i.e. it still fails):",
            "minimal cram repro:",
        ]),
        "",
        f"  $ {c.run}",
        *_cram_out(c, [c.key] if c.chance(0.5) else c.clipped(2, 3, "...")),
        f"  [{c.code}]",
    ])


def cr_nocmd(c: Ctx):
    run = c.run or "python3 -c 'import sys'"
    return "\n".join([
        f"  $ {run}",
        *_cram_out(c, c.clipped(6, 6, "...")),
        f"  [{c.code}]",
    ])


# --------------------------------------------------------------------------
# 15. paste_site


def _numbered(lines: list[str], fmt: str) -> list[str]:
    return [fmt.format(i) + s for i, s in enumerate(lines, 1)]


def pa_pastebin(c: Ctx):
    size = len(c.err) / 1024
    return "\n".join([
        c.pick(["Untitled", f"{c.proj} error", "error", "help"]),
        c.pick(["a guest", c.handle]),
        c.ts.strftime("%b %-dth, %Y").replace("1th", "1st").replace("2th", "2nd").replace("3th", "3rd")
        .replace("11st", "11th").replace("12nd", "12th").replace("13rd", "13th"),
        str(c.rng.randint(4, 300)),
        "0",
        "Never",
        "Add comment",
        "Not a member of Pastebin yet? Sign Up, it unlocks many cool features!",
        f"text {size:.2f} KB | None | 0 0",
        "raw download clone embed print report",
        *_numbered(c.lines, "{}. "),
    ])


def pa_debian(c: Ctx):
    eid = c.rng.randint(1200000, 1330000)
    return "\n".join([
        f"Entry {eid} - paste.debian.net",
        "",
        f"Poster: {c.handle}  Language: Text  Expires: {c.pick(['72 hours', '7 days', 'never'])}",
        "Show as raw: https://paste.debian.net/plain/" + str(eid),
        "",
        *_numbered(c.clipped(30, 10, "[...]"), "{:>3} "),
        "",
    ])


def pa_termbin(c: Ctx):
    svc, url = c.pick([("nc termbin.com 9999", "https://termbin.com/"),
                       ("curl -F 'f:1=<-' ix.io", "http://ix.io/"),
                       ("curl -F 'file=@-' 0x0.st", "https://0x0.st/")])
    code = "".join(c.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(4))
    run = c.run or f"python3 {c.pick(['main.py', 'run.py'])}"
    return "\n".join([
        f"{c.user}@{c.host}:{c.tcwd}$ {run} 2>&1 | {svc}",
        url + code,
        "",
        f"--- contents of {url}{code} ---",
        c.body(20, 10),
    ])


def pa_gist(c: Ctx):
    fname = c.pick(["error.log", "output.txt", f"{c.proj}-error.txt", "traceback.txt"])
    return "\n".join([
        f"{c.handle}/{fname}",
        f"Created {c.rng.randint(2, 50)} minutes ago",
        "Code Revisions 1",
        "Embed",
        f"<script src=\"https://gist.github.com/{c.handle}/{c.sha(32)}.js\"></script>",
        "Download ZIP",
        c.pick(["Raw", f"{c.cmd_words()} output", "error output"]),
        fname,
        *_numbered(c.lines, "{}\t"),
        "@" + c.handle,
        "Comment",
    ])


def pa_link_msg(c: Ctx):
    svc = c.pick(["https://pastebin.com/", "https://dpaste.org/", "https://bpa.st/", "https://paste.rs/"])
    code = "".join(c.rng.choice("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))
    return "\n".join([
        f"{svc}{code}",
        f"(expires in {c.pick(['1 day', '1 week', '1 hour'])})",
        "",
        *_numbered(c.clipped(4, 4, "…"), "{:>2} │ "),
    ])


# --------------------------------------------------------------------------
# 16. known_issues


def ki_markdown(c: Ctx):
    ver = f"{c.rng.randint(0, 5)}.{c.rng.randint(0, 30)}.{c.rng.randint(0, 9)}"
    return "\n".join([
        f"## [{ver}] - {c.ts.strftime('%Y-%m-%d')}",
        "",
        "### Fixed",
        f"- {c.pick(COMMITS).capitalize()} (#{c.rng.randint(100, 999)})",
        "",
        "### Known issues",
        f"- On some {c.pick(['Ubuntu 22.04', 'Debian 12', 'WSL2', 'Fedora 40', 'fresh'])} setups, `{c.cmd_words()}` stops with:",
        "  ```",
        indent(c.body(4, 4, "..."), "  "),
        "  ```",
        f"  We are investigating; see #{c.rng.randint(100, 999)}.",
    ])


def ki_rst(c: Ctx):
    ver = f"{c.rng.randint(1, 9)}.{c.rng.randint(0, 20)}"
    title = f"Version {ver}"
    return "\n".join([
        title,
        "=" * len(title),
        "",
        "Known issues",
        "------------",
        "",
        f"* ``{c.cmd_words()}`` may fail with the following error::",
        "",
        indent(c.body(6, 6), "      "),
        "",
        f"  This is tracked in :issue:`{c.rng.randint(100, 999)}`.",
    ])


def ki_asciidoc(c: Ctx):
    return "\n".join([
        f"== Release notes {c.rng.randint(1, 4)}.{c.rng.randint(0, 12)}",
        "",
        "=== Known issues",
        "",
        "[WARNING]",
        "====",
        f"Running `{c.cmd_words()}` on {c.pick(['a clean machine', 'older distributions', 'CI runners'])} currently ends with:",
        "",
        "....",
        c.body(5, 5),
        "....",
        "====",
    ])


def ki_news(c: Ctx):
    ver = f"{c.rng.randint(0, 3)}.{c.rng.randint(1, 40)}"
    return "\n".join([
        f"* Noteworthy changes in release {ver} ({c.ts.strftime('%Y-%m-%d')}) [stable]",
        "",
        "** Bug fixes",
        "",
        f"  {c.pick(COMMITS).capitalize()}.",
        "",
        "** Known problems",
        "",
        f"  '{c.cmd_words()}' is reported to fail with",
        f"    {c.key}",
        f"  on some systems.  Reported by {c.name}.",
    ])


def ki_short(c: Ctx):
    return (f"**Known issue:** `{c.cmd_words()}` can exit with `{c.key}` "
            f"({c.pick(['reported on', 'seen on', 'affects'])} {c.pick(['Linux', 'WSL', 'CI', 'fresh installs'])}). "
            f"Tracking: #{c.rng.randint(100, 999)}.")


# --------------------------------------------------------------------------

TEMPLATES = {
    "powershell_transcript": [ps_full, ps_native_error, ps_short, ps_wsl_interactive, ps_key_only],
    "mailing_list_digest": [ml_question, ml_reply, ml_single_line, ml_archive],
    "pdf_extract": [pdf_handout, pdf_report, pdf_page_break, pdf_key_sentence, pdf_table],
    "zulip_message": [zu_fenced, zu_spoiler, zu_quote, zu_plain_copy, zu_me],
    "obsidian_note": [ob_callout, ob_daily, ob_inline_fields, ob_embed, ob_highlight],
    "kanban_card": [kb_copy, kb_json, kb_activity, kb_column, kb_checklist],
    "meeting_minutes": [mm_weekly, mm_invite, mm_passive, mm_retro, mm_transcript_summary],
    "bisect_log": [bi_run, bi_log, bi_manual, bi_replay_file],
    "support_widget": [sw_full, sw_collapsed, sw_email_transcript, sw_attachment, sw_widget_box],
    "wiki_talk": [wt_pre, wt_syntaxhighlight, wt_nested, wt_leading_space, wt_rendered],
    "cron_mail": [cm_raw, cm_mailx, cm_mutt, cm_forward, cm_crontab_note],
    "ansible_play": [an_default, an_yaml, an_multi, an_debug_msg, an_summary],
    "terraform_exec": [tf_local, tf_remote, tf_plain, tf_comment],
    "cram_test": [cr_regression, cr_err_diff, cr_globbed, cr_chat, cr_nocmd],
    "paste_site": [pa_pastebin, pa_debian, pa_termbin, pa_gist, pa_link_msg],
    "known_issues": [ki_markdown, ki_rst, ki_asciidoc, ki_news, ki_short],
}
assert list(TEMPLATES) == STYLES


def render(style: str, file: str, idx: int, command: str | None, error: str) -> str:
    rng = random.Random(f"{SEED}:{file}:{idx}:{style}")
    c = Ctx(rng, file, idx, command, error)
    order = list(TEMPLATES[style])
    rng.shuffle(order)
    for tpl in order:
        text = tpl(c)
        if text:
            return text.strip("\n")
    raise RuntimeError(f"no template for {style} {file}#{idx}")


def load_cases() -> list[tuple[str, int, str | None, str]]:
    paths = sorted((ROOT / "help_cases").glob("*.toml")) + sorted((ROOT / "help_heldout").glob("set*.toml"))
    cases = []
    for path in paths:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for i, case in enumerate(data.get("case", [])):
            cases.append((path.name, i, case.get("command"), case["error"]))
    return cases


def deal_styles(n_cases: int) -> list[tuple[str, str]]:
    """Two distinct styles per case from a reshuffled deck: counts stay even."""
    rng = random.Random(SEED)
    pairs, deck = [], []
    for _ in range(n_cases):
        if len(deck) < 2:
            fresh = STYLES[:]
            rng.shuffle(fresh)
            if deck and fresh[-1] == deck[0]:
                fresh[0], fresh[-1] = fresh[-1], fresh[0]
            deck = fresh + deck
        a, b = deck.pop(), deck.pop()
        pairs.append((a, b))
    return pairs


def main() -> None:
    cases = load_cases()
    pairs = deal_styles(len(cases))
    rows = []
    for (file, idx, command, error), styles in zip(cases, pairs, strict=True):
        for style in styles:
            rows.append({"file": file, "case": idx, "style": style,
                         "text": render(style, file, idx, command, error)})
    with OUT.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["style"]] = counts.get(row["style"], 0) + 1
    print(f"wrote {len(rows)} rows for {len(cases)} cases to {OUT.relative_to(ROOT.parent)}")
    print("per style: " + ", ".join(f"{k}={counts[k]}" for k in STYLES))


if __name__ == "__main__":
    main()
