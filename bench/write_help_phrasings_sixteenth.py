#!/usr/bin/env python3
# ruff: noqa: E741, UP031  (a generated-data script kept as its blind writer wrote it)
"""Write bench/help_phrasings_sixteenth.jsonl: two observation texts per help case.

Every ``[[case]]`` table of ``bench/help_cases/*.toml`` (files sorted by name)
and then of ``bench/help_heldout/set*.toml`` (files sorted by name) gets exactly
two rows, in case order, written in two different styles.  Each text is an
observation of somebody hitting that case's error (after running, or trying
to run, the case's ``command`` when it has one), rendered the way the medium
of its style really renders such a thing.

Styles (sixteen):

  llm_activity_summary        an AI screen-activity summarizer's past-tense
                              paragraph, bullets or timeline quoting the error.
  think_aloud_protocol        a usability-study transcript ([00:03:12] P4: ...),
                              the participant reading bits of the error aloud,
                              observer notes in brackets quoting the screen.
  benchmark_observation       third-person present-tense observation sentences
                              of a proactive-assistant benchmark naming the
                              application and what the screen shows.
  tutor_feedback              a teaching assistant's forum reply or graded
                              submission comment quoting command and error.
  til_blog_post               the opening of a "Today I learned" / dev blog
                              post: context, command, error, cut before the fix.
  so_comment                  a Stack Overflow comment: one line, at most 600
                              characters, inline backticks, @user replies.
  rubber_duck_monologue       lowercase first-person stream of consciousness
                              with the error pasted in the middle and re-typed.
  pair_programming_transcript two people pairing on a call; one reads the
                              command and parts of the error, the other pastes
                              the output into the call's chat.
  support_chat_transcript     a live-chat export (Zendesk, Intercom, LiveChat
                              style) with system lines and a pasted error.
  vlm_frame_captions          a vision-language model's per-frame captions of
                              a screen recording, quoting readable text.
  sticky_note_terse           terse notes with arrows and abbreviations.
  changelog_entry             CHANGELOG / release-note / commit-body / Debian
                              changelog / NEWS lines about the fixed failure.
  student_email               a formal email to a professor, TA or lab admin
                              with the command and the error pasted.
  translated_ticket           a helpdesk ticket machine-translated into English
                              that keeps its language's quotation marks
                              (« », „ “, 「 」, ‹ ›, ¿ ?) around verbatim text.
  agent_memory_note           an autonomous coding agent's memory/scratchpad
                              entries (bracketed log lines, JSON lines,
                              Markdown, YAML, ReAct traces).
  mobile_autocorrect          typed on a phone: smart quotes, autocorrected
                              words, em dashes, ellipses, lost line breaks,
                              re-typed lines with small slips.

Output: one JSON object per line,
  {"file": "<toml base name>", "case": <0-based index>, "style": "<style>",
   "text": "<observation>"}
1362 rows (681 cases x 2), in case order.

Determinism: styles are dealt two cards per case from successive shuffles of
the 16-style deck (random.Random with a fixed seed), so per-style counts differ
by at most one and the two rows of a case always differ in style.  Each row's
details (names, times, hosts, wording, layout, cuts) come from its own
random.Random seeded with "<file>|<case>|<slot>|<style>".  Rerunning the script
gives byte-identical output.  Only the standard library is used.

Blind writing: the only project inputs read were the ``error`` and ``command``
keys of the ``[[case]]`` tables in bench/help_cases/*.toml and
bench/help_heldout/set*.toml (loaded with tomllib), and, for tone only, one
ProactiveBench session file (code_11.json) in
/work/shared/data/proactivebench/sessions/.  No other file of the project was
opened (no code, tests, docs, other bench files or phrasing sets, no git
history), no project code or benchmark was run, and nothing about how the set
is read or scored was consulted.  Real-world formats were written from general
knowledge of those media.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import random
import re
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "help_phrasings_sixteenth.jsonl"

STYLES = [
    "llm_activity_summary",
    "think_aloud_protocol",
    "benchmark_observation",
    "tutor_feedback",
    "til_blog_post",
    "so_comment",
    "rubber_duck_monologue",
    "pair_programming_transcript",
    "support_chat_transcript",
    "vlm_frame_captions",
    "sticky_note_terse",
    "changelog_entry",
    "student_email",
    "translated_ticket",
    "agent_memory_note",
    "mobile_autocorrect",
]
DECK_SEED = "help-phrasings-sixteenth/decks/v1"


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

def load_cases():
    files = sorted((HERE / "help_cases").glob("*.toml"), key=lambda p: p.name)
    files += sorted((HERE / "help_heldout").glob("set*.toml"), key=lambda p: p.name)
    cases = []
    for path in files:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for idx, table in enumerate(data.get("case", [])):
            cases.append((path.name, idx, table.get("command"), table["error"]))
    return cases


# --------------------------------------------------------------------------
# Reading an error: which lines a person would quote
# --------------------------------------------------------------------------

DECOR = re.compile(r"^[\s^~|+\-=*@#.>:_`─╰╭│]*$")
NOISE = [re.compile(p) for p in [
    r"^at\s",
    r"^Traceback \(most recent call last\):",
    r"^Node\.js v\d",
    r"^exit status \d+$",
    r"^\d+ (errors?|warnings?)$",
    r"^compilation terminated\.$",
    r"^For more information about this error",
    r"A complete log of this run can be found in",
    r"^npm (ERR!|error)\s+/\S+\.(log|txt)$",
    r"^Run '.*--help' for more information",
    r"^See '.*--help'\.?$",
    r"^\[ERROR\] -> \[Help 1\]",
    r"^\[ERROR\] \[Help 1\]",
    r"^\[ERROR\] Re-run Maven",
    r"^\[ERROR\] To see the full stack trace",
    r"^\[ERROR\] For more information about the errors",
    r"^\[ERROR\]\s*$",
    r"^\[INFO\]",
    r"^goroutine \d+ \[",
    r"^note: run with `RUST_BACKTRACE",
    r"^\(Use `node --trace-warnings",
    r"^npm (ERR!|error)( 404)?\s*$",
    r"^Call Stack \(most recent call first\)",
    r"^-- (The |Detecting|Check|Configuring done|Looking|Performing)",
    r"^Reading (package lists|state information)",
    r"^Building dependency tree",
    r"^hint: See the 'Note about",
    r"^Aborting$",
    r"^\[Previous line repeated",
    r"^throw err;$",
    r"^triggerUncaughtException\($",
    r"^\}$",
    r"^# [\w./\[\]-]+$",
]]
JOURNAL = re.compile(r"^[A-Z][a-z]{2} +\d+ \d\d:\d\d:\d\d \S+ [^:\s]+?(\[\d+\])?: ")
PREFIX = re.compile(
    r"^(npm (ERR!|error|WARN|warn)|remote:|hint:|\[ERROR\]|\[WARNING\]|warning:"
    r"|#\d+ \d+\.\d+|E\d{4} [\d:.]+\s+\d+ \S+\])\s*")
CODEY = re.compile(r"[{};]\s*$|^(for|if|while|return|import|from|def|class|public|private|let|const|var|print)\b|\w\(.*\)$")
EXC = re.compile(r"^([A-Za-z_][\w$]*\.)*[A-Za-z_]*(Error|Exception)\b")
WEIGHTS = [(re.compile(p), w) for p, w in [
    (r"^([A-Za-z_][\w$]*\.)*[A-Za-z_]*(Error|Exception)\b(\s*\[\w+\])?(:|$)", 10),
    (r"^Exception in thread", 10),
    (r"^Caused by: ", 5),
    (r"\[emerg\]|\[crit\]", 8),
    (r"No module named", 5),
    (r"^\.?/?[\w./-]+\.go:\d+:\d+: ", 4),
    (r"error:[0-9A-F]{8}:", 4),
    (r"is missing|Refusing\.|not absolute|does not contain", 3),
    (r"A problem occurred", 2),
    (r"^FAILURE: Build failed|^Oops! Something went wrong", -2),
    (r"^\w+\.\w+Error: ", 2),
    (r"error\[E\d+\]", 10),
    (r"error TS\d+", 10),
    (r"^ERROR \d+ \(", 10),
    (r"fatal error:", 9),
    (r"\bFATAL:", 9),
    (r"^fatal:", 8),
    (r"^E: ", 8),
    (r"^panic:", 9),
    (r"^error:", 6),
    (r"^ERROR:", 7),
    (r": error:", 7),
    (r": error ", 3),
    (r"^curl: \(\d+\)", 6),
    (r"SSL certificate problem", 4),
    (r"CMake Error", 5),
    (r"Could NOT find", 5),
    (r"Error from server", 9),
    (r"Error response from daemon", 9),
    (r"^code E", 3),
    (r"Could not resolve dependency", 4),
    (r"^peer ", 3),
    (r"\[rejected\]", 6),
    (r"^CONFLICT", 5),
    (r"undefined reference", 5),
    (r"command not found", 3),
    (r"denied", 4),
    (r"not found", 4),
    (r"No such file", 4),
    (r"[Cc]annot|can't|[Cc]ould not|[Cc]ouldn't|[Uu]nable", 3),
    (r"[Ff]ailed|failure", 3),
    (r"refused", 4),
    (r"[Ii]nvalid", 3),
    (r"undefined", 3),
    (r"does not exist|doesn't exist", 4),
    (r"[Mm]issing", 2),
    (r"not allowed|not supported|no longer supported|unsupported", 3),
    (r"[Uu]nknown", 3),
    (r"[Cc]onflict|CONFLICT", 4),
    (r"rejected", 3),
    (r"Did you mean", 2),
    (r"expected", 2),
    (r"mismatch", 2),
    (r"[Ee]rror", 3),
    (r"WARNING|[Ww]arning", 1),
    (r"behind", 3),
    (r"detached HEAD", 5),
    (r"leaving \d+ commits? behind", 5),
    (r"OOMKilled|CrashLoopBackOff|FailedScheduling|ErrImagePull|ImagePullBackOff", 6),
    (r"unauthorized", 3),
    (r"verify error|verification failed|expired", 4),
    (r"too open|bad permissions|CHANGED", 4),
    (r"status=\d+/\w+", 4),
    (r"[Ee]vent not found", 4),
    (r"masked|Interactive authentication", 3),
    (r"no upstream|unrelated histories|divergent|Author identity unknown|dubious", 4),
    (r"is a directory|Is a directory|omitting directory", 4),
    (r"No space left", 4),
    (r"[Pp]ermission", 2),
    (r"already (exists|in use|allocated)", 4),
    (r"deadlock|out of memory|OutOfMemory|heap", 3),
    (r"timed out|timeout", 2),
    (r"Failed with result", -4),
    (r"could not compile `", -4),
    (r"^make(\[\d+\])?: \*\*\* \[", -3),
    (r"^gmake", -3),
    (r"ld returned \d+ exit status", -5),
    (r"failed to push some refs", -5),
    (r"^\d+\s*[|+-]\s", -1),
    (r"^E\d{4} ", -8),
    (r"^The connection to the server|^Unable to connect to the server", 5),
    (r"^--> |^ --> ", -1),
    (r"^Warning: The unit file", 2),
    (r"subprocess-exited-with-error|This error originates from a subprocess"
     r"|not a problem with pip|an issue with the package mentioned above", -6),
    (r"^See (also )?\"", -3),
    (r"Could not build wheels|Failed to build", 2),
]]


def _core(s):
    c = JOURNAL.sub("", s)
    return PREFIX.sub("", c).strip()


def _score(raw):
    s = raw.strip()
    if not s or DECOR.match(s):
        return None
    if any(rx.search(s) for rx in NOISE):
        return None
    c = _core(s)
    if not c or DECOR.match(c) or any(rx.search(c) for rx in NOISE):
        return None
    sc = 1.0
    for rx, w in WEIGHTS:
        if rx.search(c):
            sc += w
    if len(c) < 6:
        sc -= 1
    if re.match(r"^E\d{4} ", s):
        sc -= 6
    return sc


class Err:
    """The error text plus the lines a reader would pick out of it."""

    def __init__(self, text):
        self.raw = text.rstrip("\n")
        self.lines = self.raw.split("\n")
        scored = []
        for i, line in enumerate(self.lines):
            s = _score(line)
            if s is None:
                continue
            c = _core(line.strip())
            s += 0.001 * i if EXC.match(c) else -0.001 * i
            scored.append((s, i))
        scored.sort(reverse=True)
        if not scored:
            scored = [(1.0, i) for i, l in enumerate(self.lines) if l.strip()] or [(1.0, 0)]
        self.scored = scored
        self.best = scored[0][0]
        self.meaningful = sorted(i for _, i in scored)
        self.head_i = scored[0][1]
        self.head_span = self._span(self.head_i)
        self.head = " ".join(self.lines[j].strip() for j in self.head_span)
        self.head_line = self.lines[self.head_i].strip()
        t = JOURNAL.sub("", self.head)
        t = re.sub(r"^(Warning|Normal)\s+\w+\s+\S+(\s+\(x\d+ over \S+\))?\s+\S+\s+", "", t)
        self.head_title = " ".join(PREFIX.sub("", t).split()) or self.head
        thr = max(4.0, 0.35 * self.best)
        det = [i for sc_, i in scored if i not in self.head_span and sc_ >= thr]
        self.detail_i = det[0] if det else None
        self.detail = self.lines[det[0]].strip() if det else ""
        self.first = self.lines[self.meaningful[0]].strip()
        self.last = self.lines[self.meaningful[-1]].strip()
        nonblank = [l.strip() for l in self.lines if l.strip()] or [""]
        self.first_raw, self.last_raw = nonblank[0], nonblank[-1]
        self.n = len(self.lines)
        self.short = len(self.raw) <= 260 and len(self.meaningful) <= 3

    @staticmethod
    def _separate(nxt):
        """True when a line is its own message rather than the wrapped rest of one."""
        return bool(not nxt or DECOR.match(nxt) or any(rx.search(nxt) for rx in NOISE)
                    or PREFIX.match(nxt) or JOURNAL.match(nxt)
                    or re.match(r"^[\w./@+\[\]-]+( \w+)?:", nxt)
                    or re.match(r"^(error|warning|info|note)\b", nxt)
                    or re.search(r"\S\s{3,}\S", nxt) or CODEY.search(nxt))

    def _span(self, i):
        span = [i]
        j = i
        if EXC.match(_core(self.lines[i].strip())):
            while len(span) < 5 and j + 1 < len(self.lines):
                nxt = self.lines[j + 1].strip()
                if (not nxt or not nxt[0].islower() or nxt.startswith(("at ", "File "))
                        or (self._separate(nxt) and not nxt.startswith("in \""))):
                    break
                span.append(j + 1)
                j += 1
            if len(span) > 1:
                return span
        while len(span) < 3 and j + 1 < len(self.lines):
            cur = self.lines[j].rstrip()
            nxt_raw = self.lines[j + 1]
            nxt = nxt_raw.strip()
            if self._separate(nxt):
                break
            cont = False
            if cur.endswith(","):
                cont = True
            elif (not cur.endswith((".", "!", "?", ":", ";", ")", "]")) and nxt[0].islower()
                  and len(cur.strip()) >= 55):
                cont = True
            elif cur.endswith(":") and j == i and nxt_raw[:1] in (" ", "\t") and len(span) == 1:
                cont = True
            if not cont:
                break
            span.append(j + 1)
            j += 1
        return span

    def key_idx(self, k):
        out = []
        for _, i in self.scored:
            if i in out:
                continue
            out.append(i)
            if len(out) >= k:
                break
        return sorted(out)

    def key_lines(self, k, thresh=None):
        """Up to k most telling lines, in printed order (head span joined)."""
        idx = self.key_idx(k)
        if thresh is not None:
            sc = {i: s for s, i in self.scored}
            idx = [i for i in idx if i == self.head_i or sc.get(i, 0) >= thresh]
        res, seen = [], set()
        for i in idx:
            if i in seen:
                continue
            if i == self.head_i:
                res.append(self.head)
                seen.update(self.head_span)
            elif i in self.head_span:
                continue
            else:
                res.append(self.lines[i].strip())
                seen.add(i)
        return res

    def squash(self):
        return " ".join(self.raw.split())

    def exit_code(self, cmd):
        t = self.raw
        c = cmd or ""
        if "command not found" in t or "required file not found" in t:
            return 127
        if re.search(r"^(bash|zsh|sh): \./\S+: (Permission denied|/bin/\w+\^M: bad interpreter)", t, re.M):
            return 126
        m = re.search(r"^curl: \((\d+)\)", t, re.M)
        if m:
            return int(m.group(1))
        if re.search(r"\*\*\* .*(Error \d+|Stop\.)", t):
            return 2
        if c.startswith(("cargo ",)):
            return 101
        if c.startswith(("ssh ", "scp ")) and "Permission denied (publickey" in t:
            return 255
        if c.startswith(("git ",)) and re.search(r"^fatal:", t, re.M):
            return 128
        if re.search(r"^E: ", t, re.M):
            return 100
        if c.startswith("docker run") and "Error response from daemon" in t:
            return 125
        if "not found." in t and "Unit " in t:
            return 5
        if c.startswith("psql") and "psql: error: connection" in t:
            return 2
        if self.best < 3.5:
            return 0
        return 1


# --------------------------------------------------------------------------
# Small text helpers
# --------------------------------------------------------------------------

FIRST = ["Ana", "Ben", "Chloé", "Dmitri", "Esra", "Farah", "Gabriel", "Hana", "Ivan", "Jonas",
         "Kemal", "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tomás",
         "Uma", "Viktor", "Wen", "Ximena", "Yusuf", "Zoe", "Aylin", "Bruno", "Carmen", "Daniel",
         "Elif", "Felix", "Greta", "Hiro", "Ines", "Jamal", "Kira", "Luca", "Maya", "Noah",
         "Olga", "Pablo", "Rahul", "Sara", "Tariq", "Valentina", "Will", "Yara", "Malik", "Sofia",
         "Arjun", "Beatriz", "Connor", "Dalia", "Emeka", "Freya", "Ji-woo", "Kofi", "Leila", "Marco"]
LAST = ["Novak", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Schmidt", "Haddad", "Kowalski",
        "Ferreira", "Nguyen", "Petrov", "Rossi", "Andersen", "Yilmaz", "García", "Müller", "Chen",
        "O'Brien", "Kaur", "Dubois", "Sato", "Jensen", "Costa", "Ivanova", "Brennan", "Mensah",
        "Virtanen", "Abara", "Horvat", "Reyes", "Takahashi", "Fischer", "Walsh", "Banerjee",
        "Eriksson", "Mazur", "Silva", "Hughes", "Demir", "Lambert"]
HOSTS = ["laptop", "thinkpad", "devbox", "xps13", "ubuntu-vm", "ws-07", "framework", "nuc",
         "desktop", "lab-pc14", "t480", "dev-vm", "pop-os", "fedora", "workstation", "mbp-linux"]
PROJECTS = ["app", "api", "site", "tools", "backend", "homework", "lab3", "side-project", "shop",
            "notes", "dashboard", "scripts", "infra", "thesis-code", "bot", "webapp"]
TERMINALS = ["GNOME Terminal", "the VS Code integrated terminal", "Konsole", "kitty", "Terminator",
             "Windows Terminal (Ubuntu WSL tab)", "a tmux pane in GNOME Terminal", "Alacritty",
             "Tilix", "the terminal"]
EDITORS = ["VS Code", "VS Code", "Neovim", "Sublime Text", "VS Codium", "Kate", "Emacs", "Vim"]
IDES = [(re.compile(r"^(python|pip|pyhton)|\.py\b"), "PyCharm"), (re.compile(r"^go\b|\.go\b"), "GoLand"),
        (re.compile(r"^(cargo|rustc)\b|\.rs\b"), "RustRover"),
        (re.compile(r"^(java|javac|mvn|gradle|\./gradlew)\b|\.java\b"), "IntelliJ IDEA"),
        (re.compile(r"^(gcc|g\+\+|make|cmake)\b|\.(c|cpp)\b"), "CLion")]


def pick(rng, seq):
    return seq[rng.randrange(len(seq))]


def person(rng):
    return pick(rng, FIRST), pick(rng, LAST)


def bt(s):
    """Inline Markdown code, doubling the fence when the text holds backticks."""
    if "`" in s:
        return "`` " + s + " ``"
    return "`" + s + "`"


def fence(s, lang=""):
    f = "~~~" if "```" in s else "```"
    return f + lang + "\n" + s + "\n" + f


def indent(s, n=4, ch=" "):
    pad = ch * n
    return "\n".join(pad + l if l.strip() else l for l in s.split("\n"))


def cut(s, n, ell="..."):
    if len(s) <= n:
        return s
    c = s[: n - len(ell)]
    if " " in c[n // 2:]:
        c = c[: c.rfind(" ")]
    return c.rstrip(" ,;:") + ell


def endp(s):
    """End a sentence after quoted text without doubling its own full stop."""
    s = s.rstrip()
    return s if s.endswith((".", "!", "?", ".\"", ".'", ".”", ".»", ".`")) else s + "."


def art(word):
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def cap(s):
    return s[:1].upper() + s[1:] if s else s


def hhmm(rng, lo=8, hi=22):
    return rng.randint(lo, hi), rng.randint(0, 59)


def tstr(h, m, s=None):
    if s is None:
        return "%02d:%02d" % (h, m)
    return "%02d:%02d:%02d" % (h, m, s)


def add_min(h, m, d):
    t = h * 60 + m + d
    return (t // 60) % 24, t % 60


def rdate(rng):
    base = _dt.date(2024, 1, 8)
    return base + _dt.timedelta(days=rng.randint(0, 700))


def smart_quotes(s):
    out = []
    for i, ch in enumerate(s):
        prev = s[i - 1] if i else " "
        if ch == '"':
            out.append("“" if prev in " \t\n([{—-/" else "”")
        elif ch == "'":
            if prev.isalnum():
                out.append("’")
            else:
                out.append("‘" if prev in " \t\n([{—-/" else "’")
        else:
            out.append(ch)
    return "".join(out)


def slip(rng, s, n=1):
    """Re-typing slips: swap, drop or double a letter inside longer plain words."""
    words = list(re.finditer(r"\b[a-z]{5,}\b", s))
    if not words:
        return s
    chosen = sorted(rng.sample(words, min(n, len(words))), key=lambda m: m.start(), reverse=True)
    for m in chosen:
        w = m.group(0)
        k = rng.randint(1, len(w) - 2)
        kind = rng.random()
        if kind < 0.4:
            w2 = w[:k] + w[k + 1] + w[k] + w[k + 2:]
        elif kind < 0.75:
            w2 = w[:k] + w[k + 1:]
        else:
            w2 = w[:k] + w[k] + w[k:]
        s = s[: m.start()] + w2 + s[m.end():]
    return s


def mojibake(s):
    table = {"‘": "â€˜", "’": "â€™", "“": "â€œ", "”": "â€\u009d", "—": "â€”", "…": "â€¦",
             "×": "Ã—", "é": "Ã©", "ü": "Ã¼", "ö": "Ã¶", "á": "Ã¡", "ç": "Ã§", "è": "Ã¨"}
    return "".join(table.get(ch, ch) for ch in s)


def wrap_email(s, width=76):
    """Hard-wrap long lines at spaces the way some mail clients do on send."""
    out = []
    for line in s.split("\n"):
        while len(line) > width:
            k = line.rfind(" ", 0, width)
            if k <= 10:
                k = line.find(" ", width)
                if k < 0:
                    break
            out.append(line[:k].rstrip())
            line = line[k:].lstrip(" ")
        out.append(line)
    return "\n".join(out)


# --------------------------------------------------------------------------
# Row context
# --------------------------------------------------------------------------

class Ctx:
    def __init__(self, rng, fname, idx, command, error):
        self.rng = rng
        self.fname = fname
        self.idx = idx
        self.E = Err(error)
        self.cmd_given = command
        m = re.search(r"/home/([a-z][\w.-]*)/", error)
        self.user = m.group(1) if m else pick(rng, ["dev", "ana", "sam", "kim", "alex", "student", "jo"])
        self.host = pick(rng, HOSTS)
        m = (re.search(r"/home/[\w.-]+/((?:projects|code|src|work)/[\w-][\w.-]*)", error)
             or re.search(r"/home/[\w.-]+/([\w-][\w.-]*)/", error))
        if m and m.group(1) not in ("projects", "code", "src", "work", "Downloads", "bin"):
            self.cwd = "~/" + m.group(1)
            self.proj = m.group(1).split("/")[-1]
        else:
            self.proj = pick(rng, PROJECTS)
            self.cwd = pick(rng, ["~/", "~/projects/", "~/src/", "~/code/"]) + self.proj
        self.shell = "zsh" if re.search(r"^zsh:", error, re.M) else "bash"
        self.term = pick(rng, TERMINALS)
        self.editor = pick(rng, EDITORS)
        for rx, ide in IDES:
            if rx.search(command or "") or (not command and rx.search(error)):
                if rng.random() < 0.4:
                    self.editor = ide
                break
        self.script = None
        m = re.search(r'File "([^"<>]+\.py)"', error)
        if m:
            self.script = m.group(1).rsplit("/", 1)[-1]
        if command:
            self.cmd = command
        elif self.script and rng.random() < 0.6:
            self.cmd = pick(rng, ["python3 ", "python3 ", "python ", "python3 "]) + self.script
        else:
            self.cmd = None
        self.code = self.E.exit_code(self.cmd)
        m = re.search(r"(?:^|[\s\"'(/])([\w-]+\.(?:py|js|mjs|ts|rs|go|java|c|cpp|hpp|h|rb|ya?ml|json|toml|sql|sh|conf))\b",
                      (command or "") + "\n" + error)
        self.srcfile = self.script or (m.group(1) if m else None)

    # --- how the command gets mentioned -------------------------------
    def run_np(self, code=True, q=None):
        """'ran `X`' style verb phrase, or a phrase for the no-command case."""
        if self.cmd:
            return "ran " + self.cq(code, q)
        where = pick(self.rng, ["with the Run button in " + self.editor, "from " + self.editor,
                                "by pressing F5 in " + self.editor, "from the editor"])
        what = self.cq(code, q, script=True)
        return "ran " + what + " " + where

    def cq(self, code=True, q=None, script=False):
        if script or not self.cmd:
            s = self.script or "the script"
            if not self.script:
                return s
            if q:
                return q[0] + s + q[1]
            return bt(s) if code else s
        if q:
            return q[0] + self.cmd + q[1]
        return bt(self.cmd) if code else self.cmd

    def prompt(self, style=None):
        rng = self.rng
        u, h, d = self.user, self.host, self.cwd
        if self.shell == "zsh":
            opts = [f"{u}@{h} {d} % ", f"➜  {self.proj} git:(main) ", "% ", "❯ "]
        else:
            opts = [f"{u}@{h}:{d}$ ", "$ ", f"{u}@{h}:{d}$ ", "$ ", f"[{u}@{h} {self.proj}]$ "]
            if (self.cmd or "").startswith(("python", "pip")) and rng.random() < 0.3:
                opts = [f"(.venv) {u}@{h}:{d}$ ", f"(venv) {u}@{h}:{d}$ "]
        return pick(rng, opts) if style is None else opts[style % len(opts)]

    def session(self, body, prompt=True):
        if not self.cmd:
            return body
        if prompt:
            return self.prompt() + self.cmd + "\n" + body
        return self.cmd + "\n" + body

    def trim(self, maxn=14, marker=None):
        E, rng = self.E, self.rng
        L = E.lines
        n = len(L)
        if n <= maxn:
            return E.raw
        if marker is None:
            marker = pick(rng, ["...", "[...]", "(...)", "<snip>", "…", "[... {k} lines ...]"])
        keep = set(range(min(2, n)))
        keep.update(E.head_span)
        keep.update(range(max(0, E.head_i - 2), E.head_i))
        keep.update(E.key_idx(3))
        if E.meaningful:
            keep.add(E.meaningful[-1])
        step = 1
        while len(keep) < maxn and step < n:
            for j in (E.head_span[-1] + step, E.head_i - 2 - step):
                if 0 <= j < n and len(keep) < maxn:
                    keep.add(j)
            step += 1
        out, prev = [], -1
        for i in sorted(keep):
            if i > prev + 1:
                out.append(marker.replace("{k}", str(i - prev - 1)))
            out.append(L[i])
            prev = i
        return "\n".join(out)

    def first_last(self, sep=None, with_head=True):
        E = self.E
        first, last = E.first_raw, E.last_raw
        parts = [first]
        if with_head and E.head not in (first, last) and E.head_line not in (first, last):
            parts.append(E.head)
        if last != first:
            parts.append(last)
        return parts

    def partial(self, k=2):
        return self.E.key_lines(k, thresh=max(4.0, 0.35 * self.E.best))


# --------------------------------------------------------------------------
# Style 1: llm_activity_summary
# --------------------------------------------------------------------------

BEFORE_ACTS = [
    "had been reading documentation in Firefox",
    "was editing source files in {editor}",
    "had a GitHub repository page open in Chrome",
    "was following a tutorial in a browser tab",
    "had been reviewing a README in {editor}",
    "was scrolling through a Slack channel",
    "was looking at a project board in the browser",
]
AFTER_ACTS = [
    "The user then selected the last lines of the output and copied them.",
    "Afterwards the user opened a new browser tab and searched for part of the message.",
    "The user scrolled back up through the output for about a minute without entering another command.",
    "The user re-ran the same command about a minute later and got the same output.",
    "No further commands were entered; the user switched to {editor}.",
    "The user then opened a chat window and pasted the output there.",
    "After this the screen stayed idle for several minutes.",
]


def s_llm_activity_summary(C):
    rng, E = C.rng, C.E
    h, m = hhmm(rng)
    d1 = rng.randint(1, 7)
    t0, t1 = tstr(h, m), tstr(*add_min(h, m, d1))
    tm = tstr(*add_min(h, m, rng.randint(0, d1)))
    before = pick(rng, BEFORE_ACTS).format(editor=C.editor)
    after = pick(rng, AFTER_ACTS).format(editor=C.editor)
    v = rng.randrange(6)
    if v == 0:
        block = C.trim(rng.choice([10, 14, 18]))
        intro = f"Between {t0} and {t1} the user worked in {C.term}"
        if rng.random() < 0.5:
            intro += f", in the {bt(C.cwd)} directory"
        subj = f"The command {C.cq()}" if C.cmd else f"Running {C.cq()} from {C.editor}"
        return (f"{intro}. {subj} failed with the following output:\n\n"
                f"{fence(block)}\n\n{after}")
    if v == 1:
        kl = C.partial(2)
        quoted = " and ".join('"' + k + '"' for k in kl)
        bullets = [f"- Before that, the user {before}.",
                   f"- At {tm} they switched to {C.term} and {C.run_np()}.",
                   f"- The command failed; the output included {quoted}.",
                   "- " + after]
        head = pick(rng, [f"**Activity summary ({t0}–{t1})**", f"Summary for {t0}–{t1}:",
                          f"### {t0} – {t1}"])
        return head + "\n\n" + "\n".join(bullets)
    if v == 2:
        fl = C.first_last()
        nlines = E.n
        body = (f"From {t0} to {t1}, the user was active in {C.term}. They {C.run_np()}, which printed "
                f"{nlines} line{'s' if nlines != 1 else ''} of output")
        if len(fl) == 1:
            body += f': "{fl[0]}".'
        elif len(fl) == 2:
            body += f' beginning with "{fl[0]}" and ending with "{fl[1]}".'
        else:
            body += (f' beginning with "{fl[0]}" and ending with "{fl[-1]}". The most relevant line '
                     f'appears to be "{fl[1]}".')
        return body + " " + after
    if v == 3:
        ql = C.E.key_lines(rng.choice([2, 3]))
        quote = "\n".join("> " + l for l in ql)
        ctx = pick(rng, ["", f" while working on {C.proj}", f" in {bt(C.cwd)}"])
        what = f"ran {C.cq()}{ctx}" if C.cmd else f"{C.run_np()}{ctx}"
        return (f"**{t0}–{t1} · Terminal**\n\nThe user {what}. It exited with an error:\n\n{quote}\n\n"
                f"**Status:** unresolved at the end of the interval. {after}")
    if v == 4:
        d = rdate(rng)
        title = pick(rng, [f"{C.user}@{C.host}: {C.cwd}", f"Terminal — {C.proj}", f"{C.proj} - {C.editor}",
                           f"{C.user}@{C.host}: ~"])
        cmdtxt = C.cmd if C.cmd else (C.script or "a script") + " (run from the editor)"
        return (f"{d.isoformat()} {t0} — {t1}\nApplication: {C.term.replace('the ', '')}\n"
                f"Window title: {title}\nSummary: The user ran {cmdtxt} in the terminal. "
                + endp(f"The output showed an error: {E.head}") + f" {after}")
    tm = tstr(*add_min(h, m, rng.randint(1, d1)))
    tb = tstr(*add_min(h, m, d1 + rng.randint(1, 3)))
    block = indent(C.trim(rng.choice([8, 12, 16])), 2)
    first = f"• {t0}: Edited {bt(C.srcfile) if C.srcfile else pick(rng, ['`README.md`', 'the README', '`.env`'])} in {C.editor}."
    if C.cmd:
        mid = f"• {tm}: Ran {C.cq()} in the integrated terminal; it failed with:\n\n  ```\n{block}\n  ```"
    else:
        mid = f"• {tm}: Ran the file from {C.editor}; the output panel showed:\n\n  ```\n{block}\n  ```"
    return f"Between {t0} and {tb}:\n\n{first}\n{mid}\n• {tb}: {after.replace('The user then ', 'The user ').replace('Afterwards the user ', 'The user ')}"


# --------------------------------------------------------------------------
# Style 2: think_aloud_protocol
# --------------------------------------------------------------------------

def spoken(rng, s, maxw=14):
    """A line read out loud: shortened, hesitant, punctuation softened."""
    words = s.split()
    if len(words) > maxw:
        words = words[:maxw]
        tail = " ... something"
    else:
        tail = ""
    if len(words) > 4 and rng.random() < 0.6:
        k = rng.randint(2, len(words) - 2)
        words[k] = words[k] + "..."
    return " ".join(words) + tail


def s_think_aloud_protocol(C):
    rng, E = C.rng, C.E
    pid = f"P{rng.randint(1, 14)}"
    base = rng.randint(300, 2400)

    def ts(off):
        t = base + off
        return "[%02d:%02d:%02d]" % (t // 3600, t // 60 % 60, t % 60)

    fac = pick(rng, ["F", "Facilitator", "Moderator", "M"])
    obs = pick(rng, ["Observer", "Obs", "Note", "Observer note"])
    cmd_said = C.cmd if C.cmd else None
    v = rng.randrange(5)
    lines = []
    if v == 0:
        if cmd_said:
            lines.append(f"{ts(0)} {pid}: okay so now I run {cmd_said}... enter.")
        else:
            lines.append(f"{ts(0)} {pid}: okay, I'll just hit run on {C.script or 'this'} and see.")
        blk = C.trim(rng.choice([8, 12]))
        lines.append(f"[{obs}: the terminal shows:\n{blk}]")
        lines.append(f"{ts(rng.randint(6, 12))} {pid}: uh. " + endp(f'"{spoken(rng, E.head)}"') + " hm.")
        lines.append(f"{ts(rng.randint(14, 20))} {fac}: What are you thinking right now?")
        lines.append(f"{ts(rng.randint(22, 30))} {pid}: " + pick(rng, [
            "I don't really know what that means. I'd probably google it.",
            "that it didn't work, I guess. I'm not sure which part is the important part.",
            "I'm looking for the line that says what's actually wrong.",
            "honestly I'd ask a colleague at this point."]))
    elif v == 1:
        src = pick(rng, ["the readme says", "the tutorial says", "the instructions say", "the task card says"])
        if cmd_said:
            lines.append(f"{ts(0)} {pid}: right, so {src} to run {cmd_said}, so I'll just copy that in.")
        else:
            lines.append(f"{ts(0)} {pid}: right, {src} to run the script, so... play button.")
        lines.append(f"{ts(rng.randint(5, 9))} {pid}: ... and that's an error. It says, um, " + endp(f'"{spoken(rng, E.head, 9)}"'))
        extra = ""
        if E.n > 3:
            extra = f" It is one of {E.n} lines of output; the first reads \"{E.first_raw}\"."
        lines.append(f"[{obs}: " + pick(rng, ["the error line on screen reads", "the line that stands out on screen is",
                                                 "on screen:"]) + f" \"{E.head}\"{'.' if extra else ''}{extra}]")
        lines.append(f"{ts(rng.randint(12, 18))} {pid}: " + pick(rng, [
            "so I guess it's not happy about something... I'd need to look that up.",
            "okay. I'd normally give up here and message someone.",
            "I think I did what it said? so I'm confused.",
            "I'm going to scroll up and see if there's more."]))
    elif v == 2:
        who = pick(rng, ["Speaker 1", "Participant " + pid[1:], pid])
        mod = pick(rng, ["Speaker 2", "Interviewer", "Facilitator"])
        t = base
        def ot(off):
            tt = t + off
            return "%d:%02d:%02d" % (tt // 3600, tt // 60 % 60, tt % 60)
        first_line = (f"So, the next step is to run {cmd_said}. Let me type that." if cmd_said
                      else "So, next step, I run the file.")
        lines.append(f"{who}  {ot(0)}\n{first_line}")
        lines.append(f"{mod}  {ot(rng.randint(8, 15))}\nWhat do you see?")
        kl = C.partial(2)
        said = " ... and then ".join(f"'{spoken(rng, k, 12)}'" for k in kl)
        lines.append(f"{who}  {ot(rng.randint(16, 25))}\n" + endp(f"It says {said}") + " I don't know.")
        lines.append(f"[{obs}: screen shows \"{kl[-1]}\"" + (f" under \"{kl[0]}\"" if len(kl) > 1 else "") + "]")
    elif v == 3:
        if cmd_said:
            lines.append(f"[{obs}: {pid} types `{cmd_said}` and presses Enter.]")
        lines.append(f"{ts(0)} {pid}: " + pick(rng, ["oh no. red. okay.", "hm. okay. that's not what I expected.",
                                                  "huh.", "okay... that doesn't look right."]))
        lines.append(f"{ts(rng.randint(3, 6))} {fac}: Could you read out what it says?")
        fl = C.first_last()
        if len(fl) >= 2:
            read = f"sure, it starts with \"{spoken(rng, fl[0], 10)}\" and then at the bottom \"{spoken(rng, fl[-1], 12)}\""
        else:
            read = f"sure. \"{spoken(rng, fl[0], 14)}\""
        lines.append(f"{ts(rng.randint(8, 14))} {pid}: " + endp(read))
        lines.append(f"[{obs}: exact text on screen: \"{E.head}\"]")
        lines.append(f"{ts(rng.randint(18, 26))} {pid}: so... I guess I broke something?")
    else:
        again = cmd_said or "the run button"
        lines.append(f"{ts(0)} {pid}: let me try {again} again, maybe it was a fluke.")
        blk = C.trim(rng.choice([6, 10]))
        lines.append(f"[{obs}: same output as before —\n{blk}\n— participant scrolls up, then back down.]")
        lines.append(f"{ts(rng.randint(10, 20))} {pid}: nope. same thing. " + endp(f'"{spoken(rng, E.head, 10)}"'))
        lines.append(f"{ts(rng.randint(22, 30))} {fac}: What would you do next, normally?")
        lines.append(f"{ts(rng.randint(32, 40))} {pid}: copy that last bit into Google, probably.")
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Style 3: benchmark_observation
# --------------------------------------------------------------------------

BENCH_APPS = ["the terminal", "the Terminal app", "the integrated terminal of Visual Studio Code",
              "GNOME Terminal", "a terminal window", "the terminal in Visual Studio Code",
              "the PyCharm terminal", "Konsole"]


def s_benchmark_observation(C):
    rng, E = C.rng, C.E
    app = pick(rng, BENCH_APPS)
    one = E.squash() if E.short else E.head
    v = rng.randrange(6)
    if not C.cmd:
        runner = pick(rng, ["clicking the 'Run Python File' button", "pressing 'F5'", "clicking 'Run'"])
        ed = pick(rng, ["Visual Studio Code", "PyCharm", "Thonny"])
        if v % 2 == 0:
            return (f"The user runs the Python file '{C.script or 'main.py'}' in {ed} by {runner}; "
                    f"the terminal shows a traceback ending in '{E.head}'.")
        return (f"The user is editing '{C.script or 'a Python file'}' in {ed} and runs it by {runner}. "
                f"The output panel displays an error: '{one}'.")
    if v == 0:
        return (f"The user types '{C.cmd}' in {app} and presses 'Enter'. "
                f"The terminal displays an error: '{one}'.")
    if v == 1:
        if E.short:
            return f"The user runs '{C.cmd}' in {app}; the output reads '{one}'."
        fl = C.first_last(with_head=rng.random() < 0.7)
        return (f"The user runs '{C.cmd}' in {app}; the output reads '{fl[0]}' ... '{fl[-1]}'"
                + (f", with the line '{fl[1]}' in between." if len(fl) == 3 else "."))
    if v == 2:
        fl = C.first_last()
        if len(fl) == 1:
            tail = f"printing '{fl[0]}'."
        else:
            tail = f"printing several lines of output, beginning with '{fl[0]}' and ending with '{fl[-1]}'."
            if len(fl) == 3:
                tail += f" One of the lines reads '{fl[1]}'."
        return (f"The user switches to {app} and runs '{C.cmd}'. The command fails, {tail} "
                + pick(rng, ["The user scrolls up to read the output.", "The user pauses on the output.",
                             "The cursor returns to the prompt."]))
    if v == 3:
        ed = pick(rng, ["Visual Studio Code", "PyCharm", "IntelliJ IDEA", "GoLand"])
        kl = C.partial(2)
        msg = "' and '".join(kl)
        return (f"The user is working on the '{C.proj}' project in {ed}. After running '{C.cmd}' in the "
                f"integrated terminal, the terminal panel shows the error message '{msg}'.")
    if v == 4:
        return (f"The user runs '{C.cmd}' again in {app}; the same error appears: '{E.head}'."
                + (f" The last line of the output is '{E.last}'." if E.last != E.head and E.last != E.head_line else ""))
    return (f"The user runs '{C.cmd}' in {app}, selects the error message '{E.head}' from the output, "
            f"copies it, and opens a new browser tab with Google.")


# --------------------------------------------------------------------------
# Style 4: tutor_feedback
# --------------------------------------------------------------------------

COURSES = ["CS 1110", "COMP 202", "INF2140", "CSE 15L", "CS50x", "SWE 240", "DAT 120", "ECE 264",
           "IN1000", "CMPT 276", "Informatik II", "CS 2113", "6.0001", "TDT4100"]


def look_at(rng, C):
    t = C.E.raw
    hints = []
    if "Traceback (most recent call last)" in t:
        hints.append("Read a Python traceback from the bottom up: the last line names the exception, and the "
                     "`File ..., line N` entry just above it tells you where it happened.")
    if re.search(r"\.\w+:\d+(:\d+)?: error|error\[E\d+\]|error TS\d+|\.java:\d+: error", t):
        hints.append("When the compiler prints several errors, start with the first one; later ones are often "
                     "knock-on effects. The file:line prefix tells you exactly where to look.")
    if re.search(r"[Pp]ermission denied|EACCES|Access denied|forbidden", t):
        hints.append("Whenever you see \"denied\", ask yourself which user is running the command and who "
                     "owns the thing the message mentions.")
    if re.search(r"not found|No such file|does not exist|Cannot find|cannot find|No module named", t):
        hints.append("The message names exactly what it looked for and could not find. Compare that name, "
                     "character by character, with what you believe is there.")
    if re.search(r"^(fatal|hint|error):", t, re.M) and (C.cmd or "").startswith("git"):
        hints.append("Read git's output all the way through, including the hint lines; git usually says what "
                     "state it thinks you're in.")
    if re.search(r"[Cc]onnect|refused|unreachable|no route", t):
        hints.append("A connection error says nothing about your code yet. First check that the thing you are "
                     "connecting to is actually running and reachable from where you ran the command.")
    hints.append("Look for the first line that actually says what went wrong rather than the last line of the output.")
    hints.append("Before changing anything, make sure you understand which program printed the message.")
    return pick(rng, hints[:-1] if len(hints) > 2 else hints)


def s_tutor_feedback(C):
    rng, E = C.rng, C.E
    sf, sl = person(rng)
    ta = pick(rng, FIRST)
    course = pick(rng, COURSES)
    hint = look_at(rng, C)
    v = rng.randrange(5)
    if v == 0:
        blk = C.trim(rng.choice([10, 15, 20]))
        ran = (f"You ran\n\n    {C.cmd}\n\nand got:" if C.cmd else
               f"You ran {bt(C.script or 'your script')} from {C.editor} and got:")
        return (f"Hi {sf},\n\nThanks for including the full output, that makes this much easier. {ran}\n\n"
                f"{fence(blk)}\n\nThe line that matters is {bt(E.head)}. {hint}\n\n"
                + pick(rng, ["Have another look with that in mind and reply here if you're still stuck.",
                             "Try that and post what you find, even if it's still broken.",
                             "If it still doesn't make sense, come by office hours on Thursday."])
                + f"\n\n— {ta} (TA)")
    if v == 1:
        lab = rng.randint(1, 9)
        score = rng.randint(3, 8)
        ql = "\n".join("> " + l for l in C.partial(2))
        what = f"{bt(C.cmd)} stops with" if C.cmd else f"running {bt(C.script or 'your program')} stops with"
        return (f"Lab {lab} – {course} – feedback for {sf} {sl}\nScore: {score}/10\n\n"
                f"Your write-up says the program \"doesn't run\". From the terminal log you submitted, {what}:\n\n"
                f"{ql}\n\n{hint} I could not test parts 2 and 3 because of this, so those are marked incomplete. "
                f"You can resubmit until Friday.")
    if v == 2:
        user = "@" + sf.lower()
        rest = ""
        if E.n > 4:
            rest = f" The {E.n - 1} other lines around it are mostly context."
        return (f"{user} the line that matters in what you pasted is {bt(E.head)}.{rest} {hint}"
                + ("" if not C.cmd else f" (And please always include the exact command, here {bt(C.cmd)}, like you did — thanks.)"))
    if v == 3:
        n = rng.randint(1000, 9999)
        sess = C.session(C.trim(rng.choice([12, 18])), prompt=False)
        if C.cmd:
            sess = "$ " + sess
        return (f"Autograder output for submission #{n} ({sf} {sl}, {course}):\n\n{sess}\n\n"
                f"TA comment: the build step failed, so none of the tests ran. {hint}")
    return (f"Hey {sf}, re: your question after the lab — I tried to reproduce it. When you "
            f"{C.run_np(code=False, q=('“', '”'))} your terminal printed “{E.head}”"
            + (f", and right above it “{E.detail}”" if E.detail and rng.random() < 0.5 else "")
            + f". {hint} Let me know how it goes.\n{ta}")


# --------------------------------------------------------------------------
# Style 5: til_blog_post
# --------------------------------------------------------------------------

TIL_CONTEXT = [
    "I was setting up a fresh machine this morning and wanted to get an old project running again.",
    "Quick one today. I was helping a colleague get started with our repo over a call.",
    "I've been reviving a side project I hadn't touched in about a year.",
    "I was following a tutorial step by step, or so I thought.",
    "This bit me twice this week, so I'm writing it down.",
    "New laptop, new distro, same old project.",
    "I spent an embarrassing amount of time on this one, so here it is for future me.",
]


def s_til_blog_post(C):
    rng, E = C.rng, C.E
    d = rdate(rng)
    ctx = pick(rng, TIL_CONTEXT)
    short_head = cut(E.head_title, 70)
    tool = (C.cmd or C.script or "my script").split()[0]
    title = pick(rng, [
        f"TIL: why {bt(cut(C.cmd, 40)) if C.cmd else 'my script'} failed with “{short_head}”",
        f"Today I learned: {tool} and “{cut(E.head_title, 50)}”",
        f"A note to self about {bt(tool)}",
        f"When {bt(cut(C.cmd, 40)) if C.cmd else 'a script'} just says no",
        f"TIL #{rng.randint(12, 180)}: {cut(E.head_title, 60)}",
    ])
    v = rng.randrange(5)
    run_line = ("I ran:" if C.cmd else f"I ran {bt(C.script or 'the script')} from {C.editor} and got:")
    cmd_block = fence(("$ " + C.cmd) if C.cmd else "", pick(rng, ["", "console", "bash", "sh"])) if C.cmd else ""
    err_block = fence(C.trim(rng.choice([10, 14, 20, 30])), pick(rng, ["", "text", "console"]))
    tail = pick(rng, [
        "My first reaction was to start googling random bits of it. Don't do that. Read it properly.",
        "It looks scary, but it's actually telling you exactly what's wrong once you know how to read it.",
        "So what's going on here?",
        "Here's what was actually happening.",
        "It took me a while to see it, so let me walk through it.",
    ])
    if v == 0:
        fm = (f"---\ntitle: \"{title.replace(chr(34), chr(39))}\"\ndate: {d.isoformat()}\n"
              f"tags: [til, {tool.strip('./')}]\n---\n\n")
        body = f"{ctx}\n\n{run_line}\n\n" + (cmd_block + "\n\nand got:\n\n" if C.cmd else "") + f"{err_block}\n\n{tail}"
        return fm + body
    if v == 1:
        return (f"# {title}\n\n*{d.strftime('%B %d, %Y').replace(' 0', ' ')}*\n\n{ctx} "
                + (f"I ran {bt(C.cmd)} and got this:" if C.cmd else run_line) + f"\n\n{err_block}\n\n{tail}")
    if v == 2:
        combined = fence(C.session(C.trim(rng.choice([12, 18])), prompt=False) if not C.cmd
                         else "$ " + C.cmd + "\n" + C.trim(rng.choice([12, 18])), "console")
        lead = "" if C.cmd else "\n\n" + run_line
        return (f"## {title}\n\n{ctx}{lead}\n\n{combined}\n\n{tail}")
    if v == 3:
        kl = C.partial(2)
        inl = " followed by ".join(bt(k) for k in kl)
        return (f"# {title}\n\n{d.isoformat()} · {rng.randint(2, 6)} min read\n\n{ctx} "
                + (f"Running {bt(C.cmd)} " if C.cmd else f"Running {bt(C.script or 'the script')} ")
                + f"gave me {inl}." + (f" The full output was {E.n} lines, ending in {bt(E.last)}."
                                       if E.n > 3 and E.last not in kl else "")
                + f"\n\n{tail}")
    return (f"**{title}**\n\n{ctx}\n\n" + (f"    $ {C.cmd}\n" if C.cmd else "")
            + indent(C.trim(rng.choice([8, 12, 16])), 4) + f"\n\n{tail}")


# --------------------------------------------------------------------------
# Style 6: so_comment
# --------------------------------------------------------------------------

def so_user(rng):
    f, l = person(rng)
    return pick(rng, [f.lower() + str(rng.randint(2, 99)), "user" + str(rng.randint(1000000, 24000000)),
                      f[0].lower() + re.sub(r"[^a-z]", "", l.lower()), f + l[0], f + " " + l,
                      re.sub(r"[^A-Za-z]", "", l) + "Dev"])


def s_so_comment(C):
    rng, E = C.rng, C.E
    other = so_user(rng)
    osv = pick(rng, ["Ubuntu 22.04", "Ubuntu 24.04", "Debian 12", "Fedora 40", "WSL2", "Mint 21", "Pop!_OS"])
    cmdc = bt(C.cmd) if C.cmd else f"running {bt(C.script or 'the script')}"

    def build(errtxt):
        v = C.variant
        if v == 0:
            return f"@{other.replace(' ', '')} I tried that but {cmdc} still gives me {bt(errtxt)} – any idea?"
        if v == 1:
            return f"+1, same here on {osv}. {cap(cmdc) if not C.cmd else cmdc} prints {bt(errtxt)}"
        if v == 2:
            return (f"@{other.replace(' ', '')} can you edit the question and add the full output? "
                    f"All we see is {bt(errtxt)}" + (f" after {cmdc}" if C.cmd else "") + ".")
        if v == 3:
            return (f"For anyone landing here from Google: {cmdc} → {bt(errtxt)} is the same problem, "
                    f"the accepted answer doesn't cover it though.")
        if v == 4:
            return (f"Still failing for me after following these steps: {cmdc} ends with {bt(errtxt)} ({osv}).")
        return (f"This didn't work for me. {cap(cmdc) if not C.cmd else 'Running ' + cmdc} I now get "
                f"{bt(errtxt)} instead.")

    C.variant = rng.randrange(6)
    candidates = []
    if E.short or len(E.squash()) < 420:
        candidates.append(E.squash())
    kl = " ".join(" ".join(C.partial(2)).split())
    candidates += [kl, " ".join(E.head.split())]
    text = None
    for cand in candidates:
        t = build(cand)
        if len(t) <= 600:
            text = t
            break
    if text is None:
        over = len(build(candidates[-1])) - 600
        text = build(cut(candidates[-1], max(40, len(candidates[-1]) - over - 4)))
    text = " ".join(text.split())
    if len(text) > 600:
        text = cut(text, 600)
    if rng.random() < 0.55:
        d = rdate(rng)
        h, m = hhmm(rng, 0, 23)
        me = so_user(rng)
        stamp = d.strftime("%b %d, %Y").replace(" 0", " ") + f" at {h}:{m:02d}"
        text += f" – {me} {stamp}"
    return text


# --------------------------------------------------------------------------
# Style 7: rubber_duck_monologue
# --------------------------------------------------------------------------

DOUBTS = [
    "is this even the right folder", "did i pull before this", "was it like this yesterday",
    "maybe it's a me problem", "it worked on the other machine, didn't it", "did i skip a step in the readme",
    "maybe i changed something and forgot", "or is it some version thing",
]


def retype(rng, s, n_words=None):
    s = s.lower() if rng.random() < 0.7 else s
    words = s.split()
    if n_words and len(words) > n_words:
        start = 0 if rng.random() < 0.6 else max(0, len(words) - n_words)
        words = words[start:start + n_words]
        s = ("" if start == 0 else "... ") + " ".join(words) + (" ..." if start == 0 else "")
    else:
        s = " ".join(words)
    return slip(rng, s, 1)


def s_rubber_duck_monologue(C):
    rng, E = C.rng, C.E
    d1, d2 = rng.sample(DOUBTS, 2)
    cmd = C.cmd or ("the script" if not C.script else C.script)
    v = rng.randrange(5)
    if v == 0:
        blk = C.trim(rng.choice([8, 12, 16]))
        return (f"ok so. i ran {cmd} and it just... no. it printed this:\n\n{blk}\n\n"
                f"so the actual thing is '{retype(rng, E.head, 12)}'? i think? "
                + ("the rest is just noise maybe. " if E.n > 2 else "")
                +
                f"hm. {d1}? no. {d2}. ok wait let me read it again slower")
    if v == 1:
        blk = C.trim(rng.choice([6, 10, 14]))
        return (f"right so i'm in {C.cwd} and i do {cmd} and\n{blk}\n"
                f"okay. okay. " + endp(retype(rng, E.head, 8)) + f" that's... i mean it's saying it pretty clearly i guess, "
                f"i just don't get why. {d1}. hmm")
    if v == 2:
        blk = indent(C.trim(rng.choice([8, 12])), 4)
        what = f"i typed `{cmd}`" if C.cmd else f"i hit run on {cmd}"
        part = retype(rng, E.head, 7)
        return (f"talking to the duck again. duck: {what}. the terminal said:\n\n{blk}\n\n"
                f"the bit that goes '{part}', that's the part i don't get. {d1}? probably not. "
                f"probably something dumb. it's always something dumb")
    if v == 3:
        return (f"hmm {cmd} -> {E.head} ... why tho. {d1}? no. maybe. "
                f"ugh, it was fine like an hour ago")
    kl = C.partial(2)
    blk = C.trim(rng.choice([10, 14]))
    s = f"ok what do we have. {cmd}. fails. output:\n{blk}\n"
    if len(kl) > 1:
        s += f"two things jump out: '{retype(rng, kl[0], 9)}' and then '{retype(rng, kl[1], 9)}'. "
    else:
        s += f"one thing jumps out: '{retype(rng, kl[0], 10)}'. "
    s += f"so either i'm wrong about what this does, or {d1}. not sure which is worse tbh"
    return s


# --------------------------------------------------------------------------
# Style 8: pair_programming_transcript
# --------------------------------------------------------------------------

def s_pair_programming_transcript(C):
    rng, E = C.rng, C.E
    (a, al), (b, bl) = person(rng), person(rng)
    while b == a:
        b = pick(rng, FIRST)
    cmd = C.cmd
    v = rng.randrange(5)
    if v == 0:
        L = ["A: ok run it",
             (f"B: {cmd}... and, " + pick(rng, ["yeah, it's red", "nope", "hm, that's not it"]) if cmd
              else f"B: running {C.script or 'it'}... yeah, red"),
             "A: what does it say?",
             f"B: \"{spoken(rng, E.head, 12)}\", something like that",
             "A: paste the whole thing in the chat, I can't read your screen",
             "[chat] B:", fence(C.session(C.trim(rng.choice([10, 14, 20])), prompt=rng.random() < 0.5)),
             "A: " + pick(rng, ["hm, ok. scroll up a bit?", "ok hang on, reading", "huh. okay, give me a sec",
                                "right, so the interesting line is the one you read out"])]
        return "\n".join(L)
    if v == 1:
        h, m = hhmm(rng, 9, 18)
        s = rng.randint(0, 59)
        _n1, n2 = f"{a} {al}", f"{b} {bl}"
        L = [f"{a}: alright, type {cmd}" if cmd else f"{a}: alright, run the file",
             f"{b}: typing... done. okay that's an error.",
             f"{a}: read me the last bit?",
             f"{b}: it says {spoken(rng, E.head, 14)}",
             f"{a}: can you drop the whole thing in chat, your font's tiny on my side",
             "",
             f"{tstr(h, m, s)} From {n2} to Everyone:",
             indent(C.trim(rng.choice([8, 12, 16])), 1, "\t"),
             "",
             f"{a}: " + pick(rng, ["thanks. okay.", "got it.", "right, yeah, I see it now."])]
        return "\n".join(L)
    if v == 2:
        base = rng.randint(300, 3000)
        def tt(off):
            t = base + off
            return "%02d:%02d:%02d" % (t // 3600, t // 60 % 60, t % 60)
        kl = C.partial(2)
        L = [f"[{tt(0)}] {a} {al}", (f"Okay, now run {cmd}." if cmd else "Okay, now run it."),
             "", f"[{tt(6)}] {b} {bl}", "Running. Hm, no, it's failing.",
             "", f"[{tt(11)}] {a} {al}", "What's the error?",
             "", f"[{tt(15)}] {b} {bl}",
             "It says " + " and then ".join(f"\"{k}\"" for k in kl) + ". I'll put it in the chat."]
        return "\n".join(L)
    if v == 3:
        h, m = hhmm(rng, 9, 18)
        ampm = f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"
        ampm2 = f"{(h - 1) % 12 + 1}:{(m + 1) % 60:02d} {'AM' if h < 12 else 'PM'}"
        out = (("$ " + cmd + "\n") if cmd else "") + C.trim(rng.choice([10, 15]))
        return (f"{b} {bl}  {ampm}\nhere's the output from what we just ran (huddle)\n{fence(out)}\n\n"
                f"{a} {al}  {ampm2}\n" + pick(rng, ["huh. first real error line is the one that matters imo",
                                                    "ok that's not what I expected",
                                                    "reading. don't touch anything yet 😄"]))
    L = [f"Driver ({b}): running {cmd}" if cmd else f"Driver ({b}): running {C.script or 'the script'}",
         f"Navigator ({a}): and?",
         f"Driver ({b}): {E.head}",
         f"Navigator ({a}): full output pls",
         f"(chat) {b}: " + (E.raw if E.n == 1 else "\n" + C.trim(12)),
         f"Navigator ({a}): ok"]
    return "\n".join(L)


# --------------------------------------------------------------------------
# Style 9: support_chat_transcript
# --------------------------------------------------------------------------

SUPPORT_CTX = [
    ("our VPS", "Support"), ("the course VM", "Learner Support"), ("my work laptop", "IT Helpdesk"),
    ("the cloud dev environment", "Support"), ("the lab server", "Research Computing"),
    ("my new droplet", "Support"), ("the bootcamp image", "Student Success"),
]


def s_support_chat_transcript(C):
    rng, E = C.rng, C.E
    cf, cl = person(rng)
    af = pick(rng, FIRST)
    while af == cf:
        af = pick(rng, FIRST)
    machine, team = pick(rng, SUPPORT_CTX)
    h, m = hhmm(rng, 7, 21)
    d = rdate(rng)
    cust = f"{cf} {cl}"
    ran = (f"I'm running {C.cmd} on {machine} and it fails" if C.cmd
           else f"my script {C.script or ''} fails on {machine}".replace("  ", " "))
    v = rng.randrange(5)

    s0 = rng.randint(0, 59)

    def clk(off, secs=True, ampm=True):
        tot = h * 3600 + m * 60 + s0 + off + (off * 7) % 13
        hh, mm, ss = tot // 3600 % 24, tot // 60 % 60, tot % 60
        if ampm:
            return f"{(hh - 1) % 12 + 1}:{mm:02d}:{ss:02d} {'AM' if hh < 12 else 'PM'}" if secs else \
                   f"{(hh - 1) % 12 + 1}:{mm:02d} {'AM' if hh < 12 else 'PM'}"
        return f"{hh:02d}:{mm:02d}:{ss:02d}" if secs else f"{hh:02d}:{mm:02d}"

    if v == 0:
        blk = C.trim(rng.choice([10, 16, 24]))
        L = [f"Chat started: {d.isoformat()} {tstr(h, m)} UTC", "",
             f"({clk(0)}) {cust}: hi, I need some help please",
             f"({clk(20)}) *** {af} joined the chat ***",
             f"({clk(35)}) {af}: Hi {cf}, thanks for reaching out! What's going on?",
             f"({clk(80)}) {cust}: {ran}",
             f"({clk(95)}) {cust}: {blk}",
             f"({clk(140)}) {af}: Thanks for pasting the full output, that helps. Give me a moment to look at this."]
        return "\n".join(L)
    if v == 1:
        blk = C.trim(rng.choice([10, 16]))
        L = [f"{cust}", clk(0, False), "hello, when I run " + (bt(C.cmd) if C.cmd else "my script") + " I get this", "",
             f"{cust}", clk(60, False), blk, "",
             f"{af} joined the conversation", "",
             f"{af}", clk(180, False),
             f"Hi {cf} 👋 thanks for sending the whole output! Just to confirm, is this on {machine}?", "",
             f"{cust}", clk(240, False), "yes"]
        return "\n".join(L)
    if v == 2:
        L = [f"[{clk(0, ampm=False)}] System: Chat started",
             f"[{clk(0, ampm=False)}] Visitor ({cust}): {ran}. error is: {E.head}",
             f"[{clk(40, ampm=False)}] System: {af} ({team}) has joined the chat",
             f"[{clk(60, ampm=False)}] {af}: Hi {cf}! Could you paste the complete output please, not just the last line?",
             f"[{clk(150, ampm=False)}] Visitor ({cust}): {C.session(C.trim(rng.choice([12, 18])), prompt=False)}",
             f"[{clk(200, ampm=False)}] {af}: Got it, thank you. Checking now.",
             f"[{clk(260, ampm=False)}] System: Chat transferred to {team} Tier 2"]
        return "\n".join(L)
    if v == 3:
        blk = html.escape(C.trim(rng.choice([8, 12])), quote=True).replace("&#x27;", "&#39;")
        cmdx = html.escape(C.cmd or "my script", quote=True).replace("&#x27;", "&#39;")
        L = [f"Conversation with {cust}", f"Started on {d.strftime('%B %d').replace(' 0', ' ')} at {clk(0, False)}", "---",
             f"{clk(0, False)} | {cust}: Hi, I ran {cmdx} and got this error:",
             f"{clk(0, False)} | {cust}: {blk}",
             f"{clk(120, False)} | {af} (Operator): Hi {cf}, sorry to hear that! Let me have a look.",
             f"{clk(150, False)} | {af} (Operator): Which version are you on?",
             f"{clk(300, False)} | Conversation assigned to {team}"]
        return "\n".join(L)
    blk = C.trim(rng.choice([10, 16]))
    L = [f"*** {af} joined the chat ***",
         f"{af}: Hello {cf}, my name is {af}, how can I help you today?",
         f"{cust}: hey, " + (f"{bt(C.cmd)} keeps failing" if C.cmd else "my script keeps crashing"),
         f"{cust}: it says \"{E.head}\"",
         f"{af}: I'm sorry about that. Can you send the whole output, and the exact command you typed?",
         f"{cust}: sure",
         f"{cust}: " + ((C.prompt() + C.cmd + "\n") if C.cmd else "") + blk,
         f"{af}: Thank you, {cf}. I'll take a look.",
         f"*** {cf} left the chat ***" if rng.random() < 0.3 else f"{af}: Are you still there?"]
    return "\n".join(L)


# --------------------------------------------------------------------------
# Style 10: vlm_frame_captions
# --------------------------------------------------------------------------

def legible_part(rng, s):
    if len(s) < 30:
        return s, False
    k = rng.randint(int(len(s) * 0.55), int(len(s) * 0.85))
    return s[:k].rstrip(), True


def s_vlm_frame_captions(C):
    rng, E = C.rng, C.E
    start = rng.randint(0, 400)
    step = pick(rng, [1, 2, 2, 3, 5])
    fps = pick(rng, [1, 2, 4])
    frames = []
    prompt = C.prompt().rstrip()
    win = re.sub(r" \(.*\)$", "", C.term.replace("the ", "").replace("a tmux pane in ", ""))
    cap0 = pick(rng, [f"{cap(art(win))} window fills the screen; the prompt \"{prompt}\" is visible at the bottom.",
                      f"A dark terminal window ({win}) is open over a browser; the last line shows the prompt \"{prompt}\".",
                      f"The screen shows {C.editor} with a terminal panel open at the bottom; the panel shows \"{prompt}\"."])
    frames.append(cap0)
    if C.cmd:
        frames.append(f"The command \"{C.cmd}\" has been typed after the prompt; the cursor sits at the end of the line.")
    else:
        frames.append(f"The mouse pointer is over the Run button in the editor toolbar; the tab \"{C.script or 'main.py'}\" is active.")
    kl = C.partial(3)
    if E.n > 8:
        vis = pick(rng, ["The terminal has filled with a long block of output.",
                         "Output scrolls past; most of the terminal is now text.",
                         "Many lines of output have appeared below the command."])
        seen = E.first_raw
        part, was_cut = legible_part(rng, seen)
        vis += f" The top visible line reads \"{part}{'…' if was_cut else ''}\"" + (
            " (cut off at the window edge)." if was_cut else ".")
        frames.append(vis)
    lines_q = "\", \"".join(kl)
    frames.append(pick(rng, [
        f"The lower part of the terminal shows the lines \"{lines_q}\".",
        f"Readable text near the bottom of the terminal: \"{lines_q}\".",
        f"Output below the command includes \"{lines_q}\"; the prompt has returned underneath.",
    ]))
    part, was_cut = legible_part(rng, E.head)
    if rng.random() < 0.6 and was_cut:
        frames.append(f"The same text is still on screen; a notification toast now covers the right side of the "
                      f"terminal, leaving \"{part}…\" legible.")
    else:
        frames.append(pick(rng, [f"The user has highlighted the line \"{E.head}\" with the mouse.",
                                 f"No change; the line \"{E.head}\" remains the last output before the prompt.",
                                 f"The user scrolls up slightly; \"{E.head}\" is now in the middle of the terminal."]))
    if rng.random() < 0.5:
        frames.append(pick(rng, ["A browser window comes to the front with an empty search page.",
                                 "The terminal is unchanged; the cursor blinks at the prompt.",
                                 "The user switches to the editor; the terminal panel is still visible underneath."]))
    v = rng.randrange(4)
    out = []
    for k, capx in enumerate(frames):
        fi = start + k * step * fps
        secs = (start // fps) + k * step
        stamp = "%02d:%02d:%02d" % (secs // 3600, secs // 60 % 60, secs % 60)
        if v == 0:
            out.append(f"Frame {fi} ({stamp}): {capx}")
        elif v == 1:
            out.append(f"[{stamp[3:]}] frame_{fi:04d}: {capx}")
        elif v == 2:
            out.append(f"t={secs:.1f}s — {capx}")
        else:
            out.append(json.dumps({"frame": fi, "time": stamp, "caption": capx}, ensure_ascii=False))
    if v == 3:
        return "[\n  " + ",\n  ".join(out) + "\n]"
    return "\n".join(out)


# --------------------------------------------------------------------------
# Style 11: sticky_note_terse
# --------------------------------------------------------------------------

def s_sticky_note_terse(C):
    rng, E = C.rng, C.E
    d = rdate(rng)
    ds = pick(rng, [d.strftime("%d/%m"), d.strftime("%m/%d"), d.strftime("%a"), d.isoformat(), d.strftime("%d.%m.")])
    cmd = C.cmd or (C.script or "script") + " (run btn)"
    who = pick(rng, FIRST)
    q = pick(rng, ["?? check later", "??", "-> google", "ask " + who + "?", "idk", "look @ tmrw", "TODO"])
    v = rng.randrange(6)
    if v == 0:
        return f"{ds}\n- {cmd} -> FAIL\n  \"{E.head}\"\n- {q}"
    if v == 1:
        return f"{cmd} => {E.head} (again!!)"
    if v == 2:
        det = f"\n(+ {cut(E.detail, 90)})" if E.detail and rng.random() < 0.6 else ""
        return f"{C.proj}: `{cmd}` broken\nerr: {E.head}{det}\n-> {q}"
    if v == 3:
        fl = C.first_last()
        if len(fl) == 1:
            return f"!! {cmd}\n   -> \"{fl[0]}\"\n{q}"
        body = "\n   ...\n".join(f"   -> \"{x}\"" for x in fl)
        return f"!! {cmd}\n{body}\n{q}"
    if v == 4:
        return f"note: ran {cmd} -> \"{E.head}\" {q}"
    h, m = hhmm(rng)
    items = [f"{tstr(h, m)} {cmd}", f"  => {E.head}"]
    if E.detail and rng.random() < 0.5:
        items.append(f"  => {cut(E.detail, 100)}")
    items.append(f"  {q}")
    return "\n".join(items)


# --------------------------------------------------------------------------
# Style 12: changelog_entry
# --------------------------------------------------------------------------

CL_WHERE = ["on fresh clones", "for new contributors", "on a clean checkout", "in the dev container",
            "on freshly provisioned machines", "in CI", "when following the README", "on Linux"]
CL_FILLER_FIXED = ["Correct typo in `--help` output.", "Handle empty config files without crashing.",
                   "Don't print a stack trace on Ctrl-C."]
CL_FILLER_CHANGED = ["Bump dev dependencies.", "Document the release process in CONTRIBUTING.md.",
                     "Log the resolved config path at debug level."]


def s_changelog_entry(C):
    rng, E = C.rng, C.E
    where = pick(rng, CL_WHERE)
    issue = rng.randint(40, 2400)
    f, l = person(rng)
    gh = (f[0].lower() + re.sub(r"[^a-z]", "", l.lower()))
    ver = f"{rng.randint(0, 4)}.{rng.randint(0, 19)}.{rng.randint(0, 9)}"
    d = rdate(rng)
    cmdx = bt(C.cmd) if C.cmd else f"running {bt(C.script or 'the app')}"
    head = " ".join(E.head.split())
    v = rng.randrange(6)
    if v == 0:
        fix = f"- Fix {cmdx} failing with {bt(cut(head, 160))} {where} (#{issue})."
        fixed = [fix] + rng.sample(CL_FILLER_FIXED, rng.randint(0, 2))
        rng.shuffle(fixed)
        s = f"## [{ver}] - {d.isoformat()}\n\n"
        if rng.random() < 0.5:
            s += "### Changed\n\n- " + pick(rng, CL_FILLER_CHANGED) + "\n\n"
        return s + "### Fixed\n\n" + "\n".join(x if x.startswith("-") else "- " + x for x in fixed)
    if v == 1:
        scope = pick(rng, ["build", "setup", "dev", "ci", "deps", "docs"])
        subj = pick(rng, [f"fix({scope}): make {cmdx} work {where}",
                          f"fix: {cmdx} no longer fails {where}",
                          f"{scope}: fix {cmdx} failure {where}"])
        blk = indent(C.trim(rng.choice([8, 12])), 4)
        return (f"{subj}\n\nRunning {cmdx} {where} failed with:\n\n{blk}\n\n"
                f"Fixes #{issue}.\n\nSigned-off-by: {f} {l} <{gh}@users.noreply.github.com>")
    if v == 2:
        return ("## What's Changed\n" + (f"* {pick(rng, CL_FILLER_CHANGED)[:-1]} by @{so_user(rng).replace(' ', '')} in "
                                          f"https://github.com/{C.proj}/{C.proj}/pull/{issue - rng.randint(1, 30)}\n"
                                          if rng.random() < 0.5 else "")
                + f"* Fix {cmdx} failing with \"{cut(head, 140)}\" by @{gh} in "
                  f"https://github.com/{C.proj}/{C.proj}/pull/{issue}\n\n"
                  f"**Full Changelog**: https://github.com/{C.proj}/{C.proj}/compare/v{ver[:-1]}{max(0, int(ver[-1]) - 1)}...v{ver}")
    if v == 3:
        pkg = re.sub(r"[^a-z0-9-]", "", C.proj.lower()) or "tool"
        wd = d.strftime("%a, %d %b %Y")
        h, m = hhmm(rng)
        body = f"  * Fix {cmdx} failing with\n    \"{head}\"\n    {where} (Closes: #{issue * 431 % 1000000})."
        return (f"{pkg} ({ver}-1) unstable; urgency=medium\n\n{body}\n\n"
                f" -- {f} {l} <{gh}@debian.org>  {wd} {tstr(h, m)}:{rng.randint(10, 59)} +0{rng.randint(0, 2)}00")
    if v == 4:
        raw_c = C.cmd or (C.script or "the program")
        gq = ("'" + raw_c + "'") if "'" not in raw_c else ('"' + raw_c + '"')
        return (f"* Noteworthy changes in release {ver} ({d.isoformat()}) [stable]\n\n** Bug fixes\n\n"
                f"  {gq} no longer fails with \"{cut(head, 120)}\"\n  {where}.\n  [bug introduced in {ver[:-1]}0]")
    return f"- {cmdx} no longer aborts with {bt(cut(head, 200))} {where} (#{issue}, @{gh})"


# --------------------------------------------------------------------------
# Style 13: student_email
# --------------------------------------------------------------------------

def s_student_email(C):
    rng, E = C.rng, C.E
    sf, sl = person(rng)
    pf, pl = person(rng)
    course = pick(rng, COURSES)
    k = rng.randint(1, 8)
    sid = rng.randint(10000000, 99999999)
    v = rng.randrange(5)
    if v == 3:
        greet = f"Dear {pf} (lab admin),"
        subj = f"Problem on {C.host} — {cut(C.cmd or 'script', 40)} fails"
        topic = f"I am using the lab machine {C.host} for my thesis work."
    else:
        greet = pick(rng, [f"Dear Professor {pl},", f"Dear Dr. {pl},", f"Dear Prof. {pl},", f"Hello {pf},"])
        subj = pick(rng, [f"{course} Assignment {k} – error when running the code",
                          f"Question about Assignment {k} ({course})",
                          f"[{course}] Help with an error"])
        topic = f"I am working on Assignment {k} for {course}."
    sorry = pick(rng, ["I am sorry to bother you with this.", "I apologize for the late email.",
                       "I hope this is the right place to ask.", "I am sorry if this is a basic question."])
    blk = C.trim(rng.choice([10, 15, 25]))
    ran = (f"When I run the following command:\n\n    {C.cmd}\n\nI get this error:" if C.cmd else
           f"When I run my script ({C.script or 'main.py'}) from {C.editor}, I get this error:")
    sign = pick(rng, ["Best regards,", "Kind regards,", "Thank you for your time,", "Sincerely,", "Many thanks,"])
    tail = pick(rng, ["I have also attached a screenshot (error.png).",
                      "I have attached the full output as output.txt as well.",
                      "I tried running it twice and the error is the same.",
                      "I followed the setup instructions from the first lecture."])
    if v == 1:
        body = (f"{greet}\n\n{sorry} {topic} " + (f"When I run {C.cmd}, " if C.cmd else "When I run my script, ")
                + pick(rng, ["it stops with this error:", "I get an error that says:", "it fails and the error says:"])
                + f"\n\n\"{E.head}\"\n\n{tail} Could you please tell me what I am doing "
                  f"wrong?\n\n{sign}\n{sf} {sl}\nStudent ID: {sid}")
    elif v == 4:
        body = (f"{greet}\n\n{sorry} {topic}\n\n{ran}\n\n"
                + "\n".join("> " + l for l in blk.split("\n"))
                + f"\n\n{tail} I would be very grateful for any advice.\n\n{sign}\n{sf}")
    else:
        body = (f"{greet}\n\n{sorry} {topic}\n\n{ran}\n\n{blk}\n\n{tail} Could you please advise me on how "
                f"to proceed?\n\n{sign}\n{sf} {sl}" + (f"\n{course}, student ID {sid}" if v != 3 else ""))
    text = f"Subject: {subj}\n\n{body}"
    if rng.random() < 0.25:
        text = wrap_email(text, pick(rng, [72, 76, 78]))
    return text


# --------------------------------------------------------------------------
# Style 14: translated_ticket
# --------------------------------------------------------------------------

LANGS = {
    "French": dict(q=("« ", " »"), q2=("“", "”"), names=[("Stéphane", "Lefèvre"), ("Camille", "Roux"), ("Amélie", "Girard")],
                   greet=["Hello,", "Good evening,", "Hello to all,"],
                   open=["I meet a problem when I launch the order {c} : the following error message appears :",
                         "Since this morning, the command {c} does not function any more. Here is the message of error :",
                         "When I execute {c} in the terminal, I obtain this error :"],
                   close=["Thank you in advance for your return.", "Could you help me ? Thank you in advance."],
                   sign=["Cordially,", "Well to you,", "Good day,"], subj="Object", lang="French"),
    "German": dict(q=("„", "“"), q2=("‚", "‘"), names=[("Jürgen", "Weiß"), ("Anja", "Köhler"), ("Lukas", "Brandt")],
                   greet=["Dear ladies and gentlemen,", "Hello together,", "Good day,"],
                   open=["when executing the command {c} I receive the following error message:",
                         "unfortunately the command {c} breaks off with the following error:",
                         "with the execution of {c} comes following mistake:"],
                   close=["Could you please look at this?", "Many thanks in advance for your support!"],
                   sign=["With friendly greetings", "Friendly greetings", "Many greetings"], subj="Subject", lang="German"),
    "Spanish": dict(q=("«", "»"), q2=("“", "”"), names=[("Alejandro", "Muñoz"), ("Lucía", "Fernández"), ("Javier", "Ortega")],
                    greet=["Good afternoon,", "Hello, good days,", "Good morning,"],
                    open=["when executing {c} it comes out the following error:",
                          "I am trying to launch {c} but it gives me this error:",
                          "on executing the command {c} appears the following message:"],
                    close=["¿Do you know what it can be?", "¿Could you help me, please? ¡Thank you very much!"],
                    sign=["Greetings,", "A greeting,", "I remain attentive,"], subj="Subject", lang="Spanish"),
    "Japanese": dict(q=("「", "」"), q2=("『", "』"), names=[("Haruto", "Suzuki"), ("Yui", "Watanabe"), ("Kenji", "Mori")],
                     greet=["Thank you for your continued support.", "It is always in your care."],
                     open=["When I executed {c}, the following error was output.",
                           "At the time of execution of the command {c}, an error occurs as below.",
                           "※ When {c} is carried out, the error below is displayed."],
                     close=["Please confirm.", "I am sorry to trouble you, but thank you for your confirmation."],
                     sign=["Best regards.", "Thank you in advance."], subj="Subject", lang="Japanese"),
    "Chinese": dict(q=("「", "」"), q2=("『", "』"), names=[("Wei", "Zhang"), ("Xiaoling", "Lin"), ("Jun", "Huang")],
                    greet=["Hello,", "Hello, teacher,"],
                    open=["after I execute {c} the following error appears:",
                          "execute {c} command after, report the following error:"],
                    close=["Trouble you to help look, thank you!", "Please help to solve, thanks!"],
                    sign=["Thanks.", "Thank you!"], subj="Title", lang="Chinese (Traditional)"),
    "Russian": dict(q=("«", "»"), q2=("„", "“"), names=[("Dmitry", "Sokolov"), ("Anna", "Volkova"), ("Sergey", "Orlov")],
                    greet=["Good afternoon!", "Hello!"],
                    open=["When starting the command {c} an error falls out:",
                          "At execution {c} gives out the error:"],
                    close=["What could be the problem? Thanks in advance.", "Prompt, please, what to do."],
                    sign=["With respect,", "Sincerely,"], subj="Topic", lang="Russian"),
    "Italian": dict(q=("«", "»"), q2=("“", "”"), names=[("Giulia", "Bianchi"), ("Matteo", "Conti"), ("Chiara", "Greco")],
                    greet=["Good morning,", "Goodevening,"],
                    open=["launching the command {c} I obtain the following error:",
                          "by executing {c} the system returns this error:"],
                    close=["Awaiting your kind reply.", "Thanks in advance for the availability."],
                    sign=["Cordial greetings,", "Distinct greetings,"], subj="Object", lang="Italian"),
    "Polish": dict(q=("„", "”"), q2=("«", "»"), names=[("Katarzyna", "Wójcik"), ("Piotr", "Zieliński"), ("Marta", "Lewandowska")],
                   greet=["Good morning,", "Good day,"],
                   open=["after running the command {c} I get the error:",
                         "when I run {c} such an error is displayed:"],
                   close=["I ask for help.", "I will be grateful for help."],
                   sign=["Regards,", "With greetings,"], subj="Subject", lang="Polish"),
    "SwissGerman": dict(q=("«", "»"), q2=("‹", "›"), names=[("Reto", "Brunner"), ("Nicole", "Keller"), ("Urs", "Meier")],
                        greet=["Good day together,", "Grüezi,"],
                        open=["when executing {c} I get following error message:",
                              "the command {c} runs on an error:"],
                        close=["Can you look at this? Thanks a lot.", "For a short feedback I would be thankful."],
                        sign=["Friendly greetings", "Kind regards"], subj="Subject", lang="German (Switzerland)"),
    "Czech": dict(q=("„", "“"), q2=("‚", "‘"), names=[("Jakub", "Dvořák"), ("Tereza", "Novotná"), ("Ondřej", "Král")],
                  greet=["Good day,", "Hello,"],
                  open=["when running the command {c} it writes me an error:",
                        "at launch {c} is displayed the following error:"],
                  close=["Could you please advise me?", "Thank you for the help."],
                  sign=["With greeting,", "Thanks and have a nice day,"], subj="Subject", lang="Czech"),
}
TICKET_CAT = ["Development environment", "Software installation", "Servers / Linux", "Workstation",
              "Build system", "Access and permissions", "Other"]


def s_translated_ticket(C):
    rng, E = C.rng, C.E
    key = pick(rng, sorted(LANGS))
    L = LANGS[key]
    o, c = L["q"]
    o2, c2 = L["q2"]
    fn, ln = pick(rng, L["names"])
    cmdtxt = C.cmd if C.cmd else (C.script or "main.py")
    cmdq = o + cmdtxt + c
    opening = pick(rng, L["open"]).format(c=cmdq)
    if not C.cmd:
        opening = opening.replace("the command ", "the script ").replace("the order ", "the script ")
    v = rng.randrange(4)
    n = rng.randint(10000, 99999)
    if v in (0, 1):
        errq = o.rstrip() + "\n" + C.trim(rng.choice([10, 14, 20])) + "\n" + c.lstrip()
    elif v == 2:
        errq = o + E.head + c + (f" (the first line is {o2}{E.first}{c2})" if E.first != E.head and E.first != E.head_line else "")
    else:
        errq = o + (E.squash() if E.short else C.trim(10)) + c
    closing = pick(rng, L["close"])
    sign = pick(rng, L["sign"])
    sig = f"{fn} {ln}"
    if rng.random() < 0.15:
        sig = mojibake(sig)
    if key == "French":
        opening = re.sub(r" ?:$", " :", opening)
    header = []
    if v == 0:
        header = [f"Ticket #{n} | Priority: Normal | Category: {pick(rng, TICKET_CAT)}",
                  f"{L['subj']}: Error at the execution of {o}{cut(cmdtxt, 50)}{c}",
                  f"[Automatically translated from {L['lang']}]", ""]
    elif v == 1:
        header = [f"{L['subj']}: {cap(pick(rng, ['problem with ', 'error with ', 'mistake at ']))}{o}{cut(cmdtxt, 40)}{c}",
                  f"Environment: {pick(rng, ['Ubuntu 22.04', 'Ubuntu 24.04', 'Debian 12', 'WSL2 (Ubuntu)', 'Linux Mint 21'])}",
                  f"Description (translated by machine from {L['lang']}):", ""]
    elif v == 2:
        header = [f"#{n} — {cap(pick(rng, ['error when executing', 'the command does not function', 'error message']))}",
                  ""]
    else:
        header = [f"[{L['lang']} → English] {L['subj']}: {o}{cut(cmdtxt, 40)}{c}", ""]
    greet = pick(rng, L["greet"])
    body = [greet, "", cap(opening) if greet.endswith((".", "!")) else opening, "", errq, ""]
    if key == "Japanese":
        body.insert(0, f"I am {ln} of the {pick(rng, ['development department', 'infrastructure team', 'system section'])}.")
        body.insert(0, greet)
        body = body[:2] + body[3:]
    body += [closing, "", sign, sig]
    return "\n".join(header + body)


# --------------------------------------------------------------------------
# Style 15: agent_memory_note
# --------------------------------------------------------------------------

TASKS = ["set up the dev environment", "get the test suite green", "reproduce issue #{n}",
         "deploy to staging", "build the project from a clean checkout", "upgrade dependencies",
         "run the migration script", "prepare the release"]
LESSONS = [
    "read the full stderr before retrying; same command failed twice",
    "don't assume the README steps are complete for this environment",
    "capture stderr separately, the tail alone hid the first error last time",
    "check the environment before touching project code",
    "stop and inspect instead of re-running blindly",
    "record exact command + cwd for every failure",
]


def s_agent_memory_note(C):
    rng, E = C.rng, C.E
    d = rdate(rng)
    h, m = hhmm(rng, 0, 23)
    s = rng.randint(0, 59)
    task = pick(rng, TASKS).format(n=rng.randint(10, 900))
    lesson = pick(rng, LESSONS)
    cmd = C.cmd or ("<ran " + (C.script or "script") + " via IDE>")
    code = C.code
    v = rng.randrange(6)
    if v == 0:
        tail = " | ".join(C.partial(3)) if E.n > 3 else " | ".join(l.strip() for l in E.lines if l.strip())
        st = f"{d.isoformat()} {tstr(h, m)}"
        st2 = f"{d.isoformat()} {tstr(*add_min(h, m, 1))}"
        return (f"[memory] {st} observation: ran `{cmd}` in {C.cwd} -> exit {code}; stderr: {tail}\n"
                f"[memory] {st2} lesson: {lesson}")
    if v == 1:
        ts = f"{d.isoformat()}T{tstr(h, m, s)}Z"
        stderr = C.trim(rng.choice([12, 20, 40]))
        rec1 = {"ts": ts, "type": "observation", "tool": "bash", "cwd": C.cwd, "cmd": cmd,
                "exit_code": code, "stderr": stderr}
        if rng.random() < 0.4:
            rec1 = {"ts": ts, "kind": "tool_result", "command": cmd, "returncode": code,
                    "output": stderr, "truncated": E.n > 12}
        rec2 = {"ts": f"{d.isoformat()}T{tstr(*add_min(h, m, 1), s)}Z", "type": "reflection",
                "text": endp(f"{cmd.split()[0]} failed: {E.head}") + " " + cap(lesson) + "."}
        return json.dumps(rec1, ensure_ascii=False) + "\n" + json.dumps(rec2, ensure_ascii=False)
    if v == 2:
        step = rng.randint(2, 14)
        blk = C.trim(rng.choice([10, 16]))
        return (f"## Scratchpad — task: {task}\n\n### Step {step}\n- **Action:** `{cmd}`\n- **Result:** exit {code}\n"
                f"- **Output (tail):**\n\n{fence(blk)}\n\n- **Note:** blocked here; `{cut(E.head, 120)}` needs to be "
                f"understood before step {step + 1}.")
    if v == 3:
        k = rng.randint(2, 4)
        return (f"# MEMORY.md\n\n## Environment quirks\n- [{d.isoformat()}] `{cmd}` fails here: {bt(E.head)} "
                f"(seen {k}x). Do not retry without changing something.\n- [{d.isoformat()}] cwd for this repo: `{C.cwd}`")
    if v == 4:
        blk = indent(C.trim(rng.choice([8, 14])), 4)
        return (f"- id: mem_{rng.randint(100, 9999):04d}\n  kind: observation\n  at: {d.isoformat()}T{tstr(h, m, s)}\n"
                f"  task: {task}\n  cmd: {json.dumps(cmd, ensure_ascii=False)}\n  exit: {code}\n  stderr: |\n{blk}\n"
                f"- id: mem_{rng.randint(100, 9999):04d}\n  kind: lesson\n  text: {lesson}")
    obs = C.trim(rng.choice([10, 16]))
    return (f"Thought: next I need to {task}.\nAction: shell\nAction Input: {cmd}\nObservation: (exit {code})\n{obs}\n"
            f"Thought: the command failed with \"{E.head}\". I should understand this before retrying.")


# --------------------------------------------------------------------------
# Style 16: mobile_autocorrect
# --------------------------------------------------------------------------

AUTOCORRECT = {
    "git": ["Git", "got"], "gti": ["GTI", "got"], "npm": ["nom", "NPM"], "pip": ["Pip", "pip"],
    "cd": ["CD"], "sudo": ["Sudo", "sushi"], "psql": ["Psql"], "mysql": ["MySQL"], "kubectl": ["Kubectl", "kubect"],
    "javac": ["Java", "javac"], "cargo": ["Cargo"], "docker": ["Docker"], "ssh": ["SSH"], "tsc": ["TSC"],
    "venv": ["vent"], "cmake": ["came", "Cmake"], "make": ["Make"], "jq": ["JQ"], "gcc": ["GCC"],
    "node": ["Node"], "yarn": ["Yarn"], "apt": ["APT", "Apt"], "mvn": ["MVN"], "go": ["Go"],
    "python3": ["Python3", "Python 3"], "python": ["Python"], "npx": ["NPX"], "scp": ["SCP"],
    "systemctl": ["System ctl", "systemctl"], "journalctl": ["Journal ctl"], "rm": ["RM"], "cp": ["CP"],
    "helm": ["Helm"], "java": ["Java"], "curl": ["Curl"], "openssl": ["OpenSSL"], "bundle": ["Bundle"],
    "rails": ["Rails"], "gem": ["Gem"], "ruby": ["Ruby"], "sqlite3": ["SQLite3"], "redis-cli": ["Redis-cli"],
    "rsync": ["Rsync"], "mkdir": ["Mkdir"], "echo": ["Echo"], "rbenv": ["Rbenv"], "pyhton3": ["Python3"],
}
AUTOCORRECT_WORDS = {"dont": "don’t", "cant": "can’t", "its": "it’s", "im": "I’m", "doesnt": "doesn’t",
                     "thats": "that’s", "ive": "I’ve", "wont": "won’t"}


def phone_cmd(rng, cmd):
    toks = cmd.split(" ")
    if toks and toks[0] in AUTOCORRECT and rng.random() < 0.55:
        toks[0] = pick(rng, AUTOCORRECT[toks[0]])
    elif toks and rng.random() < 0.4:
        toks[0] = cap(toks[0])
    for i in range(1, len(toks)):
        if toks[i] in AUTOCORRECT and rng.random() < 0.2:
            toks[i] = pick(rng, AUTOCORRECT[toks[i]])
    s = " ".join(toks)
    if rng.random() < 0.75:
        s = s.replace("--", "—")
    return smart_quotes(s)


def phone_text(rng, s):
    s = s.replace("...", "…")
    s = re.sub(r" -- | - ", " — ", s)
    words = s.split(" ")
    for i, w in enumerate(words):
        if w in AUTOCORRECT_WORDS and rng.random() < 0.8:
            words[i] = AUTOCORRECT_WORDS[w]
    s = " ".join(words)
    return smart_quotes(s)


def s_mobile_autocorrect(C):
    rng, E = C.rng, C.E
    friend = pick(rng, FIRST)
    me = pick(rng, FIRST)
    cmdp = phone_cmd(rng, C.cmd) if C.cmd else None
    typed_head = smart_quotes(slip(rng, E.head.replace("...", "…"), 1 if rng.random() < 0.7 else 0))
    flat = " ".join(E.raw.split())
    run = (f"ran {cmdp}" if cmdp else f"ran {C.script or 'my script'}")
    v = rng.randrange(5)
    if v == 0:
        t = (f"hey sorry to bug you - {run} on the {C.proj} thing and it keeps saying \"{typed_head}\"... "
             f"any idea?? it worked last week")
        return phone_text(rng, cap(t)) if rng.random() < 0.5 else phone_text(rng, t)
    if v == 1:
        rest = flat if len(flat) < 500 else cut(flat, 480, "…")
        body = phone_text(rng, f"Hi {friend},\n\nQuick one from my phone - I {run} and got this: ")
        return (body + rest + phone_text(rng, "\n\nim not at my laptop right now, can look properly tomorrow. "
                                               "Does that mean anything to you?\n\n")
                + "Sent from my iPhone")
    if v == 2:
        msgs = ["ok so", run, f"got \"{typed_head}\"", pick(rng, ["what does that even mean lol", "??",
                                                              "is that bad", "im so done with this"])]
        return "\n".join(phone_text(rng, x) for x in msgs)
    if v == 3:
        d = rdate(rng)
        h, m = hhmm(rng)
        ds = d.strftime("%d/%m/%Y")
        lines = [f"[{ds}, {tstr(h, m, rng.randint(0, 59))}] {me}: " + phone_text(rng, f"{cap(run)} like you said"),
                 f"[{ds}, {tstr(*add_min(h, m, 1), rng.randint(0, 59))}] {me}: " + (flat if len(flat) < 420 else typed_head),
                 f"[{ds}, {tstr(*add_min(h, m, 2), rng.randint(0, 59))}] {friend}: " + phone_text(rng, pick(rng, [
                     "hm. whats the full thing", "ok one sec", "ugh. can you send a screenshot", "lemme look"]))]
        return "\n".join(lines)
    title = cap(cut(E.head_title, 60, "…"))
    t = phone_text(rng, f"{title}\n\nOn mobile so sorry for formatting. When I {('do ' + cmdp) if cmdp else run} I get ")
    errp = flat if len(flat) < 600 else cut(flat, 560, "…")
    return t + errp + phone_text(rng, " … tried googling but nothing that matches. Any help appreciated")


QUOTE_STOP = re.compile(r"([.!?])(['\"”»`])\.(\s|$)")
STYLE_FUNCS = {name: globals()["s_" + name] for name in STYLES}


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

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
    for (fname, idx, command, error), pair in zip(cases, pairs, strict=False):
        for slot, style in enumerate(pair):
            rng = random.Random(f"{fname}|{idx}|{slot}|{style}")
            C = Ctx(rng, fname, idx, command, error)
            text = QUOTE_STOP.sub(r"\1\2\3", STYLE_FUNCS[style](C))
            rows.append({"file": fname, "case": idx, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
