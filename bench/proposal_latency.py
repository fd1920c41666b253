"""Proposal latency with the default model (issue 3 benchmark), and our overhead over llama.cpp's own time.

Replays the recorded sessions in order, as the live loop would: at turn i the agent sees observations 0..i (the
KV cache holds the previous turn's prompt, as it does live) and generates its answer. Latency is from the call
(the trigger firing) to the decision being ready: generation plus the gate. Also reported: the time spent inside
llama-cpp-python (evaluating and sampling tokens) against the total, i.e. what our code adds.

    .venv/bin/python bench/proposal_latency.py [--sessions ../shared/data/proactivebench/sessions] [--k 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.agent import Agent  # noqa: E402
from assistant.policy import Gate, Proactivity  # noqa: E402
from eval.metrics import percentile  # noqa: E402
from eval.sessions import load_session  # noqa: E402
from models.registry import load_model  # noqa: E402
from models.reward import load_default  # noqa: E402

DEFAULT_SESSIONS = ROOT.parent / "shared" / "data" / "proactivebench" / "sessions"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=Path, default=DEFAULT_SESSIONS)
    ap.add_argument("--model", default="default")
    ap.add_argument("--k", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    files = sorted(args.sessions.glob("*.json"))
    if not files:
        sys.exit(f"no sessions in {args.sessions}")
    model = load_model(args.model)
    gate = Gate(load_default(), Proactivity.parse("medium"))  # the shipped reward model, as `--rm default`
    latencies, engine, total, gate_silent, decisions = [], 0.0, 0.0, [], []
    turns = 0
    for path in files:
        observations = load_session(path)
        agent = Agent(model, k=args.k)  # a new session starts with a new prompt history
        for i in range(len(observations)):
            context = observations[: i + 1]
            t0 = time.perf_counter()
            early = gate.worth_generating(context)
            t_early = time.perf_counter() - t0
            prediction = agent.predict(context)
            t0 = time.perf_counter()
            gate.decide(context, prediction.candidates)
            latencies.append(prediction.latency_s + time.perf_counter() - t0)
            # live, the gate scores first and generates only when a task could be shown
            decisions.append(t_early if early is not None else t_early + latencies[-1])
            engine += prediction.engine_s
            total += prediction.latency_s
            turns += 1
            if early is not None:
                gate_silent.append(early)
    result = {
        "sessions": len(files), "turns": turns, "k": args.k,
        "latency_p50_s": round(statistics.median(latencies), 3),
        "latency_p95_s": round(percentile(latencies, 0.95), 3),
        "overhead_percent": round(100 * (total - engine) / engine, 1),
        "decision_p50_s": round(statistics.median(decisions), 4),
        "decision_p95_s": round(percentile(decisions, 0.95), 3),
        "would_be_silent_before_generation": len(gate_silent),
    }
    if args.json:
        print(json.dumps(result))
        return
    print("| metric | value | target |\n|---|---|---|")
    print(f"| proposal latency p50 (k={args.k}) | {result['latency_p50_s']} s | <= 1.0 s |")
    print(f"| proposal latency p95 (k={args.k}) | {result['latency_p95_s']} s | <= 2.5 s |")
    print(f"| our overhead over llama.cpp's own time | {result['overhead_percent']}% | <= 10% |")
    print(f"| live decision latency p50 / p95 (gate first, generate only when needed) | "
          f"{result['decision_p50_s']} s / {result['decision_p95_s']} s | |")
    print(f"({result['turns']} turns over {result['sessions']} sessions; the gate would have stayed silent "
          f"without generating at {result['would_be_silent_before_generation']} of them)")


if __name__ == "__main__":
    main()
