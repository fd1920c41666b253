"""Which capture sources run here: the one place that picks and builds them for this platform and session.

Why one module: the sources are chosen by the platform (Linux, Windows, macOS), on Linux by the session
(`session.detect()`: X11, Wayland and its compositor, or none), and then by the config (ActivityWatch); the watcher
(`watcher/service.py`), `proactive doctor` (`doctor.py`) and the settings window must agree on that choice, so
they all ask here. This module sits above every concrete source and nothing below it imports it: a source module
imports only the interface (`sources.py`) and its own plumbing (`x11.py`, `wayland.py`), never the factory.

- Wayland whenever WAYLAND_DISPLAY is set, even with DISPLAY set for XWayland (whose X11 sources would see only
  XWayland windows): the compositor's window source (sway's IPC `wl_window.SwayWindow`, tested on headless sway;
  a KWin script over D-Bus, tested on headless KWin 5.27; our own GNOME Shell extension, tested on headless GNOME
  Shell 43; Hyprland's socket, UNTESTED here; elsewhere
  `NoWindow` says there is none), the clipboard through `wl-paste --watch` (`wl_clipboard.WlClipboard`; on GNOME,
  which has no data-control, Xwayland's clipboard: `wl_clipboard.XwaylandClipboard`), idle through `swayidle`,
  GNOME's IdleMonitor or `org.freedesktop.ScreenSaver` (`wl_idle`; the ScreenSaver one UNTESTED),
  and the accessibility bus (`atspi.AtspiSource`) for focus, roles and typed text: no key logger runs on Wayland
  (no client may read other clients' keys).
- X11 when DISPLAY is set: the active window, keys and clicks through the RECORD extension, the XFixes clipboard,
  MIT-SCREEN-SAVER idle, and the accessibility bus for the text typed in applications that publish it.
- No display: no source of our own (ActivityWatch can still give windows and idle).
- Windows and macOS: the polling variants (untested here).
- ActivityWatch's reader, appended when it is on, as `activitywatch.ActivityWatchSettings` says.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys

from proactive.watcher.activitywatch import ActivityWatchSettings
from proactive.watcher.capture.session import Session, detect
from proactive.watcher.capture.sources import Source
from proactive.watcher.store import home

log = logging.getLogger(__name__)


def window_source(session: Session) -> Source:
    """The focused-window source of a Wayland compositor (`NoWindow` where there is none we know)."""
    from proactive.watcher.capture import wl_window

    if session.compositor == "sway":
        return wl_window.SwayWindow()
    if session.compositor == "hyprland":
        return wl_window.HyprlandWindow()
    if session.compositor == "kde":
        return wl_window.KWinWindow()
    if session.compositor == "gnome":
        return wl_window.GnomeShellWindow()
    return wl_window.NoWindow(session.compositor)


def idle_source(session: Session, idle_seconds: float) -> Source:
    """Idle on Wayland: Mutter's IdleMonitor on GNOME, swayidle where it is installed or the compositor is not
    KDE, the ScreenSaver D-Bus interface otherwise."""
    from proactive.watcher.capture import wl_idle

    if session.compositor == "gnome":  # Mutter has no ext-idle-notify for clients; its IdleMonitor answers
        return wl_idle.MutterIdle(idle_seconds)
    if shutil.which("swayidle") or session.compositor != "kde":
        return wl_idle.SwayIdle(idle_seconds)
    return wl_idle.ScreenSaverIdle(idle_seconds)


def clipboard_source(session: Session, max_chars: int) -> Source:
    """Copies on Wayland: `wl-paste --watch` (data-control), but on GNOME, whose Mutter has no data-control,
    Xwayland's X11 clipboard, which Mutter keeps in step with the Wayland one."""
    from proactive.watcher.capture import wl_clipboard

    if session.compositor == "gnome":
        return wl_clipboard.XwaylandClipboard(max_chars=max_chars)
    return wl_clipboard.WlClipboard(max_chars=max_chars)


def wayland_sources(session: Session, idle_seconds: float, clipboard_max_chars: int) -> list[Source]:
    """The Wayland sources for this session, AT-SPI apart (added by `default_sources`)."""
    return [window_source(session), clipboard_source(session, clipboard_max_chars),
            idle_source(session, idle_seconds)]


def _wayland(session: Session, idle_seconds: float, clipboard_max_chars: int) -> list[Source]:
    log.info("session: %s", session.describe())
    found = wayland_sources(session, idle_seconds, clipboard_max_chars)
    # GNOME before our Shell extension runs: the accessibility bus's window:activate gives the accessible
    # applications' windows meanwhile; the extension's source stays listed, so its warning and doctor's row say
    # how to get every window (tested on headless GNOME Shell 43)
    windows = session.compositor == "gnome" and not found[0].probe().works
    try:
        from proactive.watcher.capture.atspi import AtspiSource
    except Exception as exc:  # noqa: BLE001 - any import failure: capture goes on without it, said once
        log.warning("source atspi unavailable: %s (no typed text on Wayland)", exc)
    else:
        found.append(AtspiSource(text=True, windows=windows))  # focus, roles and typed text: no key logger
    return found


def _x11(idle_seconds: float, clipboard_max_chars: int) -> list[Source]:
    from proactive.watcher.capture.atspi import AtspiSource
    from proactive.watcher.capture.clipboard import X11Clipboard
    from proactive.watcher.capture.idle import X11Idle
    from proactive.watcher.capture.keyboard import Keyboard
    from proactive.watcher.capture.mouse import Mouse
    from proactive.watcher.capture.window import X11ActiveWindow

    return [
        X11ActiveWindow(),
        Keyboard(),
        Mouse(),
        X11Clipboard(max_chars=clipboard_max_chars),
        X11Idle(idle_seconds=idle_seconds),
        # typed text from applications on the accessibility bus (by the emitting field's role: a key arrives
        # before the focus event that says "password field"), password fields, terminal prompts; keys from the
        # RECORD extension everywhere else
        AtspiSource(text=True),
    ]


def _polling(idle_seconds: float, clipboard_max_chars: int) -> list[Source]:
    from proactive.watcher.capture.clipboard import PollingClipboard
    from proactive.watcher.capture.idle import PollingIdle
    from proactive.watcher.capture.keyboard import Keyboard
    from proactive.watcher.capture.mouse import Mouse
    from proactive.watcher.capture.window import PollingActiveWindow

    return [
        PollingActiveWindow(),
        Keyboard(),
        Mouse(),
        PollingClipboard(max_chars=clipboard_max_chars),
        PollingIdle(idle_seconds=idle_seconds),
    ]


def default_sources(idle_seconds: float, clipboard_max_chars: int) -> list[Source]:
    """This platform's and session's own sources (module docstring), ActivityWatch apart."""
    if not sys.platform.startswith("linux"):
        return _polling(idle_seconds, clipboard_max_chars)
    session = detect()
    if session.kind == "wayland":
        return _wayland(session, idle_seconds, clipboard_max_chars)
    if not os.environ.get("DISPLAY"):
        log.warning("neither WAYLAND_DISPLAY nor DISPLAY is set: no desktop capture here (ActivityWatch "
                    "can still give windows and idle)")
        return []
    return _x11(idle_seconds, clipboard_max_chars)


def session_sources(config: home.Config, no_aw: bool = False) -> list[Source]:
    """The sources a watcher runs here with `config` (and `--no-aw`): this session's own, then ActivityWatch's
    reader when it is on, which reads windows and idle too where the session has no source of its own."""
    sources = default_sources(config.idle_seconds, config.clipboard_max_chars)
    activitywatch = ActivityWatchSettings.from_config(config, no_aw)
    if activitywatch.on:
        sources.append(activitywatch.source(own=sources))
    return sources
