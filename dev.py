#!/usr/bin/env python3
"""One-step set-up and run, for a fresh machine that has only Python 3.11+.

    python3 dev.py play [game options]    # set up if needed, then start the game
    python3 dev.py test [pytest options]  # set up if needed, then run every test
    python3 dev.py lint                   # ruff check, ruff format --check, mypy
    python3 dev.py i18n                   # compile the translations (.po -> .mo)
    python3 dev.py bundle                 # build the one-folder bundle dist/triangles (PyInstaller)

Set-up is a virtual environment in ``.venv`` with the project installed in
editable mode (plus test tools for ``test``); it is redone only when
``pyproject.toml`` changes.  While it sets up, every step says so with a
counter ("[dev] 2/4 installing ...", pip showing its own progress), so the
first run's minute never looks like a hang.  For the real-window test,
``test`` also installs Debian's xvfb, xdotool and imagemagick when they are
missing and it can (root with apt-get); otherwise that one test is skipped
and says why.  ``bundle`` adds PyInstaller (the ``bundle`` extra) and, on
Debian, binutils (PyInstaller needs ``objdump`` and ``strip``).
Only the standard library is used here.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".dev-stamp"
BUNDLE_STAMP = VENV / ".dev-stamp-bundle"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
DEBIAN_TEST_PACKAGES = {"xvfb-run": "xvfb", "xdotool": "xdotool", "import": "imagemagick", "openbox": "openbox"}


def say(msg: str) -> None:
    print(f"[dev] {msg}", flush=True)


class Steps:
    """Numbered progress lines: ``[dev] 2/4 installing ...`` (the total is known before the first)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0

    def __call__(self, msg: str) -> None:
        self.done += 1
        say(f"{self.done}/{self.total} {msg}" if self.done <= self.total else msg)


def run(cmd: list[str], **kw) -> None:
    subprocess.run(cmd, check=True, **kw)


def can_apt() -> bool:
    return os.name != "nt" and shutil.which("apt-get") is not None and os.geteuid() == 0


def needs_venv() -> bool:
    return not PY.exists()


def ensure_venv(step: Steps) -> None:
    if PY.exists():
        return
    step(f"creating the virtual environment in {VENV}…")
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


def _stamp_for(extras: str) -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()


def needs_install(extras: str, stamp: Path = STAMP) -> bool:
    """True unless ``extras`` were installed from this very pyproject.toml."""
    have = stamp.read_text().strip() if stamp.exists() else ""
    return have != _stamp_for(extras)


def ensure_installed(extras: str, step: Steps) -> None:
    """pip install -e .[extras] unless pyproject.toml is unchanged since the last time."""
    if not needs_install(extras):
        return
    step(f"installing the game and its dependencies ({extras or 'no extras'}); pip shows its progress…")
    run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    target = f".[{extras}]" if extras else "."
    run([str(PY), "-m", "pip", "install", "--progress-bar", "on", "-e", target], cwd=ROOT)
    STAMP.write_text(_stamp_for(extras))


def ensure_bundle_tools(step: Steps) -> None:
    """PyInstaller (pyproject's ``bundle`` extra) in the venv, and binutils' objdump/strip on Debian."""
    missing = [tool for tool in ("objdump", "strip") if shutil.which(tool) is None]
    if missing and can_apt():
        step("installing Debian's binutils (PyInstaller needs objdump and strip)…")
        run(["apt-get", "update", "-qq"])
        run(
            ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "binutils"],
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
    elif missing:
        say(f"missing {', '.join(missing)} (binutils): PyInstaller may fail; install binutils")
    if not needs_install("bundle", BUNDLE_STAMP):
        return
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["bundle"]
    step(f"installing {' '.join(extra)}…")
    run([str(PY), "-m", "pip", "install", "--progress-bar", "on", *extra], cwd=ROOT)
    BUNDLE_STAMP.write_text(_stamp_for("bundle"))


def missing_test_system_packages() -> list[str]:
    return [pkg for tool, pkg in DEBIAN_TEST_PACKAGES.items() if shutil.which(tool) is None]


def ensure_test_system_packages(step: Steps) -> None:
    missing = missing_test_system_packages()
    if not missing:
        return
    if not can_apt():
        say(f"missing {', '.join(missing)}: the real-window test will be skipped")
        return
    step(f"installing Debian packages for the real-window test: {' '.join(missing)}…")
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


def _size(folder: Path) -> tuple[int, int]:
    """Bytes (as ``du -sb`` counts them) and files under ``folder``."""
    total = files = 0
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            total += os.lstat(os.path.join(dirpath, name)).st_size
            files += 1
    return total, files


def bundle(step: Steps) -> int:
    """PyInstaller over triangles.spec; says where the bundle is and how big."""
    subprocess.call([str(PY), str(ROOT / "tools" / "catalogs.py"), "--stale"])
    step("building the bundle with PyInstaller (about a minute)…")
    t0 = time.monotonic()
    code = subprocess.call(
        [str(BIN / "pyinstaller"), "--noconfirm", "--log-level", "WARN", str(ROOT / "triangles.spec")], cwd=ROOT
    )
    if code != 0:
        say("the bundle was not built")
        return code
    out = ROOT / "dist" / "triangles"
    size, files = _size(out)
    say(f"bundle: {out} ({size / 1e6:.0f} MB in {files} files, built in {time.monotonic() - t0:.0f} s)")
    say(f"run it: {out / 'triangles'}   check it: {out / 'triangles'} --selftest")
    return 0


#: how many numbered steps each command has after the set-up steps
_OWN_STEPS = {"play": 2, "test": 1, "lint": 1, "i18n": 1, "bundle": 1}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in _OWN_STEPS:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    extras = "test,lint"  # one environment for every command: the tools are small
    setup = int(needs_venv()) + int(needs_venv() or needs_install(extras))
    if command == "test" and missing_test_system_packages() and can_apt():
        setup += 1
    if command == "bundle":
        setup += int(needs_venv() or needs_install("bundle", BUNDLE_STAMP))
        setup += int(can_apt() and any(shutil.which(t) is None for t in ("objdump", "strip")))
    # numbered steps while something is being set up (or for the bundle); silent once all is ready
    step = Steps(setup + _OWN_STEPS[command]) if setup or command == "bundle" else None
    quiet = Steps(0)
    ensure_venv(step or quiet)
    ensure_installed(extras, step or quiet)
    if command == "i18n":
        if step:
            step("compiling the translations…")
        return subprocess.call([str(PY), str(ROOT / "tools" / "catalogs.py")])
    if command == "play":
        if step:
            step("compiling the translations…")
        # a translator's edited .po shows at once
        subprocess.call([str(PY), str(ROOT / "tools" / "catalogs.py"), "--stale"])
        if step:
            step("starting the game…")
        return subprocess.call([str(PY), "-m", "triangles", *rest])
    if command == "lint":
        if step:
            step("lint…")
        return lint()
    if command == "bundle":
        ensure_bundle_tools(step or quiet)
        return bundle(step or quiet)
    ensure_test_system_packages(step or quiet)
    if step:
        step("running the tests…")
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
