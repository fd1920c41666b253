"""Install the checkout into a virtual environment with uv, under this machine's pip configuration.

    python packaging/pip_install.py VENV_PYTHON EXTRAS      (packaging/setup.sh calls it)

Why uv: pip takes about a minute of two cores to resolve, download and unpack the ~130 distributions of `.[test]`;
uv does the same in seconds (parallel downloads, a native resolver), which is most of the set-up's time on a fresh
clone. uv reads neither pip.conf nor PIP_* variables, so the options a machine set for pip (a mirror, extra indexes,
local wheels, constraints, a certificate) are carried over here, and uv is told to choose the best version across
all indexes, as pip does. Where that cannot be done faithfully (a pip option uv is not given here, no uv to be had,
uv failing), the install falls back to pip, as before: slower, never different.

The distributions built from source (llama-cpp-python) are installed by pip first: pip keeps the wheel it built in
its cache, so a machine that built it once does not build it again (about 5 minutes) in uv's cache.

Standard library only: it runs under the venv's bare interpreter, before anything is installed.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: built from source on Linux (no binary wheel): installed by pip, whose cache keeps the wheel it built
BUILT_FROM_SOURCE = {"llama-cpp-python"}
#: pip options that change nothing about what gets installed
HARMLESS = {"disable-pip-version-check", "no-compile", "compile", "quiet", "verbose", "no-color", "progress-bar",
            "root-user-action", "no-warn-script-location", "no-warn-conflicts", "retries", "no-cache-dir",
            "cache-dir", "no-input", "log"}
#: pip options whose list value becomes one uv flag per item
LIST_FLAGS = {"find-links": "--find-links", "extra-index-url": "--extra-index-url", "constraint": "--constraint",
              "trusted-host": "--allow-insecure-host"}
#: pip options that become an environment variable of uv's
ENV_VARS = {"cert": "SSL_CERT_FILE", "timeout": "UV_HTTP_TIMEOUT", "default-timeout": "UV_HTTP_TIMEOUT",
            "proxy": "HTTPS_PROXY"}
#: later sections win: pip's install command reads [global], then [install], then PIP_* variables
SECTIONS = ("global", "install", ":env:")
TRUE = {"1", "true", "yes", "on"}


@dataclass
class UvCommand:
    """uv's flags and environment for one install, or why pip must do it."""

    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    unsupported: list[str] = field(default_factory=list)


def pip_config(python: str, env: dict[str, str] | None = None) -> dict[str, str]:
    """pip's merged configuration for `pip install`, as `pip config list` prints it (files and PIP_* variables)."""
    out = subprocess.run([python, "-m", "pip", "config", "list"], capture_output=True, text=True, check=True,
                         env={**(os.environ if env is None else env), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}).stdout
    by_section: dict[str, dict[str, str]] = {}
    for line in out.splitlines():
        # e.g. global.find-links='/opt/wheels' or :env:.cert='/etc/ssl/certs/ca.crt' (the value is a repr)
        match = re.fullmatch(r"(.*)\.([a-z0-9-]+)=(.*)", line.strip())
        if not match:
            continue
        section, name, value = match.groups()
        try:
            by_section.setdefault(section, {})[name] = str(ast.literal_eval(value))
        except (ValueError, SyntaxError):
            by_section.setdefault(section, {})[name] = value
    merged: dict[str, str] = {}
    for section in SECTIONS:
        merged.update(by_section.get(section, {}))
    return merged


def uv_command(config: dict[str, str]) -> UvCommand:
    """Translate pip's options into uv's; an option that would change what is installed and has no translation
    here is listed in `unsupported`, and the caller installs with pip."""
    command = UvCommand(args=["--index-strategy", "unsafe-best-match"])
    for name, value in config.items():
        if name in HARMLESS:
            continue
        if name in LIST_FLAGS:
            for item in value.split():
                command.args += [LIST_FLAGS[name], item]
        elif name == "index-url":
            command.args += ["--index-url", value]
        elif name == "no-index":
            if value.strip().lower() in TRUE:
                command.args.append("--no-index")
        elif name in ENV_VARS:
            command.env[ENV_VARS[name]] = value
        else:
            command.unsupported.append(name)
    return command


def requirements(extras: str, pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The project's requirement strings for these extras, following its own `name[extra,...]` references."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    optional = project.get("optional-dependencies", {})
    found = list(project.get("dependencies", []))
    todo, seen = [e.strip() for e in extras.split(",") if e.strip()], set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for requirement in optional.get(extra, []):
            own = re.fullmatch(rf"{re.escape(project['name'])}\[(.*)\]", requirement.strip())
            if own:
                todo += [e.strip() for e in own.group(1).split(",")]
            else:
                found.append(requirement)
    return found


def dist_name(requirement: str) -> str:
    """A requirement's distribution name, normalised (PEP 503)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return re.sub(r"[-_.]+", "-", match.group(1)).lower() if match else ""


def pip(python: str, *args: str) -> int:
    return subprocess.call([python, "-m", "pip", "install", "-q", "--no-compile", *args])


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python packaging/pip_install.py VENV_PYTHON EXTRAS", file=sys.stderr)
        return 2
    python, extras = argv
    target = f"{ROOT}[{extras}]"
    try:
        command = uv_command(pip_config(python))
    except (OSError, subprocess.CalledProcessError) as exc:  # a pip without `config`: it installs as before
        print(f"setup: pip's configuration could not be read ({exc}): installing with pip", file=sys.stderr)
        return pip(python, "-e", target)
    if command.unsupported:
        print(f"setup: pip is configured with {', '.join(command.unsupported)}, which this script does not pass "
              "on to uv: installing with pip", file=sys.stderr)
        return pip(python, "-e", target)
    # the source builds through pip's cache, without their extras (uv adds those below)
    built = [re.sub(r"\[.*?\]", "", r) for r in requirements(extras) if dist_name(r) in BUILT_FROM_SOURCE]
    if built and pip(python, *dict.fromkeys(built)) != 0:
        return 1
    uv = Path(python).parent / "uv"
    if not uv.exists() and pip(python, "uv") != 0:
        print("setup: uv could not be installed: installing with pip", file=sys.stderr)
        return pip(python, "-e", target)
    status = subprocess.call([str(uv), "pip", "install", "--quiet", "--python", python, *command.args,
                              "-e", target], env={**os.environ, **command.env})
    if status != 0:
        print("setup: uv failed (above): installing with pip", file=sys.stderr)
        return pip(python, "-e", target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
