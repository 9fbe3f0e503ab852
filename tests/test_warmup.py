"""The start-up warm-up compiles the computer player into the cache once, in a child process."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def test_warmup_fills_the_cache_once_and_then_spawns_nothing(tmp_path):
    code = (
        "import triangles.warmup as w\n"
        "started = w.start()\n"
        "w.wait(480)\n"  # a cap, not a target: a cold compile on a loaded machine can take minutes
        "again = w.start()\n"
        "print(started, w._stamp().exists(), again)\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=540)
    assert out.returncode == 0, out.stderr
    # a second process in the same session would see the stamp and spawn nothing
    assert out.stdout.split() == ["True", "True", "False"]
    (folder,) = tmp_path.glob("kernels-*")  # the kernels' folder for these sources (triangles.jit)
    cached = [p.name for p in folder.iterdir()]
    assert any(name.startswith("ai_") for name in cached), cached
    assert any(name.startswith("warm-") for name in cached), cached


def test_without_a_cache_folder_the_computer_compiles_in_a_thread_with_progress(tmp_path):
    """No writable cache (here: NUMBA_CACHE_DIR under a file, refused even to root): no child is
    spawned, a thread compiles the computer player while the menu would show, and says how far."""
    code = (
        "import json, time\n"
        "import triangles.warmup as w\n"
        "assert not w.kept()\n"
        "w.warm_rules(lambda percent: None)\n"  # what the window does before its first screen
        "spawned = w.start()\n"
        "started = w.start_here()\n"
        "seen = []\n"
        "while w.progress() is not None:\n"
        "    seen.append(w.progress())\n"
        "    time.sleep(0.02)\n"
        "w.wait(480)\n"  # a cap, not a target: a cold compile on a loaded machine can take minutes
        "again = w.start_here()\n"
        "print(json.dumps([spawned, started, again, seen, w._percent]))\n"
    )
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(blocker / "numba")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=540)
    assert out.returncode == 0, out.stderr
    spawned, started, again, seen, final = json.loads(out.stdout.strip().splitlines()[-1])
    assert (spawned, started, again) == (False, True, False)
    # polled every 20 ms: the samples climb most of the way (the count of compilations varies a little
    # with the machine), and the last report, once done, is 100
    assert seen and seen == sorted(seen) and seen[-1] >= 50, seen[:5] + seen[-5:]
    assert final == 100
