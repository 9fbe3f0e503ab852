"""When were the games an engine did not win decided?  (Prints figures; not a test.)

Plays the seeded games of ``ai_match.py A B`` (same boards, sides and player
seeds) and, for every game A did not win, walks back from the end: at each
position it solves the rest exactly (:func:`triangles.ai.solver.exact`, one
thread, ``--budget`` nodes) and prints A's final margin under perfect play
from there, until a position is too large to solve.  Where that margin drops
on one of A's lines, A's line lost it; where it rises, B's line gave it back.
On small boards (14 stars: the whole give phase is within reach) this shows
whether games are lost in the give phase or already before it.  ``--regions``
values each position over its regions instead (:mod:`triangles.ai.regions`,
within ``--states`` region states and ``--budget`` nodes), which reaches about
50 legal lines on 24 stars with alternation at some 20 s a position.

    python benchmarks/decided_when.py hard greedy --stars 14 --games 100 [--seed 0] [--budget 20000000]
    python benchmarks/decided_when.py hard mcts --stars 24 --games 40 --seed 5000 --regions --budget 60000000
"""

from __future__ import annotations

import multiprocessing as mp
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first
sys.path.insert(0, str(Path(__file__).resolve().parent))  # ai_match.py and give_estimates.py, next to this file

Job = tuple[str, str, str, int, bool, int, int, int, int]


def replay(args: Job) -> tuple[int, int, list[str]]:
    """Play game ``g`` as ai_match does; for a game A did not win, the walk back from its end."""
    a, b, preset, stars, extra, seed, g, budget, states = args
    from ai_match import board_seed, make_player
    from give_estimates import exact_value
    from triangles.ai.baselines import move_table
    from triangles.presets import get_preset
    from triangles.rules import Game

    board = get_preset(preset).make_board(stars, board_seed(seed, g))
    game = Game(board, extra_turn=extra)
    a_side = 0 if g % 2 == 0 else 1
    pa, pb = make_player(a, 2 * (seed + g) + 1), make_player(b, 2 * (seed + g) + 2)
    while not game.is_over():
        game.play(*(pa if game.player == a_side else pb)(game))
    s = game.scores
    diff = int(s[a_side] - s[1 - a_side])
    if diff > 0:
        return g, diff, []

    rows: list[str] = []
    while game.moves:
        line = game.moves[-1]
        game.undo()
        D = game.arrays()
        v = exact_value(game, D, budget, states)
        if v is None:
            rows.append(f"    ... {game.legal_count()} legal lines: over {budget} nodes")
            break
        st = D.counters[0]
        mover_is_a = int(st["player"]) == a_side
        lead = int(st["score0"] - st["score1"]) * (1 if a_side == 0 else -1)
        final = lead + v * (1 if mover_is_a else -1)
        _, closes, gives = move_table(board.arrays, D)
        nsafe = int(((closes == 0) & (gives == 0)).sum())
        who = a if mover_is_a else b
        rows.append(
            f"    line {len(game.moves) + 1:3d}  {game.legal_count():3d} legal, {nsafe:3d} safe  "
            f"{who} to move  A's margin with perfect play from here {final:+d}  (played {line})"
        )
    return g, diff, rows


def main(argv: Sequence[str] | None = None) -> int:
    from ai_match import check_players, match_arguments

    ap = match_arguments(__doc__.splitlines()[0], stars=14, games=100)
    ap.add_argument("--budget", type=int, default=20_000_000, help="node budget of one exact solve")
    ap.add_argument("--regions", action="store_true", help="value the positions over their regions")
    ap.add_argument("--states", type=int, default=3_000_000, help="region states --regions may explore")
    args = ap.parse_args(argv)
    check_players(ap, args.a, args.b)
    jobs: list[Job] = [
        (
            args.a,
            args.b,
            args.preset,
            args.stars,
            args.extra_turn,
            args.seed,
            g,
            args.budget,
            args.states if args.regions else 0,
        )
        for g in range(args.games)
    ]
    not_won = 0
    with mp.get_context("spawn").Pool(args.procs) as pool:
        for g, diff, rows in sorted(pool.imap_unordered(replay, jobs)):
            if diff > 0:
                continue
            not_won += 1
            print(f"game {g} ({args.a} {'first' if g % 2 == 0 else 'second'}): final margin {diff:+d}")
            print("\n".join(reversed(rows)), flush=True)
    print(f"{args.a} did not win {not_won} of {args.games} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
