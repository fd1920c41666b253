"""Watcher overhead under a steady synthetic input stream.

Starts Xvfb + openbox and an xterm, starts `proactive watch --no-aw`, then for DURATION seconds xdotool types a
steady 10 keystrokes/s (words and Enter) while an XTest client moves the pointer 30 times/s. Reports the watcher
process's CPU (% of one core), its wake-ups (voluntary context switches of all its threads, per second) and peak
RSS, and how many injected keystrokes are accounted for in the stored episodes (text rebuilt from each episode's
raw events). With --idle N, the same CPU and wake-ups over N seconds with no input first, and over N seconds more
at the end, after a word is left unfinished (typed text held in memory, waiting for its next key).

    .venv/bin/python bench/watcher_overhead.py [--seconds 60] [--idle 30]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.xsession import start_x, wait_for  # noqa: E402
from proactive.watcher.store.database import Store  # noqa: E402

WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
         "quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def script(n_keys: int, seed: int = 7) -> list[str]:
    """Lines of words (each line ends with Enter) totalling about n_keys keystrokes, Enter included."""
    rng = random.Random(seed)
    lines, total = [], 0
    while total < n_keys:
        line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 8)))
        lines.append(line)
        total += len(line) + 1
    return lines


def mover(env: dict[str, str], rate: float, stop: threading.Event) -> int:
    import Xlib.display
    from Xlib import X
    from Xlib.ext import xtest

    os.environ["DISPLAY"] = env["DISPLAY"]
    d = Xlib.display.Display(env["DISPLAY"])
    n, t = 0, time.monotonic()
    while not stop.is_set():
        xtest.fake_input(d, X.MotionNotify, x=200 + (n * 7) % 600, y=200 + (n * 3) % 300)
        d.sync()
        n += 1
        t += 1.0 / rate
        time.sleep(max(0.0, t - time.monotonic()))
    d.close()
    return n


def wakeups(pid: int) -> int:
    """Voluntary context switches of all the threads of process `pid` (Linux /proc): each is a sleep that ended,
    so their count over a period is how often the process woke up."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
        except OSError:  # the thread ended meanwhile
            continue
        total += int(status.split("voluntary_ctxt_switches:")[1].split()[0])
    return total


def thread_times(pid: int) -> dict[int, tuple[int, int]]:
    """Each thread's time on a CPU (ns, /proc/PID/task/TID/schedstat) and its wake-ups (voluntary switches)."""
    times = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            run_ns = int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0])
            status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
        except OSError:  # the thread ended meanwhile
            continue
        times[int(tid)] = (run_ns, int(status.split("voluntary_ctxt_switches:")[1].split()[0]))
    return times


def idle_cost(proc: psutil.Process, seconds: float) -> dict[str, float]:
    """The process's CPU (% of one core) and wake-ups per second over `seconds` of doing nothing."""
    cpu0, woke0 = proc.cpu_times(), wakeups(proc.pid)
    time.sleep(seconds)
    cpu1, woke1 = proc.cpu_times(), wakeups(proc.pid)
    cpu = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
    return {"idle_cpu_percent_of_one_core": round(100 * cpu / seconds, 3),
            "idle_wakeups_per_second": round((woke1 - woke0) / seconds, 1)}


def rebuild_typed(db: Path, title: str) -> str:
    """The text typed in the window `title`, rebuilt from the TEXT raw events behind its episodes."""
    store = Store(db, readonly=True)
    out = []
    for ep in store.episodes():
        if ep["title"] != title:
            continue
        line = ""
        for _, e in store.iter_events(after_id=ep["first_raw_id"] - 1):
            if e.kind != "text":
                continue
            if e.ts > ep["end"] + 5:
                break
            if e.data.get("erase"):
                line = line[: len(line) - e.data["erase"]]
            line += e.data.get("text", "")
            if e.data.get("enter"):
                out.append(line)
                line = ""
        if line:
            out.append(line)
        break
    store.close()
    return "\n".join(out)


def turn_on_accessibility(env: dict[str, str], home: Path, buses: list[subprocess.Popen]) -> dict[str, str]:
    """A private session bus with the AT-SPI bus on it, toolkit accessibility turned on there as the watcher's
    `proactive accessibility on` does (watcher.atspi.set_toolkit_accessibility); the environment for the watcher
    and the application (no QT_LINUX_ACCESSIBILITY_ALWAYS_ON: Qt follows the setting)."""
    from bench.wayland_session import _start_atspi, start_private_bus
    from proactive.watcher.capture.atspi import set_toolkit_accessibility, toolkit_accessibility

    folder = home / "bus"
    folder.mkdir()
    bus, address = start_private_bus(folder, env)
    buses.append(bus)
    # GSettings in memory: the launcher keeps the setting there, not in this machine's own dconf
    env = dict(env, DBUS_SESSION_BUS_ADDRESS=address, NO_AT_BRIDGE="0", GSETTINGS_BACKEND="memory")
    launcher = _start_atspi(env)
    if launcher is None:
        raise SystemExit("at-spi2-core is not installed: apt-get install at-spi2-core")
    buses.append(launcher)
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
    problem = set_toolkit_accessibility(True)
    if problem or not toolkit_accessibility():
        raise SystemExit(f"accessibility could not be turned on: {problem}")
    return env


def open_window(session: Any, env: dict[str, str], title: str, into: str) -> subprocess.Popen | None:
    """The window typed into, focused: an xterm running cat, or the Qt text field of tests/a11y_app.py (returned,
    so its own CPU is measured too)."""
    app = None
    if into == "qt":
        app = subprocess.Popen([sys.executable, str(ROOT / "tests" / "a11y_app.py"), title], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        session.procs.append(app)
        assert app.stdout is not None and app.stdout.readline().strip() == "ready"
        wid = wait_for(lambda: session._find(title), timeout=20, what="the Qt window")
    else:
        wid = session.start_xterm(title, command=["cat"])
    session.activate(wid)
    return app


def accounting(typed: str, text: str, unfinished: str, into: str) -> tuple[str, str, int, int]:
    """(typed, injected, keystrokes accounted for, keystrokes): the stored text against what was typed, key by
    key; every character typed, and each Enter (the newlines between lines plus the final one)."""
    injected = text + unfinished if unfinished else text.rstrip("\n")
    if into == "qt":  # a single-line field: Enter inserts nothing there, the lines run on
        injected, typed = injected.replace("\n", ""), typed.replace("\n", "")
    accounted = sum(1 for a, b in zip(injected, typed, strict=False) if a == b)
    keystrokes = len(text) + len(unfinished)
    accounted += keystrokes - len(injected) if typed == injected else 0  # the last Enter, when stripped
    return typed, injected, accounted, keystrokes


def print_table(result: dict[str, Any], idle: dict[str, Any], args: argparse.Namespace) -> None:
    """The figures as the README's table rows, with the busiest threads and what was injected."""
    print("| metric | value | target |\n|---|---|---|")
    where = f"{', accessibility on' if args.a11y else ''}, typing into {'a Qt field' if args.into == 'qt' else 'an xterm'}"
    print(f"| watcher CPU, % of one core{where} | "
          f"{result['cpu_percent_of_one_core']} | <= 0.4 |")
    print(f"| watcher wake-ups per second | {result['wakeups_per_second']} | |")
    if idle:
        print(f"| idle: watcher CPU, % of one core | {idle['idle_cpu_percent_of_one_core']} | |")
        print(f"| idle: watcher wake-ups per second | {idle['idle_wakeups_per_second']} | |")
        print(f"| idle after a word left unfinished: CPU, % of one core | "
              f"{idle['idle_cpu_percent_of_one_core_mid_word']} | |")
        print(f"| idle after a word left unfinished: wake-ups per second | "
              f"{idle['idle_wakeups_per_second_mid_word']} | |")
    print(f"| watcher peak RSS, MB | {result['peak_rss_mb']} | <= 60 |")
    if "app_cpu_percent_of_one_core" in result:
        print(f"| the Qt application typed into, CPU % of one core | {result['app_cpu_percent_of_one_core']} | |")
    print(f"| injected keystrokes accounted for, % | {result['keystrokes_accounted_percent']} | 100 |")
    busy = ", ".join(f"{ms} ms ({woke}/s)" for ms, woke in result["threads"] if ms >= 1)
    print(f"(threads on a CPU, busiest first, with their wake-ups: {busy})")
    print(f"({result['keystrokes_injected']} keystrokes ({result['keys_per_second']}/s) and "
          f"{result['moves_injected']} pointer moves in {result['seconds']} s)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--keys-per-second", type=float, default=10.0)
    ap.add_argument("--moves-per-second", type=float, default=30.0)
    ap.add_argument("--idle", type=float, default=0.0, help="seconds measured with no input first (0: none)")
    ap.add_argument("--a11y", action="store_true",
                    help="with accessibility turned on (a session bus, the AT-SPI bus, org.a11y.Status.IsEnabled as "
                         "`proactive accessibility on` sets it)")
    ap.add_argument("--into", choices=("xterm", "qt"), default="xterm",
                    help="the window typed into: an xterm (default) or a Qt text field (on the bus with --a11y; its "
                         "own CPU is reported too: what accessibility costs it)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    session, stop_x = start_x()
    home = Path(tempfile.mkdtemp(prefix="proactive-bench-"))
    env = dict(session.env, PROACTIVE_HOME=str(home))
    buses: list[subprocess.Popen] = []
    try:
        title = "bench editor"
        if args.a11y:
            env = turn_on_accessibility(env, home, buses)
        app = open_window(session, env, title, args.into)
        watcher = subprocess.Popen([sys.executable, "-m", "proactive.app.cli", "watch", "--no-aw"], env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        log = home / "logs" / "proactive.log"
        wait_for(lambda: log.exists() and "watcher started" in log.read_text(), timeout=30, what="watcher")
        time.sleep(2.0)  # let start-up work finish before measuring
        proc = psutil.Process(watcher.pid)
        idle = idle_cost(proc, args.idle) if args.idle > 0 else {}
        lines = script(int(args.seconds * args.keys_per_second))
        text = "\n".join(lines) + "\n"
        stop = threading.Event()
        moves = {"n": 0}
        mthread = threading.Thread(target=lambda: moves.update(n=mover(session.env, args.moves_per_second, stop)))
        typed_into = psutil.Process(app.pid) if app is not None else None  # what accessibility costs the app
        app0 = typed_into.cpu_times() if typed_into else None
        cpu0, woke0, threads0 = proc.cpu_times(), wakeups(watcher.pid), thread_times(watcher.pid)
        t0 = time.monotonic()
        mthread.start()
        # measured here: `xdotool type --delay D` types one key per D/2 ms
        typer = subprocess.Popen(["xdotool", "type", "--delay", str(int(2000 / args.keys_per_second)), "--file",
                                  "-"], env=session.env, stdin=subprocess.PIPE)
        typer.stdin.write(text.encode())
        typer.stdin.close()
        peak_rss = 0
        while typer.poll() is None:
            peak_rss = max(peak_rss, proc.memory_info().rss)
            time.sleep(0.5)
        elapsed = time.monotonic() - t0
        cpu1, woke1, threads1 = proc.cpu_times(), wakeups(watcher.pid), thread_times(watcher.pid)
        app1 = typed_into.cpu_times() if typed_into else None
        stop.set()
        mthread.join()
        time.sleep(1.5)
        unfinished = ""
        if idle:  # and with a word left unfinished ("git " is stored, "comm" waits for a key)
            unfinished = "git comm"
            subprocess.run(["xdotool", "type", "--delay", "100", unfinished], env=session.env, check=True)
            time.sleep(1.5)
            idle.update({f"{k}_mid_word": v for k, v in idle_cost(proc, args.idle).items()})
        watcher.send_signal(signal.SIGTERM)
        watcher.wait(timeout=30)
        cpu_s = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
        typed, injected, accounted, keystrokes = accounting(rebuild_typed(home / "proactive.db", title), text,
                                                            unfinished, args.into)
        result = {
            "seconds": round(elapsed, 1),
            "keys_per_second": round(len(text) / elapsed, 1),
            "keystrokes_injected": len(text),
            "moves_injected": moves["n"],
            "cpu_percent_of_one_core": round(100 * cpu_s / elapsed, 2),
            "wakeups_per_second": round((woke1 - woke0) / elapsed, 1),
            "peak_rss_mb": round(peak_rss / 2**20, 1),
            **({"app_cpu_percent_of_one_core": round(100 * ((app1.user + app1.system) - (app0.user + app0.system))
                                                     / elapsed, 2)} if app0 and app1 else {}),
            # every character typed, and each Enter (the newlines between lines plus the final one)
            "keystrokes_accounted_percent": round(100 * accounted / keystrokes, 2),
            "exact_text_match": typed == injected,
            # per thread (by id: Python names none for the OS): ms on a CPU and wake-ups per second, busiest first
            "threads": sorted(([round((run - threads0.get(tid, (0, 0))[0]) / 1e6, 1),
                                round((woke - threads0.get(tid, (0, 0))[1]) / elapsed, 1)]
                               for tid, (run, woke) in threads1.items()), reverse=True),
            **idle,
        }
    finally:
        stop_x()
        for bus in buses:
            os.killpg(bus.pid, signal.SIGTERM)
            bus.wait(10)
    if args.json:
        print(json.dumps(result))
    else:
        print_table(result, idle, args)

if __name__ == "__main__":
    main()
