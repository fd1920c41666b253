"""The page the person reads, from the browser's accessibility tree (watcher/capture/browser_page.py): a real Firefox ESR on
a real X server (Xvfb + openbox) with a real accessibility bus (a private session dbus-daemon and
at-spi-bus-launcher, GSettings in memory), showing pages served from a loopback HTTP server.

Checked: the address, title, headings with their levels, a JavaScript code block as one block with its line
breaks, list items; form fields never read; the tab that shows is the one read (Firefox keeps the other tabs'
documents in its tree); a long page read whole, or cut to its beginning by the limits; a private window gives
`private=True` and nothing else. Firefox is started with toolkit accessibility on the way a desktop has it
(org.a11y.Status.IsEnabled, set on the private session bus only), one Firefox at a time."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Protocol

import pytest

from proactive.assistant.page_help import key_points
from proactive.assistant.pages import Page as ReadPage
from proactive.watcher.capture.browser_page import (
    CODE,
    HEADING,
    ITEM,
    PARA,
    Block,
    Page,
    _Assembler,
    _Node,
    read_page,
)
from proactive.watcher.episodes.builder import BROWSER_APP

from .conftest import FIXTURES, WatcherProcess, XSession, wait_for

FIREFOX = shutil.which("firefox-esr")
needs_firefox = pytest.mark.skipif(FIREFOX is None, reason="firefox-esr is not installed (packaging/setup.sh test "
                                                           "installs it)")
PAGES = FIXTURES / "pages"
CHROME = "article_with_chrome.html"
GUIDE, NOTES, PRIVATE, LONG = ("array_sort_guide.html", "release_notes.html", "private_bank_statement.html",
                               "long_reference.html")
#: a profile that opens only the pages asked for and reaches nothing on the network by itself
PREFS = {
    "accessibility.force_disabled": 0,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.firstrunSkipsHomepage": True,
    "browser.aboutwelcome.enabled": False,
    "startup.homepage_welcome_url": "",
    "startup.homepage_welcome_url.additional": "",
    "trailhead.firstrun.didSeeAboutWelcome": True,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.policy.firstRunURL": "",
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.auto": False,
    "app.update.enabled": False,
    "app.update.disabledForTesting": True,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.prefetch-next": False,
    "network.dns.disablePrefetch": True,
    "browser.newtab.preload": True,  # (a "New Tab" document kept in the tree, never showing: not to be read)
    "browser.newtabpage.activity-stream.feeds.topsites": False,
    "browser.newtabpage.activity-stream.feeds.section.topstories": False,
    "browser.discovery.enabled": False,
    "browser.tabs.warnOnClose": False,
    "browser.sessionstore.resume_from_crash": False,
    "browser.privatebrowsing.vpnpromourl": "",
    "media.gmp-manager.url": "",
}


# -- without a browser ----------------------------------------------------------------------------------------------

def test_no_accessibility_bus_gives_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AT_SPI_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path / 'no-bus'}")
    started = time.monotonic()
    assert read_page() is None
    assert read_page(os.getpid()) is None
    assert time.monotonic() - started < 5


def test_fast_serialiser_writes_what_jeepney_writes() -> None:
    """watcher/dbus_wire.serialise, which `atspi._call_many` sends, is byte for byte jeepney's own serialiser for
    the calls the page reader makes, and hands anything else to it."""
    from jeepney import DBusAddress, new_method_call
    from jeepney.bus_messages import message_bus

    from proactive.watcher.capture import dbus_wire

    def call(path: str, interface: str, member: str, signature: str | None = None, body: tuple = ()):
        return new_method_call(DBusAddress(path, bus_name=":1.42", interface=interface), member, signature, body)

    simple = [call("/org/a11y/atspi/accessible/72", "org.a11y.atspi.Text", "GetText", "ii", (0, -1)),
              call("/org/a11y/atspi/accessible/root", "org.a11y.atspi.Accessible", "GetChildren"),
              call("/o/p_1", "org.freedesktop.DBus.Properties", "Get", "ss", ("org.a11y.atspi.Accessible", "Näme")),
              message_bus.GetConnectionUnixProcessID(":1.7")]
    for message in simple:
        for serial in (1, 300, 2**31 + 5):
            assert dbus_wire._serialise(message, serial) == message.serialise(serial=serial)
    other = call("/a", "a.b", "Set", "sv", ("x", ("b", True)))
    assert dbus_wire.serialise(other, 9) == other.serialise(serial=9)


def _tree(*nodes: tuple[str, int, dict[str, str], str | None, list[str]]) -> dict[tuple[str, str], _Node]:
    return {(":1.0", path): _Node(role, attrs, [(":1.0", c) for c in children], text)
            for path, role, attrs, text, children in nodes}


def test_blocks_from_a_tree_and_a_cut_tree() -> None:
    """The blocks of a tree as Firefox shapes it (a paragraph inside a list item is the item's text; inline code
    in its sentence); a tree the walk left unfinished ends where it stops, with what came before it."""
    obj = "\ufffc"
    nodes = _tree(("doc", 95, {"tag": "body"}, f"{obj}{obj}{obj}{obj}", ["h", "ul", "pre", "p2"]),
                  ("h", 83, {"tag": "h2", "level": "2", "display": "block"}, "Setup", []),
                  ("ul", 31, {"tag": "ul", "display": "block"}, obj, ["li"]),
                  ("li", 32, {"tag": "li", "display": "list-item"}, f"\u2022 {obj}", ["p"]),
                  ("p", 73, {"tag": "p", "display": "block"}, f"Run {obj} first.", ["code"]),
                  ("code", 116, {"tag": "code", "display": "inline"}, "make", []),
                  ("pre", 85, {"tag": "pre", "display": "block", "class": "language-py"}, obj, ["c2"]),
                  ("c2", 116, {"tag": "code", "display": "inline"}, "def f():\n    return 1\n", []),
                  ("p2", 73, {"tag": "p", "display": "block"}, "The end.", []))
    blocks, cut = _Assembler(nodes).blocks((":1.0", "doc"))
    assert not cut
    assert blocks == (Block(HEADING, "Setup", 2), Block(ITEM, "Run make first."),
                      Block(CODE, "def f():\n    return 1", lang="py"), Block(PARA, "The end."))
    del nodes[(":1.0", "pre")]  # not reached: the page ends before it
    blocks, cut = _Assembler(nodes).blocks((":1.0", "doc"))
    assert cut and blocks == (Block(HEADING, "Setup", 2), Block(ITEM, "Run make first."))


# -- a real Firefox -------------------------------------------------------------------------------------------------

def long_page() -> tuple[str, int]:
    """About 110 kB of text: sections of a heading, paragraphs with inline code and links, a list and a code
    block. Returns the HTML and the number of sections."""
    words = ("array value index callback promise module element object string number returns await export "
             "instance method class").split()
    out = ["<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Long reference</title></head><body>",
           "<h1>Long reference</h1>"]
    sections = 0
    size = 0
    while size < 110_000:
        sections += 1
        s = sections
        part = [f"<h2>Section {s}</h2>"]
        for k in range(3):
            sentence = " ".join(words[(s * 7 + k * 3 + j) % len(words)] for j in range(14))
            part.append(f"<p>Paragraph {s}.{k}: {sentence}. Call <code>step{s}()</code> as <a href='#s{s}'>section "
                        f"{s}</a> shows, then {sentence}.</p>")
        part.append("<ul>" + "".join(f"<li>Point {s}.{k} about {words[(s + k) % len(words)]}</li>"
                                     for k in range(3)) + "</ul>")
        part.append(f"<pre><code class='language-js'>function step{s}(x) {{\n  return x * {s};\n}}</code></pre>")
        size += sum(len(p) for p in part) - 120  # (markup)
        out += part
    out.append("<p>End of the long reference.</p></body></html>")
    return "\n".join(out), sections


@pytest.fixture
def pages(tmp_path: Path) -> Iterator[str]:
    """The fixture pages and a long generated one, served on loopback; yields the base URL."""
    root = tmp_path / "site"
    root.mkdir()
    for name in (GUIDE, NOTES, PRIVATE, CHROME):
        shutil.copy(PAGES / name, root / name)
    (root / LONG).write_text(long_page()[0])

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def a11y(xsession: XSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A private session bus and accessibility bus with toolkit accessibility on (in the launcher's memory:
    GSETTINGS_BACKEND=memory, never the machine's dconf); this process reads from them. Yields the environment for
    the browser."""

    from .test_atspi_x11 import LAUNCHER, A11ySession

    if not Path(LAUNCHER).exists() or shutil.which("dbus-daemon") is None:
        pytest.fail("at-spi2-core and dbus are needed: install them with packaging/setup.sh test")
    session = A11ySession(tmp_path / "a11y", xsession.env).start()
    try:
        assert session.env["GSETTINGS_BACKEND"] == "memory"
        read_from(session.env, monkeypatch)
        yield session.env
    finally:
        session.stop()


def read_from(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """This process reads the accessibility bus of the private session `env`, with toolkit accessibility on."""
    from proactive.watcher.capture.atspi import set_toolkit_accessibility

    monkeypatch.delenv("AT_SPI_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", env["DBUS_SESSION_BUS_ADDRESS"])
    monkeypatch.setenv("XDG_RUNTIME_DIR", env["XDG_RUNTIME_DIR"])
    assert set_toolkit_accessibility(True) == ""


class Firefox:
    """firefox-esr with a fresh profile, in its own process group (its content processes stop with it)."""

    def __init__(self, env: dict[str, str], root: Path, *args: str):
        profile, home = root / "profile", root / "home"
        profile.mkdir(parents=True)
        home.mkdir()
        (profile / "user.js").write_text("".join(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n"
                                                 for name, value in PREFS.items()))
        # as root, Firefox's content sandbox cannot start: it is turned off here, in tests only
        env = dict(env, HOME=str(home), MOZ_DISABLE_CONTENT_SANDBOX="1", MOZ_CRASHREPORTER_DISABLE="1",
                   XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"))
        env.pop("MOZ_HEADLESS", None)
        assert FIREFOX is not None
        self.proc = subprocess.Popen([FIREFOX, "--no-remote", "--new-instance", "--profile", str(profile), *args],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # what is left of the group (content processes)
        except ProcessLookupError:
            pass
        self.proc.wait()


def firefox_window(xsession: XSession, firefox: Firefox) -> tuple[str, int]:
    """Firefox's window (focused) and the pid its window says (_NET_WM_PID), as the watcher sees them."""

    def find() -> str | None:
        assert firefox.proc.poll() is None, f"firefox-esr exited with {firefox.proc.returncode}"
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Mozilla Firefox"], env=xsession.env,
                             capture_output=True, text=True, timeout=10)
        return out.stdout.split()[0] if out.stdout.split() else None

    wid = wait_for(find, timeout=40, interval=0.3, what="Firefox's window")
    xsession.activate(wid)
    return wid, int(xsession.xdotool("getwindowpid", wid))


class Stops(Protocol):
    def stop(self) -> None: ...


def stop_typing_run(watcher: WatcherProcess | None, firefox: Firefox | None, bus: Stops,
                    server: ThreadingHTTPServer) -> tuple[int, str] | None:
    """The end of a test that typed into Firefox on a private accessibility bus (`bus`: tests/test_atspi_x11.py's
    A11ySession) while `proactive watch` ran, pages served by `server`: the watcher stops first, then Firefox, the
    bus and the server. Returns the watcher's exit code and stderr, or None when it never started."""
    stopped = watcher.stop() if watcher is not None else None
    if firefox is not None:
        firefox.stop()
    bus.stop()
    server.shutdown()
    server.server_close()
    return stopped


def settled(pid: int, url: str) -> Page:
    """The page once Firefox shows `url`, loaded, and two readings agree (its tree is built as it loads)."""
    last: list[Page | None] = [None]

    def agree() -> Page | None:
        page = read_page(pid)
        ok = page is not None and page.url == url and not page.loading and page.blocks and page == last[0]
        last[0] = page
        return page if ok else None

    return wait_for(agree, timeout=30, interval=0.3, what=f"the page {url} read from Firefox's tree")


def assert_the_guide(page: Page) -> None:
    """The guide page as read: its title, headings, code block, paragraph and list items in document order, and
    neither its form fields nor the other tab's text."""
    assert page.title == "Sorting arrays of numbers in JavaScript"
    assert page.browser == "Firefox" and not page.private and not page.truncated
    assert Block(HEADING, "Sorting arrays of numbers", 1) in page.blocks
    assert Block(HEADING, "A compare function", 2) in page.blocks
    assert Block(HEADING, "Things to remember", 3) in page.blocks
    code = [b for b in page.blocks if b.kind == CODE]
    assert code == [Block(CODE, 'const scores = [10, 9, 1];\nscores.sort((a, b) => a - b);\n'
                                '// scores is now [1, 9, 10]\nconsole.log(scores.join(", "));', lang="js")]
    assert Block(PARA, "By default Array.prototype.sort compares elements as strings, so [10, 9, 1] sorts to "
                       "[1, 10, 9]. Pass a compare function to sort numbers by value.") in page.blocks
    assert [b.text for b in page.blocks if b.kind == ITEM] == [
        "The sort happens in place and returns the same array.", "Use toSorted for a sorted copy.",
        "The sort is stable since ES2019."]
    kinds = [b.kind for b in page.blocks]
    assert kinds.index(HEADING) < kinds.index(CODE) < kinds.index(ITEM)  # document order
    assert "scores.sort((a, b) => a - b);\n// scores" in page.text
    for canary in ("FormFieldCanary42", "PasswordCanary77", "Release notes"):  # form fields; the other tab
        assert canary not in page.text and all(canary not in b.text for b in page.blocks)


def assert_the_long_page(pid: int, full: Page) -> None:
    """The long page: read whole and in its order, the same when read again, and cut by the limits to its
    beginning."""
    sections = long_page()[1]
    started = time.perf_counter()
    again = read_page(pid)
    seconds = time.perf_counter() - started
    print(f"\nread_page on a {len(full.text) // 1000} kB page ({len(full.blocks)} blocks): {seconds:.2f} s")
    assert again == full and not full.truncated and len(full.text) > 100_000
    headings = [b.text for b in full.blocks if b.kind == HEADING]
    assert headings == ["Long reference", *(f"Section {s}" for s in range(1, sections + 1))]
    assert full.blocks[-1] == Block(PARA, "End of the long reference.")
    assert Block(CODE, f"function step{sections}(x) {{\n  return x * {sections};\n}}", lang="js") in full.blocks
    short = read_page(pid, max_chars=20_000)
    assert short is not None and short.truncated and 10_000 < len(short.text) <= 20_000
    assert full.text.startswith(short.text)
    assert short.blocks[:-1] == full.blocks[:len(short.blocks) - 1]


@pytest.mark.x11
@needs_firefox
def test_reads_the_page_of_the_tab_that_shows(xsession: XSession, a11y: dict[str, str], pages: str,
                                              tmp_path: Path) -> None:
    firefox = Firefox(a11y, tmp_path / "firefox", pages + GUIDE, pages + NOTES, pages + LONG, pages + CHROME)
    try:
        _wid, pid = firefox_window(xsession, firefox)
        assert pid == firefox.proc.pid

        # the first tab shows: the guide, not the release notes loaded in the second tab
        page = settled(pid, pages + GUIDE)
        assert_the_guide(page)
        assert read_page(timeout=2.0) == page  # without a pid: the application whose window is active

        # the second tab now shows: it is the one read
        xsession.key("ctrl+Next")
        notes = settled(pid, pages + NOTES)
        assert notes.title == "Release notes 4.2"
        assert [b for b in notes.blocks if b.kind == CODE] == [
            Block(CODE, "pip install parser==4.2\nparser --check config.toml", lang="sh")]
        assert Block(HEADING, "Breaking changes", 2) in notes.blocks
        assert "Sorting arrays" not in notes.text

        # the long page (third tab): read whole, in its order; cut by the limits to its beginning
        xsession.key("ctrl+Next")
        long_read = settled(pid, pages + LONG)
        assert_the_long_page(pid, long_read)

        # a page among its chrome (cookie and consent banners, navigation, side column, footer): only what it says
        xsession.key("ctrl+Next")
        article = settled(pid, pages + CHROME)
        assert "ChromeCanary" not in article.text, article.text
        assert [b.text for b in article.blocks if b.kind == HEADING] == ["Consent records under the GDPR",
                                                                         "What to store"]
        assert "keep one for every cookie consent a visitor gives" in article.text  # the words are not the chrome
        assert "Even a page about baking cookies keeps its own paragraphs." in article.text
        # a banner that is a plain div with a class is not in the tree as such: its text is the page's, and its
        # sentence is no key point
        points = key_points(ReadPage(article.url, article.title, article.blocks, "browser"))
        assert "143 partners" in article.text and points and not any("partners" in p for p in points), points
        xsession.key("ctrl+Prior")
        assert settled(pid, pages + LONG) == long_read

        # the person turns to a terminal: the active window shows no page; the browser window still on screen is
        # the page just turned from, read only when asked for with the browsers' names
        xsession.start_xterm("notes")
        assert read_page(timeout=2.0) is None
        assert read_page(timeout=2.0, background=BROWSER_APP) == long_read
    finally:
        firefox.stop()


@pytest.mark.x11
@needs_firefox
def test_private_window_is_private_and_nothing_of_it_is_read(xsession: XSession, a11y: dict[str, str], pages: str,
                                                             tmp_path: Path) -> None:
    firefox = Firefox(a11y, tmp_path / "firefox", "--private-window", pages + PRIVATE)
    try:
        wid, pid = firefox_window(xsession, firefox)

        def private() -> Page | None:
            page = read_page(pid)
            return page if page is not None and page.private else None

        page = wait_for(private, timeout=30, interval=0.3, what="Firefox's private window on the bus")
        # the window first appears as plain "Mozilla Firefox"; its private title follows once the page is named
        wait_for(lambda: "Private Browsing" in xsession.xdotool("getwindowname", wid), timeout=30, interval=0.3,
                 what="Firefox's private window title")
        assert page == Page("", "", "", True, "Firefox")
        # the window is known private by Firefox's own indicator too, whatever the title's language says
        assert read_page(pid, excluded_titles=[]) == page
        # turned from, behind a terminal, it is as private
        xsession.start_xterm("notes")
        assert read_page(timeout=2.0, background=BROWSER_APP) == page
    finally:
        firefox.stop()
