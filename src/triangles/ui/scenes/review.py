"""Review a game move by move (from the final screen).

The reviewed position is a private ``Game`` stepped with ``play``/``undo``
(exact inverses), so reviewing never touches the finished match.  Arrow keys
or the buttons step; Home/End jump; Escape goes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from triangles.i18n import tr
from triangles.match import Match
from triangles.rules import Game
from triangles.settings import seat_names
from triangles.ui import input as inp
from triangles.ui.flashes import Flashes
from triangles.ui.hud import Hud, HudInfo, HudLayout, hud_layout
from triangles.ui.input import Action
from triangles.ui.render import BoardView, Overlay
from triangles.ui.scenes.base import Scene
from triangles.ui.zoom import BoardZoom

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["ReviewScene"]


class ReviewScene(Scene):
    def __init__(self, app: App, match: Match) -> None:
        super().__init__(app)
        self.match = match
        self.moves = list(match.game.moves)
        self.game = Game(match.board, match.game.extra_turn)
        theme = app.theme.seated(match.colors_swapped)
        self.view = BoardView(match.board, theme, app.viewport, bg_seed=int(match.seed or 0) % 100_000)
        self.hud = Hud(theme)
        self.flashes = Flashes(app.theme.flash.duration, animated=lambda: app.animations)
        self.zoom = BoardZoom(lambda: self.view, lambda: self.app.viewport)  # UI state: starts at the whole board
        self.time = 0.0
        self.step_to(len(self.moves))
        self.flashes.clear()

    @property
    def index(self) -> int:
        return self.game.move_count

    @property
    def layout(self) -> HudLayout:
        return hud_layout(self.app.viewport.design_size, self.app.viewport.board_rect)

    def build_ui(self) -> None:
        x, y, w, h = self.layout.buttons
        items = [
            ("«", self.first, "#first"),
            ("‹", self.prev, "#prev"),
            ("›", self.next, "#next"),
            ("»", self.last, "#last"),
            (tr("button.back"), self.back, "#back"),
        ]
        gap = 8.0
        bw = (w - gap * (len(items) - 1)) / len(items)
        for k, (text, cb, obj) in enumerate(items):
            self.button((x + k * (bw + gap), y, bw, h), text, cb, cls="@hud_button", obj=obj)

    def on_viewport(self) -> None:
        self.view.set_viewport(self.app.viewport)

    def on_theme(self) -> None:
        theme = self.app.theme.seated(self.match.colors_swapped)
        self.view.set_theme(theme)
        self.hud = Hud(theme)

    def step_to(self, k: int) -> None:
        k = max(0, min(len(self.moves), k))
        while self.game.move_count > k:
            self.game.undo()
        while self.game.move_count < k:
            mover = self.game.player
            self.flashes.add(self.game.play(*self.moves[self.game.move_count]), mover)

    def first(self) -> None:
        self.step_to(0)

    def prev(self) -> None:
        self.step_to(self.index - 1)

    def next(self) -> None:
        self.step_to(self.index + 1)

    def last(self) -> None:
        self.step_to(len(self.moves))

    def back(self) -> None:
        self.app.nav.close(self)

    def handle_action(self, a: Action) -> None:
        if self.zoom.handle(a):
            return
        if a.kind == inp.CANCEL:
            self.back()
        elif a.kind in (inp.PREV, inp.UNDO) or (a.kind == inp.NAV and a.pos == (-1, 0)):
            self.prev()
        elif a.kind in (inp.NEXT, inp.REDO, inp.CONFIRM) or (a.kind == inp.NAV and a.pos == (1, 0)):
            self.next()
        elif a.kind == inp.FIRST:
            self.first()
        elif a.kind == inp.LAST:
            self.last()

    def update(self, dt: float) -> None:
        self.time += dt
        self.zoom.update(dt)
        self.hud.update(dt)
        self.flashes.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        pulse = self.time if self.app.animations else None  # the last line's mark: still with reduced motion
        self.view.draw(surface, self.game, Overlay(flashes=self.flashes.progress(), pulse=pulse))
        players = self.match.players
        info = HudInfo(
            names=seat_names(players),
            subtitles=("", ""),
            scores=self.game.scores,
            to_move=None if self.game.is_over() else self.game.player,
            status=tr("review.position", index=self.index, total=len(self.moves)),
            animated=self.app.animations,
        )
        self.hud.draw(surface, self.app.viewport, self.layout, info)
        self.zoom.draw(surface, self.hud)
