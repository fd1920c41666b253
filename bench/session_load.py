"""How long `load_session` takes on a large recorded session (target: linear in size).

Writes a ProactiveBench-format session of about SIZE megabytes (default 50; one turn per line, realistic event
sentences) and a `proactive episodes --json` session of the same size to a temporary folder, then times
`eval.sessions.load_session` on each (best of 3), and on a quarter of the size to show the growth is linear.

    .venv/bin/python bench/session_load.py [SIZE_MB]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from proactive.eval.sessions import load_session  # noqa: E402

EVENT = ("The user switches to client.py in Visual Studio Code. The user types 'resp = requests.get(url, "
         "timeout=5)' and presses Enter in client.py in Visual Studio Code. Turn {i}.")


def write(folder: Path, megabytes: float) -> tuple[Path, Path]:
    """A ProactiveBench list file and an episodes-JSONL file of about `megabytes` each."""
    target = int(megabytes * 1_000_000)
    bench, lines = folder / f"bench_{megabytes:g}.json", folder / f"lines_{megabytes:g}.jsonl"
    size, i = 0, 0
    with bench.open("w", encoding="utf-8") as fb, lines.open("w", encoding="utf-8") as fl:
        fb.write("[\n")
        while size < target:
            obs = {"time": f"{1763800000 + i * 7.5:.3f}", "event": EVENT.format(i=i)}
            turn = json.dumps({"observation": obs, "agent_response": []}, ensure_ascii=False)
            fb.write(("" if i == 0 else ",\n") + turn)
            fl.write(json.dumps(obs, ensure_ascii=False) + "\n")
            size += len(turn) + 2
            i += 1
        fb.write("\n]\n")
    return bench, lines


def best_of(path: Path, n: int = 3) -> tuple[float, int]:
    times, turns = [], 0
    for _ in range(n):
        start = time.perf_counter()
        turns = len(load_session(path))
        times.append(time.perf_counter() - start)
    return min(times), turns


def main() -> None:
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else 50.0
    with tempfile.TemporaryDirectory() as tmp:
        for size in (megabytes / 4, megabytes):
            for path in write(Path(tmp), size):
                seconds, turns = best_of(path)
                mb = path.stat().st_size / 1e6
                print(f"{path.name:<22} {mb:7.1f} MB  {turns:8d} turns  {seconds:6.2f} s  ({mb / seconds:.0f} MB/s)")


if __name__ == "__main__":
    main()
