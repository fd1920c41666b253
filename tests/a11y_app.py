"""A small Qt window for the accessibility tests: a text field (focused first) and a password field (a QLineEdit in
Password echo mode, whose AT-SPI role is "password text"). Run as `python tests/a11y_app.py TITLE`, with
QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 and QT_QPA_PLATFORM=xcb (or wayland); prints "ready" once shown."""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFormLayout, QLineEdit, QWidget


def main() -> int:
    app = QApplication(sys.argv[:1])
    app.setApplicationName("a11y-form")
    window = QWidget()
    window.setWindowTitle(sys.argv[1] if len(sys.argv) > 1 else "Sign-up form")
    layout = QFormLayout(window)
    name = QLineEdit()
    name.setAccessibleName("Name")
    password = QLineEdit()
    password.setEchoMode(QLineEdit.EchoMode.Password)
    password.setAccessibleName("Password")
    layout.addRow("Name", name)
    layout.addRow("Password", password)
    window.resize(420, 120)
    window.show()
    name.setFocus()
    QTimer.singleShot(0, lambda: print("ready", flush=True))
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
