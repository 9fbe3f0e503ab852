"""Drawing primitives shared by the cached board layer and the per-frame overlay.

Glows are additive: drawn on a black scratch surface and added with
``BLEND_RGB_ADD`` over just their bounding box, so a glow costs a couple of
small fills and blits instead of a per-pixel blur.  Translucent fills go
through an SRCALPHA scratch surface the same way.
"""

from __future__ import annotations

import math

import pygame

from triangles.ui.render.sprites import lighten, scaled
from triangles.ui.render.theme import Color

__all__ = ["Scratch", "glow_line", "fill_triangle", "dashed_line", "add_polyline", "triangle_mark", "Point"]

Point = tuple[float, float]


class Scratch:
    """Reusable window-sized scratch surfaces (one RGB, one RGBA)."""

    def __init__(self, size: tuple[int, int], like: pygame.Surface | None = None) -> None:
        self.size = size
        self.rgb = pygame.Surface(size, 0, like) if like is not None else pygame.Surface(size)
        self.rgba = pygame.Surface(size, pygame.SRCALPHA)
        self.bounds = pygame.Rect(0, 0, *size)


def _bbox(points: list[Point], pad: float, bounds: pygame.Rect) -> pygame.Rect:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, y0 = math.floor(min(xs) - pad), math.floor(min(ys) - pad)
    x1, y1 = math.ceil(max(xs) + pad), math.ceil(max(ys) + pad)
    return pygame.Rect(x0, y0, x1 - x0 + 1, y1 - y0 + 1).clip(bounds)


def glow_line(
    target: pygame.Surface,
    scratch: Scratch,
    a: Point,
    b: Point,
    color: Color,
    width: float,
    glow_width: float,
    glow_alpha: float,
    core_lighten: float = 0.0,
    dash: float = 0.0,
    gap: float = 0.0,
) -> pygame.Rect:
    """A line with a soft additive glow and an antialiased core (dashed when ``dash`` and
    ``gap`` are > 0, in pixels); returns the dirty rect."""
    rect = _bbox([a, b], glow_width / 2 + 2, scratch.bounds)
    if glow_width > width and glow_alpha > 0 and rect.w > 0 and rect.h > 0:
        scratch.rgb.fill((0, 0, 0), rect)
        # a stepped profile: wide and faint outside, brighter towards the middle
        for frac, k in ((1.0, 0.30), (0.7, 0.55), (0.45, 0.85)):
            w = max(1, round(glow_width * frac))
            pygame.draw.line(scratch.rgb, scaled(color, glow_alpha * k), a, b, w)
        target.blit(scratch.rgb, rect.topleft, rect, pygame.BLEND_RGB_ADD)
    core = lighten(color, core_lighten)
    if dash > 0 and gap > 0:
        dashed_line(target, core, a, b, width, dash, gap, phase=dash / 2)
    else:
        pygame.draw.aaline(target, core, a, b, max(1, round(width)))
    return rect


def fill_triangle(
    target: pygame.Surface, scratch: Scratch, pts: list[Point], color: Color, alpha: float, shade: float = 0.0
) -> pygame.Rect:
    """A translucent triangle; with ``shade`` > 0 its three facets (to the centroid)
    are lit from the top-left like a cut gem.  Returns the dirty rect."""
    rect = _bbox(pts, 1, scratch.bounds)
    if rect.w <= 0 or rect.h <= 0:
        return rect
    s = scratch.rgba
    s.fill((0, 0, 0, 0), rect)
    a = max(0, min(255, round(255 * alpha)))
    if shade <= 0:
        pygame.draw.polygon(s, (*color, a), pts)
    else:
        cx = sum(p[0] for p in pts) / 3
        cy = sum(p[1] for p in pts) / 3
        for i in range(3):
            p, q = pts[i], pts[(i + 1) % 3]
            mx, my = (p[0] + q[0]) / 2 - cx, (p[1] + q[1]) / 2 - cy
            n = math.hypot(mx, my) or 1.0
            light = (-mx * 0.6 - my * 0.8) / n  # light from the upper left
            c = lighten(color, shade * max(0.0, light)) if light > 0 else scaled(color, 1 + shade * 0.6 * light)
            pygame.draw.polygon(s, (*c, a), [p, q, (cx, cy)])
    target.blit(s, rect.topleft, rect)
    return rect


def dashed_line(
    target: pygame.Surface, color: Color, a: Point, b: Point, width: float, dash: float, gap: float, phase: float = 0.0
) -> None:
    """An antialiased dashed line from a to b (dash and gap in pixels)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return
    ux, uy = dx / length, dy / length
    w = max(1, round(width))
    if gap <= 0:
        pygame.draw.aaline(target, color, a, b, w)
        return
    period = dash + gap
    t = -(phase % period)
    while t < length:
        t0, t1 = max(t, 0.0), min(t + dash, length)
        if t1 > t0:
            pygame.draw.aaline(target, color, (a[0] + ux * t0, a[1] + uy * t0), (a[0] + ux * t1, a[1] + uy * t1), w)
        t += period


def add_polyline(
    target: pygame.Surface, scratch: Scratch, pts: list[Point], color: Color, width: float, closed: bool = True
) -> pygame.Rect:
    """An antialiased polyline *added* to the target (it can only brighten), so a
    fading outline never darkens what is under it."""
    rect = _bbox(pts, width + 2, scratch.bounds)
    if rect.w <= 0 or rect.h <= 0:
        return rect
    scratch.rgb.fill((0, 0, 0), rect)
    w = max(1, round(width))
    k = len(pts) if closed else len(pts) - 1
    for q in range(k):
        pygame.draw.aaline(scratch.rgb, color, pts[q], pts[(q + 1) % len(pts)], w)
    target.blit(scratch.rgb, rect.topleft, rect, pygame.BLEND_RGB_ADD)
    return rect


def triangle_mark(target: pygame.Surface, pts: list[Point], mark: str, color: Color, scale: float) -> None:
    """A player's mark inside an owned triangle, so owners differ by more than hue.

    ``dot``: a filled disc at the incentre; ``ring``: a circle there; ``hatch``:
    diagonal strokes across the whole triangle.  Sizes follow the inradius, so a
    sliver gets a small mark and a large triangle no more than a few points.
    """
    if mark == "none":
        return
    (ax, ay), (bx, by), (cx, cy) = pts
    la = math.hypot(bx - cx, by - cy)  # side opposite each corner
    lb = math.hypot(ax - cx, ay - cy)
    lc = math.hypot(ax - bx, ay - by)
    per = la + lb + lc
    if per <= 1e-9:
        return
    area2 = abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay))
    r_in = area2 / per  # inradius (area / semi-perimeter)
    ix, iy = (la * ax + lb * bx + lc * cx) / per, (la * ay + lb * by + lc * cy) / per
    if mark == "dot":
        r = min(0.45 * r_in, 3.2 * scale)
        if r >= 1.0:
            pygame.draw.aacircle(target, color, (ix, iy), r)
    elif mark == "ring":
        r = min(0.6 * r_in, 5.0 * scale)
        if r >= 2.0:
            pygame.draw.aacircle(target, color, (ix, iy), r, max(1, round(1.4 * scale)))
    elif mark == "hatch":
        _hatch(target, pts, color, max(3.0, 5.0 * scale), max(1, round(scale)))


def _hatch(target: pygame.Surface, pts: list[Point], color: Color, spacing: float, width: int) -> None:
    """Lines at 45 degrees, ``spacing`` pixels apart, clipped exactly to the triangle."""
    k = [p[0] + p[1] for p in pts]  # the hatch lines are x + y = c
    c = (math.floor(min(k) / spacing) + 1) * spacing
    while c < max(k):
        ends: list[Point] = []
        for q in range(3):
            p0, p1 = pts[q], pts[(q + 1) % 3]
            k0, k1 = k[q], k[(q + 1) % 3]
            if (k0 - c) * (k1 - c) <= 0 and k0 != k1:
                t = (c - k0) / (k1 - k0)
                ends.append((p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t))
        if len(ends) >= 2:
            ends.sort()
            pygame.draw.aaline(target, color, ends[0], ends[-1], width)
        c += spacing
