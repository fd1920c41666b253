"""A capable model for answers, found on this machine and used only with the person's consent.

The built-in 135M model can choose among offers but cannot write an explanation worth reading, so with it an
offer promises only what Accept gives without its text (assistant/candidates.py). When a capable model is here
(an OpenAI-compatible server on loopback: Ollama, llama-server, vLLM, LM Studio; or a GGUF in the models folder),
the tray asks once whether to use it for answers, and the answer is remembered in `answer_model` ("off" or the
model's spec). Nothing is sent anywhere else: discovery and answers stay on loopback or in-process.
"""

from __future__ import annotations

import logging
from pathlib import Path

from proactive.models.base import ModelError, Predictor
from proactive.models.discovery import PORTS, Found, gguf_files, server_specs, servers

log = logging.getLogger(__name__)

ASK, OFF = "ask", "off"


def candidate(setting: str, models_dir: Path, current: str = "default", timeout: float = 0.5,
              ports: tuple[tuple[int, str], ...] = PORTS) -> Found | None:
    """The model to offer for answers, when the person has not chosen (`answer_model = "ask"`): the first model a
    loopback server serves, else the first GGUF in the models folder that is not the proposal model. None when
    nothing is found or the choice was made."""
    if setting != ASK:
        return None
    for server in servers(timeout, ports):
        served = server_specs(server)
        if served:
            return served[0]
    for found in gguf_files(models_dir):
        if found.spec != current:
            return found
    return None


def question(found: Found) -> str:
    """What the tray asks, plainly: what was found, what it would do, that nothing leaves the machine."""
    where = f"a model server on this machine ({found.detail or found.spec})" if found.source == "server" else \
        f"a model file in your models folder ({found.name})"
    return (f"Proactive found {where}: '{found.name}'. Use it to write explanations and drafts when you accept an "
            "offer? It runs on this machine; nothing is sent elsewhere.")


def load(setting: str) -> Predictor | None:
    """The answers model the person chose, loaded; None when none is chosen or it cannot be used now (said once
    in the log: the offers then promise only what Accept gives without a model's text)."""
    if setting in (ASK, OFF, ""):
        return None
    from proactive.models.registry import load_model

    try:
        return load_model(setting)
    except ModelError as exc:
        log.warning("the answers model %s cannot be used (%s): answers are off until it can", setting, exc)
        return None
