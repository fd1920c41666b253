"""When to think: the trigger policy of the live loop.

Inference costs CPU and every proposal interrupts, so the model runs only at meaningful moments:
- a moment that may call for help by itself: something copied, a line entered (a command run, a search made), a
  page visited; it is looked at `settle_s` after it (the rest of it lands first: the copied text written, the
  page's title), so an offer about a copied error is ready within seconds with no further input;
- an episode closes (the user moved to another window), with the app change noted;
- a burst of activity (`burst_events` or more events) followed by a pause of `pause_s` seconds;
and never while the user is idle or capture is paused, never when the context is the same as at the last
inference, never less than `min_gap_s` after the last inference, and never sooner than the proactivity level's
minimum interval after the last proposal shown. Pure logic over timestamps: table-driven tests drive it.
"""

from __future__ import annotations

from dataclasses import dataclass

EPISODE, APP_CHANGE, BURST, MOMENT = "episode", "app-change", "burst-pause", "moment"


@dataclass
class TriggerPolicy:
    min_interval_s: float = 90.0  # between two proposals shown (from the proactivity level)
    min_gap_s: float = 2.0  # between two inferences
    burst_events: int = 5
    pause_s: float = 3.0
    settle_s: float = 1.0  # a moment (copy, Enter, page) is looked at this long after it
    moment_wait_s: float = 4.0  # how long a moment waits for its events to reach the database

    def __post_init__(self) -> None:
        self.pending: str | None = None
        self.moment_at: float | None = None
        self.activity = 0
        self.last_activity = 0.0
        self.idle = False
        self.paused = False
        self.last_inference = -1e18
        self.last_proposal = -1e18
        self.last_key: object = None

    # -- what happened ---------------------------------------------------------------------------------------

    def episode_closed(self, app_changed: bool) -> None:
        if self.pending != APP_CHANGE:
            self.pending = APP_CHANGE if app_changed else EPISODE

    def moment_seen(self, now: float) -> None:
        """Something that may call for help by itself happened at `now` (a copy, a line entered, a page)."""
        self.moment_at = now
        self.idle = False

    def activity_seen(self, n_events: int, now: float) -> None:
        if n_events > 0:
            self.activity += n_events
            self.last_activity = now
            self.idle = False

    def set_idle(self, idle: bool) -> None:
        self.idle = idle

    def set_paused(self, paused: bool) -> None:
        self.paused = paused

    # -- decision --------------------------------------------------------------------------------------------

    def due(self, now: float, context_key: object) -> str | None:
        """The reason to run the agent now, or None."""
        reason = self.pending
        if reason is None and self.moment_at is not None and now - self.moment_at >= self.settle_s:
            reason = MOMENT
        if reason is None and self.activity >= self.burst_events and now - self.last_activity >= self.pause_s:
            reason = BURST
        if reason is None:
            return None
        if self.idle or self.paused:
            self._clear()
            return None
        if now - self.last_inference < self.min_gap_s:
            return None  # keep it pending: it may run a moment later
        if now - self.last_proposal < self.min_interval_s:
            self._clear()
            return None
        if context_key == self.last_key:
            if reason == MOMENT and self.moment_at is not None and now - self.moment_at < self.moment_wait_s:
                return None  # its events are not in the database yet: look again in a moment
            self._clear()
            return None
        return reason

    def ran(self, now: float, context_key: object) -> None:
        self.last_inference = now
        self.last_key = context_key
        self._clear()

    def proposed(self, now: float) -> None:
        self.last_proposal = now

    def _clear(self) -> None:
        self.pending = None
        self.moment_at = None
        self.activity = 0
