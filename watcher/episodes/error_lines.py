"""What of a copied error a sentence quotes: whether a copy is an error message (`ERROR_HINT`), the lines of its
middle worth quoting (`key_lines`: a traceback's failing frames, the line naming the error, what to do, what
failed), a long line cut in its middle (`quote_ends`), and whether a quote is from a given text (`quoted_in`). A
session replayed from its sentences alone has these lines, and the specific help is read from them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: lines of a copied error quoted between its first and last, and the length of each quoted line: a tool's
#: message is often one long line whose cause is at its end ("…failed: FATAL: role "ana" does not exist"), so a
#: longer line keeps its start and its end (`quote_ends`)
KEY_LINES, ERROR_QUOTE_CHARS = 4, 240
#: where a sentence of a long line ends ("… {node-role…: }. preemption: …"); the end kept after it is at least
#: MIN_TAIL characters, for the end often says the cause
SENTENCE_END, MIN_TAIL = re.compile(r"[.;!?](?=\s)"), 40

#: a status word that says a program failed, in a table or a state line (a pod's, a process's), and a program's
#: numbered error line (curl's "curl: (60) …")
FAILURE_STATUS = (r"\w*BackOff\b|\bOOMKilled\b|\bEvicted\b|\bcore dumped\b|\bSegmentation fault\b|"
                  r"\bFailed[A-Z]\w*|\b(?:not|isn't|is not) (?:allowed|permitted)\b|\bforbidden\b|"
                  r"^[a-z][\w.+-]*: \(\d+\) ")


#: what marks a copied text as an error message: exception names and the words tools print when they fail
#: (npm's "ERR!", git's "fatal:", apt's "E:", a shell's "command not found", "Permission denied"...)
ERROR_HINT = re.compile(
    r"Traceback \(most recent call last\)|\b\w*(Error|Exception)\b|\berror\b|\bfailed\b|\bpanic\b|\bFATAL\b|"
    r"\bERR!|^E: |\b(?:command )?not found\b|\bno such file or directory\b|\bpermission denied\b|\brejected\b|"
    r"\bCONFLICT\b|\bunable to\b|\bnot (?:created|installed|available) successfully\b|\bcannot\b|\bcan't\b|"
    + FAILURE_STATUS,
    re.IGNORECASE | re.MULTILINE,
)


ERROR_NAME = re.compile(r"\b\w*(Error|Exception)\b|\berror\b", re.IGNORECASE)


#: a line in the middle of a copied error that says what went wrong or what to do (the linker's "undefined reference
#: to `sqrt'" between "in function `main'" and "ld returned 1 exit status"; a tool's "hint:"): quoted in the
#: sentence, so that a session replayed from its sentences alone has the lines the specific help is read from
KEY_LINE = re.compile(
    r"\b\w*(?:Error|Exception)\b|\berror\b|\bfatal\b|\bfailed\b|\bdenied\b|\brefused\b|\bnot found\b|"
    r"\bno such\b|\bundefined\b|\bunresolved\b|\bmissing\b|\bunknown\b|\binvalid\b|\bnot supported\b|"
    r"\bdoes(?: not|n't) exist\b|\bexpired\b|\btoo open\b|\bhas changed\b|\bno rule\b|\bcannot\b|\bcan't\b|"
    r"\bcould not\b|\bunable to\b|\bis not\b|\bnot allowed\b|\bmasked\b|\bhelp:|\bhint:|\bdid you mean\b|"
    r"\bto add it\b|(?:\brun|\btry|\bwith)\s+`|\bconflicts?\b|\bpermissions?\b|\bno longer\b|\bdeprecated\b|"
    r"\bdoes(?: not|n't) match\b|\bno\b[^\n]*\bmatch(?:es)?\b|\bmismatch|\b(?:is|are) required\b|"
    r"^\W*subject: |" + FAILURE_STATUS, re.IGNORECASE)  # (a certificate's name: what it is valid for)


#: an opaque id in a long line (a container's or a commit's hash): its head is enough to tell it
LONG_ID = re.compile(r"\b[0-9a-f]{20,}\b")


#: a line of a copied error that says what to do: rustc's `help:`, git's `hint:`, "did you mean", "try `…`"
DO_LINE = re.compile(r"^\s*(?:=\s*)?(?:help|hint|note: try)\b:?|\bdid you mean\b|\bto add it\b|"
                     r"(?:\brun|\btry|\bwith|\buse)\s+[`']|\bconsider\b|\bfollowing commands?\b|"
                     r"\byou (?:may |might )?need to\b|\brun:\s*$", re.IGNORECASE)


#: the code a compiler suggests under its help line ("1 + use std::io::Read;", "6 |     let mut total = 0;"),
#: and the marker line under a changed line ("|         +++")
SUGGESTED_CODE = re.compile(r"^\s*\d+\s*[+~|-]\s*\S")


#: a command set on a line of its own under the line announcing it ("    apt install python3.11-venv")
INDENTED_COMMAND = re.compile(r"^(?: {2,}|\t)[a-z][\w.+-]*(?: +\S+)+\s*$")


#: javac's details under an error line ("  symbol:   class ArrayList", "  location: class Inventory")
DETAIL_LINE = re.compile(r"^\s+(?:symbol|location|required|found|reason)\s*:\s*\S")


#: a short line naming what the indented lines under it are about (ruby-build's "psych:", a tool's "Caused by:")
LABEL_LINE = re.compile(r"^\s*[\w.+/-]{1,40}:\s*$")


#: a traceback frame in an installed library or the standard library, not the person's code
LIBRARY_FRAME = re.compile(r'File "(?:<frozen |[^"]*/(?:site|dist)-packages/|[^"]*/lib/python\d[\d.]*/|'
                           r'[^"]*\\Lib\\)')


#: a copied error's last line that only says where its log is ("npm ERR! A complete log of this run can be found
#: in: …", Maven's "[ERROR] [Help 1] http…"): not quoted as its ending
LOG_POINTER = re.compile(r"\bcomplete log\b|\blog (?:file )?(?:is |can be found )?(?:at|in)\b|^\W*\[ERROR\] \[Help \d+\]|"
                         r"^\s*See (?:also )?\S*\.log\b", re.IGNORECASE)


CHANGE_MARKER = re.compile(r"^\s*\|\s*[+~^-]+[+~^\s-]*$")


def quote_ends(text: str, limit: int = ERROR_QUOTE_CHARS) -> str:
    """A line of an error, capped at `limit` by cutting its middle: the start names the tool and the error, the end
    often the cause ("docker: Error response from daemon: … port is already allocated")."""
    text = " ".join(text.replace("\t", " ").split())
    if len(text) <= limit:
        return text
    text = LONG_ID.sub(lambda m: m.group()[:12] + "\u2026", text)  # words before ids: they say what happened
    if len(text) <= limit:
        return text
    half = (limit - 3) // 2
    # a sentence ending past the middle ends the head instead: its clause ("had untolerated taint {…}") stays whole
    ends = [m.end() for m in SENTENCE_END.finditer(text, half, limit - MIN_TAIL - 3)]
    head = text[:ends[-1]].rstrip() if ends else text[:half].rstrip()
    tail = text[len(text) - (limit - 3 - len(head)):]
    if ends and " " in tail:  # after a whole sentence, the end starts at a whole word too
        tail = tail.split(" ", 1)[1]
    return head + " \u2026 " + tail.lstrip()


def quoted_in(quoted: str, text: str) -> bool:
    """Whether `quoted` (a `quote` or `quote_ends` of a line: cut at its end or its middle) is from `text`: its
    pieces around the ellipses are in `text` in order, ignoring case and spacing."""
    pieces = [" ".join(p.split()).lower() for p in quoted.split("\u2026")]
    flat, at = " ".join(text.split()).lower(), 0
    if not any(pieces):
        return False
    for piece in pieces:
        found = flat.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def _unstamped(line: str) -> str:
    """A log line without its timestamps and counters (klog's "E1128 09:14:03.342713 7559 …")."""
    return re.sub(r"\d[\d:.T-]*", "#", line)


def key_lines(lines: list[str], first: str = "") -> list[str]:
    """The lines of a copied error's middle worth quoting, at most `KEY_LINES`, in their order, so that a session
    replayed from its sentences alone has what the specific help is read from:
    - a traceback's failing frames: the person's last `File "…", line N` and the code under it (where to fix it),
      then the last frame's, when it is a library's (where it failed; only the code when a frame is the copy's
      `first` line, already quoted);
    - else the first line naming an error (other than `first`), then the first line saying what to do
      (`DO_LINE`) with the code a compiler suggests under it and its change marker, then other lines saying what
      failed (`KEY_LINE`)."""
    whole = [first, *lines] if first else lines
    frames = [i for i, ln in enumerate(whole) if ln.lstrip().startswith('File "')]
    return _frame_lines(whole, frames, first) if frames else _message_lines(lines, first)


def _frame_lines(whole: list[str], frames: list[int], first: str) -> list[str]:
    """A traceback's quoted frames: the person's last one (where their code called in) before the library's last
    one (where it failed), each with the code under it."""
    own = [i for i in frames if not LIBRARY_FRAME.search(whole[i])]
    picks = ([own[-1]] if own and own[-1] != frames[-1] else []) + [frames[-1]]
    quoted = []
    for at in picks:
        under = whole[at + 1] if at + 1 < len(whole) and not whole[at + 1].lstrip().startswith('File "') else ""
        quoted += [ln.strip() for ln in (whole[at], under) if ln.strip() and ln.strip() != first.strip()]
    return quoted[:KEY_LINES]


class _Picks:
    """The lines of a message chosen so far, in at most `KEY_LINES`; a log's repeated line counts once, whatever
    its timestamp, and a stack line (`at …`) never."""

    def __init__(self, lines: list[str], first: str):
        self.lines, self.chosen = lines, list[int]()
        self.seen = {_unstamped(first.strip())}

    def take(self, i: int | None) -> None:
        if i is not None and i not in self.chosen and len(self.chosen) < KEY_LINES:
            self.chosen.append(i)
            self.seen.add(_unstamped(self.lines[i].strip()))

    def fresh(self, i: int) -> bool:
        return _unstamped(self.lines[i].strip()) not in self.seen and not self.lines[i].lstrip().startswith("at ")

    def first(self, matches: Callable[[str], Any]) -> int | None:
        return next((i for i, ln in enumerate(self.lines) if matches(ln) and self.fresh(i)), None)


def _message_lines(lines: list[str], first: str) -> list[str]:
    """A message's quoted lines: the first naming an error, its detail, what to do (with the code a compiler
    suggests and its change marker), then the other lines saying what failed, each with its short label."""
    picks = _Picks(lines, first)
    picks.take(picks.first(lambda ln: bool(ERROR_NAME.search(ln) and KEY_LINE.search(ln))))
    picks.take(picks.first(DETAIL_LINE.match))
    todos = [i for i, ln in enumerate(lines) if DO_LINE.search(ln) and picks.fresh(i)]
    with_code = [(i, j) for i in todos if (j := _suggested_code(lines, i)) is not None]
    if with_code:  # the help line that shows its code, its code and the change marker under it
        todo, code = with_code[0]
        picks.take(todo)
        picks.take(code)
        if code + 1 < len(lines) and CHANGE_MARKER.match(lines[code + 1]):
            picks.take(code + 1)
    elif todos:
        picks.take(todos[0])
    for i, ln in enumerate(lines):
        if KEY_LINE.search(ln) and picks.fresh(i):
            if i and LABEL_LINE.match(lines[i - 1]) and len(picks.chosen) + 2 <= KEY_LINES:
                picks.take(i - 1)  # what the line is about ("psych:" above "Could not be configured")
            picks.take(i)
    return [lines[i].strip() for i in sorted(picks.chosen)]


def _suggested_code(lines: list[str], i: int) -> int | None:
    """Where the code a compiler suggests under the help line `i` is (its next lines, past blank and `|` ones), or
    the command a line announces on its own indented line."""
    for j in range(i + 1, min(i + 6, len(lines))):
        if SUGGESTED_CODE.match(lines[j]) or INDENTED_COMMAND.match(lines[j]):
            return j
        if lines[j].strip() and not lines[j].lstrip().startswith("|"):
            return None
    return None
