"""Every strength target of the computer opponent, one seeded match each:
``python benchmarks/ai_ladder.py [--games 200] [--only hard]``.

For 24 and 60 stars (phone), both turn rules: easy vs random, medium vs easy,
hard vs medium and hard vs greedy, each printed by :mod:`ai_match` (wins,
draws, losses, score with a Wilson 95% interval, per-move timings).  Targets:
easy >= 80% against random, each level >= 65% against the one below, hard >=
85% against greedy.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ai_match  # noqa: E402

PAIRS = (("easy", "random"), ("medium", "easy"), ("hard", "medium"), ("hard", "greedy"))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--stars", default="24,60")
    ap.add_argument("--only", default="", help="run only the matches of this player (e.g. hard)")
    args = ap.parse_args(argv)
    for stars in args.stars.split(","):
        for extra in (False, True):
            for a, b in PAIRS:
                if args.only and args.only not in (a, b):
                    continue
                argv = [
                    a,
                    b,
                    "--stars",
                    stars,
                    "--games",
                    str(args.games),
                    "--seed",
                    str(args.seed),
                    "--procs",
                    str(args.procs),
                ] + (["--extra-turn"] if extra else [])
                ai_match.main(argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
