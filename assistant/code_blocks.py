"""Code blocks and inline code as other markups write them, made the Markdown fences and backticks grounding
reads: a lab report's LaTeX (`\\begin{verbatim}`, `\\begin{lstlisting}[…]`, `\\verb|…|`, `\\texttt{…}`), an Org
note's `#+begin_src`/`#+begin_example` blocks and its `#+RESULTS:` lines behind ': ', and a Jira or Confluence
comment's `{code}` and `{noformat}`. A message quoted in such a block is then read whole, and the words around it
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


def fenced(text: str) -> str:
    """`text` with its code blocks as Markdown fences and its inline code in backticks (unchanged when it has
    none)."""
    if "\\" not in text and "#+" not in text and "{" not in text:
        return text
    text = RESULTS.sub(lambda m: "```\n" + re.sub(r"(?m)^[ \t]*: ?", "", m["lines"]).rstrip("\n") + "\n```\n", text)
    text = BLOCK.sub("```", text)
    return INLINE.sub(lambda m: "`" + (m["a"] or m["b"] or m["c"]) + "`", text)
