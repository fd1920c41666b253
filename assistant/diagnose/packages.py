"""Package managers and builds: pip's PEP 668 refusal, npm's ERESOLVE, a missing compiler, header or build tool.

The knowledge is data (`rules/packages.toml`: a message pattern, the apt package or command it calls for, and
real example messages); this module fills in what the situation shows, such as the package the person tried to
install (from the command line, `pip install NAME`), so the suggested command is the one to run.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace

from . import Diagnosis, Situation, Step, diagnoser, rules

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
    offer = found.offer
    if package and found.rule == "pip.externally_managed":
        offer = f"the commands to install {package} into a virtual environment instead (or with pipx)"
    return replace(found, steps=steps, offer=offer, details=details)
