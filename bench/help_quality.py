"""Help quality on errors: does Accept give a specific, correct next step, with the built-in model's path?

Each case in `bench/help_cases/*.toml` is a real error text (from CPython, pip, npm, gcc, bash, git...) with the
command that produced it, and `expect`: the pieces a correct specific next step must contain ("pip install
requests", "git pull --rebase"). A case goes through the same path as live use, without a model's text:
the watcher's episode builder turns the typed command and the copied error into episode sentences, the
grounded candidates are built as for the built-in model, the first one about the error is accepted
(`do_task`, no web search), and the help's text must contain every expected piece. Prints each case and the
share that got a specific, correct next step.

    .venv/bin/python bench/help_quality.py [--cases DIR] [--json] [-v]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def context_for(error: str, command: str | None) -> list[dict[str, str]]:
    """The episode the person's terminal gives: the command typed, then the error copied."""
    from proactive.watcher.episodes import EpisodeBuilder
    from proactive.watcher.events import CLIPBOARD, TEXT, WINDOW, RawEvent

    builder, ts = EpisodeBuilder(), 1_700_000_000.0
    events = [RawEvent("window", WINDOW, {"app": "XTerm", "title": "bash", "process": "xterm"}, ts=ts)]
    if command:
        events.append(RawEvent("keyboard", TEXT, {"text": command, "enter": True}, ts=ts + 2))
    events.append(RawEvent("clipboard", CLIPBOARD, {"text": error, "length": len(error), "truncated": False},
                           ts=ts + 5))
    for raw_id, event in enumerate(events, 1):
        builder.add(raw_id, event)
    episode = builder.close(ts + 8)
    assert episode is not None
    row = episode.row()
    # as recent_context gives it (assistant/live.py): the episode and the whole texts copied in it
    return [{"time": str(row["start"]), "event": row["event"], "copies": [error]}]


def run_case(case: dict) -> dict:
    from proactive.assistant import candidates
    from proactive.assistant.grounding import ERROR, ground
    from proactive.assistant.help import do_task

    context = context_for(case["error"], case.get("command"))
    options = [c for c in candidates.build(ground(context), writes=False) if c.objects[0].kind == ERROR]
    if not options:
        return {"ok": False, "offer": None, "help": "", "missing": case["expect"]}
    chosen = options[0]
    result = do_task(None, context, chosen.task, chosen.action, search="off")
    text = result.text
    missing = [piece for piece in case["expect"] if piece.lower() not in text.lower()]
    return {"ok": not missing and "fix" in result.parts, "offer": chosen.message, "help": text,
            "missing": missing, "seconds": round(result.seconds, 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=Path, default=ROOT / "bench" / "help_cases")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each offer and the help text")
    args = ap.parse_args()
    files = sorted(args.cases.glob("*.toml"))
    if not files:
        sys.exit(f"{args.cases}: no *.toml case files")
    with tempfile.TemporaryDirectory() as home:
        os.environ["PROACTIVE_HOME"] = home  # an empty history: the help comes from the diagnosis alone
        from proactive.watcher.store import Store

        Store().close()
        results = []
        for path in files:
            for i, case in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get("case", []), 1):
                got = run_case(case)
                got["case"] = f"{path.stem}:{i}"
                got["error"] = case["error"].strip().splitlines()[-1][:90]
                results.append(got)
    ok = sum(r["ok"] for r in results)
    if args.json:
        print(json.dumps({"cases": len(results), "specific": ok, "share": round(ok / len(results), 3),
                          "results": results}, ensure_ascii=False, indent=1))
        return
    for r in results:
        print(f"{'ok ' if r['ok'] else 'NO '} {r['case']:<12} {r['error']}")
        if not r["ok"] or args.verbose:
            print(f"     offer: {r['offer']}\n     missing: {r['missing']}")
            if args.verbose:
                print("     " + r["help"].replace("\n", "\n     "))
    print(f"\n{ok} of {len(results)} errors ({ok / len(results):.0%}) get a specific, correct next step on Accept")


if __name__ == "__main__":
    main()
