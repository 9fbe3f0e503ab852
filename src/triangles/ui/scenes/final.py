"""The final screen: who won, the scores, and what next (new game, rematch, review).

Against the computer it speaks to the human ("You won!", "You lost!");
between two players it names the winner.  It is an overlay, so the finished
board (and the last flashes) stay visible behind it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import UIElement

from triangles.i18n import tr, trn
from triangles.match import Match
from triangles.settings import seat_names
from triangles.ui import input as inp
from triangles.ui.hud import Hud
from triangles.ui.input import Action
from triangles.ui.scenes.base import Overlay, Rect

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["FinalScene", "result_text", "result_sound"]


def result_text(match: Match) -> str:
    """The headline for a finished match."""
    g = match.game
    winner = g.winner()
    if winner is None:
        return tr("final.draw")
    if match.mode == "ai":
        return tr("final.you_won") if winner == match.human_side else tr("final.you_lost")
    return tr("final.wins", name=seat_names(match.players)[winner])


def result_sound(match: Match) -> str:
    """The end's sound: against the computer the human's win, loss or draw; otherwise a win or a draw."""
    winner = match.game.winner()
    if winner is None:
        return "draw"
    if match.mode == "ai":
        return "win" if winner == match.human_side else "loss"
    return "win"  # two people, or a demo: somebody won, nobody lost to the player


def fits(button: UIElement) -> bool:
    """The button's text is narrower than the button (pygame_gui clips it silently)."""
    font, text = getattr(button, "font", None), getattr(button, "text", "")
    return font is None or font.size(text)[0] <= button.rect.width - 10


class FinalScene(Overlay):
    dim_alpha = 70

    def __init__(self, app: App, match: Match) -> None:
        super().__init__(app)
        self.match = match
        self.text = result_text(match)
        self.theme = app.theme.seated(match.colors_swapped)  # the person keeps their colour
        self.hud = Hud(self.theme)  # its fonts, for the scores
        self.box: Rect = (0, 0, 0, 0)
        app.sounds.play(result_sound(match))  # once, when the game ends (a resize rebuilds, never re-makes)

    def build_ui(self) -> None:
        self._build(one_column=False)
        if any(not fits(b) for b in self._buttons):
            # a long word ("Permainan baharu") does not fit half the panel: one button per row
            self.clear_ui()
            self._build(one_column=True)

    def _build(self, one_column: bool) -> None:
        dw, dh = self.design_size
        w = min(400.0, dw - 24)
        h = 330.0 + (124.0 if one_column else 0.0)
        x, y = (dw - w) / 2, (dh - h) / 2
        self.box = (x, y, w, h)
        self.panel((x, y, w, h))
        winner = self.match.game.winner()
        self.label(
            (x, y + 18, w, 56),
            self.text,
            cls="@heading",
            obj="#result" if winner is None else f"#player{winner ^ self.match.colors_swapped}",
        )
        self.label((x, y + 152, w, 24), trn("final.lines", self.match.game.move_count), cls="@caption")
        nav = self.app.nav
        entries = [
            (tr("final.new_game"), nav.new_game, "@primary", "#new_game"),
            (tr("final.rematch"), self.rematch, "@menu_button", "#rematch"),
            (tr("final.review"), self.review, "@menu_button", "#review"),
            (tr("pause.main_menu"), nav.show_menu, "@menu_button", "#main_menu"),
        ]
        by = y + 186
        for k, (text, cb, cls, obj) in enumerate(entries):
            if one_column:
                rect = (x + 16, by + k * 62, w - 32, 50)
            else:
                bw = (w - 48) / 2
                rect = (x + 16 + (k % 2) * (bw + 16), by + (k // 2) * 62, bw, 50)
            self.button(rect, text, cb, cls=cls, obj=obj)

    def draw_front(self, surface: pygame.Surface) -> None:
        """The scores in the players' colours, on the panel between headline and buttons."""
        x, y, w, _ = self.box
        vp = self.app.viewport
        hud = self.hud
        th = self.theme
        sizes = th.hud.font_sizes
        scores = self.match.game.scores
        names = seat_names(self.match.players)
        big = hud.font(sizes.large * 1.6 * vp.scale, bold=True)
        small = hud.font(sizes.small * vp.scale)
        cx, cy = vp.design_to_screen(x + w / 2, y + 100)
        dash = big.render("–", True, th.hud.text_dim)
        surface.blit(dash, dash.get_rect(center=(cx, cy)))
        for k in (0, 1):
            img = big.render(str(scores[k]), True, th.ui_player_colors[k])  # on the dark panel
            side = -1 if k == 0 else 1
            sx = cx + side * (dash.get_width() / 2 + 14 * vp.scale + 34 * vp.scale)
            surface.blit(img, img.get_rect(center=(sx, cy)))
            name = hud.fit(small, names[k], w * 0.4 * vp.scale, th.hud.text_dim)
            surface.blit(name, name.get_rect(center=(sx, cy + big.get_height() * 0.62)))

    def on_theme(self) -> None:
        self.theme = self.app.theme.seated(self.match.colors_swapped)
        self.hud = Hud(self.theme)

    def rematch(self) -> None:
        self.app.nav.start_match(self.match.rematch())

    def review(self) -> None:
        self.app.nav.show_review(self.match)

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.UNDO and self.match.can_undo():
            # a misclick on the last line: take it back and play on
            self.app.nav.resume(undo=True)
