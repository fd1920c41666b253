"""Terminal text kept in another form, read back as the screen showed it: an asciinema recording (asciicast v2:
a JSON header, then `[time, "o", "text"]` events whose texts, in order, are what the terminal printed) and a
unified diff of two logs (the new log is what the lines without a '-' say), and a log view listing the newest
line first. Grounding reads a message by its
lines, so these are turned back into the lines before anything else reads the text."""

from __future__ import annotations

import json
import re

#: an asciicast event that printed to the terminal: [seconds, "o", "text"]
OUTPUT_EVENT = re.compile(r'^\[\s*\d+(?:\.\d+)?\s*,\s*"o"\s*,\s*(?P<text>".*")\s*\]\s*$', re.M)
#: a log view's line under its time ('2025-07-04 08:01:07.083\t…'), and the view's word that it lists the newest first
STAMPED = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\t")
NEWEST_FIRST = re.compile(r"\bnewest first\b", re.I)
#: a unified diff's file header and hunk header
DIFF_HEAD = re.compile(r"^--- [^\n]*\n\+\+\+ [^\n]*\n@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@", re.M)


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
        return text
    out = text[:head.start()].splitlines()
    for line in text[head.start():].splitlines():
        if line.startswith(("---", "+++", "@@", "-", "\\ No newline")):
            continue
        out.append(line[1:] if line[:1] in "+ " else line)
    return "\n".join(out)


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
