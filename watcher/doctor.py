"""What capture can do here, now (`proactive doctor`, the watcher's start log, the settings window).

The watcher's half of the doctor's report: the desktop session (its type and compositor or window manager), each
capture source of this session with whether it works now and what the person can do when it does not (each
source's own `probe()`, plus ActivityWatch), and the database file (its size and encryption state). The model and
reward-model half lives in `assistant/doctor.py`, which this package must not import.

Nothing here starts a source, opens the store or sends captured content anywhere: probes open a display
connection or a loopback socket for a moment and close it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from . import home
from .sources import Probe, Source, SourceUnavailable

log = logging.getLogger(__name__)

#: how long ActivityWatch may take to accept a connection and answer /api/0/info
AW_TIMEOUT = 0.5

NO_DISPLAY_FIX = ("run Proactive inside your desktop session (where DISPLAY or WAYLAND_DISPLAY is set), e.g. "
                  "from the desktop's autostart (packaging/README.md); elsewhere only ActivityWatch can capture")


# -- the session -------------------------------------------------------------------------------------------------

def x11_window_manager() -> str | None:
    """The EWMH window manager's name (_NET_SUPPORTING_WM_CHECK's _NET_WM_NAME; "" when it gives none), or None
    when no window manager runs or there is no X display to ask."""
    if not os.environ.get("DISPLAY"):
        return None
    try:
        from .x11 import open_display

        display = open_display()
    except SourceUnavailable:
        return None
    try:
        import Xlib.X

        root = display.screen().root
        check = root.get_full_property(display.intern_atom("_NET_SUPPORTING_WM_CHECK"), Xlib.X.AnyPropertyType)
        if not check or not len(check.value):
            return None
        window = display.create_resource_object("window", int(check.value[0]))
        name = window.get_full_property(display.intern_atom("_NET_WM_NAME"), display.intern_atom("UTF8_STRING"))
        if name is None:
            return ""
        value = name.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    except Exception:  # the check window vanished (the window manager is exiting): none
        return None
    finally:
        display.close()


def session() -> dict[str, Any]:
    """The desktop session (`watcher.session.detect()`): `kind` (x11, wayland or none), `compositor`, `xwayland`,
    the display variables, XDG_SESSION_TYPE, the X window manager's name where an X display answers, and
    `summary` (its one-line description)."""
    from .session import detect

    found = detect()
    info = found.to_json()
    info["session_type"] = os.environ.get("XDG_SESSION_TYPE", "")
    wm = x11_window_manager()
    info["window_manager"] = wm or ""
    info["summary"] = info.pop("description")
    if found.kind == "x11":
        info["summary"] += ", no window manager" if wm is None else f", window manager {wm or '(unnamed)'}"
    return info


# -- the sources -------------------------------------------------------------------------------------------------

def x11_probe(source: str, captures: str, extension: str | None = None, pynput: str | None = None) -> Probe:
    """The X11 sources' probe: the display can be opened, it has `extension` (when named), and pynput's
    `pynput` module ("keyboard" or "mouse") imports. Each check is what the source's start needs."""
    source = f"{source} (X11)"
    if not os.environ.get("DISPLAY"):
        return Probe(source, captures, False, "DISPLAY is not set: no X display", NO_DISPLAY_FIX)
    from .x11 import open_display

    try:
        display = open_display()
    except SourceUnavailable as exc:
        fix = ("reinstall Proactive (python-xlib is one of its dependencies)" if "python-xlib" in str(exc) else
               f"check that the X server at DISPLAY={os.environ['DISPLAY']} runs and lets you in (XAUTHORITY)")
        return Probe(source, captures, False, str(exc), fix)
    try:
        detail = f"X display {os.environ['DISPLAY']}"
        if extension is not None:
            if not display.has_extension(extension):
                return Probe(source, captures, False, f"the X server has no {extension} extension",
                             f"use an X server with {extension} (Xorg and Xvfb have it by default)")
            detail += f", {extension} extension"
        if os.environ.get("WAYLAND_DISPLAY"):
            detail += "; XWayland: native Wayland windows are not seen"
    finally:
        display.close()
    if pynput is not None:
        try:
            __import__(f"pynput.{pynput}")
        except ImportError as exc:
            return Probe(source, captures, False, f"pynput cannot listen here: {exc}",
                         "reinstall Proactive (pynput is one of its dependencies)")
        detail += ", pynput"
    return Probe(source, captures, True, detail)


def activitywatch_probe(url: str, enabled: bool = True) -> Probe:
    """Whether an aw-server answers at `url` (the configured one, normally loopback): a TCP connect and its
    /api/0/info, each within AW_TIMEOUT."""
    captures = "browser tabs (aw-watcher-web); windows and idle where no own source sees them"
    if not enabled:
        return Probe("activitywatch", captures, False, "turned off (activitywatch = false in config.toml)",
                     "set activitywatch = true in config.toml to read a running ActivityWatch")
    from .activitywatch import _server_info, is_reachable

    fix = ("start ActivityWatch (aw-qt or aw-server) with its aw-watcher-web browser extension, or set "
           "activitywatch = false in config.toml to stop looking for it")
    if not is_reachable(url, timeout=AW_TIMEOUT):
        return Probe("activitywatch", captures, False, f"no aw-server answers at {url}", fix)
    try:
        info = _server_info(url, timeout=AW_TIMEOUT)
    except Exception as exc:
        return Probe("activitywatch", captures, False, f"{url} answers, but not as an aw-server ({exc})", fix)
    version = info.get("version", "")
    return Probe("activitywatch", captures, True, f"aw-server {version} at {url}".replace("  ", " "))


def probe(source: Source) -> Probe:
    """`source.probe()`, never raising: a probe that fails says so as a source that cannot work."""
    from .activitywatch import ActivityWatchSource

    if isinstance(source, ActivityWatchSource):
        return activitywatch_probe(source.url)
    try:
        return source.probe()
    except Exception as exc:
        return Probe(source.name, getattr(source, "captures", ""), False, f"its check failed: {exc}",
                     "see the log (PROACTIVE_HOME/logs/proactive.log) and report it")


def capture(sources: list[Source], session_kind: str | None = None) -> list[Probe]:
    """The probes of `sources` (this session's), with one row saying so when there is none at all."""
    probes = [probe(s) for s in sources]
    own = [p for p in probes if p.source != "activitywatch"]
    if not own:
        from .session import detect

        kind = session_kind or detect().kind
        why = ("no display: neither WAYLAND_DISPLAY nor DISPLAY is set" if kind == "none"
               else f"no capture source for this session ({kind})")
        probes.insert(0, Probe("desktop capture", "windows, typed text, clicks, copies, idle", False, why,
                               NO_DISPLAY_FIX if kind == "none" else
                               "use ActivityWatch (activitywatch = true) for windows and idle"))
    return probes


def session_sources(config: home.Config, no_aw: bool = False) -> list[Source]:
    """The sources a watcher would run here with `config` (as `assistant/runtime.py` builds them)."""
    from .sources import default_sources

    sources = list(default_sources(config.idle_seconds, config.clipboard_max_chars))
    if config.activitywatch and not no_aw:
        from .activitywatch import ActivityWatchSource

        sources.append(ActivityWatchSource(config.activitywatch_url, config.activitywatch_poll_seconds))
    return sources


def log_capture(sources: list[Source]) -> list[Probe]:
    """At watcher start: one line per source in the log file, with the fix for each one that cannot work. The
    warning on the terminal is the pipeline's, when the source fails to start (it names the fix too), so a
    missing source is said there once. Returns the probes."""
    probes = capture(sources)
    for p in probes:
        if p.works:
            log.info("capture: %s works: %s (%s)", p.source, p.captures, p.detail)
        else:
            log.info("capture: %s cannot work: %s; fix: %s", p.source, p.detail, p.fix)
    return probes


# -- the database ------------------------------------------------------------------------------------------------

def human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{n} B"  # pragma: no cover


def database(db: str | Path | None, mode: str) -> dict[str, Any]:
    """The database file: path, whether it exists, its size with its WAL, and its encryption (`mode` is
    config.toml's `encryption`). The store is not opened (a running watcher keeps it)."""
    from . import crypto

    path = Path(db) if db else home.db_path()
    size = sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.is_file())
    state = crypto.file_state(path) if path.is_file() else "new"
    keyring, no_keyring = "", ""
    if mode != "off":
        try:
            keyring = crypto.keyring_name()
        except crypto.NoKeyring as exc:
            no_keyring = str(exc)
    fix = ""
    if state == "encrypted":
        detail = "encrypted at rest (SQLCipher), key in the OS keyring" + (f" ({keyring})" if keyring else "")
        if not keyring and mode != "off":
            detail += f"; no keyring answers now: {no_keyring}"
            fix = "unlock or start your keyring (Secret Service), or import the key: proactive key import"
    elif mode == "off":
        detail = 'not encrypted: encryption = "off" in config.toml'
        fix = 'set encryption = "auto" in config.toml to encrypt it at the next start'
    elif keyring:
        detail = f"{'not created yet' if state == 'new' else 'not encrypted yet'}; the OS keyring ({keyring}) " \
                 f"answers, so it is encrypted {'when created' if state == 'new' else 'in place at the next start'}"
    else:
        detail = f"{'will be' if state == 'new' else 'stored'} unencrypted: {no_keyring}"
        fix = ("run and unlock an OS keyring (a Secret Service such as gnome-keyring or KeePassXC) in this "
               "session; the database is then encrypted at the next start")
    return {"path": str(path), "exists": path.is_file(), "size_bytes": size, "size": human_size(size),
            "state": state, "encryption": mode, "keyring": keyring, "detail": detail, "fix": fix}


# -- the watcher's report ----------------------------------------------------------------------------------------

def report(db: str | Path | None = None, config: home.Config | None = None, no_aw: bool = False) -> dict[str, Any]:
    """Session, capture sources and database as plain data (the watcher's half of `proactive doctor --json`).
    A config.toml that cannot be read is reported (`config_problem`) and the defaults are used, but for its
    `encryption`, which the store honours whatever else is wrong (`home.encryption_setting`)."""
    problem = ""
    if config is None:
        try:
            config = home.Config.load()
        except ValueError as exc:
            problem = str(exc)
            config = home.Config(encryption=home.encryption_setting())
    where = session()
    probes = capture(session_sources(config, no_aw), where["kind"])
    if not config.activitywatch:
        probes.append(activitywatch_probe(config.activitywatch_url, enabled=False))
    return {
        "home": str(home.home()),
        "config": {"path": str(home.config_path()), "problem": problem},
        "session": where,
        "sources": [p.to_json() | {"optional": p.source == "activitywatch"} for p in probes],
        "database": database(db, config.encryption),
    }
