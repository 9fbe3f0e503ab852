"""Nothing lost: when the data folder is read-only or full, the player is told in a box that stays.

The failures are simulated (the tests run as root, where a read-only
folder is still writable): ``save_session`` and ``save_game_copy`` raise the
OSError the system would.
"""

from __future__ import annotations

import errno

import pytest

from triangles.record import load_record
from triangles.ui.scenes.keep import KeepProblemScene, SaveCopyScene
from triangles.ui.scenes.play import PlayScene


def _read_only(*_a, **_k):
    raise OSError(errno.EROFS, "Read-only file system")


@pytest.fixture
def broken_disk(monkeypatch):
    import triangles.ui.navigator as navigator
    import triangles.ui.scenes.play as play

    monkeypatch.setattr(play, "save_session", _read_only)
    monkeypatch.setattr(navigator, "save_session", _read_only)
    monkeypatch.setattr(navigator, "save_game_copy", _read_only)


def _type_path(d, text: str) -> None:
    entry = d.scene.entry
    assert entry is not None
    entry.set_text(text)


def _hotseat(launch):
    return launch(preset="phone", stars=24, seed=7, mode="hotseat")


def test_a_failed_autosave_is_said_in_a_box_that_stays_once(launch, broken_disk):
    d = _hotseat(launch)
    game = d.play_scene().match.game
    d.draw_line(*game.legal_moves()[0])
    assert isinstance(d.scene, KeepProblemScene) and not d.scene.at_quit
    assert "Read-only file system" in d.scene.reason
    d.frames(120)  # it does not fade
    assert isinstance(d.scene, KeepProblemScene)
    d.press("#ok")
    assert isinstance(d.scene, PlayScene)
    d.draw_line(*game.legal_moves()[0])
    assert isinstance(d.scene, PlayScene)  # said once until a save works again
    assert game.move_count == 2


def test_save_a_copy_elsewhere_from_the_box(launch, broken_disk, tmp_path):
    d = _hotseat(launch)
    match = d.play_scene().match
    d.draw_line(*match.game.legal_moves()[0])
    d.press("#copy")
    assert isinstance(d.scene, SaveCopyScene)
    target = tmp_path / "elsewhere" / "my-game.json"
    _type_path(d, str(target))
    d.press("#save")
    assert isinstance(d.scene, PlayScene)
    assert load_record(target).moves == list(match.game.moves)
    assert str(target) in (d.play_scene().msg or ("",))[0]


def test_a_copy_to_a_folder_that_fails_says_why_and_stays(launch, broken_disk, tmp_path):
    d = _hotseat(launch)
    d.draw_line(*d.play_scene().match.game.legal_moves()[0])
    d.press("#copy")
    _type_path(d, str(tmp_path))  # a folder, not a file
    d.press("#save")
    assert isinstance(d.scene, SaveCopyScene) and d.scene.error
    blocker = tmp_path / "file"
    blocker.write_text("x")
    _type_path(d, str(blocker / "game.json"))  # a file where a folder should be
    d.press("#save")
    assert isinstance(d.scene, SaveCopyScene) and d.scene.error.startswith("Could not save the game: ")


def test_quitting_when_the_game_cannot_be_kept_asks_first(launch, broken_disk, tmp_path):
    d = _hotseat(launch)
    d.draw_line(*d.play_scene().match.game.legal_moves()[0])
    d.press("#ok")
    d.app.quit()
    assert d.app.running and isinstance(d.scene, KeepProblemScene) and d.scene.at_quit
    d.press("#cancel")
    assert d.app.running and isinstance(d.scene, PlayScene)
    d.post(d.pg.QUIT)  # closing the window
    d.frames(1)
    assert d.app.running and isinstance(d.scene, KeepProblemScene)
    d.post(d.pg.QUIT)  # closing it again: the player means it
    d.frames(1)
    assert not d.app.running


def test_save_game_to_a_read_only_games_folder_offers_a_copy(launch, broken_disk):
    d = _hotseat(launch)
    d.draw_line(*d.play_scene().match.game.legal_moves()[0])
    d.press("#ok")
    d.press("#menu")
    d.press("#save")
    assert isinstance(d.scene, KeepProblemScene)
    assert d.button("#copy") is not None


def test_when_saving_works_again_quitting_is_quiet(launch, monkeypatch):
    import triangles.ui.navigator as navigator

    d = _hotseat(launch)
    d.draw_line(*d.play_scene().match.game.legal_moves()[0])
    calls = []
    real = navigator.save_session

    def counting(m):
        calls.append(1)
        real(m)

    monkeypatch.setattr(navigator, "save_session", counting)
    d.app.quit()
    assert not d.app.running and calls


@pytest.mark.parametrize("preset,stars", [("phone", 24), ("tablet", 80)])
@pytest.mark.parametrize("lang", ["en", "ru", "ms", "vi"])
def test_the_keep_boxes_fit_in_every_language(launch, broken_disk, monkeypatch, cut_buttons, lang, preset, stars):
    """The box that stays, its at-quit form and the copy dialog: nothing cut off; pictures for people to look at."""
    import warnings

    from triangles import i18n

    monkeypatch.setenv("TRIANGLES_LANG", lang)
    cut: list[str] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            d = launch(preset=preset, stars=stars, seed=7, mode="hotseat")
            d.draw_line(*d.play_scene().match.game.legal_moves()[0])
            assert isinstance(d.scene, KeepProblemScene)
            d.frames(2)
            cut += cut_buttons(d)
            d.shot(f"keep/{preset}-box-{lang}.png")
            d.press("#copy")
            d.frames(2)
            cut += cut_buttons(d)
            d.shot(f"keep/{preset}-copy-{lang}.png")
            d.press("#cancel")
            d.press("#ok")
            d.app.quit()
            assert isinstance(d.scene, KeepProblemScene) and d.scene.at_quit
            d.frames(2)
            cut += cut_buttons(d)
            d.shot(f"keep/{preset}-quit-{lang}.png")
            scrolled = [el for el in d.app.gui.get_sprite_group().sprites() if getattr(el, "scroll_bar", None)]
    finally:
        i18n.set_language("en")
    too_small = sorted({str(w.message) for w in caught if "too small for text" in str(w.message)})
    assert not too_small and not cut, (too_small, cut)
    assert not scrolled, f"{lang} {preset}: the box's text needs a scroll bar"
