"""The Settings screen and what it changes: language at once, remembered choices, names, reduced motion.

Screenshots of the screen in every language on the phone and the tablet go
to ``test-artifacts/screens-{phone,tablet}-settings-<lang>.png``.
"""

from __future__ import annotations

import json
import random
import warnings

import pygame
import pytest

from triangles import i18n
from triangles.i18n import tr
from triangles.settings import settings_path
from triangles.ui.hud import Hud, HudInfo
from triangles.ui.scenes.menu import MainMenuScene
from triangles.ui.scenes.message import MessageScene
from triangles.ui.scenes.new_game import NewGameScene
from triangles.ui.scenes.pause import PauseScene
from triangles.ui.scenes.play import PlayScene
from triangles.ui.scenes.settings import SettingsScene

LANGS = ["en", "ru", "ms", "vi"]


@pytest.fixture(autouse=True)
def english_afterwards():
    """A test that switches the language must not leave it switched for the next one."""
    yield
    i18n.set_language("en")


def texts(scene) -> list[str]:
    """The text of every widget the scene shows (labels and buttons)."""
    return [getattr(w, "text", "") for w in scene._widgets]


def selected(row, value) -> bool:
    return bool(dict(row.buttons)[value].is_selected)


def stored() -> dict:
    return json.loads(settings_path().read_text(encoding="utf-8"))


def open_settings(d) -> SettingsScene:
    d.press("#settings")
    assert isinstance(d.scene, SettingsScene)
    return d.scene


# -- language --------------------------------------------------------------------------


def test_switching_language_restyles_at_once_and_is_remembered(launch):
    d = launch()
    scene = open_settings(d)
    assert "Settings" in texts(scene)
    assert selected(scene.rows["language"], "en")
    d.press("#language_ru")
    assert i18n.language() == "ru"
    assert d.scene is scene  # the same screen, rebuilt in Russian
    assert "Настройки" in texts(scene) and "Settings" not in texts(scene)
    assert "Русский" in texts(scene) and "English" in texts(scene)  # each language by its own name
    assert selected(scene.rows["language"], "ru")
    assert pygame.display.get_caption()[0] == tr("app.title")
    assert stored()["language"] == "ru"
    d.press("#back")
    assert isinstance(d.scene, MainMenuScene)
    assert d.button("#new_game").text == tr("menu.new_game") == "Новая игра"
    assert d.button("#settings").text == "Настройки"
    # the next start speaks Russian although the system (TRIANGLES_LANG) says English
    d2 = launch()
    assert i18n.language() == "ru"
    assert d2.button("#new_game").text == "Новая игра"


def test_switching_language_over_a_game_updates_the_hud_and_the_menu_below(launch):
    d = launch(preset="phone", stars=24, seed=3, mode="hotseat")
    play = d.play_scene()
    assert play.hud_info().names == ("Player 1", "Player 2")
    d.press("#menu")
    d.press("#settings")
    d.press("#language_vi")
    info = play.hud_info()
    assert info.names == ("Người chơi 1", "Người chơi 2")
    assert info.status == tr("status.turn", name="Người chơi 1") != ""
    d.press("#back")
    assert isinstance(d.scene, PauseScene)
    assert d.button("#resume").text == tr("pause.resume") != "Resume"
    d.press("#resume")
    assert d.scene is play
    assert d.button("#menu").text == tr("hud.menu")
    d.frames(2)
    d.shot("settings-vi-hud.png")


# -- remembered New game choices and the command line ------------------------------------


def test_the_new_game_dialog_shows_the_last_choices_in_a_new_app(launch):
    d = launch()
    d.press("#new_game")
    rows = d.scene.rows
    d.click(dict(rows["stars"].buttons)[60].rect.center)
    d.click(dict(d.scene.rows["level"].buttons)["hard"].rect.center)
    d.click(dict(d.scene.rows["extra_turn"].buttons)[True].rect.center)
    assert d.button("#remembered") is not None  # the dialog says it remembers
    d.press("#start")
    assert isinstance(d.scene, PlayScene)
    assert stored()["new_game"]["level"] == "hard"
    d.app.close()
    d2 = launch()
    d2.press("#new_game")
    dialog = d2.scene
    assert isinstance(dialog, NewGameScene)
    assert (dialog.s.stars, dialog.s.level, dialog.s.extra_turn) == (60, "hard", True)
    assert selected(dialog.rows["stars"], 60) and selected(dialog.rows["level"], "hard")
    assert selected(dialog.rows["extra_turn"], True) and not selected(dialog.rows["extra_turn"], False)


def test_command_line_choices_show_in_the_dialog_for_that_run_only(launch):
    d = launch(level="hard", extra_turn=True)
    assert isinstance(d.scene, MainMenuScene)  # level and extra turn alone do not start a game
    d.press("#new_game")
    dialog = d.scene
    assert isinstance(dialog, NewGameScene)
    rows = dialog.rows
    assert selected(rows["level"], "hard") and not selected(rows["level"], "medium")
    assert selected(rows["extra_turn"], True) and not selected(rows["extra_turn"], False)
    d.app.close()
    d2 = launch()  # the command line did not change what is remembered
    d2.press("#new_game")
    rows = d2.scene.rows
    assert selected(rows["level"], "medium") and selected(rows["extra_turn"], False)


# -- names ---------------------------------------------------------------------------------


def type_into(d, entry, text: str) -> None:
    d.click(entry.rect.center)
    for ch in text:
        d.post(pygame.TEXTINPUT, text=ch)
        d.frames(1)
    d.frames(1)  # the entry reports its change with an event of its own


def test_hotseat_names_from_settings_appear_in_the_hud(launch):
    d = launch()
    scene = open_settings(d)
    type_into(d, scene.name_entries[0], "Ann")
    type_into(d, scene.name_entries[1], "Bảo")
    assert d.app.settings.player_names == ("Ann", "Bảo")
    d.press("#back")
    assert stored()["player_names"] == ["Ann", "Bảo"]
    d.press("#new_game")
    d.click(dict(d.scene.rows["mode"].buttons)["hotseat"].rect.center)
    d.press("#start")
    play = d.play_scene()
    assert [p.name for p in play.match.players] == ["Ann", "Bảo"]
    assert play.hud_info().names == ("Ann", "Bảo")
    assert "Ann" in play.hud_info().status  # whose turn it is, by name
    d.frames(2)
    d.shot("settings-names-hud.png")


# -- reduced motion ------------------------------------------------------------------------


def close_a_triangle(d, play) -> list:
    game = play.match.game
    rng = random.Random(4)
    while not game.is_over():
        closing = [m for m in game.legal_moves() if game.closes(*m)]
        if closing:
            return play.play(*closing[0])
        play.play(*rng.choice(game.legal_moves()))
    pytest.fail("no triangle closed")


def hud_frames(d, play, animated: bool) -> tuple[bytes, bytes]:
    """The HUD of a thinking player drawn at two moments."""
    hud = Hud(d.app.theme)
    info = HudInfo(names=("A", "B"), subtitles=("", ""), scores=(0, 0), to_move=0, thinking=True, animated=animated)
    shots = []
    for dt in (0.0, 0.37):
        hud.update(dt)
        surface = pygame.Surface(d.app.surface.get_size())
        hud.draw(surface, d.app.viewport, play.layout, info)
        shots.append(pygame.image.tobytes(surface, "RGB"))
    return shots[0], shots[1]


def test_animations_off_shows_end_states_at_once(launch):
    d = launch(preset="phone", stars=24, seed=5, mode="hotseat")
    play = d.play_scene()
    assert close_a_triangle(d, play) and play.flashes  # on: the closed triangle flashes
    a, b = hud_frames(d, play, animated=True)
    assert a != b  # on: the turn glow pulses and the dots move
    d.press("#menu")
    scene = open_settings(d)
    d.press("#animations_False")
    assert d.app.settings.animations is False and stored()["animations"] is False
    assert selected(scene.rows["animations"], False)
    d.press("#back")
    d.press("#resume")
    play.flashes.clear()
    assert close_a_triangle(d, play)
    assert not play.flashes  # off: the triangle is simply filled
    assert play.hud_info().animated is False
    a, b = hud_frames(d, play, animated=False)
    assert a == b  # off: nothing in the HUD moves
    # and the next start remembers it
    d.app.close()
    assert launch().app.animations is False


# -- other settings, problems ---------------------------------------------------------------


def test_sound_volume_window_and_fullscreen_are_kept(launch):
    d = launch()
    scene = open_settings(d)
    d.press("#sound_False")
    assert scene.volume_slider is not None and not scene.volume_slider.is_enabled
    d.press("#sound_True")
    scene.volume_slider.set_current_value(35)
    d.frames(2)
    assert d.app.settings.volume == 35
    before = d.app.surface.get_size()
    d.press("#window_75")
    assert d.app.settings.window_scale == 75
    assert d.app.surface.get_size()[1] < before[1]
    d.press("#fullscreen_True")
    assert d.app.window.fullscreen and d.app.settings.fullscreen
    d.press("#fullscreen_False")
    assert not d.app.window.fullscreen
    d.press("#back")
    data = stored()
    assert (data["sound"], data["volume"], data["window_scale"], data["fullscreen"]) == (True, 35, 75, False)
    d.app.close()
    d2 = launch()
    assert d2.app.window.scale == 75
    assert d2.app.surface.get_size() == (round(390 * 0.75), round(844 * 0.75))  # the phone at 75 %
    # a game on the other preset keeps the chosen scale (the desktop here is 1024 x 768)
    d2.app.window.use_preset("tablet")
    assert d2.app.surface.get_size() == (round(1180 * 0.75), round(820 * 0.75))


def test_a_malformed_settings_file_is_reported_once_and_kept(launch, triangles_home):
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("{ this is not json", encoding="utf-8")
    d = launch()
    assert isinstance(d.scene, MessageScene)
    assert "could not be read" in d.scene.text
    d.frames(2)
    d.shot("settings-unreadable.png")
    d.press("#ok")
    assert isinstance(d.scene, MainMenuScene)
    assert len(list(path.parent.glob("settings.unreadable-*.json"))) == 1
    d.app.close()
    assert isinstance(launch().scene, MainMenuScene)  # once: the next start is quiet


def test_a_read_only_config_folder_is_reported_once_and_never_crashes(launch, triangles_home):
    (triangles_home / "config").write_text("a file where the folder should be")
    d = launch()
    said = 0
    if isinstance(d.scene, MessageScene):  # the first save (How to play offered, at first start) failed already
        assert "could not be saved" in d.scene.text
        said += 1
        d.press("#ok")
    assert isinstance(d.scene, MainMenuScene)
    open_settings(d)
    d.press("#animations_False")
    if isinstance(d.scene, MessageScene):
        assert "could not be saved" in d.scene.text
        said += 1
        d.press("#ok")
    assert said == 1  # once, whichever save failed first
    assert isinstance(d.scene, SettingsScene)
    assert d.app.settings.animations is False  # still applies for this run
    d.press("#animations_True")
    d.press("#language_ms")
    assert isinstance(d.scene, SettingsScene)  # no second message
    d.press("#back")
    d.app.quit()


# -- screenshots in every language --------------------------------------------------------


@pytest.mark.parametrize("preset", ["phone", "tablet"])
@pytest.mark.parametrize("lang", LANGS)
def test_settings_screen_fits_in_every_language(launch, preset, lang):
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"format": "triangles-settings", "version": 1, "new_game": {"preset": preset}}), encoding="utf-8"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = launch()
        assert d.app.preset.name == preset  # the menu opens on the remembered device
        scene = open_settings(d)
        if lang != "en":
            d.press(f"#language_{lang}")
        assert i18n.language() == lang
        d.frames(3)
        W, H = d.app.surface.get_size()
        for el in scene._widgets:
            r = el.rect
            assert r.left >= 0 and r.top >= 0 and r.right <= W and r.bottom <= H, (el, r)
        assert tr("settings.title") in texts(scene)
        d.shot(f"screens-{preset}-settings-{lang}.png")
    cut = [str(w.message) for w in caught if "too small" in str(w.message)]
    assert not cut, cut
