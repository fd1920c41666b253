"""Need detection through the whole pipeline, on sessions the learned parts were not trained on.

For each recorded session: train the reward model and the need model (`proactive reward train`) on the labelled rows
of every *other* session, then `proactive replay` that session with the fold's artefact as the gate, the default
model, proactivity medium, and the human labels. The folds' confusion counts are summed into one precision,
recall, F1 and FPR of speaking against needing help. Also prints every shown task with its last three events,
so anyone can read what the person would have seen.

    .venv/bin/python bench/need_cv.py [--sessions DIR] [--labels FILE] [--proactivity medium] [--json] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bench_data import LABELS, SESSIONS, need  # noqa: E402

PROACTIVE = str(ROOT / ".venv" / "bin" / "proactive")


def run(*args: str) -> str:
    out = subprocess.run([PROACTIVE, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"proactive {args[0]} failed: {out.stderr.strip()[-400:]}")
    return out.stdout


def scores(totals: dict[str, int]) -> dict[str, float | int]:
    """Precision, recall, F1 and FPR of summed confusion counts."""
    tp, fp, tn, fn = (totals[k] for k in ("tp", "fp", "tn", "fn"))
    precision, recall = tp / max(1, tp + fp), tp / max(1, tp + fn)
    return {**totals, "precision": round(precision, 3), "recall": round(recall, 3),
            "f1": round(2 * precision * recall / max(1e-9, precision + recall), 3),
            "fpr": round(fp / max(1, fp + tn), 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=Path, default=SESSIONS)
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--proactivity", default="medium")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--keep", type=Path, help="keep each fold's artefact and replay (turns.jsonl, report) here")
    args = ap.parse_args()
    need(args.sessions, "--sessions")
    need(args.labels, "--labels")
    rows = [json.loads(line) for line in args.labels.read_text(encoding="utf-8").splitlines() if line.strip()]
    totals = {"tp": 0, "fp": 0, "tn": 0, "fn": 0}
    shown_totals = dict(totals)  # offers shown only (not the needs held back or with nothing new to give)
    shown: list[dict] = []
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or Path(scratch)
        tmp.mkdir(parents=True, exist_ok=True)
        for session in sorted(args.sessions.glob("*.json")):
            train = Path(tmp, f"train-{session.stem}.jsonl")
            train.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows
                                     if r.get("session") != session.name), encoding="utf-8")
            artefact = Path(tmp, f"rm-{session.stem}.json")
            run("rm", "train", "--data", str(train), "--out", str(artefact))
            out_dir = Path(tmp, f"replay-{session.stem}")
            result = json.loads(run("replay", str(session), "--labels", str(args.labels), "--rm", str(artefact),
                                    "--proactivity", args.proactivity, "--cache", str(Path(tmp, "cache.db")),
                                    "--out", str(out_dir), "--json"))
            for key in totals:
                totals[key] += result["need"][key]
                shown_totals[key] += result["need_shown"][key]
            observations = [t["observation"] for t in json.loads(session.read_text(encoding="utf-8"))]
            for line in (out_dir / "turns.jsonl").read_text(encoding="utf-8").splitlines():
                turn = json.loads(line)
                if turn["shown"]:
                    last3 = [o["event"] for o in observations[max(0, turn["index"] - 2): turn["index"] + 1]]
                    shown.append({"session": session.name, "index": turn["index"], "task": turn["shown"],
                                  "p_need": turn["p_need"], "need": turn["need"], "last_events": last3})
    summary = {**scores(totals), "shown": len(shown)}
    strict = scores(shown_totals)
    if args.json:
        print(json.dumps({"need": summary, "need_shown": strict, "shown": shown}, ensure_ascii=False))
        return
    print("| moments counted | need precision | need recall | need F1 | need FPR |\n|---|---|---|---|---|")
    print(f"| need recognised (an offer shown, or the gate would have shown one: held back by the memory or "
          f"nothing new to give) | {summary['precision']} | {summary['recall']} | {summary['f1']} | {summary['fpr']} |")
    print(f"| an offer shown | {strict['precision']} | {strict['recall']} | {strict['f1']} | {strict['fpr']} |")
    print(f"({len(shown)} tasks shown)")
    for s in shown:
        print(f"\n{s['session']} #{s['index']} (P(need) {s['p_need']:.2f}, needed: {s['need']}): {s['task']}")
        for event in s["last_events"]:
            print(f"    - {event}")


if __name__ == "__main__":
    main()
