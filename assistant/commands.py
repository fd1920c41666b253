"""The assistant's commands: `decide` on a proposal (Accept does the task),
`doctor`, and the models usable here (`models`, `models pull`). The entry point (`proactive.app.cli`) adds them
with `register`; `model_option`, `load_predictor` and `load_scorer` serve eval's commands too.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from proactive.assistant import setup
from proactive.watcher.command_line import (
    FiniteFloatRange,
    FullHelpGroup,
    db_option,
    fail,
    load_config,
    open_store,
    reads_config,
)
from proactive.watcher.store import home

from .proposals import ProposalLog


def load_predictor(spec: str, option: str = "--model") -> Any:
    """The model named by an option, through the one registry (exit 2 with one line when unusable)."""
    return setup.load_model(spec, option)


def load_scorer(spec: str, option: str = "--rm") -> Any:
    """The reward model named by an option, through the one registry (exit 2 with one line when unusable)."""
    return setup.load_reward(spec, option)


model_option = click.option("--model", "model_spec", default="default", show_default=True,
                            help="default, a GGUF path, or openai:BASE_URL#MODEL.")


@click.command()
@reads_config
@db_option
@click.argument("proposal_id", type=int)
@click.argument("decision", type=click.Choice(["accepted", "rejected", "fewer", "ignored", "snoozed"]))
@click.option("--no-help", "no_help", is_flag=True, help="Accept without doing the task (no search, no recall).")
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"proposal","decision","task","result"} (result: what accepting did, or null).')
def decide(db: str | None, proposal_id: int, decision: str, no_help: bool, as_json: bool) -> None:
    """Record your decision on a proposal (headless use); the running assistant learns from it at once
    (`fewer`: rejected, and offers of its kind made less often).
    Accepting does the task as the tray does (a web search, your earlier encounters with the same thing) and
    prints what was done."""
    from proactive.assistant.accept import Acceptance
    from proactive.assistant.feedback import ACCEPTED, FINAL
    from proactive.assistant.live import Proposal
    from proactive.assistant.pages import PageReader

    if not -(2 ** 63) <= proposal_id < 2 ** 63:  # beyond SQLite's integers: no row can have it
        fail(f"no proposal {proposal_id}")
    config = load_config()  # an invalid config stops every command that writes the store, before it is opened
    store = open_store(db)
    try:
        proposal = ProposalLog(store).get(proposal_id)
        if proposal is None:
            fail(f"no proposal {proposal_id}")
        task = proposal["task"]
        if task is None:
            fail(f"no proposal {proposal_id} with a task (it was a silent turn)")
        if proposal["decision"] in FINAL:
            fail(f"proposal {proposal_id} was already {proposal['decision']}: a decision is final (only a snoozed "
                 "proposal can be decided again)")
        result = None
        latency = time.time() - proposal["ts"]
        if decision == ACCEPTED and not no_help:
            from proactive.assistant import answers

            accepted = Acceptance.of(store, Proposal.from_row(proposal))  # its own moment, not what is on screen
            answerer = answers.load(config.answer_model)  # the answers model the person chose, if any
            reader = PageReader(config.web_search, tuple(config.never_fetch), config.search_engine)
            try:
                result = accepted.run(answerer, store.path, config.web_search,
                                      accepted.material(reader, config.web_search))
            finally:
                if answerer is not None:
                    answerer.close()
            accepted.record(store, latency, result)
        else:
            ProposalLog(store).decide(proposal_id, decision, latency_s=latency)
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps({"proposal": proposal_id, "decision": decision, "task": task,
                               "result": None if result is None else result.to_json()}, ensure_ascii=False))
        return
    click.echo(f"proposal {proposal_id}: {decision}")
    if result is not None:
        click.echo(result.text)


@click.command()
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


@click.group("models", cls=FullHelpGroup, invoke_without_command=True, no_args_is_help=False)
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


def register(group: click.Group) -> None:
    """Add the assistant's commands to the `proactive` group."""
    for command in (decide, doctor, models_command):
        group.add_command(command)
