#!/usr/bin/env python3
"""Write bench/help_phrasings_blind.jsonl: observation texts for the help benchmark, in new styles.

Each line is {"file": ..., "case": ..., "style": ..., "text": ...}: one case of bench/help_cases/*.toml
(case = 0-based position of its [[case]] table in that file) told the way a particular kind of
writer or tool would put it on a screen -- a chat-thread export, a notebook cell, a commit message,
a teaching note, a YAML/XML/logfmt/INI event, a `script`/tmux capture, a screen-reader speech log,
a standup or meeting note, an incident timeline, prose in another language around the English
error, a Stack Overflow answer quoting the asker, a microblog post, a pager alert, a
WhatsApp/Telegram export, a README troubleshooting entry, or an agent's Thought/Action/Observation
trace.  Every case gets STYLES_PER_CASE distinct styles.

Blind set: whoever wrote this script never saw the code that reads these texts (assistant/,
watcher/, bench/help_quality.py) nor the other phrasing sets (bench/help_phrasings*.jsonl) or their
writer scripts; only the cases in bench/help_cases/*.toml were read.

Deterministic (stdlib only, seeded `random`): run `python3 bench/write_help_phrasings_blind.py`
from the repository root and the output is reproduced byte for byte.
"""

import glob
import json
import os
import random
import re
import tomllib
from datetime import datetime, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "help_cases")
OUT = os.path.join(HERE, "help_phrasings_blind.jsonl")
STYLES_PER_CASE = 7
SEED = 20251207

# --------------------------------------------------------------------------------------------
# Which lines of an error matter.  Traceback and "signal word" heuristics, with hand-picked
# overrides (substrings; each picks the first not-yet-picked line containing it).
# --------------------------------------------------------------------------------------------

TB_FILE = re.compile(r'^\s*File "([^"]+)", line (\d+)')
DECOR = re.compile(r'^[\s\^~\-+|=@*_]*$')
GUTTER = re.compile(r'^\s*\d*\s*\|')
SIG = re.compile(
    r"(error|Error|ERROR|fatal|FATAL|[Ff]ailed|FAILED|denied|not found|No such file|[Cc]annot|"
    r"[Cc]an't|[Cc]ould not|[Cc]ould NOT|[Uu]nable|refused|panic|Exception|WARNING|Warning:|"
    r"CONFLICT|rejected|not supported|No rule|missing|does not|is not|must be|[Uu]nknown|"
    r"[Pp]ermission|[Ii]nvalid|masked|changed on disk|already|^E: |[Nn]o space|CrashLoopBackOff|"
    r"OOMKilled|Forbidden|not allowed|is behind|detached HEAD|divergent|too open|no matching|"
    r"Too many|event not found|bad interpreter|[Rr]equires|Missing|unsupported|unresolved|"
    r"mismatched|no upstream|identity unknown|no longer|nil map|not a main|stub|-->|"
    r"^\s*symbol:|ErrImagePull|untolerated|NASTY|Offending|unrelated|No configured|expired|"
    r"does not match|heap space|wrong name|locked at)"
)

KEY = {
    ("c_builds.toml", 3): ["undefined reference to `sqrt'", "collect2"],
    ("c_builds.toml", 4): ["undefined reference to `TLS_client_method'",
                           "undefined reference to `SSL_CTX_new'", "collect2"],
    ("c_builds.toml", 9): ["CMake Error at", "By not providing", "asked CMake to find", "CMake did not find one",
                           "Configuring incomplete"],
    ("c_builds.toml", 11): ["cc     hello.c", "make: cc: No such file", "Error 127"],
    ("docker.toml", 3): ["Pulling from", "failed to register layer"],
    ("go.toml", 3): ["go: go.mod file not found", "'go get' is no longer supported", "use 'go install' with a version"],
    ("go.toml", 6): ["panic: assignment", "main.main()", "/home/dev/wordcount/main.go:12"],
    ("go.toml", 7): ["# github.com/dev/portcheck", "./main.go:14:33"],
    ("java.toml", 0): ["Inventory.java:3: error: cannot find symbol", "ArrayList<String> items",
                       "symbol:   class ArrayList", "2 errors"],
    ("java.toml", 2): ["package org.apache.commons.lang3 does not exist", "import org.apache",
                       "Report.java:5: error", "symbol:   variable StringUtils"],
    ("java.toml", 4): ["Exception in thread", "CsvLoader.java:41", "Main.java:18"],
    ("java.toml", 6): ["[ERROR] Source option 5", "[ERROR] Target option 5", "BUILD FAILURE"],
    ("java.toml", 7): ["hello.java:1: error", "public class Hello {"],
    ("kubernetes.toml", 3): ["NAME", "worker-7c9d8b6f4-lq2zn"],
    ("kubernetes.toml", 4): ["Reason:       CrashLoopBackOff", "Last State:", "Reason:       OOMKilled",
                             "Exit Code:    137"],
    ("node.toml", 0): ["Error: Cannot find module 'express'", "Require stack:", "- /home/dev/shop/server.js"],
    ("node.toml", 1): ["Warning: To load an ES module", "/home/dev/mailer/send.js:1", "import nodemailer",
                       "SyntaxError"],
    ("node.toml", 2): ["Error [ERR_MODULE_NOT_FOUND]", "Did you mean to import"],
    ("node.toml", 3): ["error TS7016", "Try `npm i --save-dev @types/express`"],
    ("node.toml", 7): ["npm error code E404", "npm error 404 Not Found", "The requested resource"],
    ("node.toml", 8): ["> webpack --mode production", "Error: error:0308010C", "code: 'ERR_OSSL_EVP_UNSUPPORTED'"],
    ("python.toml", 26): ["error: externally-managed-environment", "This environment is externally managed"],
    ("python.toml", 27): ["code ERESOLVE", "unable to resolve dependency tree", "Found: react@18.2.0",
                          "peer react@", "--force or --legacy-peer-deps"],
    ("python.toml", 28): ["psycopg.h:35:10: fatal error", "error: command '/usr/bin/x86_64-linux-gnu-gcc'"],
    ("python.toml", 29): ["building 'netifaces' extension", "error: command 'x86_64-linux-gnu-gcc' failed"],
    ("python.toml", 30): ["Error: pg_config executable not found.", "pg_config is required to build psycopg2"],
    ("python.toml", 31): ["/bin/sh: 1: mysql_config: not found", 'File "/tmp/pip-install-x', "OSError"],
    ("python.toml", 32): ["fatal error: ffi.h"],
    ("python.toml", 33): ["error: can't find Rust compiler"],
    ("python.toml", 34): ["The virtual environment was not created", "available.  On Debian",
                          "apt install python3.11-venv"],
    ("python.toml", 46): ["npm error code EACCES", "npm error Error: EACCES"],
    ("python.toml", 48): ["gyp ERR! build error", "stack Error: not found: make"],
    ("ruby.toml", 0): ["cannot load such file", "from weather.rb:1"],
    ("ruby.toml", 3): ["Your user account isn't allowed"],
    ("ruby.toml", 4): ["Could not find compatible versions", "Because every version of solargraph",
                       "and the current Bundler version", "Your bundle requires a different version",
                       "Install the necessary version"],
    ("ruby.toml", 5): ["You have requested:", "tzinfo ~> 1.2", "locked at 2.0.2", "Try running `bundle update tzinfo`"],
    ("ruby.toml", 7): ["Gem::Ext::BuildError", "checking for pg_config... no", "Can't find the 'libpq-fe.h header",
                       "extconf.rb failed"],
    ("ruby.toml", 8): ["Following extensions are not compiled", "psych:", "Could not be configured",
                       "BUILD FAILED"],
    ("rust.toml", 0): ["error[E0432]", "--> src/main.rs:1:5", "use of unresolved module", "error: could not compile"],
    ("rust.toml", 1): ["error[E0382]", "--> src/main.rs:4:26", "error: could not compile"],
    ("rust.toml", 2): ["error[E0599]", "--> src/main.rs:6:7", "help: trait `Read`"],
    ("rust.toml", 3): ["error[E0308]", "--> src/main.rs:6:26", "expected `String`, found `&str`"],
    ("rust.toml", 4): ["error[E0425]", "--> src/main.rs:3:20", "help: a local variable"],
    ("rust.toml", 5): ["error: linker `cc` not found", "= note: No such file", "error: could not compile"],
    ("rust.toml", 6): ["failed to run custom build command", "Could not find openssl via pkg-config",
                       "The system library `openssl` required", "Could not find directory of OpenSSL installation"],
    ("rust.toml", 7): ["error: failed to compile", "cannot be built because it requires rustc 1.82"],
    ("shell.toml", 0): ["! [rejected]", "error: failed to push", "hint: Updates were rejected because the remote"],
    ("shell.toml", 2): ["fatal: The current branch", "git push --set-upstream"],
    ("shell.toml", 3): ["On branch main", "Your branch is behind"],
    ("shell.toml", 5): ["error: Your local changes", "src/app.py", "Please commit your changes"],
    ("shell.toml", 8): ["Note: switching to", "detached HEAD"],
    ("shell.toml", 11): ["Author identity unknown", "Please tell me who you are", "fatal: unable to auto-detect"],
    ("shell.toml", 12): ["fatal: Unable to create", "Another git process"],
    ("shell.toml", 13): ["fatal: detected dubious", "git config --global --add safe.directory"],
    ("shell.toml", 14): ["remote: Support for password authentication was removed", "fatal: Authentication failed"],
    ("shell.toml", 18): ["REMOTE HOST IDENTIFICATION HAS CHANGED", "Offending ECDSA key",
                         "Host key for 192.168.1.20 has changed", "Host key verification failed"],
    ("shell.toml", 21): ["Job for nginx.service failed", "See \"systemctl status"],
    ("shell.toml", 22): ["Failed to restart nginx.service", "See system logs"],
    ("shell.toml", 36): ["Warning: you are leaving 2 commits behind", "9be41f0 tidy imports", "a77c3de fix parser",
                         "Switched to branch 'main'"],
    ("shell.toml", 37): ["fatal: No configured push destination.", "Either specify the URL"],
    ("ssh.toml", 1): ["REMOTE HOST IDENTIFICATION HAS CHANGED", "Offending ED25519 key", "ssh-keygen -f",
                      "Host key verification failed"],
    ("ssh.toml", 2): ["No ED25519 host key is known", "Host key verification failed"],
    ("ssh.toml", 4): ["Received disconnect", "Disconnected from"],
    ("systemd.toml", 1): ["× ledger.service", "Active: failed", "Process: 4007", "Failed at step EXEC"],
    ("systemd.toml", 2): ["Job for nginx.service failed", "unknown directive \"server_nme\"",
                          "configuration file /etc/nginx/nginx.conf test failed"],
    ("systemd.toml", 3): ["Failed to start redis-server.service", "See system logs"],
    ("tls.toml", 0): ["curl: (60)"],
    ("tls.toml", 1): ["depth=0 CN = shop.example.com", "verify error:num=20", "verify error:num=21"],
    ("tls.toml", 4): ["TypeError: fetch failed", "at async file:///home/dev/sync/sync.mjs:1:13",
                      "[cause]: Error: self-signed", "code: 'SELF_SIGNED_CERT_IN_CHAIN'"],
    ("tls.toml", 5): ["* SSL: no alternative certificate subject name", "curl: (60)"],
    ("tls.toml", 6): ["CN = blog.example.com", "error 10 at 0 depth", "verification failed"],
}

# The one line (or few lines, joined) a person would quote if they quote only one thing.
MAIN = {
    ("c_builds.toml", 3): ["undefined reference to `sqrt'"],
    ("c_builds.toml", 4): ["undefined reference to `TLS_client_method'"],
    ("c_builds.toml", 9): ["CMake Error at", "By not providing", "asked CMake to find", "CMake did not find one"],
    ("c_builds.toml", 10): ["Could NOT find CURL"],
    ("c_builds.toml", 11): ["make: cc: No such file"],
    ("c_builds.toml", 1): ["fatal error: zlib.h"],
    ("docker.toml", 3): ["failed to register layer"],
    ("docker.toml", 4): ["pull access denied"],
    ("go.toml", 3): ["'go get' is no longer supported outside a module"],
    ("go.toml", 6): ["panic:"],
    ("go.toml", 7): ["./main.go:14:33"],
    ("java.toml", 0): ["Inventory.java:3: error: cannot find symbol", "symbol:   class ArrayList"],
    ("java.toml", 2): ["package org.apache.commons.lang3 does not exist"],
    ("java.toml", 3): ["UnsupportedClassVersionError"],
    ("java.toml", 4): ["Exception in thread"],
    ("java.toml", 6): ["[ERROR] Source option 5"],
    ("kubernetes.toml", 0): ["The connection to the server localhost:8080 was refused"],
    ("kubernetes.toml", 2): ["Failed to pull image"],
    ("kubernetes.toml", 3): ["worker-7c9d8b6f4-lq2zn"],
    ("kubernetes.toml", 4): ["Reason:       OOMKilled", "Exit Code:    137"],
    ("kubernetes.toml", 8): ["Unable to connect to the server"],
    ("node.toml", 0): ["Error: Cannot find module 'express'"],
    ("node.toml", 1): ["SyntaxError: Cannot use import"],
    ("node.toml", 2): ["Error [ERR_MODULE_NOT_FOUND]"],
    ("node.toml", 7): ["npm error 404 Not Found"],
    ("node.toml", 8): ["Error: error:0308010C"],
    ("python.toml", 26): ["error: externally-managed-environment"],
    ("python.toml", 27): ["ERESOLVE unable to resolve", "peer react@"],
    ("python.toml", 28): ["fatal error: Python.h"],
    ("python.toml", 29): ["error: command"],
    ("python.toml", 31): ["OSError: mysql_config not found"],
    ("python.toml", 34): ["The virtual environment was not created", "available.  On Debian"],
    ("python.toml", 44): ["Could not find a version that satisfies", "No matching distribution"],
    ("python.toml", 45): ["Ignored the following versions", "No matching distribution"],
    ("python.toml", 46): ["npm error Error: EACCES"],
    ("python.toml", 48): ["Error: not found: make"],
    ("ruby.toml", 4): ["Your bundle requires a different version of Bundler"],
    ("ruby.toml", 5): ["The bundle currently has tzinfo locked"],
    ("ruby.toml", 7): ["Failed to build gem native extension", "libpq-fe.h"],
    ("ruby.toml", 8): ["Following extensions are not compiled", "psych:", "Could not be configured"],
    ("rust.toml", 5): ["linker `cc` not found"],
    ("rust.toml", 6): ["failed to run custom build command"],
    ("rust.toml", 7): ["cannot be built because it requires rustc 1.82"],
    ("shell.toml", 0): ["! [rejected]", "error: failed to push"],
    ("shell.toml", 1): ["! [rejected]", "error: failed to push"],
    ("shell.toml", 3): ["Your branch is behind"],
    ("shell.toml", 4): ["fatal: Need to specify"],
    ("shell.toml", 5): ["error: Your local changes", "src/app.py"],
    ("shell.toml", 8): ["detached HEAD"],
    ("shell.toml", 11): ["fatal: unable to auto-detect email address"],
    ("shell.toml", 14): ["Support for password authentication was removed"],
    ("shell.toml", 16): ["fatal: 'origin' does not appear"],
    ("shell.toml", 17): ["Permission denied (publickey)"],
    ("shell.toml", 18): ["REMOTE HOST IDENTIFICATION HAS CHANGED", "Host key verification failed"],
    ("shell.toml", 36): ["Warning: you are leaving 2 commits behind"],
    ("ssh.toml", 0): ["Permissions 0644", "Permission denied (publickey)"],
    ("ssh.toml", 1): ["REMOTE HOST IDENTIFICATION HAS CHANGED", "Host key verification failed"],
    ("ssh.toml", 2): ["No ED25519 host key is known"],
    ("ssh.toml", 4): ["Too many authentication failures"],
    ("systemd.toml", 1): ["Failed at step EXEC"],
    ("systemd.toml", 2): ["Job for nginx.service failed", "unknown directive"],
    ("tls.toml", 0): ["curl: (60)"],
    ("tls.toml", 1): ["verify error:num=20"],
    ("tls.toml", 4): ["TypeError: fetch failed", "[cause]"],
    ("tls.toml", 5): ["curl: (60)"],
    ("tls.toml", 6): ["certificate has expired"],
}

AREA = {
    "c_builds.toml": ("C build", ["#cprogramming", "#gcc", "#linux"], ["the build", "my C project", "the compile"]),
    "databases.toml": ("database", ["#postgres", "#mysql", "#databases"], ["the db", "my database", "the local DB"]),
    "docker.toml": ("Docker", ["#docker", "#containers", "#devops"], ["docker", "the container", "the compose stack"]),
    "go.toml": ("Go", ["#golang", "#go"], ["the Go build", "my Go service", "the CLI"]),
    "java.toml": ("Java", ["#java", "#jvm"], ["the Java build", "my Java app", "the jar"]),
    "kubernetes.toml": ("Kubernetes", ["#kubernetes", "#k8s", "#devops"], ["the cluster", "the deployment", "k8s"]),
    "node.toml": ("Node", ["#nodejs", "#javascript", "#typescript"], ["the node app", "the frontend build", "npm"]),
    "python.toml": ("Python", ["#python", "#100DaysOfCode", "#pip"], ["my script", "the python thing", "the venv"]),
    "ruby.toml": ("Ruby", ["#ruby", "#rails", "#jekyll"], ["bundler", "the Rails app", "the ruby setup"]),
    "rust.toml": ("Rust", ["#rustlang", "#cargo"], ["cargo", "the crate", "my Rust project"]),
    "shell.toml": ("terminal", ["#linux", "#git", "#bash"], ["the terminal", "git", "my laptop"]),
    "ssh.toml": ("SSH", ["#ssh", "#sysadmin", "#linux"], ["ssh", "the server", "the box"]),
    "systemd.toml": ("systemd", ["#systemd", "#linux", "#sysadmin"], ["the service", "systemd", "the unit"]),
    "tls.toml": ("TLS", ["#tls", "#openssl", "#security"], ["TLS", "the cert", "https"]),
}

NAMES = ["Maya Chen", "Tom Okafor", "Priya Raman", "Lukas Weber", "Sofia Marquez", "Jonas Berg",
         "Aiko Tanaka", "Omar Haddad", "Elena Petrova", "Sam Fischer", "Ana Souza", "Kwame Mensah",
         "Lena Novak", "Ravi Iyer", "Chloé Martin", "Diego Ruiz", "Hannah Kim", "Mateo Rossi",
         "Noor Aziz", "Finn O'Brien", "Yusuf Demir", "Ingrid Larsen", "Mei Lin", "Pablo Ortega",
         "Zanele Dube", "Arjun Mehta", "Marta Kowalska", "Theo Laurent"]
HANDLES = ["kiwi_dev", "bytebard", "nullptr_nina", "ferris_fan", "tmux_tom", "grepgirl", "segfault_sam",
           "lukas.w", "priya_r", "omarh", "dockerdan", "mei.codes", "jonas_b", "yaml_hater", "elena.p",
           "rustacean_ravi", "kubekwame", "pyhannah", "noor.dev", "mateo_r", "zsh_zanele", "arjun_m"]
HOSTS = ["laptop", "devbox", "thinkpad", "build-03", "ws-214", "ubuntu-vm", "x1", "framework", "desk-pc"]


def pick_lines(lines, selectors):
    out = []
    for sel in selectors:
        for i, line in enumerate(lines):
            if i not in out and sel in line:
                out.append(i)
                break
        else:
            raise SystemExit(f"selector not found: {sel!r}")
    return sorted(out)


class Case:
    def __init__(self, fname, idx, data):
        self.file = fname
        self.idx = idx
        lines = [ln.rstrip() for ln in data["error"].split("\n")]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        self.lines = lines
        self.full = "\n".join(lines)
        self.cmd = data.get("command")
        self.nonempty = [i for i, ln in enumerate(lines) if ln.strip()]
        self.tb = [i for i, ln in enumerate(lines) if TB_FILE.match(ln)]
        k = (fname, idx)
        if k in KEY:
            self.kidx = pick_lines(lines, KEY[k])
        elif self.tb:
            self.kidx = self._tb_key()
        else:
            self.kidx = self._sig_key()
        self.key = [lines[i] for i in self.kidx]
        if k in MAIN:
            self.main = " ".join(lines[i].strip() for i in pick_lines(lines, MAIN[k]))
        elif self.tb:
            self.main = lines[self.nonempty[-1]].strip()
        else:
            self.main = self.key[0].strip()
        self.loc = None
        self.exc = None
        if self.tb:
            for i in self.kidx:
                m = TB_FILE.match(lines[i])
                if m:
                    self.loc = (m.group(1), m.group(2))
            last = lines[self.nonempty[-1]].strip()
            self.exc = last.split(":")[0]
        m = re.search(r"/home/(\w+)/", self.full + " " + (self.cmd or ""))
        self.user = m.group(1) if m else None
        self.area, self.tags, self.topics = AREA[fname]
        tool = None
        if self.cmd:
            for w in self.cmd.split():
                if "=" in w or w in ("sudo", "cd"):
                    continue
                tool = w
                break
        self.tool = tool

    def _tb_key(self):
        lines = self.lines
        user = [i for i in self.tb if not re.search(r'"(/usr/lib|<internal)', lines[i])]
        i = (user or self.tb)[-1]
        out = [i]
        last = self.nonempty[-1]
        if (i + 1 < len(lines) and lines[i + 1].strip() and not DECOR.match(lines[i + 1])
                and not TB_FILE.match(lines[i + 1]) and i + 1 != last):
            out.append(i + 1)
        if last not in out:
            out.append(last)
        return out

    def _sig_key(self):
        out, seen = [], []
        for i, ln in enumerate(self.lines):
            if not ln.strip() or DECOR.match(ln) or GUTTER.match(ln):
                continue
            if SIG.search(ln):
                norm = re.sub(r"[\d.:]+", "", ln)
                if norm in seen:
                    continue
                seen.append(norm)
                out.append(i)
        if not out:
            ne = self.nonempty
            out = [ne[0]] if len(ne) == 1 else [ne[0], ne[-1]]
        if len(out) > 4:
            out = out[:2] + out[-2:]
        return out

    # ---- renderings of the printed text ------------------------------------------------------
    def trim(self, marker="..."):
        keep = sorted(set(self.kidx) | {self.nonempty[0]})
        if len(self.nonempty) <= 8 or len(keep) >= len(self.nonempty) - 1:
            return self.full
        out, prev = [], None
        for i in keep:
            if prev is not None and i != prev + 1:
                out.append(marker)
            out.append(self.lines[i])
            prev = i
        if prev != self.nonempty[-1]:
            out.append(marker)
        return "\n".join(out)

    def base_lines(self):
        """The lines a flattening writer keeps: all if short, else first + key lines."""
        if len(self.nonempty) <= 8:
            idx = self.nonempty
        else:
            idx = sorted(set(self.kidx) | {self.nonempty[0]})
        return [self.lines[i] for i in idx if not DECOR.match(self.lines[i])]

    def form(self, kind, rng):
        if kind == "full":
            return self.full
        if kind == "trim":
            return self.trim(rng.choice(["...", "[...]", "…", "(snip)", "    ...", "[... cut ...]"]))
        if kind == "key":
            return "\n".join(self.key)
        if kind == "keyflat":
            return " ".join(ln.strip() for ln in self.key)
        if kind == "main":
            return self.main
        bl = self.base_lines()
        if kind == "flat":
            return " ".join(ln.strip() for ln in bl)
        if kind == "esc":
            return "\\n".join(bl)
        if kind == "arrow":
            return " ⏎ ".join(ln.strip() for ln in bl)
        if kind == "slash":
            return " / ".join(ln.strip() for ln in bl)
        if kind == "pipe":
            return " | ".join(ln.strip() for ln in bl)
        raise ValueError(kind)

    def pick(self, rng, mix, maxfull=None):
        kinds = [k for k, _ in mix]
        weights = [w for _, w in mix]
        kind = rng.choices(kinds, weights)[0]
        if kind == "full" and maxfull and len(self.nonempty) > maxfull:
            kind = "trim"
        return kind, self.form(kind, rng)

    def exit_code(self):
        """A plausible exit status for the command (0 where the program merely reports)."""
        cmd, full = self.cmd or "", self.full
        if not cmd:
            return 1
        if "command not found" in full or "cc: No such file" in full:
            return 127
        if "bad interpreter" in full or full.startswith("bash: ./"):
            return 126
        t = self.tool
        if t == "kubectl" and ("describe" in cmd or (" get " in cmd and "rror" not in full)):
            return 0
        if t == "git":
            if cmd.startswith(("git status", "git checkout", "git switch")) and "fatal" not in full:
                return 0
            return 128 if "fatal:" in full else 1
        if t == "systemctl":
            return 3 if " status " in cmd else (5 if "not found" in full else 1)
        if t == "openssl":
            return 0 if "s_client" in cmd else 2
        if t == "curl":
            m = re.search(r"curl: \((\d+)\)", full)
            return int(m.group(1)) if m else 1
        return {"cargo": 101, "make": 2, "ssh": 255, "psql": 2, "apt": 100, "npx": 2, "tsc": 2,
                "docker": 125 if " run " in cmd else 1}.get(t, 1)

    def multiline(self):
        return "\n" in self.full


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

def when(rng):
    base = datetime(2024, 9, 2, 7, 0, 0)
    return base + timedelta(days=rng.randrange(0, 460), seconds=rng.randrange(0, 14 * 3600))


def qi(rng, s, opts=("`", "“", "\"", "plain", "«", "‘")):
    """Quote a one-line string inline."""
    o = rng.choice(opts)
    if o == "`":
        return f"`` {s} ``" if "`" in s else f"`{s}`"
    if o == "“":
        return f"“{s}”"
    if o == "\"":
        return f"\"{s}\""
    if o == "«":
        return f"« {s} »" if rng.random() < 0.5 else f"«{s}»"
    if o == "‘":
        return f"‘{s}’"
    return s


def qc(rng, cmd, opts=("`", "`", "“", "plain", "\"")):
    return qi(rng, cmd, opts)


def block(rng, s, opts=("fence", "fence_lang", "indent", "quote", "plain")):
    o = rng.choice(opts)
    if o == "fence":
        return f"```\n{s}\n```"
    if o == "fence_lang":
        return f"```{rng.choice(['text', 'console', 'shell', 'log', 'bash', 'plaintext'])}\n{s}\n```"
    if o == "indent":
        return "\n".join(("    " + ln) if ln.strip() else "" for ln in s.split("\n"))
    if o == "quote":
        return "\n".join(("> " + ln) if ln.strip() else ">" for ln in s.split("\n"))
    return s


def indent(s, pad):
    return "\n".join((pad + ln) if ln.strip() else pad.rstrip() for ln in s.split("\n"))


def first_name(n):
    return n.split()[0]


def two_names(rng):
    a, b = rng.sample(NAMES, 2)
    return a, b


def userhost(rng, c):
    return (c.user or rng.choice(["dev", "ana", "sam", "user"])), rng.choice(HOSTS)


def maybe_cmd(rng, c, p=0.88):
    return c.cmd if (c.cmd and rng.random() < p) else None


def where_phrase(c):
    if c.loc:
        return f"{c.loc[0]} line {c.loc[1]}"
    return None


def err_with_loc(c, text, kind):
    """When only the exception line survives, writers often add where it happened."""
    if kind == "main" and c.loc and c.loc[0] != "<string>":
        return text, f" (in {os.path.basename(c.loc[0])}, line {c.loc[1]})"
    return text, ""


# --------------------------------------------------------------------------------------------
# Styles
# --------------------------------------------------------------------------------------------

def s_chat_thread_export(c, rng):
    """Slack / Discord / Matrix / Zulip thread export."""
    v = rng.choice(["slack", "slack", "discord", "matrix", "zulip"])
    a, b = two_names(rng)
    t = when(rng)
    cmd = maybe_cmd(rng, c)
    kind, err = c.pick(rng, [("full", 4), ("trim", 3), ("key", 2), ("flat", 1)])
    if v == "slack":
        chan = rng.choice(["#dev-help", "#eng-support", "#help-desk", "#backend", "#it-helpdesk", "#random-tech"])
        h = t.strftime("%I:%M %p").lstrip("0")
        h2 = (t + timedelta(minutes=rng.randint(1, 6))).strftime("%I:%M %p").lstrip("0")
        opener = rng.choice([
            "anyone seen this before?", "quick q —", "sorry to bother, but", "ok this is weird:",
            "help pls 🙏", "morning! hitting something odd" if t.hour < 12 else "hey, hitting something odd",
            "not urgent but",
        ])
        if cmd:
            ask = rng.choice([
                f"{opener} running {qc(rng, cmd, ('`',))} gives me", f"{opener} {qc(rng, cmd, ('`',))} fails with",
                f"{opener} when I do {qc(rng, cmd, ('`',))} I get this:",
            ])
        else:
            ask = rng.choice([f"{opener} getting this when I run my script", f"{opener} what does this mean?",
                              f"{opener} {rng.choice(c.topics)} just blew up:"])
        body = f"```{err}```" if rng.random() < 0.5 else f"```\n{err}\n```"
        reply, back = rng.choice([
            ("which machine is this on?", "my laptop, fresh setup"), ("did it work yesterday?", "yes it did"),
            ("can you paste the full output?", "that's everything it printed"),
            ("hmm, same for me on main", "ok so it's not just me"), ("looking", "ok thx"),
            ("is this the new laptop?", "yep"), ("what OS?", "ubuntu 24.04 if that matters"),
            ("👀", "no rush")])
        react = rng.choice(["", "\n:eyes: 2", "\n:thinking_face: 1  :eyes: 1", "\n🙏 1", "\n:+1: 3"])
        hdr = rng.choice([f"{chan}  ·  Thread", f"Thread in {chan}", f"{chan}"])
        return (f"{hdr}\n\n{a}  {h}\n{ask}\n{body}{react}\n\n{b}  {h2}\n{reply}\n\n{a}  {h2}\n{back}")
    if v == "discord":
        u1, u2 = rng.sample(HANDLES, 2)
        day = rng.choice(["Today at", "Yesterday at", t.strftime("%m/%d/%Y")])
        hm = t.strftime("%H:%M") if rng.random() < 0.5 else t.strftime("%I:%M %p").lstrip("0")
        if cmd:
            ask = rng.choice([f"trying to run {qc(rng, cmd, ('`', 'plain'))} and i get this", f"`{cmd}` →",
                              f"so i typed {qc(rng, cmd, ('`',))} like the tutorial says and"])
        else:
            ask = rng.choice(["what does this even mean", "got this, no idea why", "help 😭"])
        body = f"```{rng.choice(['', 'py', 'sh', 'ansi'])}\n{err}\n```"
        reply = rng.choice(["full output?", "what os", "did you read the error lol", "post ur code",
                            "works on my machine™", "ping @helper"])
        return (f"{u1} — {day} {hm}\n{ask}\n{body}\n{u2} — {day} {hm}\n{reply}\n{u1} — {day} {hm}\n"
                f"{rng.choice(['thats all it says', 'linux mint', 'ok', 'its not my code its the tutorial', 'ubuntu'])}")
    if v == "matrix":
        u1 = rng.choice(HANDLES).replace(".", "_")
        srv = rng.choice(["matrix.org", "fosdem.org", "tchncs.de", "mozilla.org", "kde.org"])
        stamp = t.strftime("%Y-%m-%d %H:%M:%S")
        out = []
        if cmd:
            out.append(f"[{stamp}] <@{u1}:{srv}> {rng.choice(['running', 'ran', 'trying'])} {qc(rng, cmd, ('`', 'plain'))}:")
        else:
            out.append(f"[{stamp}] <@{u1}:{srv}> {rng.choice(['anyone?', 'got this:', 'hi, error:'])}")
        t2 = t + timedelta(seconds=rng.randint(3, 40))
        if rng.random() < 0.5:
            # IRC-bridged: each pasted line became its own message
            for ln in err.split("\n"):
                if ln.strip():
                    out.append(f"[{t2.strftime('%Y-%m-%d %H:%M:%S')}] <@{u1}:{srv}> {ln}")
        else:
            out.append(f"[{t2.strftime('%Y-%m-%d %H:%M:%S')}] <@{u1}:{srv}> {err}")
        u2 = rng.choice(HANDLES).replace(".", "_")
        out.append(f"[{(t2 + timedelta(minutes=2)).strftime('%Y-%m-%d %H:%M:%S')}] <@{u2}:{srv}> "
                   f"{rng.choice(['hm', 'which version?', 'see topic for pastebin pls', 'looking'])}")
        return "\n".join(out)
    # zulip
    stream = rng.choice(["infra", "help", "dev", "builds", "newcomers"])
    topic = rng.choice(["build failing", "weird error", "setup problems", f"{c.area} issue", "help needed"])
    cmdtxt = f"Ran {qc(rng, cmd, ('`',))}, output:\n" if cmd else rng.choice(["Output:\n", "Seeing this:\n", ""])
    return (f"#{stream} > {topic}\n\n{a}: {cmdtxt}```quote\n{err}\n```\n"
            f"{b}: {rng.choice(['👍', 'on it', 'same here since this morning', 'which branch?'])}")


def s_notebook_cell(c, rng):
    """Jupyter / Colab / VS Code notebook cell with its output."""
    v = rng.choice(["ipython", "ipython", "ipynb", "colab", "vscode"])
    n = rng.randint(2, 41)
    cmd = c.cmd
    kind, err = c.pick(rng, [("full", 6), ("trim", 2), ("key", 1)])
    if v == "ipython":
        if cmd:
            if rng.random() < 0.3:
                head = f"In [{n}]: %%bash\n   ...: {cmd}\n   ...:"
            else:
                head = f"In [{n}]: !{cmd}"
        else:
            head = f"In [{n}]: {rng.choice(['# (cell source collapsed)', '…', '⋯ hidden input'])}"
        tail = rng.choice(["", f"\n\nIn [{n + 1}]: ", f"\n\nIn [{n + 1}]: !ls"])
        return f"{head}\n{err}{tail}"
    if v == "ipynb":
        text_lines = [ln + "\n" for ln in err.split("\n")]
        cell = {
            "cell_type": "code",
            "execution_count": n,
            "id": f"{rng.getrandbits(32):08x}",
            "metadata": {},
            "outputs": [{"name": "stderr", "output_type": "stream", "text": text_lines}],
            "source": [f"!{cmd}"] if cmd else [],
        }
        pre = rng.choice(["", "(from notebook .ipynb, cell JSON)\n", f"analysis_{rng.randint(1, 9)}.ipynb:\n"])
        return pre + json.dumps(cell, indent=1, ensure_ascii=False)
    if v == "colab":
        src = f"!{cmd}" if cmd else rng.choice(["# cell hidden", "[code hidden]"])
        secs = rng.choice(["0s", "1s", "2s", "5s"])
        return (f"[{n}]  {src}\n\n  ⓘ {rng.choice(['completed', 'error'])} at {when(rng).strftime('%I:%M %p').lstrip('0')} · {secs}\n"
                f"{err}")
    src = cmd if cmd else "…"
    status = rng.choice(["✗", "×", "⚠"])
    return (f"Cell {n}  {status}  {rng.uniform(0.1, 9.9):.1f}s\n"
            f"{'!' + src if cmd else src}\n"
            f"── Output ─────────\n{err}")


def s_commit_message(c, rng):
    """A commit message, revert or changelog entry describing the failure."""
    v = rng.choice(["show", "show", "bare", "changelog", "revert"])
    cmd = maybe_cmd(rng, c, 0.92)
    kind, err = c.pick(rng, [("full", 3), ("trim", 3), ("key", 3), ("main", 1)])
    name = rng.choice(NAMES)
    mail = name.lower().replace(" ", ".").replace("'", "").replace("é", "e") + "@" + rng.choice(
        ["example.com", "users.noreply.github.com", "acme.dev", "gmail.com"])
    t = when(rng)
    subj = rng.choice([
        f"WIP: {c.tool or c.area} broken on clean checkout",
        f"Document {c.area} failure on fresh machines",
        f"Add repro notes for {rng.choice(c.topics)} error",
        "wip: still failing",
        "ci: note failing step",
        f"TODO: investigate {c.exc or (c.tool or c.area) + ' error'}",
    ])
    if cmd:
        intro = rng.choice([
            f"Running `{cmd}` on a fresh checkout fails with:",
            f"`{cmd}` still fails here:",
            f"Steps so far work until `{cmd}`, which prints",
            f"After this change, {cmd} errors out:",
        ])
    else:
        intro = rng.choice(["The script now dies with:", "Currently fails with:", "Still seeing:",
                            "Running it prints:"])
    if kind == "main":
        body_err = "    " + err
    else:
        body_err = indent(err, "    ")
    outro = rng.choice(["Not fixed yet; pushing so someone else can look.", "Needs a proper fix.",
                        f"Refs #{rng.randint(12, 980)}", f"Signed-off-by: {name} <{mail}>", "",
                        "Leaving this here until I have time."])
    msg = f"{subj}\n\n{intro}\n\n{body_err}\n\n{outro}".rstrip()
    if v == "show":
        h = f"{rng.getrandbits(160):040x}"
        date = t.strftime("%a %b %d %H:%M:%S %Y") + rng.choice([" +0100", " +0200", " -0500", " +0000"])
        return f"commit {h}\nAuthor: {name} <{mail}>\nDate:   {date}\n\n{indent(msg, '    ')}"
    if v == "bare":
        return msg
    if v == "changelog":
        ver = f"{rng.randint(0, 3)}.{rng.randint(0, 14)}.{rng.randint(0, 9)}"
        if cmd:
            line = rng.choice([f"- `{cmd}` fails with:", f"- On some machines `{cmd}` prints:"])
        else:
            line = rng.choice(["- The script can crash with:", "- Known crash:"])
        e = indent(err, "  ") if kind != "main" else f"  `{err}`"
        return (f"## [{ver}] - {t.strftime('%Y-%m-%d')}\n\n### Known issues\n\n{line}\n\n"
                f"{rng.choice(['  ```', '  ```text'])}\n{e}\n  ```\n")
    h = f"{rng.getrandbits(28):07x}"
    return (f"Revert \"{rng.choice(['Bump dependencies', 'Switch to new base image', 'Refactor setup', 'Update lockfile'])}\"\n\n"
            f"This reverts commit {h}{rng.getrandbits(132):033x}.\n\n{intro}\n\n{body_err}")


def s_teaching_note(c, rng):
    """A tutor's / TA's / teacher's note about a student's error."""
    v = rng.choice(["note", "lab_log", "office_hours", "feedback"])
    student = rng.choice(NAMES)
    fn = first_name(student)
    cmd = maybe_cmd(rng, c)
    kind, err = c.pick(rng, [("full", 4), ("key", 3), ("trim", 2), ("main", 1), ("flat", 1)], maxfull=8)
    err_txt, loc = err_with_loc(c, err, kind)
    if v == "note":
        who = rng.choice([f"Student {rng.randint(1, 30):02d} ({fn})", fn, f"{fn} (group {rng.choice('ABCDEF')})",
                          f"{student}"])
        if cmd:
            lead = rng.choice([f"{who} ran {qc(rng, cmd)} and saw:", f"{who} typed {qc(rng, cmd)}; the terminal showed",
                               f"{who} tried {qc(rng, cmd)} during the exercise and got"])
        else:
            lead = rng.choice([f"{who} ran their script and saw:", f"{who}'s program stopped with",
                               f"{who} got this when running the exercise:"])
        if "\n" in err_txt:
            mid = block(rng, err_txt, ("indent", "fence", "plain"))
        else:
            mid = qi(rng, err_txt, ("“", "\"", "plain", "`")) + loc
        tail = rng.choice(["They were stuck for ~10 min before asking.", "Did not read the last line at first.",
                           "Common one this term.", "Follow up next session.", "Asked them to read the message out loud.",
                           ""])
        return f"{lead}\n{mid}\n{tail}".rstrip()
    if v == "lab_log":
        t = when(rng)
        row = rng.randint(1, 9)
        entries = [f"Lab {rng.randint(1, 12)} — {t.strftime('%a %d %b')} — observation log", ""]
        entries.append(f"{(t - timedelta(minutes=14)).strftime('%H:%M')}  {first_name(rng.choice(NAMES))} (row {rng.randint(1, 9)}): "
                       f"{rng.choice(['wifi login issue, sorted', 'could not find the handout', 'editor font too small'])}")
        if cmd:
            entries.append(f"{t.strftime('%H:%M')}  {fn} (row {row}): `{cmd}` →")
        else:
            entries.append(f"{t.strftime('%H:%M')}  {fn} (row {row}): error when running the exercise →")
        entries.append(indent(err_txt + loc, "        "))
        entries.append(f"{(t + timedelta(minutes=9)).strftime('%H:%M')}  {first_name(rng.choice(NAMES))}: "
                       f"{rng.choice(['asked about the quiz', 'laptop battery died', 'done early, extension task'])}")
        return "\n".join(entries)
    if v == "office_hours":
        s = rng.choice(["Office hours", "Drop-in help", "Tutoring session", "Mentoring call"])
        d = when(rng).strftime("%d.%m.")
        if cmd:
            first = f"{fn} came in because {qc(rng, cmd)} {rng.choice(['kept failing', 'would not work', 'printed an error'])}."
        else:
            first = f"{fn} came in because their program {rng.choice(['crashed', 'stopped with an error', 'would not run'])}."
        stop = "" if (err_txt + loc).rstrip().endswith((".", "?", "!")) and not loc else "."
        e = (f"The message was {qi(rng, err_txt, ('“', '`', 'plain'))}{loc}{stop}" if "\n" not in err_txt
             else f"Output they showed me:\n{block(rng, err_txt, ('indent', 'fence', 'quote'))}")
        return f"{s} {d} — {first} {e}\n{rng.choice(['We looked at it together.', 'Ran out of time.', 'Will check next week whether it is sorted.', ''])}".rstrip()
    # feedback on a submission
    if cmd:
        lead = rng.choice([f"When I run {qc(rng, cmd, ('`',))} on your submission I get:",
                           f"Your repo does not build for me: `{cmd}` gives"])
    else:
        lead = rng.choice(["Running your submission I get:", "Your script stops right away:"])
    return (f"Feedback — {student}, assignment {rng.randint(1, 8)}\n\n{lead}\n\n"
            f"{block(rng, err_txt + loc, ('indent', 'fence'))}\n\n"
            f"{rng.choice(['Please check before resubmitting.', 'Points withheld until this runs.', 'Happy to go through it in class.'])}\n"
            f"— {rng.choice(['TA', 'Dr. ' + rng.choice(NAMES).split()[1], first_name(rng.choice(NAMES))])}")


def yaml_quote(s):
    return json.dumps(s, ensure_ascii=False)


def s_structured_event(c, rng):
    """An observability agent's or screen recorder's event as YAML, XML, logfmt or INI."""
    v = rng.choice(["yaml", "yaml", "xml", "logfmt", "ini"])
    t = when(rng)
    uh = userhost(rng, c)
    cmd = maybe_cmd(rng, c, 0.93)
    app = rng.choice(["gnome-terminal-server", "konsole", "kitty", "alacritty", "xterm", "wezterm", "tilix",
                      "code (integrated terminal)"])
    src = rng.choice(["screenrec/2.4.1", "otel-agent 0.98", "focus-tracker 1.3", "capture-daemon", "obs-agent",
                      "screensight 0.7"])
    code = c.exit_code() if c.cmd else None
    if v == "yaml":
        kind, err = c.pick(rng, [("full", 6), ("trim", 2), ("key", 2)])
        lines = [f"event: {rng.choice(['terminal.command_failed', 'screen.text_changed', 'cmd.exit_nonzero', 'window.error_seen'])}",
                 f"ts: {t.strftime('%Y-%m-%dT%H:%M:%S')}.{rng.randint(0, 999):03d}Z",
                 f"source: {src}",
                 "window:",
                 f"  app: {app}",
                 f"  title: {yaml_quote(f'{uh[0]}@{uh[1]}: ~')}"]
        if cmd:
            lines.append(f"command: {yaml_quote(cmd)}" if rng.random() < 0.6 else f"command: {cmd}")
        if code is not None and rng.random() < 0.7:
            lines.append(f"exit_code: {code}")
        fld = rng.choice(["stderr", "output", "visible_text", "text"])
        lines.append(f"{fld}: |")
        lines.append(indent(err, "  "))
        return "\n".join(lines)
    if v == "xml":
        kind, err = c.pick(rng, [("full", 6), ("trim", 2), ("key", 2)])
        attrs = f'type="{rng.choice(["command-error", "terminal-output", "screen-capture"])}" time="{t.strftime("%Y-%m-%dT%H:%M:%S")}"'
        parts = ['<?xml version="1.0" encoding="UTF-8"?>' if rng.random() < 0.5 else "",
                 f"<event {attrs}>",
                 f"  <source>{src}</source>",
                 f"  <app>{app.split(' ')[0]}</app>"]
        if cmd:
            parts.append(f"  <command><![CDATA[{cmd}]]></command>")
        if code is not None:
            parts.append(f"  <exit>{code}</exit>")
        parts.append(f"  <output stream=\"stderr\"><![CDATA[{err}]]></output>")
        parts.append("</event>")
        return "\n".join(p for p in parts if p)
    if v == "logfmt":
        kind, err = c.pick(rng, [("esc", 6), ("keyflat", 2), ("main", 1)])
        if kind == "keyflat":
            err = "\\n".join(c.key)

        def q(s):
            return '"' + s.replace('\\"', '\\\\"').replace('"', '\\"') + '"'
        fields = [f"ts={t.strftime('%Y-%m-%dT%H:%M:%S')}Z", f"level={rng.choice(['error', 'error', 'warn'])}",
                  f"agent={src.split(' ')[0].split('/')[0]}", f"host={uh[1]}", f"user={uh[0]}"]
        if cmd:
            fields.append(f"cmd={q(cmd)}")
        if code is not None:
            fields.append(f"exit={code}")
        fields.append(f"{rng.choice(['msg', 'stderr', 'text', 'out'])}={q(err)}")
        return " ".join(fields)
    kind, err = c.pick(rng, [("flat", 4), ("slash", 2), ("pipe", 2), ("main", 1)])
    sec = rng.choice(["[ScreenEvent]", "[TerminalError]", "[Capture]"])
    parts = [sec, f"Timestamp={t.strftime('%Y-%m-%d %H:%M:%S')}", f"Application={app}", f"User={uh[0]}"]
    if cmd:
        parts.append(f"CommandLine={cmd}")
    if code is not None:
        parts.append(f"ExitCode={code}")
    parts.append(f"VisibleText={err}")
    return "\n".join(parts)


def hard_wrap(s, width):
    out = []
    for ln in s.split("\n"):
        while len(ln) > width:
            out.append(ln[:width])
            ln = ln[width:]
        out.append(ln)
    return "\n".join(out)


def s_terminal_capture(c, rng):
    """A `script` typescript or a tmux capture-pane dump (escape sequences already stripped)."""
    v = rng.choice(["script", "script", "tmux"])
    t = when(rng)
    cols = rng.choice([80, 100, 120, 132, 158, 190])
    kind, err = c.pick(rng, [("full", 8), ("trim", 1)])
    if v == "script":
        tz = rng.choice(["+01:00", "+00:00", "+02:00", "-05:00"])
        tty = f"/dev/pts/{rng.randint(0, 9)}"
        cmdattr = f'COMMAND="{c.cmd}" ' if c.cmd else ""
        head = (f"Script started on {t.strftime('%Y-%m-%d %H:%M:%S')}{tz} [{cmdattr}TERM=\"xterm-256color\" "
                f"TTY=\"{tty}\" COLUMNS=\"{cols}\" LINES=\"{rng.randint(24, 60)}\"]")
        body = hard_wrap(err, cols) if rng.random() < 0.25 else err
        code = c.exit_code()
        end = f"Script done on {(t + timedelta(seconds=rng.randint(1, 40))).strftime('%Y-%m-%d %H:%M:%S')}{tz} [COMMAND_EXIT_CODE=\"{code}\"]"
        pre = rng.choice(["", "", f"--- {rng.choice(['session.log', 'typescript', 'build.typescript', '~/typescript'])} ---\n"])
        return f"{pre}{head}\n{body}\n\n{end}"
    width = rng.choice([80, 96, 110, 120])
    body = hard_wrap(err, width) if rng.random() < 0.35 else err
    sess = rng.choice(["work", "dev", "0", "main", "api"])
    win = rng.randint(0, 4)
    title = c.cmd if c.cmd else rng.choice(["python3", "zsh", "bash"])
    names = ["zsh", "vim", c.tool or "bash", "htop"]
    status_wins = "  ".join(f"{i}:{n}{'*' if i == win % 4 else ''}" for i, n in enumerate(names))
    host = rng.choice(HOSTS)
    hdr = rng.choice([f"--- tmux capture-pane -p -t {sess}:{win} (pane title: \"{title}\") ---",
                      f"# capture of {sess}:{win}.0 — pane_title={title}",
                      f"[tmux {sess}:{win}] {title}"])
    status = f"[{sess}] {status_wins}{' ' * rng.randint(8, 30)}\"{host}\" {t.strftime('%H:%M %d-%b-%y')}"
    return f"{hdr}\n{body}\n\n{status}"


def s_screen_reader(c, rng):
    """Speech log of a screen reader reading the terminal (Orca, NVDA, VoiceOver, Narrator)."""
    v = rng.choice(["orca", "orca", "nvda", "voiceover", "narrator"])
    uh = userhost(rng, c)
    kind, err = c.pick(rng, [("full", 5), ("key", 3), ("trim", 1)])
    spoken = [ln.strip() for ln in err.split("\n") if ln.strip() and ln.strip() not in ("...", "…", "[...]", "(snip)", "[... cut ...]")]
    if rng.random() < 0.7:
        spoken = [ln for ln in spoken if not DECOR.match(ln)]
    title = f"{uh[0]}@{uh[1]}: ~"
    cmd = maybe_cmd(rng, c, 0.9)
    if v == "orca":
        out = ["SPEECH OUTPUT: 'Terminal'", f"SPEECH OUTPUT: '{title} frame'", "SPEECH OUTPUT: 'terminal'"]
        if cmd:
            out.append(f"SPEECH OUTPUT: '{cmd}'")
        out += [f"SPEECH OUTPUT: '{ln}'" for ln in spoken]
        if rng.random() < 0.5:
            out.append("SPEECH OUTPUT: 'blank'")
        return "\n".join(out)
    if v == "nvda":
        t = when(rng)
        out = []
        tid = rng.randint(1000, 9999)
        lines = ([f"{title} — Terminal", "terminal"] + ([cmd] if cmd else []) + spoken)
        for i, ln in enumerate(lines):
            stamp = (t + timedelta(milliseconds=rng.randint(40, 900) * i)).strftime("%H:%M:%S.%f")[:-3]
            out.append(f"IO - speech.speech.speak ({stamp}) - MainThread ({tid}):\nSpeaking [{ln!r}]")
        return "\n".join(out)
    if v == "voiceover":
        out = ["VoiceOver caption panel:", "Terminal, window", f"{title}, text area"]
        if cmd:
            out.append(f"{cmd}")
        out += spoken
        out.append(rng.choice(["end of text", "insertion point at end of text", ""]))
        return "\n".join(o for o in out if o)
    out = [f"Narrator: {title}, terminal window"]
    if cmd:
        out.append(f"Narrator: {cmd}")
    out += [f"Narrator: {ln}" for ln in spoken]
    return "\n".join(out)


def s_standup_note(c, rng):
    """Standup update or meeting notes mentioning the failure."""
    v = rng.choice(["standup", "standup", "bot", "meeting"])
    t = when(rng)
    me = rng.choice(NAMES)
    cmd = maybe_cmd(rng, c)
    kind, err = c.pick(rng, [("key", 4), ("main", 2), ("full", 2), ("trim", 1), ("keyflat", 1)], maxfull=8)
    err_txt, loc = err_with_loc(c, err, kind)
    if "\n" in err_txt:
        e = "\n" + indent(err_txt, "      ")
    else:
        e = " " + qi(rng, err_txt, ("`", "“", "plain", "\"")) + loc
    blocker = (f"{qc(rng, cmd, ('`', 'plain'))} fails with{e}" if cmd else
               f"{rng.choice(['my script', 'the exercise', 'local run'])} dies with{e}")
    yesterday = rng.choice(["reviewed PRs, started on the importer", "pairing with Lena on auth", "bug triage",
                            "wrote tests for the parser", "onboarding docs", "sick half day"])
    today = rng.choice(["continue the importer", "get my env working", "finish the migration",
                        "deploy the staging fix", "look at the failing build"])
    if v == "standup":
        hdr = rng.choice([f"Standup {t.strftime('%a %d %b')}", f"**{first_name(me)}** — daily update",
                          f"standup notes {t.strftime('%Y-%m-%d')}"])
        return (f"{hdr}\n- Yesterday: {yesterday}\n- Today: {today}\n- Blockers: {blocker}")
    if v == "bot":
        return (f"{rng.choice(['Geekbot', 'Standuply', 'DailyBot'])} · {me} · {t.strftime('%b %d')}\n"
                f"*What did you do since yesterday?*\n{yesterday}\n"
                f"*What will you do today?*\n{today}\n"
                f"*Anything blocking your progress?*\n{blocker}")
    att = ", ".join(rng.sample([first_name(n) for n in NAMES], 4))
    return (f"Weekly sync — {t.strftime('%d %B %Y')}\nAttendees: {att}\n\n"
            f"1. Release status — on track\n"
            f"2. Dev environment\n   - {first_name(me)}: {blocker}\n"
            f"   - AI: {first_name(rng.choice(NAMES))} to pair on it after the call\n"
            f"3. AOB — none")


def s_incident_timeline(c, rng):
    """Incident report / postmortem timeline."""
    v = rng.choice(["timeline", "timeline", "status", "postmortem"])
    t = when(rng)
    cmd = maybe_cmd(rng, c, 0.92)
    oncall = rng.choice(NAMES)
    kind, err = c.pick(rng, [("full", 3), ("trim", 3), ("key", 3), ("main", 1)])
    host = rng.choice(["web1", "api-2", "build-03", "ci-runner-7", "worker-4", "db-1", rng.choice(HOSTS)])
    inc = f"INC-{rng.randint(1000, 9999)}"
    if v == "timeline":
        tl = [f"{inc} — {rng.choice(['deploy blocked', 'pipeline red', 'service degraded', 'release delayed'])}",
              f"Severity: SEV{rng.randint(2, 4)}   Commander: {oncall}", "", "Timeline (UTC)"]
        t0 = t
        tl.append(f"  {t0.strftime('%H:%M')}  {rng.choice(['Alert fired', 'Deploy job started', 'Report in #support'])}")
        t1 = t0 + timedelta(minutes=rng.randint(2, 12))
        if cmd:
            tl.append(f"  {t1.strftime('%H:%M')}  {first_name(oncall)} ran `{cmd}` on {host}; output:")
        else:
            tl.append(f"  {t1.strftime('%H:%M')}  {first_name(oncall)} reproduced on {host}; output:")
        tl.append(indent(err, "         "))
        t2 = t1 + timedelta(minutes=rng.randint(5, 30))
        tl.append(f"  {t2.strftime('%H:%M')}  {rng.choice(['Escalated to platform team', 'Rollback considered, not done', 'Investigating'])}")
        return "\n".join(tl)
    if v == "status":
        hdr = rng.choice(["Investigating", "Identified", "Update"])
        e = (qi(rng, err, ("“", "`", "plain")) if "\n" not in err
             else "\n" + block(rng, err, ("indent", "fence")))
        cm = f" while running `{cmd}`" if cmd else ""
        return (f"{hdr} — {t.strftime('%b %d, %H:%M')} UTC\n"
                f"We are seeing failures on {host}{cm}. The error reported is {e}\n"
                f"Next update in 30 minutes.")
    lines = [f"# Postmortem: {rng.choice(['failed deploy', 'broken nightly build', 'outage of internal tool'])} ({t.strftime('%Y-%m-%d')})",
             "", "## Summary", f"{rng.choice(['A routine', 'The nightly', 'A manual'])} step failed on {host}.", "",
             "## What we saw"]
    if cmd:
        lines.append(f"Command: `{cmd}`")
    lines.append(block(rng, err, ("fence", "indent")))
    lines += ["", "## Root cause", "_TBD_"]
    return "\n".join(lines)


FOREIGN = {
    "de": {
        "cmd": ["Ich habe {cmd} ausgeführt und bekomme diese Fehlermeldung:", "Bei {cmd} kommt folgender Fehler:",
                "Sobald ich {cmd} eingebe, erscheint:", "Hallo zusammen, {cmd} bricht bei mir ab mit:"],
        "nocmd": ["Mein Skript bricht mit diesem Fehler ab:", "Beim Ausführen bekomme ich:", "Hallo, ich sehe folgende Meldung:"],
        "tail": ["Weiß jemand, woran das liegt?", "Was mache ich falsch?", "Danke im Voraus!", "Hat jemand eine Idee?", ""],
    },
    "es": {
        "cmd": ["Al ejecutar {cmd} me sale este error:", "Hola, cuando hago {cmd} aparece:", "Ejecuto {cmd} y obtengo:",
                "No entiendo qué pasa, {cmd} falla con:"],
        "nocmd": ["Mi script falla con este error:", "Hola, me aparece esto al ejecutar el programa:", "Me sale este mensaje:"],
        "tail": ["¿Alguien sabe por qué?", "¿Qué estoy haciendo mal?", "¡Gracias de antemano!", "Cualquier ayuda se agradece.", ""],
    },
    "fr": {
        "cmd": ["Quand je lance {cmd}, j'obtiens cette erreur :", "Bonjour, {cmd} me renvoie :", "J'ai tapé {cmd} et voilà ce qui s'affiche :",
                "Depuis ce matin, {cmd} plante avec :"],
        "nocmd": ["Mon script s'arrête avec cette erreur :", "Bonjour, j'ai ce message au lancement :", "Voici l'erreur que je vois :"],
        "tail": ["Quelqu'un a une idée ?", "Merci d'avance !", "Je ne comprends pas ce qui cloche.", ""],
    },
    "it": {
        "cmd": ["Quando eseguo {cmd} ottengo questo errore:", "Ciao, lanciando {cmd} esce:", "Ho provato {cmd} e mi dà:"],
        "nocmd": ["Il mio script si ferma con questo errore:", "Ciao, mi compare questo messaggio:"],
        "tail": ["Qualcuno sa perché?", "Grazie in anticipo!", "Cosa sbaglio?", ""],
    },
    "pt": {
        "cmd": ["Quando rodo {cmd} aparece este erro:", "Oi pessoal, {cmd} está dando:", "Executei {cmd} e recebi:"],
        "nocmd": ["Meu script para com este erro:", "Oi, aparece essa mensagem quando executo:"],
        "tail": ["Alguém sabe o motivo?", "Valeu!", "O que estou fazendo de errado?", ""],
    },
    "nl": {
        "cmd": ["Als ik {cmd} uitvoer krijg ik deze foutmelding:", "Hoi, {cmd} geeft bij mij:"],
        "nocmd": ["Mijn script stopt met deze fout:", "Ik krijg deze melding:"],
        "tail": ["Weet iemand hoe dit komt?", "Alvast bedankt!", ""],
    },
    "pl": {
        "cmd": ["Po uruchomieniu {cmd} dostaję taki błąd:", "Cześć, {cmd} wyrzuca:"],
        "nocmd": ["Mój skrypt kończy się takim błędem:", "Dostaję taki komunikat:"],
        "tail": ["Ktoś wie, o co chodzi?", "Z góry dzięki!", ""],
    },
    "tr": {
        "cmd": ["{cmd} komutunu çalıştırınca şu hatayı alıyorum:", "Merhaba, {cmd} çalıştırdığımda şu çıkıyor:"],
        "nocmd": ["Scriptim şu hatayla duruyor:", "Merhaba, şu mesajı alıyorum:"],
        "tail": ["Neden olabilir?", "Şimdiden teşekkürler!", ""],
    },
}


def s_foreign_prose(c, rng):
    """A German/Spanish/French/... sentence around the English error text."""
    lang = rng.choice(["de", "de", "es", "es", "fr", "fr", "it", "pt", "nl", "pl", "tr"])
    L = FOREIGN[lang]
    cmd = maybe_cmd(rng, c, 0.9)
    kind, err = c.pick(rng, [("full", 4), ("key", 3), ("trim", 1), ("main", 1), ("flat", 1)], maxfull=8)
    if cmd:
        lead = rng.choice(L["cmd"]).format(cmd=qc(rng, cmd, ("`", "`", "«", "plain", "\"")))
    else:
        lead = rng.choice(L["nocmd"])
    if "\n" in err:
        mid = block(rng, err, ("fence", "fence", "indent", "plain", "quote"))
        return f"{lead}\n\n{mid}\n\n{rng.choice(L['tail'])}".rstrip()
    q = {"de": ("„", "“"), "fr": ("« ", " »"), "es": ("«", "»"), "it": ("«", "»"), "pt": ("“", "”"),
         "nl": ("‘", "’"), "pl": ("„", "”"), "tr": ("“", "”")}[lang]
    e = rng.choice([f"{q[0]}{err}{q[1]}", f"`{err}`", err, "\n" + err + "\n"])
    return f"{lead} {e} {rng.choice(L['tail'])}".strip()


def s_so_answer(c, rng):
    """A Stack Overflow ANSWER (or long comment) quoting the asker's error."""
    v = rng.choice(["answer", "answer", "answer", "comment"])
    votes = rng.choice([0, 1, 2, 3, 5, 7, 12, 23, 41, 118])
    name = rng.choice(NAMES + HANDLES)
    rep = f"{rng.randint(1, 98)},{rng.randint(100, 999)}" if rng.random() < 0.5 else str(rng.randint(11, 999))
    t = when(rng)
    cmd = maybe_cmd(rng, c, 0.85)
    kind, err = c.pick(rng, [("full", 3), ("key", 4), ("main", 2), ("trim", 1)], maxfull=8)
    if v == "comment":
        e = qi(rng, " ".join(ln.strip() for ln in err.split("\n")) if kind != "main" else err, ("`",))
        cm = f"Your `{cmd}` output says " if cmd else "The last line of your output says "
        return (f"{cm}{e} — {rng.choice(['that is the actual problem, the rest is noise.', 'please edit the question with the complete output.', 'did you read it?', 'what do you get if you run it again with verbose output?'])} "
                f"– {name} {t.strftime('%b %d, %Y at %H:%M')}")
    intros_tb = ["The traceback tells you exactly where it happens. Only these lines matter:",
                 "Read the traceback from the bottom up:"]
    intros = ["The important part of your output is this:", "Look closely at the error you posted:",
              "Everything above is noise; this is the line that matters:", "You quoted it yourself:",
              "Your output contains the answer:"]
    if kind in ("full", "trim"):
        intros = ["Look closely at the error you posted:", "You quoted it yourself:", "Your output contains the answer:",
                  "Let's read what you got:"]
        intros_tb = ["Read the traceback from the bottom up:", "Your traceback, for reference:"]
    intro = rng.choice(intros_tb if c.tb and rng.random() < 0.6 else intros)
    if kind == "main":
        quoted = rng.choice([f"> {err}", f"`{err}`" if "`" not in err else f"``{err}``", f"    {err}"])
    elif "\n" in err or rng.random() < 0.6:
        quoted = block(rng, err, ("quote", "indent", "fence"))
    else:
        quoted = f"`{err}`" if "`" not in err else f"``{err}``"
    ctx_line = ""
    if cmd:
        ctx_line = rng.choice([f"\n\nThat comes from running `{cmd}` itself, not from your code.",
                               f"\n\nYou get this from `{cmd}` because of what the message literally says.",
                               f"\n\nWhen you run `{cmd}`, the tool stops right there, so nothing after it runs.",
                               ""])
    gen = rng.choice(["Fix what the message points at and run it again; if it still fails, update your question with the new output.",
                      "Please don't post screenshots of the terminal next time, paste the text.",
                      "Once that is sorted the rest of the output should go away too.",
                      "(The duplicate linked above covers the same message.)"])
    foot = f"\n\nShare\nImprove this answer\nFollow\nanswered {t.strftime('%b %d, %Y at %H:%M')}\n{name}\n{rep}"
    return f"{votes}\n\n{intro}\n\n{quoted}{ctx_line}\n\n{gen}{foot}"


def s_microblog(c, rng):
    """A tweet / Mastodon / Bluesky post."""
    v = rng.choice(["tweet", "tweet", "mastodon", "bluesky"])
    h = rng.choice(HANDLES)
    tags = " ".join(rng.sample(c.tags, rng.randint(1, min(2, len(c.tags)))))
    cmd = maybe_cmd(rng, c, 0.8)
    mix = [("main", 6), ("keyflat", 2), ("key", 1)]
    if v == "mastodon":
        mix = [("main", 3), ("key", 3), ("full", 1)]
    kind, err = c.pick(rng, mix, maxfull=8)
    if v == "tweet" and len(err) > 200 and kind != "main":
        kind, err = "main", c.main
    err_txt, loc = err_with_loc(c, err, kind)
    if "\n" in err_txt:
        e = "\n\n" + err_txt + "\n\n"
    else:
        e = " " + qi(rng, err_txt + loc, ("“", "\"", "plain", "`")) + " "
    if cmd:
        body = rng.choice([
            f"me: {cmd}\nterminal:{e}\n😩 {tags}",
            f"why does {qc(rng, cmd, ('plain', '`'))} give me{e}on a FRESH install {tags}",
            f"day {rng.randint(2, 99)} of learning: ran {cmd} and got{e}send help {tags}",
            f"{tags} anyone? `{cmd}` →{e}",
            f"nothing like starting monday with{e}from {cmd} ☕ {tags}",
        ])
    else:
        body = rng.choice([
            f"my code:{e}me: 🫠 {tags}",
            f"{rng.choice(['ok', 'lol', 'cool cool cool'])}{e}{tags}",
            f"stuck on{e}for an hour now {tags}",
        ])
    body = re.sub(r"[ \t]+\n", "\n", body).strip()
    t = when(rng)
    if v == "tweet":
        return (f"{rng.choice(NAMES)} @{h} · {rng.choice(['2h', '14m', '5h', t.strftime('%b %d')])}\n{body}\n"
                f"{rng.randint(0, 40)} replies  {rng.randint(0, 15)} reposts  {rng.randint(0, 200)} likes")
    if v == "mastodon":
        inst = rng.choice(["fosstodon.org", "hachyderm.io", "mastodon.social", "chaos.social", "infosec.exchange"])
        return (f"{rng.choice(NAMES)} @{h.replace('.', '_')}@{inst}\n{body}\n"
                f"{t.strftime('%b %d, %Y, %H:%M')} · 🌐 · {rng.randint(0, 12)} boosts · {rng.randint(0, 30)} favourites")
    return f"@{h.replace('_', '-')}.bsky.social · {rng.choice(['3h', '1d', '22m'])}\n{body}"


def s_pager_alert(c, rng):
    """An on-call pager / alerting notification."""
    v = rng.choice(["alertmanager", "pagerduty", "opsgenie", "sms"])
    t = when(rng)
    host = rng.choice(["web1", "api-2", "build-03", "ci-runner-7", "worker-4", "db-1", "batch-1"])
    cmd = maybe_cmd(rng, c, 0.9)
    if v == "alertmanager":
        kind, err = c.pick(rng, [("key", 4), ("full", 2), ("trim", 2)], maxfull=12)
        name = rng.choice(["JobFailed", "CommandExitNonZero", "CronJobFailed", "DeployStepFailed"])
        lines = [f"[FIRING:1] {name} ({host} {rng.choice(['critical', 'warning', 'page'])})",
                 "Labels:", f" - alertname = {name}", f" - instance = {host}:9100",
                 f" - severity = {rng.choice(['critical', 'warning'])}", "Annotations:"]
        if cmd:
            lines.append(f" - command = {cmd}")
        lines.append(f" - summary = {c.main}")
        lines.append(" - output =")
        lines.append(indent(err, "     "))
        lines.append(f"Source: http://prometheus.internal:9090/graph?g0.expr=job_failed%7Bhost%3D%22{host}%22%7D")
        return "\n".join(lines)
    if v == "pagerduty":
        kind, err = c.pick(rng, [("keyflat", 3), ("main", 2), ("flat", 1)])
        n = rng.randint(1000, 99999)
        cm = f"\nCommand: {cmd}" if cmd else ""
        return (f"[PagerDuty] TRIGGERED #{n}: {rng.choice(['Job failed', 'Step failed', 'Script error'])} on {host}\n"
                f"Service: {rng.choice(['platform-batch', 'deploy-pipeline', 'dev-env-monitor', 'nightly'])}\n"
                f"Urgency: {rng.choice(['high', 'low'])}{cm}\nDetails: {err}\n"
                f"Acknowledge: reply 4 | Resolve: reply 6")
    if v == "opsgenie":
        kind, err = c.pick(rng, [("main", 2), ("key", 3), ("full", 1)], maxfull=8)
        cm = f"Command: {cmd}\n" if cmd else ""
        return (f"Opsgenie Alert P{rng.randint(1, 4)} — {host}: {c.main[:90]}\n"
                f"Created at {t.strftime('%Y-%m-%d %H:%M:%S')} | Source: {rng.choice(['Heartbeat', 'API', 'Email'])}\n"
                f"{cm}Description:\n{err}\n\nTeams: {rng.choice(['platform', 'devex', 'sre'])}")
    kind, err = c.pick(rng, [("main", 3), ("keyflat", 2)])
    cm = f" cmd: {cmd} |" if cmd else ""
    msg = f"ALERT {host} {t.strftime('%H:%M')} |{cm} {err}"
    return msg if len(msg) < 400 else msg[:397] + "..."


def s_messenger_export(c, rng):
    """A WhatsApp / Telegram chat export."""
    v = rng.choice(["whatsapp_ios", "whatsapp_android", "telegram"])
    a, b = two_names(rng)
    fb = first_name(b)
    t = when(rng)
    cmd = maybe_cmd(rng, c, 0.85)
    kind, err = c.pick(rng, [("full", 4), ("key", 3), ("main", 1), ("trim", 1)], maxfull=8)
    msgs = []
    msgs.append((a, rng.choice([f"{fb} u there? need help with {rng.choice(c.topics)}", "hey, quick computer question 🙈",
                                "sorry to bug you again", f"{fb}!! it's broken again"])))
    msgs.append((b, rng.choice(["sure what's up", "yep", "go", "😅 what now"])))
    if rng.random() < 0.5:
        msgs.append((a, rng.choice(["<Media omitted>", "image omitted", "‎image omitted", "[photo]"])))
        msgs.append((b, rng.choice(["can't read that, copy the text pls", "too blurry, paste the text", "text pls"])))
    if cmd:
        msgs.append((a, rng.choice([f"I typed {cmd}", f"ran {cmd}", f"the command was: {cmd}", f"{cmd} ← this"])))
    msgs.append((a, err))
    msgs.append((b, rng.choice(["ah ok, I'll call you in 5", "hmm, what did you change?", "let me look tonight",
                                "ok, I know this one", "did you restart?"])))
    out = []
    for i, (who, text) in enumerate(msgs):
        tt = t + timedelta(minutes=i // 2, seconds=i * 11)
        if v == "whatsapp_ios":
            out.append(f"[{tt.strftime('%d/%m/%Y, %H:%M:%S')}] {who}: {text}")
        elif v == "whatsapp_android":
            out.append(f"{tt.strftime('%d/%m/%y, %H:%M')} - {who}: {text}")
        else:
            out.append(f"{who}, [{tt.strftime('%d.%m.%y %H:%M')}]\n{text}\n")
    return "\n".join(out).rstrip()


def s_readme_troubleshooting(c, rng):
    """A README / docs 'Troubleshooting' or FAQ entry."""
    v = rng.choice(["section", "section", "faq", "admonition"])
    cmd = maybe_cmd(rng, c, 0.9)
    kind, err = c.pick(rng, [("full", 4), ("key", 3), ("trim", 2)])
    title_err = c.main if len(c.main) <= 90 else c.main[:87] + "..."
    if v == "section":
        if cmd:
            h = rng.choice([f"### `{cmd}` fails with “{title_err}”", f"### Error when running `{cmd}`",
                            f"### {title_err}"])
        else:
            h = rng.choice([f"### {title_err}", f"### The script exits with `{c.exc or 'an error'}`"])
        intro = rng.choice(["If you see output like this:", "Symptom:", "Some users report:", "You may see:"])
        foot = rng.choice(["please open an issue and attach the full log.",
                           "check the Prerequisites section above and try again.",
                           "see the FAQ in the wiki.", "this is tracked in the issue tracker."])
        pre = rng.choice(["## Troubleshooting\n\n", "", "## Known problems\n\n"])
        return f"{pre}{h}\n\n{intro}\n\n```\n{err}\n```\n\n{foot[0].upper() + foot[1:]}"
    if v == "faq":
        if cmd:
            q = f"**Q: Running `{cmd}` prints `{title_err}`. What now?**"
        else:
            q = f"**Q: I get `{title_err}`. What now?**"
        return f"{q}\n\nFull output usually looks like:\n\n{indent(err, '    ')}\n\nA: See the setup guide; if that does not help, file a bug with the output above."
    kindword = rng.choice(["WARNING", "NOTE", "IMPORTANT", "CAUTION"])
    cm = f" `{cmd}`" if cmd else " the script"
    body = "\n".join("> " + ln if ln else ">" for ln in f"If{cm} stops with\n```\n{err}\n```\nsee Troubleshooting below.".split("\n"))
    return f"> [!{kindword}]\n{body}"


def s_agent_trace(c, rng):
    """A coding agent's Thought / Action / Observation trace."""
    v = rng.choice(["react", "react", "langchain", "steps", "autogen"])
    cmd = c.cmd
    kind, err = c.pick(rng, [("full", 7), ("trim", 2), ("esc", 1)])
    goal = rng.choice(["set up the project", "run the tests", "reproduce the bug", "start the app",
                       "check why the build fails", "deploy the change"])
    if v == "react":
        out = [f"Thought: I need to {goal}."]
        if cmd:
            out += [f"Action: {rng.choice(['shell', 'terminal', 'bash', 'run_command'])}",
                    f"Action Input: {rng.choice([cmd, json.dumps({'command': cmd})])}"]
        else:
            out += ["Action: read_terminal", "Action Input: {}"]
        ec = c.exit_code()
        out.append(f"Observation: {rng.choice(['', f'exit code {ec}', f'exit_code={ec}', '(stderr)'])}".rstrip())
        out.append(err)
        out.append(f"Thought: {rng.choice(['The command failed. I should look at the error before continuing.', 'That did not work.', 'I should inspect this error.'])}")
        return "\n".join(out)
    if v == "langchain":
        out = ["> Entering new AgentExecutor chain...", f"I should {goal}."]
        if cmd:
            out.append(f"Action: terminal\nAction Input: {cmd}")
        out.append(f"Observation: {err}")
        out.append("Thought:")
        return "\n".join(out)
    if v == "steps":
        n = rng.randint(2, 9)
        inp = cmd if cmd else "(observe)"
        return (f"[step {n}] tool=bash input={json.dumps(inp, ensure_ascii=False)}\n"
                f"[step {n}] returncode={c.exit_code() if cmd else 'n/a'}\n"
                f"[step {n}] output:\n{err}\n[step {n + 1}] thinking…")
    out = []
    if cmd:
        out.append(f"{rng.choice(['assistant', 'coder'])} (to user_proxy):\n\n```sh\n{cmd}\n```\n")
    out.append(f"{'-' * 40}\n>>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is sh)...\n"
               f"user_proxy (to assistant):\n\nexitcode: {c.exit_code()} "
               f"({'execution failed' if c.exit_code() else 'execution succeeded'})\nCode output: \n{err}")
    return "\n".join(out)


STYLES = [
    ("chat_thread_export", s_chat_thread_export),
    ("notebook_cell", s_notebook_cell),
    ("commit_message", s_commit_message),
    ("teaching_note", s_teaching_note),
    ("structured_event", s_structured_event),
    ("terminal_capture", s_terminal_capture),
    ("screen_reader", s_screen_reader),
    ("standup_note", s_standup_note),
    ("incident_timeline", s_incident_timeline),
    ("foreign_prose", s_foreign_prose),
    ("so_answer", s_so_answer),
    ("microblog", s_microblog),
    ("pager_alert", s_pager_alert),
    ("messenger_export", s_messenger_export),
    ("readme_troubleshooting", s_readme_troubleshooting),
    ("agent_trace", s_agent_trace),
]


def load_cases():
    cases = []
    for path in sorted(glob.glob(os.path.join(CASES_DIR, "*.toml"))):
        with open(path, "rb") as f:
            data = tomllib.load(f)
        fname = os.path.basename(path)
        for i, d in enumerate(data.get("case", [])):
            cases.append(Case(fname, i, d))
    return cases


def main():
    cases = load_cases()
    pick_rng = random.Random(SEED)
    counts = {name: 0 for name, _ in STYLES}
    rows = []
    for c in cases:
        order = sorted(STYLES, key=lambda s: (counts[s[0]], pick_rng.random()))
        chosen = order[:STYLES_PER_CASE]
        chosen.sort(key=lambda s: [n for n, _ in STYLES].index(s[0]))
        for name, fn in chosen:
            rng = random.Random(f"{c.file}|{c.idx}|{name}|{SEED}")
            text = fn(c, rng)
            counts[name] += 1
            rows.append({"file": c.file, "case": c.idx, "style": name, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows for {len(cases)} cases to {os.path.relpath(OUT)}")
    for name, _ in STYLES:
        print(f"  {name:24s} {counts[name]}")


if __name__ == "__main__":
    main()
