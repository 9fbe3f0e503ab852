"""Headless UI soak: random clicks, drags, keys, resizes, undo/redo, menus and preset switches.

    python benchmarks/ui_soak.py --minutes 20 --seed 1

Runs the real window code under SDL's dummy driver with the real computer
player, for the given wall-clock time, feeding each frame a few random
inputs: half of the clicks go to a live button (so menus, dialogs, presets,
settings and languages really get exercised), the rest to random points and
stars; drags between stars; keys (Escape, Enter, Ctrl+Z/Y, F11, arrows, Tab,
Space, +/-, letters); window resizes.  When the player quits the app, a new
one starts.  Any exception is printed with its traceback and counted (exit
1).  Prints frames, inputs, apps started and resident memory at the start
and the end.  Uses a temporary TRIANGLES_HOME, never the player's files.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["TRIANGLES_HOME"] = tempfile.mkdtemp(prefix="triangles-ui-soak-")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pygame

from soak import rss_mb
from triangles.launch import LaunchOptions
from triangles.ui.app import App, AppConfig

KEYS = [
    (pygame.K_ESCAPE, 0),
    (pygame.K_RETURN, 0),
    (pygame.K_z, pygame.KMOD_CTRL),
    (pygame.K_y, pygame.KMOD_CTRL),
    (pygame.K_F11, 0),
    (pygame.K_LEFT, 0),
    (pygame.K_RIGHT, 0),
    (pygame.K_UP, 0),
    (pygame.K_DOWN, 0),
    (pygame.K_TAB, 0),
    (pygame.K_SPACE, 0),
    (pygame.K_PLUS, 0),
    (pygame.K_MINUS, 0),
    (pygame.K_h, 0),
    (pygame.K_r, 0),
    (pygame.K_n, pygame.KMOD_CTRL),
]


def post(type_: int, **kw: Any) -> None:
    pygame.event.post(pygame.event.Event(type_, **kw))


def buttons(app: App) -> list[pygame.Rect]:
    """Live buttons, except Quit: a soak that quits spends its time starting apps."""
    out = []
    for el in app.gui.get_sprite_group().sprites():
        ids = getattr(el, "object_ids", None)
        if ids and ids[-1] != "#quit" and el.alive() and getattr(el, "visible", False) and hasattr(el, "pressed"):
            out.append(el.rect)
    return out


def random_input(app: App, rng: random.Random) -> str:
    w, h = app.surface.get_size()
    r = rng.random()
    if r < 0.35:
        live = buttons(app)
        if live:
            pos = rng.choice(live).center
        else:
            pos = (rng.randrange(w), rng.randrange(h))
        post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        return "click"
    if r < 0.6:
        pos = (rng.randrange(w), rng.randrange(h))
        post(pygame.MOUSEBUTTONDOWN, pos=pos, button=rng.choice((1, 1, 1, 3)))
        post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        return "click"
    if r < 0.72:
        a = (rng.randrange(w), rng.randrange(h))
        b = (rng.randrange(w), rng.randrange(h))
        post(pygame.MOUSEBUTTONDOWN, pos=a, button=1)
        for t in (0.3, 0.6, 1.0):
            p = (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t))
            post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
        post(pygame.MOUSEBUTTONUP, pos=b, button=1)
        return "drag"
    if r < 0.78:
        post(pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)), flipped=False, precise_x=0.0, precise_y=0.0)
        return "wheel"
    if r < 0.97:
        key, mod = rng.choice(KEYS)
        if key == pygame.K_ESCAPE and type(app.stack.top).__name__ == "MainMenuScene":
            key = pygame.K_TAB  # Escape on the main menu quits
        post(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
        post(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0)
        return "key"
    app.window.resize((rng.randrange(320, 1400), rng.randrange(480, 1000)))
    return "resize"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    end = time.monotonic() + args.minutes * 60
    counts: dict[str, int] = {}
    frames = apps = errors = 0
    rss_start = rss_peak = 0.0
    while time.monotonic() < end:
        preset = rng.choice(("phone", "tablet"))
        app = App(LaunchOptions(preset=preset), AppConfig(ai_delay=(0.0, 0.05)))
        apps += 1
        try:
            while app.running and time.monotonic() < end:
                for _ in range(rng.randint(0, 3)):
                    kind = random_input(app, rng)
                    counts[kind] = counts.get(kind, 0) + 1
                app.step(1 / 60)
                frames += 1
                if frames == 600:
                    rss_start = rss_mb()
                if frames % 600 == 0:
                    rss_peak = max(rss_peak, rss_mb())
                if frames % 6000 == 0:
                    left = (end - time.monotonic()) / 60
                    print(f"[ui-soak] {frames} frames, {apps} apps, {errors} errors, {left:.1f} min left", flush=True)
        except Exception:
            errors += 1
            print(f"[ui-soak] EXCEPTION after {frames} frames:\n{traceback.format_exc()}", flush=True)
        finally:
            try:
                app.close()
            except Exception:
                errors += 1
                print(f"[ui-soak] EXCEPTION while closing:\n{traceback.format_exc()}", flush=True)
    inputs = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"frames: {frames}; apps started: {apps}; inputs: {inputs}")
    print(f"exceptions: {errors}")
    print(f"resident memory: {rss_start:.0f} MB after 600 frames, peak {rss_peak:.0f} MB, end {rss_mb():.0f} MB")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
