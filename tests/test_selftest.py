"""``triangles --selftest``: one line and exit 0 on a whole build; a broken asset is named and exits 1."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def selftest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "player-home"
    home.mkdir(exist_ok=True)
    full = {**os.environ, "TRIANGLES_HOME": str(home), **env}
    full.pop("SDL_VIDEODRIVER", None)  # the selftest must make itself headless
    out = subprocess.run(
        [sys.executable, "-m", "triangles", "--selftest"],
        env=full,
        capture_output=True,
        text=True,
        timeout=420,
        cwd=tmp_path,
    )
    # the player's own folder is never touched
    assert list(home.iterdir()) == [], list(home.iterdir())
    return out


def test_selftest_passes_in_one_line(tmp_path):
    out = selftest(tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 1, out.stdout
    assert lines[0].startswith("triangles selftest: ok ("), lines[0]
    assert " checks, " in lines[0] and lines[0].endswith(" s)")


def test_a_broken_asset_is_named_and_fails(tmp_path):
    assets = tmp_path / "assets"
    shutil.copytree(ROOT / "assets", assets)
    broken = assets / "themes" / "nebula" / "theme.json"
    broken.write_text(broken.read_text(encoding="utf-8")[:200], encoding="utf-8")  # cut off mid-file
    out = selftest(tmp_path, TRIANGLES_ASSETS=str(assets))
    assert out.returncode == 1, out.stdout + out.stderr
    assert out.stdout.startswith("triangles selftest: FAILED"), out.stdout
    assert "themes/nebula/theme.json" in out.stdout, out.stdout
    assert "theme nebula" in out.stdout, out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_a_cold_start_says_the_computer_is_being_prepared(launch, monkeypatch):
    """While the warm-up child fills numba's cache, the computer's turn says so, with how far along."""
    import threading

    from triangles import warmup
    from triangles.ui.app import AppConfig

    release = threading.Event()

    def slow(game, level, seed, time_limit):  # a computer that waits for the cache like the real one
        release.wait(10)
        return game.legal_moves()[0]

    progress: list[int | None] = [37]
    monkeypatch.setattr(warmup, "progress", lambda: progress[0])
    d = launch(config=AppConfig(ai_delay=(0.0, 0.0), chooser=slow), mode="ai", computer_starts=True, seed=2)
    scene = d.play_scene()
    assert scene.hud_info().status == "Preparing the computer player — first start only, 37%"
    progress[0] = None  # the warm-up is over: the usual words
    assert scene.hud_info().status == "Computer is thinking…"
    release.set()
    assert d.until(lambda: scene.match.game.move_count > 0)


def test_the_warmup_child_reports_progress():
    """Progress lines are parsed from the child's stdout, capped at 100; junk lines are ignored."""
    import io

    from triangles import warmup

    warmup._read_progress(io.BytesIO(b"progress 0\nnoise\nprogress 12\nprogress 250\n"))
    assert warmup._percent == 100
    warmup._read_progress(io.BytesIO(b"progress 12\nprogress x\n"))
    assert warmup._percent == 12
