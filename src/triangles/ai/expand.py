"""What a region state's moves are, worked out when the lazy search first lists it: a
small region explored whole and merged with every state of its game tree, a large one
expanded one state at a time, each move ranked for the search's order; and the cut-off
that settles a node through expanded siblings before its new states are expanded."""

from __future__ import annotations

import numpy as np

from triangles.ai.bits import ONE, bit_index, low_bit, mix64, popcount
from triangles.ai.multiset import INF, child_refutes, moves_signature, sorted_insert
from triangles.ai.pools import (
    AV,
    KEY,
    KL,
    LEFT,
    LINE,
    ME,
    MOST,
    MS,
    NKL,
    NMV,
    NOBJ,
    PAIR,
    PTS,
    RANK,
    SUM,
    kl_hash,
    new_lazy,
    nth_line,
)
from triangles.ai.prefetch import prefetch_row
from triangles.ai.regions import MAX_LINES
from triangles.ai.split import child_facts, child_regions, links, live_cells, points
from triangles.ai.tables import grown, grown_rows, ht_get, ht_home, ht_room, ht_set, move_key, tt_bucket
from triangles.jit import njit

#: regions of at most this many legal lines are explored whole and merged by game tree
SMALL = 12


#: what puts a large region's gains above, and its losses below, every other move's rank
APART = 1 << 40


@njit(inline="always")
def value_rank(pts: int, mval: int, offered: int, extra: bool) -> int:
    """A move's rank by its value (with alternation), then its points, then the fewest points
    the regions it leaves offer at once: the order :class:`triangles.ai.regions.SumSearch`
    builds from ``_move_order`` over whole arrays (change the two together), scaled by 256 to
    leave room for a large region's tie-break (:func:`large_rank`)."""
    return (pts * 1024 - offered if extra else mval * (1 << 20) + pts * 1024 - offered) * 256


@njit(inline="always")
def large_rank(base: int, big: int) -> int:
    """A large region's move's rank among the position's moves: one that gains comes before any
    other move, one that loses after every other, and among equals the fewest legal lines
    left in large regions first (the smallest tree to refute with).  Against the value order
    alone this took 2.7 times fewer nodes on eight whole 12-star boards with alternation and
    3.5-6.6 times fewer with the extra turn (``benchmarks/middle-game.md``, sixteenth look)."""
    if base > 0:
        return base + 64 - big + APART
    if base < 0:
        return base + 64 - big - APART
    return base + 64 - big


@njit(inline="always")
def line_rank(pts: int, offered: int, big: int, extra: bool) -> int:
    """The rank of a large region state's line that scores ``pts`` and leaves regions offering
    ``offered`` at once and ``big`` legal lines in large regions (:func:`large_rank`): a gain
    when it scores, a loss when it only offers, by its own points and what it offers, never
    by the values of the regions it leaves to their first mover alone (``AV``).  Those values
    made a line leaving a small region that its first mover loses in (worth -1, say) look a
    gain, ranked above every quiet line, though beside a large region neither player has to
    open the small one.  Ranked so, one search of five whole 12-star boards took 29 % fewer
    nodes, and ``solve`` 30 % less time on 40 boards of 15-17 triangles, 42 % on the 16
    boards of 16 triangles (``benchmarks/middle-game.md``, forty-second look;
    ``benchmarks/refuters.py`` compares a refutation's first answer with the cheapest).
    With the extra turn the values alone were never ranked (:func:`value_rank`), so nothing
    changes there."""
    return large_rank(value_rank(pts, pts, offered, extra), big)


@njit(inline="always")
def tree_key(sig: np.uint64) -> np.int64:
    """The table key of a game tree whose set of moves hashes to ``sig``
    (:func:`triangles.ai.multiset.moves_signature`), shared by every state of that game."""
    return np.int64(mix64(sig) >> ONE) | 1


@njit(nogil=True)
def small_work() -> tuple:
    """Scratch arrays for :func:`explore_small`'s stack (a region of at most 64 lines), made once a
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
        np.zeros(64, np.int64),
    )


@njit(nogil=True)
def explore_small(
    l0: np.uint64,
    d0: np.uint64,
    P: tuple,
    geo: tuple,
    extra: bool,
    W: tuple,
) -> tuple:
    """The object of the small region state (l0, d0): every state it can reach explored (depth
    first, an explicit stack, :func:`_small_steps`) and merged by game tree, as
    :func:`triangles.ai.regions._explore` does, into the shared pools.  Returns (its id, the
    pools).  The pools grow only between runs of the loop, each run going on while they have
    room for one more step: an array rebound in a loop costs reference counting on every turn,
    and the loop counts none (:mod:`triangles.jit`)."""
    OU, OI, MV, KP, KI, ids, intern, cnt = P
    o = ht_get(ids, l0, d0)
    if o >= 0:
        return o, P
    f_l, f_d, f_todo, f_line = W[:4]  # the stack's first row (its layout: :func:`_small_steps`)
    f_link, f_relk, f_nmv = W[10:13]
    depth = 0
    f_l[0] = l0
    f_d[0] = d0
    f_todo[0] = l0
    f_line[0] = -1
    f_nmv[0] = 0
    links(l0, d0, geo, f_link[0], f_relk[0], l0)
    while True:
        # room for one more step: a kid list, or a state's object, its moves and two keys
        KP = grown(KP, cnt[NKL] + 2, False)
        KI = grown(KI, KP[cnt[NKL]] + 64, False)
        OU = grown_rows(OU, cnt[NOBJ])
        OI = grown_rows(OI, cnt[NOBJ])
        MV = grown_rows(MV, cnt[NMV] + 64)
        ids = ht_room(ids, cnt[3])
        intern = ht_room(intern, cnt[4])
        P = (OU, OI, MV, KP, KI, ids, intern, cnt)
        depth, c = _small_steps(depth, P, geo, extra, W)
        if depth < 0:
            return c, P


@njit(nogil=True, refcount=False)
def _small_steps(
    depth: int,
    P: tuple,
    geo: tuple,
    extra: bool,
    W: tuple,
) -> tuple[int, int]:
    """:func:`explore_small`'s loop from stack depth ``depth`` while the pools ``P`` have room for
    one more step: (the depth, the explored region's object once the depth falls below 0)."""
    OU, OI, MV, KP, KI, ids, intern, cnt = P
    f_l, f_d, f_todo, f_line, f_pts, f_nc, f_ci, f_cl, f_cd, f_kids, f_link, f_relk, f_nmv, f_mpts, f_mkl = W[:15]
    link, relk, mh, out_l, out_d, order = W[15:]
    while depth >= 0:
        nkl = cnt[NKL]
        if (
            nkl + 2 >= KP.shape[0]
            or KP[nkl] + 64 >= KI.shape[0]
            or cnt[NOBJ] >= OU.shape[0]
            or cnt[NMV] + 64 >= MV.shape[0]
            or 2 * (cnt[3] + 1) > ids.shape[0]
            or 2 * (cnt[4] + 1) > intern.shape[0]
        ):
            return depth, -1
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
                links(f_l[depth], f_d[depth], geo, f_link[depth], f_relk[depth], f_l[depth])
                continue
            sorted_insert(f_kids, F, j, c)
            f_ci[F] += 1
            continue
        if f_line[F] >= 0:
            s0 = KP[nkl]
            for j in range(f_nc[F]):
                KI[s0 + j] = f_kids[F, j]
            KP[nkl + 1] = s0 + f_nc[F]
            cnt[NKL] += 1
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
            nc = child_regions(f_l[F], drawn, k, geo, f_link[F], f_relk[F], link, relk, out_l, out_d)
            for j in range(nc):
                f_cl[F, j] = out_l[j]
                f_cd[F, j] = out_d[j]
                prefetch_row(ids, ht_home(ids, out_l[j], out_d[j]))
            f_nc[F] = nc
            f_ci[F] = 0
            f_line[F] = k
            f_pts[F] = points(drawn, k, geo)
            continue
        # every line done: merge the state by its set of moves
        m = f_nmv[F]
        for j in range(m):
            mh[j] = move_key(kl_hash(KP, KI, OI, f_mkl[F, j]), f_mpts[F, j])
        sig = moves_signature(mh, m, order)
        c = ht_get(intern, sig, ONE)
        if c < 0:
            c = cnt[NOBJ]
            cnt[NOBJ] += 1
            ht_set(intern, cnt, 4, sig, ONE, c)
            OU[c, 0] = f_l[F]
            OU[c, 1] = f_d[F]
            OI[c, KEY] = tree_key(sig)
            g = cnt[NMV]
            OI[c, MS] = g
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
                    t_all += OI[x, LEFT]
                    offered += OI[x, MOST]
                    s_av += OI[x, AV]
                    ksum += OI[x, KEY]
                    kpair |= OI[x, PAIR] != 0
                mval = p + s_av if (extra and p > 0) else p - s_av
                MV[g, PTS] = p
                MV[g, KL] = kl
                MV[g, RANK] = value_rank(p, mval, offered, extra)
                MV[g, SUM] = 0 if kpair else ksum
                best_total = max(best_total, t_all)
                most = max(most, p)
                av = max(av, mval)
                g += 1
            cnt[NMV] = g
            OI[c, ME] = g
            OI[c, LEFT] = best_total
            OI[c, MOST] = most
            OI[c, AV] = av if m > 0 else 0
            # one move leaving nothing (a lone line): two copies are worth nothing with
            # alternation, whatever else is on the board (see regions._find_cancelling)
            OI[c, PAIR] = not extra and g - OI[c, MS] == 1 and KP[MV[g - 1, KL] + 1] == KP[MV[g - 1, KL]]
        ht_set(ids, cnt, 3, f_l[F], f_d[F], c)
        depth -= 1
        if depth >= 0:
            sorted_insert(f_kids, depth, f_ci[depth], c)
            f_ci[depth] += 1
        else:
            return depth, c
    return depth, -1


@njit(nogil=True, refcount=False)
def _line_regions(
    L: np.uint64,
    Dr: np.uint64,
    geo: tuple,
    X: tuple,
    ids: np.ndarray,
) -> tuple[int, bool]:
    """:func:`expand`'s first pass over the state (legal lines ``L``, drawn ``Dr``): each line's
    regions into ``X``'s rows, and the objects already met in ``ko`` (-1: none); returns the
    lines and whether a region is new.  Most of an expansion's time, so it counts no
    references (:mod:`triangles.jit`)."""
    link0, relk0, link, relk, kids, my, cl, cd, ko, nco, und, single = X
    links(L, Dr, geo, link0, relk0, L)
    n = 0
    fresh = False
    rest = L
    while rest:
        b = low_bit(rest)
        rest ^= b
        line = bit_index(b)
        ncomp = child_regions(L, Dr, line, geo, link0, relk0, link, relk, cl[n], cd[n])
        nco[n] = ncomp
        for j in range(ncomp):
            prefetch_row(ids, ht_home(ids, cl[n, j], cd[n, j]))
        my[n, LINE] = line
        n += 1
    for i in range(n):
        for j in range(nco[i]):
            o = ht_get(ids, cl[i, j], cd[i, j])
            ko[i, j] = o
            fresh |= o < 0
    return n, fresh


@njit(nogil=True, refcount=False)
def _line_moves(
    n: int,
    X: tuple,
    OI: np.ndarray,
    KP: np.ndarray,
    KI: np.ndarray,
    nkl: int,
    s0: int,
    Dr: np.uint64,
    geo: tuple,
    extra: bool,
    small: int,
) -> int:
    """:func:`expand`'s third pass: each of the ``n`` lines' kid list (from kid list ``nkl`` on,
    its kids from ``s0``, room made) and move row in ``X``; returns the next kid list."""
    link0, relk0, link, relk, kids, my, cl, cd, ko, nco, und, single = X
    for i in range(n):
        ncomp = nco[i]
        big = 0  # legal lines left in regions too large to merge
        stale = False
        for j in range(ncomp):
            o = ko[i, j]
            nj = popcount(cl[i, j])
            if nj > small:
                big += nj
                # a key that changes when its state is expanded (expand): not summed, so that
                # a sum kept is never out of date (the child's key is then summed when needed)
                stale |= nj == small + 1 and OI[o, MS] < 0
            sorted_insert(kids, 0, j, o)
        offered = 0
        ksum = np.int64(0)
        kpair = False
        for j in range(ncomp):
            x = kids[0, j]
            KI[s0 + j] = x
            offered += OI[x, MOST]
            ksum += OI[x, KEY]
            kpair |= OI[x, PAIR] != 0
        KP[nkl + 1] = s0 + ncomp
        line = my[i, LINE]
        pts = points(Dr, line, geo)
        my[i, PTS] = pts
        my[i, KL] = nkl
        my[i, RANK] = line_rank(pts, offered, big, extra)
        my[i, SUM] = 0 if kpair or stale else ksum
        nkl += 1
        s0 += ncomp
    return nkl


@njit(nogil=True)
def expand(
    c: int,
    P: tuple,
    geo: tuple,
    extra: bool,
    small: int,
    X: tuple,
    W: tuple,
) -> tuple:
    """List the moves of the unexpanded object ``c``: each line's points and the objects of the
    regions it leaves (small ones merged by game tree, large ones left unexpanded).  In three
    passes, so that the pools' arrays are rebound only in the second, over the regions met
    for the first time: an array rebound in a loop costs reference counting on every turn.
    The first and third (:func:`_line_regions`, :func:`_line_moves`) count none
    (:mod:`triangles.jit`); the second grows the pools, which needs the counts.

    A state of ``small`` + 1 lines, all of whose moves leave regions merged by game tree,
    then takes its game tree's key in place of its state's (:func:`tree_key`): states of one
    game share their table entries, and the search enters such a node again with its new key
    (:func:`triangles.ai.lazy._lazy_kernel`).  On whole 12-star boards 4-7 % fewer nodes and
    3-4 % less time for `solve` on the slowest (``benchmarks/middle-game.md``, thirty-eighth look)."""
    link0, relk0, link, relk, kids, my, cl, cd, ko, nco, und, single = X
    OU, OI, MV, KP, KI, ids, intern, cnt = P
    L = OU[c, 0]
    Dr = OU[c, 1]
    nund = -1  # the live cells' undrawn sides, listed when a new large region needs its facts
    # 1: each line's regions, and the objects already met
    n, fresh = _line_regions(L, Dr, geo, X, ids)
    # 2: the objects of the regions met for the first time
    if fresh:
        for i in range(n):
            for j in range(nco[i]):
                if ko[i, j] >= 0:
                    continue
                o = ht_get(ids, cl[i, j], cd[i, j])  # met earlier in this pass
                if o < 0:
                    if popcount(cl[i, j]) <= small:
                        o, P = explore_small(cl[i, j], cd[i, j], P, geo, extra, W)
                    else:
                        if nund < 0:
                            nund = live_cells(L, Dr, geo, und)
                        left, most, key = child_facts(
                            und, nund, ONE << np.uint64(my[i, LINE]), cl[i, j], single, geo[4]
                        )
                        o, P = new_lazy(cl[i, j], cd[i, j], P, left, most, key)
                    ids = P[5]
                ko[i, j] = o
        OU, OI, MV, KP, KI, ids, intern, cnt = P
    # 3: each line's move
    nkl = cnt[NKL]
    KP = grown(KP, nkl + n + 2, False)
    s0 = KP[nkl]
    total = 0
    for i in range(n):
        total += nco[i]
    KI = grown(KI, s0 + total, False)
    nkl = _line_moves(n, X, OI, KP, KI, nkl, s0, Dr, geo, extra, small)
    cnt[NKL] = nkl
    if popcount(L) == small + 1:
        # every region a line leaves is merged by game tree, so the state's moves name its
        # game: its key becomes its game tree's, the key exploring it whole would give, and
        # the states of one game share their entries in the table (see _line_moves' ``stale``)
        mh, order = W[17], W[20]
        for i in range(n):
            mh[i] = move_key(kl_hash(KP, KI, OI, my[i, KL]), my[i, PTS])
        OI[c, KEY] = tree_key(moves_signature(mh, n, order))
    # appended together (exploring the small regions above appended their own moves)
    g = cnt[NMV]
    MV = grown_rows(MV, g + n)
    MV[g : g + n] = my[:n, :LINE]  # every column but the line, the scratch rows' last
    OI[c, MS] = g
    OI[c, ME] = g + n
    cnt[NMV] = g + n
    return (OU, OI, MV, KP, KI, ids, intern, cnt)


@njit(inline="always")
def sibling_key(
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
    child only when it is there an odd number of times (:func:`triangles.ai.multiset.drop_pairs`; the node's
    multiset is row ``ply`` of ``ms``, ``nn`` long)."""
    OU, OI, MV, KP, KI = P[0], P[1], P[2], P[3], P[4]
    bx = ONE << np.uint64(x)
    kl = MV[OI[T, MS] + popcount(OU[T, 0] & (b - ONE)), KL]
    ch = base
    found = False
    npr = 0
    for q in range(KP[kl], KP[kl + 1]):
        u = KI[q]
        lu = OU[u, 0]
        if lu & bx:  # a small object's masks are one state of its game tree's: not trusted
            if OI[u, MS] < 0 or popcount(lu) <= small:
                return np.int64(0)
            gx = OI[u, MS] + popcount(lu & (bx - ONE))
            if MV[gx, SUM] != 0:
                ch += MV[gx, SUM]
            else:
                kx = MV[gx, KL]
                for t in range(KP[kx], KP[kx + 1]):
                    w = KI[t]
                    if OI[w, PAIR] != 0:
                        prs[npr] = w
                        npr += 1
                    else:
                        ch += OI[w, KEY]
            found = True
        elif OI[u, PAIR] != 0:
            prs[npr] = u
            npr += 1
        else:
            ch += OI[u, KEY]
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
        ch += OI[w, KEY] * ((there + times) % 2 - there)
    return ch


@njit(nogil=True, refcount=False)
def sibling_refutes(
    T: int,
    g: int,
    h: np.int64,
    P: tuple,
    geo: tuple,
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
    lists as its move x (:func:`sibling_key`).  Expanding a state (each line's regions and
    their objects) is most of a whole 12-star search's time, and the cut-offs after it
    settle 78 % of the nodes that expand (``benchmarks/middle-game.md``, twenty-fourth
    look).  ``work``: scratch of at least 6 * MAX_LINES."""
    OU, OI, MV = P[0], P[1], P[2]
    LT = OU[T, 0]
    x = nth_line(LT, g - OI[T, MS])
    if MV[g, SUM] == 0:  # a kid whose lone lines cancel: the node's key is not its parent's sum
        return False, 0
    base = h - MV[g, SUM]
    dx = OU[T, 1] | (ONE << np.uint64(x))
    chs, pts, prs = work[:MAX_LINES], work[MAX_LINES : 2 * MAX_LINES], work[2 * MAX_LINES :]
    n = 0
    rest = LT & ~(ONE << np.uint64(x)) & ~geo[0][x]
    while rest:
        b = low_bit(rest)
        rest ^= b
        ch = sibling_key(P, T, x, b, base, small, ms, ply, nn, prs)
        if ch == 0:
            continue
        chs[n] = ch
        pts[n] = points(dx, bit_index(b), geo)
        prefetch_row(tt, tt_bucket(ch, mask))
        n += 1
    for i in range(n):
        cut, v = child_refutes(tt, chs[i], mask, pts[i], extra, hi)
        if cut:
            return True, v
    return False, 0
