"""What the root's order costs `solve`'s lazy search (prints figures; not a test).

The root moves of a whole board are searched one at a time as the search's root does: the
first within the whole window, each later one within a null window at the best value so
far, and again within the rest of the window when it does better.  Each is a
:class:`triangles.ai.lazy.LazySum` of its own whose root may draw that line only
(``root_lines``), all on one table, so without the kernel's count of refuted root moves
(its answers' order at ply 1).  An order per row: its value, nodes, seconds, and the best
root move's line and place.  On board 2110 by rank (the kernel's order) the best came 37th
of 63, 72.4 M nodes; by the lines' numbers 6th, 31.8 M; first, 28.5 M
(``benchmarks/middle-game.md``, forty-third look).

    python benchmarks/root_order.py --board 2110 --order rank line hard
    python benchmarks/root_order.py --board 2110 --order first --first 5

Orders: ``rank`` (the kernel's), ``line`` (the lines' numbers), ``hard`` (hard's move first,
then by rank), ``first`` (the line ``--first`` first, then by rank).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from triangles.ai.regions import Regions

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first

ORDERS = ("rank", "line", "hard", "first")


def root_ranks(r: Regions) -> dict[int, int]:
    """Each root line's rank (a pair id: its rank), as the kernel lists the root's moves."""
    from triangles.ai.lazy import LazySum
    from triangles.ai.pools import ME, MS, RANK

    probe = LazySum(r, tt_bits=10)
    probe.search(-1000, 1000, 2, np.zeros(1, np.uint8))  # expands the root and stops
    OU, OI, MV = probe.pools[0], probe.pools[1], probe.pools[2]
    ranks = {}
    for c in probe.roots:
        legal = [k for k in range(64) if int(OU[c, 0]) >> k & 1]  # a root object's moves, in its lines' order
        for k, g in zip(legal, range(OI[c, MS], OI[c, ME]), strict=True):
            ranks[int(r.lines[k])] = int(MV[g, RANK])
    return ranks


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=12)
    ap.add_argument("--board", type=int, required=True, help="the board's seed")
    ap.add_argument("--order", nargs="+", choices=ORDERS, default=["rank", "line", "hard"])
    ap.add_argument("--first", type=int, default=None, help="the line (pair id) the order 'first' tries first")
    ap.add_argument("--tt-bits", type=int, default=23)
    args = ap.parse_args(argv)
    if not 10 <= args.tt_bits <= 26:
        ap.error("--tt-bits must be 10-26")

    from triangles.ai import choose_move, warm_up
    from triangles.ai.lazy import LazySum
    from triangles.ai.regions import Regions
    from triangles.ai.tables import new_table
    from triangles.presets import PresetError, get_preset
    from triangles.rules import Game

    try:
        game = Game(get_preset(args.preset).make_board(args.stars, args.board))
    except (PresetError, ValueError) as e:
        ap.error(str(e))
    r = Regions(game, game.arrays())
    if not r.fits:
        ap.error(f"{r.n} legal lines, past the regions' masks (64)")
    lines = [int(p) for p in r.lines]
    if "first" in args.order and args.first not in lines:
        ap.error(f"--first must be one of the board's legal lines: {sorted(lines)}")
    warm_up()
    ranks = root_ranks(r)
    by_rank = sorted(lines, key=lambda p: -ranks[p])  # stable: equal ranks in the lines' order
    print(f"board {args.board} ({args.stars} stars, {r.n} legal lines)")
    no_abort = np.zeros(1, np.uint8)
    for name in args.order:
        if name == "rank":
            order = by_rank
        elif name == "line":
            order = sorted(lines)
        else:
            head = game.board.pair_id(*choose_move(game, "hard", seed=0)) if name == "hard" else args.first
            order = [head] + [p for p in by_rank if p != head]
        tt = new_table(args.tt_bits)
        t = time.perf_counter()
        best, best_line, nodes = None, -1, 0
        for p in order:
            ls = LazySum(r, tt=tt, root_lines=1 << lines.index(p))
            if best is None:
                res = ls.search(-1000, 1000, 10**12, no_abort)
            else:
                res = ls.search(best, best + 1, 10**12, no_abort)
                if res.value > best:
                    nodes += res.nodes
                    res = ls.search(res.value - 1, 1000, 10**12, no_abort)
            nodes += res.nodes
            if best is None or res.value > best:
                best, best_line = res.value, p
        print(
            f"{name:>6}: value {best}, {nodes} nodes, {time.perf_counter() - t:.2f} s, "
            f"best line {best_line}, tried at place {order.index(best_line) + 1} of {len(order)}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
