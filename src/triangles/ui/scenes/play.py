"""The game itself: the board, the HUD, aiming lines, the computer's turns.

Why everything funnels into :meth:`PlayScene.play`: clicks, drags, the
keyboard, the computer and redo all end up as ``(i, j)``; one function calls
``Match.play`` (and so ``Game.play``), starts the flash, saves the game and
shows the final screen as soon as the game is over.  An illegal line never
reaches it: :meth:`attempt` asks ``why_illegal`` first and shows the reason.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import numpy as np
import pygame
import pygame_gui

from triangles import warmup
from triangles.i18n import tr, trn
from triangles.match import Match
from triangles.players import DEFAULT_LEVEL
from triangles.rules import Game, IllegalMove, Triangle
from triangles.saves import save_session
from triangles.settings import seat_names
from triangles.ui import input as inp
from triangles.ui.demo import SPEEDS, DemoPace
from triangles.ui.flashes import Flashes
from triangles.ui.hud import Hud, HudInfo, HudLayout, hud_layout
from triangles.ui.input import Action
from triangles.ui.render import BoardView, Overlay
from triangles.ui.scenes.base import Scene
from triangles.ui.zoom import BoardZoom

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["PlayScene", "reason_text"]


def reason_text(why: str) -> str:
    """How a refused line is explained on screen (``why``: a ``rules.REASONS`` entry or ``game_over``)."""
    return tr(f"reason.{why}")


_POINTER = (inp.POINTER_DOWN, inp.POINTER_UP, inp.POINTER_MOVE)


def closing_lines(game: Game) -> list[tuple[int, int, int]]:
    """The legal lines ``(i, j, count)`` that would close ``count`` triangles if drawn now.

    A line closes a cell (an empty triangle with clear sides: ``board.cells``)
    when the cell's other two sides are drawn; those candidates are few, and
    ``Game.closes`` (the engine's own count) confirms each one.
    """
    if game.is_over():
        return []
    board = game.board
    cells = board.cells
    if len(cells) == 0:
        return []
    pid = board.arrays.pid
    a, b, c = cells[:, 0], cells[:, 1], cells[:, 2]
    sides = np.stack([pid[b, c], pid[a, c], pid[a, b]], axis=1)  # side k is opposite corner k
    drawn = game.line_owner[sides] >= 0
    two = np.flatnonzero(drawn.sum(axis=1) == 2)
    legal = game.legal_mask()
    out: dict[tuple[int, int], int] = {}
    for cell in two:
        k = int(np.flatnonzero(~drawn[cell])[0])
        p = int(sides[cell, k])
        if legal[p]:
            move = board.pair(p)
            if move not in out:
                out[move] = game.closes(*move)
    return sorted((i, j, n) for (i, j), n in out.items() if n > 0)


class PlayScene(Scene):
    def __init__(self, app: App, match: Match) -> None:
        super().__init__(app)
        self.match = match
        theme = app.theme.seated(match.colors_swapped)  # colours follow the person, not the seat
        self.view = BoardView(match.board, theme, app.viewport, bg_seed=int(match.seed or 0) % 100_000)
        self.hud = Hud(theme)
        self.selected: int | None = None
        self.hover: int | None = None
        self.press_star: int | None = None
        self.dragging = False
        self.pointer: tuple[int, int] | None = None
        self.flashes = Flashes(app.theme.flash.duration, animated=lambda: app.animations)
        self.msg: tuple[str, str, float] | None = None  # text, kind, seconds left
        self.moves_again: int | None = None  # player who scored and moves again
        self.ai_asked: int | None = None  # token the computer was asked about
        self.ai_delay = 0.0
        self.ai_failed: int | None = None
        self.hint_move: tuple[int, int] | None = None
        self.hint_token: int | None = None
        self.time = 0.0
        self.final_shown = False
        self._buttons_state: tuple[bool, ...] | None = None
        self._state_buttons: tuple[pygame_gui.elements.UIButton, ...] = ()  # undo, redo, hint
        self._hand = False
        #: zoom and pan (UI state, never in the game or its undo) and the closing-lines aid
        self.zoom = BoardZoom(lambda: self.view, lambda: self.app.viewport, aid=(lambda: self.aid_on, self.toggle_aid))
        self._closing: tuple[int, list[tuple[int, int, int]]] | None = None  # (position token, lines)
        #: a demo (the computer against itself): its speed and pause; None in any other game
        self.demo = DemoPace(app.config.demo_pauses) if match.mode == "demo" else None

    # -- widgets -------------------------------------------------------------------

    @property
    def layout(self) -> HudLayout:
        return hud_layout(self.app.viewport.design_size, self.app.viewport.board_rect)

    def build_ui(self) -> None:
        x, y, w, h = self.layout.buttons
        names = [
            ("hud.menu", self.open_menu, "#menu"),
            ("hud.undo", self.undo, "#undo"),
            ("hud.redo", self.redo, "#redo"),
            ("hud.hint", self.ask_hint, "#hint"),
        ]
        if self.demo is not None:  # nothing to undo or hint: the demo's pause and speed instead
            names[1:] = [
                ("hud.demo.pause", self.toggle_demo, "#demo_pause"),
                ("hud.demo.slower", self.demo_slower, "#demo_slower"),
                ("hud.demo.faster", self.demo_faster, "#demo_faster"),
            ]
        gap = 8.0
        bw = (w - gap * (len(names) - 1)) / len(names)
        made = [
            self.button((x + k * (bw + gap), y, bw, h), tr(key), cb, cls="@hud_button", obj=obj)
            for k, (key, cb, obj) in enumerate(names)
        ]
        self._state_buttons = tuple(made[1:])
        self._buttons_state = None
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        if not self._state_buttons:
            return
        m = self.match
        human_turn = not m.game.is_over() and not m.computer_to_move
        state: tuple[bool, ...] = (m.can_undo(), m.can_redo(), human_turn and self.app.hint_worker.pending is None)
        demo = self.demo
        if demo is not None:
            state = (not m.game.is_over(), demo.can_slow_down(), demo.can_speed_up(), demo.paused)
        if state == self._buttons_state:
            return
        self._buttons_state = state
        if demo is not None:
            self._state_buttons[0].set_text(tr("hud.demo.resume" if demo.paused else "hud.demo.pause"))
        for btn, on in zip(self._state_buttons, state[:3], strict=True):
            if on:
                btn.enable()
            else:
                btn.disable()

    def on_viewport(self) -> None:
        self.view.set_viewport(self.app.viewport)
        self.pointer = None

    def on_theme(self) -> None:
        theme = self.app.theme.seated(self.match.colors_swapped)
        self.view.set_theme(theme)
        self.hud = Hud(theme)

    def enter(self) -> None:
        super().enter()
        if self.match.game.is_over() and not self.final_shown:
            self.show_final()

    # -- the one path for moves -------------------------------------------------------

    def play(self, i: int, j: int) -> list[Triangle]:
        """Draw line i-j (whoever chose it) through ``Match.play``; IllegalMove propagates unchanged."""
        mover = self.match.game.player
        closed = self.match.play(i, j)
        self.app.sounds.play(("line", "close1", "close2")[min(len(closed), 2)])
        self._after_change()
        self.flashes.add(closed, mover)
        if closed and self.match.game.extra_turn and not self.match.game.is_over():
            self.moves_again = mover
        else:
            self.moves_again = None
        if len(closed) > 1 and self.moves_again is None:
            self.say(trn("status.scored", len(closed)), "good")
        self._save()
        if self.match.game.is_over():
            self.show_final()
        return closed

    def attempt(self, i: int, j: int) -> bool:
        """A human line: refused with its reason (nothing changes) or played."""
        if self.match.game.is_over() or self.match.computer_to_move:
            return False
        why = self.match.game.why_illegal(i, j)
        if why is not None:
            self.say(reason_text(why), "bad")
            self.app.sounds.play("refused")
            return False
        try:
            self.play(i, j)
        except IllegalMove as exc:  # cannot happen after why_illegal, but never crash on it
            self.say(reason_text(exc.reason), "bad")
            return False
        self.selected = None
        self.press_star = None
        self.dragging = False
        return True

    def _after_change(self) -> None:
        """The position changed: drop what belonged to the old one."""
        self.app.worker.cancel()
        self.app.hint_worker.cancel()
        self.ai_asked = None
        self.hint_move = None
        self.hint_token = None
        self.msg = None

    def _save(self) -> None:
        try:
            save_session(self.match)
        except Exception as exc:  # read-only or full data folder: a box that stays, and Save a copy…
            self.app.nav.report_keep_failure(self.match, exc)
        else:
            self.app.nav.kept_again()

    def undo(self) -> None:
        if not self.match.undo():
            return
        self.final_shown = False  # the game goes on; its end will be shown again
        self._after_change()
        self.selected = None
        self.moves_again = None
        self.flashes.clear()
        self._save()

    def redo(self) -> None:
        if not self.match.can_redo():
            return
        self.match.redo()
        self._after_change()
        self.selected = None
        self.moves_again = None
        self._save()
        if self.match.game.is_over():
            self.show_final()

    def ask_hint(self) -> None:
        m = self.match
        if m.game.is_over() or m.computer_to_move:
            return
        self.hint_token = m.token
        self.app.hint_worker.request(m.game, DEFAULT_LEVEL, m.token)

    # -- a demo's pace --------------------------------------------------------------

    def toggle_demo(self) -> None:
        """Pause or resume a demo."""
        if self.demo is not None and not self.match.game.is_over():
            self.demo.toggle()

    def demo_slower(self) -> None:
        if self.demo is not None:
            self.demo.slower()

    def demo_faster(self) -> None:
        if self.demo is not None:
            self.demo.faster()

    def _demo_key(self, a: Action) -> bool:
        """A demo's keys: Enter / Space pause and resume, 1 2 3 choose the speed; True when used."""
        if self.demo is None:
            return False
        if a.kind == inp.CONFIRM:
            self.toggle_demo()
            return True
        if a.kind == inp.KEY and a.event is not None:
            digits = {pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2, pygame.K_KP1: 0, pygame.K_KP2: 1, pygame.K_KP3: 2}
            speed = digits.get(int(getattr(a.event, "key", -1)))
            if speed is not None:
                self.demo.speed = SPEEDS[speed]
                return True
        return False

    def open_menu(self) -> None:
        self._drop_aim()
        self.app.nav.pause()

    def show_final(self) -> None:
        self.final_shown = True
        self._drop_aim()
        self.app.nav.show_final(self.match)

    # -- messages ----------------------------------------------------------------------

    def say(self, text: str, kind: str = "info", seconds: float | None = None) -> None:
        if not text:
            return
        self.msg = (text, kind, self.app.config.message_time if seconds is None else seconds)

    # -- input -------------------------------------------------------------------------

    def _drop_aim(self) -> None:
        self.selected = None
        self.press_star = None
        self.dragging = False

    def handle_action(self, a: Action) -> None:
        if self._demo_key(a):
            return
        k = a.kind
        star = self.view.star_at(*a.pos) if a.pos is not None and k in _POINTER else None
        if self.zoom.handle(a, star):
            if k == inp.POINTER_MOVE:
                self.pointer = None
                self.hover = None  # panning: no star is under a finger that drags the sky
            return
        if k == inp.FIRST:
            self.view.fit()  # Home: the whole board
        if k == inp.UNDO:
            self.undo()
        elif k == inp.REDO:
            self.redo()
        elif k == inp.HINT:
            self.ask_hint()
        elif k == inp.CANCEL:
            if self.selected is not None:
                self._drop_aim()
            elif a.pos is None:
                self.open_menu()
        elif k == inp.FOCUS_LOST:
            self.dragging = False
        elif k == inp.POINTER_MOVE and a.pos is not None:
            self.pointer = a.pos
            self.hover = self.view.star_at(*a.pos)
            self._cursor(self.hover is not None and not self.match.computer_to_move)
        elif k == inp.POINTER_DOWN and a.pos is not None:
            self.pointer = a.pos
            self._press(self.view.star_at(*a.pos))
        elif k == inp.POINTER_UP and a.pos is not None:
            self.pointer = a.pos
            if self.zoom.clicked_empty:  # the press on empty space waited to see if it was a pan
                self._press(None)
            self._release(star)
        elif k == inp.NAV:
            self._nav(a.pos)
        elif k == inp.CONFIRM:
            if self.hover is None:
                self._nav((0, 0))
            elif self.hover is not None:
                self._press(self.hover)
                self._release(self.hover)

    # -- the closing-lines aid -------------------------------------------------------

    @property
    def aid_on(self) -> bool:
        return self.app.settings.closing_aid

    def toggle_aid(self) -> None:
        """Show or hide the lines that would close a triangle now (kept in the settings)."""
        self.app.settings.closing_aid = not self.app.settings.closing_aid
        self.app.save_settings()

    def closing_lines(self) -> list[tuple[int, int, int]]:
        """The legal lines that would close a triangle now, with how many each closes; once per position."""
        m = self.match
        if self._closing is None or self._closing[0] != m.token:
            self._closing = (m.token, closing_lines(m.game))
        return self._closing[1]

    def _cursor(self, hand: bool) -> None:
        """A pointing hand over a star that can be picked."""
        if hand == self._hand:
            return
        self._hand = hand
        try:
            pygame.mouse.set_cursor(pygame.SYSTEM_CURSOR_HAND if hand else pygame.SYSTEM_CURSOR_ARROW)
        except pygame.error:
            pass

    def leave(self) -> None:
        self._cursor(False)
        super().leave()

    def _blocked(self) -> bool:
        m = self.match
        if m.game.is_over():
            return True
        if self.demo is not None:
            self.say(tr("demo.note"), "info", 2.0)  # nobody draws in a demo
            return True
        if m.computer_to_move:
            self.say(tr("status.wait"), "info", 1.2)
            return True
        return False

    def _press(self, star: int | None) -> None:
        if self._blocked():
            return
        if star is None:
            self._drop_aim()
            return
        if self.selected is None:
            self.selected = star
            self.press_star = star
            self.dragging = True
            return
        if star == self.selected:
            self.press_star = star  # a second click on it deselects on release
            self.dragging = False
            return
        self.attempt(self.selected, star)

    def _release(self, star: int | None) -> None:
        if self.selected is None:
            self.dragging = False
            return
        if self.dragging:
            self.dragging = False
            if star is not None and star != self.selected:
                self.attempt(self.selected, star)
            return
        if star is not None and star == self.selected and self.press_star == star:
            # clicked the selected star again: let go of it
            self._drop_aim()
        self.press_star = None

    def _nav(self, direction: tuple[int, int] | None) -> None:
        if direction is None or self.match.board.n == 0:
            return
        pts = self.match.board.stars
        cur = self.hover if self.hover is not None else self.selected
        if cur is None or direction == (0, 0):
            cx, cy = self.app.viewport.board_rect[2] / 2, self.app.viewport.board_rect[3] / 2
            best = min(range(len(pts)), key=lambda s: (pts[s][0] - cx) ** 2 + (pts[s][1] - cy) ** 2)
        else:
            dx, dy = direction
            x0, y0 = pts[cur]
            best, best_cost = None, math.inf
            for s in range(len(pts)):
                vx, vy = pts[s][0] - x0, pts[s][1] - y0
                d = math.hypot(vx, vy)
                if s == cur or d == 0:
                    continue
                cos = (vx * dx + vy * dy) / d
                if cos < 0.35:
                    continue
                cost = d * (1.0 + 2.5 * (1.0 - cos))
                if cost < best_cost:
                    best, best_cost = s, cost
            if best is None:
                return
        self.hover = best
        self.pointer = None
        if best is not None and not self.view.star_visible(best):  # zoomed in: bring the keyboard's star into view
            x, y = self.match.board.stars[best]
            self.view.set_zoom(self.view.zoom, (float(x), float(y)))

    # -- frame --------------------------------------------------------------------------

    def animate(self, dt: float) -> None:
        self.time += dt
        self.zoom.update(dt)
        self.hud.update(dt)
        self.flashes.update(dt)
        if self.msg is not None:
            text, kind, left = self.msg
            left -= dt
            self.msg = (text, kind, left) if left > 0 else None

    def update(self, dt: float) -> None:
        self.animate(dt)
        m = self.match
        if m.computer_to_move:
            self._computer_turn()
        if self.hint_token is not None:
            res = self.app.hint_worker.poll(self.hint_token)
            if res is not None:
                if res.token == m.token and res.move is not None and m.game.is_legal(*res.move):
                    self.hint_move = res.move
                self.hint_token = None
            elif self.hint_token != m.token:
                self.hint_token = None
        self._refresh_buttons()

    def _computer_turn(self) -> None:
        m = self.match
        w = self.app.worker
        token = m.token
        if self.ai_asked != token:
            self.ai_asked = token
            self.ai_delay = self._natural_pause()
            seed = (int(m.seed or 0) * 7919 + m.game.move_count) % (2**31)
            level = m.level_of(m.game.player)  # a demo's two computers play at their own levels
            w.request(m.game, level, token, seed=seed, time_limit=self.app.config.ai_time_limit)
            return
        if self.demo is not None:
            if self.demo.paused:
                return  # the answer waits (it is kept for this position) until the demo resumes
            self.ai_delay = self.demo.seconds  # a new speed applies to the line being waited for
        res = w.poll(token, self.ai_delay)
        if res is None:
            return
        move = res.move
        if move is None or not m.game.is_legal(*move):
            # a broken engine must not stall the game: say so and play any legal line
            self.say(tr("error.computer", reason=res.error or tr("error.illegal_move")), "bad")
            legal = m.game.legal_moves()
            if not legal:
                return
            move = random.Random(token).choice(legal)
        self.play(move[0], move[1])

    def _natural_pause(self) -> float:
        """Seconds before the computer's line may appear (it would look rushed at once; a demo's: its speed)."""
        if self.demo is not None:
            return self.demo.seconds
        lo, hi = self.app.config.ai_delay
        return lo if hi <= lo else self.app.rng.uniform(lo, hi)

    # -- drawing -----------------------------------------------------------------------

    def hud_info(self) -> HudInfo:
        m = self.match
        g = m.game
        # "You", "Player 1"... in the language on screen now; names chosen in Settings as they are
        names = seat_names(m.players)
        levels = [tr(f"level.{p.level or DEFAULT_LEVEL}") if p.is_computer else "" for p in m.players]
        sub0, sub1 = (tr("hud.computer_level", level=v) if v else "" for v in levels)
        over = g.is_over()
        thinking = m.computer_to_move and not (self.demo is not None and self.demo.paused)
        status, kind, player = "", "info", None
        if self.msg is not None:
            status, kind = self.msg[0], self.msg[1]
        elif over:
            status = tr("status.over")
        elif self.moves_again is not None and self.moves_again == g.player:
            if m.mode == "ai" and not m.is_computer(g.player):
                status = tr("status.you_move_again")
            else:
                status = tr("status.moves_again", name=names[g.player])
            kind = "good"
        elif self.demo is not None and (self.demo.paused or warmup.progress() is None):
            speed = tr(self.demo.speed_key)
            status = tr("status.demo_paused") if self.demo.paused else tr("status.demo", speed=speed)
            player = g.player
        elif thinking:
            # a cold numba cache (first start, or after an update): say what the wait is, and how far along
            preparing = warmup.progress()
            if preparing is None:
                status = tr("status.thinking")
            else:  # "first start only" only when the compiled kernels are kept
                status = tr("warmup.preparing" if warmup.kept() else "warmup.preparing.nocache", percent=preparing)
            player = g.player
        elif self._aim_reason():
            status, kind = self._aim_reason() or "", "bad"
        elif m.mode == "ai":
            status, player = tr("status.your_turn"), g.player
        else:
            status, player = tr("status.turn", name=names[g.player]), g.player
        return HudInfo(
            names=names,
            subtitles=(sub0, sub1),
            short_subtitles=(levels[0], levels[1]),
            scores=g.scores,
            to_move=None if over else g.player,
            thinking=thinking,
            status=status,
            status_kind=kind,
            status_player=player,
            thinking_label=tr("hud.thinking"),
            animated=self.app.animations,
        )

    def _aim(self) -> tuple[int, int] | None:
        """The half-drawn line: the selected star and the star aimed at (not the same one)."""
        if self.selected is None or self.hover is None or self.hover == self.selected:
            return None
        return self.selected, self.hover

    def _aim_reason(self) -> str | None:
        aim = self._aim()
        if aim is None:
            return None
        why = self.match.game.why_illegal(*aim)
        return reason_text(why) if why is not None else None

    def board_overlay(self) -> Overlay:
        o = Overlay()
        o.hover = self.hover
        o.selected = self.selected
        aim = self._aim()
        target = aim[1] if aim is not None else None
        if self.selected is not None:
            if target is not None:
                x, y = self.match.board.stars[target]
                o.band_end = self.view.viewport.to_screen(float(x), float(y))
            elif self.pointer is not None:
                o.band_end = self.pointer
        o.band_target = target
        o.band_ok = None if aim is None else self.match.game.why_illegal(*aim) is None
        o.flashes = self.flashes.progress()
        o.hint = self.hint_move
        o.pulse = self.time if self.app.animations else None
        if self.aid_on and not self.match.game.is_over():
            o.closing = self.closing_lines()
        return o

    def draw(self, surface: pygame.Surface) -> None:
        self.view.draw(surface, self.match.game, self.board_overlay())
        self.hud.draw(surface, self.app.viewport, self.layout, self.hud_info())
        self.zoom.draw(surface, self.hud)
