"""The Qt side of `proactive run` / `proactive tray`: the tray app in the main thread, the watcher beside it.

Called by `proactive.app.runtime` (which holds the watcher's locks). Qt's event loop does not return to
Python while it waits, so a timer wakes it every 200 ms to let Python's signal handlers run: SIGINT, SIGTERM and
SIGHUP quit the app (with or without a system tray), the pause/resume signals pause where they exist.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from proactive.watcher import control
from proactive.watcher.store import home

from .app import AlreadyRunning, TrayApp

__all__ = ["AlreadyRunning", "run_tray_app"]


def run_tray_app(watcher: Any, assistant: Any, db: Path | None, config: home.Config) -> None:
    """Run the tray app until it quits; the watcher runs in a background thread and is stopped after."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()  # typed as a QCoreApplication; ours (or pytest-qt's) is a QApplication
    app = existing if isinstance(existing, QApplication) else QApplication(["proactive"])
    app.setQuitOnLastWindowClosed(False)
    tray = TrayApp(assistant, watcher, db, config)  # AlreadyRunning: another tray app owns this home
    control.install_handlers(stop=tray.quit, pause=tray.pause_signalled, resume=tray.resume)
    ticker = QTimer()
    ticker.start(200)  # lets Python run its signal handlers while Qt's loop waits
    ticker.timeout.connect(lambda: None)
    capture = threading.Thread(target=watcher.run, name="watcher", daemon=True)
    capture.start()
    try:
        app.exec()
    finally:
        watcher.stop()
        capture.join(timeout=20)
        tray.close()
