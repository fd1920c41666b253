"""Python tracebacks: the exception, its message, the failing frame, and a concrete next step.

`parse(text)` (`python_traceback.py`) reads a traceback as CPython prints it (or just its last line): the exception class and message
and the frames (`File "...", line N, in f`, with the source line under it). The diagnosers then use facts from
this machine:

- import errors (a module not found, a name that cannot be imported, a module hidden by the person's own file):
  `python_imports.py`;
- NameError and AttributeError: close names among built-ins, keywords, standard modules and built-in types,
  counted in edits so short names are found ('srt' -> str), and the failing line shown corrected;
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
import importlib
import importlib.metadata
import importlib.util
import keyword
import os
import re
import shlex
import shutil
import sys
import tomllib
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path

from . import Diagnosis, Situation, Step, diagnoser, rules
from .local_docs import is_stdlib, python_doc
from .python_imports import (
    _cannot_import,
    _close,
    _close_name,
    _module_not_found,
    _module_shadowed,
    _shadow_diagnosis,
    warm as warm,  # the family's warm-up (diagnose.warm): the installed distributions
)
from .python_traceback import (
    _EXCEPTION,
    _FRAME,
    CodeStep,
    Traceback,
    _frame_ref,
    _looks_like_python,
    _where,
    parse,
)

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


def _public_names(module: str) -> set[str]:
    """The public names of a standard-library module (imported here: the standard library only, never code named
    in captured text); none when it cannot be imported on this platform."""
    try:
        return {n for n in dir(importlib.import_module(module)) if not n.startswith("_")}
    except Exception:  # noqa: BLE001
        return set()


def _close_attributes(tb: Traceback, module: str | None, typ: str | None, attr: str,
                      hint: str | None) -> list[str] | Diagnosis:
    """The names close to `attr` in the module (the standard library's) or built-in type: CPython's own hint
    first. A standard module that has `attr` was not the one imported: the file of theirs that hid it (next to the
    failing script; named alone when only the message's line is known: a close name would be wrong)."""
    if hint and (module or typ in _BUILTIN_TYPES):
        return [hint]
    if module and is_stdlib(module):
        names = _public_names(module)
        if attr in names:
            local = f"{module.split('.')[0]}.py"
            return _shadow_diagnosis(tb, module, str(Path(tb.frame.file).parent / local)
                                     if tb.frame and tb.frame.file else local, seen=False)
        return _close(attr, names, 0.7)
    if not module and typ in _BUILTIN_TYPES:
        return _close(attr, {n for n in dir(_BUILTIN_TYPES[typ]) if not n.startswith("_")}, 0.7)
    return []


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
    owner = module or typ or ""
    if module and "partially initialized module" in tb.message:
        # the circular-import wording: no close name helps; a standard module never imports itself, so a file of
        # theirs with its name did
        shadowed = _close_attributes(tb, module, None, attr, None) if is_stdlib(module) else None
        return shadowed if isinstance(shadowed, Diagnosis) else None
    close = _close_attributes(tb, module, typ, attr, hint["hint"] if hint else None)
    if isinstance(close, Diagnosis):
        return close
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


@cache
def program_packages() -> dict[str, str]:
    """rules/programs.toml: a program a script runs -> the Debian/Ubuntu package that installs it."""
    text = resources.files(__package__).joinpath("rules", "programs.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["programs"]


_RUNS_PROGRAM = re.compile(r"\b(?:subprocess|Popen|check_output|check_call|run|call|getoutput|os\.exec\w*|"
                           r"os\.spawn\w*)\s*\(")


def _runs_program(tb: Traceback, path: str) -> bool:
    """The missing 'file' is a program to run: subprocess raised it (its frames are in subprocess.py), the name
    has no folder and the failing line starts a process, or only the message's line is known and the name is a
    known program's ('tesseract')."""
    if any(Path(f.file).name == "subprocess.py" for f in tb.frames):
        return True
    if not tb.frames and re.fullmatch(r"[\w+-]+", path) and path in program_packages():
        return True  # the message's line alone: a bare name that is a known program's
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
