"""The scene stack: which screens are open, which one hears the input, which ones are drawn.

Why a stack: overlays (pause menu, final screen, message boxes) sit on top of
the game and reveal it again when closed.  The stack only keeps order and
tells scenes when they are covered, revealed or closed for good; *where to
go next* is the navigator's business (:mod:`triangles.ui.navigator`), and
the loop that draws and feeds the scenes is the app's.

>>> class S:
...     opaque = True
...     def enter(self): pass
...     def leave(self): pass
...     def closed(self): pass
>>> stack: SceneStack[S] = SceneStack()
>>> a, b = S(), S()
>>> stack.push(a); stack.push(b)
>>> stack.top is b, stack.below(b) is a
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, Protocol, TypeVar

__all__ = ["SceneStack", "StackScene"]


class StackScene(Protocol):
    """What the stack needs of a scene."""

    #: False for overlays: the scene below is drawn first
    @property
    def opaque(self) -> bool: ...

    def enter(self) -> None:
        """Pushed, or revealed again when the scene above it closed."""

    def leave(self) -> None:
        """Covered by another scene, or about to be closed."""

    def closed(self) -> None:
        """Removed from the stack for good."""


S = TypeVar("S", bound=StackScene)
T = TypeVar("T")


class SceneStack(Generic[S]):
    """Scenes bottom to top; only the top one is *entered* (has its widgets)."""

    def __init__(self) -> None:
        self._scenes: list[S] = []

    def __len__(self) -> int:
        return len(self._scenes)

    def __iter__(self) -> Iterator[S]:
        """Bottom to top."""
        return iter(list(self._scenes))

    def __contains__(self, scene: object) -> bool:
        return any(s is scene for s in self._scenes)

    @property
    def top(self) -> S | None:
        return self._scenes[-1] if self._scenes else None

    def visible(self) -> list[S]:
        """What a frame draws, bottom to top: the topmost opaque scene and everything above it."""
        k = len(self._scenes) - 1
        while k > 0 and not self._scenes[k].opaque:
            k -= 1
        return self._scenes[max(k, 0) :]

    def push(self, scene: S) -> None:
        if self._scenes:
            self._scenes[-1].leave()
        self._scenes.append(scene)
        scene.enter()

    def pop(self, scene: S | None = None) -> None:
        """Close the top scene (or ``scene`` and everything above it); the one below is revealed."""
        if not self._scenes or (scene is not None and scene not in self):
            return
        target = scene if scene is not None else self._scenes[-1]
        while self._scenes:
            s = self._scenes.pop()
            s.leave()
            s.closed()
            if s is target:
                break
        if self._scenes:
            self._scenes[-1].enter()

    def replace(self, scene: S) -> None:
        """Close every scene and show ``scene`` alone."""
        while self._scenes:
            s = self._scenes.pop()
            s.leave()
            s.closed()
        self._scenes.append(scene)
        scene.enter()

    def find(self, cls: type[T]) -> T | None:
        """The topmost scene of class ``cls``."""
        for s in reversed(self._scenes):
            if isinstance(s, cls):
                return s
        return None

    def above(self, scene: S) -> S | None:
        """The scene directly over ``scene`` (None at the top or when not on the stack)."""
        for k, s in enumerate(self._scenes[:-1]):
            if s is scene:
                return self._scenes[k + 1]
        return None

    def below(self, scene: S) -> S | None:
        """The scene directly under ``scene`` (None at the bottom or when not on the stack)."""
        for k, s in enumerate(self._scenes):
            if s is scene:
                return self._scenes[k - 1] if k > 0 else None
        return None
