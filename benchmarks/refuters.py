"""How much a refutation's first answer costs in `solve`'s search against the cheapest (prints figures; not a test).

On a whole board worth ``v`` to its first mover, a root move ``m`` scoring ``p`` is refuted
when the opponent, to move after it, holds the first mover to ``v`` at most: the position
after ``m`` is worth at least ``p - v`` to the opponent.  That is a cut node: one answer is
enough, and the answer tried first sets the size of the tree below it.  For each root move
asked for, the position after it is searched with that null window by the lazy search
(:class:`triangles.ai.lazy.LazySum`, one search, a fresh table), then each of its legal lines
alone as the only root move (``root_lines``), the same window, a fresh table each, stopped
at ``--cap`` times the search's own nodes.  A row an answer: its line, whether it refutes,
its nodes, the legal lines it leaves and those in regions too large to explore whole.  Then
the search's nodes against the cheapest refuting answer's (the forty-second look in
``benchmarks/middle-game.md``: 1.0-3.5 times before its change).

    python benchmarks/refuters.py --board 2149 --root 0 5 15      # 12 stars, value from solve
    python benchmarks/refuters.py --board 3044 --value 2 --root 20 --cap 2

Root moves are numbered from 0 in the order of the lines' numbers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=12)
    ap.add_argument("--board", type=int, required=True, help="the board's seed")
    ap.add_argument("--value", type=int, default=None, help="the board's value (default: solve it first)")
    ap.add_argument("--root", type=int, nargs="+", required=True, help="root moves, numbered from 0")
    ap.add_argument("--cap", type=float, default=3.0, help="an answer's nodes at most, times the search's (0: no cap)")
    ap.add_argument("--tt-bits", type=int, default=22)
    args = ap.parse_args(argv)
    if args.cap < 0 or not 10 <= args.tt_bits <= 26:
        ap.error("--cap must be 0 or more and --tt-bits 10-26")

    from triangles.ai import solve, warm_up
    from triangles.ai.expand import SMALL
    from triangles.ai.lazy import LazySum
    from triangles.ai.regions import Regions
    from triangles.presets import PresetError, get_preset
    from triangles.rules import Game

    try:
        game = Game(get_preset(args.preset).make_board(args.stars, args.board))
    except (PresetError, ValueError) as e:
        ap.error(str(e))
    roots = sorted(game.board.pair_id(i, j) for i, j in game.legal_moves())
    bad = [k for k in args.root if not 0 <= k < len(roots)]
    if bad:
        ap.error(f"root moves are 0-{len(roots) - 1} on this board: {bad}")
    warm_up()
    v0 = args.value
    if v0 is None:
        try:
            v0 = solve(game, time_limit=None)
        except ValueError as e:  # too many legal lines
            ap.error(str(e))
    print(f"board {args.board} ({args.stars} stars, {len(roots)} legal lines), value {v0}")
    no_abort = np.zeros(1, np.uint8)
    for k in args.root:
        line = roots[k]
        after = game.clone()
        pts = len(after.play(*game.board.pair(line)))
        lo = pts - v0  # the opponent refutes with a value of lo or more
        if after.is_over():
            print(f"root move {k} (line {line}) ends the game")
            continue
        r = Regions(after, after.arrays())
        if not r.fits:
            print(f"root move {k} (line {line}): {r.n} legal lines after it, past the regions' masks")
            continue
        own = LazySum(r, tt_bits=args.tt_bits).search(lo - 1, lo, 10**12, no_abort)
        verdict = "refuted" if own.value >= lo else "not refuted"
        print(
            f"root move {k} (line {line}, scores {pts}): {verdict}, the search's nodes {own.nodes}, answer {own.pair}"
        )
        cap = int(args.cap * own.nodes) + 1000 if args.cap else 10**12
        print(f"  {'answer':>6} {'refutes':>8} {'nodes':>10} {'lines left':>10} {'in large':>8}")
        best: tuple[int, int] | None = None
        for b in range(r.n):
            res = LazySum(r, tt_bits=args.tt_bits, root_lines=1 << b).search(lo - 1, lo, cap, no_abort)
            answer = int(r.lines[b])
            kid = after.clone()
            kid.play(*after.board.pair(answer))
            sizes = [int(m).bit_count() for m in Regions(kid, kid.arrays()).parts()]
            refutes = "capped" if res.aborted else "yes" if res.value >= lo else "no"
            if refutes == "yes" and (best is None or res.nodes < best[0]):
                best = (res.nodes, answer)
            large = sum(x for x in sizes if x > SMALL)
            print(f"  {answer:>6} {refutes:>8} {res.nodes:>10} {sum(sizes):>10} {large:>8}", flush=True)
        if best is not None:
            print(
                f"  the search's nodes {own.nodes}, the cheapest answer's {best[0]} (line {best[1]}): "
                f"{own.nodes / best[0]:.2f} times"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
