"""Baseline players for benchmarks and tests: ``random`` and ``greedy``.

``greedy`` takes a scoring line when there is one (the one closing most), else a
line that leaves the opponent no closable triangle, else the line giving away
fewest; ties are broken uniformly at random with the given generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from triangles.ai.effects import line_effect
from triangles.jit import njit
from triangles.kernels import BoardArrays, GameArrays

if TYPE_CHECKING:
    from triangles.rules import Game, Move

__all__ = ["move_table", "random_move", "greedy_move"]


@njit(nogil=True)
def move_table(S: BoardArrays, D: GameArrays) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every legal pair of ``D``: (pair ids, closes, gives), three int32 arrays.

    ``closes`` is how many triangles the line scores now; ``gives`` is how many
    triangles it makes closable for the next player (cells getting their second
    side; their third side is then necessarily still legal, since the cell is live).
    """
    st = D.counters[0]
    legal = D.legal
    n = st.nlegal
    ids = np.empty(n, np.int32)
    closes = np.zeros(n, np.int32)
    gives = np.zeros(n, np.int32)
    k = 0
    for p in range(legal.shape[0]):
        if legal[p] == 0:
            continue
        ids[k] = p
        closes[k], gives[k], _ = line_effect(S, D, p)
        k += 1
    return ids[:k], closes[:k], gives[:k]


def random_move(game: Game, rng: np.random.Generator) -> Move:
    """A uniformly random legal move."""
    moves = game.legal_moves()
    return moves[int(rng.integers(len(moves)))]


def greedy_move(game: Game, rng: np.random.Generator) -> Move:
    """The greedy baseline's move (see the module's docstring)."""
    ids, closes, gives = move_table(game.board.arrays, game.arrays())
    if len(ids) == 0:
        raise ValueError("the game is over: no legal move")
    if closes.max() > 0:
        cand = ids[closes == closes.max()]
    else:
        cand = ids[gives == gives.min()]
    p = int(cand[int(rng.integers(len(cand)))])
    return game.board.pair(p)
