"""A real X server (Xvfb + openbox) and helpers that act like a user at the keyboard, for the benchmarks that
drive real applications (bench/soak.py, bench/watcher_overhead.py, bench/tray_idle.py, bench/popup_latency.py).

Here, not in tests/, so the benchmarks never import the test suite."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from typing import Any

#: how much longer waits for real programs may take: the test suite runs four workers on two cores (some beside
#: CPU hogs), so a wait that is plenty alone may not be there; a condition that holds returns at once, so only a
#: failing wait gets slower. PROACTIVE_WAIT_SCALE overrides it.
WAIT_SCALE = float(os.environ.get("PROACTIVE_WAIT_SCALE") or (3 if os.environ.get("PYTEST_XDIST_WORKER") else 1))


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.1, what: str = "condition"):
    timeout *= WAIT_SCALE
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class XSession:
    """A running Xvfb + openbox, and helpers that act like a user at the keyboard."""

    def __init__(self, display: str, env: dict[str, str]):
        self.display = display
        self.env = env
        self.procs: list[subprocess.Popen] = []

    def xdotool(self, *args: str, timeout: float = 30) -> str:
        out = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=timeout)
        if out.returncode != 0:
            raise AssertionError(f"xdotool {' '.join(args)} failed: {out.stderr.strip()}")
        return out.stdout.strip()

    def start_xterm(self, title: str, program: str = "xterm", command: list[str] | None = None,
                    resources: tuple[str, ...] = ()) -> str:
        """Start a real xterm (or a renamed copy of it) with a fixed title (and X `resources`, each one
        "XTerm*name: value"); returns its window id once mapped."""
        args = [program, "-xrm", "XTerm*allowTitleOps: false", "-T", title, "-geometry", "80x24"]
        for resource in resources:
            args += ["-xrm", resource]
        if command:
            args += ["-e", *command]
        proc = subprocess.Popen(args, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(proc)
        wid = wait_for(lambda: self._find(title), timeout=20, what=f"window {title!r}")
        # openbox gives a new window the focus once it manages it, which may be after we found it: wait for that,
        # or an `activate` of another window right after would be undone by it on a busy machine
        try:
            wait_for(lambda: self.active() == wid, timeout=5, what=f"the focus on the new window {title!r}")
        except AssertionError:
            pass  # a window manager that does not focus new windows: nothing will be undone
        return wid

    def _find(self, title: str) -> str | None:
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{title}$"], env=self.env,
                             capture_output=True, text=True, timeout=10)
        ids = out.stdout.split()
        return ids[0] if ids else None

    def active(self) -> str | None:
        """The active window's id, None when no window has the focus."""
        out = subprocess.run(["xdotool", "getactivewindow"], env=self.env, capture_output=True, text=True,
                             timeout=10)
        return out.stdout.strip() or None if out.returncode == 0 else None

    def activate(self, wid: str) -> None:
        """Focus a window the way a user's click would, retrying until the window manager has done it (a window
        that was just mapped may not be managed yet)."""

        def focused() -> bool:
            subprocess.run(["xdotool", "windowactivate", wid], env=self.env, capture_output=True, timeout=10)
            time.sleep(0.2)
            # no active window at all for a moment (the window manager between two windows): not yet, not an error
            return self.active() == wid

        wait_for(focused, timeout=20, interval=0.3, what="window activation")
        time.sleep(0.3)

    def type(self, text: str, delay_ms: int = 20) -> None:
        self.xdotool("type", "--delay", str(delay_ms), "--", text)

    def key(self, *keys: str) -> None:
        self.xdotool("key", "--delay", "50", *keys)

    def copy(self, text: str, selection: str = "CLIPBOARD") -> None:
        """Put text on the CLIPBOARD (or another `selection`: PRIMARY) like an application would (xclip stays alive
        as the owner); returns once the copy is made, in the server's order: xclip's first process exits before
        the one it forks owns the selection (measured: 4 times in 40), so what the test does next could come
        before the copy."""
        before = self.selection_owner(selection)
        proc = subprocess.Popen(["xclip", "-selection", selection.lower(), "-i"], env=self.env,
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        proc.communicate(text.encode(), timeout=10)
        wait_for(lambda: self.selection_owner(selection) not in (None, before), timeout=10, interval=0.01,
                 what=f"xclip to own {selection} with {text[:30]!r}")

    def selection_owner(self, selection: str) -> int | None:
        """The window that owns `selection` (an X selection's name) on this server, or None."""
        from Xlib import display as xdisplay

        d = xdisplay.Display(self.display)
        try:
            owner = d.get_selection_owner(d.intern_atom(selection))
            return None if owner in (0, None) or getattr(owner, "id", owner) == 0 else getattr(owner, "id", owner)
        finally:
            d.close()

    def start_tray(self) -> subprocess.Popen:
        """A real system tray (trayer, a freedesktop.org tray panel) at the bottom right; returns once it owns
        the _NET_SYSTEM_TRAY_S0 selection, i.e. once Qt will see a tray. Stopped by close()."""
        if shutil.which("trayer") is None:
            raise AssertionError("trayer is missing: install it with packaging/setup.sh test")
        proc = subprocess.Popen(["trayer", "--edge", "bottom", "--align", "right", "--widthtype", "pixel",
                                 "--width", "96", "--height", "32", "--SetDockType", "true", "--SetPartialStrut", "true",
                                 "--expand", "false"],
                                env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(proc)
        wait_for(lambda: self.tray_owner() is not None or proc.poll() is not None, timeout=20, what="trayer")
        if proc.poll() is not None:
            raise AssertionError(f"trayer exited with {proc.returncode}")
        return proc

    def tray_owner(self) -> int | None:
        """The window that owns the system-tray selection on screen 0, or None when no tray runs."""
        return self.selection_owner("_NET_SYSTEM_TRAY_S0")

    def close(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.procs.clear()


def start_xvfb(size: str = "1280x800x24", *args: str) -> tuple[subprocess.Popen, str]:
    """Start Xvfb (with `args`, e.g. "-extension", "XFIXES") on a display it picks itself (-displayfd: it writes
    the number once it accepts clients), so servers started side by side (parallel test workers) cannot race for
    the same number. Returns the process and the display (":N")."""
    read, write = os.pipe()
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: a long-lived server never blocks on a full pipe
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp", *args],
                                pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=err)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number.isdigit():
            xvfb.kill()
            xvfb.wait()
            err.seek(0)
            raise RuntimeError(f"Xvfb failed: {err.read().decode(errors='replace')[-500:]}")
    return xvfb, f":{number}"


def start_x(attempts: int = 2) -> tuple[XSession, Callable[[], None]]:
    """Start Xvfb and openbox on a free display; returns the session and a function that stops both."""
    missing = [t for t in ("Xvfb", "openbox", "xdotool", "xclip", "xterm", "xprop") if shutil.which(t) is None]
    if missing:
        raise RuntimeError(f"missing X tools {missing}: install them with packaging/setup.sh test")
    xvfb, display = start_xvfb()
    env = dict(os.environ, DISPLAY=display)
    wm = subprocess.Popen(["openbox", "--sm-disable"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wm_ready() -> bool:
        out = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env, capture_output=True,
                             text=True)
        return "window id" in out.stdout

    def stop_servers() -> None:
        wm.terminate()
        xvfb.send_signal(signal.SIGTERM)
        for p in (wm, xvfb):
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()

    try:
        wait_for(wm_ready, timeout=20, what="openbox")
    except AssertionError:
        stop_servers()  # no orphaned Xvfb; a busy machine sometimes delays openbox: try once more
        if attempts > 1:
            return start_x(attempts - 1)
        raise RuntimeError("openbox did not start on the new X server within 20 s") from None
    session = XSession(display, env)

    def stop() -> None:
        session.close()
        stop_servers()

    return session, stop
