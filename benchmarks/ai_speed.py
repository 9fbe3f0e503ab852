"""Per-move time of ``choose_move`` on every preset (prints figures; not a test).

For each preset and star count, seeded games are played by the ``greedy``
baseline, and at evenly spaced positions (including the endgame) every level
is timed on the same position.  Prints median / 95th percentile / max seconds
per move, nodes per second, and how often the wall-clock cap fired (which
makes a move timing-dependent).  With ``--budgets`` each move is chosen again
with a cap too long to fire (the level's node budgets alone decide), and the
moves that came out different are counted: how far the cap, on this machine
today, made the level's play depend on the clock.  A level may be a variant as
``ai_match.py`` takes it (``--levels hard,hard:region_nodes=600000``), so that a
change of budget is timed before it ships.

    python benchmarks/ai_speed.py [--games 2] [--samples 20] [--levels easy,medium,hard]
        [--presets phone,tablet] [--stars 24,60] [--extra-turn] [--budgets]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first

#: the cap of ``--budgets``' second choice: far beyond any level's budgets on this machine
BUDGETS_CAP = 60.0


def greedy_positions(preset: Any, stars: int, games: int, samples: int, extra_turn: bool = False) -> Iterator[Any]:
    """Positions to time: for each of ``games`` seeded greedy-vs-greedy games on
    ``preset``'s ``stars``-star board (board seed 1000 + game), ``samples``
    positions evenly spaced from the first move to the last (yields ``Game``s)."""
    from triangles.ai.baselines import greedy_move
    from triangles.rules import Game

    for gno in range(games):
        board = preset.make_board(stars, 1000 + gno)
        g = Game(board, extra_turn)
        rng = np.random.default_rng(gno)
        while not g.is_over():
            g.play(*greedy_move(g, rng))
        moves = g.moves
        for k in np.unique(np.linspace(0, g.move_count - 1, samples).astype(int)):
            yield Game.from_moves(board, moves[:k], extra_turn)


def split_levels(text: str) -> list[str]:
    """``--levels``' names: split at commas, except that a variant's own changes
    (``hard:width=16,qdepth=4``: items with ``=`` and no ``:``) stay with their level."""
    names: list[str] = []
    for item in text.split(","):
        if names and "=" in item and ":" not in item and ":" in names[-1]:
            names[-1] += "," + item
        else:
            names.append(item)
    return names


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--samples", type=int, default=20, help="positions timed per game")
    ap.add_argument("--levels", default="easy,medium,hard")
    ap.add_argument("--presets", default="phone,tablet")
    ap.add_argument("--stars", default="", help="only these star counts (comma-separated; default: each preset's all)")
    ap.add_argument("--extra-turn", action="store_true")
    ap.add_argument(
        "--budgets",
        action="store_true",
        help=f"choose each move again with a {BUDGETS_CAP:g} s cap and count the moves that differ",
    )
    args = ap.parse_args(argv)
    if args.games < 1 or args.samples < 1:  # no positions would leave nothing to time
        ap.error(f"--games {args.games} --samples {args.samples}: both must be at least 1")

    import triangles
    from ai_match import variant
    from triangles.ai import Level, choose_move, warm_up
    from triangles.ai.api import last_info
    from triangles.presets import PresetError, get_preset

    print(f"game: {Path(triangles.__file__).parent}", flush=True)
    # every argument checked before the kernels load: a wrong name is a message, not a traceback
    levels = split_levels(args.levels)
    try:
        level_of: dict[str, Level] = {lv: variant(lv) for lv in levels}  # a built-in level is a variant of itself
        presets = [get_preset(p) for p in args.presets.split(",")]
    except (PresetError, ValueError) as e:
        ap.error(str(e))
    try:
        wanted = {int(n) for n in args.stars.split(",")} if args.stars else set()
    except ValueError:
        ap.error(f"--stars {args.stars}: star counts are whole numbers, comma-separated")
    offered = {n for p in presets for n in p.stars}
    if wanted - offered:
        ap.error(f"--stars {args.stars}: the presets {args.presets} offer {sorted(offered)}")
    # every level's kernels, as the game loads them at start, outside the timings: one
    # level's first move may skip some (with --levels medium --extra-turn a first timed
    # move once took 16.6 s, compiling)
    warm_up()
    print(
        f"{'preset':8} {'stars':>5} {'level':7} {'n':>4} {'median s':>9} {'p95 s':>8} {'max s':>7} "
        f"{'nodes/s':>10} {'capped':>6}" + (f" {'differs':>7}" if args.budgets else "")
    )
    for preset in presets:
        pname = preset.name
        for stars in preset.stars:
            if wanted and stars not in wanted:
                continue
            res: dict[str, list[tuple[float, int, bool, bool]]] = {lv: [] for lv in levels}
            for pos in greedy_positions(preset, stars, args.games, args.samples, args.extra_turn):
                for lv in levels:
                    t0 = time.perf_counter()
                    move = choose_move(pos, level_of[lv], seed=pos.move_count)
                    dt = time.perf_counter() - t0
                    info = last_info()
                    differs = (
                        args.budgets
                        and choose_move(pos, level_of[lv], seed=pos.move_count, time_limit=BUDGETS_CAP) != move
                    )
                    res[lv].append((dt, info.nodes, info.aborted, differs))
            for lv in levels:
                ts = np.array([r[0] for r in res[lv]])
                nodes = sum(r[1] for r in res[lv])
                capped = sum(r[2] for r in res[lv])
                differ_col = f" {sum(r[3] for r in res[lv]):7d}" if args.budgets else ""
                print(
                    f"{pname:8} {stars:5d} {lv:7} {len(ts):4d} {np.median(ts):9.4f} {np.percentile(ts, 95):8.4f} "
                    f"{ts.max():7.3f} {nodes / ts.sum():10.0f} {capped:6d}{differ_col}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
