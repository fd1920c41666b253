"""Terminal text kept in another form, read back as the screen showed it: an asciinema recording (asciicast v2:
a JSON header, then `[time, "o", "text"]` events whose texts, in order, are what the terminal printed), a
unified diff of two logs (the new log is what the lines without a '-' say), an XML event log's elements, one line
each, and a log view listing the newest line first. Grounding reads a message by its
lines, so these are turned back into the lines before anything else reads the text."""

from __future__ import annotations

import json
import re
from collections import Counter

#: an asciicast event that printed to the terminal: [seconds, "o", "text"]
OUTPUT_EVENT = re.compile(r'^\[\s*\d+(?:\.\d+)?\s*,\s*"o"\s*,\s*(?P<text>".*")\s*\]\s*$', re.M)
#: a log view's line under its time ('2025-07-04 08:01:07.083\t…'), and the view's word that it lists the newest first
STAMPED = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\t")
NEWEST_FIRST = re.compile(r"\bnewest first\b", re.I)
#: a unified diff's file header and hunk header
DIFF_HEAD = re.compile(r"^--- [^\n]*\n\+\+\+ [^\n]*\n@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@", re.M)
#: a hunk header without the file header: a recorder that keeps only what changed between two screens writes its
#: own words between the `@@` ('@@ -4,1 +4,6 @@ Alacritty', '@@ GNOME Terminal | t=19:53:49 @@')
HUNK = re.compile(r"^@@ [^\n]*@@", re.M)
#: a line of a diff's body: added, removed, or kept as context
MARKED = re.compile(r"^[+-](?:[ \t]|$)")


def played(text: str) -> str:
    """`text` as the terminal showed it when it is an asciinema recording (two output events or more), the lines
    around the recording kept; else unchanged."""
    events = list(OUTPUT_EVENT.finditer(text))
    if len(events) < 2:
        return text
    shown = []
    for event in events:
        try:
            shown.append(json.loads(event["text"]))
        except ValueError:  # a cut-off event: what it printed is not known
            continue
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(shown)).replace("\r\n", "\n").replace("\r", "\n")
    before = text[:events[0].start()]
    before = "\n".join(ln for ln in before.splitlines() if not ln.lstrip().startswith('{"version"'))
    return (before.strip() + "\n" + screen if before.strip() else screen) + text[events[-1].end():]


def new_side(text: str) -> str:
    """`text` with a unified diff of two logs read as its newer log (context and added lines, their markers off;
    removed lines and headers out) when it holds one; else unchanged."""
    head = DIFF_HEAD.search(text)
    if head is None:
        head = HUNK.search(text) if "@@" in text else None
        # a hunk header alone is a diff when lines marked + or - follow it (two at least: no lone bullet)
        if head is None or sum(bool(MARKED.match(ln)) for ln in text[head.start():].splitlines()) < 2:
            return text
    body = text[head.start():].splitlines()
    # a recorder's own diff may put a space between the marker and the line ('+ $ make'): taken off with the
    # marker when every added line has it
    added = [ln for ln in body if ln.startswith("+") and not ln.startswith("+++") and ln.strip("+ \t")]
    cut = 2 if added and all(ln.startswith("+ ") for ln in added) else 1
    out = text[:head.start()].splitlines()
    for line in body:
        if line.startswith(("---", "+++", "@@", "-", "\\ No newline")):
            continue
        out.append(line[cut:] if line.startswith("+") else line[1:] if line[:1] == " " else line)
    return "\n".join(out)


#: an XML element holding text, on one line or several (`<line n="3">KeyError: 'x'</line>`, `<text>…</text>`)
ELEMENT = re.compile(r"(?:^[ \t]*)?<(?P<tag>[\w:.-]+)(?:\s[^<>]*)?>(?P<text>[^<>]*)</(?P=tag)>", re.M)  # (its XML indent off)
#: a line of tags alone (`<added count="5">`, `</a11y-event>`)
TAGS_ONLY = re.compile(r"^[ \t]*(?:<[^<>]+>[ \t]*)+$")
#: the first element of a text, and a name saying it is an event log's (`<a11y-event …>`, `<log>`, `<record>`)
ROOT_TAG = re.compile(r"\s*<([\w:.-]+)[\s>]")
EVENT_ROOT = re.compile(r"(?i)event|evt|log|record|capture|session|terminal|screen|output")
#: a tag of a web page, not of an event log
PAGE_TAG = re.compile(r"<(?:html|body|head|pre|div|span|p|br|code|table|tr|td|ul|li|a)\b", re.I)
#: the elements that hold what was typed: the command a terminal ran
TYPED_TAGS = frozenset({"command", "cmd", "input", "typed", "keys", "commandline", "command-line"})


def element_lines(text: str) -> str:
    """An XML event log (an accessibility recorder's `<line>` or `<text>` elements, its `<command>`) as the
    terminal showed it: each element's text, a command after a prompt's `$ `, the tags and their attributes out;
    left as it is unless it starts with a tag and holds lines (one element kind repeated, one holding several
    lines, or a command's) and no CDATA section (a record's fields, read by their names in `records`)."""
    root = ROOT_TAG.match(text)
    if root is None or not EVENT_ROOT.search(root[1]) or PAGE_TAG.search(text) or "<![CDATA[" in text:
        return text  # (a page's HTML, a feed or a document is read by what reads those: its markup says more)
    found = list(ELEMENT.finditer(text))
    counts = Counter(m["tag"] for m in found)
    if not any(counts[m["tag"]] > 1 or "\n" in m["text"].strip() or m["tag"].lower() in TYPED_TAGS for m in found):
        return text  # one element of each kind, a line each: a record's fields, read by their names (`records`)

    def shown(m: re.Match[str]) -> str:
        return ("$ " if m["tag"].lower() in TYPED_TAGS else "") + m["text"]

    return "\n".join(line for line in ELEMENT.sub(shown, text).split("\n") if not TAGS_ONLY.match(line))


#: the line tmux and screen draw between two panes side by side
PANE_BORDER = "│"


def side_by_side(text: str) -> str:
    """A terminal's capture of panes side by side (tmux's `capture-pane` of a split window: each line the left
    pane's, the border `│` in one column, the right pane's) as the panes' texts one after the other, left first;
    unchanged when no column holds the border on most lines."""
    lines = text.split("\n")
    columns: dict[int, int] = {}
    for line in lines:
        at = line.find(PANE_BORDER)
        if at > 0:
            columns[at] = columns.get(at, 0) + 1
    if not columns:
        return text
    column, count = max(columns.items(), key=lambda item: item[1])
    if count < 3 or count * 2 < sum(1 for line in lines if line.strip()):
        return text
    left, right = [], []
    for line in lines:  # (a line without the border runs across the window: the status line, a pane's rule)
        if len(line) > column and line[column] == PANE_BORDER:
            left.append(line[:column].rstrip())
            right.append(line[column + 1:].rstrip())
    panes = ["\n".join(pane).strip("\n") for pane in (left, side_by_side("\n".join(right)).split("\n"))]
    return "\n\n".join(pane for pane in panes if pane.strip())


def oldest_first(text: str) -> str:
    """A log view that lists the newest line first (Grafana's Explore, 'Newest first') with its timed lines in the
    order they were printed; else unchanged."""
    lines = text.split("\n")
    timed = [i for i, line in enumerate(lines) if STAMPED.match(line)]
    if len(timed) < 2 or not NEWEST_FIRST.search(text):
        return text
    for i, line in zip(timed, reversed([lines[i] for i in timed]), strict=True):
        lines[i] = line
    return "\n".join(lines)
