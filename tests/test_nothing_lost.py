"""Saving survives kill -9 at any moment, a full disk and a read-only folder: the old or the new file, whole.

Every file the game writes (autosave, Save game, settings, statistics) goes
through ``files.write_text_atomic``; these tests attack that one path and
the record writer on top of it.
"""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from triangles.files import write_text_atomic
from triangles.record import GameRecord, load_record, save_record
from triangles.rules import Board, Game
from triangles.saves import list_saved_games

WRITER = r"""
import sys
from triangles.record import GameRecord, save_record
from triangles.rules import Board, Game

path = sys.argv[1]
boards = []
for seed in (1, 2):
    g = Game(Board.random(120, 390, 660, seed=seed))
    for _ in range(60 if seed == 1 else 200):
        g.play(*g.legal_moves()[len(g.legal_moves()) // 3])
    boards.append(GameRecord.from_game(g, preset="phone", seed=seed))
print("ready", flush=True)
k = 0
while True:
    save_record(boards[k % 2], path)
    k += 1
"""


@pytest.mark.timeout(240)
def test_kill_9_while_writing_leaves_the_old_or_the_new_record_whole(tmp_path):
    path = tmp_path / "current-game.json"
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    rng = random.Random(9)
    seen = set()
    kills = 30
    for _ in range(kills):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
        time.sleep(rng.uniform(0.0, 0.08))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        if path.exists():
            rec = load_record(path)  # whole: it parses and every move replays
            seen.add(rec.seed)
    assert seen, "the writer never finished one record"
    leftovers = [p.name for p in tmp_path.iterdir() if p != path]
    # a kill between the temporary file and the rename leaves a hidden .tmp: never offered as a game
    assert all(n.startswith(".current-game.json.") and n.endswith(".tmp") for n in leftovers), leftovers
    assert list_saved_games(tmp_path) == [] or all(p.suffix == ".json" for p in list_saved_games(tmp_path))


def _record(seed: int) -> GameRecord:
    g = Game(Board.random(24, 390, 660, seed=seed))
    g.play(*g.legal_moves()[0])
    return GameRecord.from_game(g, preset="phone", seed=seed)


@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_a_full_disk_keeps_the_old_file_and_leaves_no_litter(tmp_path, monkeypatch, where):
    path = tmp_path / "statistics.json"
    write_text_atomic(path, json.dumps({"old": True}))

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")

    if where == "write":
        real_fdopen = os.fdopen

        class FullFile:
            """The temporary file of a full disk: opening works, writing does not."""

            def __init__(self, f):
                self.f = f

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

            def write(self, _text):
                full()

        monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: FullFile(real_fdopen(fd, *a, **k)))
    else:
        monkeypatch.setattr(os, where, full)
    with pytest.raises(OSError) as e:
        write_text_atomic(path, json.dumps({"new": True}))
    monkeypatch.undo()
    assert e.value.errno == errno.ENOSPC
    assert json.loads(path.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["statistics.json"]


def test_a_read_only_folder_raises_oserror_and_changes_nothing(tmp_path, monkeypatch):
    """As root chmod does not bite, so the refusal is the one the system would give."""
    import tempfile

    path = tmp_path / "game.json"
    save_record(_record(1), path)
    before = path.read_bytes()

    def read_only(*_a, **_k):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(OSError):
        save_record(_record(2), path)
    monkeypatch.undo()
    assert path.read_bytes() == before
