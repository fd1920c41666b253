"""The one record every capture source produces.

A `RawEvent` is what a source saw, before the privacy filter. Only filtered events reach the store; key presses
never do (the text composer turns them into `text` events first).

What `data` holds depends on the kind: one TypedDict per kind below (`DATA` maps each kind to its own), the one
description of the fields; `data_schema(kind)` turns it into a JSON schema, as aw-core ships for its event types.
`data` itself stays a plain dict: the privacy filter and the store copy and rewrite it field by field.
"""

# no `from __future__ import annotations` here: TypedDict reads `Required[...]` only from evaluated annotations
import time
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Required, TypedDict, Union, get_args, get_origin, get_type_hints


@dataclass
class RawEvent:
    """One observation: `source` is the module that saw it, `kind` what happened, `data` the details (its fields:
    `DATA[kind]`)."""

    source: str
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    ts: float = field(default_factory=time.time)
    #: the X server's timestamp (ms, wraps after 49 days) of an event read from an X connection: orders events
    #: that different threads read (pipeline.py); never stored
    xtime: int | None = None


#: How long a source that gives keys with their X time may keep a key typed in the middle of a line before handing
#: it on (keyboard.py reads such keys a batch at a time: a thread woken per key was most of the watcher's CPU while
#: someone types). The pipeline counts it in when it judges a terminal line by its echo readings.
KEY_BATCH_SECONDS = 0.25

#: How sources hand events to the pipeline: thread-safe, and never waits for another thread (it may handle the
#: event before it returns: pipeline.Watcher._deliver).
Emit = Callable[[RawEvent], None]

# Kinds used across modules (sources, filter, composer, episode builder); each one's data is the TypedDict below.
WINDOW = "window"
KEY = "key"  # in memory only, never stored
HOTKEY = "hotkey"
TEXT = "text"
CLICK = "click"
SCROLL = "scroll"
CLIPBOARD = "clipboard"
IDLE = "idle"
WEB = "web"  # from ActivityWatch
CONTROL = "control"
# From the accessibility bus (watcher/capture/atspi.py); in memory only, never stored: the privacy filter and the text
# composer consume them.
FOCUS = "focus"
TYPED = "typed"
PROMPT = "prompt"


class WindowData(TypedDict, total=False):
    """The active window changed (window.py, wl_window.py; activitywatch/reader.py from aw-watcher-window)."""

    app: Required[str]  # display name ("Visual Studio Code"), "desktop" when no window has the focus
    title: Required[str]
    pid: int | None  # the window's process, when known; the privacy filter drops it before storing
    process: str  # the executable's name ("code"), "" when unknown
    via: str  # "activitywatch": read from an aw-watcher-window bucket
    private: bool  # the privacy filter: an excluded window, stored as app "private window" and no title
    password_context: bool  # the privacy filter: the title asks for a password


class KeyData(TypedDict, total=False):
    """One key press (keyboard.py): a character typed, or the name of another key."""

    char: str
    key: str  # "enter", "backspace", "left"...


class HotkeyData(TypedDict):
    """A key pressed with a modifier (keyboard.py)."""

    combo: str  # "ctrl+c"


class TextData(TypedDict, total=False):
    """A piece of a typed line (compose.py): erase `erase` characters sent before, then append `text`."""

    text: Required[str]
    erase: int
    enter: bool  # the line ends with Enter
    end: bool  # the line ends without Enter: the person moved to another field
    hidden: str  # the line was hidden, and why ("password"): `text` is empty
    count: int  # hidden compose.UNOBSERVED: how many characters the line held


class ClickData(TypedDict, total=False):
    """A mouse button pressed (mouse.py)."""

    button: Required[str]  # "left", "right", "middle"
    x: Required[int]
    y: Required[int]
    pid: int  # X11: the process of the window clicked, for the privacy filter, which keeps it out of the store


class ScrollData(TypedDict, total=False):
    """A scroll (mouse.py: one wheel step with its place; pipeline.py: a gesture's steps summed, counted)."""

    dx: Required[int]
    dy: Required[int]
    x: int
    y: int
    count: int
    seconds: float  # a gesture: from its first wheel step to its last (the reading stopped then, not when stored)


class ClipboardData(TypedDict, total=False):
    """Text copied, or selected with the mouse (clipboard.py, wl_clipboard.py), cut to a maximum length."""

    text: Required[str]
    length: int | None  # of the whole copy; None when not read (too large, or a secret)
    truncated: bool
    private: bool  # a password manager's copy: not read at all
    selection: Literal["primary"]  # the PRIMARY selection (text selected, not copied); absent for a copy
    app: str | None  # the pipeline: the focused window's application, which a copy is attributed to


class IdleData(TypedDict):
    """The person went idle or came back (idle.py, wl_idle.py; activitywatch/reader.py from aw-watcher-afk)."""

    state: Literal["idle", "active"]
    seconds: float  # since the last input (idle), or how long the idle time lasted (active)


class WebData(TypedDict, total=False):
    """A browser tab (activitywatch/reader.py, from aw-watcher-web)."""

    url: Required[str]
    title: Required[str]
    browser: Required[str]  # "Firefox", "" when the bucket does not say
    incognito: bool


class ControlData(TypedDict, total=False):
    """Capture paused or resumed (privacy.py)."""

    state: Required[Literal["paused", "resumed"]]
    until: float | None  # when a pause ends; None: until resumed


class FocusData(TypedDict):
    """A widget took the keyboard focus (atspi.py)."""

    app: str
    title: str  # of the application's active window
    role: str | None  # the widget's ("text", "password text"...), None when it could not be read
    pid: int | None


class TypedData(TypedDict, total=False):
    """Text typed into a widget, as the application reports it (atspi.py): rebuilt into lines like keys."""

    text: str  # inserted
    erase: int  # characters deleted
    role: Required[str | None]
    app: Required[str]
    pid: Required[int | None]
    object: Required[str]  # the widget (bus name and path): where one field's text ends and another's begins


class PromptData(TypedDict):
    """A terminal shows a prompt waiting for a secret (atspi.py)."""

    prompt: str  # "password" | "username"
    app: str
    pid: int | None


#: Each kind's data. A TypedDict class is a `type` at run time, which is all `data_schema` needs.
DATA: dict[str, type] = {
    WINDOW: WindowData, KEY: KeyData, HOTKEY: HotkeyData, TEXT: TextData, CLICK: ClickData, SCROLL: ScrollData,
    CLIPBOARD: ClipboardData, IDLE: IdleData, WEB: WebData, CONTROL: ControlData, FOCUS: FocusData,
    TYPED: TypedData, PROMPT: PromptData,
}

_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def _json_type(annotation: Any) -> dict[str, Any]:
    """The JSON schema of one field's type: str, int, float, bool, None, a Literal of strings, or a union."""
    origin = get_origin(annotation)
    if origin is Literal:
        return {"enum": list(get_args(annotation))}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_json_type(arg) for arg in get_args(annotation)]}
    return {"type": _JSON_TYPES[annotation]}


def data_schema(kind: str) -> dict[str, Any]:
    """The JSON schema of a `kind`'s data, made from its TypedDict: its fields' types, the required ones, and no
    field that is not described."""
    described = DATA[kind]
    fields = get_type_hints(described)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{kind} event data",
        "type": "object",
        "properties": {name: _json_type(annotation) for name, annotation in fields.items()},
        "required": sorted(getattr(described, "__required_keys__", ())),
        "additionalProperties": False,
    }
