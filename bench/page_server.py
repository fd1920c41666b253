"""A loopback web server for page benchmarks and tests: serves a folder's *.html at /pages/NAME, a search engine's
results page at /search?q=… (links to the pages whose title or text shares a word with the query, best first,
wrapped as DuckDuckGo wraps them), and records every request, so a test can assert that nothing was fetched."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

WORDS = re.compile(r"[a-z0-9]{3,}|[\u4e00-\u9fff]{2}", re.I)


@dataclass
class PageServer:
    url: str
    requests: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)  # path -> HTML served besides the fixtures

    def page(self, name: str) -> str:
        return f"{self.url}/pages/{name}"


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORDS.findall(text)}


def _results(base: str, query: str, pages: Path) -> str:
    wanted = _words(query)
    ranked = []
    for path in sorted(pages.glob("*.html")):
        text = path.read_text(encoding="utf-8")
        title = re.search(r"<title>(.*?)</title>", text, re.S)
        shared = len(wanted & _words(title.group(1) if title else "")) * 3 + len(wanted & _words(text))
        if shared:
            ranked.append((-shared, path.name, html.unescape(title.group(1)) if title else path.name))
    links = "".join(
        f'<div class="result"><a class="result__a" href="/l/?uddg={quote(f"{base}/pages/{name}", safe="")}">'
        f"{html.escape(title)}</a></div>" for _, name, title in sorted(ranked))
    return (f"<html><head><title>{html.escape(query)} at DuckDuckGo</title></head><body>"
            f'<a href="/">home</a><form><input name="q" value="{html.escape(query)}"></form>{links}</body></html>')


@contextmanager
def page_server(pages: Path) -> Iterator[PageServer]:
    """Serves `pages` (*.html; default: tests/fixtures/pages) and the search engine over them."""
    state: dict[str, PageServer] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802  (http.server's name)
            server = state["server"]
            server.requests.append(self.path)
            parts = urlsplit(self.path)
            if parts.path == "/search":
                body = _results(server.url, (parse_qs(parts.query).get("q") or [""])[0], pages)
            elif parts.path in server.extra:
                body = server.extra[parts.path]
            elif parts.path.startswith("/pages/") and (pages / parts.path[7:]).is_file():
                body = (pages / parts.path[7:]).read_text(encoding="utf-8")
            else:
                self.send_error(404)
                return
            data = body.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state["server"] = PageServer(f"http://127.0.0.1:{httpd.server_address[1]}")
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state["server"]
    finally:
        httpd.shutdown()
        httpd.server_close()
