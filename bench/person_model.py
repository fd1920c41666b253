"""Cost of the person model per decision: predicting (P(accept), P(need)) and learning one decision, over a
person's first 1,000 decisions (the adjustments grow with the kinds, activities and applications met), and the
same with the situation read from the context (grounding, the cost `decision.choose` adds when it is trusted).

    .venv/bin/python bench/person_model.py [--data tests/fixtures/reward_small.jsonl]

Prints one table row per measure for the README."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from proactive.assistant.person_model import ACCEPTED, OUTCOMES, REJECTED, PersonModel, Situation
from proactive.models.reward_data import read_reward_rows

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT / "tests" / "fixtures" / "reward_small.jsonl"))
    parser.add_argument("--decisions", type=int, default=1000)
    args = parser.parse_args()
    rows = read_reward_rows([args.data])
    rng = random.Random(0)
    model = PersonModel()
    model.trusted = True  # the personal path is the one timed
    outcomes = list(OUTCOMES)
    bare, grounded = [], []
    for i in range(args.decisions):
        row = rows[i % len(rows)]
        shared = rng.random()
        started = time.perf_counter()
        situation = Situation.of(row["obs"], row["pred_task"] or "Explain the error")
        middle = time.perf_counter()
        model.need(shared, situation.activity, situation.app)
        model.shows(model.p_accept(shared, situation), 0.5, model.explore_chance(shared, situation, 0.5))
        model.learn(shared, situation, rng.choice(outcomes) if i % 3 else (ACCEPTED, REJECTED)[i % 2], float(i))
        done = time.perf_counter()
        bare.append((done - middle) * 1000)
        grounded.append((done - started) * 1000)
    print("| measure | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|")
    for name, xs in (("person model: predict + learn one decision", bare),
                     ("with the situation read from the context", grounded)):
        xs.sort()
        print(f"| {name} | {statistics.median(xs):.3f} | {xs[int(0.95 * len(xs))]:.3f} | {xs[-1]:.3f} |")
    print(f"({args.decisions} decisions, {len(model.names)} adjustments at the end)")


if __name__ == "__main__":
    main()
