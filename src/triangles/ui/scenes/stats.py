"""Statistics (placeholder seam: the screen is being built)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from triangles.i18n import tr
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.base import Overlay

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["StatisticsScene"]


class StatisticsScene(Overlay):
    def __init__(self, app: App) -> None:
        super().__init__(app)

    def build_ui(self) -> None:
        dw, dh = self.design_size
        self.panel((10, 10, dw - 20, dh - 20))
        self.label((20, 24, dw - 40, 48), tr("stats.title"), cls="@heading")
        self.button((dw / 2 - 80, dh - 80, 160, 50), tr("button.back"), self.close, cls="@primary", obj="#back")

    def close(self) -> None:
        self.app.nav.close(self)

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.close()
