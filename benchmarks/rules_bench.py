#!/usr/bin/env python3
"""Rules-engine figures for every preset (prints medians; not a test).

    python benchmarks/rules_bench.py [--games 7] [--quick]

Per preset and size: a whole random game through the public API written two
ways -- the array path (each turn pick uniformly among ``legal_moves_array()``,
``play`` it, ask ``is_over()``) and the natural way
(``random.choice(game.legal_moves())``, ``play``, ``is_over()``) -- the same
random game inside one numba kernel, ``legal_moves()`` on a mid-game
position, and ``play``+``undo`` pairs.  Then, side by side on the same 60-star
games: the engine against the same engine with numba switched off
(``NUMBA_DISABLE_JIT=1``, i.e. pure Python, in a child process), and against
the exact-arithmetic pure-Python reference the tests use
(tests/rules_reference.py), replaying whole games (about 100 s a game).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from triangles import kernels as K  # noqa: E402
from triangles.presets import load_presets  # noqa: E402
from triangles.rules import Game  # noqa: E402


def api_game(board, seed: int) -> tuple[float, int]:
    g = Game(board)
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    while not g.is_over():
        moves = g.legal_moves_array()
        i, j = moves[rng.integers(len(moves))]
        g.play(i, j)
    return time.perf_counter() - t0, g.move_count


def natural_game(board, seed: int) -> float:
    """The random game as anyone would first write it: ``random.choice(game.legal_moves())``."""
    g = Game(board)
    rnd = random.Random(seed)
    t0 = time.perf_counter()
    while not g.is_over():
        g.play(*rnd.choice(g.legal_moves()))
    return time.perf_counter() - t0


def kernel_game(board, seed: int) -> float:
    state = Game(board).arrays()  # a private copy of the empty position
    t0 = time.perf_counter()
    K.random_playout(board.arrays, state, seed)
    return time.perf_counter() - t0


def mid_game(board, seed: int) -> Game:
    """A position half-way through a random game."""
    g = Game(board)
    rng = np.random.default_rng(seed)
    length = api_game(board, seed)[1]
    while g.move_count < length // 2:
        moves = g.legal_moves_array()
        g.play(*moves[rng.integers(len(moves))])
    return g


def per_call(fn, reps: int) -> float:
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


def bench_preset(preset, n: int, games: int) -> dict:
    board = preset.make_board(n, seed=1)
    api = [api_game(board, s) for s in range(games)]
    natural = [natural_game(board, s) for s in range(games)]
    kern = [kernel_game(board, s) for s in range(games)]
    g = mid_game(board, 0)
    legal = g.legal_moves()
    lm = [per_call(g.legal_moves, 200) for _ in range(5)]
    k = len(legal)

    def pairs():
        for m in legal[:50]:
            g.play(*m)
            g.undo()

    pu = [per_call(pairs, 20) / min(50, k) for _ in range(5)]
    return {
        "preset": preset.name,
        "stars": n,
        "lines": int(statistics.median(m for _, m in api)),
        "api_game_ms": statistics.median(t for t, _ in api) * 1e3,
        "natural_game_ms": statistics.median(natural) * 1e3,
        "kernel_game_ms": statistics.median(kern) * 1e3,
        "mid_legal_moves_us": statistics.median(lm) * 1e6,
        "mid_legal_count": k,
        "play_undo_us": statistics.median(pu) * 1e6,
    }


def api_games_60(games: int) -> list[float]:
    board = load_presets()["phone"].make_board(60, seed=1)
    return [api_game(board, s)[0] for s in range(games)]


def reference_games(games: int) -> tuple[list[float], list[float]]:
    """Whole 60-star games replayed move by move (play + is_over) by the exact reference and the engine."""
    sys.path.insert(0, str(ROOT / "tests"))
    from rules_reference import RefGame

    board = load_presets()["phone"].make_board(60, seed=1)
    t_ref, t_eng = [], []
    for seed in range(games):
        g = Game(board)
        rng = np.random.default_rng(seed)
        moves = []
        while not g.is_over():
            legal = g.legal_moves_array()
            m = tuple(int(v) for v in legal[rng.integers(len(legal))])
            g.play(*m)
            moves.append(m)
        ref = RefGame(board.stars.tolist(), board.tolerance)
        t0 = time.perf_counter()
        for m in moves:
            ref.play(*m)
            ref.is_over()
        t_ref.append(time.perf_counter() - t0)
        assert tuple(ref.scores) == g.scores
        runs = []
        for _ in range(5):
            g = Game(board)
            t0 = time.perf_counter()
            for m in moves:
                g.play(*m)
                g.is_over()
            runs.append(time.perf_counter() - t0)
        t_eng.append(statistics.median(runs))
    return t_ref, t_eng


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=7, help="seeded games per figure (medians)")
    ap.add_argument("--quick", action="store_true", help="skip the pure-Python comparisons")
    ap.add_argument(
        "--reference-games", type=int, default=1, help="whole 60-star games for the exact reference (about 100 s each)"
    )
    ap.add_argument("--child-60", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.child_60:  # run by the parent with NUMBA_DISABLE_JIT=1
        print(json.dumps(api_games_60(args.games)))
        return

    presets = load_presets()
    # warm up: compile (or load from cache) every kernel before timing
    b = presets["phone"].make_board(24, seed=0)
    api_game(b, 0)
    natural_game(b, 0)
    kernel_game(b, 0)

    print(f"numba cache: {os.environ.get('NUMBA_CACHE_DIR')}")
    print(
        f"{'preset':7} {'stars':>5} {'lines':>5} {'API game':>10} {'natural':>10} {'kernel game':>12} "
        f"{'legal_moves':>12} {'(count)':>7} {'play+undo':>10}"
    )
    for p in presets.values():
        for n in p.stars:
            r = bench_preset(p, n, args.games)
            print(
                f"{r['preset']:7} {r['stars']:5d} {r['lines']:5d} {r['api_game_ms']:8.2f}ms "
                f"{r['natural_game_ms']:8.2f}ms "
                f"{r['kernel_game_ms']:10.2f}ms {r['mid_legal_moves_us']:10.1f}us {r['mid_legal_count']:7d} "
                f"{r['play_undo_us']:8.2f}us"
            )

    if args.quick:
        return
    games = min(args.games, 3)
    fast = api_games_60(games)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, __file__, "--child-60", "--games", str(games)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    slow = json.loads(out.strip().splitlines()[-1])
    print(
        f"\n60 stars, the same {games} API games: numba {statistics.median(fast) * 1e3:.2f} ms, "
        f"pure Python (NUMBA_DISABLE_JIT) {statistics.median(slow) * 1e3:.0f} ms, "
        f"ratio {statistics.median(slow) / statistics.median(fast):.0f}x"
    )
    if args.reference_games > 0:
        t_ref, t_eng = reference_games(args.reference_games)
        ref_s, eng_s = statistics.median(t_ref), statistics.median(t_eng)
        print(
            f"60 stars, {len(t_ref)} whole game(s) replayed with play+is_over each move: exact reference "
            f"(tests/rules_reference.py) {ref_s:.1f} s, engine {eng_s * 1e3:.2f} ms, ratio {ref_s / eng_s:.0f}x"
        )


if __name__ == "__main__":
    main()
