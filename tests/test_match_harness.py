"""The strength harness (benchmarks/ai_match.py) plays real games and refuses bad names."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import ai_match  # noqa: E402


def test_match_prints_a_result(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "games.jsonl"
    argv = ["easy:noise=0.5", "random", "--stars", "24", "--games", "2", "--procs", "1", "--games-out", str(out_file)]
    assert ai_match.main(argv) == 0
    out = capsys.readouterr().out
    assert "easy:noise=0.5 vs random: phone 24 stars, alternate, 2 games" in out
    wdl = out.split("W/D/L ")[1].split()[0]
    assert sum(int(x) for x in wdl.split("/")) == 2
    last, rest = out.split("drawing the last line W/D/L ")[1].split(", not ")
    assert sum(int(x) for x in last.split("/") + rest.split()[0].split("/")) == 2  # every game on one side
    assert "% of that time" in out  # the CPU share of each player's move times
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [(r["game"], r["board"], r["a_first"]) for r in rows] == [(0, 0, True), (1, 0, False)]
    from triangles.presets import get_preset
    from triangles.rules import Game

    for r in rows:  # each record replays to its margin and its last line's side
        game = Game.from_moves(get_preset("phone").make_board(24, r["board"]), r["moves"])
        a_side = 0 if r["a_first"] else 1
        assert game.is_over()
        assert game.scores[a_side] - game.scores[1 - a_side] == r["a_margin"]
        assert (game.lines[-1][1] == a_side) == r["a_last"]


def test_an_unwritable_games_file_is_a_message(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["random", "random", "--stars", "12", "--games", "2", "--procs", "1"]
    assert ai_match.main([*argv, "--games-out", str(tmp_path / "no" / "such" / "games.jsonl")]) == 1
    captured = capsys.readouterr()
    assert "random vs random" in captured.out  # the result is still printed
    assert "could not write" in captured.err and "Traceback" not in captured.err


def test_report_warns_when_the_moves_were_starved_of_a_core() -> None:
    def report(cpu: float, cpu_b: float = 0.5) -> str:
        diffs = {0: 1, 1: -2}
        return ai_match.Result("hard", "mcts", "phone", 24, False, diffs, [1.0, 1.0], [0.5], 9.0, cpu, cpu_b).report()

    whole = report(1.96)
    assert "hard: per move mean 1000.0 ms" in whole and "CPU 98% of that time" in whole
    assert "mcts: per move mean 500.0 ms" in whole and "CPU 100% of that time" in whole
    assert "warning" not in whole
    half = report(1.0)  # hard's moves ran half the time: more processes than cores
    assert "CPU 50% of that time" in half
    assert "warning: the moves got less than a whole core" in half
    short = report(1.96, 0.1)  # mcts's 0.5 s of moves are too few to judge
    assert "CPU 20% of that time" in short and "warning" not in short


@pytest.mark.parametrize(
    "name,message",
    [
        ("expert", "unknown player 'expert'"),
        ("hard:bogus=1", "'bogus' is not a level parameter"),
        ("hard:work=x", "work needs a number"),
        ("nope:work=1", "unknown level 'nope'"),
        ("hard>", "a phase player is A>B"),
        ("greedy>expert", "unknown player 'expert'"),
    ],
)
def test_bad_player_names_are_refused(name: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        ai_match.main([name, "greedy", "--games", "2", "--procs", "1"])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_variant_replaces_only_the_named_parameters_and_leaves_levels_alone() -> None:
    from triangles.ai import LEVELS

    before = dict(LEVELS)
    lv = ai_match.variant("hard:work=123,noise=0.5")
    base = LEVELS["hard"]
    assert (lv.name, lv.work, lv.noise) == ("hard:work=123,noise=0.5", 123, 0.5)
    assert (lv.width, lv.max_depth, lv.solve_work, lv.tt_bits) == (
        base.width,
        base.max_depth,
        base.solve_work,
        base.tt_bits,
    )
    assert dict(LEVELS) == before and "hard:work=123,noise=0.5" not in LEVELS


def test_a_variant_player_plays_the_variant_level() -> None:
    import dataclasses

    from triangles.ai import choose_move
    from triangles.presets import get_preset
    from triangles.rules import Game

    game = Game(get_preset("phone").make_board(24, 5))
    play = ai_match.make_player("medium:noise=0.0", 7)
    quiet = dataclasses.replace(ai_match.LEVELS["medium"], noise=0.0)
    assert play(game) == choose_move(game, quiet, seed=7 * 1000 + 1)


def test_a_phase_player_moves_as_a_while_a_line_is_safe_then_as_b() -> None:
    """``A>B`` plays the move A would play alone with the same seed where a safe
    line exists, and B's where none does."""
    import numpy as np

    from triangles.ai.baselines import greedy_move, move_table, random_move
    from triangles.presets import get_preset
    from triangles.rules import Game

    def safe_lines(g: Game) -> int:
        _, closes, gives = move_table(g.board.arrays, g.arrays())
        return int(((closes == 0) & (gives == 0)).sum())

    game = Game(get_preset("phone").make_board(24, 3))
    seen = {True: 0, False: 0}
    rng = np.random.default_rng(0)
    while not game.is_over():
        safe = safe_lines(game) > 0
        if seen[safe] < 3:  # a fresh player's first move: A's (greedy) or B's (random), same seed
            alone = greedy_move if safe else random_move
            assert ai_match.make_player("greedy>random", 11)(game) == alone(game, np.random.default_rng(11))
            seen[safe] += 1
        game.play(*random_move(game, rng))
    assert seen == {True: 3, False: 3}
