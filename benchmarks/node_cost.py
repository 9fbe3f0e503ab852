"""The time of one search node on every preset, against ``_node_cost`` (prints figures; not a test).

The levels' budgets are counted in work units (``Level.work``), a node costing
:func:`triangles.ai.api._node_cost` of them, so that one budget means about the
same time on every board.  This plays seeded greedy games on each preset,
runs hard's search for a fixed number of nodes at evenly spaced positions, and
prints microseconds per node and per work unit: the second column should be
about level across presets.  The last two columns do the same for the endgame
proof's exact search (:func:`triangles.ai.solver.decide`, a node costing
:func:`triangles.ai.api._node_cost` too), on those of the positions within the
proof's reach (at most twice hard's ``solve_legal`` legal lines).

    python benchmarks/node_cost.py [--games 2] [--samples 12] [--nodes 30000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first
sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_speed import greedy_positions  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--samples", type=int, default=12, help="positions per game")
    ap.add_argument("--nodes", type=int, default=30_000, help="nodes searched per position")
    args = ap.parse_args(argv)

    from triangles.ai import LEVELS, api
    from triangles.ai import engine as E
    from triangles.ai.solver import decide
    from triangles.presets import get_preset
    from triangles.rules import Game

    lv = LEVELS["hard"]
    api.choose_move(Game(get_preset("phone").make_board(24, 0)), "hard")  # compile outside the timings
    print(
        f"{'preset':8} {'stars':>5} {'n':>4} {'legal':>6} {'us/node':>8} {'cost':>6} {'us/unit':>8}"
        f" {'proof us/node':>13} {'us/unit':>8}"
    )
    for pname in ("phone", "tablet"):
        preset = get_preset(pname)
        for stars in preset.stars:
            rows = []
            for pos in greedy_positions(preset, stars, args.games, args.samples):
                board = pos.board
                nlegal = pos.legal_count()
                par = api.search_params(lv, nlegal, salt=1)  # hard's own search, as choose_move runs it
                sr = E.new_search(par, board.npairs, tt_bits=lv.tt_bits, plies=api.MAX_PLY, width=64)
                D = pos.arrays()
                used = 0
                t0 = time.perf_counter()
                for depth in range(1, lv.max_depth + 1):
                    r = E.search(board.arrays, D, sr, depth=depth, node_limit=args.nodes - used)
                    used += r.nodes
                    if r.aborted or used >= args.nodes:
                        break
                us = (time.perf_counter() - t0) / max(used, 1) * 1e6
                proof_us = np.nan
                if 4 <= nlegal <= 2 * lv.solve_legal:
                    t0 = time.perf_counter()
                    _, proof_nodes = decide(pos, pos.arrays(), max_nodes=args.nodes, abort=np.zeros(1, np.uint8))
                    proof_us = (time.perf_counter() - t0) / max(proof_nodes, 1) * 1e6
                rows.append((nlegal, us, api._node_cost(pos, nlegal), proof_us))
            a = np.array(rows, float)
            proved = a[~np.isnan(a[:, 3])]  # the positions within the proof's reach
            proof = (
                f" {np.median(proved[:, 3]):13.2f} {np.median(proved[:, 3] / proved[:, 2]):8.4f}"
                if len(proved)
                else f" {'-':>13} {'-':>8}"
            )
            print(
                f"{pname:8} {stars:5d} {len(a):4d} {np.median(a[:, 0]):6.0f} {np.median(a[:, 1]):8.2f} "
                f"{np.median(a[:, 2]):6.0f} {np.median(a[:, 1] / a[:, 2]):8.4f}{proof}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
