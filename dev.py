#!/usr/bin/env python3
"""One-step set-up and run, for a fresh machine that has only Python 3.11+.

    python3 dev.py play [game options]    # set up if needed, then start the game
    python3 dev.py test [pytest options]  # set up if needed, then run every test
    python3 dev.py lint                   # ruff check, ruff format --check, mypy
    python3 dev.py i18n                   # compile the translations (.po -> .mo)

Set-up is a virtual environment in ``.venv`` with the project installed in
editable mode (plus test tools for ``test``); it is redone only when
``pyproject.toml`` changes.  For the real-window test, ``test`` also installs
Debian's xvfb, xdotool and imagemagick when they are missing and it can
(root with apt-get); otherwise that one test is skipped and says why.
Only the standard library is used here.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".dev-stamp"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
DEBIAN_TEST_PACKAGES = {"xvfb-run": "xvfb", "xdotool": "xdotool", "import": "imagemagick"}


def say(msg: str) -> None:
    print(f"[dev] {msg}", flush=True)


def run(cmd: list[str], **kw) -> None:
    subprocess.run(cmd, check=True, **kw)


def can_apt() -> bool:
    return os.name != "nt" and shutil.which("apt-get") is not None and os.geteuid() == 0


def ensure_venv() -> None:
    if PY.exists():
        return
    say(f"creating a virtual environment in {VENV}")
    try:
        run([sys.executable, "-m", "venv", str(VENV)])
    except subprocess.CalledProcessError:
        # Debian ships venv's pip separately (python3-venv)
        shutil.rmtree(VENV, ignore_errors=True)
        if not can_apt():
            sys.exit("[dev] cannot create a virtual environment: install python3-venv and try again")
        ver = f"{sys.version_info.major}.{sys.version_info.minor}"
        run(["apt-get", "update", "-qq"])
        run(["apt-get", "install", "-y", "-qq", "python3-venv", f"python{ver}-venv"])
        run([sys.executable, "-m", "venv", str(VENV)])


def ensure_installed(extras: str) -> None:
    """pip install -e .[extras] unless pyproject.toml is unchanged since the last time."""
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    have = STAMP.read_text().strip() if STAMP.exists() else ""
    if have == want:
        return
    say(f"installing the game and its dependencies ({extras or 'no extras'})")
    run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    target = f".[{extras}]" if extras else "."
    run([str(PY), "-m", "pip", "install", "--quiet", "-e", target], cwd=ROOT)
    STAMP.write_text(want)


def ensure_test_system_packages() -> None:
    missing = [pkg for tool, pkg in DEBIAN_TEST_PACKAGES.items() if shutil.which(tool) is None]
    if not missing:
        return
    if not can_apt():
        say(f"missing {', '.join(missing)}: the real-window test will be skipped")
        return
    say(f"installing Debian packages for the real-window test: {' '.join(missing)}")
    try:
        run(["apt-get", "update", "-qq"])
        run(
            ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
    except subprocess.CalledProcessError:
        say("apt-get failed: the real-window test will be skipped")


def lint() -> int:
    """ruff (lint, then format check) and mypy, as configured in pyproject.toml; all must pass."""
    steps = [
        ("ruff check", [str(BIN / "ruff"), "check", "."]),
        ("ruff format --check", [str(BIN / "ruff"), "format", "--check", "."]),
        ("mypy", [str(BIN / "mypy")]),
    ]
    failed = []
    for name, cmd in steps:
        say(name)
        if subprocess.call(cmd, cwd=ROOT) != 0:
            failed.append(name)
    if failed:
        say(f"lint failed: {', '.join(failed)}")
        return 1
    say("lint passed")
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test", "lint", "i18n"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_venv()
    ensure_installed("test,lint")  # one environment for every command: the tools are small
    if command == "i18n":
        return subprocess.call([str(PY), str(ROOT / "tools" / "catalogs.py")])
    if command == "play":
        # a translator's edited .po shows at once
        subprocess.call([str(PY), str(ROOT / "tools" / "catalogs.py"), "--stale"])
        return subprocess.call([str(PY), "-m", "triangles", *rest])
    if command == "lint":
        return lint()
    ensure_test_system_packages()
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }
    return subprocess.call([str(PY), "-m", "pytest", *rest], cwd=ROOT, env=env)


if __name__ == "__main__":
    try:
        raise SystemExit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        raise SystemExit(130) from None
