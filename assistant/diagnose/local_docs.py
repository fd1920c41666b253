"""Local documentation for Python symbols: the first paragraph of a standard-library symbol's docstring.

`python_doc("collections.abc.Mapping")` reads the docstring of the installed standard library through
`inspect.getdoc` (what pydoc shows), without the network. Only the standard library (`sys.stdlib_module_names`,
and built-ins such as `str.join`) is imported: a name from captured text never makes the assistant import
third-party code, and the few standard modules that act when imported (antigravity opens a browser, this
prints) are refused.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import sys

#: standard modules that do something when imported, or pull in a GUI: never imported for their docs
_UNSAFE = frozenset({"antigravity", "this", "__hello__", "__phello__", "idlelib", "turtledemo", "turtle",
                     "tkinter", "_tkinter", "pydoc_data", "ensurepip", "venv", "lib2to3", "__main__"})
_MAX_CHARS = 600


def is_stdlib(module: str) -> bool:
    """True for a module of the standard library (dotted names by their top-level package)."""
    top = module.partition(".")[0]
    return top in sys.stdlib_module_names and top not in _UNSAFE


def resolve(symbol: str) -> object | None:
    """The object a dotted standard-library name refers to ('json.loads', 'collections.abc.Mapping', 'str.join',
    'len'), or None when it is not in the standard library or does not exist."""
    parts = [p for p in symbol.strip().split(".") if p]
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    obj: object | None = None
    rest: list[str] = []
    if is_stdlib(parts[0]):
        # the longest importable module prefix: collections.abc.Mapping -> module collections.abc, attr Mapping
        for i in range(len(parts), 0, -1):
            name = ".".join(parts[:i])
            try:
                obj = importlib.import_module(name)
            except ImportError:
                continue
            except Exception:  # noqa: BLE001 - a standard module that fails to import has no docs to give
                return None
            rest = parts[i:]
            break
    elif hasattr(builtins, parts[0]):
        obj, rest = getattr(builtins, parts[0]), parts[1:]
    if obj is None:
        return None
    for part in rest:
        if part.startswith("__") and part != "__init__":
            return None
        try:
            obj = inspect.getattr_static(obj, part)
        except AttributeError:
            return None
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
    return obj


def python_doc(symbol: str) -> str | None:
    """The first paragraph of the docstring of a standard-library symbol, prefixed by its signature when known:
    "json.loads(s, *, cls=None, ...): Deserialize ``s`` ... to a Python object." None when the symbol is not in
    the standard library, does not exist or has no docstring."""
    obj = resolve(symbol)
    if obj is None or not (inspect.ismodule(obj) or inspect.isclass(obj) or callable(obj)):
        return None  # a constant (True, os.sep) has its type's docstring, not its own
    doc = inspect.getdoc(obj)
    if not doc:
        return None
    paragraph = doc.strip().split("\n\n", 1)[0]
    paragraph = " ".join(line.strip() for line in paragraph.splitlines())
    if len(paragraph) > _MAX_CHARS:
        paragraph = paragraph[:_MAX_CHARS].rsplit(" ", 1)[0] + " ..."
    head = symbol.strip()
    if callable(obj) and not inspect.isclass(obj):
        try:
            head = f"{head}{inspect.signature(obj)}"
        except (TypeError, ValueError):
            pass
    if paragraph.startswith(head.partition("(")[0].rpartition(".")[2] + "("):
        return f"{symbol.strip()}: {paragraph}"  # the docstring starts with its own signature (builtins do)
    return f"{head}: {paragraph}"
