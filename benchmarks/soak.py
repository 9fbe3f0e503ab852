"""Soak: many computer-vs-computer games through the real engine and the match layer.

    python benchmarks/soak.py --games 500 --procs 2

Every preset and size, every pairing of levels and both turn rules, in turn.
Each game is played move by move through ``Match.play`` with the real engine
choosing (``triangles.ai.choose_move`` at the seat's level), then saved as a
record, read back with the full checks and replayed; the replay must give
the same lines, owners and scores.  Prints any exception (the run fails),
per-worker resident memory at its 25th game and at its last, and timing.
Resident memory is read from /proc (Linux); elsewhere it is reported as 0.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first

from triangles.ai import choose_move
from triangles.match import Match
from triangles.players import LEVEL_NAMES, Player
from triangles.presets import load_presets
from triangles.record import load_record, save_record
from triangles.rules import Game

#: the RSS sample that stands for "after warm-up" (the issue's game 50 of 500, per worker of two)
WARM_GAME = 25


def rss_mb() -> float:
    """Resident memory of this process in MB (0 where /proc is missing)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def schedule(games: int) -> list[tuple[str, int, str, str, bool, int]]:
    """(preset, stars, level of player 1, level of player 2, extra turn, seed) for each game, cycling."""
    combos = [
        (name, stars, a, b, extra)
        for name, preset in load_presets().items()
        for stars in preset.stars
        for a, b in itertools.product(LEVEL_NAMES, repeat=2)
        for extra in (False, True)
    ]
    # interleave sizes so any prefix of the run covers every preset and size
    combos.sort(key=lambda c: (LEVEL_NAMES.index(c[2]) + LEVEL_NAMES.index(c[3]), c[4], c[1]))
    order = [combos[(k * 37) % len(combos)] for k in range(len(combos))]
    return [(*order[g % len(order)], 1000 + g) for g in range(games)]


def play_one(job: tuple[str, int, str, str, bool, int], folder: Path) -> dict[str, Any]:
    preset_name, stars, la, lb, extra, seed = job
    preset = load_presets()[preset_name]
    board = preset.make_board(stars, seed)
    players = (Player(f"cpu-{la}", "computer", la), Player(f"cpu-{lb}", "computer", lb))  # type: ignore[arg-type]
    match = Match(Game(board, extra), players, preset_name, seed)
    t0 = time.perf_counter()
    while not match.game.is_over():
        g = match.game
        level = match.players[g.player].level or "medium"
        i, j = choose_move(g, level, seed=seed * 7919 + g.move_count)
        match.play(i, j)
    think = time.perf_counter() - t0
    path = folder / f"soak-{seed}.json"
    save_record(match.to_record(), path)
    again = Match.from_record(load_record(path))
    path.unlink()
    same = again.game.lines == match.game.lines and again.game.scores == match.game.scores
    if not same:
        raise AssertionError(f"game {seed}: the saved record replays differently")
    return {"moves": match.game.move_count, "seconds": think, "scores": match.game.scores}


def worker(jobs: list[tuple[str, int, str, str, bool, int]], out: Any) -> None:
    folder = Path(tempfile.mkdtemp(prefix="triangles-soak-"))
    rss_warm = rss_end = 0.0
    for n, job in enumerate(jobs, start=1):
        try:
            res = play_one(job, folder)
            out.put(("game", job, res))
        except Exception:
            out.put(("error", job, traceback.format_exc()))
        if n == WARM_GAME:
            rss_warm = rss_mb()
    rss_end = rss_mb()
    out.put(("memory", os.getpid(), (rss_warm, rss_end, len(jobs))))
    folder.rmdir()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--procs", type=int, default=2)
    args = ap.parse_args()
    jobs = schedule(args.games)
    chunks = [jobs[k :: args.procs] for k in range(args.procs)]
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(c, q)) for c in chunks if c]
    t0 = time.perf_counter()
    for p in procs:
        p.start()
    done = errors = 0
    per_move: list[float] = []
    mem: list[tuple[float, float, int]] = []
    covered: set[tuple[str, int, str, str, bool]] = set()
    finished = 0
    while finished < len(procs):
        kind, key, val = q.get()
        if kind == "game":
            done += 1
            covered.add(key[:5])
            per_move.append(val["seconds"] / max(1, val["moves"]))
            if done % 25 == 0:
                print(f"[soak] {done}/{len(jobs)} games, {time.perf_counter() - t0:.0f} s", flush=True)
        elif kind == "error":
            errors += 1
            print(f"[soak] EXCEPTION in game {key}:\n{val}", flush=True)
        else:
            mem.append(val)
            finished += 1
    for p in procs:
        p.join()
    wall = time.perf_counter() - t0
    print(f"games: {done} finished, {errors} with an exception, {len(covered)} distinct set-ups, {wall:.0f} s")
    if per_move:
        print(f"seconds per move (mean over games): median {statistics.median(per_move) * 1000:.1f} ms")
    for warm, end, n in mem:
        growth = (end / warm - 1) * 100 if warm else float("nan")
        print(f"worker resident memory: {warm:.0f} MB at game {WARM_GAME}, {end:.0f} MB at game {n} ({growth:+.1f} %)")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
