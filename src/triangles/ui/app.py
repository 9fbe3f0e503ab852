"""The game window: one loop, a stack of scenes, resizing and fullscreen.

Why a stack: overlays (pause menu, final screen, message boxes) sit on top of
the game and reveal it again when closed, and every scene gets the same three
calls (``handle``, ``update(dt)``, ``draw(surface)``).  Raw events are turned
into actions once (:mod:`triangles.ui.input`) and only the top scene hears
them.  Everything is laid out in the current preset's *design points* and
mapped to the window by one :class:`Viewport`, so a resize or F11 only swaps
the viewport and rebuilds the widgets at the new scale.

:func:`run` is what the command line calls.  :class:`App` can also be driven
frame by frame (``app.step()``) by tests.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable

from triangles.i18n import tr
from triangles.launch import LaunchOptions
from triangles.paths import assets_dir

__all__ = ["App", "AppConfig", "run", "fit_window_size", "WINDOW_CLASS"]

#: X11 WM_CLASS of the window (``xdotool search --class triangles``)
WINDOW_CLASS = "triangles"


@dataclass
class AppConfig:
    """Knobs tests turn: the computer's natural pause, frame rate, fake engines."""

    #: the computer's line appears no sooner than this (seconds, uniform in the range)
    ai_delay: tuple[float, float] = (0.45, 0.8)
    ai_time_limit: float | None = None
    fps: int = 60
    #: replaces ``triangles.ai.choose_move(game, level, seed=..., time_limit=...)``
    chooser: Callable[..., tuple[int, int]] | None = None
    #: replaces ``triangles.ai.hint(game)``
    hinter: Callable[[Any], tuple[int, int]] | None = None
    #: seconds a refusal / info message stays in the status line
    message_time: float = 2.2


def fit_window_size(size: tuple[int, int], desktop: tuple[int, int], fill: float = 0.9,
                    max_scale: float = 1.25) -> tuple[int, int]:
    """The preset's window size scaled to fit ``fill`` of the desktop (never above ``max_scale``)."""
    w, h = size
    dw, dh = desktop
    if dw <= 0 or dh <= 0:
        return w, h
    s = min(fill * dw / w, fill * dh / h, max_scale)
    return max(200, round(w * s)), max(200, round(h * s))


class App:
    def __init__(self, options: LaunchOptions | None = None, config: AppConfig | None = None) -> None:
        os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", WINDOW_CLASS)
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from triangles.presets import get_preset
        from triangles.ui.render.theme import load_theme
        from triangles.ui.worker import AIWorker

        from triangles.i18n import detect_language, set_language

        set_language(detect_language())
        self.pg = pygame
        self.options = options or LaunchOptions()
        self.config = config or AppConfig()
        # display and fonts only: no audio device is opened (none is used)
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(350, 40)
        pygame.display.set_caption(tr("app.title"))
        self.theme = load_theme("nebula")
        self.preset = get_preset(self.options.preset or "phone")
        self.fullscreen = False
        desk = (pygame.display.get_desktop_sizes() or [(1280, 800)])[0]
        self.windowed_size = fit_window_size(self.preset.window, desk)
        self.surface = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
        self._set_icon()
        if self.options.fullscreen:
            self.set_fullscreen(True)
        self.viewport = self._make_viewport()
        self.gui = self._make_gui()
        self.stack: list[Any] = []
        self.worker = AIWorker(self.config.chooser)
        hinter = self.config.hinter

        def hint_chooser(game: Any, level: str, seed: Any, tl: Any) -> tuple[int, int]:
            if hinter is not None:
                return hinter(game)
            from triangles import warmup
            from triangles.ai import hint

            warmup.wait()
            return hint(game)

        self.hint_worker = AIWorker(hint_chooser)
        self.rng = random.Random()
        self.running = True
        self.exit_code = 0
        self.frames = 0
        self._resize_pending = False
        self.clock = pygame.time.Clock()
        self._start()

    # -- start-up --------------------------------------------------------------------

    def _set_icon(self) -> None:
        pg = self.pg
        icon = pg.Surface((64, 64), pg.SRCALPHA)
        c = self.theme.player_colors
        pts = [(10, 52), (32, 10), (54, 52)]
        pg.draw.polygon(icon, (*c[0], 150), pts)
        pg.draw.lines(icon, c[1], True, pts, 4)
        for p in pts:
            pg.draw.circle(icon, (255, 250, 240), p, 6)
        pg.display.set_icon(icon)

    def _start(self) -> None:
        from triangles.ui.scenes.menu import MainMenuScene
        from triangles.match import MatchSettings

        o = self.options
        self.reset(MainMenuScene(self))
        if o.open_record is not None:
            self.open_record(o.open_record)
        elif o.straight_into_game:
            settings = MatchSettings(
                mode=o.mode or "ai", preset=o.preset or "phone", stars=o.stars, seed=o.seed,
                level=o.level, extra_turn=o.extra_turn, computer_starts=o.computer_starts,
            )
            self.start_new(settings)

    # -- window ----------------------------------------------------------------------

    def _make_viewport(self) -> Any:
        from triangles.ui.render.viewport import Viewport

        size = self.surface.get_size()
        return Viewport((max(1, size[0]), max(1, size[1])), self.preset.window, self.preset.board)

    def _make_gui(self) -> Any:
        """A pygame_gui manager whose theme fonts are scaled to the viewport."""
        import pygame_gui

        theme = _scaled_gui_theme(self.viewport.scale)
        for k, color in enumerate(self.theme.player_colors):
            # labels in a player's colour (the final screen's headline)
            theme[f"#player{k}"] = {"colours": {"normal_text": "#%02x%02x%02x" % tuple(color)}}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            manager = pygame_gui.UIManager(self.surface.get_size(), theme, enable_live_theme_updates=False)
        return manager

    def _window(self) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # from_display_module warns about surface use we do not make
            return self.pg.Window.from_display_module()

    def set_fullscreen(self, on: bool) -> None:
        """Desktop fullscreen on the same window (``set_mode`` would re-create it: new X id)."""
        pg = self.pg
        if on == self.fullscreen:
            return
        if on:
            self.windowed_size = self.surface.get_size()
        try:
            win = self._window()
            if on:
                win.set_fullscreen(True)
            else:
                win.set_windowed()
                win.size = self.windowed_size
            pg.event.pump()
            surf = pg.display.get_surface()
            worked = surf is not None and pg.display.is_fullscreen() == on
        except (pg.error, AttributeError):
            worked = False
        if not worked:  # old SDL or an odd driver: re-create the window instead
            if on:
                pg.display.set_mode((0, 0), pg.FULLSCREEN)
            else:
                pg.display.set_mode(self.windowed_size, pg.RESIZABLE)
        self.surface = pg.display.get_surface()
        self.fullscreen = on
        self._resize_pending = True

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)
        self.apply_resize()

    def resize_window(self, size: tuple[int, int]) -> None:
        """Programmatic resize (tests, switching presets)."""
        if self.fullscreen:
            self.windowed_size = size
            return
        self._set_window_size(size)
        self.apply_resize()

    def _set_window_size(self, size: tuple[int, int]) -> None:
        """Resize the same window (keeps its X id and position); ``set_mode`` as a fallback."""
        pg = self.pg
        try:
            self._window().size = size
            pg.event.pump()
            surf = pg.display.get_surface()
            if surf is not None and surf.get_size() == tuple(size):
                self.surface = surf
                return
        except (pg.error, AttributeError):
            pass
        self.surface = pg.display.set_mode(size, pg.RESIZABLE)

    def use_preset(self, name: str | None) -> None:
        """Lay out for another preset; a window that was sized for the old one follows."""
        from triangles.presets import get_preset

        if not name or name == self.preset.name:
            return
        self.preset = get_preset(name)
        if not self.fullscreen:
            desk = (self.pg.display.get_desktop_sizes() or [(1280, 800)])[0]
            self.windowed_size = fit_window_size(self.preset.window, desk)
            self._set_window_size(self.windowed_size)
        self.apply_resize(force=True)

    def apply_resize(self, force: bool = False) -> None:
        self._resize_pending = False
        surf = self.pg.display.get_surface()
        if surf is not None:
            self.surface = surf
        vp = self._make_viewport()
        if not force and vp == self.viewport:
            return
        self.viewport = vp
        self.gui = self._make_gui()
        for scene in self.stack:
            scene.on_viewport()
            scene.rebuild()

    # -- the stack -------------------------------------------------------------------

    @property
    def top(self) -> Any:
        return self.stack[-1] if self.stack else None

    def scene_below(self, scene: Any) -> Any:
        try:
            k = self.stack.index(scene)
        except ValueError:
            return None
        return self.stack[k - 1] if k > 0 else None

    def push(self, scene: Any) -> None:
        if self.stack:
            self.stack[-1].leave()
        self.stack.append(scene)
        scene.enter()

    def pop(self, scene: Any = None) -> None:
        """Close the top scene (or ``scene`` and everything above it)."""
        if not self.stack:
            return
        target = scene if scene is not None else self.stack[-1]
        while self.stack:
            s = self.stack.pop()
            s.leave()
            s.closed()
            if s is target:
                break
        if self.stack:
            self.stack[-1].enter()

    def reset(self, scene: Any) -> None:
        """Replace the whole stack with ``scene``."""
        while self.stack:
            s = self.stack.pop()
            s.leave()
            s.closed()
        self.stack.append(scene)
        scene.enter()

    def find(self, cls: type) -> Any:
        for s in reversed(self.stack):
            if isinstance(s, cls):
                return s
        return None

    # -- things scenes ask for -------------------------------------------------------

    def message(self, text: str, title: str | None = None) -> None:
        from triangles.ui.scenes.message import MessageScene

        self.push(MessageScene(self, text, title or tr("message.title")))

    def start_new(self, settings: Any) -> None:
        from triangles.presets import PresetError
        from triangles.match import Match

        try:
            match = Match.new(settings)
        except (PresetError, ValueError) as exc:
            self.message(tr("error.new_game", reason=str(exc)))
            return
        self.start_match(match)

    def start_match(self, match: Any, *, continued: bool = False) -> None:
        """Play ``match``; unless it *is* the saved game (Continue), that one is archived first."""
        from triangles.ui.scenes.play import PlayScene
        from triangles.saves import archive_session

        self.save_current()
        if not continued:
            archive_session()
        self.worker.cancel()
        self.hint_worker.cancel()
        self.use_preset(match.preset or _guess_preset(match.board))
        self.reset(PlayScene(self, match))

    def open_record(self, path: Any) -> bool:
        """Open a record file; on failure a message box says why and nothing else changes."""
        from triangles.record import RecordError, load_record
        from triangles.match import Match

        try:
            record = load_record(path)
            match = Match.from_record(record)
        except RecordError as exc:
            self.message(tr("error.open_record", name=os.path.basename(str(path)), reason=str(exc)),
                         tr("error.open_record.title"))
            return False
        self.start_match(match)
        return True

    def current_match(self) -> Any:
        from triangles.ui.scenes.play import PlayScene

        scene = self.find(PlayScene)
        return scene.match if scene is not None else None

    def save_current(self) -> None:
        """Keep the game in progress for "Continue" (never raises: quitting must work)."""
        from triangles.saves import save_session

        match = self.current_match()
        if match is None:
            return
        try:
            save_session(match)
        except Exception as exc:  # a full disk must not turn quitting into a crash
            print(f"triangles: could not save the game in progress: {exc}", file=sys.stderr)

    def quit(self) -> None:
        self.save_current()
        self.worker.cancel()
        self.hint_worker.cancel()
        self.running = False

    def ai_delay(self) -> float:
        lo, hi = self.config.ai_delay
        return lo if hi <= lo else self.rng.uniform(lo, hi)

    # -- the loop --------------------------------------------------------------------

    def dispatch(self, event: Any) -> None:
        from triangles.ui import input as inp

        consumed = bool(self.gui.process_events(event))
        for action in inp.translate(event, consumed):
            if action.kind == inp.QUIT:
                self.quit()
            elif action.kind == inp.FULLSCREEN:
                self.toggle_fullscreen()
            elif action.kind == inp.RESIZE:
                self._resize_pending = True
            elif self.top is not None:
                self.top.handle(action)
            if not self.running:
                return

    def step(self, dt: float | None = None) -> bool:
        """One frame: events, update, draw, flip.  False once the app has quit."""
        if dt is None:
            dt = self.clock.tick(self.config.fps) / 1000.0
        for event in self.pg.event.get():
            self.dispatch(event)
            if not self.running:
                return False
        if self._resize_pending:
            self.apply_resize()
        dt = min(dt, 0.1)
        top = self.top
        if top is not None:
            top.update(dt)
        if not self.running:
            return False
        self.gui.update(dt)
        self.draw()
        self.pg.display.flip()
        self.frames += 1
        return self.running

    def draw(self) -> None:
        k = len(self.stack) - 1
        while k > 0 and not self.stack[k].opaque:
            k -= 1
        if not self.stack:
            self.surface.fill((0, 0, 0))
        for scene in self.stack[max(k, 0):]:
            scene.draw(self.surface)
        self.gui.draw_ui(self.surface)
        if self.stack:
            self.stack[-1].draw_front(self.surface)

    def run(self) -> int:
        ready = False
        try:
            while self.running:
                self.step()
                if not ready and self.frames > 0:
                    ready = True
                    if self.options.print_ready:
                        print("TRIANGLES READY", flush=True)
        except KeyboardInterrupt:
            self.quit()
        except BaseException:
            self.save_current()  # never lose the player's game, even to a bug
            raise
        finally:
            self.pg.quit()
        return self.exit_code

    def close(self) -> None:
        """For tests: stop without the loop (saves like closing the window)."""
        if self.running:
            self.quit()
        self.pg.quit()


def _guess_preset(board: Any) -> str:
    """A record without a preset: the first preset whose board holds all the stars."""
    from triangles.presets import load_presets

    try:
        xs, ys = board.stars[:, 0].max(), board.stars[:, 1].max()
        for name, p in load_presets().items():
            if xs <= p.board[2] and ys <= p.board[3]:
                return name
    except ValueError:  # no stars, or a broken presets file
        pass
    return "tablet"


_gui_theme_cache: dict[str, Any] | None = None


def _scaled_gui_theme(scale: float) -> dict[str, Any]:
    """``assets/ui/theme.json`` with every font size and corner radius multiplied by ``scale``."""
    global _gui_theme_cache
    if _gui_theme_cache is None:
        try:
            _gui_theme_cache = json.loads((assets_dir() / "ui" / "theme.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _gui_theme_cache = {}
    theme = copy.deepcopy(_gui_theme_cache)
    for block in theme.values():
        if not isinstance(block, dict):
            continue
        font = block.get("font")
        if isinstance(font, dict) and "size" in font:
            font["size"] = str(max(8, round(float(font["size"]) * scale)))
        misc = block.get("misc")
        if isinstance(misc, dict):
            for key in ("shape_corner_radius", "list_item_height"):
                if key in misc:
                    misc[key] = str(max(1, round(float(misc[key]) * scale)))
    return theme


def run(options: LaunchOptions, config: AppConfig | None = None) -> int:
    """Open the window and play until it is closed; the process exit code."""
    from triangles import warmup

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    warmup.start()  # compile the computer player in the background while the menu shows
    try:
        app = App(options, config)
    except (pygame.error, OSError, ValueError) as exc:  # no display, unreadable assets
        print(f"triangles: cannot open the game window: {exc}", file=sys.stderr)
        return 1
    return app.run()
