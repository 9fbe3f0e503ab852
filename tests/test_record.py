"""Game records: round trip, complete checking, clear one-line errors, replay CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from triangles.cli import main
from triangles.record import GameRecord, RecordError, load_record, parse_record, save_record
from triangles.rules import Board, Game


def finished_game(seed: int = 5, extra: bool = False) -> Game:
    g = Game(Board.random(24, 390, 660, seed=seed), extra_turn=extra)
    rng = np.random.default_rng(seed)
    while not g.is_over():
        moves = g.legal_moves()
        g.play(*moves[rng.integers(len(moves))])
    return g


@pytest.fixture
def record_file(tmp_path):
    g = finished_game()
    rec = GameRecord.from_game(g, preset="phone", seed=5)
    path = tmp_path / "game.json"
    save_record(rec, path)
    return path, g


def test_round_trip_replays_the_same_game(record_file):
    path, g = record_file
    rec = load_record(path)
    h = rec.replay()
    assert h.lines == g.lines and h.scores == g.scores and h.triangles == g.triangles
    assert rec.preset == "phone" and rec.seed == 5 and rec.extra_turn is False
    assert np.array_equal(rec.board().stars, g.board.stars)
    data = json.loads(path.read_text())
    assert data["format"] == "triangles-record" and data["version"] == 1
    assert len(data["stars"]) == 24 and data["tolerance"] == 3.0


def test_reading_never_changes_the_record(record_file):
    path, _ = record_file
    before = path.read_bytes()
    load_record(path)
    assert main(["replay", str(path)]) == 0
    assert path.read_bytes() == before


def mutate(path, fn):
    data = json.loads(path.read_text())
    fn(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    "change,words",
    [
        (lambda d: d.update(format="chess"), "not a Triangles game record"),
        (lambda d: d.pop("version"), "version"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.pop("stars"), "stars"),
        (lambda d: d["stars"].__setitem__(3, [1, "x"]), r"Star 3 "),
        (lambda d: d["stars"].__setitem__(3, list(d["stars"][2])), "same place"),
        (lambda d: d.update(tolerance=-1), "tolerance"),
        (lambda d: d.update(options={"extra_turn": "yes"}), "options"),
        (lambda d: d.update(players=[{"name": "A"}]), "two players"),
        (lambda d: d["players"][1].update(kind="robot"), r"Player 2 must be a person or the computer"),
        (lambda d: d.update(seed=-4), "board number"),
        (lambda d: d.update(moves="none"), "moves"),
        (lambda d: d["moves"].__setitem__(4, [1]), "Move 5 "),
        (lambda d: d["moves"].__setitem__(4, [1, 99]), "Move 5 uses star 99, but the board has"),
        (lambda d: d["moves"].__setitem__(6, d["moves"][2]), r"Move 7 .*already drawn"),
        (lambda d: d["moves"].__setitem__(6, [d["moves"][6][0]] * 2), r"Move 7 .*itself"),
        (lambda d: d["moves"].append(d["moves"][0]), "not allowed"),
    ],
)
def test_bad_records_name_the_field_or_move(record_file, change, words):
    path, _ = record_file
    mutate(path, change)
    with pytest.raises(RecordError, match=words) as e:
        load_record(path)
    assert "\n" not in str(e.value)


def test_crossing_move_is_reported_with_its_number(tmp_path):
    rec = GameRecord(stars=[(0, 0), (100, 0), (100, 100), (0, 100)], tolerance=3, moves=[(0, 2), (1, 3)])
    path = tmp_path / "r.json"
    save_record(rec, path)
    with pytest.raises(RecordError, match=r"Move 2 \(1–3\) is not allowed: the line crosses a drawn line\.$"):
        load_record(path)


@pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe", b"[]", b"null", b'"x"'])
def test_not_json_or_not_an_object(tmp_path, content):
    path = tmp_path / "x.json"
    path.write_bytes(content)
    with pytest.raises(RecordError):
        load_record(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(RecordError, match="does not exist"):
        load_record(tmp_path / "nope.json")
    with pytest.raises(RecordError, match="folder"):
        load_record(tmp_path)


def test_parse_record_rejects_non_objects():
    with pytest.raises(RecordError, match="not a Triangles game record"):
        parse_record([1, 2])


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path):
    g = finished_game(7)
    path = tmp_path / "sub" / "g.json"
    save_record(GameRecord.from_game(g), path)
    save_record(GameRecord.from_game(g), path)
    assert [p.name for p in path.parent.iterdir()] == ["g.json"]


# -- the replay command -----------------------------------------------------------


def test_replay_prints_scores_and_result(record_file, capsys):
    path, g = record_file
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    s0, s1 = g.scores
    assert f"Player 1: {s0} triangle" in out and f"Player 2: {s1} triangle" in out
    want = "draw" if s0 == s1 else f"Player {1 if s0 > s1 else 2} wins"
    assert f"result: {want}" in out


def test_replay_json(record_file, capsys):
    path, g = record_file
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores"] == list(g.scores) and data["over"] is True
    assert data["lines"] == g.move_count and data["winner"] == g.winner()


def test_replay_unfinished_game(tmp_path, capsys):
    rec = GameRecord(stars=[(0, 0), (100, 0), (100, 100), (0, 100)], tolerance=3, moves=[(0, 1)])
    save_record(rec, tmp_path / "u.json")
    assert main(["replay", str(tmp_path / "u.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["result"] == "unfinished" and data["to_move"] == 1


def test_replay_errors_exit_2_with_one_line_and_no_traceback(record_file):
    path, _ = record_file
    mutate(path, lambda d: d["moves"].__setitem__(3, d["moves"][1]))
    for args in ([str(path)], [str(path), "--json"], [str(path.parent / "missing.json")]):
        proc = subprocess.run(
            [sys.executable, "-m", "triangles", "replay", *args], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 2
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert (
        "Move 4 "
        in subprocess.run(
            [sys.executable, "-m", "triangles", "replay", str(path)], capture_output=True, text=True, timeout=120
        ).stderr
    )


def test_bad_command_line_options_exit_2(capsys):
    for argv in (["--stars", "7"], ["--preset", "watch"], ["--seed", "-1"], ["--mode", "solo"]):
        with pytest.raises(SystemExit) as e:
            code = main(argv)
            raise SystemExit(code)
        assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--stars 7" in err and "watch" in err
