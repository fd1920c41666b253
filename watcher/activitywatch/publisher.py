"""Publishing our closed episodes to aw-server, in a bucket of our own, and deleting them again (purge,
retention), so ActivityWatch's UI shows what we captured."""

from __future__ import annotations

import logging
import socket
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from proactive.watcher.activitywatch.connection import (
    CLIENT_NAME,
    DEFAULT_URL,
    EPISODE_EVENT_TYPE,
    close_client,
    is_reachable,
    open_client,
)
from proactive.watcher.store import home

if TYPE_CHECKING:  # pragma: no cover
    from aw_client import ActivityWatchClient

log = logging.getLogger("proactive.watcher.activitywatch")


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
                    self._client, _ = open_client(self.url)
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
                    self._client, _ = open_client(self.url)
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
        close_client(client)

    def __enter__(self) -> ActivityWatchPublisher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
