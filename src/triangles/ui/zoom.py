"""Zoom and pan for a board scene (play, review): the wheel, keys, drags and the board tools.

Why one object: play and review both show a board that can be zoomed, and the
same gestures must mean the same there.  :meth:`BoardZoom.handle` is given
every action first (with the star under the pointer, if any) and says whether
it used it:

* the wheel zooms about the pointer; + / - about the board's middle; 0 (and a
  double-click on empty space) goes back to the whole board;
* a drag that starts on empty space pans (a drag from a star is the scene's:
  it draws a line); Shift+arrows and W A S D pan by a step;
* T toggles the closing-lines aid where the scene offers one;
* the board tools (a small row of buttons beside the board, or a column in
  its corner when there is no room beside it) do the same for the mouse.

Zoom is UI state: it lives on the scene's :class:`BoardView`, never in the
game or its undo, and a new game starts at the whole board.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

import pygame

from triangles.i18n import tr
from triangles.ui import input as inp
from triangles.ui.hud import Hud
from triangles.ui.input import Action
from triangles.ui.render import BoardView
from triangles.ui.render.view import MAX_ZOOM, MIN_ZOOM
from triangles.ui.render.viewport import Viewport

__all__ = ["BoardZoom", "Tool", "tool_rects", "ZOOM_STEP", "DRAG_THRESHOLD", "DOUBLE_CLICK"]

#: zoom factor of one wheel notch or one + / - press
ZOOM_STEP = 1.25
#: pixels the pointer must move before a press on empty space becomes a pan
DRAG_THRESHOLD = 5.0
#: seconds and pixels within which two clicks on empty space are a double-click
DOUBLE_CLICK = (0.4, 10.0)
#: a keyboard pan step, as a share of the board's width on screen
PAN_STEP = 0.2

Rect = tuple[float, float, float, float]

_WASD = MappingProxyType({pygame.K_w: (0, -1), pygame.K_a: (-1, 0), pygame.K_s: (0, 1), pygame.K_d: (1, 0)})


@dataclass(frozen=True)
class Tool:
    name: str  # "aid" | "in" | "out" | "fit"
    rect: Rect  # design points


def tool_rects(design: tuple[float, float], board: Rect, names: tuple[str, ...]) -> list[Tool]:
    """Where the tools go: a row under the board's right end when the strip below the board is free
    (the tablet's), else a column inside the board's bottom-right corner."""
    dw, dh = design
    bx, by, bw, bh = board
    strip = dh - (by + bh)
    gap = 6.0
    n = len(names)
    if 26.0 <= strip < 44.0:  # free strip (from 44 on, the HUD's buttons live there)
        size = min(26.0, strip - 4.0)
        x0 = bx + bw - 10.0 - n * size - (n - 1) * gap
        y = by + bh + (strip - size) / 2
        return [Tool(nm, (x0 + k * (size + gap), y, size, size)) for k, nm in enumerate(names)]
    size = 30.0
    x = bx + bw - 6.0 - size
    y0 = by + bh - 6.0 - n * size - (n - 1) * gap
    return [Tool(nm, (x, y0 + k * (size + gap), size, size)) for k, nm in enumerate(names)]


class BoardZoom:
    """Zoom and pan gestures for ``view()`` (the scene's BoardView, looked up each time: it may be replaced)."""

    def __init__(
        self,
        view: Callable[[], BoardView],
        viewport: Callable[[], Viewport],
        aid: tuple[Callable[[], bool], Callable[[], None]] | None = None,
    ) -> None:
        self.view = view
        self.viewport = viewport
        self.aid = aid  # (is it on?, toggle it) where the scene offers the aid
        self.time = 0.0
        self.pointer: tuple[int, int] | None = None
        self.press: tuple[int, int] | None = None  # a press on empty space, not yet a pan or a click
        self.panning = False
        self.clicked_empty = False  # the last release ended a click on empty space (not a pan)
        self._last: tuple[int, int] | None = None
        self._last_click: tuple[float, tuple[int, int]] | None = None
        self._tool_down = False

    # -- tools -----------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return (("aid",) if self.aid is not None else ()) + ("out", "in", "fit")

    def tools(self) -> list[Tool]:
        vp = self.viewport()
        names = self.names
        placed = tool_rects(vp.design_size, vp.board_rect, names)
        if placed and placed[0].rect[0] < placed[-1].rect[0]:
            return placed
        # a column reads top to bottom: the aid, zoom in, zoom out, the whole board
        order = {"aid": 0, "in": 1, "out": 2, "fit": 3}
        rects = [t.rect for t in placed]
        return [Tool(nm, r) for nm, r in zip(sorted(names, key=order.__getitem__), rects, strict=True)]

    def tool_at(self, pos: tuple[float, float]) -> Tool | None:
        vp = self.viewport()
        for t in self.tools():
            if pygame.Rect(vp.design_rect_to_screen(t.rect)).collidepoint(pos):
                return t
        return None

    def enabled(self, name: str) -> bool:
        z = self.view().zoom
        if name == "in":
            return z < MAX_ZOOM
        if name in ("out", "fit"):
            return z > MIN_ZOOM
        return True

    def use(self, name: str) -> None:
        v = self.view()
        if name == "in":
            v.zoom_at(ZOOM_STEP)
        elif name == "out":
            v.zoom_at(1 / ZOOM_STEP)
        elif name == "fit":
            v.fit()
        elif name == "aid" and self.aid is not None:
            self.aid[1]()

    @staticmethod
    def tip(name: str) -> str:
        tips = {
            "in": tr("zoom.tip.in"),
            "out": tr("zoom.tip.out"),
            "fit": tr("zoom.tip.fit"),
            "aid": tr("zoom.tip.aid"),
        }
        return tips[name]

    # -- input -----------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.time += dt

    def reset(self) -> None:
        """Forget a press in progress (the scene lost the pointer)."""
        self.press = None
        self.panning = False
        self._tool_down = False

    def handle(self, a: Action, star: int | None = None) -> bool:
        """Use ``a`` if it is about the view; ``star``: the star under the pointer for pointer actions."""
        k = a.kind
        v = self.view()
        self.clicked_empty = False
        if k == inp.ZOOM:
            pos = self._wheel_pos() if a.event is not None else None
            v.zoom_at(ZOOM_STEP**a.amount, pos)
            return True
        if k == inp.FIT:
            v.fit()
            return True
        if k == inp.PAN and a.pos is not None:
            self._pan_step(a.pos)
            return True
        if k == inp.KEY and a.event is not None:
            key = int(getattr(a.event, "key", -1))
            if key in _WASD and not getattr(a.event, "mod", 0) & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self._pan_step(_WASD[key])
                return True
            if key == pygame.K_t and self.aid is not None:
                self.aid[1]()
                return True
            return False
        if k == inp.FOCUS_LOST:
            self.reset()
            return False
        if a.pos is None:
            return False
        pos = (int(a.pos[0]), int(a.pos[1]))
        if k == inp.POINTER_MOVE:
            self.pointer = pos
            if self.press is None:
                return False
            if not self.panning and math.dist(pos, self.press) >= DRAG_THRESHOLD:
                self.panning = True
            if self.panning and self._last is not None:
                v.pan_by(pos[0] - self._last[0], pos[1] - self._last[1])
                self._last = pos
            return True
        if k == inp.POINTER_DOWN:
            self.pointer = pos
            tool = self.tool_at(pos)
            if tool is not None:
                self._tool_down = True
                if self.enabled(tool.name):
                    self.use(tool.name)
                return True
            if star is None and v.on_board(*pos):
                self.press = self._last = pos
                self.panning = False
                return True
            return False
        if k == inp.POINTER_UP:
            self.pointer = pos
            if self._tool_down:
                self._tool_down = False
                return True
            if self.press is None:
                return False
            was_pan, self.press, self.panning = self.panning, None, False
            if was_pan:
                return True
            # a click on empty space: the scene lets go of a half-drawn line; twice quickly: the whole board
            last = self._last_click
            t, d = DOUBLE_CLICK
            if last is not None and self.time - last[0] <= t and math.dist(last[1], pos) <= d:
                v.fit()
                self._last_click = None
            else:
                self._last_click = (self.time, pos)
            self.clicked_empty = True
            return False
        return False

    def _wheel_pos(self) -> tuple[int, int] | None:
        if self.pointer is not None:
            return self.pointer
        try:
            return pygame.mouse.get_pos() if pygame.mouse.get_focused() else None
        except pygame.error:
            return None

    def _pan_step(self, direction: tuple[int, int]) -> None:
        """Look further in ``direction`` (the board moves the other way)."""
        v = self.view()
        step = PAN_STEP * v.viewport.board_screen_rect[2]
        v.pan_by(-direction[0] * step, -direction[1] * step)

    # -- drawing ---------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, hud: Hud) -> None:
        """The tools, and the hovered one's tip."""
        vp = self.viewport()
        th = hud.theme.hud
        sc = vp.design_scale
        hovered: tuple[Tool, pygame.Rect] | None = None
        for t in self.tools():
            r = pygame.Rect(vp.design_rect_to_screen(t.rect))
            on = t.name == "aid" and self.aid is not None and self.aid[0]()
            enabled = self.enabled(t.name)
            hover = self.pointer is not None and r.collidepoint(self.pointer) and self.press is None
            if hover:
                hovered = (t, r)
            panel = pygame.Surface(r.size, pygame.SRCALPHA)
            rad = max(2, round(7 * sc))
            rgba = th.panel_rgba
            pygame.draw.rect(panel, (*rgba[:3], max(rgba[3], 190)), panel.get_rect(), border_radius=rad)
            border = th.accent if on or (hover and enabled) else th.panel_border
            pygame.draw.rect(panel, (*border, 230), panel.get_rect(), max(1, round(sc)), border_radius=rad)
            surface.blit(panel, r.topleft)
            color = th.accent if on else th.text if enabled else th.text_dim
            _icon(surface, t.name, r, color, sc, on)
        if hovered is not None:
            self._tip(surface, hud, vp, *hovered)

    def _tip(self, surface: pygame.Surface, hud: Hud, vp: Viewport, tool: Tool, r: pygame.Rect) -> None:
        th = hud.theme.hud
        sc = vp.design_scale
        font = hud.font(th.font_sizes.small * sc)
        img = font.render(self.tip(tool.name), True, th.text)
        pad = round(6 * sc)
        box = img.get_rect().inflate(2 * pad, pad)
        area = pygame.Rect(vp.screen_rect)
        tools = self.tools()
        if tools[0].rect[0] != tools[-1].rect[0]:
            box.midbottom = (r.centerx, r.top - round(4 * sc))  # a row: above it
        else:
            box.midright = (r.left - round(6 * sc), r.centery)  # a column: to its left
        box.clamp_ip(area)
        panel = pygame.Surface(box.size, pygame.SRCALPHA)
        rgba = th.panel_rgba
        pygame.draw.rect(panel, (*rgba[:3], max(rgba[3], 220)), panel.get_rect(), border_radius=round(6 * sc))
        pygame.draw.rect(panel, (*th.panel_border, 230), panel.get_rect(), 1, border_radius=round(6 * sc))
        surface.blit(panel, box.topleft)
        surface.blit(img, img.get_rect(center=box.center))


def _icon(surface: pygame.Surface, name: str, r: pygame.Rect, color: tuple[int, int, int], sc: float, on: bool) -> None:
    """Tool icons drawn with lines (the shipped font has no such symbols)."""
    cx, cy = r.center
    h = r.w * 0.26
    w = max(1, round(2 * sc))
    if name in ("in", "out"):
        pygame.draw.line(surface, color, (cx - h, cy), (cx + h, cy), w)
        if name == "in":
            pygame.draw.line(surface, color, (cx, cy - h), (cx, cy + h), w)
    elif name == "fit":  # four corners of a frame
        e = h * 1.15
        c = h * 0.55
        for sx in (-1, 1):
            for sy in (-1, 1):
                x, y = cx + sx * e, cy + sy * e
                pygame.draw.line(surface, color, (x, y), (x - sx * c, y), w)
                pygame.draw.line(surface, color, (x, y), (x, y - sy * c), w)
    elif name == "aid":  # a triangle with one side dashed: "this line would close it"
        p = [(cx, cy - h * 1.1), (cx - h * 1.2, cy + h * 0.9), (cx + h * 1.2, cy + h * 0.9)]
        if on:
            tri = pygame.Surface(r.size, pygame.SRCALPHA)
            pygame.draw.polygon(tri, (*color, 90), [(x - r.x, y - r.y) for x, y in p])
            surface.blit(tri, r.topleft)
        pygame.draw.line(surface, color, p[0], p[1], w)
        pygame.draw.line(surface, color, p[0], p[2], w)
        n = 4
        for k in range(0, n, 2):  # the open side, dashed
            t0, t1 = k / n, (k + 1) / n
            a = (p[1][0] + (p[2][0] - p[1][0]) * t0, p[1][1])
            b = (p[1][0] + (p[2][0] - p[1][0]) * t1, p[1][1])
            pygame.draw.line(surface, color, a, b, w)
