"""Dictated text with its spoken punctuation written out: a voice note or a speech recogniser's transcript says
"NameError colon name quote os unquote is not defined next line …" where the screen showed `NameError: name 'os'
is not defined` on a line of its own. Grounding reads a quoted error by its marks and lines, so the spoken
marks are turned back into the characters they name before anything else reads the text.

Only a text that plainly is dictated is touched (a quote spoken open and closed, a line break or the message's
end spoken (not pip's printed "[end of output]"), an 'um,', or two spoken marks at least): "colon" or "period" said once in a sentence is an English
word, and so is "a comma" however often it is said."""

from __future__ import annotations

import re

#: a quote spoken open and closed ('quote os unquote', 'open quote start close quote'): what it holds, quoted
SPOKEN_QUOTE = re.compile(r"\b(?:open |begin )?quote (?P<text>.+?) (?:unquote|end quote|close quote)\b|"
                          r"\bbacktick (?P<code>.+?) backtick\b", re.I)
#: not after a word that makes the mark's name a noun ('Perhaps you forgot a comma?', 'expected colon')
NAMED = r"(?<!\ba)(?<!\ban)(?<!\bthe)(?<!\bmissing)(?<!\bexpected)(?<!\bextra)(?<!\bno)"
#: the spoken marks with the characters they name (the space before a closing mark goes, as written)
MARKS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.I), w) for p, w in (
    (r"[ \t]*\b(?:new|next) (?:line|paragraph)\b[ \t]*,?[ \t]*", "\n"),
    (r"[ \t]*(?<!\[)\bend of (?:error|message|output|quote)\b(?!\])[ \t]*\.?", ""),
    (NAMED + r" \bsemicolon\b", ";"),
    (NAMED + r" \bcolon\b", ":"),
    (NAMED + r" \bcomma\b", ","),
    (NAMED + r" \b(?:period|full stop)\b(?=\s|$)", "."),
    (NAMED + r" \bquestion mark\b", "?"),
    (NAMED + r" \bexclamation (?:mark|point)\b", "!"),
    (r"[ \t]*\bopen (?:square )?bracket\b[ \t]*", "["),
    (r"[ \t]*\bclose (?:square )?bracket\b", "]"),
    (r"\bopen (?:paren|parenthesis)\b ?", "("),
    (r" ?\bclose (?:paren|parenthesis)\b", ")"),
))
#: a speaker's hesitations ('um,', 'uh,'): no words of what was said
FILLER = re.compile(r"\b(?:um+|uh+|erm+|er)\b,?[ \t]*", re.I)
#: how a speaker goes on to the next line read out ('… pritn(hello), then ^^^^^, then NameError …'): a line
#: break in a dictation, where prose's ', then' is no sign of one
NEXT_LINE = re.compile(r", then (?=\S)")


def _spoken_marks(text: str) -> int:
    """How many spoken marks `text` holds."""
    return sum(len(p.findall(text)) for p, _ in MARKS)


#: what only a dictation says: a quote spoken open and closed, a line break or the message's end spoken, a
#: speaker's hesitation
DICTATED = re.compile(SPOKEN_QUOTE.pattern + r"|\b(?:new|next) line\b|(?<!\[)\bend of (?:error|message|output)\b(?!\])|"
                      r"\b(?:um+|uh+),", re.I)


def written(text: str) -> str:
    """`text` with its spoken punctuation as characters when it is dictated, else unchanged."""
    if not (DICTATED.search(text) or _spoken_marks(text) >= 2):
        return text
    text = SPOKEN_QUOTE.sub(lambda m: "'" + m["text"] + "'" if m["text"] else "`" + m["code"] + "`", text)
    for pattern, mark in MARKS:
        text = pattern.sub(mark, text)
    return NEXT_LINE.sub("\n", FILLER.sub("", text))
