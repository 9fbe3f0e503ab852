"""The starry board behind the menus: a real board with a few lines, drawn by the renderer.

Why a real board: the menus then show what the game looks like, in the same
theme, and cost nothing extra to maintain.
"""

from __future__ import annotations

import random
from typing import Any

import pygame

from triangles.rules import Game
from triangles.ui.scenes.base import veil
from triangles.ui.render import BoardView, Overlay

__all__ = ["Backdrop"]


class Backdrop:
    def __init__(self, app: Any, seed: int = 11) -> None:
        self.app = app
        self.preset_name = app.preset.name
        board = app.preset.make_board(app.preset.default_stars, seed)
        self.game = Game(board)
        rng = random.Random(seed)
        for _ in range(min(18, board.n)):
            moves = self.game.legal_moves()
            if not moves or self.game.is_over():
                break
            self.game.play(*rng.choice(moves))
        self.view = BoardView(board, app.theme, app.viewport, bg_seed=seed)
        self.overlay = Overlay()
        self._vp = app.viewport

    def draw(self, surface: pygame.Surface) -> None:
        if self._vp is not self.app.viewport:
            self._vp = self.app.viewport
            self.view.set_viewport(self._vp)
        self.view.draw(surface, self.game, self.overlay)
        surface.blit(veil(surface.get_size(), 110), (0, 0))


_cache: dict[int, Backdrop] = {}


def backdrop_for(app: Any) -> Backdrop:
    """One backdrop per app and preset (built once: the board costs a few ms)."""
    b = _cache.get(id(app))
    if b is None or b.app is not app or b.preset_name != app.preset.name:
        b = Backdrop(app)
        _cache.clear()
        _cache[id(app)] = b
    return b
