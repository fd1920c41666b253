"""A real OS keyring for the encryption tests: a private D-Bus session bus (dbus-daemon) with gnome-keyring-daemon
serving the Secret Service on it, its login keyring created and unlocked with a test password.

Everything lives in a temporary folder (HOME, XDG_* and the bus socket), so the user's own keyring is never
touched; `env` is the environment a `proactive` subprocess needs to use it."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from bench.wayland_session import start_private_bus

SECRETS = "org.freedesktop.secrets"


def available() -> str | None:
    """Why a real keyring session cannot be started here, or None."""
    missing = [tool for tool in ("dbus-daemon", "gnome-keyring-daemon") if not shutil.which(tool)]
    return f"missing {', '.join(missing)} (apt packages dbus-daemon, gnome-keyring)" if missing else None


class KeyringSession:
    """dbus-daemon + gnome-keyring-daemon (Secret Service), started by `start()`, stopped by `stop()`.

    No service files are given to the bus, so nothing else is ever activated on it: when the keyring daemon is
    stopped, the bus answers but no Secret Service is there (the "address exists, no keyring" case)."""

    def __init__(self, root: Path):
        self.root = root
        self.dirs = {name: root / name for name in ("home", "run", "data", "config", "cache")}
        self.bus: subprocess.Popen | None = None
        self.keyring: subprocess.Popen | None = None
        self.address = ""

    @property
    def env(self) -> dict[str, str]:
        """os.environ plus this session's bus (and nothing that would pick another keyring backend)."""
        env = {k: v for k, v in os.environ.items() if k != "PYTHON_KEYRING_BACKEND"}
        env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        return env

    def start(self, keyring: bool = True) -> KeyringSession:
        """The bus, and (`keyring`) the keyring daemon on it; without, the bus answers with no Secret Service
        until `start_keyring()` (a keyring that comes up after the programs of the session)."""
        for path in self.dirs.values():
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            self.bus, self.address = start_private_bus(self.root, self._daemon_env())
        except RuntimeError:
            self.stop()
            raise
        return self.start_keyring() if keyring else self

    def _daemon_env(self) -> dict[str, str]:
        env = dict(os.environ, HOME=str(self.dirs["home"]), XDG_RUNTIME_DIR=str(self.dirs["run"]),
                   XDG_DATA_HOME=str(self.dirs["data"]), XDG_CONFIG_HOME=str(self.dirs["config"]),
                   XDG_CACHE_HOME=str(self.dirs["cache"]))
        if self.address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        return env

    def start_keyring(self) -> KeyringSession:
        """gnome-keyring-daemon on the bus, its login keyring unlocked (created at the first start)."""
        self.keyring = subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                                        env=self._daemon_env(), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        self.keyring.stdin.write(b"test keyring password")  # --unlock: creates and unlocks the login keyring
        self.keyring.stdin.close()
        self._wait_for_service()
        return self

    def _wait_for_service(self, timeout: float = 10.0) -> None:
        from jeepney import DBusAddress, new_method_call
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection

        service = DBusAddress("/org/freedesktop/secrets", bus_name=SECRETS,
                              interface="org.freedesktop.Secret.Service")
        deadline = time.monotonic() + timeout
        with open_dbus_connection(bus=self.address) as conn:
            while time.monotonic() < deadline:
                if conn.send_and_get_reply(message_bus.NameHasOwner(SECRETS), timeout=2).body[0]:
                    alias = conn.send_and_get_reply(new_method_call(service, "ReadAlias", "s", ("default",)),
                                                    timeout=2).body[0]
                    if alias != "/":
                        return
                if self.keyring.poll() is not None:
                    break
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("gnome-keyring-daemon did not serve the Secret Service")

    def lock(self) -> None:
        """Lock the login keyring (as a screen lock or a fresh boot without auto-unlock leaves it): reading a
        secret would then need its password."""
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection

        service = DBusAddress("/org/freedesktop/secrets", bus_name=SECRETS,
                              interface="org.freedesktop.Secret.Service")
        with open_dbus_connection(bus=self.address) as conn:
            login = conn.send_and_get_reply(new_method_call(service, "ReadAlias", "s", ("default",)),
                                            timeout=2).body[0]
            locked, prompt = conn.send_and_get_reply(new_method_call(service, "Lock", "ao", ([login],)),
                                                     timeout=5).body
        if list(locked) != [login] or prompt != "/":
            raise RuntimeError(f"could not lock {login}: {locked}, prompt {prompt}")

    def stop_keyring(self) -> None:
        """Stop only the keyring daemon: the bus stays, with no Secret Service on it."""
        if self.keyring is not None:
            self.keyring.terminate()
            try:
                self.keyring.wait(10)
            except subprocess.TimeoutExpired:
                self.keyring.kill()
                self.keyring.wait()
            self.keyring = None

    def stop(self) -> None:
        self.stop_keyring()
        if self.bus is not None:
            self.bus.terminate()
            try:
                self.bus.wait(10)
            except subprocess.TimeoutExpired:
                self.bus.kill()
                self.bus.wait()
            self.bus.stdout.close()
            self.bus = None
