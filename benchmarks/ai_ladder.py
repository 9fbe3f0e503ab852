"""Every strength target of the computer opponent, one seeded match each:
``python benchmarks/ai_ladder.py [--games 200] [--only hard] [--stars 24,60] [--rules alternate,extra]``.

The ladder of issue #12, measured against players that are not the engine's
own relatives wherever possible:

=================  ======  ====================================================
match              target  opponent
=================  ======  ====================================================
easy vs random     >= 80%  uniformly random legal lines
medium vs greedy   >= 60%  take, else give nothing, else give least (baselines)
medium vs easy     >= 65%  the engine one level down (the levels' spacing)
hard vs greedy     >= 95%  the same greedy player
hard vs medium     >= 85%  the engine one level down
hard vs mcts       >= 85%  benchmarks/mcts.py: an independent UCT player at
                           about 0.5 s a move, which never imports the engine
=================  ======  ====================================================

Each match runs on 24 and 60 stars (phone) under both turn rules (strict
alternation and "move again after a triangle"; the issue's target for hard vs
mcts is strict alternation, the extra-turn figure is reported alongside).
Every match is printed by :mod:`ai_match` as it finishes (wins, draws, losses,
score with a Wilson 95% interval, the score moving first and second, per-move
timings), then a summary table marks each target: ``met`` when the score
reaches it, ``sure`` when the whole Wilson interval does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ai_match

#: (player, opponent, target score)
LADDER: tuple[tuple[str, str, float], ...] = (
    ("easy", "random", 0.80),
    ("medium", "greedy", 0.60),
    ("medium", "easy", 0.65),
    ("hard", "greedy", 0.95),
    ("hard", "medium", 0.85),
    ("hard", "mcts", 0.85),
)
RULES = {"alternate": False, "extra": True}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--stars", default="24,60")
    ap.add_argument("--rules", default="alternate,extra", help="comma-separated: alternate, extra")
    ap.add_argument("--only", default="", help="run only the matches of this player (e.g. hard, or mcts)")
    args = ap.parse_args(argv)
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    if not rules or any(r not in RULES for r in rules):
        ap.error(f"--rules takes {', '.join(RULES)}")
    summary: list[tuple[str, int, str, ai_match.Result, float]] = []
    for stars in (int(s) for s in args.stars.split(",")):
        for rule in rules:
            for a, b, target in LADDER:
                if args.only and args.only not in (a, b):
                    continue
                result = ai_match.run(
                    a,
                    b,
                    stars=stars,
                    extra_turn=RULES[rule],
                    games=args.games,
                    seed=args.seed,
                    procs=args.procs,
                )
                print(result.report(), flush=True)
                summary.append((f"{a} vs {b}", stars, rule, result, target))
    print(f"\n{'match':18} {'stars':>5} {'rule':9} {'score':>6} {'Wilson95':>14} {'target':>6}  verdict")
    for name, stars, rule, res, target in summary:
        lo, hi = ai_match.wilson(res.score, res.games)
        verdict = "sure" if lo >= target else "met" if res.score >= target else "NOT MET"
        print(
            f"{name:18} {stars:5d} {rule:9} {100 * res.score:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}] "
            f"{100 * target:5.0f}%  {verdict}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
