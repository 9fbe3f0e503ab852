"""How to play: the rules' own examples as small animated diagrams.

Why diagrams played by the engine: the six examples come from
:mod:`triangles.tutorial`, which plays each script through a real ``Game``;
this screen only draws the frames it returns (lines, refusals with the
engine's reason, triangles the engine scored, scores, whose turn), so what it
teaches cannot disagree with the rules.  It keeps no reference to the match in
progress and never touches it.

Each diagram steps forward and back (Left/Right, the ‹ › buttons, a click on
the diagram), replays (R, Space, Enter, the Replay button) and changes example
(Up/Down, PageUp/PageDown, Tab, the numbered tabs).  Opening an example plays
it through once on its own; any manual step stops that.  With animations off
(``app.settings.animations``, read defensively) every step shows its end state
at once and nothing plays by itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from triangles.i18n import tr, trn
from triangles.tutorial import EXAMPLES, Example, Frame, play_example
from triangles.ui import input as inp
from triangles.ui.hud import Hud
from triangles.ui.input import Action
from triangles.ui.render.primitives import Scratch, dashed_line, fill_triangle, glow_line
from triangles.ui.render.sprites import lighten, mix, ring_sprite, scaled, star_sprite
from triangles.ui.render.theme import Color
from triangles.ui.scenes.base import Overlay, Rect

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["HowToPlayScene", "wrap"]

#: seconds a drawn line takes to grow from its first star to its second
LINE_TIME = 0.55
#: seconds a closed triangle takes to fill in (the score ticks meanwhile)
FILL_TIME = 0.6
#: seconds a refused line flashes
REFUSE_TIME = 1.1
#: seconds the self-playing example waits after a step has finished
AUTO_PAUSE = 1.5

PLAYER_KEYS = ("player.one", "player.two")

Point = tuple[float, float]


def wrap(font: pygame.font.Font, text: str, width: float) -> list[str]:
    """Word-wrap ``text`` to lines no wider than ``width`` pixels (a word too long alone is cut by letters)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = word if not line else line + " " + word
            if font.size(trial)[0] <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            line = ""
            while font.size(word)[0] > width and len(word) > 1:
                k = len(word) - 1
                while k > 1 and font.size(word[:k])[0] > width:
                    k -= 1
                lines.append(word[:k])
                word = word[k:]
            line = word
        lines.append(line)
    return lines


@dataclass(frozen=True)
class _Layout:
    """Where everything goes, in design points (computed per window size and language)."""

    panel: Rect
    title: Rect
    tabs: Rect
    heading: Rect  # the example's title and caption
    diagram: Rect
    chips: Rect
    step: Rect
    text: Rect
    keys: Rect | None  # the keyboard hint (tablet only: there is room)
    controls: Rect  # ‹ Replay ›
    back: Rect
    sizes: tuple[float, float, float, float, float]  # heading, caption, step, text, keys font sizes
    step_card: bool = False  # the step description sits on its own card (beside the diagram)


class HowToPlayScene(Overlay):
    dim_alpha = 150

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.examples: tuple[Example, ...] = EXAMPLES
        #: every example played once through the rules engine
        self.frames: list[list[Frame]] = [play_example(ex) for ex in EXAMPLES]
        self.example = 0
        self.step = 0
        self.t = 0.0  # seconds since the current step began
        self.autoplay = True
        self.hud = Hud(app.theme)
        self._layouts: dict[int, _Layout] = {}  # per example, for this window size and language
        self._built = False
        self._scratch: Scratch | None = None
        self._sprites: dict[tuple[str, float], tuple[pygame.Surface, int]] = {}
        self._tab_buttons: list[pygame_gui.elements.UIButton] = []
        self._chevrons: list[tuple[pygame_gui.elements.UIButton, int]] = []
        self._select(0)

    # -- state ----------------------------------------------------------------------

    @property
    def animations(self) -> bool:
        """The reduced-motion setting, read defensively (Settings may not exist yet)."""
        settings = getattr(self.app, "settings", None)
        if settings is None:
            return True
        if isinstance(settings, Mapping):
            value = settings.get("animations", True)
        else:
            value = getattr(settings, "animations", True)
        return value is not False

    @property
    def current(self) -> Example:
        return self.examples[self.example]

    @property
    def frame(self) -> Frame:
        return self.frames[self.example][self.step]

    @property
    def last_step(self) -> int:
        return len(self.frames[self.example]) - 1

    def _select(self, n: int) -> None:
        """Show example ``n`` from its empty board (it then plays by itself, motion allowed)."""
        self.example = n % len(self.examples)
        self.step = 0
        self.t = 0.0
        self.autoplay = self.animations
        self._sync_widgets()

    def _go(self, k: int, animate: bool) -> None:
        self.step = max(0, min(self.last_step, k))
        self.t = 0.0 if animate else 1e9

    def next_step(self) -> None:
        self.autoplay = False
        if self.step < self.last_step:
            self._go(self.step + 1, animate=True)
        else:
            self.t = 1e9  # finish the last step's animation at once

    def prev_step(self) -> None:
        self.autoplay = False
        self._go(self.step - 1, animate=False)

    def replay(self) -> None:
        self._go(0, animate=True)
        self.autoplay = self.animations

    def next_example(self) -> None:
        self._select(self.example + 1)

    def prev_example(self) -> None:
        self._select(self.example - 1)

    def close(self) -> None:
        self.app.nav.close(self)

    def step_time(self, frame: Frame) -> float:
        """How long the step into ``frame`` animates."""
        if frame.move is None:
            return 0.0
        if frame.refused is not None:
            return REFUSE_TIME
        return LINE_TIME + (FILL_TIME if frame.closed or frame.unscored else 0.0)

    def _phase(self) -> float:
        """Seconds into the current step's animation (its end once animations are off)."""
        return self.t if self.animations else 1e9

    # -- input ----------------------------------------------------------------------

    def handle_action(self, a: Action) -> None:
        k = a.kind
        if k == inp.CANCEL:
            self.close()
        elif k == inp.NAV and a.pos is not None:
            dx, dy = a.pos
            if dx > 0:
                self.next_step()
            elif dx < 0:
                self.prev_step()
            elif dy > 0:
                self.next_example()
            elif dy < 0:
                self.prev_example()
        elif k in (inp.NEXT, inp.REDO):
            self.next_example() if k == inp.NEXT else self.next_step()
        elif k in (inp.PREV, inp.UNDO):
            self.prev_example() if k == inp.PREV else self.prev_step()
        elif k == inp.FIRST:
            self.autoplay = False
            self._go(0, animate=False)
        elif k == inp.LAST:
            self.autoplay = False
            self._go(self.last_step, animate=False)
        elif k == inp.CONFIRM:
            self.replay()
        elif k == inp.KEY and a.event is not None:
            key = a.event.key
            if key == pygame.K_TAB:
                shift = bool(getattr(a.event, "mod", 0) & pygame.KMOD_SHIFT)
                self.prev_example() if shift else self.next_example()
            elif key == pygame.K_r:
                self.replay()
        elif k == inp.POINTER_DOWN and a.pos is not None and self._built:
            if self.rect(*self.layout.diagram).collidepoint(a.pos):
                self.next_step()

    # -- widgets ----------------------------------------------------------------------

    def build_ui(self) -> None:
        self._layouts.clear()  # a new size or language: measure the texts again
        self._built = True
        lay = self.layout
        self.label(lay.title, tr("howto.title"), cls="@heading", obj="#howto_title")
        x, y, w, h = lay.tabs
        n = len(self.examples)
        gap = 8.0
        bw = (w - gap * (n - 1)) / n
        self._tab_buttons = []
        for k in range(n):
            b = self.button(
                (x + k * (bw + gap), y, bw, h), str(k + 1), self._tab_press(k), cls="@choice", obj=f"#example{k + 1}"
            )
            self._tab_buttons.append(b)
        x, y, w, h = lay.controls
        sw = min(64.0, w * 0.22)
        # the arrows are drawn over these two (the font's ‹ › are too small to aim at)
        self._chevrons = [
            (self.button((x, y, sw, h), "", self.prev_step, obj="#step_prev"), -1),
            (self.button((x + w - sw, y, sw, h), "", self.next_step, obj="#step_next"), 1),
        ]
        self.button((x + sw + 8, y, w - 2 * sw - 16, h), tr("howto.replay"), self.replay, obj="#replay")
        self.button(lay.back, tr("button.back"), self.close, cls="@primary", obj="#back")
        self._sync_widgets()

    def _tab_press(self, k: int) -> Callable[[], None]:
        def press() -> None:
            self._select(k)

        return press

    def _sync_widgets(self) -> None:
        for k, b in enumerate(getattr(self, "_tab_buttons", [])):
            if k == self.example:
                b.select()
            else:
                b.unselect()

    def clear_ui(self) -> None:
        super().clear_ui()
        self._tab_buttons = []
        self._chevrons = []
        self._built = False

    def on_viewport(self) -> None:
        self._scratch = None
        self._sprites.clear()

    # -- layout -----------------------------------------------------------------------

    def _font(self, size: float, bold: bool = False) -> pygame.font.Font:
        return self.hud.font(size * self.app.viewport.scale, bold)

    def _text_height(self, text: str, size: float, width: float, bold: bool = False) -> float:
        """Height in design points of ``text`` wrapped to ``width`` design points."""
        sc = self.app.viewport.scale
        font = self._font(size, bold)
        return len(wrap(font, text, width * sc)) * font.get_linesize() / sc

    def _heading_height(self, width: float, sizes: tuple[float, ...]) -> float:
        ex = self.current
        return (
            self._text_height(tr(ex.title), sizes[0], width, True)
            + 4
            + self._text_height(tr(ex.caption), sizes[1], width)
        )

    def _step_height(self, width: float, size: float) -> float:
        """The tallest step description of this example (so the diagram never moves while it plays)."""
        best = 0.0
        for fr in self.frames[self.example]:
            h = sum(self._text_height(t, size, width, bold) for t, _, bold in self.describe(self.current, fr))
            best = max(best, h)
        return best

    @property
    def layout(self) -> _Layout:
        """The current example's layout (its texts decide how much room the diagram gets)."""
        lay = self._layouts.get(self.example)
        if lay is None:
            lay = self._layouts[self.example] = self._make_layout()
        return lay

    def _make_layout(self) -> _Layout:
        dw, dh = self.design_size
        if dw > dh:
            return self._landscape(dw, dh)
        return self._portrait(dw, dh)

    def _portrait(self, dw: float, dh: float) -> _Layout:
        pad = 14.0
        panel = (6.0, 6.0, dw - 12, dh - 12)
        w = dw - 2 * pad - 8
        x = pad + 4
        sizes = (19.0, 15.5, 15.0, 14.5, 13.0)
        title = (0.0, 14.0, dw, 40.0)
        tabs = (x, 60.0, w, 38.0)
        bh = 46.0
        by = dh - pad - 6 - bh
        back_w = max(
            96.0, min(140.0, self._font(21, bold=True).size(tr("button.back"))[0] / self.app.viewport.scale + 32)
        )
        back = (x, by, back_w, bh)
        controls = (x + back_w + 10, by, w - back_w - 10, bh)
        top = 110.0
        head_h = self._heading_height(w, sizes)
        step_h = self._step_height(w, sizes[2])
        text_h = self._text_height(tr(self.current.text), sizes[3], w)
        chips_h = 32.0
        bottom = by - 10
        room = bottom - top - head_h - 8 - 8 - chips_h - 6 - step_h - 14 - text_h
        diag_h = max(140.0, min(room, w * 0.95))
        top += max(0.0, room - diag_h) / 2  # short texts: the block sits in the middle, no gap at one end
        heading = (x, top, w, head_h)
        y = top + head_h + 8
        diagram = (x, y, w, diag_h)
        y += diag_h + 8
        chips = (x, y, w, chips_h)
        y += chips_h + 6
        step = (x, y, w, step_h)
        y += step_h + 14
        text = (x, y, w, text_h)
        return _Layout(panel, title, tabs, heading, diagram, chips, step, text, None, controls, back, sizes)

    def _landscape(self, dw: float, dh: float) -> _Layout:
        """Text on the left (rule, explanation, what the last step did), the diagram on the right."""
        pad = 28.0
        panel = (12.0, 12.0, dw - 24, dh - 24)
        sizes = (27.0, 20.0, 18.0, 18.0, 14.0)
        title = (0.0, 24.0, dw, 50.0)
        n = len(self.examples)
        tw = n * 60.0 + (n - 1) * 8
        tabs = ((dw - tw) / 2, 84.0, tw, 40.0)
        top = 146.0
        bh = 50.0
        by = dh - pad - 10 - bh
        col_w = dw * 0.40
        lx = pad + 24
        rx = lx + col_w + 40
        rw = dw - rx - pad - 24
        head_h = self._heading_height(col_w, sizes)
        heading = (lx, top, col_w, head_h)
        keys_h = self._text_height(tr("howto.keys"), sizes[4], col_w)
        keys = (lx, by - keys_h - 12, col_w, keys_h)
        step_h = self._step_height(col_w - 32, sizes[2])
        step = (lx + 16, keys[1] - 18 - 14 - step_h, col_w - 32, step_h)
        text = (lx, top + head_h + 18, col_w, max(0.0, step[1] - 14 - 12 - (top + head_h + 18)))
        back = (lx, by, 180.0, bh)
        chips_h = 40.0
        diag_h = by - 14 - chips_h - 10 - top
        diagram = (rx, top, rw, diag_h)
        chips = (rx, top + diag_h + 10, rw, chips_h)
        cw = min(rw, 380.0)
        controls = (rx + (rw - cw) / 2, by, cw, bh)
        return _Layout(panel, title, tabs, heading, diagram, chips, step, text, keys, controls, back, sizes, True)

    # -- words ------------------------------------------------------------------------

    def _line_name(self, ex: Example, move: tuple[int, int]) -> str:
        return f"{ex.labels[move[0]]}–{ex.labels[move[1]]}"

    def _tri_name(self, ex: Example, tri: tuple[int, ...]) -> str:
        return "".join(ex.labels[k] for k in tri)

    def describe(self, ex: Example, fr: Frame) -> list[tuple[str, Color, bool]]:
        """The step's description: (text, colour, bold) lines, all from the engine's verdicts."""
        th = self.app.theme
        hud = th.hud
        out: list[tuple[str, Color, bool]] = []
        if fr.move is None or fr.player is None:
            out.append((tr("howto.step.start", player=tr(PLAYER_KEYS[fr.to_move])), hud.text, True))
            return out
        who = tr(PLAYER_KEYS[fr.player])
        pc = lighten(th.player_colors[fr.player], 0.35)
        line = self._line_name(ex, fr.move)
        if fr.refused is not None:
            out.append((tr("howto.step.tries", player=who, line=line), pc, True))
            out.append((tr("howto.step.refused", reason=tr("reason." + fr.refused)), th.band.bad, True))
            out.append((tr("howto.step.turn", player=tr(PLAYER_KEYS[fr.to_move])), hud.text_dim, False))
            return out
        out.append((tr("howto.step.draws", n=fr.move_number, player=who, line=line), pc, True))
        for tri, inside in zip(fr.unscored, fr.inside, strict=True):
            star = ", ".join(ex.labels[k] for k in inside)
            out.append((tr("howto.step.no_point", tri=self._tri_name(ex, tri), star=star), hud.text, False))
        if fr.closed:
            names = ", ".join(self._tri_name(ex, t) for t in fr.closed)
            out.append((trn("howto.step.scores", len(fr.closed), tri=names), hud.accent, True))
        if fr.over:
            out.append((tr("howto.step.over"), hud.text, False))
            if fr.winner is None:
                out.append((tr("final.draw"), hud.accent, True))
            else:
                result = tr("final.wins", name=tr(PLAYER_KEYS[fr.winner]))
                out.append((result, lighten(th.player_colors[fr.winner], 0.35), True))
        elif fr.moves_again:
            out.append((tr("howto.step.again", player=who), hud.accent, True))
        else:
            out.append((tr("howto.step.turn", player=tr(PLAYER_KEYS[fr.to_move])), hud.text_dim, False))
        return out

    # -- frame ------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        super().update(dt)
        self.hud.update(dt)
        self.t += dt
        if self.autoplay:
            if not self.animations:
                self.autoplay = False
            elif self.t >= self.step_time(self.frame) + AUTO_PAUSE:
                if self.step < self.last_step:
                    self._go(self.step + 1, animate=True)
                else:
                    self.autoplay = False

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if not self._built:
            return
        lay = self.layout
        self._card(surface, self.rect(*lay.panel), 18, alpha=1.0)
        heading_end = self._draw_heading(surface, lay)
        self._draw_diagram(surface, lay)
        self._draw_chips(surface, lay)
        self._draw_step(surface, lay)
        self._draw_explanation(surface, lay, heading_end)
        if lay.keys is not None:
            self._draw_text(surface, lay.keys, tr("howto.keys"), lay.sizes[4], self.app.theme.hud.text_dim)

    def draw_front(self, surface: pygame.Surface) -> None:
        """Chevrons on the step buttons (dimmed where there is no step to go to)."""
        sc = self.app.viewport.scale
        hud = self.app.theme.hud
        for b, side in self._chevrons:
            r = b.rect
            can = self.step > 0 if side < 0 else self.step < self.last_step
            col = hud.text if can else hud.text_dim
            q = r.h * 0.16
            cx, cy = r.centerx - side * q * 0.35, r.centery
            pts = [(cx - side * q, cy - 1.7 * q), (cx + side * q, cy), (cx - side * q, cy + 1.7 * q)]
            pygame.draw.lines(surface, col, False, pts, max(2, round(3 * sc)))

    def _card(self, surface: pygame.Surface, r: pygame.Rect, radius: float, alpha: float = 0.75) -> None:
        hud = self.app.theme.hud
        sc = self.app.viewport.scale
        s = pygame.Surface(r.size, pygame.SRCALPHA)
        pygame.draw.rect(s, (*hud.panel, round(255 * alpha)), s.get_rect(), border_radius=round(radius * sc))
        pygame.draw.rect(s, (*hud.panel_border, 220), s.get_rect(), max(1, round(sc)), border_radius=round(radius * sc))
        surface.blit(s, r.topleft)

    def _draw_text(
        self, surface: pygame.Surface, rect: Rect, text: str, size: float, color: Color, bold: bool = False
    ) -> float:
        """Wrapped text from the top of ``rect``; returns the height used (design points)."""
        sc = self.app.viewport.scale
        font = self._font(size, bold)
        x, y = self.app.viewport.design_to_screen(rect[0], rect[1])
        lines = wrap(font, text, rect[2] * sc)
        for ln in lines:
            surface.blit(font.render(ln, True, color), (round(x), round(y)))
            y += font.get_linesize()
        return len(lines) * font.get_linesize() / sc

    def _draw_heading(self, surface: pygame.Surface, lay: _Layout) -> float:
        """The example's title and caption; returns where they end (design points)."""
        hud = self.app.theme.hud
        x, y, w, _ = lay.heading
        h = self._draw_text(surface, (x, y, w, 0), tr(self.current.title), lay.sizes[0], hud.accent, bold=True)
        h += 4 + self._draw_text(surface, (x, y + h + 4, w, 0), tr(self.current.caption), lay.sizes[1], hud.text)
        return y + h

    def _draw_explanation(self, surface: pygame.Surface, lay: _Layout, heading_end: float) -> None:
        """The rule in words: under the caption beside the diagram, or under a thin rule line on the phone."""
        hud = self.app.theme.hud
        x, y, w, h = lay.text
        if lay.step_card:
            y = heading_end + 18
        else:
            a = self.app.viewport.design_to_screen(x, y - 6)
            b = self.app.viewport.design_to_screen(x + w, y - 6)
            pygame.draw.line(surface, hud.panel_border, a, b, max(1, round(self.app.viewport.scale)))
        self._draw_text(surface, (x, y, w, h), tr(self.current.text), lay.sizes[3], hud.text)

    def _draw_step(self, surface: pygame.Surface, lay: _Layout) -> None:
        fr = self.frame
        x, y, w, h = lay.step
        if lay.step_card:
            self._card(surface, self.rect(x - 16, y - 14, w + 32, h + 28), 14, alpha=0.6)
        lines = self.describe(self.current, fr)
        # the outcome appears once the line has been drawn (or refused)
        shown = lines if self._phase() >= min(LINE_TIME, self.step_time(fr)) * 0.8 else lines[:1]
        for text, color, bold in shown:
            y += self._draw_text(surface, (x, y, w, 0), text, lay.sizes[2], color, bold)

    # -- the diagram ----------------------------------------------------------------

    def _fit(self, rect: pygame.Rect) -> tuple[float, float, float, float, float]:
        """Scale and offset that fit the example's stars in ``rect`` (pixels), with room for labels."""
        xs = [p[0] for p in self.current.stars]
        ys = [p[1] for p in self.current.stars]
        sc = self.app.viewport.scale
        margin = 42 * sc
        bw, bh = max(xs) - min(xs), max(ys) - min(ys)
        k = min((rect.w - 2 * margin) / max(bw, 1e-6), (rect.h - 2 * margin) / max(bh, 1e-6))
        ox = rect.centerx - (min(xs) + bw / 2) * k
        oy = rect.centery - (min(ys) + bh / 2) * k
        return k, ox, oy, min(xs), min(ys)

    def _sprite(self, name: str, make: Callable[[], tuple[pygame.Surface, int]]) -> tuple[pygame.Surface, int]:
        """A star or ring sprite for the current scale (made once: numpy renders them)."""
        key = (name, self.app.viewport.scale)
        spr = self._sprites.get(key)
        if spr is None:
            spr = self._sprites[key] = make()
        return spr

    def _draw_diagram(self, surface: pygame.Surface, lay: _Layout) -> None:
        th = self.app.theme
        sc = self.app.viewport.scale
        rect = self.rect(*lay.diagram)
        self._card(surface, rect, 16, alpha=0.85)
        if self._scratch is None or self._scratch.size != surface.get_size():
            self._scratch = Scratch(surface.get_size(), surface)
        scratch = self._scratch
        ex, fr = self.current, self.frame
        k, ox, oy, _, _ = self._fit(rect)
        pts = [(ox + x * k, oy + y * k) for x, y in ex.stars]
        phase = self._phase()
        line_p = 1.0 if fr.move is None else min(1.0, phase / LINE_TIME)
        fill_p = 0.0 if phase < LINE_TIME else min(1.0, (phase - LINE_TIME) / FILL_TIME)
        ease = 1 - (1 - fill_p) ** 3
        # triangles: the earlier ones, then this step's filling in
        new = set(fr.closed)
        for tri, owner in fr.triangles:
            alpha = th.triangles.fill_alpha * (ease if tri in new else 1.0)
            if alpha > 0:
                fill_triangle(
                    surface, scratch, [pts[i] for i in tri], th.player_colors[owner], alpha, th.triangles.center_lighten
                )
        # a completed triangle that scores nothing: a faint grey veil that pulses while it appears
        if fr.unscored and fill_p > 0:
            pulse = 0.6 + 0.4 * math.cos(phase * 9.0) if fill_p < 1 else 1.0
            for tri in fr.unscored:
                fill_triangle(surface, scratch, [pts[i] for i in tri], th.hud.text_dim, 0.16 * pulse * ease)
        # lines: all drawn ones; this step's grows from its first star
        width = th.lines.width * sc * 1.15
        for (i, j), owner in fr.lines:
            a, b = pts[i], pts[j]
            if fr.move is not None and fr.refused is None and {i, j} == set(fr.move):
                a, b = pts[fr.move[0]], pts[fr.move[1]]
                b = (a[0] + (b[0] - a[0]) * line_p, a[1] + (b[1] - a[1]) * line_p)
                glow_line(
                    surface,
                    scratch,
                    a,
                    b,
                    lighten(th.player_colors[owner], 0.2),
                    width * 1.15,
                    th.lines.glow_width * sc * 1.6,
                    th.lines.glow_alpha * 1.6,
                    th.lines.core_lighten,
                )
                continue
            glow_line(
                surface,
                scratch,
                a,
                b,
                th.player_colors[owner],
                width,
                th.lines.glow_width * sc,
                th.lines.glow_alpha,
                th.lines.core_lighten,
            )
        # a refused line: dashed red, flashing at first, with a cross at its middle
        if fr.move is not None and fr.refused is not None:
            a, b = pts[fr.move[0]], pts[fr.move[1]]
            flash = 1.0 if phase >= REFUSE_TIME else (0.35 + 0.65 * (0.5 + 0.5 * math.cos(phase * 14.0)))
            col = scaled(th.band.bad, flash)
            dashed_line(surface, col, a, b, th.band.width * sc * 1.3, th.band.dash * sc, th.band.gap * sc)
            self._refusal_badge(surface, pts, fr, col)
        # stars and their letters
        spr, half = self._sprite("star", lambda: star_sprite(th.stars, th.stars.tints[0], sc * 1.35))
        label_font = self._font(16, bold=True)
        for n, p in enumerate(pts):
            surface.blit(spr, (round(p[0]) - half, round(p[1]) - half), special_flags=pygame.BLEND_RGB_ADD)
            if fr.move is not None and fr.refused is None and fill_p > 0:
                for inside in fr.inside:
                    if n in inside:
                        ring, rh = self._sprite("ring", lambda: ring_sprite(th.band.bad, 11 * sc, 2.2 * sc, sc))
                        surface.blit(ring, (round(p[0]) - rh, round(p[1]) - rh), special_flags=pygame.BLEND_RGB_ADD)
            img = label_font.render(ex.labels[n], True, mix(th.hud.text, th.stars.color, 0.5))
            lx, ly = self._label_pos(n, pts, 17 * sc)
            at = img.get_rect(center=(round(lx), round(ly)))
            back = pygame.Surface(at.inflate(round(8 * sc), round(2 * sc)).size, pygame.SRCALPHA)
            pygame.draw.rect(back, (*th.hud.panel, 170), back.get_rect(), border_radius=back.get_height() // 2)
            surface.blit(back, back.get_rect(center=at.center))
            surface.blit(img, at)
        self._draw_dots(surface, rect)

    def _refusal_badge(self, surface: pygame.Surface, pts: list[Point], fr: Frame, col: Color) -> None:
        """A red disc with a white cross where the refused line fails: the crossing, or the star in the way."""
        sc = self.app.viewport.scale
        assert fr.move is not None
        a, b = pts[fr.move[0]], pts[fr.move[1]]
        at = (a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3)
        if fr.refused == "crosses":
            for (i, j), _ in fr.lines:
                hit = _intersection(a, b, pts[i], pts[j])
                if hit is not None:
                    at = hit
                    break
        elif fr.refused == "through_star":
            others = [m for m in range(len(pts)) if m not in fr.move]
            near = min(others, key=lambda m: _seg_dist(pts[m], a, b), default=None)
            if near is not None:
                ring, rh = self._sprite("ring", lambda: ring_sprite(self.app.theme.band.bad, 11 * sc, 2.2 * sc, sc))
                p = pts[near]
                surface.blit(ring, (round(p[0]) - rh, round(p[1]) - rh), special_flags=pygame.BLEND_RGB_ADD)
        r = max(6, round(9 * sc))
        c = (round(at[0]), round(at[1]))
        pygame.draw.circle(surface, col, c, r)
        q = r * 0.45
        w = max(2, round(2.2 * sc))
        pygame.draw.line(surface, (255, 255, 255), (c[0] - q, c[1] - q), (c[0] + q, c[1] + q), w)
        pygame.draw.line(surface, (255, 255, 255), (c[0] - q, c[1] + q), (c[0] + q, c[1] - q), w)

    def _label_pos(self, n: int, pts: list[Point], dist: float) -> Point:
        """Where star ``n``'s letter goes: the side farthest from every line of the example and other stars."""
        segs = self._all_segments(pts)
        best, best_d = pts[n], -1.0
        x0, y0 = pts[n]
        for q in range(8):
            ang = math.pi / 4 * q - math.pi / 2
            c = (x0 + math.cos(ang) * dist, y0 + math.sin(ang) * dist)
            d = min((_seg_dist(c, a, b) for a, b in segs), default=1e9)
            d = min([d] + [math.dist(c, p) for m, p in enumerate(pts) if m != n])
            if d > best_d + 0.5:
                best, best_d = c, d
        return best

    def _all_segments(self, pts: list[Point]) -> list[tuple[Point, Point]]:
        """Every line the example draws or tries (so labels stay put while it plays)."""
        out = []
        for step in self.current.steps:
            i, j = step.move
            out.append((pts[i], pts[j]))
        return out

    def _draw_dots(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Which step this is: one dot per frame, the current one bright."""
        sc = self.app.viewport.scale
        hud = self.app.theme.hud
        n = self.last_step + 1
        gap = 14 * sc
        x = rect.centerx - gap * (n - 1) / 2
        y = rect.bottom - 12 * sc
        for q in range(n):
            on = q == self.step
            r = max(2, round((3.6 if on else 2.6) * sc))
            pygame.draw.circle(
                surface, hud.accent if on else mix(hud.text_dim, hud.panel, 0.3), (round(x), round(y)), r
            )
            x += gap

    def _draw_chips(self, surface: pygame.Surface, lay: _Layout) -> None:
        """Both players' scores (ticking up as a triangle fills) and whose turn it is."""
        th = self.app.theme
        hud = th.hud
        sc = self.app.viewport.scale
        fr = self.frame
        prev = self.frames[self.example][self.step - 1] if self.step > 0 else fr
        phase = self._phase()
        fill_p = 0.0 if phase < LINE_TIME else min(1.0, (phase - LINE_TIME) / FILL_TIME)
        x, y, w, h = lay.chips
        gap = 10.0
        cw = (w - gap) / 2
        font = self._font(lay.sizes[2])
        for p in (0, 1):
            r = self.rect(x + p * (cw + gap), y, cw, h)
            color = th.player_colors[p]
            active = not fr.over and (
                fr.to_move == p if phase >= LINE_TIME * 0.8 or fr.move is None else prev.to_move == p
            )
            s = pygame.Surface(r.size, pygame.SRCALPHA)
            rad = r.h // 2
            pygame.draw.rect(s, (*hud.panel, 200), s.get_rect(), border_radius=rad)
            border = color if active else hud.panel_border
            pygame.draw.rect(
                s, (*border, 235), s.get_rect(), max(1, round((2 if active else 1) * sc)), border_radius=rad
            )
            surface.blit(s, r.topleft)
            cr = max(3, round(6 * sc))
            cx, cy = r.x + rad, r.centery
            pygame.draw.circle(surface, color, (cx, cy), cr)
            before, after = prev.scores[p], fr.scores[p]
            score = before + round((after - before) * fill_p) if after != before else after
            pop = 1.0 + (0.45 * math.sin(math.pi * fill_p) if after != before and 0 < fill_p < 1 else 0.0)
            sfont = self._font(lay.sizes[2] * 1.25 * pop, bold=True)
            simg = sfont.render(str(score), True, lighten(color, 0.25))
            surface.blit(simg, simg.get_rect(midright=(r.right - rad + round(4 * sc), cy)))
            name = self.hud.fit(
                font,
                tr(PLAYER_KEYS[p]),
                r.w - 2 * rad - simg.get_width() - 12 * sc,
                hud.text if active else hud.text_dim,
            )
            surface.blit(name, name.get_rect(midleft=(cx + cr + round(8 * sc), cy)))


def _intersection(a: Point, b: Point, c: Point, d: Point) -> Point | None:
    """Where the segments a-b and c-d cross strictly inside both (for the refusal badge), else None."""
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    den = r[0] * s[1] - r[1] * s[0]
    if abs(den) < 1e-9:
        return None
    t = ((c[0] - a[0]) * s[1] - (c[1] - a[1]) * s[0]) / den
    u = ((c[0] - a[0]) * r[1] - (c[1] - a[1]) * r[0]) / den
    if 0 < t < 1 and 0 < u < 1:
        return a[0] + t * r[0], a[1] + t * r[1]
    return None


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment a-b (for placing star labels)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))
