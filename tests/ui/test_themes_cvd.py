"""Every theme seen as people see it: screenshots on both presets, and colour-vision-deficiency simulation.

Pictures go to ``test-artifacts/themes/``: for each theme and preset a game in
progress with owned triangles, the main menu and the final screen, and the game
in progress as seen with deuteranopia, protanopia and tritanopia.

The simulation is Machado, Oliveira & Fernandes (2009) at severity 1.0 (full
dichromacy), applied in linear RGB.  The test draws each player's line on the
theme's own background with the real renderer, reads the line colours back
from the pixels, simulates each deficiency and requires the two players' lines
to stay apart by a CIE76 colour difference of at least ``MIN_DELTA_E``.  A
ΔE of about 2.3 is a just-noticeable difference for large patches under ideal
viewing; thin lines seen at a glance need far more (small fields lose most of
their colour discrimination), and palettes for categorical data are usually
built with at least ~20 between neighbours, so 20 is the bar for every theme.
The high-contrast theme must also keep each line at least ``MIN_DELTA_E`` from
its background, and its players differ by pattern and weight too (test_theme).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pygame
import pytest

from triangles.rules import Board, Game
from triangles.settings import available_themes
from triangles.ui.render import BoardView, Overlay, Viewport, load_theme

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "themes"
THEMES = available_themes()
MIN_DELTA_E = 20.0

#: Machado et al. 2009, severity 1.0, for linear RGB
MACHADO = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}


def _to_linear(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _to_srgb8(lin: np.ndarray) -> np.ndarray:
    lin = np.clip(lin, 0.0, 1.0)
    c = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)
    return np.clip(np.round(c * 255.0), 0, 255).astype(np.uint8)


def simulate(rgb8: np.ndarray, kind: str) -> np.ndarray:
    """An (..., 3) uint8 image as seen with ``kind`` (a key of MACHADO)."""
    return _to_srgb8(_to_linear(rgb8) @ MACHADO[kind].T)


def lab(rgb8: np.ndarray) -> np.ndarray:
    """sRGB (..., 3) uint8 -> CIELAB (D65)."""
    lin = _to_linear(rgb8)
    m = np.array(
        [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
    )
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def delta_e(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(lab(a) - lab(b)))


def test_the_simulation_is_sane() -> None:
    """Known answers: grey stays grey; deuteranopia and protanopia merge red and green; tritanopia keeps them."""
    grey = np.array([128, 128, 128], np.uint8)
    for kind in MACHADO:
        assert np.abs(simulate(grey, kind).astype(int) - 128).max() <= 2
    red, green = np.array([200, 60, 40], np.uint8), np.array([90, 150, 40], np.uint8)
    normal = delta_e(red, green)
    assert normal > 60
    # red and green collapse onto one yellowish hue (what is left is mostly lightness) ...
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < 0.4 * normal
    assert delta_e(simulate(red, "protanopia"), simulate(green, "protanopia")) < 0.45 * normal
    # ... but not for a tritanope, who confuses blue with green and yellow with violet instead
    assert delta_e(simulate(red, "tritanopia"), simulate(green, "tritanopia")) > 0.6 * normal
    blue, green2 = np.array([40, 110, 200], np.uint8), np.array([40, 160, 150], np.uint8)
    assert delta_e(simulate(blue, "tritanopia"), simulate(green2, "tritanopia")) < 0.5 * delta_e(blue, green2)


def _line_card(theme_name: str) -> tuple[np.ndarray, list[int], int]:
    """A rendered 400x300 card: player 0's line at y=100, player 1's at y=200, one triangle each.

    Returns the pixels (x, y, 3), the two line rows, and a background row."""
    theme = load_theme(theme_name)
    stars = [(20, 100), (380, 100), (20, 200), (380, 200), (200, 40), (200, 260)]
    board = Board(stars, tolerance=3.0)
    game = Game(board)
    for m in ((0, 1), (2, 3)):  # player 0 draws the top line, player 1 the bottom one
        game.play(*m)
    size = (400, 300)
    surf = pygame.Surface(size)
    view = BoardView(board, theme, Viewport(size, size, (0, 0, 400, 300)), bg_seed=2)
    view.draw(surf, game, Overlay())
    view.draw(surf, None, Overlay())  # the committed lines only: no last-line marker over player 1's
    return pygame.surfarray.array3d(surf), [100, 200], 150


def _line_colour(px: np.ndarray, y: int, bg: np.ndarray) -> np.ndarray:
    """The colour of the line along row ``y``: the half of its pixels farthest from the background
    (a dashed line's gaps are background), as a median."""
    row = px[60:340, y].astype(np.float64)
    far = np.linalg.norm(lab(row.astype(np.uint8)) - lab(bg), axis=1)
    keep = row[far >= np.median(far)]
    return np.median(keep, axis=0).round().astype(np.uint8)


@pytest.mark.parametrize("theme_name", THEMES)
def test_players_lines_stay_distinguishable_under_colour_blindness(theme_name: str) -> None:
    px, rows, bg_row = _line_card(theme_name)
    bg = np.median(px[60:340, bg_row], axis=0).round().astype(np.uint8)
    c0, c1 = (_line_colour(px, y, bg) for y in rows)
    report = []
    for kind in (None, *MACHADO):
        s0, s1, sb = (c if kind is None else simulate(c, kind) for c in (c0, c1, bg))
        de = delta_e(s0, s1)
        report.append(
            f"{kind or 'normal'}: players ΔE {de:.1f}, "
            f"lines vs background {delta_e(s0, sb):.1f} / {delta_e(s1, sb):.1f}"
        )
        assert de >= MIN_DELTA_E, f"{theme_name} {kind}: the players' lines are only ΔE {de:.1f} apart"
        if theme_name == "high_contrast":
            assert min(delta_e(s0, sb), delta_e(s1, sb)) >= MIN_DELTA_E
    print(f"\n{theme_name}: line colours {c0.tolist()} {c1.tolist()} on {bg.tolist()}\n  " + "\n  ".join(report))


def _play_until_triangles(d, want: int, rng: random.Random) -> None:
    play = d.play_scene()
    game = play.match.game
    while len(game.triangles) < want and not game.is_over():
        moves = game.legal_moves()
        # prefer a line that closes a triangle now, so the picture shows owned ones
        closing = [m for m in moves if _closes(game, m)]
        play.play(*rng.choice(closing or moves))
        d.frames(1)


def _closes(game: Game, m: tuple[int, int]) -> bool:
    g = game.clone()
    return bool(g.play(*m))


@pytest.mark.parametrize("preset, stars", [("phone", 60), ("tablet", 120)])
@pytest.mark.parametrize("theme_name", THEMES)
def test_theme_screenshots(launch, theme_name: str, preset: str, stars: int) -> None:
    """A game in progress (with owned triangles), the main menu and the final screen, per theme and preset."""
    from triangles.ui.scenes.final import FinalScene
    from triangles.ui.scenes.menu import MainMenuScene

    SHOTS.mkdir(parents=True, exist_ok=True)
    d = launch(preset=preset, stars=stars, seed=7, mode="hotseat")
    d.app.set_theme(theme_name)
    assert d.app.theme.folder is not None and d.app.theme.folder.name == theme_name
    rng = random.Random(4)
    _play_until_triangles(d, 8, rng)
    play = d.play_scene()
    assert len(play.match.game.triangles) >= 8
    d.frames(50)  # the scoring flashes have faded: the picture shows the board as it stays
    path = SHOTS / f"{theme_name}-{preset}-play.png"
    pygame.image.save(d.app.surface, str(path))
    px = pygame.surfarray.array3d(d.app.surface)
    for kind in MACHADO:
        sim = simulate(px, kind)
        pygame.image.save(pygame.surfarray.make_surface(sim), str(SHOTS / f"{theme_name}-{preset}-play-{kind}.png"))
    game = play.match.game
    while not game.is_over():
        play.play(*rng.choice(game.legal_moves()))
    d.until(lambda: isinstance(d.scene, FinalScene), timeout=5)
    d.frames(50)
    pygame.image.save(d.app.surface, str(SHOTS / f"{theme_name}-{preset}-final.png"))
    d.app.nav.show_menu()
    d.frames(3)
    assert isinstance(d.scene, MainMenuScene)
    pygame.image.save(d.app.surface, str(SHOTS / f"{theme_name}-{preset}-menu.png"))
