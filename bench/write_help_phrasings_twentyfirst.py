# ruff: noqa  (a generated-data script kept as its blind writer wrote it)
"""Write bench/help_phrasings_twentyfirst.jsonl: two renderings per help case, theme
"where errors end up after they happen" (trackers, observability exports, IDE and
notebook records, Windows and cross-platform terminals, benchmark data sets).

Styles (16):
  sentry_issue_copy          - a Sentry issue page selected and copied as text: title, culprit, stats,
                               tag key/value pairs, the Raw stack trace or Message, breadcrumbs/argv.
  tracker_alert_mail         - an error-tracker notification mail (Honeybadger, Rollbar or Bugsnag):
                               headers, subject built from the error, body with the output, a link.
  datadog_log_csv            - a Datadog Log Explorer "Export to CSV": either one aggregated event whose
                               Message cell holds the whole output, or one row per line, newest first.
  journalctl_json_records    - `journalctl -u <unit> -o json` (optionally --output-fields / -n), one
                               compact JSON record per output line, MESSAGE carrying the line.
  vscode_problems_copy       - VS Code Problems panel "Copy": `[{ ... }]` tab-indented JSON with
                               resource/owner/code/severity/message/positions as a problem matcher saw them.
  nbconvert_markdown_cell    - a notebook exported with `jupyter nbconvert --to markdown`: the `!cmd` or
                               `%%bash` cell in a ```python fence, its output indented four spaces.
  eclipse_console_view       - Eclipse Console view copy: `<terminated> ... [Program]/[Java Application]/
                               [Python Run]` title line, or a CDT Build Console with its **** banners.
  spyder_ipython_console     - Spyder's IPython console: optional banner, `In [n]: !cmd`, the output,
                               the next empty `In [n+1]:` prompt.
  putty_session_log          - a putty.log ("Printable output"): the =~=~= header, optional login,
                               bash prompts, CRLF line ends as the pty sent them.
  cmd_exe_wsl_hop            - a cmd.exe (conhost) window copy: banner, `C:\\Users\\x>wsl ...` (one-shot
                               or interactive), tabs expanded and long lines hard-wrapped at 120 columns.
  pwsh_ssh_windows_terminal  - a Windows Terminal PowerShell 7 tab: `PS C:\\...> ssh host`, motd, the
                               remote bash prompt and output; tabs expanded, trailing blanks trimmed.
  hf_trajectory_row          - one row of a Hugging Face coding-agent trajectory data set as JSON
                               (SWE-agent steps, OpenHands action/observation events, or chat messages).
  annotator_event_array      - benchmark annotation as a JSON array of {time, event, detail} events,
                               each annotator with their own event vocabulary and clock.
  annotator_prose_log        - benchmark observation prose by other annotators: varied verbs, tenses and
                               orders; error pasted, cut to first/last lines, or retyped in the sentence.
  check_run_summary_md       - a CI job summary / check-run summary in Markdown: step, exit code and a
                               <details> block holding the output or its last lines.
  nohup_out_file             - `nohup cmd > run.log 2>&1 &` then `cat run.log`, or a tee'd wrapper log
                               with ANSI-coloured wrapper lines around the tool's own output.

Rows: per case, two styles dealt from shuffled decks of the 16 styles (so per-style counts differ by
at most one); each row draws its choices from random.Random("<file>|<case>|<slot>|<style>").
Standard library only. Rerunning writes a byte-identical file.
"""
import csv
import datetime as dt
import glob
import io
import json
import os
import random
import re
import shlex
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "help_phrasings_twentyfirst.jsonl")

STYLES = [
    "sentry_issue_copy",
    "tracker_alert_mail",
    "datadog_log_csv",
    "journalctl_json_records",
    "vscode_problems_copy",
    "nbconvert_markdown_cell",
    "eclipse_console_view",
    "spyder_ipython_console",
    "putty_session_log",
    "cmd_exe_wsl_hop",
    "pwsh_ssh_windows_terminal",
    "hf_trajectory_row",
    "annotator_event_array",
    "annotator_prose_log",
    "check_run_summary_md",
    "nohup_out_file",
]


# ----------------------------------------------------------------------------- helpers on the error


def body_lines(err):
    """The error as printed, without the final newline(s) (a leading blank line stays: npm prints one)."""
    return err.rstrip("\n").split("\n")


def paste_text(err):
    """What a selection copies: the printed lines, without blank lines at either end."""
    return err.strip("\n")


SYSLOG_PREFIX = re.compile(r"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [^:]+: ")
EXC_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit|Warning|Fault)\b[^:]*:")
START_LINE = re.compile(
    r"^(error(\[E\d+\])?|Error|ERROR|fatal|FATAL|panic|E:|npm error|npm ERR!|psql: error|ssh:|"
    r"curl: \(\d+\)|bash:|zsh:|sh:|Exception in thread|\[ERROR\])[: ]"
)
LOC_LINE = re.compile(r"^\S+?:\d+(:\d+)?: ")
WORD_LINE = re.compile(
    r"(error|Error|ERROR|fatal|denied|not found|No such file|failed|Failed|refused|cannot|Cannot|"
    r"Unable|unable|invalid|Invalid|Could not|could not|no required module)"
)


def key_line(err):
    """The line a person would retype when saying what went wrong."""
    ls = [l for l in err.split("\n") if l.strip()]
    if not ls:
        return err.strip()
    bare = [SYSLOG_PREFIX.sub("", l) for l in ls]
    if any("Traceback (most recent call last)" in l for l in bare):
        for l in reversed(bare):
            if EXC_LINE.match(l):
                return l.strip()
    for l in bare:
        if START_LINE.match(l.strip()):
            return l.strip()
    for l in bare:
        if LOC_LINE.match(l.strip()):
            return l.strip()
    for l in bare:
        if WORD_LINE.search(l):
            return l.strip()
    return bare[-1].strip()


def py_exception(err):
    """(type, value) for a Python traceback, else None."""
    if "Traceback (most recent call last)" not in err:
        return None
    for l in reversed([SYSLOG_PREFIX.sub("", x) for x in err.split("\n") if x.strip()]):
        m = re.match(r"^([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Warning))(?:: (.*))?$", l.strip())
        if m:
            return m.group(1), (m.group(2) or "")
    return None


def py_culprit(err):
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', err)
    if not frames:
        return None
    f, _, fn = frames[-1]
    return "%s in %s" % (os.path.basename(f) if f.startswith("/") else f, fn)


def first_last(err, marker):
    ls = [l for l in paste_text(err).split("\n")]
    if len(ls) < 4:
        return None
    first = next(l for l in ls if l.strip())
    last = [l for l in ls if l.strip()][-1]
    hidden = len(ls) - 2
    return first + "\n" + marker.format(n=hidden) + "\n" + last


def tail(err, n):
    ls = body_lines(err)
    return "\n".join(ls[-n:])


def retype(line, rng):
    """How somebody types a line into their own sentence: usually verbatim, sometimes without the type prefix."""
    s = line.strip()
    if rng.random() < 0.3:
        m = re.match(r"^(?:[A-Za-z_][\w.]*(?:Error|Exception)|error(?:\[E\d+\])?|Error|ERROR|fatal|E|bash|npm error|npm ERR!)\s*:\s+(.*)$", s)
        if m and len(m.group(1)) > 8:
            s = m.group(1)
    if len(s) > 140 and rng.random() < 0.6:
        cut = s[:120].rsplit(" ", 1)[0]
        s = cut + " ..."
    return s


def expand_tabs_rstrip(text):
    return "\n".join(l.expandtabs(8).rstrip() for l in text.split("\n"))


def hard_wrap(text, width):
    out = []
    for l in text.split("\n"):
        while len(l) > width:
            out.append(l[:width])
            l = l[width:]
        out.append(l)
    return "\n".join(out)


def exit_code(err, cmd):
    low = err.lower()
    if "command not found" in low or ": not found" in low:
        return 127
    if "permission denied" in low and cmd and cmd.startswith("./"):
        return 126
    if cmd and cmd.startswith("cargo"):
        return 101
    if cmd and cmd.startswith(("make", "go build", "go run")) or "exit status 2" in err:
        return 2
    if cmd and cmd.split()[0] in ("ssh", "ssh-copy-id"):
        return 255
    return 1


# ----------------------------------------------------------------------------- context of one case

USERS = ["dev", "dana", "sam", "lee", "priya", "tomas", "amara", "keiko", "ola", "ravi"]
HOSTS = ["devbox", "thinkpad", "ws-14", "nuc", "lab-pc", "buildbox", "x1carbon", "tower", "pop-os", "ubuntu-vm"]
PROJECTS = ["project", "app", "work", "scratch", "tools", "service", "site", "src"]


class Case:
    def __init__(self, fname, index, data):
        self.file = fname
        self.index = index
        self.err = data["error"]
        self.cmd = data.get("command")
        seed = random.Random("ctx|%s|%d" % (fname, index))
        text = self.err + "\n" + (self.cmd or "")
        m = re.search(r"/home/([a-z][\w.-]*)/", text)
        self.user = m.group(1) if m else seed.choice(USERS)
        self.host = seed.choice(HOSTS)
        self.proj = None
        for m in re.finditer(r"/home/[a-z][\w.-]*/([\w][\w.-]*)/", text):
            if m.group(1) not in ("Downloads", "go", "snap", "bin") and not m.group(1).startswith("."):
                self.proj = m.group(1)
                if m.group(1) == "projects":
                    m2 = re.search(r"/home/[a-z][\w.-]*/projects/([\w][\w.-]*)/", text)
                    if m2:
                        self.proj = "projects/" + m2.group(1)
                break
        self.cwd = "~/" + self.proj if self.proj else "~"
        self.proj_name = (self.proj or seed.choice(PROJECTS)).split("/")[-1]
        self.abs_cwd = "/home/%s/%s" % (self.user, self.proj or self.proj_name)
        self.prog = None
        if self.cmd:
            toks = self.cmd.split()
            i = 0
            while i < len(toks) - 1 and (toks[i] == "sudo" or "=" in toks[i] or toks[i].startswith("-")):
                i += 1
            self.prog = toks[i] if toks else None
        self.key = key_line(self.err)
        self.py = py_exception(self.err)
        base = dt.datetime(2025, 1, 6, 8, 0, 0) + dt.timedelta(
            days=seed.randrange(0, 300), seconds=seed.randrange(0, 11 * 3600), microseconds=seed.randrange(0, 999999))
        self.when = base

    def prompt(self, cwd=None):
        return "%s@%s:%s$ " % (self.user, self.host, cwd if cwd is not None else self.cwd)


# ----------------------------------------------------------------------------- styles


def s_sentry_issue_copy(c, rng):
    out = []
    err = paste_text(c.err)
    short = c.proj_name.upper().replace("-", "").replace("_", "")[:10] or "APP"
    short += "-" + "".join(rng.choice("123456789ABCDEFGHJKLMNPQRSTVWXYZ") for _ in range(rng.choice((1, 2, 2, 3))))
    if c.py:
        title, sub = c.py
        culprit = py_culprit(c.err) or "<module>"
        out += [title, culprit, sub] if rng.random() < 0.5 else [title, sub, culprit]
    else:
        first = next(l for l in err.split("\n") if l.strip()).strip()
        title = first if len(first) <= 100 else first[:97] + "..."
        out.append(title)
        out.append(c.prog or rng.choice(["bash", "run.sh", "cron"]))
    out.append("Unhandled" if rng.random() < 0.6 else "Error")
    out.append(short)
    n_events = rng.choice([1, 1, 2, 3, 5, 12])
    ago = rng.choice(["2 minutes ago", "just now", "5 minutes ago", "an hour ago", "14 minutes ago"])
    out += ["Events", str(n_events), "Users", "1", "First Seen", ago, "Last Seen", ago]
    if rng.random() < 0.7:
        out.append("Tags")
        tags = [("environment", rng.choice(["development", "local", "staging", "production"])),
                ("level", "error"),
                ("os", "Linux " + rng.choice(["6.1.0-28-amd64", "6.8.0-51-generic", "6.5.0-45-generic"]))]
        if c.py:
            tags.append(("runtime", rng.choice(["CPython 3.11.7", "CPython 3.11.2", "CPython 3.12.3"])))
        else:
            tags.append(("runtime", rng.choice(["bash 5.2.15", "sentry-cli 2.39.1"])))
        tags.append(("server_name", c.host))
        if rng.random() < 0.5:
            tags.append(("release", "%s@%d.%d.%d" % (c.proj_name, rng.randrange(0, 3), rng.randrange(0, 12), rng.randrange(0, 9))))
        for k, v in tags:
            out += [k, v]
    if c.py:
        out.append("Exception")
        out.append(rng.choice(["mechanism: excepthook", "mechanism\nexcepthook"]))
        out.append("handled: no" if rng.random() < 0.5 else "handled\nno")
        out.append("Stack Trace")
        out.append("Raw")
        out.append(err)
    else:
        out.append("Message")
        out.append(err)
    if c.cmd and rng.random() < 0.8:
        if rng.random() < 0.5:
            out.append("Breadcrumbs")
            out.append("Type\tCategory\tDescription\tLevel\tTime")
            t0 = c.when
            out.append("Process\tsubprocess\t%s\tInfo\t%s" % (c.cmd, t0.strftime("%H:%M:%S.%f")[:-3]))
            t1 = t0 + dt.timedelta(milliseconds=rng.randrange(40, 2500))
            last = c.key if len(c.key) < 160 else c.key[:157] + "..."
            out.append("Error\t%s\t%s\tError\t%s" % ("exception" if c.py else "console", last, t1.strftime("%H:%M:%S.%f")[:-3]))
        else:
            out.append("Additional Data")
            try:
                argv = shlex.split(c.cmd)
            except ValueError:
                argv = c.cmd.split()
            out.append("sys.argv" if c.py else "argv")
            out.append(json.dumps(argv))
            out.append("cwd")
            out.append(c.abs_cwd)
    return "\n".join(out)


def s_tracker_alert_mail(c, rng):
    brand = rng.choice(["honeybadger", "rollbar", "bugsnag"])
    env = rng.choice(["development", "staging", "production", "ci"])
    if c.py:
        etype, evalue = c.py
        headline = "%s: %s" % (etype, evalue) if evalue else etype
    else:
        headline = c.key
    err = paste_text(c.err)
    fl = first_last(c.err, rng.choice(["[... {n} more lines ...]", "...", "[truncated]", "(+{n} lines)"]))
    shown = fl if (fl and rng.random() < 0.4) else err
    link_id = rng.randrange(10**7, 10**8)
    date = c.when.strftime("%a, %d %b %Y %H:%M:%S +0000")
    project = c.proj_name
    if brand == "honeybadger":
        subj = "[%s/%s] %s" % (project, env, headline)
        sender = "Honeybadger <notifications@honeybadger.io>"
        body = ["A new error has occurred in %s (%s):" % (project, env), "", headline, ""]
        if c.py:
            culprit = py_culprit(c.err)
            if culprit:
                body += ["Location: " + culprit, ""]
        if c.cmd and rng.random() < 0.7:
            body += ["Component: " + c.cmd, ""]
        body += ["Backtrace:" if c.py else "Output:", shown, "",
                 "View the full error: https://app.honeybadger.io/projects/%d/faults/%d" % (rng.randrange(10000, 99999), link_id)]
    elif brand == "rollbar":
        n = rng.randrange(2, 400)
        subj = "[%s] %s - New Error: #%d %s" % (project, env, n, headline)
        sender = "Rollbar <notifications@rollbar.com>"
        body = ["A new error has occurred in %s (%s)." % (project, env), "", "#%d %s" % (n, headline), ""]
        if c.cmd and rng.random() < 0.7:
            body += ["custom.command: " + c.cmd, ""]
        body += [shown, "", "https://rollbar.com/%s/%s/items/%d/" % (c.user, project, n)]
    else:
        subj = "[%s] New error in %s: %s" % (project, env, headline)
        sender = "Bugsnag <notifications@bugsnag.com>"
        body = [headline, "in " + (c.cmd if c.cmd and rng.random() < 0.7 else (py_culprit(c.err) or project)), "",
                "STACKTRACE" if c.py else "DETAILS", shown, "",
                "View full details: https://app.bugsnag.com/%s/%s/errors/%s" % (
                    c.user, project, "".join(rng.choice("0123456789abcdef") for _ in range(24)))]
    head = []
    if rng.random() < 0.7:
        head = ["From: " + sender, "To: %s@%s" % (c.user, rng.choice(["example.com", "acme.dev", "gmail.com"])),
                "Date: " + date, "Subject: " + subj, ""]
    else:
        head = [subj, ""]
    return "\n".join(head + body)


def s_datadog_log_csv(c, rng):
    buf = io.StringIO()
    w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n")
    service = c.proj_name
    cols = ["Date", "Host", "Service", "Status", "Message"]
    w.writerow(cols)
    t = c.when
    rows = []
    if c.cmd and rng.random() < 0.6:
        rows.append((t, "info", "+ " + c.cmd if rng.random() < 0.5 else "running: " + c.cmd))
        t += dt.timedelta(milliseconds=rng.randrange(20, 900))
    if rng.random() < 0.55:
        rows.append((t, "error", paste_text(c.err)))
    else:
        for l in paste_text(c.err).split("\n"):
            if not l.strip():
                continue  # the agent drops empty lines
            rows.append((t, "error", l))
            t += dt.timedelta(milliseconds=rng.choice([0, 0, 1, 1, 2]))
    rows.reverse()  # the Log Explorer lists newest first, and exports in that order
    for when, status, msg in rows:
        w.writerow([when.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (when.microsecond // 1000), c.host, service, status, msg])
    return buf.getvalue().rstrip("\n")


def s_journalctl_json_records(c, rng):
    lines = body_lines(c.err)
    if lines and lines[0] == "":
        lines = lines[1:]
    transient = c.cmd is not None and rng.random() < 0.6
    unit = ("run-u%d.service" % rng.randrange(20, 900)) if transient else "%s.service" % c.proj_name.replace("projects/", "")
    head = []
    n_opt = ""
    if len(lines) > 12 and rng.random() < 0.3:
        n = rng.choice([10, 12])
        lines = lines[-n:]
        n_opt = " -n %d" % n
    fields_opt = rng.random() < (0.8 if len(lines) > 15 else 0.4)
    include_cmd = c.cmd is not None and rng.random() < 0.8
    if fields_opt:
        req = "MESSAGE,_PID,_SYSTEMD_USER_UNIT" + (",_CMDLINE" if include_cmd else "")
        jcmd = "journalctl --user -u %s%s -o json --output-fields=%s" % (unit, n_opt, req)
    else:
        jcmd = "journalctl --user -u %s%s -o json" % (unit, n_opt)
    if rng.random() < 0.6:
        head.append(c.prompt("~") + jcmd)
    if transient and include_cmd and rng.random() < 0.5:
        head = [c.prompt() + "systemd-run --user --unit=%s %s" % (unit[:-8], c.cmd),
                "Running as unit: " + unit] + head
    boot = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    seqid = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    inv = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    pid = rng.randrange(1200, 98000)
    seq = rng.randrange(0x10000, 0x9ffff)
    real = int(c.when.replace(tzinfo=dt.timezone.utc).timestamp() * 1_000_000)
    mono = rng.randrange(10**9, 9 * 10**11)
    comm = os.path.basename(c.prog) if (c.prog and include_cmd) else None
    out = []
    for l in lines:
        seq += 1
        real += rng.randrange(5, 400)
        mono += rng.randrange(5, 400)
        cursor = "s=%s;i=%x;b=%s;m=%x;t=%x;x=%s" % (seqid, seq, boot, mono, real,
                                                      "".join(rng.choice("0123456789abcdef") for _ in range(16)))
        rec = {"__CURSOR": cursor, "__REALTIME_TIMESTAMP": str(real), "__MONOTONIC_TIMESTAMP": str(mono),
               "_BOOT_ID": boot}
        if fields_opt:
            rec["_PID"] = str(pid)
            rec["_SYSTEMD_USER_UNIT"] = unit
            if include_cmd:
                rec["_CMDLINE"] = c.cmd
            rec["MESSAGE"] = l
        else:
            rec.update({"_TRANSPORT": "stdout", "PRIORITY": "6", "SYSLOG_FACILITY": "3",
                        "SYSLOG_IDENTIFIER": comm or unit[:-8], "_PID": str(pid), "_UID": "1000", "_GID": "1000"})
            if comm:
                rec["_COMM"] = comm
            if include_cmd:
                rec["_CMDLINE"] = c.cmd
            rec.update({"_SYSTEMD_USER_UNIT": unit, "_SYSTEMD_INVOCATION_ID": inv, "_HOSTNAME": c.host,
                        "MESSAGE": l})
        out.append(json.dumps(rec, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(head + out)


PROBLEM_PATTERNS = [
    ("cpp", None, re.compile(r"^(?P<f>[^\s:()]+\.(?:c|cc|cpp|h|hpp)):(?P<l>\d+):(?P<c>\d+): (?P<sev>fatal error|error|warning): (?P<m>.*)$")),
    ("go", None, re.compile(r"^(?P<f>[^\s:()]+\.go):(?P<l>\d+):(?P<c>\d+): (?P<m>.*)$")),
    ("java", None, re.compile(r"^(?P<f>[^\s:()]+\.java):(?P<l>\d+): (?P<sev>error|warning): (?P<m>.*)$")),
    ("typescript", "ts", re.compile(r"^(?P<f>[^\s:()]+\.tsx?)\((?P<l>\d+),(?P<c>\d+)\): (?P<sev>error|warning) TS(?P<code>\d+): (?P<m>.*)$")),
    ("_generated_diagnostic_collection_name_#1", None, re.compile(r"^(?P<f>Makefile|makefile|GNUmakefile):(?P<l>\d+): \*\*\* (?P<m>.*)$")),
]


def find_problems(c):
    lines = paste_text(c.err).split("\n")
    probs = []
    for i, l in enumerate(lines):
        m = re.match(r"^(?P<sev>error|warning)(?:\[(?P<code>E\d+)\])?: (?P<m>.*)$", l)
        if m and i + 1 < len(lines):
            m2 = re.match(r"^\s*--> (?P<f>[^:]+):(?P<l>\d+):(?P<c>\d+)", lines[i + 1])
            if m2:
                probs.append(dict(owner="rustc", source="rustc", f=m2.group("f"), l=int(m2.group("l")),
                                  c=int(m2.group("c")), sev=m.group("sev"), code=m.group("code"), m=m.group("m")))
                continue
        for owner, source, rx in PROBLEM_PATTERNS:
            m = rx.match(l)
            if m:
                d = m.groupdict()
                probs.append(dict(owner=owner, source=source, f=d["f"], l=int(d["l"]), c=int(d.get("c") or 1),
                                  sev=d.get("sev") or "error", code=d.get("code"), m=d["m"]))
                break
    return probs


def s_vscode_problems_copy(c, rng):
    probs = find_problems(c)
    entries = []
    if probs:
        take = probs[:2] if (len(probs) > 1 and rng.random() < 0.35) else probs[:1]
        for p in take:
            f = p["f"]
            if not f.startswith("/"):
                f = c.abs_cwd + "/" + re.sub(r"^\./", "", f)
            e = {"resource": f, "owner": p["owner"]}
            if p["code"]:
                e["code"] = p["code"]
            e["severity"] = 4 if p["sev"] == "warning" else 8
            e["message"] = p["m"]
            if p["source"]:
                e["source"] = p["source"]
            e.update({"startLineNumber": p["l"], "startColumn": p["c"], "endLineNumber": p["l"],
                      "endColumn": p["c"] + rng.randrange(1, 12)})
            entries.append(e)
    else:
        frames = [fr for fr in re.findall(r'File "([^"]+)", line (\d+)', c.err) if not fr[0].startswith("<")]
        own = [fr for fr in frames if not fr[0].startswith(("/usr/", "/tmp/")) and "site-packages" not in fr[0]]
        if own or frames:
            f, ln = (own or frames)[-1]
            ln = int(ln)
        else:
            f, ln = None, 1
            if c.cmd:
                for tok in c.cmd.split():
                    if re.match(r"^[\w./-]+\.(py|js|mjs|ts|rb|sh|go|java|sql|yml|yaml|json|c)$", tok):
                        f = tok
                        break
            if f is None:
                f = {"cargo": "Cargo.toml", "npm": "package.json", "npx": "package.json", "yarn": "package.json",
                     "docker": "Dockerfile", "make": "Makefile", "go": "go.mod", "mvn": "pom.xml",
                     "bundle": "Gemfile", "kubectl": "deployment.yaml", "helm": "values.yaml",
                     "pip": "requirements.txt", "pip3": "requirements.txt", "gradle": "build.gradle",
                     "./gradlew": "build.gradle", "cmake": "CMakeLists.txt",
                     "rails": "Gemfile", "bin/rails": "Gemfile"}.get(c.prog or "", ".vscode/tasks.json")
        if not f.startswith("/"):
            f = c.abs_cwd + "/" + re.sub(r"^\./", "", f)
        owner = "_generated_diagnostic_collection_name_#%d" % rng.randrange(0, 6)
        e = {"resource": f, "owner": owner, "severity": 8, "message": paste_text(c.err)}
        if rng.random() < 0.5:
            e["source"] = rng.choice(["Code Runner", "Task Runner", "Run on Save", "Error Lens"])
        e.update({"startLineNumber": ln, "startColumn": 1, "endLineNumber": ln, "endColumn": rng.choice([1, 2, 80])})
        entries.append(e)
    blocks = []
    for e in entries:
        inner = json.dumps(e, ensure_ascii=False, indent="\t")
        # VS Code writes the array as "[{" ... "}]" around a tab-indented object
        blocks.append("[" + inner + "]")
    return "\n".join(blocks)


def s_nbconvert_markdown_cell(c, rng):
    out = []
    with_cmd = c.cmd is not None and rng.random() < 0.9
    if not with_cmd or rng.random() < 0.5:
        out += [rng.choice(["## Setup", "### Install dependencies", "## Run", "### Build", "## Data",
                            "### Try it out", "## Experiments", "### Step 2"]), ""]
    if with_cmd:
        cmd = c.cmd
        if cmd.startswith("cd ") and "&&" not in cmd and ";" not in cmd:
            src = "%" + cmd
        elif rng.random() < 0.3:
            src = "%%bash\n" + cmd
        else:
            src = "!" + cmd
        out += ["```python", src, "```", ""]
    text = c.err.rstrip("\n")
    if text.startswith("\n"):
        text = text[1:]
    out.append("\n".join(("    " + l) if l.strip() else "" for l in text.split("\n")))
    out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def s_eclipse_console_view(c, rng):
    err = c.err.rstrip("\n")
    if err.startswith("\n"):
        err = err[1:]
    when = c.when
    if c.prog in ("make", "cmake", "ninja", "gmake") and rng.random() < 0.8:
        start = when.strftime("%H:%M:%S")
        end = (when + dt.timedelta(seconds=rng.randrange(1, 9))).strftime("%H:%M:%S")
        kind = rng.choice(["Build", "Incremental Build"])
        cfg = rng.choice(["Default", "Debug", "Release"])
        n_err = max(1, len(re.findall(r"\berror\b", err)))
        return "\n".join([
            "%s **** %s of configuration %s for project %s ****" % (start, kind, cfg, c.proj_name),
            c.cmd + " ",
            err,
            "%s Build Failed. %d errors, 0 warnings. (took %dms)" % (end, n_err, rng.randrange(180, 9000)),
        ])
    name = c.cmd if (c.cmd and rng.random() < 0.75) else c.proj_name
    java_out = re.search(r"^(Exception in thread|Error: Could not find or load main class|Error: LinkageError)", err, re.M)
    if c.prog in ("java",) or (c.prog is None and java_out):
        kind, exe = "Java Application", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
        if c.cmd and name == c.cmd:
            m = re.search(r"([A-Z][\w.]*)\s*$", c.cmd)
            name = m.group(1) if m else c.proj_name
    elif (c.prog and c.prog.startswith("python")) or (c.prog is None and c.py):
        kind, exe = "Python Run", "/usr/bin/" + (c.prog if c.prog not in (None, "python3") else "python3.11")
        if c.cmd and name == c.cmd:
            m = re.search(r"([\w-]+)\.py\b", c.cmd)
            name = m.group(1) if m else c.proj_name
    else:
        prog = os.path.basename(c.prog) if c.prog else "bash"
        kind = "Program"
        exe = {"cargo": "/home/%s/.cargo/bin/cargo" % c.user, "go": "/usr/local/go/bin/go"}.get(prog, "/usr/bin/" + prog)
    fmt = "%b %-d, %Y, %-I:%M:%S %p"
    end = when + dt.timedelta(seconds=rng.randrange(0, 6), milliseconds=rng.randrange(0, 999))
    title = "<terminated> %s [%s] %s  (%s \u2013 %s) [pid: %d]" % (
        name, kind, exe, when.strftime(fmt), end.strftime(fmt), rng.randrange(2000, 99999))
    if rng.random() < 0.2:
        title = "<terminated> %s [%s] %s (%s)" % (name, kind, exe, when.strftime(fmt))
    if rng.random() < 0.85:
        return title + "\n" + err
    return err + "\n"


def s_spyder_ipython_console(c, rng):
    n = rng.randrange(1, 14)
    out = []
    with_cmd = c.cmd is not None and rng.random() < 0.85
    if with_cmd and rng.random() < 0.3:
        out += ["Python 3.11.7 (main, Dec  8 2023, 18:56:58) [GCC 12.2.0]",
                'Type "copyright", "credits" or "license" for more information.', "",
                "IPython 8.20.0 -- An enhanced Interactive Python.", ""]
        n = 1
    err = c.err.rstrip("\n")
    if with_cmd:
        cmd = c.cmd
        src = ("%" + cmd) if (cmd.startswith("cd ") and "&&" not in cmd) else "!" + cmd
        out.append("In [%d]: %s" % (n, src))
        out.append(err[1:] if err.startswith("\n") else err)
    else:
        out.append(paste_text(c.err))
    out += ["", "In [%d]: " % (n + 1)]
    return "\n".join(out)


def s_putty_session_log(c, rng):
    stamp = c.when.strftime("%Y.%m.%d %H:%M:%S")
    lines = ["=~=~=~=~=~=~=~=~=~=~=~= PuTTY log %s =~=~=~=~=~=~=~=~=~=~=~=" % stamp]
    first_prompt_cwd = "~"
    if rng.random() < 0.4:
        ip = "192.168.%d.%d" % (rng.randrange(0, 3), rng.randrange(10, 250))
        last = (c.when - dt.timedelta(hours=rng.randrange(1, 40))).strftime("%a %b %e %H:%M:%S %Y")
        lines += ["login as: " + c.user, "%s@%s's password: " % (c.user, c.host),
                  "Linux %s 6.1.0-28-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22) x86_64" % c.host, "",
                  "The programs included with the Debian GNU/Linux system are free software;",
                  "the exact distribution terms for each program are described in the",
                  "individual files in /usr/share/doc/*/copyright.", "",
                  "Debian GNU/Linux comes with ABSOLUTELY NO WARRANTY, to the extent",
                  "permitted by applicable law.",
                  "Last login: %s from %s" % (last, ip)]
        if c.cwd != "~" and c.cmd:
            lines.append(c.prompt("~") + "cd " + c.cwd[2:])
    err = c.err.rstrip("\n")
    if c.cmd and rng.random() < 0.85:
        lines.append(c.prompt() + c.cmd)
        lines.append(err)
    else:
        lines.append(err.lstrip("\n"))
    lines.append(c.prompt())
    return "\r\n".join("\n".join(lines).split("\n"))


def s_cmd_exe_wsl_hop(c, rng):
    win_user = c.user.capitalize() if rng.random() < 0.5 else c.user
    home = "C:\\Users\\%s" % win_user
    out = []
    if rng.random() < 0.6:
        out += ["Microsoft Windows [Version 10.0.%s]" % rng.choice(["19045.5247", "22631.4602", "22631.4751", "26100.2605"]),
                "(c) Microsoft Corporation. All rights reserved.", ""]
    err = c.err.rstrip("\n")
    if err.startswith("\n"):
        err = err[1:] if rng.random() < 0.2 else err
    if c.cmd and rng.random() < 0.85:
        if rng.random() < 0.5:
            cd = (" --cd " + c.cwd) if c.cwd != "~" else " --cd ~"
            out.append("%s>wsl%s %s" % (home, cd, c.cmd))
            out.append(err)
            out += ["", home + ">"]
        else:
            host = "LAPTOP-" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(7))
            out.append(home + ">wsl")
            p = "%s@%s:" % (c.user, host)
            if c.cwd != "~":
                out.append(p + "/mnt/c/Users/%s$ cd %s" % (win_user, c.cwd))
            else:
                out.append(p + "/mnt/c/Users/%s$ cd" % win_user)
            out.append(p + c.cwd + "$ " + c.cmd)
            out.append(err)
            out.append(p + c.cwd + "$ exit")
            out.append("logout")
            out += ["", home + ">"]
    else:
        out.append(err.lstrip("\n"))
        out += ["", home + ">"]
    text = expand_tabs_rstrip("\n".join(out))
    return hard_wrap(text, 120)


SSH_PROGS = ("ssh", "scp", "sftp", "ssh-copy-id", "ssh-keygen", "rsync")


def s_pwsh_ssh_windows_terminal(c, rng):
    win_user = c.user.capitalize() if rng.random() < 0.4 else c.user
    ps = "PS C:\\Users\\%s> " % win_user
    out = []
    if rng.random() < 0.5:
        out.append("PowerShell 7.%s" % rng.choice(["4.6", "4.7", "5.0"]))
    err = c.err.rstrip("\n")
    if c.cmd and c.prog in SSH_PROGS and "/home/" not in c.err + c.cmd and rng.random() < 0.8:
        out.append(ps + c.cmd)
        out.append(err)
        out.append(ps.rstrip())
        return expand_tabs_rstrip("\n".join(out))
    target = "%s@%s" % (c.user, c.host)
    out.append(ps + "ssh " + target)
    if rng.random() < 0.6:
        out += ["Linux %s %s" % (c.host, rng.choice([
            "6.1.0-28-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22) x86_64",
            "6.8.0-51-generic #52-Ubuntu SMP PREEMPT_DYNAMIC Thu Dec  5 13:09:44 UTC 2024 x86_64"])), ""]
    last = (c.when - dt.timedelta(hours=rng.randrange(1, 30))).strftime("%a %b %e %H:%M:%S %Y")
    out.append("Last login: %s from 192.168.1.%d" % (last, rng.randrange(2, 250)))
    if c.cmd and rng.random() < 0.85:
        if c.cwd != "~":
            out.append(c.prompt("~") + "cd " + c.cwd[2:])
        out.append(c.prompt() + c.cmd)
        out.append(err)
    else:
        out.append(err.lstrip("\n"))
    out.append(c.prompt().rstrip())
    return expand_tabs_rstrip("\n".join(out))


def s_hf_trajectory_row(c, rng):
    err = c.err
    code = exit_code(c.err, c.cmd)
    kl = c.key if len(c.key) < 160 else c.key[:150] + "..."
    iid = "%s__%s-%d" % (c.user, c.proj_name.replace("projects/", ""), rng.randrange(100, 9999))
    if c.cmd and rng.random() < 0.55:
        thought = rng.choice([
            "Let me run it and see what happens.",
            "First I'll reproduce the problem.",
            "I'll run the command the issue mentions.",
            "Now let's try building again.",
        ])
        obs = paste_text(err) + "\n(Open file: n/a)\n(Current directory: %s)\nbash-$" % c.abs_cwd
        row = {
            "instance_id": iid,
            "model_name": rng.choice(["swe-agent-llama-70b", "swe-agent-qwen-32b", "gpt-4o-2024-08-06"]),
            "target": False,
            "trajectory": [
                {"cutoff_date": "01.01.2023", "mask": False, "role": "ai", "system_prompt": "",
                 "text": "%s\n```\n%s\n```" % (thought, c.cmd)},
                {"mask": False, "role": "user", "text": obs},
                {"cutoff_date": "01.01.2023", "mask": False, "role": "ai", "system_prompt": "",
                 "text": "The command failed with `%s`. " % kl + rng.choice([
                     "Let's look at the relevant file.", "I need to fix this before going on.",
                     "This looks like an environment problem."])},
            ],
            "exit_status": rng.choice(["submitted", "exit_cost", "submitted (exit_context)"]),
        }
        return json.dumps(row, ensure_ascii=False)
    if c.cmd and rng.random() < 0.7:
        eid = rng.randrange(4, 40)
        ts = c.when.strftime("%Y-%m-%dT%H:%M:%S.%f")
        ev = [
            {"id": eid, "timestamp": ts, "source": "agent", "action": "run",
             "args": {"command": c.cmd, "is_input": False, "thought": "", "blocking": False, "hidden": False},
             "message": "Running command: " + c.cmd},
            {"id": eid + 1, "timestamp": (c.when + dt.timedelta(seconds=rng.randrange(1, 20))).strftime("%Y-%m-%dT%H:%M:%S.%f"),
             "source": "agent", "observation": "run", "content": paste_text(err),
             "extras": {"command": c.cmd, "metadata": {"exit_code": code, "pid": -1, "username": c.user,
                                                       "hostname": c.host, "working_dir": c.abs_cwd,
                                                       "py_interpreter_path": None,
                                                       "prefix": "", "suffix": "\n[The command completed with exit code %d.]" % code},
                        "hidden": False},
             "success": False},
        ]
        row = {"instance_id": iid, "history": ev, "resolved": False}
        return json.dumps(row, ensure_ascii=False)
    msgs = [
        {"role": "system", "content": "You are a helpful coding assistant."},
        {"role": "user", "content": rng.choice([
            "I'm getting this error:\n\n", "what does this mean\n\n", "Got this:\n```\n", "help?\n"]) },
    ]
    u = msgs[1]["content"]
    if u.endswith("```\n"):
        u += paste_text(err) + "\n```"
    else:
        u += paste_text(err)
    msgs[1]["content"] = u
    row = {"id": "%s-%05d" % (rng.choice(["trace", "conv", "task"]), rng.randrange(0, 99999)),
           "source": rng.choice(["terminal-help-v2", "devsupport-synth", "agent-traces"]),
           "messages": msgs}
    return json.dumps(row, ensure_ascii=False)


EVENT_VOCAB = [
    {"focus": "window_focus", "type": "command_typed", "enter": "key_enter", "out": "terminal_output",
     "idle": "idle", "scroll": "scroll_up", "select": "text_selected"},
    {"focus": "app_switch", "type": "typing", "enter": "submit", "out": "output_appeared",
     "idle": "pause", "scroll": "scroll", "select": "highlight"},
    {"focus": "FocusChange", "type": "KeyboardInput", "enter": "KeyPress(Return)", "out": "ScreenTextChanged",
     "idle": "NoInput", "scroll": "Scroll", "select": "Selection"},
    {"focus": "active window", "type": "types command", "enter": "runs command", "out": "sees output",
     "idle": "stops", "scroll": "scrolls", "select": "selects text"},
]


def s_annotator_event_array(c, rng):
    v = rng.choice(EVENT_VOCAB)
    clock = rng.choice(["rel", "abs", "iso"])
    t = [0.0]

    def stamp():
        if clock == "rel":
            s = t[0]
            return "%02d:%02d.%d" % (int(s) // 60, int(s) % 60, int((s % 1) * 10))
        w = c.when + dt.timedelta(seconds=t[0])
        return w.strftime("%H:%M:%S") if clock == "abs" else w.strftime("%Y-%m-%dT%H:%M:%S")

    ev = []
    term = rng.choice(["Terminal", "GNOME Terminal", "Konsole", "kitty", "Tilix", "Terminator"])
    ev.append({"time": stamp(), "event": v["focus"], "detail": "%s \u2014 %s@%s: %s" % (term, c.user, c.host, c.cwd)})
    if c.cmd and rng.random() < 0.85:
        t[0] += rng.uniform(1, 9)
        ev.append({"time": stamp(), "event": v["type"], "detail": c.cmd})
        t[0] += rng.uniform(0.2, 1.5)
        if rng.random() < 0.6:
            ev.append({"time": stamp(), "event": v["enter"], "detail": ""})
    t[0] += rng.uniform(0.3, 6)
    r = rng.random()
    fl = first_last(c.err, rng.choice(["...", "[...]", "\u2026"]))
    if r < 0.7 or (r < 0.85 and not fl):
        detail = paste_text(c.err)
    elif r < 0.85:
        detail = fl
    else:
        detail = rng.choice(["red text: ", "error shown: ", "message reads ", "output ends with "]) + retype(c.key, rng)
    ev.append({"time": stamp(), "event": v["out"], "detail": detail})
    for k in rng.sample(["idle", "scroll", "select"], rng.randrange(1, 3)):
        t[0] += rng.uniform(2, 25)
        d = {"idle": "no keyboard or mouse input for %d s" % rng.randrange(5, 40),
             "scroll": "scrolls back over the output",
             "select": "selects the line \"%s\"" % c.key if len(c.key) < 200 else "selects the last lines"}[k]
        ev.append({"time": stamp(), "event": v[k], "detail": d})
    if rng.random() < 0.5:
        return json.dumps(ev, ensure_ascii=False, indent=2)
    return "[\n" + ",\n".join(json.dumps(e, ensure_ascii=False) for e in ev) + "\n]"


def low(who):
    return who[0].lower() + who[1:] if who.startswith("The ") else who


def s_annotator_prose_log(c, rng):
    who = rng.choice(["The user", "The participant", "P%02d" % rng.randrange(1, 30), "The developer", "The person"])
    pron = rng.choice(["they", "she", "he", "they"])
    clock = rng.choice(["At %s" % c.when.strftime("%H:%M"), "Around minute %d" % rng.randrange(1, 40),
                        "[%s]" % c.when.strftime("%H:%M:%S"), "Shortly after starting"])
    err = paste_text(c.err)
    mode = rng.random()
    fl = first_last(c.err, rng.choice(["...", "[...]", "(lines omitted)"]))
    cmd = c.cmd if (c.cmd and rng.random() < 0.85) else None
    past = rng.random() < 0.5

    def v(past_form, present_form):
        return past_form if past else present_form

    if mode < 0.6:
        if cmd:
            forms = [
                "%s, %s %s `%s` in the terminal, which %s:\n\n%s" % (
                    clock, low(who), v("ran", "runs"), cmd, v("printed", "prints"), err),
                "Terminal (%s) %s the following after %s %s %s:\n%s" % (
                    c.cwd, v("showed", "shows"), pron, v("entered", "enters"), cmd, err),
                "%s\n\n\u2014 output of `%s`, as seen by %s. %s %s the last line." % (
                    err, cmd, low(who), pron.capitalize(), v("re-read", "re-reads")),
                "Observed: %s %s '%s' and %s Enter. Result:\n%s\n%s %s typing." % (
                    low(who), v("had typed", "types"), cmd, v("pressed", "presses"), err, pron.capitalize(),
                    v("stopped", "stops")),
            ]
        else:
            forms = [
                "%s, the terminal in front of %s %s:\n\n%s" % (clock, low(who), v("showed", "shows"), err),
                "%s %s looking at this output in the terminal window:\n%s" % (who, v("was", "is"), err),
                "On screen (terminal, %s):\n%s\n%s %s the mouse over the last line." % (
                    c.cwd, err, who, v("held", "holds")),
            ]
        return rng.choice(forms)
    if mode < 0.78 and fl:
        if cmd:
            return "After `%s`, %s %s an error. The output %s with\n%s" % (
                cmd, low(who), v("got", "gets"), v("started and ended", "starts and ends"), fl)
        return "%s %s an error; the output %s with\n%s" % (
            who, v("got", "gets"), v("started and ended", "starts and ends"), fl)
    k = retype(c.key, rng)
    if cmd:
        forms = [
            "%s %s %s and %s an error saying %s. %s %s up to read the rest." % (
                who, v("ran", "runs"), cmd, v("got", "gets"), k, pron.capitalize(), v("scrolled", "scrolls")),
            "%s: `%s` fails \u2014 \"%s\". %s %s at it for a while." % (clock, cmd, k, who, v("stared", "stares")),
            "Error after %s typed %s: %s" % (pron, cmd, k),
        ]
    else:
        forms = [
            "%s %s an error in the terminal: %s" % (who, v("noticed", "notices"), k),
            "%s, the screen says \"%s\" and %s %s." % (clock, k, low(who), v("paused", "pauses")),
        ]
    return rng.choice(forms)


def s_check_run_summary_md(c, rng):
    code = exit_code(c.err, c.cmd)
    job = rng.choice(["build", "test", "lint", "deploy", "ci", "check"])
    lines = body_lines(c.err)
    while lines and not lines[0].strip():
        lines = lines[1:]
    n = len(lines)
    out = []
    icon = rng.choice(["\u274c", ":x:", "\U0001F534"])
    out.append("## %s Job `%s` failed" % (icon, job) if rng.random() < 0.6 else "### %s %s" % (icon, job))
    out.append("")
    if c.cmd and rng.random() < 0.85:
        if rng.random() < 0.5:
            out += ["| Step | Status | Duration |", "| --- | --- | --- |",
                    "| Run `%s` | failure | %ds |" % (c.cmd.replace("|", "\\|"), rng.randrange(1, 240)), ""]
        else:
            out += ["**Step:** `%s`  " % c.cmd, "**Exit code:** %d" % code, ""]
    else:
        out += ["**Exit code:** %d" % code, ""]
    if n > 16 and rng.random() < 0.45:
        k = rng.choice([10, 12, 15])
        shown = "\n".join(lines[-k:])
        summ = "Last %d lines of output" % k
    else:
        shown = "\n".join(lines)
        summ = rng.choice(["Output", "Log", "stderr", "Show output"])
    fence = "````" if "```" in shown else "```"
    out += ["<details>" if rng.random() < 0.5 else "<details open>", "<summary>%s</summary>" % summ, "",
            fence + rng.choice(["", "text", "console"]), shown, fence, "", "</details>"]
    return "\n".join(out)


def s_nohup_out_file(c, rng):
    err = c.err.rstrip("\n")
    out = []
    stamp = c.when.strftime("%Y-%m-%d %H:%M:%S")
    end = (c.when + dt.timedelta(seconds=rng.randrange(0, 30))).strftime("%Y-%m-%d %H:%M:%S")
    code = exit_code(c.err, c.cmd)
    if rng.random() < 0.5:
        logname = rng.choice(["run.log", "out.log", "nohup.out", "job.log"])
        if c.cmd and rng.random() < 0.8:
            out.append(c.prompt() + "nohup %s > %s 2>&1 &" % (c.cmd, logname))
            out.append("[1] %d" % rng.randrange(2000, 90000))
        out.append(c.prompt() + "cat " + logname)
        out.append("nohup: ignoring input")
        out.append(err)
        if rng.random() < 0.5:
            out.append("[1]+  Exit %d                  nohup %s > %s 2>&1" % (code, c.cmd or "./run.sh", logname))
        out.append(c.prompt().rstrip())
        return "\n".join(out)
    # a wrapper script that forces colour on its own lines, its output tee'd to a file
    blue, red, dim, rst = "\x1b[1;34m", "\x1b[1;31m", "\x1b[2m", "\x1b[0m"
    logname = rng.choice(["build.log", "logs/run-%s.log" % c.when.strftime("%Y%m%d"), "deploy.log"])
    if rng.random() < 0.6:
        out.append(c.prompt() + "cat " + logname)
    if c.cmd and rng.random() < 0.85:
        out.append("%s==>%s %s[%s]%s running: %s" % (blue, rst, dim, stamp, rst, c.cmd))
    else:
        out.append("%s==>%s %s[%s]%s starting %s" % (blue, rst, dim, stamp, rst, c.proj_name))
    out.append(err)
    out.append("%s==> FAILED%s %s[%s]%s exit status %d" % (red, rst, dim, end, rst, code))
    return "\n".join(out)


RENDER = {name: globals()["s_" + name] for name in STYLES}


# ----------------------------------------------------------------------------- main


def load_cases():
    files = sorted(glob.glob(os.path.join(HERE, "help_cases", "*.toml")))
    files += sorted(glob.glob(os.path.join(HERE, "help_heldout", "set*.toml")))
    cases = []
    for path in files:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        base = os.path.basename(path)
        for i, d in enumerate(data.get("case", [])):
            cases.append(Case(base, i, d))
    return cases


def deal(n_rows):
    order = []
    deck_no = 0
    while len(order) < n_rows:
        deck = list(STYLES)
        random.Random("twentyfirst-deck-%d" % deck_no).shuffle(deck)
        order.extend(deck)
        deck_no += 1
    return order[:n_rows]


def main():
    cases = load_cases()
    order = deal(2 * len(cases))
    rows = []
    for ci, c in enumerate(cases):
        styles = order[2 * ci: 2 * ci + 2]
        assert styles[0] != styles[1]
        for slot, style in enumerate(styles):
            rng = random.Random("%s|%d|%d|%s" % (c.file, c.index, slot, style))
            text = RENDER[style](c, rng)
            assert text.strip(), (c.file, c.index, style)
            rows.append({"file": c.file, "case": c.index, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote %d rows to %s" % (len(rows), OUT))


if __name__ == "__main__":
    main()
