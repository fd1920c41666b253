"""The watcher as a running service: its log, its locks (one watcher per home and per database), its signals,
and the watcher built from the config with this session's sources and ActivityWatch. `proactive watch` runs it
alone; the whole app (`proactive.app.runtime`) runs it beside the assistant. Everything a person can fix (a bad
config value, a second watcher on the same home) is raised as `SetupError`: one line naming the file or option and
the fix, printed with exit status 2.
"""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path
from typing import Any

from proactive.watcher import control
from proactive.watcher.store import home
from proactive.watcher.store.database import Store

log = logging.getLogger(__name__)


class SetupError(Exception):
    """Something the person can fix before the app can run; str() is the one line to show (exit 2)."""


def setup_logging(verbose: bool = False) -> None:
    """Log to the logs folder's proactive.log (rotated) and warnings to stderr. Never log captured content."""
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    handler = logging.handlers.RotatingFileHandler(home.logs_dir() / "proactive.log", maxBytes=2_000_000,
                                                   backupCount=3)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    err = logging.StreamHandler()
    err.setLevel(logging.DEBUG if verbose else logging.WARNING)
    err.setFormatter(logging.Formatter("proactive: %(levelname)s: %(message)s"))
    root.addHandler(err)


def announce_encryption(db: str | None, config: home.Config | None = None, say: bool = True) -> None:
    """Refuse (SetupError) when config.toml says encryption = "required" and no OS keyring can hold the key:
    checked right after the config (say=False). Once the watcher holds its locks (say=True): one line saying the
    store stays unencrypted when there is no keyring, the log line saying it is encrypted otherwise."""
    from proactive.watcher.store import crypto

    try:
        crypto.announce(db, config.encryption if config else None, say=say)
    except crypto.EncryptionError as exc:
        raise SetupError(str(exc)) from None


def build_watcher(db: str | None, no_aw: bool, config: home.Config, **callbacks: Any) -> Any:
    """The watcher with this platform's sources and ActivityWatch as the config and `--no-aw` set it (read and
    published, both from `ActivityWatchSettings`: what `proactive doctor` reports is what runs)."""
    from proactive.watcher.activitywatch import ActivityWatchSettings
    from proactive.watcher.capture.platform import session_sources
    from proactive.watcher.doctor import log_capture
    from proactive.watcher.pipeline import Watcher

    sources = session_sources(config, no_aw)
    activitywatch = ActivityWatchSettings.from_config(config, no_aw)
    publish = unpublish = None
    if activitywatch.on:
        publisher = activitywatch.publisher()
        publish, unpublish = publisher.publish, publisher.unpublish
    if config.accessibility == "on":  # the person chose it (`proactive accessibility on`, the tray's question)
        from proactive.watcher.capture.atspi import set_toolkit_accessibility

        problem = set_toolkit_accessibility(True)
        if problem:
            log.warning("accessibility = \"on\" in config.toml, but it could not be turned on: %s", problem)
    log_capture(sources)  # `proactive doctor`'s capture lines: one per source, a warning for each that cannot work
    return Watcher(db, config, sources, publish=publish, unpublish=unpublish, **callbacks)


def acquire_watcher_locks(db: str | None) -> list[Any]:
    """Before capture starts: the home's files made private (modes tightened), the database usable (else its
    StoreError), and the two locks taken: one watcher per home and one per database file."""
    tightened = home.tighten()
    if tightened:
        log.warning("made %d files and folders in Proactive's folders private to you (mode 0600/0700): %s",
                    len(tightened), ", ".join(str(p) for p in home.places().roots()))
    Store(db).close()
    locks = [control.PidLock(), control.DatabaseLock(Path(db) if db else home.db_path())]
    for i, lock in enumerate(locks):
        try:
            lock.acquire()
        except control.AlreadyRunning as exc:
            release(locks[:i])
            raise SetupError(str(exc)) from None
    announce_encryption(db)
    return locks


def release(locks: list[Any]) -> None:
    for lock in locks:
        lock.release()


def install_signal_handlers(watcher: Any) -> None:
    """SIGINT/SIGTERM/SIGHUP stop the watcher (it flushes, exit 0); pause and resume where those signals exist."""
    control.install_handlers(stop=watcher.stop, pause=watcher.signal_pause, resume=watcher.request_resume)


def run_watcher(db: str | None, watcher: Any) -> None:
    """Run `watcher` in this thread until SIGINT/SIGTERM, holding the one-watcher-per-home locks."""
    locks = acquire_watcher_locks(db)
    install_signal_handlers(watcher)
    try:
        watcher.run()
    finally:
        release(locks)


def watch(db: str | None, no_aw: bool, verbose: bool, config: home.Config) -> None:
    """Capture only (`proactive watch`), with the config the command checked."""
    setup_logging(verbose)
    announce_encryption(db, config, say=False)
    run_watcher(db, build_watcher(db, no_aw, config))
