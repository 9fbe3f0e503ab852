"""Test set-up shared by every test: headless SDL, a private home, artifacts folder.

The SDL variables must be set before anything imports pygame, which is why
they live at the top of the root conftest.  ``TRIANGLES_HOME`` points at a
temporary folder for the whole session (and each UI test gets its own), so
no test ever reads or writes the real player's saved games.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["TRIANGLES_HOME"] = tempfile.mkdtemp(prefix="triangles-test-home-")

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
ARTIFACTS.mkdir(exist_ok=True)


@pytest.fixture
def artifacts() -> Path:
    """Where tests write screenshots and logs for people to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def triangles_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty user data folder for one test."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("TRIANGLES_HOME", str(home))
    return home
