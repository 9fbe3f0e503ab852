"""numba's cache folder is chosen before numba loads, the game works without one, and kernels
can be compiled without reference counting."""

from __future__ import annotations

import os
import subprocess
import sys

import numba
import numpy as np

from triangles import jit


def test_cache_folder_is_set_before_numba_is_imported():
    code = (
        "import os, sys\n"
        "import triangles.jit as j\n"
        "print(os.environ.get('NUMBA_CACHE_DIR'))\n"
        "from numba.core.config import CACHE_DIR\n"
        "print(CACHE_DIR)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    env_dir, numba_dir = out.stdout.split()
    assert env_dir == numba_dir and "triangles" in env_dir


def test_unwritable_cache_folder_still_plays():
    code = (
        "from triangles.rules import Board, Game\n"
        "import triangles.jit as j\n"
        "g = Game(Board([(0, 0), (100, 0), (100, 100), (0, 100)]))\n"
        "for m in [(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)]: g.play(*m)\n"
        "print(j.cache_dir, g.scores, g.is_over())\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": "/dev/null/not-a-folder"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["None", "(2,", "0)", "True"]


def test_njit_falls_back_to_no_cache_when_caching_raises(monkeypatch):
    real = numba.njit
    calls = []

    def fake_njit(*args, **kw):
        if "cache" in kw:  # numba calls njit itself while compiling; count only ours
            calls.append(kw["cache"])
        if kw.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return real(*args, **kw)

    monkeypatch.setattr(jit.numba, "njit", fake_njit)

    @jit.njit
    def add(a, b):
        return a + b

    @jit.njit(nogil=True)
    def mul(a, b):
        return a * b

    assert add(2, 3) == 5 and mul(4, 5) == 20
    assert calls == [True, False, True, False]


def test_refcount_false_compiles_without_reference_counting():
    @jit.njit(nogil=True, refcount=False)
    def total(a):
        s = 0
        for x in a:
            s += x
        return s

    assert total(np.arange(5)) == 10
    assert total.targetoptions.get("_nrt") is (False if jit.REFCOUNT_OPTION else None)
    assert "refcount" not in total.targetoptions


def test_refcount_option_is_left_out_where_numba_lacks_it(monkeypatch):
    monkeypatch.setattr(jit, "REFCOUNT_OPTION", False)

    @jit.njit(refcount=False)
    def first(a):
        return a[0]

    assert first(np.arange(3) + 7) == 7
    assert "_nrt" not in first.targetoptions and "refcount" not in first.targetoptions


def _cache_dir_of(**env: str) -> str:
    """The kernel folder a fresh process chooses with these environment variables (one set to
    "" is left out)."""
    full = {k: v for k, v in {**os.environ, **env}.items() if v}
    code = "import triangles.jit as j\nprint(j.cache_dir)\n"
    out = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_change_to_any_kernel_module_starts_a_fresh_kernel_folder(tmp_path):
    """numba checks a cached kernel against its own file only: a change to a helper it inlines
    from another module (here ``ai/tables.py``), or to a constant a kernel module imports, must
    still start a cold cache, so the folder is named after every kernel module's source and
    what they import; a module that only calls kernels does not count; a folder so named is
    used as it is, and one left unused for weeks beside it is removed."""
    import shutil
    import time
    from pathlib import Path

    src = Path(jit.__file__).resolve().parent
    shutil.copytree(src, tmp_path / "pkg" / "triangles", ignore=shutil.ignore_patterns("__pycache__"))
    base = tmp_path / "cache"
    pkg = str(tmp_path / "pkg")
    first = _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg)
    assert Path(first).parent == base and Path(first).name.startswith("kernels-")
    assert _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg) == first  # the same sources: the same folder
    assert _cache_dir_of(NUMBA_CACHE_DIR=first, PYTHONPATH=pkg) == first  # a child handed the folder keeps it
    ui = tmp_path / "pkg" / "triangles" / "ui" / "__init__.py"
    ui.write_text(ui.read_text() + "\n# no kernel here\n")
    assert _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg) == first  # modules without kernels do not count
    ai = tmp_path / "pkg" / "triangles" / "ai"
    for caller in ("solver.py", "api.py", "levels.py"):  # they call kernels, no kernel reads them
        (ai / caller).write_text((ai / caller).read_text() + "\n# a changed caller\n")
    assert _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg) == first
    # a module of constants only counts once a kernel module imports from it
    (ai / "limits.py").write_text("WIDTH = 64\n")
    assert _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg) == first
    bits = ai / "bits.py"
    bits.write_text(bits.read_text() + "\nfrom triangles.ai.limits import WIDTH  # noqa: E402\n")
    imported = _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg)
    assert imported != first
    (ai / "limits.py").write_text("WIDTH = 128\n")
    assert _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg) not in (first, imported)
    bits.write_text(bits.read_text() + "from triangles.ai import limits as L, tables  # noqa: E402\n")
    both = _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg)
    (ai / "limits.py").write_text("WIDTH = 256\n")  # read through ``from triangles.ai import``
    assert _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg) != both
    tables = ai / "tables.py"
    tables.write_text(tables.read_text() + "\n# a changed helper\n")
    stale, recent = base / "kernels-0000000000000000", base / "kernels-1111111111111111"
    stale.mkdir()
    recent.mkdir()
    weeks_ago = time.time() - 30 * 24 * 3600
    os.utime(stale, (weeks_ago, weeks_ago))
    second = _cache_dir_of(NUMBA_CACHE_DIR=str(base), PYTHONPATH=pkg)
    assert second != first and Path(second).parent == base
    assert not stale.exists() and recent.exists() and Path(first).exists()


def test_the_games_own_cache_folder_drops_what_an_older_version_left_loose(tmp_path):
    """In the game's own cache folder (no ``NUMBA_CACHE_DIR`` given) the kernels of a version that
    kept them loose are removed once a kernel folder is chosen; a folder the caller chose keeps
    whatever else it holds."""
    from pathlib import Path

    own = tmp_path / "xdg" / "triangles" / "numba"
    (own / "ai_1234").mkdir(parents=True)
    (own / "warm-0123456789abcdef").write_text("done\n")
    chosen = Path(_cache_dir_of(NUMBA_CACHE_DIR="", XDG_CACHE_HOME=str(tmp_path / "xdg")))
    assert chosen.parent == own and [p.name for p in own.iterdir()] == [chosen.name]
    mine = tmp_path / "mine"
    (mine / "notes").mkdir(parents=True)
    assert Path(_cache_dir_of(NUMBA_CACHE_DIR=str(mine))).parent == mine
    assert (mine / "notes").is_dir()
