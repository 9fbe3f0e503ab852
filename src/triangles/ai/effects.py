"""What one line does to the live cells it borders: the count every AI module shares.

Kept apart from the search (:mod:`triangles.ai.engine`) so that the give-phase
model (:mod:`triangles.ai.phase`), which the search's leaves call, and the
baselines can use it without an import cycle.
"""

from __future__ import annotations

import numpy as np

from triangles.jit import njit
from triangles.kernels import BoardArrays, GameArrays

__all__ = ["line_effect"]

#: A whole number in the kernels: numba's int64 (np.int64 in the typing, an int when returned to Python).
I64 = int | np.int64


@njit(inline="always")
def line_effect(S: BoardArrays, D: GameArrays, p: int) -> tuple[I64, I64, I64]:
    """(closes, gives, borders) for the legal pair ``p``.

    Over the live cells ``p`` is a side of: ``closes`` have both other sides
    drawn (scored by drawing ``p``), ``gives`` have one (drawing ``p`` hands the
    next player a closable triangle), ``borders`` counts them all.  A line with
    ``closes == gives == 0`` is *safe*.  The one place this is counted, for the
    search, its ordering and the baselines.
    """
    inc_ptr = S.inc_ptr
    inc_cell = S.inc_cell
    cell_drawn = D.cell_drawn
    cell_blocked = D.cell_blocked
    closes = 0
    gives = 0
    borders = 0
    for t in range(inc_ptr[p], inc_ptr[p + 1]):
        c = inc_cell[t]
        if cell_blocked[c] != 0:
            continue
        d = cell_drawn[c]
        if d == 3:
            continue
        borders += 1
        if d == 2:
            closes += 1
        elif d == 1:
            gives += 1
    return closes, gives, borders
