"""Viewport: board units <-> window pixels, with uniform scale, letterboxing and zoom.

The game is laid out in *design points* (a preset's window, e.g. 1180 x 820)
and the board occupies a rectangle inside it.  The real window may be any size
(resized, fullscreen, HiDPI), so the whole design area is scaled uniformly to
fit and centred; the spare pixels are letterbox bars.  Keeping one object for
this means the renderer, hit-testing and the HUD can never disagree.

A viewport may also be *zoomed* into the board (``zoom`` >= 1, looking at the
board point ``center``): board units are then magnified ``zoom`` times inside
the board rectangle, which stays where it is on screen (``board_clip``).  The
design points (HUD) are never zoomed.  Drawn sizes (line widths, star radii)
grow more slowly than the geometry, by ``zoom ** STROKE_GROWTH``, so zooming in
pulls crowded stars and near-parallel lines apart instead of only magnifying
them; ``scale`` is that size scale (equal to ``design_scale`` at zoom 1).
"""

from __future__ import annotations

__all__ = ["Viewport", "STROKE_GROWTH"]

#: drawn sizes grow as zoom ** STROKE_GROWTH (geometry grows as zoom)
STROKE_GROWTH = 0.5


class Viewport:
    """Maps board units and design points to window pixels and back.

    ``design_scale`` is window pixels per design point; ``offset`` is the
    window pixel of the design origin (the top-left of the letterboxed design
    area).  ``board_scale`` is window pixels per board unit (``design_scale *
    zoom``) and ``scale`` the scale for drawn sizes (see the module doc).
    """

    def __init__(
        self,
        window_size: tuple[int, int],
        design_size: tuple[int, int] | tuple[float, float],
        board_rect: tuple[float, float, float, float],
        zoom: float = 1.0,
        center: tuple[float, float] | None = None,
    ) -> None:
        ww, wh = int(window_size[0]), int(window_size[1])
        dw, dh = float(design_size[0]), float(design_size[1])
        if ww <= 0 or wh <= 0 or dw <= 0 or dh <= 0:
            raise ValueError(f"window {window_size} and design {design_size} sizes must be positive")
        self.window_size: tuple[int, int] = (ww, wh)
        self.design_size: tuple[float, float] = (dw, dh)
        bx, by, bw, bh = board_rect
        self.board_rect: tuple[float, float, float, float] = (float(bx), float(by), float(bw), float(bh))
        self.design_scale: float = min(ww / dw, wh / dh)
        self.offset: tuple[float, float] = ((ww - dw * self.design_scale) / 2.0, (wh - dh * self.design_scale) / 2.0)
        self.zoom: float = max(1.0, float(zoom))
        self.center: tuple[float, float] = self.clamp_center(center)
        self.board_scale: float = self.design_scale * self.zoom
        self.scale: float = self.design_scale if self.zoom == 1.0 else self.design_scale * self.zoom**STROKE_GROWTH
        # window pixel of board point (0, 0): the board rectangle's centre shows ``center``
        cx, cy = self.center
        self.board_origin: tuple[float, float] = (
            self.offset[0] + (bx + bw / 2.0 - cx * self.zoom) * self.design_scale,
            self.offset[1] + (by + bh / 2.0 - cy * self.zoom) * self.design_scale,
        )

    def clamp_center(self, center: tuple[float, float] | None, zoom: float | None = None) -> tuple[float, float]:
        """``center`` (board units) moved as little as needed for the view to stay inside the board."""
        z = self.zoom if zoom is None else max(1.0, zoom)
        bw, bh = self.board_rect[2], self.board_rect[3]
        if center is None or z == 1.0:
            return bw / 2.0, bh / 2.0
        hx, hy = bw / (2.0 * z), bh / (2.0 * z)
        return min(max(float(center[0]), hx), bw - hx), min(max(float(center[1]), hy), bh - hy)

    def zoomed(self, zoom: float, center: tuple[float, float] | None = None) -> Viewport:
        """The same window and design, looking at board point ``center`` magnified ``zoom`` times."""
        return Viewport(self.window_size, self.design_size, self.board_rect, zoom, center)

    @property
    def unzoomed(self) -> Viewport:
        return self if self.zoom == 1.0 else self.zoomed(1.0)

    # -- design points ---------------------------------------------------------

    def design_to_screen(self, x: float, y: float) -> tuple[float, float]:
        return self.offset[0] + x * self.design_scale, self.offset[1] + y * self.design_scale

    def screen_to_design(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.offset[0]) / self.design_scale, (py - self.offset[1]) / self.design_scale

    def design_rect_to_screen(self, rect: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        """A design-point rectangle (x, y, w, h) as a whole-pixel window rectangle."""
        x0, y0 = self.design_to_screen(rect[0], rect[1])
        x1, y1 = self.design_to_screen(rect[0] + rect[2], rect[1] + rect[3])
        ix, iy = round(x0), round(y0)
        return ix, iy, round(x1) - ix, round(y1) - iy

    @property
    def screen_rect(self) -> tuple[int, int, int, int]:
        """The letterboxed design area in window pixels (x, y, w, h); the HUD lays out in it."""
        return self.design_rect_to_screen((0.0, 0.0, self.design_size[0], self.design_size[1]))

    @property
    def board_screen_rect(self) -> tuple[int, int, int, int]:
        """The board rectangle in window pixels (where the board is shown, zoomed or not)."""
        return self.design_rect_to_screen(self.board_rect)

    @property
    def board_clip(self) -> tuple[int, int, int, int] | None:
        """Where a zoomed board is cut off (the board rectangle in pixels); None at zoom 1 (nothing is cut)."""
        return None if self.zoom == 1.0 else self.board_screen_rect

    # -- board units -------------------------------------------------------------

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        ox, oy = self.board_origin
        return ox + x * self.board_scale, oy + y * self.board_scale

    def to_board(self, px: float, py: float) -> tuple[float, float]:
        ox, oy = self.board_origin
        return (px - ox) / self.board_scale, (py - oy) / self.board_scale

    def points_to_screen(self, xy):  # numpy (n, 2) -> (n, 2)
        """Vectorised :meth:`to_screen` for an (n, 2) numpy array of board units."""
        import numpy as np

        a = np.asarray(xy, dtype=np.float64)
        ox, oy = self.board_origin
        return np.stack([ox + a[:, 0] * self.board_scale, oy + a[:, 1] * self.board_scale], axis=1)

    def _key(self) -> tuple[object, ...]:
        return (self.window_size, self.design_size, self.board_rect, self.zoom, self.center)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Viewport) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        z = f", zoom={self.zoom:.2f} at ({self.center[0]:.1f}, {self.center[1]:.1f})" if self.zoom != 1.0 else ""
        return (
            f"Viewport(window={self.window_size}, design={self.design_size}, "
            f"scale={self.design_scale:.3f}, offset=({self.offset[0]:.1f}, {self.offset[1]:.1f}){z})"
        )
