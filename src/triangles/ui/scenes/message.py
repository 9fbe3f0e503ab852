"""A message box over whatever is on screen (unreadable records, saved games).

Why our own and not pygame_gui's UIMessageWindow: its buttons carry
pygame_gui's own strings, and every visible string must go through ``tr``.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pygame_gui
from pygame_gui.core import ObjectID

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
        # the title wraps with the text (a label would cut "Tidak dapat membuka permainan ini" on the phone)
        px = max(10, round(22 * self.app.viewport.scale))
        title = f"<font pixel_size={px}><b>{html.escape(self.title)}</b></font>"
        body = html.escape(self.text).replace("\n", "<br>")
        self.keep(
            pygame_gui.elements.UITextBox(
                f"{title}<br><br>{body}",
                self.rect(x + 12, y + 12, w - 24, h - 80),
                self.app.gui,
                object_id=ObjectID(class_id="@message", object_id="#message_text"),
            )
        )
        self.button((x + w / 2 - 80, y + h - 62, 160, 46), tr("button.ok"), self.close, cls="@primary", obj="#ok")

    def close(self) -> None:
        self.app.nav.close(self)

    def handle_action(self, action: Action) -> None:
        if action.kind in (inp.CANCEL, inp.CONFIRM):
            self.close()
