"""Per-frame overlay: UI state the game does not hold, drawn over the cached layer.

Everything here is cheap (a few lines, rings and small blits), so it can be
redrawn every frame: the last-line marker, hover/selection rings, the rubber
band, the hint, the closing-lines aid and the scoring flashes.

The last line is marked twice: a brighter glow along it in the mover's
whitened colour, and a marker at its midpoint (a disc in the mover's colour
ringed in ``last_line.color``) that sends out a slow fading ring every
:data:`PULSE_PERIOD` seconds; with reduced motion the ring stands still.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TypeGuard

import pygame

from triangles.rules import Game
from triangles.ui.render.primitives import Point, Scratch, add_polyline, dashed_line, fill_triangle, glow_line
from triangles.ui.render.sprites import blend_flags, mix, ring_sprite, scaled
from triangles.ui.render.theme import Color, Theme

__all__ = ["Overlay", "OverlayPainter", "PULSE_PERIOD", "last_line_marker_radius"]

#: seconds between two rings sent out by the last line's marker
PULSE_PERIOD = 1.6


def last_line_marker_radius(theme: Theme, scale: float) -> float:
    """Radius in pixels of the disc marking the last line's midpoint."""
    return max(4.5, max(theme.last_line.dot_radius * 2.2, theme.last_line.width * 2.6) * scale)


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
    #: seconds on the scene's clock for the last line's pulse; None: reduced motion, a still mark
    pulse: float | None = None
    #: the aid: legal lines that would close a triangle now, with how many (1 or 2)
    closing: list[tuple[int, int, int]] = field(default_factory=list)


class OverlayPainter:
    """Draws an :class:`Overlay` for one theme and scale (rings are pre-rendered)."""

    def __init__(self, theme: Theme, scale: float, scratch: Scratch) -> None:
        self.theme = theme
        self.scale = scale
        self.scratch = scratch
        st = theme.stars
        r, w = st.ring_radius * scale, max(1.0, st.ring_width * scale)
        self._ring_flags = blend_flags(st.blend)  # light rings on a sky, ink rings on paper
        self._rings: dict[Color, tuple[pygame.Surface, int]] = {}
        for c in (st.hover_color, st.selected_color, theme.band.ok, theme.band.bad, theme.hint.color):
            self._rings[c] = ring_sprite(c, r, w, softness=1.5 * scale, blend=st.blend)
        self._ring_params = (r, w)

    def ring(self, surface: pygame.Surface, color: Color, p: tuple[float, float]) -> None:
        spr = self._rings.get(color)
        if spr is None:
            spr = self._rings[color] = ring_sprite(
                color, *self._ring_params, softness=1.5 * self.scale, blend=self.theme.stars.blend
            )
        s, half = spr
        surface.blit(s, (round(p[0]) - half, round(p[1]) - half), special_flags=self._ring_flags)

    def _last_line(self, surface: pygame.Surface, a: Point, b: Point, owner: int, ov: Overlay) -> None:
        """A brighter glow along the last line and a marker at its midpoint, in the mover's colour."""
        th, s = self.theme, self.scale
        ll = th.last_line
        pc = th.player_colors[owner % 2]
        hot = mix(pc, ll.color, 0.55)
        if ov.pulse is None:
            phase, breath = None, 0.8
        else:
            phase = (ov.pulse % PULSE_PERIOD) / PULSE_PERIOD
            breath = 0.7 + 0.3 * math.cos(2 * math.pi * phase)
        # "still hot": a wider, brighter glow in a whitened player colour
        glow_line(
            surface,
            self.scratch,
            a,
            b,
            hot,
            ll.width * s,
            th.lines.glow_width * ll.glow_scale * s,
            ll.glow_alpha * breath,
        )
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        r = last_line_marker_radius(th, s)
        # a ring around the marker: sent out and fading (animated) or standing still (reduced motion)
        if phase is None:
            ring_r, ring_a = r * 1.9, 150
        else:
            ring_r, ring_a = r * (1.15 + 1.6 * phase), round(210 * (1 - phase) ** 1.5)
        if ring_a > 3:
            half = math.ceil(ring_r + 3 * s) + 2
            spr = pygame.Surface((2 * half, 2 * half), pygame.SRCALPHA)
            pygame.draw.circle(spr, (*mix(pc, ll.color, 0.3), ring_a), (half, half), ring_r, max(1, round(1.6 * s)))
            surface.blit(spr, (round(mx) - half, round(my) - half))
        # the marker: a disc in the mover's colour ringed in last_line.color
        pygame.draw.aacircle(surface, ll.color, (mx, my), r + max(1.0, 1.3 * s))
        pygame.draw.aacircle(surface, pc, (mx, my), r)
        if ll.dot_radius > 0:
            pygame.draw.aacircle(surface, ll.color, (mx, my), max(1.0, 0.32 * r))

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
            if th.stars.blend == "add":  # light swelling out: it can only brighten, so not on paper
                edge = scaled(mix(pc, th.flash.color, 0.7 * fade), fade)
                add_polyline(surface, self.scratch, big, edge, 2 * s)

        # the aid: each legal line that would close a triangle now, dotted in the hint's colour
        # (not a player's: it must never look like a drawn line); bolder when it closes two
        if game is not None and ov.closing:
            aid = th.hint.color
            for i, j, count in ov.closing:
                if ok(i) and ok(j):
                    a, b = pts[i], pts[j]
                    glow_line(surface, self.scratch, a, b, aid, 0, th.hint.width * 2.2 * s, 0.12 * count)
                    dot = th.hint.width * (0.5 + 0.35 * count) * s
                    dashed_line(surface, aid, a, b, dot, 1.6 * dot + 1, 2.2 * s + dot)

        # the last line, so the opponent's move is easy to see
        last = game.last_move if game is not None else None
        if game is not None and last is not None and ok(last[0]) and ok(last[1]):
            self._last_line(surface, pts[last[0]], pts[last[1]], int(game.line_owner[game.board.pair_id(*last)]), ov)

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
