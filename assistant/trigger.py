"""When to think: the trigger policy of the live loop.

Inference costs CPU and every proposal interrupts, so the model runs only at meaningful moments:
- a moment that may call for help by itself: something copied or selected, a line entered (a command run, a
  search made), a page visited; it is looked at `settle_s` after it (the rest of it lands first: the copied text
  written, the page's title), so an offer about a copied error is ready within seconds with no further input;
- an episode closes (the user moved to another window), with the app change noted;
- a burst of activity (`burst_events` or more events: a scroll counts its wheel steps, typed text its words)
  followed by a pause of `pause_s` seconds after the person's last input (a page scrolled through, then read; a
  line written in an editor).

Every moment is decided, each once, in the order they came (one decision covers the moments of its context):
never dropped, so each leaves its row, shown or silent with its reason. The proactivity level's minimum interval
between two offers limits the weak triggers (an episode closed, a burst): inside it they are dropped, unless the
person took the offer that started it (then they are decided like a moment inside it). It never
swallows a moment: a moment inside it is decided with the interval's `Pace`, which lets only a new error, or help
building on an offer the person took, through (`decision.decide`) and says "too soon" for the rest. Nothing runs while the user is idle or capture is paused,
a weak trigger not on the same context as the last inference, and nothing less than `min_gap_s` after the last
inference (a trigger then waits). Pure logic over timestamps: table-driven tests drive it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

EPISODE, APP_CHANGE, BURST, MOMENT = "episode", "app-change", "burst-pause", "moment"


@dataclass(frozen=True)
class Pace:
    """The interval between offers, running at a moment: `since_offer_s` since the last offer shown, of
    `interval_s`; `offered` the errors the offers inside it were about (lower case), which are not new."""

    since_offer_s: float
    interval_s: float
    offered: frozenset[str] = frozenset()

    @property
    def reason(self) -> str:
        """Why a moment inside the interval is silent, as stored (the history's Why column says it as is)."""
        return (f"too soon after the last offer ({self.since_offer_s:.0f} s ago; one every "
                f"{self.interval_s:.0f} s at most, unless about a new error or following up help you took)")


@dataclass(frozen=True)
class Due:
    """Why the agent runs now; for a moment, which one: its raw event id (its context is the episodes up to the
    one it happened in), when it happened, and the interval between offers if it is still running."""

    reason: str
    moment: int | None = None
    at: float | None = None
    pace: Pace | None = None


@dataclass
class TriggerPolicy:
    min_interval_s: float = 90.0  # between two proposals shown (from the proactivity level)
    min_gap_s: float = 2.0  # between two inferences
    burst_events: int = 5
    pause_s: float = 2.0  # from the last input: typed text arrives a second after its last key (the composer's pause)
    settle_s: float = 1.0  # a moment (copy, Enter, page) is looked at this long after it
    late_s: float = 5.0  # a moment decided later than this, once the person has moved on, is too late

    def __post_init__(self) -> None:
        self.pending: str | None = None
        self.moments: list[tuple[float, int]] = []  # (time, raw id) of the moments not decided yet, oldest first
        self.activity = 0
        self.last_activity = 0.0
        self.idle = False
        self.paused = False
        self.last_inference = -1e18
        self.last_proposal = -1e18
        self.offered: set[str] = set()  # what the offers inside the running interval were about
        self.taken = False  # the person took an offer inside the running interval: help building on it may follow
        self.last_key: object = None

    # -- what happened ---------------------------------------------------------------------------------------

    def episode_closed(self, app_changed: bool) -> None:
        if self.pending != APP_CHANGE:
            self.pending = APP_CHANGE if app_changed else EPISODE

    def moment_seen(self, now: float, raw_id: int) -> None:
        """Something that may call for help by itself happened at `now` (a copy, a line entered, a page): the
        raw event `raw_id`."""
        self.moments.append((now, raw_id))
        self.idle = False

    def activity_seen(self, n_events: int, now: float, last_input: float | None = None) -> None:
        """`n_events` of activity arrived at `now`, the last of them done at `last_input` (default: now), from
        which the burst's pause counts."""
        if n_events > 0:
            self.activity += n_events
            self.last_activity = max(self.last_activity, now if last_input is None else min(now, last_input))
            self.idle = False

    def set_idle(self, idle: bool) -> None:
        self.idle = idle

    def set_paused(self, paused: bool) -> None:
        self.paused = paused

    # -- decision --------------------------------------------------------------------------------------------

    def due(self, now: float, context_key: object) -> Due | None:
        """The reason to run the agent now, or None. A moment comes first: while one settles, the weak triggers
        wait for it (its decision covers them)."""
        if self.idle or self.paused:
            self._clear()
            self.moments.clear()
            return None
        if self.moments:
            at, raw_id = self.moments[0]
            if now - at < self.settle_s or now - self.last_inference < self.min_gap_s:
                return None  # it settles, or the last inference was a moment ago: it runs shortly
            return Due(MOMENT, raw_id, at, self.pace(now))
        reason = self.pending
        if reason is None and self.activity >= self.burst_events and now - self.last_activity >= self.pause_s:
            reason = BURST
        if reason is None:
            return None
        if now - self.last_inference < self.min_gap_s:
            return None  # keep it pending: it may run a moment later
        pace = self.pace(now)
        if (pace is not None and not self.taken) or context_key == self.last_key:
            self._clear()  # a weak trigger inside the interval between offers, or nothing new: dropped
            return None
        return Due(reason, pace=pace)  # inside the interval after an offer taken: decided on its pace

    def wait_s(self, now: float, longest: float) -> float:
        """How long the loop may sleep, at most `longest`: until a moment's settling or a burst's pause ends (and
        the gap after the last inference), so the decision is not late by the loop's tick."""
        ends = []
        if self.moments:
            ends.append(self.moments[0][0] + self.settle_s)
        if self.activity >= self.burst_events:
            ends.append(self.last_activity + self.pause_s)
        ends = [max(e, self.last_inference + self.min_gap_s) - now for e in ends]
        return min([longest, *(e for e in ends if e > 0)])

    def pace(self, now: float) -> Pace | None:
        """The interval between offers as it stands at `now`, None once it has run out."""
        since = now - self.last_proposal
        return Pace(since, self.min_interval_s, frozenset(self.offered)) if since < self.min_interval_s else None

    def ran(self, now: float, context_key: object, moment: int | None = None) -> None:
        """The agent ran at `now` on the context `context_key` (its newest raw event id, live), for `moment` (its
        raw id) if it was one: that moment and those in its context are decided."""
        self.last_inference = now
        self.last_key = context_key
        self._clear()
        covered = max([k for k in (context_key, moment) if isinstance(k, int)], default=None)
        if covered is not None:
            self.moments = [m for m in self.moments if m[1] > covered]

    def proposed(self, now: float, about: Iterable[str] = ()) -> None:
        """An offer was shown at `now` about the errors `about` (lower case): they are not new until the interval
        between offers has run out."""
        if self.pace(now) is None:
            self.offered.clear()
        self.offered.update(about)
        self.last_proposal = now
        self.taken = False

    def offer_taken(self, at: float) -> None:
        """The person accepted an offer at `at`: inside the interval it started, a weak trigger is decided too
        (`decision.decide` then offers only help building on the one taken), not dropped."""
        if at >= self.last_proposal:
            self.taken = True

    def _clear(self) -> None:
        self.pending = None
        self.activity = 0
