"""Eval's commands: `replay` recorded sessions and report the metrics, `predict` (the agent alone over one), `reward train` and `reward eval` (the
reward and need models against labels), and `export` the person's decisions as training rows. The entry point
(`proactive.app.cli`) adds them with `register`.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import click

from proactive.assistant import setup
from proactive.assistant.commands import load_predictor, load_scorer, model_option
from proactive.watcher.command_line import (
    FullHelpGroup,
    db_option,
    fail,
    open_store,
    out_file,
    out_folder,
    progress_bar,
    reads_config,
    require_subcommand,
)
from proactive.watcher.episodes.wording import plural
from proactive.watcher.service import SetupError
from proactive.watcher.store import home


def read_rows(paths: tuple[str, ...] | list[str]) -> list[dict[str, Any]]:
    from proactive.models.reward_data import read_reward_rows

    try:
        rows = read_reward_rows([Path(p) for p in paths])
    except (ValueError, OSError) as exc:
        fail(str(exc))
    if not rows:
        fail(f"{', '.join(paths)}: no rows")
    return rows


@click.group("reward", cls=FullHelpGroup, invoke_without_command=True, no_args_is_help=False)
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
                                                      "seconds_per_item", "failures", "rm", "trained_on", "in_sample",
                                                      "contexts", "calibration")}))
        return
    for line in assessment_lines(result, data, rm_spec):
        click.echo(line)
    if out:
        click.echo(f"reliability plot: {result['calibration']['plot']}")


@reward.command("personal")
@click.option("--data", "data", multiple=True, type=click.Path(dir_okay=False),
              help="Reward-format JSONL file(s); each (session, annotator) is simulated as one person.")
@click.argument("more", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--session", "sessions", multiple=True, help="Only these sessions' rows (repeat the option).")
@click.option("--rm", "rm_spec", default="default", show_default=True, help="The shared reward model.")
@click.option("--as-live", is_flag=True,
              help="Each person judges only the offers the person model shows: the share taken over their first "
                   "and last 20 shown.")
@click.option("--out", "out", type=click.Path(file_okay=False), help="Also save learning_curve.png here.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def rm_personal(data: tuple[str, ...], more: tuple[str, ...], sessions: tuple[str, ...], rm_spec: str,
                as_live: bool, out: str | None, as_json: bool) -> None:
    """The person model against the shared reward model, each annotator simulated as a person: every decision
    predicted before it is learned (prequential), pooled from each person's (K+1)-th decision on."""
    from proactive.eval import personal
    from proactive.eval.assessment import score_rows

    data = (*data, *more)
    if not data:
        fail("reward personal: give the labelled data: --data REWARD.jsonl [MORE.jsonl...]")
    if out:
        out_folder("--out", out)
    rows = read_rows(data)
    if sessions:
        rows = [r for r in rows if r.get("session") in sessions]
        if not rows:
            fail(f"--session: no rows of {', '.join(sessions)} in {', '.join(data)}")
    probs, _, _ = score_rows(load_scorer(rm_spec), rows, progress_bar)
    shared = [0.5 if p is None else p for p in probs]  # a failed score decides nothing either way
    people = personal.persons(rows, shared)
    result = personal.as_live(people) if as_live else personal.simulate(people)
    if out and not as_live:
        result["plot"] = str(personal.curve_plot(Path(out) / "learning_curve.png", result,
                                                 f"{result['persons']} persons, {result['decisions']} decisions"))
    if as_json:
        click.echo(personal.summary_json(result))
        return
    for line in personal.lines(result):
        click.echo(line)


@click.command()
@click.argument("session", type=click.Path(dir_okay=False))
@model_option
@click.option("--k", type=click.IntRange(1, 3), default=1, show_default=True, help="Candidate tasks per turn.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per turn.")
def predict(session: str, model_spec: str, k: int, as_json: bool) -> None:
    """Run the agent alone over a recorded ProactiveBench-format session: at turn i it sees observations 0..i.

    Its candidates are those of `proactive replay SESSION --no-gate` with the same --model and --k (the first is
    what replay shows); no gate, no judge, no cache, and config.toml is not read."""
    from proactive.assistant.agent import Agent
    from proactive.eval.replay import agent_prediction
    from proactive.eval.sessions import SessionError, load_session

    try:
        observations = load_session(session)
    except SessionError as exc:
        fail(str(exc))
    agent = Agent(load_predictor(model_spec), k=k)
    proposals = failures = 0
    with progress_bar(len(observations), "predicting") as advance:
        for i, obs in enumerate(observations):
            prediction = agent_prediction(agent, observations[: i + 1])
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


#: `proactive rm ...`, the earlier name (it read as "remove"): still works, not listed in --help
rm_alias = FullHelpGroup("rm", commands=reward.commands, callback=reward.callback, hidden=True, help=reward.help,
                         invoke_without_command=True, no_args_is_help=False)


@click.command()
@click.argument("sessions", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--proactivebench", "checkout", type=click.Path(file_okay=False),
              help="A checkout of github.com/thunlp/ProactiveAgent: its sessions (SESSIONS are then file names in "
                   "dataset/test_data; none: all), its labels and its archived traces, unless --labels or "
                   "--baselines say otherwise.")
@click.option("--labels", type=click.Path(dir_okay=False), help="Reward-format labels: need detection vs humans.")
@model_option
@click.option("--rm", "rm_spec", default="default", show_default=True, help="Reward model of the gate.")
@click.option("--no-gate", is_flag=True, help="Judge the agent's raw first candidate (the paper's setting).")
@click.option("--judge", "judge_spec", default="default", show_default=True,
              help="Who judges: default (shipped reward model), signals, llm:MODEL, or a file.")
@click.option("--k", type=click.IntRange(1, 3), default=1, show_default=True,
              help="Candidate tasks per turn (pred@k).")
@click.option("--proactivity", default="medium", show_default=True,
              help="Gate threshold level: low, medium, high or a number in [0, 1] (config.toml is not read).")
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
              help="With --accept, read the pages page offers are about (network: --search-engine and the "
                   "result pages it links to). Off by default: page help then says it read nothing.")
@click.option("--search-engine", default=home.DEFAULT_SEARCH_ENGINE, show_default=True,
              help="With --fetch, the results page read for a search ({query} stands for the search).")
@click.option("--as-live", is_flag=True,
              help="The live trigger's timing as well, on the events' own clock: the assistant runs as each event "
                   "closes an episode, never within the proactivity level's minimum interval after an offer shown "
                   "(default: every turn, the paper's protocol). Not with --no-gate.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def replay(sessions: tuple[str, ...], checkout: str | None, labels: str | None, model_spec: str, rm_spec: str, no_gate: bool,
           judge_spec: str, k: int, proactivity: str | None, baselines: str | None, out: str | None,
           cache_path: str | None, parallel: int, accept: bool, fetch: bool, search_engine: str, as_live: bool,
           as_json: bool) -> None:
    """Replay recorded sessions through agent + gate, judge every prediction, report the metrics.

    Need first, as live: at a turn where the gate's P(need) is below the threshold nothing is generated. An offer
    shown and not answered counts as ignored, as live: the feedback memory holds it back for a while. Every
    setting comes from these options and their defaults, never from config.toml, so a run gives the same figures
    on any machine; the report's header lists them."""
    from proactive.eval import harness
    from proactive.eval.replay import Judge, Replayer, cached_gate
    from proactive.models.base import ModelError

    # every input and output is checked before any work: a bad trace or a missing folder found after an hour of
    # replaying would lose the hour
    if accept and not out:
        fail("--accept writes OUT/help.jsonl: give --out DIR")
    if fetch and not accept:
        fail("--fetch reads pages when accepting offers: give --accept too")
    if "{query}" not in search_engine or not search_engine.startswith(("http://", "https://")):
        fail(f"--search-engine: {search_engine}: must be an http(s) address with {{query}} for the search")
    if as_live and no_gate:
        fail("--as-live: the live timing needs the gate (it holds offers back after one is shown); drop --no-gate")
    out_path = out_folder("--out", out) if out else None
    if cache_path:
        out_file("--cache", cache_path)
    if checkout:
        bench = _checkout(checkout, sessions)
        paths, labels, baselines = bench.sessions, labels or str(bench.labels), baselines or str(bench.traces)
    elif not sessions:
        fail("replay: give session files, or --proactivebench CHECKOUT (a checkout of "
             "github.com/thunlp/ProactiveAgent)")
    else:
        paths = [Path(s) for s in sessions]
    observed, found = _sessions_and_baselines(paths, baselines)
    label_map = _labels_of(labels, observed) if labels else None
    try:
        level = setup.proactivity(proactivity, home.Config())
    except SetupError as exc:
        fail(str(exc))
    cache = _cache(cache_path)
    gate = None if no_gate else cached_gate(load_scorer(rm_spec), level, cache)
    judge = Judge(load_scorer(judge_spec, "--judge"), cache)
    try:
        replayer = Replayer(model_spec, load_predictor, k, gate, judge, cache, parallel=parallel, as_live=as_live)
    except (ModelError, OSError) as exc:
        fail(f"--model: {model_spec}: {exc}")
    total = sum(len(observed[p]) for p in paths)
    settings = harness.settings(model_spec, k, None if no_gate else rm_spec, None if no_gate else proactivity,
                                judge_spec, as_live, search_engine if fetch else None)
    result = harness.run(paths, total, replayer, gate, judge, cache, model_spec, rm_spec, judge_spec, found,
                         label_map, progress_bar, command=shlex.join(["proactive", *sys.argv[1:]]),
                         labels_path=Path(labels) if labels else None, settings=settings)
    if out_path is not None:
        try:
            harness.write(result, out_path, label_map)
            if accept:
                result.notes.append(f"help: {_accept_all(result, replayer, paths, out_path, search_engine if fetch else None)}")
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


def _checkout(checkout: str, names: tuple[str, ...]) -> Any:
    """--proactivebench: the sessions, labels and traces of a ProactiveAgent checkout (one line when a part is
    missing); the zipped traces are unpacked once into the cache folder."""
    from proactive.eval.proactivebench import open_checkout
    from proactive.eval.sessions import SessionError

    try:
        return open_checkout(Path(checkout), names, home.cache_dir() / "proactivebench-traces")
    except SessionError as exc:
        fail(f"--proactivebench: {exc}")


def _sessions_and_baselines(paths: list[Path], baselines: str | None) -> tuple[dict[Path, Any], Any]:
    """The sessions' observations and the archived traces beside them (those left out are said now, and in the
    report's notes); a session or trace that cannot be read is one line (exit 2)."""
    from proactive.eval.replay import find_baselines
    from proactive.eval.sessions import SessionError, load_session

    try:
        observed = {p: load_session(p) for p in paths}
        found = find_baselines(Path(baselines), paths) if baselines else None
    except SessionError as exc:
        fail(str(exc))
    for name, reason in (found.failed if found else {}).items():
        click.echo(f"proactive: warning: baseline {name} left out: {reason}", err=True)
    return observed, found


def _labels_of(labels: str, observed: dict[Path, Any]) -> dict[str, bool]:
    """The human need labels of --labels, which must match an event of the sessions (by its time)."""
    from proactive.eval.metrics import need_labels

    label_map = need_labels(read_rows([labels]))
    times = {str(o["time"]).strip() for observations in observed.values() for o in observations}
    if not times & set(label_map):
        fail(f"{labels}: the labels match no event of the given sessions (contexts are matched by the time of "
             "their last observation)")
    return label_map


def _cache(cache_path: str | None) -> Any:
    """The cache of model calls (--cache, or replay.db in the cache folder); an unusable file is one line."""
    import sqlite3

    from proactive.eval.replay import Cache, CacheError

    path = Path(cache_path) if cache_path else home.cache_dir() / "replay.db"
    try:
        return Cache(path)
    except CacheError as exc:
        fail(f"--cache: {exc}")
    except (sqlite3.Error, OSError) as exc:
        fail(f"--cache: {path}: not a usable cache database ({exc})")


def _accept_all(result: Any, replayer: Any, paths: list[Path], out_path: Path, search_engine: str | None) -> str:
    """--accept: every shown offer accepted, what the help produced written to OUT/help.jsonl; `search_engine`
    (--fetch) is where pages are looked for, None: nothing is read."""
    from proactive.assistant.pages import PageReader
    from proactive.eval import harness
    from proactive.models.base import ModelError

    try:
        model = replayer.model()
    except (ModelError, OSError) as exc:
        fail(f"--model: {replayer.model_spec}: {exc}")
    reader = PageReader("on", (), search_engine) if search_engine else None
    return str(harness.accept_all(result.turns, paths, model, out_path, progress_bar, reader=reader))


@click.command()
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


def register(group: click.Group) -> None:
    """Add eval's commands to the `proactive` group."""
    for command in (reward, rm_alias, replay, predict, export):
        group.add_command(command)
