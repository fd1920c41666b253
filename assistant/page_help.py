"""What the built-in model can give from the pages the person read, with no free text from any model: every line
shown is the page's own (extractive), with its link.

- code: the page's code blocks in the language of the file being edited, ranked by the query (the words of the
  query, the heading and the paragraph above each block);
- key points: the page's headings, each with the sentence under it that carries most of the page's vocabulary;
- notes: the key points of the pages read on a topic, as Markdown bullets with links, ready to paste (shown, never
  written into the person's file).

Why our own scoring, not a summariser library: the sentences must be the page's own (nothing a model could
invent), and a word-frequency score over the page is a few lines and well under a millisecond per page.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .pages import CODE, HEADING, ITEM, PARA, Block, Page

#: languages, as the extensions written in them, the names their markup uses, and a line that shows them
LANGS: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    "python": (("py", "pyi", "ipynb"), ("python", "py", "python3", "pycon"),
               r"^\s*(?:def \w+\(.*\):|import \w+|from [\w.]+ import |print\(|class \w+(?:\(.*\))?:|"
               r"if __name__ ==|elif |\w+ = \[.*\]$)"),
    "javascript": (("js", "jsx", "mjs", "cjs", "ts", "tsx", "vue", "svelte"),
                   ("javascript", "js", "jsx", "typescript", "ts", "tsx", "node", "vue"),
                   r"(?:\bfunction\s*\w*\s*\(|\b(?:const|let|var) \w+\s*=|=>|document\.|console\.log|\$\(|"
                   r"addEventListener|require\(|export (?:default|const|function))"),
    "html": (("html", "htm"), ("html", "xml", "markup", "xhtml"), r"^\s*<(?:!doctype|html|div|script|p|a|span|body)\b"),
    "css": (("css", "scss", "less"), ("css", "scss", "less"), r"^\s*[.#]?[\w-]+(?::\w+)?\s*\{|^\s*[\w-]+:\s*[^;]+;\s*$"),
    "java": (("java",), ("java",), r"\bpublic (?:static )?(?:class|void|int|boolean|String)\b|System\.out\.|"
                                     r"\bString\[\] args\b"),
    "kotlin": (("kt", "kts"), ("kotlin", "kt"), r"^\s*fun \w+\(|\bval \w+ =|println\("),
    "ruby": (("rb", "erb"), ("ruby", "rb"), r"^\s*def \w+[^:]*$|^\s*end\s*$|\bputs\b|\.each do\b|\bdo \|\w+\|"),
    "go": (("go",), ("go", "golang"), r"^\s*func \w*\(|^\s*package \w+|:= |\bfmt\.\w+\("),
    "rust": (("rs",), ("rust", "rs"), r"^\s*fn \w+|let mut |println!\(|\bimpl\b|::new\("),
    "c": (("c", "h", "cpp", "cc", "cxx", "hpp", "hh"), ("c", "cpp", "c++", "cxx", "objectivec"),
          r"^\s*#include\s*[<\"]|\bint main\s*\(|\bprintf\s*\(|std::"),
    "csharp": (("cs",), ("csharp", "cs", "c#"), r"\busing System\b|Console\.Write|\bnamespace \w+"),
    "swift": (("swift",), ("swift",), r"\bimport (?:SwiftUI|UIKit|Foundation)\b|^\s*(?:struct|func|var|let) \w+.*"
                                      r"(?:View|\{)\s*$|\bsome View\b"),
    "php": (("php",), ("php",), r"<\?php|\$\w+\s*=|\becho\b"),
    "shell": (("sh", "bash", "zsh"), ("bash", "sh", "shell", "console", "zsh", "shell-session"),
              r"^\s*(?:\$ |sudo |apt(?:-get)? |pip3? install|npm |git |cd |export \w+=|echo )"),
    "sql": (("sql",), ("sql", "mysql", "postgresql", "sqlite"), r"\bSELECT\b.+\bFROM\b|\bCREATE TABLE\b|\bINSERT INTO\b"),
}
EXT_LANG = {ext: lang for lang, (exts, _, _) in LANGS.items() for ext in exts}
MARKUP_LANG = {name: lang for lang, (_, names, _) in LANGS.items() for name in names}
LANG_LINE = {lang: re.compile(pattern, re.I | re.M) for lang, (_, _, pattern) in LANGS.items()}
#: languages whose code goes into a file of another's: a script in an HTML page, styles beside it
FITS_TOO = {"html": ("javascript", "css", "html")}
WORD = re.compile(r"[a-z0-9_]{2,}|[\u4e00-\u9fff]", re.I)
STOP = frozenset("""a an and are as at be by can do does for from how i if in into is it its of on or so that the this
to use used using was what when where which why will with you your we our not no yes all any one two has have had
them they their there then than these those also just more most may might must should would could about over""".split())
SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")
MAX_CODE_LINES = 60
MAX_POINT_CHARS = 240


def terms(text: str) -> list[str]:
    """The words of `text` that carry meaning, lower case; Chinese as single characters and their pairs."""
    words = [w.lower() for w in WORD.findall(text)]
    out = [w for w in words if w not in STOP and not (len(w) == 1 and w.isascii())]
    cjk = [w for w in words if not w.isascii()]
    out += [a + b for a, b in zip(cjk, cjk[1:], strict=False)]
    return out


def file_language(file_name: str | None) -> str | None:
    if not file_name or "." not in file_name:
        return None
    return EXT_LANG.get(file_name.rsplit(".", 1)[-1].lower())


def block_language(block: Block) -> str | None:
    """A code block's language: what its markup says, else the language most of its lines look like."""
    named = MARKUP_LANG.get(block.lang.lower()) if block.lang else None
    if named:
        return named
    counts = {lang: len(pattern.findall(block.text)) for lang, pattern in LANG_LINE.items()}
    best = max(counts, key=lambda lang: counts[lang])
    return best if counts[best] else None


def fits(block_lang: str | None, file_lang: str | None) -> bool:
    """Whether code in `block_lang` can go into a file written in `file_lang` (unknown either way: it may)."""
    if file_lang is None or block_lang is None:
        return True
    return block_lang == file_lang or block_lang in FITS_TOO.get(file_lang, ())


@dataclass(frozen=True)
class Example:
    """A code block from a page, with where it came from (shown as its source link) and why it ranks."""

    code: str
    lang: str | None
    url: str
    title: str
    heading: str
    score: float

    def markdown(self) -> str:
        return f"```{self.lang or ''}\n{self.code}\n```\nSource: [{self.title or self.url}]({self.url})"


def _context_of(blocks: Sequence[Block], i: int) -> tuple[str, str]:
    """The heading a block sits under and the paragraph just before it."""
    heading = next((b.text for b in reversed(blocks[:i]) if b.kind == HEADING), "")
    before = next((b.text for b in reversed(blocks[:i]) if b.kind in (PARA, ITEM)), "")
    return heading, before


def query_language(query: str) -> str | None:
    """The language a query names by a name its markup would use ('js 淡入淡出', 'python regex'), if any."""
    return next((MARKUP_LANG[w] for w in re.findall(r"[a-z+#]+", query.lower()) if w in MARKUP_LANG and len(w) > 1),
                None)


def code_examples(pages: Sequence[Page], query: str, file_name: str | None = None, limit: int = 3) -> list[Example]:
    """The code blocks of `pages` that fit the file's language, best first for the query (blocks in the language
    the query names, then those whose heading, paragraph and text share its words); each once."""
    file_lang = file_language(file_name)
    asked_lang = query_language(query)
    wanted = Counter(terms(query))
    out: list[Example] = []
    seen: set[str] = set()
    for order, page in enumerate(pages):
        for i, block in enumerate(page.blocks):
            if block.kind != CODE:
                continue
            lines = block.text.count("\n") + 1
            key = " ".join(block.text.split())
            if key in seen or len(key) < 12 or lines > MAX_CODE_LINES:
                continue  # a one-word snippet is not an example; a whole file is not one either
            lang = block_language(block)
            if not fits(lang, file_lang):
                continue
            seen.add(key)
            heading, before = _context_of(page.blocks, i)
            near = Counter(terms(" ".join((heading, before, block.text, page.title))))
            overlap = sum(min(n, near[t]) for t, n in wanted.items()) / max(1, sum(wanted.values()))
            same_lang = 0.3 if lang is not None and lang in (asked_lang, file_lang) else 0.0
            score = overlap + same_lang - 0.02 * order - 0.001 * i
            out.append(Example(block.text, lang, page.url, page.title, heading, round(score, 4)))
    out.sort(key=lambda e: -e.score)
    return out[:limit]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text) if len(s.strip()) > 20]


def key_points(page: Page, limit: int = 5) -> list[str]:
    """The page's key points, in its order: under each heading the sentence that carries most of the page's own
    vocabulary (the words it repeats), headings named; without headings, the best sentences of the page."""
    freq = Counter(t for b in page.blocks if b.kind != CODE for t in set(terms(b.text)))

    def weight(sentence: str) -> float:
        ts = terms(sentence)
        return sum(freq[t] for t in set(ts)) / (1 + len(ts)) ** 0.5 if ts else 0.0

    sections: list[tuple[str, list[str]]] = [("", [])]
    for block in page.blocks:
        if block.kind == HEADING:
            sections.append((block.text, []))
        elif block.kind in (PARA, ITEM):
            sections[-1][1].extend(_sentences(block.text) or ([block.text] if len(block.text) > 20 else []))
    points: list[tuple[float, int, str]] = []
    for order, (heading, sentences) in enumerate(sections):
        if not sentences:
            continue
        best = max(sentences, key=weight)
        if len(best) > MAX_POINT_CHARS:
            best = best[: MAX_POINT_CHARS - 1].rstrip() + "…"
        text = f"{heading}: {best}" if heading and heading.lower() not in best.lower() else best
        points.append((weight(best), order, text))
    if len(points) <= 1:  # no sections: the page's best sentences
        sentences = [s for _, ss in sections for s in ss]
        ranked = sorted(range(len(sentences)), key=lambda i: -weight(sentences[i]))[:limit]
        return [sentences[i] for i in sorted(ranked)]
    chosen = sorted(points, key=lambda p: -p[0])[:limit]
    return [text for _, _, text in sorted(chosen, key=lambda p: p[1])]


def notes(pages: Sequence[Page], topic: str = "", per_page: int = 3) -> str:
    """Markdown notes from the pages read on `topic`: a heading, then each page's key points as bullets with its
    link. Pages about the topic (its words in their title or text) first."""
    wanted = set(terms(topic))

    def about(page: Page) -> int:
        return len(wanted & set(terms(page.title + " " + page.text[:5000])))

    lines = [f"## Notes on {topic}" if topic else "## Notes", ""]
    for page in sorted(pages, key=about, reverse=True):
        points = key_points(page, per_page)
        if not points:
            continue
        link = f"[{page.title or page.url}]({page.url})"
        lines += [f"- {p} ({link})" for p in points]
    return "\n".join(lines).rstrip() + "\n"
