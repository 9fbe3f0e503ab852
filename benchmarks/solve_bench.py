"""`solve` on whole boards as a caller gets it: seconds, value and size a board (prints figures; not a test).

Issue #12's goal: :func:`triangles.ai.solver.solve` exact on a whole 12-star board
within 10 s.  Each board (``--preset``'s layout, seeds ``--first`` on) is solved from
its first line by ``solve`` itself (two searches on two cores where there are two,
its node budget, and ``--time-limit`` in place of its 30 s so that a slow board is
timed rather than cut), one board after the other in one process, after the
kernels are loaded.  A row a board: seed, the triangles the board holds (a
triangulation's count: the game's length follows it), legal lines, the value (the
first mover's future points minus the opponent's) or why ``solve`` refused, and
seconds.  Then the median, how many boards were solved within ``--goal``, and the
same by the triangles a board holds, since the time follows them.

    python benchmarks/solve_bench.py                                # boards 2000-2007, alternation
    python benchmarks/solve_bench.py --first 2008 --boards 40      # forty more
    python benchmarks/solve_bench.py --extra-turn
    python benchmarks/solve_bench.py --triangles 17 --boards 8    # the first 8 boards from 2000 on holding 17

``--triangles`` keeps only boards holding that many triangles (seeds from ``--first`` on, the
first ``--boards`` such), so that the slow tail of the boards can be timed on its own; how
often each count comes up is printed with ``--census``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first

if TYPE_CHECKING:
    from triangles.presets import Preset
    from triangles.rules import Board


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=12)
    ap.add_argument("--first", type=int, default=2000, help="the first board's seed")
    ap.add_argument("--boards", type=int, default=8, help="how many boards, seeds from --first on")
    ap.add_argument("--extra-turn", action="store_true")
    ap.add_argument("--triangles", type=int, default=0, help="only boards holding this many triangles")
    ap.add_argument("--census", type=int, default=0, metavar="N", help="count the triangles of boards 0..N-1 and stop")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds a board before solve gives up")
    ap.add_argument("--goal", type=float, default=10.0, help="seconds a board the summary counts within")
    args = ap.parse_args(argv)
    if args.boards < 1 or args.first < 0 or args.stars < 3 or args.time_limit <= 0:
        ap.error("--boards and --stars need whole numbers >= 1 and 3, --first >= 0, --time-limit > 0")
    if args.triangles < 0 or args.census < 0:
        ap.error("--triangles and --census need whole numbers >= 0")

    from triangles.ai import warm_up
    from triangles.ai.solver import solve
    from triangles.presets import PresetError, get_preset
    from triangles.rules import Game

    try:
        preset = get_preset(args.preset)
        if args.census:
            return _census(preset, args.stars, args.census)
        seeds, boards = _boards(preset, args.stars, args.first, args.boards, args.triangles)
    except (PresetError, ValueError) as e:
        ap.error(str(e))
    rule = "extra turn" if args.extra_turn else "alternation"
    print(f"solve on whole {args.preset} boards of {args.stars} stars, {rule}, limit {args.time_limit:g} s")
    warm_up()  # the game's kernels loaded (or compiled) first
    _load_solver(boards[0], args.extra_turn)
    print(f"{'board':>6} {'triangles':>9} {'legal':>5} {'value':>6} {'seconds':>8}")
    took_by_size: dict[int, list[float | None]] = {}  # seconds a board, None where refused
    for seed, board in zip(seeds, boards, strict=True):
        game = Game(board, args.extra_turn)
        head = f"{seed:>6} {board.max_triangles:>9} {game.legal_count():>5}"
        t = time.perf_counter()
        took: float | None = None
        try:
            value = solve(game, time_limit=args.time_limit)
            took = time.perf_counter() - t
            print(f"{head} {value:>6} {took:>8.2f}", flush=True)
        except ValueError as e:  # too many legal lines, or past its nodes or seconds
            print(f"{head} {'-':>6} {'-':>8}  {e}", flush=True)
        took_by_size.setdefault(board.max_triangles, []).append(took)
    times = [t for ts in took_by_size.values() for t in ts if t is not None]
    within = sum(1 for t in times if t <= args.goal)
    median = f"median {statistics.median(times):.2f} s, " if times else ""
    print(f"solved {len(times)} of {len(boards)}: {median}{within} of {len(boards)} within {args.goal:g} s")
    for size in sorted(took_by_size):
        got = [t for t in took_by_size[size] if t is not None]
        span = f", {min(got):.2f}-{max(got):.2f} s" if got else ""
        ok = sum(1 for t in got if t <= args.goal)
        print(f"  {size} triangles: {ok} of {len(took_by_size[size])} within {args.goal:g} s{span}")
    return 0


def _load_solver(board: Board, extra_turn: bool) -> None:
    """Load (or compile) ``solve``'s own kernels before any board is timed: ``warm_up`` loads
    only those the game plays with, and ``solve`` loads the rest before its own clock starts
    but within the caller's, so the first board timed would include them: about 40 s where
    numba's cache is cold (board 2149, 18 triangles: 48.3 s so, 5.8 s after), 0.05 s from
    the cache.  A search of one node on the first board loads them and gives up."""
    from triangles.ai.solver import solve
    from triangles.rules import Game

    try:
        solve(Game(board, extra_turn), max_nodes=1, time_limit=None)
    except ValueError:
        pass  # gave up after its one node, as asked


def _boards(preset: Preset, stars: int, first: int, count: int, triangles: int) -> tuple[list[int], list[Board]]:
    """The first ``count`` boards from seed ``first`` on (holding ``triangles``, unless 0), and
    their seeds."""
    seeds: list[int] = []
    boards: list[Board] = []
    seed = first
    while len(boards) < count:
        board = preset.make_board(stars, seed)
        if not triangles or board.max_triangles == triangles:
            seeds.append(seed)
            boards.append(board)
        seed += 1
        if triangles and seed - first >= 1000 * count:
            raise ValueError(
                f"{len(boards)} boards hold {triangles} triangles among seeds {first}-{seed - 1}, not {count}"
            )
    return seeds, boards


def _census(preset: Preset, stars: int, n: int) -> int:
    """How many of boards 0..n-1 hold each count of triangles: the weights that turn times
    measured by count into a share of all boards."""
    counts = Counter(preset.make_board(stars, seed).max_triangles for seed in range(n))
    print(f"triangles held by boards 0-{n - 1} ({stars} stars):")
    for t in sorted(counts):
        print(f"  {t:>3}: {counts[t]:>6} ({100 * counts[t] / n:.1f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
