"""Typed text is what the person typed, in a real Firefox ESR on the accessibility bus, on X11 with keys known.

Firefox edits its address bar itself: inline completion of an address visited before (selected, so the next
key replaces it), its rewrite when a page loads (after Enter, after a click on a link). The bus says "text
inserted" for all of it; only what the keys made is typed text (watcher/privacy/typed_keys.py). A click on a
link is a visit (the page's own window title), never typing; the text typed into an editable page is kept as
typed, here beside two CPU hogs.
"""

from __future__ import annotations

import re
import shutil
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

import pytest

from .conftest import WatcherProcess, XSession

BLOCK = "display:block;min-height:500px;width:100%;font-size:40px;border:1px solid #888"
PAGES = {
    "config.html": "<title>Config page</title><h1>Config</h1><p>settings</p>",
    "index.html": f'<title>Start page</title><a id="go" href="/retries.html" style="{BLOCK}">Retries</a>',
    "retries.html": "<title>Retries page</title><h1>Retries</h1><p>how to retry</p>",
    "notes.html": f'<title>Notes page</title><div contenteditable="true" style="{BLOCK}"></div>',
}


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.x11
def test_firefox_address_bar_link_and_page_keep_only_what_was_typed(xsession: XSession, proactive_home: Path,
                                                                    tmp_path: Path, monkeypatch,
                                                                    cpu_hogs: None) -> None:
    """Addresses typed where Firefox completes them inline (an address visited before, an origin visited
    before) are stored exactly as typed, never with the completion or the `http://` of the rewritten bar; a
    click on a link stores no typing of its address, and the page it opens is visited; text typed into an
    editable page is stored exactly, beside two CPU hogs. Nothing typed is stored that the keys did not make."""
    from proactive.watcher.capture.atspi import set_toolkit_accessibility

    from .test_atspi_x11 import A11ySession
    from .test_browser_page import Firefox, firefox_window, stop_typing_run

    if shutil.which("firefox-esr") is None:
        pytest.fail("firefox-esr is not installed: packaging/setup.sh test installs it")
    site = tmp_path / "site"
    site.mkdir()
    for name, body in PAGES.items():
        (site / name).write_text(f"<!doctype html><html><head></head><body>{body}</body></html>")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site)))
    Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    host = f"127.0.0.1:{server.server_address[1]}"
    session = A11ySession(tmp_path / "a11y", xsession.env).start()
    addresses = [f"{host}/config.html", f"{host}/index.html", f"{host}/notes.html"]
    page_text = "plain words typed into the page"
    firefox = None
    watcher = None
    try:
        monkeypatch.delenv("AT_SPI_BUS_ADDRESS", raising=False)
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session.env["DBUS_SESSION_BUS_ADDRESS"])
        monkeypatch.setenv("XDG_RUNTIME_DIR", session.env["XDG_RUNTIME_DIR"])
        assert set_toolkit_accessibility(True) == ""
        firefox = Firefox(session.env, tmp_path / "firefox", f"http://{host}/config.html")  # in the history
        firefox_window(xsession, firefox)
        time.sleep(3.0)  # the page loaded and on the bus
        watcher = WatcherProcess(proactive_home, session.env)
        time.sleep(1.0)
        for address in addresses[:2]:  # completed inline as typed (the address, then the origin, visited)
            xsession.key("ctrl+l")
            time.sleep(0.5)
            xsession.type(address, delay_ms=60)
            xsession.key("Return")
            time.sleep(2.5)
        xsession.xdotool("mousemove", "300", "300", "click", "1")  # the link
        time.sleep(2.5)
        xsession.key("ctrl+l")
        time.sleep(0.5)
        xsession.type(addresses[2], delay_ms=60)
        xsession.key("Return")
        time.sleep(2.5)
        xsession.xdotool("mousemove", "300", "300", "click", "1")  # into the editable block
        time.sleep(0.5)
        xsession.type(page_text, delay_ms=60)
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
    assert sorted(typed) == sorted([*addresses, page_text]), told  # all of it, exactly, and nothing else
    assert "http" not in " ".join(typed) and "retries" not in " ".join(typed), told
    assert any("Retries page" in (e.get("title") or "") for e in episodes), episodes  # the link's page visited
