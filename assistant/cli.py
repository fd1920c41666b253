"""The `proactive` command line (its commands are listed in README.md).

Exit codes: 0 ok, 2 bad input (one line on stderr saying what is wrong), 1 internal error.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import re
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn

import click

from proactive.watcher import control, home
from proactive.watcher.store import Store, StoreError
from proactive.watcher.wording import plural

from . import runtime


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
    import os
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


CONFIG_KEY = "proactive.config"


def load_config() -> home.Config:
    """config.toml as `watch` checks it (`runtime.load_config`: the schema and the model specs), once per command:
    an unusable file is one line naming it and what to fix (exit 2), never a hang (a FIFO is not opened)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return runtime.load_config()
    meta = ctx.find_root().meta
    if CONFIG_KEY not in meta:
        meta[CONFIG_KEY] = runtime.load_config()
    return meta[CONFIG_KEY]


def reads_config(command: Callable[..., Any]) -> Callable[..., Any]:
    """For a command that reads config.toml (its settings, or the store, which reads `encryption`): the config is
    checked (`load_config`) once its options are parsed and before it does anything, so every such command refuses
    a bad config as `watch` does. Put it under `@cli.command()`, above the options. Commands that read no setting
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


@click.group(cls=FullHelpGroup, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True, no_args_is_help=False)
@click.version_option(package_name="proactive-assistant")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """A local, private, proactive desktop assistant."""
    require_subcommand(ctx)
    home.private_files()


@cli.command()
@reads_config
@db_option
@click.option("--no-aw", is_flag=True, help="Do not talk to a local ActivityWatch server.")
@click.option("-v", "--verbose", is_flag=True, help="Debug logging on stderr.")
def watch(db: str | None, no_aw: bool, verbose: bool) -> None:
    """Capture activity until SIGINT/SIGTERM, then flush and exit 0.

    SIGUSR1 pauses capture, SIGUSR2 resumes it (or use `proactive pause` / `proactive resume`)."""
    runtime.watch(db, no_aw, verbose)


def load_predictor(spec: str, option: str = "--model") -> Any:
    """The model named by an option, through the one registry (exit 2 with one line when unusable)."""
    return runtime.load_model(spec, option)


def load_scorer(spec: str, option: str = "--rm") -> Any:
    """The reward model named by an option, through the one registry (exit 2 with one line when unusable)."""
    return runtime.load_reward(spec, option)


model_option = click.option("--model", "model_spec", default="default", show_default=True,
                            help="default, a GGUF path, or openai:BASE_URL#MODEL.")
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


@cli.command()
@click.argument("session", type=click.Path(dir_okay=False))
@model_option
@click.option("--k", type=click.IntRange(1, 3), default=1, show_default=True, help="Candidate tasks per turn.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per turn.")
def predict(session: str, model_spec: str, k: int, as_json: bool) -> None:
    """Run the agent over a recorded ProactiveBench-format session: at turn i it sees observations 0..i."""
    from proactive.assistant.agent import Agent
    from proactive.eval.sessions import SessionError, load_session

    try:
        observations = load_session(session)
    except SessionError as exc:
        fail(str(exc))
    agent = Agent(load_predictor(model_spec), k=k)
    proposals = failures = 0
    with progress_bar(len(observations), "predicting") as advance:
        for i, obs in enumerate(observations):
            prediction = agent.predict(observations[: i + 1])
            proposals += bool(prediction.candidates)
            failures += len(prediction.errors)
            if as_json:
                click.echo(json.dumps({"time": obs["time"], "event": obs["event"], **prediction.to_json()},
                                      ensure_ascii=False))
            else:
                click.echo(f"[{i + 1}] {obs['event']}")
                click.echo("    -> " + (" | ".join(prediction.candidates) if prediction.candidates else "(silent)"))
            advance()
    click.echo(f"{len(observations)} turns, {proposals} with a proposal, {failures} failed generations", err=True)


@cli.command()
@reads_config
@db_option
@click.argument("proposal_id", type=int)
@click.argument("decision", type=click.Choice(["accepted", "rejected", "ignored", "snoozed"]))
@click.option("--no-help", "no_help", is_flag=True, help="Accept without doing the task (no search, no recall).")
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"proposal","decision","task","result"} (result: what accepting did, or null).')
def decide(db: str | None, proposal_id: int, decision: str, no_help: bool, as_json: bool) -> None:
    """Record your decision on a proposal (headless use); the running assistant learns from it at once.
    Accepting does the task as the tray does (a web search, your earlier encounters with the same thing) and
    prints what was done."""
    from proactive.assistant.feedback import FINAL
    from proactive.assistant.help import do_task
    from proactive.assistant.live import offer_context
    from proactive.assistant.material import live_source
    from proactive.assistant.pages import PageReader

    if not -(2 ** 63) <= proposal_id < 2 ** 63:  # beyond SQLite's integers: no row can have it
        fail(f"no proposal {proposal_id}")
    config = load_config()  # an invalid config stops every command that writes the store, before it is opened
    store = open_store(db)
    try:
        proposal = store.proposal(proposal_id)
        if proposal is None:
            fail(f"no proposal {proposal_id}")
        task = proposal["task"]
        if task is None:
            fail(f"no proposal {proposal_id} with a task (it was a silent turn)")
        if proposal["decision"] in FINAL:
            fail(f"proposal {proposal_id} was already {proposal['decision']}: a decision is final (only a snoozed "
                 "proposal can be decided again)")
        result = None
        if decision == "accepted" and not no_help:
            action = proposal["data"].get("actions", {}).get(task)
            from proactive.assistant import answers

            answerer = answers.load(config.answer_model)  # the answers model the person chose, if any
            context = offer_context(store, proposal)  # the offer's own moment, not what is on screen now
            reader = PageReader(config.web_search, tuple(config.never_fetch), config.search_engine)
            try:
                result = do_task(answerer, context, task, action, store.path, config.web_search,
                                 material=live_source(context, reader))
            finally:
                if answerer is not None:
                    answerer.close()
        store.add_decision(proposal_id, decision, latency_s=time.time() - proposal["ts"],
                           result=None if result is None else json.dumps(result.record(), ensure_ascii=False))
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps({"proposal": proposal_id, "decision": decision, "task": task,
                               "result": None if result is None else result.to_json()}, ensure_ascii=False))
        return
    click.echo(f"proposal {proposal_id}: {decision}")
    if result is not None:
        click.echo(result.text)


def out_file(option: str, value: str) -> Path:
    """An output file, checked before any work: its folder must exist and be writable, as for `cp`, `gcc -o` or
    `sqlite3` (output folders, by contrast, are created: `out_folder`)."""
    import os

    path = Path(value)
    folder = path.parent
    try:
        if path.is_dir():
            fail(f"{option}: {value} is a folder; give a file name")
        if path.exists():  # overwritten in place (also /dev/stdout): the file itself must be writable
            if not os.access(path, os.W_OK):
                fail(f"{option}: {value}: not writable")
            return path
        if folder.exists() and not folder.is_dir():
            fail(f"{option}: {value}: {folder} is a file, not a folder")
        if not folder.is_dir():
            fail(f"{option}: {value}: the folder {folder} does not exist (create it first)")
    except OSError as exc:
        fail(f"{option}: {value}: {exc.strerror or exc}")
    if not os.access(folder, os.W_OK | os.X_OK):
        fail(f"{option}: {value}: cannot write in the folder {folder}")
    return path


def out_folder(option: str, value: str) -> Path:
    """An output folder, checked before any work: created later (with its parents, like `mkdir -p`) unless
    something that is not a folder is in the way or the nearest existing folder is not writable."""
    import os

    path = Path(value)
    existing = path
    try:
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir():
            fail(f"{option}: {value}: {existing} is a file, not a folder")
    except OSError as exc:
        fail(f"{option}: {value}: {exc.strerror or exc}")
    if not os.access(existing, os.W_OK | os.X_OK):
        fail(f"{option}: {value}: cannot write in the folder {existing}")
    return path


def read_rows(paths: tuple[str, ...] | list[str]) -> list[dict[str, Any]]:
    from proactive.models.reward_data import read_reward_rows

    try:
        rows = read_reward_rows([Path(p) for p in paths])
    except (ValueError, OSError) as exc:
        fail(str(exc))
    if not rows:
        fail(f"{', '.join(paths)}: no rows")
    return rows


@cli.group("reward", cls=FullHelpGroup, invoke_without_command=True, no_args_is_help=False)
@click.pass_context
def reward(ctx: click.Context) -> None:
    """Train and assess reward models (what the user would accept)."""
    require_subcommand(ctx)


@reward.command("train")
@click.option("--data", "data", multiple=True, type=click.Path(dir_okay=False),
              help="Reward-format JSONL file(s): the shared labels, exports of your own decisions. Several: "
                   "--data a.jsonl b.jsonl (or --data a.jsonl --data b.jsonl).")
@click.argument("more", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="Where to write the model.")
@click.option("--seed", type=click.IntRange(0, 2 ** 32 - 1), default=0, show_default=True,
              help="Random seed (0 to 2^32-1).")
@click.option("--json", "as_json", is_flag=True, help="Print the training report as JSON.")
def rm_train(data: tuple[str, ...], more: tuple[str, ...], out: str, seed: int, as_json: bool) -> None:
    """Train the CPU reward model and the gate's need model (one file) from reward-format JSONL files (after
    --data, or given alone); the same data and seed give the same file."""
    from proactive.assistant.need_training import train_artefact

    data = (*data, *more)
    if not data:
        fail("reward train: give the labelled data: --data REWARD.jsonl [MORE.jsonl...]")
    out_path = out_file("--out", out)
    rows = read_rows(data)
    model = train_artefact(rows, seed=seed)
    try:
        model.save(out_path)
    except OSError as exc:
        fail(f"--out: {out}: cannot write ({exc.strerror or exc})")
    summary = {"rows": len(rows), "out": out}
    click.echo(json.dumps(summary) if as_json else f"trained on {plural(len(rows), 'row')} -> {out}")


@reward.command("eval")
@click.option("--data", "data", required=True, type=click.Path(dir_okay=False),
              help="Labelled reward-format JSONL rows to compare with.")
@click.option("--rm", "rm_spec", default="default", show_default=True,
              help="Reward model to assess: default, signals, llm:MODEL, or a trained file.")
@click.option("--out", "out", type=click.Path(file_okay=False), help="Also save reliability.png here.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def rm_eval(data: str, rm_spec: str, out: str | None, as_json: bool) -> None:
    """Agreement of a reward model with human labels (accuracy, precision, recall, F1, per category) and the
    calibration of its P(need) and P(accept): the gate thresholds these probabilities directly."""
    from proactive.eval.assessment import assess
    from proactive.eval.report import assessment_lines

    if out:
        out_folder("--out", out)
    rows = read_rows([data])
    result = assess(load_scorer(rm_spec), rows, progress_bar, Path(out) if out else None)
    if as_json:
        click.echo(json.dumps({k: result[k] for k in ("n", "accuracy", "precision", "recall", "f1", "agreement",
                                                      "seconds_per_item", "failures", "rm", "calibration")}))
        return
    for line in assessment_lines(result, data):
        click.echo(line)
    if out:
        click.echo(f"reliability plot: {result['calibration']['plot']}")


#: `proactive rm ...`, the earlier name (it read as "remove"): still works, not listed in --help
cli.add_command(FullHelpGroup("rm", commands=reward.commands, callback=reward.callback, hidden=True,
                                help=reward.help, invoke_without_command=True, no_args_is_help=False))


@cli.command()
@reads_config
@click.argument("sessions", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--labels", type=click.Path(dir_okay=False), help="Reward-format labels: need detection vs humans.")
@model_option
@click.option("--rm", "rm_spec", default="default", show_default=True, help="Reward model of the gate.")
@click.option("--no-gate", is_flag=True, help="Judge the agent's raw first candidate (the paper's setting).")
@click.option("--judge", "judge_spec", default="default", show_default=True,
              help="Who judges: default (shipped reward model), signals, llm:MODEL, or a file.")
@click.option("--k", type=click.IntRange(1, 3), default=1, show_default=True,
              help="Candidate tasks per turn (pred@k).")
@click.option("--proactivity", help="Gate threshold level (default: config, medium).")
@click.option("--baselines", type=click.Path(file_okay=False, exists=True),
              help="Archived traces: DIR/<model>/<session>.json (e.g. an earlier run's OUT/traces).")
@click.option("--out", type=click.Path(file_okay=False),
              help="Write report.md, plots, turns.jsonl and traces/<agent>/<session>.json here.")
@click.option("--cache", "cache_path", type=click.Path(dir_okay=False),
              help="Cache of model calls (default: replay.db in the cache folder).")
@click.option("--parallel", type=click.IntRange(1, 256), default=4, show_default=True,
              help="Generations in flight at once against a server (--model openai:...); 1 = one at a time. "
                   "The results are the same; the built-in and GGUF models always run one at a time.")
@click.option("--accept", is_flag=True,
              help="Accept every shown offer and write what the help produced to OUT/help.jsonl (needs --out); a "
                   "web search is recorded as its URL, no browser is opened and nothing is sent.")
@click.option("--fetch", is_flag=True,
              help="With --accept, read the pages page offers are about (network: config.toml's search_engine "
                   "and the result pages it links to; never sites in never_fetch). Off by default: page help then "
                   "says it read nothing.")
@click.option("--as-live", is_flag=True,
              help="The live trigger's timing as well, on the events' own clock: the assistant runs as each event "
                   "closes an episode, never within the proactivity level's minimum interval after an offer shown "
                   "(default: every turn, the paper's protocol). Not with --no-gate.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def replay(sessions: tuple[str, ...], labels: str | None, model_spec: str, rm_spec: str, no_gate: bool,
           judge_spec: str, k: int, proactivity: str | None, baselines: str | None, out: str | None,
           cache_path: str | None, parallel: int, accept: bool, fetch: bool, as_live: bool, as_json: bool) -> None:
    """Replay recorded sessions through agent + gate, judge every prediction, report the metrics.

    Need first, as live: at a turn where the gate's P(need) is below the threshold nothing is generated. An offer
    shown and not answered counts as ignored, as live: the feedback memory holds it back for a while."""
    import sqlite3

    from proactive.eval import harness
    from proactive.eval.metrics import need_labels
    from proactive.eval.replay import Cache, CacheError, Judge, Replayer, cached_gate, find_baselines
    from proactive.eval.sessions import SessionError, load_session
    from proactive.models.base import ModelError

    # every input and output is checked before any work: a bad trace or a missing folder found after an hour of
    # replaying would lose the hour
    paths = [Path(s) for s in sessions]
    if accept and not out:
        fail("--accept writes OUT/help.jsonl: give --out DIR")
    if fetch and not accept:
        fail("--fetch reads pages when accepting offers: give --accept too")
    if as_live and no_gate:
        fail("--as-live: the live timing needs the gate (it holds offers back after one is shown); drop --no-gate")
    out_path = out_folder("--out", out) if out else None
    if cache_path:
        out_file("--cache", cache_path)
    try:
        observed = {p: load_session(p) for p in paths}
        found = find_baselines(Path(baselines), paths) if baselines else None
    except SessionError as exc:
        fail(str(exc))
    for name, reason in (found.failed if found else {}).items():  # said now, and in the report's notes
        click.echo(f"proactive: warning: baseline {name} left out: {reason}", err=True)
    total = sum(len(observed[p]) for p in paths)
    label_map = None
    if labels:
        label_map = need_labels(read_rows([labels]))
        times = {str(o["time"]).strip() for observations in observed.values() for o in observations}
        if not times & set(label_map):
            fail(f"{labels}: the labels match no event of the given sessions (contexts are matched by the "
                 "time of their last observation)")
    config = load_config()
    try:
        cache = Cache(Path(cache_path) if cache_path else home.cache_dir() / "replay.db")
    except CacheError as exc:
        fail(f"--cache: {exc}")
    except (sqlite3.Error, OSError) as exc:
        fail(f"--cache: {cache_path or home.cache_dir() / 'replay.db'}: not a usable cache database ({exc})")
    gate = None if no_gate else cached_gate(load_scorer(rm_spec), runtime.proactivity(proactivity, config), cache)
    judge = Judge(load_scorer(judge_spec, "--judge"), cache)
    try:
        replayer = Replayer(model_spec, load_predictor, k, gate, judge, cache, parallel=parallel, as_live=as_live)
    except (ModelError, OSError) as exc:
        fail(f"--model: {model_spec}: {exc}")
    result = harness.run(paths, total, replayer, gate, judge, cache, model_spec, rm_spec, judge_spec, found,
                         label_map, progress_bar, command=shlex.join(["proactive", *sys.argv[1:]]),
                         labels_path=Path(labels) if labels else None)
    if out_path is not None:
        try:
            harness.write(result, out_path, label_map)
            if accept:
                try:
                    model = replayer.model()
                except (ModelError, OSError) as exc:
                    fail(f"--model: {model_spec}: {exc}")
                from proactive.assistant.pages import PageReader

                reader = PageReader("on", tuple(config.never_fetch), config.search_engine) if fetch else None
                written = harness.accept_all(result.turns, paths, model, out_path, progress_bar, reader=reader)
                result.notes.append(f"help: {written}")
        except OSError as exc:
            fail(f"--out: {out}: cannot write ({exc.strerror or exc}); the model calls are cached, so a rerun "
                 "is quick")
    if as_json:
        click.echo(json.dumps(result.summary))
        return
    from proactive.eval.report import need_rows, summary_rows

    need = [*need_rows(result.results), ""] if labels else []  # the headline first: no judge involved
    for line in [*result.notes, "", *need, *summary_rows(result.results, result.ours)]:
        click.echo(line)


@cli.command()
@reads_config
@db_option
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="Reward-format JSONL file.")
@click.option("--ignored", type=click.Choice(["skip", "rejected"]), default="skip", show_default=True,
              help="What an ignored proposal means: not a judgement (skip), or a rejection.")
@click.option("--context", "n_context", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="Episodes before each proposal (1 to 1000).")
@click.option("--json", "as_json", is_flag=True, help='One JSON object: {"out","rows","ignored"}.')
def export(db: str | None, out: str, ignored: str, n_context: int, as_json: bool) -> None:
    """Your decisions on proposals, in reward format, for `proactive reward train`.

    accepted -> valid task (CD); rejected -> invalid task (FA); ignored -> skipped by default (you may not have
    seen it), or a rejection with --ignored rejected; snoozed -> skipped (not a judgement of the task)."""
    from proactive.eval.export import export_decisions

    out_path = out_file("--out", out)
    store = open_store(db, readonly=True)
    try:
        n = export_decisions(store, out_path, treat_ignored_as=ignored, n_context=n_context)
    except OSError as exc:
        fail(f"--out: {out}: cannot write ({exc.strerror or exc})")
    finally:
        store.close()
    click.echo(json.dumps({"out": out, "rows": n, "ignored": ignored}) if as_json
               else f"exported {plural(n, 'row')} -> {out}")


@cli.command()
@reads_config
@click.argument("session", required=False, type=click.Path(dir_okay=False))
@db_option
@click.option("--annotator", default="", help="Your name, as it goes into the labels.")
@click.option("--model", "model_spec", default="default", show_default=True,
              help="The model behind 'Ask the agent': default, a GGUF path, openai:BASE_URL#MODEL, or none.")
def annotate(session: str | None, db: str | None, annotator: str, model_spec: str) -> None:
    """Label a recorded session (a ProactiveBench file, or our database when no file is given) and export it
    in reward format for `proactive reward train`."""
    from PySide6.QtWidgets import QApplication

    from proactive.eval.annotation import load_candidates, load_database, load_observations
    from proactive.eval.sessions import SessionError
    from proactive.models.registry import model_problem
    from proactive.ui.annotate import AnnotationWindow

    problem = None if model_spec == "none" else model_problem(model_spec)
    if problem:  # checked before the window opens (the model itself loads at the first question)
        fail(f"--model: {problem}")
    try:
        if session:
            observations, candidates = load_observations(session), load_candidates(session)
        else:
            observations, candidates = load_database(db or home.db_path())
    except SessionError as exc:
        fail(str(exc))
    app = QApplication.instance() or QApplication(["proactive"])
    window = AnnotationWindow(observations, annotator=annotator, candidates=candidates,
                              session_name=Path(session).name if session else "database",
                              suggest=None if model_spec == "none" else agent_suggestions(model_spec))
    window.show()
    app.exec()


def agent_suggestions(model_spec: str) -> Callable[[list[dict[str, str]]], list[str]]:
    """The agent's candidate tasks (k=3) for annotators; the model loads at the first question, not at start."""
    from proactive.assistant.agent import Agent
    from proactive.models.registry import load_model

    agent: list[Agent] = []

    def suggest(observations: list[dict[str, str]]) -> list[str]:
        if not agent:  # a missing or corrupt model raises ModelError: the window shows it
            agent.append(Agent(load_model(model_spec), k=3))
        return agent[0].predict(observations[-30:]).candidates

    return suggest


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


@cli.command()
@reads_config
@db_option
@click.option("--since", help="Only episodes ending at or after this time: ISO 8601 (2026-11-22T09:30) or a time "
                              "ago (2h, 30m, 1d, 1w).")
@click.option("-n", "last", type=click.IntRange(1), help="Only the last N episodes.")
@click.option("--json", "as_json", is_flag=True, help='One JSON object per line: {"time","event","app","title"}.')
def episodes(db: str | None, since: str | None, last: int | None, as_json: bool) -> None:
    """Print captured episodes, oldest first, one per line."""
    from proactive.watcher.episodes import unstored_episodes

    since_ts = parse_time(since, "--since") if since is not None else None
    path = Path(db or home.db_path())
    if not path.exists() and not path.is_symlink():  # a new home: no episodes yet, which is no error
        click.echo(f"no episodes yet: nothing captured in {path} (start with `proactive run`)", err=True)
        return
    store = open_store(db, readonly=True)
    try:
        rows = store.episodes(since_ts)
        # the episode still open (watcher running, or killed) is built from the raw events after the last one
        rows += [e.row() for e in unstored_episodes(store) if since_ts is None or e.end >= since_ts]
    except StoreError as exc:
        fail(str(exc))
    except Exception as exc:  # sqlite3.DatabaseError and friends: an old or damaged database
        fail(f"{store.path}: cannot read episodes ({exc})")
    finally:
        store.close()
    for row in rows[-last:] if last else rows:
        if as_json:
            click.echo(json.dumps({"time": f"{row['start']:.3f}", "event": row["event"], "app": row["app"],
                                   "title": row["title"]}, ensure_ascii=False))
        else:
            stamp = datetime.fromtimestamp(row["start"]).strftime("%Y-%m-%d %H:%M:%S")
            click.echo(f"{stamp}  {row['event']}")


@cli.command()
@reads_config
@db_option
@click.option("--before", help="Delete everything captured before this time: ISO 8601 (2026-11-22T09:30) or a "
                               "time ago (2h, 30m, 1d, 1w).")
@click.option("--all", "everything", is_flag=True, help="Delete everything, and the logs.")
@click.option("-y", "--yes", is_flag=True, help="Do not ask for confirmation (--all).")
@click.option("--wait", type=FiniteFloatRange(0.1, 3600), default=60, show_default=True,
              help="Seconds to wait for a running watcher to apply the purge, and for programs reading the "
                   "database to finish.")
def purge(db: str | None, before: str | None, everything: bool, yes: bool, wait: float) -> None:
    """Delete captured data everywhere: the database (bytes overwritten, WAL truncated, full-text index merged),
    the running watcher's memory, the episodes published to ActivityWatch, the caches and (--all) the logs."""
    from proactive.watcher.purging import PurgeError
    from proactive.watcher.purging import purge as purge_everywhere

    if (before is not None) == everything:
        fail("purge: give exactly one of --before TIME or --all")
    cutoff = parse_time(before, "--before") if before is not None else None
    config = load_config()
    if everything and not yes:
        if not sys.stdin.isatty():  # a pipe or a script cannot be asked: only --yes says it is meant
            fail("purge --all: nobody to ask for confirmation (input is not a terminal); add --yes to delete "
                 "everything")
        click.confirm("Delete everything captured, and the logs?", abort=True)
    if Path(db or home.db_path()).exists():  # none: nothing captured, and none is created for the purge
        open_store(db).close()  # an unusable database: exit 2 with its line, before asking the watcher
    try:
        report = purge_everywhere(db, cutoff, config, timeout=wait)
    except (PurgeError, StoreError) as exc:
        fail(str(exc))
    for line in report.lines():
        click.echo(line)
    if report.activitywatch_error:
        sys.exit(1)


@cli.command()
@click.option("--for", "for_", help="Pause for a while (15m, 1h, 1h30m, 2d) instead of until `proactive resume`.")
def pause(for_: str | None) -> None:
    """Pause capture (also: send SIGUSR1 to the watcher)."""
    until = time.time() + parse_duration(for_) if for_ is not None else math.inf
    pause_id = control.write_pause(until)
    pid = control.signal_watcher(control.PAUSE_SIGNAL)
    if pid and not control.wait_acknowledged(pause_id):
        fail(f"the watcher (pid {pid}) did not confirm the pause within 5 s; stop it with: kill {pid}")
    click.echo(f"capture paused {until_text(until)}" + ("" if pid else " (no watcher running now)"))


@cli.command()
def resume() -> None:
    """Resume capture (also: send SIGUSR2 to the watcher)."""
    control.clear_pause()
    pid = control.signal_watcher(control.RESUME_SIGNAL)
    click.echo("capture resumed" + ("" if pid else " (no watcher running now)"))


@cli.command()
@reads_config
@db_option
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"home","places","paths","watcher","capture","paused","paused_until",'
                   '"database","encryption"}.')
def status(db: str | None, as_json: bool) -> None:
    """Show whether a watcher runs, whether capture is on or paused, what is stored and where each file lives.

    The places are the platform's (XDG on Linux) or PROACTIVE_HOME's one folder (watcher.home.Places); "home"
    in --json is the data folder, the one folder of older versions."""
    pid = control.running_pid()
    until = control.read_pause()
    path = Path(db) if db else home.db_path()
    capture = "off" if not pid else "capturing" if until is None else "paused"
    info: dict[str, Any] = {
        "home": str(home.data_dir()),  # the data folder (PROACTIVE_HOME when set): older versions' one folder
        "places": home.places().as_dict(),
        "paths": {name: str(p) for name, p in [
            ("config", home.config_path()), ("database", path), ("models", home.models_dir()),
            ("logs", home.places().logs / "proactive.log"), ("cache", home.places().cache),
            ("pause", control.pause_path()),
            ("pid", control.pid_path()), ("lock", control.lock_path())]},
        "watcher": {"running": bool(pid), "pid": pid or None},
        "capture": capture, "paused": until is not None,
        "paused_until": None if until is None else iso_time(until),
        "database": None, "encryption": None,
    }
    if path.exists():
        from proactive.watcher import crypto

        state = crypto.file_state(path)  # before opening: the header is read once per process
        store = open_store(str(path), readonly=True)
        try:
            info["database"] = {"path": str(path), "raw_events": store.count("raw_events"),
                                "episodes": store.count("episodes")}
        finally:
            store.close()
        info["encryption"] = state
    if as_json:
        click.echo(json.dumps(info))
        return
    pause = "" if until is None else until_text(until)
    click.echo(f"watcher: {f'running (pid {pid})' if pid else 'not running'}")
    click.echo("capture: " + {"capturing": "capturing", "paused": f"paused {pause}",
                              "off": "off (no watcher running: start `proactive run` or the tray app)"
                              + (f"; paused {pause} once one starts" if pause else "")}[capture])
    if info["database"]:
        click.echo(f"database: {path} ({plural(info['database']['raw_events'], 'raw event')}, "
                   f"{plural(info['database']['episodes'], 'episode')})")
        click.echo("encryption: " + {"encrypted": "encrypted at rest (key in the OS keyring)",
                                     "plain": "none: stored unencrypted (no OS keyring, or encryption = \"off\")"}
                   .get(info["encryption"], info["encryption"]))
    else:
        click.echo(f"database: {path} (not created yet)")
    click.echo("places:")
    for line in home.place_lines(info["places"]):
        click.echo(line)


# -- encryption at rest (watcher/crypto.py) --------------------------------------------------------------------

@cli.group(cls=FullHelpGroup, invoke_without_command=True, no_args_is_help=False)
@click.pass_context
def key(ctx: click.Context) -> None:
    """The database's encryption key, kept in the OS keyring: move it to another machine."""
    require_subcommand(ctx)


@key.command("export")
@db_option
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
def key_export(db: str | None, file: str | None) -> None:
    """Write the database's key to FILE (created mode 0600), or to stdout without FILE or with '-'. Whoever has
    it and the database file can read everything captured: keep it as you would the data."""
    import os

    from proactive.watcher import crypto

    path = Path(db) if db else home.db_path()
    try:
        text = crypto.export_key(path) + "\n"
    except crypto.EncryptionError as exc:
        fail(str(exc))
    if file is None or file == "-":
        click.echo(text, nl=False)
        return
    try:
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            os.fchmod(out.fileno(), 0o600)  # a file that already existed keeps no wider mode
            out.write(text)
    except OSError as exc:
        fail(f"{file}: cannot write ({exc.strerror or exc})")
    click.echo(f"key of {path} written to {file} (mode 0600)", err=True)


#: Bytes read at most from a key file: `key export` writes 65.
KEY_FILE_LIMIT = 4096


@key.command("import")
@db_option
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def key_import(db: str | None, file: str) -> None:
    """Store the key in FILE ('-' reads stdin), written by `proactive key export`, in this machine's OS keyring
    for the database. A key that does not open an encrypted database is refused (exit 2); a plain database is
    encrypted with it at the next start."""
    from proactive.models.files import read_regular_file
    from proactive.watcher import crypto

    path = Path(db) if db else home.db_path()
    try:  # a key is 65 bytes: a FIFO, a device or a large file is refused, not read without end
        data = sys.stdin.buffer.read(KEY_FILE_LIMIT + 1) if file == "-" else read_regular_file(
            file, limit=KEY_FILE_LIMIT)
        if len(data) > KEY_FILE_LIMIT:
            fail(f"{file}: larger than {KEY_FILE_LIMIT} bytes: not a proactive database key (`proactive key "
                 "export` writes 65)")
        text = data.decode("utf-8")
    except ValueError as exc:  # a bad file (its one line names it), or not UTF-8 text
        fail(str(exc) if not isinstance(exc, UnicodeDecodeError) else f"{file}: not a key (not UTF-8 text)")
    except OSError as exc:
        fail(f"{file}: cannot read ({exc.strerror or exc})")
    try:
        click.echo(crypto.import_key(path, text))
    except crypto.EncryptionError as exc:
        fail(f"{file}: {exc}")


@cli.command()
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None,
              help="Database file to report on (default: proactive.db in the data folder).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object instead of tables.")
def doctor(db: str | None, as_json: bool) -> None:
    """What works here now: the desktop session, each capture source (and what to do about a missing one), the
    database and its encryption, the model and reward model. A report: exits 0 whatever is missing."""
    import logging

    from proactive.assistant.doctor import render, report

    logging.getLogger("proactive").addHandler(logging.NullHandler())  # the report says it all, no stray warning
    found = report(db)
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False))
        return
    render(found)


@cli.command("accessibility")
@click.argument("state", required=False, type=click.Choice(["on", "off"]))
@reads_config
def accessibility_command(state: str | None) -> None:
    """Say whether this desktop's toolkit accessibility is on; `on` turns it on and has the watcher turn it on at
    each start, `off` stops the watcher doing so (both remembered in config.toml). With it on, GTK, Qt and the
    browsers say what each field is, so the watcher keeps what you type in their ordinary fields and drops their
    password fields; with it off, text typed in most applications is kept only as a count of characters. It is the
    desktop's own setting (org.a11y.Status, GNOME's toolkit-accessibility), which screen readers use too, so `off`
    leaves it as it is (turn it off with `gsettings set org.gnome.desktop.interface toolkit-accessibility
    false`)."""
    from proactive.watcher.atspi import set_toolkit_accessibility, toolkit_accessibility

    if state is not None:
        problem = set_toolkit_accessibility(True) if state == "on" else ""
        if problem:
            fail(f"accessibility: it could not be turned on here: {problem}")
        try:
            home.save_setting("accessibility", state)
        except (OSError, ValueError) as exc:
            fail(f"accessibility is {state} now, but config.toml could not be written ({exc}): set "
                 f'accessibility = "{state}" there')
    now = toolkit_accessibility()
    if now is None:
        click.echo("accessibility: unknown (no accessibility bus answers in this session); typed text in "
                   "applications is kept only as a count of characters")
    elif now:
        click.echo("accessibility: on (applications started from now on say what their fields are; restart the "
                   "ones already open)")
    else:
        click.echo("accessibility: off; typed text in applications is kept only as a count of characters "
                   "(turn it on: proactive accessibility on)")


@cli.command("gnome-extension")
@click.argument("action", type=click.Choice(["install", "remove"]))
def gnome_extension_command(action: str) -> None:
    """GNOME only: install (or remove) Proactive's own GNOME Shell extension, which tells the watcher which window
    has the focus (GNOME tells no application on Wayland). It is copied into your extensions folder and enabled;
    GNOME loads it at the next login (log out and back in). It reads nothing but the focused window's title,
    class and process."""
    from proactive.watcher import gnome_extension

    try:
        lines = gnome_extension.install() if action == "install" else gnome_extension.remove()
    except gnome_extension.ExtensionError as exc:
        fail(str(exc))
    for line in lines:
        click.echo(line)


@cli.group("models", cls=FullHelpGroup, invoke_without_command=True, no_args_is_help=False)
@click.option("--timeout", type=FiniteFloatRange(0.05, 10), default=0.5, show_default=True,
              help="Seconds to wait for each local port to answer.")
@click.option("--json", "as_json", is_flag=True, help="Print the models, the folder and the probed ports as JSON.")
@click.pass_context
def models_command(ctx: click.Context, timeout: float, as_json: bool) -> None:
    """List the models usable here, each with its --model spec: the built-in one (if installed), GGUF files in
    the models folder (the data folder's models/), and OpenAI-compatible servers
    answering on 127.0.0.1 on the usual ports (Ollama 11434, llama-server 8080, LM Studio 1234, vLLM 8000).
    Only loopback is probed, without any key. `proactive models pull` downloads a capable model."""
    if ctx.invoked_subcommand is not None:
        return
    from proactive.models.discovery import discover, lines

    report = discover(home.models_dir(), timeout)
    if as_json:
        click.echo(json.dumps(report))
        return
    for line in lines(report):
        click.echo(line)


@models_command.command("pull")
@click.argument("name", required=False)
@click.option("-y", "--yes", is_flag=True,
              help="Use the model to write answers without asking (answer_model in config.toml).")
@click.option("--json", "as_json", is_flag=True,
              help='The list as a JSON array; after a download one object: {"name","path","size","sha256",'
                   '"answer_model"}. Asks nothing (--yes sets answer_model).')
def models_pull(name: str | None, yes: bool, as_json: bool) -> None:
    """Download a capable local model (a GGUF from a short curated list: laptop-CPU sizes, licence, purpose) into
    the models folder from the Hugging Face hub (HF_ENDPOINT: a mirror; HF_HUB_OFFLINE=1: only what is here), with
    progress on stderr, resumed when the connection is cut, checked against its sha256. Without NAME, the list.
    Then asks whether to use it to write explanations and drafts when you accept an offer."""
    from proactive.models import pull as pulling

    folder = home.models_dir()
    if name is None:
        rows = [dict(m.as_dict(), downloaded=(folder / m.filename).is_file()) for m in pulling.CURATED]
        if as_json:
            click.echo(json.dumps(rows))
            return
        width = max(len(m.name) for m in pulling.CURATED)
        for m in pulling.CURATED:
            here = "  (downloaded)" if (folder / m.filename).is_file() else ""
            click.echo(f"{m.name:<{width}}  {pulling.size_text(m.size):>7}  {m.purpose} ({m.licence}){here}")
        click.echo(f"download one: proactive models pull NAME (into {folder})")
        return
    try:
        entry = pulling.find(name)
        path = pulling.pull(entry, folder)
    except pulling.PullError as exc:
        fail(str(exc))
    spec = str(path)
    use = yes
    if not as_json:
        click.echo(f"{entry.name}: {path} ({pulling.size_text(path.stat().st_size)}, sha256 checked)")
        if not yes and sys.stdin.isatty():
            use = click.confirm("Use it to write explanations and drafts when you accept an offer?", default=False)
    if use:
        try:
            home.save_setting("answer_model", spec)
        except (OSError, ValueError) as exc:
            fail(f"{path} is downloaded, but config.toml could not be written ({exc}): set answer_model = "
                 f"{json.dumps(spec)} there")
    if as_json:
        click.echo(json.dumps({"name": entry.name, "path": spec, "size": path.stat().st_size,
                               "sha256": entry.sha256 or pulling.sha256_file(path), "answer_model": use}))
    elif use:
        click.echo(f"answers model: {spec} (answer_model in {home.config_path()}; the tray uses it from its next "
                   "start)")
    else:
        click.echo(f"to use it for answers: proactive models pull {entry.name} --yes (sets answer_model = "
                   f"{json.dumps(spec)} in {home.config_path()})")


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
    except runtime.SetupError as exc:  # a config value, a model, a lock: the line says what to fix
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
