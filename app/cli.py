"""The `proactive` command line: the root group, the commands that start the whole app (`run`, `tray`), and
each package's own commands added by its `register` (watcher, assistant, eval, ui). Nothing imports this module:
it is the entry point.

Exit codes: 0 ok, 2 bad input (one line on stderr saying what is wrong), 1 internal error.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from proactive.app import runtime
from proactive.assistant import commands as assistant_commands, setup
from proactive.eval import commands as eval_commands
from proactive.ui import commands as ui_commands
from proactive.watcher import commands as watcher_commands
from proactive.watcher.command_line import (
    CHECK_KEY,
    FullHelpGroup,
    db_option,
    reads_config,
    require_subcommand,
)
from proactive.watcher.service import SetupError
from proactive.watcher.store import home
from proactive.watcher.store.database import StoreError


@click.group(cls=FullHelpGroup, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True, no_args_is_help=False)
@click.version_option(package_name="proactive-assistant")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """A local, private, proactive desktop assistant."""
    require_subcommand(ctx)
    home.private_files()
    ctx.meta[CHECK_KEY] = setup.load_config  # the schema and, above the watcher, the model specs


run_model_option = click.option("--model", "model_spec", default=None,
                                help="default, a GGUF path, or openai:BASE_URL#MODEL (default: the config's).")


def run_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options `run` and `tray` share."""
    for option in reversed([
        db_option,
        run_model_option,
        click.option("--rm", "rm_spec", default=None,
                     help="Reward model for the gate: default (shipped), signals, llm:MODEL, or a trained file "
                          "(default: the config's)."),
        click.option("--k", type=click.IntRange(1, 3), default=1, show_default=True,
                     help="Candidate tasks per moment."),
        click.option("--proactivity", help="low, medium, high, or a number in [0, 1] (default: config, medium)."),
        click.option("--no-aw", is_flag=True, help="Do not talk to a local ActivityWatch server."),
        click.option("-v", "--verbose", is_flag=True, help="Debug logging on stderr."),
    ]):
        command = option(command)
    return command


@cli.command()
@reads_config
@run_options
@click.option("--headless", is_flag=True, help="No tray app: print each proposal as one JSON line on stdout.")
def run(db: str | None, model_spec: str | None, rm_spec: str | None, headless: bool, k: int,
        proactivity: str | None, no_aw: bool, verbose: bool) -> None:
    """Watcher + assistant (+ the tray app unless --headless): propose help at the right moments, or stay
    silent."""
    runtime.run(db, model_spec, rm_spec, headless, k, proactivity, no_aw, verbose)


@cli.command()
@reads_config
@run_options
def tray(db: str | None, model_spec: str | None, rm_spec: str | None, k: int, proactivity: str | None,
         no_aw: bool, verbose: bool) -> None:
    """The tray app with the watcher and the assistant (the same as `proactive run`)."""
    runtime.run(db, model_spec, rm_spec, False, k, proactivity, no_aw, verbose)


for package in (watcher_commands, assistant_commands, eval_commands, ui_commands):
    package.register(cli)


def main() -> None:
    """Entry point: click's own usage errors also exit 2, with one line instead of the usage text."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except click.UsageError as exc:  # click spreads some (a missing choice) over lines: one line here
        click.echo(f"proactive: error: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"proactive: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except SetupError as exc:  # a config value, a model, a lock: the line says what to fix
        click.echo(f"proactive: error: {exc}", err=True)
        sys.exit(2)
    except StoreError as exc:  # locked, read-only, full or foreign database: the line says what to do
        click.echo(f"proactive: error: {exc}", err=True)
        sys.exit(2)
    except OSError as exc:  # a read-only or full home, a missing folder: name the file and the reason
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"proactive: error: {where}{exc.strerror or exc}", err=True)
        sys.exit(2)
    except Exception as exc:
        # a part of the install this command needs is missing (pyproject.toml's extras): one line naming it.
        # Imported here, not at the top, so `proactive --help` stays quick (it is loaded if it was raised).
        from proactive.models.extras import MissingExtra

        if not isinstance(exc, MissingExtra):
            raise
        click.echo(f"proactive: error: {exc}", err=True)
        sys.exit(2)
    sys.exit(0)


if __name__ == "__main__":
    main()
