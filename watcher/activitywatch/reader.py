"""Reading a user's aw-server buckets as capture events: web tabs always (aw-watcher-web knows the URL and title
of the current tab, which no window title gives), windows and idle where no capture source of ours runs.

Servers trim events to the requested range (timestamp moves to `start`) and heartbeats extend the last event in
place; we therefore remember delivered events by id, not by timestamp.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from proactive.watcher.activitywatch.connection import (
    CLIENT_NAME,
    DEFAULT_URL,
    LOCK_RETRY_SECONDS,
    PROBE_FIX,
    PROBE_TIMEOUT,
    REQUEST_TIMEOUT,
    LockHeld,
    close_client,
    is_reachable,
    open_client,
    server_info,
)
from proactive.watcher.capture.sources import Probe, Source
from proactive.watcher.events import IDLE, WEB, WINDOW, Emit, RawEvent

if TYPE_CHECKING:  # pragma: no cover
    from aw_client import ActivityWatchClient

log = logging.getLogger("proactive.watcher.activitywatch")

#: What the reader gives, said by the probe of a reader that is not built (ActivityWatch turned off)
CAPTURES = "browser tabs (aw-watcher-web); windows and idle where no own source sees them"

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


def probe_server(url: str, captures: str = CAPTURES) -> Probe:
    """Whether an aw-server answers at `url` (the configured one, normally loopback): a TCP connect and its
    /api/0/info, each within PROBE_TIMEOUT. Nothing is sent but that request."""
    if not is_reachable(url, timeout=PROBE_TIMEOUT):
        return Probe(ActivityWatchSource.name, captures, False, f"no aw-server answers at {url}", PROBE_FIX)
    try:
        info = server_info(url, timeout=PROBE_TIMEOUT)
    except Exception as exc:
        return Probe(ActivityWatchSource.name, captures, False, f"{url} answers, but not as an aw-server ({exc})",
                     PROBE_FIX)
    version = info.get("version", "")
    return Probe(ActivityWatchSource.name, captures, True, f"aw-server {version} at {url}".replace("  ", " "))


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
        close_client(client)

    def _connect(self) -> ActivityWatchClient | None:
        if self._client is not None:
            return self._client
        if time.monotonic() < self._retry_after:
            return None
        try:
            self._client, info = open_client(self.url)
        except LockHeld:
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
