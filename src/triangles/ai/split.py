"""Where a state falls apart into regions: which lines cross, what a line scores, which
lines share a live cell, and the groups they join.  Pure geometry over 64-bit masks, shared
by the explored regions (:mod:`triangles.ai.regions`) and the lazy ones (:mod:`triangles.ai.lazy`).

A position's geometry travels through every kernel as one tuple ``geo`` = (cross, need,
on_ptr, on_cell), as :class:`triangles.ai.regions.Regions` builds it: ``cross[k]`` the mask of
the lines that line ``k`` crosses, ``need[c]`` the mask of the live cell ``c``'s undrawn sides,
and ``on_cell[on_ptr[k]:on_ptr[k + 1]]`` the live cells on line ``k``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from triangles import kernels as K
from triangles.ai.bits import GOLDEN, ONE, bit_index, low_bit, mix64
from triangles.jit import njit

if TYPE_CHECKING:
    from triangles.kernels import BoardArrays


@njit(nogil=True)
def cross_matrix(S: BoardArrays, lines: np.ndarray) -> np.ndarray:
    """``m[a]``: the bit mask of the lines ``lines[b]`` that ``lines[a]`` crosses."""
    n = lines.shape[0]
    xs, ys, pi, pj = S.xs, S.ys, S.pi, S.pj
    m = np.zeros(n, np.uint64)
    for a in range(n):
        p = lines[a]
        for b in range(a + 1, n):
            q = lines[b]
            if K.segments_cross(xs[pi[p]], ys[pi[p]], xs[pj[p]], ys[pj[p]], xs[pi[q]], ys[pi[q]], xs[pj[q]], ys[pj[q]]):
                m[a] |= np.uint64(1) << np.uint64(b)
                m[b] |= np.uint64(1) << np.uint64(a)
    return m


@njit(inline="always")
def points(drawn: np.uint64, k: int, geo: tuple) -> int:
    """The triangles the line ``k`` closes in a state whose drawn lines are ``drawn``."""
    need, on_ptr, on_cell = geo[1], geo[2], geo[3]
    b = ONE << np.uint64(k)
    pts = 0
    for t in range(on_ptr[k], on_ptr[k + 1]):
        if (need[on_cell[t]] & ~drawn) == b:
            pts += 1
    return pts


@njit(inline="always")
def links(
    legal: np.uint64,
    drawn: np.uint64,
    geo: tuple,
    link: np.ndarray,
    relk: np.ndarray,
    lines: np.uint64,
) -> None:
    """For each line ``k`` in the mask ``lines`` (the state's legal lines, or some of them):
    the undrawn sides (``link[k]``) and all the sides (``relk[k]``) of the live cells on it
    in the state (``legal``, ``drawn``).  A cell is live when every undrawn side is legal."""
    need, on_ptr, on_cell = geo[1], geo[2], geo[3]
    m = lines
    while m:
        b = low_bit(m)
        m ^= b
        k = bit_index(b)
        lk = np.uint64(0)
        rk = np.uint64(0)
        for t in range(on_ptr[k], on_ptr[k + 1]):
            ci = on_cell[t]
            und = need[ci] & ~drawn
            if und != 0 and (und & ~legal) == 0:
                lk |= und
                rk |= need[ci]
        link[k] = lk
        relk[k] = rk


@njit(inline="always")
def child_links(
    legal: np.uint64,
    drawn: np.uint64,
    k: int,
    geo: tuple,
    link: np.ndarray,
    relk: np.ndarray,
) -> None:
    """Turn ``link``/``relk`` of the state (``legal``, ``drawn``) into those of the state its
    line ``k`` leaves, for :func:`components`: drawing ``k`` and losing the lines it crosses
    changes only the cells on those lines (a cell on ``k`` dies once complete, one on a
    crossed line at once), so only the sides of those cells are looked at again.  A bit of
    ``k`` left in ``link`` is harmless: :func:`components` keeps only legal lines."""
    cross, need, on_ptr, on_cell = geo[0], geo[1], geo[2], geo[3]
    b = ONE << np.uint64(k)
    gone = legal & cross[k]
    nl = legal & ~b & ~gone
    nd = drawn | b
    again = np.uint64(0)
    m = gone | b
    while m:
        bq = low_bit(m)
        m ^= bq
        q = bit_index(bq)
        for t in range(on_ptr[q], on_ptr[q + 1]):
            ci = on_cell[t]
            und = need[ci] & ~drawn
            if und != 0 and (und & ~legal) == 0 and (q != k or (need[ci] & ~nd) == 0):
                again |= need[ci]
    links(nl, nd, geo, link, relk, again & nl)


@njit(inline="always")
def components(
    legal: np.uint64,
    drawn: np.uint64,
    cross: np.ndarray,
    link: np.ndarray,
    relk: np.ndarray,
    out_l: np.ndarray,
    out_d: np.ndarray,
) -> int:
    """The regions of a state whose ``link``/``relk`` are known (see :func:`split`)."""
    nc = 0
    rest = legal
    while rest:
        comp = low_bit(rest)
        frontier = comp
        rel = np.uint64(0)
        while frontier:
            b = low_bit(frontier)
            frontier ^= b
            k = bit_index(b)
            rel |= relk[k]
            grow = (cross[k] | link[k]) & legal & ~comp
            comp |= grow
            frontier |= grow
        rest &= ~comp
        out_l[nc] = comp
        out_d[nc] = drawn & rel
        nc += 1
    return nc


@njit(inline="always")
def child_regions(
    legal: np.uint64,
    drawn: np.uint64,
    k: int,
    geo: tuple,
    link0: np.ndarray,
    relk0: np.ndarray,
    link: np.ndarray,
    relk: np.ndarray,
    out_l: np.ndarray,
    out_d: np.ndarray,
) -> int:
    """The regions the line ``k`` leaves in the state (``legal``, ``drawn``), whose links are
    ``link0``/``relk0`` (:func:`links`; left as they are), into ``out_l``/``out_d``: how many.
    ``link``/``relk`` are scratch for the child's links (:func:`child_links`)."""
    for q in range(64):
        link[q] = link0[q]
        relk[q] = relk0[q]
    child_links(legal, drawn, k, geo, link, relk)
    b = ONE << np.uint64(k)
    return components(legal & ~b & ~geo[0][k], drawn | b, geo[0], link, relk, out_l, out_d)


@njit(nogil=True)
def split(
    legal: np.uint64,
    drawn: np.uint64,
    geo: tuple,
    link: np.ndarray,
    relk: np.ndarray,
    out_l: np.ndarray,
    out_d: np.ndarray,
) -> int:
    """The regions of a state into ``out_l``/``out_d`` (legal, drawn of each); returns how many.
    A region's ``drawn`` keeps only the sides of its live cells, so that states with the same
    future share a key."""
    links(legal, drawn, geo, link, relk, legal)
    return components(legal, drawn, geo[0], link, relk, out_l, out_d)


@njit(inline="always")
def state_facts(legal: np.uint64, drawn: np.uint64, geo: tuple) -> tuple[int, int]:
    """(live cells: a bound on the points the region still holds, the most one of its lines scores)."""
    need, on_ptr, on_cell = geo[1], geo[2], geo[3]
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
def live_cells(legal: np.uint64, drawn: np.uint64, geo: tuple, und: np.ndarray) -> int:
    """The undrawn sides of each live cell of the state (legal, drawn), once each, into ``und``:
    how many.  A state a line leaves has no live cell its parent lacked (a cell with a side
    that is neither drawn nor legal keeps it), so these give the facts of every region a line
    leaves (:func:`child_facts`) without looking the cells up again."""
    need, on_ptr, on_cell = geo[1], geo[2], geo[3]
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
def child_facts(
    und: np.ndarray, n: int, b: np.uint64, region: np.uint64, single: np.ndarray, codes: np.ndarray
) -> tuple[int, int, np.int64]:
    """:func:`state_facts` of the region of legal lines ``region`` that drawing the line ``b``
    leaves, from the parent's live cells (:func:`live_cells`): a cell is live there when its
    undrawn sides but ``b`` are all in the region (and there are some); and its key
    (:func:`state_key`)."""
    live = 0
    most = 0
    cells = np.uint64(0)
    for q in range(n):
        u = und[q] & ~b
        if u != 0 and (u & ~region) == 0:
            live += 1
            cells += cell_code(u, codes)
            if u == low_bit(u):
                k = bit_index(u)
                single[k] += 1
                most = max(most, single[k])
    for q in range(n):  # cleared for the next call
        u = und[q] & ~b
        if u != 0 and u == low_bit(u):
            single[bit_index(u)] = 0
    return live, most, key_of(region, cells, codes)


@njit(inline="always")
def cell_code(u: np.uint64, codes: np.ndarray) -> np.uint64:
    """A live cell's part of a state's key: a hash of its undrawn sides, as board pairs."""
    h = np.uint64(0x3C6EF372FE94F82B)
    while u:
        b = low_bit(u)
        u ^= b
        h += codes[bit_index(b)]
    return mix64(h)


@njit(inline="always")
def key_of(legal: np.uint64, cells: np.uint64, codes: np.ndarray) -> np.int64:
    """A large state's key from its legal lines and its live cells' codes (summed)."""
    h = np.uint64(0)
    m = legal
    while m:
        b = low_bit(m)
        m ^= b
        h += codes[bit_index(b)]
    return np.int64(mix64(h * GOLDEN ^ mix64(cells + ONE)) >> ONE) | 1


@njit(inline="always")
def state_key(legal: np.uint64, drawn: np.uint64, geo: tuple) -> np.int64:
    """A large region state's table key, the same in every search whatever its numbering of
    the lines: its legal lines and its live cells' undrawn sides, each line by its board pair
    (``geo[4]``).  Those make the state's game (the lines drawn matter only as sides of live
    cells), so two searches of positions differing in a line or two
    (:func:`triangles.ai.solver.solve` on 65 or 66 legal lines) can share a table, and within
    one search states differing only in lines drawn that no live cell has share their
    entries: 2-5 % fewer nodes on whole 12-star boards (``benchmarks/middle-game.md``,
    thirty-seventh look).  A key was the state's two masks hashed."""
    und = np.zeros(geo[3].shape[0] + 1, np.uint64)  # a cell is on three lines: room for all
    cells = np.uint64(0)
    for q in range(live_cells(legal, drawn, geo, und)):
        cells += cell_code(und[q], geo[4])
    return key_of(legal, cells, geo[4])
