"""The line an offer quotes for an error ("You hit '…'"), as the person met it, and the error as diagnose() reads
it. Sentences carry a program's message inside what carried it to the person (a chat, a mail, a forum, a tracker, a
runner's log, an agent's words), and the line the grounding takes for the error may be one of those instead:
the offer and Accept both quote the program's line (`as_met`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from .diagnose import Situation, diagnose, without_lead
from .error_names import CLOSING_ONLY, LINK_ONLY, SUMMARY_LINE, error_line
from .grounding import COMMAND, FILE, VERDICT, Grounding, Obj
from .quotes import known_programs, program_of, quotes, writers_line
from .sentence_patterns import ERROR_TEXT
from .validate import norm


def situation(error: Obj, grounding: Grounding) -> Situation:
    """The error as diagnose() reads it, with the command line (whole: a compound line's commands together) and
    the file around it when the context names them."""
    command, file = grounding.first(COMMAND), grounding.first(FILE)
    return Situation(error.detail or error.text, (command.detail or command.text) if command else None,
                     file.text if file else None)


#: what a medium puts at either end of a pasted line: a forum's, a wiki's or a page's markup ('[code]scp: …',
#: '…[/code]', '{quote}', '<pre>'), a Markdown fence (and `_bare` drops a quote mark closing the whole paste)
MARKUP_ENDS = re.compile(r"^(?:\[/?[a-z]+(?:=[^\]\n]*)?\]|\{[a-z]+(?::[^}\n]*)?\}|</?[a-z]+>|```\w*|'''|’’’)+|"
                         r"(?:\[/[a-z]+\]|\{[a-z]+\}|</[a-z]+>|```|'''|’’’)+$")


#: a form's field label at a line's start ('Details: …', 'Output: …'), not an error's word ('Error: …')
FIELD_LABEL = re.compile(r"^(?!(?i:[^:\n]*(?:error|fail|fatal|warn|exception|caused)))[A-Z][a-z]*(?: [a-z]+){0,2}: (?=\S)",
                         re.M)


#: how a message line starts on its own: an exception's name, an error's word and colon, npm's, a traceback, a
#: compiler's place ('./main.go:9:2: ')
MESSAGE_START = re.compile(r"(?:[\w.$]*(?:Error|Exception)(?:\[\w+\])?:|Exception in thread |(?:error|fatal|ERROR|FATAL|E|"
                           r"Error|warning|WARNING|Warning)(?:\[\w+\]| \d+(?: \(\w+\))?)?:|npm (?:ERR!|error) |"
                           r"Traceback \(|[\w./-]+\.[A-Za-z]\w*:\d+(?::\d+)?: \S)")
#: a word and a colon before the rest of a line: a program's name ('collect2: ', 'bash: ') or a writer's label
NAMED_START = re.compile(r"(?P<word>[\w./+-]+)(?::\d+)*: \S")


def _unlabelled(line: str, programs: frozenset[str]) -> str | None:
    """The line from where its message starts, when a writer's words come before it on the line ('red text: bash:
    gti: …', 'got: error[E0382]: …', 'message reads rbenv: version …'): the first of its first six words that
    starts a message on its own or is a program's name and a colon (a known program, a path, or a name with a
    digit: 'collect2: '), with no error's word before it. None when the line starts so itself, or no word does."""
    if _starts_message(line, programs):
        return None
    for m in list(re.finditer(r"(?<=\s)\S", line))[:6]:
        if ERROR_TEXT.search(line[:m.start()]):
            return None  # (the message's own words: 'failed to register layer: write /var/…: no space …')
        if _starts_message(line[m.start():], programs):
            return line[m.start():]
    return None


def _starts_message(text: str, programs: frozenset[str]) -> bool:
    """Whether a text starts as a message does: an error's form, or a program's name and a colon."""
    named = NAMED_START.match(text)
    return MESSAGE_START.match(text) is not None or (named is not None and (
        named["word"] in programs or re.search(r"[\d./]", named["word"]) is not None))


#: where a writer joined a message's lines into one ('… / …', '… ↵ …', '… … …', '…; …')
JOINED = re.compile(r"\s+(?:/|↵|…|\||⏎)\s+|;\s+")


def _bare(line: str, form: bool = False, programs: frozenset[str] = frozenset()) -> list[str]:
    """The forms a quoted line may have had as the program printed it, likeliest first: a message it quotes ('The
    command failed with `docker: …`'); a line of a message a writer joined into one that starts as a message does
    ('error[E0308]: mismatched types / 6 | …'); the line without a medium's markup at its ends (and, in a form of fields, without
    its field's label: `form`), without a writer's words before where the message starts (`_unlabelled`) and a
    numbered line's '#12 '; then also without the words a relay put before the message as diagnosing reads them
    (`without_lead`); then the line as it is."""
    line = line.strip()
    unmarked = MARKUP_ENDS.sub("", line).strip()
    if form:  # (the text is a form of fields, this line one of them)
        unmarked = FIELD_LABEL.sub("", unmarked, count=1)
    if unmarked[-1:] in ("'", "’") and (unmarked.count("'") % 2 or (unmarked.count("‘") + unmarked.count("’")) % 2):
        unmarked = unmarked[:-1]  # the quote mark closing the whole paste, where the line opened none
    unmarked = re.sub(r"^#\d+ (?=\S)", "", _unlabelled(unmarked, programs) or unmarked)
    inside = [t for q in quotes(unmarked)  # ('selects the line "error[E0432]: …"'), a message on its own
              if _starts_message(t := q.text.strip(), programs) and _reads_as_message(t)]
    pieces = [t for t in JOINED.split(unmarked) if _starts_message(t, programs)] if JOINED.search(unmarked) else []
    return list(dict.fromkeys(t for t in (*inside, *pieces, unmarked, without_lead(unmarked).strip(), line) if t))


def _reads_as_message(line: str) -> bool:
    """Whether a line reads as an error's message: it names one or has an error's word, says more than a level or
    a tracker's title does ('error', 'Unhandled Error'), and is no line of the writer's ('what does this error
    mean?')."""
    return bool(error_line(line) or ERROR_TEXT.search(line)) and (":" in line or len(line.split()) > 2) \
        and not writers_line(line)


def as_met(error: Obj, grounding: Grounding) -> Obj:
    """The error quoted as the person met it. The line taken for it may carry what carried it ('got: …', a
    forum's '[code]', a Markdown fence), or not be the message at all: a chat's next name and time, a mail's
    signature or a CI runner's verdict after a message no error word marks ('failed to register layer: … no space
    left on device') read as the copy's last line, and an offer quoting them names nothing the person met. So the
    quote is the first form (`_bare`) of that line that, alone, is diagnosed as the whole copy is; else, when it
    reads as an error and not as a runner's verdict or a link to elsewhere, its first form; else the first
    form of the first line of the copy (error-like lines first) that alone is diagnosed so; else the copy's line
    that names an error (`error_line`), or has an error's word, a closing verdict last. Each only when the
    context has it word for word (what the validator asks). An error no diagnosis knows is quoted by its line's
    first form when that reads as an error. Help on Accept finds the error by this quote too
    (`help.named_objects`)."""
    found = diagnose(situation(error, grounding))
    command, file = grounding.first(COMMAND), grounding.first(FILE)
    ran = (command.detail or command.text) if command else None
    context = norm(grounding.context_text)
    programs = known_programs(grounding.context_text) | ({program_of(ran)} if ran else set())

    def known(text: str) -> bool:
        if found is None or norm(text) not in context:
            return False
        alone = diagnose(Situation(text, ran, file.text if file else None), relayed=False)
        return alone is not None and alone.rule == found.rule

    def quoted(text: str) -> Obj:
        return error if text == error.text else replace(error, text=text)

    bare = _bare(error.text, len(FIELD_LABEL.findall(grounding.context_text)) >= 3, programs)
    if (text := next((t for t in bare if known(t)), None)) is not None:
        return quoted(text)
    shown = next((t for t in bare if norm(t) in context), error.text)
    lines = [ln for ln in (error.detail or "").splitlines() if ln.strip()][:60]
    if found is None:
        return quoted(shown) if _reads_as_message(shown) else error
    if _reads_as_message(shown) and not SUMMARY_LINE.search(shown) and not CLOSING_ONLY.match(shown) \
            and not VERDICT.search(shown) and not LINK_ONLY.match(shown):
        # a line of the message that another line of it is needed with ('Host key verification failed.')
        return quoted(shown)
    for line in sorted(lines, key=lambda ln: not error_line(ln)):  # (stable: the copy's order within each)
        if (text := next((t for t in _bare(line, programs=programs) if known(t)), None)) is not None:
            return quoted(text)
    # (no line alone is known: the copy's line that names an error, else one with an error's word, a build's
    # closing verdict at worst)
    worded = sorted((ln.strip() for ln in lines if ERROR_TEXT.search(ln) and not LINK_ONLY.match(ln.strip())),
                    key=lambda ln: bool(SUMMARY_LINE.search(ln) or VERDICT.search(ln)))
    named = error_line("\n".join(lines)) or next(iter(worded), "")
    named = next((t for t in _bare(named, programs=programs) if norm(t) in context), "") if named else ""
    return quoted(named) if named else error
