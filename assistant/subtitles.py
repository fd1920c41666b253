"""A screencast's subtitles (SRT or WebVTT) as the transcript they hold: a captioner wraps what was said or shown
at about 42 characters and splits it over numbered, timed cues, so an error read out in a video arrives as
"TypeError: can only" and "concatenate str (not "int") to str" two lines apart. Grounding reads a message by its
lines, so the cues' numbers, timings and wrapping are taken out before anything else reads the text.

Each cue's lines are joined by spaces; a cue goes on with the line before it unless it starts a new sentence
(`_goes_on`)."""

from __future__ import annotations

import re

#: a cue's timing line: '00:12:02,654 --> 00:12:05,509' (SRT) or '00:02:52.342 --> 00:02:55.387 align:start'
TIMING = re.compile(r"^[ \t]*(?:\d+:)?\d\d:\d\d[,.]\d{3}[ \t]+-->[ \t]+(?:\d+:)?\d\d:\d\d[,.]\d{3}\b[^\n]*$", re.M)
#: a cue's number (SRT) or the file's header (WebVTT), on a line of its own
NOT_SAID = re.compile(r"^[ \t]*(?:\d+|WEBVTT\b.*|NOTE\b.*)[ \t]*$")
#: the speaker a meeting's captions name before each cue ('Ana Ruiz: ', WebVTT's '<v Ana Ruiz>')
SPEAKER = re.compile(r"^(?:<v(?:\.[\w.-]+)?[ \t]+[^>\n]{1,40}>|[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}: )[ \t]*")


def transcript(text: str) -> str:
    """`text` with its subtitle cues as lines of a transcript when it holds two timed cues or more, else unchanged."""
    if len(TIMING.findall(text)) < 2:
        return text
    first = TIMING.search(text)
    assert first is not None
    head = " ".join(ln.strip() for ln in text[:first.start()].splitlines() if ln.strip() and not NOT_SAID.match(ln))
    lines = [head] if head else []
    cues = []
    blocks = TIMING.split(text[first.start():])[1:]
    trailer = ""
    for i, block in enumerate(blocks):
        # a cue ends at a blank line: after the last one, what follows is the page's (a talk's notes), as written
        cue, *rest = re.split(r"\n[ \t]*\n", block.strip(), maxsplit=1)
        if i == len(blocks) - 1 and rest:
            trailer = rest[0]
        said = [ln.strip() for ln in cue.splitlines()]
        while said and NOT_SAID.match(said[-1]):  # the next cue's number
            said.pop()
        cues.append(" ".join(ln for ln in said if ln))
    cues = [cue for cue in cues if cue]
    if len(cues) >= 2 and all(SPEAKER.match(cue) for cue in cues):  # a meeting's captions: who spoke is no words said
        cues = [SPEAKER.sub("", cue, count=1) for cue in cues]
    for cue in cues:
        if not cue:
            continue
        if lines and _goes_on(lines[-1], cue):
            lines[-1] += " " + cue
        else:
            lines.append(cue)
    return "\n".join(lines) + ("\n\n" + trailer if trailer.strip() else "")


def _goes_on(line: str, cue: str) -> bool:
    """Whether `cue` goes on with the line before it: it starts with no capital ('concatenate str …' after
    'TypeError: can only'), or the line left a quote or a bracket open ('You can see here: "npm ERR! … stack')."""
    return not cue[0].isupper() or line.count('"') % 2 == 1 or line.count("[") > line.count("]") \
        or line.count("(") > line.count(")")
