"""How well do the engine's estimates of the give phase track its exact value?  (Prints figures; not a test.)

For each seeded board both sides play the greedy baseline (take, else a
random safe line) until the player to move has nothing to take and nothing
safe (plus ``--later`` more greedy lines).  That position is solved exactly
(:func:`triangles.ai.solver.exact`) and compared with:

* ``playout``: :func:`triangles.ai.phase.playout` with 8 and with 1 opening
  followed a step (the first is what ends each of hard's safe-line samples);
* ``greedy``: :func:`triangles.ai.phase.greedy_playout`;
* ``search``: the value hard's playing search reports, its endgame proof and
  sampling off (``hard:solve_legal=0,safe_mc=0``).

Printed per estimate: the mean absolute error, the mean error (bias), the
correlation with the exact value and how often the sign agrees.  This is why,
with strict alternation, hard plays its sampled safe line rather than letting
the search overrule it (with the extra turn that measured worse in matches).

``--regions`` solves over the position's regions (:mod:`triangles.ai.regions`),
which reaches 24-star positions of up to about 48 legal lines; ``--legal L``
plays greedy lines on until at most ``L`` are legal.

    python benchmarks/give_estimates.py [--stars 12] [--games 30] [--later 0] [--extra-turn]
    python benchmarks/give_estimates.py --stars 24 --legal 46 --regions --budget 60000000
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from triangles.kernels import GameArrays
    from triangles.rules import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first
sys.path.insert(0, str(Path(__file__).resolve().parent))  # give_phase_start.py, next to this file


def exact_value(g: Game, D: GameArrays, budget: int, states: int) -> int | None:
    """The rest of the game's exact value for the mover, in triangles (over the regions when
    ``states`` > 0), or None when it outruns ``budget`` nodes."""
    from triangles.ai import engine as E
    from triangles.ai.regions import sum_search
    from triangles.ai.solver import exact

    abort = np.zeros(1, np.uint8)
    if states:
        ss = sum_search(g, D, max_states=states, abort=abort, tt_bits=22)
        if ss is None:
            return None
        r = ss.search(-(1 << 20), 1 << 20, budget, abort)
        return None if r.aborted else r.value
    res, _ = exact(g, D, max_nodes=budget, abort=abort, tt_bits=21)
    return None if res is None else res.value // E.SCALE


def line_value(g: Game, move: tuple[int, int], budget: int, states: int) -> int | None:
    """The mover's points from the line ``move`` on, with perfect play after it (None: over budget)."""
    child = g.clone()
    me = child.player
    closed = len(child.play(*move))
    rest = 0 if child.is_over() else exact_value(child, child.arrays(), budget, states)
    return None if rest is None else closed + (rest if child.player == me else -rest)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=12)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--later", type=int, default=0, help="greedy lines after the first forced give")
    ap.add_argument("--extra-turn", action="store_true")
    ap.add_argument("--legal", type=int, default=0, help="then greedy lines until at most this many are legal")
    ap.add_argument("--budget", type=int, default=30_000_000, help="node budget of one exact solve")
    ap.add_argument("--regions", action="store_true", help="solve over the position's regions")
    ap.add_argument("--states", type=int, default=3_000_000, help="region states --regions may explore")
    args = ap.parse_args(argv)

    from give_phase_start import first_forced_give
    from triangles.ai import LEVELS, choose_move, last_info, phase
    from triangles.ai.baselines import greedy_move
    from triangles.presets import get_preset

    preset = get_preset(args.preset)
    searching = dataclasses.replace(LEVELS["hard"], solve_legal=0, safe_mc=0)
    names = ("playout 8", "playout 1", "greedy", "search")
    rows: list[tuple[float, ...]] = []
    legal: list[int] = []
    for gno in range(args.games):
        g = first_forced_give(preset.make_board(args.stars, 500 + gno), args.extra_turn, gno)
        rng = np.random.default_rng((gno, 1))  # the later lines' own dice
        for _ in range(args.later):
            if g.is_over():
                break
            g.play(*greedy_move(g, rng))
        while args.legal and not g.is_over() and g.legal_count() > args.legal:
            g.play(*greedy_move(g, rng))
        if g.is_over():
            continue
        S, D = g.board.arrays, g.arrays()
        value = exact_value(g, D, args.budget, args.states if args.regions else 0)
        if value is None:
            continue
        p8, _ = phase.playout(S, D, 8)
        p1, _ = phase.playout(S, D, 1)
        gp, _ = phase.greedy_playout(S, D, 1 << 20)
        choose_move(g, searching, seed=0)
        rows.append((value, float(p8), float(p1), float(gp), last_info().value))
        legal.append(g.legal_count())
    rule = "extra turn" if args.extra_turn else "alternate"
    print(f"{args.preset} {args.stars} stars, {rule}: {len(rows)} positions solved")
    if len(rows) < 2:
        return 0
    r = np.array(rows)
    exact_v = r[:, 0]
    print(f"legal lines: median {np.median(legal):.0f}; exact value mean {exact_v.mean():+.2f}, sd {exact_v.std():.2f}")
    for k, name in enumerate(names, 1):
        err = r[:, k] - exact_v
        corr = np.corrcoef(r[:, k], exact_v)[0, 1] if r[:, k].std() > 0 and exact_v.std() > 0 else float("nan")
        agree = np.mean(np.sign(r[:, k]) == np.sign(exact_v))
        print(
            f"  {name:10s} mean |error| {np.abs(err).mean():.2f}  bias {err.mean():+.2f}  "
            f"corr {corr:+.2f}  sign {agree:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
