"""An independent UCT/MCTS player: the outside yardstick for the engine's strength.

``mcts_move(game, playouts=None, seed=0)`` returns a legal move; ``MCTSPlayer``
is the same as a callable with a move counter (what :mod:`ai_match` uses as
player ``mcts``, or ``mcts:playouts=N`` and the other options below).

What it uses, and only that
---------------------------
The public rules API: ``Game.board.arrays`` (the board's static arrays: pairs,
cells, the pair-to-cell incidence lists), ``Game.arrays()`` (a private, writable
copy of the position), ``Game.is_over`` / ``legal_moves`` and ``Board.pair``;
and one public kernel, ``triangles.kernels.apply_line``, to draw a line on its
private copy: the rules' own make-move, so the tree and the playouts follow
the rules exactly, both turn rules included.  It never imports
``triangles.ai``, the engine it measures: the playout policy, the move
ordering and the search are its own (``tests/test_mcts_yardstick.py`` checks
the imports, also at run time).

The search
----------
UCT (UCB1, ``c`` = 0.5 over rewards in [0, 1]), whole in numba:

* A reward is the playout's final result from the side of the player who made
  the move into a node: half win/draw/loss (1, 0.5, 0), half margin
  (``0.5 + 0.5 tanh(diff / 3)``; ``margin`` = 0.5), so that a lost game is
  still lost by as little as possible.  The mover of every edge is recorded on
  the way down, so repeated turns under the extra-turn rule (the player who
  closed a triangle moves again: the position's own ``player`` says who) are
  backed up to the right side.
* Children are ordered by the playout policy's preference (scoring lines, most
  closing first, then giving least; then safe lines; then lines giving fewest),
  ties broken at random; progressive widening lets a node with N visits choose
  among its first ``ceil(widen * sqrt(N + 1))`` children (``widen`` = 0.25:
  8 at 1000 visits, 25 at 10000).  Searching every child measured far weaker
  (31% against greedy at 1000 playouts, against 79% with this widening): the
  playouts' verdicts are noisy and the best-looking of many near-equal lines is
  usually a lucky one.
* A leaf is played out from until it has ``expand`` (100) visits, then gets its
  children; expanding on the second visit measured weaker (11% against greedy
  at 1000 playouts): the tree then tries the opponent's poor replies before the
  obvious one, which flatters lines that hand triangles over.
* The move played is the most visited root child (ties: the higher mean).
* Playout policy: with probability ``eps`` (0.2) a uniformly random legal line;
  otherwise a scoring line if there is one (closing the most, then giving the
  fewest), else a line that gives the opponent nothing to close ("safe"), else
  a line giving the fewest; ties at random.  (Less randomness measured weaker:
  36% against greedy with 0.03, 56% with 0.1, 79% with 0.2 or 0.3.)  The counts
  the policy needs (for every legal line: the triangles it closes, the ones it
  hands over) are kept up to date incrementally as lines are drawn.

Budget
------
A fixed number of playouts per move, never a clock, so a move is a function
of (position, playouts, seed, options); random numbers come from numba's own
generator, seeded per move.  :func:`default_playouts` is ``10000 * (24 /
stars) ** 1.5``: 10000 at 24 stars, 2530 at 60, 894 at 120, which is about
0.5 s of CPU a move on this machine (measured over whole games, CPU time of
one process: 24 stars ~0.5 s mean, 60 stars ~0.4 s mean; the first moves of a
game, with the longest playouts, take 2-4 times the mean).  Wall-clock time
is longer when the cores are shared.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first

from triangles.jit import njit
from triangles.kernels import apply_line

if TYPE_CHECKING:
    from triangles.rules import Game, Move

__all__ = ["MCTSPlayer", "default_playouts", "mcts_move", "warm_up"]


def default_playouts(stars: int) -> int:
    """Playouts per move for a board of ``stars`` stars: ``10000 * (24 / stars) ** 1.5``, within 200..40000.

    A playout costs about ``stars ** 1.5`` here (more lines a game, more pairs
    blocked by each), so this keeps a move near 0.5 s of CPU: 10000 playouts
    at 24 stars, 2530 at 60.
    """
    n = max(int(stars), 1)
    return int(min(40000, max(200, round(10000 * (24 / n) ** 1.5))))


# --------------------------------------------------------------------------
# Incremental playout counts over a private copy of the position
# --------------------------------------------------------------------------
#
# For every pair: g1 = live cells of which it is a side that have 1 side drawn
# (drawing it hands the opponent a closable triangle), g2 = live cells with 2
# sides drawn (drawing it scores).  reg[c] remembers what cell c contributes
# (0, 1 or 2), so a refresh is idempotent.  Every legal pair sits in exactly one
# of three lists (scoring, safe, giving) with pos[p] its place; cat[p] = -1
# for a pair that is not legal.


# (The helpers below are written out in one body each rather than calling
# small functions per cell or per pair: numba increfs and decrefs every array
# argument of a call, which made a cell-sized helper cost ~100 ns.)


@njit(nogil=True)
def _init_aux(S, D, g1, g2, reg, cat, lst, cnt, pos):
    """The counts of position ``D`` from scratch."""
    g1[:] = 0
    g2[:] = 0
    cnt[:] = 0
    for c in range(S.cells.shape[0]):
        d = D.cell_drawn[c]
        reg[c] = d if D.cell_blocked[c] == 0 and (d == 1 or d == 2) else 0
        for s in range(3):
            q = S.cell_pairs[c, s]
            if reg[c] == 1:
                g1[q] += 1
            elif reg[c] == 2:
                g2[q] += 1
    for p in range(D.legal.shape[0]):
        if D.legal[p] == 0:
            cat[p] = -1
            continue
        k = 0 if g2[p] > 0 else (2 if g1[p] > 0 else 1)
        cat[p] = k
        lst[k, cnt[k]] = p
        pos[p] = cnt[k]
        cnt[k] += 1


@njit(nogil=True)
def _step(S, D, g1, g2, reg, cat, lst, cnt, pos, buf, p):
    """Draw legal pair ``p`` for the player to move (the rules' own
    ``apply_line``) and bring the counts up to date; returns triangles closed."""
    nm = D.counters[0].nmoves
    closed = apply_line(S, D, p)
    bstart = D.move_bstart[nm]
    btop = D.counters[0].btop
    nb = 0
    # the cells of p (one more side drawn) and of every pair p blocked (now dead)
    for b in range(bstart - 1, btop):
        q = p if b < bstart else D.bstack[b]
        buf[nb] = q
        nb += 1
        for t in range(S.inc_ptr[q], S.inc_ptr[q + 1]):
            c = S.inc_cell[t]
            d = D.cell_drawn[c]
            new = 0
            if D.cell_blocked[c] == 0 and (d == 1 or d == 2):
                new = d
            old = reg[c]
            if new == old:
                continue
            reg[c] = new
            for s in range(3):
                r = S.cell_pairs[c, s]
                if old == 1:
                    g1[r] -= 1
                elif old == 2:
                    g2[r] -= 1
                if new == 1:
                    g1[r] += 1
                elif new == 2:
                    g2[r] += 1
                buf[nb] = r
                nb += 1
    # every pair touched moves to its list (scoring, safe, giving, or none)
    legal = D.legal
    for i in range(nb):
        r = buf[i]
        if legal[r] == 0:
            k = -1
        elif g2[r] > 0:
            k = 0
        elif g1[r] > 0:
            k = 2
        else:
            k = 1
        old = cat[r]
        if k == old:
            continue
        if old >= 0:  # swap-remove from its list
            at = pos[r]
            last = lst[old, cnt[old] - 1]
            lst[old, at] = last
            pos[last] = at
            cnt[old] -= 1
        if k >= 0:
            lst[k, cnt[k]] = r
            pos[r] = cnt[k]
            cnt[k] += 1
        cat[r] = k
    return closed


@njit(nogil=True, inline="always")
def _policy(g1, g2, lst, cnt, eps):
    """The playout's line: see the module docstring."""
    total = cnt[0] + cnt[1] + cnt[2]
    if np.random.random() < eps:
        r = np.random.randint(0, total)
        for k in range(3):
            if r < cnt[k]:
                return lst[k, r]
            r -= cnt[k]
    if cnt[0] > 0:  # scoring: the most closing, then the one giving least
        return _best_of(lst[0], cnt[0], g2, g1, 64)
    if cnt[1] > 0:
        return lst[1, np.random.randint(0, cnt[1])]
    return _best_of(lst[2], cnt[2], g2, g1, 0)  # the one giving least


@njit(nogil=True, inline="always")
def _best_of(row, n, g2, g1, w2):
    """The pair of ``row[:n]`` with the highest ``w2 * g2[p] - g1[p]``, ties broken uniformly at random."""
    best = -(1 << 30)
    pick = -1
    seen = 0
    for i in range(n):
        p = row[i]
        v = w2 * g2[p] - g1[p]
        if v > best:
            best = v
            pick = p
            seen = 1
        elif v == best:
            seen += 1
            if np.random.randint(0, seen) == 0:
                pick = p
    return pick


@njit(nogil=True, inline="always")
def _reward(diff, who, margin):
    if who == 1:
        diff = -diff
    if diff > 0:
        w = 1.0
    elif diff < 0:
        w = 0.0
    else:
        w = 0.5
    return (1.0 - margin) * w + margin * (0.5 + 0.5 * math.tanh(diff / 3.0))


@njit(nogil=True, inline="always")
def _copy(src, dst):
    for k in range(src.shape[0]):
        dst[k] = src[k]


@njit(nogil=True)
def _expand(g1, g2, cat, lst, cnt, nodes_move, first, count, node, top):
    """Give ``node`` its children, every legal line in the policy's order; returns the new top."""
    total = cnt[0] + cnt[1] + cnt[2]
    keys = np.empty(total, np.float64)
    ids = np.empty(total, np.int32)
    i = 0
    for k in range(3):
        for t in range(cnt[k]):
            p = lst[k, t]
            ids[i] = p
            if k == 0:
                key = -100.0 * g2[p] + g1[p]
            elif k == 1:
                key = 0.0
            else:
                key = 10.0 + g1[p]
            keys[i] = key + np.random.random()
            i += 1
    order = np.argsort(keys)
    first[node] = top
    count[node] = total
    for i in range(total):
        nodes_move[top + i] = ids[order[i]]
    return top + total


@njit(nogil=True)
def _grow(a, size, fill):
    b = np.full(size, fill, a.dtype)
    for k in range(a.shape[0]):
        b[k] = a[k]
    return b


@njit(nogil=True)
def _search(S, D0, Dn, playouts, seed, c_uct, widen, eps, margin, expand):
    """UCT from the position ``D0`` (left unchanged; ``Dn`` is scratch).

    Returns the chosen pair id, and the root's children: pair ids, visits and
    summed rewards (for diagnostics).
    """
    np.random.seed(seed)
    npairs = D0.legal.shape[0]
    ncells = S.cells.shape[0]
    # the root's counts, copied into the scratch state before each playout
    r_g1 = np.zeros(npairs, np.int32)
    r_g2 = np.zeros(npairs, np.int32)
    r_reg = np.zeros(ncells, np.int8)
    r_cat = np.full(npairs, -1, np.int8)
    r_lst = np.zeros((3, npairs), np.int32)
    r_cnt = np.zeros(3, np.int32)
    r_pos = np.zeros(npairs, np.int32)
    _init_aux(S, D0, r_g1, r_g2, r_reg, r_cat, r_lst, r_cnt, r_pos)
    g1 = r_g1.copy()
    g2 = r_g2.copy()
    reg = r_reg.copy()
    cat = r_cat.copy()
    lst = r_lst.copy()
    cnt = r_cnt.copy()
    pos = r_pos.copy()
    nroot = r_cnt[0] + r_cnt[1] + r_cnt[2]
    cap = 1 + nroot * 64
    nodes_move = np.full(cap, -1, np.int32)
    visits = np.zeros(cap, np.int32)
    value = np.zeros(cap, np.float64)
    first = np.full(cap, -1, np.int32)
    count = np.zeros(cap, np.int32)
    buf = np.empty(npairs + 3 * ncells + 1, np.int32)
    path = np.empty(npairs + 2, np.int64)
    movers = np.empty(npairs + 2, np.int64)
    top = _expand(r_g1, r_g2, r_cat, r_lst, r_cnt, nodes_move, first, count, 0, 1)
    for _ in range(playouts):
        # a fresh scratch copy of the root (moves, move_player, move_bstart,
        # move_closed and bstack beyond nmoves are written before they are read)
        _copy(D0.counters, Dn.counters)
        _copy(D0.legal, Dn.legal)
        _copy(D0.line_owner, Dn.line_owner)
        _copy(D0.cell_drawn, Dn.cell_drawn)
        _copy(D0.cell_blocked, Dn.cell_blocked)
        _copy(D0.cell_owner, Dn.cell_owner)
        _copy(r_g1, g1)
        _copy(r_g2, g2)
        _copy(r_reg, reg)
        _copy(r_cat, cat)
        _copy(r_pos, pos)
        _copy(r_cnt, cnt)
        for k in range(3):
            for t in range(r_cnt[k]):
                lst[k, t] = r_lst[k, t]
        node = 0
        depth = 0
        path[0] = 0
        while Dn.counters[0].live > 0:
            if first[node] < 0:
                if visits[node] < expand:
                    break  # a leaf: play out from here
                need = top + cnt[0] + cnt[1] + cnt[2]
                if need > cap:
                    while cap < need:
                        cap *= 2
                    nodes_move = _grow(nodes_move, cap, -1)
                    visits = _grow(visits, cap, 0)
                    value = _grow(value, cap, 0.0)
                    first = _grow(first, cap, -1)
                    count = _grow(count, cap, 0)
                top = _expand(g1, g2, cat, lst, cnt, nodes_move, first, count, node, top)
            nv = visits[node]
            allowed = int(math.ceil(widen * math.sqrt(nv + 1.0)))
            if allowed < 1:
                allowed = 1
            if allowed > count[node]:
                allowed = count[node]
            f = first[node]
            best = -1
            bestv = -1.0
            logn = math.log(nv + 1.0)
            for ch in range(f, f + allowed):
                v = visits[ch]
                if v == 0:
                    best = ch
                    break
                u = value[ch] / v + c_uct * math.sqrt(logn / v)
                if u > bestv:
                    bestv = u
                    best = ch
            movers[depth + 1] = Dn.counters[0].player
            _step(S, Dn, g1, g2, reg, cat, lst, cnt, pos, buf, nodes_move[best])
            depth += 1
            path[depth] = best
            node = best
        # the playout
        while Dn.counters[0].live > 0:
            p = _policy(g1, g2, lst, cnt, eps)
            _step(S, Dn, g1, g2, reg, cat, lst, cnt, pos, buf, p)
        diff = Dn.counters[0].score0 - Dn.counters[0].score1
        rew0 = _reward(diff, 0, margin)
        rew1 = _reward(diff, 1, margin)
        visits[0] += 1
        for k in range(1, depth + 1):
            nd = path[k]
            visits[nd] += 1
            value[nd] += rew0 if movers[k] == 0 else rew1
    f = first[0]
    best = f
    for ch in range(f, f + count[0]):
        if visits[ch] > visits[best] or (
            visits[ch] == visits[best] and visits[ch] > 0 and value[ch] / visits[ch] > value[best] / visits[best]
        ):
            best = ch
    return (
        nodes_move[best],
        nodes_move[f : f + count[0]].copy(),
        visits[f : f + count[0]].copy(),
        value[f : f + count[0]].copy(),
    )


# --------------------------------------------------------------------------
# The player
# --------------------------------------------------------------------------

C_UCT = 0.5
WIDEN = 0.25
EPS = 0.2
MARGIN = 0.5
EXPAND = 100


def mcts_move(
    game: Game,
    playouts: int | None = None,
    seed: int = 0,
    *,
    c_uct: float = C_UCT,
    widen: float = WIDEN,
    eps: float = EPS,
    margin: float = MARGIN,
    expand: float = EXPAND,
) -> Move:
    """The move UCT chooses after ``playouts`` playouts (default: :func:`default_playouts`)."""
    if game.is_over():
        raise ValueError("the game is over: no legal move")
    moves = game.legal_moves()
    if len(moves) == 1:
        return moves[0]
    n = playouts if playouts is not None else default_playouts(game.board.n)
    if n < 1:
        raise ValueError(f"playouts must be >= 1, got {n}")
    p, _, _, _ = _search(
        game.board.arrays,
        game.arrays(),
        game.arrays(),
        int(n),
        int(seed) & 0x7FFFFFFF,
        c_uct,
        widen,
        eps,
        margin,
        int(expand),
    )
    return game.board.pair(int(p))


class MCTSPlayer:
    """``player(game) -> move``: :func:`mcts_move` with a fresh seed for every move.

    The seed of the k-th call is ``seed * 1000 + k``, so a whole game is
    reproducible from ``seed``.
    """

    def __init__(self, seed: int = 0, playouts: int | None = None, **options: float) -> None:
        self.seed = seed
        self.playouts = playouts
        self.options = options
        self.calls = 0

    def __call__(self, game: Game) -> Move:
        self.calls += 1
        return mcts_move(game, self.playouts, self.seed * 1000 + self.calls, **self.options)


def warm_up() -> None:
    """Compile (or load from numba's cache) the search before anything is timed."""
    from triangles.rules import Board, Game

    board = Board([(0, 0), (100, 0), (100, 100), (0, 100), (40, 60)])
    mcts_move(Game(board), 8, 0)
    mcts_move(Game(board, extra_turn=True), 8, 0)
