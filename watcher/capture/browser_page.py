"""The page the person is reading, read from what the browser shows on the accessibility bus (no network).

Browsers expose each tab's page as an accessible tree on the AT-SPI bus (watcher/capture/atspi.py), for screen readers:
a document object (role "document web") whose descendants are the headings, paragraphs, lists and code blocks
the person sees, each with its text. `read_page` finds the browser window (the focused window's process, else the
application whose window is active), the document of the tab it shows, and reads its address, title and text as
blocks, without fetching anything: it is what is on the screen, including pages behind a login.

What answers, checked on Firefox ESR 153 (Gecko's ATK bridge) on Xvfb with a private accessibility bus:
- the window: the application's children (`Accessible.GetChildren` of its root) are its windows, role "frame";
  the focused one has STATE_ACTIVE (`Accessible.GetState`); its name is the window title
  ("Page — Mozilla Firefox", "Page — Mozilla Firefox Private Browsing" for a private window);
- the tab shown: the frame's relation RELATION_EMBEDS (`Accessible.GetRelationSet`) names the document of the
  selected tab. Firefox keeps the other tabs' documents (and a preloaded "New Tab") in the tree without
  STATE_SHOWING; where no relation says, the showing document is looked for below the frame (STATE_SHOWING
  branches only);
- the address: `Document.GetAttributes` on the document, {"DocURL": "http://...", "MimeType": "text/html"};
  the title: the document's `Name` property;
- the text: every hypertext object answers `Text.GetText(0, -1)` with its own text, in which each child object
  stands as one U+FFFC (OBJECT REPLACEMENT CHARACTER), in the order of `GetChildren`. `GetAttributes` gives the
  element's `tag` (h1, p, pre, code, li), its CSS `display` (inline or not: a child that is inline is part of
  its parent's sentence, any other is a block of its own) and a heading's `level`; `GetRole` the role.
  `<pre><code>` is a "section" with tag "pre" whose one child, the code, carries the text with its line breaks.

The tree is read with pipelined calls (`atspi._call_many`: the questions about a batch of objects are sent
together, so a page costs a few dozen round trips, not one per question), in document order, so a page cut short
by the limits (`MAX_CHARS`, `MAX_NODES`, `max_seconds`) is its beginning, marked `truncated`. Measured on 2 busy
cores: a 100 kB page (1,800 objects) in about 0.5 s, 0.3 s of it our CPU; a 300 kB one reaches MAX_CHARS in about
1.3 s. A page just loaded may still be loading (STATE_BUSY: `loading`, its text partial): ask again. Form fields
(role "entry", "password text") are never read: what the person types is the keyboard's business, judged by the
privacy filter. The text is what the page shows, secrets included: the caller redacts it like everything else.

A private window gives `Page(private=True)` with no address, title or text: nothing of it is read beyond what
tells it is private. It is known by its title, matched against the privacy filter's default excluded titles
("Private Browsing", "Incognito", "InPrivate", "private window"... `home.DEFAULT_EXCLUDED_TITLES`, the patterns
that store such a window as an anonymous "private window"), or, in Firefox whatever the title's language, by the
private-browsing indicator its window shows beside the tabs (an object of class "private-browsing-indicator-...").

Browsers: Firefox exposes its tree when toolkit accessibility is on (`org.a11y.Status.IsEnabled`, what
`proactive accessibility on` sets, or GNOME_ACCESSIBILITY=1 in its environment) and `accessibility.force_disabled`
is not 1. Chromium-based browsers (Chromium, Chrome, Brave, Edge, Electron applications) expose the page's tree
only when started with `--force-renderer-accessibility` (or with a screen reader running): without it the frame
is there but no document; only Firefox is tested here.
"""

from __future__ import annotations

import heapq
import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from proactive.watcher.capture.atspi import ACCESSIBLE, ROOT_PATH, _call_many, _CallFailed, a11y_bus_address
from proactive.watcher.capture.sources import SourceUnavailable

log = logging.getLogger(__name__)
T = TypeVar("T")

HEADING, PARA, CODE, ITEM = "heading", "para", "code", "item"
MAX_CHARS = 300_000  # characters of a page read at most
MAX_NODES = 20_000  # objects of a page's tree read at most
WALK_SECONDS = 3.0  # seconds spent reading one page's tree at most (what is read by then is returned)
BATCH = 64  # objects asked about together (three calls each, and their children) in one round trip
MAX_DEPTH = 150  # levels of the tree followed (what a page nests deeper is left out)
MAX_FRAME_NODES = 400  # objects of the window's own interface looked through for the document, where no relation says

OBJ = "\ufffc"  # a child object's place in its parent's text
DOCUMENT = "org.a11y.atspi.Document"
TEXT = "org.a11y.atspi.Text"
PROPERTIES = "org.freedesktop.DBus.Properties"
REGISTRY = "org.a11y.atspi.Registry"

# AtspiRole (at-spi2-core's atspi-constants.h)
ROLE_FRAME, ROLE_LIST_ITEM, ROLE_PASSWORD_TEXT, ROLE_ENTRY = 23, 32, 40, 79
ROLE_DOCUMENT_FRAME, ROLE_HEADING, ROLE_DOCUMENT_WEB = 82, 83, 95
DOCUMENT_ROLES = frozenset({ROLE_DOCUMENT_WEB, ROLE_DOCUMENT_FRAME})
SKIPPED = -1  # the role given to the page's chrome (CHROME_*), not read: its place stays empty
SKIPPED_ROLES = frozenset({ROLE_PASSWORD_TEXT, ROLE_ENTRY})  # form fields: what the person types there
#: the parts of a page around what it says, not read: its navigation, footer, side column and dialogs, by their
#: ARIA landmark (Gecko's "xml-roles") or tag, and a cookie or consent banner, an ad or a promotion by its class or
#: id where the tree has
#: its element (Gecko leaves out a plain div with only a class: its text is the page's, and the key points leave
#: banner sentences out, `assistant.page_help.BOILERPLATE`). Why: a banner's sentences led a page's key points
CHROME_LANDMARKS = frozenset({"navigation", "contentinfo", "complementary", "dialog", "alertdialog"})
CHROME_TAGS = frozenset({"nav", "footer", "aside", "dialog"})
CHROME_NAMES = re.compile(r"(?i)(?:^|[\s_-])(?:cookies?[_-]?(?:banner|consent|notice|bar|modal|popup|wall)|consent|gdpr"
                          r"|onetrust|cookielaw|cmp|promo|ads?|advert(?:isement)?|sponsor(?:ed)?)(?:$|[\s_-])")
#: roles that are part of a sentence, for objects that say no CSS `display` (static text, link, image, label,
#: subscript, superscript, mark, content deletion and insertion)
INLINE_ROLES = frozenset({116, 88, 27, 29, 119, 120, 127, 125, 126})
# AtspiStateType bits of GetState's first word
STATE_ACTIVE, STATE_BUSY, STATE_SHOWING = 1 << 1, 1 << 3, 1 << 25
RELATION_EMBEDS = 13
PRIVATE_INDICATOR = "private-browsing-indicator"  # the class of Firefox's indicator in a private window
#: roles not looked into for it: menus (closed, yet in the tree) and the panels holding the pages
SHUT_ROLES = frozenset({33, 41, 39, 28})  # menu, popup menu, panel, internal frame
BULLET = re.compile(r"^[\u2022\u25e6\u25aa\u25ab\u25a0\u25a1\u2023\u2043\u2219*-](?:\s+|$)")
LANG = re.compile(r"(?:^|\s)(?:language|lang)-([\w+#.-]+)")
HEADING_TAG = re.compile(r"h([1-6])")
CHROME_URL = re.compile(r"^(?:chrome|resource|moz-extension|chrome-extension|devtools):")


@dataclass(frozen=True)
class Block:
    """One block of the page: a heading (with its level), a paragraph, a list item, or a code block (its line breaks
    kept; `lang` when the page's markup says, e.g. class="language-js")."""

    kind: str
    text: str
    level: int = 0
    lang: str = ""


@dataclass(frozen=True)
class Page:
    """The page shown in the browser's focused window. `text` is the blocks' texts, a blank line between two;
    `truncated`: the page was longer than the limits, and this is its beginning. A private window's page is
    `private` and nothing else of it is read (empty address, title and text)."""

    url: str
    title: str
    text: str
    private: bool
    browser: str
    blocks: tuple[Block, ...] = ()
    truncated: bool = False
    loading: bool = False  # the browser was still loading it (STATE_BUSY): its text may be incomplete


def is_private_title(title: str, patterns: Iterable[str] | None = None) -> bool:
    """Whether a window title marks a private window (or one the privacy filter never captures): `patterns`, by
    default the privacy filter's default excluded titles."""
    if patterns is None:
        from proactive.watcher.store.home import DEFAULT_EXCLUDED_TITLES

        patterns = DEFAULT_EXCLUDED_TITLES
    return any(re.search(p, title or "") for p in patterns)


def read_page(pid: int | None = None, timeout: float = 1.0, *, max_seconds: float = WALK_SECONDS,
              max_chars: int = MAX_CHARS, max_nodes: int = MAX_NODES,
              excluded_titles: Iterable[str] | None = None, background: re.Pattern[str] | None = None) -> Page | None:
    """The page shown in the browser window of process `pid` (the focused window's), or, without a pid, in the
    active window of any application on the accessibility bus. None when there is no accessibility bus, no such
    window, no web document in it, or the application does not answer within `timeout` seconds (for any one round
    trip). The tree is read for `max_seconds` at most (what was read by then is returned, `truncated`).
    `excluded_titles`: the window titles that make a page private (default: `home.DEFAULT_EXCLUDED_TITLES`).
    `background`: the names of browsers (the application's name on the bus): when the active window is not one,
    the one window of a browser still on screen (STATE_SHOWING) is read, the page the person has just turned
    from (a passage copied, then a switch to their notes); several such windows: none, it cannot be told which."""
    return read_over_bus("a page", timeout, lambda reader: reader.read(pid, max_seconds, max_chars, max_nodes,
                                                                       excluded_titles, background))


def read_over_bus(what: str, timeout: float, read: Callable[[_Reader], T | None]) -> T | None:
    """`read` with a reader on the accessibility bus (`timeout` seconds per round trip), or None when there is no
    bus, the application does not answer, or the bus fails meanwhile (logged at debug level: nothing to read)."""
    conn = reading_connection(what)
    if conn is None:
        return None
    try:
        return read(_Reader(conn, timeout))
    except _CallFailed as exc:
        log.debug("no answer on the accessibility bus while reading %s: %s", what, exc)
        return None
    except (OSError, ConnectionError, ValueError) as exc:
        log.debug("the accessibility bus failed while %s was read: %s", what, exc)
        return None
    finally:
        conn.close()


def reading_connection(what: str) -> Any | None:
    """A blocking connection to the accessibility bus for reading `what` ("a page", "a terminal"), its replies read
    by signature once (`dbus_wire`), or None when there is no bus or it refuses us (logged, at debug level)."""
    from jeepney.io.blocking import open_dbus_connection

    try:
        conn = open_dbus_connection(bus=a11y_bus_address())
    except (SourceUnavailable, OSError, ValueError) as exc:
        log.debug("no accessibility bus to read %s from: %s", what, exc)
        return None
    except Exception as exc:  # noqa: BLE001 - authentication refused, a bus gone while connecting
        log.debug("the accessibility bus refused a connection: %s", exc)
        return None
    from proactive.watcher.capture.dbus_wire import wire_parser

    conn.parser = wire_parser(conn.parser)  # replies read by signature once, not per message
    return conn


@dataclass
class _Node:
    role: int
    attrs: dict[str, str]
    children: list[tuple[str, str]]
    text: str | None  # None: no text interface


@dataclass(frozen=True)
class _Address:
    """What jeepney's `new_method_call` reads of a `DBusAddress`, without its checks of the path and name (a Python
    loop over each character, a third of the time spent per call): they come from the bus, which checked them."""

    object_path: str
    bus_name: str
    interface: str


class _Cut(Exception):
    """The walk stopped before this object: the page ends here."""


class _Reader:
    def __init__(self, conn: Any, timeout: float):
        self.conn = conn
        self.timeout = timeout

    # -- calls -------------------------------------------------------------------------------------------------

    def calls(self, questions: list[tuple[str, str, str, str, str | None, tuple[Any, ...]]]) -> list[Any]:
        """(bus name, path, interface, member, signature, body) each; their answers (first value of the reply),
        or a `_CallFailed` for an error reply; no answer in time raises `_CallFailed`."""
        from jeepney import new_method_call

        messages = [new_method_call(_Address(path, name, interface), member, signature, body)
                    for name, path, interface, member, signature, body in questions]
        return [r if isinstance(r, _CallFailed) else (r[0] if r else None)
                for r in _call_many(self.conn, messages, self.timeout)]

    # -- the window and its document ---------------------------------------------------------------------------

    def read(self, pid: int | None, max_seconds: float, max_chars: int, max_nodes: int,
             excluded_titles: Iterable[str] | None, background: re.Pattern[str] | None = None) -> Page | None:
        found = self.window(pid)
        if background is not None and (found is None or not background.search(self.app_name(found[0]))):
            found = self.showing_window(background) or found
        if found is None:
            return None
        app, frame, title = found
        (browser,) = self.calls([(app, ROOT_PATH, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name"))])
        browser = str(browser[1]) if isinstance(browser, tuple) and len(browser) == 2 else ""
        if is_private_title(title, excluded_titles) or self.private_indicator(frame):
            return Page("", "", "", True, browser)
        doc = self.document(frame)
        if doc is None:
            return None
        name, path = doc
        url, doc_title, state = self.calls([(name, path, DOCUMENT, "GetAttributes", None, ()),
                                            (name, path, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name")),
                                            (name, path, ACCESSIBLE, "GetState", None, ())])
        url = _doc_url(url) if isinstance(url, dict) else ""
        doc_title = str(doc_title[1]) if isinstance(doc_title, tuple) and len(doc_title) == 2 else ""
        loading = not isinstance(state, _CallFailed) and bool(state[0] & STATE_BUSY)
        nodes, truncated = self.walk(doc, time.monotonic() + max_seconds, max_chars, max_nodes)
        blocks, cut = _Assembler(nodes).blocks(doc)
        text, clipped = _joined(blocks, max_chars)
        return Page(url, doc_title or _strip_browser(title), text, False, browser, blocks,
                    truncated or cut or clipped, loading)

    def private_indicator(self, frame: tuple[str, str]) -> bool:
        """Whether the window's own interface shows Firefox's private-browsing indicator (an object of class
        "private-browsing-indicator-...", beside the tabs): a private window whatever the title's language says.
        Looked for among the frame's children and grandchildren (menus and the pages' panels are not opened)."""
        level, seen = [frame], 0
        for _depth in range(2):
            children_of = self.calls([(n, p, ACCESSIBLE, "GetChildren", None, ()) for n, p in level])
            below = [tuple(c) for children in children_of if not isinstance(children, _CallFailed)
                     for c in children][:MAX_FRAME_NODES - seen]
            seen += len(below)
            answers = self.calls([q for n, p in below for q in (
                (n, p, ACCESSIBLE, "GetRole", None, ()), (n, p, ACCESSIBLE, "GetAttributes", None, ()))])
            level = []
            for i, obj in enumerate(below):
                role, attrs = answers[2 * i:2 * i + 2]
                if isinstance(attrs, dict) and PRIVATE_INDICATOR in attrs.get("class", ""):
                    return True
                if role not in SHUT_ROLES:
                    level.append((obj[0], obj[1]))
        return False

    def window(self, pid: int | None) -> tuple[str, tuple[str, str], str] | None:
        """(the application's bus name, its focused frame, the frame's title)."""
        (apps,) = self.calls([(REGISTRY, ROOT_PATH, ACCESSIBLE, "GetChildren", None, ())])
        if isinstance(apps, _CallFailed):
            raise apps
        names = self._apps_of(pid, [name for name, _path in apps])
        if not names:
            return None
        frames_of = self.calls([(n, ROOT_PATH, ACCESSIBLE, "GetChildren", None, ()) for n in names])
        frames = [(app, child) for app, children in zip(names, frames_of, strict=True)
                  if not isinstance(children, _CallFailed) for child in children]
        windows = self._windows(frames) if frames else []
        active = [w for w in windows if w[0]]
        if not active and pid is not None:  # the process's only window, whatever the focus says this instant
            active = [w for w in windows if w[1] and w[4]]
            active = active if len(active) == 1 else []
        if not active:
            return None
        _, _, app, frame, title, _ = active[0]
        return app, frame, title

    def app_name(self, app: str) -> str:
        (name,) = self.calls([(app, ROOT_PATH, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name"))])
        return str(name[1]) if isinstance(name, tuple) and len(name) == 2 else ""

    def showing_window(self, browsers: re.Pattern[str]) -> tuple[str, tuple[str, str], str] | None:
        """(application, frame, title) of the one window on screen (STATE_SHOWING) of an application whose name
        `browsers` matches, or None when there is none or several."""
        (apps,) = self.calls([(REGISTRY, ROOT_PATH, ACCESSIBLE, "GetChildren", None, ())])
        if isinstance(apps, _CallFailed):
            return None
        names = [name for name, _path in apps]
        labels = self.calls([(n, ROOT_PATH, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name")) for n in names])
        browsing = [n for n, label in zip(names, labels, strict=True)
                    if isinstance(label, tuple) and len(label) == 2 and browsers.search(str(label[1]))]
        frames_of = self.calls([(n, ROOT_PATH, ACCESSIBLE, "GetChildren", None, ()) for n in browsing])
        frames = [(app, (c[0], c[1])) for app, children in zip(browsing, frames_of, strict=True)
                  if not isinstance(children, _CallFailed) for c in children]
        showing = [(app, frame, title) for _active, is_frame, app, frame, title, shows in self._windows(frames)
                   if is_frame and shows]
        return showing[0] if len(showing) == 1 else None

    def _apps_of(self, pid: int | None, names: list[str]) -> list[str]:
        """The applications on the bus that belong to the process `pid` (all of them without one)."""
        from jeepney.bus_messages import message_bus

        if pid is None or not names:
            return names
        pids = _call_many(self.conn, [message_bus.GetConnectionUnixProcessID(n) for n in names], self.timeout)
        return [n for n, p in zip(names, pids, strict=True) if not isinstance(p, _CallFailed) and p[0] == pid]

    def _windows(self, frames: list[tuple[str, tuple[str, str]]]
                 ) -> list[tuple[bool, bool, str, tuple[str, str], str, bool]]:
        """(active, a frame, application, path, title, on screen) of each top-level child that answers."""
        answers = self.calls([q for _app, (n, p) in frames for q in (
            (n, p, ACCESSIBLE, "GetState", None, ()), (n, p, ACCESSIBLE, "GetRole", None, ()),
            (n, p, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name")))])
        windows = []
        for i, (app, child) in enumerate(frames):
            state, role, name = answers[3 * i:3 * i + 3]
            if isinstance(state, _CallFailed) or isinstance(role, _CallFailed):
                continue
            title = str(name[1]) if isinstance(name, tuple) and len(name) == 2 else ""
            windows.append((bool(state[0] & STATE_ACTIVE), role == ROLE_FRAME, app, child, title,
                            bool(state[0] & STATE_SHOWING)))
        return windows

    def document(self, frame: tuple[str, str]) -> tuple[str, str] | None:
        """The document the window shows: its RELATION_EMBEDS (the selected tab's), else the first document below
        it whose branch is showing."""
        (relations,) = self.calls([(frame[0], frame[1], ACCESSIBLE, "GetRelationSet", None, ())])
        embedded = [tuple(t) for kind, targets in ([] if isinstance(relations, _CallFailed) else relations)
                    if kind == RELATION_EMBEDS for t in targets]
        if embedded:
            answers = self.calls([q for n, p in embedded for q in (
                (n, p, ACCESSIBLE, "GetRole", None, ()), (n, p, ACCESSIBLE, "GetState", None, ()))])
            for i, doc in enumerate(embedded):
                role, state = answers[2 * i:2 * i + 2]
                if role in DOCUMENT_ROLES and not isinstance(state, _CallFailed) and state[0] & STATE_SHOWING:
                    return doc[0], doc[1]
        return self.showing_document(frame)

    def showing_document(self, frame: tuple[str, str]) -> tuple[str, str] | None:
        level, seen = [frame], 0
        while level and seen < MAX_FRAME_NODES:
            seen += len(level)
            answers = self.calls([q for n, p in level for q in (
                (n, p, ACCESSIBLE, "GetRole", None, ()), (n, p, ACCESSIBLE, "GetState", None, ()),
                (n, p, ACCESSIBLE, "GetChildren", None, ()))])
            below: list[tuple[str, str]] = []
            candidates = []
            for i, obj in enumerate(level):
                role, state, children = answers[3 * i:3 * i + 3]
                if isinstance(state, _CallFailed) or not state[0] & STATE_SHOWING:
                    continue
                if role in DOCUMENT_ROLES and obj != frame:
                    candidates.append(obj)
                elif not isinstance(children, _CallFailed):
                    below.extend(tuple(c) for c in children)
            for doc in candidates:  # the page's, not the window's own interface (a sidebar's chrome:// document)
                (attrs,) = self.calls([(doc[0], doc[1], DOCUMENT, "GetAttributes", None, ())])
                if not isinstance(attrs, dict) or not CHROME_URL.match(_doc_url(attrs)):
                    return doc
            level = below
        return None

    # -- the document's tree -----------------------------------------------------------------------------------

    def walk(self, doc: tuple[str, str], deadline: float, max_chars: int,
             max_nodes: int) -> tuple[dict[tuple[str, str], _Node], bool]:
        """The document's objects (all, or the first in document order within the limits) and whether some were
        left unread. Each round asks about the BATCH objects earliest in the document among those not read yet."""
        nodes: dict[tuple[str, str], _Node] = {}
        frontier: list[tuple[tuple[int, ...], str, str]] = [((), doc[0], doc[1])]
        chars = 0
        while frontier:
            if chars >= max_chars or len(nodes) >= max_nodes or time.monotonic() > deadline:
                return nodes, True
            batch = [heapq.heappop(frontier) for _ in range(min(BATCH, len(frontier)))]
            answers = self.calls([q for _key, n, p in batch for q in (
                (n, p, ACCESSIBLE, "GetRole", None, ()), (n, p, ACCESSIBLE, "GetAttributes", None, ()),
                (n, p, TEXT, "GetText", "ii", (0, -1)))])
            read: list[tuple[tuple[int, ...], str, str, _Node]] = []
            for i, (key, name, path) in enumerate(batch):
                role, attrs, text = answers[3 * i:3 * i + 3]
                if isinstance(role, _CallFailed):  # gone meanwhile (the page changed): its place stays empty
                    nodes[(name, path)] = _Node(0, {}, [], "")
                    continue
                node = _Node(int(role), attrs if isinstance(attrs, dict) else {}, [],
                             text if isinstance(text, str) else None)
                if node.role in SKIPPED_ROLES:
                    node.text = ""
                elif _page_chrome(node.attrs):
                    node.role, node.text = SKIPPED, ""
                nodes[(name, path)] = node
                chars += len(node.text or "") - (node.text or "").count(OBJ)
                if node.role not in SKIPPED_ROLES and node.role != SKIPPED and (node.text is None or OBJ in node.text) \
                        and len(key) < MAX_DEPTH:
                    read.append((key, name, path, node))
            # children only of the objects that have some (an object's text holds one U+FFFC per child; the
            # others, most of a page, are leaves): a second round trip, a quarter fewer calls
            children_of = self.calls([(n, p, ACCESSIBLE, "GetChildren", None, ()) for _k, n, p, _node in read])
            for (key, _name, _path, node), children in zip(read, children_of, strict=True):
                if isinstance(children, _CallFailed):
                    continue
                node.children = [tuple(c) for c in children]
                for j, (child_name, child_path) in enumerate(node.children):
                    heapq.heappush(frontier, ((*key, j), child_name, child_path))
        return nodes, False


class _Assembler:
    """The blocks of a read tree, in document order; stops at the first object the walk did not reach. (Recursive:
    the walk reads MAX_DEPTH levels at most.)"""

    def __init__(self, nodes: dict[tuple[str, str], _Node]):
        self.nodes = nodes
        self.out: list[Block] = []

    def blocks(self, doc: tuple[str, str]) -> tuple[tuple[Block, ...], bool]:
        try:
            self.block(doc)
            cut = False
        except _Cut:
            cut = True
        return tuple(self.out), cut

    def node(self, obj: tuple[str, str]) -> _Node:
        node = self.nodes.get(obj)
        if node is None:
            raise _Cut
        return node

    def block(self, obj: tuple[str, str], within: str = PARA) -> None:
        """Adds the blocks of `obj` (a block-level object): its own text, with inline children in their places,
        cut where a block child starts its own blocks. `within`: the kind of the block it is in (a paragraph in a
        list item is the item's text)."""
        node = self.node(obj)
        kind, level = _kind(node)
        if kind == PARA and within == ITEM:
            kind = ITEM
        if kind == CODE:
            self.add(Block(CODE, self.flat(obj, code=True).strip("\n"), lang=self.lang(obj)))
            return
        parts: list[str] = []
        if node.text is None:  # a container without text of its own: its children in order
            try:
                for each in node.children:
                    parts = self.child(each, parts, kind, level)
            finally:
                self.flush(parts, kind, level)
            return
        children = iter(node.children)
        try:
            for piece in re.split(f"({OBJ})", node.text):
                if piece != OBJ:
                    parts.append(piece)
                    continue
                child = next(children, None)
                if child is not None:
                    parts = self.child(child, parts, kind, level)
        finally:  # (a cut keeps the text before it)
            self.flush(parts, kind, level)

    def child(self, obj: tuple[str, str], parts: list[str], kind: str = PARA, level: int = 0) -> list[str]:
        """An inline child joins the sentence being built (`parts`); a block child ends it and adds its blocks."""
        node = self.node(obj)
        if _inline(node):
            parts.append(self.flat(obj))
            return parts
        self.flush(parts, kind, level)
        self.block(obj, kind)
        return []

    def flat(self, obj: tuple[str, str], code: bool = False) -> str:
        """All the text below `obj`, children in their places; block children on lines of their own in code."""
        node = self.node(obj)
        if node.text is None:
            return ("\n" if code else " ").join(self.flat(c, code) for c in node.children)
        out: list[str] = []
        children = iter(node.children)
        for piece in re.split(f"({OBJ})", node.text):
            if piece != OBJ:
                out.append(piece)
                continue
            child = next(children, None)
            if child is None:
                continue
            inner = self.flat(child, code)
            if not _inline(self.node(child)):
                inner = f"\n{inner}\n" if code else f" {inner} "
            out.append(inner)
        return "".join(out)

    def lang(self, obj: tuple[str, str]) -> str:
        """The code's language as its markup names it: `class="language-js"` on the pre or its first child."""
        node = self.nodes.get(obj)
        for candidate in ([node] if node else []) + [self.nodes[c] for c in (node.children[:1] if node else [])
                                                     if c in self.nodes]:
            match = LANG.search(candidate.attrs.get("class", ""))
            if match:
                return match.group(1).lower()
        return ""

    def flush(self, parts: list[str], kind: str, level: int) -> None:
        text = "".join(parts)
        parts.clear()
        text = "\n".join(" ".join(line.split()) for line in text.split("\n"))
        text = re.sub(r"\n{2,}", "\n", text).strip()
        if kind == ITEM:
            text = BULLET.sub("", text)
        if text:
            self.add(Block(kind, text, level if kind == HEADING else 0))

    def add(self, block: Block) -> None:
        if block.text:
            self.out.append(block)


def _page_chrome(attrs: dict[str, Any]) -> bool:
    """Whether an element is a part of the page around what it says (CHROME_LANDMARKS, CHROME_TAGS, CHROME_NAMES)."""
    roles = set(str(attrs.get("xml-roles") or "").split())
    return bool(roles & CHROME_LANDMARKS) or attrs.get("tag") in CHROME_TAGS \
        or bool(CHROME_NAMES.search(f"{attrs.get('class') or ''} {attrs.get('id') or ''}"))


def _kind(node: _Node) -> tuple[str, int]:
    tag = node.attrs.get("tag", "").lower()
    if tag == "pre" or (tag == "code" and not _inline(node)):
        return CODE, 0
    heading = HEADING_TAG.fullmatch(tag)
    if node.role == ROLE_HEADING or heading:
        try:
            level = int(node.attrs.get("level", "") or (heading.group(1) if heading else 0))
        except ValueError:
            level = 0
        return HEADING, level
    if node.role == ROLE_LIST_ITEM or tag == "li":
        return ITEM, 0
    return PARA, 0


def _inline(node: _Node) -> bool:
    display = node.attrs.get("display", "")
    if display:
        return display.startswith("inline")
    return node.role in INLINE_ROLES


def _doc_url(attrs: dict[str, Any]) -> str:
    """The address among a document's attributes (Gecko: DocURL; others: URI, URL)."""
    for key in ("DocURL", "URI", "URL", "docurl", "uri", "url"):
        value = attrs.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def _strip_browser(title: str) -> str:
    """A window title without the browser's name after it ("Page — Mozilla Firefox" -> "Page"); "" for a title
    that is only the browser's name."""
    for sep in (" — ", " – ", " - "):
        head, found, _tail = title.rpartition(sep)
        if found and head:
            return head
    return ""


def _joined(blocks: tuple[Block, ...], max_chars: int) -> tuple[str, bool]:
    text = "\n\n".join(b.text for b in blocks)
    if len(text) > max_chars:
        return text[:max_chars], True
    return text, False
