"""Pre-rendered sprites: star glows and the additive line glow.

Soft shapes are expensive to draw per pixel but cheap to blit, so each star
look is rendered once per scale with numpy as an RGB image on black and later
added onto the board with ``BLEND_RGB_ADD`` (light adds up, like real glow).
A theme whose ``stars.blend`` is ``"ink"`` (dark marks on a light paper) gets
per-pixel-alpha sprites instead, laid over the board (:func:`blend_flags`).

:func:`star_core_px` and :func:`line_px` are the sizes the renderer really
draws at a scale; the clearance test checks the rules' tolerance against them.
"""

from __future__ import annotations

import numpy as np
import pygame

from triangles.ui.render.theme import Color, StarStyle

__all__ = ["star_sprite", "ring_sprite", "mix", "lighten", "scaled", "star_core_px", "line_px", "blend_flags"]


def star_core_px(radius: float, scale: float) -> float:
    """Radius in pixels of a star's drawn core (its anti-aliased edge is 50 % covered there)."""
    return max(1.2, radius * scale)


def line_px(width: float, scale: float) -> int:
    """Width in pixels of a line drawn ``width`` design points wide (pygame draws whole pixels)."""
    return max(1, round(width * scale))


def blend_flags(blend: str) -> int:
    """The blit flags for a sprite made for ``stars.blend``: light is added, ink is laid over."""
    return pygame.BLEND_RGB_ADD if blend == "add" else 0


def mix(a: Color, b: Color, t: float) -> Color:
    """Linear blend a -> b by t in [0, 1]."""
    return (
        int(round(a[0] + (b[0] - a[0]) * t)),
        int(round(a[1] + (b[1] - a[1]) * t)),
        int(round(a[2] + (b[2] - a[2]) * t)),
    )


def lighten(c: Color, t: float) -> Color:
    return mix(c, (255, 255, 255), t)


def scaled(c: Color, k: float) -> Color:
    r, g, b = (max(0, min(255, int(round(v * k)))) for v in c)
    return r, g, b


def _to_surface(rgb: np.ndarray) -> pygame.Surface:
    h, w = rgb.shape[:2]
    out = np.clip(rgb * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return pygame.image.frombuffer(np.ascontiguousarray(out).tobytes(), (w, h), "RGB").copy()


def _ink_surface(color: Color, alpha: np.ndarray) -> pygame.Surface:
    """One colour with a per-pixel alpha (0..1): an ink mark to lay over the board."""
    h, w = alpha.shape
    out = np.empty((h, w, 4), np.uint8)
    out[..., :3] = np.asarray(color, np.uint8)
    out[..., 3] = np.clip(alpha * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return pygame.image.frombuffer(out.tobytes(), (w, h), "RGBA").copy()


def star_sprite(style: StarStyle, tint: Color, scale: float, boost: float = 1.0) -> tuple[pygame.Surface, int]:
    """An additive star: bright anti-aliased core, tight halo and a wide soft glow.

    Returns the sprite and its half-size (blit it at centre - half) with
    :func:`blend_flags`; an ``"ink"`` star is a dark disc with a faint bleed.
    """
    r_core = star_core_px(style.radius, scale)
    r_glow = max(r_core * 2.5, style.glow_radius * scale)
    half = int(np.ceil(r_glow)) + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    d = np.sqrt(xx * xx + yy * yy)
    core = np.clip(r_core + 0.5 - d, 0, 1)  # anti-aliased disc
    halo = np.exp(-((d / (r_core * 1.6)) ** 2)) * 0.9
    sigma = r_glow / 2.6
    glow = np.exp(-0.5 * (d / sigma) ** 2) * style.glow_strength
    glow *= np.clip((r_glow - d) / (0.35 * r_glow), 0, 1)  # fade to exactly 0 at the edge
    if style.blend == "ink":
        # ink soaks a little into the paper around the dot: a thin dark rim fading out
        return _ink_surface(tint, np.clip(np.maximum(core, np.maximum(halo * 0.25, glow)), 0, 1)), half
    t = np.asarray(tint, np.float32) / 255.0
    g = np.asarray(style.glow_color, np.float32) / 255.0
    rgb = (core + halo)[..., None] * t + glow[..., None] * g
    return _to_surface(rgb * boost), half


def ring_sprite(
    color: Color, radius: float, width: float, softness: float = 1.0, blend: str = "add"
) -> tuple[pygame.Surface, int]:
    """An additive ring (hover/selection highlight): a crisp anti-aliased band with a
    faint halo, empty inside so the star stays visible (an ink ring with ``blend="ink"``)."""
    half = int(np.ceil(radius + width + 4 * softness)) + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    d = np.sqrt(xx * xx + yy * yy)
    ring = np.clip(width / 2 + 0.5 - np.abs(d - radius), 0, 1)
    halo = np.exp(-(((d - radius) / (width / 2 + 1.5 * softness)) ** 2)) * 0.28
    if blend == "ink":
        return _ink_surface(color, np.maximum(ring, halo)), half
    c = np.asarray(color, np.float32) / 255.0
    return _to_surface(np.maximum(ring, halo)[..., None] * c), half
