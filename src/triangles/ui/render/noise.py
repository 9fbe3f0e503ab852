"""Seeded value noise with numpy, for the generated nebula.

A hashed integer lattice (no stored tables) gives the same noise at the same
design-point coordinates whatever the window size, so a resized window shows
the same sky, only scaled.  Everything is vectorised: one call shades a whole
low-resolution grid at once.
"""

from __future__ import annotations

import numpy as np

__all__ = ["value_noise", "fbm"]

_M1 = np.uint32(0x27D4EB2D)
_M2 = np.uint32(0x165667B1)
_M3 = np.uint32(0x85EBCA6B)


def _hash(ix: np.ndarray, iy: np.ndarray, seed: int) -> np.ndarray:
    """Lattice value in [0, 1) for integer coordinates (wrapping uint32 arithmetic)."""
    h = ix.astype(np.uint32) * _M1 ^ iy.astype(np.uint32) * _M2 ^ np.uint32(seed * 2654435761 & 0xFFFFFFFF)
    h ^= h >> np.uint32(15)
    h *= _M3
    h ^= h >> np.uint32(13)
    h *= _M1
    h ^= h >> np.uint32(16)
    return (h >> np.uint32(8)).astype(np.float32) * np.float32(1.0 / (1 << 24))


def value_noise(x: np.ndarray, y: np.ndarray, seed: int) -> np.ndarray:
    """Smooth noise in [0, 1] at float coordinates (lattice spacing 1)."""
    fx, fy = np.floor(x), np.floor(y)
    ix, iy = fx.astype(np.int64), fy.astype(np.int64)
    tx, ty = (x - fx).astype(np.float32), (y - fy).astype(np.float32)
    tx = tx * tx * (3 - 2 * tx)
    ty = ty * ty * (3 - 2 * ty)
    with np.errstate(over="ignore"):
        a = _hash(ix, iy, seed)
        b = _hash(ix + 1, iy, seed)
        c = _hash(ix, iy + 1, seed)
        d = _hash(ix + 1, iy + 1, seed)
    top = a + (b - a) * tx
    bot = c + (d - c) * tx
    return top + (bot - top) * ty


def fbm(x: np.ndarray, y: np.ndarray, seed: int, octaves: int = 5, gain: float = 0.5) -> np.ndarray:
    """Fractal sum of ``octaves`` noise layers, normalised to about [0, 1]."""
    total = np.zeros(np.broadcast(x, y).shape, np.float32)
    amp, freq, norm = 1.0, 1.0, 0.0
    for o in range(octaves):
        total += np.float32(amp) * value_noise(x * freq + o * 17.31, y * freq - o * 9.77, seed + 101 * o)
        norm += amp
        amp *= gain
        freq *= 2.03
    return total / np.float32(norm)
