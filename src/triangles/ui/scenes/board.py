"""Adapter to the renderer (``triangles.ui.render``), with a plain fallback.

Why: the renderer is written in parallel; scenes import ``BoardView`` and
``BoardOverlay`` from here only, so an interface change is fixed in one place
and the game stays playable (plainly drawn) if the renderer cannot be
imported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

__all__ = ["BoardView", "BoardOverlay", "HAVE_RENDERER"]

try:  # the real renderer
    from triangles.ui.render import BoardView as _RBoardView  # type: ignore[attr-defined]
    from triangles.ui.render import Overlay as _ROverlay  # type: ignore[attr-defined]

    HAVE_RENDERER = True
except Exception:  # pragma: no cover - only while the renderer is missing
    _RBoardView = None
    _ROverlay = None
    HAVE_RENDERER = False


@dataclass
class _PlainOverlay:
    hover: int | None = None
    selected: int | None = None
    band_end: tuple[float, float] | None = None
    band_target: int | None = None
    band_ok: bool | None = None
    flashes: list[tuple[tuple[int, int, int], int, float]] = field(default_factory=list)
    hint: tuple[int, int] | None = None


class _PlainBoardView:
    """Minimal renderer: flat background, lines, triangles, stars."""

    def __init__(self, board: Any, theme: Any, viewport: Any, bg_seed: int = 0) -> None:
        self.board = board
        self.theme = theme
        self.viewport = viewport

    def set_viewport(self, viewport: Any) -> None:
        self.viewport = viewport

    def invalidate(self) -> None:
        pass

    def _pts(self) -> list[tuple[float, float]]:
        return [self.viewport.to_screen(float(x), float(y)) for x, y in self.board.stars]

    def star_at(self, px: float, py: float) -> int | None:
        pts = self._pts()
        best, bd = None, (22 * self.viewport.scale) ** 2
        for k, (x, y) in enumerate(pts):
            d = (x - px) ** 2 + (y - py) ** 2
            if d < bd:
                best, bd = k, d
        return best

    def draw(self, surface: pygame.Surface, game: Any, overlay: Any) -> None:
        surface.fill((8, 9, 26))
        pts = self._pts()
        cols = self.theme.player_colors
        for (a, b, c), owner in game.triangles:
            pygame.draw.polygon(surface, [v // 2 for v in cols[owner]], [pts[a], pts[b], pts[c]])
        for (i, j), owner in game.lines:
            pygame.draw.line(surface, cols[owner], pts[i], pts[j], max(2, round(2.6 * self.viewport.scale)))
        if overlay.selected is not None and overlay.band_end is not None:
            col = (200, 210, 255) if overlay.band_ok is None else ((140, 255, 170) if overlay.band_ok else (255, 84, 104))
            pygame.draw.line(surface, col, pts[overlay.selected], overlay.band_end, 2)
        if overlay.hint is not None:
            i, j = overlay.hint
            pygame.draw.line(surface, (255, 243, 160), pts[i], pts[j], 2)
        r = max(2, round(3.2 * self.viewport.scale))
        for k, p in enumerate(pts):
            col = (255, 226, 122) if k == overlay.selected else (255, 250, 240)
            pygame.draw.circle(surface, col, p, r + (2 if k == overlay.hover else 0))


BoardView: Any = _RBoardView or _PlainBoardView
BoardOverlay: Any = _ROverlay or _PlainOverlay
