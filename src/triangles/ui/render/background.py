"""The generated background: a nebula (soft colour clouds and faint far stars) or paper.

Made once per (board seed, window size) with numpy and cached by the view; it is
never redrawn per frame.  Clouds are shaded on a grid four times coarser than
the window (they are soft, so nothing is lost), upsampled in float and dithered
before rounding to 8 bits so dark gradients do not band.  All coordinates are
design points, so resizing the window scales the same sky.  A theme whose
``background.kind`` is ``"paper"`` gets a light sheet instead: the same
gradient, faint stains in the cloud colours, a darkened edge and a fibre grain
(``dust``), with no tone mapping, so the paper stays as light as the theme says.
"""

from __future__ import annotations

import numpy as np
import pygame

from triangles.ui.render.noise import fbm, value_noise
from triangles.ui.render.theme import BackgroundStyle
from triangles.ui.render.viewport import Viewport

__all__ = ["make_background", "nebula_rgb", "paper_rgb"]

_COARSE = 4  # window pixels per cloud sample


def _c(color: tuple[int, int, int]) -> np.ndarray:
    return np.asarray(color, np.float32) / 255.0


def _upsample(a: np.ndarray, w: int, h: int) -> np.ndarray:
    """Bilinear resize of an (h0, w0, c) float32 array to (h, w, c), kept in float32."""
    h0, w0 = a.shape[:2]
    f32 = np.float32

    def axis(n: int, n0: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        t = np.clip((np.arange(n, dtype=f32) + f32(0.5)) * f32(n0 / n) - f32(0.5), 0, n0 - 1)
        i0 = np.minimum(t.astype(np.intp), max(n0 - 2, 0))
        return i0, np.minimum(i0 + 1, n0 - 1), (t - i0.astype(f32)).astype(f32)

    y0, y1, wy = axis(h, h0)
    x0, x1, wx = axis(w, w0)
    # columns first on the small array, then whole rows (contiguous gathers are fast)
    left = a[:, x0]
    cols = left + (a[:, x1] - left) * wx[None, :, None]  # (h0, w, c)
    top = cols[y0]
    top += (cols[y1] - top) * wy[:, None, None]
    return top


def nebula_rgb(style: BackgroundStyle, viewport: Viewport, seed: int) -> np.ndarray:
    """The sky as an (h, w, 3) float32 array in [0, 1] (row-major)."""
    w, h = viewport.window_size
    s = viewport.scale
    dw, dh = viewport.design_size
    ref = float(max(dw, dh))  # cloud sizes follow the design, not the window
    cw, ch = max(2, -(-w // _COARSE)), max(2, -(-h // _COARSE))
    px = (np.arange(cw, dtype=np.float32) + 0.5) * (w / cw)
    py = (np.arange(ch, dtype=np.float32) + 0.5) * (h / ch)
    dx = (px - viewport.offset[0]) / s  # design points
    dy = (py - viewport.offset[1]) / s
    X, Y = np.meshgrid(dx / ref, dy / ref)  # ~0..1 across the design
    rng = np.random.default_rng([style.seed, seed])
    base_seed = int(rng.integers(1 << 30))

    # background: vertical gradient
    t = np.clip(Y * (ref / dh), 0, 1)[..., None]
    rgb = _c(style.top) * (1 - t) + _c(style.bottom) * t

    # domain-warped fractal clouds, one field per colour, each gathered near a few centres
    f = 3.2 / style.cloud_scale
    wx = fbm(X * f, Y * f, base_seed + 1, 4)
    wy = fbm(X * f + 5.2, Y * f + 1.3, base_seed + 2, 4)
    WX, WY = X + 0.35 * style.cloud_scale * (wx - 0.5), Y + 0.35 * style.cloud_scale * (wy - 0.5)
    light = np.zeros_like(rgb)
    density = np.zeros(X.shape, np.float32)
    aspect_w, aspect_h = dw / ref, dh / ref
    for k, col in enumerate(style.clouds):
        n = fbm(WX * f * 1.3, WY * f * 1.3, base_seed + 10 + k, 6)
        n = np.clip((n - 0.38) * 2.4, 0, None) ** 1.6
        mask = np.zeros(X.shape, np.float32)
        for _ in range(2):
            cx, cy = rng.uniform(-0.1, 1.1) * aspect_w, rng.uniform(-0.1, 1.1) * aspect_h
            r = rng.uniform(0.25, 0.5) * style.cloud_scale
            mask += np.exp(-((X - cx) ** 2 + (Y - cy) ** 2) / (2 * r * r)).astype(np.float32)
        field = n * np.minimum(mask, 1.2)
        density += field
        light += field[..., None] * _c(col)
    rgb = rgb + style.cloud_strength * light

    # bright thin dust filaments where the clouds are dense (ridged noise)
    ridge = 1 - np.abs(2 * fbm(WX * f * 2.2, WY * f * 2.2, base_seed + 50, 5) - 1)
    ridge = ridge**6 * np.clip(density, 0, 1)
    rgb = rgb + style.dust_strength * ridge[..., None] * _c(style.dust)

    # vignette towards the window corners, then soft tone mapping
    cxw, cyw = (dw / 2) / ref, (dh / 2) / ref
    r2 = ((X - cxw) / (aspect_w * 0.5)) ** 2 + ((Y - cyw) / (aspect_h * 0.5)) ** 2
    rgb = rgb * (1 - style.vignette * np.clip(r2 * 0.5, 0, 1))[..., None]
    rgb = 1 - np.exp(-rgb * 1.15)

    full = _upsample(rgb.astype(np.float32), w, h)
    _far_stars(full, style, viewport, rng)
    return full


def paper_rgb(style: BackgroundStyle, viewport: Viewport, seed: int) -> np.ndarray:
    """A sheet of paper as an (h, w, 3) float32 array in [0, 1]: gradient, stains, edge, fibres."""
    w, h = viewport.window_size
    s = viewport.scale
    dw, dh = viewport.design_size
    ref = float(max(dw, dh))
    cw, ch = max(2, -(-w // _COARSE)), max(2, -(-h // _COARSE))
    px = (np.arange(cw, dtype=np.float32) + 0.5) * (w / cw)
    py = (np.arange(ch, dtype=np.float32) + 0.5) * (h / ch)
    X, Y = np.meshgrid((px - viewport.offset[0]) / s / ref, (py - viewport.offset[1]) / s / ref)
    rng = np.random.default_rng([style.seed, seed])
    base_seed = int(rng.integers(1 << 30))
    t = np.clip(Y * (ref / dh), 0, 1)[..., None]
    rgb = _c(style.top) * (1 - t) + _c(style.bottom) * t
    # faint stains: large soft patches, each colour pulling the paper a little towards it
    f = 3.2 / style.cloud_scale
    for k, col in enumerate(style.clouds):
        n = fbm(X * f, Y * f, base_seed + 10 + k, 5)
        a = (style.cloud_strength * 0.3 * np.clip((n - 0.45) * 2.5, 0, 1))[..., None]
        rgb = rgb * (1 - a) + _c(col) * a
    # the edge of the sheet a shade darker
    aspect_w, aspect_h = dw / ref, dh / ref
    r2 = ((X - aspect_w / 2) / (aspect_w * 0.5)) ** 2 + ((Y - aspect_h / 2) / (aspect_h * 0.5)) ** 2
    rgb = rgb * (1 - 0.25 * style.vignette * np.clip(r2 * 0.5, 0, 1))[..., None]
    full = _upsample(rgb.astype(np.float32), w, h)
    # fibres: noise stretched along x (long thin streaks), plus the paper's fine tooth
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    fib = value_noise(xx / (9.0 * s), yy / (1.4 * s), base_seed + 77) - 0.5
    tooth = rng.random((h, w), dtype=np.float32) - 0.5
    grain = (fib * 0.8 + tooth * 0.35) * style.dust_strength
    full += grain[..., None] * _c(style.dust)
    return np.clip(full, 0, 1)


def _far_stars(img: np.ndarray, style: BackgroundStyle, viewport: Viewport, rng: np.random.Generator) -> None:
    """Add faint, tinted pin-point stars (a few with a tiny halo) in place."""
    h, w = img.shape[:2]
    s = viewport.scale
    area = (w / s) * (h / s)  # in design points, so density is per design area
    n = int(style.far_stars_per_megapixel * area / 1e6)
    if n <= 0:
        return
    x = rng.uniform(0, w - 1, n)
    y = rng.uniform(0, h - 1, n)
    lo, hi = style.far_star_brightness
    b = lo + (hi - lo) * rng.random(n) ** 3.0  # many dim, few bright
    tints = np.stack([_c(c) for c in style.far_star_tints])
    tint = tints[rng.integers(0, len(tints), n)]
    ix, iy = x.astype(np.int64), y.astype(np.int64)
    fx, fy = (x - ix)[:, None], (y - iy)[:, None]
    col = b[:, None] * tint
    # bilinear splat: sub-pixel positions make stars look round rather than square
    for ox, oy, wgt in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
        xx, yy = np.minimum(ix + ox, w - 1), np.minimum(iy + oy, h - 1)
        np.add.at(img, (yy, xx), (col * wgt * 1.6).astype(np.float32))
    big = b > lo + 0.6 * (hi - lo)
    for ox, oy in ((-1, 0), (1, 0), (0, -1), (0, 1), (2, 0), (0, 2), (-1, 1), (1, -1)):
        xx = np.clip(ix[big] + ox, 0, w - 1)
        yy = np.clip(iy[big] + oy, 0, h - 1)
        np.add.at(img, (yy, xx), (col[big] * 0.18).astype(np.float32))


def make_background(style: BackgroundStyle, viewport: Viewport, seed: int) -> pygame.Surface:
    """The sky (or paper) as an opaque 24-bit Surface the size of the window (dithered to 8 bits).

    Convert it to the target's pixel format before blitting it every frame."""
    rgb = paper_rgb(style, viewport, seed) if style.kind == "paper" else nebula_rgb(style, viewport, seed)
    rng = np.random.default_rng([style.seed, seed, 99])
    dither = rng.random(rgb.shape[:2], dtype=np.float32)[..., None] - 0.5
    out = np.clip(rgb * 255.0 + dither, 0, 255).astype(np.uint8)
    w, h = viewport.window_size
    return pygame.image.frombuffer(np.ascontiguousarray(out).tobytes(), (w, h), "RGB").copy()
