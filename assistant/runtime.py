"""The running app, wired from a config: watcher, assistant, and the tray app or a headless loop.

The CLI's `watch`, `run` and `tray` only parse their options and call `watch()` or `run()` here; the Qt part is
`proactive.ui.tray_main`. Everything a person can fix (a bad config value, a model that cannot be loaded, a
second watcher on the same home) is raised as `SetupError`: one line naming the file or option and the fix,
which the CLI prints with exit status 2. This module and the CLI are the only ones that see every package.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
from collections.abc import Callable
from pathlib import Path
from typing import Any

from proactive.watcher import control, home
from proactive.watcher.store import Store

log = logging.getLogger(__name__)


class SetupError(Exception):
    """Something the person can fix before the app can run; str() is the one line to show (exit 2)."""


#: Qt platforms that need no desktop session (tests, kiosks): the tray app is not checked for one there
HEADLESS_QT_PLATFORMS = ("offscreen", "minimal", "vnc", "eglfs", "linuxfb")
HEADLESS_HINT = "run `proactive run --headless` to print each proposal as a JSON line instead"


def check_desktop() -> None:
    """The tray app needs a desktop session it can reach. Without one Qt aborts the process (exit 134, "could not
    connect to display", "libxcb-cursor0 is needed"), so this says in one line what to do instead (SetupError).
    Linux only: Windows and macOS always have their desktop."""
    import os
    import sys

    if not sys.platform.startswith("linux"):
        return
    if os.environ.get("QT_QPA_PLATFORM", "").split(":")[0] in HEADLESS_QT_PLATFORMS:
        return
    wayland, display = os.environ.get("WAYLAND_DISPLAY"), os.environ.get("DISPLAY")
    if wayland:
        socket = Path(os.environ.get("XDG_RUNTIME_DIR", f"/run/user/{os.getuid()}"), wayland)  # absolute: as is
        if socket.exists():
            return
        if not display:
            raise SetupError(f"WAYLAND_DISPLAY={wayland}: no Wayland compositor listens at {socket}: the tray app "
                             f"needs a desktop session; {HEADLESS_HINT}")
    if not display:
        raise SetupError("no desktop session here (neither DISPLAY nor WAYLAND_DISPLAY is set, as over SSH): the "
                         f"tray app needs one; {HEADLESS_HINT}")
    from proactive.watcher.sources import SourceUnavailable
    from proactive.watcher.x11 import open_display

    try:
        open_display().close()
    except SourceUnavailable as exc:
        raise SetupError(f"DISPLAY={display}: {exc}: the tray app needs a desktop session; {HEADLESS_HINT}") from None
    import ctypes.util

    if ctypes.util.find_library("xcb-cursor") is None:  # Qt's X11 plugin will not load without it
        raise SetupError("the tray app needs the system library libxcb-cursor0 (Debian/Ubuntu: sudo apt install "
                         f"libxcb-cursor0); or {HEADLESS_HINT}")


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


def load_config() -> home.Config:
    """config.toml checked against its schema, and its model specs against the model registry: anything
    unusable is one line naming the file, the setting and what would be valid."""
    from proactive.models.registry import MODEL_SPECS, REWARD_SPECS, model_problem, reward_problem

    try:
        config = home.Config.load()
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    for field, problem, valid in (("model", model_problem(config.model), MODEL_SPECS),
                                  ("rm", reward_problem(config.rm), REWARD_SPECS)):
        if problem:
            raise SetupError(str(home.ConfigError(field, getattr(config, field), f"{problem}; use {valid}",
                                                  path=home.config_path())))
    return config


def config_setting(option: str, value: Any, config: home.Config, field: str) -> tuple[Any, str]:
    """The option's value when given, else the config's, with where it came from (for error messages)."""
    if value is not None:
        return value, option
    return getattr(config, field), f"{home.config_path()}: {field}"


def load_model(spec: str, where: str) -> Any:
    """The model named by `spec` (through the one registry); `where` names the option or config setting."""
    from proactive.models.base import ModelError
    from proactive.models.registry import load_model as load

    try:
        return load(spec)
    except ModelError as exc:
        raise SetupError(f"{where}: {exc}") from None


def load_reward(spec: str, where: str) -> Any:
    """The reward model named by `spec` (through the one registry); `where` names the option or setting."""
    from proactive.models.base import ModelError
    from proactive.models.registry import load_reward as load

    try:
        return load(spec)
    except ModelError as exc:
        raise SetupError(f"{where}: {exc}") from None


def proactivity(value: str | None, config: home.Config) -> Any:
    """--proactivity when given, else the config's; a bad value is blamed on where it came from."""
    from proactive.assistant.policy import Proactivity

    try:
        return Proactivity.parse(value if value is not None else config.proactivity)
    except ValueError as exc:
        if value is None:  # the schema refuses it at load; this covers a Config built without load()
            raise SetupError(str(home.ConfigError("proactivity", config.proactivity,
                                                  home.SCHEMA["proactivity"].describe(),
                                                  path=home.config_path()))) from None
        raise SetupError(f"--proactivity: {exc}") from None


def announce_encryption(db: str | None, config: home.Config | None = None, say: bool = True) -> None:
    """Refuse (SetupError) when config.toml says encryption = "required" and no OS keyring can hold the key:
    checked right after the config (say=False). Once the watcher holds its locks (say=True): one line saying the
    store stays unencrypted when there is no keyring, the log line saying it is encrypted otherwise."""
    from proactive.watcher import crypto

    try:
        crypto.announce(db, config.encryption if config else None, say=say)
    except crypto.EncryptionError as exc:
        raise SetupError(str(exc)) from None


def build_watcher(db: str | None, no_aw: bool, config: home.Config, **callbacks: Any) -> Any:
    """The watcher with this platform's sources and ActivityWatch as the config and `--no-aw` set it (read and
    published, both from `ActivityWatchSettings`: what `proactive doctor` reports is what runs)."""
    from proactive.watcher.activitywatch import ActivityWatchSettings
    from proactive.watcher.doctor import log_capture
    from proactive.watcher.pipeline import Watcher
    from proactive.watcher.platform import session_sources

    sources = session_sources(config, no_aw)
    activitywatch = ActivityWatchSettings.from_config(config, no_aw)
    publish = unpublish = None
    if activitywatch.on:
        publisher = activitywatch.publisher()
        publish, unpublish = publisher.publish, publisher.unpublish
    if config.accessibility == "on":  # the person chose it (`proactive accessibility on`, the tray's question)
        from proactive.watcher.atspi import set_toolkit_accessibility

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


def watch(db: str | None, no_aw: bool, verbose: bool) -> None:
    """Capture only (`proactive watch`)."""
    setup_logging(verbose)
    config = load_config()
    announce_encryption(db, config, say=False)
    run_watcher(db, build_watcher(db, no_aw, config))


def print_proposal(proposal: Any) -> None:
    """Headless: each proposal as one JSON line on stdout."""
    print(json.dumps(proposal.to_json(), ensure_ascii=False), flush=True)


def run(db: str | None, model_spec: str | None, rm_spec: str | None, headless: bool, k: int,
        level: str | None, no_aw: bool, verbose: bool,
        on_proposal: Callable[[Any], None] = print_proposal) -> None:
    """`run` and `tray`: load the model and reward model (options over config.toml), then capture and think
    until stopped, behind the tray app or headless."""
    from proactive.assistant.agent import Agent
    from proactive.assistant.feedback import FeedbackMemory
    from proactive.assistant.live import Assistant
    from proactive.assistant.policy import Gate
    from proactive.assistant.trigger import TriggerPolicy

    if not headless:
        check_desktop()
        # Qt's bindings (shiboken) walk a module dict while they are imported: another thread importing at that
        # moment aborts the process ("could not initialize part 2"), so they are imported before any thread starts
        import proactive.ui.tray_main  # noqa: F401
    setup_logging(verbose)
    config = load_config()
    announce_encryption(db, config, say=False)
    chosen = proactivity(level, config)
    model = load_model(*config_setting("--model", model_spec, config, "model"))
    gate = Gate(load_reward(*config_setting("--rm", rm_spec, config, "rm")), chosen)
    Store(db).close()  # create and migrate the database before two threads open it
    from proactive.assistant import answers

    answerer = answers.load(config.answer_model)
    from proactive.assistant.pages import PageReader, shown_page
    from proactive.assistant.screen import shown_error

    reader = PageReader(config.web_search, tuple(config.never_fetch), config.search_engine)
    assistant = Assistant(db, Agent(model, k=k, answers=answerer), gate, FeedbackMemory(),
                          TriggerPolicy(chosen.min_interval_s), on_proposal=on_proposal,
                          record_shown_as_ignored=headless, reader=reader,
                          browser=lambda: shown_page(config.excluded_apps, config.excluded_titles),
                          screen=lambda command: shown_error(command, config.excluded_apps, config.excluded_titles))
    watcher = build_watcher(db, no_aw, config, on_episode=assistant.on_episode, on_events=assistant.on_events)
    assistant.start()
    try:
        if headless:
            run_watcher(db, watcher)
        else:
            run_tray(db, watcher, assistant, config)
    finally:
        assistant.stop()
        model.close()
        if assistant.agent.answers is not None:
            assistant.agent.answers.close()
        log.info("assistant stopped: %s", assistant.stats)


def run_tray(db: str | None, watcher: Any, assistant: Any, config: home.Config) -> None:
    """The tray app (`proactive.ui.tray_main`) in this thread, holding the watcher's locks."""
    from proactive.ui.tray_main import AlreadyRunning, run_tray_app

    locks = acquire_watcher_locks(db)
    try:
        run_tray_app(watcher, assistant, Path(db) if db else None, config)
    except AlreadyRunning as exc:
        raise SetupError(str(exc)) from None
    finally:
        release(locks)
