"""Open a saved game: the records in the games folder, or any path typed in.

A record that cannot be read is reported in a message box (one line naming
the field or move) and nothing else changes.  Our own list instead of
pygame_gui's file dialog so every visible string goes through ``tr``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from triangles.i18n import tr
from triangles.record import RecordError, load_record
from triangles.saves import list_saved_games
from triangles.settings import seat_names
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.backdrop import Backdrop
from triangles.ui.scenes.base import Scene

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["OpenGameScene"]

#: newest saved games listed (each is read to show its players and score)
MAX_LISTED = 60


class OpenGameScene(Scene):
    def __init__(self, app: App, backdrop: Backdrop) -> None:
        super().__init__(app)
        self.backdrop = backdrop
        self.files: list[Path] = list_saved_games()[:MAX_LISTED]
        self.items: list[str] = []
        for p in self.files:
            item = self._item(p)
            k = 2
            while item in self.items:  # the list widget tells rows apart by their text
                item = f"{self._item(p)} ({k})"
                k += 1
            self.items.append(item)
        self.chosen: int | None = 0 if self.files else None
        self.path_text = ""
        self.list_el: pygame_gui.elements.UISelectionList | None = None
        self.entry: pygame_gui.elements.UITextEntryLine | None = None

    @staticmethod
    def _item(p: Path) -> str:
        """ "2026-11-30 08:14 · Player 1 vs Player 2 · 3–1" (or the file name when unreadable)."""
        try:
            stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(p.stat().st_mtime))
        except OSError:
            stamp = ""
        try:
            rec = load_record(p)
            s0, s1 = rec.replay().scores
            a, b = seat_names(rec.players)
            what = tr("open.item", a=a, b=b, s0=s0, s1=s1)
        except (RecordError, OSError):
            what = tr("open.item.unreadable", name=p.name)
        return f"{stamp} · {what}"

    def build_ui(self) -> None:
        dw, dh = self.design_size
        w = min(520.0, dw - 24)
        h = min(560.0, dh - 40)
        x, y = (dw - w) / 2, (dh - h) / 2
        self.panel((x - 8, y - 8, w + 16, h + 16))
        self.label((x, y + 6, w, 44), tr("open.title"), cls="@heading")
        list_h = h - 250
        if self.files:
            self.list_el = self.keep(
                pygame_gui.elements.UISelectionList(
                    self.rect(x + 10, y + 60, w - 20, list_h),
                    list[str | tuple[str, str]](self.items),
                    self.app.gui,
                    default_selection=self.items[self.chosen] if self.chosen is not None else None,
                    object_id=ObjectID(object_id="#files"),
                )
            )
        else:
            self.list_el = None
            self.keep(
                pygame_gui.elements.UITextBox(
                    tr("open.none"),
                    self.rect(x + 10, y + 60, w - 20, 80),
                    self.app.gui,
                    object_id=ObjectID(class_id="@caption"),
                )
            )
        ly = y + 60 + list_h + 14
        self.label((x + 10, ly, w - 20, 24), tr("open.path"), cls="@caption")
        self.entry = self.keep(
            pygame_gui.elements.UITextEntryLine(
                self.rect(x + 10, ly + 26, w - 20, 40),
                self.app.gui,
                placeholder_text=tr("open.path.placeholder"),
                object_id=ObjectID(object_id="#path"),
            )
        )
        if self.path_text:
            self.entry.set_text(self.path_text)
        bw = (w - 32) / 2
        by = y + h - 66
        self.button((x + 10, by, bw, 52), tr("button.cancel"), self.back, obj="#cancel")
        self.button((x + 22 + bw, by, bw, 52), tr("open.open"), self.open, cls="@primary", obj="#open")

    def rebuild(self) -> None:
        if self.entry is not None:
            self.path_text = self.entry.get_text()
        super().rebuild()

    def back(self) -> None:
        self.app.nav.close(self)

    def target(self) -> Path | None:
        typed = self.entry.get_text().strip() if self.entry is not None else self.path_text.strip()
        if typed:
            return Path(typed).expanduser()
        if self.chosen is not None and self.chosen < len(self.files):
            return self.files[self.chosen]
        return None

    def open(self) -> None:
        path = self.target()
        if path is None:
            self.app.nav.message(tr("open.choose"))
            return
        self.app.nav.open_record(path)

    def handle_action(self, a: Action) -> None:
        if a.kind == inp.GUI:
            ev = a.event
            if (
                ev.type
                in (pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION)
                and ev.ui_element is self.list_el
            ):
                if ev.text in self.items:
                    self.chosen = self.items.index(ev.text)
                if ev.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION:
                    self.open()
            elif ev.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and ev.ui_element is self.entry:
                self.open()
        elif a.kind == inp.CANCEL:
            self.back()

    def draw(self, surface: pygame.Surface) -> None:
        self.backdrop.draw(surface)
