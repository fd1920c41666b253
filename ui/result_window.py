"""The window that shows the help produced for an accepted proposal, each command with its own copy button."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from proactive.assistant.help import Help

PULL_COMMAND = "proactive models pull"


class ResultWindow(QWidget):
    """The help produced for an accepted proposal, with copy-to-clipboard: the model's answer when one is shown,
    then, as plain sentences, the web search opened and the earlier times the person met the same thing."""

    MAX_HEIGHT = 660  # fits a 1366x768 laptop screen under its panels; longer help scrolls inside

    def __init__(self, task: str, help_: Help, hint: str | None = None):
        super().__init__()
        self.setWindowTitle("Proactive: " + (task if len(task) <= 60 else task[:59].rstrip() + "…"))
        outer = QVBoxLayout(self)
        title = QLabel(task)
        title.setTextFormat(Qt.TextFormat.PlainText)  # model text is never interpreted as markup
        title.setStyleSheet("font-weight: bold")
        title.setWordWrap(True)
        outer.addWidget(title)
        # the help itself scrolls inside the window, so the window fits the screen (1366x768 and smaller) however
        # many code examples or steps it holds
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(0, 0, 0, 0)
        scroll.setWidget(inner)
        outer.addWidget(scroll, 1)
        self.text = QPlainTextEdit(help_.text)
        self.text.setReadOnly(True)
        self.text.setMinimumHeight(140)
        layout.addWidget(self.text)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        # each command of the next steps on its own line, with its own copy button: the step to take is one click
        self.command_buttons: list[QPushButton] = []
        for step in help_.steps:
            command = step.get("command")
            if not command:
                continue
            row = QHBoxLayout()
            field: QWidget
            if "\n" in command:  # a code example or notes: shown whole, a few lines high
                field = QPlainTextEdit(command)
                field.setMaximumHeight(120)
            else:
                field = QLineEdit(command)
            field.setReadOnly(True)
            if step.get("copy") != "Copy notes":  # commands and code in a fixed-width font, as in a terminal
                field.setFont(mono)
            row.addWidget(field)
            button = QPushButton(step.get("copy") or "Copy command")
            button.clicked.connect(lambda _=False, c=command: QGuiApplication.clipboard().setText(c))
            row.addWidget(button)
            self.command_buttons.append(button)
            layout.addLayout(row)
        self.hint: QLabel | None = None
        if hint:
            self.hint = QLabel(hint)
            self.hint.setWordWrap(True)
            self.hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(self.hint)
        layout.addStretch(1)
        self.copy_button = QPushButton("Copy to clipboard")
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.text.toPlainText()))
        outer.addWidget(self.copy_button)
        self.fit_screen(inner)

    def fit_screen(self, inner: QWidget) -> None:
        """As tall as its content, at most MAX_HEIGHT and the screen's free height less a margin (the rest
        scrolls); 560 wide, less on a narrow screen."""
        screen = QGuiApplication.primaryScreen()
        area = screen.availableGeometry() if screen is not None else None
        width = 560 if area is None else min(560, area.width() - 40)
        wanted = min(inner.sizeHint().height() + 110, self.MAX_HEIGHT)  # + the title, the copy button, margins
        height = max(300, wanted) if area is None else max(240, min(wanted, area.height() - 60))
        self.resize(width, height)
