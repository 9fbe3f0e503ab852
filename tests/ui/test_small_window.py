"""The window cannot be made so small that the screens stop fitting.

A UI soak that resized the window at random found the tablet's Settings and
New game labels taller than their rows below about half the design size
(pygame_gui's fonts stop shrinking there).  The window now has a floor.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pygame
import pytest

from triangles import i18n

LANGS = ["en", "ru", "ms", "vi"]
SCREENS = ["show_settings", "show_new_game", "show_stats", "show_howto"]


@pytest.mark.parametrize("preset", ["phone", "tablet"])
def test_the_smallest_window_still_fits_every_screen(launch, preset: str, artifacts: Path) -> None:
    d = launch(preset=preset)
    app = d.app
    floor = app.window.minimum_size()
    app.window.resize((120, 120))  # a drag far past the floor
    d.frames(2)
    assert app.surface.get_size() == floor
    try:
        for lang in LANGS:
            app.set_language(lang)
            for show in SCREENS:
                app.nav.show_menu()
                d.frames(1)
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    getattr(app.nav, show)()
                    d.frames(2)
                too_small = [str(w.message) for w in caught if "too small" in str(w.message)]
                assert not too_small, (preset, lang, show, too_small)
                if lang in ("en", "ru"):
                    path = artifacts / "small-window" / f"{preset}-{show[5:]}-{lang}.png"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    pygame.image.save(app.surface, str(path))
    finally:
        app.set_language("en")
        i18n.set_language("en")


def test_switching_preset_moves_the_floor(launch) -> None:
    d = launch(preset="phone")
    w = d.app.window
    phone = w.minimum_size()
    w.use_preset("tablet")
    assert w.minimum_size() != phone
    w.resize((10, 10))
    assert d.app.surface.get_size() == w.minimum_size()
