"""Fit the leaf model (``assets/ai/leaf_model.json``) to exact values of small boards.

The positions are the *leaves* of hard's safe-line samples, where no line is safe
any more: on each seeded phone board the greedy game is played until nothing can be
taken, at least 3 lines are safe and few are legal (``safe_regret.safe_position``);
from there every safe line is sampled as ``phase.safe_phase_round`` samples it (both
sides take, else draw the safe line a round's dice rank first) until nothing is
safe, and that leaf is solved exactly over its regions.  Each leaf (its board, lines
and exact value) is written to a JSON-lines file as it is found, so a run can be
stopped and resumed, and refitting does not solve anything again.

The fit: ``phase.leaf_features`` of every leaf (numba's dice seeded by its row), then
boosted regression trees (scikit-learn's ``HistGradientBoostingRegressor``, seeded),
written as plain arrays that the game walks without scikit-learn (``ai/trees.py``).
A tenth of the boards is held out to print the model's error beside the playout's.

    .venv/bin/pip install scikit-learn          # only for this tool: the game never needs it
    python tools/train_leaf_model.py --data leaves.jsonl [--procs 2]

With the defaults (14 stars: boards 1000-1599, 16 stars: 2000-2399) the leaves take
about 10 minutes on two cores and the fit under a minute.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # this checkout's game first
sys.path.insert(0, str(ROOT / "benchmarks"))  # safe_regret.py, give_estimates.py

#: (stars, first board, boards, most legal lines where the samples start)
SETS = ((14, 1000, 600, 36), (16, 2000, 400, 40))
ROUNDS = 3  # sample rounds (dice) per starting position
BUDGET = 60_000_000  # node budget of one exact solve (a leaf over it is skipped)
STATES = 3_000_000  # region states one solve may explore


def leaves_of(stars: int, board_seed: int, legal: int) -> list[dict[str, Any]]:
    """Every distinct leaf of one board's samples, with its exact value."""
    from give_estimates import exact_value
    from safe_regret import safe_position
    from triangles.ai.baselines import move_table
    from triangles.presets import get_preset

    board = get_preset("phone").make_board(stars, board_seed)
    found = safe_position(board, False, board_seed, 3, legal)
    if found is None:
        return []
    g, safe = found
    seen: set[tuple[tuple[int, int], ...]] = set()
    out: list[dict[str, Any]] = []
    for r in range(ROUNDS):
        prio = np.random.default_rng((board_seed, r, 7)).random(board.arrays.pi.shape[0])
        for p in safe:
            c = g.clone()
            q = p
            while q >= 0 and not c.is_over():
                c.play(*c.board.pair(q))
                pairs, closes, gives = move_table(c.board.arrays, c.arrays())
                if closes.max(initial=0) > 0:  # the cascade's take: most closed, then fewest given
                    q = int(pairs[int(np.argmax(closes.astype(np.int64) * 1024 - gives))])
                else:
                    ids = pairs[(closes == 0) & (gives == 0)]
                    q = int(max(ids, key=lambda x: float(prio[x]))) if len(ids) else -1
            key = tuple(sorted((min(m), max(m)) for m in c.moves))
            if c.is_over() or key in seen:
                continue
            seen.add(key)
            value = exact_value(c, c.arrays(), BUDGET, STATES)
            if value is not None:
                out.append({"stars": stars, "board": board_seed, "moves": [list(m) for m in c.moves], "value": value})
    return out


def _job(args: tuple[int, int, int]) -> list[dict[str, Any]]:
    return leaves_of(*args)


def generate(data: Path, procs: int) -> None:
    """Solve the leaves of every board of :data:`SETS` not yet in ``data`` (appending)."""
    done: set[tuple[int, int]] = set()
    if data.exists():
        for line in data.read_text().splitlines():
            row = json.loads(line)
            done.add((row["stars"], row["board"]))
    jobs = [(s, b, legal) for s, first, n, legal in SETS for b in range(first, first + n) if (s, b) not in done]
    print(f"{len(jobs)} boards to sample", flush=True)
    with data.open("a") as f, ProcessPoolExecutor(procs) as pool:
        for k, rows in enumerate(pool.map(_job, jobs, chunksize=4)):
            for row in rows:
                f.write(json.dumps(row) + "\n")
            f.flush()
            if k % 100 == 99:
                print(f"  {k + 1} boards", flush=True)


def features(rows: list[dict[str, Any]]) -> np.ndarray:
    """``phase.leaf_features`` of every row (the ranked playouts' dice seeded by the row)."""
    from triangles.ai import phase
    from triangles.presets import get_preset
    from triangles.rules import Game

    X = np.zeros((len(rows), len(phase.LEAF_FEATURES)))
    boards: dict[tuple[int, int], Any] = {}
    for i, row in enumerate(rows):
        key = (row["stars"], row["board"])
        if key not in boards:
            boards[key] = get_preset("phone").make_board(*key)
        g = Game.from_moves(boards[key], row["moves"])
        phase.seed_dice(i)
        phase.leaf_features(g.board.arrays, g.arrays(), X[i])
    return X


def fit(X: np.ndarray, y: np.ndarray) -> Any:
    try:
        from sklearn.ensemble import HistGradientBoostingRegressor  # type: ignore[import-not-found]
    except ImportError:
        sys.exit("this tool needs scikit-learn: .venv/bin/pip install scikit-learn")
    model = HistGradientBoostingRegressor(
        max_iter=300, learning_rate=0.05, max_leaf_nodes=15, early_stopping=False, random_state=0
    )
    return model.fit(X, y)


def export(model: Any, positions: int, stars: list[int]) -> dict[str, Any]:
    """The model file's contents (see ``triangles.ai.leaf_model``)."""
    from triangles.ai import leaf_model, phase

    trees = []
    for (tree,) in model._predictors:  # one tree an iteration for a regression
        nodes = tree.nodes
        leaf = nodes["is_leaf"].astype(bool)
        trees.append(
            {
                "feature": [0 if x else int(f) for f, x in zip(nodes["feature_idx"], leaf, strict=True)],
                "threshold": [0.0 if x else float(t) for t, x in zip(nodes["num_threshold"], leaf, strict=True)],
                "left": [-1 if x else int(c) for c, x in zip(nodes["left"], leaf, strict=True)],
                "right": [-1 if x else int(c) for c, x in zip(nodes["right"], leaf, strict=True)],
                "value": [float(v) if x else 0.0 for v, x in zip(nodes["value"], leaf, strict=True)],
            }
        )
    return {
        "format": leaf_model.FORMAT,
        "version": leaf_model.VERSION,
        "features": list(phase.LEAF_FEATURES),
        "trained": {"positions": positions, "stars": stars, "tool": "tools/train_leaf_model.py"},
        "base": float(np.ravel(model._baseline_prediction)[0]),
        "trees": trees,
    }


def _errors(name: str, pred: np.ndarray, y: np.ndarray) -> None:
    e = pred - y
    print(f"  {name:8s} mean |error| {np.abs(e).mean():.2f}  correlation {np.corrcoef(pred, y)[0, 1]:.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True, help="the leaves, JSON lines (made or extended first)")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "assets" / "ai" / "leaf_model.json")
    args = ap.parse_args(argv)

    from triangles.ai import leaf_model, trees

    generate(args.data, args.procs)
    rows = [json.loads(line) for line in args.data.read_text().splitlines()]
    X = features(rows)
    y = np.array([row["value"] for row in rows], np.float64)
    held = np.array([row["board"] % 10 == 9 for row in rows])
    print(f"{len(rows)} leaves; held out (boards ending in 9): {int(held.sum())}")
    check = fit(X[~held], y[~held])
    _errors("playout", X[held, 0], y[held])
    _errors("model", check.predict(X[held]), y[held])
    model = fit(X, y)
    doc = export(model, len(rows), sorted({row["stars"] for row in rows}))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    shipped = leaf_model.load_leaf_model(args.out)
    walked = np.array([trees.predict(shipped, x) for x in X])
    print(
        f"wrote {args.out}: {len(doc['trees'])} trees; largest difference from scikit-learn's "
        f"prediction {np.abs(walked - model.predict(X)).max():.2e}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
