"""Start the tray app at login: the XDG autostart entry, switched from the settings window.

Why here and not only in `packaging/install-linux.sh --autostart`: a person who wants the assistant at every
login should not need a terminal. Both write the same file, `$XDG_CONFIG_HOME/autostart/proactive.desktop`
(`~/.config` when unset), with the same text (`ENTRY` is `packaging/proactive-autostart.desktop`, which a test
keeps equal: the packaging folder is not installed with the package, so the text lives here too), so either can
undo the other. Desktops that follow the XDG autostart spec (GNOME, KDE, Xfce, ...) read it; elsewhere
(macOS, Windows) the switch is not offered.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ENTRY = """[Desktop Entry]
Type=Application
Version=1.0
Name=Proactive
Comment=Start the Proactive assistant in the tray at login
Exec=proactive run
Icon=proactive
Terminal=false
Categories=Utility;
StartupNotify=false
NoDisplay=true
X-GNOME-Autostart-enabled=true
"""
#: lines by which a desktop's own settings turn an entry off without removing it (the XDG spec's Hidden; GNOME's)
OFF_LINES = ("Hidden=true", "X-GNOME-Autostart-enabled=false")


def supported() -> bool:
    """Whether this system starts XDG autostart entries (Linux and the BSDs' desktops)."""
    return sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd"))


def entry_path() -> Path:
    """Where the entry goes: `$XDG_CONFIG_HOME/autostart/proactive.desktop`, as install-linux.sh puts it."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "autostart" / "proactive.desktop"


def enabled() -> bool:
    """Whether the assistant starts at login: the entry exists and no desktop setting turned it off."""
    try:
        text = entry_path().read_text(errors="replace")
    except OSError:
        return False
    return not any(line.strip() in OFF_LINES for line in text.splitlines())


def set_enabled(on: bool) -> None:
    """Write (mode 0644, as install-linux.sh does) or remove the entry; OSError when it cannot be done."""
    path = entry_path()
    if not on:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(ENTRY)
    path.chmod(0o644)
