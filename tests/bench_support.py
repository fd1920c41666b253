"""The benchmark scripts the tests call as modules: `bench/` is no package, so it is loaded from its file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def help_quality() -> ModuleType:
    """`bench/help_quality.py`: the phrasing tests compare replayed help with live help through its own paths."""
    spec = importlib.util.spec_from_file_location("help_quality", ROOT / "bench" / "help_quality.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["help_quality"] = module
    spec.loader.exec_module(module)
    return module
