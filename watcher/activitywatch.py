"""ActivityWatch interop: read a user's aw-server buckets, and publish our episodes as a bucket of our own.

Why: a user who already runs ActivityWatch has a browser extension (aw-watcher-web) that knows the URL and title of
the current tab, which no window title gives us; where no capture source of ours runs its window/afk watchers are
the only way to see the focused window. And publishing our episodes lets ActivityWatch's UI show what we captured.

Everything here is optional: when no server answers nothing is imported, nothing is written and nothing raises.
What is read and what is sent is decided in one place, `ActivityWatchSettings` (from config.toml and `--no-aw`),
for the watcher, `proactive doctor` and `proactive purge` alike; the reader's probe (`probe_server`) lives here too.

Design notes (aw-client 0.5.15):
- `aw_client` costs ~22 MB of RSS (requests, persistqueue, aw_core): it is imported only once a server answers.
- Its `ActivityWatchClient.__init__` takes a per-client-name file lock and calls `sys.exit(-1)` (SystemExit, not an
  Exception) when another process holds it; it also opens a persistqueue SQLite file for its heartbeat queue. We
  never use the queue (all our calls are synchronous), so a client is built only when a server is reachable, kept
  while it answers and closed (lock released) when it stops answering or the source stops.
- Its requests carry no timeout, so a wedged server would block a poll forever: our subclass adds one.
- Servers trim events to the requested range (timestamp moves to `start`) and heartbeats extend the last event in
  place; we therefore remember delivered events by id, not by timestamp.
"""

from __future__ import annotations

import functools
import json
import logging
import socket
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from proactive.watcher.capture.sources import Probe, Source
from proactive.watcher.events import IDLE, WEB, WINDOW, Emit, RawEvent
from proactive.watcher.store import home

if TYPE_CHECKING:  # pragma: no cover
    from aw_client import ActivityWatchClient

log = logging.getLogger(__name__)

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
#: What the reader gives, said by the probe of a reader that is not built (ActivityWatch turned off)
CAPTURES = "browser tabs (aw-watcher-web); windows and idle where no own source sees them"
#: What a person does when no aw-server answers
PROBE_FIX = ("start ActivityWatch (aw-qt or aw-server) with its aw-watcher-web browser extension, or set "
             "activitywatch = false in config.toml to stop looking for it")

WEB_TYPE = "web.tab.current"
WINDOW_TYPE = "currentwindow"
AFK_TYPE = "afkstatus"

_BROWSERS = {
    "firefox": "Firefox",
    "chrome": "Chrome",
    "chromium": "Chromium",
    "edge": "Edge",
    "brave": "Brave",
    "opera": "Opera",
    "vivaldi": "Vivaldi",
    "safari": "Safari",
    "librewolf": "LibreWolf",
    "waterfox": "Waterfox",
    "arc": "Arc",
}
_WEB_BUCKET_PREFIX = "aw-watcher-web-"
_AFK_STATES = {"afk": "idle", "not-afk": "active"}


def _endpoint(url: str) -> tuple[str, int, str]:
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
        host, port, _ = _endpoint(url)
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


def _server_info(url: str, timeout: float = REQUEST_TIMEOUT) -> dict[str, Any]:
    """GET /api/0/info with the standard library, before aw-client exists.

    It confirms the port is an aw-server (not some other service) and tells us whether it runs in testing mode,
    which aw-client must know at construction (it names its state files after it). It also gives the server's
    hostname, used to ignore buckets synced from other machines.
    """
    import http.client

    host, port, scheme = _endpoint(url)
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


def probe_server(url: str, captures: str = CAPTURES) -> Probe:
    """Whether an aw-server answers at `url` (the configured one, normally loopback): a TCP connect and its
    /api/0/info, each within PROBE_TIMEOUT. Nothing is sent but that request."""
    if not is_reachable(url, timeout=PROBE_TIMEOUT):
        return Probe(ActivityWatchSource.name, captures, False, f"no aw-server answers at {url}", PROBE_FIX)
    try:
        info = _server_info(url, timeout=PROBE_TIMEOUT)
    except Exception as exc:
        return Probe(ActivityWatchSource.name, captures, False, f"{url} answers, but not as an aw-server ({exc})",
                     PROBE_FIX)
    version = info.get("version", "")
    return Probe(ActivityWatchSource.name, captures, True, f"aw-server {version} at {url}".replace("  ", " "))


@functools.cache
def _client_class() -> type[ActivityWatchClient]:
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


class _LockHeld(RuntimeError):
    """Another process holds aw-client's lock for our client name (aw-client would have called sys.exit)."""


def _open_client(url: str) -> tuple[ActivityWatchClient, dict[str, Any]]:
    """A connected aw-client for `url` and the server's info. Raises on any failure, including a held lock."""
    info = _server_info(url)
    host, port, scheme = _endpoint(url)
    client_host = f"[{host}]" if ":" in host else host  # aw-client builds "scheme://host:port" itself
    try:
        client = _client_class()(
            CLIENT_NAME, testing=bool(info.get("testing")), host=client_host, port=port, protocol=scheme
        )
    except SystemExit as exc:  # aw_client.singleinstance exits the process when the lock is taken
        raise _LockHeld(CLIENT_NAME) from exc
    return client, info


def _close_client(client: ActivityWatchClient | None) -> None:
    """Release what aw-client's constructor took: the lock file, the unused queue database, our HTTP session."""
    if client is None:
        return
    for closer in (
        lambda: client.instance.fp.close(),  # closing the file releases the fcntl lock (POSIX)
        lambda: client.request_queue._persistqueue.close(),
        lambda: vars(client)["_proactive_session"].close(),  # set by _client_class's clients at their first request
    ):
        try:
            closer()
        except Exception:  # best effort; attributes differ by platform (Windows has no fp)
            pass


def browser_name(bucket_id: str) -> str:
    """The browser a web bucket belongs to: `aw-watcher-web-firefox[_host]` -> "Firefox" ("" when unknown).

    aw-watcher-web names its bucket after the browser family (its `client` field is always "aw-client-web").
    """
    if not bucket_id.startswith(_WEB_BUCKET_PREFIX):
        return ""
    family = bucket_id[len(_WEB_BUCKET_PREFIX) :].split("_", 1)[0].lower()
    if not family or family == "unknown":
        return ""
    return _BROWSERS.get(family, family.capitalize())


def _parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        dt = datetime.fromisoformat(value)
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


@dataclass
class _Mark:
    """What was delivered from one bucket: the end of the latest event seen, and the ids still overlapping it.

    The next query starts at `hwm`; the server returns every event ending at or after it, which includes events a
    heartbeat keeps extending. Those are recognised by id and not delivered again.
    """

    hwm: datetime
    seen: set[Any] = field(default_factory=set)


class ActivityWatchSource(Source):
    """Polls aw-server for web tabs (and, optionally, windows and afk status) and emits them as RawEvents.

    Web events are always read: they add URLs that our own capture cannot see. Windows and afk are off by default
    because our own sources see them first-hand; `ActivityWatchSettings.source` turns them on where this session
    has no source of its own.
    """

    name = "activitywatch"

    def __init__(
        self,
        url: str = DEFAULT_URL,
        poll_seconds: float = 10.0,
        use_windows: bool = False,
        use_afk: bool = False,
    ) -> None:
        self.url = url
        self.poll_seconds = poll_seconds
        self.use_windows = use_windows
        self.use_afk = use_afk
        read = {"browser tabs (aw-watcher-web)": True, "windows (aw-watcher-window)": use_windows,
                "idle (aw-watcher-afk)": use_afk}
        self.captures = ", ".join(what for what, on in read.items() if on)  # what the probe says it reads
        self._emit: Emit | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._client: ActivityWatchClient | None = None
        self._server_host = ""
        self._cutoff = datetime.now(UTC)
        self._marks: dict[str, _Mark] = {}
        self._retry_after = 0.0
        self._failing = False

    # -- Source interface -------------------------------------------------------------------------------------

    def start(self, emit: Emit) -> None:
        """Begin polling in a daemon thread (first poll at once). Calling it while running does nothing."""
        if self._thread is not None:
            if self._thread.is_alive() and not self._stopping.is_set():
                return  # already running
            # A previous stop() gave up waiting (a request in flight): let that thread finish before reusing state.
            self._thread.join(timeout=REQUEST_TIMEOUT + 1.0)
            if self._thread.is_alive():
                raise RuntimeError("the previous ActivityWatch polling thread is still running")
        self._emit = emit
        self._stopping.clear()
        # Only what happens from now on (one poll of slack for events a watcher had not flushed yet): a user's
        # history stays in ActivityWatch.
        self._cutoff = datetime.now(UTC) - timedelta(seconds=self.poll_seconds)
        self._thread = threading.Thread(target=self._run, name="activitywatch-source", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the thread promptly (it waits on an Event, never sleeps) and release the client. Idempotent."""
        self._stopping.set()
        thread = self._thread
        if thread is None or thread is threading.current_thread():
            return
        thread.join(timeout=REQUEST_TIMEOUT + 1.0)
        if thread.is_alive():
            log.warning("ActivityWatch source thread did not stop in time; it ends after its current request")
        else:
            self._thread = None

    def probe(self) -> Probe:
        """Whether aw-server answers at the url, and what this reader takes from it (its buckets' kinds)."""
        return probe_server(self.url, self.captures)

    # -- polling ------------------------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                try:
                    self._poll_once()
                    if self._failing:
                        log.info("ActivityWatch polling works again")
                    self._failing = False
                except Exception as exc:  # never let the thread die; the next poll retries
                    self._drop_client()
                    # Only the exception type: messages may quote URLs or titles (privacy).
                    level = logging.DEBUG if self._failing else logging.WARNING
                    log.log(level, "ActivityWatch poll failed (%s); retrying", type(exc).__name__)
                    self._failing = True
                if self._stopping.wait(self.poll_seconds):
                    break
        finally:
            self._drop_client()

    def _drop_client(self) -> None:
        client, self._client = self._client, None
        _close_client(client)

    def _connect(self) -> ActivityWatchClient | None:
        if self._client is not None:
            return self._client
        if time.monotonic() < self._retry_after:
            return None
        try:
            self._client, info = _open_client(self.url)
        except _LockHeld:
            self._retry_after = time.monotonic() + LOCK_RETRY_SECONDS
            log.warning(
                "another process uses aw-client name %r for this server; ActivityWatch reading paused for %.0f s",
                CLIENT_NAME,
                LOCK_RETRY_SECONDS,
            )
            return None
        self._server_host = str(info.get("hostname") or "")
        log.info("connected to aw-server (testing=%s)", bool(info.get("testing")))
        return self._client

    def _poll_once(self) -> None:
        """One round: fetch what is new in every bucket we read, emit it in timestamp order."""
        if not is_reachable(self.url):
            if self._client is not None:
                log.info("aw-server stopped answering; releasing the client")
            self._drop_client()
            return
        client = self._connect()
        if client is None:
            return
        batch: list[RawEvent] = []
        for bucket_id, meta in sorted(client.get_buckets().items()):
            if self._stopping.is_set():
                return
            kind = self._kind_for(meta)
            if kind is None or not self._is_local(meta):
                continue
            batch.extend(self._fetch(client, bucket_id, kind, meta))
        batch.sort(key=lambda ev: ev.ts)
        emit = self._emit
        for event in batch:
            if self._stopping.is_set() or emit is None:
                return
            emit(event)

    def _kind_for(self, meta: dict[str, Any]) -> str | None:
        bucket_type = meta.get("type")
        if bucket_type == WEB_TYPE:
            return WEB
        if bucket_type == WINDOW_TYPE and self.use_windows:
            return WINDOW
        if bucket_type == AFK_TYPE and self.use_afk:
            return IDLE
        return None

    def _is_local(self, meta: dict[str, Any]) -> bool:
        """Skip buckets synced from other machines: their windows are not this user's current context.

        aw-watcher-web cannot learn the hostname and says "unknown": such buckets count as local.
        """
        hostname = meta.get("hostname")
        if not hostname or hostname == "unknown":
            return True
        return hostname in {self._server_host, socket.gethostname()}

    def _fetch(
        self, client: ActivityWatchClient, bucket_id: str, kind: str, meta: dict[str, Any]
    ) -> list[RawEvent]:
        mark = self._marks.get(bucket_id)
        if mark is None:
            mark = self._marks[bucket_id] = _Mark(hwm=self._cutoff)
        last_updated = _parse_time(meta.get("last_updated"))
        if last_updated is not None and last_updated <= mark.hwm:
            return []  # nothing ended after what we already have: save a request
        events = client.get_events(bucket_id, start=mark.hwm)
        out: list[RawEvent] = []
        seen: set[Any] = set()
        hwm = mark.hwm
        for event in events:
            key = (
                event.id
                if event.id is not None
                else (event.timestamp.isoformat(), json.dumps(event.data, sort_keys=True))
            )
            seen.add(key)
            hwm = max(hwm, event.timestamp + event.duration)
            if key in mark.seen:
                continue  # delivered before, possibly extended since by heartbeats
            raw = self._convert(bucket_id, kind, event)
            if raw is not None:
                out.append(raw)
        mark.hwm = hwm
        mark.seen = seen
        return out

    @staticmethod
    def _convert(bucket_id: str, kind: str, event: Any) -> RawEvent | None:
        data = event.data if isinstance(event.data, dict) else {}
        ts = event.timestamp.timestamp()
        if kind == WEB:
            out: dict[str, Any] = {
                "url": str(data.get("url") or ""),
                "title": str(data.get("title") or ""),
                "browser": browser_name(bucket_id),
            }
            if "incognito" in data:
                out["incognito"] = bool(data["incognito"])
            return RawEvent(source=ActivityWatchSource.name, kind=WEB, data=out, ts=ts)
        if kind == WINDOW:
            out = {
                "app": str(data.get("app") or ""),
                "title": str(data.get("title") or ""),
                "via": "activitywatch",
            }
            return RawEvent(source=ActivityWatchSource.name, kind=WINDOW, data=out, ts=ts)
        if kind == IDLE:
            state = _AFK_STATES.get(str(data.get("status")))
            if state is None:
                return None
            out = {"state": state, "seconds": event.duration.total_seconds()}
            return RawEvent(source=ActivityWatchSource.name, kind=IDLE, data=out, ts=ts)
        return None


def published_marker() -> Path:
    """Exists once episodes were published from this home: a purge must then reach the bucket, and says so when
    the server is down. Without it, no server answering means there is nothing there to delete."""
    return home.data_dir() / "activitywatch.published"


class ActivityWatchPublisher:
    """Publishes closed episodes to aw-server as events of type `app.proactive.episode`.

    Synchronous on purpose: `publish` says how many episodes the server holds afterwards (all or none), so the
    caller can retry later instead of relying on aw-client's persistent queue (which only handles heartbeats).
    Thread-safe; `close()` releases aw-client's lock.
    """

    def __init__(self, url: str = DEFAULT_URL, hostname: str | None = None, text: bool = False) -> None:
        self.url = url
        self.text = text  # the `activitywatch_text` setting: whether the episode's sentences go along
        self.hostname = hostname or socket.gethostname()
        self.bucket_id = f"{CLIENT_NAME}_{self.hostname}"
        self._client: ActivityWatchClient | None = None
        self._bucket_ready = False
        self._marked = False  # published_marker() written by this publisher
        self._lock = threading.Lock()

    def publish(self, episodes: list[dict[str, Any]]) -> int:
        """Insert episodes (`start`, `end` epoch seconds; `app`, `title`, `event` text); return how many were published.

        An event holds the episode's app and title; its `event` text (the sentences, which quote what was typed and
        copied) only when `text` is set: aw-server stores events unencrypted and keeps deleted ones in its database
        files for a while, so that text leaves this machine's protection only when the person chose it.

        Returns 0 without raising when no server answers or the server refuses; malformed episodes raise, since
        they are a bug in the caller rather than a condition of the environment.
        """
        rows = [
            (float(ep["start"]), max(0.0, float(ep["end"]) - float(ep["start"])), self._data(ep))
            for ep in episodes
        ]
        if not rows or not is_reachable(self.url):
            return 0
        with self._lock:
            try:
                if self._client is None:
                    self._client, _ = _open_client(self.url)
                    self._client.client_hostname = self.hostname  # bucket metadata matches the bucket id
                    self._bucket_ready = False
                client = self._client
                if not self._bucket_ready:
                    # 200 when created, 304 when it already exists: both fine.
                    client.create_bucket(self.bucket_id, EPISODE_EVENT_TYPE, queued=False)
                    self._bucket_ready = True
                from aw_core.models import Event

                events = [
                    Event(timestamp=datetime.fromtimestamp(start, UTC), duration=duration, data=data)
                    for start, duration, data in rows
                ]
                client.insert_events(self.bucket_id, events)
                if not self._marked:
                    published_marker().touch()
                    self._marked = True
            except Exception as exc:
                # The server may have restarted (memory storage loses the bucket): start over next time.
                log.warning("publishing episodes to aw-server failed (%s)", type(exc).__name__)
                self._close_locked()
                return 0
        return len(rows)

    def _data(self, episode: dict[str, Any]) -> dict[str, str]:
        """The published event's data: app and title, and the sentences only with the `activitywatch_text` opt-in."""
        data = {"app": str(episode["app"]), "title": str(episode["title"])}
        if self.text:
            data["event"] = str(episode["event"])
        return data

    def unpublish(self, before: float | None = None) -> int | None:
        """Delete our published episodes that ended before `before` (all of them, with the bucket, when None);
        returns how many were deleted, None when no server answers and nothing was ever published from this home
        (nothing to delete, and nothing deleted through a server that is not there). Raises OSError when no
        server answers and episodes were published, so a purge can say this copy is still there instead of
        claiming it is gone."""
        if not is_reachable(self.url):
            if not published_marker().exists():
                return None
            raise OSError(f"no ActivityWatch server answers at {self.url}")
        with self._lock:
            try:
                if self._client is None:
                    self._client, _ = _open_client(self.url)
                    self._client.client_hostname = self.hostname
                client = self._client
                if self.bucket_id not in client.get_buckets():
                    return 0
                if before is None:
                    n = int(client.get_eventcount(self.bucket_id))
                    client.delete_bucket(self.bucket_id, force=True)
                    self._bucket_ready = False  # the next publish creates it again
                    published_marker().unlink(missing_ok=True)
                    return n
                cutoff = datetime.fromtimestamp(before, UTC)
                old = [e for e in client.get_events(self.bucket_id, end=cutoff)
                       if e.id is not None and e.timestamp + e.duration < cutoff]
                for event in old:
                    # aw-client annotates the id as int, but puts any event id (aw_core's int | str) in the URL
                    client.delete_event(self.bucket_id, event.id)  # type: ignore[arg-type]
                return len(old)
            except OSError:
                self._close_locked()
                raise
            except Exception as exc:
                self._close_locked()
                raise OSError(f"ActivityWatch at {self.url} refused the deletion ({type(exc).__name__})") from exc

    def close(self) -> None:
        """Release the aw-client (and its lock). Publishing again reopens it."""
        with self._lock:
            self._close_locked()

    def _close_locked(self) -> None:
        client, self._client = self._client, None
        self._bucket_ready = False
        _close_client(client)

    def __enter__(self) -> ActivityWatchPublisher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class ActivityWatchSettings:
    """How ActivityWatch is used here, from config.toml and `--no-aw`: computed by `from_config` alone, so the
    running watcher (`watcher/service.py`, through `platform.session_sources`), `proactive doctor` and
    `proactive purge` cannot differ on the server, on the buckets read or on what is sent to it.

    Read: `web.tab.current` buckets always; `currentwindow` and `afkstatus` only where the session has no capture
    source of its own (no display, or a platform without one), since ours see windows and idle first-hand.
    Sent: each closed episode's application and title (`app.proactive.episode` events in our own bucket), with its
    sentences only when `activitywatch_text` is set."""

    url: str = DEFAULT_URL
    poll_seconds: float = 10.0
    text: bool = False  # `activitywatch_text`: published episodes carry their sentences (typed and copied text)
    off: str = ""  # what turned ActivityWatch off, a key of TURNED_OFF ("" when it is on)

    #: what can turn ActivityWatch off: (what the doctor says, how to turn it on again)
    TURNED_OFF: ClassVar[dict[str, tuple[str, str]]] = {
        "config": ("activitywatch = false in config.toml",
                   "set activitywatch = true in config.toml to read a running ActivityWatch"),
        "no_aw": ("--no-aw", "run without --no-aw to read a running ActivityWatch"),
    }

    @classmethod
    def from_config(cls, config: home.Config, no_aw: bool = False) -> ActivityWatchSettings:
        off = "config" if not config.activitywatch else "no_aw" if no_aw else ""
        return cls(config.activitywatch_url, config.activitywatch_poll_seconds, config.activitywatch_text, off)

    @property
    def on(self) -> bool:
        return not self.off

    def source(self, own: list[Source]) -> ActivityWatchSource:
        """The reader, beside the session's `own` sources: windows and idle from ActivityWatch when there are
        none of our own."""
        return ActivityWatchSource(self.url, self.poll_seconds, use_windows=not own, use_afk=not own)

    def publisher(self) -> ActivityWatchPublisher:
        """The writer of our bucket (publishing, and deleting on purge)."""
        return ActivityWatchPublisher(self.url, text=self.text)

    def off_probe(self) -> Probe:
        """The doctor's row when ActivityWatch is turned off: which setting did it and how to turn it on."""
        why, fix = self.TURNED_OFF[self.off]
        return Probe(ActivityWatchSource.name, CAPTURES, False, f"turned off ({why})", fix)
