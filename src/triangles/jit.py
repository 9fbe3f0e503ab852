"""Where numba keeps its compiled kernels, how to live without a cache, and kernels that
count no references.

numba reads ``NUMBA_CACHE_DIR`` once, when it is first imported, so this module
must run before anything imports numba: every kernel module gets ``njit`` from
here instead of from numba.  A warm cache turns a ~2.5 s compile into ~0.4 s.
When no cache folder is writable (a read-only home, a locked-down bundle),
``numba.njit(cache=True)`` raises ``RuntimeError`` at decoration time; then we
compile in memory instead, slower to start but otherwise identical.

numba counts the references to every array a compiled function hands to
another (inlined helpers too) with atomic additions, and on x86 each is a full
memory barrier, waiting for the loads before it: over whole 24-star games
``perf`` put 39 % of hard's samples in numba's two counting functions, and
the searches wait on memory already. ``njit(refcount=False)``
compiles a function without them (numba's internal ``_nrt`` option, left out
where a numba lacks it). Such a function may not make an array (numba refuses
to compile it), so its scratch comes from its caller; and since numba compiles
a callee with the options of the first caller that needs it, such a function
calls only functions compiled the same way (``tests/test_refcount.py`` checks).
The searches' hot code is compiled so (not the engine's search loop itself,
which came out slower without the counts), with the same moves and nodes as
before: hard's moves over whole 24-star games took about 30 % less time,
`solve` on whole 12-star boards 14 % less (``benchmarks/middle-game.md``,
thirty-second look), and the region proofs' exploring 44 % less (thirty-third).
A loop that must grow its arrays runs so while they have room and returns for
its caller to grow them (``regions._explore_run``, ``expand._small_steps``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["njit", "cache_dir", "REFCOUNT_OPTION"]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
        return True
    except OSError:
        return False


def _choose_cache_dir() -> Path | None:
    """The user's cache folder (platformdirs), unless the caller already chose one."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen) if _writable(Path(chosen)) else None
    try:
        import platformdirs

        folder = Path(platformdirs.user_cache_dir("triangles", appauthor=False)) / "numba"
    except Exception:  # platformdirs missing or no home: fall back below
        folder = Path(tempfile.gettempdir()) / "triangles-numba"
    if _writable(folder):
        os.environ["NUMBA_CACHE_DIR"] = str(folder)
        return folder
    return None


cache_dir: Path | None = _choose_cache_dir()

import numba  # noqa: E402  (must follow the cache-folder choice above)
from numba.core import cpu  # noqa: E402

#: whether this numba can compile a function without reference counting (``_nrt``)
REFCOUNT_OPTION: bool = hasattr(cpu.CPUTargetOptions, "_nrt")


def njit(*args: Any, **options: Any) -> Callable[..., Any]:
    """``numba.njit`` with ``cache=True`` that degrades to no cache instead of failing.

    Use as ``@njit`` or ``@njit(nogil=True)``; ``refcount=False`` compiles without reference
    counting where numba can (see the module's docstring).
    """
    if not options.pop("refcount", True) and REFCOUNT_OPTION:
        options["_nrt"] = False

    def wrap(fn: Callable[..., Any]) -> Any:
        if cache_dir is None:  # numba would fall back on the sources' __pycache__: the choice here is final
            return numba.njit(cache=False, **options)(fn)
        try:
            return numba.njit(cache=True, **options)(fn)
        except RuntimeError:
            return numba.njit(cache=False, **options)(fn)

    if args and callable(args[0]) and not options:
        return wrap(args[0])
    return wrap
