"""How good are players' lines once nothing is safe, by the exact values?  (Prints figures; not a test.)

With strict alternation the safe lines run out at about 55 legal lines on 24
stars, and hard's proofs start at 48 (most succeed from about 40): in between
its playing search decides, and its value there hardly tracks the exact one
(``give_estimates.py``).  This measures the lines themselves:

For each seeded board both sides play the greedy baseline until the player to
move has nothing to take and nothing safe, then on until at most ``--legal``
lines are legal.  The position is solved exactly over its regions
(:mod:`triangles.ai.regions`), and so is the position after each player's
line; a player's *regret* is the position's value minus its line's (its
points plus what perfect play gets from there).  Players are named as in
``ai_match.py`` (``mcts``, ``greedy``, an engine level or variant such as
``hard:region_legal=0,solve_legal=0``, which keeps the proofs out of the way).

    python benchmarks/give_regret.py hard:region_legal=0,solve_legal=0 mcts greedy --boards 20 [--legal 48]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other benchmarks, next to this file


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", nargs="+", help="players as in ai_match.py (hard:region_legal=0, mcts, greedy)")
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=24)
    ap.add_argument("--boards", type=int, default=20)
    ap.add_argument("--seed", type=int, default=600, help="first board seed")
    ap.add_argument("--legal", type=int, default=48, help="greedy lines until at most this many are legal")
    ap.add_argument("--seeds", type=int, default=2, help="seeds per player and position")
    ap.add_argument("--budget", type=int, default=60_000_000, help="node budget of one exact solve")
    ap.add_argument("--states", type=int, default=3_000_000, help="region states a solve may explore")
    args = ap.parse_args(argv)

    from ai_match import check_players, make_player
    from give_estimates import exact_value, line_value
    from give_phase_start import first_forced_give
    from triangles.ai.baselines import greedy_move
    from triangles.presets import get_preset

    check_players(ap, *args.players)
    preset = get_preset(args.preset)
    regrets: dict[str, list[int]] = {name: [] for name in args.players}
    for b in range(args.seed, args.seed + args.boards):
        g = first_forced_give(preset.make_board(args.stars, b), False, b)
        rng = np.random.default_rng((b, 1))
        while not g.is_over() and g.legal_count() > args.legal:
            g.play(*greedy_move(g, rng))
        if g.is_over():
            continue
        root = exact_value(g, g.arrays(), args.budget, args.states)
        if root is None:
            print(f"board {b}: {g.legal_count()} legal lines, over budget", flush=True)
            continue
        values: dict[tuple[int, int], int | None] = {}
        row = []
        for name in args.players:
            for s in range(args.seeds):
                i, j = make_player(name, 1000 * b + s)(g)
                move = (int(i), int(j))
                if move not in values:
                    values[move] = line_value(g, move, args.budget, args.states)
                v = values[move]
                if v is not None:
                    regrets[name].append(root - v)
                    row.append(f"{name} {root - v}")
        print(f"board {b}: {g.legal_count()} legal, value {root:+d}; regrets: {', '.join(row)}", flush=True)
    for name, r in regrets.items():
        if r:
            a = np.array(r)
            kept = np.mean(a == 0)
            print(f"  {name:36s} mean regret {a.mean():.2f} triangles, best value kept {kept:.0%} ({len(a)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
