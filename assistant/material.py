"""Which pages are the material for help at a moment, and whether they can be had.

An offer from the pages the person read is made only when the pages can be had: the one open now in the browser
(read from what the browser shows, no network), the pages visited since the search the offer is about (their
addresses come with the observations, as `pages`, from ActivityWatch's web watcher), or, at a search moment with
web search allowed, the top results, read then (an engine that does not answer gives no material). With
`web_search = "ask"` nothing is fetched before the person says yes: an offer about pages the person visited is
still made (Accept asks first, once) though it cannot count what it will give; a bare search is no material then
(nothing says its results could be read: an Accept would read nothing), so its offer comes once the person has
read a page. With "off" only what the browser shows is material.

`Material.pages` holds what was read; `pending` says what Accept will read after asking. A `Source` answers for
one object of the grounding; `live_source` builds one for a live context, `replay_source` for a recorded session
(where live use with the default consent would read the page: the offer counts as deliverable, its count
unknown).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from proactive.models.base import Observation
from proactive.watcher.episodes.builder import TITLE_SEPARATORS

from .grounding import PAGE, QUERY, Obj, is_url
from .pages import Page, PageError, PageReader
from .sentence_patterns import SEARCH_TITLE, TITLE_SPLIT
from .validate import norm

ASK = "ask"
#: an observation after a search that opens or reads one of its results
OPENED = re.compile(r"\b(?:clicks?|clicked|opens?|opened|visits?|visited|reads?|reading|scroll\w*|views?|viewed|"
                    r"navigat\w+)\b|打开|阅读|浏览", re.I)


@dataclass(frozen=True)
class Material:
    """The pages for one object: read (`pages`), or to be read on Accept after the consent question
    (`pending`: the addresses, or the query whose results would be read)."""

    pages: tuple[Page, ...] = ()
    pending: tuple[str, ...] = ()
    query: str = ""  # the search whose results are (or would be) read
    where: str = "the page you opened"  # how an offer names them
    #: what would let the pending pages be read, as help that read nothing says it: live, the person's consent;
    #: in replay (`replay_source`), the command's own switch, which no config setting replaces
    unlock: str = 'reading pages for you needs your yes (web_search = "on" in config.toml, or Always at the question)'

    @property
    def known(self) -> bool:
        """Whether the pages are in hand, so an offer can say what they hold."""
        return bool(self.pages) and not self.pending


Source = Callable[[Obj], "Material | None"]
BrowserPage = Callable[[], "Page | None"]


def _pages_of(context: Sequence[Observation]) -> list[tuple[int, str, str]]:
    """(observation index, url, title) of every page the observations name, oldest first."""
    out: list[tuple[int, str, str]] = []
    for i, o in enumerate(context):
        for p in o.get("pages") or ():
            if isinstance(p, dict) and isinstance(p.get("url"), str):
                out.append((i, p["url"], str(p.get("title") or "")))
    return out


def _query_index(context: Sequence[Observation], query: str) -> int:
    """The observation where the search for `query` was made (its last mention), or -1."""
    q = norm(query)
    for i in range(len(context) - 1, -1, -1):
        if q and q in norm(str(context[i].get("event", ""))):
            return i
    return -1


def _title_matches(title: str, page_text: str) -> bool:
    """Whether a title as an episode quotes it (cut to 80 characters with an ellipsis) names the page, whichever
    separator each writes between the page's name and its site ("Title | Site", "Title - Site", "Title — Site")."""
    a, b = (TITLE_SPLIT.sub(" - ", norm(t)).rstrip(".…").strip() for t in (title, page_text))
    return bool(a and b) and (a in b or b in a)


def _results(page: Page, reader: PageReader) -> bool:
    """Whether the browser shows a search's results, by its address (a known or the configured engine) or by its
    title ("QUERY - Google Search", "QUERY at DuckDuckGo"): a list of links, not a page the person read."""
    return reader.is_results(page.url) or bool(SEARCH_TITLE.match(page.title or ""))


def _named_since(context: Sequence[Observation], start: int, title: str) -> bool:
    """Whether an observation after the search names the page the browser shows (by its title, as an episode
    quotes it): the page the person was seen on, not one that opened after the moment being decided."""
    head = norm(TITLE_SEPARATORS.split(title)[0]).rstrip(".…")[:40]
    return bool(head) and any(head in norm(str(o.get("event", ""))) for o in context[start + 1:])


def live_source(context: Sequence[Observation], reader: PageReader,
                browser: BrowserPage | None = None) -> Source:
    """The material of a live context: the browser's page now, the addresses the observations carry, the
    results of a search; read under `reader`'s consent (fetched only with web search on)."""
    visited = _pages_of(context)
    shown: list[Page | None] = []

    def browser_page() -> Page | None:
        if not shown:
            try:
                shown.append(browser() if browser is not None else None)
            except Exception:  # noqa: BLE001 - a browser that does not answer is no material, never a failed turn
                shown.append(None)
            if shown[0] is not None:
                reader.cache.put(shown[0])  # held for the task: found again by its title once they turn back
        return shown[0]

    def read(urls: Sequence[str]) -> tuple[tuple[Page, ...], tuple[str, ...]]:
        pages: list[Page] = []
        for url in urls:
            held = reader.cache.get(url)
            if held is not None:
                pages.append(held)
                continue
            if reader.may_fetch:
                try:
                    pages.append(reader.page(url))
                except PageError:
                    continue
        readable = tuple(u for u in urls if reader.refusal(u) is None)
        pending = () if reader.may_fetch or reader.fetch != ASK else tuple(
            u for u in readable if reader.cache.get(u) is None)
        return tuple(pages), pending

    def source(obj: Obj) -> Material | None:
        here = browser_page()
        if obj.kind == PAGE and not is_url(obj.text):
            if here is not None and _title_matches(obj.text, here.title):
                return Material((here,))
            held = reader.cache.titled(lambda title: _title_matches(obj.text, title))
            if held is not None:
                return Material((held,))
            urls = [u for _, u, t in visited if _title_matches(obj.text, t)][-1:]
            pages, pending = read(urls)
            return Material(pages, pending) if pages or pending else None
        if obj.kind == QUERY:
            start = _query_index(context, obj.text)
            urls = list(dict.fromkeys(u for i, u, _ in visited if i >= start and not reader.is_results(u)))[-3:]
            pages, pending = read(urls)
            if here is not None and not _results(here, reader) and here.url not in {p.url for p in pages} \
                    and start >= 0 and _named_since(context, start, here.title):
                pages = (*pages, here)
            if pages or pending:
                n = len(pages) + len(pending)
                return Material(pages, pending, obj.text, "the page you opened" if n == 1 else "the pages you opened")
            if reader.may_fetch:
                try:
                    found = tuple(reader.search(obj.text))
                except PageError:
                    return None
                return Material(found, (), obj.text, "the top results") if found else None
        return None

    return source


REPLAY_UNLOCK = "proactive replay reads pages only with --fetch (beside --accept)"


def replay_source(context: Sequence[Observation]) -> Source:
    """A recorded session's material, as live use with web search allowed and an engine that answers would have
    it (the consent under which an offer at a search is made live: `live_source`): a page in it is what the
    browser shows, a search's results or the pages opened from it are read on Accept, so it counts as
    deliverable, its count unknown. Pages are read in replay only with `--fetch`."""

    def source(obj: Obj) -> Material | None:
        if obj.kind == PAGE and not is_url(obj.text):
            return Material((), (obj.text,), "", "the page you opened", REPLAY_UNLOCK)
        if obj.kind == QUERY:
            start = _query_index(context, obj.text)
            opened = any(OPENED.search(str(o.get("event", ""))) for o in context[start + 1:]) if start >= 0 else False
            return Material((), (obj.text,), obj.text, "the pages you opened" if opened else "the top results",
                            REPLAY_UNLOCK)
        return None

    return source


def searched_source(reader: PageReader) -> Source:
    """Replay with `--fetch`: a recorded session has no addresses, so its pages are found as live use with web
    search on would read them: the top results for a search, the first result for a page's title."""

    def source(obj: Obj) -> Material | None:
        if obj.kind not in (QUERY, PAGE) or is_url(obj.text):
            return None
        try:
            pages = tuple(reader.search(obj.text, 3 if obj.kind == QUERY else 1))
        except PageError:
            return None
        if not pages:
            return None
        if obj.kind == QUERY:
            return Material(pages, (), obj.text, "the top results")
        return Material(pages, (), "", "the page you opened")

    return source
