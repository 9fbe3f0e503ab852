"""The rules and the drawing agree: a legal line visibly clears every other star, a refused one touches it.

The rules refuse a line that passes within ``tolerance`` board points (= design
points) of another star.  On screen a star's core has a radius and a line has a
width; a legal line passing just outside the tolerance must still leave a gap
between its edge and the star's core, or it looks exactly like a line refused
for "passes through a star".  So, for every shipped theme and preset::

    tolerance >= star core radius + half the widest line + MARGIN

in design points, and again in the whole pixels the renderer really draws at
every window scale the game offers.  Then random games on every preset and
size check the rules' side with plain numpy distances.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from triangles.presets import load_presets  # noqa: E402
from triangles.rules import Board, Game  # noqa: E402
from triangles.settings import WINDOW_SCALES, available_themes  # noqa: E402
from triangles.ui.render.sprites import line_px, star_core_px  # noqa: E402
from triangles.ui.render.theme import Theme, load_theme  # noqa: E402

#: the visible gap (design points) kept between a legal line's edge and a star's core:
#: one point is one pixel at the preset's own size, the smallest gap an eye reliably sees
MARGIN = 1.0
#: window scales to check the rounded pixels at: the Settings sizes, and a big fullscreen
SCALES = sorted({s / 100 for s in WINDOW_SCALES} | {2.0})

PRESETS = load_presets()
THEMES = {name: load_theme(name) for name in available_themes()}


def test_every_shipped_theme_is_checked() -> None:
    assert {"nebula", "paper", "high_contrast"} <= set(THEMES)


def _reach_px(theme: Theme, scale: float) -> float:
    """Half the widest line in pixels as drawn: player lines (their weights) and the last-line marker."""
    widths = [theme.line_width(0), theme.line_width(1), theme.last_line.width]
    return max(line_px(w, scale) for w in widths) / 2


@pytest.mark.parametrize("theme_name", sorted(THEMES))
@pytest.mark.parametrize("preset_name", sorted(PRESETS))
def test_tolerance_covers_star_core_and_half_line(theme_name: str, preset_name: str) -> None:
    theme, tol = THEMES[theme_name], PRESETS[preset_name].tolerance
    need = theme.stars.radius + theme.line_reach() + MARGIN
    assert tol >= need, f"{theme_name} on {preset_name}: tolerance {tol} < {need} design points"
    for s in SCALES:
        core, reach = star_core_px(theme.stars.radius, s), _reach_px(theme, s)
        gap = tol * s - core - reach
        assert gap >= MARGIN * s - 1e-9, (
            f"{theme_name} on {preset_name} at scale {s}: a legal line's edge is {gap:.2f} px from a star's core "
            f"(core {core:.2f} px, half line {reach:.2f} px, tolerance {tol * s:.2f} px)"
        )


def test_the_theme_helpers_are_what_the_renderer_draws() -> None:
    """``line_width``/``line_reach`` follow the weights; pixels round like pygame (whole pixels, at least 1)."""
    hc = THEMES["high_contrast"]
    assert hc.line_width(0) == pytest.approx(hc.lines.width * hc.players[0].line_weight)
    assert hc.line_reach() == pytest.approx(max(hc.line_width(0), hc.line_width(1), hc.last_line.width) / 2)
    assert line_px(0.2, 1.0) == 1 and line_px(3.0, 1.0) == 3 and line_px(2.0, 1.5) == 3
    assert star_core_px(2.5, 2.0) == 5.0 and star_core_px(0.1, 1.0) == 1.2


# -- the rules' side: distances from segments to stars, with numpy ------------------


def _segment_distances(stars: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """(len(pairs), n) distance from each segment to each star, inf at the segment's own two stars."""
    a, b = stars[pairs[:, 0]], stars[pairs[:, 1]]
    ab = b - a
    ap = stars[None, :, :] - a[:, None, :]
    t = np.clip((ap * ab[:, None, :]).sum(-1) / (ab * ab).sum(-1)[:, None], 0.0, 1.0)
    d = np.hypot(*(ap - t[..., None] * ab[:, None, :]).transpose(2, 0, 1))
    rows = np.arange(len(pairs))
    d[rows, pairs[:, 0]] = np.inf
    d[rows, pairs[:, 1]] = np.inf
    return d


def _drawn_clearance() -> float:
    """Core radius + half the widest line, the largest over the shipped themes (design points)."""
    return max(th.stars.radius + th.line_reach() for th in THEMES.values())


def _random_game(board: Board, seed: int) -> Game:
    g = Game(board)
    rng = np.random.default_rng(seed)
    while not g.is_over():
        lm = g.legal_moves_array()
        i, j = lm[int(rng.integers(len(lm)))]
        g.play(int(i), int(j))
    return g


CASES = [(p, n) for p in sorted(PRESETS) for n in PRESETS[p].stars]


@pytest.mark.parametrize("preset_name, n", CASES)
def test_random_games_keep_every_line_clear_of_every_drawn_star(preset_name: str, n: int) -> None:
    preset = PRESETS[preset_name]
    clearance = _drawn_clearance()
    for seed in (1, 2):
        board = preset.make_board(n, seed=seed)
        assert board.tolerance == preset.tolerance
        stars = np.asarray(board.stars, dtype=np.float64)
        g = _random_game(board, seed)
        drawn = np.array([m for m, _ in g.lines])
        assert len(drawn) > n  # a real game, not an empty one
        d = _segment_distances(stars, drawn).min(axis=1)
        worst = int(np.argmin(d))
        assert d[worst] > clearance, (
            f"{preset_name} {n} seed {seed}: line {tuple(drawn[worst])} passes {d[worst]:.3f} from a star "
            f"(drawn core + half line = {clearance})"
        )
        # every line any game could draw, not only this game's: the board's clear pairs
        arr = board.arrays
        clear = np.asarray(arr.clear, dtype=bool)
        pairs = np.stack([np.asarray(arr.pi), np.asarray(arr.pj)], axis=1)
        dmin = _segment_distances(stars, pairs).min(axis=1)
        assert (dmin[clear] > clearance).all()
        # and every pair refused for a star really comes within the tolerance of one
        assert (dmin[~clear] <= board.tolerance).all()
        assert (~clear).any()
        through = [(int(i), int(j)) for i, j in pairs[~clear][:200]]
        assert all(g.why_illegal(i, j) in ("through_star", "exists") for i, j in through)
        fresh = Game(board)
        assert all(fresh.why_illegal(i, j) == "through_star" for i, j in through)


def test_old_records_keep_their_tolerance() -> None:
    """A record written with the old 3.0 replays with 3.0; a new game gets the preset's tolerance."""
    from triangles.record import GameRecord, read_record_text

    stars = [(0.0, 0.0), (100.0, 0.0), (50.0, 4.0)]  # the third star 4 points from the first line
    old = GameRecord(stars=stars, tolerance=3.0, moves=[(0, 1)])
    g = old.replay()
    assert g.board.tolerance == 3.0 and g.move_count == 1
    assert read_record_text(old.to_json()).tolerance == 3.0
    new = Board(stars, PRESETS["phone"].tolerance)
    assert Game(new).why_illegal(0, 1) == "through_star"
