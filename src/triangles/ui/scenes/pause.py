"""In-game menu (Menu button or Escape): resume, save a copy, new game, main menu, quit."""

from __future__ import annotations

from collections.abc import Callable

from triangles.i18n import tr
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.base import Overlay

__all__ = ["PauseScene"]


class PauseScene(Overlay):
    def build_ui(self) -> None:
        nav = self.app.nav
        dw, dh = self.design_size
        w = min(320.0, dw - 40)
        entries: list[tuple[str, Callable[[], None], str, str]] = [
            ("pause.resume", nav.resume, "@primary", "#resume"),
            ("pause.save", nav.save_copy, "@menu_button", "#save"),
            ("menu.howto", nav.show_howto, "@menu_button", "#howto"),
            ("menu.settings", nav.show_settings, "@menu_button", "#settings"),
            ("menu.new_game", nav.new_game, "@menu_button", "#new_game"),
            ("pause.main_menu", nav.show_menu, "@menu_button", "#main_menu"),
            ("menu.quit", self.app.quit, "@menu_button", "#quit"),
        ]
        bh, gap = 46.0, 10.0
        h = 70 + len(entries) * (bh + gap) + 10
        x, y = (dw - w) / 2, (dh - h) / 2
        self.panel((x - 16, y - 12, w + 32, h + 14))
        self.label((x, y, w, 48), tr("pause.title"), cls="@heading")
        y += 66
        for key, cb, cls, obj in entries:
            self.button((x, y, w, bh), tr(key), cb, cls=cls, obj=obj)
            y += bh + gap

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.app.nav.resume()
        elif action.kind == inp.UNDO:
            self.app.nav.resume(undo=True)
