"""Type-check the installed packages with mypy (packaging/setup.sh test runs it after ruff).

    .venv/bin/python tools/typecheck.py [MYPY ARGS]

mypy names modules after their folders, but this repository's folders install under other names (`watcher/` is
`proactive.watcher`: pyproject's `[tool.setuptools.package-dir]`). Symlinks in `.mypy_cache/src/proactive/`, one
per package, give mypy the installed layout without moving a file; the paths mypy reports are turned back into the
repository's. The settings (strict modules, libraries without stubs) are in pyproject's `[tool.mypy]`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: inside mypy's default cache folder (gitignored): a stable place, so the cache stays valid between runs
SOURCES = ROOT / ".mypy_cache" / "src"


def package_dirs() -> dict[str, str]:
    """Installed package -> its folder (proactive.watcher -> watcher, ...), from pyproject's package-dir."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return dict(config["tool"]["setuptools"]["package-dir"])


def build_layout(mapping: dict[str, str]) -> None:
    """`.mypy_cache/src/proactive/`: one symlink per package to its folder, and an empty `__init__.py` (the
    installed `proactive` is a namespace; without the file mypy, which wants every parent of a module to be a
    package, would take the data folder `assistant/diagnose/rules/` for the module `rules.py` beside it)."""
    proactive = SOURCES / "proactive"
    proactive.mkdir(parents=True, exist_ok=True)
    (proactive / "__init__.py").touch()
    for package, folder in mapping.items():
        target, link = ROOT / folder, proactive / package.removeprefix("proactive.")
        if link.is_symlink() and link.resolve() != target:  # a moved checkout leaves a stale link
            link.unlink()
        if not link.is_symlink():
            link.symlink_to(target, target_is_directory=True)


def main(argv: list[str]) -> int:
    mapping = package_dirs()
    build_layout(mapping)
    args = [arg for package in sorted(mapping) for arg in ("-p", package)]
    env = {**os.environ, "MYPYPATH": str(SOURCES)}
    done = subprocess.run([sys.executable, "-m", "mypy", *args, *argv], cwd=ROOT, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = done.stdout
    for package, folder in mapping.items():  # `.mypy_cache/src/proactive/ui/x.py:3:` -> `ui/x.py:3:` for editors
        out = out.replace(f"{SOURCES.relative_to(ROOT)}/{package.replace('.', '/')}/", f"{folder}/")
    sys.stdout.write(out)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
