"""The speed benchmark (benchmarks/ai_speed.py) times the star counts and levels (variants
too) asked for, and with --budgets counts every move chosen again under a cap too long to
fire (its figures are the benchmark's, never asserted here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import ai_speed  # noqa: E402


def _rows(out: str) -> dict[tuple[int, str], list[str]]:
    """(stars, level) -> the rest of its printed row."""
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 9 and parts[0] in ("phone", "tablet") and parts[1].isdigit():
            rows[(int(parts[1]), parts[2])] = parts[3:]
    return rows


def test_budgets_adds_a_count_of_differing_moves_for_the_stars_asked(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--levels", "easy,hard", "--presets", "phone", "--stars", "24", "--games", "1", "--samples", "3"]
    assert ai_speed.main([*args, "--budgets"]) == 0
    out = capsys.readouterr().out
    assert "differs" in out.splitlines()[1]
    rows = _rows(out)
    assert set(rows) == {(24, "easy"), (24, "hard")}  # 60 and 120 stars left out
    for cells in rows.values():
        n, capped, differs = int(cells[0]), int(cells[5]), int(cells[6])
        assert n == 3
        assert 0 <= capped <= n and 0 <= differs <= n
    assert ai_speed.main(args) == 0
    out = capsys.readouterr().out
    assert "differs" not in out
    assert all(len(cells) == 6 for cells in _rows(out).values())  # no column without --budgets


def test_a_variant_is_timed_beside_its_level(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--levels", "hard,hard:region_nodes=600000,width=16", "--presets", "phone", "--stars", "24"]
    assert ai_speed.main([*args, "--games", "1", "--samples", "2"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert set(rows) == {(24, "hard"), (24, "hard:region_nodes=600000,width=16")}
    assert all(int(cells[0]) == 2 for cells in rows.values())


def test_levels_split_at_commas_but_a_variants_changes_stay_together() -> None:
    assert ai_speed.split_levels("easy,hard:width=16,qdepth=4,medium") == ["easy", "hard:width=16,qdepth=4", "medium"]
    assert ai_speed.split_levels("hard") == ["hard"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--presets", "phone", "--stars", "25"], "--stars 25"),
        (["--presets", "phone", "--stars", "24,x"], "--stars 24,x"),
        (["--presets", "desk"], "unknown preset 'desk'"),
        (["--levels", "hard,expert"], "unknown level 'expert'"),
        (["--levels", "hard:nodes=5"], "'nodes' is not a level parameter"),
        (["--levels", "hard:width=wide"], "width needs a number"),
        (["--games", "0"], "--games 0"),
        (["--samples", "-1"], "--samples -1"),
    ],
)
def test_wrong_arguments_are_refused_with_a_message(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        ai_speed.main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
