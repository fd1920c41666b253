"""One registry: spec strings in, models and reward models out, like `llm`'s model plugins.

Everything that reads a spec goes through here (the CLI's options, the settings window, the config loader, the
doctor, replay's cache), so a spec means the same everywhere and is refused with the same one-line reason:

- a model: `default` (the built-in GGUF), a GGUF path, or `openai:BASE_URL#MODEL` (an OpenAI-compatible server;
  `openai:` alone uses `OPENAI_BASE_URL`); `fake` is the instant, deterministic model of fast tests (`fake.py`);
- a reward model: `default` (the shipped trained model), `signals` (hand-written), `llm:MODEL` (an LLM judging as
  the user, MODEL being a model spec) or the path of a file written by `proactive reward train`.

Each backend is one registration object (`ModelBackend`, `RewardBackend`) holding everything that depends on
its part of the grammar: which specs are its own, the cheap check (`problem`: nothing loaded, for forms and
config files), loading (raises `ModelError` with one line), the doctor's check (`check`: may ask a server for a
connection, loads nothing) and, for models, what its answers depend on (`identity`: replay's cache key). A new
backend is one more registration in `MODEL_BACKENDS` or `REWARD_BACKENDS`.
"""

from __future__ import annotations

import importlib.util
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .base import ModelError, Predictor
from .scorer import Scorer

MODEL_SPECS = "default, a GGUF path, or openai:BASE_URL#MODEL"
REWARD_SPECS = "default, signals, llm:MODEL, or a reward-model file"
REWARD_NAMES = ("default", "signals")  # the reward models that need no argument


#: seconds a model server may take to accept a connection (the doctor's check)
SERVER_TIMEOUT = 0.5
LOCAL_FIX = "pip install 'proactive-assistant[local]' (packaging/setup.sh install does it)"


@dataclass(frozen=True)
class Check:
    """The doctor's verdict on a spec: whether it can be used here, what was found, and what to do if not."""

    works: bool
    detail: str
    fix: str = ""


@dataclass(frozen=True)
class ModelBackend:
    """One way to get a model, registered once: everything that depends on its part of the spec grammar."""

    name: str
    owns: Callable[[str], bool]  # whether a (stripped, non-empty) spec is this backend's
    problem: Callable[[str], str | None]  # why the spec cannot be used, without loading anything
    load: Callable[[str, int], Predictor]  # (spec, n_ctx) -> the model; ModelError when it cannot be used
    check: Callable[[str, str], Check]  # (spec, where to change it) -> the doctor's check; loads nothing
    identity: Callable[[str, Callable[[Path], str]], str]  # (spec, file hasher) -> what its answers depend on


@dataclass(frozen=True)
class RewardBackend:
    """One kind of reward model, registered once."""

    name: str
    owns: Callable[[str], bool]
    problem: Callable[[str], str | None]
    load: Callable[[str], Scorer]
    check: Callable[[str, str], Check]


def _llama_cpp_missing() -> bool:
    return importlib.util.find_spec("llama_cpp") is None


def _size(path: Path) -> str:
    return f"{path.stat().st_size / 1e6:.0f} MB"


# -- the built-in model ----------------------------------------------------------------------------------------

def _builtin_load(spec: str, n_ctx: int) -> Predictor:
    from .default import default_model_path
    from .llama_cpp import LlamaCppModel

    return LlamaCppModel(default_model_path(), n_ctx=n_ctx)


def _builtin_check(spec: str, where: str) -> Check:
    from .discovery import builtin, builtin_problem

    found = builtin()
    if found is None:
        return Check(False, builtin_problem(), LOCAL_FIX)
    if _llama_cpp_missing():
        return Check(False, f"built-in {found.name} is installed but llama-cpp-python is not", LOCAL_FIX)
    return Check(True, f"the built-in model, {found.name} ({found.detail})")


def _builtin_identity(spec: str, hash_file: Callable[[Path], str]) -> str:
    from .default import default_model_path

    return "gguf:" + hash_file(default_model_path())  # the same file as its path: the same answers


BUILTIN = ModelBackend("built-in", lambda spec: spec == "default", lambda spec: None, _builtin_load, _builtin_check,
                       _builtin_identity)


# -- an OpenAI-compatible server -------------------------------------------------------------------------------

def _server_parts(spec: str) -> tuple[str, str]:
    """(base URL, model name) of an `openai:` spec; the URL from OPENAI_BASE_URL when the spec has none."""
    url, _, model = spec[len("openai:"):].partition("#")
    return url.strip() or os.environ.get("OPENAI_BASE_URL", ""), model


def _server_problem(spec: str) -> str | None:
    url, _ = _server_parts(spec)
    if not url:
        return "openai: needs a server URL (openai:http://127.0.0.1:8080/v1#MODEL) or OPENAI_BASE_URL"
    if not url.startswith(("http://", "https://")):
        return f"openai:{url}: the server URL must start with http:// or https://"
    return None


def _server_load(spec: str, n_ctx: int) -> Predictor:
    from .openai_http import OpenAICompatible

    url, model = _server_parts(spec)
    remote = OpenAICompatible(url, model)
    remote.check()  # a wrong URL, key or model fails here, in one line, before the first turn
    return remote


def _server_answers(url: str) -> bool:
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        with socket.create_connection((parts.hostname or "", port), timeout=SERVER_TIMEOUT):
            return True
    except (OSError, ValueError):
        return False


def _server_check(spec: str, where: str) -> Check:
    url, model = _server_parts(spec)
    what = f"an OpenAI-compatible server at {url}" + (f", model {model}" if model else "")
    if _server_answers(url):
        return Check(True, f"{what}: it accepts connections (asked for nothing more)")
    return Check(False, f"{what}: nothing answers there",
                 f"start the server (llama-server, Ollama...), or {where}; proactive models lists usable ones")


def _server_identity(spec: str, hash_file: Callable[[Path], str]) -> str:
    from .openai_http import normalize_base_url

    url, model = _server_parts(spec)
    return f"openai:{normalize_base_url(url)}#{model}"  # the same server however its URL is written


SERVER = ModelBackend("server", lambda spec: spec.startswith("openai:"), _server_problem, _server_load,
                      _server_check, _server_identity)


# -- a GGUF file -----------------------------------------------------------------------------------------------

def _gguf_problem(spec: str) -> str | None:
    return None if Path(spec).expanduser().is_file() else f"{spec!r} is not {MODEL_SPECS} (no such file)"


def _gguf_load(spec: str, n_ctx: int) -> Predictor:
    from .llama_cpp import LlamaCppModel

    return LlamaCppModel(Path(spec).expanduser(), n_ctx=n_ctx)


def _gguf_check(spec: str, where: str) -> Check:
    path = Path(spec).expanduser()
    try:
        with path.open("rb") as f:
            magic = f.read(4)
    except OSError as exc:
        return Check(False, f"{path}: {exc}", where)
    if magic != b"GGUF":
        return Check(False, f"{path} is not a GGUF file", f"{where}: {MODEL_SPECS}")
    if _llama_cpp_missing():
        return Check(False, f"GGUF file {path}, but llama-cpp-python is not installed", LOCAL_FIX)
    return Check(True, f"GGUF file {path} ({_size(path)})")


GGUF = ModelBackend("gguf", lambda spec: True, _gguf_problem, _gguf_load, _gguf_check,
                    lambda spec, hash_file: "gguf:" + hash_file(Path(spec).expanduser()))

# -- the fake model for fast tests -----------------------------------------------------------------------------

def _fake_load(spec: str, n_ctx: int) -> Predictor:
    from .fake import FakeModel

    return FakeModel()


FAKE = ModelBackend("fake", lambda spec: spec == "fake", lambda spec: None, _fake_load,
                    lambda spec, where: Check(True, "the fake model for tests: instant, ranks the offers in order"),
                    lambda spec, hash_file: "fake")

#: the model backends, in the order they claim a spec (a GGUF path takes what the others do not)
MODEL_BACKENDS: tuple[ModelBackend, ...] = (BUILTIN, SERVER, FAKE, GGUF)


def model_backend(spec: str) -> ModelBackend:
    """The backend whose grammar the (non-empty) `spec` belongs to."""
    spec = spec.strip()
    return next(b for b in MODEL_BACKENDS if b.owns(spec))


def model_problem(spec: str) -> str | None:
    """Why the model `spec` cannot be used, or None; nothing is loaded and no server is asked."""
    spec = (spec or "").strip()
    if not spec:
        return f"empty model: give {MODEL_SPECS}"
    return model_backend(spec).problem(spec)


def model_check(spec: str, where: str) -> Check:
    """The doctor's check of the model `spec` (`where`: how the person changes it); nothing is loaded, a server
    is only asked whether it accepts a connection."""
    spec = (spec or "").strip()
    problem = model_problem(spec)
    if problem:
        return Check(False, problem, f"{where}: {MODEL_SPECS}")
    return model_backend(spec).check(spec, where)


def model_identity(spec: str, hash_file: Callable[[Path], str]) -> str:
    """What the model's answers depend on, without loading it: a GGUF's content (`default` is its file), or a
    server's endpoint and model name. Raises ModelError or OSError when the file is missing."""
    spec = (spec or "default").strip()
    return model_backend(spec).identity(spec, hash_file)


def load_model(spec: str, n_ctx: int = 4096) -> Predictor:
    """Load the model named by `spec`. Raises ModelError (one line) when it cannot be used; a server is asked
    once here, so a wrong URL, key or model name fails before the first turn."""
    spec = (spec or "default").strip()
    problem = model_problem(spec)
    if problem:
        raise ModelError(problem)
    return model_backend(spec).load(spec, n_ctx)


# -- reward models ---------------------------------------------------------------------------------------------

def _default_reward_check(spec: str, where: str) -> Check:
    from .reward import DEFAULT_ARTEFACT

    if not Path(DEFAULT_ARTEFACT).is_file():
        return Check(False, f"the shipped reward model is missing: {DEFAULT_ARTEFACT}", "reinstall Proactive")
    return Check(True, "the shipped trained reward model (with its need model)")


def _default_reward_load(spec: str) -> Scorer:
    from .reward import load_default

    try:
        return load_default()
    except (OSError, ValueError) as exc:
        raise ModelError(f"{spec}: {exc}") from None


def _signals_load(spec: str) -> Scorer:
    from .signals import SignalScorer

    return SignalScorer()


def _judge_problem(spec: str) -> str | None:
    inner = spec[len("llm:"):].strip()
    return "llm: needs a model, as in llm:default" if not inner else model_problem(inner)


def _judge_load(spec: str) -> Scorer:
    from .judge import LLMJudge

    return LLMJudge(load_model(spec[len("llm:"):]), name=spec)


def _judge_check(spec: str, where: str) -> Check:
    inner = model_check(spec[len("llm:"):], where)
    return Check(inner.works, "a language model judging as the user: " + inner.detail, inner.fix)


def _file_problem(spec: str) -> str | None:
    return None if Path(spec).expanduser().is_file() else f"{spec!r} is not {REWARD_SPECS}"


def _file_load(spec: str) -> Scorer:
    from .reward import TrainedRewardModel

    try:
        return TrainedRewardModel.load(Path(spec).expanduser())
    except (OSError, ValueError) as exc:
        raise ModelError(f"{spec}: {exc}") from None


REWARD_BACKENDS: tuple[RewardBackend, ...] = (
    RewardBackend("shipped", lambda spec: spec == "default", lambda spec: None, _default_reward_load,
                  _default_reward_check),
    RewardBackend("signals", lambda spec: spec == "signals", lambda spec: None, _signals_load,
                  lambda spec, where: Check(True, "hand-written need signals (no trained model)")),
    RewardBackend("llm judge", lambda spec: spec.startswith("llm:"), _judge_problem, _judge_load, _judge_check),
    RewardBackend("trained file", lambda spec: True, _file_problem, _file_load,
                  lambda spec, where: Check(True, f"trained reward model {Path(spec).expanduser()} "
                                                  f"({_size(Path(spec).expanduser())})")),
)


def reward_backend(spec: str) -> RewardBackend:
    spec = spec.strip()
    return next(b for b in REWARD_BACKENDS if b.owns(spec))


def reward_problem(spec: str) -> str | None:
    """Why the reward-model `spec` cannot be used, or None; nothing is loaded."""
    spec = (spec or "").strip()
    if not spec:
        return f"{spec!r} is not {REWARD_SPECS}"
    return reward_backend(spec).problem(spec)


def reward_check(spec: str, where: str) -> Check:
    """The doctor's check of the reward model `spec` (`llm:M` checks M as a model); nothing is loaded."""
    spec = (spec or "").strip()
    problem = reward_problem(spec)
    if problem:
        return Check(False, problem, f"{where}: {REWARD_SPECS}")
    return reward_backend(spec).check(spec, where)


def load_reward(spec: str) -> Scorer:
    """The reward model named by `spec`. Raises ModelError (one line) when it cannot be used."""
    spec = (spec or "default").strip()
    problem = reward_problem(spec)
    if problem:
        raise ModelError(problem)
    return reward_backend(spec).load(spec)
