"""How good are a player's choices among the safe lines, by the exact solver?  (Prints figures; not a test.)

While safe lines remain (lines that neither score nor hand a triangle over),
the playing search sees them all as equal, so hard samples their futures
(``api.safe_choice``).  Match results measure that only through whole games,
which are noisy.  This measures the choice itself:

For each seeded board both sides play the greedy baseline (take, else a
random safe line) until the first position where nothing can be taken, at
least ``--min-safe`` safe lines remain and at most ``--legal`` lines are
legal.  There every safe line's exact value (the mover's future points minus
the other's, perfect play after it) is solved.  Each player named on the
command line then chooses a line in that position (``--seeds`` seeds each);
its *regret* is the best safe line's value minus the value of its choice.
``random`` is the mean over the safe lines (greedy's choice); the positions
where every safe line has the same value are counted but do not decide.
A player is named as in ``ai_match.py``: an engine level or variant
(``hard:solve_legal=0,region_legal=0`` keeps hard's endgame proofs out of the
way, so that the sampling and the search decide), ``mcts`` or ``greedy``.

``--regions`` solves over the regions (:mod:`triangles.ai.regions`), which
reaches about 36 legal lines on 14 stars.

    python benchmarks/safe_regret.py hard:solve_legal=0,region_legal=0 mcts --stars 12 --boards 40 [--legal 26]
    python benchmarks/safe_regret.py hard:solve_legal=0,region_legal=0 mcts --stars 14 --legal 36 --regions
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
sys.path.insert(0, str(Path(__file__).resolve().parent))  # ai_match.py, next to this file


def line_value(g: Game, p: int, values: dict[int, int | None], budget: int, states: int = 0) -> int | None:
    """The mover's exact future points after line ``p`` (None: over budget), remembered in
    ``values``; over the regions when ``states`` > 0 (``give_estimates.line_value``)."""
    import give_estimates

    if p not in values:
        values[p] = give_estimates.line_value(g, g.board.pair(p), budget, states)
    return values[p]


def safe_position(board: Board, extra: bool, seed: int, min_safe: int, legal: int) -> tuple[Game, list[int]] | None:
    """The greedy game on ``board`` (dice from ``seed``) stopped at the first position where
    nothing can be taken, at least ``min_safe`` lines are safe and at most ``legal`` are legal,
    with its safe lines; None when the safe lines run short first."""
    from triangles.ai.baselines import greedy_move, move_table
    from triangles.rules import Game

    g = Game(board, extra)
    rng = np.random.default_rng(seed)
    while not g.is_over():
        pairs, closes, gives = move_table(g.board.arrays, g.arrays())
        safe = pairs[(closes == 0) & (gives == 0)]
        if len(safe) < min_safe:
            return None
        if closes.max() == 0 and g.legal_count() <= legal:
            return g, [int(p) for p in safe]
        g.play(*greedy_move(g, rng))
    return None


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", nargs="+", help="players as in ai_match.py (hard:safe_cand=1, mcts)")
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=12)
    ap.add_argument("--boards", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0, help="first board seed")
    ap.add_argument("--legal", type=int, default=26, help="at most this many legal lines (the solver's reach)")
    ap.add_argument("--min-safe", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=4, help="seeds per player and position")
    ap.add_argument("--extra-turn", action="store_true")
    ap.add_argument("--budget", type=int, default=30_000_000, help="node budget of one exact solve")
    ap.add_argument("--regions", action="store_true", help="solve over the regions (reaches further)")
    ap.add_argument("--states", type=int, default=3_000_000, help="region states --regions may explore")
    args = ap.parse_args(argv)

    from ai_match import check_players, make_player
    from triangles.presets import get_preset

    check_players(ap, *args.players)  # a bad name: the parser's message, not a traceback
    states = args.states if args.regions else 0
    preset = get_preset(args.preset)
    regrets: dict[str, list[float]] = {name: [] for name in ["random", *args.players]}
    flat = skipped = 0
    for b in range(args.seed, args.seed + args.boards):
        found = safe_position(preset.make_board(args.stars, b), args.extra_turn, b, args.min_safe, args.legal)
        if found is None:
            skipped += 1
            continue
        g, safe = found
        values: dict[int, int | None] = {}
        got = [line_value(g, p, values, args.budget, states) for p in safe]
        vals = [v for v in got if v is not None]
        if len(vals) < len(got):
            skipped += 1
            continue
        best = max(vals)
        if min(vals) == best:
            flat += 1
            continue
        regrets["random"].append(best - float(np.mean(vals)))
        for name in args.players:
            for s in range(args.seeds):
                v = line_value(g, g.board.pair_id(*make_player(name, 1000 * b + s)(g)), values, args.budget, states)
                if v is not None:
                    regrets[name].append(max(0, best - v))
        print(f"board {b}: {g.legal_count()} legal, {len(safe)} safe, values {sorted(vals, reverse=True)}", flush=True)
    rule = "extra turn" if args.extra_turn else "alternate"
    decided = len(regrets["random"])
    print(
        f"{args.preset} {args.stars} stars, {rule}: {decided} positions where the safe lines differ, "
        f"{flat} where they do not, {skipped} skipped (no such position, or over budget)"
    )
    for name, r in regrets.items():
        if r:
            a = np.array(r)
            print(
                f"  {name:28s} mean regret {a.mean():.2f} triangles, "
                f"best line chosen {np.mean(a == 0):.0%} ({len(a)} choices)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
