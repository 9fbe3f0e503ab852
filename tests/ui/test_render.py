"""Board rendering, headless: viewport maths, hit-testing, a checked screenshot,
and the incremental layer cache matching a full rebuild pixel for pixel."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import colorsys  # noqa: E402
import math  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from triangles.presets import get_preset  # noqa: E402
from triangles.rules import Game  # noqa: E402
from triangles.ui.render import BoardView, Overlay, Viewport, load_theme  # noqa: E402
from triangles.ui.render.view import SETTLE_SECONDS  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


# -- helpers ---------------------------------------------------------------------


def play_short(game: Game, count: int, seed: int) -> None:
    """Play ``count`` moves preferring short lines, so triangles get closed (like real play)."""
    rng = np.random.default_rng(seed)
    st = game.board.stars
    for _ in range(count):
        lm = game.legal_moves_array()
        if len(lm) == 0:
            return
        d = np.hypot(*(st[lm[:, 0]] - st[lm[:, 1]]).T)
        order = np.argsort(d, kind="stable")
        i, j = lm[order[int(rng.integers(0, max(1, len(lm) // 5)))]]
        game.play(int(i), int(j))


def pixels(surface: pygame.Surface) -> np.ndarray:
    """(h, w, 3) uint8 copy of a surface."""
    return pygame.surfarray.array3d(surface).transpose(1, 0, 2).copy()


def hue(rgb) -> float:
    return colorsys.rgb_to_hsv(*(float(v) / 255 for v in rgb))[0]


def hue_dist(a: float, b: float) -> float:
    d = abs(a - b) % 1.0
    return min(d, 1 - d)


def closer_hue(rgb, own, other) -> bool:
    h = hue(rgb)
    return hue_dist(h, hue(own)) < hue_dist(h, hue(other))


@pytest.fixture(scope="module")
def theme():
    return load_theme()


@pytest.fixture(scope="module")
def tablet():
    return get_preset("tablet")


# -- viewport ----------------------------------------------------------------------


def test_viewport_identity(tablet) -> None:
    vp = Viewport(tablet.window, tablet.window, tablet.board)
    assert vp.scale == 1.0 and vp.offset == (0.0, 0.0)
    assert vp.to_screen(0, 0) == (tablet.board[0], tablet.board[1])
    assert vp.screen_rect == (0, 0, *tablet.window)


@pytest.mark.parametrize("window", [(1180, 820), (800, 800), (1920, 1080), (390, 844), (3000, 500)])
def test_viewport_round_trip_and_letterbox(tablet, window) -> None:
    vp = Viewport(window, tablet.window, tablet.board)
    for x, y in [(0, 0), (100.5, 37.25), (1180, 700)]:
        px, py = vp.to_screen(x, y)
        bx, by = vp.to_board(px, py)
        assert math.isclose(bx, x, abs_tol=1e-9) and math.isclose(by, y, abs_tol=1e-9)
    dw, dh = tablet.window
    assert math.isclose(vp.scale, min(window[0] / dw, window[1] / dh))
    x, y, w, h = vp.screen_rect
    # fills one dimension, centred in the other (letterbox or pillarbox)
    assert abs(w - window[0]) <= 1 or abs(h - window[1]) <= 1
    assert abs(x - (window[0] - w) / 2) <= 1 and abs(y - (window[1] - h) / 2) <= 1
    assert x >= 0 and y >= 0 and x + w <= window[0] + 1 and y + h <= window[1] + 1
    # vectorised mapping agrees
    pts = np.array([[3.0, 4.0], [500.0, 600.0]])
    assert np.allclose(vp.points_to_screen(pts), [vp.to_screen(*p) for p in pts])


def test_viewport_rejects_empty_window(tablet) -> None:
    with pytest.raises(ValueError):
        Viewport((0, 100), tablet.window, tablet.board)


# -- hit testing ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset, n, window", [("tablet", 180, (1180, 820)), ("phone", 120, (390, 844)), ("phone", 24, (1000, 700))]
)
def test_star_at(theme, preset, n, window) -> None:
    pr = get_preset(preset)
    board = pr.make_board(n, seed=5)
    view = BoardView(board, theme, Viewport(window, pr.window, pr.board))
    assert view.hit_radius >= 18
    for i in range(board.n):
        px, py = view.viewport.to_screen(*board.stars[i])
        assert view.star_at(px, py) == i
        assert view.star_at(px + 4, py - 3) == i
    assert view.star_at(-500, -500) is None
    # a point in the middle between far-apart stars hits nothing
    x, y = view.viewport.to_screen(*board.stars[0])
    assert view.star_at(x + view.hit_radius + 200, y + 5000) is None


# -- the screenshot --------------------------------------------------------------------


def test_screenshot_content(theme, tablet) -> None:
    board = tablet.make_board(80, seed=11)
    game = Game(board)
    play_short(game, 90, seed=2)
    assert game.triangles, "the scripted play closes some triangles"
    size = tablet.window
    surf = pygame.Surface(size)
    view = BoardView(board, theme, Viewport(size, tablet.window, tablet.board), bg_seed=11)
    view.draw(surf, game, Overlay())
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / "render_tablet_80.png"
    pygame.image.save(surf, str(out))
    assert out.stat().st_size > 10_000
    px = pixels(surf)
    lum = px.mean(axis=2)
    assert px.std() > 10, "not blank"
    assert lum.mean() < 90, "a dark sky"
    pts = view.viewport.points_to_screen(board.stars)
    for x, y in pts:
        assert lum[int(round(y)), int(round(x))] > 200, "stars are bright"
    p1, p2 = theme.player_colors
    # middle of drawn lines (not the last one, which carries the marker), away from stars
    last = game.last_move
    checked = 0
    for (i, j), owner in game.lines:
        if (i, j) == last:
            continue
        a, b = pts[i], pts[j]
        if np.hypot(*(a - b)) < 60:
            continue
        mx, my = (a + b) / 2
        rgb = px[int(round(my)), int(round(mx))]
        own, other = (p1, p2) if owner == 0 else (p2, p1)
        assert closer_hue(rgb, own, other), f"line {i}-{j} midpoint {rgb} has player {owner}'s hue"
        assert max(rgb) > 120, "lines are bright"
        checked += 1
    assert checked >= 5
    # centroids of filled triangles, away from star glows
    checked = 0
    for (i, j, k), owner in game.triangles:
        c = (pts[i] + pts[j] + pts[k]) / 3
        if np.min(np.hypot(*(pts - c).T)) < 22:
            continue
        rgb = px[int(round(c[1])), int(round(c[0]))]
        own, other = (p1, p2) if owner == 0 else (p2, p1)
        assert closer_hue(rgb, own, other), f"triangle {(i, j, k)} centroid {rgb} has player {owner}'s hue"
        checked += 1
    assert checked >= 2


def test_phone_screenshot_and_overlay(theme) -> None:
    pr = get_preset("phone")
    board = pr.make_board(60, seed=4)
    game = Game(board)
    play_short(game, 60, seed=3)
    surf = pygame.Surface(pr.window)
    view = BoardView(board, theme, Viewport(pr.window, pr.window, pr.board), bg_seed=4)
    view.draw(surf, game, Overlay())
    plain = pixels(surf)
    tri, owner = game.triangles[0]
    legal = game.legal_moves()[0]
    sel = legal[0]
    target = legal[1]
    ov = Overlay(
        hover=target,
        selected=sel,
        band_target=target,
        band_ok=True,
        band_end=view.star_screen_pos(target),
        flashes=[(tri, owner, 0.2)],
        hint=legal,
    )
    view.draw(surf, game, ov)
    ARTIFACTS.mkdir(exist_ok=True)
    pygame.image.save(surf, str(ARTIFACTS / "render_phone_60_overlay.png"))
    with_ov = pixels(surf)
    pts = view.viewport.points_to_screen(board.stars)
    c = (pts[list(tri)].sum(axis=0) / 3).round().astype(int)
    assert with_ov[c[1], c[0]].sum() > plain[c[1], c[0]].sum() + 30, "the flash brightens its triangle"
    assert (with_ov != plain).any(axis=2).sum() > 500, "the overlay shows"
    # an overlay with bad indices or a missing game does not crash
    view.draw(surf, None, Overlay(hover=10_000, selected=-3, flashes=[((0, 1, 99999), 0, 0.5)]))


def test_band_colour_follows_legality(theme, tablet) -> None:
    board = tablet.make_board(80, seed=2)
    game = Game(board)
    view = BoardView(board, theme, Viewport(tablet.window, tablet.window, tablet.board))
    surf = pygame.Surface(tablet.window)
    pts = view.viewport.points_to_screen(board.stars)
    d = np.hypot(*(pts[:, None] - pts[None]).transpose(2, 0, 1))
    i, j = np.unravel_index(np.argmax(d), d.shape)
    seen = []
    for ok in (True, False):
        view.draw(surf, game, Overlay(selected=int(i), band_target=int(j), band_ok=ok, band_end=tuple(pts[j])))
        px = pixels(surf)
        a, b = pts[i], pts[j]
        # brightest pixel near the band's middle (dashes may have a gap exactly there)
        best = None
        for t in np.linspace(0.4, 0.6, 41):
            x, y = (a + (b - a) * t).round().astype(int)
            if best is None or px[y, x].sum() > best.sum():
                best = px[y, x]
        seen.append(best)
    ok_rgb, bad_rgb = seen
    assert ok_rgb is not None and bad_rgb is not None
    assert ok_rgb[1] > ok_rgb[0], "a legal band is green"
    assert bad_rgb[0] > bad_rgb[1], "an illegal band is red"


# -- caches ------------------------------------------------------------------------------


def _fresh_image(board, theme, vp, game) -> np.ndarray:
    surf = pygame.Surface(vp.window_size)
    BoardView(board, theme, vp, bg_seed=1).draw(surf, game, Overlay())
    return pixels(surf)


def test_incremental_matches_full_rebuild(theme, tablet) -> None:
    board = tablet.make_board(80, seed=9)
    vp = Viewport(tablet.window, tablet.window, tablet.board)
    game = Game(board)
    view = BoardView(board, theme, vp, bg_seed=1)
    surf = pygame.Surface(vp.window_size)
    rng = np.random.default_rng(0)

    def step(n_moves: int, draw_each: bool = True) -> None:
        for _ in range(n_moves):
            play_short(game, 1, seed=int(rng.integers(1 << 30)))
            if draw_each:
                view.draw(surf, game, Overlay())

    step(40)
    step(3, draw_each=False)  # several moves between two frames
    view.draw(surf, game, Overlay())
    assert (pixels(surf) == _fresh_image(board, theme, vp, game)).all()
    for _ in range(2):  # undo within the snapshots
        game.undo()
        view.draw(surf, game, Overlay())
    assert (pixels(surf) == _fresh_image(board, theme, vp, game)).all()
    step(10)
    for _ in range(7):  # a long undo in one go: rebuild
        game.undo()
    view.draw(surf, game, Overlay())
    assert (pixels(surf) == _fresh_image(board, theme, vp, game)).all()
    step(60)
    assert game.triangles
    assert (pixels(surf) == _fresh_image(board, theme, vp, game)).all()
    # take a move back and play a different one between two frames
    undone = game.undo()
    alternatives = [m for m in game.legal_moves() if m != undone]
    game.play(*alternatives[len(alternatives) // 2])
    view.draw(surf, game, Overlay())
    assert (pixels(surf) == _fresh_image(board, theme, vp, game)).all()
    layer = view.layer()
    assert layer.increments >= 100 and layer.restores >= 3
    # a different game object on the same board is noticed
    other = Game(board)
    play_short(other, 5, seed=1)
    view.draw(surf, other, Overlay())
    assert (pixels(surf) == _fresh_image(board, theme, vp, other)).all()


def test_long_undo_uses_checkpoints(theme, tablet) -> None:
    board = tablet.make_board(180, seed=6)
    vp = Viewport(tablet.window, tablet.window, tablet.board)
    game = Game(board)
    view = BoardView(board, theme, vp, bg_seed=1)
    surf = pygame.Surface(vp.window_size)
    for _ in range(150):
        play_short(game, 1, seed=game.move_count)
        view.draw(surf, game, Overlay())
    layer = view.layer()
    rebuilds = layer.rebuilds
    while game.move_count > 70:
        game.undo()
    view.draw(surf, game, Overlay())
    assert layer.rebuilds == rebuilds, "went back from a checkpoint, not from scratch"
    assert (pixels(surf) == _fresh_image(board, theme, vp, game)).all()
    layer.rebuild(game)
    view.draw(surf, game, Overlay())
    assert layer.rebuilds == rebuilds + 1
    assert (pixels(surf) == _fresh_image(board, theme, vp, game)).all()


def test_review_style_stepping(theme, tablet) -> None:
    """A replay scene may hand over a new Game per step, forwards and backwards."""
    board = tablet.make_board(80, seed=4)
    vp = Viewport(tablet.window, tablet.window, tablet.board)
    full = Game(board)
    play_short(full, 50, seed=8)
    moves = full.moves
    view = BoardView(board, theme, vp, bg_seed=1)
    surf = pygame.Surface(vp.window_size)
    for n in [50, 49, 48, 30, 31, 45, 44, 0, 3]:
        g = Game.from_moves(board, moves[:n])
        view.draw(surf, g, Overlay())
        assert (pixels(surf) == _fresh_image(board, theme, vp, g)).all(), n


def test_resize_and_invalidate(theme, tablet) -> None:
    board = tablet.make_board(80, seed=3)
    game = Game(board)
    play_short(game, 30, seed=1)
    view = BoardView(board, theme, Viewport(tablet.window, tablet.window, tablet.board), bg_seed=2)
    view.draw(pygame.Surface(tablet.window), game, Overlay())
    size = (900, 900)
    vp = Viewport(size, tablet.window, tablet.board)
    view.set_viewport(vp)
    surf = pygame.Surface(size)
    view.draw(surf, game, Overlay())
    pygame.image.save(surf, str(ARTIFACTS / "render_tablet_900x900_letterbox.png")) if ARTIFACTS.exists() else None
    px = pixels(surf)
    lum = px.mean(axis=2)
    pts = vp.points_to_screen(board.stars)
    assert all(lum[int(round(y)), int(round(x))] > 200 for x, y in pts)
    x, y, w, h = vp.screen_rect
    assert y > 100, "letterboxed vertically"
    assert px[: y - 1].std() > 1, "the letterbox bars carry the sky too, not flat black"
    i = int(np.argmax(pts[:, 0]))
    assert view.star_at(*pts[i]) == i
    before = pixels(surf)
    view.invalidate()
    view.draw(surf, game, Overlay())
    assert (pixels(surf) == before).all(), "a rebuilt cache draws the same image"


def test_background_depends_on_seed_not_on_frame(theme, tablet) -> None:
    board = tablet.make_board(24, seed=1)
    vp = Viewport(tablet.window, tablet.window, tablet.board)
    a, b = BoardView(board, theme, vp, bg_seed=1), BoardView(board, theme, vp, bg_seed=2)
    assert a.background() is a.background(), "cached, not redrawn"
    pa, pb = pixels(a.background()), pixels(b.background())
    assert (pa != pb).any()
    assert pa.mean() < 80 and pa.std() > 3


def test_dragging_a_window_edge_stretches_the_sky_until_the_size_settles(theme, tablet, monkeypatch) -> None:
    import triangles.ui.render.view as view_mod

    clock = [100.0]
    monkeypatch.setattr(view_mod.time, "monotonic", lambda: clock[0])
    board = tablet.make_board(80, seed=3)
    game = Game(board)
    play_short(game, 20, seed=1)
    view = BoardView(board, theme, Viewport(tablet.window, tablet.window, tablet.board), bg_seed=1)
    view.draw(pygame.Surface(tablet.window), game, Overlay())
    calls = []
    real = view_mod.make_background

    def counting(*a):
        calls.append(a[1].window_size)
        return real(*a)

    monkeypatch.setattr(view_mod, "make_background", counting)

    # a single resize: the real nebula at once
    clock[0] += 5
    view.set_viewport(Viewport((1000, 700), tablet.window, tablet.board))
    view.draw(pygame.Surface((1000, 700)), game, Overlay())
    assert calls == [(1000, 700)]
    # the edge keeps moving: stretched stand-ins, no new nebula
    for size in [(1010, 705), (1020, 710), (1030, 715)]:
        clock[0] += 0.05
        view.set_viewport(Viewport(size, tablet.window, tablet.board))
        view.draw(pygame.Surface(size), game, Overlay())
    assert calls == [(1000, 700)]
    # settled: the next frame is exactly what a fresh view draws at that size
    clock[0] += SETTLE_SECONDS + 0.01
    surf = pygame.Surface((1030, 715))
    view.draw(surf, game, Overlay())
    assert calls == [(1000, 700), (1030, 715)]
    assert (pixels(surf) == _fresh_image(board, theme, Viewport((1030, 715), tablet.window, tablet.board), game)).all()
