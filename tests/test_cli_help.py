"""Every command says what it does and every option has help text (`proactive CMD --help` is the manual)."""

from __future__ import annotations

import click

from proactive.assistant.cli import cli


def commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append(((*path, name), command))
        if isinstance(command, click.Group):
            found += commands(command, (*path, name))
    return found


def test_every_command_and_option_has_help():
    missing = []
    for path, command in commands(cli):
        if not (command.help or "").strip():
            missing.append(" ".join(path))
        for param in command.params:
            if isinstance(param, click.Option) and not (param.help or "").strip():
                missing.append(f"{' '.join(path)} {'/'.join(param.opts)}")
    assert len(commands(cli)) > 10
    assert missing == []
