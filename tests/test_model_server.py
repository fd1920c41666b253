"""Model servers (`--model openai:...`): the base URL with or without /v1 and from OPENAI_BASE_URL, against
llama-cpp-python's real server; an unusable endpoint (401, 404, 503 for ever, a refused port, a silent one) failing
before the first turn in one line that names the fix, and a busy one (503 then 200) retried; the key never sent to
another host on a redirect; `replay --parallel N` giving the turns and cache of `--parallel 1`; `proactive models`
finding a real server on port 8080 and a GGUF in PROACTIVE_HOME/models. The fake servers are real HTTP servers
on loopback (http.server in a thread)."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from proactive.assistant.prompt import AGENT_SCHEMA
from proactive.models.base import ModelError
from proactive.models.default import default_model_path
from proactive.models.openai_http import OpenAICompatible, normalize_base_url, retry_after
from proactive.models.registry import load_model

from .conftest import FIXTURES, run_cli
from .models_support import free_port, running_llama_server

SESSION = FIXTURES / "session_small.json"
AGENT_ANSWER = json.dumps({"Purpose": "Fix a failing request", "Thoughts": "A timeout traceback was copied.",
                           "Proactive Task": "Explain the ReadTimeout error in client.py",
                           "Response": "Want an explanation?"})

TINY = {"type": "object", "properties": {"answer": {"type": "boolean"}}, "required": ["answer"],
        "additionalProperties": False}
Reply = tuple[int, dict[str, str], object]  # status, headers, body (a str or JSON-able)


class FakeServer:
    """A real HTTP server on loopback whose answers a function decides: respond(method, path) -> Reply. It keeps
    every request (method, path, headers) and the most requests it ever had in flight at once."""

    def __init__(self, respond: Callable[[str, str, bytes], Reply], delay: float = 0.0):
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.in_flight = self.most_in_flight = 0
        lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body_in = self.rfile.read(length) if length else b""
                with lock:
                    server.requests.append((self.command, self.path, dict(self.headers.items())))
                    server.in_flight += 1
                    server.most_in_flight = max(server.most_in_flight, server.in_flight)
                try:
                    time.sleep(delay)
                    status, headers, body = respond(self.command, self.path, body_in)
                finally:
                    with lock:
                        server.in_flight -= 1
                raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = _answer  # noqa: N815 - http.server's naming

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.root = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve() -> Iterator[Callable[..., FakeServer]]:
    started: list[FakeServer] = []

    def start(respond: Callable[[str, str, bytes], Reply], delay: float = 0.0) -> FakeServer:
        started.append(FakeServer(respond, delay))
        return started[-1]

    yield start
    for s in started:
        s.close()


def completion(content: str) -> dict:
    return {"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5}}


def a_model_server(method: str, path: str, body: bytes = b"") -> Reply:
    """A well-behaved server serving model "m"."""
    if method == "GET" and path == "/v1/models":
        return 200, {}, {"object": "list", "data": [{"id": "m", "object": "model"}]}
    if method == "POST" and path == "/v1/chat/completions":
        return 200, {}, completion(AGENT_ANSWER)
    return 404, {}, {"error": "not found"}


@pytest.fixture(autouse=True)
def no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def predict_fails(spec: str, *needles: str) -> str:
    """`proactive predict SESSION --model spec`: exit 2, one line on stderr with each needle, no traceback."""
    out = run_cli("predict", str(SESSION), "--model", spec, timeout=120)
    assert out.returncode == 2, (out.returncode, out.stdout[-1000:], out.stderr[-2000:])
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert out.stdout == ""  # failed before the first turn
    return lines[0]


# ------------------------------------------------------------------------------------------------ base URL

def test_base_url_forms():
    assert normalize_base_url("http://h:8080") == "http://h:8080/v1"
    assert normalize_base_url("http://h:8080/") == "http://h:8080/v1"
    assert normalize_base_url("http://h:8080/v1/") == "http://h:8080/v1"
    assert normalize_base_url("http://h:8080/v1/chat/completions") == "http://h:8080/v1"
    assert normalize_base_url("https://host/openai/v1") == "https://host/openai/v1"
    for bad in ("h:8080", "ftp://h/v1", "http://h:99999/v1", "http:///v1"):
        with pytest.raises(ModelError, match="http"):
            normalize_base_url(bad)
    with pytest.raises(ModelError, match="OPENAI_BASE_URL"):
        normalize_base_url("")
    assert retry_after("2") == 2.0 and retry_after(None) is None and retry_after("soon") is None
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date in the past: no wait


def test_with_and_without_v1_against_the_real_server(llama_server, monkeypatch):
    root = llama_server.removesuffix("/v1")
    messages = [{"role": "user", "content": "Is water wet? Answer in JSON."}]
    for url in (llama_server, root, root + "/", llama_server + "/"):
        model = load_model(f"openai:{url}#default")  # the start check passes
        assert model.base_url == llama_server
        gen = model.complete_json(messages, TINY)
        assert gen.error is None, gen.error
    no_name = load_model(f"openai:{root}")  # one model served: that one
    assert no_name.model and no_name.complete_json(messages, TINY).error is None
    monkeypatch.setenv("OPENAI_BASE_URL", root)  # the usual variable, with or without /v1
    assert load_model("openai:#default").base_url == llama_server
    assert load_model("openai:").base_url == llama_server
    monkeypatch.setenv("OPENAI_BASE_URL", llama_server)
    assert load_model("openai:#default").complete_json(messages, TINY).error is None


# ---------------------------------------------------------------------------------- unusable endpoints

def test_wrong_key_fails_before_the_first_turn(serve, monkeypatch):
    server = serve(lambda method, path, body: (401, {}, {"error": {"message": "Invalid API key"}}))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    line = predict_fails(f"openai:{server.root}#m", "HTTP 401", "check the key (OPENAI_API_KEY)")
    assert "sk-wrong" not in line
    assert server.requests[0][2]["Authorization"] == "Bearer sk-wrong"
    forbidden = serve(lambda method, path, body: (403, {}, "forbidden"))
    predict_fails(f"openai:{forbidden.root}/v1#m", "HTTP 403", "check the key (OPENAI_API_KEY)")


def test_wrong_path_fails_before_the_first_turn(serve):
    server = serve(lambda method, path, body: (404, {}, {"detail": "Not Found"}))
    predict_fails(f"openai:{server.root}/api#m", "HTTP 404", "check the URL and the model name")
    # GET /models and a one-token completion were both tried, at the path given
    assert [(m, p) for m, p, _ in server.requests] == [("GET", "/api/models"), ("POST", "/api/chat/completions")]


def test_unknown_model_name_names_the_served_ones(serve):
    def vllm(method: str, path: str, body: bytes) -> Reply:
        if method == "GET":
            return 200, {}, {"data": [{"id": "Qwen/Qwen2.5-1.5B-Instruct"}]}
        return 404, {}, {"message": "The model `qwen` does not exist."}

    server = serve(vllm)
    predict_fails(f"openai:{server.root}#qwen", "HTTP 404", "check the URL and the model name",
                  "Qwen/Qwen2.5-1.5B-Instruct")


def test_several_models_need_a_name(serve):
    server = serve(lambda method, path, body: (200, {}, {"data": [{"id": "llama3.2:latest"}, {"id": "qwen2.5:7b"}]}))
    predict_fails(f"openai:{server.root}", "several models", f"openai:{server.root}/v1#llama3.2:latest")
    assert load_model(f"openai:{server.root}#llama3.2").model == "llama3.2"  # Ollama's implicit :latest


def test_busy_then_ready_is_retried(serve, proactive_home):
    """503 (the model is loading) on the check and on a generation, then 200: the run succeeds."""
    count = {"GET": 0, "POST": 0}

    def loading(method: str, path: str, body: bytes) -> Reply:
        count[method] += 1
        if count[method] <= 2:  # Retry-After on the check's, plain backoff on the generation's
            return 503, {"Retry-After": "0"} if method == "GET" else {}, {"error": "Loading model"}
        if method == "POST" and count[method] == 4:
            return 429, {"Retry-After": "1"}, {"error": "rate limited"}
        return a_model_server(method, path, body)

    server = serve(loading)
    out = run_cli("predict", str(SESSION), "--model", f"openai:{server.root}#m", timeout=120)
    assert out.returncode == 0, out.stderr
    assert "5 turns, 5 with a proposal, 0 failed generations" in out.stderr
    assert count["GET"] == 3 and count["POST"] == 5 + 3


def test_busy_for_ever_fails_in_one_line(serve):
    server = serve(lambda method, path, body: (503, {"Retry-After": "0"}, {"error": "Loading model"}))
    predict_fails(f"openai:{server.root}#m", "HTTP 503", "try again later")
    assert len(server.requests) == 6  # the first ask and 5 retries: bounded
    slow = serve(lambda method, path, body: (429, {"Retry-After": "3600"}, "come back in an hour"))
    started = time.monotonic()
    predict_fails(f"openai:{slow.root}#m", "HTTP 429")
    assert len(slow.requests) == 1 and time.monotonic() - started < 30  # a long Retry-After is not waited for


def test_busy_generation_is_a_counted_failure_after_backoff(serve):
    state = {"busy": False}

    def flaky(method: str, path: str, body: bytes) -> Reply:
        return (503, {}, "busy") if state["busy"] and method == "POST" else a_model_server(method, path, body)

    server = serve(flaky)
    model = OpenAICompatible(server.root, "m", backoff=0.01)
    model.check()
    state["busy"] = True
    gen = model.complete_json([{"role": "user", "content": "x"}], AGENT_SCHEMA)
    assert gen.data is None and "HTTP 503" in gen.error
    assert sum(m == "POST" for m, _, _ in server.requests) == 6  # backoff retries, not 3 x 6 attempts


def test_refused_port_fails_in_one_line():
    port = free_port()  # bound, then closed: nothing listens there
    url = f"http://127.0.0.1:{port}/v1"
    predict_fails(f"openai:http://127.0.0.1:{port}#m", "connection refused", f"is the server running at {url}?")


def test_silent_server_times_out_in_one_line():
    with socket.socket() as listener:  # accepts connections (the kernel does) and never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
        started = time.monotonic()
        with pytest.raises(ModelError, match=r"no answer within 0.5 s\): is the server running at") as err:
            OpenAICompatible(url, "m", check_timeout=0.5).check()
        assert time.monotonic() - started < 5 and "\n" not in str(err.value)


def test_bad_spec_fails_in_one_line():
    predict_fails("openai:", "OPENAI_BASE_URL")


# -------------------------------------------------------------------------------------------- the key

def test_key_is_not_sent_to_another_host_on_redirect(serve, monkeypatch):
    elsewhere = serve(a_model_server)
    moved = f"http://localhost:{elsewhere.port}"  # another host name (same machine)

    def redirecting(method: str, path: str, body: bytes) -> Reply:
        if path.startswith("/old/"):  # a move on the same host keeps the key
            return 302, {"Location": path.replace("/old/", "/v1/")}, ""
        return 302, {"Location": moved + path}, ""

    home = serve(redirecting)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    model = load_model(f"openai:{home.root}/old#m")  # /old/models -> /v1/models -> localhost:.../v1/models
    assert model.model == "m"
    assert [h.get("Authorization") for _, _, h in home.requests] == ["Bearer sk-secret"] * 2
    assert elsewhere.requests and all("Authorization" not in h for _, _, h in elsewhere.requests)
    assert all("sk-secret" not in json.dumps(h) for _, _, h in elsewhere.requests)


# ------------------------------------------------------------------------------------------------ parallel

def cache_rows(path: Path) -> dict[str, object]:
    """The cache's entries, without what depends on timing (latency)."""
    with sqlite3.connect(path) as db:
        rows = dict(db.execute("SELECT key, value FROM results").fetchall())
    out = {}
    for key, value in rows.items():
        data = json.loads(value)
        if isinstance(data, dict):
            data.pop("latency_s", None)
        out[key] = data
    return out


def replay_out(tmp_path: Path, name: str, spec: str, parallel: int, *extra: str, session: Path = SESSION) -> Path:
    out = tmp_path / name
    result = run_cli("replay", str(session), "--model", spec, "--parallel", str(parallel), "--cache",
                     str(tmp_path / f"{name}.db"), "--out", str(out), "--json", *extra, timeout=600)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["generation_failures"] == 0
    return out


def test_parallel_replay_against_the_real_server_gives_the_same_turns(llama_server, proactive_home, tmp_path):
    spec = f"openai:{llama_server}#default"
    # the terminal turn and the copied error: two generations a run (each takes seconds on a busy machine)
    session = tmp_path / "two_turns.json"
    session.write_text(json.dumps(json.loads(SESSION.read_text())[1:3]))
    one = replay_out(tmp_path, "one", spec, 1, "--no-gate", "--k", "1", session=session)
    three = replay_out(tmp_path, "three", spec, 3, "--no-gate", "--k", "1", session=session)
    turns = (one / "turns.jsonl").read_text()
    assert turns == (three / "turns.jsonl").read_text()
    assert len(turns.splitlines()) == 2 and any(json.loads(t)["candidates"] for t in turns.splitlines())
    assert cache_rows(tmp_path / "one.db") == cache_rows(tmp_path / "three.db")


def test_parallel_replay_runs_concurrently_with_the_same_results(serve, proactive_home, tmp_path):
    """A server whose answer depends on the prompt, answering slowly: --parallel 4 keeps several requests in
    flight, and the turns and cache are those of --parallel 1 (with the gate deciding need first, and k=2)."""

    def by_prompt(method: str, path: str, body: bytes) -> Reply:
        if method == "GET":
            return a_model_server(method, path, body)
        request = json.loads(body)
        last = request["messages"][-1]["content"].split("Decide now.")[0].strip().splitlines()
        event = next((line for line in reversed(last) if "The user" in line), "")
        task = "Explain the ReadTimeout error in client.py" if "ReadTimeout" in event or "client.py" in event \
            else None
        return 200, {}, completion(json.dumps({"Purpose": "p", "Thoughts": event[-80:], "Proactive Task": task,
                                               "Response": "r"}))

    server = serve(by_prompt, delay=0.3)
    spec = f"openai:{server.root}#m"
    one = replay_out(tmp_path, "one", spec, 1, "--no-gate", "--k", "2")
    assert server.most_in_flight == 1
    four = replay_out(tmp_path, "four", spec, 4, "--no-gate", "--k", "2")
    assert server.most_in_flight > 1
    assert (one / "turns.jsonl").read_text() == (four / "turns.jsonl").read_text()
    assert cache_rows(tmp_path / "one.db") == cache_rows(tmp_path / "four.db")
    gated = replay_out(tmp_path, "gated1", spec, 1, "--proactivity", "high")
    gated4 = replay_out(tmp_path, "gated4", spec, 4, "--proactivity", "high")
    assert (gated / "turns.jsonl").read_text() == (gated4 / "turns.jsonl").read_text()


def test_built_in_model_stays_sequential(tmp_path):
    from proactive.eval.replay import Cache, Judge, Replayer
    from proactive.models.reward import load_default

    cache = Cache(tmp_path / "c.db")
    judge = Judge(load_default(), cache)
    assert not Replayer("default", load_model, 1, None, judge, cache, parallel=8).concurrent
    assert Replayer("openai:http://127.0.0.1:9#m", load_model, 1, None, judge, cache, parallel=8).concurrent
    assert not Replayer("openai:http://127.0.0.1:9#m", load_model, 1, None, judge, cache, parallel=1).concurrent


# ------------------------------------------------------------------------------------------ proactive models

def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers do: TIME_WAIT leftovers are no owner
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    with socket.socket() as s:  # nothing listening on another loopback address either
        s.settimeout(0.3)
        return s.connect_ex(("127.0.0.1", port)) != 0


@pytest.fixture
def server_on_8080(tmp_path: Path) -> Iterator[str | None]:
    """llama-cpp-python's real server on 127.0.0.1:8080 (llama-server's port), or None when 8080 is taken."""
    if not port_free(8080):
        yield None
        return
    with running_llama_server(8080, tmp_path / "server.log", "--model_alias", "smollm2", n_ctx=2048) as url:
        yield url


def test_proactive_models_lists_builtin_gguf_and_a_local_server(proactive_home, server_on_8080):
    folder = proactive_home / "models"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "smol.gguf").symlink_to(default_model_path())
    (folder / "notes.gguf").write_text("not a model")  # not GGUF inside: not listed
    out = run_cli("models", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    specs = {m["spec"]: m for m in report["models"]}
    assert specs["default"]["source"] == "built-in"
    assert str(folder / "sub" / "smol.gguf") in specs and str(folder / "notes.gguf") not in specs
    assert report["models_folder"] == str(folder)
    assert {s["port"] for s in report["servers"]} >= {11434, 8080, 1234}
    text = run_cli("models")
    assert text.returncode == 0 and f"--model {folder / 'sub' / 'smol.gguf'}" in text.stdout
    if server_on_8080 is None:
        pytest.skip("port 8080 is taken: the server part is not checked")
    spec = "openai:http://127.0.0.1:8080/v1#smollm2"
    assert specs[spec]["source"] == "server" and "llama-server" in specs[spec]["detail"]
    assert f"--model {spec}" in text.stdout
    assert load_model(spec).complete_json([{"role": "user", "content": "Is water wet?"}], TINY).error is None
