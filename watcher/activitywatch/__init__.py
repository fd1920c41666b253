"""ActivityWatch interop: read a user's aw-server buckets, and publish our episodes as a bucket of our own.

Why: a user who already runs ActivityWatch has a browser extension (aw-watcher-web) that knows the URL and title of
the current tab, which no window title gives us; where no capture source of ours runs its window/afk watchers are
the only way to see the focused window. And publishing our episodes lets ActivityWatch's UI show what we captured.

Everything here is optional: when no server answers nothing is imported, nothing is written and nothing raises.
What is read and what is sent is decided in one place, `ActivityWatchSettings` (from config.toml and `--no-aw`),
for the watcher, `proactive doctor` and `proactive purge` alike; the reader's probe (`probe_server`) is in `reader.py`.

The room: `connection.py` (aw-server and a safe aw-client), `reader.py` (the capture source), `publisher.py`
(our bucket); this module holds the settings that decide both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from proactive.watcher.activitywatch.connection import (
    CLIENT_NAME,
    DEFAULT_URL,
    EPISODE_EVENT_TYPE,
    is_reachable,
)
from proactive.watcher.activitywatch.publisher import ActivityWatchPublisher, published_marker
from proactive.watcher.activitywatch.reader import CAPTURES, ActivityWatchSource, browser_name, probe_server
from proactive.watcher.capture.sources import Probe, Source
from proactive.watcher.store import home

__all__ = ["CAPTURES", "CLIENT_NAME", "DEFAULT_URL", "EPISODE_EVENT_TYPE", "ActivityWatchPublisher",
           "ActivityWatchSettings", "ActivityWatchSource", "browser_name", "is_reachable", "probe_server",
           "published_marker"]


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
