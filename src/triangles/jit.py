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

numba checks a cached kernel against its own source file only, not against
the files of the helpers it inlines or the constants it reads from other
modules: after an update that changed ``ai/tables.py`` alone, the kernels of
``ai/lazy.py`` came from the cache as they were compiled before, the old
helpers inside (seen on 2026-12-07; a changed column number in ``ai/pools.py``
would have had stale kernels write the wrong columns).  So the kernels live in
a folder named after a digest of every kernel module's source and of the
modules they import (:func:`kernel_folder`): any change to them starts a cold
cache, while a change to a module that only calls kernels does not; folders
unused for two weeks are removed, and so is what an older version left loose
in the game's own cache folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["njit", "cache_dir", "kernel_folder", "REFCOUNT_OPTION"]

#: a kernel folder unused this long is removed when another is chosen beside it
_STALE_SECONDS = 14 * 24 * 3600


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
        return True
    except OSError:
        return False


#: what an ``ai/`` module imports from another: ``from triangles.ai.X import ...`` and
#: ``from triangles.ai import X, Y as Z``
_AI_FROM = re.compile(rb"from triangles\.ai\.(\w+) import|from triangles\.ai import ([\w ,]+)")


def _kernel_sources(src: Path) -> dict[str, bytes]:
    """The sources a compiled kernel depends on, by file name: this module, ``kernels.py``, each
    ``ai/`` module that defines a kernel (``njit``, or a numba ``intrinsic``), and every ``ai/``
    module those import from (their helpers are inlined, their constants compiled in).  The
    ``ai/`` modules that only call kernels (``api.py``, ``solver.py``, ``levels.py``) are left
    out, so that a change to them does not make every player compile the kernels again."""
    ai = {f.stem: f.read_bytes() for f in (src / "ai").glob("*.py")}
    keep = {name for name, text in ai.items() if b"njit" in text or b"intrinsic" in text}
    todo = sorted(keep)
    while todo:
        for one, many in _AI_FROM.findall(ai[todo.pop()]):
            for name in [one] if one else [part.split()[0] for part in many.split(b",") if part.strip()]:
                stem = name.decode()
                if stem in ai and stem not in keep:
                    keep.add(stem)
                    todo.append(stem)
    out = {f"ai/{name}.py": ai[name] for name in keep}
    for name in ("jit.py", "kernels.py"):
        out[name] = (src / name).read_bytes()
    return out


def kernel_folder(base: Path) -> Path:
    """The folder under ``base`` for the kernels of these sources: ``kernels-`` and a digest of
    every module a kernel depends on (:func:`_kernel_sources`).  A ``base`` already so named is
    used as it is (a warm-up child inherits its parent's choice through ``NUMBA_CACHE_DIR``);
    where the sources cannot be read (a bundle without them), ``base`` itself."""
    if base.name.startswith("kernels-"):
        return base
    h = hashlib.sha256()
    try:
        for name, text in sorted(_kernel_sources(Path(__file__).resolve().parent).items()):
            h.update(name.encode() + b"\0" + text)
    except OSError:
        return base
    return base / f"kernels-{h.hexdigest()[:16]}"


def _prune(folder: Path, ours: bool) -> None:
    """Mark ``folder`` as used now and remove the kernel folders beside it left unused for
    :data:`_STALE_SECONDS` (each update of the sources leaves one behind).  ``ours``: the folder
    beside them is the game's own (not one the caller chose), so whatever else it holds is
    the cache of a version that kept its kernels there loose, and goes too."""
    try:
        os.utime(folder)
        for old in folder.parent.iterdir():
            if old == folder:
                continue
            if old.name.startswith("kernels-"):
                if time.time() - old.stat().st_mtime > _STALE_SECONDS:
                    shutil.rmtree(old, ignore_errors=True)
            elif ours:
                if old.is_dir():
                    shutil.rmtree(old, ignore_errors=True)
                else:
                    old.unlink(missing_ok=True)
    except OSError:  # another process pruning at once, or a folder we may not touch: harmless
        pass


def _choose_cache_dir() -> Path | None:
    """The kernel folder (:func:`kernel_folder`) in the user's cache folder (platformdirs), or in
    the one the caller chose with ``NUMBA_CACHE_DIR``; None where it is not writable."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        base = Path(chosen)
    else:
        try:
            import platformdirs

            base = Path(platformdirs.user_cache_dir("triangles", appauthor=False)) / "numba"
        except Exception:  # platformdirs missing or no home: fall back below
            base = Path(tempfile.gettempdir()) / "triangles-numba"
    folder = kernel_folder(base)
    if not _writable(folder):
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    _prune(folder, ours=not chosen)
    return folder


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
