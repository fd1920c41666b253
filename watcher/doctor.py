"""What capture can do here, now (`proactive doctor`, the watcher's start log, the settings window).

The watcher's half of the doctor's report: the desktop session (its type and compositor or window manager), each
capture source of this session with whether it works now and what the person can do when it does not (each
source's own `probe()`, ActivityWatch's included, for the sources `platform.session_sources` gives the watcher), and
the database file (its size and encryption state). The model and reward-model half lives in `assistant/doctor.py`,
which this package must not import. The probes themselves live beside what they check (`x11.py`, `wayland.py`,
`activitywatch/reader.py`, each source's module): this module gathers them and no source imports it.

Nothing here starts a source, opens the store or sends captured content anywhere: probes open a display
connection or a loopback socket for a moment and close it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from proactive.watcher.activitywatch import ActivityWatchSettings
from proactive.watcher.capture.platform import session_sources
from proactive.watcher.capture.session import NO_DISPLAY_FIX, detect
from proactive.watcher.capture.sources import Probe, Source
from proactive.watcher.capture.x11 import x11_window_manager
from proactive.watcher.store import home

log = logging.getLogger(__name__)


# -- the session -------------------------------------------------------------------------------------------------

def session() -> dict[str, Any]:
    """The desktop session (`watcher.session.detect()`): `kind` (x11, wayland or none), `compositor`, `xwayland`,
    the display variables, XDG_SESSION_TYPE, the X window manager's name where an X display answers, and
    `summary` (its one-line description)."""
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

def probe(source: Source) -> Probe:
    """`source.probe()`, never raising: a probe that fails says so as a source that cannot work."""
    try:
        return source.probe()
    except Exception as exc:
        return Probe(source.name, getattr(source, "captures", ""), False, f"its check failed: {exc}",
                     "see the log (proactive.log in the logs folder: `proactive status` shows it) "
                     "and report it")


def capture(sources: list[Source], session_kind: str | None = None) -> list[Probe]:
    """The probes of `sources` (this session's), with one row saying so when there is none at all."""
    probes = [probe(s) for s in sources]
    own = [p for p in probes if p.source != "activitywatch"]
    if not own:
        kind = session_kind or detect().kind
        why = ("no display: neither WAYLAND_DISPLAY nor DISPLAY is set" if kind == "none"
               else f"no capture source for this session ({kind})")
        probes.insert(0, Probe("desktop capture", "windows, typed text, clicks, copies, idle", False, why,
                               NO_DISPLAY_FIX if kind == "none" else
                               "use ActivityWatch (activitywatch = true) for windows and idle"))
    return probes


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
    from proactive.watcher.store import crypto

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
    activitywatch = ActivityWatchSettings.from_config(config, no_aw)
    if not activitywatch.on:
        probes.append(activitywatch.off_probe())
    return {
        "home": str(home.data_dir()),
        "places": home.places().as_dict(),
        "config": {"path": str(home.config_path()), "problem": problem},
        "session": where,
        "sources": [p.to_json() | {"optional": p.source == "activitywatch"} for p in probes],
        "database": database(db, config.encryption),
    }
