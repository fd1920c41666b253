#!/usr/bin/env python3
"""Write bench/help_phrasings_tenth.jsonl, the tenth blind phrasing set.

Every ``[[case]]`` of ``bench/help_cases/*.toml`` and
``bench/help_heldout/set*.toml`` gets exactly two rows, each an observation
of somebody hitting that case's error, written in one of 16 media that are
new to the project.  The two rows of a case always use two different
styles; styles are dealt from a seeded stream of shuffled 16-card decks, so
the per-style counts differ by at most one.  Everything is seeded (one
``random.Random`` for the deal, one per row seeded by a string), so reruns
give byte-identical output.

Output format, one JSON object per line::

    {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}

``file`` is the TOML file's base name, ``case`` the 0-based index of the
``[[case]]`` table in it, ``style`` one of the names below, ``text`` the
observation.

Styles:
  ipynb_json         fragment of a Jupyter .ipynb: a code cell (!cmd, %%bash or
                     subprocess) with stream outputs and ANSI-coloured tracebacks.
  notion_export      Notion page exported to Markdown or copied as text:
                     properties, callouts, to-dos, toggles, labelled code blocks.
  cmake_ninja        CMake/Ninja or Meson build output wrapping the command as a
                     custom target or ExternalProject step (FAILED: ..., ninja:
                     build stopped).
  gradle_maven       Gradle Exec task or Maven exec/antrun plugin running the
                     command, with the usual FAILURE / [ERROR] chrome.
  release_notes      changelog / release notes / NEWS entries quoting the error
                     users reported.
  dependabot_pr      Dependabot or Renovate PR body plus a maintainer or bot
                     comment pasting the failing CI log.
  podcast_transcript auto-generated podcast or meeting transcript with speaker
                     labels and timestamps, often with show notes quoting the error.
  slide_notes        slides exported as text or Markdown (Slide n of m, bullets,
                     code box, speaker notes).
  textbook_exercise  textbook or tutorial "Common errors" / "Try it" box with
                     captioned, sometimes line-numbered listings and output.
  zoom_chat          saved Zoom meeting chat (tab-indented message lines, older
                     one-line format too) pasting command and error in pieces.
  syslog_remote      RFC 5424 / RFC 3164 records forwarded to a central server,
                     one record per output line.
  wsl_windows        Windows Terminal copy of PowerShell running wsl, cmd.exe or a
                     WSL bash prompt, with CRLF line ends.
  editor_terminal    editor terminals: VS Code task terminal, Emacs shell /
                     eshell / compilation buffers, Neovim :terminal.
  gist_multi_file    GitHub Gist page copied as text: several files with line
                     numbers, a description and comments.
  sms_relay          SMS / pager relay messages splitting the error over numbered
                     parts, with abbreviations and truncation.
  wiki_howto         internal wiki / Confluence-like HOWTO with breadcrumbs,
                     Symptoms / Error / Resolution sections and a footer.

Blind writing: the writer of this script read only the ``error`` and
``command`` keys of each ``[[case]]`` table (loaded with tomllib, no other
key looked at) and a few ProactiveBench session files for tone.  No other
file of the project was read (no code, tests, docs, other phrasing sets or
writer scripts), no git history was looked at, and no project code was run.
"""

import glob
import json
import os
import random
import re
import shlex
import tomllib
from datetime import datetime, timedelta

SEED = 1010_2025
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "help_phrasings_tenth.jsonl")

STYLES = [
    "ipynb_json", "notion_export", "cmake_ninja", "gradle_maven",
    "release_notes", "dependabot_pr", "podcast_transcript", "slide_notes",
    "textbook_exercise", "zoom_chat", "syslog_remote", "wsl_windows",
    "editor_terminal", "gist_multi_file", "sms_relay", "wiki_howto",
]

FIRST = ["Ana", "Ben", "Chen", "Dana", "Emeka", "Farah", "Gus", "Hana", "Ines",
         "Jonas", "Keiko", "Lars", "Maya", "Nikhil", "Olu", "Priya", "Quinn",
         "Rosa", "Sami", "Tomás", "Uma", "Viktor", "Wen", "Yara", "Zoe",
         "Amara", "Bilal", "Carmen", "Dmitri", "Elif", "Femi", "Greta", "Hiro",
         "Ivana", "Jamal", "Kofi", "Lena", "Mateo", "Noor", "Oskar", "Pia",
         "Rahul", "Sofia", "Tariq", "Vera", "Wiktor", "Xin", "Yusuf"]
LAST = ["Ruiz", "Okafor", "Li", "Kowalski", "Nwosu", "Haddad", "Berg", "Sato",
        "Moreau", "Fischer", "Tanaka", "Lindqvist", "Patel", "Mensah", "Rossi",
        "Novak", "Kaur", "Silva", "Yilmaz", "Schmidt", "Adeyemi", "Costa",
        "Horvat", "Ivanova", "Jensen", "Kim", "Lopez", "Mwangi", "Nakamura",
        "Brennan", "Dubois", "Eriksen", "Ferreira", "Gallo", "Hughes", "Iqbal"]
PROJECTS = ["ledger", "shopfront", "pulse", "atlas", "harbor", "tidepool",
            "quill", "beacon", "orchard", "relay", "nimbus", "cobalt", "ferry",
            "lumen", "sprocket", "tally", "wicket", "mosaic", "parcel",
            "kestrel", "inkwell", "brightline", "saltmarsh", "gearbox"]
ORGS = ["acme", "northwind", "brightpath", "kiteworks", "olive-labs",
        "tessellate", "bluefin", "riverbend", "copperleaf", "hexagon-io",
        "larkspur", "fernhill"]
LAPTOPS = ["thinkpad", "x1", "devbox", "framework", "nuc", "ws-042", "pop-os",
           "fedora", "ubuntu-vm", "mbp-linux", "t14s", "deskmini", "xps13"]
SERVERS = ["web01", "web-02", "build-03", "ci-runner-7", "app-2", "db-1",
           "worker-04", "stage-api-1", "edge-3", "batch01", "ops-bastion"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
          "Oct", "Nov", "Dec"]
MONTHS_LONG = ["January", "February", "March", "April", "May", "June", "July",
               "August", "September", "October", "November", "December"]

SAL = re.compile(r"error|fatal|failed|failure|denied|not found|cannot|can't|"
                 r"could not|unable|panic|exception|refused|no such|invalid|"
                 r"missing|unknown|conflict|forbidden|not allowed|abort", re.I)


# ---------------------------------------------------------------- loading

def load_cases():
    files = (sorted(glob.glob(os.path.join(ROOT, "bench", "help_cases", "*.toml")))
             + sorted(glob.glob(os.path.join(ROOT, "bench", "help_heldout", "set*.toml"))))
    cases = []
    for path in files:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for i, tbl in enumerate(data.get("case", [])):
            # Only these two keys are ever looked at.
            cases.append({"file": os.path.basename(path), "case": i,
                          "error": tbl.get("error"), "command": tbl.get("command")})
    return cases


# ---------------------------------------------------------------- helpers

def headline(err):
    ls = [ln.strip() for ln in err.split("\n") if ln.strip()]
    if not ls:
        return ""
    if ls[0].startswith("Traceback") or ls[0].startswith('File "'):
        for ln in reversed(ls):
            if re.match(r"^[\w.]+(Error|Exception|Warning|Exit|Interrupt)\b", ln):
                return ln
        return ls[-1]
    for ln in ls:
        if re.search(r"\b(error|fatal|failed|panic|exception)\b", ln, re.I) and not ln.startswith("[INFO]"):
            return ln
    for ln in ls:
        if SAL.search(ln):
            return ln
    return ls[0]


def short(s, n=70):
    s = s.strip()
    if len(s) <= n:
        return s
    cut = s[:n].rsplit(" ", 1)[0]
    return cut + "…"


def fence(s, lang=""):
    n = 3
    while "`" * n in s:
        n += 1
    f = "`" * n
    return f"{f}{lang}\n{s}\n{f}"


def code_inline(s):
    if "`" not in s:
        return f"`{s}`"
    return f"`` {s} ``"


def indent(s, p):
    return "\n".join((p + ln) if ln.strip() else p.rstrip() for ln in s.split("\n"))


def nb_lines(s):
    parts = s.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def hexid(r, n=8):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def tool_of(cmd):
    parts = re.split(r"&&|;|\|", cmd)
    for p in parts:
        toks = p.strip().split()
        while toks and (re.match(r"^[A-Z_][A-Z0-9_]*=", toks[0]) or toks[0] in ("sudo", "time", "env")):
            toks = toks[1:]
        if not toks or toks[0] == "cd":
            continue
        t = toks[0]
        if t in ("python3", "python") and len(toks) > 2 and toks[1] == "-m":
            return toks[2]
        return t
    return cmd.split()[0] if cmd.split() else "sh"


TOPIC = {}
for _t, _names in {
    "python": "python python3 python3.12 pyhton3 pip pip3 black pytest json.tool",
    "node": "node npm npx yarn tsc pnpm",
    "rust": "cargo rustc rustup",
    "go": "go",
    "java": "java javac mvn ./mvnw ./gradlew gradle",
    "ruby": "ruby gem bundle bin/rails rails rbenv jekyll",
    "docker": "docker",
    "kubernetes": "kubectl helm minikube",
    "git": "git gti",
    "ssh": "ssh scp rsync ssh-add ssh-copy-id ssh-keygen",
    "databases": "psql mysql sqlite3 redis-cli pg_dump mongosh",
    "systemd": "systemctl journalctl",
    "tls": "openssl curl",
    "c-builds": "gcc g++ make cmake pkg-config cc",
}.items():
    for _n in _names.split():
        TOPIC[_n] = _t

ECO = {"python": "pip", "node": "npm", "rust": "cargo", "go": "gomod",
       "java": "maven", "ruby": "bundler", "docker": "docker"}

DEPS = {
    "pip": [("requests", "https://github.com/psf/requests", "2.31.0", "2.32.3"),
            ("urllib3", "https://github.com/urllib3/urllib3", "2.2.1", "2.2.2"),
            ("pydantic", "https://github.com/pydantic/pydantic", "2.7.1", "2.8.2"),
            ("pytest", "https://github.com/pytest-dev/pytest", "8.1.1", "8.3.2"),
            ("numpy", "https://github.com/numpy/numpy", "1.26.4", "2.0.1")],
    "npm": [("typescript", "https://github.com/microsoft/TypeScript", "5.4.5", "5.5.4"),
            ("eslint", "https://github.com/eslint/eslint", "8.57.0", "9.9.0"),
            ("express", "https://github.com/expressjs/express", "4.19.2", "4.21.0"),
            ("webpack", "https://github.com/webpack/webpack", "5.91.0", "5.94.0"),
            ("vite", "https://github.com/vitejs/vite", "5.2.11", "5.4.2")],
    "cargo": [("serde", "https://github.com/serde-rs/serde", "1.0.203", "1.0.209"),
              ("tokio", "https://github.com/tokio-rs/tokio", "1.38.0", "1.40.0"),
              ("clap", "https://github.com/clap-rs/clap", "4.5.7", "4.5.16"),
              ("reqwest", "https://github.com/seanmonstar/reqwest", "0.12.4", "0.12.7")],
    "gomod": [("golang.org/x/net", "https://github.com/golang/net", "0.25.0", "0.28.0"),
              ("github.com/spf13/cobra", "https://github.com/spf13/cobra", "1.8.0", "1.8.1"),
              ("google.golang.org/grpc", "https://github.com/grpc/grpc-go", "1.64.0", "1.65.0")],
    "maven": [("com.fasterxml.jackson.core:jackson-databind", "https://github.com/FasterXML/jackson", "2.17.1", "2.17.2"),
              ("org.junit.jupiter:junit-jupiter", "https://github.com/junit-team/junit5", "5.10.2", "5.11.0"),
              ("org.postgresql:postgresql", "https://github.com/pgjdbc/pgjdbc", "42.7.3", "42.7.4")],
    "bundler": [("rails", "https://github.com/rails/rails", "7.1.3.4", "7.1.4"),
                ("nokogiri", "https://github.com/sparklemotion/nokogiri", "1.16.5", "1.16.7"),
                ("puma", "https://github.com/puma/puma", "6.4.2", "6.4.3")],
    "docker": [("python", "https://github.com/docker-library/python", "3.11-slim", "3.12-slim"),
               ("node", "https://github.com/nodejs/docker-node", "18-alpine", "20-alpine"),
               ("golang", "https://github.com/docker-library/golang", "1.21-bookworm", "1.22-bookworm")],
    "actions": [("actions/checkout", "https://github.com/actions/checkout", "3", "4"),
                ("actions/setup-python", "https://github.com/actions/setup-python", "4", "5"),
                ("actions/cache", "https://github.com/actions/cache", "3", "4"),
                ("docker/build-push-action", "https://github.com/docker/build-push-action", "5", "6")],
}
ECO_LABEL = {"pip": "pip", "npm": "npm_and_yarn", "cargo": "cargo", "gomod": "go_modules",
             "maven": "maven", "bundler": "bundler", "docker": "docker", "actions": "github_actions"}

SITUATIONS = ["on a fresh clone", "on the new laptop", "right after the OS upgrade",
              "in the onboarding VM", "only on my machine", "after pulling main",
              "on the staging box", "in a clean container", "after rebasing",
              "on the shared build host", "first thing this morning"]


class Ctx:
    """Per-row context derived from the case's error and command only."""

    def __init__(self, case, r):
        self.file, self.idx = case["file"], case["case"]
        self.raw = case["error"]
        self.err = case["error"].rstrip("\n")
        self.lines = self.err.split("\n")
        self.r = r
        cmd = case["command"]
        cwd = None
        m = re.search(r'File "(/[^"]+\.py)"', self.err)
        if not cmd:
            if m:
                cwd, base = os.path.split(m.group(1))
                cmd = f"python3 {base}"
            else:
                cmd = "python3 main.py"
        self.cmd = cmd
        self.cmd_given = bool(case["command"])
        hm = re.search(r"/home/([a-z][\w-]*)/", self.err)
        self.user = hm.group(1) if hm else r.choice(FIRST).lower().replace("á", "a")
        if cwd is None:
            pm = re.search(rf"/home/{re.escape(self.user)}/((?:projects/)?[A-Za-z0-9][\w.-]*)/", self.err)
            if pm and pm.group(1) not in ("Downloads", "go", "bin", "snap", "projects"):
                cwd = f"/home/{self.user}/{pm.group(1)}"
            elif m:
                cwd = os.path.dirname(m.group(1))
            else:
                cwd = f"/home/{self.user}/{r.choice(['', 'projects/', 'src/', 'code/'])}{r.choice(PROJECTS)}"
        self.cwd = cwd
        self.home = f"/home/{self.user}"
        self.tcwd = "~" + cwd[len(self.home):] if cwd.startswith(self.home) else cwd
        self.proj = os.path.basename(cwd) if cwd != self.home else r.choice(PROJECTS)
        self.host = r.choice(LAPTOPS)
        self.server = r.choice(SERVERS)
        self.first, self.last = r.choice(FIRST), r.choice(LAST)
        self.name = f"{self.first} {self.last}"
        o = [f for f in FIRST if f != self.first]
        self.ofirst, self.olast = r.choice(o), r.choice(LAST)
        self.oname = f"{self.ofirst} {self.olast}"
        self.handle = r.choice([self.first.lower(), self.first[0].lower() + self.last.lower(),
                                f"{self.first.lower()}-{self.last.lower()}", f"{self.first.lower()}{r.randint(2, 99)}"])
        self.handle = re.sub(r"[^a-z0-9-]", "", self.handle.replace("á", "a"))
        self.ohandle = re.sub(r"[^a-z0-9-]", "", (self.ofirst[0] + self.olast).lower().replace("á", "a"))
        self.org = r.choice(ORGS)
        self.dt = datetime(2024, 1, 8, 8, 0, 0) + timedelta(days=r.randint(0, 680), seconds=r.randint(0, 11 * 3600))
        self.tool = tool_of(cmd)
        self.topic = TOPIC.get(self.tool, "shell")
        self.eco = ECO.get(self.topic, "actions")
        self.head = headline(self.err)
        self.code = exit_code(self.err)

    def prompt(self, host=None):
        return f"{self.user}@{host or self.host}:{self.tcwd}$ "

    def later(self, secs):
        return self.dt + timedelta(seconds=secs)


def exit_code(err):
    if "command not found" in err:
        return 127
    if re.search(r"^bash: .*(Permission denied|cannot execute)", err, re.M):
        return 126
    m = re.search(r"make: \*\*\* .*Error (\d+)", err)
    if m:
        return 2
    if re.search(r"^exit status \d+$", err, re.M):
        return 1
    if err.startswith("panic:") or "\npanic:" in err:
        return 2
    return 1


def key_excerpt(err, limit=560):
    """What a person would keep when space is short: salient lines, in order."""
    if len(err) <= limit:
        return err
    ls = [ln for ln in err.split("\n") if ln.strip()]
    head = headline(err)
    keep = []
    total = 0
    for ln in ls:
        if ln.strip() == head or SAL.search(ln):
            if total + len(ln) > limit and keep:
                break
            keep.append(ln)
            total += len(ln) + 1
    if not keep:
        keep = ls[-3:]
    return "\n".join(keep)


def fmt_dt_us(dt):
    return f"{MONTHS[dt.month - 1]} {dt.day}, {dt.year}"


def ampm(dt):
    h = dt.hour % 12 or 12
    return f"{h}:{dt.minute:02d} {'AM' if dt.hour < 12 else 'PM'}"


# ---------------------------------------------------------------- 1 ipynb_json

def _ansi_tb(n, body, code):
    R, G, C, Z = "\x1b[0;31m", "\x1b[0;32m", "\x1b[0;36m", "\x1b[0m"
    esc = repr(body)[1:-1]
    bb = repr(body.encode())
    return [
        f"{R}---------------------------------------------------------------------------{Z}",
        f"{R}CalledProcessError{Z}                        Traceback (most recent call last)",
        f"Cell {G}In[{n}], line 1{Z}\n{G}----> 1{Z} \x1b[43mget_ipython\x1b[49m\x1b[43m(\x1b[49m\x1b[43m)\x1b[49m"
        f"\x1b[38;5;241;43m.\x1b[39;49m\x1b[43mrun_cell_magic\x1b[49m\x1b[43m(\x1b[49m\x1b[38;5;124;43m'\x1b[39;49m"
        f"\x1b[38;5;124;43mbash\x1b[39;49m\x1b[38;5;124;43m'\x1b[39;49m\x1b[43m,\x1b[49m\x1b[43m \x1b[49m"
        f"\x1b[38;5;124;43m'\x1b[39;49m\x1b[38;5;124;43m'\x1b[39;49m\x1b[43m,\x1b[49m\x1b[43m \x1b[49m"
        f"\x1b[38;5;124;43m'\x1b[39;49m\x1b[38;5;124;43m{esc}\x1b[39;49m\x1b[38;5;124;43m'\x1b[39;49m\x1b[43m)\x1b[49m\n",
        f"File {G}/usr/local/lib/python3.11/site-packages/IPython/core/interactiveshell.py:2541{Z}, in "
        f"{C}InteractiveShell.run_cell_magic\x1b[0;34m(self, magic_name, line, cell){Z}\n"
        f"\x1b[1;32m   2539{Z} \x1b[38;5;28;01mwith\x1b[39;00m \x1b[38;5;28mself\x1b[39m\x1b[38;5;241m.\x1b[39mbuiltin_trap:\n"
        f"\x1b[1;32m   2540{Z}     args \x1b[38;5;241m=\x1b[39m (magic_arg_s, cell)\n"
        f"{G}-> 2541{Z}     result \x1b[38;5;241m=\x1b[39m \x1b[43mfn\x1b[49m\x1b[43m(\x1b[49m\x1b[38;5;241;43m*\x1b[39;49m"
        f"\x1b[43margs\x1b[49m\x1b[43m,\x1b[49m\x1b[43m \x1b[49m\x1b[38;5;241;43m*\x1b[39;49m\x1b[38;5;241;43m*\x1b[39;49m"
        f"\x1b[43mkwargs\x1b[49m\x1b[43m)\x1b[49m\n",
        f"File {G}/usr/local/lib/python3.11/site-packages/IPython/core/magics/script.py:155{Z}, in "
        f"{C}ScriptMagics._make_script_magic.<locals>.named_script_magic\x1b[0;34m(line, cell){Z}\n"
        f"\x1b[1;32m    153{Z}         line \x1b[38;5;241m=\x1b[39m script\n"
        f"{G}--> 155{Z} \x1b[38;5;28;01mreturn\x1b[39;00m \x1b[38;5;28mself\x1b[39m\x1b[38;5;241m.\x1b[39mshebang(line, cell)\n",
        f"File {G}/usr/local/lib/python3.11/site-packages/IPython/core/magics/script.py:315{Z}, in "
        f"{C}ScriptMagics.shebang\x1b[0;34m(self, line, cell){Z}\n"
        f"\x1b[1;32m    313{Z} \x1b[38;5;28;01mif\x1b[39;00m args\x1b[38;5;241m.\x1b[39mraise_error \x1b[38;5;129;01mand\x1b[39;00m p\x1b[38;5;241m.\x1b[39mreturncode \x1b[38;5;241m!=\x1b[39m \x1b[38;5;241m0\x1b[39m:\n"
        f"{G}--> 315{Z}     \x1b[38;5;28;01mraise\x1b[39;00m CalledProcessError(p\x1b[38;5;241m.\x1b[39mreturncode, cell)\n",
        f"{R}CalledProcessError{Z}: Command '{bb}' returned non-zero exit status {code}.",
    ]


def s_ipynb(c, r):
    n = r.randint(2, 47)
    cells = []
    if r.random() < 0.55:
        md = r.choice([f"## Setup\n\nInstall / check the tooling for `{c.proj}` before running the analysis.",
                       f"### Reproduce {c.proj} failure\n{c.first}'s notes, {fmt_dt_us(c.dt)}",
                       f"# {c.proj}: environment check",
                       "## 1. Environment", f"Run the {c.tool} step from the notebook so the output is saved with it."])
        cells.append({"cell_type": "markdown", "id": hexid(r), "metadata": {}, "source": nb_lines(md)})
    v = r.choices(["bang", "bash", "sub"], [4, 4, 2])[0]
    if v == "bang":
        src = f"!{c.cmd}"
        pre = ""
        if r.random() < 0.35:
            src = f"%cd {c.tcwd}\n" + src
            pre = c.cwd + "\n"
        outputs = [{"name": "stdout", "output_type": "stream", "text": nb_lines(pre + c.err + "\n")}]
    elif v == "bash":
        body = (f"cd {c.tcwd}\n" if r.random() < 0.6 else "") + c.cmd + "\n"
        src = "%%bash\n" + body
        outputs = [{"name": "stderr", "output_type": "stream", "text": nb_lines(c.err + "\n")},
                   {"ename": "CalledProcessError",
                    "evalue": f"Command '{body.encode()!r}' returned non-zero exit status {c.code}.",
                    "output_type": "error", "traceback": _ansi_tb(n, body, c.code)}]
    else:
        src = (f"import subprocess\n\nres = subprocess.run({c.cmd!r}, shell=True, cwd={c.cwd!r},\n"
               f"                     capture_output=True, text=True)\nprint('exit code:', res.returncode)\nprint(res.stderr)")
        outputs = [{"name": "stdout", "output_type": "stream",
                    "text": nb_lines(f"exit code: {c.code}\n{c.raw}\n")}]
    code_cell = {"cell_type": "code", "execution_count": n, "id": hexid(r), "metadata": {},
                 "outputs": outputs, "source": nb_lines(src)}
    cells.append(code_cell)
    if r.random() < 0.3:
        cells.append({"cell_type": "code", "execution_count": None, "id": hexid(r), "metadata": {},
                      "outputs": [], "source": []})
    if r.random() < 0.3:
        nb = {"cells": cells, "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                              "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                              "pygments_lexer": "ipython3", "version": r.choice(["3.11.9", "3.12.4", "3.10.12"])}},
            "nbformat": 4, "nbformat_minor": 5}
        return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    parts = [indent(json.dumps(cl, indent=1, sort_keys=True, ensure_ascii=False), "  ") for cl in cells]
    text = ",\n".join(parts)
    if r.random() < 0.5:
        text = ' "cells": [\n' + text + ","
    return text


# ---------------------------------------------------------------- 2 notion_export

def s_notion(c, r):
    title = r.choice([f"{c.tool} fails on {c.host}", f"Debug log: {c.proj} setup",
                      f"🐛 {short(c.head, 55)}", f"Onboarding blockers — {c.proj}",
                      f"{c.proj} / {c.topic} issue", f"Week {c.dt.isocalendar()[1]} dev notes"])
    status = r.choice(["In progress", "Blocked", "Not started", "Needs triage"])
    tags = ", ".join(r.sample([c.topic, "onboarding", "dev-env", "bug", c.proj, "ci", "laptop"], r.randint(1, 3)))
    props = [f"Status: {status}", f"Tags: {tags}"]
    if r.random() < 0.7:
        props.append(f"Assignee: {c.name}")
    props.append(f"Created: {MONTHS_LONG[c.dt.month - 1]} {c.dt.day}, {c.dt.year} {ampm(c.dt)}")
    if r.random() < 0.5:
        props.append(f"Priority: {r.choice(['High', 'Medium', 'Low', 'P1', 'P2'])}")
    emoji = r.choice(["💡", "⚠️", "🔥", "📌", "❗", "🚧"])
    callout = r.choice([f"Happens {r.choice(SITUATIONS)}. Don't waste time on the README steps, they're out of date.",
                        f"Blocked on this — can't continue with {c.proj} until it's sorted.",
                        f"Ask {c.oname} before changing anything on {c.host}.",
                        "Copying the exact output below so we stop paraphrasing it in Slack.",
                        f"Same thing happened to {c.ofirst} last sprint?"])
    todos = [("x", f"`cd {c.tcwd}`"), ("x", f"Run `{c.cmd}`" if "`" not in c.cmd else "Run the command below"),
             (" ", r.choice(["Compare with a teammate's machine", "Check versions (see toggle)",
                             "Search the issue tracker", f"Ping {c.ofirst} in #{c.topic}",
                             "Try again in a clean shell"])),
             (" ", r.choice(["Write up fix in the runbook", "Close this page once fixed",
                             "Add to onboarding checklist"]))]
    if r.random() < 0.55:
        # Markdown export
        out = [f"# {title}", ""] + props + ["", "<aside>", f"{emoji} {callout}", "", "</aside>", "", "## Steps", ""]
        out += [f"- [{a}] {b}" for a, b in todos] + ["", fence(c.cmd, "bash"), ""]
        if r.random() < 0.6:
            out += ["<details>", f"<summary>{r.choice(['Full error output', 'Output', 'Error (click to expand)'])}</summary>",
                    "", fence(c.err), "", "</details>", ""]
        else:
            out += ["- Error output", "    ", indent(fence(c.err), "    "), ""]
        out += ["## Notes", "", r.choice([f"Nothing in the {c.tool} docs about this yet.", "TODO: add versions",
                                          f"@{c.oname} might know, they set up the last box."])]
        return "\n".join(out).rstrip() + "\n"
    # copied from the page
    out = [title, ""] + props + ["", f"{emoji} {callout}", "", "Steps", ""]
    out += [("☑ " if a == "x" else "☐ ") + b.replace("`", "") for a, b in todos]
    out += ["", "Bash", c.cmd, "", f"▸ {r.choice(['Full error', 'Output', 'Error output'])}",
            "", r.choice(["Plain Text", "Plain Text", "Shell"]), c.err, ""]
    if r.random() < 0.5:
        out += ["Comments", f"{c.oname}  {ampm(c.later(3600))}", r.choice(["Seeing this too.", "Which branch?",
                                                                           "Did you try it outside the venv?"])]
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------- 3 cmake_ninja

def _cmake_sh(cmd):
    return cmd.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")


def s_ninja(c, r):
    p = c.prompt()
    cmd = c.cmd
    if cmd.startswith("cmake "):
        out = [p + cmd, c.err]
        if "-B" in cmd and r.random() < 0.5:
            bdir = re.search(r"-B\s*(\S+)", cmd).group(1)
            out += [p + f"ninja -C {bdir}", "ninja: error: loading 'build.ninja': No such file or directory"]
        out.append(p)
        return "\n".join(out)
    build = r.choice(["build", "_build", "build-debug", "out/build"])
    bpath = f"{c.cwd}/{build}"
    tgt = re.sub(r"[^a-z0-9_]", "_", r.choice(["check_env", "run_tool", "bootstrap", "gen_assets", "deps",
                                                 f"{c.tool.split('/')[-1]}_step", "smoke_test", "prepare"]))
    pre = []
    for f in r.sample(["src/main.c", "src/util.c", "src/config.c", "src/cli.c", "src/log.c"], r.randint(0, 3)):
        pre.append(("Building C object", f"CMakeFiles/{c.proj}.dir/{f}.o"))
    total = len(pre) + r.randint(1, 4)
    v = r.choices(["cmake", "meson", "extproj"], [5, 3, 3 if c.tool in ("make", "./configure") else 1])[0]
    if v == "meson":
        bd = r.choice(["builddir", "build", "_build"])
        out = [p + f"meson compile -C {bd} {tgt}", "INFO: autodetecting backend as ninja",
               f"INFO: calculating backend command to run: /usr/bin/ninja -C {c.cwd}/{bd} {tgt}",
               f"ninja: Entering directory `{c.cwd}/{bd}'"]
        for i, (_a, f) in enumerate(pre):
            out.append(f"[{i + 1}/{total}] Compiling C object {c.proj}.p/{f.split('/')[-1]}")
        out += [f"[{len(pre) + 1}/{total}] Running external command {tgt} (wrapped by meson to set env)",
                f"FAILED: meson-internal__{tgt} ",
                f"/usr/bin/meson --internal commandrunner {c.cwd} {c.cwd}/{bd} '' /usr/bin/meson "
                f"/bin/sh -c {shlex.quote(cmd)}",
                c.err, "ninja: build stopped: subcommand failed.",
                "Could not rebuild " + f"{c.cwd}/{bd}" if r.random() < 0.2 else ""]
        return "\n".join(x for x in out if x != "") + "\n"
    if v == "extproj":
        dep = re.sub(r"[^a-z0-9_]", "", r.choice(["libsoup", "zstd", "tinyxml", "vendor", c.proj, "thirdparty"]))
        head = r.choice([p + f"cmake --build {build}", p + f"ninja -C {build}"])
        out = [head] + ([f"ninja: Entering directory `{build}'"] if "ninja -C" in head else [])
        for i, (a, f) in enumerate(pre):
            out.append(f"[{i + 1}/{total + 3}] {a} {f}")
        k = len(pre) + 1
        out += [f"[{k}/{total + 3}] Performing configure step for '{dep}'",
                f"[{k + 1}/{total + 3}] Performing build step for '{dep}'",
                f"FAILED: {dep}-prefix/src/{dep}-stamp/{dep}-build {bpath}/{dep}-prefix/src/{dep}-stamp/{dep}-build ",
                f"cd {c.cwd} && {cmd}", c.err, "ninja: build stopped: subcommand failed."]
        return "\n".join(out) + "\n"
    head = r.choice([p + f"cmake --build {build} --target {tgt}", p + f"ninja -C {build} {tgt}",
                     p + f"cmake --build {build}"])
    out = [head]
    if "ninja -C" in head:
        out.append(f"ninja: Entering directory `{build}'")
    for i, (a, f) in enumerate(pre):
        out.append(f"[{i + 1}/{total}] {a} {f}")
    if pre and r.random() < 0.6:
        out.append(f"[{len(pre) + 1}/{total}] Linking C executable {c.proj}")
    quoted = f'cd {c.cwd} && /bin/sh -c "{_cmake_sh(cmd)}"' if r.random() < 0.6 else f"cd {c.cwd} && {cmd}"
    comment = r.choice([None, f"Running {tgt}", f"Checking {c.tool}"])
    out.append(f"[{len(out)}/{total}] " + (comment or quoted))
    out += [f"FAILED: CMakeFiles/{tgt} {bpath}/CMakeFiles/{tgt} ", quoted, c.err,
            "ninja: build stopped: subcommand failed."]
    if r.random() < 0.3:
        out.append(p)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 4 gradle_maven

GRADLE_TRY = ["* Try:", "> Run with --stacktrace option to get the stack trace.",
              "> Run with --info or --debug option to get more log output.",
              "> Run with --scan to get full insights.", "> Get more help at https://help.gradle.org."]


def s_gradle(c, r):
    p = c.prompt()
    cmd = c.cmd
    if c.tool in ("mvn", "./mvnw"):
        out = [p + cmd, c.err]
        if c.err.rstrip().endswith("-----") and "BUILD FAILURE" in c.err:
            out += [f"[INFO] Total time:  {r.randint(1, 30)}.{r.randint(100, 999)} s",
                    f"[INFO] Finished at: {c.dt.strftime('%Y-%m-%dT%H:%M:%S')}+0{r.randint(0, 2)}:00",
                    "[INFO] ------------------------------------------------------------------------"]
        return "\n".join(out) + "\n"
    task = r.choice(["runScript", "checkEnv", "bootstrap", "setupDb", "npmBuild", "generateAssets",
                     "integrationSetup", "dockerImage", "smokeTest", "prepareFixtures"])
    proj = r.choice([":app", ":server", ":tools", ""])
    simple = not re.search(r"[&|;<>'\"$*]", cmd)
    v = r.choices(["gradle", "maven", "antrun"], [5, 4, 2])[0]
    if v == "gradle":
        exe = cmd.split()[0] if simple and r.random() < 0.5 else r.choice(["sh", "bash"])
        out = []
        if r.random() < 0.35:
            args = ", ".join(f'"{a}"' for a in (cmd.split() if exe != "sh" and exe != "bash"
                                                 else [exe, "-c", cmd.replace('"', '\\"')]))
            out += ["// build.gradle.kts", f'tasks.register<Exec>("{task}") {{', "    workingDir = rootDir",
                    f"    commandLine({args})", "}", ""]
        info = r.random() < 0.3
        out.append(p + f"./gradlew {proj}:{task}" + (" --info" if info else ""))
        for t in r.sample(["compileJava", "processResources", "classes", "compileKotlin", "jar"], r.randint(0, 3)):
            out.append(f"> Task {proj}:{t} {r.choice(['UP-TO-DATE', 'NO-SOURCE', 'UP-TO-DATE'])}")
        if info:
            shown = cmd if exe not in ("sh", "bash") else f"{exe} -c {cmd}"
            out.append(f"Starting process 'command '{exe}''. Working directory: {c.cwd} Command: {shown}")
            out.append(f"Successfully started process 'command '{exe}''")
        if r.random() < 0.5:
            out += [f"> Task {proj}:{task} FAILED", c.err]
        else:
            out += [f"> Task {proj}:{task}", c.err, "", f"> Task {proj}:{task} FAILED"]
        out += ["", "FAILURE: Build failed with an exception.", "", "* What went wrong:",
                f"Execution failed for task '{proj}:{task}'.",
                f"> Process 'command '{exe}'' finished with non-zero exit value {c.code}", ""] + GRADLE_TRY
        n = r.randint(2, 9)
        e = r.randint(1, n)
        out += ["", f"BUILD FAILED in {r.randint(1, 40)}s",
                f"{n} actionable tasks: {e} executed" + (f", {n - e} up-to-date" if n > e else "")]
        return "\n".join(out) + "\n"
    art = c.proj
    tm = f"{r.randint(1, 25)}.{r.randint(100, 999)} s"
    fin = c.dt.strftime("%Y-%m-%dT%H:%M:%S") + r.choice(["Z", "+01:00", "+02:00", "-05:00"])
    hdr = ["[INFO] Scanning for projects...", "[INFO] ",
           f"[INFO] {'-' * 22}< com.{c.org.replace('-', '')}:{art} >{'-' * 22}",
           f"[INFO] Building {art} {r.randint(0, 3)}.{r.randint(0, 12)}.{r.randint(0, 9)}-SNAPSHOT",
           "[INFO]   from pom.xml",
           "[INFO] --------------------------------[ jar ]---------------------------------", "[INFO] "]
    tail_fail = ["[INFO] ------------------------------------------------------------------------",
                 "[INFO] BUILD FAILURE",
                 "[INFO] ------------------------------------------------------------------------",
                 f"[INFO] Total time:  {tm}", f"[INFO] Finished at: {fin}",
                 "[INFO] ------------------------------------------------------------------------"]
    help_ = ["[ERROR] ", "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.",
             "[ERROR] Re-run Maven using the -X switch to enable full debug logging.", "[ERROR] ",
             "[ERROR] For more information about the errors and possible solutions, please read the following articles:",
             "[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoExecutionException"]
    if v == "maven":
        eid = r.choice(["run-script", "check-env", "npm-build", "bootstrap", "default-cli"])
        out = [p + r.choice(["mvn -B verify", "mvn package", "mvn -q -B install", f"mvn exec:exec@{eid}"])] + hdr
        out += [f"[INFO] --- exec:3.1.0:exec ({eid}) @ {art} ---", c.err,
                "[ERROR] Command execution failed.",
                f"org.apache.commons.exec.ExecuteException: Process exited with an error: {c.code} (Exit value: {c.code})",
                "    at org.apache.commons.exec.DefaultExecutor.executeInternal (DefaultExecutor.java:404)",
                "    at org.apache.commons.exec.DefaultExecutor.execute (DefaultExecutor.java:166)",
                "    at org.codehaus.mojo.exec.ExecMojo.executeCommandLine (ExecMojo.java:1000)",
                "    at org.codehaus.mojo.exec.ExecMojo.execute (ExecMojo.java:404)"]
        out += tail_fail
        out += [f"[ERROR] Failed to execute goal org.codehaus.mojo:exec-maven-plugin:3.1.0:exec ({eid}) on project "
                f"{art}: Command execution failed.: Process exited with an error: {c.code} (Exit value: {c.code}) -> [Help 1]"] + help_
        if r.random() < 0.4:
            out = [f"<!-- pom.xml: exec-maven-plugin runs: sh -c \"{cmd}\" in {c.tcwd} -->", ""] + out
        return "\n".join(out) + "\n"
    out = [p + "mvn -B generate-resources"] + hdr
    out += [f"[INFO] --- antrun:3.1.0:run (default) @ {art} ---", "[INFO] Executing tasks",
            "     [exec] Current OS is Linux", "     [exec] Executing 'sh' with arguments:",
            "     [exec] '-c'", f"     [exec] '{cmd}'"]
    out += [("     [exec] " + ln) if ln.strip() else "     [exec] " for ln in c.lines]
    out += [f"     [exec] Result: {c.code}"] + tail_fail
    out += [f"[ERROR] Failed to execute goal org.apache.maven.plugins:maven-antrun-plugin:3.1.0:run (default) on project "
            f"{art}: An Ant BuildException has occured: exec returned: {c.code}",
            f"[ERROR] around Ant part ...<exec failonerror=\"true\" executable=\"sh\" dir=\"{c.cwd}\">... @ 4:71 in "
            f"{c.cwd}/target/antrun/build-main.xml"] + help_
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 5 release_notes

def _quote_md(c, r, ind):
    multi = "\n" in c.err or "`" in c.err or len(c.err) > 110
    if not multi and r.random() < 0.8:
        return None
    return indent(fence(c.err), ind)


def s_release(c, r):
    major, minor, patch = r.randint(0, 4), r.randint(1, 19), r.randint(0, 9)
    ver = f"{major}.{minor}.{patch}"
    issue = r.randint(120, 4800)
    day = c.later(86400 * r.randint(3, 40))
    tool_name = r.choice([f"{c.proj}", f"{c.proj}-cli", "devkit", f"{c.org}-bootstrap", f"{c.proj}-scripts"])
    cmdi = code_inline(c.cmd)
    v = r.choice(["kac", "kac", "gh", "rst", "news"])
    block = _quote_md(c, r, "  ")
    reporter = f"@{c.handle}"
    if v == "kac":
        kind = r.choice(["Fixed", "Fixed", "Known issues"])
        out = ["# Changelog", "", "All notable changes to this project will be documented in this file.", "",
               f"## [{ver}] - {day.strftime('%Y-%m-%d')}", ""]
        if r.random() < 0.5:
            out += ["### Changed", "", f"- Setup docs now list the minimum supported `{c.tool}` version.", ""]
        out += [f"### {kind}", ""]
        if kind == "Fixed":
            if block:
                out += [f"- Running {cmdi} from `{c.tcwd}` no longer fails with:", "", block, "",
                        f"  (#{issue}, reported by {reporter})"]
            else:
                out += [f"- Fixed: running {cmdi} no longer fails with {code_inline(c.err)} (#{issue}, thanks {reporter})"]
        else:
            if block:
                out += [f"- {cmdi} can still fail {r.choice(SITUATIONS)} with the following error; "
                        f"see #{issue} for the workaround:", "", block]
            else:
                out += [f"- {cmdi} may fail with {code_inline(c.err)}; tracked in #{issue}."]
        out += ["", f"## [{major}.{minor}.{max(patch - 1, 0)}] - {c.dt.strftime('%Y-%m-%d')}", "", "### Added", "",
                r.choice(["- `--verbose` flag for the setup script.", "- Support for Ubuntu 24.04 runners.",
                          "- A `doctor` subcommand that prints versions."])]
        return "\n".join(out) + "\n"
    if v == "gh":
        out = [f"v{ver}", "Latest", f"@{c.ohandle} released this {r.randint(2, 23)} hours ago · "
               f"{r.randint(1, 40)} commits to main since this release", "", f"v{ver}", "",
               "## What's Changed", ""]
        out.append(f"* Handle missing setup before `{c.tool}` step by @{c.ohandle} in "
                   f"https://github.com/{c.org}/{tool_name}/pull/{issue}")
        out.append(f"* docs: troubleshooting section by @{c.handle} in "
                   f"https://github.com/{c.org}/{tool_name}/pull/{issue + r.randint(1, 9)}")
        out += ["", "## Known issues", "", f"Some users still see this when running {cmdi}:", "",
                fence(c.err), "", f"Please add your details to #{issue - r.randint(1, 50)} if you hit it.", "",
                f"**Full Changelog**: https://github.com/{c.org}/{tool_name}/compare/v{major}.{minor}.{max(patch - 1, 0)}...v{ver}"]
        return "\n".join(out) + "\n"
    if v == "rst":
        title = f"{tool_name} {ver} ({day.strftime('%Y-%m-%d')})"
        out = ["Release history", "===============", "", title, "-" * len(title), "", "Bug fixes", "~~~~~~~~~", "",
               f"- ``{c.cmd}`` no longer aborts {r.choice(SITUATIONS)}. Users reported::", "",
               indent(c.err, "      "), "", f"  (:issue:`{issue}`)", ""]
        return "\n".join(out) + "\n"
    title = f"Noteworthy changes in release {ver} ({day.strftime('%Y-%m-%d')}) [stable]"
    out = [title, "", "** Bug fixes", "", f"  '{c.cmd}' no longer fails with", "",
           indent(c.err, "    "), "", f"  [bug introduced in {tool_name}-{major}.{max(minor - 1, 0)}, reported by {c.name}]", ""]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 6 dependabot_pr

def _actions_log(c, r, step):
    t = c.later(r.randint(60, 900))
    lines = [f"##[group]Run {c.cmd}", c.cmd, "shell: /usr/bin/bash -e {0}", "##[endgroup]"] + c.lines + \
            [f"##[error]Process completed with exit code {c.code}."]
    out = []
    for ln in lines:
        t += timedelta(microseconds=r.randint(2000, 400000))
        out.append(t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}0Z {ln}")
    return "\n".join(out)


def s_dependabot(c, r):
    dep, url, old, new = r.choice(DEPS[c.eco])
    eco = ECO_LABEL[c.eco]
    sha = [hexid(r, 7) for _ in range(3)]
    job = r.choice(["build", "test", "ci / test (ubuntu-latest)", "lint-and-test", "integration"])
    if r.random() < 0.6:
        body = [f"Bumps [{dep}]({url}) from {old} to {new}.", "<details>", "<summary>Release notes</summary>",
                f"<p><em>Sourced from <a href=\"{url}/releases\">{dep.split('/')[-1]}'s releases</a>.</em></p>",
                "<blockquote>", f"<h2>v{new}</h2>", "<h2>What's Changed</h2>", "<ul>",
                f"<li>Fix regression in {r.choice(['retry handling', 'path parsing', 'the CLI entry point', 'type exports'])}</li>",
                "<li>Documentation updates</li>", "</ul>", "</blockquote>", "</details>", "<details>",
                "<summary>Commits</summary>", "<ul>"]
        for s in sha:
            body.append(f"<li><a href=\"{url}/commit/{s}{hexid(r, 33)}\"><code>{s}</code></a> "
                        f"{r.choice(['Release', 'Bump version', 'Merge pull request', 'Update changelog', 'Fix tests'])}</li>")
        body += [f"<li>See full diff in <a href=\"{url}/compare/v{old}...v{new}\">compare view</a></li>", "</ul>",
                 "</details>", "<br />", "",
                 f"[![Dependabot compatibility score](https://dependabot-badges.githubapp.com/badges/compatibility_score"
                 f"?dependency-name={dep}&package-manager={eco}&previous-version={old}&new-version={new})]"
                 f"(https://docs.github.com/en/github/managing-security-vulnerabilities/about-dependabot-security-updates#about-compatibility-scores)",
                 "", "Dependabot will resolve any conflicts with this PR as long as you don't alter it yourself. "
                 "You can also trigger a rebase manually by commenting `@dependabot rebase`."]
        head = [f"Bump {dep} from {old} to {new} #{r.randint(200, 3000)}",
                f"dependabot wants to merge 1 commit into main from dependabot/{eco}/{dep.replace(':', '-')}-{new}", ""]
    else:
        body = ["[![Mend Renovate](https://app.renovatebot.com/images/banner.svg)](https://renovatebot.com)", "",
                "This PR contains the following updates:", "", "| Package | Change | Age | Confidence |",
                "|---|---|---|---|",
                f"| [{dep}]({url}) | `{old}` -> `{new}` | [![age](https://developer.mend.io/api/mc/badges/age/x/{dep}/{new}?slim=true)]"
                f"(https://docs.renovatebot.com/merge-confidence/) | [![confidence](https://developer.mend.io/api/mc/badges/confidence/x/{dep}/{old}/{new}?slim=true)]"
                f"(https://docs.renovatebot.com/merge-confidence/) |", "", "---", "", "### Release Notes", "",
                "<details>", f"<summary>{dep}</summary>", "", f"### [`v{new}`]({url}/releases/tag/v{new})", "",
                f"[Compare Source]({url}/compare/v{old}...v{new})", "", "- Bug fixes and performance improvements", "",
                "</details>", "", "---", "", "### Configuration", "",
                "📅 **Schedule**: Branch creation - At any time (no schedule defined), Automerge - At any time (no schedule defined).",
                "", "🚦 **Automerge**: Disabled by config. Please merge this manually once you are satisfied.", "",
                "♻ **Rebasing**: Whenever PR becomes conflicted, or you tick the rebase/retry checkbox.", "",
                " - [ ] <!-- rebase-check -->If you want to rebase/retry this PR, check this box"]
        head = [f"chore(deps): update dependency {dep} to v{new} #{r.randint(200, 3000)}",
                f"renovate wants to merge 1 commit into main from renovate/{dep.replace('/', '-')}-{new.split('.')[0]}.x", ""]
    ago = r.choice(["2 hours ago", "yesterday", "3 days ago", "40 minutes ago"])
    if r.random() < 0.5:
        comment = [f"{c.handle} commented {ago}", "",
                   r.choice([f"CI is red on this one. The `{job}` job runs {code_inline(c.cmd)} and dies with:",
                             f"Not merging yet — {job} fails, and I get the same locally after `{c.cmd}`:",
                             f"Looks unrelated to the bump? `{job}` blew up:"]), "", fence(c.err), "",
                   r.choice(["Will retry after main is green.", f"@{c.ohandle} any idea?", "Closing for now, will reopen.",
                             "Rerunning the job didn't help."])]
    else:
        comment = ["github-actions bot commented " + ago, "",
                   f"❌ **{job}** failed on `{sha[0]}`", "", "<details><summary>Log excerpt</summary>", "",
                   fence(_actions_log(c, r, job)), "", "</details>", "", f"{c.handle} commented {ago}", "",
                   r.choice(["^ same error on main, not caused by this PR.", "Ugh, this again.",
                             f"Can reproduce with `{c.cmd}` locally." if "`" not in c.cmd else "Can reproduce locally."])]
    return "\n".join(head + body + ["", ""] + comment) + "\n"


# ---------------------------------------------------------------- 7 podcast_transcript

def speak(s):
    s = re.sub(r"([a-z])([A-Z])", r"\1 \2", s)
    s = re.sub(r"[`'\"“”()\[\]{}<>^~]", "", s)
    s = s.replace("_", " ").replace("::", " ").replace(" -- ", " ")
    s = re.sub(r"\s+", " ", s).strip().rstrip(".")
    if re.match(r"^[A-Z][a-z]", s):
        s = s[:1].lower() + s[1:]
    return s


def _ts(sec, style):
    h, m, s = sec // 3600, (sec % 3600) // 60, sec % 60
    if style == "br":
        return f"[{h:02d}:{m:02d}:{s:02d}]"
    if style == "otter":
        return f"{m + 60 * h}:{s:02d}"
    return f"{h:02d}:{m:02d}:{s:02d}"


def s_podcast(c, r):
    host, guest = c.oname, c.name
    t = r.randint(300, 3400)
    said_cmd = c.cmd if r.random() < 0.6 else speak(c.cmd)
    said_err = speak(short(c.head, 160))
    turns = [
        (host, r.choice([f"Okay so walk me through what actually happened on {c.proj}.",
                         "So this is the part where everything went sideways, right?",
                         f"Let's talk about the {c.topic} thing you mentioned before we hit record."])),
        (guest, r.choice([f"Yeah. So I'm in the project folder, I type {said_cmd}, hit enter, and",
                          f"Right, so all I did was run {said_cmd}. That's it. And",
                          f"So it's {r.choice(SITUATIONS)}, um, I run {said_cmd} and"])),
        (guest, f"it just comes back with {said_err}."),
        (host, r.choice(["Classic.", "Oh no.", "Mm-hmm.", "[laughs] Of course it does.", "Yeah, I've seen that one."])),
        (guest, r.choice(["And the thing is, I'd done this a hundred times before.",
                          "I'll put the full output in the show notes because reading it out is painful.",
                          "There's more to it, like a whole wall of text, but that's the line that matters."])),
    ]
    v = r.choice(["br", "br", "otter", "vtt"])
    labels = {host: "Speaker 1", guest: "Speaker 2"} if r.random() < 0.5 else {host: host, guest: guest}
    out = []
    if v == "vtt":
        out = ["WEBVTT", ""]
        base = r.randint(100, 400)
        a = t
        for i, (sp, txt) in enumerate(turns):
            a += r.randint(1, 3)
            b = a + r.randint(2, 6)
            out += [str(base + i), f"{_ts(a, 'v')}.{r.randint(0, 499):03d} --> "
                    f"{_ts(b, 'v')}.{r.randint(500, 999):03d}", f"{labels[sp]}: {txt}", ""]
            a = b
    else:
        ep = r.randint(12, 210)
        out = [r.choice([f"Episode {ep} — {r.choice(['Works on my machine', 'Yak shaving', 'Build failures we have known'])}",
                         f"{c.org} eng sync — transcript (auto-generated)", f"Ship It Weekly #{ep} — transcript"]), ""]
        for i, (sp, txt) in enumerate(turns):
            ts = _ts(t + i * r.randint(3, 9), v)
            if v == "br":
                out.append(f"{ts} {labels[sp]}: {txt}")
            else:
                out += [f"{labels[sp]}  {ts}", txt, ""]
    if r.random() < 0.8:
        out += ["", "---", "", r.choice(["Show notes", "SHOW NOTES", "Links & notes from this episode"]), "",
                f"{_ts(t, 'v')[3:]} — {guest.split()[0]}'s error after running `{c.cmd}`:", "", c.err, "",
                r.choice([f"- {c.tool} docs: https://example.org/{c.topic}", "- Music by Broke For Free",
                          "- Send us your worst error: hello@shipitweekly.fm"])]
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------- 8 slide_notes

def s_slides(c, r):
    total = r.randint(14, 40)
    n = r.randint(4, total - 3)
    title = r.choice([f"When {c.tool} says no", f"Gotcha #{r.randint(1, 9)}: {c.topic} setup",
                      "What you'll probably see", f"Live demo: {c.cmd.split()[0]}", f"Troubleshooting {c.proj}"])
    err = c.err
    if len(c.lines) > 22 and r.random() < 0.5:
        err = "\n".join(c.lines[:8] + ["…"] + c.lines[-8:])
    bullets = r.sample([f"Happens {r.choice(SITUATIONS)}", "Read the LAST line first", "Don't paste this into Google blindly",
                        "Same error on macOS and Linux", "Check which interpreter / toolchain you're on",
                        "We'll fix it together in the next slide", "Copy the whole output when asking for help"], 2)
    notes = r.choice([f"Pause here. Ask who has seen this before. Mention {c.oname} hit it during the last workshop.",
                      "Don't read the whole thing out — point at the first error line and move on.",
                      f"If the demo works by accident, show the screenshot on slide {n + 1}.",
                      "Timing: ~2 min. This is the slide people photograph."])
    v = r.choice(["pptx", "pptx", "marp", "gslides"])
    if v == "pptx":
        out = [f"Slide {n} of {total}", "", title, ""] + [f"• {b}" for b in bullets] + ["", f"$ {c.cmd}", err, "",
                                                                                         "Notes:", notes]
        if r.random() < 0.5:
            out = [f"Slide {n - 1} of {total}", "", r.choice(["Agenda", "Setup", "Step 1: clone & install"]),
                   "", f"• git clone git@github.com:{c.org}/{c.proj}.git", f"• cd {c.proj}", ""] + out
        return "\n".join(out) + "\n"
    if v == "marp":
        out = ["---", "", f"## {title}", ""] + [f"- {b}" for b in bullets] + ["", fence(f"$ {c.cmd}\n{err}", "console"),
                                                                            "", "<!--", notes, "-->", "", "---"]
        return "\n".join(out) + "\n"
    out = [title] + bullets + [f"$ {c.cmd}"] + err.split("\n") + ["", f"Speaker notes: {notes}"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 9 textbook_exercise

def s_textbook(c, r):
    ch, ls = r.randint(1, 14), r.randint(1, 12)
    p = r.choice(["$ ", "$ ", "% ", f"{c.tcwd}$ "])
    v = r.choice(["manning", "box", "tutorial", "numbered"])
    intro = r.choice([f"If you see the following error when you run {c.cmd}, don't panic.",
                      f"Readers who skipped section {ch}.{r.randint(1, 6)} often get this when running the next listing:",
                      "A very common mistake at this point produces output like this:",
                      "Try running the command yourself. On some systems it fails:"])
    expl = r.choice(["Read the error from the bottom up: the last line usually names the problem.",
                     f"We'll come back to why this happens in chapter {ch + 1}.",
                     "Before moving on, fix the problem and rerun the listing until it completes without errors.",
                     "Notice that the message itself tells you what went wrong; read all of it before changing anything."])
    if v == "manning":
        out = [intro, "", f"Listing {ch}.{ls} {r.choice(['Running the program for the first time', 'Output of the failing command', 'A failed run'])}",
               "", p + c.cmd, c.err, "", expl]
    elif v == "box":
        bar = r.choice(["─" * 60, "-" * 60, "=" * 60])
        out = [bar, r.choice(["COMMON ERRORS", "TRY IT YOURSELF", "⚠ WATCH OUT", "TROUBLESHOOTING"]), bar, intro, "",
               f"Listing {ch}.{ls}", "", p + c.cmd, "", "Output:", "", c.err, "", expl, bar]
    elif v == "tutorial":
        out = [f"Step {r.randint(2, 6)} — {r.choice(['Running the script', 'Installing dependencies', 'Starting the service', 'Building the project'])}",
               "", "Run the following command from the project directory:", "", f"    {c.cmd}", "", intro,
               "", "Output", indent(c.err, "    "), "", expl]
    else:
        allx = [p + c.cmd] + c.lines
        w = len(str(len(allx)))
        out = [intro.replace(c.cmd, "the command in line 1 of the next example") if c.cmd in intro else intro, "",
               f"Example {ch}-{ls}. {r.choice(['Running the example', 'Failing run', 'Terminal session'])}", ""]
        out += [f"{i + 1:>{w}}  {ln}".rstrip() for i, ln in enumerate(allx)]
        out += ["", expl]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 10 zoom_chat

def _chunks(lines, r):
    out, i = [], 0
    while i < len(lines):
        k = r.randint(3, 14)
        out.append(lines[i:i + k])
        i += k
    return out


def s_zoom(c, r):
    t = c.dt
    who, other = c.name, c.oname
    msgs = [(other, r.choice(["can you paste what you get?", "paste the full error pls", "what does the terminal say?"]))]
    msgs.append((who, r.choice([f"ok one sec, running `{c.cmd}` now", f"ran {c.cmd}", f"$ {c.cmd}"])))
    chunks = _chunks(c.lines, r) if len(c.lines) > 4 and r.random() < 0.7 else [c.lines]
    for ch in chunks:
        msgs.append((who, "\n".join(ch)))
    msgs.append((other, r.choice(["thanks, looking", "ah ok", "hmm", "can you share screen?", "👀"])))
    if r.random() < 0.4:
        msgs.append((c.name, "that's everything it printed"))
    v = r.choice(["new", "new", "new", "old"])
    out = []
    for sp, m in msgs:
        t += timedelta(seconds=r.randint(4, 55))
        if v == "new":
            dest = "Everyone" if r.random() < 0.85 else (other if sp == who else who) + "(Direct Message)"
            out.append(f"{t.strftime('%H:%M:%S')} From {sp} to {dest}:")
            out += ["\t" + ln for ln in m.split("\n")]
        else:
            out.append(f"{t.strftime('%H:%M:%S')}\t From  {sp} : {m}")
    if v == "new" and r.random() < 0.4:
        t += timedelta(seconds=20)
        out.append(f"{t.strftime('%H:%M:%S')} From {other} to Everyone:")
        out.append(f"\tReacted to \"{short(c.lines[0], 30)}\" with 😬")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 11 syslog_remote

def s_syslog(c, r):
    app = r.choice([f"deploy-{c.proj}", "cron", "ci-runner", "provision", f"{c.proj}-setup", "ansible-pull", "nightly"])
    if app == "cron":
        app, fac = "CRON", 9
    else:
        fac = r.choice([1, 3, 16, 17])
    host = r.choice([c.server, f"{c.server}.{c.org}.internal", c.host])
    pid = r.randint(900, 65000)
    recs = [(6, r.choice([f"Running: {c.cmd}", f"({c.user}) CMD (cd {c.tcwd} && {c.cmd})", f"exec: {c.cmd}"]))]
    recs += [(3, ln) for ln in c.lines if ln.strip()]
    recs.append((3 if r.random() < 0.5 else 4, f"command exited with status {c.code}"))
    v = r.choice(["5424", "5424", "3164", "file", "precise"])
    t = c.dt
    out = []
    if v == "file" and r.random() < 0.5:
        out.append(f"==> /var/log/remote/{host}/{t.strftime('%Y-%m-%d')}.log <==")
    for i, (sev, msg) in enumerate(recs):
        t += timedelta(microseconds=r.randint(300, 90000))
        pri = fac * 8 + sev
        if v == "5424":
            sd = "-" if r.random() < 0.7 else f'[meta sequenceId="{i + 1}"]'
            out.append(f"<{pri}>1 {t.strftime('%Y-%m-%dT%H:%M:%S')}.{t.microsecond // 1000:03d}Z {host} {app} {pid} - {sd} {msg}")
        elif v == "3164":
            out.append(f"<{pri}>{MONTHS[t.month - 1]} {t.day:>2} {t.strftime('%H:%M:%S')} {host} {app}[{pid}]: {msg}")
        elif v == "file":
            out.append(f"{MONTHS[t.month - 1]} {t.day:>2} {t.strftime('%H:%M:%S')} {host} {app}[{pid}]: {msg.replace(chr(9), '#011')}")
        else:
            out.append(f"{t.strftime('%Y-%m-%dT%H:%M:%S')}.{t.microsecond:06d}+00:00 {host} {app}[{pid}]: {msg.replace(chr(9), '#011')}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 12 wsl_windows

def s_wsl(c, r):
    wuser = r.choice([c.first, c.first + c.last[0], c.handle, c.first.lower()])
    wuser = re.sub(r"[^A-Za-z0-9]", "", wuser.replace("á", "a"))
    desk = "DESKTOP-" + "".join(r.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(7))
    wdir = r.choice([f"source\\repos\\{c.proj}", f"dev\\{c.proj}", f"Documents\\{c.proj}", f"code\\{c.proj}"])
    v = r.choice(["bash", "bash", "ps", "cmd"]) if "/home/" not in c.err else r.choice(["bash", "bash", "bash", "ps"])
    out = []
    if v == "bash":
        cwd = c.tcwd if r.random() < 0.7 or "/home/" in c.err else f"/mnt/c/Users/{wuser}/{wdir.replace(chr(92), '/')}"
        pr = f"{c.user}@{desk}:{cwd}$ "
        if r.random() < 0.3:
            out += [f"Welcome to Ubuntu {r.choice(['22.04.4 LTS', '24.04.1 LTS', '20.04.6 LTS'])} "
                    f"(GNU/Linux 5.15.153.1-microsoft-standard-WSL2 x86_64)", "",
                    " * Documentation:  https://help.ubuntu.com", ""]
        out += [pr + c.cmd] + c.lines + [pr]
    else:
        special = re.search(r"[&|;<>'\"$`(){}]", c.cmd)
        if special:
            wcmd = "wsl bash -c '" + c.cmd.replace("'", "''") + "'"
        else:
            wcmd = "wsl " + c.cmd
        if v == "ps":
            pr = f"PS C:\\Users\\{wuser}\\{wdir}> "
            if r.random() < 0.4:
                out += ["PowerShell 7.4.5", ""]
            elif r.random() < 0.3:
                out += ["Windows PowerShell", "Copyright (C) Microsoft Corporation. All rights reserved.", "",
                        "Install the latest PowerShell for new features and improvements! https://aka.ms/PSWindows", ""]
            if r.random() < 0.5 and "/home/" in c.err:
                wcmd = "wsl --cd " + c.tcwd + " " + (c.cmd if not special else "bash -c '" + c.cmd.replace("'", "''") + "'")
        else:
            pr = f"C:\\Users\\{wuser}\\{wdir}>"
            out += ["Microsoft Windows [Version 10.0.22631.4037]", "(c) Microsoft Corporation. All rights reserved.", ""]
            if special:
                wcmd = 'wsl bash -c "' + c.cmd.replace('"', '\\"') + '"'
        out += [pr + wcmd] + c.lines + [pr]
    return "\r\n".join(out)


# ---------------------------------------------------------------- 13 editor_terminal

def s_editor(c, r):
    v = r.choice(["vscode_task", "vscode", "emacs_shell", "eshell", "compile", "nvim"])
    p = c.prompt()
    if v == "vscode_task":
        out = [f" *  Executing task: {c.cmd} ", "", c.err, "",
               f" *  The terminal process \"/usr/bin/bash '-c', '{c.cmd}'\" terminated with exit code: {c.code}. ",
               " *  Terminal will be reused by tasks, press any key to close it. "]
        return "\n".join(out) + "\n"
    if v == "vscode":
        out = [p + c.cmd] + c.lines + [p + "exit 1" if r.random() < 0.3 else p]
        if out[-1].endswith("exit 1"):
            out += ["", " *  The terminal process \"/usr/bin/bash\" terminated with exit code: 1. "]
        return "\n".join(out).rstrip() + "\n"
    if v == "emacs_shell":
        out = [p + c.cmd] + c.lines + [p]
        if r.random() < 0.5:
            out += [f"-UUU:**--F1  *shell*{' ' * 6}Bot L{len(out) + r.randint(5, 80)}    (Shell:run) ----------"]
        return "\n".join(out) + "\n"
    if v == "eshell":
        ep = f"{c.tcwd} $ "
        out = (["Welcome to the Emacs shell", ""] if r.random() < 0.5 else []) + [ep + c.cmd] + c.lines + [ep]
        return "\n".join(out) + "\n"
    if v == "compile":
        d = c.dt.strftime("%a %b ") + f"{c.dt.day:>2} " + c.dt.strftime("%H:%M:%S")
        e = c.later(r.randint(1, 40))
        d2 = e.strftime("%a %b ") + f"{e.day:>2} " + e.strftime("%H:%M:%S")
        out = [f'-*- mode: compilation; default-directory: "{c.tcwd}/" -*-', f"Compilation started at {d}", "",
               c.cmd, c.err, "", f"Compilation exited abnormally with code {c.code} at {d2}, duration "
               f"{r.randint(0, 9)}.{r.randint(10, 99)} s"]
        return "\n".join(out) + "\n"
    pid = r.randint(2000, 99999)
    if r.random() < 0.5:
        out = [f"term://{c.tcwd}//{pid}:{c.cmd}", "", c.err, "", f"[Process exited {c.code}]"]
    else:
        out = [f"term://{c.tcwd}//{pid}:/bin/bash", "", p + c.cmd] + c.lines + [p]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 14 gist_multi_file

def _numbered(text, r, style):
    ls = text.split("\n")
    if style == "none":
        return "\n".join(ls)
    if style == "tab":
        return "\n".join(f"{i + 1}\t{ln}" for i, ln in enumerate(ls))
    w = len(str(len(ls)))
    return "\n".join(f"{i + 1:>{w}}  {ln}".rstrip() for i, ln in enumerate(ls))


def s_gist(c, r):
    osname = r.choice(["Ubuntu 22.04.4 LTS", "Ubuntu 24.04.1 LTS", "Debian GNU/Linux 12 (bookworm)",
                       "Fedora Linux 40 (Workstation Edition)", "Pop!_OS 22.04 LTS", "Arch Linux"])
    steps = ["#!/usr/bin/env bash", "set -x", f"cd {c.tcwd}", c.cmd] if r.random() < 0.6 else [f"cd {c.tcwd}", c.cmd]
    out_name = r.choice(["output.txt", "error.log", "output.log", "stderr.txt"])
    steps_name = r.choice(["steps.sh", "repro.sh", "commands.sh"])
    env = ["$ cat /etc/os-release | head -1", f'PRETTY_NAME="{osname}"', "$ uname -r",
           r.choice(["6.8.0-45-generic", "6.1.0-25-amd64", "6.10.6-200.fc40.x86_64", "5.15.0-119-generic"]),
           "$ echo $SHELL", "/bin/bash"]
    files = {steps_name: "\n".join(steps), out_name: c.err, "env.txt": "\n".join(env)}
    if r.random() < 0.3:
        files = {"1-" + steps_name: files[steps_name], "2-" + out_name: c.err, "3-env.txt": files["env.txt"]}
    nstyle = r.choice(["pad", "pad", "tab", "none"])
    desc = r.choice([f"{short(c.head, 80)} — repro for {c.proj}", f"{c.tool} failure on {c.host} ({fmt_dt_us(c.dt)})",
                     f"Repro: `{c.cmd}` fails", f"{c.proj}: {c.topic} error, full output"])
    gid = hexid(r, 32)
    first = sorted(files)[0]
    out = ["Skip to content", "", "Search Gists", "All gists", "Back to GitHub", "", f"@{c.handle}",
           f"{c.handle}/{first}", f"Last active {r.randint(2, 50)} {r.choice(['minutes', 'hours', 'days'])} ago • Report abuse",
           "Code", f"Revisions {r.randint(1, 5)}", f"Stars {r.randint(0, 4)}", "Embed",
           f"<script src=\"https://gist.github.com/{c.handle}/{gid}.js\"></script>", "Download ZIP", desc, ""]
    for name in sorted(files):
        out += [name, "Raw", _numbered(files[name], r, nstyle), ""]
    nc = r.randint(1, 2)
    ago = [r.choice(["3 hours ago", "yesterday", "2 days ago", "last week"]) for _ in range(nc)]
    comments = [(c.ohandle, r.choice([f"Same on {osname}. Did you ever figure it out?",
                                      "Can you post the output of `which " + c.tool.split('/')[-1] + "`?",
                                      "Thanks for the full log, that helps.", "Which version are you on?"])),
                (c.handle, r.choice(["Still stuck, will update the gist.", "Not yet. Happens every time.",
                                     f"Added {out_name}, that's the complete output."]))][:nc]
    for (h, t), a in zip(comments, ago, strict=True):
        out += [f"@{h}", f"{h} commented {a}", t, ""]
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------- 15 sms_relay

def s_sms(c, r):
    srv = c.server
    intro = r.choice([f"{srv}: {c.tool} fail. cmd: {c.cmd} err:", f"FYI {c.proj} setup broke. ran '{c.cmd}' got:",
                      f"pls chk {srv} asap. {c.cmd} -> ", f"{c.first[0]}{c.last[0]}: cant run {c.cmd} on {c.host}, msg:",
                      f"[ALERT] job {c.proj} exit {c.code}. cmd={c.cmd} err="])
    body = key_excerpt(c.err, r.choice([360, 480, 600]))
    header = ""
    if r.random() < 0.35:
        header = r.choice([f"FRM:alerts@{c.org}.io\nSUBJ:{c.proj} FAIL\nMSG:", f"FRM:{c.handle}\nMSG:",
                           f"From: +1{r.randint(200, 989)}{r.randint(1000000, 9999999)}\n"])
    v = r.choice(["lines", "chars", "chars"])
    lim = r.choice([140, 153, 160])
    if v == "chars":
        sep = r.choice([" ", " | ", "\n"])
        flat = intro + " " + sep.join(ln.strip() if sep != "\n" else ln for ln in body.split("\n"))
        flat = re.sub(r"[ \t]{2,}", " ", flat) if sep != "\n" else flat
        parts = [flat[i:i + lim - 6] for i in range(0, len(flat), lim - 6)]
    else:
        parts, cur = [], intro
        for ln in body.split("\n"):
            ln = re.sub(r"\s+", " ", ln.strip())
            if not ln:
                continue
            if len(cur) + len(ln) + 1 > lim - 6:
                if cur:
                    parts.append(cur)
                cur = ln if len(ln) <= lim - 6 else ln[:lim - 7] + "…"
            else:
                cur = (cur + "\n" + ln) if cur else ln
        if cur:
            parts.append(cur)
    n = len(parts)
    msgs = []
    for i, pt in enumerate(parts):
        pre = f"({i + 1}/{n}) " if n > 1 else ""
        msgs.append(pre + pt)
    if header:
        msgs[0] = header + msgs[0]
    if r.random() < 0.4:
        return "\n\n".join(msgs) + "\n"
    t = c.dt
    out = []
    pager = r.random() < 0.25
    for m in msgs:
        t += timedelta(seconds=r.randint(0, 3))
        out.append(f"Pager · {ampm(t)}\n{m}" if pager else f"{t.strftime('%d/%m %H:%M')} {m}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- 16 wiki_howto

def s_wiki(c, r):
    space = r.choice(["Engineering", "Platform", "Dev Productivity", "IT Help", "Infrastructure"])
    sect = r.choice(["Runbooks", "HOWTOs", "Troubleshooting", "Onboarding", "Known issues"])
    title = r.choice([f"{c.tool}: {short(c.head, 60)}", f"HOWTO: fix `{c.tool}` failures in {c.proj}",
                      f"{c.proj} — {c.topic} setup error", f"Troubleshooting {c.topic} on dev machines"]).replace("`", "")
    crumbs = f"{space} > {sect} > {c.topic.capitalize()} > {title}"
    r.randint(5, 300)  # draw kept (was an unused "created" date) so the RNG stream is unchanged
    out = [crumbs, "", title, f"Created by {c.oname}, last modified by {c.name} on "
           f"{MONTHS[c.dt.month - 1]} {c.dt.day:02d}, {c.dt.year}", ""]
    if r.random() < 0.5:
        out += ["On this page", "  Symptoms", "  Error", "  Resolution", "  Related", ""]
    out += ["Symptoms", "", r.choice([f"Running {c.cmd} {r.choice(SITUATIONS)} stops with the error below.",
                                      f"Developers report that `{c.cmd}` fails immediately and nothing is built.",
                                      f"The {c.proj} setup script aborts at the `{c.tool}` step."]), ""]
    out += ["Error", ""]
    box = r.choice(["ascii", "pipe", "noformat", "indent"])
    if box == "ascii":
        w = min(max(len(ln) for ln in [c.cmd] + c.lines) + 4, 100)
        out += ["+" + "-" * w, f"| $ {c.cmd}"] + ["| " + ln if ln else "|" for ln in c.lines] + ["+" + "-" * w]
    elif box == "pipe":
        out += [f"│ $ {c.cmd}"] + ["│ " + ln if ln else "│" for ln in c.lines]
    elif box == "noformat":
        out += ["{noformat}", f"$ {c.cmd}", c.err, "{noformat}"]
    else:
        out += [f"    $ {c.cmd}", indent(c.err, "    ")]
    out += ["", "Resolution", ""]
    steps = r.sample([f"Make sure you are in the project directory ({c.tcwd}).",
                      f"Check the {c.topic} toolchain version against the one in the README.",
                      "Re-run the command with verbose output and attach it to the ticket.",
                      f"Compare with a working machine (ask in #{c.topic}-help).",
                      "Open a new shell so environment changes are picked up.",
                      f"If it still fails, file a ticket in the {space.upper().replace(' ', '')} queue with the full output."], 3)
    out += [f"{i + 1}. {s}" for i, s in enumerate(steps)]
    out += ["", "Related", f"  • {c.topic.capitalize()} onboarding checklist", f"  • {c.proj} README", "",
            f"Labels: {c.topic}, runbook, {c.proj}", "",
            f"Last updated by {c.name} on {c.dt.strftime('%Y-%m-%d %H:%M')}"]
    return "\n".join(out) + "\n"


WRITERS = {
    "ipynb_json": s_ipynb, "notion_export": s_notion, "cmake_ninja": s_ninja, "gradle_maven": s_gradle,
    "release_notes": s_release, "dependabot_pr": s_dependabot, "podcast_transcript": s_podcast,
    "slide_notes": s_slides, "textbook_exercise": s_textbook, "zoom_chat": s_zoom,
    "syslog_remote": s_syslog, "wsl_windows": s_wsl, "editor_terminal": s_editor,
    "gist_multi_file": s_gist, "sms_relay": s_sms, "wiki_howto": s_wiki,
}


# ---------------------------------------------------------------- dealing

class Dealer:
    """Deals styles from a stream of shuffled 16-card decks."""

    def __init__(self, rng):
        self.rng = rng
        self.deck = []

    def _refill(self):
        d = list(STYLES)
        self.rng.shuffle(d)
        self.deck.extend(d)

    def draw(self, avoid=None):
        if not self.deck:
            self._refill()
        if self.deck[0] == avoid:
            if len(self.deck) < 2:
                self._refill()
            self.deck[0], self.deck[1] = self.deck[1], self.deck[0]
        return self.deck.pop(0)


def main():
    cases = load_cases()
    dealer = Dealer(random.Random(SEED))
    rows = []
    for case in cases:
        a = dealer.draw()
        b = dealer.draw(avoid=a)
        for style in (a, b):
            r = random.Random(f"{SEED}:{case['file']}:{case['case']}:{style}")
            ctx = Ctx(case, r)
            text = WRITERS[style](ctx, r)
            rows.append({"file": case["file"], "case": case["case"], "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
