"""Reading and writing the player's files: nothing half-written, lost, or able to hang the game.

Why here: saved games, settings, statistics, themes and presets all need the
same moves: an atomic write (temporary file, fsync, rename); keeping an
unreadable file aside under a new name instead of deleting it; and reading a
file that may be hostile (a device, a folder, gigabytes, JSON nested 200 000
deep) within limits a real file never reaches.  Problems are typed
exceptions; the caller words them in the player's language.  No pygame here.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = [
    "write_text_atomic",
    "move_aside",
    "read_limited",
    "read_json",
    "parse_json",
    "FileProblem",
    "NoSuchFile",
    "NotAFile",
    "TooLarge",
    "Unreadable",
    "NotText",
    "BadJson",
    "TooDeep",
]


class FileProblem(Exception):
    """A file that cannot be used; subclasses say why (the caller words it for the player)."""


class NoSuchFile(FileProblem):
    pass


class NotAFile(FileProblem):
    """A folder, a device (/dev/zero), a pipe: anything but a regular file."""

    def __init__(self, folder: bool) -> None:
        super().__init__("folder" if folder else "not a regular file")
        self.folder = folder


class TooLarge(FileProblem):
    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes, limit {limit}")
        self.size, self.limit = size, limit


class Unreadable(FileProblem):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotText(FileProblem):
    pass


class BadJson(FileProblem):
    def __init__(self, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}")
        self.line, self.column = line, column


class TooDeep(FileProblem):
    def __init__(self, limit: int) -> None:
        super().__init__(f"nested deeper than {limit}")
        self.limit = limit


def read_limited(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; FileProblem otherwise.

    The size is checked before reading and again while reading (a file that
    grows, or lies in ``stat`` like those under /proc), so nothing can make
    this read more than ``max_bytes + 1`` bytes.
    """
    p = Path(path)
    try:
        st = p.stat()
    except (FileNotFoundError, NotADirectoryError):  # nothing there (or a file where a folder should be)
        raise NoSuchFile(str(p)) from None
    except OSError as exc:
        raise Unreadable(exc.strerror or type(exc).__name__) from None
    if not stat.S_ISREG(st.st_mode):
        raise NotAFile(folder=stat.S_ISDIR(st.st_mode))
    if st.st_size > max_bytes:
        raise TooLarge(st.st_size, max_bytes)
    try:
        with open(p, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise Unreadable(exc.strerror or type(exc).__name__) from None
    if len(data) > max_bytes:
        raise TooLarge(len(data), max_bytes)
    return data


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of decoded JSON, iteratively (a recursive walk is what a hostile file exploits)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            if d > limit:
                return d
            deepest = max(deepest, d)
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return deepest


def parse_json(text: str, max_depth: int) -> Any:
    """Decode JSON text nested at most ``max_depth`` deep; BadJson / TooDeep otherwise."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadJson(exc.lineno, exc.colno) from None
    except RecursionError:  # the C decoder stops itself on absurd nesting
        raise TooDeep(max_depth) from None
    except ValueError:  # e.g. an integer of more than 4300 digits
        raise BadJson(1, 1) from None
    if _depth(value, max_depth) > max_depth:
        raise TooDeep(max_depth)
    return value


def read_json(path: str | os.PathLike[str], max_bytes: int, max_depth: int = 8) -> Any:
    """A small JSON file, decoded, within a size and a nesting limit (FileProblem otherwise).

    UTF-8 with or without a byte-order mark; anything else is NotText.
    """
    data = read_limited(path, max_bytes)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotText(str(path)) from None
    return parse_json(text, max_depth)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``: temporary file in the same folder, fsync, rename.

    A crash or a full disk leaves the old file intact; OSError is raised to the caller.
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def move_aside(path: Path) -> Path:
    """Rename an unreadable file to ``<stem>.unreadable-<time><suffix>`` so it is kept but not read again."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.unreadable-{stamp}{path.suffix}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.stem}.unreadable-{stamp}-{n}{path.suffix}")
    try:
        path.replace(target)
    except OSError:
        pass
    return target
