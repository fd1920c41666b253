"""Errors of the toolchains and services developers meet beyond Python, pip, the shell and git.

Each ecosystem is a rule file, `rules/<name>.toml` (rules as data, see `rules.py`), asked in `ECOSYSTEMS`' order;
rules that depend on this machine name the facts they read (`facts.py`: the Debian package shipping a header, a
key file's mode, the docker group, the kube config, the JDKs installed). Adding an ecosystem is adding a file
and its name here; adding an error is adding a rule with its example messages (checked by
`tests/test_diagnose_ecosystems.py`).
"""

from __future__ import annotations

from . import Diagnosis, Situation, diagnoser, rules

#: the rule files, asked in this order (a message is rarely claimed by two: the most specific first)
#: (Ruby's before the databases': Rails says which of its commands fixes the database error it wraps)
ECOSYSTEMS: tuple[str, ...] = ("rust", "go", "java", "node", "ruby", "network", "docker", "kubernetes", "databases",
                               "ssh", "tls", "c_builds", "systemd", "data_formats", "shell_scripts")


@diagnoser
def ecosystem_rules(situation: Situation) -> Diagnosis | None:
    """The first rule of any ecosystem that matches the error."""
    for name in ECOSYSTEMS:
        found = rules.match(name, situation)
        if found is not None:
            return found
    return None


def warm() -> None:
    """Read and check every rule file now (not at the first error)."""
    for name in ECOSYSTEMS:
        rules.load(name)
