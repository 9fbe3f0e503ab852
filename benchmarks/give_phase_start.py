"""Does the player who must open the give phase start behind?  (Prints figures; not a test.)

For each seeded game both sides play the greedy baseline (take the line
closing most, else a random safe line) until the player to move has neither:
from there every line hands something over.  That position is solved exactly
(:func:`triangles.ai.solver.exact`), and the value for that player (their
future triangles minus the other's) is collected.  A strongly negative mean
would make "who runs out of safe lines first" the strategy of the game; on 12
stars it averages about zero with alternation, so what decides the give phase
is its shape.

    python benchmarks/give_phase_start.py [--stars 12] [--games 40] [--extra-turn] [--budget 20000000]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from triangles.rules import Board, Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first


def first_forced_give(board: Board, extra_turn: bool, seed: int) -> Game:
    """The greedy game on ``board`` (random safe lines from ``seed``), stopped where the
    player to move has nothing to take and nothing safe, or at its end."""
    from triangles.ai.baselines import greedy_move, move_table
    from triangles.rules import Game

    g = Game(board, extra_turn)
    rng = np.random.default_rng(seed)
    while not g.is_over():
        _, closes, gives = move_table(g.board.arrays, g.arrays())
        if closes.max() == 0 and gives.min() > 0:  # nothing to take, nothing safe
            break
        g.play(*greedy_move(g, rng))
    return g


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=12)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--extra-turn", action="store_true")
    ap.add_argument("--budget", type=int, default=20_000_000, help="node budget of one exact solve")
    args = ap.parse_args(argv)

    from triangles.ai import engine as E
    from triangles.ai.solver import exact
    from triangles.presets import get_preset

    preset = get_preset(args.preset)
    values: list[int] = []
    legal: list[int] = []
    over_budget = 0
    for gno in range(args.games):
        g = first_forced_give(preset.make_board(args.stars, 500 + gno), args.extra_turn, gno)
        if g.is_over():
            continue
        res, _ = exact(g, g.arrays(), max_nodes=args.budget, abort=np.zeros(1, np.uint8), tt_bits=21)
        if res is None:
            over_budget += 1
            continue
        values.append(res.value // E.SCALE)
        legal.append(g.legal_count())
    rule = "extra turn" if args.extra_turn else "alternate"
    print(f"{args.preset} {args.stars} stars, {rule}: {len(values)} positions solved, {over_budget} over budget")
    if values:
        v = np.array(values)
        print(
            f"legal lines at the first forced give: median {np.median(legal):.0f}; value for the player who "
            f"must give: mean {v.mean():+.2f}, min {v.min():+d}, max {v.max():+d}, "
            f"share >= 0 {np.mean(v >= 0):.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
