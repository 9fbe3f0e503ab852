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
