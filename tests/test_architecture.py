"""The architecture's rules (ARCHITECTURE.md), checked on the source itself.

Every module of the six packages is parsed with `ast` and all its imports are read, those inside functions and
`if TYPE_CHECKING:` blocks included (a lazy import is still a dependency), as are `importlib.import_module("...")`
calls with a literal name. Each failure names the file, the line and the rule it breaks. Beside the layering between
packages, the imports inside each package form no circle (`test_no_import_cycle_inside_a_package`).
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("watcher", "assistant", "models", "ui", "eval", "app")
#: which of our other packages each package may import (its own is always allowed)
ALLOWED: dict[str, frozenset[str]] = {
    "watcher": frozenset(),
    "models": frozenset(),
    "assistant": frozenset({"watcher", "models"}),
    "eval": frozenset({"assistant", "watcher", "models"}),
    "ui": frozenset({"assistant", "watcher", "models", "eval"}),
    # the top floor: the command line that gathers every package's commands, and the runtime that wires the app
    "app": frozenset({"ui", "eval", "assistant", "watcher", "models"}),
}
CLI = "proactive.app.cli"
#: the folders that are not ours to read: environments, caches, build output, test output
SKIPPED_DIRS = {".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", ".hypothesis", "build",
                "dist", "test-artifacts", "node_modules"}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".sh", ".spec", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".desktop",
                 ".plist"}


def repo_files() -> Iterator[Path]:
    """Every file of the repository that is ours (no virtualenv, caches or build output)."""
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(part in SKIPPED_DIRS or part.endswith(".egg-info") for part in rel.parts) or not path.is_file():
            continue
        yield path


def modules() -> Iterator[tuple[str, Path]]:
    """(package, path) for every Python module of the six packages."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield package, path


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def dotted(path: Path) -> str:
    """The installed name of a module file: watcher/store/database.py -> proactive.watcher.store.database."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["proactive", *parts])


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) for every import in the file, wherever it is."""
    name = dotted(path) if path.is_relative_to(ROOT) else path.stem
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return source_imports(path.read_text(encoding="utf-8"), package)


def source_imports(source: str, package: str) -> Iterator[tuple[int, str]]:
    """The imports of `source`, a module of `package` (dotted). `from X import y` yields X and X.y (y may be a
    submodule); relative imports are resolved against `package`."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield node.lineno, module
            for alias in node.names:
                if alias.name != "*":
                    yield node.lineno, f"{module}.{alias.name}"
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))):
            yield node.lineno, node.args[0].value


def our_package(module: str) -> str | None:
    """`assistant` for proactive.assistant.live; None for anything that is not one of our six packages."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "proactive" and parts[1] in PACKAGES:
        return parts[1]
    return None


def report(violations: list[str], rule: str) -> None:
    """Fail with one line per violation (file:line, what, which rule), nothing else."""
    if violations:
        unique = list(dict.fromkeys(violations))
        pytest.fail(f"{len(unique)} violation(s) of: {rule}\n" + "\n".join(unique), pytrace=False)


def test_packages_import_only_what_the_layering_allows():
    violations, seen = [], set()
    for package, path in modules():
        for line, module in imports(path):
            target = our_package(module)
            if target is None or target == package or target in ALLOWED[package] or (line, target) in seen:
                continue
            seen.add((line, target))  # `from proactive.ui import app` once, not as proactive.ui and proactive.ui.app
            allowed = ", ".join(f"proactive.{p}" for p in sorted(ALLOWED[package])) or "no other package of ours"
            violations.append(f"{rel(path)}:{line} imports {module}: proactive.{package} may import {allowed}")
    report(violations, "the package layering (watcher, models <- assistant <- eval <- ui <- app: every arrow "
                       "points down)")


def test_nothing_imports_the_cli():
    violations = []
    for _, path in modules():
        if rel(path) == "app/cli.py":
            continue
        for line, module in imports(path):
            if module == CLI or module.startswith(CLI + "."):
                violations.append(f"{rel(path)}:{line} imports {module}")
    for path in sorted((ROOT / "bench").glob("*.py")):
        for line, module in imports(path):
            if module == CLI or module.startswith(CLI + "."):
                violations.append(f"{rel(path)}:{line} imports {module}")
    report(violations, "nothing imports proactive.app.cli (it is the entry point, not a library)")


def test_no_bare_package_names():
    """`import watcher` or `from models import x` worked only from the repository root before the packages
    installed as proactive.*; in an installed copy they fail, or import someone else's package."""
    violations = []
    for path in repo_files():
        if path.suffix != ".py":
            continue
        for line, module in imports(path):
            if module.split(".")[0] in PACKAGES:
                violations.append(f"{rel(path)}:{line} imports {module}: write proactive.{module}")
    report(violations, "imports name our packages as proactive.<package>")


def test_bench_does_not_import_tests():
    violations = []
    for path in sorted((ROOT / "bench").rglob("*.py")):
        for line, module in imports(path):
            if module.split(".")[0] == "tests":
                violations.append(f"{rel(path)}:{line} imports {module}")
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("insert", "append")
                    and ast.unparse(node.func.value) == "sys.path" and "tests" in ast.unparse(node)):
                violations.append(f"{rel(path)}:{node.lineno} puts tests/ on sys.path")
    report(violations, "benchmarks do not depend on the test suite (shared helpers live in bench/)")


#: references to design notes or data outside the repository
OUTSIDE = [
    (re.compile(r"DESIGN\.md", re.IGNORECASE), "a design file outside the repository (see ARCHITECTURE.md)"),
    (re.compile(r"\.\.[/\\]shared(?P<rest>[/\\][\w.-]+)?"), "a path outside the repository (../shared)"),
    (re.compile(r"""["']shared["']\s*/\s*["'](?P<rest>[\w.-]+)["']"""), "a path outside the repository (.../shared)"),
]


def outside_allowed(path: str, match: re.Match[str]) -> bool:
    """Only the benchmarks read the shared ProactiveBench data that sits beside the repository, by default; the
    README and docs/ name where a user gets it (the public repository), never a path outside the project."""
    rest = (match.groupdict().get("rest") or "").lstrip("/\\")
    return rest == "data" and re.fullmatch(r"bench/[^/]+\.py", path) is not None


def test_no_references_outside_the_repository():
    violations = []
    this = Path(__file__).resolve()
    for path in repo_files():
        if path.resolve() == this or (path.suffix not in TEXT_SUFFIXES and path.parent.name != ".ci"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for pattern, what in OUTSIDE:
            for match in pattern.finditer(text):
                if not outside_allowed(rel(path), match):
                    line = text.count("\n", 0, match.start()) + 1
                    violations.append(f"{rel(path)}:{line} refers to {match.group(0)!r}: {what}")
    report(violations, "the repository documents itself: no file refers to design notes outside it "
                       "(bench/*.py may read ../shared/data, the benchmarks' default data)")


def test_every_package_says_what_it_is_and_may_import():
    for package in PACKAGES:
        doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert doc and "placeholder" not in doc.lower(), f"{package}/__init__.py: no real docstring"
        assert "import" in doc, f"{package}/__init__.py: its docstring does not say what it may import"


def test_the_checks_see_every_kind_of_import():
    """The rules above are only as good as `imports`: it must see lazy, relative and dynamic imports."""
    source = ("import os\nfrom . import home\nfrom .. import ui\nfrom ..eval import replay\n"
              "def f():\n    from proactive.app import cli\n    import importlib\n"
              "    importlib.import_module('proactive.ui.app')\n")
    found = {module for _, module in source_imports(source, "proactive.watcher")}
    assert {"os", "proactive.watcher.home", "proactive.ui", "proactive.eval.replay", CLI,
            "proactive.ui.app"} <= found
    assert {our_package(m) for m in found} >= {"watcher", "ui", "eval", "app"}
    assert dotted(ROOT / "watcher" / "store" / "database.py") == "proactive.watcher.store.database"
    assert dotted(ROOT / "ui" / "__init__.py") == "proactive.ui"


# -- no import cycle inside a package ------------------------------------------------------------------------------

def module_names(package: str) -> dict[str, Path]:
    """{installed name: file} of every module of `package` (its subpackages included)."""
    return {dotted(path): path for pkg, path in modules() if pkg == package}


def resolve(module: str, known: dict[str, Path] | set[str]) -> str | None:
    """The module of ours that an imported name lives in: the longest prefix of `module` that is one of `known`
    (`proactive.watcher.capture.sources.Probe` -> `proactive.watcher.capture.sources`); None for anything else."""
    while module and module not in known:
        module = module.rpartition(".")[0]
    return module or None


def import_graph(package: str) -> dict[str, dict[str, int]]:
    """{module: {module of the same package it imports: the first line that does}}. Every import counts, at the
    top of the module or inside a function (an import moved into a function to dodge a cycle at import time is
    still the same circle in the design), and `if TYPE_CHECKING:` ones too. A module's own enclosing packages are
    no edge: Python runs a package's `__init__` before any module in it, whatever that module imports."""
    names = module_names(package)
    graph: dict[str, dict[str, int]] = {}
    for name, path in names.items():
        edges = graph.setdefault(name, {})
        for line, imported in imports(path):
            target = resolve(imported, names)
            if target is None or target == name or name.startswith(target + "."):
                continue
            edges.setdefault(target, line)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted: every module
    of one can reach every other through imports, so none of them can be understood, tested or moved alone."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_cycle_inside_a_package():
    """Inside each package, imports form no circle: a module that imports another never finds itself among that
    one's imports, directly or further down (the interface below the implementations, the factory above them)."""
    violations = []
    for package in PACKAGES:
        graph = import_graph(package)
        paths = module_names(package)
        for component in cycles(graph):
            members = set(component)
            arrows = [f"{rel(paths[source])}:{line} imports {target.rpartition('.')[2]}"
                      for source in component
                      for target, line in sorted(graph[source].items(), key=lambda edge: edge[1])
                      if target in members]
            violations.append(f"a circle of {len(component)} modules in proactive.{package}: "
                              f"{', '.join(rel(paths[m]) for m in component)}\n    " + "\n    ".join(arrows))
    report(violations, "no import cycle inside a package (imports inside functions count)")


def test_the_cycle_check_finds_circles_and_only_circles():
    """`cycles` on small graphs: a triangle and a pair are found, a chain and a diamond are not; `import_graph`
    counts an import inside a function and `resolve` takes a name to the module that defines it."""
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 1}, "d": {"e": 1}, "e": {"d": 1}, "f": {"g": 1},
             "g": {"h": 1, "i": 1}, "h": {"j": 1}, "i": {"j": 1}, "j": {}}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"f": {"g": 1}, "g": {"h": 1, "i": 1}, "h": {"j": 1}, "i": {"j": 1}, "j": {}}) == []
    lazy = "def f():\n    from .database import Store\n"
    assert [m for _, m in source_imports(lazy, "proactive.watcher.store")] == ["proactive.watcher.store.database",
                                                                                "proactive.watcher.store.database.Store"]
    known = {"proactive.watcher", "proactive.watcher.capture.sources"}
    assert resolve("proactive.watcher.capture.sources.Probe", known) == "proactive.watcher.capture.sources"
    assert resolve("os.path", known) is None
    watcher = import_graph("watcher")
    assert "proactive.watcher.store.database" in watcher["proactive.watcher.pipeline"]
    assert all(target.startswith("proactive.watcher.") for edges in watcher.values() for target in edges)


def test_the_running_app_imports_no_training_code():
    """The tray, the live loop and the shipped reward model load without the training modules or scikit-learn
    (`models/reward_training.py`, `assistant/need_training.py`): training is `proactive reward train`'s alone."""
    import subprocess
    import sys

    code = ("import sys\n"
            "import proactive.app.runtime, proactive.assistant.live, proactive.ui.app\n"
            "from proactive.models.registry import load_reward\n"
            "load_reward('default').score([{'time': '1', 'event': 'The user copies an error.'}], None)\n"
            "print(sorted(m for m in sys.modules if m.endswith('_training') or m.split('.')[0] == 'sklearn'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", out.stdout
    trained = subprocess.run([sys.executable, "-c", "import sys, proactive.assistant.need_training\n"
                              "print('proactive.models.reward_training' in sys.modules)"],
                             capture_output=True, text=True, timeout=120)
    assert trained.stdout.strip() == "True", trained.stderr  # the check sees a training import when there is one


def local_links(page: Path) -> set[str]:
    """The files a Markdown page shows or links (`![..](path)`, `[..](path)`), as paths from the repository's root
    (the link resolved from the page's folder); web addresses and links within the page are left out."""
    text = page.read_text(encoding="utf-8")
    targets = (t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", text)
               if "://" not in t and not t.startswith("#"))
    return {Path(os.path.relpath(os.path.normpath(page.parent / t), ROOT)).as_posix() for t in targets}


def test_every_file_the_readme_links_to_exists():
    """Pictures and pages the README shows or links (`![..](path)`, `[..](path)`) are in the repository."""
    targets = local_links(ROOT / "README.md")
    assert any(t.startswith("docs/images/") for t in targets)
    assert [t for t in sorted(targets) if t.startswith("../") or not (ROOT / t).exists()] == []


def test_the_docs_pages_are_linked_from_the_readme_and_their_links_exist():
    """Each page of docs/ is linked from the README (a page nobody links is lost), and every picture or page a
    docs/ page links, relative to docs/, is in the repository."""
    pages = sorted((ROOT / "docs").glob("*.md"))
    assert pages
    linked = local_links(ROOT / "README.md")
    assert [rel(page) for page in pages if rel(page) not in linked] == []
    broken = [f"{rel(page)} -> {target}" for page in pages for target in sorted(local_links(page))
              if target.startswith("../") or not (ROOT / target).exists()]
    assert broken == []


PACKAGES_ON_DISK = ("watcher", "models", "assistant", "eval", "ui", "app")


def named_paths(text: str) -> set[str]:
    """The module paths and dotted names a document quotes in backticks: `a/b.py`, `b.py`, `pkg.module.Name`."""
    found = set()
    for quoted in re.findall(r"`([^`\s]+)`", text):
        quoted = quoted.rstrip(".,:;")
        dotted = r"(proactive\.)?(" + "|".join(PACKAGES_ON_DISK) + r")(\.\w+)+"
        if quoted.endswith(".py") or re.fullmatch(dotted, quoted):
            found.add(quoted)
    return found


def resolves(name: str) -> bool:
    """A quoted path exists (a bare `x.py`: somewhere in the packages); a dotted name is a module, or a name
    defined in the module before it."""
    if name.endswith(".py"):
        return (ROOT / name).exists() if "/" in name else any(
            p.name == name for package in (*PACKAGES_ON_DISK, "tests", "bench", "tools", "packaging")
            for p in (ROOT / package).rglob(name))
    parts = name.removeprefix("proactive.").split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        module = base.with_suffix(".py") if not base.is_dir() else base / "__init__.py"
        if module.exists():
            rest = parts[cut:]
            return not rest or re.search(rf"^(class|def) {rest[0]}\b|^{rest[0]}\b.*=|^    def {rest[-1]}\b",
                                         module.read_text(encoding="utf-8"), re.M) is not None
    return False


def test_every_module_architecture_names_exists():
    """ARCHITECTURE.md describes the code as it is: every module path and dotted name it quotes exists."""
    missing = sorted(n for n in named_paths((ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8"))
                     if not resolves(n))
    assert not missing, f"ARCHITECTURE.md names what does not exist: {missing}"


def _bound_twice(source: str) -> list[str]:
    """The names a module binds more than once at its top level (a def or an assignment): the later one silently
    replaces the earlier, which the earlier's callers no longer get (ruff does not say so)."""
    seen: set[str] = set()
    twice = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        else:
            names = []
        twice += [name for name in names if name in seen]
        seen.update(names)
    return twice


def test_no_module_binds_a_top_level_name_twice():
    found = {str(path.relative_to(ROOT)): twice for package in PACKAGES for path in (ROOT / package).rglob("*.py")
             if (twice := _bound_twice(path.read_text(encoding="utf-8")))}
    assert not found, found
    assert _bound_twice("SAYS = 1\ndef f(): pass\nSAYS = 2\n") == ["SAYS"]  # the check finds what it looks for
