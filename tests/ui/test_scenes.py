"""Menus, dialogs, the final and review screens, saving and opening games.

Screenshots of the main screens go to ``test-artifacts/`` and are checked for
content: not blank, stars bright where the board says, lines in their
owner's colour.
"""

from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from triangles.record import load_record, save_record
from triangles.saves import games_dir, session_path
from triangles.ui.app import AppConfig
from triangles.ui.scenes.final import FinalScene
from triangles.ui.scenes.menu import MainMenuScene
from triangles.ui.scenes.message import MessageScene
from triangles.ui.scenes.new_game import NewGameScene
from triangles.ui.scenes.open_game import OpenGameScene
from triangles.ui.scenes.play import PlayScene
from triangles.ui.scenes.review import ReviewScene


def quick_chooser(game, level, seed, time_limit):
    return random.Random(seed).choice(game.legal_moves())


QUICK = AppConfig(ai_delay=(0.0, 0.0), chooser=quick_chooser)
SEED_ET = 12


# -- screenshot checks ----------------------------------------------------------------


def pixels(surface: pygame.Surface) -> np.ndarray:
    return pygame.surfarray.array3d(surface).astype(np.int32)  # (w, h, 3)


def assert_not_blank(surface: pygame.Surface) -> None:
    a = pixels(surface)
    assert a.std() > 8, "the screen is (nearly) one colour"
    assert (a.sum(axis=2) > 600).mean() > 0.0005, "nothing bright on screen"


def assert_board_drawn(d, game) -> None:
    """Stars are bright where the board says; each line shows its owner's colour."""
    a = pixels(d.app.surface)
    view = d.play_scene().view
    for k in range(game.board.n):
        x, y = (round(v) for v in view.star_screen_pos(k))
        patch = a[max(0, x - 1) : x + 2, max(0, y - 1) : y + 2]
        assert patch.sum(axis=2).max() > 600, f"star {k} is not bright at {(x, y)}"
    last = game.last_move
    for (i, j), owner in game.lines:
        if (i, j) == last:
            continue  # drawn over by the white last-line marker
        (x0, y0), (x1, y1) = view.star_screen_pos(i), view.star_screen_pos(j)
        votes = 0
        samples = [0.3, 0.4, 0.6, 0.7]
        for t in samples:
            x, y = round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)
            r, g, b = a[x, y]
            if owner == 0 and r > b + 40 and r > 120:
                votes += 1
            if owner == 1 and b > r + 40 and b > 120:
                votes += 1
        assert votes >= len(samples) // 2, f"line {i}-{j} of player {owner + 1} not in its colour"


# -- menu -----------------------------------------------------------------------------


def test_main_menu_screenshot_and_entries(launch, artifacts):
    d = launch()
    assert isinstance(d.scene, MainMenuScene)
    assert d.button("#continue") is None  # nothing saved yet
    for obj in ("#new_game", "#open_game", "#quit"):
        assert d.button(obj) is not None
    d.frames(2)
    assert_not_blank(d.app.surface)
    d.shot("menu.png")
    # every entry leads somewhere visible
    d.press("#new_game")
    assert isinstance(d.scene, NewGameScene)
    d.key(pygame.K_ESCAPE)
    assert isinstance(d.scene, MainMenuScene)
    d.press("#open_game")
    assert isinstance(d.scene, OpenGameScene)
    d.frames(2)
    assert_not_blank(d.app.surface)
    d.shot("open-game.png")
    d.press("#cancel")
    assert isinstance(d.scene, MainMenuScene)
    d.press("#quit")
    assert not d.app.running


def test_new_game_dialog_starts_the_chosen_game(launch, artifacts):
    d = launch()
    d.press("#new_game")
    assert isinstance(d.scene, NewGameScene)
    d.frames(2)
    assert_not_blank(d.app.surface)
    d.shot("new-game.png")
    s = d.scene.s
    assert s.extra_turn is False  # off by default
    # two players, 24 stars, move again on, seed 42
    rows = d.scene.rows
    d.click(dict(rows["mode"].buttons)["hotseat"].rect.center)
    rows = d.scene.rows
    assert "level" not in rows
    d.click(dict(rows["stars"].buttons)[24].rect.center)
    d.click(dict(d.scene.rows["extra_turn"].buttons)[True].rect.center)
    entry = d.scene.seed_entry
    assert entry is not None
    entry.set_text("42")
    d.press("#start")
    assert isinstance(d.scene, PlayScene)
    m = d.scene.match
    assert m.mode == "hotseat" and m.board.n == 24 and m.seed == 42 and m.game.extra_turn
    d.frames(2)
    assert_board_drawn(d, m.game)


def test_new_game_against_computer_level_and_who_starts(launch):
    d = launch(config=QUICK)
    d.press("#new_game")
    d.click(dict(d.scene.rows["mode"].buttons)["ai"].rect.center)
    d.click(dict(d.scene.rows["level"].buttons)["hard"].rect.center)
    d.click(dict(d.scene.rows["computer_starts"].buttons)[True].rect.center)
    d.press("#start")
    m = d.play_scene().match
    assert m.players[0].kind == "computer" and m.players[0].level == "hard"
    assert d.until(lambda: m.game.move_count >= 1, timeout=3)


# -- play, final, review -------------------------------------------------------------


def test_play_and_final_screenshots(launch, artifacts):
    d = launch(preset="phone", stars=24, seed=7, mode="hotseat")
    scene = d.play_scene()
    game = scene.match.game
    rng = random.Random(8)
    while game.move_count < 14:
        d.draw_line(*rng.choice(game.legal_moves()))
    d.click_star(game.legal_moves()[0][0])  # a half-drawn line with its band
    d.move((d.app.surface.get_width() // 2, d.app.surface.get_height() // 2))
    d.frames(3)
    assert_not_blank(d.app.surface)
    assert_board_drawn(d, game)
    d.shot("play.png")
    d.key(pygame.K_ESCAPE)
    while not game.is_over():
        d.draw_line(*rng.choice(game.legal_moves()))
    d.frames(20)
    assert isinstance(d.scene, FinalScene)
    assert_not_blank(d.app.surface)
    d.shot("final.png")


def test_final_rematch_and_review(launch, artifacts):
    d = launch(preset="phone", stars=24, seed=9, mode="hotseat")
    game = d.play_scene().match.game
    rng = random.Random(10)
    while not game.is_over():
        d.draw_line(*rng.choice(game.legal_moves()))
    d.frames(2)
    moves = list(game.moves)
    d.press("#review")
    assert isinstance(d.scene, ReviewScene)
    r = d.scene
    assert r.index == len(moves)
    d.press("#first")
    assert r.index == 0
    d.key(pygame.K_RIGHT)
    d.key(pygame.K_RIGHT)
    d.press("#next")
    assert r.index == 3 and r.game.moves == moves[:3]
    d.press("#prev")
    assert r.index == 2
    d.frames(2)
    assert_not_blank(d.app.surface)
    d.shot("review.png")
    d.press("#back")
    assert isinstance(d.scene, FinalScene)
    board = d.play_scene().match.board
    d.press("#rematch")
    assert isinstance(d.scene, PlayScene)
    assert d.scene.match.board is board and d.scene.match.game.move_count == 0


def test_extra_turn_says_the_same_player_moves_again(launch):
    d = launch(preset="phone", stars=24, seed=SEED_ET, mode="hotseat", extra_turn=True)
    scene = d.play_scene()
    game = scene.match.game
    rng = random.Random(11)
    while not game.is_over():
        closing = [m for m in game.legal_moves() if game.closes(*m)]
        if closing and game.move_count > 3:
            mover = game.player
            d.draw_line(*closing[0])
            if not game.is_over():
                assert game.player == mover
                info = scene.hud_info()
                assert info.status == f"Triangle! Player {mover + 1} moves again"
                assert scene.flashes, "the closed triangle flashes"
                return
        else:
            d.draw_line(*rng.choice(game.legal_moves()))
    pytest.skip("no triangle closed before the end")


def test_hint_shows_a_legal_line(launch):
    d = launch(
        preset="phone",
        stars=24,
        seed=3,
        mode="hotseat",
        config=AppConfig(ai_delay=(0, 0), hinter=lambda g: g.legal_moves()[-1]),
    )
    scene = d.play_scene()
    d.press("#hint")
    assert d.until(lambda: scene.hint_move is not None, timeout=3)
    assert scene.match.game.is_legal(*scene.hint_move)
    d.draw_line(*scene.hint_move)
    assert scene.hint_move is None and scene.match.game.move_count == 1


def test_pause_menu_and_keyboard_play(launch):
    d = launch(preset="phone", stars=24, seed=3, mode="hotseat")
    scene = d.play_scene()
    d.press("#menu")
    assert d.scene.__class__.__name__ == "PauseScene"
    d.press("#resume")
    assert d.scene is scene
    # arrows pick stars, Enter selects them: a line by keyboard
    game = scene.match.game
    for _ in range(12):
        d.key(pygame.K_RETURN)
        if scene.selected is not None:
            break
    first = scene.selected
    assert first is not None
    for key in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_LEFT, pygame.K_UP) * 3:
        d.key(key)
        if scene.hover != first and game.why_illegal(first, scene.hover) is None:
            break
    d.key(pygame.K_RETURN)
    assert game.move_count == 1


# -- saving and opening ----------------------------------------------------------------


def test_game_in_progress_is_saved_on_close_and_continued(launch, triangles_home):
    d = launch(preset="phone", stars=24, seed=13, mode="hotseat")
    game = d.play_scene().match.game
    rng = random.Random(14)
    for _ in range(5):
        d.draw_line(*rng.choice(game.legal_moves()))
    moves = list(game.moves)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    d.frames(1)
    assert not d.app.running
    assert load_record(session_path()).moves == moves
    d2 = launch()
    assert isinstance(d2.scene, MainMenuScene)
    d2.frames(2)
    d2.shot("menu-continue.png")
    assert "5 lines" in d2.button("#continue_detail").text if d2.button("#continue_detail") else False
    d2.press("#continue")
    assert isinstance(d2.scene, PlayScene)
    assert d2.scene.match.game.moves == moves
    assert d2.scene.match.board.n == 24


def test_unreadable_saved_game_is_reported_and_kept(launch, triangles_home):
    path = session_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "triangles-record", "version": 1, "stars": "oops"}')
    d = launch()  # said at once, not when Continue is clicked: the menu never offers a Continue that fails
    assert isinstance(d.scene, MessageScene)
    assert "stars" in d.scene.text
    d.frames(2)
    d.shot("message-unreadable.png")
    d.press("#ok")
    assert isinstance(d.scene, MainMenuScene)
    assert d.button("#continue") is None
    kept = list(path.parent.glob("current-game.unreadable-*.json"))
    assert len(kept) == 1 and "oops" in kept[0].read_text()


def test_save_copy_and_open_it_from_the_menu(launch, triangles_home):
    d = launch(preset="phone", stars=24, seed=15, mode="hotseat")
    scene = d.play_scene()
    game = scene.match.game
    rng = random.Random(16)
    for _ in range(4):
        d.draw_line(*rng.choice(game.legal_moves()))
    moves = list(game.moves)
    d.press("#menu")
    d.press("#save")
    saved = list(games_dir().glob("*.json"))
    assert len(saved) == 1 and load_record(saved[0]).moves == moves
    assert scene.hud_info().status.startswith("Saved as")
    d.press("#menu")
    d.press("#main_menu")
    assert isinstance(d.scene, MainMenuScene)
    d.press("#open_game")
    assert isinstance(d.scene, OpenGameScene)
    d.press("#open")
    assert isinstance(d.scene, PlayScene)
    assert d.scene.match.game.moves == moves


def test_opening_a_bad_record_reports_it_and_the_game_goes_on(launch, triangles_home, tmp_path):
    d = launch(preset="phone", stars=24, seed=15, mode="hotseat")
    game = d.play_scene().match.game
    d.draw_line(*game.legal_moves()[0])
    rec = d.play_scene().match.to_record()
    rec.moves.append(rec.moves[0])  # the same line twice: illegal
    bad = tmp_path / "bad.json"
    bad.write_text(rec.to_json())
    play = d.play_scene()
    assert d.app.nav.open_record(bad) is False
    assert isinstance(d.scene, MessageScene)
    assert "Move 2 " in d.scene.text
    d.press("#ok")
    assert play is not None and play.match.game.move_count == 1
    assert d.scene is play
    d.draw_line(*game.legal_moves()[0])
    assert game.move_count == 2


def test_direct_start_with_a_record(launch, tmp_path):
    d = launch(preset="phone", stars=24, seed=15, mode="hotseat")
    m = d.play_scene().match
    for mv in m.game.legal_moves()[:1]:
        d.draw_line(*mv)
    path = tmp_path / "g.json"
    save_record(m.to_record(), path)
    d2 = launch(open_record=path)
    assert isinstance(d2.scene, PlayScene)
    assert d2.scene.match.game.moves == m.game.moves


def test_tablet_layout(launch, artifacts):
    d = launch(preset="tablet", stars=80, seed=2, mode="ai", config=QUICK)
    game = d.play_scene().match.game
    rng = random.Random(3)
    for _ in range(8):
        if game.is_over():
            break
        d.draw_line(*rng.choice(game.legal_moves()))
        d.until(lambda: not d.play_scene().match.computer_to_move, timeout=3)
    d.frames(2)
    assert_board_drawn(d, game)
    d.shot("play-tablet.png")


def test_thinking_mark_screenshot(launch, artifacts):
    import threading

    gate = threading.Event()

    def slow(game, level, seed, time_limit):
        gate.wait(5)
        return game.legal_moves()[0]

    d = launch(
        preset="phone",
        stars=24,
        seed=5,
        mode="ai",
        computer_starts=True,
        config=AppConfig(ai_delay=(0.0, 0.0), chooser=slow),
    )
    scene = d.play_scene()
    d.frames(20)
    info = scene.hud_info()
    assert info.thinking and info.status == "Computer is thinking…"
    assert d.button("#hint").is_enabled is False
    d.shot("play-thinking.png")
    # clicks on the board are refused politely while it thinks
    d.click_star(0)
    assert scene.selected is None and scene.hud_info().status.startswith("Wait")
    gate.set()
    assert d.until(lambda: scene.match.game.move_count == 1, timeout=3)


@pytest.mark.parametrize(
    "preset,stars,size",
    [("phone", 24, None), ("tablet", 80, None), ("phone", 24, (700, 500)), ("tablet", 80, (600, 900))],
)
def test_every_scene_fits_its_text_and_survives_resizing(launch, preset, stars, size):
    """Walk through every scene; no widget text is cut off, everything stays inside the window."""
    import warnings

    from triangles.ui.scenes.pause import PauseScene

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = launch(preset=preset, stars=stars, seed=1, mode="hotseat")
        if size:
            d.app.window.resize(size)
            d.frames(2)
        W, H = d.app.surface.get_size()

        def check(expected):
            assert isinstance(d.scene, expected), type(d.scene).__name__
            d.frames(2)
            for el in d.scene._widgets:
                r = el.rect
                assert r.left >= -1 and r.top >= -1 and r.right <= W + 1 and r.bottom <= H + 1, (el, r)

        check(PlayScene)
        first = d.play_scene()
        first.play(*first.match.game.legal_moves()[0])  # a game with a line is kept for Continue
        d.press("#menu")
        check(PauseScene)
        d.press("#main_menu")
        check(MainMenuScene)
        d.press("#new_game")
        check(NewGameScene)
        d.key(pygame.K_ESCAPE)
        d.press("#open_game")
        check(OpenGameScene)
        d.press("#open")
        check(MessageScene)
        d.press("#ok")
        d.press("#cancel")
        d.press("#continue")
        play = d.play_scene()
        game = play.match.game
        rng = random.Random(0)
        while not game.is_over():
            play.play(*rng.choice(game.legal_moves()))  # clicks are tested elsewhere
        d.frames(1)
        check(FinalScene)
        d.press("#review")
        check(ReviewScene)
    cut = [str(w.message) for w in caught if "too small" in str(w.message)]
    assert not cut, cut


def test_a_new_game_never_throws_away_the_unfinished_one(launch, triangles_home):
    d = launch(preset="phone", stars=24, seed=31, mode="hotseat")
    game = d.play_scene().match.game
    for _ in range(3):
        d.draw_line(*game.legal_moves()[0])
    moves = list(game.moves)
    d.press("#menu")
    d.press("#new_game")
    d.press("#start")
    assert isinstance(d.scene, PlayScene) and d.scene.match.game.move_count == 0
    kept = list(games_dir().glob("unfinished-*.json"))
    assert len(kept) == 1 and load_record(kept[0]).moves == moves


@pytest.mark.parametrize(
    "content",
    [b"[" * 200_000 + b"]" * 200_000, b"\x00\xff" * 1000, b"", "{}".encode("utf-16"), None],
    ids=["deep-nesting", "binary", "empty", "utf-16", "a-folder"],
)
def test_a_hostile_saved_game_never_locks_the_player_out(launch, triangles_home, content):
    """The game starts, says so once, keeps the file aside, and offers no Continue that would fail."""
    path = session_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    d = launch()
    assert isinstance(d.scene, MessageScene)
    assert "\n" not in d.scene.text.split(")")[-1] and "Traceback" not in d.scene.text
    d.press("#ok")
    assert isinstance(d.scene, MainMenuScene) and d.button("#continue") is None
    kept = list(path.parent.glob("current-game.unreadable-*"))
    assert len(kept) == 1 and not path.exists()
    if content is not None:
        assert kept[0].read_bytes() == content
    d.app.close()
    again = launch()  # said once: the next start is quiet
    assert isinstance(again.scene, MainMenuScene)


def test_a_game_without_a_line_is_not_offered_as_continue(launch):
    d = launch(preset="phone", stars=24, seed=3, mode="hotseat")
    d.press("#menu")
    d.press("#main_menu")
    assert isinstance(d.scene, MainMenuScene) and d.button("#continue") is None
    d.press("#new_game")
    d.press("#start")
    d.draw_line(*d.play_scene().match.game.legal_moves()[0])
    d.press("#menu")
    d.press("#main_menu")
    assert d.button("#continue") is not None


def test_a_window_that_grows_for_the_tablet_stays_on_the_desktop(launch):
    """Phone window near the right edge, then a tablet game: the window moves back onto the desktop."""
    import warnings

    d = launch(preset="phone", stars=24, seed=3, mode="hotseat")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        win = pygame.Window.from_display_module()
    desk_w, desk_h = pygame.display.get_desktop_sizes()[0]
    win.position = (desk_w - win.size[0] - 10, 20)  # the phone window fits where the player put it
    from triangles.match import MatchSettings

    d.app.nav.start_new(MatchSettings(mode="hotseat", preset="tablet", stars=80, seed=3))
    d.frames(2)
    x, y = win.position
    w, h = win.size
    assert w > 600  # it did grow for the tablet
    assert 0 <= x and x + w <= desk_w and 0 <= y and y + h <= desk_h, (x, y, w, h, desk_w, desk_h)
