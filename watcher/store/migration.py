"""Moving an older version's files out of its one folder to their own places (XDG places), once.

Older versions kept every file in one folder, platformdirs' data folder (`~/.local/share/proactive`). Now the
config, the logs, the cache, the pause and purge requests and the locks each have their place (`watcher.home`
says which); the database, the models folder and the annotations stay, as the data folder is that one folder.
The first start of any command moves the rest, and how:

- under a lock in the runtime folder, so two processes starting together (the watcher and the tray) never move
  the same files at once: the second waits, then finds the work done;
- holding the old folder's `watcher.lock` while it moves: if a watcher of an older version holds it, nothing is
  moved and the caller keeps the old layout for this process (that watcher reads its pause and purge requests
  and its config there: moving them under it would silently stop `proactive pause` from reaching it, a privacy
  failure). The move happens at the first start after that watcher stops. Holding the lock also keeps an older
  watcher from starting halfway through;
- file by file, never over a file already at its new place: that one is newer (written by this version), so the
  old one stays where it was and the log says so;
- by rename where both places are on one file system (atomic), else copied, synced to disk, and only then the
  old one removed: a crash at any point leaves every file whole in one place or the other;
- once: `MOVED.txt` in the old folder, written last, says where everything went; with it there, nothing is
  looked at again, so a file left behind is reported once, not at every start.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import time
from pathlib import Path

from filelock import FileLock, Timeout

log = logging.getLogger(__name__)

#: Written in the old folder once its files have moved (the record of the move, and what makes it happen once).
NOTE = "MOVED.txt"

#: Seconds a start waits for another process's move (a log folder copied to another file system takes a while).
MOVE_WAIT = 120.0

#: Seconds to try the old watcher's lock: an older `proactive status` or `pause` holds it for a moment when it
#: checks for a watcher (watcher.control.START_WAIT, the same wait an older watcher's start allows).
OLD_WATCHER_WAIT = 0.5


def pending(old: Path, moves: dict[str, Path]) -> bool:
    """Whether files of `moves` (a name in `old` -> its new place) are still to be moved: no note yet, and one
    of them is in `old` and its new place is another."""
    if (old / NOTE).exists():
        return False
    return any(_exists(old / name) and not _same_place(old / name, new) for name, new in moves.items())


def migrate(old: Path, moves: dict[str, Path], lock: Path) -> bool:
    """Move the files of `moves` from `old` to their new places (see the module's docstring); `lock` is the
    lock file that keeps two processes from moving at once. False when a watcher of an older version holds the
    old folder's lock: nothing was moved, the old layout is still in use."""
    if not pending(old, moves):
        return True
    lock.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with FileLock(str(lock), timeout=MOVE_WAIT):
        if not pending(old, moves):  # another process moved them while this one waited
            return True
        old_watcher = FileLock(str(old / "watcher.lock"), thread_local=False)
        try:
            old_watcher.acquire(timeout=OLD_WATCHER_WAIT, poll_interval=0.02)
        except Timeout:
            pid = _read(old / "watcher.pid") or "?"
            log.warning("a watcher of an older version (pid %s) uses %s: its files stay there until it stops; "
                        "stop it (kill %s) and start again to move them to their new places", pid, old, pid)
            return False
        try:
            left = [path for name, new in moves.items() for path in move(old / name, new)]
            (old / "watcher.pid").unlink(missing_ok=True)  # an older watcher's, stale: its lock is held here
            _write_note(old, moves, left)
            # an older version's lock file, not used any more; removed while held, so no older watcher starts on it
            (old / "watcher.lock").unlink(missing_ok=True)
        finally:
            old_watcher.release()
    return True


def move(source: Path, new: Path) -> list[Path]:
    """Move the file or folder `source` to `new` (a folder's files one by one into `new`, which may already
    exist); returns what was left because its new place was taken."""
    if not _exists(source) or _same_place(source, new):
        return []
    if source.is_dir() and not source.is_symlink():
        left = [path for child in sorted(source.iterdir()) for path in move(child, new / child.name)]
        if not left:
            _remove_empty(source)
        return left
    if _exists(new):
        log.warning("%s was not moved: %s already exists and is used; compare them, then remove the one you do "
                    "not want", source, new)
        return [source]
    new.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if source.is_symlink():
        _relink(source, new)
        return []
    try:
        os.rename(source, new)  # atomic; under the lock nothing else writes `new` (checked just above)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        _copy(source, new)
        source.unlink()
    log.info("moved %s to %s", source, new)
    return []


def _relink(source: Path, new: Path) -> None:
    """A symbolic link (a config.toml kept with the person's dotfiles) made again at `new`, to the same file: a
    relative target is made absolute, as it would name another file from the new folder."""
    target = os.readlink(source)
    os.symlink(os.path.normpath(os.path.join(source.parent, target)), new)  # an absolute target is kept as is
    source.unlink()
    log.info("moved the link %s to %s", source, new)


def _copy(source: Path, new: Path) -> None:
    """`source` copied to `new` across file systems, whole or not at all: written to a temporary name, synced to
    disk, then renamed into place (and the folder synced), so the old file is removed only once the copy is
    safe."""
    tmp = new.with_name(f".{new.name}.moving")
    shutil.copy2(source, tmp)
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.rename(tmp, new)
    _sync_folder(new.parent)


def _sync_folder(folder: Path) -> None:
    """The folder's entries on disk (a rename is durable once its folder is synced); not possible on Windows."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_note(old: Path, moves: dict[str, Path], left: list[Path]) -> None:
    lines = [f"Proactive moved its files from this folder to their own places on {time.strftime('%Y-%m-%d %H:%M')}:",
             *(f"  {name} -> {new}" for name, new in moves.items() if not _same_place(old / name, new))]
    if left:
        lines += ["Left here, because a file of that name was already at its new place (that one is used):",
                  *(f"  {path}" for path in left)]
    (old / NOTE).write_text("\n".join(lines) + "\n")


def _remove_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:  # something appeared in it meanwhile: it stays
        pass


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _same_place(source: Path, new: Path) -> bool:
    """Whether `new` is `source` itself: nothing to move (macOS and Windows keep the config in the data folder;
    Windows' file names ignore case, so the old `cache` is its new `Cache`)."""
    try:
        return source.resolve() == new.resolve() or (_exists(new) and os.path.samefile(source, new))
    except OSError:
        return False


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return ""
