"""A message box over whatever is on screen (unreadable records, saved games).

Why our own and not pygame_gui's UIMessageWindow: its buttons carry
pygame_gui's own strings, and every visible string must go through ``tr``.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pygame_gui

from triangles.i18n import tr
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.base import Overlay

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["MessageScene"]


class MessageScene(Overlay):
    def __init__(self, app: App, text: str, title: str) -> None:
        super().__init__(app)
        self.text = text
        self.title = title

    def build_ui(self) -> None:
        dw, dh = self.design_size
        w = min(460.0, dw - 30)
        h = 250.0
        x, y = (dw - w) / 2, (dh - h) / 2
        self.panel((x, y, w, h))
        self.label((x + 16, y + 14, w - 32, 40), self.title, cls="@subheading")
        self.keep(
            pygame_gui.elements.UITextBox(
                html.escape(self.text).replace("\n", "<br>"), self.rect(x + 16, y + 60, w - 32, h - 130), self.app.gui
            )
        )
        self.button((x + w / 2 - 80, y + h - 62, 160, 46), tr("button.ok"), self.close, cls="@primary", obj="#ok")

    def close(self) -> None:
        self.app.nav.close(self)

    def handle_action(self, action: Action) -> None:
        if action.kind in (inp.CANCEL, inp.CONFIRM):
            self.close()
