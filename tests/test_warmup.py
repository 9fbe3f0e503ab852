"""The start-up warm-up compiles the computer player into the cache once, in a child process."""

from __future__ import annotations

import os
import subprocess
import sys


def test_warmup_fills_the_cache_once_and_then_spawns_nothing(tmp_path):
    code = (
        "import triangles.warmup as w\n"
        "started = w.start()\n"
        "w.wait(240)\n"
        "again = w.start()\n"
        "print(started, w._stamp().exists(), again)\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    # a second process in the same session would see the stamp and spawn nothing
    assert out.stdout.split() == ["True", "True", "False"]
    cached = [p.name for p in tmp_path.iterdir()]
    assert any(name.startswith("ai_") for name in cached), cached
    assert any(name.startswith("warm-") for name in cached), cached
