"""The questions the tray asks once, each answer remembered in config.toml: whether to turn toolkit accessibility
on (so typing in applications can be read), and whether to use a capable model found on this machine for answers.

A mixin of `TrayApp` (ui/app.py), kept apart because it is a concern of its own: each question is a dialog
(ui/consent.py), a saved setting and, for the model, a load in a thread whose result crosses back on the bridge.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
from typing import Any

from PySide6.QtWidgets import QWidget

from proactive.assistant import answers
from proactive.models.discovery import PORTS
from proactive.watcher.store import home

log = logging.getLogger(__name__)


class OneTimeQuestions:
    """Accessibility and the answers model: asked once, remembered both ways. The model is looked for here; the
    assistant loads the one chosen (`backend.use_answer_model`)."""

    config: home.Config
    windows: list[QWidget]
    bridge: Any  # ui.app.Bridge: model_found, model_loaded
    closed: bool
    backend: Any  # assistant.tray_backend.Backend, or tray_wire.RemoteBackend: loads the chosen model

    def ask_accessibility(self) -> None:
        """Where an accessibility bus answers but toolkit accessibility is off (so most applications' typing is
        only counted), ask once whether to turn it on; the answer is remembered (`accessibility`)."""
        from proactive.watcher.capture.atspi import toolkit_accessibility

        from .consent import AccessibilityDialog

        state = toolkit_accessibility()
        if state is None:  # no bus to turn it on with: said once in the log, with the fix, as the Settings
            # window's Diagnostics (doctor's accessibility row) says it
            log.warning("no accessibility bus answers: text typed in applications is kept only as a count of "
                        "characters; fix: install at-spi2-core (a desktop session starts it)")
            return  # (no balloon: it would cover the corner where proposals appear)
        if state:
            return  # on already
        dialog = AccessibilityDialog()
        dialog.answered.connect(self._accessibility_chosen)
        self.windows.append(dialog)
        dialog.show()

    def _accessibility_chosen(self, answer: str) -> None:
        from proactive.watcher.capture.atspi import set_toolkit_accessibility
        from proactive.watcher.store.home import save_setting

        if answer not in ("on", "off"):
            return  # closed without an answer: asked again at the next start
        if answer == "on":
            problem = set_toolkit_accessibility(True)
            if problem:
                log.warning("accessibility could not be turned on: %s", problem)
        try:
            save_setting("accessibility", answer)
        except (OSError, ValueError) as exc:
            log.warning("accessibility = %r could not be saved (%s); it holds until the app quits", answer, exc)
        self.config = dataclasses.replace(self.config, accessibility=answer)

    # -- a capable model for answers (assistant/answers.py) --------------------------------------------------

    def look_for_answer_model(self, ports: tuple[tuple[int, str], ...] = PORTS) -> None:
        """Look for a capable model (loopback servers, GGUFs in the models folder) in a thread; one found is
        offered in a dialog, once."""
        config = self.config

        def work() -> None:
            try:
                found = answers.candidate(config.answer_model, home.models_dir(), config.model, ports=ports)
            except Exception:  # noqa: BLE001 - looking is optional: nothing offered
                log.exception("looking for a model for answers failed")
                return
            if found is not None and not self.closed:
                with contextlib.suppress(RuntimeError):  # the tray closed meanwhile: its bridge is gone
                    self.bridge.model_found.emit(found)

        threading.Thread(target=work, name="answer-model", daemon=True).start()

    def _offer_answer_model(self, found: Any) -> None:
        from .consent import AnswerModelDialog

        if self.config.answer_model != "ask":
            return  # answered meanwhile
        dialog = AnswerModelDialog(answers.question(found), found.spec)
        dialog.answered.connect(self._answer_model_chosen)
        self.windows.append(dialog)
        dialog.show()

    def _answer_model_chosen(self, answer: str) -> None:
        """Remember the answer in config.toml (both ways); the assistant then loads the chosen model."""
        if answer == "ask":
            return  # closed without an answer: asked again at the next start
        from proactive.watcher.store.home import save_setting

        try:
            save_setting("answer_model", answer)
        except (OSError, ValueError) as exc:
            log.warning("answer_model = %r could not be saved (%s); it holds until the app quits", answer, exc)
        self.config = dataclasses.replace(self.config, answer_model=answer)
        if answer != "off":
            self.backend.use_answer_model(answer)
