"""numba kernels shared by the rules engine and the AI.

Everything here works on plain numpy arrays so that the rules (``triangles.rules``)
and the search (``triangles.ai``) can call the same make/unmake code, in Python
or from inside other kernels.  No pygame, no Python objects.

Vocabulary
----------
*pair* ``p``
    index of the candidate line between stars ``i < j``; pairs are numbered in
    lexicographic order, so sorted pair ids give sorted ``(i, j)`` moves.
*clear*
    a pair with no other star within ``tolerance`` of its closed segment; only
    clear pairs can ever be drawn.
*cell*
    an empty triangle (no star strictly inside) whose three sides are clear:
    the only triangles that can ever score.  Each pair knows its cells through a
    CSR incidence list (``inc_ptr``/``inc_cell``).
*live* cell
    one that can still be closed: no side blocked by a crossing line, and not
    all three sides drawn.  The game is over when no cell is live.

Geometry uses float64 with comparisons arranged so that integer coordinates
(and integer or dyadic tolerances) give exact answers, which is what the
exact-arithmetic reference in the tests checks.

The board's static arrays travel as a :class:`BoardArrays` named tuple ``S``
and the game's mutable arrays as a :class:`GameArrays` named tuple ``D`` (the
way pynndescent hands its ``FlatTree`` to jitted code): numba reads both by
field name, in Python and inside ``@njit`` code alike.  The game's scalars
(turn, scores, counts) are one numpy record, ``D.counters[0]``, read and
written by field name too (``c = D.counters[0]; c.nlegal -= 1``).
Both are built by :mod:`triangles.rules`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from triangles.jit import njit

#: The game's scalars: one record per game, ``D.counters[0]``.
COUNTERS = np.dtype(
    [
        ("player", np.int64),  # whose turn: 0 or 1
        ("score0", np.int64),  # triangles of player 0
        ("score1", np.int64),  # triangles of player 1
        ("nmoves", np.int64),  # lines drawn so far
        ("btop", np.int64),  # top of the blocked-pairs stack
        ("live", np.int64),  # cells that can still be closed; 0 = the game is over
        ("nlegal", np.int64),  # pairs that may be drawn now
        ("extra", np.int64),  # 1 when a scoring line earns another move
    ]
)


class BoardArrays(NamedTuple):
    """What follows from the stars alone (read-only once built).

    ``n`` stars, ``npairs = n(n-1)/2`` candidate lines, ``m`` cells.
    """

    xs: np.ndarray  # (n,) float64 star x
    ys: np.ndarray  # (n,) float64 star y
    pi: np.ndarray  # (npairs,) int32 first star of each pair (i < j)
    pj: np.ndarray  # (npairs,) int32 second star
    pid: np.ndarray  # (n, n) int32 pair id of (i, j), -1 on the diagonal
    clear: np.ndarray  # (npairs,) uint8 1 when no other star is within the tolerance
    cells: np.ndarray  # (m, 3) int32 star ids i < j < k of each cell
    cell_pairs: np.ndarray  # (m, 3) int32 pair ids of the sides jk, ik, ij
    inc_ptr: np.ndarray  # (npairs + 1,) int32 CSR pointers: pair -> cells it is a side of
    inc_cell: np.ndarray  # (3m,) int32 CSR cell ids


class GameArrays(NamedTuple):
    """The position and its history: everything ``apply_line`` / ``undo_line`` change."""

    counters: np.ndarray  # (1,) COUNTERS record
    legal: np.ndarray  # (npairs,) uint8 1 where a line may be drawn now
    line_owner: np.ndarray  # (npairs,) int8 owner of a drawn pair, -1 when not drawn
    cell_drawn: np.ndarray  # (m,) int8 sides drawn, 0..3
    cell_blocked: np.ndarray  # (m,) int32 undrawn sides crossed by a drawn line
    cell_owner: np.ndarray  # (m,) int8 owner of a closed cell, -1 while open
    moves: np.ndarray  # (npairs,) int32 pair ids in the order drawn
    move_player: np.ndarray  # (npairs,) int8 who drew each line
    move_bstart: np.ndarray  # (npairs,) int32 blocked-stack top before each line
    move_closed: np.ndarray  # (npairs, 2) int32 cells each line closed (-1: none; at most 2)
    bstack: np.ndarray  # (npairs,) int32 pairs blocked by the lines, in order
    #: (npairs,) int32 the legal pairs first, in no particular order: ``legal_list[:nlegal]``.  Why: a
    #: search node then costs work in legal lines, not in all n(n-1)/2 pairs (20x more at 180 stars).
    #: A pair taken out is swapped to just past the end, so the tail is a stack that undo pops exactly.
    legal_list: np.ndarray
    #: (npairs,) int32 where each legal pair sits in ``legal_list`` (for one taken out: where it sat)
    legal_pos: np.ndarray


# --------------------------------------------------------------------------
# Primitive geometry
# --------------------------------------------------------------------------


@njit(inline="always")
def orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> float:
    """Twice the signed area of (a, b, c): > 0 counter-clockwise, 0 collinear."""
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@njit(refcount=False)
def segments_cross(ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float) -> bool:
    """True when segments a-b and c-d meet at a point interior to both.

    Touching at an endpoint or lying collinear does not count: on a board those
    cases are already excluded because such a segment passes through a star.
    """
    d1 = orient(ax, ay, bx, by, cx, cy)
    d2 = orient(ax, ay, bx, by, dx, dy)
    if not ((d1 > 0.0 and d2 < 0.0) or (d1 < 0.0 and d2 > 0.0)):
        return False
    d3 = orient(cx, cy, dx, dy, ax, ay)
    d4 = orient(cx, cy, dx, dy, bx, by)
    return (d3 > 0.0 and d4 < 0.0) or (d3 < 0.0 and d4 > 0.0)


@njit
def near_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float, tol: float) -> bool:
    """True when point p is within ``tol`` (inclusive) of the closed segment a-b.

    Compares squared quantities only (no division or square root) so that
    integer inputs give an exact answer.
    """
    dx = bx - ax
    dy = by - ay
    wx = px - ax
    wy = py - ay
    dot = wx * dx + wy * dy
    len2 = dx * dx + dy * dy
    tol2 = tol * tol
    if dot <= 0.0:
        return wx * wx + wy * wy <= tol2
    if dot >= len2:
        ex = px - bx
        ey = py - by
        return ex * ex + ey * ey <= tol2
    cr = dx * wy - dy * wx
    return cr * cr <= tol2 * len2


@njit
def strictly_inside(px: float, py: float, ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> bool:
    """True when p lies strictly inside triangle a-b-c (not on a side)."""
    o1 = orient(ax, ay, bx, by, px, py)
    o2 = orient(bx, by, cx, cy, px, py)
    o3 = orient(cx, cy, ax, ay, px, py)
    return (o1 > 0.0 and o2 > 0.0 and o3 > 0.0) or (o1 < 0.0 and o2 < 0.0 and o3 < 0.0)


# --------------------------------------------------------------------------
# Static board analysis (once per board)
# --------------------------------------------------------------------------


@njit
def pair_tables(n: int):
    """(pi, pj, pid): the stars of each pair, and the pair id of (i, j) (-1 on the diagonal)."""
    npairs = n * (n - 1) // 2
    pi = np.empty(npairs, np.int32)
    pj = np.empty(npairs, np.int32)
    pid = np.full((n, n), -1, np.int32)
    p = 0
    for i in range(n):
        for j in range(i + 1, n):
            pi[p] = i
            pj[p] = j
            pid[i, j] = p
            pid[j, i] = p
            p += 1
    return pi, pj, pid


@njit
def clear_mask(xs, ys, pi, pj, tol: float):
    """1 for each pair whose closed segment keeps every other star farther than ``tol``."""
    npairs = pi.shape[0]
    n = xs.shape[0]
    out = np.ones(npairs, np.uint8)
    for p in range(npairs):
        a = pi[p]
        b = pj[p]
        ax = xs[a]
        ay = ys[a]
        bx = xs[b]
        by = ys[b]
        # cheap bounding-box reject before the exact test
        lox = min(ax, bx) - tol
        hix = max(ax, bx) + tol
        loy = min(ay, by) - tol
        hiy = max(ay, by) + tol
        for k in range(n):
            if k == a or k == b:
                continue
            px = xs[k]
            py = ys[k]
            if px < lox or px > hix or py < loy or py > hiy:
                continue
            if near_segment(px, py, ax, ay, bx, by, tol):
                out[p] = 0
                break
    return out


@njit
def empty_cells(xs, ys, pid, clear):
    """All cells: triangles i<j<k with three clear sides and no star strictly inside.

    Returns (cells (m, 3) star ids, cell_pairs (m, 3) pair ids of sides jk, ik, ij).
    """
    n = xs.shape[0]
    cap = 1024
    cells = np.empty((cap, 3), np.int32)
    m = 0
    for i in range(n):
        for j in range(i + 1, n):
            if clear[pid[i, j]] == 0:
                continue
            for k in range(j + 1, n):
                if clear[pid[i, k]] == 0 or clear[pid[j, k]] == 0:
                    continue
                ax = xs[i]
                ay = ys[i]
                bx = xs[j]
                by = ys[j]
                cx = xs[k]
                cy = ys[k]
                lox = min(ax, min(bx, cx))
                hix = max(ax, max(bx, cx))
                loy = min(ay, min(by, cy))
                hiy = max(ay, max(by, cy))
                empty = True
                for s in range(n):
                    px = xs[s]
                    py = ys[s]
                    if px <= lox or px >= hix or py <= loy or py >= hiy:
                        continue
                    if s == i or s == j or s == k:
                        continue
                    if strictly_inside(px, py, ax, ay, bx, by, cx, cy):
                        empty = False
                        break
                if not empty:
                    continue
                if m == cap:
                    bigger = np.empty((cap * 2, 3), np.int32)
                    for r in range(cap):  # element loops: a slice copy costs numba seconds to compile
                        bigger[r, 0] = cells[r, 0]
                        bigger[r, 1] = cells[r, 1]
                        bigger[r, 2] = cells[r, 2]
                    cells = bigger
                    cap *= 2
                cells[m, 0] = i
                cells[m, 1] = j
                cells[m, 2] = k
                m += 1
    out = np.empty((m, 3), np.int32)
    cell_pairs = np.empty((m, 3), np.int32)
    for c in range(m):
        i = cells[c, 0]
        j = cells[c, 1]
        k = cells[c, 2]
        out[c, 0] = i
        out[c, 1] = j
        out[c, 2] = k
        cell_pairs[c, 0] = pid[j, k]
        cell_pairs[c, 1] = pid[i, k]
        cell_pairs[c, 2] = pid[i, j]
    return out, cell_pairs


@njit
def incidence(npairs: int, cell_pairs):
    """CSR lists pair -> cells having that pair as a side."""
    m = cell_pairs.shape[0]
    counts = np.zeros(npairs + 1, np.int32)
    for c in range(m):
        for s in range(3):
            counts[cell_pairs[c, s] + 1] += 1
    ptr = np.cumsum(counts).astype(np.int32)
    fill = ptr[:-1].copy()
    out = np.empty(3 * m, np.int32)
    for c in range(m):
        for s in range(3):
            p = cell_pairs[c, s]
            out[fill[p]] = c
            fill[p] += 1
    return ptr, out


# --------------------------------------------------------------------------
# Game state: make / unmake
# --------------------------------------------------------------------------


def new_state(S: BoardArrays, extra_turn: bool) -> GameArrays:
    """The empty position on a board (plain numpy; called from Python)."""
    npairs = S.pi.shape[0]
    ncells = S.cells.shape[0]
    counters = np.zeros(1, COUNTERS)
    counters["live"] = ncells
    counters["nlegal"] = int(S.clear.sum())
    counters["extra"] = 1 if extra_turn else 0
    # the clear pairs (ascending) head the list; the others follow and never move
    order = np.concatenate([np.flatnonzero(S.clear), np.flatnonzero(S.clear == 0)]).astype(np.int32)
    pos = np.empty(npairs, np.int32)
    pos[order] = np.arange(npairs, dtype=np.int32)
    return GameArrays(
        counters=counters,
        legal=S.clear.astype(np.uint8),
        line_owner=np.full(npairs, -1, np.int8),
        cell_drawn=np.zeros(ncells, np.int8),
        cell_blocked=np.zeros(ncells, np.int32),
        cell_owner=np.full(ncells, -1, np.int8),
        moves=np.empty(npairs, np.int32),
        move_player=np.empty(npairs, np.int8),
        move_bstart=np.empty(npairs, np.int32),
        move_closed=np.full((npairs, 2), -1, np.int32),
        bstack=np.empty(npairs, np.int32),
        legal_list=order,
        legal_pos=pos,
    )


def copy_state(D: GameArrays) -> GameArrays:
    """An independent copy of every array (a search's private scratch state)."""
    return GameArrays(*[a.copy() for a in D])


@njit(inline="always")
def _take_out(lst, pos, q: int, n: int) -> None:
    """Take the legal pair ``q`` out of ``lst[:n]``: swap it with the last one.

    ``pos[q]`` keeps the place ``q`` had, which is where :func:`_put_back` returns it."""
    i = pos[q]
    last = lst[n - 1]
    lst[i] = last
    pos[last] = i
    lst[n - 1] = q


@njit(inline="always")
def _put_back(lst, pos, n: int) -> None:
    """Undo the last :func:`_take_out` (its pair sits at ``lst[n]``, just past the ``n`` legal ones)."""
    q = lst[n]
    i = pos[q]
    moved = lst[i]
    lst[n] = moved
    pos[moved] = n
    lst[i] = q


@njit
def apply_line(S, D, p: int) -> int:
    """Draw pair ``p`` (which must be legal) for the player to move; returns triangles closed."""
    return draw(S, D, p, np.empty(S.xs.shape[0], np.float64))


@njit(refcount=False)
def draw(S, D, p: int, side) -> int:
    """:func:`apply_line` with ``side`` (float64, a star long) as its scratch, for the kernels
    that count no references (:mod:`triangles.jit`) and so make no arrays."""
    xs = S.xs
    ys = S.ys
    pi = S.pi
    pj = S.pj
    inc_ptr = S.inc_ptr
    inc_cell = S.inc_cell
    ctr = D.counters[0]
    legal = D.legal
    cell_drawn = D.cell_drawn
    cell_blocked = D.cell_blocked
    bstack = D.bstack
    player = ctr.player
    nm = ctr.nmoves
    D.moves[nm] = p
    D.move_player[nm] = player
    D.move_bstart[nm] = ctr.btop
    ctr.nmoves = nm + 1
    legal[p] = 0
    D.line_owner[p] = player
    lst = D.legal_list
    lpos = D.legal_pos
    _take_out(lst, lpos, p, ctr.nlegal)
    nlegal = ctr.nlegal - 1
    live = ctr.live

    # cells having p as a side: one more side drawn, closed when it was the last
    # (a line closes at most one empty triangle on each side, so at most 2)
    closed = 0
    D.move_closed[nm, 0] = -1
    D.move_closed[nm, 1] = -1
    for t in range(inc_ptr[p], inc_ptr[p + 1]):
        c = inc_cell[t]
        cell_drawn[c] += 1
        if cell_drawn[c] == 3:
            D.cell_owner[c] = player
            if closed < 2:
                D.move_closed[nm, closed] = c
            closed += 1
            live -= 1

    # block every legal pair that crosses the new line
    c0 = pi[p]
    d0 = pj[p]
    cx = xs[c0]
    cy = ys[c0]
    dx = xs[d0]
    dy = ys[d0]
    top = ctr.btop
    n = xs.shape[0]
    for s in range(n):
        side[s] = orient(cx, cy, dx, dy, xs[s], ys[s])
    # backwards over the legal list: a pair taken out is swapped with one already looked at
    for k in range(nlegal - 1, -1, -1):
        q = lst[k]
        a = pi[q]
        b = pj[q]
        sa = side[a]
        sb = side[b]
        if not ((sa > 0.0 and sb < 0.0) or (sa < 0.0 and sb > 0.0)):
            continue
        ax = xs[a]
        ay = ys[a]
        bx = xs[b]
        by = ys[b]
        o1 = orient(ax, ay, bx, by, cx, cy)
        o2 = orient(ax, ay, bx, by, dx, dy)
        if (o1 > 0.0 and o2 < 0.0) or (o1 < 0.0 and o2 > 0.0):
            legal[q] = 0
            bstack[top] = q
            top += 1
            _take_out(lst, lpos, q, nlegal)
            nlegal -= 1
            for t in range(inc_ptr[q], inc_ptr[q + 1]):
                c = inc_cell[t]
                cell_blocked[c] += 1
                if cell_blocked[c] == 1:
                    live -= 1
    ctr.btop = top
    ctr.nlegal = nlegal
    ctr.live = live
    if player == 0:
        ctr.score0 += closed
    else:
        ctr.score1 += closed
    if not (closed > 0 and ctr.extra == 1):
        ctr.player = 1 - player
    return closed


@njit(refcount=False)
def undo_line(S, D) -> int:
    """Take back the last line exactly; returns its pair id (-1 when none)."""
    inc_ptr = S.inc_ptr
    inc_cell = S.inc_cell
    ctr = D.counters[0]
    legal = D.legal
    cell_drawn = D.cell_drawn
    cell_blocked = D.cell_blocked
    nm = ctr.nmoves
    if nm == 0:
        return -1
    nm -= 1
    p = D.moves[nm]
    player = D.move_player[nm]
    live = ctr.live
    nlegal = ctr.nlegal
    start = D.move_bstart[nm]
    lst = D.legal_list
    lpos = D.legal_pos
    for t in range(ctr.btop - 1, start - 1, -1):  # in the reverse order they were taken out
        q = D.bstack[t]
        legal[q] = 1
        _put_back(lst, lpos, nlegal)
        nlegal += 1
        for u in range(inc_ptr[q], inc_ptr[q + 1]):
            c = inc_cell[u]
            cell_blocked[c] -= 1
            if cell_blocked[c] == 0:
                live += 1
    closed = 0
    for t in range(inc_ptr[p], inc_ptr[p + 1]):
        c = inc_cell[t]
        if cell_drawn[c] == 3:
            D.cell_owner[c] = -1
            closed += 1
            live += 1
        cell_drawn[c] -= 1
    legal[p] = 1
    D.line_owner[p] = -1
    _put_back(lst, lpos, nlegal)
    nlegal += 1
    if player == 0:
        ctr.score0 -= closed
    else:
        ctr.score1 -= closed
    ctr.player = player
    ctr.nmoves = nm
    ctr.btop = start
    ctr.live = live
    ctr.nlegal = nlegal
    return p


@njit
def apply_line_py(board_fields, game_fields, p: int) -> int:
    """:func:`apply_line` for a call from Python, with the two named tuples passed as plain tuples.

    numba unboxes a plain tuple of arrays about 2 us faster per call than a
    named one (measured at 180 stars: play+undo 19 us instead of 22), and
    ``Game.play`` / ``Game.undo`` make one such call per line.  The fields are
    named again at once.
    """
    return apply_line(BoardArrays(*board_fields), GameArrays(*game_fields), p)


@njit
def undo_line_py(board_fields, game_fields) -> int:
    """:func:`undo_line` for a call from Python (see :func:`apply_line_py`)."""
    return undo_line(BoardArrays(*board_fields), GameArrays(*game_fields))


@njit
def closing_count(S, D, p: int) -> int:
    """How many triangles drawing the legal pair ``p`` would close right now."""
    inc_ptr = S.inc_ptr
    inc_cell = S.inc_cell
    cell_drawn = D.cell_drawn
    k = 0
    for t in range(inc_ptr[p], inc_ptr[p + 1]):
        if cell_drawn[inc_cell[t]] == 2:
            k += 1
    return k


@njit
def nth_legal(legal, r: int) -> int:
    """The pair id of the r-th legal pair in sorted order (-1 if fewer)."""
    for q in range(legal.shape[0]):
        if legal[q] != 0:
            if r == 0:
                return q
            r -= 1
    return -1


@njit
def random_playout(S, D, seed: int) -> int:
    """Play uniformly random legal lines until the game is over; returns lines drawn.

    The same random game the benchmark plays through the Python API, but entirely
    in compiled code: the shape of the AI's inner loop.
    """
    np.random.seed(seed)
    ctr = D.counters[0]
    played = 0
    while ctr.live > 0:
        r = np.random.randint(0, ctr.nlegal)
        p = nth_legal(D.legal, r)
        apply_line(S, D, p)
        played += 1
    return played
