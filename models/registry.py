"""Choosing a model by name, like `llm`'s model plugins: `default`, a GGUF path, or `openai:BASE_URL#MODEL`."""

from __future__ import annotations

from pathlib import Path

from .base import Predictor


def load_model(spec: str, n_ctx: int = 4096) -> Predictor:
    """Load the model named by `spec`. Raises ModelError (one line) when it cannot be used."""
    spec = (spec or "default").strip()
    if spec.startswith("openai:"):
        from .openai_http import OpenAICompatible

        url, _, model = spec[len("openai:"):].partition("#")
        return OpenAICompatible(url, model)
    from .llama_cpp import LlamaCppModel

    if spec == "default":
        from .default import default_model_path

        return LlamaCppModel(default_model_path(), n_ctx=n_ctx)
    return LlamaCppModel(Path(spec).expanduser(), n_ctx=n_ctx)
