"""BoardView: the one object the scenes use to draw a board and hit-test stars.

It owns the caches (nebula background per size, committed board layer) and
rebuilds them lazily: after :meth:`set_viewport` or :meth:`invalidate` nothing
is drawn until the next :meth:`draw`, so a burst of resize events costs one
rebuild.  A frame is then one blit of the cached layer plus the overlay.

Zoom and pan (:meth:`zoom_at`, :meth:`pan_by`, :meth:`fit`) are the view's own
state, never the game's.  The whole board (zoom 1) keeps its layer; a zoomed
view gets a layer of its own, drawn crisp at that zoom.  Drawing one costs as
much as a full rebuild (~150 ms for a finished 180-star board), so it is built
a slice per frame within :data:`BUILD_BUDGET`, from the moment the view has
stood still for :data:`BUILD_PAUSE`.  Until it is complete the frame shows a
stand-in: the last crisp picture (and the whole board's layer under it)
scaled or shifted to the new view.  A wheel gesture or a drag therefore never
stalls a frame, and the picture sharpens a few frames after it stops.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pygame

from triangles.rules import Board, Game
from triangles.ui.render.background import make_background
from triangles.ui.render.layers import BoardLayer
from triangles.ui.render.overlay import Overlay, OverlayPainter
from triangles.ui.render.theme import Theme
from triangles.ui.render.viewport import Viewport

__all__ = ["BoardView", "MIN_HIT_RADIUS", "MAX_HIT_RADIUS", "MIN_ZOOM", "MAX_ZOOM"]

#: a window size that changes again within this many seconds is being dragged:
#: the old nebula is stretched until the size settles (a fresh one costs ~250 ms)
SETTLE_SECONDS = 0.3

#: smallest hit radius in window pixels (a fingertip on a phone is ~ 40 px wide)
MIN_HIT_RADIUS = 18.0
MAX_HIT_RADIUS = 44.0

#: the zoom range (1: the whole board)
MIN_ZOOM = 1.0
MAX_ZOOM = 4.0

#: seconds a frame may spend building a zoomed layer (the rest draws the stand-in)
BUILD_BUDGET = 0.004
#: a zoomed layer is started once the view has stood still this long (a wheel gesture or a
#: drag only scales or shifts the stand-in, which is cheap)
BUILD_PAUSE = 0.08

Rect = tuple[int, int, int, int]


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
        #: the window's viewport (never zoomed) and the one the board is drawn through (``base`` zoomed)
        self.base = viewport.unzoomed
        self.viewport = self.base
        self._layer: BoardLayer | None = None  # the whole board (zoom 1)
        self._zlayer: BoardLayer | None = None  # complete layer of the zoomed viewport
        self._building: BoardLayer | None = None  # a zoomed layer being drawn, a slice per frame
        self._chunk = 16  # lines drawn per slice (adapted to the budget)
        self._standin: tuple[pygame.Surface, Viewport, Rect] | None = None  # last crisp zoomed picture
        self._painters: dict[float, OverlayPainter] = {}
        self._fmt: tuple[int, tuple[int, int, int, int]] | None = None  # pixel format of the draw target
        self._proto: pygame.Surface | None = None  # a 1x1 surface in that format
        self.zoom_builds = 0  # zoomed layers completed (statistics, for tests and the benchmark)
        self._moved_at = -1e9  # when zoom or pan last changed
        n = board.n
        if n >= 2:
            d = np.hypot(*(board.stars[:, None, :] - board.stars[None, :, :]).transpose(2, 0, 1))
            np.fill_diagonal(d, np.inf)
            self._nn = d.min(axis=1)  # each star's distance to its nearest neighbour, board units
            self._spacing = float(np.median(self._nn))
        else:
            self._nn = np.full(n, np.inf)
            self._spacing = 0.0
        self._fit_points()

    # -- caches ------------------------------------------------------------------

    def set_viewport(self, viewport: Viewport) -> None:
        """Use a new window size (zoom and pan are kept); caches are rebuilt on the next draw."""
        base = viewport.unzoomed
        if base != self.base:
            now = time.monotonic()
            self._dragging = now - self._resized_at < SETTLE_SECONDS
            self._resized_at = now
        self.base = base
        if self._layer is not None and self._layer.viewport != base:
            self._layer = None
            self._painters.clear()
            self._standin = None
        self._use(base.zoomed(self.viewport.zoom, self.viewport.center))

    def _use(self, vp: Viewport) -> None:
        """Draw and hit-test through ``vp`` from now on (a zoomed layer is started on the next draw)."""
        if self._zlayer is not None and self._zlayer.viewport != vp:
            old = self._zlayer
            clip = old.viewport.board_clip
            if clip is not None and old.viewport.window_size == vp.window_size:
                # its picture stands in, scaled, until the new zoom's layer is drawn
                self._standin = (old.surf.subsurface(clip).copy(), old.viewport, clip)
            self._zlayer = None
        if self._building is not None and self._building.viewport != vp:
            self._building = None
        if vp.zoom == 1.0:
            self._standin = None
        if vp != self.viewport:
            self._moved_at = time.monotonic()
        self.viewport = vp
        self._fit_points()

    def _fit_points(self) -> None:
        """Star centres and the hit radii for the current viewport."""
        vp = self.viewport
        self._pts = vp.points_to_screen(self.board.stars) if self.board.n else np.zeros((0, 2))
        self._pts_list: list[tuple[float, float]] = [(float(x), float(y)) for x, y in self._pts]
        bs = vp.board_scale
        typical = min(MAX_HIT_RADIUS, 0.5 * self._spacing * bs)
        self._hit_r = max(MIN_HIT_RADIUS, typical)
        # comfortable everywhere (never under MIN_HIT_RADIUS), and once zoomed in no wider
        # than half the way to the nearest star
        self._hit_rs = np.maximum(MIN_HIT_RADIUS, np.minimum(typical, 0.5 * self._nn * bs))
        clip = vp.board_clip
        self._clip = pygame.Rect(clip) if clip is not None else None
        if self._clip is not None and self.board.n:
            c = self._clip
            p = self._pts
            self._visible = (p[:, 0] >= c.left) & (p[:, 0] < c.right) & (p[:, 1] >= c.top) & (p[:, 1] < c.bottom)
        else:
            self._visible = np.ones(self.board.n, bool)

    def set_theme(self, theme: Theme) -> None:
        """Draw with ``theme`` from the next frame on (every cache is rebuilt in it)."""
        if theme != self.theme:
            self.theme = theme
            self.invalidate()

    def invalidate(self) -> None:
        """Throw all caches away (they are rebuilt on the next draw)."""
        self._bg_cache.clear()
        self._bg_stretched = False
        self._layer = None
        self._zlayer = None
        self._building = None
        self._standin = None
        self._painters.clear()

    def background(self) -> pygame.Surface:
        vp = self.base
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
        """The whole board's layer (zoom 1)."""
        if self._layer is None:
            self._layer = BoardLayer(self.board, self.theme, self.base, self.background())
        return self._layer

    # -- zoom and pan ----------------------------------------------------------------

    @property
    def zoom(self) -> float:
        return self.viewport.zoom

    @property
    def center(self) -> tuple[float, float]:
        """The board point (board units) in the middle of the board rectangle."""
        return self.viewport.center

    @property
    def sharp(self) -> bool:
        """False while a zoomed view is still shown by its stand-in."""
        return self.viewport.zoom == 1.0 or (self._zlayer is not None and self._zlayer.viewport == self.viewport)

    def set_zoom(self, zoom: float, center: tuple[float, float] | None = None) -> bool:
        """Zoom to ``zoom`` (clamped to MIN_ZOOM..MAX_ZOOM) looking at ``center``; True if the view changed."""
        z = min(MAX_ZOOM, max(MIN_ZOOM, float(zoom)))
        vp = self.base.zoomed(z, self.viewport.center if center is None else center)
        if vp == self.viewport:
            return False
        self._use(vp)
        return True

    def zoom_at(self, factor: float, pos: tuple[float, float] | None = None) -> bool:
        """Zoom by ``factor`` keeping the board point under window pixel ``pos`` in place
        (the board's middle when ``pos`` is None or off the board); True if the view changed."""
        vp = self.viewport
        z = min(MAX_ZOOM, max(MIN_ZOOM, vp.zoom * float(factor)))
        if z == vp.zoom:
            return False
        rx, ry, rw, rh = vp.board_rect
        board = pygame.Rect(vp.board_screen_rect)
        if pos is None or not board.collidepoint(pos):
            pos = vp.design_to_screen(rx + rw / 2, ry + rh / 2)
        bx, by = vp.to_board(*pos)
        dx, dy = vp.screen_to_design(*pos)
        return self.set_zoom(z, (bx - (dx - rx - rw / 2) / z, by - (dy - ry - rh / 2) / z))

    def pan_by(self, dx: float, dy: float) -> bool:
        """Move the board ``(dx, dy)`` window pixels (as if dragged); True if the view changed."""
        vp = self.viewport
        if vp.zoom == 1.0:
            return False
        return self.set_zoom(vp.zoom, (vp.center[0] - dx / vp.board_scale, vp.center[1] - dy / vp.board_scale))

    def fit(self) -> bool:
        """Back to the whole board; True if the view changed."""
        return self.set_zoom(1.0)

    # -- queries -----------------------------------------------------------------

    @property
    def hit_radius(self) -> float:
        """The typical hit radius in window pixels (each star's own: :meth:`hit_radius_of`)."""
        return self._hit_r

    def hit_radius_of(self, i: int) -> float:
        return float(self._hit_rs[i])

    def star_screen_pos(self, i: int) -> tuple[float, float]:
        return float(self._pts[i, 0]), float(self._pts[i, 1])

    def star_visible(self, i: int) -> bool:
        return bool(self._visible[i])

    def on_board(self, px: float, py: float) -> bool:
        """Window pixel (px, py) is on the board rectangle."""
        return pygame.Rect(self.viewport.board_screen_rect).collidepoint(px, py)

    def star_at(self, px: float, py: float) -> int | None:
        """The nearest visible star to window pixel (px, py) within its hit radius, else None."""
        if self.board.n == 0:
            return None
        if self._clip is not None and not self._clip.collidepoint(px, py):
            return None
        d2 = (self._pts[:, 0] - px) ** 2 + (self._pts[:, 1] - py) ** 2
        ok = (d2 <= self._hit_rs**2) & self._visible
        if not ok.any():
            return None
        return int(np.argmin(np.where(ok, d2, np.inf)))

    # -- drawing -----------------------------------------------------------------

    def _painter(self, scratch) -> OverlayPainter:
        s = self.viewport.scale
        p = self._painters.get(s)
        if p is None:
            if len(self._painters) > 8:
                self._painters.clear()
            p = self._painters[s] = OverlayPainter(self.theme, s, scratch)
        p.scratch = scratch
        return p

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
        if self.viewport.zoom == 1.0:
            layer = self.layer()
            if game is not None:
                layer.sync(game)
            surface.blit(layer.surf, (0, 0))
            self._painter(layer.scratch).draw(surface, layer.screen_points, game, overlay or Overlay())
            return
        self._draw_zoomed(surface, game, overlay or Overlay())

    def _draw_zoomed(self, surface: pygame.Surface, game: Game | None, overlay: Overlay) -> None:
        vp = self.viewport
        clip = self._clip
        assert clip is not None
        bg = self.background()
        # the background around the board (the HUD sits on it), the board inside its rectangle
        w, h = vp.window_size
        for r in ((0, 0, w, clip.top), (0, clip.bottom, w, h - clip.bottom), (0, clip.top, clip.left, clip.h)):
            surface.blit(bg, r[:2], r)
        surface.blit(bg, (clip.right, clip.top), (clip.right, clip.top, w - clip.right, clip.h))
        layer = self._zoomed_layer(game)
        if layer is not None:
            if game is not None:
                layer.sync(game)
            surface.blit(layer.surf, clip.topleft, clip)
            scratch = layer.scratch
        else:
            whole = self.layer()
            if game is not None:
                whole.sync(game)
            covered = False
            if self._standin is not None:
                img, svp, rect = self._standin
                dest = _mapped_rect(svp, vp, pygame.Rect(rect))
                covered = dest.contains(clip)
            if not covered:  # the whole board, scaled up, under what the stand-in does not cover
                _blit_mapped(surface, whole.surf, whole.viewport, None, vp, clip)
            if self._standin is not None:
                img, svp, rect = self._standin
                _blit_mapped(surface, img, svp, pygame.Rect(rect), vp, clip)
            scratch = whole.scratch
        prev = surface.get_clip()
        surface.set_clip(clip.clip(prev))
        try:
            self._painter(scratch).draw(surface, self._pts_list, game, overlay)
        finally:
            surface.set_clip(prev)

    def _zoomed_layer(self, game: Game | None) -> BoardLayer | None:
        """The complete layer of the zoomed viewport, or None while it is still being built (a slice more now)."""
        vp = self.viewport
        if self._zlayer is not None and self._zlayer.viewport == vp:
            return self._zlayer
        if time.monotonic() - self._moved_at < BUILD_PAUSE and self._building is None:
            return None  # still moving: the stand-in follows at no cost
        start = time.perf_counter()
        deadline = start + BUILD_BUDGET
        b = self._building
        if b is None or b.viewport != vp:
            # making the empty layer (a window-sized background copy) is a frame's slice of its own
            self._building = BoardLayer(self.board, self.theme, vp, self.background())
            return None
        total = game.move_count if game is not None else 0
        while len(b.moves) < total:
            n0 = len(b.moves)
            t = time.perf_counter()
            assert game is not None
            b.sync(game, n0 + self._chunk)
            now = time.perf_counter()
            per_line = (now - t) / max(1, len(b.moves) - n0)
            left = deadline - now
            if left <= 0:
                break
            # cautious: the next lines may cost more (long ones, big triangles, a checkpoint copy)
            self._chunk = max(2, min(2 * self._chunk, 512, int(0.6 * left / max(per_line, 1e-6))))
        if len(b.moves) < total:
            return None
        if game is not None:
            b.sync(game)
        self._zlayer, self._building, self._standin = b, None, None
        self.zoom_builds += 1
        return b


def _mapped_rect(src_vp: Viewport, dst_vp: Viewport, r: pygame.Rect) -> pygame.Rect:
    """Window rectangle ``r`` of a picture drawn through ``src_vp``, where ``dst_vp`` shows it."""
    k = dst_vp.board_scale / src_vp.board_scale
    (sx, sy), (dx, dy) = src_vp.board_origin, dst_vp.board_origin
    x0, y0 = round(dx + (r.left - sx) * k), round(dy + (r.top - sy) * k)
    x1, y1 = round(dx + (r.right - sx) * k), round(dy + (r.bottom - sy) * k)
    return pygame.Rect(x0, y0, x1 - x0, y1 - y0)


def _blit_mapped(
    surface: pygame.Surface,
    src: pygame.Surface,
    src_vp: Viewport,
    src_rect: pygame.Rect | None,
    dst_vp: Viewport,
    clip: pygame.Rect,
) -> None:
    """Blit the part of picture ``src`` (drawn through ``src_vp``; ``src_rect``: where in that window the
    picture was cut from, None for a whole window) that ``dst_vp`` shows in ``clip``, scaled smoothly."""
    k = dst_vp.board_scale / src_vp.board_scale
    (sx, sy), (dx, dy) = src_vp.board_origin, dst_vp.board_origin
    bounds = src_rect if src_rect is not None else src.get_rect()
    x0 = max(bounds.left, math.floor(sx + (clip.left - dx) / k))
    y0 = max(bounds.top, math.floor(sy + (clip.top - dy) / k))
    x1 = min(bounds.right, math.ceil(sx + (clip.right - dx) / k))
    y1 = min(bounds.bottom, math.ceil(sy + (clip.bottom - dy) / k))
    if x1 <= x0 or y1 <= y0:
        return
    dest = _mapped_rect(src_vp, dst_vp, pygame.Rect(x0, y0, x1 - x0, y1 - y0))
    if dest.w <= 0 or dest.h <= 0:
        return
    part = src.subsurface((x0 - bounds.left, y0 - bounds.top, x1 - x0, y1 - y0))
    prev = surface.get_clip()
    surface.set_clip(clip.clip(prev))
    try:
        if dest.size == part.get_size():  # a pan at the same zoom: shifted, not scaled
            surface.blit(part, dest.topleft)
        else:
            surface.blit(pygame.transform.smoothscale(part, dest.size), dest.topleft)
    finally:
        surface.set_clip(prev)
