"""Reading an input file a user names, safely: a regular file only (a FIFO or a device would block or never
end), UTF-8 text, and JSON errors said in words. Every error is `error` (a ValueError subclass the caller picks)
with one line naming the file (and line).

Here, below `eval` and beside the reward model, because both read user files (sessions, reward rows, artefacts)
and `models` imports no other package of ours.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def read_regular_file(path: Path | str, error: type[ValueError] = ValueError, named: bool = True,
                      limit: int | None = None) -> bytes:
    """The bytes of a regular file. Raises `error` with one line (starting with the file's name unless `named` is
    false) when it is missing, a folder, not a regular file (a FIFO, socket or device: opened without blocking
    and refused) or unreadable. With `limit`, at most `limit` + 1 bytes are read (a large file named by mistake
    must not fill the memory): more than `limit` tells the caller, who knows what it expected, that the file is
    too large."""
    path = Path(path)

    def problem(what: str) -> ValueError:
        return error(f"{path}: {what}" if named else what)

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise problem("no such file") from None
    except IsADirectoryError:
        raise problem("is a folder, not a file") from None
    except OSError as exc:
        raise problem(f"cannot read ({exc.strerror or exc})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise problem("is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise problem("not a regular file (a FIFO, socket or device); give a file")
        with os.fdopen(fd, "rb") as f:
            fd = -1
            return f.read() if limit is None else f.read(limit + 1)
    except OSError as exc:
        raise problem(f"cannot read ({exc.strerror or exc})") from None
    finally:
        if fd >= 0:
            os.close(fd)


def decode_utf8(path: Path | str, data: bytes, error: type[ValueError] = ValueError) -> str:
    """`data` as text (a UTF-8 byte-order mark is dropped); bytes that are not UTF-8 raise `error` naming the
    line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file as UTF-8") \
            from None


def unpaired_surrogate(text: str) -> str | None:
    """The first unpaired surrogate in `text` as `\\udXXX` (JSON may carry one; UTF-8 cannot), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"\\u{ord(text[exc.start]):04x}"
    return None


def json_problem(exc: BaseException) -> str:
    """What is wrong, for the errors `json` raises besides JSONDecodeError."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if "integer string conversion" in str(exc):
        return "a number too long to read (over 4300 digits)"
    return str(exc)


def json_lines(path: Path | str, text: str, error: type[ValueError] = ValueError) -> Iterator[tuple[int, str, Any]]:
    """(line number, line, value) of each non-blank line of a JSON-lines text, in order. A line that is not JSON
    raises `error` naming the file and line. Split on "\\n" only: JSON strings may hold U+2028 and friends, on
    which `str.splitlines` would break."""
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"{path}:{lineno}: bad JSON ({exc.msg})") from None
        except (ValueError, RecursionError) as exc:
            raise error(f"{path}:{lineno}: {json_problem(exc)}") from None
        yield lineno, line, value
