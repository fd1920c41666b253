"""Shared plumbing for the Wayland sources (`wl_window.py`, `wl_clipboard.py`, `wl_idle.py`) and their probes.

Which of those sources a Wayland session gets is `platform.py`'s choice (by compositor); this module knows no
source, so the sources can import it without a circle.

`wayland_globals()` lists the protocols the compositor offers (one round trip on its socket, stdlib only), so a
probe can say "this compositor has no data-control" without starting anything. `dbus_call()` is one blocking
method call on the session bus (jeepney, pure Python, no GObject), for the D-Bus backends. `stop_helper()` stops
a helper program a source reads (wl-paste, swayidle).
"""

from __future__ import annotations

import logging
import os
import signal
import struct
import subprocess
import threading
from collections.abc import Mapping
from typing import Any

from proactive.watcher.capture.session import wayland_socket

log = logging.getLogger(__name__)

DATA_CONTROL = ("zwlr_data_control_manager_v1", "ext_data_control_manager_v1")
IDLE_NOTIFY = ("ext_idle_notifier_v1", "org_kde_kwin_idle")


class WaylandError(OSError):
    """The compositor could not be reached or answered with a protocol error."""


def _string(data: bytes, offset: int) -> tuple[str, int]:
    (length,) = struct.unpack_from("=I", data, offset)
    raw = data[offset + 4: offset + 4 + length]
    return raw.rstrip(b"\0").decode("utf-8", "replace"), offset + 4 + ((length + 3) & ~3)


def wayland_globals(env: Mapping[str, str] | None = None, timeout: float = 2.0) -> dict[str, int]:
    """The global interfaces the compositor advertises ({interface: version}), asked once over its socket:
    wl_display.get_registry, then wl_display.sync, reading wl_registry.global events until the sync's callback is
    done. Raises WaylandError when there is no compositor to ask."""
    import socket

    path = wayland_socket(env)
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except (AttributeError, OSError) as exc:
        raise WaylandError(f"no Unix sockets here: {exc}") from None
    sock.settimeout(timeout)
    try:
        try:
            sock.connect(path)
        except OSError as exc:
            raise WaylandError(f"cannot connect to the Wayland compositor at {path}: {exc.strerror or exc}") from None
        # object 1 is wl_display; get_registry (opcode 1) -> new id 2; sync (opcode 0) -> new id 3
        sock.sendall(struct.pack("=III", 1, (12 << 16) | 1, 2) + struct.pack("=III", 1, (12 << 16) | 0, 3))
        found: dict[str, int] = {}
        buffer = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except OSError as exc:
                raise WaylandError(f"the Wayland compositor did not answer: {exc}") from None
            if not chunk:
                raise WaylandError("the Wayland compositor closed the connection")
            buffer += chunk
            while len(buffer) >= 8:
                sender, word = struct.unpack_from("=II", buffer)
                size, opcode = word >> 16, word & 0xFFFF
                if size < 8 or len(buffer) < size:
                    break
                body, buffer = buffer[8:size], buffer[size:]
                if sender == 2 and opcode == 0:  # wl_registry.global(name, interface, version)
                    interface, offset = _string(body, 4)
                    found[interface] = struct.unpack_from("=I", body, offset)[0]
                elif sender == 3 and opcode == 0:  # wl_callback.done: every global was sent
                    return found
                elif sender == 1 and opcode == 0:  # wl_display.error
                    message, _ = _string(body, 8)
                    raise WaylandError(f"Wayland protocol error: {message}")
    finally:
        sock.close()


def has_protocol(names: tuple[str, ...], env: Mapping[str, str] | None = None) -> tuple[bool, str]:
    """(whether the compositor offers one of `names`, a detail line for a probe)."""
    try:
        offered = wayland_globals(env)
    except WaylandError as exc:
        return False, str(exc)
    for name in names:
        if name in offered:
            return True, f"the compositor offers {name}"
    return False, f"the compositor offers none of {', '.join(names)}"


def dbus_call(destination: str, path: str, interface: str, method: str, signature: str | None = None,
              body: tuple[Any, ...] = (), timeout: float = 2.0) -> tuple[Any, ...]:
    """One method call on the session bus; returns the reply's body. Raises OSError (no bus), or
    jeepney's DBusErrorResponse (the service or method is not there)."""
    from jeepney import DBusAddress, new_method_call
    from jeepney.io.blocking import open_dbus_connection
    from jeepney.wrappers import unwrap_msg

    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        raise OSError("no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)")
    address = DBusAddress(path, bus_name=destination, interface=interface)
    with open_dbus_connection(bus="SESSION") as conn:
        reply = conn.send_and_get_reply(new_method_call(address, method, signature, body), timeout=timeout)
    return tuple(unwrap_msg(reply))  # raises DBusErrorResponse for an error reply


def stop_helper(proc: subprocess.Popen | None, thread: threading.Thread | None) -> None:
    """Stop a helper program a source reads (wl-paste, swayidle) with its process group (a copy's shell too),
    then the thread reading it."""
    if proc is not None and proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except (OSError, AttributeError):
            proc.terminate()
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            proc.kill()
    if thread is not None:
        thread.join(timeout=3)
