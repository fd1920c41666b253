"""The tray app at rest: CPU and memory of `proactive tray` while nobody touches anything.

Starts Xvfb + openbox + a system tray (trayer), then `proactive tray --no-aw` with its watcher and assistant
running. "Without the model": the proposal model is an OpenAI-compatible endpoint the app never calls while
idle (`--model openai:...`), so no weights are in the process; `--with-default-model` measures the built-in
GGUF model loaded in-process too, for reference. After a settling time, reports the process's CPU (% of one
core) over SECONDS and its RSS (peak, sampled every second).

    .venv/bin/python bench/tray_idle.py [--seconds 60] [--with-default-model] [--json]
"""

from __future__ import annotations

import argparse
import http.server
import json
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.xsession import start_x, wait_for  # noqa: E402


def idle_endpoint() -> http.server.ThreadingHTTPServer:
    """A loopback server that lists one model and is never asked to generate (nothing happens while idle): the
    tray starts without loading a GGUF, and its start-up check of the endpoint passes."""

    class Models(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802  (http.server's name)
            body = json.dumps({"object": "list", "data": [{"id": "idle", "object": "model"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Models)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def measure(seconds: float, settle: float, with_model: bool) -> dict[str, float]:
    session, stop_x = start_x()
    endpoint = None if with_model else idle_endpoint()
    home = Path(tempfile.mkdtemp(prefix="proactive-bench-"))
    env = dict(session.env, PROACTIVE_HOME=str(home), QT_QPA_PLATFORM="xcb")
    try:
        session.start_tray()
        model = [] if endpoint is None else ["--model", f"openai:http://127.0.0.1:{endpoint.server_address[1]}/v1#idle"]
        app = subprocess.Popen([sys.executable, "-m", "proactive.app.cli", "tray", "--no-aw", *model], env=env,
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        log = home / "logs" / "proactive.log"
        wait_for(lambda: (log.exists() and "watcher started" in log.read_text()) or app.poll() is not None,
                 timeout=60, what="the tray app")
        if app.poll() is not None:
            raise SystemExit(f"the tray app exited: {app.stderr.read().decode()[-2000:]}")
        time.sleep(settle)  # start-up work (imports, first paint, database migrations) is not idle time
        proc = psutil.Process(app.pid)
        cpu0, t0 = proc.cpu_times(), time.monotonic()
        peak = 0
        while time.monotonic() - t0 < seconds:
            peak = max(peak, proc.memory_info().rss)
            time.sleep(1.0)
        cpu1, elapsed = proc.cpu_times(), time.monotonic() - t0
        app.send_signal(signal.SIGTERM)
        app.wait(timeout=30)
    finally:
        stop_x()
        if endpoint is not None:
            endpoint.shutdown()
    cpu = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
    return {"seconds": round(elapsed, 1), "cpu_percent_of_one_core": round(100 * cpu / elapsed, 3),
            "peak_rss_mb": round(peak / 2**20, 1), "exit_code": app.returncode}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--settle", type=float, default=5.0)
    ap.add_argument("--with-default-model", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = measure(args.seconds, args.settle, args.with_default_model)
    if args.json:
        print(json.dumps(result))
        return
    what = "with the default model" if args.with_default_model else "without the model"
    print("| metric | value | target |\n|---|---|---|")
    print(f"| tray app idle CPU, % of one core ({what}) | {result['cpu_percent_of_one_core']} | <= 0.5 |")
    print(f"| tray app peak RSS, MB ({what}) | {result['peak_rss_mb']} | <= 150 |")
    print(f"({result['seconds']} s idle, exit code {result['exit_code']})")


if __name__ == "__main__":
    main()
