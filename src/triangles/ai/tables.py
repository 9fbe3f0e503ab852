"""The numba searches' tables, kept on plain arrays so that a kernel can grow them in place
and two threads can share one: interning tables (open addressing), the transposition
table's rows (buckets of two, each row checked by its xor), and arrays that double when
full."""

from __future__ import annotations

import numpy as np

from triangles.ai.bits import GOLDEN, ONE, mix64
from triangles.jit import njit

# open-addressing hash tables on arrays, in place of numba's typed dicts: exploring is as fast
# (the same states and classes; 17.8 against 17.0 s on a 12-star position of 42 lines), a
# kernel that also serves the lazy search, and fewer compilations at a cold start (the
# warm-up's count fell from 199 to 165 with the helpers below inlined).  A row per slot (key
# a, key b, value + 1), 0 in the last column marking an empty slot; linear probing; doubled
# at half load


@njit(inline="always")
def ht_home(t: np.ndarray, a: np.uint64, b: np.uint64) -> int:
    """The row where the search for the key (a, b) starts."""
    return int(mix64(a ^ (b * GOLDEN)) & np.uint64(t.shape[0] - 1))


@njit(inline="always")
def ht_slot(t: np.ndarray, a: np.uint64, b: np.uint64) -> int:
    """The row holding the key (a, b), or the empty row where it would go."""
    mask = np.uint64(t.shape[0] - 1)
    i = np.uint64(ht_home(t, a, b))
    while t[i, 2] != 0 and (t[i, 0] != a or t[i, 1] != b):
        i = (i + ONE) & mask
    return int(i)


@njit(inline="always")
def ht_get(t: np.ndarray, a: np.uint64, b: np.uint64) -> int:
    """The value of the key (a, b); -1 when absent."""
    return int(np.int64(t[ht_slot(t, a, b), 2])) - 1


@njit(nogil=True)
def ht_grown(t: np.ndarray) -> np.ndarray:
    """``t`` rehashed into twice as many rows."""
    u = np.zeros((2 * t.shape[0], 3), np.uint64)
    for r in range(t.shape[0]):
        if t[r, 2] != 0:
            i = ht_slot(u, t[r, 0], t[r, 1])
            u[i, 0] = t[r, 0]
            u[i, 1] = t[r, 1]
            u[i, 2] = t[r, 2]
    return u


@njit(inline="always")
def ht_set(t: np.ndarray, used: np.ndarray, u: int, a: np.uint64, b: np.uint64, v: int) -> None:
    """Set the key (a, b) to ``v``, counting new keys in ``used[u]``; the table is not grown
    (the caller keeps it at most half full)."""
    i = ht_slot(t, a, b)
    if t[i, 2] == 0:
        used[u] += 1
    t[i, 0] = a
    t[i, 1] = b
    t[i, 2] = np.uint64(v + 1)


@njit(inline="always")
def ht_put(t: np.ndarray, used: np.ndarray, a: np.uint64, b: np.uint64, v: int) -> np.ndarray:
    """Set the key (a, b) to ``v`` (counting new keys in ``used[0]``); the table, grown when half full."""
    ht_set(t, used, 0, a, b, v)
    if 2 * used[0] > t.shape[0]:
        return ht_grown(t)
    return t


@njit(inline="always")
def ht_room(t: np.ndarray, used: int) -> np.ndarray:
    """The table ``t`` holding ``used`` keys, grown where one more would fill it past half (for a
    loop that sets keys with :func:`ht_set` and cannot grow its tables itself)."""
    return ht_grown(t) if 2 * (used + 1) > t.shape[0] else t


@njit(inline="always")
def move_key(kl_hash: np.uint64, pts: int) -> np.uint64:
    """A move's hash: its kid list's and its points'."""
    return mix64(kl_hash ^ np.uint64(pts + 1) * GOLDEN)


# arrays that double when full


@njit(inline="always")
def grown(a: np.ndarray, size: int, zeroed: bool = True) -> np.ndarray:
    """``a``, or a copy twice as long when ``size`` would not fit; its new part zeroed, or left
    unwritten where every item is written before it is read (``zeroed`` false: filling it
    would touch every page at once, see :func:`grown_rows`)."""
    if size < a.shape[0]:
        return a
    n = max(2 * a.shape[0], size + 1)
    b = np.zeros(n, a.dtype) if zeroed else np.empty(n, a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(inline="always")
def grown_rows(a: np.ndarray, size: int) -> np.ndarray:
    """``a``, or a copy with twice the rows when row ``size`` would not fit.  The new rows are
    left unwritten (every row is written before it is read): filling them would touch every
    page of the new array at once, and a page touched for the first time costs a fault."""
    if size < a.shape[0]:
        return a
    b = np.empty((max(2 * a.shape[0], size + 1), a.shape[1]), a.dtype)
    b[: a.shape[0]] = a
    return b


# the transposition table: buckets of two rows of four int64 (key xor the rest, the bounds, best
# move, work), shared by the two searches of :func:`triangles.ai.lazy.search_pair`

#: no bound on that side of a row: below any lower bound, above any upper bound (a search's
#: values are far smaller; its window's ends, ``multiset.INF``, lie one beyond)
NOB = (1 << 30) - 1
_OFF = 1 << 30  # a bound plus this is never negative, so two fit in one word


def new_table(bits: int) -> np.ndarray:
    """An empty transposition table of 2^``bits`` rows whose every bucket is one cache line.
    numpy starts a large array 16 bytes past a line, which put each 64-byte bucket on two:
    starting it on a line took :func:`triangles.ai.solver.solve`'s pair 5 % less time on the
    slowest whole 12-star boards, the same nodes (``benchmarks/middle-game.md``, twenty-eighth look)."""
    size = (1 << bits) * 4 * 8
    raw = np.zeros(size + 64, np.uint8)
    skip = -raw.ctypes.data % 64
    return raw[skip : skip + size].view(np.int64).reshape(1 << bits, 4)


@njit(inline="always")
def tt_bucket(h: np.int64, mask: np.int64) -> int:
    """The first row of the table's bucket of two rows for the key ``h``."""
    return int(h & mask & ~np.int64(1))


@njit(inline="always")
def tt_lower(v: np.int64) -> int:
    """The lower bound in a row's bounds word (-:data:`NOB`: none)."""
    return int(v & np.int64(0xFFFFFFFF)) - _OFF


@njit(inline="always")
def tt_upper(v: np.int64) -> int:
    """The upper bound in a row's bounds word (:data:`NOB`: none)."""
    return int(v >> 32) - _OFF


@njit(inline="always")
def tt_row(tt: np.ndarray, h: np.int64, mask: np.int64) -> tuple[bool, np.int64, int, int]:
    """(whether the table holds ``h`` in its bucket of two, the row's bounds word
    (:func:`tt_lower`, :func:`tt_upper`), best move and work).  A row's first column is its
    key xor the other three, so a row torn by two searches writing it at once
    (:func:`triangles.ai.solver.solve` runs two on one table) reads as absent, never as
    another position's bound."""
    slot = tt_bucket(h, mask)
    for s in range(slot, slot + 2):
        v = tt[s, 1]
        b = tt[s, 2]
        w = tt[s, 3]
        if tt[s, 0] ^ v ^ b ^ w == h:
            return True, v, b, w
    return False, np.int64(0), -1, 0


@njit(inline="always")
def _write(tt: np.ndarray, s: int, h: np.int64, lower: int, upper: int, best: int, work: int) -> None:
    """Row ``s`` := the key ``h``'s bounds (each kept within :data:`NOB`), best move and work."""
    v = np.int64(max(lower, -NOB) + _OFF) | (np.int64(min(upper, NOB) + _OFF) << 32)
    tt[s, 0] = h ^ v ^ best ^ work
    tt[s, 1] = v
    tt[s, 2] = best
    tt[s, 3] = work


@njit(inline="always")
def tt_store(
    tt: np.ndarray, mask: np.int64, h: np.int64, value: int, best: int, lo: int, hi: int, work: int, merge: bool
) -> None:
    """Store a search's result for the key ``h``: its bound (exact, or on the side of the window
    (lo, hi) it fell), its best move and its subtree's nodes, in the key's bucket of two rows
    (the first keeps the larger search, the second the latest).  ``merge``: the row keeps
    what the table held for ``h`` too, the higher lower bound and the lower upper bound (the
    lazy search: a position met again under another window, shifted by the points taken on
    the way, keeps what both searches proved); else the result alone (the sum search, whose
    proofs decide hard's moves: merged, they searched other nodes, and a few moves with the
    extra turn came out different; ``benchmarks/middle-game.md``, thirty-fifth look)."""
    lower = value if value > lo else -NOB
    upper = value if value < hi else NOB
    if merge:
        found, v, _, _ = tt_row(tt, h, mask)
        if found:
            lower = max(lower, tt_lower(v))
            upper = min(upper, tt_upper(v))
    slot = tt_bucket(h, mask)
    if tt[slot, 0] ^ tt[slot, 1] ^ tt[slot, 2] ^ tt[slot, 3] != h and tt[slot, 3] > work:
        slot += 1
    _write(tt, slot, h, lower, upper, best, work)


@njit(inline="always")
def tt_keep_cut(tt: np.ndarray, mask: np.int64, h: np.int64, value: int) -> None:
    """Keep an enhanced cut-off's lower bound ``value`` for the key ``h`` (no best move, the
    work of one node) where that evicts nothing searched: in an empty row of the key's bucket,
    over its own row (merged with the bounds there), or over a row whose work is one node
    (such a bound, or a search that visited one child); never over a row with a best move for
    ``h`` (the pair's partner's move, :func:`triangles.ai.lazy.search_pair`, would be lost).
    The next visit is then settled by the table, before its moves are listed and their
    children probed."""
    slot = tt_bucket(h, mask)
    for s in range(slot, slot + 2):
        mine = tt[s, 0] ^ tt[s, 1] ^ tt[s, 2] ^ tt[s, 3] == h
        if mine and tt[s, 2] >= 0:
            return
        if mine:
            _write(tt, s, h, max(value, tt_lower(tt[s, 1])), tt_upper(tt[s, 1]), -1, 1)
            return
        if tt[s, 0] == 0 or tt[s, 3] <= 1:
            _write(tt, s, h, value, NOB, -1, 1)
            return


@njit(inline="always")
def tt_probe(tt: np.ndarray, h: np.int64, mask: np.int64, lo: int, hi: int, may_cut: bool) -> tuple[bool, int, int]:
    """(whether the stored bounds for ``h`` settle the window (lo, hi), the bound that does, the
    stored best move or -1)."""
    found, v, b, _ = tt_row(tt, h, mask)
    if not found:
        return False, 0, -1
    lower = tt_lower(v)
    upper = tt_upper(v)
    if may_cut:
        if lower >= hi or lower == upper:
            return True, lower, b
        if upper <= lo:
            return True, upper, b
    return False, 0, b
