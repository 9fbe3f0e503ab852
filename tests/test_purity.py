"""The rules core and the AI never import pygame (they must run without a display)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "triangles"
PURE = [
    "rules.py",
    "kernels.py",
    "jit.py",
    "record.py",
    "scatter.py",
    "presets.py",
    "cli.py",
    "launch.py",
    "warmup.py",
    "match.py",
    "saves.py",
    "players.py",
    "i18n.py",
    "paths.py",
    "files.py",
    "file_messages.py",
    "tutorial.py",
    "stats.py",
    "settings.py",
]


def pure_files() -> list[Path]:
    files = [SRC / f for f in PURE]
    files += sorted((SRC / "ai").glob("**/*.py"))
    return files


def test_no_pygame_import_in_the_core_sources():
    for path in pure_files():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] in ("pygame", "pygame_gui") for n in names), f"{path.name} imports {names}"
            if path.name != "cli.py":  # the top floor opens the window, lazily
                assert not any(n.startswith("triangles.ui") for n in names), f"{path.name} imports the UI: {names}"


def test_importing_the_core_loads_no_pygame():
    code = (
        "import sys, triangles.rules, triangles.record, triangles.kernels, triangles.presets, triangles.cli\n"
        "import triangles.match, triangles.saves, triangles.players\n"
        "try:\n    import triangles.ai\nexcept ImportError:\n    pass\n"
        "bad = [m for m in sys.modules\n"
        "       if m.split('.')[0] in ('pygame', 'pygame_gui') or m.startswith('triangles.ui')]\n"
        "assert not bad, bad\n"
        "print('ok')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
