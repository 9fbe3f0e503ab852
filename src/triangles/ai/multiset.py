"""The steps the two searches over multisets of regions share (:func:`triangles.ai.regions._sum_kernel`
over explored classes, :func:`triangles.ai.lazy._lazy_kernel` over lazily expanded states):
the sorted multisets and their additive keys, the explicit stack, windows and principal
variation re-searches, backing a value up, the points-left bound, enhanced transposition
cut-offs and cancelling pairs.  Inlined into both kernels, so one change reaches both."""

from __future__ import annotations

import numpy as np

from triangles.ai.bits import mix64
from triangles.ai.prefetch import prefetch_row
from triangles.ai.tables import NOB, tt_bucket, tt_lower, tt_probe, tt_row, tt_upper
from triangles.jit import njit

#: a value beyond any score
INF = 1 << 30


@njit(inline="always")
def sorted_insert(rows: np.ndarray, r: int, n: int, x: int) -> None:
    """Put ``x`` among the ``n`` sorted values that start row ``r``, keeping them sorted."""
    pos = n
    while pos > 0 and rows[r, pos - 1] > x:
        rows[r, pos] = rows[r, pos - 1]
        pos -= 1
    rows[r, pos] = x


@njit(inline="always")
def sort_order(keys: np.ndarray, m: int, order: np.ndarray) -> None:
    """``order[:m]``: the indices of ``keys[:m]`` in ascending order of their keys, equal keys in
    index order (an insertion sort: a state's moves are at most 64, and a kernel that counts no
    references cannot make the array ``np.argsort`` returns)."""
    for j in range(m):
        x = keys[j]
        pos = j
        while pos > 0 and keys[order[pos - 1]] > x:
            order[pos] = order[pos - 1]
            pos -= 1
        order[pos] = j


@njit(inline="always")
def moves_signature(mh: np.ndarray, m: int, order: np.ndarray) -> np.uint64:
    """The hash of a state's set of moves from their ``m`` hashes ``mh`` (each once, in sorted
    order: the same set whatever order the lines gave them in), with that order left in
    ``order`` for the caller to store the moves by."""
    sort_order(mh, m, order)
    sig = np.uint64(0xBB67AE8584CAA73B)
    for j in range(m):
        if j > 0 and mh[order[j]] == mh[order[j - 1]]:
            continue
        sig = mix64(sig ^ mh[order[j]])
    return sig


@njit(inline="always")
def child_multiset(ms: np.ndarray, msz: np.ndarray, ply: int, c: int, items: np.ndarray, start: int, end: int) -> int:
    """Row ``ply + 1`` of ``ms``: row ``ply`` (sorted, ``msz[ply]`` long) less one ``c``, plus
    ``items[start:end]``, kept sorted; returns its length."""
    k2 = 0
    dropped = False
    for k in range(msz[ply]):
        x = ms[ply, k]
        if x == c and not dropped:
            dropped = True
            continue
        ms[ply + 1, k2] = x
        k2 += 1
    for t in range(start, end):
        sorted_insert(ms, ply + 1, k2, items[t])
        k2 += 1
    return k2


@njit(inline="always")
def insert_ranked(mv: np.ndarray, mvc: np.ndarray, rk: np.ndarray, ply: int, m: int, g: int, c: int, rank: int) -> None:
    """Put the move ``g`` (of the element ``c``) among the ``m`` already in row ``ply``, by rank,
    highest first; equal ranks keep their order."""
    pos = m
    while pos > 0:
        if rk[ply, pos - 1] >= rank:
            break
        mv[ply, pos] = mv[ply, pos - 1]
        mvc[ply, pos] = mvc[ply, pos - 1]
        rk[ply, pos] = rk[ply, pos - 1]
        pos -= 1
    mv[ply, pos] = g
    mvc[ply, pos] = c
    rk[ply, pos] = rank


@njit(inline="always")
def list_move(mv: np.ndarray, mvc: np.ndarray, rk: np.ndarray, ply: int, m: int, g: int, c: int, rank: int) -> None:
    """The move ``g`` (of the element ``c``) listed ``m``-th in row ``ply``, with its rank, to be
    sorted by :func:`sort_ranked` (the sum search sorts only where :func:`children_refute` does
    not settle the node first; the lazy search sorts before it probes)."""
    mv[ply, m] = g
    mvc[ply, m] = c
    rk[ply, m] = rank


@njit(inline="always")
def sort_ranked(mv: np.ndarray, mvc: np.ndarray, rk: np.ndarray, ply: int, m: int) -> None:
    """Row ``ply``'s ``m`` listed moves in their search order: by rank, highest first, equal
    ranks in the order listed."""
    for i in range(1, m):
        insert_ranked(mv, mvc, rk, ply, i, mv[ply, i], mvc[ply, i], rk[ply, i])


@njit(inline="always")
def child_refutes(tt: np.ndarray, ch: np.int64, mask: np.int64, p: int, extra: bool, hi: int) -> tuple[bool, int]:
    """Enhanced transposition cut-off: whether the child ``ch``, reached by a move scoring ``p``,
    has a stored bound that already reaches ``hi`` for the mover (and the value it gives)."""
    if ch == 0:
        return False, 0
    found, v, _, _ = tt_row(tt, ch, mask)
    if not found:
        return False, 0
    if p > 0 and extra:  # the mover stays: the child's lower bound counts
        lower = tt_lower(v)
        return lower > -NOB and p + lower >= hi, p + lower
    upper = tt_upper(v)
    return upper < NOB and p - upper >= hi, p - upper


@njit(inline="always")
def children_refute(
    tt: np.ndarray,
    mask: np.int64,
    h: np.int64,
    ms: np.ndarray,
    ply: int,
    n: int,
    mv: np.ndarray,
    mvc: np.ndarray,
    m: int,
    move_kl: np.ndarray,
    move_pts: np.ndarray,
    kl_items: np.ndarray,
    kl_ptr: np.ndarray,
    key: np.ndarray,
    pair: np.ndarray,
    extra: bool,
    hi: int,
    chs: np.ndarray,
    move_sum: np.ndarray,
    rk: np.ndarray,
    in_order: bool,
) -> tuple[bool, int]:
    """Enhanced transposition cut-offs over a node's ``m`` listed moves: (whether one child's
    stored bound already reaches ``hi``, the value it gives).  Every child's key first, with its
    table row asked for at once (:func:`triangles.ai.prefetch.prefetch_row`), then the probes:
    the rows load side by side instead of one after another.  ``in_order``: whether the moves
    stand sorted already (:func:`sort_ranked`), so that the first cutting move settles the
    node; else they are probed as listed, and the value given is that of the cutting move
    the order would put first (the highest rank, the first listed among equals), the same
    value.  ``move_sum``: each move's kids' keys added up (0: unknown, or a kid whose pairs
    cancel), which makes a child's key one addition; an empty array where there are none."""
    sums = move_sum.shape[0] > 0
    most = np.int64(-(1 << 62))
    for j in range(m):
        g = mv[ply, j]
        if sums and move_sum[g] != 0:
            ch = h - key[mvc[ply, j]] + move_sum[g]
        else:
            kl = move_kl[g]
            ch = child_key(h, ms, ply, n, mvc[ply, j], kl_items, kl_ptr[kl], kl_ptr[kl + 1], key, pair)
        chs[j] = ch
        prefetch_row(tt, tt_bucket(ch, mask))
        if not in_order:  # sorted moves stop at their first cut (the lazy search's hot path)
            most = max(most, rk[ply, j])
    found = False
    val = 0
    top = 0
    for j in range(m):
        cut, v = child_refutes(tt, chs[j], mask, move_pts[mv[ply, j]], extra, hi)
        if cut and (not found or rk[ply, j] > top):
            found = True
            val = v
            top = rk[ply, j]
            if in_order or top == most:  # no move the order puts first is left
                break
    return found, val


@njit(inline="always")
def child_window(fa: np.ndarray, fb: np.ndarray, ply: int, p: int, extra: bool) -> tuple[int, int]:
    """The child's window (lower, upper) after a move scoring ``p`` from the node at ``ply``
    (the mover stays under the extra-turn rule when it scores)."""
    if p > 0 and extra:
        return fa[ply] - p, fb[ply] - p
    return p - fb[ply], p - fa[ply]


@njit(inline="always")
def open_child(fa: np.ndarray, fb: np.ndarray, ply: int, p: int, extra: bool) -> None:
    """Open the child's window (:func:`child_window`)."""
    fa[ply + 1], fb[ply + 1] = child_window(fa, fb, ply, p, extra)


@njit(inline="always")
def open_scout(fa: np.ndarray, fb: np.ndarray, scout: np.ndarray, first: bool, ply: int, p: int, extra: bool) -> None:
    """The child's window as :func:`open_child` opens it, but for a move after the node's
    first a null window at the node's lower bound (principal variation search): only
    whether the move beats the best so far, with the whole window again
    (:func:`rescout`) only when it does.  Marks ``scout[ply]`` when it narrowed."""
    open_child(fa, fb, ply, p, extra)
    scout[ply] = not first and fb[ply] - fa[ply] > 1
    if scout[ply]:
        if p > 0 and extra:
            fb[ply + 1] = fa[ply + 1] + 1
        else:
            fa[ply + 1] = fb[ply + 1] - 1


@njit(inline="always")
def rescout(fa: np.ndarray, fb: np.ndarray, scout: np.ndarray, ply: int, p: int, ret: int, extra: bool) -> bool:
    """After a child searched with a null window (:func:`open_scout`) returned ``ret``:
    whether it beat the node's lower bound without reaching its upper one, in which case
    the child's whole window is opened again to search it for its value."""
    if not scout[ply]:
        return False
    scout[ply] = False
    v = p + ret if (p > 0 and extra) else p - ret
    if fa[ply] < v < fb[ply]:
        open_child(fa, fb, ply, p, extra)
        return True
    return False


@njit(inline="always")
def back_up(
    best: np.ndarray,
    bestm: np.ndarray,
    fa: np.ndarray,
    fb: np.ndarray,
    idx: np.ndarray,
    nmv: np.ndarray,
    ply: int,
    g: int,
    p: int,
    ret: int,
    extra: bool,
) -> None:
    """Fold the child's value ``ret`` (reached by the move ``g`` scoring ``p``) into its parent's
    best, window and, on a cut-off, its remaining moves."""
    v = p + ret if (p > 0 and extra) else p - ret
    if v > best[ply]:
        best[ply] = v
        bestm[ply] = g
        if v > fa[ply]:
            fa[ply] = v
            if v >= fb[ply]:
                idx[ply] = nmv[ply]


@njit(inline="always")
def search_stack(nlines: int) -> tuple:
    """The explicit stack of a sum search over ``nlines`` legal lines (a line a ply; a node holds
    at most a region, and lists at most a move, a line): per ply the sorted multiset and its
    size, the moves and their elements, the next move, the window and its first lower bound,
    the best value and move, the table key, the moves' ranks and the nodes before the node's
    own (its subtree's work), and whether its current move was opened with a null window
    (:func:`open_scout`)."""
    plies = nlines + 2
    width = nlines + 2
    return (
        np.zeros((plies, width), np.int64),
        np.zeros(plies, np.int64),
        np.zeros((plies, width), np.int64),
        np.zeros((plies, width), np.int64),
        np.zeros(plies, np.int64),
        np.zeros(plies, np.int64),
        np.zeros(plies, np.int64),
        np.zeros(plies, np.int64),
        np.zeros(plies, np.int64),
        np.zeros(plies, np.int64),
        np.full(plies, -1, np.int64),
        np.zeros(plies, np.int64),
        np.zeros((plies, width), np.int64),
        np.zeros(plies, np.int64),
        np.zeros(plies, np.bool_),
    )


@njit(inline="always")
def copies(a: np.ndarray, n: int, x: int) -> int:
    """How many of ``a[:n]`` are ``x``."""
    k = 0
    for i in range(n):
        k += a[i] == x
    return k


@njit(inline="always")
def left_settles(
    ms: np.ndarray, ply: int, n: int, total: np.ndarray, key: np.ndarray, lo: int, hi: int
) -> tuple[bool, int, np.int64]:
    """For the multiset of row ``ply`` (``n`` long): whether the points its elements still hold
    (``total``) settle the window (lo, hi) below the root, the value they give, and its table
    key (the sum of its elements' ``key``)."""
    left = 0
    h = np.int64(0)
    for k in range(n):
        left += total[ms[ply, k]]
        h += key[ms[ply, k]]
    if ply > 0 and left <= lo:
        return True, left, h
    if ply > 0 and -left >= hi:
        return True, -left, h
    return False, 0, h


@njit(inline="always")
def node_settles(
    ms: np.ndarray,
    ply: int,
    n: int,
    total: np.ndarray,
    key: np.ndarray,
    fa: np.ndarray,
    fb: np.ndarray,
    hkey: np.ndarray,
    nodes0: np.ndarray,
    nodes: int,
    tt: np.ndarray,
    mask: np.int64,
) -> tuple[bool, int, int]:
    """A node just entered, row ``ply``: whether the points left (:func:`left_settles`) or the
    table settle its window, and the value they give; else the table's move for it (-1: none).
    Its key (``hkey``) and the nodes before it (``nodes0``) are kept for storing its value."""
    cut, v, h = left_settles(ms, ply, n, total, key, fa[ply], fb[ply])
    if cut:
        return True, v, -1
    hkey[ply] = h
    nodes0[ply] = nodes
    return tt_probe(tt, h, mask, fa[ply], fb[ply], ply > 0)


@njit(inline="always")
def open_moves(
    nmv: np.ndarray,
    idx: np.ndarray,
    best: np.ndarray,
    bestm: np.ndarray,
    fa0: np.ndarray,
    fa: np.ndarray,
    ply: int,
    m: int,
) -> None:
    """The ``m`` moves just listed at row ``ply`` are to be searched from the first, with no
    best yet, and the window's lower end as it came (for the table's bound)."""
    nmv[ply] = m
    idx[ply] = 0
    best[ply] = -INF
    bestm[ply] = -1
    fa0[ply] = fa[ply]


@njit(inline="always")
def drop_pairs(ms: np.ndarray, row: int, n: int, pair: np.ndarray) -> int:
    """Row ``row`` of ``ms`` (sorted, ``n`` long) without its pairs of equal elements marked in
    ``pair`` (two copies worth nothing in any sum, :func:`triangles.ai.regions._find_cancelling`); its new length."""
    k3 = 0
    k = 0
    while k < n:
        x = ms[row, k]
        if k + 1 < n and ms[row, k + 1] == x and pair[x] != 0:
            k += 2
            continue
        ms[row, k3] = x
        k3 += 1
        k += 1
    return k3


@njit(inline="always")
def child_key(
    h: np.int64,
    ms: np.ndarray,
    ply: int,
    n: int,
    c: int,
    items: np.ndarray,
    start: int,
    end: int,
    key: np.ndarray,
    pair: np.ndarray,
) -> np.int64:
    """The table key of the child a move of the element ``c`` leaves (its kids ``items[start:end]``)
    from the multiset of row ``ply`` (``n`` long, key ``h``), the cancelling pairs dropped as
    :func:`drop_pairs` drops them."""
    ch = h - key[c]
    for t in range(start, end):
        x = items[t]
        if pair[x] != 0:
            # the copies the child would hold without this one
            there = copies(ms[ply], n, x) - (x == c) + copies(items[start:], t - start, x)
            if there % 2 == 1:
                ch -= key[x]  # it cancels one of them
                continue
        ch += key[x]
    return ch
