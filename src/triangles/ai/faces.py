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
each 5-star one, where ``base`` is the length with every face prevented (on 40
24-star boards, 30 random games each, that held in every game).  Each open
4-star face is a switch: one crossing line prevents it, drawing its last side
forms it.  :func:`steer` narrows the mover's safe lines to those that set the
switches its way.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from triangles import kernels as K
from triangles.kernels import segments_cross

if TYPE_CHECKING:
    from triangles.kernels import GameArrays
    from triangles.rules import Board

__all__ = ["FaceModel", "face_model", "thin_faces", "steer"]


def _inside(pt: np.ndarray, poly: np.ndarray) -> bool:
    """Even-odd rule: whether ``pt`` is inside the polygon ``poly`` (k, 2)."""
    x, y = float(pt[0]), float(pt[1])
    hit = False
    for t in range(len(poly)):
        (x1, y1), (x2, y2) = poly[t], poly[(t + 1) % len(poly)]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def thin_faces(board: Board) -> list[tuple[int, ...]]:
    """Faces of 4 or 5 stars that no line can ever split: the pairs around them are
    clear, every pair across them is blocked (it passes within the tolerance of one of
    the stars), and no star lies inside.  Each face is its stars in order around it."""
    n = board.n
    clear = np.zeros((n, n), bool)  # clear[i, j]: the line i-j passes no star within the tolerance
    clear[board.pairs[:, 0], board.pairs[:, 1]] = board.clear.astype(bool)
    clear |= clear.T
    cut = ~clear  # blocked pairs
    np.fill_diagonal(cut, False)
    found: set[frozenset[int]] = set()
    faces: list[tuple[int, ...]] = []

    def consider(stars: frozenset[int]) -> None:
        if stars in found:
            return
        found.add(stars)
        sides = [(a, b) for a, b in itertools.combinations(sorted(stars), 2) if clear[a, b]]
        if len(sides) != len(stars):
            return
        ring: dict[int, list[int]] = {v: [] for v in stars}
        for a, b in sides:
            ring[a].append(b)
            ring[b].append(a)
        if any(len(r) != 2 for r in ring.values()):
            return
        order = [min(stars)]
        prev = -1
        while len(order) < len(stars):
            nxt = ring[order[-1]][0] if ring[order[-1]][0] != prev else ring[order[-1]][1]
            prev = order[-1]
            order.append(nxt)
        if order[0] not in ring[order[-1]]:
            return  # two rings, not one
        poly = board.stars[order]
        k = len(order)
        for a in range(k):  # sides that cross: not a face
            for b in range(a + 2, k):
                if a == 0 and b == k - 1:
                    continue
                if segments_cross(*poly[a], *poly[(a + 1) % k], *poly[b], *poly[(b + 1) % k]):
                    return
        if any(_inside(board.stars[v], poly) for v in range(n) if v not in stars):
            return
        faces.append(tuple(order))

    # Stars in order around the face: the sides a-b, b-c, c-d, (d-e, e-a or d-a) are clear,
    # every other pair blocked.  Walk it from each blocked pair a-c with numpy masks (a star
    # with itself is neither clear nor blocked, so no step returns to the star it leaves).
    for a, c in zip(*np.nonzero(np.triu(cut, 1)), strict=True):
        a, c = int(a), int(c)
        for b in np.flatnonzero(clear[a] & clear[c]):
            for d in np.flatnonzero(clear[c] & cut[b]):  # d != a: a-b is clear
                if clear[d, a]:
                    consider(frozenset((a, int(b), c, int(d))))
                else:
                    for e in np.flatnonzero(clear[d] & clear[a] & cut[b] & cut[c]):
                        consider(frozenset((a, int(b), c, int(d), int(e))))
    return faces


@dataclass(frozen=True)
class FaceModel:
    """A board's thin faces, as the lines that form and prevent each."""

    #: each face's stars in order around it
    faces: tuple[tuple[int, ...], ...]
    #: each face's sides, as pair ids
    sides: tuple[np.ndarray, ...]
    #: for each face, a bool mask (side, pair id): the lines that cross that side, and so prevent it
    crossers: tuple[np.ndarray, ...]
    #: how many lines a game on the board lasts when no face is formed
    base: int


@lru_cache(maxsize=8)
def face_model(board: Board) -> FaceModel:
    """The thin faces of ``board`` and the game's length without them (from one random game,
    corrected for the faces it formed).  Cached: a board's faces never change."""
    faces = tuple(thin_faces(board))
    S = board.arrays
    sides = tuple(np.array([board.pair_id(f[t], f[(t + 1) % len(f)]) for t in range(len(f))], np.int64) for f in faces)
    xs, ys, pi, pj = S.xs, S.ys, S.pi, S.pj
    crossers = []
    for sd in sides:
        mask = np.zeros((len(sd), board.npairs), bool)
        for t, s in enumerate(sd):
            a, b = int(pi[s]), int(pj[s])
            for p in range(board.npairs):
                mask[t, p] = segments_cross(xs[a], ys[a], xs[b], ys[b], xs[pi[p]], ys[pi[p]], xs[pj[p]], ys[pj[p]])
        crossers.append(mask)
    D = K.new_state(S, False)
    lines = int(K.random_playout(S, D, 0))
    drawn = D.line_owner >= 0
    base = lines + sum(len(f) - 3 for f, sd in zip(faces, sides, strict=True) if drawn[sd].all())
    return FaceModel(faces=faces, sides=sides, crossers=tuple(crossers), base=base)


def steer(model: FaceModel, D: GameArrays, safe: np.ndarray, extra_turn: bool) -> np.ndarray:
    """The safe lines (pair ids) the mover should choose among so that the open 4-star
    faces end the way that gives the mover the last line; ``safe`` itself when the faces
    do not matter (the extra-turn rule, no face open) or no safe line helps.

    Ahead (with every open face prevented the mover draws the last line): the safe lines
    that prevent the most open faces, else those that complete none.  Behind: of the open
    face nearest to formed, the unset safe side that the most legal lines cross (drawing
    it shuts them out), else the safe lines that leave that face open.
    """
    if extra_turn or not model.faces or len(safe) == 0:
        return safe
    drawn = D.line_owner >= 0
    legal = D.legal.astype(bool)
    length = model.base
    open4: list[int] = []
    for f, sd in enumerate(model.sides):
        if drawn[sd].all():
            length -= len(sd) - 3  # formed
        elif len(sd) == 4 and not (~drawn[sd] & ~legal[sd]).any():
            open4.append(f)
    if not open4:
        return safe
    player = int(D.counters[0]["player"])
    # line k (1-based) is drawn by player (k - 1) % 2
    ahead = (length - 1) % 2 == player
    if ahead:
        hits = sum(model.crossers[f][:, safe].any(axis=0).astype(np.int64) for f in open4)
        if hits.max() > 0:
            return safe[hits == hits.max()]
        last = [int(model.sides[f][~drawn[model.sides[f]]][0]) for f in open4 if (~drawn[model.sides[f]]).sum() == 1]
        keep = ~np.isin(safe, last)
        return safe[keep] if keep.any() else safe
    target = max(open4, key=lambda f: int(drawn[model.sides[f]].sum()))
    sides, cross = model.sides[target], model.crossers[target]
    # its unset safe sides, the one that more legal lines cross first (it shuts them out)
    threats = [(int((cross[t] & legal).sum()), int(s)) for t, s in enumerate(sides) if np.isin(s, safe)]
    if threats:
        return np.array([max(threats)[1]], safe.dtype)
    keep = ~cross[:, safe].any(axis=0)
    return safe[keep] if keep.any() else safe
