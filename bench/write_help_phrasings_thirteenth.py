"""Write ``bench/help_phrasings_thirteenth.jsonl``: every help case seen through two unfamiliar media.

Each ``[[case]]`` of ``bench/help_cases/*.toml`` (files sorted by name) and then of
``bench/help_heldout/set*.toml`` (sorted) gets exactly two rows. Each row is an
observation of someone hitting the case's error after running (or trying to run)
its command, rendered in one of sixteen styles. The two rows of a case always use
two different styles. Styles are dealt from a seeded stream of shuffled 16-card
decks (two cards per case; a deck never straddles a case), so per-style counts
differ by at most one.

Styles:
  azure_devops_log   Azure Pipelines job log as downloaded: 7-digit-fraction ISO timestamps, task banner,
                     ##[section]/##[command]/##[error] lines, a CmdLine/Bash step running the command.
  buildkite_log      Buildkite job log: ~~~ / --- / +++ headers, "$ cmd" echo lines, docker-compose plugin
                     or step scripts, "Error: The command exited with status N", "^^^ +++", _bk;t= stamps.
  teamcity_messages  TeamCity build log ("[hh:mm:ss]W:<TAB> [Step 2/3] ...", step nesting) or raw
                     ##teamcity[message|buildProblem ...] service messages with |n |' |[ |] || escaping.
  docker_json_log    Docker json-file driver lines ({"log":...,"stream":...,"time":...}) from
                     /var/lib/docker/containers/<id>/<id>-json.log; the command as the container's Cmd.
  airflow_task_log   Apache Airflow BashOperator task log (1.10, 2.x and 2.8+ layouts): Running command
                     [...], subprocess output lines, exit code, AirflowException traceback, FAILED marker.
  heroku_logs        Heroku release / one-off / web dyno logs, Render deploy logs, Fly.io release_command
                     failures: app[...]/heroku[...] lines, "Process exited with status N".
  netlify_build      Netlify, Vercel or Cloudflare Pages deploy log, a time prefix on every line, the
                     build.command section and the platform's failure summary.
  cloudwatch_logs    AWS CloudWatch: `aws logs tail` lines, a CodeBuild [Container] phase log with
                     COMMAND_EXECUTION_ERROR, or a Logs Insights @timestamp/@message table (markdown/CSV).
  gcp_logging_json   Google Cloud Logging entries as JSON or `gcloud logging read` YAML (Cloud Build
                     steps, Cloud Run jobs), one entry per line or the whole stderr in one payload, or
                     a `gcloud builds log` dump with Step #N prefixes.
  splunk_events      Splunk search results: CSV or JSON export with _time/host/source/sourcetype/_raw,
                     or the Events viewer's copied text with "host = ... source = ..." under each event.
  otel_span_events   OpenTelemetry trace data of the run (OTLP JSON, Jaeger JSON, Jaeger UI copy): span
                     named after the command, process.* attributes, exception / log events with stderr.
  kaggle_log         Notebook run logs: Kaggle's JSON array of {"stream_name","time","data"} records for a
                     !command or %%bash cell, or a papermill run failing with PapermillExecutionError.
  swebench_instance  SWE-bench style task record or GitHub-issue dataset row (JSON, escaped) whose
                     problem statement / body is issue markdown with repro steps and the output.
  bbcode_forum       phpBB / vBulletin / SMF / Discourse post in BBCode: [quote], [code], [b], [i], [url],
                     [details], signatures and "Last edited by ..." footers.
  redmine_textile    Redmine ticket (Textile <pre>, @inline@, bq., h3., *bold*, notification mail with
                     journal notes) or Trac ticket (WikiFormatting {{{ }}}, [[BR]], == heading ==).
  whatsapp_export    WhatsApp iOS/Android plain-text chat export or Telegram Desktop copied messages,
                     multi-line pastes continuing on lines without a prefix, <Media omitted>, U+200E marks.

Output format: one JSON object per line, UTF-8, in case order, slot 0 then slot 1:
  {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}
``file`` is the TOML file's base name and ``case`` the 0-based index of the [[case]] table in it.
Everything is seeded (the deck stream by a fixed integer, each row by a string naming its file, case,
slot and style), so rerunning the script gives byte-identical output.

Blind writing: this script and its texts were written without looking at the project's code, tests,
docs, other phrasing sets or their writer scripts, or git history. The only project data read are the
``error`` and ``command`` keys of each [[case]] table (loaded with tomllib; nothing else in the tables
is touched, and the script reads only those two keys), plus a glance at a few ProactiveBench sessions
under /work/shared/data/proactivebench/sessions/ for tone. Media formats were checked against public
examples (TeamCity, Azure Pipelines, Airflow, Netlify and Kaggle logs) through the library search tools.
When a case has no command, a plausible one is inferred from the traceback's script path.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import random
import re
import shlex
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
OUT_PATH = BENCH / "help_phrasings_thirteenth.jsonl"
DEAL_SEED = 1_313_2024
ROW_SEED = "help-phrasings-thirteenth/v1"

STYLES = (
    "azure_devops_log",
    "buildkite_log",
    "teamcity_messages",
    "docker_json_log",
    "airflow_task_log",
    "heroku_logs",
    "netlify_build",
    "cloudwatch_logs",
    "gcp_logging_json",
    "splunk_events",
    "otel_span_events",
    "kaggle_log",
    "swebench_instance",
    "bbcode_forum",
    "redmine_textile",
    "whatsapp_export",
)

FIRST_NAMES = (
    "Priya", "Marek", "Sofia", "Kwame", "Lena", "Diego", "Aiko", "Tomás", "Hannah", "Ravi",
    "Olu", "Mei", "Jonas", "Fatima", "Lucas", "Inês", "Dmitri", "Chloe", "Samir", "Noor",
    "Bjørn", "Carmen", "Yusuf", "Elif", "Pedro", "Ana", "Kai", "Zoe", "Mateo", "Ingrid",
    "Arjun", "Sven", "Nadia", "Tariq", "Greta", "Hugo", "Leila", "Oscar", "Mina", "Felix",
    "Rosa", "Ibrahim", "Keiko", "Nikolai", "Amara", "Joaquín", "Ulla", "Wen", "Declan", "Thandi",
)
LAST_NAMES = (
    "Sharma", "Novak", "Rossi", "Mensah", "Fischer", "Alvarez", "Tanaka", "Ruiz", "Becker", "Iyer",
    "Adeyemi", "Chen", "Berg", "Haddad", "Moreau", "Costa", "Volkov", "Martin", "Khan", "Hassan",
    "Lindqvist", "Ortega", "Demir", "Yilmaz", "Silva", "Pereira", "Nakamura", "Walsh", "Gómez", "Dahl",
    "Patel", "Eriksen", "Petrova", "Aziz", "Vogel", "Laurent", "Farah", "Nilsson", "Park", "Kowalski",
)
NICKS = (
    "byteshaman", "tux_rider", "nullpointer42", "grumpy_sysadmin", "kernelpanic", "coffee_and_code",
    "rusty_bucket", "segfault_sam", "yak_shaver", "lambda_lou", "dev_null", "vim_enjoyer", "pkgmgr",
    "zero_cool", "0xdeadbeef", "pingu", "midnight_oil", "quietcoder", "netslayer", "bashful", "greybeard",
    "hobbyhacker", "raspberry_ron", "pixelpusher", "stacktrace_sue", "cron_job", "ferris_fan", "gopherine",
    "javajunkie", "railsrookie", "ops_otter", "debian_dan", "nixnewbie", "homelabber", "sudo_su",
)
PROJECTS = (
    "orders-api", "billing-service", "webshop", "inventory", "blog", "metrics-pipeline",
    "customer-portal", "etl-jobs", "payments", "search-indexer", "notifier", "auth-gateway",
    "reporting", "catalog", "mobile-backend", "docs-site", "data-platform", "ml-training",
    "scheduler", "warehouse-sync", "ledger", "geo-service", "image-resizer", "support-bot",
    "crm-sync", "pricing-engine", "status-page", "feature-flags", "analytics", "shipping",
)
ORGS = (
    "acme", "northwind", "contoso", "globex", "initech", "hooli", "fabrikam", "tailspin",
    "wayfarer-labs", "bluefin", "orbital", "kestrel-io", "lumen", "polaris-data", "brightpath",
    "oakridge", "tidewater", "saltmine", "copperleaf", "nimbus-works",
)
BRANCHES = (
    "main", "main", "master", "develop", "feature/checkout-v2", "fix/ci-cache", "release/2.4",
    "renovate/all-minor-patch", "feat/new-api", "hotfix/login-timeout", "chore/bump-node",
)
COMMIT_MSGS = (
    "Bump dependencies", "Fix flaky test", "Add retry to uploader", "Refactor config loading",
    "Update README", "WIP: new import flow", "Merge pull request #412 from feat/new-api",
    "Pin base image", "Tidy CI config", "Add health check endpoint", "Switch to new logger",
)
DISTROS = (
    "Ubuntu 22.04", "Ubuntu 24.04", "Debian 12", "Fedora 40", "WSL2 (Ubuntu 22.04)",
    "Arch Linux", "Pop!_OS 22.04", "Linux Mint 21.3", "Rocky Linux 9", "Debian 11",
)
REGIONS_AWS = ("us-east-1", "eu-west-1", "eu-central-1", "us-west-2", "ap-southeast-2")
REGIONS_GCP = ("europe-west1", "us-central1", "us-east4", "asia-northeast1", "europe-north1")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

STDOUT_TOOLS = {"mvn", "mvnw", "gradlew", "gradle", "tsc", "pytest", "jest", "rspec", "rake"}
KEY_RE = re.compile(
    r"(error|fatal|exception|failed|denied|not found|refused|cannot|can't|could not|unable|"
    r"no such|invalid|unknown|panic|aborted|missing|undefined|timed out)",
    re.IGNORECASE,
)


# --------------------------------------------------------------------------- basic helpers


def pick(rng: random.Random, seq):
    return seq[rng.randrange(len(seq))]


def chance(rng: random.Random, p: float) -> bool:
    return rng.random() < p


def hexs(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def alnum(rng: random.Random, n: int, alphabet: str = "abcdefghijklmnopqrstuvwxyz0123456789") -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def guid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def person(rng: random.Random) -> tuple[str, str]:
    return pick(rng, FIRST_NAMES), pick(rng, LAST_NAMES)


def ascii_fold(s: str) -> str:
    table = str.maketrans("áàâäãåçéèêëíìîïñóòôöõøúùûüýÁÉÍÓÚÖØÅÄÜÑ", "aaaaaaceeeeiiiinoooooouuuuyAEIOUOOAAUN")
    return s.translate(table)


def email_of(rng: random.Random, first: str, last: str, domain: str) -> str:
    f, la = ascii_fold(first).lower(), ascii_fold(last).lower()
    local = pick(rng, (f"{f}.{la}", f"{f[0]}{la}", f, f"{f}{la[0]}"))
    return f"{local}@{domain}"


def shorten(s: str, n: int) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1].rstrip() + "…"


def words_of(cmd: str) -> list[str]:
    try:
        return shlex.split(cmd)
    except ValueError:
        return cmd.split()


def rand_dt(rng: random.Random) -> dt.datetime:
    base = dt.datetime(2023, 2, 1, tzinfo=dt.UTC)
    return base + dt.timedelta(seconds=rng.randrange(0, 86_000_000), microseconds=rng.randrange(1_000_000))


class Clock:
    """Monotonic fake clock for log timestamps."""

    def __init__(self, rng: random.Random, start: dt.datetime | None = None):
        self.rng = rng
        self.t = start or rand_dt(rng)

    def step(self, lo: float = 0.0006, hi: float = 0.09) -> dt.datetime:
        self.t += dt.timedelta(microseconds=int(self.rng.uniform(lo, hi) * 1_000_000))
        return self.t

    def jump(self, lo: float, hi: float) -> dt.datetime:
        return self.step(lo, hi)


def iso7(t: dt.datetime, rng: random.Random) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{t.microsecond:06d}{rng.randrange(10)}Z"


def iso_nano(t: dt.datetime, rng: random.Random, trim: bool = True) -> str:
    frac = f"{t.microsecond:06d}{rng.randrange(1000):03d}"
    if trim:
        frac = frac.rstrip("0")
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (f".{frac}" if frac else "") + "Z"


def iso_ms(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{t.microsecond // 1000:03d}"


def clock12(t: dt.datetime, seconds: bool = True) -> str:
    h = t.hour % 12 or 12
    ampm = "AM" if t.hour < 12 else "PM"
    return f"{h}:{t.minute:02d}:{t.second:02d} {ampm}" if seconds else f"{h}:{t.minute:02d} {ampm}"


def epoch_ms(t: dt.datetime) -> int:
    return int(t.timestamp() * 1000)


def epoch_ns(t: dt.datetime, rng: random.Random) -> int:
    return int(t.timestamp()) * 1_000_000_000 + t.microsecond * 1000 + rng.randrange(1000)


def go_json(obj) -> str:
    """Compact JSON the way Go's encoding/json writes it (HTML-safe escapes)."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return (
        s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


# --------------------------------------------------------------------------- case context


@dataclass
class Case:
    file: str
    index: int
    command: str | None
    error: str


@dataclass
class Ctx:
    cmd: str
    lines: list[str]
    err: str
    tool: str
    code: int
    key: str
    stream: str
    home: str


def derive_command(err: str, rng: random.Random) -> str:
    m = re.search(r'File "([^"<>]+\.py)"', err)
    if not m:
        return "python3 main.py"
    path = m.group(1)
    rel = path.removeprefix("/home/dev/")
    return pick(rng, (f"python3 {rel}", f"python3 {rel}", f"python3 {path}", f"python {rel}"))


def tool_of(cmd: str) -> str:
    ws = words_of(cmd)
    if "&&" in ws:
        ws = ws[len(ws) - ws[::-1].index("&&"):]
    while ws and (ws[0] in ("sudo", "env", "time", "nohup", "exec", "-E") or re.match(r"^[A-Z_]+=", ws[0])):
        ws = ws[1:]
    return Path(ws[0]).name if ws else "sh"


def guess_exit(cmd: str, err: str, tool: str) -> int:
    low = err.lower()
    if "command not found" in low or f"{tool}: not found" in low:
        return 127
    if cmd.startswith("./") and "permission denied" in low and err.count("\n") < 3:
        return 126
    m = re.search(r"curl: \((\d+)\)", err)
    if m:
        return int(m.group(1))
    if tool == "cargo":
        return 101
    if tool == "git" and "fatal:" in err:
        return 128
    if tool == "make" or "make: ***" in err:
        return 2
    if tool == "ssh" and ("ssh:" in err or "Permission denied (publickey" in err or "verification failed" in err):
        return 255
    if tool == "psql" and "connection" in low and "psql: error" in low:
        return 2
    if tool == "docker" and "docker: Error response from daemon" in err:
        return 125
    if tool == "systemctl" and "not found" in low:
        return 5
    if tool == "tsc":
        return 2
    return 1


def key_line(lines: list[str]) -> str:
    cands = [ln.strip() for ln in lines if ln.strip()]
    if not cands:
        return ""
    for ln in reversed(cands):
        if re.match(r"^[\w.]*(Error|Exception)\b[^ ]*:", ln):
            return ln
    for ln in cands:
        if KEY_RE.search(ln) and not ln.lower().startswith("traceback"):
            return ln
    return cands[0]


def make_ctx(case: Case, rng: random.Random) -> Ctx:
    cmd = (case.command or "").strip() or derive_command(case.error, rng)
    lines = case.error.rstrip("\n").split("\n")
    while lines and not lines[0].strip():
        lines = lines[1:]
    if not lines:
        lines = [""]
    err = "\n".join(lines)
    tool = tool_of(cmd)
    stream = "stdout" if tool in STDOUT_TOOLS or cmd.startswith(("go test", "cargo test", "npx jest")) else "stderr"
    home = pick(rng, ("/home/runner", "/home/ci", "/root", "/home/app", "/home/build"))
    return Ctx(cmd, lines, err, tool, guess_exit(cmd, err, tool), key_line(lines), stream, home)


# --------------------------------------------------------------------------- shell helpers

SAFE_WORD = re.compile(r"^[A-Za-z0-9_./:=@%+,^-]+$")


def bash_quote(word: str) -> str:
    if word and SAFE_WORD.match(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def xtrace(cmd: str, home: str) -> list[str]:
    """Lines bash's `set -x` would print for cmd (simple commands joined by && / ; only)."""
    if any(ch in cmd for ch in "$`*?(){}<>|\\"):
        return ["+ " + cmd]
    lex = shlex.shlex(cmd, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    try:
        toks = list(lex)
    except ValueError:
        return ["+ " + cmd]
    segs: list[list[str]] = [[]]
    for tk in toks:
        if tk in ("&&", "||", ";"):
            segs.append([])
        elif tk and set(tk) <= set("&;|"):
            return ["+ " + cmd]
        else:
            segs[-1].append(home + tk[1:] if tk.startswith("~/") else tk)
    return ["+ " + " ".join(bash_quote(w) for w in seg) for seg in segs if seg]


def ci_script(rng: random.Random, cmd: str, home: str, workdir: str | None = None) -> tuple[list[str], list[str]]:
    """How a CI step might hold the command: (script lines, lines it prints before the output)."""
    r = rng.random()
    pre: list[str] = []
    if workdir and chance(rng, 0.35):
        pre = [f"cd {workdir}"]
    if r < 0.45:
        return pre + [cmd], []
    if r < 0.62:
        return ["set -e", *pre, cmd], []
    if r < 0.8:
        trace = [f"+ cd {workdir}"] if pre else []
        return ["set -euxo pipefail", *pre, cmd], trace + xtrace(cmd, home)
    if r < 0.9:
        trace = [f"+ cd {workdir}"] if pre else []
        return ["set -x", *pre, cmd], trace + xtrace(cmd, home)
    banner = pick(rng, (f"==> {cmd}", f"Running: {cmd}", f">>> {cmd}", f"--- {cmd}"))
    return ["set -e", *pre, f"echo {shlex.quote(banner)}", cmd], [banner]


def tool_emoji(tool: str) -> str:
    table = {
        "python3": ":python:", "python": ":python:", "pip": ":python:", "pytest": ":pytest:",
        "npm": ":npm:", "npx": ":npm:", "node": ":nodejs:", "tsc": ":typescript:", "yarn": ":yarn:",
        "go": ":golang:", "cargo": ":rust:", "rustc": ":rust:", "docker": ":docker:",
        "kubectl": ":kubernetes:", "helm": ":helm:", "java": ":java:", "javac": ":java:",
        "mvn": ":maven:", "gradlew": ":gradle:", "bundle": ":ruby:", "ruby": ":ruby:", "rails": ":rails:",
        "gcc": ":c:", "g++": ":cpp:", "make": ":hammer:", "cmake": ":cmake:", "psql": ":postgres:",
        "mysql": ":mysql:", "ssh": ":lock:", "git": ":git:", "terraform": ":terraform:",
    }
    return table.get(tool, pick(random.Random(tool), (":hammer_and_wrench:", ":construction:", ":gear:")))


def step_label(rng: random.Random, tool: str) -> str:
    by_tool = {
        "pip": ("Install dependencies", "pip install", "Set up Python deps"),
        "npm": ("npm build", "Install & build", "Build frontend", "Install packages"),
        "npx": ("Typecheck", "Run tooling", "Lint"),
        "cargo": ("cargo build", "Build (Rust)", "Tests (Rust)"),
        "go": ("go build", "Go tests", "Vet & build"),
        "docker": ("Build image", "Docker build", "Container smoke test"),
        "kubectl": ("Deploy to cluster", "kubectl apply", "Rollout"),
        "helm": ("Helm upgrade", "Deploy chart"),
        "mvn": ("Maven package", "Build (Maven)"),
        "gradlew": ("Gradle build", "Assemble"),
        "psql": ("Migrate database", "Seed DB", "Run SQL"),
        "mysql": ("Load fixtures", "Run SQL"),
        "ssh": ("Deploy over SSH", "Remote restart"),
        "git": ("Sync repo", "Fetch submodules", "Update checkout"),
        "make": ("make", "Build", "Compile"),
        "gcc": ("Compile", "Build native"),
        "bundle": ("Bundle", "Rake tasks", "Jekyll build"),
    }
    generic = ("Run tests", "Build", "Script", "Run script", "Compile", "Smoke test", "Package", "Deploy", "Check")
    return pick(rng, by_tool.get(tool, ()) + generic)


# --------------------------------------------------------------------------- style: azure_devops_log


def r_azure(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    org, proj, branch = pick(rng, ORGS), pick(rng, PROJECTS), pick(rng, BRANCHES)
    hosted = chance(rng, 0.6)
    if hosted:
        work, home = "/home/vsts/work", "/home/vsts"
    else:
        home = pick(rng, ("/home/azureuser", "/home/azdo", "/opt/azagent", "/home/builder"))
        work = pick(rng, (f"{home}/myagent/_work", f"{home}/_work", f"/agent{rng.randint(1, 4)}/_work"))
    step = step_label(rng, c.tool)
    task = pick(rng, ("cmdline", "cmdline", "bash"))
    fail_stderr = task == "bash" and chance(rng, 0.3)
    script, trace = ci_script(rng, c.cmd, home, pick(rng, ("app", "src", "services/api", "web", proj)))
    out: list[str] = []

    def emit(text: str) -> None:
        out.append(f"{iso7(clock.step(), rng)} {text}")

    if chance(rng, 0.35):
        prev = pick(rng, (f"Checkout {org}/{proj}@{branch} to s", "UsePythonVersion", "Use Node.js 20.x",
                          "Cache npm", "Restore cache", "Install toolchain"))
        emit(f"##[section]Finishing: {prev}")
    emit(f"##[section]Starting: {step}")
    emit("=" * 78)
    if task == "cmdline":
        emit("Task         : Command line")
        emit("Description  : Run a command line script using Bash on Linux and macOS and cmd.exe on Windows")
        emit(f"Version      : 2.{pick(rng, (212, 231, 238, 246))}.{rng.randint(0, 3)}")
        emit("Author       : Microsoft Corporation")
        emit("Help         : https://docs.microsoft.com/azure/devops/pipelines/tasks/utility/command-line")
    else:
        emit("Task         : Bash")
        emit("Description  : Run a Bash script on macOS, Linux, or Windows")
        emit(f"Version      : 3.{pick(rng, (227, 231, 239, 242))}.{rng.randint(0, 2)}")
        emit("Author       : Microsoft Corporation")
        emit("Help         : https://docs.microsoft.com/azure/devops/pipelines/tasks/utility/bash")
    emit("=" * 78)
    emit("Generating script.")
    show_script = task == "cmdline" or chance(rng, 0.4)
    if show_script:
        emit("Script contents:")
        for s in script:
            emit(s)
    emit("========================== Starting Command Output ===========================")
    sh = f"{work}/_temp/{guid(rng)}.sh"
    cmd_prefix = pick(rng, ("##[command]", "##[command]", "[command]"))
    if task == "cmdline":
        emit(f"{cmd_prefix}/usr/bin/bash --noprofile --norc {sh}")
    else:
        emit(f"{cmd_prefix}/usr/bin/bash {sh}")
    for ln in trace:
        emit(ln)
    clock.jump(0.2, 6)
    for ln in c.lines:
        emit(ln)
    clock.jump(0.01, 0.4)
    if fail_stderr:
        emit("##[error]Bash wrote one or more lines to the standard error stream.")
        for ln in [x for x in c.lines if x.strip()][:6]:
            emit(f"##[error]{ln}")
    emit(f"##[error]Bash exited with code '{c.code}'.")
    emit(f"##[section]Finishing: {step}")

    run = f"{clock.t:%Y%m%d}.{rng.randint(1, 9)}"
    job = pick(rng, ("Build", "Linux", "Test", "build_and_test", "Job", "ubuntu_latest"))
    n = rng.randint(4, 11)
    lead = pick(rng, (
        None, None,
        f"{n}_{step}.txt (from logs_{rng.randint(10000, 99999)}.zip, job '{job}')",
        f"Run {run} of {proj} failed on {branch}. Step log below.",
        f"$ unzip -p ~/Downloads/logs_{rng.randint(10000, 99999)}.zip '{job}/{n}_{step}.txt'",
        f"Pipeline {org}-{proj}-CI #{run} - {job} - {step} (failed)",
        f"raw log of the failing step, {org}/{proj} @ {branch}:",
    ))
    parts = []
    if lead:
        parts.append(lead)
    if chance(rng, 0.3) or not (show_script or trace):
        body = "\n".join("    " + s for s in script)
        key = "bash" if task == "bash" else "script"
        yaml = f"- {key}: |\n{body}\n  displayName: '{step}'"
        if fail_stderr:
            yaml += "\n  failOnStderr: true"
        if not hosted:
            yaml += f"\n  workingDirectory: $(Build.SourcesDirectory)/{pick(rng, ('app', 'src', '.'))}"
        parts.append(pick(rng, ("azure-pipelines.yml has:", "The step in azure-pipelines.yml:", "step definition:")))
        parts.append(yaml)
        parts.append("")
    parts.append("\n".join(out))
    return "\n".join(parts)


# --------------------------------------------------------------------------- style: buildkite_log


def r_buildkite(rng: random.Random, c: Ctx) -> str:
    mode = pick(rng, ("esc", "bare", "plain", "plain", "esc"))
    org, pipeline, branch = pick(rng, ORGS), pick(rng, PROJECTS), pick(rng, BRANCHES)
    sha = hexs(rng, 40)
    agent = pick(rng, (f"{org}-ci-{rng.randint(1, 30)}", f"i-0{hexs(rng, 16)}-{rng.randint(1, 4)}",
                       f"buildkite-agent-{alnum(rng, 5)}-{rng.randint(1, 3)}", f"linux-{rng.randint(1, 9)}"))
    root = pick(rng, ("/var/lib/buildkite-agent/builds", "/buildkite/builds", "/home/buildkite/builds"))
    workdir = f"{root}/{agent}/{org}/{pipeline}"
    ms = epoch_ms(rand_dt(rng))
    out: list[str] = []

    def emit(text: str, color: str | None = None) -> None:
        nonlocal ms
        ms += rng.randint(1, 700)
        if mode == "esc":
            body = f"\x1b[{color}m{text}\x1b[0m" if color else text
            out.append(f"\x1b_bk;t={ms}\x07{body}")
        elif mode == "bare":
            out.append(f"_bk;t={ms}{text}")
        else:
            out.append(text)

    emit("~~~ Running global environment hook")
    emit(f"$ {pick(rng, ('/etc/buildkite-agent/hooks/environment', '/buildkite/hooks/environment'))}", "90")
    if chance(rng, 0.5):
        emit("~~~ Running plugin secrets environment hook" if chance(rng, 0.5) else "~~~ Setting up plugins")
    emit("~~~ Preparing working directory")
    emit(f"$ cd {workdir}", "90")
    emit(f'# Host "github.com" already in list of known hosts at "{root.rsplit("/", 1)[0]}/.ssh/known_hosts"', "90")
    emit(f"$ git remote set-url origin git@github.com:{org}/{pipeline}.git", "90")
    emit("$ git clean -ffxdq", "90")
    emit(f"$ git fetch -v --prune -- origin {branch}", "90")
    emit(f"From github.com:{org}/{pipeline}")
    emit(f" * branch            {branch} -> FETCH_HEAD")
    emit(f"$ git checkout -f {sha}", "90")
    emit(f"HEAD is now at {sha[:7]} {pick(rng, COMMIT_MSGS)}")
    emit("# Cleaning again to catch any post-checkout changes", "90")
    emit("$ git clean -ffxdq", "90")
    variant = pick(rng, ("plain", "plain", "compose", "script"))
    trailer = f"user command error: exit status {c.code}"
    if variant == "plain":
        emit("~~~ Running commands")
        emit(f"$ {c.cmd}", "90")
        for ln in c.lines:
            emit(ln)
    elif variant == "compose":
        svc = pick(rng, ("app", "test", "ci", "web", "worker"))
        proj = f"buildkite{hexs(rng, 32)}"
        emit(f"~~~ :docker: Pulling services {svc}")
        emit(f"$ docker compose -f docker-compose.yml -p {proj} pull {svc}", "90")
        emit(f" {svc} Pulled")
        quoted = shlex.quote(c.cmd)
        emit(f"--- :docker: Running {c.cmd} in service {svc}")
        emit(f"$ docker compose -f docker-compose.yml -p {proj} -f docker-compose.buildkite-{rng.randint(1, 400)}-override.yml "
             f"run --name {proj}_{svc}_build_{rng.randint(100, 9999)} -v {workdir}:/workdir --rm {svc} /bin/sh -e -c {quoted}", "90")
        for ln in c.lines:
            emit(ln)
        trailer = pick(rng, (trailer, f"Error: Exited with status {c.code}"))
    else:
        name = pick(rng, ("test", "build", "ci", "run", "deploy", "check"))
        emit("~~~ Running commands")
        emit(f"$ .buildkite/steps/{name}.sh", "90")
        emit(f"--- :package: {pick(rng, ('Preparing', 'Setting things up', 'Environment'))}")
        emit(f"{pick(rng, ('Using', 'Agent host:', 'Running on'))} {agent}")
        emit(f"+++ {tool_emoji(c.tool)} {step_label(rng, c.tool)}")
        for ln in xtrace(c.cmd, "/var/lib/buildkite-agent"):
            emit(ln)
        for ln in c.lines:
            emit(ln)
    emit(f"🚨 Error: The command exited with status {c.code}", "31")
    emit("^^^ +++")
    if chance(rng, 0.7):
        emit(trailer)

    n = rng.randint(200, 9000)
    lead = pick(rng, (
        None, None,
        f"Build #{n} of {org}/{pipeline} ({branch}) failed; raw job log:",
        f"{pipeline} #{n} · {pick(rng, (':pipeline: test', ':hammer: build', 'Run tests', 'ci'))} · failed",
        f"job log downloaded from https://buildkite.com/{org}/{pipeline}/builds/{n}#{guid(rng)}",
        f"$ less {pipeline}-build-{n}.log",
    ))
    return (lead + "\n" if lead else "") + "\n".join(out)


# --------------------------------------------------------------------------- style: teamcity_messages


def tc_escape(s: str) -> str:
    out = []
    for ch in s:
        if ch == "|":
            out.append("||")
        elif ch == "'":
            out.append("|'")
        elif ch == "\n":
            out.append("|n")
        elif ch == "\r":
            out.append("|r")
        elif ch == "[":
            out.append("|[")
        elif ch == "]":
            out.append("|]")
        elif ord(ch) > 0x7F:
            out.append(f"|0x{ord(ch):04X}")
        else:
            out.append(ch)
    return "".join(out)


def r_teamcity(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    org, proj, branch = pick(rng, ORGS), pick(rng, PROJECTS), pick(rng, BRANCHES)
    total = rng.randint(2, 5)
    idx = rng.randint(1, total)
    label = step_label(rng, c.tool)
    runner = pick(rng, ("Command Line", "Command Line", "Command Line", "Shell Script"))

    def ts() -> str:
        return clock.step(0.001, 0.7).strftime("[%H:%M:%S]")

    variant = pick(rng, ("log", "log", "raw", "log_problem"))
    if variant == "raw":
        block = slug_id(label)
        ident = f"{block}_{hexs(rng, 6)}"
        desc = shorten(f"{c.cmd} failed: {c.key}", 3900)
        lines = [
            f"##teamcity[blockOpened name='{tc_escape(label)}' description='{tc_escape(c.cmd)}']",
            f"##teamcity[progressMessage '{tc_escape('Running ' + c.cmd)}']",
        ]
        if chance(rng, 0.5):
            lines.extend(c.lines)
        lines.append(
            f"##teamcity[message text='{tc_escape(f'{c.tool} exited with code {c.code}')}' "
            f"errorDetails='{tc_escape(c.err)}' status='ERROR']"
        )
        lines.append(f"##teamcity[blockClosed name='{tc_escape(label)}']")
        lines.append(f"##teamcity[buildProblem description='{tc_escape(desc)}' identity='{ident[:60]}']")
        if chance(rng, 0.4):
            lines.append(f"##teamcity[buildStatus status='FAILURE' text='{tc_escape('{build.status.text}; ' + label + ' failed')}']")
        script = pick(rng, ("./ci/run_step.sh", "python ci/tc_step.py", "./build.sh", "bash tools/teamcity-wrap.sh"))
        intro = pick(rng, (
            f"Running our TeamCity wrapper locally ({script} {shlex.quote(c.cmd)}) prints the raw service messages:",
            f"$ {script} {shlex.quote(c.cmd)}",
            f"Output of {script} on my machine (TeamCity normally parses these):",
            f"stdout captured from the '{label}' step wrapper:",
        ))
        return intro + "\n" + "\n".join(lines)

    agent = pick(rng, (f"linux-agent-{rng.randint(1, 12)}", f"tc-agent-{alnum(rng, 4)}", f"{org}-build-{rng.randint(1, 9)}"))
    out: list[str] = []
    start = clock.t
    if chance(rng, 0.6):
        n = rng.randint(100, 9999)
        out.append(f"Build '{org.title()} :: {proj} :: Build' #{n}, branch '{branch}'")
        out.append(f"Started '{start:%a %b %d %H:%M:%S} UTC {start:%Y}' on '{agent}' by 'Git'")
        out.append(f"Finished '{start:%a %b %d} {(start + dt.timedelta(minutes=2)):%H:%M:%S} UTC {start:%Y}' with status "
                   f"'FAILURE Process exited with code {c.code} (Step: {label} ({runner}))'")
        out.append(f"TeamCity URL https://teamcity.{org}.{pick(rng, ('io', 'com', 'internal', 'dev'))}/viewLog.html?buildId={rng.randint(10000, 999999)}")
        out.append(f"TeamCity server version is 20{rng.randint(22, 24)}.{pick(rng, ('05', '07', '10', '12'))}.{rng.randint(1, 5)} "
                   f"(build {rng.randint(120000, 160000)}), server timezone: UTC")
        out.append("")
    out.append(f"{ts()} : Build preparation done")
    earlier = rng.sample(("Install dependencies", "Restore cache", "Prepare", "Generate sources", "Lint"), 4)
    for s in range(1, idx):
        other = earlier[s - 1]
        out.append(f"{ts()} : Step {s}/{total}: {other} ({runner}) ({rng.randint(1, 40)}s)")
        out.append(f"{ts()} :\t [Step {s}/{total}] Starting: /opt/buildagent/temp/agentTmp/custom_script{rng.randint(10**17, 10**18)}")
        out.append(f"{ts()} :\t [Step {s}/{total}] Process exited with code 0")
    tmp = f"/opt/buildagent/temp/agentTmp/custom_script{rng.randint(10**17, 10**18)}"
    wd = f"/opt/buildagent/work/{hexs(rng, 16)}"
    out.append(f"{ts()}E: Step {idx}/{total}: {label} ({runner}) ({rng.randint(1, 90)}s)")
    tag = f"[Step {idx}/{total}]"
    script, trace = ci_script(rng, c.cmd, "/home/buildagent")
    show_content = chance(rng, 0.6)
    if show_content:
        out.append(f"{ts()}i:\t {tag} Content of {tmp} file: ")
        out.extend(script)
        out.append("")
        out.append(f"{ts()} :\t {tag} Starting: {tmp}")
    elif trace:
        out.append(f"{ts()} :\t {tag} Starting: {tmp}")
    else:
        # "Executable with parameters" mode: the agent logs the command line itself.
        out.append(f"{ts()} :\t {tag} Starting: {c.cmd}")
    out.append(f"{ts()} :\t {tag} in directory: {wd}")
    for ln in trace:
        out.append(f"{ts()}W:\t {tag} {ln}")
    nested = c.tool in ("mvn", "mvnw", "gradlew", "gradle", "docker", "npm", "make", "cmake") and chance(rng, 0.5)
    if nested:
        out.append(f"{ts()} :\t {tag} {c.tool}")
    flag = "W" if c.stream == "stderr" else " "
    for ln in c.lines:
        if nested:
            out.append(f"{ts()}{flag}:\t\t [{c.tool}] {ln}")
        else:
            out.append(f"{ts()}{flag}:\t {tag} {ln}")
    if variant == "log_problem":
        ident = f"{slug_id(label)}_{hexs(rng, 8)}"[:60]
        desc = shorten(c.key or c.cmd, 300)
        out.append(f"{ts()}i:\t {tag} ##teamcity[buildProblem description='{tc_escape(desc)}' identity='{ident}']")
        out.append(f"{ts()}E:\t {tag} {desc}")
    out.append(f"{ts()}E:\t {tag} Process exited with code {c.code} (Step: {label} ({runner}))")
    out.append(f"{ts()}E:\t {tag} Step {label} ({runner}) failed")
    if chance(rng, 0.5):
        out.append(f"{ts()} : Publishing internal artifacts")
        out.append(f"{ts()} : Build finished")
    lead = pick(rng, (
        None, None, None,
        f"build log ({org}_{slug_id(proj)}_Build, {branch}):",
        f"Downloaded the full build log from TeamCity for {proj}:",
        "from the TeamCity 'Build Log' tab, 'Download full build log':",
    ))
    return (lead + "\n" if lead else "") + "\n".join(out)


def slug_id(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_").lower() or "step"


# --------------------------------------------------------------------------- style: docker_json_log


def cmd_array(cmd: str) -> list[str]:
    if any(op in cmd for op in ("&&", "||", ";", "|", ">", "<", "$", "~")):
        return ["/bin/sh", "-c", cmd]
    try:
        return shlex.split(cmd)
    except ValueError:
        return ["/bin/sh", "-c", cmd]


def r_docker(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    cid = hexs(rng, 64)
    name = pick(rng, (f"{pick(rng, PROJECTS)}-{pick(rng, ('worker', 'job', 'web', 'migrate', 'build', 'cron'))}",
                      f"{pick(rng, ('stoic', 'eager', 'quirky', 'brave', 'dreamy', 'jolly'))}_{pick(rng, ('turing', 'hopper', 'lovelace', 'noether', 'kepler', 'tesla'))}",
                      f"{pick(rng, PROJECTS)}_{pick(rng, ('app', 'api', 'tasks'))}_{rng.randint(1, 3)}"))
    tty = chance(rng, 0.15)
    shell_form = chance(rng, 0.5)
    argv = ["/bin/sh", "-c", c.cmd] if shell_form else cmd_array(c.cmd)
    path = f"/var/lib/docker/containers/{cid}/{cid}-json.log"
    recs = []
    if chance(rng, 0.3):
        pre = pick(rng, (f"starting {name}", f"+ {c.cmd}", f"[entrypoint] exec {c.cmd}", f"Running {c.cmd}"))
        clock.step()
        recs.append(go_json({"log": pre + ("\r\n" if tty else "\n"), "stream": "stdout", "time": iso_nano(clock.t, rng)}))
    clock.jump(0.05, 2.5)
    for ln in c.lines:
        stream = "stdout" if tty else c.stream
        end = "\r\n" if tty else "\n"
        recs.append(go_json({"log": ln + end, "stream": stream, "time": iso_nano(clock.step(0.00001, 0.004), rng)}))
    body = "\n".join(recs)
    age = pick(rng, ("About a minute ago", "2 minutes ago", "5 minutes ago", "An hour ago", "3 hours ago", "12 seconds ago"))
    variant = pick(rng, ("tail", "inspect", "ps", "note"))
    n = len(recs) + rng.randint(0, 30)
    if variant == "tail":
        image = pick(rng, ("python:3.12-slim", "node:20-bookworm", "ubuntu:22.04", "golang:1.22", "rust:1.79",
                           "eclipse-temurin:21", "ruby:3.3", f"{pick(rng, ORGS)}/{pick(rng, PROJECTS)}:latest"))
        run = f"$ docker run -d --name {name} {image} " + (f"sh -c {shlex.quote(c.cmd)}" if shell_form else c.cmd)
        return f"{run}\n{cid}\n$ sudo tail -n {n} {path}\n{body}"
    if variant == "inspect":
        return (f"$ docker inspect --format '{{{{json .Config.Cmd}}}}' {name}\n{go_json(argv)}\n"
                f"$ sudo cat $(docker inspect --format '{{{{.LogPath}}}}' {name})\n{body}")
    if variant == "ps":
        shown = " ".join(argv) if not shell_form else f"/bin/sh -c '{c.cmd}'"
        return (f"$ docker ps -a --no-trunc --filter name={name} --format '{{{{.ID}}}}  {{{{.Command}}}}  {{{{.Status}}}}'\n"
                f"{cid}  \"{shown}\"  Exited ({c.code}) {age}\n"
                f"$ sudo cat {path}\n{body}")
    host = pick(rng, ("worker-03", "docker-host-1", "ip-10-0-1-23", "build-node-7", "vps-fra-2"))
    intro = pick(rng, (
        f"# {host}:{path}\n# container {name}, Cmd {go_json(argv)}, exited with code {c.code}",
        f"json-file log of {name} (Cmd: {go_json(argv)}) copied off {host}:",
        f"Container {name} keeps dying. Config.Cmd is {go_json(argv)}. Its log file ({path}):",
    ))
    return f"{intro}\n{body}"


# --------------------------------------------------------------------------- style: airflow_task_log


def r_airflow(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    gen = pick(rng, ("v1", "v2", "v2", "v28"))
    proj = pick(rng, PROJECTS).replace("-", "_")
    dag = pick(rng, (f"{proj}_nightly", f"{proj}_daily", f"etl_{proj}", f"{proj}_maintenance", f"deploy_{proj}"))
    task = pick(rng, ("run_tests", "build", "load_data", "sync", "migrate_db", "run_script", "export_report", "refresh",
                      f"{c.tool.replace('-', '_').replace('.', '_')}_step"))
    run_day = clock.t.replace(hour=0, minute=0, second=0, microsecond=0) - dt.timedelta(days=1)
    run_id = pick(rng, (f"scheduled__{run_day:%Y-%m-%dT%H:%M:%S}+00:00",
                        f"manual__{clock.t:%Y-%m-%dT%H:%M:%S}.{clock.t.microsecond:06d}+00:00"))
    host = pick(rng, ("airflow-worker-0", "airflow-worker-1", f"{hexs(rng, 12)}", "airflow-scheduler-5d8f7c9b4-x2k9q",
                      f"celery-worker-{alnum(rng, 5)}"))
    pybin = pick(rng, ("3.8", "3.9", "3.10", "3.11", "3.12"))
    site = f"/home/airflow/.local/lib/python{pybin}/site-packages"
    bash = pick(rng, ("/usr/bin/bash", "/bin/bash"))
    bash_cmd = c.cmd if chance(rng, 0.6) else f"cd {pick(rng, ('/opt/airflow/dags/repo', '/opt/etl', '/srv/jobs'))} && {c.cmd}"
    job = rng.randint(1000, 99999)
    pid = rng.randint(100, 60000)
    out: list[str] = []

    if gen == "v1":
        def pre() -> str:
            t = clock.step(0.0005, 0.05)
            return f"[{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}]"

        out.append(f"*** Reading local file: /usr/local/airflow/logs/{dag}/{task}/{run_day:%Y-%m-%dT%H:%M:%S}+00:00/1.log")
        out.append(f"{pre()} {{taskinstance.py:670}} INFO - Dependencies all met for <TaskInstance: {dag}.{task} {run_day:%Y-%m-%dT%H:%M:%S}+00:00 [queued]>")
        out.append(f"{pre()} {{taskinstance.py:880}} INFO - ")
        out.append("-" * 80)
        out.append(f"{pre()} {{taskinstance.py:881}} INFO - Starting attempt 1 of {rng.randint(1, 4)}")
        out.append("-" * 80)
        out.append(f"{pre()} {{standard_task_runner.py:53}} INFO - Started process {pid} to run task")
        out.append(f"{pre()} {{bash_operator.py:115}} INFO - Running command: {bash_cmd}")
        out.append(f"{pre()} {{bash_operator.py:122}} INFO - Output:")
        clock.jump(0.3, 5)
        for ln in c.lines:
            out.append(f"{pre()} {{bash_operator.py:126}} INFO - {ln}")
        out.append(f"{pre()} {{bash_operator.py:130}} INFO - Command exited with return code {c.code}")
        out.append(f"{pre()} {{taskinstance.py:1150}} ERROR - Bash command failed")
        out.append("Traceback (most recent call last):")
        out.append('  File "/usr/local/lib/python3.7/site-packages/airflow/models/taskinstance.py", line 984, in _run_raw_task')
        out.append("    result = task_copy.execute(context=context)")
        out.append('  File "/usr/local/lib/python3.7/site-packages/airflow/operators/bash_operator.py", line 134, in execute')
        out.append('    raise AirflowException("Bash command failed")')
        out.append("airflow.exceptions.AirflowException: Bash command failed")
        out.append(f"{pre()} {{taskinstance.py:1194}} INFO - Marking task as FAILED.dag_id={dag}, task_id={task}, "
                   f"execution_date={run_day:%Y%m%dT%H%M%S}, start_date={clock.t:%Y%m%dT%H%M%S}, end_date={clock.t:%Y%m%dT%H%M%S}")
        out.append(f"{pre()} {{local_task_job.py:102}} INFO - Task exited with return code 1")
    else:
        def pre() -> str:
            t = clock.step(0.0005, 0.05)
            if gen == "v28":
                return f"[{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}+0000]"
            return f"[{t:%Y-%m-%d, %H:%M:%S} UTC]"

        logpath = f"/opt/airflow/logs/dag_id={dag}/run_id={run_id}/task_id={task}/attempt=1.log"
        if gen == "v28" or chance(rng, 0.5):
            out.append(f"{host}\n*** Found local files:\n***   * {logpath}")
        else:
            out.append(f"*** Reading local file: {logpath}")
        out.append(f"{pre()} {{taskinstance.py:1979}} INFO - Dependencies all met for dep_context=non-requeueable deps "
                   f"ti=<TaskInstance: {dag}.{task} {run_id} [queued]>")
        out.append(f"{pre()} {{taskinstance.py:2193}} INFO - Starting attempt 1 of {rng.randint(1, 4)}")
        out.append(f"{pre()} {{taskinstance.py:2214}} INFO - Executing <Task(BashOperator): {task}> on {run_day:%Y-%m-%d %H:%M:%S}+00:00")
        out.append(f"{pre()} {{standard_task_runner.py:60}} INFO - Started process {pid} to run task")
        out.append(f"{pre()} {{standard_task_runner.py:87}} INFO - Running: ['airflow', 'tasks', 'run', '{dag}', '{task}', "
                   f"'{run_id}', '--job-id', '{job}', '--raw', '--subdir', 'DAGS_FOLDER/{dag}.py', '--cfg-path', '/tmp/tmp{alnum(rng, 8)}']")
        out.append(f"{pre()} {{task_command.py:423}} INFO - Running <TaskInstance: {dag}.{task} {run_id} [running]> on host {host}")
        if chance(rng, 0.5):
            out.append(f"{pre()} {{subprocess.py:63}} INFO - Tmp dir root location: /tmp")
        else:
            out.append(f"{pre()} {{subprocess.py:62}} INFO - Tmp dir root location: \n /tmp")
        out.append(f"{pre()} {{subprocess.py:75}} INFO - Running command: {[bash, '-c', bash_cmd]!r}")
        out.append(f"{pre()} {{subprocess.py:86}} INFO - Output:")
        clock.jump(0.3, 8)
        for ln in c.lines:
            out.append(f"{pre()} {{subprocess.py:93}} INFO - {ln}")
        out.append(f"{pre()} {{subprocess.py:97}} INFO - Command exited with return code {c.code}")
        out.append(f"{pre()} {{taskinstance.py:2698}} ERROR - Task failed with exception")
        out.append("Traceback (most recent call last):")
        out.append(f'  File "{site}/airflow/models/taskinstance.py", line 433, in _execute_task')
        out.append("    result = execute_callable(context=context, **execute_callable_kwargs)")
        if pybin in ("3.11", "3.12"):
            out.append("             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        out.append(f'  File "{site}/airflow/operators/bash.py", line 212, in execute')
        out.append("    raise AirflowException(")
        out.append(f"airflow.exceptions.AirflowException: Bash command failed. The command returned a non-zero exit code {c.code}.")
        state = pick(rng, ("FAILED", "UP_FOR_RETRY"))
        out.append(f"{pre()} {{taskinstance.py:1138}} INFO - Marking task as {state}. dag_id={dag}, task_id={task}, "
                   f"execution_date={run_day:%Y%m%dT%H%M%S}, start_date={clock.t:%Y%m%dT%H%M%S}, end_date={clock.t:%Y%m%dT%H%M%S}")
        out.append(f"{pre()} {{standard_task_runner.py:107}} ERROR - Failed to execute job {job} for task {task} "
                   f"(Bash command failed. The command returned a non-zero exit code {c.code}.; {pid})")
        out.append(f"{pre()} {{local_task_job_runner.py:234}} INFO - Task exited with return code 1")
        if chance(rng, 0.5):
            out.append(f"{pre()} {{taskinstance.py:3281}} INFO - 0 downstream tasks scheduled from follow-on schedule check")
    lead = pick(rng, (
        None, None,
        f"Task log for {dag}.{task} (try 1):",
        f"Airflow UI > DAGs > {dag} > Grid > {task} > Logs",
        f"{dag} went red overnight, here's {task}'s log:",
    ))
    if chance(rng, 0.25):
        snippet = f"{task} = BashOperator(\n    task_id=\"{task}\",\n    bash_command={bash_cmd!r},\n)"
        lead = (lead + "\n" if lead else "") + f"the task in dags/{dag}.py:\n{snippet}\n"
    return (lead + "\n" if lead else "") + "\n".join(out)


# --------------------------------------------------------------------------- style: heroku_logs


def hk_ts(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{t.microsecond:06d}+00:00"


def r_heroku(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    app = f"{pick(rng, ORGS)}-{pick(rng, PROJECTS)}" + pick(rng, ("", "", "-staging", "-prod", f"-{rng.randint(10, 99)}"))
    first, last = person(rng)
    user = email_of(rng, first, last, pick(rng, ("gmail.com", f"{pick(rng, ORGS)}.io", "fastmail.com", "proton.me")))
    variant = pick(rng, ("release", "release", "run", "web", "render_build", "render_start", "fly", "fly_logs"))
    out: list[str] = []

    def hl(src: str, text: str, lo: float = 0.001, hi: float = 0.4) -> None:
        out.append(f"{hk_ts(clock.step(lo, hi))} {src}: {text}")

    if variant == "release":
        v = rng.randint(12, 480)
        dyno = f"release.{rng.randint(1000, 9999)}"
        hl("app[api]", f"Release v{v} created by user {user}")
        hl("app[api]", f"Deploy {hexs(rng, 8)} by user {user}")
        hl("app[api]", f"Running release v{v} commands by user {user}")
        hl(f"heroku[{dyno}]", f"Starting process with command `{c.cmd}`", 2, 9)
        hl(f"heroku[{dyno}]", "State changed from starting to up", 0.5, 3)
        for ln in c.lines:
            hl(f"app[{dyno}]", ln, 0.0001, 0.05)
        hl(f"heroku[{dyno}]", f"Process exited with status {c.code}")
        hl(f"heroku[{dyno}]", "State changed from up to complete")
        hl("app[api]", f"Release v{v} command failed by user {user}")
        lead = pick(rng, (None, f"$ heroku logs --tail -a {app}", f"Procfile:\n  web: {pick(rng, ('gunicorn app:app', 'npm start', 'bin/rails server', './server'))}\n  release: {c.cmd}\n\n$ heroku logs -n 200 -a {app}"))
    elif variant == "run":
        dyno = f"run.{rng.randint(1000, 9999)}"
        hl("app[api]", f"Starting process with command `{c.cmd}` by user {user}")
        hl(f"heroku[{dyno}]", "Awaiting client", 1, 4)
        hl(f"heroku[{dyno}]", f"Starting process with command `{c.cmd}`")
        hl(f"heroku[{dyno}]", "State changed from starting to up")
        for ln in c.lines:
            hl(f"app[{dyno}]", ln, 0.0001, 0.05)
        hl(f"heroku[{dyno}]", f"Process exited with status {c.code}")
        hl(f"heroku[{dyno}]", "State changed from up to complete")
        lead = pick(rng, (f"$ heroku run {shlex.quote(c.cmd)} -a {app}   # in one terminal\n$ heroku logs --tail -a {app}   # in the other",
                          f"heroku logs --tail --app {app} while I ran the one-off dyno:", None))
    elif variant == "web":
        hl("heroku[web.1]", "State changed from crashed to starting")
        hl("heroku[web.1]", f"Starting process with command `{c.cmd}`", 3, 12)
        for ln in c.lines:
            hl("app[web.1]", ln, 0.0001, 0.05)
        hl("heroku[web.1]", f"Process exited with status {c.code}")
        hl("heroku[web.1]", "State changed from starting to crashed")
        rid = guid(rng)
        hl("heroku[router]", f'at=error code=H10 desc="App crashed" method=GET path="/" host={app}.herokuapp.com '
                              f'request_id={rid} fwd="{rng.randint(11, 220)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}" '
                              f'dyno= connect= service= status=503 bytes= protocol=https', 5, 40)
        lead = pick(rng, (f"Procfile is just `web: {c.cmd}`. Logs:", f"$ heroku logs --tail --app {app}", None))
    elif variant in ("render_build", "render_start"):
        repo = f"{pick(rng, ORGS)}/{pick(rng, PROJECTS)}"

        def rl(text: str, lo: float = 0.01, hi: float = 1.2) -> None:
            t = clock.step(lo, hi)
            if stamp:
                out.append(f"{MONTHS[t.month - 1]} {t.day} {clock12(t)}  {text}")
            else:
                out.append(text)

        stamp = chance(rng, 0.6)
        if variant == "render_build":
            rl(f"==> Cloning from https://github.com/{repo}")
            rl(f"==> Checking out commit {hexs(rng, 40)} in branch {pick(rng, BRANCHES)}")
            rl("==> Downloading cache...")
            rl(f"==> Transferred {rng.randint(20, 700)}MB in {rng.randint(3, 30)}s. Extraction took {rng.randint(1, 9)}s.")
            rl(f"==> Running build command '{c.cmd}'...")
            for ln in c.lines:
                rl(ln, 0.0001, 0.05)
            rl("==> Build failed 😞")
        else:
            rl("==> Deploying...")
            rl(f"==> Running '{c.cmd}'")
            for ln in c.lines:
                rl(ln, 0.0001, 0.05)
            rl(f"==> Exited with status {c.code}")
        rl("==> Common ways to troubleshoot your deploy: https://render.com/docs/troubleshooting-deploys")
        lead = pick(rng, (None, f"Render deploy log for {app}:", f"render.com dashboard > {app} > Events > Deploy failed", None))
    elif variant == "fly":
        mid = hexs(rng, 14)
        out.append(f"==> Building image with {pick(rng, ('Depot', 'Docker'))}")
        out.append(f"--> Pushing image done\nimage: registry.fly.io/{app}:deployment-01{alnum(rng, 24, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')}")
        out.append(f"image size: {rng.randint(40, 900)} MB")
        out.append("")
        out.append(f"Watch your deployment at https://fly.io/apps/{app}/monitoring")
        out.append("")
        out.append(f"Running {app} release_command: {c.cmd}")
        out.append("-------")
        out.append(" ✖ release_command failed")
        out.append("-------")
        out.append(f"Error release_command failed running on machine {mid} with exit code {c.code}.")
        out.append(f"Check its logs: here's the last 100 lines below, or run 'fly logs -i {mid}':")
        out.append(f"  Pulling container image registry.fly.io/{app}:deployment-01{alnum(rng, 24, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')}")
        out.append(f"  Successfully prepared image registry.fly.io/{app} ({rng.uniform(0.5, 9):.3f}s)")
        out.append("  Configuring firecracker")
        out.append(f"  Preparing to run: `/bin/sh -c {c.cmd}` as root")
        for ln in c.lines:
            out.append(f"  {ln}")
        out.append("  Starting clean up.")
        lead = pick(rng, (f"$ fly deploy -a {app}", "fly deploy output, release_command step:", None))
    else:
        mid = hexs(rng, 14)
        region = pick(rng, ("iad", "fra", "lhr", "ams", "sjc", "nrt", "syd", "cdg"))

        def fl(src: str, text: str, lo: float = 0.001, hi: float = 0.3) -> None:
            t = clock.step(lo, hi)
            out.append(f"{t:%Y-%m-%dT%H:%M:%S}Z {src}[{mid}] {region} [info]{text}")

        fl("runner", f"Pulling container image registry.fly.io/{app}:deployment-01{alnum(rng, 24, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')}")
        fl("runner", "Successfully prepared image")
        fl("app", f"INFO Preparing to run: `/bin/sh -c {c.cmd}` as root", 1, 4)
        fl("app", "INFO [fly api proxy] listening at /.fly/api")
        for ln in c.lines:
            fl("app", ln, 0.0001, 0.05)
        fl("app", f"INFO Main child exited normally with code: {c.code}")
        fl("app", "INFO Starting clean up.")
        fl("app", f"[{rng.uniform(1, 40):.6f}] reboot: Restarting system")
        lead = pick(rng, (f"$ fly logs -a {app}", f"fly logs -i {mid}:", None))
    return (lead + "\n" if lead else "") + "\n".join(out)


# --------------------------------------------------------------------------- style: netlify_build


def r_netlify(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    platform = pick(rng, ("netlify", "netlify", "vercel", "cloudflare"))
    site = f"{pick(rng, PROJECTS)}-{pick(rng, ('site', 'web', 'docs', 'app', 'preview'))}"
    repo = f"{pick(rng, ORGS)}/{pick(rng, PROJECTS)}"
    branch = pick(rng, BRANCHES)
    zw = "\u200b" if chance(rng, 0.6) else ""
    via_script = chance(rng, 0.25)
    node_like = c.tool in ("npm", "npx", "node", "tsc", "yarn", "pnpm")
    build_cmd = f"./scripts/{pick(rng, ('build', 'ci', 'netlify-build', 'deploy'))}.sh" if via_script else c.cmd
    out: list[str] = []
    if platform == "netlify":
        def nl(text: str, lo: float = 0.001, hi: float = 0.3) -> None:
            out.append(f"{clock12(clock.step(lo, hi))}: {text}")

        nl(f"build-image version: {hexs(rng, 40)} ({pick(rng, ('focal', 'noble'))})")
        nl(f"buildbot version: {hexs(rng, 40)}")
        nl("Fetching cached dependencies")
        nl(f"Starting to download cache of {rng.randint(40, 400)}.{rng.randint(0, 9)}MB")
        nl(f"Finished downloading cache in {rng.randint(1, 9)}.{rng.randint(100, 999)}s")
        nl("Starting to prepare the repo for build")
        nl(f"Preparing Git Reference refs/heads/{branch}")
        nl(zw)
        nl("Netlify Build                                                 ")
        nl("────────────────────────────────────────────────────────────────")
        nl(zw)
        nl("❯ Version")
        nl(f"  @netlify/build 29.{rng.randint(20, 58)}.{rng.randint(0, 9)}")
        nl(zw)
        nl("❯ Current directory")
        nl("  /opt/build/repo")
        nl(zw)
        origin_cfg = chance(rng, 0.6)
        if origin_cfg:
            nl("❯ Config file")
            nl("  /opt/build/repo/netlify.toml")
            nl(zw)
        nl("❯ Context")
        nl(pick(rng, ("  production", "  deploy-preview", "  branch-deploy")))
        nl(zw)
        where = "build.command from netlify.toml" if origin_cfg else "Build command from Netlify app"
        nl(where + "                               ")
        nl("────────────────────────────────────────────────────────────────")
        nl(zw)
        nl(f"$ {build_cmd}")
        if via_script:
            nl(f"+ {c.cmd}")
        clock.jump(0.5, 20)
        for ln in c.lines:
            nl(ln, 0.0, 0.05)
        nl(zw)
        nl('"build.command" failed                                        ')
        nl("────────────────────────────────────────────────────────────────")
        nl(zw)
        nl("  Error message")
        nl(f"  Command failed with exit code {c.code}: {build_cmd} (https://ntl.fyi/exit-code-{c.code})")
        nl(zw)
        nl("  Error location")
        nl(f"  In {where}:")
        nl(f"  {build_cmd}")
        nl(zw)
        nl("  Resolved config")
        nl("  build:")
        nl(f"    command: {build_cmd}")
        nl(f"    commandOrigin: {'config' if origin_cfg else 'ui'}")
        nl(f"    publish: /opt/build/repo/{pick(rng, ('dist', 'public', 'build', '_site', 'out'))}")
        nl(f"    publishOrigin: {'config' if origin_cfg else 'ui'}")
        nl("Failed during stage 'building site': Build script returned non-zero exit code: 2 (https://ntl.fyi/exit-code-2)")
        nl("Build failed due to a user error: Build script returned non-zero exit code: 2")
        nl("Failing build: Failed to build site")
        nl(f"Finished processing build request in {rng.randint(12, 160)}.{rng.randint(100, 999)}s")
        lead = pick(rng, (None, f"Deploy log for {site} ({branch}@{hexs(rng, 7)}):",
                          f"netlify.toml:\n[build]\n  command = \"{build_cmd}\"\n\nDeploy log:" if origin_cfg else None,
                          f"Netlify > {site} > Deploys > Failed deploy > Deploy log"))
    elif platform == "vercel":
        def vl(text: str, lo: float = 0.001, hi: float = 0.3) -> None:
            t = clock.step(lo, hi)
            out.append(f"[{t:%H:%M:%S}.{t.microsecond // 1000:03d}] {text}")

        vl(f"Running build in {pick(rng, ('Washington, D.C., USA (East) – iad1', 'Frankfurt, Germany (West) – fra1', 'Portland, USA (West) – pdx1'))}")
        vl(f"Build machine configuration: {pick(rng, ('2 cores, 8 GB', '4 cores, 8 GB'))}")
        vl(f"Cloning github.com/{repo} (Branch: {branch}, Commit: {hexs(rng, 7)})")
        vl(f"Cloning completed: {rng.randint(200, 2000)}.{rng.randint(0, 999):03d}ms")
        vl("Restored build cache from previous deployment (" + alnum(rng, 20, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789") + ")")
        vl('Running "vercel build"')
        vl(f"Vercel CLI {rng.randint(33, 41)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}")
        if node_like:
            vl('Running "install" command: `npm install`...')
            vl(f"up to date, audited {rng.randint(200, 1500)} packages in {rng.randint(2, 30)}s", 1, 25)
        elif c.tool in ("python3", "python", "pip"):
            vl('Running "install" command: `pip install -r requirements.txt`...')
            vl(f"Successfully installed {rng.randint(3, 40)} packages", 1, 25)
        vl(f'Running "{build_cmd}"')
        if via_script:
            vl(f"+ {c.cmd}")
        for ln in c.lines:
            vl(ln, 0.0, 0.05)
        vl(f'Error: Command "{build_cmd}" exited with {c.code}')
        lead = pick(rng, (None, f"Vercel build logs ({site}, Preview):", f"vercel.json has \"buildCommand\": \"{build_cmd}\". Build log:"))
    else:
        def cl(text: str, lo: float = 0.001, hi: float = 0.3) -> None:
            t = clock.step(lo, hi)
            out.append(f"{t:%H:%M:%S}.{t.microsecond // 1000:03d}\t{text}")

        cl("Initializing build environment. This may take up to a few minutes to complete")
        cl("Success: Finished initializing build environment", 2, 30)
        cl("Cloning repository...")
        if node_like:
            cl(f"Detected the following tools from environment: {pick(rng, ('nodejs@18.17.1, npm@9.6.7', 'nodejs@20.11.0, npm@10.2.4'))}")
            cl("Installing project dependencies: npm clean-install --progress=false")
            n_pkg = rng.randint(100, 1400)
            cl(f"added {n_pkg} packages, and audited {n_pkg + 1} packages in {rng.randint(5, 60)}s", 3, 50)
        elif c.tool in ("python3", "python", "pip"):
            cl("Detected the following tools from environment: python@3.11.5")
            cl("Installing project dependencies: pip install -r requirements.txt")
        cl(f"Executing user command: {build_cmd}")
        if via_script:
            cl(f"+ {c.cmd}")
        for ln in c.lines:
            cl(ln, 0.0, 0.05)
        cl(f"Failed: Error while executing user command. Exited with error code: {c.code}")
        cl("Failed: build command exited with code: 1")
        cl("Failed: error occurred while running build command")
        lead = pick(rng, (None, f"Cloudflare Pages build log, project {site}, branch {branch}:", f"Pages > {site} > deployment {hexs(rng, 8)} > Build log"))
    if via_script:
        extra = f"(the build script is just\n#!/usr/bin/env bash\nset -euxo pipefail\n{c.cmd}\n)"
        lead = (lead + "\n" if lead else "") + extra
    return (lead + "\n" if lead else "") + "\n".join(out)


# --------------------------------------------------------------------------- style: cloudwatch_logs


def cw_ts(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{t.microsecond // 1000:03d}000+00:00"


def r_cloudwatch(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    proj = f"{pick(rng, PROJECTS)}{pick(rng, ('', '-ci', '-build', '-test'))}"
    build_id = guid(rng)
    src = f"/codebuild/output/src{rng.randint(10**8, 10**9)}/src/github.com/{pick(rng, ORGS)}/{pick(rng, PROJECTS)}"
    variant = pick(rng, ("tail", "codebuild", "codebuild", "insights_md", "insights_csv", "ecs"))

    def container() -> list[tuple[dt.datetime, str]]:
        rows: list[tuple[dt.datetime, str]] = []

        def cb(text: str, lo: float = 0.001, hi: float = 0.3) -> None:
            t = clock.step(lo, hi)
            rows.append((t, f"[Container] {t:%Y/%m/%d %H:%M:%S}.{t.microsecond:06d} {text}"))

        cb("Running on CodeBuild On-demand")
        cb("Waiting for agent ping")
        cb("Waiting for DOWNLOAD_SOURCE", 0.5, 3)
        cb("Phase is DOWNLOAD_SOURCE")
        cb(f"CODEBUILD_SRC_DIR={src}")
        cb(f"YAML location is {src}/buildspec.yml")
        cb("Processing environment variables")
        cb("Moving to directory " + src)
        cb("Phases found in YAML: 2")
        cb(" INSTALL: 1 commands")
        cb(" BUILD: 1 commands")
        cb("Phase complete: DOWNLOAD_SOURCE State: SUCCEEDED")
        cb("Phase context status code:  Message:")
        cb("Entering phase INSTALL")
        cb("Phase complete: INSTALL State: SUCCEEDED", 2, 40)
        cb("Phase context status code:  Message:")
        cb("Entering phase PRE_BUILD")
        cb("Phase complete: PRE_BUILD State: SUCCEEDED")
        cb("Phase context status code:  Message:")
        cb("Entering phase BUILD")
        cb(f"Running command {c.cmd}")
        for ln in c.lines:
            t = clock.step(0.0, 0.05)
            rows.append((t, ln))
        cb(f"Command did not exit successfully {c.cmd} exit status {c.code}")
        cb("Phase complete: BUILD State: FAILED")
        cb(f"Phase context status code: COMMAND_EXECUTION_ERROR Message: Error while executing command: {c.cmd}. Reason: exit status {c.code}")
        cb("Entering phase POST_BUILD")
        return rows

    if variant == "codebuild":
        rows = container()
        lead = pick(rng, (None, f"CodeBuild > Build projects > {proj} > {proj}:{build_id} > Build logs",
                          f"buildspec.yml:\nversion: 0.2\nphases:\n  build:\n    commands:\n      - {c.cmd}\n\nlog:",
                          f"Build {proj}:{build_id} failed in BUILD phase:"))
        return (lead + "\n" if lead else "") + "\n".join(r for _, r in rows)
    if variant == "tail":
        rows = container()
        fmt = pick(rng, ("detailed", "detailed", "short"))
        lines = []
        for t, r in rows:
            if fmt == "short":
                lines.append(f"{t:%Y-%m-%dT%H:%M:%S} {r}")
            else:
                lines.append(f"{cw_ts(t)} {build_id} {r}")
        prompt = f"$ aws logs tail /aws/codebuild/{proj} --follow" + ("" if fmt == "detailed" else " --format short")
        if chance(rng, 0.4):
            prompt += f" --region {pick(rng, REGIONS_AWS)}"
        return prompt + "\n" + "\n".join(lines)
    if variant == "ecs":
        svc = pick(rng, PROJECTS)
        task_id = hexs(rng, 32)
        stream = f"ecs/{pick(rng, ('app', 'web', 'worker', 'job'))}/{task_id}"
        clock.jump(0.1, 1)
        lines = [f"{cw_ts(clock.step(0.0, 0.05))} {stream} {ln}" for ln in c.lines]
        head = pick(rng, (
            (f"Task {task_id[:8]} of {svc} stopped (Essential container in task exited, exit code {c.code}).\n"
             f"Container command: {go_json(cmd_array(c.cmd))}\n$ aws logs tail /ecs/{svc} --since 15m"),
            (f"$ aws ecs run-task --cluster {pick(rng, ORGS)}-{pick(rng, ('prod', 'staging', 'jobs'))} --task-definition {svc}-oneoff "
             f"--overrides '{{\"containerOverrides\":[{{\"name\":\"app\",\"command\":{json.dumps(cmd_array(c.cmd))}}}]}}'\n"
             f"...\n$ aws logs tail /ecs/{svc}-oneoff --since 10m"),
        ))
        return head + "\n" + "\n".join(lines)
    # Logs Insights
    rows = container()
    desc = chance(rng, 0.55)
    query = (f"fields @timestamp, @message\n| filter @logStream = '{build_id}'\n| sort @timestamp {'desc' if desc else 'asc'}\n"
             f"| limit {pick(rng, (100, 200, 500, 1000))}")
    ordered = list(reversed(rows)) if desc else rows
    if variant == "insights_md":
        table = ["| @timestamp | @message |", "|---|---|"]
        for t, r in ordered:
            msg = r.replace("|", "\\|")
            table.append(f"| {t:%Y-%m-%d %H:%M:%S}.{t.microsecond // 1000:03d} | {msg} |")
        body = "\n".join(table)
    else:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["@timestamp", "@message"])
        for t, r in ordered:
            w.writerow([f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond // 1000:03d}", r])
        body = buf.getvalue().rstrip("\n")
    lead = pick(rng, (
        f"Logs Insights on /aws/codebuild/{proj}:\n{query}\n\nResults ({len(rows)} records):",
        f"CloudWatch Logs Insights, log group /aws/codebuild/{proj}, query:\n{query}\n",
        f"-- exported from Logs Insights ({pick(rng, REGIONS_AWS)}) --",
    ))
    return lead + "\n" + body


# --------------------------------------------------------------------------- style: gcp_logging_json


YAML_PLAIN = re.compile(r"^[A-Za-z0-9_./@(][A-Za-z0-9 _./@()#,=+\-]*$")


def yaml_scalar(s: str) -> str:
    if s == "":
        return "''"
    if re.fullmatch(r"[-+]?(\.?[0-9][0-9_]*)([.eE][-+]?[0-9_]*)*", s) or s[:1] in "-?:,[]{}#&*!|>'\"%@`~":
        return "'" + s.replace("'", "''") + "'"
    if YAML_PLAIN.match(s) and not s.endswith(" ") and ": " not in s and " #" not in s and s.lower() not in ("yes", "no", "true", "false", "null", "on", "off"):
        return s
    if any(ord(ch) < 32 for ch in s):
        return json.dumps(s, ensure_ascii=False)
    return "'" + s.replace("'", "''") + "'"


def yaml_block(key: str, s: str, indent: str = "") -> list[str]:
    if "\n" not in s:
        return [f"{indent}{key}: {yaml_scalar(s)}"]
    ind = "2" if s[:1] == " " else ""
    return [f"{indent}{key}: |{ind}-"] + [f"{indent}  {ln}" if ln else "" for ln in s.split("\n")]


def r_gcp(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    project = f"{pick(rng, ORGS)}-{pick(rng, ('prod', 'ci', 'staging', 'dev', 'data'))}{pick(rng, ('', '-' + str(rng.randint(100, 999))))}"
    variant = pick(rng, ("build_json", "build_yaml", "run_json", "run_yaml", "build_text", "run_single"))
    if len(c.lines) > 18 and variant not in ("build_text", "run_single"):
        # A per-line dump of a long error runs to tens of kilobytes; people share the step log or one payload.
        variant = pick(rng, ("build_text", "run_single"))
    step_id = pick(rng, ("test", "build", "lint", "migrate", "compile", "deploy", "install"))
    step_no = rng.randint(0, 3)
    images = {"python3": "python:3.11", "python": "python:3.11", "pip": "python:3.12-slim", "npm": "node:20", "npx": "node:20",
              "node": "node:20", "go": "golang:1.22", "cargo": "rust:1.77", "docker": "gcr.io/cloud-builders/docker",
              "mvn": "maven:3.9-eclipse-temurin-17", "javac": "eclipse-temurin:21", "java": "eclipse-temurin:21",
              "bundle": "ruby:3.2", "ruby": "ruby:3.2", "kubectl": "gcr.io/cloud-builders/kubectl", "helm": "alpine/helm",
              "git": "gcr.io/cloud-builders/git", "gcc": "gcc:13", "make": "gcc:13", "cmake": "gcc:13"}
    image = images.get(c.tool) or pick(rng, ("ubuntu", "debian:bookworm", "gcr.io/cloud-builders/gcloud", "alpine"))
    build_id = guid(rng)
    entries: list[dict] = []
    payload_lines = c.lines
    if variant.startswith("build"):
        if variant == "build_text":
            out = [f'starting build "{build_id}"', "", "FETCHSOURCE", f"From https://github.com/{pick(rng, ORGS)}/{pick(rng, PROJECTS)}",
                   f" * branch            {hexs(rng, 40)} -> FETCH_HEAD", f"HEAD is now at {hexs(rng, 7)} {pick(rng, COMMIT_MSGS)}",
                   "BUILD"]
            tag = f'Step #{step_no} - "{step_id}"'
            out.append(f"Starting {tag}")
            out.append(f"{tag}: Already have image (with digest): {image}" if chance(rng, 0.5) else f"{tag}: Pulling image: {image}")
            show_yaml = chance(rng, 0.5)
            if not show_yaml:
                for ln in xtrace(c.cmd, "/builder/home"):
                    out.append(f"{tag}: {ln}")
            for ln in c.lines:
                out.append(f"{tag}: {ln}")
            out.append("ERROR")
            out.append(f'ERROR: build step {step_no} "{image}" failed: step exited with non-zero status: {c.code}')
            if show_yaml:
                lead = (f"cloudbuild.yaml step:\n- id: {step_id}\n  name: {image}\n  entrypoint: bash\n  args: ['-c', {yaml_scalar(c.cmd)}]\n\n"
                        f"$ gcloud builds log {build_id}" + pick(rng, ("", f" --project {project}")))
            else:
                lead = pick(rng, (f"$ gcloud builds log {build_id}", f"$ gcloud builds log {build_id} --project {project}",
                                  f"Cloud Build > History > {build_id[:8]} > Build log (step {step_id} runs `bash -xc`):"))
            return lead + "\n" + "\n".join(out)
        trigger = guid(rng) if chance(rng, 0.6) else None
        for ln in payload_lines:
            t = clock.step(0.0, 0.05)
            entries.append({
                "insertId": alnum(rng, 10, "0123456789abcdefghijklmnopqrstuvwxyz"),
                "labels": {"build_step": f"Step #{step_no} - \"{step_id}\""} if chance(rng, 0.5) else {"build_step": f"Step #{step_no}"},
                "logName": f"projects/{project}/logs/cloudbuild",
                "receiveTimestamp": iso_nano(t + dt.timedelta(milliseconds=rng.randint(5, 900)), rng),
                "resource": {"labels": dict({"build_id": build_id}, **({"build_trigger_id": trigger} if trigger else {}),
                                            project_id=project), "type": "build"},
                "severity": "INFO",
                "textPayload": ln,
                "timestamp": iso_nano(t, rng),
            })
        filt = f'resource.type="build" AND resource.labels.build_id="{build_id}"'
        context = (f"cloudbuild.yaml:\nsteps:\n- id: {step_id}\n  name: {image}\n  entrypoint: bash\n  args: ['-c', {yaml_scalar(c.cmd)}]")
    else:
        job = f"{pick(rng, PROJECTS)}-{pick(rng, ('job', 'nightly', 'migrate', 'batch', 'cron'))}"
        region = pick(rng, REGIONS_GCP)
        execution = f"{job}-{alnum(rng, 5)}"
        instance = hexs(rng, 90)
        payloads = ["\n".join(payload_lines)] if variant == "run_single" else payload_lines
        for ln in payloads:
            t = clock.step(0.0, 0.05)
            entries.append({
                "insertId": hexs(rng, 24),
                "labels": {"instanceId": instance, "run.googleapis.com/execution_name": execution,
                           "run.googleapis.com/task_attempt": "0", "run.googleapis.com/task_index": "0"},
                "logName": f"projects/{project}/logs/run.googleapis.com%2F{c.stream}",
                "receiveTimestamp": iso_nano(t + dt.timedelta(milliseconds=rng.randint(5, 900)), rng),
                "resource": {"labels": {"job_name": job, "location": region, "project_id": project}, "type": "cloud_run_job"},
                "severity": "ERROR" if c.stream == "stderr" else "DEFAULT",
                "textPayload": ln,
                "timestamp": iso_nano(t, rng),
            })
        filt = f'resource.type="cloud_run_job" AND resource.labels.job_name="{job}"'
        argv = cmd_array(c.cmd)
        context = pick(rng, (
            (f"$ gcloud run jobs describe {job} --region {region} --format=yaml | grep -A6 'containers:'\n"
             f"        containers:\n        - args:\n          - -c\n          - {yaml_scalar(c.cmd)}\n        command:\n"
             f"          - /bin/sh\n          image: {region}-docker.pkg.dev/{project}/jobs/{job}:latest\n"
             f"$ gcloud run jobs execute {job} --region {region} --wait\n...\nERROR: (gcloud.run.jobs.execute) The execution failed."),
            f"Job {job} container: command {go_json(argv[:1])}, args {go_json(argv[1:])}",
            f"$ gcloud run jobs describe {job} --region {region} --format='value(spec.template.spec.template.spec.containers[0].args)'\n{';'.join(argv)}",
        ))
    asc = chance(rng, 0.45)
    ordered = entries if asc else list(reversed(entries))
    if variant.endswith("yaml"):
        chunks = []
        for e in ordered:
            ys = ["---", f"insertId: {yaml_scalar(e['insertId'])}", "labels:"]
            for k, v in e["labels"].items():
                ys.append(f"  {k if re.match(r'^[A-Za-z0-9_.]+$', k) else yaml_scalar(k)}: {yaml_scalar(v)}")
            ys.append(f"logName: {e['logName']}")
            ys.append(f"receiveTimestamp: '{e['receiveTimestamp']}'")
            ys.append("resource:")
            ys.append("  labels:")
            for k, v in e["resource"]["labels"].items():
                ys.append(f"    {k}: {yaml_scalar(v)}")
            ys.append(f"  type: {e['resource']['type']}")
            ys.append(f"severity: {e['severity']}")
            ys.extend(yaml_block("textPayload", e["textPayload"]))
            ys.append(f"timestamp: '{e['timestamp']}'")
            chunks.append("\n".join(ys))
        body = "\n".join(chunks)
        prompt = f"$ gcloud logging read '{filt}' --project {project} --limit {len(entries) + rng.randint(0, 40)}" + (" --order asc" if asc else "")
    else:
        body = json.dumps(ordered, indent=2, ensure_ascii=False)
        prompt = f"$ gcloud logging read '{filt}' --project {project} --format json" + (" --order asc" if asc else "")
        if chance(rng, 0.3):
            prompt = "Logs Explorer > Download > JSON (" + ("oldest first" if asc else "newest first") + "):"
    return context + "\n\n" + prompt + "\n" + body


# --------------------------------------------------------------------------- style: splunk_events


def r_splunk(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    host = pick(rng, (f"build-{rng.randint(1, 40):02d}", f"ip-10-{rng.randint(0, 255)}-{rng.randint(0, 255)}-{rng.randint(1, 254)}",
                      f"{pick(rng, ORGS)}-app-{rng.randint(1, 9)}", f"devbox-{alnum(rng, 4)}", f"ci-runner-{rng.randint(1, 12)}"))
    user = ascii_fold(pick(rng, FIRST_NAMES)).lower()
    rawfmt = pick(rng, ("syslog", "syslog", "ci", "journal", "plain"))
    prog = pick(rng, ("deploy.sh", "cron-job", "run-task", "build", "bash", c.tool))
    pid = rng.randint(300, 60000)
    pwd = pick(rng, (f"/home/{user}", f"/home/{user}/{pick(rng, PROJECTS)}", "/srv/app", "/opt/" + pick(rng, PROJECTS)))
    if rawfmt in ("syslog", "journal"):
        source, sourcetype, index = pick(rng, ("/var/log/syslog", "/var/log/messages", "journald://default")), pick(rng, ("syslog", "linux_messages_syslog", "journald")), pick(rng, ("os", "linux", "main"))
    elif rawfmt == "ci":
        source = f"/var/log/ci/{pick(rng, PROJECTS)}/build-{rng.randint(100, 9999)}.log"
        sourcetype, index = pick(rng, ("ci:build", "jenkins:console", "ci_console")), pick(rng, ("ci", "build", "devops"))
    else:
        source = f"/var/log/{pick(rng, PROJECTS)}/{pick(rng, ('app', 'job', 'stderr', 'worker'))}.log"
        sourcetype, index = pick(rng, ("app_log", "generic_single_line", "stderr")), pick(rng, ("app", "main", "prod"))

    def raw(t: dt.datetime, line: str, prog_: str = prog, pid_: int = pid) -> str:
        if rawfmt == "syslog":
            return f"{MONTHS[t.month - 1]} {t.day:>2} {t:%H:%M:%S} {host} {prog_}[{pid_}]: {line}"
        if rawfmt == "journal":
            return json.dumps({"MESSAGE": line, "PRIORITY": "3", "SYSLOG_IDENTIFIER": prog_, "_HOSTNAME": host,
                               "_PID": str(pid_), "__REALTIME_TIMESTAMP": str(int(t.timestamp() * 1e6))}, ensure_ascii=False)
        if rawfmt == "ci":
            return f"[{t:%Y-%m-%d %H:%M:%S}.{t.microsecond // 1000:03d}] {line}"
        return line

    events: list[tuple[dt.datetime, str]] = []
    t0 = clock.step()
    if rawfmt in ("syslog", "journal") and c.cmd.startswith("sudo "):
        rest = c.cmd[5:]
        ws = words_of(rest)
        full = (f"/usr/bin/{ws[0]}" if ws and not ws[0].startswith("/") else "") + (" " + " ".join(ws[1:]) if len(ws) > 1 else "")
        line = f"{user} : TTY=pts/{rng.randint(0, 6)} ; PWD={pwd} ; USER=root ; COMMAND={full.strip() or rest}"
        events.append((t0, raw(t0, line, "sudo", rng.randint(300, 60000))))
    elif rawfmt in ("syslog", "journal"):
        line = pick(rng, (f"HISTORY: PID={rng.randint(300, 60000)} UID={rng.randint(1000, 1010)} {c.cmd}",
                          f"user={user} pwd={pwd} cmd={c.cmd}", f"[{user}@{host} {pwd}]$ {c.cmd}"))
        events.append((t0, raw(t0, line, pick(rng, ("bash", "cmdlog", "audit-shell")), rng.randint(300, 60000))))
    elif rawfmt == "ci":
        events.append((t0, raw(t0, pick(rng, (f"+ {c.cmd}", f"$ {c.cmd}", f"Running: {c.cmd}")))))
    else:
        events.append((t0, raw(t0, f"exec: {c.cmd}")))
    clock.jump(0.05, 3)
    merged = chance(rng, 0.3) and len(c.lines) > 2 and rawfmt in ("ci", "plain")
    if merged:
        t = clock.step()
        events.append((t, raw(t, c.lines[0]) + "\n" + "\n".join(c.lines[1:])))
    else:
        for ln in c.lines:
            t = clock.step(0.0, 0.004)
            events.append((t, raw(t, ln)))
    newest_first = chance(rng, 0.65)
    ordered = list(reversed(events)) if newest_first else events
    spl = (f'index={index} host={host} sourcetype="{sourcetype}" earliest=-{pick(rng, ("15m", "1h", "4h", "24h"))}'
           + ("" if newest_first else " | reverse"))
    variant = pick(rng, ("csv", "json", "viewer", "viewer"))
    if variant == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n", quoting=pick(rng, (csv.QUOTE_ALL, csv.QUOTE_MINIMAL)))
        w.writerow(["_time", "host", "source", "sourcetype", "_raw"])
        for t, r in ordered:
            w.writerow([f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}+00:00", host, source, sourcetype, r])
        lead = pick(rng, (f"search: {spl} | table _time host source sourcetype _raw\nexport (CSV):",
                          f"{spl} | fields _time host source sourcetype _raw", f"# splunk export, {len(events)} events"))
        return lead + "\n" + buf.getvalue().rstrip("\n")
    if variant == "json":
        rows = []
        for i, (t, r) in enumerate(ordered):
            rec = {"preview": False, "offset": i, "result": {"_raw": r, "_time": f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}+00:00",
                                                             "host": host, "index": index, "linecount": str(r.count("\n") + 1),
                                                             "source": source, "sourcetype": sourcetype}}
            if i == len(ordered) - 1:
                rec["lastrow"] = True
            rows.append(json.dumps(rec, ensure_ascii=False, separators=(",", ":")))
        lead = pick(rng, ((f"$ curl -sk -u {user} https://splunk.{pick(rng, ORGS)}.internal:8089/services/search/jobs/export "
                           f"-d search='search {spl}' -d output_mode=json"),
                          f"Export > JSON of: {spl}"))
        return lead + "\n" + "\n".join(rows)
    blocks = []
    for t, r in ordered:
        shown = r
        nlines = r.count("\n") + 1
        if nlines > 5 and chance(rng, 0.5):
            shown = "\n".join(r.split("\n")[:5]) + f"\nShow all {nlines} lines"
        hh = t.hour % 12 or 12
        tstr = f"{hh}:{t:%M:%S}.{t.microsecond // 1000:03d} {'AM' if t.hour < 12 else 'PM'}"
        blocks.append(f">\t{t.month}/{t.day}/{t:%y}\n{tstr}\t{shown}\n"
                      f"host = {host}\tsource = {source}\tsourcetype = {sourcetype}")
    lead = pick(rng, (f"New Search: {spl}\n{len(events)} events ({pick(rng, ('before', 'from'))} {clock.t:%m/%d/%Y %H:%M:%S}.000)\ni\tTime\tEvent",
                      f"{len(events)} events\ni\tTime\tEvent", f"{spl}\n\ni\tTime\tEvent"))
    return lead + "\n" + "\n".join(blocks)


# --------------------------------------------------------------------------- style: otel_span_events


def exc_type(c: Ctx) -> str:
    for ln in reversed(c.lines):
        m = re.match(r"^\s*([A-Za-z_][\w.]*(?:Error|Exception|Exit))\b", ln)
        if m:
            return m.group(1)
    return ""


def otlp_attr(k: str, v) -> dict:
    if isinstance(v, bool):
        return {"key": k, "value": {"boolValue": v}}
    if isinstance(v, int):
        return {"key": k, "value": {"intValue": str(v)}}
    if isinstance(v, list):
        return {"key": k, "value": {"arrayValue": {"values": [{"stringValue": x} for x in v]}}}
    return {"key": k, "value": {"stringValue": v}}


def r_otel(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    svc = pick(rng, ("ci-runner", "devbox-shell", "otel-cli", "build-agent", "gha-otel-exporter", "task-runner", "make-otel"))
    host = pick(rng, (f"build-{rng.randint(1, 30)}", f"runner-{alnum(rng, 6)}", f"{ascii_fold(pick(rng, FIRST_NAMES)).lower()}-laptop", f"ip-10-0-{rng.randint(0, 9)}-{rng.randint(2, 250)}"))
    trace_id, root_id, span_id = hexs(rng, 32), hexs(rng, 16), hexs(rng, 16)
    pid = rng.randint(300, 80000)
    t_root = clock.t
    t_start = clock.step(0.01, 0.5)
    clock.jump(0.2, 9)
    t_exc = clock.step()
    t_end = clock.step(0.001, 0.02)
    t_root_end = clock.step(0.001, 0.2)
    etype = exc_type(c)
    root_name = pick(rng, (f"ci.job {step_label(rng, c.tool).lower()}", "pipeline run", f"{pick(rng, PROJECTS)} build", "shell session"))
    argv = words_of(c.cmd)
    variant = pick(rng, ("otlp", "otlp", "jaeger_json", "jaeger_ui"))
    use_exc = chance(rng, 0.7)
    stderr_text = c.err
    if variant == "otlp":
        span_attrs = [otlp_attr("process.command_line", c.cmd), otlp_attr("process.executable.name", c.tool),
                      otlp_attr("process.command_args", argv), otlp_attr("process.pid", pid), otlp_attr("process.exit_code", c.code)]
        if chance(rng, 0.5):
            span_attrs.append(otlp_attr("process.working_directory", pick(rng, ("/workspace", "/home/runner/work/app/app", "/src", "/home/dev"))))
        events = []
        if use_exc:
            ex = [otlp_attr("exception.message", c.key or c.lines[-1]), otlp_attr("exception.stacktrace", stderr_text)]
            if etype:
                ex.insert(0, otlp_attr("exception.type", etype))
            events.append({"timeUnixNano": str(epoch_ns(t_exc, rng)), "name": "exception", "attributes": ex})
        else:
            tt = t_start
            for ln in c.lines:
                tt += dt.timedelta(microseconds=rng.randint(10, 4000))
                events.append({"timeUnixNano": str(epoch_ns(tt, rng)), "name": "log",
                               "attributes": [otlp_attr("log.iostream", c.stream), otlp_attr("log.message", ln)]})
        doc = {"resourceSpans": [{
            "resource": {"attributes": [otlp_attr("service.name", svc), otlp_attr("host.name", host), otlp_attr("os.type", "linux"),
                                        otlp_attr("telemetry.sdk.language", pick(rng, ("go", "python", "nodejs"))),
                                        otlp_attr("telemetry.sdk.name", "opentelemetry"),
                                        otlp_attr("telemetry.sdk.version", pick(rng, ("1.24.0", "1.27.0", "1.21.0", "1.31.0")))]},
            "scopeSpans": [{
                "scope": {"name": pick(rng, ("otel-cli", "github.com/equinix-labs/otel-cli", "ci.exec", "opentelemetry.instrumentation.subprocess")),
                          "version": f"0.{rng.randint(1, 9)}.{rng.randint(0, 9)}"},
                "spans": [
                    {"traceId": trace_id, "spanId": span_id, "parentSpanId": root_id, "name": c.cmd, "kind": 1,
                     "startTimeUnixNano": str(epoch_ns(t_start, rng)), "endTimeUnixNano": str(epoch_ns(t_end, rng)),
                     "attributes": span_attrs, "events": events,
                     "status": {"code": 2, "message": f"exit status {c.code}"}},
                    {"traceId": trace_id, "spanId": root_id, "parentSpanId": "", "name": root_name, "kind": 1,
                     "startTimeUnixNano": str(epoch_ns(t_root, rng)), "endTimeUnixNano": str(epoch_ns(t_root_end, rng)),
                     "attributes": [otlp_attr("ci.pipeline.name", pick(rng, PROJECTS))], "status": {"code": 2}},
                ],
            }],
        }]}
        if chance(rng, 0.35):
            body = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
        else:
            body = json.dumps(doc, indent=2, ensure_ascii=False)
        lead = pick(rng, (None, f"# otelcol file exporter, /var/lib/otelcol/traces.json (trace {trace_id})",
                          f"$ otel-cli exec --service {svc} --name {shlex.quote(c.cmd)} -- {c.cmd}\n... span as exported:",
                          f"trace {trace_id} from the collector's debug file:"))
        return (lead + "\n" if lead else "") + body
    if variant == "jaeger_json":
        def us(t: dt.datetime) -> int:
            return int(t.timestamp()) * 1_000_000 + t.microsecond

        fields = []
        if use_exc:
            fields = [{"key": "event", "type": "string", "value": "exception"}]
            if etype:
                fields.append({"key": "exception.type", "type": "string", "value": etype})
            fields += [{"key": "exception.message", "type": "string", "value": c.key or c.lines[-1]},
                       {"key": "exception.stacktrace", "type": "string", "value": stderr_text}]
            logs = [{"timestamp": us(t_exc), "fields": fields}]
        else:
            logs = [{"timestamp": us(t_exc), "fields": [{"key": "event", "type": "string", "value": "stderr"},
                                                        {"key": "message", "type": "string", "value": stderr_text}]}]
        span = {"traceID": trace_id, "spanID": span_id, "operationName": c.cmd,
                "references": [{"refType": "CHILD_OF", "traceID": trace_id, "spanID": root_id}],
                "startTime": us(t_start), "duration": us(t_end) - us(t_start),
                "tags": [{"key": "otel.library.name", "type": "string", "value": "otel-cli"},
                         {"key": "process.command_line", "type": "string", "value": c.cmd},
                         {"key": "process.exit_code", "type": "int64", "value": c.code},
                         {"key": "span.kind", "type": "string", "value": "internal"},
                         {"key": "error", "type": "bool", "value": True},
                         {"key": "otel.status_code", "type": "string", "value": "ERROR"},
                         {"key": "otel.status_description", "type": "string", "value": f"exit status {c.code}"}],
                "logs": logs, "processID": "p1", "warnings": None}
        root = {"traceID": trace_id, "spanID": root_id, "operationName": root_name, "references": [],
                "startTime": us(t_root), "duration": us(t_root_end) - us(t_root), "tags": [{"key": "error", "type": "bool", "value": True}],
                "logs": [], "processID": "p1", "warnings": None}
        doc = {"data": [{"traceID": trace_id, "spans": [root, span],
                         "processes": {"p1": {"serviceName": svc, "tags": [{"key": "host.name", "type": "string", "value": host},
                                                                           {"key": "os.type", "type": "string", "value": "linux"}]}},
                         "warnings": None}], "total": 0, "limit": 0, "offset": 0, "errors": None}
        lead = pick(rng, (f"Jaeger > Trace {trace_id[:7]} > Download JSON:", f"$ curl -s http://jaeger:16686/api/traces/{trace_id}",
                          f"trace JSON for {svc}: {c.cmd}"))
        return lead + "\n" + json.dumps(doc, indent=2, ensure_ascii=False)
    dur = (t_end - t_start).total_seconds()
    total = (t_root_end - t_root).total_seconds()
    off = (t_start - t_root).total_seconds()
    lines = [f"{svc}: {root_name}  {trace_id[:7]}",
             (f"Trace Start {MONTHS[t_root.month - 1]} {t_root.day} {t_root:%Y}, {t_root:%H:%M:%S}.{t_root.microsecond // 1000:03d}"
              f"  Duration {total:.2f}s  Services 1  Depth 2  Total Spans 2"),
             "",
             f"{svc} {root_name}",
             f"  {svc} {c.cmd}",
             "",
             c.cmd,
             f"Service: {svc}   Duration: {dur:.2f}s   Start Time: {off * 1000:.0f}ms",
             "Tags",
             "error\ttrue",
             "otel.status_code\tERROR",
             f"otel.status_description\texit status {c.code}",
             f"process.command_line\t{c.cmd}",
             f"process.exit_code\t{c.code}",
             "span.kind\tinternal",
             "Process",
             f"host.name\t{host}",
             "os.type\tlinux",
             f"process.pid\t{pid}",
             "Logs (1)",
             f"{(t_exc - t_root).total_seconds():.2f}s"]
    if use_exc:
        lines.append("event\texception")
        if etype:
            lines.append(f"exception.type\t{etype}")
        lines.append(f"exception.message\t{c.key or c.lines[-1]}")
        lines.append(f"exception.stacktrace\t{stderr_text}")
    else:
        lines.append("event\tstderr")
        lines.append(f"message\t{stderr_text}")
    lines.append("Log timestamps are relative to the start time of the full trace.")
    lines.append(f"SpanID: {span_id}")
    lead = pick(rng, (None, "copied from the Jaeger UI span view:", f"Jaeger, service {svc}, the failed span expanded:"))
    return (lead + "\n" if lead else "") + "\n".join(lines)


# --------------------------------------------------------------------------- style: kaggle_log


def r_kaggle(rng: random.Random, c: Ctx) -> str:
    variant = pick(rng, ("bang", "bash", "bash", "papermill"))
    t = rng.uniform(2.5, 9.0)
    recs: list[tuple[str, float, str]] = []

    def rec(stream: str, data: str, lo: float = 0.00001, hi: float = 0.02) -> None:
        nonlocal t
        t += rng.uniform(lo, hi)
        recs.append((stream, t, data))

    cell_src = (f"!{c.cmd}" if variant == "bang" else f"%%bash\n{c.cmd}")
    if variant in ("bang", "bash"):
        rec("stderr", "0.00s - Debugger warning: It seems that frozen modules are being used, which may\n")
        rec("stderr", "0.00s - make the debugger miss breakpoints. Please pass -Xfrozen_modules=off\n")
        rec("stderr", "0.00s - to python to disable frozen modules.\n")
        rec("stderr", "0.00s - Note: Debugging will proceed. Set PYDEVD_DISABLE_FILE_VALIDATION=1 to disable this validation.\n")
        if chance(rng, 0.5):
            rec("stdout", pick(rng, ("/kaggle/input/" + pick(rng, PROJECTS) + "/train.csv\n", "Tesla T4\n", "2.1.2+cu121\n")), 1, 8)
        t += rng.uniform(0.5, 30)
        stream = "stdout" if variant == "bang" else c.stream
        for ln in c.lines:
            rec(stream, ln + "\n")
        if variant == "bash":
            src = c.cmd + "\n"
            rec("stderr", "Traceback (most recent call last):\n", 0.5, 2)
            rec("stderr", '  File "/usr/local/bin/jupyter-nbconvert", line 10, in <module>\n')
            rec("stderr", "    sys.exit(main())\n")
            rec("stderr", "  ...\n")
            rec("stderr", "nbclient.exceptions.CellExecutionError: An error occurred while executing the following cell:\n")
            rec("stderr", "------------------\n")
            rec("stderr", "%%bash\n")
            rec("stderr", src)
            rec("stderr", "------------------\n")
            rec("stderr", "\n")
            rec("stderr", "---------------------------------------------------------------------------\n")
            rec("stderr", "CalledProcessError                        Traceback (most recent call last)\n")
            n = rng.randint(2, 14)
            rec("stderr", f"Cell In[{n}], line 1\n")
            rec("stderr", f"----> 1 get_ipython().run_cell_magic('bash', '', {src!r})\n")
            rec("stderr", "\n")
            rec("stderr", f"CalledProcessError: Command {src.encode()!r} returned non-zero exit status {c.code}.\n")
        else:
            rec("stderr", "[NbConvertApp] Writing " + str(rng.randint(8000, 90000)) + " bytes to __notebook__.ipynb\n", 1, 20)
        body = "\n,".join(json.dumps({"stream_name": s, "time": round(tt, 9), "data": d}, ensure_ascii=False, separators=(",", ":"))
                          for s, tt, d in recs)
        slug = f"{ascii_fold(pick(rng, FIRST_NAMES)).lower()}{rng.randint(1, 999)}/{pick(rng, PROJECTS)}-{pick(rng, ('baseline', 'eda', 'train', 'v2', 'submission'))}"
        lead = pick(rng, (
            f"$ kaggle kernels output {slug} -p out/ && cat out/*.log",
            f"notebook {slug}, cell:\n{cell_src}\n\nrun log (__notebook__.log):",
            f"Kaggle version {rng.randint(2, 40)} log of {slug}:",
            f"$ kaggle kernels logs {slug}",
        ))
        if variant == "bang" and "cell:" not in lead:
            n_cell = rng.randint(2, 12)
            lead = pick(rng, (f"cell [{n_cell}] is `{cell_src}` (no error raised, the notebook just carried on)\n{lead}",
                              f"{lead}\n(the stdout lines after the input listing come from cell {n_cell}: {cell_src})"))
        return lead + "\n[" + body + "\n]"
    nb = f"{pick(rng, ('notebooks/', 'nb/', ''))}{pick(rng, ('train', 'etl', 'report', 'features', 'setup', 'ingest'))}.ipynb"
    date = rand_dt(rng)
    out_nb = f"out/{Path(nb).stem}-{date:%Y%m%d}.ipynb"
    ncells = rng.randint(4, 16)
    fail = rng.randint(1, min(ncells - 1, 5))
    src = c.cmd + "\n"
    lines = [f"$ papermill {nb} {out_nb} -p run_date {date:%Y-%m-%d} --log-output",
             f"Input Notebook:  {nb}", f"Output Notebook: {out_nb}", "Executing notebook with kernel: python3"]
    for i in range(1, fail):
        lines.append(f"Executing Cell {i}" + "-" * 41)
        lines.append(f"Ending Cell {i}" + "-" * 44)
    lines.append(f"Executing Cell {fail}" + "-" * 41)
    lines.extend(c.lines)
    lines.append(f"Ending Cell {fail}" + "-" * 44)
    pct = int(100 * fail / ncells)
    lines.append(f"Executing:  {pct}%|{'█' * (pct // 10)}{' ' * (10 - pct // 10)}| {fail}/{ncells} [00:{rng.randint(2, 59):02d}<00:{rng.randint(2, 59):02d},  {rng.uniform(0.3, 4):.2f}s/cell]")
    lines += ["Traceback (most recent call last):",
              '  File "/opt/conda/bin/papermill", line 10, in <module>',
              "    sys.exit(papermill())",
              "  ...",
              '  File "/opt/conda/lib/python3.10/site-packages/papermill/execute.py", line 251, in raise_for_execution_errors',
              "    raise error",
              "papermill.exceptions.PapermillExecutionError: ",
              "-" * 75,
              f'Exception encountered at "In [{fail}]":',
              "-" * 75,
              "CalledProcessError                        Traceback (most recent call last)",
              f"Cell In[{fail}], line 1",
              f"----> 1 get_ipython().run_cell_magic('bash', '', {src!r})",
              "",
              f"CalledProcessError: Command {src.encode()!r} returned non-zero exit status {c.code}.",
              ""]
    lead = pick(rng, (None, f"cell {fail} of {nb} is\n%%bash\n{c.cmd}\n", f"SageMaker notebook job / papermill run of {nb}:"))
    return (lead + "\n" if lead else "") + "\n".join(lines).rstrip("\n")


# --------------------------------------------------------------------------- shared prose for issue-like media


def purpose(rng: random.Random, c: Ctx) -> str:
    t = c.tool
    table = {
        "pip": ("install the deps for a side project", "set up a fresh virtualenv", "get the project's requirements installed"),
        "npm": ("build the frontend", "install a package", "get the app running locally"),
        "npx": ("run the tooling from the README", "run the type checker"),
        "node": ("run a small script", "start the app"),
        "cargo": ("build the crate", "compile the project", "run the tests"),
        "go": ("build the service", "run the tests", "compile my module"),
        "docker": ("build the image", "run the container", "containerize the app"),
        "kubectl": ("deploy to our cluster", "check on a deployment", "apply the manifests"),
        "git": ("sync my branch", "push my changes", "update my checkout"),
        "gti": ("check the repo status",),
        "ssh": ("log into the server", "reach the box", "deploy to the VPS"),
        "psql": ("load some data into Postgres", "run a query", "set up the database"),
        "mysql": ("import a CSV", "connect to the DB"),
        "javac": ("compile a small Java program", "build the assignment"),
        "java": ("run the program", "start the jar"),
        "mvn": ("build the project", "package the app"),
        "gcc": ("compile a C program", "build a little tool"),
        "make": ("build from source", "compile the project"),
        "bundle": ("run the Rails app", "build the Jekyll site"),
        "systemctl": ("restart the service", "bring the service up"),
        "journalctl": ("look at the service logs",),
        "curl": ("hit the API", "download a file"),
        "openssl": ("check the certificate", "verify the cert chain"),
        "helm": ("install the chart", "upgrade the release"),
    }
    return pick(rng, table.get(t, ("run a script", "get this working", "finish a small task", "follow the README")))


def when_phrase(rng: random.Random) -> str:
    return pick(rng, ("since this morning", "after a fresh clone", "after upgrading", "on a brand new VM", "since yesterday",
                      "after pulling the latest changes", "on my new laptop", "right after the reinstall", "out of nowhere"))


def env_lines(rng: random.Random, c: Ctx) -> list[str]:
    versions = {
        "python3": f"Python 3.{rng.randint(8, 12)}.{rng.randint(0, 9)}", "python": f"Python 3.{rng.randint(8, 12)}.{rng.randint(0, 9)}",
        "pip": f"pip {rng.randint(21, 24)}.{rng.randint(0, 3)}", "npm": f"node v{rng.randint(16, 22)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}, npm {rng.randint(8, 10)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}",
        "node": f"node v{rng.randint(16, 22)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}", "cargo": f"rustc 1.{rng.randint(68, 82)}.{rng.randint(0, 2)}",
        "go": f"go1.{rng.randint(19, 23)}.{rng.randint(0, 9)} linux/amd64", "docker": f"Docker {rng.randint(20, 27)}.{rng.randint(0, 1)}.{rng.randint(0, 9)}",
        "kubectl": f"kubectl v1.{rng.randint(25, 31)}.{rng.randint(0, 9)}", "javac": f"openjdk {pick(rng, ('11', '17', '21'))}.0.{rng.randint(1, 12)}",
        "java": f"openjdk {pick(rng, ('11', '17', '21'))}.0.{rng.randint(1, 12)}", "mvn": f"Apache Maven 3.{rng.randint(6, 9)}.{rng.randint(0, 9)}",
        "gcc": f"gcc {rng.randint(9, 14)}.{rng.randint(1, 3)}.0", "ruby": f"ruby {rng.randint(2, 3)}.{rng.randint(0, 3)}.{rng.randint(0, 9)}",
        "bundle": f"ruby {rng.randint(2, 3)}.{rng.randint(0, 3)}.{rng.randint(0, 9)}, bundler 2.{rng.randint(1, 5)}.{rng.randint(0, 20)}",
        "psql": f"psql (PostgreSQL) {rng.randint(12, 16)}.{rng.randint(0, 9)}", "git": f"git version 2.{rng.randint(30, 46)}.{rng.randint(0, 3)}",
    }
    out = [f"OS: {pick(rng, DISTROS)}"]
    if c.tool in versions:
        out.append(versions[c.tool])
    return out


# --------------------------------------------------------------------------- style: swebench_instance


def r_swebench(rng: random.Random, c: Ctx) -> str:
    owner, repo = pick(rng, ORGS), pick(rng, PROJECTS)
    num = rng.randint(120, 24000)
    created = rand_dt(rng)
    title = pick(rng, (
        f"`{shorten(c.cmd, 60)}` fails: {shorten(c.key, 70)}",
        f"{shorten(c.key, 90)}",
        f"Error when running {c.tool}: {shorten(c.key, 60)}",
        f"[Bug] {shorten(c.key, 80)}",
        f"{c.tool} broken {when_phrase(rng)}",
    ))
    fence = "```"
    lang = pick(rng, ("", "", "console", "text", "shell"))
    tpl = pick(rng, ("template", "freeform", "minimal", "template"))
    if tpl == "template":
        body = (f"### Describe the bug\n\n{pick(rng, ('Running', 'Invoking', 'Calling'))} `{c.cmd}` "
                f"{pick(rng, ('fails every time', 'errors out', 'stops with an error', 'no longer works'))} {when_phrase(rng)}.\n\n"
                f"### Steps to reproduce\n\n1. {pick(rng, ('Clone the repo', 'Fresh checkout of main', 'Start from a clean environment'))}\n"
                f"2. Run `{c.cmd}`\n\n### Actual behavior\n\n{fence}{lang}\n{c.err}\n{fence}\n\n"
                f"### Expected behavior\n\n{pick(rng, ('The command completes without errors.', 'It should just work like it did before.', 'No error.'))}\n\n"
                f"### Environment\n\n" + "\n".join(f"- {e}" for e in env_lines(rng, c)))
    elif tpl == "freeform":
        body = (f"{pick(rng, ('Hi!', 'Hello,', 'Hey all,', ''))} I was trying to {purpose(rng, c)} and hit this:\n\n"
                f"{fence}\n$ {c.cmd}\n{c.err}\n{fence}\n\n"
                f"{pick(rng, ('Not sure if this is a bug in the project or my setup.', 'Any idea what is going on?', 'Happy to provide more info.', 'I searched the existing issues but did not find this one.'))}\n\n"
                + "\n".join(env_lines(rng, c)))
    else:
        ind = "\n".join("    " + ln for ln in (f"$ {c.cmd}", *c.lines))
        body = f"Reproduce with `{c.cmd}`:\n\n{ind}\n"
    statement = f"{title}\n{body}\n"
    hints = pick(rng, (
        "",
        "",
        f"Thanks for the report. Can you share the full output of `{c.tool} --version`?",
        f"I can reproduce this on {pick(rng, ('main', 'the latest release', 'a clean container'))}.",
        "Same here. Happens on CI too.\nLooks related to the environment rather than the code, but let's keep this open.",
    ))
    variant = pick(rng, ("swebench", "swebench", "issues"))
    if variant == "swebench":
        rec = {
            "repo": f"{owner}/{repo}",
            "instance_id": f"{owner}__{repo}-{num}",
            "base_commit": hexs(rng, 40),
            "problem_statement": statement,
            "hints_text": hints,
            "created_at": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "version": f"{rng.randint(0, 5)}.{rng.randint(0, 12)}",
            "FAIL_TO_PASS": json.dumps([f"tests/test_{slug_id(c.tool)}.py::test_{pick(rng, ('cli_run', 'build', 'install', 'smoke', 'regression'))}_{num}"]),
            "PASS_TO_PASS": json.dumps([f"tests/test_{pick(rng, ('config', 'utils', 'core'))}.py::test_{pick(rng, ('defaults', 'load', 'parse'))}"]),
            "environment_setup_commit": hexs(rng, 40),
        }
        if chance(rng, 0.4):
            rec["patch"] = (f"diff --git a/CHANGELOG.md b/CHANGELOG.md\n--- a/CHANGELOG.md\n+++ b/CHANGELOG.md\n@@ -1,3 +1,4 @@\n"
                            f" ## Unreleased\n+- Fix #{num}\n \n")
    else:
        first, _last = person(rng)
        login = pick(rng, (pick(rng, NICKS), ascii_fold(first).lower() + str(rng.randint(1, 99))))
        rec = {
            "url": f"https://api.github.com/repos/{owner}/{repo}/issues/{num}",
            "html_url": f"https://github.com/{owner}/{repo}/issues/{num}",
            "number": num,
            "title": title,
            "user": {"login": login, "type": "User"},
            "labels": [{"name": n} for n in pick(rng, (["bug"], ["bug", "needs-triage"], [], ["question"], ["type: bug", "area: build"]))],
            "state": pick(rng, ("open", "closed")),
            "comments": rng.randint(0, 14),
            "created_at": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "author_association": pick(rng, ("NONE", "CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR")),
            "body": body,
            "is_pull_request": False,
        }
    compact = chance(rng, 0.5)
    text = json.dumps(rec, ensure_ascii=chance(rng, 0.5), indent=None if compact else 2)
    lead = pick(rng, (None, None, f"instance {rec.get('instance_id', num)}:", f"row {rng.randint(0, 2299)} of the {pick(rng, ('test', 'dev', 'train'))} split:"))
    return (lead + "\n" if lead else "") + text


# --------------------------------------------------------------------------- style: bbcode_forum


def r_bbcode(rng: random.Random, c: Ctx) -> str:
    nick = pick(rng, NICKS)
    other = pick(rng, [n for n in NICKS if n != nick])
    when = rand_dt(rng)
    engine = pick(rng, ("phpbb", "phpbb", "vbulletin", "smf", "discourse"))
    code_open, code_close = ("[CODE]", "[/CODE]") if engine == "vbulletin" else ("[code]", "[/code]")
    if engine == "smf" and chance(rng, 0.5):
        code_open = "[code=bash]"
    machine = pick(rng, ("desktop", "pi", "box", "laptop", "thinkpad"))
    prompt = pick(rng, ("$ ", "", f"{nick}@{machine}:~$ "))
    cmd_block = f"{code_open}{prompt}{c.cmd}{code_close}"
    err_block = f"{code_open}{c.err}{code_close}"
    subject = pick(rng, (f"{c.tool}: {shorten(c.key, 60)}", f"Help! {shorten(c.key, 60)}", f"[SOLVED?] {c.tool} error",
                         f"Problem with {c.tool}", shorten(c.key, 80)))
    parts: list[str] = []
    if engine == "phpbb":
        parts.append(f"Re: {subject}" if chance(rng, 0.5) else subject)
        parts.append(f"Post by {nick} » {DAYS[when.weekday()]} {MONTHS[when.month - 1]} {when.day:02d}, {when.year} {clock12(when, False).lower()}")
        parts.append("")
    elif engine == "discourse":
        pass
    if chance(rng, 0.45):
        q = pick(rng, ("Post the exact command and the full output, otherwise nobody can help.",
                       "What do you get when you run it again?", "Did you try a reboot?", "Which distro/version are you on?",
                       "Can you show us the output?"))
        if engine == "vbulletin":
            parts.append(f"[QUOTE={other};{rng.randint(100000, 999999)}]{q}[/QUOTE]")
        elif engine == "discourse":
            parts.append(f'[quote="{other}, post:{rng.randint(1, 9)}, topic:{rng.randint(1000, 99999)}"]\n{q}\n[/quote]')
        else:
            parts.append(f'[quote="{other}"]{q}[/quote]')
        parts.append("")
        parts.append(pick(rng, ("Sure, here it is.", "Ok, ran it again just now:", "Here you go:", "Sorry, should have done that first.")))
    else:
        parts.append(pick(rng, (f"Hi all, first post here. I'm trying to {purpose(rng, c)} {when_phrase(rng)} and I'm stuck.",
                                f"Hello, I'm trying to {purpose(rng, c)} and keep getting an error.",
                                f"I've been going around in circles for an hour. Trying to {purpose(rng, c)}.",
                                f"Not sure if this is the right subforum, but: I need to {purpose(rng, c)}.")))
    parts.append("")
    parts.append(pick(rng, ("I run:", "Command:", "This is what I type:", "[b]Command:[/b]", "What I did:")))
    parts.append(cmd_block)
    parts.append("")
    parts.append(pick(rng, ("and I get:", "Output:", "[b]Output:[/b]", "Result:", "and it spits out this:")))
    if engine == "discourse" and len(c.lines) > 12:
        parts.append(f"[details=\"Full output\"]\n{err_block}\n[/details]")
    elif engine == "smf" and chance(rng, 0.3):
        parts.append(f"[quote]{c.err}[/quote]")
    else:
        parts.append(err_block)
    parts.append("")
    env = env_lines(rng, c)
    if chance(rng, 0.6):
        parts.append(f"[i]{' / '.join(env)}[/i]" if chance(rng, 0.5) else f"[b]System:[/b] {', '.join(env)}")
    parts.append(pick(rng, ("Any ideas? Thanks in advance!", "What am I doing wrong?", "Thanks for any help.",
                            "[color=red]Please help[/color], deadline is tomorrow :(", "Cheers", "TIA")))
    sig = pick(rng, (None, f"[i]{pick(rng, ('Debian on a ThinkPad X220', 'Running Arch btw', 'Raspberry Pi 4 / 8GB', 'Homelab: 3x NUC'))}[/i]",
                     f"[url=https://github.com/{nick}]my github[/url] | [url=https://{nick}.dev]blog[/url]",
                     "[size=85]There are 10 types of people...[/size]"))
    if sig:
        parts.append("")
        parts.append("__________________" if engine == "vbulletin" else "_________________")
        parts.append(sig)
    if chance(rng, 0.4):
        ed = when + dt.timedelta(minutes=rng.randint(2, 300))
        edits = rng.randint(1, 3)
        if engine == "phpbb":
            parts.append("")
            parts.append(f"Last edited by {nick} on {DAYS[ed.weekday()]} {MONTHS[ed.month - 1]} {ed.day:02d}, {ed.year} "
                         f"{clock12(ed, False).lower()}, edited {edits} time{'s' if edits > 1 else ''} in total.")
        elif engine == "vbulletin":
            parts.append("")
            parts.append(f"Last edited by {nick}; {ed:%m-%d-%Y} at {clock12(ed, False)}.")
        elif engine == "smf":
            parts.append("")
            parts.append(f"« Last Edit: {MONTHS[ed.month - 1]} {ed.day:02d}, {ed.year}, {clock12(ed)} by {nick} »")
    return "\n".join(parts)


# --------------------------------------------------------------------------- style: redmine_textile


def r_redmine(rng: random.Random, c: Ctx) -> str:
    first, last = person(rng)
    af, al = pick(rng, [n for n in FIRST_NAMES if n != first]), pick(rng, LAST_NAMES)
    num = rng.randint(80, 40000)
    proj = pick(rng, PROJECTS)
    org = pick(rng, ORGS)
    title = pick(rng, (f"{c.tool} fails: {shorten(c.key, 70)}", shorten(c.key, 90), f"Cannot {purpose(rng, c)}",
                       f"`{shorten(c.cmd, 50)}` errors out"))
    ver = f"{rng.randint(1, 6)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}"
    variant = pick(rng, ("redmine_mail", "redmine_page", "trac_mail", "trac_page"))
    if variant.startswith("redmine"):
        pre_open = pick(rng, ("<pre>", "<pre>", '<pre><code class="shell">', '<pre><code class="text">'))
        pre_close = "</code></pre>" if pre_open.endswith('">') else "</pre>"
        desc = [pick(rng, ("h3. What happens", "h3. Steps", "*Problem*", "h3. Description")), ""]
        desc.append(pick(rng, (f"Running @{c.cmd}@ {when_phrase(rng)} fails:", f"When I run @{c.cmd}@ I get the following:",
                               f"Trying to {purpose(rng, c)}. Command: @{c.cmd}@")))
        desc.append("")
        desc.append(pre_open + (f"$ {c.cmd}\n" if chance(rng, 0.4) else "") + c.err + "\n" + pre_close)
        desc.append("")
        if chance(rng, 0.5):
            desc.append(pick(rng, ("h3. Expected", "*Expected:*")))
            desc.append("")
            desc.append(pick(rng, ("It finishes without errors.", "Same as on the CI box: it works.", "No error, obviously.")))
            desc.append("")
        desc.append(pick(rng, ("h3. Environment", "*Environment:*", "*Env*")))
        desc.append("")
        desc.append("* " + "\n* ".join(env_lines(rng, c)))
        note = pick(rng, ("Can you attach the full log?", "Seen on the build server too.", "Moving to the infra tracker.",
                          "Is this still happening after the last deploy?", "I can reproduce it on my machine."))
        status = pick(rng, ("In Progress", "Feedback", "Confirmed", "Assigned"))
        prio = pick(rng, ("Normal", "High", "Urgent", "Low"))
        fields = [("Author", f"{first} {last}"), ("Status", status), ("Priority", prio), ("Assignee", f"{af} {al}"),
                  ("Category", pick(rng, ("Build", "Infrastructure", "Backend", "Tooling", "Deployment"))),
                  ("Target version", ver), ("Affected version", f"{rng.randint(1, 6)}.{rng.randint(0, 12)}")]
        if variant == "redmine_mail":
            out = [f"Issue #{num} has been updated by {af} {al}.", "", f"* Status changed from New to {status}",
                   f"* Assignee set to {af} {al}", "", f"bq. {note}", "", "-" * 40,
                   f"Bug #{num}: {title}", f"https://redmine.{org}.{pick(rng, ('internal', 'com', 'io'))}/issues/{num}#change-{rng.randint(1000, 99999)}", ""]
            out += [f"* {k}: {v}" for k, v in fields]
            out += ["-" * 40] + desc + ["", "", "", "You have received this notification because you are watching this issue."]
            return "\n".join(out)
        out = [f"Bug #{num}", title, f"Added by {first} {last} {rng.randint(2, 20)} days ago. Updated {rng.randint(2, 30)} hours ago.", ""]
        out += [f"{k}:\t{v}" for k, v in fields[1:]]
        out += ["", "Description", ""] + desc
        out += ["", "History", f"#1 Updated by {af} {al} {rng.randint(2, 20)} hours ago", "", note]
        return "\n".join(out)
    reporter, owner = rng.sample(NICKS, 2)
    comp = pick(rng, ("build", "core", "packaging", "deployment", "docs", "tools"))
    sev = pick(rng, ("normal", "major", "critical", "minor"))
    typ = pick(rng, ("defect", "defect", "task"))
    status = pick(rng, ("new", "assigned", "reopened"))
    desc = [pick(rng, ("== Problem ==", "=== What happens ===", "")), ""]
    desc.append(pick(rng, (f"Running {{{{{{{c.cmd}}}}}}} gives:", f"I ran {{{{{{{c.cmd}}}}}}} {when_phrase(rng)} and got this:[[BR]]",
                           f"Steps: {{{{{{{c.cmd}}}}}}}")))
    desc.append("{{{")
    desc.extend(c.lines)
    desc.append("}}}")
    desc.append("")
    desc.append("'''Environment:''' " + ", ".join(env_lines(rng, c)))
    if variant == "trac_page":
        out = [f"Ticket #{num} ({status} {typ})", "", f"Opened {rng.randint(2, 30)} days ago", f"Last modified {rng.randint(2, 40)} hours ago", "",
               title, "", f"Reported by:\t{reporter}\tOwned by:\t{owner}", f"Priority:\t{pick(rng, ('major', 'minor', 'critical'))}\tMilestone:\t{ver}",
               f"Component:\t{comp}\tVersion:\t{ver.rsplit('.', 1)[0]}", f"Severity:\t{sev}\tKeywords:\t{c.tool}", "", "Description", ""]
        out += desc
        out += ["", "Change History (1)", "", f"comment:1 Changed {rng.randint(2, 20)} hours ago by {owner}",
                "", pick(rng, ("Can you attach the full output with -v?", "Confirmed on the build slave.", "Milestone changed.",
                               "Does this also happen on trunk?"))]
        return "\n".join(out)

    def cell(k: str, v: str) -> str:
        return f"{k:>10}:  {v}".ljust(37)

    sep = "-" * 37 + "+" + "-" * 37
    out = [f"#{num}: {title}", sep]
    rows = [(("Reporter", reporter), ("Owner", owner)), (("Type", typ), ("Status", status)),
            (("Priority", pick(rng, ("major", "minor", "critical"))), ("Milestone", ver)),
            (("Component", comp), ("Version", ver.rsplit(".", 1)[0])), (("Severity", sev), ("Keywords", c.tool))]
    for (k1, v1), (k2, v2) in rows:
        out.append(f"{cell(k1, v1)}|{cell(k2, v2)}".rstrip())
    out.append(sep)
    out += [(" " + ln) if ln else "" for ln in desc]
    if chance(rng, 0.6):
        out += ["", "", "Comment (by " + owner + "):", "",
                " " + pick(rng, ("Please attach the full output (with -v if the tool has it).", "Looks environmental, but keeping it open.",
                                 "Can't reproduce here, what versions are you on?"))]
    out += ["", "--", f"Ticket URL: <https://trac.{org}.org/ticket/{num}>", f"{proj} <https://trac.{org}.org/>",
            pick(rng, ("The project tracker", f"{proj} development", "Issue tracking"))]
    return "\n".join(out)


# --------------------------------------------------------------------------- style: whatsapp_export


def r_whatsapp(rng: random.Random, c: Ctx) -> str:
    clock = Clock(rng)
    a_first, a_last = person(rng)
    b_first = pick(rng, [n for n in FIRST_NAMES if n != a_first])
    b_last = pick(rng, LAST_NAMES)
    a = pick(rng, (f"{a_first} {a_last}", a_first, f"{a_first} {a_last[0]}."))
    b = pick(rng, (f"{b_first} {b_last}", b_first, f"+{rng.randint(1, 49)} {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}"))
    fmt = pick(rng, ("ios_eu", "ios_us", "android_eu", "android_us", "telegram"))
    lrm = "\u200e"
    nnbsp = "\u202f" if chance(rng, 0.6) else " "

    def stamp(t: dt.datetime) -> str:
        if fmt == "ios_eu":
            return f"[{t:%d/%m/%Y, %H:%M:%S}] "
        if fmt == "ios_us":
            h = t.hour % 12 or 12
            return f"[{t.month}/{t.day}/{t:%y}, {h}:{t:%M:%S}{nnbsp}{'AM' if t.hour < 12 else 'PM'}] "
        if fmt == "android_eu":
            return f"{t:%d/%m/%Y, %H:%M} - "
        h = t.hour % 12 or 12
        return f"{t.month}/{t.day}/{t:%y}, {h}:{t:%M}{nnbsp}{'AM' if t.hour < 12 else 'PM'} - "

    msgs: list[tuple[str, str]] = []

    def say(who: str, text: str) -> None:
        msgs.append((who, text))

    say(a, pick(rng, ("hey, got a sec?", "you around?", "quick one", "ugh", "help 🙏", "are you still at your desk?")))
    if chance(rng, 0.6):
        say(b, pick(rng, ("yep", "sure, what's up", "kind of, in a meeting in 10", "go", "👀")))
    say(a, pick(rng, (f"trying to {purpose(rng, c)} and it keeps failing", f"can't {purpose(rng, c)}, it errors",
                      f"{c.tool} is broken on my machine {when_phrase(rng)}", f"doing the {c.tool} thing you showed me, doesn't work")))
    shot = chance(rng, 0.35)
    if shot:
        if fmt.startswith("ios"):
            say(a, f"{lrm}image omitted")
        elif fmt.startswith("android"):
            say(a, "<Media omitted>")
        else:
            say(a, "[Photo]")
        say(b, pick(rng, ("can't read that, paste the text", "too blurry lol, copy paste it", "send the text pls")))
    mono = fmt != "telegram" and chance(rng, 0.5)
    split_cmd = chance(rng, 0.5)
    if split_cmd:
        say(a, pick(rng, (f"I run {c.cmd}", f"command is: {c.cmd}", f"```{c.cmd}```" if mono else f"ran `{c.cmd}`", f"$ {c.cmd}")))
        body = c.err
        say(a, f"```{body}```" if mono else body)
    else:
        body = f"$ {c.cmd}\n{c.err}"
        say(a, f"```{body}```" if mono else body)
    if chance(rng, 0.3):
        if fmt.startswith("ios"):
            say(a, f"{lrm}This message was deleted.")
        elif fmt.startswith("android"):
            say(a, "This message was deleted")
    say(b, pick(rng, ("hm. which machine is that?", "did it work yesterday?", "what did you change", "oof",
                      "let me look after lunch", "did you google it", "what does the version say?", "weird, works for me")))
    if chance(rng, 0.5):
        say(a, pick(rng, ("nothing changed afaik", "my laptop", "the server", "no idea tbh", "👍", "ok thx")))
    lines_out: list[str] = []
    if fmt.startswith("android"):
        t0 = clock.t
        lines_out.append(f"{stamp(t0)}Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, "
                         "can read or listen to them. Tap to learn more.")
    elif fmt.startswith("ios"):
        lines_out.append(f"{stamp(clock.t)}{a}: {lrm}Messages and calls are end-to-end encrypted. No one outside of this chat, "
                         "not even WhatsApp, can read or listen to them.")
    for who, text in msgs:
        t = clock.step(5, 240)
        if fmt == "telegram":
            lines_out.append(f"{who}, [{t:%d.%m.%Y %H:%M}]\n{text}\n")
        else:
            lines_out.append(f"{stamp(t)}{who}: {text}")
    return "\n".join(lines_out).rstrip("\n")


# --------------------------------------------------------------------------- driver

RENDER = {
    "azure_devops_log": r_azure,
    "buildkite_log": r_buildkite,
    "teamcity_messages": r_teamcity,
    "docker_json_log": r_docker,
    "airflow_task_log": r_airflow,
    "heroku_logs": r_heroku,
    "netlify_build": r_netlify,
    "cloudwatch_logs": r_cloudwatch,
    "gcp_logging_json": r_gcp,
    "splunk_events": r_splunk,
    "otel_span_events": r_otel,
    "kaggle_log": r_kaggle,
    "swebench_instance": r_swebench,
    "bbcode_forum": r_bbcode,
    "redmine_textile": r_redmine,
    "whatsapp_export": r_whatsapp,
}


def load_cases() -> list[Case]:
    files = sorted((BENCH / "help_cases").glob("*.toml"), key=lambda p: p.name)
    files += sorted((BENCH / "help_heldout").glob("set*.toml"), key=lambda p: p.name)
    cases: list[Case] = []
    for path in files:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for i, table in enumerate(data.get("case", [])):
            cases.append(Case(path.name, i, table.get("command"), table.get("error", "") or ""))
    return cases


def deal(n_cases: int) -> list[tuple[str, str]]:
    rng = random.Random(DEAL_SEED)
    stream: list[str] = []
    while len(stream) < 2 * n_cases:
        deck = list(STYLES)
        rng.shuffle(deck)
        stream.extend(deck)
    # Decks hold 16 (even) cards and pairs start at even offsets, so a pair never spans two decks
    # and its two styles always differ.
    return [(stream[2 * i], stream[2 * i + 1]) for i in range(n_cases)]


def main() -> None:
    assert set(RENDER) == set(STYLES)
    cases = load_cases()
    pairs = deal(len(cases))
    rows = []
    for case, pair in zip(cases, pairs, strict=True):
        assert pair[0] != pair[1]
        for slot, style in enumerate(pair):
            rng = random.Random(f"{ROW_SEED}|{case.file}|{case.index}|{slot}|{style}")
            ctx = make_ctx(case, rng)
            text = RENDER[style](rng, ctx)
            rows.append({"file": case.file, "case": case.index, "style": style, "text": text})
    with OUT_PATH.open("w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows for {len(cases)} cases to {OUT_PATH}")


if __name__ == "__main__":
    main()
