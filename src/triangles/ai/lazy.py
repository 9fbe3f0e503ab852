"""Exact values over regions expanded only as far as the search reaches them.

:mod:`triangles.ai.regions` explores every state a region can reach before it
searches, and that exploration is what limits it on a board still in one
piece: on a whole 10-star board the sum search itself needs 0.3-2 M nodes
(0.2-1.5 s) while exploring takes 0.5-3 M region states (8-56 s), and on a
whole 12-star board the exploration had passed 3 M states after two minutes.
Here the search runs over multisets of region *states* (a state: its legal
lines and the drawn sides of its live cells, as 64-bit masks).  A state's
moves (the points a line scores, the states of the regions it leaves) are
worked out the first time the search lists it, then kept for every other
position holding it; where the search prunes, nothing is expanded.  A region
of at most :data:`SMALL` lines is still explored whole when first met and
merged with every state of the same game tree (without that merging the
search needs 50-130 times the nodes); a larger one is never merged.  The
table, its enhanced cut-offs and the move order are the sum search's, except
where a large region's moves rank (:func:`_large_rank`) and where the cut-offs
are kept in the table, where a root move's answers rank with alternation, and where a node
holding new states takes its cut-off through their expanded siblings before expanding
them (:func:`_sibling_refutes`).  Whole 10-star boards take 0.2-1.6 s; whole 12-star
boards up to 53 s, and 1.7-18 s with two searches sharing the table on two cores
(:func:`search_pair`, as :func:`triangles.ai.solver.solve` runs them;
``benchmarks/middle-game.md``, fifteenth to twenty-fourth looks).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from triangles.ai.bits import GOLDEN, ONE, bit_index, low_bit, mix64, popcount
from triangles.ai.multiset import (
    INF,
    back_up,
    child_multiset,
    child_refutes,
    children_refute,
    drop_pairs,
    insert_ranked,
    node_settles,
    open_moves,
    open_scout,
    rescout,
    search_stack,
    sorted_insert,
)
from triangles.ai.prefetch import prefetch_row
from triangles.ai.regions import MAX_LINES, Regions
from triangles.ai.split import child_links, components, links, points
from triangles.ai.tables import (
    grown,
    grown_rows,
    ht_get,
    ht_grown,
    ht_home,
    ht_put,
    ht_set,
    move_key,
    tt_bucket,
    tt_keep_cut,
    tt_store,
)
from triangles.jit import njit

if TYPE_CHECKING:
    from triangles.kernels import GameArrays
    from triangles.rules import Game

__all__ = ["SMALL", "LazyResult", "LazySum", "lazy_search", "search_pair"]

_ENTER, _NEXT, _RETURN, _LIST = 0, 1, 2, 3


class LazyResult(NamedTuple):
    value: int  # a bound or the exact value of the mover's future points minus the opponent's (triangles)
    pair: int  # a best line (-1: none)
    nodes: int
    states: int  # region states met (each expanded at most once)
    aborted: bool


@njit(inline="always")
def _state_facts(
    legal: np.uint64, drawn: np.uint64, need: np.ndarray, on_ptr: np.ndarray, on_cell: np.ndarray
) -> tuple[int, int]:
    """(live cells: a bound on the points the region still holds, the most one of its lines scores)."""
    live = 0
    most = 0
    m = legal
    while m:
        b = low_bit(m)
        m ^= b
        k = bit_index(b)
        pts = 0
        for t in range(on_ptr[k], on_ptr[k + 1]):
            und = need[on_cell[t]] & ~drawn
            if (und & ~legal) == 0:
                live += low_bit(und) == b  # counted once, on its lowest undrawn side
                pts += und == b
        most = max(most, pts)
    return live, most


@njit(inline="always")
def _live_cells(
    legal: np.uint64, drawn: np.uint64, need: np.ndarray, on_ptr: np.ndarray, on_cell: np.ndarray, und: np.ndarray
) -> int:
    """The undrawn sides of each live cell of the state (legal, drawn), once each, into ``und``:
    how many.  A state a line leaves has no live cell its parent lacked (a cell with a side
    that is neither drawn nor legal keeps it), so these give the facts of every region a line
    leaves (:func:`_child_facts`) without looking the cells up again."""
    n = 0
    m = legal
    while m:
        b = low_bit(m)
        m ^= b
        k = bit_index(b)
        for t in range(on_ptr[k], on_ptr[k + 1]):
            u = need[on_cell[t]] & ~drawn
            if low_bit(u) == b and (u & ~legal) == 0:
                und[n] = u
                n += 1
    return n


@njit(inline="always")
def _child_facts(und: np.ndarray, n: int, b: np.uint64, region: np.uint64, single: np.ndarray) -> tuple[int, int]:
    """:func:`_state_facts` of the region of legal lines ``region`` that drawing the line ``b``
    leaves, from the parent's live cells (:func:`_live_cells`): a cell is live there when its
    undrawn sides but ``b`` are all in the region (and there are some)."""
    live = 0
    most = 0
    for q in range(n):
        u = und[q] & ~b
        if u != 0 and (u & ~region) == 0:
            live += 1
            if u == low_bit(u):
                k = bit_index(u)
                single[k] += 1
                most = max(most, single[k])
    for q in range(n):  # cleared for the next call
        u = und[q] & ~b
        if u != 0 and u == low_bit(u):
            single[bit_index(u)] = 0
    return live, most


#: regions of at most this many legal lines are explored whole and merged by game tree
SMALL = 12

# columns of the objects' int64 rows, of the moves' rows (``_SUM``: the keys of the move's
# kids added up, 0 where one of them is a lone line whose pairs cancel; ``_LINE`` only in an
# expansion's scratch rows, since a move's line is needed only at the root, see _move_line),
# and the counters
_KEY, _LEFT, _MOST, _MS, _ME, _AV, _PAIR = 0, 1, 2, 3, 4, 5, 6
_PTS, _KL, _RANK, _SUM, _LINE = 0, 1, 2, 3, 4
_NOBJ, _NMV, _NKL = 0, 1, 2  # then the two tables' used rows (3, 4)
#: kids (and objects) a search may hold before it gives up: the kid lists' starts and items
#: are 32-bit, and one expansion adds far fewer than the 2^24 left to spare (a search on a
#: whole 12-star board held 65 M kids; this would take some 40 GB)
_ROOM32 = (1 << 31) - (1 << 24)


@njit(inline="always")
def _out_of_room(P: tuple) -> bool:
    """Whether the pools ``P`` hold more kids or objects than :data:`_ROOM32`: the search
    gives up before the next expansion could overflow the kid lists' 32-bit numbers."""
    return P[3][P[7][_NKL]] > _ROOM32 or P[7][_NOBJ] > _ROOM32


#: what puts a large region's gains above, and its losses below, every other move's rank
_APART = 1 << 40
#: what puts a line that refuted root moves above every other answer to a root move, and
#: each root move it refuted one step higher (at most 64 steps, below the table's move)
_REFUTER, _REFUTED = 1 << 50, 1 << 44


@njit(inline="always")
def _value_rank(pts: int, mval: int, offered: int, extra: bool) -> int:
    """A move's rank by its value (with alternation), then its points, then the fewest points
    the regions it leaves offer at once: the order :class:`triangles.ai.regions.SumSearch`
    builds from ``_move_order`` over whole arrays (change the two together), scaled by 256 to
    leave room for a large region's tie-break (:func:`_large_rank`)."""
    return (pts * 1024 - offered if extra else mval * (1 << 20) + pts * 1024 - offered) * 256


@njit(inline="always")
def _large_rank(base: int, big: int) -> int:
    """A large region's move's rank among the position's moves: one that gains comes before any
    other move, one that loses after every other, and among equals the fewest legal lines
    left in large regions first (the smallest tree to refute with).  Against the value order
    alone this took 2.7 times fewer nodes on eight whole 12-star boards with alternation and
    3.5-6.6 times fewer with the extra turn (``benchmarks/middle-game.md``, sixteenth look)."""
    if base > 0:
        return base + 64 - big + _APART
    if base < 0:
        return base + 64 - big - _APART
    return base + 64 - big


def _new_pools(rows: int = 1024) -> tuple:
    """Empty pools: (object masks, object rows, move rows, kid list starts, kid list items,
    state -> object table, game tree -> object table, counters).  ``rows``: room for that
    many objects before the pools grow (a power of two; tests start tiny to make them grow),
    with room for 8 moves, 8 kid lists and 16 kids an object (a whole 12-star board's
    search used 6.7, 8.5 and 13.4), and the state table half the rows.  Made by numpy, not
    in a kernel: a zeroed array of numpy's takes its pages from the system only as they are
    first written (in huge pages where the system allows), so room reserved for a long
    search costs nothing until used, while growing by doubling writes each copy's pages
    again.  Raises ``MemoryError`` where the system refuses the room."""
    cnt = np.zeros(5, np.int64)
    cnt[_NOBJ] = 1  # 0 is never an object
    return (
        np.zeros((rows, 2), np.uint64),
        np.zeros((rows, 7), np.int64),
        np.zeros((8 * rows, 4), np.int64),
        np.zeros(8 * rows, np.int32),  # 32-bit, half the memory: see _ROOM32
        np.zeros(16 * rows, np.int32),
        # the tables start smaller, since a sparse table touches a page an entry: at twice
        # the rows the extra turn's pair took 10 % longer on whole 12-star boards, and the
        # slowest boards gained nothing; the game trees are few
        np.zeros((max(rows // 2, 64), 3), np.uint64),
        np.zeros((min(4 * rows, 1 << 12), 3), np.uint64),
        cnt,
    )


def _reserved_pools(rows: int) -> tuple:
    """:func:`_new_pools` with room for ``rows`` objects, or for as many as the system allows
    down to 1024 (the pools grow as the search needs)."""
    while True:
        try:
            return _new_pools(rows)
        except MemoryError:
            if rows <= 1024:
                raise
            rows //= 2


@njit(inline="always")
def _new_lazy(legal: np.uint64, drawn: np.uint64, P: tuple, left: int, most: int) -> tuple:
    """A new unexpanded object for the region state (legal, drawn) whose facts are (``left``,
    ``most``) (:func:`_state_facts`): (its id, the pools)."""
    OU, OI, MV, KP, KI, ids, intern, cnt = P
    o = cnt[_NOBJ]
    cnt[_NOBJ] += 1
    ids = ht_put(ids, cnt[3:4], legal, drawn, o)
    OU = grown_rows(OU, o)
    OI = grown_rows(OI, o)
    OU[o, 0] = legal
    OU[o, 1] = drawn
    OI[o, _KEY] = np.int64(mix64(legal * GOLDEN ^ mix64(drawn + ONE)) >> ONE) | 1
    OI[o, _LEFT] = left
    OI[o, _MOST] = most
    OI[o, _MS] = -1
    OI[o, _ME] = -1
    OI[o, _AV] = 0
    OI[o, _PAIR] = 0
    return o, (OU, OI, MV, KP, KI, ids, intern, cnt)


@njit(inline="always")
def _kl_hash(KP: np.ndarray, KI: np.ndarray, OI: np.ndarray, kl: int) -> np.uint64:
    """A kid list's hash, from its kids' keys rather than their ids: an object's id depends on
    the order its search met it, its key does not, so two searches sharing a table
    (:func:`triangles.ai.solver.solve`) key the same position alike."""
    h = np.uint64(0x6A09E667F3BCC908)
    for t in range(KP[kl], KP[kl + 1]):
        h += mix64(np.uint64(OI[KI[t], _KEY]))
    return mix64(h)


@njit(nogil=True)
def _small_work() -> tuple:
    """Scratch arrays for :func:`_small`'s stack (a region of at most 64 lines), made once a
    search: allocating them a call cost as much as the exploring."""
    d1 = MAX_LINES + 2
    return (
        np.zeros(d1, np.uint64),
        np.zeros(d1, np.uint64),
        np.zeros(d1, np.uint64),
        np.zeros(d1, np.int64),
        np.zeros(d1, np.int64),
        np.zeros(d1, np.int64),
        np.zeros(d1, np.int64),
        np.zeros((d1, 64), np.uint64),
        np.zeros((d1, 64), np.uint64),
        np.zeros((d1, 64), np.int64),
        np.zeros((d1, 64), np.uint64),
        np.zeros((d1, 64), np.uint64),
        np.zeros(d1, np.int64),
        np.zeros((d1, 64), np.int64),
        np.zeros((d1, 64), np.int64),
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
    )


@njit(nogil=True)
def _small(
    l0: np.uint64,
    d0: np.uint64,
    P: tuple,
    cross: np.ndarray,
    need: np.ndarray,
    on_ptr: np.ndarray,
    on_cell: np.ndarray,
    extra: bool,
    W: tuple,
) -> tuple:
    """The object of the small region state (l0, d0): every state it can reach explored (depth
    first, an explicit stack) and merged by game tree, as :func:`triangles.ai.regions._explore`
    does, into the shared pools.  Returns (its id, the pools).  The pools grow only between
    runs of the loop, each run going on while they have room for one more step: an array
    rebound in a loop costs reference counting on every turn."""
    OU, OI, MV, KP, KI, ids, intern, cnt = P
    o = ht_get(ids, l0, d0)
    if o >= 0:
        return o, P
    f_l, f_d, f_todo, f_line, f_pts, f_nc, f_ci, f_cl, f_cd, f_kids, f_link, f_relk, f_nmv, f_mpts, f_mkl = W[:15]
    link, relk, mh, out_l, out_d = W[15:]
    depth = 0
    f_l[0] = l0
    f_d[0] = d0
    f_todo[0] = l0
    f_line[0] = -1
    f_nmv[0] = 0
    links(l0, d0, need, on_ptr, on_cell, link, relk, l0)
    f_link[0] = link
    f_relk[0] = relk
    result = -1
    while depth >= 0:
        # room for one more step: a kid list, or a state's object, its moves and two keys
        KP = grown(KP, cnt[_NKL] + 2, False)
        KI = grown(KI, KP[cnt[_NKL]] + 64, False)
        OU = grown_rows(OU, cnt[_NOBJ])
        OI = grown_rows(OI, cnt[_NOBJ])
        MV = grown_rows(MV, cnt[_NMV] + 64)
        if 2 * (cnt[3] + 1) > ids.shape[0]:
            ids = ht_grown(ids)
        if 2 * (cnt[4] + 1) > intern.shape[0]:
            intern = ht_grown(intern)
        while depth >= 0:
            nkl = cnt[_NKL]
            if (
                nkl + 2 >= KP.shape[0]
                or KP[nkl] + 64 >= KI.shape[0]
                or cnt[_NOBJ] >= OU.shape[0]
                or cnt[_NMV] + 64 >= MV.shape[0]
                or 2 * (cnt[3] + 1) > ids.shape[0]
                or 2 * (cnt[4] + 1) > intern.shape[0]
            ):
                break
            F = depth
            if f_line[F] >= 0 and f_ci[F] < f_nc[F]:
                j = f_ci[F]
                c = ht_get(ids, f_cl[F, j], f_cd[F, j])
                if c < 0:
                    depth += 1
                    f_l[depth] = f_cl[F, j]
                    f_d[depth] = f_cd[F, j]
                    f_todo[depth] = f_l[depth]
                    f_line[depth] = -1
                    f_nmv[depth] = 0
                    links(f_l[depth], f_d[depth], need, on_ptr, on_cell, link, relk, f_l[depth])
                    f_link[depth] = link
                    f_relk[depth] = relk
                    continue
                sorted_insert(f_kids, F, j, c)
                f_ci[F] += 1
                continue
            if f_line[F] >= 0:
                s0 = KP[nkl]
                for j in range(f_nc[F]):
                    KI[s0 + j] = f_kids[F, j]
                KP[nkl + 1] = s0 + f_nc[F]
                cnt[_NKL] += 1
                f_mpts[F, f_nmv[F]] = f_pts[F]
                f_mkl[F, f_nmv[F]] = nkl
                f_nmv[F] += 1
                f_line[F] = -1
                continue
            if f_todo[F] != 0:
                b = low_bit(f_todo[F])
                f_todo[F] ^= b
                k = bit_index(b)
                drawn = f_d[F]
                for q in range(64):
                    link[q] = f_link[F, q]
                    relk[q] = f_relk[F, q]
                child_links(f_l[F], drawn, k, cross, need, on_ptr, on_cell, link, relk)
                nc = components(f_l[F] & ~b & ~cross[k], drawn | b, cross, link, relk, out_l, out_d)
                for j in range(nc):
                    f_cl[F, j] = out_l[j]
                    f_cd[F, j] = out_d[j]
                    prefetch_row(ids, ht_home(ids, out_l[j], out_d[j]))
                f_nc[F] = nc
                f_ci[F] = 0
                f_line[F] = k
                f_pts[F] = points(drawn, k, need, on_ptr, on_cell)
                continue
            # every line done: merge the state by its set of moves
            m = f_nmv[F]
            for j in range(m):
                mh[j] = move_key(_kl_hash(KP, KI, OI, f_mkl[F, j]), f_mpts[F, j])
            order = np.argsort(mh[:m])
            sig = np.uint64(0xBB67AE8584CAA73B)
            for j in range(m):
                if j > 0 and mh[order[j]] == mh[order[j - 1]]:
                    continue
                sig = mix64(sig ^ mh[order[j]])
            c = ht_get(intern, sig, ONE)
            if c < 0:
                c = cnt[_NOBJ]
                cnt[_NOBJ] += 1
                ht_set(intern, cnt, 4, sig, ONE, c)
                OU[c, 0] = f_l[F]
                OU[c, 1] = f_d[F]
                OI[c, _KEY] = np.int64(mix64(sig) >> ONE) | 1
                g = cnt[_NMV]
                OI[c, _MS] = g
                best_total = 0
                most = 0
                av = -INF
                for j in range(m):
                    if j > 0 and mh[order[j]] == mh[order[j - 1]]:
                        continue
                    q = order[j]
                    kl = f_mkl[F, q]
                    p = f_mpts[F, q]
                    t_all = p
                    offered = 0
                    s_av = 0
                    ksum = np.int64(0)
                    kpair = False
                    for t in range(KP[kl], KP[kl + 1]):
                        x = KI[t]
                        t_all += OI[x, _LEFT]
                        offered += OI[x, _MOST]
                        s_av += OI[x, _AV]
                        ksum += OI[x, _KEY]
                        kpair |= OI[x, _PAIR] != 0
                    mval = p + s_av if (extra and p > 0) else p - s_av
                    MV[g, _PTS] = p
                    MV[g, _KL] = kl
                    MV[g, _RANK] = _value_rank(p, mval, offered, extra)
                    MV[g, _SUM] = 0 if kpair else ksum
                    best_total = max(best_total, t_all)
                    most = max(most, p)
                    av = max(av, mval)
                    g += 1
                cnt[_NMV] = g
                OI[c, _ME] = g
                OI[c, _LEFT] = best_total
                OI[c, _MOST] = most
                OI[c, _AV] = av if m > 0 else 0
                # one move leaving nothing (a lone line): two copies are worth nothing with
                # alternation, whatever else is on the board (see regions._find_cancelling)
                OI[c, _PAIR] = not extra and g - OI[c, _MS] == 1 and KP[MV[g - 1, _KL] + 1] == KP[MV[g - 1, _KL]]
            ht_set(ids, cnt, 3, f_l[F], f_d[F], c)
            depth -= 1
            if depth >= 0:
                sorted_insert(f_kids, depth, f_ci[depth], c)
                f_ci[depth] += 1
            else:
                result = c
    return result, (OU, OI, MV, KP, KI, ids, intern, cnt)


@njit(nogil=True)
def _expand(
    c: int,
    P: tuple,
    cross: np.ndarray,
    need: np.ndarray,
    on_ptr: np.ndarray,
    on_cell: np.ndarray,
    extra: bool,
    small: int,
    X: tuple,
    W: tuple,
) -> tuple:
    """List the moves of the unexpanded object ``c``: each line's points and the objects of the
    regions it leaves (small ones merged by game tree, large ones left unexpanded).  In three
    passes, so that the pools' arrays are rebound only in the second, over the regions met
    for the first time: an array rebound in a loop costs reference counting on every turn."""
    link0, relk0, link, relk, kids, my, cl, cd, ko, nco, und, single = X
    OU, OI, MV, KP, KI, ids, intern, cnt = P
    L = OU[c, 0]
    Dr = OU[c, 1]
    links(L, Dr, need, on_ptr, on_cell, link0, relk0, L)
    nund = -1  # the live cells' undrawn sides, listed when a new large region needs its facts
    # 1: each line's regions, and the objects already met
    n = 0
    fresh = False
    rest = L
    while rest:
        b = low_bit(rest)
        rest ^= b
        line = bit_index(b)
        for q in range(64):
            link[q] = link0[q]
            relk[q] = relk0[q]
        child_links(L, Dr, line, cross, need, on_ptr, on_cell, link, relk)
        ncomp = components(L & ~b & ~cross[line], Dr | b, cross, link, relk, cl[n], cd[n])
        nco[n] = ncomp
        for j in range(ncomp):
            prefetch_row(ids, ht_home(ids, cl[n, j], cd[n, j]))
        my[n, _LINE] = line
        n += 1
    for i in range(n):
        for j in range(nco[i]):
            o = ht_get(ids, cl[i, j], cd[i, j])
            ko[i, j] = o
            fresh |= o < 0
    # 2: the objects of the regions met for the first time
    if fresh:
        for i in range(n):
            for j in range(nco[i]):
                if ko[i, j] >= 0:
                    continue
                o = ht_get(ids, cl[i, j], cd[i, j])  # met earlier in this pass
                if o < 0:
                    if popcount(cl[i, j]) <= small:
                        o, P = _small(cl[i, j], cd[i, j], P, cross, need, on_ptr, on_cell, extra, W)
                    else:
                        if nund < 0:
                            nund = _live_cells(L, Dr, need, on_ptr, on_cell, und)
                        left, most = _child_facts(und, nund, ONE << np.uint64(my[i, _LINE]), cl[i, j], single)
                        o, P = _new_lazy(cl[i, j], cd[i, j], P, left, most)
                    ids = P[5]
                ko[i, j] = o
        OU, OI, MV, KP, KI, ids, intern, cnt = P
    # 3: each line's move
    nkl = cnt[_NKL]
    KP = grown(KP, nkl + n + 2, False)
    s0 = KP[nkl]
    total = 0
    for i in range(n):
        total += nco[i]
    KI = grown(KI, s0 + total, False)
    for i in range(n):
        ncomp = nco[i]
        big = 0  # legal lines left in regions too large to merge
        for j in range(ncomp):
            o = ko[i, j]
            nj = popcount(cl[i, j])
            if nj > small:
                big += nj
            sorted_insert(kids, 0, j, o)
        offered = 0
        s_av = 0
        ksum = np.int64(0)
        kpair = False
        for j in range(ncomp):
            x = kids[0, j]
            KI[s0 + j] = x
            offered += OI[x, _MOST]
            s_av += OI[x, _AV]
            ksum += OI[x, _KEY]
            kpair |= OI[x, _PAIR] != 0
        KP[nkl + 1] = s0 + ncomp
        line = my[i, _LINE]
        pts = points(Dr, line, need, on_ptr, on_cell)
        mval = pts + s_av if (extra and pts > 0) else pts - s_av
        my[i, _PTS] = pts
        my[i, _KL] = nkl
        my[i, _RANK] = _large_rank(_value_rank(pts, mval, offered, extra), big)
        my[i, _SUM] = 0 if kpair else ksum
        nkl += 1
        s0 += ncomp
    cnt[_NKL] = nkl
    # appended together (exploring the small regions above appended their own moves)
    g = cnt[_NMV]
    MV = grown_rows(MV, g + n)
    MV[g : g + n] = my[:n, :_LINE]  # every column but the line, the scratch rows' last
    OI[c, _MS] = g
    OI[c, _ME] = g + n
    cnt[_NMV] = g + n
    return (OU, OI, MV, KP, KI, ids, intern, cnt)


@njit(inline="always")
def _sibling_key(
    P: tuple,
    T: int,
    x: int,
    b: np.uint64,
    base: np.int64,
    small: int,
    ms: np.ndarray,
    ply: int,
    nn: int,
    prs: np.ndarray,
) -> np.int64:
    """The table key of the child that the line ``b`` leaves at a node reached by the line
    ``x`` of the large object ``T`` (the node's key less that move's kids' keys: ``base``),
    read from the sibling T - b, which lists the same child T - b - x as its move x: 0 when
    unknown (the region holding x in T - b is small, merged with others of its game tree so
    that its moves have no lines, or not yet expanded).  A lone line's kind counts in the
    child only when it is there an odd number of times (:func:`drop_pairs`; the node's
    multiset is row ``ply`` of ``ms``, ``nn`` long)."""
    OU, OI, MV, KP, KI = P[0], P[1], P[2], P[3], P[4]
    bx = ONE << np.uint64(x)
    kl = MV[OI[T, _MS] + popcount(OU[T, 0] & (b - ONE)), _KL]
    ch = base
    found = False
    npr = 0
    for q in range(KP[kl], KP[kl + 1]):
        u = KI[q]
        lu = OU[u, 0]
        if lu & bx:  # a small object's masks are one state of its game tree's: not trusted
            if OI[u, _MS] < 0 or popcount(lu) <= small:
                return np.int64(0)
            gx = OI[u, _MS] + popcount(lu & (bx - ONE))
            if MV[gx, _SUM] != 0:
                ch += MV[gx, _SUM]
            else:
                kx = MV[gx, _KL]
                for t in range(KP[kx], KP[kx + 1]):
                    w = KI[t]
                    if OI[w, _PAIR] != 0:
                        prs[npr] = w
                        npr += 1
                    else:
                        ch += OI[w, _KEY]
            found = True
        elif OI[u, _PAIR] != 0:
            prs[npr] = u
            npr += 1
        else:
            ch += OI[u, _KEY]
    if not found:
        return np.int64(0)
    for i in range(npr):
        w = prs[i]
        if w < 0:
            continue
        times = 0
        for j in range(i, npr):
            if prs[j] == w:
                times += 1
                prs[j] = -1
        there = 0
        for j in range(nn):
            if ms[ply, j] == w:
                there = 1
        ch += OI[w, _KEY] * ((there + times) % 2 - there)
    return ch


@njit(nogil=True)
def _sibling_refutes(
    T: int,
    g: int,
    h: np.int64,
    P: tuple,
    cross: np.ndarray,
    need: np.ndarray,
    on_ptr: np.ndarray,
    on_cell: np.ndarray,
    extra: bool,
    small: int,
    tt: np.ndarray,
    mask: np.int64,
    hi: int,
    ms: np.ndarray,
    ply: int,
    nn: int,
    work: np.ndarray,
) -> tuple[bool, int]:
    """The enhanced transposition cut-off of a node holding states not yet expanded, without
    expanding them: (whether a child's stored bound reaches ``hi``, the value it gives).

    Such a node's new states are the kids of its last move ``g``, the line x of the expanded
    large object ``T`` (the node's key ``h``).  Its children that this search can have stored
    are those of the lines of T - x (one keeping a new state it has not met before), and
    the child by the line l is T - l - x, which the sibling T - l, often expanded already,
    lists as its move x (:func:`_sibling_key`).  Expanding a state (each line's regions and
    their objects) is most of a whole 12-star search's time, and the cut-offs after it
    settle 78 % of the nodes that expand (``benchmarks/middle-game.md``, twenty-fourth
    look).  ``work``: scratch of at least 6 * MAX_LINES."""
    OU, OI, MV = P[0], P[1], P[2]
    LT = OU[T, 0]
    x = _nth_line(LT, g - OI[T, _MS])
    if MV[g, _SUM] == 0:  # a kid whose lone lines cancel: the node's key is not its parent's sum
        return False, 0
    base = h - MV[g, _SUM]
    dx = OU[T, 1] | (ONE << np.uint64(x))
    chs, pts, prs = work[:MAX_LINES], work[MAX_LINES : 2 * MAX_LINES], work[2 * MAX_LINES :]
    n = 0
    rest = LT & ~(ONE << np.uint64(x)) & ~cross[x]
    while rest:
        b = low_bit(rest)
        rest ^= b
        ch = _sibling_key(P, T, x, b, base, small, ms, ply, nn, prs)
        if ch == 0:
            continue
        chs[n] = ch
        pts[n] = points(dx, bit_index(b), need, on_ptr, on_cell)
        prefetch_row(tt, tt_bucket(ch, mask))
        n += 1
    for i in range(n):
        cut, v = child_refutes(tt, chs[i], mask, pts[i], extra, hi)
        if cut:
            return True, v
    return False, 0


@njit(inline="always")
def _move_line(P: tuple, objs: np.ndarray, g: int, small: int) -> int:
    """The line of the move in the moves' row ``g``, one of the objects ``objs``' moves, or -1
    where that object has at most ``small`` legal lines (explored and merged: its moves are
    its game tree's, with no line of their own).  :func:`_expand` lists a state's moves in
    the order of its legal lines, so a move's line is its object's legal line of the move's
    rank; moves keep no line of their own, a column less in the largest pool.  A root object
    is never merged and never explored (its state is in the state table from the start), so
    with ``small`` = -1 every root move has its line."""
    OU, OI = P[0], P[1]
    for c in objs:
        if OI[c, _MS] <= g < OI[c, _ME]:
            return _nth_line(OU[c, 0], g - OI[c, _MS]) if popcount(OU[c, 0]) > small else -1
    return -1


@njit(inline="always")
def _nth_line(m: np.uint64, k: int) -> int:
    """The ``k``-th legal line (from 0) of the legal mask ``m``."""
    for _ in range(k):
        m ^= low_bit(m)
    return bit_index(low_bit(m))


@njit(nogil=True)
def _lazy_kernel(
    cross: np.ndarray,
    need: np.ndarray,
    on_ptr: np.ndarray,
    on_cell: np.ndarray,
    n: int,
    extra: bool,
    alpha: int,
    beta: int,
    node_limit: int,
    abort: np.ndarray,
    tt: np.ndarray,
    small: int,
    P: tuple,
    roots: np.ndarray,
    second: bool,
) -> tuple:
    """Fail-soft negamax alpha-beta over multisets of region states, each expanded when first
    listed: (value, best root line, nodes, aborted, the pools).  The search is
    :func:`triangles.ai.regions._sum_kernel`'s (sorted multisets, an additive table key,
    buckets of two rows, enhanced transposition cut-offs, the bound of the points left, the
    table's move first, null windows after a node's first move), with states in place of
    classes.  Moves are ordered as there: with alternation by their value alone (a large
    region's kids count as worth nothing, which measured better than estimating them), then
    by points, then by the fewest points the regions they leave offer at once; but a large
    region's moves that gain come first and those that lose last, and among its equal moves
    the one leaving the fewest lines in large regions comes first (:func:`_large_rank`).
    Unlike there, a cut-off the children's stored bounds give is kept in the table where
    that evicts nothing searched (:func:`triangles.ai.tables.tt_keep_cut`), and a child's
    key is its parent's plus the sum its move keeps (``_SUM``): on eight whole 12-star
    boards 11 % less time with the extra turn and 4 % with alternation, where the boards
    worth 2 gained nothing measurable (``benchmarks/middle-game.md``, twenty-first look).
    With alternation a root move's answers (ply 1) come first in the order of the root moves
    each line has refuted so far: every root move is usually refuted, most by a few lines,
    and the order alone had found the refuting answer first at 6 of 49 such nodes on whole
    12-star board 2001, the answers that failed costing 5.8 M of its 10.7 M nodes.  On eight
    whole 12-star boards 2-56 % fewer nodes, and 29 % less time as `solve` runs the pair;
    with the extra turn 13 % more nodes, so not there (``benchmarks/middle-game.md``,
    twenty-third look).
    A node that lists states not yet expanded first tries the enhanced cut-off through their
    siblings (:func:`_sibling_refutes`): expanding states is about 69 % of a whole 12-star
    search's time, and that cut-off settles about half of such nodes without expanding
    anything; 6 % less time in all, 9 % on the slowest boards, 12 % less memory
    (``benchmarks/middle-game.md``, twenty-fourth look).
    ``second``: a partner's search
    (:class:`LazySum`): its root moves in the reverse order, and its moves in the table
    tagged 1 where the first search's are tagged 0."""
    ms, msz, mv, mvc, nmv, idx, fa, fb, fa0, best, bestm, hkey, rk, nodes0, scout = search_stack(n)
    mask = np.int64(tt.shape[0] - 1)
    tid = 1 if second else 0

    W = _small_work()
    chs = np.zeros(MAX_LINES, np.int64)
    X = (
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros((1, 64), np.int64),
        np.zeros((64, 5), np.int64),
        np.zeros((64, 64), np.uint64),
        np.zeros((64, 64), np.uint64),
        np.zeros((64, 64), np.int64),
        np.zeros(64, np.int64),
        np.zeros(on_cell.shape[0] + 1, np.uint64),  # a cell is on three lines: room for all
        np.zeros(64, np.int64),
    )
    msz[0] = roots.shape[0]
    ms[0, : roots.shape[0]] = np.sort(roots)
    fa[0] = alpha
    fb[0] = beta
    nodes = 0
    aborted = False
    ply = 0
    ret = 0
    state = _ENTER
    hint = -1
    refuted = np.zeros(64, np.int64)  # per line: the root moves it refuted (answering at ply 1)
    work = np.zeros(6 * MAX_LINES, np.int64)
    done = False
    while not done:
        # the pools' arrays are bound here, outside the search loop, and never inside it: an
        # array rebound in a loop costs reference counting on every turn
        OI, MV, KP, KI = P[1], P[2], P[3], P[4]
        oleft, okey, opair = OI[:, _LEFT], OI[:, _KEY], OI[:, _PAIR]
        mkl, mpts, msum = MV[:, _KL], MV[:, _PTS], MV[:, _SUM]
        while True:
            if state == _ENTER:
                state = _RETURN
                nodes += 1
                if nodes >= node_limit or ((nodes & 1023) == 0 and abort[0] != 0):
                    aborted = True
                nn = msz[ply]
                ret = 0
                if aborted or nn == 0:
                    continue
                cut, v, hint = node_settles(ms, ply, nn, oleft, okey, fa, fb, hkey, nodes0, nodes, tt, mask)
                if cut:
                    ret = v
                    continue
                # a stored move is a row of this search's pools only when this search stored it
                hint = hint >> 1 if hint >= 0 and (hint & 1) == tid else -1
                state = _LIST
            elif state == _LIST:
                nn = msz[ply]
                h = hkey[ply]
                fresh = False
                for k in range(nn):
                    if OI[ms[ply, k], _MS] < 0:
                        fresh = True
                        break
                if fresh:
                    # below the root the new states are the kids of the last move, of the
                    # object c (a small one's moves have no lines to find its siblings by);
                    # the root's own objects are new before its first listing
                    c = mvc[ply - 1, idx[ply - 1] - 1] if ply > 0 else 0
                    if ply > 0 and popcount(P[0][c, 0]) > small:
                        cut, v = _sibling_refutes(
                            c,
                            mv[ply - 1, idx[ply - 1] - 1],
                            h,
                            P,
                            cross,
                            need,
                            on_ptr,
                            on_cell,
                            extra,
                            small,
                            tt,
                            mask,
                            fb[ply],
                            ms,
                            ply,
                            nn,
                            work,
                        )
                        if cut:
                            ret = v
                            state = _RETURN
                            if hint < 0:
                                tt_keep_cut(tt, mask, h, v)
                            continue
                    break  # expanded outside the loop, then back here
                m = 0
                for k in range(nn):
                    c = ms[ply, k]
                    if k > 0 and ms[ply, k - 1] == c:
                        continue
                    # a root move's answers: the lines that refuted the most other root moves first
                    lines = P[0][c, 0] if ply == 1 and not extra and popcount(P[0][c, 0]) > small else np.uint64(0)
                    for g in range(OI[c, _MS], OI[c, _ME]):
                        rank = (np.int64(1) << 62) if g == hint else MV[g, _RANK]
                        if lines:
                            lb = low_bit(lines)
                            lines ^= lb
                            times = refuted[bit_index(lb)]
                            if times > 0 and g != hint:
                                rank += _REFUTER + times * _REFUTED
                        insert_ranked(mv, mvc, rk, ply, m, g, c, -rank if second and ply == 0 else rank)
                        m += 1
                open_moves(nmv, idx, best, bestm, fa0, fa, ply, m)
                state = _NEXT
                if ply > 0:
                    # enhanced transposition cut-off (see regions._sum_kernel)
                    cut, v = children_refute(
                        tt, mask, h, ms, ply, nn, mv, mvc, m, mkl, mpts, KI, KP, okey, opair, extra, fb[ply], chs, msum
                    )
                    if cut:
                        ret = v
                        state = _RETURN
                        if hint < 0:
                            tt_keep_cut(tt, mask, h, v)
            elif state == _NEXT:
                if aborted or idx[ply] >= nmv[ply]:
                    ret = best[ply]
                    if ply == 1 and not extra and not aborted and bestm[1] >= 0 and ret >= fb[1]:
                        q = _move_line(P, ms[1, : msz[1]], bestm[1], small)
                        if q >= 0:
                            refuted[q] += 1
                    if not aborted:
                        tag = bestm[ply] * 2 + tid if bestm[ply] >= 0 else -1
                        tt_store(tt, mask, hkey[ply], ret, tag, fa0[ply], fb[ply], nodes - nodes0[ply])
                    state = _RETURN
                    continue
                g = mv[ply, idx[ply]]
                c = mvc[ply, idx[ply]]
                idx[ply] += 1
                kl = MV[g, _KL]
                k2 = child_multiset(ms, msz, ply, c, KI, KP[kl], KP[kl + 1])
                if not extra:
                    k2 = drop_pairs(ms, ply + 1, k2, opair)  # pairs of lone lines are worth nothing
                msz[ply + 1] = k2
                open_scout(fa, fb, scout, idx[ply] == 1, ply, MV[g, _PTS], extra)
                ply += 1
                state = _ENTER
            else:  # _RETURN
                if ply == 0:
                    done = True
                    break
                ply -= 1
                state = _NEXT
                if aborted:
                    continue
                g = mv[ply, idx[ply] - 1]
                if rescout(fa, fb, scout, ply, MV[g, _PTS], ret, extra):
                    ply += 1
                    state = _ENTER
                    continue
                back_up(best, bestm, fa, fb, idx, nmv, ply, g, MV[g, _PTS], ret, extra)
        if not done:  # a node listing states not yet expanded: expanded here, then back to it
            for k in range(msz[ply]):
                c = ms[ply, k]
                if P[1][c, _MS] < 0:
                    P = _expand(c, P, cross, need, on_ptr, on_cell, extra, small, X, W)
            aborted |= _out_of_room(P)
    line = _move_line(P, roots, bestm[0], -1) if bestm[0] >= 0 and not aborted else -1
    return (0 if aborted else ret), line, nodes, aborted, P


@njit(nogil=True)
def _roots(cross: np.ndarray, need: np.ndarray, on_ptr: np.ndarray, on_cell: np.ndarray, n: int, P: tuple) -> tuple:
    """The position's regions as new objects, never merged, so that a root move's line is
    this position's: (their ids, the pools)."""
    link = np.zeros(64, np.uint64)
    relk = np.zeros(64, np.uint64)
    out_l = np.zeros(64, np.uint64)
    out_d = np.zeros(64, np.uint64)
    full = np.uint64(0xFFFFFFFFFFFFFFFF) if n == 64 else (ONE << np.uint64(n)) - ONE
    links(full, np.uint64(0), need, on_ptr, on_cell, link, relk, full)
    nc = components(full, np.uint64(0), cross, link, relk, out_l, out_d)
    roots = np.zeros(nc, np.int64)
    for j in range(nc):
        left, most = _state_facts(out_l[j], out_d[j], need, on_ptr, on_cell)
        roots[j], P = _new_lazy(out_l[j], out_d[j], P, left, most)
    return roots, P


class LazySum:
    """A position's regions, searched with each region state expanded when the search first
    lists it; successive searches share the expanded states and the table (its entries are
    bounds, valid for any window).

    ``partner``: another :class:`LazySum` of the same regions whose table this one shares
    (``tt_bits`` and ``small`` are then the partner's), to search beside it on a second core
    (:func:`search_pair` makes one).  It has pools of its own (each
    expands what it meets) and tries its root moves in the reverse order, so the two start
    on different root moves and each finds the other's proofs in the table.

    ``rows``: room for that many region objects (a power of two) before the pools grow (a
    partner's is its partner's): a long search is faster in room reserved at once than in
    pools grown by doubling (:func:`_new_pools`; :data:`triangles.ai.solver.SOLVE_ROWS`)."""

    def __init__(
        self,
        r: Regions,
        tt_bits: int = 20,
        small: int = SMALL,
        *,
        partner: LazySum | None = None,
        rows: int = 1024,
    ) -> None:
        if not r.fits:
            raise ValueError(f"too many legal lines for the regions' masks: {r.n} (at most {MAX_LINES})")
        if partner is not None and (partner.regions is not r or partner.second):
            raise ValueError("a partner searches the same regions and is not a partner itself")
        if rows < 1 or rows & (rows - 1):
            raise ValueError(f"rows must be a power of two (the state tables are masked): {rows}")
        self.regions: Regions = r
        self.small: int = small if partner is None else partner.small
        self.second: bool = partner is not None  # tags its table moves 1 and reverses its root moves
        self.tt: np.ndarray = np.zeros((1 << tt_bits, 4), np.int64) if partner is None else partner.tt
        self.rows: int = rows if partner is None else partner.rows
        self.roots, self.pools = _roots(r.cross, r.need, r.on_ptr, r.on_cell, r.n, _reserved_pools(self.rows))

    @property
    def states(self) -> int:
        """Region states met so far (objects: each large one expanded at most once, each small
        one merged with the states of the same game tree)."""
        return int(self.pools[7][_NOBJ]) - 1

    def search(self, alpha: int, beta: int, node_limit: int, abort: np.ndarray) -> LazyResult:
        """The value for the mover within (alpha, beta), fail-soft, in triangles, and a best line."""
        r = self.regions
        if r.n == 0:
            return LazyResult(0, -1, 0, 0, False)
        v, line, nodes, aborted, self.pools = _lazy_kernel(
            r.cross,
            r.need,
            r.on_ptr,
            r.on_cell,
            r.n,
            r.extra,
            alpha,
            beta,
            node_limit,
            abort,
            self.tt,
            self.small,
            self.pools,
            self.roots,
            self.second,
        )
        pair = int(r.lines[line]) if line >= 0 and not aborted else -1
        return LazyResult(int(v), pair, int(nodes), self.states, bool(aborted))


def search_pair(first: LazySum, alpha: int, beta: int, node_limit: int, abort: np.ndarray) -> LazyResult:
    """One search of ``first``'s position by ``first`` and a partner made for it
    (``LazySum(first.regions, partner=first)``) at once, each on a core (the kernel runs
    without the GIL), the first to finish stopping the other by raising ``abort`` (left
    raised): its result, with the nodes both searched.  Aborted only when both were
    (``abort`` raised from outside, or both out of nodes).  On whole 12-star boards 1.2-1.7
    times faster than one search with alternation and 1.3-1.8 times with the extra turn, in
    about the same memory (``benchmarks/middle-game.md``, seventeenth look).  The partner's
    pools are dropped afterwards; ``first`` keeps its own and the shared table."""
    second = LazySum(first.regions, partner=first)  # ValueError when ``first`` is a partner
    out: list[LazyResult | None] = [None, None]
    failed: list[BaseException] = []

    def run(k: int, ls: LazySum) -> None:
        res = None
        try:
            res = out[k] = ls.search(alpha, beta, node_limit, abort)
        except BaseException as e:  # re-raised in the caller's thread below
            failed.append(e)
        finally:
            if res is None or not res.aborted:
                abort[0] = 1  # done (or failed): the other stops

    helper = threading.Thread(target=run, args=(1, second), name="lazy-search-partner", daemon=True)
    helper.start()
    run(0, first)
    helper.join()
    if failed:
        raise failed[0]
    a, b = out
    assert a is not None and b is not None
    nodes = a.nodes + b.nodes
    win = a if not a.aborted else b
    return win._replace(nodes=nodes, states=a.states + b.states)


def lazy_search(
    game: Game,
    D: GameArrays,
    *,
    alpha: int = -INF,
    beta: int = INF,
    max_nodes: int,
    abort: np.ndarray,
    tt_bits: int = 20,
    small: int = SMALL,
) -> LazyResult:
    """One search of :class:`LazySum` (see there)."""
    return LazySum(Regions(game, D), tt_bits, small).search(alpha, beta, max_nodes, abort)
