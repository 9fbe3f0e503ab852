"""Score flashes age with the frames and go once the theme's duration has passed."""

from __future__ import annotations

from triangles.ui.flashes import MIN_DURATION, Flashes


def test_a_flash_reports_its_progress_and_expires():
    f = Flashes(duration=1.0)
    assert not f and f.progress() == []
    f.add([(0, 1, 2), (1, 2, 3)], owner=1)
    f.update(0.25)
    assert f.progress() == [((0, 1, 2), 1, 0.25), ((1, 2, 3), 1, 0.25)]
    f.add([(4, 5, 6)], owner=0)
    f.update(0.8)
    assert f.progress() == [((4, 5, 6), 0, 0.8)]
    f.update(0.2)
    assert len(f) == 0


def test_clear_and_a_zero_duration_theme():
    f = Flashes(duration=0.0)
    assert f.duration == MIN_DURATION
    f.add([(0, 1, 2)], owner=0)
    f.clear()
    assert not f
