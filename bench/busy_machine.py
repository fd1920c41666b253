"""Proposal latency and CPU seconds on a busy machine: idle, beside CPU hogs, beside a second model process.

The same decisions as `bench/proposal_latency.py` (the turns of the shared sessions where the need-first gate lets
the built-in model rank grounded offers), run three times: on an idle machine, beside one busy-looping process per
core, and beside another process running the same model in a loop. Each condition runs twice: with the CPU
sharing of `models/sharing.py` (threads for the free cores, SCHED_BATCH) and without it (a thread per core, normal
priority), so the table shows what sharing changes. CPU seconds are this process's own (user + system).
Target: latency <= 2.5x idle, and no more CPU seconds than idle.

    .venv/bin/python bench/busy_machine.py [--sessions DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bench_data import SESSIONS, need  # noqa: E402
from proactive.assistant.agent import Agent  # noqa: E402
from proactive.assistant.policy import Gate, Proactivity  # noqa: E402
from proactive.eval.sessions import load_session  # noqa: E402
from proactive.models import sharing  # noqa: E402
from proactive.models.registry import load_model  # noqa: E402
from proactive.models.reward import load_default  # noqa: E402

HOG = "while True: pass"
SECOND_MODEL = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                "from models.registry import load_model\n"
                "m = load_model('default')\n"
                "msgs = [{'role': 'user', 'content': 'Pick 1 or 2. ' * 40}]\n"
                "while True: m.rank_options(msgs, 2)\n")


def contexts(sessions: Path) -> list[list[dict[str, str]]]:
    """The contexts at which the live assistant would run the model (P(need) over the medium threshold)."""
    gate = Gate(load_default(), Proactivity.parse("medium"))
    out = []
    for path in sorted(sessions.glob("*.json")):
        observations = load_session(path)
        for i in range(len(observations)):
            if gate.worth_generating(observations[: i + 1]) is None:
                out.append(observations[: i + 1])
    return out


def measure(model, work: list[list[dict[str, str]]]) -> tuple[float, float, float]:
    """(p50 latency, p95 latency, CPU seconds of this process) over the decisions."""
    agent = Agent(model, k=3)
    latencies = []
    cpu0 = sum(os.times()[:2])
    for context in work:
        t0 = time.perf_counter()
        agent.predict(context)
        latencies.append(time.perf_counter() - t0)
    cpu = sum(os.times()[:2]) - cpu0
    latencies.sort()
    return statistics.median(latencies), latencies[int(0.95 * (len(latencies) - 1))], cpu


def child(sessions: Path, shared: bool, nice: int | None) -> None:
    """One measurement in a fresh process (a thread's niceness cannot be raised back without privileges)."""
    if nice is not None:
        sharing.NICE = nice
    work = contexts(sessions)
    model = load_model("default")
    if not shared:  # the old behaviour: a thread per core, normal priority
        model._share_cpu = lambda: model.llm._ctx.set_n_threads(sharing.cores(), sharing.cores())
    p50, p95, cpu = measure(model, work)
    print(json.dumps({"p50_s": round(p50, 3), "p95_s": round(p95, 3), "cpu_s": round(cpu, 2),
                      "decisions": len(work)}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=Path, default=SESSIONS)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--nice", type=int, help=f"niceness of inference with sharing on (default {sharing.NICE})")
    ap.add_argument("--child", choices=["on", "off"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    need(args.sessions, "--sessions")
    if args.child:
        child(args.sessions, args.child == "on", args.nice)
        return
    rows = []
    for condition, commands in (("idle", []), ("beside CPU hogs", [[sys.executable, "-c", HOG]] * sharing.cores()),
                                ("beside a second model", [[sys.executable, "-c", SECOND_MODEL]])):
        others = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in commands]
        try:
            time.sleep(3 if commands else 0)  # let them start (the second model loads in ~1 s)
            for shared in ("on", "off"):
                nice = ["--nice", str(args.nice)] if args.nice is not None else []
                out = subprocess.run([sys.executable, __file__, "--sessions", str(args.sessions), "--child", shared,
                                      *nice],
                                     capture_output=True, text=True, check=True)
                rows.append({"condition": condition, "sharing": shared, **json.loads(out.stdout)})
        finally:
            for p in others:
                p.kill()
                p.wait()
    idle = {r["sharing"]: r for r in rows if r["condition"] == "idle"}
    for r in rows:
        r["x_idle_p50"] = round(r["p50_s"] / idle[r["sharing"]]["p50_s"], 2)
    if args.json:
        print(json.dumps(rows))
        return
    print("| condition | CPU sharing | p50 | p95 | x idle p50 | CPU seconds |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['condition']} | {r['sharing']} | {r['p50_s']} s | {r['p95_s']} s | {r['x_idle_p50']} | "
              f"{r['cpu_s']} |")
    print(f"({rows[0]['decisions']} decisions each, each configuration in a fresh process)")


if __name__ == "__main__":
    main()
