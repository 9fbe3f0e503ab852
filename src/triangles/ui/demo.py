"""A demo's pace: the computer against itself, slow / normal / fast, paused or running.

The play scene owns one of these for a demo match: the pause before each
line is read from it at every frame, so a change of speed applies to the
line being waited for, and a paused demo asks for nothing and plays nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["DemoPace", "SPEEDS", "SPEED_KEYS", "Speed"]

Speed = Literal["slow", "normal", "fast"]
#: slowest first (``AppConfig.demo_pauses`` gives their seconds in this order)
SPEEDS: tuple[Speed, ...] = ("slow", "normal", "fast")
#: each speed's word on screen (catalog keys, in the order of SPEEDS)
SPEED_KEYS: tuple[str, ...] = ("demo.speed.slow", "demo.speed.normal", "demo.speed.fast")


@dataclass
class DemoPace:
    """``pauses``: seconds before a line at each of :data:`SPEEDS`."""

    pauses: tuple[float, float, float]
    speed: Speed = "normal"
    paused: bool = False

    @property
    def speed_key(self) -> str:
        """The catalog key of the current speed's word."""
        return SPEED_KEYS[SPEEDS.index(self.speed)]

    @property
    def seconds(self) -> float:
        """The pause before the next line at the current speed."""
        return self.pauses[SPEEDS.index(self.speed)]

    def can_slow_down(self) -> bool:
        return self.speed != SPEEDS[0]

    def can_speed_up(self) -> bool:
        return self.speed != SPEEDS[-1]

    def slower(self) -> None:
        self.speed = SPEEDS[max(0, SPEEDS.index(self.speed) - 1)]

    def faster(self) -> None:
        self.speed = SPEEDS[min(len(SPEEDS) - 1, SPEEDS.index(self.speed) + 1)]

    def toggle(self) -> None:
        self.paused = not self.paused
