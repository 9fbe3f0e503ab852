"""The refutation benchmark (benchmarks/refuters.py): the answers it prints as refuting a root
move are exactly those the exact solver says hold the first mover to the board's value, and
a bad root move is a clear message, never a traceback."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from triangles.ai import solve
from triangles.presets import get_preset
from triangles.rules import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import refuters  # noqa: E402


def test_the_refuting_answers_are_those_the_solver_finds(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(get_preset("phone").make_board(8, 5))
    v0 = solve(game, time_limit=None)
    line = sorted(game.board.pair_id(i, j) for i, j in game.legal_moves())[2]
    after = game.clone()
    lo = len(after.play(*game.board.pair(line))) - v0
    want = set()
    for i, j in after.legal_moves():
        kid = after.clone()
        got = len(kid.play(i, j))
        if got - (0 if kid.is_over() else solve(kid, time_limit=None)) >= lo:
            want.add(after.board.pair_id(i, j))
    assert refuters.main(["--stars", "8", "--board", "5", "--root", "2", "--cap", "0"]) == 0
    out = capsys.readouterr().out
    assert f"value {v0}" in out and "refuted, the search's nodes" in out
    rows = [m.groups() for m in re.finditer(r"^\s+(\d+)\s+(yes|no|capped)\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.M)]
    assert len(rows) == after.legal_count()
    assert {int(a) for a, verdict, *_ in rows if verdict == "yes"} == want
    assert 0 < len(want) < len(rows)  # on this root move some answers refute and some do not
    assert "capped" not in {verdict for _, verdict, *_ in rows}
    assert "times" in out.splitlines()[-1]


def test_a_root_move_off_the_board_is_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        refuters.main(["--stars", "8", "--board", "3", "--root", "999"])
    assert e.value.code == 2
    assert "root moves are 0-" in capsys.readouterr().err
