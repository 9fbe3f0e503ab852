"""The lazy search's pools: every region state it meets as an object (an int64 row of
facts beside its two masks), each expanded state's moves (a row each), their kid lists and
kids, and the tables that find an object by its state or by its game tree.  Plain arrays, so
that a kernel can grow them in place and a partner search can keep its own beside a
shared transposition table (:mod:`triangles.ai.lazy`)."""

from __future__ import annotations

import numpy as np

from triangles.ai.bits import bit_index, low_bit, mix64, popcount
from triangles.ai.tables import grown_rows, ht_put
from triangles.jit import njit

# columns of the objects' int64 rows, of the moves' rows (``SUM``: the keys of the move's
# kids added up, 0 where one of them is a lone line whose pairs cancel or a state whose key
# changes when expanded, see triangles.ai.expand.expand; ``LINE`` only in an expansion's
# scratch rows, since a move's line is needed only at the root, see move_line), and the
# counters
KEY, LEFT, MOST, MS, ME, AV, PAIR = 0, 1, 2, 3, 4, 5, 6
PTS, KL, RANK, SUM, LINE = 0, 1, 2, 3, 4
NOBJ, NMV, NKL = 0, 1, 2  # then the two tables' used rows (3, 4)


#: kids (and objects) a search may hold before it gives up: the kid lists' starts and items
#: are 32-bit, and one expansion adds far fewer than the 2^24 left to spare (a search on a
#: whole 12-star board held 65 M kids; this would take some 40 GB)
ROOM32 = (1 << 31) - (1 << 24)


@njit(inline="always")
def out_of_room(P: tuple) -> bool:
    """Whether the pools ``P`` hold more kids or objects than :data:`ROOM32`: the search
    gives up before the next expansion could overflow the kid lists' 32-bit numbers."""
    return P[3][P[7][NKL]] > ROOM32 or P[7][NOBJ] > ROOM32


def new_pools(rows: int = 1024) -> tuple:
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
    cnt[NOBJ] = 1  # 0 is never an object
    return (
        np.zeros((rows, 2), np.uint64),
        np.zeros((rows, 7), np.int64),
        np.zeros((8 * rows, 4), np.int64),
        np.zeros(8 * rows, np.int32),  # 32-bit, half the memory: see ROOM32
        np.zeros(16 * rows, np.int32),
        # the tables start smaller, since a sparse table touches a page an entry: at twice
        # the rows the extra turn's pair took 10 % longer on whole 12-star boards, and the
        # slowest boards gained nothing; the game trees are few
        np.zeros((max(rows // 2, 64), 3), np.uint64),
        np.zeros((min(4 * rows, 1 << 12), 3), np.uint64),
        cnt,
    )


def reserved_pools(rows: int) -> tuple:
    """:func:`new_pools` with room for ``rows`` objects, or for as many as the system allows
    down to 1024 (the pools grow as the search needs)."""
    while True:
        try:
            return new_pools(rows)
        except MemoryError:
            if rows <= 1024:
                raise
            rows //= 2


@njit(inline="always")
def new_lazy(legal: np.uint64, drawn: np.uint64, P: tuple, left: int, most: int, key: np.int64) -> tuple:
    """A new unexpanded object for the region state (legal, drawn) whose facts are (``left``,
    ``most``) (:func:`triangles.ai.split.state_facts`) and whose table key is ``key``
    (:func:`triangles.ai.split.state_key`): (its id, the pools)."""
    OU, OI, MV, KP, KI, ids, intern, cnt = P
    o = cnt[NOBJ]
    cnt[NOBJ] += 1
    ids = ht_put(ids, cnt[3:4], legal, drawn, o)
    OU = grown_rows(OU, o)
    OI = grown_rows(OI, o)
    OU[o, 0] = legal
    OU[o, 1] = drawn
    OI[o, KEY] = key
    OI[o, LEFT] = left
    OI[o, MOST] = most
    OI[o, MS] = -1
    OI[o, ME] = -1
    OI[o, AV] = 0
    OI[o, PAIR] = 0
    return o, (OU, OI, MV, KP, KI, ids, intern, cnt)


@njit(inline="always")
def kl_hash(KP: np.ndarray, KI: np.ndarray, OI: np.ndarray, kl: int) -> np.uint64:
    """A kid list's hash, from its kids' keys rather than their ids: an object's id depends on
    the order its search met it, its key does not, so two searches sharing a table
    (:func:`triangles.ai.solver.solve`) key the same position alike."""
    h = np.uint64(0x6A09E667F3BCC908)
    for t in range(KP[kl], KP[kl + 1]):
        h += mix64(np.uint64(OI[KI[t], KEY]))
    return mix64(h)


@njit(inline="always")
def move_line(P: tuple, objs: np.ndarray, g: int, small: int) -> int:
    """The line of the move in the moves' row ``g``, one of the objects ``objs``' moves, or -1
    where that object has at most ``small`` legal lines (explored and merged: its moves are
    its game tree's, with no line of their own).  :func:`triangles.ai.expand.expand` lists a
    state's moves in the order of its legal lines, so a move's line is its object's legal line
    of the move's rank; moves keep no line of their own, a column less in the largest pool.  A
    root object is never merged and never explored (its state is in the state table from the
    start), so with ``small`` = -1 every root move has its line."""
    OU, OI = P[0], P[1]
    for c in objs:
        if OI[c, MS] <= g < OI[c, ME]:
            return nth_line(OU[c, 0], g - OI[c, MS]) if popcount(OU[c, 0]) > small else -1
    return -1


@njit(inline="always")
def nth_line(m: np.uint64, k: int) -> int:
    """The ``k``-th legal line (from 0) of the legal mask ``m``."""
    for _ in range(k):
        m ^= low_bit(m)
    return bit_index(low_bit(m))
