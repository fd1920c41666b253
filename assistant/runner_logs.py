"""What a build service or a scheduler writes around a command's output in its log, taken off so the lines read as
the program printed them: the time before each line, TeamCity's service messages, MSBuild's relay, an editor's
build footer, an R console's call.

The time before each line:
A build service, a scheduler or a platform's log puts its own clock before every line of a command's output:
Netlify's '4:22:06 PM: ', Cloudflare's '20:15:33.908<tab>', Vercel's '[14:43:43.052] ', Airflow's '[2024-05-01,
12:00:00 UTC] ', Heroku's '2024-05-01T12:00:00.000000+00:00 '. No list of services can be complete, so what
marks a log's stamp here is its form: a time (with seconds, or a date before it) at the start of two lines or more,
written the same way on each of them (the digits aside). A program's own output rarely starts two lines with
the same clock; a chat's or a video's times, with a speaker or without seconds, are read elsewhere
(`grounding.CHAT_PREFIX`, `grounding.VIDEO_TIME`)."""

from __future__ import annotations

import ast
import re
import shlex

from proactive.watcher.privacy.echo_programs import SHELLS

from .quotes import PROGRAMS, program_of

#: a stamp at a line's start: an optional date, a time, a 12-hour mark, a zone, in brackets or not, then what
#: separates it from the line (a colon, a tab, a space, a dash or a bar between spaces, a CSV's comma)
STAMP = re.compile(r"^(?:\[[A-Z][\w.-]*\] )?(?P<stamp>(?P<open>[\[(])?"
                   r"(?P<date>(?:\d{4}[-/.]\d\d[-/.]\d\d|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|[A-Z][a-z]{2} +\d{1,2}(?:,? \d{4})?)(?:,? |T))?"
                   r"(?P<time>\d{1,2}:\d\d(?P<seconds>:\d\d)?(?:[.,]\d{1,9})?)"
                   r"(?: ?[AaPp]\.?[Mm]\.?)?(?:Z|[ ]?[+-]\d\d:?\d\d|[ ](?:UTC|GMT))?(?(open)[\])]))"
                   # a line's kind after it (TeamCity's ']W:', ']E:'), then what separates it from the line (a
                   # colon, a tab, a space, a dash or a bar between spaces)
                   r"(?:[A-Za-z](?=:))?(?P<sep>[ \t]*:[ \t]+|:$|[ \t]+[-|][ \t]+|\t[ \t]*|[ ]+|,|$)", re.M)
#: a logger's level and the dash after it, before each line it records ('INFO - ', Airflow's '{subprocess.py:93}
#: INFO - '): the logger's words, not the program's
LEVEL = re.compile(r"(?:\{[\w.-]+:\d+\} )?[A-Z]+ - ")


def _shape(stamp: str) -> str:
    """How a stamp is written, its digits and its half of the day aside: '4:22:06 PM: ' and '11:12:21 AM: '
    are one log's."""
    return re.sub(r"[AaPp](?=\.?[Mm])", "p", re.sub(r"\d+", "0", stamp))


#: what a log view puts before a line's stamp to name the stream it came from: columns ended by tabs (`gh run
#: view --log`'s job and step), a name in brackets (`kubectl logs --prefix`'s '[pod/web-7d9c/app] '), or one or
#: two names (stern's 'web-7d9c app ')
HEAD = re.compile(r"^(?:(?:[^\t\n]{1,100}\t){1,3}|\[[^\]\n]{1,120}\][ \t]|(?:[\w.@-]+ ){1,2})(?=\[?\d)")
#: stern's own lines: a container it follows ('+ web-7d9c › app') and one that ended ('- web-7d9c › app')
STERN_LINE = re.compile(r"^[+-] [\w.-]+ › [\w.-]+$")


def uncolumned(text: str) -> str:
    """`text` without what a log view puts before the stamps of its lines (see `_streams`): read before a
    table's rows are (`records`), since its columns are no table's."""
    if "\n" not in text or ":" not in text:
        return text
    return "\n".join(_streams(text.split("\n")))


def _streams(lines: list[str]) -> list[str]:
    """`lines` as each stream printed them: a log view that merges streams (a pod's containers, a run's jobs and
    steps) names each line's stream before its stamp, the same way on two lines or more. Each stream's lines are
    put together without the name (a sidecar proxy's lines no longer cut a traceback), the streams in the order
    they ended (the program that failed last). A line that starts with a stamp has no stream's name before it
    (a system log's date); a line with none after a stream's is that stream's."""
    heads = []
    for ln in lines:
        m = HEAD.match(ln) if not STAMP.match(ln) else None
        stamp = STAMP.match(ln[m.end():]) if m else None
        # (a table's columns go on after the stamp: Console.app's level, time, process, message)
        heads.append(m[0] if m and stamp and stamp["seconds"] and not ("\t" in m[0] and "\t" in stamp["sep"]) else "")
    counts: dict[str, int] = {}
    for head in heads:
        if head:
            counts[head] = counts.get(head, 0) + 1
    # a stream's name is a machine's (a pod's 'web-7d9c', a path), never a person's ('Ana 10:02:11 …' is a chat)
    named = {h for h, n in counts.items() if n >= 2 and ("\t" in h or h[0] == "[" or re.search(r"[\d/._@-]", h))}
    if not named:
        return lines
    if any("\t" in h for h in named):  # a run's jobs and steps in columns: one program's run each, in order
        return [ln[len(head):] if head in named else ln for ln, head in zip(lines, heads, strict=True)]
    before: list[str] = []
    streams: dict[str, list[str]] = {}
    ended: dict[str, int] = {}
    current = ""
    for i, (ln, head) in enumerate(zip(lines, heads, strict=True)):
        if STERN_LINE.match(ln):
            continue  # stern's own line
        if head in named:
            current = head
            streams.setdefault(head, []).append(ln[len(head):])
            ended[head] = i
        elif current:
            streams[current].append(ln)
        else:
            before.append(ln)
    return before + [ln for head in sorted(streams, key=lambda h: ended[h]) for ln in streams[head]]


def unstamped(text: str) -> str:
    """`text` without the stamp its lines start with, when two lines or more start with one written the same way
    and it has seconds or a date (the most common way, where lines differ), in the order they were written (a
    log view that lists the newest first: its stamps go back); and without what each such line has after its
    stamp that no program printed: a logger's level ('INFO - '), the stream's name on every line ('ecs/web/1a10…'),
    a CSV cell's quotes, a log view's columns before it. Other lines (a header above the log) are kept as they
    are."""
    lines = _streams(text.split("\n"))
    found = {i: m for i, ln in enumerate(lines) if (m := STAMP.match(ln)) and (m["seconds"] or m["date"])}
    shapes: dict[str, int] = {}
    for m in found.values():
        shapes[_shape(m["stamp"])] = shapes.get(_shape(m["stamp"]), 0) + 1
    if not shapes or max(shapes.values()) < 2:
        return text
    common = max(shapes, key=lambda shape: shapes[shape])
    rows = [i for i, m in found.items() if _shape(m["stamp"]) == common]
    rests = [lines[i][found[i].end():] for i in rows]
    if sum(LEVEL.match(r) is not None for r in rests) >= 2:  # a logger's level on its lines
        rests = [r[m.end():] if (m := LEVEL.match(r)) else r for r in rests]
    if found[rows[0]]["sep"] == "," and sum(r.startswith('"') for r in rests):  # a CSV export's quoted cells
        rests = [r[1:-1].replace('""', '"') if len(r) > 1 and r[0] == r[-1] == '"' else r for r in rests]
    speakers = [m for r in rests if (m := SPEAKER.match(r))]
    names = {m["name"] or m["nick"] for m in speakers}
    if len(names) >= 3 and len(speakers) * 2 >= len(rests) and not any(_said_by_a_program(n) for n in names):
        # a chat's messages (a stream's chat log: '[13:08:44 UTC] [Moderator] ana: …'): its speakers' names go too,
        # as a chat's time and speaker do (`grounding.CHAT_PREFIX`)
        rests = [r[m.end():] if (m := SPEAKER.match(r)) else r for r in rests]
    source = {r.split(None, 1)[0] if r.strip() else "" for r in rests if not r[:1].isspace()}
    if len(source) == 1 and SOURCE_NAME.fullmatch(name := source.pop()):  # the log stream's name on each line
        rests = [r[len(name) + 1:] if r.startswith(name + " ") else r for r in rests]
    stamps = [found[i]["stamp"] for i in rows]
    if all(a >= b for a, b in zip(stamps, stamps[1:], strict=False)) and stamps[0] > stamps[-1] \
            and "M" not in common.upper().replace("0", ""):  # newest first (a 12-hour clock's order is not the text's)
        rests.reverse()
    for i, rest in zip(rows, rests, strict=True):
        lines[i] = rest
    return "\n".join(lines)


#: a chat's speaker after a message's time: badges in brackets, then a nickname and a colon, or one in angle
#: brackets ('[Moderator] night_bogdan: ', '<ana> ')
SPEAKER = re.compile(r"(?:\[[^\]\n]{1,20}\] )*(?:<(?P<nick>[^>\n]{1,40})> |(?P<name>[\w.@-]{2,40}): )")
#: a word before a colon that is a log's or a program's, not a person's name ('Failed: …', 'Success: …')
STATUS_WORD = re.compile(r"(?i:error|errors|failed|failure|fail|success|succeeded|ok|warning|warn|note|notice|info|"
                         r"debug|hint|fatal|caused by|done|status|result|output|stderr|stdout)")


def _said_by_a_program(name: str) -> bool:
    """Whether a line's name before a colon is a program's or a log's word ('zsh: …', 'Failed: …'), no speaker's."""
    return bool(STATUS_WORD.fullmatch(name)) or name in PROGRAMS or name in SHELLS


#: a log stream's name a log view puts on each of its lines (CloudWatch's 'ecs/web/1a10b297…', a pod's
#: 'pod/web-7d9c/app'): a path of names, or a long name with digits; never a program's own first word ('npm',
#: 'ERROR:')
SOURCE_NAME = re.compile(r"[\w.-]+(?:/[\w.-]+)+|[\w.-]*\d[\w.-]*-[\w.-]{12,}")


#: a TeamCity service message on a line of its own ("##teamcity[message text='…' errorDetails='…']")
SERVICE_MESSAGE = re.compile(r"^[ \t]*##teamcity\[(?P<kind>\w+)(?: '(?P<value>(?:\|.|[^'|])*)'|"
                             r"(?P<attrs>(?: [\w.]+='(?:\|.|[^'|])*')*)) ?\]?[ \t]*$", re.M)
SERVICE_ATTR = re.compile(r"([\w.]+)='((?:\|.|[^'|])*)'")
#: TeamCity's escapes in a value ('|n' a line break, "|'" a quote, '||' a bar)
SERVICE_ESCAPE = {"n": "\n", "r": "", "'": "'", "|": "|", "[": "[", "]": "]"}
#: the values that hold what the program printed: a message's text and details, a problem's description
SERVICE_TEXT = ("text", "errorDetails", "description")


def _service_text(m: re.Match[str]) -> str:
    """A service message as the lines it carries: a message's or a problem's words (each value unescaped, on
    lines of its own), a progress message's; nothing for the others (blocks opened and closed, the build's
    status)."""
    if m["kind"] == "progressMessage" and m["value"]:
        return _unescaped(m["value"])  # 'Running gti status': what the step is doing
    if m["kind"] not in ("message", "buildProblem"):
        return ""
    values = dict(SERVICE_ATTR.findall(m["attrs"] or ""))
    return "\n".join(_unescaped(values[key]) for key in SERVICE_TEXT if values.get(key))


def _unescaped(value: str) -> str:
    """A service message's value with TeamCity's escapes read ('|n', "|'", '|0x00e9')."""
    return re.sub(r"\|(0x[0-9a-fA-F]{4}|.)", lambda e: chr(int(e[1][2:], 16)) if len(e[1]) > 1
                  else SERVICE_ESCAPE.get(e[1], e[1]), value)


def service_messages(text: str) -> str:
    """`text` with TeamCity's service messages read as the lines they carry (a step's output in a message's
    `errorDetails`, escaped with '|'); the rest as it is."""
    return SERVICE_MESSAGE.sub(_service_text, text)


#: MSBuild's words in a build's output: where its Exec task or a build step relays a command's lines
MSBUILD = re.compile(r"error MSB\d{4}:|^(?:\d{1,3}>)?-{3,} (?:Re)?[Bb]uild started|^EXEC ?(?:\(\d+(?:,\d+)?\))? ?: ",
                     re.M)
#: a multi-process build's node number before each line ('1>')
NODE = re.compile(r"^\d{1,3}>", re.M)
#: the Exec task's mark on a relayed line it read as an error or a warning ('EXEC : error : ')
EXEC_MARK = re.compile(r"^[ \t]*EXEC ?(?:\(\d+(?:,\d+)?\))? ?: (?:error|warning)(?: [A-Z]+\d+)? ?: ?", re.M)
#: the project MSBuild adds after a relayed line on the command line ('… [/home/dev/notes/Notes.proj]')
PROJECT_TAIL = re.compile(r" \[[^\]\n]*\.\w*proj\]$", re.M)
#: MSBuild's own lines: a project's start, its output file, its end, the summary, the restore, the time
MSBUILD_OWN = re.compile(r"^[ \t]*(?:-{3,} (?:Re)?[Bb]uild started.*|Build started at .*|={3,}.*|\S+ -> \S.*|"
                         r"Done building (?:target|project) .*|Build (?:FAILED|succeeded)\.|Time Elapsed .*|"
                         r"\d+ (?:Warning|Error)\(s\)|Microsoft \(R\) Build Engine .*|MSBuild version .*|"
                         r"Determining projects to restore\.\.\.|All projects are up-to-date for restore\.|"
                         r"Restored \S+.*|[\w.-]+\.(?:cpp|cc|c|cxx)|\S+\(\d+,\d+\): (?:error|warning) MSB\d{4}: .*)$")
#: the Exec task's verdict: the command it ran (a Visual C++ build step's whole batch file) and its exit code
MSB_VERDICT = re.compile(r"^(?P<head>[^\n]*?\(\d+,\d+\): error MSB3073: )The command \"(?P<command>.*?)\" exited "
                         r"with code -?\d+\.?", re.M | re.S)
#: a Visual C++ build step's batch lines around its command ('setlocal', 'if %errorlevel% neq 0 goto :cmEnd')
BATCH_PLUMBING = re.compile(r"(?i)^(?:setlocal|endlocal\b.*|if %errorlevel%.*|:\w+|exit /b.*|call :.*|@echo off|)$")


def msbuild_relayed(text: str) -> str:
    """A build's output where MSBuild ran the command (an `Exec` task, a Visual C++ build step) as the terminal
    shows it: the command from MSBuild's verdict (`error MSB3073: The command "…" exited with code 1`; of a
    build step's batch file, the line that is not the batch's) as a prompt's line, then the lines it relayed,
    without a build node's number, the Exec task's 'EXEC : error : ' mark, the project after each line, the
    indentation MSBuild adds, and MSBuild's own lines (the summary after 'Build FAILED.' repeats the errors)."""
    if not MSBUILD.search(text):
        return text
    if len(NODE.findall(text)) >= 2:
        text = NODE.sub("", text)
    text = PROJECT_TAIL.sub("", text)
    command = None
    if (verdict := MSB_VERDICT.search(text)) is not None:
        lines = [ln.removeprefix(verdict["head"]).strip() for ln in verdict["command"].split("\n")]
        ran = [ln for ln in lines if not BATCH_PLUMBING.match(ln)]
        command = ran[0] if len(ran) == 1 else None
        text = text[:verdict.start()] + text[verdict.end():]
    kept = []
    for line in text.split("\n"):
        if re.match(r"^[ \t]*Build FAILED\.", line):
            break  # the summary: the errors again
        if not MSBUILD_OWN.match(line):
            kept.append(line)
    while kept and not kept[0].strip():
        kept.pop(0)
    # the indentation MSBuild adds to the lines it relays as they were (not to those it marks)
    margin = min((len(ln) - len(ln.lstrip(" ")) for ln in kept if ln.strip() and not EXEC_MARK.match(ln)), default=0)
    body = "\n".join(EXEC_MARK.sub("", ln) if EXEC_MARK.match(ln) else ln[margin:] for ln in kept).strip("\n")
    return f"$ {command}\n{body}" if command else body


def argv_line(argv: str) -> str:
    """A command's argument list as the line a shell runs: a shell's `-c` line itself, else the words joined."""
    try:
        words = ast.literal_eval(argv)
    except (ValueError, SyntaxError):
        return argv
    if not isinstance(words, list | tuple):
        return argv
    if len(words) == 3 and program_of(str(words[0])) in SHELLS and words[1] == "-c":
        return str(words[2])
    return shlex.join(str(w) for w in words)


#: an editor's footer under a build's output (Sublime Text's): its time and exit code, then the command it ran,
#: its folder and its PATH, each in brackets on a line of its own
FINISHED = re.compile(r"^\[Finished in [\d.]+m?s(?: with exit code -?\d+)?\][ \t]*$", re.M)
FOOTER_LINE = re.compile(r"^\[(?:(?P<key>shell_cmd|cmd): (?P<command>.*)|dir: .*|path: .*)\][ \t]*$")


def build_footer(text: str) -> str:
    """A build's output with the editor's footer under it as the terminal shows it: the command the footer names
    (`shell_cmd` as written, `cmd` as its argument list) as a prompt's line above the output, which starts after
    a fence or a blank line's prose above it, and the footer's lines left out."""
    lines = text.split("\n")
    for i in reversed([i for i, ln in enumerate(lines) if FINISHED.match(ln)]):
        end = i + 1
        command = None
        while end < len(lines) and (m := FOOTER_LINE.match(lines[end])):
            if m["command"]:
                command = m["command"] if m["key"] == "shell_cmd" else argv_line(m["command"])
            end += 1
        start = i
        while start > 0 and not re.match(r"[ \t]*(?:```|~~~)[\w+-]*[ \t]*$", lines[start - 1]) \
                and not (not lines[start - 1].strip() and start > 1 and lines[start - 2].rstrip().endswith(":")
                         and len(lines[start - 2].split()) >= 3):
            start -= 1  # up to a fence or to the blank line under the words leading up to it ('… prints:')
        head = [f"$ {command}"] if command else []
        lines[start:end] = head + lines[start:i]
    return "\n".join(lines)


#: an R console's call that runs a command: `system("…")`, `system2("prog", c("a", "b"))`,
#: `processx::run("prog", c("a", "b"))`, after its prompt and maybe an assignment
R_CALL = re.compile(r"^> (?:\w+ <- )?(?P<call>system|system2|(?:processx::)?run)\((?P<args>.*)\)[ \t]*$", re.M)
R_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
#: processx's mark before each line the command printed on its error stream ('E> ') or output ('O> ')
R_STREAM = re.compile(r"^[EO]> ?", re.M)


def _r_command(call: str, args: str) -> str | None:
    """The command line of an R call that runs one: `system`'s string, or a program and the strings of the vector
    after it (`system2`, `processx::run`); None when its arguments are not written out."""
    strings = [s.encode().decode("unicode_escape") if "\\" in s else s for s in R_STRING.findall(args)]
    if not strings:
        return None
    if call == "system":
        return strings[0]
    vector = re.match(r'\s*"(?:[^"\\]|\\.)*"\s*,\s*(?:args\s*=\s*)?(?:c\((?P<inner>[^()]*)\)|(?P<one>"(?:[^"\\]|\\.)*"))',
                      args)
    words = R_STRING.findall(vector["inner"] or vector["one"]) if vector else []
    return shlex.join([strings[0], *words])


def r_console(text: str) -> str:
    """An R console where a command was run (`system("make")`, `processx::run("npm", c("run", "build"))`) as a
    terminal shows it: the command as a prompt's line, and what it printed without processx's 'E> ' marks."""
    if not R_CALL.search(text):
        return text
    text = R_STREAM.sub("", text)
    return R_CALL.sub(lambda m: f"$ {c}" if (c := _r_command(m["call"], m["args"])) else m[0], text)


#: a session recorder's line labelled by its stream: what was typed ('KEY', 'keys:', '>' after a time) or printed
#: ('OUT', 'ERR', 'tty:', '<' after a time), its time before or after the label ('2025-08-25 08:56:18+0000 KEY …',
#: 'KEYS  18:25:49  …', '13:18:35 > …')
RECORDED = re.compile(r"^(?P<before>\[?\d[\d:./TZ+ -]{4,30}\]?[ \t]+)?(?:(?P<kind>KEYS?|TYPED|INPUT|IN|OUT|STDOUT|ERR|"
                      r"STDERR)\b(?::[ \t]?|[ \t]+)|(?P<label>keys?|typed|input|tty|out|output|stdout|stderr):[ \t]?|"
                      r"(?<=[\d\]][ \t])(?P<arrow>[<>])(?:[ \t]|$))"
                      r"(?P<after>\[?\d{1,2}:\d\d(?::\d\d)?(?:\.\d+)?\]?[ \t]+)?(?P<rest>.*)$", re.M)
TYPED_KINDS = frozenset({"key", "keys", "typed", "input", "in", ">"})


def _kind(m: re.Match[str]) -> str:
    return (m["kind"] or m["label"] or m["arrow"]).lower()


#: a terminal's bracketed-paste markers in caret notation, and the keys a logger writes in brackets
PASTE_MARK = re.compile(r"\^\[\[20[01]~|\x1b\[20[01]~")
KEY_NAME = re.compile(r"<(?:Enter|Return|CR|RET)>|⏎|\[Enter\]", re.I)


def recorded_streams(text: str) -> str:
    """A keystroke logger's record of a session (its typed lines and the terminal's reply, each line labelled by
    its stream and time) as the terminal showed it: a typed line after a prompt's `$ ` (paste markers and the
    Enter key off), a printed line as it was; unchanged unless both streams have lines."""
    lines = text.split("\n")
    found = [RECORDED.match(line) for line in lines]
    kinds = {_kind(m) in TYPED_KINDS for m in found if m is not None}
    if kinds != {True, False}:
        return text
    out = []
    for line, m in zip(lines, found, strict=True):
        if m is None:
            out.append(line)
        elif _kind(m) in TYPED_KINDS:
            typed = KEY_NAME.sub("", PASTE_MARK.sub("", m["rest"])).strip()
            if typed:
                out.append("$ " + typed)
        else:
            out.append(m["rest"])
    return "\n".join(out)
