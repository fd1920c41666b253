"""Page offers on the shared sessions, read as the person would get them: what Accept gives from the pages.

The 8 recorded ProactiveBench sessions name what the people searched and read, never an address, and the
originals are not at hand; `bench/session_pages/` holds stand-ins written for the benchmark (its README). This
serves them on loopback with the fake search engine of `tests/page_server.py` (results: the pages sharing words
with the query), writes a config.toml whose `search_engine` points at it into a temporary PROACTIVE_HOME, runs

    proactive replay SESSIONS --labels LABELS --accept --fetch --out OUT --json

once at every event and once with the live trigger's timing (`--as-live`), and prints for each (a) the moments the gate recognises as needing help (the summary's "need": tp + fp, an offer shown or
held back) against those where an offer is shown (its "need_shown": tp + fp), and the share (target >= 60%);
(b) each distinct shown offer over both: its session, the event, the offer, and what Accept gave (help.jsonl: the parts,
the first lines of the text); (c) the loopback requests (searches, pages), i.e. all the network the replay used.

    .venv/bin/python bench/session_pages.py [--sessions DIR] [--labels FILE] [--out DIR] [--lines N] [--json]
                                            [-- EXTRA REPLAY OPTIONS]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bench_data import LABELS, SESSIONS, need  # noqa: E402

PAGES = ROOT / "bench" / "session_pages"
PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
TARGET_SHARE = 0.60


def cli() -> list[str]:
    """The `proactive` command of this checkout's venv (else the module, with this Python)."""
    exe = ROOT / ".venv" / "bin" / "proactive"
    return [str(exe)] if exe.is_file() else [sys.executable, "-m", "proactive.app.cli"]


def replay(sessions: list[Path], labels: Path, out: Path, home: Path, extra: list[str]) -> dict[str, Any]:
    """Runs the replay with pages read through the loopback engine; its JSON summary."""
    env = {k: v for k, v in os.environ.items() if k not in PROXY_VARS}  # loopback only, never through a proxy
    env.update(PROACTIVE_HOME=str(home), NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    cmd = [*cli(), "replay", *map(str, sessions), "--labels", str(labels), "--accept", "--fetch",
           "--out", str(out), "--json", *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
    if done.returncode != 0:
        raise SystemExit(f"proactive replay failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def offers(out: Path, lines: int) -> list[dict[str, Any]]:
    """The distinct shown offers (per session, by their text), each with its event and what Accept gave."""
    events = {}
    for line in (out / "turns.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        events[(row["session"], row["index"])] = row["event"]
    seen: set[tuple[str, str]] = set()
    found = []
    for line in (out / "help.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        key = (row["session"], row["task"])
        if key in seen:
            continue
        seen.add(key)
        help_ = row["help"]
        text = [ln for ln in (help_.get("text") or "").splitlines() if ln.strip()]
        found.append({"session": row["session"], "index": row["index"],
                      "event": events.get((row["session"], row["index"]), ""), "offer": row["task"],
                      "parts": help_.get("parts") or [], "pages": help_.get("pages") or [],
                      "excerpt": text[:lines], "lines": len(text)})
    return found


def cut(text: str, limit: int, squeeze: bool = False) -> str:
    """`text` in at most `limit` characters; `squeeze`: its runs of white space as one space (not for code)."""
    text = " ".join(text.split()) if squeeze else text.rstrip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: the two timings replayed: every recorded event decided (the paper's protocol), and the live trigger's
#: (`replay --as-live`: the assistant runs when the tray would, never within the level's interval after an offer)
PROTOCOLS = {"every event": [], "live timing": ["--as-live"]}


def figures(summary: dict[str, Any]) -> dict[str, Any]:
    """(a) for one replay: the moments the gate recognises, those with an offer shown, the share."""
    need, shown = summary["need"], summary["need_shown"]
    recognised, at = need["tp"] + need["fp"], shown["tp"] + shown["fp"]
    return {"recognised": recognised, "shown": at, "share": round(at / recognised, 3) if recognised else 0.0,
            "target": TARGET_SHARE, "need": need, "need_shown": shown,
            "offers_at_need": summary.get("offers_at_need")}


def print_figures(name: str, f: dict[str, Any]) -> None:
    need, shown = f["need"], f["need_shown"]
    print(f"(a) {name}: moments the gate recognises as needing help (need tp+fp): {f['recognised']} "
          f"(tp {need['tp']}, fp {need['fp']})")
    print(f"    offers shown at them (need_shown tp+fp): {f['shown']} (tp {shown['tp']}, fp {shown['fp']})")
    print(f"    share shown: {f['share']:.0%} (target >= {TARGET_SHARE:.0%}) "
          f"{'ok' if f['share'] >= TARGET_SHARE else 'BELOW TARGET'}")
    at_need = f["offers_at_need"]
    if at_need:  # the same over every event, labelled or not, with the offers still on screen
        print(f"    all events: {at_need['recognised']} recognised, {at_need['shown']} shown "
              f"({at_need['shown_share']:.0%}), {at_need['on_screen']} with an offer on screen "
              f"(shown then or up to {at_need['on_screen_s']:.0f} s earlier, unanswered: "
              f"{at_need['on_screen_share']:.0%})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=Path, default=SESSIONS)
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--pages", type=Path, default=PAGES)
    ap.add_argument("--out", type=Path, help="keep the replays' output here, one folder per timing "
                                              "(default: a temporary folder)")
    ap.add_argument("--lines", type=int, default=6, help="lines of each help text shown (default 6)")
    ap.add_argument("--json", action="store_true", help="one JSON object: figures and offers")
    ap.add_argument("extra", nargs="*", help="more replay options, after --")
    args = ap.parse_args()
    need(args.sessions, "--sessions")
    need(args.labels, "--labels")
    sessions = sorted(args.sessions.glob("*.json"))
    if not sessions:
        sys.exit(f"{args.sessions}: no sessions (*.json)")
    from bench.page_server import page_server

    results: dict[str, dict[str, Any]] = {}
    found: list[dict[str, Any]] = []  # distinct offers over both timings, each with the timings that showed it
    with tempfile.TemporaryDirectory(prefix="session-pages-") as tmp, page_server(args.pages) as server:
        home = Path(tmp) / "home"
        home.mkdir()
        (home / "config.toml").write_text(f'search_engine = "{server.url}/search?q={{query}}"\n', encoding="utf-8")
        for name, options in PROTOCOLS.items():
            out = (args.out or Path(tmp) / "out") / name.replace(" ", "-")
            results[name] = figures(replay(sessions, args.labels, out, home, [*options, *args.extra]))
            for offer in offers(out, args.lines):
                same = next((o for o in found if (o["session"], o["offer"]) == (offer["session"], offer["offer"])),
                            None)
                if same is None:
                    found.append({**offer, "timings": [name]})
                else:
                    same["timings"].append(name)
        requests = list(server.requests)
    found.sort(key=lambda o: (o["session"], o["index"]))
    searches = sum(r.startswith("/search") for r in requests)
    summary = {"protocols": results, "offers": len(found),
               "requests": {"total": len(requests), "searches": searches, "pages": len(requests) - searches}}
    if args.json:
        print(json.dumps({**summary, "offers_shown": found}, ensure_ascii=False, indent=1))
        return
    for name, f in results.items():
        print_figures(name, f)
    print(f"\n(b) {len(found)} distinct shown offers over both timings, with what Accept gave:")
    for i, o in enumerate(found, 1):
        print(f"\n[{i}] {o['session']} event {o['index']} ({' and '.join(o['timings'])}): "
              f"{cut(o['event'], 150, squeeze=True)}")
        print(f"    offer: {o['offer']}")
        print(f"    gave: {', '.join(o['parts'])}; {len(o['pages'])} page(s) read; {o['lines']} line(s) of text")
        for line in o["excerpt"]:
            print("    | " + cut(line, 160))
    print(f"\n(c) loopback requests, both replays: {len(requests)} ({searches} searches, "
          f"{len(requests) - searches} pages)")


if __name__ == "__main__":
    main()
