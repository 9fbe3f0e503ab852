"""Who draws the last line (benchmarks/last_line.py): the split of a match, small boards
solved, and the thin faces where the line count can change."""

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


def test_thin_faces_are_the_faces_no_line_can_split() -> None:
    from triangles.rules import Board, Game

    # four stars nearly on one line (board 6003's): the long pair 0-3 passes 1 and 2 at about
    # 8 points, but 0-2 passes 1 and 1-3 passes 2 within the 5-point tolerance
    thin = [(312.6, 40.6), (304.8, 254.4), (305.4, 349.8), (314.0, 573.4)]
    board = Board([*thin, (500.0, 300.0)], tolerance=5.0)
    faces = last_line.thin_faces(board)
    assert [sorted(f) for f in faces] == [[0, 1, 2, 3]]
    game = Game(board)
    for i, j in ((0, 1), (1, 2), (2, 3), (0, 3)):  # its sides drawn: no line can enter it
        game.play(i, j)
    assert all(4 in m for m in game.legal_moves())
    square = Board([(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)], tolerance=5.0)
    assert last_line.thin_faces(square) == []
