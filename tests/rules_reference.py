"""A slow, exact, obviously-correct Triangles rules engine for checking the fast one.

Pure Python over ``fractions.Fraction``: no numba, no incremental state, every
question answered from scratch straight from the rules' wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

Point = tuple[Fraction, Fraction]


def _orient(a: Point, b: Point, c: Point) -> Fraction:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _dist2_point_segment(p: Point, a: Point, b: Point) -> Fraction:
    dx, dy = b[0] - a[0], b[1] - a[1]
    len2 = dx * dx + dy * dy
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2
    t = min(max(t, Fraction(0)), Fraction(1))
    qx, qy = a[0] + t * dx, a[1] + t * dy
    return (p[0] - qx) ** 2 + (p[1] - qy) ** 2


def _proper_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Segments a-b and c-d share a point interior to both (the rules' "crosses")."""
    d1, d2 = _orient(a, b, c), _orient(a, b, d)
    d3, d4 = _orient(c, d, a), _orient(c, d, b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    if d1 == 0 and d2 == 0:  # collinear: interiors meet when the overlap has length
        lo1, hi1 = sorted((a, b))
        lo2, hi2 = sorted((c, d))
        return max(lo1, lo2) < min(hi1, hi2)
    return False  # touching at an endpoint, or apart


class RefGame:
    def __init__(self, stars: Sequence[Sequence[float]], tolerance: float, extra_turn: bool = False) -> None:
        self.p: list[Point] = [(Fraction(x), Fraction(y)) for x, y in stars]
        self.tol = Fraction(tolerance)
        self.extra = extra_turn
        self.n = len(self.p)
        self.drawn: dict[tuple[int, int], int] = {}
        self.order: list[tuple[int, int]] = []
        self.player = 0
        self.scores = [0, 0]
        self.history: list[tuple[tuple[int, int], int, int]] = []  # (move, player, points)

    # static facts
    def through_star(self, i: int, j: int) -> bool:
        return any(
            _dist2_point_segment(self.p[k], self.p[i], self.p[j]) <= self.tol * self.tol
            for k in range(self.n)
            if k not in (i, j)
        )

    def empty(self, i: int, j: int, k: int) -> bool:
        a, b, c = self.p[i], self.p[j], self.p[k]
        for s in range(self.n):
            if s in (i, j, k):
                continue
            o1, o2, o3 = _orient(a, b, self.p[s]), _orient(b, c, self.p[s]), _orient(c, a, self.p[s])
            if (o1 > 0 and o2 > 0 and o3 > 0) or (o1 < 0 and o2 < 0 and o3 < 0):
                return False
        return True

    # dynamic
    def why_illegal(self, i: int, j: int) -> str | None:
        if i == j:
            return "same_star"
        key = (min(i, j), max(i, j))
        if key in self.drawn:
            return "exists"
        if self.through_star(i, j):
            return "through_star"
        for a, b in self.drawn:
            if _proper_cross(self.p[i], self.p[j], self.p[a], self.p[b]):
                return "crosses"
        return None

    def is_over(self) -> bool:
        for a, b, c in combinations(range(self.n), 3):
            sides = [(a, b), (a, c), (b, c)]
            if all(s in self.drawn for s in sides):
                continue
            if not all(s in self.drawn or self.why_illegal(*s) is None for s in sides):
                continue
            if _orient(self.p[a], self.p[b], self.p[c]) == 0:
                continue
            if self.empty(a, b, c):
                return False
        return True

    def play(self, i: int, j: int) -> list[tuple[int, int, int]]:
        why = self.why_illegal(i, j)
        if why is not None:
            raise ValueError(why)
        if self.is_over():
            raise ValueError("game_over")
        i, j = min(i, j), max(i, j)
        closed = []
        for k in range(self.n):
            if k in (i, j):
                continue
            if (min(i, k), max(i, k)) in self.drawn and (min(j, k), max(j, k)) in self.drawn:
                if _orient(self.p[i], self.p[j], self.p[k]) != 0 and self.empty(i, j, k):
                    closed.append(tuple(sorted((i, j, k))))
        self.drawn[(i, j)] = self.player
        self.order.append((i, j))
        self.history.append(((i, j), self.player, len(closed)))
        self.scores[self.player] += len(closed)
        if not (self.extra and closed):
            self.player = 1 - self.player
        return sorted(closed)  # type: ignore[arg-type]

    def undo(self) -> None:
        (i, j), player, pts = self.history.pop()
        del self.drawn[(i, j)]
        self.order.pop()
        self.scores[player] -= pts
        self.player = player

    def legal_moves(self) -> list[tuple[int, int]]:
        if self.is_over():
            return []
        return [(i, j) for i, j in combinations(range(self.n), 2) if self.why_illegal(i, j) is None]

    def winner(self) -> int | None:
        if not self.is_over() or self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1
