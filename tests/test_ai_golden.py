"""The computer plays the same moves as before the engine was refactored (same seed, same level)."""

from __future__ import annotations

import json

import pytest

from ai_golden import DATA, position
from triangles.ai import choose_move

ROWS = json.loads(DATA.read_text())


@pytest.mark.parametrize(
    "row", ROWS, ids=[f"{r['position'][0]}stars-{r['position'][5]}lines-{r['level']}" for r in ROWS]
)
def test_same_move_as_before_the_refactor(row):
    game = position(*row["position"])
    assert game.moves == [tuple(m) for m in row["moves"]]  # the same position, rebuilt
    assert list(choose_move(game, row["level"], seed=row["seed"], time_limit=120.0)) == row["move"]
