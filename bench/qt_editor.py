"""A plain Qt text editor window for the day benchmark (bench/day.py): one QPlainTextEdit, focused, so a person's
writing in a Qt application reaches the watcher as it would from any Qt editor (through the accessibility bus
when it runs). Run as `python bench/qt_editor.py TITLE`; prints "ready" once shown.

Here in bench/, not borrowed from tests/, so the benchmark never imports or runs the test suite's files."""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QPlainTextEdit


def main() -> int:
    app = QApplication(sys.argv[:1])
    app.setApplicationName("notes-editor")
    editor = QPlainTextEdit()
    editor.setWindowTitle(sys.argv[1] if len(sys.argv) > 1 else "notes.txt - Editor")
    editor.setAccessibleName("Document")
    editor.resize(640, 420)
    editor.show()
    editor.setFocus()
    QTimer.singleShot(0, lambda: print("ready", flush=True))
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
