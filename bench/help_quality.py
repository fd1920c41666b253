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

With `--phrasings FILE` (JSON lines `{"file": "python.toml", "case": 0, "style": "...", "text": "..."}`: a case's
situation as one observation sentence, worded as ProactiveBench, other datasets or people word it, by a writer
who never saw the grounding), each sentence is replayed as a one-sentence session and its help compared with the
live help of its case: the share where replay gives the same help (both give every expected piece, or the same
text), overall and per style; and, of the sentences that carry what the live help needs (the error's lines the
specific step reads and the command, word for word: `carried`), the share replay helps as live. In-process by
default (the grounding, grounded offers and `do_task` that replay
calls, the first offer about the error accepted, as for live); with `--replay`, through `proactive replay
--accept`.

    .venv/bin/python bench/help_quality.py [--cases DIR]... [--replay] [--phrasings FILE] [--json] [-v]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
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


def said_sentence(case: dict) -> str:
    """The case as a recorded session has it: the sentence of the episode of its command and copied error."""
    return context_for(case["error"], case.get("command"))[0]["event"]


def write_sessions(sentences: list[tuple[str, str]], folder: Path) -> dict[str, str]:
    """One ProactiveBench-format session per (id, sentence): that observation alone; session name -> id."""
    names = {}
    for i, (item_id, sentence) in enumerate(sentences):
        name = f"case_{i:03d}.json"
        (folder / name).write_text(json.dumps([{"observation": {"time": "1700000000", "event": sentence}}]),
                                   encoding="utf-8")
        names[name] = item_id
    return names


def judged(expect: list[str], offer: str | None, text: str, parts: tuple[str, ...] | list[str]) -> dict:
    """A help's verdict: specific and correct when it is a fix and contains every expected piece."""
    missing = [piece for piece in expect if piece.lower() not in text.lower()]
    return {"ok": not missing and "fix" in parts, "offer": offer, "help": text, "missing": missing}


def replay_cases(items: list[tuple[str, str, dict]], home: str, gate: bool = True) -> list[dict]:
    """(id, sentence, case) items through `proactive replay --accept` (the built-in model, the gate unless `gate`
    is False, every shown offer accepted): per item, the best shown offer's help."""
    import subprocess

    folder = Path(home) / "sessions"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    names = write_sessions([(item_id, sentence) for item_id, sentence, _ in items], folder)
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
    cases = {item_id: case for item_id, _, case in items}
    results = []
    for name, item_id in names.items():
        case = cases[item_id]
        rows = helped.get(name, [])
        verdicts = [judged(case["expect"], row["task"], row["help"]["text"], row["help"]["parts"]) for row in rows]
        best = next((v for v in verdicts if v["ok"]), verdicts[0] if verdicts else judged(case["expect"], None, "", ()))
        results.append({**best, "case": item_id, "error": case["error"].strip().splitlines()[-1][:90]})
    return results


def help_for(context: list[dict], expect: list[str]) -> dict:
    """The live path's help for a context: its grounded offers as for the built-in model, the first one about the
    error accepted (no web search)."""
    from proactive.assistant import candidates
    from proactive.assistant.grounding import ERROR, ground
    from proactive.assistant.help import do_task

    options = [c for c in candidates.build(ground(context), writes=False) if c.objects[0].kind == ERROR]
    if not options:
        return judged(expect, None, "", ())
    chosen = options[0]
    result = do_task(None, context, chosen.task, chosen.action, search="off")
    return {**judged(expect, chosen.message, result.text, result.parts), "seconds": result.seconds}


def run_case(case: dict) -> dict:
    """The case through the live path: its command typed and its error copied in a terminal."""
    return help_for(context_for(case["error"], case.get("command")), case["expect"])


def read_phrasings(path: Path, cases: dict[str, dict]) -> list[dict]:
    """The phrasings file's rows, each with its case's id (`python:1`: the file's stem and the case's 1-based
    number, as the cases are named here)."""
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            row = json.loads(line)
            case_id = f"{Path(row['file']).stem}:{int(row['case']) + 1}"
            if case_id not in cases:
                sys.exit(f"{path}:{n}: no case {row['case']} in {row['file']}")
            rows.append({**row, "case_id": case_id})
    return rows


def same_help(live: dict, replayed: dict) -> bool:
    """Replay gives the help live gives: both the specific next step (every expected piece), or the same text."""
    return (live["ok"] and replayed["ok"]) or (bool(live["help"]) and live["help"] == replayed["help"])


def _plain(text: str) -> str:
    """Text compared for what it carries: entities, JSON and CSV escapes, typographic quotes as plain characters,
    runs of space as one (a writer may escape, re-quote or re-flow what they quote)."""
    text = html.unescape(text).replace('\\"', '"').replace('""', '"').replace("\\n", " ").replace("\\t", " ")
    return " ".join(text.translate(str.maketrans("‘’“”«»", "''\"\"\"\"")).split())


def carried(case: dict, text: str) -> dict:
    """The case as far as a phrasing carries it: the lines of its error the sentence gives word for word, and its
    command when the sentence names it. The live help for that is what replay can be asked to match: a line the
    writer left out (a traceback's frame, the command run) is no failure of reading the sentence."""
    plain = _plain(text)
    lines = [ln for ln in case["error"].splitlines() if ln.strip() and _plain(ln) in plain]
    command = case.get("command")
    return {**case, "error": "\n".join(lines), "command": command if command and _plain(command) in plain else None}


def quotes_the_program(offer: str | None, case: dict) -> bool | None:
    """Whether an offer about an error quotes what the program printed (or the command run), as the person would
    read it: not a chat's speaker, a mail's signature, a runner's verdict or the writer's words. None when the
    offer quotes no error."""
    said = re.match(r"You hit '(?P<quote>.+)'\. Want", offer or "", re.S)
    if said is None:
        return None
    # (word for word: a writer may join a message's lines, leaving one out between; the quote's last word may
    # be cut short)
    words = _plain(said["quote"].rstrip("…")).split()
    printed = set(_plain(case["error"] + "\n" + (case.get("command") or "")).split())
    return bool(words) and all(w in printed for w in words[:-1]) and any(w.startswith(words[-1]) for w in printed)


def compare_phrasings(rows: list[dict], cases: dict[str, dict], home: str, replay: bool = False,
                      gate: bool = True) -> dict:
    """Each phrasing's replayed help against its case's live help: the share that is the same, overall and per
    style, and the phrasings where it is not."""
    live = {case_id: run_case(cases[case_id]) for case_id in sorted({r["case_id"] for r in rows})}
    if replay:
        items = [(str(i), r["text"], cases[r["case_id"]]) for i, r in enumerate(rows)]
        replayed = replay_cases(items, home, gate=gate)
    else:
        replayed = [help_for([{"time": "1700000000", "event": r["text"]}], cases[r["case_id"]]["expect"])
                    for r in rows]
    styles: dict[str, list[int]] = {}
    misses = []
    for row, got in zip(rows, replayed, strict=True):
        same = same_help(live[row["case_id"]], got)
        styles.setdefault(row["style"], [0, 0])[0] += same
        styles[row["style"]][1] += 1
        if not same:
            misses.append({"case": row["case_id"], "style": row["style"], "text": row["text"], "offer": got["offer"],
                           "missing": got["missing"], "help": got["help"]})
    same_all = sum(s for s, _ in styles.values())
    # the phrasings that carry what the live path needs for its specific help (`carried`), and how many of them
    # replay helps as live
    helpable = [(row, got) for row, got in zip(rows, replayed, strict=True)
                if (part := carried(cases[row["case_id"]], row["text"]))["error"] and run_case(part)["ok"]]
    helped = sum(got["ok"] for _, got in helpable)
    # what the offer quotes, read as the person would: a line of the program's output
    quoted = [q for row, got in zip(rows, replayed, strict=True)
              if (q := quotes_the_program(got["offer"], cases[row["case_id"]])) is not None]
    return {"phrasings": len(rows), "same": same_all, "share": round(same_all / max(1, len(rows)), 3),
            "quotes": {"offers": len(quoted), "the_program_s": sum(quoted),
                       "share": round(sum(quoted) / max(1, len(quoted)), 3)},
            "carried": {"phrasings": len(helpable), "same": helped, "share": round(helped / max(1, len(helpable)), 3)},
            "live_ok": sum(v["ok"] for v in live.values()), "cases": len(live),
            "styles": {k: {"same": s, "of": n, "share": round(s / n, 3)} for k, (s, n) in sorted(styles.items())},
            "misses": misses}


def print_phrasings(report: dict, verbose: bool) -> None:
    for miss in report["misses"]:
        print(f"NO  {miss['case']:<14} {miss['style']:<16} {miss['text'][:150]}")
        if verbose:
            print(f"     offer: {miss['offer']}\n     missing: {miss['missing']}")
    print(f"\nlive: {report['live_ok']} of {report['cases']} cases get the specific next step")
    for style, s in report["styles"].items():
        print(f"  {style:<20} {s['same']} of {s['of']} ({s['share']:.0%})")
    print(f"{report['same']} of {report['phrasings']} phrasings ({report['share']:.0%}) get the same help in "
          "replay as live")
    c = report["carried"]
    print(f"{c['same']} of the {c['phrasings']} that carry what the live help needs ({c['share']:.0%}) get it in "
          "replay (the others leave out a line or the command the specific step needs)")
    q = report["quotes"]
    print(f"{q['the_program_s']} of the {q['offers']} offers about the error ({q['share']:.0%}) quote a line the "
          "program printed or the command run")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=Path, action="append", help="a folder of case files (repeat for several; "
                    "default bench/help_cases)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--replay", action="store_true", help="through `proactive replay --accept` (sessions, gate)")
    ap.add_argument("--no-gate", action="store_true", help="with --replay: every turn offers (the live bench's "
                    "view: what Accept gives once offered), not only where the gate says help is needed")
    ap.add_argument("--phrasings", type=Path, help="JSON lines of the cases worded as observation sentences: the "
                    "share whose replayed help is the same as live, overall and per style")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each offer and the help text")
    args = ap.parse_args()
    folders = args.cases or [ROOT / "bench" / "help_cases"]
    files = sorted(path for folder in folders for path in folder.glob("*.toml"))
    for folder in folders:
        if not any(folder.glob("*.toml")):
            sys.exit(f"{folder}: no *.toml case files")
    if len({path.stem for path in files}) < len(files):
        sys.exit(f"--cases: two case files share a name in {', '.join(map(str, folders))}: each case is named by its file's stem")
    with tempfile.TemporaryDirectory() as home:
        os.environ["PROACTIVE_HOME"] = home  # an empty history: the help comes from the diagnosis alone
        from proactive.watcher.store.database import Store

        Store().close()
        cases = [(f"{path.stem}:{i}", case) for path in files
                 for i, case in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get("case", []), 1)]
        if args.phrasings:
            report = compare_phrasings(read_phrasings(args.phrasings, dict(cases)), dict(cases), home,
                                       replay=args.replay, gate=not args.no_gate)
            if args.json:
                print(json.dumps(report, ensure_ascii=False, indent=1))
            else:
                print_phrasings(report, args.verbose)
            return
        if args.replay:
            results = replay_cases([(case_id, said_sentence(case), case) for case_id, case in cases], home,
                                   gate=not args.no_gate)
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
