"""How far the exact search reaches: nodes and seconds to prove a result (prints figures; not a test).

For each preset size and each number of legal lines ``L`` asked for, seeded
greedy-vs-greedy games are played to the first position with at most ``L``
legal lines, and :func:`triangles.ai.solver.decide` (hard's endgame proof:
"can the mover win, else draw?") is run on it with a fixed node budget.
Node counts are deterministic (but for ``--pair``'s, below), so two versions of
the solver compare exactly on the same positions, whatever the machine's load;
seconds are printed alongside.  ``--exact`` runs the exact-value search instead
(the whole-board search alone; with ``--regions`` or ``--lazy`` the searches
:func:`solve` runs).

    python benchmarks/proof_bench.py [--stars 24] [--legal 20,24,28,32] [--games 8] [--budget 3000000] [--extra-turn]
    python benchmarks/proof_bench.py --hard --legal 24,32,40,48   # hard's proof horizon on this board size
    python benchmarks/proof_bench.py --regions --exact --stars 10 --legal 64 --budget 300000000   # whole boards

``--regions`` proves (or with ``--exact`` values) over the position's regions
(:mod:`triangles.ai.regions`), within ``--states`` region states and
``--budget`` nodes; its node column counts both.  ``--legal 64`` on a small
board takes the whole board from its first move.

``--lazy`` proves (or with ``--exact`` values) over the regions expanded only as
the search reaches them (:mod:`triangles.ai.lazy`, what :func:`solve` falls back
on), within ``--budget`` nodes; its node column counts search nodes.

    python benchmarks/proof_bench.py --lazy --exact --stars 12 --legal 64 --budget 400000000   # whole 12-star boards

``--pair`` (with ``--lazy --exact``) runs two searches at once on one table, as
:func:`solve` does on two cores (:func:`triangles.ai.lazy.search_pair`);
the node column then counts both searches' nodes, which vary from run to run.

``--hard`` runs hard's own proofs with its budgets and its wall-clock share
(over the regions, then the whole-board proof: ``api._proved_line``); the node
column then counts region states and nodes together.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=24)
    ap.add_argument("--legal", default="20,24,28,32", help="comma-separated legal-line counts")
    ap.add_argument("--games", type=int, default=8, help="positions per legal-line count")
    ap.add_argument("--budget", type=int, default=3_000_000, help="node budget of one proof")
    ap.add_argument("--hard", action="store_true", help="hard's own budget on each position (its proof horizon)")
    ap.add_argument("--extra-turn", action="store_true")
    ap.add_argument("--exact", action="store_true", help="the exact value instead of a win/draw proof")
    ap.add_argument(
        "--regions",
        action="store_true",
        help="over the position's regions (solver.decide_regions; with --exact their full-window search)",
    )
    ap.add_argument(
        "--lazy", action="store_true", help="over regions expanded as the search reaches them (solver.decide_lazy)"
    )
    ap.add_argument("--pair", action="store_true", help="with --lazy --exact: two searches at once, as solve runs them")
    ap.add_argument("--states", type=int, default=1_000_000, help="region states --regions may explore")
    ap.add_argument("--tt-bits", type=int, default=19, help="table size, a power of two (hard uses 19)")
    ap.add_argument("--verbose", action="store_true", help="a line per position")
    args = ap.parse_args(argv)
    if args.pair and not (args.lazy and args.exact):
        ap.error("--pair goes with --lazy --exact (the pair of searches solve runs)")

    from triangles.ai import LEVELS
    from triangles.ai.api import SearchInfo, _proved_line
    from triangles.ai.baselines import greedy_move
    from triangles.ai.lazy import LazySum, lazy_search, search_pair
    from triangles.ai.regions import Regions, sum_search
    from triangles.ai.solver import SOLVE_ROWS, decide, decide_lazy, decide_regions, exact
    from triangles.presets import get_preset
    from triangles.rules import Game

    preset = get_preset(args.preset)
    rule = "extra turn" if args.extra_turn else "alternate"
    warm = Game(preset.make_board(9, 0), args.extra_turn)
    decide(warm, warm.arrays(), max_nodes=10_000, abort=np.zeros(1, np.uint8))  # compile outside the timings
    lazy_search(warm, warm.arrays(), max_nodes=10_000, abort=np.zeros(1, np.uint8))
    _proved_line(warm, warm.arrays(), LEVELS["hard"], 60.0, SearchInfo())
    exact(warm, warm.arrays(), max_nodes=10_000, abort=np.zeros(1, np.uint8))
    kind = "exact value" if args.exact else "win/draw proof"
    hard = LEVELS["hard"]
    budget_text = "hard's budget" if args.hard else f"budget {args.budget} nodes"
    print(f"{kind}: {args.preset} {args.stars} stars, {rule}, {budget_text}, {args.games} positions each")
    head = ("legal", "proved", "median nodes", "max nodes", "median s", "max s", "total nodes")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (5, 7, 13, 10, 9, 7, 12), strict=True)))
    total_all = 0
    for L in (int(x) for x in args.legal.split(",")):
        nodes_l: list[int] = []
        secs: list[float] = []
        proved = 0
        for gno in range(args.games):
            board = preset.make_board(args.stars, 2000 + gno)
            g = Game(board, args.extra_turn)
            rng = np.random.default_rng(gno)
            while not g.is_over() and g.legal_count() > L:
                g.play(*greedy_move(g, rng))
            if g.is_over():
                continue
            abort = np.zeros(1, np.uint8)
            t0 = time.perf_counter()
            res: object
            if args.hard:
                info = SearchInfo()
                _proved_line(g, g.arrays(), hard, hard.time_limit, info)
                res, nodes = (True if info.solved else None), info.nodes
            elif args.lazy and args.exact and args.pair:
                ls = LazySum(Regions(g, g.arrays()), tt_bits=args.tt_bits, rows=SOLVE_ROWS)
                lz = search_pair(ls, -(1 << 20), 1 << 20, args.budget, abort)
                res, nodes = (None if lz.aborted else lz.value), lz.nodes
            elif args.lazy and args.exact:
                lz = lazy_search(g, g.arrays(), max_nodes=args.budget, abort=abort, tt_bits=args.tt_bits)
                res, nodes = (None if lz.aborted else lz.value), lz.nodes
            elif args.lazy:
                res, nodes = decide_lazy(g, g.arrays(), max_nodes=args.budget, abort=abort, tt_bits=args.tt_bits)
            elif args.regions and args.exact:
                ss = sum_search(g, g.arrays(), max_states=args.states, abort=abort, tt_bits=args.tt_bits)
                res, nodes = None, args.states
                if ss is not None:
                    r = ss.search(-(1 << 20), 1 << 20, args.budget, abort)
                    res, nodes = (None if r.aborted else r.value), ss.regions.states + r.nodes
            elif args.regions:
                res, nodes = decide_regions(
                    g, g.arrays(), max_states=args.states, max_nodes=args.budget, abort=abort, tt_bits=args.tt_bits
                )
            elif args.exact:
                res, nodes = exact(g, g.arrays(), max_nodes=args.budget, abort=abort, tt_bits=args.tt_bits)
            else:
                res, nodes = decide(g, g.arrays(), max_nodes=args.budget, abort=abort, tt_bits=args.tt_bits)
            dt = time.perf_counter() - t0
            proved += res is not None
            nodes_l.append(nodes)
            secs.append(dt)
            if args.verbose:
                print(f"  game {gno}: {g.legal_count()} legal, {nodes} nodes, {dt:.2f} s, {res}", flush=True)
        total_all += sum(nodes_l)
        if not nodes_l:
            print(f"{L:5d} no position: every game ended with more than {L} legal lines", flush=True)
            continue
        print(
            f"{L:5d} {proved:3d}/{len(nodes_l):<3d} {int(np.median(nodes_l)):13d} {max(nodes_l):10d} "
            f"{np.median(secs):9.3f} {max(secs):7.2f} {sum(nodes_l):12d}",
            flush=True,
        )
    print(f"all positions: {total_all} nodes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
