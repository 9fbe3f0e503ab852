"""Exact values by region decomposition: the rest of the game as a sum of independent parts.

Two legal lines *interact* when they cross (drawing one forbids the other) or
are sides of one live cell (drawing one changes what the other scores).  A
group of legal lines joined by interactions is a *region*: what is drawn in one
region never changes another's lines or cells, so the rest of the game is a sum
of regions, and a turn is a line in one of them.  Under either turn rule the
sum's value is *not* the sum of the regions' values (two separate one-triangle
captures are worth +1 each alone, 0 together with alternation), so the regions
cannot simply be solved apart and added.  What does hold is that a region's
future depends only on its own game tree:

1. Each region is explored alone, once per state it can reach, and its game
   tree is *interned*: a class id per distinct list of moves, a move being
   (points it scores, the classes of the regions it leaves).  Regions with the
   same game tree, wherever they lie, get one class; a line that splits its
   region leaves several classes.
2. The position is then a multiset of classes, and an exact alpha-beta search
   runs over multisets (:func:`sum_search`, numba), with a table keyed by an
   additive hash of the multiset.  Two identical small regions are one entry,
   whichever was played first; the geometry never enters the search.

Late in a game the board falls apart into many small regions (on 24 stars at
20-30 legal lines typically 4-8 of them, mostly of 3-10 lines), and there this
search needs a few thousand to a few hundred thousand nodes where the
whole-board search (:mod:`triangles.ai.solver`) needs millions.  Exploring a
region alone is exhaustive, so a board that is still one large region (the
opening) is beyond it: both stages take a budget and give up (None) when it
runs out, and the caller falls back on the whole-board search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from triangles import kernels as K
from triangles.jit import njit

if TYPE_CHECKING:
    from triangles.kernels import BoardArrays, GameArrays
    from triangles.rules import Game

__all__ = ["Regions", "SumResult", "sum_search", "region_sizes"]

_INF = 1 << 30
_EXACT, _LOWER, _UPPER = 0, 1, 2


class SumResult(NamedTuple):
    value: int  # a bound or the exact value of the mover's future points minus the opponent's (triangles)
    pair: int  # a best line (-1: none)
    nodes: int
    aborted: bool


class _OverBudget(Exception):
    """The exploration of the regions ran out of its state budget (or was aborted)."""


@njit(nogil=True)
def _cross_matrix(S: BoardArrays, lines: np.ndarray) -> np.ndarray:
    """``m[a, b] = 1`` when the legal lines ``lines[a]`` and ``lines[b]`` cross."""
    n = lines.shape[0]
    xs, ys, pi, pj = S.xs, S.ys, S.pi, S.pj
    m = np.zeros((n, n), np.uint8)
    for a in range(n):
        p = lines[a]
        for b in range(a + 1, n):
            q = lines[b]
            if K.segments_cross(xs[pi[p]], ys[pi[p]], xs[pj[p]], ys[pj[p]], xs[pi[q]], ys[pi[q]], xs[pj[q]], ys[pj[q]]):
                m[a, b] = 1
                m[b, a] = 1
    return m


def _bits(m: int) -> list[int]:
    out = []
    while m:
        b = m & -m
        out.append(b.bit_length() - 1)
        m ^= b
    return out


class Regions:
    """The position's regions and the interned game trees of every state they can reach.

    Lines are numbered locally (bit ``k`` of a mask is ``self.lines[k]``); a
    region's state is ``(legal, drawn)``: its legal lines, and which of them
    (by the local numbering) have been drawn since, among the sides of its
    live cells.  Build with :meth:`explore`.
    """

    def __init__(self, game: Game, D: GameArrays) -> None:
        S = game.board.arrays
        st = D.counters[0]
        n = int(st["nlegal"])
        self.extra = bool(st["extra"])
        self.lines = np.sort(D.legal_list[:n]).astype(np.int64)
        local = {int(p): k for k, p in enumerate(self.lines)}
        cm = _cross_matrix(S, self.lines)
        self.cross = [sum(1 << int(b) for b in np.flatnonzero(cm[a])) for a in range(n)]
        cells: dict[int, int] = {}
        for p in self.lines:
            for t in range(S.inc_ptr[p], S.inc_ptr[p + 1]):
                c = int(S.inc_cell[t])
                if c not in cells and D.cell_blocked[c] == 0 and D.cell_drawn[c] < 3:
                    # a live cell: its undrawn sides are all legal
                    cells[c] = sum(1 << local[int(r)] for r in S.cell_pairs[c] if D.line_owner[r] < 0)
        self.need = list(cells.values())  # per live cell: its sides still to draw (local bits)
        self.on: list[list[int]] = [[] for _ in range(n)]  # live cells on each line
        for ci, need in enumerate(self.need):
            for k in _bits(need):
                self.on[k].append(ci)
        self.class_of: dict[tuple[int, int], int] = {}
        self._kids: dict[tuple[int, int], tuple[int, ...]] = {}  # (legal, drawn) -> its regions' classes
        self.moves: list[tuple[tuple[int, tuple[int, ...]], ...]] = [()]  # class 0: no lines left
        self._intern: dict[tuple[tuple[int, tuple[int, ...]], ...], int] = {(): 0}
        self.states = 0
        self.roots: list[tuple[int, int, tuple[int, ...]]] = []
        self.root_classes: list[int] = []

    # ------------------------------------------------------------------ regions

    def split(self, legal: int, drawn: int, cells: tuple[int, ...]) -> list[tuple[int, int, tuple[int, ...]]]:
        """The regions of a state: ``(legal, drawn, live cells)`` each (``cells``: where to look)."""
        need, cross, on = self.need, self.cross, self.on
        live: dict[int, int] = {}  # live cell -> its sides still to draw
        for ci in cells:
            und = need[ci] & ~drawn
            if und and not und & ~legal:
                live[ci] = und
        out = []
        rest = legal
        while rest:
            comp = frontier = rest & -rest
            while frontier:
                b = frontier & -frontier
                frontier ^= b
                k = b.bit_length() - 1
                grow = cross[k]
                for ci in on[k]:
                    grow |= live.get(ci, 0)
                grow &= legal & ~comp
                comp |= grow
                frontier |= grow
            rest &= ~comp
            mine = tuple(ci for ci, und in live.items() if und & comp)
            rel = 0
            for ci in mine:
                rel |= need[ci]
            out.append((comp, drawn & rel, mine))
        return out

    def _move(self, k: int, legal: int, drawn: int, cells: tuple[int, ...]) -> tuple[int, int, int]:
        """(points, legal after, drawn after) of the local line ``k``."""
        b = 1 << k
        pts = 0
        for ci in self.on[k]:
            if ci in cells and self.need[ci] & ~drawn == b:
                pts += 1
        return pts, legal & ~b & ~self.cross[k], drawn | b

    def _after(
        self, k: int, legal: int, drawn: int, cells: tuple[int, ...], budget: int, abort: np.ndarray
    ) -> tuple[int, tuple[int, ...]]:
        pts, nl, nd = self._move(k, legal, drawn, cells)
        kids = self._kids.get((nl, nd))
        if kids is None:  # the same state is reached by several lines and orders: split it once
            found = sorted(self._class(sl, sd, sc, budget, abort) for sl, sd, sc in self.split(nl, nd, cells))
            kids = self._kids[(nl, nd)] = tuple(c for c in found if c != 0)
        return pts, kids

    def _class(self, legal: int, drawn: int, cells: tuple[int, ...], budget: int, abort: np.ndarray) -> int:
        """The class of a region's state, exploring (and interning) everything it can reach."""
        found = self.class_of.get((legal, drawn))
        if found is not None:
            return found
        self.states += 1
        if self.states > budget or (self.states & 255 == 0 and abort[0]):
            raise _OverBudget
        moves = {self._after(k, legal, drawn, cells, budget, abort) for k in _bits(legal)}
        sig = tuple(sorted(moves))
        c = self._intern.get(sig)
        if c is None:
            c = len(self.moves)
            self.moves.append(sig)
            self._intern[sig] = c
        self.class_of[(legal, drawn)] = c
        return c

    def explore(self, max_states: int, abort: np.ndarray) -> bool:
        """Intern every region state the position can reach; False when more than ``max_states``
        (or the abort flag) stopped it."""
        n = len(self.lines)
        try:
            self.roots = self.split((1 << n) - 1, 0, tuple(range(len(self.need))))
            self.root_classes = [self._class(lg, dr, cl, max_states, abort) for lg, dr, cl in self.roots]
        except _OverBudget:
            return False
        except RecursionError:  # a region too deep to explore here: leave it to the whole-board search
            return False
        return True

    # ------------------------------------------------------------------ the sum

    def tables(self) -> tuple[np.ndarray, ...]:
        """The interned classes as flat arrays for :func:`sum_search`:
        (move_ptr, move_pts, kid_ptr, kids, total, key)."""
        ncls = len(self.moves)
        move_ptr = np.zeros(ncls + 1, np.int32)
        pts: list[int] = []
        kids: list[int] = []
        kid_ptr = [0]
        for c, sig in enumerate(self.moves):
            for p, ks in sig:
                pts.append(p)
                kids.extend(ks)
                kid_ptr.append(len(kids))
            move_ptr[c + 1] = len(pts)
        total = np.zeros(ncls, np.int32)
        for c, sig in enumerate(self.moves):  # children are interned before their parents
            total[c] = max((p + sum(int(total[k]) for k in ks) for p, ks in sig), default=0)
        key = np.random.default_rng(0x7269).integers(1, 2**63, ncls, dtype=np.int64).astype(np.uint64)
        return (
            move_ptr,
            np.asarray(pts, np.int32),
            np.asarray(kid_ptr, np.int32),
            np.asarray(kids, np.int32),
            total,
            key,
        )

    def pair_of(self, cls: int, move: int) -> int:
        """A board pair playing the ``move``-th move of class ``cls`` in one of the root regions."""
        want = self.moves[cls][move]
        for (legal, drawn, cells), c in zip(self.roots, self.root_classes, strict=True):
            if c != cls:
                continue
            for k in _bits(legal):
                if self._after(k, legal, drawn, cells, _INF, np.zeros(1, np.uint8)) == want:
                    return int(self.lines[k])
        raise AssertionError("a class's move was not found in its region")


def region_sizes(game: Game) -> list[int]:
    """The number of legal lines in each region of the position, largest first."""
    D = game.arrays()
    r = Regions(game, D)
    n = len(r.lines)
    return sorted(
        (bin(lg).count("1") for lg, _, _ in r.split((1 << n) - 1, 0, tuple(range(len(r.need))))), reverse=True
    )


_ENTER, _NEXT, _RETURN = 0, 1, 2


@njit(nogil=True)
def _sum_kernel(
    move_ptr: np.ndarray,
    move_pts: np.ndarray,
    kid_ptr: np.ndarray,
    kids: np.ndarray,
    total: np.ndarray,
    key: np.ndarray,
    root: np.ndarray,
    nlines: int,
    extra: bool,
    alpha: int,
    beta: int,
    node_limit: int,
    abort: np.ndarray,
    tt_key: np.ndarray,
    tt_val: np.ndarray,
    tt_flag: np.ndarray,
    tt_move: np.ndarray,
) -> tuple[int, int, int, bool]:
    """Fail-soft negamax alpha-beta over multisets of classes: (value, best root move, nodes, aborted).

    A node's multiset is kept sorted in ``ms[ply]``; its moves are every move of
    each distinct class in it, the table's move first, then by points.  Future
    points lie within +-(the points its classes still hold), which cuts a
    window outside that range for free.  The table is always-replace, storing a
    bound (exact / lower / upper) and the best move; every search runs to the
    end of the game, so any entry is usable at any node.  An explicit stack, as
    in :mod:`triangles.ai.engine` (numba's cache and recursion do not mix).
    """
    plies = nlines + 2  # a line a ply
    width = nlines + 2  # a region, or a move, has a line at least
    ms = np.zeros((plies, width), np.int32)
    msz = np.zeros(plies, np.int32)
    mv = np.zeros((plies, width), np.int32)  # the node's moves (global move ids) ...
    mvc = np.zeros((plies, width), np.int32)  # ... and their classes
    nmv = np.zeros(plies, np.int32)
    idx = np.zeros(plies, np.int32)
    fa = np.zeros(plies, np.int64)
    fb = np.zeros(plies, np.int64)
    fa0 = np.zeros(plies, np.int64)
    best = np.zeros(plies, np.int64)
    bestm = np.full(plies, -1, np.int32)
    hkey = np.zeros(plies, np.uint64)
    mask = np.uint64(tt_key.shape[0] - 1)
    r = np.sort(root)
    msz[0] = r.shape[0]
    ms[0, : r.shape[0]] = r
    fa[0] = alpha
    fb[0] = beta
    nodes = 0
    aborted = False
    ply = 0
    ret = 0
    state = _ENTER
    while True:
        if state == _ENTER:
            state = _RETURN  # unless the node opens moves below
            nodes += 1
            if nodes >= node_limit or ((nodes & 1023) == 0 and abort[0] != 0):
                aborted = True
            n = msz[ply]
            left = 0
            h = np.uint64(0)
            for k in range(n):
                left += total[ms[ply, k]]
                h += key[ms[ply, k]]
            ret = 0
            if aborted or n == 0:
                continue
            if ply > 0 and left <= fa[ply]:
                ret = left
                continue
            if ply > 0 and -left >= fb[ply]:
                ret = -left
                continue
            hkey[ply] = h
            slot = np.int64(h & mask)
            hint = -1
            if tt_key[slot] == h:
                hint = tt_move[slot]
                v = tt_val[slot]
                fl = tt_flag[slot]
                if ply > 0 and (fl == _EXACT or (fl == _LOWER and v >= fb[ply]) or (fl == _UPPER and v <= fa[ply])):
                    ret = v
                    continue
            # the moves of each distinct class: the table's first, then by points (stable)
            m = 0
            for k in range(n):
                c = ms[ply, k]
                if k > 0 and ms[ply, k - 1] == c:
                    continue
                for g in range(move_ptr[c], move_ptr[c + 1]):
                    rank = move_pts[g] + (1000 if g == hint else 0)
                    pos = m
                    while pos > 0:
                        q = mv[ply, pos - 1]
                        if move_pts[q] + (1000 if q == hint else 0) >= rank:
                            break
                        mv[ply, pos] = q
                        mvc[ply, pos] = mvc[ply, pos - 1]
                        pos -= 1
                    mv[ply, pos] = g
                    mvc[ply, pos] = c
                    m += 1
            nmv[ply] = m
            idx[ply] = 0
            best[ply] = -_INF
            bestm[ply] = -1
            fa0[ply] = fa[ply]
            state = _NEXT
        elif state == _NEXT:
            if aborted or idx[ply] >= nmv[ply]:  # every move searched (or a cut-off)
                ret = best[ply]
                if not aborted:
                    slot = np.int64(hkey[ply] & mask)
                    tt_key[slot] = hkey[ply]
                    tt_val[slot] = ret
                    tt_flag[slot] = _UPPER if ret <= fa0[ply] else (_LOWER if ret >= fb[ply] else _EXACT)
                    tt_move[slot] = bestm[ply]
                state = _RETURN
                continue
            g = mv[ply, idx[ply]]
            c = mvc[ply, idx[ply]]
            idx[ply] += 1
            # the child's multiset: this one less one c, plus the move's kids, kept sorted
            k2 = 0
            dropped = False
            for k in range(msz[ply]):
                x = ms[ply, k]
                if x == c and not dropped:
                    dropped = True
                    continue
                ms[ply + 1, k2] = x
                k2 += 1
            for t in range(kid_ptr[g], kid_ptr[g + 1]):
                x = kids[t]
                pos = k2
                while pos > 0 and ms[ply + 1, pos - 1] > x:
                    ms[ply + 1, pos] = ms[ply + 1, pos - 1]
                    pos -= 1
                ms[ply + 1, pos] = x
                k2 += 1
            msz[ply + 1] = k2
            p = move_pts[g]
            if p > 0 and extra:  # the mover stays
                fa[ply + 1] = fa[ply] - p
                fb[ply + 1] = fb[ply] - p
            else:
                fa[ply + 1] = p - fb[ply]
                fb[ply + 1] = p - fa[ply]
            ply += 1
            state = _ENTER
        else:  # _RETURN
            if ply == 0:
                return (0 if aborted else ret), bestm[0], nodes, aborted
            ply -= 1
            state = _NEXT
            if aborted:
                continue  # unwind to the root
            p = move_pts[mv[ply, idx[ply] - 1]]
            v = p + ret if (p > 0 and extra) else p - ret
            if v > best[ply]:
                best[ply] = v
                bestm[ply] = mv[ply, idx[ply] - 1]
                if v > fa[ply]:
                    fa[ply] = v
                    if v >= fb[ply]:
                        idx[ply] = nmv[ply]


class SumSearch:
    """The sum of a position's regions, ready to search (one table shared by successive searches)."""

    def __init__(self, regions: Regions, tt_bits: int = 18) -> None:
        self.regions = regions
        self.tabs = regions.tables()
        self.root = np.asarray([c for c in regions.root_classes if c != 0], np.int32)
        size = 1 << tt_bits
        self.tt = (
            np.zeros(size, np.uint64),
            np.zeros(size, np.int32),
            np.zeros(size, np.int8),
            np.full(size, -1, np.int32),
        )
        self._move_cls = np.repeat(np.arange(len(regions.moves), dtype=np.int32), np.diff(self.tabs[0]))

    def search(self, alpha: int, beta: int, node_limit: int, abort: np.ndarray) -> SumResult:
        """The value for the mover within (alpha, beta), fail-soft, in triangles, and a best line."""
        v, g, nodes, aborted = _sum_kernel(
            *self.tabs, self.root, len(self.regions.lines), self.regions.extra, alpha, beta, node_limit, abort, *self.tt
        )
        pair = -1
        if not aborted and g >= 0:
            c = int(self._move_cls[g])
            pair = self.regions.pair_of(c, int(g - self.tabs[0][c]))
        return SumResult(value=int(v), pair=pair, nodes=int(nodes), aborted=bool(aborted))


def sum_search(game: Game, D: GameArrays, *, max_states: int, abort: np.ndarray, tt_bits: int = 18) -> SumSearch | None:
    """The position as a sum of regions, explored within ``max_states`` region states; None when
    that budget (or the abort flag) stopped the exploration."""
    r = Regions(game, D)
    if not r.explore(max_states, abort):
        return None
    return SumSearch(r, tt_bits)
