"""Running inference on a shared desktop: as many threads as there are cores nobody else is using right now, at
low priority.

llama.cpp's worker threads busy-wait for each other between steps. When other processes hold the cores (the
user's compiler, a browser, another model), a thread per core spends its time spinning and being preempted:
reported by a user's test on 2 cores beside two busy processes, predicting took 4.8x the idle latency and twice
the CPU seconds. So before each generation the number of threads is set to the cores that are free at this
instant (Linux: the kernel's count of runnable tasks in /proc/stat less this process's own runnable threads;
elsewhere the one-minute load average), and the calling thread (whose scheduling the engine's threads inherit when it
creates them) runs as a batch job: SCHED_BATCH (Linux), which the kernel treats as CPU-bound and never lets
preempt another task when it wakes, so the person's interactive programs (editor, browser, terminal) get the
CPU first on every keystroke.

Why not a nice value: beside two CPU-bound processes on 2 cores (bench/busy_machine.py, 16 decisions), a
proposal took 2x its idle latency at nice 0, 2.4x at nice 1, 2.7x at nice 3, 5.5x at nice 5 and 14x at nice 10.
Niceness divides CPU time between CPU-bound processes: at nice 10 a proposal waits behind any compiler for
seconds, which is when the person may want help. SCHED_BATCH costs the person's interactive work nothing and
keeps a proposal under 2.5x its idle latency. NICE stays for platforms without SCHED_BATCH (and the benchmark's
--nice).

And the threads wait for each other asleep (`passive_waits`: OpenMP's PASSIVE policy, where its default spins):
beside one CPU-bound process on 2 cores, 400 prompt tokens and 30 more evaluated twice with 2 threads took 13 s
and 14 CPU seconds passive against 17 to 23 s and 20 to 26 CPU seconds spinning; on an idle machine both took 7 s.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

NICE = 0
PROC_STAT = Path("/proc/stat")
PROC_TASKS = Path("/proc/self/task")
_niced: set[int] = set()


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def passive_waits() -> None:
    """Called before llama.cpp is loaded (its OpenMP runtime reads the policy once): its threads sleep while they
    wait for each other instead of spinning, unless OMP_WAIT_POLICY is set already (the person's choice)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def own_running() -> int:
    """This process's runnable threads (Linux), the calling thread included. llama.cpp's OpenMP workers spin for
    a while after each evaluation: counted as "others", they halved the threads of the next proposal (16 of 42
    proposals of bench/proposal_latency.py ran on one thread on an idle machine, 1.2 s against 0.73 s)."""
    running = 0
    with contextlib.suppress(OSError):
        for task in PROC_TASKS.iterdir():
            with contextlib.suppress(OSError, IndexError):
                # the state follows the command name, which is in parentheses and may hold spaces
                if (task / "stat").read_text().rsplit(")", 1)[1].split()[0] == "R":
                    running += 1
    return max(1, running)


def others_running() -> float:
    """How many tasks of other processes want a core now (runnable tasks minus this process's)."""
    try:
        for line in PROC_STAT.read_text().splitlines():
            if line.startswith("procs_running "):
                return max(0.0, float(line.split()[1]) - own_running())
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
