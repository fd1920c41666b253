"""Model fixtures for the tests: the real default GGUF (loaded once), llama-cpp-python's real OpenAI-compatible
server on loopback, and a tiny scripted endpoint that answers garbage on purpose (the fast extra path)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from proactive.models.default import default_model_path
from proactive.models.fake import FakeModel
from proactive.models.llama_cpp import LlamaCppModel


@pytest.fixture(scope="session")
def default_model() -> LlamaCppModel:
    return LlamaCppModel(default_model_path(), n_ctx=4096)


@pytest.fixture
def fake_model() -> FakeModel:
    """The fake model (`--model fake`): instant and deterministic, for tests about the code around a model;
    `.calls` tells whether it was asked."""
    return FakeModel()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's OpenAI-compatible server with the default model, on 127.0.0.1, with its prompt cache on
    (`--cache`: a prompt asked again, as the parallel replay test asks each of its prompts twice, is not evaluated
    again; about 14 CPU-seconds of the suite's two cores)."""
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    with running_llama_server(free_port(), log, "--cache", "true") as url:
        yield url


@contextlib.contextmanager
def running_llama_server(port: int, log: Path, *args: str, n_ctx: int = 4096) -> Iterator[str]:
    """llama-cpp-python's real server with the default model on 127.0.0.1:`port`, until the block ends."""
    with open(log, "wb") as out:
        # its threads wait asleep, as the in-process model's do (models/sharing.py `passive_waits`): the suite's
        # workers share two cores
        proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(default_model_path()),
                                 "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), *args],
                                stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, OMP_WAIT_POLICY="PASSIVE"))
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/models", timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"llama_cpp.server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.3)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


class ScriptedEndpoint:
    """An OpenAI-style endpoint on loopback whose answers the test scripts (content, finish_reason, status)."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, object]] = []
        self.requests: list[dict] = []
        # answers every request the queue does not cover: request -> message content (see `answer_with`)
        self.answer: Callable[[dict], str] | None = None
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                endpoint.requests.append(json.loads(self.rfile.read(length)))
                if endpoint.replies:
                    status, body = endpoint.replies.pop(0)
                elif endpoint.answer is not None:
                    status, body = endpoint.completion(endpoint.answer(endpoint.requests[-1]))
                else:
                    status, body = 500, "no scripted reply"
                raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    @staticmethod
    def completion(content: str | None, finish: str = "stop", status: int = 200) -> tuple[int, dict]:
        return (status, {"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": finish}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 5}})

    def reply(self, content: str | None, finish: str = "stop", status: int = 200) -> None:
        self.replies.append(self.completion(content, finish, status))

    def answer_with(self, answer: Callable[[dict], str]) -> None:
        """Answer every further request with `answer(request)` (a deterministic stand-in for a model server)."""
        self.answer = answer

    def raw(self, status: int, body: str) -> None:
        self.replies.append((status, body))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def scripted() -> Iterator[ScriptedEndpoint]:
    endpoint = ScriptedEndpoint()
    yield endpoint
    endpoint.close()


FIX_TASK = "Suggest a fix for the TimeoutError in client.py"


def assistant_replies(task: str = FIX_TASK) -> Callable[[dict], str]:
    """Scripted answers of an assistant model: agent requests propose `task`, help requests get an answer (told
    apart by the schema in response_format), so the live loop reaches the popup whatever the gate's threshold."""

    def answer(request: dict) -> str:
        schema = request.get("response_format", {}).get("json_schema", {}).get("schema", {})
        if "answer" in schema.get("properties", {}):
            return json.dumps({"answer": "TimeoutError: timed out means the server was slow: requests.get(url, timeout=30)."})
        return json.dumps({"Purpose": "Fix a failing request", "Thoughts": "A timeout traceback was copied.",
                           "Proactive Task": task, "Response": "Want a fix for client.py?"})

    return answer
