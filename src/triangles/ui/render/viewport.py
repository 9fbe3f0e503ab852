"""Viewport: board units <-> window pixels, with uniform scale and letterboxing.

The game is laid out in *design points* (a preset's window, e.g. 1180 x 820)
and the board occupies a rectangle inside it.  The real window may be any size
(resized, fullscreen, HiDPI), so the whole design area is scaled uniformly to
fit and centred; the spare pixels are letterbox bars.  Keeping one object for
this means the renderer, hit-testing and the HUD can never disagree.
"""

from __future__ import annotations

__all__ = ["Viewport"]


class Viewport:
    """Maps board units and design points to window pixels and back.

    ``scale`` is window pixels per design point; ``offset`` is the window pixel
    of the design origin (the top-left of the letterboxed design area).
    """

    def __init__(
        self,
        window_size: tuple[int, int],
        design_size: tuple[int, int],
        board_rect: tuple[float, float, float, float],
    ) -> None:
        ww, wh = int(window_size[0]), int(window_size[1])
        dw, dh = float(design_size[0]), float(design_size[1])
        if ww <= 0 or wh <= 0 or dw <= 0 or dh <= 0:
            raise ValueError(f"window {window_size} and design {design_size} sizes must be positive")
        self.window_size: tuple[int, int] = (ww, wh)
        self.design_size: tuple[float, float] = (dw, dh)
        bx, by, bw, bh = board_rect
        self.board_rect: tuple[float, float, float, float] = (float(bx), float(by), float(bw), float(bh))
        self.scale: float = min(ww / dw, wh / dh)
        self.offset: tuple[float, float] = ((ww - dw * self.scale) / 2.0, (wh - dh * self.scale) / 2.0)

    # -- design points ---------------------------------------------------------

    def design_to_screen(self, x: float, y: float) -> tuple[float, float]:
        return self.offset[0] + x * self.scale, self.offset[1] + y * self.scale

    def screen_to_design(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.offset[0]) / self.scale, (py - self.offset[1]) / self.scale

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
        """The board rectangle in window pixels."""
        return self.design_rect_to_screen(self.board_rect)

    # -- board units -------------------------------------------------------------

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return self.design_to_screen(self.board_rect[0] + x, self.board_rect[1] + y)

    def to_board(self, px: float, py: float) -> tuple[float, float]:
        dx, dy = self.screen_to_design(px, py)
        return dx - self.board_rect[0], dy - self.board_rect[1]

    def points_to_screen(self, xy):  # numpy (n, 2) -> (n, 2)
        """Vectorised :meth:`to_screen` for an (n, 2) numpy array of board units."""
        import numpy as np

        a = np.asarray(xy, dtype=np.float64)
        ox = self.offset[0] + self.board_rect[0] * self.scale
        oy = self.offset[1] + self.board_rect[1] * self.scale
        return np.stack([ox + a[:, 0] * self.scale, oy + a[:, 1] * self.scale], axis=1)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Viewport)
            and self.window_size == other.window_size
            and self.design_size == other.design_size
            and self.board_rect == other.board_rect
        )

    def __hash__(self) -> int:
        return hash((self.window_size, self.design_size, self.board_rect))

    def __repr__(self) -> str:
        return (
            f"Viewport(window={self.window_size}, design={self.design_size}, "
            f"scale={self.scale:.3f}, offset=({self.offset[0]:.1f}, {self.offset[1]:.1f}))"
        )
