"""The demo: the computer against itself at two levels, with a speed control; nobody's statistics.

A stand-in chooser (seeded random lines) keeps these tests independent of
the engine's speed; it records the level it was asked for per seat.  The
pause between lines runs on a hand-driven clock where the test checks it.
Screenshots go to ``test-artifacts/demo/``.
"""

from __future__ import annotations

import random
import threading
import warnings
from pathlib import Path

import pygame
import pytest

from triangles.match import Match, MatchSettings
from triangles.record import load_record, save_record
from triangles.stats import StatisticsBook, statistics_path
from triangles.ui.app import AppConfig
from triangles.ui.scenes.final import FinalScene
from triangles.ui.scenes.new_game import NewGameScene
from triangles.ui.scenes.play import PlayScene

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "demo"


class LevelChooser:
    """Seeded random lines; keeps (seat to move, level asked) for every request."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, str]] = []
        self.lock = threading.Lock()

    def __call__(self, game, level, seed, time_limit):
        with self.lock:
            self.asked.append((game.player, level))
        return random.Random(seed).choice(game.legal_moves())


def demo(launch, *, chooser=None, pauses=(0.0, 0.0, 0.0), clock=None, **kw):
    config = AppConfig(ai_delay=(0.0, 0.0), chooser=chooser or LevelChooser(), demo_pauses=pauses)
    if clock is not None:
        config.ai_clock = clock
    kw.setdefault("preset", "phone")
    kw.setdefault("stars", 24)
    kw.setdefault("seed", 5)
    return launch(mode="demo", config=config, **kw)


def test_a_demo_plays_to_the_end_by_itself_at_each_seats_level(launch):
    chooser = LevelChooser()
    d = demo(launch, chooser=chooser, level="easy", level2="hard")
    play = d.play_scene()
    m = play.match
    assert m.mode == "demo" and [p.kind for p in m.players] == ["computer", "computer"]
    assert (m.level_of(0), m.level_of(1)) == ("easy", "hard")
    assert d.until(lambda: isinstance(d.scene, FinalScene), timeout=30)
    game = m.game
    assert game.is_over() and {o for _, o in game.lines} == {0, 1}
    levels = {seat: {lv for s, lv in chooser.asked if s == seat} for seat in (0, 1)}
    assert levels == {0: {"easy"}, 1: {"hard"}}
    w = game.winner()
    assert d.scene.text == {None: "Draw!", 0: "Computer 1 wins!", 1: "Computer 2 wins!"}[w]
    SHOTS.mkdir(parents=True, exist_ok=True)
    d.frames(2)
    d.shot("demo/phone-demo-final-en.png")
    # nobody's statistics: nothing counted, no file written, the id not even kept
    assert not statistics_path().exists()
    assert d.app.nav.stats.stats.is_empty and m.game_id not in d.app.nav.stats.stats.counted
    # a rematch is a demo again, and plays by itself too
    d.press("#rematch")
    assert d.play_scene().match.mode == "demo"
    assert d.until(lambda: d.play_scene().match.game.move_count > 2, timeout=10)


def test_statistics_skip_a_finished_demo(tmp_path):
    m = Match.new(MatchSettings(mode="demo", preset="phone", stars=24, seed=3, level="hard", level2="easy"))
    rng = random.Random(1)
    while not m.game.is_over():
        m.play(*rng.choice(m.game.legal_moves()))
    book = StatisticsBook(tmp_path / "statistics.json")
    assert book.count(m, "phone") is False
    assert book.stats.is_empty and not (tmp_path / "statistics.json").exists()
    assert book.take_problems() == []


def test_speed_control_changes_the_pause_and_pause_holds_the_game(launch):
    now = [100.0]
    d = demo(launch, pauses=(0.9, 0.5, 0.1), clock=lambda: now[0])
    play = d.play_scene()
    game = play.match.game
    worker = d.app.worker
    assert play.demo is not None and play.demo.speed == "normal"
    d.frames(2)
    assert d.until(lambda: worker.pending is None, timeout=5)
    now[0] += 0.45
    d.frames(3)
    assert game.move_count == 0 and play.ai_delay == 0.5  # normal: held for half a second
    d.press("#demo_faster")
    assert play.demo.speed == "fast"
    assert d.until(lambda: game.move_count == 1, timeout=5)  # 0.45 s had passed: at "fast" that is enough
    assert d.button("#demo_faster").is_enabled is False  # already the fastest
    # slower, twice: the slowest, held until 0.9 s have passed on the computer's clock
    d.press("#demo_slower")
    d.press("#demo_slower")
    assert play.demo.speed == "slow" and d.button("#demo_slower").is_enabled is False
    assert d.until(lambda: worker.pending is None, timeout=5)
    now[0] += 0.6
    d.frames(3)
    assert game.move_count == 1 and play.ai_delay == 0.9
    # the keys: 3 is fast, 2 normal, 1 slow
    d.key(pygame.K_3)
    assert play.demo.speed == "fast"
    assert d.until(lambda: game.move_count == 2, timeout=5)
    d.key(pygame.K_2)
    assert play.demo.speed == "normal"
    # pause: nothing moves however long it waits; the button says Resume; Space goes on
    d.press("#demo_pause")
    assert play.demo.paused and d.button("#demo_pause").text == "Resume"
    assert play.hud_info().status == "Demo paused" and not play.hud_info().thinking  # nobody is thinking
    now[0] += 60
    d.frames(20)
    assert game.move_count == 2
    d.key(pygame.K_SPACE)
    assert not play.demo.paused and d.button("#demo_pause").text == "Pause"
    assert d.until(lambda: game.move_count == 3, timeout=5)
    assert play.hud_info().status == "Demo · speed: normal"


def test_nobody_draws_in_a_demo(launch):
    now = [0.0]
    d = demo(launch, clock=lambda: now[0])
    play = d.play_scene()
    game = play.match.game
    d.press("#demo_pause")  # held still, so any line drawn would be a click's
    assert play.demo.paused
    before = game.move_count
    rng = random.Random(3)
    for _ in range(4):
        i, j = rng.choice(game.legal_moves())
        d.draw_line(i, j)
        d.drag_line(j, i)
    assert game.move_count == before and play.selected is None
    assert play.hud_info().status == "Demo — press Esc for the menu"
    # no undo, redo or hint in a demo: neither buttons nor keys
    assert d.button("#undo") is None and d.button("#redo") is None and d.button("#hint") is None
    d.key(pygame.K_SPACE)
    assert d.until(lambda: game.move_count >= before + 2, timeout=5)
    d.key(pygame.K_SPACE)
    n = game.move_count
    assert not play.match.can_undo()
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    d.key(pygame.K_h)
    d.frames(3)
    assert game.move_count == n and play.hint_move is None
    d.key(pygame.K_ESCAPE)  # the menu, as the note says
    assert type(d.scene).__name__ == "PauseScene"


def test_a_demo_record_saves_and_replays(launch, tmp_path):
    d = demo(launch, level="hard", level2="easy", seed=9)
    assert d.until(lambda: isinstance(d.scene, FinalScene), timeout=30)
    m = d.play_scene().match
    path = tmp_path / "demo.json"
    save_record(m.to_record(), path)
    again = Match.from_record(load_record(path))
    assert again.mode == "demo" and (again.level_of(0), again.level_of(1)) == ("hard", "easy")
    assert again.game.moves == m.game.moves and again.game.scores == m.game.scores
    assert again.game_id == m.game_id
    # and in the window: opened, it is a finished demo on the final screen, still not counted
    d.app.nav.open_record(path)
    d.frames(3)
    assert isinstance(d.scene, FinalScene) and d.play_scene().match.mode == "demo"
    assert d.app.nav.stats.stats.is_empty
    from triangles.cli import replay_summary

    assert replay_summary(load_record(path))["lines"] == m.game.move_count


def test_an_unfinished_demo_is_continued_as_a_demo(launch):
    now = [0.0]
    d = demo(launch, clock=lambda: now[0], level="easy", level2="medium")
    game = d.play_scene().match.game
    now[0] += 5
    assert d.until(lambda: game.move_count >= 3, timeout=5)
    d.app.nav.show_menu()
    assert d.app.nav.continue_saved()
    m = d.play_scene().match
    assert m.mode == "demo" and (m.level_of(0), m.level_of(1)) == ("easy", "medium")
    assert d.play_scene().demo is not None


def test_the_command_line_asks_for_a_demo(capsys):
    from triangles.cli import _build_parser
    from triangles.launch import LaunchOptions

    args = _build_parser().parse_args(["--mode", "demo", "--level", "easy", "--level2", "hard"])
    assert (args.mode, args.level, args.level2) == ("demo", "easy", "hard")
    s = LaunchOptions(mode=args.mode, level=args.level, level2=args.level2).new_game_choices()
    assert (s.mode, s.level, s.level2) == ("demo", "easy", "hard")
    with pytest.raises(SystemExit):
        _build_parser().parse_args(["--level2", "impossible"])


def test_new_game_dialog_starts_a_demo_and_remembers_it(launch):
    chooser = LevelChooser()
    d = launch(config=AppConfig(ai_delay=(0.0, 0.0), chooser=chooser, demo_pauses=(0.0, 0.0, 0.0)))
    d.press("#new_game")
    assert isinstance(d.scene, NewGameScene)
    d.click(dict(d.scene.rows["mode"].buttons)["demo"].rect.center)
    rows = d.scene.rows
    assert "computer_starts" not in rows and {"level", "level2"} <= set(rows)
    d.click(dict(rows["level"].buttons)["hard"].rect.center)
    d.click(dict(d.scene.rows["level2"].buttons)["easy"].rect.center)
    d.press("#start")
    play = d.play_scene()
    assert isinstance(play, PlayScene) and play.match.mode == "demo"
    assert (play.match.level_of(0), play.match.level_of(1)) == ("hard", "easy")
    kept = d.app.settings.new_game
    assert (kept.mode, kept.level, kept.level2) == ("demo", "hard", "easy")
    from triangles.settings import load_settings

    assert load_settings()[0].new_game.level2 == "easy"  # and in the settings file


# -- pictures: the dialog with the demo choice and a demo in progress -------------------------


@pytest.mark.parametrize("lang", ["en", "ru", "ms", "vi"])
@pytest.mark.parametrize("preset,stars", [("phone", 24), ("tablet", 80)])
def test_screenshots_of_the_demo_fit_in_every_language(launch, monkeypatch, hud_cuts, cut_buttons, lang, preset, stars):
    from triangles import i18n

    monkeypatch.setenv("TRIANGLES_LANG", lang)
    SHOTS.mkdir(parents=True, exist_ok=True)
    cut = hud_cuts
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            d = demo(launch, preset=preset, stars=stars, seed=8)
            game = d.play_scene().match.game
            assert d.until(lambda: game.move_count >= 12, timeout=10)
            d.play_scene().demo.pauses = (60.0, 60.0, 60.0)  # hold it there for the pictures
            d.frames(3)
            cut += cut_buttons(d)
            d.shot(f"demo/{preset}-demo-{lang}.png")
            d.press("#demo_pause")
            d.frames(2)
            cut += cut_buttons(d)
            d.shot(f"demo/{preset}-demo-paused-{lang}.png")
            d.key(pygame.K_ESCAPE)
            d.press("#new_game")
            d.frames(3)
            assert isinstance(d.scene, NewGameScene) and d.scene.s.mode == "demo"
            cut += cut_buttons(d)
            d.shot(f"demo/{preset}-new-game-demo-{lang}.png")
            # the dialog's panel and buttons stay on screen
            start = d.button("#start")
            assert start is not None and start.rect.bottom <= d.app.surface.get_height()
    finally:
        i18n.set_language("en")
    too_small = sorted({str(w.message) for w in caught if "too small for text" in str(w.message)})
    assert not too_small, f"{lang} {preset}: text cut off:\n" + "\n".join(too_small)
    assert not cut, f"{lang} {preset}: cut off: {sorted(set(cut))}"
