"""The web-search question: the first Accept that would send captured text to a search engine asks first.

Why: a web search is the assistant's only network use, and what it sends is captured text (an error message
that may name a file, a host, a customer). With `web_search = "ask"` (the default) the person sees exactly what
would go where before anything is sent, and answers once: "Always" and "Never" are written to config.toml
(`web_search = "on"` / `"off"`), so the question is not asked again; "Not now" sends nothing this time and asks
again next time. Closing the dialog (Escape, the window's close button) is "Not now".
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from proactive.assistant.help import NOT_NOW, search_host

ALWAYS, NEVER = "on", "off"  # the answers that become the `web_search` setting
MAX_SHOWN = 300  # characters of the query in the question (it is one line of captured text)


def question(query: str) -> str:
    """The question's text: what would be sent, and where."""
    shown = query if len(query) <= MAX_SHOWN else query[:MAX_SHOWN - 1] + "…"
    return f"Accepting sends '{shown}' to {search_host(query)}. Allow web searches?"


class ConsentDialog(QMessageBox):
    """Always / Not now / Never, not modal (the tray's event loop runs on): `answered` carries "on", "off" or
    NOT_NOW once, when a button is pressed or the dialog is closed."""

    answered = Signal(str)

    def __init__(self, query: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Proactive: web search")
        self.setIcon(QMessageBox.Icon.Question)
        self.setTextFormat(Qt.TextFormat.PlainText)  # captured text is never interpreted as markup
        self.setText(question(query))
        self.setInformativeText("Always and Never are remembered (web_search in config.toml); Not now sends "
                                "nothing this time.")
        self.buttons: dict[str, QPushButton] = {
            ALWAYS: self.addButton("Always", QMessageBox.ButtonRole.AcceptRole),
            NOT_NOW: self.addButton("Not now", QMessageBox.ButtonRole.RejectRole),
            NEVER: self.addButton("Never", QMessageBox.ButtonRole.DestructiveRole),
        }
        self.setDefaultButton(self.buttons[NOT_NOW])
        self.setEscapeButton(self.buttons[NOT_NOW])
        self.setWindowModality(Qt.WindowModality.NonModal)
        self._sent = False
        self.finished.connect(self._finished)

    def _finished(self, _result: int) -> None:
        if self._sent:
            return
        self._sent = True
        clicked = self.clickedButton()
        self.answered.emit(next((answer for answer, button in self.buttons.items() if button is clicked), NOT_NOW))


class AnswerModelDialog(QMessageBox):
    """Whether to use a capable model found on this machine to write answers: asked once, remembered either
    way (`answer_model` = its spec, or "off"). `answered` carries the spec or "off"; closing the dialog is "off"
    for this run only (`ASK_LATER`: asked again at the next start)."""

    answered = Signal(str)

    def __init__(self, text: str, spec: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Proactive: a model for answers")
        self.setIcon(QMessageBox.Icon.Question)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)
        self.setInformativeText("Your answer is remembered (answer_model in config.toml; the Settings window "
                                "changes it).")
        self.buttons: dict[str, QPushButton] = {
            spec: self.addButton("Use it", QMessageBox.ButtonRole.AcceptRole),
            "off": self.addButton("No", QMessageBox.ButtonRole.RejectRole),
        }
        self.setWindowModality(Qt.WindowModality.NonModal)
        self._sent = False
        self.finished.connect(self._finished)

    def _finished(self, _result: int) -> None:
        if self._sent:
            return
        self._sent = True
        clicked = self.clickedButton()
        self.answered.emit(next((answer for answer, button in self.buttons.items() if button is clicked),
                                ASK_LATER))


ASK_LATER = "ask"  # the dialog closed without an answer: the setting stays "ask"
