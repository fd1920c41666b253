"""Watcher overhead on Wayland: a headless compositor, the AT-SPI source, typing into a Qt text field.

Starts a headless session of `--desktop` (sway: bench/wayland_session.py, wtype; kwin: bench/kwin_session.py,
KWin's fake input; gnome: bench/gnome_session.py, Mutter's RemoteDesktop, with Proactive's Shell extension
installed before the login), each with a session D-Bus and the accessibility bus, a small Qt window with a text
field (`tests/a11y_app.py` is the same window the tests use: QT_QPA_PLATFORM=wayland,
QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1), then `proactive watch --no-aw`, and for DURATION seconds types a steady
10 keys/s of words into the field. On Wayland there is no key logger: the typed text reaches the watcher only as
the accessibility bus's text-changed events. Reports the watcher's CPU (% of one core), its wake-ups per second (as
bench/watcher_overhead.py counts them), its peak RSS, and how many typed characters are in the raw store (text
rebuilt from the stored events). With --idle N, the same CPU and wake-ups over N seconds with no input first.

    .venv/bin/python bench/wayland_typing.py [--desktop sway|kwin|gnome] [--seconds 60] [--idle 30]
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.watcher_overhead import idle_cost, rebuild_typed, script, wakeups  # noqa: E402
from bench.wayland_session import wayland_session  # noqa: E402
from bench.xsession import wait_for  # noqa: E402

APP = ROOT / "tests" / "a11y_app.py"
TITLE = "bench form"


@contextmanager
def desktop(name: str) -> Iterator[Any]:
    """A running headless session of the named desktop (its harness: `env`, `procs`, `window`, `focus`, `type`)."""
    if name == "sway":
        with wayland_session() as session:
            yield session
    elif name == "kwin":
        from bench.kwin_session import kwin_session

        with kwin_session() as session:
            yield session
    else:
        from bench.gnome_session import install_extension, start_gnome

        session, stop = start_gnome(before_login=install_extension)
        try:
            yield session
        finally:
            session.close()
            stop()


def measure(seconds: float, keys_per_second: float, idle_seconds: float = 0.0,
            desktop_name: str = "sway") -> dict[str, float | bool | int | str]:
    home = Path(tempfile.mkdtemp(prefix="proactive-bench-"))
    with desktop(desktop_name) as wl:
        app = subprocess.Popen([sys.executable, str(APP), TITLE], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, start_new_session=True,
                               env=dict(wl.env, QT_QPA_PLATFORM="wayland", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1"))
        wl.procs.append(app)
        if app.stdout.readline().strip() != "ready":
            raise SystemExit("the Qt form did not start")
        wait_for(lambda: wl.window(TITLE), timeout=20, what="the Qt form")
        wl.focus(TITLE)
        watcher = subprocess.Popen([sys.executable, "-m", "proactive.app.cli", "watch", "--no-aw"],
                                   env=dict(wl.env, PROACTIVE_HOME=str(home)), cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wl.procs.append(watcher)
        log = home / "logs" / "proactive.log"
        wait_for(lambda: log.exists() and "watcher started" in log.read_text(), timeout=30, what="the watcher")
        if "accessibility (AT-SPI)" not in log.read_text().split("watcher started with sources:")[1].splitlines()[0]:
            raise SystemExit("the watcher did not start the AT-SPI source: " + log.read_text()[-1000:])
        time.sleep(2.0)  # start-up work is not typing overhead
        proc = psutil.Process(watcher.pid)
        idle = idle_cost(proc, idle_seconds) if idle_seconds > 0 else {}
        text = " ".join(script(int(seconds * keys_per_second)))  # one line: a text field has no Enter
        cpu0, woke0, t0 = proc.cpu_times(), wakeups(watcher.pid), time.monotonic()
        # the harness's own call per key (a D-Bus call, a Wayland request) takes some of each key's time
        typer = threading.Thread(target=wl.type, args=(text, int(1000 / keys_per_second)), daemon=True)
        typer.start()
        peak = 0
        while typer.is_alive():
            peak = max(peak, proc.memory_info().rss)
            time.sleep(0.5)
        elapsed = time.monotonic() - t0
        cpu1, woke1 = proc.cpu_times(), wakeups(watcher.pid)
        time.sleep(1.5)
        watcher.send_signal(signal.SIGTERM)
        watcher.wait(timeout=30)
    typed = rebuild_typed(home / "proactive.db", TITLE)
    accounted = sum(1 for a, b in zip(text, typed, strict=False) if a == b)
    cpu = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
    return {"desktop": desktop_name, "seconds": round(elapsed, 1), "characters_typed": len(text),
            "keys_per_second": round(len(text) / elapsed, 1),
            "cpu_percent_of_one_core": round(100 * cpu / elapsed, 2),
            "wakeups_per_second": round((woke1 - woke0) / elapsed, 1), "peak_rss_mb": round(peak / 2**20, 1),
            "characters_stored_percent": round(100 * accounted / len(text), 2), "exact_text_match": typed == text,
            **idle}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--desktop", choices=["sway", "kwin", "gnome"], default="sway")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--keys-per-second", type=float, default=10.0)
    ap.add_argument("--idle", type=float, default=0.0, help="seconds measured with no input first (0: none)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = measure(args.seconds, args.keys_per_second, args.idle, args.desktop)
    if args.json:
        print(json.dumps(result))
        return
    print("| metric | value | target |\n|---|---|---|")
    print(f"| watcher CPU on {args.desktop} with AT-SPI, % of one core | {result['cpu_percent_of_one_core']} | <= 1 |")
    print(f"| watcher wake-ups per second | {result['wakeups_per_second']} | |")
    if "idle_cpu_percent_of_one_core" in result:
        print(f"| idle: watcher CPU, % of one core | {result['idle_cpu_percent_of_one_core']} | |")
        print(f"| idle: watcher wake-ups per second | {result['idle_wakeups_per_second']} | |")
    print(f"| watcher peak RSS, MB | {result['peak_rss_mb']} | <= 60 |")
    print(f"| typed characters in the raw store, % | {result['characters_stored_percent']} | 100 |")
    print(f"({result['characters_typed']} characters ({result['keys_per_second']}/s) in {result['seconds']} s; "
          f"exact match: {result['exact_text_match']})")


if __name__ == "__main__":
    main()
