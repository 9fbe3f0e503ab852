"""A sum of regression trees, evaluated in numba: the leaf model's arithmetic.

The trees are data (``assets/ai/leaf_model.json``, loaded and checked by
:mod:`triangles.ai.leaf_model`); this module only walks them, so the search's
kernels can value a position without leaving numba.  A model with no trees
(:data:`NO_TREES`) means "no model": the caller keeps its own estimate.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from triangles.jit import njit

__all__ = ["Trees", "NO_TREES", "predict"]


class Trees(NamedTuple):
    """Every node of every tree in flat arrays (numba takes a tuple of arrays as it is).

    Node ``k`` is a leaf when ``left[k] < 0``, with the value ``value[k]``;
    otherwise ``x[feature[k]] <= threshold[k]`` goes to ``left[k]``, else to
    ``right[k]``.  Tree ``t`` starts at ``roots[t]``; the prediction is
    ``base[0]`` plus the values of the leaves reached.
    """

    feature: np.ndarray  # int64
    threshold: np.ndarray  # float64
    left: np.ndarray  # int64
    right: np.ndarray  # int64
    value: np.ndarray  # float64
    roots: np.ndarray  # int64
    base: np.ndarray  # float64, one entry


def _empty_trees() -> Trees:
    ints = np.zeros(0, np.int64)
    return Trees(ints, np.zeros(0), ints, ints, np.zeros(0), ints, np.zeros(1))


#: no trees: the caller's own estimate stands
NO_TREES = _empty_trees()


@njit(nogil=True)
def predict(m: Trees, x: np.ndarray) -> float:
    """The model's value of the feature vector ``x``."""
    total = m.base[0]
    for t in range(m.roots.shape[0]):
        k = m.roots[t]
        while m.left[k] >= 0:
            k = m.left[k] if x[m.feature[k]] <= m.threshold[k] else m.right[k]
        total += m.value[k]
    return total
