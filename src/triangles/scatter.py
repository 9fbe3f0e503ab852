"""Reproducible star scatters: Poisson-disk style dart throwing.

Only PCG64 uniform doubles, + - * / and rounding are used (no trigonometry or
platform maths), so a seed gives the same stars on every machine.
"""

from __future__ import annotations

import math
import operator

import numpy as np

__all__ = ["poisson_scatter", "whole_number"]

#: coordinates are rounded to this many decimals so records stay short and exact
DECIMALS = 2


def poisson_scatter(n: int, width: float, height: float, seed: int, tolerance: float = 3.0) -> np.ndarray:
    """``n`` points in ``[0, width] x [0, height]`` at least a spacing apart.

    The spacing starts at 0.7 * sqrt(area / n) (random sequential packing
    saturates near 0.83), never below four times the tolerance plus one unit,
    and shrinks by 5 % after a run of failed darts so the call always finishes.
    Stars keep half a spacing from the edges, where they would be hard to hit.
    """
    n = whole_number(n, "the number of stars")
    seed = whole_number(seed, "the seed")
    try:
        width = float(width)
        height = float(height)
    except (TypeError, ValueError):
        raise ValueError(f"the board size must be numbers, got {width!r} x {height!r}") from None
    if n < 0:
        raise ValueError(f"the number of stars must be >= 0, got {n}")
    if not (math.isfinite(width) and math.isfinite(height)) or width <= 0 or height <= 0:
        raise ValueError(f"the board must have a positive size, got {width} x {height}")
    if seed < 0:
        raise ValueError(f"the seed must be >= 0, got {seed}")
    if n == 0:
        return np.empty((0, 2))
    rng = np.random.Generator(np.random.PCG64(seed))
    spacing = 0.7 * math.sqrt(width * height / n)
    floor = 4.0 * float(tolerance) + 1.0
    while True:
        margin = min(spacing / 2.0, width / 4.0, height / 4.0)
        pts = _throw(rng, n, width, height, margin, spacing)
        if pts is not None:
            return pts
        spacing *= 0.95
        if spacing < floor:
            spacing = floor
            pts = _throw(rng, n, width, height, margin, spacing, attempts=200_000)
            if pts is None:
                raise ValueError(f"{n} stars do not fit on a {width:g} x {height:g} board at a spacing of {floor:g}")
            return pts


def whole_number(v: object, what: str) -> int:
    """``v`` as an int (numpy integers too, not floats or strings); ValueError naming ``what``."""
    try:
        return operator.index(v)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{what} must be a whole number, got {v!r}") from None


def _throw(
    rng: np.random.Generator,
    n: int,
    width: float,
    height: float,
    margin: float,
    spacing: float,
    attempts: int | None = None,
) -> np.ndarray | None:
    """Dart throwing with a uniform grid of cell size spacing/1.5 (one point a cell)."""
    cell = spacing / 1.5
    gw = int(width / cell) + 1
    gh = int(height / cell) + 1
    grid = -np.ones((gh, gw), dtype=np.int64)
    pts = np.empty((n, 2))
    count = 0
    budget = attempts if attempts is not None else 60 * n + 2000
    span_x = width - 2 * margin
    span_y = height - 2 * margin
    sp2 = spacing * spacing
    while count < n and budget > 0:
        batch = rng.random((256, 2))
        for u, v in batch:
            budget -= 1
            x = round(margin + u * span_x, DECIMALS)
            y = round(margin + v * span_y, DECIMALS)
            gx = int(x / cell)
            gy = int(y / cell)
            ok = True
            for yy in range(max(gy - 2, 0), min(gy + 3, gh)):
                for xx in range(max(gx - 2, 0), min(gx + 3, gw)):
                    k = grid[yy, xx]
                    if k >= 0:
                        dx = pts[k, 0] - x
                        dy = pts[k, 1] - y
                        if dx * dx + dy * dy < sp2:
                            ok = False
                            break
                if not ok:
                    break
            if ok:
                pts[count] = (x, y)
                grid[gy, gx] = count
                count += 1
                if count == n:
                    return pts
            if budget <= 0:
                break
    return None
