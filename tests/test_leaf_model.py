"""The leaf model's file (assets/ai/leaf_model.json): checked completely before use,
walked exactly as written, and never able to stop the computer from playing."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from triangles.ai import leaf_model as LM
from triangles.ai import phase
from triangles.ai.trees import NO_TREES, Trees, predict
from triangles.paths import assets_dir


def shipped() -> dict:
    return json.loads((assets_dir() / "ai" / "leaf_model.json").read_text())


def walk(doc: dict, x: np.ndarray) -> float:
    """The model's value by the file's own description, in plain Python."""
    total = doc["base"]
    for tree in doc["trees"]:
        k = 0
        while tree["left"][k] >= 0:
            k = tree["left"][k] if x[tree["feature"][k]] <= tree["threshold"][k] else tree["right"][k]
        total += tree["value"][k]
    return total


def test_shipped_model_loads_and_is_walked_as_written() -> None:
    doc = shipped()
    assert doc["format"] == LM.FORMAT and doc["version"] == LM.VERSION
    assert doc["features"] == list(phase.LEAF_FEATURES)
    trees = LM.load_leaf_model()
    assert isinstance(trees, Trees) and trees.roots.shape[0] == len(doc["trees"]) > 0
    rng = np.random.default_rng(0)
    for _ in range(200):
        x = rng.integers(-6, 40, len(phase.LEAF_FEATURES)).astype(np.float64)
        assert predict(trees, x) == pytest.approx(walk(doc, x), abs=1e-9)
    assert predict(NO_TREES, np.zeros(len(phase.LEAF_FEATURES))) == 0.0


def _broken(change) -> dict:
    doc = copy.deepcopy(shipped())
    change(doc)
    return doc


def _first_split(doc: dict) -> int:
    return next(k for k, c in enumerate(doc["trees"][0]["left"]) if c >= 0)


BROKEN = {
    "format": (lambda d: d.update(format="triangles-record"), "format"),
    "version": (lambda d: d.update(version=2), "version"),
    "features": (lambda d: d["features"].reverse(), "features"),
    "base": (lambda d: d.update(base="1"), "base"),
    "no trees": (lambda d: d.update(trees=[]), "trees"),
    "lengths": (lambda d: d["trees"][0]["value"].pop(), "equally long"),
    "nan": (lambda d: d["trees"][0]["threshold"].__setitem__(0, float("nan")), "finite"),
    "loop": (lambda d: d["trees"][0]["left"].__setitem__(_first_split(d), 0), "after it"),
    "feature": (lambda d: d["trees"][0]["feature"].__setitem__(_first_split(d), 999), "out of range"),
    "not a list": (lambda d: d["trees"][0].update(right="none"), "right"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_model_is_refused_with_its_fault(case: str) -> None:
    change, words = BROKEN[case]
    with pytest.raises(LM.LeafModelError, match=words):
        LM.parse_leaf_model(_broken(change))


def test_an_unreadable_file_names_itself(tmp_path: Path) -> None:
    with pytest.raises(LM.LeafModelError, match="nowhere.json"):
        LM.load_leaf_model(tmp_path / "nowhere.json")
    bad = tmp_path / "model.json"
    bad.write_text("{not json")
    with pytest.raises(LM.LeafModelError, match="model.json"):
        LM.load_leaf_model(bad)


def test_the_computer_plays_on_without_a_usable_model(tmp_path: Path, monkeypatch, capsys) -> None:
    """A broken file is reported once, on stderr, and the samples fall back on the playout."""
    bad = tmp_path / "leaf_model.json"
    bad.write_text(json.dumps(_broken(lambda d: d.update(version=9))))
    monkeypatch.setattr(LM, "model_path", lambda: bad)
    monkeypatch.setattr(LM, "_cached", None)
    assert LM.leaf_trees() is NO_TREES
    assert LM.leaf_trees() is NO_TREES
    err = capsys.readouterr().err
    assert err.count("leaf model is not used") == 1 and "version" in err
