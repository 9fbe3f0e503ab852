"""Where the game's data lives: the shipped assets and the player's own files."""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["assets_dir", "user_data_dir", "user_config_dir"]


def assets_dir() -> Path:
    """The ``assets/`` folder: $TRIANGLES_ASSETS, inside a PyInstaller bundle, or the source tree."""
    env = os.environ.get("TRIANGLES_ASSETS")
    if env:
        return Path(env)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "assets"
    return Path(__file__).resolve().parents[2] / "assets"


def user_data_dir() -> Path:
    """Saved games, settings and statistics: $TRIANGLES_HOME or the platform's data folder."""
    env = os.environ.get("TRIANGLES_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("triangles", appauthor=False))


def user_config_dir() -> Path:
    """Settings: $TRIANGLES_HOME/config (tests, portable installs) or the platform's config folder."""
    env = os.environ.get("TRIANGLES_HOME")
    if env:
        return Path(env) / "config"
    import platformdirs

    return Path(platformdirs.user_config_dir("triangles", appauthor=False))
