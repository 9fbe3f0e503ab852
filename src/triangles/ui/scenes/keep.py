"""When the game cannot keep the player's game: a message that stays, and Save a copy elsewhere.

Why a scene of its own: a status line that fades after two seconds (or a
line on stderr at quit) let a read-only or full data folder lose the game
silently.  This box stays until dismissed, says what failed in words, and
offers to write a copy to any folder the player types; at quit it asks
before leaving without the game.
"""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pygame_gui
from pygame_gui.core import ObjectID

from triangles.i18n import tr
from triangles.match import Match
from triangles.record import save_record
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.base import Overlay

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["KeepProblemScene", "SaveCopyScene", "default_copy_path"]


def default_copy_path() -> Path:
    """Where a copy goes unless the player types another place: their home folder, a dated name."""
    return Path.home() / f"triangles-{time.strftime('%Y%m%d-%H%M%S')}.json"


class KeepProblemScene(Overlay):
    """The game could not be kept: the reason, Save a copy…, and OK (at quit: Quit anyway)."""

    dim_alpha = 170

    def __init__(self, app: App, match: Match, reason: str, *, at_quit: bool) -> None:
        super().__init__(app)
        self.match = match
        self.reason = reason
        self.at_quit = at_quit

    def build_ui(self) -> None:
        dw, dh = self.design_size
        w = min(460.0, dw - 24)
        # one full-width button per row: "Всё равно выйти" does not fit half the phone's box
        buttons = [(tr("keep.save_copy"), self.save_copy, "@primary", "#copy")]
        if self.at_quit:
            buttons += [
                (tr("keep.quit_anyway"), self.quit_anyway, "@menu_button", "#quit"),
                (tr("button.cancel"), self.close, "@menu_button", "#cancel"),
            ]
        else:
            buttons.append((tr("button.ok"), self.close, "@menu_button", "#ok"))
        text_h, bh, gap = 270.0, 48.0, 10.0  # room for the longest text (Malay) without a scroll bar
        h = 12 + text_h + len(buttons) * (bh + gap) + 8
        x, y = (dw - w) / 2, (dh - h) / 2
        self.panel((x, y, w, h))
        px = max(10, round(22 * self.app.viewport.scale))
        title = f"<font pixel_size={px}><b>{html.escape(tr('keep.title'))}</b></font>"
        text = tr("keep.text_quit" if self.at_quit else "keep.text", reason=self.reason)
        self.keep(
            pygame_gui.elements.UITextBox(
                f"{title}<br><br>{html.escape(text)}",
                self.rect(x + 12, y + 12, w - 24, text_h),
                self.app.gui,
                object_id=ObjectID(class_id="@message", object_id="#keep_text"),
            )
        )
        by = y + 12 + text_h
        for text, cb, cls, obj in buttons:
            self.button((x + 16, by, w - 32, bh), text, cb, cls=cls, obj=obj)
            by += bh + gap

    def save_copy(self) -> None:
        self.app.stack.push(SaveCopyScene(self.app, self.match, then_close=self))

    def quit_anyway(self) -> None:
        self.app.quit(force=True)

    def close(self) -> None:
        self.app.nav.close(self)

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.close()
        elif action.kind == inp.QUIT and self.at_quit:
            self.quit_anyway()  # asked twice: the player means it


class SaveCopyScene(Overlay):
    """A path to write a copy of the game to (any folder the player can write)."""

    dim_alpha = 60

    def __init__(self, app: App, match: Match, then_close: Overlay | None = None) -> None:
        super().__init__(app)
        self.match = match
        self.then_close = then_close
        self.path_text = str(default_copy_path())
        self.error = ""
        self.entry: pygame_gui.elements.UITextEntryLine | None = None

    def build_ui(self) -> None:
        dw, dh = self.design_size
        w = min(460.0, dw - 24)
        h = 250.0
        x, y = (dw - w) / 2, (dh - h) / 2
        self.panel((x, y, w, h))
        self.label((x + 12, y + 10, w - 24, 40), tr("keep.copy_title"), cls="@subheading")
        self.entry = self.keep(
            pygame_gui.elements.UITextEntryLine(
                self.rect(x + 16, y + 60, w - 32, 40), self.app.gui, object_id=ObjectID(object_id="#copy_path")
            )
        )
        self.entry.set_text(self.path_text)
        if self.error:
            self.keep(
                pygame_gui.elements.UITextBox(
                    html.escape(self.error),
                    self.rect(x + 12, y + 104, w - 24, 70),
                    self.app.gui,
                    object_id=ObjectID(class_id="@message", object_id="#copy_error"),
                )
            )
        half = (w - 44) / 2
        self.button((x + 16, y + h - 62, half, 48), tr("button.cancel"), self.close, obj="#cancel")
        self.button((x + 28 + half, y + h - 62, half, 48), tr("keep.save"), self.save, cls="@primary", obj="#save")

    def save(self) -> None:
        if self.entry is not None:
            self.path_text = self.entry.get_text().strip()
        path = Path(self.path_text).expanduser()
        if not self.path_text or path.is_dir():
            self.error = tr("keep.need_file")
            self.rebuild()
            return
        try:
            save_record(self.match.to_record(), path)
        except OSError as exc:
            self.error = tr("error.save", reason=exc.strerror or type(exc).__name__)
            self.rebuild()
            return
        self.app.nav.close(self)
        if self.then_close is not None and self.then_close in self.app.stack:
            self.app.nav.close(self.then_close)
        self.app.nav.saved_copy_elsewhere(path)

    def close(self) -> None:
        self.app.nav.close(self)

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.close()
        elif action.kind == inp.CONFIRM:
            self.save()
