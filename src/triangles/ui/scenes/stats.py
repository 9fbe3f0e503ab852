"""The Statistics screen: pick a device and a board size, read the figures per level.

Why this layout: against the computer the figures are kept per preset, stars
and level; two rows of segmented buttons choose the preset and the stars, and
one table shows the three levels side by side (levels as columns, figures as
rows, so the long words of Malay and Vietnamese get the wide first column on
a phone).  Two-player games follow in their own section, and a footnote says
how the win rate and the streak treat draws.  On a wide window the two
sections stand side by side.

The table is drawn in :meth:`StatisticsScene.draw` with our own fonts (shrunk
to fit, never cut silently: anything that still would not fit is noted in
``overflow``, which the tests check), so it stays visible, dimmed, under the
reset dialog.  The screen only reads the window's
:class:`~triangles.stats.StatisticsBook` (``app.nav.stats``); Reset asks
first (:class:`ResetStatisticsScene`).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from triangles.i18n import tr, trn
from triangles.players import LEVEL_NAMES
from triangles.presets import get_preset, load_presets
from triangles.stats import Statistics, Tally
from triangles.ui import input as inp
from triangles.ui.hud import Hud
from triangles.ui.input import Action
from triangles.ui.scenes.base import ChoiceRow, Overlay, Rect

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = [
    "StatisticsScene",
    "ResetStatisticsScene",
    "report_statistics_problems",
    "figure_rows",
    "hotseat_rows",
    "shorten_rows",
]

TEXT = (238, 242, 255)
DIM = (143, 154, 191)
ACCENT = (255, 211, 107)
PANEL = (11, 15, 36, 226)
BORDER = (59, 70, 128)
STRIPE = (255, 255, 255, 12)
#: the smallest size (design points) text may shrink to before it counts as cut off
MIN_FONT = 11.0
#: the least room (design points) between two level names over the table's columns
GAP = 8.0


def report_statistics_problems(app: App) -> None:
    """Tell the player, once per window, that the file was unreadable or could not be written."""
    for problem in app.nav.stats.take_problems():
        if problem.kind == "unreadable":
            text = tr("stats.error.unreadable", name=problem.detail)
        else:
            text = tr("stats.error.write", reason=problem.detail)
        app.nav.message(text, tr("stats.title"))


def _rate(t: Tally) -> str:
    rate = t.win_rate
    return tr("stats.no_rate") if rate is None else tr("stats.percent", pct=round(rate * 100))


def figure_rows(stats: Statistics, preset: str, stars: int) -> list[tuple[str, list[str]]]:
    """The table for one preset and star count: (figure, one text per level, weakest first)."""
    tallies = [stats.tally(preset, stars, lv) for lv in LEVEL_NAMES]
    rows = [
        ("stats.games", lambda t: str(t.games)),
        ("stats.wins", lambda t: str(t.wins)),
        ("stats.losses", lambda t: str(t.losses)),
        ("stats.draws", lambda t: str(t.draws)),
        ("stats.win_rate", _rate),
        ("stats.streak", lambda t: str(t.streak)),
        ("stats.best_streak", lambda t: str(t.best_streak)),
    ]
    return [(tr(key), [value(t) for t in tallies]) for key, value in rows]


def hotseat_rows(stats: Statistics) -> list[tuple[str, str]]:
    """Two-player games: games, draws, then each winner (seat or name) with their wins, most first."""
    h = stats.hotseat
    rows = [(tr("stats.games"), str(h.games)), (tr("stats.draws"), str(h.draws))]
    winners = [(tr("player.one"), h.seat_wins[0]), (tr("player.two"), h.seat_wins[1])]
    winners += list(h.wins_by_name.items())
    winners = sorted((w for w in winners if w[1]), key=lambda w: -w[1])
    return rows + [(name, trn("stats.n_wins", n)) for name, n in winners]


def shorten_rows(rows: list[tuple[str, str]], fits: int) -> list[tuple[str, str]]:
    """At most ``fits`` rows: the winners that do not fit are summed up in the last one ("and 3 more")."""
    if len(rows) <= fits:
        return rows
    return rows[: fits - 1] + [("", trn("stats.more", len(rows) - fits + 1))]


@dataclass
class _Layout:
    """Where everything goes, in design points (worked out once per build, read by draw)."""

    heading_ai: Rect
    preset_row: Rect
    stars_row: Rect
    table: Rect
    heading_hotseat: Rect
    hotseat: Rect
    footnote: Rect
    buttons: Rect


class StatisticsScene(Overlay):
    dim_alpha = 150

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.hud = Hud(app.theme)  # its font loader (the shipped Noto Sans)
        stats = self.stats
        last = stats.last_played()
        if last is not None and last[0] in load_presets() and last[1] in get_preset(last[0]).stars:
            self.preset, self.stars = last
        else:
            self.preset = app.preset.name
            self.stars = self._stars_for(self.preset)
        self.layout: _Layout | None = None
        #: texts that did not fit even at the smallest size (tests check it stays empty)
        self.overflow: list[str] = []

    @property
    def stats(self) -> Statistics:
        return self.app.nav.stats.stats

    def _stars_for(self, preset: str) -> int:
        """The star count to show for ``preset``: the last one played there, else the preset's default."""
        p = get_preset(preset)
        for (name, stars, _), t in reversed(self.stats.ai.items()):
            if name == preset and t.games and stars in p.stars:
                return stars
        return p.default_stars

    # -- widgets -------------------------------------------------------------------

    def _make_layout(self) -> _Layout:
        dw, dh = self.design_size
        m = 12.0
        bottom_h = 50.0
        buttons = (m + 16, dh - m - 14 - bottom_h, dw - 2 * m - 32, bottom_h)
        top = m + 72
        if dw >= 760:  # side by side: the computer's table and its footnote left, two players right
            gap = 40.0
            left_w = min(600.0, (dw - 2 * m - 32 - gap) * 0.58)
            right_w = min(440.0, dw - 2 * m - 32 - gap - left_w)
            x0 = (dw - left_w - gap - right_w) / 2
            x1 = x0 + left_w + gap
            y = top
            room = buttons[1] - 20 - (y + 140)  # table and footnote
            table_h = min(340.0, room - 72)
            return _Layout(
                heading_ai=(x0, y, left_w, 36),
                preset_row=(x0, y + 42, left_w, 40),
                stars_row=(x0, y + 90, left_w, 40),
                table=(x0, y + 140, left_w, table_h),
                heading_hotseat=(x1, y, right_w, 36),
                hotseat=(x1, y + 42, right_w, y + 140 + table_h - (y + 42)),
                footnote=(x0, y + 140 + table_h + 8, left_w, 64),
                buttons=buttons,
            )
        w = min(420.0, dw - 2 * m - 8)
        x = (dw - w) / 2
        footnote = (x, buttons[1] - 10 - 80, w, 80.0)  # four short lines: Malay and Vietnamese run long
        y = top
        table = (x, y + 124, w, 240.0)
        hy = table[1] + table[3] + 10
        return _Layout(
            heading_ai=(x, y, w, 34),
            preset_row=(x, y + 36, w, 38),
            stars_row=(x, y + 80, w, 38),
            table=table,
            heading_hotseat=(x, hy, w, 34),
            hotseat=(x, hy + 36, w, footnote[1] - 6 - (hy + 36)),
            footnote=footnote,
            buttons=buttons,
        )

    def build_ui(self) -> None:
        dw, _ = self.design_size
        lay = self.layout = self._make_layout()
        self.label((0, 20, dw, 44), tr("stats.title"), cls="@heading", obj="#stats_title")
        self.label(lay.heading_ai, tr("new.mode.ai"), cls="@subheading")
        self.label(lay.heading_hotseat, tr("new.mode.hotseat"), cls="@subheading")
        presets = [(name, tr(f"preset.{name}")) for name in load_presets()]
        self.preset_row = ChoiceRow(self, lay.preset_row, presets, self.preset, self.choose_preset)
        stars = [(n, trn("stats.stars", n)) for n in get_preset(self.preset).stars]
        self.stars_row = ChoiceRow(self, lay.stars_row, stars, self.stars, self.choose_stars)
        x, y, w, h = lay.buttons
        bw = min(200.0, (w - 16) / 2)
        cx = x + w / 2
        self.button(
            (cx - bw - 8, y, bw, h),
            tr("stats.reset"),
            self.app.nav.confirm_stats_reset,
            obj="#reset",
            enabled=not self.stats.is_empty,
        )
        self.button((cx + 8, y, bw, h), tr("button.back"), self.close, cls="@primary", obj="#back")

    def choose_preset(self, preset: object) -> None:
        self.preset = str(preset)
        self.stars = self._stars_for(self.preset)
        self.rebuild()

    def choose_stars(self, stars: object) -> None:
        if isinstance(stars, int):
            self.stars = stars
            self.stars_row.set(stars)

    def close(self) -> None:
        self.app.nav.close(self)

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.close()
        elif action.kind == inp.NAV and action.pos is not None:
            dx, dy = action.pos
            if dx:  # left / right: another board size
                options = list(get_preset(self.preset).stars)
                k = options.index(self.stars) if self.stars in options else 0
                self.choose_stars(options[max(0, min(len(options) - 1, k + (1 if dx > 0 else -1)))])
            elif dy:  # up / down: another device
                names = list(load_presets())
                k = names.index(self.preset) if self.preset in names else 0
                new = names[max(0, min(len(names) - 1, k + (1 if dy > 0 else -1)))]
                if new != self.preset:
                    self.choose_preset(new)

    # -- drawing -------------------------------------------------------------------

    def _size(self, phone: float) -> float:
        """A text size in design points: the phone's, a little larger on a wide window (there is room)."""
        return phone + 2 if self.design_size[0] >= 760 else phone

    def _font(self, size: float, bold: bool = False) -> pygame.font.Font:
        return self.hud.font(size * self.app.viewport.scale, bold)

    def _text(
        self, text: str, size: float, max_w: float, color: tuple[int, int, int], bold: bool = False
    ) -> pygame.Surface:
        """``text`` rendered to fit ``max_w`` design points: shrunk down to MIN_FONT, then (noted) shortened."""
        scale = self.app.viewport.scale
        limit = max_w * scale
        s = size
        while True:
            img = self._font(s, bold).render(text, True, color)
            if img.get_width() <= limit:
                return img
            if s <= MIN_FONT:
                break
            s = max(MIN_FONT, s - 1)
        self.overflow.append(text)
        return Hud.fit(self._font(MIN_FONT, bold), text, limit, color)

    def _wrap(self, text: str, size: float, max_w: float) -> list[str]:
        """Greedy word wrap at ``size`` (design points) for ``max_w`` design points."""
        font = self._font(size)
        limit = max_w * self.app.viewport.scale
        lines: list[str] = []
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if font.size(trial)[0] <= limit or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
        return lines

    def _box(
        self, surface: pygame.Surface, rect: Rect, color: tuple[int, ...], radius: float = 0, border: bool = False
    ) -> None:
        r = self.rect(*rect)
        rad = round(radius * self.app.viewport.scale)
        if len(color) == 4 and color[3] < 255:
            layer = pygame.Surface(r.size, pygame.SRCALPHA)
            pygame.draw.rect(layer, color, layer.get_rect(), border_radius=rad)
            surface.blit(layer, r.topleft)
        else:
            pygame.draw.rect(surface, color, r, border_radius=rad)
        if border:
            pygame.draw.rect(surface, BORDER, r, width=max(1, round(self.app.viewport.scale)), border_radius=rad)

    def _blit(self, surface: pygame.Surface, img: pygame.Surface, x: float, y: float, h: float, align: str) -> None:
        """Place ``img`` in the row at design ``(x, y)`` of height ``h``: left-aligned, or centred on ``x``."""
        sx, sy = self.app.viewport.design_to_screen(x, y + h / 2)
        r = img.get_rect(midleft=(sx, sy)) if align == "left" else img.get_rect(center=(sx, sy))
        surface.blit(img, r)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        lay = self.layout or self._make_layout()
        self.overflow = []
        dw, dh = self.design_size
        self._box(surface, (12, 12, dw - 24, dh - 24), PANEL, radius=18, border=True)
        self._draw_table(surface, lay.table)
        self._draw_hotseat(surface, lay.hotseat)
        x, y, w, h = lay.footnote
        size = self._size(13)
        lines = self._wrap(tr("stats.footnote"), size, w)
        while len(lines) * size * 1.4 > h and size > MIN_FONT:
            size -= 0.5
            lines = self._wrap(tr("stats.footnote"), size, w)
        if len(lines) * size * 1.4 > h + 1:
            self.overflow.append(tr("stats.footnote"))
        lh = size * 1.4
        top = y + (h - len(lines) * lh) / 2
        for k, line in enumerate(lines):
            self._blit(surface, self._font(size).render(line, True, DIM), x + w / 2, top + k * lh, lh, "center")

    def _common_size(self, texts: list[str], size: float, max_w: float, bold: bool = False) -> float:
        """The largest size up to ``size`` at which every one of ``texts`` fits ``max_w`` (not below MIN_FONT).

        One size for a whole column or header row, so the table does not look ragged.
        """
        limit = max_w * self.app.viewport.scale
        while size > MIN_FONT and any(self._font(size, bold).size(t)[0] > limit for t in texts):
            size -= 0.5
        return size

    def _draw_table(self, surface: pygame.Surface, rect: Rect) -> None:
        x, y, w, h = rect
        self._box(surface, rect, (255, 255, 255, 8), radius=12, border=True)
        levels = [tr(f"level.{lv}") for lv in LEVEL_NAMES]
        rows = figure_rows(self.stats, self.preset, self.stars)
        pad = 10.0
        labels = [label for label, _ in rows]
        n = len(levels)

        def widest(texts: list[str], size: float, bold: bool = False) -> float:
            return max(self._font(size, bold).size(t)[0] for t in texts) / self.app.viewport.scale

        # the labels come first (they are what a row says): as large as leaves the levels room at 13
        # points, not below 13; the level names then take the size their columns allow
        size = self._size(15)
        while size > 13 and widest(labels, size) + 2 * pad + n * GAP + sum(widest([t], 13, True) for t in levels) > w:
            size -= 0.5
        label_w = min(widest(labels, size) + pad + 4, w * 0.5)
        room = w - label_w - pad
        row_h = h / (len(rows) + 1)
        # each level's column as wide as its name needs, the room left shared out: equal columns
        # had shrunk "Mudah Sederhana Sukar" to the smallest type for the one long name
        figure = widest(["100%"], self._size(16), True) + 6

        def columns(size: float, bold: bool) -> list[float]:
            return [max(widest([t], size, bold) + GAP, figure) for t in levels]

        for head_bold in (True, False):  # too narrow even small and bold: the regular weight, larger
            head = self._size(16)
            while head > MIN_FONT and sum(columns(head, head_bold)) > room:
                head -= 0.5
            if sum(columns(head, head_bold)) <= room:
                break
        cols = columns(head, head_bold)
        share = (room - sum(cols)) / n
        cols = [c + share for c in cols]
        centres = [x + label_w + sum(cols[:k]) + cols[k] / 2 for k in range(n)]
        for k, name in enumerate(levels):
            img = self._text(name, head, cols[k] - 2, ACCENT, bold=head_bold)
            self._blit(surface, img, centres[k], y, row_h, "center")
        if not self.stats.has_games(self.preset, self.stars):
            img = self._text(tr("stats.no_games"), self._size(18), w - 2 * pad, DIM)
            self._blit(surface, img, x + w / 2, y + row_h, h - row_h, "center")
            return
        size = self._common_size(labels, size, label_w - pad - 2)
        for r, (label, values) in enumerate(rows):
            ry = y + row_h * (r + 1)
            if r % 2 == 0:
                self._box(surface, (x + 4, ry, w - 8, row_h), STRIPE, radius=6)
            bold = label == tr("stats.win_rate")
            self._blit(surface, self._text(label, size, label_w - pad - 2, DIM), x + pad, ry, row_h, "left")
            for k, value in enumerate(values):
                color = ACCENT if bold else TEXT
                img = self._text(value, self._size(16), cols[k] - 6, color, bold=bold)
                self._blit(surface, img, centres[k], ry, row_h, "center")

    def _draw_hotseat(self, surface: pygame.Surface, rect: Rect) -> None:
        x, y, w, h = rect
        pad = 10.0
        row_h = 27.0 if h < 300 else 32.0
        if not self.stats.hotseat.games:
            box = (x, y, w, min(h, 64.0))
            self._box(surface, box, (255, 255, 255, 8), radius=12, border=True)
            self._blit(
                surface,
                self._text(tr("stats.no_games"), self._size(18), w - 2 * pad, DIM),
                x + w / 2,
                y,
                box[3],
                "center",
            )
            return
        rows = shorten_rows(hotseat_rows(self.stats), max(3, int((h - 8) // row_h)))
        box = (x, y, w, len(rows) * row_h + 8)
        self._box(surface, box, (255, 255, 255, 8), radius=12, border=True)
        value_w = w * 0.42
        for r, (label, value) in enumerate(rows):
            ry = y + 4 + r * row_h
            if r % 2 == 0:
                self._box(surface, (x + 4, ry, w - 8, row_h), STRIPE, radius=6)
            color = DIM if r < 2 else TEXT
            self._blit(
                surface, self._text(label, self._size(15), w - value_w - 2 * pad, color), x + pad, ry, row_h, "left"
            )
            img = self._text(value, self._size(16), value_w - pad, TEXT if r < 2 else ACCENT, bold=r >= 2)
            sx, sy = self.app.viewport.design_to_screen(x + w - pad, ry + row_h / 2)
            surface.blit(img, img.get_rect(midright=(sx, sy)))


class ResetStatisticsScene(Overlay):
    """Asks before clearing every figure: Cancel (or Escape) keeps them, Reset clears them."""

    dim_alpha = 170

    def _box_rect(self) -> Rect:
        dw, dh = self.design_size
        w = min(440.0, dw - 30)
        h = 300.0 if w < 420 else 270.0  # a narrow dialog: Malay's question takes five lines
        return (dw - w) / 2, (dh - h) / 2, w, h

    def draw(self, surface: pygame.Surface) -> None:
        """The veil, then a solid backing: the table below must not show through the dialog's text."""
        super().draw(surface)
        r = self.rect(*self._box_rect())
        pygame.draw.rect(surface, PANEL[:3], r, border_radius=round(18 * self.app.viewport.scale))

    def build_ui(self) -> None:
        x, y, w, h = self._box_rect()
        self.panel((x, y, w, h))
        self.label((x + 16, y + 14, w - 32, 40), tr("stats.reset.title"), cls="@subheading")
        self.keep(
            pygame_gui.elements.UITextBox(
                html.escape(tr("stats.reset.text")), self.rect(x + 16, y + 60, w - 32, h - 140), self.app.gui
            )
        )
        bw = (w - 48) / 2
        self.button((x + 16, y + h - 66, bw, 50), tr("button.cancel"), self.cancel, obj="#cancel")
        self.button((x + 32 + bw, y + h - 66, bw, 50), tr("stats.reset"), self.confirm, cls="@primary", obj="#ok")

    def cancel(self) -> None:
        self.app.nav.close(self)

    def confirm(self) -> None:
        self.app.nav.stats.reset()
        self.app.nav.close(self)
        report_statistics_problems(self.app)

    def handle_action(self, action: Action) -> None:
        if action.kind == inp.CANCEL:
            self.cancel()
