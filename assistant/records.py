"""An observation written as a logger's record rather than a sentence: a JSON object (or one per line, or a
notebook's cell after its file's name), `key=value` fields (logfmt, or one per line), a CSV or tab-separated row, a
Markdown table's row. Its fields say what the sentence readers would have to guess: which
one is the command line run and which is the text the terminal printed. Read here as the live path has them (a
line typed and entered, a text copied), so a record gets the help the same moment gets live.

Parsed with `json` and `csv`; which field is which is decided by the field's name where the record names it
(`command`, `cmd`, `last_input`, `shell_history_last`…) and by the field's text (an error a line of it names, or a
diagnosis knows) where it does not.
"""

from __future__ import annotations

import csv
import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from .error_names import error_line
from .quotes import (
    COMMAND_LINE,
    IDLE_PROMPT,
    PROGRAMS,
    RUN_ARROW,
    RUN_CUE,
    diagnosed,
    known_programs,
    program_of,
    prompt_runs,
    quotes,
    restored,
    unquoted_command,
    writers_line,
)

#: a field's name that holds the command line run
COMMAND_KEY = re.compile(r"(?:^|[_.])(?:command|cmd|cmdline|command_?line|input|history(?:_last)?|typed|ran)$|"
                         r"^(?:shell_)?history", re.I)
#: a `key=value` field of a log line (logfmt: 'cmd="cargo run" exit=101 out="…"') or of a line of its own
#: ('CommandLine=kubectl get pods'), a quoted value with JSON's escapes; a single-quoted one ends only before the next
#: field or at the end, the quote marks of its own text inside it ("text='No such file: 'data.csv''")
PAIR = re.compile(r'(?:^|(?<=\s))(?P<key>[A-Za-z_][\w.-]*)=(?P<value>"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'(?!\s+[A-Za-z_][\w.-]*=|\s*$))*\'|[^\s"\']*)')
#: a log record's field that says where or how a line was recorded, not what was printed (its stream, its
#: severity, the resource or the span it belongs to)
STREAM_META = re.compile(r"^(?:stream(?:_name)?|severity|level|log_?level|resource|trace|span(?:_?id)?|trace_?id|"
                         r"insert_?id|logName|receiveTimestamp|_time|_cd|_bkt|_indextime|_serial|_si|splunk_server|"
                         r"index|linecount|sourcetype|@timestamp|@logStream|@log|ingestionTime|eventId)$", re.I)
#: a field's name that holds no text the terminal printed (when, where, which window)
META_KEY = re.compile(r"^(?:ts|time|timestamp|date|app|application|window|class|title|source|kind|type|event|"
                      r"panel|host|hostname|user|pid|id|exit_code|status|level)$", re.I)
#: an event log's field that names what happened ('event': 'command_typed', 'type': 'terminal_output')
EVENT_KEY = re.compile(r"^(?:event|event_?type|type|action|kind|activity)$", re.I)
#: an event's name that says a command line was typed or run ('command_typed', 'types command', 'typing', 'run')
TYPED_EVENT = re.compile(r"(?i)(?:^|(?<=[\W_]))(?:typ(?:e|es|ed|ing)|command|cmd|input|runs?|ran|exec(?:s|utes?|uted)?)"
                         r"(?=$|[\W_])")
#: a table's header cell: a column's name
HEADER_NAME = re.compile(r"[A-Za-z_#][\w ./()#?-]{0,30}")
#: a row's field that is a time ('2025-06-17T08:16:31', '14:33', '2025-06-25 09:55:34')
TIME = re.compile(r"^\s*(?:\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d)?\S*)?|\d\d?:\d\d(?::\d\d)?)\s*$")
#: a field saying a command was run: 'ran pip install x', '$ git push', '`kubectl get pods` → NAME …'
RAN = re.compile(r"^\s*(?:ran|run|runs|\$)\s+(?P<line>.+?)\s*$", re.I)
ARROW = re.compile(r"^\s*`(?P<line>[^`]+)`\s*(?:→|->|=>|»|:)\s*(?P<out>.+)$", re.S)
#: an entry of a clipboard manager's history: its number, the text's start, when it was copied (' 2  pip install x
#: 1 min ago')
CLIP_ITEM = re.compile(r"^[ \t]*(?P<n>\d{1,3})[.):]?[ \t]+(?P<text>\S.*?)[ \t]{2,}(?P<when>just now|now|yesterday|"
                       r"\d+[ \t]*(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)[ \t]+ago|\d\d?:\d\d)[ \t]*$",
                       re.M | re.I)
#: the manager's preview of one entry, whole, to the end of the text ('Preview (item 2, 84 chars, 1 line):')
CLIP_PREVIEW = re.compile(r"^[ \t]*Preview\b[^\n]*?\b(?:item|#)[ \t]*(?P<n>\d{1,3})\b[^\n]*:[ \t]*\n(?P<text>.+)\Z",
                          re.M | re.S | re.I)
#: a field of the writer's words naming the command run in backticks ('The following error appeared after running
#: `git pull`. What is the problem?', a dataset's instruction)
NAMED_RUN = re.compile(r"(?i:\b(?:after|when|while|by) (?:running|executing|typing|I ran|I run|I typed)|\bran|\bruns|"
                       r"^command) `(?P<line>[^`\n]+)`")
#: a chat's fence around a field's whole text
FIELD_FENCE = re.compile(r"^\s*```(?:\w*[ \t]*\n)?|\n?```\s*$")
#: a message's first line naming the command it ran in backticks, then what it did ('`pip install x` keeps failing
#: with …')
LED_RUN = re.compile(r"^`(?P<line>[^`\n]+)` (?:keeps? |still |now |always )?(?:fail|fails|failed|failing|gives?|gave|"
                     r"prints?|printed|returns?|returned|throws?|threw|errors?|says?|said|crashe[sd]|shows?|showed|"
                     r"exits?|exited)\b")
#: a printed text's first line that is the prompt and the command it ran ('$ git pull')
PROMPT_FIRST = re.compile(r"^\s*(?:\$|[\w.-]+@[\w.-]+:[^\s$#]*[$#]|[\w.-]+@[\w.-]+ [^\s%]+ %|➜ +[\w.~/-]+|"
                          r"\[[\w.-]+@[\w.-]+ [^\]\n]*\][$#]) "
                          r"(?P<line>[^\n]+)\n(?P<out>.+)$", re.S)


@dataclass(frozen=True)
class Record:
    """What a record says happened: the command line run (when it names one) and the texts printed."""

    command: str | None
    texts: tuple[str, ...]


def _printed(text: str, command: str | None = None) -> bool:
    """A field's text is a program's output worth helping with: a line of it names an error, or a diagnosis
    knows it as one (cp's 'omitting directory'; with the command it came from, when the record names it), also
    past the writer's label before it on its line ('red text: ./main.go:14:23: undefined: x')."""
    from .diagnose import without_lead

    return len(text.strip()) >= 8 and (bool(error_line(text)) or diagnosed(text, command) or (
        (bare := without_lead(text)) != text and diagnosed(bare, command)))


def _quotes(text: str, piece: str) -> bool:
    """Whether a text holds a piece in quote marks (a writer's words around a message they quote)."""
    at = text.find(piece)
    return at > 0 and text[at - 1] in "\"'`“‘«"


def _about_another(text: str, others: list[str]) -> bool:
    """Whether a text is the writer's words around a line of another text it quotes ('selects the line "Host key
    verification failed."' beside the output holding that line): nothing outside its quotes reads as printed."""
    pieces = [q for q in quotes(text) if len(q.text.strip()) >= 8 and any(q.text.strip() in u for u in others)]
    if not pieces:
        return False
    outside = "".join(text[a:b] for a, b in zip([0, *(q.end for q in pieces)], [*(q.start for q in pieces), len(text)],
                                                 strict=True))
    return not _printed(outside)


def _own_words_only(text: str, command: str | None) -> bool:
    """Whether the only diagnosis that knows a text is the one that reads its words as the next step."""
    from .diagnose import OWN_WORDS, Situation, diagnose

    found = diagnose(Situation(text, command))
    return found is not None and found.rule == OWN_WORDS


def _command(text: str) -> str | None:
    """A field's text as a command line: one line, a program's name first (a known one, or words after it)."""
    line = text.strip().strip("`")
    if "\n" in line or not COMMAND_LINE.match(line) or TIME.match(line):
        return None
    program = line.split()[0].rsplit("/", 1)[-1]
    return line if program in PROGRAMS or " " in line else None


def _strings(value: Any, key: str = "", kinds: bool = False) -> list[tuple[str, str]]:
    """A JSON value's texts with the name of the field each sits in; a list of strings is one text, its lines.
    `kinds`: a piece of a chat export's message named by its kind ('code', 'pre', 'plain'), not 'text'."""
    if isinstance(value, str):
        return [(key, _unmangled(value))]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        # its lines, each with its line break or none (a notebook's source and outputs keep theirs)
        return [(key, "".join(value) if all(v.endswith("\n") for v in value[:-1]) else "\n".join(value))]
    if kinds and isinstance(value, dict) and isinstance(value.get("type"), str) \
            and isinstance(value.get("text"), str) and len(value) <= 4:
        return [(value["type"], value["text"])]
    if isinstance(value, dict):
        named = _key_value(value)
        if named is not None:  # an attribute written as a pair ({"key": "exception.stacktrace", "value": "…"})
            return _strings(named[1], named[0], kinds)
        return [pair for k, v in value.items() for pair in _strings(v, str(k), kinds)]
    if isinstance(value, list):
        return [pair for v in value for pair in _strings(v, key, kinds)]
    return []


#: UTF-8's bytes read one by one as Latin-1 characters (a lead byte, then continuation bytes): how Facebook's and
#: Instagram's exports write every non-ASCII character ('â\x80\x9c' for '“')
MOJIBAKE = re.compile(r"[\xc2-\xf4][\x80-\xbf]+")


def _unmangled(text: str) -> str:
    """A record's text with UTF-8 read back where an export wrote its bytes as characters; else unchanged."""
    if not MOJIBAKE.search(text):
        return text
    try:
        return text.encode("latin-1").decode("utf-8")
    except UnicodeError:  # (a text of real Latin-1 characters, or of both kinds)
        return text


def _key_value(value: dict[str, Any]) -> tuple[str, Any] | None:
    """A field written as an object of its name and its value (OpenTelemetry's and Jaeger's attributes, a tag's
    {"Key": …, "Value": …}): (name, value), the value out of its typed wrapper ({"stringValue": "…"}); else None."""
    keys = {k.lower(): k for k in value}
    if "key" not in keys or "value" not in keys or not isinstance(value[keys["key"]], str) \
            or set(keys) - {"key", "value", "type"}:
        return None
    inner = value[keys["value"]]
    if isinstance(inner, dict) and len(inner) == 1 and str(next(iter(inner))).endswith("Value"):
        inner = next(iter(inner.values()))
    return value[keys["key"]], inner


#: a notebook's cell magic that runs the cell's lines in a shell
SHELL_MAGIC = re.compile(r"^[ \t]*%%(?:bash|sh|script (?:ba|z)?sh)\b[^\n]*\n")


def _named_command(text: str) -> str | None:
    """The command line a line of the writer's words names: said run ('after running `x`'), or quoted after a word
    that names a command ('Step `gti log` exited with code 127', 'Command: `make`')."""
    return unquoted_command(text) or next(
        (q.text for q in quotes(text) if RUN_CUE.search(text[max(0, q.start - 60):q.start].rstrip("`'\"‘“"))
         and COMMAND_LINE.match(q.text)), None)


def _cell_command(source: str) -> str | None:
    """The command line a notebook cell runs in a shell: a '!' escape's line, or a shell cell's last command."""
    text = source.strip()
    if text.startswith("!"):
        return _command(text[1:])
    magic = SHELL_MAGIC.match(source)
    if magic is None:
        return None
    lines = [ln.strip() for ln in source[magic.end():].splitlines() if ln.strip() and not ln.strip().startswith("#")]
    return _command(lines[-1]) if lines else None


def _quoted_block(text: str) -> str:
    """A message's lines a chat message quotes in Markdown ('> Traceback …', '> KeyError: …'), without the
    marks, when the message's other lines print nothing ('what's the fix?'); else the text as it is."""
    lines = text.strip().split("\n")
    quoted = [i for i, ln in enumerate(lines) if ln.startswith(">")]
    if len(quoted) < 2 or quoted[-1] - quoted[0] + 1 != len(quoted):
        return text
    others = [ln for i, ln in enumerate(lines) if ln.strip() and not quoted[0] <= i <= quoted[-1]]
    if any(_printed(ln) for ln in others):
        return text
    return "\n".join(re.sub(r"^>[ \t]?", "", ln) for ln in lines[quoted[0]:quoted[-1] + 1])


def _last_printed_run(text: str) -> tuple[str, str] | None:
    """A screen's last command that printed something, and what it printed (up to the next prompt), when the
    text holds several prompts' lines ('$ git status -s', its lines, '$ sudo nginx -t', its message)."""
    runs = prompt_runs(text)
    for run, after in reversed(list(zip(runs, [*runs[1:], None], strict=False))):
        out = text[run.end:text.rfind("\n", 0, after.at) if after else len(text)].strip("\n")
        if _printed(out, run.command):
            return run.command, out
    return None


def _typed_events(fields: list[tuple[str, str]]) -> list[tuple[int, str]]:
    """An event log's entries that say a command line was typed or run ({"event": "command_typed", "detail":
    "make"}, {"type": "typing", "text": "go run ."}): where each is, and its command line."""
    return [(i, line) for i, ((name_key, name), (_, text)) in enumerate(zip(fields, fields[1:], strict=False), 1)
            if EVENT_KEY.match(name_key) and TYPED_EVENT.search(name) and (line := _command(text))]


#: a fenced block that ends a text
LAST_FENCE = re.compile(r"```[\w+-]*[ \t]*\n(?P<text>[^`]*?)\n?[ \t]*```\s*$")


def _fenced_command(text: str) -> str | None:
    """The command line alone in a fenced block that ends a text: what an agent's turn runs."""
    m = LAST_FENCE.search(text)
    return _command(m["text"]) if m else None


def _from_fields(fields: list[tuple[str, str]]) -> Record | None:
    """A record from its (name, text) fields: the command by its field's name, else the field before the first
    printed text that reads as a command line; the printed texts by their text."""
    command = next((t.strip() for k, t in fields if k and COMMAND_KEY.search(k) and _command(t)), None)
    if command is None and (typed := _typed_events(fields)):
        # of an event log's typed lines, the last before the first text printed (or the last of all)
        printed_at = next((i for i, (k, t) in enumerate(fields) if not (k and META_KEY.match(k)) and _printed(t)),
                          len(fields))
        command = next((line for i, line in reversed(typed) if i < printed_at), typed[-1][1])
        fields = [f for i, f in enumerate(fields) if i not in {j for j, _ in typed}]
    # a notebook cell's shell escape ('!pip install x') or a shell cell's last command ('%%bash', 'cd x', 'make')
    command = command or next((c for k, t in fields if k == "source" and (c := _cell_command(t))), None)
    if any(k == "ename" and t == "CalledProcessError" for k, t in fields) \
            and any(k == "text" and _printed(t) for k, t in fields):
        # a shell cell's failure as the notebook reports it: the command's own output above says what went wrong
        fields = [(k, t) for k, t in fields if k not in ("ename", "evalue", "traceback")]
    texts: list[str] = []
    for i, (key, text) in enumerate(fields):
        if key and (META_KEY.match(key) or (COMMAND_KEY.search(key) and (_command(text) or not _printed(text)))):
            continue  # (a dataset's 'input' may hold what was printed, no command line: it is read as such)
        text = FIELD_FENCE.sub("", text)  # a chat's fence around the whole field
        ran, arrow, prompt = RAN.match(text), ARROW.match(text), PROMPT_FIRST.match(text)
        labelled = RUN_ARROW.match(text)  # 'dev env: ran sqlite3 app.db "…" -> Error: …', a note's field
        if arrow and _command(arrow["line"]):
            command, text = command or arrow["line"].strip(), arrow["out"]
        elif labelled and _command(labelled["line"]):
            command, text = command or labelled["line"].strip(), text[labelled.end():]
        elif prompt and _command(prompt["line"]):
            # (the prompt waiting under the output is the screen's; of a screen's several commands, the last that
            # printed something)
            line, out = _last_printed_run(text) or (prompt["line"], prompt["out"])
            command, text = command or line.strip(), IDLE_PROMPT.sub("", out.rstrip())
        elif ran and "\n" not in text and _command(ran["line"]) and not _printed(text):
            command = command or ran["line"].strip().strip("`")
            continue
        named = NAMED_RUN.search(first := text.split("\n", 1)[0])
        led = LED_RUN.match(first)
        led_command = None
        if named and _command(named["line"]):
            # a dataset's instruction, an alert's description: the writer's words naming the command
            command = command or named["line"]
            if "\n" not in text.strip():
                continue
            text = text.split("\n", 1)[1]  # what was printed, under the line naming the command
        elif led and _command(led["line"]):
            # a message's first line naming the command ('`make` keeps failing with:'), the output under it (a
            # prompt's line there says the command as well)
            led_command = led["line"]
            if "\n" in text.strip():
                text = FIELD_FENCE.sub("", text.split("\n", 1)[1])
        text = restored(text)
        text = _quoted_block(text)
        if not _printed(text, command) or ("\n" not in text.strip() and writers_line(text)):
            continue  # no program's output, or a line of a person's words ('did you run the install step first?')
        runs = prompt_runs(text) if command is None and "\n" in text else []
        if runs and _printed(after := text[runs[-1].end:], runs[-1].command):
            # a prompt's line inside the field ('Steps: … Result: ```$ make …```'): its command printed what follows
            command, text = runs[-1].command, after.strip("\n")
        command = command or led_command
        if command is None and i > 0 and not fields[i - 1][0]:  # a line of its own before it
            command = _command(fields[i - 1][1])
        # an agent's turn before it that ends with the command it runs in a fence ('First I'll reproduce it.
        # ```gti status```'), the turns' speakers between
        command = command or next((c for _, t in reversed(fields[max(0, i - 4):i]) if (c := _fenced_command(t))), None)
        # a chat export's code piece of the same message just before it ('ran ', `make`, ' and got:')
        command = command or next((_command(t) for k, t in reversed(fields[max(0, i - 2):i]) if k == "code"), None)
        texts.append(text.strip())
    if command is None and texts:
        # a field of the writer's words naming the command ('Command: `curl -sS https://…` (exit 2)')
        # (or a chat message's first line: 'trying to run my script, `python3 app.py` fails:', then the paste)
        command = next((c for _, t in fields if not _printed(line := t.strip().split("\n", 1)[0])
                        and (c := _named_command(line)) and _command(c)), None)
    # a field that is a piece of another (an exception's type and message beside its stack trace) is that one;
    # one that quotes another ('the important bit is “bash: …”') is the writer's words about it
    texts = [t for i, t in enumerate(texts)
             if not any(j != i and t in u and (t != u or j < i) and not _quotes(u, t) for j, u in enumerate(texts))
             and not any(j != i and u in t and u != t and _quotes(t, u) for j, u in enumerate(texts))
             and not _about_another(t, [u for j, u in enumerate(texts) if j != i])]
    weak = [not error_line(t) and _own_words_only(t, command) for t in texts]
    if not all(weak):
        # beside a program's message, a field only read as words that say what to do ('reproduce with `make`', a
        # checklist's item) is the writer's
        texts = [t for t, w in zip(texts, weak, strict=True) if not w]
    return Record(command, tuple(texts)) if texts else None


def _clipboard(text: str) -> Record | None:
    """A clipboard manager's history (newest first) as the moment it records: the copied text that is a program's
    output (whole in the manager's preview when it is cut short in the list) and the command line copied next to
    it, the one copied before it first."""
    items = {int(m["n"]): m["text"].strip() for m in CLIP_ITEM.finditer(text)}
    if len(items) < 2:
        return None
    preview = CLIP_PREVIEW.search(text)
    if preview and int(preview["n"]) in items:
        items[int(preview["n"])] = preview["text"].strip()
    printed = next((n for n in sorted(items) if not items[n].endswith("…") and _printed(items[n])), None)
    if printed is None:
        return None
    known = known_programs(text)
    command = next((items[n] for n in (printed + 1, printed - 1) if n in items and _command(items[n])
                    and program_of(items[n]) in known), None)
    return Record(command, (items[printed],))


def _pairs(text: str) -> Record | None:
    """A log line of `key=value` fields, or a record of one `Key=Value` per line (under a '[Section]' line)."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not re.fullmatch(r"\s*\[[\w .-]+\]\s*", ln)]
    if len(lines) > 1:  # one field per line, the value the rest of it
        pairs = [re.match(r"\s*([A-Za-z_][\w.-]*)\s*=\s?(.*)$", ln) for ln in lines]
        if not all(pairs) or len({m[1] for m in pairs if m}) == 1:
            return None  # (one name on every line is no record's fields: a recording's 't=304.0s — …')
        return _from_fields([(m[1], m[2]) for m in pairs if m])
    found = list(PAIR.finditer(text))
    if len(found) < 3 or sum(len(m[0]) for m in found) < 0.8 * len(text.replace(" ", "")):
        return None
    fields = []
    for m in found:
        value = m["value"]
        if value.startswith("'"):
            value = value[1:-1]
        elif value.startswith('"'):
            try:
                value = json.loads(value)
            except ValueError:
                value = value[1:-1]
        fields.append((m["key"], value))
    return _from_fields(fields)


def _json(text: str) -> Record | None:
    """A JSON object, or one per line; records of a log stream (a line each: Docker's, Fluentd's) as one text,
    the lines in order."""
    records = []
    for line in [text] if text.count("\n") == 0 or text.lstrip().startswith("{\n") else text.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            return None
        if not isinstance(value, dict):
            return None
        records.append(value)
    flat = [dict(_strings(r)) for r in records]  # a search's result holds its record ('{"result": {"_raw": …}}')
    key = stream_key(flat)
    fields: list[tuple[str, str]] = []
    if key:
        lines = [r[key] for r in flat]
        if newest_first(flat):  # type: ignore[arg-type]
            lines.reverse()
        printed = "".join(_line(ln) for ln in lines)
        fields.append((key, _log_lines(printed) if printed.count('{"') >= 2 else printed))
    for value in records:
        fields += _strings(value, kinds=True)
    return _from_fields([f for f in fields if not (key and f[0] == key and f is not fields[0])])


def _json_list(text: str) -> Record | None:
    """A JSON array of objects that names what each is or holds (an event log's entries by their `event` or `type`,
    an editor's problems by their `message`): their fields in order."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        return None
    if not any(EVENT_KEY.match(str(k)) or str(k).lower() == "message" for v in value for k in v):
        return None  # (a list of captions or of labelled texts: the writer's sentences, read as sentences)
    return _from_fields([f for v in value for f in _strings(v, kinds=True)])


def _line(text: str) -> str:
    """A record's line as printed, its line break at its end."""
    return text if text.endswith("\n") else text + "\n"


#: the field of a log stream's record that names the line the program printed, where a record names it so
LINE_KEYS = ("log", "message", "msg", "MESSAGE")


def stream_key(records: list[dict[str, Any]]) -> str | None:
    """The field of a log stream's records (two or more) that holds the line each record is of: a line field by
    its name (`LINE_KEYS`), else the text field every record has whose text differs from record to record and is
    longest (Kaggle's 'data', Cloud Logging's 'textPayload', Splunk's '_raw'), no time's, place's or level's. None
    when the records are no stream (one record, or no such field)."""
    if len(records) < 2:
        return None
    shared = [k for k in records[0] if all(isinstance(r.get(k), str) for r in records)]
    named = next((k for k in LINE_KEYS if k in shared), None)
    if named:
        return named
    varying = [k for k in shared if not META_KEY.match(k) and not STREAM_META.match(k)
               and len({r[k] for r in records}) > 1 and not all(TIME.match(r[k]) for r in records)]
    return max(varying, key=lambda k: sum(len(r[k]) for r in records), default=None)


#: a piece of a JSON file's text: its first line starts inside an object or a list ('"cells": [', '  {', '},'), or
#: with an object that no parser reads whole (records one per line, each with a comma after it)
FRAGMENT_START = re.compile(r'[{}\[\]],?[ \t]*\n|"[\w.-]+"[ \t]*:|\[?\{[ \t]*"[\w.-]+"[ \t]*:')
#: a JSON object's field name, where its value starts
JSON_KEY = re.compile(r'"(?P<key>[\w.-]+)"[ \t]*:[ \t]*')


def _fragment(text: str) -> Record | None:
    """A piece cut out of a JSON file (a notebook's cells copied from its .ipynb, an export cut short), which no
    parser reads whole: each field whose value is whole in it, in order, the outermost ones first."""
    decoder = json.JSONDecoder()
    fields: list[tuple[str, str]] = []
    done = 0
    for m in JSON_KEY.finditer(text):
        if m.start() < done:
            continue  # inside a value read already
        try:
            value, done = decoder.raw_decode(text, m.end())
        except ValueError:
            continue  # a value the cut left open: its fields are read one by one
        fields += _strings(value, m["key"], kinds=True)
    return _from_fields(fields)


def _cells(line: str) -> list[str] | None:
    """A Markdown table's row as its cells ('| 10:32 | kitty | … |'); None for its rule line or another line."""
    if not (line.startswith("|") and line.rstrip().endswith("|")) or re.fullmatch(r"[\s|:-]+", line):
        return None
    return [c.strip() for c in line.strip()[1:-1].split(" | ")]


def _rows(text: str) -> list[list[str]] | None:
    """A table's rows, each as its fields: tab-separated, Markdown, or CSV (commas or semicolons; with a header
    line, or a first field that is a time); None when the text is not one."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines and all(ln.count("\t") >= 2 for ln in lines):
        quoted = list(csv.reader(lines, delimiter="\t")) if '\t"' in text else []
        # a field in CSV's quote marks, those inside it doubled (a spreadsheet's tab-separated export), as its value
        return quoted if len(quoted) == len(lines) and all(len(r) >= 3 for r in quoted) \
            else [ln.split("\t") for ln in lines]
    if lines and all(ln.lstrip().startswith("|") for ln in lines):
        cells = [c for c in (_cells(ln.strip()) for ln in lines) if c is not None]
        return cells or None
    head = lines[0] if lines else ""
    delimiter = ";" if head.count(";") > head.count(",") else ","  # a spreadsheet's export in a comma-decimal locale
    try:
        rows = [r for r in csv.reader(text.splitlines(keepends=True) if "\n" in text else [text], delimiter=delimiter)
                if r]
    except csv.Error:
        return None
    if len(rows) < 1 or min(len(r) for r in rows) < 3:
        return None
    if len(rows) > 1 and all(HEADER_NAME.fullmatch(h) for h in rows[0]):
        return rows
    return rows if all(TIME.match(r[0]) for r in rows) else None


def _table(text: str) -> Record | None:
    rows = _rows(text)
    if not rows:
        return None
    header = rows[0] if len(rows) > 1 and all(HEADER_NAME.fullmatch(h.strip()) for h in rows[0]) else None
    body = rows[1:] if header else rows
    fields: list[tuple[str, str]] = []
    for row in body:
        names = [h.strip().replace(" ", "_") for h in header] if header and len(header) == len(row) else []
        fields += list(zip(names or [""] * len(row), row, strict=True))
    return _from_fields(fields)


@functools.lru_cache(maxsize=1024)
def read_record(event: str) -> Record | None:
    """The command and printed texts of an observation written as a record; None for a sentence (remembered:
    every decision grounds its whole context again)."""
    text = event.strip()
    if not text or text.startswith("The user "):
        return None
    if text.endswith("}") and (text.startswith("{") or "\n{" in text):  # after a heading line ('cell.ipynb:')
        body = text[text.index("{") if text.startswith("{") else text.index("\n{") + 1:]
        if body.count('{"') >= 2 and _log_stream(body) and body is not text:
            return None  # a log stream's records under the lines that say where they come from: read as a log
        record = _json(body)
        if record is not None:
            return record
    if text.startswith("[") and text.endswith("]") and (record := _json_list(text)) is not None:
        return record
    if FRAGMENT_START.match(text) and text.count('":') >= 3:
        if text.count('{"') >= 2 and _log_stream(text):
            return None  # a log stream's records, one per line (Kaggle's run log): read as the log (`spelled_out`)
        return _fragment(text)
    if "=" in text and (record := _pairs(text)) is not None:
        return record
    if (record := _clipboard(text)) is not None:
        return record
    if ("\t" in text or text.startswith("|") or "," in (head := text.split("\n", 1)[0]) or head.count(";") >= 2) \
            and (record := _table(text)) is not None:
        return record
    if "\n|" in text and (table := _titled_table(text)) is not None:
        return _table(table)
    return None


def _titled_table(text: str) -> str | None:
    """A Markdown table under a title of a line or two ('Session 2025-02-16, jo'): the table's lines, when they are
    the rest of the text (three at least: its head, its rule, a row)."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("|"))
    rows = [line for line in lines[at:] if line.strip()]
    if at > 3 or len(rows) < 3 or not all(line.lstrip().startswith("|") for line in rows) \
            or not EVENT_COLUMN.search(rows[0]):
        return None
    return "\n".join(rows)


#: a table's column saying what kind of event each row is (a session's timeline: typed, output, focus), which
#: makes its rows events, not the lines of one text (an OCR's rows, a log's export)
EVENT_COLUMN = re.compile(r"\|\s*(?:action|event|kind|type|stream|what happened|source)\s*\|", re.I)


#: where a JSON object starts inside a text: after an arrow or a colon (Ansible's 'FAILED! => {…}', a log's
#: 'payload: {…}'), or at a line's start
OBJECT_START = re.compile(r"(?:=>|:)[ \t]*(?=\{)|^[ \t]*(?=\{)", re.M)
#: a JSON string field (or a list of strings), for an object cut short (or a Ruby hash's: '"log"=>"…"', Fluentd's) ('{"cmd": "make", "stderr": "…", ...}')
STRING_FIELD = re.compile(r'"(?P<key>[\w.-]+)"(?::|[ \t]*=>)[ \t]*(?P<value>"(?:[^"\\]|\\.)*"|\[[ \t]*(?:"(?:[^"\\]|\\.)*"[ \t]*,?[ \t]*)*\])')
#: a field that says how a run went, not what it printed (Ansible's, a job runner's)
RUN_META = re.compile(r"^(?:changed|rc|delta|start|end|failed|skipped|invocation|ansible_\w+|_ansible_\w+)$")


def _log_lines(text: str) -> str:
    """A log stream written as one record per line (Docker's JSON logs, Fluentd's and Fluent Bit's records,
    journald's JSON, Kaggle's run log, a search's export): each record's line, the line the program printed (two
    records or more), in the order printed (a search lists the newest first: its records' times go back)."""
    lines = text.split("\n")
    records = _line_records(lines)
    key = stream_key([r for r in records if r is not None])
    if key is None:
        return text
    said = [r[key].rstrip("\r\n") if r is not None and key in r else None for r in records]
    kept = [i for i, printed in enumerate(said) if printed is not None and (
        (i > 0 and said[i - 1] is not None) or (i + 1 < len(said) and said[i + 1] is not None))]
    printed = [said[i] for i in kept]
    if newest_first([records[i] for i in kept]):
        printed.reverse()
    for i, line in zip(kept, printed, strict=True):
        lines[i] = line  # type: ignore[assignment]
    return "\n".join(lines)


def _line_records(lines: list[str]) -> list[dict[str, str] | None]:
    """Each line's JSON record's text fields, or None for a line that holds none."""
    records: list[dict[str, str] | None] = []
    for line in lines:
        at = line.find('{"')
        fields = {m["key"]: m["value"] for m in STRING_FIELD.finditer(line, at) if m["value"].startswith('"')} \
            if at >= 0 else {}
        try:
            records.append({k: json.loads(v) for k, v in fields.items()} or None)
        except ValueError:
            records.append(None)
    return records


def _log_stream(text: str) -> bool:
    """Whether a text is a log stream's records, one per line, all with the same fields (Kaggle's run log), as
    opposed to events of different kinds (an agent's actions and observations)."""
    records = [r for r in _line_records(text.split("\n")) if r is not None]
    return len(records) >= 2 and len({tuple(sorted(r)) for r in records}) == 1 and stream_key(records) is not None


#: a record's field that says when it was written
TIME_KEY = re.compile(r"^(?:_?time|timestamp|@timestamp|ts|date|create_?at|timestamp_?ms)$", re.I)


def newest_first(records: list[dict[str, str] | None]) -> bool:
    """Whether records are listed newest first: their times (one field every record has) never go forward and go
    back at least once."""
    present = [r for r in records if r is not None]
    key = next((k for k in (present[0] if present else {}) if TIME_KEY.match(k)
                and all(isinstance(r.get(k), str) and r.get(k) for r in present)), None)
    if key is None or len(present) < 2:
        return False
    times = [r[key] for r in present]
    return all(a >= b for a, b in zip(times, times[1:], strict=False)) and times[0] > times[-1]


#: a YAML document's top-level field on a line of its own, its value quoted or plain ("textPayload: '  ^'")
YAML_FIELD = re.compile(r"^(?P<key>[A-Za-z_@][\w.@-]*):[ \t]+(?P<value>'(?:[^']|'')*'|\"(?:[^\"\\]|\\.)*\"|[^\n]*)$", re.M)


def _yaml_value(raw: str) -> str:
    """A YAML scalar as its text: single-quoted ('' a quote), double-quoted (JSON's escapes), or plain."""
    if raw.startswith("'"):
        return raw[1:-1].replace("''", "'")
    if raw.startswith('"'):
        try:
            return str(json.loads(raw))
        except ValueError:
            return raw[1:-1]
    return raw.strip()


def _yaml_log_lines(text: str) -> str:
    """A log stream written as YAML documents, one record each between '---' lines (`gcloud logging read`'s
    default output): the line each record holds (`stream_key`), in the order printed, in place of the records."""
    parts = re.split(r"^---[ \t]*$", text, flags=re.M)
    records = [{m["key"]: _yaml_value(m["value"]) for m in YAML_FIELD.finditer(part)} for part in parts]
    key = stream_key([r for r in records if r]) if len(parts) >= 2 else None
    if key is None:
        return text
    held = [i for i, r in enumerate(records) if key in r]
    printed = [records[i][key] for i in held]
    if newest_first([records[i] for i in held]):
        printed.reverse()
    head = parts[0] if held[0] != 0 else ""
    tail = "".join(parts[held[-1] + 1:])  # what follows the last record (the writer's words after it)
    return head.rstrip("\n") + ("\n" if head.strip() else "") + "\n".join(printed) + "\n" + tail.lstrip("\n")


def spelled_out(text: str) -> str:
    """`text` with each JSON object inside it (Ansible's 'fatal: [web]: FAILED! => {"cmd": …, "stderr": "…"}', a
    log line's payload) written out: its command line as a prompt's, each other text field on lines of its own
    with its escaped line breaks as lines. An object cut short ('…, ...}') gives the string fields it has."""
    if "\n---" in text:
        text = _yaml_log_lines(text)
    if "{" not in text or '"' not in text:
        return text
    for _ in range(2):  # a record's line may be a record itself (a search's '_raw' holding journald's JSON)
        if text.count('{"') < 2 or (read := _log_lines(text)) == text:
            break
        text = read
    decoder = json.JSONDecoder()
    out: list[str] = []
    at = 0
    for m in OBJECT_START.finditer(text):
        i = m.end()
        if i < at:
            continue
        try:
            value, end = decoder.raw_decode(text, i)
        except ValueError:
            line_end = text.find("\n", i)
            end = len(text) if line_end < 0 else line_end
            fields = list(STRING_FIELD.finditer(text, i, end))
            if len(fields) < 2:
                continue
            value = {f["key"]: json.loads(f["value"]) for f in fields}
        lines = _written_fields(value) if isinstance(value, dict) else []
        if lines:
            out += [text[at:i], "\n" + "\n".join(lines) + "\n"]
            at = end
    return "".join([*out, text[at:]]) if out else text


def _written_fields(value: dict[str, Any]) -> list[str]:
    """An object's text fields as lines: the command line run first, as a prompt's ('$ cargo build'), then each
    text a program printed as its lines, and each other field under its name (a list of lines as one text;
    '…_lines' left out beside its text)."""
    value = {k: " ".join(v) if COMMAND_KEY.search(k) and isinstance(v, list) and all(isinstance(w, str) for w in v)
             else v for k, v in value.items()}  # a command given as its argv ('["apt-get", "install", "x"]')
    fields = [(k, t) for k, t in _strings(value) if t.strip() and not RUN_META.match(k)
              and not (k.endswith("_lines") and k[:-6] in value)]
    commands = [t for k, t in fields if COMMAND_KEY.search(k) and _command(t)]
    lines = [f"$ {commands[0].strip()}"] if commands else []
    for key, text in fields:
        if commands and text == commands[0]:
            continue
        # what a program printed on lines of its own, as it printed them; another field under its name
        lines.append(text.strip("\n") if _printed(text) else f"{key}: {text.strip()}")
    return lines if any(_printed(t) for _, t in fields) else []


def as_observation(record: Record, time: Any) -> dict[str, Any]:
    """The record as the live path has the same moment: the command typed and entered in a terminal, then each
    printed text copied from it (its sentence quoting the line that names the error, the whole text a copy)."""
    said = []
    if record.command:
        said.append(f"The user types '{record.command}' and presses Enter in the terminal.")
    for text in record.texts:
        line = error_line(text) or next(ln.strip() for ln in text.splitlines() if ln.strip())
        said.append(f"The user copies an error message starting '{line}' from the terminal.")
    return {"time": time, "event": " ".join(said), "copies": list(record.texts)}
