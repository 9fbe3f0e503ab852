"""The prefetch hint (triangles.ai.prefetch) changes nothing but when a row is loaded."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from triangles.ai.prefetch import prefetch_row


@numba.njit
def _sum_after_prefetching(table: np.ndarray) -> int:
    s = 0
    for r in range(table.shape[0]):
        prefetch_row(table, (r * 7919) % table.shape[0])
    for r in range(table.shape[0]):
        s += table[r, 0] + table[r, 1]
    return s


def test_prefetching_rows_leaves_the_table_and_its_reading_unchanged():
    table = np.arange(64 * 3, dtype=np.int64).reshape(64, 3)
    before = table.copy()
    assert _sum_after_prefetching(table) == int(table[:, :2].sum())
    assert np.array_equal(table, before)


def test_prefetch_wants_a_table_of_rows():
    @numba.njit
    def flat(a: np.ndarray) -> None:
        prefetch_row(a, 0)

    with pytest.raises(numba.core.errors.TypingError):
        flat(np.zeros(4, np.int64))
