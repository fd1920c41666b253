"""ProactiveBench's data where anyone can get it: a checkout of its public repository,
https://github.com/thunlp/ProactiveAgent, read as it is laid out there, so `proactive replay --proactivebench DIR`
needs nothing copied or renamed:

- `dataset/test_data/<theme>_<n>.json`: the recorded sessions (`splits.json` beside them names the splits);
- `dataset/reward_data/train_data.jsonl`: the human judgements in reward format (the need labels);
- `eval/traces.zip`: the archived predictions of 15 models, `eval/traces_new/<model>/<session>.json` inside
  (read from the zip, or from `eval/traces_new/` when it was unpacked in place).
"""

from __future__ import annotations

import hashlib
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .sessions import SessionError

REPOSITORY = "https://github.com/thunlp/ProactiveAgent"
SESSIONS = Path("dataset/test_data")
LABELS = Path("dataset/reward_data/train_data.jsonl")
TRACES_ZIP = Path("eval/traces.zip")
TRACES = Path("eval/traces_new")  # the folder inside the zip, and where unpacking it in place puts it
NOT_SESSIONS = {"splits.json"}


@dataclass
class Checkout:
    """What a replay reads from a checkout: its sessions, its labels and its archived traces' folder."""

    sessions: list[Path]
    labels: Path
    traces: Path


def open_checkout(root: Path, names: Sequence[str], unpack_to: Path) -> Checkout:
    """The parts of the checkout at `root`: the sessions named (a file name in `dataset/test_data`; none: every
    session there), the labels, and the archived traces (unpacked from `eval/traces.zip` under `unpack_to`,
    once per zip content, unless `eval/traces_new/` is there). Raises SessionError naming what is missing."""
    folder = root / SESSIONS
    if not folder.is_dir():
        raise SessionError(f"{root}: not a checkout of {REPOSITORY} (no {SESSIONS}/)")
    if names:
        sessions = [folder / name for name in names]
        missing = [p.name for p in sessions if not p.is_file()]
        if missing:
            raise SessionError(f"{folder}: no session {', '.join(missing)}")
    else:
        sessions = sorted(p for p in folder.glob("*.json") if p.name not in NOT_SESSIONS)
        if not sessions:
            raise SessionError(f"{folder}: no session files")
    labels = root / LABELS
    if not labels.is_file():
        raise SessionError(f"{root}: no {LABELS} (the human labels)")
    return Checkout(sessions, labels, traces_folder(root, unpack_to))


def traces_folder(root: Path, unpack_to: Path) -> Path:
    """The archived traces as a folder `<model>/<session>.json`: `eval/traces_new/` when unpacked in place, else
    the zip's traces unpacked under `unpack_to/<its sha256>` (done once; a later run reads them again)."""
    if (root / TRACES).is_dir():
        return root / TRACES
    archive = root / TRACES_ZIP
    try:
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()[:16]
        target = unpack_to / digest
        if not target.is_dir():
            _unpack(archive, target)
    except (OSError, zipfile.BadZipFile) as exc:
        raise SessionError(f"{archive}: cannot read the archived traces ({getattr(exc, 'strerror', None) or exc})"
                           ) from None
    return target


def _unpack(archive: Path, target: Path) -> None:
    """The zip's `eval/traces_new/<model>/<session>.json` members into `target/<model>/<session>.json`, nothing
    else (a member's name never chooses where it lands outside `target`); written beside and renamed, so a
    killed unpack leaves no half folder."""
    partial = target.with_name(target.name + ".partial")
    partial.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive) as z:
        for member in z.infolist():
            parts = PurePosixPath(member.filename).parts
            if (member.is_dir() or len(parts) != 4 or PurePosixPath(*parts[:2]) != PurePosixPath(TRACES.as_posix())
                    or not parts[3].endswith(".json") or any(p in ("", ".", "..") for p in parts)):
                continue
            model = partial / parts[2]
            model.mkdir(exist_ok=True)
            (model / parts[3]).write_bytes(z.read(member))
    partial.rename(target)
