"""Heads-up display: both players (name, colour, score), whose turn, messages.

Why hand-drawn instead of pygame_gui labels: the cards change every move
(scores, the glowing turn marker, the animated "thinking" dots) and are drawn
in the players' colours from the render theme; pygame_gui is used only for
the buttons.  Layout is in design points, so it scales with the window like
everything else.  :func:`hud_layout` tells the play scene where its buttons go.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from triangles.paths import assets_dir
from triangles.ui.render.theme import Color, Theme
from triangles.ui.render.viewport import Viewport

__all__ = ["HudInfo", "HudLayout", "hud_layout", "Hud", "ui_font_path"]

Rect = tuple[float, float, float, float]

#: how far a card's subtitle may shrink before its short form is used instead (see Hud._subtitle)
SUBTITLE_SMALLEST = 0.87


def ui_font_path(bold: bool = False) -> str | None:
    """The shipped Noto Sans (``assets/fonts``: Latin, Cyrillic and Vietnamese's stacked marks)."""
    p = assets_dir() / "fonts" / ("NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf")
    return str(p) if p.is_file() else None


@dataclass
class HudInfo:
    names: tuple[str, str]
    subtitles: tuple[str, str]  # e.g. "Medium level", "" for humans
    scores: tuple[int, int]
    to_move: int | None  # None once the game is over
    thinking: bool = False
    status: str = ""
    status_kind: str = "info"  # "info" | "bad" | "good" | "turn"
    status_player: int | None = None  # colour the status in this player's colour
    thinking_label: str = "thinking"  # under the thinking player's name, with animated dots
    animated: bool = True  # False (reduced motion): a steady glow, "…" and a still spinner
    #: what a subtitle becomes where it would have to shrink to fit ("Sederhana" for "tahap
    #: Sederhana" beside a two-digit score on the phone, where the small type ran the words together)
    short_subtitles: tuple[str, str] = ("", "")


@dataclass(frozen=True)
class HudLayout:
    cards: tuple[Rect, Rect]
    status: Rect
    buttons: Rect  # the row for Menu / Undo / Redo / Hint


def hud_layout(design: tuple[float, float], board: tuple[float, float, float, float]) -> HudLayout:
    """Phone-like presets (room below the board) get buttons at the bottom; wide ones in the top bar."""
    dw, dh = design
    top = board[1]
    bottom = dh - (board[1] + board[3])
    pad = 10.0
    if bottom >= 44:
        cw = (dw - 3 * pad) / 2
        ch = min(64.0, top * 0.56)
        cards = ((pad, pad, cw, ch), (2 * pad + cw, pad, cw, ch))
        status = (pad, pad + ch + 4, dw - 2 * pad, top - ch - pad - 8)
        bh = min(46.0, bottom - 16)
        buttons = (pad, board[1] + board[3] + (bottom - bh) / 2, dw - 2 * pad, bh)
    else:
        cw = min(300.0, dw * 0.27)
        ch = top - 2 * pad
        cards = ((pad, pad, cw, ch), (dw - pad - cw, pad, cw, ch))
        mid_x = 2 * pad + cw
        mid_w = dw - 2 * mid_x
        status = (mid_x, pad - 2, mid_w, ch * 0.45)
        bh = min(38.0, ch * 0.5)
        buttons = (mid_x + mid_w * 0.08, pad + ch - bh, mid_w * 0.84, bh)
    return HudLayout(cards, status, buttons)


def _stack(lines: list[pygame.Surface]) -> pygame.Surface:
    """Text lines one under the other on a transparent surface."""
    w = max(img.get_width() for img in lines)
    h = sum(img.get_height() for img in lines)
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    y = 0
    for img in lines:
        out.blit(img, (0, y))
        y += img.get_height()
    return out


def _mix(a: Color, b: Color, t: float) -> Color:
    return round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t)


class Hud:
    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self.time = 0.0

    def font(self, size: float, bold: bool = False) -> pygame.font.Font:
        px = max(8, round(size))
        key = (px, bold)
        f = self._fonts.get(key)
        if f is None:
            path = None
            try:
                tp = self.theme.font_path()
                path = str(tp) if tp else None
            except Exception:
                path = None
            f = pygame.font.Font(path or ui_font_path(bold), px)
            self._fonts[key] = f
        return f

    def update(self, dt: float) -> None:
        self.time += dt

    # -- drawing -----------------------------------------------------------------------

    def _panel(
        self,
        surface: pygame.Surface,
        r: pygame.Rect,
        radius: int,
        border: Color,
        border_w: int,
        alpha_scale: float = 1.0,
    ) -> None:
        hud = self.theme.hud
        s = pygame.Surface(r.size, pygame.SRCALPHA)
        rgba = hud.panel_rgba
        pygame.draw.rect(s, (*rgba[:3], round(rgba[3] * alpha_scale)), s.get_rect(), border_radius=radius)
        if border_w:
            pygame.draw.rect(s, (*border, 230), s.get_rect(), border_w, border_radius=radius)
        surface.blit(s, r.topleft)

    def draw(self, surface: pygame.Surface, viewport: Viewport, layout: HudLayout, info: HudInfo) -> None:
        sc = viewport.scale
        hud = self.theme.hud
        sizes = hud.font_sizes
        t = self.time if info.animated else 0.0
        for k in (0, 1):
            r = pygame.Rect(viewport.design_rect_to_screen(layout.cards[k]))
            color = self.theme.player_colors[k]
            active = info.to_move == k
            if active:
                pulse = 0.5 + 0.5 * math.sin(t * 3.2) if info.animated else 0.5
                glow = pygame.Surface((r.w + 16, r.h + 16), pygame.SRCALPHA)
                for g in range(4, 0, -1):
                    a = round((22 + 18 * pulse) * (5 - g) / 4)
                    pygame.draw.rect(
                        glow,
                        (*color, a),
                        glow.get_rect().inflate(-2 * (4 - g) * 2, -2 * (4 - g) * 2),
                        border_radius=round(16 * sc) + g * 2,
                    )
                surface.blit(glow, (r.x - 8, r.y - 8))
            self._panel(
                surface,
                r,
                round(14 * sc),
                color if active else hud.panel_border,
                max(1, round((2 if active else 1) * sc)),
            )
            # colour chip
            chip_r = max(3, round(min(r.h * 0.16, 9 * sc)))
            cx = r.x + round(11 * sc) + chip_r
            cy = r.y + r.h // 2
            pygame.draw.circle(surface, _mix(color, (255, 255, 255), 0.15), (cx, cy), chip_r + max(1, round(sc)))
            pygame.draw.circle(surface, color, (cx, cy), chip_r)
            # score, right-aligned
            score_font = self.font(min(sizes.large * sc, r.h * 0.62), bold=True)
            score = score_font.render(
                str(info.scores[k]), True, color if active or info.to_move is None else _mix(color, hud.text, 0.35)
            )
            surface.blit(score, score.get_rect(midright=(r.right - round(11 * sc), cy)))
            # name and subtitle
            text_x = cx + chip_r + round(8 * sc)
            max_w = r.right - round(11 * sc) - score.get_width() - round(6 * sc) - text_x
            name_color = hud.text if active else _mix(hud.text, hud.text_dim, 0.3)
            sub_text = info.subtitles[k]
            one_line = self.font_that_fits(sizes.normal * sc, active, info.names[k], max_w)
            if one_line is not None:
                name = one_line.render(info.names[k], True, name_color)
            elif sub_text or (info.thinking and active):
                name = self.fit_shrinking(sizes.normal * sc, active, info.names[k], max_w, name_color)
            else:
                name = self.wrap_two_lines(sizes.normal * sc, active, info.names[k], max_w, r.h * 0.86, name_color)
            if info.thinking and active:
                dots = "." * (1 + int(t * 3) % 3) if info.animated else "…"
                sub = self.fit_shrinking(sizes.small * sc, False, info.thinking_label + dots, max_w, hud.accent)
            elif sub_text:
                sub = self._subtitle(sizes.small * sc, sub_text, info.short_subtitles[k], max_w, hud.text_dim)
            else:
                sub = None
            if sub is not None:
                total = name.get_height() + sub.get_height() - round(2 * sc)
                y0 = cy - total // 2
                surface.blit(name, (text_x, y0))
                surface.blit(sub, (text_x, y0 + name.get_height() - round(2 * sc)))
            else:
                surface.blit(name, name.get_rect(midleft=(text_x, cy)))
            if info.thinking and active:
                self._spinner(surface, (cx, cy), chip_r + round(5 * sc), color, sc, t)
        self._status(surface, viewport, layout, info)

    def _spinner(
        self, surface: pygame.Surface, center: tuple[int, int], radius: int, color: Color, sc: float, t: float
    ) -> None:
        start = t * 5.0
        rect = pygame.Rect(0, 0, 2 * radius, 2 * radius)
        rect.center = center
        pygame.draw.arc(surface, _mix(color, (255, 255, 255), 0.4), rect, -start, -start + 2.0, max(1, round(2 * sc)))

    def _status(self, surface: pygame.Surface, viewport: Viewport, layout: HudLayout, info: HudInfo) -> None:
        if not info.status:
            return
        sc = viewport.scale
        hud = self.theme.hud
        r = pygame.Rect(viewport.design_rect_to_screen(layout.status))
        if info.status_kind == "bad":
            color = self.theme.band.bad
        elif info.status_kind == "good":
            color = hud.accent
        elif info.status_player is not None:
            color = _mix(self.theme.player_colors[info.status_player], hud.text, 0.35)
        else:
            color = hud.text
        # a little smaller if that fits, else two lines: never cut what the line says ("…, 42%" lost its number)
        size = min(hud.font_sizes.normal * sc, r.h * 0.62)
        bold = info.status_kind in ("bad", "good")
        max_w = r.w - round(24 * sc)
        font = self.font_that_fits(size, bold, info.status, max_w, smallest=0.8)
        if font is not None:
            text = font.render(info.status, True, color)
        else:
            text = self.wrap_two_lines(size, bold, info.status, max_w, r.h - round(4 * sc), color)
        pill = text.get_rect(center=r.center).inflate(round(26 * sc), round(10 * sc))
        self._panel(
            surface,
            pill,
            pill.h // 2,
            color if info.status_kind in ("bad", "good") else hud.panel_border,
            max(1, round(sc)),
            alpha_scale=0.9,
        )
        surface.blit(text, text.get_rect(center=r.center))

    def _subtitle(self, size: float, text: str, short: str, max_w: float, color: Color) -> pygame.Surface:
        """A card's subtitle: whole while it fits at nearly its size, else ``short`` where there is
        one: the small type shrunk further ran "tahap Sederhana" together on the phone."""
        font = self.font_that_fits(size, False, text, max_w, smallest=SUBTITLE_SMALLEST)
        if font is not None:
            return font.render(text, True, color)
        return self.fit_shrinking(size, False, short or text, max_w, color)

    def fit_shrinking(
        self, size: float, bold: bool, text: str, max_w: float, color: Color, smallest: float = 0.74
    ) -> pygame.Surface:
        """``text`` at ``size``, or a little smaller if that fits ("Компьютер", "Người chơi 2" on the phone).

        Only a text that does not fit even at ``smallest`` of the size is
        shortened with "…" (a very long player name).
        """
        font = self.font_that_fits(size, bold, text, max_w, smallest)
        if font is not None:
            return font.render(text, True, color)
        return self.fit(self.font(size * smallest, bold), text, max_w, color)

    def font_that_fits(
        self, size: float, bold: bool, text: str, max_w: float, smallest: float = 0.74
    ) -> pygame.font.Font | None:
        """The largest font from ``size`` down to ``smallest`` of it in which ``text`` fits one line."""
        for k in range(7):
            font = self.font(size * (1 - (1 - smallest) * k / 6), bold)
            if font.size(text)[0] <= max_w:
                return font
        return None

    def wrap_two_lines(
        self, size: float, bold: bool, text: str, max_w: float, max_h: float, color: Color
    ) -> pygame.Surface:
        """``text`` on two lines (split at the space nearest the middle, else mid-word), as large as fits.

        Only if even that fails is a line shortened with "…".  One surface, both lines.
        """
        spaces = [k for k, ch in enumerate(text) if ch == " "]
        mid = len(text) / 2
        if spaces:
            cut = min(spaces, key=lambda k: abs(k - mid))
            parts = [text[:cut], text[cut + 1 :]]
        else:
            cut = max(1, round(mid))
            parts = [text[:cut] + "-", text[cut:]]
        for k in range(9):
            font = self.font(size * (1 - 0.45 * k / 8), bold)
            if all(font.size(p)[0] <= max_w for p in parts) and 2 * font.get_linesize() <= max_h:
                return _stack([font.render(p, True, color) for p in parts])
        font = self.font(size * 0.55, bold)
        return _stack([self.fit(font, p, max_w, color) for p in parts])

    @staticmethod
    def fit(font: pygame.font.Font, text: str, max_w: float, color: Color) -> pygame.Surface:
        img = font.render(text, True, color)
        if img.get_width() <= max_w or len(text) < 2:
            return img
        while len(text) > 1:
            text = text[:-1]
            img = font.render(text.rstrip() + "…", True, color)
            if img.get_width() <= max_w:
                break
        return img
