"""BoardView: the one object the scenes use to draw a board and hit-test stars.

It owns the caches (nebula background per size, committed board layer) and
rebuilds them lazily: after :meth:`set_viewport` or :meth:`invalidate` nothing
is drawn until the next :meth:`draw`, so a burst of resize events costs one
rebuild.  A frame is then one blit of the cached layer plus the overlay.
"""

from __future__ import annotations

import time

import numpy as np
import pygame

from triangles.rules import Board, Game
from triangles.ui.render.background import make_background
from triangles.ui.render.layers import BoardLayer
from triangles.ui.render.overlay import Overlay, OverlayPainter
from triangles.ui.render.theme import Theme
from triangles.ui.render.viewport import Viewport

__all__ = ["BoardView", "MIN_HIT_RADIUS"]

#: a window size that changes again within this many seconds is being dragged:
#: the old nebula is stretched until the size settles (a fresh one costs ~250 ms)
SETTLE_SECONDS = 0.3

#: smallest hit radius in window pixels (a fingertip on a phone is ~ 40 px wide)
MIN_HIT_RADIUS = 18.0
MAX_HIT_RADIUS = 44.0


class BoardView:
    """Draws ``board`` with ``theme`` through ``viewport``; background seeded by ``bg_seed``."""

    def __init__(self, board: Board, theme: Theme, viewport: Viewport, bg_seed: int = 0) -> None:
        self.board = board
        self.theme = theme
        self.bg_seed = int(bg_seed)
        self._bg_cache: dict[tuple[int, int, float, float, float], pygame.Surface] = {}
        self._bg_stretched = False  # the cached background is a stand-in while resizing
        self._dragging = False  # the window size changed twice within SETTLE_SECONDS
        self._resized_at = -1e9
        self.viewport = viewport
        self._layer: BoardLayer | None = None
        self._painter: OverlayPainter | None = None
        self._fmt: tuple[int, tuple[int, int, int, int]] | None = None  # pixel format of the draw target
        self._proto: pygame.Surface | None = None  # a 1x1 surface in that format
        n = board.n
        if n >= 2:
            d = np.hypot(*(board.stars[:, None, :] - board.stars[None, :, :]).transpose(2, 0, 1))
            np.fill_diagonal(d, np.inf)
            self._spacing = float(np.median(d.min(axis=1)))
        else:
            self._spacing = 0.0
        self._fit_points()

    # -- caches ------------------------------------------------------------------

    def set_viewport(self, viewport: Viewport) -> None:
        """Use a new window size; caches are rebuilt on the next draw."""
        if viewport != self.viewport:
            now = time.monotonic()
            self._dragging = now - self._resized_at < SETTLE_SECONDS
            self._resized_at = now
        self.viewport = viewport
        self._fit_points()
        if self._layer is not None and self._layer.viewport != viewport:
            self._layer = None
            self._painter = None

    def _fit_points(self) -> None:
        """Star centres and the hit radius for the current viewport."""
        vp = self.viewport
        self._pts = vp.points_to_screen(self.board.stars) if self.board.n else np.zeros((0, 2))
        self._hit_r = min(MAX_HIT_RADIUS, max(MIN_HIT_RADIUS, 0.5 * self._spacing * vp.scale))

    def invalidate(self) -> None:
        """Throw all caches away (they are rebuilt on the next draw)."""
        self._bg_cache.clear()
        self._bg_stretched = False
        self._layer = None
        self._painter = None

    def background(self) -> pygame.Surface:
        vp = self.viewport
        key = (*vp.window_size, vp.scale, *vp.offset)
        bg = self._bg_cache.get(key)
        if bg is None:
            old = next(iter(self._bg_cache.values()), None)
            self._bg_cache.clear()  # one size at a time: they are big
            if old is not None and self._dragging:
                # mid-drag: stretch the previous nebula now, make the real one once settled
                self._bg_stretched = True
                bg = pygame.transform.smoothscale(old, vp.window_size)
                self._bg_cache[key] = bg
                return bg
            self._bg_stretched = False
            bg = make_background(self.theme.background, vp, self.bg_seed)
            # same pixel format as the target, so the per-frame blit is a plain copy
            bg = bg.convert(self._proto) if self._proto is not None else bg.convert(32)
            self._bg_cache[key] = bg
        return bg

    def layer(self) -> BoardLayer:
        if self._layer is None:
            self._layer = BoardLayer(self.board, self.theme, self.viewport, self.background())
            self._painter = None
        return self._layer

    # -- queries -----------------------------------------------------------------

    @property
    def hit_radius(self) -> float:
        return self._hit_r

    def star_screen_pos(self, i: int) -> tuple[float, float]:
        return float(self._pts[i, 0]), float(self._pts[i, 1])

    def star_at(self, px: float, py: float) -> int | None:
        """The star nearest to window pixel (px, py) within the hit radius, else None."""
        if self.board.n == 0:
            return None
        d2 = (self._pts[:, 0] - px) ** 2 + (self._pts[:, 1] - py) ** 2
        i = int(np.argmin(d2))
        return i if d2[i] <= self._hit_r**2 else None

    # -- drawing -----------------------------------------------------------------

    def draw(self, surface: pygame.Surface, game: Game | None, overlay: Overlay | None = None) -> None:
        """Draw background and board into the whole ``surface`` (letterbox included)."""
        fmt = (surface.get_bitsize(), surface.get_masks())
        if fmt != self._fmt:
            self._fmt = fmt
            self._proto = pygame.Surface((1, 1), 0, surface)
            cached = next(iter(self._bg_cache.values()), None)
            if cached is not None and (cached.get_bitsize(), cached.get_masks()) != fmt:
                self.invalidate()
        if self._bg_stretched and time.monotonic() - self._resized_at >= SETTLE_SECONDS:
            self._dragging = False
            self.invalidate()  # the size has settled: the real nebula replaces the stand-in
        layer = self.layer()
        if game is not None:
            layer.sync(game)
        surface.blit(layer.surf, (0, 0))
        if self._painter is None:
            self._painter = OverlayPainter(self.theme, self.viewport.scale, layer.scratch)
        self._painter.draw(surface, layer.screen_points, game, overlay or Overlay())
