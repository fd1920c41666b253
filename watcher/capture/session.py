"""Which desktop session the watcher runs in, read from the environment only (no connection is made).

`detect()` gives a `Session`: the kind (`wayland`, `x11` or `none`), the compositor or desktop, and whether
XWayland is there (`DISPLAY` set inside a Wayland session). Wayland wins whenever `WAYLAND_DISPLAY` is set (or
`XDG_SESSION_TYPE=wayland`): on GNOME and KDE `DISPLAY` is set too, for XWayland, and X11 sources would then see
only the few XWayland windows. `platform.default_sources()` picks its sources from this; `describe()` is the line the
watcher logs at start and `proactive doctor` shows.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

#: The names XDG_CURRENT_DESKTOP uses for the two big desktops (it may hold several, colon-separated:
#: "ubuntu:GNOME", "KDE").
_DESKTOPS = {"gnome": "gnome", "ubuntu": "gnome", "unity": "gnome", "kde": "kde", "plasma": "kde"}

#: What to do where there is no desktop session to capture (said by the X11 probes and `proactive doctor`)
NO_DISPLAY_FIX = ("run Proactive inside your desktop session (where DISPLAY or WAYLAND_DISPLAY is set), e.g. "
                  "from the desktop's autostart (packaging/README.md); elsewhere only ActivityWatch can capture")


@dataclass(frozen=True)
class Session:
    kind: str  # "wayland" | "x11" | "none"
    compositor: str = ""  # "sway" | "hyprland" | "gnome" | "kde" | another desktop's lowercase name | ""
    xwayland: bool = False  # a Wayland session with DISPLAY set: X11 applications run through XWayland
    wayland_display: str = ""
    display: str = ""
    desktop: str = ""  # XDG_CURRENT_DESKTOP as given

    @property
    def wayland(self) -> bool:
        return self.kind == "wayland"

    def describe(self) -> str:
        """One line for logs and `proactive doctor`, e.g. "Wayland (sway) on wayland-1, XWayland on :0"."""
        if self.kind == "wayland":
            line = f"Wayland ({self.compositor or 'unknown compositor'}) on {self.wayland_display or 'wayland-0'}"
            return line + (f", XWayland on {self.display}" if self.xwayland else ", no XWayland")
        if self.kind == "x11":
            return f"X11 on {self.display or '?'}" + (f" ({self.compositor})" if self.compositor else "")
        return "no display (neither WAYLAND_DISPLAY nor DISPLAY is set)"

    def to_json(self) -> dict[str, Any]:
        return dict(asdict(self), description=self.describe())


def _desktop_name(desktop: str) -> str:
    names = [n.strip().lower() for n in desktop.split(":") if n.strip()]
    for name in names:
        if name in _DESKTOPS:
            return _DESKTOPS[name]
    return names[0] if names else ""


def detect(env: Mapping[str, str] | None = None) -> Session:
    """The session described by `env` (default: this process's environment)."""
    env = os.environ if env is None else env
    wayland_display = env.get("WAYLAND_DISPLAY", "")
    display = env.get("DISPLAY", "")
    session_type = env.get("XDG_SESSION_TYPE", "").strip().lower()
    desktop = env.get("XDG_CURRENT_DESKTOP", "")
    if wayland_display or session_type == "wayland":
        if env.get("SWAYSOCK"):
            compositor = "sway"
        elif env.get("HYPRLAND_INSTANCE_SIGNATURE"):
            compositor = "hyprland"
        else:
            compositor = _desktop_name(desktop)
        return Session("wayland", compositor, bool(display), wayland_display or "wayland-0", display, desktop)
    if display or session_type == "x11":
        return Session("x11", _desktop_name(desktop), False, "", display, desktop)
    return Session("none", "", False, "", "", desktop)


def describe(session: Session | Mapping[str, str] | None = None) -> str:
    """The one-line description of `session` (a detected Session, or an environment to detect it from)."""
    return (session if isinstance(session, Session) else detect(session)).describe()


def wayland_socket(env: Mapping[str, str] | None = None) -> str:
    """The path of the Wayland compositor's socket: WAYLAND_DISPLAY when absolute, else inside XDG_RUNTIME_DIR."""
    env = os.environ if env is None else env
    name = env.get("WAYLAND_DISPLAY") or "wayland-0"
    if os.path.isabs(name):
        return name
    return os.path.join(env.get("XDG_RUNTIME_DIR", ""), name)
