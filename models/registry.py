"""One registry: spec strings in, models and reward models out, like `llm`'s model plugins.

Everything that reads a spec goes through here (the CLI's options, the settings window, the config loader), so a
spec means the same everywhere and is refused with the same one-line reason:

- a model: `default` (the built-in GGUF), a GGUF path, or `openai:BASE_URL#MODEL` (an OpenAI-compatible server;
  `openai:` alone uses `OPENAI_BASE_URL`);
- a reward model: `default` (the shipped trained model), `signals` (hand-written), `llm:MODEL` (an LLM judging as
  the user, MODEL being a model spec) or the path of a file written by `proactive rm train`.

`model_problem`/`reward_problem` check a spec without loading anything (cheap, for forms and config files);
`load_model`/`load_reward` build the object and raise `ModelError` with one line when it cannot be used. A new
backend or reward model is one more branch in these functions.
"""

from __future__ import annotations

import os
from pathlib import Path

from .base import ModelError, Predictor
from .scorer import Scorer

MODEL_SPECS = "default, a GGUF path, or openai:BASE_URL#MODEL"
REWARD_SPECS = "default, signals, llm:MODEL, or a reward-model file"
REWARD_NAMES = ("default", "signals")  # the reward models that need no argument


def _openai_problem(rest: str) -> str | None:
    url = rest.partition("#")[0].strip() or os.environ.get("OPENAI_BASE_URL", "")
    if not url:
        return "openai: needs a server URL (openai:http://127.0.0.1:8080/v1#MODEL) or OPENAI_BASE_URL"
    if not url.startswith(("http://", "https://")):
        return f"openai:{url}: the server URL must start with http:// or https://"
    return None


def model_problem(spec: str) -> str | None:
    """Why the model `spec` cannot be used, or None; nothing is loaded and no server is asked."""
    spec = (spec or "").strip()
    if not spec:
        return f"empty model: give {MODEL_SPECS}"
    if spec == "default":
        return None
    if spec.startswith("openai:"):
        return _openai_problem(spec[len("openai:"):])
    path = Path(spec).expanduser()
    if not path.is_file():
        return f"{spec!r} is not {MODEL_SPECS} (no such file)"
    return None


def reward_problem(spec: str) -> str | None:
    """Why the reward-model `spec` cannot be used, or None; nothing is loaded."""
    spec = (spec or "").strip()
    if spec in REWARD_NAMES:
        return None
    if spec.startswith("llm:"):
        inner = spec[len("llm:"):].strip()
        if not inner:
            return "llm: needs a model, as in llm:default"
        return model_problem(inner)
    if not spec or not Path(spec).expanduser().is_file():
        return f"{spec!r} is not {REWARD_SPECS}"
    return None


def load_model(spec: str, n_ctx: int = 4096) -> Predictor:
    """Load the model named by `spec`. Raises ModelError (one line) when it cannot be used; a server is asked
    once here, so a wrong URL, key or model name fails before the first turn."""
    spec = (spec or "default").strip()
    problem = model_problem(spec)
    if problem:
        raise ModelError(problem)
    if spec.startswith("openai:"):
        from .openai_http import OpenAICompatible

        url, _, model = spec[len("openai:"):].partition("#")
        remote = OpenAICompatible(url, model)
        remote.check()  # a wrong URL, key or model fails here, in one line, before the first turn
        return remote
    from .llama_cpp import LlamaCppModel

    if spec == "default":
        from .default import default_model_path

        return LlamaCppModel(default_model_path(), n_ctx=n_ctx)
    return LlamaCppModel(Path(spec).expanduser(), n_ctx=n_ctx)


def load_reward(spec: str) -> Scorer:
    """The reward model named by `spec`. Raises ModelError (one line) when it cannot be used."""
    spec = (spec or "default").strip()
    problem = reward_problem(spec)
    if problem:
        raise ModelError(problem)
    if spec == "signals":
        from .signals import SignalScorer

        return SignalScorer()
    if spec.startswith("llm:"):
        from .judge import LLMJudge

        return LLMJudge(load_model(spec[len("llm:"):]), name=spec)
    from .reward import TrainedRewardModel, load_default

    try:
        return load_default() if spec == "default" else TrainedRewardModel.load(Path(spec).expanduser())
    except (OSError, ValueError) as exc:
        raise ModelError(f"{spec}: {exc}") from None
