# ruff: noqa: E741, F541, UP031, B905, UP032, B007, E731, F841  (a generated-data script kept as its blind writer wrote it)
"""Write bench/help_phrasings_twentieth.jsonl: people asking for help in real channels.

Every ``[[case]]`` of ``bench/help_cases/*.toml`` (files sorted by name) and then of
``bench/help_heldout/set*.toml`` (sorted by name) gets exactly two rows, written in
two different styles.  Each row is an observation of somebody hitting that case's
error after running (or trying to run) its command, rendered the way the medium of
the style really carries such a thing: pasted whole, pasted with broken formatting,
first and last lines only, partly retyped, or quoted inside the writer's own
sentences, with the medium's own transformations (line-break collapsing, quote
prefixes, indentation, hard wrapping, escaping, mis-decoded characters).

Styles (16):

* ``chatgpt_prompt_paste`` - a message typed into ChatGPT / Claude / Gemini: a short
  question, the command and the pasted output, sometimes an unclosed ``` fence.
* ``ollama_cli_prompt`` - a local model's CLI: ``ollama run`` with ``>>>`` and
  triple-quote multi-line input, ``llm -m ...`` / ``llm chat`` with the error inside.
* ``slack_thread_reply`` - a Slack thread copied as text: display names, times,
  ``:thread:``, the error quoted with ``>`` or in a code block, a colleague asking
  for the command and the answer.
* ``teams_chat_copy`` - Microsoft Teams chat copied: ``[10:42] Surname, Name``, the
  error with line breaks kept or collapsed into spaces, ``(edited)``.
* ``github_issue_comment`` - a comment on a GitHub issue: "Same here on ...",
  ``<details><summary>Full log</summary>``, "Steps: 1. run ...".
* ``gitlab_snippet_description`` - a GitLab snippet / Bitbucket snippet / CI job
  trace shared as a paste: title, description and the raw log.
* ``email_to_it_helpdesk`` - an email from a non-expert to the IT help desk,
  retyping the command and copying the error, with signature and disclaimer.
* ``whatsapp_voice_note_transcript`` - a WhatsApp / Telegram voice note's automatic
  transcript of someone reading the error aloud, then the pasted text message.
* ``code_switching_message`` - a chat message mixing English with Spanish,
  Hinglish, German or Portuguese, with the command and the error verbatim.
* ``forum_reply_quote_chain`` - a Discourse / phpBB forum reply quoting an earlier
  post (``[quote="user, post:3, topic:..."]``, ``user wrote:``) holding the error.
* ``stackoverflow_question_edit`` - a Stack Overflow question with "EDIT:" /
  "UPDATE 2:" sections, command and error in different sections, code indented
  four spaces.
* ``linkedin_or_blog_rant`` - a short public post or blog paragraph about losing an
  hour to the error, quoting it inline.
* ``apple_notes_scratch`` - a personal scratch note (Apple Notes / Google Keep):
  terse bullets, "- tried ...", "- got: ...", smart quotes and dashes in the prose.
* ``sms_to_friend`` - text messages to a developer friend: lowercase, abbreviations,
  the command retyped and the error (often only its last line) pasted.
* ``meeting_transcript_otter`` - an Otter / Zoom / Meet transcript with speaker
  labels and timestamps, someone reading out the command and the error while
  sharing the screen, the chat panel's pasted error appended.
* ``jira_comment_wiki_markup`` - a Jira comment in wiki markup (``{code}``,
  ``{noformat}``, ``{quote}``, ``*bold*``, ``h3.``) with command and output.

Output: ``bench/help_phrasings_twentieth.jsonl``, one JSON object per line,
``{"file": "<toml base name>", "case": <0-based index in that file>, "style":
"<style>", "text": "<text>"}``, 1362 rows (681 cases x 2), in case order.

Determinism: styles are dealt from shuffled decks of the 16 styles (one
``random.Random`` with a fixed seed), two cards per case, so per-style counts differ
by at most one and the two rows of a case never share a style.  Every row's details
(names, hosts, paths, times, wording, layout, how much of the error is quoted) come
from its own ``random.Random`` seeded with a string made of file name, case index,
slot and style.  Only the standard library is used; rerunning the script writes a
byte-identical file.

Blind writing: this set was written without looking at how the project reads it.
The only project files read were the ``error`` and ``command`` keys of the
``[[case]]`` tables in ``bench/help_cases/*.toml`` and ``bench/help_heldout/set*.toml``
(loaded with ``tomllib``), plus, for tone, one ProactiveBench session file
(``/work/shared/data/proactivebench/sessions/code_11.json``).  No project code,
tests, docs, other bench files (other phrasing sets or their writer scripts), git
history or scoring were opened or run; public knowledge of the real formats of each
medium was the only other input.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "help_phrasings_twentieth.jsonl"

STYLES = [
    "chatgpt_prompt_paste",
    "ollama_cli_prompt",
    "slack_thread_reply",
    "teams_chat_copy",
    "github_issue_comment",
    "gitlab_snippet_description",
    "email_to_it_helpdesk",
    "whatsapp_voice_note_transcript",
    "code_switching_message",
    "forum_reply_quote_chain",
    "stackoverflow_question_edit",
    "linkedin_or_blog_rant",
    "apple_notes_scratch",
    "sms_to_friend",
    "meeting_transcript_otter",
    "jira_comment_wiki_markup",
]

DECK_SEED = "help-phrasings-twentieth/deck/v1"


# --------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------

def load_cases():
    files = sorted((BENCH / "help_cases").glob("*.toml"), key=lambda p: p.name)
    files += sorted((BENCH / "help_heldout").glob("set*.toml"), key=lambda p: p.name)
    cases = []
    for path in files:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for idx, table in enumerate(data.get("case", [])):
            cases.append((path.name, idx, table.get("command") or None, table["error"]))
    return cases


# --------------------------------------------------------------------------
# picking lines out of an error
# --------------------------------------------------------------------------

_STRONG = re.compile(
    r"(?i)(\berror\b|\berr!|\bfatal\b|^E: |panic:|exception|error\[|error:)")
_MEDIUM = re.compile(
    r"(?i)(failed|denied|not found|no such|cannot|can't|could not|couldn't|unable|"
    r"refused|invalid|unknown|missing|forbidden|not allowed|does not exist|"
    r"doesn't exist|unsupported|oomkilled|crashloopbackoff|imagepullbackoff|"
    r"errimagepull|conflict|timed out|timeout|undefined|not defined|no module|"
    r"not supported|unrecognized|no route|too open|too many|already|expired|"
    r"mismatch|incompatible|requires|is masked|segmentation fault|killed|abort|"
    r"bad |no matching|not a |unresolved|expected|unexpected|no space|"
    r"out of memory|exited|exit code|wrong|rejected|dubious|behind|diverg|"
    r"not permitted|read-only|in use|warning|is not|not installed|no rule|"
    r"no targets|stop\.|not marked|obsolete|tampered|did not match|"
    r"multiple definition|no required module|isn't allowed|aren't allowed|x509|"
    r"certificate|no entries|not meant|no installation config|not seeing messages|"
    r"deadlock|detached head)")
_BOILER = re.compile(
    r"^(\s+at |\s*File \"|collect2: error: ld returned|compilation terminated|"
    r"For more information about this error|error: could not compile|"
    r"npm (error|ERR!) A complete log|See '|Run '.*--help'|Node\.js v|\[INFO\]|"
    r"-- Configuring incomplete|See also|\s*\^|\s*~|\s*\||\s*\d+ \||"
    r"Traceback \(most recent call last\)|\d+ errors?$|Enter password:|"
    r"Reading package lists|Building dependency tree|Reading state information|"
    r"Fetching |Cloning into|From |Updating crates\.io|\s*Finished |\s*Compiling |"
    r"# \S+$|-{5,}|On branch |Note: switching|Username:|Resolving dependencies|"
    r"\S+:\d+$|<anonymous_script>|\s*(throw|raise|return) |Error\.captureStackTrace|"
    r"\s*\d+: 0x|\s*npm (error|ERR!)\s*$|To see the full stack trace|"
    r"Re-run Maven|\[Help 1\]|\s*\{$|\s*\}$|\s*[\w./*()-]+\.\w+\(.*\)\s*$|requireStack)|"
    r"make: \*\*\* \[.*Error \d+$|\[Help 1\]|error here -+\^|^\s*$")


def _score(line: str) -> int:
    s = line.strip()
    score = 0
    if re.match(r"^([\w.]+\.)?[A-Z]\w*(Error|Exception)\b:?", s):
        score += 5
    elif re.match(r"^[A-Z]\w*(::[A-Z]\w*)+: ", s):
        score += 4
    if _STRONG.search(s):
        score += 4
    if _MEDIUM.search(s):
        score += 3
    if _BOILER.search(line):
        score -= 6
    if s.startswith("hint:"):
        score -= 1
    if len(s) < 8:
        score -= 3
    if len(s) > 400:
        score -= 1
    return score


def error_lines(err: str):
    return err.rstrip().split("\n")


def key_lines(err: str, k: int = 2):
    """The k most telling lines of an error, stripped, de-duplicated, in order."""
    lines = error_lines(err)
    seen = set()
    scored = []
    for i, line in enumerate(lines):
        s = line.strip()
        if not s or s in seen:
            continue
        seen.add(s)
        scored.append((_score(line), i, s))
    best = sorted(scored, key=lambda t: (-t[0], t[1]))[:k]
    if best and len(best) > 1 and best[-1][0] < 2 <= best[0][0]:
        best = [b for b in best if b[0] >= 2]
    return [s for _, _, s in sorted(best, key=lambda t: t[1])]


def last_line(err: str) -> str:
    """The last line that carries the error (what people paste when they paste one)."""
    lines = [l for l in error_lines(err) if l.strip()]
    top = max((_score(l) for l in lines), default=0)
    for line in reversed(lines):
        if _score(line) >= max(3, top - 2):
            return line.strip()
    best = key_lines(err, 1)
    return best[0] if best else err.strip()


def head_tail(err: str, head: int, tail: int, gap: str = "...") -> str:
    lines = error_lines(err)
    if len(lines) <= head + tail + 1:
        return "\n".join(lines)
    return "\n".join(lines[:head] + [gap] + lines[-tail:])


def tail_lines(err: str, n: int) -> str:
    lines = error_lines(err)
    return "\n".join(lines[-n:])


def n_lines(err: str) -> int:
    return len(error_lines(err))


def excerpt(err: str, r: random.Random, full_bias: float = 0.7) -> str:
    """What a person pastes: usually all of it, sometimes head/tail of a long one."""
    n = n_lines(err)
    if n <= 6 or r.random() < full_bias * (1.0 if n <= 25 else 0.6):
        return err.rstrip()
    mode = r.choice(["tail", "headtail", "headtail", "fromkey"])
    if mode == "tail":
        out = tail_lines(err, r.randint(4, 9))
    elif mode == "headtail":
        out = head_tail(err, r.randint(2, 5), r.randint(3, 7), r.choice(["...", "[...]", "(...)", "…"]))
    else:
        out = ""
    key = key_lines(err, 1)
    if key and key[0] not in out:
        # people select from the line that matters downwards
        lines = error_lines(err)
        start = next(i for i, l in enumerate(lines) if l.strip() == key[0])
        start = max(0, start - r.randint(0, 2))
        stop = min(len(lines), start + r.randint(6, 14))
        out = "\n".join(lines[start:stop])
    return out


def collapse(text: str) -> str:
    """Line breaks and whitespace runs collapsed to one space (HTML chat rendering)."""
    return re.sub(r"\s+", " ", text).strip()


def indent4(text: str) -> str:
    return "\n".join(("    " + l) if l.strip() else "" for l in text.split("\n"))


def gt_quote(text: str, bare: str = ">") -> str:
    return "\n".join(("> " + l) if l.strip() else bare for l in text.split("\n"))


def hard_wrap(text: str, width: int) -> str:
    """Wrap long lines at spaces the way plain-text mail clients do."""
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            if cut <= 0:
                break
            out.append(line[:cut])
            line = line[cut + 1:]
        out.append(line)
    return "\n".join(out)


def mojibake(text: str) -> str:
    """UTF-8 bytes shown as Windows-1252, as ticket systems sometimes do."""
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
            continue
        for b in ch.encode("utf-8"):
            try:
                out.append(bytes([b]).decode("cp1252"))
            except UnicodeDecodeError:
                out.append(chr(b))
    return "".join(out)


def smart(text: str) -> str:
    """Typed prose after macOS/iOS smart punctuation."""
    text = re.sub(r"(^|[\s(\[])\"", "\\1\u201c", text)
    text = text.replace('"', "\u201d")
    text = re.sub(r"(^|[\s(\[])'", "\\1\u2018", text)
    text = text.replace("'", "\u2019")
    text = text.replace(" -- ", " \u2014 ").replace("--", "\u2014").replace("...", "\u2026")
    return text


def sh_single(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def inline(s: str, r: random.Random) -> str:
    """Quote a snippet inline: backticks unless it has backticks, then quotes."""
    if "`" in s:
        return '"' + s + '"'
    return r.choice(["`" + s + "`", "`" + s + "`", '"' + s + '"'])


def trim(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 3].rstrip() + "..."


# --------------------------------------------------------------------------
# speech (voice notes, meeting transcripts)
# --------------------------------------------------------------------------

_MISHEAR = {
    "sudo": "pseudo", "kubectl": "cube control", "nginx": "engine X", "psql": "P SQL",
    "npm": "NPM", "npx": "NPX", "json": "Jason", "yaml": "yamel", "yml": "YML",
    "gcc": "GCC", "ssh": "SSH", "scp": "SCP", "venv": "V Env", "localhost": "local host",
    "mysql": "my SQL", "postgresql": "Postgres QL", "postgres": "Postgres",
    "sqlite3": "SQLite 3", "github": "GitHub", "javac": "java C", "cmake": "C make",
    "systemctl": "system CTL", "journalctl": "journal CTL", "rustc": "rust C",
    "tsc": "TSC", "errno": "error no", "py": "pie", "js": "JS", "ts": "TS",
    "gti": "GTI", "pip": "pip", "apt": "apt", "usr": "user", "etc": "etc",
    "dev": "dev", "cd": "CD", "mkdir": "make dir", "rm": "RM", "cp": "CP",
    "tmp": "temp", "lib": "lib", "src": "source", "api": "API", "http": "HTTP",
    "https": "HTTPS", "tcp": "TCP", "ssl": "SSL", "tls": "TLS", "url": "URL",
    "cli": "CLI", "io": "IO", "os": "OS", "ld": "LD", "env": "env",
    "pyhton3": "python 3", "python3": "python 3", "jq": "JQ", "redis": "Redis",
    "docker": "Docker", "cargo": "cargo", "mvn": "MVN", "gradlew": "gradle W",
}


def speak(text: str, max_words: int = 40) -> str:
    """Roughly what speech recognition makes of someone reading text aloud."""
    s = text
    s = s.replace("://", " colon slash slash ")
    s = re.sub(r"(?<=\s)--(?=\w)", "dash dash ", s)
    s = re.sub(r"(^|(?<=\s))-(?=\w)", "dash ", s)
    s = s.replace("&&", " and ").replace("|", " pipe ").replace("/", " slash ")
    s = s.replace("\\", " backslash ").replace("_", " underscore ").replace("@", " at ")
    s = s.replace("=", " equals ").replace("~", " tilde ").replace("+", " plus ")
    s = s.replace("#", " hash ").replace("%", " percent ")
    s = re.sub(r"(?<=\w)\.(?=\w)", " dot ", s)
    s = re.sub(r"(^|(?<=\s))\.(?=\w)", "dot ", s)
    s = re.sub(r"(?<=\w):(?=\w)", " colon ", s)
    s = re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", " ", s)
    s = re.sub(r"[\"'`\u2018\u2019\u201c\u201d()\[\]{}<>*^$;!?,]", " ", s)
    s = re.sub(r"[:.](?=\s|$)", ",", s)
    s = re.sub(r"(?<=[a-z])(?=[A-Z][a-z])", " ", s)
    words = []
    for w in s.split():
        w = w.strip(",")
        if not w:
            continue
        low = w.lower()
        if low in _MISHEAR:
            words.append(_MISHEAR[low])
        elif re.fullmatch(r"[0-9a-f]{12,}", low):
            words.append("some long hash")
        else:
            words.append(w if w.isupper() and len(w) <= 5 else low)
    if len(words) > max_words:
        words = words[:max_words] + ["and", "then", "a", "bunch", "more", "stuff"]
    out = " ".join(words)
    out = re.sub(r"(some long hash ?)+", "some long hash ", out).strip()
    return out


# --------------------------------------------------------------------------
# people, places, tools
# --------------------------------------------------------------------------

PEOPLE = [
    ("Ana", "Lopez"), ("Marco", "Rossi"), ("Priya", "Sharma"), ("Jonas", "Meyer"),
    ("Chen", "Wei"), ("Fatima", "Okafor"), ("Lukas", "Novak"), ("Sofia", "Costa"),
    ("Tom", "Becker"), ("Aisha", "Rahman"), ("Kenji", "Watanabe"), ("Emma", "Johansson"),
    ("Diego", "Fernandez"), ("Hannah", "Schmidt"), ("Ravi", "Iyer"), ("Olga", "Petrova"),
    ("Sam", "O'Connor"), ("Leila", "Haddad"), ("Pieter", "de Vries"), ("Grace", "Mensah"),
    ("Mateo", "Silva"), ("Julia", "Nowak"), ("Arjun", "Mehta"), ("Clara", "Dubois"),
    ("Nina", "Lindqvist"), ("Omar", "Farouk"), ("Beatriz", "Santos"), ("Felix", "Wagner"),
    ("Yuki", "Tanaka"), ("Daniel", "Kim"), ("Zoe", "Martin"), ("Ibrahim", "Diallo"),
    ("Lena", "Fischer"), ("Carlos", "Ruiz"), ("Meera", "Nair"), ("Erik", "Larsen"),
]

HANDLES = [
    "ana_l", "mrossi", "priya.s", "jmeyer", "cwei", "fokafor", "lnovak", "sofia_c",
    "tbecker", "aisha.r", "kenji_w", "emmaj", "dfernandez", "hschmidt", "ravi_iyer",
    "opetrova", "samoc", "leila_h", "pdevries", "gmensah", "msilva", "jnowak",
    "arjunm", "cdubois", "nlindqvist", "ofarouk", "bia.santos", "fwagner",
    "ytanaka", "dkim", "zmartin", "idiallo", "lfischer", "cruiz", "meera.n", "elarsen",
    "bitflipper", "null_ptr", "tinkerer42", "quietcoder", "debian_dan", "rustacean_r",
    "pythonista_p", "yaml_hater", "k8s_kat", "segfault_sally",
]

HOSTS = ["thinkpad", "xps13", "devbox", "ws-0421", "pop-os", "ubuntu-vm", "t480",
         "framework", "desktop", "nuc", "latitude", "ideapad", "buildbox", "lab-pc"]

DISTROS = ["Ubuntu 24.04", "Ubuntu 22.04", "Debian 12", "WSL2 (Ubuntu 22.04)",
           "Pop!_OS 22.04", "Linux Mint 21.3", "Ubuntu 24.04 LTS", "Debian bookworm",
           "WSL2 Ubuntu 24.04", "Kubuntu 24.04"]

PROJECTS = ["shop", "blog", "api", "webapp", "inventory", "reports", "dashboard",
            "scraper", "notes", "billing", "portfolio", "tools", "infra", "bot"]

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
          "Nov", "Dec"]
MONTHS_LONG = ["January", "February", "March", "April", "May", "June", "July",
               "August", "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]

FAMILY_BY_TOOL = {
    "python3": "python", "python": "python", "pyhton3": "python", "python3.12": "python",
    "pip": "pip", "pip3": "pip", "node": "node", "npm": "npm", "npx": "ts", "tsc": "ts",
    "yarn": "npm", "cargo": "rust", "rustc": "rust", "go": "go", "javac": "java",
    "java": "java", "mvn": "java", "./mvnw": "java", "./gradlew": "java", "gradle": "java",
    "keytool": "java", "docker": "docker", "docker-compose": "docker", "kubectl": "k8s",
    "helm": "k8s", "psql": "db", "mysql": "db", "sqlite3": "db", "pg_dump": "db",
    "redis-cli": "db", "ssh": "ssh", "scp": "ssh", "ssh-add": "ssh", "ssh-copy-id": "ssh",
    "rsync": "ssh", "systemctl": "systemd", "journalctl": "systemd",
    "systemd-analyze": "systemd", "nginx": "web", "apache2ctl": "web", "gcc": "c",
    "g++": "c", "make": "c", "cmake": "c", "pkg-config": "c", "tar": "c", "git": "git",
    "gti": "shell", "curl": "tls", "openssl": "tls", "ruby": "ruby", "bundle": "ruby",
    "gem": "ruby", "rbenv": "ruby", "bin/rails": "ruby", "rails": "ruby", "jq": "shell",
    "apt": "apt", "apt-get": "apt",
}

GOALS = {
    "python": ["run a small script", "get my script working", "run the thing I wrote yesterday",
               "test a script for work", "finish a little automation"],
    "pip": ["install a package", "set up the requirements", "get the dependencies in",
            "install one library"],
    "node": ["start the app", "run my node script", "get the server up"],
    "npm": ["install the frontend deps", "get the build going", "start the dev server"],
    "ts": ["compile the typescript", "get tsc to pass", "build the TS project"],
    "rust": ["build my rust project", "get cargo to build", "compile a tiny rust tool"],
    "go": ["build the go service", "run my go program", "get the go tool running"],
    "java": ["compile the java project", "build the jar", "run the java app"],
    "docker": ["start the containers", "get docker going", "run the image locally"],
    "k8s": ["check the pods", "deploy to the cluster", "see what the cluster is doing"],
    "db": ["connect to the database", "run a query", "load some data into the db"],
    "ssh": ["get onto the server", "copy files to the server", "log into the box"],
    "systemd": ["get the service running", "restart the service", "set up a service"],
    "web": ["reload the web server", "get the site up"],
    "c": ["build a small C program", "compile the project", "build from source"],
    "git": ["sync my repo", "push my changes", "sort out my branch"],
    "tls": ["call the internal API", "get the certificate stuff working",
            "hit our https endpoint"],
    "ruby": ["get the ruby app running", "install the gems", "start the rails app"],
    "apt": ["install a package", "install something with apt"],
    "shell": ["run a script", "do something simple in the terminal", "get this working"],
}

LANG_TAGS = {
    "python": ["python", "python-3.x"], "pip": ["python", "pip"], "node": ["node.js", "javascript"],
    "npm": ["npm", "node.js"], "ts": ["typescript", "node.js"], "rust": ["rust", "rust-cargo"],
    "go": ["go"], "java": ["java"], "docker": ["docker"], "k8s": ["kubernetes", "kubectl"],
    "db": ["database"], "ssh": ["ssh"], "systemd": ["systemd", "linux"], "web": ["nginx"],
    "c": ["c", "gcc"], "git": ["git"], "tls": ["ssl", "curl"], "ruby": ["ruby"],
    "apt": ["apt", "ubuntu"], "shell": ["bash", "linux"],
}


class Case:
    def __init__(self, fname, idx, cmd, err):
        self.file = fname
        self.idx = idx
        self.cmd = cmd
        self.err = err.strip("\n").rstrip()
        self.lines = error_lines(self.err)
        self.key = key_lines(self.err, 2)
        self.key1 = key_lines(self.err, 1)[0] if self.lines else self.err
        self.last = last_line(self.err)
        self.family = self._family()
        m = re.search(r"/home/([a-z][\w-]*)/", self.err)
        self.user = m.group(1) if m else None
        self.proj = self._proj()
        self.guessed = self._guess_cmd()

    def _tool(self):
        if not self.cmd:
            return None
        words = self.cmd.split()
        while words and (words[0] == "sudo" or re.match(r"^[A-Z_]+=", words[0])):
            words = words[1:]
        if words and words[0] == "cd" and "&&" in self.cmd:
            words = self.cmd.split("&&", 1)[1].split()
        return words[0] if words else None

    def _family(self):
        tool = self._tool()
        if tool in FAMILY_BY_TOOL:
            fam = FAMILY_BY_TOOL[tool]
            if fam == "git" and "Permission denied (publickey)" in self.err:
                return "ssh"
            return fam
        if tool and tool.startswith("./"):
            return "shell"
        e = self.err
        if "Traceback" in e or re.search(r"^\w*Error: ", e, re.M):
            return "python"
        return "shell"

    def _proj(self):
        m = re.search(r"/home/[\w-]+/(?:projects/|code/)?([\w.-]+)/", self.err)
        if m and m.group(1) not in (".ssh", ".npm", ".cargo", ".rbenv", ".nvm", ".local",
                                    "Downloads", ".config", ".venv", "backup"):
            return m.group(1)
        return None

    def _guess_cmd(self):
        if self.cmd:
            return None
        m = re.search(r'File "(/home/[^"]+\.py)"', self.err)
        if m:
            path = m.group(1)
            return "python3 " + path.rsplit("/", 1)[1]
        return None

    def tool(self):
        return self._tool()


class Row:
    """Per-row random details."""

    def __init__(self, case: Case, slot: int, style: str):
        self.c = case
        self.r = random.Random(f"{case.file}|{case.idx}|{slot}|{style}")
        r = self.r
        self.first, self.last = r.choice(PEOPLE)
        while True:
            f2, l2 = r.choice(PEOPLE)
            if f2 != self.first:
                break
        self.f2, self.l2 = f2, l2
        self.handle = r.choice(HANDLES)
        self.handle2 = r.choice([h for h in HANDLES if h != self.handle])
        self.host = r.choice(HOSTS)
        self.distro = r.choice(DISTROS)
        self.user = case.user or r.choice(["dev", self.first.lower(), (self.first[0] + self.last.split()[-1]).lower().replace("'", "")])
        self.proj = case.proj or r.choice(PROJECTS)
        self.goal = r.choice(GOALS.get(case.family, GOALS["shell"]))
        self.hour = r.randint(8, 18)
        self.minute = r.randint(0, 59)
        self.month = r.randint(0, 11)
        self.day = r.randint(1, 28)
        self.year = r.choice([2024, 2025, 2025, 2026])
        self.use_guess = r.random() < 0.5

    # time helpers
    def t24(self, add=0):
        m = self.minute + add
        return f"{(self.hour + m // 60) % 24:02d}:{m % 60:02d}"

    def t12(self, add=0, space=True):
        m = self.minute + add
        h = (self.hour + m // 60) % 24
        suf = "AM" if h < 12 else "PM"
        h12 = h % 12 or 12
        return f"{h12}:{m % 60:02d}{' ' if space else ''}{suf}"

    def tsec(self, add=0):
        total = self.hour * 3600 + self.minute * 60 + add
        return f"{total // 3600 % 24:02d}:{total // 60 % 60:02d}:{total % 60:02d}"

    # command helpers
    def cmd(self):
        if self.c.cmd:
            return self.c.cmd
        return self.c.guessed if self.use_guess else None

    def prompt(self):
        """A shell prompt line for the command, matching the shell in the error."""
        c, r = self.c, self.r
        cmd = self.cmd()
        if not cmd:
            return None
        zsh = c.err.startswith("zsh:")
        cwd = "~" if cmd.startswith("cd ") or (not c.cmd and not c.proj) else "~/" + self.proj
        kind = r.random()
        if zsh:
            return r.choice([f"% {cmd}", f"\u276f {cmd}", f"{self.user}@{self.host} {cwd.split('/')[-1]} % {cmd}"])
        if kind < 0.35:
            return f"$ {cmd}"
        if kind < 0.8:
            return f"{self.user}@{self.host}:{cwd}$ {cmd}"
        if kind < 0.9:
            return f"({'.venv' if c.family in ('python', 'pip') else 'base'}) {self.user}@{self.host}:{cwd}$ {cmd}"
        return f"\u279c  {cwd.split('/')[-1]} git:(main) {cmd}" if c.family == "git" else f"[{self.user}@{self.host} {cwd.split('/')[-1]}]$ {cmd}"

    def term(self, text=None, with_prompt=True, trailing=False):
        """A terminal copy: prompt + command, output, maybe the next prompt."""
        out = text if text is not None else self.c.err
        p = self.prompt() if with_prompt else None
        parts = [p] if p else []
        parts.append(out)
        if trailing and p and p.startswith(self.user + "@"):
            parts.append(p.split("$ ")[0] + "$ ")
        return "\n".join(parts)


def pick(r, *options):
    return r.choice(options)


# --------------------------------------------------------------------------
# 1. chatgpt_prompt_paste
# --------------------------------------------------------------------------

def s_chatgpt(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    layout = r.randrange(6)
    q = r.choice(["why does this happen", "fix?", "what does this mean", "how do i fix this",
                  "why??", "help", "whats wrong here", "what am I doing wrong",
                  "can you explain this error", "how to solve"])
    if layout == 0:
        body = w.term(excerpt(c.err, r, 0.85), trailing=r.random() < 0.3)
        return f"{q}\n\n{body}" if r.random() < 0.6 else f"{body}\n\n{q}"
    if layout == 1:
        # unclosed fence
        body = w.term(excerpt(c.err, r, 0.85))
        return r.choice([f"{q}\n```\n{body}\n", f"```\n{body}\n\n{q}", f"```bash\n{body}\n"])
    if layout == 2:
        # only the error
        tail = r.choice(["what do I do", "what do i do??", "what do I do now", "wtf is this", "?"])
        return f"{excerpt(c.err, r, 0.8)}\n\n{tail}" if r.random() < 0.7 else f"{tail}\n{excerpt(c.err, r, 0.8)}"
    if layout == 3:
        where = f"on {w.distro}" if r.random() < 0.6 else "on my laptop"
        if cmd:
            intro = r.choice([
                f"I'm trying to {w.goal} {where}. When I run `{cmd}` I get this:",
                f"im trying to {w.goal} {where} and `{cmd}` gives me this error",
                f"I am new to this. I typed {cmd} and got the following output:",
                f"Running `{cmd}` in ~/{w.proj} {where} fails with:",
            ])
        else:
            intro = r.choice([
                f"I'm trying to {w.goal} {where} and it crashes with this:",
                f"got this when I ran my code {where}:",
            ])
        fence_close = r.random() < 0.6
        tried = r.choice(["", "I already restarted the terminal. ", "Tried googling but nothing matches exactly. ",
                          "Reinstalling didn't help. ", ""])
        ask = r.choice(["What am I missing?", "How do I fix it?", "What's the actual problem here?",
                        "Please give me the exact commands to fix it.", "Is this something on my machine?"])
        block = f"```\n{excerpt(c.err, r, 0.8)}\n" + ("```\n" if fence_close else "")
        return f"{intro}\n\n{block}\n{tried}{ask}".rstrip()
    if layout == 4:
        lang = {"python": "python", "pip": "python", "node": "node", "npm": "node", "ts": "typescript",
                "rust": "rust", "go": "go", "java": "java", "ruby": "ruby"}.get(c.family, "linux")
        pre = r.choice([f"explain this error like I'm new to {lang}:",
                        f"You are a senior {lang} developer. Explain the error below and give me the fix.",
                        "Help me fix this error:", "short answer pls, what's the fix:"])
        parts = [pre, ""]
        if cmd and r.random() < 0.75:
            parts.append(r.choice([f"command: {cmd}", f"cmd: `{cmd}`", f"I ran: {cmd}", f"$ {cmd}"]))
        parts.append(r.choice(["output:", "error:", ""]) )
        parts.append(excerpt(c.err, r, 0.8))
        return "\n".join(p for p in parts if p is not None).replace("\n\n\n", "\n\n")
    # layout 5: sentence with the key line pasted inline, then maybe more
    lead = r.choice(["getting", "keep getting", "I get", "why am i getting"])
    k = c.key1
    cmd_part = f" when I run {cmd}" if cmd else ""
    s = f"{lead} \"{k}\"{cmd_part}"
    if r.random() < 0.6 and n_lines(c.err) > 1:
        s += r.choice([". full output:\n\n", "\n\nfull thing:\n```\n", "\nhere's everything it printed:\n\n"]) + excerpt(c.err, r, 0.75)
    else:
        s += r.choice(["", "?", " - any idea?", ". what does it want from me"])
    return s


# --------------------------------------------------------------------------
# 2. ollama_cli_prompt
# --------------------------------------------------------------------------

OLLAMA_MODELS = ["llama3.1", "llama3.2", "qwen2.5-coder:7b", "mistral", "deepseek-coder-v2",
                 "codellama:13b", "gemma2:9b", "phi3", "qwen2.5:14b", "llama3.1:8b"]
LLM_MODELS = ["mistral", "gpt-4o-mini", "llama3.2", "claude-3.5-haiku", "gemini-1.5-flash",
              "qwen2.5-coder", "4o-mini"]


def s_ollama(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    model = r.choice(OLLAMA_MODELS)
    layout = r.randrange(6)
    shp = f"{w.user}@{w.host}:~$ " if r.random() < 0.5 else "$ "
    q = r.choice(["why does this fail and how do i fix it?", "what's wrong here?",
                  "explain this error", "how do I fix this", "what does this error mean?",
                  "fix this please"])
    if layout == 0:
        body = []
        if r.random() < 0.5:
            body.append(q)
        if cmd:
            body.append(r.choice([f"I ran `{cmd}` and got:", f"$ {cmd}", f"command: {cmd}"]))
        body.extend(excerpt(c.err, r, 0.85).split("\n"))
        if not body or body[0] != q:
            body.append(q)
        lines = [f'>>> """{body[0]}'] + [f"... {l}" if l else "... " for l in body[1:]] + ['... """']
        return f"{shp}ollama run {model}\n" + "\n".join(lines)
    if layout == 1:
        intro = f"{shp}ollama run {model}\n" if r.random() < 0.7 else ""
        ask = f"i ran {cmd} and got " if cmd else "got "
        return f'{intro}>>> {ask}"{c.key1}" {q}'
    if layout == 2:
        text = f"why does `{cmd}` fail with: {chr(10).join(c.key)}" if cmd else f"{q}\n{chr(10).join(c.key)}"
        if r.random() < 0.5:
            text = f"{q}\n\n$ {cmd}\n{excerpt(c.err, r, 0.8)}" if cmd else f"{q}\n\n{excerpt(c.err, r, 0.8)}"
        m = r.choice(LLM_MODELS)
        return f"{shp}llm -m {m} {sh_single(text)}"
    if layout == 3:
        fname = r.choice(["err.log", "out.txt", "build.log", "error.txt", "/tmp/err"])
        m = r.choice(LLM_MODELS)
        run = cmd or w.c.guessed or "python3 main.py"
        return (f"{shp}{run} 2>&1 | tee {fname}\n{excerpt(c.err, r, 0.85)}\n"
                f"{shp}cat {fname} | llm -m {m} -s {sh_single(r.choice(['explain this error and how to fix it', 'what is wrong and what command fixes it', 'be brief. root cause + fix']))}")
    if layout == 4:
        m = r.choice(LLM_MODELS)
        lines = [f"{shp}llm chat -m {m}", f"Chatting with {m}", "Type 'exit' or 'quit' to exit",
                 "Type '!multi' to enter multiple lines, then '!end' to finish",
                 "Type '!edit' to open your default editor and modify the prompt", "> !multi"]
        if cmd:
            lines.append(f"{q} this is what I ran: {cmd}")
        else:
            lines.append(q)
        lines.extend(excerpt(c.err, r, 0.85).split("\n"))
        lines.append("!end")
        return "\n".join(lines)
    # layout 5: ollama with $(cat) substitution and the file shown before
    m = model
    errf = r.choice(["err.txt", "log.txt", "out.log"])
    first = f"{shp}{cmd} 2> {errf}\n" if cmd else ""
    return (f"{first}{shp}cat {errf}\n{excerpt(c.err, r, 0.9)}\n"
            f"{shp}ollama run {m} \"{q} $(cat {errf})\"")


# --------------------------------------------------------------------------
# 3. slack_thread_reply
# --------------------------------------------------------------------------

def _slack_name(w: Row, second=False):
    f, l = (w.f2, w.l2) if second else (w.first, w.last)
    return w.r.choice([f"{f} {l}", f"{f}", f"{f.lower()}.{l.lower().replace(' ', '')}", f"{f} {l[0]}."])


def _slack_head(w: Row, name, t):
    return w.r.choice([f"{name}  {t}", f"{name}\n{t}", f"{name} [{t}]", f"{name}  {t}"])


def s_slack(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    me = _slack_name(w)
    you = _slack_name(w, True)
    ch = r.choice(["#dev-help", "#engineering", "#help-infra", "#backend", "#it-support", "#devops",
                   "#team-platform", "#random-tech"])
    t = [w.t12(i) for i in (0, 2, 3, 5, 7)]
    layout = r.randrange(6)
    opener = r.choice(["anyone seen this before?", "hey, quick one -", "sorry to bug, but",
                       "has anyone hit this?", "stuck on this since lunch :sweat_smile:",
                       "morning! getting this now:", "is it just me or"])
    ask_cmd = r.choice(["what command are you running?", "which command exactly?",
                        "what did you run?", "what's the exact command?", "what did you type to get that?"])
    reply_tail = r.choice(["", " :pray:", " from the repo root", " in the project folder", ""])
    head = ""
    if r.random() < 0.5:
        head = r.choice([f"Thread in {ch}\n", f"{ch}\n", f":thread: Thread in {ch}\n"])
    if layout == 0 or (layout == 1 and not cmd):
        msg1 = f"{opener}\n```\n{excerpt(c.err, r, 0.8)}\n```"
        reps = r.choice(["2 replies", "3 replies", ":thread: 2 replies", "View thread"])
        out = [head + _slack_head(w, me, t[0]), msg1, reps, _slack_head(w, you, t[1]), ask_cmd]
        if cmd:
            out += [_slack_head(w, me, t[2]), f"`{cmd}`{reply_tail}"]
        else:
            out += [_slack_head(w, me, t[2]), r.choice(["just running the script from vscode", "just hitting run in the IDE", "python3 on the file, nothing fancy"])]
        return "\n".join(out)
    if layout == 1:
        msg1 = f"{opener}\n" + gt_quote("\n".join(c.key))
        out = [head + _slack_head(w, me, t[0]), msg1, r.choice([":thread: 3 replies", "3 replies", "Last reply today"]),
               _slack_head(w, you, t[1]), r.choice(["can you paste the full output? and the command", "full output + command pls",
                                                     "need more context, what did you run?"]),
               _slack_head(w, me, t[3]), f"```\n$ {cmd}\n{excerpt(c.err, r, 0.85)}\n```"]
        if r.random() < 0.4:
            out[-1] += " (edited)"
        return "\n".join(out)
    if layout == 2:
        # whole error quoted line by line
        msg1 = r.choice([f"{opener}", f"running `{cmd}` and getting:" if cmd else "getting this:"])
        out = [head + _slack_head(w, me, t[0]), msg1, gt_quote(excerpt(c.err, r, 0.7))]
        out += [r.choice([":eyes: 1", ":eyes: 2  :+1: 1", ""])]
        if cmd and "running" in msg1:
            qa = r.choice([("on which branch?", r.choice(["main, freshly pulled", "my feature branch"])),
                           ("locally or on the server?", r.choice([f"locally, {w.distro}", "locally"])),
                           ("did this work yesterday?", r.choice(["yep, broke this morning", "first time I try it"]))])
            out += [_slack_head(w, you, t[2]), qa[0], _slack_head(w, me, t[3]), qa[1]]
        else:
            out += [_slack_head(w, you, t[2]), ask_cmd]
            if cmd:
                out += [_slack_head(w, me, t[3]), r.choice([f"just `{cmd}`", f"`{cmd}`{reply_tail}", f"{cmd} - locally, {w.distro}"])]
            else:
                out += [_slack_head(w, me, t[3]), r.choice(["just running the file from vscode", "python3 on the script, nothing else"])]
        return "\n".join(o for o in out if o != "")
    if layout == 3:
        # reply view: colleague's question is the parent, person replies in thread
        par = r.choice(["Did anyone get the new setup working yet?", "How's the migration going?",
                        f"PSA: please pull main before you start today", f"Anyone free to pair on {w.proj} today?"])
        out = [head + _slack_head(w, you, t[0]), par, r.choice([":thread: 4 replies", "4 replies"]),
               _slack_head(w, me, t[2]),
               r.choice(["not quite, I get this:", "mine blows up :upside_down_face:", "kind of. stuck on this:"]) +
               f"\n```\n{excerpt(c.err, r, 0.8)}\n```",
               _slack_head(w, you, t[3]), ask_cmd]
        if cmd:
            out += [_slack_head(w, me, t[4]), f"`{cmd}`"]
        return "\n".join(out)
    if layout == 4:
        # short: command mentioned inline first, key line quoted, colleague asks for full output
        first = f"`{cmd}` fails for me with" if cmd else "my script dies with"
        out = [head + _slack_head(w, me, t[0]), f"{first}\n> {c.key1}",
               _slack_head(w, you, t[1]), r.choice(["paste the whole thing?", "full log?", "can you post the whole output"]),
               _slack_head(w, me, t[2]), f"```{excerpt(c.err, r, 0.9)}```"]
        return "\n".join(out)
    # layout 5: message with also-sent-to-channel marker
    also = r.choice(["Also sent to the channel", "also sent to #" + ch.lstrip("#"), "replied to a thread:"])
    if cmd:
        qa = r.choice([("hmm what OS are you on?", r.choice([w.distro, f"{w.distro}, nothing special"])),
                       ("did it work before you pulled?", r.choice(["yes, worked on friday", "no idea, first time running it"])),
                       ("did you run it with sudo?", r.choice(["no, just my user", "nope"]))])
    else:
        qa = r.choice([("what are you running exactly?", "just the run button in vscode"),
                       ("what did you run?", "python3 on the file, nothing fancy")])
    body = f"same here :disappointed: " + (f"`{cmd}` gives\n" if cmd else "I get\n")
    return "\n".join([head + _slack_head(w, me, t[1]), also, body + f"```\n{excerpt(c.err, r, 0.8)}\n```",
                      _slack_head(w, you, t[3]), qa[0]] + [_slack_head(w, me, t[4]), qa[1]])


# --------------------------------------------------------------------------
# 4. teams_chat_copy
# --------------------------------------------------------------------------

def s_teams(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    me = f"{w.last}, {w.first}"
    you = f"{w.l2}, {w.f2}"
    if r.random() < 0.25:
        me = f"{w.first} {w.last}"
        you = f"{w.f2} {w.l2}"
    if r.random() < 0.2:
        me += r.choice([" (External)", " (Guest)", ""])
    t = [w.t24(i) for i in (0, 1, 3, 4, 6)]
    if r.random() < 0.4:
        t = [w.t12(i) for i in (0, 1, 3, 4, 6)]
    edited = r.choice(["", "", " (edited)", "\n(edited)"])
    layout = r.randrange(5)
    collapsed = collapse(excerpt(c.err, r, 0.9))
    if layout == 0:
        msg = r.choice(["Hi, sorry to bother. I get this error:", "hey, getting this when I run it:",
                        "Hi! Do you know this one?", "morning, this keeps popping up:"])
        out = [f"[{t[0]}] {me}", f"{msg} {collapsed}{edited}"]
        out += [f"[{t[1]}] {you}", r.choice(["which command did you run?", "What did you type exactly?", "can you send the command?"])]
        if cmd:
            out += [f"[{t[2]}] {me}", f"{cmd}"]
        return "\n".join(out)
    if layout == 1:
        # line breaks kept (pasted into a code snippet)
        intro = f"when I do {cmd} I get" if cmd else "I get this when I start it"
        out = [f"[{t[0]}] {me}", intro, excerpt(c.err, r, 0.85) + edited,
               f"[{t[2]}] {you}", r.choice(["looking", "give me 5 min", "👀", "can you share screen?", "did you pull the latest?"])]
        return "\n".join(out)
    if layout == 2:
        # new Teams copy: name line then time line
        out = [f"{w.first} {w.last}", t[0], r.choice(["Hi, can you help me with this?", "Quick question"]),
               f"{w.first} {w.last}", t[1], collapsed]
        if cmd:
            out += [f"{w.first} {w.last}", t[1], r.choice([f"The command is: {cmd}", f"command was {cmd}", f"this is after {cmd}"])]
        out += [f"{w.f2} {w.l2}", t[3], r.choice(["Ok, checking", "I'll call you", "Hmm, never seen that one"])]
        return "\n".join(out)
    if layout == 3:
        # reply quoting an earlier message (Teams quote card collapses and truncates)
        q = trim(collapse(c.err), r.randint(60, 120))
        first = r.choice(["still the same:", "tried again, now it says", "nope, same error:", "this again 😩"])
        out = [f"[{t[0]}] {me}", first + " " + (collapse(c.err) if r.random() < 0.6 else "\n" + c.err) + edited,
               f"[{t[2]}] {you}", r.choice([me, f"{me} {t[0]}"]), q,
               r.choice(["which command do you run there?", "is that after the update? what command?",
                         "what did you type before that?"]) if cmd else r.choice(["is that after the update?", "did you pull main?"])]
        if cmd:
            out += [f"[{t[3]}] {me}", r.choice([f"I run {cmd}", f"command: {cmd}", f"just {cmd}"])]
        else:
            out += [f"[{t[3]}] {me}", r.choice(["yes", "yes, pulled this morning", "no, just started it"])]
        return "\n".join(out)
    # layout 4: chat with the key line, then full paste
    out = [f"[{t[0]}] {me}", (f"{cmd} → " if cmd else "") + c.key1 + r.choice([" ?", " 😕", "", " - any idea?"])]
    out += [f"[{t[1]}] {you}", r.choice(["send the whole output pls", "full error?", "can you paste everything?"])]
    out += [f"[{t[2]}] {me}", collapsed if r.random() < 0.5 else c.err]
    if r.random() < 0.5:
        out[-1] += edited
    return "\n".join(out)


# --------------------------------------------------------------------------
# 5. github_issue_comment
# --------------------------------------------------------------------------

def _versions(w: Row):
    c, r = w.c, w.r
    fam = c.family
    v = {
        "python": f"Python 3.{r.choice([10, 11, 12])}.{r.randint(1, 9)}",
        "pip": f"pip {r.choice(['23.0.1', '24.0', '24.2', '24.3.1'])}",
        "node": f"node v{r.choice(['18.19.1', '20.11.0', '20.18.0', '22.3.0'])}",
        "npm": f"npm {r.choice(['9.2.0', '10.2.4', '10.8.2'])}",
        "ts": f"typescript {r.choice(['5.3.3', '5.4.5', '5.6.2'])}",
        "rust": f"rustc {r.choice(['1.75.0', '1.79.0', '1.83.0'])}",
        "go": f"go{r.choice(['1.21.6', '1.22.2', '1.23.4'])}",
        "java": f"openjdk {r.choice(['17.0.9', '21.0.2', '11.0.21'])}",
        "docker": f"Docker {r.choice(['24.0.7', '26.1.3', '27.3.1'])}",
        "k8s": f"kubectl {r.choice(['v1.29.2', 'v1.30.1', 'v1.31.0'])}",
        "ruby": f"ruby {r.choice(['3.1.2', '3.2.2', '3.3.0'])}",
    }.get(fam)
    return v


def s_github(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    v = _versions(w)
    env = w.distro + (f", {v}" if v else "")
    layout = r.randrange(6)
    fence = r.choice(["```", "```", "```console", "```text", "```shell"])
    if layout == 0:
        intro = r.choice([f"Same here on {env}.", f"Same issue on {env}", f"Can confirm on {env}.",
                          f"+1, also happening on {env}"])
        extra = f" Running `{cmd}`" + r.choice([" fails immediately.", " gives the error below.", ":"]) if cmd else ""
        log = w.term(excerpt(c.err, r, 0.95)) if cmd else c.err
        return (f"{intro}{extra}\n\n<details><summary>{r.choice(['Full log', 'Full output', 'Log', 'output'])}</summary>\n\n"
                f"{fence}\n{log}\n```\n\n</details>")
    if layout == 1:
        steps = ["Steps:", f"1. `cd {w.proj}`" if r.random() < 0.5 else "1. clone the repo"]
        if cmd:
            steps.append(f"2. run `{cmd}`")
        else:
            steps.append("2. run the script")
        steps.append("")
        steps.append(r.choice(["Result:", "Actual:", "What happens:"]))
        steps.append("")
        steps.append(f"{fence}\n{excerpt(c.err, r, 0.85)}\n```")
        steps.append("")
        steps.append(r.choice([f"Environment: {env}", f"OS: {w.distro}", f"{env}, fresh install"]))
        return "\n".join(steps)
    if layout == 2:
        k = c.key1
        top = r.choice(["Any update on this? Still getting", "Still seeing", "This is still happening. I get"])
        s = f"{top} {inline(k, r)} on {env}"
        if cmd:
            s += f" with `{cmd}`"
        s += "."
        if n_lines(c.err) > 1 and r.random() < 0.8:
            s += f"\n\n<details>\n<summary>output</summary>\n\n{fence}\n{excerpt(c.err, r, 0.9)}\n```\n</details>"
        return s
    if layout == 3:
        other = r.choice(HANDLES)
        q = r.choice(["Did you try a clean install?", "Can't reproduce here, works for me.",
                      "Should be fixed in the latest release.", "Please share the exact command and full output."])
        body = f"> {q}\n\n"
        body += r.choice([f"@{other} yes, still the same. ", f"@{other} not for me, ", "Still broken for me. "])
        if cmd:
            body += f"`{cmd}`:\n\n"
        else:
            body += "Output:\n\n"
        body += f"{fence}\n{excerpt(c.err, r, 0.85)}\n```"
        return body
    if layout == 4:
        # bare paste with a one-liner, no language hint, no closing remarks
        s = r.choice(["I have the same problem.", "Same.", "Getting exactly this:", "hitting this too"])
        if cmd:
            s += f"\n\n{fence}\n$ {cmd}\n{excerpt(c.err, r, 0.9)}\n```"
        else:
            s += f"\n\n{fence}\n{excerpt(c.err, r, 0.9)}\n```"
        if r.random() < 0.4:
            s += "\n\n" + r.choice(["Edit: restarting didn't help.", "Happy to provide more info.",
                                    "Tried on two machines, same result.", ":("])
        return s
    # layout 5: first and last lines inline, with details
    ls = error_lines(c.err)
    if len(ls) > 3:
        bit = f"{fence}\n{ls[0]}\n...\n{chr(10).join(ls[-2:])}\n```"
    else:
        bit = f"{fence}\n{c.err}\n```"
    s = f"For me it fails at " + (f"`{cmd}`" if cmd else "startup") + f", {w.distro}:\n\n{bit}"
    if len(ls) > 3:
        s += f"\n\n<details><summary>Full log</summary>\n\n```\n{c.err}\n```\n</details>"
    return s


# --------------------------------------------------------------------------
# 6. gitlab_snippet_description
# --------------------------------------------------------------------------

def _ansi(line: str) -> str:
    return f"\x1b[0K\x1b[32;1m{line}\x1b[0;m"


def s_gitlab(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    layout = r.randrange(5)
    short = trim(c.key1, 70)
    title_cmd = cmd.split("&&")[0].strip() if cmd else "script"
    title = r.choice([f"{title_cmd} fails: {short}", f"{title_cmd} error", f"{w.proj}: {short}",
                      f"log for {w.f2}", f"{title_cmd} output ({w.distro})"])
    fname = r.choice(["output.txt", "error.log", "build.log", "log.txt", "terminal.txt", "snippetfile1.txt"])
    log = w.term() if cmd and r.random() < 0.75 else c.err
    if layout == 0:
        desc = r.choice([f"Output of `{cmd}` on my machine, for {w.f2}." if cmd else f"Traceback for {w.f2}.",
                         f"{w.goal.capitalize()} fails, see log." ,
                         f"Fails every time since yesterday. Command: `{cmd}`" if cmd else "Fails every time since yesterday."])
        return (f"Title: {title}\nDescription: {desc}\nVisibility: {r.choice(['Internal', 'Private', 'Public'])}\n\n"
                f"{fname}\n{log}")
    if layout == 1:
        sid = r.choice(["AbC12d", "xK9qz", "p4Lm7", "R2d2c", "Zz81y"])
        return (f"{title}\nSnippet {r.choice(['created', 'updated'])} by {w.first} {w.last}\n"
                f"bitbucket.org/{w.proj}-team/workspace/snippets/{sid}\n\n"
                f"{r.choice(['Here is the raw output:', 'raw log below', ''])}\n\n{fname}\n{log}").replace("\n\n\n", "\n\n")
    if layout == 2:
        # CI job trace with ANSI codes left in
        img = {"python": "python:3.12-slim", "pip": "python:3.12", "node": "node:20", "npm": "node:20",
               "ts": "node:20", "rust": "rust:1.83", "go": "golang:1.23", "java": "maven:3.9-eclipse-temurin-21",
               "ruby": "ruby:3.3", "c": "gcc:14"}.get(c.family, "ubuntu:24.04")
        rv = r.choice(["16.11.1", "17.2.0", "17.5.3"])
        lines = [
            f"Running with gitlab-runner {rv} (a1b2c3d4)",
            f"  on {r.choice(['docker-runner-1', 'shared-runner-03', 'ci-build-2'])} {r.choice(['xY7zq9', 'Tq3mK2', 'p0Lz4A'])}, system ID: s_{r.randrange(16**12):012x}",
            "Preparing the \"docker\" executor",
            f"Using docker image {img} ...",
            "Getting source from Git repository",
            "Executing \"step_script\" stage of the job script",
        ]
        trace = "\n".join(_ansi(l) if i in (0, 2, 4, 5) else l for i, l in enumerate(lines))
        run = cmd or w.c.guessed or "python3 main.py"
        trace += "\n" + _ansi(f"$ {run}") + "\n" + c.err + "\n" + "\x1b[0K\x1b[31;1mERROR: Job failed: exit code 1\x1b[0;m"
        desc = r.choice(["Raw job log from the failing pipeline", "job trace, fails on every run since the last merge",
                         f"CI log for !{r.randint(100, 999)}"])
        return f"Title: {title}\nDescription: {desc}\n\njob.log\n{trace}"
    if layout == 3:
        # `script` typescript output
        d = f"{w.year}-{w.month + 1:02d}-{w.day:02d} {w.tsec()}+01:00"
        term = r.choice(["xterm-256color", "xterm-kitty", "tmux-256color"])
        run = w.prompt() or f"{w.user}@{w.host}:~/{w.proj}$ ./run.sh"
        body = (f"Script started on {d} [TERM=\"{term}\" TTY=\"/dev/pts/{r.randint(0, 5)}\" COLUMNS=\"{r.choice([120, 157, 211])}\" LINES=\"{r.choice([40, 48, 52])}\"]\n"
                f"{run}\r\n" + c.err.replace("\n", "\r\n") + "\r\n" + f"{w.user}@{w.host}:~/{w.proj}$ exit\r\n\nScript done on {d} [COMMAND_EXIT_CODE=\"1\"]")
        return f"{title}\n\nDescription: recorded with `script`, {w.distro}\n\ntypescript\n{body}"
    # layout 4: markdown description with short explanation and the log fenced
    desc = ["## What happened", "",
            (f"Ran `{cmd}` " if cmd else "Ran it ") + r.choice(["and it stopped with the error below.", "on a fresh checkout.", "after pulling main."]),
            "", "## Log", "", "```", c.err, "```"]
    return f"Title: {title}\nVisibility: Internal\n\n" + "\n".join(desc)


# --------------------------------------------------------------------------
# 7. email_to_it_helpdesk
# --------------------------------------------------------------------------

DEPTS = [("Accounts Payable", "Finance"), ("Marketing Coordinator", "Marketing"),
         ("Research Assistant", "Lab 3"), ("HR Generalist", "People & Culture"),
         ("Office Manager", "Facilities"), ("Data Analyst", "Sales Operations"),
         ("PhD Candidate", "Dept. of Biology"), ("Junior Analyst", "Controlling"),
         ("Project Assistant", "PMO"), ("Teaching Assistant", "School of Economics")]
COMPANIES = ["Acme GmbH", "Northwind Ltd.", "Contoso Logistics", "Fabrikam Inc.",
             "University of Lindenberg", "Blue Harbor Insurance", "Tailspin Travel",
             "Wide World Importers", "Litware Research"]
DISCLAIMERS = [
    "CONFIDENTIALITY NOTICE: This e-mail and any attachments are confidential and may be privileged. If you are not the intended recipient, please notify the sender immediately and delete this e-mail.",
    "This email and any files transmitted with it are confidential and intended solely for the use of the individual or entity to whom they are addressed.",
    "Please consider the environment before printing this email.",
    "Diese E-Mail enthält vertrauliche Informationen. Wenn Sie nicht der richtige Adressat sind, informieren Sie bitte sofort den Absender und vernichten Sie diese Mail.",
    "The information contained in this message is intended only for the recipient and may contain privileged or confidential material.",
]


def s_email(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    title, dept = r.choice(DEPTS)
    comp = r.choice(COMPANIES)
    layout = r.randrange(5)
    subj = r.choice(["Error on my laptop", "Problem with program - urgent", "Help please - error message",
                     "Cannot continue, error", f"Error when running {trim(cmd, 40)}" if cmd else "Error message",
                     "Computer says error??", "RE: onboarding instructions not working"])
    greet = r.choice(["Hello IT,", "Hi Helpdesk,", "Dear IT Support,", "Hello,", "Hi team,", "Good morning,"])
    story = r.choice([
        f"I'm not very technical so sorry if this is a silly question. I was following the instructions from the wiki to {w.goal}.",
        f"my colleague {w.f2} asked me to {w.goal} on my laptop but it does not work.",
        f"I need to {w.goal} for a report that is due on {r.choice(DAYS)} and I am stuck.",
        f"since this morning I get an error and I don't know what to do.",
        f"I am trying to {w.goal} as described in the onboarding document (page {r.randint(3, 14)}).",
    ])
    if cmd:
        typed = r.choice([f"I typed in the following:\n\n{cmd}\n\nand it says:",
                          f"I typed {cmd} in the black window (terminal) and pressed enter. Then this came:",
                          f"The command I used is:  {cmd}\nThe message is:",
                          f"When I enter \"{cmd}\" it shows this error:"])
    else:
        typed = r.choice(["When I start it, it shows this:", "I pressed the run button and this came up:",
                          "The error message is:"])
    err = c.err
    if re.search(r"[^\x00-\x7f]", err) and r.random() < 0.45:
        err = mojibake(err)
    if r.random() < 0.25:
        err = hard_wrap(err, 76)
    ask = r.choice(["Could someone please call me or connect remotely? My extension is " + str(r.randint(2000, 7999)) + ".",
                    "Can you please help me? I don't know what I did wrong.",
                    "Please let me know what to do, I have a deadline.",
                    "Is there a problem with my computer? Please advise.",
                    "Thank you in advance for your help!"])
    sign = r.choice(["Kind regards,", "Best regards,", "Thanks,", "Many thanks,", "Regards,", "Thanks and BR,"])
    sig = f"{sign}\n{w.first} {w.last}\n{title} | {dept}\n{comp}\nT: +{r.choice(['44 20', '49 30', '1 415', '31 20', '34 91'])} {r.randint(1000000, 9999999)}"
    disc = r.choice(DISCLAIMERS)
    screenshot = r.random() < 0.3
    cid = f"\n\n[cid:image00{r.randint(1, 3)}.png@01DB{r.randrange(16**4):04X}.{r.randrange(16**8):08X}]\n" if screenshot else ""
    body = f"{greet}\n\n{story}\n{typed}\n\n{err}\n{cid}\n{ask}\n\n{sig}\n\n{disc}"
    body = body.replace("\n\n\n", "\n\n")
    if layout == 0:
        return f"Subject: {subj}\n\n{body}"
    if layout == 1:
        d = f"{r.choice(DAYS)}, {MONTHS_LONG[w.month]} {w.day}, {w.year} {w.t12()}"
        return (f"From: {w.first} {w.last} <{w.first.lower()}.{w.last.lower().replace(' ', '')}@{comp.split()[0].lower()}.com>\n"
                f"Sent: {d}\nTo: IT Service Desk <servicedesk@{comp.split()[0].lower()}.com>\nSubject: {subj}\n\n{body}")
    if layout == 2:
        inc = f"INC{r.randint(10000, 99999):07d}"
        return (f"Subject: RE: [{inc}] {subj}\n\n"
                f"{greet}\n\nas requested here is the full error message. "
                + (f"The command was:\n\n{cmd}\n\n" if cmd else "\n\n") + f"{err}\n\n{sig}\n\n"
                f"-----Original Message-----\nFrom: IT Service Desk\nSent: {r.choice(DAYS)} {w.t24(-90)}\nSubject: [{inc}] {subj}\n\n"
                f"> Dear {w.first},\n> thank you for contacting the IT Service Desk. To help us, please reply with the exact command you ran and copy the complete error text (no screenshots).\n> Ticket: {inc}\n> ##- Please type your reply above this line -##")
    if layout == 3:
        # plain-text client: everything hard wrapped at 72
        return f"Subject: {subj}\n\n" + hard_wrap(body, 72)
    # layout 4: very short mail from phone-ish user with paste in the middle
    return (f"Subject: {subj}\n\n{greet.replace(',', '')}\n"
            + (f"{cmd} does not work:\n\n" if cmd else "this does not work:\n\n")
            + f"{err}\n\n{w.first}\n\n{r.choice(['Sent from Outlook', 'Get Outlook for Windows', ''])}").rstrip()


# --------------------------------------------------------------------------
# 8. whatsapp_voice_note_transcript
# --------------------------------------------------------------------------

def s_voice(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    spoken_err = speak(c.key1, r.randint(18, 40))
    spoken_cmd = speak(cmd, 20) if cmd else None
    filler = r.choice(["um", "uh", "so", "okay so", "hey", "hi"])
    parts = [f"{filler} I'm trying to {w.goal}"]
    if spoken_cmd:
        parts.append(r.choice([f"and I type {spoken_cmd}", f"I run {spoken_cmd}", f"when I do {spoken_cmd}"]))
    parts.append(r.choice([f"and it says {spoken_err}", f"and it just says {spoken_err}",
                           f"and I get this error that says {spoken_err}", f"it comes back with {spoken_err}"]))
    parts.append(r.choice(["I'll send you the text", "I'm gonna paste it", "can you have a look when you have a sec",
                           "no idea what that means", "sending you the whole thing now", "let me copy it"]))
    transcript = " ".join(parts)
    transcript = transcript[0].upper() + transcript[1:] + "."
    dur = f"0:{r.randint(9, 48):02d}"
    who = w.first
    d1 = f"{w.day:02d}/{w.month + 1:02d}/{str(w.year)[2:]}"
    paste = c.err if r.random() < 0.7 else (excerpt(c.err, r, 0.6) if n_lines(c.err) > 3 else c.err)
    cmdmsg = None
    if cmd and r.random() < 0.7:
        cmdmsg = r.choice([f"command: {cmd}", cmd, f"this is what I typed: {cmd}"])
    layout = r.randrange(5)
    if layout == 0:
        # iOS export
        ts = lambda a: f"[{d1}, {w.tsec(a)}]"
        out = [f"{ts(0)} {who}: \u200e<attached: 000000{r.randint(10, 99)}-AUDIO-{w.year}-{w.month + 1:02d}-{w.day:02d}-{w.tsec(0).replace(':', '-')}.opus>",
               f"Transcript: {transcript}"]
        if cmdmsg:
            out.append(f"{ts(40)} {who}: {cmdmsg}")
        out.append(f"{ts(52)} {who}: {paste}")
        return "\n".join(out)
    if layout == 1:
        # Android export
        d = f"{w.day:02d}/{w.month + 1:02d}/{w.year}, {w.t24()}"
        out = [f"{d} - {who}: PTT-{w.year}{w.month + 1:02d}{w.day:02d}-WA00{r.randint(10, 99)}.opus (file attached)",
               f"[Voice message transcript] {transcript}"]
        if cmdmsg:
            out.append(f"{d} - {who}: {cmdmsg}")
        out.append(f"{d} - {who}: {paste}")
        out.append(f"{w.day:02d}/{w.month + 1:02d}/{w.year}, {w.t24(3)} - {w.f2}: {r.choice(['looking', 'ok one sec', '👀', 'on it'])}")
        return "\n".join(out)
    if layout == 2:
        # Telegram desktop copy
        out = [f"{w.first} {w.last}, [{w.day:02d}.{w.month + 1:02d}.{w.year} {w.t24()}]",
               f"[Voice message, {dur}]", f"Transcription: {transcript}",
               f"{w.first} {w.last}, [{w.day:02d}.{w.month + 1:02d}.{w.year} {w.t24(1)}]"]
        out.append((cmdmsg + "\n" if cmdmsg else "") + paste)
        return "\n".join(out)
    if layout == 3:
        # phone screen: voice bubble, transcript, then pasted text (no export format)
        out = [f"🎤 {dur}", transcript, "", (cmdmsg + "\n\n" if cmdmsg else "") + paste, w.t24(1) + " ✓✓"]
        return "\n".join(out)
    # layout 4: forwarded voice note transcript + pasted text with quoted-reply
    out = [f"{who}:", f"Voice message ({dur})", f"\u201c{transcript}\u201d", "",
           f"{who}:", paste]
    if cmdmsg:
        out += ["", f"{who}:", cmdmsg]
    return "\n".join(out)


# --------------------------------------------------------------------------
# 9. code_switching_message
# --------------------------------------------------------------------------

def s_codeswitch(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    lang = r.choice(["es", "hi", "de", "pt"])
    err = excerpt(c.err, r, 0.8)
    k = c.key1
    fenced = r.random() < 0.6
    blk = f"```\n{err}\n```" if fenced else err
    if lang == "es":
        v = r.randrange(4)
        if v == 0:
            return (f"Oye, alguien sabe qué pasa con esto? Estoy corriendo `{cmd}` y me sale:\n{blk}\nYa reinstalé todo y nada 😩"
                    if cmd else f"Oye, alguien sabe qué pasa con esto? Corro mi script y me sale:\n{blk}\nYa reinstalé todo y nada 😩")
        if v == 1:
            return (f"buenas! cuando hago {cmd} en la terminal me tira este error:\n\n{err}\n\nalguna idea? estoy en {w.distro}"
                    if cmd else f"buenas! me tira este error y no entiendo nada:\n\n{err}\n\nalguna idea?")
        if v == 2:
            return (f"Help 🙏 llevo una hora con esto. El comando es `{cmd}` y el output es\n{blk}\nqué hago mal??"
                    if cmd else f"Help 🙏 llevo una hora con esto, el output es\n{blk}\nqué hago mal??")
        return (f"Chicos, una pregunta rápida: me aparece \"{k}\" después de " + (f"`{cmd}`" if cmd else "correr el script") + ". "
                f"Les paso el log completo:\n{blk}\nGracias de antemano!")
    if lang == "hi":
        v = r.randrange(4)
        if v == 0:
            return (f"bhai ye error aa raha hai jab bhi `{cmd}` chalata hoon:\n\n{blk}\n\nkya karu? kal se stuck hoon"
                    if cmd else f"bhai ye error aa raha hai script chalate hi:\n\n{blk}\n\nkya karu? kal se stuck hoon")
        if v == 1:
            return (f"yaar ek help chahiye, {cmd} run kiya toh ye aaya:\n{err}\nkoi idea? google pe kuch clear nahi mila"
                    if cmd else f"yaar ek help chahiye, run kiya toh ye aaya:\n{err}\nkoi idea?")
        if v == 2:
            return (f"Sir, maine `{cmd}` try kiya but output mein ye error hai - \"{k}\". Pura log neeche hai:\n{blk}\nPlease check karke batao kya missing hai"
                    if cmd else f"Sir, output mein ye error hai - \"{k}\". Pura log neeche hai:\n{blk}\nPlease check karke batao")
        return (f"guys {w.proj} wala project setup kar raha tha, " + (f"`{cmd}` pe atak gaya" if cmd else "run karte hi atak gaya") + f"\n{blk}\nmera {w.distro} hai, kuch aur install karna padega kya?")
    if lang == "de":
        v = r.randrange(4)
        if v == 0:
            return (f"Moin, hat jemand 'ne Idee? Bei `{cmd}` kommt immer:\n{blk}\nHab schon alles neu installiert, hilft nix."
                    if cmd else f"Moin, hat jemand 'ne Idee? Beim Starten kommt immer:\n{blk}\nHab schon alles neu installiert, hilft nix.")
        if v == 1:
            return (f"Kurze Frage: ich bekomme beim Ausführen von {cmd} folgenden Fehler\n\n{err}\n\nWoran liegt das? Bin auf {w.distro}."
                    if cmd else f"Kurze Frage: ich bekomme folgenden Fehler\n\n{err}\n\nWoran liegt das?")
        if v == 2:
            return (f"Hi zusammen, seit dem Update klappt `{cmd}` nicht mehr 🙈\nFehlermeldung:\n{blk}\nJemand 'nen Tipp?"
                    if cmd else f"Hi zusammen, seit dem Update geht's nicht mehr 🙈\nFehlermeldung:\n{blk}\nJemand 'nen Tipp?")
        return (f"Ich verzweifle gerade. \"{k}\" — was will der von mir? " + (f"Command war `{cmd}`, ganzer Output" if cmd else "Ganzer Output") + f":\n{blk}")
    v = r.randrange(4)
    if v == 0:
        return (f"galera, alguém já viu esse erro? rodei `{cmd}` e deu isso:\n{blk}\njá tentei de tudo kkk"
                if cmd else f"galera, alguém já viu esse erro? rodei o script e deu isso:\n{blk}\njá tentei de tudo kkk")
    if v == 1:
        return (f"Oi! Tô tentando rodar {cmd} mas aparece:\n\n{err}\n\nsabem o que pode ser? tô no {w.distro}"
                if cmd else f"Oi! Tô tentando rodar meu código mas aparece:\n\n{err}\n\nsabem o que pode ser?")
    if v == 2:
        return (f"Pessoal, socorro 😅 " + (f"o `{cmd}` falha" if cmd else "meu script falha") + f" com \"{k}\"\nlog completo:\n{blk}")
    return (f"bom dia! alguém pode dar uma olhada? " + (f"o comando é `{cmd}`, o erro é esse aqui" if cmd else "rodei meu script e o erro é esse aqui") + f":\n{blk}\nvaleu!")


# --------------------------------------------------------------------------
# 10. forum_reply_quote_chain
# --------------------------------------------------------------------------

def s_forum(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    topic = r.randint(1000, 99999)
    post = r.randint(1, 12)
    layout = r.randrange(6)
    err = excerpt(c.err, r, 0.85)
    run = f"`{cmd}`" if cmd else "my script"
    if layout == 0:
        quoted = (f"When I run {run} I get:\n\n```\n{err}\n```")
        reply = r.choice(["Same here, exact same output. Did you ever solve it?",
                          "I'm getting this too since yesterday. Any news?",
                          f"Same on {w.distro}. Bumping this.",
                          "Did you find a fix? I have the identical error."])
        return f"[quote=\"{w.handle2}, post:{post}, topic:{topic}\"]\n{quoted}\n[/quote]\n\n{reply}"
    if layout == 1:
        pid = r.randint(100000, 2999999)
        tsu = r.randint(1700000000, 1760000000)
        quoted = (f"I did {cmd} and it fails like this:\n[code]{err}[/code]" if cmd else f"It fails like this:\n[code]{err}[/code]")
        reply = r.choice(["Exactly what I'm seeing on my Pi as well.", "Did you manage to fix it? Same here.",
                          "Hmm, I have the same thing. What version are you on?"])
        return f"[quote={w.handle2} post_id={pid} time={tsu} user_id={r.randint(100, 99999)}]\n{quoted}\n[/quote]\n{reply}"
    if layout == 2:
        # rendered phpBB copy
        d = f"{r.choice(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])} {MONTHS[w.month]} {w.day:02d}, {w.year} {w.t12(space=True).lower()}"
        q = f"{w.handle2} wrote: \u2191\n{d}\n" + (f"{cmd}\n" if cmd else "") + f"Code: Select all\n\n{err}"
        reply = r.choice(["Same here. Did you get anywhere?", "Got exactly the same. Any solution?",
                          "+1 - same output on a fresh install."])
        return f"Re: {trim(c.key1, 60)}\n\nPost by {w.handle} \u00bb {d}\n\n{q}\n\n{reply}"
    if layout == 3:
        # nested: helper asked for the output, the reply quotes the request and gives it
        asked = r.choice([f"Please post the full output of the command you ran.",
                          f"Can you post the exact command and what it prints?",
                          "We can't help without the complete error message."])
        out = f"[quote=\"{w.handle2}, post:{post}, topic:{topic}\"]\n{asked}\n[/quote]\n\n"
        out += (f"Sure, here it is. Command: `{cmd}`\n\n```\n{c.err}\n```" if cmd else f"Sure, here it is:\n\n```\n{c.err}\n```")
        return out
    if layout == 4:
        # reply quotes only the key line, then shares own output
        out = f"[quote=\"{w.handle2}, post:{post}, topic:{topic}\"]\n{c.key1}\n[/quote]\n\n"
        out += r.choice(["I get the same line, full output below.", "Same for me:", "Hitting this exact one. Mine:"]) + "\n\n"
        out += (f"```\n$ {cmd}\n{err}\n```" if cmd else f"```\n{err}\n```")
        return out
    # layout 5: rendered Discourse copy "user:" with quoted nested quote
    out = [f"{w.handle2}:", ""]
    inner = f"{w.handle}:\n\n" if r.random() < 0.5 else ""
    out.append(f"{inner}" + (f"running {cmd} gives me" if cmd else "i get") + "\n\n" + err)
    out.append("")
    out.append(r.choice(["Did you find a solution to this? I have the same issue.",
                         "Sorry to necro, but this still happens.",
                         f"Same thing on {w.distro}."]))
    return "\n".join(out)


# --------------------------------------------------------------------------
# 11. stackoverflow_question_edit
# --------------------------------------------------------------------------

def s_so(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    tags = list(LANG_TAGS.get(c.family, ["linux"]))
    extra = r.choice(["ubuntu", "linux", "bash", "terminal"])
    if extra not in tags:
        tags.append(extra)
    title = r.choice([trim(c.key1, 110), f"{trim(c.key1, 80)} when running {cmd}" if cmd else trim(c.key1, 110),
                      f"How to fix \"{trim(c.key1, 80)}\"", f"Getting {trim(c.key1, 90)}"])
    layout = r.randrange(5)
    err_block = indent4(excerpt(c.err, r, 0.85))
    cmd_block = indent4(f"$ {cmd}" if r.random() < 0.5 else cmd) if cmd else None
    meta = ""
    if r.random() < 0.5:
        meta = f"Asked {r.choice(['today', 'yesterday', '2 days ago'])}\nModified {r.choice(['today', 'today', '1 hour ago'])}\nViewed {r.randint(12, 380)} times\n\n"
    new_to = {"db": "databases", "k8s": "Kubernetes", "c": "C", "tls": "certificates", "shell": "Linux",
              "apt": "Linux", "systemd": "systemd", "web": "web servers", "ssh": "SSH", "git": "git",
              "ts": "TypeScript", "node": "Node", "npm": "Node", "pip": "Python", "python": "Python",
              "rust": "Rust", "go": "Go", "java": "Java", "ruby": "Ruby", "docker": "Docker"}.get(c.family, "Linux")
    intro = r.choice([f"I'm trying to {w.goal} on {w.distro}.", f"I am new to {new_to} and trying to {w.goal}.",
                      f"I have a small project ({w.proj}) and I'm trying to {w.goal}."])
    if layout == 0 and cmd:
        body = (f"{intro} When I run:\n\n{cmd_block}\n\nit fails. I searched but none of the answers helped.\n\n"
                f"EDIT: here's the full output as requested in the comments:\n\n{err_block}")
    elif layout == 1 and cmd:
        body = (f"{intro} I get this error:\n\n{err_block}\n\nWhat am I doing wrong?\n\n"
                f"UPDATE 2: the command I'm running is\n\n{cmd_block}\n\nfrom inside the project folder.")
    elif layout == 2:
        body = (f"{intro} I get:\n\n{indent4(c.key1)}\n\n"
                f"EDIT 1: tried restarting, same error.\n\n"
                f"UPDATE 2: full output" + (f" of `{cmd}`" if cmd else "") + f":\n\n{err_block}")
    elif layout == 3:
        body = (f"{intro}\n\n> {c.key1}\n\n" + (f"Command:\n\n{cmd_block}\n\n" if cmd else "") +
                f"**EDIT:** complete output:\n\n{err_block}\n\n**UPDATE:** still stuck, any pointers welcome.")
    else:
        body = (f"{intro} Running " + (f"`{cmd}`" if cmd else "my code") + " produces:\n\n" + err_block +
                "\n\nI already tried googling the message.\n\nEDIT: " + r.choice([f"I'm on {w.distro}.", "this is a fresh install.", "same result in a new terminal."]))
    comments = ""
    if r.random() < 0.4:
        comments = (f"\n\n{r.choice(['Please post the full error as text, not a screenshot.', 'What OS is this?', 'Did you read the error message?', 'Which version are you using?', 'Have you searched for the error message?'])} \u2013 {w.handle2} {r.randint(2, 50)} mins ago")
    return f"{title}\n\n{meta}{body}\n\n{' '.join(tags)}{comments}"


# --------------------------------------------------------------------------
# 12. linkedin_or_blog_rant
# --------------------------------------------------------------------------

def s_rant(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    k = c.key1
    q = inline(k, r)
    cq = inline(cmd, r) if cmd else None
    hours = r.choice(["an hour", "an hour and a half", "45 minutes", "most of my morning", "two hours", "a whole afternoon"])
    layout = r.randrange(6)
    if layout == 0:
        tags = " ".join(r.sample(["#softwaredevelopment", "#devlife", "#programming", "#debugging", "#linux",
                                  "#learning", "#100DaysOfCode", "#developer"], 3))
        return (f"I lost {hours} today to this:\n\n{q}\n\n" +
                (f"All I did was run {cq}. " if cq else "") +
                r.choice(["Error messages are a skill of their own.", "Lesson learned: read the WHOLE error.",
                          "Humbling, as always.", "Anyone else have days like this?"]) + f"\n\n{tags}")
    if layout == 1:
        return (f"{r.choice(['TIL', 'Quick rant', 'Small vent'])}: " +
                (f"typed {cq}, hit enter, and got {q}. " if cq else f"my script died with {q}. ") +
                f"That was {hours} ago. " + r.choice(["I'm fine. Everything's fine.", "Coffee number three.", "Send help.", "Still not sure why."]))
    if layout == 2:
        para = (f"## {r.choice(['The error that ate my morning', 'Debugging notes', 'A detour', 'Why I was late to standup'])}\n\n"
                f"I was trying to {w.goal} on my {w.distro} box. " +
                (f"Running `{cmd}` " if cmd else "Running the script ") +
                f"ended with\n\n```\n{chr(10).join(c.key)}\n```\n\n" +
                r.choice(["and nothing I found on the first page of search results matched my setup.",
                          "which is about as helpful as it sounds at 11pm.",
                          "and I spent far too long assuming it was my code."]))
        return para
    if layout == 3:
        return (f"1/ spent {hours} fighting {q}" + (f" after {cq}" if cq else "") +
                f"\n\n2/ the error is technically accurate and practically useless\n\n3/ I'll write up what it was once I figure it out")
    if layout == 4:
        return (f"Unpopular opinion: {q} should come with an apology. " +
                (f"Ran {cq} on a clean {w.distro} install and that's what I got. " if cq else "") +
                f"{hours.capitalize()} gone. #devlife")
    full = excerpt(c.err, r, 0.6) if n_lines(c.err) <= 12 else "\n".join(c.key)
    return (f"Weeknotes, {r.choice(DAYS)}: most of the day went to one thing. " +
            (f"`{cmd}` " if cmd else "My script ") + r.choice(["kept failing with:", "kept giving me:", "kept spitting out:"]) + "\n\n" + gt_quote(full) + "\n\n" +
            r.choice(["I'll spare you the rest.", "More on that next week.", "Not my finest hour(s)."]))


# --------------------------------------------------------------------------
# 13. apple_notes_scratch
# --------------------------------------------------------------------------

def s_notes(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    k = c.key1
    title = r.choice([f"{w.proj} -- broken", f"{w.proj} setup", "debug", f"todo {MONTHS[w.month]} {w.day}",
                      f"{w.proj} notes", "error???", "work stuff"])
    layout = r.randrange(5)
    if layout == 0:
        lines = [smart(title), ""]
        if cmd:
            lines.append(f"- tried `{cmd}`")
        lines.append(f"- got: {k}")
        lines.append(smart(r.choice(["- reinstalled -- same", "- restarted terminal, same", "- google: nothing useful",
                                     "- works on Tom's machine?", "- not a typo (checked twice)"])))
        lines.append("- ???")
        return "\n".join(lines)
    if layout == 1:
        lines = [smart(f"{r.choice(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])} {w.day} {MONTHS[w.month]}"), ""]
        lines.append(smart(f"{w.goal} -- doesn't work"))
        if cmd:
            lines.append(cmd)
        lines.append(excerpt(c.err, r, 0.7))
        lines.append("")
        lines.append(smart(r.choice([f"ask {w.f2} tomorrow", "look at this again after lunch", "check the docs...",
                                     "maybe it's the version?", "don't forget to write down what fixed it"])))
        return "\n".join(lines)
    if layout == 2:
        # Google Keep checklist
        lines = [smart(title)]
        if cmd:
            lines.append(f"\u2610 run {cmd} again")
        lines.append(f"\u2611 {smart('read the error')}")
        lines.append(f"\u2610 {smart('figure out why it says')} \u201c{k}\u201d")
        for kl in c.key:
            if kl != k:
                lines.append(f"   {kl}")
        lines.append(f"\u2610 {smart('ask ' + w.f2 + ' if still broken')}")
        return "\n".join(lines)
    if layout == 3:
        lines = [smart(title), ""]
        lines.append(smart("cmd:") + (f" {cmd}" if cmd else " (just running it from the editor)"))
        lines.append(smart("error:"))
        lines.append(excerpt(c.err, r, 0.75))
        lines.append("")
        lines.append(smart(r.choice(["-- only happens on the laptop", "-- started after the update", "-- no idea",
                                     "-- same thing yesterday"])))
        return "\n".join(lines)
    lines = [smart(f"TODO ask {w.f2} about this"), ""]
    if cmd:
        lines.append(f"\u2022 {cmd}")
    for kl in c.key:
        lines.append(f"\u2022 {kl}")
    lines.append(smart(f"\u2022 happened {r.choice(['twice', 'every time', 'after lunch', 'on the new laptop'])}"))
    return "\n".join(lines)


# --------------------------------------------------------------------------
# 14. sms_to_friend
# --------------------------------------------------------------------------

def s_sms(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    roll = r.random()
    last = c.last if roll < 0.45 else (c.key1 if roll < 0.8 else "\n".join(c.key))
    layout = r.randrange(6)
    hi = r.choice(["yo", "hey", "heyy", "sry to bug u", "u around?", "quick q", "ok so"])
    end = r.choice(["wtf", "help pls", "any idea??", "pls tell me this is easy", "🙏", "idk what im doing lol",
                    "is my laptop cursed", "ur the only one who knows this stuff"])
    if layout == 0:
        return (f"{hi} trying to {w.goal} and " + (f"{cmd} keeps saying\n" if cmd else "it keeps saying\n") + f"{last}\n{end}")
    if layout == 1:
        msgs = [hi, r.choice([x for x in ["quick q", "got a sec?", "need ur brain for 2 min"] if x != hi])]
        if cmd:
            msgs.append(f"ran {cmd}")
        msgs.append(last)
        msgs.append(end)
        return "\n".join(msgs)
    if layout == 2:
        ts = r.choice(["Today", "Yesterday", r.choice(DAYS)])
        msgs = [f"{ts} {w.t12()}", f"{hi} ", (f"{cmd} → " if cmd else "") + last, r.choice(["??", "u know this one?", "ngl i hate computers"])]
        return "\n".join(msgs)
    if layout == 3:
        short = n_lines(c.err) <= 4
        body = c.err if short else "\n".join(c.key)
        return (f"{hi} lol can u look at this rn\n" + (f"i did {cmd}\n" if cmd else "") + f"{body}\n{end}")
    if layout == 4:
        return (f"sry again 😅 " + (f"{cmd} gives me " if cmd else "my thing gives me ") + f"\"{last}\" " +
                r.choice(["rn", "again", "since this morning", "on the new laptop"]) + f". {end}")
    return ("\n".join([r.choice(["ok dont laugh", "ok weird one", "bro"]),
                       (f"typed {cmd}" if cmd else "ran my script"), "got this", excerpt(c.err, r, 0.4) if n_lines(c.err) <= 8 else last,
                       r.choice(["thx in advance", "call me if easier", "no rush (there is rush)"])]))


# --------------------------------------------------------------------------
# 15. meeting_transcript_otter
# --------------------------------------------------------------------------

def s_meeting(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    me = f"{w.first} {w.last}"
    you = f"{w.f2} {w.l2}"
    spoken_cmd = speak(cmd, 24) if cmd else None
    spoken_err = speak(c.key1, r.randint(20, 36))
    base = r.randint(60, 2400)

    def mmss(off):
        t = base + off
        return f"{t // 60}:{t % 60:02d}" if t < 3600 else f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}"

    line1 = r.choice(["Okay, can everyone see my screen?", "Let me share my screen real quick.",
                      "So this is the thing I mentioned in standup.", "Alright, sharing now."])
    read = []
    if spoken_cmd:
        read.append(r.choice([f"So I'm in the {w.proj} folder and I run {spoken_cmd}",
                              f"I type {spoken_cmd} and hit enter", f"when I do {spoken_cmd}"]))
    read.append(r.choice([f"and it comes back with {spoken_err}", f"and then it says {spoken_err}",
                          f"and you can see here it says {spoken_err}"]))
    said = " ".join(read)
    said = said[0].upper() + said[1:] + "."
    chat_paste = c.err if r.random() < 0.7 else excerpt(c.err, r, 0.5)
    ask = r.choice(["Can you paste that in the chat?", "Can you drop the full error in the chat?",
                    "Paste it in the chat so I can read it properly."])
    layout = r.randrange(5)
    if layout in (0, 1):
        lab1, lab2 = (me, you) if layout == 0 else ("Speaker 1", "Speaker 2")
        out = [f"{lab1}  {mmss(0)}", line1 + " " + said, "",
               f"{lab2}  {mmss(r.randint(20, 40))}", ask + r.choice([" ", " And what command was that exactly?", ""]), "",
               f"{lab1}  {mmss(r.randint(45, 60))}", r.choice(["Yeah, one sec.", "Sure, pasting it now.", "Yep, done."]), "",
               r.choice(["Chat:", "--- Chat ---", "Meeting chat"]),
               f"{w.tsec(r.randint(40, 70))} From {me} to Everyone:"]
        cm = (cmd + "\n") if cmd and r.random() < 0.65 else ""
        out.append("\t" + (cm + chat_paste).replace("\n", "\n\t") if r.random() < 0.5 else cm + chat_paste)
        return "\n".join(out)
    if layout == 2:
        # Zoom VTT
        def vtt(i, a, b):
            s1 = base + a
            s2 = base + b
            f = lambda s: f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}.{r.randint(0, 999):03d}"
            return f"{i}\n{f(s1)} --> {f(s2)}"
        out = ["WEBVTT", "", vtt(1, 0, 4), f"{me}: {line1}", "", vtt(2, 5, 18), f"{me}: {said}", "",
               vtt(3, 19, 23), f"{you}: {ask}", ""]
        out += ["", f"meeting_saved_chat.txt", f"{w.tsec(30)} From {me} to Everyone:", (f"{cmd}\n" if cmd and r.random() < 0.65 else "") + chat_paste]
        return "\n".join(out)
    if layout == 3:
        # Zoom cloud transcript txt
        out = [f"[{me}] {w.tsec(0)}", f"{line1} {said}", "", f"[{you}] {w.tsec(22)}", ask, "",
               f"[{me}] {w.tsec(30)}", r.choice(["Done, it's in the chat.", "Okay it's in there."]), "",
               "Chat", f"{w.tsec(28)}\t{me}:\t" + ((f"{cmd}\n") if cmd and r.random() < 0.65 else "") + chat_paste]
        return "\n".join(out)
    # layout 4: Google Meet transcript doc
    out = [f"{r.choice(['Weekly sync', 'Pairing', 'Onboarding call', 'Standup'])} - Transcript", "",
           f"{me}: {line1} {said}", f"{you}: {ask}", f"{me}: {r.choice(['Okay.', 'Sure.', 'Done.'])}", "",
           "Chat messages", f"{me}  {w.t12(1)}", (f"{cmd}\n" if cmd and r.random() < 0.65 else "") + chat_paste]
    return "\n".join(out)


# --------------------------------------------------------------------------
# 16. jira_comment_wiki_markup
# --------------------------------------------------------------------------

def s_jira(w: Row) -> str:
    c, r = w.c, w.r
    cmd = w.cmd()
    lang = {"python": "python", "pip": "bash", "java": "java", "node": "javascript", "npm": "bash",
            "ts": "bash", "ruby": "bash", "go": "bash", "rust": "bash"}.get(c.family, "bash")
    layout = r.randrange(5)
    err = excerpt(c.err, r, 0.85)
    mono = (lambda s: "{{" + s + "}}") if cmd and "{" not in cmd and "}" not in cmd else (lambda s: s)
    if layout == 0:
        out = ["h3. Steps to reproduce", f"# {r.choice(['checkout main', 'fresh clone', 'cd ~/' + w.proj])}"]
        out.append(f"# run {mono(cmd)}" if cmd else "# start the app")
        out += ["", "h3. Actual result", "{noformat}", err, "{noformat}", "",
                "h3. Expected result", r.choice(["Command completes without errors.", "App starts.", "Works like on the build server."])]
        return "\n".join(out)
    if layout == 1:
        out = [f"[~{w.handle2}] " + r.choice(["still failing on my machine after the update:", "same on my side:",
                                               "reproduced locally:"]),
               f"{{code:{'bash' if cmd else lang}}}"]
        out.append((f"$ {cmd}\n" if cmd else "") + err)
        out.append("{code}")
        return "\n".join(out)
    if layout == 2:
        out = ["{quote}" + c.key1 + "{quote}", "", f"*Env:* {w.distro}"]
        if cmd:
            out.append(f"*Command:* {mono(cmd)}")
        out += ["", "Full output:", "{noformat}", err, "{noformat}"]
        return "\n".join(out)
    if layout == 3:
        out = ["||Field||Value||", f"|OS|{w.distro}|", f"|Project|{w.proj}|"]
        if cmd and "|" not in cmd:
            out.append(f"|Command|{mono(cmd)}|")
        out += ["", "*Output:*", "{code:none}", err, "{code}"]
        if cmd and "|" in cmd:
            out.insert(3, f"Command: {{code}}{cmd}{{code}}")
        return "\n".join(out)
    out = [r.choice(["Reopening -", "Reopening —", "Not fixed:"]) + " *same error* on " + r.choice(["{color:red}my laptop{color}", "my machine", "the new dev VM"]) + ":"]
    if cmd:
        out.append(f"{{code:bash}}{cmd}{{code}}")
    out += ["{noformat}", err, "{noformat}", r.choice(["cc [~" + w.handle2 + "]", "", "Attaching the full log as well."])]
    return "\n".join(o for o in out if o != "")


WRITERS = {
    "chatgpt_prompt_paste": s_chatgpt,
    "ollama_cli_prompt": s_ollama,
    "slack_thread_reply": s_slack,
    "teams_chat_copy": s_teams,
    "github_issue_comment": s_github,
    "gitlab_snippet_description": s_gitlab,
    "email_to_it_helpdesk": s_email,
    "whatsapp_voice_note_transcript": s_voice,
    "code_switching_message": s_codeswitch,
    "forum_reply_quote_chain": s_forum,
    "stackoverflow_question_edit": s_so,
    "linkedin_or_blog_rant": s_rant,
    "apple_notes_scratch": s_notes,
    "sms_to_friend": s_sms,
    "meeting_transcript_otter": s_meeting,
    "jira_comment_wiki_markup": s_jira,
}


def deal(n_cases: int):
    rng = random.Random(DECK_SEED)
    cards = []
    while len(cards) < 2 * n_cases:
        deck = list(STYLES)
        rng.shuffle(deck)
        cards.extend(deck)
    return [(cards[2 * i], cards[2 * i + 1]) for i in range(n_cases)]


def main():
    raw = load_cases()
    pairs = deal(len(raw))
    rows = []
    for (fname, idx, cmd, err), pair in zip(raw, pairs):
        case = Case(fname, idx, cmd, err)
        for slot, style in enumerate(pair):
            text = WRITERS[style](Row(case, slot, style))
            text = text.strip("\n")
            rows.append({"file": fname, "case": idx, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
