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

1. Each region is explored alone, once per state it can reach (numba, the
   states as 64-bit masks of the local lines), and its game tree is
   *interned*: a class id per distinct set of moves, a move being (points it
   scores, the classes of the regions it leaves).  Regions with the same game
   tree, wherever they lie, get one class; a line that splits its region
   leaves several classes.  Classes are interned by a 64-bit hash, as the
   searches' tables key positions.
2. The position is then a multiset of classes, and an exact alpha-beta search
   runs over multisets (:class:`SumSearch`, numba), with a table keyed by an
   additive hash of the multiset.  Two identical small regions are one entry,
   whichever was played first; the geometry never enters the search.

Late in a game the board falls apart into many small regions (on 24 stars at
20-30 legal lines typically 4-8 of them, mostly of 3-10 lines), and there this
search needs a few thousand to a few hundred thousand nodes where the
whole-board search (:mod:`triangles.ai.solver`) needs millions: on 24 stars
with alternation hard's budget proves most positions of 40 legal lines, where
the whole-board proof reached about 20.  Exploring a region alone is
exhaustive, so a board that is still one large region (the opening) is beyond
it: both stages take a budget and give up (None) when it runs out, and the
caller falls back on the whole-board search.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from triangles.ai.bits import GOLDEN, ONE, bit_index, low_bit, mix64
from triangles.ai.multiset import (
    INF,
    back_up,
    child_multiset,
    children_refute,
    drop_pairs,
    list_move,
    moves_signature,
    node_settles,
    open_moves,
    open_scout,
    rescout,
    search_stack,
    sort_ranked,
    sorted_insert,
)
from triangles.ai.split import child_regions, cross_matrix, links, points, split
from triangles.ai.tables import grown, ht_get, ht_room, ht_set, move_key, new_table, tt_store
from triangles.jit import njit

if TYPE_CHECKING:
    from triangles.kernels import GameArrays
    from triangles.rules import Game

__all__ = ["MAX_LINES", "Regions", "SumResult", "SumSearch", "sum_search"]

#: most legal lines the regions handle (their states are 64-bit masks)
MAX_LINES = 64


class SumResult(NamedTuple):
    value: int  # a bound or the exact value of the mover's future points minus the opponent's (triangles)
    pair: int  # a best line (-1: none)
    nodes: int
    aborted: bool


@njit(inline="always")
def _add_move(
    F: int,
    k: int,
    pts: int,
    kl: int,
    f_mpts: np.ndarray,
    f_mkl: np.ndarray,
    f_nmv: np.ndarray,
    kl_hash: np.ndarray,
    root_line_hash: np.ndarray,
) -> None:
    """Record the line ``k`` of the state at stack depth ``F`` as a move (its points, its kid
    list); on a root region, also the move's hash, to find the line again (``Regions.pair_of``)."""
    f_mpts[F, f_nmv[F]] = pts
    f_mkl[F, f_nmv[F]] = kl
    if F == 0:
        root_line_hash[k] = move_key(kl_hash[kl], pts)
    f_nmv[F] += 1


# the counters of :func:`_explore`'s tables and stack, one int64 array: the two interning
# tables' used rows, then the classes, kid lists and states met
_N_CLASS_OF, _N_INTERN, _NCLS, _NKL, _STATES = 0, 1, 2, 3, 4


@njit(nogil=True, refcount=False)
def _explore_run(
    geo: tuple,
    max_states: int,
    abort: np.ndarray,
    T: tuple,
    S: tuple,
    cnt: np.ndarray,
    depth: int,
) -> tuple[int, int, int]:
    """:func:`_explore`'s loop over one root region's states (tables ``T``, stack ``S``, counters
    ``cnt``) from stack depth ``depth``, while its tables have room for one more step: (depth,
    how it stopped: 0 the root classified, 1 out of room, 2 over ``max_states`` or aborted; the
    root's class).  The tables grow between runs, in :func:`_explore`: an array rebound in a
    loop costs reference counting on every turn, and this loop counts none (:mod:`triangles.jit`:
    exploring took 44 % less time in hard's region proofs with the extra turn,
    ``benchmarks/middle-game.md``, thirty-third look)."""
    (
        class_of,
        intern,
        move_ptr,
        move_pts,
        move_kl,
        move_hash,
        total,
        kl_ptr,
        kl_hash,
        kl_items,
        root_line_hash,
    ) = T
    f_legal, f_drawn, f_todo, f_k, f_pts, f_cl, f_cd, f_link, f_relk, f_nc, f_ci, f_kids = S[:12]
    f_mpts, f_mkl, f_nmv, link, relk, mh, order = S[12:]
    while depth >= 0:
        # room for one more step (``kl_hash`` grows with ``kl_ptr``, ``total`` with ``move_ptr``,
        # ``move_kl`` and ``move_hash`` with ``move_pts``: :func:`_with_room`)
        nkl = cnt[_NKL]
        ncls = cnt[_NCLS]
        if (
            nkl + 2 >= kl_ptr.shape[0]
            or kl_ptr[nkl] + 64 >= kl_items.shape[0]
            or ncls + 1 >= move_ptr.shape[0]
            or move_ptr[ncls] + 64 >= move_pts.shape[0]
            or 2 * (cnt[_N_CLASS_OF] + 1) > class_of.shape[0]
            or 2 * (cnt[_N_INTERN] + 1) > intern.shape[0]
        ):
            return depth, 1, -1
        F = depth
        if f_k[F] >= 0 and f_ci[F] < f_nc[F]:
            # the regions the current line leaves: classify the next one
            c = ht_get(class_of, f_cl[F, f_ci[F]], f_cd[F, f_ci[F]])
            if c < 0:
                cnt[_STATES] += 1
                if cnt[_STATES] > max_states or ((cnt[_STATES] & 255) == 0 and abort[0] != 0):
                    return depth, 2, -1
                depth += 1
                f_legal[depth] = f_cl[F, f_ci[F]]
                f_drawn[depth] = f_cd[F, f_ci[F]]
                f_todo[depth] = f_legal[depth]
                links(f_legal[depth], f_drawn[depth], geo, f_link[depth], f_relk[depth], f_legal[depth])
                f_k[depth] = -1
                f_nmv[depth] = 0
                continue
            f_kids[F, f_ci[F]] = c
            f_ci[F] += 1
            continue
        if f_k[F] >= 0:
            # every region classified: the line's kid list (sorted, empties left out)
            nk = 0
            for j in range(f_nc[F]):
                x = f_kids[F, j]
                if x == 0:
                    continue
                sorted_insert(f_kids, F, nk, x)
                nk += 1
            start = kl_ptr[nkl]
            h = np.uint64(0x6A09E667F3BCC908)
            for j in range(nk):
                kl_items[start + j] = f_kids[F, j]
                h = mix64(h ^ np.uint64(f_kids[F, j] + 1))
            kl_hash[nkl] = h
            kl_ptr[nkl + 1] = start + nk
            _add_move(F, f_k[F], f_pts[F], nkl, f_mpts, f_mkl, f_nmv, kl_hash, root_line_hash)
            cnt[_NKL] = nkl + 1
            f_k[F] = -1
            continue
        if f_todo[F] != 0:
            # the next line of this state: its points, and the state it leaves
            b = low_bit(f_todo[F])
            f_todo[F] ^= b
            k = bit_index(b)
            drawn = f_drawn[F]
            pts = points(drawn, k, geo)
            # the regions it leaves, classified each time: a table from each state a line
            # leaves to its kid list (met again by another line in another order) cost more
            # than it saved, exploring took 37 % less time without it (an entry a line; the
            # same classes: ``benchmarks/middle-game.md``, thirty-fourth look)
            f_k[F] = k
            f_pts[F] = pts
            f_nc[F] = child_regions(f_legal[F], drawn, k, geo, f_link[F], f_relk[F], link, relk, f_cl[F], f_cd[F])
            f_ci[F] = 0
            continue
        # every line done: intern the state's class by its set of moves
        m = f_nmv[F]
        for j in range(m):
            mh[j] = move_key(kl_hash[f_mkl[F, j]], f_mpts[F, j])
        sig = moves_signature(mh, m, order)
        c = ht_get(intern, sig, ONE)
        if c < 0:
            c = ncls
            cnt[_NCLS] = ncls + 1
            ht_set(intern, cnt, _N_INTERN, sig, ONE, c)
            g = move_ptr[c]
            best_total = 0
            for j in range(m):
                if j > 0 and mh[order[j]] == mh[order[j - 1]]:
                    continue
                o = order[j]
                kl = f_mkl[F, o]
                move_pts[g] = f_mpts[F, o]
                move_kl[g] = kl
                move_hash[g] = mh[o]
                t_all = f_mpts[F, o]
                for t in range(kl_ptr[kl], kl_ptr[kl + 1]):
                    t_all += total[kl_items[t]]
                best_total = max(best_total, t_all)
                g += 1
            move_ptr[c + 1] = g
            total[c] = best_total
        ht_set(class_of, cnt, _N_CLASS_OF, f_legal[F], f_drawn[F], c)
        depth -= 1
        if depth >= 0:
            f_kids[depth, f_ci[depth]] = c
            f_ci[depth] += 1
        else:
            return depth, 0, c
    return depth, 0, -1


@njit(nogil=True)
def _explore(
    geo: tuple,
    n: int,
    max_states: int,
    abort: np.ndarray,
    rows: int = 1024,
) -> tuple:
    """Intern the game tree of every region state the position can reach (depth first, an
    explicit stack, :func:`_explore_run`).  A move is (points, kid list); a kid list is the
    sorted classes of the regions a line leaves (class 0, no lines, left out); a class is the
    set of its moves, interned by a 64-bit hash of their sorted hashes (as the search's table
    keys are).  Children are interned before their parents, so class ids rise up the tree.

    Returns (ok, root regions' legal masks, their classes, states, move_ptr, move_pts, move_kl,
    move_hash, kl_ptr, kl_items, total, root_line_hash): ``root_line_hash[k]`` is the hash of the
    move the root line ``k`` makes, to find a class's move on the board again.  ``rows``: room
    for that many classes and kid lists before the tables grow (a power of two; tests start
    tiny to make them grow).
    """
    # the interning tables (class by state, class by its moves), the classes' moves (class 0:
    # none) and their best totals, the kid lists, the root lines' hashes
    T = (
        np.zeros((64 * rows, 3), np.uint64),
        np.zeros((64 * rows, 3), np.uint64),
        np.zeros(rows, np.int64),
        np.zeros(4 * rows, np.int64),
        np.zeros(4 * rows, np.int64),
        np.zeros(4 * rows, np.uint64),
        np.zeros(rows, np.int64),
        np.zeros(rows, np.int64),
        np.zeros(rows, np.uint64),
        np.zeros(4 * rows, np.int64),
        np.zeros(64, np.uint64),
    )
    cnt = np.zeros(5, np.int64)
    cnt[_NCLS] = 1
    # the stack of states being classified
    d1 = n + 2
    f_legal = np.zeros(d1, np.uint64)
    f_k = np.full(d1, -1, np.int64)  # the line whose regions are being classified, -1: none
    f_link = np.zeros((d1, 64), np.uint64)  # each state's links (:func:`links`), patched per line
    f_relk = np.zeros((d1, 64), np.uint64)
    f_nmv = np.zeros(d1, np.int64)
    link = np.zeros(64, np.uint64)
    relk = np.zeros(64, np.uint64)
    S = (
        f_legal,
        np.zeros(d1, np.uint64),  # drawn
        np.zeros(d1, np.uint64),  # lines not yet tried
        f_k,
        np.zeros(d1, np.int64),  # the current line's points
        np.zeros((d1, 64), np.uint64),  # the regions it leaves
        np.zeros((d1, 64), np.uint64),
        f_link,
        f_relk,
        np.zeros(d1, np.int64),  # how many
        np.zeros(d1, np.int64),  # how many classified
        np.zeros((d1, 64), np.int64),  # their classes
        np.zeros((d1, 64), np.int64),  # the state's moves so far
        np.zeros((d1, 64), np.int64),
        f_nmv,
        link,
        relk,
        np.zeros(64, np.uint64),  # the moves' hashes
        np.zeros(64, np.int64),  # their order
    )
    root_l = np.zeros(64, np.uint64)
    root_d = np.zeros(64, np.uint64)
    full = np.uint64(0xFFFFFFFFFFFFFFFF) if n == 64 else (ONE << np.uint64(n)) - ONE
    nroots = split(full, np.uint64(0), geo, link, relk, root_l, root_d)
    root_cls = np.zeros(nroots, np.int64)
    ok = True
    for r in range(nroots):
        f_legal[0] = root_l[r]
        S[1][0] = root_d[r]
        S[2][0] = root_l[r]
        links(root_l[r], root_d[r], geo, f_link[0], f_relk[0], root_l[r])
        f_k[0] = -1
        f_nmv[0] = 0
        cnt[_STATES] += 1
        depth = 0
        while True:
            depth, how, c = _explore_run(geo, max_states, abort, T, S, cnt, depth)
            if how == 0:
                root_cls[r] = c
                break
            if how == 2:
                ok = False
                break
            T = _with_room(T, cnt)
        if not ok:
            break
    ncls = cnt[_NCLS]
    return (
        ok,
        root_l[:nroots].copy(),
        root_cls,
        cnt[_STATES],
        T[2][: ncls + 1].copy(),
        T[3],
        T[4],
        T[5],
        T[7][: cnt[_NKL] + 1].copy(),
        T[9],
        T[6][:ncls].copy(),
        T[10],
    )


@njit(nogil=True)
def _with_room(T: tuple, cnt: np.ndarray) -> tuple:
    """:func:`_explore`'s tables ``T`` (as :func:`_explore_run` names them) with room for one more
    step: a kid list, or a class with its moves, and a key in each interning table."""
    nkl = cnt[_NKL]
    ncls = cnt[_NCLS]
    move_ptr = grown(T[2], ncls + 1)
    kl_ptr = grown(T[7], nkl + 2)
    g = move_ptr[ncls] + 64
    return (
        ht_room(T[0], cnt[_N_CLASS_OF]),
        ht_room(T[1], cnt[_N_INTERN]),
        move_ptr,
        grown(T[3], g),
        grown(T[4], g),
        grown(T[5], g),
        grown(T[6], ncls + 1),
        kl_ptr,
        grown(T[8], nkl + 2),
        grown(T[9], kl_ptr[nkl] + 64),
        T[10],
    )


@njit
def mix_codes(lines: np.ndarray) -> np.ndarray:
    """A code a line from its board pair (``lines``: pairs): the same line has the same code
    in every search, whatever its local number."""
    out = np.zeros(lines.shape[0], np.uint64)
    for k in range(lines.shape[0]):
        out[k] = mix64((np.uint64(lines[k]) + ONE) * GOLDEN)
    return out


class Regions:
    """A position's regions, and (after :meth:`explore`) the interned game trees of every
    state they can reach, as flat arrays for :func:`_sum_kernel`.  Lines are numbered
    locally: bit ``k`` of a mask is the pair ``self.lines[k]``.

    ``without``: legal lines (pairs) set aside, as if a line drawn had crossed them: not
    among the lines, and the triangles they are sides of never scored.  After any line that
    crosses them, the position is the same game (:func:`triangles.ai.solver.solve`)."""

    def __init__(self, game: Game, D: GameArrays, without: Collection[int] = ()) -> None:
        S = game.board.arrays
        st = D.counters[0]
        n = int(st["nlegal"])
        self.extra = bool(st["extra"])
        lines = D.legal_list[:n]
        aside = {int(p) for p in without}
        if aside and not aside <= {int(p) for p in lines}:
            raise ValueError(f"lines set aside must be legal: {sorted(aside)}")
        self.lines = np.sort([p for p in lines if int(p) not in aside] if aside else lines).astype(np.int64)
        n = self.lines.shape[0]
        self.n = n
        self.fits = n <= MAX_LINES
        self.states = 0
        if not self.fits:
            return
        local = {int(p): k for k, p in enumerate(self.lines)}
        self.cross = cross_matrix(S, self.lines)
        need: dict[int, int] = {}
        for p in self.lines:
            for t in range(S.inc_ptr[p], S.inc_ptr[p + 1]):
                c = int(S.inc_cell[t])
                live = D.cell_blocked[c] == 0 and D.cell_drawn[c] < 3
                if c not in need and live and not (aside and aside.intersection(S.cell_pairs[c].tolist())):
                    # a live cell: its undrawn sides are all legal
                    need[c] = sum(1 << local[int(r)] for r in S.cell_pairs[c] if D.line_owner[r] < 0)
        self.need = np.asarray(list(need.values()), np.uint64)
        on: list[list[int]] = [[] for _ in range(n)]  # the live cells on each line
        for ci, bits in enumerate(need.values()):
            for k in range(n):
                if bits >> k & 1:
                    on[k].append(ci)
        self.on_ptr = np.zeros(n + 1, np.int64)
        self.on_ptr[1:] = np.cumsum([len(x) for x in on])
        self.on_cell = np.asarray([c for x in on for c in x], np.int64)
        #: each line's code, from its board pair: what a large state's key is made of in the
        #: lazy search (:func:`triangles.ai.split.state_key`)
        self.codes = mix_codes(self.lines)
        #: the five together, as the kernels take them (:mod:`triangles.ai.split`)
        self.geo: tuple = (self.cross, self.need, self.on_ptr, self.on_cell, self.codes)

    def parts(self) -> list[int]:
        """The legal-line masks of the regions (the position as it stands)."""
        if not self.fits:
            raise ValueError(f"too many legal lines for the regions' masks: {self.n} (at most {MAX_LINES})")
        out_l = np.zeros(64, np.uint64)
        out_d = np.zeros(64, np.uint64)
        scratch = (np.zeros(64, np.uint64), np.zeros(64, np.uint64))
        full = np.uint64((1 << self.n) - 1)
        nc = split(full, np.uint64(0), self.geo, *scratch, out_l, out_d)
        return [int(x) for x in out_l[:nc]]

    def explore(self, max_states: int, abort: np.ndarray) -> bool:
        """Intern every region state the position can reach; False when there are more than
        ``max_states`` (or more than :data:`MAX_LINES` legal lines, or the abort flag rose)."""
        if not self.fits:
            return False
        res = _explore(self.geo, self.n, max_states, abort)
        self.states = int(res[3])
        if not res[0]:
            return False
        self.root_masks, self.root_classes = res[1], res[2]
        self.move_ptr, self.move_pts, self.move_kl, self.move_hash = res[4:8]
        self.kl_ptr, self.kl_items, self.total, self.root_line_hash = res[8:12]
        return True

    def pair_of(self, move: int) -> int:
        """A board pair making the move ``move`` (a global move id) in one of the root regions."""
        cls = int(np.searchsorted(self.move_ptr, move, side="right")) - 1
        for mask, c in zip(self.root_masks, self.root_classes, strict=True):
            if c != cls:
                continue
            for k in range(self.n):
                if int(mask) >> k & 1 and self.root_line_hash[k] == self.move_hash[move]:
                    return int(self.lines[k])
        raise AssertionError("a class's move was not found in its region")


_ENTER, _NEXT, _RETURN = 0, 1, 2


@njit(nogil=True, refcount=False)
def _sum_core(
    tabs: tuple,
    root: np.ndarray,
    nlines: int,
    extra: bool,
    alpha: int,
    beta: int,
    node_limit: int,
    abort: np.ndarray,
    tt: np.ndarray,
    stack: tuple,
    chs: np.ndarray,
    sums: np.ndarray,
    npair: bool,
) -> tuple[int, int, int, bool]:
    """Fail-soft negamax alpha-beta over multisets of classes: (value, best root move, nodes, aborted).

    A node's multiset is kept sorted in ``ms[ply]``; its moves are every move of
    each distinct class in it, the table's move first, then by ``order``
    (:class:`SumSearch`: with alternation, the move's value alone
    (:func:`_alone_values`); then points, then the fewest points offered).
    Future points lie within +-(the points its classes still hold), which cuts
    a window outside that range for free.  The table (a row per entry: key,
    bound, best move, flag and the entry's subtree nodes) has buckets of two
    rows: the first keeps the larger search, the second the latest (on 24
    stars at 40-44 legal lines 8 % fewer nodes than always-replace); it stores
    a bound (exact / lower / upper) and the best move; every search runs to the
    end of the game, so any entry is usable at any node.  Before searching a
    node's moves, their children are looked up (an enhanced transposition
    cut-off: a child's stored bound may already refute the window; on 30
    positions of 32-40 legal lines, 2.5x fewer nodes, about as fast).  That
    settles most nodes that list their moves (85 % in hard's proofs at 36-48
    legal lines), so the moves are probed as listed and sorted only where none
    settles the node, and a child's key is its parent's plus its move's kids'
    keys summed once (``sums``, :func:`_move_sums`): the same nodes in 15 %
    less time (``benchmarks/middle-game.md``, thirty-fourth look).  A
    child's two copies of a class marked in ``cancel`` are dropped
    (:func:`_find_cancelling`), so that it shares its entry with the position
    without them.  A node's moves after its first are searched with a null
    window, and again with the whole one only when they beat the best so far
    (principal variation search, :func:`open_scout`; with a null window at the
    root, as hard's proofs run it, every node has one already).  An explicit
    stack, as in :mod:`triangles.ai.engine` (numba's cache and recursion do not
    mix); ``stack`` is :func:`triangles.ai.multiset.search_stack`'s, ``root`` sorted, and
    ``npair`` whether ``cancel`` marks a class.
    """
    move_ptr, move_pts, move_kl, kl_ptr, kl_items, total, key, order, cancel = tabs
    ms, msz, mv, mvc, nmv, idx, fa, fb, fa0, best, bestm, hkey, rk, nodes0, scout = stack
    mask = np.int64(tt.shape[0] - 1)
    r = root
    msz[0] = r.shape[0]
    for k in range(r.shape[0]):
        ms[0, k] = r[k]
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
            ret = 0
            if aborted or n == 0:
                continue
            cut, v, hint = node_settles(ms, ply, n, total, key, fa, fb, hkey, nodes0, nodes, tt, mask)
            if cut:
                ret = v
                continue
            h = hkey[ply]
            # the moves of each distinct class: the table's first, then by points (stable)
            m = 0
            for k in range(n):
                c = ms[ply, k]
                if k > 0 and ms[ply, k - 1] == c:
                    continue
                for g in range(move_ptr[c], move_ptr[c + 1]):
                    list_move(mv, mvc, rk, ply, m, g, c, (np.int64(1) << 62) if g == hint else order[g])
                    m += 1
            open_moves(nmv, idx, best, bestm, fa0, fa, ply, m)
            state = _NEXT
            if ply > 0:
                # enhanced transposition cut-off: a child whose stored bound already refutes
                # this node's window settles it without a search
                cut, v = children_refute(
                    tt,
                    mask,
                    h,
                    ms,
                    ply,
                    n,
                    mv,
                    mvc,
                    m,
                    move_kl,
                    move_pts,
                    kl_items,
                    kl_ptr,
                    key,
                    cancel,
                    extra,
                    fb[ply],
                    chs,
                    sums,
                    rk,
                    False,
                )
                if cut:
                    ret = v
                    state = _RETURN
            if state == _NEXT:
                sort_ranked(mv, mvc, rk, ply, m)
        elif state == _NEXT:
            if aborted or idx[ply] >= nmv[ply]:  # every move searched (or a cut-off)
                ret = best[ply]
                if not aborted:
                    tt_store(tt, mask, hkey[ply], ret, bestm[ply], fa0[ply], fb[ply], nodes - nodes0[ply], False)
                state = _RETURN
                continue
            g = mv[ply, idx[ply]]
            c = mvc[ply, idx[ply]]
            idx[ply] += 1
            # the child's multiset: this one less one c, plus the move's kids, kept sorted
            kl = move_kl[g]
            k2 = child_multiset(ms, msz, ply, c, kl_items, kl_ptr[kl], kl_ptr[kl + 1])
            if npair:
                k2 = drop_pairs(ms, ply + 1, k2, cancel)
            msz[ply + 1] = k2
            open_scout(fa, fb, scout, idx[ply] == 1, ply, move_pts[g], extra)
            ply += 1
            state = _ENTER
        else:  # _RETURN
            if ply == 0:
                return (0 if aborted else ret), bestm[0], nodes, aborted
            ply -= 1
            state = _NEXT
            if aborted:
                continue  # unwind to the root
            g = mv[ply, idx[ply] - 1]
            if rescout(fa, fb, scout, ply, move_pts[g], ret, extra):
                ply += 1
                state = _ENTER
                continue
            back_up(best, bestm, fa, fb, idx, nmv, ply, g, move_pts[g], ret, extra)


@njit(nogil=True)
def _sum_kernel(
    tabs: tuple,
    root: np.ndarray,
    nlines: int,
    extra: bool,
    alpha: int,
    beta: int,
    node_limit: int,
    abort: np.ndarray,
    tt: np.ndarray,
    sums: np.ndarray,
) -> tuple[int, int, int, bool]:
    """The search of :func:`_sum_core` over the classes' tables ``tabs`` (:class:`SumSearch`),
    from the multiset ``root``, with its stack and scratch made here: the core counts no
    references (:mod:`triangles.jit`), so it makes no arrays.  ``sums``: each move's kids'
    keys added up (:func:`_move_sums`), or an empty array while the pairs that cancel are
    still being found."""
    stack = search_stack(nlines)
    chs = np.zeros(MAX_LINES, np.int64)
    npair = tabs[8].any()  # some class's pairs cancel
    return _sum_core(tabs, np.sort(root), nlines, extra, alpha, beta, node_limit, abort, tt, stack, chs, sums, npair)


@njit(nogil=True)
def _move_sums(tabs: tuple) -> np.ndarray:
    """Each move's kids' keys added up, so that a child's key in the enhanced cut-offs is one
    addition (:func:`triangles.ai.multiset.children_refute`); 0 where a kid's pairs cancel,
    whose child's key depends on the rest of the multiset."""
    move_ptr, move_kl, kl_ptr, kl_items, key, cancel = tabs[0], tabs[2], tabs[3], tabs[4], tabs[6], tabs[8]
    nmoves = move_ptr[move_ptr.shape[0] - 1]
    sums = np.zeros(nmoves, np.int64)
    for g in range(nmoves):
        kl = move_kl[g]
        s = np.int64(0)
        for t in range(kl_ptr[kl], kl_ptr[kl + 1]):
            x = kl_items[t]
            if cancel[x]:
                s = np.int64(0)
                break
            s += key[x]
        sums[g] = s
    return sums


def _move_order(r: Regions) -> np.ndarray:
    """A static ordering key per move: the points it scores first, then the fewest points it
    offers (the most the best capture of each region it leaves scores, added up)."""
    ncls = len(r.total)
    nmoves = int(r.move_ptr[-1])
    pts = r.move_pts[:nmoves].astype(np.int64)
    maxpts = np.zeros(ncls, np.int64)
    np.maximum.at(maxpts, np.repeat(np.arange(ncls), np.diff(r.move_ptr)), pts)
    nkl = len(r.kl_ptr) - 1
    offer_kl = np.zeros(nkl, np.int64)
    np.add.at(offer_kl, np.repeat(np.arange(nkl), np.diff(r.kl_ptr)), maxpts[r.kl_items[: r.kl_ptr[-1]]])
    return pts * 1024 - offer_kl[r.move_kl[:nmoves]]


@njit(nogil=True)
def _alone_values(
    move_ptr: np.ndarray,
    move_pts: np.ndarray,
    move_kl: np.ndarray,
    kl_ptr: np.ndarray,
    kl_items: np.ndarray,
    extra: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Each class's value to the player moving first in it alone, and each move's, approximated:
    a move's kids are taken as games the next player (the opponent, unless a capture keeps
    the move) opens, each alone.  Classes are interned after their kids, so one pass suffices."""
    ncls = move_ptr.shape[0] - 1
    av = np.zeros(ncls, np.int64)
    mval = np.zeros(move_ptr[ncls], np.int64)
    for c in range(ncls):
        best = -(1 << 30)
        for g in range(move_ptr[c], move_ptr[c + 1]):
            s = 0
            kl = move_kl[g]
            for t in range(kl_ptr[kl], kl_ptr[kl + 1]):
                s += av[kl_items[t]]
            v = move_pts[g] + s if (extra and move_pts[g] > 0) else move_pts[g] - s
            mval[g] = v
            best = max(best, v)
        av[c] = best if move_ptr[c + 1] > move_ptr[c] else 0
    return av, mval


#: most nodes :func:`_find_cancelling` spends on one class, and on all of them
_CANCEL_NODES, _CANCEL_BUDGET = 2_000, 100_000


@njit(nogil=True)
def _find_cancelling(tabs: tuple, abort: np.ndarray, tt: np.ndarray) -> int:
    """Mark in ``cancel`` (the last of the sum search's tables ``tabs``, see :class:`SumSearch`)
    the classes two copies of which are worth nothing in any sum (with alternation); returns
    the nodes searched.

    ``X + G + G`` is worth what ``X`` is when, for every position ``R`` that ``G`` can reach,
    ``R + R`` is worth nothing to its first mover.  Either player then keeps ``X``'s value by
    playing in ``X`` as they would alone and answering a move in one copy with the same move
    in the other: the turn order in ``X`` is unchanged, each such pair nets nothing, and once
    ``X`` is played out the copies are equal, so the rest is worth nothing.  (Under the
    extra-turn rule a capture keeps the move, which breaks that answer.)  Classes come in id
    order, kids first: a class qualifies when every kid of every move qualifies (so every
    ``R + R`` below it is a sum of such pairs) and ``G + G`` itself is worth 0.  That is
    searched with the pairs found so far dropped, within a small budget (over it, the class is
    left out, which is always safe).  Every one-line class qualifies (in the give phase, a
    lone triangle or two to take); so do some chains of two or three triangles.
    """
    move_ptr, move_kl, kl_ptr, kl_items, cancel = tabs[0], tabs[2], tabs[3], tabs[4], tabs[8]
    nodes = 0
    both = np.zeros(2, np.int64)
    no_sums = np.zeros(0, np.int64)  # the children's keys from their kids while pairs are marked
    ncls = move_ptr.shape[0] - 1
    length = np.zeros(ncls, np.int64)  # the most lines a class's game can last
    for c in range(1, ncls):
        kids_qualify = True
        for g in range(move_ptr[c], move_ptr[c + 1]):
            kl = move_kl[g]
            rest = 0
            for t in range(kl_ptr[kl], kl_ptr[kl + 1]):
                kids_qualify = kids_qualify and cancel[kl_items[t]]
                rest += length[kl_items[t]]
            length[c] = max(length[c], 1 + rest)
        if not kids_qualify or nodes >= _CANCEL_BUDGET or abort[0] != 0:
            continue
        both[0] = c
        both[1] = c
        v, _, n, aborted = _sum_kernel(tabs, both, 2 * length[c], False, -INF, INF, _CANCEL_NODES, abort, tt, no_sums)
        nodes += n
        cancel[c] = v == 0 and not aborted
    return nodes


class SumSearch:
    """The sum of a position's explored regions, ready to search (one table shared by successive searches)."""

    def __init__(
        self, regions: Regions, tt_bits: int = 18, *, abort: np.ndarray | None = None, cancel: bool = True
    ) -> None:
        r = regions
        self.regions = r
        abort = np.zeros(1, np.uint8) if abort is None else abort
        key = np.random.default_rng(0x7269).integers(1, 2**63, len(r.total), dtype=np.int64)
        order = _move_order(r)
        if not r.extra:
            # with alternation, the moves best for the mover alone first: on 24 stars at 40-48
            # legal lines 1.3x fewer nodes over all, up to 7x on the proved wins; with the extra
            # turn the estimate is poorer and the proofs there are small anyway
            _, mval = _alone_values(r.move_ptr, r.move_pts, r.move_kl, r.kl_ptr, r.kl_items, r.extra)
            order = mval * (1 << 20) + order  # as expand.value_rank ranks a move (change the two together)
        self.cancel = np.zeros(len(r.total), np.bool_)
        self.tabs = (r.move_ptr, r.move_pts, r.move_kl, r.kl_ptr, r.kl_items, r.total, key, order, self.cancel)
        self.root = np.asarray([c for c in r.root_classes if c != 0], np.int64)
        # a row per entry: key, bounds, best move, subtree nodes (one cache line a bucket; tables.tt_row)
        self.tt = new_table(tt_bits)
        #: nodes searched to find the classes whose pairs cancel
        self.setup_nodes = 0
        if cancel and not r.extra:
            self.setup_nodes = int(_find_cancelling(self.tabs, abort, self.tt))
        self.sums = _move_sums(self.tabs)

    def search(self, alpha: int, beta: int, node_limit: int, abort: np.ndarray) -> SumResult:
        """The value for the mover within (alpha, beta), fail-soft, in triangles, and a best line."""
        r = self.regions
        v, g, nodes, aborted = _sum_kernel(
            self.tabs, self.root, r.n, r.extra, alpha, beta, node_limit, abort, self.tt, self.sums
        )
        pair = r.pair_of(int(g)) if not aborted and g >= 0 else -1
        return SumResult(value=int(v), pair=pair, nodes=int(nodes), aborted=bool(aborted))


def sum_search(game: Game, D: GameArrays, *, max_states: int, abort: np.ndarray, tt_bits: int = 18) -> SumSearch | None:
    """The position as a sum of regions, explored within ``max_states`` region states; None when
    that budget (or the abort flag, or too many legal lines) stopped the exploration."""
    r = Regions(game, D)
    if not r.explore(max_states, abort):
        return None
    return SumSearch(r, tt_bits, abort=abort)
