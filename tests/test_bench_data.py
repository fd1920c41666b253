"""The benchmarks that read ProactiveBench's developer split say in one line what to give when it is not there
(a clone has no folder beside it), instead of a traceback or a benchmark of nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("script, option", [("need_cv.py", "--sessions"), ("rm_study.py", "--data"),
                                            ("session_pages.py", "--sessions")])
def test_a_benchmark_without_its_data_says_what_to_give(tmp_path: Path, script: str, option: str) -> None:
    env = dict(os.environ, PROACTIVEBENCH_DATA=str(tmp_path / "none"))
    out = subprocess.run([sys.executable, str(ROOT / "bench" / script)], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and str(tmp_path / "none") in lines[0] and f"Give {option} PATH" in lines[0], lines
    assert "github.com/thunlp/ProactiveAgent" in lines[0]
