"""Compile the computer player's numba kernels in a child process at start-up.

Why: numba compiles a kernel the first time it is called and holds the GIL
while it does, so with a cold cache the window would freeze for seconds on
the computer's first move.  A child process compiles everything into the
on-disk cache while the player is still in the menu; the computer's thread
waits for it (releasing the GIL), then loads the kernels from the cache.  A
stamp named after the sources and versions records a finished warm-up, so
later starts spawn nothing.  No pygame here: the child never opens a window.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import threading
from pathlib import Path

__all__ = ["start", "wait", "warm_all"]

_lock = threading.Lock()
_proc: subprocess.Popen[bytes] | None = None


def _stamp() -> Path | None:
    from triangles import jit

    if jit.cache_dir is None:
        return None
    import numba

    src = Path(__file__).resolve().parent
    h = hashlib.sha256(f"{sys.version}|{numba.__version__}".encode())
    for f in sorted([src / "kernels.py", *(src / "ai").glob("*.py")]):
        h.update(f.read_bytes())
    return jit.cache_dir / f"warm-{h.hexdigest()[:16]}"


def start() -> bool:
    """Spawn the warm-up child unless the cache is known warm; True when one started."""
    global _proc
    if getattr(sys, "frozen", False):  # a bundle has no ``python -m``; it compiles on first use
        return False
    try:
        stamp = _stamp()
    except OSError:
        return False
    if stamp is None or stamp.exists():
        return False
    with _lock:
        if _proc is not None:
            return False
        try:
            _proc = subprocess.Popen(
                [sys.executable, "-m", "triangles.warmup"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            return False
    return True


def wait(timeout: float = 60.0) -> None:
    """Block (GIL released) until the warm-up child is done, at most ``timeout`` seconds."""
    with _lock:
        proc = _proc
    if proc is None:
        return
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        pass


def warm_all() -> None:
    """Load or compile every search kernel (the AI's own warm-up, run here in the child)."""
    from triangles import ai

    ai.warm_up()


if __name__ == "__main__":
    stamp = _stamp()
    warm_all()
    if stamp is not None:
        stamp.write_text("warm\n")
