"""Seeded matches between two players: ``python benchmarks/ai_match.py A B``.

Players: ``random``, ``greedy`` (see triangles.ai.baselines) and the engine
levels ``easy``, ``medium``, ``hard``.  Game g uses board seed ``seed + g//2``
and the two games on a board swap who starts, so every board is played from
both sides.  Prints wins/draws/losses of A, A's score (draw = half) with a
Wilson 95% interval, and per-move timing.  Runs games in ``--procs`` processes.

    python benchmarks/ai_match.py hard greedy --preset phone --stars 24 --games 200 --extra-turn
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing as mp
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first

from triangles.ai import LEVELS, Level, choose_move
from triangles.ai.levels import get_level
from triangles.rules import Game, Move

BASELINES = ("random", "greedy")


def wilson(p_hat: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    c = (p_hat + z * z / (2 * n)) / d
    h = z * math.sqrt(p_hat * (1 - p_hat) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def variant(spec: str) -> Level:
    """An experimental level such as ``hard:parity=0,width=16``: a built-in level
    with some of its parameters replaced (for tuning runs), named ``spec``.
    Built with :func:`dataclasses.replace`; the global ``LEVELS`` is left alone."""
    base, _, changes = spec.partition(":")
    try:
        lv = get_level(base)
    except ValueError as exc:
        raise ValueError(f"{spec!r}: {exc}") from None
    fields = {f.name for f in dataclasses.fields(lv)} - {"name"}
    kw: dict[str, Any] = {}
    for item in filter(None, changes.split(",")):
        key, _, val = item.partition("=")
        if key not in fields:
            raise ValueError(f"{spec!r}: {key!r} is not a level parameter ({', '.join(sorted(fields))})")
        try:
            kw[key] = type(getattr(lv, key))(float(val) if "." in val else int(val))
        except ValueError:
            raise ValueError(f"{spec!r}: {key} needs a number, got {val!r}") from None
    return dataclasses.replace(lv, name=spec, **kw)


def engine_level(name: str) -> Level:
    """The level a player name stands for: a built-in level or a variant (ValueError otherwise)."""
    if ":" in name:
        return variant(name)
    if name not in LEVELS:
        raise ValueError(
            f"unknown player {name!r}: choose {', '.join(BASELINES)}, {', '.join(LEVELS)} "
            "or a variant such as hard:work=20000000"
        )
    return get_level(name)


def make_player(name: str, seed: int) -> Callable[[Game], Move]:
    import numpy as np

    from triangles.ai.baselines import greedy_move, random_move

    rng = np.random.default_rng(seed)
    if name == "random":
        return lambda g: random_move(g, rng)
    if name == "greedy":
        return lambda g: greedy_move(g, rng)
    level = engine_level(name)
    counter = 0

    def engine(g: Game) -> Move:
        nonlocal counter
        counter += 1
        return choose_move(g, level, seed=seed * 1000 + counter)

    return engine


def _warm() -> None:
    """Load the search kernels in each worker before any move is timed (a warm
    numba cache still costs a load per process: the UI does this at start-up)."""
    from triangles.ai import warm_up

    warm_up()


Job = tuple[str, str, str, int, bool, int, int]


def play_one(args: Job) -> tuple[int, int, list[float], list[float]]:
    a, b, preset, stars, extra, seed, g = args
    from triangles.presets import get_preset

    board = get_preset(preset).make_board(stars, seed + g // 2)
    game = Game(board, extra_turn=extra)
    a_first = g % 2 == 0
    pa = make_player(a, 2 * (seed + g) + 1)
    pb = make_player(b, 2 * (seed + g) + 2)
    a_side = 0 if a_first else 1
    times: dict[str, list[float]] = {"a": [], "b": []}
    while not game.is_over():
        who = "a" if game.player == a_side else "b"
        t0 = time.perf_counter()
        move = (pa if who == "a" else pb)(game)
        times[who].append(time.perf_counter() - t0)
        game.play(*move)
    s = game.scores
    diff = s[a_side] - s[1 - a_side]
    return g, diff, times["a"], times["b"]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=24)
    ap.add_argument("--extra-turn", action="store_true")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--procs", type=int, default=2)
    args = ap.parse_args(argv)
    for name in (args.a, args.b):  # a bad player name fails here, not in every worker
        try:
            make_player(name, 0)
        except ValueError as exc:
            ap.error(str(exc))
    jobs: list[Job] = [
        (args.a, args.b, args.preset, args.stars, args.extra_turn, args.seed, g) for g in range(args.games)
    ]
    t0 = time.time()
    wins = draws = losses = 0
    ta: list[float] = []
    tb: list[float] = []
    margin = 0
    with mp.get_context("spawn").Pool(args.procs, initializer=_warm) as pool:
        for _, diff, xa, xb in pool.imap_unordered(play_one, jobs):
            wins += diff > 0
            draws += diff == 0
            losses += diff < 0
            margin += diff
            ta += xa
            tb += xb
    n = wins + draws + losses
    score = (wins + 0.5 * draws) / n
    lo, hi = wilson(score, n)
    import numpy as np

    rule = "extra turn" if args.extra_turn else "alternate"
    print(f"{args.a} vs {args.b}: {args.preset} {args.stars} stars, {rule}, {n} games ({time.time() - t0:.0f} s)")
    print(
        f"  W/D/L {wins}/{draws}/{losses}  score {100 * score:.1f}%  Wilson95 [{100 * lo:.1f}, {100 * hi:.1f}]  "
        f"mean margin {margin / n:+.2f}"
    )
    for who, ts in ((args.a, ta), (args.b, tb)):
        if ts:
            print(
                f"  {who}: per move median {1000 * np.median(ts):.1f} ms, p95 {1000 * np.percentile(ts, 95):.1f} ms, "
                f"max {1000 * max(ts):.1f} ms"
            )
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
