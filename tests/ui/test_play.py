"""Playing in the window, headless: whole games by clicks, refusals, undo/redo,
resizing and fullscreen mid-game, quitting while the computer thinks.

Every test drives the real App with posted pygame events on a small seeded
phone board (24 stars); the computer's natural pause is set to zero.
"""

from __future__ import annotations

import random
import threading
import time

import pygame
import pytest

from triangles.ui.app import AppConfig
from triangles.ui.scenes.final import FinalScene
from triangles.ui.scenes.play import PlayScene

SEED = 5


def quick_chooser(game, level, seed, time_limit):
    """A stand-in opponent (seeded random lines) so these tests do not depend on engine speed."""
    return random.Random(seed).choice(game.legal_moves())


QUICK = AppConfig(ai_delay=(0.0, 0.0), chooser=quick_chooser)


def hotseat(launch, **kw):
    return launch(preset="phone", stars=24, seed=SEED, mode="hotseat", **kw)


def pick(game, rng: random.Random):
    return rng.choice(game.legal_moves())


def final_text(d) -> str:
    top = d.scene
    assert isinstance(top, FinalScene), f"expected the final screen, got {type(top).__name__}"
    return top.text


def test_hotseat_game_by_clicks_reaches_final_screen(launch, artifacts):
    d = hotseat(launch)
    scene = d.play_scene()
    game = scene.match.game
    rng = random.Random(1)
    clicks = 0
    while not game.is_over():
        i, j = pick(game, rng)
        before = game.move_count
        if clicks % 2:
            d.drag_line(i, j)
        else:
            d.draw_line(i, j)
        clicks += 1
        assert game.move_count == before + 1, f"line {i}-{j} was not drawn by clicking"
        assert game.moves[-1] == (min(i, j), max(i, j))
        assert clicks < 200
    d.frames(3)
    w = game.winner()
    expected = "Draw!" if w is None else f"Player {w + 1} wins!"
    assert final_text(d) == expected
    d.shot("final-hotseat.png")
    # a finished game is not offered as "Continue"
    from triangles.saves import has_session

    assert not has_session()


@pytest.mark.parametrize("engine", ["stand-in", "real"])
def test_game_against_computer_to_the_end(launch, engine):
    config = QUICK if engine == "stand-in" else AppConfig(ai_delay=(0.0, 0.0))
    d = launch(preset="phone", stars=24, seed=SEED, mode="ai", level="easy", config=config)
    scene = d.play_scene()
    m = scene.match
    game = m.game
    rng = random.Random(2)
    assert m.players[0].kind == "human" and m.players[1].kind == "computer"
    while not game.is_over():
        if m.computer_to_move:
            n = game.move_count
            assert d.until(lambda n=n: game.move_count > n or game.is_over(), timeout=10)
            continue
        i, j = pick(game, rng)
        n = game.move_count
        d.draw_line(i, j)
        assert game.move_count > n
    owners = {o for _, o in game.lines}
    assert owners == {0, 1}
    d.frames(2)
    w = game.winner()
    expected = {None: "Draw!", 0: "You won!", 1: "You lost!"}[w]
    assert final_text(d) == expected


def test_computer_move_waits_for_the_natural_pause(launch):
    now = [100.0]  # the computer's clock, moved by hand: no wall-clock in the assertion
    d = launch(
        preset="phone",
        stars=24,
        seed=SEED,
        mode="ai",
        computer_starts=True,
        config=AppConfig(ai_delay=(0.4, 0.4), chooser=quick_chooser, ai_clock=lambda: now[0]),
    )
    game = d.play_scene().match.game
    worker = d.app.worker
    d.frames(2)
    assert d.until(lambda: worker.pending is None, timeout=5)  # the answer is ready...
    d.frames(10)
    assert game.move_count == 0  # ...but held back: no time has passed on its clock
    now[0] += 0.39
    d.frames(3)
    assert game.move_count == 0
    now[0] += 0.02
    assert d.until(lambda: game.move_count == 1, timeout=5)
    assert game.lines[0][1] == 0  # the computer is player 1 (it starts)


def _find_illegal(game, reason):
    n = game.board.n
    for i in range(n):
        for j in range(i + 1, n):
            if game.why_illegal(i, j) == reason:
                return i, j
    return None


@pytest.mark.parametrize(
    "reason,text",
    [("exists", "Already drawn"), ("crosses", "Crosses a line"), ("through_star", "Passes through a star")],
)
def test_illegal_line_is_refused_with_its_reason(launch, reason, text):
    d = hotseat(launch)
    scene = d.play_scene()
    game = scene.match.game
    rng = random.Random(3)
    for _ in range(6):
        d.draw_line(*pick(game, rng))
    pair = _find_illegal(game, reason)
    if pair is None:
        pytest.skip(f"no {reason} pair on this board")
    before = (list(game.lines), game.scores, game.player)
    d.draw_line(*pair)
    assert (list(game.lines), game.scores, game.player) == before
    assert scene.hud_info().status == text
    assert scene.hud_info().status_kind == "bad"
    # while aiming at it, the band says it is illegal
    d.click_star(pair[0]) if scene.selected is None else None
    d.move(d.star_pos(pair[1]))
    d.frames(1)
    ov = scene.board_overlay()
    assert ov.band_target == pair[1] and ov.band_ok is False
    d.key(pygame.K_ESCAPE)
    assert scene.selected is None
    assert (list(game.lines), game.scores, game.player) == before


def test_right_click_cancels_a_half_drawn_line(launch):
    d = hotseat(launch)
    scene = d.play_scene()
    i, j = scene.match.game.legal_moves()[0]
    d.click_star(i)
    assert scene.selected == i
    d.click(d.star_pos(j), button=3)
    assert scene.selected is None
    assert scene.match.game.move_count == 0


def test_undo_and_redo_hotseat(launch):
    d = hotseat(launch)
    game = d.play_scene().match.game
    rng = random.Random(4)
    for _ in range(3):
        d.draw_line(*pick(game, rng))
    moves = list(game.moves)
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    assert game.moves == moves[:1]
    d.key(pygame.K_y, pygame.KMOD_CTRL)
    assert game.moves == moves[:2]
    d.press("#redo")
    assert game.moves == moves
    d.press("#undo")
    assert game.moves == moves[:2]
    # a new line forgets what could be redone
    d.draw_line(*pick(game, rng))
    assert not d.play_scene().match.can_redo()


def test_undo_against_computer_takes_back_its_reply_too(launch):
    d = launch(preset="phone", stars=24, seed=SEED, mode="ai", config=QUICK)
    m = d.play_scene().match
    game = m.game
    rng = random.Random(5)
    d.draw_line(*pick(game, rng))
    assert d.until(lambda: game.move_count >= 2 and not m.computer_to_move)
    lines = list(game.lines)
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    # back to before the human's line (and any extra lines of the computer)
    human_last = max(k for k, (_, o) in enumerate(lines) if o == 0)
    assert game.lines == lines[:human_last]
    assert game.player == 0
    d.frames(5)
    assert game.lines == lines[:human_last]  # the computer does not jump in
    d.key(pygame.K_y, pygame.KMOD_CTRL)
    assert game.lines == lines


def test_resize_and_fullscreen_mid_game(launch, artifacts):
    d = hotseat(launch)
    app = d.app
    game = d.play_scene().match.game
    rng = random.Random(6)
    d.draw_line(*pick(game, rng))
    # a wide window: the scene letterboxes, stars move, clicks still hit them
    app.window.resize((1000, 640))
    d.frames(2)
    vp = app.viewport
    assert vp.window_size == (1000, 640)
    assert vp.offset[0] > 100  # bars left and right
    d.draw_line(*pick(game, rng))
    assert game.move_count == 2
    d.shot("play-resized.png")
    # F11: fullscreen, then Alt+Enter back
    d.key(pygame.K_F11)
    assert app.window.fullscreen and app.surface.get_size() == pygame.display.get_desktop_sizes()[0]
    assert app.viewport.window_size == app.surface.get_size()
    d.draw_line(*pick(game, rng))
    assert game.move_count == 3
    d.key(pygame.K_RETURN, pygame.KMOD_ALT)
    assert not app.window.fullscreen
    assert app.surface.get_size() == (1000, 640)
    d.draw_line(*pick(game, rng))
    assert game.move_count == 4
    # the HUD buttons were rebuilt at the new scale and still work
    d.press("#undo")
    assert game.move_count == 3


def test_videoresize_event_is_handled(launch):
    d = hotseat(launch)
    app = d.app
    pygame.display.set_mode((500, 700), pygame.RESIZABLE)
    d.post(pygame.VIDEORESIZE, size=(500, 700), w=500, h=700)
    d.frames(2)
    assert app.viewport.window_size == (500, 700)


def test_start_fullscreen(launch):
    d = launch(preset="phone", stars=24, seed=SEED, mode="hotseat", fullscreen=True)
    assert d.app.window.fullscreen
    game = d.play_scene().match.game
    d.draw_line(*game.legal_moves()[0])
    assert game.move_count == 1


def test_quit_while_the_computer_thinks_exits_within_a_second(launch):
    started = threading.Event()

    def slow(game, level, seed, time_limit):
        started.set()
        time.sleep(30)
        return game.legal_moves()[0]

    d = launch(
        preset="phone",
        stars=24,
        seed=SEED,
        mode="ai",
        computer_starts=True,
        config=AppConfig(ai_delay=(0.0, 0.0), chooser=slow),
    )
    assert d.until(started.is_set, timeout=3)
    assert isinstance(d.scene, PlayScene) and d.scene.match.computer_to_move
    d.frames(3)  # the window keeps answering while it thinks
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    t0 = time.monotonic()
    code = d.app.run()
    assert code == 0
    assert time.monotonic() - t0 < 1.0


def test_stale_computer_answer_is_dropped(launch):
    gate = threading.Event()
    asked = []

    def gated(game, level, seed, time_limit):
        asked.append(game.move_count)
        gate.wait(5)
        return game.legal_moves()[0]

    d = launch(preset="phone", stars=24, seed=SEED, mode="ai", config=AppConfig(ai_delay=(0.0, 0.0), chooser=gated))
    scene = d.play_scene()
    m = scene.match
    d.draw_line(*m.game.legal_moves()[-1])
    assert d.until(lambda: asked == [1], timeout=3)
    d.key(pygame.K_z, pygame.KMOD_CTRL)  # take the line back while it thinks
    assert m.game.move_count == 0
    gate.set()
    d.frames(10)
    time.sleep(0.05)
    d.frames(5)
    assert m.game.move_count == 0  # the old answer did not land


QUIT_SCRIPT = r"""
import sys, time
import triangles.ai as ai
from triangles.launch import LaunchOptions
from triangles.ui.app import AppConfig, run

real = ai.choose_move

def busy(game, level, seed, time_limit):
    # the real engine, over and over: the thread stays inside the search
    end = time.monotonic() + 60
    while time.monotonic() < end:
        real(game, level, seed=seed, time_limit=time_limit)
    return real(game, level, seed=seed)

opts = LaunchOptions(preset="tablet", stars=80, seed=3, mode="ai", level="hard", computer_starts=True)
sys.exit(run(opts, AppConfig(ai_delay=(0.0, 0.0), chooser=busy)))
"""


def test_closing_the_process_while_the_real_engine_thinks(tmp_path):
    """A real process: the window closes (SIGTERM arrives as a quit event) without waiting for the engine.

    The engine is kept thinking for 60 s; the process must be gone long before (the 20 s wait is a
    hang detector, not a speed figure: no wall-clock time is asserted)."""
    import os
    import signal
    import subprocess
    import sys

    env = dict(os.environ, TRIANGLES_HOME=str(tmp_path / "home"))
    proc = subprocess.Popen(
        [sys.executable, "-c", QUIT_SCRIPT], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        line = proc.stdout.readline()
        assert line.strip() == "TRIANGLES READY", proc.stderr.read()
        time.sleep(0.8)  # the computer is deep in thought now
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(20)
        assert code == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("extra_turn", [False, True])
def test_match_undo_groups_against_computer(extra_turn):
    """Undo always lands on the human's turn, taking back one human line and the replies after it."""
    from triangles.match import Match, MatchSettings

    m = Match.new(MatchSettings(mode="ai", preset="phone", stars=24, seed=21, extra_turn=extra_turn))
    rng = random.Random(22)
    while not m.game.is_over():
        m.play(*rng.choice(m.game.legal_moves()))
    full = list(m.game.lines)
    human = m.human_side
    seen_tokens = {m.token}
    while m.can_undo():
        before = len(m.game.lines)
        group = m.undo()
        assert m.token not in seen_tokens
        seen_tokens.add(m.token)
        assert len(m.game.lines) == before - len(group)
        assert m.game.player == human
        undone = full[len(m.game.lines) : before]
        assert [o for _, o in undone].count(human) == 1 and undone[0][1] == human
    assert all(o != human for _, o in m.game.lines)
    while m.can_redo():
        m.redo()
    assert m.game.lines == full


def test_window_keeps_drawing_while_the_real_engine_thinks(launch):
    """At least 30 frames a second while the search runs in its thread."""
    import triangles.ai as ai

    stop = threading.Event()

    def busy(game, level, seed, time_limit):
        while not stop.is_set():
            ai.choose_move(game, "hard", seed=seed, time_limit=0.3)
        return game.legal_moves()[0]

    d = launch(
        preset="tablet",
        stars=120,
        seed=4,
        mode="ai",
        computer_starts=True,
        config=AppConfig(ai_delay=(0.0, 0.0), chooser=busy),
    )
    try:
        assert d.until(lambda: d.app.worker.pending is not None, timeout=3)
        time.sleep(0.3)  # let the engine get going (first calls may compile)
        frames, t0 = 0, time.monotonic()
        while time.monotonic() - t0 < 1.5:
            d.app.step()  # real clock, capped at the app's fps
            frames += 1
        fps = frames / (time.monotonic() - t0)
        assert d.app.worker.pending is not None, "the engine stopped thinking during the measurement"
        assert fps >= 30, f"only {fps:.0f} frames per second while the computer thinks"
    finally:
        stop.set()


def test_events_become_actions_once():
    from triangles.ui import input as inp

    E = pygame.event.Event
    assert inp.translate(E(pygame.KEYDOWN, key=pygame.K_F11, mod=0))[0].kind == inp.FULLSCREEN
    assert inp.translate(E(pygame.KEYDOWN, key=pygame.K_RETURN, mod=pygame.KMOD_LALT))[0].kind == inp.FULLSCREEN
    assert inp.translate(E(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))[0].kind == inp.CONFIRM
    assert inp.translate(E(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_LCTRL))[0].kind == inp.UNDO
    assert (
        inp.translate(E(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT))[0].kind == inp.REDO
    )
    assert inp.translate(E(pygame.KEYDOWN, key=pygame.K_y, mod=pygame.KMOD_LCTRL))[0].kind == inp.REDO
    assert inp.translate(E(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))[0].kind == inp.CANCEL
    assert inp.translate(E(pygame.MOUSEBUTTONDOWN, pos=(3, 4), button=3))[0].kind == inp.CANCEL
    down = inp.translate(E(pygame.MOUSEBUTTONDOWN, pos=(3, 4), button=1))[0]
    assert down.kind == inp.POINTER_DOWN and down.pos == (3, 4)
    # a click a widget used never reaches the board; typing never triggers shortcuts
    assert inp.translate(E(pygame.MOUSEBUTTONDOWN, pos=(3, 4), button=1), gui_consumed=True) == []
    assert inp.translate(E(pygame.KEYDOWN, key=pygame.K_h, mod=0), gui_consumed=True) == []
    assert inp.translate(E(pygame.QUIT))[0].kind == inp.QUIT


def test_the_person_keeps_the_first_colour_when_the_computer_starts(launch):
    """Colours follow the person, not the seat: Nebula's red-orange is yours whoever draws first."""
    d = launch(
        preset="phone", stars=24, seed=SEED, mode="ai", computer_starts=True, config=AppConfig(chooser=quick_chooser)
    )
    play = d.play_scene()
    game = play.match.game
    assert play.match.colors_swapped and play.match.human_side == 1
    assert d.until(lambda: game.move_count == 1, timeout=5)
    red, blue = d.app.theme.player_colors
    assert play.view.theme.player_colors == (blue, red)  # seat 1 (the computer) is blue
    assert play.hud.theme.player_colors[play.match.human_side] == red
    i, j = max(game.legal_moves(), key=lambda m: abs(m[0] - m[1]))
    d.draw_line(i, j)
    d.frames(3)
    import numpy as np

    a = pygame.surfarray.array3d(d.app.surface).astype(int)
    (x0, y0), (x1, y1) = d.star_pos(i), d.star_pos(j)
    samples = [a[round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)] for t in (0.3, 0.4, 0.6, 0.7)]
    assert sum(1 for r, g, b in samples if r > b + 40) >= 3, samples  # your line is red-orange
    assert np.array(samples).shape == (4, 3)
