"""Code blocks and inline code as other markups write them, made the Markdown fences and backticks grounding
reads: a lab report's LaTeX (`\\begin{verbatim}`, `\\begin{lstlisting}[…]`, `\\verb|…|`, `\\texttt{…}`), an Org
note's `#+begin_src`/`#+begin_example` blocks and its `#+RESULTS:` lines behind ': ', and a Jira or Confluence
comment's `{code}` and `{noformat}`, and a post's block indented four spaces (Markdown's other code block). A
message quoted in such a block is then read whole, and the words around it
as the writer's, as they are in Markdown."""

from __future__ import annotations

import re

#: a block's opening and closing lines in LaTeX, Org and Jira markup (with the options some of them take)
BLOCK = re.compile(
    r"^[ \t]*(?:\\begin\{(?:verbatim|Verbatim|lstlisting|minted)\}(?:\[[^\]\n]*\])?(?:\{[^}\n]*\})?|"
    r"\\end\{(?:verbatim|Verbatim|lstlisting|minted)\}|#\+(?:begin|BEGIN)_(?:src|SRC|example|EXAMPLE)\b[^\n]*|"
    r"#\+(?:end|END)_(?:src|SRC|example|EXAMPLE)\b|\{(?:code|noformat)(?::[^}\n]*)?\})[ \t]*$", re.M)
#: inline code: LaTeX's \verb|…| (any delimiter) and \texttt{…}, Jira's {{…}}
INLINE = re.compile(r"\\verb(?P<mark>[^\w\s])(?P<a>[^\n]+?)(?P=mark)|\\texttt\{(?P<b>[^{}\n]+)\}|"
                    r"\{\{(?P<c>[^{}\n]+)\}\}")
#: an Org block's results: '#+RESULTS:' and the lines after it behind ': '
RESULTS = re.compile(r"^[ \t]*#\+RESULTS:[ \t]*\n(?P<lines>(?:[ \t]*:(?: [^\n]*)?(?:\n|$))+)", re.M | re.I)


#: a paragraph break: where a post's indented block may start or end
PARAGRAPH = re.compile(r"\n[ \t]*\n")


def fenced(text: str) -> str:
    """`text` with its code blocks as Markdown fences and its inline code in backticks (unchanged when it has
    none)."""
    if "\n\n    " in text:
        text = _indented_blocks(text)
    if "\\" not in text and "#+" not in text and "{" not in text:
        return text
    text = RESULTS.sub(lambda m: "```\n" + re.sub(r"(?m)^[ \t]*: ?", "", m["lines"]).rstrip("\n") + "\n```\n", text)
    text = BLOCK.sub("```", text)
    return INLINE.sub(lambda m: "`" + (m["a"] or m["b"] or m["c"]) + "`", text)



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
