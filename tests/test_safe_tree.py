"""The tree over the safe lines (:mod:`triangles.ai.safe_tree`) against brute force on small positions."""

from __future__ import annotations

import numpy as np
import pytest

from triangles.ai import phase as P
from triangles.ai.safe_tree import safe_tree
from triangles.presets import get_preset
from triangles.rules import Game

from test_phase import assert_restored, safe_ids, snapshot, take_ref

NO_ABORT = np.zeros(1, np.uint8)


def safe_positions(extra: bool, count: int, most: int = 99) -> list[Game]:
    """Small positions with nothing to take and two to ``most`` safe lines: random games
    (seeded) stopped at the first such position after a random number of lines."""
    rng = np.random.default_rng(77 + extra)
    out: list[Game] = []
    while len(out) < count:
        g = Game(get_preset("phone").make_board(int(rng.choice([8, 9, 10, 12])), int(rng.integers(1 << 30))), extra_turn=extra)
        start = int(rng.integers(0, 12))
        while not g.is_over():
            if g.move_count >= start and take_ref(g) < 0 and 2 <= len(safe_ids(g)) <= most:
                out.append(g)
                break
            moves = g.legal_moves()
            g.play(*moves[int(rng.integers(len(moves)))])
    return out


def minimax_ref(g: Game) -> int:
    """The mover's margin when both sides choose among the safe lines perfectly and the
    position where none is left is valued by :func:`P.playout` (played on clones)."""
    safe = safe_ids(g)
    if not safe:
        return int(P.playout(g.board.arrays, g.arrays(), 8)[0])
    best = None
    for p in safe:
        child = g.clone()
        child.play(*g.board.pair(p))  # a safe line scores nothing and gives nothing
        v = -minimax_ref(child) if child.player != g.player else minimax_ref(child)
        best = v if best is None else max(best, v)
    return best


@pytest.mark.parametrize("extra", [False, True])
def test_tree_names_a_safe_line_and_leaves_the_position(extra: bool) -> None:
    """A safe line, the same one for the same seed; the root's visits add up to the
    samples; the budget is spent, a budget of two scans (the root and one more) runs one sample, and a raised
    abort flag runs none."""
    games = safe_positions(extra, 15, most=20)
    for g in games:
        S, D = g.board.arrays, g.arrays()
        before = snapshot(D)
        safe = safe_ids(g)
        visits = np.zeros(len(safe), np.int64)
        pair, work, samples = safe_tree(S, D, 8, 5, 30000, 2.0, 4, 4096, 0, visits, NO_ABORT)
        assert pair in safe
        assert samples > 0 and int(visits.sum()) == samples
        assert (visits > 0).all()  # every root line is tried before any twice
        assert work >= 30000
        again = np.zeros(len(safe), np.int64)
        assert safe_tree(S, D, 8, 5, 30000, 2.0, 4, 4096, 0, again, NO_ABORT) == (pair, work, samples)
        np.testing.assert_array_equal(again, visits)
        assert safe_tree(S, D, 8, 5, 30000, 2.0, 4, 4096, 0, again, np.ones(1, np.uint8))[::2] == (-1, 0)
        assert safe_tree(S, D, 8, 5, 2, 2.0, 4, 4096, 0, again, NO_ABORT)[2] == 1
        assert_restored(D, before)


@pytest.mark.parametrize("extra", [False, True])
def test_a_grown_tree_plays_the_minimax_safe_line(extra: bool) -> None:
    """With every node grown at once and budget enough to cover the whole safe phase,
    the tree's line has the best value of the safe lines' minimax (leaves valued by the
    playout), as brute force finds it."""
    varied = 0
    for g in safe_positions(extra, 12, most=5):
        S, D = g.board.arrays, g.arrays()
        values = {}
        for p in safe_ids(g):
            child = g.clone()
            child.play(*g.board.pair(p))
            values[p] = -minimax_ref(child) if child.player != g.player else minimax_ref(child)
        pair, _, _ = safe_tree(S, D, 8, 3, 400_000, 2.0, 1, 1 << 16, 0, np.zeros(8, np.int64), NO_ABORT)
        assert values[pair] == max(values.values()), (values, pair)
        varied += len(set(values.values())) > 1
    assert varied >= 5  # positions where the choice matters
