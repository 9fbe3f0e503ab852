"""The first-start screen: while the rules compile on a cold cache the window says so, with a bar.

The cold path runs in a child process with an empty numba cache (this test
process has every kernel compiled already); the drawing is checked here in
every language on both presets, with screenshots to look at.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from triangles import i18n
from triangles.i18n import tr

ROOT = Path(__file__).resolve().parents[2]
LANGS = ["en", "ru", "ms", "vi"]

CHILD = r"""
import json, sys
from triangles.launch import LaunchOptions
from triangles.ui import app as A, preparing as P
seen = []
show = P.PreparingScreen.show
def spy(self, percent):
    show(self, percent)
    seen.append((percent, self.window.surface.get_at((self.window.surface.get_width() // 2, 5))[:3]))
P.PreparingScreen.show = spy
app = A.App(LaunchOptions(print_ready=False))
app.step(0.016)
print(json.dumps({"seen": seen, "scene": type(app.top).__name__}))
app.close()
"""


def _start_cold_and_warm(tmp_path: Path) -> tuple[dict, dict]:
    env = dict(os.environ)
    env.update(
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        TRIANGLES_HOME=str(tmp_path / "home"),
        PYTHONPATH=str(ROOT / "src"),
    )
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300, check=True
        )
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return runs[0], runs[1]


def test_a_cold_start_shows_its_progress_and_a_warm_one_does_not(tmp_path: Path) -> None:
    cold, warm = _start_cold_and_warm(tmp_path)
    percents = [p for p, _ in cold["seen"]]
    assert percents[0] == 0 and percents[-1] == 100
    assert percents == sorted(percents), percents
    assert len(set(percents)) >= 8, f"the bar moves in steps a player can see: {percents}"
    assert all(tuple(c) != (0, 0, 0) for _, c in cold["seen"]), "the screen is painted, never left black"
    assert cold["scene"] == warm["scene"] == "MainMenuScene"
    assert warm["seen"] == [], "a warm cache loads the kernels without a word"
    (kernels,) = (tmp_path / "numba").glob("kernels-*")  # the folder for these sources (triangles.jit)
    assert (kernels / "rules-count").read_text().strip().isdigit()


@pytest.mark.parametrize("preset", ["phone", "tablet"])
def test_the_preparing_screen_fits_in_every_language(launch, preset: str, artifacts: Path) -> None:
    from triangles.ui.preparing import PreparingScreen

    app = launch(preset=preset).app
    screen = PreparingScreen(app.window)
    try:
        for lang in LANGS:
            i18n.set_language(lang)
            surface = app.surface
            screen.draw(surface, 42)
            text = tr("boot.preparing", percent=42)
            assert "42" in text
            path = artifacts / "preparing" / f"{preset}-{lang}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(surface, str(path))
            # the line is drawn whole: the font shrinks on a narrow window instead of cutting the text
            fonts = [f for (px, bold), f in screen._fonts.items() if not bold]
            assert any(f.size(text)[0] <= surface.get_width() - 32 * app.viewport.design_scale for f in fonts)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("preset", ["phone", "tablet"])
@pytest.mark.parametrize("kept", [True, False])
def test_the_computers_preparing_line_is_never_cut(launch, hud_cuts, monkeypatch, preset: str, kept: bool) -> None:
    """The status line while the computer player compiles keeps its percentage in every language:
    the HUD shrinks it a little, then takes two lines, before it would shorten it with "…"."""
    import time

    from triangles import warmup
    from triangles.ui.app import AppConfig

    monkeypatch.setattr(warmup, "progress", lambda: 42)
    monkeypatch.setattr(warmup, "kept", lambda: kept)

    def thinking(game, level, seed, time_limit):
        time.sleep(30)
        return 0, 1

    d = launch(AppConfig(ai_delay=(0.0, 0.0), chooser=thinking), preset=preset, mode="ai", computer_starts=True)
    try:
        for lang in LANGS:
            d.app.set_language(lang)
            d.frames(3)
            key = "warmup.preparing" if kept else "warmup.preparing.nocache"
            assert d.app.top is not None and tr(key, percent=42) in str(d.play_scene().hud_info().status)
        assert not hud_cuts, hud_cuts
    finally:
        d.app.set_language("en")
