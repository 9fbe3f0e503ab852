"""The geometry primitives against exact arithmetic."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_reference import _dist2_point_segment, _orient, _proper_cross
from triangles import kernels as K

pts = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


def F(p):
    return (Fraction(p[0]), Fraction(p[1]))


@settings(max_examples=400, deadline=None)
@given(pts, pts, pts, pts)
def test_segments_cross_matches_exact(a, b, c, d):
    if a == b or c == d:
        return
    got = K.segments_cross(*a, *b, *c, *d)
    want = _proper_cross(F(a), F(b), F(c), F(d))
    if got != want:
        # the kernel ignores collinear overlaps: on a board they always pass through a star
        assert _orient(F(a), F(b), F(c)) == 0 and _orient(F(a), F(b), F(d)) == 0
        assert want and not got


@settings(max_examples=400, deadline=None)
@given(pts, pts, pts, st.sampled_from([0, 0.5, 1, 2, 3]))
def test_near_segment_matches_exact(p, a, b, tol):
    if a == b:
        return
    assert K.near_segment(*p, *a, *b, float(tol)) == (_dist2_point_segment(F(p), F(a), F(b)) <= Fraction(tol) ** 2)


@settings(max_examples=400, deadline=None)
@given(pts, pts, pts, pts)
def test_strictly_inside_matches_exact(p, a, b, c):
    o = [_orient(F(a), F(b), F(p)), _orient(F(b), F(c), F(p)), _orient(F(c), F(a), F(p))]
    want = all(v > 0 for v in o) or all(v < 0 for v in o)
    assert K.strictly_inside(*p, *a, *b, *c) == want


def _check_legal_list(game) -> None:
    D = game.arrays()
    n = int(D.counters[0]["nlegal"])
    head = D.legal_list[:n]
    assert sorted(head.tolist()) == np.flatnonzero(D.legal).tolist()
    assert (D.legal_pos[head] == np.arange(n)).all()
    assert sorted(D.legal_list.tolist()) == list(range(len(D.legal)))  # a permutation: nothing lost


@settings(max_examples=60, deadline=None)
@given(st.integers(8, 30), st.integers(0, 10_000), st.booleans(), st.lists(st.booleans(), min_size=5, max_size=80))
def test_the_legal_list_follows_play_and_undo_exactly(n, seed, extra, steps):
    """``legal_list[:nlegal]`` holds exactly the legal pairs after any play / undo, and an undo puts the
    list and its index back exactly as they were (the search's make / unmake relies on it)."""
    from triangles.rules import Board, Game

    game = Game(Board.random(n, 300, 300, seed=seed, tolerance=3), extra)
    rng = np.random.default_rng(seed)
    saved: list[tuple[np.ndarray, np.ndarray]] = []
    _check_legal_list(game)
    for forward in steps:
        if forward and not game.is_over():
            D = game.arrays()
            saved.append((D.legal_list.copy(), D.legal_pos.copy()))
            moves = game.legal_moves()
            game.play(*moves[int(rng.integers(len(moves)))])
        elif saved:
            game.undo()
            D = game.arrays()
            lst, pos = saved.pop()
            assert (D.legal_list == lst).all() and (D.legal_pos == pos).all()
        _check_legal_list(game)
