"""Reward-model latency per item: the shipped model (or `--rm R`) scoring each row of reward-format data one at a
time, one thread, as the gate scores an offer. Prints p50, p95 and max in milliseconds (target: <= 20 ms).

    .venv/bin/python bench/reward_latency.py [--data ../shared/data/proactivebench/reward_train.jsonl] [--rm default]
                                             [--repeat 3] [--json]

Without the shared data, the test fixture (`tests/fixtures/reward_small.jsonl`) is scored. Each item's time is
the best of `--repeat` runs (the machine's other work only ever adds time).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bench_data import LABELS  # noqa: E402
from proactive.eval.metrics import percentile  # noqa: E402
from proactive.models.registry import load_reward  # noqa: E402
from proactive.models.reward_data import read_reward_rows  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "reward_small.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(LABELS if LABELS.exists() else FIXTURE))
    parser.add_argument("--rm", default="default")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = read_reward_rows([Path(args.data)])
    model = load_reward(args.rm)
    times = []
    for row in rows:
        best = float("inf")
        for _ in range(max(1, args.repeat)):
            started = time.perf_counter()
            model.score(row["obs"], row["pred_task"])
            best = min(best, time.perf_counter() - started)
        times.append(best * 1000)
    result = {"rm": args.rm, "data": args.data, "items": len(times), "p50_ms": round(percentile(times, 0.5), 3),
              "p95_ms": round(percentile(times, 0.95), 3), "max_ms": round(max(times), 3)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"reward model {args.rm}: {len(times)} items of {args.data}, one at a time, best of {args.repeat}")
    print(f"p50 {result['p50_ms']:.2f} ms  p95 {result['p95_ms']:.2f} ms  max {result['max_ms']:.2f} ms "
          f"(target <= 20 ms)")


if __name__ == "__main__":
    main()
