"""Where the assistant keeps its files: a place for each kind of file, made private.

Each kind of file has the place its platform gives it (platformdirs, app name "proactive"): on Linux the XDG
folders, so a backup can take the data and skip the cache, and a tool that cleans caches or logs finds them where
it looks. `Places` says what goes where and why. `PROACTIVE_HOME`, when set, puts everything in that one folder
instead, as older versions did (tests always set it). A home left by an older version is moved to these places
at the first start of any command (`watcher.migration`).
Files are created private (umask 077, so mode 0600 for files and 0700 for folders).
"""

from __future__ import annotations

import functools
import logging
import os
import stat
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import platformdirs

from proactive.watcher.store import migration

log = logging.getLogger("proactive.watcher.store.home")

APP_NAME = "proactive"

#: What an older version kept in its one folder and that has another place now: the config, the logs, the cache
#: and watcher.control's pause and purge files (the database, models/, annotations/ and activitywatch.published
#: are data, and stay: the data folder is that folder).
CONTROL_FILES = ("paused.json", "pause.ack", "purge.request", "purge.answer")


@dataclass(frozen=True)
class Places:
    """The folder of each kind of file.

    - config: config.toml, which the person writes and may keep under version control;
    - data: the database, the models folder, the annotations: what the person would be upset to lose;
    - cache: what can be computed again (model answers cached by `replay`);
    - logs: in the state folder (platformdirs' log folder): kept across restarts, but not worth a backup;
    - state: the pause and purge requests (watcher.control). A pause must survive a reboot (a person who paused
      capture expects it to stay paused), which rules out the runtime folder, emptied at logout; and these files
      have a folder of their own so that the watcher, which looks at its modification time before it reads them
      (watcher.pipeline), is not woken by every write of the database or a log;
    - runtime: the watcher's pid and lock and the tray's lock, which mean nothing after a reboot. The
      database's own lock (`proactive.db.lock`) is not here: it guards the file, wherever `--db` puts it, for
      every home, so it lives beside it.
    """

    config: Path
    data: Path
    cache: Path
    logs: Path
    state: Path
    runtime: Path

    @classmethod
    def one_folder(cls, root: Path) -> Places:
        """Everything in `root`, as older versions kept it (PROACTIVE_HOME)."""
        return cls(config=root, data=root, cache=root / "cache", logs=root / "logs", state=root, runtime=root)

    @classmethod
    def platform(cls) -> Places:
        """The platform's places: the XDG folders on Linux, ~/Library on macOS, AppData on Windows."""
        dirs = platformdirs.PlatformDirs(APP_NAME, appauthor=False)
        state = Path(dirs.user_state_dir)
        return cls(config=Path(dirs.user_config_dir), data=Path(dirs.user_data_dir), cache=Path(dirs.user_cache_dir),
                   logs=Path(dirs.user_log_dir), state=state, runtime=_runtime_folder(Path(dirs.user_runtime_dir), state))

    def as_dict(self) -> dict[str, str]:
        return {name: str(path) for name, path in asdict(self).items()}

    def roots(self) -> list[Path]:
        """The distinct folders, none inside another (the logs may be in the state folder): what to walk to
        reach every file."""
        folders = sorted({getattr(self, f.name) for f in fields(self)}, key=lambda p: (len(p.parts), str(p)))
        roots: list[Path] = []
        for folder in folders:
            if not any(folder.is_relative_to(root) for root in roots):
                roots.append(folder)
        return roots


#: What each place holds, in the words of `proactive status` and `proactive doctor`.
HOLDS = {"config": "config.toml", "data": "the database, models/, annotations/", "cache": "cached model answers",
         "logs": "proactive.log", "state": "pause and purge requests", "runtime": "watcher.pid, watcher.lock, tray.lock"}


def place_lines(folders: dict[str, str]) -> list[str]:
    """One line per place (`Places.as_dict()`): its name, its folder and what it holds."""
    return [f"  {name:<8} {folder}  ({HOLDS.get(name, '')})" for name, folder in folders.items()]


def _runtime_folder(path: Path, state: Path) -> Path:
    """`path`, platformdirs' runtime folder ($XDG_RUNTIME_DIR/proactive). Without XDG_RUNTIME_DIR (a console login
    without systemd-logind, some containers) platformdirs names /run/user/UID, which may not exist: the state
    folder then. Why not /tmp: a name there can be taken first by another user of the machine."""
    if os.environ.get("XDG_RUNTIME_DIR", "").strip() or sys.platform in ("win32", "darwin"):
        return path
    return path if os.access(path.parent, os.W_OK | os.X_OK) else state


#: The variables the places are made from (the cache of `places()` is keyed by their values).
PLACE_VARIABLES = ("PROACTIVE_HOME", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
                   "XDG_RUNTIME_DIR", "APPDATA", "LOCALAPPDATA")


def places() -> Places:
    """Where each kind of file lives for this process: PROACTIVE_HOME's one folder when it is set, else the
    platform's places, once an older version's home has been moved there. While a watcher of an older version
    still runs (it holds the old home's lock), the old home's one folder, so this process and that watcher agree
    on the pause and purge files and the config; the move waits for its next start (watcher.migration)."""
    return _places(tuple(os.environ.get(name) for name in PLACE_VARIABLES))


@functools.lru_cache(maxsize=16)
def _places(environment: tuple[str | None, ...]) -> Places:
    """`places()` for these values of PLACE_VARIABLES: worked out (and the old home moved) once per process."""
    root = environment[0]
    if root:
        return Places.one_folder(Path(root).expanduser())
    new = Places.platform()
    old = new.data  # older versions kept everything in platformdirs' data folder
    # the small files first (renames): a move that fails part way (a full disk) has then moved what matters most
    moves = {"config.toml": new.config / "config.toml", **{name: new.state / name for name in CONTROL_FILES},
             "cache": new.cache, "logs": new.logs}
    try:
        moved = migration.migrate(old, moves, new.runtime / "migrate.lock")
    except (OSError, TimeoutError) as exc:  # what was not moved stays whole in `old`; the next start tries again
        log.warning("could not move all of %s to its new places (%s); what is left there is tried again at the next "
                    "start", old, exc)
        return new
    return new if moved else Places.one_folder(old)


def _folder(path: Path) -> Path:
    """`path`, made (0700) if missing: one stat when it exists (mkdir on an existing folder is a failed call and
    an exception, per flush)."""
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def data_dir() -> Path:
    """The database, the models folder and the annotations (made if missing)."""
    return _folder(places().data)


def state_dir() -> Path:
    """The pause and purge requests (made if missing; see `Places`)."""
    return _folder(places().state)


def runtime_dir() -> Path:
    """The watcher's pid and lock, the tray's lock (made if missing)."""
    return _folder(places().runtime)


def private_files() -> None:
    """Make every file this process creates readable by the user only."""
    os.umask(0o077)


def tighten() -> list[Path]:
    """Folders 0700 and files 0600 throughout every place (`Places.roots`), for homes made by older versions or
    loosened by hand (a log or a database readable by other users would expose what was typed). Returns what was
    changed; best effort: what cannot be changed (another owner, a read-only disk) is left for the store to
    report."""
    changed: list[Path] = []
    for root in places().roots():
        for folder, dirs, files in os.walk(root):
            for path, mode in [(Path(folder), 0o700)] + [(Path(folder) / f, 0o600) for f in files]:
                try:
                    current = path.lstat().st_mode
                    if stat.S_ISLNK(current) or stat.S_IMODE(current) & 0o077 == 0:
                        continue
                    os.chmod(path, stat.S_IMODE(current) & mode)
                    changed.append(path)
                except OSError:
                    continue
            dirs[:] = [d for d in dirs if not (Path(folder) / d).is_symlink()]
    return changed


def db_path() -> Path:
    return data_dir() / "proactive.db"


def logs_dir() -> Path:
    return _folder(places().logs)


def models_dir() -> Path:
    """Where the user keeps GGUF files for `proactive models` to list (not created: only read if present)."""
    return places().data / "models"


def cache_dir() -> Path:
    return _folder(places().cache)


def empty_logs() -> int:
    """Part of "purge everything": empty the logs (an open log handler's file stays valid); how many log files
    there were (the folder is not made when there is none)."""
    files = sorted(places().logs.glob("proactive.log*"))
    for log_file in files:
        log_file.write_bytes(b"")
    return len(files)


def config_path() -> Path:
    """config.toml (its folder is made when it is written, not when it is read)."""
    return places().config / "config.toml"
