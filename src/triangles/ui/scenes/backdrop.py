"""The starry board behind the menus: a real board with a few lines, drawn by the renderer.

Why a real board: the menus then show what the game looks like, in the same
theme, and cost nothing extra to maintain.  The navigator keeps one for the
session and hands it to the menu scenes; it is made on its first draw (a
game started from the command line never pays for it) and made again for
another preset.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pygame

from triangles.rules import Game
from triangles.ui.render import BoardView, Overlay, Viewport

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["Backdrop"]

#: lines drawn on the backdrop's board
LINES = 18
#: darkening over the board, so the menus read well
VEIL_ALPHA = 110


class _Board:
    """One backdrop board for one preset."""

    def __init__(self, app: App, seed: int) -> None:
        self.preset_name = app.preset.name
        self.theme = app.theme
        board = app.preset.make_board(app.preset.default_stars, seed)
        self.game = Game(board)
        rng = random.Random(seed)
        for _ in range(min(LINES, board.n)):
            moves = self.game.legal_moves()
            if not moves or self.game.is_over():
                break
            self.game.play(*rng.choice(moves))
        self.viewport: Viewport = app.viewport
        self.view = BoardView(board, app.theme, app.viewport, bg_seed=seed)
        self.overlay = Overlay()


class Backdrop:
    def __init__(self, app: App, seed: int = 11) -> None:
        self.app = app
        self.seed = seed
        self._board: _Board | None = None

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        sc = self._board
        if sc is None or sc.preset_name != app.preset.name or sc.theme is not app.theme:
            sc = self._board = _Board(app, self.seed)
        if sc.viewport is not app.viewport:
            sc.viewport = app.viewport
            sc.view.set_viewport(sc.viewport)
        sc.view.draw(surface, sc.game, sc.overlay)
        surface.blit(app.window.veil(surface.get_size(), VEIL_ALPHA), (0, 0))
