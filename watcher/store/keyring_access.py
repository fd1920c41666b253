"""The OS keyring, asked without prompting and without hanging (for the database's key: watcher/store/crypto.py).

Why not `keyring.get_keyring()`: it keeps the backend it found first for the whole process, so a tray started
before the Secret Service came up would never encrypt. Here the backend is looked for afresh at each call, a
locked keyring counts as none (no unlock prompt), and each call runs under KEYRING_TIMEOUT_S: a call that did not
answer is not followed by another until it returns.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

KEYRING_TIMEOUT_S = 5.0
# keyring backends that are the OS's own secret store; anything else (null, fail, a plaintext file from
# keyrings.alt, one that asks for a password on the terminal) counts as no keyring
OS_STORES = ("keyring.backends.SecretService", "keyring.backends.libsecret", "keyring.backends.kwallet",
             "keyring.backends.macOS", "keyring.backends.Windows")


class NoKeyring(Exception):
    """No OS keyring can be used now; str() says why (one line)."""


_lock = threading.RLock()
_stuck: list[threading.Thread] = []  # a keyring call that outlived its time limit: none is made until it ends


def reset() -> None:
    """Forget a call left running past its time limit (tests)."""
    with _lock:
        _stuck.clear()


def _bounded(call: Callable[..., Any], *args: Any) -> Any:
    """`call(*args)` in a daemon thread, given KEYRING_TIMEOUT_S: a D-Bus peer that accepts and never answers, or
    a keyring waiting on a prompt, must not hang the watcher. A call that times out is abandoned, and the keyring
    counts as absent until that call returns (a wedged bus costs one thread and one wait, not one per open). Any
    failure of the call is NoKeyring, in one line."""
    late = NoKeyring(f"the keyring did not answer within {KEYRING_TIMEOUT_S:g} s")
    with _lock:
        if _stuck and _stuck[0].is_alive():
            raise late
        _stuck.clear()
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = call(*args)
        except BaseException as exc:  # handed to the caller
            result["error"] = exc

    thread = threading.Thread(target=run, name="keyring", daemon=True)
    thread.start()
    thread.join(KEYRING_TIMEOUT_S)
    if thread.is_alive():
        with _lock:
            _stuck[:] = [thread]
        raise late
    error = result.get("error")
    if isinstance(error, Exception) and not isinstance(error, NoKeyring):
        raise NoKeyring(f"the keyring failed ({one_line(error)})") from None
    if error is not None:
        raise error
    return result["value"]


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def backend() -> Any:
    """The OS keyring backend usable now, or NoKeyring: looked for afresh at each call (each store open without a
    known key), so a keyring that starts after this process is found. On Linux, no session bus means no Secret
    Service: said without importing keyring at all (the fast path of servers, CI and the tests)."""
    explicit = os.environ.get("PYTHON_KEYRING_BACKEND")
    if sys.platform.startswith("linux") and not explicit and not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        raise NoKeyring("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set), so no Secret Service")
    try:
        import keyring.core  # noqa: F401  (missing: said here, not as a traceback from `_choose`)
    except ImportError as exc:
        raise NoKeyring(f"the keyring package is not installed ({exc})") from None
    return _bounded(_choose)


def _choose() -> Any:
    """keyring's own choice, made now rather than taken from its per-process cache (`keyring.get_keyring()` and
    `keyring.backend.get_all_keyring()` keep what they found first): the backend PYTHON_KEYRING_BACKEND or
    keyringrc.cfg names, else the first OS store whose `priority` says it works here now."""
    import keyring.core
    from keyring.backends.chainer import ChainerBackend

    chosen = keyring.core.load_env() or keyring.core.load_config()
    if chosen is None:
        return _first_os_store()
    candidates = list(chosen.backends) if isinstance(chosen, ChainerBackend) else [chosen]
    ours = [b for b in candidates if type(b).__module__ in OS_STORES]
    if ours:  # the Secret Service first: it is the one whose lock we can check without a prompt
        return min(ours, key=lambda b: OS_STORES.index(type(b).__module__))
    name = f"{type(chosen).__module__}.{type(chosen).__name__}".removeprefix("keyring.backends.")
    raise NoKeyring(f"the keyring backend is {name}, not an OS secret store")


def _first_os_store() -> Any:
    """An instance of the first backend of OS_STORES that works here now, or NoKeyring with the first one's
    reason (on Linux, the Secret Service's: e.g. no daemon on the bus). Asking a backend class its `priority`
    is keyring's own viability check (a D-Bus call for the Secret Service), and raises when it cannot work."""
    import importlib

    from keyring.backend import KeyringBackend

    reasons: list[str] = []
    for name in OS_STORES:
        try:
            module = importlib.import_module(name)
        except Exception:  # noqa: BLE001  (another platform's backend)
            continue
        for cls in vars(module).values():
            if not (isinstance(cls, type) and issubclass(cls, KeyringBackend) and cls.__module__ == name
                    and not cls.__abstractmethods__):
                continue
            try:
                cls.priority  # noqa: B018  (raises RuntimeError where it cannot work)
            except Exception as exc:  # noqa: BLE001
                reasons.append(one_line(exc))
                continue
            return cls()
    raise NoKeyring(f"no OS keyring answers ({reasons[0] if reasons else 'none is known on ' + sys.platform})")


def name(found: Any) -> str:
    """What holds the keys, for messages: e.g. "Secret Service Keyring"; NoKeyring when none answers, or when the
    one there cannot hold a key now (no default keyring, locked): the test the store's own calls pass, so
    `doctor`, `status` and the watcher's log tell the same state."""
    _bounded(_check_unlocked, found)
    return (type(found).__doc__ or type(found).__name__).strip().splitlines()[0]


def _check_unlocked(backend: Any) -> None:
    """Secret Service: a locked default collection would make keyring show an unlock prompt; we never prompt, so a
    locked (or missing) keyring counts as none."""
    if type(backend).__module__ != "keyring.backends.SecretService":
        return
    import secretstorage
    from secretstorage.exceptions import ItemNotFoundException

    with contextlib.closing(secretstorage.dbus_init()) as bus:
        try:
            collection = secretstorage.Collection(bus)
        except ItemNotFoundException:
            raise NoKeyring("the Secret Service has no default keyring") from None
        if collection.is_locked():
            raise NoKeyring("the default keyring is waiting for its password (unlock it, e.g. by logging in, "
                            "and start again)")


def call(found: Any, method: str, *args: str) -> Any:
    """`found.method(*args)` on an unlocked keyring (`found`: from `backend()`), under the time limit; NoKeyring
    otherwise."""

    def run() -> Any:
        _check_unlocked(found)
        return getattr(found, method)(*args)

    return _bounded(run)
