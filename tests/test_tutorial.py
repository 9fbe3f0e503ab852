"""The How to play examples, checked against the rules engine they are played through."""

from __future__ import annotations

import pytest

from triangles.rules import Game
from triangles.tutorial import EXAMPLES, example, mismatches, play_example

A, B, C, D, E = 0, 1, 2, 3, 4


def test_there_are_six_examples_in_the_rules_order():
    assert [ex.key for ex in EXAMPLES] == ["cross", "through", "inside", "diagonal", "again", "draw"]
    for ex in EXAMPLES:
        assert len(ex.labels) == len(ex.stars) == ex.board().n
        assert ex.title == f"howto.{ex.key}.title" and ex.caption.startswith("howto.") and ex.text.startswith("howto.")


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda ex: ex.key)
def test_every_scripted_step_is_what_the_engine_says(ex):
    frames = play_example(ex)
    assert len(frames) == len(ex.steps) + 1
    assert mismatches(ex, frames) == []
    # each frame agrees with a game replayed independently from the drawn lines
    for fr in frames:
        g = Game.from_moves(ex.board(), [m for m, _ in fr.lines], extra_turn=ex.extra_turn)
        assert g.lines == list(fr.lines)
        assert g.scores == fr.scores and g.player == fr.to_move and g.is_over() == fr.over
        assert g.triangles == list(fr.triangles)


def test_a_refused_step_changes_nothing_and_keeps_the_turn():
    for ex in EXAMPLES:
        frames = play_example(ex)
        for before, fr in zip(frames[:-1], frames[1:], strict=True):
            if fr.refused is not None:
                assert fr.lines == before.lines and fr.scores == before.scores
                assert fr.to_move == before.to_move == fr.player
                assert fr.move_number is None and fr.closed == ()


def test_example_1_bd_is_refused_because_it_crosses_ac():
    frames = play_example(example("cross"))
    assert frames[1].move == (A, C) and frames[1].refused is None
    assert frames[2].move == (B, D) and frames[2].refused == "crosses"
    assert frames[2].player == 1
    # lines may share a star: B-C after A-C is fine
    assert frames[3].move == (B, C) and frames[3].refused is None


def test_example_2_ac_is_refused_because_it_passes_through_b():
    ex = example("through")
    frames = play_example(ex)
    assert frames[1].move == (A, C) and frames[1].refused == "through_star"
    assert Game(ex.board()).why_illegal(A, C) == "through_star"
    assert [fr.refused for fr in frames[2:]] == [None, None]  # A-B and B-C are allowed


def test_example_3_the_big_triangle_scores_nothing_and_the_small_ones_do():
    frames = play_example(example("inside"))
    big = frames[3]
    assert big.move == (A, C)
    assert big.closed == () and big.scores == (0, 0)
    assert big.unscored == ((A, B, C),) and big.inside == ((D,),)
    small = [t for fr in frames for t in fr.closed]
    assert sorted(small) == [(A, B, D), (A, C, D), (B, C, D)]
    last = frames[-1]
    assert sum(last.scores) == 3 and last.over
    assert (A, B, C) not in [t for t, _ in last.triangles]


def test_example_4_the_diagonal_closes_two_triangles_for_two_points():
    frames = play_example(example("diagonal"))
    last = frames[-1]
    assert last.move == (A, C)
    assert last.closed == ((A, B, C), (A, C, D))
    assert last.player == 0
    assert last.scores[0] - frames[-2].scores[0] == 2
    assert last.over and last.winner == 0


def test_example_5_player_1_closes_on_move_3_and_moves_again():
    ex = example("again")
    assert ex.extra_turn
    frames = play_example(ex)
    third = next(fr for fr in frames if fr.move_number == 3)
    assert third.player == 0 and len(third.closed) == 1
    assert third.moves_again and third.to_move == 0
    fourth = next(fr for fr in frames if fr.move_number == 4)
    assert fourth.player == 0  # Player 1 draws again
    # without the option the same line passes the turn
    g = Game(ex.board(), extra_turn=False)
    for step in ex.steps[:3]:
        g.play(*step.move)
    assert g.player == 1


def test_example_6_ends_in_a_draw():
    ex = example("draw")
    frames = play_example(ex)
    g = Game.from_moves(ex.board(), [s.move for s in ex.steps], extra_turn=ex.extra_turn)
    assert g.is_over() and g.winner() is None and g.scores[0] == g.scores[1] > 0
    assert frames[-1].over and frames[-1].winner is None
    assert all(not fr.over for fr in frames[:-1])  # it ends exactly on the last line


def test_a_wrong_script_is_reported_not_hidden():
    from dataclasses import replace

    from triangles.tutorial import Step

    ex = example("cross")
    wrong = replace(ex, steps=(Step((A, C)), Step((B, D), refused="through_star")))
    assert mismatches(wrong) and "crosses" in mismatches(wrong)[0]
    wrong_score = replace(example("diagonal"), steps=example("diagonal").steps[:-1] + (Step((A, C), scores=1),))
    assert "scored 2" in mismatches(wrong_score)[0]
    with pytest.raises(KeyError):
        example("nope")
