"""Help quality on errors: does Accept give a specific, correct next step, with the built-in model's path?

Each case in `bench/help_cases/*.toml` is a real error text (from CPython, pip, npm, gcc, bash, git...) with the
command that produced it, and `expect`: the pieces a correct specific next step must contain ("pip install
requests", "git pull --rebase"). A case goes through the same path as live use, without a model's text:
the watcher's episode builder turns the typed command and the copied error into episode sentences, the
grounded candidates are built as for the built-in model, the first one about the error is accepted
(`do_task`, no web search), and the help's text must contain every expected piece. Prints each case and the
share that got a specific, correct next step.

With `--replay`, the same situations go through `proactive replay --accept` instead, as ProactiveBench-format
sessions (one per case: the episode's sentence alone, as a recorded session has it, without the copied text),
with the built-in model and the gate (`--no-gate`: the first offer at every turn, as the live path above takes
the first offer about the error): a case counts when a shown offer's help contains every expected piece.

    .venv/bin/python bench/help_quality.py [--cases DIR] [--replay] [--json] [-v]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def context_for(error: str, command: str | None) -> list[dict[str, str]]:
    """The episode the person's terminal gives: the command typed, then the error copied."""
    from proactive.watcher.episodes.builder import EpisodeBuilder
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


def write_sessions(cases: list[tuple[str, dict]], folder: Path) -> dict[str, str]:
    """One ProactiveBench-format session per case (its episode's sentence, no copied text); name -> case id."""
    names = {}
    for i, (case_id, case) in enumerate(cases):
        observation = context_for(case["error"], case.get("command"))[0]
        name = f"case_{i:03d}.json"
        (folder / name).write_text(json.dumps([{"observation": {"time": observation["time"],
                                                                "event": observation["event"]}}]), encoding="utf-8")
        names[name] = case_id
    return names


def replay_cases(cases: list[tuple[str, dict]], home: str, gate: bool = True) -> list[dict]:
    """The cases through `proactive replay --accept` (the built-in model, the gate unless `gate` is False, every
    shown offer accepted)."""
    import subprocess

    folder = Path(home) / "sessions"
    folder.mkdir()
    names = write_sessions(cases, folder)
    out = Path(home) / "out"
    command = [str(Path(sys.executable).with_name("proactive")), "replay", *sorted(str(folder / n) for n in names), "--accept",
               "--out", str(out), "--cache", str(Path(home) / "replay.db"), "--json", *([] if gate else ["--no-gate"])]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"proactive replay failed: {done.stderr.strip()[-2000:]}")
    helped: dict[str, list[dict]] = {}
    for line in (out / "help.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        helped.setdefault(row["session"], []).append(row)
    results = []
    for name, case_id in names.items():
        case = dict(cases)[case_id]
        rows = helped.get(name, [])
        best = {"ok": False, "offer": rows[0]["task"] if rows else None, "help": rows[0]["help"]["text"] if rows else "",
                "missing": case["expect"]}
        for row in rows:
            text = row["help"]["text"]
            missing = [p for p in case["expect"] if p.lower() not in text.lower()]
            if not missing and "fix" in row["help"]["parts"]:
                best = {"ok": True, "offer": row["task"], "help": text, "missing": []}
                break
        results.append({**best, "case": case_id, "error": case["error"].strip().splitlines()[-1][:90]})
    return results


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
            "missing": missing, "seconds": result.seconds}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=Path, default=ROOT / "bench" / "help_cases")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--replay", action="store_true", help="through `proactive replay --accept` (sessions, gate)")
    ap.add_argument("--no-gate", action="store_true", help="with --replay: every turn offers (the live bench's "
                    "view: what Accept gives once offered), not only where the gate says help is needed")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each offer and the help text")
    args = ap.parse_args()
    files = sorted(args.cases.glob("*.toml"))
    if not files:
        sys.exit(f"{args.cases}: no *.toml case files")
    with tempfile.TemporaryDirectory() as home:
        os.environ["PROACTIVE_HOME"] = home  # an empty history: the help comes from the diagnosis alone
        from proactive.watcher.store.database import Store

        Store().close()
        cases = [(f"{path.stem}:{i}", case) for path in files
                 for i, case in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get("case", []), 1)]
        if args.replay:
            results = replay_cases(cases, home, gate=not args.no_gate)
        else:
            results = [{**run_case(case), "case": case_id, "error": case["error"].strip().splitlines()[-1][:90]}
                       for case_id, case in cases]
    ok = sum(r["ok"] for r in results)
    seconds = sorted(r["seconds"] for r in results if "seconds" in r)  # the live path times each Accept
    timing = {"p50_ms": round(1000 * statistics.median(seconds), 1),
              "p95_ms": round(1000 * seconds[int(0.95 * (len(seconds) - 1))], 1)} if seconds else {}
    if args.json:
        print(json.dumps({"cases": len(results), "specific": ok, "share": round(ok / len(results), 3), **timing,
                          "results": results}, ensure_ascii=False, indent=1))
        return
    for r in results:
        print(f"{'ok ' if r['ok'] else 'NO '} {r['case']:<12} {r['error']}")
        if not r["ok"] or args.verbose:
            print(f"     offer: {r['offer']}\n     missing: {r['missing']}")
            if args.verbose:
                print("     " + r["help"].replace("\n", "\n     "))
    print(f"\n{ok} of {len(results)} errors ({ok / len(results):.0%}) get a specific, correct next step on Accept")
    if timing:
        print(f"help on Accept: p50 {timing['p50_ms']} ms, p95 {timing['p95_ms']} ms (no network)")


if __name__ == "__main__":
    main()
