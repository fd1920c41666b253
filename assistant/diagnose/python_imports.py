"""Python's import errors: a module not found (the distribution that provides it, from `rules/python_modules.toml`
and the distributions installed here; close names; the person's own module run from elsewhere), a name that
cannot be imported, and a module hidden by the person's own file (csv.py, random.py); with the install command for
the person's Python (`person_python`). Third-party code named in captured text is never imported (only
`importlib.util.find_spec` on a top-level name, which runs no code).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import importlib.util
import os
import pkgutil
import re
import shlex
import shutil
import sys
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from . import Diagnosis, Situation, Step, facts
from .local_docs import is_stdlib, python_doc
from .python_traceback import CodeStep, Frame, Traceback, _frame_ref, _where

#: names that moved inside the standard library: (module, name) -> where it is now
MOVED: dict[tuple[str, str], str] = {
    **{("collections", n): "collections.abc" for n in (
        "Mapping", "MutableMapping", "Sequence", "MutableSequence", "Set", "MutableSet", "Iterable", "Iterator",
        "Callable", "Hashable", "Sized", "Container", "Generator", "Awaitable", "Coroutine", "AsyncIterable",
        "AsyncIterator", "KeysView", "ItemsView", "ValuesView", "MappingView", "Collection", "Reversible",
        "ByteString")},
    ("typing", "Buffer"): "collections.abc",
    ("fractions", "gcd"): "math",
    ("inspect", "getargspec"): "inspect.getfullargspec",
    ("cgi", "escape"): "html",
    ("time", "clock"): "time.perf_counter",
    ("base64", "encodestring"): "base64.encodebytes",
    ("base64", "decodestring"): "base64.decodebytes",
    ("string", "maketrans"): "str.maketrans",
    ("string", "letters"): "string.ascii_letters",
    ("os", "getcwdu"): "os.getcwd",
    ("itertools", "izip"): "builtins.zip",
    ("itertools", "imap"): "builtins.map",
    ("itertools", "ifilter"): "builtins.filter",
    ("asyncio", "coroutine"): "async def",
    ("typing", "override"): "typing_extensions",
    ("typing", "Self"): "typing_extensions",
}


#: the built-ins beginners use most: preferred when two names are equally close
_EVERYDAY_NAMES = frozenset({"print", "len", "range", "str", "int", "float", "list", "dict", "set", "tuple",
                             "input", "open", "sum", "min", "max", "sorted", "enumerate", "zip", "type", "abs",
                             "round", "True", "False", "None", "isinstance", "map", "filter", "bool"})


@dataclass(frozen=True)
class Provider:
    """What provides an import name: the distribution pip installs and, where Debian has one, its package."""

    pypi: str
    debian: str | None = None
    note: str | None = None


def _module_data() -> dict:
    """rules/python_modules.toml, read once (facts.py reads the same table for rules' `python_module` fact)."""
    return facts._table("python_modules")


def providers() -> dict[str, Provider]:
    """rules/python_modules.toml [modules]: import name -> Provider."""
    return {name: Provider(v.get("pypi", ""), v.get("debian"), v.get("note"))
            for name, v in _module_data()["modules"].items()}


def moved_submodules() -> dict[str, tuple[str, str]]:
    """rules/python_modules.toml [submodules]: a removed submodule -> (where it went, the note)."""
    return {name: (v["moved"], v.get("note", "")) for name, v in _module_data().get("submodules", {}).items()}


@dataclass(frozen=True)
class PythonEnv:
    """The Python the person ran, as far as the situation shows it."""

    python: str  # how to run it: "python3", ".venv/bin/python"
    where: str  # said to the person: "the virtual environment in .venv", "python3 on your PATH"
    venv: bool = False
    externally_managed: bool = False
    site_packages: tuple[str, ...] = field(default=())


_SITE = re.compile(r"(?P<prefix>/[^\"'\s]*?)/lib/python3\.\d+/(?:site|dist)-packages/")


def system_externally_managed() -> bool:
    """True when python3 on PATH is a distribution's Python that refuses pip installs (an EXTERNALLY-MANAGED file
    in its standard library folder, PEP 668)."""
    python3 = shutil.which("python3")
    if not python3:
        return False
    real = Path(os.path.realpath(python3))
    version = re.fullmatch(r"python(3\.\d+)", real.name)
    if version is None:
        return False
    return (real.parent.parent / "lib" / f"python{version[1]}" / "EXTERNALLY-MANAGED").exists()


def person_python(situation: Situation, tb: Traceback | None = None) -> PythonEnv:
    """The person's Python: a virtual environment seen in the traceback's paths, the command line or the working
    folder; else python3 on PATH (the system Python, perhaps externally managed). Never the assistant's own."""
    texts = [situation.error, situation.command or ""]
    for text in texts:  # a site-packages outside /usr: a virtual environment (or conda, pyenv, a user install)
        for match in _SITE.finditer(text):
            prefix = match["prefix"]
            if prefix.startswith(("/usr", "/opt/homebrew", "/Library")) or "/.local" in prefix:
                continue
            if Path(prefix, "pyvenv.cfg").exists() or Path(prefix, "conda-meta").exists() or \
                    Path(prefix, "bin", "python").exists():
                return PythonEnv(f"{prefix}/bin/python", f"the environment in {prefix}", True,
                                 site_packages=_site_dirs(prefix))
    command = (situation.command or "").strip()
    if command:
        try:
            first = shlex.split(command)[0]
        except (ValueError, IndexError):
            first = ""
        if re.search(r"(^|/)bin/python[\d.]*$", first) and not first.startswith("/usr/"):
            prefix = first.rsplit("/bin/", 1)[0]
            base = situation.cwd or "."
            if Path(base, prefix, "pyvenv.cfg").exists() or Path(prefix, "pyvenv.cfg").exists():
                return PythonEnv(first, f"the virtual environment in {prefix}", True,
                                 site_packages=_site_dirs(str(Path(base, prefix))))
    if situation.cwd:
        for name in (".venv", "venv", "env", ".env"):
            if Path(situation.cwd, name, "pyvenv.cfg").exists():
                return PythonEnv(f"{name}/bin/python", f"the project's virtual environment {name}/ (in "
                                 f"{situation.cwd})", True, site_packages=_site_dirs(str(Path(situation.cwd, name))))
    return PythonEnv("python3", "python3 on your PATH", False, system_externally_managed(),
                     site_packages=tuple(p for p in ("/usr/lib/python3/dist-packages",) if Path(p).is_dir()))


def _site_dirs(prefix: str) -> tuple[str, ...]:
    return tuple(str(p) for p in Path(prefix).glob("lib/python3*/site-packages") if p.is_dir())


def install_steps(provider: Provider, env: PythonEnv, name: str) -> list[Step]:
    """The install command for the person's Python, best first."""
    pkg = provider.pypi
    steps: list[Step] = []
    if not pkg:  # part of Python, shipped separately by the distribution
        if provider.debian:
            steps.append(Step(f"'{name}' comes with Python itself; Debian and Ubuntu ship it as {provider.debian}.",
                              f"sudo apt install {provider.debian}"))
        return steps
    if env.venv:
        steps.append(Step(f"Install {pkg} into {env.where} (the Python that ran this).",
                          f"{env.python} -m pip install {_quote_req(pkg)}"))
    elif env.externally_managed:
        if provider.debian:
            steps.append(Step(f"Your system Python ({env.where}) is managed by the distribution and refuses pip; "
                              f"Debian/Ubuntu package {pkg} as {provider.debian}.",
                              f"sudo apt install {provider.debian}"))
        steps.append(Step(f"Or install {pkg} in a virtual environment for this project and run your code with "
                          "its python.",
                          f"python3 -m venv .venv && . .venv/bin/activate && python -m pip install {_quote_req(pkg)}"))
    else:
        steps.append(Step(f"Install {pkg} for {env.where} (if you use a virtual environment, activate it first).",
                          f"python3 -m pip install {_quote_req(pkg)}"))
    return steps


def _quote_req(name: str) -> str:
    return shlex.quote(name)


def warm() -> None:
    """The installed distributions and modules, scanned once (about half a second) before the first error."""
    _installed()
    _module_names()


@cache
def _installed() -> tuple[dict[str, str], frozenset[str]]:
    """(import name -> distribution, distribution names) installed for this process and the system Python."""
    modules: dict[str, str] = {}
    try:
        for module, providers in importlib.metadata.packages_distributions().items():
            if providers and not module.startswith("_"):
                modules.setdefault(module, providers[0])
    except Exception:  # noqa: BLE001 - broken metadata in one distribution: the rest still count
        pass
    dists: set[str] = set()
    paths = [None, *[p for p in ("/usr/lib/python3/dist-packages",) if Path(p).is_dir()]]
    for path in paths:
        try:
            found = importlib.metadata.distributions() if path is None else \
                importlib.metadata.distributions(path=[path])
            for dist in found:
                name = dist.metadata["Name"] if dist.metadata else None
                if name:
                    dists.add(name)
        except Exception:  # noqa: BLE001
            continue
    return modules, frozenset(dists)


@cache
def _module_names(extra: tuple[str, ...] = ()) -> frozenset[str]:
    """Top-level modules on this process's import path, the system's dist-packages and `extra` folders."""
    paths = [p for p in sys.path if p and Path(p).is_dir()]
    paths += [p for p in ("/usr/lib/python3/dist-packages", *extra) if Path(p).is_dir()]
    names: set[str] = set()
    try:
        for info in pkgutil.iter_modules(paths):
            if not info.name.startswith("_"):
                names.add(info.name)
    except Exception:  # noqa: BLE001
        pass
    return frozenset(names)


def _close(word: str, candidates: set[str] | frozenset[str], cutoff: float = 0.75) -> list[str]:
    """Close matches, case-insensitive, best first; never the word itself."""
    lowered: dict[str, str] = {}
    for c in sorted(candidates):
        lowered.setdefault(c.lower(), c)
    found = difflib.get_close_matches(word.lower(), list(lowered), n=3, cutoff=cutoff)
    return [lowered[f] for f in found if f != word.lower()]


def _typos(a: str, b: str) -> int:
    """Edits between two names, a swap of neighbouring letters counting as one (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def _close_name(word: str, candidates: dict[str, str]) -> str | None:
    """The name a mistyped word most likely meant, or None. `candidates` maps a spelling to the name it stands
    for (a built-in to itself, 'length' to 'len'). difflib's ratio misses the typos of short names ('srt' for
    'str' is only 0.67), so this counts edits instead: one for a name of up to 5 letters (and the same first
    letter, so 'res' does not become 're'; in a name of up to 4 letters a letter left out, added or swapped,
    not changed), two for longer ones. A swap that keeps the same letters ranks first
    ('srt' -> 'str' rather than 'set'), then the names people use most."""
    low = word.lower()
    if len(low) < 3:
        return None
    allowed = 1 if len(low) <= 5 else 2
    ranked = []
    for spelling, name in candidates.items():
        if len(spelling) < 3 or spelling == word or abs(len(spelling) - len(low)) > allowed:
            continue
        if len(low) <= 5 and spelling[0].lower() != low[0]:
            continue
        if len(low) <= 4 and len(spelling) == len(low) and sorted(low) != sorted(spelling.lower()):
            continue  # one letter changed in a short name is as likely another word ('vals' is not 'vars')
        edits = _typos(low, spelling.lower())
        if edits <= allowed:
            ranked.append((edits, sorted(low) != sorted(spelling.lower()), name not in _EVERYDAY_NAMES, spelling))
    return candidates[min(ranked)[3]] if ranked else None


def _in_env(name: str, env: PythonEnv) -> bool:
    """Whether the person's environment has this top-level module (by its site-packages when we know them)."""
    for site in env.site_packages:
        if Path(site, name).is_dir() or any(Path(site).glob(f"{name}.py")) or any(Path(site).glob(f"{name}.*.so")):
            return True
    return False


def _module_not_found(tb: Traceback, situation: Situation) -> Diagnosis | None:
    """`No module named 'x'`: a submodule that moved or is misnamed, a package to install (its import name read
    from the table and this machine's distributions), a close name (a typo), or the person's own module run from
    elsewhere."""
    match = re.match(r"No module named '?(?P<name>[\w.]+)'?", tb.message)
    if match is None:
        return None
    full = match["name"]
    if full.startswith("__main__."):
        return None  # the relative-import rule says it
    top = full.split(".")[0]
    env = person_python(situation, tb)
    where = _where(tb)
    table = providers()

    moved = moved_submodules().get(full)
    if moved:
        target, note = moved
        return Diagnosis("python.submodule_moved",
                         f"Python cannot find the module '{full}' (\"{tb.line_text}\"){where}: {note}.",
                         (CodeStep(f"{note}: import from {target} instead.", _import_line(tb, full, target)),),
                         f"the new place of '{full}': {target}", "the table of moved modules",
                         {"module": full, "moved": target})
    # a submodule of a package that exists: the submodule's name is the problem, not an install
    parent, _, sub = full.rpartition(".")
    subs = _submodules(parent) if "." in full and (top in sys.stdlib_module_names or _find_top(top)) else set()
    if subs and sub not in subs:
        return _submodule_not_found(tb, env, table, full, subs, where)
    provider = table.get(top)
    modules, _dists = _installed()
    if provider is None:
        # the import name of an installed distribution on this machine (packages_distributions), or a known name
        if top in modules:
            provider = Provider(modules[top])
        elif top.lower() in {k.lower() for k in table}:
            key = next(k for k in table if k.lower() == top.lower())
            return _typo(tb, situation, env, top, key, "a known package's import name (case matters)", where)
    if provider is not None:
        return _install_provider(tb, env, top, provider, where)
    return _unknown_module(tb, situation, env, top, set(table) | set(modules), where)


def _submodule_not_found(tb: Traceback, env: PythonEnv, table: dict[str, Provider], full: str, subs: set[str],
                         where: str) -> Diagnosis | None:
    """A package found without the submodule named: a close name, or where it went in the package's releases."""
    parent, _, sub = full.rpartition(".")
    top = full.split(".")[0]
    close = _close(sub, subs, 0.75) if subs else []
    problem = f"Python finds '{parent}' but it has no module '{sub}' (\"{tb.line_text}\"){where}."
    steps = []
    if close:
        steps.append(CodeStep(f"'{parent}' has a module '{close[0]}': did you mean it?", f"import {parent}.{close[0]}"))
    if parent in table or top in table or not is_stdlib(top):
        steps.append(Step(f"Modules move between releases: check the documentation of {top} for the version "
                          f"you have; '{sub}' may have been renamed or removed.",
                          f"{env.python} -m pip show {table[top].pypi if top in table else top}"))
    if not steps:
        return None
    offer = (f"the close module name '{parent}.{close[0]}' (for '{full}')" if close
             else f"where '{sub}' went in {top}")
    return Diagnosis("python.submodule_not_found", problem, tuple(steps), offer,
                     "modules on the import path", {"module": full, "match": close[0] if close else ""})


def _install_provider(tb: Traceback, env: PythonEnv, top: str, provider: Provider, where: str) -> Diagnosis | None:
    """The module's package is known (the table, or an installed distribution): the command that installs it in
    the person's Python, or what replaced it."""
    steps = install_steps(provider, env, top)
    if provider.note and (provider.pypi or not steps):
        steps.insert(0, Step(provider.note + "."))
    if not steps:
        return None
    what = provider.pypi or provider.debian or top
    offer = (f"the install command for '{what}' (which provides the module '{top}')" if what != top
             else f"the install command for '{top}'")
    if provider.note and not provider.pypi and not provider.debian:
        offer = f"what replaced the module '{top}'"
    origin = (f"it comes from the package {what}" if what != top else "it comes from the package of that name") \
        if provider.pypi else (provider.note or f"Debian and Ubuntu ship it as {provider.debian}")
    return Diagnosis("python.module_not_found",
                     f"Python cannot find the module '{top}' (\"{tb.line_text}\"){where}; {origin}.",
                     tuple(steps), offer, "the table of import names and installed distributions",
                     {"module": top, "package": what, "python": env.python})


def _unknown_module(tb: Traceback, situation: Situation, env: PythonEnv, top: str, known: set[str],
                    where: str) -> Diagnosis:
    """No package is known for the name: a close name (the standard library, modules importable here, installed
    and known names), the person's own module run from elsewhere, or the install command with a warning."""
    stdlib = {n for n in sys.stdlib_module_names if not n.startswith("_")}
    close = _close(top, stdlib | set(_module_names(env.site_packages)) | known)
    if close:
        return _typo(tb, situation, env, top, close[0], None, where)
    local = _local_module(top, situation, tb)
    if local:
        return Diagnosis("python.local_module_not_found",
                         f"Python cannot find the module '{top}'{where}, but {local} exists: it is your own "
                         "module, and Python looks for it in the folder of the script it started and on "
                         "PYTHONPATH.",
                         (Step(f"Run the program from the folder that holds {local}, or add that folder to "
                               "PYTHONPATH.", f"PYTHONPATH={shlex.quote(str(Path(local).parent))} "
                               f"{situation.command or 'python3 your_script.py'}"),),
                         f"why '{top}' is not found although {local} exists", "files in the project folder",
                         {"module": top, "file": local})
    steps = install_steps(Provider(top), env, top)
    steps[0] = replace(steps[0], text=f"No installed or well-known package is named '{top}'. If it is a package "
                       f"on pypi.org (check the exact name there first: look-alike names can be malicious), "
                       f"install it. " + steps[0].text)
    return Diagnosis("python.module_not_found",
                     f"Python cannot find the module '{top}' (\"{tb.line_text}\"){where}; nothing installed "
                     "or known has a close name.",
                     tuple(steps), f"the install command for '{top}' (no close match found; check the name)",
                     "installed distributions and the table of import names", {"module": top, "package": top})


def _typo(tb: Traceback, situation: Situation, env: PythonEnv, top: str, match: str, why: str | None,
          where: str) -> Diagnosis:
    """A module name close to one that exists: correct the import; install it when it is not a standard one."""
    table = providers()
    line = _import_line(tb, top, match)
    steps = [CodeStep(f"Did you mean '{match}'? Correct the import{(' in ' + _frame_ref(tb)) if tb.frame else ''}.",
                  line)]
    if match in sys.stdlib_module_names:
        source = "the standard library"
        offer = f"the corrected import of '{match}', a standard module (close to '{top}')"
        doc = python_doc(match)
        if doc:
            steps.append(Step(f"About {doc}"))
    else:
        source = why or ("a known package" if match in table else "installed modules")
        provider = table.get(match) or Provider(_installed()[0].get(match, match))
        if not _in_env(match, env):
            steps += install_steps(provider, env, match)
        offer = f"the corrected import '{match}' (close to '{top}') and the install command for '{provider.pypi}'" \
            if len(steps) > 1 else f"the corrected import '{match}' (close to '{top}')"
    return Diagnosis("python.module_typo",
                     f"Python cannot find the module '{top}' (\"{tb.line_text}\"){where}; '{match}' is close "
                     f"({source}).", tuple(steps), offer, source, {"module": top, "match": match})


def _import_line(tb: Traceback, wrong: str, right: str) -> str:
    frame = tb.frame
    if frame and frame.code and re.search(rf"\b{re.escape(wrong)}\b", frame.code):
        return re.sub(rf"\b{re.escape(wrong)}\b", right, frame.code, count=1)
    return f"import {right}"


def _find_top(name: str) -> bool:
    """Whether a top-level module exists for this process (find_spec on a top-level name runs no code)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _submodules(parent: str) -> set[str]:
    """Submodules of a package, from its folders on disk (the parent is never imported unless standard)."""
    top = parent.split(".")[0]
    try:
        if "." in parent and not is_stdlib(top):
            return set()
        spec = importlib.util.find_spec(parent)
    except (ImportError, ValueError):
        return set()
    if spec is None or not spec.submodule_search_locations:
        return set()
    return {info.name for info in pkgutil.iter_modules(list(spec.submodule_search_locations))}


def _local_module(name: str, situation: Situation, tb: Traceback) -> str | None:
    folders = [situation.cwd] if situation.cwd else []
    if situation.file:
        folders.append(str(Path(situation.file).parent))
    for frame in tb.frames:
        if not frame.is_library:
            folders.append(str(Path(frame.file).parent))
    for folder in folders:
        for parent in (Path(folder), *list(Path(folder).parents)[:2]):
            for cand in (parent / f"{name}.py", parent / name / "__init__.py"):
                if cand.is_file():
                    return str(cand)
    return None


def _cannot_import(tb: Traceback, situation: Situation) -> Diagnosis | None:
    match = re.match(r"cannot import name '(?P<name>\w+)' from '(?P<module>[\w.]+)'", tb.message)
    if match is None:
        return None
    name, module = match["name"], match["module"]
    where = _where(tb)
    problem = f"'{module}' has no name '{name}' (\"{tb.line_text}\"){where}."
    moved = MOVED.get((module, name))
    if moved:
        if moved.startswith("builtins."):
            target, line = moved, f"# use the built-in {moved.split('.')[1]}() instead of {module}.{name}"
        elif "." in moved and moved.rpartition(".")[0] in sys.stdlib_module_names | {"collections.abc"} \
                and moved != "collections.abc" and not moved.startswith("typing_extensions"):
            target = moved
            mod, _, attr = moved.rpartition(".")
            line = f"from {mod} import {attr}" if mod != "str" else f"# use {moved}"
        elif moved == "typing_extensions":
            target, line = f"typing_extensions.{name}", f"from typing_extensions import {name}"
        elif moved == "async def":
            target, line = moved, "# write the coroutine as: async def f(): ..."
        else:
            target, line = f"{moved}.{name}", f"from {moved} import {name}"
        steps = [CodeStep(f"'{name}' is now {target}: change the import{(' in ' + _frame_ref(tb)) if tb.frame else ''}.",
                      line)]
        if moved == "typing_extensions":
            steps[0] = CodeStep(f"'{name}' is in typing only from a newer Python; on this one import it from "
                            "typing_extensions (pip install typing_extensions).", line)
        doc = python_doc(target)
        if doc:
            steps.append(Step(f"About {doc}"))
        return Diagnosis("python.moved_name", problem + f" It moved to {target}.", tuple(steps),
                         f"the new import of '{name}' from {target.rpartition('.')[0] or target}",
                         "names moved in the standard library", {"name": name, "module": module, "moved": target})
    if not is_stdlib(module):
        return None  # third-party code is never imported for its names
    try:
        imported = importlib.import_module(module)
    except Exception:  # noqa: BLE001 - a standard module that does not import here: nothing to compare with
        return None
    names = {n for n in dir(imported) if not n.startswith("_")}
    close = _close(name, names, 0.7)
    if not close:
        return None
    steps = [CodeStep(f"'{module}' has '{close[0]}': did you mean it?", f"from {module} import {close[0]}")]
    doc = python_doc(f"{module}.{close[0]}")
    if doc:
        steps.append(Step(f"About {doc}"))
    return Diagnosis("python.import_name_typo", problem, tuple(steps),
                     f"the close name '{close[0]}' in {module} (for '{name}')", f"the names in {module}",
                     {"name": name, "module": module, "match": close[0]})


#: the wordings that name a module another file may hide: (attribute error | cannot import | 3.13's hint)
_SHADOW_WORDINGS = (
    re.compile(r"^(?:partially initialized )?module '(?P<module>[\w]+)' has no attribute"),
    re.compile(r"^cannot import name '\w+' from (?:partially initialized module )?'(?P<module>\w+)'"),
)


def _shadowing_file(tb: Traceback, situation: Situation) -> tuple[str, str] | None:
    """(module, the person's file that hides it): random.py or csv.py of theirs imported instead of the standard
    (or a well-known installed) module. Seen in the message's own path ("consider renaming '...'", "(/home/
    .../csv.py)"), in the traceback's frames, or as <module>.py on disk next to the person's code."""
    module = next((m["module"] for p in _SHADOW_WORDINGS if (m := p.match(tb.message))), None)
    if module is None or not (is_stdlib(module) or module in providers() or module in _installed()[0]):
        return None
    paths = re.findall(r"['(](/[^'()]+\.py)[')]", tb.message) + [f.file for f in tb.frames]
    folders = [str(Path(f.file).parent) for f in tb.frames if not f.is_library] + \
        ([situation.cwd] if situation.cwd else [])
    paths += [str(Path(folder, f"{module}.py")) for folder in folders if Path(folder, f"{module}.py").is_file()]
    for path in paths:
        if Path(path).stem == module and not Frame(path, 0).is_library:
            return module, path
    return None


def _module_shadowed(tb: Traceback, situation: Situation) -> Diagnosis | None:
    found = _shadowing_file(tb, situation)
    return None if found is None else _shadow_diagnosis(tb, *found, seen=True)


def _shadow_diagnosis(tb: Traceback, module: str, local: str, seen: bool) -> Diagnosis:
    """A file of the person's named like `module`, imported in its place: `seen` in the message, the frames or on
    disk, or (not `seen`) inferred because the standard module has the attribute the imported one lacks, so the
    file is presumably next to the script (or a folder of that name is)."""
    cache = Path(local).parent / "__pycache__"
    renamed = Path(local).with_name(f"my_{Path(local).name}")
    whose = f"Your own file {local} has" if seen else \
        f"The standard module '{module}' has what this line uses, so the '{module}' imported is not it: a file {local} of yours (or a folder '{module}') presumably has"
    return Diagnosis("python.module_shadowed",
                     f"{whose} the name of the module '{module}', so Python imports it instead "
                     f"(\"{tb.line_text}\"){_where(tb)}.",
                     (Step(f"Rename {local} (and delete {cache}, which keeps the old compiled copy); then change "
                           f"the imports of your own module, if any, to the new name.",
                           f"mv {shlex.quote(local)} {shlex.quote(str(renamed))} && rm -rf {shlex.quote(str(cache))}"),),
                     f"the file of yours that hides the module '{module}' ({Path(local).name}) and how to rename it",
                     "files in the project folder" if seen else "the standard module's names",
                     {"module": module, "file": local})
