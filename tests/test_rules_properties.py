"""The fast engine against the exact-arithmetic reference, on random small boards."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_reference import RefGame
from triangles.rules import Board, Game, IllegalMove

# integer coordinates on a small grid make collinear stars, stars on lines and
# near-misses common; tolerances are exact binary fractions so both engines agree exactly
boards = st.tuples(
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=3, max_size=7, unique=True),
    st.sampled_from([0.0, 0.5, 1.0, 2.0]),
    st.booleans(),
)


def same_position(g: Game, r: RefGame) -> None:
    assert g.player == r.player
    assert g.scores == tuple(r.scores)
    assert g.is_over() == r.is_over()
    assert g.winner() == r.winner()
    assert g.legal_moves() == r.legal_moves()
    assert [m for m, _ in g.lines] == r.order


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards, st.data())
def test_engine_matches_exact_reference(board_spec, data):
    stars, tol, extra = board_spec
    g = Game(Board(stars, tol), extra_turn=extra)
    r = RefGame(stars, tol, extra)
    n = len(stars)
    same_position(g, r)
    for _ in range(data.draw(st.integers(1, 25), label="steps")):
        action = data.draw(st.sampled_from(["legal", "any", "any", "undo"]), label="action")
        if action == "undo":
            if r.order:
                g.undo()
                r.undo()
            same_position(g, r)
            continue
        if action == "legal":
            legal = r.legal_moves()
            if not legal:
                continue
            i, j = data.draw(st.sampled_from(legal), label="move")
        else:
            i = data.draw(st.integers(0, n - 1), label="i")
            j = data.draw(st.integers(0, n - 1), label="j")
        assert g.why_illegal(i, j) == r.why_illegal(i, j)
        try:
            want = r.play(i, j)
        except ValueError as exc:
            want_reason = str(exc)
            try:
                g.play(i, j)
            except IllegalMove as e:
                assert e.reason == want_reason
            else:
                raise AssertionError(f"engine accepted {i}-{j}, reference says {want_reason}")
        else:
            assert g.play(i, j) == want
        same_position(g, r)


POSITION_FIELDS = ("counters", "legal", "line_owner", "cell_drawn", "cell_blocked", "cell_owner")


def position_arrays(g: Game) -> dict:
    """The arrays that make up the position itself (not the move history), by name."""
    a = g.arrays()
    return {name: getattr(a, name) for name in POSITION_FIELDS}


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(0, 2**32 - 1))
def test_whole_random_games_and_full_undo(board_spec, seed):
    import random

    stars, tol, extra = board_spec
    g = Game(Board(stars, tol), extra_turn=extra)
    r = RefGame(stars, tol, extra)
    rnd = random.Random(seed)
    snapshots = []
    while not r.is_over():
        snapshots.append(position_arrays(g))
        m = rnd.choice(r.legal_moves())
        assert g.play(*m) == r.play(*m)
        same_position(g, r)
    assert g.is_over() and g.legal_moves() == []
    # undo everything: each step restores the exact earlier state arrays
    while snapshots:
        g.undo()
        want = snapshots.pop()
        got = position_arrays(g)
        # the counters (blocked-stack top etc.) included; the history arrays past the top are scratch
        assert want.keys() == got.keys()
        assert all((want[k] == got[k]).all() for k in want), [k for k in want if not (want[k] == got[k]).all()]
