"""Settings: language, theme, animations, sound, hotseat names, window size, fullscreen.

Every choice applies at once and is saved at once (through the ``App.set_*``
methods and ``App.save_settings``); there is no OK button to forget.  The
language is shown by each language's own name, and choosing one rebuilds
every screen in it, this one included.  The layout is one column on the
phone (390 x 844 design points) and two columns on wide presets.  The New
game choices are not here: the New game dialog remembers its last choices
itself and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

import pygame_gui
from pygame_gui.core import ObjectID

from triangles.i18n import available_languages, language, language_name, tr
from triangles.settings import NAME_LIMIT, WINDOW_SCALES, available_themes
from triangles.ui import input as inp
from triangles.ui.input import Action
from triangles.ui.scenes.base import Choices, Overlay, Rect, Scene

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["SettingsScene", "ChoiceGrid"]

T = TypeVar("T")

#: design points: caption line, control row, space after a setting, space between grid rows
LABEL_H, ROW_H, GAP, GRID_GAP = 22.0, 40.0, 12.0, 6.0
#: presets at least this wide (design points) get two columns
TWO_COLUMNS_FROM = 800.0
#: seconds the volume slider stays still before its sample plays
SAMPLE_AFTER = 0.25


#: the message naming each shipped theme (folder name, key)
THEME_CAPTIONS: tuple[tuple[str, str], ...] = (
    ("nebula", "settings.theme.nebula"),
    ("paper", "settings.theme.paper"),
    ("high_contrast", "settings.theme.high_contrast"),
)


def theme_caption(name: str) -> str:
    """A theme's name on screen (a theme with no message yet shows its folder name)."""
    key = dict(THEME_CAPTIONS).get(name)
    if key is not None:
        return tr(key)
    return name.replace("_", " ").title()


class ChoiceGrid(Choices[T]):
    """Segmented buttons in rows of ``cols`` (a :class:`ChoiceRow` that wraps), one selected."""

    def __init__(
        self,
        scene: Scene,
        rect: Rect,
        options: Sequence[tuple[T, str]],
        value: T,
        on_change: Callable[[T], None],
        cols: int,
        obj_prefix: str = "",
        weights: Sequence[float] | None = None,
    ) -> None:
        """``weights``: relative widths of the columns (a longer word gets a wider button)."""
        x, y, w, _ = rect
        cols = max(1, min(cols, len(options)))
        ws = list(weights or [])[:cols]
        ws += [1.0] * (cols - len(ws))
        unit = (w - GRID_GAP * (cols - 1)) / sum(ws)
        lefts = [x + sum(ws[:c]) * unit + c * GRID_GAP for c in range(cols)]
        self.buttons: list[tuple[T, pygame_gui.elements.UIButton]] = []
        for k, (val, text) in enumerate(options):
            r, c = divmod(k, cols)
            b = scene.button(
                (lefts[c], y + r * (ROW_H + GRID_GAP), ws[c] * unit, ROW_H),
                text,
                self._press_for(val, on_change),
                cls="@choice",
                obj=f"#{obj_prefix}{val}" if obj_prefix else None,
            )
            self.buttons.append((val, b))
        self.set(value)

    @staticmethod
    def height(n: int, cols: int) -> float:
        rows = -(-n // max(1, cols))
        return rows * ROW_H + (rows - 1) * GRID_GAP


class SettingsScene(Overlay):
    dim_alpha = 215  # the game behind should not compete with a full-height panel

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.name_entries: list[pygame_gui.elements.UITextEntryLine] = []
        self.volume_slider: pygame_gui.elements.UIHorizontalSlider | None = None
        self.volume_label: pygame_gui.elements.UILabel | None = None
        self.rows: dict[str, ChoiceGrid[object]] = {}
        #: seconds until the volume's sample plays (once the slider has been still a moment); None: none due
        self.sample_in: float | None = None

    # -- layout ----------------------------------------------------------------------

    def build_ui(self) -> None:
        dw, dh = self.design_size
        two = dw >= TWO_COLUMNS_FROM
        self.rows = {}
        self.name_entries = []
        Item = Callable[[float, float, float], float]
        # the phone reads top to bottom in this order; the tablet splits it into two balanced columns
        left: list[Item] = [self._language, self._theme, self._animations, self._fullscreen]
        right: list[Item] = [self._names, self._window, self._sound, self._volume]
        phone: list[Item] = [
            self._language,
            self._theme,
            self._animations,
            self._sound,
            self._volume,
            self._names,
            self._window,
            self._fullscreen,
        ]
        title_h, button_h = 48.0, 52.0
        if two:
            col_w, col_gap = 420.0, 48.0
            heights = [self._column_height(left), self._column_height(right)]
            content = max(heights)
            block = title_h + 14 + content + 18 + button_h
            x0 = (dw - 2 * col_w - col_gap) / 2
            y0 = max(16.0, (dh - block) / 2)
            self.panel((x0 - 24, y0 - 16, 2 * col_w + col_gap + 48, block + 32))
            self.label((x0, y0, 2 * col_w + col_gap, title_h), tr("settings.title"), cls="@heading")
            top = y0 + title_h + 14
            self._column(left, x0, top, col_w)
            self._column(right, x0 + col_w + col_gap, top, col_w)
            by = top + content + 18
        else:
            w = min(420.0, dw - 44)
            x0 = (dw - w) / 2
            content = self._column_height(phone)
            block = title_h + 10 + content + 6 + button_h
            y0 = max(16.0, (dh - block) / 2)
            self.panel((x0 - 14, y0 - 10, w + 28, block + 22))
            self.label((x0, y0, w, title_h), tr("settings.title"), cls="@heading")
            self._column(phone, x0, y0 + title_h + 10, w)
            by = y0 + title_h + 10 + content + 6
        self.button((dw / 2 - 90, by, 180, button_h), tr("button.back"), self.close, cls="@primary", obj="#back")

    def _column_height(self, items: list[Callable[[float, float, float], float]]) -> float:
        """What ``items`` take, measured by laying them out with no widgets (``dry`` run)."""
        self._dry = True
        try:
            return sum(item(0.0, 0.0, 420.0) for item in items)
        finally:
            self._dry = False

    def _column(self, items: list[Callable[[float, float, float], float]], x: float, y: float, w: float) -> None:
        for item in items:
            y += item(x, y, w)

    _dry = False

    def _caption(self, x: float, y: float, w: float, text: str) -> None:
        self.label((x, y, w, LABEL_H), text, cls="@caption", obj="#label_left")

    def _choices(
        self,
        key: str,
        caption: str,
        options: Sequence[tuple[object, str]],
        value: object,
        on_change: Callable[[object], None],
        x: float,
        y: float,
        w: float,
        cols: int | None = None,
        weights: Sequence[float] | None = None,
    ) -> float:
        """A caption and its segmented buttons (wrapped into rows of ``cols``); the height used."""
        cols = cols or len(options)
        h = LABEL_H + ChoiceGrid.height(len(options), cols) + GAP
        if self._dry:
            return h
        self._caption(x, y, w, caption)
        self.rows[key] = ChoiceGrid(
            self, (x, y + LABEL_H, w, ROW_H), options, value, on_change, cols, f"{key}_", weights
        )
        return h

    # -- the settings ------------------------------------------------------------------

    def _on_off(self) -> list[tuple[object, str]]:
        return [(False, tr("option.off")), (True, tr("option.on"))]

    def _language(self, x: float, y: float, w: float) -> float:
        codes = available_languages()
        options: list[tuple[object, str]] = [(c, language_name(c)) for c in codes]
        return self._choices(
            "language", tr("settings.language"), options, language(), self._set_language, x, y, w, cols=2
        )

    def _set_language(self, code: object) -> None:
        if isinstance(code, str) and code != language():
            self.app.set_language(code)  # rebuilds every scene, this one too

    def _theme(self, x: float, y: float, w: float) -> float:
        options: list[tuple[object, str]] = [(name, theme_caption(name)) for name in available_themes()]
        return self._choices(
            "theme", tr("settings.theme"), options, self.app.settings.theme, self._set_theme, x, y, w, cols=3
        )

    def _set_theme(self, name: object) -> None:
        if isinstance(name, str):
            self.app.set_theme(name)

    def _animations(self, x: float, y: float, w: float) -> float:
        return self._choices(
            "animations",
            tr("settings.animations"),
            self._on_off(),
            self.app.settings.animations,
            self._set_animations,
            x,
            y,
            w,
        )

    def _set_animations(self, on: object) -> None:
        self.app.settings.animations = bool(on)
        self.app.save_settings()

    def _sound(self, x: float, y: float, w: float) -> float:
        # the game's sounds (ui/sound.py) read this and the volume at every sound
        caption = tr("settings.sound.caption")
        return self._choices("sound", caption, self._on_off(), self.app.settings.sound, self._set_sound, x, y, w)

    def _set_sound(self, on: object) -> None:
        self.app.settings.sound = bool(on)
        if self.volume_slider is not None:
            if on:
                self.volume_slider.enable()
            else:
                self.volume_slider.disable()
        self.app.save_settings()
        if on:
            self.app.sounds.play("close1")  # what it sounds like now

    def _volume(self, x: float, y: float, w: float) -> float:
        h = LABEL_H + ROW_H + GAP
        if self._dry:
            return h
        s = self.app.settings
        self.volume_label = self.label(
            (x, y, w, LABEL_H), tr("settings.volume.value", n=s.volume), cls="@caption", obj="#label_left"
        )
        slider = pygame_gui.elements.UIHorizontalSlider(
            self.rect(x, y + LABEL_H + 4, w, ROW_H - 8),
            s.volume,
            (0, 100),
            self.app.gui,
            object_id=ObjectID(object_id="#volume"),
            click_increment=5,
        )
        if not s.sound:
            slider.disable()
        self.volume_slider = self.keep(slider)
        return h

    def _names(self, x: float, y: float, w: float) -> float:
        h = LABEL_H + ROW_H + GAP
        if self._dry:
            return h
        self._caption(x, y, w, tr("settings.names"))
        bw = (w - GRID_GAP) / 2
        for k, placeholder in enumerate((tr("player.one"), tr("player.two"))):
            entry = pygame_gui.elements.UITextEntryLine(
                self.rect(x + k * (bw + GRID_GAP), y + LABEL_H, bw, ROW_H),
                self.app.gui,
                placeholder_text=placeholder,
                object_id=ObjectID(object_id=f"#name{k}"),
            )
            entry.length_limit = NAME_LIMIT
            if self.app.settings.player_names[k]:
                entry.set_text(self.app.settings.player_names[k])
            self.name_entries.append(self.keep(entry))
        return h

    def _window(self, x: float, y: float, w: float) -> float:
        options: list[tuple[object, str]] = [(None, tr("settings.window.fit"))]
        options += [(p, tr("settings.percent", n=p)) for p in WINDOW_SCALES]
        weights = [1.5] + [1.0] * len(WINDOW_SCALES)  # "Tự động" is longer than "75 %"
        value = self.app.settings.window_scale
        return self._choices("window", tr("settings.window"), options, value, self._set_scale, x, y, w, None, weights)

    def _set_scale(self, scale: object) -> None:
        self.app.set_window_scale(scale if isinstance(scale, int) else None)

    def _fullscreen(self, x: float, y: float, w: float) -> float:
        return self._choices(
            "fullscreen",
            tr("settings.fullscreen"),
            self._on_off(),
            self.app.window.fullscreen,
            self._set_fullscreen,
            x,
            y,
            w,
        )

    def _set_fullscreen(self, on: object) -> None:
        self.app.set_fullscreen(bool(on))

    # -- names and the volume: widgets that report as they change ------------------------

    def _read_names(self) -> None:
        if len(self.name_entries) != 2:
            return
        names = (self.name_entries[0].get_text().strip(), self.name_entries[1].get_text().strip())
        if names != self.app.settings.player_names:
            self.app.settings.player_names = names
            self.app.store.dirty = True

    def update(self, dt: float) -> None:
        super().update(dt)
        slider = self.volume_slider
        if slider is not None and slider.alive():
            value = int(round(float(slider.get_current_value())))
            if value != self.app.settings.volume:
                self.app.settings.volume = value
                self.app.store.dirty = True
                if self.volume_label is not None:
                    self.volume_label.set_text(tr("settings.volume.value", n=value))
                self.sample_in = SAMPLE_AFTER
        if self.sample_in is not None:
            self.sample_in -= dt
            if self.sample_in <= 0:
                self.sample_in = None
                self.app.sounds.play("close1")  # the new volume, heard once the slider stops

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.close()
        elif action.kind == inp.GUI and action.event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            self._read_names()
        elif action.kind == inp.GUI and action.event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self._read_names()
            self.app.save_settings()

    def rebuild(self) -> None:
        self._read_names()  # what was typed survives a resize or a new language
        super().rebuild()

    def leave(self) -> None:
        self._read_names()
        if self.app.store.dirty:
            self.app.save_settings()
        super().leave()

    def close(self) -> None:
        self.app.nav.close(self)
