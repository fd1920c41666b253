"""Package managers and builds: pip's PEP 668 refusal, npm's ERESOLVE, a missing compiler, header or build tool.

The knowledge is data (`rules/packages.toml`: a message pattern, the apt package or command it calls for, and
real example messages); this module fills in what the situation shows, such as the package the person tried to
install (from the command line, `pip install NAME`), so the suggested command is the one to run, and facts the
message alone does not give: the distribution's real name for an import name pip cannot find (the table of
rules/python_modules.toml), the scripts a project's package.json has for npm's missing script.
"""

from __future__ import annotations

import difflib
import json
import re
import shlex
from dataclasses import replace
from pathlib import Path

from . import Diagnosis, Situation, Step, diagnoser, rules
from .local_docs import is_stdlib
from .python_imports import providers

_PIP_INSTALL = re.compile(r"\bpip3?(?:\.\d+)?\s+install\s+(?P<args>.+)")


def requested_packages(command: str | None) -> list[str]:
    """The requirement names in a `pip install ...` command line (options and their values left out)."""
    if not command:
        return []
    match = _PIP_INSTALL.search(command)
    if match is None:
        return []
    try:
        words = shlex.split(match["args"])
    except ValueError:
        words = match["args"].split()
    names, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        if word in ("-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url", "-t",
                    "--target", "--prefix", "-f", "--find-links"):
            skip = True
            continue
        if word.startswith("-") or word in ("&&", "||", ";", "|"):
            if word in ("&&", "||", ";", "|"):
                break
            continue
        names.append(word)
    return names


def _leading_name(text: str) -> str:
    """The name `text` starts with (letters, digits, `_.-`), perhaps empty."""
    found = re.match(r"[\w.-]*", text)
    return found[0] if found else ""


def pip_name(requested: str) -> str | None:
    """The distribution pip knows when `requested` is an import name or a short form of it (rules/
    python_modules.toml: sklearn -> scikit-learn, PIL -> Pillow; opencv -> opencv-python, beautifulsoup ->
    beautifulsoup4 when exactly one known distribution starts so), else None."""
    name = _leading_name(requested)
    if len(name) < 2 or name.lower() in ("python", "py"):
        return None
    table = {module: p for module, p in providers().items() if p.pypi and not p.note}
    for module, provider in table.items():
        if module.lower() == name.lower() and provider.pypi.lower() != name.lower():
            return provider.pypi
    longer = {p.pypi for p in table.values() if re.fullmatch(rf"{re.escape(name)}(?:[-_.]\w[\w.-]*|\d+)", p.pypi, re.I)}
    return longer.pop() if len(longer) == 1 else None


def _no_matching_distribution(found: Diagnosis) -> Diagnosis:
    """pip found nothing for a name: the distribution's real name when the name is an import name, or that a
    standard module needs no install."""
    requested = found.details.get("package", "")
    name = _leading_name(requested)
    provider = providers().get(name)
    if provider is not None and not provider.pypi and provider.debian:  # tkinter: shipped apart by Debian
        step = Step(f"'{name}' is part of Python, not a pip package; Debian and Ubuntu ship it as "
                    f"{provider.debian}.", f"sudo apt install {provider.debian}")
        offer = f"the apt command for '{name}' ({provider.debian}), which pip cannot install"
    elif is_stdlib(name):
        step = Step(f"'{name}' is part of Python's standard library: there is nothing to install, import it.")
        offer = f"why '{name}' needs no install (it comes with Python)"
    else:
        right = pip_name(requested)
        if right is None:
            return found
        step = Step(f"The package is called {right} on PyPI ('{name}' is its import name or a short form).",
                    f"python3 -m pip install {shlex.quote(right)}")
        offer = f"the right package name: pip install {right} (for '{name}')"
    return replace(found, steps=(step, *found.steps), offer=offer)


def package_scripts(folder: str | None) -> dict[str, str]:
    """The "scripts" of package.json in `folder` ({} when there is none or it cannot be read)."""
    if not folder:
        return {}
    try:
        scripts = json.loads(Path(folder, "package.json").read_text(encoding="utf-8")).get("scripts", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return {k: str(v) for k, v in scripts.items()} if isinstance(scripts, dict) else {}


def _missing_script(found: Diagnosis, situation: Situation) -> Diagnosis:
    """npm's missing script, with the scripts the project's package.json really has (the closest first)."""
    scripts = package_scripts(situation.cwd)
    if not scripts:
        return found
    wanted = found.details.get("script", "")
    close = difflib.get_close_matches(wanted, list(scripts), n=1, cutoff=0.6)
    # what people mean by a missing start: the dev server, when the project has one
    best = close[0] if close else next((s for s in ("dev", "serve", "develop") if s in scripts and wanted == "start"),
                                       None)
    listed = ", ".join(f'"{k}"' for k in scripts)
    steps = [Step(f"package.json in {situation.cwd} has the scripts {listed}.")]
    if best:
        steps.insert(0, Step(f'Did you mean "{best}" ({scripts[best]})?', f"npm run {best}"))
    return replace(found, steps=(*steps, *found.steps),
                   offer=f'the scripts package.json has ({listed})' + (f": npm run {best}" if best else ""))


@diagnoser
def package_manager(situation: Situation) -> Diagnosis | None:
    """The first rule of rules/packages.toml that matches, with the requested package filled in."""
    found = rules.match("packages", situation)
    if found is None:
        return None
    requested = requested_packages(situation.command)
    package = " ".join(shlex.quote(p) for p in requested) if requested else None

    def fill(text: str | None) -> str | None:
        if text is None or "{package}" not in text:
            return text
        return text.replace("{package}", package or "PACKAGE")

    steps = tuple(Step(fill(s.text) or s.text, fill(s.command)) for s in found.steps)
    details = dict(found.details)
    if package:
        details["package"] = package
    else:  # no package named: say what to put in place of PACKAGE
        steps = (*steps[:1], Step("Put the package you were installing in place of PACKAGE."), *steps[1:]) \
            if any(s.command and "PACKAGE" in s.command for s in steps) else steps
    if found.rule == "pip.no_matching_distribution":
        found = _no_matching_distribution(found)
        steps = found.steps
    if found.rule == "npm.missing_script":
        found = _missing_script(found, situation)
        steps = found.steps
    offer = found.offer
    if package and found.rule == "pip.externally_managed":
        offer = f"the commands to install {package} into a virtual environment instead (or with pipx)"
    return replace(found, steps=steps, offer=offer, details=details)
