"""A small Qt window for the accessibility tests: a text field (focused first) and a password field (a QLineEdit in
Password echo mode, whose AT-SPI role is "password text"). Run as `python tests/a11y_app.py TITLE`, with
QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 and QT_QPA_PLATFORM=xcb (or wayland); prints "ready" once shown.
`python tests/a11y_app.py TITLE editor`: a multi-line editor instead (QPlainTextEdit: its Enter inserts U+2029),
to which the program itself appends a line 3 s after it is shown (a program's text, typed by no key)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFormLayout, QLineEdit, QPlainTextEdit, QWidget

PRINTED = "PrintedByTheProgram"


def main() -> int:
    app = QApplication(sys.argv[:1])
    app.setApplicationName("a11y-form")
    window = QWidget()
    window.setWindowTitle(sys.argv[1] if len(sys.argv) > 1 else "Sign-up form")
    if sys.argv[2:3] == ["editor"]:
        editor = QPlainTextEdit(window)
        editor.setAccessibleName("Notes")
        editor.resize(420, 200)
        window.resize(420, 200)
        window.show()
        editor.setFocus()
        QTimer.singleShot(3000, lambda: editor.appendPlainText(PRINTED))
        QTimer.singleShot(0, lambda: print("ready", flush=True))
        return app.exec()
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
