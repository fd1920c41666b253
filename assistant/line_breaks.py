"""Lines broken where the text they came from broke them, joined back: a terminal's long lines its window wrapped,
a paragraph wrapped at a width by a PDF form, a mail or a page (within a sentence, never between a message's
lines, a table's rows or a log's records), and an outliner's one block per pasted line."""

from __future__ import annotations

import re

from .code_blocks import marked_runs
from .quotes import error_led, writers_line

#: a shell's prompt on a screen ('dev@box:~/app$', 'ana@mbp notes %', Windows's 'C:\Users\ana>' and
#: 'PS C:\src>'): the text is a terminal's
SHELL_PROMPT = re.compile(r"^(?:[\w.-]+@[\w.-]+(?::\S*|\s\S+)\s?[$#%]|(?:PS )?[A-Z]:\\[^>\n]{0,80}>)", re.M)
#: a terminal window's size in its title ('zsh — 80×24'): the column its lines wrap at
WINDOW_SIZE = re.compile(r"\b(\d{2,3})[×x]\d{2,3}\b")


#: a quote in typographic marks opened inside a line of prose and closed on a later line: the writer's text was
#: wrapped (a PDF's or a mail's paragraph), not a message printed on lines of its own
WRAPPED_QUOTE = re.compile(r"^[^\n“]*[a-z][^\n“]* “[^”\n]+\n[^”]*”", re.M)


def reflowed(text: str) -> str:
    """The paragraphs of prose wrapped at a width across a quoted message (“ERROR: permission\ndenied for …”)
    as the lines the writer wrote: each such paragraph, none of its lines indented, joined into one line."""
    parts = re.split(r"(\n[ \t]*\n)", text)
    for i, part in enumerate(parts):
        lines = part.split("\n")
        if len(lines) >= 2 and WRAPPED_QUOTE.search(part) and not any(ln[:1] in " \t" for ln in lines if ln):
            parts[i] = " ".join(ln.strip() for ln in lines)
    return "".join(parts)


#: the end of a line a paragraph's wrapping cut: a word, no sentence's or clause's end
CUT_END = re.compile(r"[\w'`’)\]]$")
#: the start of a line that goes on with the one above it: a small word (no capital, no 'error:', no path, no
#: file's or a log's name), or a quote going on
GOES_ON = re.compile(r"(?:[a-z][a-z'’-]*|(?!```)[`'‘(][^\s:]*)(?:[\s,.;)]|$)")


#: a table's row or a padded line: words two spaces apart or more, no wrapped prose
COLUMNS = re.compile(r"\S[ \t]{2,}\S")


def _marks(line: str) -> str:
    """What a line starts with before its words: its indentation, a reply's quote marks."""
    return line[:len(line) - len(line.lstrip(" \t>|"))]


def rewrapped(text: str) -> str:
    """A text wrapped at a width by what it was written with (a PDF form's box, a mail, a page) with the lines
    of each wrapped sentence joined back: a line within 15 characters of the text's longest (and of 60 or more;
    another line as indented is too) that ends inside a sentence, and the next, as indented (and as quoted) as
    it, going on with a small word that starts no two other lines (a log's lines start alike). Message lines stay
    apart: a line that starts as one ('error: …', 'main.go:6:2: …') is never joined to the one above, nor a
    table's rows (their columns apart by two spaces or more)."""
    lines = text.split("\n")
    width = max(len(ln) for ln in lines)
    full = [_marks(ln) for ln in lines if len(ln) >= max(60, width - 15)]
    if width < 70 or len(full) < 3:
        return text  # (wrapped at a width: three lines or more end near it)
    starts: dict[str, int] = {}  # how many lines start with each word (a log's lines start alike: 'nox > …')
    for ln in lines:
        if ln.strip():
            starts[ln.split(None, 1)[0]] = starts.get(ln.split(None, 1)[0], 0) + 1
    out: list[str] = []
    for ln in lines:
        above = out[-1] if out else ""
        mark = _marks(above)
        if len(above) >= max(60, width - 15) and CUT_END.search(above) and ln.strip() and full.count(mark) >= 2 \
                and _marks(ln) == mark and GOES_ON.match(ln.strip()) \
                and starts.get(ln.split(None, 1)[0], 0) < 2 \
                and not error_led(ln.strip()) and not writers_line(ln.strip()) \
                and not COLUMNS.search(above.strip()) and not COLUMNS.search(ln.strip()):
            out[-1] = above + " " + ln.strip()
        else:
            out.append(ln)
    return "\n".join(out)


#: an outline's or a list's item: its indentation, its bullet
BULLET = re.compile(r"^(?P<indent>[ \t]*)[-*•◦][ \t]+(?=\S)", re.M)


def unbulleted(text: str) -> str:
    """Runs of three list items or more at one indentation, one of them a message's line (an outliner that put
    each pasted line in a block of its own: '- Traceback …', '- File "…"', '- ModuleNotFoundError: …'), as the
    lines they are, without their bullets."""
    lines = text.split("\n")
    for run in marked_runs([BULLET.match(ln) for ln in lines]):
        if len(run) >= 3 and any(error_led(lines[k][m.end():].strip()) for k, m in run):
            for k, m in run:
                lines[k] = m["indent"] + lines[k][m.end():]
    return "\n".join(lines)


def _mid_word(line: str, below: str) -> bool:
    """Whether `below` may go on with `line` where a window wrapped it: no capital, indent or line's start of its
    own (one space before a small letter is the space the window wrapped at), not started as `line` is (a log's
    records start alike: '[lint:L2:0s] …', '[lint:L3:0s] …'), no prompt of the shell's, and `line` no rule drawn
    across the window."""
    return re.match(r"[^\sA-Z]| [a-z]", below) is not None and below[:2] != line[:2] \
        and re.fullmatch(r"(.)\1*", line.strip()) is None \
        and not SHELL_PROMPT.match(below)  # (a rule across the window: '────────'; the shell's next prompt)


def unwrapped(text: str) -> str:
    """A terminal's screen with its long lines joined back where the window wrapped them ('… found for struct
    `Stdout` in the current s' / 'cope'): at the width its title gives, or, on a screen with a shell's prompt, at a
    usual terminal's width (80, 100, 120 columns) that its longest lines fill exactly (a table's rows, padded alike,
    are no wrapped lines)."""
    lines = text.split("\n")
    longest = max(len(ln) for ln in lines)
    titled = WINDOW_SIZE.search(text)
    width = int(titled[1]) if titled else longest
    # (a phone's or a pane's narrow width, no usual one: known by two lines or more that fill it exactly, each
    # going on mid-word on a shorter next line; a table's rows, padded alike, are all as long)
    narrow = sum(len(a) == longest and _mid_word(a, b) and len(b) < longest
                 for a, b in zip(lines, lines[1:], strict=False)) >= 2
    if width < 40 or (not titled and not narrow
                      and (width < 60 or width not in (80, 100, 120) or not SHELL_PROMPT.search(text))):
        return text
    # a screen's copy with every line padded with spaces to the width (GNU screen's hardcopy): a line whose
    # text reaches the last column or the one before it (the window wrapped it at a space) is a wrapped one
    padded = sum(len(ln) == width and ln.endswith(" ") for ln in lines) * 2 > sum(bool(ln.strip()) for ln in lines)
    out: list[str] = []
    full = False
    for ln in lines:
        # (without a title's width, only where the next line goes on mid-word, as no line of its own starts)
        if out and full and ln.strip() and (titled or _mid_word(out[-1], ln)):
            out[-1] += (" " if padded else "") + (ln.rstrip() if padded else ln)
        else:
            out.append(ln.rstrip() if padded else ln)
        full = len(ln.rstrip()) >= width - 1 if padded else len(out[-1]) == width and not padded
    return "\n".join(out)


#: where a line starts that is a line of its own, never the rest of the one above: a message's (checked apart), a
#: stack frame's, a prompt's, a list's item, a label's ('Caused by: …' is a message's own line)
OWN_START = re.compile(r"(?:at |File \"|\$ |[-*•] |\d{1,2}[.)] |Caused by: |\^|>)")


def refilled(text: str) -> str:
    """A mail's body hard-wrapped by the mail program (at 60 to 80 columns) with each wrapped line joined back:
    a line that ends within 40 columns of the width, where the next line's first word would not have fitted
    (the program broke there for it), the next line at the margin, no longer than the width (the program wrapped
    it too) and no line of its own ('… NoClassDefFoundError: App (wrong name:' / 'com/acme/orders/App)'). The
    width is the longest line of 80 columns or less: a paragraph the writer did not wrap is longer."""
    lines = text.split("\n")
    width = max((len(ln) for ln in lines if len(ln) <= 80), default=0)
    if width < 60:
        return text
    out: list[str] = []
    above = ""  # the line above as the mail program wrote it
    for ln in lines:
        word = ln.split(" ", 1)[0]
        if word and out and not ln[0].isspace() and above.strip() and len(ln) <= width \
                and width - 40 <= len(above) <= width < len(above) + 1 + len(word) \
                and not OWN_START.match(ln) and not error_led(ln.strip()):
            out[-1] = out[-1].rstrip() + " " + ln
        else:
            out.append(ln)
        above = ln
    return "\n".join(out)

