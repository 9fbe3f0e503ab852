"""Exact search: the value of a position (:func:`solve`) and a proved result for hard's endgame (:func:`decide`).

Three searches.  The position as a sum of independent regions
(:mod:`triangles.ai.regions`): late in a game the board falls apart into many
small regions, every state they can reach is explored, and the search is exact
at a tiny fraction of the whole board's cost.  When a region is too large to
explore, :func:`solve` expands the regions' states only as its search reaches
them (:mod:`triangles.ai.lazy`), two such searches sharing one table on two
cores: a whole 12-star board in 0.4-41 s, eight or nine in ten of them within 10 s
(the more triangles a board holds, the longer; ``benchmarks/solve_bench.py``), where
the exploration had passed 3 M states after two minutes.
A board of 65 or 66 legal lines, past the 64 the regions' masks hold, is searched a
group of its lines at a time, each group's moves crossing out the same line or two.
Hard's proofs, which must be quick, fall back instead on the whole-board search:
the same kernel as the playing search (:mod:`triangles.ai.engine`) at full width,
unbounded depth and no noise, with the lines of fixed effect merged (see :func:`triangles.ai.engine.gen_moves`)
and the table keyed on the position's equivalence class.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from triangles.ai import engine as E
from triangles.ai.abort import AbortTimer
from triangles.ai.lazy import SMALL, LazySum, search_pair
from triangles.ai.regions import MAX_LINES, Regions, SumSearch
from triangles.ai.tables import new_table

if TYPE_CHECKING:
    from triangles.kernels import GameArrays
    from triangles.rules import Game

__all__ = [
    "SOLVE_MAX_LEGAL",
    "SOLVE_MAX_NODES",
    "SOLVE_MAX_STATES",
    "SOLVE_EXPLORE_LINES",
    "SOLVE_TT_BITS",
    "SOLVE_THREADS",
    "Exact",
    "Proof",
    "solve",
    "decide",
    "decide_lazy",
    "decide_regions",
]

#: the searches :func:`solve` runs at once on a board not yet fallen apart: two where there
#: are two cores (as ``api.SAMPLE_THREADS`` counts them)
SOLVE_THREADS = min(2, os.cpu_count() or 1)
#: maximum number of legal lines :func:`solve` accepts: the 64 the regions' masks hold, and two
#: more, searched a group of lines at a time (:func:`_split_value`; 84 of whole 12-star boards
#: 0-1999 have 65 or 66, none more)
SOLVE_MAX_LEGAL = MAX_LINES + 2
#: node budget of each of :func:`solve`'s searches (a whole 12-star board of boards 2000-2007
#: needs 4.8-32 M nodes over both and up to about 2.6 GB; its 30 s wall-clock cap comes
#: first on the slowest boards)
SOLVE_MAX_NODES = 200_000_000
#: the rows of :func:`solve`'s table, a power of two (2^23: 256 MB): on the three slowest
#: whole 12-star boards 24-28 % fewer nodes than 2^21 (7-11 % less time on the two run side
#: by side), on four others -3 to +10 % the time; 2^24 no faster
SOLVE_TT_BITS = 23
#: region objects each of :func:`solve`'s lazy searches reserves room for at once (with the
#: moves and kid lists in proportion, :func:`triangles.ai.pools.new_pools`): a search on a
#: whole 12-star board met up to 4.9 M.  Room reserved is taken from the system only as it
#: is written; grown by doubling instead, the pair took 6 % longer on the eight boards and
#: 6-11 % on the three slowest (``benchmarks/middle-game.md``, twenty-second look)
SOLVE_ROWS = 1 << 23
#: region states :func:`solve` explores whole before it leaves the regions to be expanded as
#: the search reaches them (:mod:`triangles.ai.lazy`): enough for a board fallen apart,
#: about a second at most
SOLVE_MAX_STATES = 50_000
#: ... and only when no region has more legal lines than this: a larger one is never
#: explored within that budget (on 12 stars a region of 36 lines is settled as fast
#: either way, one of 42-44 lines explored in 8-28 s and searched lazily in 2 s)
SOLVE_EXPLORE_LINES = 36


class Exact(NamedTuple):
    value: int  # the mover's future points minus the opponent's, SCALE units
    pair: int  # a line reaching it


class Proof(NamedTuple):
    outcome: int  # for the mover against perfect play: 1 win, 0 draw, -1 loss
    pair: int  # a line keeping that outcome (-1 when lost)


def _exact_search(game: Game, D: GameArrays, abort: np.ndarray, tt_bits: int) -> E.Search:
    nlegal = int(D.counters[0]["nlegal"])
    par = E.SearchParams(
        width=nlegal,
        root_width=nlegal,
        qdepth=0,
        noise=0,
        salt=0,
        dedupe=True,
        canon=True,
        faces=game.board.max_triangles,
    )
    return E.new_search(par, game.board.npairs, tt_bits=tt_bits, plies=nlegal + 2, width=max(nlegal, 1), abort=abort)


def exact(
    game: Game, D: GameArrays, *, max_nodes: int, abort: np.ndarray, tt_bits: int = 18
) -> tuple[Exact | None, int]:
    """(exact value and a best pair, or None when over budget; nodes searched)."""
    sr = _exact_search(game, D, abort, tt_bits)
    r = E.search(game.board.arrays, D, sr, depth=E.SOLVE_DEPTH, node_limit=max_nodes)
    if r.aborted:
        return None, r.nodes
    return Exact(value=r.value, pair=r.best), r.nodes


def decide(
    game: Game, D: GameArrays, *, max_nodes: int, abort: np.ndarray, tt_bits: int = 19
) -> tuple[Proof | None, int]:
    """A winning line, else a drawing line, by null-window searches; or None.

    Only the result matters to a player, not the margin, and a null-window
    search ("can the mover finish ahead?") prunes far more than an exact-value
    search: on 24-star boards 3-15 times fewer nodes.  Returns ``(proof,
    nodes)``: outcome 1 (win) or 0 (draw) with its line; ``Proof(-1, -1)``
    when every line loses against perfect play; None when the node budget
    runs out first.  The two searches share one table (its entries are bounds,
    valid for any window).
    """
    sr = _exact_search(game, D, abort, tt_bits)

    def probe(t: int, limit: int) -> tuple[int, int, int, bool]:
        r = E.search(game.board.arrays, D, sr, depth=E.SOLVE_DEPTH, node_limit=limit, alpha=t - 1, beta=t)
        return r.value, r.best, r.nodes, r.aborted

    return _prove(_lead(D) * E.SCALE, E.SCALE, probe, max_nodes, 0)


def _prove(
    lead: int, unit: int, probe: Callable[[int, int], tuple[int, int, int, bool]], max_nodes: int, used: int
) -> tuple[Proof | None, int]:
    """A win, else a draw, by null-window probes: ``probe(t, node_limit)`` gives (value, line,
    nodes, aborted) of a search with the window (t - 1, t).  The mover's future points reaching
    -lead + 1 win, -lead draw (``unit``: one triangle in the values' scale).  Returns
    ``(proof, nodes)``; None once the nodes run out."""
    for outcome in (1, 0):
        t = -lead + outcome * unit
        limit = max_nodes - used
        if limit <= 0:
            return None, used
        value, pair, nodes, aborted = probe(t, limit)
        used += nodes
        if aborted:
            return None, used
        if value >= t:
            return Proof(outcome=outcome, pair=pair), used
    return Proof(outcome=-1, pair=-1), used


def _lead(D: GameArrays) -> int:
    """The mover's points so far less the opponent's."""
    st = D.counters[0]
    return int(st["score0"] - st["score1"]) * (1 if st["player"] == 0 else -1)


def decide_regions(
    game: Game, D: GameArrays, *, max_states: int, max_nodes: int, abort: np.ndarray, tt_bits: int = 18
) -> tuple[Proof | None, int]:
    """:func:`decide` over the position's regions (:mod:`triangles.ai.regions`): the same
    answer, or None when exploring the regions or the search outran its budget.  Returns
    ``(proof, work)``, the work being the region states explored plus the nodes searched
    (those spent finding the classes whose pairs cancel included)."""
    r = Regions(game, D)
    if not r.explore(max_states, abort):
        return None, r.states
    ss = SumSearch(r, tt_bits, abort=abort)
    work = r.states + ss.setup_nodes
    return _prove(_lead(D), 1, lambda t, limit: ss.search(t - 1, t, limit, abort), max_nodes, work)


def decide_lazy(
    game: Game, D: GameArrays, *, max_nodes: int, abort: np.ndarray, tt_bits: int = 18, small: int = SMALL
) -> tuple[Proof | None, int]:
    """:func:`decide` over the position's regions expanded as the search reaches them
    (:mod:`triangles.ai.lazy`): the same answer, or None when the nodes ran out.  Returns
    ``(proof, nodes)``; the two probes share the expanded states and the table."""
    ls = LazySum(Regions(game, D), tt_bits, small)

    def probe(t: int, limit: int) -> tuple[int, int, int, bool]:
        r = ls.search(t - 1, t, limit, abort)
        return r.value, r.pair, r.nodes, r.aborted

    return _prove(_lead(D), 1, probe, max_nodes, 0)


def solve(game: Game, *, max_nodes: int = SOLVE_MAX_NODES, time_limit: float | None = 30.0) -> int:
    """Exact value for the player to move: their future points minus the opponent's.

    Perfect play under the game's turn rule.  Raises ``ValueError`` when the
    position is too large (more than :data:`SOLVE_MAX_LEGAL` legal lines, or
    more than ``max_nodes`` search nodes, or ``time_limit`` seconds, not counting the
    first whole board's loading of its kernels) instead of hanging.  ``game`` is left
    unchanged.  A board not yet fallen apart is searched twice at once on two cores
    (:data:`SOLVE_THREADS`), each search with ``max_nodes``; the value is the same either way.
    A position of more legal lines than the regions' masks hold is searched a group of its
    lines at a time (:func:`_split_value`), each group's search with what its predecessors
    left of ``max_nodes``.
    """
    if game.is_over():
        return 0
    nlegal = game.legal_count()
    if nlegal > SOLVE_MAX_LEGAL:
        raise ValueError(f"position too large to solve exactly: {nlegal} legal lines (at most {SOLVE_MAX_LEGAL})")
    budget = _Budget(max_nodes, time_limit)
    try:
        return _value(game, -E.INF, E.INF, budget)
    except _GaveUp:
        spent = f"its {time_limit:g} s" if budget.timed_out else f"{budget.used} search nodes"
        raise ValueError(f"position too large to solve exactly: gave up after {spent} ({nlegal} legal lines)") from None


class _GaveUp(Exception):
    """:func:`solve`'s budget ran out (nodes or seconds)."""


class _Budget:
    """What :func:`solve` may still spend over all its searches: nodes, and seconds to a
    deadline that waits while kernels load (:meth:`paused`)."""

    def __init__(self, max_nodes: int, seconds: float | None) -> None:
        self.max_nodes = max_nodes
        self.used = 0
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.timed_out = False
        #: the table every lazy search of a position split by groups shares (None: each its own)
        self.tt: np.ndarray | None = None

    def nodes_left(self) -> int:
        return max(1, self.max_nodes - self.used)

    def clock(self) -> AbortTimer:
        """A timer raising its flag at the deadline (at once when it has passed)."""
        return AbortTimer(None if self.deadline is None else self.deadline - time.monotonic())

    def spend(self, nodes: int, aborted: bool, timer: AbortTimer) -> None:
        """Count a search's nodes; give up when it was stopped (by the clock or its nodes)."""
        self.used += nodes
        if aborted:
            self.timed_out = bool(timer.flag[0]) and self.deadline is not None
            raise _GaveUp

    def paused(self, work: Callable[[], None]) -> None:
        """Run ``work`` with the clock stopped."""
        t = time.monotonic()
        work()
        if self.deadline is not None:
            self.deadline += time.monotonic() - t


def _value(game: Game, alpha: int, beta: int, budget: _Budget) -> int:
    """The mover's value within (alpha, beta), fail-soft: one search of the position's regions
    where they fit the masks (:func:`_regions_value`), else a group of lines at a time
    (:func:`_split_value`)."""
    if game.is_over():
        return 0
    if game.legal_count() > MAX_LINES:
        return _split_value(game, alpha, beta, budget)
    return _regions_value(game, alpha, beta, budget)


def _regions_value(game: Game, alpha: int, beta: int, budget: _Budget) -> int:
    """A board fallen apart into small regions: every state explored and merged by game tree,
    the fastest search there; else the regions expanded only as far as the search reaches
    them (:func:`_lazy_value`)."""
    r = Regions(game, game.arrays())
    with budget.clock() as timer:
        if max((int(m).bit_count() for m in r.parts()), default=0) <= SOLVE_EXPLORE_LINES and r.explore(
            SOLVE_MAX_STATES, timer.flag
        ):
            res = SumSearch(r, abort=timer.flag).search(alpha, beta, budget.nodes_left(), timer.flag)
            budget.used += res.nodes
            if not res.aborted:
                return res.value
    return _lazy_value(r, alpha, beta, budget)


def _lazy_value(r: Regions, alpha: int, beta: int, budget: _Budget, root_lines: int | None = None) -> int:
    """Two lazy searches of ``r`` (``root_lines``: see :class:`LazySum`) sharing a table on two
    cores, their kernels loaded before the clock goes on."""
    budget.paused(partial(_lazy_ready, r))
    with budget.clock() as timer:
        ls = LazySum(r, tt_bits=SOLVE_TT_BITS, rows=SOLVE_ROWS, root_lines=root_lines, tt=budget.tt)
        search = ls.search if SOLVE_THREADS == 1 else partial(search_pair, ls)
        lz = search(alpha, beta, budget.nodes_left(), timer.flag)
        budget.spend(lz.nodes, lz.aborted, timer)
    return lz.value


def _split_value(game: Game, alpha: int, beta: int, budget: _Budget) -> int:
    """The mover's value within (alpha, beta), fail-soft, for a position of more legal lines
    than the regions' masks hold (64; about 4 % of whole 12-star boards have 65 or 66): the
    best of its lines, taken a group at a time.

    A line's move crosses some lines out.  The moves that cross out the same one line X
    (or two, X and Y, on 66) lead to positions of the game without X, which fits the masks:
    one lazy search of that game whose root may draw only those lines (:class:`LazySum`'s
    ``root_lines``) values them all, sharing one table.  Groups are chosen greedily, the
    largest first; the lines left over (a group of one, or crossing nothing) are searched
    alone, their positions one line smaller (:func:`_value`, again by groups on 66).
    Every lazy search of the position shares one table, a large state's key being the same
    whatever a search's numbering of the lines (:func:`triangles.ai.split.state_key`): 38 %
    less time in all on 25 such boards than with a table each (``benchmarks/middle-game.md``,
    thirty-seventh look).  After the first group a null window asks whether another does
    better, and only then is it searched within the whole window."""
    me = game.player
    over = game.legal_count() - MAX_LINES  # lines to set aside
    if budget.tt is None:
        budget.tt = new_table(SOLVE_TT_BITS)
    legal = {game.board.pair_id(i, j) for i, j in game.legal_moves()}
    kids: dict[int, tuple[int, Game]] = {}
    crossed: dict[int, set[int]] = {}
    for p in legal:
        kid = game.clone()
        pts = len(kid.play(*game.board.pair(p)))
        kids[p] = (pts, kid)
        crossed[p] = legal - {p} - {kid.board.pair_id(i, j) for i, j in kid.legal_moves()}
    left = set(legal)
    order = sorted(legal)
    tries: list[Callable[[int, int], int]] = []
    while left:
        aside: tuple[int, ...] = ()
        cover: set[int] = set()
        for xs in combinations(order, over):
            c = left.intersection(*(crossed[x] for x in xs))
            if len(c) > len(cover):
                aside, cover = xs, c
        if len(cover) < 2:
            break
        r = Regions(game, game.arrays(), without=aside)
        mask = sum(1 << k for k, q in enumerate(r.lines) if int(q) in cover)
        tries.append(partial(_group, r=r, mask=mask, budget=budget))
        left -= cover
    for p in sorted(left, key=lambda p: (-kids[p][0], kids[p][1].legal_count())):
        pts, kid = kids[p]
        tries.append(partial(_through, kid=kid, pts=pts, sign=1 if kid.player == me else -1, budget=budget))
    best = -E.INF
    for through in tries:
        lo = max(alpha, best)
        if best == -E.INF:
            v = through(alpha, beta)
        else:
            v = through(lo, lo + 1)
            if lo < v < beta:
                v = through(v - 1, beta)  # better than ``lo``: its exact value (v is a lower bound)
        best = max(best, v)
        if best >= beta:
            break
    return best


def _group(a: int, b: int, *, r: Regions, mask: int, budget: _Budget) -> int:
    """The best of the lines ``mask`` (of ``r``'s) within (a, b)."""
    return _lazy_value(r, a, b, budget, mask)


def _through(a: int, b: int, *, kid: Game, pts: int, sign: int, budget: _Budget) -> int:
    """A line's value within (a, b): ``pts`` it scores and its child's value, searched within
    the window that maps to (``sign``: 1 where the mover moves again)."""
    lo, hi = (a - pts, b - pts) if sign > 0 else (pts - b, pts - a)
    return pts + sign * _value(kid, lo, hi, budget)


_lazy_loaded = False


def _lazy_ready(r: Regions) -> None:
    """Load the lazy search's kernels, or compile them on a cold cache (about a minute),
    before :func:`solve` starts its clock: :func:`triangles.ai.warm_up` loads only those the
    game plays with, and a first whole board would otherwise spend its time limit compiling.
    One node of ``r``'s position, in a small table, once a process."""
    global _lazy_loaded
    if not _lazy_loaded and r.n:
        LazySum(r, tt_bits=10, rows=1024).search(-E.INF, E.INF, 1, np.zeros(1, np.uint8))
        _lazy_loaded = True
