"""The game's sounds: made with numpy at start, played through pygame's mixer, or nothing at all.

Why generated: seven short tones need no files, no licence and no decoder;
making them takes a few milliseconds.  Each is a soft sine or FM tone with a
raised-cosine attack and a fade to exact zero at the end, so nothing clicks.

Why it may be silent: a machine without an audio device (a server, CI, a
broken driver) must still play the game.  If the mixer cannot be opened,
:class:`Sounds` keeps ``error`` and every :meth:`Sounds.play` does nothing.
The mixer is asked for a small buffer (:data:`BUFFER`) before it opens, so
sounds start promptly and opening it costs next to nothing at start-up.

Volume and mute are read from the settings at every :meth:`Sounds.play`,
so the Settings screen's controls apply to the next sound at once.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

import numpy as np
import pygame

if TYPE_CHECKING:
    from triangles.settings import Settings

__all__ = ["Sounds", "SoundPlayer", "SOUND_NAMES", "make_waves", "RATE", "BUFFER"]

#: what the game plays: a line drawn, one or two triangles closed, a refused line, the end of a game
SOUND_NAMES = ("line", "close1", "close2", "refused", "win", "loss", "draw")

#: samples per second asked of the mixer (it may open at another rate: the waves follow what it got)
RATE = 44100
#: the mixer's buffer in samples: small, so a sound follows its click within ~12 ms
BUFFER = 512

#: how loud each sound is next to the others (the settings' volume multiplies these)
_GAIN = MappingProxyType(
    {"line": 0.45, "close1": 0.6, "close2": 0.65, "refused": 0.5, "win": 0.6, "loss": 0.55, "draw": 0.55}
)


class SoundPlayer(Protocol):
    """What scenes call (tests pass a recorder with the same method)."""

    def play(self, name: str) -> bool: ...


# -- the waves -------------------------------------------------------------------------------


def _envelope(n: int, rate: int, attack: float, decay: float, release: float = 0.012) -> np.ndarray:
    """Raised-cosine attack, exponential decay, raised-cosine release to exactly zero (no clicks)."""
    t = np.arange(n) / rate
    env = np.exp(-t / max(decay, 1e-3))
    a = max(1, min(n, int(attack * rate)))
    env[:a] *= 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, a))
    r = max(1, min(n, int(release * rate)))
    env[n - r :] *= 0.5 + 0.5 * np.cos(np.linspace(0.0, np.pi, r))
    env[-1] = 0.0
    return env


def _tone(
    rate: int,
    freq: float,
    seconds: float,
    *,
    decay: float = 0.15,
    attack: float = 0.006,
    fm_ratio: float = 0.0,
    fm_index: float = 0.0,
    glide: float = 1.0,
    harmonic: float = 0.0,
) -> np.ndarray:
    """One note: a sine (with an optional FM shimmer that fades faster than the note, and a pitch glide)."""
    n = max(2, int(seconds * rate))
    t = np.arange(n) / rate
    # the frequency slides from freq to freq * glide; the phase is its running integral
    f = freq * (glide ** (t / seconds))
    phase = 2 * np.pi * np.cumsum(f) / rate
    mod: np.ndarray | float = 0.0
    if fm_index:
        mod = fm_index * np.exp(-t / (decay * 0.5)) * np.sin(2 * np.pi * freq * fm_ratio * t)
    wave = np.sin(phase + mod)
    if harmonic:
        wave = wave + harmonic * np.sin(2 * phase)
    return wave * _envelope(n, rate, attack, decay)


def _sequence(rate: int, notes: list[tuple[float, np.ndarray]]) -> np.ndarray:
    """Notes laid at their start times (seconds) and summed."""
    n = max(int(start * rate) + len(w) for start, w in notes)
    out = np.zeros(n)
    for start, w in notes:
        k = int(start * rate)
        out[k : k + len(w)] += w
    return out


def _normalised(wave: np.ndarray, peak: float = 0.9) -> np.ndarray:
    top = float(np.max(np.abs(wave))) if len(wave) else 0.0
    return wave * (peak / top) if top > 0 else wave


def make_waves(rate: int = RATE) -> dict[str, np.ndarray]:
    """Every sound as floats in [-1, 1] at ``rate``, each starting and ending at zero."""
    bell = {"fm_ratio": 2.0, "fm_index": 0.8}  # a soft bell: harmonic overtones that fade first
    c5, e5, g5, c6, e6 = 523.25, 659.25, 783.99, 1046.5, 1318.5
    waves = {
        # a soft pluck, a little lower at its end
        "line": _tone(rate, 880.0, 0.09, decay=0.04, glide=0.94, harmonic=0.15),
        # a two-note chime
        "close1": _sequence(
            rate, [(0.0, _tone(rate, g5, 0.22, decay=0.09, **bell)), (0.07, _tone(rate, c6, 0.26, decay=0.11, **bell))]
        ),
        # three notes, brighter: two triangles at once
        "close2": _sequence(
            rate,
            [
                (0.0, _tone(rate, g5, 0.2, decay=0.08, **bell)),
                (0.06, _tone(rate, c6, 0.2, decay=0.08, **bell)),
                (0.12, _tone(rate, e6, 0.28, decay=0.12, **bell)),
            ],
        ),
        # a low, soft "no": falls in pitch, no edge
        "refused": _tone(rate, 200.0, 0.16, decay=0.07, attack=0.01, glide=0.8, harmonic=0.25),
        # up: C E G C
        "win": _sequence(
            rate,
            [(k * 0.09, _tone(rate, f, 0.34, decay=0.13, **bell)) for k, f in enumerate((c5, e5, g5, c6))],
        ),
        # down, in minor: G Eb C
        "loss": _sequence(
            rate,
            [(k * 0.14, _tone(rate, f, 0.36, decay=0.14, attack=0.012)) for k, f in enumerate((392.0, 311.13, 261.63))],
        ),
        # two even notes, neither up nor down
        "draw": _sequence(
            rate, [(0.0, _tone(rate, e5, 0.26, decay=0.1, **bell)), (0.13, _tone(rate, e5, 0.3, decay=0.12, **bell))]
        ),
    }
    return {name: _normalised(w) for name, w in waves.items()}


def _samples(wave: np.ndarray, fmt: int, channels: int) -> np.ndarray:
    """``wave`` in the mixer's sample format (pygame's code: -16 signed 16-bit, 8 unsigned 8-bit, 32 float)."""
    bits, signed = abs(fmt), fmt < 0
    if bits == 32 and not signed:
        data: np.ndarray = wave.astype(np.float32)
    else:
        top = 2 ** (bits - 1) - 1
        dtype = {8: np.int8, 16: np.int16, 32: np.int32}[bits]
        data = np.round(wave * top).astype(dtype)
        if not signed:
            unsigned = {8: np.uint8, 16: np.uint16, 32: np.uint32}[bits]
            data = (data.astype(np.int64) + top + 1).astype(unsigned)
    if channels > 1:
        data = np.repeat(data[:, None], channels, axis=1)
    return np.ascontiguousarray(data)


# -- the player -------------------------------------------------------------------------------


class Sounds:
    """The mixer and the game's sounds; every failure leaves it silent, never raising."""

    def __init__(self, settings: Callable[[], Settings]) -> None:
        """``settings``: returns the settings now (sound on/off and volume are read at every play)."""
        self._settings = settings
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        #: why there is no sound (None when the mixer opened and every sound was made)
        self.error: str | None = None
        #: what was played, newest last (the last few; for tests and the self-test)
        self.played: list[str] = []
        try:
            pygame.mixer.pre_init(RATE, -16, 2, BUFFER)
            pygame.mixer.init()
            got = pygame.mixer.get_init()
            if not got:
                raise ValueError("the mixer did not open")  # for logs: players never see it
            rate, fmt, channels = got
            for name, wave in make_waves(rate).items():
                self._sounds[name] = pygame.sndarray.make_sound(_samples(wave, fmt, channels))
        except (pygame.error, ValueError, KeyError, NotImplementedError) as exc:  # no device, an odd format
            self.error = str(exc) or type(exc).__name__
            self._sounds = {}

    @property
    def available(self) -> bool:
        """True when the mixer is open and the sounds are made."""
        return bool(self._sounds)

    def volume(self) -> float:
        """0..1 from the settings now (0 when sound is off)."""
        s = self._settings()
        if not s.sound:
            return 0.0
        return max(0, min(100, int(s.volume))) / 100.0

    def play(self, name: str) -> bool:
        """Play ``name`` at the settings' volume now; False when nothing was played (muted, no device)."""
        sound = self._sounds.get(name)
        volume = self.volume()
        if sound is None or volume <= 0.0:
            return False
        try:
            sound.set_volume(volume * _GAIN.get(name, 0.5))
            sound.play()
        except pygame.error:  # the device went away mid-game: stay quiet
            return False
        self.played = [*self.played[-15:], name]
        return True
