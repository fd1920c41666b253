"""What the raw-mode tests share (tests/test_raw_mode.py, tests/test_raw_mode_watched.py): scripts written to run,
the foreground of a real pty, a fresh EchoWatch's reading of it, and vim with its own encryption."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from proactive.watcher.privacy import proc_table
from proactive.watcher.privacy.echo_programs import program_of
from proactive.watcher.privacy.echo_state import EchoWatch, Pty, Reading

from .conftest import wait_for

PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else shutil.which("python3") or "python3"


def script(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    path.chmod(0o755)
    return path


def foreground(path: str) -> list[tuple[int, str, list[str]]]:
    """The processes of a pty's foreground group: (pid, program name, argv)."""
    table = proc_table.all_processes()
    leaders = [pid for pid, st in table.items() if st.session == pid and proc_table.pts_path(st.tty_nr) == path]
    if not leaders:
        return []
    group = table[leaders[0]].tpgid
    out = []
    for pid, st in table.items():
        if st.session == leaders[0] and st.pgrp == group:
            name, argv = program_of(pid)
            out.append((pid, name, argv))
    return out


def reading_of(path: str) -> Reading:
    """The echo state of one pty (its session leader found by a scan), from a fresh EchoWatch."""
    table = proc_table.all_processes()
    leader = next((pid for pid, st in table.items() if st.session == pid and proc_table.pts_path(st.tty_nr) == path),
                  None)
    return EchoWatch()._pty(Pty(path, leader))


def wait_reading(read: Callable[[], Reading], mode: str, what: str, why: str = "") -> Reading:
    """The first reading in `mode` (and saying `why`), waiting for it."""
    def found() -> Reading | None:
        reading = read()
        return reading if reading.mode == mode and why in reading.why else None

    return wait_for(found, what=what)


@pytest.fixture
def vim() -> str:
    binary = shutil.which("vim")
    if not binary:
        pytest.skip("vim is not installed (packaging/setup.sh test installs it)")
    if "+cryptv" not in subprocess.run([binary, "--version"], capture_output=True, text=True).stdout:
        pytest.skip("this vim has no encryption (+cryptv)")
    return binary


def drain(master: int) -> None:
    """Read what a pty of ours shows (never looked at), so its program never waits to write."""
    try:
        while select.select([master], [], [], 0.05)[0]:
            os.read(master, 65536)
    except OSError:  # its program ended
        pass


def vim_encrypt(folder: Path, name: str, key: str) -> Path:
    """A file encrypted by vim itself (its key typed at its prompt on a pty of ours)."""
    path = folder / name
    pid, master = pty.fork()
    if pid == 0:
        os.chdir(folder)
        os.execvpe("vim", ["vim", "-u", "NONE", "-N", "-n", "-x", name],
                   {"PATH": os.environ["PATH"], "TERM": "xterm", "HOME": str(folder)})
    try:
        for keys in (f"{key}\r", f"{key}\r", "ithe plan\x1b", ":wq\r"):
            time.sleep(0.4)
            os.write(master, keys.encode())
            drain(master)
        wait_for(lambda: path.exists() and path.read_bytes().startswith(b"VimCrypt~"), what="vim's encrypted file")
    finally:
        os.close(master)
        os.waitpid(pid, 0)
    return path
