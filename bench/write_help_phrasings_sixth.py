"""Write bench/help_phrasings_sixth.jsonl: a sixth set of phrasings of the
held-out error cases.

Every ``[[case]]`` table of every ``bench/help_heldout/set*.toml`` file gets
two rows, each in a different style, picked by a seeded random generator that
keeps the style counts even.  One row is one JSON object:

    {"file": "set3.toml", "case": 0, "style": "<style>", "text": "<text>"}

``case`` is the 0-based index of the ``[[case]]`` table in that file and
``text`` is one observation of someone hitting that error (usually after that
command), worded, quoted, pasted or shown the way a particular kind of writer,
tool or recording would put it.  The eighteen styles are new kinds:

    ocr_screenshot, discord_message, irc_weechat, reddit_post,
    confluence_storage, gdoc_comments, buildkit_log, emacs_compilation,
    vim_quickfix, jetbrains_run, vscode_task, log_diff, yaml_record,
    desktop_notification, asciicast, python_repl_capture, code_comment,
    loki_explore

The writer was blind: it never read the code that reads these texts (the
assistant, watcher, app, eval, models, ui, tests, docs, README, CHANGELOG,
bench/help_quality.py), nor the other phrasing sets or the scripts that wrote
them, and it did not run the project's code.

Files read: bench/help_heldout/set*.toml (only each case's ``error`` and
``command``) and, for tone, a few ProactiveBench sessions under
/work/shared/data/proactivebench/sessions/.

Run from the repository root (stdlib only, deterministic):

    python3 bench/write_help_phrasings_sixth.py
"""

import datetime
import glob
import json
import os
import random
import re
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_GLOB = os.path.join(HERE, "help_heldout", "set*.toml")
OUT = os.path.join(HERE, "help_phrasings_sixth.jsonl")
SEED = 60606

STYLES = [
    "ocr_screenshot",
    "discord_message",
    "irc_weechat",
    "reddit_post",
    "confluence_storage",
    "gdoc_comments",
    "buildkit_log",
    "emacs_compilation",
    "vim_quickfix",
    "jetbrains_run",
    "vscode_task",
    "log_diff",
    "yaml_record",
    "desktop_notification",
    "asciicast",
    "python_repl_capture",
    "code_comment",
    "loki_explore",
]

PEOPLE = [
    ("Priya Raman", "priya"),
    ("Marco Bianchi", "marcob"),
    ("Lena Fischer", "lenaf"),
    ("Tomás Ortega", "tortega"),
    ("Aiko Tanaka", "aiko_t"),
    ("Sam Okafor", "samok"),
    ("Hannah Kim", "hkim"),
    ("Yusuf Demir", "ydemir"),
    ("Chloé Martin", "chloem"),
    ("Ravi Patel", "ravip"),
    ("Jonas Berg", "jberg"),
    ("Nadia Haddad", "nadiah"),
    ("Olu Adeyemi", "olu"),
    ("Grace Liu", "gliu"),
    ("Pavel Novak", "pnovak"),
    ("Sofia Rossi", "srossi"),
]

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

# --------------------------------------------------------------------------
# reading the cases


def load_cases():
    cases = []
    for path in sorted(glob.glob(SRC_GLOB), key=lambda p: int(re.sub(r"\D", "", os.path.basename(p)) or 0)):
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        for idx, case in enumerate(data.get("case", [])):
            cases.append((os.path.basename(path), idx, case.get("command") or "", case["error"]))
    return cases


def error_lines(error):
    lines = error.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return lines


# --------------------------------------------------------------------------
# small facts about a case (the kind of thing a writer sees on screen)

ERRISH = re.compile(
    r"(?i)(error|fatal|denied|not found|failed|failure|panic|cannot|can't|could not|couldn't|"
    r"unable|refused|invalid|no such|missing|conflict|forbidden|unknown|exception|rejected|"
    r"abort|timed? ?out|killed|not allowed|mismatch|unsupported|undefined|expected|masked|"
    r"no space|not a |does not exist|already in use|is not|incompatible)"
)
BORING = re.compile(
    r"(complete log of this run|^npm (error|ERR!) code |^(hint|note|help):|For more information|"
    r"Run '.*--help'|\[end of output\]|^Node\.js v|^compilation terminated|^\d+ errors?$|"
    r"^exit status|^\s+at |^Require stack|Traceback \(most recent call last\)|^\s*File \"|"
    r"^\[INFO\]|^\[ERROR\]\s*$|^\[ERROR\] -> \[Help|^\[ERROR\] Re-run|^\[ERROR\] To see|"
    r"^\[ERROR\] For more|^\[ERROR\] \[Help|^\s*[~^|]+\s*$|^\s*Compiling |could not compile `|"
    r"^warning:|Log files were not written|^\s*\d+ \|)"
)
STRONG = re.compile(
    r"(\b[A-Z]\w*(Error|Exception)\b|\berror(\[\w+\])?:|\bERROR\b|\bfatal( error)?:|\bFATAL\b|"
    r"^E: |\bpanic:|\[emerg\])"
)
PY_LAST = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Warning|Exit|Interrupt)\b|^[A-Za-z_][\w.]*: ")


def key_line(lines):
    """The line a person would pick if they only quoted one."""
    tb = any(x.startswith("Traceback") for x in lines) or any(x.startswith('  File "') for x in lines)
    if tb:
        for x in reversed(lines):
            if x and not x[0].isspace() and PY_LAST.match(x):
                return x
    for pattern in (STRONG, ERRISH):
        for x in lines:
            if x.strip() and not BORING.search(x) and pattern.search(x):
                return x
    for x in lines:
        if x.strip():
            return x
    return ""


def strip_prefix(text):
    for pre in ("npm error ", "npm ERR! ", "[ERROR] "):
        if text.startswith(pre):
            return text[len(pre) :]
    return text


def split_command(cmd):
    return [p.strip() for p in re.split(r"&&|;|\|", cmd) if p.strip()]


def main_segment(cmd):
    for seg in split_command(cmd):
        words = seg.split()
        while words and words[0] in ("sudo", "time", "env"):
            words = words[1:]
        if words and words[0] not in ("cd", "tar", "source", "export"):
            return " ".join(words)
    return cmd.strip()


FAMILY_OF = [
    ("python", ("python3", "python", "pip", "pip3", "pyhton3", "python3.12", "python3.11")),
    ("js", ("npm", "npx", "node", "yarn", "tsc", "pnpm")),
    ("rust", ("cargo", "rustup", "rustc")),
    ("go", ("go", "air")),
    ("java", ("javac", "java", "mvn", "./gradlew", "gradle", "./mvnw", "keytool")),
    ("c", ("gcc", "g++", "make", "cmake", "cc", "clang")),
    ("git", ("git", "gti")),
    ("docker", ("docker", "docker-compose")),
    ("k8s", ("kubectl", "helm")),
    ("db", ("psql", "mysql", "sqlite3", "pg_dump", "redis-cli")),
    ("ssh", ("ssh", "scp", "ssh-add", "ssh-copy-id", "rsync")),
    ("systemd", ("systemctl", "journalctl", "systemd-analyze")),
    ("ruby", ("ruby", "rails", "bin/rails", "bundle", "gem", "rbenv")),
    ("json", ("jq",)),
    ("net", ("curl", "openssl", "wget")),
    ("apt", ("apt", "apt-get", "dpkg")),
    ("web", ("nginx", "apache2ctl")),
]


def family(cmd):
    seg = main_segment(cmd)
    first = seg.split()[0] if seg.split() else ""
    for fam, names in FAMILY_OF:
        if first in names:
            return fam
    return "shell"


def is_interactive(cmd, error):
    first = main_segment(cmd).split()[0] if cmd.split() else ""
    if re.search(r"(?i)enter [\w ]*password", error):
        return True
    if first in ("ssh", "scp", "ssh-copy-id", "sftp"):
        return True
    return cmd.strip() == "psql" or (first == "mysql" and " -p" in cmd)


def shell_said(error):
    return bool(re.match(r"^(bash|zsh|sh|sudo): ", error.lstrip()))


def exit_code(cmd, error):
    first = main_segment(cmd).split()[0] if cmd.split() else ""
    low = error.lower()
    if re.search(r"^(bash|zsh|sudo): .*(command not found)", error, re.M):
        return 127
    if re.search(r"^bash: \./.*(Permission denied|bad interpreter|cannot execute)", error, re.M):
        return 126
    if first == "journalctl":
        return 0
    if first == "systemctl" and " status" in cmd:
        return 3
    if first in ("ssh", "scp", "ssh-copy-id"):
        return 255
    if first in ("git", "gti") and "fatal:" in low:
        return 128
    if first == "cargo" and "error: could not compile" in low:
        return 101
    if first == "make" or "make: ***" in error or "gmake: ***" in error:
        return 2
    m = re.search(r"^curl: \((\d+)\)", error, re.M)
    if m:
        return int(m.group(1))
    if first == "docker" and "Error response from daemon" in error and " run" in cmd:
        return 125
    return 1


SKIP_HOME = (
    "/.npm",
    "/.cargo",
    "/.kube",
    "/.ssh",
    "/go/",
    "/.rbenv",
    "/.m2",
    "/.gradle",
    "/.local",
    "/.config",
    "/.cache",
    "/.docker",
    "/.rustup",
    "/.venv",
    "/Downloads",
)


def who_and_where(cmd, error):
    text = error + "\n" + cmd
    m = re.search(r"/home/([a-z][\w-]*)/", text)
    user = m.group(1) if m else "dev"
    host = "laptop"
    hm = re.search(r"^[A-Z][a-z]{2} +\d+ [\d:]+ ([\w.-]+) ", error, re.M)
    if hm:
        host = hm.group(1)
    cwd = ""
    for pm in re.finditer(r"/home/" + re.escape(user) + r"((?:/[\w.@+-]+)+)", error):
        rest = pm.group(1)
        if any(s in rest + "/" for s in SKIP_HOME):
            continue
        parts = [p for p in rest.split("/") if p]
        if not parts or parts[0].startswith("."):
            continue
        if parts[0] in ("projects", "src", "code", "work") and len(parts) > 1:
            keep = parts[:2]
        else:
            keep = parts[:1]
        if "." in keep[-1] and len(keep) == len(parts):
            continue
        cwd = "/home/" + user + "/" + "/".join(keep)
        break
    if not cwd:
        cwd = "/home/" + user
    tilde = "~" + cwd[len("/home/" + user) :]
    return user, host, cwd, tilde


class Case:
    def __init__(self, fname, idx, cmd, error):
        self.file = fname
        self.idx = idx
        self.cmd = cmd.strip()
        self.error = error
        self.lines = error_lines(error)
        self.key = key_line(self.lines)
        self.fam = family(self.cmd)
        self.interactive = is_interactive(self.cmd, error)
        self.shell_said = shell_said(error)
        self.code = exit_code(self.cmd, error)
        self.user, self.host, self.cwd, self.tilde = who_and_where(self.cmd, error)
        first = (main_segment(self.cmd).split() or ["shell"])[0]
        self.proj = os.path.basename(self.cwd) if self.tilde != "~" else os.path.basename(first)

    def prompt(self):
        return self.user + "@" + self.host + ":" + self.tilde + "$ "


def eligible(case, style):
    if style == "buildkit_log":
        bad_first = (
            "docker",
            "kubectl",
            "helm",
            "systemctl",
            "journalctl",
            "ssh",
            "scp",
            "ssh-add",
            "ssh-copy-id",
            "systemd-analyze",
            "cd",
            "source",
        )
        first = case.cmd.split()[0] if case.cmd.split() else ""
        return not (
            first in bad_first
            or "sudo" in case.cmd.split()
            or case.interactive
            or case.shell_said
            or case.fam in ("docker", "k8s", "systemd", "ssh")
        )
    if style == "jetbrains_run":
        return not (case.interactive or case.shell_said or case.fam == "systemd")
    if style in ("emacs_compilation", "python_repl_capture", "vim_quickfix"):
        return not (case.interactive or case.shell_said)
    if style == "vscode_task":
        return not case.shell_said
    return True


# --------------------------------------------------------------------------
# helpers shared by the styles


def when(rng):
    day = datetime.date(2024, 1, 8) + datetime.timedelta(days=rng.randrange(0, 600))
    secs = rng.randrange(8 * 3600, 19 * 3600)
    return datetime.datetime(day.year, day.month, day.day) + datetime.timedelta(seconds=secs)


def hm12(moment):
    hour = moment.hour % 12 or 12
    return str(hour) + ":" + moment.strftime("%M") + (" AM" if moment.hour < 12 else " PM")


def ctime(moment):
    return (
        DAYS[moment.weekday()]
        + " "
        + MONTHS[moment.month - 1]
        + " "
        + str(moment.day).rjust(2)
        + " "
        + moment.strftime("%H:%M:%S")
    )


def quote(rng, text, kinds=("straight", "curly", "back", "none", "single")):
    kind = rng.choice(kinds)
    if kind == "straight":
        return '"' + text + '"'
    if kind == "curly":
        return "\u201c" + text + "\u201d"
    if kind == "back":
        return "`" + text + "`"
    if kind == "single":
        return "'" + text + "'"
    return text


def excerpt(rng, case, p_full):
    """Return the lines a writer keeps.  Most keep everything."""
    lines = case.lines
    nonblank = [x for x in lines if x.strip()]
    if len(nonblank) <= 1 or rng.random() < p_full:
        return list(lines), "full"
    mode = rng.choice(["key", "key", "first_last", "head", "tail"])
    if mode == "key" or len(nonblank) < 3:
        return [case.key], "key"
    if mode == "first_last":
        gap = rng.choice(["...", "[...]", "\u2026", "(snip)"])
        first = nonblank[0]
        last = nonblank[-1]
        if case.key not in (first, last) and rng.random() < 0.5:
            return [first, gap, case.key, gap, last], "first_last"
        return [first, gap, last], "first_last"
    if mode == "head":
        pos = lines.index(case.key) if case.key in lines else 0
        end = max(pos + 1, min(len(lines), rng.randint(2, 5)))
        return lines[:end], "head"
    count = rng.randint(2, 4)
    return nonblank[-count:], "tail"


def people(rng, count):
    return rng.sample(PEOPLE, count)


# --------------------------------------------------------------------------
# the styles


def s_ocr_screenshot(rng, case):
    moment = when(rng)
    title = case.user + "@" + case.host + ": " + case.tilde
    chrome_top = rng.choice(
        [
            "Activities    Terminal \u25be          "
            + DAYS[moment.weekday()]
            + " "
            + moment.strftime("%H:%M")
            + "          \u23fb  \U0001f50a  87 %",
            "Terminal  Shell  Edit  View  Window  Help",
            "\u25cf \u25cf \u25cf   " + title + " \u2014 bash \u2014 120\u00d732",
        ]
    )
    menu = rng.choice(
        ["File  Edit  View  Search  Terminal  Help", "File  Edit  View  Terminal  Tabs  Help", ""]
    )
    body = list(case.lines)
    rows_visible = rng.randint(18, 30)
    if len(body) > rows_visible:
        body = body[-rows_visible:]
        shown_cmd = None
    else:
        shown_cmd = case.prompt() + case.cmd
    out = []
    header = rng.choice(
        [
            "OCR text \u2014 Screenshot from " + moment.strftime("%Y-%m-%d %H-%M-%S") + ".png",
            "[Extracted text from image: Screenshot_" + moment.strftime("%Y%m%d_%H%M%S") + ".png]",
            "Text recognised in screenshot (" + moment.strftime("%d/%m/%Y %H:%M") + "):",
        ]
    )
    out.append(header)
    out.append(ocr_garble(rng, chrome_top))
    out.append(ocr_garble(rng, title))
    if menu:
        out.append(ocr_garble(rng, menu))
    if shown_cmd:
        out.append(ocr_garble(rng, case.prompt()) + case.cmd)
    out.extend(body)
    out.append(ocr_garble(rng, case.prompt()) + rng.choice(["\u2588", "|", "l", ""]))
    tail = rng.choice(["", "", "Ln 1, Col 1   100%   UTF-8", "\u2014 end of recognised text \u2014"])
    if tail:
        out.append(tail)
    return "\n".join(out)


OCR_SWAPS = [
    ("i", "l"),
    ("l", "1"),
    ("rn", "m"),
    ("m", "rn"),
    ("o", "0"),
    ("e", "c"),
    (":", ";"),
    ("~", "-"),
    ("$", "S"),
    ("@", "&"),
    ("W", "VV"),
    ("h", "b"),
]


def ocr_garble(rng, text):
    out = text
    for _ in range(rng.randint(1, 3)):
        src, dst = rng.choice(OCR_SWAPS)
        spots = [m.start() for m in re.finditer(re.escape(src), out)]
        if spots:
            pos = rng.choice(spots)
            out = out[:pos] + dst + out[pos + len(src) :]
    return out


DISCORD_CHAN = {
    "python": "help-python",
    "js": "javascript-help",
    "rust": "rust-questions",
    "go": "go-help",
    "java": "java",
    "c": "c-cpp-help",
    "git": "git-and-github",
    "docker": "docker",
    "k8s": "kubernetes",
    "db": "databases",
    "ssh": "linux-help",
    "systemd": "linux-help",
    "ruby": "ruby-on-rails",
    "json": "tools",
    "net": "networking",
    "apt": "linux-help",
    "web": "devops",
    "shell": "linux-help",
}


def s_discord_message(rng, case):
    moment = when(rng)
    asker, helper, other = people(rng, 3)
    keep, mode = excerpt(rng, case, 0.2)
    out = ["#" + DISCORD_CHAN[case.fam]]
    if rng.random() < 0.5:
        out.append(
            other[1] + " \u2014 Today at " + hm12(moment - datetime.timedelta(minutes=rng.randint(3, 20)))
        )
        out.append(
            rng.choice(
                [
                    "anyone going to the meetup thursday?",
                    "lol same",
                    "pinned the faq btw",
                    "gm",
                    "thx that worked",
                ]
            )
        )
    out.append(asker[1] + " \u2014 Today at " + hm12(moment))
    opener = rng.choice(
        [
            "hey, quick one",
            "can someone help",
            "ok I'm stuck",
            "help pls \U0001f62d",
            "been fighting this for an hour",
            "newbie question",
        ]
    )
    if mode == "key":
        out.append(opener + " \u2014 `" + case.cmd + "` gives me `" + case.key + "`")
    else:
        out.append(opener + ". ran `" + case.cmd + "` and got")
        block = "\n".join(keep)
        if len(block) > 1900:
            out.append("\U0001f4ce message.txt  " + format(len(block.encode("utf-8")) / 1024, ".2f") + " KB")
            out.append(block)
        else:
            out.append("```" + rng.choice(["", "", "bash", "sh", "console", "txt"]))
            out.append(block)
            out.append("```")
    out.append(
        rng.choice(
            [
                "||pls don't judge my setup||",
                "what am I missing?",
                "",
                "||it worked yesterday I swear||",
                "any ideas?",
            ]
        )
    )
    if rng.random() < 0.7:
        out.append(
            helper[1] + " \u2014 Today at " + hm12(moment + datetime.timedelta(minutes=rng.randint(1, 9)))
        )
        out.append(
            rng.choice(
                [
                    "looking",
                    "what OS?",
                    "can you paste the full output?",
                    "did you change anything since it last worked?",
                    "\U0001f440",
                ]
            )
        )
    return "\n".join(x for x in out if x)


def s_irc_weechat(rng, case):
    moment = when(rng)
    asker, helper, other = people(rng, 3)
    chan = {
        "python": "python",
        "js": "node.js",
        "rust": "rust-beginners",
        "go": "go-nuts",
        "java": "java",
        "c": "#c",
        "git": "git",
        "docker": "docker",
        "k8s": "kubernetes",
        "db": "postgresql",
        "ssh": "#linux",
        "systemd": "systemd",
        "ruby": "ruby",
        "json": "#linux",
        "net": "#networking",
        "apt": "ubuntu",
        "web": "nginx",
        "shell": "bash",
    }[case.fam]
    tick = [moment]

    def stamp(step=(1, 6)):
        tick[0] = tick[0] + datetime.timedelta(seconds=rng.randint(*step))
        return tick[0].strftime("%Y-%m-%d %H:%M:%S")

    nick = asker[1]
    out = []
    out.append(
        stamp()
        + "\t-->\t"
        + nick
        + " (~"
        + nick
        + "@"
        + rng.choice(["203.0.113.", "198.51.100."])
        + str(rng.randint(2, 250))
        + ") has joined #"
        + chan
    )
    if rng.random() < 0.5:
        out.append(
            stamp()
            + "\t"
            + other[1]
            + "\t"
            + rng.choice(["anyway, that's why I pin versions", "brb", "ack", "heh"])
        )
    out.append(
        stamp()
        + "\t"
        + nick
        + "\t"
        + rng.choice(["hi all, ", "hey, ", "", "evening. "])
        + quote(rng, case.cmd, ("back", "none", "straight"))
        + rng.choice([" fails for me:", " gives me this:", " -- output:", " and then:"])
    )
    nonblank = [x for x in case.lines if x.strip()]
    if len(nonblank) <= 4:
        for x in nonblank:
            out.append(stamp((0, 1)) + "\t" + nick + "\t" + x)
    else:
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(4))
        out.append(
            stamp()
            + "\t"
            + nick
            + "\t"
            + rng.choice(["https://bpa.st/", "https://dpaste.org/", "https://paste.debian.net/1"])
            + code
            + " ("
            + str(len(case.lines))
            + " lines)"
        )
        out.append(stamp() + "\t" + nick + "\t" + "the important bit is: " + case.key)
    out.append(
        stamp((20, 90))
        + "\t"
        + helper[1]
        + "\t"
        + nick
        + ": "
        + rng.choice(
            [
                "what did you expect it to do?",
                "which distro?",
                "is this a fresh setup?",
                "read the whole message, it tells you",
            ]
        )
    )
    return "\n".join(out)


SUBREDDITS = {
    "python": ["learnpython", "Python"],
    "js": ["node", "webdev", "learnjavascript"],
    "rust": ["learnrust", "rust"],
    "go": ["golang"],
    "java": ["javahelp"],
    "c": ["C_Programming", "cpp_questions"],
    "git": ["git"],
    "docker": ["docker"],
    "k8s": ["kubernetes"],
    "db": ["PostgreSQL", "mysql", "Database"],
    "ssh": ["linuxquestions"],
    "systemd": ["linuxadmin", "linuxquestions"],
    "ruby": ["rails", "ruby"],
    "json": ["commandline"],
    "net": ["linuxquestions", "sysadmin"],
    "apt": ["Ubuntu", "debian"],
    "web": ["nginx", "selfhosted"],
    "shell": ["bash", "linux4noobs"],
}


def s_reddit_post(rng, case):
    asker = people(rng, 1)[0]
    sub = rng.choice(SUBREDDITS[case.fam])
    keep, mode = excerpt(rng, case, 0.35)
    short = strip_prefix(case.key).strip()
    if len(short) > 80:
        short = short[:77].rstrip() + "..."
    title = rng.choice(
        [
            '"' + case.cmd.split()[0] + '" fails with ' + short,
            "Help: " + short,
            short + " \u2014 what am I doing wrong?",
            "Stuck on " + case.cmd + " (" + short + ")",
        ]
    )
    out = [
        "r/"
        + sub
        + " \u2022 Posted by u/"
        + asker[1]
        + str(rng.randint(1, 999))
        + " "
        + str(rng.randint(1, 11))
        + "h ago",
        title,
    ]
    if rng.random() < 0.5:
        out.append(rng.choice(["Help", "Solved?", "Question", "Beginner"]))
    out.append("")
    out.append(
        rng.choice(
            [
                "Hi all, I'm pretty new to this.",
                "Long time lurker, first post.",
                "Sorry if this is a dumb question.",
                "Been going in circles on this.",
            ]
        )
        + " When I run"
    )
    out.append("")
    out.append("    " + case.cmd)
    out.append("")
    out.append("I get " + ("this:" if mode != "key" else "this error:"))
    out.append("")
    for x in keep:
        out.append(("    " + x) if x else "")
    out.append("")
    out.append(
        rng.choice(
            [
                "I tried googling but most answers are from years ago. Any idea?",
                "Running it on Ubuntu, if that matters. Thanks in advance!",
                "What does this even mean? Thanks!",
                "Edit: formatting",
            ]
        )
    )
    out.append("")
    out.append(str(rng.randint(0, 40)) + " comments  Share  Save  Hide  Report")
    return "\n".join(out)


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def s_confluence_storage(rng, case):
    keep, mode = excerpt(rng, case, 0.25)
    body = "\n".join(keep).replace("]]>", "]]]]><![CDATA[>")
    title = rng.choice(
        [
            "Local setup \u2013 known problems",
            "Dev environment FAQ",
            "Onboarding: first week",
            "Troubleshooting (team " + case.proj + ")",
            case.proj + " \u2013 notes",
        ]
    )
    lang = rng.choice(["bash", "text", "none"])
    out = ["<h2>" + xml_escape(title) + "</h2>"]
    out.append(
        "<p>Running <code>"
        + xml_escape(case.cmd)
        + "</code> "
        + rng.choice(
            [
                "on a fresh checkout fails with the output below.",
                "stopped working for me today:",
                "gives this" + (" (just the relevant line)" if mode == "key" else "") + ":",
                "on my machine prints:",
            ]
        )
        + "</p>"
    )
    out.append(
        '<ac:structured-macro ac:name="code" ac:schema-version="1" ac:macro-id="'
        + "-".join(format(rng.getrandbits(bits), "0" + str(bits // 4) + "x") for bits in (32, 16, 16, 16, 48))
        + '"><ac:parameter ac:name="language">'
        + lang
        + "</ac:parameter>"
        + "<ac:plain-text-body><![CDATA["
        + body
        + "]]></ac:plain-text-body></ac:structured-macro>"
    )
    out.append(
        '<p>Status: <ac:structured-macro ac:name="status" ac:schema-version="1"><ac:parameter ac:name="colour">'
        + rng.choice(["Red", "Yellow"])
        + '</ac:parameter><ac:parameter ac:name="title">'
        + rng.choice(["OPEN", "INVESTIGATING", "NEEDS OWNER"])
        + "</ac:parameter></ac:structured-macro></p>"
    )
    if rng.random() < 0.5:
        who = people(rng, 1)[0]
        out.append(
            '<p><ac:link><ri:user ri:username="'
            + who[1]
            + '" /></ac:link> '
            + xml_escape(rng.choice(["can you take a look?", "is this the same as last sprint?", "fyi"]))
            + "</p>"
        )
    return "\n".join(out)


def s_gdoc_comments(rng, case):
    moment = when(rng)
    first, second = people(rng, 2)
    keep, mode = excerpt(rng, case, 0.2)
    doc = rng.choice(
        [
            "Dev environment setup",
            "New joiner checklist",
            "Release runbook (draft)",
            case.proj + " \u2013 how to run locally",
            "Workshop handout",
        ]
    )
    out = ["Google Docs \u00b7 " + doc, ""]
    out.append("Highlighted text: " + quote(rng, case.cmd, ("straight", "curly")))
    out.append("")
    out.append(first[0])
    day_label = rng.choice(["Today", "Yesterday", moment.strftime("%b %d")])
    out.append(hm12(moment) + " " + day_label)
    lead = rng.choice(
        [
            "This step doesn't work for me, I get",
            "Following this exactly and it fails:",
            "@" + second[0].split()[0] + " is this step still right? Output:",
            "Fails on my laptop \u2014",
        ]
    )
    if mode == "key":
        out.append(lead + " " + quote(rng, case.key, ("straight", "curly", "none")))
    else:
        out.append(lead)
        out.extend(keep)
    out.append("")
    if rng.random() < 0.75:
        out.append(second[0])
        out.append(hm12(moment + datetime.timedelta(minutes=rng.randint(4, 90))) + " " + day_label)
        out.append(
            rng.choice(
                [
                    "+1, same here.",
                    "Hmm, worked for me last month. Will check.",
                    "Assigned to you",
                    "Can you try on the VPN?",
                    "I'll update the doc.",
                ]
            )
        )
        out.append("")
    out.append(rng.choice(["Reply", "Reply or add others with @", "Resolve"]))
    return "\n".join(out)


BASE_IMAGE = {
    "python": "python:3.11-slim",
    "js": "node:20-bookworm",
    "rust": "rust:1.79",
    "go": "golang:1.22",
    "java": "eclipse-temurin:17-jdk",
    "c": "debian:bookworm",
    "git": "alpine/git:latest",
    "db": "debian:bookworm-slim",
    "ruby": "ruby:3.2",
    "json": "debian:bookworm-slim",
    "net": "debian:bookworm-slim",
    "apt": "ubuntu:22.04",
    "web": "nginx:1.25",
    "shell": "ubuntu:22.04",
}


def json_str(text):
    return json.dumps(text, ensure_ascii=False)[1:-1]


def s_buildkit_log(rng, case):
    image = BASE_IMAGE.get(case.fam, "ubuntu:22.04")
    workdir = case.cwd if case.tilde != "~" else "/app"
    digest = format(rng.getrandbits(256), "064x")
    proc = (
        'process "/bin/sh -c '
        + json_str(case.cmd)
        + '" did not complete successfully: exit code: '
        + str(case.code or 1)
    )
    clock = rng.uniform(0.15, 0.6)
    stamped = []
    for x in case.lines:
        clock += rng.choice([0.0, 0.001, 0.002, 0.004, 0.011, 0.03])
        stamped.append(format(clock, ".3f") + " " + x)
    tail = (
        ["------", " > [4/4] RUN " + case.cmd + ":"]
        + stamped[-10:]
        + [
            "------",
            "Dockerfile:8",
            "--------------------",
            "   6 |     COPY . .",
            "   7 |     ",
            "   8 | >>> RUN " + case.cmd,
            "   9 |     ",
            "--------------------",
            "ERROR: failed to solve: " + proc,
        ]
    )
    if rng.random() < 0.5:
        total = clock + rng.uniform(1.0, 9.0)
        width = rng.choice([80, 100, 120])
        steps = [
            ("[internal] load build definition from Dockerfile", "0.0s"),
            ("=> transferring dockerfile: " + str(rng.randint(180, 900)) + "B", "0.0s"),
            (
                "[internal] load metadata for docker.io/library/" + image,
                format(rng.uniform(0.4, 2.5), ".1f") + "s",
            ),
            ("[internal] load .dockerignore", "0.0s"),
            ("=> transferring context: 2B", "0.0s"),
            ("[1/4] FROM docker.io/library/" + image + "@sha256:" + digest[:12], "0.0s"),
            ("[internal] load build context", "0.0s"),
            ("CACHED [2/4] WORKDIR " + workdir, "0.0s"),
            ("[3/4] COPY . .", format(rng.uniform(0.0, 0.4), ".1f") + "s"),
            ("ERROR [4/4] RUN " + case.cmd, format(clock, ".1f") + "s"),
        ]
        out = ["[+] Building " + format(total, ".1f") + "s" + " (7/8) FINISHED" + " " * 10 + "docker:default"]
        for label, took in steps:
            line = " => " + label
            room = width - len(line) - len(took) - 1
            if room < 1:
                line = line[: width - len(took) - 5] + "..."
                room = 1
            out.append(line + " " * room + took)
        return "\n".join(out + tail)
    out = ['#0 building with "default" instance using docker driver', ""]
    out += [
        "#1 [internal] load build definition from Dockerfile",
        "#1 transferring dockerfile: " + str(rng.randint(180, 900)) + "B done",
        "#1 DONE 0.0s",
        "",
    ]
    out += [
        "#2 [internal] load metadata for docker.io/library/" + image,
        "#2 DONE " + format(rng.uniform(0.4, 2.5), ".1f") + "s",
        "",
    ]
    out += ["#3 [internal] load .dockerignore", "#3 transferring context: 2B done", "#3 DONE 0.0s", ""]
    out += ["#4 [1/4] FROM docker.io/library/" + image + "@sha256:" + digest, "#4 CACHED", ""]
    out += [
        "#5 [internal] load build context",
        "#5 transferring context: " + format(rng.uniform(1, 90), ".2f") + "kB" + " done",
        "#5 DONE 0.0s",
        "",
    ]
    out += ["#6 [2/4] WORKDIR " + workdir, "#6 CACHED", ""]
    out += ["#7 [3/4] COPY . .", "#7 DONE " + format(rng.uniform(0.0, 0.4), ".1f") + "s", ""]
    out.append("#8 [4/4] RUN " + case.cmd)
    out += ["#8 " + x for x in stamped]
    out.append("#8 ERROR: " + proc)
    return "\n".join(out + tail)


def s_emacs_compilation(rng, case):
    start = when(rng)
    dur = rng.uniform(0.05, 48.0)
    end = start + datetime.timedelta(seconds=int(dur))
    out = [
        '-*- mode: compilation; default-directory: "' + case.tilde + '/" -*-',
        "Compilation started at " + ctime(start),
        "",
        case.cmd,
    ]
    out += case.lines
    out.append("")
    if case.code == 0:
        out.append("Compilation finished at " + ctime(end) + ", duration " + format(dur, ".2f") + " s")
    else:
        out.append(
            "Compilation exited abnormally with code "
            + str(case.code)
            + " at "
            + ctime(end)
            + ", duration "
            + format(dur, ".2f")
            + " s"
        )
    if rng.random() < 0.4:
        out.append("")
        out.append(
            "-UU-:%*-  *compilation*   All ("
            + str(len(out))
            + ",0)     (Compilation:exit ["
            + str(case.code)
            + "])"
        )
    return "\n".join(out)


QF_GCC = re.compile(r"^([\w./@+-]+\.\w+):(\d+):(\d+):\s?(.*)$")
QF_GCC2 = re.compile(r"^([\w./@+-]+\.\w+):(\d+):\s?(.*)$")


def s_vim_quickfix(rng, case):
    tmp = (
        "/tmp/v"
        + "".join(
            rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(6)
        )
        + "/"
        + str(rng.randint(1, 9))
    )
    shown = "!" + case.cmd + "  2>&1| tee " + tmp
    if rng.random() < 0.5:
        out = [":make" if rng.random() < 0.5 else ":!" + case.cmd, "", shown]
        out += case.lines
        if case.code:
            out.append("")
            out.append("shell returned " + str(case.code))
        out.append("")
        out.append("Press ENTER or type command to continue")
        return "\n".join(out)
    out = []
    first_valid = None
    for x in case.lines:
        m = QF_GCC.match(x)
        m2 = QF_GCC2.match(x) if not m else None
        if m:
            out.append(m.group(1) + "|" + m.group(2) + " col " + m.group(3) + "| " + m.group(4))
        elif m2:
            out.append(m2.group(1) + "|" + m2.group(2) + "| " + m2.group(3))
        else:
            out.append("|| " + x)
        if (m or m2) and first_valid is None:
            first_valid = len(out)
    out.append("[Quickfix List] :" + shown + "    1,1  All")
    pos = first_valid or 1
    out.append(
        "(" + str(pos) + " of " + str(len(case.lines)) + "): " + out[pos - 1].split("| ", 1)[-1].strip()
    )
    return "\n".join(out)


def s_jetbrains_run(rng, case):
    seg = main_segment(case.cmd)
    words = seg.split()
    out = []
    ide_title = rng.choice(["Run:", "Run", "Run \u2013"])
    if (
        case.fam == "python"
        and words
        and words[0].startswith(("python", "pyhton"))
        and len(words) > 1
        and words[1].endswith(".py")
    ):
        name = os.path.splitext(os.path.basename(words[1]))[0]
        out.append(ide_title + " " + name + " \u00d7")
        interp = rng.choice(
            [case.cwd + "/.venv/bin/python", "/usr/bin/python3", case.cwd + "/venv/bin/python"]
        )
        out.append(
            interp
            + " "
            + case.cwd
            + "/"
            + words[1]
            + ("" if len(words) == 2 else " " + " ".join(words[2:]))
            + " "
        )
    elif words and words[0] == "npm":
        out.append(
            ide_title
            + " "
            + (words[2] if len(words) > 2 and words[1] == "run" else words[1] if len(words) > 1 else "npm")
            + " \u00d7"
        )
        out.append(
            "/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js "
            + " ".join(words[1:])
            + " --scripts-prepend-node-path=auto"
        )
    elif words and words[0] == "cargo":
        out.append(ide_title + " " + words[0] + " " + (words[1] if len(words) > 1 else "") + " \u00d7")
        out.append(
            case.cmd.replace("cargo", "/home/" + case.user + "/.cargo/bin/cargo", 1)
            + " --color=always --message-format=json-diagnostic-rendered-ansi"
        )
    elif words and words[0] == "go":
        out.append(ide_title + " go build " + case.proj + " \u00d7")
        out.append("GOROOT=/usr/local/go #gosetup")
        out.append("GOPATH=/home/" + case.user + "/go #gosetup")
        out.append("/usr/local/go/bin/" + case.cmd + " #gosetup")
    else:
        out.append(ide_title + " " + (words[0] if words else "command") + " \u00d7")
        out.append(case.cmd)
    out += case.lines
    out.append("")
    out.append("Process finished with exit code " + str(case.code))
    return "\n".join(out)


def s_vscode_task(rng, case):
    shell = rng.choice(["/usr/bin/bash", "/bin/bash", "/usr/bin/zsh"])
    out = [" *  Executing task: " + case.cmd + " ", ""]
    out += case.lines
    if case.code:
        out.append(
            ' *  The terminal process "'
            + shell
            + " '-c', '"
            + case.cmd
            + "'\" terminated with exit code: "
            + str(case.code)
            + ". "
        )
    out.append(" *  Terminal will be reused by tasks, press any key to close it. ")
    if rng.random() < 0.5:
        head = rng.choice(["TERMINAL", "PROBLEMS  OUTPUT  DEBUG CONSOLE  TERMINAL  PORTS"])
        out.insert(
            0,
            head
            + "          "
            + rng.choice(["\u2699 " + case.cmd.split()[0] + " - Task", "Task - " + case.cmd.split()[0]]),
        )
    return "\n".join(out)


OLD_OK = {
    "python": ["done."],
    "js": ["up to date, audited 214 packages in 2s"],
    "rust": ["    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.87s"],
    "go": ["ok"],
    "java": ["BUILD SUCCESS"],
    "c": ["build finished"],
    "git": ["Everything up-to-date"],
    "docker": ["started"],
    "k8s": ["configured"],
    "db": ["OK"],
    "ssh": ["connected"],
    "systemd": ["active (running)"],
    "ruby": ["ok"],
    "json": ["ok"],
    "net": ["200"],
    "apt": ["0 upgraded, 0 newly installed, 0 to remove and 3 not upgraded."],
    "web": ["syntax is ok"],
    "shell": ["ok"],
}


def s_log_diff(rng, case):
    moment = when(rng)
    before = moment - datetime.timedelta(hours=rng.randint(1, 30), minutes=rng.randint(0, 59))
    name = rng.choice(["run", case.proj, "session", "term"])
    old = name + "-" + before.strftime("%m%d-%H%M") + ".log"
    new = name + "-" + moment.strftime("%m%d-%H%M") + ".log"
    old_body = ["$ " + case.cmd] + OLD_OK[case.fam] + ["[exit 0]"]
    new_body = ["$ " + case.cmd] + case.lines + ["[exit " + str(case.code) + "]"]
    out = []
    if rng.random() < 0.5:
        out.append("$ diff -u " + old + " " + new)
        out.append("--- " + old + "\t" + before.strftime("%Y-%m-%d %H:%M:%S") + ".000000000 +0100")
        out.append("+++ " + new + "\t" + moment.strftime("%Y-%m-%d %H:%M:%S") + ".000000000 +0100")
    else:
        out.append("diff --git a/logs/" + old + " b/logs/" + new)
        out.append("--- a/logs/" + old)
        out.append("+++ b/logs/" + new)
    out.append("@@ -1," + str(len(old_body)) + " +1," + str(len(new_body)) + " @@")
    out.append(" " + old_body[0])
    out += ["-" + x for x in old_body[1:]]
    out += ["+" + x for x in new_body[1:]]
    return "\n".join(out)


def yaml_single(text):
    return "'" + text.replace("'", "''") + "'"


def s_yaml_record(rng, case):
    moment = when(rng)
    who = people(rng, 1)[0]
    keep, mode = excerpt(rng, case, 0.25)
    out = ["# reports/" + moment.strftime("%Y-%m-%d") + "-" + case.proj + ".yaml"]
    out.append("id: BUG-" + str(rng.randint(100, 4999)))
    out.append("reported_by: " + who[1])
    out.append("date: " + moment.strftime("%Y-%m-%d %H:%M"))
    out.append("component: " + case.proj)
    out.append("machine: " + case.host)
    if rng.random() < 0.85:
        out.append("command: " + yaml_single(case.cmd))
    out.append("summary: " + yaml_single(strip_prefix(case.key).strip()[:100]))
    indicator = "|2" if keep and keep[0][:1] == " " else "|"
    out.append("output: " + indicator)
    for x in keep:
        out.append(("  " + x) if x.strip() else "")
    if mode != "full":
        out.append("output_note: " + rng.choice(["trimmed", "only the relevant part", "full log attached"]))
    out.append(
        "expected: "
        + rng.choice(["command completes", "it works like on CI", "no error", "same result as yesterday"])
    )
    out.append("severity: " + rng.choice(["low", "medium", "high", "blocker"]))
    out.append("status: new")
    return "\n".join(out)


def shorten(text, limit):
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def s_desktop_notification(rng, case):
    moment = when(rng)
    nonblank = [x for x in case.lines if x.strip()]
    if len(nonblank) == 1:
        body = nonblank
    elif rng.random() < 0.5:
        body = [case.key]
    else:
        body = nonblank[-rng.randint(2, 3) :]
    body_text = shorten("\n".join(body), 260)
    secs = rng.randint(1, 400)
    kind = rng.choice(["gnome", "ntfy", "kde", "dunst"])
    if kind == "gnome":
        out = [
            "Notification \u00b7 Terminal \u00b7 " + moment.strftime("%H:%M"),
            "Command failed: " + shorten(case.cmd, 60) + " (exit " + str(case.code) + ", " + str(secs) + "s)",
            body_text,
        ]
    elif kind == "ntfy":
        out = [
            "ntfy \u00b7 " + rng.choice(["builds", "laptop", "jobs"]) + " \u00b7 " + hm12(moment),
            "\u2716 " + case.cmd.split()[0] + " failed on " + case.host,
            "$ " + shorten(case.cmd, 80),
            body_text,
        ]
    elif kind == "kde":
        out = [
            "Konsole \u2014 " + str(rng.randint(1, 9)) + " min ago",
            "Activity in session '" + case.tilde + " : bash'",
            body_text,
        ]
    else:
        out = [
            "dunst history [" + moment.strftime("%H:%M:%S") + "] urgency=critical",
            "summary: \u2717 " + shorten(case.cmd, 60) + " \u2014 " + str(secs) + "s",
            "body: " + body_text,
        ]
    return "\n".join(out)


def s_asciicast(rng, case):
    moment = when(rng)
    epoch = int((moment - datetime.datetime(1970, 1, 1)).total_seconds())
    header = {
        "version": 2,
        "width": rng.choice([80, 120, 158, 211]),
        "height": rng.choice([24, 32, 45]),
        "timestamp": epoch,
        "env": {"SHELL": "/bin/bash", "TERM": "xterm-256color"},
    }
    if rng.random() < 0.5:
        header["title"] = case.proj
    events = []
    clock = rng.uniform(0.2, 0.9)
    prompt = case.prompt()
    events.append([round(clock, 6), "o", prompt])
    pos = 0
    pasted = rng.random() < 0.4
    while pos < len(case.cmd):
        step = len(case.cmd) if pasted else rng.randint(1, 5)
        clock += rng.uniform(0.05, 0.35)
        events.append([round(clock, 6), "o", case.cmd[pos : pos + step]])
        pos += step
    clock += rng.uniform(0.3, 1.2)
    events.append([round(clock, 6), "o", "\r\n"])
    pos = 0
    while pos < len(case.lines):
        step = rng.randint(1, 6)
        clock += rng.uniform(0.001, 0.6)
        events.append([round(clock, 6), "o", "\r\n".join(case.lines[pos : pos + step]) + "\r\n"])
        pos += step
    clock += rng.uniform(0.01, 0.2)
    events.append([round(clock, 6), "o", prompt])
    out = [json.dumps(header, ensure_ascii=False)]
    out += [json.dumps(e, ensure_ascii=False) for e in events]
    return "\n".join(out)


def s_python_repl_capture(rng, case):
    out = [
        "Python 3.11."
        + str(rng.randint(2, 9))
        + " (main, "
        + rng.choice(["Mar 13 2023", "Feb  6 2024", "Aug  7 2024"])
        + ", 10:20:11) [GCC 12.2.0] on linux",
        'Type "help", "copyright", "credits" or "license" for more information.',
        ">>> import subprocess",
    ]
    call = "subprocess.run(" + repr(case.cmd) + ", shell=True, capture_output=True, text=True"
    if case.tilde != "~":
        call += ", cwd=" + repr(case.cwd)
    call += ")"
    var = rng.choice(["r", "res", "proc", "out"])
    out.append(">>> " + var + " = " + call)
    out.append(">>> " + var + ".returncode")
    out.append(str(case.code))
    text = "\n".join(case.lines) + "\n"
    if rng.random() < 0.55:
        out.append(">>> print(" + var + ".stderr)")
        out += case.lines
        out.append("")
    else:
        out.append(">>> " + var + ".stderr")
        out.append(repr(text))
    out.append(">>> ")
    return "\n".join(out)


def comment_target(case):
    seg = main_segment(case.cmd)
    words = seg.split()
    marker = "#"
    fname = "NOTES.sh"
    for w in words[1:]:
        if re.match(r"^[\w./-]+\.(py|js|mjs|ts|java|c|cpp|rs|go|rb|sql|yml|yaml|json|sh)$", w):
            fname = w
            break
    else:
        fname = {
            "rust": "src/main.rs",
            "go": "main.go",
            "java": "pom.xml",
            "c": "Makefile",
            "docker": "compose.yaml",
            "k8s": "deploy/README.sh",
            "db": "schema.sql",
            "js": "package.json",
            "ruby": "Gemfile",
            "systemd": "deploy/setup.sh",
            "ssh": "deploy/setup.sh",
            "git": "scripts/release.sh",
        }.get(case.fam, "scripts/setup.sh")
    ext = os.path.splitext(fname)[1]
    if ext in (".js", ".mjs", ".ts", ".java", ".c", ".cpp", ".rs", ".go"):
        marker = "//"
    elif ext == ".sql":
        marker = "--"
    elif ext == ".xml":
        marker = "xml"
    elif ext == ".json":
        marker = "json"
    return fname, marker


def s_code_comment(rng, case):
    moment = when(rng)
    who = people(rng, 1)[0]
    keep, mode = excerpt(rng, case, 0.2)
    fname, marker = comment_target(case)
    tag = rng.choice(["FIXME", "TODO", "XXX", "NOTE"])
    head = tag + "(" + who[1] + ", " + moment.strftime("%Y-%m-%d") + "): "
    if mode == "key":
        head += (
            quote(rng, case.cmd, ("back", "none", "straight"))
            + " fails with "
            + quote(rng, case.key, ("straight", "none", "back"))
        )
        inner = [head]
    else:
        head += quote(rng, case.cmd, ("back", "none", "straight")) + rng.choice(
            [" dies with:", " fails on my machine:", " currently prints:"]
        )
        inner = [head] + [("  " + x) if x.strip() else "" for x in keep]
    inner.append(
        rng.choice(
            [
                "works on CI, not locally",
                "look into this before the release",
                "",
                "ask in #dev if anyone knows",
                "don't merge until fixed",
            ]
        )
    )
    if marker == "xml":
        body = ["<!--"] + ["  " + x if x else "" for x in inner if x != ""] + ["-->"]
    elif marker == "json":
        body = ['  "//": ' + json.dumps("\n".join(x for x in inner if x != ""), ensure_ascii=False) + ","]
    else:
        body = [(marker + " " + x).rstrip() if x else marker for x in inner]
        while body and body[-1] == marker:
            body.pop()
    where = rng.choice(
        [fname + ", line " + str(rng.randint(1, 140)) + ":", "\u2500\u2500 " + fname + " \u2500\u2500", fname]
    )
    return "\n".join([where] + body)


def s_loki_explore(rng, case):
    moment = when(rng)
    query = rng.choice(
        [
            '{job="termlog", host="' + case.host + '"}',
            '{job="shell", user="' + case.user + '"}',
            '{host="' + case.host + '", source="pty"}',
        ]
    )
    wanted = None
    if rng.random() < 0.45 and len([x for x in case.lines if re.search("(?i)error", x)]) >= 1:
        wanted = re.compile("(?i)error")
        query += ' |~ "(?i)error"'
    rows = []
    clock = moment
    if wanted is None:
        rows.append((clock, "$ " + case.cmd))
    for x in case.lines:
        if not x.strip() or (wanted is not None and not wanted.search(x)):
            continue
        clock = clock + datetime.timedelta(milliseconds=rng.choice([0, 0, 1, 2, 5, 40]))
        rows.append((clock, x))
    out = [
        "Explore \u203a "
        + rng.choice(["Loki", "loki-local", "Logs (Loki)"])
        + "   "
        + rng.choice(["Last 15 minutes", "Last 1 hour", "Today so far"]),
        query,
        "Logs \u00b7 " + str(len(rows)) + " lines \u00b7 Newest first",
    ]
    for stamp, line in reversed(rows):
        out.append(
            stamp.strftime("%Y-%m-%d %H:%M:%S.") + format(stamp.microsecond // 1000, "03d") + "\t" + line
        )
    return "\n".join(out)


RENDER = {name: globals()["s_" + name] for name in STYLES}


# --------------------------------------------------------------------------


def assign(cases):
    rng = random.Random(SEED)
    counts = {s: 0 for s in STYLES}
    order = list(range(len(cases)))
    rng.shuffle(order)
    # cases with fewer eligible styles first, so the spread stays even
    order.sort(key=lambda i: sum(1 for s in STYLES if eligible(cases[i], s)))
    chosen = {}
    for i in order:
        picks = []
        for _ in range(2):
            pool = [s for s in STYLES if eligible(cases[i], s) and s not in picks]
            low = min(counts[s] for s in pool)
            pick = rng.choice([s for s in pool if counts[s] == low])
            counts[pick] += 1
            picks.append(pick)
        chosen[i] = picks
    return chosen


def main():
    cases = [Case(*c) for c in load_cases()]
    chosen = assign(cases)
    rows = []
    for i, case in enumerate(cases):
        for style in chosen[i]:
            rng = random.Random(case.file + ":" + str(case.idx) + ":" + style + ":" + str(SEED))
            text = RENDER[style](rng, case)
            rows.append({"file": case.file, "case": case.idx, "style": style, "text": text})
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print("wrote", len(rows), "rows to", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
