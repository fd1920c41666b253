"""The pages the person read, as material for help: where a page's text may come from, and its text as blocks.

At a moment of reading, searching or writing after reading, what helps is in the pages the person has open: their
code, their headings, the sentences that carry them (`assistant/page_help.py` turns them into deliverables). A
page's text comes from what the browser already shows (its accessibility tree, `watcher.browser_page`) where it
exposes it; otherwise the page is fetched by its URL, which is network use, so only with the person's consent
(the `web_search` setting: the same question, asked once and remembered), and never:

- for a URL that carries credentials or tokens (user:password@, a `token=`/`key=`/`sig=` parameter, any part the
  redaction rules call a secret): fetching it would replay the person's access;
- for a site in `never_fetch`, or a page seen in a private window or an excluded application (the caller knows the
  window; such windows never reach the episodes with their title or address anyway);
- for anything but http(s).

The text is extracted with trafilatura (its main-content detection drops navigation, footers and ads), passed
through the same redaction as everything the watcher stores, held in memory for the task (`PageCache`), and never
written to the database.
"""

from __future__ import annotations

import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html import unescape
from typing import Any
from urllib.parse import parse_qsl, quote_plus, unquote, urljoin, urlsplit

# one block record for pages read from the browser and fetched ones: heading (with its level), paragraph, list
# item, or code (its line breaks kept; `lang` from the page's markup, class="language-js")
from proactive.watcher.capture.browser_page import CODE, HEADING, ITEM, PARA, Block
from proactive.watcher.episodes.builder import BROWSER_APP, SEARCH_HOSTS
from proactive.watcher.privacy.redact import contains_secret, redact
from proactive.watcher.store.home import DEFAULT_SEARCH_ENGINE

MAX_BYTES = 3_000_000  # a page's HTML read at most: more is not an article
FETCH_TIMEOUT_S = 8.0
HELD_S = 1800.0  # a page is held for the task: half an hour, the gap after which help.VISIT_GAP_S starts a new visit
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) Proactive/0.1 (reads pages for the person at their request)"
#: query parameters whose values are access: a URL carrying one is never fetched
TOKEN_PARAMS = re.compile(r"^(?:.*[_-])?(?:token|key|apikey|api_key|secret|sig|signature|auth|authorization|"
                          r"password|passwd|pwd|session|sessionid|sid|code|credential|credentials|jwt|"
                          r"x-amz-[\w-]+|x-goog-[\w-]+|otp|ticket)$", re.I)
#: a value that looks like an opaque credential even under an innocent name (32+ characters of token alphabet)
OPAQUE = re.compile(r"^[A-Za-z0-9_\-.~+/=%]{32,}$")
DEFAULT_ENGINE = DEFAULT_SEARCH_ENGINE


class PageError(Exception):
    """A page that could not be had: the message says why in words the person can act on."""


@dataclass(frozen=True)
class Page:
    url: str
    title: str
    blocks: tuple[Block, ...]
    source: str = "fetched"  # "fetched" or "browser" (read from what the browser shows)

    @property
    def code(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == CODE]

    @property
    def text(self) -> str:
        return "\n".join(b.text for b in self.blocks)


def refusal(url: str, never_fetch: Iterable[str] = ()) -> str | None:
    """Why `url` must not be fetched, or None when it may be (with consent). Checked on the address alone,
    before any connection."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        _ = parts.port  # a malformed port raises ValueError
    except ValueError:
        return "it is not a valid address"
    if parts.scheme not in ("http", "https") or not host:
        return "only web pages (http or https) are read"
    if parts.username or parts.password:
        return "its address carries a user name or password"
    for name, value in parse_qsl(parts.query, keep_blank_values=True) + parse_qsl(parts.fragment,
                                                                                    keep_blank_values=True):
        if TOKEN_PARAMS.match(name) or OPAQUE.match(value):
            return "its address carries a token or key"
    if contains_secret(unquote(url)):
        return "its address carries a secret"
    for site in never_fetch:
        site = site.strip().lower().removeprefix("*.")
        if site and (host == site or host.endswith("." + site)):
            return f"{site} is in never_fetch"
    return None


def fetch_html(url: str, timeout: float = FETCH_TIMEOUT_S) -> str:
    """The page's HTML (at most MAX_BYTES), decoded as it says. No cookies, no credentials: the person's own
    session stays in their browser. Raises PageError in words."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "text/html,text/plain"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - scheme checked (refusal)
            kind = response.headers.get_content_type()
            if kind not in ("text/html", "application/xhtml+xml", "text/plain"):
                raise PageError(f"{url} is not a web page ({kind})")
            data = response.read(MAX_BYTES + 1)[:MAX_BYTES]
            charset = response.headers.get_content_charset() or _meta_charset(data) or "utf-8"
    except urllib.error.HTTPError as exc:
        raise PageError(f"{url} answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise PageError(f"{url} could not be reached ({reason})") from None
    try:
        text = data.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        text = data.decode("utf-8", errors="replace")
    if kind == "text/plain":
        text = f"<html><body><pre>{_escape(text)}</pre></body></html>"
    return text


def _meta_charset(data: bytes) -> str | None:
    m = re.search(rb"""<meta[^>]+charset=["']?([\w-]+)""", data[:4096], re.I)
    return m.group(1).decode("ascii") if m else None


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: code languages named in a page's markup: class="language-js", "lang-python", "highlight-source-ruby",
#: "brush: java", data-lang="go"
LANG_CLASS = re.compile(r"(?:language|lang|highlight-source|brush:|sourceCode)[-\s:]*([a-z0-9+#]+)", re.I)


def _parsed(html: str) -> Any:
    """The page's HTML as an lxml tree, or None when lxml cannot parse it (trafilatura then gets the text)."""
    from lxml import html as lxml_html

    try:
        return lxml_html.fromstring(html)
    except Exception:  # noqa: BLE001 - lxml raises its own parser errors on junk
        return None


def _code_languages(root: Any) -> dict[str, str]:
    """The language each code block's markup names, by the block's first non-blank line (trafilatura's output
    keeps the text, not the classes). Read before `_prepare` takes wrappers' classes away."""
    found: dict[str, str] = {}
    for node in root.iter("pre", "code"):
        attrs = " ".join(filter(None, [node.get("class"), node.get("data-lang"), node.get("data-language")]))
        parent = node.getparent()
        if parent is not None:
            attrs += " " + " ".join(filter(None, [parent.get("class"), parent.get("data-lang")]))
        m = LANG_CLASS.search(attrs)
        if not m:
            continue
        first = next((ln.strip() for ln in node.text_content().splitlines() if ln.strip()), "")
        if first:
            found.setdefault(first, m.group(1).lower())
    return found


#: classes and ids trafilatura takes for the one main post ("post-body", "postContent", "article-content", …):
#: on a question-and-answer thread several elements carry them, and only the first (the question) would be kept
POST_CLASS = re.compile(r"(?:^|[\s_-])post(?:$|[\s_-])|post[-_]?(?:text|body|entry|content|inner)|postContent|"
                        r"article[-_]?(?:text|body|content)|articleBody|entry-content|story-?(?:body|content)", re.I)


def _prepare(root: Any) -> Any:
    """The page's tree changed in place so trafilatura reads it whole: the wrappers around code blocks lose the classes that make
    them look like page furniture (a copy button's "code-toolbar" reads as a bar, so the code went with it), a bare
    <pre> holds a <code> (else a shell session with no braces is taken for a paragraph and loses its lines), and
    when several elements carry a main-post class (a thread's question and its answers) none keeps it, so the
    whole thread is scored."""
    from lxml import html as lxml_html

    for pre in root.iter("pre"):
        if pre.find(".//code") is None:
            code = lxml_html.Element("code")
            code.text, pre.text = pre.text, None
            for child in list(pre):
                code.append(child)
            pre.append(code)
        size = max(1, len(pre.text_content()))
        node = pre.getparent()
        while node is not None and node.tag not in ("body", "html", "article", "main") and \
                len(node.text_content()) <= size * 1.5 + 80:  # a wrapper of this block only (and its buttons)
            for attr in ("class", "id"):
                node.attrib.pop(attr, None)
            node = node.getparent()
    posts = [n for n in root.iter() if isinstance(n.tag, str) and POST_CLASS.search(
        f"{n.get('class') or ''} {n.get('id') or ''}")]
    if len(posts) > 1:
        for node in posts:
            node.attrib.pop("class", None)
            node.attrib.pop("id", None)
    return root


def _block(node: Any, langs: dict[str, str]) -> Block | None:
    """One node of trafilatura's XML as a redacted block: code (its language from the page's markup), a heading
    with its level, a list item or a paragraph; None for inline code (part of its sentence), an empty node, or a
    paragraph inside an item or a quote (the item has its text)."""
    parent = node.getparent()
    if node.tag == "code" and parent is not None and parent.tag in ("p", "item", "head"):
        return None
    text = "".join(node.itertext())
    if node.tag == "code":
        text = text.strip("\n")
        if not text.strip():
            return None
        first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
        return Block(CODE, redact(text), lang=langs.get(first, ""))
    text = " ".join(text.split())
    if not text:
        return None
    if node.tag == "head":
        rend = node.get("rend") or ""
        level = int(rend.lstrip("h") or 2) if rend.startswith("h") else 2
        return Block(HEADING, redact(text), level=level)
    if node.tag == "item":
        return Block(ITEM, redact(text))
    if parent is None or parent.tag not in ("item", "quote"):
        return Block(PARA, redact(text))
    return None


def extract(html: str, url: str, title: str = "") -> Page:
    """The page's main text as blocks (trafilatura: headings, paragraphs, list items, code), every block redacted.
    Raises PageError when the page has no main text (a login wall, an app shell)."""
    import trafilatura
    from lxml import etree

    tree = _parsed(html)  # parsed once: the code blocks' languages first, then the tree trafilatura reads
    langs = _code_languages(tree) if tree is not None else {}
    xml = trafilatura.extract(_prepare(tree) if tree is not None else html, url=url or None, output_format="xml", include_formatting=True,
                              include_comments=False, include_tables=False, favor_recall=True, with_metadata=True)
    if not xml:
        raise PageError(f"{url or 'the page'} has no text to read (a login page or an application, not an article)")
    root = etree.fromstring(xml.encode("utf-8"))
    title = title or (root.get("title") or "")
    main = root.find("main")
    nodes = (main if main is not None else root).iter("head", "p", "item", "code", "quote")
    blocks = [b for b in (_block(node, langs) for node in nodes) if b is not None]
    if not blocks:
        raise PageError(f"{url or 'the page'} has no text to read")
    return Page(url, redact(unescape(title.strip())), tuple(blocks))


def results_url(query: str, engine: str = DEFAULT_ENGINE) -> str:
    """The search engine's results page for `query` (`engine` holds {query}, or takes it as `q=`)."""
    if "{query}" in engine:
        return engine.replace("{query}", quote_plus(query))
    return engine + ("&" if "?" in engine else "?") + "q=" + quote_plus(query)


def result_links(html: str, base: str, limit: int = 3) -> list[str]:
    """The result pages a search engine's HTML links to, best first: its redirects to results (DuckDuckGo's
    `/l/?uddg=`) unwrapped, and links to other hosts than the engine's; each once, never the engine's own pages."""
    from lxml import html as lxml_html

    try:
        root = lxml_html.fromstring(html)
    except Exception:  # noqa: BLE001 - an unreadable results page has no results
        return []
    engine_host = urlsplit(base).hostname or ""
    out: list[str] = []
    for anchor in root.iter("a"):
        href = anchor.get("href") or ""
        link = urljoin(base, href)
        parts = urlsplit(link)
        wrapped = dict(parse_qsl(parts.query)).get("uddg")
        if wrapped:
            link, parts = wrapped, urlsplit(wrapped)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            continue
        if not wrapped and (parts.hostname == engine_host
                            or parts.hostname.endswith("." + engine_host.removeprefix("html."))):
            continue  # the engine's own pages (its home, its settings), not a result
        link = link.split("#", 1)[0]
        if link not in out:
            out.append(link)
        if len(out) >= limit:
            break
    return out


@dataclass
class PageCache:
    """Pages read for the person's current task, in memory only, each for HELD_S seconds: a second offer or an
    Accept on the same page does not read it again, and nothing outlives the task."""

    held_s: float = HELD_S
    _pages: dict[str, tuple[float, Page]] = field(default_factory=dict)
    _links: dict[str, tuple[float, list[str]]] = field(default_factory=dict)  # a results page's result links
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def links(self, url: str, now: float | None = None) -> list[str] | None:
        now = time.time() if now is None else now
        with self._lock:
            held = self._links.get(url)
            return list(held[1]) if held and now - held[0] <= self.held_s else None

    def put_links(self, url: str, links: list[str], now: float | None = None) -> None:
        with self._lock:
            self._links[url] = (time.time() if now is None else now, list(links))

    def get(self, url: str, now: float | None = None) -> Page | None:
        now = time.time() if now is None else now
        with self._lock:
            for key in [k for k, (t, _) in self._pages.items() if now - t > self.held_s]:
                del self._pages[key]
            held = self._pages.get(url)
        return held[1] if held else None

    def titled(self, matches: Callable[[str], bool], now: float | None = None) -> Page | None:
        """The newest held page whose title `matches` (a page read from the browser is found again by the title
        the episodes quote, once the person has turned back to their work)."""
        now = time.time() if now is None else now
        with self._lock:
            held = [(t, p) for t, p in self._pages.values() if now - t <= self.held_s and matches(p.title)]
        return max(held, key=lambda x: x[0])[1] if held else None

    def put(self, page: Page, now: float | None = None) -> None:
        with self._lock:
            self._pages[page.url] = (time.time() if now is None else now, page)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self._links.clear()


Fetcher = Callable[[str], str]


@dataclass
class PageReader:
    """Reads pages for the person under their settings: `fetch` ("on", "off", or "ask" = not asked yet, so no
    fetching) is the `web_search` setting; `never_fetch` the sites never read; `engine` the results page used
    at a search moment. Every page read is cached for the task (`PageCache`)."""

    fetch: str = "ask"
    never_fetch: tuple[str, ...] = ()
    engine: str = DEFAULT_ENGINE
    cache: PageCache = field(default_factory=PageCache)
    fetcher: Fetcher = fetch_html

    @property
    def may_fetch(self) -> bool:
        return self.fetch == "on"

    def refusal(self, url: str) -> str | None:
        return refusal(url, self.never_fetch)

    def is_results(self, url: str) -> bool:
        """Whether `url` is a search engine's results page (its links are read through `search`, not as a page):
        a known engine's host, or the configured engine's host and path."""
        parts, engine = urlsplit(url), urlsplit(self.engine)
        host = (parts.hostname or "").lower().removeprefix("www.")
        return host in SEARCH_HOSTS or (parts.hostname == engine.hostname and parts.path == engine.path)

    def page(self, url: str) -> Page:
        """The page at `url`, from the cache or fetched (consent and the address checked first)."""
        held = self.cache.get(url)
        if held is not None:
            return held
        why = refusal(url, self.never_fetch)
        if why:
            raise PageError(f"{url} is not read: {why}")
        if not self.may_fetch:
            raise PageError(f"{url} is not read: reading pages for you is off (web_search = \"{self.fetch}\")")
        page = extract(self.fetcher(url), url)
        self.cache.put(page)
        return page

    def search(self, query: str, limit: int = 3) -> list[Page]:
        """The top `limit` results for `query`, read (an unreadable result is left out)."""
        if not self.may_fetch:
            raise PageError(f"the results for '{query}' are not read: web search is off "
                            f"(web_search = \"{self.fetch}\")")
        url = results_url(query, self.engine)
        why = refusal(url, ())
        if why:
            raise PageError(f"the search engine's address is not used: {why}")
        links = self.cache.links(url)
        if links is None:  # a results page read once for the task: an offer and its Accept ask it once
            links = result_links(self.fetcher(url), url, limit=limit * 2)
            self.cache.put_links(url, links)
        pages: list[Page] = []
        for link in links:
            try:
                pages.append(self.page(link))
            except PageError:
                continue
            if len(pages) >= limit:
                break
        return pages


def shown_page(excluded_apps: Iterable[str] = (), excluded_titles: Iterable[str] | None = None,
               timeout: float = 1.0) -> Page | None:
    """The page the browser's focused window shows (or, when another application's window has the focus, the one
    browser window still on screen: the page just turned from), read from its accessibility tree
    (`watcher.browser_page`: no network), redacted; None for a private window, an excluded browser, a page still loading, anything but a
    web page, or no browser on the bus. An address that carries access keeps only its scheme, host and path."""
    from proactive.watcher.capture.browser_page import read_page

    shown = read_page(timeout=timeout, excluded_titles=excluded_titles, background=BROWSER_APP)
    if shown is None or shown.private or shown.loading or not shown.blocks:
        return None
    if not BROWSER_APP.search(shown.browser):  # an application's web view (an editor's, a mail reader's)
        return None
    if any(name.strip().lower() in shown.browser.lower() for name in excluded_apps if name.strip()):
        return None
    parts = urlsplit(shown.url)
    if parts.scheme not in ("http", "https"):
        return None
    url = shown.url if refusal(shown.url) is None else f"{parts.scheme}://{parts.hostname}{parts.path}"
    blocks = tuple(Block(b.kind, redact(b.text), b.level, b.lang) for b in shown.blocks if b.text.strip())
    return Page(url, redact(shown.title), blocks, "browser")
