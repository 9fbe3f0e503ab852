"""Zoom and pan, the last line's marker and the closing-lines aid, headless.

The real App is driven with posted events (wheel, keys, drags, clicks); the
rendering checks compare pixels of the drawn frame with the cached board
layer (which has no overlay) or with a layer drawn from scratch.
Screenshots go to ``test-artifacts/zoom/``.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pygame
import pytest

from triangles.presets import get_preset
from triangles.rules import Game
from triangles.ui.render import BoardView, Overlay, Viewport, load_theme
from triangles.ui.render.layers import BoardLayer
from triangles.ui.render.overlay import last_line_marker_radius
from triangles.ui.render.view import MAX_HIT_RADIUS, MAX_ZOOM, MIN_HIT_RADIUS
from triangles.ui.scenes.play import closing_lines
from triangles.ui.scenes.review import ReviewScene
from triangles.ui.zoom import ZOOM_STEP

SEED = 5


def hotseat(launch, preset: str = "phone", stars: int = 24, **kw):
    return launch(preset=preset, stars=stars, seed=SEED, mode="hotseat", **kw)


def wheel(d, notches: float) -> None:
    d.post(pygame.MOUSEWHEEL, x=0, y=int(notches), precise_x=0.0, precise_y=float(notches), flipped=False, which=0)
    d.frames(1)


def settle(d, frames: int = 400) -> None:
    """Frames until the zoomed layer is drawn crisp (it is built a slice per frame)."""
    view = d.play_scene().view
    for _ in range(frames):
        if view.sharp:
            return
        d.frames(1)
    assert view.sharp, "the zoomed layer was never completed"


def empty_point(scene, near: tuple[float, float]) -> tuple[int, int]:
    """A window pixel on the board, close to ``near``, with no star within reach and no tool."""
    view = scene.view
    x0, y0 = near
    for r in range(0, 400, 6):
        for k in range(16):
            a = 2 * math.pi * k / 16
            p = (round(x0 + r * math.cos(a)), round(y0 + r * math.sin(a)))
            if view.on_board(*p) and view.star_at(*p) is None and scene.zoom.tool_at(p) is None:
                return p
    raise AssertionError("no empty point on the board")


def pixels(surface: pygame.Surface) -> np.ndarray:
    return pygame.surfarray.array3d(surface).transpose(1, 0, 2).astype(int)


def play_random(game: Game, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        if game.is_over():
            return
        game.play(*rng.choice(game.legal_moves()))


def play_short(game: Game, count: int, seed: int) -> None:
    """Short lines first, like real play: triangles get closed and others are nearly closed."""
    rng = np.random.default_rng(seed)
    st = game.board.stars
    for _ in range(count):
        lm = game.legal_moves_array()
        if game.is_over() or len(lm) == 0:
            return
        d = np.hypot(*(st[lm[:, 0]] - st[lm[:, 1]]).T)
        order = np.argsort(d, kind="stable")
        i, j = lm[order[int(rng.integers(0, max(1, len(lm) // 6)))]]
        game.play(int(i), int(j))


# -- zoom and pan ------------------------------------------------------------------------


def test_wheel_zooms_about_the_pointer(launch):
    d = hotseat(launch, "tablet", 180)
    view = d.play_scene().view
    bw, bh = view.viewport.board_rect[2:]
    stars = d.play_scene().match.board.stars
    # a star a little off the middle, so no clamping at the board's edge moves it
    k = int(np.argmin(np.hypot(stars[:, 0] - 0.4 * bw, stars[:, 1] - 0.55 * bh)))
    p0 = view.star_screen_pos(k)
    d.move((round(p0[0]), round(p0[1])))
    d.frames(1)
    for n in (1, 2, 3):
        wheel(d, 1)
        assert view.zoom == pytest.approx(ZOOM_STEP**n)
        p = view.star_screen_pos(k)
        assert math.dist(p, (round(p0[0]), round(p0[1]))) < 1.0, f"the star under the pointer moved to {p}"
    wheel(d, -2)
    assert view.zoom == pytest.approx(ZOOM_STEP)
    assert math.dist(view.star_screen_pos(k), (round(p0[0]), round(p0[1]))) < 1.0
    # the frame stays well under a wheel step's budget: a stand-in until the crisp layer is drawn
    settle(d)
    assert view.zoom_builds >= 1


def test_plus_minus_keys_zoom_about_the_middle_and_fit_goes_back(launch):
    d = hotseat(launch, "phone", 60)
    view = d.play_scene().view
    middle = view.center
    d.key(pygame.K_PLUS)
    assert view.zoom == pytest.approx(ZOOM_STEP) and view.center == pytest.approx(middle)
    d.key(pygame.K_KP_PLUS)
    assert view.zoom == pytest.approx(ZOOM_STEP**2) and view.center == pytest.approx(middle)
    d.key(pygame.K_MINUS)
    assert view.zoom == pytest.approx(ZOOM_STEP)
    d.key(pygame.K_KP_MINUS)
    assert view.zoom == 1.0
    d.key(pygame.K_MINUS)  # never below the whole board
    assert view.zoom == 1.0
    for _ in range(12):
        d.key(pygame.K_EQUALS)
    assert view.zoom == MAX_ZOOM
    d.key(pygame.K_0)
    assert view.zoom == 1.0 and view.viewport == view.base
    d.key(pygame.K_PLUS)
    d.key(pygame.K_HOME)
    assert view.zoom == 1.0
    # the board tools: zoom in twice, then the whole board
    scene = d.play_scene()
    rects = {t.name: pygame.Rect(d.app.viewport.design_rect_to_screen(t.rect)) for t in scene.zoom.tools()}
    d.click(rects["in"].center)
    d.click(rects["in"].center)
    assert view.zoom == pytest.approx(ZOOM_STEP**2)
    d.click(rects["out"].center)
    assert view.zoom == pytest.approx(ZOOM_STEP)
    d.click(rects["fit"].center)
    assert view.zoom == 1.0
    # a double-click on empty space: the whole board again
    d.key(pygame.K_PLUS)
    d.key(pygame.K_PLUS)
    p = empty_point(scene, view.viewport.design_to_screen(195, 450))
    d.click(p)
    assert view.zoom > 1.0
    d.click(p)
    assert view.zoom == 1.0
    assert scene.match.game.move_count == 0


def test_the_view_never_leaves_the_board(launch):
    d = hotseat(launch, "tablet", 80)
    view = d.play_scene().view
    for _ in range(6):
        d.key(pygame.K_PLUS)
    for _ in range(30):
        d.key(pygame.K_LEFT, pygame.KMOD_SHIFT)
        d.key(pygame.K_w)
    bw, bh = view.viewport.board_rect[2:]
    z = view.zoom
    assert view.center == pytest.approx((bw / (2 * z), bh / (2 * z)))  # the top-left corner, and no further
    x, y, w, h = view.viewport.board_screen_rect
    assert view.viewport.to_screen(0, 0) == pytest.approx((x, y), abs=1)


def test_drag_on_empty_space_pans_and_a_drag_from_a_star_draws(launch):
    d = hotseat(launch, "tablet", 80)
    scene = d.play_scene()
    view = scene.view
    game = scene.match.game
    d.key(pygame.K_PLUS)
    d.key(pygame.K_PLUS)
    d.key(pygame.K_PLUS)
    settle(d)
    x, y, w, h = view.viewport.board_screen_rect
    start = empty_point(scene, (x + w / 2, y + h / 2))
    before = view.star_screen_pos(0)
    d.move(start)
    d.post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    d.frames(1)
    for t in (0.25, 0.5, 0.75, 1.0):
        p = (round(start[0] + 60 * t), round(start[1] + 40 * t))
        d.post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
        d.frames(1)
    d.post(pygame.MOUSEBUTTONUP, pos=(start[0] + 60, start[1] + 40), button=1)
    d.frames(1)
    after = view.star_screen_pos(0)
    assert after[0] - before[0] == pytest.approx(60, abs=0.01) and after[1] - before[1] == pytest.approx(40, abs=0.01)
    assert game.move_count == 0 and scene.selected is None
    # a drag from a star still draws a line (both stars in view, zoomed)
    vis = [s for s in range(game.board.n) if view.star_visible(s)]
    move = next(m for m in game.legal_moves() if m[0] in vis and m[1] in vis)
    d.drag_line(*move)
    assert game.moves == [move]


@pytest.mark.parametrize("zoom", [1.0, 3.0])
def test_clicks_land_on_the_right_star(launch, zoom):
    d = hotseat(launch, "tablet", 180)
    scene = d.play_scene()
    view = scene.view
    game = scene.match.game
    bw, bh = view.viewport.board_rect[2:]
    view.set_zoom(zoom, (0.6 * bw, 0.45 * bh))
    d.frames(2)
    vis = [
        s for s in range(game.board.n) if view.star_visible(s) and scene.zoom.tool_at(view.star_screen_pos(s)) is None
    ]
    assert len(vis) >= 10
    rng = random.Random(4)
    for s in rng.sample(vis, 10):
        x, y = view.star_screen_pos(s)
        for dx, dy in ((0, 0), (5, -4), (-6, 3)):
            d.move((round(x + dx), round(y + dy)))
            d.frames(1)
            assert scene.hover == s, f"pointer at star {s} + ({dx}, {dy}) found {scene.hover} at zoom {zoom}"
    drawn = 0
    for i, j in rng.sample(list(game.legal_moves()), len(game.legal_moves())):
        if i in vis and j in vis and game.is_legal(i, j):
            d.draw_line(i, j)
            assert game.moves[-1] == (i, j), f"clicking {i} then {j} at zoom {zoom} drew {game.moves[-1:]}"
            drawn += 1
            if drawn == 3:
                break
    assert drawn == 3


def test_hit_radius_bounds(tmp_path):
    theme = load_theme()
    pr = get_preset("tablet")
    board = pr.make_board(180, seed=3)
    view = BoardView(board, theme, Viewport(pr.window, pr.window, pr.board))
    st = board.stars
    dist = np.hypot(*(st[:, None, :] - st[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(dist, np.inf)
    nn = dist.min(axis=1)
    for zoom in (1.0, 1.5, 2.0, 3.0, 4.0):
        view.set_zoom(zoom, (590.0, 350.0))
        bs = view.viewport.board_scale
        radii = np.array([view.hit_radius_of(i) for i in range(board.n)])
        assert radii.min() >= MIN_HIT_RADIUS  # comfortable at every zoom
        assert radii.max() <= MAX_HIT_RADIUS
        roomy = 0.5 * nn * bs >= MIN_HIT_RADIUS
        assert np.all(radii[roomy] <= 0.5 * nn[roomy] * bs + 1e-9)  # never past half-way to the nearest star
        if zoom == 4.0:
            assert roomy.mean() > 0.9
        # every visible star is hit at its centre and just inside its radius, and not beyond
        for i in range(board.n):
            if not view.star_visible(i):
                continue
            x, y = view.star_screen_pos(i)
            r = radii[i]
            assert view.star_at(x, y) == i
            if not view.on_board(x + 0.95 * r, y):
                continue
            hit = view.star_at(x + 0.95 * r, y)
            assert hit == i or (hit is not None and math.dist(view.star_screen_pos(hit), (x + 0.95 * r, y)) < 0.95 * r)


def test_zoomed_layer_built_in_slices_equals_one_drawn_at_once():
    theme = load_theme()
    pr = get_preset("tablet")
    board = pr.make_board(180, seed=1)
    game = Game(board)
    play_random(game, 10_000, seed=1)
    assert game.is_over()
    surf = pygame.Surface(pr.window)
    view = BoardView(board, theme, Viewport(pr.window, pr.window, pr.board), bg_seed=1)
    view.draw(surf, game, Overlay())
    view.set_zoom(2.5, (300.0, 420.0))
    frames = 0
    while not view.sharp:
        view.draw(surf, game, Overlay())
        frames += 1
        assert frames < 500
    assert frames > 1, "a finished 180-star board is drawn over several frames"
    ref = BoardLayer(board, theme, view.viewport, view.background())
    ref.sync(game)
    assert view._zlayer is not None
    assert np.array_equal(pixels(view._zlayer.surf), pixels(ref.surf))


# -- the last line's marker ---------------------------------------------------------------


def marker_ring(view: BoardView, game: Game) -> tuple[tuple[float, float], float]:
    last = game.last_move
    assert last is not None
    i, j = last
    a, b = view.star_screen_pos(i), view.star_screen_pos(j)
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), last_line_marker_radius(view.theme, view.viewport.scale)


def disc(img: np.ndarray, c: tuple[float, float], r0: float, r1: float) -> np.ndarray:
    yy, xx = np.mgrid[0 : img.shape[0], 0 : img.shape[1]]
    d = np.hypot(xx - c[0], yy - c[1])
    return img[(d >= r0) & (d <= r1)]


def check_marker(view: BoardView, surface: pygame.Surface, game: Game, owner: int) -> None:
    """Around the last line's midpoint the frame differs from the cached layer, in the mover's colour."""
    c, r = marker_ring(view, game)
    layer = view.layer() if view.zoom == 1.0 else view._zlayer
    assert layer is not None
    frame, base = pixels(surface), pixels(layer.surf)
    changed = np.abs(frame - base).sum(axis=2) > 40
    yy, xx = np.mgrid[0 : frame.shape[0], 0 : frame.shape[1]]
    near = np.hypot(xx - c[0], yy - c[1]) <= r
    assert changed[near].mean() > 0.7, "no marker at the last line's midpoint"
    core = disc(frame, c, 0.5 * r, 0.85 * r).mean(axis=0)
    pc = np.array(view.theme.player_colors[owner], float)
    other = np.array(view.theme.player_colors[1 - owner], float)
    assert np.linalg.norm(core - pc) < np.linalg.norm(core - other), f"marker {core} is not the mover's colour"


def test_last_line_marker_in_play_and_review(launch, artifacts):
    d = hotseat(launch, "phone", 24)
    scene = d.play_scene()
    game = scene.match.game
    rng = random.Random(8)
    for _ in range(5):
        d.draw_line(*rng.choice(game.legal_moves()))
    d.frames(2)
    owner = game.lines[-1][1]
    check_marker(scene.view, d.app.surface, game, owner)
    # the previous line's midpoint is plain board again once another line is drawn
    c_old, r = marker_ring(scene.view, game)
    d.draw_line(*rng.choice(game.legal_moves()))
    d.frames(2)
    frame, base = pixels(d.app.surface), pixels(scene.view.layer().surf)
    assert (np.abs(disc(frame, c_old, 0, 0.8 * r) - disc(base, c_old, 0, 0.8 * r)).sum(axis=1) > 40).mean() < 0.3
    check_marker(scene.view, d.app.surface, game, game.lines[-1][1])
    # zoomed in, the marker is there too
    d.key(pygame.K_PLUS)
    d.key(pygame.K_PLUS)
    settle(d)
    d.frames(1)
    if scene.view.star_visible(game.last_move[0]) and scene.view.star_visible(game.last_move[1]):
        check_marker(scene.view, d.app.surface, game, game.lines[-1][1])
    # review: stepping back moves the marker to the line before
    d.app.nav.show_review(scene.match)
    d.frames(2)
    review = d.scene
    assert isinstance(review, ReviewScene)
    check_marker(review.view, d.app.surface, review.game, review.game.lines[-1][1])
    d.key(pygame.K_LEFT)
    d.frames(2)
    check_marker(review.view, d.app.surface, review.game, review.game.lines[-1][1])
    (artifacts / "zoom").mkdir(exist_ok=True)
    pygame.image.save(d.app.surface, str(artifacts / "zoom" / "phone-review-last-line.png"))


@pytest.mark.parametrize("animations", [True, False])
def test_last_line_marker_pulses_only_with_animations(launch, animations):
    d = hotseat(launch, "phone", 24)
    d.app.settings.animations = animations
    scene = d.play_scene()
    game = scene.match.game
    d.draw_line(*game.legal_moves()[0])
    c, r = marker_ring(scene.view, game)
    shots = []
    for _ in range(4):
        d.frames(12)  # a fifth of a second apart
        shots.append(disc(pixels(d.app.surface), c, 0, 4 * r))
    differ = any(not np.array_equal(shots[0], s) for s in shots[1:])
    assert differ == animations
    check_marker(scene.view, d.app.surface, game, game.lines[-1][1])


# -- the closing-lines aid -------------------------------------------------------------------


def brute_force_closing(game: Game) -> list[tuple[int, int, int]]:
    out = []
    for i, j in game.legal_moves():
        g = game.clone()
        n = len(g.play(i, j))
        if n:
            out.append((i, j, n))
    return out


@pytest.mark.parametrize("preset, stars, seed", [("phone", 24, 1), ("phone", 60, 2), ("tablet", 80, 3)])
def test_closing_lines_are_exactly_those_that_close(preset, stars, seed):
    board = get_preset(preset).make_board(stars, seed=seed)
    game = Game(board)
    seen = 0
    while not game.is_over():
        expected = brute_force_closing(game)
        assert closing_lines(game) == expected
        seen += len(expected)
        play_short(game, 3, seed + game.move_count)
    assert seen > 0
    assert closing_lines(game) == []


def test_aid_toggle_and_drawing(launch, artifacts):
    d = hotseat(launch, "phone", 24)
    scene = d.play_scene()
    game = scene.match.game
    rng = np.random.default_rng(4)
    st = game.board.stars
    for _ in range(20):  # short lines through the scene (and so the match's position token)
        lm = game.legal_moves_array()
        dist = np.hypot(*(st[lm[:, 0]] - st[lm[:, 1]]).T)
        i, j = lm[np.argsort(dist, kind="stable")[int(rng.integers(0, max(1, len(lm) // 6)))]]
        scene.play(int(i), int(j))
        if game.is_over():
            break
    d.frames(1)
    assert d.app.settings.closing_aid is False
    lines = closing_lines(game)
    if not lines:
        pytest.skip("no closing line in this position")
    d.frames(2)
    off = pixels(d.app.surface)
    d.key(pygame.K_t)
    assert d.app.settings.closing_aid is True
    d.frames(2)
    on = pixels(d.app.surface)
    for i, j, _ in lines:
        a, b = scene.view.star_screen_pos(i), scene.view.star_screen_pos(j)
        samples = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for t in np.linspace(0.3, 0.7, 9)]
        diff = [np.abs(disc(on, p, 0, 3) - disc(off, p, 0, 3)).sum() for p in samples]
        assert max(diff) > 100, f"closing line {i}-{j} is not highlighted"
    # a line that closes nothing is not highlighted
    others = [m for m in game.legal_moves() if m not in {(i, j) for i, j, _ in lines}]
    assert scene.board_overlay().closing == lines and others
    d.key(pygame.K_t)
    assert d.app.settings.closing_aid is False
    assert scene.board_overlay().closing == []


# -- screenshots for people to look at -----------------------------------------------------------


@pytest.mark.parametrize("preset, stars", [("phone", 120), ("tablet", 180)])
def test_screenshots(launch, artifacts, preset, stars):
    d = hotseat(launch, preset, stars)
    scene = d.play_scene()
    game = scene.match.game
    out = artifacts / "zoom"
    out.mkdir(exist_ok=True)
    rng = np.random.default_rng(7)
    st = game.board.stars
    target = int(0.75 * {120: 340, 180: 515}[stars])
    while game.move_count < target and not game.is_over():
        lm = game.legal_moves_array()
        dist = np.hypot(*(st[lm[:, 0]] - st[lm[:, 1]]).T)
        i, j = lm[np.argsort(dist, kind="stable")[int(rng.integers(0, max(1, len(lm) // 4)))]]
        scene.play(int(i), int(j))
    assert not game.is_over()
    d.key(pygame.K_t)  # the aid on
    d.frames(3)
    d.shot(f"zoom/{preset}-{stars}-aid-whole-board.png")
    # zoom in about the last line's midpoint with the wheel
    i, j = game.last_move
    a, b = scene.view.star_screen_pos(i), scene.view.star_screen_pos(j)
    d.move((round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)))
    d.frames(1)
    wheel(d, 2)
    d.shot(f"zoom/{preset}-{stars}-zooming-stand-in.png")
    wheel(d, 2)
    settle(d)
    d.frames(2)
    assert scene.view.sharp and scene.view.zoom == pytest.approx(ZOOM_STEP**4)
    check_marker(scene.view, d.app.surface, game, game.lines[-1][1])
    d.shot(f"zoom/{preset}-{stars}-zoomed-aid-last-line.png")
