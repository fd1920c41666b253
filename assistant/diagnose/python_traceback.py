"""A Python traceback as CPython prints it, read: the exception, its message and the frames with the code under
each (`parse`), and where it failed in the person's words (`_where`). Shared by the diagnosers of Python errors
(`python_errors.py`) and of imports (`python_imports.py`).
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass

from . import Step


def CodeStep(text: str, line: str | None = None) -> Step:  # noqa: N802 - reads like the Step it makes
    """A step whose command is a line of Python for the person's code (offered with "Copy code", never as a
    command to run in a shell)."""
    return Step(text, line, "python")


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


def _where(tb: Traceback) -> str:
    return f" in {_frame_ref(tb)}" if tb.frame else ""


def _frame_ref(tb: Traceback) -> str:
    frame = tb.frame
    assert frame is not None
    return f"{frame.file}, line {frame.line}"
