"""The Statistics screen in the window: games are counted once, shown, reset only after asking.

Screenshots: ``test-artifacts/screens-{phone,tablet}-stats-<lang>.png`` for the
four languages with games recorded, plus the empty screen and the reset dialog.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pygame
import pygame_gui
import pytest

from triangles import i18n
from triangles import stats as st
from triangles.record import save_record
from triangles.stats import FinishedGame, StatisticsBook, load_statistics
from triangles.ui.app import AppConfig
from triangles.ui.scenes.final import FinalScene
from triangles.ui.scenes.menu import MainMenuScene
from triangles.ui.scenes.message import MessageScene
from triangles.ui.scenes.play import PlayScene
from triangles.ui.scenes.review import ReviewScene
from triangles.ui.scenes.stats import (
    ResetStatisticsScene,
    StatisticsScene,
    figure_rows,
    hotseat_rows,
    shorten_rows,
)


def quick_chooser(game, level, seed, time_limit):
    return random.Random(seed).choice(game.legal_moves())


QUICK = AppConfig(ai_delay=(0.0, 0.0), chooser=quick_chooser)
LANGS = ["en", "ru", "ms", "vi"]


@pytest.fixture
def language() -> Iterator[None]:
    """Tests that switch the language put English back."""
    yield
    i18n.set_language("en")


def finish_against_computer(d, seed: int) -> None:
    """Draw the human's lines by clicking until the game is over (the computer answers at once)."""
    match = d.play_scene().match
    rng = random.Random(seed)
    while not match.game.is_over():
        assert d.until(lambda: match.game.is_over() or not match.computer_to_move, timeout=5)
        if match.game.is_over():
            break
        d.draw_line(*rng.choice(match.game.legal_moves()))
    d.frames(2)


def seed_statistics(home: Path) -> None:
    """A few games on several presets, levels and two-player names, written as the game would."""
    book = StatisticsBook(home / "statistics.json")
    s = book.stats
    plan = [
        ("tablet", 120, "hard", "loss"),
        ("phone", 60, "easy", "win"),
        ("phone", 60, "easy", "win"),
        ("phone", 60, "easy", "draw"),
        ("phone", 60, "easy", "loss"),
        ("phone", 60, "easy", "win"),
        ("phone", 60, "medium", "win"),
        ("phone", 60, "medium", "loss"),
        ("phone", 60, "medium", "loss"),
        ("phone", 60, "hard", "loss"),
        ("phone", 60, "hard", "draw"),
    ]
    for k, (preset, stars, level, outcome) in enumerate(plan):
        s.add(FinishedGame(f"g{k}", "ai", preset, stars, level, outcome))  # type: ignore[arg-type]
    hot = [(0, None), (1, None), (0, "Nguyễn Thị Minh Khai"), (0, "Anna"), (None, None), (1, "Anna")]
    for k, (winner, name) in enumerate(hot):
        s.add(FinishedGame(f"h{k}", "hotseat", "phone", 24, "medium", winner=winner, winner_name=name))
    assert book.save()


def open_stats(d) -> StatisticsScene:
    if not isinstance(d.scene, MainMenuScene):
        d.app.nav.show_menu()
        d.frames(1)
    d.press("#stats")
    scene = d.scene
    assert isinstance(scene, StatisticsScene)
    d.frames(3)
    return scene


def assert_fits(d, scene: StatisticsScene) -> None:
    """Nothing cut off: no widget outside the window, no drawn text shortened."""
    W, H = d.app.surface.get_size()
    for el in scene._widgets:
        r = el.rect
        assert r.left >= -1 and r.top >= -1 and r.right <= W + 1 and r.bottom <= H + 1, (el, r)
    assert scene.overflow == [], f"text that does not fit: {scene.overflow}"


# -- counting in the window ----------------------------------------------------------


def test_a_finished_game_is_counted_once_and_shown(launch, triangles_home):
    d = launch(preset="phone", stars=24, seed=41, mode="ai", level="easy", config=QUICK)
    match = d.play_scene().match
    finish_against_computer(d, 42)
    assert isinstance(d.scene, FinalScene)
    winner = match.game.winner()
    outcome = "draw" if winner is None else "win" if winner == match.human_side else "loss"
    tally = d.app.nav.stats.stats.tally("phone", 24, "easy")
    assert tally.games == 1 and getattr(tally, {"win": "wins", "loss": "losses", "draw": "draws"}[outcome]) == 1
    on_disk = load_statistics(triangles_home / "statistics.json").tally("phone", 24, "easy")
    assert on_disk.to_dict() == tally.to_dict()

    # review and back: not again
    d.press("#review")
    assert isinstance(d.scene, ReviewScene)
    d.press("#back")
    assert isinstance(d.scene, FinalScene)
    # undo past the end from the final screen, then play to the end again: not again
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    assert isinstance(d.scene, PlayScene) and not match.game.is_over()
    finish_against_computer(d, 43)
    assert isinstance(d.scene, FinalScene)
    assert d.app.nav.stats.stats.tally("phone", 24, "easy").games == 1

    # the screen shows it: one game in the Easy column of phone / 24 stars
    scene = open_stats(d)
    assert (scene.preset, scene.stars) == ("phone", 24)
    rows = dict(figure_rows(scene.stats, "phone", 24))
    assert rows["Games"] == ["1", "0", "0"]
    assert d.button("#reset").is_enabled
    assert_fits(d, scene)
    d.key(pygame.K_ESCAPE)
    assert isinstance(d.scene, MainMenuScene)


def test_a_rematch_counts_as_a_new_game_and_a_reopened_finished_record_does_not(launch, triangles_home, tmp_path):
    d = launch(preset="phone", stars=24, seed=44, mode="ai", level="medium", config=QUICK)
    first = d.play_scene().match
    finish_against_computer(d, 45)
    path = tmp_path / "finished.json"
    save_record(first.to_record(), path)
    d.press("#rematch")
    assert d.play_scene().match.game_id != first.game_id
    finish_against_computer(d, 46)
    assert d.app.nav.stats.stats.tally("phone", 24, "medium").games == 2
    # Open game of the finished record: its final screen shows, nothing is counted
    assert d.app.nav.open_record(path)
    d.frames(2)
    assert isinstance(d.scene, FinalScene)
    assert d.app.nav.stats.stats.tally("phone", 24, "medium").games == 2
    # ... and a rematch from there is a new game that counts
    d.press("#rematch")
    finish_against_computer(d, 47)
    assert d.app.nav.stats.stats.tally("phone", 24, "medium").games == 3
    assert load_statistics(triangles_home / "statistics.json").tally("phone", 24, "medium").games == 3


def test_a_hotseat_game_abandoned_midway_is_not_counted_and_a_finished_one_is(launch, triangles_home):
    d = launch(preset="phone", stars=24, seed=48, mode="hotseat")
    game = d.play_scene().match.game
    rng = random.Random(49)
    for _ in range(4):
        d.draw_line(*rng.choice(game.legal_moves()))
    d.press("#menu")
    d.press("#main_menu")  # abandoned: kept for Continue, not a loss
    assert d.app.nav.stats.stats.is_empty
    d.press("#continue")
    play = d.play_scene()
    while not play.match.game.is_over():
        play.play(*rng.choice(play.match.game.legal_moves()))
    d.frames(2)
    assert d.app.nav.stats.stats.hotseat.games == 1
    assert not d.app.nav.stats.stats.ai


def test_reset_asks_first_cancel_keeps_ok_clears(launch, triangles_home, artifacts):
    seed_statistics(triangles_home)
    d = launch(preset="phone")
    scene = open_stats(d)
    before = scene.stats.to_dict()
    d.press("#reset")
    assert isinstance(d.scene, ResetStatisticsScene)
    d.frames(3)
    d.shot("screens-phone-stats-reset.png")
    d.press("#cancel")
    assert d.app.top is scene and scene.stats.to_dict() == before
    d.press("#reset")
    d.key(pygame.K_ESCAPE)  # Escape is Cancel too
    assert d.app.top is scene and scene.stats.to_dict() == before
    d.press("#reset")
    d.press("#ok")
    assert d.app.top is scene and scene.stats.is_empty
    assert load_statistics(triangles_home / "statistics.json").is_empty
    assert not d.button("#reset").is_enabled  # nothing left to reset
    d.frames(3)
    assert_fits(d, scene)
    d.shot("screens-phone-stats-empty.png")


# -- problems are reported once --------------------------------------------------------


def test_an_unreadable_file_is_reported_once_in_the_window(launch, triangles_home):
    (triangles_home / "statistics.json").write_text("{ this is not json")
    d = launch()
    d.press("#stats")
    assert isinstance(d.scene, MessageScene)
    kept = list(triangles_home.glob("statistics.unreadable-*.json"))
    assert len(kept) == 1 and kept[0].name in d.scene.text
    d.press("#ok")
    assert isinstance(d.scene, StatisticsScene) and d.scene.stats.is_empty
    d.press("#back")
    d.press("#stats")
    assert isinstance(d.scene, StatisticsScene)  # not reported again


def test_a_failed_write_is_reported_once_and_play_goes_on(launch, triangles_home, monkeypatch):
    def denied(path: object, text: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(st, "write_text_atomic", denied)
    d = launch(preset="phone", stars=24, seed=50, mode="ai", level="hard", config=QUICK)
    finish_against_computer(d, 51)
    assert isinstance(d.scene, MessageScene) and "Permission denied" in d.scene.text
    d.press("#ok")
    assert isinstance(d.scene, FinalScene)
    d.press("#rematch")
    finish_against_computer(d, 52)
    assert isinstance(d.scene, FinalScene)  # no second message
    assert d.app.nav.stats.stats.tally("phone", 24, "hard").games == 2  # counted for this window


# -- every language, both presets -------------------------------------------------------


@pytest.mark.parametrize("preset", ["phone", "tablet"])
@pytest.mark.parametrize("lang", LANGS)
def test_screenshots_in_every_language_fit(launch, triangles_home, artifacts, language, preset, lang):
    seed_statistics(triangles_home)
    d = launch(preset=preset)
    i18n.set_language(lang)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scene = open_stats(d)
        assert (scene.preset, scene.stars) == ("phone", 60)  # the last played selection
        assert_fits(d, scene)
        d.shot(f"screens-{preset}-stats-{lang}.png")
        # the other device and its first board size also fit (and say "No games yet" where empty)
        d.key(pygame.K_DOWN)
        d.frames(2)
        assert scene.preset == "tablet" and scene.stars == 120
        assert_fits(d, scene)
        d.key(pygame.K_LEFT)
        d.frames(2)
        assert scene.stars == 80 and not scene.stats.has_games("tablet", 80)
        assert_fits(d, scene)
        # the question before a reset fits too (its text needs no scroll bar)
        d.press("#reset")
        assert isinstance(d.scene, ResetStatisticsScene)
        d.frames(3)
        boxes = [w for w in d.scene._widgets if isinstance(w, pygame_gui.elements.UITextBox)]
        assert boxes and all(b.scroll_bar is None for b in boxes)
        d.shot(f"screens-{preset}-stats-reset-{lang}.png")
        d.press("#cancel")
        assert d.app.top is scene
    cut = [str(w.message) for w in caught if "too small" in str(w.message)]
    assert not cut, cut
    # what the table says is the catalog's text, in this language
    assert dict(figure_rows(scene.stats, "phone", 60))[i18n.tr("stats.wins")] == ["3", "1", "0"]
    names = [name for name, _ in hotseat_rows(scene.stats)]
    assert i18n.tr("player.one") in names and "Anna" in names


def test_many_two_player_names_end_in_a_summing_row(launch, triangles_home):
    book = StatisticsBook(triangles_home / "statistics.json")
    for k in range(12):
        book.stats.add(FinishedGame(f"n{k}", "hotseat", "phone", 24, "medium", winner=k % 2, winner_name=f"Name {k}"))
    assert book.save()
    rows = hotseat_rows(book.stats)
    assert len(rows) == 14
    short = shorten_rows(rows, 6)
    assert len(short) == 6 and short[-1] == ("", "and 9 more") and short[:5] == rows[:5]
    assert shorten_rows(rows, 14) == rows
    d = launch()
    scene = open_stats(d)
    assert_fits(d, scene)


@pytest.mark.parametrize("lang", LANGS)
def test_the_level_names_over_the_table_stay_readable_and_apart(launch, triangles_home, language, monkeypatch, lang):
    """On the phone each level's column is as wide as its name needs: equal columns had shrunk all
    three Malay names to the smallest type for "Sederhana" alone, and set the Russian ones edge to edge."""
    from triangles.i18n import tr
    from triangles.ui.scenes.stats import GAP

    seed_statistics(triangles_home)
    d = launch(preset="phone")
    i18n.set_language(lang)
    scene = open_stats(d)
    levels = [tr(f"level.{lv}") for lv in ("easy", "medium", "hard")]
    images: dict[str, tuple[float, pygame.Surface]] = {}
    spans: dict[str, pygame.Rect] = {}
    text, blit = scene._text, scene._blit

    def watched_text(t, size, max_w, color, bold=False):
        img = text(t, size, max_w, color, bold)
        if t in levels:
            images[t] = (size, img)
        return img

    def watched_blit(surface, img, x, y, h, align):
        for t, (_, shown) in images.items():
            if shown is img:
                spans[t] = img.get_rect(center=(round(scene.app.viewport.design_to_screen(x, y)[0]), 0))
        return blit(surface, img, x, y, h, align)

    monkeypatch.setattr(scene, "_text", watched_text)
    monkeypatch.setattr(scene, "_blit", watched_blit)
    d.frames(2)
    assert set(spans) == set(levels)
    sizes = {t: size for t, (size, _) in images.items()}
    assert min(sizes.values()) >= 14, sizes  # the row labels' size; Malay's names were at 11
    row = sorted(spans.values(), key=lambda r: r.left)
    gap = GAP * scene.app.viewport.scale - 2  # the room the columns keep, less what rounding takes (Russian had 4 px)
    assert all(a.right + gap <= b.left for a, b in pairwise(row)), [(r.left, r.right) for r in row]
    assert_fits(d, scene)
