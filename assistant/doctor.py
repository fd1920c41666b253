"""`proactive doctor`: one report of what works here now, and what the person can do about what does not.

The watcher's half (`watcher/doctor.py`: the session, each capture source, the database) plus the model and the
reward model in use (config.toml's `model` and `rm`), checked through the model registry without loading either:
a model server is only asked whether it accepts a connection. `report()` is plain data (`--json`), `rows()` the
same flattened into table rows, which `render()` prints as `rich` tables and the settings window shows in Qt.
"""

from __future__ import annotations

from typing import Any

from proactive.models import registry
from proactive.models.registry import Check
from proactive.watcher import doctor as watcher_doctor
from proactive.watcher.store import home


def _check(name: str, spec: str, found: Check) -> dict[str, Any]:
    return {"name": name, "spec": spec, "works": found.works, "detail": found.detail, "fix": found.fix}


def model_check(spec: str, name: str = "model") -> dict[str, Any]:
    """Whether the model `spec` can be used here (the registry's check: the built-in model's package,
    llama-cpp for GGUF files, whether a server accepts a connection). Nothing is loaded."""
    where = f"set {name} in config.toml or in the tray's settings window"
    return _check(name, (spec or "").strip(), registry.model_check(spec, where))


def reward_check(spec: str) -> dict[str, Any]:
    """Whether the reward model `spec` can be used here (the registry's check; `llm:M` checks M as a model)."""
    where = "set rm in config.toml or in the tray's settings window"
    return _check("reward model", (spec or "").strip(), registry.reward_check(spec, where))


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
    console.print("places:\n" + "\n".join(home.place_lines(report.get("places", {}))), markup=False,
                  highlight=False)
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
