"""The ui's commands: `annotate` opens the annotation window on a recorded session or the database. The entry
point (`proactive.app.cli`) adds them with `register`; the tray is started by `run` and `tray`, which wire the
whole app (`proactive.app`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from proactive.models.base import Observation
from proactive.watcher.command_line import db_option, fail, reads_config
from proactive.watcher.store import home


@click.command()
@reads_config
@click.argument("session", required=False, type=click.Path(dir_okay=False))
@db_option
@click.option("--annotator", default="", help="Your name, as it goes into the labels.")
@click.option("--model", "model_spec", default="default", show_default=True,
              help="The model behind 'Ask the agent': default, a GGUF path, openai:BASE_URL#MODEL, or none.")
def annotate(session: str | None, db: str | None, annotator: str, model_spec: str) -> None:
    """Label a recorded session (a ProactiveBench file, or our database when no file is given) and export it
    in reward format for `proactive reward train`."""
    from PySide6.QtWidgets import QApplication

    from proactive.eval.annotation import load_candidates, load_database, load_observations
    from proactive.eval.sessions import SessionError
    from proactive.models.registry import model_problem
    from proactive.ui.annotate import AnnotationWindow

    problem = None if model_spec == "none" else model_problem(model_spec)
    if problem:  # checked before the window opens (the model itself loads at the first question)
        fail(f"--model: {problem}")
    try:
        if session:
            observations, candidates = load_observations(session), load_candidates(session)
        else:
            observations, candidates = load_database(db or home.db_path())
    except SessionError as exc:
        fail(str(exc))
    app = QApplication.instance() or QApplication(["proactive"])
    window = AnnotationWindow(observations, annotator=annotator, candidates=candidates,
                              session_name=Path(session).name if session else "database",
                              suggest=None if model_spec == "none" else agent_suggestions(model_spec))
    window.show()
    app.exec()


def agent_suggestions(model_spec: str) -> Callable[[list[Observation]], list[str]]:
    """The agent's candidate tasks (k=3) for annotators; the model loads at the first question, not at start."""
    from proactive.assistant.agent import Agent
    from proactive.models.registry import load_model

    agent: list[Agent] = []

    def suggest(observations: list[Observation]) -> list[str]:
        if not agent:  # a missing or corrupt model raises ModelError: the window shows it
            agent.append(Agent(load_model(model_spec), k=3))
        return agent[0].predict(observations[-30:]).candidates

    return suggest


def register(group: click.Group) -> None:
    """Add the ui's commands to the `proactive` group."""
    group.add_command(annotate)
