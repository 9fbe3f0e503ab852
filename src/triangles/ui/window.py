"""The game window: its size, fullscreen, the viewport and the widget manager.

Everything is laid out in the current preset's *design points* and mapped to
the window by one :class:`Viewport`, so a resize, F11 or another preset only
swaps the viewport, rebuilds the pygame_gui manager with fonts at the new
scale and tells the app (``on_layout``), which has the scenes rebuild their
widgets.  Nothing here knows about scenes or games.
"""

from __future__ import annotations

import copy
import math
import os
import sys
import warnings
from collections.abc import Callable

import pygame
import pygame_gui

from triangles.files import FileProblem, read_json
from triangles.i18n import tr
from triangles.paths import assets_dir
from triangles.presets import Preset, get_preset
from triangles.ui.render.theme import Theme
from triangles.ui.render.viewport import Viewport

__all__ = ["Window", "fit_window_size", "WINDOW_CLASS"]

#: X11 WM_CLASS of the window (``xdotool search --class triangles``)
WINDOW_CLASS = "triangles"

#: desktop size assumed when SDL reports none
_DEFAULT_DESKTOP = (1280, 800)
#: the window never gets smaller than this share of its preset's design size (see Window.minimum_size)
MIN_SCALE = 0.72

#: theme.json blocks whose numbers scale with the window
_SCALED_MISC = ("shape_corner_radius", "list_item_height")


def _use_shipped_font(font: dict[str, object]) -> None:
    """Point a pygame_gui font block at ``assets/fonts`` (Noto Sans: Cyrillic and Vietnamese marks)."""
    folder = assets_dir() / "fonts"
    regular, bold = folder / "NotoSans-Regular.ttf", folder / "NotoSans-Bold.ttf"
    if regular.is_file() and bold.is_file():
        font["name"] = "triangles_sans"
        font["regular_path"] = str(regular)
        font["bold_path"] = str(bold)


def fit_window_size(
    size: tuple[int, int], desktop: tuple[int, int], fill: float = 0.9, max_scale: float = 1.25
) -> tuple[int, int]:
    """The preset's window size scaled to fit ``fill`` of the desktop (never above ``max_scale``)."""
    w, h = size
    dw, dh = desktop
    if dw <= 0 or dh <= 0:
        return w, h
    s = min(fill * dw / w, fill * dh / h, max_scale)
    return max(200, round(w * s)), max(200, round(h * s))


def _desktop() -> tuple[int, int]:
    sizes = pygame.display.get_desktop_sizes()
    return sizes[0] if sizes else _DEFAULT_DESKTOP


class Window:
    """One resizable window laid out for ``preset``; ``on_layout()`` runs after every new viewport."""

    def __init__(
        self,
        theme: Theme,
        preset: Preset,
        *,
        fullscreen: bool,
        on_layout: Callable[[], None],
        scale: int | None = None,
    ) -> None:
        """``scale``: the window in percent of the preset's size (limited to the desktop); None fits the desktop."""
        # pygame's import sets the class to the script's name ("__main__.py", "-c", "dev.py"): docks and
        # window rules look for "triangles"; a class the user set on purpose is kept
        if os.environ.get("SDL_VIDEO_X11_WMCLASS") in (None, "", os.path.basename(sys.argv[0])):
            os.environ["SDL_VIDEO_X11_WMCLASS"] = WINDOW_CLASS
        # display and fonts only; the mixer is ui/sound.py's (opened by the app, silent when there is no device)
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(350, 40)
        pygame.display.set_caption(tr("app.title"))
        self.theme = theme
        self.preset = preset
        self.on_layout = on_layout
        self.fullscreen = False
        self.scale = scale
        self.windowed_size = self.preferred_size()
        self.surface = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
        #: the window changed size (an event said so); :meth:`refit` at the next frame
        self.resize_pending = False
        self._gui_theme: dict[str, object] | None = None  # assets/ui/theme.json, read once
        self._veils: dict[tuple[int, int, int], pygame.Surface] = {}
        self._set_icon()
        self._set_minimum_size()
        if fullscreen:
            self.set_fullscreen(True)
        self.viewport = self._make_viewport()
        self.gui = self._make_gui()

    # -- start-up ------------------------------------------------------------------

    def _set_icon(self) -> None:
        icon = pygame.Surface((64, 64), pygame.SRCALPHA)
        c = self.theme.player_colors
        pts = [(10, 52), (32, 10), (54, 52)]
        pygame.draw.polygon(icon, (*c[0], 150), pts)
        pygame.draw.lines(icon, c[1], True, pts, 4)
        for p in pts:
            pygame.draw.circle(icon, (255, 250, 240), p, 6)
        pygame.display.set_icon(icon)

    def _make_viewport(self) -> Viewport:
        w, h = self.surface.get_size()
        return Viewport((max(1, w), max(1, h)), self.preset.window, self.preset.board)

    def _make_gui(self) -> pygame_gui.UIManager:
        """A pygame_gui manager whose theme fonts are scaled to the viewport."""
        theme = self._scaled_gui_theme(self.viewport.scale)
        for k, color in enumerate(self.theme.ui_player_colors):
            # labels in a player's colour (the final screen's headline)
            theme[f"#player{k}"] = {"colours": {"normal_text": "#{:02x}{:02x}{:02x}".format(*color)}}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return pygame_gui.UIManager(self.surface.get_size(), theme, enable_live_theme_updates=False)

    def _scaled_gui_theme(self, scale: float) -> dict[str, object]:
        """``assets/ui/theme.json`` with every font size and corner radius multiplied by ``scale``."""
        if self._gui_theme is None:
            try:
                self._gui_theme = read_json(assets_dir() / "ui" / "theme.json", 1_000_000)
            except FileProblem:
                self._gui_theme = {}
        theme = copy.deepcopy(self._gui_theme)
        for block in theme.values():
            if not isinstance(block, dict):
                continue
            font = block.get("font")
            if isinstance(font, dict) and "size" in font:
                font["size"] = str(max(8, round(float(font["size"]) * scale)))
            if isinstance(font, dict):
                _use_shipped_font(font)
            misc = block.get("misc")
            if isinstance(misc, dict):
                for key in _SCALED_MISC:
                    if key in misc:
                        misc[key] = str(max(1, round(float(misc[key]) * scale)))
        return theme

    # -- size and fullscreen ----------------------------------------------------------

    def minimum_size(self) -> tuple[int, int]:
        """The smallest window the preset's screens stay legible in: :data:`MIN_SCALE` of its design size.

        Why: a random-resize soak found that below about half the design size the tablet's dialogs
        had labels taller than their rows (pygame_gui's fonts stop shrinking at 8 px), and below
        about 0.7 pygame_gui's small fonts lose the spaces between words ("Размерокна"); the window
        manager now stops the drag there."""
        w, h = self.preset.window
        fw, fh = fit_window_size(self.preset.window, _desktop())  # a tiny desktop lowers the floor
        return min(math.ceil(w * MIN_SCALE), fw), min(math.ceil(h * MIN_SCALE), fh)

    def _set_minimum_size(self) -> None:
        try:
            self._sdl_window().minimum_size = self.minimum_size()
        except (pygame.error, AttributeError):  # an old SDL or an odd driver: the window just has no floor
            pass

    def _sdl_window(self) -> pygame.Window:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # from_display_module warns about surface use we do not make
            return pygame.Window.from_display_module()

    def set_fullscreen(self, on: bool) -> None:
        """Desktop fullscreen on the same window (``set_mode`` would re-create it: new X id)."""
        if on == self.fullscreen:
            return
        if on:
            self.windowed_size = self.surface.get_size()
        try:
            win = self._sdl_window()
            if on:
                win.set_fullscreen(True)
            else:
                win.set_windowed()
                win.size = self.windowed_size
            pygame.event.pump()
            surf = pygame.display.get_surface()
            worked = surf is not None and pygame.display.is_fullscreen() == on
        except (pygame.error, AttributeError):
            worked = False
        if not worked:  # old SDL or an odd driver: re-create the window instead
            if on:
                pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
        self.surface = pygame.display.get_surface() or self.surface
        self.fullscreen = on
        self.resize_pending = True

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)
        self.refit()

    def resize(self, size: tuple[int, int]) -> None:
        """Programmatic resize (tests); in fullscreen it is the size to return to."""
        if self.fullscreen:
            self.windowed_size = size
            return
        self._set_size(size)
        self.refit()

    def _set_size(self, size: tuple[int, int]) -> None:
        """Resize the same window (keeps its X id); ``set_mode`` as a fallback.  It stays on the desktop,
        and never below :meth:`minimum_size` (SDL clamps the window; the fallback must agree)."""
        mw, mh = self.minimum_size()
        size = (max(size[0], mw), max(size[1], mh))
        try:
            win = self._sdl_window()
            win.size = size
            self._keep_on_desktop(win, size)
            pygame.event.pump()
            surf = pygame.display.get_surface()
            if surf is not None and surf.get_size() == tuple(size):
                self.surface = surf
                return
        except (pygame.error, AttributeError):
            pass
        self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)

    @staticmethod
    def _keep_on_desktop(win: pygame.Window, size: tuple[int, int]) -> None:
        """A window that grew past the desktop's right or bottom edge moves back in (top-left kept when it fits).

        Why: a phone window grows into a tablet one from its old top-left corner,
        and the computer's score panel ended up off screen.
        """
        dw, dh = _desktop()
        x, y = win.position
        margin = 8  # room for the window manager's border
        nx = max(0, min(x, dw - size[0] - margin))
        ny = max(0, min(y, dh - size[1] - 4 * margin))  # and its title bar
        if (nx, ny) != (x, y):
            win.position = (nx, ny)

    def use_preset(self, name: str | None) -> None:
        """Lay out for another preset; a window that was sized for the old one follows."""
        if not name or name == self.preset.name:
            return
        self.preset = get_preset(name)
        self._set_minimum_size()
        if not self.fullscreen:
            self.windowed_size = self.preferred_size()
            self._set_size(self.windowed_size)
        self.refit(force=True)

    def preferred_size(self) -> tuple[int, int]:
        """The preset's size at the chosen scale, never larger than the desktop (or fitted to it)."""
        if self.scale is None:
            return fit_window_size(self.preset.window, _desktop())
        return fit_window_size(self.preset.window, _desktop(), fill=0.95, max_scale=self.scale / 100)

    def set_scale(self, scale: int | None) -> None:
        """A new size choice (Settings): the window follows at once, or on leaving fullscreen."""
        self.scale = scale
        self.windowed_size = self.preferred_size()
        if not self.fullscreen:
            self._set_size(self.windowed_size)
            self.refit()

    def refit(self, force: bool = False) -> None:
        """Follow the window's current size: a new viewport and widget manager, then ``on_layout``."""
        self.resize_pending = False
        surf = pygame.display.get_surface()
        if surf is not None:
            self.surface = surf
        vp = self._make_viewport()
        if not force and vp == self.viewport:
            return
        self.viewport = vp
        self.gui = self._make_gui()
        self.on_layout()

    # -- shared drawing ----------------------------------------------------------------

    def veil(self, size: tuple[int, int], alpha: int) -> pygame.Surface:
        """A translucent dark sheet, kept per size (allocating a window-sized surface each frame is wasteful).

        The theme's ``hud.veil`` strengthens it (a light board needs more for the menus' light text to read)."""
        alpha = min(255, round(alpha * self.theme.hud.veil))
        key = (size[0], size[1], alpha)
        v = self._veils.get(key)
        if v is None:
            if len(self._veils) > 8:
                self._veils.clear()
            v = pygame.Surface(size, pygame.SRCALPHA)
            v.fill((4, 6, 18, alpha))
            self._veils[key] = v
        return v
