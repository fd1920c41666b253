#!/usr/bin/env python3
"""Write bench/help_phrasings_unseen.jsonl: unseen-style phrasings of the held-out help cases.

What it writes
    One JSON object per line:
        {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<observation>"}
    For every ``[[case]]`` table of every ``bench/help_heldout/set*.toml`` file
    (``case`` is the 0-based index of the table in its file) three rows are
    written, each in a different style.  The text is ONE observation: the case's
    error happening (usually after its command) as a particular kind of writer,
    tool or export would put it on a screen or in a record of someone's
    activity -- a GitHub issue form, a Jira comment, an e-mail reply quoting the
    error, a Slack message, a paste into an AI chat, an image description,
    subtitles of a screencast, an error-tracker issue, a test runner's failure
    report, CI annotations, a runbook record, an org-mode note, a LaTeX lab
    report, a time-tracker CSV export, a terminal window dump, a browser search
    tab, a code-review bot, a passive-voice weekly report, a clipboard manager
    and a tmux session.  Error text is copied verbatim except where a style
    really alters it (terminal/subtitle/e-mail line wrapping, CSV quoting,
    flattening onto one line, HTML/LaTeX escaping of prose) or where the writer
    drops lines they would not bother to copy.

Blind writer
    This script was written without reading the code that reads these texts
    (assistant/, watcher/, app/, eval/, models/, ui/, tests/,
    bench/help_quality.py) and without reading the other phrasing sets
    (bench/help_phrasings*.jsonl) or their writers (bench/write_help_phrasings*.py).
    Only the ``command`` and ``error`` fields of each case are used; ``expect``
    and ``source`` are never put into the text.

Files read while writing it
    bench/help_heldout/set1.toml .. set9.toml (the cases), and a few sessions
    under /work/shared/data/proactivebench/sessions/*.json to see how a
    recorded-activity dataset words on-screen events.

How to run (from the repository root; stdlib only, deterministic)
    python3 bench/write_help_phrasings_unseen.py
"""

import csv
import datetime
import glob
import io
import json
import os
import random
import re
import textwrap
import tomllib
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_GLOB = os.path.join(HERE, "help_heldout", "set*.toml")
OUT = os.path.join(HERE, "help_phrasings_unseen.jsonl")
SEED = 61127
PER_CASE = 3

# --------------------------------------------------------------------------
# pools of surrounding noise
# --------------------------------------------------------------------------

PEOPLE = [
    "Priya Natarajan", "Jonas Weber", "Amara Okafor", "Keiko Tanaka", "Lucas Moreau",
    "Sofia Rossi", "Mateo García", "Hannah Schmidt", "Oluwaseun Adeyemi", "Mei Lin",
    "Tomás Novák", "Fatima Zahra", "Liam O'Brien", "Ingrid Solberg", "Ravi Kumar",
    "Chloé Dubois", "Daniel Kim", "Aisha Bello", "Marek Kowalski", "Elena Petrova",
    "Sam Carter", "Noor Haddad", "Ben Li", "Julia Santos",
]
HOSTS = ["thinkpad", "laptop", "devbox", "x1", "workstation", "nuc", "framework", "dev-vm"]
CHANNELS = ["#dev-help", "#backend", "#infra", "#team-platform", "#random-tech", "#build-failures",
            "#ask-engineering", "#interns"]
OSES = ["Ubuntu 22.04", "Ubuntu 24.04", "Debian 12", "Fedora 40", "Pop!_OS 22.04",
        "Linux Mint 21.3", "WSL2 (Ubuntu 22.04)"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def rdt(r):
    base = datetime.datetime(2024, 1, 8, 8, 0, 0)
    return base + datetime.timedelta(days=r.randrange(0, 640), minutes=r.randrange(0, 11 * 60),
                                     seconds=r.randrange(0, 60))


def slug(s, n=30):
    s = re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_").lower()
    return s[:n].strip("_") or "run"


def first_name(p):
    return p.split()[0]


def handle(p):
    p = unicodedata.normalize("NFKD", p).encode("ascii", "ignore").decode("ascii")
    parts = p.lower().replace("'", "").split()
    return parts[0] + "." + parts[-1]


# --------------------------------------------------------------------------
# reading an error the way a person skims it
# --------------------------------------------------------------------------

NOISE_RE = re.compile(
    r"A complete log of this run|could not compile `|^For more information about this error"
    r"|^compilation terminated|collect2: error|ld returned|\[Help 1\] http|Re-run Maven|To see the full stack"
    r"|^\s*note:|^\s*hint:|^Node\.js v|^\d+ errors?$|^Aborting$|^exit status|Run '.*--help'"
    r"|Failed with result|failed to push some refs|subprocess-exited-with-error|metadata-generation-failed"
    r"|\*\*\* \[.*\] Error \d|^See |^Failed to build |^\s*\[end of output\]|For a full report see"
    r"|You can rerun the command|^ERROR: Job failed|Scheduled restart job|^\s*\^[\^~ -]*$|error here -+\^$"
)
EXC_RE = re.compile(r"^[A-Za-z_][\w.$]*(Error|Exception|Exit|Interrupt|Warning|Fault)(\s*\[[\w ]+\])?: \S")
KEYWORDS_RE = re.compile(
    r"denied|not found|No such file|[Cc]annot|[Uu]nable|[Ff]ailed|refused|[Ii]nvalid|[Mm]issing"
    r"|not allowed|[Ff]orbidden|CONFLICT|conflict|rejected|unsupported|already|undefined|mismatch"
    r"|not defined|does not exist|unknown|Unknown|not a |did not match|bad |expected|Expected"
    r"|no such|No matching|could not|Could not|masked|unresolved|incompatible|exceeded|can't|couldn't|deprecated"
    r"|no longer|not specified"
    r"|CrashLoopBackOff|ImagePullBackOff|OOMKilled|multiple definition|undefined reference"
)
JOURNAL_PREFIX_RE = re.compile(r"^\w{3} +\d+ [\d:]+ \S+ [^:]*\[\d+\]: ")


def score_line(line, is_tb):
    line = JOURNAL_PREFIX_RE.sub("", line)
    t = line.strip()
    if not t or re.fullmatch(r"\[?(ERROR|error|npm error|npm ERR!|E|ERR)\]?:?", t):
        return -99
    s = 0
    if EXC_RE.match(t) and not line.startswith(" "):
        s += 6 + (3 if is_tb else 0)
    if re.match(r"^error(\[E\d+\])?: ", t):
        s += 5
    if re.match(r"^(fatal|FATAL|E|ERROR|Error|error|psql: error|ERROR \d+ \(\w+\))[: ]", t):
        s += 4
    if re.search(r"\.(java|c|go|ts|rs|h|cpp|py|js):\d+(:\d+)?:? (fatal )?error", t):
        s += 4
    if re.search(r"\b(fatal error|error|ERROR|Error|ERR!)\b", t):
        s += 2
    if KEYWORDS_RE.search(t):
        s += 2
    if NOISE_RE.search(line):
        s -= 9
    if line[:1] in (" ", "\t"):
        s -= 1
    if t.endswith(":"):
        s -= 1
    if t.startswith("File \"") or t.startswith("at "):
        s -= 4
    return s


def key_index(lines):
    is_tb = any(ln.startswith("Traceback (most recent call last)") or "Traceback (most recent call last)" in ln
                for ln in lines)
    best, bi = None, 0
    for i, ln in enumerate(lines):
        sc = score_line(ln, is_tb)
        # tracebacks: later exception lines win ties; everything else: earliest wins
        if best is None or sc > best or (is_tb and sc == best and EXC_RE.match(JOURNAL_PREFIX_RE.sub("", ln).strip() or "-")):
            best, bi = sc, i
    return bi


def clean_lines(err):
    lines = [ln.rstrip() for ln in err.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return lines


def last_meaningful(lines):
    for i in range(len(lines) - 1, -1, -1):
        ln = lines[i]
        if not ln.strip() or NOISE_RE.search(ln) or re.match(r"^\s+at |^\s*\[\.\.\.\]$|^\s*\.\.\.$", ln):
            continue
        if re.fullmatch(r"\s*\[?(ERROR|error|npm error|npm ERR!|E)\]?:?\s*", ln):
            continue
        return i
    return len(lines) - 1


def trimmed(lines):
    """Drop the lines people usually do not bother to paste."""
    k = key_index(lines)
    out = []
    tb = any("Traceback (most recent call last)" in ln for ln in lines)
    if tb:
        frames = [i for i, ln in enumerate(lines) if ln.lstrip().startswith('File "')]
        keep_from = frames[-1] if frames else 0
        for i, ln in enumerate(lines):
            if "Traceback (most recent call last)" in ln or i >= keep_from:
                out.append(ln)
            elif i < (frames[0] if frames else 0):
                out.append(ln)
    else:
        skip_next = False
        seen_at = False
        for ln in lines:
            s = ln.strip()
            if skip_next:
                skip_next = False
                continue
            if re.match(r"^at .*(node:internal|\(node:)", s) or (s.startswith("at ") and seen_at):
                continue
            if s.startswith("at "):
                seen_at = True
            if re.match(r"^Node\.js v", s) or "A complete log of this run" in s:
                continue
            if re.match(r"^npm (error|ERR!)\s*$", s):
                continue
            if "For a full report see" in s:
                skip_next = True
                continue
            if not s and out and not out[-1].strip():
                continue
            out.append(ln)
    while out and not out[-1].strip():
        out.pop()
    if len(out) > 22:
        k = key_index(out)
        lo, hi = max(0, k - 3), min(len(out), k + 5)
        head = out[:3] if lo > 3 else out[:lo]
        out = head + (["[...]"] if lo > 3 else []) + out[lo:hi] + (["[...]"] if hi < len(out) else [])
    return out or lines


def key_ctx(lines):
    k = key_index(lines)
    out = [lines[k]]
    for ln in lines[k + 1:k + 6]:
        if not ln.strip() or NOISE_RE.search(ln) and not ln.strip().startswith("^"):
            break
        if re.match(r"^\s+at ", ln):
            break
        out.append(ln)
    return out


def ends(lines, sep):
    k = key_index(lines)
    lm = last_meaningful(lines)
    idx = sorted({0, k, lm})
    out = []
    prev = None
    for i in idx:
        if prev is not None and i != prev + 1:
            out.append(sep)
        out.append(lines[i])
        prev = i
    return out


def excerpt(r, lines, weights, sep="..."):
    """Pick how much of the error the writer copies.  weights: mode -> weight."""
    modes = list(weights)
    mode = r.choices(modes, [weights[m] for m in modes])[0]
    if len(lines) <= 2:
        return list(lines)
    if mode == "full":
        return list(lines)
    if mode == "trim":
        return trimmed(lines)
    if mode == "key":
        return [lines[key_index(lines)]]
    if mode == "key_ctx":
        return key_ctx(lines)
    if mode == "ends":
        return ends(lines, sep)
    return list(lines)


def flatten(lines, joiner=" "):
    return joiner.join(re.sub(r"\s+", " ", ln.strip()) for ln in lines if ln.strip())


def wrap_hard(lines, width):
    out = []
    for ln in lines:
        ln = ln.expandtabs(8)
        if not ln:
            out.append("")
        while len(ln) > width:
            out.append(ln[:width])
            ln = ln[width:]
        if ln:
            out.append(ln)
    return out


def quote_inline(r, s, md=False):
    pairs = [("\"", "\""), ("“", "”"), ("'", "'"), ("‘", "’"), ("«", "»"), ("«\u00a0", "\u00a0»")]
    w = [4, 4, 2, 1, 1, 0.3]
    if md:
        pairs.append(("`", "`"))
        w.append(6)
    a, b = r.choices(pairs, w)[0]
    return a + s + b


# --------------------------------------------------------------------------
# context a writer would know from their own screen
# --------------------------------------------------------------------------

def context(file, idx, case, r):
    cmd = (case.get("command") or "").strip()
    err = case["error"]
    lines = clean_lines(err)
    m = re.search(r"/home/([a-z][\w.-]*)/", err)
    user = m.group(1) if m else r.choice(["dev", "dev", "dev", "me", "alex"])
    proj = None
    m = re.search(r"/home/[\w.-]+/(?:projects/|src/|code/)?([\w.-]+)/", err)
    if m and m.group(1) not in (".npm", ".cache", ".local", ".kube", ".ssh", ".cargo", "go"):
        proj = m.group(1)
    if not proj:
        m = re.search(r"could not compile `([\w-]+)`|While resolving: ([\w-]+)@", err)
        if m:
            proj = m.group(1) or m.group(2)
    if not proj:
        proj = r.choice(["project", "app", "work", "repo", "code/service", "src/tools", "scratch"])
    m = re.search(r"^\w{3} \d+ [\d:]+ ([\w.-]+) ", err, re.M)
    host = m.group(1) if m else r.choice(HOSTS)
    words = cmd.split()
    tool = ""
    for w in words:
        if w in ("sudo", "time", "env") or "=" in w:
            continue
        tool = os.path.basename(w)
        break
    return {
        "file": file, "idx": idx, "cmd": cmd, "lines": lines, "key": lines[key_index(lines)] if lines else "",
        "user": user, "proj": proj, "host": host, "tool": tool,
    }


def tool_family(tool):
    t = tool.lower()
    if t.startswith("python") or t.startswith("pyhton") or t in ("pip", "pip3", "pipx", "pytest"):
        return "python"
    if t in ("npm", "npx", "node", "yarn", "pnpm", "tsc"):
        return "node"
    if t in ("cargo", "rustc", "rustup"):
        return "rust"
    if t == "go":
        return "go"
    if t in ("javac", "java", "mvn", "gradle", "./gradlew", "gradlew"):
        return "java"
    if t in ("docker", "docker-compose", "podman"):
        return "docker"
    if t in ("kubectl", "helm", "minikube", "kind"):
        return "kubernetes"
    if t in ("psql", "mysql", "sqlite3", "redis-cli", "pg_dump"):
        return "database"
    if t in ("ssh", "scp", "rsync", "ssh-add", "ssh-keygen", "sftp"):
        return "ssh"
    if t in ("gcc", "g++", "make", "cmake", "clang", "ld"):
        return "c"
    if t in ("systemctl", "journalctl", "service"):
        return "systemd"
    if t in ("git", "gti"):
        return "git"
    if t in ("apt", "apt-get", "dpkg"):
        return "apt"
    if t in ("ruby", "rails", "bundle", "gem", "rbenv", "rake"):
        return "ruby"
    return "shell"


def prompt(c, shell="bash"):
    if shell == "zsh":
        return f"{c['user']}@{c['host']} {os.path.basename(c['proj'])} % "
    if shell == "fish":
        return f"{c['user']}@{c['host']} ~/{c['proj']}> "
    return f"{c['user']}@{c['host']}:~/{c['proj']}$ "


def exit_code(r, c):
    text = "\n".join(c["lines"])
    if "command not found" in text or ": not found" in text:
        return 127
    if tool_family(c["tool"]) == "rust":
        return 101
    return r.choice([1, 1, 1, 1, 2])


def cmd_or(c, alt="the command"):
    return c["cmd"] or alt


# --------------------------------------------------------------------------
# the styles
# --------------------------------------------------------------------------

def s_github_issue_form(r, c):
    ex = excerpt(r, c["lines"], {"full": 5, "trim": 3, "key_ctx": 1})
    cmd = cmd_or(c)
    fam = tool_family(c["tool"])
    key = c["key"].strip()
    titles = [
        f"[Bug]: `{cmd}` fails",
        f"[Bug]: {key if len(key) <= 120 else key[:117] + '...'}",
        f"{key if len(key) <= 120 else key[:117] + '...'}",
        f"Can't run `{cmd}` on a fresh checkout",
        f"[Bug]: error when running {cmd}",
        "Build broken after pulling latest main",
    ]
    out = [r.choice(titles), ""]
    if r.random() < 0.5:
        out += [f"{c['user']} opened this issue {r.choice(['yesterday', '2 days ago', 'last week', 'now', '5 hours ago'])} · {r.randrange(0, 6)} comments", ""]
    out += ["### Describe the bug", "",
            r.choice([
                f"Running `{cmd}` stops with an error straight away.",
                "Following the README, I get an error at the very first step.",
                f"`{cmd}` fails for me every time. Worked last week.",
                "I'm new to this so apologies if this is something obvious.",
                f"When I run {cmd} in the project folder it crashes.",
            ]), ""]
    out += ["### Steps to reproduce", ""]
    steps = [r.choice([f"`cd {c['proj']}`", "Clone the repository", "Pull latest `main`", "Open a terminal in the project folder"])]
    steps.append(f"Run `{cmd}`")
    steps.append(r.choice(["See error", "Error appears", "Observe the output below"]))
    out += [f"{i + 1}. {s}" for i, s in enumerate(steps)] + [""]
    out += ["### Expected behavior", "", r.choice([
        "It should complete without errors.", "The command succeeds.", "No error.",
        "I expected it to just work like on my colleague's machine.", "_No response_"]), ""]
    out += [r.choice(["### Actual behavior", "### Relevant log output", "### Error output"]), ""]
    fence = r.choice(["```", "```shell", "```text", "```console"])
    body = ex
    if fence == "```console" and c["cmd"]:
        body = ["$ " + c["cmd"]] + ex
    out += [fence] + body + ["```", ""]
    out += ["### Environment", "", f"- OS: {r.choice(OSES)}"]
    if fam == "python":
        out.append("- Python: " + r.choice(["3.11", "3.11.2", "3.12.3", "whatever ships with the OS"]))
    elif fam == "node":
        out.append("- Node: " + r.choice(["v20", "20.x", "v20.20.2"]))
    elif fam == "rust":
        out.append("- rustc: " + r.choice(["stable", "1.7x", "latest stable"]))
    out.append("- Shell: " + r.choice(["bash", "zsh", "bash 5.2"]))
    if r.random() < 0.5:
        out += ["", "### Additional context", "", r.choice(["_No response_", "Happens on CI too.", "Only on my machine so far.", "_No response_"])]
    if r.random() < 0.4:
        out += ["", "### Code of Conduct", "", "- [x] I agree to follow this project's Code of Conduct"]
    return "\n".join(out)


def s_jira_noformat(r, c):
    p1, p2 = r.sample(PEOPLE, 2)
    d = rdt(r)
    key = f"{r.choice(['PLAT', 'OPS', 'WEB', 'DATA', 'CORE', 'INFRA', 'APP'])}-{r.randrange(40, 2900)}"
    stamp = f"{d.day:02d}/{MONTHS[d.month - 1]}/{d.year % 100:02d} {d.hour % 12 or 12}:{d.minute:02d} {'AM' if d.hour < 12 else 'PM'}"
    ex = excerpt(r, c["lines"], {"full": 5, "trim": 3, "ends": 1, "key_ctx": 1}, sep="...")
    out = []
    if r.random() < 0.6:
        out += [f"{key} · {r.choice(['Comment', 'Activity', 'Comments'])}", ""]
    out.append(f"{p1} added a comment - {stamp}")
    cmd = c["cmd"]
    lead = r.choice([
        f"[~{handle(p2)}] tried again on {r.choice(['my machine', 'the staging box', c['host'], 'the build VM'])}, {{{{{cmd}}}}} still fails:",
        f"Reproduced. Ran {{{{{cmd}}}}} and got:",
        f"Still blocked on this. Output of {{{{{cmd}}}}} below.",
        f"[~{handle(p2)}] this is what I see when running {{{{{cmd}}}}}:",
        "Same error as before, pasting the output:",
    ]) if cmd else "Pasting the output:"
    out.append(lead)
    if r.random() < 0.3 and cmd:
        out += ["{code:bash}", cmd, "{code}"]
    blk = r.choice([("{noformat}", "{noformat}"), ("{code}", "{code}"), ("{code:title=output}", "{code}"),
                    ("{noformat}", "{noformat}")])
    out += [blk[0]] + ex + [blk[1]]
    out.append(r.choice([
        "Moving back to *In Progress*.", "Any idea? Blocking the release for now.",
        f"[~{handle(p2)}] can you have a look when you get a chance?", "Full log attached.", "",
        "Will pair with someone on this tomorrow.",
    ]))
    if r.random() < 0.4:
        out += ["", f"{p2} added a comment - {stamp[:-8]}{(d.hour + 1) % 12 or 12}:{r.randrange(10, 59)} {'AM' if d.hour + 1 < 12 else 'PM'}",
                r.choice(["Looking.", "(y) will check after standup", "Which branch are you on?"])]
    return "\n".join(ln for ln in out if ln is not None).rstrip()


def s_quoted_reply(r, c):
    p1, p2 = r.sample(PEOPLE, 2)
    d = rdt(r)
    ex = excerpt(r, c["lines"], {"full": 5, "trim": 3, "key_ctx": 1, "ends": 1}, sep="[...]")
    wrap = r.random() < 0.35
    subj = r.choice(["Re: build broken on my machine", "Re: quick question", "Re: setup problems",
                     f"Re: {c['tool'] or 'script'} not working", "RE: deployment tomorrow", "Re: [team] help needed"])
    out = []
    if r.random() < 0.5:
        out += [f"Subject: {subj}", f"From: {p2} <{handle(p2)}@example.com>", ""]
    out += [r.choice(["Hi " + first_name(p1) + ",", "Hey,", first_name(p1) + " -", "Hello " + first_name(p1) + ","]), ""]
    out += [r.choice([
        "I'm seeing exactly the same thing here, so it's not just you.",
        "Thanks for sending this. I'll have a look after lunch.",
        "No idea offhand, but I've forwarded it to the platform team.",
        "Did you ever get past this? I hit it too this morning.",
        "Can you check which version you have installed? I can't reproduce it.",
    ]), "", "Cheers,", first_name(p2), ""]
    when = f"On {DAYS[d.weekday()]}, {d.day} {MONTHS[d.month - 1]} {d.year} at {d.hour:02d}:{d.minute:02d}, {p1} <{handle(p1)}@example.com> wrote:"
    out.append(when)
    q = []
    q.append(r.choice(["Hi all,", "Hi,", "Quick one:", "Hey " + first_name(p2) + ","]))
    q.append("")
    if c["cmd"]:
        q.append(r.choice(["After pulling the latest changes I ran", "I'm trying to run", "When I run", "Running"]))
        q.append("")
        q.append("    " + c["cmd"])
        q.append("")
        q.append(r.choice(["and it fails with:", "and I get this:", "and the output is:", "which gives me"]))
    else:
        q.append("I get this error:")
    q.append("")
    body = ex
    if wrap:
        body = []
        for ln in ex:
            if len(ln) > 74:
                body += textwrap.wrap(ln, 72, break_long_words=False, break_on_hyphens=False) or [ln]
            else:
                body.append(ln)
    q += body
    q += ["", r.choice(["Any ideas?", "Any idea what I'm doing wrong?", "Thanks in advance!", "Is this a known thing?"])]
    if r.random() < 0.2:
        q = [">" + (" " + ln if ln else "") for ln in q]
    out += [">" + (" " + ln if ln else "") for ln in q]
    return "\n".join(out)


def s_slack_blockquote(r, c):
    p1, p2, p3 = r.sample(PEOPLE, 3)
    d = rdt(r)
    t = f"{d.hour % 12 or 12}:{d.minute:02d} {'AM' if d.hour < 12 else 'PM'}"
    ex = excerpt(r, c["lines"], {"full": 3, "trim": 3, "key": 3, "key_ctx": 2, "ends": 1}, sep="…")
    out = []
    if r.random() < 0.5:
        out += [r.choice(CHANNELS), ""]
    if r.random() < 0.4:
        out += [f"{p3}  {d.hour % 12 or 12}:{max(0, d.minute - 3):02d} {'AM' if d.hour < 12 else 'PM'}",
                r.choice(["standup in 10 :coffee:", "lunch anyone?", "PR is up for the pagination thing, reviews welcome",
                          "reminder: staging freeze at 3"]), ""]
    out.append(f"{p1}  {t}")
    cmd = c["cmd"]
    if cmd:
        out.append(r.choice([
            f"hey, anyone seen this? running `{cmd}` and getting",
            f"getting this when I do `{cmd}` :thinking_face:",
            f"`{cmd}` blows up with",
            f"sorry for the noise but `{cmd}` gives me",
            f"quick q — what does this mean? (after `{cmd}`)",
        ]))
    else:
        out.append("anyone seen this before?")
    out += ["> " + ln if ln.strip() else ">" for ln in ex]
    out.append(r.choice(["tried reinstalling, no luck", "worked yesterday :upside_down_face:", "", "any pointers appreciated :pray:",
                         "on " + r.choice(OSES) + " if that matters"]))
    if r.random() < 0.45:
        out += ["", f"{p2}  {d.hour % 12 or 12}:{min(59, d.minute + 2):02d} {'AM' if d.hour < 12 else 'PM'}",
                r.choice([":eyes:", "hmm, let me check", "which branch?", "can you paste the whole output?", "oof, seen that one, give me a sec"])]
    if r.random() < 0.3:
        out.append(r.choice(["2 replies", "1 reply  Last reply today at " + t, ":eyes: 2"]))
    return "\n".join(ln for ln in out).strip()


def s_ai_chat_paste(r, c):
    ex = excerpt(r, c["lines"], {"full": 6, "trim": 2, "key": 1, "key_ctx": 1})
    cmd = c["cmd"]
    who = r.choice([("User:", "Assistant:"), ("You said:", "ChatGPT said:"), ("Me:", "AI:"), ("You", "Claude"),
                    ("Human:", "Assistant:"), (">>> user", ">>> assistant")])
    ask = r.choice([
        "why does this fail?", "what does this error mean and how do I fix it", "help", "??",
        "I keep getting this, what am I doing wrong", "explain this error pls",
        "this worked yesterday, now this. why", "fix this",
    ])
    out = []
    if r.random() < 0.35:
        out += [r.choice(["New chat", "Untitled conversation", "Debugging help", "Today"]), ""]
    style = r.randrange(4)
    if style == 0:
        out += [who[0], ask, ""]
        if cmd:
            out.append("$ " + cmd)
        out += ex
    elif style == 1:
        out += [who[0] + " " + ask]
        if cmd:
            out.append(f"I ran {cmd} and got:")
        out += [""] + ex
    elif style == 2:
        out += [who[0]]
        out += ex
        out += ["", ask + (f" (this is from `{cmd}`)" if cmd else "")]
    else:
        out += [who[0], "```"] + (["$ " + cmd] if cmd else []) + ex + ["```", ask]
    out += ["", who[1]]
    if r.random() < 0.4:
        out.append(r.choice(["Thinking…", "…", "▍"]))
    return "\n".join(out)


def s_image_alt_text(r, c):
    ex = excerpt(r, c["lines"], {"full": 3, "trim": 3, "key": 3, "key_ctx": 2})
    n = len(c["lines"])
    term = r.choice(["a dark terminal window", "a terminal window with a black background", "a GNOME Terminal window",
                     "a macOS Terminal window", "the VS Code integrated terminal", "a terminal with green text on black"])
    head = r.choice(["Image description: ", "[Image description: ", "Alt text: ", "ID: ", "Image: "])
    tail = "]" if head.startswith("[") else ""
    s = f"{head}Screenshot of {term}"
    if r.random() < 0.5:
        s += f" titled “{c['user']}@{c['host']}: ~/{c['proj']}”"
    s += ". "
    if c["cmd"]:
        s += r.choice([f"The prompt shows the command {c['cmd']}",
                       f"At the top, someone has typed “{c['cmd']}”",
                       f"The last command entered is {c['cmd']}"])
        many = n > 1 and n < 12
        s += r.choice([", followed by ", ". Below it " + ("are " if many else "is "), ". Under that there " + ("are " if many else "is ")])
    else:
        s += "It shows "
    s += ("one line of output" if n == 1 else f"{n} lines of output" if n < 12 else "a long block of output")
    if re.search(r"error|Error|ERR", "\n".join(c["lines"])) and r.random() < 0.5:
        s += r.choice([", some of it in red", ", with the word error highlighted in red", ""])
    s += ". "
    if len(ex) == 1:
        s += r.choice(["The last line reads: ", "The key line reads: ", "The line that stands out reads: ", "It says: "])
        s += "“" + ex[0].strip() + "”"
    else:
        s += r.choice(["The text reads, line by line: ", "The text reads: ", "Transcribed text: "])
        s += " / ".join(ln.strip() for ln in ex if ln.strip())
    if not s.endswith((".", "”")):
        s += "."
    if r.random() < 0.4:
        s += " " + r.choice(["A blinking cursor sits on the next prompt.", "The mouse pointer hovers over the error.",
                             "A browser window is partly visible behind it.", "The rest of the screen is empty."])
    return s + tail


def _srt_time(ms, vtt):
    h, ms = divmod(ms, 3600000)
    m, ms = divmod(ms, 60000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{'.' if vtt else ','}{ms:03d}"


def s_srt_subtitles(r, c):
    vtt = r.random() < 0.3
    spoken = []
    if c["cmd"]:
        spoken.append(r.choice([f"So now let's run {c['cmd']} and see what happens.",
                                f"Okay, I'll type {c['cmd']} and hit enter.",
                                f"Let's try {c['cmd']}.",
                                f"And now we run {c['cmd']}."]))
    key = c["key"].strip()
    spoken.append(r.choice(["Hmm.", "And... that's not good.", "Okay, so that failed.", "Oh no.", "Right."]))
    spoken.append(r.choice([f"It says \"{key}\".", f"It's saying {key}", f"So the error is: {key}",
                            f"You can see here: \"{key}\"."]))
    if r.random() < 0.5 and len(c["lines"]) > 1:
        ex = excerpt(r, c["lines"], {"trim": 2, "key_ctx": 2, "ends": 1}, sep="...")
        spoken.append("[ON SCREEN: " + flatten(ex) + "]")
    spoken.append(r.choice(["Let's figure out why.", "I've seen this one before, actually.",
                            "Let me scroll up a bit.", "This is a really common one.", "Pause the video if you want to read it."]))
    cues = []
    for sent in spoken:
        wrapped = textwrap.wrap(sent, 42, break_long_words=True, break_on_hyphens=False)
        for i in range(0, len(wrapped), 2):
            cues.append(wrapped[i:i + 2])
    t = r.randrange(40, 900) * 1000 + r.randrange(0, 1000)
    n0 = r.randrange(3, 120)
    out = ["WEBVTT", ""] if vtt else []
    for i, cue in enumerate(cues):
        dur = 1200 + 45 * sum(len(x) for x in cue) + r.randrange(0, 400)
        out.append(str(n0 + i))
        out.append(f"{_srt_time(t, vtt)} --> {_srt_time(t + dur, vtt)}")
        out += cue
        out.append("")
        t += dur + r.randrange(80, 700)
    return "\n".join(out).rstrip()


def s_error_tracker(r, c):
    lines = c["lines"]
    key = c["key"].strip()
    m = EXC_RE.match(key)
    d = rdt(r)
    fam = tool_family(c["tool"])
    out = []
    events = r.choice([1, 2, 3, 7, 14, 38, 112])
    if m:
        etype, _, msg = key.partition(": ")
        out += [etype, msg]
        culprit = None
        frames = [ln for ln in lines if ln.lstrip().startswith('File "')]
        if frames:
            fm = re.search(r'File "([^"]+)", line (\d+), in (\S+)', frames[-1])
            if fm:
                culprit = f"{os.path.basename(fm.group(1))} in {fm.group(3)} at line {fm.group(2)}"
        at = [ln.strip() for ln in lines if ln.strip().startswith("at ") and "node:internal" not in ln]
        if not culprit and at:
            am = re.match(r"at (\S+) \(([^)]+?):(\d+):\d+\)", at[0])
            if am:
                culprit = f"{am.group(1)}({os.path.basename(am.group(2))})"
        if culprit:
            out.append(culprit)
    else:
        out += [r.choice(["CalledProcessError", "CommandFailed", "Error"]),
                f"Command '{c['cmd']}' returned non-zero exit status {exit_code(r, c)}." if c["cmd"] else key]
        out.append(r.choice(["run_step in ops/runner.py", "tasks.nightly", "deploy.sh", "scheduler.jobs.run"]))
    out.append("")
    out.append(" · ".join([r.choice(["Unhandled", "Unresolved", "Ongoing", "New"]),
                           f"First seen {r.choice(['2 hours ago', 'yesterday', '3 days ago', '14 min ago'])}",
                           f"Last seen {r.choice(['just now', '3 min ago', '1 hour ago'])}",
                           f"{events} event{'s' if events > 1 else ''}",
                           (lambda u: f"{u} user{'s' if u > 1 else ''}")(min(events, r.choice([1, 1, 2, 4])))]))
    tags = [f"environment: {r.choice(['production', 'staging', 'dev', 'local'])}",
            f"server_name: {c['host']}", f"release: {c['proj'].split('/')[-1]}@{r.randrange(0, 3)}.{r.randrange(0, 20)}.{r.randrange(0, 9)}"]
    if fam == "python":
        tags.append(f"runtime: CPython {r.choice(['3.11.2', '3.11.9', '3.12.3'])}")
    elif fam == "node":
        tags.append("runtime: node v20.20.2")
    r.shuffle(tags)
    out.append("   ".join(tags))
    out.append("")
    if m:
        out.append(r.choice(["STACK TRACE", "Stack Trace", "EXCEPTION"]) + r.choice(["", "  (most recent call first)", "  ▾ Full"]))
        ex = excerpt(r, lines, {"full": 3, "trim": 3})
        out += ex
    else:
        out.append("BREADCRUMBS")
        ts = d
        if c["cmd"]:
            out.append(f"{ts:%H:%M:%S}  process   info    exec: {c['cmd']}")
        ex = excerpt(r, lines, {"full": 3, "trim": 3, "key_ctx": 1})
        crumbs = [ln.strip() for ln in ex if ln.strip() and not re.fullmatch(r"[\^~|\s-]+", ln.strip())]
        if len(crumbs) > 8:
            crumbs = ["…"] + crumbs[-8:]
        for ln in crumbs:
            out.append(f"{ts:%H:%M:%S}  stderr    error   {ln}")
        out += ["", "ADDITIONAL DATA", "stderr"] + ["  " + ln for ln in ex]
    return "\n".join(out).rstrip()


def s_test_runner_summary(r, c):
    ex = excerpt(r, c["lines"], {"full": 4, "trim": 4, "key_ctx": 1})
    cmd = c["cmd"] or "./run"
    name = slug(cmd)
    kind = r.choice(["pytest", "pytest", "bats", "jest"])
    if kind == "pytest":
        passed = r.randrange(3, 60)
        w = 80
        title = f" test_{name} "
        out = ["=" * 35 + " FAILURES " + "=" * 35,
               title.center(w, "_"), "",
               f"    def test_{name}():",
               f"        result = run({cmd!r})",
               ">       assert result.returncode == 0, result.stderr"]
        first = ex[0] if ex else ""
        out.append("E       AssertionError: " + first)
        for ln in ex[1:]:
            out.append("E         " + ln)
        rc = exit_code(r, c)
        out.append(f"E       assert {rc} == 0")
        out.append(f"E        +  where {rc} = CompletedProcess(args={cmd!r}, returncode={rc}, stdout='', stderr='...').returncode")
        out += ["", f"tests/test_smoke.py:{r.randrange(10, 120)}: AssertionError"]
        out.append(" short test summary info ".center(w, "="))
        out.append(f"FAILED tests/test_smoke.py::test_{name} - AssertionError: {first.strip()}")
        out.append(f" 1 failed, {passed} passed in {r.uniform(0.5, 40):.2f}s ".center(w, "="))
        return "\n".join(out)
    if kind == "bats":
        out = [f"{r.choice(['test/smoke.bats', 'tests/integration.bats'])}",
               f" ✓ {r.choice(['prints usage', 'shows version', 'lint passes'])}",
               f" ✗ {cmd} succeeds",
               f"   (in test file test/smoke.bats, line {r.randrange(5, 80)})",
               "     `[ \"$status\" -eq 0 ]' failed"]
        out += ["   " + ln for ln in ex]
        out += ["", f"{r.randrange(2, 12)} tests, 1 failure"]
        return "\n".join(out)
    out = [" FAIL  test/smoke.test.js", f"  ● smoke › {cmd} exits cleanly", "",
           f"    Command failed: {cmd}"]
    out += ["    " + ln if ln else "" for ln in ex]
    out += ["", f"      {r.randrange(8, 40)} |   it('{cmd} exits cleanly', () => {{",
            f"    > {r.randrange(41, 60)} |     execSync({json.dumps(cmd)}, {{ stdio: 'pipe' }});",
            "         |     ^", "",
            f"      at Object.<anonymous> (test/smoke.test.js:{r.randrange(10, 60)}:5)", "",
            "Test Suites: 1 failed, 1 total",
            f"Tests:       1 failed, {r.randrange(1, 30)} passed, {r.randrange(31, 40)} total",
            f"Time:        {r.uniform(0.8, 9):.3f} s"]
    return "\n".join(out)


def s_gha_annotations(r, c):
    d = rdt(r)
    ex = excerpt(r, c["lines"], {"full": 6, "trim": 2})
    key = c["key"]
    azure = r.random() < 0.3
    out = []
    t = d

    def ts():
        nonlocal t
        t = t + datetime.timedelta(milliseconds=r.randrange(1, 900))
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}{r.randrange(1000, 9999)}Z "

    stamp = r.random() < 0.6
    p = ts if stamp else (lambda: "")
    cmd = cmd_or(c, "./ci.sh")
    if azure:
        out += [p() + "##[section]Starting: " + r.choice(["Build", "Run tests", "Deploy", "Script"]),
                p() + "=" * 60, p() + "Task         : Command line", p() + "=" * 60,
                p() + "Generating script.", p() + "Script contents:", p() + cmd,
                p() + "========================== Starting Command Output ==========================",
                p() + '[command]/usr/bin/bash --noprofile --norc /home/vsts/work/_temp/' + f"{r.getrandbits(32):08x}.sh"]
    else:
        out += [p() + "##[group]Run " + cmd, p() + cmd,
                p() + "shell: /usr/bin/bash -e {0}"]
        if r.random() < 0.5:
            out += [p() + "env:", p() + "  CI: true"]
        out.append(p() + "##[endgroup]")
    for ln in ex:
        if ln == key and r.random() < 0.6:
            out.append(p() + ("##[error]" if not azure else "##[error]") + ln.strip())
        else:
            out.append(p() + ln)
    code = exit_code(r, c)
    if azure:
        out.append(p() + f"##[error]Bash exited with code '{code}'.")
        out.append(p() + "##[section]Finishing: Script")
    else:
        out.append(p() + f"##[error]Process completed with exit code {code}.")
    return "\n".join(out)


def s_runbook_step(r, c):
    p = r.choice(PEOPLE)
    d = rdt(r)
    fam = tool_family(c["tool"])
    goal = {
        "python": "Run the data job", "node": "Start the Node service", "rust": "Build the release binary",
        "go": "Build the Go service", "java": "Build the Java artifact", "docker": "Bring up the containers",
        "kubernetes": "Apply manifests to the cluster", "database": "Prepare the database", "ssh": "Connect to the target host",
        "c": "Compile the native component", "systemd": "Check the service", "git": "Sync the repository",
        "apt": "Install system packages", "ruby": "Prepare the Ruby app", "shell": "Run the helper script",
    }[fam]
    n = r.randrange(2, 9)
    total = n + r.randrange(1, 6)
    ex = excerpt(r, c["lines"], {"full": 4, "trim": 4, "key_ctx": 1, "ends": 1}, sep="...")
    out = [f"Runbook: {r.choice(['Staging deploy', 'New laptop setup', 'Release checklist', 'Nightly recovery', 'Onboarding — dev environment'])} (rev {r.randrange(3, 40)})",
           f"Executed by {p} on {d:%Y-%m-%d %H:%M}", ""]
    done = r.sample(['Check out the release branch', 'Announce in #deploys', 'Verify VPN is up', 'Pull latest changes',
                     'Confirm disk space', 'Read the changelog', 'Take a backup', 'Open the monitoring dashboard'], n - 1)
    for i in range(1, n):
        out.append(f"  [x] Step {i}: {done[i - 1]}")
    out.append(f"  [!] Step {n} of {total}: {goal}")
    if c["cmd"]:
        out.append(f"      Command: {c['cmd']}")
    out.append(f"      Result: FAILED ({r.choice(['non-zero exit', 'exit 1', 'aborted', 'error'])})")
    out.append("      Output:")
    out += ["        " + ln if ln else "" for ln in ex]
    out.append("      Operator note: " + r.choice([
        "stopped here, escalated in #infra.", "retried once, same result.", "no change since last run, leaving for the owner.",
        "skipping remaining steps until this is sorted.", "not in the known-issues section."]))
    todo = r.sample(['Smoke test', 'Update status page', 'Notify QA', 'Tag the release', 'Clean up'], 3)
    for j, i in enumerate(range(n + 1, min(total, n + 3) + 1)):
        out.append(f"  [ ] Step {i}: {todo[j]}")
    return "\n".join(out)


def s_org_mode(r, c):
    d = rdt(r)
    d2 = d + datetime.timedelta(minutes=r.randrange(3, 50))
    ex = excerpt(r, c["lines"], {"full": 4, "trim": 3, "key": 2, "key_ctx": 1})
    wd = DAYS[d.weekday()]
    head = r.choice(["TODO", "TODO", "NEXT", "WAITING", ""])
    title = r.choice([f"fix {c['tool'] or 'build'} error in {c['proj'].split('/')[-1]}",
                      f"figure out why {c['cmd'] or 'it'} fails", "debug setup", f"{c['proj'].split('/')[-1]}: broken"])
    tag = r.choice([":work:", ":dev:", ":bug:", ":homelab:", ":course:", ""])
    h = "* " + (head + " " if head else "") + title
    if tag:
        h = h.ljust(62) + " " + tag
    out = [h]
    if r.random() < 0.5:
        out.append(f"  SCHEDULED: <{d:%Y-%m-%d} {wd}>")
    if r.random() < 0.6:
        mins = int((d2 - d).total_seconds() // 60)
        out += ["  :LOGBOOK:",
                f"  CLOCK: [{d:%Y-%m-%d} {wd} {d:%H:%M}]--[{d2:%Y-%m-%d} {DAYS[d2.weekday()]} {d2:%H:%M}] =>  {mins // 60}:{mins % 60:02d}",
                "  :END:"]
    if c["cmd"]:
        out.append("  " + r.choice([f"ran ={c['cmd']}=, got:", f"~{c['cmd']}~ fails:", f"output of ={c['cmd']}=:",
                                    f"after ~{c['cmd']}~"]))
    else:
        out.append("  got:")
    if len(ex) == 1 and r.random() < 0.5:
        out.append("  : " + ex[0])
    elif r.random() < 0.3:
        out += ["  #+begin_src shell :results output", "  " + (c["cmd"] or ""), "  #+end_src", "", "  #+RESULTS:"]
        out += ["  : " + ln if ln else "  :" for ln in ex]
    else:
        out.append("  #+begin_example")
        out += ["  " + ln if ln else "" for ln in ex]
        out.append("  #+end_example")
    out += [r.choice(["  - [ ] look into it", "  - [ ] ask on chat", "  - [ ] search for it", "  - [ ] check the docs", ""])]
    if r.random() < 0.4:
        out.append("* " + r.choice(["TODO reply to landlord", "DONE groceries", "TODO read chapter 4", "TODO book dentist"]))
    return "\n".join(out).rstrip()


LATEX_ESC = {"\\": r"\textbackslash{}", "_": r"\_", "%": r"\%", "&": r"\&", "#": r"\#", "$": r"\$",
             "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def tex_escape(s):
    return "".join(LATEX_ESC.get(ch, ch) for ch in s)


def s_latex_verbatim(r, c):
    ex = excerpt(r, c["lines"], {"full": 5, "trim": 3, "ends": 1}, sep="...")
    n = r.randrange(1, 7)
    cmd = c["cmd"]
    out = [r.choice([f"\\subsection*{{Exercise {n}}}", "\\section{Results}", "\\subsection{Problems encountered}",
                     f"\\paragraph{{Task {n}.}}"])]
    if cmd:
        use_verb = r.random() < 0.4
        delim = next((ch for ch in "|!+@=" if ch not in cmd), None)
        if use_verb and delim:
            cm = f"\\verb{delim}{cmd}{delim}"
        else:
            cm = f"\\texttt{{{tex_escape(cmd)}}}"
        out.append(r.choice([
            f"When the program was executed with {cm}, the following output was obtained:",
            f"Running {cm} did not succeed; the terminal showed",
            f"Unfortunately {cm} failed with the error below.",
            f"As shown below, the command {cm} terminated with an error.",
        ]))
    else:
        out.append("The following error was obtained:")
    env = r.choice(["verbatim", "verbatim", "lstlisting"])
    if env == "lstlisting":
        out.append(r.choice(["\\begin{lstlisting}[basicstyle=\\small\\ttfamily]", "\\begin{lstlisting}"]))
    else:
        out.append("\\begin{verbatim}")
    out += ex
    out.append(f"\\end{{{env}}}")
    out.append(r.choice([
        "We were not able to resolve this during the lab session.",
        "This is discussed further in Section~\\ref{sec:discussion}.",
        "Because of this, the remaining measurements could not be taken.",
        "The cause of this error is analysed below.",
        "(See also Figure~\\ref{fig:terminal}.)",
    ]))
    return "\n".join(out)


def s_timesheet_csv(r, c):
    d = rdt(r)
    tsv = r.random() < 0.3
    ex = excerpt(r, c["lines"], {"key": 4, "key_ctx": 2, "trim": 1})
    note = flatten(ex, r.choice([" ", " ", " | ", " ⏎ "]))
    proj = c["proj"].split("/")[-1]
    client = r.choice(["Internal", "Acme Corp", "Globex", "Personal", "Uni", "Initech"])
    desc = r.choice(["debugging", "setup", "fixing build", "investigating error", "dev env"])
    if c["cmd"]:
        desc = f"{desc}: {r.choice(['', 'ran '])}{c['cmd']} -> {note}"
    else:
        desc = f"{desc}: {note}"
    rows = [["Date", "Client", "Project", "Description", "Start", "End", "Duration", "Tags"]]
    prev = d - datetime.timedelta(minutes=r.randrange(20, 120))
    pm = (d - prev).seconds // 60
    rows.append([f"{prev:%Y-%m-%d}", client, proj, r.choice(["standup", "code review", "emails", "planning"]),
                 f"{prev:%H:%M}", f"{d:%H:%M}", f"{pm // 60}:{pm % 60:02d}", "meeting"])
    end = d + datetime.timedelta(minutes=r.randrange(10, 95))
    mins = (end - d).seconds // 60
    rows.append([f"{d:%Y-%m-%d}", client, proj, desc, f"{d:%H:%M}", f"{end:%H:%M}", f"{mins // 60}:{mins % 60:02d}",
                 r.choice(["dev", "bug", "dev,blocked", ""])])
    if r.random() < 0.5:
        e2 = end + datetime.timedelta(minutes=r.randrange(30, 90))
        rows.append([f"{end:%Y-%m-%d}", client, proj, r.choice(["docs", "lunch", "pairing"]), f"{end:%H:%M}", f"{e2:%H:%M}",
                     f"{(e2 - end).seconds // 3600}:{(e2 - end).seconds // 60 % 60:02d}", ""])
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t" if tsv else ",", lineterminator="\n")
    for row in rows:
        w.writerow(row)
    return buf.getvalue().rstrip("\n")


def s_window_dump(r, c):
    kind = r.choice(["mac", "gnome", "wt", "vscode"])
    ex = excerpt(r, c["lines"], {"full": 7, "trim": 1})
    width = r.choice([80, 80, 100, 120])
    rows = r.choice([40, 48, 50, 60])
    out = []
    if kind == "mac":
        out += [r.choice(["Terminal  Shell  Edit  View  Window  Help", ""]),
                f"{os.path.basename(c['proj'])} — -zsh — {width}×{rows}"]
        if r.random() < 0.5:
            d = rdt(r)
            out.append(f"Last login: {DAYS[d.weekday()]} {MONTHS[d.month - 1]} {d.day:2d} {d:%H:%M:%S} on ttys00{r.randrange(0, 9)}")
        pr = prompt(c, "zsh")
    elif kind == "gnome":
        out += [f"{c['user']}@{c['host']}: ~/{c['proj']}", "File  Edit  View  Search  Terminal  Help"]
        pr = prompt(c)
    elif kind == "wt":
        out += [f"{c['user']}@{c['host']}: ~/{c['proj']}  ×   +  ˅", ""]
        pr = prompt(c)
    else:
        out += [f"{r.choice(['main.py', 'README.md', 'index.js', 'Makefile', 'config.yml'])} — {os.path.basename(c['proj'])} — Visual Studio Code",
                "PROBLEMS   OUTPUT   DEBUG CONSOLE   TERMINAL   PORTS", f"  bash - {os.path.basename(c['proj'])}  +  ∨"]
        pr = prompt(c)
    body = []
    if c["cmd"]:
        body.append(pr + c["cmd"])
    body += ex
    body.append(pr)
    body = wrap_hard(body, width)
    if len(body) > rows:
        body = body[-rows:]  # the top has scrolled out of the window
    out += body
    if out[0] == "":
        out = out[1:]
    return "\n".join(out)


def s_search_tab(r, c):
    key = c["key"].strip()
    q = key
    if r.random() < 0.35:
        # people strip their own paths out of what they search for
        q = re.sub(r"/home/[\w./-]+", "", q).strip()
        q = re.sub(r"\s{2,}", " ", q)
    if r.random() < 0.2 and c["tool"]:
        q = f"{c['tool']} {q}"
    if r.random() < 0.25:
        q = '"' + q + '"'
    engine = r.choice(["google", "google", "ddg", "bing"])
    browser = r.choice(["Mozilla Firefox", "Google Chrome", "Chromium", "Brave", ""])
    qt = q if len(q) <= 70 else q[:67] + "..."
    if engine == "google":
        title = f"{qt} - Google Search"
    elif engine == "ddg":
        title = f"{qt} at DuckDuckGo"
    else:
        title = f"{qt} - Search"
    out = [title + (f" — {browser}" if browser else "")]
    other = r.sample(["Inbox (3) - Gmail", "GitHub", "Stack Overflow", "Docs", "localhost:3000", "YouTube", "Jira", "ChatGPT"], 2)
    out.append("Tabs: " + "  |  ".join(other + ["▸ " + (title if len(title) < 40 else title[:37] + "…")]))
    url = {"google": "https://www.google.com/search?q=", "ddg": "https://duckduckgo.com/?q=", "bing": "https://www.bing.com/search?q="}[engine]
    enc = re.sub(r"[^A-Za-z0-9._~-]", lambda m: "+" if m.group(0) == " " else f"%{ord(m.group(0)):02X}" if ord(m.group(0)) < 128 else m.group(0), q)
    if r.random() < 0.6:
        out.append(url + enc[:180])
    out.append("Search box: " + q)
    if engine == "google":
        out.append(f"About {r.randrange(2, 900):,},{r.randrange(0, 999):03d} results ({r.uniform(0.2, 0.7):.2f} seconds)")
    short = key if len(key) <= 80 else key[:77] + " ..."
    fam = tool_family(c["tool"])
    repo = r.choice({
        "python": ["pypa/pip", "python/cpython", "psf/requests"], "node": ["npm/cli", "nodejs/node", "vitejs/vite"],
        "rust": ["rust-lang/rust", "rust-lang/cargo"], "go": ["golang/go"], "java": ["apache/maven", "gradle/gradle"],
        "docker": ["docker/compose", "moby/moby", "docker/cli"], "kubernetes": ["kubernetes/kubectl", "helm/helm"],
        "database": ["sqlitebrowser/sqlitebrowser", "docker-library/postgres"], "ssh": ["PowerShell/Win32-OpenSSH"],
        "c": ["microsoft/vscode-cpptools", "Kitware/CMake"], "systemd": ["systemd/systemd"], "git": ["git-for-windows/git", "desktop/desktop"],
        "apt": ["microsoft/WSL"], "ruby": ["rails/rails", "rbenv/rbenv", "jekyll/jekyll"], "shell": ["microsoft/WSL", "koalaman/shellcheck"],
    }[fam])
    res = [f"{fam} - {short} - Stack Overflow" if fam not in ("shell", "apt", "c", "ssh") else f"{short} - Stack Overflow",
           f"{short} · Issue #{r.randrange(100, 9999)} · {repo} - GitHub",
           f"How to fix \"{short}\" - {r.choice(['DEV Community', 'Medium', 'Baeldung', 'DigitalOcean', 'Ask Ubuntu', 'Server Fault', 'Super User'])}"]
    r.shuffle(res)
    out += res[:r.randrange(1, 4)]
    return "\n".join(out)


def s_review_bot(r, c):
    ex = excerpt(r, c["lines"], {"full": 5, "trim": 4, "key_ctx": 1})
    sha = f"{r.getrandbits(28):07x}"
    cmd = cmd_or(c, "make ci")
    if r.random() < 0.45:
        ps = r.randrange(1, 9)
        out = [f"{r.choice(['Zuul', 'Jenkins CI', 'Build Bot', 'CI Bot'])}",
               f"Patch Set {ps}: Verified-1", "",
               "Build failed." if r.random() < 0.5 else "Build failed. For information on how to proceed, see the wiki.", "",
               f"https://ci.example.org/job/{slug(c['proj'], 20)}-check/{r.randrange(100, 9000)}/ : FAILURE in {r.randrange(1, 19)}m {r.randrange(0, 59)}s",
               "", f"Step `{cmd}` failed:", ""]
        out += ["    " + ln if ln else "" for ln in ex]
        return "\n".join(out)
    bot = r.choice(["github-actions", "ci-bot", "buildkite", "review-bot", "drone"])
    out = [f"{bot} bot commented on {r.choice(['this pull request', 'commit ' + sha])}",
           "", f"### ❌ Check `{r.choice(['build', 'test', 'lint', 'ci / build (ubuntu-latest)', 'integration'])}` failed on {sha}", "",
           r.choice([f"The step `{cmd}` exited with a non-zero status.", f"`{cmd}` failed.", "One or more steps failed."]), ""]
    if r.random() < 0.6:
        out += [f"<details><summary>Output of <code>{cmd.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')}</code></summary>", "", "```"]
        out += ex + ["```", "", "</details>"]
    else:
        out += ["```"] + ex + ["```"]
    out += ["", r.choice(["_Re-run with `/retest`._", "Comment `/retry` to run again.", "🤖 This comment is updated automatically.", ""])]
    return "\n".join(out).rstrip()


def s_passive_report(r, c):
    wk = r.randrange(2, 50)
    proj = c["proj"].split("/")[-1]
    ex = excerpt(r, c["lines"], {"key": 5, "key_ctx": 2, "trim": 2, "ends": 1}, sep="[...]")
    block = len(ex) > 1 or r.random() < 0.3
    out = [r.choice([f"Weekly status report — week {wk}", f"Progress report ({proj}), week {wk}", "Status update",
                     f"Week {wk} summary"]), ""]
    out.append(r.choice(["Completed:", "Done this week:", "Progress:"]))
    out += ["- " + x for x in r.sample(["The onboarding documentation was reviewed.", "Two pull requests were merged.",
                                        "The staging database was refreshed.", "Test coverage was increased slightly.",
                                        "Meeting notes were circulated.", "The dependency audit was started."], 2)]
    out += ["", r.choice(["Issues:", "Blockers:", "Risks / issues:"])]
    cm = f"`{c['cmd']}`" if r.random() < 0.5 else quote_inline(r, c["cmd"])
    if c["cmd"]:
        lead = r.choice([f"- When {cm} was run, the following error was reported",
                         f"- An error was encountered when {cm} was executed",
                         f"- Progress on {proj} was blocked, as {cm} was found to fail",
                         f"- It was observed that {cm} could not be completed"])
    else:
        lead = "- An error was reported"
    if block:
        out.append(lead + ":")
        out += ["    " + ln if ln else "" for ln in ex]
    else:
        out.append(lead + ": " + quote_inline(r, ex[0].strip()) + ".")
    out.append(r.choice(["  The cause has not yet been identified; further investigation is planned.",
                         "  This is being looked into.", "  A workaround has not yet been found.",
                         "  Help has been requested from the platform team."]))
    out += ["", "Next week:", "- " + r.choice(["The issue above will be investigated.", "Release preparation will be continued.",
                                               "Remaining tickets will be triaged."])]
    return "\n".join(out)


def s_clipboard_history(r, c):
    ex = excerpt(r, c["lines"], {"full": 5, "trim": 2, "key": 3, "key_ctx": 1})
    app = r.choice(["CopyQ", "Maccy", "Ditto", "Clipboard History", "GPaste", "Klipper", "Paste"])
    entries = []
    text = "\n".join(ex)
    entries.append(text)
    if c["cmd"]:
        entries.append(c["cmd"])
    entries += r.sample(["https://stackoverflow.com/questions/", "git status", "localhost:8080",
                         "thanks, will do!", "ls -la", "192.168.1.12", "Meeting notes 14/03", "sudo apt update",
                         "def main():", "password reset link"], 3)
    order = list(range(len(entries)))
    # the error was copied most recently, or just before something else
    if r.random() < 0.35:
        order[0], order[1] = order[1], order[0]
    ages = ["just now", "1 min ago", "3 min ago", "12 min ago", "1 hr ago", "yesterday"]
    out = [app + r.choice(["", " — History", " (⌘⇧V)", " — 25 items"])]
    if r.random() < 0.5:
        out.append("Search: ")
    for i, k in enumerate(order):
        e = entries[k]
        pv = flatten(e.split("\n"))
        if len(pv) > 60:
            pv = pv[:59] + "…"
        out.append(f"{i + 1:>2}  {pv.ljust(60)}  {ages[i]}")
    sel = order.index(0)
    out += ["", f"Preview (item {sel + 1}, {len(text)} chars, {len(ex)} line{'s' if len(ex) > 1 else ''}):"]
    out += ex
    return "\n".join(out)


def s_tmux_pane(r, c):
    d = rdt(r)
    ex = excerpt(r, c["lines"], {"full": 7, "trim": 2})
    width = r.choice([90, 100, 120, 140])
    sess = r.choice([c["proj"].split("/")[-1], "0", "work", "main", "dev"])
    wins = ["vim", "bash", "logs", "htop", "zsh", "ssh", "psql"]
    r.shuffle(wins)
    nwin = r.randrange(2, 5)
    active = r.randrange(0, nwin)
    names = wins[:nwin]
    fam = tool_family(c["tool"])
    names[active] = "ssh" if fam in ("ssh",) else ("bash" if r.random() < 0.6 else "zsh")
    status = f"[{sess}] " + " ".join(f"{i}:{n}{'*' if i == active else ('-' if i == (active - 1) % nwin else '')}" for i, n in enumerate(names))
    right = f"\"{c['host']}\" {d:%H:%M} {d.day:02d}-{MONTHS[d.month - 1]}-{d.year % 100:02d}"
    status = status.ljust(width - len(right)) + right
    body = []
    if r.random() < 0.4:
        prev_cmd, prev_out = r.choice([("git status -sb", ["## main...origin/main", " M README.md"]),
                                       ("ls", ["Makefile  README.md  src  tests"]),
                                       ("git log --oneline -2", [f"{r.getrandbits(28):07x} (HEAD -> main) wip", f"{r.getrandbits(28):07x} fix typo in docs"]),
                                       ("clear", [])])
        body += [prompt(c) + prev_cmd] + prev_out
    if c["cmd"]:
        body.append(prompt(c) + c["cmd"])
    body += ex
    body.append(prompt(c))
    body = wrap_hard(body, width)
    height = r.choice([38, 45, 52, 60])
    if len(body) > height:
        body = body[-height:]  # older lines are above the visible part of the pane
    out = []
    if r.random() < 0.3:
        fname, first = r.choice([("main.py", "import os"), ("deploy.sh", "#!/usr/bin/env bash"), ("main.go", "package main"),
                                 ("src/main.rs", "fn main() {"), ("Cargo.toml", "[package]"), ("notes.md", "# TODO")])
        top = ["   1 " + first, "   2 ", "~", "~", f"{fname}  1,1  All"]
        out += top + ["─" * width]
    out += body
    if r.random() < 0.5:
        out += [""] * r.randrange(1, 3)
    out.append(status)
    return "\n".join(out)


STYLES = [
    ("github_issue_form", s_github_issue_form),
    ("jira_noformat", s_jira_noformat),
    ("quoted_reply", s_quoted_reply),
    ("slack_blockquote", s_slack_blockquote),
    ("ai_chat_paste", s_ai_chat_paste),
    ("image_alt_text", s_image_alt_text),
    ("srt_subtitles", s_srt_subtitles),
    ("error_tracker", s_error_tracker),
    ("test_runner_summary", s_test_runner_summary),
    ("gha_annotations", s_gha_annotations),
    ("runbook_step", s_runbook_step),
    ("org_mode", s_org_mode),
    ("latex_verbatim", s_latex_verbatim),
    ("timesheet_csv", s_timesheet_csv),
    ("window_dump", s_window_dump),
    ("search_tab", s_search_tab),
    ("review_bot", s_review_bot),
    ("passive_report", s_passive_report),
    ("clipboard_history", s_clipboard_history),
    ("tmux_pane", s_tmux_pane),
]


def main():
    rng = random.Random(SEED)
    counts = {name: 0 for name, _ in STYLES}
    fns = dict(STYLES)
    rows = []
    for path in sorted(glob.glob(SRC_GLOB), key=lambda p: int(re.search(r"(\d+)", os.path.basename(p)).group(1))):
        fname = os.path.basename(path)
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for idx, case in enumerate(data.get("case", [])):
            # least-used styles first, ties broken by the seeded generator
            order = sorted(counts, key=lambda s: (counts[s], rng.random()))
            chosen = order[:PER_CASE]
            for style in chosen:
                counts[style] += 1
                r = random.Random(f"{SEED}:{fname}:{idx}:{style}")
                c = context(fname, idx, case, r)
                text = fns[style](r, c)
                rows.append({"file": fname, "case": idx, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {os.path.relpath(OUT)}")
    for name, _ in STYLES:
        print(f"  {name:22s} {counts[name]}")


if __name__ == "__main__":
    main()
