"""Thin faces: where the game's length, and so who draws its last line, can change.

With strict alternation the player who draws a game's last line wins nearly
every game (``benchmarks/middle-game.md``, twelfth look), and that player is
fixed by how many lines the game lasts.  Were every pair of stars joinable,
every game would end triangulated and last the same number of lines.  The
rules' tolerance keeps some pairs from being joined, and where 4 or 5 nearly
straight stars have every diagonal blocked, their ring of sides, once drawn,
is a face no line can split: it stays empty, and the game lasts one line
fewer (4 stars, which changes who draws the last line) or two (5 stars).  If a
line crosses one of its sides first, the face is *prevented* and the stars
around it end triangulated as usual.

So a game's length is ``base`` minus 1 for each 4-star face formed and 2 for
each 5-star one, where ``base`` is the length with every face prevented: on 40
24-star boards that held in all 1200 random games played (30 a board) and in all
680 of hard's games against ``mcts`` (the log's thirteenth and fourteenth looks).
Rarely, a face ends with its last side never drawn, no triangle being left to
close on either side of it, and the game is a line shorter still
(``tests/test_faces.py``).  Each open 4-star face is a switch: one crossing line
prevents it, drawing its last side forms it.  :func:`steer` narrows the mover's
safe lines to those that set the switches its way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from triangles import kernels as K
from triangles.jit import njit
from triangles.kernels import near_segment, segments_cross

if TYPE_CHECKING:
    from triangles.kernels import GameArrays
    from triangles.rules import Board

__all__ = ["FaceModel", "face_model", "thin_faces", "steer"]


@njit
def _is_face(xs: np.ndarray, ys: np.ndarray, ring: np.ndarray) -> bool:
    """Whether the ring of stars (its sides clear, every other pair blocked) is a face:
    no two sides cross and no other star lies inside (even-odd rule)."""
    k = len(ring)
    for a in range(k):
        a0, a1 = ring[a], ring[(a + 1) % k]
        for b in range(a + 2, k):
            if a == 0 and b == k - 1:
                continue
            b0, b1 = ring[b], ring[(b + 1) % k]
            if segments_cross(xs[a0], ys[a0], xs[a1], ys[a1], xs[b0], ys[b0], xs[b1], ys[b1]):
                return False
    lox, hix, loy, hiy = xs[ring[0]], xs[ring[0]], ys[ring[0]], ys[ring[0]]
    for t in range(1, k):
        lox, hix = min(lox, xs[ring[t]]), max(hix, xs[ring[t]])
        loy, hiy = min(loy, ys[ring[t]]), max(hiy, ys[ring[t]])
    for v in range(len(xs)):
        x, y = xs[v], ys[v]
        if x < lox or x > hix or y < loy or y > hiy:
            continue
        hit = False
        mine = False
        for t in range(k):
            i, j = ring[t], ring[(t + 1) % k]
            if i == v:
                mine = True
            x1, y1, x2, y2 = xs[i], ys[i], xs[j], ys[j]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
        if hit and not mine:
            return False
    return True


@njit
def _canonical(ring: np.ndarray) -> np.ndarray:
    """The ring started at its lowest star, towards the lower of that star's neighbours."""
    k = len(ring)
    m = int(np.argmin(ring))
    step = 1 if ring[(m + 1) % k] < ring[(m - 1) % k] else -1
    out = np.empty(k, np.int64)
    for t in range(k):
        out[t] = ring[(m + step * t) % k]
    return out


@njit
def _face_key(xs: np.ndarray, ys: np.ndarray, ring: np.ndarray) -> int:
    """The canonical ring's stars as the digits of one number (base n + 1, star + 1, 0 for
    none), or -1 when the ring is not a face."""
    if not _is_face(xs, ys, ring):
        return -1
    c = _canonical(ring)
    key = 0
    for t in range(5):
        key = key * (len(xs) + 1) + (c[t] + 1 if t < len(c) else 0)
    return key


@njit
def _thin_rings(xs: np.ndarray, ys: np.ndarray, clear: np.ndarray, tol: float) -> np.ndarray:
    """Every thin face as a row of 5 star ids in order around it (-1 in the last column for
    4 stars), each once, canonical (:func:`_canonical`).

    A simple polygon has a diagonal inside it, and with no star inside and its sides
    clear, only a star of its own can block that diagonal (any other star within the
    tolerance of it would be within the tolerance of the side between them).  So the
    rings are walked from each blocked pair x-y and a star v of theirs that blocks it:
    v between x and y on the ring (4 stars x-v-y-w; 5 stars x-v-y-q-p), or v next to x
    on the ring's longer way round (5 stars x-v-q-y-u).  A blocked pair has few
    blockers, so this is fast where walking every ring was not."""
    n = len(xs)
    cut = ~clear
    for i in range(n):
        cut[i, i] = False
    nbr = np.zeros((n, n), np.int64)  # nbr[i, :deg[i]]: the stars i has a clear pair with
    deg = np.zeros(n, np.int64)
    for i in range(n):
        for j in range(n):
            if clear[i, j]:
                nbr[i, deg[i]] = j
                deg[i] += 1
    keys = [np.int64(-1)]  # the faces found (-1: typing the list for numba)
    ring = np.zeros(5, np.int64)
    for x in range(n):
        for y in range(n):
            if x == y or clear[x, y]:
                continue
            for v in range(n):
                if v == x or v == y or not near_segment(xs[v], ys[v], xs[x], ys[x], xs[y], ys[y], tol):
                    continue
                if clear[x, v] and clear[v, y]:
                    if x < y:
                        for w in nbr[y, : deg[y]]:
                            if w != v and clear[w, x] and cut[v, w]:
                                ring[0], ring[1], ring[2], ring[3] = x, v, y, w
                                key = _face_key(xs, ys, ring[:4])
                                if key >= 0:
                                    keys.append(key)
                    for p in nbr[x, : deg[x]]:
                        if not (cut[y, p] and cut[v, p]):
                            continue
                        for q in nbr[p, : deg[p]]:
                            if clear[q, y] and cut[x, q] and cut[v, q]:
                                ring[0], ring[1], ring[2], ring[3], ring[4] = x, v, y, q, p
                                key = _face_key(xs, ys, ring)
                                if key >= 0:
                                    keys.append(key)
                elif clear[x, v]:
                    for q in nbr[v, : deg[v]]:
                        if not (clear[q, y] and cut[x, q]):
                            continue
                        for u in nbr[x, : deg[x]]:
                            if clear[u, y] and cut[v, u] and cut[q, u]:
                                ring[0], ring[1], ring[2], ring[3], ring[4] = x, v, q, y, u
                                key = _face_key(xs, ys, ring)
                                if key >= 0:
                                    keys.append(key)
    found = np.unique(np.array(keys))
    found = found[found >= 0]
    out = np.full((len(found), 5), -1, np.int64)
    for t in range(len(found)):
        key = found[t]
        for col in range(4, -1, -1):
            out[t, col] = key % (n + 1) - 1
            key //= n + 1
    return out


def thin_faces(board: Board) -> list[tuple[int, ...]]:
    """Faces of 4 or 5 stars that no line can ever split: the pairs around them are
    clear, every pair across them is blocked (it passes within the tolerance of one of
    the stars), and no star lies inside.  Each face is its stars in order around it,
    lowest star first."""
    n = board.n
    clear = np.zeros((n, n), np.bool_)  # clear[i, j]: the line i-j passes no star within the tolerance
    clear[board.pairs[:, 0], board.pairs[:, 1]] = board.clear.astype(bool)
    clear |= clear.T
    S = board.arrays
    rows = _thin_rings(S.xs, S.ys, clear, float(board.tolerance))
    return [tuple(int(v) for v in r if v >= 0) for r in rows]


@njit
def _crossing(xs: np.ndarray, ys: np.ndarray, pi: np.ndarray, pj: np.ndarray, a: int, b: int) -> np.ndarray:
    """The pair ids whose lines cross the segment a-b (the rules' crossing test)."""
    hit = np.zeros(len(pi), np.bool_)
    for p in range(len(pi)):
        hit[p] = segments_cross(xs[a], ys[a], xs[b], ys[b], xs[pi[p]], ys[pi[p]], xs[pj[p]], ys[pj[p]])
    return np.flatnonzero(hit)


@dataclass(frozen=True)
class FaceModel:
    """A board's thin faces, as the lines that form and prevent each."""

    #: each face's stars in order around it
    faces: tuple[tuple[int, ...], ...]
    #: each face's sides, as pair ids
    sides: tuple[np.ndarray, ...]
    #: for each face, for each of its sides, the pair ids of the lines that cross it
    crossers: tuple[tuple[np.ndarray, ...], ...]
    #: how many lines a game on the board lasts when no face is formed
    base: int
    #: (face, pair id) bool: the lines that cross a side of the face, and so prevent it
    #: (the union of its ``crossers``, built once rather than at every move)
    prevent: np.ndarray

    def preventers(self, f: int) -> np.ndarray:
        """A read-only bool mask over pair ids: the lines that cross a side of face ``f``."""
        return self.prevent[f]


@lru_cache(maxsize=8)
def face_model(board: Board) -> FaceModel:
    """The thin faces of ``board`` and the game's length without them (from one random game,
    corrected for the faces it formed).  Cached: a board's faces never change."""
    faces = tuple(thin_faces(board))
    S = board.arrays
    sides = tuple(np.array([board.pair_id(f[t], f[(t + 1) % len(f)]) for t in range(len(f))], np.int64) for f in faces)
    crossers = tuple(tuple(_crossing(S.xs, S.ys, S.pi, S.pj, int(S.pi[s]), int(S.pj[s])) for s in sd) for sd in sides)
    D = K.new_state(S, False)
    lines = int(K.random_playout(S, D, 0))
    drawn = D.line_owner >= 0
    base = lines + sum(len(f) - 3 for f, sd in zip(faces, sides, strict=True) if drawn[sd].all())
    prevent = np.zeros((len(faces), board.npairs), bool)
    for f, per_side in enumerate(crossers):
        for ids in per_side:
            prevent[f, ids] = True
    prevent.flags.writeable = False
    return FaceModel(faces=faces, sides=sides, crossers=crossers, base=base, prevent=prevent)


def steer(model: FaceModel, D: GameArrays, safe: np.ndarray, extra_turn: bool) -> np.ndarray:
    """The safe lines (pair ids) the mover should choose among so that the open 4-star
    faces end the way that gives the mover the last line; ``safe`` itself when the faces
    do not matter (the extra-turn rule, no face open) or no safe line helps.

    A face is formed once its sides are drawn, and as good as formed once no legal line
    crosses its undrawn sides; it is prevented once a drawn line crosses one; else open.
    Ahead (with every open face prevented the mover draws the last line): the safe lines
    that prevent the open face with the fewest legal preventers left (the one soonest out
    of reach), the most other open faces among them; else those that complete none.
    Behind: of the open face with the fewest legal preventers (the likeliest to survive),
    the unset safe side that the most legal lines cross (drawing it shuts them out), else
    the safe lines that leave that face open.
    """
    if extra_turn or not model.faces or len(safe) == 0:
        return safe
    drawn = D.line_owner >= 0
    legal = D.legal.astype(bool)
    length = model.base
    open4: list[int] = []
    threat: dict[int, int] = {}  # open face -> legal lines that would prevent it
    for f, sd in enumerate(model.sides):
        unset = ~drawn[sd]
        if (unset & ~legal[sd]).any():
            continue  # prevented
        left = sum(int(legal[model.crossers[f][t]].sum()) for t in np.flatnonzero(unset))
        if left == 0:
            length -= len(sd) - 3  # formed, or nothing left that could prevent it
        elif len(sd) == 4:
            open4.append(f)
            threat[f] = left
    if not open4:
        return safe
    player = int(D.counters[0]["player"])
    # line k (1-based) is drawn by player (k - 1) % 2
    ahead = (length - 1) % 2 == player
    if ahead:
        for f in sorted(open4, key=lambda f: threat[f]):
            hit = model.preventers(f)[safe]
            if hit.any():
                chosen = safe[hit]
                others = np.zeros(len(chosen), np.int64)
                for g in open4:
                    if g != f:
                        others += model.preventers(g)[chosen]
                return chosen[others == others.max()]
        last = [int(model.sides[f][~drawn[model.sides[f]]][0]) for f in open4 if (~drawn[model.sides[f]]).sum() == 1]
        keep = ~np.isin(safe, last)
        return safe[keep] if keep.any() else safe
    target = min(open4, key=lambda f: threat[f])
    sides, cross = model.sides[target], model.crossers[target]
    # its unset safe sides, the one that more legal lines cross first (it shuts them out)
    reach = [(int(legal[cross[t]].sum()), int(s)) for t, s in enumerate(sides) if np.isin(s, safe)]
    if reach:
        return np.array([max(reach)[1]], safe.dtype)
    keep = ~model.preventers(target)[safe]
    return safe[keep] if keep.any() else safe
