"""The web-search question: the first Accept that would send captured text to a search engine, or read pages for
the person, asks first.

Why: a web search and reading a page are the assistant's only network use, and what a search sends is captured
text (an error message that may name a file, a host, a customer); reading a page tells its site of a visit. With `web_search = "ask"` (the default) the person sees exactly what
would go where before anything is sent, and answers once: "Always" and "Never" are written to config.toml
(`web_search = "on"` / `"off"`), so the question is not asked again; "Not now" sends nothing this time and asks
again next time. Closing the dialog (Escape, the window's close button) is "Not now".
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from proactive.assistant.help import NOT_NOW

ALWAYS, NEVER = "on", "off"  # the answers that become the `web_search` setting


class Question(QMessageBox):
    """A question asked without blocking the tray (not modal: its event loop runs on), answered once: `answered`
    carries the answer of the button pressed, or `closed` when the dialog is closed without one. Captured text
    in it is plain text, never markup."""

    answered = Signal(str)

    def __init__(self, title: str, text: str, note: str, buttons: list[tuple[str, str, QMessageBox.ButtonRole]],
                 closed: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setIcon(QMessageBox.Icon.Question)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)
        self.setInformativeText(note)
        self.answer_buttons: dict[str, QPushButton] = {answer: self.addButton(label, role) for answer, label, role in buttons}
        self.closed = closed
        if closed in self.answer_buttons:
            self.setDefaultButton(self.answer_buttons[closed])
            self.setEscapeButton(self.answer_buttons[closed])
        self.setWindowModality(Qt.WindowModality.NonModal)
        self._sent = False
        self.finished.connect(self._finished)

    def _finished(self, _result: int) -> None:
        if self._sent:
            return
        self._sent = True
        clicked = self.clickedButton()
        self.answered.emit(next((answer for answer, button in self.answer_buttons.items() if button is clicked),
                                self.closed))


class ConsentDialog(Question):
    """Always / Not now / Never: `answered` carries "on", "off" or NOT_NOW (also when closed)."""

    def __init__(self, text: str, parent: QWidget | None = None):
        """`text`: what would be sent or read, and where (`assistant.help.consent_question`)."""
        role = QMessageBox.ButtonRole
        super().__init__("Proactive: web search", text,
                         "Always and Never are remembered (web_search in config.toml); Not now sends nothing this "
                         "time.", [(ALWAYS, "Always", role.AcceptRole), (NOT_NOW, "Not now", role.RejectRole),
                                   (NEVER, "Never", role.DestructiveRole)], NOT_NOW, parent)


ASK_LATER = "ask"  # the answers-model question closed without an answer: the setting stays "ask"


class AnswerModelDialog(Question):
    """Whether to use a capable model found on this machine to write answers: asked once, remembered either
    way (`answer_model` = its spec, or "off"). Closed without an answer: ASK_LATER (asked at the next start)."""

    def __init__(self, text: str, spec: str, parent: QWidget | None = None):
        role = QMessageBox.ButtonRole
        super().__init__("Proactive: a model for answers", text,
                         "Your answer is remembered (answer_model in config.toml; the Settings window changes it).",
                         [(spec, "Use it", role.AcceptRole), ("off", "No", role.RejectRole)], ASK_LATER, parent)


#: what the accessibility question says (measured: bench/watcher_overhead.py --a11y, docs/benchmarks.md)
ACCESSIBILITY_QUESTION = (
    "Your applications do not say which of their fields are password fields, so Proactive keeps only how many "
    "characters you type in them, not the text. Turn on the desktop's accessibility support, so they say it?")
ACCESSIBILITY_NOTE = (
    "It is the setting screen readers use (org.a11y.Status). Applications started from now on report each "
    "field they type into, which costs them a little CPU while you type; restart the open ones. Your answer is "
    "remembered (accessibility in config.toml; `proactive accessibility on|off` changes it).")


class AccessibilityDialog(Question):
    """Whether to turn toolkit accessibility on: asked once, remembered either way (`accessibility` = "on" or
    "off"). Closed without an answer: ASK_LATER (asked at the next start)."""

    def __init__(self, parent: QWidget | None = None):
        role = QMessageBox.ButtonRole
        super().__init__("Proactive: accessibility", ACCESSIBILITY_QUESTION, ACCESSIBILITY_NOTE,
                         [("on", "Turn it on", role.AcceptRole), ("off", "No", role.RejectRole)], ASK_LATER, parent)
