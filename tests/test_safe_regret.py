"""The safe-line regret benchmark (benchmarks/safe_regret.py) values lines the way the solver values positions."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import safe_regret  # noqa: E402
from triangles.ai import solve  # noqa: E402
from triangles.ai.baselines import greedy_move  # noqa: E402
from triangles.presets import get_preset  # noqa: E402
from triangles.rules import Game  # noqa: E402


@pytest.mark.parametrize("states", [0, 1_000_000])
@pytest.mark.parametrize("extra", [False, True])
def test_the_best_line_value_is_the_position_value(extra: bool, states: int) -> None:
    """A position's exact value is the best of its lines' values (mover's points after the line),
    solved on the whole board or over the regions."""
    for seed in (3, 4):
        g = Game(get_preset("phone").make_board(10, seed), extra)
        rng = np.random.default_rng(seed)
        while g.legal_count() > 14:
            g.play(*greedy_move(g, rng))
        values: dict[int, int | None] = {}
        got = [safe_regret.line_value(g, g.board.pair_id(*m), values, 5_000_000, states) for m in g.legal_moves()]
        assert None not in got and len(values) == g.legal_count()
        assert max(v for v in got if v is not None) == solve(g)


def test_regrets_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert safe_regret.main(["easy", "--stars", "10", "--legal", "20", "--boards", "6", "--min-safe", "2"]) == 0
    out = capsys.readouterr().out
    assert "positions where the safe lines differ" in out
    rows = [line.split() for line in out.splitlines() if "mean regret" in line]
    assert [r[0] for r in rows] == ["random", "easy"]
    assert all(float(r[3]) >= 0 for r in rows)


def test_a_bad_player_name_gets_the_parser_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        safe_regret.main(["bogus", "--boards", "1"])
    assert exc.value.code == 2 and "unknown player 'bogus'" in capsys.readouterr().err


def test_leaf_regret_values_leaves_as_the_solver_and_the_playout_do(capsys: pytest.CaptureFixture[str]) -> None:
    """Where a safe line leaves nothing safe and nothing to take, the sample's leaf is the
    position right after it: its exact row is the line's exact value, its playout row the
    playout there (its ranked row the playout with the sample's dice breaking its ties),
    and its one-line-ahead row the best line there valued by its points plus the playout
    after it (played on clones); its 4 and 8 lines ahead rows the best of the 4
    and 8 lines cheapest to open (``phase.leaf_value``).  The summary has a row for every
    leaf and for a random line."""
    import leaf_regret
    from triangles.ai import phase
    from triangles.ai.baselines import move_table

    checked = 0
    for b in range(12):
        g = Game(get_preset("phone").make_board(10, b))
        rng = np.random.default_rng(b)
        while not g.is_over():  # greedy lines to the last safe lines, with nothing to take
            pairs, closes, gives = move_table(g.board.arrays, g.arrays())
            safe = [int(p) for p in pairs[(closes == 0) & (gives == 0)]]
            if closes.max() == 0 and 1 <= len(safe) <= 2:
                break
            g.play(*greedy_move(g, rng))
        if g.is_over() or not safe:
            continue
        prio = np.asarray(np.random.default_rng(b).random(g.board.arrays.pi.shape[0]))
        for p in safe:
            child = g.clone()
            child.play(*g.board.pair(p))
            _, closes, gives = move_table(child.board.arrays, child.arrays())
            got = leaf_regret.sample(g, p, prio, 5_000_000, 1_000_000)
            assert got is not None and len(got) == len(leaf_regret.LEAVES)
            if child.is_over() or closes.max() > 0 or ((closes == 0) & (gives == 0)).any():
                continue
            row = dict(zip(leaf_regret.LEAVES, got, strict=True))
            assert row["exact"] == safe_regret.line_value(g, p, {}, 5_000_000, 1_000_000)
            assert row["playout"] == -phase.playout(child.board.arrays, child.arrays(), 8)[0]
            assert row["playout, ranked"] == -phase.playout_ranked(child.board.arrays, child.arrays(), 8, prio)[0]
            # every line of the leaf, valued on clones, cheapest to open first (fewest given, lowest pair id)
            pairs, closes, gives = move_table(child.board.arrays, child.arrays())
            order = sorted(range(len(pairs)), key=lambda t: (int(gives[t]), int(pairs[t])))
            ahead = []
            for t in order:
                grand = child.clone()
                closed = len(grand.play(*child.board.pair(int(pairs[t]))))
                rest = 0 if grand.is_over() else int(phase.playout(grand.board.arrays, grand.arrays(), 8)[0])
                ahead.append(closed + (rest if grand.player == child.player else -rest))
            assert row["one line ahead"] == -max(ahead)
            assert row["4 lines ahead"] == -max(ahead[:4]) and row["8 lines ahead"] == -max(ahead[:8])
            checked += 1
    assert checked >= 3
    assert leaf_regret.main(["--stars", "10", "--legal", "24", "--boards", "6", "--seed", "0", "--samples", "2"]) == 0
    out = capsys.readouterr().out
    for name in (*leaf_regret.LEAVES, "random line"):
        assert f"  {name}" in out
