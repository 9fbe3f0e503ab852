"""Counting facts the engine must reproduce: non-crossing graphs and triangulations."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from triangles.rules import Board, Game


def regular_polygon(n: int, radius: float = 1000.0) -> list[tuple[float, float]]:
    return [(radius * math.cos(2 * math.pi * k / n), radius * math.sin(2 * math.pi * k / n)) for k in range(n)]


def reachable_positions(game: Game) -> int:
    """Distinct sets of drawn lines reachable from here by legal play (DFS with play/undo)."""
    seen: set[int] = set()
    board = game.board

    def key() -> int:
        k = 0
        for (i, j), _ in game.lines:
            k |= 1 << board.pair_id(i, j)
        return k

    def walk() -> None:
        k = key()
        if k in seen:
            return
        seen.add(k)
        for m in game.legal_moves():
            game.play(*m)
            walk()
            game.undo()

    walk()
    return len(seen)


@pytest.mark.parametrize("n,count", [(3, 8), (4, 48), (5, 352), (6, 2880), (7, 25216)])
def test_positions_on_a_convex_polygon_are_the_non_crossing_graphs(n, count):
    game = Game(Board(regular_polygon(n), tolerance=0))
    assert reachable_positions(game) == count
    assert game.move_count == 0  # the walk left the game as it found it


def convex_hull_size(points: list[tuple[Fraction, Fraction]]) -> int:
    pts = sorted(set(points))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return len(lower) + len(upper) - 2


def in_general_position(points: list[tuple[Fraction, Fraction]]) -> bool:
    from itertools import combinations

    for a, b, c in combinations(points, 3):
        if (b[0] - a[0]) * (c[1] - a[1]) == (b[1] - a[1]) * (c[0] - a[0]):
            return False
    return True


@pytest.mark.parametrize("n,seed", [(12, 1), (20, 2), (24, 3), (40, 4), (60, 5)])
def test_a_finished_game_at_tolerance_zero_is_a_triangulation(n, seed):
    board = Board.random(n, 390, 660, seed=seed, tolerance=0)
    pts = [(Fraction(x), Fraction(y)) for x, y in board.stars]
    if n <= 40:  # the exact check is cubic; larger boards rely on the same scatter
        assert in_general_position(pts)
    h = convex_hull_size(pts)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        g = Game(board, extra_turn=bool(rng.integers(2)))
        while not g.is_over():
            moves = g.legal_moves()
            g.play(*moves[rng.integers(len(moves))])
        assert len(g.triangles) == 2 * n - 2 - h
        assert sum(g.scores) == 2 * n - 2 - h
        assert g.move_count == 3 * n - 3 - h
