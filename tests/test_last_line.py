"""Who draws the last line (benchmarks/last_line.py): the split of a match, small boards
solved, and the boards with thin faces, where the line count can change."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import ai_match  # noqa: E402
import last_line  # noqa: E402


def test_last_line_splits_a_match_and_solves_small_boards(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    assert (
        ai_match.main(["greedy", "random", "--stars", "12", "--games", "4", "--procs", "1", "--games-out", str(games)])
        == 0
    )
    capsys.readouterr()
    assert last_line.main(["--stars", "12", "--random", "3", "--games", str(games)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 games on 2 boards (phone 12 stars;")
    rows = [line.rsplit(": ", 1)[1].split()[0] for line in out.splitlines()[1:]]
    assert sum(int(x) for row in rows for x in row.split("/")) == 4  # every game in one group

    assert last_line.main(["--stars", "6", "--boards", "3", "--random", "3"]) == 0
    out = capsys.readouterr().out
    assert "0 boards over the solver's budget" in out
    groups = [line.split(": ", 1)[1] for line in out.splitlines()[1:]]
    assert sum(int(g.split(" boards")[0]) for g in groups) == 3

    assert last_line.main(["--stars", "24", "--boards", "2", "--random", "2", "--faces"]) == 0
    out = capsys.readouterr().out
    assert sum(int(line.rsplit(": ", 1)[1].split()[0]) for line in out.splitlines()[1:]) == 2

    assert last_line.main(["--games", str(tmp_path / "missing.jsonl")]) == 1
    assert "could not read the games" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    for text in ("[1, 2]\n", "not json\n", '{"board": 0}\n'):
        bad.write_text(text)
        assert last_line.main(["--stars", "12", "--games", str(bad)]) == 1
        err = capsys.readouterr().err
        assert "could not read the games" in err and "Traceback" not in err
    for argv in (["--random", "0"], ["--preset", "nope"]):
        with pytest.raises(SystemExit) as exc:
            last_line.main(argv)
        assert exc.value.code == 2
