"""A real terminal without a window, for pipeline tests that need a terminal window's process: a small process that
holds a pseudo-terminal master (as xterm does) with an interactive bash on its slave. At bash's prompt readline
puts the pty in raw mode; `ShellPty.run("read -s x")` makes it read a hidden line, exactly as in xterm. The
holder's pid is the "window's pid" the synthetic WINDOW events carry."""

from __future__ import annotations

import os
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager

HOLDER = r"""
import fcntl, os, select, subprocess, sys, termios
master, slave = os.openpty()
def take_terminal():
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
shell = subprocess.Popen(["bash", "--norc", "--noprofile", "-i"], stdin=slave, stdout=slave, stderr=slave,
                         preexec_fn=take_terminal, env={"PATH": os.environ["PATH"], "PS1": "$ ", "TERM": "xterm",
                                                        "HOME": os.environ.get("HOME", "/")})
print(os.ttyname(slave), shell.pid, flush=True)
os.close(slave)
while shell.poll() is None:
    ready, _, _ = select.select([master, sys.stdin], [], [], 0.2)
    if master in ready:
        try:
            os.read(master, 65536)  # what the terminal shows: drained, never looked at
        except OSError:
            break
    if sys.stdin in ready:
        line = sys.stdin.readline()
        if not line:
            break
        os.write(master, line.encode())
shell.kill()
"""


class ShellPty:
    """The holder process (`pid`), its pty (`path`) and the shell's pid; `run(line)` types a line into it."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        assert self.proc.stdout is not None
        path, shell = self.proc.stdout.readline().split()
        self.pid, self.path, self.shell = self.proc.pid, path, int(shell)
        self.wait_for(lambda echo, canonical: not canonical)  # readline at the prompt: raw mode

    def lflag(self) -> tuple[bool, bool]:
        fd = os.open(self.path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            flags = termios.tcgetattr(fd)[3]
        finally:
            os.close(fd)
        return bool(flags & termios.ECHO), bool(flags & termios.ICANON)

    def wait_for(self, condition, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition(*self.lflag()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.path} stayed at echo/canonical {self.lflag()}")
            time.sleep(0.02)

    def run(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@contextmanager
def shell_pty() -> Iterator[ShellPty]:
    term = ShellPty()
    try:
        yield term
    finally:
        term.close()
