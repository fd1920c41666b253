"""A message sent in parts: numbered segments ('(1/3) …', '(2/3) …') a chat, a pager or a text message split for its
length, joined back into the message; and the texts of a phone's SMS backup (SMS Backup & Restore's XML, one
`<sms … body="…"/>` per message), read as the lines they are."""

from __future__ import annotations

import html
import re

#: a part of a message a chat or a text message split for its length ('[49:37] pavel: (1/2) building …', an SMS's
#: '(2/2) tabase "inventory" does not exist'): what comes before its number, and its text
PART_LINE = re.compile(r"^(?P<head>[^\n(]{0,80}?)\((?P<k>\d{1,2})/(?P<n>\d{1,2})\)[ \t]?(?P<text>[^\n]*)$", re.M)


def parts_joined(text: str) -> str:
    """`text` with a message's numbered parts (1/n to n/n, other lines between them) joined on the first part's
    line. A part cut inside a word goes on without a space: where the first part ends with a word of one or two
    letters ('FATAL: da', 'tabase …'), or any word when the parts were cut at a length (a gateway's segments)."""
    lines = text.split("\n")
    parts = [PART_LINE.match(ln) for ln in lines]
    for i, first in enumerate(parts):
        if first is None or first["k"] != "1" or int(first["n"]) < 2:
            continue
        by_length = _cut_by_length(first, parts[i + 1:i + 12])
        joined, want, taken = first["text"].rstrip(), 2, []
        last = first["text"]  # the last part as it was cut (a space at its end: cut between words)
        for j in range(i + 1, min(len(lines), i + 12)):
            part = parts[j]
            if part is None or part["n"] != first["n"] or int(part["k"]) != want:
                continue
            piece = part["text"]
            if by_length and re.search(r"\w$", last) and re.match(r"\w", piece):
                joined += piece  # cut where the length ran out, inside a word: the word goes on
            else:
                cut = re.search(r"(?:^|\s)[a-z]{1,2}$", joined) and re.match(r"[a-z]", piece)
                joined += ("" if cut or re.match(r"[.,;:)/\]'\"]", piece) or re.search(r"[(/\[.-]$", joined)
                           else " ") + piece.strip()
            taken.append(j)
            last = piece
            want += 1
            if want > int(first["n"]):
                break
        if want > int(first["n"]):
            lines[i] = first["head"] + joined
            for j in taken:
                parts[j] = None
                lines[j] = "\0"
    return "\n".join(ln for ln in lines if ln != "\0")


def _cut_by_length(first: re.Match[str], later: list[re.Match[str] | None]) -> bool:
    """Whether a message's parts were cut by a text message's length, not at words ('No such fil', 'e or
    directory'): every part but the last about as long as a text message."""
    n = int(first["n"])
    middle = [p for p in later if p is not None and p["n"] == first["n"] and 1 < int(p["k"]) < n]
    full = [_length(p) for p in [first, *middle]]
    # full, or nearly (a gateway trims the spaces at a cut); a chat's longer parts were cut at words
    return len(middle) == n - 2 and any(all(size - 10 <= k <= size for k in full) for size in SMS_SEGMENTS)


#: a text message's length, in characters: 160 in the GSM alphabet, 70 in UCS-2 (153 and 67 in each part of a
#: longer one, within the ten characters allowed)
SMS_SEGMENTS = (160, 70)


def _length(part: re.Match[str]) -> int:
    """A part's length from its number on ('(1/2) …')."""
    return len(part.group()) - len(part["head"])


#: a message of an SMS backup file: its body attribute
SMS = re.compile(r"^[ \t]*<sms\b[^\n>]*?\bbody=\"(?P<body>[^\"]*)\"[^\n]*$", re.M)


def sms_bodies(text: str) -> str:
    """`text` with each message of an SMS backup file (`<sms … body="…" …/>`) as its body's text."""
    return SMS.sub(lambda m: html.unescape(m["body"]), text)
