"""Proactive's own GNOME Shell extension, which tells the session bus which window has the focus (GNOME on Wayland
tells no client), and the one command that installs it: `proactive gnome-extension install`.

Why an extension of our own (README, "GNOME"): Mutter offers clients no protocol for the focused window; the
accessibility bus knows only accessible applications (a terminal such as foot is not one); GNOME's own
`org.gnome.Shell.Introspect` answers only when the `introspect` setting opens it to every caller, and in Shell 43
it signals only application changes (`RunningApplicationsChanged`) and window lists (`WindowsChanged`), not a
switch between two windows of one application nor a title change; the desktop portal has no focused-window
interface. An extension runs inside the Shell and sees `global.display.focus_window` change.

The extension's code is one class (`gnome_focus/focus.js`), wrapped at install time for the running Shell's
extension format: GNOME 42-44 load `extension.js` through `init()` (tested with Shell 43); 45 and later load an ES
module (UNTESTED here: no such Shell on Debian 12). It is copied into the person's
`$XDG_DATA_HOME/gnome-shell/extensions/` and added to `org.gnome.shell enabled-extensions`. GNOME Shell scans its
extensions only when it starts: on Wayland a newly installed extension runs from the next login (log out and
in); on X11 also after Alt+F2 `r`.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

UUID = "focus@proactive-assistant"
BUS_NAME, PATH, INTERFACE = "org.gnome.Shell", "/org/proactive/Focus", "org.proactive.Focus"
COMMAND = "proactive gnome-extension install"
RELOGIN = "GNOME loads a new extension at the next login: log out and back in"

LEGACY = """\
const {{ Gio, GLib }} = imports.gi;

{body}

/* exported init */
function init() {{
    return new ProactiveFocus();
}}
"""
MODULE = """\
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import {{ Extension }} from 'resource:///org/gnome/shell/extensions/extension.js';

{body}

export default class ProactiveFocusExtension extends Extension {{
    enable() {{
        this._focus = new ProactiveFocus();
        this._focus.enable();
    }}

    disable() {{
        this._focus.disable();
        this._focus = null;
    }}
}}
"""


class ExtensionError(RuntimeError):
    """The extension cannot be installed here (no GNOME Shell, no gsettings); the message says why."""


def shell_version() -> int | None:
    """The installed GNOME Shell's major version (`gnome-shell --version`), None without one."""
    if shutil.which("gnome-shell") is None:
        return None
    try:
        out = subprocess.run(["gnome-shell", "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r"(\d+)(?:\.\d+)*", out)
    return int(found.group(1)) if found else None


def extension_dir() -> Path:
    """Where GNOME Shell looks for this user's extensions (GLib's user data folder), ours in it."""
    data = os.environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local" / "share")
    return Path(data) / "gnome-shell" / "extensions" / UUID


def files(major: int) -> dict[str, str]:
    """metadata.json and extension.js for GNOME Shell `major`."""
    body = resources.files("proactive.watcher.capture.gnome_focus").joinpath("focus.js").read_text()
    wrapper = LEGACY if major < 45 else MODULE
    metadata = {"uuid": UUID, "name": "Proactive focus reporter",
                "description": "Tells Proactive (a local assistant) which window has the focus, on the session "
                               "bus. Reads nothing else.",
                "shell-version": [str(major)]}
    return {"metadata.json": json.dumps(metadata, indent=2) + "\n", "extension.js": wrapper.format(body=body)}


def _gsettings(*args: str) -> str:
    if shutil.which("gsettings") is None:
        raise ExtensionError("gsettings is not installed (it comes with GNOME: package libglib2.0-bin)")
    out = subprocess.run(["gsettings", *args], capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise ExtensionError(f"gsettings {' '.join(args[:3])} failed: {out.stderr.strip() or out.returncode}")
    return out.stdout.strip()


def enabled_extensions() -> list[str]:
    """`org.gnome.shell enabled-extensions` (a GVariant string array such as "['a@b']" or "@as []")."""
    text = _gsettings("get", "org.gnome.shell", "enabled-extensions").removeprefix("@as").strip()
    value = ast.literal_eval(text or "[]")
    return [str(v) for v in value]


def _set_enabled(uuids: list[str]) -> None:
    _gsettings("set", "org.gnome.shell", "enabled-extensions", json.dumps(uuids))


def user_extensions_disabled() -> bool:
    """Whether the person turned every user extension off (`disable-user-extensions`): ours would not load."""
    try:
        return _gsettings("get", "org.gnome.shell", "disable-user-extensions") == "true"
    except ExtensionError:
        return False


def install() -> list[str]:
    """Copy the extension for this GNOME Shell into the person's extensions folder and enable it; lines to print."""
    major = shell_version()
    if major is None:
        raise ExtensionError("GNOME Shell is not installed here (no gnome-shell command)")
    folder = extension_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files(major).items():
        (folder / name).write_text(text)
    uuids = enabled_extensions()
    if UUID not in uuids:
        _set_enabled([*uuids, UUID])
    lines = [f"installed the Proactive focus reporter for GNOME Shell {major} in {folder} and enabled it",
             f"{RELOGIN}; `proactive doctor` then shows the window source working"]
    if major >= 45:
        lines.append("note: tested with GNOME Shell 43 only")
    if user_extensions_disabled():
        lines.append("note: user extensions are turned off (org.gnome.shell disable-user-extensions): turn them "
                     "on in the Extensions app, or ours does not run")
    return lines


def remove() -> list[str]:
    """Disable the extension and delete its files (it stops at the next login on Wayland); lines to print."""
    uuids = enabled_extensions()
    if UUID in uuids:
        _set_enabled([u for u in uuids if u != UUID])
    folder = extension_dir()
    shutil.rmtree(folder, ignore_errors=True)
    return [f"disabled the Proactive focus reporter and removed {folder}; GNOME stops it at the next login"]


@dataclass(frozen=True)
class State:
    """What is true of the extension now, for the window source's probe."""

    installed: bool
    enabled: bool

    def fix(self) -> str:
        """What the person does to get the focused window from it (when it does not answer)."""
        if not self.installed or not self.enabled:
            return f"run `{COMMAND}`, then log out and back in (GNOME loads a new extension at the next login)"
        return ("it is installed and enabled but does not answer: log out and back in (GNOME loads a new extension "
                "at the next login); if it still does not, see `gnome-extensions info " + UUID + "`")


def state() -> State:
    try:
        enabled = UUID in enabled_extensions()
    except (ExtensionError, ValueError, SyntaxError, OSError, subprocess.TimeoutExpired):
        enabled = False
    return State((extension_dir() / "extension.js").is_file(), enabled)
