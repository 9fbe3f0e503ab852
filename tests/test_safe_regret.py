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
