"""The running app, wired from a config: the watcher, the assistant, and the tray app or a headless loop.

The CLI's `run` and `tray` only parse their options and call `run()` here. The tray app runs in a process of its
own, which this one supervises (`tray_supervisor.py`): this process holds the watcher and the assistant, so the
GUI cannot take capture down. Everything a person can fix (a bad config value, a model that cannot be loaded, a second
watcher on the same home, no desktop) is raised as `SetupError`, which the CLI prints with exit status 2. This
package is the top floor: it sees every package, and nothing imports it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from proactive.assistant.setup import config_setting, load_config, load_model, load_reward, proactivity
from proactive.watcher.service import (
    SetupError,
    acquire_watcher_locks,
    announce_encryption,
    build_watcher,
    install_signal_handlers,
    release,
    run_watcher,
    setup_logging,
)
from proactive.watcher.store import home
from proactive.watcher.store.database import Store

log = logging.getLogger(__name__)


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
    from proactive.watcher.capture.sources import SourceUnavailable
    from proactive.watcher.capture.x11 import open_display

    try:
        open_display().close()
    except SourceUnavailable as exc:
        raise SetupError(f"DISPLAY={display}: {exc}: the tray app needs a desktop session; {HEADLESS_HINT}") from None
    import ctypes.util

    if ctypes.util.find_library("xcb-cursor") is None:  # Qt's X11 plugin will not load without it
        raise SetupError("the tray app needs the system library libxcb-cursor0 (Debian/Ubuntu: sudo apt install "
                         f"libxcb-cursor0); or {HEADLESS_HINT}")


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
    watcher = build_watcher(db, no_aw, config, on_episode=assistant.on_episode, on_events=assistant.on_events,
                            on_forget=assistant.forget)
    assistant.start()
    try:
        if headless:
            run_watcher(db, watcher)
        else:
            run_tray(db, watcher, assistant, config, verbose)
    finally:
        assistant.stop()
        model.close()
        if assistant.agent.answers is not None:
            assistant.agent.answers.close()
        log.info("assistant stopped: %s", assistant.stats)


def run_tray(db: str | None, watcher: Any, assistant: Any, config: home.Config, verbose: bool) -> None:
    """The watcher in this thread (holding its locks, answering the signals), the tray app in its own process,
    supervised: started again when it dies, and its Quit ends the whole app."""
    from proactive.assistant.tray_backend import Backend

    from .tray_supervisor import supervised

    backend = Backend(assistant, watcher, db, config)
    locks = acquire_watcher_locks(db)  # before the tray starts: a second `run` on this home stops here
    try:
        supervisor = supervised(backend, db, verbose, load_config)
        try:
            install_signal_handlers(watcher)
            watcher.run()
        finally:
            supervisor.stop()
    finally:
        release(locks)
