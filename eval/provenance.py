"""How a replay report was made: the code's version and commit, the command, when and for how long, and a digest
of every input, so a figure in a report can be traced to what produced it and reproduced (lm-eval and inspect_ai
record the same)."""

from __future__ import annotations

import hashlib
import subprocess
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from proactive.models.extras import DISTRIBUTION

CODE = Path(__file__).resolve().parents[1]  # the package's folder: a git checkout's root when run from one


def version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def commit() -> str | None:
    """The checkout's commit (12 hex digits, "+changes" when tracked files differ from it); None outside a git
    checkout (an installed wheel) or without git."""
    try:
        head = subprocess.run(["git", "-C", str(CODE), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, timeout=10)
        if head.returncode != 0:
            return None
        changed = subprocess.run(["git", "-C", str(CODE), "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return head.stdout.strip() + ("+changes" if changed.stdout.strip() else "")


def digest(paths: Iterable[Path]) -> str:
    """sha256 (first 16 hex digits) over the files' names and contents, in the given order."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def provenance(command: str, started: float, sessions: Sequence[Path], labels: Path | None,
               baselines: dict[str, Sequence[Path]], settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report's header: version, commit, command, start (ISO 8601, UTC), duration so far, every setting that
    changes a figure, and the inputs' digests (each session file; the labels; each archived model's traces
    together)."""
    return {
        "settings": dict(settings or {}),
        "version": version(),
        "commit": commit(),
        "command": command,
        "started": datetime.fromtimestamp(started, UTC).isoformat(timespec="seconds"),
        "duration_s": round(time.time() - started, 1),
        "inputs": {
            "sessions": {str(p): digest([p]) for p in sessions},
            "labels": None if labels is None else {str(labels): digest([labels])},
            "baselines": {name: {"traces": len(files), "sha256": digest(files)} for name, files in baselines.items()},
        },
    }


def settings_line(settings: dict[str, Any]) -> str:
    """The settings that change a figure, in one line (none of them read from config.toml)."""
    return "- settings: " + ", ".join(f"{name} {value}" for name, value in settings.items()
                                      if value is not None)


def header_lines(info: dict[str, Any]) -> list[str]:
    """The header as Markdown list items."""
    inputs = info["inputs"]
    lines = [f"- version: {DISTRIBUTION} {info['version']}, commit {info['commit'] or 'unknown (not a git checkout)'}",
             f"- command: `{info['command']}`",
             f"- started {info['started']}, took {info['duration_s']} s",
             *([settings_line(info["settings"])] if info.get("settings") else []),
             "- inputs (sha256, first 16 hex digits): " + ", ".join(
                 f"{Path(p).name} {h}" for p, h in inputs["sessions"].items())]
    if inputs["labels"]:
        lines.append("- labels: " + ", ".join(f"{p} {h}" for p, h in inputs["labels"].items()))
    if inputs["baselines"]:
        lines.append("- baselines: " + ", ".join(f"{name} ({b['traces']} traces) {b['sha256']}"
                                                 for name, b in inputs["baselines"].items()))
    return lines
