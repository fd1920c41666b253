"""Running inference on a shared desktop: as many threads as there are cores nobody else is using right now, at
low priority.

llama.cpp's worker threads busy-wait for each other between steps. When other processes hold the cores (the
user's compiler, a browser, another model), a thread per core spends its time spinning and being preempted:
reported by a user's test on 2 cores beside two busy processes, predicting took 4.8x the idle latency and twice
the CPU seconds. So before each generation the number of threads is set to the cores that are free at this
instant (Linux: the kernel's count of runnable tasks in /proc/stat, which includes the calling thread; elsewhere
the one-minute load average), and the calling thread (whose scheduling the engine's threads inherit when it
creates them) runs as a batch job: SCHED_BATCH (Linux), which the kernel treats as CPU-bound and never lets
preempt another task when it wakes, so the person's interactive programs (editor, browser, terminal) get the
CPU first on every keystroke.

Why not a nice value: beside two CPU-bound processes on 2 cores (bench/busy_machine.py, 16 decisions), a
proposal took 2x its idle latency at nice 0, 2.4x at nice 1, 2.7x at nice 3, 5.5x at nice 5 and 14x at nice 10.
Niceness divides CPU time between CPU-bound processes: at nice 10 a proposal waits behind any compiler for
seconds, which is when the person may want help. SCHED_BATCH costs the person's interactive work nothing and
keeps a proposal under 2.5x its idle latency. NICE stays for platforms without SCHED_BATCH (and the benchmark's
--nice).
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

NICE = 0
PROC_STAT = Path("/proc/stat")
_niced: set[int] = set()


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def others_running() -> float:
    """How many other tasks want a core now (runnable tasks minus this thread)."""
    try:
        for line in PROC_STAT.read_text().splitlines():
            if line.startswith("procs_running "):
                return max(0.0, float(line.split()[1]) - 1)
    except (OSError, ValueError, IndexError):
        pass
    with contextlib.suppress(AttributeError, OSError):
        return os.getloadavg()[0]
    return 0.0


def threads_now(limit: int | None = None) -> int:
    """Threads for the next generation: the free cores, at least one, at most `limit` (default: all cores)."""
    total = limit or cores()
    return max(1, min(total, round(cores() - others_running())))


def lower_priority() -> None:
    """Make the calling thread a batch job once (Linux: per thread; elsewhere niceness of the process), so
    inference yields the CPU to interactive work."""
    tid = threading.get_native_id()
    if tid in _niced:
        return
    _niced.add(tid)
    with contextlib.suppress(AttributeError, OSError, PermissionError):
        current = os.getpriority(os.PRIO_PROCESS, tid)
        if current < NICE:
            os.setpriority(os.PRIO_PROCESS, tid, NICE)
    with contextlib.suppress(AttributeError, OSError, PermissionError):  # Linux; keeps the thread's niceness
        os.sched_setscheduler(tid, os.SCHED_BATCH, os.sched_param(0))
