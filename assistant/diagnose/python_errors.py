"""Python tracebacks: the exception, its message, the failing frame, and a concrete next step.

`parse(text)` reads a traceback as CPython prints it (or just its last line): the exception class and message
and the frames (`File "...", line N, in f`, with the source line under it). The diagnosers then use facts from
this machine:

- a module that is not found: the distribution that provides it (`rules/python_modules.toml`: cv2 ->
  opencv-python, yaml -> PyYAML), close matches among the standard library, the distributions installed here
  (`importlib.metadata`) and the modules on the import paths (`pkgutil.iter_modules`), and the install command
  for the person's Python (see `person_python`);
- `cannot import name`: names that moved inside the standard library (collections -> collections.abc) and close
  names in the module, for standard-library modules only;
- NameError and AttributeError: close names among built-ins, keywords, standard modules and built-in types,
  counted in edits so short names are found ('srt' -> str), and the failing line shown corrected;
- a module hidden by the person's own file (csv.py, random.py), in each wording CPython uses;
- FileNotFoundError: close file names in the folder it looked in; raised by subprocess, a program to install
  (`rules/programs.toml`: tesseract -> tesseract-ocr);
- SyntaxError: the line shown corrected when the carets say how (a missing ':', comma, quote or bracket);
- the rest from `rules/python.toml`, with the failing frame's file and line in front.

Honesty about environments: this code runs in the assistant's own process, whose virtual environment is not the
person's. What it says about "your Python" comes from the traceback's own paths, the command line and the
working folder (a `.venv` there); otherwise it names `python3` on PATH and says so. Third-party code named in
captured text is never imported (only `importlib.util.find_spec` on a top-level name, which runs no code).
"""

from __future__ import annotations

import builtins
import difflib
import importlib
import importlib.metadata
import importlib.util
import keyword
import os
import pkgutil
import re
import shlex
import shutil
import sys
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path

from . import Diagnosis, Situation, Step, diagnoser, facts, rules
from .local_docs import is_stdlib, python_doc


def CodeStep(text: str, line: str | None = None) -> Step:  # noqa: N802 - reads like the Step it makes
    """A step whose command is a line of Python for the person's code (offered with "Copy code", never as a
    command to run in a shell)."""
    return Step(text, line, "python")

# ---------------------------------------------------------------------------------------------------- parsing

_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>.+))?\s*$')
# the exception line: a class name (dotted for library exceptions) and its message; ends the traceback
_EXCEPTION = re.compile(
    r"^(?P<cls>(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning)|StopIteration"
    r"|StopAsyncIteration|GeneratorExit|ExceptionGroup))(?::[ \t]*(?P<msg>.*))?$")


@dataclass(frozen=True)
class Frame:
    file: str
    line: int
    func: str | None = None
    code: str | None = None  # the source line CPython prints under the frame

    @property
    def is_library(self) -> bool:
        """In an installed package or the standard library rather than the person's own code."""
        f = self.file.replace("\\", "/")
        return (f.startswith("<") or "/site-packages/" in f or "/dist-packages/" in f
                or re.search(r"/lib/python3\.\d+/", f) is not None or "/lib/pypy" in f)


@dataclass(frozen=True)
class Traceback:
    exception: str  # "ModuleNotFoundError", "json.decoder.JSONDecodeError"
    message: str
    frames: tuple[Frame, ...] = ()
    line_text: str = ""  # the exception line as printed

    @property
    def name(self) -> str:
        """The class name without its module: JSONDecodeError."""
        return self.exception.rpartition(".")[2]

    @property
    def frame(self) -> Frame | None:
        """The failing frame: the last one in the person's code, else the last one in a file. A pseudo-file
        (`<string>` of `python -c`, `<stdin>`, `<frozen ...>`) is no place the person can open, so it is never
        named ("Correct the import in <string>, line 1" helps nobody)."""
        for frame in reversed(self.frames):
            if not frame.is_library:
                return frame
        return next((f for f in reversed(self.frames) if not f.file.startswith("<")), None)


def parse(text: str) -> Traceback | None:
    """The last exception of a traceback (or of a lone exception line) with the frames above it, or None when
    the text holds no Python exception line."""
    lines = text.replace("\r\n", "\n").split("\n")
    found = None
    for i in range(len(lines) - 1, -1, -1):
        match = _EXCEPTION.match(lines[i].strip())
        if match:
            found = i, match
            break
    if found is None:
        return None
    end, match = found
    frames: list[Frame] = []
    start = 0
    for j in range(end - 1, -1, -1):  # this exception's traceback only (chained ones come before it)
        if lines[j].startswith(("During handling of the above exception", "The above exception was")):
            start = j
            break
    for j in range(start, end):
        frame = _FRAME.match(lines[j])
        if frame:
            code = None
            if j + 1 < end and lines[j + 1].startswith("    ") and not _FRAME.match(lines[j + 1]):
                code = lines[j + 1].strip() or None
            frames.append(Frame(frame["file"], int(frame["line"]), frame["func"], code))
    return Traceback(match["cls"], (match["msg"] or "").strip(), tuple(frames), lines[end].strip())


def _looks_like_python(text: str, tb: Traceback) -> bool:
    """A Python error rather than another tool's line that happens to look like one."""
    return bool(tb.frames) or "Traceback (most recent call last)" in text or tb.exception in _BUILTIN_EXCEPTIONS \
        or "." in tb.exception


_BUILTIN_EXCEPTIONS = frozenset(n for n in dir(builtins) if isinstance(getattr(builtins, n), type)
                                and issubclass(getattr(builtins, n), BaseException))

# ---------------------------------------------------------------------------------------------------- the data


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


# ---------------------------------------------------------------------------------------------------- environment


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


# ---------------------------------------------------------------------------------------------------- module names


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


# ---------------------------------------------------------------------------------------------------- other classes


def _where(tb: Traceback) -> str:
    return f" in {_frame_ref(tb)}" if tb.frame else ""


def _frame_ref(tb: Traceback) -> str:
    frame = tb.frame
    assert frame is not None
    return f"{frame.file}, line {frame.line}"


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


#: modules people use without importing them (NameError 'os' -> import os)
_COMMON_MODULES = frozenset({"os", "sys", "re", "json", "math", "random", "time", "datetime", "subprocess", "shutil",
                             "pathlib", "collections", "itertools", "functools", "logging", "argparse", "csv",
                             "string", "typing", "copy", "glob", "pickle", "socket", "threading", "asyncio",
                             "statistics", "uuid", "tempfile", "textwrap", "pprint", "hashlib", "base64", "io",
                             "struct", "decimal", "fractions", "operator", "platform", "getpass", "traceback"})
#: names that are not modules but are usually imported from one
_FROM_IMPORTS = {"Path": "pathlib", "datetime": "datetime", "defaultdict": "collections", "Counter": "collections",
                 "namedtuple": "collections", "deque": "collections", "OrderedDict": "collections",
                 "dataclass": "dataclasses", "field": "dataclasses", "partial": "functools", "reduce": "functools",
                 "lru_cache": "functools", "wraps": "functools", "sleep": "time", "pprint": "pprint",
                 "List": "typing", "Dict": "typing", "Optional": "typing", "Any": "typing", "Union": "typing",
                 "Tuple": "typing", "Callable": "typing", "Enum": "enum", "ABC": "abc", "abstractmethod": "abc",
                 "sqrt": "math", "pi": "math", "randint": "random", "choice": "random", "date": "datetime",
                 "timedelta": "datetime", "deepcopy": "copy", "glob": "glob", "contextmanager": "contextlib"}
#: spellings from other languages -> Python's
_OTHER_LANGUAGES = {"true": "True", "false": "False", "null": "None", "none": "None", "nil": "None",
                    "println": "print", "echo": "print", "printf": "print", "length": "len", "self": "self"}


def _name_error(tb: Traceback, situation: Situation) -> Diagnosis | None:
    match = re.match(r"name '(?P<name>\w+)' is not defined", tb.message)
    if match is None:
        return None
    name = match["name"]
    where = _where(tb)
    problem = f"The name '{name}' is used before anything defines it (\"{tb.line_text}\"){where}."
    hint = re.search(r"Did you (?:mean:?|forget to import) '?(?P<hint>[\w.]+)'?", tb.message)
    ref = f" in {_frame_ref(tb)}" if tb.frame else ""
    details = {"name": name}
    if name in _COMMON_MODULES or name in sys.stdlib_module_names and not name.startswith("_") and name != "self":
        steps = [CodeStep(f"'{name}' is a standard module that this file does not import: add the import at the top"
                      f"{' of ' + tb.frame.file if tb.frame else ' of the file'}.", f"import {name}")]
        offer = f"the missing line 'import {name}'"
        rule = "python.name_not_imported"
    elif name in _FROM_IMPORTS:
        line = f"from {_FROM_IMPORTS[name]} import {name}"
        steps = [CodeStep(f"'{name}' comes from the module {_FROM_IMPORTS[name]}: import it at the top of the file.",
                      line)]
        offer = f"the missing line '{line}'"
        rule = "python.name_not_imported"
    elif name == "self":
        steps = [Step("'self' exists only inside a method that takes it as its first parameter: add self to the "
                      "def (def method(self, ...)), or the line is not indented inside the method.")]
        offer = "why 'self' is not defined here"
        rule = "python.name_self"
    else:
        close: list[str] = []
        if hint and hint["hint"] != name:
            close = [hint["hint"]]
        elif name in _OTHER_LANGUAGES:
            close = [_OTHER_LANGUAGES[name]]
        else:
            match_ = _close_name(name, _name_candidates())
            close = [match_] if match_ else []
        code = tb.frame.code if tb.frame else None
        if close:
            fixed = _replace_name(code, name, close[0])
            steps = [CodeStep(f"Did you mean '{close[0]}'? Correct the name{ref}" + (f": {fixed}" if fixed else "")
                          + ".", fixed)]
            if close[0] in _COMMON_MODULES:
                steps.append(Step(f"If you meant the module, import it: import {close[0]}."))
            doc = python_doc(close[0])
            if doc:
                steps.append(Step(f"About {doc}"))
            offer = f"the close name '{close[0]}' (for '{name}')"
            rule = "python.name_typo"
            details["match"] = close[0]
        elif tb.frame and tb.frame.code:
            steps = [Step(f"Define '{name}' before this line ({_frame_ref(tb)}: {tb.frame.code}), import it, or "
                          f"check its spelling where it is assigned; a variable assigned only inside an if, a loop "
                          f"or another function is not defined here.")]
            offer = f"the line where '{name}' is used undefined ({tb.frame.file}, line {tb.frame.line})"
            rule = "python.name_undefined"
        else:
            return None
    return Diagnosis(rule, problem, tuple(steps), offer, "built-in and standard names", details)


#: the built-ins beginners use most: preferred when two names are equally close
_EVERYDAY_NAMES = frozenset({"print", "len", "range", "str", "int", "float", "list", "dict", "set", "tuple",
                             "input", "open", "sum", "min", "max", "sorted", "enumerate", "zip", "type", "abs",
                             "round", "True", "False", "None", "isinstance", "map", "filter", "bool"})


@cache
def _name_candidates() -> dict[str, str]:
    """Spellings a NameError's name may be a typo of -> the name to write: built-ins, keywords, the common
    modules, and other languages' names ('length' -> 'len', so 'lenght' finds len)."""
    names = {n for n in dir(builtins) if not n.startswith("_")} | set(_COMMON_MODULES) | set(keyword.kwlist)
    found = {n: n for n in names}
    for other, python in _OTHER_LANGUAGES.items():
        found.setdefault(other, python)
    return found


def _replace_name(code: str | None, wrong: str, right: str) -> str | None:
    """The source line with the mistyped name corrected (the first whole-word use), or None."""
    if not code or not re.search(rf"\b{re.escape(wrong)}\b", code):
        return None
    return re.sub(rf"\b{re.escape(wrong)}\b", right, code, count=1)


_BUILTIN_TYPES = {t.__name__: t for t in (str, int, float, list, dict, tuple, set, frozenset, bytes, bytearray,
                                          bool, complex, range)}


def _attribute_error(tb: Traceback, situation: Situation) -> Diagnosis | None:
    match = re.match(r"(?:(?:partially initialized )?module '(?P<module>[\w.]+)'|'(?P<type>\w+)' object) has no "
                     r"attribute '(?P<attr>\w+)'", tb.message)
    if match is None:
        return None
    attr, module, typ = match["attr"], match["module"], match["type"]
    where = _where(tb)
    problem = f"{'The module ' + repr(module) if module else 'A ' + repr(typ) + ' value'} has no attribute " \
              f"'{attr}' (\"{tb.line_text}\"){where}."
    hint = re.search(r"Did you mean: '(?P<hint>\w+)'\?", tb.message)
    close: list[str] = []
    owner = module or typ or ""
    if module:
        if "partially initialized module" in tb.message:
            return None  # the circular-import wording: no close name helps
        if hint:
            close = [hint["hint"]]
        elif is_stdlib(module):
            try:
                names = {n for n in dir(importlib.import_module(module)) if not n.startswith("_")}
            except Exception:  # noqa: BLE001
                names = set()
            if attr in names and tb.frame and tb.frame.file:  # the real module has it: a file of theirs was imported
                return _shadow_diagnosis(tb, module, str(Path(tb.frame.file).parent / f"{module.split('.')[0]}.py"),
                                         seen=False)
            close = _close(attr, names, 0.7)
    elif typ in _BUILTIN_TYPES:
        if hint:
            close = [hint["hint"]]
        else:
            close = _close(attr, {n for n in dir(_BUILTIN_TYPES[typ]) if not n.startswith("_")}, 0.7)
    if not close:
        return None
    symbol = f"{owner}.{close[0]}"
    also = f" (or {owner}.{close[1]})" if len(close) > 1 else ""
    steps = [CodeStep(f"Did you mean '{close[0]}'? Use {symbol}{also}{(' in ' + _frame_ref(tb)) if tb.frame else ''}.",
                  re.sub(rf"\.{re.escape(attr)}\b", f".{close[0]}", tb.frame.code, count=1)
                  if tb.frame and tb.frame.code and f".{attr}" in tb.frame.code else None)]
    doc = python_doc(symbol)
    if doc:
        steps.append(Step(f"About {doc}"))
    return Diagnosis("python.attribute_typo", problem, tuple(steps), f"the close name '{symbol}' (for '{attr}')",
                     f"the names of {owner}", {"attr": attr, "owner": owner, "match": close[0]})


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


@cache
def program_packages() -> dict[str, str]:
    """rules/programs.toml: a program a script runs -> the Debian/Ubuntu package that installs it."""
    text = resources.files(__package__).joinpath("rules", "programs.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["programs"]


_RUNS_PROGRAM = re.compile(r"\b(?:subprocess|Popen|check_output|check_call|run|call|getoutput|os\.exec\w*|"
                           r"os\.spawn\w*)\s*\(")


def _runs_program(tb: Traceback, path: str) -> bool:
    """The missing 'file' is a program to run: subprocess raised it (its frames are in subprocess.py), or the
    name has no folder and the failing line starts a process."""
    if any(Path(f.file).name == "subprocess.py" for f in tb.frames):
        return True
    code = tb.frame.code if tb.frame else None
    return "/" not in path and bool(code and _RUNS_PROGRAM.search(code))


def _program_not_found(tb: Traceback, situation: Situation, path: str) -> Diagnosis:
    """A program the script runs is not installed (or not on the PATH the script sees)."""
    name = Path(path).name
    package = program_packages().get(name)
    if package is None:
        from .shell_errors import cnf_packages  # imported here: the family modules load in FAMILIES order
        package = next(iter(cnf_packages(name)), None)
    here = shutil.which(name)
    why = (f"Otherwise install {name} where the script runs" if here else
           f"The script runs it as a program, and it is not installed: install {name}")
    steps = [Step(f"{why}.", f"sudo apt install {package}") if package else
             Step(f"{why} (with your system's package manager or from the program's website).")]
    if here:
        steps.insert(0, Step(f"{name} is at {here} on this machine, but not on the PATH the script had (a service, "
                             f"cron or an editor's run button has a shorter PATH): pass the full path {here}."))
    return Diagnosis("python.program_not_found",
                     f"The program '{name}' that the script starts was not found (\"{tb.line_text}\"){_where(tb)}.",
                     tuple(steps), f"the install command for the program '{name}'" + (f" ({package})" if package else ""),
                     "the table of programs" if package else "the program's name", {"program": name, "package": package or ""})


def _file_not_found(tb: Traceback, situation: Situation) -> Diagnosis | None:
    match = re.match(r"\[Errno 2\] No such file or directory: (?P<q>['\"])(?P<path>.+)(?P=q)$", tb.message)
    if match is None:
        return None
    path = match["path"]
    if _runs_program(tb, path):
        return _program_not_found(tb, situation, path)
    where = _where(tb)
    base = situation.cwd
    resolved = path if os.path.isabs(path) or not base else os.path.join(base, path)
    steps: list[Step] = []
    close: list[str] = []
    folder = Path(resolved).parent
    if folder.is_dir():
        try:
            siblings = {p.name for p in folder.iterdir()}
        except OSError:
            siblings = set()
        close = _close(Path(path).name, siblings, 0.6)
        if close:
            steps.append(Step(f"{folder} has '{close[0]}': did you mean it?", None))
    if not os.path.isabs(path):
        steps.append(Step(f"'{path}' is relative, so Python looks for it in the working folder "
                          f"({base or 'where you started the program'}), not the script's folder. Start the program "
                          "from the folder that holds the file, or build the path from the script: "
                          f"Path(__file__).parent / {path!r}."))
    else:
        steps.append(Step(f"Check that {path} exists (the folder and the name's spelling and case).",
                          f"ls -l {shlex.quote(str(Path(path).parent))}"))
    return Diagnosis("python.file_not_found", f"The program opened '{path}', which does not exist "
                     f"(\"{tb.line_text}\"){where}.", tuple(steps),
                     f"where Python looked for '{path}'" + (" and the close file name there" if close else ""),
                     "the files in the folder",
                     {"path": path})


def _key_error(tb: Traceback, situation: Situation) -> Diagnosis | None:
    if tb.name != "KeyError":
        return None
    key = tb.message or "?"
    frame = tb.frame
    line = f" at {frame.file}, line {frame.line}" + (f": {frame.code}" if frame.code else "") if frame else ""
    steps = [Step(f"The dict has no key {key}{line}. Use d.get({key}) (None when missing) or d.get({key}, default), "
                  f"or check with 'if {key} in d:' first; print(d.keys()) shows the keys it has (spelling and "
                  "case must match exactly).")]
    if key.startswith(("'", '"')) and key.strip("'\"").isupper() and frame and "environ" in (frame.code or ""):
        steps.insert(0, Step(f"{key} is an environment variable that is not set: export it before running, or "
                             f"read it with os.environ.get({key}).", f"export {key.strip(chr(39) + chr(34))}=..."))
    return Diagnosis("python.key_error", f"The key {key} is not in the dictionary (\"{tb.line_text}\")"
                     f"{_where(tb)}.", tuple(steps),
                     f"how to read the key {key} safely (.get or a check){' at line ' + str(frame.line) if frame else ''}",
                     "the traceback", {"key": key})


@diagnoser
def python_traceback(situation: Situation) -> Diagnosis | None:
    """Python exceptions: the module, name and file diagnosers, then the rules in rules/python.toml."""
    tb = parse(situation.error)
    if tb is None or not _looks_like_python(situation.error, tb):
        return None
    if tb.name in ("AttributeError", "ImportError"):  # a file of theirs named like the module explains both
        found = _module_shadowed(tb, situation)
        if found is not None:
            return found
    if tb.name == "AttributeError":  # the rules know names from other languages (list.push, dict.has_key)
        found = _rule(tb, situation)
        if found is not None:
            return found
    for fn in (_module_not_found if tb.name in ("ModuleNotFoundError", "ImportError") else None,
               _cannot_import if tb.name == "ImportError" else None,
               _name_error if tb.name == "NameError" else None,
               _attribute_error if tb.name == "AttributeError" else None,
               _file_not_found if tb.name == "FileNotFoundError" else None,
               _syntax_error if tb.name == "SyntaxError" else None):
        if fn is None:
            continue
        found = fn(tb, situation)
        if found is not None:
            return found
    return _rule(tb, situation)


def _rule(tb: Traceback, situation: Situation) -> Diagnosis | None:
    """The rules of rules/python.toml on the exception line, with the failing frame's code above it (what a rule may
    quote: the value passed as `(x)` where a tuple was meant), the frame's file and line put in front."""
    frame = tb.frame
    file = frame.file if frame else situation.file
    text = f"    {frame.code}\n{tb.line_text}" if frame is not None and frame.code else tb.line_text
    found = rules.match("python", Situation(text, situation.command,
                                            shlex.quote(file) if file else None, situation.cwd))
    if found is None:
        if tb.name == "KeyError":
            return _key_error(tb, situation)
        return None
    steps = list(found.steps)
    if file is None:  # no file known: drop commands that would name a placeholder
        steps = [replace(s, command=None) if s.command and "your file" in s.command else s for s in steps]
    problem = found.problem
    if frame is not None:
        problem = f"{problem.rstrip('.')} (\"{tb.line_text}\") in {frame.file}, line {frame.line}."
        code = f": {frame.code}" if frame.code else ""
        steps.insert(0, Step(f"Look at {frame.file}, line {frame.line}{code}.", None))
        if tb.name == "RecursionError":
            repeated = _repeated_function(tb)
            if repeated:
                steps.insert(0, Step(f"The function that keeps calling itself is {repeated}() ({frame.file}).", None))
    else:
        problem = f"{problem.rstrip('.')} (\"{tb.line_text}\")."
    offer = found.offer
    if frame is not None and Path(frame.file).name not in offer:
        offer = f"{offer} (at {Path(frame.file).name}, line {frame.line})"
    details = dict(found.details)
    if frame is not None:
        details.update(file=frame.file, line=str(frame.line))
    return replace(found, problem=problem, steps=tuple(steps), offer=offer, details=details)


# ---------------------------------------------------------------------------------------------------- syntax errors

_BLOCK = re.compile(r"(?:if|elif|else|for|while|def|class|with|try|except|finally|async|match|case)\b")
_PAIRS = {"(": ")", "[": "]", "{": "}"}


def _shown_source(text: str) -> tuple[str, int | None, int | None] | None:
    """The source line CPython shows under a SyntaxError's `File "...", line N` and the caret columns (start, end)
    within it, or None. The line is printed indented, the carets under it with the same indent."""
    lines = text.replace("\r\n", "\n").split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if _FRAME.match(lines[i]) and i + 1 < len(lines):
            printed = lines[i + 1]
            code = printed.strip()
            if not code or _EXCEPTION.match(code):
                return None
            indent = len(printed) - len(printed.lstrip())
            caret = lines[i + 2] if i + 2 < len(lines) else ""
            if re.fullmatch(r"\s*\^+\s*", caret):
                start = caret.index("^") - indent
                return code, start, start + caret.strip().count("^")
            return code, None, None
    return None


def _masked(code: str, fill: str = " ") -> str:
    """The line with string contents (each character made `fill`) and a comment blanked (same length), so
    brackets, gaps and '#' inside strings are not counted."""
    out, quote, i = [], None, 0
    while i < len(code):
        ch = code[i]
        if quote:
            if ch == "\\" and i + 1 < len(code):
                out += fill * 2
                i += 2
                continue
            out.append(ch if ch == quote else fill)
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif ch == "#":
            out.append(" " * (len(code) - i))
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _with_colon(code: str, message: str, start: int | None) -> str | None:
    """expected ':' on a block statement: the line with ':' at its end."""
    if not _BLOCK.match(code) or code.rstrip().endswith(":") or "#" in _masked(code):
        return None
    return code.rstrip() + ":"


def _with_comma(code: str, start: int | None, end: int | None) -> str | None:
    """"Perhaps you forgot a comma?": the carets span the two items; the comma goes in the last gap between
    them that has a value on both sides (no operator, no keyword such as 'in' or 'if'). Without carets (a copy
    that left them out, a replayed session's sentence) the whole line is looked at, and only a single such gap
    is taken: two would be a guess."""
    carets = start is not None and end is not None
    start, end = (start or 0, end) if carets else (0, len(code))
    masked = _masked(code, fill="x")  # (no gap inside a string)
    fixes = []
    for gap in reversed(list(re.finditer(r"\s+", masked[start:end]))):
        left, right = masked[:start + gap.start()], masked[start + gap.end():]
        if not carets and sum(left.count(o) - left.count(c) for o, c in _PAIRS.items()) <= 0:
            continue  # CPython asks for a comma between the items of a bracket
        before, after = re.search(r"\w*$", left), re.match(r"\w*", right)  # always found, perhaps empty
        word_before, word_after = (before[0] if before else ""), (after[0] if after else "")
        if re.search(r"[\w)\]}'\"]$", left) and re.match(r"[\w(\[{'\"]", right) \
                and not keyword.iskeyword(word_before) and not keyword.iskeyword(word_after):
            fixes.append(code[:len(left)] + "," + code[len(left):])
    return fixes[0] if fixes and (carets or len(fixes) == 1) else None


def _with_quote(code: str, start: int | None) -> str | None:
    """unterminated string literal: the caret is on the opening quote. A quote at the very end closes nothing
    (an apostrophe ended the string early: 'it's' -> "it's"); otherwise the string is closed before the
    brackets (and a block's ':') that belong to the code around it."""
    if start is None:
        return None
    while start < len(code) and code[start] in "rRbBfFuU":  # the caret is on a prefix: f"..., rb'...
        start += 1
    if start >= len(code) or code[start] not in "'\"":
        return None
    quote, other = code[start], "'" if code[start] == '"' else '"'
    rest = code[start + 1:]
    if not rest.strip():
        first = code.find(quote)
        if first < start and other not in code[first:]:
            return code[:first] + other + code[first + 1:start] + other + code[start + 1:]
        return None
    opened = sum(_masked(code[:start]).count(o) - _masked(code[:start]).count(c) for o, c in _PAIRS.items())
    cut = len(rest.rstrip())
    if _BLOCK.match(code) and rest.rstrip().endswith(":"):
        cut -= 1
    while opened > 0 and cut > 0 and rest[cut - 1] in ")]}":
        cut -= 1
        opened -= 1
    return code[:start + 1] + rest[:cut] + quote + rest[cut:].rstrip()


def _with_closer(code: str, message: str) -> str | None:
    """'(' was never closed: the closing bracket at the end of the line (before a block's ':')."""
    found = re.search(r"'([(\[{])' was never closed", message)
    if found is None or "#" in _masked(code):
        return None
    opener = found[1]
    masked = _masked(code)
    if masked.count(opener) <= masked.count(_PAIRS[opener]):
        return None
    line = code.rstrip()
    if _BLOCK.match(line) and line.endswith(":"):
        return line[:-1] + _PAIRS[opener] + ":"
    return line + _PAIRS[opener]


def corrected_syntax_line(text: str, message: str) -> str | None:
    """The source line a SyntaxError shows, corrected when the message and the carets say how: a missing ':',
    comma, closing quote or closing bracket. None when it cannot be derived from what is shown."""
    shown = _shown_source(text)
    if shown is None:
        return None
    code, start, end = shown
    if message.startswith("expected ':'"):
        return _with_colon(code, message, start)
    if "Perhaps you forgot a comma?" in message:
        return _with_comma(code, start, end)
    if message.startswith("unterminated string literal"):
        return _with_quote(code, start)
    if "was never closed" in message:
        return _with_closer(code, message)
    return None


def _syntax_error(tb: Traceback, situation: Situation) -> Diagnosis | None:
    """The rule's diagnosis for a SyntaxError, with the corrected line first when it can be derived."""
    found = _rule(tb, situation)
    if found is None:
        return None
    fixed = corrected_syntax_line(situation.error, tb.message)
    if fixed is None:
        return found
    where = f"line {tb.frame.line}" if tb.frame else "the line"
    return replace(found, steps=(CodeStep(f"Corrected {where}: {fixed}", fixed), *found.steps),
                   offer=f"the corrected line: {fixed}", details={**found.details, "fixed": fixed})


def _repeated_function(tb: Traceback) -> str | None:
    funcs = [f.func for f in tb.frames[-6:] if f.func and f.func != "<module>"]
    return max(set(funcs), key=funcs.count) if funcs else None
