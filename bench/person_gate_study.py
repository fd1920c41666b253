"""The person model's evidence gate, varied, measured prequentially as `proactive reward personal` measures it:
each (session, annotator) of the 8 recorded sessions as a person, every decision predicted before it is learned.
Prints accuracy from decision 1 and from decision 51 (shared and personal) and the worst person's loss.

    .venv/bin/python bench/person_gate_study.py [--data ../shared/data/proactivebench/reward_train.jsonl]

Variants: the shipped gate (sign test, z = 1), a stricter sign test (z = 1.5, 2, 2.5), and a sign test on
decayed counts (each earlier disagreement weighs `decay` times the next: recent evidence counts more, so a person
whose later decisions differ from their first loses trust again).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from proactive.assistant.person_model import PersonModel, Situation  # noqa: E402
from proactive.eval import personal  # noqa: E402
from proactive.models.reward import load_default  # noqa: E402
from proactive.models.reward_data import read_reward_rows  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "proactivebench" / "reward_train.jsonl"
RECORDED = ("code_11.json", "code_12.json", "code_14.json", "code_15.json", "writing_12.json", "writing_13.json",
            "writing_14.json", "writing_16.json")


@dataclass
class DecayedGate(PersonModel):
    """The sign test on exponentially decayed win and loss counts (a study variant, not shipped)."""

    decay: float = 1.0

    def learn(self, shared: float, situation: Situation, outcome: str | bool, ts: float = 0.0) -> None:
        wins, losses = self.wins, self.losses
        super().learn(shared, situation, outcome, ts)
        if (self.wins, self.losses) != (wins, losses):  # a disagreement: earlier evidence fades
            self.wins = wins * self.decay + (self.wins - wins)  # type: ignore[assignment]
            self.losses = losses * self.decay + (self.losses - losses)  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    args = parser.parse_args()
    rows = [r for r in read_reward_rows([Path(args.data)]) if r["session"] in RECORDED]
    model = load_default()
    people = personal.persons(rows, [model.score(r["obs"], r["pred_task"]) for r in rows])
    variants: dict[str, Callable[[], PersonModel]] = {"shipped (sign test, z 1)": PersonModel}
    for z in (1.5, 2.0, 2.5):
        variants[f"sign test, z {z}"] = lambda z=z: PersonModel(evidence_z=z)
    for decay in (0.9, 0.8):
        for z in (1.0, 1.5):
            variants[f"decayed counts {decay}, z {z}"] = lambda d=decay, z=z: DecayedGate(evidence_z=z, decay=d)
    print(f"{len(people)} persons, {sum(len(d) for d in people.values())} decisions\n")
    print("| gate | from 1: shared / personal | from 51: shared / personal | worst person |")
    print("|---|---|---|---|")
    for name, make in variants.items():
        r = personal.simulate(people, make)
        a, b = r["after"]["0"], r["after"]["50"]
        print(f"| {name} | {a['shared']:.3f} / {a['personal']:.3f} | {b['shared']:.3f} / {b['personal']:.3f} | "
              f"{r['worst_person_delta']:+.3f} |")


if __name__ == "__main__":
    main()
