"""A real aw-server for interop tests, started once per session on a free loopback port.

Not named `aw_server.py`, so it can never shadow the real `aw_server` package when this folder is on sys.path.
Import the fixtures into a test module:

    from tests.aw_server_fixture import aw_dirs, aw_server_url  # noqa: F401

If the server cannot start the tests fail (with its stderr), never skip: interop must stay tested.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

START_TIMEOUT = 20.0


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def xdg_env(root: Path) -> dict[str, str]:
    """HOME and XDG folders under `root`, so ActivityWatch code never touches the real home."""
    env = {"HOME": str(root / "home")}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[name] = str(root / name.lower())
    for path in env.values():
        Path(path).mkdir(parents=True, exist_ok=True)
    env["AW_PROFILE"] = ""  # the default profile layout, whatever the developer's shell says
    return env


def _info(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(f"{url}/api/0/info", timeout=0.5) as resp:
            return json.loads(resp.read())
    except OSError:
        return None


@pytest.fixture(scope="session")
def aw_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start `python -m aw_server --testing --storage memory` on 127.0.0.1 and yield its url."""
    root = tmp_path_factory.mktemp("aw-server")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "aw_server", "--testing", "--storage", "memory",
        "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip
    env = {**os.environ, **xdg_env(root)}
    stderr_path = root / "stderr.log"
    with open(stderr_path, "wb") as stderr, open(root / "stdout.log", "wb") as stdout:
        proc = subprocess.Popen(
            cmd, env=env, cwd=root, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while _info(url) is None:
            if proc.poll() is not None or time.monotonic() > deadline:
                err = stderr_path.read_text(errors="replace")[-4000:]
                pytest.fail(
                    f"aw-server did not start (exit code {proc.poll()}): {' '.join(cmd)}\n{err}",
                    pytrace=False,
                )
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def aw_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point this process's HOME/XDG folders at a temporary folder.

    aw-client writes a config file, a lock file and a queue database under them when a client is created.
    """
    for key, value in xdg_env(tmp_path / "aw-client").items():
        monkeypatch.setenv(key, value)
    return tmp_path
