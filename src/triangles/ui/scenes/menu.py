"""Main menu: Continue (only with a saved game), New game, Open game…, Quit.

Every entry leads somewhere visible: Continue into the game (or a message box
saying why the saved game could not be read), the others to their scenes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pygame

from triangles import __version__
from triangles.i18n import tr, trn
from triangles.record import RecordError
from triangles.saves import has_session, session_summary
from triangles.settings import seat_names
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.backdrop import Backdrop
from triangles.ui.scenes.base import Scene

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["MainMenuScene"]


def _shade(size: tuple[int, int]) -> pygame.Surface:
    """An elliptical darkening centred on the menu column (built once per window size)."""
    w, h = size
    small = (max(2, w // 8), max(2, h // 8))
    xs = (np.arange(small[0]) + 0.5) / small[0] - 0.5
    ys = (np.arange(small[1]) + 0.5) / small[1] - 0.47
    d = np.sqrt((xs[:, None] / 0.55) ** 2 + (ys[None, :] / 0.36) ** 2)
    alpha = np.clip(1.0 - d, 0.0, 1.0) ** 1.5 * 150
    img = pygame.Surface(small, pygame.SRCALPHA)
    img.fill((4, 6, 18, 0))
    pygame.surfarray.pixels_alpha(img)[:] = alpha.astype(np.uint8)
    return pygame.transform.smoothscale(img, size)


class MainMenuScene(Scene):
    def __init__(self, app: App, backdrop: Backdrop) -> None:
        super().__init__(app)
        self.backdrop = backdrop
        self._shade_size: tuple[int, int] | None = None
        self._shade: pygame.Surface | None = None
        #: the first-start hint stays on this menu (rebuilds, language changes) once it was offered
        self._howto_offered_now = False

    def build_ui(self) -> None:
        dw, dh = self.design_size
        w = min(320.0, dw - 60)
        x = (dw - w) / 2
        entries: list[tuple[str, Callable[[], None], str]] = []
        if has_session():
            entries.append(("menu.continue", self.on_continue, "@primary"))
        entries += [
            ("menu.new_game", self.app.nav.show_new_game, "@primary" if not entries else "@menu_button"),
            ("menu.open_game", self.app.nav.show_open_game, "@menu_button"),
            ("menu.howto", self.app.nav.show_howto, "@menu_button"),
            ("menu.stats", self.app.nav.show_stats, "@menu_button"),
            ("menu.settings", self.app.nav.show_settings, "@menu_button"),
            ("menu.quit", self.app.quit, "@menu_button"),
        ]
        bh, gap = 48.0, 10.0
        total = len(entries) * bh + (len(entries) - 1) * gap
        y = max(dh * 0.42, dh * 0.5 - total / 2 + 40)
        title_h = 70.0
        self.label((0, y - title_h - 70, dw, title_h), tr("app.title"), cls="@title")
        self.label((0, y - 78, dw, 30), tr("menu.tagline"), cls="@caption")
        for key, cb, cls in entries:
            self.button((x, y, w, bh), tr(key), cb, cls=cls, obj="#" + key.split(".")[-1])
            y += bh + gap
            if key == "menu.continue":
                detail = self._saved_detail()
                if detail:
                    self.label((x, y - gap + 1, w, 24), detail, cls="@caption", obj="#continue_detail")
                    y += 22
            elif key == "menu.howto" and self._offer_howto():
                self.label((10, y - gap + 1, dw - 20, 24), tr("menu.howto.hint"), cls="@caption", obj="#howto_hint")
                y += 22
        self.label((0, dh - 34, dw, 24), tr("menu.version", version=__version__), cls="@caption")

    def _offer_howto(self) -> bool:
        """At the very first start, a quiet line under How to play; never again once it was seen.

        It counts as offered when the menu is first drawn (a start straight into a
        game builds the menu under it but never shows it).
        """
        if not self.app.settings.howto_offered:
            self._howto_offered_now = True
        return self._howto_offered_now

    @staticmethod
    def _saved_detail() -> str:
        """ "Player 1 3 – 2 Player 2" for the saved game, or "" (problems show on Continue)."""
        try:
            saved = session_summary()
        except RecordError:
            return ""
        if saved is None:
            return ""
        s0, s1 = saved.scores
        a, b = seat_names(saved.players)
        return trn("menu.continue.detail", saved.lines, a=a, b=b, s0=s0, s1=s1)

    def draw(self, surface: pygame.Surface) -> None:
        if self._howto_offered_now and not self.app.settings.howto_offered:
            self.app.settings.howto_offered = True  # seen: not offered again at the next start
            self.app.save_settings()
        self.backdrop.draw(surface)
        # a soft dark cloud behind the title and buttons keeps them readable over the lines
        size = surface.get_size()
        if self._shade is None or self._shade_size != size:
            self._shade_size = size
            self._shade = _shade(size)
        surface.blit(self._shade, (0, 0))

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.app.quit()

    def on_continue(self) -> None:
        if not self.app.nav.continue_saved():
            self.rebuild()  # the saved game is gone (or moved aside): no more Continue
