"""``Game.legal_moves()`` is a cheap sorted view that behaves like the list it replaced."""

from __future__ import annotations

import random

import numpy as np
import pytest

from triangles.rules import Board, Game, LegalMoves


def old_list(g: Game) -> list[tuple[int, int]]:
    """What ``legal_moves()`` returned before it became a view."""
    return [(int(i), int(j)) for i, j in g.legal_moves_array().tolist()]


@pytest.mark.parametrize("n, seed, extra", [(12, 1, False), (24, 2, True), (60, 3, False), (120, 4, False)])
def test_the_view_equals_the_old_list_through_random_games(n, seed, extra):
    g = Game(Board.random(n, 390, 660, seed), extra_turn=extra)
    rnd = random.Random(seed)
    while True:
        view, want = g.legal_moves(), old_list(g)
        assert view == want and len(view) == len(want) and list(view) == want
        if want:
            k = rnd.randrange(len(want))
            assert view[k] == want[k] and view[-1] == want[-1] and view[1:4] == want[1:4]
            assert want[k] in view and (want[k][1], want[k][0]) not in view  # moves are (i, j), i < j
        assert np.array_equal(np.asarray(view), g.legal_moves_array())
        if g.is_over():
            break
        g.play(*rnd.choice(g.legal_moves()))
    assert g.legal_moves() == [] and len(g.legal_moves()) == 0


def test_membership_and_length_need_no_list():
    g = Game(Board.random(24, 390, 660, 9))
    view = g.legal_moves()
    assert len(view) == g.legal_count()
    i, j = old_list(g)[0]
    assert (i, j) in view and (0, 0) not in view and (0, 99) not in view and "x" not in view  # type: ignore[comparison-overlap]


def test_a_view_keeps_describing_the_position_it_was_taken_in():
    g = Game(Board([(0, 0), (100, 0), (100, 100), (0, 100)]))
    before = g.legal_moves()
    g.play(0, 2)
    assert before == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert (1, 3) in before and len(before) == 6
    assert g.legal_moves() == [(0, 1), (0, 3), (1, 2), (2, 3)]
    g.undo()
    assert g.legal_moves() == before


def test_the_game_does_not_keep_views_alive_or_pile_them_up():
    import gc
    import tracemalloc
    import weakref

    g = Game(Board.random(12, 390, 660, 5))
    ref = weakref.ref(g.legal_moves())
    gc.collect()
    assert ref() is None
    for _ in range(200):  # warm up whatever is allocated once
        len(g.legal_moves())
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(20_000):
        len(g.legal_moves())
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 50_000, grown  # 20,000 dead views would be about 1.5 MB


def test_it_is_a_sequence_and_not_hashable():
    from collections.abc import Sequence

    view = Game(Board.random(12, 390, 660, 5)).legal_moves()
    assert isinstance(view, (Sequence, LegalMoves))
    with pytest.raises(TypeError):
        hash(view)
    with pytest.raises(IndexError):
        view[10_000]
