"""Every main screen on the phone and the tablet preset, saved under ``test-artifacts/screens-*``.

The walk is deterministic (seeded boards, fixed frame steps), so the pictures
can be compared before and after a change to the UI code: menu, new game,
play (with a half-drawn line), pause, final and review.
"""

from __future__ import annotations

import random

import pytest

from triangles.ui.scenes.final import FinalScene
from triangles.ui.scenes.menu import MainMenuScene
from triangles.ui.scenes.new_game import NewGameScene
from triangles.ui.scenes.pause import PauseScene
from triangles.ui.scenes.play import PlayScene
from triangles.ui.scenes.review import ReviewScene


@pytest.mark.parametrize("preset,stars", [("phone", 24), ("tablet", 80)])
def test_every_main_screen_is_drawn(launch, preset, stars):
    d = launch(preset=preset, stars=stars, seed=21, mode="hotseat")

    def shot(name: str, expected: type) -> None:
        assert isinstance(d.scene, expected), type(d.scene).__name__
        d.frames(3)
        d.shot(f"screens-{preset}-{name}.png")

    game = d.play_scene().match.game
    rng = random.Random(22)
    for _ in range(12):
        d.draw_line(*rng.choice(game.legal_moves()))
    d.click_star(game.legal_moves()[0][0])  # a half-drawn line and its band
    d.move((d.app.surface.get_width() // 2, d.app.surface.get_height() // 2))
    shot("play", PlayScene)
    d.press("#menu")
    shot("pause", PauseScene)
    d.press("#resume")
    play = d.play_scene()
    while not game.is_over():
        play.play(*rng.choice(game.legal_moves()))
    d.frames(1)
    shot("final", FinalScene)
    d.press("#review")
    d.press("#prev")
    shot("review", ReviewScene)
    d.press("#back")
    d.press("#main_menu")
    shot("menu", MainMenuScene)
    d.press("#new_game")
    shot("new-game", NewGameScene)
