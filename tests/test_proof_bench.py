"""The proof-horizon benchmark (benchmarks/proof_bench.py) proves real positions, and its node counts repeat."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import proof_bench  # noqa: E402


def _rows(out: str) -> dict[int, tuple[int, int, int]]:
    """legal -> (proved, positions, total nodes) from the printed table."""
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 7 and parts[0].isdigit() and "/" in parts[1]:
            proved, positions = (int(x) for x in parts[1].split("/"))
            rows[int(parts[0])] = (proved, positions, int(parts[6]))
    return rows


@pytest.mark.parametrize("extra", [False, True])
def test_small_boards_are_proved_and_node_counts_repeat(extra: bool, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--stars", "12", "--legal", "8,12", "--games", "2", "--hard"] + (["--extra-turn"] if extra else [])
    assert proof_bench.main(args) == 0
    first = _rows(capsys.readouterr().out)
    assert set(first) == {8, 12}
    for proved, positions, nodes in first.values():
        assert positions == 2 and proved == 2  # 12 legal lines are well inside hard's reach
        assert nodes > 0
    assert proof_bench.main(args) == 0
    assert _rows(capsys.readouterr().out) == first  # deterministic: counted nodes, not time


@pytest.mark.parametrize("exact", [False, True])
def test_the_lazy_search_settles_what_it_is_given_and_repeats(exact: bool, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--stars", "11", "--legal", "24,40", "--games", "2", "--lazy", "--budget", "50000000"]
    args += ["--exact"] if exact else []
    assert proof_bench.main(args) == 0
    first = _rows(capsys.readouterr().out)
    assert set(first) == {24, 40}
    for proved, positions, nodes in first.values():
        assert positions == 2 and proved == 2
        assert nodes > 0
    assert proof_bench.main(args) == 0
    assert _rows(capsys.readouterr().out) == first


def test_the_pair_of_searches_gives_the_single_searchs_values(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--stars", "11", "--legal", "40", "--games", "3", "--lazy", "--exact", "--budget", "50000000", "--verbose"]

    def values(out: str) -> list[str]:
        return [line.split()[-1] for line in out.splitlines() if line.strip().startswith("game ")]

    assert proof_bench.main(args) == 0
    one = values(capsys.readouterr().out)
    assert proof_bench.main([*args, "--pair"]) == 0
    out = capsys.readouterr().out
    assert len(one) == 3 and all(v.lstrip("-").isdigit() for v in one)
    assert values(out) == one and _rows(out)[40][:2] == (3, 3)
    with pytest.raises(SystemExit):  # --pair alone: a usage message, not a silent single search
        proof_bench.main(["--stars", "11", "--legal", "40", "--games", "1", "--pair"])
    assert "--pair goes with --lazy --exact" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [False, True])
def test_give_phase_start_solves_its_positions(extra: bool, capsys: pytest.CaptureFixture[str]) -> None:
    import give_phase_start

    args = ["--stars", "8", "--games", "3"] + (["--extra-turn"] if extra else [])
    assert give_phase_start.main(args) == 0
    out = capsys.readouterr().out
    head = out.splitlines()[0]
    solved = int(head.split(": ")[1].split()[0])
    assert solved >= 1 and "0 over budget" in head
    assert "value for the player who must give: mean" in out


@pytest.mark.parametrize("extra", [False, True])
def test_give_estimates_compares_every_estimate_with_the_solver(
    extra: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    import give_estimates

    args = ["--stars", "8", "--games", "4"] + (["--extra-turn"] if extra else [])
    assert give_estimates.main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    solved = int(lines[0].split(": ")[1].split()[0])
    assert solved >= 2
    rows = {line[:12].strip(): line.split() for line in lines[2:]}
    assert set(rows) == {"playout 8", "playout 1", "greedy", "search"}
    for words in rows.values():
        error = float(words[words.index("|error|") + 1])
        sign = float(words[words.index("sign") + 1])
        assert error >= 0 and 0 <= sign <= 1


@pytest.mark.parametrize("states", [0, 1_000_000])
def test_decided_when_walks_back_through_a_lost_game(states: int) -> None:
    """random against greedy on 8 stars: each game random does not win is solved back to its
    first line (by the whole-board search, or over the regions), and the margins agree with
    the lines played (perfect play does at least as well)."""
    import decided_when

    lost = 0
    for g in range(6):
        game, diff, rows = decided_when.replay(("random", "greedy", "phone", 8, False, 0, g, 2_000_000, states))
        assert game == g
        if diff > 0:
            assert rows == []
            continue
        lost += 1
        assert "line   1 " in rows[-1]  # an 8-star game is solved all the way back
        margins = [int(r.split("from here ")[1].split()[0]) for r in rows]
        movers = [r.split(" to move")[0].split()[-1] for r in rows]
        # rows run from the last line back: perfect play from before a line is at least what
        # the line played by random (A) keeps, and at most what greedy's line keeps
        after = diff
        for margin, mover in zip(margins, movers, strict=True):
            assert margin >= after if mover == "random" else margin <= after
            after = margin
    assert lost >= 1


def test_give_estimates_values_the_same_over_the_regions() -> None:
    """``--regions`` only changes how a position is solved: the same value as the whole board."""
    import give_estimates
    from give_phase_start import first_forced_give
    from triangles.presets import get_preset

    for b in range(4):
        g = first_forced_give(get_preset("phone").make_board(9, 40 + b), False, b)
        if g.is_over():
            continue
        whole = give_estimates.exact_value(g, g.arrays(), 5_000_000, 0)
        assert whole is not None
        assert give_estimates.exact_value(g, g.arrays(), 5_000_000, 1_000_000) == whole


def test_give_regret_values_lines_as_the_solver_values_positions(capsys: pytest.CaptureFixture[str]) -> None:
    """The best line's value is the position's value, so regrets are never negative; the
    summary names every player."""
    import give_estimates
    import give_regret
    from give_phase_start import first_forced_give
    from triangles.presets import get_preset

    g = first_forced_give(get_preset("phone").make_board(9, 3), False, 3)
    assert not g.is_over()
    root = give_estimates.exact_value(g, g.arrays(), 5_000_000, 1_000_000)
    lines = [give_estimates.line_value(g, m, 5_000_000, 1_000_000) for m in g.legal_moves()]
    assert root is not None and None not in lines
    assert max(v for v in lines if v is not None) == root
    assert give_regret.main(["greedy", "easy", "--stars", "9", "--boards", "3", "--legal", "40"]) == 0
    out = capsys.readouterr().out
    for name in ("greedy", "easy"):
        row = next(line for line in out.splitlines() if line.strip().startswith(name + " "))
        assert float(row.split("mean regret ")[1].split()[0]) >= 0
