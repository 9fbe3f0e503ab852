"""New game dialog: mode, device preset, board size, level, who starts, extra turn, seed.

Choices are segmented buttons (one tap each, no drop-down lists to hunt in);
rows that do not apply (level and who starts in a two-player game) are hidden.
The opponent is the computer, a second player, or nobody: "Computer vs
computer" is a demo with a level for each computer (the first one draws first).
The state lives in :class:`MatchSettings` so a resize can rebuild the widgets.
The dialog opens on what it last started (kept in the settings file between
runs, with the command line's choices laid over it for one run) and says so;
that is where the default New game choices live, not on the Settings screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Generic, TypeVar

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from triangles.i18n import tr
from triangles.match import MatchSettings
from triangles.players import LEVEL_NAMES, MODES
from triangles.presets import get_preset, load_presets
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.backdrop import Backdrop
from triangles.ui.scenes.base import ChoiceRow, Rect, Scene

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["NewGameScene"]

T = TypeVar("T")

#: one row of choices: settings field, caption key, (value, text) options, the current value
_Row = tuple[str, str, list[tuple[object, str]], object]
#: the opponent's choices, line by line ("Computer vs computer" is too long to share a phone's line)
_MODE_LINES = (("ai", "hotseat"), ("demo",))
#: space between two lines of one choice
_LINE_GAP = 6.0


class WrappedChoices(Generic[T]):
    """Segmented buttons on several lines (each line fills the width), one selected: a wrapped ChoiceRow."""

    def __init__(
        self,
        scene: Scene,
        rect: Rect,
        lines: Sequence[Sequence[tuple[T, str]]],
        value: T,
        on_change: Callable[[T], None],
        gap: float = 6.0,
    ) -> None:
        """``rect``: the first line's place; the others follow below it, ``_LINE_GAP`` apart."""
        self.rows = [
            ChoiceRow(
                scene, (rect[0], rect[1] + k * (rect[3] + _LINE_GAP), rect[2], rect[3]), line, value, self._pick, gap
            )
            for k, line in enumerate(lines)
        ]
        self.buttons = [vb for row in self.rows for vb in row.buttons]
        self._on_change = on_change

    def _pick(self, value: T) -> None:
        self.set(value)
        self._on_change(value)

    def set(self, value: T) -> None:
        for row in self.rows:
            row.set(value)


class NewGameScene(Scene):
    def __init__(self, app: App, backdrop: Backdrop, remembered: MatchSettings | None = None) -> None:
        """``remembered``: the choices to open on (last started, or the command line's); None: defaults."""
        super().__init__(app)
        self.backdrop = backdrop
        self.s = replace(remembered) if remembered is not None else MatchSettings(preset=app.preset.name)
        if self.s.preset not in load_presets():
            self.s.preset = app.preset.name
        self.seed_text = "" if self.s.seed is None else str(self.s.seed)
        self.seed_entry: pygame_gui.elements.UITextEntryLine | None = None
        self.rows: dict[str, ChoiceRow[object] | WrappedChoices[object]] = {}

    def build_ui(self) -> None:
        dw, dh = self.design_size
        s = self.s
        w = min(420.0, dw - 24)
        x = (dw - w) / 2
        preset = get_preset(s.preset)
        mode_lines = [[m for m in line if m in MODES] for line in _MODE_LINES]
        rows: list[_Row] = [
            ("mode", "new.mode", [(m, tr(f"new.mode.{m}")) for m in MODES], s.mode),
            ("preset", "new.preset", [(n, tr(f"preset.{n}")) for n in load_presets()], s.preset),
            ("stars", "new.stars", [(n, str(n)) for n in preset.stars], s.stars or preset.default_stars),
        ]
        levels: list[tuple[object, str]] = [(lv, tr(f"level.{lv}")) for lv in LEVEL_NAMES]
        if s.mode == "ai":
            rows.append(("level", "new.level", levels, s.level))
            first: list[tuple[object, str]] = [(False, tr("new.first.you")), (True, tr("new.first.computer"))]
            rows.append(("computer_starts", "new.first", first, s.computer_starts))
        elif s.mode == "demo":
            rows.append(("level", "new.demo.level1", levels, s.level))
            rows.append(("level2", "new.demo.level2", levels, s.level2))
        on_off: list[tuple[object, str]] = [(False, tr("option.off")), (True, tr("option.on"))]
        rows.append(("extra_turn", "new.extra_turn", on_off, s.extra_turn))
        label_h, row_h, gap = 24.0, 40.0, 12.0
        note_h = 26.0  # "your choices are remembered", inside the panel under the board number
        extra_lines = (len(mode_lines) - 1) * (row_h + _LINE_GAP)  # the opponent's choices take two lines
        block = len(rows) * (label_h + row_h + gap) + extra_lines + label_h + row_h + 60 + 70 + note_h
        y = max(12.0, (dh - block) / 2)
        self.label((x, y, w, 44), tr("new.title"), cls="@heading")
        y += 56
        panel_h = block - 56 - 70 + 20
        self.panel((x - 8, y - 10, w + 16, panel_h))
        self.rows = {}
        for key, text_key, options, value in rows:
            self.label((x + 6, y, w - 12, label_h), tr(text_key), cls="@caption", obj="#label_left")
            rect = (x + 6, y + label_h, w - 12, row_h)
            if key == "mode":
                text = dict(options)
                lines = [[(m, text[m]) for m in line] for line in mode_lines if line]
                self.rows[key] = WrappedChoices(self, rect, lines, value, self._on_change(key))
                y += extra_lines
            else:
                self.rows[key] = ChoiceRow(self, rect, options, value, self._on_change(key))
            y += label_h + row_h + gap
        self.label((x + 6, y, w - 12, label_h), tr("new.seed"), cls="@caption", obj="#label_left")
        entry = pygame_gui.elements.UITextEntryLine(
            self.rect(x + 6, y + label_h, w - 12, row_h),
            self.app.gui,
            placeholder_text=tr("new.seed.random"),
            object_id=ObjectID(object_id="#seed"),
        )
        entry.set_allowed_characters("numbers")
        entry.length_limit = 9
        if self.seed_text:
            entry.set_text(self.seed_text)
        self.seed_entry = self.keep(entry)
        self.label(
            (x + 6, y + label_h + row_h + 5, w - 12, note_h - 4),  # room to round down on a small window
            tr("settings.remembered"),
            cls="@caption",
            obj="#remembered",
        )
        y += label_h + row_h + 30 + note_h
        bw = (w - 12) / 2
        self.button((x, y, bw, 52), tr("button.back"), self.back, obj="#back")
        self.button((x + bw + 12, y, bw, 52), tr("new.start"), self.start, cls="@primary", obj="#start")

    def _on_change(self, key: str) -> Callable[[object], None]:
        return lambda value: self.on_choice(key, value)

    def on_choice(self, key: str, value: object) -> None:
        s = self.s
        if key == "preset":
            s.preset = str(value)
            s.stars = None
        elif key == "stars":
            s.stars = value if isinstance(value, int) else None
        else:
            setattr(s, key, value)
        if key in ("mode", "preset"):
            self._keep_seed()
            self.rebuild()

    def _keep_seed(self) -> None:
        if self.seed_entry is not None:
            self.seed_text = self.seed_entry.get_text().strip()

    def rebuild(self) -> None:
        self._keep_seed()
        super().rebuild()

    def settings(self) -> MatchSettings:
        self._keep_seed()
        s = replace(self.s)
        s.seed = int(self.seed_text) if self.seed_text.isdigit() else None
        if s.stars is None or s.stars not in get_preset(s.preset).stars:
            s.stars = get_preset(s.preset).default_stars
        return s

    def start(self) -> None:
        s = self.settings()
        # the dialog offers the same choices next time; a typed seed stays, a random one does not
        remember = replace(s, seed=s.seed if self.seed_text else None)
        # and between runs (never the seed): the settings file keeps the last choices
        self.app.settings.new_game = replace(s, seed=None)
        self.app.save_settings()
        self.app.nav.start_new(s, remember=remember)

    def back(self) -> None:
        self.app.nav.close(self)

    def draw(self, surface: pygame.Surface) -> None:
        self.backdrop.draw(surface)

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.back()
        elif action.kind == inp.CONFIRM:
            self.start()
