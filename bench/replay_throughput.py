"""Replay throughput: how fast `proactive replay` gets through recorded sessions.

Runs `proactive replay` as a researcher would, on every session in SESSIONS (default: the 8 shared
ProactiveBench sessions), with the default model and the shipped reward model as gate and judge. Each run
starts with an empty model-call cache, so the number is the cold cost; a second run over the same cache
measures the warm path (every model call answered from the cache), which is what re-running a report costs.

    .venv/bin/python bench/replay_throughput.py [--sessions DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bench_data import SESSIONS, need  # noqa: E402


def replay(files: list[Path], cache: Path, home: Path) -> tuple[float, dict]:
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "proactive.app.cli", "replay", *map(str, files), "--cache", str(cache),
                          "--json"], capture_output=True, text=True, cwd=ROOT,
                         env={"PATH": "/usr/bin:/bin", "PROACTIVE_HOME": str(home)})
    elapsed = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"proactive replay failed ({out.returncode}): {out.stderr[-2000:]}")
    return elapsed, json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=Path, default=SESSIONS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    need(args.sessions, "--sessions")
    files = sorted(args.sessions.glob("*.json"))
    if not files:
        sys.exit(f"no sessions in {args.sessions}")
    with tempfile.TemporaryDirectory(prefix="proactive-bench-") as tmp:
        home, cache = Path(tmp) / "home", Path(tmp) / "replay-cache.db"
        home.mkdir()
        cold, summary = replay(files, cache, home)
        warm, _ = replay(files, cache, home)
    turns = summary["events"]
    result = {"sessions": len(files), "turns": turns, "cold_s": round(cold, 1), "warm_s": round(warm, 1),
              "cold_turns_per_s": round(turns / cold, 2), "warm_turns_per_s": round(turns / warm, 1)}
    if args.json:
        print(json.dumps(result))
        return
    print("| metric | value |\n|---|---|")
    print(f"| replay, cold (every model call made), turns/s | {result['cold_turns_per_s']} "
          f"({result['turns']} turns of {result['sessions']} sessions in {result['cold_s']} s) |")
    print(f"| replay, warm (model calls from the cache), turns/s | {result['warm_turns_per_s']} "
          f"({result['warm_s']} s, mostly start-up) |")


if __name__ == "__main__":
    main()
