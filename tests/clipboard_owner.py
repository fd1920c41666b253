"""A clipboard owner for the tests, as a password manager is one: a Qt application (KeePassXC is one) that puts
text on the clipboard, marked secret or not, and keeps it until it is stopped.

Run as `python tests/clipboard_owner.py [--window TITLE] [--primary]` with QT_QPA_PLATFORM=xcb or wayland
(--primary: the PRIMARY selection, as text selected with the mouse, instead of the clipboard). It prints
"owner ready", then reads one JSON object a line on stdin, {"text": ..., "secret": true|false}: it offers the text
(text/plain, UTF8_STRING...) and, when secret, also the mark password managers add, the format
`x-kde-passwordManagerHint` holding "secret" (as KeePassXC does), then prints "copied". A line may also hold a list
of such objects: they are copied one right after the other, before any other program is answered. On Wayland a client may set
the selection only with the serial of an input event it received (as when its copy shortcut is pressed), so
--window shows a small window, says "owner ready" once it is active, and applies each order at the next key pressed
in it, saying "armed" when it waits for that key; on X11 no window is needed (the focus stays where the test put
it), and each order is applied as it comes."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from PySide6.QtCore import QMimeData, QSocketNotifier, QTimer
from PySide6.QtGui import QClipboard, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QApplication, QLabel

HINT = "x-kde-passwordManagerHint"


class KeyWindow(QLabel):
    """A window that calls `pressed` at each key pressed in it (a copy shortcut)."""

    def __init__(self, title: str, pressed: Callable[[], None]):
        super().__init__(title)
        self.pressed = pressed

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        self.pressed()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--window", help="show a window with this title, and copy only while it is active")
    parser.add_argument("--primary", action="store_true", help="set the PRIMARY selection, not the clipboard")
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    app.setApplicationName("clipboard-owner")
    window: KeyWindow | None = None
    mode = QClipboard.Mode.Selection if args.primary else QClipboard.Mode.Clipboard
    pending: list[dict] = []

    def read() -> None:
        line = sys.stdin.readline()
        if not line:
            app.quit()
            return
        if window is None:
            order = json.loads(line)
            for one in order if isinstance(order, list) else [order]:
                copy(one)
            print("copied", flush=True)
        else:
            pending.append(json.loads(line))
            print("armed", flush=True)

    def key() -> None:
        if pending:
            copy(pending.pop(0))
            print("copied", flush=True)

    def copy(order: dict) -> None:
        data = QMimeData()
        data.setText(order["text"])
        if order.get("secret"):
            data.setData(HINT, b"secret")
        QGuiApplication.clipboard().setMimeData(data, mode)

    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    notifier.setEnabled(False)
    notifier.activated.connect(read)

    def ready() -> None:
        if window is not None and not window.isActiveWindow():
            QTimer.singleShot(50, ready)
            return
        print("owner ready", flush=True)
        notifier.setEnabled(True)

    if args.window:
        window = KeyWindow(args.window, key)
        window.setWindowTitle(args.window)
        window.resize(320, 80)
        window.show()
    QTimer.singleShot(0, ready)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
