"""Per-frame overlay: UI state the game does not hold, drawn over the cached layer.

Everything here is cheap (a few lines, rings and small blits), so it can be
redrawn every frame: the last-line marker, hover/selection rings, the rubber
band, the hint and the scoring flashes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TypeGuard

import pygame

from triangles.rules import Game
from triangles.ui.render.primitives import Scratch, add_polyline, dashed_line, fill_triangle, glow_line
from triangles.ui.render.sprites import mix, ring_sprite, scaled
from triangles.ui.render.theme import Color, Theme

__all__ = ["Overlay", "OverlayPainter"]


@dataclass
class Overlay:
    """UI state the renderer shows but the game does not hold."""

    hover: int | None = None  # star under the mouse
    selected: int | None = None  # first star of a half-drawn line
    band_end: tuple[float, float] | None = None  # rubber-band end in WINDOW PIXELS
    band_target: int | None = None  # star the band snaps to, if any
    band_ok: bool | None = None  # legality of selected -> band_target
    flashes: list[tuple[tuple[int, int, int], int, float]] = field(default_factory=list)
    hint: tuple[int, int] | None = None


class OverlayPainter:
    """Draws an :class:`Overlay` for one theme and scale (rings are pre-rendered)."""

    def __init__(self, theme: Theme, scale: float, scratch: Scratch) -> None:
        self.theme = theme
        self.scale = scale
        self.scratch = scratch
        st = theme.stars
        r, w = st.ring_radius * scale, max(1.0, st.ring_width * scale)
        self._rings: dict[Color, tuple[pygame.Surface, int]] = {}
        for c in (st.hover_color, st.selected_color, theme.band.ok, theme.band.bad, theme.hint.color):
            self._rings[c] = ring_sprite(c, r, w, softness=1.5 * scale)
        self._ring_params = (r, w)

    def ring(self, surface: pygame.Surface, color: Color, p: tuple[float, float]) -> None:
        spr = self._rings.get(color)
        if spr is None:
            spr = self._rings[color] = ring_sprite(color, *self._ring_params, softness=1.5 * self.scale)
        s, half = spr
        surface.blit(s, (round(p[0]) - half, round(p[1]) - half), special_flags=pygame.BLEND_RGB_ADD)

    def draw(self, surface: pygame.Surface, pts: list[tuple[float, float]], game: Game | None, ov: Overlay) -> None:
        th, s = self.theme, self.scale
        n = len(pts)

        def ok(i: int | None) -> TypeGuard[int]:
            return i is not None and 0 <= i < n

        # scoring flashes: a bright fill fading into the owner's colour, and an
        # outline that swells out of the triangle and fades (a "pop")
        for tri, owner, prog in ov.flashes:
            if not all(ok(i) for i in tri):
                continue
            p = max(0.0, min(1.0, float(prog)))
            fade = (1.0 - p) ** 1.5
            if fade <= 0.01:
                continue
            pc = th.player_colors[owner % 2]
            col = mix(pc, th.flash.color, 0.6 * (1 - p))
            tp = [pts[i] for i in tri]
            fill_triangle(surface, self.scratch, tp, col, th.flash.peak_alpha * fade)
            cx = sum(q[0] for q in tp) / 3
            cy = sum(q[1] for q in tp) / 3
            grow = 1.0 + 0.35 * math.sqrt(p)
            big = [(cx + (q[0] - cx) * grow, cy + (q[1] - cy) * grow) for q in tp]
            edge = scaled(mix(pc, th.flash.color, 0.7 * fade), fade)
            add_polyline(surface, self.scratch, big, edge, 2 * s)

        # the last line, so the opponent's move is easy to see
        last = game.last_move if game is not None else None
        if game is not None and last is not None and ok(last[0]) and ok(last[1]):
            ll = th.last_line
            a, b = pts[last[0]], pts[last[1]]
            owner = int(game.line_owner[game.board.pair_id(*last)])
            hot = mix(th.player_colors[owner % 2], ll.color, 0.55)
            # "still hot": a wider, brighter glow in a whitened player colour
            glow_line(
                surface, self.scratch, a, b, hot, ll.width * s, th.lines.glow_width * ll.glow_scale * s, ll.glow_alpha
            )
            if ll.dot_radius > 0:
                mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
                pygame.draw.aacircle(surface, ll.color, (mx, my), max(1.5, ll.dot_radius * s))

        # hint: a dashed glowing line with rings on its stars
        if ov.hint is not None and ok(ov.hint[0]) and ok(ov.hint[1]):
            h = th.hint
            a, b = pts[ov.hint[0]], pts[ov.hint[1]]
            glow_line(surface, self.scratch, a, b, h.color, 0, h.width * 3 * s, 0.25)
            dashed_line(surface, h.color, a, b, h.width * s, h.dash * s, h.gap * s)
            self.ring(surface, h.color, a)
            self.ring(surface, h.color, b)

        # rubber band from the selected star to the mouse or the snapped star
        if ok(ov.selected):
            a = pts[ov.selected]
            end = pts[ov.band_target] if ok(ov.band_target) else ov.band_end
            bd = th.band
            col = bd.neutral if ov.band_ok is None else (bd.ok if ov.band_ok else bd.bad)
            if end is not None and math.hypot(end[0] - a[0], end[1] - a[1]) > 1:
                dashed_line(surface, col, a, end, bd.width * s, bd.dash * s, bd.gap * s)
            if ok(ov.band_target) and ov.band_target != ov.selected:
                self.ring(surface, col, pts[ov.band_target])
            self.ring(surface, th.stars.selected_color, a)

        if ok(ov.hover) and ov.hover != ov.selected and ov.hover != ov.band_target:
            self.ring(surface, th.stars.hover_color, pts[ov.hover])
