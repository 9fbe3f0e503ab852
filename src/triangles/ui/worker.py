"""The computer thinks in a background thread so the window never freezes.

Why a thread and not a process: the search kernels release the GIL (numba
``nogil``), a thread starts instantly and shares the position for free.  Each
request carries a *position token*; the play scene bumps its token on every
change (move, undo, new game), so a result that arrives for a position that no
longer exists is simply dropped.  Threads are daemons and are never joined,
so quitting while the computer thinks exits at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from triangles.players import LevelName
from triangles.rules import Game, Move

__all__ = ["AIWorker", "AIResult", "Chooser", "Hinter", "hint_chooser"]

#: ``(game, level, seed, time_limit) -> move``: what the worker asks (the engine, or a stand-in in tests)
Chooser = Callable[[Game, LevelName, int | None, float | None], Move]
#: ``game -> move``: a stand-in for ``triangles.ai.hint``
Hinter = Callable[[Game], Move]


@dataclass(frozen=True)
class AIResult:
    token: int
    move: Move | None
    error: str | None
    #: the worker's clock when the request was made (for the natural pause)
    asked_at: float


def _default_chooser(game: Game, level: LevelName, seed: int | None, time_limit: float | None) -> Move:
    from triangles import warmup
    from triangles.ai import choose_move

    warmup.wait()  # a cold numba cache is being filled by a child process: wait without the GIL
    i, j = choose_move(game, level, seed=seed, time_limit=time_limit)
    return int(i), int(j)


def hint_chooser(hinter: Hinter | None = None) -> Chooser:
    """A chooser that answers with a hint (``triangles.ai.hint``, or ``hinter``), whatever the level."""

    def choose(game: Game, level: LevelName, seed: int | None, time_limit: float | None) -> Move:
        if hinter is not None:
            return hinter(game)
        from triangles import warmup
        from triangles.ai import hint

        warmup.wait()
        i, j = hint(game)
        return int(i), int(j)

    return choose


class AIWorker:
    """At most one live request; older requests are forgotten, never waited for."""

    def __init__(self, chooser: Chooser | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._chooser = chooser or _default_chooser
        #: seconds since some fixed point; tests pass a hand-driven clock to check the pause exactly
        self._clock = clock
        self._lock = threading.Lock()
        self._result: AIResult | None = None
        self._pending: int | None = None
        self._asked_at = 0.0

    @property
    def pending(self) -> int | None:
        """Token of the request still being thought about, if any."""
        with self._lock:
            return self._pending

    def request(
        self, game: Game, level: LevelName, token: int, *, seed: int | None = None, time_limit: float | None = None
    ) -> None:
        """Think about ``game`` (a private clone is taken) for position ``token``."""
        snapshot = game.clone()
        asked = self._clock()
        with self._lock:
            self._pending = token
            self._result = None
            self._asked_at = asked

        def work() -> None:
            move: Move | None = None
            error: str | None = None
            try:
                i, j = self._chooser(snapshot, level, seed, time_limit)
                move = (int(i), int(j))
            except Exception as exc:  # reported to the scene, never a traceback
                error = f"{type(exc).__name__}: {exc}"
            with self._lock:
                if self._pending == token:
                    self._result = AIResult(token, move, error, asked)
                    self._pending = None

        threading.Thread(target=work, name=f"triangles-ai-{token}", daemon=True).start()

    def cancel(self) -> None:
        """Forget the live request; its thread finishes on its own and is ignored."""
        with self._lock:
            self._pending = None
            self._result = None

    def poll(self, token: int, min_delay: float = 0.0) -> AIResult | None:
        """The result for ``token`` once it is ready and ``min_delay`` seconds have passed.

        Results for any other token are discarded.
        """
        with self._lock:
            res = self._result
            if res is None:
                return None
            if res.token != token:
                self._result = None
                return None
            if self._clock() - res.asked_at < min_delay:
                return None
            self._result = None
            return res
