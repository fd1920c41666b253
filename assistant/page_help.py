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

import math
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
    "ruby": (("rb", "erb"), ("ruby", "rb"), r"^\s*def \w+[^:]*$|^\s*end\s*$|\bputs\b|\.each do\b|\bdo \|\w+\||"
                                            r"\{\s*\|\w+(?:,\s*\w+)*\|| => |\.sort_by\b|:\w+\]|&:\w+"),
    "swift": (("swift",), ("swift",), r"\bimport (?:SwiftUI|UIKit|Foundation)\b|\bsome View\b|@State\b|"
                                      r"\bvar body\b|^\s*func \w+\(\w+(?: \w+)?:|\bguard let\b|\bif let\b"),
    "go": (("go",), ("go", "golang"), r"^\s*func \w*\(|^\s*package \w+|:= |\bfmt\.\w+\("),
    "rust": (("rs",), ("rust", "rs"), r"^\s*fn \w+|let mut |println!\(|\bimpl\b|::new\("),
    "c": (("c", "h", "cpp", "cc", "cxx", "hpp", "hh"), ("c", "cpp", "c++", "cxx", "objectivec"),
          r"^\s*#include\s*[<\"]|\bint main\s*\(|\bprintf\s*\(|std::"),
    "csharp": (("cs",), ("csharp", "cs", "c#"), r"\busing System\b|Console\.Write|\bnamespace \w+"),
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
#: a sentence ends at . ! ? and a space, not after a title or an abbreviation ("reviewed by Dr. Moreau", "e.g. a")
SENTENCE_END = re.compile(r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\bSt\.)(?<!\bvs\.)"
                          r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bNo\.)(?<=[.!?])\s+|(?<=[。！？])")
MAX_CODE_LINES = 40  # longer is a whole program, not an example
#: a block that is a program's output or a prompt's transcript, not code to copy: most lines start with no code
OUTPUT_LINE = re.compile(r"^\s*(?:[\w.@+-]+\s+(?:True|False|None|\d+)\s*$|\d+(?:\.\d+)?[KMGT]?\s|Filesystem\b|"
                         r"total \d+|[-d][rwx-]{9}\s)")
#: sentences that are a page's boilerplate, never a key point
BOILERPLATE = re.compile(r"仅供参考|版权|all rights reserved|cookie|subscribe|sign up|newsletter|disclaimer|"
                         r"\bsee [A-Z_]+\.md\b|terms of (?:use|service)|privacy (?:policy|notice|statement|settings)|"
                         r"with your consent|manage (?:your )?(?:consent|preferences|choices)|"
                         r"our (?:\d+ )?(?:advertising |ad )?partners|information on your device|accept all|"
                         r"\b\d+ ?% off\b|\badvertisement\b|\bsponsored\b", re.I)
#: a page's furniture, not what it says: a breadcrumb trail ("Audio › Headphones › Comparisons") or a byline
#: ("Medically reviewed by …", "Updated on …", "By Marta Okafor · 7 min read")
FURNITURE = re.compile(r"^[^.!?]{0,80}?(?:\s[›»>/|]\s[^.!?]{1,40}?){2,}$|"
                       r"^(?:medically |fact[- ]checked |last )?(?:reviewed|written|edited|posted|published|updated|"
                       r"fact[- ]checked)(?: by| on)\b|"
                       r"^by (?-i:[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3})\s*(?:[·|•,—–]|$)|\b\d+[- ]min(?:ute)? read\b",
                       re.I)
#: a section that lists other texts or readers' talk, not what the page says: its sentences are never points
ASIDE_HEADING = re.compile(r"^(?:further reading|sources?|references|bibliography|see also|related(?: \w+)?|"
                           r"(?:reader )?comments?(?: \(\d+\))?|most read|read next|before you go)\W*$", re.I)
MAX_POINT_CHARS = 240


def terms(text: str) -> list[str]:
    """The words of `text` that carry meaning, lower case; Chinese as single characters and their pairs."""
    words = [w.lower() for w in WORD.findall(text)]
    # a plural is its singular ('timeouts' in a heading answers 'timeout' in a query)
    words = [w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w for w in words]
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
    """Whether code in `block_lang` can go into a file written in `file_lang`: with no file (or one of a language
    not in LANGS) any code may; a block of no known language never goes into a file of a known one (a
    Cargo.toml is no example for a .java file)."""
    if file_lang is None:
        return True
    return block_lang is not None and (block_lang == file_lang or block_lang in FITS_TOO.get(file_lang, ()))


def is_output(block: Block) -> bool:
    """A block that shows a program's output rather than code (most of its lines look like output)."""
    lines = [ln for ln in block.text.splitlines() if ln.strip()]
    return len(lines) >= 2 and sum(bool(OUTPUT_LINE.match(ln)) for ln in lines) * 2 > len(lines)


@dataclass(frozen=True)
class Example:
    """A code block from a page, with where it came from (shown as its source link) and why it ranks."""

    code: str
    lang: str | None
    url: str
    title: str
    heading: str
    score: float


def _context_of(blocks: Sequence[Block], i: int) -> tuple[str, str]:
    """The section heading a block sits under (not the page's own title, its h1, which every block shares) and
    the paragraph just before it."""
    above = next((b for b in reversed(blocks[:i]) if b.kind == HEADING), None)
    heading = above.text if above is not None and above.level != 1 else ""
    before = next((b.text for b in reversed(blocks[:i]) if b.kind in (PARA, ITEM)), "")
    return heading, before


def query_language(query: str) -> str | None:
    """The language a query names by a name its markup would use ('js 淡入淡出', 'python regex'), if any."""
    return next((MARKUP_LANG[w] for w in re.findall(r"[a-z+#]+", query.lower()) if w in MARKUP_LANG and len(w) > 1),
                None)


def code_examples(pages: Sequence[Page], query: str, file_name: str | None = None, limit: int = 3) -> list[Example]:
    """The code blocks of `pages` that fit the file's language (with no file, the language the query names),
    best first for the query (blocks in the language asked, then those whose heading, paragraph and text share
    its words; the heading counts twice); each once, never a program's output."""
    asked_lang = query_language(query)
    file_lang = file_language(file_name) or (asked_lang if not file_name else None)
    wanted = set(terms(query))
    found: list[tuple[Page, int, Block, str | None, str, set[str]]] = []
    seen: set[str] = set()
    for page in pages:
        for i, block in enumerate(page.blocks):
            if block.kind != CODE:
                continue
            lines = block.text.count("\n") + 1
            key = " ".join(block.text.split())
            if key in seen or len(key) < 12 or lines > MAX_CODE_LINES or is_output(block):
                continue  # a one-word snippet is not an example; a whole file or a program's output is not either
            lang = block_language(block)
            if not fits(lang, file_lang):
                continue
            seen.add(key)
            heading, before = _context_of(page.blocks, i)
            found.append((page, i, block, lang, heading, set(terms(" ".join((heading, before, block.text))))))
    # a query word found near every block ('asyncio' on an asyncio guide) tells them apart less than a rare one
    # ('timeout'): each word weighs by how few blocks have it; the heading's words count double
    weight = {t: math.log(1 + len(found) / (1 + sum(t in near for *_, near in found))) for t in wanted}
    total = sum(weight.values()) or 1.0
    # of several pages read, the one whose title asks the query (the 'concatenate' page for a concatenation)
    titled = {id(p): sum(w for t, w in weight.items() if t in set(terms(p.title))) / total for p in pages}
    out: list[Example] = []
    for page, i, block, lang, heading, near in found:
        said = set(terms(heading))
        overlap = sum(w * ((t in near) + (t in said)) for t, w in weight.items()) / (2 * total)
        same_lang = 0.3 if lang is not None and lang in (asked_lang, file_lang) else 0.0
        score = overlap + 0.5 * titled[id(page)] + same_lang - 0.02 * pages.index(page) - 0.001 * i
        out.append(Example(block.text, lang, page.url, page.title, heading, round(score, 4)))
    out.sort(key=lambda e: -e.score)
    return out[:limit]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text) if len(s.strip()) > 20]


def key_points(page: Page, limit: int = 5, topic: str = "") -> list[str]:
    """The page's key points, in its order: its lead (the first sentence of its first paragraph that says
    something), then under each heading the sentence that carries most of the page's own vocabulary and of the
    `topic` (what the person searched or writes about), headings named; without headings, the best sentences.
    Boilerplate (disclaimers, cookie and subscription lines) never counts."""
    freq = Counter(t for b in page.blocks if b.kind != CODE for t in set(terms(b.text)))
    wanted = set(terms(topic))

    def weight(sentence: str) -> float:
        ts = terms(sentence)
        if not _usable(sentence):
            return 0.0
        page_weight = sum(freq[t] for t in set(ts)) / (1 + len(ts)) ** 0.5
        return page_weight * (1 + 2 * len(wanted & set(ts)) / max(1, len(wanted)))

    sections: list[tuple[str, list[str]]] = [("", [])]
    for block in page.blocks:
        if block.kind == HEADING:
            sections.append((block.text, []))
        elif block.kind in (PARA, ITEM):
            sections[-1][1].extend(_sentences(block.text) or ([block.text] if len(block.text) > 20 else []))
    points: list[tuple[float, int, str]] = []
    lead = 0 if sections[0][1] else 1  # the section before the first heading, else the one under it
    for order, (heading, sentences) in enumerate(sections):
        sentences = [] if ASIDE_HEADING.match(heading) else [x for x in sentences if weight(x) > 0]
        if not sentences:
            continue
        best = sentences[0] if order == lead else max(sentences, key=weight)
        score = float("inf") if order == lead else weight(best) * (
            1 + 2 * len(wanted & set(terms(heading))) / max(1, len(wanted)))
        best = _clip(best)
        named = heading and heading.lower() not in best.lower() and heading.lower() not in page.title.lower()
        text = f"{heading}: {best}" if named else best  # the page's own title (its h1) is said once, above
        points.append((score, order, text))
    if len(points) <= 1:  # no sections: the page's best sentences
        sentences = [x for _, ss in sections for x in ss if weight(x) > 0]
        ranked = sorted(range(len(sentences)), key=lambda i: -weight(sentences[i]))[:limit]
        return [sentences[i][:MAX_POINT_CHARS] for i in sorted(ranked)]
    chosen = sorted(points, key=lambda p: -p[0])[:limit]
    return [text for _, _, text in sorted(chosen, key=lambda p: p[1])]


def _clip(point: str) -> str:
    """A point no longer than MAX_POINT_CHARS, cut with an ellipsis."""
    return point if len(point) <= MAX_POINT_CHARS else point[: MAX_POINT_CHARS - 1].rstrip() + "…"


def _usable(sentence: str) -> bool:
    return bool(terms(sentence)) and not BOILERPLATE.search(sentence) and not FURNITURE.search(sentence.strip())


def _stems(text: str) -> set[str]:
    """The words of `text` cut to their first five letters: 'printing' meets 'print', 'changed' meets 'change'.
    Why not a stemmer library: five letters are enough to match a line to a page's sentences, in any language."""
    return {t[:5] for t in terms(text)}


def about_focus(page: Page, focus: str, limit: int = 4) -> list[str]:
    """The page's sentences about what the person writes (`focus`), in the page's order: those sharing most of
    its words (a word rare on the page counting more than one it says everywhere; the words of the heading a
    sentence is under counting half), the page's own vocabulary breaking ties. Empty when none shares any."""
    wanted = _stems(focus)
    if not wanted:
        return []
    found: list[tuple[str, str, set[str], set[str]]] = []
    heading = ""
    for block in page.blocks:
        if block.kind == HEADING:
            heading = block.text
        elif block.kind in (PARA, ITEM) and not ASIDE_HEADING.match(heading):
            found += [(heading, x, _stems(x), _stems(heading)) for x in _sentences(block.text) if _usable(x)]
    freq = Counter(t for _, _, own, _ in found for t in own)
    vocabulary = Counter(t for b in page.blocks if b.kind != CODE for t in _stems(b.text))
    scored = []
    for i, (under, sentence, own, said) in enumerate(found):
        match = sum((1.0 + 1.0 / max(1, freq[t])) * (1.0 if t in own else 0.5) for t in wanted & (own | said))
        if match:
            common = sum(vocabulary[t] for t in own) / (1 + len(own)) / max(1, max(vocabulary.values()))
            text = f"{under}: {sentence}" if under and wanted & said - own and under.lower() not in \
                page.title.lower() else sentence
            scored.append((match + common, i, text))
    chosen = sorted(scored, key=lambda x: (-x[0], x[1]))[:limit]
    return [_clip(x) for _, _, x in sorted(chosen, key=lambda x: x[1])]


def notes(pages: Sequence[Page], topic: str = "", per_page: int = 3, focus: str = "") -> str:
    """Markdown notes from the pages read on `topic` for what the person writes (`focus`): a heading, then each
    page's sentences about what they write, then its key points on the topic as bullets, and the page's link once
    under them. Pages about the topic and the writing first; a page far less
    about it than the best one is left out; a single page gives more points. Why not the key points alone: a
    person who took a page's key points and now writes from it wants what the page says about their sentence."""
    wanted = set(terms(f"{topic} {focus}"))

    def about(page: Page) -> int:
        return len(wanted & set(terms(page.title + " " + page.text[:5000])))

    ranked = sorted(pages, key=about, reverse=True)
    if wanted and ranked:
        best = about(ranked[0])
        ranked = [p for p in ranked if about(p) * 2 >= best]
    per = per_page + 2 if len(ranked) == 1 else per_page
    lines = [f"## Notes on {topic}" if topic else "## Notes", ""]
    for page in ranked:
        mine = about_focus(page, focus, max(2, per - 2))
        points = mine + [k for k in key_points(page, per - len(mine), f"{topic} {focus}")
                         if not any(k.endswith(m.split(": ", 1)[-1]) for m in mine)]
        if not points:
            continue
        lines += [f"- {p}" for p in points]
        lines += [f"  (from [{page.title or page.url}]({page.url}))", ""]
    return "\n".join(lines).rstrip() + "\n"
