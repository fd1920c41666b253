"""Inference shares the CPU: beside busy processes it uses fewer threads, and it runs at low priority."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from proactive.models import sharing


def test_fewer_threads_beside_busy_processes():
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(sharing.cores())]
    try:
        time.sleep(0.5)
        seen = [sharing.threads_now() for _ in range(5) if not time.sleep(0.05)]
        busy = max(sharing.others_running() for _ in range(5) if not time.sleep(0.05))
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    assert min(seen) == 1 and busy >= 1


def test_this_process_busy_threads_are_not_other_processes():
    """llama.cpp's own workers spin after each evaluation: counted as other processes, they halved the threads
    of the next proposal. A thread of ours busy outside the GIL (hashing) is counted as our own."""
    import hashlib

    done = threading.Event()
    data = b"x" * (64 << 20)

    def hash_until_done() -> None:
        while not done.is_set():
            hashlib.sha256(data).digest()  # releases the GIL: runnable while the test thread reads /proc

    worker = threading.Thread(target=hash_until_done)
    worker.start()
    try:
        own = max(sharing.own_running() for _ in range(20) if not time.sleep(0.02))
    finally:
        done.set()
        worker.join()
    assert own >= 2


def test_inference_thread_runs_at_low_priority():
    result: list[int] = []

    def work() -> None:
        sharing.lower_priority()
        sharing.lower_priority()  # once per thread
        tid = threading.get_native_id()
        result.extend([os.getpriority(os.PRIO_PROCESS, tid), os.sched_getscheduler(tid)])

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert result == [sharing.NICE, os.SCHED_BATCH]


@pytest.mark.parametrize("others", [0.0, 0.6, 1.4, 64.0])
def test_model_sets_its_threads_per_call_to_the_cores_free_then(default_model, monkeypatch, others):
    """Each generation runs on the cores other processes leave free (at least one, at most the model's own limit),
    and llama.cpp's context is set to that many, for the prompt and for each token. The machine's load is given
    (a real load would move under the test); the engine's setting is read back from llama.cpp."""
    import llama_cpp

    monkeypatch.setattr(sharing, "others_running", lambda: others)
    default_model.rank_options([{"role": "user", "content": "Pick 1 or 2."}], 2)
    free = max(1, min(default_model.max_threads or sharing.cores(), round(sharing.cores() - others)))
    ctx = default_model.llm._ctx.ctx
    assert default_model.threads_used == free
    assert (llama_cpp.llama_n_threads(ctx), llama_cpp.llama_n_threads_batch(ctx)) == (free, free)


SPIN_PROBE = """
import time
from proactive.models import sharing
from proactive.models.default import default_model_path
from proactive.models.llama_cpp import LlamaCppModel
model = LlamaCppModel(default_model_path(), n_ctx=512, n_threads=2)
model.llm._ctx.set_n_threads(2, 2)  # two threads whatever the load: the second waits at each step
model.llm.eval(model.llm.tokenize(b"Pick 1 or 2. " * 20))
end, samples = time.monotonic() + 0.6, []
while time.monotonic() < end:
    samples.append(sharing.own_running() > 1)
    time.sleep(0.01)
import os
print(os.environ["OMP_WAIT_POLICY"], sum(samples) / len(samples))
"""


@pytest.mark.parametrize("policy, spins", [(None, False), ("ACTIVE", True)], ids=["ours", "the-persons"])
def test_the_engine_threads_wait_asleep_unless_the_person_chose_otherwise(policy, spins):
    """After an evaluation on two threads, llama.cpp's second thread sleeps until the next one (our PASSIVE
    policy): in most of 0.6 s only the thread that looks runs (on a busy machine the other may wait a moment for
    a core before it sleeps). A policy the person set is kept: ACTIVE spins (a runnable thread beside the one that
    looks, all along), which is what the check sees."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if policy is not None:
        env["OMP_WAIT_POLICY"] = policy
    out = subprocess.run([sys.executable, "-c", SPIN_PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    chosen, busy = out.stdout.split()
    assert chosen == (policy or "PASSIVE")
    assert (float(busy) > 0.9) if spins else (float(busy) < 0.5), out.stdout
