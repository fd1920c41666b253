"""The command line's shared parts: one-line errors (exit 2), the time and duration grammar, checked --db and
output paths, the config read once per command, and progress on stderr. Every package's commands (`commands.py` in
each) use them, so they sit on the bottom floor, beside the home and the store they check.

Exit codes: 0 ok, 2 bad input (one line on stderr saying what is wrong), 1 internal error.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn

import click

from proactive.watcher.service import SetupError
from proactive.watcher.store import home
from proactive.watcher.store.database import Store, StoreError


class BadInput(click.ClickException):
    """Bad input from the user: exit code 2 and a one-line reason."""

    exit_code = 2


def fail(message: str) -> NoReturn:
    raise BadInput(message)


def parse_time(value: str, option: str) -> float:
    """A time for --since/--before: ISO 8601 date or date-time (local time when no offset is given), or a time ago
    in the duration grammar ("2h", "1d", "1h30m", "2 days": that long before now) -> epoch seconds."""
    ago = duration_seconds(value, bare=False)
    if ago is not None:
        return time.time() - _within(ago, value, option)
    try:
        return datetime.fromisoformat(value.strip()).timestamp()
    except ValueError:
        fail(f"{option}: bad time {value!r} (expected ISO 8601, e.g. 2026-11-22 or 2026-11-22T09:30, or a time "
             f"ago: 30m, 2h, 1d, 1w, 1h30m)")


# Our own grammar (a few lines) rather than a date-parsing library: one grammar for --for, --since and --before,
# and a clear error naming the option, which the libraries do not give.
UNITS = {**dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1),
         **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60),
         **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 3600),
         **dict.fromkeys(("d", "day", "days"), 86400),
         **dict.fromkeys(("w", "wk", "week", "weeks"), 7 * 86400)}


DURATION_PART = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*)", re.IGNORECASE)


def duration_seconds(value: str, bare: bool = True) -> float | None:
    """'15m', '1h30m', '2 days', '90s', '1w' (and, with `bare`, plain seconds: '90') in seconds; None when
    `value` is not a duration."""
    text, at, total = value.strip().lower(), 0, 0.0
    parts = 0
    while at < len(text):
        match = DURATION_PART.match(text, at)
        if not match:
            return None
        number, unit = float(match.group(1)), match.group(2)
        if unit not in UNITS and not (unit == "" and bare and parts == 0 and match.end() == len(text)):
            return None
        total += number * UNITS.get(unit, 1)
        parts += 1
        at = match.end()
        while at < len(text) and text[at] in " ,":
            at += 1
    return total if parts else None


#: The longest timed pause: beyond it the end is not a time a clock can show (a pause until resumed has no --for).
MAX_PAUSE_S = 366 * 86400


#: (the longest duration, how to say it) for each option taking one
LONGEST = {"--for": (MAX_PAUSE_S, "366d (without --for the pause lasts until `proactive resume`)"),
           "--since": (100 * 366 * 86400, "100 years"), "--before": (100 * 366 * 86400, "100 years")}


def _within(seconds: float, value: str, option: str) -> float:
    longest, said = LONGEST[option]
    if not 0 < seconds <= longest:
        fail(f"{option}: {value!r} must be more than 0 and at most {said}")
    return seconds


def parse_duration(value: str, option: str = "--for") -> float:
    """A duration in the grammar of `duration_seconds`, above 0 and at most the option's longest (`LONGEST`)."""
    seconds = duration_seconds(value)
    if seconds is None:
        fail(f"{option}: bad duration {value!r} (expected e.g. 15m, 1h, 90s, 1h30m, 2d)")
    return _within(seconds, value, option)


def iso_time(ts: float) -> str | None:
    """Epoch seconds as local ISO 8601, or None where no clock can show it (infinite: until resumed)."""
    try:
        return datetime.fromtimestamp(ts).astimezone().isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return None


def until_text(until: float) -> str:
    """How long a pause lasts, in words: "until resumed", "until 14:05:00", or with the date when not today. A
    pause file written by hand may hold a time no clock can show: that reads as a date far away, not a crash."""
    if math.isinf(until):
        return "until resumed"
    try:
        end = datetime.fromtimestamp(until)
    except (OverflowError, OSError, ValueError):
        return "until a time too far away to show (`proactive resume` ends it)"
    return "until " + end.strftime("%H:%M:%S" if end.date() == datetime.now().date() else "%Y-%m-%d %H:%M:%S")


class FiniteFloatRange(click.FloatRange):
    """click's FloatRange, which lets "nan" through (no comparison with nan is false), without it."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number in the range {self._describe_range()}.", param, ctx)
        return number


def require_subcommand(ctx: click.Context) -> None:
    """A group called alone says which subcommands it has, in one line (exit 2), instead of its help text."""
    if ctx.invoked_subcommand is None and not ctx.resilient_parsing:
        names = sorted(ctx.command.list_commands(ctx))  # type: ignore[attr-defined]
        path = " ".join(["proactive", *[c.info_name or "" for c in reversed(_parents(ctx))][1:]])
        fail(f"{path}: give a subcommand: {', '.join(names[:-1])} or {names[-1]}")


def _parents(ctx: click.Context) -> list[click.Context]:
    out = []
    node: click.Context | None = ctx
    while node is not None:
        out.append(node)
        node = node.parent
    return out


def check_db(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--db, checked before anything opens it: only a path that does not exist yet is created. An existing empty
    file or a non-regular one (a FIFO, a device) is refused rather than made into a database, and a symbolic
    link whose target folder is missing (an unmounted drive) is refused, never replaced."""
    import stat

    if value is None:
        return None
    path = Path(value)
    try:
        if path.is_symlink() and not path.exists() and not path.resolve().parent.is_dir():
            fail(f"--db: {value} is a link to {os.readlink(path)}, whose folder does not exist (a drive not "
                 "mounted?): mount it, or give another --db")
        st = path.stat() if path.exists() else None
    except OSError as exc:
        fail(f"--db: {value}: {exc.strerror or exc}")
    if st is not None and not stat.S_ISREG(st.st_mode):
        fail(f"--db: {value} is not a regular file (a FIFO, socket or device); give a database file")
    if st is not None and st.st_size == 0:
        fail(f"--db: {value} is empty, not a Proactive database; remove it, or give a new path (created) or an "
             "existing Proactive database")
    return value


def open_store(db: str | None, readonly: bool = False) -> Store:
    try:
        return Store(db, readonly=readonly)
    except StoreError as exc:
        fail(str(exc))


#: where a command's config is kept (read once per command), and the function that reads and checks it: the
#: entry point sets the whole app's check (`proactive.assistant.setup.load_config`: the schema and the model specs,
#: which the watcher cannot see); without one, the schema alone (`check_config`)
CONFIG_KEY, CHECK_KEY = "proactive.config", "proactive.check_config"


def check_config() -> home.Config:
    """config.toml checked against its schema: an unusable file is one line naming it and what would be valid."""
    try:
        return home.Config.load()
    except ValueError as exc:
        raise SetupError(str(exc)) from None


def load_config() -> home.Config:
    """config.toml as `watch` checks it (the check the entry point set, `CHECK_KEY`), once per command: an
    unusable file is one line naming it and what to fix (exit 2), never a hang (a FIFO is not opened)."""
    ctx = click.get_current_context(silent=True)
    meta: dict[str, Any] = ctx.find_root().meta if ctx is not None else {}
    if CONFIG_KEY not in meta:
        meta[CONFIG_KEY] = meta.get(CHECK_KEY, check_config)()
    return meta[CONFIG_KEY]


def reads_config(command: Callable[..., Any]) -> Callable[..., Any]:
    """For a command that reads config.toml (its settings, or the store, which reads `encryption`): the config is
    checked (`load_config`) once its options are parsed and before it does anything, so every such command refuses
    a bad config as `watch` does. Put it under `@click.command()`, above the options. Commands that read no setting
    (`pause`, `resume`, `key`, `models`...) do not check it: a broken config must not stop a pause; `doctor` reports
    the same line as a finding."""

    @functools.wraps(command)
    def checked(*args: Any, **kwargs: Any) -> Any:
        load_config()
        return command(*args, **kwargs)

    return checked


db_option = click.option("--db", "db", type=click.Path(dir_okay=False), default=None, callback=check_db,
                         help="Database file (default: proactive.db in the data folder; see `proactive status`).")


class FullHelpGroup(click.Group):
    """Lists each command with its whole first sentence, wrapped, where click cuts it at about 45 characters
    ("Label a recorded session (a ProactiveBench file, or our...")."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def out_file(option: str, value: str) -> Path:
    """An output file, checked before any work: its folder must exist and be writable, as for `cp`, `gcc -o` or
    `sqlite3` (output folders, by contrast, are created: `out_folder`)."""
    path = Path(value)
    with _said_as(option, value):
        if path.is_dir():
            fail(f"{option}: {value} is a folder; give a file name")
        if path.exists():  # overwritten in place (also /dev/stdout): the file itself must be writable
            if not os.access(path, os.W_OK):
                fail(f"{option}: {value}: not writable")
            return path
        if not path.parent.is_dir():
            fail(f"{option}: {value}: {path.parent} is a file, not a folder" if path.parent.exists()
                 else f"{option}: {value}: the folder {path.parent} does not exist (create it first)")
    return _writable_in(path.parent, option, value, path)


def out_folder(option: str, value: str) -> Path:
    """An output folder, checked before any work: created later (with its parents, like `mkdir -p`) unless
    something that is not a folder is in the way or the nearest existing folder is not writable."""
    path = existing = Path(value)
    with _said_as(option, value):
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir():
            fail(f"{option}: {value}: {existing} is a file, not a folder")
    return _writable_in(existing, option, value, path)


@contextlib.contextmanager
def _said_as(option: str, value: str) -> Iterator[None]:
    """An OSError while checking an output path (a permission on the way, a name too long) as one line."""
    try:
        yield
    except OSError as exc:
        fail(f"{option}: {value}: {exc.strerror or exc}")


def _writable_in(folder: Path, option: str, value: str, path: Path) -> Path:
    if not os.access(folder, os.W_OK | os.X_OK):
        fail(f"{option}: {value}: cannot write in the folder {folder}")
    return path


@contextlib.contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr when it is a terminal; otherwise (a log file, CI) a line at the start, at each
    tenth of the work and at the end, so a long run redirected to a file is not silent until it ends."""
    if not sys.stderr.isatty():
        done, said, started = 0, -1, time.monotonic()

        def say() -> None:
            nonlocal said
            tenth = done * 10 // total if total else 10
            if tenth != said:
                said = tenth
                click.echo(f"{label}: {done}/{total} ({tenth * 10}%, {time.monotonic() - started:.0f} s)", err=True)

        def advance() -> None:
            nonlocal done
            done += 1
            say()

        say()
        yield advance
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=total)
        yield lambda: progress.advance(task)
