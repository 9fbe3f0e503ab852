"""In-game menu (Menu button or Escape): resume, save a copy, new game, main menu, quit."""

from __future__ import annotations

from triangles.i18n import tr
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.base import Overlay
from triangles.saves import save_game_copy, save_session

__all__ = ["PauseScene"]


class PauseScene(Overlay):
    def __init__(self, app, play) -> None:
        super().__init__(app)
        self.play = play

    def build_ui(self) -> None:
        dw, dh = self.design_size
        w = min(320.0, dw - 40)
        entries = [
            ("pause.resume", self.resume, "@primary", "#resume"),
            ("pause.save", self.save_copy, "@menu_button", "#save"),
            ("menu.new_game", self.new_game, "@menu_button", "#new_game"),
            ("pause.main_menu", self.main_menu, "@menu_button", "#main_menu"),
            ("menu.quit", self.app.quit, "@menu_button", "#quit"),
        ]
        bh, gap = 50.0, 12.0
        h = 70 + len(entries) * (bh + gap) + 10
        x, y = (dw - w) / 2, (dh - h) / 2
        self.panel((x - 16, y - 12, w + 32, h + 14))
        self.label((x, y, w, 48), tr("pause.title"), cls="@heading")
        y += 66
        for key, cb, cls, obj in entries:
            self.button((x, y, w, bh), tr(key), cb, cls=cls, obj=obj)
            y += bh + gap

    def resume(self) -> None:
        self.app.pop(self)

    def save_copy(self) -> None:
        try:
            path = save_game_copy(self.play.match)
        except OSError as exc:
            self.app.message(tr("error.save", reason=exc.strerror or str(exc)))
            return
        self.app.pop(self)
        self.play.say(tr("status.saved", name=path.name), "good", 3.0)

    def new_game(self) -> None:
        from triangles.ui.scenes.menu import MainMenuScene
        from triangles.ui.scenes.new_game import NewGameScene

        self.app.save_current()
        self.app.reset(MainMenuScene(self.app))
        self.app.push(NewGameScene(self.app))

    def main_menu(self) -> None:
        from triangles.ui.scenes.menu import MainMenuScene

        self.app.save_current()
        self.app.worker.cancel()
        self.app.reset(MainMenuScene(self.app))

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.resume()
        elif action.kind == inp.UNDO:
            self.resume()
            self.play.undo()
