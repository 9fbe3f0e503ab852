"""Sound: the tones are made soft, played on the right events, silent without a device, live volume.

The play and final-screen tests swap the app's sounds for a recorder
(``AppConfig(sounds=...)``); the mixer tests use the real :class:`Sounds`
with SDL's dummy audio driver (the tests' default), and with the mixer's
``init`` failing as it does on a machine with no audio device.
"""

from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from triangles.match import Match, MatchSettings
from triangles.settings import Settings
from triangles.ui.app import AppConfig
from triangles.ui.scenes.final import FinalScene, result_sound
from triangles.ui.sound import RATE, SOUND_NAMES, Sounds, make_waves


class Recorder:
    """Stands in for :class:`Sounds`: keeps the names asked for, and the settings it was given."""

    def __init__(self, settings) -> None:
        self.settings = settings
        self.names: list[str] = []

    def play(self, name: str) -> bool:
        self.names.append(name)
        return True


def _recording():
    made: list[Recorder] = []

    def factory(settings):
        made.append(Recorder(settings))
        return made[-1]

    return made, factory


def quick_chooser(game, level, seed, time_limit):
    return random.Random(seed).choice(game.legal_moves())


# -- the waves ----------------------------------------------------------------------------


def test_every_sound_is_made_short_and_without_clicks():
    waves = make_waves(RATE)
    assert set(waves) == set(SOUND_NAMES)
    for name, w in waves.items():
        seconds = len(w) / RATE
        assert 0.06 <= seconds <= 0.7, f"{name}: {seconds:.2f} s"
        assert np.max(np.abs(w)) <= 0.91, name
        # fades in and out: silence at both ends, and no jump anywhere bigger than a smooth tone makes
        assert w[0] == pytest.approx(0.0, abs=1e-9) and w[-1] == pytest.approx(0.0, abs=1e-9), name
        edge = int(0.002 * RATE)
        assert np.max(np.abs(w[:edge])) < 0.35 and np.max(np.abs(w[-edge:])) < 0.35, name
        # a click is broadband: almost nothing may lie above 10 kHz (the tones themselves stay below 6)
        power = np.abs(np.fft.rfft(w)) ** 2
        freqs = np.fft.rfftfreq(len(w), 1 / RATE)
        assert power[freqs > 10_000].sum() < 0.002 * power.sum(), f"{name}: a click"
    # a triangle, two at once and a refusal do not sound alike
    assert len({len(waves[n]) for n in ("close1", "close2", "refused", "line")}) == 4


def test_sounds_open_on_the_dummy_driver_and_play():
    s = Settings()
    sounds = Sounds(lambda: s)
    try:
        assert sounds.error is None and sounds.available
        for name in SOUND_NAMES:
            assert sounds.play(name), name
        assert sounds.played[-len(SOUND_NAMES) :] == list(SOUND_NAMES)
        assert not sounds.play("no such sound")
    finally:
        pygame.mixer.quit()


def test_mixer_failing_leaves_the_sounds_silent(monkeypatch):
    def no_device(*args, **kwargs):
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    sounds = Sounds(lambda: Settings())
    assert not sounds.available and "audio device" in (sounds.error or "")
    assert not any(sounds.play(name) for name in SOUND_NAMES)


# -- live volume and mute ------------------------------------------------------------------


class FakeSound:
    def __init__(self) -> None:
        self.volumes: list[float] = []

    def set_volume(self, v: float) -> None:
        self.volumes.append(v)

    def play(self) -> None:
        pass


def test_volume_and_mute_are_read_at_every_play(launch):
    d = launch(preset="phone", stars=24, seed=5, mode="hotseat")
    sounds = d.app.sounds
    assert isinstance(sounds, Sounds)
    fakes = {name: FakeSound() for name in SOUND_NAMES}
    sounds._sounds = fakes  # type: ignore[assignment]
    d.app.settings.volume = 100
    assert sounds.play("line") and sounds.play("close1")
    loud = {name: f.volumes[-1] for name, f in fakes.items() if f.volumes}
    # the Settings screen's slider and switch, used as a player would
    d.app.nav.show_settings()
    d.frames(2)
    scene = d.scene
    scene.volume_slider.set_current_value(25)
    d.frames(2)
    assert d.app.settings.volume == 25
    assert len(fakes["close1"].volumes) == 1  # not while the slider moves...
    d.frames(30)
    assert fakes["close1"].volumes[1:] == [pytest.approx(loud["close1"] * 0.25)]  # ...once it is still: a sample
    assert sounds.play("line")
    assert fakes["line"].volumes[-1] == pytest.approx(loud["line"] * 0.25)
    n = len(fakes["line"].volumes)
    d.click(dict(scene.rows["sound"].buttons)[False].rect.center)
    assert d.app.settings.sound is False
    assert not sounds.play("line") and len(fakes["line"].volumes) == n  # muted: nothing played at all
    d.click(dict(d.scene.rows["sound"].buttons)[True].rect.center)
    assert sounds.played[-1] == "close1"  # switched on: what it sounds like
    assert sounds.play("line") and fakes["line"].volumes[-1] == pytest.approx(loud["line"] * 0.25)


# -- the right sound at the right moment ------------------------------------------------------


def _closing(game, n: int):
    """A legal line that closes exactly ``n`` triangles now (None when there is none)."""
    for move in game.legal_moves():
        g = game.clone()
        if len(g.play(*move)) == n:
            return move
    return None


def _quiet(game):
    """A legal line that closes nothing."""
    return _closing(game, 0)


def test_play_sounds_follow_the_events(launch):
    made, factory = _recording()
    d = launch(preset="phone", stars=24, seed=5, mode="hotseat", config=AppConfig(ai_delay=(0, 0), sounds=factory))
    rec = made[-1]
    assert rec.settings() is d.app.settings  # the live settings, not a copy
    play = d.play_scene()
    game = play.match.game
    i, j = _quiet(game)
    d.draw_line(i, j)
    assert rec.names == ["line"]
    d.draw_line(i, j)  # drawn already: refused
    assert rec.names == ["line", "refused"] and game.move_count == 1
    d.key(pygame.K_ESCAPE)  # let go of the star still selected
    heard_one = heard_two = False
    rng = random.Random(3)
    while not game.is_over():
        two, one = _closing(game, 2), _closing(game, 1)
        if two is not None and not heard_two:
            d.draw_line(*two)
            assert rec.names[-1] == "close2"
            heard_two = True
        elif one is not None and not heard_one:
            d.draw_line(*one)
            assert rec.names[-1] == "close1"
            heard_one = True
        else:
            move = _quiet(game) if rng.random() < 0.7 and _quiet(game) else rng.choice(game.legal_moves())
            n = len(game.clone().play(*move))
            play.play(*move)
            if not game.is_over():
                assert rec.names[-1] == ("line", "close1", "close2")[n]
    assert heard_one
    d.frames(3)
    assert isinstance(d.scene, FinalScene)
    assert rec.names[-1] == ("draw" if game.winner() is None else "win")  # two players: nobody lost to you
    # resizing rebuilds the final screen without playing its sound again
    count = len(rec.names)
    d.app.window.resize((500, 900))
    d.frames(3)
    assert len(rec.names) == count


def test_a_double_close_has_its_own_sound(launch):
    """Search boards until a line closes two at once (the game above may not offer one)."""
    made, factory = _recording()
    d = launch(preset="phone", stars=24, seed=7, mode="hotseat", config=AppConfig(ai_delay=(0, 0), sounds=factory))
    rec = made[-1]
    play = d.play_scene()
    rng = random.Random(11)
    for _ in range(40):
        game = play.match.game
        while not game.is_over():
            two = _closing(game, 2)
            if two is not None:
                d.draw_line(*two)
                assert rec.names[-1] == "close2"
                return
            play.play(*(_quiet(game) or rng.choice(game.legal_moves())))
        d.app.nav.start_match(play.match.rematch())
        d.frames(2)
        play = d.play_scene()
    pytest.fail("no line closing two triangles in 40 games")


@pytest.mark.parametrize("winner,expected", [(0, "win"), (1, "loss"), (None, "draw")])
def test_the_final_sound_is_from_the_humans_side(winner, expected, monkeypatch):
    for starts in (False, True):
        m = Match.new(MatchSettings(mode="ai", preset="phone", stars=24, seed=4, computer_starts=starts))
        human = m.human_side
        won = None if winner is None else human ^ winner
        monkeypatch.setattr(type(m.game), "winner", lambda self, won=won: won)
        assert result_sound(m) == expected
    hot = Match.new(MatchSettings(mode="hotseat", preset="phone", stars=24, seed=4))
    assert result_sound(hot) == ("draw" if winner is None else "win")


def test_game_against_the_computer_ends_with_its_sound(launch):
    made, factory = _recording()
    config = AppConfig(ai_delay=(0, 0), chooser=quick_chooser, sounds=factory)
    d = launch(preset="phone", stars=24, seed=5, mode="ai", config=config)
    rec = made[-1]
    play = d.play_scene()
    game = play.match.game
    rng = random.Random(4)
    while not game.is_over():
        if play.match.computer_to_move:
            n = game.move_count
            assert d.until(lambda n=n: game.move_count > n or game.is_over(), timeout=10)
            continue
        play.play(*rng.choice(game.legal_moves()))
    d.frames(3)
    assert isinstance(d.scene, FinalScene)
    assert rec.names[-1] == result_sound(play.match)
    assert rec.names[-1] in ("win", "loss", "draw")
    # the computer's lines sound like anyone's
    assert rec.names.count("line") + rec.names.count("close1") + rec.names.count("close2") == game.move_count


# -- no device at all: the game still plays -----------------------------------------------------


def test_a_whole_game_with_the_mixer_failing(launch, monkeypatch):
    def no_device(*args, **kwargs):
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    d = launch(preset="phone", stars=24, seed=5, mode="hotseat")
    sounds = d.app.sounds
    assert isinstance(sounds, Sounds) and not sounds.available
    play = d.play_scene()
    game = play.match.game
    i, j = _quiet(game)
    d.draw_line(i, j)
    d.draw_line(i, j)  # a refusal: its sound is nothing, quietly
    assert game.move_count == 1
    rng = random.Random(2)
    while not game.is_over():
        d.draw_line(*rng.choice(game.legal_moves()))
    d.frames(3)
    assert isinstance(d.scene, FinalScene) and sounds.played == []


def test_the_dummy_driver_game_plays_its_sounds(launch):
    d = launch(preset="phone", stars=24, seed=5, mode="hotseat")
    sounds = d.app.sounds
    assert isinstance(sounds, Sounds) and sounds.available
    game = d.play_scene().match.game
    d.draw_line(*_quiet(game))
    assert sounds.played == ["line"]
    d.app.settings.sound = False  # as the Settings screen does
    d.draw_line(*_quiet(game))
    assert sounds.played == ["line"] and game.move_count == 2
