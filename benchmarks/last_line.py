"""Who wins under perfect play, by who draws the last line?  (Prints figures; not a test.)

With strict alternation the player who draws the game's last line is fixed
by how many lines the game lasts, and on most boards that count does not
depend on the play: every game ends with the stars triangulated, except
where the rules' tolerance keeps some pairs of stars from being joined, so
that a thin face of nearly straight stars can be left that no countable
triangle can fill.  This solves whole small boards exactly
(:func:`triangles.ai.solver.solve`) and splits the first player's value by
who draws the last line, judged from ``--random`` random games on the board
(the boards where those games' counts differ are a third group).  On 8 and 9
stars the player who draws the last line wins every board whose count is
fixed but one, drawn; hard's games against ``mcts`` on 24 stars split the
same way (``ai_match.py`` prints the split), see ``benchmarks/middle-game.md``.

With ``--games``, it reads the games ``ai_match.py --games-out`` wrote instead
and splits A's results by the side the board gives A (who draws the last line
at the count random games reach most often), by whether that count varies,
and by whether the game changed who drew the last line.  With ``--faces`` it
counts the boards with and without thin faces (``triangles.ai.faces``, where the count can
change) against whether random games' counts varied.

    python benchmarks/last_line.py [--stars 9] [--boards 60] [--seed 7000] [--random 8]
    python benchmarks/last_line.py --stars 24 --random 30 --games g12000.jsonl g13000.jsonl
    python benchmarks/last_line.py --stars 24 --seed 5000 --boards 20 --random 30 --faces
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from triangles.presets import Preset
    from triangles.rules import Board

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first
sys.path.insert(0, str(Path(__file__).resolve().parent))  # ai_match.py, next to this file


def line_counts(board: Board, games: int, seed: int) -> Counter[int]:
    """How many lines each of ``games`` uniformly random games on ``board`` lasted (alternation)."""
    from triangles.rules import Game

    rng = np.random.default_rng(seed)
    counts: Counter[int] = Counter()
    for _ in range(games):
        g = Game(board)
        while not g.is_over():
            moves = g.legal_moves()
            g.play(*moves[int(rng.integers(len(moves)))])
        counts[g.move_count] += 1
    return counts


def count_faces(preset: Preset, stars: int, seed: int, boards: int, random_games: int) -> None:
    """Boards with and without thin faces, against whether random games' line counts vary."""
    from triangles.ai.faces import thin_faces

    table: Counter[tuple[bool, bool]] = Counter()
    for b in range(seed, seed + boards):
        board = preset.make_board(stars, b)
        table[(bool(thin_faces(board)), len(line_counts(board, random_games, b)) > 1)] += 1
    print(f"{preset.name} {stars} stars, boards {seed}-{seed + boards - 1}, {random_games} random games a board:")
    for faces in (True, False):
        for varies in (True, False):
            print(
                f"  {'with' if faces else 'without'} thin faces, line count "
                f"{'varies' if varies else 'fixed'}: {table[(faces, varies)]} boards"
            )


def split_games(paths: Sequence[Path], preset: Preset, stars: int, random_games: int) -> None:
    """A's results in ``ai_match.py --games-out`` files, split by the side each board gives A."""
    from ai_match import wdl

    counts: dict[int, Counter[int]] = {}
    table: dict[tuple[str, str, str], list[int]] = {}  # (side, count, kept or changed): A's margins
    for path in paths:
        for row in map(json.loads, path.read_text(encoding="utf-8").splitlines()):
            b = int(row["board"])
            if b not in counts:
                counts[b] = line_counts(preset.make_board(stars, b), random_games, b)
            usual = counts[b].most_common(1)[0][0]
            side = "A" if (usual % 2 == 1) == bool(row["a_first"]) else "B"
            count = "varies" if len(counts[b]) > 1 else "fixed"
            changed = "changed" if len(row["moves"]) % 2 != usual % 2 else "kept"
            table.setdefault((side, count, changed), []).append(int(row["a_margin"]))
    games = sum(len(v) for v in table.values())
    print(
        f"{games} games on {len(counts)} boards ({preset.name} {stars} stars; each board's usual line count "
        f"from {random_games} random games): A's W/D/L"
    )
    for (side, count, changed), margins in sorted(table.items()):
        w, d, lo = wdl(margins)
        print(
            f"  the board's usual count gives the last line to {side}, the count {count}, the game {changed} "
            f"who drew it: {w}/{d}/{lo} ({100 * (w + d / 2) / (w + d + lo):.1f} %)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=9)
    ap.add_argument("--boards", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7000, help="the first board's seed")
    ap.add_argument("--random", type=int, default=8, help="random games a board, to find its line count")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds for one board's solve")
    ap.add_argument("--games", type=Path, nargs="+", help="split these games (ai_match.py --games-out) instead")
    ap.add_argument("--faces", action="store_true", help="count boards with thin faces and varying counts instead")
    args = ap.parse_args(argv)
    if args.random < 1 or args.boards < 1:
        ap.error("--random and --boards need at least 1")
    from triangles.presets import get_preset

    try:
        preset = get_preset(args.preset)
        preset.make_board(args.stars, args.seed)
    except (KeyError, ValueError) as e:
        ap.error(f"no such board: {e}")
    if args.faces:
        count_faces(preset, args.stars, args.seed, args.boards, args.random)
        return 0
    if args.games:
        try:
            split_games(args.games, preset, args.stars, args.random)
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"could not read the games: {e}", file=sys.stderr)
            return 1
        return 0

    from ai_match import wdl
    from triangles.ai.solver import solve
    from triangles.rules import Game

    groups: dict[str, list[int]] = {"first": [], "second": [], "varies": []}
    unsolved = 0
    t0 = time.time()
    for b in range(args.seed, args.seed + args.boards):
        board = preset.make_board(args.stars, b)
        counts = line_counts(board, args.random, b)
        try:
            value = solve(Game(board), time_limit=args.time_limit)
        except ValueError:
            unsolved += 1
            continue
        key = "varies" if len(counts) > 1 else ("first" if next(iter(counts)) % 2 == 1 else "second")
        groups[key].append(value)
    names = {
        "first": "the first player draws the last line",
        "second": "the second player draws the last line",
        "varies": "the line count varies",
    }
    print(
        f"{args.preset} {args.stars} stars, alternation, boards {args.seed}-{args.seed + args.boards - 1}: "
        f"the first player's exact value ({time.time() - t0:.0f} s; {unsolved} boards over the solver's budget)"
    )
    for key, values in groups.items():
        if values:
            print(
                f"  {names[key]}: {len(values)} boards, first player W/D/L {{}}/{{}}/{{}}, mean {{:+.2f}}".format(
                    *wdl(values), np.mean(values)
                )
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
