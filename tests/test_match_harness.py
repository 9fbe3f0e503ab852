"""The strength harness (benchmarks/ai_match.py) plays real games and refuses bad names."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import ai_match  # noqa: E402


def test_match_prints_a_result(capsys):
    assert ai_match.main(["easy:noise=0.5", "random", "--stars", "24", "--games", "2", "--procs", "1"]) == 0
    out = capsys.readouterr().out
    assert "easy:noise=0.5 vs random: phone 24 stars, alternate, 2 games" in out
    wdl = out.split("W/D/L ")[1].split()[0]
    assert sum(int(x) for x in wdl.split("/")) == 2


@pytest.mark.parametrize("name,message", [
    ("expert", "unknown player 'expert'"),
    ("hard:bogus=1", "'bogus' is not a level parameter"),
    ("hard:work=x", "work needs a number"),
    ("nope:work=1", "unknown level 'nope'"),
])
def test_bad_player_names_are_refused(name, message, capsys):
    with pytest.raises(SystemExit) as exc:
        ai_match.main([name, "greedy", "--games", "2", "--procs", "1"])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_variant_replaces_only_the_named_parameters():
    from triangles.ai import LEVELS

    ai_match.register_variant("hard:work=123,noise=0.5")
    lv, base = LEVELS["hard:work=123,noise=0.5"], LEVELS["hard"]
    assert (lv.work, lv.noise) == (123, 0.5)
    assert (lv.width, lv.max_depth, lv.solve_work) == (base.width, base.max_depth, base.solve_work)
    del LEVELS["hard:work=123,noise=0.5"]
