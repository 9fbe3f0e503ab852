"""The leaf model: a learned value of the position where the safe lines run out.

hard chooses among safe lines by sampling their futures to the point where no
line is safe (``phase.safe_phase_round``).  The give-phase playout valued those
leaves with a mean error of about 1.3 triangles on 14-star positions; exact
values would make hard's choice far better (``benchmarks/leaf_regret.py``) but
are out of reach there on larger boards.  This model, boosted regression trees
over ``phase.LEAF_FEATURES`` fitted to exact values of small boards
(``tools/train_leaf_model.py``), estimates them much more closely.

The trees are data, ``assets/ai/leaf_model.json``: a format name and version,
the feature names they were fitted on (which must be the code's, in order), a
base value, and every tree's nodes.  The file is checked completely before use.
"""

from __future__ import annotations

import math
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np

from triangles.ai.phase import LEAF_FEATURES
from triangles.ai.trees import NO_TREES, Trees
from triangles.file_messages import file_problem_text
from triangles.files import FileProblem, read_json
from triangles.paths import assets_dir

__all__ = ["FORMAT", "VERSION", "LeafModelError", "load_leaf_model", "leaf_trees", "model_path"]

FORMAT = "triangles-leaf-model"
VERSION = 1
_MAX_BYTES = 4_000_000
_MAX_NODES = 1 << 20


class LeafModelError(ValueError):
    """The leaf model file is missing or malformed; the message names the field."""


def model_path() -> Path:
    return assets_dir() / "ai" / "leaf_model.json"


def _ints(value: object, field: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise LeafModelError(f"{field} must be a list of whole numbers")
    return value


def _floats(value: object, field: str) -> list[float]:
    if not isinstance(value, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value
    ):
        raise LeafModelError(f"{field} must be a list of finite numbers")
    return [float(v) for v in value]


def _tree(raw: object, field: str, offset: int) -> tuple[list[int], list[float], list[int], list[int], list[float]]:
    """One tree's nodes, checked: children after their parent (so every walk ends at a
    leaf), features within range; node indices shifted by ``offset`` into the flat arrays."""
    if not isinstance(raw, dict):
        raise LeafModelError(f"{field} must be an object")
    feature = _ints(raw.get("feature"), f"{field}.feature")
    threshold = _floats(raw.get("threshold"), f"{field}.threshold")
    left = _ints(raw.get("left"), f"{field}.left")
    right = _ints(raw.get("right"), f"{field}.right")
    value = _floats(raw.get("value"), f"{field}.value")
    n = len(feature)
    if n == 0 or any(len(a) != n for a in (threshold, left, right, value)):
        raise LeafModelError(f"{field}: feature, threshold, left, right and value must be equally long, not empty")
    for k in range(n):
        if left[k] < 0:
            if right[k] >= 0:
                raise LeafModelError(f"{field}: node {k} has a right child but no left one")
            continue
        if not (k < left[k] < n and k < right[k] < n):
            raise LeafModelError(f"{field}: node {k}'s children must come after it, within the tree")
        if not 0 <= feature[k] < len(LEAF_FEATURES):
            raise LeafModelError(f"{field}: node {k}'s feature {feature[k]} is out of range")
    shift = [c + offset if c >= 0 else -1 for c in left], [c + offset if c >= 0 else -1 for c in right]
    return feature, threshold, shift[0], shift[1], value


def parse_leaf_model(data: Any) -> Trees:
    """The trees of a decoded model file, checked completely (LeafModelError names the first fault)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LeafModelError(f"format must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise LeafModelError(f"version must be {VERSION}, got {data.get('version')!r}")
    if data.get("features") != list(LEAF_FEATURES):
        raise LeafModelError("features must be phase.LEAF_FEATURES, in order: the model was fitted on other inputs")
    base = data.get("base")
    if not isinstance(base, (int, float)) or isinstance(base, bool) or not math.isfinite(base):
        raise LeafModelError("base must be a finite number")
    trees = data.get("trees")
    if not isinstance(trees, list) or not trees:
        raise LeafModelError("trees must be a non-empty list")
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    roots: list[int] = []
    for t, raw in enumerate(trees):
        roots.append(len(feature))
        f, th, lo, hi, v = _tree(raw, f"trees[{t}]", len(feature))
        feature += f
        threshold += th
        left += lo
        right += hi
        value += v
        if len(feature) > _MAX_NODES:
            raise LeafModelError(f"more than {_MAX_NODES} nodes")
    return Trees(
        feature=np.array(feature, np.int64),
        threshold=np.array(threshold, np.float64),
        left=np.array(left, np.int64),
        right=np.array(right, np.int64),
        value=np.array(value, np.float64),
        roots=np.array(roots, np.int64),
        base=np.array([base], np.float64),
    )


def load_leaf_model(path: Path | None = None) -> Trees:
    """Read and check the model file (LeafModelError, worded for a person, when it cannot be used)."""
    path = path or model_path()
    try:
        data = read_json(path, _MAX_BYTES, max_depth=4)
    except FileProblem as exc:
        raise LeafModelError(f"{Path(path).name}: {file_problem_text(exc)}") from None
    try:
        return parse_leaf_model(data)
    except LeafModelError as exc:
        raise LeafModelError(f"{Path(path).name}: {exc}") from None


_lock = threading.Lock()
_cached: Trees | None = None


def leaf_trees() -> Trees:
    """The shipped model, loaded once.  If it cannot be used, the reason is printed once and
    :data:`~triangles.ai.trees.NO_TREES` returned: the samples then fall back on the playout,
    so the computer still plays (a little weaker) rather than stop the game."""
    global _cached
    with _lock:
        if _cached is None:
            try:
                _cached = load_leaf_model()
            except LeafModelError as exc:
                print(f"triangles: the computer's leaf model is not used: {exc}", file=sys.stderr)
                _cached = NO_TREES
        return _cached
