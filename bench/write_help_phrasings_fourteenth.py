"""Write ``bench/help_phrasings_fourteenth.jsonl``: blind, media-styled error observations.

Every ``[[case]]`` table of ``bench/help_cases/*.toml`` (files sorted by name) and then of
``bench/help_heldout/set*.toml`` (files sorted by name) gets exactly TWO rows.  Each row is
an observation of somebody hitting that case's error after running (or trying to run) its
command, written the way one of sixteen media really renders it.  The two rows of a case
always use two different styles.

Styles
------
mime_quoted_printable          raw mail source (Received, Message-ID, MIME-Version, text/plain;
                               charset=utf-8, quoted-printable): 76-column soft breaks that cut
                               words and error lines, =3D, =E2=80=99, =20 before line ends.
messenger_mojibake             Facebook Messenger / Instagram JSON export, newest message first,
                               with the export's real mojibake (\\u00e2\\u0080\\u0099 for a
                               curly apostrophe) and the error pasted in one or more messages.
logseq_outline                 Logseq / Roam / Workflowy outline: nested "- " bullets, id:: and
                               collapsed:: properties, [[links]], #tags, TODO/DONE, code fences
                               or one-bullet-per-line pastes holding the command and the error.
evernote_enex                  Evernote ENEX (legacy and v10 code blocks), OneNote HTML or Apple
                               Notes HTML export: <en-note>, <div> per line, &nbsp;, &quot;,
                               <en-todo>, title and created/updated stamps.
google_keep_json               Google Keep Takeout note (textContent or listContent items,
                               labels, usec stamps) or a Todoist task JSON holding the command
                               and the error with escaped newlines.
trello_card                    Trello card JSON (desc in Markdown, commentCard actions,
                               checklists), Trello card page copy, Jira Cloud issue JSON with an
                               ADF codeBlock, or a Linear issue copied as Markdown.
youtube_comments               comments under a tutorial video (YouTube, Udemy Q&A, Coursera
                               forum): @handles, "3 days ago", likes, Reply, Read more, video
                               timestamps, pasted output sometimes squashed onto fewer lines.
stackexchange_chat             Stack Exchange chat transcript: userNNNN names, 12:03 PM stamps,
                               @replies, 4-space fixed-font pastes, "(see full text)" cut-offs,
                               "edited" markers and stars.
pdf_form_ticket                an IT / help-desk PDF form run through pdftotext -layout:
                               two-column label/field rows, check boxes, a "Description of the
                               problem" box wrapped and hyphenated, Page x of y headers/footers.
docx_track_changes             Word review text: body with balloons (Deleted:/Inserted:/
                               Formatted: Font: Consolas/Comment [AB1]:), the Reviewing Pane
                               list, or pandoc --track-changes=all Markdown spans.
voice_assistant_log            assistant / dictation history: "You said:" speech-to-text of
                               somebody reading the command and error aloud (spoken punctuation,
                               numbers as words, mishearings) followed by a pasted exact copy.
lsp_log                        language-server / IDE extension log (VS Code trace, VS Code log
                               channel, Neovim lsp.log, Emacs lsp-mode, Sublime LSP) where the
                               extension ran the command and logged its stderr in JSON params.
bugreport_template             plain-text issue following a template (GitHub default, GitHub
                               issue form, GitLab): Describe the bug, To Reproduce steps with
                               the command, Expected behavior, Environment, <details> logs.
pager_sms                      monitoring alert relayed by an SMS/pager gateway: (1/4) segments
                               of 160 GSM-7 septets, newlines collapsed, unsupported characters
                               substituted, truncated with "..."; as a thread copy, an SMS
                               Backup & Restore XML file or a pager gateway log.
csv_cell                       CSV export of a bug-triage sheet; the error sits in a quoted cell
                               with doubled "" quotes and embedded newlines, other rows around.
terminal_screenshot_ocr_table  OCR of a terminal screenshot as JSON lines with bbox/conf,
                               "line N (0.95): ..." listings, a Markdown table or PaddleOCR
                               quadrilaterals; screen order, wrapped lines, a few OCR slips.

Output format
-------------
``bench/help_phrasings_fourteenth.jsonl``, one JSON object per line::

    {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}

``file`` is the TOML file's base name and ``case`` the 0-based index of the ``[[case]]``
table inside that file.  Rows follow the case order above, two consecutive rows per case.

Determinism
-----------
Styles are dealt from a stream of shuffled 16-card decks drawn from ``random.Random`` with a
fixed seed, two consecutive cards per case (decks have an even size, so the two cards of a
case always come from the same deck and differ); per-style counts therefore differ by at
most one.  Each row's details come from its own ``random.Random`` seeded by a string built
from the file name, case index, slot and style, so rerunning gives byte-identical output.

Blind writing
-------------
This script was written blind to the project.  The only project data read were the
``error`` and ``command`` keys of the ``[[case]]`` tables (loaded with tomllib, nothing else
in those tables was looked at) and, for tone, a glance at two ProactiveBench session files
(code_11.json, writing_13.json) in /work/shared/data/proactivebench/sessions/.  No project code, tests, docs, other phrasing
sets, other writer scripts or git history were opened, and no project code was run.  Public
reference material was consulted only to check what the real formats look like.  The script
itself reads only the ``error`` and ``command`` keys.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import random
import re
import tomllib
import unicodedata
from datetime import datetime, timedelta
from pathlib import Path

BENCH = Path(__file__).resolve().parent
OUT_PATH = BENCH / "help_phrasings_fourteenth.jsonl"
SEED = "help-phrasings-fourteenth/v1"

STYLES = [
    "mime_quoted_printable",
    "messenger_mojibake",
    "logseq_outline",
    "evernote_enex",
    "google_keep_json",
    "trello_card",
    "youtube_comments",
    "stackexchange_chat",
    "pdf_form_ticket",
    "docx_track_changes",
    "voice_assistant_log",
    "lsp_log",
    "bugreport_template",
    "pager_sms",
    "csv_cell",
    "terminal_screenshot_ocr_table",
]

# --------------------------------------------------------------------------------------
# pools
# --------------------------------------------------------------------------------------

FIRST = [
    "Priya", "Tomás", "Ana", "Kevin", "Mei", "Jonas", "Fatima", "Oluwaseun", "Chloé", "Björn",
    "Sara", "Diego", "Hannah", "Kenji", "Zoë", "Marek", "Aisha", "Liam", "Nadia", "Søren",
    "Rosa", "Arjun", "Elif", "Mateo", "Yuki", "Grace", "Femi", "Inês", "Pavel", "Leila",
    "Owen", "Camille", "Ravi", "Ingrid", "Hugo", "Amara", "Dmitri", "Lucía", "Noah", "Wen",
    "Ümit", "Niamh", "Kofi", "Astrid", "Raúl", "Chen", "Maja", "Sam", "Tariq", "Eva",
]
LAST = [
    "Natarajan", "Reyes", "Lima", "O'Brien", "Zhang", "Becker", "Haddad", "Adeyemi", "Dubois",
    "Lindqvist", "Kowalski", "Okafor", "Nakamura", "Müller", "Fernández", "Novak", "Rahman",
    "Costa", "Jensen", "Patel", "Yılmaz", "García", "Sato", "Murphy", "Kuznetsov", "Silva",
    "Andersen", "Nguyen", "Rossi", "Mensah", "Schmidt", "Horvat", "Khan", "Moreau", "Park",
    "Eriksen", "Byrne", "Tanaka", "Ivanova", "Walsh",
]
GENERIC_USERS = {"dev", "ubuntu", "user", "deploy", "app", "admin", "runner", "root", "ci", "ec2-user", "vagrant", "pi"}
HOSTS = [
    "thinkpad-x1", "devbox", "ws-0417", "build-02", "ci-runner-03", "staging-app-1", "nuc",
    "raspberrypi", "lab-pc-12", "vm-ubuntu", "dev-vm", "workstation", "zenbook", "gpu-node-4",
    "bastion-eu1", "web-01", "jenkins-agent-7", "laptop", "x13", "homeserver", "pop-os",
    "fedora-ws", "wsl-ubuntu", "t480", "ops-jump-2",
]
PROJECTS = [
    "billing-api", "weather-bot", "inventory", "site", "notes-app", "price-watch", "crm-import",
    "feedbot", "ledger", "blog", "shop", "scraper", "dashboard", "etl-jobs", "homelab",
    "thesis-code", "chatbot", "infra", "mailer", "analytics", "portal", "payments", "tracker",
]
ORGS = [
    ("Northwind Logistics", "northwind.example"), ("Acme Corp", "acme.example"),
    ("Brightline Health", "brightline.example"), ("Kestrel Analytics", "kestrel.example"),
    ("Fjord Software", "fjord.example"), ("Meridian Bank", "meridian.example"),
    ("Tidewater University", "tidewater.example.edu"), ("Helios Energy", "helios.example"),
    ("Orchard Labs", "orchardlabs.example"), ("Bluepeak Media", "bluepeak.example"),
]
DEPTS = [
    "Finance Analytics", "Platform Engineering", "Research Computing", "Marketing Ops",
    "Customer Data", "Web Team", "Logistics Systems", "Biostatistics", "Internal Tools", "QA",
]

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
TZS = [("+0000", "UTC"), ("+0100", "CET"), ("+0200", "CEST"), ("-0500", "EST"), ("-0400", "EDT"),
       ("-0700", "PDT"), ("-0800", "PST"), ("+0530", "IST"), ("+0900", "JST"), ("+1000", "AEST")]

FAMILIES = {
    "python": {"python", "python3", "pip", "pip3", "pytest", "poetry", "uv", "pipenv", "flask", "django-admin"},
    "rust": {"cargo", "rustc", "rustup"},
    "go": {"go"},
    "node": {"node", "npm", "npx", "yarn", "tsc", "pnpm", "deno"},
    "docker": {"docker", "docker-compose", "podman"},
    "k8s": {"kubectl", "helm", "minikube", "kind", "k9s"},
    "git": {"git", "gti"},
    "db": {"psql", "mysql", "sqlite3", "pg_dump", "redis-cli", "mongosh", "pg_restore"},
    "ssh": {"ssh", "scp", "ssh-add", "ssh-copy-id", "rsync", "sftp", "ssh-keygen"},
    "c": {"gcc", "g++", "make", "cmake", "clang", "pkg-config", "cc", "ld"},
    "java": {"javac", "java", "mvn", "gradle", "gradlew", "mvnw", "jar"},
    "ruby": {"ruby", "bundle", "rails", "gem", "rbenv", "rake", "irb"},
    "systemd": {"systemctl", "journalctl"},
    "tls": {"curl", "openssl", "wget", "certbot"},
}
GOALS = {
    "python": ["run the script", "get the script working", "run the import job", "try the new version of the tool", "test my changes"],
    "rust": ["build the project", "get the crate compiling", "run the Rust service", "try the example from the book"],
    "go": ["run the Go service", "build the binary", "get the Go tool running", "compile the CLI"],
    "node": ["start the app", "install the dependencies", "run the build", "get the dev server up"],
    "docker": ["get the container up", "build the image", "run the stack locally", "start the database container"],
    "k8s": ["check the cluster", "deploy to staging", "roll out the new release", "look at the pods"],
    "git": ["push my changes", "sync my branch", "get my commits up", "update the repo"],
    "db": ["connect to the database", "load the data", "run the query", "set up the local DB"],
    "ssh": ["log into the box", "copy the release over", "get onto the server", "deploy over ssh"],
    "c": ["compile it", "build the C code", "get the build going", "build from source"],
    "java": ["build the Java service", "compile the project", "run the app", "get the Java assignment running"],
    "ruby": ["get the Rails app running", "run the Ruby script", "install the gems", "start the app server"],
    "systemd": ["get the service running", "bring the unit back up", "figure out why the service died", "enable the new service"],
    "tls": ["hit the API", "check the certificate", "call the internal endpoint", "test the HTTPS setup"],
    "shell": ["get this working", "finish the setup", "run the deploy step", "follow the install guide"],
}
VERSIONS = {
    "python": ["Python 3.11.8", "Python 3.12.3", "Python 3.10.12", "Python 3.11.2"],
    "rust": ["rustc 1.76.0", "rustc 1.78.0", "cargo 1.77.2", "rustc 1.80.1"],
    "go": ["go1.22.1 linux/amd64", "go1.21.6 linux/amd64", "go1.23.0 linux/arm64"],
    "node": ["node v20.11.1, npm 10.2.4", "node v18.19.0, npm 10.2.3", "node v22.2.0, npm 10.7.0"],
    "docker": ["Docker 25.0.3", "Docker 24.0.7", "Docker 26.1.1"],
    "k8s": ["kubectl v1.29.2", "kubectl v1.30.1, helm v3.14.4", "kubectl v1.28.4"],
    "git": ["git 2.43.0", "git 2.39.2", "git 2.45.1"],
    "db": ["PostgreSQL 16.2", "psql 15.6", "MySQL 8.0.36", "SQLite 3.45.1"],
    "ssh": ["OpenSSH_9.6p1", "OpenSSH_8.9p1 Ubuntu-3ubuntu0.6", "OpenSSH_9.3p1"],
    "c": ["gcc 13.2.0", "gcc 11.4.0, GNU Make 4.3", "cmake 3.28.3"],
    "java": ["openjdk 17.0.10", "openjdk 21.0.2, Maven 3.9.6", "Gradle 8.7"],
    "ruby": ["ruby 3.2.3, bundler 2.5.6", "ruby 3.3.0", "ruby 3.1.4, rails 7.1.3"],
    "systemd": ["systemd 252", "systemd 255", "systemd 249"],
    "tls": ["curl 8.5.0", "OpenSSL 3.0.13", "curl 7.81.0"],
    "shell": ["bash 5.2.21", "zsh 5.9", "bash 5.1.16"],
}
OSES = ["Ubuntu 22.04.4 LTS", "Ubuntu 24.04 LTS", "Debian 12 (bookworm)", "Fedora 40", "Arch Linux",
        "Pop!_OS 22.04", "Linux Mint 21.3", "WSL2 / Ubuntu 22.04", "Rocky Linux 9.3", "openSUSE Tumbleweed"]

ERRWORD_RE = re.compile(
    r"(?i)(error|fatal|failed|failure|denied|refused|cannot|can't|could not|couldn't|unable|"
    r"not found|no such|invalid|unknown|missing|exception|panic|timed? ?out|conflict|rejected|"
    r"abort|undefined|unresolved|mismatch|expired|forbidden|unauthori[sz]ed|permission|"
    r"not allowed|violat|warning|deprecated|e[0-9]{4}|\*\*\*)"
)
EXC_RE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Warning|Exit|Interrupt)\b(:|$)")
HOME_PATH_RE = re.compile(r"/home/([A-Za-z0-9_.-]+)((?:/[A-Za-z0-9_.@+-]+)*)")


# --------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------


TRANSLIT = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "ı": "i", "ł": "l", "Ł": "L", "đ": "d"})


def ascii_slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text.translate(TRANSLIT)).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]", "", plain.lower())


def nonblank(text: str) -> list[str]:
    return [ln for ln in text.split("\n") if ln.strip()]


def headline(err: str) -> str:
    lines = nonblank(err)
    for ln in reversed(lines):
        if EXC_RE.match(ln.strip()):
            return ln.strip()
    for ln in lines:
        s = ln.strip()
        if ERRWORD_RE.search(s) and not s.startswith(("at ", "File ", "from ", "hint:", "(Use")) \
                and not s.lower().startswith(("warning", "deprecated", "npm warn", "(node:")):
            return s
    for ln in lines:
        if ERRWORD_RE.search(ln):
            return ln.strip()
    return lines[0].strip() if lines else ""


WEAK_PREFIXES = ("warning", "(node:", "(use", "npm warn", "hint:", "deprecated", "note:")


def key_lines(err: str, k: int = 3) -> list[str]:
    """The headline plus up to k-1 other error-looking lines, in their original order."""
    head = headline(err)
    strong: list[str] = []
    weak: list[str] = []
    for ln in nonblank(err):
        s = ln.strip()
        if s == head or s in strong or s in weak:
            continue
        if ERRWORD_RE.search(s) and not s.startswith(("at ", "File ", "raise ", "return ")):
            (weak if s.lower().startswith(WEAK_PREFIXES) else strong).append(s)
    keep = set((strong + weak)[: k - 1]) | {head}
    out: list[str] = []
    for ln in nonblank(err):
        s = ln.strip()
        if s in keep and s not in out:
            out.append(s)
    return out or [head]


def hyphen_point(word: str, room: int) -> int:
    """Rightmost split <= room between a vowel and a consonant, leaving 3+ letters each side."""
    vowels = "aeiouyAEIOUY"
    for i in range(min(room, len(word) - 3), 2, -1):
        if word[i - 1] in vowels and word[i] not in vowels and word[i].isalpha():
            return i
    return 0


def wrap_words(text: str, width: int, hyphenate: bool = False, rng: random.Random | None = None) -> list[str]:
    """Greedy word wrap keeping a line's indentation; optionally hyphenate long words like a typesetter."""
    out: list[str] = []
    for para in text.split("\n"):
        lead = len(para) - len(para.lstrip(" "))
        words = para[lead:].split(" ")
        cur = " " * lead
        fresh = True
        for w in words:
            cand = w if fresh and not cur.strip() and not lead else (cur + w if fresh else cur + " " + w)
            if len(cand) <= width:
                cur = cand
                fresh = False
                continue
            room = width - len(cur) - (0 if fresh else 1) - 1
            cut = hyphen_point(w, room) if hyphenate and re.fullmatch(r"[A-Za-z]{8,}[,.;]?", w) else 0
            if cut and (rng is None or rng.random() < 0.8):
                out.append(cur + ("" if fresh else " ") + w[:cut] + "-")
                cur = w[cut:]
                fresh = False
                continue
            if cur.strip():
                out.append(cur)
            while len(w) > width:
                out.append(w[:width])
                w = w[width:]
            cur = w
            fresh = False
        out.append(cur)
    return out


def hard_wrap(line: str, width: int) -> list[str]:
    if len(line) <= width:
        return [line]
    return [line[i:i + width] for i in range(0, len(line), width)]


def rand_dt(r: random.Random) -> datetime:
    base = datetime(2023, 9, 4, 0, 0, 0)
    day = r.randrange(0, 800)
    hour = r.choice([7, 8, 9, 9, 10, 10, 11, 11, 13, 14, 14, 15, 15, 16, 16, 17, 18, 20, 21, 22, 23, 0, 1])
    return base + timedelta(days=day, hours=hour, minutes=r.randrange(60), seconds=r.randrange(60),
                            microseconds=r.randrange(1000000))


def rfc2822(dt: datetime, off: str) -> str:
    return f"{DAYS[dt.weekday()][:3]}, {dt.day} {MONTHS[dt.month - 1][:3]} {dt.year} {dt:%H:%M:%S} {off}"


def clock12(dt: datetime, seconds: bool = True) -> str:
    h = dt.hour % 12 or 12
    ap = "AM" if dt.hour < 12 else "PM"
    return f"{h}:{dt:%M}:{dt:%S} {ap}" if seconds else f"{h}:{dt:%M} {ap}"


def epoch_ms(dt: datetime) -> int:
    return int((dt - datetime(1970, 1, 1)).total_seconds() * 1000)


def hexid(r: random.Random, n: int) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def uuid4ish(r: random.Random) -> str:
    h = hexid(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def xml_escape(text: str, quotes: bool = True) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if quotes:
        text = text.replace('"', "&quot;")
    return text


def nbsp_line(text: str) -> str:
    """ENML/HTML rendering of one line: escaped, tabs and runs of spaces kept via &nbsp;."""
    text = text.replace("\t", "    ")
    esc = xml_escape(text)
    lead = len(esc) - len(esc.lstrip(" "))
    body = esc[lead:]
    body = re.sub(r" {2,}", lambda m: " " + "&nbsp;" * (len(m.group(0)) - 1), body)
    return "&nbsp;" * lead + body


def say_and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------------------
# per-row context
# --------------------------------------------------------------------------------------


def derive_script(err: str) -> str | None:
    for m in re.finditer(r'File "([^"<>]+\.py)"', err):
        p = m.group(1)
        if p.startswith(("/usr/", "/opt/", "/lib")) or "site-packages" in p:
            continue
        return p
    return None


BUILD_DIRS = {"build", "target", "node_modules", "dist", "venv", "CMakeFiles", "__pycache__", "src", "lib", "bin",
              "cmd", "pkg", "internal", "app", "tests", "test", "config", "scripts", "vendor"}


def derive_cwd(err: str, cmd: str | None, script: str | None) -> tuple[str | None, str | None]:
    paths = [m.group(0) for m in HOME_PATH_RE.finditer(err)]
    if script:
        paths.insert(0, script)
    toks = [t.strip("'\"") for t in (cmd or "").split()]
    for p in paths:
        for t in toks:
            t2 = t.removeprefix("./")
            if ("/" in t2 or "." in t2) and not t2.startswith(("/", "~")) and p.endswith("/" + t2):
                base = p[: -len(t2) - 1]
                if base.count("/") >= 2:
                    return base.split("/")[2], base
    for p in paths:
        parts = p.split("/")
        if len(parts) < 3:
            continue
        user = parts[2]
        hidden = [i for i, part in enumerate(parts) if i >= 3 and part.startswith(".")]
        if hidden:
            if hidden[0] > 3:
                return user, "/".join(parts[: hidden[0]])
            continue
        cuts = [i for i, part in enumerate(parts) if i >= 4 and part in BUILD_DIRS]
        if cuts:
            return user, "/".join(parts[: cuts[0]])
        if len(parts) > 3 and "." in parts[-1] and not re.search(r"v?\d+\.\d+", parts[-1]):
            return user, "/".join(parts[:-1])
        return user, p
    if paths:
        return paths[0].split("/")[2], "/home/" + paths[0].split("/")[2]
    return None, None


def family_of(cmd: str | None) -> str:
    if not cmd:
        return "python"
    seg = cmd.split("&&")[-1].split("|")[0].strip()
    toks = [t for t in seg.split() if t not in ("sudo", "env", "time", "nohup", "-E")
            and not re.match(r"^[A-Z_][A-Z0-9_]*=", t)]
    if not toks:
        return "shell"
    name = toks[0].rsplit("/", 1)[-1]
    for fam, names in FAMILIES.items():
        if name in names:
            return fam
    if name.startswith(("python", "pyhton", "pip")):
        return "python"
    return "shell"


class Ctx:
    """Everything one row needs: the case plus invented, seeded surroundings."""

    def __init__(self, case: dict, slot: int, style: str) -> None:
        self.file = case["file"]
        self.idx = case["case"]
        self.style = style
        self.error = case["error"].strip("\n")
        self.rng = random.Random(f"{SEED}|{self.file}|{self.idx}|{slot}|{style}")
        r = self.rng
        cmd = case["command"]
        script = None if cmd else derive_script(self.error)
        user, cwd_abs = derive_cwd(self.error, cmd, script)
        self.first = r.choice(FIRST)
        self.last = r.choice(LAST)
        if user is None:
            user = r.choice(["dev", ascii_slug(self.first), ascii_slug(self.first)[0] + ascii_slug(self.last), "ubuntu"])
            cwd_abs = f"/home/{user}" + (f"/{r.choice(PROJECTS)}" if r.random() < 0.65 else "")
        elif user not in GENERIC_USERS and user.isalpha():
            self.first = user.capitalize()
        self.user = user
        self.home = f"/home/{user}"
        self.cwd_abs = cwd_abs
        rel = cwd_abs[len(self.home):]
        self.cwd = "~" + rel
        if script:
            srel = script[len(cwd_abs) + 1:] if script.startswith(cwd_abs + "/") else script
            cmd = f"python3 {srel}"
        self.cmd = cmd
        self.derived = bool(script)
        self.proj = cwd_abs.rsplit("/", 1)[-1] if rel else r.choice(PROJECTS)
        self.host = r.choice(HOSTS)
        self.when = rand_dt(r)
        self.fam = family_of(cmd)
        self.org, self.domain = r.choice(ORGS)
        self.full = f"{self.first} {self.last}"
        self.email_local = r.choice([
            f"{ascii_slug(self.first)}.{ascii_slug(self.last)}",
            f"{ascii_slug(self.first)[0]}{ascii_slug(self.last)}",
            f"{ascii_slug(self.first)}",
        ])
        self.head = headline(self.error)

    # convenience -------------------------------------------------------------------
    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def goal(self) -> str:
        return self.pick(GOALS[self.fam])

    def cmd_text(self) -> str:
        return self.cmd or "the script"

    def cmdref(self, quote: str = "`") -> str:
        if not self.cmd:
            return "my script"
        if quote == "`":
            return f"`{self.cmd}`"
        if quote == "curly":
            return f"“{self.cmd}”"
        if quote == '"':
            return f'"{self.cmd}"'
        return self.cmd

    def other_person(self) -> tuple[str, str]:
        r = self.rng
        while True:
            f = r.choice(FIRST)
            if f != self.first:
                return f, r.choice(LAST)

    def prompt(self, kind: str | None = None) -> str:
        kind = kind or self.pick(["ubuntu", "ubuntu", "fedora", "zsh", "plain"])
        base = self.cwd.rsplit("/", 1)[-1] if self.cwd != "~" else "~"
        if kind == "ubuntu":
            return f"{self.user}@{self.host}:{self.cwd}$ "
        if kind == "fedora":
            return f"[{self.user}@{self.host} {base}]$ "
        if kind == "zsh":
            git = f" git:({self.pick(['main', 'master', 'dev', 'fix/build'])})" if self.chance(0.5) else ""
            return f"➜  {base}{git} "
        return "$ "

    def version(self) -> str:
        return self.pick(VERSIONS[self.fam])


# --------------------------------------------------------------------------------------
# 1. mime_quoted_printable
# --------------------------------------------------------------------------------------


def qp_encode(text: str) -> str:
    out: list[str] = []
    for line in text.split("\n"):
        toks: list[str] = []
        for byte in line.encode("utf-8"):
            if byte == 0x3D or byte > 126 or (byte < 32 and byte != 9):
                toks.append(f"={byte:02X}")
            else:
                toks.append(chr(byte))
        if toks and toks[-1] in (" ", "\t"):
            toks[-1] = f"={ord(toks[-1]):02X}"
        cur = ""
        for tok in toks:
            if len(cur) + len(tok) > 75:
                out.append(cur + "=")
                cur = ""
            cur += tok
        out.append(cur)
    return "\n".join(out)


def mime_word(text: str, r: random.Random) -> str:
    """RFC 2047 encoded-word for a header value, as mail clients write non-ASCII names/subjects."""
    if text.isascii():
        return text
    raw = text.encode("utf-8")
    if r.random() < 0.5:
        return "=?utf-8?B?" + base64.b64encode(raw).decode("ascii") + "?="
    out = []
    for byte in raw:
        ch = chr(byte)
        if ch == " ":
            out.append("_")
        elif ch.isascii() and (ch.isalnum() or ch in "!*+-/"):
            out.append(ch)
        else:
            out.append(f"={byte:02X}")
    return "=?UTF-8?Q?" + "".join(out) + "?="


def utc_of(dt: datetime, off: str) -> datetime:
    sign = 1 if off[0] == "+" else -1
    return dt - sign * timedelta(hours=int(off[1:3]), minutes=int(off[3:5]))


def cut_words(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n].rsplit(" ", 1)[0]


def gen_mime(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["gmail", "outlook", "thunderbird", "apple", "list"])
    off, tzname = c.pick(TZS)
    rf, rl = c.other_person()
    if variant == "gmail":
        s_addr = f"{c.email_local}{r.randrange(10, 99) if c.chance(0.4) else ''}@gmail.com"
    else:
        s_addr = f"{c.email_local}@{c.domain}"
    if c.chance(0.5):
        r_name, r_addr = f"{rf} {rl}", f"{ascii_slug(rf)}.{ascii_slug(rl)}@{c.domain}"
        greet_name = rf
    else:
        r_name, r_addr = c.pick([("IT Helpdesk", f"helpdesk@{c.domain}"), ("Dev Support", f"dev-support@{c.domain}"),
                                 ("Platform Team", f"platform@{c.domain}")])
        greet_name = c.pick(["team", "all", "folks"])
    subj_pool = [
        f"{c.proj}: {c.cmd_text()} fails",
        f"Help? {cut_words(c.head, 56)}",
        f"Error when running {c.cmd_text()}",
        f"Can’t {c.goal()} on {c.host}",
        f"{c.cmd_text()} broken since this morning",
        f"Quick question about {c.proj}",
    ]
    subject = c.pick(subj_pool)
    if variant == "list":
        subject = f"[{c.proj}-users] Re: {subject}"
    elif c.chance(0.2):
        subject = "Re: " + subject

    if variant == "list":
        r_name, r_addr = f"{c.proj} users", f"{c.proj}-users@lists.{c.domain}"
        greet_name = c.pick(["all", "everyone", "folks"])
    greet = c.pick([f"Hi {greet_name},", f"Hey {greet_name},", f"Hello {greet_name},",
                    f"Morning {greet_name},", f"Hi {greet_name}, "])
    cr = c.cmdref(c.pick(["`", "curly", "plain"]))
    intro = c.pick([
        f"I’m trying to {c.goal()} on {c.host} and {cr} fails every time. Full output below:",
        f"Following the README I ran {cr} from {c.cwd} but it errors out straight away:",
        f"Not sure if this is on my side or not — {cr} just gave me this:",
        f"Could you take a look when you get a minute? I was trying to {c.goal()} and ran {cr}. ",
        f"Here’s what I get when I run {cr} (copied straight from the terminal):",
        f"Since this morning {cr} won’t work for me any more. It prints the following:",
        f"Sorry to bother you again. I’m on {c.host} in {c.cwd}, and running {cr} gives me",
    ])
    body = [greet, ""]
    body += wrap_words(intro, c.pick([72, 200, 200]))
    body.append("")
    err_lines = c.error.split("\n")
    if c.chance(0.45):
        err_lines = [c.prompt() + c.cmd_text()] + err_lines
    if c.chance(0.2):
        err_lines = ["    " + ln if ln else ln for ln in err_lines]
    body += err_lines
    body.append("")
    ask = c.pick([
        "Any idea what I’m missing? ",
        "Is this something on my machine or did something change on the server?",
        "Do I need to install something first?",
        "What’s the right way to fix this? I don’t want to break anything.",
        "I’ve googled it but the answers don’t quite match what I’m seeing.",
        "Happy to jump on a call if that’s easier.",
        "I tried it twice with the same result — the last lines are the same each time.",
    ])
    body += wrap_words(ask, 72)
    body.append("")
    body.append(c.pick(["Thanks,", "Cheers,", "Best,", "Thanks in advance!", "Thanks a lot,", "Many thanks, "]))
    body.append(c.first)
    if variant in ("thunderbird", "list") or c.chance(0.3):
        body += ["", "-- ", c.full, c.pick(DEPTS) + " · " + c.org]
    if variant == "list":
        qf, ql = c.other_person()
        qdt = c.when - timedelta(hours=r.randrange(1, 30))
        body += ["", f"On {rfc2822(qdt, off)[:-6]}, {qf} {ql} <{ascii_slug(qf)}@{c.domain}> wrote:",
                 "> Did you get the project building in the end?", ">",
                 "> If not, post the exact command and output here so others can see it.", "> ", f"> {qf}"]
    if variant == "apple":
        body += ["", ""]
    plain = "\n".join(body)

    msg_id_dom = {"gmail": "mail.gmail.com", "outlook": "EUR03.prod.outlook.com"}.get(variant, c.domain)
    if variant == "gmail":
        msg_id = "CA" + "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+_-") for _ in range(46))
    elif variant == "outlook":
        box = f"DB{r.randrange(3, 9)}PR0{r.randrange(1, 9)}MB{r.randrange(1000, 9999)}"
        msg_id = f"{box}{hexid(r, 24).upper()}"
        msg_id_dom = f"{box}.eurprd0{r.randrange(1, 9)}.prod.outlook.com"
    elif variant == "apple":
        msg_id = uuid4ish(r).upper()
    else:
        msg_id = uuid4ish(r)
    dt = c.when
    rcv = dt + timedelta(seconds=r.randrange(1, 9))
    h_from, h_to, h_subj = mime_word(c.full, r), mime_word(r_name, r), mime_word(subject, r)
    hdr: list[str] = []
    if variant == "gmail":
        ip = f"209.85.{r.randrange(128, 255)}.{r.randrange(1, 254)}"
        mx = f"mail-{c.pick(['wr1', 'ej1', 'lf1', 'pl1', 'qt1'])}-f{r.randrange(41, 99)}.google.com"
        hdr += [
            f"Delivered-To: {r_addr}",
            f"Received: from {mx} ({mx} [{ip}])",
            f"        by mx1.{c.domain} (Postfix) with ESMTPS id {hexid(r, 10).upper()}",
            f"        for <{r_addr}>; {rfc2822(rcv, off)} ({tzname})",
            f"Received: by {mx} with SMTP id {hexid(r, 4)}-{hexid(r, 10)}so{r.randrange(100000, 999999)}{c.pick(['wrh', 'ejb', 'lfa'])}.{r.randrange(1, 9)}",
            f"        for <{r_addr}>; {rfc2822(dt, off)} ({tzname})",
            "MIME-Version: 1.0",
            f"From: {h_from} <{s_addr}>",
            f"Date: {rfc2822(dt, off)}",
            f"Message-ID: <{msg_id}@{msg_id_dom}>",
            f"Subject: {h_subj}",
            f"To: {h_to} <{r_addr}>",
        ]
    elif variant == "outlook":
        hdr += [
            f"Received: from {msg_id_dom} (2603:10a6:{hexid(r, 3)}:{hexid(r, 2)}::{r.randrange(1, 20)}) by",
            f" AM{r.randrange(5, 9)}PR0{r.randrange(1, 9)}MB{r.randrange(1000, 9999)}.eurprd0{r.randrange(1, 9)}.prod.outlook.com with HTTPS; {rfc2822(utc_of(rcv, off), '+0000')[:-6]}",
            " +0000",
            f"From: {h_from} <{s_addr}>",
            f"To: {h_to} <{r_addr}>",
            f"Subject: {h_subj}",
            f"Thread-Topic: {mime_word(subject.removeprefix('Re: '), r)}",
            f"Thread-Index: A{hexid(r, 3).upper()}{''.join(r.choice('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') for _ in range(28))}==",
            f"Date: {rfc2822(dt, off)}",
            f"Message-ID: <{msg_id}@{msg_id_dom}>",
            "Accept-Language: en-GB, en-US",
            "Content-Language: en-GB",
            "X-MS-Has-Attach:",
            "X-MS-TNEF-Correlator:",
            "MIME-Version: 1.0",
        ]
    else:
        ip = f"{r.randrange(62, 190)}.{r.randrange(1, 254)}.{r.randrange(1, 254)}.{r.randrange(1, 254)}"
        hdr += [
            f"Return-Path: <{s_addr}>",
            f"Received: from [192.168.{r.randrange(0, 3)}.{r.randrange(2, 250)}] (dyn-{ip.replace('.', '-')}.isp.example.net [{ip}])",
            f"\t(Authenticated sender: {s_addr})",
            f"\tby smtp.{c.domain} (Postfix) with ESMTPSA id {hexid(r, 12).upper()}",
            f"\tfor <{r_addr}>; {rfc2822(rcv, off)} ({tzname})",
        ]
        if variant == "list":
            hdr += [
                f"Received: from lists.{c.domain} (lists.{c.domain} [10.{r.randrange(0, 255)}.{r.randrange(0, 255)}.{r.randrange(2, 250)}])",
                f"\tby mx.{c.domain} (Postfix) with ESMTP id {hexid(r, 10).upper()};",
                f"\t{rfc2822(rcv + timedelta(seconds=3), off)} ({tzname})",
                f"List-Id: {c.proj} users <{c.proj}-users.lists.{c.domain}>",
                f"List-Post: <mailto:{c.proj}-users@lists.{c.domain}>",
                "Precedence: list",
            ]
        hdr += [
            f"Message-ID: <{msg_id}@{c.domain if variant != 'apple' else 'example.com'}>",
            f"Date: {rfc2822(dt, off)}",
        ]
        if variant == "apple":
            hdr += [f"Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.{r.randrange(100, 600)}.{r.randrange(1, 200)}.1.1\\))",
                    "X-Mailer: Apple Mail (2.3774.600.62)"]
        else:
            tb = c.pick(["115.8.1", "115.10.0", "128.2.0", "102.15.1"])
            ua = f"Mozilla/5.0 (X11; Linux x86_64; rv:102.0) Gecko/20100101 Thunderbird/{tb}" if tb.startswith("102") else "Mozilla Thunderbird"
            hdr += ["MIME-Version: 1.0", f"User-Agent: {ua}"]
            hdr.append("Content-Language: en-US")
        hdr += [f"To: {r_addr if c.chance(0.5) else h_to + ' <' + r_addr + '>'}",
                f"From: {h_from} <{s_addr}>",
                f"Subject: {h_subj}"]
    enc_plain = qp_encode(plain)
    if variant == "gmail" and c.chance(0.6):
        boundary = "0000000000" + hexid(r, 18)
        html_lines = []
        for ln in plain.split("\n"):
            html_lines.append("<div>" + (nbsp_line(ln) if ln else "<br>") + "</div>")
        html = '<div dir="ltr">' + "".join(html_lines) + "</div>\n"
        hdr.append(f'Content-Type: multipart/alternative; boundary="{boundary}"')
        parts = [
            "",
            f"--{boundary}",
            'Content-Type: text/plain; charset="UTF-8"',
            "Content-Transfer-Encoding: quoted-printable",
            "",
            enc_plain,
            "",
            f"--{boundary}",
            'Content-Type: text/html; charset="UTF-8"',
            "Content-Transfer-Encoding: quoted-printable",
            "",
            qp_encode(html),
            f"--{boundary}--",
        ]
        return "\n".join(hdr + parts)
    if variant == "apple":
        hdr += ["Content-Transfer-Encoding: quoted-printable", "Content-Type: text/plain;", "\tcharset=utf-8"]
    elif variant == "outlook":
        hdr += ['Content-Type: text/plain; charset="utf-8"', "Content-Transfer-Encoding: quoted-printable"]
    else:
        hdr += [f"Content-Type: text/plain; charset={c.pick(['UTF-8', 'utf-8'])}{'; format=flowed' if c.chance(0.2) else ''}",
                "Content-Transfer-Encoding: quoted-printable"]
    return "\n".join(hdr) + "\n\n" + enc_plain


# --------------------------------------------------------------------------------------
# 2. messenger_mojibake
# --------------------------------------------------------------------------------------


def mojibake(text: str) -> str:
    return text.encode("utf-8").decode("latin-1")


def chunk_lines(text: str, parts: int) -> list[str]:
    lines = text.split("\n")
    size = max(1, -(-len(lines) // parts))
    chunks = ["\n".join(lines[i:i + size]) for i in range(0, len(lines), size)]
    return [ch for ch in chunks if ch.strip()]


def gen_messenger(c: Ctx) -> str:
    r = c.rng
    friend_f, friend_l = c.other_person()
    me = c.full
    friend = f"{friend_f} {friend_l}"
    platform = c.pick(["facebook", "facebook", "instagram"])
    convo: list[tuple[str, str]] = []
    if c.chance(0.6):
        convo.append((me, c.pick(["hey", "u there?", "quick q", "you free for 2 min?", "sorry to bother you again 😅",
                                  "hiii", "are you at your desk?"])))
        if c.chance(0.7):
            convo.append((friend, c.pick(["ya", "sure what’s up", "yep", "shoot", "kinda, what’s up", "👋"])))
    cr = c.cmdref(c.pick(["plain", "curly", "plain"]))
    convo.append((me, c.pick([
        f"I’m trying to {c.goal()} and when I run {cr} I get this",
        f"ran {cr} like you said and it just dies",
        f"so {cr} doesn’t work on my laptop 😩",
        f"ok so I’m in {c.cwd} and typed {cr}, this is what it says:",
        f"the {c.proj} thing is broken again. {cr} gives",
    ])))
    err = c.error
    if c.chance(0.35):
        err = c.prompt("plain") + c.cmd_text() + "\n" + err
    n = 1 if len(err) < 700 or c.chance(0.3) else (2 if len(err) < 2000 else 3)
    for ch in chunk_lines(err, n):
        convo.append((me, ch))
    if c.chance(0.25):
        convo.append((me, ""))  # screenshot message
    convo.append((friend, c.pick(["oof", "lol classic", "hmm what does the last line say", "did you google it",
                                  "that’s a weird one", "can you send a screenshot", "which branch are you on?",
                                  "wait what did you type exactly"])))
    if c.chance(0.7):
        convo.append((me, c.pick([f"it’s saying “{c.head}”", f"the important bit is “{c.head}” I think",
                                  f"I typed {c.cmd_text()} exactly", f"main branch. still “{c.head[:60]}”"])))
    convo.append((friend, c.pick(["let me look after lunch", "try restarting lol", "send me the repo link",
                                  "no idea tbh, ask in the dev group", "I’ll call you in 5", "ok gimme a sec 👀"])))
    t = c.when
    stamps = []
    for _ in convo:
        t = t + timedelta(seconds=r.randrange(6, 200), milliseconds=r.randrange(1000))
        stamps.append(epoch_ms(t))
    thread = ascii_slug(friend_f) + ascii_slug(friend_l)
    thread_id = f"{thread}_{r.randrange(10**15, 10**16)}"
    msgs = []
    for (sender, text), ts in zip(convo, stamps, strict=True):
        m: dict = {"sender_name": mojibake(sender), "timestamp_ms": ts}
        if text:
            m["content"] = mojibake(text)
        else:
            root = "your_activity_across_facebook" if platform == "facebook" else "your_instagram_activity"
            m["photos"] = [{"uri": f"{root}/messages/inbox/{thread_id}/photos/{r.randrange(10**8, 10**9)}_{r.randrange(10**14, 10**15)}_n_{r.randrange(10**15, 10**16)}.jpg",
                            "creation_timestamp": ts // 1000}]
        if c.chance(0.15):
            m["reactions"] = [{"reaction": mojibake(c.pick(["😮", "😂", "❤", "👍", "😢"])),
                               "actor": mojibake(friend if sender == me else me)}]
        m["is_geoblocked_for_viewer"] = False
        if platform == "instagram":
            m["is_unsent_image_by_messenger_kid_parent"] = False
        msgs.append(m)
    msgs.reverse()
    doc = {
        "participants": [{"name": mojibake(friend)}, {"name": mojibake(me)}],
        "messages": msgs,
        "title": mojibake(friend),
        "is_still_participant": True,
        "thread_path": f"inbox/{thread_id}",
        "magic_words": [],
    }
    if platform == "facebook" and c.chance(0.5):
        doc["joinable_mode"] = {"mode": 1, "link": ""}
    return json.dumps(doc, indent=2, ensure_ascii=True)


# --------------------------------------------------------------------------------------
# 3. logseq_outline
# --------------------------------------------------------------------------------------

FAM_PAGES = {"python": "Python", "rust": "Rust", "go": "Go", "node": "Node.js", "docker": "Docker", "k8s": "Kubernetes",
             "git": "git", "db": "Databases", "ssh": "SSH", "c": "C toolchain", "java": "Java", "ruby": "Ruby",
             "systemd": "systemd", "tls": "TLS", "shell": "Linux"}


def ordinal(n: int) -> str:
    suf = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suf}"


def gen_logseq(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["logseq", "logseq", "logseq_split", "roam", "workflowy"])
    d = c.when
    page = FAM_PAGES[c.fam]
    of, _ = c.other_person()
    title = c.pick([f"get `{c.cmd_text()}` working on [[{c.host}]]", f"fix {c.proj} — {c.cmd_text()} fails",
                    f"{c.cmd_text()} blows up on [[{c.proj}]]", f"debug [[{c.proj}]] setup",
                    f"why does `{c.cmd_text()}` fail?"])
    err_lines = c.error.split("\n")
    if variant in ("logseq", "logseq_split"):
        T = "\t"
        out = []
        if c.chance(0.5):
            out.append(f"- {d:%H:%M} standup: {c.pick(['nothing blocking', 'reviewed PRs', 'pairing with ' + of])}")
        out.append(f"- {c.pick(['TODO', 'TODO', 'DOING', 'LATER'])} {title} #{c.pick(['debugging', 'work', 'blocked', 'devlog', 'til'])}")
        if c.chance(0.4):
            nd = d + timedelta(days=1)
            out.append(f"  SCHEDULED: <{nd:%Y-%m-%d} {DAYS[nd.weekday()][:3]}>")
        out.append(f"  id:: {uuid4ish(r)}")
        out.append(f"{T}- context: [[{c.host}]], in `{c.cwd}`, {c.version()}")
        if c.chance(0.5):
            out.append(f"{T}- ran")
            out.append(f"{T}  ```bash")
            out.append(f"{T}  {c.cmd_text()}")
            out.append(f"{T}  ```")
        else:
            out.append(f"{T}- ran `{c.cmd_text()}` {c.pick(['as the README says', 'again after pulling', 'from a fresh shell', ''])}".rstrip())
        if variant == "logseq":
            out.append(f"{T}- {c.pick(['got:', 'output', 'error 👇', 'it printed'])}")
            if c.chance(0.5):
                out.append(f"{T}  collapsed:: true")
            out.append(f"{T}  ```")
            for ln in err_lines:
                out.append(f"{T}  {ln}" if ln else f"{T}  ")
            out.append(f"{T}  ```")
        else:
            out.append(f"{T}- output (pasted, logseq split it into blocks 🙄)")
            out.append(f"{T}  collapsed:: true")
            for ln in err_lines:
                if ln.strip():
                    out.append(f"{T}{T}- {ln.strip()}")
        out.append(f"{T}- {c.pick(['first thing that looks wrong', 'key line', 'the actual error'])}: `{c.head}`")
        out.append(f"{T}- next")
        out.append(f"{T}{T}- {c.pick(['check', 'read', 'search'])} [[{page}]] notes")
        out.append(f"{T}{T}- {c.pick(['ask', 'ping'])} [[{of}]] if still stuck")
        if c.chance(0.4):
            out.append(f"- DONE {c.pick(['expense report', 'reply to the recruiter', 'update the wiki page', 'book train tickets'])}")
        return "\n".join(out)
    if variant == "roam":
        i4 = "    "
        out = [f"- [[{MONTHS[d.month - 1]} {ordinal(d.day)}, {d.year}]]"]
        out.append(f"{i4}- {{{{[[TODO]]}}}} {title} #bug")
        out.append(f"{i4*2}- Status:: {c.pick(['blocked', 'investigating', 'open'])}")
        out.append(f"{i4*2}- Project:: [[{c.proj}]]")
        out.append(f"{i4*2}- Command:: `{c.cmd_text()}`")
        out.append(f"{i4*2}- {c.pick(['Output', 'What it printed', 'Error'])}")
        out.append(f"{i4*3}- ```shell")
        for ln in err_lines:
            out.append(f"{i4*3}  {ln}" if ln else "")
        out.append(f"{i4*3}  ```")
        out.append(f"{i4*2}- {c.pick(['see also', 'related'])} [[{page}]], ((" + hexid(r, 9) + "))")
        return "\n".join(out)
    # workflowy plain text export
    out = [f"- {title.replace('[[', '').replace(']]', '')}"]
    out.append(f'  "{c.host}, {c.cwd}, {d:%b %d}"')
    out.append(f"  - ran: {c.cmd_text()}")
    out.append("  - output:")
    for ln in err_lines:
        if ln.strip():
            out.append(f"    - {ln.strip()}")
    out.append(f"  - #todo ask @{of} tomorrow")
    if c.chance(0.5):
        out.insert(0, f"- #{c.pick(['work', 'inbox', 'dev'])} {d:%Y-%m-%d}")
        out = [out[0]] + ["  " + x for x in out[1:]]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 4. evernote_enex
# --------------------------------------------------------------------------------------


def gen_enex(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["enex_legacy", "enex_v10", "onenote", "applenotes"])
    title = c.pick([f"{c.proj} – setup issues", f"{c.cmd_text()} error", f"Dev notes {c.when:%d/%m}",
                    f"Troubleshooting {c.proj}", f"Ask IT about {c.host}", "Error log"])
    created = c.when - timedelta(minutes=r.randrange(1, 90))
    updated = c.when + timedelta(minutes=r.randrange(1, 300))
    prose1 = c.pick([
        f"Trying to {c.goal()} on {c.host}.",
        f"Steps I followed from the wiki for {c.proj}:",
        f"Note to self — this is what happens when I run the command from {c.cwd}.",
        f"Copied from terminal, {c.when:%d %b}:",
    ])
    prose2 = c.pick(["Command:", "I typed:", "Ran this:", "What I ran:"])
    prose3 = c.pick(["Output:", "Got this back:", "Error:", "Result (whole thing):"])
    todo1 = c.pick(["ask on the team channel", "check versions", "look up the error", "try on another machine"])
    todo2 = c.pick(["email IT if still broken", f"ping {c.other_person()[0]}", "reinstall?", "read the docs again"])
    err_lines = c.error.split("\n")
    if variant in ("enex_legacy", "enex_v10"):
        parts = []
        code_style = ("box-sizing: border-box; padding: 8px; font-family: Monaco, Menlo, Consolas, &quot;Courier New&quot;, monospace; "
                      "font-size: 12px; color: rgb(51, 51, 51); border-radius: 4px; background-color: rgb(251, 250, 248); "
                      "border: 1px solid rgba(0, 0, 0, 0.15);-en-codeblock:true;") if variant == "enex_legacy" else "--en-codeblock:true;"
        parts.append(f"<div>{xml_escape(prose1)}</div>")
        parts.append("<div><br/></div>")
        parts.append(f"<div>{xml_escape(prose2)}</div>")
        if c.chance(0.5):
            parts.append(f'<div style="{code_style}"><div>{nbsp_line(c.cmd_text())}</div></div>')
        else:
            parts.append(f"<div><code>{nbsp_line(c.cmd_text())}</code></div>")
        parts.append(f"<div>{xml_escape(prose3)}</div>")
        inner = "".join(f"<div>{nbsp_line(ln) if ln else '<br/>'}</div>" for ln in err_lines)
        parts.append(f'<div style="{code_style}">{inner}</div>')
        parts.append("<div><br/></div>")
        parts.append(f'<div><en-todo checked="false"/>{xml_escape(todo1)}</div>')
        parts.append(f'<div><en-todo checked="{c.pick(["true", "false"])}"/>{xml_escape(todo2)}</div>')
        enml = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
                '<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">\n'
                "<en-note>" + "".join(parts) + "</en-note>")
        enml = enml.replace("]]>", "]]]]><![CDATA[>")
        app_name, app_ver = (("Evernote", c.pick(["10.72.4", "10.86.3", "10.105.4"])) if variant == "enex_v10"
                             else (c.pick(["Evernote/Windows", "Evernote"]), c.pick(["6.25", "7.14", "6.21"])))
        attrs = [f"      <author>{xml_escape(c.full)}</author>"]
        if c.chance(0.5):
            attrs.append(f"      <source>{c.pick(['desktop.mac', 'desktop.win', 'web.clip', 'mobile.android'])}</source>")
        tags = "".join(f"\n    <tag>{t}</tag>" for t in r.sample(["work", "dev", c.proj, "bug", "todo", "it"], k=r.randrange(1, 3)))
        return (
            '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            '<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export4.dtd">\n'
            f'<en-export export-date="{updated + timedelta(days=r.randrange(1, 60)):%Y%m%dT%H%M%SZ}" application="{app_name}" version="{app_ver}">\n'
            "  <note>\n"
            f"    <title>{xml_escape(title, quotes=False)}</title>\n"
            f"    <created>{created:%Y%m%dT%H%M%SZ}</created>\n"
            f"    <updated>{updated:%Y%m%dT%H%M%SZ}</updated>{tags}\n"
            "    <note-attributes>\n" + "\n".join(attrs) + "\n    </note-attributes>\n"
            "    <content>\n"
            f"      <![CDATA[{enml}]]>\n"
            "    </content>\n"
            "  </note>\n"
            "</en-export>"
        )
    if variant == "onenote":
        p = "<p style='margin:0in;font-family:Calibri;font-size:11.0pt'>"
        pc = "<p style='margin:0in;font-family:Consolas;font-size:10.0pt'>"
        body = [
            "<html xmlns:o=\"urn:schemas-microsoft-com:office:office\"",
            "xmlns:dt=\"uuid:C2F41010-65B3-11d1-A29F-00AA00C14882\"",
            "xmlns=\"http://www.w3.org/TR/REC-html40\">",
            "",
            "<head>",
            "<meta http-equiv=Content-Type content=\"text/html; charset=utf-8\">",
            "<meta name=ProgId content=OneNote.File>",
            "<meta name=Generator content=\"Microsoft OneNote 15\">",
            "</head>",
            "",
            "<body lang=en-GB style='font-family:Calibri;font-size:11.0pt'>",
            "<div style='direction:ltr;border-width:100%'>",
            "",
            "<div style='direction:ltr;margin-top:0in;margin-left:0in;width:6.9in'>",
            "",
            "<div style='direction:ltr;margin-top:0in;margin-left:0in;width:4.5in'>",
            "",
            f"<p style='margin:0in;font-family:\"Calibri Light\";font-size:20.0pt'>{xml_escape(title)}</p>",
            "",
            "</div>",
            "",
            "<div style='direction:ltr;margin-top:.0423in;margin-left:0in;width:1.6in'>",
            "",
            f"<p style='margin:0in;font-size:10.0pt;color:#767676'>{DAYS[created.weekday()]}, {MONTHS[created.month - 1]} {created.day}, {created.year}</p>",
            "",
            f"<p style='margin:0in;font-size:10.0pt;color:#767676'>{clock12(created, seconds=False)}</p>",
            "",
            "</div>",
            "",
            "<div style='direction:ltr;margin-top:.4in;margin-left:0in;width:6.5in'>",
            "",
            f"{p}{xml_escape(prose1)}</p>",
            "",
            f"{p}{xml_escape(prose2)} <span style='font-family:Consolas'>{nbsp_line(c.cmd_text())}</span></p>",
            "",
            f"{p}{xml_escape(prose3)}</p>",
            "",
        ]
        for ln in err_lines:
            body.append(f"{pc}{nbsp_line(ln) if ln else '&nbsp;'}</p>")
            body.append("")
        body += [
            f"<p style='margin:0in;font-family:Calibri;font-size:11.0pt'><span style='font-family:\"Segoe UI Symbol\"'>☐</span> {xml_escape(todo1)}</p>",
            "", "</div>", "", "</div>", "", "</div>", "", "</body>", "", "</html>",
        ]
        return "\n".join(body)
    # Apple Notes HTML (exported with a notes exporter)
    body = [
        "<html><head><meta charset=\"utf-8\">",
        f"<title>{xml_escape(title)}</title>",
        f"<meta name=\"created\" content=\"{created:%Y-%m-%dT%H:%M:%SZ}\">",
        f"<meta name=\"modified\" content=\"{updated:%Y-%m-%dT%H:%M:%SZ}\">",
        "</head><body>",
        f"<div><h1>{xml_escape(title)}</h1></div>",
        f"<div>{xml_escape(prose1)}</div>",
        "<div><br></div>",
        f"<div>{xml_escape(prose2)} <tt>{nbsp_line(c.cmd_text())}</tt></div>",
        f"<div>{xml_escape(prose3)}</div>",
    ]
    for ln in err_lines:
        body.append(f"<div><tt>{nbsp_line(ln)}</tt></div>" if ln else "<div><tt><br></tt></div>")
    body += ["<div><br></div>",
             f"<ul class=\"Apple-dash-list\"><li>{xml_escape(todo1)}</li><li>{xml_escape(todo2)}</li></ul>",
             "</body></html>"]
    return "\n".join(body)


# --------------------------------------------------------------------------------------
# 5. google_keep_json
# --------------------------------------------------------------------------------------


def gen_keep(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["keep_text", "keep_text", "keep_list", "todoist", "todoist"])
    created = c.when - timedelta(minutes=r.randrange(0, 600))
    edited = c.when + timedelta(minutes=r.randrange(0, 120))

    def usec(dt: datetime) -> int:
        return epoch_ms(dt) * 1000 + r.randrange(1000)

    labels = r.sample(["work", "dev", "bugs", c.proj, "todo", "laptop", "later"], k=r.randrange(0, 3))
    if variant == "keep_text":
        pre = c.pick([
            f"{c.cmd_text()} ->",
            f"ran {c.cmd_text()} on {c.host}, got:",
            f"for IT ticket: {c.cmd_text()} fails",
            f"{c.proj}: '{c.cmd_text()}' error (copy)",
            f"ask {c.other_person()[0]} about this!! ran `{c.cmd_text()}`",
        ])
        post = c.pick(["", "", "\n\n(happens every time)", f"\n\nlast worked {c.pick(['yesterday', 'on friday', 'before the update'])}",
                       "\n\ntry: reinstall? check path?"])
        text = f"{pre}\n\n{c.error}{post}"
        note = {"color": c.pick(["DEFAULT", "DEFAULT", "YELLOW", "RED", "BLUE", "GRAY"]), "isTrashed": False,
                "isPinned": c.chance(0.3), "isArchived": False, "textContent": text,
                "title": c.pick(["", f"{c.proj} error", "bug", f"{c.host} problem", "for tomorrow"]),
                "userEditedTimestampUsec": usec(edited), "createdTimestampUsec": usec(created)}
        if c.chance(0.4):
            note["textContentHtml"] = "".join(f'<p dir="ltr" style="line-height:1.38;margin-top:0.0pt;margin-bottom:0.0pt;"><span>{xml_escape(ln)}</span></p>'
                                              if ln else "<br>" for ln in text.split("\n"))
        if labels:
            note["labels"] = [{"name": n} for n in labels]
        return json.dumps(note, ensure_ascii=False, separators=(",", ":"))
    if variant == "keep_list":
        items = [{"text": f"run {c.cmd_text()}", "isChecked": True}]
        for ln in c.error.split("\n"):
            if ln.strip():
                items.append({"text": ln.strip(), "isChecked": False})
        items.append({"text": c.pick(["google the error", "ask on slack", "check README", "fix it"]), "isChecked": False})
        for it in items:
            it["textHtml"] = xml_escape(it["text"], quotes=False)
        items = [{"textHtml": it["textHtml"], "text": it["text"], "isChecked": it["isChecked"]} for it in items]
        note = {"color": "DEFAULT", "isTrashed": False, "isPinned": False, "isArchived": False,
                "listContent": items, "title": c.pick([f"{c.proj} todo", "debug steps", "setup", f"fix {c.host}"]),
                "userEditedTimestampUsec": usec(edited), "createdTimestampUsec": usec(created)}
        if labels:
            note["labels"] = [{"name": n} for n in labels]
        return json.dumps(note, ensure_ascii=False, separators=(",", ":"))
    # todoist task
    desc = c.pick([
        f"Ran `{c.cmd_text()}` in `{c.cwd}` on {c.host}:\n\n```\n{c.error}\n```",
        f"Command: {c.cmd_text()}\nOutput:\n```\n{c.error}\n```\nNeed to fix before demo.",
        f"```\n{c.prompt('plain')}{c.cmd_text()}\n{c.error}\n```",
    ])
    task = {
        "id": str(r.randrange(7_000_000_000, 8_999_999_999)),
        "assigner_id": None,
        "assignee_id": None,
        "project_id": str(r.randrange(2_200_000_000, 2_399_999_999)),
        "section_id": None,
        "parent_id": None,
        "order": r.randrange(1, 30),
        "content": c.pick([f"Fix: {c.cmd_text()} fails", f"{c.proj} broken — {c.head[:50]}", f"Look into {c.cmd_text()} error",
                           f"Debug {c.proj} on {c.host}"]),
        "description": desc,
        "is_completed": False,
        "labels": labels,
        "priority": r.randrange(1, 5),
        "comment_count": r.randrange(0, 3),
        "creator_id": str(r.randrange(30_000_000, 49_999_999)),
        "created_at": f"{created:%Y-%m-%dT%H:%M:%S}.{r.randrange(100000, 999999)}Z",
        "due": {"date": f"{created + timedelta(days=r.randrange(0, 4)):%Y-%m-%d}", "string": c.pick(["today", "tomorrow", "fri", "next week"]),
                "lang": "en", "is_recurring": False} if c.chance(0.6) else None,
        "url": "",
        "duration": None,
    }
    task["url"] = f"https://app.todoist.com/app/task/{task['id']}"
    return json.dumps(task, ensure_ascii=False, indent=c.pick([2, 4]))


# --------------------------------------------------------------------------------------
# 6. trello_card
# --------------------------------------------------------------------------------------


def iso_ms(dt: datetime, r: random.Random) -> str:
    return f"{dt:%Y-%m-%dT%H:%M:%S}.{r.randrange(1000):03d}Z"


def gen_trello(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["trello_desc", "trello_comment", "trello_page", "jira_adf", "linear_md"])
    title = c.pick([f"{c.cmd_text()} fails on {c.host}", f"[{c.proj}] build broken: {c.head[:60]}",
                    f"Can't {c.goal()}", f"{c.proj}: error when running {c.cmd_text()}", f"Investigate {FAM_PAGES[c.fam]} error on {c.host}"])
    lang = {"python": "python", "rust": "console", "node": "console", "java": "text"}.get(c.fam, c.pick(["", "text", "shell", "console"]))
    desc_md = c.pick([
        f"**What happened**\nRunning `{c.cmd_text()}` from `{c.cwd}` fails:\n\n```{lang}\n{c.error}\n```\n\n**Context**\n- host: {c.host}\n- {c.version()}\n",
        f"Steps:\n1. `cd {c.cwd}`\n2. `{c.cmd_text()}`\n\nResult:\n```\n{c.error}\n```\n",
        f"When I try to {c.goal()} with `{c.cmd_text()}` I get the error below. Blocking {c.pick(['the release', 'my ticket', 'the demo', 'onboarding'])}.\n\n```\n{c.error}\n```",
    ])
    names = [c.full, " ".join(c.other_person())]
    user_name = ascii_slug(c.first) + ascii_slug(c.last)[:4] + str(r.randrange(1, 99))
    when = c.when
    board = {"id": hexid(r, 24), "name": c.pick([f"{c.proj} dev", "Sprint board", "Platform", "Team Kanban"]), "shortLink": hexid(r, 8)}
    lst = {"id": hexid(r, 24), "name": c.pick(["To Do", "Doing", "Blocked", "Backlog", "In Review"])}
    short = "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(8))
    num = r.randrange(12, 480)
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60]
    if variant in ("trello_desc", "trello_comment"):
        card = {
            "id": hexid(r, 24),
            "badges": {"comments": 1 if variant == "trello_comment" else 0, "checkItems": 3, "checkItemsChecked": 1, "description": True},
            "closed": False,
            "dateLastActivity": iso_ms(when + timedelta(minutes=5), r),
            "desc": desc_md if variant == "trello_desc" else c.pick(["", f"Setting up {c.proj} on {c.host}. See comments.", f"Follow-up from standup {when:%d/%m}."]),
            "idBoard": board["id"],
            "idList": lst["id"],
            "idShort": num,
            "labels": [{"id": hexid(r, 24), "idBoard": board["id"], "name": n, "color": col}
                       for n, col in r.sample([("bug", "red"), ("backend", "blue"), ("urgent", "orange"), ("infra", "purple")], k=r.randrange(1, 3))],
            "name": title,
            "shortLink": short,
            "shortUrl": f"https://trello.com/c/{short}",
            "url": f"https://trello.com/c/{short}/{num}-{slug}",
            "checklists": [{"id": hexid(r, 24), "name": "Checklist", "checkItems": [
                {"id": hexid(r, 24), "name": f"reproduce with `{c.cmd_text()}`", "state": "complete", "pos": 16384},
                {"id": hexid(r, 24), "name": "find root cause", "state": "incomplete", "pos": 32768},
                {"id": hexid(r, 24), "name": "update runbook", "state": "incomplete", "pos": 49152}]}],
            "actions": [],
        }
        if variant == "trello_comment":
            text = c.pick([
                f"Tried again just now with `{c.cmd_text()}`:\n```\n{c.error}\n```",
                f"@{c.pick(['board', 'card'])} same on my side. Output of `{c.cmd_text()}`:\n\n```\n{c.error}\n```\nany ideas?",
                f"Full output:\n\n```\n{c.prompt('plain')}{c.cmd_text()}\n{c.error}\n```",
            ])
        else:
            text = c.pick(["Looking into it", "Is this still happening after the last merge?", "Assigning to myself."])
        card["actions"].append({
            "id": hexid(r, 24), "idMemberCreator": hexid(r, 24),
            "data": {"text": text, "textData": {"emoji": {}},
                     "card": {"id": card["id"], "name": title, "idShort": num, "shortLink": short},
                     "board": board, "list": lst},
            "appCreator": None, "type": "commentCard", "date": iso_ms(when + timedelta(minutes=3), r),
            "limits": {"reactions": {"perAction": {"status": "ok", "disableAt": 900, "warnAt": 810}}},
            "memberCreator": {"id": hexid(r, 24), "fullName": names[0] if variant == "trello_comment" else names[1],
                              "username": user_name, "initials": (c.first[0] + c.last[0]).upper()},
        })
        card["actions"].append({"id": hexid(r, 24), "data": {"card": {"name": title, "idShort": num}, "list": lst, "board": board},
                                "type": "createCard", "date": iso_ms(when - timedelta(minutes=20), r),
                                "memberCreator": {"fullName": names[0], "username": user_name}})
        if c.chance(0.5):
            return json.dumps(card, ensure_ascii=False, separators=(",", ":"))
        return json.dumps(card, ensure_ascii=False, indent=2)
    if variant == "trello_page":
        pieces = re.split(r"```[a-z]*\n?", desc_md)
        plain_desc = "".join(piece if k % 2 else piece.replace("**", "").replace("`", "") for k, piece in enumerate(pieces))
        out = [title, f"in list {lst['name']}", "", "Notifications", "Watch", "", "Labels", "  ".join(c.pick([["Bug", "Backend"], ["Bug"], ["Urgent", "Infra"]])), "",
               "Description", "Edit", plain_desc.rstrip(), "", "Checklist", "33%", "Delete", f"reproduce with {c.cmd_text()}", "find root cause",
               "update runbook", "Add an item", "", "Activity", "Show details", "", names[1], f"{names[1]} moved this card from Backlog to {lst['name']}",
               f"{when:%d %b %Y}, {when:%H:%M}", "", names[0], f"{names[0]} added this card to Backlog", f"{when - timedelta(days=1):%d %b %Y}, {when:%H:%M}"]
        return "\n".join(out)
    if variant == "jira_adf":
        key = f"{c.pick(['OPS', 'DEV', 'PLAT', 'HELP', 'ENG'])}-{r.randrange(100, 9999)}"
        content = [
            {"type": "paragraph", "content": [{"type": "text", "text": c.pick(["When running ", "Reproduce with "])},
                                              {"type": "text", "text": c.cmd_text(), "marks": [{"type": "code"}]},
                                              {"type": "text", "text": f" on {c.host} the command fails with:"}]},
            {"type": "codeBlock", "attrs": {"language": c.pick(["shell", "text", "bash", "none"])}, "content": [{"type": "text", "text": c.error}]},
            {"type": "paragraph", "content": [{"type": "text", "text": c.pick(["Expected it to succeed like on my old laptop.",
                                                                                 "Worked last week.", "Blocking the sprint goal."])}]},
        ]
        issue = {"id": str(r.randrange(10000, 99999)), "key": key, "self": f"https://{c.proj}.atlassian.net/rest/api/3/issue/{r.randrange(10000, 99999)}",
                 "fields": {"summary": title, "issuetype": {"name": "Bug", "subtask": False},
                            "priority": {"name": c.pick(["Medium", "High", "Low"])}, "status": {"name": c.pick(["To Do", "In Progress", "Open"])},
                            "reporter": {"displayName": c.full, "accountId": f"712020:{uuid4ish(r)}"},
                            "created": f"{when:%Y-%m-%dT%H:%M:%S}.{r.randrange(1000):03d}+0000",
                            "labels": [c.fam, "needs-triage"],
                            "description": {"type": "doc", "version": 1, "content": content}}}
        return json.dumps(issue, ensure_ascii=False, indent=2)
    key = f"{c.pick(['ENG', 'PLA', 'WEB', 'INF'])}-{r.randrange(10, 999)}"
    out = [key, "", f"# {title}", "", desc_md.rstrip(), "", "---", "",
           f"Status: {c.pick(['Todo', 'Backlog', 'In Progress'])} · Priority: {c.pick(['High', 'Medium', 'Urgent'])} · Assignee: {names[1]} · Labels: Bug",
           "", "Activity", f"{names[0]} created the issue · {c.pick(['2h ago', '1d ago', '35min ago'])}",
           f"{names[1]} {c.pick(['self-assigned the issue', 'changed priority to High', 'moved from Backlog to Todo'])} · {c.pick(['1h ago', '20min ago'])}"]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 7. youtube_comments
# --------------------------------------------------------------------------------------

VIDEO_TOPICS = {
    "python": "Python for Beginners – Full Course", "rust": "Rust Crash Course", "go": "Build a REST API in Go",
    "node": "Node.js & Express Tutorial", "docker": "Docker in 2 Hours", "k8s": "Kubernetes for Absolute Beginners",
    "git": "Git & GitHub Crash Course", "db": "PostgreSQL / SQL Tutorial", "ssh": "SSH Keys Explained + Deploy to a VPS",
    "c": "C Programming: Building Projects with Make", "java": "Java Full Course", "ruby": "Ruby on Rails 7 Tutorial",
    "systemd": "Linux Services with systemd", "tls": "HTTPS, TLS & Certificates Explained", "shell": "Linux Command Line Bootcamp",
}


def handle_for(r: random.Random, first: str) -> str:
    base = ascii_slug(first)
    return "@" + r.choice([f"{base}{r.randrange(100, 9999)}", f"{base}_codes", f"{base}dev", f"the{base}", f"{base}-{r.choice(['xyz', 'k', 'tech', 'learns'])}",
                           f"user-{hexid(r, 8)}"])


def gen_youtube(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["youtube", "youtube", "youtube_trunc", "udemy", "coursera"])
    mins = r.randrange(2, 150)
    ts = f"{mins // 60}:{mins % 60:02d}:{r.randrange(60):02d}" if mins >= 60 else f"{mins}:{r.randrange(60):02d}"
    err = c.error
    squash = c.chance(0.3)
    shown = re.sub(r"\s*\n\s*", " ", err) if squash else err
    me = handle_for(r, c.first)
    ago = c.pick(["2 days ago", "3 days ago", "1 week ago", "5 hours ago", "2 weeks ago", "1 month ago", "11 days ago"])
    lead = c.pick([
        f"at {ts} when I run {c.cmd_text()} I get this instead:",
        f"Great video but I'm stuck at {ts}. {c.cmd_text()} gives me",
        f"{ts} anyone else getting this when running {c.cmd_text()}??",
        f"Followed everything up to {ts} but {c.cmd_text()} prints",
        f"Help pls 🙏 {c.cmd_text()} at {ts} shows:",
    ])
    if variant in ("youtube", "youtube_trunc"):
        title = VIDEO_TOPICS[c.fam]
        count = r.randrange(80, 4000)
        out = [f"{count:,} Comments", "Sort by", "", "Add a comment...", ""]
        if c.chance(0.5):
            of = c.other_person()[0]
            out += [handle_for(r, of), c.pick(["1 year ago", "8 months ago"]), c.pick(["best explanation on youtube", f"finally understood {FAM_PAGES[c.fam]} thanks!!", "timestamps would be nice"]), "",
                    str(r.randrange(20, 900)), "", "Reply", ""]
        body = f"{lead}\n{shown}" if not squash else f"{lead} {shown}"
        if variant == "youtube_trunc":
            blines = body.split("\n")
            cut = blines[:4] if len(blines) > 5 else blines
            shown_body = "\n".join(cut)
            if len(shown_body) > 320:
                shown_body = shown_body[:300].rsplit(" ", 1)[0]
            out += [me, ago + c.pick(["", " (edited)"]), shown_body + "…", "Read more", "", str(r.randrange(0, 40)), "", "Reply", "",
                    f"{r.randrange(1, 4)} replies" if c.chance(0.6) else "1 reply", "",
                    me, ago, c.pick([f"the last part says: {c.head}", f"the actual error is {c.head}", f"forgot to say, the main line is \"{c.head}\""])]
            extra = [x for x in key_lines(err, 3) if x != c.head]
            if extra and c.chance(0.6):
                out[-1] += "\n" + "\n".join(extra)
            out += ["", "Reply"]
        else:
            out += [me, ago + c.pick(["", " (edited)"]), body]
            if len(body) > 400:
                out.append("Show less")
            out += ["", str(r.randrange(0, 60)), "", "Reply", ""]
        if c.chance(0.7):
            chan = "@" + c.pick(["CodeWithNina", "DevOpsDan", "LearnLinuxTV", "TechWithTom", "ProgrammingPal", "cloudbytes"])
            out += ["", f"{r.randrange(2, 12)} replies" if c.chance(0.5) else "", chan, c.pick(["1 day ago", "2 days ago"]),
                    c.pick([f"{me} check the pinned comment, there's a fix there", f"{me} did you skip the install step at the start?",
                            f"{me} which OS are you on?", f"{me} I'll add a note in the description for this"]), "", str(r.randrange(1, 30)), "", "Reply"]
        return f"{title}\n\n" + "\n".join(x for x in out)
    if variant == "udemy":
        lecture = r.randrange(4, 120)
        qtitle = c.pick([f"Error at {c.cmd_text()}", f"{c.head[:70]}", "Stuck on this lecture", f"{c.cmd_text()} not working"])
        out = ["Q&A", "All questions in this course", "", qtitle, f"{c.full} · Lecture {lecture} · {ago}", "",
               c.pick([f"Hi, at {ts} in the lecture you run {c.cmd_text()} and it works, but for me it shows:",
                       f"I get this error when running {c.cmd_text()}:", f"Running {c.cmd_text()} in the terminal gives me the error below. What am I doing wrong?"]),
               "", shown, "", f"{r.randrange(0, 25)} upvotes", "Follow replies", "", f"{r.randrange(1, 5)} replies", ""]
        inst = " ".join(c.other_person())
        out += [inst, "— Instructor", c.pick(["1 day ago", "2 days ago"]),
                c.pick([f"Hi {c.first}, can you confirm you completed the setup lecture?", f"Hi {c.first}, please share your OS and the exact command.",
                        "This usually means a step was skipped, see lecture resources."]), ""]
        return "\n".join(out)
    week = r.randrange(1, 6)
    out = [f"Week {week} › {c.pick(['Programming Assignment', 'Lab', 'Practice Quiz', 'Project Setup'])}: {VIDEO_TOPICS[c.fam]}", "",
           c.pick([f"Error when running {c.cmd_text()}", "Help with setup error", f"{c.head[:60]}"]),
           f"{c.full} · {ago}{c.pick(['', ' · Edited'])}", "",
           c.pick([f"In the video at {ts} the instructor runs {c.cmd_text()}. When I do it I get:", f"I ran {c.cmd_text()} and got the following. Anyone?"]),
           shown, "", f"Upvote ({r.randrange(0, 12)})  ·  Reply  ·  Follow", ""]
    if c.chance(0.7):
        out += [" ".join(c.other_person()) + " · Mentor", c.pick(["3 days ago", "2 days ago"]),
                "Please check the course FAQ, and post your environment details.", f"Upvote ({r.randrange(0, 5)})  ·  Reply"]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 8. stackexchange_chat
# --------------------------------------------------------------------------------------

SE_ROOMS = {"python": "Python", "rust": "Rust", "go": "Go", "node": "JavaScript", "docker": "Docker", "k8s": "DevOps",
            "git": "Git", "db": "SQL", "ssh": "Unix and Linux", "c": "C++ Lounge", "java": "Java", "ruby": "Ruby",
            "systemd": "Unix and Linux", "tls": "Server Fault General Room", "shell": "Ask Ubuntu General Room"}


def gen_sechat(c: Ctx) -> str:
    r = c.rng
    me = c.pick([f"user{r.randrange(1000000, 29999999)}", f"{c.first} {c.last[0]}.", c.first, ascii_slug(c.first) + str(r.randrange(10, 99))])
    helper = c.pick(["Aran-Fey", "Kevin M", "roganjosh", "tripleee", "Cody Gray", f"user{r.randrange(100000, 9999999)}", "Peilonrayz", "Mast",
                     "Jörg W Mittag", "Zoe", "Ry-", "sideshowbarker"])
    t = c.when
    msgs: list[tuple[datetime, str, str, str]] = []  # (time, who, text, flags)

    def add(who: str, text: str, flags: str = "") -> None:
        nonlocal t
        t = t + timedelta(seconds=r.randrange(15, 240))
        msgs.append((t, who, text, flags))

    if c.chance(0.4):
        add(c.pick(["Mast", "Rob", f"user{r.randrange(100000, 9999999)}", "Olivia"]),
            c.pick(["morning all", "anyone seen the new meta post?", "coffee time", "lol"]))
    add(me, c.pick([f"anyone around who knows {SE_ROOMS[c.fam].split()[0]}?", "quick question if someone has a minute",
                    f"I'm trying to {c.goal()} and I'm stuck", "hi all"]))
    if c.chance(0.6):
        add(helper, c.pick(["don't ask to ask, just ask", f"@{me.split()[0]} what's up", "sure, what's the error?", "shoot"]))
    add(me, c.pick([f"when I run {c.cmd_text()} I get this:", f"running {c.cmd_text()} in {c.cwd} fails with", f"{c.cmd_text()} output:"]),
        c.pick(["", "", "edited"]))
    err_lines = c.error.split("\n")
    fixed = "\n".join("    " + ln for ln in err_lines)
    if len(err_lines) > 11 or len(c.error) > 900:
        shown = "\n".join("    " + ln for ln in err_lines[:8])
        add(me, shown + "\n(see full text)")
        add(helper, c.pick([f"@{me.split()[0]} what's the last line?", "it's truncated, what's the actual error part", "put it on a pastebin maybe"]))
        tail = key_lines(c.error, 3)
        add(me, "\n".join("    " + ln for ln in tail) if len(tail) > 1 else f"@{helper.split()[0]} it ends with {tail[0]}")
    else:
        add(me, fixed)
    add(helper, c.pick([f"@{me.split()[0]} which OS?", f"@{me.split()[0]} what does which {c.cmd_text().split()[0]} say", "hmm",
                        f"@{me.split()[0]} that looks like an environment issue", "have you searched the exact error message?"]),
        c.pick(["", "★ 2", "★"]))
    room = SE_ROOMS[c.fam]
    room_id = r.randrange(6, 260000)
    out = [f"{room}", f"chat.stackoverflow.com/transcript/{room_id}/{t:%Y/%m/%d}" if c.chance(0.5) else "",
           f"{MONTHS[c.when.month - 1][:3]} {c.when.day}, {c.when.year}", "← previous day    next day →", ""]
    last_stamp = None
    last_who = None
    for when, who, text, flags in msgs:
        stamp = clock12(when, seconds=False)
        if last_stamp is None or (when - last_stamp).total_seconds() > 300 or (who != last_who and r.random() < 0.35):
            out.append(stamp)
            last_stamp = when
        if who != last_who:
            out.append(who)
        out.append(text + (f" {flags}" if flags and "\n" not in text else ("\n" + flags if flags else "")))
        last_who = who
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 9. pdf_form_ticket
# --------------------------------------------------------------------------------------


def gen_pdf(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["corp", "uni", "hpc"])
    W = c.pick([96, 100, 104])
    box = W - 8
    ck = c.pick([("☐", "☒"), ("[ ]", "[X]"), ("❑", "■")])
    d = c.when
    date_s = c.pick([f"{d:%d/%m/%Y}", f"{d:%m/%d/%Y}", f"{d:%Y-%m-%d}"])
    def row(l1: str, v1: str, l2: str, v2: str) -> str:
        return f"{l1:<21}{v1:<33}{l2:<18}{v2}".rstrip()
    if variant == "corp":
        org = c.org
        head = [f"{c.org} IT Service Desk".center(W).rstrip(), "Incident / Service Request Form".center(W).rstrip(),
                " " * (W - 22) + f"Form IT-{r.randrange(10, 99)} rev. {r.randrange(1, 6)}", ""]
        fields = [row("Requester name:", c.full, "Employee no.:", f"E{r.randrange(10000, 99999)}"),
                  row("Department:", c.pick(DEPTS), "Location:", c.pick(["HQ 3rd floor", "Remote", "Building B", "Lisbon office"])),
                  row("Email:", f"{c.email_local}@{c.domain}", "Phone / ext.:", str(r.randrange(1000, 9999))),
                  row("Date submitted:", date_s, "Asset tag:", f"LT-{r.randrange(10000, 99999)}"), ""]
    elif variant == "uni":
        uni = c.pick(["Tidewater University", "University of Northfield", "Kestrel Institute of Technology", "St Brendan's College",
                      "Lakeside Polytechnic"])
        org = uni
        head = [uni.center(W).rstrip(), "Information Services — Student & Staff Help Request".center(W).rstrip(), ""]
        fields = [row("Name:", c.full, "Student/Staff ID:", str(r.randrange(10000000, 99999999))),
                  row("School/Faculty:", c.pick(["Engineering", "Computer Science", "Life Sciences", "Economics"]), "Course/Module:", f"{c.pick(['COMP', 'CS', 'DS', 'INF'])}{r.randrange(100, 499)}"),
                  row("University email:", f"{c.email_local}@{c.domain}", "Date:", date_s), ""]
    else:
        org = c.org
        head = [f"{c.org} Research Computing".center(W).rstrip(), "HPC / Lab Server Support Request".center(W).rstrip(), ""]
        fields = [row("PI / Group:", f"{c.other_person()[1]} Lab", "Username:", c.user),
                  row("Requester:", c.full, "Cluster/host:", c.host),
                  row("Email:", f"{c.email_local}@{c.domain}", "Date:", date_s), ""]
    cats = c.pick([["Hardware", "Account/Access", "Software/Development", "Network"], ["Login", "Software", "Storage", "Other"]])
    chosen = 2 if len(cats[2]) > 8 else 1
    fields.append("Category:     " + "    ".join(f"{ck[1] if i == chosen else ck[0]} {x}" for i, x in enumerate(cats)))
    urg = r.randrange(0, 3)
    fields.append("Urgency:      " + "   ".join(f"{ck[1] if i == urg else ck[0]} {x}" for i, x in enumerate(["Low", "Medium", "High", "Critical"])))
    fields.append("")
    fields.append(f"Affected system / hostname:      {c.host}")
    fields.append("")
    prose = c.pick([
        f"When I try to {c.goal()} I run the command {c.cmd_text()} in a terminal (working directory {c.cwd}) and it fails immediately with the message below. This started {c.pick(['after the last update', 'this week', 'on my new laptop', 'today'])} and I cannot continue my work without it.",
        f"I am following the internal setup documentation for {c.proj}. The step that fails is: {c.cmd_text()}. The complete output copied from the terminal is:",
        f"Running {c.cmd_text()} produces the following error every time, even after restarting the machine. Colleagues say it works for them, so I suspect something in my environment.",
    ])
    desc = ["Description of the problem:"]
    desc += ["  " + x for x in wrap_words(prose, box, hyphenate=True, rng=r)]
    if c.chance(0.6):
        desc += ["", "  " + c.pick(["Command:", "Command used:", "What I typed:"]) + "  " + c.cmd_text()]
    desc.append("")
    for ln in c.error.replace("\t", "        ").split("\n"):
        for piece in hard_wrap(ln, box) if len(ln) > box and " " not in ln.strip() else wrap_words(ln, box):
            desc.append("  " + piece if piece else "")
    desc.append("")
    tail = ["Steps already tried:"]
    tail += ["  " + x for x in wrap_words(c.pick([
        "Restarted the computer, ran the command again, searched the intranet knowledge base.",
        "Tried again from a new terminal window. Checked that I am on the latest version of the repository.",
        "Asked a colleague, who suggested submitting this form.",
    ]), box, hyphenate=True, rng=r)]
    tail += ["", "Business impact:"]
    tail += ["  " + x for x in wrap_words(c.pick(["Blocking a deliverable due this week.", "Cannot run my analysis.", "Low, workaround exists."]), box)]
    tail += ["", f"Requester signature: {c.first[0]}. {c.last}" + " " * 12 + f"Date: {date_s}", "",
             "For IT use only:   Ticket no. ______________   Assigned to ______________   Closed ____/____/______"]
    lines = head + fields + desc + tail
    per_page = c.pick([52, 56, 60])
    pages = [lines[i:i + per_page] for i in range(0, len(lines), per_page)]
    total = len(pages)
    out = []
    for pi, pg in enumerate(pages, 1):
        if pi > 1:
            out.append(f"{org} — {c.pick(['Service Request', 'Help Request'])} (continued)".rjust(W))
            out.append("")
        out += pg
        out.append("")
        out.append(f"Page {pi} of {total}".rjust(W))
        if pi < total:
            out.append("\f")
    return "\n".join(out) + "\n\f"


# --------------------------------------------------------------------------------------
# 10. docx_track_changes
# --------------------------------------------------------------------------------------


def gen_docx(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["balloons", "balloons", "pane", "pandoc"])
    rev = c.full
    rev2 = " ".join(c.other_person())
    ini = (c.first[0] + c.last[0]).upper()
    ini2 = "".join(p[0] for p in rev2.split()).upper()
    d = c.when
    stamp = f"{d:%d/%m/%Y %H:%M:00}"
    doc_kind = c.pick(["runbook", "incident", "onboarding", "lab"])
    titles = {"runbook": f"{c.proj} – Deployment Runbook (draft)", "incident": f"Incident report: {c.proj} on {c.host}",
              "onboarding": f"Developer onboarding – {c.proj}", "lab": f"Lab report – environment setup ({c.proj})"}
    step_no = r.randrange(2, 9)
    intro = {"runbook": f"{step_no}. {c.pick(['Build', 'Deploy', 'Verify', 'Prepare'])} step", "incident": "Timeline and observations",
             "onboarding": f"Step {step_no}: first run", "lab": "Method"}[doc_kind]
    lead = c.pick([f"From the project directory ({c.cwd}) run:", "Run the following command:", f"On {c.host}, execute:", "The command used was:"])
    after = c.pick(["The command currently fails with the following output:", "Observed output (copied verbatim):",
                    "Instead of completing, it printed:", "Result on the test machine:"])
    comment = c.pick([f"This is what I get on {c.host} as well – can someone check before we sign this off?",
                      "Is this expected? The doc says it should just work.", "Please keep the full output here for now, we need it for the ticket.",
                      f"Same error on my machine, see the last line: {cut_words(c.head, 90)}"])
    if variant == "balloons":
        out = [titles[doc_kind], f"Owner: {rev2}    Last reviewed: {d.day} {MONTHS[d.month - 1]} {d.year}", "", intro, lead, c.cmd_text()]
        if c.chance(0.6):
            old = c.cmd_text() + c.pick([" --verbose", " -v", ""]) if c.chance(0.5) else c.pick(["make build", "./scripts/run.sh", "the old command"])
            out.append(f"Deleted: {old}")
        out.append(f"Formatted: Font: {c.pick(['Consolas', 'Courier New', 'Consolas, 9 pt', 'Cascadia Mono, 10 pt'])}")
        cnum = r.randrange(1, 4)
        out += [f"{after}[{ini}{cnum}]", ""]
        out += c.error.split("\n")
        out += ["", f"Formatted: Font: Consolas, {c.pick(['8', '9', '9.5'])} pt, Highlight",
                f"Comment [{ini}{cnum}]: {comment}"]
        if c.chance(0.6):
            out.append(f"Comment [{ini2}{r.randrange(4, 7)}]: {c.pick(['Agreed, raising with platform team.', 'Looks like a missing dependency?', 'Can you re-run and attach the log?'])}")
        out += [f"Inserted: {' '.join(after.rstrip(':').split()[-r.randrange(2, 4):])}", "",
                c.pick(["Next steps", "Rollback", "Open questions"]), c.pick(["Escalate to platform team if not resolved by Friday.", "TBD.", "Update this section once fixed."]),
                "", f"Page {r.randrange(1, 4)}"]
        return "\n".join(out)
    if variant == "pane":
        n_ins = r.randrange(3, 9)
        out = ["Summary: " + f"{n_ins + 3} revisions", f"Insertions: {n_ins}  Deletions: {r.randrange(1, 4)}  Moves: 0  Formatting: {r.randrange(1, 5)}  Comments: {r.randrange(1, 3)}",
               "", "Main Document Changes and Comments", f"Page 1: Deleted\t{rev}\t{stamp}", c.pick(["make deploy", "run the old script", "TODO"]), "",
               f"Page 1: Inserted\t{rev}\t{stamp}", f"{lead} {c.cmd_text()}", "",
               f"Page 1: Formatted\t{rev}\t{stamp}", f"Font: {c.pick(['Consolas', 'Courier New'])}, {c.pick(['9', '10'])} pt", "",
               f"Page {c.pick(['1', '2'])}: Inserted\t{rev}\t{stamp}", after]
        out += c.error.split("\n")
        out += ["", f"Page 2: Comment [{ini}1]\t{rev}\t{stamp}", comment, "",
                f"Page 2: Comment [{ini2}2]\t{rev2}\t{(d + timedelta(hours=2)):%d/%m/%Y %H:%M:00}", c.pick(["Thanks, looking now.", "Which branch was this?", "Added to the incident ticket."]), "",
                "Header and footer changes", "(none)", "", "Text Box changes", "(none)"]
        return "\n".join(out)
    iso = f"{d:%Y-%m-%dT%H:%M:00Z}"
    iso2 = f"{(d + timedelta(hours=1)):%Y-%m-%dT%H:%M:00Z}"
    out = [f"# {titles[doc_kind]}", "", f"## {intro}", "", f"{lead}", "", "``` {.Code}", c.cmd_text(), "```", "",
           f"[{comment}]{{.comment-start id=\"0\" author=\"{rev}\" date=\"{iso}\"}}{after}[]{{.comment-end id=\"0\"}}", "",
           f"[{c.pick(['old output removed', 'See previous version', 'Worked fine in staging.'])}]{{.deletion author=\"{rev}\" date=\"{iso}\"}}", ""]
    ins_lines = c.error.split("\n")
    out.append("[" + "\\\n".join(x.replace("[", "\\[").replace("]", "\\]").replace("*", "\\*").replace("_", "\\_") if x else " " for x in ins_lines)
               + f"]{{.insertion author=\"{rev}\" date=\"{iso}\"}}")
    last = (f"[{c.pick(['Can you check this?', 'Blocked on this.', 'Related to last week?'])}]{{.comment-start id=\"1\" author=\"{rev2}\" date=\"{iso2}\"}}"
            f"{c.pick(['Next steps', 'Follow-up', 'Owner'])}[]{{.comment-end id=\"1\"}}: {c.pick(['platform team', 'TBD', rev2])}")
    out += ["", last]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 11. voice_assistant_log
# --------------------------------------------------------------------------------------

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def num_words(n: int) -> str:
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        return ONES[n // 100] + " hundred" + ("" if n % 100 == 0 else " " + num_words(n % 100))
    if n < 1000000:
        return num_words(n // 1000) + " thousand" + ("" if n % 1000 == 0 else " " + num_words(n % 1000))
    return " ".join(ONES[int(x)] for x in str(n))


def say_number(tok: str, r: random.Random) -> str:
    if len(tok) > 1 and tok.startswith("0"):
        return " ".join(r.choice(["oh", "zero"]) if x == "0" else ONES[int(x)] for x in tok)
    if len(tok) == 4 and r.random() < 0.5 and tok[2] != "0":
        return num_words(int(tok[:2])) + " " + num_words(int(tok[2:]))
    if len(tok) <= 4:
        return num_words(int(tok))
    return " ".join(ONES[int(x)] for x in tok)


SPOKEN = {":": "colon", ";": "semicolon", "/": "slash", "\\": "backslash", "-": "dash", "_": "underscore", "(": "open paren",
          ")": "close paren", "[": "open bracket", "]": "close bracket", "{": "open curly", "}": "close curly", "<": "less than",
          ">": "greater than", '"': "quote", "'": "quote", "`": "backtick", "@": "at", "#": "hash", "$": "dollar", "%": "percent",
          "&": "and", "*": "star", "=": "equals", "+": "plus", "~": "tilde", "^": "caret", "|": "pipe", ",": "comma",
          "!": "exclamation mark", "?": "question mark", ".": "dot"}
MISHEAR = {
    "kubectl": ["cube control", "cube cuddle", "coob CTL"], "psql": ["PSQL", "pee sequel"], "sudo": ["pseudo", "sue doe"],
    "npm": ["NPM", "and PM"], "npx": ["NPX", "and PX"], "serde": ["sir day", "Saturday"], "cargo": ["cargo", "car go"],
    "nginx": ["engine X"], "json": ["Jason"], "yaml": ["yamel", "camel"], "yml": ["YML"], "ssh": ["SSH", "S S H"],
    "git": ["get", "git"], "postgres": ["post gress", "Postgres"], "postgresql": ["Postgres QL"], "sqlite": ["sequel light"],
    "javac": ["Java C", "java see"], "systemctl": ["system cuddle", "system control"], "journalctl": ["journal control"],
    "localhost": ["local host"], "stderr": ["standard error"], "py": ["pie", "pi"], "js": ["JS"], "rs": ["RS", "ours"],
    "tsc": ["TSC"], "pip": ["pip", "pep"], "numpy": ["numb pie", "num pie"], "errno": ["error no", "air no"],
    "traceback": ["trace back"], "utf": ["UTF"], "ssl": ["SSL"], "tls": ["TLS"], "mysql": ["my sequel"], "usr": ["user"],
    "gcc": ["GCC"], "eof": ["EOF"], "src": ["source"], "tmp": ["temp"], "api": ["API"], "https": ["HTTPS"], "http": ["HTTP"],
    "url": ["URL"], "io": ["IO"], "os": ["OS"], "argv": ["arg V"], "chmod": ["change mod", "CH mod"], "apt": ["apt", "app"],
    "gz": ["GZ"], "helm": ["helm", "Hell M"], "rustc": ["rust C"], "enoent": ["E no ent"], "deps": ["depths"],
    "pkg": ["package"], "lib": ["lib", "live"], "dev": ["dev", "Dave"], "def": ["death"], "cwd": ["CWD"], "dir": ["deer", "dir"],
    "idx": ["index"], "impl": ["imple"], "str": ["stir", "string"], "fn": ["FN"], "env": ["envy", "env"], "config": ["config"],
    "kube": ["cube"], "tcp": ["TCP"], "ok": ["okay"], "pid": ["PID"], "cli": ["CLI", "clee"], "bundler": ["bundler"],
    "gem": ["gem", "Jim"], "ruby": ["ruby", "Rudy"], "rb": ["RB"], "ts": ["TS"], "pem": ["PEM", "pam"], "openssl": ["open SSL"],
    "rsync": ["are sync"], "scp": ["SCP"], "ghcr": ["GHCR"], "jdk": ["JDK"], "mvn": ["MVN", "maven"], "gradle": ["gradle", "grade all"],
}


def camel_split(tok: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", tok)


def speak(text: str, r: random.Random, max_words: int = 70) -> str:
    words: list[str] = []
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    for li, line in enumerate(lines):
        if li:
            words.append(r.choice(["new line", "next line", "new line", "new paragraph"]))
        toks = re.findall(r"[A-Za-z]+|\d+|--|\.\.\.|\S", line)
        for i, t in enumerate(toks):
            if t.isalpha() and t.isascii():
                low = t.lower()
                if low in MISHEAR and r.random() < 0.75:
                    words.append(r.choice(MISHEAR[low]))
                elif t.isupper() and 1 < len(t) <= 4 and r.random() < 0.6:
                    words.append(" ".join(t))
                else:
                    words.append(camel_split(t).lower())
            elif t.isdigit() and t.isascii():
                words.append(say_number(t, r))
            elif t == "--":
                words.append("dash dash")
            elif t == "...":
                words.append("dot dot dot")
            elif t in SPOKEN:
                if t in ",'\"`" and r.random() < 0.55:
                    continue
                if t in "()[]{}" and r.random() < 0.3:
                    continue
                if t == "." and i == len(toks) - 1:
                    if r.random() < 0.5:
                        words.append("period")
                    continue
                if t == "^" and r.random() < 0.8:
                    continue
                words.append(SPOKEN[t])
    flat = " ".join(words).split()
    out = []
    for w in flat:
        x = r.random()
        if x < 0.03:
            continue
        if x < 0.05:
            out.append(r.choice(["uh", "um", "the", "and"]))
        out.append(w)
    if len(out) > max_words:
        out = out[:max_words]
    s = " ".join(out)
    return s[:1].upper() + s[1:]


def gen_voice(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["generic", "generic", "chatgpt", "myactivity", "dictation"])
    keys = key_lines(c.error, 2 if c.chance(0.6) else 1)
    spoken_err = speak("\n".join(keys), r, max_words=r.randrange(35, 80))
    spoken_cmd = speak(c.cmd_text(), r, max_words=25).lower() if c.cmd else "my script"
    d = c.when
    exact = c.error
    if c.chance(0.3):
        exact = c.prompt("plain") + c.cmd_text() + "\n" + exact
    if variant == "generic":
        app = c.pick(["Assistant", "Copilot", "Gemini", "Siri"])
        out = [f"{c.pick(['Today', 'Yesterday', DAYS[d.weekday()]])}, {clock12(d, seconds=False)}", "",
               f"You said: {c.pick(['Hey', 'OK', 'So'])} I ran {spoken_cmd} and it says {spoken_err}",
               f"{app}: {c.pick(['Sorry, I didn’t quite catch that. Could you type or paste the exact error message?', 'It sounds like the command failed. Can you paste the full text so I can read it exactly?', 'I heard an error message but some words were unclear. Please paste it here.'])}",
               f"You said: {c.pick(['okay hang on I will paste it', 'fine one sec', 'yeah let me copy it'])}",
               f"{app}: {c.pick(['Sure, go ahead.', 'Ready when you are.', 'OK.'])}",
               f"You typed ({clock12(d + timedelta(seconds=r.randrange(20, 90)), seconds=False)}): "
               + ("(pasted)" if exact.startswith("$ ") else f"ran `{c.cmd_text()}`, got:"), exact]
        return "\n".join(out)
    if variant == "chatgpt":
        out = ["Voice chat ended", f"{r.randrange(0, 3)}m {r.randrange(5, 59)}s", "",
               f"You said:\n{spoken_err[:1].upper()}{spoken_err[1:]}. That's what {spoken_cmd} prints.",
               "ChatGPT said:\n" + c.pick(["I think I caught most of that, but error text is easy to mishear. Could you paste the output exactly as it appears in your terminal?",
                                           "Got it — it sounds like the command failed early. Paste the exact output and I'll go through it line by line."]),
               f"You said:\n{c.pick(['Yeah okay.', 'Sure.', 'Hold on.'])}", "", "You said:", f"{c.cmd_text()}", "", exact]
        return "\n".join(out)
    if variant == "myactivity":
        stamp = f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}, {clock12(d)}"
        stamp2 = f"{MONTHS[d.month - 1][:3]} {d.day}, {d.year}, {clock12(d + timedelta(seconds=r.randrange(30, 200)))}"
        out = ["Assistant", f"Said “{c.pick(['hey Google', 'ok Google', ''])} what does {spoken_err.lower()} mean”".replace("“ ", "“"), stamp + " • Details",
               "Assistant", c.pick(["Here are some results from the web", "Sorry, I'm not sure how to help with that yet", "I found these results"]), "",
               "Assistant", c.pick([f"Said “how do I fix {spoken_cmd} error”", f"Said “why does {spoken_cmd} {c.pick(['fail', 'not work', 'give an error'])}”"]),
               stamp + " • Details", "",
               "Assistant", f"Typed “{c.cmd_text()} error”", stamp2 + " • Details", "",
               "Gemini Apps", "Prompted " + exact, stamp2 + " • Details"]
        return "\n".join(out)
    out = [f"Dictation — {c.pick(['Notes', 'Just Press Record', 'Otter', 'Voice Memos transcript'])} — {d:%Y-%m-%d %H:%M}",
           f"You said: note to self for the {c.pick(['ticket', 'standup', 'IT email'])} comma when I run {spoken_cmd} on {c.host} I get {spoken_err} full stop",
           f"You said: {c.pick(['delete that', 'scratch that', 'new paragraph'])}",
           "Assistant: Transcription saved. Low confidence on some words.", "",
           f"Pasted from clipboard ({clock12(d + timedelta(minutes=1))}):",
           exact if exact.startswith("$ ") else c.prompt() + c.cmd_text() + "\n" + exact]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 12. lsp_log
# --------------------------------------------------------------------------------------

LSP_SERVERS = {
    "python": [("Python Language Server", "pylsp"), ("Ruff", "ruff server"), ("Pylance", "pylance")],
    "rust": [("rust-analyzer Language Server", "rust-analyzer")],
    "go": [("gopls (server)", "gopls")],
    "node": [("ESLint", "eslint-server"), ("TypeScript", "tsserver")],
    "docker": [("Docker Language Server", "docker-language-server"), ("Container Tools", "docker-langserver")],
    "k8s": [("YAML Support", "yaml-language-server"), ("Kubernetes", "vs-kubernetes")],
    "git": [("Bash IDE", "bash-language-server")],
    "db": [("SQLTools", "sqltools-ls"), ("PostgreSQL", "pgls")],
    "ssh": [("Bash IDE", "bash-language-server")],
    "c": [("clangd", "clangd"), ("CMake Tools", "cmake-language-server")],
    "java": [("Language Support for Java(TM) by Red Hat", "jdtls")],
    "ruby": [("Ruby LSP", "ruby-lsp"), ("Solargraph", "solargraph")],
    "systemd": [("systemd-lsp", "systemd-lsp"), ("Bash IDE", "bash-language-server")],
    "tls": [("REST Client", "rest-ls"), ("Bash IDE", "bash-language-server")],
    "shell": [("Bash IDE", "bash-language-server"), ("Task Runner", "tasks-ls")],
}


LSP_BINARIES = {
    "python": ["pyright", "pylsp", "ruff", "basedpyright"], "rust": ["rust-analyzer"], "go": ["gopls"],
    "node": ["typescript-language-server", "vscode-eslint-language-server"], "docker": ["docker-langserver", "dockerls"],
    "k8s": ["yaml-language-server", "helm_ls"], "git": ["bash-language-server"], "db": ["sqls", "sqlls"],
    "ssh": ["bash-language-server"], "c": ["clangd", "cmake-language-server"], "java": ["jdtls"],
    "ruby": ["ruby-lsp", "solargraph"], "systemd": ["systemd-language-server", "bash-language-server"],
    "tls": ["bash-language-server"], "shell": ["bash-language-server", "efm-langserver"],
}


def gen_lsp(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["vscode_trace", "vscode_trace", "vscode_logchannel", "neovim", "emacs", "sublime"])
    ext, server = c.pick(LSP_SERVERS[c.fam])
    if variant in ("neovim", "emacs", "sublime"):
        server = c.pick(LSP_BINARIES[c.fam])
    t = c.when
    cmd = c.cmd_text()
    code = c.pick([1, 1, 1, 2, 101 if c.fam == "rust" else 1, 127 if "not found" in c.error else 1])
    stderr_msg = c.pick([
        f"Command `{cmd}` exited with code {code}:\n{c.error}\n",
        f"Task '{cmd}' failed (exit code {code}). stderr:\n{c.error}",
        f"[{server}] {cmd} (cwd: {c.cwd_abs}) failed with exit status {code}\n{c.error}\n",
    ])

    def tick() -> datetime:
        nonlocal t
        t = t + timedelta(milliseconds=r.randrange(3, 2500))
        return t

    if variant == "vscode_trace":
        req = r.randrange(3, 60)
        out = []
        tt = tick()
        out.append(f"[Trace - {clock12(tt)}] Sending request 'workspace/executeCommand - ({req})'.")
        out.append("Params: " + json.dumps({"command": c.pick([f"{server}.runTask", "task.run", f"{ext.split()[0].lower()}.executeBuild"]),
                                             "arguments": [cmd, {"cwd": c.cwd_abs}]}, indent=4, ensure_ascii=False))
        out.append("")
        out.append("")
        tt = tick()
        out.append(f"[Trace - {clock12(tt)}] Received notification 'window/logMessage'.")
        out.append("Params: " + json.dumps({"type": 3, "message": f"Running {cmd} in {c.cwd_abs}"}, indent=4, ensure_ascii=False))
        out.append("")
        out.append("")
        tt = tick()
        out.append(f"[Trace - {clock12(tt)}] Received notification 'window/logMessage'.")
        out.append("Params: " + json.dumps({"type": 1, "message": stderr_msg}, indent=4, ensure_ascii=False))
        out.append("")
        out.append("")
        tt = tick()
        out.append(f"[Trace - {clock12(tt)}] Received response 'workspace/executeCommand - ({req})' in {r.randrange(200, 9000)}ms.")
        out.append("Result: " + json.dumps({"exitCode": code}, indent=4))
        out.append("")
        out.append("")
        if c.chance(0.6):
            tt = tick()
            out.append(f"[Error - {clock12(tt)}] {ext} client: couldn't run task: {c.head}")
        return "\n".join(out)
    if variant == "vscode_logchannel":
        def st() -> str:
            tt = tick()
            return f"{tt:%Y-%m-%d %H:%M:%S}.{tt.microsecond // 1000:03d}"
        out = [f"{st()} [info] {ext} v{r.randrange(0, 3)}.{r.randrange(0, 40)}.{r.randrange(0, 20)} activated",
               f"{st()} [info] Running task: {cmd}",
               f"{st()} [trace] Received notification 'window/logMessage'.",
               "Params: " + json.dumps({"type": 1, "message": stderr_msg}, indent=4, ensure_ascii=False),
               "",
               f"{st()} [error] {stderr_msg.splitlines()[0]}"]
        return "\n".join(out)
    if variant == "neovim":
        def st() -> str:
            return f"{tick():%Y-%m-%d %H:%M:%S}"
        out = [f'[START][{st()}] LSP logging initiated',
               f'[INFO][{st()}] .../vim/lsp/rpc.lua:{c.pick([662, 770, 812])}\t"Starting RPC client"\t{{ cmd = {{ "{server}" }}, extra = {{ cwd = "{c.cwd_abs}" }} }}',
               f'[INFO][{st()}] .../lua/vim/lsp.lua:{r.randrange(900, 1400)}\t"exit_handler"\t{{}}' if c.chance(0.3) else f'[DEBUG][{st()}] .../vim/lsp/rpc.lua:{r.randrange(280, 300)}\t"rpc.send"\t{{ method = "workspace/executeCommand", params = {{ command = "run", arguments = {{ "{cmd}" }} }} }}',
               f'[ERROR][{st()}] .../vim/lsp/rpc.lua:{c.pick([734, 770])}\t"rpc"\t"{server}"\t"stderr"\t{json.dumps(stderr_msg, ensure_ascii=False)}',
               f'[WARN][{st()}] .../lua/vim/lsp.lua:{r.randrange(1000, 1200)}\t"{server}: window/logMessage"\t{json.dumps(c.head, ensure_ascii=False)}']
        return "\n".join(out)
    if variant == "emacs":
        out = [f"Command \"{server}\" is present on the path.", f"Found the following clients for {c.cwd_abs}: (server-id {server}, priority 0)",
               f"The following clients were selected based on priority: (server-id {server}, priority 0)", "",
               f"[Trace - {t:%I:%M:%S %p}] Sending request 'workspace/executeCommand - ({r.randrange(2, 40)})'.",
               "Params: " + json.dumps({"command": "run", "arguments": [cmd]}, ensure_ascii=False), "", "",
               f"[Trace - {tick():%I:%M:%S %p}] Received notification 'window/logMessage'.",
               "Params: " + json.dumps({"type": 1, "message": stderr_msg}, ensure_ascii=False), "", ""]
        return "\n".join(out)
    t1 = tick()
    t2 = tick()
    out = [f":: [{t1:%H:%M:%S}.{t1.microsecond // 1000:03d}] --> {server} workspace/executeCommand ({r.randrange(2, 40)}): {{'command': 'run', 'arguments': [{cmd!r}]}}",
           f":: [{t2:%H:%M:%S}.{t2.microsecond // 1000:03d}] <- {server} window/logMessage: {{'type': 1, 'message': {stderr_msg!r}}}",
           f"{server}: {c.head}"]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 13. bugreport_template
# --------------------------------------------------------------------------------------


def gen_bug(c: Ctx) -> str:
    variant = c.pick(["github_default", "github_default", "github_form", "gitlab"])
    fence = c.pick(["```", "```console", "```text", "```shell", "```sh"])
    err_block = f"{fence}\n" + (c.prompt("plain") + c.cmd_text() + "\n" if c.chance(0.4) else "") + c.error + "\n```"
    os_ = c.pick(OSES)
    summary = c.pick([f"`{c.cmd_text()}` fails with {c.head[:80]}", f"Running {c.cmd_text()} errors out on {os_.split(' (')[0]}",
                      f"Can't {c.goal()}: {c.head[:70]}", f"{c.cmd_text()} does not work after fresh clone"])
    if variant == "github_default":
        out = [f"Title: {summary}", "",
               "**Describe the bug**", c.pick([f"I can't {c.goal()}; the command exits with an error right away.",
                                               f"Following the docs, `{c.cmd_text()}` fails instead of {c.pick(['building', 'starting', 'completing'])}.",
                                               "A clear and concise description: the command below fails every time on my machine."]), "",
               "**To Reproduce**", "Steps to reproduce the behavior:",
               f"1. {c.pick(['Clone the repo', 'Fresh checkout of main', 'Open a terminal'])}", f"2. `cd {c.cwd}`", f"3. Run `{c.cmd_text()}`", "4. See error", "",
               "**Expected behavior**", c.pick(["The command should complete without errors.", "It should work like it does in CI.", "No error."]), "",
               "**Screenshots**", "N/A, log below.", "",
               "**Desktop (please complete the following information):**", f" - OS: {os_}", f" - Version: {c.version()}", "",
               "**Logs**", "<details><summary>Full log</summary>", "", err_block, "", "</details>", "",
               "**Additional context**", c.pick(["Happens on a clean clone too.", f"Machine is {c.host}.", "Worked last week.", ""])]
        return "\n".join(out)
    if variant == "github_form":
        out = ["### Is there an existing issue for this?", "", "- [X] I have searched the existing issues", "",
               "### Describe the bug", "", c.pick([f"`{c.cmd_text()}` fails.", f"Error when I try to {c.goal()}.", summary]), "",
               "### To Reproduce", "", f"1. `cd {c.cwd}`", f"2. `{c.cmd_text()}`", "3. error is printed", "",
               "### Expected behavior", "", c.pick(["Command succeeds.", "It runs.", "_No response_"]), "",
               "### Environment", "", f"- OS: {os_}", f"- Version: {c.version()}", f"- Host: {c.host}", "",
               "### Logs", "", "<details><summary>Full log</summary>", "", err_block, "", "</details>", "",
               "### Anything else?", "", "_No response_"]
        return "\n".join(out)
    out = ["## Summary", "", summary.replace("`", ""), "", "## Steps to reproduce", "", f"1. `cd {c.cwd}`", f"2. `{c.cmd_text()}`", "",
           "## What is the current *bug* behavior?", "", "The command fails with the error below.", "",
           "## What is the expected *correct* behavior?", "", c.pick(["It completes.", "Same as on CI."]), "",
           "## Environment", "", f"{os_}, {c.version()}", "",
           "## Relevant logs and/or screenshots", "", "<details><summary>Full log</summary>", "", err_block, "", "</details>", "",
           "## Possible fixes", "", c.pick(["No idea yet.", "Maybe a missing dependency?", ""]), "", "/label ~bug ~\"needs triage\""]
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 14. pager_sms
# --------------------------------------------------------------------------------------

GSM_BASIC = set("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà")
GSM_EXT = set("^{}\\[~]|€")
GSM_SUBS = {"`": "'", "‘": "'", "’": "'", "“": '"', "”": '"', "━": "-", "─": "-", "×": "x", "•": "*", "│": "|", "╰": "+",
            "➜": ">", "○": "o", "●": "*", "\t": " ", "—": "-", "–": "-", "…": "..."}


def to_gsm(text: str, ext_ok: bool) -> str:
    out = []
    for ch in text:
        if ch in GSM_BASIC:
            out.append(ch)
        elif ch in GSM_EXT:
            out.append(ch if ext_ok else {"[": "(", "]": ")", "{": "(", "}": ")"}.get(ch, "?"))
        else:
            sub = GSM_SUBS.get(ch, "?")
            if not ext_ok and sub == "|":
                sub = "!"
            out.append(sub)
    return "".join(out)


def septets(text: str) -> int:
    return sum(2 if ch in GSM_EXT else 1 for ch in text)


def gen_pager(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["thread", "thread", "xml", "gateway"])
    ext_ok = c.chance(0.6)
    sep = c.pick([" | ", " ", " / "])

    def collapse(s: str) -> str:
        return re.sub(r" {2,}", " ", sep.join(x.strip() for x in s.split("\n") if x.strip()))

    src = c.pick(["NAGIOS", "Zabbix", "PagerDuty", "Opsgenie", "cron-mon", "Jenkins", "Healthchecks"])
    job = c.pick([f"{c.proj}-nightly", f"deploy-{c.proj}", f"{c.proj}_build", "backup-db", f"{c.proj}-smoke", "release-job"])
    rc = c.pick([1, 1, 2, 101, 127, 255])
    head = c.pick([
        f"{src} PROBLEM: job {job} on {c.host} FAILED rc={rc}",
        f"** {src} ** CRITICAL {c.host}/{job} exit {rc}",
        f"[{src}] {job}@{c.host} failed ({rc})",
        f"ALERT {job} {c.host} FAIL rc={rc} {c.when:%H:%M}",
    ])
    full = collapse(c.error)
    max_seg = c.pick([4, 5, 6, 8])
    budget = max_seg * 152
    body = f"{head}{sep}cmd: {c.cmd_text()}{sep}"
    if len(body) + len(full) + 5 <= budget or c.chance(0.3):
        body += f"out: {full}"
    else:
        body += f"err: {collapse(chr(10).join(key_lines(c.error, 2)))}{sep}tail: {collapse(chr(10).join(c.error.split(chr(10))[-6:]))}"
    body = to_gsm(body, ext_ok)
    # segment: each SMS is 160 septets including the "(i/n) " prefix
    segs: list[str] = []
    rest = body
    while rest:
        room = 160 - 7
        take = ""
        n = 0
        for ch in rest:
            cost = 2 if ch in GSM_EXT else 1
            if n + cost > room:
                break
            take += ch
            n += cost
        segs.append(take)
        rest = rest[len(take):]
    if len(segs) > max_seg:
        segs = segs[:max_seg]
        last = segs[-1]
        while septets(last) > 153 - 3:
            last = last[:-1]
        segs[-1] = last + "..."
    total = len(segs)
    msgs = [f"({i}/{total}) {s}" for i, s in enumerate(segs, 1)]
    t = c.when
    if variant == "thread":
        order = list(range(total))
        if total > 2 and c.chance(0.3):
            j = r.randrange(0, total - 1)
            order[j], order[j + 1] = order[j + 1], order[j]
        sender = c.pick(["PagerDuty", "+1 (555) 010-0147", "72633", "Opsgenie", "ALERTS", "+44 7700 900418"])
        out = [sender, c.pick(["Text Message", "SMS", "Text Message · SMS"]), f"{c.pick(['Today', DAYS[t.weekday()]])} {t:%H:%M}"]
        for k in order:
            out.append(msgs[k])
            if c.chance(0.3):
                out.append(f"{(t + timedelta(seconds=k * 2 + 1)):%H:%M}")
        if c.chance(0.4):
            out.append(c.pick(["Reply ACK to acknowledge", "Reply 4 to ack, 6 to resolve", "STOP to opt out"]))
        return "\n".join(out)
    if variant == "xml":
        addr = c.pick(["+15550100147", "72633", "+447700900418", "PAGERDUTY"])
        rows = []
        smsc = f"+1555000{r.randrange(1000, 9999)}"
        sub_id = r.randrange(1, 3)
        contact = c.pick(["(Unknown)", "On-call", "PagerDuty"])
        ts = epoch_ms(t)
        for m in msgs:
            ts += r.randrange(300, 2500)
            tt = datetime(1970, 1, 1) + timedelta(milliseconds=ts)
            readable = f"{MONTHS[tt.month - 1][:3]} {tt.day}, {tt.year} {clock12(tt)}"
            rows.append(f'  <sms protocol="0" address="{addr}" date="{ts}" type="1" subject="null" body="{xml_escape(m).replace(chr(39), "&apos;")}" '
                        f'toa="null" sc_toa="null" service_center="{smsc}" read="1" status="-1" locked="0" '
                        f'date_sent="{ts - r.randrange(500, 4000)}" sub_id="{sub_id}" readable_date="{readable}" contact_name="{contact}" />')
        return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
                f"<!--File Created By SMS Backup & Restore v10.{r.randrange(10, 22)}.{r.randrange(0, 9)} on {t + timedelta(days=r.randrange(1, 30)):%d/%m/%Y %H:%M:%S}-->\n"
                f'<smses count="{len(rows)}" backup_set="{uuid4ish(r)}" backup_date="{epoch_ms(t) + 86400000}" type="full">\n'
                + "\n".join(rows) + "\n</smses>")
    pager = f"{r.randrange(5550100, 5550199)}@{c.pick(['pager.example.net', 'sms.example.com', 'page.example.org'])}"
    out = []
    for k, m in enumerate(msgs):
        tt = t + timedelta(seconds=k)
        out.append(f"{tt:%d/%m %H:%M:%S} TO:{pager} MSGID:{r.randrange(100000, 999999)} STATUS:{c.pick(['DELIVERED', 'SENT', 'DELIVERED'])} TEXT:{m}")
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# 15. csv_cell
# --------------------------------------------------------------------------------------

FILLER_ITEMS = [
    ("Docs: broken link on install page", "", "done"),
    ("Add dark mode toggle to settings", "", "wontfix"),
    ("Typo in onboarding email template", "", "done"),
    ("Button misaligned on mobile checkout", "", "closed"),
    ("Request: export report as XLSX", "", "backlog"),
    ("Update README screenshots", "", "done"),
    ("Rename 'Customers' tab to 'Clients'", "", "in progress"),
    ("Slow page load on dashboard (>3s)", "", "investigating"),
    ("Logo blurry on retina screens", "", "done"),
    ("Add CSV import sample file", "", "backlog"),
    ("Pin Python version in docs", "", "done"),
    ("Remove unused feature flag", "", "closed"),
]


def gen_csv(c: Ctx) -> str:
    r = c.rng
    layouts = [
        ["id", "reporter", "date", "title", "command", "output", "status", "assignee"],
        ["ID", "Reported by", "Created", "Summary", "Command", "Output / error", "Status", "Priority"],
        ["ticket", "who", "env", "command", "output", "status", "notes"],
        ["#", "Date", "Reporter", "Issue", "Host", "Command run", "Error output", "Triage", "Owner"],
    ]
    cols = c.pick(layouts)
    delim = c.pick([",", ",", ",", ";"])
    term = c.pick(["\r\n", "\n"])
    quoting = csv.QUOTE_ALL if c.chance(0.2) else csv.QUOTE_MINIMAL
    n_before = r.randrange(1, 5)
    n_after = r.randrange(0, 3)
    fillers = r.sample(FILLER_ITEMS, k=n_before + n_after)
    base_id = r.randrange(10, 400)
    rows = []
    d = c.when

    def mk(i: int, summary: str, command: str, output: str, status: str, reporter: str, when: datetime) -> list[str]:
        vals = {"id": str(base_id + i), "ID": f"BUG-{base_id + i}", "ticket": f"T{base_id + i}", "#": str(base_id + i),
                "reporter": reporter, "Reported by": reporter, "who": reporter.split()[0].lower(), "Reporter": reporter,
                "date": f"{when:%Y-%m-%d}", "Created": f"{when:%d/%m/%Y %H:%M}", "Date": f"{when:%Y-%m-%d}",
                "command": command, "Command": command, "Command run": command,
                "output": output, "Output / error": output, "Error output": output,
                "status": status, "Status": status, "Triage": status,
                "assignee": c.pick(["", "kb", "ops", "mlee"]) if status != "new" else "",
                "Summary": summary, "title": summary, "Issue": summary, "Priority": c.pick(["P2", "P3", "P1"]) if status == "new" else c.pick(["P3", "P4"]),
                "env": c.pick(["prod", "staging", "local"]) if command else "", "notes": summary if not command else c.pick(["", "blocking", "see slack thread"]),
                "Host": c.host if command else "", "Owner": "" if status == "new" else c.pick(["Dana", "Sam", "ops"])}
        return [vals[k] for k in cols]

    i = 0
    back = sorted((r.randrange(1, 60 * 24 * 40) for _ in range(n_before)), reverse=True)
    for (summ, _, st), mins in zip(fillers[:n_before], back, strict=True):
        rows.append(mk(i, summ, "", "", st, " ".join(c.other_person()), d - timedelta(minutes=mins)))
        i += 1
    summary = c.pick([f"{c.cmd_text()} fails", f"Can't {c.goal()}", c.head[:60]])
    rows.append(mk(i, summary, c.cmd_text(), c.error, c.pick(["new", "open", "needs triage", "new"]), c.full, d))
    i += 1
    later = d
    for summ, _, st in fillers[n_before:]:
        later = later + timedelta(minutes=r.randrange(20, 3000))
        rows.append(mk(i, summ, "", "", c.pick(["backlog", "new", "in progress"]) if st == "done" else st, " ".join(c.other_person()), later))
        i += 1
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delim, lineterminator=term, quoting=quoting)
    w.writerow(cols)
    for row in rows:
        w.writerow(row)
    return buf.getvalue().rstrip("\r\n")


# --------------------------------------------------------------------------------------
# 16. terminal_screenshot_ocr_table
# --------------------------------------------------------------------------------------

OCR_SUBS = [("l", "1"), ("1", "l"), ("O", "0"), ("0", "O"), ("rn", "m"), ("I", "l"), (":", ";"), (".", ","), ("S", "5"),
            ("e", "c"), ('"', "''"), ("_", " "), ("cl", "d"), ("m", "rn"), ("i", "í"), ("~", "-"), ("'", "`")]


def ocr_corrupt(line: str, r: random.Random) -> str:
    cands = [(a, b) for a, b in OCR_SUBS if a in line]
    if cands and r.random() < 0.8:
        a, b = r.choice(cands)
        pos = [m.start() for m in re.finditer(re.escape(a), line)]
        p = r.choice(pos)
        return line[:p] + b + line[p + len(a):]
    if len(line) > 4:
        p = r.randrange(1, len(line) - 1)
        return line[:p] + line[p + 1:]
    return line


def ocr_clean(line: str) -> str:
    line = line.replace("━", "-").replace("─", "-").replace("│", "|").replace("╰", "").replace("•", "*")
    return "".join(ch for ch in line if ord(ch) < 0x2500 or ch in "➜×")


def gen_ocr(c: Ctx) -> str:
    r = c.rng
    variant = c.pick(["json", "json", "listing", "table", "paddle"])
    cols = c.pick([80, 100, 120, 140, 160])
    rows = c.pick([40, 48, 56, 64])
    char_w = c.pick([7, 8, 9])
    line_h = c.pick([15, 17, 18, 20])
    x0, y0 = c.pick([(12, 64), (8, 38), (16, 80), (10, 52)])
    screen: list[str] = []
    p = c.prompt(c.pick(["ubuntu", "ubuntu", "fedora", "zsh"]))
    if c.chance(0.5):
        prev = c.pick(["ls", "git pull", "ls"])
        screen.append(p + prev)
        if prev == "ls":
            screen.append("  ".join(r.sample(["README.md", "src", "Makefile", "docs", "tests", "config", "scripts", "data", "LICENSE"], k=4)))
        else:
            screen.append("Already up to date.")
    screen.append(p + c.cmd_text())
    screen += c.error.expandtabs(8).split("\n")
    screen.append(p.rstrip() + " █" if c.chance(0.4) else p.rstrip())
    wrapped: list[str] = []
    for ln in screen:
        wrapped += hard_wrap(ln, cols)
    if len(wrapped) > rows and c.chance(0.6):
        rows = min(len(wrapped), 90)
    if len(wrapped) > rows:
        wrapped = wrapped[-rows:]
    dets = []
    title = f"{c.user}@{c.host}: {c.cwd}"
    if c.chance(0.6):
        dets.append((title, [x0 + cols * char_w // 2 - len(title) * 4, max(4, y0 - 30), len(title) * 8, 14], round(r.uniform(0.88, 0.99), 2)))
    bad = set(r.sample(range(len(wrapped)), k=min(len(wrapped), max(1, len(wrapped) // r.choice([5, 7, 9])))))
    for i, ln in enumerate(wrapped):
        text = ocr_clean(ln)
        stripped = text.strip()
        if not stripped:
            continue
        lead = len(text) - len(text.lstrip())
        conf = r.uniform(0.9, 0.995)
        if i in bad:
            stripped = ocr_corrupt(stripped, r)
            conf = r.uniform(0.62, 0.88)
        dets.append((stripped, [x0 + lead * char_w, y0 + i * line_h, len(stripped) * char_w + r.randrange(-3, 4), line_h - 2], round(conf, 2)))
    img = c.pick([f"Screenshot {c.when:%Y-%m-%d} at {c.when:%H.%M.%S}.png", f"Screenshot_{c.when:%Y%m%d_%H%M%S}.png",
                  f"screenshot-{c.when:%Y-%m-%d-%H%M%S}.png", "IMG_" + str(r.randrange(1000, 9999)) + ".PNG"])
    W = x0 * 2 + cols * char_w
    H = y0 + rows * line_h + 20
    if variant == "json":
        lines = ",\n".join("    " + json.dumps({"text": t, "bbox": b, "conf": cf}, ensure_ascii=False) for t, b, cf in dets)
        return (f'{{\n  "image": {json.dumps(img)},\n  "width": {W},\n  "height": {H},\n  "engine": "{c.pick(["tesseract 5.3.4", "easyocr 1.7.1", "apple-vision", "rapidocr 1.3"])}",\n'
                f'  "lines": [\n{lines}\n  ]\n}}')
    if variant == "listing":
        head = [f"OCR result for {img} ({W}x{H}), lang=eng, psm={c.pick([4, 6, 11])}", f"{len(dets)} lines detected", ""]
        return "\n".join(head + [f"line {k} ({cf:.2f}): {t}" for k, (t, _, cf) in enumerate(dets, 1)])
    if variant == "table":
        head = [f"**{img}** — text detected", "", "| # | text | conf | bbox (x, y, w, h) |", "|---|------|------|-------------------|"]
        body = [f"| {k} | {t.replace('|', chr(92) + '|')} | {cf:.2f} | {b[0]}, {b[1]}, {b[2]}, {b[3]} |" for k, (t, b, cf) in enumerate(dets, 1)]
        return "\n".join(head + body)
    out = [f"[{c.when:%Y/%m/%d %H:%M:%S}] ppocr INFO: **********{img}**********"]
    for t, b, cf in dets:
        x, y, w, h = b
        out.append(f"[{c.when:%Y/%m/%d %H:%M:%S}] ppocr INFO: [[[{x}.0, {y}.0], [{x + w}.0, {y}.0], [{x + w}.0, {y + h}.0], [{x}.0, {y + h}.0]], ({t!r}, {cf})]")
    return "\n".join(out)


# --------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------

GENERATORS = {
    "mime_quoted_printable": gen_mime,
    "messenger_mojibake": gen_messenger,
    "logseq_outline": gen_logseq,
    "evernote_enex": gen_enex,
    "google_keep_json": gen_keep,
    "trello_card": gen_trello,
    "youtube_comments": gen_youtube,
    "stackexchange_chat": gen_sechat,
    "pdf_form_ticket": gen_pdf,
    "docx_track_changes": gen_docx,
    "voice_assistant_log": gen_voice,
    "lsp_log": gen_lsp,
    "bugreport_template": gen_bug,
    "pager_sms": gen_pager,
    "csv_cell": gen_csv,
    "terminal_screenshot_ocr_table": gen_ocr,
}


def load_cases() -> list[dict]:
    files = sorted((BENCH / "help_cases").glob("*.toml"), key=lambda p: p.name)
    files += sorted((BENCH / "help_heldout").glob("set*.toml"), key=lambda p: p.name)
    cases = []
    for path in files:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for idx, table in enumerate(data.get("case", [])):
            cases.append({"file": path.name, "case": idx, "error": table["error"], "command": table.get("command")})
    return cases


def deal(n: int) -> list[str]:
    rng = random.Random(SEED + "|decks")
    stream: list[str] = []
    while len(stream) < n:
        deck = list(STYLES)
        rng.shuffle(deck)
        stream.extend(deck)
    return stream[:n]


def main() -> None:
    cases = load_cases()
    cards = deal(2 * len(cases))
    rows = []
    for k, case in enumerate(cases):
        pair = cards[2 * k: 2 * k + 2]
        if pair[0] == pair[1]:  # cannot happen with even-sized decks; kept as a guard
            raise SystemExit("style deal produced a duplicate pair")
        for slot, style in enumerate(pair):
            ctx = Ctx(case, slot, style)
            text = GENERATORS[style](ctx)
            rows.append({"file": case["file"], "case": case["case"], "style": style, "text": text})
    with OUT_PATH.open("w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {OUT_PATH}")


if __name__ == "__main__":
    main()
