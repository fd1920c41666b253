"""Code blocks and inline code as other markups write them, made the Markdown fences and backticks grounding
reads: a lab report's LaTeX (`\\begin{verbatim}`, `\\begin{lstlisting}[…]`, `\\verb|…|`, `\\texttt{…}`), an Org
note's `#+begin_src`/`#+begin_example` blocks and its `#+RESULTS:` lines behind ': ', and a Jira or Confluence
comment's `{code}` and `{noformat}`, a page's or a wiki's HTML (`<pre>`, `<syntaxhighlight>`, `<code>`,
`<nowiki>`), and a post's block indented four spaces (Markdown's other code block). A
message quoted in such a block is then read whole, and the words around it
as the writer's, as they are in Markdown."""

from __future__ import annotations

import html
import re

#: a block's opening and closing lines in LaTeX, Org and Jira markup (with the options some of them take)
BLOCK = re.compile(
    r"^[ \t]*(?:\\begin\{(?:verbatim|Verbatim|lstlisting|minted)\}(?:\[[^\]\n]*\])?(?:\{[^}\n]*\})?|"
    r"\\end\{(?:verbatim|Verbatim|lstlisting|minted)\}|#\+(?:begin|BEGIN)_(?:src|SRC|example|EXAMPLE)\b[^\n]*|"
    r"#\+(?:end|END)_(?:src|SRC|example|EXAMPLE)\b|\{(?:code|noformat)(?::[^}\n]*)?\})[ \t]*$", re.M)
#: inline code: LaTeX's \verb|…| (any delimiter) and \texttt{…}, Jira's {{…}}
INLINE = re.compile(r"\\verb(?P<mark>[^\w\s])(?P<a>[^\n]+?)(?P=mark)|\\texttt\{(?P<b>[^{}\n]+)\}|"
                    r"\{\{(?P<c>[^{}\n]+)\}\}")
#: a page's or a wiki's code block in HTML: `<pre>`, MediaWiki's `<syntaxhighlight lang=…>` and `<source>`
HTML_BLOCK = re.compile(r"(?:</code>\s*)?<(?P<close>/?)(?:pre|syntaxhighlight|source)\b[^>\n]*>(?:\s*<code\b[^>\n]*>)?",
                        re.I)
#: inline code in HTML (`<code>…</code>`, `<tt>`, `<kbd>`, `<samp>`), on one line
HTML_INLINE = re.compile(r"<(?P<tag>code|tt|kbd|samp)\b[^>\n]*>(?P<d>[^\n]*?)</(?P=tag)>", re.I)
#: MediaWiki's mark that its text is not markup: no part of what it holds
NOWIKI = re.compile(r"</?nowiki\s*/?>", re.I)
#: a paste site's or a pager's line number before each line ('  4 KeyError: …', '4\tKeyError', '4 │ KeyError')
LINE_NUMBER = re.compile(r"^(?P<indent>[ \t]*)(?P<n>\d{1,5})(?P<box>[ \t]*[│┃][ ]?|\t| |$)")
#: a compiler's ' 4 | ' gutter, its message's own: a number before it is a line number only among lines numbered
#: without one
GUTTER = re.compile(r"[ \t]*\|")
#: a box drawn around a text (Terraform's diagnostics, a rich panel): a line of its border (its title in it), and
#: the border's side
BOX_RULE = re.compile(r"^[ \t]*[╷╵╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝─━═](?:[^\n]*[╷╵╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝─━═])?[ \t]*$")
BOX_SIDE = re.compile(r"^[ \t]*[│┃║] ?(?P<line>.*?)(?:[ \t]*[│┃║])?[ \t]*$")
#: the same box drawn in ASCII (a wiki's or a report's '+-----' rules, '| ' before each line): its side is a
#: compiler's gutter or a table's bar too, so lines count as framed only between two of its rules
ASCII_RULE = re.compile(r"^[ \t]*\+[-=+]{3,}\+?[ \t]*$")
ASCII_SIDE = re.compile(r"^[ \t]*\| ?(?P<line>.*?)(?:[ \t]+\|)?[ \t]*$")
#: an Org block's results: '#+RESULTS:' and the lines after it behind ': '
RESULTS = re.compile(r"^[ \t]*#\+RESULTS:[ \t]*\n(?P<lines>(?:[ \t]*:(?: [^\n]*)?(?:\n|$))+)", re.M | re.I)


#: a paragraph break: where a post's indented block may start or end
PARAGRAPH = re.compile(r"\n[ \t]*\n")


#: a page's or a saved terminal's markup that lays text out (rows, spans of colour), not code: four such tags or
#: more make a text an HTML document to be read as its text
LAYOUT_TAG = re.compile(r"</?(?:html|body|div|span|p|br|font|table|tr|td|th|li|ul|ol|h[1-6]|b|i|strong|em)\b[^>\n]*>",
                        re.I)
#: what of a document shows no text: comments, styles, scripts and the head
HIDDEN_MARKUP = re.compile(r"<!--.*?-->|<(?P<tag>style|script|head)\b[^>]*>.*?</(?P=tag)>", re.I | re.S)
#: a tag that starts a row or a block of its own (its text on a line of its own; the line break a writer put
#: before it too is that one)
BLOCK_TAG = re.compile(r"\n?<(?:br|div|p|tr|li|h[1-6]|table|ul|ol)\b[^>\n]*/?>", re.I)


def unmarked(text: str) -> str:
    """An HTML document's text (a terminal saved by ansi2html or xterm.js, a page copied with its markup): each
    row or block on a line of its own, a table's cells apart, the markup of colours and fonts left out; code's
    own tags (`<pre>`, `<code>`) stay for `fenced`, and the entities for the reader that decodes them."""
    text = HIDDEN_MARKUP.sub("", text)
    text = BLOCK_TAG.sub("\n", text)
    text = re.sub(r"</t[dh]>", "\t", text, flags=re.I)
    return LAYOUT_TAG.sub("", re.sub(r"</?(?:a|img|meta|link|section|article|main|nav|header|footer)\b[^>\n]*>", "",
                                     text, flags=re.I))


#: a news feed's elements (RSS's and Atom's) around an entry's text, and its unparsed sections
FEED_TAG = re.compile(r"<!\[CDATA\[|\]\]>|</?(?:rss|channel|feed|item|entry|title|description|content|summary|link|guid|"
                      r"pubDate|published|updated|id|author|name|uri|category|dc:creator)\b[^>\n]*>", re.I)


def unfed(text: str) -> str:
    """A news feed's entry as its text: the feed's elements out (each on a line of its own), and the HTML an
    Atom entry escapes in its content written back, so its `<pre>` and `<code>` read as the page shows them."""
    text = FEED_TAG.sub("\n", text)
    return html.unescape(text) if "&lt;" in text else text


def fenced(text: str) -> str:
    """`text` with its code blocks as Markdown fences and its inline code in backticks (unchanged when it has
    none)."""
    if "<" in text and re.search(r"<(?:rss|feed|entry|item)\b", text):
        text = unfed(text)
    if "<" in text and len(LAYOUT_TAG.findall(text, 0, 4000)) >= 4:
        text = unmarked(text)
    if "\n" in text and re.search(r"^[ \t]*1\b", text, re.M):
        text = unnumbered(text)
    if "\n" in text and re.search("[│┃║]", text):
        text = unboxed(text)
    if "\n" in text and "+---" in text:
        text = ascii_unboxed(text)
    if "\n|" in text or "\n " in text and "| " in text:
        text = unbarred(text)
    if "\n\n    " in text:
        text = _indented_blocks(text)
    if "<" in text and (HTML_BLOCK.search(text) or HTML_INLINE.search(text) or NOWIKI.search(text)):
        text = HTML_INLINE.sub(lambda m: f"`{m['d']}`", NOWIKI.sub("", text))
        text = HTML_BLOCK.sub("\n```\n", text)
    if "\\" not in text and "#+" not in text and "{" not in text:
        return text
    text = RESULTS.sub(lambda m: "```\n" + re.sub(r"(?m)^[ \t]*: ?", "", m["lines"]).rstrip("\n") + "\n```\n", text)
    text = BLOCK.sub("```", text)
    return INLINE.sub(lambda m: "`" + (m["a"] or m["b"] or m["c"]) + "`", text)



def unnumbered(text: str) -> str:
    """`text` with the line numbers a paste site, `cat -n` or a pager puts before each line left out: a run of at
    least three lines numbered one after another (two from 1, or one line numbered 1 before a tab, or a paragraph
    of one line numbered 1 behind an indent or a rule), read as the lines they number."""
    lines = text.split("\n")
    numbers = [LINE_NUMBER.match(ln) for ln in lines]
    values = [int(m["n"]) if m else -2 for m in numbers]
    plain = [m is not None and not GUTTER.match(ln, m.end("n")) for m, ln in zip(numbers, lines, strict=True)]
    out = list(lines)
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and values[j] >= 0 and values[j + 1] == values[j] + 1:
            j += 1
        first = numbers[i]
        if first is not None:
            alone = j == i and (first["box"] == "\t" or bool(first["indent"] or first["box"].strip())
                                and (i == 0 or not lines[i - 1].strip()) and (j + 1 == len(lines) or not lines[j + 1].strip()))
            if any(plain[i:j + 1]) and (j - i >= 2 or (first["n"] == "1" and (j - i == 1 or alone))):
                for k in range(i, j + 1):
                    out[k] = lines[k][numbers[k].end():]  # type: ignore[union-attr]
        i = j + 1
    return "\n".join(out)


def unboxed(text: str) -> str:
    """`text` with the box drawn around some of its lines left out (Terraform's '╷ │ Error: … ╵', a rich panel):
    a run of at least two lines behind a box's side, read as the lines it frames."""
    lines = text.split("\n")
    sides = [BOX_SIDE.match(ln) for ln in lines]
    out: list[str] = []
    for i, line in enumerate(lines):
        framed = sides[i] and ((i > 0 and sides[i - 1]) or (i + 1 < len(lines) and sides[i + 1]))
        if framed:
            out.append(sides[i]["line"])  # type: ignore[index]
        elif not BOX_RULE.match(line) or not line.strip():
            out.append(line)
    return "\n".join(out)


def ascii_unboxed(text: str) -> str:
    """`text` with an ASCII box around some of its lines left out: lines behind '| ' between two '+----' rules,
    read as the lines it frames (a rule with no such lines under it, or lines not closed by one, stay)."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i + 1
        while ASCII_RULE.match(lines[i]) and j < len(lines) and ASCII_SIDE.match(lines[j]):
            j += 1
        if j > i + 1 and j < len(lines) and ASCII_RULE.match(lines[j]):
            out += [ASCII_SIDE.match(ln)["line"] for ln in lines[i + 1:j]]  # type: ignore[index]
            i = j + 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


#: a bar before each line of a block (a YAML literal's or a tree dump's '| ', an ASCII box's open side)
BAR = re.compile(r"^(?P<indent>[ \t]*)\|(?: |$)")


def unbarred(text: str) -> str:
    """`text` with the bar before each line of a block left out: three lines or more in a row behind the same
    indent and '| ' (an accessibility tree's text block, a report's quoted output), not a table's rows (a bar
    at their ends too) nor a compiler's gutter (its lines under a line of its own with no bar)."""
    if re.search(r"^[ \t]*\d+ \|", text, re.M):
        return text  # a compiler's numbered source lines: its ' |' lines around them are its gutter
    lines = text.split("\n")
    out = list(lines)
    for run in marked_runs([BAR.match(ln) for ln in lines]):
        if len(run) >= 3 and not all(lines[k].rstrip().endswith("|") for k, _ in run):
            for k, bar in run:
                out[k] = lines[k][bar.end():]
    return "\n".join(out)


def marked_runs(marks: list[re.Match[str] | None]) -> list[list[tuple[int, re.Match[str]]]]:
    """The runs of lines in a row that start with a mark at one indentation (each match's `indent` group), each
    as (line number, match): a bar's block, an outline's items."""
    runs: list[list[tuple[int, re.Match[str]]]] = []
    for k, mark in enumerate(marks):
        if mark is None:
            continue
        if runs and runs[-1][-1][0] == k - 1 and runs[-1][-1][1]["indent"] == mark["indent"]:
            runs[-1].append((k, mark))
        else:
            runs.append([(k, mark)])
    return runs


def _indented_blocks(text: str) -> str:
    """A post's paragraphs indented four spaces or more as fenced blocks, their common indent off: Markdown's
    indented code block (blank lines inside it go on with it), under a paragraph of the writer's that is not
    indented (a terminal's own indented lines go on from the line above them, with no blank line between)."""
    parts = PARAGRAPH.split(text)
    out: list[str] = []
    block: list[str] = []
    for part in parts:
        lines = part.split("\n")
        indented = all(ln.startswith("    ") for ln in lines if ln.strip()) and part.strip()
        if indented and (block or (out and out[-1].rstrip().split("\n")[-1][:1].strip())):
            block.append(part)
            continue
        if block:
            out.append(fence("\n\n".join(block)))
            block = []
        out.append(part)
    if block:
        out.append(fence("\n\n".join(block)))
    return "\n\n".join(out)


def fence(block: str) -> str:
    """A block of lines (indented, or with their marks taken off) as a fenced one, its common indent off."""
    lines = block.split("\n")
    indent = min((len(ln) - len(ln.lstrip(" ")) for ln in lines if ln.strip()), default=0)
    return "```\n" + "\n".join(ln[indent:] for ln in lines) + "\n```"
