"""What a sentence quotes, however it is worded: every quoted piece (plain, typographic, guillemets, backticks,
nested: "No module named 'numpyy'" inside an outer quote), and the error messages it quotes or states.

A recorded session has only its sentences. Our watcher words a copied error one way ("copies an error message
starting '…', saying '…' and ending '…' from the terminal", `watcher/episodes/builder.py`), but ProactiveBench,
other datasets and people word it many ways: double or typographic quotes, the first and last lines ("starting
X and ending Y", "beginning with X … ending with Y"), the whole message in one quote (with its newlines, or
flattened into one line), a command and its error in the same sentence, or the message unquoted after
"output:", "shows:" or "got". `said_errors` reads each as the text the diagnosis needs (the message's lines, in
order, a traceback's frames indented as Python prints them), so replaying a sentence gives the help the copy
itself gives live.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from proactive.watcher.episodes.error_lines import ERROR_HINT, KEY_LINE

from .sentence_patterns import COPIED_ERROR, URL

#: opening quote -> its closing quote ('„' closes with '“' in German typesetting)
PAIRS = {"'": "'", '"': '"', "`": "`", "‘": "’", "“": "”", "«": "»", "‹": "›", "„": "“", "「": "」", "《": "》"}
#: words before a quote that make it a command line run (its output is what the sentence quotes next)
RUN_CUE = re.compile(r"\b(?:runs?|ran|running|re-?runs?|executes?|executed|executing|invokes?|invoked|launch(?:es|ed|ing)?|"
                     r"command(?: line)?|cmd|\$)\s*[:=]?\s*$", re.I)
#: a quoted text that reads as a command line: a program's name (or a path to one) first, nothing of a sentence
COMMAND_LINE = re.compile(r"^(?:sudo\s+)?(?:\.{0,2}/)?[a-z][\w.+/-]*(?:\s+\S+)*$")
#: a letter or digit of ASCII: an apostrophe sits between two ("don't"); a quote mark does not (CJK text around a
#: quote is not a word for this purpose: '输入"你好"' quotes 你好)
WORD = re.compile(r"[A-Za-z0-9]")


@dataclass(frozen=True)
class Quoted:
    """One outermost quoted piece: where its opening quote is, where it ends (after the closing quote), its text."""

    start: int
    end: int
    text: str


def _word(text: str, i: int) -> bool:
    return 0 <= i < len(text) and WORD.match(text[i]) is not None


def _space(text: str, i: int) -> bool:
    return i < 0 or i >= len(text) or text[i].isspace()


def _opens(text: str, i: int) -> bool:
    """A symmetric mark (' " `) at `i` that can open a quote: not after a letter ("don't"), not before a space."""
    return not _word(text, i - 1) and not _space(text, i + 1)


def _closes(text: str, i: int) -> bool:
    """A symmetric mark at `i` that can close a quote: not after a space, not before a letter."""
    return not _space(text, i - 1) and not _word(text, i + 1)


def _skip_backticks(text: str, j: int) -> int:
    """Past a backtick quote inside another quote: Rust's `x` or GNU's old `main' (a backtick closed by an
    apostrophe, as ld and make still print), so neither ends the outer quote early."""
    tick, plain = text.find("`", j + 1), text.find("'", j + 1)
    ends = [k for k in (tick, plain) if k > j]
    return min(ends) + 1 if ends else j + 1


def _closing(text: str, i: int) -> int | None:
    """Where the quote opened at `i` closes: quotes of the same mark nest ('… named 'numpyy'' closes at its last
    mark), a mark between two letters is an apostrophe. When the nesting never closes, the first mark that can
    close it does (an unbalanced apostrophe inside: "the users' files")."""
    mark, close = text[i], PAIRS[text[i]]
    depth, j, first = 1, i + 1, None
    while j < len(text):
        ch = text[j]
        if text[j - 1] == "\\":  # an escaped mark (a log's JSON string: "File \"app.py\"") is the text's own
            j += 1
            continue
        if ch == "`" and mark != "`":
            j = _skip_backticks(text, j)
            continue
        if mark == close and ch == mark:
            opens, closes = _opens(text, j), _closes(text, j)
            if closes:
                first = j if first is None else first
                depth -= 1
            elif opens:
                depth += 1
        elif ch == close and not (_word(text, j - 1) and _word(text, j + 1)):
            first = j if first is None else first
            depth -= 1
        elif ch == mark and mark != close:
            depth += 1
        if depth == 0:
            return j
        j += 1
    return first


def quotes(sentence: str, shortest: int = 2) -> list[Quoted]:
    """Every outermost quoted piece of `sentence`, in order, at least `shortest` characters long."""
    out, i = [], 0
    while i < len(sentence):
        ch = sentence[i]
        symmetric = PAIRS.get(ch) == ch
        if ch in PAIRS and (not symmetric or _opens(sentence, i)):
            end = _closing(sentence, i)
            if end is not None:
                text = sentence[i + 1:end].strip()
                if len(text) >= shortest:
                    out.append(Quoted(i, end + 1, text))
                i = end + 1
                continue
        i += 1
    return out


@dataclass(frozen=True)
class Said:
    """An error message a sentence quotes or states: its lines as the diagnosis reads them, and where each piece
    of it starts in the sentence (a quote's opening mark, or the first character of an unquoted message)."""

    text: str
    starts: tuple[int, ...]
    #: in our own wording (`COPIED_ERROR`), which grounding's rules read as they always have
    own: bool = False


#: a traceback's header, a frame line and the code under it: pieces of an error without an error word in them
TRACEBACK_PIECE = re.compile(r"^Traceback \(most recent call last\)|^File \"[^\"]+\", line \d+")
#: words before a quote that name a line of the message ("starting '…'", "the last line reads '…'"): such a
#: piece belongs to the error the sentence quotes even with no error word of its own (a traceback's code line)
LINE_CUE = re.compile(r"(?:\bstart(?:s|ing)?|\bbegin(?:s|ning)?|\bend(?:s|ing)?|\bline\b[^'\"`‘“«]{0,20}|\bfollowed"
                      r"|\bthen|\bsaying|\bsays|\breads?|\boutput|\bprints?|\bprinted|\bshows?|\bshowing|"
                      r"\bmessage|\berror|\bwith|\band|…|\.\.\.)[^'\"`‘“«]{0,12}$", re.I)
#: words before a quote that make it something searched or typed, not something a program printed
NOT_SAID = re.compile(r"\bsearch\w*\b[^'\"`‘“«]{0,30}$|\b(?:types?|typed|typing|inputs?|enters?)\s*:?\s*$|"
                      r"\b(?:titled|page|tab|query)\s*:?\s*$", re.I)
#: where a message stated without quotes starts: after words saying a program printed it ("the output:", "shows:",
#: "got", "fails with"), at a word that starts an error line
UNQUOTED_CUE = re.compile(
    r"(?:\boutput|\bshows?|\bshowing|\bshowed|\bsays?|\bsaying|\bsaid|\bprints?|\bprinted|\bprinting|\breads?|"
    r"\breturns?|\breturned|\breports?|\breported|\bgot|\bgets?|\bgetting|\bfail(?:s|ed|ing)? with|\bcomplains?"
    r"|\bdisplays?|\bdisplayed|\bthrows?|\bthrew|\braises?|\braised|\bemits?|\bemitted|\bend(?:s|ing)? with|"
    r"\bresult(?:s|ed)? in|\berror(?: message)?(?: is| was| reads| says)?|\bmessage(?: is| was)?|"
    r"\b(?:text|area|screen|stderr|stdout|response|reply)(?=\s*:)|->|→|=>|(?<=\n))"
    r"(?:\s+(?:the|this|an?|following|error|message|output|text|line)\b)*\s*:?\s+", re.I)
#: how an error line starts, stated without quotes: a capital ("Cannot connect…", "ModuleNotFoundError: …"), a
#: program or file and a colon ("psql: error: …", "main.go:8:2: …"), an error word, a path or a bracket; not an
#: English word going on with the sentence ("an error message starting '…'")
LINE_START = re.compile(r"[A-Z]|[\w.+/-]+:|(?:error|fatal|panic|warning|npm|thread|[a-z]\w*(?:Error|Exception))\b|"
                        r"[./~\[(<$]")
#: where an unquoted message ends: the next sentence about the person, or where the sentence goes on to say
#: where it was shown or what happened next
UNQUOTED_END = re.compile(
    r"\.?\s*$|\.\s+(?=(?:The|They|He|She|It|Then|After|Next|Afterwards|Later|I|We|This|So|Now)\b)|"
    r"\s+(?:in|from|on|inside) (?:the|a|an|his|her|their|my|its) (?:\w+ )?(?:terminal|console|shell|window|screen|"
    r"output|log|pane|tab)\b|\s+(?:when|while|after|before|upon) (?:running|executing|trying|typing|building|"
    r"installing|compiling|starting|he|she|they|the user|I|we)\b|\s+and (?:then|the user|they|he|she|copies|"
    r"selects|searches|opens|switches)\b")
#: the line breaks of a message flattened into one line, recognisable by how its lines start: Python's traceback
#: header, frames and exception line, npm's prefix, rustc's location and help lines, git's hints
LINE_STARTS = re.compile(
    r"(?<=\S)\s+(?=File \"[^\"]+\", line \d+|[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt): |"
    r"npm (?:ERR!|error) |--> |= (?:help|note): |(?:help|hint): |Caused by: |During handling of )")
#: a frame's location, after which its code line starts
FRAME = re.compile(r"File \"[^\"]+\", line \d+(?:, in [\w.<>]+)?")
#: a line break written out in a flattened message, and a quote mark escaped as in a JSON string (a log's line)
WRITTEN_BREAK = re.compile(r"\\n|\s*[⏎↵]\s*|<br\s*/?>|(?<=:)\s\|\s")
ESCAPED = re.compile(r"\\([\"'\\])")


def _breaks(flat: str) -> str:
    """A message written as one line with its line breaks back, where its lines' starts show them (a traceback
    pasted into a sentence: 'Traceback (most recent call last): File "…", line 1, in <module> import numpyy
    ModuleNotFoundError: …')."""
    flat = ESCAPED.sub(r"\1", WRITTEN_BREAK.sub("\n", flat).replace("\\t", "\t"))
    if "\n" in flat or len(flat) < 60:
        return flat
    cuts = {m.end() for m in LINE_STARTS.finditer(flat)} | {m.end() for m in FRAME.finditer(flat)}
    if flat.startswith("Traceback (most recent call last):"):
        cuts.add(len("Traceback (most recent call last):"))
    lines, at = [], 0
    for cut in sorted(c for c in cuts if 0 < c < len(flat)):
        lines.append(flat[at:cut].strip())
        at = cut
    lines.append(flat[at:].strip())
    return "\n".join(ln for ln in lines if ln)


def as_printed(parts: list[str]) -> str:
    """The quoted lines of a message as its program printed them: a traceback's frame indented and its code under
    it more (the sentence flattened their indentation), and a command under the line announcing it ("…run the
    following command:"), so the rules that read a frame or an announced command find them."""
    lines = []
    for i, part in enumerate(parts):
        frame = part.startswith('File "')
        code = i > 0 and (parts[i - 1].startswith('File "') or parts[i - 1].endswith(":")) and not frame
        lines.append(("  " if frame else "    " if code else "") + part)
    return "\n".join(lines)


def _own(sentence: str) -> list[tuple[tuple[int, int], Said]]:
    """Our own sentence for a copied error ("copies an error message starting '…', saying '…' and ending '…'
    from …"): its quoted lines, read whole (the quotes it holds are the message's own)."""
    out = []
    for m in COPIED_ERROR.finditer(sentence):
        middle = re.findall(r", saying '(.+?)'(?=, saying '|$)", m["saying"] or "")
        parts = [p.strip() for p in (m["start"], *middle, m["end"] or "") if p and p.strip()]
        out.append((m.span(), Said(as_printed(parts), (m.start("start") - 1,), own=True)))
    return out


def unquoted_error(sentence: str, quoted: list[Quoted]) -> tuple[int, str] | None:
    """An error message stated without quotes around it ("The terminal shows: error: could not compile `app`",
    "got ModuleNotFoundError: No module named 'numpyy'"): (where it starts, its text), or None."""
    inside = [(q.start, q.end) for q in quoted]
    for cue in UNQUOTED_CUE.finditer(sentence):
        start = cue.end()
        if any(a <= cue.start() < b for a, b in inside) or not LINE_START.match(sentence, start):
            continue
        end = next(m.start() for m in UNQUOTED_END.finditer(sentence, start) if m.start() > start
                   and not any(a < m.start() < b for a, b in inside))
        text = sentence[start:end].strip()
        if ERROR_HINT.search(text) and len(text) >= 8:
            return start, text
    return None


def _piece(sentence: str, q: Quoted) -> str | None:
    """Whether the quote `q` can be a piece of an error message: 'error' when it names one by itself, 'line' when
    only the words before it say it is a line of one, None when it is something else (an address, a command run,
    a search, a typed line)."""
    before = sentence[max(0, q.start - 60):q.start]
    if URL.fullmatch(q.text) or RUN_CUE.search(before) or NOT_SAID.search(before):
        return None
    if ERROR_HINT.search(q.text) or KEY_LINE.search(q.text) or TRACEBACK_PIECE.match(q.text):
        return "error"
    return "line" if LINE_CUE.search(before) else None


def said_errors(sentence: str) -> list[Said]:
    """The error messages a sentence quotes or states, each as the lines it gives of it, whatever the wording:
    our own sentence for a copied error (one message each), else every piece of an error message in the sentence
    (its quoted lines, nested and typographic quotes read whole, the first and last lines, the whole message, or
    the message unquoted after "output:" or "got"), in order, as one message."""
    own = _own(sentence)
    said = [s for _, s in own]
    spans = [span for span, _ in own]
    found = [q for q in quotes(sentence) if not any(a <= q.start < b for a, b in spans)]
    loose = unquoted_error(sentence, found)
    if loose is not None and any(a <= loose[0] < b for a, b in spans):
        loose = None
    pieces: list[tuple[int, str, str]] = []
    for q in found:
        if loose is not None and loose[0] <= q.start < loose[0] + len(loose[1]):
            continue  # a name quoted inside the unquoted message ("No module named 'numpyy'")
        kind = _piece(sentence, q)
        if kind is not None:
            pieces.append((q.start, kind, q.text))
    if loose is not None:
        pieces.append((loose[0], "error", loose[1]))
    pieces.sort()
    if any(kind == "error" for _, kind, _ in pieces):
        lines = [ln.strip() for _, _, text in pieces for ln in _breaks(text).splitlines() if ln.strip()]
        said.append(Said(as_printed(lines), tuple(start for start, _, _ in pieces)))
    return said


#: a command line stated without quotes after words saying it was run ("I ran python3 fetch.py and got …",
#: "Running psql -U postgres fails with: …"): its words up to where the sentence goes on
UNQUOTED_RUN = re.compile(
    r"\b(?:ran|runs?|running|typed|types|typing|entered|enters|executed|executes|executing)\s+"
    r"(?P<line>(?:sudo\s+)?(?:\.{0,2}/)?(?!(?:into|the|a|an|it|this|that|out|up|across|over|some|to|my|his|her|"
    r"their|our|its|command|commands|again|fine|in|on|at|with|without|and)\b)[a-z][\w.+/-]*"
    r"(?:\s+(?!(?:and|but|then|in|on|inside|from|fails?|failed|gives?|gave|prints?|printed|shows?|showed|says?|"
    r"said|returns?|returned|got|gets?|results?|which|that|only|to|with|errors?|crashes|crashed|answers?|"
    r"answered|complains?|complained|reports?|reported|outputs?)\b)[^\s,;:]+)*)", re.I)


#: a command line after a shell's prompt ("$ make instal -> make: *** No rule…", "$ psql" on a line of its own),
#: up to an arrow, a line break, or the error line printed after it on the same line
PROMPT_LINE = re.compile(r"(?:^|(?<=[\s:]))\$ (?P<line>[^\n]+?)(?=\s*(?:->|→|=>|\n|$)|\s+(?:[\w./-]+:\d+:|"
                         r"[\w.-]+: (?:error|fatal)|Traceback\b))", re.M)


def unquoted_command(sentence: str) -> str | None:
    """The command line a sentence says was run without quoting it, outside any quote and any error message it
    states: what the error came from, as a typed line is live."""
    found = quotes(sentence)
    loose = unquoted_error(sentence, found)
    outside = [(q.start, q.end) for q in found] + ([(loose[0], loose[0] + len(loose[1]))] if loose else [])
    for m in [*PROMPT_LINE.finditer(sentence), *UNQUOTED_RUN.finditer(sentence)]:
        if not any(a <= m.start() < b for a, b in outside):
            return m["line"].rstrip(".")
    return None
