"""Compile the computer player's numba kernels in a child process at start-up.

Why: numba compiles a kernel the first time it is called and holds the GIL
while it does, so with a cold cache the window would freeze for seconds on
the computer's first move.  A child process compiles everything into the
on-disk cache while the player is still in the menu; the computer's thread
waits for it (releasing the GIL), then loads the kernels from the cache.  A
stamp named after the sources and versions records a finished warm-up, so
later starts spawn nothing.  No pygame here: the child never opens a window.

The child reports how far it has got (one ``progress N`` line per step on its
stdout, N in percent: the share of numba's compilations done so far), so
the play scene can say "Preparing the computer player — first start only,
N%" instead of a vague "thinking".  In a PyInstaller bundle there is no
``python -m``: the child is the bundle's own program started with
:data:`WARMUP_CHILD` as its only argument.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

__all__ = ["start", "start_here", "wait", "progress", "kept", "warm_all", "warm_rules", "child_main", "WARMUP_CHILD"]

#: the command-line argument that makes a bundle's program the warm-up child (not shown in --help)
WARMUP_CHILD = "--warmup-child"

_lock = threading.Lock()
_proc: subprocess.Popen[bytes] | None = None
#: without a cache folder the warm-up runs in this thread instead of a child process
_thread: threading.Thread | None = None
_here_done = threading.Event()
#: the child's last report, 0-100 (None: nothing reported yet)
_percent: int | None = None


def _stamp() -> Path | None:
    """The file that says the kernels are compiled: in the kernel folder, whose name already
    follows the kernel modules' sources (:func:`triangles.jit.kernel_folder`), keyed by the
    Python and numba that compiled them.  None without a kernel folder: no writable cache, or
    sources not beside the program (numba cannot cache their kernels)."""
    from triangles import jit

    if jit.cache_dir is None or not jit.cache_dir.name.startswith("kernels-"):
        return None
    import numba

    h = hashlib.sha256(f"{sys.version}|{numba.__version__}".encode())
    if getattr(sys, "frozen", False):  # numba keys a bundle's cache on its program: a new build is cold
        st = Path(sys.executable).stat()
        h.update(f"{st.st_size}|{st.st_mtime_ns}".encode())
    return jit.cache_dir / f"warm-{h.hexdigest()[:16]}"


def _child_command() -> list[str]:
    if getattr(sys, "frozen", False):
        return [sys.executable, WARMUP_CHILD]
    return [sys.executable, "-m", "triangles.warmup"]


def start() -> bool:
    """Spawn the warm-up child unless the cache is known warm; True when one started.

    Without a cache folder nothing is spawned (the child's work could not be kept): see :func:`start_here`.
    """
    global _proc, _percent
    stamp = _stamp()
    if stamp is None or stamp.exists():
        return False
    with _lock:
        if _proc is not None:
            return False
        try:
            _proc = subprocess.Popen(
                _child_command(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            return False
        _percent = 0
        out = _proc.stdout
    if out is not None:
        threading.Thread(target=_read_progress, args=(out,), name="triangles-warmup", daemon=True).start()
    return True


def start_here() -> bool:
    """Without a cache folder (no folder is writable, so nothing compiled can be kept): compile the
    computer player in a thread of this process while the menu shows, so that the first computer
    move waits with a percentage instead of compiling unannounced.  True when it started.

    The window calls it after its first screen (the rules' own kernels compile before that, and two
    compilations at once would mix their counts).
    """
    global _thread, _percent
    if kept():
        return False
    with _lock:
        if _thread is not None:
            return False
        _percent = 0
        _thread = threading.Thread(target=_compile_here, name="triangles-warmup", daemon=True)
        _thread.start()
    return True


def _compile_here() -> None:
    def report(percent: int) -> None:
        global _percent
        with _lock:
            _percent = percent

    try:
        from triangles import ai

        _counting_compiles(ai.warm_up, "here-count", EXPECTED_COMPILES_HERE, report)
    finally:
        _here_done.set()


def _read_progress(out: IO[bytes]) -> None:
    global _percent
    for line in out:
        parts = line.split()
        if len(parts) == 2 and parts[0] == b"progress" and parts[1].isdigit():
            with _lock:
                _percent = min(100, int(parts[1]))
    out.close()


def progress() -> int | None:
    """How far the warm-up has got, in percent, while it runs; None when none is running."""
    with _lock:
        proc, thread, percent = _proc, _thread, _percent
    if thread is not None:
        return None if _here_done.is_set() else percent or 0
    if proc is None or proc.poll() is not None:
        return None
    return percent or 0


def kept() -> bool:
    """True when the compiled kernels are kept for the next start (so "first start only" is true)."""
    from triangles import jit

    return jit.cache_dir is not None


def wait(timeout: float = 120.0) -> None:
    """Block (GIL released) until the warm-up is done, at most ``timeout`` seconds."""
    with _lock:
        proc, thread = _proc, _thread
    if thread is not None:
        _here_done.wait(timeout)
        return
    if proc is None:
        return
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        pass


#: how many numba compilations a cold warm-up makes (the search, the rules' kernels and the numba library
#: functions they call), counted with numba 0.68.1 on 2026-12-05 (199 before the regions' tables became
#: arrays instead of numba's typed dicts, and their helpers were inlined); a finished warm-up writes the
#: real count beside the cache (``warm-count``) and the next cold one (after an update) counts against that
#: instead
EXPECTED_COMPILES = 165
#: the same for :func:`start_here`, after the window's :func:`warm_rules` (counted the same day; with no
#: cache folder nothing is remembered)
EXPECTED_COMPILES_HERE = 142
#: the same for :func:`warm_rules` alone (remembered in ``rules-count``)
EXPECTED_RULES_COMPILES = 26


def _expected_compiles(name: str, default: int) -> int:
    from triangles import jit

    try:
        if jit.cache_dir is not None:
            return max(1, int((jit.cache_dir / name).read_text()))
    except (OSError, ValueError):
        pass
    return default


def _counting_compiles(work: Callable[[], None], count_file: str, default: int, report: Callable[[int], None]) -> None:
    """Run ``work`` and call ``report(percent)`` as numba compiles: at the first compilation (0) and after
    each one (the share of the expected count, never 100 before the end).  Nothing is reported when every
    kernel comes from the cache.  A real cold run remembers its count for the next one (after an update)."""
    from numba.core import event

    from triangles import jit

    expected = _expected_compiles(count_file, default)
    started = False
    done = 0

    class Progress(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            nonlocal started
            if not started:
                started = True
                report(0)

        def on_end(self, ev: event.Event) -> None:
            nonlocal done
            done += 1
            report(min(99, 100 * done // expected))

    with event.install_listener("numba:compile", Progress()):
        work()
    if started:
        report(100)
    if done > expected // 3 and jit.cache_dir is not None:  # a real cold run, not a load from the cache
        try:
            (jit.cache_dir / count_file).write_text(f"{done}\n")
        except OSError:
            pass


def warm_all(report: bool = False) -> None:
    """Load or compile every search kernel (the AI's own warm-up, run here in the child).

    ``report``: print ``progress N`` lines on stdout, N the share of the expected compilations done
    (never 100 before the end), and remember the real count for the next cold warm-up.
    """
    from triangles import ai

    if not report:
        ai.warm_up()
        return
    _report(0)
    _counting_compiles(ai.warm_up, "warm-count", EXPECTED_COMPILES, _report)
    _report(100)


def _use_the_rules() -> None:
    """Every rules kernel a board and a game call, on a small board played to the end and back."""
    from triangles.rules import Board, Game

    board = Board.random(9, 400.0, 400.0, seed=1)
    game = Game(board, extra_turn=True)
    while not game.is_over():
        i, j = game.legal_moves()[0]
        game.closes(i, j)
        game.play(i, j)
    game.why_illegal(*game.moves[0])
    _ = game.triangles, game.legal_mask()
    game.live_triangles()
    while game.move_count:
        game.undo()
    Game.from_moves(board, [])


def warm_rules(report: Callable[[int], None]) -> None:
    """Load or compile the rules' kernels now, in this thread, telling ``report(percent)`` how far it got.

    Why: on a cold cache the first board takes seconds to compile (about 5 s here), and the window
    would sit blank.  The window calls this before its first screen and draws each report; with a warm
    cache the kernels only load (well under a second) and ``report`` is never called.
    """
    _counting_compiles(_use_the_rules, "rules-count", EXPECTED_RULES_COMPILES, report)


def _report(percent: int) -> None:
    try:
        print(f"progress {percent}", flush=True)
    except (OSError, ValueError):  # nobody is listening any more (the window closed): keep compiling
        pass


def child_main() -> int:
    """The warm-up child: fill the cache, then leave the stamp that says it is warm.

    It runs at a lower priority: on a cold start the window compiles the rules' own kernels to draw
    its first board, and that must not wait behind this background work.
    """
    import os

    try:
        os.nice(10)
    except (AttributeError, OSError):  # Windows has no nice; a refusal only costs speed
        pass
    stamp = _stamp()
    warm_all(report=True)
    if stamp is not None:
        stamp.write_text("warm\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(child_main())
