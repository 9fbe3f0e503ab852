"""Main menu: Continue (only with a saved game), New game, Open game…, Quit.

Every entry leads somewhere visible: Continue into the game (or a message box
saying why the saved game could not be read), the others to their scenes.
"""

from __future__ import annotations

from triangles import __version__
from triangles.i18n import tr
from triangles.record import RecordError
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.backdrop import backdrop_for
from triangles.ui.scenes.base import Scene
from triangles.ui.session import has_session, load_session

__all__ = ["MainMenuScene"]


class MainMenuScene(Scene):
    def build_ui(self) -> None:
        dw, dh = self.design_size
        w = min(320.0, dw - 60)
        x = (dw - w) / 2
        entries = []
        if has_session():
            entries.append(("menu.continue", self.on_continue, "@primary"))
        entries += [
            ("menu.new_game", self.on_new_game, "@primary" if not entries else "@menu_button"),
            ("menu.open_game", self.on_open, "@menu_button"),
            ("menu.quit", self.app.quit, "@menu_button"),
        ]
        bh, gap = 54.0, 14.0
        total = len(entries) * bh + (len(entries) - 1) * gap
        y = max(dh * 0.42, dh * 0.5 - total / 2 + 40)
        title_h = 70.0
        self.label((0, y - title_h - 70, dw, title_h), tr("app.title"), cls="@title")
        self.label((0, y - 78, dw, 30), tr("menu.tagline"), cls="@caption")
        for key, cb, cls in entries:
            self.button((x, y, w, bh), tr(key), cb, cls=cls, obj="#" + key.split(".")[-1])
            y += bh + gap
        self.label((0, dh - 34, dw, 24), tr("menu.version", version=__version__), cls="@caption")

    def draw(self, surface) -> None:
        backdrop_for(self.app).draw(surface)

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.app.quit()

    def on_continue(self) -> None:
        try:
            match = load_session()
        except RecordError as exc:
            self.rebuild()
            self.app.message(tr("error.session", reason=str(exc)), tr("error.session.title"))
            return
        if match is None:
            self.rebuild()
            return
        self.app.start_match(match)

    def on_new_game(self) -> None:
        from triangles.ui.scenes.new_game import NewGameScene

        self.app.push(NewGameScene(self.app))

    def on_open(self) -> None:
        from triangles.ui.scenes.open_game import OpenGameScene

        self.app.push(OpenGameScene(self.app))
