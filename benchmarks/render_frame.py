"""Frame-time benchmark of the board renderer (not a test: prints figures).

Full 180-star tablet board at 1180 x 820 with a seeded random game played to
the end through the rules API, headless (SDL dummy video driver).  Measures:

* cold start   - first draw: nebula background + building the board layer
* play         - one new line per frame, drawn incrementally, whole game
* idle         - finished game, nothing changes, hover ring only
* animation    - finished game with scoring flashes, rubber band and hint
* undo         - one undo per frame (snapshot restore), undo past the
                 snapshots (checkpoint), jumps back and forward, a full rebuild
* resize       - set_viewport to 1600 x 1000 and draw (new background + rebuild)
* zoom         - the wheel gesture, frames until crisp, idle at 2x and 4x, a drag-pan

Every shipped theme is measured in turn (``--theme NAME`` for one), and a
summary of the idle frames closes the run: the target is a median under 4 ms
and no frame over 16 ms.

Run:  python benchmarks/render_frame.py [--stars 180] [--seed 1] [--theme paper]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from functools import partial

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from triangles.presets import get_preset  # noqa: E402
from triangles.rules import Game  # noqa: E402
from triangles.settings import available_themes  # noqa: E402
from triangles.ui.render import BoardView, Overlay, Viewport, load_theme  # noqa: E402


def random_game(board, seed: int) -> list[tuple[int, int]]:
    """Moves of a seeded uniformly random game played to the end."""
    g = Game(board)
    rng = np.random.default_rng(seed)
    moves = []
    while not g.is_over():
        lm = g.legal_moves_array()
        i, j = lm[int(rng.integers(len(lm)))]
        g.play(int(i), int(j))
        moves.append((int(i), int(j)))
    return moves


_cpu: list[float] = []  # CPU time of the frames timed since the last report


def report(name: str, ms: list[float]) -> float:
    """Wall-clock figures, then this thread's CPU time: on a shared machine the
    wall clock includes time the process waited for a core, the CPU time not."""
    cpu = _cpu[-len(ms) :]
    ms_sorted = sorted(ms)
    p95 = ms_sorted[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(
        f"{name:<32} n={len(ms):4d}  wall median {statistics.median(ms):7.3f}  "
        f"p95 {p95:7.3f}  max {max(ms):7.3f} ms | cpu median {statistics.median(cpu):7.3f}  "
        f"max {max(cpu):7.3f} ms"
    )
    _cpu.clear()
    return max(cpu)


def timed(fn) -> float:
    c = time.thread_time()
    t = time.perf_counter()
    fn()
    wall = (time.perf_counter() - t) * 1000.0
    _cpu.append((time.thread_time() - c) * 1000.0)
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="tablet")
    ap.add_argument("--stars", type=int, default=180)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--idle-frames", type=int, default=500)
    ap.add_argument("--theme", action="append", help="a theme folder (repeatable); default: every shipped theme")
    args = ap.parse_args()

    pygame.init()
    pr = get_preset(args.preset)
    board = pr.make_board(args.stars, seed=args.seed)
    moves = random_game(board, args.seed)
    print(
        f"{args.preset} {pr.window[0]}x{pr.window[1]}, {board.n} stars, {len(moves)} lines "
        f"in the finished game, pygame-ce {pygame.version.ver}, SDL {'.'.join(map(str, pygame.get_sdl_version()))}"
    )
    summary = []
    for name in args.theme or available_themes():
        print(f"\n== theme {name}")
        summary.append((name, run_theme(args, pr, board, moves, name)))
    print(
        "\nidle frame on the finished board (target: median < 4 ms, max < 16 ms; wall max includes waiting for a core)"
    )
    for name, (med, mx, cpu, med_big, mx_big, cpu_big) in summary:
        print(
            f"  {name:<14} {pr.window[0]}x{pr.window[1]}: median {med:6.3f}, max {mx:6.3f} (cpu {cpu:6.3f}) ms | "
            f"1600x1000: median {med_big:6.3f}, max {mx_big:6.3f} (cpu {cpu_big:6.3f}) ms"
        )
    run_zoom(args, pr, board, moves, (args.theme or available_themes())[0])


def run_zoom(args, pr, board, moves, name: str) -> None:
    """Zoom and pan on the finished board: the wheel gesture (stand-in + a slice of the crisp layer
    per frame), frames until it is crisp, idle zoomed with the last line's pulse, a drag-pan."""
    print(f"\n== zoom ({name}, finished board, last line pulsing)")
    screen = pygame.display.set_mode(pr.window)
    g = Game(board)
    for i, j in moves:
        g.play(i, j)
    view = BoardView(board, load_theme(name), Viewport(pr.window, pr.window, pr.board), bg_seed=args.seed)
    clock = [0.0]

    def frame() -> None:
        clock[0] += 1 / 60
        view.draw(screen, g, Overlay(hover=3, pulse=clock[0]))

    frame()
    pointer = view.star_screen_pos(len(moves) and moves[-1][0])
    gesture = []
    for step in range(8):  # a wheel notch every third frame, about a star
        view.zoom_at(1.25 if step < 6 else 0.8, pointer)
        gesture += [timed(frame) for _ in range(3)]
    report("wheel gesture (8 notches)", gesture)
    settle: list[float] = []
    while not view.sharp and len(settle) < 600:
        settle.append(timed(frame))
    report(f"until crisp at {view.zoom:.2f}x ({len(settle)} frames)", settle or [0.0])
    for z in (2.0, 4.0):
        view.set_zoom(z)
        while not view.sharp:
            frame()
        report(f"idle zoomed {z:.0f}x", [timed(frame) for _ in range(args.idle_frames)])
    view.set_zoom(2.0)
    pan = []
    for _ in range(60):  # a drag: the board follows the pointer every frame
        view.pan_by(-6, -4)
        pan.append(timed(frame))
    while not view.sharp:
        pan.append(timed(frame))
    report(f"drag-pan at 2x + until crisp ({len(pan)} frames)", pan)
    print(f"  zoomed layers completed: {view.zoom_builds}")


def run_theme(args, pr, board, moves, name: str) -> tuple[float, ...]:
    """Every measurement for one theme; returns the idle frames' wall median, wall max and CPU max at both sizes."""
    screen = pygame.display.set_mode(pr.window)
    theme = load_theme(name)
    vp = Viewport(pr.window, pr.window, pr.board)
    gc.collect()
    g = Game(board)
    view = BoardView(board, theme, vp, bg_seed=args.seed)
    report("cold start (bg + layer)", [timed(lambda: view.draw(screen, g, Overlay()))])

    # play: a new line every frame, with the rubber band showing as a player would see it
    play = []
    for i, j in moves:
        g.play(i, j)
        ov = Overlay(hover=j, selected=i, band_end=view.star_screen_pos(j), band_target=j, band_ok=True)
        play.append(timed(partial(view.draw, screen, g, ov)))
    report("play (new line each frame)", play)
    tris = [t for t, _ in g.triangles]
    print(f"  finished: scores {g.scores}, {len(tris)} triangles")

    idle = []
    ov = Overlay(hover=0)
    for _ in range(args.idle_frames):
        idle.append(timed(lambda: view.draw(screen, g, ov)))
    idle_cpu = report("idle (finished game)", idle)

    anim = []
    owners = dict(g.triangles)
    for f in range(args.idle_frames):
        prog = (f % 60) / 60.0
        fl = [(t, owners[t], (prog + 0.1 * q) % 1.0) for q, t in enumerate(tris[:4])]
        ov = Overlay(hover=3, selected=5, band_end=(600.0, 400.0), flashes=fl, hint=moves[-1])
        anim.append(timed(partial(view.draw, screen, g, ov)))
    report("animation (4 flashes+band+hint)", anim)

    undo = []
    for _ in range(4):
        g.undo()
        undo.append(timed(lambda: view.draw(screen, g, Overlay())))
    report("undo (snapshot restore)", undo)
    g.undo()
    report("undo past snapshots", [timed(lambda: view.draw(screen, g, Overlay()))])
    while g.move_count > 200:
        g.undo()
    report("jump back to move 200", [timed(lambda: view.draw(screen, g, Overlay()))])
    for i, j in moves[200:]:
        g.play(i, j)
    report("jump forward to the end", [timed(lambda: view.draw(screen, g, Overlay()))])
    report("full rebuild (515 lines)", [timed(lambda: view.layer().rebuild(g))])

    layer = view.layer()
    print(
        f"  layer stats: {layer.increments} incremental updates, {layer.restores} restores, {layer.rebuilds} rebuilds"
    )

    big = (1600, 1000)
    screen = pygame.display.set_mode(big)
    view.set_viewport(Viewport(big, pr.window, pr.board))
    report("resize 1600x1000 (bg+rebuild)", [timed(lambda: view.draw(screen, g, Overlay()))])
    idle2 = [timed(lambda: view.draw(screen, g, Overlay(hover=1))) for _ in range(200)]
    idle2_cpu = report("idle at 1600x1000", idle2)
    return statistics.median(idle), max(idle), idle_cpu, statistics.median(idle2), max(idle2), idle2_cpu


if __name__ == "__main__":
    main()
