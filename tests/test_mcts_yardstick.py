"""The independent MCTS yardstick (benchmarks/mcts.py): legal, reproducible, sane, and outside the engine."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import mcts  # noqa: E402
from triangles.presets import get_preset  # noqa: E402
from triangles.rules import Board, Game  # noqa: E402

PLAYOUTS = 300  # small: these are checks of behaviour, not of strength


def small_board(seed: int, stars: int = 12) -> Board:
    return get_preset("phone").make_board(stars, seed)


def test_the_module_never_imports_the_engine() -> None:
    tree = ast.parse((ROOT / "benchmarks" / "mcts.py").read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert names and not [m for m in names if m == "triangles.ai" or m.startswith("triangles.ai.")]
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import mcts; mcts.warm_up(); "
        "print(sorted(m for m in sys.modules if m == 'triangles.ai' or m.startswith('triangles.ai.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "benchmarks")], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("extra", [False, True])
def test_every_move_of_a_whole_game_is_legal(extra: bool) -> None:
    game = Game(small_board(3, 14), extra_turn=extra)
    player = mcts.MCTSPlayer(seed=5, playouts=PLAYOUTS)
    while not game.is_over():
        move = player(game)
        assert move in game.legal_moves()
        game.play(*move)
    assert player.calls > 0


def test_a_move_is_a_function_of_the_position_and_the_seed() -> None:
    game = Game(small_board(4, 14))
    rng = np.random.default_rng(4)
    for _ in range(5):
        game.play(*game.legal_moves()[int(rng.integers(game.legal_count()))])
    before = game.moves
    first = [mcts.mcts_move(game, PLAYOUTS, seed) for seed in range(4)]
    assert [mcts.mcts_move(game, PLAYOUTS, seed) for seed in range(4)] == first
    assert game.moves == before  # the search works on a copy


def a_triangle_on_offer(extra: bool) -> Game:
    """Four stars, three lines drawn: the player to move can close 0-1-2 (with 0-2) or 1-2-3 (with 1-3)."""
    board = Board([(0, 0), (100, 0), (50, 100), (50, 300)])
    game = Game(board, extra_turn=extra)
    game.play(0, 1)
    game.play(2, 3)
    game.play(1, 2)
    assert game.closes(0, 2) == 1
    return game


@pytest.mark.parametrize("extra", [False, True])
def test_it_takes_a_triangle_on_offer(extra: bool) -> None:
    game = a_triangle_on_offer(extra)
    assert game.closes(1, 3) == 1 and len(game.legal_moves()) > 2
    for seed in range(3):
        assert game.closes(*mcts.mcts_move(game, PLAYOUTS, seed)) == 1


def exact_values(game: Game) -> dict[tuple[int, int], int]:
    """Every legal move's exact value for the player to move (the engine's solver: this test may use it)."""
    from triangles.ai import solve

    out = {}
    for move in list(game.legal_moves()):
        me, closed = game.player, game.closes(*move)
        game.play(*move)
        value = solve(game, time_limit=None)
        out[move] = closed + (value if game.player == me else -value)
        game.undo()
    return out


@pytest.mark.parametrize("extra", [False, True])
def test_it_plays_an_exact_best_move_in_small_endgames_with_a_triangle_on_offer(extra: bool) -> None:
    for seed in range(4):
        game = Game(small_board(seed, 14), extra_turn=extra)
        rng = np.random.default_rng(seed)
        while not (game.legal_count() <= 12 and any(game.closes(*m) for m in game.legal_moves())):
            game.play(*game.legal_moves()[int(rng.integers(game.legal_count()))])
        values = exact_values(game)
        assert values[mcts.mcts_move(game, 1000, seed)] == max(values.values()), (extra, seed)


def test_the_default_budget_grows_with_smaller_boards() -> None:
    budgets = [mcts.default_playouts(n) for n in (12, 24, 60, 120, 180)]
    assert budgets == sorted(budgets, reverse=True)
    assert mcts.default_playouts(24) == 10000 and mcts.default_playouts(60) == 2530


def test_bad_budgets_are_refused() -> None:
    game = Game(small_board(1))
    with pytest.raises(ValueError, match="playouts"):
        mcts.mcts_move(game, 0)
    over = Game(Board([(0, 0), (100, 0)]))
    with pytest.raises(ValueError, match="over"):
        mcts.mcts_move(over)


@pytest.mark.parametrize("extra", [False, True])
def test_it_beats_random_clearly(extra: bool) -> None:
    score = 0.0
    games = 6
    for g in range(games):
        board = small_board(100 + g // 2, 13)
        game = Game(board, extra_turn=extra)
        mcts_side = g % 2
        me = mcts.MCTSPlayer(seed=g, playouts=PLAYOUTS)
        rng = np.random.default_rng(g)
        while not game.is_over():
            if game.player == mcts_side:
                game.play(*me(game))
            else:
                game.play(*game.legal_moves()[int(rng.integers(game.legal_count()))])
        diff = game.returns()[mcts_side]
        score += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
    assert score >= games - 1


def test_the_match_harness_knows_the_player() -> None:
    import ai_match

    game = Game(small_board(2, 14))
    play = ai_match.make_player("mcts:playouts=200,c=0.7", 9)
    assert play(game) == mcts.mcts_move(game, 200, 9 * 1000 + 1, c_uct=0.7)
    with pytest.raises(ValueError, match="'bogus' is not an mcts option"):
        ai_match.make_player("mcts:bogus=1", 0)
    with pytest.raises(ValueError, match="playouts must be a whole number"):
        ai_match.make_player("mcts:playouts=0", 0)
