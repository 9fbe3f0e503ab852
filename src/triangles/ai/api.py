"""Public entry points: :func:`choose_move`, :func:`hint`, :func:`solve`.

One engine (:mod:`triangles.ai.engine`), three parameter sets.  A move is
decided by a *deterministic* node budget, so the same seed, position and level
always give the same move; the wall-clock ``time_limit`` is only a safety cap
(a timer thread raises an abort flag that the nogil search polls).  If that cap
ever fires, the move comes from the last fully searched depth and may then
depend on machine speed: that is the trade-off for never blocking the UI.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from triangles import kernels as K
from triangles.ai import engine as E

__all__ = ["LEVELS", "Level", "choose_move", "hint", "solve", "SearchInfo", "last_info"]


@dataclass(frozen=True)
class Level:
    name: str
    width: int  # candidate lines per interior node
    root_width: int  # candidate lines at the root
    max_depth: int  # iterative deepening stops here
    qdepth: int  # plies of scoring-line quiescence under the horizon
    noise: float  # leaf noise amplitude, in triangles
    work: int  # deterministic budget in pair-visits (nodes x cost of a node, see _search)
    time_limit: float  # default wall-clock safety cap, seconds
    solve_legal: int  # prove the result (win / draw / loss) when at most this many legal
    #                   lines remain (twice as many with extra_turn, where it is far cheaper)
    solve_nodes: int  # node budget for that attempt (about 0.3 s per 300k nodes on 24 stars)
    parity: float = 0.0  # weight of the safe-line parity term, in triangles
    parity_max: int = 0  # ... used when at most this many safe lines remain
    solve_work: int = 0  # >0: the solver attempt also stops after this many pair-visits (see
    #                      _node_cost): on large boards a node costs more, and the attempt
    #                      must leave the search below its share of the time cap


#: The levels are spaced so that each wins about two games in three or more
#: against the one below (measured with benchmarks/ai_match.py, see the
#: README).  Leaf noise of about one triangle is what makes easy and medium
#: beatable: it now and then prefers a line that gives a triangle away.
#: hard has no noise, searches deepest and plays for a proved win (or draw) in
#: the last ~24 lines on 24 stars (fewer on larger boards, where a node costs more).
LEVELS: dict[str, Level] = {
    "easy": Level("easy", 4, 10, 1, 2, 1.05, 60_000, 0.04, 0, 0),
    "medium": Level("medium", 8, 20, 2, 4, 1.0, 1_500_000, 0.25, 0, 0),
    "hard": Level("hard", 12, 32, 16, 8, 0.0, 10_000_000, 0.9, 24, 300_000, 1.0, 12, solve_work=37_000_000),
}

#: maximum number of legal lines :func:`solve` accepts
SOLVE_MAX_LEGAL = 40
#: node budget of :func:`solve` (about 10-20 s on 2 threads; a 30 s wall-clock cap also applies)
SOLVE_MAX_NODES = 30_000_000

MAX_PLY = 128


@dataclass
class SearchInfo:
    """What the last search on this thread did (for benchmarks and the UI)."""

    level: str = ""
    move: tuple[int, int] | None = None
    value: float = 0.0
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    solved: bool = False  # the result (win / draw / loss) was proved
    outcome: int | None = None  # when solved: 1 win, 0 draw, -1 loss for the mover
    aborted: bool = False


_local = threading.local()
_zob_cache: dict[int, tuple[np.ndarray, np.uint64]] = {}
_zob_lock = threading.Lock()


def last_info() -> SearchInfo:
    return getattr(_local, "info", SearchInfo())


def _zob(npairs: int):
    with _zob_lock:
        z = _zob_cache.get(npairs)
        if z is None:
            z = _zob_cache[npairs] = E.zobrist(npairs)
        return z


class _Abort:
    """An abort flag raised by a timer thread after ``seconds`` (None: never)."""

    def __init__(self, seconds: float | None) -> None:
        self.flag = np.zeros(1, np.uint8)
        self._timer = None
        if seconds is not None:
            self._timer = threading.Timer(max(0.0, seconds), self._fire)
            self._timer.daemon = True

    def _fire(self) -> None:
        self.flag[0] = 1

    def __enter__(self):
        if self._timer is not None:
            self._timer.start()
        return self

    def __exit__(self, *exc):
        if self._timer is not None:
            self._timer.cancel()


def _salt(seed) -> int:
    if seed is None:
        return 0
    return int(np.random.SeedSequence(abs(hash(seed)) if not isinstance(seed, int) else abs(seed)).generate_state(1, np.uint64)[0] >> np.uint64(1))


def _params(width: int, root_width: int, qdepth: int, noise: int, salt: int) -> np.ndarray:
    par = np.zeros(E.P_SIZE, np.int64)
    par[E.P_WIDTH] = width
    par[E.P_ROOTWIDTH] = root_width
    par[E.P_QDEPTH] = qdepth
    par[E.P_NOISE] = noise
    par[E.P_SALT] = salt
    return par


def _exact_par(game, D):
    nlegal = int(D.counters[0]["nlegal"])
    par = _params(nlegal, nlegal, 0, 0, 0)
    par[E.P_DEDUPE] = 1
    par[E.P_CANON] = 1
    return par


def _exact(game, D, max_nodes: int, abort: np.ndarray, bits: int = 18):
    """Exact value (in SCALE units) and best pair, or None when over budget."""
    S = game.board.arrays
    zob, zside = _zob(game.board.npairs)
    nlegal = int(D.counters[0]["nlegal"])
    tt = E.new_tt(bits)
    ctl = np.zeros(E.C_SIZE, np.int64)
    ctl[E.C_LIMIT] = max_nodes
    par = _exact_par(game, D)
    mvbuf = np.empty((nlegal + 2, max(nlegal, 1)), np.int32)
    v = E.search_root(S, D, zob, zside, tt, ctl, par, abort, mvbuf, E.SOLVE_DEPTH, -E.INF, E.INF)
    if ctl[E.C_ABORTED]:
        return None, int(ctl[E.C_NODES])
    return (int(v), int(ctl[E.C_BEST])), int(ctl[E.C_NODES])


def _decide(game, D, max_nodes: int, abort: np.ndarray, bits: int = 19):
    """A winning line, else a drawing line, by null-window searches; or None.

    Only the result matters to a player, not the margin, and a null-window
    search ("can the mover finish ahead?") prunes far more than an exact-value
    search: on 24-star boards 3-15 times fewer nodes.  Returns ``(outcome,
    pair)`` with outcome 1 (win) or 0 (draw); ``(-1, -1)`` when every line
    loses against perfect play; ``None`` when the node budget runs out first.
    The two searches share one table (its entries are bounds, valid for any
    window).
    """
    S = game.board.arrays
    st = D.counters[0]
    zob, zside = _zob(game.board.npairs)
    nlegal = int(st["nlegal"])
    lead = int(st["score0"] - st["score1"]) * (1 if st["player"] == 0 else -1)
    tt = E.new_tt(bits)
    ctl = np.zeros(E.C_SIZE, np.int64)
    par = _exact_par(game, D)
    mvbuf = np.empty((nlegal + 2, max(nlegal, 1)), np.int32)
    used = 0
    for outcome in (1, 0):
        # future points > -lead wins; == -lead draws.  Values are multiples of SCALE.
        t = (-lead + outcome) * E.SCALE
        ctl[E.C_NODES] = 0
        ctl[E.C_LIMIT] = max_nodes - used
        if ctl[E.C_LIMIT] <= 0:
            return None, used
        v = E.search_root(S, D, zob, zside, tt, ctl, par, abort, mvbuf, E.SOLVE_DEPTH, t - 1, t)
        used += int(ctl[E.C_NODES])
        if ctl[E.C_ABORTED]:
            return None, used
        if v >= t:
            return (outcome, int(ctl[E.C_BEST])), used
    return (-1, -1), used


def _exact_split(game, D, max_nodes: int, abort: np.ndarray, threads: int = 2, bits: int = 21):
    """:func:`_exact` with the root lines shared round-robin between threads.

    Each thread has its own state copy and table and searches its lines with
    its own running alpha; the kernels release the GIL, so on 2 cores this is
    up to twice as fast.  Same answer as :func:`_exact` (an exact maximum).
    """
    S = game.board.arrays
    zob, zside = _zob(game.board.npairs)
    nlegal = int(D.counters[0]["nlegal"])
    order = np.empty(max(nlegal, 1), np.int32)
    n = E.gen_moves(S, D, order, nlegal, np.uint64(0), -1, False, np.zeros(len(D.legal), np.int64), True,
                   np.zeros(2, np.int64))
    roots = [int(p) for p in order[:n]]
    if n < 2 * threads:
        return _exact(game, D, max_nodes, abort, bits + 1)
    extra = bool(D.counters[0]["extra"])
    lock = threading.Lock()
    shared = {"next": 0, "best": -E.INF, "rank": -1, "failed": False}
    nodes = [0] * threads

    def work(t: int) -> None:
        Dw = K.copy_state(D)
        tt = E.new_tt(bits)
        ctl = np.zeros(E.C_SIZE, np.int64)
        par = _exact_par(game, Dw)
        mvbuf = np.empty((nlegal + 2, max(nlegal, 1)), np.int32)
        while True:
            with lock:
                r = shared["next"]
                if r >= len(roots) or shared["failed"]:
                    return
                shared["next"] = r + 1
                best = shared["best"]
            p = roots[r]
            closed = int(K.apply_line(S, Dw, p)) * E.SCALE
            ctl[E.C_NODES] = 0
            ctl[E.C_LIMIT] = max_nodes // threads - nodes[t]
            if closed > 0 and extra:
                v = closed + E.search_root(S, Dw, zob, zside, tt, ctl, par, abort, mvbuf, E.SOLVE_DEPTH,
                                           best - closed, E.INF)
            else:
                v = closed - E.search_root(S, Dw, zob, zside, tt, ctl, par, abort, mvbuf, E.SOLVE_DEPTH,
                                           -E.INF, closed - best)
            K.undo_line(S, Dw)
            nodes[t] += int(ctl[E.C_NODES])
            with lock:
                if ctl[E.C_ABORTED]:
                    shared["failed"] = True
                    return
                # v > best means exact; ties go to the earlier line in the ordering
                if v > shared["best"] or (v == shared["best"] and r < shared["rank"] and v > best):
                    shared["best"], shared["rank"] = int(v), r

    pool = [threading.Thread(target=work, args=(t,), daemon=True) for t in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    total = sum(nodes)
    if shared["failed"] or shared["rank"] < 0:
        return None, total
    return (int(shared["best"]), roots[shared["rank"]]), total


def solve(game, *, max_nodes: int = SOLVE_MAX_NODES, time_limit: float | None = 30.0) -> int:
    """Exact value for the player to move: their future points minus the opponent's.

    Perfect play under the game's turn rule.  Raises ``ValueError`` when the
    position is too large (more than :data:`SOLVE_MAX_LEGAL` legal lines, or
    more than ``max_nodes`` search nodes, or ``time_limit`` seconds) instead of
    hanging.  ``game`` is left unchanged.
    """
    if game.is_over():
        return 0
    nlegal = game.legal_count()
    if nlegal > SOLVE_MAX_LEGAL:
        raise ValueError(
            f"position too large to solve exactly: {nlegal} legal lines (at most {SOLVE_MAX_LEGAL})"
        )
    D = game.arrays()
    with _Abort(time_limit) as ab:
        res, nodes = _exact_split(game, D, max_nodes, ab.flag)
    if res is None:
        raise ValueError(
            f"position too large to solve exactly: gave up after {nodes} search nodes "
            f"({nlegal} legal lines)"
        )
    v = res[0]
    assert v % E.SCALE == 0
    return v // E.SCALE


def choose_move(game, level: str = "medium", *, seed=None, time_limit: float | None = None):
    """A legal move ``(i, j)`` for the player to move; ``game`` is left as it was.

    ``level`` is "easy", "medium" or "hard".  Deterministic for a given seed,
    position and level unless the ``time_limit`` safety cap (default: the
    level's) cuts the search short.
    """
    try:
        lv = LEVELS[level]
    except (KeyError, TypeError):
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}") from None
    if game.is_over():
        raise ValueError("the game is over: no move to choose")
    t0 = time.perf_counter()
    cap = lv.time_limit if time_limit is None else float(time_limit)
    D = game.arrays()  # search on a private copy: the caller's game is never touched
    info = SearchInfo(level=lv.name)
    nlegal = int(D.counters[0]["nlegal"])
    best_p = -1
    with _Abort(cap) as ab:
        # once the rest of the game is small enough, play a line proved to win
        # (else to draw); a lost position is left to the search below
        reach = lv.solve_legal * (2 if game.extra_turn else 1)
        if lv.solve_legal and nlegal <= reach:
            budget = lv.solve_nodes
            if lv.solve_work:
                budget = min(budget, lv.solve_work // _node_cost(game, nlegal))
            res, nodes = _decide(game, D, budget, ab.flag)
            info.nodes += nodes
            if res is not None:
                info.solved = True
                info.outcome = res[0]
                best_p = res[1]  # -1 when lost: then the search below picks the line
        if best_p < 0:
            best_p = _search(game, D, lv, seed, ab.flag, info, t0, cap)
    if best_p < 0 or D.legal[best_p] == 0:  # cannot happen, but never return an illegal line
        best_p = int(np.flatnonzero(D.legal)[0])
    move = game.board.pair(best_p)
    info.move = move
    info.seconds = time.perf_counter() - t0
    _local.info = info
    return move


def _node_cost(game, nlegal: int) -> int:
    """Work of one search node in pair-visits: make/unmake and move generation
    scan every pair, plus some work per legal line."""
    return (game.board.npairs + 3 * nlegal) // 4 + 16


def _search(game, D, lv: Level, seed, abort, info: SearchInfo, t0: float, cap: float) -> int:
    S = game.board.arrays
    zob, zside = _zob(game.board.npairs)
    nlegal = int(D.counters[0]["nlegal"])
    node_budget = max(200, lv.work // _node_cost(game, nlegal))
    width = min(lv.width, nlegal)
    root_width = min(lv.root_width, nlegal)
    par = _params(width, root_width, lv.qdepth, int(round(lv.noise * E.SCALE)), _salt(seed))
    par[E.P_PARITY] = int(round(lv.parity * E.SCALE))
    par[E.P_PARITY_MAX] = lv.parity_max
    tt = E.new_tt(18 if lv.name == "easy" else 20)
    ctl = np.zeros(E.C_SIZE, np.int64)
    mvbuf = np.empty((MAX_PLY, max(root_width, width, 64)), np.int32)
    best_p = -1
    used = 0
    for depth in range(1, lv.max_depth + 1):
        ctl[E.C_NODES] = 0
        ctl[E.C_LIMIT] = node_budget - used
        if ctl[E.C_LIMIT] <= 0:
            break
        v = E.search_root(S, D, zob, zside, tt, ctl, par, abort, mvbuf, depth, -E.INF, E.INF)
        used += int(ctl[E.C_NODES])
        if ctl[E.C_ABORTED]:
            break
        best_p = int(ctl[E.C_BEST])
        info.depth = depth
        info.value = v / E.SCALE
        if depth >= nlegal:  # the whole (restricted) tree was searched
            break
    info.nodes += used
    info.aborted = bool(abort[0])
    if best_p < 0:
        # not even depth 1 finished: best of the move ordering (scoring, then safe lines)
        out = np.empty(1, np.int32)
        if E.gen_moves(S, D, out, 1, np.uint64(par[E.P_SALT]), -1, False, np.zeros(len(D.legal), np.int64), False, np.zeros(2, np.int64)) == 1:
            best_p = int(out[0])
    return best_p


def hint(game, *, seed=0, time_limit: float | None = None):
    """A suggested move for the player to move: the "hard" engine's choice."""
    return choose_move(game, "hard", seed=seed, time_limit=time_limit)


def warm_up() -> None:
    """Load (or compile, on a cold cache) every search kernel: call once at start-up,
    e.g. in the UI's worker thread, so the first real move is not slowed down."""
    from triangles.rules import Board, Game

    g = Game(Board([(0, 0), (40, 3), (17, 35), (22, 12), (5, 28)], tolerance=1.0))
    for name in LEVELS:
        choose_move(g, name, seed=0, time_limit=60.0)
    solve(g)
