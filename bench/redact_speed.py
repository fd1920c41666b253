"""Redaction speed: short lines per second (what typed text and titles cost) and the worst 100 kB input of the
test suite's pathological set (what a large clipboard costs), in CPU seconds. The tests keep only a loose CPU
budget against runaway (backtracking) cost; the figures live here.

    .venv/bin/python bench/redact_speed.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from proactive.watcher.redact import redact  # noqa: E402
from tests.test_redact import LONG_INPUTS, short_lines  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="One JSON object instead of lines.")
    args = parser.parse_args()
    lines = short_lines()
    redact("warm up")
    n, started = 0, time.process_time()
    while n < 50_000:
        for line in lines:
            redact(line)
        n += len(lines)
    rate = n / (time.process_time() - started)
    worst = (0.0, "")
    for name, text in LONG_INPUTS.items():
        started = time.process_time()
        redact(text)
        worst = max(worst, (time.process_time() - started, name))
    result = {"short_lines_per_s": round(rate), "worst_100kb_cpu_s": round(worst[0], 3), "worst_input": worst[1]}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"short lines: {result['short_lines_per_s']:,}/s (CPU); worst 100 kB input: "
              f"{result['worst_100kb_cpu_s']} CPU s ({result['worst_input']})")


if __name__ == "__main__":
    main()
