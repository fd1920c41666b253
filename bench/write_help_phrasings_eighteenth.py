# ruff: noqa: E741, UP031, F841, B905  (a generated-data script kept as its blind writer wrote it)
"""Write bench/help_phrasings_eighteenth.jsonl: screen-recorder renderings of the help cases.

Each row is one observation record or paragraph of the kind that programs and models
produce when they turn a person's screen activity into text.  Every row shows somebody
hitting the error of one case (after running, or trying to run, its command when the
case has one) the way that recorder or model really renders it: whole, cut, first and
last lines, quoted, escaped or summarised.

Styles (16):
  gpt_style_narration              an LLM's third-person narration of the screen event in one
                                   or two long sentences, window titles and text in quotes.
  claude_style_summary             a careful, hedged summary ("It looks like the user ran ..."),
                                   sometimes a short bulleted list or a fenced excerpt.
  terse_event_caption              the shortest per-event caption a small model writes,
                                   lowercase, often cut at 120 characters with "...".
  json_observation_record          a JSON observation record (or a small array of events) as a
                                   data set stores it, the error in a string field with \\n
                                   escapes, the command in another event or in `context`.
  xml_accessibility_event          an accessibility event log element (AT-SPI, UIA or AX
                                   flavoured), text in elements, entities escaped.
  keylogger_plus_ocr               typed keys (`typed: "..."`, sometimes with <BackSpace>
                                   corrections) joined with OCR of the window after Enter,
                                   OCR slipping on at most a few characters.
  session_timeline_table           a Markdown table of the session, the command in one row and
                                   the error in the next, pipes inside cells escaped as \\|.
  diary_study_entry                a study participant's end-of-day diary entry in their own
                                   words, with the error they saved pasted in.
  intent_annotation                an annotator's label record: the observed text plus intent,
                                   needs_help and an evidence quote of the error.
  multimodal_qa_pair               question-answer pair(s) for a screen-understanding data set.
  browser_extension_capture        a browser extension's capture of a web terminal (Cloud Shell,
                                   Codespaces, JupyterLab, Cockpit, AWS CloudShell ...): page
                                   title, URL and the selected text.
  screen_diff_record               only what changed between two screenshots: "@@ ... @@"
                                   headers, "+ " new lines, "- " removed lines.
  second_person_coach              an assistant's own activity log written to the person
                                   ("You ran `...` and got `...`.").
  timeline_bullets_with_durations  a time tracker's bullet list with time ranges and durations.
  speech_to_text_narration         a person narrating their screen into a voice recorder,
                                   transcribed automatically: symbols spoken or dropped, the
                                   error read out in part and pasted by the transcriber in
                                   brackets.
  low_resource_translation         an observation first written in another language and
                                   machine-translated into literal, awkward English, the
                                   command and the error kept verbatim.

Output format: one JSON object per line,
    {"file": "python.toml", "case": 0, "style": "<style>", "text": "<text>"}
covering every [[case]] of bench/help_cases/*.toml (files sorted by name) and then of
bench/help_heldout/set*.toml (sorted by name); `file` is the TOML base name and `case`
the 0-based index of the table in that file.  Exactly two rows per case, in case order,
the two rows of a case in two different styles.

Determinism: styles are dealt from shuffled decks of the 16 styles (one fixed-seed
random.Random, reshuffled for every new deck), two cards per case, so the per-style counts
differ by at most one and the two cards of a case always come from the same deck (hence
differ).  Every row's details (names, hosts, paths, times, wording, layout, cuts) come from
its own random.Random seeded with the string "file|case|slot|style".  Only the standard
library is used; rerunning the script gives byte-identical output.

Blind writing: the author of this script read only the `error` and `command` keys of the
[[case]] tables in bench/help_cases/*.toml and bench/help_heldout/set*.toml (loaded with
tomllib) and, for tone, one ProactiveBench session file
(/work/shared/data/proactivebench/sessions/code_11.json).  No other file of the project was
opened: no project code, tests, docs, README, other bench files (other phrasing sets or their
writer scripts) or git history; no project code or benchmark was run, and nothing about how
the rows are read or scored was consulted.  Public knowledge of real tool, log and export
formats was used only to make the renderings look like the real media.
"""

from __future__ import annotations

import datetime as _dt
import glob
import json
import os
import random
import re
import tomllib
from pathlib import Path

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "help_phrasings_eighteenth.jsonl"

STYLES = [
    "gpt_style_narration",
    "claude_style_summary",
    "terse_event_caption",
    "json_observation_record",
    "xml_accessibility_event",
    "keylogger_plus_ocr",
    "session_timeline_table",
    "diary_study_entry",
    "intent_annotation",
    "multimodal_qa_pair",
    "browser_extension_capture",
    "screen_diff_record",
    "second_person_coach",
    "timeline_bullets_with_durations",
    "speech_to_text_narration",
    "low_resource_translation",
]
DECK_SEED = "help-phrasings-eighteenth/deck/v1"


# ---------------------------------------------------------------------------
# loading
# ---------------------------------------------------------------------------

def load_cases():
    files = sorted(glob.glob(str(BENCH / "help_cases" / "*.toml")))
    files += sorted(glob.glob(str(BENCH / "help_heldout" / "set*.toml")))
    cases = []
    for f in files:
        with open(f, "rb") as fh:
            data = tomllib.load(fh)
        for i, c in enumerate(data.get("case", [])):
            cases.append((os.path.basename(f), i, c.get("error", ""), c.get("command")))
    return cases


# ---------------------------------------------------------------------------
# reading an error: lines, headline, key lines
# ---------------------------------------------------------------------------

PY_EXC = re.compile(
    r"^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Fault)\b(?::|$)")

NEG = [
    (re.compile(r"^\s+at "), -8),
    (re.compile(r'^\s*File "'), -4),
    (re.compile(r"^Traceback \(most recent"), -8),
    (re.compile(r"^\s*(npm (error|ERR!)|hint:)\s*$"), -20),
    (re.compile(r"A complete log of this run"), -10),
    (re.compile(r"Run '[^']+--help'|See '[^']+--help'"), -10),
    (re.compile(r"collect2: error: ld returned"), -6),
    (re.compile(r"^compilation terminated"), -6),
    (re.compile(r"could not compile `"), -9),
    (re.compile(r"^\d+ errors?$"), -8),
    (re.compile(r"^Aborting$"), -6),
    (re.compile(r"^exit status \d+"), -6),
    (re.compile(r"^\s*\d*\s*\|?\s*[\^~\-\s]+$"), -12),
    (re.compile(r"^\s*\^"), -6),
    (re.compile(r"^\s*\d* ?\|"), -4),
    (re.compile(r"^\s*-->"), -4),
    (re.compile(r"^[@]+$"), -10),
    (re.compile(r"For more information|more details|More details here"), -6),
    (re.compile(r"^\[INFO\]"), -6),
    (re.compile(r"^\s*-- "), -4),
    (re.compile(r"Re-run Maven|^\[ERROR\] \[Help \d+\]|To see the full stack trace|re-run Maven"), -14),
    (re.compile(r"^Hint: You are currently not seeing"), -1),
    (re.compile(r"^\[ERROR\]\s*$"), -30),
    (re.compile(r"Oops! Something went wrong"), -4),
    (re.compile(r"^FAILURE: Build failed with an exception|^\* What went wrong:"), -12),
    (re.compile(r"^\s*\[end of output\]"), -8),
    (re.compile(r"note: This error originates from a subprocess"), -6),
    (re.compile(r"subprocess-exited-with-error"), -4),
    (re.compile(r"^╰─>|^│ exit code"), -3),
    (re.compile(r"make: \*\*\* \[.*\] Error \d+"), -4),
    (re.compile(r"Call Stack \(most recent"), -6),
    (re.compile(r"^\s*Type\s+Reason\s+Age"), -10),
    (re.compile(r"^\*{5,}$|^APPLICATION FAILED TO START$|LoggingFailureAnalysisReporter"), -8),
    (re.compile(r"^\s*----"), -10),
    (re.compile(r"^-+$"), -10),
    (re.compile(r"Please make sure you have the correct access"), -4),
    (re.compile(r"^Usage:"), -8),
    (re.compile(r"^\s*(triggerUncaughtException\(|throw err;|throw er;|Error\.captureStackTrace|const error = new)"), -10),
    (re.compile(r"^node:internal/\S+:\d+$"), -6),
    (re.compile(r"Main process exited, code=|Failed with result '|Control process exited"), -7),
    (re.compile(r"^\s*Active: failed \(Result"), -4),
    (re.compile(r"^Failed to start [A-Z][a-z]+ [a-z]"), -5),
    (re.compile(r"^\s*Process: \d+ "), -4),
    (re.compile(r"^\s*Loaded: loaded"), -6),
]
POS = [
    (re.compile(r"\bfatal\b|\bFATAL\b", re.I), 6),
    (re.compile(r"\berror\b|\bERROR\b|\bError\b|error\[E\d+\]|error TS\d+", re.I), 5),
    (re.compile(r"^E: "), 7),
    (re.compile(r"denied|Permission", re.I), 5),
    (re.compile(r"not found|No such file|does not exist|not exist|no such", re.I), 5),
    (re.compile(r"\bfailed\b|\bFailed\b|FAILED|failure", re.I), 3),
    (re.compile(r"cannot|can't|could not|couldn't|unable|Unable", re.I), 4),
    (re.compile(r"refused|timed out|no route|unreachable", re.I), 5),
    (re.compile(r"\bpanic(ked)?\b"), 6),
    (re.compile(r"Exception"), 5),
    (re.compile(r"CONFLICT|\[rejected\]|rejected"), 5),
    (re.compile(r"not allowed|invalid|Invalid|illegal|bad |Bad "), 4),
    (re.compile(r"missing|Missing|undefined|unresolved|mismatch", re.I), 4),
    (re.compile(r"CrashLoopBackOff|OOMKilled|ImagePullBackOff|ErrImagePull|FailedScheduling|Evicted|"
                r"Exit Code:\s+[1-9]|Pending|Insufficient"), 6),
    (re.compile(r"WARNING|Warning|warning"), 2),
    (re.compile(r"unknown|Unknown|unsupported|Unsupported|incompatible|deprecated|obsolete", re.I), 3),
    (re.compile(r"expired|verify|certificate|untrusted|self-signed", re.I), 3),
    (re.compile(r"already|in use|in progress|locked|lock", re.I), 3),
    (re.compile(r"masked|inactive|dead|killed|Killed|core dumped|Segmentation", re.I), 3),
    (re.compile(r"must|requires|required|need", re.I), 1),
    (re.compile(r"^\s*symbol:"), 6),
    (re.compile(r"^\s*= help:|^help:"), 2),
    (re.compile(r"problem|curl: \(\d+\)"), 3),
    (re.compile(r"^curl: \(\d+\)"), 5),
    (re.compile(r"expected `|found `"), 3),
    (re.compile(r"heap|out of memory|no space", re.I), 4),
    (re.compile(r"behind|diverge|detached|unrelated", re.I), 2),
    (re.compile(r"multiple definition|\[emerg\]|uninitialized constant|isn't allowed|is not allowed|"
                r"not in GOROOT|is not a \w+ package|Broken pipe|[Tt]oo many|inconsistent", re.I), 6),
    (re.compile(r"Refusing|No entries|Stop\.$|wrong|did not match|does not match|^Expecting|Unexpected"), 3),
    (re.compile(r"not compiled|\] Abort\.$|will not be installed"), 4),
]


def split_lines(err):
    lines = [l.rstrip() for l in err.rstrip("\n").split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


PREFIX_RX = re.compile(r"^(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d\d:\d\d:\d\d \S+ [^:]+: |"
                       r"[\w.-]+-\d+\s+\| |#\d+ \d+\.\d+ |\d+\.\d+ )")


def body(l):
    """A line without its journal / compose / buildkit prefix."""
    return PREFIX_RX.sub("", l)


def score_line(l):
    if not l.strip():
        return -50
    l = body(l)
    if not l.strip():
        return -50
    s = 0
    for rx, w in POS:
        if rx.search(l):
            s += w
    for rx, w in NEG:
        if rx.search(l):
            s += w
    if PY_EXC.match(l.strip()):
        s += 12
    return s


def score_at(lines, i):
    return score_line(lines[i]) + (2 if i == 0 else 0)


def is_traceback(lines):
    return any("Traceback (most recent call last)" in l for l in lines) or any(
        re.match(r'^\s*File "[^"]+", line \d+', l) for l in lines[:3])


def exc_index(lines):
    exc = [i for i, l in enumerate(lines) if PY_EXC.match(body(l).strip()) and not body(l).startswith(" ")]
    if is_traceback(lines) and exc:
        return exc[-1]
    return None


def headline_index(lines):
    i = exc_index(lines)
    if i is not None:
        return i
    return max(range(len(lines)), key=lambda j: (score_at(lines, j), -j))


def key_lines(lines, k=3):
    if len(lines) <= k:
        return [l.strip() for l in lines if l.strip()]
    ei = exc_index(lines)
    if ei is not None:
        block = [lines[ei].strip()]
        for l in lines[ei + 1:ei + 4]:
            if not l.strip() or score_line(l) < 0:
                break
            block.append(l.strip())
        return block[:k]
    hi = headline_index(lines)
    order = sorted(range(len(lines)), key=lambda j: (-score_at(lines, j), j))
    chosen, seen = [], set()
    for j in order:
        t = lines[j].strip()
        if not t or t in seen or score_at(lines, j) < 3:
            continue
        chosen.append(j)
        seen.add(t)
        if len(chosen) >= k:
            break
    if hi not in chosen:
        chosen = chosen[:k - 1] + [hi]
    out = [continued(lines, j) for j in sorted(chosen)]
    return [t for i, t in enumerate(out) if not any(i != k and t in u for k, u in enumerate(out))] or out


def soft_wrapped(h, nxt):
    """True when nxt reads as the rest of a prose sentence wrapped after h."""
    if len(h) < 50 or not re.search(r"[A-Za-z,]$", h):
        return False
    if not re.match(r"^\s{0,4}[a-z]+(?: [a-z]|[.,;] )", nxt):
        return False
    if re.match(r"^\s*(at|npm|public|private|int|for|if|return|import|const|let|var|note|created|dumping)\b", nxt):
        return False
    if ":" in nxt[:15] or h.split()[0] == nxt.split()[0]:
        return False
    return True


def continued(lines, j):
    """Line j, completed by the lines after it when it ends in a colon."""
    h = lines[j].strip()
    if exc_index(lines) == j or body(lines[j]) != lines[j]:
        return h
    prev = lines[j - 1].strip() if j > 0 else ""
    if prev.endswith(":") and len(prev) < 30 and lines[j].startswith((" ", "\t")):
        h = prev + " " + h
    # soft-wrapped sentence: the next line continues it in lower case
    while j + 1 < len(lines) and len(h) < 400 and soft_wrapped(h, lines[j + 1]):
        j += 1
        h = h + " " + lines[j].strip()
    if not h.endswith(":"):
        return h
    more = []
    for l in lines[j + 1:j + 9]:
        t = l.strip()
        if not t:
            if more and more[-1].endswith((".", ")", "?", "!")):
                break
            continue
        if re.match(r"^(\[INFO\].*|[-=*]{4,}|\[ERROR\]\s*)$", t):
            continue
        if more and not l.startswith((" ", "\t")) and len(" ".join(more)) >= 20:
            break
        more.append(t)
        if len(" ".join(more)) >= 300:
            break
        if len(" ".join(more)) >= 60 and t.endswith((".", ")")):
            break
    if more:
        h = h + " " + " ".join(more)
    return h


def headline_text(lines, hi):
    return continued(lines, hi)


# ---------------------------------------------------------------------------
# small text helpers
# ---------------------------------------------------------------------------

def flat(s):
    return re.sub(r"\s+", " ", s).strip()


def cut(s, n, ell="..."):
    if len(s) <= n:
        return s
    return s[: max(0, n - len(ell))].rstrip() + ell


def code(s):
    """Markdown inline code that survives backticks inside s."""
    if "`" in s:
        return "`` " + s + " ``"
    return "`" + s + "`"


def md_cell(s):
    return s.replace("\\", "\\\\").replace("|", "\\|")


def xml_text(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_attr(s):
    return xml_text(s).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


def tilde(path, user):
    home = "/home/" + user
    if path == home:
        return "~"
    if path.startswith(home + "/"):
        return "~" + path[len(home):]
    return path


def camel_words(s):
    s = re.sub(r"([a-z])([A-Z])", r"\1 \2", s)
    return s


def pick_w(rng, items):
    """items: list of (weight, value)."""
    total = sum(w for w, _ in items)
    r = rng.random() * total
    for w, v in items:
        r -= w
        if r <= 0:
            return v
    return items[-1][1]


# ---------------------------------------------------------------------------
# per-row context
# ---------------------------------------------------------------------------

NAMES = ["dev", "dev", "dev", "sam", "maria", "alex", "priya", "tom", "jo", "lena", "omar", "kim", "nadia", "felix"]
HOSTS = ["devbox", "thinkpad", "laptop", "ubuntu-vm", "pop-os", "fedora", "dev-desktop", "ws-0231",
         "x1carbon", "nuc", "framework", "buildvm", "zenbook", "workstation"]
WSL_HOSTS = ["DESKTOP-7QK2M1L", "DESKTOP-H3R9TVA", "LAPTOP-5JD0C2QF", "DESKTOP-0B8E4NU"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
STOP_DIRS = {"node_modules", "target", "build", "src", "vendor", "lib", "bin", "cmd", "internal", ".venv",
             "venv", ".git", "dist", "app", "templates", "migrations", "k8s", "tests", "scripts", "inventory",
             "out", "classes", "plugins", "third_party"}
SRC_EXT = (".py", ".js", ".mjs", ".ts", ".go", ".rs", ".java", ".c", ".cpp", ".rb", ".sh", ".yaml", ".yml",
           ".sql", ".json", ".toml", ".cc", ".h")


def find_time(err):
    m = re.search(r"(20\d\d)[-/](\d\d)[-/](\d\d)[T _](\d\d)[:_](\d\d)[:_](\d\d)", err)
    if m:
        y, mo, d, h, mi, s = map(int, m.groups())
        return _dt.datetime(y, mo, d, h, mi, s)
    m = re.search(r"\b(\d{1,2}) (" + "|".join(MONTHS) + r") (20\d\d) (\d\d):(\d\d):(\d\d)", err)
    if m:
        d, mon, y, h, mi, s = m.groups()
        return _dt.datetime(int(y), MONTHS.index(mon) + 1, int(d), int(h), int(mi), int(s))
    m = re.search(r"(?m)^(" + "|".join(MONTHS) + r") +(\d{1,2}) (\d\d):(\d\d):(\d\d) ", err)
    if m:
        mon, d, h, mi, s = m.groups()
        y = re.search(r"\b(20\d\d)-\d\d-\d\d\b", err)
        year = int(y.group(1)) if y else 2025
        return _dt.datetime(year, MONTHS.index(mon) + 1, int(d), int(h), int(mi), int(s))
    m = re.search(r"(?m)^[EWI](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.", err)
    if m:
        mo, d, h, mi, s = map(int, m.groups())
        return _dt.datetime(2025, mo, d, h, mi, s)
    return None


def derive_user(err, cmd, rng):
    m = re.search(r"/home/([a-z][\w.-]*)/", err) or (cmd and re.search(r"/home/([a-z][\w.-]*)/", cmd))
    if m:
        return m.group(1)
    m = re.search(r'role "([a-z]\w*)" does not exist', err)
    if m:
        return m.group(1)
    m = re.search(r"\(got '([a-z]\w*)@", err)
    if m:
        return m.group(1)
    return rng.choice(NAMES)


def derive_host(err, rng):
    m = re.search(r"(?m)^(?:" + "|".join(MONTHS) + r") +\d{1,2} \d\d:\d\d:\d\d (\S+) ", err)
    if m:
        return m.group(1)
    m = re.search(r"\(got '[a-z]\w*@([\w-]+)\.\(none\)'\)", err)
    if m:
        return m.group(1)
    return rng.choice(HOSTS)


def cmd_tokens(cmd):
    return [t.strip("'\"") for t in re.split(r"\s+", cmd or "") if t]


def derive_cwd(err, cmd, user, rng):
    home = "/home/" + user
    paths = re.findall(r"/home/[\w.-]+(?:/[\w.@+-]+)+", err)
    for tok in cmd_tokens(cmd):
        if tok.startswith("/") or tok.startswith("~") or tok.startswith("-"):
            continue
        tok2 = tok[2:] if tok.startswith("./") else tok
        if "." not in tok2 and "/" not in tok2:
            continue
        for p in paths:
            if p.endswith("/" + tok2) and p.startswith(home + "/"):
                d = p[: -len(tok2) - 1]
                if d.startswith(home):
                    return d
    m = re.search(r"Compiling \S+ v\S+ \((/home/[^)]+)\)", err)
    if m and m.group(1).startswith(home):
        return m.group(1)
    for p in paths:
        if not p.startswith(home + "/"):
            continue
        comps = p[len(home) + 1:].split("/")
        if not comps or comps[0].startswith(".") or comps[0] in ("Downloads", "Documents", "Desktop"):
            continue
        keep = []
        for i, c in enumerate(comps):
            last = i == len(comps) - 1
            if c in STOP_DIRS and keep:
                break
            if last and "." in c:
                break
            if c.startswith("."):
                break
            keep.append(c)
            if len(keep) >= 3:
                break
        if keep and keep[0] in ("projects", "code", "src", "work", "go-projects") and len(keep) == 1:
            continue
        if keep:
            return home + "/" + "/".join(keep)
    m = re.search(r"(?:github\.com|gitlab\.com|gitlab\.example\.com)[:/][\w.-]+/([\w.-]+?)(?:\.git)?['/\s]", err)
    if m:
        return home + "/" + m.group(1)
    for rx in (r"(?m)^# (?:[\w.-]+/)+([\w-]+)$", r"@ ([\w-]+) ---", r"(?m)^\[INFO\] Building ([\w-]+) \d",
               r"(?m)^> ([\w-]+)@\d", r"While resolving: ([\w-]+)@", r"root project '([\w-]+)'",
               r"on project ([\w-]+)"):
        m = re.search(rx, err)
        if m:
            return home + "/" + m.group(1)
    return pick_w(rng, [(4, home), (2, home + "/projects"), (1, home + "/work"), (1, home + "/src")])


def infer_command(err, cwd, user):
    m = re.search(r'File "(/home/[^"]+\.py)"', err)
    if m:
        p = m.group(1)
        if p.startswith(cwd + "/"):
            return "python3 " + p[len(cwd) + 1:]
        return "python3 " + tilde(p, user)
    return None


def exit_code_for(err, lines):
    last = lines[-1] if lines else ""
    if "command not found" in err or re.search(r"\bnot found$", last) and err.startswith(("bash:", "zsh:", "sh:")):
        return 127
    if re.match(r"^(bash|zsh): \./\S+: Permission denied", err) or "cannot execute" in err:
        return 126
    if last.startswith("make: ***") or "make: ***" in err:
        return 2
    if "OutOfMemoryError" in err:
        return 1
    return 1


def classify(cmd, err):
    c = (cmd or "").strip()
    first = c.split()[0] if c else ""
    if first == "sudo" and len(c.split()) > 1:
        first = c.split()[1]
    if re.match(r"^(pip3?|python3?(\.\d+)? -m pip|npm (i|install|ci)\b|yarn|gem install|bundle (install|update)|"
                r"apt(-get)? install|sudo apt|cargo install|go get|go install|rbenv install)", c.replace("sudo ", "")):
        return "install"
    if first in ("git", "gti"):
        return "git"
    if first in ("docker", "docker-compose", "kubectl", "helm"):
        return "containers"
    if first in ("systemctl", "journalctl", "systemd-analyze", "service"):
        return "service"
    if first in ("ssh", "scp", "rsync", "ssh-add", "sftp"):
        return "remote"
    if first in ("psql", "mysql", "sqlite3", "redis-cli", "mongosh"):
        return "database"
    if first in ("curl", "openssl", "keytool", "wget"):
        return "network"
    if first in ("make", "gcc", "g++", "cc", "cmake", "cargo", "mvn", "./mvnw", "gradle", "./gradlew", "javac",
                 "tsc", "npx", "go", "rustc", "clang", "pkg-config", "tar") or c.startswith(("npm run build", "go build", "go vet")):
        if c.startswith(("go run", "cargo run", "npx eslint")):
            return "run"
        return "build"
    if first in ("python", "python3", "node", "java", "ruby", "bin/rails", "bundle", "npm", "jq", "pyhton3") or c.startswith("./"):
        return "run"
    if not c and "Traceback" in err:
        return "run"
    return "shell"


GOALS = {
    "install": ["install a package", "get the dependencies installed", "set up the project's dependencies"],
    "git": ["push the latest changes", "sync the branch with the remote", "sort out the git repo",
            "get the commits onto the remote"],
    "containers": ["get the containers running", "start the stack locally", "build and run the image"],
    "k8s": ["deploy the service to the cluster", "check on the cluster", "roll out a new version"],
    "service": ["get the service running", "restart a service after a config change", "set up a background service"],
    "remote": ["log into the server", "copy a release to the server", "connect to the remote box"],
    "database": ["look at the data in the database", "run a query against the database", "load data into the database"],
    "network": ["check an HTTPS endpoint", "sort out certificates", "test an API call"],
    "build": ["build the project", "get the code to compile", "make a build"],
    "run": ["run a script", "get the program running", "run the script on real data", "test some new code"],
    "shell": ["do some file housekeeping", "run a quick shell command", "tidy up the setup"],
}


def goal_for(ctx, rng):
    cmd = ctx.cmd_full or ""
    m = re.match(r"^(?:sudo )?(?:pip3?|python3?(?:\.\d+)? -m pip) install (?:--user )?(\S+)", cmd)
    if m and not m.group(1).startswith("-"):
        return "install " + m.group(1)
    m = re.match(r"^npm (?:install|i) (?:--save-dev )?(\S+)$", cmd)
    if m:
        return "add " + m.group(1) + " to the project"
    m = re.match(r"^(?:sudo )?apt(?:-get)? install (?:-y )?(\S+)", cmd)
    if m:
        return "install " + m.group(1)
    if ctx.kind == "containers" and re.match(r"^(kubectl|helm)\b", cmd):
        return rng.choice(GOALS["k8s"])
    return rng.choice(GOALS[ctx.kind])


TERMINALS = [
    # (weight, app label, process name, title kind)
    (6, "GNOME Terminal", "gnome-terminal-server", "userhost"),
    (3, "Konsole", "konsole", "konsole"),
    (2, "xfce4-terminal", "xfce4-terminal", "xfce"),
    (3, "VS Code", "code", "vscode"),
    (2, "Windows Terminal", "WindowsTerminal.exe", "wsl"),
    (2, "kitty", "kitty", "cwd"),
    (1, "Alacritty", "alacritty", "alacritty"),
    (2, "Terminator", "terminator", "userhost"),
    (1, "Tilix", "tilix", "tilix"),
    (1, "PyCharm", "pycharm", "jetbrains"),
]


class Ctx:
    pass


def make_ctx(fname, idx, err, cmd, rng):
    c = Ctx()
    c.file, c.case = fname, idx
    c.err = err.rstrip("\n")
    c.lines = split_lines(err)
    c.hi = headline_index(c.lines)
    c.hl = headline_text(c.lines, c.hi)
    c.kl = key_lines(c.lines, 3)
    c.last = c.lines[-1].strip()
    c.first = c.lines[0].strip()
    c.cmd_given = bool(cmd)
    c.user = derive_user(err, cmd, rng)
    c.host = derive_host(err, rng)
    c.cwd = derive_cwd(err, cmd, c.user, rng)
    m = None if cmd else re.search(r'File "(/home/[^"]+)\.py"', err)
    if m:
        c.cwd = os.path.dirname(m.group(1))
    c.tcwd = tilde(c.cwd, c.user)
    c.proj = os.path.basename(c.cwd) if c.tcwd != "~" else c.user
    c.cmd = cmd
    c.cmd_full = cmd if cmd else infer_command(err, c.cwd, c.user)
    c.kind = classify(c.cmd_full, err)
    c.code = exit_code_for(err, c.lines)
    c.shell = "zsh" if err.startswith("zsh:") else "bash"
    t = find_time(err)
    if t is None:
        t = _dt.datetime(2025, 1, 1) + _dt.timedelta(days=rng.randrange(0, 330), hours=rng.randrange(8, 23),
                                                        minutes=rng.randrange(60), seconds=rng.randrange(60))
        c.t_err = t
    else:
        c.t_err = t + _dt.timedelta(seconds=rng.randrange(0, 3))
    c.t_cmd = c.t_err - _dt.timedelta(seconds=rng.randrange(1, 6), milliseconds=rng.randrange(1000))
    # terminal application and window title
    term = pick_w(rng, [(w, (a, p, k)) for w, a, p, k in TERMINALS])
    c.term_app, c.term_proc, tk = term
    if tk == "wsl":
        c.host = rng.choice(WSL_HOSTS) if not re.search(r"(?m)^(?:" + "|".join(MONTHS) + ") ", err) else c.host
    c.editor_file = pick_editor_file(c, rng)
    if tk == "userhost":
        c.title = "%s@%s: %s" % (c.user, c.host, c.tcwd)
    elif tk == "konsole":
        c.title = "%s : %s — Konsole" % (c.proj if c.tcwd != "~" else "~", c.shell)
    elif tk == "xfce":
        c.title = "Terminal - %s@%s: %s" % (c.user, c.host, c.tcwd)
    elif tk == "vscode":
        c.title = "%s — %s — Visual Studio Code" % (c.editor_file, c.proj)
    elif tk == "wsl":
        c.title = "%s@%s: %s" % (c.user, c.host, c.tcwd)
    elif tk == "cwd":
        c.title = c.tcwd
    elif tk == "alacritty":
        c.title = "Alacritty"
    elif tk == "tilix":
        c.title = "Tilix: %s@%s: %s" % (c.user, c.host, c.tcwd)
    else:
        c.title = "%s – %s" % (c.proj, c.editor_file)
    c.term_kind = tk
    if c.shell == "zsh":
        c.prompt = "%s@%s %s %% " % (c.user, c.host, c.tcwd)
    else:
        c.prompt = "%s@%s:%s$ " % (c.user, c.host, c.tcwd)
    c.browser = pick_w(rng, [(5, "Firefox"), (5, "Google Chrome"), (1, "Chromium"), (1, "Brave")])
    return c


def pick_editor_file(c, rng):
    for tok in cmd_tokens(c.cmd_full):
        b = os.path.basename(tok)
        if b.endswith(SRC_EXT) and not b.startswith("-"):
            return b
    m = re.search(r"/home/[\w.-]+/(?:[\w.-]+/)*([\w-]+\.(?:py|js|mjs|ts|go|rs|java|c|cpp|rb|yml|yaml))\b", c.err) or \
        re.search(r"(?m)^(?:\./|src/)?([\w-]+\.(?:py|js|ts|go|rs|java|c|cpp|rb))[:(]", c.err)
    if m and "/.rbenv/" not in m.group(0) and "/node_modules/" not in m.group(0) and "/vendor/" not in m.group(0):
        return m.group(1)
    return {"containers": "Dockerfile", "install": "requirements.txt", "git": "README.md",
            "service": "notes.md", "build": "Makefile"}.get(c.kind, "notes.md")


# ---------------------------------------------------------------------------
# excerpts
# ---------------------------------------------------------------------------

def short_error(c, limit=240):
    """True when the whole error is small enough to quote inline."""
    return len(c.lines) <= 2 and len(flat(c.err)) <= limit


def block_excerpt(c, rng, maxlines=14):
    """A verbatim block of the error: whole, or head and tail around a cut."""
    L = c.lines
    if len(L) <= maxlines:
        return "\n".join(L)
    hi = c.hi
    mode = rng.random()
    if mode < 0.5:
        # head + tail, keeping the headline
        tail_n = max(3, maxlines // 2)
        head_n = maxlines - tail_n
        if hi < len(L) - tail_n and hi >= head_n:
            a = max(0, hi - 2)
            part = L[:3] + ["[...]"] + L[a:hi + 2] + ["[...]"] + L[-3:]
            return "\n".join(part)
        return "\n".join(L[:head_n] + ["[...]"] + L[-tail_n:])
    # a contiguous window around the headline
    a = max(0, hi - maxlines // 2)
    b = min(len(L), a + maxlines)
    a = max(0, b - maxlines)
    return "\n".join(L[a:b])


def selection_block(c, rng, max_lines=10):
    """Contiguous lines around the headline, as a mouse selection would take them."""
    L = c.lines
    if len(L) <= max_lines and rng.random() < 0.6:
        return "\n".join(L)
    hi = c.hi
    a = max(0, hi - rng.randrange(0, 4))
    b = min(len(L), hi + 1 + rng.randrange(1, 5))
    while b - a > max_lines:
        if b - 1 > hi:
            b -= 1
        else:
            a += 1
    return "\n".join(L[a:b])


def inline_error(c, rng, maxlen=260):
    """One line a narrator would quote."""
    if short_error(c, maxlen):
        return flat(c.err)
    r = rng.random()
    if r < 0.45:
        return c.hl
    if r < 0.75 and len(c.kl) > 1:
        return " ".join(c.kl)
    return c.hl


def first_last(c):
    L = [l for l in c.lines if l.strip()]
    return L[0].strip(), L[-1].strip()


def search_query(c):
    q = c.hl
    q = re.sub(r"^[\w./-]+:\d+(:\d+)?:\s*", "", q)
    q = re.sub(r"^E\d{4} [\d:.]+\s+\d+ [\w.]+:\d+\] ", "", q)
    q = re.sub(r"^(" + "|".join(MONTHS) + r") +\d+ [\d:]+ \S+ \S+: ", "", q)
    return cut(q, 90, "")


def ts(t, fmt="%H:%M:%S"):
    return t.strftime(fmt)


def iso(t, ms=True):
    if ms:
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % (t.microsecond // 1000) + "Z"
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def add_ms(t, rng, lo=50, hi=900):
    return t + _dt.timedelta(milliseconds=rng.randrange(lo, hi))


def cmd_or_none(c, rng, p_infer=0.65):
    """The command as the recorder would name it (None when it cannot see one)."""
    if c.cmd:
        return c.cmd
    if c.cmd_full and rng.random() < p_infer:
        return c.cmd_full
    return None


def next_activity(c, rng):
    q = search_query(c)
    opts = [
        "switched to %s and searched for \"%s\"" % (c.browser, q),
        "opened %s and pasted \"%s\" into the search bar" % (c.browser, cut(q, 70, "")),
        "went back to the editor without changing anything",
        "scrolled up through the output",
        "copied the last line of the output",
        "opened a Stack Overflow tab in %s" % c.browser,
        "ran `clear` and typed the same command again",
        "switched to Slack",
    ]
    return rng.choice(opts)


# ---------------------------------------------------------------------------
# style 1: gpt_style_narration
# ---------------------------------------------------------------------------

def s_gpt(c, rng):
    cmd = cmd_or_none(c, rng)
    err1 = inline_error(c, rng)
    f, l = first_last(c)
    term_desc = {"vscode": "the integrated terminal of Visual Studio Code", "wsl": "Windows Terminal (Ubuntu on WSL)",
                 "jetbrains": "the terminal tool window of PyCharm"}.get(c.term_kind, "the terminal")
    v = rng.randrange(6)
    run = "runs" if rng.random() < 0.5 else "executes"
    if cmd is None:
        cmd_part = "runs the script"
        if v in (0, 1, 2):
            return ("The user, working in %s in the window titled '%s', runs a Python script, and the terminal "
                    "outputs a traceback ending with '%s'." % (term_desc, c.title, l))
        return ("In %s, titled '%s', a Python traceback appears after the user's last command; the final line "
                "reads '%s', and the user pauses on the output." % (term_desc, c.title, l))
    if v == 0:
        return ("The user, working in the terminal window titled '%s', %s the command '%s' and the terminal "
                "outputs an error: '%s'." % (c.title, run, cmd, err1))
    if v == 1:
        if len(c.lines) > 3 and f != l:
            mid = ""
            if c.hl not in (f, l):
                mid = ", including the line '%s'" % c.hl
            return ("In the '%s' window, the user types '%s' and presses Enter; %s responds with a multi-line "
                    "error message that begins with '%s' and ends with '%s'%s, indicating that the command did "
                    "not complete successfully." % (c.title, cmd, term_desc, f, l, mid))
        return ("In the '%s' window, the user types '%s' and presses Enter, and %s immediately responds with "
                "the error '%s', indicating that the command did not complete successfully."
                % (c.title, cmd, term_desc, flat(c.err) if short_error(c, 400) else c.hl))
    if v == 2:
        return ("The screen shows %s, where the user has just entered the command '%s'. Below the prompt, the "
                "output reads '%s', and the cursor is blinking at a fresh prompt '%s'."
                % (term_desc, cmd, err1, c.prompt.rstrip()))
    if v == 3:
        prev = rng.choice(["'%s' in Visual Studio Code" % c.editor_file, "a %s tab" % c.browser,
                           "the file manager", "a Slack conversation"])
        extra = ""
        if len(c.kl) > 1 and rng.random() < 0.7:
            extra = ", which includes the line '%s'" % [k for k in c.kl if k != c.hl][0]
        return ("After switching from %s to the terminal window '%s', the user %s '%s', which fails with the "
                "message '%s'; the user then scrolls up to read the full output%s."
                % (prev, c.title, run, cmd, c.hl, extra))
    if v == 4:
        return ("The user is working in Visual Studio Code with the file '%s' open, and in the integrated "
                "terminal panel at the bottom of the window they run '%s', which prints the error '%s'."
                % (c.editor_file, cmd, err1))
    when = rng.choice(["A moment later", "Shortly afterwards", "Within a second", "Right after that"])
    return ("The user focuses the '%s' window and %s '%s'. %s, the terminal displays an error message: '%s', "
            "and the user stops typing to read it." % (c.title, run, cmd, when, err1))


# ---------------------------------------------------------------------------
# style 2: claude_style_summary
# ---------------------------------------------------------------------------

def s_claude(c, rng):
    cmd = cmd_or_none(c, rng)
    f, l = first_last(c)
    v = rng.randrange(6)
    cmd_txt = code(cmd) if cmd else "what appears to be a Python script"
    if v == 0:
        if len(c.lines) > 2 and is_traceback(c.lines):
            end = "a traceback ending in %s" % code(c.hl)
        elif len(c.lines) > 2:
            end = "several lines of output, the key one being %s" % code(c.hl)
        else:
            end = code(flat(c.err)) if short_error(c, 300) else code(c.hl)
        return "It looks like the user ran %s; the terminal then printed %s." % (cmd_txt, end)
    if v == 1:
        items = ["- The active window is a terminal (%s)." % code(c.title)]
        if cmd:
            items.append("- The most recent command appears to be %s." % code(cmd))
        else:
            items.append("- I can't see the command itself; it scrolled out of view.")
        items.append("- The output shows an error: %s." % code(c.hl))
        if len(c.kl) > 1 and rng.random() < 0.7:
            other = [k for k in c.kl if k != c.hl]
            if other:
                items.append("- Other visible lines include %s." % code(other[0]))
        items.append(rng.choice(["- Nothing suggests the user has acted on it yet.",
                                 "- The prompt has returned, so the command has finished.",
                                 "- It's not clear whether this is the first attempt."]))
        return "Here's what I can see on screen:\n" + "\n".join(items)
    if v == 2:
        head = ("The user seems to be trying to %s. After running %s, the terminal shows this "
                "(I've copied what is visible):" % (goal_for(c, rng), cmd_txt))
        return head + "\n\n```\n" + block_excerpt(c, rng, 14) + "\n```"
    if v == 3:
        hedge = rng.choice(["I can't be fully certain from the screenshot, but", "If I'm reading the screen correctly,",
                            "From what's visible,"])
        tail = ""
        others = [k for k in c.kl if k != c.hl and k not in c.hl]
        if len(c.lines) > 12:
            tail = (" The output is longer than the visible area, so I may be missing context between the first "
                    "line (%s) and the last (%s)." % (code(f), code(l)))
        elif len(c.lines) > 2 and others:
            tail = " The lines around it include %s." % code(others[0])
        return "%s the command %s failed with %s.%s" % (hedge, cmd_txt, code(inline_error(c, rng, 300)), tail)
    if v == 4:
        parts = ["Summary of the current screen:", ""]
        parts.append("1. %s is focused; the working directory looks like %s." % (c.term_app, code(c.tcwd)))
        parts.append("2. Command: %s" % (code(cmd) if cmd else "(not visible)"))
        parts.append("3. Result: an error. The relevant lines seem to be:")
        for k in c.kl:
            parts.append("   > " + k)
        parts.append("")
        parts.append(rng.choice(["The user may want help with this, though they haven't asked.",
                                 "I'd treat this as a likely point where the user could use help.",
                                 "This seems worth flagging, but I'd avoid interrupting unless it repeats."]))
        return "\n".join(parts)
    return ("Possibly relevant: the user ran %s in %s and got an error. The message reads %s. It's likely the "
            "user will need to address this before continuing, although I can't tell what they plan to do next."
            % (cmd_txt, code(c.tcwd), code(inline_error(c, rng, 300))))


# ---------------------------------------------------------------------------
# style 3: terse_event_caption
# ---------------------------------------------------------------------------

def s_terse(c, rng):
    cmd = cmd_or_none(c, rng, 0.5)
    err = c.hl if not short_error(c, 120) else flat(c.err)
    app = rng.choice(["terminal", "terminal", c.term_proc.replace(".exe", "").lower(), "shell"])
    v = rng.randrange(6)
    if cmd is None:
        opts = ["python script fails in %s. error: %s." % (app, err),
                "traceback in %s: %s" % (app, err),
                "user runs script, gets %s" % err]
        s = opts[v % 3]
    elif v == 0:
        s = "user runs %s in %s. error: %s." % (cmd, app, err)
    elif v == 1:
        s = "%s: `%s` -> %s" % (app, cmd, err)
    elif v == 2:
        s = "user typed %s, got error %s" % (cmd, err)
    elif v == 3:
        s = "%s window. command %s failed. msg: %s" % (app, cmd, err)
    elif v == 4:
        s = "error shown in %s after %s: %s" % (app, cmd, err)
    else:
        s = "user executes '%s'; %s prints error '%s'" % (cmd, app, err)
    r = rng.random()
    if r < 0.25:
        s = s.lower()
    elif r < 0.6:
        s = s[0].lower() + s[1:]
    if len(s) > 120 and rng.random() < 0.6:
        s = s[:117] + "..."
    return s


# ---------------------------------------------------------------------------
# style 4: json_observation_record
# ---------------------------------------------------------------------------

def clip_content(c, rng):
    if len(c.err) > 1800 and rng.random() < 0.6:
        return c.err[:1500] + "…", True
    return c.err, False


def tail_with_headline(c, n):
    """The last n lines, stretched upwards (within reason) to keep the headline in view."""
    L = c.lines
    start = max(0, len(L) - n)
    if c.hi < start and len(L) - c.hi <= 2 * n:
        start = c.hi
    return L[start:]


def s_json(c, rng):
    cmd = cmd_or_none(c, rng, 0.8)
    ascii_ = rng.random() < 0.5
    indent = rng.choice([None, None, 2])
    v = rng.randrange(5)
    sess = "s_%06x" % rng.randrange(16 ** 6)
    if v == 0:
        content, trunc = clip_content(c, rng)
        rec = {"timestamp": iso(c.t_err + _dt.timedelta(seconds=rng.randrange(3, 40))), "app": c.term_proc,
               "window_title": c.title, "event_type": "clipboard", "content": content}
        if trunc:
            rec["truncated"] = True
        ctx = {"last_command": cmd, "cwd": c.cwd} if cmd else {"cwd": c.cwd}
        rec["context"] = ctx
        rec["session_id"] = sess
    elif v == 1:
        evs = []
        if cmd:
            evs.append({"t": round(c.t_cmd.timestamp(), 3), "type": "keystroke_burst", "app": c.term_proc,
                        "text": cmd + "\n"})
        evs.append({"t": round(c.t_err.timestamp(), 3), "type": "terminal_output", "app": c.term_proc,
                    "stream": "stderr", "text": c.err + "\n"})
        rec = evs
    elif v == 2:
        shown = c.lines
        rows = rng.choice([40, 50, 60])
        if len(shown) > rows and c.hi >= len(shown) - rows:
            shown = shown[-rows:]
            screen = "\n".join(shown + [c.prompt.rstrip()])
        elif cmd:
            screen = (c.prompt + cmd + "\n" + c.err + "\n" + c.prompt).rstrip()
        else:
            screen = c.err
        rec = {"id": rng.randrange(10000, 99999), "time": "%.3f" % c.t_err.timestamp(),
               "source": "screen_ocr", "active_window": {"app": c.term_app, "title": c.title},
               "ocr_text": screen, "ocr_engine": rng.choice(["tesseract-5.3", "paddleocr", "apple-vision"])}
    elif v == 3:
        rec = {"ts": iso(c.t_err), "event_type": "command_finished", "shell": c.shell, "cwd": c.cwd,
               "command": cmd, "exit_code": c.code, "stdout": "", "stderr": c.err + "\n",
               "duration_ms": rng.randrange(40, 4000)}
        if cmd is None:
            rec["command"] = None
            rec["note"] = "command not captured (history disabled)"
    else:
        rec = {"observation": {"time": "%.3f" % c.t_err.timestamp(),
                               "event": ("The user runs '%s' in the terminal and an error is printed." % cmd)
                               if cmd else "An error is printed in the terminal.",
                               "a11y": {"focused_role": "terminal", "focused_name": c.title,
                                        "value_tail": "\n".join(tail_with_headline(c, 12))}}}
    return json.dumps(rec, ensure_ascii=ascii_, indent=indent)


# ---------------------------------------------------------------------------
# style 5: xml_accessibility_event
# ---------------------------------------------------------------------------

def s_xml(c, rng):
    cmd = cmd_or_none(c, rng, 0.7)
    v = rng.randrange(5)
    tstamp = iso(c.t_err)
    body = c.err + "\n" + c.prompt.rstrip()
    if v == 0:
        return ('<event type="text-changed" app="%s" pid="%d" role="terminal" time="%s" window="%s">\n'
                '  <text>%s</text>\n</event>'
                % (xml_attr(c.term_proc), rng.randrange(1200, 60000), tstamp, xml_attr(c.title),
                   xml_text(((c.prompt + cmd + "\n") if cmd else "") + c.err)))
    if v == 1:
        out = ['<events session="%s">' % ("%08x" % rng.randrange(16 ** 8))]
        if cmd:
            out.append('  <event type="object:text-changed:insert" source="terminal" app="%s" detail1="%d" time="%s">'
                       % (xml_attr(c.term_proc), rng.randrange(100, 4000), iso(c.t_cmd)))
            out.append("    <text>%s</text>" % xml_text(cmd))
            out.append("  </event>")
            out.append('  <event type="keyboard:press" key="Return" time="%s"/>' % iso(add_ms(c.t_cmd, rng)))
        out.append('  <event type="object:text-changed:insert" source="terminal" app="%s" detail1="%d" time="%s">'
                   % (xml_attr(c.term_proc), rng.randrange(100, 4000), tstamp))
        out.append("    <text>%s</text>" % xml_text(c.err))
        out.append("  </event>")
        out.append("</events>")
        return "\n".join(out)
    if v == 2:
        proc = "WindowsTerminal.exe" if c.term_kind == "wsl" else c.term_proc
        return ('<UIAEvent EventId="UIA_Text_TextChangedEventId" ProcessName="%s" ControlType="Document" '
                'Name="%s" Time="%s">\n  <Value>%s</Value>\n</UIAEvent>'
                % (xml_attr(proc), xml_attr(c.title), tstamp,
                   xml_text(((c.prompt + cmd + "\n") if cmd else "") + c.err)))
    if v == 3:
        lines = "\n".join("    <line n=\"%d\">%s</line>" % (i + 1, xml_text(l)) for i, l in enumerate(c.lines))
        cmd_el = ('  <command>%s</command>\n' % xml_text(cmd)) if cmd else ""
        return ('<a11y-event kind="children-changed" role="terminal" app="%s" title="%s" ts="%s">\n%s'
                '  <added count="%d">\n%s\n  </added>\n</a11y-event>'
                % (xml_attr(c.term_app), xml_attr(c.title), tstamp, cmd_el, len(c.lines), lines))
    return ('<AXNotification name="AXValueChanged" app="%s" role="AXTextArea" window="%s" at="%s">\n'
            '  <AXValue>%s</AXValue>\n</AXNotification>'
            % (xml_attr(c.term_app), xml_attr(c.title), tstamp,
               xml_text(((c.prompt + cmd + "\n") if cmd else "") + body)))


# ---------------------------------------------------------------------------
# style 6: keylogger_plus_ocr
# ---------------------------------------------------------------------------

OCR_SUBS = [("l", "1"), ("1", "l"), ("O", "0"), ("0", "O"), ("I", "l"), ("rn", "m"), (":", ";"), ("'", ""),
            (",", "."), ("\"", "'"), ("S", "5"), ("e", "c"), ("`", "'"), ("_", " "), (".", "")]


def ocr_noise(text, rng, n):
    s = text
    for _ in range(n):
        a, b = rng.choice(OCR_SUBS)
        idxs = [m.start() for m in re.finditer(re.escape(a), s)]
        if not idxs:
            continue
        i = rng.choice(idxs)
        s = s[:i] + b + s[i + len(a):]
    return s


def typed_with_typos(cmd, rng, bs="<BackSpace>"):
    if len(cmd) < 6 or rng.random() < 0.5:
        return cmd
    i = rng.randrange(2, len(cmd) - 1)
    wrong = rng.choice("qwertyuiopasdfghjklzxcvbnm")
    return cmd[:i] + wrong + bs + cmd[i:]


def ocr_screen(c, rng, cmd, rows):
    L = ([c.prompt + cmd] if cmd else []) + c.lines + [c.prompt.rstrip()]
    L = [l.replace("\t", "    ") for l in L]
    if len(L) > rows:
        L = L[-rows:]
        if c.hi < len(c.lines) - rows + 2:
            # the recorder kept the earlier frame too
            pass
    return L


def s_keylog(c, rng):
    cmd = cmd_or_none(c, rng, 0.9)
    v = rng.randrange(5)
    n_noise = rng.randrange(1, 4)
    rows = rng.choice([24, 30, 40, 50])
    screen_lines = ocr_screen(c, rng, cmd, rows)
    joiner = rng.choice([" | ", "\n", " "])
    screen = joiner.join(l.strip() if joiner != "\n" else l for l in screen_lines)
    screen = ocr_noise(screen, rng, n_noise)
    t1 = c.t_cmd
    t2 = add_ms(c.t_err, rng, 100, 1500)
    if v == 0:
        out = ["[%s] window: \"%s\" (%s)" % (ts(t1), c.title, c.term_proc)]
        if cmd:
            out.append("[%s] typed: \"%s\" [Enter]" % (ts(t1), typed_with_typos(cmd, rng)))
        out.append("[%s] screen: \"%s\"" % (ts(t2), screen))
        return "\n".join(out)
    if v == 1:
        out = []
        if cmd:
            out.append("typed: \"%s⏎\"" % typed_with_typos(cmd, rng, "⌫"))
        out.append("screen (ocr, conf %.2f): \"%s\"" % (rng.uniform(0.78, 0.97), screen))
        return "\n".join(out)
    if v == 2:
        out = ["--- %s %s ---" % (c.t_err.strftime("%Y-%m-%d"), c.term_app)]
        if cmd:
            out.append("KEYS  %s  %s<Return>" % (ts(t1), typed_with_typos(cmd, rng, "<BS>")))
        out.append("OCR   %s" % ts(t2))
        out.extend("      " + l for l in screen.split("\n")) if joiner == "\n" else out.append("      " + screen)
        return "\n".join(out)
    if v == 3:
        out = ["ts,source,text"]
        if cmd:
            out.append("%s,keys,\"%s\\n\"" % (iso(t1), typed_with_typos(cmd, rng).replace('"', '""')))
        out.append("%s,ocr,\"%s\"" % (iso(t2), screen.replace('"', '""')))
        return "\n".join(out)
    out = ["app=%s title=\"%s\"" % (c.term_proc, c.title)]
    if cmd:
        out.append("typed: \"%s\" + Enter (%d keys, %.1fs)" % (cmd, len(cmd) + 1, rng.uniform(1.5, 9.0)))
    else:
        out.append("typed: \"<Up><Return>\"")
    out.append("screen after Enter: \"%s\"" % screen)
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style 7: session_timeline_table
# ---------------------------------------------------------------------------

def s_table(c, rng):
    cmd = cmd_or_none(c, rng, 0.8)
    v = rng.randrange(5)
    t0 = c.t_cmd - _dt.timedelta(seconds=rng.randrange(20, 300))
    app = {"vscode": "VS Code", "wsl": "Windows Terminal"}.get(c.term_kind, c.term_app)
    r = rng.random()
    if short_error(c, 260):
        errcell = md_cell(flat(c.err)) if rng.random() < 0.5 else md_cell(c.err).replace("\n", "<br>")
    elif r < 0.35:
        errcell = md_cell(c.hl)
    elif r < 0.7:
        errcell = "<br>".join(md_cell(k) for k in c.kl)
    else:
        f, l = first_last(c)
        errcell = md_cell(f) + " … " + md_cell(l) if c.hl in (f, l) else md_cell(f) + " … " + md_cell(c.hl) + " … " + md_cell(l)
    cmdcell = code(md_cell(cmd)) if cmd else "(command not captured)"
    after = rng.choice([("%s" % c.browser, "search", md_cell('"%s"' % search_query(c))),
                        ("%s" % app, "scroll", "scrolls up through output"),
                        ("VS Code", "focus", c.editor_file),
                        ("Slack", "focus", "#dev-help"),
                        ("%s" % app, "idle", "no input for 40 s")])
    before = rng.choice([("VS Code", "edit", "%s (saved)" % c.editor_file), (app, "focus", md_cell(c.title)),
                         (c.browser, "read", "docs page"), (app, "command", code("cd " + c.tcwd))])
    t_after = c.t_err + _dt.timedelta(seconds=rng.randrange(5, 90))
    if v == 0:
        hdr = "| time | app | action | detail |\n|---|---|---|---|"
        rows = [(ts(t0), before[0], before[1], before[2]), (ts(c.t_cmd), app, "run command", cmdcell),
                (ts(c.t_err), app, "error output", errcell), (ts(t_after), after[0], after[1], after[2])]
        return hdr + "\n" + "\n".join("| %s | %s | %s | %s |" % r_ for r_ in rows)
    if v == 1:
        hdr = "| ts | window | event | text |\n|:--|:--|:--|:--|"
        rows = [(ts(c.t_cmd), md_cell(c.title), "keys", cmdcell), (ts(c.t_err), md_cell(c.title), "output", errcell)]
        return hdr + "\n" + "\n".join("| %s | %s | %s | %s |" % r_ for r_ in rows)
    if v == 2:
        hdr = "| # | start | app | what happened | evidence |\n|---|---|---|---|---|"
        rows = [("1", ts(t0, "%H:%M"), before[0], before[1], before[2]),
                ("2", ts(c.t_cmd, "%H:%M"), app, "ran a command", cmdcell),
                ("3", ts(c.t_err, "%H:%M"), app, "command failed (exit %d)" % c.code, errcell),
                ("4", ts(t_after, "%H:%M"), after[0], after[1], after[2])]
        return hdr + "\n" + "\n".join("| %s | %s | %s | %s | %s |" % r_ for r_ in rows)
    if v == 3:
        hdr = "| time | app | action | detail |\n| --- | --- | --- | --- |"
        rows = [(ts(c.t_cmd), app, "typed", cmdcell), (ts(c.t_err), app, "stderr", errcell)]
        return ("Session %s, %s\n\n" % (c.t_err.strftime("%Y-%m-%d"), c.user)) + hdr + "\n" + "\n".join(
            "| %s | %s | %s | %s |" % r_ for r_ in rows)
    hdr = "| time | app | action | detail |\n|------|-----|--------|--------|"
    rows = [(ts(c.t_cmd), app, "command", cmdcell), (ts(c.t_err), app, "error", errcell),
            (ts(t_after), after[0], after[1], after[2])]
    return hdr + "\n" + "\n".join("| %s | %s | %s | %s |" % r_ for r_ in rows)


# ---------------------------------------------------------------------------
# style 8: diary_study_entry
# ---------------------------------------------------------------------------

def s_diary(c, rng):
    cmd = cmd_or_none(c, rng, 0.7)
    pid = "P%02d" % rng.randrange(1, 31)
    day = rng.randrange(1, 15)
    goal = goal_for(c, rng)
    v = rng.randrange(5)
    weekday = c.t_err.strftime("%A")
    feel = rng.choice(["annoyed", "a bit stuck", "frustrated", "confused", "tired of it", "fine-ish but slowed down"])
    if v == 0:
        ran = ("I ran %s" % code(cmd)) if cmd else "I ran my script"
        return ("%s, day %d (%s)\n\nSpent most of the afternoon trying to %s. %s and it failed straight away. "
                "I saved the output so here it is:\n\n%s\n\nDidn't figure it out today, felt %s. Will look again tomorrow."
                % (pid, day, weekday, goal, ran, block_excerpt(c, rng, 16), feel))
    if v == 1:
        parts = ["Participant: %s | Day %d | %s" % (pid, day, c.t_err.strftime("%d/%m/%Y")),
                 "What were you working on? %s" % goal[0].upper() + goal[1:] + ".",
                 "What went wrong? %s" % (("Ran %s and got an error." % code(cmd)) if cmd else "My script crashed."),
                 "Paste any error messages:", block_excerpt(c, rng, 12),
                 "Did you solve it? %s" % rng.choice(["No", "Not yet", "Partly, gave up after ~30 min", "No, asked a colleague"]),
                 "How did it make you feel (1-5, 5 = very frustrated): %d" % rng.randrange(2, 6)]
        return "\n".join(parts)
    if v == 2:
        ran = ("typed %s" % cmd) if cmd else "ran the script"
        return ("day %d. tried to %s, %s and got %s\nno idea why. copied it here so i dont lose it. %s"
                % (day, goal, ran, c.hl if not short_error(c) else flat(c.err), rng.choice(["ugh", "", "will ask tomorrow", "sigh"]))).rstrip()
    if v == 3:
        f, l = first_last(c)
        ran = ("When I ran %s" % code(cmd)) if cmd else "When I ran it"
        if len(c.lines) > 3:
            amount = "a whole wall of text" if len(c.lines) > 8 else "a few lines"
            mid = "It printed %s starting with \"%s\" and ending with \"%s\"." % (amount, f, l)
            if c.hl not in (f, l):
                mid += " The line that seemed important was \"%s\"." % c.hl
        else:
            mid = "It printed: \"%s\"" % flat(c.err)
        where = (" (in %s)" % c.tcwd) if c.tcwd != "~" else ""
        return ("Diary - %s - %s\nMost of today went into trying to %s%s. %s, it didn't work. %s I searched "
                "online for a while but the answers didn't match my setup exactly." % (pid, weekday, goal, where, ran, mid))
    ran = ("running %s" % code(cmd)) if cmd else "running my code"
    return ("%s — end of day %d\nThis morning went OK but in the afternoon I got blocked %s. The error (copied "
            "from the terminal):\n\n```\n%s\n```\n\nI think it's something about my setup rather than my code, but "
            "I'm not sure. Rated the day %d/5." % (pid, day, ran, block_excerpt(c, rng, 14), rng.randrange(1, 4)))


# ---------------------------------------------------------------------------
# style 9: intent_annotation
# ---------------------------------------------------------------------------

INTENTS = {"install": "installing_dependency", "git": "version_control", "containers": "deploying",
           "service": "server_admin", "remote": "remote_access", "database": "database_work",
           "network": "debugging", "build": "building_code", "run": "debugging", "shell": "file_management"}


def s_intent(c, rng):
    cmd = cmd_or_none(c, rng, 0.7)
    v = rng.randrange(5)
    intent = "debugging" if rng.random() < 0.45 else INTENTS[c.kind]
    ev = inline_error(c, rng, 200)
    observed = ("User runs `%s` in %s; the output is an error." % (cmd, c.term_app)) if cmd else (
        "A Python traceback is shown in %s." % c.term_app)
    seg = "seg_%04d" % rng.randrange(1, 9999)
    ann = rng.choice(["A1", "A2", "A3", "ann_07", "ann_12", "r2"])
    conf = rng.choice(["0.8", "0.9", "0.95", "high", "medium"])
    if v == 0:
        return ("segment: %s\nobserved: \"%s\"\nintent: %s\nneeds_help: yes\nevidence: \"%s\"\nannotator: %s\nconfidence: %s"
                % (seg, observed.replace('"', '\\"'), intent, ev.replace('"', '\\"'), ann, conf))
    if v == 1:
        return ("obs=%s | text=%s | intent=%s | needs_help=yes | evidence=\"%s\" | ann=%s"
                % (seg, observed, intent, ev, ann))
    if v == 2:
        lines = ["Text: %s" % observed, "Labels: [intent: %s] [needs_help: yes] [frustration: %s]"
                 % (intent, rng.choice(["low", "medium", "high", "unclear"])), "Evidence span:"]
        lines.extend("  " + k for k in (c.kl if not short_error(c) else [flat(c.err)]))
        lines.append("Annotator note: %s" % rng.choice([
            "error visible in full, command in the line above",
            "user re-ran once before this segment",
            "clear failure; no sign the user knows the fix",
            "labelled needs_help because the user stopped typing afterwards"]))
        return "\n".join(lines)
    if v == 3:
        return ("ANNOTATION %s (%s)\nobserved_text: %s\nintent: %s\nsub_intent: %s\nneeds_help: yes\nevidence: '%s'"
                % (seg, ann, observed, intent, rng.choice(["fix_error", "resolve_error", "unblock_task", "setup_env"]),
                   ev))
    header = "segment_id\tobserved\tintent\tneeds_help\tevidence"
    return header + "\n" + "\t".join([seg, observed, intent, "yes", '"%s"' % ev.replace('"', '""')])


# ---------------------------------------------------------------------------
# style 10: multimodal_qa_pair
# ---------------------------------------------------------------------------

def s_qa(c, rng):
    cmd = cmd_or_none(c, rng, 0.8)
    v = rng.randrange(5)
    ans = inline_error(c, rng, 300)
    if v == 0:
        if cmd:
            return "Q: What error is shown in the terminal after the user runs %s? A: The terminal shows %s." % (code(cmd), code(ans))
        return "Q: What error is shown in the terminal? A: The terminal shows a traceback ending in %s." % code(c.last)
    if v == 1:
        if cmd:
            return ("<image>\nQuestion: Which command did the user just execute, and what was the result?\n"
                    "Answer: They executed %s; it failed with \"%s\"." % (code(cmd), ans))
        return ("<image>\nQuestion: What happened after the user's last command?\nAnswer: It failed with \"%s\"." % ans)
    if v == 2:
        qs = ["Q1: Which application is in focus?\nA1: %s, window title \"%s\"." % (c.term_app, c.title)]
        qs.append("Q2: What command was entered?\nA2: %s" % (code(cmd) if cmd else "Not visible in the frame."))
        block = "\n".join(c.kl) if not short_error(c) else c.err
        qs.append("Q3: What does the error message say?\nA3:\n%s" % block)
        return "\n".join(qs)
    if v == 3:
        what = ("ran %s and " % code(cmd)) if cmd else ""
        return ("USER: <image>\nWhat went wrong on this screen?\nASSISTANT: The user %sgot an error in the terminal. "
                "The output says: \"%s\"." % (what, ans))
    x1, y1 = rng.randrange(0, 200), rng.randrange(300, 700)
    out = ["Q: Read the last line of the terminal output.", "A: \"%s\"" % c.last]
    if c.hl != c.last:
        out += ["Q: Which line states the error?", "A: \"%s\" [bbox %d,%d,%d,%d]" % (c.hl, x1, y1, x1 + rng.randrange(600, 1400), y1 + 18)]
    if cmd:
        out += ["Q: What did the user type before this output?", "A: %s" % code(cmd)]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style 11: browser_extension_capture
# ---------------------------------------------------------------------------

def web_terminal(c, rng):
    """(platform, page title, url, shell prompt) of a plausible browser-hosted terminal."""
    home_paths = "/home/" in c.err
    proj = "%s-%d" % (rng.choice(["my-project", "sandbox", "dev-env", "acme-dev", "playground"]), rng.randrange(1000, 99999))
    opts = [
        ("Google Cloud Shell", "Cloud Shell", "https://shell.cloud.google.com/?hl=en_US&fromcloudshell=true&show=terminal",
         "%s@cloudshell:%s (%s)$ " % (c.user, c.tcwd, proj)),
        ("Google Cloud Shell", "Cloud Shell Editor - %s" % proj,
         "https://console.cloud.google.com/home/dashboard?project=%s&cloudshell=true" % proj,
         "%s@cloudshell:%s (%s)$ " % (c.user, c.tcwd, proj)),
        ("JupyterHub", "Terminal 1 - JupyterLab", "https://hub.%s.edu/user/%s/terminals/1" % (
            rng.choice(["datasci", "cs", "lab", "uni"]), c.user),
         "%s@jupyter-%s:%s$ " % (c.user, c.user, c.tcwd)),
        ("Cockpit", "Terminal - %s@%s" % (c.user, c.host), "https://%s:9090/system/terminal" % c.host, c.prompt),
        ("ttyd", "ttyd - Terminal", "https://%s.lan:7681/" % c.host, c.prompt),
    ]
    if not home_paths:
        cs = "%s-%s-%s" % (rng.choice(["fuzzy", "literate", "super", "urban", "shiny"]),
                           rng.choice(["space", "guide", "waffle", "fiesta", "goggles"]),
                           "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(12)))
        opts += [
            ("GitHub Codespaces", "%s [Codespaces: %s] - Visual Studio Code" % (c.proj, cs.rsplit("-", 1)[0].replace("-", " ")),
             "https://%s.github.dev/" % cs, "@%s ➜ /workspaces/%s (main) $ " % (c.user, c.proj)),
            ("AWS CloudShell", "CloudShell", "https://us-east-1.console.aws.amazon.com/cloudshell/home?region=us-east-1",
             "[cloudshell-user@ip-10-%d-%d-%d ~]$ " % (rng.randrange(0, 255), rng.randrange(0, 255), rng.randrange(1, 255))),
        ]
    return rng.choice(opts)


def s_browser(c, rng):
    cmd = cmd_or_none(c, rng, 0.6)
    platform, title, url, prompt = web_terminal(c, rng)
    sel = selection_block(c, rng, rng.choice([6, 10, 16]))
    sel = sel.replace("\t", "        ").strip("\n")  # xterm.js copies tabs as spaces
    has_cmd = bool(cmd) and rng.random() < 0.55
    if has_cmd:
        sel = (prompt if rng.random() < 0.6 else "$ ") + cmd + "\n" + sel
    when = iso(c.t_err + _dt.timedelta(seconds=rng.randrange(4, 60)), ms=False)
    v = rng.randrange(5)
    if v == 0:
        return ("[Web Clipper] captured %s\nPage title: %s\nURL: %s\nSelection:\n\"\"\"\n%s\n\"\"\"" % (when, title, url, sel))
    if v == 1:
        extra = ("\nlast_command_in_page: %s" % cmd) if cmd and not has_cmd else ""
        return ("capture_type: text_selection\nsite: %s\npage_title: \"%s\"\nurl: %s\ncaptured_at: %s%s\nselected_text: |\n%s"
                % (platform, title, url, when, extra, "\n".join("  " + l for l in sel.split("\n"))))
    if v == 2:
        return ("%s — %s\n%s\n\n> %s\n\n(selection, %d chars, from %s terminal)"
                % (title, platform, url, "\n> ".join(sel.split("\n")), len(sel), platform))
    if v == 3:
        hl = "Highlight saved from \"%s\" (%s)" % (title, url)
        note = ""
        if cmd and not has_cmd:
            note = "\nNote: typed %s just before this." % code(cmd)
        return "%s\n---\n%s\n---%s" % (hl, sel, note)
    tabs = rng.randrange(2, 14)
    return ("tab %d/%d | %s\nurl=%s\nevent=copy\nclipboard=%s"
            % (rng.randrange(1, tabs + 1), tabs, title, url, json.dumps(sel, ensure_ascii=False)))


# ---------------------------------------------------------------------------
# style 12: screen_diff_record
# ---------------------------------------------------------------------------

PREV_CMDS = ["ls", "clear", "git status", "cd %s", "ls -la", "cat README.md", "history | tail -3", "pwd"]


def s_diff(c, rng):
    cmd = cmd_or_none(c, rng, 0.8)
    v = rng.randrange(5)
    f1 = rng.randrange(100, 9000)
    dt = rng.uniform(0.5, 3.5)
    L = [l.replace("\t", "    ") for l in c.lines]
    rows = rng.choice([36, 44, 52])
    hunks = []
    if len(L) > rows:
        hunks.append(L[:rows // 2])
        hunks.append(L[rows // 2:])
    else:
        hunks.append(L)
    prompt = c.prompt.rstrip()
    out = []
    if v == 0:
        out.append("frame %05d → %05d (+%.1fs) app=%s window=\"%s\"" % (f1, f1 + 1, dt, c.term_proc, c.title))
        out.append("@@ terminal @@")
        if cmd:
            out.append("- %s█" % prompt)
            out.append("+ %s %s" % (prompt, cmd))
        for h_i, h in enumerate(hunks):
            if h_i:
                out.append("@@ terminal (scrolled) @@")
            out += ["+ " + l for l in h]
        out.append("+ %s █" % prompt)
        return "\n".join(out)
    if v == 1:
        n0 = rng.randrange(3, 20)
        out.append("diff screenshot_%d.png screenshot_%d.png  [%s]" % (f1, f1 + 1, c.term_app))
        if cmd:
            out.append("@@ -%d,1 +%d,%d @@ %s" % (n0, n0, len(L) + 2, c.title))
            out.append("- %s" % prompt)
            out.append("+ %s %s" % (prompt, cmd))
        else:
            out.append("@@ +%d,%d @@ %s" % (n0, len(L) + 1, c.title))
        for h in hunks:
            out += ["+ " + l for l in h]
        out.append("+ %s" % prompt)
        return "\n".join(out)
    if v == 2:
        if cmd:
            out.append("@@ %s | t=%s @@" % (c.term_app, ts(c.t_cmd)))
            out.append("+ %s %s" % (prompt, cmd))
        out.append("@@ %s | t=%s @@" % (c.term_app, ts(c.t_err)))
        for h_i, h in enumerate(hunks):
            if h_i:
                out.append("@@ %s | t=%s (output continued) @@" % (c.term_app, ts(add_ms(c.t_err, rng))))
            out += ["+ " + l for l in h]
        out.append("+ %s" % prompt)
        return "\n".join(out)
    if v == 3:
        prev = rng.choice(PREV_CMDS)
        if "%s" in prev:
            prev = prev % c.tcwd
        out.append("@@ window title @@")
        out.append("- %s" % (c.title if c.term_kind != "cwd" else "~"))
        out.append("+ %s" % (cmd if cmd and c.term_kind in ("userhost", "cwd") else c.title))
        out.append("@@ terminal (%d lines scrolled off) @@" % (min(len(L), rows) // 3 + 1))
        out.append("- %s %s" % (prompt, prev))
        if cmd:
            out.append("+ %s %s" % (prompt, cmd))
        for h in hunks:
            out += ["+ " + l for l in h]
        out.append("+ %s" % prompt)
        return "\n".join(out)
    out.append("@@ vscode: TERMINAL panel (%s) @@" % c.editor_file)
    if cmd:
        out.append("+ %s %s" % (prompt, cmd))
    for h in hunks:
        out += ["+ " + l for l in h]
    out.append("@@ vscode: status bar @@")
    out.append("- ⊗ 0 ⚠ 0")
    out.append("+ ⊗ 0 ⚠ 0  (terminal exited with code %d)" % c.code if rng.random() < 0.5 else "+ ⊗ 0 ⚠ 0")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# style 13: second_person_coach
# ---------------------------------------------------------------------------

def s_coach(c, rng):
    cmd = cmd_or_none(c, rng, 0.75)
    v = rng.randrange(5)
    nxt = next_activity(c, rng)
    cmd_s = code(cmd) if cmd else "your script"
    if v == 0:
        return "You ran %s and got %s. You then %s." % (cmd_s, code(inline_error(c, rng, 220)), nxt)
    if v == 1:
        return ("At %s you ran %s in %s. It failed with:\n```\n%s\n```\nAfterwards you %s."
                % (ts(c.t_cmd, "%H:%M"), cmd_s, code(c.tcwd), block_excerpt(c, rng, 10), nxt))
    if v == 2:
        n = rng.choice(["twice", "three times", "twice in a row"])
        return ("You've tried %s %s now; both times the terminal printed %s. You haven't changed any files in between."
                % (cmd_s, n, code(c.hl)))
    if v == 3:
        where = {"vscode": "VS Code's terminal", "jetbrains": "PyCharm's terminal"}.get(c.term_kind, c.term_app)
        f, l = first_last(c)
        ending = ("The output started with %s and ended with %s." % (code(f), code(l))) if len(c.lines) > 2 else (
            "The output was %s." % code(flat(c.err)))
        if len(c.lines) > 2 and c.hl not in (f, l):
            ending += " The line that matters is probably %s." % code(c.hl)
        return "Earlier, in %s, you ran %s. %s You haven't run anything since." % (where, cmd_s, ending)
    mins = rng.randrange(3, 25)
    quote = "\n".join("> " + k for k in (c.kl if not short_error(c) else c.lines))
    return ("You've been in the terminal for about %d minutes. Your last command, %s, exited with code %d and printed:\n%s\nThen you %s."
            % (mins, cmd_s, c.code, quote, nxt))


# ---------------------------------------------------------------------------
# style 14: timeline_bullets_with_durations
# ---------------------------------------------------------------------------

def dur_str(sec, rng, style):
    m, s = divmod(int(sec), 60)
    if style == 0:
        return "%d min" % max(1, round(sec / 60))
    if style == 1:
        return "%dm %02ds" % (m, s)
    return "0:%02d:%02d" % (m, s)


def s_bullets(c, rng):
    cmd = cmd_or_none(c, rng, 0.75)
    g = rng.choice(["•", "-", "▸", "*"])
    dst = rng.randrange(3)
    dash = rng.choice(["–", "-"])
    app = {"vscode": "VS Code", "wsl": "Windows Terminal", "jetbrains": "PyCharm"}.get(c.term_kind, rng.choice(["Terminal", c.term_app]))
    t_prev = c.t_cmd - _dt.timedelta(seconds=rng.randrange(120, 1500))
    t_term_end = c.t_err + _dt.timedelta(seconds=rng.randrange(30, 400))
    t_next_end = t_term_end + _dt.timedelta(seconds=rng.randrange(60, 900))

    def rng_(a, b):
        return "%s%s%s (%s)" % (ts(a, "%H:%M"), dash, ts(b, "%H:%M"), dur_str((b - a).total_seconds(), rng, dst))

    err = inline_error(c, rng, 200)
    ran = ("ran %s" % code(cmd)) if cmd else "ran a Python script"
    v = rng.randrange(5)
    prev = "%s %s VS Code %s editing %s" % (g, rng_(t_prev, c.t_cmd), "—", c.editor_file)
    nxt_app = rng.choice([c.browser, "Slack", "VS Code", "Files"])
    nxt_txt = {"Slack": "#dev-help", "VS Code": "editing %s" % c.editor_file, "Files": "browsing %s" % c.tcwd}.get(
        nxt_app, "searching \"%s\"" % cut(search_query(c), 60, ""))
    nxt = "%s %s %s — %s" % (g, rng_(t_term_end, t_next_end), nxt_app, nxt_txt)
    if v == 0:
        main = "%s %s %s — %s → failed: %s" % (g, rng_(c.t_cmd, t_term_end), app, ran, err)
        return "\n".join([prev, main, nxt])
    if v == 1:
        main = "%s %s %s — %s" % (g, rng_(c.t_cmd, t_term_end), app, ran)
        subs = ["    %s exit %d" % (g, c.code)] + ["    %s %s" % (g, k) for k in c.kl]
        return "\n".join([main] + subs + [nxt])
    if v == 2:
        cat = rng.choice(["Development", "Software Development", "Coding"])
        head = "%s — %s (%s)" % (c.t_err.strftime("%a %d %b"), cat, rng.choice(["ActivityWatch", "Timing", "RescueTime", "tracker"]))
        main = "%s %s %s · %s · %s → error: %s" % (g, rng_(c.t_cmd, t_term_end), app, c.tcwd, ran, err)
        return "\n".join([head, prev, main])
    if v == 3:
        main = "%s %s %s — %s, got an error" % (g, rng_(c.t_cmd, t_term_end), app, ran)
        quote = "      \"%s\"" % (c.hl if not short_error(c) else flat(c.err))
        return "\n".join([prev, main, quote, nxt])
    main = "%s %s %s: %s ✗ %s" % (g, rng_(c.t_cmd, t_term_end), app, (cmd or "python script"), err)
    return "\n".join([main, nxt])


# ---------------------------------------------------------------------------
# style 15: speech_to_text_narration
# ---------------------------------------------------------------------------

NUM_WORDS = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
             "7": "seven", "8": "eight", "9": "nine"}


def speak_cmd(cmd, rng):
    mode = rng.random()
    if mode < 0.3:
        return cmd  # modern ASR often gets it verbatim
    s = cmd
    s = s.replace("&&", " and and ").replace("|", " pipe ").replace(">", " greater than ").replace("<", " less than ")
    s = re.sub(r"(?<![\w-])--", " dash dash ", s)
    s = re.sub(r"(?<![\w-])-", " dash ", s)
    s = s.replace("~/", "tilde slash ").replace("/", " slash ").replace("_", " underscore ")
    s = s.replace("@", " at ").replace("=", " equals ").replace(":", " colon ")
    s = re.sub(r"(\w)\.(\w)", r"\1 dot \2", s)
    s = re.sub(r"(\w)\.(\w)", r"\1 dot \2", s)
    s = s.replace("'", "").replace('"', " quote ")
    if mode < 0.6:
        s = re.sub(r"python3", "python three", s)
    s = re.sub(r"\s+", " ", s).strip()
    return s


def speak_error(c, rng):
    t = body(c.hl)
    t = re.sub(r"https?://\S+", rng.choice(["some url", "a link", "h t t p s something"]), t)
    t = re.sub(r"\[|\]", " ", t)
    t = re.sub(r"/", " slash ", t)
    t = re.sub(r"^[\w./-]+:\d+(:\d+)?:\s*", "", t)
    t = camel_words(t)
    t = re.sub(r"[`'\"()\[\]{}<>]", "", t)
    t = re.sub(r"[:;,]", rng.choice([" ", ","]), t)
    words = t.split()
    n = rng.randrange(5, 13)
    spoken = " ".join(words[:n]).lower()
    return spoken


def s_speech(c, rng):
    cmd = cmd_or_none(c, rng, 0.6)
    v = rng.randrange(5)
    sc = speak_cmd(cmd, rng) if cmd else None
    se = speak_error(c, rng)
    filler = rng.choice(["um", "uh", "okay", "so", "right"])
    paste = inline_error(c, rng, 260) if rng.random() < 0.6 else "\n".join(c.kl)
    t = "%02d:%02d" % (rng.randrange(0, 30), rng.randrange(60))
    tag = rng.choice(["[transcriber: pasted from screenshot: %s]", "[pasted by transcriber: %s]",
                      "[error text from participant's screen recording: %s]", "[on screen: %s]"])
    bracket = tag % paste
    if v == 0:
        typed = ("and I type %s " % sc) if sc else "and I run the script "
        return ("%s so I'm in the terminal %sand it says %s %s and then a bunch more %s"
                % (filler, typed, se, rng.choice(["blah blah", "stuff", "", "lines"]), bracket)).replace("  ", " ")
    if v == 1:
        typed = ("Now I'm running %s. " % sc) if sc else "Now I'm running it again. "
        return ("[%s] Okay. %sAnd... it's red. It says %s, hmm. %s" % (t, typed, se, bracket))
    if v == 2:
        typed = ("running %s" % sc) if sc else "running my python file"
        return ("speaker 1: %s alright so this is where it breaks i'm %s period and the output is %s "
                "i don't know what that means %s" % (filler, typed, se, bracket))
    if v == 3:
        typed = ("I typed %s, hit enter" % sc) if sc else "I hit enter"
        return ("P%02d (voice memo, %s): So %s, and it's giving me this error again, %s, something something. "
                "I'll paste it. %s" % (rng.randrange(1, 30), ts(c.t_err, "%H:%M"), typed, se, bracket))
    typed = ("%s enter" % sc) if sc else "up arrow enter"
    return ("%s %s %s ... error ... %s ... why %s" % (t, filler, typed, se, bracket))


# ---------------------------------------------------------------------------
# style 16: low_resource_translation
# ---------------------------------------------------------------------------

def s_translate(c, rng):
    cmd = cmd_or_none(c, rng, 0.7)
    v = rng.randrange(7)
    err = inline_error(c, rng, 260) if rng.random() < 0.55 else None
    block = block_excerpt(c, rng, 10)
    q = err if err is not None else None
    if v == 0:  # Chinese source
        head = "[机器翻译 zh→en] "
        c1 = ("User in terminal window input command `%s`, after press Enter key, " % cmd) if cmd else "User in terminal window run Python script, "
        body = ("screen appear error information: \"%s\". User then is looking at this error, not continue operation." % q) if q else (
            "screen appear following error information:\n%s\nUser then is looking at this error." % block)
        return head + c1 + body
    if v == 1:  # Spanish
        c1 = ("The user executes the command «%s» in the terminal and this one returns" % cmd) if cmd else "The user executes his script in the terminal and this one returns"
        body = (" the following error: «%s». Next the user remains reading the exit." % q) if q else (
            " the following error:\n%s\nNext the user remains reading the exit." % block)
        return "(translated automatically from Spanish) " + c1 + body
    if v == 2:  # German
        c1 = ("The user gives in the terminal the command „%s“ in." % cmd) if cmd else "The user leads in the terminal a Python script out."
        body = (" Thereupon appears the error message „%s“." % q) if q else (" Thereupon appears following error message:\n%s" % block)
        return "[DE→EN] " + c1 + body + " The user has the window still in the foreground."
    if v == 3:  # Russian
        c1 = ("User launched in terminal command «%s»." % cmd) if cmd else "User launched in terminal script."
        body = (" On screen appeared error: «%s». " % q) if q else (" On screen appeared error:\n%s\n" % block)
        return "Observation (translation from Russian): " + c1 + body + "Further actions of user are absent."
    if v == 4:  # Japanese
        c1 = ("User is, in the terminal, `%s` was executed." % cmd) if cmd else "User is, in the terminal, the script was executed."
        body = (" As a result, following error was displayed: 「%s」" % q) if q else (" As a result, following error was displayed:\n%s" % block)
        return "[自動翻訳 ja→en] " + c1 + body
    if v == 5:  # Portuguese
        c1 = ("The user rode the command \"%s\" in the terminal" % cmd) if cmd else "The user rode the script in the terminal"
        body = (" and received the following mistake: \"%s\"." % q) if q else (" and received the following mistake:\n%s" % block)
        return "Registry of activity (pt-BR → en): " + c1 + body + " Soon after he stayed stopped in the screen."
    # French
    c1 = ("The user has launched the command « %s » in the terminal" % cmd) if cmd else "The user has launched his script in the terminal"
    body = (", and this last one has displayed the error following: « %s »." % q) if q else (
        ", and this last one has displayed the error following:\n%s" % block)
    return "[traduit automatiquement] " + c1 + body


STYLE_FUNCS = {
    "gpt_style_narration": s_gpt,
    "claude_style_summary": s_claude,
    "terse_event_caption": s_terse,
    "json_observation_record": s_json,
    "xml_accessibility_event": s_xml,
    "keylogger_plus_ocr": s_keylog,
    "session_timeline_table": s_table,
    "diary_study_entry": s_diary,
    "intent_annotation": s_intent,
    "multimodal_qa_pair": s_qa,
    "browser_extension_capture": s_browser,
    "screen_diff_record": s_diff,
    "second_person_coach": s_coach,
    "timeline_bullets_with_durations": s_bullets,
    "speech_to_text_narration": s_speech,
    "low_resource_translation": s_translate,
}


def deal(n_cases):
    rng = random.Random(DECK_SEED)
    deck = []
    pairs = []
    for _ in range(n_cases):
        pair = []
        for _ in range(2):
            if not deck:
                deck = STYLES[:]
                rng.shuffle(deck)
            pair.append(deck.pop())
        pairs.append(pair)
    return pairs


def main():
    cases = load_cases()
    pairs = deal(len(cases))
    rows = []
    for (fname, idx, err, cmd), pair in zip(cases, pairs):
        assert pair[0] != pair[1]
        for slot, style in enumerate(pair):
            rng = random.Random("%s|%d|%d|%s" % (fname, idx, slot, style))
            ctx = make_ctx(fname, idx, err, cmd, rng)
            text = STYLE_FUNCS[style](ctx, rng)
            rows.append({"file": fname, "case": idx, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote %d rows to %s" % (len(rows), OUT))


if __name__ == "__main__":
    main()
