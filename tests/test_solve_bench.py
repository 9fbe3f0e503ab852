"""The whole-board `solve` benchmark (benchmarks/solve_bench.py) prints solve's own values, and a
refused board as a row that says why, never a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from triangles.ai import solve
from triangles.presets import get_preset
from triangles.rules import Game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import solve_bench  # noqa: E402


def _rows(out: str) -> dict[int, list[str]]:
    """board seed -> the row's other columns."""
    rows = (line.split() for line in out.splitlines())
    return {int(p[0]): p[1:] for p in rows if len(p) >= 5 and p[0].isdigit() and p[1].isdigit()}


@pytest.mark.parametrize("extra", [False, True])
def test_small_boards_get_solves_values(extra: bool, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--stars", "8", "--first", "5", "--boards", "2"] + (["--extra-turn"] if extra else [])
    assert solve_bench.main(args) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert sorted(rows) == [5, 6]
    for seed, (triangles, legal, value, seconds) in rows.items():
        board = get_preset("phone").make_board(8, seed)
        game = Game(board, extra)
        assert (int(triangles), int(legal)) == (board.max_triangles, game.legal_count())
        assert int(value) == solve(game, time_limit=None)
        assert float(seconds) >= 0
    assert "solved 2 of 2" in out


def test_a_refused_board_is_a_row_that_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    board = get_preset("phone").make_board(13, 0)
    assert Game(board).legal_count() == 73  # past the 66 solve takes
    assert solve_bench.main(["--stars", "13", "--first", "0", "--boards", "1"]) == 0
    out = capsys.readouterr().out
    t = board.max_triangles
    assert (
        f"     0 {t:>9}    73      -        -  position too large to solve exactly: 73 legal lines (at most 66)" in out
    )
    assert "solved 0 of 1: 0 of 1 within 10 s" in out
    assert f"{t} triangles: 0 of 1 within 10 s" in out


def test_triangles_keeps_only_the_boards_holding_that_many(capsys: pytest.CaptureFixture[str]) -> None:
    preset = get_preset("phone")
    held = {seed: preset.make_board(8, seed).max_triangles for seed in range(40)}
    want = held[0]
    expected = [seed for seed in range(40) if held[seed] == want][:3]
    assert len(expected) == 3 and expected != [0, 1, 2]  # some boards in between hold another count
    assert solve_bench.main(["--stars", "8", "--first", "0", "--boards", "3", "--triangles", str(want)]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert sorted(rows) == expected
    assert all(int(cols[0]) == want for cols in rows.values())
    assert f"{want} triangles: 3 of 3 within 10 s" in out


def test_census_counts_the_triangles_boards_hold(capsys: pytest.CaptureFixture[str]) -> None:
    preset = get_preset("phone")
    counts: dict[int, int] = {}
    for seed in range(30):
        t = preset.make_board(8, seed).max_triangles
        counts[t] = counts.get(t, 0) + 1
    assert solve_bench.main(["--stars", "8", "--census", "30"]) == 0
    out = capsys.readouterr().out
    assert "triangles held by boards 0-29 (8 stars):" in out
    for t, n in counts.items():
        assert f"  {t:>3}: {n:>6} ({100 * n / 30:.1f} %)" in out
    assert "seconds" not in out  # nothing solved


def test_bad_arguments_are_refused_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    for args, says in (
        (["--preset", "nope"], "unknown preset 'nope'; choose one of phone, tablet"),
        (["--boards", "0"], "--boards and --stars need whole numbers"),
        (["--time-limit", "-1"], "--time-limit > 0"),
        (["--triangles", "-2"], "--triangles and --census need whole numbers >= 0"),
        (
            ["--stars", "8", "--boards", "1", "--triangles", "40"],
            "0 boards hold 40 triangles among seeds 2000-2999, not 1",
        ),
    ):
        with pytest.raises(SystemExit) as e:
            solve_bench.main(args)
        assert e.value.code == 2
        assert says in capsys.readouterr().err
