"""Typed text is what the person typed, in a real Firefox ESR on the accessibility bus, on X11 with keys known.

Firefox edits its address bar itself: inline completion of an address visited before (selected, so the next
key replaces it), its rewrite when a page loads (after Enter, after a click on a link). The bus says "text
inserted" for all of it; only what the keys made is typed text (watcher/privacy/typed_keys.py). A click on a
link is a visit (the page's own window title), never typing; the text typed into an editable page is kept as
typed, here beside two CPU hogs, as is an address typed at once after Ctrl+L, right after a page opened.

Firefox handles Ctrl+L after the page has seen it (the page may take the shortcut): on a busy machine the keys
typed at once after it reach the page meanwhile, and an editable page takes them (the address bar gets the
rest: `ttp://...`, which Firefox opens as `http://...`). The editable page says what it holds (`HOLDS`), so what
the test expects is where Firefox put the keys, not where they were meant to go.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

import pytest

from .conftest import WatcherProcess, XSession, wait_for

#: the editable page posts what its block holds (its time, the text) to the test's server at each change
HOLDS = """<script>const block = document.querySelector("[contenteditable]");
block.addEventListener("input", () => navigator.sendBeacon("/holds", JSON.stringify([performance.now(), block.innerText])));
</script>"""
BLOCK = "display:block;min-height:500px;width:100%;font-size:40px;border:1px solid #888"
PAGES = {
    "config.html": "<title>Config page</title><h1>Config</h1><p>settings</p>",
    "index.html": f'<title>Start page</title><a id="go" href="/retries.html" style="{BLOCK}">Retries</a>',
    "retries.html": "<title>Retries page</title><h1>Retries</h1><p>how to retry</p>",
    "notes.html": f'<title>Notes page</title><div contenteditable="true" style="{BLOCK}"></div>{HOLDS}',
}


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        """What the editable page holds (`HOLDS`), kept in the server's `holds`."""
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.holds.append(json.loads(body))  # type: ignore[attr-defined]
        self.send_response(204)
        self.end_headers()


def shown(xsession: XSession, title: str) -> None:
    """Waits until the focused window's title starts with `title` (Firefox shows that page)."""
    seen = [""]

    def showing() -> bool:
        seen[0] = xsession.xdotool("getactivewindow", "getwindowname")
        return seen[0].startswith(title)

    try:
        wait_for(showing, timeout=30, what=f"Firefox showing {title!r}")
    except AssertionError as exc:
        raise AssertionError(f"{exc} (it shows {seen[0]!r})") from None


@pytest.mark.x11
def test_firefox_address_bar_link_and_page_keep_only_what_was_typed(xsession: XSession, proactive_home: Path,
                                                                    tmp_path: Path, monkeypatch,
                                                                    cpu_hogs: None) -> None:
    """Addresses typed where Firefox completes them inline (an address visited before, an origin visited
    before) are stored exactly as typed, never with the completion or the `http://` of the rewritten bar; a
    click on a link stores no typing of its address, and the page it opens is visited; text typed into an
    editable page is stored exactly, beside two CPU hogs. The last address is typed at once after Ctrl+L, right
    after a navigation, the page's text at once after the click, and another address at once after that: the
    focus events, told late, drop none of their first characters. Nothing typed is stored that the keys did not
    make."""
    from .test_atspi_x11 import A11ySession
    from .test_browser_page import Firefox, firefox_window, read_from, stop_typing_run

    if shutil.which("firefox-esr") is None:
        pytest.fail("firefox-esr is not installed: packaging/setup.sh test installs it")
    site = tmp_path / "site"
    site.mkdir()
    for name, body in PAGES.items():
        (site / name).write_text(f"<!doctype html><html><head></head><body>{body}</body></html>")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    server.holds = []  # type: ignore[attr-defined]  # what the editable page held after each change
    Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    host = f"127.0.0.1:{server.server_address[1]}"
    session = A11ySession(tmp_path / "a11y", xsession.env).start()
    addresses = [f"{host}/config.html", f"{host}/index.html", f"http://{host}/notes.html",
                 f"http://{host}/config.html?q=typed+at+once"]
    page_text = "plain words typed into the page"
    firefox = None
    watcher = None
    try:
        read_from(session.env, monkeypatch)
        firefox = Firefox(session.env, tmp_path / "firefox", f"http://{host}/config.html")  # in the history
        firefox_window(xsession, firefox)
        time.sleep(3.0)  # the page loaded and on the bus
        watcher = WatcherProcess(proactive_home, session.env)
        time.sleep(1.0)
        for address, title in zip(addresses[:2], ("Config page", "Start page"), strict=True):
            # completed inline as typed (the address, then the origin, visited)
            xsession.key("ctrl+l")
            time.sleep(0.5)
            xsession.type(address, delay_ms=60)
            xsession.key("Return")
            time.sleep(2.5)
            shown(xsession, title)
        xsession.xdotool("mousemove", "300", "300", "click", "1")  # the link
        time.sleep(0.3)
        # typed at once after Ctrl+L (one xdotool command) while the link's page opens: busy, Firefox tells the
        # address bar's focus after the first keys typed into it, and the page's title while they are typed
        # (the scheme typed: the address is opened as typed, at once)
        xsession.xdotool("key", "ctrl+l", "type", "--delay", "110", "--", addresses[2])
        xsession.key("Return")
        shown(xsession, "Notes page")
        time.sleep(1.5)
        xsession.xdotool("mousemove", "300", "300", "click", "1",  # into the editable block, typed at once
                         "type", "--delay", "110", "--", page_text)
        xsession.key("Return")
        xsession.xdotool("key", "ctrl+l", "type", "--delay", "110", "--", addresses[3])  # at once again
        xsession.key("Return")
        time.sleep(2.0)
        watcher.flushed()
    finally:
        stopped = stop_typing_run(watcher, firefox, session, server)
    assert stopped is not None
    code, err = stopped
    assert code == 0, err
    episodes = watcher.episodes()
    told = "\n".join(e["event"] for e in episodes)
    typed = re.findall(r"The user types '([^']*)'", told)
    # the page holds its text, and, on a line of its own, the first keys of the last address if Firefox gave
    # them to the page (busy, it handles Ctrl+L after the page has seen it): the address bar had the rest
    assert server.holds, "the editable page said nothing of what it holds"  # type: ignore[attr-defined]
    held = max(server.holds)[1].replace("\xa0", " ")  # type: ignore[attr-defined]
    lines = [line.strip() for line in held.splitlines() if line.strip()]
    assert lines[:1] == [page_text] and addresses[3].startswith("".join(lines[1:])), held
    expected = [*lines, *addresses[:3], addresses[3][len("".join(lines[1:])):]]
    assert sorted(typed) == sorted(expected), (told, held)  # all of it, exactly, and nothing else
    joined = " ".join(typed)
    assert joined.count("http") == " ".join(expected).count("http") and "retries" not in joined, told  # only typed
    assert any("Retries page" in (e.get("title") or "") for e in episodes), episodes  # the link's page visited
