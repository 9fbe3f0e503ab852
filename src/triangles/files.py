"""Writing the player's files so that nothing is ever half-written or lost.

Why here: saved games, settings and statistics all need the same two moves:
an atomic write (temporary file, fsync, rename), and keeping an unreadable
file aside under a new name instead of deleting it.  No pygame here.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

__all__ = ["write_text_atomic", "move_aside"]


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
