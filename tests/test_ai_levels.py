"""The computer's levels are data (triangles.ai.levels) and its seeds are whole numbers."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from triangles.ai import LEVELS, Level, choose_move, hint, last_info
from triangles.players import LEVEL_NAMES, LevelName
from triangles.presets import get_preset
from triangles.rules import Board, Game


@pytest.fixture(scope="module")
def game() -> Game:
    g = Game(get_preset("phone").make_board(24, 8))
    rng = np.random.default_rng(8)
    for _ in range(12):
        moves = g.legal_moves()
        g.play(*moves[int(rng.integers(len(moves)))])
    return g


def test_the_table_is_keyed_by_the_level_vocabulary_in_order() -> None:
    assert tuple(LEVELS) == LEVEL_NAMES
    assert all(LEVELS[name].name == name for name in LEVEL_NAMES)


def test_a_level_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        LEVELS["hard"].work = 1  # type: ignore[misc]


def test_a_level_takes_keyword_arguments_only() -> None:
    with pytest.raises(TypeError):
        Level("x", 4, 10, 1, 2, 1.0, 60_000, 0.04, 18)  # type: ignore[call-arg]


def test_the_table_cannot_be_written_to() -> None:
    with pytest.raises(TypeError):
        LEVELS["expert"] = LEVELS["hard"]  # type: ignore[index]


def test_the_table_size_is_a_field_of_the_level() -> None:
    assert [LEVELS[name].tt_bits for name in LEVEL_NAMES] == [18, 20, 20]
    assert dataclasses.replace(LEVELS["easy"], tt_bits=12).tt_bits == 12


@pytest.mark.parametrize(
    "change",
    [
        {"tt_bits": 2},
        {"tt_bits": 40},
        {"width": 0},
        {"max_depth": 0},
        {"lapse": -0.1},
        {"lapse": 1.5},
        {"lapse_extra": 2.0},
    ],
)
def test_a_level_out_of_range_is_refused(change: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(change))):
        dataclasses.replace(LEVELS["medium"], **change)


def test_a_variant_made_with_replace_plays_and_leaves_the_table_alone(game: Game) -> None:
    before = dict(LEVELS)
    hard = LEVELS["hard"]
    variant = dataclasses.replace(hard, work=hard.work // 4, noise=0.5, name="hard-quick")
    move = choose_move(game, variant, seed=3)
    assert game.is_legal(*move)
    assert last_info().level == "hard-quick"
    assert dict(LEVELS) == before and LEVELS["hard"] is hard and hard.work == 10_000_000 and hard.noise == 0.0


@pytest.mark.parametrize("name", LEVEL_NAMES)
def test_a_level_passed_as_data_plays_as_its_name(game: Game, name: LevelName) -> None:
    copy = dataclasses.replace(LEVELS[name])
    assert copy == LEVELS[name] and copy is not LEVELS[name]
    assert choose_move(game, copy, seed=11, time_limit=30) == choose_move(game, name, seed=11, time_limit=30)


@pytest.mark.parametrize("level", ["impossible", "Hard", "", None, 3, ["hard"]])
def test_an_unknown_level_is_refused(game: Game, level: object) -> None:
    with pytest.raises(ValueError, match="unknown level"):
        choose_move(game, level)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["3", 3.0, 2.5, True, False, np.bool_(True), (1, 2), b"3"])
def test_a_seed_that_is_not_a_whole_number_is_refused(game: Game, seed: object) -> None:
    with pytest.raises(ValueError, match="seed must be a whole number"):
        choose_move(game, "easy", seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be a whole number"):
        hint(game, seed=seed)  # type: ignore[arg-type]


def test_whole_number_seeds_are_accepted_and_numpy_integers_count_as_ints(game: Game) -> None:
    for level in LEVEL_NAMES:
        assert choose_move(game, level, seed=np.int64(7)) == choose_move(game, level, seed=7)  # type: ignore[arg-type]
    assert game.is_legal(*choose_move(game, "easy", seed=None))
    assert game.is_legal(*choose_move(game, "easy", seed=-5))
    assert game.is_legal(*choose_move(game, "easy", seed=2**80))


def test_a_seed_gives_the_same_move_in_another_process() -> None:
    """No per-process hashing: the move for a seed is the same in a fresh interpreter."""
    import subprocess
    import sys

    code = (
        "from triangles.ai import choose_move\n"
        "from triangles.presets import get_preset\n"
        "from triangles.rules import Game\n"
        "g = Game(get_preset('phone').make_board(24, 8))\n"
        "print(*choose_move(g, 'medium', seed=12345))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    g = Game(get_preset("phone").make_board(24, 8))
    assert tuple(int(x) for x in out) == choose_move(g, "medium", seed=12345)


def test_the_checks_come_before_the_game_over_check() -> None:
    g = Game(Board([(0, 0), (10, 0), (0, 10)], tolerance=0))
    for move in list(g.legal_moves()):
        g.play(*move)
    assert g.is_over()
    with pytest.raises(ValueError, match="unknown level"):
        choose_move(g, "expert")
    with pytest.raises(ValueError, match="seed"):
        choose_move(g, "easy", seed="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="over"):
        choose_move(g, "easy", seed=1)
