"""Score flashes: each freshly closed triangle glows for the theme's flash duration.

Play and review both show them (a line drawn, a step forward in a replay), so
the ageing and the hand-over to the renderer live here once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from triangles.rules import Triangle

__all__ = ["Flashes"]

#: a flash never lasts less than this (a theme with duration 0 would divide by zero)
MIN_DURATION = 0.05


@dataclass
class _Flash:
    triangle: Triangle
    owner: int
    age: float = 0.0


class Flashes:
    """The triangles still flashing, with their owner and age (seconds).

    >>> f = Flashes(duration=1.0)
    >>> f.add([(0, 1, 2)], owner=1); f.update(0.25)
    >>> f.progress()
    [((0, 1, 2), 1, 0.25)]
    >>> f.update(1.0); bool(f)
    False
    """

    def __init__(self, duration: float, animated: Callable[[], bool] | None = None) -> None:
        """``animated``: asked at each new flash; False (reduced motion) shows the filled triangle at once, no flash."""
        self.duration = max(MIN_DURATION, float(duration))
        self.animated = animated
        self._items: list[_Flash] = []

    def __len__(self) -> int:
        return len(self._items)

    def add(self, triangles: Iterable[Triangle], owner: int) -> None:
        """Start a flash for each of ``triangles``, closed by ``owner`` (none with animations off)."""
        if self.animated is not None and not self.animated():
            return
        self._items.extend(_Flash((int(a), int(b), int(c)), int(owner)) for a, b, c in triangles)

    def clear(self) -> None:
        self._items.clear()

    def update(self, dt: float) -> None:
        """Age every flash by ``dt`` seconds; the finished ones go."""
        for f in self._items:
            f.age += dt
        self._items = [f for f in self._items if f.age < self.duration]

    def progress(self) -> list[tuple[Triangle, int, float]]:
        """``(triangle, owner, progress 0..1)`` of each flash, as :class:`Overlay.flashes` wants them."""
        return [(f.triangle, f.owner, min(1.0, f.age / self.duration)) for f in self._items]
