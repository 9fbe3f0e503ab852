"""How to play: reachable, driven by keys and mouse, harmless to the game, readable in every language.

Screenshots of every example in every language on both presets go to
``test-artifacts/screens-{phone,tablet}-howto-<example>-<lang>.png``; the
layout checks below make sure no text runs out of its place there.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pygame
import pytest

from triangles import i18n
from triangles.tutorial import EXAMPLES
from triangles.ui.scenes.howto import HowToPlayScene, wrap
from triangles.ui.scenes.menu import MainMenuScene
from triangles.ui.scenes.pause import PauseScene
from triangles.ui.scenes.play import PlayScene

LANGS = ("en", "ru", "ms", "vi")
#: the step each screenshot shows: the refusal, or the end of the example
SHOT_STEP = {"cross": 2, "through": 1, "again": 3}


def open_howto_in_game(d) -> HowToPlayScene:
    d.press("#menu")
    assert isinstance(d.scene, PauseScene)
    d.press("#howto")
    scene = d.scene
    assert isinstance(scene, HowToPlayScene)
    return scene


def hotseat(launch, preset: str = "phone", seed: int = 5):
    stars = 24 if preset == "phone" else 80
    d = launch(preset=preset, stars=stars, seed=seed, mode="hotseat")
    d.app.window.resize(tuple(d.app.preset.window))  # design size: screenshots at 1:1
    d.frames(2)
    return d


def test_reachable_from_the_main_menu_and_back_returns_there(launch):
    d = launch()
    assert isinstance(d.scene, MainMenuScene)
    d.press("#howto")
    assert isinstance(d.scene, HowToPlayScene)
    d.frames(3)
    assert d.button("#back") is not None and d.button("#replay") is not None
    d.press("#back")
    assert isinstance(d.scene, MainMenuScene)
    d.press("#howto")
    d.key(pygame.K_ESCAPE)
    assert isinstance(d.scene, MainMenuScene)


def test_reading_it_mid_game_changes_nothing_in_the_game(launch):
    d = hotseat(launch, seed=11)
    play = d.play_scene()
    m = play.match
    rng = random.Random(3)
    while m.game.move_count < 6:
        d.draw_line(*rng.choice(m.game.legal_moves()))
    before = (list(m.game.lines), m.game.scores, m.token, m.game.player, m.game.triangles, m.can_redo())
    scene = open_howto_in_game(d)
    # read everything: every example, every step, replays, clicks on the diagram
    for _ in range(len(EXAMPLES)):
        for _ in range(scene.last_step + 1):
            d.key(pygame.K_RIGHT)
        d.key(pygame.K_r)
        d.click(scene.rect(*scene.layout.diagram).center)
        d.frames(20)
        d.key(pygame.K_DOWN)
    d.key(pygame.K_ESCAPE)
    assert isinstance(d.scene, PauseScene)
    after = (list(m.game.lines), m.game.scores, m.token, m.game.player, m.game.triangles, m.can_redo())
    assert after == before
    d.press("#resume")
    top = d.scene
    assert isinstance(top, PlayScene) and top is play and top.match is m
    assert (list(m.game.lines), m.game.scores, m.token, m.game.player) == before[:4]


def test_keyboard_steps_changes_example_and_replays(launch):
    d = launch()
    d.press("#howto")
    s = d.scene
    assert (s.example, s.step) == (0, 0)
    d.key(pygame.K_RIGHT)
    assert s.step == 1 and not s.autoplay  # a manual step stops the self-playing example
    d.key(pygame.K_RIGHT)
    assert s.step == 2 and s.frame.refused == "crosses"
    d.key(pygame.K_LEFT)
    assert s.step == 1
    d.key(pygame.K_END)
    assert s.step == s.last_step
    d.key(pygame.K_r)
    assert s.step == 0
    d.key(pygame.K_RIGHT)
    d.key(pygame.K_SPACE)
    assert s.step == 0
    d.key(pygame.K_DOWN)
    assert (s.example, s.step) == (1, 0)
    d.key(pygame.K_PAGEDOWN)
    assert s.example == 2
    d.key(pygame.K_TAB)
    assert s.example == 3
    d.key(pygame.K_TAB, pygame.KMOD_SHIFT)
    assert s.example == 2
    d.key(pygame.K_UP)
    d.key(pygame.K_PAGEUP)
    assert s.example == 0
    d.key(pygame.K_UP)
    assert s.example == len(EXAMPLES) - 1  # wraps round
    d.key(pygame.K_ESCAPE)
    assert isinstance(d.scene, MainMenuScene)


def test_mouse_steps_replays_and_picks_examples(launch):
    d = launch()
    d.press("#howto")
    s = d.scene
    d.press("#example4")
    assert (s.example, s.step) == (3, 0)
    assert d.button("#example4").is_selected and not d.button("#example1").is_selected
    d.press("#step_next")
    d.press("#step_next")
    assert s.step == 2
    d.press("#step_prev")
    assert s.step == 1
    d.click(s.rect(*s.layout.diagram).center)  # a click on the diagram is the next step
    assert s.step == 2
    d.press("#replay")
    assert s.step == 0
    for _ in range(s.last_step + 3):  # past the end it stays on the last step
        d.press("#step_next")
    assert s.step == s.last_step and s.frame.over and s.frame.scores == (2, 0)


def test_the_example_plays_by_itself_and_stops_at_the_end(launch):
    d = launch()
    d.press("#howto")
    s = d.scene
    d.press("#example6")
    assert s.autoplay and s.step == 0
    d.frames(60, dt=0.1)
    assert 0 < s.step
    d.frames(200, dt=0.1)
    assert s.step == s.last_step and not s.autoplay
    d.press("#replay")
    assert s.step == 0 and s.autoplay


def _triangle_pixel(d, s) -> np.ndarray:
    """The colour at the middle of triangle ABC of the diagonal example (the diagram's lower right half)."""
    rect = s.rect(*s.layout.diagram)
    k, ox, oy, _, _ = s._fit(rect)
    stars = s.current.stars
    cx = ox + k * (stars[0][0] + stars[1][0] + stars[2][0]) / 3
    cy = oy + k * (stars[0][1] + stars[1][1] + stars[2][1]) / 3
    return pygame.surfarray.array3d(d.app.surface)[round(cx), round(cy)].astype(int)


def test_animation_fills_the_triangle_over_time(launch):
    d = launch()
    d.press("#howto")
    s = d.scene
    d.press("#example4")
    d.key(pygame.K_END)
    d.key(pygame.K_LEFT)
    d.key(pygame.K_RIGHT)  # the diagonal, animated from its start
    early = _triangle_pixel(d, s)
    d.frames(30, dt=0.05)
    late = _triangle_pixel(d, s)
    red = np.array(d.app.theme.player_colors[0])
    assert np.abs(late - red).sum() < np.abs(early - red).sum(), (early, late)
    assert late[0] > late[2] + 40  # Player 1's colour


def test_reduced_motion_shows_each_step_finished_at_once(launch, monkeypatch):
    d = launch()
    settings = getattr(d.app, "settings", None)
    if settings is not None and hasattr(settings, "animations"):
        monkeypatch.setattr(settings, "animations", False)
    else:  # no Settings yet: the screen reads the flag defensively
        monkeypatch.setattr(d.app, "settings", SimpleNamespace(animations=False), raising=False)
    d.press("#howto")
    s = d.scene
    assert not s.animations
    d.press("#example4")
    assert not s.autoplay  # nothing moves by itself
    d.frames(30, dt=0.1)
    assert s.step == 0
    d.key(pygame.K_END)
    d.key(pygame.K_LEFT)
    d.key(pygame.K_RIGHT)  # the diagonal, at once
    px = _triangle_pixel(d, s)
    assert px[0] > px[2] + 40, px
    d.key(pygame.K_r)
    assert s.step == 0 and not s.autoplay


def _check_layout(s: HowToPlayScene) -> None:
    """Every text fits its place, nothing overlaps the buttons, the diagram keeps a useful size."""
    lay = s.layout
    dw, dh = s.design_size
    sc = s.app.viewport.scale
    assert lay.diagram[3] >= 140 and lay.diagram[2] >= 200
    for x, y, w, h in (lay.heading, lay.diagram, lay.chips, lay.step, lay.text, lay.controls, lay.back):
        assert 0 <= x and x + w <= dw + 0.5 and 0 <= y and y + h <= dh + 0.5
    bottom_of_text = max(lay.text[1] + lay.text[3], lay.step[1] + lay.step[3], lay.chips[1] + lay.chips[3])
    assert bottom_of_text <= min(lay.controls[1], lay.back[1]) - 4
    assert lay.heading[1] + lay.heading[3] <= lay.diagram[1] or lay.heading[0] + lay.heading[2] <= lay.diagram[0]
    texts = [(s.current.text, lay.sizes[3], lay.text), (s.current.caption, lay.sizes[1], lay.heading)]
    for key, size, rect in texts:
        font = s._font(size)
        for line in wrap(font, i18n.tr(key), rect[2] * sc):
            assert font.size(line)[0] <= rect[2] * sc + 1, line
    for fr in s.frames[s.example]:
        for text, _, bold in s.describe(s.current, fr):
            font = s._font(lay.sizes[2], bold)
            assert all(font.size(ln)[0] <= lay.step[2] * sc + 1 for ln in wrap(font, text, lay.step[2] * sc))
    # the explanation's wrapped height fits its rectangle
    assert s._text_height(i18n.tr(s.current.text), lay.sizes[3], lay.text[2]) <= lay.text[3] + 0.5


@pytest.mark.parametrize("preset", ["phone", "tablet"])
def test_screenshots_of_every_example_in_every_language(launch, artifacts, preset):
    d = hotseat(launch, preset)
    s = open_howto_in_game(d)
    try:
        for lang in LANGS:
            i18n.set_language(lang)
            s.rebuild()
            assert d.button("#back").text == i18n.tr("button.back")
            for n, ex in enumerate(EXAMPLES):
                d.press(f"#example{n + 1}")
                assert s.example == n
                s.autoplay = False
                s._go(SHOT_STEP.get(ex.key, s.last_step), animate=False)
                d.frames(2)
                _check_layout(s)
                a = pygame.surfarray.array3d(d.app.surface).astype(int)
                assert a.std() > 8
                d.shot(f"screens-{preset}-howto-{ex.key}-{lang}.png")
    finally:
        i18n.set_language("en")
    assert isinstance(d.scene, HowToPlayScene)
    d.key(pygame.K_ESCAPE)
    assert isinstance(d.scene, PauseScene) and isinstance(d.app.find(PlayScene), PlayScene)


def test_how_to_play_is_offered_once_at_the_first_start(launch):
    """A quiet line under How to play on the very first main menu; the next start does not show it."""
    from triangles.settings import load_settings

    d = launch()
    assert isinstance(d.scene, MainMenuScene)
    d.frames(2)
    hint = [el for el in d.app.gui.get_sprite_group().sprites() if getattr(el, "object_ids", [""])[-1] == "#howto_hint"]
    assert hint and "New here?" in hint[0].text
    assert load_settings()[0].howto_offered
    d.press("#howto")
    assert type(d.scene).__name__ == "HowToPlayScene"
    d.app.close()
    again = launch()
    again.frames(2)
    assert again.button("#howto") is not None
    hints = [
        el for el in again.app.gui.get_sprite_group().sprites() if getattr(el, "object_ids", [""])[-1] == "#howto_hint"
    ]
    assert not hints


def test_a_start_straight_into_a_game_does_not_use_up_the_offer(launch):
    from triangles.settings import load_settings

    d = launch(preset="phone", stars=24, seed=3, mode="hotseat")
    d.frames(3)
    assert not load_settings()[0].howto_offered  # the menu under the game was never seen
    d.draw_line(*d.play_scene().match.game.legal_moves()[0])
    d.press("#menu")
    d.press("#main_menu")
    d.frames(2)
    assert d.button("#howto") is not None
    assert any(getattr(el, "object_ids", [""])[-1] == "#howto_hint" for el in d.app.gui.get_sprite_group().sprites())
    assert load_settings()[0].howto_offered
