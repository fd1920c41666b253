"""The tray app's own process: `python -m proactive.ui.tray_main --fd N [--db PATH] [--verbose]`.

`proactive run` starts it and supervises it (app/tray_supervisor.py): the watcher and the assistant run there,
and this process shows their proposals and windows, reaching them through the socket it was handed
(`assistant.tray_wire`). Its log lines go to stderr, which the supervising process writes to the log; a crash's
Python stack too (faulthandler). It ends when the person quits (the whole app
ends), or when the assistant's end of the socket closes. Signals from a terminal are the supervisor's: this
process runs in a session of its own. Exit status: 0, or ALREADY_RUNNING (3) when another tray app owns this home.
"""

from __future__ import annotations

import argparse
import faulthandler
import logging
import os
import socket
import sys
from pathlib import Path

ALREADY_RUNNING = 3
#: a frozen app's first argument that makes it this process (packaging/pyinstaller_entry.py)
TRAY_PROCESS_ARG = "--tray-process"

log = logging.getLogger("proactive.ui.tray_main")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="proactive-tray", description=__doc__.splitlines()[0])
    parser.add_argument("--fd", type=int, required=True, help="the connected socket to the assistant")
    parser.add_argument("--db", default=None)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    faulthandler.enable()  # a crash in Qt's C++ leaves the Python stack on stderr: the supervisor logs it
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(levelname)s %(name)s: %(message)s")
    os.set_inheritable(args.fd, False)  # the programs this process opens (a browser) must not hold the link
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from proactive.assistant.tray_wire import Line, RemoteBackend
    from proactive.watcher.store import home

    from .app import AlreadyRunning, TrayApp

    line = Line(socket.socket(fileno=args.fd))
    backend = RemoteBackend(line)
    try:
        config = home.Config.load()
    except home.ConfigError as exc:  # the assistant's process checked it at its start: changed since
        log.warning("config.toml cannot be read (%s); the tray uses the defaults", exc)
        config = home.Config()
    app = QApplication(["proactive"])
    app.setQuitOnLastWindowClosed(False)
    try:
        tray = TrayApp(backend, Path(args.db) if args.db else None, config)
    except AlreadyRunning as exc:
        log.error("%s", exc)
        return ALREADY_RUNNING
    backend.listen(on_closed=tray.bridge.assistant_gone.emit)
    ticker = QTimer()
    ticker.start(200)  # lets Python run its signal handlers while Qt's loop waits
    ticker.timeout.connect(lambda: None)
    try:
        app.exec()
    finally:
        tray.close()
        line.close()
    log.info("the tray app ended")
    return 0


if __name__ == "__main__":
    sys.exit(main())
