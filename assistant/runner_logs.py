"""What a build service or a scheduler writes around a command's output in its log, taken off so the lines read as
the program printed them: the time before each line, and TeamCity's service messages.

The time before each line:
A build service, a scheduler or a platform's log puts its own clock before every line of a command's output:
Netlify's '4:22:06 PM: ', Cloudflare's '20:15:33.908<tab>', Vercel's '[14:43:43.052] ', Airflow's '[2024-05-01,
12:00:00 UTC] ', Heroku's '2024-05-01T12:00:00.000000+00:00 '. No list of services can be complete, so what
marks a log's stamp here is its form: a time (with seconds, or a date before it) at the start of two lines or more,
written the same way on each of them (the digits aside). A program's own output rarely starts two lines with
the same clock; a chat's or a video's times, with a speaker or without seconds, are read elsewhere
(`grounding.CHAT_PREFIX`, `grounding.VIDEO_TIME`)."""

from __future__ import annotations

import re

from proactive.watcher.privacy.echo_programs import SHELLS

from .quotes import PROGRAMS

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


def unstamped(text: str) -> str:
    """`text` without the stamp its lines start with, when two lines or more start with one written the same way
    and it has seconds or a date (the most common way, where lines differ), in the order they were written (a
    log view that lists the newest first: its stamps go back); and without what each such line has after its
    stamp that no program printed: a logger's level ('INFO - '), the stream's name on every line ('ecs/web/1a10…'),
    a CSV cell's quotes. Other lines (a header above the log) are kept as they are."""
    lines = text.split("\n")
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
