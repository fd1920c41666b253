"""The connection to aw-server: where it is, whether it answers, and an aw-client that cannot hang or exit.

Design notes (aw-client 0.5.15):
- `aw_client` costs ~22 MB of RSS (requests, persistqueue, aw_core): it is imported only once a server answers.
- Its `ActivityWatchClient.__init__` takes a per-client-name file lock and calls `sys.exit(-1)` (SystemExit, not an
  Exception) when another process holds it; it also opens a persistqueue SQLite file for its heartbeat queue. We
  never use the queue (all our calls are synchronous), so a client is built only when a server is reachable, kept
  while it answers and closed (lock released) when it stops answering or the source stops.
- Its requests carry no timeout, so a wedged server would block a poll forever: our subclass adds one.
"""

from __future__ import annotations

import functools
import json
import socket
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:  # pragma: no cover
    from aw_client import ActivityWatchClient

DEFAULT_URL = "http://127.0.0.1:5600"
#: Our aw-client name: the name of the file lock aw-client takes and the prefix of the bucket we publish.
CLIENT_NAME = "aw-watcher-proactive"
EPISODE_EVENT_TYPE = "app.proactive.episode"
#: Seconds any single request to aw-server may take (loopback: milliseconds when healthy).
REQUEST_TIMEOUT = 5.0
#: After another process holds aw-client's lock for our client name, wait this long before trying again.
LOCK_RETRY_SECONDS = 60.0
#: How long a probe (`proactive doctor`) lets aw-server take to accept a connection and answer /api/0/info.
PROBE_TIMEOUT = 0.5
#: What a person does when no aw-server answers
PROBE_FIX = ("start ActivityWatch (aw-qt or aw-server) with its aw-watcher-web browser extension, or set "
             "activitywatch = false in config.toml to stop looking for it")


def endpoint(url: str) -> tuple[str, int, str]:
    """(host, port, scheme) of an aw-server url; aw-client wants host and port, not a url."""
    parts = urlsplit(url if "//" in url else f"http://{url}")
    scheme = parts.scheme or "http"
    host = parts.hostname
    if not host:
        raise ValueError("ActivityWatch url has no host")
    port = parts.port or (443 if scheme == "https" else 5600)
    return host, port, scheme


def is_reachable(url: str, timeout: float = 0.3) -> bool:
    """Whether something accepts TCP connections at the url's host and port.

    A plain connect, so checking costs no imports and no HTTP; it touches only the configured (normally loopback)
    address. A closed loopback port is refused at once, so this is cheap to call on every poll.
    """
    try:
        host, port, _ = endpoint(url)
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


def server_info(url: str, timeout: float = REQUEST_TIMEOUT) -> dict[str, Any]:
    """GET /api/0/info with the standard library, before aw-client exists.

    It confirms the port is an aw-server (not some other service) and tells us whether it runs in testing mode,
    which aw-client must know at construction (it names its state files after it). It also gives the server's
    hostname, used to ignore buckets synced from other machines.
    """
    import http.client

    host, port, scheme = endpoint(url)
    conn_class = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
    conn = conn_class(host, port, timeout=timeout)
    try:
        conn.request("GET", "/api/0/info")
        resp = conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            raise ConnectionError(f"aw-server info answered HTTP {resp.status}")
        info = json.loads(body)
        if not isinstance(info, dict):
            raise ConnectionError("aw-server info is not an object")
        return info
    finally:
        conn.close()


@functools.cache
def client_class() -> type[ActivityWatchClient]:
    """aw-client's client with request timeouts and a kept-alive session (defined lazily: the import is heavy)."""
    import requests
    from aw_client import ActivityWatchClient

    class _TimeoutClient(ActivityWatchClient):
        # aw-client's own _get/_post call requests without a timeout and log error bodies; ours do neither.
        def _session(self) -> requests.Session:
            session = getattr(self, "_proactive_session", None)
            if session is None:
                session = self._proactive_session = requests.Session()
            return session

        def _get(self, endpoint: str, params: dict | None = None) -> requests.Response:
            resp = self._session().get(self._url(endpoint), params=params, timeout=REQUEST_TIMEOUT)
            resp.raise_for_status()
            return resp

        def _post(self, endpoint: str, data: Any, params: dict | None = None) -> requests.Response:
            resp = self._session().post(
                self._url(endpoint),
                data=json.dumps(data).encode("utf-8"),
                headers={"Content-type": "application/json", "charset": "utf-8"},
                params=params,
                timeout=REQUEST_TIMEOUT,
            )
            resp.raise_for_status()
            return resp

        def _delete(self, endpoint: str, data: Any = None) -> requests.Response:
            resp = self._session().delete(
                self._url(endpoint),
                data=json.dumps({} if data is None else data),
                headers={"Content-type": "application/json"},
                timeout=REQUEST_TIMEOUT,
            )
            resp.raise_for_status()
            return resp

    return _TimeoutClient


class LockHeld(RuntimeError):
    """Another process holds aw-client's lock for our client name (aw-client would have called sys.exit)."""


def open_client(url: str) -> tuple[ActivityWatchClient, dict[str, Any]]:
    """A connected aw-client for `url` and the server's info. Raises on any failure, including a held lock."""
    info = server_info(url)
    host, port, scheme = endpoint(url)
    client_host = f"[{host}]" if ":" in host else host  # aw-client builds "scheme://host:port" itself
    try:
        client = client_class()(
            CLIENT_NAME, testing=bool(info.get("testing")), host=client_host, port=port, protocol=scheme
        )
    except SystemExit as exc:  # aw_client.singleinstance exits the process when the lock is taken
        raise LockHeld(CLIENT_NAME) from exc
    return client, info


def close_client(client: ActivityWatchClient | None) -> None:
    """Release what aw-client's constructor took: the lock file, the unused queue database, our HTTP session."""
    if client is None:
        return
    for closer in (
        lambda: client.instance.fp.close(),  # closing the file releases the fcntl lock (POSIX)
        lambda: client.request_queue._persistqueue.close(),
        lambda: vars(client)["_proactive_session"].close(),  # set by client_class's clients at their first request
    ):
        try:
            closer()
        except Exception:  # best effort; attributes differ by platform (Windows has no fp)
            pass
