#!/usr/bin/env python3
# ruff: noqa: E741, F541, UP031, B905, UP032, B007, E731, F841  (a generated-data script kept as its blind writer wrote it)
"""Write bench/help_phrasings_nineteenth.jsonl: observation records of a person
hitting each help case's error, as rendered by agent recorders, shell tooling
and AI coding tools.

Styles (16; each has several layouts chosen per row):
  proactivebench_variant    one-sentence ProactiveBench-like observation with
                            other verbs/orders ("An error appears ... after the
                            user executes ...", "Having run `...`, the user now
                            sees ..."), quoting the first/last/key line(s).
  osworld_trajectory        OSWorld / computer-use step: pyautogui.typewrite,
                            xdotool or UI-TARS type() action, then the
                            linearized accessibility tree row of the terminal,
                            a screenshot caption, or a traj.jsonl record.
  mind2web_action_repr      Mind2Web action_reprs ("[textbox]  Terminal input
                            -> TYPE: ...") followed by WebArena / BrowserGym
                            AXTree StaticText rows of a web terminal viewport
                            (rows hard-wrapped at the terminal width).
  recall_snapshot_search    Rewind / Recall / Screenpipe / OpenRecall snapshot
                            search hit: time, app, window title, OCR'd matched
                            text with ... cuts and **highlighted** terms.
  clipboard_manager_item    CopyQ / Maccy / Ditto / Klipper / cliphist / GPaste
                            history entry: timestamp, source app, preview and
                            the full copied text.
  osc133_shell_integration  raw terminal capture with OSC 133/633/1337 marks
                            left in as text (ESC stripped, cat -v, asciinema
                            cast events, VS Code 633 E escaping).
  fancy_prompt_zsh_fish     powerlevel10k / starship / fish / oh-my-zsh / pure
                            prompts copied from the terminal with glyphs, git
                            branch, right prompt, error status and duration.
  notebook_shell_magic      Jupyter / Colab cell running !cmd or %%bash (with
                            CalledProcessError), UI copy or raw .ipynb JSON.
  atuin_history_record      shell history with metadata (atuin list/sqlite,
                            zsh EXTENDED_HISTORY, fish_history, bash
                            HISTTIMEFORMAT) plus the error output saved next
                            to it.
  auditd_execsnoop_trace    execsnoop-bpfcc / execsnoop.bt / auditd raw and
                            ausearch -i / strace -f / tlog records naming the
                            command and carrying the program's stderr.
  aider_session_log         aider terminal transcript (/run, Run shell
                            command?, Add command output to the chat?) or
                            .aider.chat.history.md.
  copilot_terminal_chat     VS Code Copilot Chat @terminal exchange, chat
                            export JSON, terminal inline chat or
                            gh copilot explain transcript; reply started.
  cursor_agent_tool_call    Cursor / Windsurf / Cline tool-call records (Run
                            command, Exit code, Output block, <terminal_output>,
                            collapsed Show more, Cline ui_messages JSON).
  open_interpreter_run      Claude Code (Bash(...) / ... +N lines), Codex CLI
                            (old and new TUI), Open Interpreter, Gemini CLI box
                            transcripts with the model's next sentence.
  activity_digest_email     automated end-of-day activity digest e-mail with
                            a "last terminal error" section (plain text,
                            markdown-ish, HTML-to-text, raw quoted-printable).
  pair_agent_handover       one AI agent handing a session to another:
                            markdown, YAML, JSON or XML-tagged note with the
                            last command, the error (verbatim or first/last
                            lines) and a hedged hypothesis.

Output: one JSON object per line,
    {"file": "<toml base name>", "case": <0-based index>, "style": "<style>",
     "text": "<observation>"}
for every [[case]] of bench/help_cases/*.toml (files sorted by name) and then
of bench/help_heldout/set*.toml (sorted by name), exactly two rows per case, in
case order, the two rows in two different styles.

Determinism: styles are dealt two cards per case from successive shuffles of
the 16-style deck (random.Random with a fixed seed), so per-style counts
differ by at most one and the two cards of a case always differ. Every row is
written with its own random.Random seeded by the string
"<file>|<case>|<slot>|<style>", so rerunning gives byte-identical output.
Only the standard library is used.

Blind writing: this script and its data were written reading only the
`error` and `command` keys of the [[case]] tables in
bench/help_cases/*.toml and bench/help_heldout/set*.toml (loaded with
tomllib) and, for tone, one ProactiveBench session file
(/work/shared/data/proactivebench/sessions/code_11.json). No project code,
tests, docs, other bench files (other phrasing sets or writer scripts), or git
history were opened, no project code or benchmark was run, and nothing about
scoring was asked. Public reference material was used only to check what real
formats look like (OSWorld a11y linearization, aider chat-history
blockquoting).
"""

import datetime as _dt
import glob
import json
import os
import quopri
import random
import re
import shlex
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "help_phrasings_nineteenth.jsonl")

STYLES = [
    "proactivebench_variant",
    "osworld_trajectory",
    "mind2web_action_repr",
    "recall_snapshot_search",
    "clipboard_manager_item",
    "osc133_shell_integration",
    "fancy_prompt_zsh_fish",
    "notebook_shell_magic",
    "atuin_history_record",
    "auditd_execsnoop_trace",
    "aider_session_log",
    "copilot_terminal_chat",
    "cursor_agent_tool_call",
    "open_interpreter_run",
    "activity_digest_email",
    "pair_agent_handover",
]
DECK_SEED = "help_phrasings_nineteenth/style-deck/v1"


# --------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------

def load_cases():
    import tomllib

    files = sorted(glob.glob(os.path.join(HERE, "help_cases", "*.toml")))
    files += sorted(glob.glob(os.path.join(HERE, "help_heldout", "set*.toml")))
    cases = []
    for path in files:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for i, case in enumerate(data.get("case", [])):
            cases.append((os.path.basename(path), i, case.get("error") or "", case.get("command")))
    return cases


# --------------------------------------------------------------------------
# error analysis: which line a person would quote
# --------------------------------------------------------------------------

PY_EXC = re.compile(
    r'^(?:Exception in thread "[^"]*" )?(?:Caused by: )?(?:[A-Za-z_]\w*\.)*[A-Z]\w*'
    r'(?:Error|Exception|Exit|Interrupt|Fault)(?: \[\w+\])?(?::|$)'
)
BOILER = [re.compile(p) for p in [
    r'^\s*$', r'^Node\.js v\d', r"^(Run|See) '[^']*--help'", r'^\s+at ', r'^\s*[\^~|+\-]+\s*$',
    r'^Traceback \(most recent call last\):', r'^\[INFO\]', r'A complete log of this run',
    r'^For more information about this error', r'^compilation terminated\.', r'^\d+ errors?$',
    r'^\[ERROR\] *$', r'^\[ERROR\] -> \[Help', r'^\[ERROR\] (To see the full|Re-run Maven|For more information|\[Help)',
    r'^npm (ERR!|error) *$', r'^npm (ERR!|error) (code|errno|syscall|path) ', r'^-- (?!Configuring incomplete)',
    r'^\s*File "', r'^\s*\d+ \|', r'^\s*\|\s', r'^Require stack:', r'^- /', r'^\s*code: ', r'^\s*requireStack',
    r'^}$', r'^Usage:', r'^Enter password:', r'^Reading (package lists|state information)',
    r'^Building dependency tree', r'^\s+Compiling ', r'^\s*--> ', r'^\s*= (note|help): ',
    r'^\(Use `node --trace', r'^Call Stack', r'^Emitted .error. event', r'^\s+throw ', r'^node:internal/',
    r'^<anonymous_script>:\d+', r'^/home/\S+:\d+$', r'^\S+\.js:\d+$', r'^Cloning into', r'^hint:\s*$',
    r'^See also "', r'^More details here', r'^goroutine \d+', r'^exit status \d+$', r'^\s+\S+\.go:\d+ \+0x',
    r'^npm (ERR!|error) gyp info', r'^\s*\* (Try|Get more help)', r'^> Run with --',
]]
KEYS = [
    (re.compile(r'^error\[E\d+\]:'), 11),
    (re.compile(r'^error: (?!could not compile|aborting|failed to push)'), 9),
    (re.compile(r'fatal error:'), 10),
    (re.compile(r'^fatal: '), 9),
    (re.compile(r'FATAL'), 10),
    (re.compile(r'^ERROR\b'), 9),
    (re.compile(r'^E: '), 8),
    (re.compile(r'^panic: '), 10),
    (re.compile(r'^Error\b'), 9),
    (re.compile(r'CMake Error'), 6),
    (re.compile(r'^\[ERROR\] '), 7),
    (re.compile(r'^curl: \(\d+\)'), 10),
    (re.compile(r'undefined reference|multiple definition|undefined: '), 9),
    (re.compile(r'gyp ERR! stack Error'), 8),
    (re.compile(r'\berror\b|\bERR!', re.I), 5),
    (re.compile(
        r"Permission denied|permission denied|command not found|No such file or directory|not found|"
        r"Unable to|unable to|Could not|could not|Could NOT|[Cc]annot|[Cc]an't|can not|refused|denied|"
        r"[Ff]ailed|[Ii]nvalid|missing|does not exist|not allowed|isn't allowed|Conflict|already|"
        r"OOMKilled|CrashLoopBackOff|ImagePullBackOff|\[emerg\]|unknown|Unknown|no matching|No matching|"
        r"not a |has changed|too open|mismatch|incompatible|unrecognized|forbidden|Forbidden|No space|"
        r"not supported|no longer|rejected|CONFLICT|divergent|unrelated|detached HEAD|behind|leaving|"
        r"identity unknown|dubious|bad interpreter|masked|changed on disk|event not found|out of memory|"
        r"Killed|timed out|[Tt]imeout|expired|locked at|untrusted|self-signed|verify|violates|duplicate|"
        r"constraint|OOM|panicked|[Ss]egmentation|no required module|not defined|not available|have no |has no |"
        r"not created|not compiled|BUILD FAILED|What went wrong|does not satisfy|version solving|"
        r"different version|no upstream|not a git|No rule|Stop\.|not satisfied|Insufficient|untolerated|"
        r"deadlock|not found|lossy|incorrect|Incorrect|Unexpected|unexpected|Expecting|Expected|"
        r"parse error|syntax error|not installed|must be|should be|wrong|blocked|missing script|"
        r"no versions|broken pipe|no identities|too many"
    , re.I), 4),
    (re.compile(r'WARNING|Warning|warning|deprecated|DEPRECATED|requires|needs'), 3),
    (re.compile(r'^\s*(FAILED|FAIL)\b'), 6),
]
LOW = [re.compile(p) for p in [
    r'^error: could not compile', r'^collect2: error: ld returned', r'^g?make(\[\d+\])?: \*\*\* \[',
    r'^error: failed to push some refs', r'^npm (ERR!|error) code ', r'^-- Configuring incomplete',
    r'^Failed to build ', r'^\s*note: (?!module requires)', r'^hint: ', r'^\[ERROR\] COMPILATION ERROR',
    r'^error: could not compile', r'^ERROR: Could not build wheels', r'^\s*Running setup\.py clean',
    r'^BUILD FAILED in', r'^Failing command:',
]]
BOX_PREFIX = re.compile(r'^[\s×│╰─>]*')


def line_score(s):
    t = BOX_PREFIX.sub("", s).strip()
    t = re.sub(r'^npm (?:ERR!|error) ', '', t) if not re.match(r'^npm (ERR!|error) (code|errno|syscall|path) ', s) else t
    t = re.sub(r'^> ', '', t)
    if PY_EXC.match(t):
        return 12
    if any(b.search(s) for b in BOILER):
        return 0
    best = 0
    for rx, w in KEYS:
        if rx.search(t):
            best = max(best, w)
    if any(low.search(s) for low in LOW):
        best = min(best, 2)
    return best


class ErrInfo:
    def __init__(self, error):
        self.text = error.rstrip("\n")
        while self.text.startswith("\n"):
            self.text = self.text[1:]
        self.lines = self.text.split("\n")
        self.scores = [line_score(l) for l in self.lines]
        self.h = self._headline()
        self.block = self._block()
        informative = [i for i, s in enumerate(self.scores) if s >= 3]
        self.first_i = informative[0] if informative else self.h
        self.last_i = informative[-1] if informative else self.h

    def _headline(self):
        if not any(self.scores):
            for i, l in enumerate(self.lines):
                if l.strip() and not any(b.search(l) for b in BOILER):
                    return i
            for i in range(len(self.lines) - 1, -1, -1):
                if self.lines[i].strip():
                    return i
            return 0
        top = max(self.scores)
        idx = [i for i, s in enumerate(self.scores) if s == top]
        return idx[-1] if top == 12 else idx[0]

    def _block(self):
        """The headline plus the lines that continue it (indented lines, the
        rest of a Python exception message, the body of a "...:" headline)."""
        out = [self.h]
        head = self.lines[self.h]
        py = self.scores[self.h] == 12
        i = self.h + 1
        while i < len(self.lines) and len(out) < 4:
            l = self.lines[i]
            if not l.strip():
                break
            if re.match(r'^\s+at ', l) or re.match(r'^\s*\d* *\|', l) or re.match(r'^\s*-->', l) or re.match(r'^\s*[\^~]+\s*$', l):
                break
            if re.match(r'^(npm (ERR!|error)|hint:|remote:)\s*$', l.strip()):
                break
            cont = l[:1] in (" ", "\t") or head.rstrip().endswith(":") or py
            if not cont:
                break
            if re.match(r'^(npm (ERR!|error)|hint:|remote:)', l) and not head.rstrip().endswith(":"):
                break
            out.append(i)
            i += 1
        return out

    @property
    def headline(self):
        return self.lines[self.h].strip()

    @property
    def first(self):
        return self.lines[self.first_i].strip()

    @property
    def last(self):
        return self.lines[self.last_i].strip()

    def block_lines(self):
        return [self.lines[i] for i in self.block]

    def nonblank(self):
        return [l for l in self.lines if l.strip()]


# --------------------------------------------------------------------------
# per-row context (user, host, cwd, time, exit code, ...)
# --------------------------------------------------------------------------

USERS = ["dev", "ana", "keiko", "amara", "tomas", "priya", "li", "sam", "jonas", "fatima", "marco", "noor",
         "lena", "raj", "yuki", "omar", "ines", "kofi", "mia", "pavel", "dana", "hugo", "zoe", "ben"]
HOSTS = ["thinkpad", "devbox", "ubuntu", "fedora", "x1carbon", "framework", "ws-dev-03", "pop-os", "mint",
         "nuc", "t14s", "latitude", "workstation", "buildbox", "archlinux", "debian-vm", "penguin", "xps13",
         "mbp-wsl", "desk-07", "lab-pc", "homelab"]
PROJECTS = ["shop", "api", "blog", "notes", "tools", "scraper", "dashboard", "inventory", "billing", "etl",
            "site", "cli", "backend", "webapp", "infra", "bot", "tracker", "reports", "sandbox", "playground"]
STOPDIRS = {"node_modules", "target", "build", ".git", "src", "CMakeFiles", "lib", "site-packages", "dist",
            "out", "bin", "venv", ".venv", "vendor", "classes", "libs", "pkg", "internal", "migrations",
            "tests", "test", "templates", "static", "public", "include"}
HOME_RX = re.compile(r"(/home/|/Users/)([a-z_][a-z0-9_-]*)((?:/[^\s'\"`:,()<>\]\[]+)*)")
TZS = [(-7, "PDT"), (-5, "CDT"), (-4, "EDT"), (0, "UTC"), (1, "CET"), (2, "CEST"), (3, "EEST"),
       (9, "JST"), (5, "PKT"), (8, "SGT")]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
HEAVY = ("cargo", "mvn", "./mvnw", "gradle", "./gradlew", "npm", "yarn", "pip", "pip3", "docker", "cmake",
         "make", "bundle", "rbenv", "apt", "apt-get", "go", "helm", "npx", "pnpm", "g++")


def split_cmd(cmd):
    try:
        return shlex.split(cmd)
    except ValueError:
        return cmd.split()


def project_hint(err, cmd):
    """A project directory name the output itself suggests (module path,
    git remote, npm package, maven artifact, docker tag...)."""
    pats = [
        r"^# (?:[\w.-]+/)*([\w.-]+)\s*$",
        r"^(?:To|From) (?:https://)?[\w.-]+[:/][\w.-]+/([\w.-]+?)(?:\.git)?/?$",
        r"^> ([\w.-]+)@\d[\w.-]* ",
        r"While resolving: ([\w.-]+)@",
        r" @ ([\w.-]+) ---",
        r"on project ([\w.-]+):",
        r"root project '([\w.-]+)'",
    ]
    for pat in pats:
        m = re.search(pat, err, re.M)
        if m and m.group(1) not in ("main", "origin", "cmd", "command-line-arguments", "go-sqlite3"):
            return m.group(1)
    if cmd:
        m = re.search(r"docker (?:build|run)[^|&;]*? -t (?:[\w.-]+/)?([a-z0-9][\w.-]*?)(?::[\w.-]+)? ", cmd + " ")
        if m:
            return m.group(1)
    return None


def parse_time(err, rng):
    m = re.search(r'(\d{4})-(\d\d)-(\d\d)T(\d\d)_(\d\d)_(\d\d)', err)
    if m:
        return _dt.datetime(*map(int, m.groups())) + _dt.timedelta(seconds=rng.randint(1, 4))
    m = re.search(r'\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)', err)
    if m:
        return _dt.datetime(*map(int, m.groups())) + _dt.timedelta(seconds=rng.randint(5, 40))
    m = re.search(r'(\d{4})/(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)', err)
    if m:
        return _dt.datetime(*map(int, m.groups())) + _dt.timedelta(seconds=rng.randint(0, 2))
    m = re.search(r'(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d\d) (\w{3}) (\d{4}) (\d\d):(\d\d):(\d\d)', err)
    if m and m.group(2) in MONTHS:
        d, mon, y, hh, mm, ss = m.groups()
        return _dt.datetime(int(y), MONTHS.index(mon) + 1, int(d), int(hh), int(mm), int(ss)) + _dt.timedelta(seconds=rng.randint(20, 200))
    m = re.search(r'^\s*(\w{3}) +(\d\d?) (\d\d):(\d\d):(\d\d) ', err, re.M)
    if m and m.group(1) in MONTHS:
        mon, d, hh, mm, ss = m.groups()
        y = 2025 if MONTHS.index(mon) < 11 else 2024 + rng.randint(0, 1)
        return _dt.datetime(y, MONTHS.index(mon) + 1, int(d), int(hh), int(mm), int(ss)) + _dt.timedelta(seconds=rng.randint(1, 6))
    m = re.search(r'^[EWI](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.', err, re.M)
    if m:
        mo, d, hh, mm, ss = map(int, m.groups())
        return _dt.datetime(2024 + rng.randint(0, 1), mo, d, hh, mm, ss) + _dt.timedelta(seconds=rng.randint(1, 3))
    start = _dt.datetime(2024, 2, 1)
    day = start + _dt.timedelta(days=rng.randint(0, 640))
    hour = rng.choice([8, 9, 9, 10, 10, 11, 11, 13, 14, 14, 15, 15, 16, 16, 17, 18, 19, 21, 22, 23])
    return day.replace(hour=hour, minute=rng.randint(0, 59), second=rng.randint(0, 59))


def guess_exit(err, cmd):
    c = cmd or ""
    toks = split_cmd(c) if c else []
    while toks and (re.match(r'^\w+=', toks[0]) or toks[0] == "sudo"):
        toks = toks[1:]
    prog = toks[0] if toks else ""
    sub = toks[1] if len(toks) > 1 else ""
    if "| head" in c or "| tail" in c:
        return 0
    if re.search(r'command not found|: not found$', err, re.M) and re.search(r'^(bash|zsh|sh)\b|: line \d+: ', err, re.M):
        if re.search(r'^\S+: \d+: \[\[: not found', err, re.M) or ": line " in err:
            return 0
        return 127
    if "cannot execute: required file not found" in err:
        return 127
    if re.search(r'^bash: \./\S+: (Permission denied|/bin/\w+\^M: bad interpreter)', err, re.M):
        return 126
    if prog == "kubectl" and sub in ("get", "describe") and not re.search(r'^(error|Error|E\d{4}|Unable|The connection)', err, re.M):
        return 0
    if prog == "journalctl":
        return 0
    if prog == "systemctl" and sub == "status":
        return 3
    if prog == "git" and sub == "status" and "fatal:" not in err:
        return 0
    if re.search(r"^Switched to branch|^Note: switching to", err, re.M):
        return 0
    if err.startswith("Warning: The unit file"):
        return 0
    m = re.search(r'^curl: \((\d+)\)', err, re.M)
    if m:
        return int(m.group(1))
    m = re.search(r'rsync error: .*\(code (\d+)\)', err)
    if m:
        return int(m.group(1))
    if prog == "ssh" or prog == "ssh-copy-id":
        return 255
    if prog == "git":
        return 128 if re.search(r'^fatal:', err, re.M) else 1
    if prog in ("make",) or re.search(r'^g?make(\[\d+\])?: \*\*\*', err, re.M):
        return 2
    if prog == "cargo":
        return 101
    if prog == "docker" and re.search(r'^docker: (Error response|Unable)|^Unable to find image', err, re.M):
        return 125
    if prog in ("apt", "apt-get"):
        return 100
    if prog == "psql" and "connection to server" in err:
        return 2
    if prog in ("tsc", "npx") and "error TS" in err:
        return 2
    if prog == "jq":
        return 5 if "parse error" in err and False else 2
    if prog == "systemctl" and re.search(r'not found\.$', err, re.M):
        return 5
    if prog == "python3" and toks[1:2] == ["-m"] and "json.tool" in c:
        return 1
    return 1


def guess_duration(err, cmd, rng):
    toks = split_cmd(cmd) if cmd else []
    while toks and (re.match(r'^\w+=', toks[0]) or toks[0] == "sudo"):
        toks = toks[1:]
    prog = toks[0] if toks else ""
    if "timed out" in err:
        return rng.uniform(60, 135)
    if prog in HEAVY and any(w in (cmd or "") for w in ("install", "build", "ci", "package", "compile", "pull", "run", "up", "update", "download", "mod", "rake", "upgrade")):
        return rng.choice([rng.uniform(1.5, 9), rng.uniform(8, 48), rng.uniform(30, 140)])
    if prog in ("ssh", "scp", "rsync", "git", "curl", "kubectl", "helm", "psql", "mysql", "docker", "go", "javac", "mvn", "gradle", "./gradlew"):
        return rng.uniform(0.3, 6.0)
    return rng.choice([rng.uniform(0.02, 0.4), rng.uniform(0.1, 1.6)])


def fmt_dur(sec, kind):
    if kind == "atuin":
        if sec < 1:
            return "%dms" % max(1, int(sec * 1000))
        if sec < 60:
            return "%ds" % int(sec)
        return "%dm %ds" % (int(sec // 60), int(sec % 60))
    if kind == "p10k":
        if sec < 60:
            return "%ds" % max(1, round(sec)) if sec >= 1 else "%.2fs" % sec
        return "%dm %ds" % (int(sec // 60), int(sec % 60))
    if kind == "short":
        if sec < 1:
            return "%.1fs" % sec
        if sec < 60:
            return "%ds" % round(sec)
        return "%dm%ds" % (int(sec // 60), int(sec % 60))
    return "%.1fs" % sec


class Ctx:
    def __init__(self, fname, idx, error, command, rng):
        self.fname = fname
        self.idx = idx
        self.rng = rng
        self.e = ErrInfo(error)
        self.err = self.e.text
        self.cmd = command.strip() if command else None
        self.user, self.cwd, self.host = self._paths(rng)
        self.mac = "/Users/" in self.err or "/Library/Frameworks/" in self.err
        if self.mac:
            self.host = rng.choice(["%ss-MacBook-Pro" % self.user.capitalize(), "%s-mbp" % self.user, "MacBook-Air"])
        self.home = ("/Users/" if self.mac else "/home/") + self.user
        if not self.cwd:
            base = rng.choice(["", "projects/", "code/", "src/", "work/", "", "git/"])
            self.cwd = self.home + "/" + base + (project_hint(self.err, self.cmd) or rng.choice(PROJECTS))
        self.tcwd = "~" + self.cwd[len(self.home):] if self.cwd.startswith(self.home) else self.cwd
        self.dirname = "~" if self.cwd == self.home else (os.path.basename(self.cwd) or "/")
        self.inferred = None
        if not self.cmd:
            self.inferred = self._infer_cmd(rng)
        self.run_cmd = self.cmd or self.inferred or "python3"
        self.exit = guess_exit(self.err, self.run_cmd)
        self.dur = guess_duration(self.err, self.run_cmd, rng)
        self.dt = parse_time(self.err, rng)
        self.tz = rng.choice(TZS)
        self.branch = rng.choice(["main", "main", "master", "dev", "feature/" + rng.choice(["login", "export", "retry", "cleanup", "search"]), "fix-" + rng.choice(["build", "deps", "ci", "paths"])])
        m = re.search(r"^\s*(?:\w{3} +\d+ \d\d:\d\d:\d\d) (\S+) ", self.err, re.M)
        self.pid = rng.randint(2100, 98000)

    # -- derivations ------------------------------------------------------
    def _paths(self, rng):
        err, cmd = self.err, self.cmd or ""
        user = cwd = host = None
        toks = [t for t in split_cmd(cmd) if not t.startswith("-")] if cmd else []
        found = [(m.group(2), m.group(1) + m.group(2) + m.group(3)) for m in HOME_RX.finditer(err)]
        if found:
            user = found[0][0]
        for u, p in found:
            for t in toks:
                tn = t[2:] if t.startswith("./") else t
                if ("/" in tn or "." in tn) and len(tn) > 2 and p.endswith("/" + tn):
                    cwd = p[: -len(tn) - 1]
                    break
            if cwd:
                break
        if not cwd:
            m = re.search(r"Compiling \S+ v[\d.]+ \((/home/[^)]+)\)", err)
            if m:
                cwd = m.group(1)
        if not cwd:
            for u, p in found:
                segs = p.split("/")[3:]
                if not segs or not segs[0] or segs[0].startswith("."):
                    continue
                keep = []
                for s in segs:
                    if s in STOPDIRS or s.startswith("."):
                        break
                    keep.append(s)
                if keep and re.search(r"\.[A-Za-z0-9]{1,6}$", keep[-1]):
                    keep = keep[:-1]
                cwd = p[: p.index(u) + len(u)] + ("/" + "/".join(keep) if keep else "")
                break
        m = re.search(r"got '([a-z0-9_-]+)@([a-z0-9-]+)\.\(none\)'", err)
        if m:
            user = user or m.group(1)
            host = m.group(2)
        m = re.search(r"^\s*(?:\w{3} +\d+ \d\d:\d\d:\d\d) (\S+) ", err, re.M)
        if m:
            host = m.group(1)
        m = re.search(r'FATAL:  role "([a-z_][a-z0-9_-]*)" does not exist', err)
        if m and " -U" not in cmd and not user:
            user = m.group(1)
        if cwd and user is None:
            user = cwd.split("/")[2]
        if not user:
            user = rng.choice(USERS)
        if not host:
            host = rng.choice(HOSTS)
        if cwd and not re.match(r"^/(home|Users)/%s(/|$)" % re.escape(user), cwd):
            cwd = None
        return user, cwd, host

    def _infer_cmd(self, rng):
        m = re.search(r'File "(/[^"]+\.py)"', self.err)
        if not m:
            return "python3"
        path = m.group(1)
        d = os.path.dirname(path)
        if path.startswith(self.home):
            self.cwd = d
        roll = rng.random()
        if roll < 0.62:
            return "python3 " + os.path.basename(path)
        if roll < 0.82:
            return "/usr/bin/python3 " + path
        return "python " + os.path.basename(path)

    # -- helpers used by the styles --------------------------------------
    def prog(self):
        toks = split_cmd(self.run_cmd)
        while toks and (re.match(r"^\w+=", toks[0]) or toks[0] in ("sudo", "cd")):
            if toks[0] == "cd" and "&&" in toks:
                toks = toks[toks.index("&&") + 1:]
                continue
            toks = toks[1:]
        return toks[0] if toks else "python3"

    def main_file(self):
        for t in split_cmd(self.run_cmd)[1:]:
            if not t.startswith("-") and re.search(r"\.[a-z]{1,5}$", t) and "/" not in t[:1]:
                return t
        return None

    def prompt(self, kind="bash"):
        if self.mac and kind != "plain":
            return "%s@%s %s %% " % (self.user, self.host, self.dirname)
        if kind == "bash":
            return "%s@%s:%s$ " % (self.user, self.host, self.tcwd)
        if kind == "zsh":
            return "%s@%s %s %% " % (self.user, self.host, self.tcwd)
        if kind == "fedora":
            return "[%s@%s %s]$ " % (self.user, self.host, self.dirname)
        if kind == "plain":
            return "$ "
        return "%s@%s:%s$ " % (self.user, self.host, self.tcwd)

    def screen(self, kind="bash", next_prompt=True, cmd=None):
        p = self.prompt(kind)
        out = [p + (cmd or self.run_cmd)]
        out += self.e.lines
        if next_prompt:
            out.append(p.rstrip() if kind == "plain" else p)
        return out

    def epoch(self, when=None):
        when = when or self.dt
        tz = _dt.timezone(_dt.timedelta(hours=self.tz[0]))
        return when.replace(tzinfo=tz).timestamp()

    def end_dt(self):
        return self.dt + _dt.timedelta(seconds=self.dur)


# --------------------------------------------------------------------------
# text utilities
# --------------------------------------------------------------------------

def wrap_rows(lines, cols):
    rows = []
    for l in lines:
        l = l.expandtabs(8).rstrip()
        if not l:
            rows.append("")
            continue
        while len(l) > cols:
            rows.append(l[:cols])
            l = l[cols:]
        rows.append(l)
    return rows


def json_str(s, ascii_=False):
    return json.dumps(s, ensure_ascii=ascii_)


def cut_lines(lines, keep_idx, max_lines, marker):
    """Keep at most max_lines lines, always the ones in keep_idx, marking gaps."""
    n = len(lines)
    if n <= max_lines:
        return list(lines)
    keep = set(keep_idx)
    head = max(1, (max_lines - len(keep)) // 2)
    keep.update(range(min(head, n)))
    tail = max_lines - len(keep)
    if tail > 0:
        keep.update(range(max(0, n - tail), n))
    out = []
    prev = -1
    for i in sorted(keep):
        if i - prev > 1:
            out.append(marker(i - prev - 1))
        out.append(lines[i])
        prev = i
    if prev < n - 1:
        out.append(marker(n - 1 - prev))
    return out


def ocr_mangle(text, rng, rate=0.05):
    swaps = {"'": ["’", "‘", "'", "`"], '"': ["“", "”", '"'], "`": ["'", "‘"], "|": ["l", "I", "|"],
             "~": ["-", "~"], "^": ["A", "^", ""], "_": ["_", "_", " "], "{": ["(", "{"], "}": [")", "}"]}
    out = []
    for ch in text:
        if ch in swaps and rng.random() < rate * 4:
            out.append(rng.choice(swaps[ch]))
        elif ch == "0" and rng.random() < rate * 0.2:
            out.append("O")
        elif ch == "l" and rng.random() < rate * 0.04:
            out.append("1")
        else:
            out.append(ch)
    return "".join(out)


def strip_list(lines):
    return [l.strip() for l in lines if l.strip()]


def prose_quote(c, r, allow_partial=True):
    """What a person/model would quote inside a sentence."""
    e = c.e
    single = len(e.nonblank()) == 1
    if single:
        return e.lines[e.h].strip() if e.lines[e.h].strip() else e.nonblank()[0].strip()
    opts = ["head", "head", "block", "firstlast", "firsthead"]
    if allow_partial and r.random() < 0.12:
        opts += ["first", "last"]
    k = r.choice(opts)
    if k == "head":
        return e.headline
    if k == "block":
        return " ".join(strip_list(e.block_lines()))
    if k == "first":
        lit = e.nonblank()[0].strip()
        return lit if e.scores[e.lines.index(e.nonblank()[0])] >= 3 else e.first
    if k == "last":
        return e.last
    if k == "firstlast":
        f = e.nonblank()[0].strip()
        if f.startswith("Traceback") or e.first_i == e.h:
            f = f if f.startswith("Traceback") else e.first
        else:
            f = e.first
        last = e.last
        if e.h not in (e.first_i, e.last_i) and not f.startswith("Traceback"):
            last = e.headline if r.random() < 0.5 else last
        if f == last:
            return f
        return "%s ... %s" % (f, last)
    # firsthead
    f = e.nonblank()[0].strip()
    if f == e.headline:
        return f
    return "%s ... %s" % (f, " ".join(strip_list(e.block_lines())))


def hypothesis(c, r):
    t = c.err
    pairs = [
        (r"No module named|Cannot find module|cannot find symbol|does not exist|unresolved import|no required module|could not be resolved|cannot load such file|Could not find gem|not installed", [
            "a dependency/import that isn't available to whatever runs this (env or install step missing)",
            "missing package or wrong environment; the import/lookup in the error is the thing to chase",
        ]),
        (r"command not found|: not found|required file not found|No such file or directory", [
            "something the command expects (binary, file or path) isn't where it's looked for",
            "path/name problem rather than a logic bug; check what exactly is missing",
        ]),
        (r"[Aa]dditional propert|additional properties|[Ii]nvalid value|ValidationError", [
            "schema/validation problem in the config file named in the message (a key name or value is wrong)",
            "the config file doesn't validate; the offending key is in the message",
        ]),
        (r"[Pp]ermission denied|EACCES|Access denied|forbidden|Forbidden|authentication", [
            "permissions/credentials problem, not a code bug",
            "access is being refused; need to see who the command runs as and what it is allowed to touch",
        ]),
        (r"[Ss]yntax|parse error|Expecting|Expected|[Uu]nexpected|ScannerError|ParserError|Indentation|TabError|missing separator", [
            "syntax/format problem in the file the message points at (line/column given)",
            "malformed input file; the location in the message should be exact",
        ]),
        (r"refused|Cannot connect|Can't connect|not running|Unable to connect|no route|timed out", [
            "the service on the other end isn't running or isn't reachable at that address",
            "connectivity: daemon/server down or wrong host/socket",
        ]),
        (r"already|EADDRINUSE|in use|Conflict|conflict|CONFLICT|divergent|rejected", [
            "state conflict with something that already exists (port/name/branch)",
            "collision with existing state; needs a decision, not a code change",
        ]),
    ]
    for rx, hs in pairs:
        if re.search(rx, t):
            return r.choice(hs)
    return r.choice([
        "not confirmed yet; the error text above is the best lead",
        "unclear, haven't dug in beyond reproducing it",
        "likely environment/config rather than the code itself, but unverified",
    ])


def model_reads(c, r):
    """A model's next sentence quoting the key line."""
    h = c.e.headline
    blk = strip_list(c.e.block_lines())
    q = h if len(blk) == 1 or r.random() < 0.6 or len(" ".join(blk)) > 260 else " ".join(blk)
    return r.choice([
        "The command failed with `%s`." % q,
        "It exits with status %d; the relevant line is `%s`." % (c.exit, q),
        "That didn't work: `%s`." % q,
        "The output ends in an error — `%s`." % q,
        "Here's the problem: %s" % q,
        "Got `%s` back from `%s`." % (q, c.prog()),
    ])


APPS = [
    ("the terminal", "Terminal"), ("GNOME Terminal", "GNOME Terminal"), ("Konsole", "Konsole"),
    ("the integrated terminal of Visual Studio Code", "Visual Studio Code"), ("iTerm2", "iTerm2"),
    ("Windows Terminal (Ubuntu/WSL tab)", "Windows Terminal"), ("a PyCharm terminal tab", "PyCharm"),
    ("kitty", "kitty"), ("WezTerm", "WezTerm"), ("Alacritty", "Alacritty"), ("Tilix", "Tilix"),
    ("a tmux pane in GNOME Terminal", "GNOME Terminal"), ("Ghostty", "Ghostty"),
]


# ==========================================================================
# 1. proactivebench_variant
# ==========================================================================

def s_proactivebench(c, r):
    app, _ = r.choice(APPS)
    q = prose_quote(c, r)
    qq = r.choice(["'%s'", "'%s'", "'%s'", '"%s"'])
    Q = qq % q
    cmd = c.cmd or (c.inferred if r.random() < 0.6 else None)
    if cmd:
        C = r.choice(["'%s'", "'%s'", "`%s`", '"%s"']) % cmd
        t = [
            "An error appears in %s after the user executes %s: %s." % (app, C, Q),
            "The terminal window displays the message %s following the command %s." % (Q, C),
            "Having run %s in %s, the user now sees %s." % (C, app, Q),
            "Right after the user enters %s in %s, the output reports %s." % (C, app, Q),
            "The command %s fails in %s, printing %s, and the user scrolls up to read the output." % (C, app, Q),
            "%s shows %s as the user's attempt to run %s ends with an error." % (app[0].upper() + app[1:], Q, C),
            "After launching %s from %s, the user is met with %s and stops typing." % (C, app, Q),
            "The user's %s invocation in %s ends with %s." % (C, app, Q),
            "Output of %s in %s: %s; the user pauses and looks at it." % (C, app, Q),
            "Once %s finishes in %s, the last lines on screen read %s." % (C, app, Q),
            "In %s the user re-runs %s and the same error comes back: %s." % (app, C, Q),
        ]
    else:
        f = c.main_file() or (re.search(r'File "([^"]+)"', c.err).group(1).split("/")[-1] if re.search(r'File "([^"]+)"', c.err) else "the script")
        t = [
            "While running '%s' in %s, the user encounters the error %s." % (f, app, Q),
            "A traceback appears in %s when the user runs their script: %s." % (app, Q),
            "The Visual Studio Code terminal shows %s after the user clicks 'Run Python File' on '%s'." % (Q, f),
            "Executing '%s' from the editor's Run button produces %s in the output panel." % (f, Q),
            "The user's Python script '%s' stops with %s, visible in %s." % (f, Q, app),
            "Having pressed F5 on '%s', the user is shown %s." % (f, Q),
        ]
    return r.choice(t)


# ==========================================================================
# 2. osworld_trajectory
# ==========================================================================

def a11y_cell(text):
    return text if '"' not in text else '"%s"' % text.replace('"', '""')


def typewrite_call(r, cmd):
    v = r.random()
    if v < 0.55:
        return "pyautogui.typewrite(%r, interval=%s)" % (cmd + "\n", r.choice(["0.02", "0.05", "0.03", "0.1"]))
    if v < 0.75:
        return "pyautogui.typewrite(%r)\npyautogui.press('enter')" % cmd
    if v < 0.88:
        return "pyautogui.write(%r)\npyautogui.press('enter')" % cmd
    return "subprocess.run(['xdotool', 'type', '--delay', '40', %r]); subprocess.run(['xdotool', 'key', 'Return'])" % cmd


def s_osworld(c, r):
    step = r.randint(3, 14)
    kind = r.choice(["bash", "bash", "bash", "fedora", "zsh"])
    scr = c.screen(kind)
    title = "%s@%s: %s" % (c.user, c.host, c.tcwd)
    v = r.randrange(5)
    think = r.choice([
        "The terminal is open in %s. I'll run the command to check it works." % c.tcwd,
        "Now I run `%s` in the terminal." % c.run_cmd,
        "Next, execute the command in the focused terminal window.",
        "The file is saved; let me run it from the terminal.",
        "I'll type the command and press Enter.",
    ])
    if v == 0:
        rows = ["tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)"]
        rows.append("push-button\tActivities\t\t\t\t(0, 0)\t(107, 27)")
        rows.append("label\t%s\t\t\t\t(%d, 0)\t(%d, 27)" % (r.choice(["Terminal", "Terminal", "Konsole"]), r.randint(110, 160), r.randint(70, 90)))
        rows.append("push-button\t%s\t\t\t\t(914, 0)\t(92, 27)" % c.end_dt().strftime("%b %d  %H:%M"))
        rows.append("label\t%s\t\t\t\t(%d, 37)\t(%d, 20)" % (title, r.randint(700, 820), len(title) * 8))
        text = "\n".join(scr)
        rows.append("terminal\tTerminal\t%s\t\t\t(70, 64)\t(%d, %d)" % (a11y_cell(text), r.choice([1850, 1280, 1366]), r.choice([1016, 720, 694])))
        return "Step %d\nThought: %s\nAction: %s\nObservation (accessibility tree):\n%s" % (
            step, think, typewrite_call(r, c.run_cmd), "\n".join(rows))
    if v == 1:
        visible = scr[-r.randint(28, 40):]
        app = r.choice(["GNOME Terminal", "the terminal", "Konsole", "xterm"])
        cap = r.choice([
            "Screenshot: %s window titled \"%s\". The command was executed and an error is printed below it. Visible text:" % (app, title),
            "Observation: the screenshot shows %s; the last command produced the following output:" % app,
            "Screenshot caption: terminal in focus (%s). Text on screen:" % title,
        ])
        act = "xdotool type --delay %d %s && xdotool key Return" % (r.choice([12, 25, 40]), shlex.quote(c.run_cmd))
        return "Step %d\nAction: %s\n%s\n%s" % (step, act, cap, "\n".join(visible))
    if v == 2:
        ts1 = c.dt - _dt.timedelta(seconds=r.randint(2, 6))
        ts2 = c.end_dt() + _dt.timedelta(seconds=r.randint(1, 4))
        blk = c.e.block_lines() if r.random() < 0.6 else c.e.lines[-min(len(c.e.lines), r.randint(4, 12)):]
        if c.e.h not in range(len(c.e.lines) - len(blk), len(c.e.lines)) and blk != c.e.block_lines():
            blk = c.e.block_lines()
        resp = r.choice([
            "The terminal now shows an error after running `%s`:\n```\n%s\n```\nI need to fix this before continuing." % (c.run_cmd, "\n".join(blk)),
            "`%s` failed. Output on screen:\n%s\nNext I will investigate the cause." % (c.run_cmd, "\n".join(blk)),
            "I see the following in the terminal:\n\n%s\n\nThe command did not succeed." % "\n".join(blk),
        ])
        rec1 = {"step_num": step, "action_timestamp": ts1.strftime("%Y%m%d@%H%M%S"),
                "action": typewrite_call(r, c.run_cmd).replace("\n", "; "), "reward": 0, "done": False, "info": {},
                "screenshot_file": "step_%d_%s.png" % (step, ts1.strftime("%Y%m%d@%H%M%S"))}
        rec2 = {"step_num": step + 1, "action_timestamp": ts2.strftime("%Y%m%d@%H%M%S"),
                "action": r.choice(["pyautogui.hotkey('ctrl', 'shift', 'c')", "WAIT", "pyautogui.scroll(-5)", "pyautogui.click(960, 540)"]),
                "response": resp, "reward": 0, "done": False, "info": {},
                "screenshot_file": "step_%d_%s.png" % (step + 1, ts2.strftime("%Y%m%d@%H%M%S"))}
        return json.dumps(rec1) + "\n" + json.dumps(rec2)
    if v == 3:
        typed = c.run_cmd.replace("\\", "\\\\").replace("'", "\\'")
        vis = scr[-r.randint(20, 45):]
        return ("Step %d\nThought: %s\nAction: type(content='%s\\n')\n\nStep %d\nScreenshot: step_%d.png\n"
                "Thought: The terminal printed an error instead of the expected result. The screen reads:\n%s\n"
                "Action: %s" % (step, think, typed, step + 1, step + 1, "\n".join(vis),
                                r.choice(["hotkey(key='ctrl l')", "wait()", "scroll(direction='up')", "finished()"])))
    # v == 4: observation first, then the action that produced it is referenced
    text = "\n".join(scr)
    return ("## Step %d\nAction executed: %s\nResult: exit code unknown (GUI)\n"
            "Terminal accessible text (tag=terminal, name=Terminal):\n%s" % (
                step, typewrite_call(r, c.run_cmd).replace("\n", "; "), a11y_cell(text)))


# ==========================================================================
# 3. mind2web_action_repr
# ==========================================================================

WEBTERMS = [
    ("JupyterLab", "Terminal 1 - JupyterLab", "tab", "Terminal 1"),
    ("Cockpit", "Terminal - {host}", "link", "Terminal"),
    ("Codespaces", "{dir} [Codespaces: {cs}] - Visual Studio Code", "tab", "bash"),
    ("Cloud Shell", "Google Cloud Shell", "button", "Open Terminal"),
    ("Proxmox", "{host} - Proxmox Console", "button", ">_ Shell"),
    ("Webmin", "Command Shell - Webmin", "link", "Command Shell"),
    ("SSM", "Run Command | Systems Manager | us-east-1", "button", "Run command"),
]


def s_mind2web(c, r):
    kind, title, tag0, name0 = r.choice(WEBTERMS)
    title = title.format(host=c.host, dir=c.dirname, cs=r.choice(["fluffy-space-guide", "reimagined-giggle", "psychic-waffle", "super-duper-fishstick"]))
    cols = r.choice([80, 100, 120, 132, 96])
    if kind == "SSM":
        body = c.err if len(c.err) <= 2500 else c.err[:2500]
        rows = [l.expandtabs(8).rstrip() for l in body.split("\n")]
        if len(c.err) > 2500:
            rows.append("The command output displays a maximum of 2500 characters. You can view the complete command output in either Amazon S3 or CloudWatch logs, if you specify an S3 bucket or a CloudWatch logs group when you run the command.")
        rows.append("failed to run commands: exit status %d" % (c.exit or 1))
        iid = "i-0%016x" % r.getrandbits(64)
        acts = ["[button]  Run command -> CLICK", "[textbox]  Filter documents -> TYPE: AWS-RunShellScript",
                "[radio]  AWS-RunShellScript -> CLICK",
                "[textbox]  Commands -> TYPE: cd %s && %s" % (c.cwd, c.run_cmd) if r.random() < 0.5 else "[textbox]  Commands -> TYPE: %s" % c.run_cmd,
                "[checkbox]  %s -> CLICK" % iid, "[button]  Run -> CLICK", "[link]  %s -> CLICK" % iid, "[button]  Output -> CLICK"]
    elif kind == "Webmin":
        out_lines = ["> " + c.run_cmd] + c.e.lines
        rows = [l.expandtabs(8).rstrip() for l in out_lines]
        acts = ["[link]  Others -> CLICK", "[link]  Command Shell -> CLICK",
                "[textbox]  Command -> TYPE: %s" % c.run_cmd, "[button]  Execute command -> CLICK"]
    else:
        scr = c.screen("bash" if kind != "Codespaces" else "plain", cmd=c.run_cmd)
        if kind == "Codespaces":
            scr[0] = "@%s \u279c /workspaces/%s (%s) $ %s" % (c.user, c.dirname, c.branch, c.run_cmd)
            scr[-1] = "@%s \u279c /workspaces/%s (%s) $" % (c.user, c.dirname, c.branch)
        rows = wrap_rows(scr, cols)
        rows = rows[-r.choice([24, 30, 36, 40, 48]):]
        acts = ["[%s]  %s -> CLICK" % (tag0, name0),
                "[textbox]  Terminal input -> TYPE: %s" % c.run_cmd]
        if r.random() < 0.4:
            acts.append("[textbox]  Terminal input -> PRESS: Enter")
    rows = [x for x in rows if x.strip()]
    box_name = {"Webmin": "Command", "SSM": "Commands"}.get(kind, "Terminal input")
    v = r.randrange(4)
    if v == 0:
        base = r.randint(40, 400)
        tree = ["RootWebArea '%s' focused: True" % title]
        tree.append("\t[%d] textbox '%s' focused: True required: False" % (base - 3, box_name))
        for j, row in enumerate(rows):
            tree.append("\t\t[%d] StaticText '%s'" % (base + j, row))
        return "Previous actions:\n%s\n\nObservation:\n%s" % ("\n".join(acts), "\n".join(tree))
    if v == 1:
        els = ["[StaticText] '%s'" % row for row in rows]
        return "Action history:\n%s\nResulting elements:\n%s" % ("\n".join(acts), "\n".join(els))
    if v == 2:
        base = r.randint(100, 900)
        acts2 = ["fill('a%d', %r)" % (base - 2, c.run_cmd)]
        acts2.append("press('a%d', 'Enter')" % (base - 2) if kind not in ("Webmin", "SSM") else "click('a%d')" % (base - 1))
        tree = ["[a%d] RootWebArea %r, focused" % (base - 20, title),
                "\t[a%d] textbox '%s', focused" % (base - 2, box_name)]
        for j, row in enumerate(rows):
            tree.append("\t\t[a%d] StaticText %r" % (base + j, row))
        return "# action_reprs\n%s\n# executed\n%s\n# AXTree after action\n%s" % (
            "\n".join(acts), "\n".join(acts2), "\n".join(tree))
    rec = {"website": kind.lower().replace(" ", ""), "action_reprs": acts,
           "observation_after": ["[StaticText] '%s'" % row for row in rows]}
    return json.dumps(rec, ensure_ascii=False, indent=r.choice([None, 1, 2]))


# ==========================================================================
# 4. recall_snapshot_search
# ==========================================================================

def search_term(c, r):
    h = c.e.headline
    cands = re.findall(r"[A-Za-z_][\w.-]{3,}", h)
    stop = {"error", "Error", "from", "with", "that", "this", "file", "line", "have", "your", "there", "which", "when", "were"}
    cands = [x for x in cands if x not in stop]
    if r.random() < 0.35 or not cands:
        return r.choice(["error", "failed", "denied", "not found", c.prog()])
    if len(cands) > 2 and r.random() < 0.4:
        i = r.randrange(len(cands) - 1)
        return cands[i] + " " + cands[i + 1]
    return r.choice(cands)


def highlight(text, term):
    words = [w for w in term.split() if w]
    for w in words:
        pat = r"(?i)(?<![\w*])(%s)(?!\w)" % re.escape(w) if len(w) < 5 else r"(?i)(?<!\*)(%s)" % re.escape(w)
        text = re.sub(pat, r"**\1**", text)
    return text


def s_recall(c, r):
    cols = r.choice([80, 100, 120, 140, 160])
    scr = c.screen(r.choice(["bash", "zsh", "fedora"]))
    rows = wrap_rows(scr, cols)[-r.choice([30, 40, 50, 60]):]
    hrow = c.e.headline[:40]
    ocr_rows = [ocr_mangle(x.strip() if r.random() < 0.5 else x.rstrip(), r, r.choice([0.0, 0.02, 0.05])) for x in rows]
    term = search_term(c, r)
    v = r.randrange(5)
    appname = r.choice([
        ["Terminal", "iTerm2", "Visual Studio Code", "Warp", "Ghostty"],
        ["gnome-terminal-server", "konsole", "Code", "kitty", "WezTerm", "Alacritty"],
        ["Windows Terminal", "Visual Studio Code", "Ubuntu"],
        ["Terminal", "GNOME Terminal", "Konsole", "Code", "kitty"],
        ["Terminal", "iTerm2", "Konsole", "Code", "Windows Terminal"],
    ][v])
    title = "%s@%s: %s" % (c.user, c.host, c.tcwd)
    when = c.end_dt() + _dt.timedelta(seconds=r.randint(0, 50))
    flat = " ".join(x for x in ocr_rows if x)
    # centre the excerpt on the headline
    pos = flat.find(ocr_mangle(hrow, random.Random(0), 0.0)[:20])
    if pos < 0:
        pos = max(0, len(flat) - 400)
    span = r.randint(260, 620)
    a = max(0, pos - r.randint(60, span // 2))
    b = min(len(flat), a + span)
    ex = flat[a:b]
    excerpt = ("…" if a > 0 else "") + ex + ("…" if b < len(flat) else "")
    if v == 0:
        return "Rewind · search \"%s\"\n%s — %s — %s\nMatched text: %s" % (
            term, when.strftime("%a, %b %-d · %-I:%M:%S %p"), appname, title, highlight(excerpt, term))
    if v == 1:
        item = {"type": "OCR", "content": {
            "frame_id": r.randint(10000, 900000), "text": "\n".join(ocr_rows),
            "timestamp": (when - _dt.timedelta(hours=c.tz[0])).strftime("%Y-%m-%dT%H:%M:%S.") + "%06dZ" % r.randint(0, 999999),
            "file_path": "%s/.screenpipe/data/monitor_%d_%s.mp4" % (c.home, r.randint(1, 2), when.strftime("%Y-%m-%d_%H-%M-%S")),
            "offset_index": r.randint(0, 180), "app_name": appname, "window_name": title, "tags": [],
            "frame": None, "browser_url": None, "focused": True}}
        body = {"data": [item], "pagination": {"limit": 5, "offset": 0, "total": r.randint(1, 9)}}
        return "GET /search?q=%s&content_type=ocr&limit=5\n%s" % (
            term.replace(" ", "+"), json.dumps(body, ensure_ascii=False, indent=2))
    if v == 2:
        return "Recall · Search: %s\nText matches\n%s  ·  %s  ·  %s\n%s\n[Open snapshot]  [Copy text]" % (
            term, appname, title, when.strftime("%d/%m/%Y %H:%M"),
            highlight(excerpt, term))
    if v == 3:
        return "### %s · %s (window: %s)\nquery: `%s`\n```\n%s\n```" % (
            when.strftime("%Y-%m-%d %H:%M:%S"), appname, title, term, "\n".join(ocr_rows[-r.randint(12, 40):]) if c.e.h >= len(c.e.lines) - 30 else "\n".join(ocr_rows))
    return "%s | %s | %s | …%s…" % (when.strftime("%Y-%m-%d %H:%M:%S"), appname, title, highlight(ex, term))


# ==========================================================================
# 5. clipboard_manager_item
# ==========================================================================

def clip_text(c, r):
    v = r.random()
    if v < 0.5:
        return c.err
    if v < 0.85:
        p = c.prompt(r.choice(["bash", "zsh", "plain"]))
        return p + c.run_cmd + "\n" + c.err
    return "\n".join(c.e.block_lines()).strip()


def one_line_preview(t, n):
    flat = re.sub(r"\s+", " ", t).strip()
    return flat if len(flat) <= n else flat[: n - 1] + "…"


def s_clipboard(c, r):
    text = clip_text(c, r)
    when = c.end_dt() + _dt.timedelta(seconds=r.randint(2, 90))
    nlines = text.count("\n") + 1
    v = r.randrange(6)
    if v == 0:
        win = "%s@%s: %s — Konsole" % (c.user, c.host, c.tcwd)
        return ("$ copyq read text/plain 0\n%s\n$ copyq read application/x-copyq-owner-window-title 0\n%s\n"
                "$ copyq eval 'print(dateString(\"yyyy-MM-dd hh:mm:ss\"))'\n%s" % (
                    text, win, when.strftime("%Y-%m-%d %H:%M:%S")))
    if v == 1:
        app = r.choice(["Terminal", "iTerm2", "Visual Studio Code", "Ghostty", "Warp"])
        pv = one_line_preview(text, r.choice([40, 50, 60]))
        stamp = when.strftime("%b %-d, %Y at %-I:%M:%S %p")
        return ("Maccy\n  %s\n\n%s\n\nApplication: %s\nFirst copy time: %s\nLast copy time: %s\nNumber of copies: %d\n"
                "Press ⌥⌫ to delete.\nPress ⌥P to (un)pin." % (pv, text, app, stamp, stamp, r.choice([1, 1, 1, 2, 3])))
    if v == 2:
        pv = one_line_preview(text, 70)
        return ("Ditto — Clip Properties\nDescription: %s\nDate: %s\nLast used: %s\nCopied from: %s\nSize: %d bytes\n"
                "-- Text (CF_UNICODETEXT) --\n%s" % (
                    pv, when.strftime("%-m/%-d/%Y %-I:%M:%S %p"), when.strftime("%-m/%-d/%Y %-I:%M:%S %p"),
                    r.choice(["WindowsTerminal.exe", "Code.exe", "mintty.exe", "WindowsTerminal.exe"]),
                    len(text.replace("\n", "\r\n").encode("utf-16-le")) + 2, text.replace("\n", "\r\n") if r.random() < 0.0 else text))
    if v == 3:
        first = one_line_preview(text.split("\n")[0], 60)
        return ("Klipper history (item 1 of %d) — %s\n%s\n\n$ qdbus org.kde.klipper /klipper getClipboardHistoryItem 0\n%s" % (
            r.randint(8, 40), when.strftime("%H:%M"), first + (" [%d lines]" % nlines if nlines > 1 else ""), text))
    if v == 4:
        cid = r.randint(40, 4000)
        pv = re.sub(r"\s+", " ", text).strip()[:100]
        return "$ cliphist list | head -3\n%d\t%s\n%d\tgit status\n%d\t%s\n$ cliphist decode %d\n%s" % (
            cid, pv, cid - 1, cid - 2, c.tcwd, cid, text)
    pv = text.replace("\n", " ")[:r.choice([120, 160, 200])]
    return "$ gpaste-client history --oneline | head -2\n0: %s\n1: %s\n$ gpaste-client get 0\n%s" % (
        pv, r.choice(["cd " + c.tcwd, c.run_cmd, "https://stackoverflow.com/questions/" + str(r.randint(10**7, 8 * 10**7))]), text)


# ==========================================================================
# 6. osc133_shell_integration
# ==========================================================================

def vscode_escape(cmd):
    out = []
    for ch in cmd:
        if ch == "\\":
            out.append("\\\\")
        elif ch == ";":
            out.append("\\x3b")
        elif ord(ch) < 0x20:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def s_osc133(c, r):
    cmd = c.run_cmd
    pr = c.prompt(r.choice(["bash", "bash", "zsh"]))
    colored = "[01;32m%s@%s[00m:[01;34m%s[00m$ " % (c.user, c.host, c.tcwd)
    out_lines = c.e.lines
    v = r.randrange(5)
    if v == 0:
        # ESC stripped, ST terminators left as backslash
        s = ["]133;A\\%s]133;B\\%s" % (pr, cmd), "]133;C\\" + out_lines[0]] + out_lines[1:]
        s.append("]133;D;%d\\]133;A\\%s" % (c.exit, pr.rstrip()))
        return "\n".join(s)
    if v == 1:
        # cat -v of a `script` typescript
        body = ["^[]0;%s@%s: %s^G^[]133;A^G^[[?2004h%s^[]133;B^G%s^M" % (
            c.user, c.host, c.tcwd, colored.replace("[", "^[[", 4) if r.random() < 0.5 else pr, cmd)]
        body.append("^[[?2004l^M^[]133;C^G" + out_lines[0] + "^M")
        body += [l + "^M" for l in out_lines[1:]]
        body.append("^[]133;D;%d^G^[]133;A^G^[[?2004h%s" % (c.exit, pr.rstrip()))
        return "$ cat -v typescript | tail -n %d\n%s" % (len(body), "\n".join(body))
    if v == 2:
        nonce = "%08x-%04x-%04x-%04x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(16), r.getrandbits(16), r.getrandbits(48))
        s = ["]633;P;Cwd=%s]633;A%s]633;B%s" % (c.cwd, pr, cmd), "]633;E;%s;%s]633;C%s" % (vscode_escape(cmd), nonce, out_lines[0])]
        s += out_lines[1:]
        s.append("]633;D;%d]633;P;Cwd=%s]633;A%s]633;B" % (c.exit, c.cwd, pr.rstrip()))
        return "\n".join(s)
    if v == 3:
        # asciinema v2 cast events, JSON-escaped
        t = round(r.uniform(1.5, 9.0), 6)
        hdr = {"version": 2, "width": r.choice([80, 120, 157, 100]), "height": r.choice([24, 35, 42]),
               "timestamp": int(c.epoch()) - 3, "env": {"SHELL": "/bin/bash", "TERM": "xterm-256color"}}
        ev = [[round(t, 6), "o", "\x1b]133;A\x07" + colored.replace("[0", "\x1b[0") + "\x1b]133;B\x07"]]
        t += r.uniform(0.8, 3.0)
        ev.append([round(t, 6), "o", cmd])
        t += r.uniform(0.2, 0.6)
        ev.append([round(t, 6), "o", "\r\n\x1b]133;C\x07"])
        t += c.dur
        chunk = "\r\n".join(out_lines) + "\r\n"
        if len(chunk) > 600 and r.random() < 0.6:
            mid = chunk.rfind("\r\n", 0, len(chunk) // 2) + 2
            ev.append([round(t - c.dur / 3, 6), "o", chunk[:mid]])
            ev.append([round(t, 6), "o", chunk[mid:]])
        else:
            ev.append([round(t, 6), "o", chunk])
        ev.append([round(t + 0.002, 6), "o", "\x1b]133;D;%d\x07\x1b]133;A\x07" % c.exit + colored.replace("[0", "\x1b[0")])
        return "\n".join([json.dumps(hdr)] + [json.dumps(e) for e in ev])
    # iTerm2 marks, ESC shown as \e
    s = ["\\e]1337;RemoteHost=%s@%s\\a\\e]1337;CurrentDir=%s\\a\\e]133;A\\a%s\\e]133;B\\a%s" % (c.user, c.host, c.cwd, pr, cmd),
         "\\e]133;C;\\a" + out_lines[0]] + out_lines[1:]
    s.append("\\e]133;D;%d\\a\\e]1337;RemoteHost=%s@%s\\a\\e]133;A\\a%s" % (c.exit, c.user, c.host, pr.rstrip()))
    return "\n".join(s)


# ==========================================================================
# 7. fancy_prompt_zsh_fish
# ==========================================================================

def lang_seg(c):
    p = c.prog()
    m = re.search(r"Node\.js (v[\d.]+)", c.err)
    if p in ("node", "npm", "npx", "yarn", "tsc"):
        return ("\ue718", m.group(1) if m else "v20.11.1", "⬢")
    if p.startswith("python") or p in ("pip", "pip3", "/usr/bin/python3"):
        m = re.search(r"python(3\.\d+)", c.err)
        return ("\ue73c", "v" + (m.group(1) + ".2" if m else "3.11.2"), "🐍")
    if p == "cargo":
        return ("\ue7a8", "v1.79.0", "🦀")
    if p == "go":
        return ("\ue627", "v1.22.3", "🐹")
    if p in ("java", "javac", "mvn", "./gradlew", "gradle", "./mvnw"):
        return ("\ue738", "v17.0.11", "☕")
    if p in ("bundle", "ruby", "gem", "bin/rails", "rails"):
        return ("\ue791", "v3.0.2", "💎")
    return None


def s_fancy(c, r):
    cmd = c.run_cmd
    st = c.exit
    dur = c.dur
    tm0 = c.dt.strftime("%H:%M:%S")
    tm1 = c.end_dt().strftime("%H:%M:%S")
    br = c.branch
    dirty = r.choice(["", " !1", " ?2", " !2 ?1", " +1"])
    lang = lang_seg(c)
    width = r.choice([100, 120, 140, 90])
    v = r.randrange(6)
    if v == 0:
        # p10k lean, two lines
        def top(right):
            left = "%s \ue0a0 %s%s" % (c.tcwd, br, dirty)
            pad = max(2, width - len(left) - len(right))
            return left + " " + ("·" * pad if r.random() < 0.0 else " " * pad) + right
        r0 = "✔  %s" % tm0
        r1 = ("✘ %d" % st if st else "✔") + ("  %s" % fmt_dur(dur, "p10k") if dur >= 3 else "") + "  %s" % tm1
        return "\n".join([top(r0), "❯ " + cmd] + c.e.lines + [top(r1), "❯"])
    if v == 1:
        # p10k rainbow, single line with powerline separators
        seg = " \uf015 %s \ue0b0 \ue0a0 %s%s \ue0b0 " % (c.tcwd, br, dirty) if c.tcwd.startswith("~") else " %s \ue0b0 \ue0a0 %s \ue0b0 " % (c.tcwd, br)
        right0 = "\ue0b2 %s \uf017 " % tm0
        right1 = "\ue0b2 ✘ %d \ue0b2 %s \uf252 \ue0b2 %s \uf017 " % (st, fmt_dur(dur, "p10k"), tm1) if st else "\ue0b2 %s \uf017 " % tm1
        line0 = seg + cmd
        return "\n".join([line0 + " " * max(2, width - len(line0) - len(right0)) + right0] + c.e.lines + [seg + " " * max(2, width - len(seg) - len(right1)) + right1])
    if v == 2:
        # starship
        ls = ""
        if lang:
            ls = " via %s %s" % (lang[0] if r.random() < 0.6 else lang[2], lang[1])
        gstat = r.choice(["", " [!]", " [?]", " [!?]", " [+]"])
        l0 = "%s on \ue0a0 %s%s%s" % (c.dirname, br, gstat, ls)
        took = " took %s" % fmt_dur(dur, "short") if dur >= 2 else ""
        status = r.choice(["", " [✘ %d]" % st, " ❌%d" % st]) if st else ""
        return "\n".join([l0, "❯ " + cmd] + c.e.lines + ["", l0 + took + status, "❯ "])
    if v == 3:
        # fish default prompt
        p = "%s@%s %s (%s)> " % (c.user, c.host, c.tcwd, br)
        p2 = "%s@%s %s (%s) [%d]> " % (c.user, c.host, c.tcwd, br, st) if st else p
        return "\n".join([p + cmd] + c.e.lines + [p2])
    if v == 4:
        # oh-my-zsh robbyrussell
        d = c.dirname
        dirty_m = r.choice(["", " ✗"])
        p = "➜  %s git:(%s)%s " % (d, br, dirty_m)
        return "\n".join([p + cmd] + c.e.lines + [p])
    # pure
    l0 = "%s %s%s" % (c.tcwd, br, r.choice(["", "*"]))
    took = " %s" % fmt_dur(dur, "short") if dur >= 5 else ""
    return "\n".join(["", l0, "❯ " + cmd] + c.e.lines + ["", l0 + took, "❯"])


# ==========================================================================
# 8. notebook_shell_magic
# ==========================================================================

def s_notebook(c, r):
    n = r.randint(2, 48)
    cmd = c.run_cmd
    out = c.e.lines
    v = r.randrange(6)
    if v == 5:
        return "!%s\n[%d]\n✓ %s\n\n%s" % (cmd, n, "%.1fs" % max(0.1, c.dur) if c.dur < 60 else fmt_dur(c.dur, "short"), "\n".join(out))
    if v == 0:
        label = r.choice(["In [%d]:" % n, "[%d]:" % n])
        pre = []
        if r.random() < 0.5:
            pre = ["In [%d]: %%cd %s" % (n - 1, c.tcwd), c.cwd, ""]
        return "\n".join(pre + ["%s !%s" % (label, cmd) if r.random() < 0.5 else "%s\n!%s" % (label, cmd)] + out)
    if v in (1, 2):
        body = ["cd %s" % c.tcwd, cmd] if r.random() < 0.5 else [cmd]
        cell = "%%bash\n" + "\n".join(body)
        src = "\n".join(body) + "\n"
        ipy = r.choice(["/usr/local/lib/python3.10/dist-packages", "%s/.venv/lib/python3.11/site-packages" % c.home, "/opt/conda/lib/python3.11/site-packages"])
        cmdrepr = "b%r" % src if "dist-packages" in ipy else src
        tb = [
            "---------------------------------------------------------------------------",
            "CalledProcessError                        Traceback (most recent call last)",
            "Cell In[%d], line 1" % n,
            "----> 1 get_ipython().run_cell_magic('bash', '', %r)" % src,
            "",
            "File %s/IPython/core/interactiveshell.py:2541, in InteractiveShell.run_cell_magic(self, magic_name, line, cell)" % ipy,
            "   2539 with self.builtin_trap:",
            "   2540     args = (magic_arg_s, cell)",
            "-> 2541     result = fn(*args, **kwargs)",
            "   2543 # The code below prevents the output from being displayed",
            "   2544 # when using magics with decorator @output_can_be_silenced",
            "   2545 # when the last Python token in the expression is a ';'.",
            "   2546 if getattr(fn, magic.MAGIC_OUTPUT_CAN_BE_SILENCED, False):",
            "",
            "File %s/IPython/core/magics/script.py:155, in ScriptMagics._make_script_magic.<locals>.named_script_magic(line, cell)" % ipy,
            "    153 else:",
            "    154     line = script",
            "--> 155 return self.shebang(line, cell)",
            "",
            "File %s/IPython/core/magics/script.py:315, in ScriptMagics.shebang(self, line, cell)" % ipy,
            "    310 if args.raise_error and p.returncode != 0:",
            "    311     # If we get here and p.returncode is still None, we must have",
            "    312     # killed it but not yet seen its return code. We don't wait for it,",
            "    313     # in case it's stuck in uninterruptible sleep. -9 = SIGKILL",
            "    314     rc = p.returncode or -9",
            "--> 315     raise CalledProcessError(rc, cell)",
            "",
            "CalledProcessError: Command '%s' returned non-zero exit status %d." % (cmdrepr, c.exit or 1),
        ]
        if r.random() < 0.4:
            tb = tb[:4] + ["", "[... skipping hidden 2 frame]", ""] + tb[-1:]
        label = "In [%d]:" % n if v == 1 else "[%d]" % n
        return "%s\n%s\n\n%s\n%s" % (label, cell, "\n".join(out), "\n".join(tb))
    if v == 3:
        # raw .ipynb cell
        outs = [l + "\n" for l in out]
        if outs:
            outs[-1] = outs[-1][:-1] if r.random() < 0.3 else outs[-1]
        cell = {"cell_type": "code", "execution_count": n, "id": "%08x" % r.getrandbits(32), "metadata": {},
                "outputs": [{"name": "stdout", "output_type": "stream", "text": outs}],
                "source": ["!" + cmd]}
        return json.dumps(cell, indent=1, ensure_ascii=False)
    # Colab-like copy: code then output, with a shell-escape note
    return "[%d] !%s\n\n%s" % (n, cmd, "\n".join(out))


# ==========================================================================
# 9. atuin_history_record
# ==========================================================================

def neighbours(c, r):
    f = c.main_file()
    pool = ["ls", "git status", "clear", "cd " + c.tcwd, "git pull", "ls -la", "git diff", "code .", "history | tail"]
    if f:
        pool += ["vim " + f, "nano " + f, "cat " + f]
    r.shuffle(pool)
    return pool[: r.randint(1, 3)]


def saved_output(c, r):
    head = r.choice([
        "# output (copied from the terminal):",
        "--- stderr ---",
        "# what it printed:",
        "output ->",
        "# saved to ~/notes/errors/%s.txt" % c.dt.strftime("%Y-%m-%d"),
    ])
    return head + "\n" + c.err


def s_atuin(c, r):
    cmd = c.run_cmd
    v = r.randrange(6)
    nb = neighbours(c, r)
    t = c.dt
    if v in (0, 1):
        fmt = r.choice(["{time}\t{exit}\t{duration}\t{command}", "{time} | {exit} | {duration} | {directory} | {command}"])
        lines = []
        tt = t - _dt.timedelta(seconds=r.randint(30, 600))
        for x in nb:
            vals = {"time": tt.strftime("%Y-%m-%d %H:%M:%S"), "exit": "0", "duration": fmt_dur(r.uniform(0.005, 0.3), "atuin"), "directory": c.cwd, "command": x}
            lines.append(fmt.replace("{", "%(").replace("}", ")s") % vals)
            tt += _dt.timedelta(seconds=r.randint(5, 120))
        vals = {"time": t.strftime("%Y-%m-%d %H:%M:%S"), "exit": str(c.exit), "duration": fmt_dur(c.dur, "atuin"), "directory": c.cwd, "command": cmd}
        lines.append(fmt.replace("{", "%(").replace("}", ")s") % vals)
        head = "$ atuin history list --cwd --format \"%s\" | tail -%d" % (fmt.replace("\t", "\\t"), len(lines)) if v == 0 else "$ atuin search --exit %d --limit 1 --format \"%s\" %s" % (c.exit, fmt.replace("\t", "\\t"), shlex.quote(c.prog()))
        if v == 1:
            lines = lines[-1:]
        return "%s\n%s\n\n%s" % (head, "\n".join(lines), saved_output(c, r))
    if v == 2:
        hid = "%032x" % r.getrandbits(128)
        sess = "%032x" % r.getrandbits(128)
        ns = int(c.epoch() * 1e9) + r.randint(0, 999999)
        row = "%s|%d|%d|%d|%s|%s|%s|%s:%s" % (hid, ns, int(c.dur * 1e9), c.exit, cmd, c.cwd, sess, c.host, c.user)
        return ("$ sqlite3 ~/.local/share/atuin/history.db \"select id,timestamp,duration,exit,command,cwd,session,hostname "
                "from history order by timestamp desc limit 1\"\n%s\n\n%s" % (row, saved_output(c, r)))
    if v == 3:
        ep = int(c.epoch())
        lines = []
        e0 = ep - r.randint(60, 900)
        for x in nb:
            lines.append(": %d:%d;%s" % (e0, r.randint(0, 1), x))
            e0 += r.randint(5, 200)
        lines.append(": %d:%d;%s" % (ep, int(c.dur), cmd))
        return "$ tail -n %d ~/.zsh_history\n%s\n\n%s" % (len(lines), "\n".join(lines), saved_output(c, r))
    if v == 4:
        ep = int(c.epoch())
        ent = ["- cmd: %s" % cmd.replace("\\", "\\\\"), "  when: %d" % ep]
        paths = [t2 for t2 in split_cmd(cmd)[1:] if re.match(r"^[\w~.][\w./~-]*$", t2) and ("/" in t2 or re.search(r"\.[a-z]{1,5}$", t2)) and not re.match(r"^\d+(\.\d+)*$", t2)]
        if paths:
            ent.append("  paths:")
            ent += ["    - %s" % p for p in paths]
        prev = ["- cmd: %s\n  when: %d" % (x, ep - r.randint(20, 900)) for x in nb[:2]]
        return "~/.local/share/fish/fish_history (tail):\n%s\n%s\n\n%s" % ("\n".join(prev), "\n".join(ent), saved_output(c, r))
    num = r.randint(480, 2300)
    lines = []
    tt = t - _dt.timedelta(seconds=r.randint(60, 900))
    for i, x in enumerate(nb):
        lines.append("%5d  %s %s" % (num - len(nb) + i, tt.strftime("%Y-%m-%d %H:%M:%S"), x))
        tt += _dt.timedelta(seconds=r.randint(4, 100))
    lines.append("%5d  %s %s" % (num, t.strftime("%Y-%m-%d %H:%M:%S"), cmd))
    return "$ HISTTIMEFORMAT='%%F %%T ' history | tail -n %d\n%s\n(exit status was %d)\n\n%s" % (
        len(lines), "\n".join(lines), c.exit, saved_output(c, r))


# ==========================================================================
# 10. auditd_execsnoop_trace
# ==========================================================================

BINPATH = {
    "node": "/usr/bin/node", "python3": "/usr/bin/python3", "python": "/usr/bin/python3", "pip": "/usr/bin/pip",
    "cargo": "{home}/.cargo/bin/cargo", "go": "/usr/local/go/bin/go", "java": "/usr/bin/java",
    "javac": "/usr/bin/javac", "mvn": "/usr/bin/mvn", "kubectl": "/usr/local/bin/kubectl",
    "helm": "/usr/local/bin/helm", "bundle": "{home}/.rbenv/shims/bundle", "rbenv": "/usr/bin/rbenv",
    "npx": "/usr/bin/npx", "npm": "/usr/bin/npm", "yarn": "/usr/bin/yarn", "tsc": "/usr/local/bin/tsc",
}
BUILTINS = {"cd", "echo", "source", "export", "."}
NOTFOUND_RX = re.compile(r"command not found|^\S+: \d+: \S+: not found|cannot execute: required file not found", re.M)


def exec_chain(c):
    """Return list of argv lists that the shell would execve, and the one that fails (index or None)."""
    cmd = c.run_cmd
    cmd = re.sub(r"\$\(([^)]*)\)", lambda m: "", cmd)
    parts = re.split(r"\s*(?:&&|\|\||;|\|)\s*", cmd)
    chain = []
    for p in parts:
        toks = split_cmd(p)
        clean = []
        skip = False
        for t in toks:
            if skip:
                skip = False
                continue
            if t in ("<", ">", ">>", "2>", "2>&1"):
                skip = t != "2>&1"
                continue
            if re.match(r"^[<>]", t) or re.match(r"^\d?>", t):
                continue
            clean.append(t)
        while clean and re.match(r"^[A-Za-z_]\w*=", clean[0]):
            clean = clean[1:]
        if not clean or clean[0] in BUILTINS:
            continue
        if clean[0] == "sudo":
            chain.append(clean)
            clean = clean[1:]
            if not clean:
                continue
        chain.append(clean)
    return chain


def binpath(c, name):
    if name.startswith("./") or name.startswith("bin/"):
        return c.cwd + "/" + name.lstrip("./") if name.startswith("./") else c.cwd + "/" + name
    if name.startswith("/"):
        return name
    p = BINPATH.get(name)
    if p:
        return p.format(home=c.home)
    if name in ("systemctl", "journalctl"):
        return "/usr/bin/" + name
    return "/usr/bin/" + name


def c_escape(s):
    out = []
    for b in s.encode("utf-8"):
        ch = chr(b)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif 32 <= b < 127:
            out.append(ch)
        else:
            out.append("\\%o" % b)
    return "".join(out)


def audit_arg(a):
    if any(ord(ch) <= 0x20 or ord(ch) > 0x7e or ch == '"' for ch in a):
        return a.encode("utf-8").hex().upper()
    return '"%s"' % a


def s_trace(c, r):
    chain = exec_chain(c)
    notfound = bool(NOTFOUND_RX.search(c.err))
    eacces = bool(re.search(r"^bash: \./\S+: Permission denied", c.err, re.M))
    badinterp = "bad interpreter" in c.err or "required file not found" in c.err
    ppid = c.pid - r.randint(3, 400)
    v = r.randrange(5)
    if notfound or not chain:
        v = 3
    t0 = c.dt
    if v == 0:
        hdr = r.choice(["$ sudo execsnoop-bpfcc -T -x", "$ sudo execsnoop-bpfcc -T -x -u %s" % c.user, "# execsnoop-bpfcc -Tx"])
        lines = ["TIME     PCOMM            PID     PPID    RET ARGS"]
        pid = c.pid
        parent = ppid
        for i, argv in enumerate(chain):
            fn = binpath(c, argv[0])
            ret = 0
            if i == len(chain) - 1 and eacces:
                ret = -13
            if i == len(chain) - 1 and badinterp:
                ret = -2
            comm = os.path.basename(fn)[:15]
            args = " ".join([fn] + argv[1:])
            lines.append("%s %-16s %-7d %-7d %3d %s" % ((t0 + _dt.timedelta(seconds=0.05 * i)).strftime("%H:%M:%S"), comm, pid, parent, ret, args))
            if argv[0] == "sudo":
                parent = pid
            pid += r.randint(1, 4)
        tail = r.choice(["# stderr of the same run (other pane):", "--- captured stderr ---", "# terminal output:"])
        return "%s\n%s\n\n%s\n%s" % (hdr, "\n".join(lines), tail, c.err)
    if v == 1:
        ts = c.epoch() + r.randint(1, 999) / 1000.0
        serial = r.randint(1000, 99999)
        recs = []
        argv = chain[-1]
        fn = binpath(c, argv[0])
        stamp = "%.3f:%d" % (ts, serial)
        ok = not (eacces or badinterp)
        recs.append("type=SYSCALL msg=audit(%s): arch=c000003e syscall=59 success=%s exit=%d a0=%x a1=%x a2=%x a3=0 items=2 ppid=%d pid=%d auid=1000 uid=1000 gid=1000 euid=1000 suid=1000 fsuid=1000 egid=1000 sgid=1000 fsgid=1000 tty=pts%d ses=%d comm=\"%s\" exe=\"%s\" subj=unconfined key=\"exec\"" % (
            stamp, "yes" if ok else "no", 0 if ok else (-13 if eacces else -2), r.getrandbits(44), r.getrandbits(44), r.getrandbits(44),
            ppid, c.pid, r.randint(0, 6), r.randint(2, 40), os.path.basename(fn)[:15] if ok else "bash", fn if ok else "/usr/bin/bash"))
        recs.append("type=EXECVE msg=audit(%s): argc=%d %s" % (stamp, len(argv), " ".join("a%d=%s" % (i, audit_arg(a)) for i, a in enumerate(argv))))
        recs.append("type=CWD msg=audit(%s): cwd=\"%s\"" % (stamp, c.cwd))
        recs.append("type=PATH msg=audit(%s): item=0 name=\"%s\" inode=%d dev=fd:01 mode=0100755 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0" % (stamp, fn, r.randint(100000, 9999999)))
        recs.append("type=PROCTITLE msg=audit(%s): proctitle=%s" % (stamp, "00".join(a.encode("utf-8").hex().upper() for a in argv)[:256]))
        hdr = "$ sudo ausearch -k exec --raw -ts %s | tail -5" % t0.strftime("%H:%M:%S")
        stderr_hdr = r.choice(["stderr (tlog playback, same session):", "# and what the user saw:", "--- output captured alongside ---"])
        return "%s\n%s\n\n%s\n%s" % (hdr, "\n".join(recs), stderr_hdr, c.err)
    if v == 2:
        argv = chain[-1]
        fn = binpath(c, argv[0])
        serial = r.randint(1000, 99999)
        stamp = "%s.%03d:%d" % (t0.strftime("%m/%d/%Y %H:%M:%S"), r.randint(0, 999), serial)
        recs = ["----",
                "type=PROCTITLE msg=audit(%s) : proctitle=%s" % (stamp, " ".join(argv)),
                "type=PATH msg=audit(%s) : item=0 name=%s inode=%d dev=fd:01 mode=file,755 ouid=root ogid=root rdev=00:00 nametype=NORMAL" % (stamp, fn, r.randint(100000, 9999999)),
                "type=CWD msg=audit(%s) : cwd=%s" % (stamp, c.cwd),
                "type=EXECVE msg=audit(%s) : argc=%d %s" % (stamp, len(argv), " ".join("a%d=%s" % (i, a) for i, a in enumerate(argv))),
                "type=SYSCALL msg=audit(%s) : arch=x86_64 syscall=execve success=%s exit=%s ppid=%d pid=%d auid=%s uid=%s tty=pts%d comm=%s exe=%s key=exec" % (
                    stamp, "no" if (eacces or badinterp) else "yes", "EACCES(Permission denied)" if eacces else ("ENOENT(No such file or directory)" if badinterp else "0"),
                    ppid, c.pid, c.user, c.user, r.randint(0, 5), os.path.basename(fn)[:15], fn)]
        return "$ sudo ausearch -i -k exec -ts recent\n%s\n\n%s\n%s" % ("\n".join(recs), r.choice(["stderr:", "program output:", "# terminal:"]), c.err)
    if v == 3:
        s = int(r.choice([256, 1024, 2048, 4096, 65535]))
        pid = c.pid
        lines = []
        first = chain[0] if chain else split_cmd(c.run_cmd)
        if not chain:
            toks = split_cmd(c.run_cmd)
            if toks and toks[0] == "cd":
                lines.append("%d chdir(\"%s\") = -1 ENOENT (No such file or directory)" % (pid, toks[-1] if len(toks) > 1 else c.home))
        elif notfound:
            name = first[0] if first else c.prog()
            for d in ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]:
                lines.append("%d newfstatat(AT_FDCWD, \"%s/%s\", 0x7ffc%08x, 0) = -1 ENOENT (No such file or directory)" % (pid, d, name, r.getrandbits(32)))
        else:
            argv = chain[-1]
            fn = binpath(c, argv[0])
            ret = "0"
            if eacces:
                ret = "-1 EACCES (Permission denied)"
            elif badinterp:
                ret = "-1 ENOENT (No such file or directory)"
            lines.append("%d execve(\"%s\", [%s], 0x7ffd%08x /* %d vars */) = %s" % (
                pid, fn, ", ".join('"%s"' % c_escape(a) for a in argv), r.getrandbits(32), r.randint(28, 64), ret))
        per_line = r.random() < 0.5 or c.prog().startswith("python")
        chunks = [l + "\n" for l in c.e.lines] if per_line else [c.err + "\n"]
        for ch in chunks:
            esc = c_escape(ch)
            nbytes = len(ch.encode("utf-8"))
            shown = esc if len(ch.encode("utf-8")) <= s else c_escape(ch.encode("utf-8")[:s].decode("utf-8", "ignore")) + '"...'
            if shown.endswith('"...'):
                lines.append('%d write(2, "%s, %d) = %d' % (pid, shown, nbytes, nbytes))
            else:
                lines.append('%d write(2, "%s", %d) = %d' % (pid, shown, nbytes, nbytes))
        lines.append("%d exit_group(%d)                     = ?" % (pid, c.exit))
        lines.append("%d +++ exited with %d +++" % (pid, c.exit))
        hdr = "$ strace -f -s %d -e trace=execve,newfstatat,write -o /tmp/trace.%d bash -ic %s\n$ grep -v 'write(1' /tmp/trace.%d | tail -n %d" % (
            s, pid, shlex.quote(c.run_cmd), pid, len(lines))
        return hdr + "\n" + "\n".join(lines)
    # bpftrace execsnoop.bt + tlog output record
    lines = ["Attaching 3 probes...", "%-10s %-6s %-6s %s" % ("TIME(ms)", "PID", "PPID", "ARGS")]
    ms = r.randint(1200, 90000)
    pid = c.pid
    for argv in chain:
        lines.append("%-10d %-6d %-6d %s" % (ms, pid, ppid, " ".join(argv)))
        ms += r.randint(1, 40)
        pid += 1
    out = c.run_cmd + "\r\n" + "\r\n".join(c.e.lines) + "\r\n"
    rec = {"ver": "2.3", "host": c.host, "rec": "%032x-%x-%x" % (r.getrandbits(128), r.randint(1, 999), r.randint(1, 99999)),
           "user": c.user, "term": "xterm-256color", "session": r.randint(2, 40), "id": r.randint(2, 30),
           "pos": r.randint(1000, 90000), "timing": "=%dx%d+%d>%d" % (r.choice([80, 120, 157]), r.choice([24, 35, 50]), r.randint(100, 900), len(out.encode())),
           "in_txt": "", "in_bin": [], "out_txt": out, "out_bin": []}
    return "$ sudo bpftrace /usr/share/bpftrace/tools/execsnoop.bt\n%s\n^C\n\n# matching tlog record:\n%s" % ("\n".join(lines), json.dumps(rec, ensure_ascii=False))


# ==========================================================================
# 11. aider_session_log
# ==========================================================================

AIDER_MODELS = [
    ("claude-3-5-sonnet-20241022", "diff", "claude-3-5-haiku-20241022"),
    ("gpt-4o-2024-08-06", "diff", "gpt-4o-mini"),
    ("deepseek/deepseek-chat", "diff", "deepseek/deepseek-chat"),
    ("anthropic/claude-sonnet-4-20250514", "diff", "anthropic/claude-3-5-haiku-20241022"),
    ("o3-mini", "diff", "gpt-4o-mini"),
]


def aider_banner(c, r):
    ver = r.choice(["0.59.1", "0.63.1", "0.69.0", "0.72.3", "0.75.2", "0.82.2", "0.84.0"])
    m, fmt, weak = r.choice(AIDER_MODELS)
    return ["aider v%s" % ver if r.random() < 0.5 else "Aider v%s" % ver,
            "Main model: %s with %s edit format, infinite output" % (m, fmt),
            "Weak model: %s" % weak,
            "Git repo: .git with %d files" % r.randint(6, 420),
            "Repo-map: using %d tokens, auto refresh" % r.choice([1024, 1024, 2048, 4096])]


def s_aider(c, r):
    out = c.err
    ntok = max(0.1, round(len(out) / 4000.0, 1))
    nl = len(out.strip().splitlines())
    plural = "line" if nl == 1 else "lines"
    rule = "─" * r.choice([80, 100, 120])
    v = r.randrange(5)
    if v == 4:
        lines = [rule, "> /test %s" % c.run_cmd, "", out, "Added %d %s of output to the chat." % (nl, plural), "",
                 r.choice(["The test command fails with:", "The output shows the failure:", "The error is:"]), "", "```",
                 "\n".join(c.e.block_lines()), "```", ""]
        return "\n".join(lines)
    if v == 0:
        lines = aider_banner(c, r) + ['Use /help <question> for help, run "aider --help" to see cmd line args', rule,
                                      "> /run %s" % c.run_cmd, "", out, "",
                                      "Add %.1fk tokens of command output to the chat? (Y)es/(N)o [Yes]: y" % ntok,
                                      "Added %d %s of output to the chat." % (nl, plural), rule, "> What's wrong? Fix"]
        if r.random() < 0.5:
            lines = lines[5:]
        return "\n".join(lines)
    if v == 1:
        f = c.main_file() or "README.md"
        lines = [rule] + ([f] if r.random() < 0.6 else []) + ["> %s" % r.choice(["run it and see if it works", "try running it", "can you check this runs?", "run the build"]), "",
                 r.choice(["Let's run it to check:", "You can run it with:", "Try running:"]), "", "```bash", c.run_cmd, "```", "",
                 "Tokens: %.1fk sent, %d received. Cost: $%.4f message, $%.4f session." % (r.uniform(2, 14), r.randint(30, 300), r.uniform(0.002, 0.03), r.uniform(0.02, 0.4)),
                 "", "%s" % c.run_cmd,
                 "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y", "",
                 "Running %s" % c.run_cmd, out,
                 "Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y",
                 "Added %d %s of output to the chat." % (nl, plural)]
        return "\n".join(lines)
    if v == 2:
        stamp = (c.dt - _dt.timedelta(minutes=r.randint(2, 50))).strftime("%Y-%m-%d %H:%M:%S")
        hdr = ["# aider chat started at %s" % stamp, ""] + ["> %s  " % x for x in (["%s/.local/bin/aider" % c.home] + aider_banner(c, r))]
        body = ["", "#### /run %s  " % c.run_cmd,
                "> Add %.1fk tokens of command output to the chat? (Y)es/(N)o [Yes]: y  " % ntok,
                "> Added %d %s of output to the chat.  " % (nl, plural), "",
                "#### What's wrong? Fix  ", "",
                r.choice(["The output shows:", "The command fails with:", "The error is:"]), "", "```",
                "\n".join(c.e.block_lines()), "```", ""]
        return "\n".join(hdr + body)
    # user pasted the output into the chat (each line gets "#### ")
    stamp = (c.dt - _dt.timedelta(minutes=r.randint(2, 50))).strftime("%Y-%m-%d %H:%M:%S")
    ask = r.choice(["I get this when I run `%s`:" % c.run_cmd, "running %s gives:" % c.run_cmd, "`%s` fails:" % c.run_cmd])
    user_lines = [ask, ""] + c.e.lines
    hist = "\n".join("#### %s  " % l if l else "####   " for l in user_lines)
    return "# aider chat started at %s\n\n%s\n\n> Tokens: %.1fk sent, %d received.  " % (
        stamp, hist, r.uniform(1.5, 9), r.randint(80, 600))


# ==========================================================================
# 12. copilot_terminal_chat
# ==========================================================================

def reply_start(c, r):
    h = c.e.headline
    return r.choice([
        "The last command `%s` failed. The key line in the output is:\n\n```\n%s\n```\n\nThis means" % (c.run_cmd, h),
        "Looking at the terminal output, `%s` exited with code %d. The error is:\n\n> %s\n\nTo fix this," % (c.prog(), c.exit, h),
        "Sure! The error `%s` comes from `%s`. Here's what's going on:" % (h, c.prog()),
        "The output shows that `%s` didn't succeed:\n\n```\n%s\n```\n\n" % (c.run_cmd, "\n".join(c.e.block_lines())),
    ])


def s_copilot(c, r):
    user = r.choice([c.user, c.user + "-" + r.choice(["dev", "codes", "k", "gh", "io"]), c.user + str(r.randint(7, 99))])
    v = r.randrange(5)
    if v == 0:
        q = r.choice(["@terminal why did this fail?", "@terminal /explain #terminalLastCommand", "@terminal how do I fix this error?"])
        body = "I ran `%s` and got:\n\n```\n%s\n```" % (c.run_cmd, c.err) if "#terminalLastCommand" not in q else ""
        return "%s: %s%s\n\nGitHub Copilot:\nUsed 1 reference\n%s" % (user, q, ("\n" + body) if body else "", reply_start(c, r))
    if v == 1:
        req = {"requesterUsername": c.user, "responderUsername": "GitHub Copilot",
               "requests": [{"message": {"text": "@terminal /explain #terminalLastCommand"},
                             "variableData": {"variables": [{"id": "vscode.terminal.lastCommand", "name": "terminalLastCommand",
                                                             "value": "The following is the last command run in the terminal:\nCommand: %s\nCwd: %s\nExit Code: %d\nOutput: %s" % (c.run_cmd, c.cwd, c.exit, c.err)}]},
                             "response": [{"value": reply_start(c, r)}]}]}
        return json.dumps(req, ensure_ascii=False, indent=2)
    if v == 2:
        arg = "%s (fails with: %s)" % (c.run_cmd, c.e.headline)
        return ("$ gh copilot explain %s\n\nWelcome to GitHub Copilot in the CLI!\nversion 1.0.5 (2024-09-12)\n\n"
                "I'm powered by AI, so surprises and mistakes are possible. Make sure to verify any generated code or suggestions, "
                "and share feedback so that we can learn and improve. For more information, see https://gh.io/gh-copilot-transparency\n\n"
                "Explanation:\n\n  • %s is the command being run%s.\n  • The message \"%s\" indicates" % (
                    shlex.quote(arg), c.prog(), (" with the arguments " + " ".join(split_cmd(c.run_cmd)[1:])) if len(split_cmd(c.run_cmd)) > 1 and c.prog() == split_cmd(c.run_cmd)[0] else "", c.e.headline))
    if v == 3:
        # inline terminal chat
        return ("%s\n%s\n%s\n\n[Terminal Chat] › %s\n  GitHub Copilot: %s" % (
            c.prompt("bash") + c.run_cmd, c.err, c.prompt("bash").rstrip(),
            r.choice(["fix the last command", "why did that fail", "what does this error mean"]), reply_start(c, r)))
    # sparkle "Explain using Copilot" quick fix from a failed command decoration
    return ("Terminal: bash — %s\n%s\n%s\n\n✨ Explain using Copilot\n\n@terminal /explain #terminalLastCommand\n\nGitHub Copilot\n%s" % (
        c.tcwd, c.prompt("bash") + c.run_cmd, c.err, reply_start(c, r)))


# ==========================================================================
# 13. cursor_agent_tool_call
# ==========================================================================

def s_cursor(c, r):
    out = c.err
    v = r.randrange(6)
    if v == 0:
        return "Run command\n$ %s\n(cwd: %s)\n\nOutput:\n```\n%s\n```\nExit code: %d" % (c.run_cmd, c.tcwd, out, c.exit)
    if v == 1:
        return ("Exit code: %d\n\nCommand output:\n\n```\n%s\n```\n\nCommand completed.\n\nThe previous shell command ended, so on the next invocation of this tool, "
                "you will be reusing the shell.\n\nOn the next invocation of this tool, the current working directory of the shell will be %s." % (c.exit, out, c.cwd))
    if v == 2:
        return "Ran terminal command\n%s $ %s\n\n%s\n\nExit Code %d\n\nGo to Terminal · %s" % (
            c.tcwd, c.run_cmd, out, c.exit, r.choice(["Not auto-run", "Auto-run", "Always run"]))
    if v == 3:
        ts = int(c.epoch() * 1000)
        msgs = [{"ts": ts - r.randint(3000, 9000), "type": "say", "say": "text", "text": r.choice(["Let me run it to see what happens.", "I'll run the command to reproduce the error.", "Now let's run it."])},
                {"ts": ts - r.randint(100, 2000), "type": "ask", "ask": "command", "text": c.run_cmd},
                {"ts": ts + int(c.dur * 1000), "type": "ask", "ask": "command_output", "text": "\n" + out}]
        tr = "[execute_command for '%s'] Result:\nCommand executed in terminal within working directory '%s'. Exit code: %d\nOutput:\n%s" % (c.run_cmd, c.cwd, c.exit, out)
        if r.random() < 0.5:
            return "ui_messages.json (excerpt):\n" + "\n".join(json.dumps(m, ensure_ascii=False) for m in msgs)
        return "<tool_result>\n%s\n</tool_result>" % tr
    if v == 4:
        lines = c.e.lines
        n = r.randint(6, 12)
        if len(lines) > n + 2:
            shown = lines[-n:] if c.e.h >= len(lines) - n else lines[max(0, c.e.h - 2):c.e.h - 2 + n]
            return "⏵ Terminal  %s\n%s\n  Show more (%d lines)\n%s\nExit code %d" % (
                c.run_cmd, "", len(lines) - len(shown), "\n".join(shown), c.exit)
        return "⏵ Terminal  %s\n\n%s\nExit code %d" % (c.run_cmd, out, c.exit)
    return ("<function_calls>\n<invoke name=\"run_terminal_cmd\">\n<parameter name=\"command\">%s</parameter>\n"
            "<parameter name=\"is_background\">false</parameter>\n</invoke>\n</function_calls>\n<function_results>\n"
            "<terminal_output>\n%s\n</terminal_output>\nexit_code: %d\n</function_results>" % (c.run_cmd, out, c.exit))


# ==========================================================================
# 14. open_interpreter_run (Claude Code / Codex / Open Interpreter / Gemini)
# ==========================================================================

def box(lines, width):
    inner = width - 4
    out = ["╭" + "─" * (width - 2) + "╮"]
    for l in lines:
        l = l.expandtabs(8).rstrip()
        rows = textwrap.wrap(l, inner, drop_whitespace=True, break_on_hyphens=False) if l.strip() else [""]
        if l[:1] == " " and rows:
            lead = len(l) - len(l.lstrip(" "))
            rows = [rows[0]] + [(" " * lead + x)[:inner] if len(x) + lead <= inner else x for x in rows[1:]]
        for row in rows:
            out.append("│ " + row.ljust(inner) + " │")
    out.append("╰" + "─" * (width - 2) + "╯")
    return out


def s_cli_agent(c, r):
    lines = c.e.lines
    n = len(lines)
    v = r.randrange(5)
    if v == 0:
        k = r.choice([3, 4, 5])
        shown = lines[:k]
        rest = n - k
        body = ["⏺ Bash(%s)" % c.run_cmd, "  ⎿  %s%s" % ("Error: " if c.exit else "", shown[0])]
        body += ["     " + l for l in shown[1:]]
        if rest > 0:
            body.append("     … +%d %s (ctrl+r to expand)" % (rest, "line" if rest == 1 else "lines"))
        body += ["", "⏺ " + model_reads(c, r)]
        return "\n".join(body)
    if v == 1:
        k = 2
        if n > 6:
            mid = ["    " + l for l in lines[:k]] + ["    … +%d lines" % (n - 2 * k)] + ["    " + l for l in lines[-k:]]
        else:
            mid = ["    " + l for l in lines]
        mid[0] = "  └ " + mid[0][4:]
        return "\n".join(["• Ran %s" % c.run_cmd] + mid + ["", "• " + model_reads(c, r)])
    if v == 2:
        k = r.choice([8, 10, 12])
        shown = lines if n <= k + 2 else lines[:k]
        more = "" if n <= k + 2 else "\n... (%d more lines)" % (n - k)
        return "command\n\n$ %s\n\ncommand.stdout (code: %d, duration: %s)\n\n%s%s\n\ncodex\n%s" % (
            c.run_cmd, c.exit, fmt_dur(c.dur, "short"), "\n".join(shown), more, model_reads(c, r))
    if v == 3:
        return "\n".join(["▌ Model set to %s" % r.choice(["gpt-4o", "gpt-4-turbo", "claude-3-5-sonnet-20240620"]), "",
                          "> " + r.choice(["why does it fail", "run it", "check what's wrong with this project"]), "",
                          "  " + r.choice(["Let's run the command and look at the output.", "I'll run it first to see the error."]), "",
                          "  " + c.run_cmd, "",
                          "  Would you like to run this code? (y/n)", "", "  y", ""]
                         + ["  " + l for l in lines] + ["", "  " + model_reads(c, r)])
    width = r.choice([90, 100, 110])
    title = "%s  Shell %s%s" % ("✔" if c.exit == 0 else "x", c.run_cmd, r.choice(["", " (Run the command to reproduce the error)", " (Check the build)"]))
    return "\n".join(box([title, ""] + lines, width) + ["", "✦ " + model_reads(c, r)])


# ==========================================================================
# 15. activity_digest_email
# ==========================================================================

DIGEST_TOOLS = [("Daylog", "digest@daylog.app"), ("Tallyhour", "noreply@tallyhour.io"), ("Focusboard", "summary@focusboard.co"),
                ("Chronicle", "daily@chronicle-app.com"), ("Timewise", "hello@timewise.app")]


def digest_excerpt(c, r, maxl):
    lines = c.e.lines
    keep = list(c.e.block)
    return cut_lines(lines, keep, maxl, lambda k: "  … %d more line%s …" % (k, "" if k == 1 else "s"))


def s_digest(c, r):
    tool, addr = r.choice(DIGEST_TOOLS)
    day = c.dt
    total = r.randint(180, 560)
    apps = [("Visual Studio Code", r.randint(40, 200)), ("Terminal", r.randint(15, 120)), ("Firefox", r.randint(10, 100)),
            ("Slack", r.randint(5, 60)), ("Chrome", r.randint(5, 90))]
    r.shuffle(apps)
    apps = sorted(apps[:3], key=lambda x: -x[1])
    fmt_hm = lambda m: "%dh %02dm" % (m // 60, m % 60) if m >= 60 else "%dm" % m
    exc = digest_excerpt(c, r, r.choice([6, 8, 10, 14]))
    nfail = r.randint(1, 9)
    when = c.end_dt().strftime("%H:%M")
    subj = r.choice(["Your %s in review" % day.strftime("%A"), "%s — %s tracked" % (day.strftime("%a %b %-d"), fmt_hm(total)),
                     "Daily summary for %s" % day.strftime("%B %-d")])
    v = r.randrange(4)
    if v in (0, 3):
        body = ["YOUR DAY AT A GLANCE", "Total tracked: %s · Focus time: %s · Context switches: %d" % (fmt_hm(total), fmt_hm(r.randint(60, total)), r.randint(20, 140)), "",
                "TOP APPLICATIONS"]
        body += ["  %d. %s %s %s" % (i + 1, a, "." * (24 - len(a)), fmt_hm(m)) for i, (a, m) in enumerate(apps)]
        body += ["", "TERMINAL", "  Commands run: %d · Failed: %d" % (r.randint(nfail + 5, 160), nfail), "",
                 "  Last error (%s, %s)" % (when, c.tcwd), "  $ " + c.run_cmd]
        body += ["  > " + l if l.strip() else "  >" for l in exc]
        body += ["", "See the full timeline: https://app.%s/day/%s" % (addr.split("@")[1], day.strftime("%Y-%m-%d")), "",
                 "You're receiving this because daily digests are on. Manage e-mail preferences in Settings."]
        text = "\n".join(body)
        headers = "From: %s <%s>\nTo: %s@%s.local\nSubject: %s\nDate: %s" % (
            tool, addr, c.user, c.host, subj, (day.replace(hour=18, minute=r.randint(0, 59)) if day.hour < 18 else day + _dt.timedelta(minutes=r.randint(20, 90))).strftime("%a, %d %b %Y %H:%M:%S ") + "%+03d00" % c.tz[0])
        if v == 3:
            qp = quopri.encodestring(text.encode("utf-8")).decode("ascii")
            return "%s\nMIME-Version: 1.0\nContent-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n\n%s" % (headers, qp)
        return headers + "\n\n" + text
    if v == 1:
        body = ["# %s" % subj, "", "## Time", "- Tracked: **%s**" % fmt_hm(total)] + ["- %s: %s" % (a, fmt_hm(m)) for a, m in apps]
        body += ["", "## Last terminal error", "%s in `%s`" % (when, c.tcwd), "", "```", "$ " + c.run_cmd] + exc + ["```", "",
                 "## Tomorrow", "- %d unfinished tasks carried over" % r.randint(0, 6), "", "— %s" % tool]
        return "\n".join(body)
    # HTML-to-text rendering with link references
    body = ["%s [1]" % tool, "", subj.upper(), "", "Productive time  %s" % fmt_hm(r.randint(60, total)),
            "Most used  %s" % apps[0][0], "", "LAST COMMAND THAT FAILED", "", "Time: %s   Folder: %s" % (when, c.tcwd),
            "Command: %s" % c.run_cmd, "Exit code: %d" % c.exit, "", "Output:"] + ["    " + l for l in exc]
    body += ["", "View in app [2]   ·   Unsubscribe [3]", "", "[1] https://%s/" % addr.split("@")[1],
             "[2] https://%s/r/%s" % (addr.split("@")[1], "%x" % r.getrandbits(40)), "[3] https://%s/u/%s" % (addr.split("@")[1], "%x" % r.getrandbits(40))]
    return "\n".join(body)


# ==========================================================================
# 16. pair_agent_handover
# ==========================================================================

def first_last(c, r):
    lines = c.e.lines
    if len(lines) <= 6:
        return lines
    k = r.choice([2, 3])
    out = lines[:k] + ["[... %d lines omitted ...]" % (len(lines) - 2 * k)] + lines[-k:]
    if c.e.h >= k and c.e.h < len(lines) - k:
        out = lines[:k] + ["[...]"] + c.e.block_lines() + ["[...]"] + lines[-k:]
    return out


def s_handover(c, r):
    hyp = hypothesis(c, r)
    a, b = r.choice([("agent-a", "agent-b"), ("planner", "debugger"), ("coder", "reviewer"), ("setup-agent", "fix-agent"), ("claude", "codex")])
    verbatim = r.random() < 0.65
    err_lines = c.e.lines if verbatim else first_last(c, r)
    task = r.choice(["get the project running locally", "make the build pass", "finish the setup", "reproduce the reported failure",
                     "run the app and verify the last change"])
    v = r.randrange(5)
    if v in (0, 1):
        md = ["# Handover: %s → %s" % (a, b), "", "## Current state",
              "- Task: %s" % task, "- Working dir: `%s` (host `%s`)" % (c.cwd, c.host),
              "- Branch: `%s`" % c.branch, "", "Last command:", "```", c.run_cmd, "```",
              "Exit code: %d" % c.exit, "", "Observed error (%s):" % ("verbatim" if verbatim else "first/last lines"), "```"] + err_lines + ["```", "",
              "Hypothesis: %s" % hyp, "", "## Next steps", "- " + r.choice(["confirm the hypothesis before editing anything", "fix and re-run the same command", "check the environment first"])]
        if v == 1:
            md = md[:2] + ["## Current state", "Was asked to %s. Stopped at the first failure." % task] + md[md.index("Last command:"):]
        return "\n".join(md)
    if v == 2:
        y = ["handover:", "  from: %s" % a, "  to: %s" % b, "  task: %s" % task, "  cwd: %s" % c.cwd,
             "  last_command: %s" % json_str(c.run_cmd, False), "  exit_code: %d" % c.exit,
             "  observed_error: |"] + ["    " + l if l else "" for l in err_lines] + ["  hypothesis: %s" % json_str(hyp)]
        return "\n".join(y)
    if v == 3:
        obj = {"handoff_to": b, "from": a, "state": {"task": task, "cwd": c.cwd, "last_command": c.run_cmd, "exit_code": c.exit},
               "observed_error": "\n".join(err_lines), "hypothesis": hyp}
        return json.dumps(obj, ensure_ascii=r.random() < 0.4, indent=2)
    return "\n".join(["<handoff from=\"%s\" to=\"%s\">" % (a, b), "<current_state>%s; cwd %s</current_state>" % (task, c.cwd),
                      "<last_command>%s</last_command>" % c.run_cmd, "<observed_error verbatim=\"%s\">" % ("true" if verbatim else "false")]
                     + err_lines + ["</observed_error>", "<hypothesis>%s</hypothesis>" % hyp, "</handoff>"])


STYLE_FUNCS = {
    "proactivebench_variant": s_proactivebench,
    "osworld_trajectory": s_osworld,
    "mind2web_action_repr": s_mind2web,
    "recall_snapshot_search": s_recall,
    "clipboard_manager_item": s_clipboard,
    "osc133_shell_integration": s_osc133,
    "fancy_prompt_zsh_fish": s_fancy,
    "notebook_shell_magic": s_notebook,
    "atuin_history_record": s_atuin,
    "auditd_execsnoop_trace": s_trace,
    "aider_session_log": s_aider,
    "copilot_terminal_chat": s_copilot,
    "cursor_agent_tool_call": s_cursor,
    "open_interpreter_run": s_cli_agent,
    "activity_digest_email": s_digest,
    "pair_agent_handover": s_handover,
}


def deal(n_cases):
    rng = random.Random(DECK_SEED)
    cards = []
    while len(cards) < 2 * n_cases:
        deck = list(STYLES)
        rng.shuffle(deck)
        cards.extend(deck)
    return [(cards[2 * i], cards[2 * i + 1]) for i in range(n_cases)]


def main():
    cases = load_cases()
    pairs = deal(len(cases))
    rows = []
    for (fname, idx, error, command), pair in zip(cases, pairs):
        assert pair[0] != pair[1]
        for slot, style in enumerate(pair):
            rng = random.Random("%s|%d|%d|%s" % (fname, idx, slot, style))
            ctx = Ctx(fname, idx, error, command, rng)
            text = STYLE_FUNCS[style](ctx, rng)
            rows.append({"file": fname, "case": idx, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print("wrote %d rows to %s" % (len(rows), OUT))


if __name__ == "__main__":
    main()
