"""The root-order benchmark (benchmarks/root_order.py): every order gives the board's value
and a best line placed where the order put it, and a bad line is a clear message, never a
traceback."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from triangles.ai import choose_move, solve
from triangles.presets import get_preset
from triangles.rules import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import root_order  # noqa: E402


def test_every_order_gives_the_boards_value(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(get_preset("phone").make_board(8, 5))
    v0 = solve(game, time_limit=None)
    lines = sorted(game.board.pair_id(i, j) for i, j in game.legal_moves())
    hard = game.board.pair_id(*choose_move(game, "hard", seed=0))
    first = lines[3]
    argv = ["--stars", "8", "--board", "5", "--tt-bits", "12", "--first", str(first), "--order", *root_order.ORDERS]
    assert root_order.main(argv) == 0
    rows = re.findall(
        r"^\s*(\w+): value (-?\d+), (\d+) nodes, [\d.]+ s, best line (\d+), tried at place (\d+) of (\d+)$",
        capsys.readouterr().out,
        re.M,
    )
    assert [name for name, *_ in rows] == list(root_order.ORDERS)
    for name, value, nodes, best, place, n in rows:
        assert int(value) == v0 and int(nodes) > 0 and int(n) == len(lines)
        kid = game.clone()
        pts = len(kid.play(*game.board.pair(int(best))))
        assert pts - (0 if kid.is_over() else solve(kid, time_limit=None)) == v0  # a best line indeed
        if name == "line":
            assert lines.index(int(best)) + 1 == int(place)
        if name in ("hard", "first") and int(best) == (hard if name == "hard" else first):
            assert place == "1"


def test_a_first_line_off_the_board_is_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        root_order.main(["--stars", "8", "--board", "5", "--order", "first", "--first", "9999"])
    assert e.value.code == 2
    assert "--first must be one of the board's legal lines" in capsys.readouterr().err
