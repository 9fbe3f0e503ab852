"""Public entry points (provisional: greedy with a seeded tie-break)."""

from __future__ import annotations

import numpy as np

from triangles.ai.baselines import greedy_move

LEVELS = ("easy", "medium", "hard")


def choose_move(game, level: str = "medium", *, seed=None, time_limit=None):
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    if game.is_over():
        raise ValueError("the game is over: no move to choose")
    rng = np.random.default_rng(0 if seed is None else seed)
    return greedy_move(game, rng)


def hint(game):
    return choose_move(game, "medium", seed=0)


def solve(game) -> int:
    raise ValueError("solver not available yet")
