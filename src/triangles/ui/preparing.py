"""The screen shown while the rules' kernels compile on a cold numba cache.

Why a screen of its own: before the first board can be drawn the rules'
kernels must be compiled, about 4–5 s on a first start (numba's cache is
empty), and until now the window sat blank and unresponsive all that time.
:func:`triangles.warmup.warm_rules` calls :meth:`PreparingScreen.show` after
each compilation; each call pumps the window's events and draws the title,
an honest "first start only, N%" line and a bar.  With a warm cache it is
never called and nothing is drawn.  Plain pygame drawing: the GUI manager
and the scenes do not exist yet.
"""

from __future__ import annotations

import pygame

from triangles import warmup
from triangles.i18n import tr
from triangles.ui.hud import ui_font_path
from triangles.ui.window import Window

__all__ = ["PreparingScreen"]


class PreparingScreen:
    def __init__(self, window: Window) -> None:
        self.window = window
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self.shown: list[int] = []  # every percentage drawn (tests read it)

    def _font(self, px: float, bold: bool) -> pygame.font.Font:
        key = (max(8, round(px)), bold)
        if key not in self._fonts:
            self._fonts[key] = pygame.font.Font(ui_font_path(bold), key[0])
        return self._fonts[key]

    def show(self, percent: int) -> None:
        """Draw the screen at ``percent`` and put it on the display (events are pumped, not taken)."""
        pygame.event.pump()
        self.shown.append(percent)
        self.draw(self.window.surface, percent)
        pygame.display.flip()

    def draw(self, surface: pygame.Surface, percent: int) -> None:
        theme = self.window.theme
        vp = self.window.viewport
        w, h = surface.get_size()
        sky = pygame.Surface((1, 2))
        sky.set_at((0, 0), theme.background.top)
        sky.set_at((0, 1), theme.background.bottom)
        surface.blit(pygame.transform.smoothscale(sky, (w, h)), (0, 0))
        s = vp.design_scale
        cx, cy = w / 2, h / 2
        title = self._font(44 * s, True).render(tr("app.title"), True, theme.hud.text)
        surface.blit(title, title.get_rect(midbottom=(cx, cy - 24 * s)))
        # "first start only" is true only when the compiled kernels can be kept (a cache folder is writable)
        text = tr("boot.preparing" if warmup.kept() else "boot.preparing.nocache", percent=percent)
        px = 17 * s
        room = w - 32 * s
        while self._font(px, False).size(text)[0] > room and px > 9:  # a narrow window: smaller, never cut
            px *= 0.9
        font = self._font(px, False)
        line = font.render(text, True, theme.hud.text_dim)
        surface.blit(line, line.get_rect(midtop=(cx, cy)))
        bar = pygame.Rect(0, 0, min(room, 360 * s), max(3, round(6 * s)))
        bar.midtop = (round(cx), round(cy + line.get_height() + 16 * s))
        pygame.draw.rect(surface, theme.hud.panel_border, bar, border_radius=bar.height // 2)
        done = bar.copy()
        done.width = round(bar.width * max(0, min(100, percent)) / 100)
        if done.width:
            pygame.draw.rect(surface, theme.hud.accent, done, border_radius=bar.height // 2)
