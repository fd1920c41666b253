#!/usr/bin/env bash
# Install the Proactive desktop entry and icon for the current user (no root needed).
#
#   packaging/install-linux.sh               desktop entry + icon
#   packaging/install-linux.sh --autostart   also start the tray app at login (XDG autostart)
#   packaging/install-linux.sh --uninstall   remove everything this script installs
#
# The entries run `proactive run`: `proactive` must be on PATH (e.g. after packaging/setup.sh install, link
# .venv/bin/proactive into ~/.local/bin).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
CONFIG_HOME=${XDG_CONFIG_HOME:-$HOME/.config}
APPS_DIR=$DATA_HOME/applications
ICON_DIR=$DATA_HOME/icons/hicolor/256x256/apps
AUTOSTART_DIR=$CONFIG_HOME/autostart

DESKTOP=$APPS_DIR/proactive.desktop
ICON=$ICON_DIR/proactive.png
AUTOSTART=$AUTOSTART_DIR/proactive.desktop

autostart=0
uninstall=0
for arg in "$@"; do
    case $arg in
        --autostart) autostart=1 ;;
        --uninstall) uninstall=1 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install-linux: unknown argument: $arg" >&2; exit 2 ;;
    esac
done

refresh() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$APPS_DIR" 2>/dev/null || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$DATA_HOME/icons/hicolor/index.theme" ]; then
        gtk-update-icon-cache -q -t "$DATA_HOME/icons/hicolor" 2>/dev/null || true
    fi
}

if [ "$uninstall" -eq 1 ]; then
    for f in "$DESKTOP" "$ICON" "$AUTOSTART"; do
        if [ -e "$f" ]; then
            rm -f "$f"
            echo "removed $f"
        fi
    done
    refresh
    exit 0
fi

mkdir -p "$APPS_DIR" "$ICON_DIR"
install -m 0644 "$HERE/proactive.desktop" "$DESKTOP"
echo "installed $DESKTOP"
install -m 0644 "$HERE/../ui/icons/proactive.png" "$ICON"
echo "installed $ICON"
if [ "$autostart" -eq 1 ]; then
    mkdir -p "$AUTOSTART_DIR"
    install -m 0644 "$HERE/proactive-autostart.desktop" "$AUTOSTART"
    echo "installed $AUTOSTART"
fi
refresh
if ! command -v proactive >/dev/null 2>&1; then
    echo "note: 'proactive' is not on PATH; the menu entry needs it (e.g. ln -s $(dirname "$HERE")/.venv/bin/proactive ~/.local/bin/)"
fi
