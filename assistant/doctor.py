"""`proactive doctor`: one report of what works here now, and what the person can do about what does not.

The watcher's half (`watcher/doctor.py`: the session, each capture source, the database) plus the model and the
reward model in use (config.toml's `model` and `rm`), checked through the model registry without loading either:
a model server is only asked whether it accepts a connection. `report()` is plain data (`--json`), `rows()` the
same flattened into table rows, which `render()` prints as `rich` tables and the settings window shows in Qt.
"""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from proactive.watcher import doctor as watcher_doctor
from proactive.watcher import home

#: seconds a model server may take to accept a connection
SERVER_TIMEOUT = 0.5
LOCAL_FIX = "pip install 'proactive-assistant[local]' (packaging/setup.sh install does it)"


def _check(name: str, spec: str, works: bool, detail: str, fix: str = "") -> dict[str, Any]:
    return {"name": name, "spec": spec, "works": works, "detail": detail, "fix": fix}


def _llama_cpp_missing() -> bool:
    return importlib.util.find_spec("llama_cpp") is None


def _server_answers(url: str) -> bool:
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        with socket.create_connection((parts.hostname or "", port), timeout=SERVER_TIMEOUT):
            return True
    except (OSError, ValueError):
        return False


def model_check(spec: str, name: str = "model") -> dict[str, Any]:
    """Whether the model `spec` can be used here: the registry's check, the built-in model's package, llama-cpp
    for GGUF files, and for a server whether anything accepts a connection at its URL. Nothing is loaded."""
    import os

    from proactive.models.discovery import builtin, builtin_problem
    from proactive.models.registry import MODEL_SPECS, model_problem

    spec = (spec or "").strip()
    where = f"set {name} in config.toml or in the tray's settings window"
    problem = model_problem(spec)
    if problem:
        return _check(name, spec, False, problem, f"{where}: {MODEL_SPECS}")
    if spec == "default":
        found = builtin()
        if found is None:
            return _check(name, spec, False, builtin_problem(), LOCAL_FIX)
        if _llama_cpp_missing():
            return _check(name, spec, False, f"built-in {found.name} is installed but llama-cpp-python is not",
                          LOCAL_FIX)
        return _check(name, spec, True, f"the built-in model, {found.name} ({found.detail})")
    if spec.startswith("openai:"):
        url, _, model = spec[len("openai:"):].partition("#")
        url = url.strip() or os.environ.get("OPENAI_BASE_URL", "")
        what = f"an OpenAI-compatible server at {url}" + (f", model {model}" if model else "")
        if _server_answers(url):
            return _check(name, spec, True, f"{what}: it accepts connections (asked for nothing more)")
        return _check(name, spec, False, f"{what}: nothing answers there",
                      f"start the server (llama-server, Ollama...), or {where}; proactive models lists usable ones")
    path = Path(spec).expanduser()
    try:
        with path.open("rb") as f:
            magic = f.read(4)
    except OSError as exc:
        return _check(name, spec, False, f"{path}: {exc}", where)
    if magic != b"GGUF":
        return _check(name, spec, False, f"{path} is not a GGUF file", f"{where}: {MODEL_SPECS}")
    if _llama_cpp_missing():
        return _check(name, spec, False, f"GGUF file {path}, but llama-cpp-python is not installed", LOCAL_FIX)
    return _check(name, spec, True, f"GGUF file {path} ({watcher_doctor.human_size(path.stat().st_size)})")


def reward_check(spec: str) -> dict[str, Any]:
    """Whether the reward model `spec` can be used here (the registry's check; `llm:M` checks M as a model)."""
    from proactive.models.registry import REWARD_SPECS, reward_problem

    spec = (spec or "").strip()
    where = "set rm in config.toml or in the tray's settings window"
    problem = reward_problem(spec)
    if problem:
        return _check("reward model", spec, False, problem, f"{where}: {REWARD_SPECS}")
    if spec == "default":
        from proactive.models.reward import DEFAULT_ARTEFACT

        if not Path(DEFAULT_ARTEFACT).is_file():
            return _check("reward model", spec, False, f"the shipped reward model is missing: {DEFAULT_ARTEFACT}",
                          "reinstall Proactive")
        return _check("reward model", spec, True, "the shipped trained reward model (with its need model)")
    if spec == "signals":
        return _check("reward model", spec, True, "hand-written need signals (no trained model)")
    if spec.startswith("llm:"):
        inner = model_check(spec[len("llm:"):], "rm")
        return _check("reward model", spec, inner["works"], "a language model judging as the user: "
                      + inner["detail"], inner["fix"])
    path = Path(spec).expanduser()
    return _check("reward model", spec, True, f"trained reward model {path} "
                  f"({watcher_doctor.human_size(path.stat().st_size)})")


def report(db: str | None = None, config: home.Config | None = None) -> dict[str, Any]:
    """Everything `proactive doctor` says, as plain data: home, config, session, sources, database, models."""
    out = watcher_doctor.report(db, config)
    if config is None:
        try:
            config = home.Config.load()
        except ValueError:
            config = home.Config()  # the watcher's half says why (config.problem)
    out["models"] = [model_check(config.model), reward_check(config.rm)]
    return out


def rows(report: dict[str, Any]) -> list[dict[str, str]]:
    """The report as table rows (section, item, status, detail, fix): the CLI's tables and the settings window's
    diagnostics show these."""
    out: list[dict[str, str]] = []
    s = report["session"]
    kind = {"x11": "X11", "wayland": "Wayland", "none": "no display"}.get(s["kind"], s["kind"])
    out.append({"section": "session", "item": kind, "status": "ok" if s["kind"] != "none" else "missing",
                "detail": s["summary"], "fix": ""})  # the capture rows say what to do
    for p in report["sources"]:
        status = "works" if p["works"] else ("not running" if p.get("optional") else "cannot work")
        detail = p["detail"] + ("" if p["tested"] else " (untested backend)")
        out.append({"section": "capture", "item": f"{p['source']}: {p['captures']}", "status": status,
                    "detail": detail, "fix": p["fix"]})
    d = report["database"]
    out.append({"section": "database", "item": d["path"],
                "status": d["size"] if d["exists"] else "not created yet",
                "detail": d["detail"], "fix": d["fix"]})
    for m in report["models"]:
        out.append({"section": "model", "item": f"{m['name']}: {m['spec']}", "status": "works" if m["works"]
                    else "cannot work", "detail": m["detail"], "fix": m["fix"]})
    if report["config"]["problem"]:
        out.append({"section": "config", "item": report["config"]["path"], "status": "unusable",
                    "detail": report["config"]["problem"], "fix": "fix or remove the setting; defaults are used"})
    return out


def render(report: dict[str, Any], console: Any = None) -> None:
    """The report as `rich` tables, one per section, on `console` (default: stdout)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    styles = {"works": "green", "ok": "green", "cannot work": "bold red", "missing": "bold red",
              "unusable": "bold red", "not running": "yellow"}
    console.print(f"home: {report['home']}")
    sections: dict[str, list[dict[str, str]]] = {}
    for row in rows(report):
        sections.setdefault(row["section"], []).append(row)
    for section, items in sections.items():
        table = Table(title=section, title_justify="left", show_lines=False, expand=False)
        for column in ("item", "status", "detail", "what to do"):
            table.add_column(column, overflow="fold")
        for row in items:  # Text, not markup: details hold brackets ("[local]")
            table.add_row(Text(row["item"]), Text(row["status"], style=styles.get(row["status"], "")),
                          Text(row["detail"]), Text(row["fix"]))
        console.print(table)
