"""Write bench/help_phrasings_eleventh.jsonl: every help case re-told in sixteen unseen media.

Every ``[[case]]`` of ``bench/help_cases/*.toml`` (sorted by file name) and then of
``bench/help_heldout/set*.toml`` (sorted) gets exactly two rows.  Each row is an
observation of somebody hitting that case's error after running (or trying to run)
its command, rendered the way one of the sixteen media below really looks.  The two
rows of a case use two different styles; styles are dealt from a seeded stream of
shuffled 16-card decks, so per-style counts differ by at most one.

Styles:
  sharegpt_json      ShareGPT-style dataset record ({"id", "conversations": [{"from": "human"}, ...]})
                     whose human turn pastes the command and the error (JSON-escaped).
  alpaca_record      instruction-tuning record (instruction / input / output, sometimes with the
                     rendered Alpaca prompt, history or system) whose input holds the session.
  chat_template      raw prompt rendered with a chat template's special tokens (ChatML, Llama 2/3,
                     Mistral, Gemma, Phi-3), sometimes as an inference server's log line.
  tool_call_json     LLM agent tool-call log (plain JSONL, OpenAI tool_calls, Anthropic tool_use /
                     tool_result blocks, OpenHands run action / observation events).
  gui_agent_trace    GUI-agent trajectory (OSWorld / Mind2Web-like) with Thought / Action
                     (pyautogui.typewrite, hotkey) / Observation (OCR or a11y text of the terminal).
  a11y_tree          accessibility-tree dump (AT-SPI tree, OSWorld linearized table, Windows UIA
                     tree, xterm.js rows under Electron) of a terminal holding the command and output.
  keystroke_stream   pynput-style key logger stream (Key.shift, 'a', Key.space, Key.enter) typing
                     the command, then a clipboard or screen-text event carrying the error.
  strace_writes      strace -f -e trace=write,execve output: execve() with argv, write(2, "...", N)
                     calls with C escapes and "..." truncation, +++ exited with N +++.
  bash_history_ts    ~/.bash_history with #epoch lines, zsh extended history or HISTTIMEFORMAT
                     history, plus the output captured next to it (tee'd log, script(1) typescript).
  grep_hits          grep -rn / rg -n hits over CI and build logs, with -A/-B context lines, group
                     separators, rg headings and sometimes GNU grep --color escapes.
  macos_unified_log  log show / log stream / Console.app lines (default, compact, syslog styles)
                     of a VM or remote build agent relaying the command's output line by line.
  windows_event_xml  Windows Event Viewer XML (<Event><System>..<EventData><Data>) or Get-WinEvent |
                     Format-List text from a WSL task or CI agent carrying the command and output.
  chatops_bot        ChatOps room transcript (Hubot / Errbot / Lita): someone runs !sh or /run, the
                     bot answers with exit status and output in a code block, reactions, thread chrome.
  outlook_forward    forwarded Outlook / Exchange mail (From/Sent/To/Subject block, Original Message
                     separators, [cid:image001.png@...] markers, external-sender banners).
  mattermost_json    Mattermost API / bulk-export JSON lines or Rocket.Chat mongo export, the error
                     in a post message or in an attachment's text.
  label_studio_task  annotation task export (Label Studio JSON / JSON-MIN, Prodigy JSONL) whose text
                     is the terminal session or a description of the screen, with choices and spans.

Output: one JSON object per line,
  {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}
``file`` is the TOML file's base name and ``case`` the 0-based index of the [[case]]
table in that file.  Everything is seeded (the deck stream by a fixed integer, each
row by a string built from file, case and style), so reruns are byte-identical.

Blind writing: this script was written without reading the project's code, tests, docs,
other phrasing sets or their writer scripts.  The only project data it looks at (and the
only keys it loads) are the ``error`` and ``command`` keys of the ``[[case]]`` tables; a
few ProactiveBench sessions in /work/shared/data/proactivebench/sessions/ were glanced at
for tone, and public references were consulted for what the media formats look like.
When a case has no command (a bare Python traceback), the command a person would have
run is inferred from the traceback's own script path.
"""

from __future__ import annotations

import json
import random
import re
import shlex
import tomllib
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "help_phrasings_eleventh.jsonl"
DECK_SEED = 1_111_011

STYLES = [
    "sharegpt_json",
    "alpaca_record",
    "chat_template",
    "tool_call_json",
    "gui_agent_trace",
    "a11y_tree",
    "keystroke_stream",
    "strace_writes",
    "bash_history_ts",
    "grep_hits",
    "macos_unified_log",
    "windows_event_xml",
    "chatops_bot",
    "outlook_forward",
    "mattermost_json",
    "label_studio_task",
]

# --------------------------------------------------------------------------- pools

USERS = [
    "dana", "amara", "jkowalski", "tomas", "priya", "liwei", "mfischer", "sofia",
    "kenji", "olu", "rbianchi", "hannah", "ivan", "noor", "pedro", "ayasmin",
    "chris", "marta", "sam", "yuki", "abdul", "elena", "finn", "grace",
]
FULL_NAMES = [
    "Dana Whitfield", "Amara Okafor", "Jan Kowalski", "Tomás Rivera", "Priya Raman",
    "Li Wei", "Max Fischer", "Sofia Lindqvist", "Kenji Watanabe", "Olu Adeyemi",
    "Roberta Bianchi", "Hannah Schultz", "Ivan Petrov", "Noor Haddad", "Pedro Alves",
    "Yasmin Aziz", "Chris Doyle", "Marta Nowak", "Sam Ortega", "Yuki Tanaka",
    "Abdul Karim", "Elena Popescu", "Finn Gallagher", "Grace Mensah",
]
HOSTS = [
    "devbox", "thinkpad", "ws-1142", "ubuntu-vm", "build-03", "lab-pc7", "nuc",
    "x1carbon", "dev-eu-2", "framework", "box17", "precision", "vm-jammy", "tower",
]
WIN_HOSTS = ["DESKTOP-7QK2M1L", "LAPTOP-4HD9SZ0", "BUILD-AGENT-07", "CI-WIN-02", "WS-ACME-114"]
PROJECTS = [
    "webshop", "inventory", "billing-api", "notes", "ledger", "pipeline", "site",
    "etl-jobs", "tracker", "infra", "dashboard", "scraper", "mobile-backend",
    "reports", "orders", "auth-service", "blog", "toolbox", "checkout", "sensors",
]
ORGS = ["acme", "northwind", "globex", "initech", "umbrella-labs", "hooli", "contoso", "tyrell"]
COMPANIES = ["Acme Corp", "Northwind Traders", "Globex", "Initech", "Contoso Ltd", "Hooli", "Tyrell Systems"]
DOMAINS = ["acme.com", "northwind.io", "globex.net", "initech.dev", "contoso.com", "hooli.xyz", "tyrell.co"]
TEAMS_CH = ["build-help", "dev-support", "ops", "platform", "backend", "infra-alerts", "eng-general", "ci"]

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

GOALS = {
    "git": "sync my branch with the remote",
    "npm": "get the dependencies installed",
    "npx": "run the project's tooling",
    "yarn": "get the dependencies installed",
    "pnpm": "get the dependencies installed",
    "node": "run a small Node script",
    "docker": "get the container running",
    "kubectl": "check on the deployment",
    "helm": "roll out the chart",
    "python": "run my script",
    "python3": "run my script",
    "pip": "install a package",
    "pip3": "install a package",
    "pytest": "run the test suite",
    "cargo": "build the crate",
    "rustc": "compile a small Rust file",
    "go": "build the Go service",
    "gcc": "compile this C code",
    "g++": "compile this C++ code",
    "make": "build the project",
    "cmake": "configure the build",
    "java": "start the Java app",
    "javac": "compile the Java sources",
    "mvn": "build the Maven project",
    "gradle": "build the project",
    "./gradlew": "build the project",
    "ruby": "run a Ruby script",
    "bundle": "start the Ruby app",
    "gem": "install a gem",
    "rails": "start the Rails app",
    "ssh": "log into the server",
    "scp": "copy a file to the server",
    "systemctl": "get the service running",
    "journalctl": "see why the service is failing",
    "psql": "connect to the database",
    "mysql": "connect to the database",
    "openssl": "check the certificate",
    "curl": "call the API",
    "sudo": "install something system-wide",
}

ASKS = [
    "What am I doing wrong?",
    "Any idea what's going on?",
    "How do I fix this?",
    "Can you help me understand this error?",
    "what does this mean and how do i get past it",
    "I've been stuck on this for an hour, please help.",
    "Is this something on my side or the project's?",
    "Not sure where to even start with this one.",
]

# --------------------------------------------------------------------------- case loading


def load_cases() -> list[tuple[str, int, str | None, str]]:
    files = sorted((ROOT / "bench" / "help_cases").glob("*.toml"))
    files += sorted((ROOT / "bench" / "help_heldout").glob("set*.toml"))
    out = []
    for path in files:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for idx, case in enumerate(data.get("case", [])):
            out.append((path.name, idx, case.get("command"), case["error"]))
    return out


# --------------------------------------------------------------------------- small helpers


def pick(rng: random.Random, seq):
    return seq[rng.randrange(len(seq))]


def alnum(rng: random.Random, n: int, alphabet: str = "abcdefghijklmnopqrstuvwxyz0123456789") -> str:
    return "".join(alphabet[rng.randrange(len(alphabet))] for _ in range(n))


def hexid(rng: random.Random, n: int) -> str:
    return alnum(rng, n, "0123456789abcdef")


def uuid4(rng: random.Random) -> str:
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{pick(rng, '89ab')}{h[17:20]}-{h[20:32]}"


def hard_wrap(text: str, width: int) -> list[str]:
    rows = []
    for line in text.split("\n"):
        line = line.expandtabs(8)
        if not line:
            rows.append("")
            continue
        while len(line) > width:
            rows.append(line[:width])
            line = line[width:]
        rows.append(line)
    return rows


def ampm(d: datetime) -> str:
    h = d.hour % 12 or 12
    return f"{h}:{d.minute:02d} {'AM' if d.hour < 12 else 'PM'}"


def tz_suffix(d: datetime, colon: bool = False) -> str:
    off = d.utcoffset() or timedelta(0)
    mins = int(off.total_seconds() // 60)
    sign = "+" if mins >= 0 else "-"
    mins = abs(mins)
    if colon:
        return f"{sign}{mins // 60:02d}:{mins % 60:02d}"
    return f"{sign}{mins // 60:02d}{mins % 60:02d}"


def long_date(d: datetime) -> str:
    return f"{DAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}, {d.year}"


SHELL_META = re.compile(r"[|&;<>()$`*?~\\]|^\s*\w+=")
BUILTINS = {"cd", "source", ".", "export", "alias", "exec", "eval", "set", "unset", "ulimit", "umask"}


def first_tool(cmd: str) -> str:
    seg = re.split(r"&&|\|\||;|\|", cmd)
    for part in reversed(seg):
        toks = part.strip().split()
        while toks and (re.match(r"^\w+=", toks[0]) or toks[0] in {"sudo", "env", "time", "nohup", "exec"}):
            toks = toks[1:]
        if toks and toks[0] not in BUILTINS:
            return toks[0]
    toks = cmd.split()
    return toks[0] if toks else "sh"


def key_line(lines: list[str]) -> str:
    cands = [ln.strip() for ln in lines if ln.strip()]
    if not cands:
        return ""
    pat = re.compile(r"error|Error|ERROR|fatal|FATAL|denied|not found|failed|Failed|refused|No such|"
                     r"Exception|cannot|Cannot|could not|Could not|invalid|Invalid|panic|aborted|timed out|"
                     r"missing|undefined|unknown|Unknown|unable|Unable|not allowed|conflict|Conflict|"
                     r"incompatible|unsupported|does not exist|mismatch|Killed|Segmentation")
    skip = re.compile(r"^(Node\.js v|\(Use `node|npm error A complete log|For more information|"
                      r"Run '|note: |hint: |A complete log|See '|\^|~)")
    hits = [ln for ln in cands if pat.search(ln) and not skip.match(ln)]
    if hits:
        for ln in reversed(hits):
            if re.match(r"^[A-Za-z_.]*(Error|Exception)\b", ln) or ln.startswith(("fatal:", "error", "Error")):
                return ln
        return hits[-1]
    return cands[-1]


def exit_code_for(cmd: str, err: str) -> int:
    if "command not found" in err or "No such file or directory" in err and err.startswith(("bash:", "zsh:")):
        return 127
    m = re.search(r"^(?:bash|zsh|sh): (?:line \d+: )?(\S+): Permission denied", err, re.MULTILINE)
    if m and cmd.split() and m.group(1) == cmd.split()[0]:
        return 126
    if "Segmentation fault" in err:
        return 139
    if re.search(r"^Killed$", err, re.MULTILINE):
        return 137
    tool = first_tool(cmd)
    if tool == "git" and re.search(r"^fatal:", err, re.MULTILINE):
        return 128
    if "can't open file" in err:
        return 2
    if re.search(r"make(\[\d+\])?: \*\*\*", err):
        return 2
    if tool == "docker" and ("Usage:" in err or "invalid argument" in err or "unknown" in err):
        return 125
    if tool in {"ssh", "scp"}:
        return 255
    if tool == "systemctl" and "status" in cmd:
        return 3
    if tool == "cargo" or tool == "rustc":
        return 101 if "panicked" in err else 1
    if tool == "kubectl" or tool == "psql":
        return 1
    return 1


STDOUT_TOOLS = re.compile(
    r"^(journalctl|systemctl status|kubectl (get|describe|logs)|docker (logs|ps)|docker compose logs|"
    r"pytest|python3? -m pytest|go test|cargo test|npm test|npm run test|make test|git status|git log)"
)


def stream_for(cmd: str) -> str:
    c = cmd.strip()
    c = re.sub(r"^(sudo|cd \S+ &&)\s+", "", c)
    return "stdout" if STDOUT_TOOLS.match(c) else "stderr"


# --------------------------------------------------------------------------- row context


@dataclass
class Ctx:
    rng: random.Random
    file: str
    idx: int
    style: str
    cmd: str | None
    run: str
    known: bool
    err: str
    lines: list[str]
    block: str
    user: str
    full_name: str
    host: str
    home: str
    cwd: str
    tilde: str
    proj: str
    ts: int
    tz: timezone
    exit: int
    stream: str
    tool: str
    key: str
    prompt: str
    org: str
    frac: float

    def dt(self, offset: float = 0.0) -> datetime:
        return datetime.fromtimestamp(self.ts + self.frac + offset, tz=self.tz)

    def session(self, prompt: str | None = None) -> str:
        p = self.prompt if prompt is None else prompt
        return f"{p}{self.run}\n{self.block}"

    def goal(self) -> str:
        t = self.tool
        if t.startswith("./") and t not in GOALS:
            return f"run {t}"
        return GOALS.get(t, pick(self.rng, ["get this working", "run one command", "finish a setup step"]))

    def tool_word(self) -> str:
        t = self.tool
        if t.startswith(("./", "/")) or "/" in t:
            return "the script"
        return t


def make_ctx(file: str, idx: int, cmd: str | None, err: str, style: str) -> Ctx:
    rng = random.Random(f"eleventh|{file}|{idx}|{style}")
    m_user = re.search(r"/home/([a-z_][a-z0-9._-]*)/", err + " " + (cmd or ""))
    if m_user:
        user = m_user.group(1)
    else:
        user = pick(rng, USERS)
    uidx = USERS.index(user) if user in USERS else rng.randrange(len(FULL_NAMES))
    full_name = FULL_NAMES[uidx]
    home = f"/home/{user}"
    # the working directory: the project folder named in the error, else an invented one
    cwd = None
    for m in re.finditer(r"/home/" + re.escape(user) + r"/([^\s'\":]+)", err):
        segs = m.group(1).split("/")
        if segs[0].startswith(".") or len(segs) < 2:
            if len(segs) == 1 and not segs[0].startswith("."):
                cwd = home
            continue
        if segs[0] in {"code", "projects", "src", "work", "repos", "dev", "git"} and len(segs) >= 3:
            cwd = f"{home}/{segs[0]}/{segs[1]}"
        else:
            cwd = f"{home}/{segs[0]}"
        break
    proj = pick(rng, PROJECTS)
    if cwd is None:
        cwd = f"{home}/{pick(rng, ['code', 'projects', 'src', 'work'])}/{proj}" if rng.random() < 0.5 else f"{home}/{proj}"
    else:
        proj = cwd.rsplit("/", 1)[-1] if cwd != home else proj
    known = cmd is not None
    if known:
        run = cmd
    else:
        m = re.search(r'File "([^"]+\.py)"', err)
        script = m.group(1) if m else f"{cwd}/main.py"
        sdir, base = script.rsplit("/", 1)
        cwd = sdir
        proj = sdir.rsplit("/", 1)[-1] if sdir != home else proj
        run = f"python3 {base}" if rng.random() < 0.7 else f"/usr/bin/python3 {script}"
    tilde = "~" + cwd[len(home):] if cwd.startswith(home) else cwd
    lines = err.rstrip("\n").split("\n")
    block = err.rstrip("\n")
    ts = rng.randint(1704067200, 1764460800)
    hours = pick(rng, [-8, -7, -5, -4, 0, 0, 1, 1, 2, 2, 3, 5.5, 8, 9, 10])
    tz = timezone(timedelta(hours=hours))
    host = pick(rng, HOSTS)
    tool = first_tool(run)
    pk = rng.random()
    base = cwd.rsplit("/", 1)[-1] or "/"
    if pk < 0.45:
        prompt = f"{user}@{host}:{tilde}$ "
    elif pk < 0.6:
        prompt = f"[{user}@{host} {base if cwd != home else '~'}]$ "
    elif pk < 0.78:
        prompt = f"\u279c  {base if cwd != home else '~'} " + (f"git:({pick(rng, ['main', 'master', 'dev', 'fix/login'])}) " if rng.random() < 0.5 else "")
    elif pk < 0.9:
        prompt = "$ "
    else:
        prompt = f"{user}@{host} {tilde} % "
    return Ctx(
        rng=rng, file=file, idx=idx, style=style, cmd=cmd, run=run, known=known, err=err,
        lines=lines, block=block, user=user, full_name=full_name, host=host, home=home, cwd=cwd,
        tilde=tilde, proj=proj, ts=ts, tz=tz, exit=exit_code_for(run, err), stream=stream_for(run),
        tool=tool, key=key_line(lines), prompt=prompt, org=pick(rng, ORGS), frac=round(rng.random(), 6),
    )


def dumps(obj, rng: random.Random, indent_choices=(None, 2), ascii_prob: float = 0.3) -> str:
    indent = pick(rng, list(indent_choices))
    ensure_ascii = rng.random() < ascii_prob
    if indent is None:
        return json.dumps(obj, ensure_ascii=ensure_ascii)
    return json.dumps(obj, ensure_ascii=ensure_ascii, indent=indent)


def human_paste(c: Ctx, markdown: bool = True) -> str:
    """A person's message quoting the command and its output, in varied wording."""
    r = c.rng
    v = r.randrange(6)
    ask = pick(r, ASKS)
    fence = "```" if markdown else ""
    if not c.known:
        lead = pick(r, [
            "When I run my script I get this:",
            "My script crashes straight away:",
            "Running the file from my editor prints:",
            f"I'm trying to {c.goal()} and it dies with this traceback:",
        ])
        body = f"{fence}\n{c.session()}\n{fence}" if markdown else c.session()
        return f"{lead}\n\n{body}\n\n{ask}"
    if v == 0:
        lead = pick(r, [f"I'm trying to {c.goal()}.", f"Trying to {c.goal()} on my {pick(r, ['laptop', 'work machine', 'VM', 'dev box'])}."])
        mid = f"When I run `{c.run}` I get:" if markdown else f"When I run {c.run} I get:"
        body = f"{fence}\n{c.block}\n{fence}" if markdown else c.block
        return f"{lead} {mid}\n\n{body}\n\n{ask}"
    if v == 1:
        body = f"{fence}\n{c.session()}\n{fence}" if markdown else c.session()
        return f"{pick(r, ['Here is my terminal:', 'Full output below.', 'This is what happens:', 'terminal output:'])}\n\n{body}\n\n{ask}"
    if v == 2:
        return f"{c.session()}\n\n{ask.lower() if r.random() < 0.5 else ask}"
    if v == 3:
        cmdq = f"`{c.run}`" if markdown else f'"{c.run}"'
        body = f"{fence}\n{c.block}\n{fence}" if markdown else c.block
        return f"{ask} I ran {cmdq} in {c.tilde} and it printed the following.\n\n{body}"
    if v == 4:
        body = f"{fence}console\n{c.session('$ ')}\n{fence}" if markdown else c.session("$ ")
        return (f"{pick(r, ['Hi!', 'Hello,', 'hey', 'Quick question.'])} {pick(r, ['This used to work yesterday.', 'Fresh setup, first time running it.', 'Nothing changed on my side as far as I know.', 'Colleague says it works for them.'])}\n\n"
                f"{body}\n\n{ask}")
    body = f"{fence}\n{c.block}\n{fence}" if markdown else c.block
    cmdq = f"`{c.run}`" if markdown else c.run
    return f"{pick(r, ['Getting this error', 'Got this error', 'Error I keep hitting'])} from {cmdq}:\n{body}"


NON_ANSWERS = [
    "Thanks for pasting the full output. Before I suggest anything, which OS and which version of {tool} are you on, and has this command ever worked on this machine?",
    "Let's narrow it down first. Can you tell me how {tool} was installed (package manager, installer, version manager) and whether anything was upgraded recently?",
    "I can help with that. A couple of questions so I don't guess: did anything change recently (new branch, new machine, an upgrade)? And are you running this inside a container or a virtual environment?",
    "Happy to help. Could you also share the exact directory you ran it from and the output of `ls -la` there? That will tell me more about the setup.",
    "Got it. Just to confirm the context: is this your own machine or a shared/CI environment, and do you have admin (sudo) rights on it?",
    "Thanks. Before we change anything, please run the same command again and tell me whether the output is identical each time, or whether it only happens sometimes.",
]


def non_answer(c: Ctx) -> str:
    return pick(c.rng, NON_ANSWERS).format(tool=c.tool_word())


# --------------------------------------------------------------------------- 1 sharegpt_json


def s_sharegpt_json(c: Ctx) -> str:
    r = c.rng
    rid = pick(r, [f"{alnum(r, 7, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}_{r.randrange(0, 9)}", uuid4(r), f"sharegpt_{r.randrange(10000, 99999)}"])
    conv = []
    v = r.randrange(4)
    if v == 0 and c.known:
        conv.append({"from": "human", "value": f"how do i {c.goal()}? {pick(r, ['', 'im on ubuntu', 'using WSL', 'on a mac with a linux VM'])}".strip()})
        conv.append({"from": "gpt", "value": f"You can do that from the project directory with:\n\n```bash\n{c.run}\n```\n\nLet me know what it prints."})
        conv.append({"from": "human", "value": f"{pick(r, ['that gave me an error:', 'didnt work', 'I ran it and got this', 'Nope:'])}\n\n```\n{c.block}\n```"})
        conv.append({"from": "gpt", "value": non_answer(c)})
    else:
        if v == 1:
            conv.append({"from": "system", "value": pick(r, ["You are a helpful assistant.", "You are an expert Linux and DevOps assistant.", "You are a senior software engineer helping a colleague debug."])})
        conv.append({"from": "human", "value": human_paste(c, markdown=r.random() < 0.8)})
        conv.append({"from": "gpt", "value": non_answer(c) if r.random() < 0.85 else ""})
    rec: dict = {"id": rid, "conversations": conv}
    if r.random() < 0.35:
        rec = {"id": rid, "model": pick(r, ["gpt-4", "gpt-3.5-turbo", "", "gpt-4o"]), "conversations": conv}
    if r.random() < 0.2:
        rec["lang"] = "en"
    text = dumps(rec, r, (None, 2, 2, 1))
    if r.random() < 0.25:
        # one record as it sits inside the dataset's top-level array
        text = "[\n" + text + ",\n" if "\n" in text else "[" + text + ", ..."
    return text


# --------------------------------------------------------------------------- 2 alpaca_record

ALPACA_PREFIX = ("Below is an instruction that describes a task, paired with an input that provides further context. "
                 "Write a response that appropriately completes the request.")


def s_alpaca_record(c: Ctx) -> str:
    r = c.rng
    instr = pick(r, [
        "Explain what went wrong in the following terminal session and how to fix it.",
        "Identify the root cause of the error below and suggest a fix.",
        "A developer ran a command and got the output below. Diagnose the problem.",
        "Read the shell output and tell the user what they should do next.",
        "Given the command and its error output, explain the error in plain language.",
        "Help the user resolve this error.",
    ])
    iv = r.randrange(4)
    if iv == 0:
        inp = c.session()
    elif iv == 1:
        inp = f"Command:\n{c.run}\n\nOutput:\n{c.block}"
    elif iv == 2:
        inp = c.block
        instr = f"The following error appeared after running `{c.run}`. " + pick(r, ["Explain the cause and the fix.", "What is the problem?", "How should the user fix it?"])
    else:
        inp = f"$ {c.run}\n{c.block}\n$ echo $?\n{c.exit}"
    out = pick(r, ["", "", "TODO", "<to be written>", f"The failing line is: {c.key}"])
    rec: dict = {"instruction": instr, "input": inp, "output": out}
    fv = r.randrange(5)
    if fv == 0:
        rec["text"] = f"{ALPACA_PREFIX}\n\n### Instruction:\n{instr}\n\n### Input:\n{inp}\n\n### Response:\n{out}"
    elif fv == 1:
        rec = {"instruction": instr, "input": inp, "output": out, "system": "You are a helpful command-line assistant.", "history": []}
    elif fv == 2:
        other = {"instruction": pick(r, ["Rewrite the sentence in passive voice.", "Give three tips for staying healthy.", "Summarize the paragraph in one sentence."]),
                 "input": pick(r, ["The committee approved the budget.", "", "Cats sleep most of the day because they conserve energy for hunting."]),
                 "output": pick(r, ["The budget was approved by the committee.", "1. Eat a balanced diet. 2. Exercise. 3. Sleep well.", "Cats sleep a lot to save energy for hunting."])}
        body = json.dumps(other, indent=4, ensure_ascii=False) + ",\n" + json.dumps(rec, indent=4, ensure_ascii=False)
        body = "\n".join("    " + ln for ln in body.split("\n"))
        return "[\n" + body + ",\n"
    if fv == 3:
        return json.dumps(rec, ensure_ascii=r.random() < 0.3)
    return dumps(rec, r, (2, 4, None))


# --------------------------------------------------------------------------- 3 chat_template

SYSTEMS = [
    "You are a helpful assistant.",
    "You are a concise assistant that helps developers debug terminal errors.",
    "You are an expert in Linux, build tools and cloud infrastructure. Answer precisely.",
    "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.",
]


def s_chat_template(c: Ctx) -> str:
    r = c.rng
    user = human_paste(c, markdown=r.random() < 0.85)
    sysm = pick(r, SYSTEMS)
    v = r.randrange(7)
    if v == 0:
        text = f"<|im_start|>system\n{sysm}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
    elif v == 1:
        text = f"<s>[INST] <<SYS>>\n{sysm}\n<</SYS>>\n\n{user} [/INST]"
    elif v == 2:
        text = f"<s>[INST] {user} [/INST]"
    elif v == 3:
        text = f"<bos><start_of_turn>user\n{user}<end_of_turn>\n<start_of_turn>model\n"
    elif v == 4:
        text = ("<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
                f"Cutting Knowledge Date: December 2023\nToday Date: {c.dt().day} {MONTHS[c.dt().month - 1][:3]} {c.dt().year}\n\n{sysm}<|eot_id|>"
                f"<|start_header_id|>user<|end_header_id|>\n\n{user}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n")
    elif v == 5:
        text = f"<|system|>\n{sysm}<|end|>\n<|user|>\n{user}<|end|>\n<|assistant|>\n"
    else:
        text = f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
    w = r.random()
    if w < 0.25:
        d = c.dt()
        req = f"chatcmpl-{hexid(r, 32)}"
        text = (f"INFO {d.month:02d}-{d.day:02d} {d:%H:%M:%S} logger.py:39] Received request {req}: "
                f"prompt: {text!r}, params: SamplingParams(n=1, presence_penalty=0.0, frequency_penalty=0.0, "
                f"repetition_penalty=1.0, temperature={pick(r, ['0.7', '0.2', '1.0', '0.0'])}, top_p=1.0, top_k=-1, "
                f"min_p=0.0, seed=None, stop=[], stop_token_ids=[], max_tokens={pick(r, [512, 1024, 2048, 4096])}), "
                f"prompt_token_ids: None, lora_request: None.")
    elif w < 0.35:
        text = f"----- prompt ({len(text)} chars) -----\n{text}\n----- end prompt -----"
    return text


# --------------------------------------------------------------------------- 4 tool_call_json

THOUGHTS = [
    "I'll run the command the user mentioned to reproduce the problem.",
    "Let me run it and look at the output.",
    "First, reproduce the failure in the working directory.",
    "Running the step from the README to see what happens.",
    "I need to see the actual error, so I'll execute the command.",
]


def outputs(c: Ctx) -> tuple[str, str]:
    text = c.err if c.err.endswith("\n") else c.err + "\n"
    return ("", text) if c.stream == "stderr" else (text, "")


def s_tool_call_json(c: Ctx) -> str:
    r = c.rng
    stdout, stderr = outputs(c)
    v = r.randrange(4)
    cmd = c.run if r.random() < 0.7 else f"cd {c.cwd} && {c.run}"
    d = c.dt()
    if v == 0:
        cid = f"call_{alnum(r, 8)}"
        entries = []
        if r.random() < 0.5:
            entries.append({"role": "assistant", "content": pick(r, THOUGHTS)})
        if r.random() < 0.4:
            entries.append({"tool": "bash", "input": {"command": "pwd"}, "id": f"call_{alnum(r, 8)}"})
            entries.append({"tool_result": {"stdout": c.cwd + "\n", "stderr": "", "exit_code": 0}})
        entries.append({"tool": "bash", "input": {"command": cmd}, "id": cid})
        res = {"stdout": stdout, "stderr": stderr, "exit_code": c.exit}
        if r.random() < 0.5:
            res["duration_ms"] = r.randint(40, 9000)
        entries.append({"tool_result": res, "id": cid})
        if r.random() < 0.5:
            for e in entries:
                e["ts"] = d.isoformat(timespec="milliseconds")
                d = d + timedelta(seconds=r.uniform(0.3, 4))
        return "\n".join(json.dumps(e, ensure_ascii=False) for e in entries)
    if v == 1:
        cid = f"call_{alnum(r, 24, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}"
        fname = pick(r, ["run_shell", "bash", "execute_command", "shell"])
        akey = pick(r, ["command", "cmd"])
        body = f"exit_code: {c.exit}\n"
        if stdout:
            body += f"stdout:\n{stdout}"
        if stderr:
            body += f"stderr:\n{stderr}"
        msgs = [
            {"role": "assistant", "content": None if r.random() < 0.6 else pick(r, THOUGHTS),
             "tool_calls": [{"id": cid, "type": "function", "function": {"name": fname, "arguments": json.dumps({akey: cmd})}}]},
            {"role": "tool", "tool_call_id": cid, "content": body},
        ]
        return dumps(msgs, r, (2, None), 0.2)
    if v == 2:
        tid = f"toolu_01{alnum(r, 22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}"
        out = (stdout + stderr).rstrip("\n")
        content = [{"type": "text", "text": pick(r, THOUGHTS)},
                   {"type": "tool_use", "id": tid, "name": "bash", "input": {"command": cmd}}]
        result = {"type": "tool_result", "tool_use_id": tid,
                  "content": [{"type": "text", "text": out + (f"\n\nExit code: {c.exit}" if r.random() < 0.6 else "")}],
                  "is_error": True}
        msgs = [{"role": "assistant", "content": content}, {"role": "user", "content": [result]}]
        if r.random() < 0.5:
            return "\n".join(json.dumps(m, ensure_ascii=False) for m in msgs)
        return json.dumps(msgs, indent=2, ensure_ascii=False)
    # OpenHands-style event stream
    eid = r.randint(3, 40)
    wd = c.cwd if cmd.startswith("cd ") else pick(r, ["/workspace", c.cwd, f"/workspace/{c.proj}"])
    action = {"id": eid, "timestamp": d.replace(tzinfo=None).isoformat(timespec="microseconds"), "source": "agent",
              "message": f"Running command: {cmd}", "action": "run",
              "args": {"command": cmd, "is_input": False, "thought": pick(r, THOUGHTS), "blocking": False,
                       "hidden": False, "confirmation_state": "confirmed"}}
    obs = {"id": eid + 1, "timestamp": (d + timedelta(seconds=r.uniform(0.5, 6))).replace(tzinfo=None).isoformat(timespec="microseconds"),
           "source": "agent", "message": f"Command `{cmd}` executed with exit code {c.exit}.", "cause": eid,
           "observation": "run", "content": (stdout + stderr).rstrip("\n"),
           "extras": {"command": cmd, "metadata": {"exit_code": c.exit, "pid": -1, "username": pick(r, ["openhands", "root", c.user]),
                                                    "hostname": f"{alnum(r, 12, '0123456789abcdef')}", "working_dir": wd,
                                                    "py_interpreter_path": "/openhands/poetry/openhands-ai-5O4_aCHf-py3.12/bin/python",
                                                    "prefix": "", "suffix": f"\n[The command completed with exit code {c.exit}.]"},
                      "hidden": False}, "success": False}
    sep = "\n" if r.random() < 0.6 else ",\n"
    return json.dumps(action, ensure_ascii=False) + sep + json.dumps(obs, ensure_ascii=False)


# --------------------------------------------------------------------------- 5 gui_agent_trace


def screen_text(c: Ctx, width: int, with_prompt: bool = True) -> str:
    text = c.session() if with_prompt else c.block
    rows = hard_wrap(text, width)
    if c.rng.random() < 0.7:
        rows.append(c.prompt.rstrip() if c.prompt.strip() else "$")
    return "\n".join(rows)


def s_gui_agent_trace(c: Ctx) -> str:
    r = c.rng
    goal3 = c.goal().replace("my ", "the ")
    task = pick(r, [
        f"In the terminal, {goal3} for the project in {c.tilde}.",
        f"Open a terminal and run `{c.run}` in {c.tilde}.",
        f"Use the terminal to {goal3}.",
        f"The user asked: \"please {c.goal()}\". Complete the task on the desktop.",
    ])
    width = pick(r, [80, 100, 120])
    obs = screen_text(c, width)
    typed = c.run
    v = r.randrange(3)
    steps = []
    opened = r.random() < 0.6
    if opened:
        steps.append(("The desktop is showing. I need a terminal window first.",
                      "pyautogui.hotkey('ctrl', 'alt', 't')",
                      f"A terminal window titled '{c.user}@{c.host}: ~' appeared with a blinking cursor."))
        if c.cwd != c.home:
            steps.append((f"I should change into the project directory {c.tilde}.",
                          f"pyautogui.typewrite({('cd ' + c.tilde)!r})\npyautogui.press('enter')",
                          f"The prompt now reads '{c.prompt.strip()}'."))
    else:
        steps.append(("A terminal is already open in the project directory. I'll click into it to focus it.",
                      f"pyautogui.click({r.randint(300, 900)}, {r.randint(300, 700)})",
                      f"The terminal window '{c.user}@{c.host}: {c.tilde}' is focused."))
    tw = pick(r, ["typewrite", "write"])
    if r.random() < 0.5:
        act = f"pyautogui.{tw}({typed!r}, interval=0.0{r.randint(1, 5)})\npyautogui.hotkey('enter')"
    else:
        act = f"pyautogui.{tw}({(typed + chr(10))!r})"
    steps.append((pick(r, [f"Now I'll run the command: {typed}", "Type the command and press Enter.", f"Running `{typed}` should {goal3}."]),
                  act, None))
    fail_thought = pick(r, [
        "The command failed; the terminal shows an error instead of the expected result. I cannot finish the task without resolving it.",
        "An error was printed. I should read it before deciding the next action.",
        "The output is an error message, so the task did not succeed.",
    ])
    if v == 0:
        out = [f"Task: {task}", ""]
        for i, (th, ac, ob) in enumerate(steps, 1):
            out.append(f"Step {i}:")
            out.append(f"Thought: {th}")
            out.append("Action:")
            out.append("```python")
            out.append(ac)
            out.append("```")
            if ob is None:
                src = pick(r, ["OCR of the terminal window", "terminal text (a11y)", "screenshot OCR"])
                out.append(f"Observation ({src}):")
                out.append(obs)
            else:
                out.append(f"Observation: {ob}")
            out.append("")
        out.append(f"Step {len(steps) + 1}:")
        out.append(f"Thought: {fail_thought}")
        out.append("Action: FAIL" if r.random() < 0.5 else "Action: WAIT")
        return "\n".join(out)
    if v == 1:
        traj = []
        for i, (th, ac, ob) in enumerate(steps, 1):
            traj.append({"step": i, "thought": th, "action": ac,
                         "observation": obs if ob is None else ob,
                         "screenshot": f"step_{i}_{c.dt(i * 7).strftime('%Y%m%d@%H%M%S')}.png"})
        traj.append({"step": len(steps) + 1, "thought": fail_thought, "action": "FAIL", "observation": None, "screenshot": None})
        return json.dumps({"task_id": uuid4(r), "instruction": task, "domain": pick(r, ["os", "vs_code", "multi_apps"]),
                           "trajectory": traj}, indent=2, ensure_ascii=False)
    # OSWorld runtime log lines
    out = []
    d = c.dt()
    for i, (th, ac, ob) in enumerate(steps, 1):
        stamp = d.strftime("%Y-%m-%d %H:%M:%S") + f",{r.randint(0, 999):03d}"
        out.append(f"[{stamp} INFO lib_run_single/{r.randint(20, 60)}-MainProcess] Step {i}: {ac}")
        out.append(f"Thought: {th}")
        if ob is None:
            out.append("Observation (terminal OCR):")
            out.append(obs)
        else:
            out.append(f"Observation: {ob}")
        out.append(f"[{stamp} INFO lib_run_single/{r.randint(20, 60)}-MainProcess] Reward: 0.00")
        out.append(f"[{stamp} INFO lib_run_single/{r.randint(20, 60)}-MainProcess] Done: False")
        d = d + timedelta(seconds=r.uniform(3, 15))
    return f"Instruction: {task}\n" + "\n".join(out)


# --------------------------------------------------------------------------- 6 a11y_tree


def open_file(c: Ctx) -> str:
    names = re.findall(r"([\w.-]+\.(?:py|js|ts|go|rs|rb|java|c|cpp|toml|json|yml|yaml|sh))\b", c.run)
    return names[0] if names else pick(c.rng, ["README.md", "Makefile", "main.py", ".env", "package.json"])


def osworld_cell(text: str) -> str:
    return text if '"' not in text else '"{}"'.format(text.replace('"', '""'))


def s_a11y_tree(c: Ctx) -> str:
    r = c.rng
    title = f"{c.user}@{c.host}: {c.tilde}"
    term_text = c.session() + ("\n" + c.prompt.rstrip() if r.random() < 0.6 else "")
    v = r.randrange(5)
    if v == 0:
        ind = "  "
        body = []
        if r.random() < 0.5:
            body = [ind * 6 + "text: " + repr(term_text)]
        else:
            body = [ind * 6 + "text:"] + [ind * 7 + "| " + ln for ln in term_text.split("\n")]
        return "\n".join([
            "[application | gnome-terminal-server]",
            f"{ind}[frame | {title}] states: active, resizable, showing, visible",
            f"{ind * 2}[panel | ]",
            f"{ind * 3}[menu bar | ]",
            f"{ind * 4}[menu | File]",
            f"{ind * 4}[menu | Edit]",
            f"{ind * 4}[menu | View]",
            f"{ind * 3}[scroll pane | ]",
            f"{ind * 4}[filler | ]",
            f"{ind * 5}[terminal | Terminal] states: editable, focusable, focused, showing, visible",
        ] + body + [f"{ind * 4}[scroll bar | ]"])
    if v == 1:
        w, h = pick(r, [(1280, 720), (1920, 1080), (1600, 900)])
        rows = ["tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)",
                f"label\tActivities\t\t\t\t({r.randint(10, 30)}, 0)\t(87, 27)",
                f"label\t{MONTHS[c.dt().month - 1][:3]} {c.dt().day}  {c.dt():%H:%M}\t\t\t\t({w // 2 - 60}, 0)\t(120, 27)",
                f"frame\t{title}\t\t\t\t(70, 27)\t({w - 70}, {h - 27})",
                f"push-button\tMenu\t\t\t\t({w - 160}, 37)\t(34, 34)",
                f"push-button\tClose\t\t\t\t({w - 45}, 37)\t(34, 34)",
                f"terminal\tTerminal\t{osworld_cell(term_text)}\t\t\t(70, 91)\t({w - 70}, {h - 91})"]
        return "\n".join(rows)
    if v == 2:
        distro = pick(r, ["Ubuntu", "Ubuntu-22.04", "Ubuntu-24.04", "Debian"])
        whost = pick(r, WIN_HOSTS)
        wtitle = f"{c.user}@{whost}: {c.tilde}"
        lines = [
            f'Window "{wtitle}"  ClassName: "CASCADIA_HOSTING_WINDOW_CLASS"  ProcessId: {r.randint(2000, 30000)}',
            '  TitleBar ""  AutomationId: "TitleBar"',
            '  Pane ""  ClassName: "Windows.UI.Composition.DesktopWindowContentBridge"',
            '    Tab ""  AutomationId: "TabView"',
            f'      TabItem "{distro}"  IsSelected: True',
            '      Button "New Tab"  AutomationId: "AddTabButton"',
            '    Text ""  ClassName: "TermControl"  AutomationId: ""  HasKeyboardFocus: True',
            "      TextPattern.DocumentRange:",
        ]
        lines += ["        " + ln for ln in term_text.split("\n")]
        return "\n".join(lines)
    if v == 3:
        cols = pick(r, [80, 96, 110, 132])
        shell = pick(r, ["bash", "zsh"])
        rows = hard_wrap(term_text, cols)
        out = [
            f"[application | Code] pid={r.randint(2000, 90000)}",
            f"  [frame | {open_file(c)} - {c.proj} - Visual Studio Code]",
            "    [document web | Visual Studio Code]",
            "      [section | ]",
            "        [page tab | Terminal] selected",
            f"        [list | Terminal 1, {shell}]",
        ]
        out += [f"          [list item | {row}]" for row in rows]
        out.append(f"        [status bar | {pick(r, ['Ln 1, Col 1  Spaces: 4  UTF-8  LF', 'main  0 errors 0 warnings', 'Ln 12, Col 5  UTF-8'])}]")
        return "\n".join(out)
    # generic AT-SPI JSON dump
    node = {"role": "application", "name": pick(r, ["gnome-terminal-server", "konsole", "xfce4-terminal", "tilix"]), "children": [
        {"role": "frame", "name": title, "states": ["active", "showing", "visible"], "children": [
            {"role": "scroll pane", "name": "", "children": [
                {"role": "terminal", "name": "", "states": ["focused", "editable"], "text": term_text,
                 "bbox": {"x": 0, "y": 64, "width": 1280, "height": 656}}]}]}]}
    return json.dumps(node, indent=2, ensure_ascii=r.random() < 0.5)


# --------------------------------------------------------------------------- 7 keystroke_stream

SHIFTED = set('~!@#$%^&*()_+{}|:"<>?')
NEAR = {"a": "s", "e": "r", "i": "o", "o": "p", "n": "m", "t": "y", "s": "d", "r": "t", "l": "k", "u": "i", "c": "v", "p": "o", "m": "n", "d": "f"}


def key_events(c: Ctx, text: str) -> list[str]:
    r = c.rng
    ev = []
    typo_at = r.randrange(len(text)) if r.random() < 0.35 and text else -1
    for i, ch in enumerate(text):
        if i == typo_at and ch in NEAR:
            ev.append(repr(NEAR[ch]))
            ev.append("Key.backspace")
        if ch == " ":
            ev.append("Key.space")
        elif ch == "\t":
            ev.append("Key.tab")
        else:
            if ch.isupper() or ch in SHIFTED:
                ev.append("Key.shift")
            ev.append(repr(ch))
    ev.append("Key.enter")
    return ev


def s_keystroke_stream(c: Ctx) -> str:
    r = c.rng
    evs = key_events(c, c.run)
    d = c.dt()
    v = r.randrange(3)
    win = f"{c.user}@{c.host}: {c.tilde}"
    out = []
    t = d
    if v == 0:
        def stamp(x: datetime) -> str:
            return x.strftime("%Y-%m-%d %H:%M:%S") + f",{x.microsecond // 1000:03d}"
        if r.random() < 0.5:
            out.append(f"{stamp(t)} - window focus: {pick(r, ['gnome-terminal-server', 'konsole', 'Code', 'Terminal'])} \"{win}\"")
        for e in evs:
            t = t + timedelta(milliseconds=r.randint(45, 260))
            out.append(f"{stamp(t)} - {e}")
        t = t + timedelta(milliseconds=r.randint(900, 4000))
        for e in ["Key.ctrl_l", "Key.shift", "'C'"]:
            out.append(f"{stamp(t)} - {e}")
            t = t + timedelta(milliseconds=r.randint(30, 90))
        if r.random() < 0.5:
            out.append(f"{stamp(t)} - clipboard: {c.block!r}")
        else:
            out.append(f"{stamp(t)} - clipboard changed ({len(c.block)} chars):")
            out.extend("    " + ln for ln in c.block.split("\n"))
        return "\n".join(out)
    if v == 1:
        def stamp2(x: datetime) -> str:
            return x.strftime("%H:%M:%S") + f".{x.microsecond // 1000:03d}"
        shift_down = False
        for e in evs:
            t = t + timedelta(milliseconds=r.randint(45, 260) if not shift_down else r.randint(30, 90))
            out.append(f"[{stamp2(t)}] press   {e}")
            if e == "Key.shift":
                shift_down = True
            elif shift_down:
                t = t + timedelta(milliseconds=r.randint(25, 110))
                out.append(f"[{stamp2(t)}] release Key.shift")
                shift_down = False
        t = t + timedelta(milliseconds=r.randint(700, 3000))
        src = pick(r, ["ocr", "a11y"])
        out.append(f"[{stamp2(t)}] screen_text window=\"{win}\" source={src}")
        out.extend("    " + ln for ln in screen_text(c, pick(r, [80, 120, 160])).split("\n"))
        return "\n".join(out)
    rows = []
    ts = float(c.ts) + r.random()
    if r.random() < 0.5:
        rows.append({"t": round(ts, 3), "type": "focus", "app": "gnome-terminal-server", "title": win})
    for e in evs:
        ts += r.randint(45, 260) / 1000
        rows.append({"t": round(ts, 3), "type": "key", "key": e})
    ts += r.randint(700, 3000) / 1000
    if r.random() < 0.5:
        rows.append({"t": round(ts, 3), "type": "clipboard", "text": c.block})
    else:
        rows.append({"t": round(ts, 3), "type": "screen", "source": "ocr", "title": win, "text": screen_text(c, 120)})
    return "\n".join(json.dumps(x, ensure_ascii=False) for x in rows)


# --------------------------------------------------------------------------- 8 strace_writes


def strace_escape(data: bytes, limit: int) -> str:
    out = []
    cut = data[:limit]
    for i, b in enumerate(cut):
        if b == 0x22:
            out.append('\\"')
        elif b == 0x5C:
            out.append("\\\\")
        elif b == 0x0A:
            out.append("\\n")
        elif b == 0x09:
            out.append("\\t")
        elif b == 0x0D:
            out.append("\\r")
        elif b == 0x0B:
            out.append("\\v")
        elif b == 0x0C:
            out.append("\\f")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            nxt = cut[i + 1] if i + 1 < len(cut) else None
            if nxt is not None and 0x30 <= nxt <= 0x37:
                out.append(f"\\{b:03o}")
            else:
                out.append(f"\\{b:o}")
    s = '"' + "".join(out) + '"'
    if len(data) > limit:
        s += "..."
    return s


def which(prog: str, rng: random.Random) -> str:
    if "/" in prog:
        return prog
    local = {"cargo", "rustc", "rustup"}
    if prog in local:
        return f"/home/{{user}}/.cargo/bin/{prog}"
    if prog in {"node", "npm", "npx"} and rng.random() < 0.3:
        return f"/home/{{user}}/.nvm/versions/node/v20.{rng.randint(10, 19)}.0/bin/{prog}"
    if prog in {"go", "gofmt"}:
        return f"/usr/local/go/bin/{prog}"
    if prog in {"systemctl", "journalctl"}:
        return f"/usr/bin/{prog}"
    return f"/usr/bin/{prog}"


def split_argv(cmd: str) -> list[str] | None:
    if SHELL_META.search(cmd):
        return None
    try:
        argv = shlex.split(cmd)
    except ValueError:
        return None
    if not argv or argv[0] in BUILTINS:
        return None
    return argv


def execve_line(path: str, argv: list[str], limit: int, rng: random.Random) -> str:
    args = ", ".join(strace_escape(a.encode(), limit) for a in argv)
    return f"execve({strace_escape(path.encode(), limit)}, [{args}], 0x7ff{hexid(rng, 9)} /* {rng.randint(24, 68)} vars */) = 0"


def s_strace_writes(c: Ctx) -> str:
    r = c.rng
    limit = pick(r, [4096, 4096, 1024, 512, 256, 200, 128, 96])
    fd = 2 if c.stream == "stderr" else 1
    argv = split_argv(c.run)
    pid = r.randint(2000, 250000)
    lines = []
    multi = False
    if argv is None:
        shell = pick(r, ["/bin/bash", "/usr/bin/bash", "/bin/sh"])
        lines.append(execve_line(shell, [shell.rsplit("/", 1)[1], "-c", c.run], limit, r))
        multi = True
        child = pid + r.randint(1, 5)
        # the last simple command of the chain is what actually prints the error
        last = re.split(r"&&|\|\||;", c.run)[-1].strip()
        sub = split_argv(last.split("|")[0].strip()) if last else None
        writer = child
        if sub:
            lines.append(f"[pid {child:>6}] " + execve_line(which(sub[0], r).replace("{user}", c.user), sub, limit, r))
    else:
        lines.append(execve_line(which(argv[0], r).replace("{user}", c.user), argv, limit, r))
        writer = pid
        if r.random() < 0.25:
            multi = True
    data = c.err if c.err.endswith("\n") else c.err + "\n"
    raw_lines = data.split("\n")[:-1]
    chunks = []
    mode = r.random() if limit >= 1024 else 0.0
    if mode < 0.6:
        chunks = [ln + "\n" for ln in raw_lines]
    elif mode < 0.85:
        i = 0
        while i < len(raw_lines):
            n = r.randint(1, 4)
            chunks.append("\n".join(raw_lines[i:i + n]) + "\n")
            i += n
    else:
        chunks = [data]
    if not c.err.endswith("\n") and chunks and r.random() < 0.5:
        chunks[-1] = chunks[-1][:-1]
    tt = r.random() < 0.35
    t = c.dt()
    prefix_pid = multi

    def stamp() -> str:
        nonlocal t
        t = t + timedelta(microseconds=r.randint(20, 90000))
        return t.strftime("%H:%M:%S.") + f"{t.microsecond:06d} " if tt else ""

    lines = [stamp() + ln for ln in lines]
    for ch in chunks:
        b = ch.encode()
        call = f"write({fd}, {strace_escape(b, limit)}, {len(b)}) = {len(b)}"
        if prefix_pid:
            call = f"[pid {writer:>6}] " + call
        lines.append(stamp() + call)
    if argv is None:
        lines.append(stamp() + f"[pid {writer:>6}] +++ exited with {c.exit} +++" if prefix_pid else "")
        lines.append(stamp() + f"--- SIGCHLD {{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid={writer}, si_uid={r.choice([1000, 1001, 501])}, si_status={c.exit}, si_utime=0, si_stime=0}} ---")
    lines.append(stamp() + f"+++ exited with {c.exit} +++")
    lines = [ln for ln in lines if ln.strip()]
    head = ""
    hv = r.random()
    opts = f"-f{' -tt' if tt else ''} -e trace=write,execve" + (f" -s {limit}" if limit != 32 else "")
    if hv < 0.45:
        head = f"{c.prompt}strace {opts} {c.run}\n" if argv is not None else f"{c.prompt}strace {opts} bash -c {shlex.quote(c.run)}\n"
    elif hv < 0.7:
        out_file = pick(r, ["/tmp/trace.txt", "trace.log", "/tmp/st.out", f"{c.tilde}/strace-{c.dt():%H%M}.txt"])
        inner = c.run if argv is not None else f"bash -c {shlex.quote(c.run)}"
        head = f"{c.prompt}strace {opts} -o {out_file} {inner}\n{c.prompt}cat {out_file}\n"
    elif hv < 0.85:
        head = pick(r, ["strace output attached as requested:\n\n", "Trace of the failing run:\n", "# strace of the failing step\n"])
    return head + "\n".join(lines)


# --------------------------------------------------------------------------- 9 bash_history_ts

FILLER_CMDS = ["ls", "ls -la", "git status", "cd ..", "clear", "pwd", "git log --oneline -5", "code .", "vim README.md",
               "cat README.md", "history | tail", "df -h", "git branch", "which python3", "echo $PATH", "ll", "top", "nano .env"]


def s_bash_history_ts(c: Ctx) -> str:
    r = c.rng
    v = r.randrange(4)
    t = c.ts - r.randint(60, 900)
    before = [f"cd {c.tilde}"] + [pick(r, FILLER_CMDS) for _ in range(r.randint(1, 4))]
    logname = pick(r, ["/tmp/out.txt", "~/build.log", f"~/logs/{c.proj}-{c.dt():%Y%m%d}.log", "run.log", "/tmp/err.log"])
    teed = f"{c.run} 2>&1 | tee {logname}" if r.random() < 0.6 else f"{c.run} |& tee -a {logname}"
    hist_cmd = teed if v in (0, 2) else c.run
    after_pool = ["history | tail -n 20", "clear", "ls"] + (["cat " + logname] if hist_cmd != c.run else [])
    after = [pick(r, after_pool)] if r.random() < 0.5 else []
    out = []
    if v in (0, 1):
        out.append(pick(r, [f"{c.prompt}tail -n {len(before) * 2 + 6} ~/.bash_history", "~/.bash_history (last entries):", f"{c.prompt}tail ~/.bash_history"]))
        for cmd in before:
            out.append(f"#{t}")
            out.append(cmd)
            t += r.randint(4, 200)
        out.append(f"#{c.ts}")
        out.append(hist_cmd)
        for cmd in after:
            out.append(f"#{c.ts + r.randint(10, 120)}")
            out.append(cmd)
    elif v == 2:
        out.append(pick(r, [f"{c.prompt}tail ~/.zsh_history", "from ~/.zsh_history:", f"{c.prompt}tail -n 8 ~/.zsh_history"]))
        for cmd in before:
            out.append(f": {t}:0;{cmd}")
            t += r.randint(4, 200)
        out.append(f": {c.ts}:{r.randint(0, 12)};{hist_cmd}")
        for cmd in after:
            out.append(f": {c.ts + r.randint(10, 120)}:0;{cmd}")
    else:
        n0 = r.randint(200, 1900)
        out.append(f"{c.prompt}HISTTIMEFORMAT='%F %T ' history | tail -n {len(before) + 2}")
        for i, cmd in enumerate(before):
            d = datetime.fromtimestamp(t, tz=c.tz)
            out.append(f"{n0 + i:>5}  {d:%Y-%m-%d %H:%M:%S} {cmd}")
            t += r.randint(4, 200)
        out.append(f"{n0 + len(before):>5}  {c.dt():%Y-%m-%d %H:%M:%S} {hist_cmd}")
        out.append(f"{n0 + len(before) + 1:>5}  {c.dt(r.randint(30, 300)):%Y-%m-%d %H:%M:%S} HISTTIMEFORMAT='%F %T ' history | tail -n {len(before) + 2}")
    out.append("")
    cv = r.random()
    if hist_cmd != c.run and cv < 0.6:
        out.append(f"{c.prompt}cat {logname}")
        out.append(c.block)
    elif cv < 0.8:
        d = c.dt(-2)
        tty = f"/dev/pts/{r.randint(0, 9)}"
        out.append(pick(r, ["and the typescript from `script` for that session:", "output (captured with script -a ~/session.log):", "~/session.log:"]))
        out.append(f'Script started on {d:%Y-%m-%d %H:%M:%S}{tz_suffix(d, True)} [TERM="xterm-256color" TTY="{tty}" COLUMNS="{pick(r, [80, 120, 158, 204])}" LINES="{pick(r, [24, 40, 51])}"]')
        out.append(f"{c.prompt}{hist_cmd}")
        out.append(c.block)
        out.append(f"{c.prompt}exit")
        out.append(f'Script done on {c.dt(r.randint(20, 400)):%Y-%m-%d %H:%M:%S}{tz_suffix(d, True)} [COMMAND_EXIT_CODE="{c.exit}"]')
    else:
        out.append(pick(r, ["Note: the line at " + c.dt().strftime("%H:%M") + " printed this:",
                            "(output of that command, copied from the terminal)",
                            f"What {c.tool_word()} printed:"]))
        out.append(c.block)
    return "\n".join(out)


# --------------------------------------------------------------------------- 10 grep_hits

GREP_KEYS = r"error|Error|ERROR|fatal|FATAL|failed|Failed|denied|not found|Traceback|Exception|panic|refused|No such|cannot|Cannot|Could not|could not"


def build_log(c: Ctx) -> tuple[str, list[str], int, int]:
    """Returns (path, lines, index of command line, index of last error line)."""
    r = c.rng
    d = c.dt()
    lv = r.randrange(4)
    lines = []
    if lv == 0:
        path = f"logs/ci-{d:%Y-%m-%d}.log"
        stamp = d.strftime("%Y-%m-%dT%H:%M:%SZ")
        lines.append(f"[{stamp}] job {r.randint(1000, 99999)} started on runner {pick(r, HOSTS)}")
        lines.append(f"[{stamp}] workdir: /builds/{c.org}/{c.proj}")
        lines.append(f"$ {c.run}")
        ci = len(lines) - 1
        lines += c.lines
        ei = len(lines) - 1
        lines.append(f"[{d + timedelta(seconds=r.randint(2, 90)):%Y-%m-%dT%H:%M:%SZ}] ERROR: Job failed: exit code {c.exit}")
    elif lv == 1:
        path = pick(r, [f"logs/build-{d:%Y-%m-%d}.log", "build/output.log", f"logs/deploy-{d:%Y%m%d-%H%M}.log"])
        lines.append(f"+ cd {c.cwd}")
        lines.append(f"+ {c.run}")
        ci = len(lines) - 1
        lines += c.lines
        ei = len(lines) - 1
        lines.append(f"+ echo 'step failed with status {c.exit}'")
        lines.append(f"step failed with status {c.exit}")
    elif lv == 2:
        path = f"/var/log/pods/{c.proj}_{c.proj}-{hexid(r, 10)}-{alnum(r, 5)}_{uuid4(r)}/app/0.log"
        base = d

        def cri(line: str, stream: str) -> str:
            nonlocal base
            base = base + timedelta(microseconds=r.randint(5, 3000))
            return f"{base:%Y-%m-%dT%H:%M:%S}.{base.microsecond:06d}{r.randint(100, 999)}Z {stream} F {line}"
        lines.append(cri(f"+ {c.run}", "stderr"))
        ci = 0
        for ln in c.lines:
            lines.append(cri(ln, c.stream))
        ei = len(lines) - 1
    else:
        path = pick(r, [f"logs/nightly-{d:%Y-%m-%d}.log", f"cron/{c.proj}.log", "logs/jobs.log"])
        job = pick(r, ["nightly", "sync", "refresh", "backup", "report"])
        stamp = d.strftime("%Y-%m-%d %H:%M:%S")
        lines.append(f"{stamp} [{job}] starting")
        lines.append(f"{stamp} [{job}] running: {c.run}")
        ci = len(lines) - 1
        lines += [f"{stamp} [{job}] | {ln}" for ln in c.lines]
        ei = len(lines) - 1
        lines.append(f"{stamp} [{job}] exit status {c.exit}")
    return path, lines, ci, ei


def grep_render(path: str, lines: list[str], first_no: int, matches: list[int], before: int, after: int,
                regex: re.Pattern | None, color: bool, show_path: bool = True) -> list[str]:
    keep: list[int] = []
    mset = set(matches)
    for m in matches:
        for j in range(max(0, m - before), min(len(lines), m + after + 1)):
            if j not in keep:
                keep.append(j)
    keep.sort()
    out = []
    prev = None
    for j in keep:
        if prev is not None and j != prev + 1:
            out.append("\x1b[36m\x1b[K--\x1b[m\x1b[K" if color else "--")
        sep = ":" if j in mset else "-"
        body = lines[j]
        no = str(first_no + j)
        if color:
            if j in mset and regex is not None:
                body = regex.sub(lambda m: f"\x1b[01;31m\x1b[K{m.group(0)}\x1b[m\x1b[K", body)
            csep = f"\x1b[36m\x1b[K{sep}\x1b[m\x1b[K"
            head = (f"\x1b[35m\x1b[K{path}\x1b[m\x1b[K{csep}" if show_path else "") + f"\x1b[32m\x1b[K{no}\x1b[m\x1b[K{csep}"
            out.append(head + body)
        else:
            out.append((f"{path}{sep}" if show_path else "") + f"{no}{sep}{body}")
        prev = j
    return out


def s_grep_hits(c: Ctx) -> str:
    r = c.rng
    path, lines, ci, ei = build_log(c)
    first_no = r.randint(1, 2400)
    kind = r.randrange(3)
    tool = pick(r, ["grep", "grep", "rg"])
    color = tool == "grep" and r.random() < 0.3
    if path.startswith("/var/log/pods/"):
        root = "/var/log/pods/"
    else:
        root = path.split("/", 1)[0] + "/"
    phrase = ""
    if kind == 2:
        words = c.key.split()
        phrase = ""
        for w in words:
            if len(phrase) + len(w) > 32:
                break
            phrase = (phrase + " " + w).strip()
        if len(phrase) < 6 or "'" in phrase:
            kind = 1
    if kind == 0:
        toks = c.run.split()
        needle = " ".join(toks[:2]) if len(toks) > 1 and "'" not in " ".join(toks[:2]) else toks[0]
        regex = re.compile(re.escape(needle))
        fixed = re.escape(needle) != needle
    elif kind == 1:
        needle = GREP_KEYS
        regex = re.compile(GREP_KEYS)
        fixed = False
    else:
        needle = phrase
        regex = re.compile(re.escape(phrase))
        fixed = True
    matches = [j for j, ln in enumerate(lines) if regex.search(ln)]
    if not matches or min(matches) > ei:
        needle = c.run.split()[0]
        regex = re.compile(re.escape(needle))
        fixed = re.escape(needle) != needle
        kind = 0
        matches = [j for j, ln in enumerate(lines) if regex.search(ln)]
    inside = [m for m in matches if m <= ei]
    before = max(0, min(inside) - ci) if kind != 0 else pick(r, [0, 0, 1, 2])
    after = max(0, ei - min(inside))
    if kind != 0 and r.random() < 0.08 and len(c.lines) > 6:
        before = min(before, 2)  # a lazier search that shows less context, as people often do
    if before and after and before == after:
        ctx_flags = f"-C {before} "
    else:
        ctx_flags = (f"-B {before} " if before else "") + (f"-A {after} " if after else "")
    quoted = shlex.quote(needle)
    if tool == "grep":
        flags = "-rn" + ("F" if fixed else ("E" if kind == 1 else ""))
        if color:
            flags = "--color=always " + flags
        cmdline = f"grep {flags} {ctx_flags}{quoted} {root}"
    else:
        cmdline = f"rg -n {'-F ' if fixed else ''}{ctx_flags}{quoted} {root}"
    heading = tool == "rg" and r.random() < 0.4
    out_lines = grep_render(path, lines, first_no, matches, before, after, regex, color, show_path=not heading)
    if heading:
        out_lines = [path] + out_lines
    head = []
    hv = r.random()
    if hv < 0.6:
        head.append(f"{c.prompt}{cmdline}")
    elif hv < 0.8:
        head.append(pick(r, [f"hits from {tool} over the runner logs:", f"$ {cmdline}", "search results:",
                             f"{tool} output ({len(matches)} matching lines):"]))
    return "\n".join(head + out_lines)


# --------------------------------------------------------------------------- 11 macos_unified_log

RELAYS = [
    ("limactl", "io.lima-vm.limactl", "hostagent"),
    ("colima", "com.abiosoft.colima", "vm"),
    ("orbstack-helper", "dev.orbstack.vmgr", "console"),
    ("buildkite-agent", "com.buildkite.agent", "job"),
    ("UTM", "com.utmapp.UTM", "serial"),
    ("multipassd", "com.canonical.multipass", "exec"),
    ("ci-relay", "com.{org}.ci.relay", "stderr"),
    ("gitlab-runner", "com.gitlab.runner", "executor"),
]


def s_macos_unified_log(c: Ctx) -> str:
    r = c.rng
    proc, sub, cat = pick(r, RELAYS)
    sub = sub.replace("{org}", c.org)
    pid = r.randint(300, 99000)
    tid = r.randint(0x1000, 0x3fffff)
    v = r.randrange(4)
    vm = pick(r, ["default", "ubuntu", "docker", f"{c.proj}-dev", "jammy", "builder"])
    d = c.dt()
    msgs: list[tuple[str, str]] = []
    msgs.append(("Default", pick(r, [f"[{vm}] exec: {c.run}", f"running on {vm}: {c.run}", f"ssh {c.user}@{vm}.local -- {c.run}", f"job step started: {c.run}"])))
    etype = "Error" if c.stream == "stderr" else "Default"
    for ln in c.lines:
        if not ln.strip():
            continue
        msgs.append((etype, ln))
    msgs.append(("Default" if r.random() < 0.5 else "Error", pick(r, [f"[{vm}] process exited with status {c.exit}", f"command exited: code={c.exit}", f"step failed (exit {c.exit})"])))
    out = []
    lib = pick(r, [proc, "Foundation", "libsystem_trace.dylib"])
    if v == 0:
        if r.random() < 0.6:
            out.append(f"{c.prompt if r.random() < 0.5 else '% '}log show --last {pick(r, ['5m', '10m', '1h', '30m'])} --predicate 'process == \"{proc}\"' --info")
            out.append(f"Filtering the log data using \"process == \"{proc}\"\"")
        out.append("Timestamp                       Thread     Type        Activity             PID    TTL  ")
        for typ, msg in msgs:
            d = d + timedelta(microseconds=r.randint(50, 40000))
            ts = f"{d:%Y-%m-%d %H:%M:%S}.{d.microsecond:06d}{tz_suffix(d)}"
            out.append(f"{ts} {hex(tid):<10} {typ:<11} {'0x0':<20} {pid:<6} {0:<4} {proc}: ({lib}) [{sub}:{cat}] {msg}")
        if r.random() < 0.5:
            out.append("-" * 97)
            nd = sum(1 for x in msgs if x[0] == "Default")
            ne = sum(1 for x in msgs if x[0] == "Error")
            out.append(f"Log      - Default:{nd:>11}, Info:{0:>20}, Debug:{0:>13}, Error:{ne:>11}, Fault:{0:>11}")
            out.append(f"Activity - Create:{0:>12}, Transition:{0:>14}, Actions:{0:>11}")
    elif v == 1:
        out.append("Timestamp               Ty Process[PID:TID]")
        for typ, msg in msgs:
            d = d + timedelta(microseconds=r.randint(50, 40000))
            ty = {"Default": "Df", "Error": "E ", "Info": "I "}[typ]
            out.append(f"{d:%Y-%m-%d %H:%M:%S}.{d.microsecond // 1000:03d} {ty} {proc}[{pid}:{tid:x}] [{sub}:{cat}] {msg}")
    elif v == 2:
        host = pick(r, ["MacBook-Pro", "Mac-mini", f"{c.user}s-MBP", "build-mac-02"])
        for _typ, msg in msgs:
            d = d + timedelta(microseconds=r.randint(50, 40000))
            out.append(f"{d:%Y-%m-%d %H:%M:%S}.{d.microsecond:06d}{tz_suffix(d)}  {host} {proc}[{pid}]: ({lib}) [{sub}:{cat}] {msg}")
        if r.random() < 0.5:
            out.insert(0, f"% log show --style syslog --last 15m --predicate 'subsystem == \"{sub}\"'")
    else:
        # Console.app "Copy" of selected rows: type, time, process, message (tab separated)
        for typ, msg in msgs:
            d = d + timedelta(microseconds=r.randint(50, 40000))
            out.append(f"{typ.lower()}\t{d:%H:%M:%S}.{d.microsecond:06d}{tz_suffix(d)}\t{proc}\t{msg}")
        if r.random() < 0.5:
            out.insert(0, pick(r, ["Copied from Console.app (filtered on the relay process):", f"Console, filter: process:{proc}", ""]))
    return "\n".join(x for x in out if x != "")


# --------------------------------------------------------------------------- 12 windows_event_xml


def win_time(d: datetime) -> str:
    u = d.astimezone(UTC)
    return f"{u:%Y-%m-%dT%H:%M:%S}.{u.microsecond:06d}{u.second % 10}Z"


def s_windows_event_xml(c: Ctx) -> str:
    r = c.rng
    whost = pick(r, WIN_HOSTS)
    distro = pick(r, ["Ubuntu", "Ubuntu-22.04", "Ubuntu-24.04", "Debian"])
    task = pick(r, ["nightly-build", f"{c.proj}-sync", "BuildAgent\\Run", "ci-job-" + str(r.randint(100, 9999)), "refresh-deps"])
    wcmd = f'wsl.exe -d {distro} --cd {c.cwd} -- bash -lc "{c.run.replace(chr(34), chr(92) + chr(34))}"'
    provider = pick(r, ["WslTaskRunner", "BuildAgent", "gitlab-runner", "CIRunner", f"{c.org.capitalize()}.Jobs"])
    msg_body = (f"Task '{task}' failed on {whost}.\r\nCommand: {wcmd}\r\nExit code: {c.exit}\r\nOutput:\r\n"
                + c.block.replace("\n", "\r\n"))
    if provider == "gitlab-runner" and r.random() < 0.6:
        msg_body = (f"Job failed: exit status {c.exit}\r\nduration_s={r.uniform(1, 300):.6f} job={r.randint(10000, 999999)} "
                    f"project={r.randint(10, 999)} runner={alnum(r, 8)}\r\n$ {c.run}\r\n" + c.block.replace("\n", "\r\n"))
    d = c.dt()
    v = r.randrange(4)
    rec = r.randint(10000, 999999)
    if v in (0, 1):
        xml_msg = xml_escape(msg_body).replace("\r\n", "\n")
        sysxml = (
            "<System>"
            f"<Provider Name='{provider}'/>"
            f"<EventID Qualifiers='0'>{pick(r, [1000, 1001, 4100, 2])}</EventID>"
            "<Version>0</Version><Level>2</Level><Task>0</Task><Opcode>0</Opcode>"
            "<Keywords>0x80000000000000</Keywords>"
            f"<TimeCreated SystemTime='{win_time(d)}'/>"
            f"<EventRecordID>{rec}</EventRecordID>"
            "<Correlation/>"
            f"<Execution ProcessID='{r.randint(400, 20000)}' ThreadID='{r.randint(400, 20000)}'/>"
            f"<Channel>Application</Channel><Computer>{whost}</Computer><Security/>"
            "</System>"
        )
        ev = (f"<Event xmlns='http://schemas.microsoft.com/win/2004/08/events/event'>{sysxml}"
              f"<EventData><Data>{xml_msg}</Data></EventData></Event>")
        if v == 1:
            # pretty-printed as in Event Viewer's XML view, plus the Task Scheduler record
            ev = ("<Event xmlns=\"http://schemas.microsoft.com/win/2004/08/events/event\">\n"
                  "  <System>\n"
                  f"    <Provider Name=\"{provider}\" />\n"
                  f"    <EventID Qualifiers=\"0\">{pick(r, [1000, 1001, 4100, 2])}</EventID>\n"
                  "    <Version>0</Version>\n    <Level>2</Level>\n    <Task>0</Task>\n    <Opcode>0</Opcode>\n"
                  "    <Keywords>0x80000000000000</Keywords>\n"
                  f"    <TimeCreated SystemTime=\"{win_time(d)}\" />\n"
                  f"    <EventRecordID>{rec}</EventRecordID>\n"
                  "    <Correlation />\n"
                  f"    <Execution ProcessID=\"{r.randint(400, 20000)}\" ThreadID=\"{r.randint(400, 20000)}\" />\n"
                  "    <Channel>Application</Channel>\n"
                  f"    <Computer>{whost}</Computer>\n"
                  "    <Security />\n"
                  "  </System>\n"
                  "  <EventData>\n"
                  f"    <Data>{xml_msg}</Data>\n"
                  "  </EventData>\n"
                  "</Event>")
            ts_ev = ("<Event xmlns=\"http://schemas.microsoft.com/win/2004/08/events/event\">\n"
                     "  <System>\n"
                     "    <Provider Name=\"Microsoft-Windows-TaskScheduler\" Guid=\"{de7b24ea-73c8-4a09-985d-5bdadcfa9017}\" />\n"
                     "    <EventID>201</EventID>\n    <Version>2</Version>\n    <Level>4</Level>\n    <Task>201</Task>\n"
                     f"    <TimeCreated SystemTime=\"{win_time(d + timedelta(seconds=r.randint(1, 30)))}\" />\n"
                     f"    <EventRecordID>{rec + r.randint(1, 50)}</EventRecordID>\n"
                     "    <Channel>Microsoft-Windows-TaskScheduler/Operational</Channel>\n"
                     f"    <Computer>{whost}</Computer>\n  </System>\n"
                     "  <EventData Name=\"ActionSuccess\">\n"
                     f"    <Data Name=\"TaskName\">\\{xml_escape(task)}</Data>\n"
                     f"    <Data Name=\"TaskInstanceId\">{{{uuid4(r)}}}</Data>\n"
                     "    <Data Name=\"ActionName\">C:\\Windows\\System32\\wsl.exe</Data>\n"
                     f"    <Data Name=\"ResultCode\">{c.exit}</Data>\n"
                     f"    <Data Name=\"EnginePID\">{r.randint(400, 20000)}</Data>\n"
                     "  </EventData>\n</Event>")
            return ev + "\n\n" + ts_ev if r.random() < 0.5 else ev
        return ev
    # Get-WinEvent | Format-List
    def fl(name: str, value: str, width: int = 12) -> list[str]:
        vals = value.split("\n")
        return [f"{name:<{width}} : {vals[0]}"] + [" " * (width + 3) + x for x in vals[1:]]
    local = d.astimezone(c.tz)
    h12 = local.hour % 12 or 12
    tstr = f"{local.month}/{local.day}/{local.year} {h12}:{local.minute:02d}:{local.second:02d} {'AM' if local.hour < 12 else 'PM'}"
    msg = msg_body.replace("\r\n", "\n")
    out = [f"PS C:\\Users\\{c.user}> Get-WinEvent -FilterHashtable @{{LogName='Application'; ProviderName='{provider}'}} -MaxEvents 1 | Format-List" + (" *" if v == 3 else ""), ""]
    if v == 2:
        out += fl("TimeCreated", tstr) + fl("ProviderName", provider) + fl("Id", str(1000)) + fl("Message", msg)
    else:
        w = 20
        out += fl("Message", msg, w) + fl("Id", "1000", w) + fl("Version", "", w) + fl("Qualifiers", "0", w) + fl("Level", "2", w)
        out += fl("Task", "0", w) + fl("Opcode", "", w) + fl("Keywords", "36028797018963968", w) + fl("RecordId", str(rec), w)
        out += fl("ProviderName", provider, w) + fl("LogName", "Application", w) + fl("MachineName", whost, w)
        out += fl("TimeCreated", tstr, w) + fl("LevelDisplayName", "Error", w) + fl("KeywordsDisplayNames", "{Classic}", w)
    return "\n".join(ln.rstrip() for ln in out) + "\n"


# --------------------------------------------------------------------------- 13 chatops_bot

BOTS = ["opsbot", "Hubot", "errbot", "lita", "shellbot", "marvin", "deploybot", "jarvis"]
REACTIONS = [":eyes:", ":white_check_mark:", ":x:", ":thinking_face:", ":fire:", ":sweat_smile:", ":+1:", ":rotating_light:"]


def s_chatops_bot(c: Ctx) -> str:
    r = c.rng
    bot = pick(r, BOTS)
    d = c.dt()
    invoke = pick(r, [f"!sh {c.run}", f"/run {c.run}", f"@{bot.lower()} exec {c.run}", f"!run {c.run}", f".sh {c.run}"])
    target = pick(r, [c.host, f"{c.proj}-staging", "build-runner-2", f"ci-{r.randint(1, 9)}", "bastion"])
    dur = f"{r.uniform(0.2, 40):.2f}s"
    status = pick(r, [f"exit {c.exit}", f"exited with status {c.exit}", f"FAILED (rc={c.exit})", f"return code {c.exit}"])
    lines = c.block.split("\n")
    shown = c.block
    note = ""
    if len(lines) > 30 and r.random() < 0.5:
        head_n, tail_n = r.randint(6, 10), r.randint(12, 18)
        cut = lines[:head_n] + [f"... ({len(lines) - head_n - tail_n} lines omitted) ..."] + lines[-tail_n:]
        if c.key in "\n".join(cut):
            shown = "\n".join(cut)
            note = f"(output truncated to {head_n + tail_n} of {len(lines)} lines)"
    other = pick(r, [u for u in USERS if u != c.user])
    v = r.randrange(3)
    if v == 0:
        out = [f"{c.user}  {ampm(d)}", invoke,
               f"{bot}  APP  {ampm(d + timedelta(seconds=3))}",
               f"{pick(r, [':x:', ':red_circle:', ':warning:'])} `{c.run}` on `{target}` {status} after {dur}"]
        if note:
            out.append(note)
        out += ["```", shown, "```"]
        rx = r.sample(REACTIONS, r.randint(1, 3))
        out.append("  ".join(f"{x} {r.randint(1, 4)}" for x in rx))
        if r.random() < 0.6:
            when = pick(r, ["today at ", ""])
            out.append(f"{r.randint(1, 6)} replies  Last reply {when}{ampm(d + timedelta(minutes=r.randint(2, 40)))}")
        if r.random() < 0.4:
            out += [f"{other}  {ampm(d + timedelta(minutes=1))}", pick(r, ["hm, same thing on my machine", "was this working yesterday?", "looking", "ugh, again?"])]
        return "\n".join(out)
    if v == 1:
        out = [f"{c.full_name} — Today at {ampm(d)}", invoke,
               f"{bot} BOT — Today at {ampm(d + timedelta(seconds=2))}",
               f"**{status}** · host `{target}` · {dur}"]
        if note:
            out.append(f"_{note}_")
        out += ["```", shown, "```"]
        out.append(" ".join(f"{x} {r.randint(1, 5)}" for x in r.sample(["👀", "❌", "🔥", "🤔", "👍"], r.randint(1, 3))))
        if r.random() < 0.5:
            out.append(f"🧵 Thread · {r.randint(1, 5)} messages ›")
        return "\n".join(out)
    # IRC/Matrix-like log of an Errbot / Lita room
    stamp = d.strftime("%H:%M")
    room = "#" + pick(r, TEAMS_CH)
    out = [f"-- {room} -- {d:%a %b %d %Y}"]
    out.append(f"[{stamp}] <{c.user}> {invoke}")
    out.append(f"[{stamp}] <{bot}> {c.user}: {status} on {target} ({dur})")
    if note:
        out.append(f"[{stamp}] <{bot}> {note}")
    for ln in shown.split("\n"):
        out.append(f"[{stamp}] <{bot}> {ln}" if ln.strip() else f"[{stamp}] <{bot}>  ")
    if r.random() < 0.5:
        out.append(f"[{(d + timedelta(minutes=1)):%H:%M}] * {other} reacted with {pick(r, ['👀', '😬', '🔥'])}")
    return "\n".join(out)


# --------------------------------------------------------------------------- 14 outlook_forward


def ascii_fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def s_outlook_forward(c: Ctx) -> str:
    r = c.rng
    dom = pick(r, DOMAINS)
    sender = c.full_name
    first = sender.split()[0]
    semail = ascii_fold(f"{first.lower()}.{sender.split()[-1].lower()}@{dom}")
    fwd_name = pick(r, [n for n in FULL_NAMES if n != sender])
    fwd_email = ascii_fold(f"{fwd_name.split()[0][0].lower()}{fwd_name.split()[-1].lower()}@{dom}")
    if r.random() < 0.6:
        to_name, to_email = pick(r, [("IT Service Desk", "servicedesk"), ("Platform Team", "platform-team"), ("DevOps Support", "devops"),
                                     ("Build Engineering", "build-eng"), ("Dev Help", "help")])
        to_email += f"@{dom}"
        hi = pick(r, ["Hi,", "Hello,", "Hi all,", "Hey all,", "Hello team,"])
    else:
        to_name = pick(r, [n for n in FULL_NAMES if n not in (sender, fwd_name)])
        to_email = ascii_fold(f"{to_name.split()[0].lower()}.{to_name.split()[-1].lower()}@{dom}")
        hi = pick(r, [f"Hi {to_name.split()[0]},", f"Hello {to_name.split()[0]},", f"{to_name.split()[0]},"])
    d0 = c.dt()
    d1 = c.dt(r.randint(600, 86400))
    subj_core = pick(r, [f"{c.tool_word()} failing", f"Error when running {c.run.split()[0] if c.known else 'my script'}",
                         "Can't get past this error", f"{c.proj}: build broken?", "Help needed - terminal error"])
    subj = subj_core if r.random() < 0.6 else f"{subj_core} - {c.key[:60]}"
    ext = r.random()
    banner = ""
    if ext < 0.3:
        banner = ("CAUTION: This email originated from outside of the organization. Do not click links or open attachments "
                  "unless you recognize the sender and know the content is safe.\n\n")
    elif ext < 0.45:
        banner = f"You don't often get email from {semail}. Learn why this is important<https://aka.ms/LearnAboutSenderIdentification>\n\n"
    if ext < 0.45 and r.random() < 0.5:
        subj = "[EXTERNAL] " + subj
    intro = pick(r, [
        f"Hi team,\n\nForwarding this from {first}, can someone take a look? Looks like it's blocking the release.",
        f"FYI - see below. {first} hit this on their machine this morning.",
        "Adding the platform team. Not sure who owns this one.",
        f"Hi,\n\nplease see {first}'s message below and advise.",
        f"Can someone help {first} with this? Ticket INC{r.randint(100000, 999999)} has been raised too.",
    ])
    cid = f"[cid:image00{r.randint(1, 4)}.png@01D{hexid(r, 5).upper()}.{hexid(r, 8).upper()}]"
    cv = r.random()
    if cv < 0.4:
        cmdline = f"I ran:\n\n{c.run}\n\nand got this:"
    elif cv < 0.7:
        cmdline = f"When I run {c.run} from {c.tilde} I get the error below."
    else:
        cmdline = pick(r, [f"Since this morning {c.run} stops with the following message.",
                           f"I'm trying to {c.goal()} but {c.run} keeps failing with:"])
    if not c.known:
        cmdline = pick(r, ["When I run my script I get the following:", "Running the script from VS Code gives me this:"])
    body_inner = f"{cmdline}\n\n{c.block if r.random() < 0.7 else c.session()}"
    if r.random() < 0.5:
        body_inner += f"\n\n{pick(r, ['Screenshot attached as well:', 'Screenshot:', 'See screenshot below.'])}\n{cid}"
    sig = pick(r, [f"\n\nThanks,\n{first}", f"\n\nBest regards,\n{sender}\n{pick(r, ['Software Engineer', 'Data Analyst', 'QA Engineer', 'Intern'])} | {pick(r, COMPANIES)}",
                   f"\n\nCheers\n{first}\n\nGet Outlook for iOS<https://aka.ms/o0ukef>"])
    sent = f"{long_date(d0)} {ampm(d0)}"
    sep = "-----Original Message-----" if r.random() < 0.5 else "________________________________"
    orig = f"{sep}\nFrom: {sender} <{semail}>\nSent: {sent}\nTo: {to_name} <{to_email}>\n"
    if r.random() < 0.3:
        orig += f"Cc: {pick(r, [n for n in FULL_NAMES if n != sender])}\n"
    orig += f"Subject: {subj}\n\n"
    top = ""
    if r.random() < 0.6:
        top = (f"From: {fwd_name} <{fwd_email}>\nSent: {long_date(d1)} {ampm(d1)}\n"
               f"To: {pick(r, ['Platform Team', 'DevOps Support', pick(r, FULL_NAMES)])}\nSubject: FW: {subj}\n\n")
    return f"{top}{banner}{intro}\n\n{fwd_name.split()[0]}\n\n{orig}{hi}\n\n{body_inner}{sig}"


# --------------------------------------------------------------------------- 15 mattermost_json


def mm_id(r: random.Random) -> str:
    return alnum(r, 26)


def s_mattermost_json(c: Ctx) -> str:
    r = c.rng
    v = r.randrange(3)
    ms = c.ts * 1000 + r.randint(0, 999)
    intro = pick(r, [f"anyone seen this? trying to {c.goal()}", f"running `{c.run}` and it blows up", "getting this since this morning :confused:",
                     f"quick one - `{c.run}` fails for me"])
    if not c.known:
        intro = pick(r, ["my script crashes on start, any idea?", "getting this traceback when I run the script"])
    named = c.run in intro
    code = f"```\n{c.session() if r.random() < 0.5 or not named else c.block}\n```"
    if v == 0:
        uid = mm_id(r)
        chan = mm_id(r)
        posts = []
        root = mm_id(r)
        in_attach = r.random() < 0.4
        base = {"id": root, "create_at": ms, "update_at": ms, "edit_at": 0, "delete_at": 0, "is_pinned": False,
                "user_id": uid, "channel_id": chan, "root_id": "", "original_id": "", "message": "", "type": "",
                "props": {}, "hashtags": "", "pending_post_id": "", "reply_count": 1, "metadata": {}}
        if in_attach:
            base["message"] = f"CI job `{c.proj}` failed"
            base["type"] = "slack_attachment"
            base["user_id"] = mm_id(r)
            base["props"] = {"from_webhook": "true", "override_username": pick(r, ["jenkins", "gitlab", "ci-bot", "buildkite"]),
                             "attachments": [{"id": 0, "fallback": f"{c.run} failed (exit {c.exit})", "color": "#FF0000",
                                              "pretext": "", "author_name": "", "title": f"$ {c.run}",
                                              "text": f"```\n{c.block}\n```", "fields": [{"title": "Exit code", "value": str(c.exit), "short": True},
                                                                                         {"title": "Host", "value": c.host, "short": True}]}]}
            posts.append(base)
            reply = dict(base, id=mm_id(r), create_at=ms + r.randint(20000, 400000), root_id=root, user_id=uid,
                         message=pick(r, ["that's mine, looking", "@channel anyone know this one?", "same error locally"]),
                         type="", props={}, reply_count=1)
            reply["update_at"] = reply["create_at"]
            posts.append(reply)
        else:
            base["message"] = f"{intro}\n{code}"
            posts.append(base)
            reply = dict(base, id=mm_id(r), create_at=ms + r.randint(20000, 400000), root_id=root, user_id=mm_id(r),
                         message=pick(r, ["which branch are you on?", "did you pull latest?", ":eyes:", "works on my machine, checking"]), reply_count=1)
            reply["update_at"] = reply["create_at"]
            if r.random() < 0.6:
                posts.append(reply)
            if r.random() < 0.5:
                base["metadata"] = {"reactions": [{"user_id": mm_id(r), "post_id": root, "emoji_name": pick(r, ["eyes", "+1", "thinking"]),
                                                   "create_at": ms + 5000, "update_at": ms + 5000, "delete_at": 0, "remote_id": "", "channel_id": chan}]}
        return "\n".join(json.dumps(p, ensure_ascii=False) for p in posts)
    if v == 1:
        team = pick(r, [c.org, "engineering", "dev"])
        ch = pick(r, TEAMS_CH)
        rows = [{"type": "version", "version": 1}] if r.random() < 0.4 else []
        post = {"team": team, "channel": ch, "user": c.user, "message": f"{intro}\n{code}", "props": {},
                "create_at": ms, "flagged_by": None, "reactions": [], "replies": []}
        if r.random() < 0.5:
            post["reactions"] = [{"user": pick(r, USERS), "emoji_name": pick(r, ["eyes", "white_check_mark", "sweat_smile"]), "create_at": ms + 9000}]
        if r.random() < 0.5:
            post["replies"] = [{"user": pick(r, USERS), "message": pick(r, ["what OS?", "can you share the full log?", "looking into it"]),
                                "create_at": ms + r.randint(30000, 900000), "reactions": []}]
        rows.append({"type": "post", "post": post})
        return "\n".join(json.dumps(x, ensure_ascii=False) for x in rows)
    # Rocket.Chat mongoexport
    d = datetime.fromtimestamp(ms / 1000, tz=UTC)
    iso = f"{d:%Y-%m-%dT%H:%M:%S}.{ms % 1000:03d}Z"
    uid = alnum(r, 17, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
    doc = {"_id": alnum(r, 17, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"), "rid": pick(r, ["GENERAL", alnum(r, 17)]),
           "msg": f"{intro}\n{code}", "ts": {"$date": iso}, "u": {"_id": uid, "username": c.user, "name": c.full_name},
           "_updatedAt": {"$date": iso}, "urls": [], "mentions": [], "channels": [], "md": []}
    if r.random() < 0.4:
        doc["msg"] = intro
        doc["attachments"] = [{"title": f"{c.run}", "text": c.block, "color": "danger", "ts": {"$date": iso}}]
    if r.random() < 0.4:
        doc["reactions"] = {":eyes:": {"usernames": [pick(r, USERS)]}}
    return json.dumps(doc, ensure_ascii=False)


# --------------------------------------------------------------------------- 16 label_studio_task


def observation_text(c: Ctx) -> str:
    r = c.rng
    v = r.randrange(3)
    app = pick(r, ["GNOME Terminal", "the VS Code integrated terminal", "Konsole", "Windows Terminal (WSL)", "iTerm2 over SSH"])
    if v == 0:
        return c.session()
    if v == 1:
        lead = (f"The user switched to {app} and ran `{c.run}` in {c.tilde}. The command failed and printed:"
                if c.known else f"The user ran the script in {app}. It crashed and printed:")
        return f"{lead}\n{c.block}"
    return (f"The user is working in {app} on the '{c.proj}' project. They type '{c.run}' and press Enter. "
            f"The terminal shows an error:\n{c.block}\nThe user scrolls up and re-reads the output.")


def spans_for(text: str, c: Ctx) -> list[tuple[int, int, str, str]]:
    spans = []
    i = text.find(c.run)
    if i >= 0:
        spans.append((i, i + len(c.run), "COMMAND", c.run))
    if c.key:
        j = text.find(c.key)
        if j >= 0 and not (i >= 0 and i <= j < i + len(c.run)):
            spans.append((j, j + len(c.key), "ERROR_MESSAGE", c.key))
    return spans


def s_label_studio_task(c: Ctx) -> str:
    r = c.rng
    text = observation_text(c)
    spans = spans_for(text, c)
    v = r.randrange(3)
    d = c.dt(r.randint(86400, 86400 * 20))
    iso = f"{d.astimezone(UTC):%Y-%m-%dT%H:%M:%S}.{r.randint(0, 999999):06d}Z"
    tid = r.randint(1, 5000)
    if v == 0:
        result = [{"value": {"choices": [pick(r, ["Needs help", "Error on screen"])]}, "id": alnum(r, 10, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"),
                   "from_name": "intent", "to_name": "text", "type": "choices", "origin": "manual"}]
        for s, e, lab, sub in spans:
            result.append({"value": {"start": s, "end": e, "text": sub, "labels": [lab]}, "id": alnum(r, 10),
                           "from_name": "label", "to_name": "text", "type": "labels", "origin": "manual"})
        task = {"id": tid, "annotations": [{"id": tid + r.randint(0, 300), "completed_by": r.randint(1, 12), "result": result,
                                            "was_cancelled": False, "ground_truth": False, "created_at": iso, "updated_at": iso,
                                            "draft_created_at": None, "lead_time": round(r.uniform(4, 120), 3), "prediction": {},
                                            "result_count": 0, "unique_id": uuid4(r), "import_id": None, "last_action": None,
                                            "task": tid, "project": r.randint(1, 40), "updated_by": r.randint(1, 12),
                                            "parent_prediction": None, "parent_annotation": None, "last_created_by": None}],
                "file_upload": f"{hexid(r, 8)}-screen_obs_{c.dt():%Y%m%d}.json", "drafts": [], "predictions": [],
                "data": {"text": text, "session": f"{c.user}-{c.dt():%Y%m%d}", "ts": str(c.ts)}, "meta": {},
                "created_at": iso, "updated_at": iso, "inner_id": tid, "total_annotations": 1, "cancelled_annotations": 0,
                "total_predictions": 0, "comment_count": 0, "unresolved_comment_count": 0, "last_comment_updated_at": None,
                "project": r.randint(1, 40), "updated_by": r.randint(1, 12), "comment_authors": []}
        return json.dumps([task], indent=pick(r, [2, 4, None]), ensure_ascii=False)
    if v == 1:
        rec = {"text": text, "id": tid, "intent": pick(r, ["Needs help", "Error on screen"]),
               "label": [{"start": s, "end": e, "text": sub, "labels": [lab]} for s, e, lab, sub in spans],
               "annotator": r.randint(1, 12), "annotation_id": tid + r.randint(1, 400), "created_at": iso, "updated_at": iso,
               "lead_time": round(r.uniform(4, 120), 3)}
        return json.dumps([rec], indent=2, ensure_ascii=False)
    ih = r.randint(-2**31, 2**31 - 1)
    th = r.randint(-2**31, 2**31 - 1)
    if r.random() < 0.5:
        rec = {"text": text, "_input_hash": ih, "_task_hash": th,
               "spans": [{"start": s, "end": e, "label": lab} for s, e, lab, _ in spans],
               "_view_id": "ner_manual", "answer": "accept", "_timestamp": c.ts + r.randint(86400, 900000),
               "_annotator_id": f"screenobs-{c.user}", "_session_id": f"screenobs-{c.user}"}
    else:
        rec = {"text": text, "_input_hash": ih, "_task_hash": th,
               "options": [{"id": "HELP", "text": "User needs help"}, {"id": "OK", "text": "No help needed"}, {"id": "UNSURE", "text": "Unclear"}],
               "_view_id": "choice", "accept": ["HELP"], "config": {"choice_style": "single"}, "answer": "accept",
               "_timestamp": c.ts + r.randint(86400, 900000), "_annotator_id": f"helpneed-{pick(r, USERS)}", "_session_id": f"helpneed-{pick(r, USERS)}"}
    return json.dumps(rec, ensure_ascii=False)


# --------------------------------------------------------------------------- driver

RENDER = {
    "sharegpt_json": s_sharegpt_json,
    "alpaca_record": s_alpaca_record,
    "chat_template": s_chat_template,
    "tool_call_json": s_tool_call_json,
    "gui_agent_trace": s_gui_agent_trace,
    "a11y_tree": s_a11y_tree,
    "keystroke_stream": s_keystroke_stream,
    "strace_writes": s_strace_writes,
    "bash_history_ts": s_bash_history_ts,
    "grep_hits": s_grep_hits,
    "macos_unified_log": s_macos_unified_log,
    "windows_event_xml": s_windows_event_xml,
    "chatops_bot": s_chatops_bot,
    "outlook_forward": s_outlook_forward,
    "mattermost_json": s_mattermost_json,
    "label_studio_task": s_label_studio_task,
}


def main() -> None:
    cases = load_cases()
    deck_rng = random.Random(DECK_SEED)
    stream: list[str] = []

    def draw() -> str:
        if not stream:
            deck = STYLES[:]
            deck_rng.shuffle(deck)
            stream.extend(deck)
        return stream.pop(0)

    rows = []
    for file, idx, cmd, err in cases:
        pair = [draw(), draw()]
        assert pair[0] != pair[1]
        for style in pair:
            ctx = make_ctx(file, idx, cmd, err, style)
            text = RENDER[style](ctx)
            rows.append({"file": file, "case": idx, "style": style, "text": text})
    with OUT.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["style"]] = counts.get(row["style"], 0) + 1
    print(f"wrote {len(rows)} rows to {OUT}")
    for s in STYLES:
        print(f"  {s:<18} {counts.get(s, 0)}")


if __name__ == "__main__":
    main()
