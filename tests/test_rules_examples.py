"""The examples the original rules describe (their figures are rebuilt here as coordinates)."""

from __future__ import annotations

import pytest

from triangles.rules import Board, Game, IllegalMove

A, B, C, D = 0, 1, 2, 3
SQUARE = [(0, 0), (100, 0), (100, 100), (0, 100)]  # A B C D counter-clockwise


def test_bd_refused_because_it_crosses_ac():
    g = Game(Board(SQUARE))
    g.play(A, C)
    assert g.why_illegal(B, D) == "crosses"
    with pytest.raises(IllegalMove) as e:
        g.play(B, D)
    assert e.value.reason == "crosses"
    assert g.move_count == 1 and g.player == 1


def test_ac_refused_because_it_passes_through_b():
    g = Game(Board([(0, 0), (50, 50), (100, 100), (0, 100)], tolerance=0))
    assert g.why_illegal(A, C) == "through_star"
    assert g.why_illegal(A, B) is None and g.why_illegal(B, C) is None


def test_through_star_uses_the_tolerance_in_board_units():
    # A-C is horizontal; B sits at distance 3 from it (exactly the default tolerance)
    def why(b_y: float, tol: float) -> str | None:
        return Game(Board([(0, 0), (50, b_y), (100, 0), (50, -80)], tolerance=tol)).why_illegal(A, C)

    assert why(3, 3.0) == "through_star"  # distance <= tolerance
    assert why(-3, 3.0) == "through_star"
    assert why(3.01, 3.0) is None
    assert why(3, 2.99) is None
    assert why(0, 0.0) == "through_star"  # tolerance 0: exactly on the line
    assert why(0.01, 0.0) is None
    # beyond an end of the segment only the distance to that end counts
    assert Game(Board([(0, 0), (102.9, 0), (100, 0.5), (50, 80)], tolerance=3)).why_illegal(0, 2) == "through_star"
    assert Game(Board([(0, 0), (103.5, 0), (100, 0.5), (50, 80)], tolerance=3)).why_illegal(0, 2) is None


def test_big_triangle_with_a_star_inside_scores_nothing_but_the_small_ones_do():
    g = Game(Board([(0, 0), (200, 0), (100, 200), (100, 70)]))  # D inside ABC
    assert g.play(A, B) == []
    assert g.play(B, C) == []
    assert g.play(A, C) == []  # closes ABC, but D is inside
    assert g.scores == (0, 0)
    assert g.play(D, A) == []
    assert g.play(D, B) == [(A, B, D)]
    assert g.play(C, D) == [(A, C, D), (B, C, D)]
    assert g.scores == (1, 2)  # moves alternate: D-B was player 0's, C-D player 1's
    assert g.is_over()
    assert g.winner() == 1
    assert sorted(t for t, _ in g.triangles) == [(0, 1, 3), (0, 2, 3), (1, 2, 3)]


def test_square_diagonal_closes_two_triangles_at_once():
    g = Game(Board(SQUARE))
    for m in [(A, B), (B, C), (C, D), (D, A)]:
        assert g.play(*m) == []
    assert g.player == 0
    assert g.play(A, C) == [(A, B, C), (A, C, D)]
    assert g.scores == (2, 0)
    assert g.triangles == [((0, 1, 2), 0), ((0, 2, 3), 0)]
    assert g.is_over()


@pytest.mark.parametrize("extra_turn", [False, True])
def test_move_again_after_a_triangle(extra_turn):
    g = Game(Board(SQUARE), extra_turn=extra_turn)
    g.play(A, B)  # move 1, player 0
    g.play(B, C)  # move 2, player 1
    assert g.player == 0
    assert g.play(A, C) == [(A, B, C)]  # move 3 closes ABC for player 0
    assert g.scores == (1, 0)
    if extra_turn:
        assert g.player == 0  # moves again
        g.play(C, D)
        assert g.player == 1
    else:
        assert g.player == 1
    # a line that scores nothing always passes the turn
    g2 = Game(Board(SQUARE), extra_turn=True)
    g2.play(A, B)
    assert g2.player == 1


def test_a_whole_game_that_ends_in_a_draw():
    g = Game(Board(SQUARE))
    g.play(A, B)  # P1
    g.play(C, D)  # P2
    g.play(B, C)  # P1
    assert g.play(A, C) == [(A, B, C)]  # P2 scores
    assert not g.is_over()
    assert g.play(D, A) == [(A, C, D)]  # P1 scores
    assert g.scores == (1, 1)
    assert g.is_over()
    assert g.winner() is None
    with pytest.raises(IllegalMove) as e:
        g.play(B, D)
    assert e.value.reason in ("crosses", "game_over")


def test_game_can_end_while_lines_are_still_legal():
    # a star inside the big triangle; once the three small ones are closed, the
    # big one is all drawn-or-illegal: over, even though nothing is left to draw
    # ... and here a case where lines stay legal: two far-apart triangles' worth of
    # stars with a star in the middle of a long line
    stars = [(0, 0), (100, 0), (50, 80), (300, 0)]  # A B C E; B lies on A-E
    g = Game(Board(stars, tolerance=0))
    g.play(0, 1)
    g.play(1, 2)
    g.play(0, 2)  # closes ABC
    assert g.scores == (1, 0)
    # triangle B-C-E is still closable, so not over yet
    assert not g.is_over()
    g.play(1, 3)
    g.play(2, 3)
    assert g.is_over()
    assert g.legal_moves() == []
    assert g.why_illegal(0, 3) == "through_star"


def test_reasons_are_checked_in_order_and_bad_indices_raise():
    g = Game(Board(SQUARE))
    g.play(A, C)
    assert g.why_illegal(A, A) == "same_star"
    assert g.why_illegal(C, A) == "exists"
    with pytest.raises(ValueError):
        g.why_illegal(0, 4)
    with pytest.raises(ValueError):
        g.why_illegal(-1, 2)
    with pytest.raises(ValueError):
        g.play(0, 9)
    with pytest.raises(IllegalMove) as e:
        g.play(2, 2)
    assert e.value.reason == "same_star" and isinstance(e.value, ValueError)


def test_play_accepts_either_order_and_undo_restores_everything():
    g = Game(Board(SQUARE), extra_turn=True)
    g.play(B, A)
    assert g.lines == [((0, 1), 0)]
    g.play(C, B)
    before = (g.player, g.scores, g.lines, g.triangles, g.legal_moves(), g.is_over())
    g.play(C, A)
    assert g.scores == (1, 0) and g.player == 0
    assert g.undo() == (0, 2)
    assert (g.player, g.scores, g.lines, g.triangles, g.legal_moves(), g.is_over()) == before
    g.undo()
    g.undo()
    with pytest.raises(ValueError):
        g.undo()
    assert g.legal_moves() == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def test_tiny_boards_are_over_at_once():
    for stars in ([], [(0, 0)], [(0, 0), (5, 5)]):
        g = Game(Board(stars))
        assert g.is_over() and g.legal_moves() == [] and g.winner() is None
    g = Game(Board([(0, 0), (5, 5), (10, 10)], tolerance=0))  # collinear: no triangle at all
    assert g.is_over()


def test_illegal_play_changes_nothing():
    g = Game(Board(SQUARE))
    g.play(A, C)
    snap = g.arrays()
    for m, reason in [((B, D), "crosses"), ((A, C), "exists"), ((1, 1), "same_star")]:
        with pytest.raises(IllegalMove) as e:
            g.play(*m)
        assert e.value.reason == reason
    after = g.arrays()
    assert all((getattr(snap, f) == getattr(after, f)).all() for f in snap._fields)


def test_game_over_reason():
    g = Game(Board(SQUARE))
    for m in [(A, B), (B, C), (C, D), (D, A), (A, C)]:
        g.play(*m)
    assert g.is_over()
    with pytest.raises(IllegalMove) as e:
        g.play(B, D)
    assert e.value.reason in ("game_over", "crosses")


def test_clone_is_independent():
    g = Game(Board(SQUARE))
    g.play(A, B)
    h = g.clone()
    h.play(B, C)
    assert g.move_count == 1 and h.move_count == 2
    assert g.legal_mask().sum() == 5 and h.legal_mask().sum() == 4
    with pytest.raises(ValueError):
        g.legal_mask()[0] = True  # read-only view
