"""Pre-rendered sprites: star glows and the additive line glow.

Soft shapes are expensive to draw per pixel but cheap to blit, so each star
look is rendered once per scale with numpy as an RGB image on black and later
added onto the board with ``BLEND_RGB_ADD`` (light adds up, like real glow).
"""

from __future__ import annotations

import numpy as np
import pygame

from triangles.ui.render.theme import Color, StarStyle

__all__ = ["star_sprite", "ring_sprite", "mix", "lighten", "scaled"]


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


def star_sprite(style: StarStyle, tint: Color, scale: float, boost: float = 1.0) -> tuple[pygame.Surface, int]:
    """An additive star: bright anti-aliased core, tight halo and a wide soft glow.

    Returns the sprite and its half-size (blit it at centre - half).
    """
    r_core = max(1.2, style.radius * scale)
    r_glow = max(r_core * 2.5, style.glow_radius * scale)
    half = int(np.ceil(r_glow)) + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    d = np.sqrt(xx * xx + yy * yy)
    core = np.clip(r_core + 0.5 - d, 0, 1)  # anti-aliased disc
    halo = np.exp(-((d / (r_core * 1.6)) ** 2)) * 0.9
    sigma = r_glow / 2.6
    glow = np.exp(-0.5 * (d / sigma) ** 2) * style.glow_strength
    glow *= np.clip((r_glow - d) / (0.35 * r_glow), 0, 1)  # fade to exactly 0 at the edge
    t = np.asarray(tint, np.float32) / 255.0
    g = np.asarray(style.glow_color, np.float32) / 255.0
    rgb = (core + halo)[..., None] * t + glow[..., None] * g
    return _to_surface(rgb * boost), half


def ring_sprite(color: Color, radius: float, width: float, softness: float = 1.0) -> tuple[pygame.Surface, int]:
    """An additive ring (hover/selection highlight): a crisp anti-aliased band with a
    faint halo, empty inside so the star stays visible."""
    half = int(np.ceil(radius + width + 4 * softness)) + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    d = np.sqrt(xx * xx + yy * yy)
    ring = np.clip(width / 2 + 0.5 - np.abs(d - radius), 0, 1)
    halo = np.exp(-(((d - radius) / (width / 2 + 1.5 * softness)) ** 2)) * 0.28
    c = np.asarray(color, np.float32) / 255.0
    return _to_surface(np.maximum(ring, halo)[..., None] * c), half
