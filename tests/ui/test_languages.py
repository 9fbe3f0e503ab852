"""Every screen in every language on both presets: drawn, saved for people to look at, nothing cut off.

Pictures go to ``test-artifacts/languages/<preset>-<screen>-<lang>.png``.
"Cut off" is caught two ways: pygame_gui warns when a label's text does not
fit its rectangle, and the HUD's own fitting (which shortens with "…") is
watched while the walk runs.  Player names here are the defaults, so any
shortening is a layout bug, not a long name.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

LANGS = ["en", "ru", "ms", "vi"]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "languages"


def _walk(d, preset: str, lang: str, cut: list[str], cut_buttons) -> list[str]:
    """Visit every screen; returns the screens seen (by file name); cut buttons are added to ``cut``."""
    from triangles.ui.scenes.final import FinalScene
    from triangles.ui.scenes.menu import MainMenuScene
    from triangles.ui.scenes.play import PlayScene

    SHOTS.mkdir(parents=True, exist_ok=True)
    seen: list[str] = []

    def shot(name: str) -> None:
        d.frames(3)
        cut.extend(f"{name}: {b}" for b in cut_buttons(d))
        d.pg.image.save(d.app.surface, str(SHOTS / f"{preset}-{name}-{lang}.png"))
        seen.append(name)

    nav = d.app.nav
    assert isinstance(d.scene, PlayScene)
    game = d.play_scene().match.game
    rng = random.Random(5)
    d.frames(2)
    while game.move_count < 14 and not game.is_over():
        if d.play_scene().match.computer_to_move:
            n = game.move_count
            d.until(lambda n=n: game.move_count > n, timeout=10)
            continue
        d.draw_line(*rng.choice(game.legal_moves()))
    shot("play")
    d.press("#menu")
    shot("pause")
    nav.show_howto()
    shot("howto")
    nav.close(d.scene)
    nav.show_settings()
    shot("settings")
    nav.close(d.scene)
    d.press("#resume")
    play = d.play_scene()
    while not game.is_over():
        if play.match.computer_to_move:
            n = game.move_count
            d.until(lambda n=n: game.move_count > n or game.is_over(), timeout=10)
            continue
        play.play(*rng.choice(game.legal_moves()))
    d.until(lambda: isinstance(d.scene, FinalScene), timeout=5)
    shot("final")
    d.press("#review")
    d.press("#prev")
    shot("review")
    d.press("#back")
    d.press("#main_menu")
    assert isinstance(d.scene, MainMenuScene)
    shot("menu")
    d.press("#new_game")
    shot("new-game")
    d.key(d.pg.K_ESCAPE)
    nav.show_open_game()
    shot("open-game")
    nav.close(d.scene)
    nav.show_stats()
    shot("stats")
    nav.close(d.scene)
    nav.open_record(Path("/no/such/game.json"))  # a message box
    shot("message")
    return seen


@pytest.mark.parametrize("preset,stars", [("phone", 24), ("tablet", 80)])
@pytest.mark.parametrize("lang", LANGS)
def test_every_screen_in_every_language_fits(launch, monkeypatch, hud_cuts, cut_buttons, lang, preset, stars):
    from triangles import i18n

    monkeypatch.setenv("TRIANGLES_LANG", lang)
    cut = hud_cuts
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            d = launch(preset=preset, stars=stars, seed=8, mode="ai")
            assert i18n.language() == lang
            seen = _walk(d, preset, lang, cut, cut_buttons)
    finally:
        i18n.set_language("en")
    assert len(seen) == 11
    too_small = sorted({str(w.message) for w in caught if "too small for text" in str(w.message)})
    assert not too_small, f"{lang} {preset}: text cut off:\n" + "\n".join(too_small)
    assert not cut, f"{lang} {preset}: cut off: {sorted(set(cut))}"


def test_default_names_in_a_saved_game_follow_the_language_on_screen(launch, monkeypatch):
    """A game saved in English shows "Вы — Компьютер" in a Russian menu; a chosen name stays as typed."""
    from triangles import i18n
    from triangles.match import Match, MatchSettings
    from triangles.players import Player
    from triangles.saves import save_session
    from triangles.settings import seat_names

    m = Match.new(MatchSettings(mode="ai", preset="phone", stars=24, seed=4))
    m.play(*m.game.legal_moves()[0])
    save_session(m)
    assert m.players[0].name == "You"
    monkeypatch.setenv("TRIANGLES_LANG", "ru")
    try:
        d = launch()
        d.frames(2)
        detail = [el for el in d.app.gui.get_sprite_group().sprites() if el.object_ids[-1] == "#continue_detail"]
        assert detail and detail[0].text.startswith("Вы — Компьютер")
        assert seat_names((Player("Аня"), Player("Player 2"))) == ("Аня", "Игрок 2")
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("preset,stars", [("phone", 24), ("tablet", 80)])
def test_long_player_names_are_never_cut_in_the_hud(launch, hud_cuts, preset, stars):
    """Names up to the Settings limit shrink, then take two lines; the HUD never shortens them with "…"."""
    from triangles.settings import NAME_LIMIT, Settings, save_settings

    s = Settings()
    s.player_names = ("Nguyễn Thị Minh Khai"[:NAME_LIMIT], "Wolfeschlegelsteinha"[:NAME_LIMIT])
    save_settings(s)
    d = launch(preset=preset, stars=stars, seed=8, mode="hotseat")
    play = d.play_scene()
    assert play.match.players[0].name.startswith("Nguyễn")
    for _ in range(4):
        d.frames(2)
        d.draw_line(*play.match.game.legal_moves()[0])
    d.frames(3)
    SHOTS.mkdir(parents=True, exist_ok=True)
    d.pg.image.save(d.app.surface, str(SHOTS / f"{preset}-long-names.png"))
    assert not hud_cuts, f"the HUD shortened {sorted(set(hud_cuts))}"


def test_a_computer_level_too_wide_for_its_card_shows_the_level_alone(launch, monkeypatch):
    """Malay on the phone: "tahap Sederhana" beside a two-digit score fitted only at the smallest
    type, where the words ran together ("tahapSederhana"); there the card says "Sederhana"."""
    import dataclasses

    from triangles import i18n
    from triangles.i18n import tr
    from triangles.ui.hud import Hud

    shown: list[str] = []
    fits = Hud.font_that_fits

    def watched(self, size, bold, text, max_w, smallest=0.74):
        font = fits(self, size, bold, text, max_w, smallest)
        if font is not None:
            shown.append(text)
        return font

    monkeypatch.setattr(Hud, "font_that_fits", watched)
    monkeypatch.setenv("TRIANGLES_LANG", "ms")
    try:
        d = launch(preset="phone", stars=24, seed=8, mode="ai")
        play = d.play_scene()
        info = play.hud_info()
        level = tr("level.medium")
        assert info.subtitles[1] == tr("hud.computer_level", level=level) != level
        assert info.short_subtitles == ("", level)
        seen = {}
        for scores in ((0, 3), (7, 29)):
            shown.clear()
            surface = d.pg.Surface(d.app.surface.get_size())
            Hud(d.app.theme).draw(surface, d.app.viewport, play.layout, dataclasses.replace(info, scores=scores))
            seen[scores] = list(shown)
    finally:
        i18n.set_language("en")
    assert info.subtitles[1] in seen[(0, 3)] and level not in seen[(0, 3)]
    assert level in seen[(7, 29)] and info.subtitles[1] not in seen[(7, 29)]
