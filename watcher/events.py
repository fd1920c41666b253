"""The one record every capture source produces.

A `RawEvent` is what a source saw, before the privacy filter. Only filtered events reach the store; key presses
never do (the text composer turns them into `text` events first).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RawEvent:
    """One observation: `source` is the module that saw it, `kind` what happened, `data` the details."""

    source: str
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    ts: float = field(default_factory=time.time)


#: How sources hand events to the pipeline. Must be cheap and thread-safe (a queue put).
Emit = Callable[[RawEvent], None]

# Kinds used across modules (sources, filter, composer, episode builder).
WINDOW = "window"  # data: app, title, pid, private?
KEY = "key"  # data: char | key (in memory only, never stored)
HOTKEY = "hotkey"  # data: combo ("ctrl+c")
TEXT = "text"  # data: text, erase, enter, hidden?
CLICK = "click"  # data: button, x, y
SCROLL = "scroll"  # data: dx, dy, count
CLIPBOARD = "clipboard"  # data: text, length, truncated
IDLE = "idle"  # data: state ("idle" | "active"), seconds
WEB = "web"  # data: url, title, browser (from ActivityWatch)
CONTROL = "control"  # data: state ("paused" | "resumed")
# From the accessibility bus (watcher/atspi.py); in memory only, never stored: the privacy filter and the text
# composer consume them.
FOCUS = "focus"  # data: app, title, role (of the focused widget: "text", "password text"...), pid
TYPED = "typed"  # data: text (inserted) | erase (characters deleted), role, app, pid: typed text, rebuilt like keys
PROMPT = "prompt"  # data: prompt ("password" | "username"), app, pid: a terminal shows a prompt waiting for a secret
