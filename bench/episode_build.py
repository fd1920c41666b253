"""Episode building throughput from stored raw events (target: >= 100,000 events/s).

Writes N synthetic raw events (focus changes every ~40 events; typed text, hotkeys, clicks, scrolls, copies) to
a temporary database through the store, then times building all episodes: once reading from SQLite (what
`proactive episodes` and the watcher's recovery do) and once from events already in memory.

    .venv/bin/python bench/episode_build.py [--events 200000]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from proactive.watcher.episodes.builder import build_episodes  # noqa: E402
from proactive.watcher.events import CLICK, CLIPBOARD, HOTKEY, SCROLL, TEXT, WINDOW, RawEvent  # noqa: E402
from proactive.watcher.store.database import Store  # noqa: E402

APPS = [("Visual Studio Code", "client.py - proj - Visual Studio Code"), ("XTerm", "bash"),
        ("Firefox", "requests timeout - Google Search \u2014 Mozilla Firefox")]


def synthetic(n: int, seed: int = 1) -> list[RawEvent]:
    rng = random.Random(seed)
    out, ts = [], 1_700_000_000.0
    for i in range(n):
        ts += 0.3
        if i % 40 == 0:
            app, title = rng.choice(APPS)
            out.append(RawEvent("window", WINDOW, {"app": app, "title": f"{title} {i // 40 % 7}"}, ts=ts))
            continue
        r = rng.random()
        if r < 0.6:
            out.append(RawEvent("keyboard", TEXT, {"text": "import requests ", "erase": int(r < 0.05),
                                                   "enter": r < 0.2}, ts=ts))
        elif r < 0.75:
            out.append(RawEvent("mouse", CLICK, {"button": "left", "x": 10, "y": 20}, ts=ts))
        elif r < 0.85:
            out.append(RawEvent("mouse", SCROLL, {"dx": 0, "dy": -2, "count": 2}, ts=ts))
        elif r < 0.95:
            out.append(RawEvent("keyboard", HOTKEY, {"combo": "ctrl+s"}, ts=ts))
        else:
            out.append(RawEvent("clipboard", CLIPBOARD, {"text": "TimeoutError: timed out", "length": 23,
                                                         "truncated": False}, ts=ts))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=200_000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        events = synthetic(args.events)
        for i in range(0, len(events), 5000):
            store.add_events(events[i:i + 5000])
        t0 = time.perf_counter()
        episodes = build_episodes(store.iter_events())
        from_db = time.perf_counter() - t0
        rows = list(store.iter_events())
        t0 = time.perf_counter()
        build_episodes(rows)
        in_memory = time.perf_counter() - t0
        store.close()
    result = {"events": args.events, "episodes": len(episodes),
              "events_per_s_from_db": round(args.events / from_db),
              "events_per_s_in_memory": round(args.events / in_memory)}
    if args.json:
        print(json.dumps(result))
    else:
        print("| metric | value | target |\n|---|---|---|")
        print(f"| episode building, events/s (reading SQLite) | {result['events_per_s_from_db']:,} | >= 100,000 |")
        print(f"| episode building, events/s (in memory) | {result['events_per_s_in_memory']:,} | |")
        print(f"({result['events']:,} events -> {result['episodes']:,} episodes)")


if __name__ == "__main__":
    main()
