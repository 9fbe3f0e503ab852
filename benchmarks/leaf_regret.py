"""How much of the safe choice's error comes from the give-phase model at the end of each sample?  (Prints figures.)

hard chooses among safe lines by sampling their futures: both sides take what
they can, else draw the safe line a random ranking puts first, until nothing
is safe; the position there (a *leaf*) is valued by the give-phase playout
(``phase.playout``).  This replays that sampling with the same random orders
and values each leaf in several ways: by the playout, by the best of the first
4 or 8 lines ``phase.leaf_value`` looks at in full (each valued by its points
plus the playout after it), by the best of every line valued so (one line
ahead), by the playout with its ties among openings broken by the sample's
own dice (``phase.playout_ranked``), and exactly, over the regions.  The
positions and regrets are those of ``safe_regret.py`` (the best safe line's
exact value minus that of the line with the best sampled mean), so the gap
between the rows is what a better model of the give phase would be worth.

    python benchmarks/leaf_regret.py --stars 14 --legal 36 --boards 60 --seed 100 [--samples 8]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from triangles.rules import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other benchmarks, next to this file

LEAVES = ("playout", "4 lines ahead", "8 lines ahead", "one line ahead", "playout, ranked", "exact")
#: the ``ahead`` argument of ``phase.leaf_value`` for every row of :data:`LEAVES` but the
#: exact one (None: every legal line)
AHEAD = (0, 4, 8, None)


def sample(g: Game, p: int, prio: np.ndarray, budget: int, states: int) -> tuple[float, ...] | None:
    """One sample of the safe line ``p`` (as ``phase.safe_phase_round`` plays it, on a clone):
    the mover's margin with the leaf valued each way of :data:`LEAVES` (None: over budget)."""
    from give_estimates import exact_value
    from triangles.ai import phase
    from triangles.ai.baselines import move_table

    c = g.clone()
    me = c.player
    net = 0
    q = p
    while q >= 0:
        who = c.player
        closed = len(c.play(*c.board.pair(q)))
        net += closed if who == me else -closed
        if c.is_over():
            return (float(net),) * len(LEAVES)
        pairs, closes, gives = move_table(c.board.arrays, c.arrays())
        if closes.max() > 0:  # the cascade's take: most closed, then fewest given, then lowest pair id
            q = int(pairs[int(np.argmax(closes.astype(np.int64) * 1024 - gives))])
        else:
            safe = pairs[(closes == 0) & (gives == 0)]
            q = int(max(safe, key=lambda r: float(prio[r]))) if len(safe) else -1
    S, D = c.board.arrays, c.arrays()
    sign = 1 if c.player == me else -1
    leaves = [int(phase.leaf_value(S, D, 8, c.legal_count() if a is None else a)[0]) for a in AHEAD]
    leaves.append(int(phase.playout_ranked(S, D, 8, prio)[0]))  # ties among openings by the round's dice
    exact = exact_value(c, D, budget, states)
    if exact is None:
        return None
    return tuple(float(net + sign * v) for v in (*leaves, exact))


def sampled_totals(g: Game, safe: list[int], seed: int, samples: int, budget: int, states: int) -> np.ndarray | None:
    """Each safe line's samples summed, a column a way of valuing the leaf (None: a leaf over
    budget).  Round ``r`` ranks the pairs by the dice of ``(seed, r)``, the same for every line."""
    totals = np.zeros((len(safe), len(LEAVES)))
    for r in range(samples):
        prio = np.asarray(np.random.default_rng((seed, r)).random(g.board.arrays.pi.shape[0]))
        for i, p in enumerate(safe):
            got = sample(g, p, prio, budget, states)
            if got is None:
                return None
            totals[i] += got
    return totals


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=14)
    ap.add_argument("--boards", type=int, default=60)
    ap.add_argument("--seed", type=int, default=100, help="first board seed")
    ap.add_argument("--legal", type=int, default=36, help="at most this many legal lines")
    ap.add_argument("--min-safe", type=int, default=3)
    ap.add_argument("--samples", type=int, default=8, help="samples of each safe line")
    ap.add_argument("--budget", type=int, default=60_000_000, help="node budget of one exact solve")
    ap.add_argument("--states", type=int, default=3_000_000, help="region states one solve may explore")
    args = ap.parse_args(argv)

    from safe_regret import line_value, safe_position
    from triangles.presets import get_preset

    preset = get_preset(args.preset)
    regrets: list[list[float]] = []
    for b in range(args.seed, args.seed + args.boards):
        found = safe_position(preset.make_board(args.stars, b), False, b, args.min_safe, args.legal)
        if found is None:
            continue
        g, safe = found
        known: dict[int, int | None] = {}
        vals = [line_value(g, p, known, args.budget, args.states) for p in safe]
        if None in vals:
            continue
        exact_vals = np.array(vals, np.float64)
        if exact_vals.min() == exact_vals.max():
            continue
        totals = sampled_totals(g, safe, b, args.samples, args.budget, args.states)
        if totals is None:
            continue
        best = exact_vals.max()
        row = [float(best - exact_vals[int(np.argmax(totals[:, k]))]) for k in range(len(LEAVES))]
        regrets.append([*row, float(best - exact_vals.mean())])
        print(f"board {b}: {g.legal_count()} legal, {len(safe)} safe, regrets {row}", flush=True)
    print(f"{args.preset} {args.stars} stars, alternate: {len(regrets)} positions where the safe lines differ")
    if regrets:
        a = np.array(regrets)
        for k, name in enumerate((*LEAVES, "random line")):
            print(
                f"  {name:15s} mean regret {a[:, k].mean():.2f} triangles, best line chosen {np.mean(a[:, k] == 0):.0%}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
