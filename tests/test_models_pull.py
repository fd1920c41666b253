"""`proactive models pull` (models/pull.py): the real huggingface_hub client against a real loopback server laid out
like the Hugging Face hub, serving a small valid GGUF built here (and, once, the built-in model's own GGUF, then
loaded with llama-cpp-python).

The server answers as the hub does for a file stored with Git LFS: `HEAD|GET /{repo}/resolve/{revision}/{file}` is a
302 to a CDN on another origin (another port), carrying `X-Repo-Commit`, `X-Linked-Etag` (the sha256 of the bytes),
`X-Linked-Size` and the pointer file's `ETag`; the CDN serves the bytes with `Content-Length`, `ETag` and
`Accept-Ranges`, and a `Range: bytes=K-` request with a 206 and `Content-Range`. A missing repository or file is a
404 with the hub's `X-Error-Code`. Every request is logged, so a test can say what the client asked.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import socket
import struct
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import huggingface_hub  # noqa: F401 - imported now: its constants are read from the environment the tests start in
import pytest
from huggingface_hub import constants

from proactive.models import pull as pulling
from proactive.models.pull import CuratedModel, PullError

from .conftest import run_cli
from .models_support import free_port

REPO = "proactive-tests/tiny-GGUF"
FILENAME = "tiny-F32.gguf"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def gguf_string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def tiny_gguf(n: int = 65536) -> bytes:
    """A valid GGUF v3 file: three metadata keys and one F32 tensor of `n` values (n*4 bytes), aligned to 32."""
    kv = [("general.architecture", "tiny"), ("general.name", "tiny test model"), ("general.license", "apache-2.0")]
    out = b"GGUF" + struct.pack("<IQQ", 3, 1, len(kv))
    for key, value in kv:
        out += gguf_string(key) + struct.pack("<I", 8) + gguf_string(value)  # 8: a string
    out += gguf_string("weights") + struct.pack("<I", 1) + struct.pack("<Q", n) + struct.pack("<IQ", 0, 0)  # F32 at 0
    out += b"\0" * (-len(out) % 32)
    return out + (bytes(range(256)) * (n * 4 // 256 + 1))[:n * 4]


def read_gguf_header(data: bytes) -> dict[str, Any]:
    """The metadata of a GGUF file whose values are strings (enough for the file above)."""
    assert data[:4] == b"GGUF"
    version, tensors, count = struct.unpack_from("<IQQ", data, 4)
    offset, meta = 24, {}
    for _ in range(count):
        (size,) = struct.unpack_from("<Q", data, offset)
        key = data[offset + 8:offset + 8 + size].decode()
        offset += 8 + size
        (kind,) = struct.unpack_from("<I", data, offset)
        assert kind == 8, kind
        (size,) = struct.unpack_from("<Q", data, offset + 4)
        meta[key] = data[offset + 12:offset + 12 + size].decode()
        offset += 12 + size
    return {"version": version, "tensors": tensors, **meta}


class Hub:
    """The hub (/resolve/) and its CDN (/blobs/), two real HTTP servers on 127.0.0.1, and the log of requests."""

    def __init__(self) -> None:
        self.files: dict[tuple[str, str], tuple[bytes, str]] = {}  # (repo, filename) -> (bytes, sha256)
        self.served: dict[str, bytes] = {}  # sha256 -> the bytes the CDN sends for it (a test may corrupt them)
        self.names: dict[str, str] = {}  # sha256 -> the file's name (the CDN's Content-Disposition)
        self.cut_after: int | None = None  # the first plain GET of a blob stops after this many bytes
        self.log: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self.servers = [ThreadingHTTPServer(("127.0.0.1", 0), self._handler()) for _ in range(2)]
        self.url = f"http://127.0.0.1:{self.servers[0].server_port}"
        self.cdn = f"http://127.0.0.1:{self.servers[1].server_port}"
        self.threads = [threading.Thread(target=s.serve_forever, args=(0.05,), daemon=True) for s in self.servers]
        for thread in self.threads:
            thread.start()

    def add(self, repo: str, filename: str, data: bytes) -> str:
        sha = hashlib.sha256(data).hexdigest()
        self.files[(repo, filename)] = (data, sha)
        self.served[sha] = data
        self.names[sha] = filename
        return sha

    def requests(self, method: str | None = None, kind: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.log if (method is None or r["method"] == method)
                    and (kind is None or r["kind"] == kind)]

    def close(self) -> None:
        for server in self.servers:
            server.shutdown()
            server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_HEAD(self) -> None:
                self.answer(body=False)

            def do_GET(self) -> None:
                self.answer(body=True)

            def answer(self, body: bool) -> None:
                parts = self.path.split("?")[0].strip("/").split("/")
                on_cdn = self.server is hub.servers[1]
                self.entry = {"method": self.command, "path": self.path, "kind": "cdn" if on_cdn else "hub",
                              "range": self.headers.get("Range"), "status": None}
                with hub._lock:
                    hub.log.append(self.entry)
                if on_cdn and len(parts) == 2 and parts[0] == "blobs" and parts[1] in hub.served:
                    self.blob(parts[1], body)
                elif not on_cdn and len(parts) >= 5 and parts[2] == "resolve":
                    self.resolve("/".join(parts[:2]), parts[3], "/".join(parts[4:]))
                else:
                    self.empty(404)

            def send_response(self, code: int, message: str | None = None) -> None:
                """The status is logged before any byte of the answer leaves: the client may have the whole answer
                (and the test read the log) before the handler's thread runs again."""
                with hub._lock:
                    self.entry["status"] = code
                super().send_response(code, message)

            def resolve(self, repo: str, revision: str, filename: str) -> int:
                if not any(r == repo for r, _ in hub.files):
                    return self.empty(404, {"X-Error-Code": "RepoNotFound", "X-Error-Message": "Repository not found"})
                if (repo, filename) not in hub.files or revision not in ("main", COMMIT):
                    return self.empty(404, {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": COMMIT,
                                            "X-Error-Message": "Entry not found"})
                data, sha = hub.files[(repo, filename)]
                pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{sha}\nsize {len(data)}\n"
                oid = hashlib.sha1(f"blob {len(pointer)}\0{pointer}".encode()).hexdigest()
                return self.empty(302, {"Location": f"{hub.cdn}/blobs/{sha}?download=true", "X-Repo-Commit": COMMIT,
                                        "X-Linked-Etag": f'"{sha}"', "X-Linked-Size": str(len(data)),
                                        "ETag": f'"{oid}"'})

            def blob(self, sha: str, body: bool) -> int:
                data = hub.served[sha]
                start, status = 0, 200
                asked = self.headers.get("Range")
                if asked and asked.startswith("bytes=") and asked.endswith("-"):
                    start, status = int(asked[6:-1]), 206
                self.send_response(status)
                self.send_header("Content-Length", str(len(data) - start))
                self.send_header("ETag", f'"{sha}"')
                self.send_header("Accept-Ranges", "bytes")
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Disposition", f'inline; filename*=UTF-8\'\'{hub.names[sha]}; '
                                                        f'filename="{hub.names[sha]}";')
                if status == 206:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.end_headers()
                if not body:
                    return status
                cut = hub.cut_after if status == 200 else None
                if cut is not None:
                    hub.cut_after = None  # once
                    self.wfile.write(memoryview(data)[:cut])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)  # the connection drops mid-file
                    self.close_connection = True
                    return status
                self.wfile.write(memoryview(data)[start:])
                return status

            def empty(self, status: int, headers: dict[str, str] | None = None) -> int:
                self.send_response(status)
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return status

        return Handler


TINY = tiny_gguf()


@pytest.fixture
def hub(proactive_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hub]:
    """The loopback hub serving the tiny GGUF as `tiny-test`, a curated entry added for the test; the client
    pointed at it (HF_ENDPOINT), online, with its own empty Hugging Face home."""
    server = Hub()
    server.add(REPO, FILENAME, TINY)
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(pulling, "CURATED", (*pulling.CURATED, entry()))
    try:
        yield server
    finally:
        server.close()


def entry(**changes: Any) -> CuratedModel:
    fields = {"name": "tiny-test", "repo": REPO, "filename": FILENAME, "revision": "main", "size": len(TINY),
              "sha256": None, "licence": "Apache-2.0", "purpose": "tests"}
    return CuratedModel(**{**fields, **changes})


class Terminal(io.BytesIO):
    """Input typed at a terminal: the command may ask."""

    def isatty(self) -> bool:
        return True


def gguf_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.gguf")) if folder.exists() else []


def one_line_error(out: Any) -> str:
    """The error line of a command that exits 2: one line, the last, after the progress bar if any."""
    assert out.returncode == 2, out
    lines = out.stderr.strip().split("\n")
    assert lines[-1].startswith("proactive: error: ") and all("%|" in line for line in lines[:-1]), out.stderr
    return str(lines[-1])


def test_pull_downloads_the_file_with_progress_on_stderr(hub: Hub, proactive_home: Path):
    out = run_cli("models", "pull", "tiny-test")
    assert out.returncode == 0, out.stderr
    path = proactive_home / "models" / FILENAME
    assert path.read_bytes() == TINY
    assert read_gguf_header(path.read_bytes()) == {"version": 3, "tensors": 1, "general.architecture": "tiny",
                                                   "general.name": "tiny test model", "general.license": "apache-2.0"}
    assert "100%" in out.stderr and FILENAME in out.stderr  # tqdm's bar, on stderr even when it is no terminal
    assert "%|" not in out.stdout
    assert f"tiny-test: {path} ({pulling.size_text(len(TINY))}, sha256 checked)" in out.stdout
    # not a terminal: nothing asked, the command that sets it said, nothing written
    assert "proactive models pull tiny-test --yes" in out.stdout and "[y/N]" not in out.stdout
    assert not (proactive_home / "config.toml").exists()
    # as the hub is asked: HEAD /resolve/ (a 302 to the CDN, whose headers are not needed), then GET on the CDN
    assert [(r["method"], r["kind"], r["status"]) for r in hub.requests()] == [
        ("HEAD", "hub", 302), ("HEAD", "hub", 302), ("GET", "cdn", 200)]
    assert hub.requests()[0]["path"] == f"/{REPO}/resolve/main/{FILENAME}"


def test_a_file_already_here_is_checked_not_downloaded_again(hub: Hub, proactive_home: Path):
    assert run_cli("models", "pull", "tiny-test").returncode == 0
    hub.log.clear()
    again = run_cli("models", "pull", "tiny-test", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == {"name": "tiny-test", "path": str(proactive_home / "models" / FILENAME),
                                        "size": len(TINY), "sha256": hashlib.sha256(TINY).hexdigest(),
                                        "answer_model": False}
    assert hub.requests("GET") == []  # the sha256 of the file here is the hub's: no download


def test_a_cut_connection_is_resumed_with_a_range_request(hub: Hub, proactive_home: Path, monkeypatch):
    """The CDN drops the connection 11 MB into the first GET of a 12 MB file; huggingface_hub, which writes what it
    reads in 10 MiB chunks, asks for the rest after the last whole chunk (`Range: bytes=10485760-`, a 206) and the
    file is whole. (Since huggingface_hub 1.18 a partial file is not kept between runs: the resume happens within
    the run, up to 5 times while bytes keep coming.)"""
    data = tiny_gguf(3_000_000)
    hub.add("proactive-tests/mid-GGUF", "mid.gguf", data)
    monkeypatch.setattr(pulling, "CURATED", (*pulling.CURATED, entry(
        name="mid-test", repo="proactive-tests/mid-GGUF", filename="mid.gguf", size=len(data))))
    hub.cut_after = 11_000_000
    out = run_cli("models", "pull", "mid-test")
    assert out.returncode == 0, out.stderr
    gets = hub.requests("GET", "cdn")
    assert [(r["range"], r["status"]) for r in gets] == [(None, 200), (f"bytes={10 * 2 ** 20}-", 206)]
    assert (proactive_home / "models" / "mid.gguf").read_bytes() == data


def test_a_bad_checksum_is_refused_and_nothing_is_left(hub: Hub, proactive_home: Path, monkeypatch):
    sha = hashlib.sha256(TINY).hexdigest()
    hub.served[sha] = TINY[:-1] + b"\1"  # same size, other bytes than the ETag says
    err = one_line_error(run_cli("models", "pull", "tiny-test"))
    assert "fails its checksum" in err and f"expected {sha[:12]}" in err and "deleted" in err
    models = proactive_home / "models"
    assert gguf_files(models) == [] and list(models.rglob("*.incomplete")) == []
    assert not list(models.rglob(f"{FILENAME}.metadata"))  # no record that would let a next run skip the download

    # the list pins another sha256 than the hub's file: refused before any byte is downloaded
    hub.served[sha] = TINY
    hub.log.clear()
    monkeypatch.setattr(pulling, "CURATED", (*pulling.CURATED[:-1], entry(sha256="0" * 64)))
    err = one_line_error(run_cli("models", "pull", "tiny-test"))
    assert "than the one this version of Proactive lists" in err
    assert hub.requests("GET") == [] and gguf_files(models) == []


def test_offline_and_nothing_here_exits_2_without_a_request(hub: Hub, proactive_home: Path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    err = one_line_error(run_cli("models", "pull", "tiny-test"))
    assert "offline (HF_HUB_OFFLINE is set)" in err and str(proactive_home / "models") in err
    assert hub.requests() == []

    # once it is here, offline is enough (the pulled file checked against the list's sha256, when it has one)
    monkeypatch.delenv("HF_HUB_OFFLINE")
    assert run_cli("models", "pull", "tiny-test").returncode == 0
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hub.log.clear()
    out = run_cli("models", "pull", "tiny-test", "--yes")
    assert out.returncode == 0, out.stderr
    assert hub.requests() == []
    assert f'answer_model = "{proactive_home / "models" / FILENAME}"' in (proactive_home / "config.toml").read_text()


def test_offline_a_file_in_the_hugging_face_cache_is_copied(hub: Hub, proactive_home: Path, tmp_path: Path,
                                                             monkeypatch):
    """The cache's layout (huggingface_hub's own: refs/main names the snapshot holding the file)."""
    cache = tmp_path / "hf" / "hub"
    repo = cache / f"models--{REPO.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(COMMIT)
    (repo / "snapshots" / COMMIT).mkdir(parents=True)
    (repo / "snapshots" / COMMIT / FILENAME).write_bytes(TINY)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = run_cli("models", "pull", "tiny-test")
    assert out.returncode == 0, out.stderr
    assert (proactive_home / "models" / FILENAME).read_bytes() == TINY and hub.requests() == []

    # a damaged copy in the folder: its sha256 is not the listed one, it is deleted
    (proactive_home / "models" / FILENAME).write_bytes(TINY[:-1] + b"\1")
    monkeypatch.setattr(pulling, "CURATED", (*pulling.CURATED[:-1], entry(sha256=hashlib.sha256(TINY).hexdigest())))
    err = one_line_error(run_cli("models", "pull", "tiny-test"))
    assert "in the models folder fails its checksum" in err and gguf_files(proactive_home / "models") == []


def test_an_unreachable_hub_names_hf_endpoint(hub: Hub, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{free_port()}")  # nothing listens there
    err = one_line_error(run_cli("models", "pull", "tiny-test"))
    assert "cannot download" in err and "(HF_ENDPOINT)" in err
    # advice that helps someone who wants the file: a proxy, a mirror, or the file's address to fetch elsewhere
    assert "HTTPS_PROXY" in err and "/resolve/" in err and "HF_HUB_OFFLINE=1 proactive models pull tiny-test" in err


def test_a_hub_without_the_file_says_so(hub: Hub, monkeypatch):
    monkeypatch.setattr(pulling, "CURATED", (*pulling.CURATED[:-1], entry(filename="missing.gguf")))
    err = one_line_error(run_cli("models", "pull", "tiny-test"))
    assert f"has no {REPO}/missing.gguf at revision main" in err


def test_an_unknown_name_exits_2_listing_the_names(proactive_home: Path):
    err = one_line_error(run_cli("models", "pull", "gpt-9"))
    assert "unknown model 'gpt-9'" in err
    assert all(m.name in err for m in pulling.CURATED)


def test_not_enough_space_exits_2_naming_the_folder(hub: Hub, proactive_home: Path, monkeypatch):
    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10**12, 10**12, 50_000_000))
    err = one_line_error(run_cli("models", "pull", "tiny-test"))
    assert f"not enough free space in {proactive_home / 'models'}" in err
    assert "needs 100.3 MB" in err and "50.0 MB is free" in err
    assert hub.requests("GET") == [] and gguf_files(proactive_home / "models") == []


def test_without_a_name_the_list(proactive_home: Path):
    out = run_cli("models", "pull")
    assert out.returncode == 0, out.stderr
    for model in pulling.CURATED:
        line = next(line for line in out.stdout.splitlines() if line.startswith(model.name + " "))
        assert pulling.size_text(model.size) in line and model.licence in line and model.purpose in line
    assert len(pulling.CURATED) >= 3 and all(m.sha256 and len(m.sha256) == 64 for m in pulling.CURATED)
    rows = json.loads(run_cli("models", "pull", "--json").stdout)
    assert [r["name"] for r in rows] == [m.name for m in pulling.CURATED]
    assert set(rows[0]) == {"name", "repo", "filename", "revision", "size", "sha256", "licence", "purpose",
                            "downloaded"}


def test_asked_at_a_terminal_yes_sets_the_answers_model(hub: Hub, proactive_home: Path):
    out = run_cli("models", "pull", "tiny-test", input=Terminal(b"n\n"))  # type: ignore[arg-type]
    assert out.returncode == 0, out.stderr
    assert "Use it to write explanations and drafts when you accept an offer? [y/N]" in out.stdout
    assert not (proactive_home / "config.toml").exists()

    out = run_cli("models", "pull", "tiny-test", input=Terminal(b"y\n"))  # type: ignore[arg-type]
    assert out.returncode == 0, out.stderr
    path = proactive_home / "models" / FILENAME
    assert f"answers model: {path}" in out.stdout
    assert f'answer_model = "{path}"' in (proactive_home / "config.toml").read_text()
    # the tray and `proactive models` see it
    listed = json.loads(run_cli("models", "--json", "--timeout", "0.05").stdout)["models"]
    assert {"source": "gguf", "name": "tiny-F32", "spec": str(path), "detail": pulling.size_text(len(TINY))} in listed


def test_the_pulled_builtin_model_loads_with_llama_cpp(hub: Hub, proactive_home: Path, monkeypatch):
    """A real model through the same path: the built-in model's GGUF, served by the hub, pulled, then loaded as
    `answer_model` would be."""
    from proactive.models.default import default_model_path
    from proactive.models.registry import load_model

    data = default_model_path().read_bytes()
    sha = hub.add("proactive-tests/builtin-GGUF", "builtin.gguf", data)
    monkeypatch.setattr(pulling, "CURATED", (*pulling.CURATED, entry(
        name="builtin", repo="proactive-tests/builtin-GGUF", filename="builtin.gguf", size=len(data), sha256=sha)))
    path = pulling.pull("builtin", proactive_home / "models", progress=False)
    assert path.read_bytes() == data
    model = load_model(str(path))
    try:
        assert model.count_tokens("hello world") >= 2
    finally:
        model.close()


def test_pull_errors_are_model_errors():
    from proactive.models.base import ModelError

    with pytest.raises(PullError) as raised:
        pulling.pull("nope", Path("/nonexistent"))
    assert isinstance(raised.value, ModelError)
    assert pulling.find("qwen2.5-1.5b-instruct").repo == "Qwen/Qwen2.5-1.5B-Instruct-GGUF"
