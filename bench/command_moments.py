"""Interruptions at a command entered: the live decision path at each proactivity level, where no error was seen.

Each command of `bench/help_cases/*.toml` (real commands of 12 ecosystems), and a few everyday lines (`clear; vim
notes.md`, `echo step 4; ls`, `cd src && make`, vim's `:wq` after `vim notes.md` and in a terminal titled by vim),
is typed alone in an xterm and rendered by the watcher's episode builder; the moment goes through
`decision.decide` with the built-in model and the shipped reward model's gate, as the tray's "a command entered"
moment does. Nothing failed and nothing was looked up, so an offer about the command ("About this command", "From
the manual") is an interruption nobody asked for, unless this machine does not know the program (its shell
would say "command not found"). Prints, per level, the moments, the offers shown, those about a command, and
each shown offer.

    .venv/bin/python bench/command_moments.py [--json]
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: lines typed at a terminal every day: none of them wants an offer
EVERYDAY = ("clear; vim notes.md", "echo step 4; ls", "cat notes.md", "ls -la", "cd src && make", "git status",
            "ls | wc -l", "less /var/log/syslog", "python3 manage.py runserver")
COMMAND_ACTIONS = ("command_docs", "explain_command")


def episode(lines: list[str], title: str = "bash") -> list[dict[str, Any]]:
    """The observation of an xterm titled `title` where `lines` were typed, each with Enter."""
    from proactive.watcher.episodes.builder import EpisodeBuilder
    from proactive.watcher.events import TEXT, WINDOW, RawEvent

    builder, ts = EpisodeBuilder(), 1_700_000_000.0
    builder.add(1, RawEvent("window", WINDOW, {"app": "XTerm", "title": title, "process": "xterm"}, ts=ts))
    for i, line in enumerate(lines):
        builder.add(2 + i, RawEvent("keyboard", TEXT, {"text": line, "enter": True}, ts=ts + 1 + i))
    closed = builder.close(ts + 9)
    assert closed is not None
    return [{"time": str(ts), "event": closed.event}]


def moments() -> list[list[dict[str, Any]]]:
    commands = [c["command"] for f in sorted((ROOT / "bench" / "help_cases").glob("*.toml"))
                for c in tomllib.loads(f.read_text(encoding="utf-8"))["case"] if c.get("command")]
    return ([episode([c]) for c in [*commands, *EVERYDAY]]
            + [episode(["vim notes.md", ":wq"]), episode([":wq"], "vim notes.md")])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    from proactive.assistant.agent import Agent
    from proactive.assistant.decision import decide
    from proactive.assistant.feedback import FeedbackMemory
    from proactive.assistant.need import need_for
    from proactive.assistant.policy import Gate, Proactivity
    from proactive.models import registry

    model, scorer = registry.load_model("default"), registry.load_reward("default")
    found = moments()
    out: dict[str, Any] = {}
    for level in ("low", "medium", "high"):
        gate = Gate(scorer, Proactivity.parse(level), need_model=need_for(scorer))
        agent = Agent(model)
        shown = []
        for context in found:
            decided = decide(gate, FeedbackMemory(), context, 0.0,
                             lambda held, c=context, a=agent: a.predict(c, held_back=held))
            if decided.task and decided.prediction is not None:
                shown.append({"event": context[0]["event"], "action": decided.prediction.actions.get(decided.task),
                              "offer": decided.task})
        out[level] = {"moments": len(found), "shown": len(shown),
                      "about_a_command": sum(s["action"] in COMMAND_ACTIONS for s in shown), "offers": shown}
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return
    for level, f in out.items():
        print(f"{level}: {f['moments']} moments, {f['shown']} offers shown, {f['about_a_command']} about a command")
        for s in f["offers"]:
            print(f"    {s['offer']}")


if __name__ == "__main__":
    main()
