"""The app: one window, one loop, a stack of scenes.

Every frame the loop turns raw events into actions once
(:mod:`triangles.ui.input`) and hands them to the top scene, updates it,
and draws the visible scenes bottom to top.  The window and its viewport
live in :mod:`triangles.ui.window`, the stack in :mod:`triangles.ui.stack`,
and every change of screen or match in :mod:`triangles.ui.navigator`.

:func:`run` is what the command line calls.  :class:`App` can also be driven
frame by frame (``app.step()``) by tests.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import pygame
import pygame_gui

from triangles.i18n import detect_language, set_language, tr
from triangles.launch import LaunchOptions
from triangles.presets import Preset, get_preset
from triangles.ui import input as inp
from triangles.ui.navigator import Navigator
from triangles.ui.render.theme import Theme, load_theme
from triangles.ui.render.viewport import Viewport
from triangles.ui.stack import SceneStack
from triangles.ui.window import WINDOW_CLASS, Window, fit_window_size
from triangles.ui.worker import AIWorker, Chooser, Hinter, hint_chooser

if TYPE_CHECKING:
    from triangles.ui.scenes.base import Scene

__all__ = ["App", "AppConfig", "run", "fit_window_size", "WINDOW_CLASS"]

T = TypeVar("T")


@dataclass
class AppConfig:
    """Knobs tests turn: the computer's natural pause, frame rate, fake engines."""

    #: the computer's line appears no sooner than this (seconds, uniform in the range)
    ai_delay: tuple[float, float] = (0.45, 0.8)
    ai_time_limit: float | None = None
    fps: int = 60
    #: replaces ``triangles.ai.choose_move(game, level, seed=..., time_limit=...)``
    chooser: Chooser | None = None
    #: replaces ``triangles.ai.hint(game)``
    hinter: Hinter | None = None
    #: seconds a refusal / info message stays in the status line
    message_time: float = 2.2
    #: the computer's clock for its natural pause (tests drive it by hand)
    ai_clock: Callable[[], float] = time.monotonic


class App:
    """The window, the scene stack, the computer's threads and the loop that drives them."""

    def __init__(self, options: LaunchOptions | None = None, config: AppConfig | None = None) -> None:
        set_language(detect_language())
        self.options = options or LaunchOptions()
        self.config = config or AppConfig()
        self.stack: SceneStack[Scene] = SceneStack()
        self.window = Window(
            load_theme("nebula"),
            get_preset(self.options.preset or "phone"),
            fullscreen=self.options.fullscreen,
            on_layout=self._relayout,
        )
        self.worker = AIWorker(self.config.chooser, self.config.ai_clock)
        self.hint_worker = AIWorker(hint_chooser(self.config.hinter))
        self.rng = random.Random()
        self.running = True
        self.exit_code = 0
        self.frames = 0
        self.clock = pygame.time.Clock()
        self.nav = Navigator(self)
        self.nav.start(self.options)

    # -- what scenes read ---------------------------------------------------------------

    @property
    def surface(self) -> pygame.Surface:
        return self.window.surface

    @property
    def gui(self) -> pygame_gui.UIManager:
        return self.window.gui

    @property
    def viewport(self) -> Viewport:
        return self.window.viewport

    @property
    def theme(self) -> Theme:
        return self.window.theme

    @property
    def preset(self) -> Preset:
        return self.window.preset

    @property
    def top(self) -> Scene | None:
        return self.stack.top

    def find(self, cls: type[T]) -> T | None:
        return self.stack.find(cls)

    # -- window -------------------------------------------------------------------------

    def _relayout(self) -> None:
        """A new viewport: every scene refits and rebuilds its widgets in the new manager."""
        for scene in self.stack:
            scene.on_viewport()
            scene.rebuild()

    def quit(self) -> None:
        self.nav.save_current()
        self.worker.cancel()
        self.hint_worker.cancel()
        self.running = False

    # -- the loop -----------------------------------------------------------------------

    def dispatch(self, event: pygame.event.Event) -> None:
        consumed = bool(self.gui.process_events(event))
        for action in inp.translate(event, consumed):
            top = self.stack.top
            if action.kind == inp.QUIT:
                self.quit()
            elif action.kind == inp.FULLSCREEN:
                self.window.toggle_fullscreen()
            elif action.kind == inp.RESIZE:
                self.window.resize_pending = True
            elif top is not None:
                top.handle(action)
            if not self.running:
                return

    def step(self, dt: float | None = None) -> bool:
        """One frame: events, update, draw, flip.  False once the app has quit."""
        if dt is None:
            dt = self.clock.tick(self.config.fps) / 1000.0
        for event in pygame.event.get():
            self.dispatch(event)
            if not self.running:
                return False
        if self.window.resize_pending:
            self.window.refit()
        dt = min(dt, 0.1)
        top = self.stack.top
        if top is not None:
            top.update(dt)
        if not self.running:
            return False
        self.gui.update(dt)
        self.draw()
        pygame.display.flip()
        self.frames += 1
        return self.running

    def draw(self) -> None:
        surface = self.surface
        scenes = self.stack.visible()
        if not scenes:
            surface.fill((0, 0, 0))
        for scene in scenes:
            scene.draw(surface)
        self.gui.draw_ui(surface)
        top = self.stack.top
        if top is not None:
            top.draw_front(surface)

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
            self.nav.save_current()  # never lose the player's game, even to a bug
            raise
        finally:
            pygame.quit()
        return self.exit_code

    def close(self) -> None:
        """For tests: stop without the loop (saves like closing the window)."""
        if self.running:
            self.quit()
        pygame.quit()


def run(options: LaunchOptions, config: AppConfig | None = None) -> int:
    """Open the window and play until it is closed; the process exit code."""
    from triangles import warmup

    warmup.start()  # compile the computer player in the background while the menu shows
    try:
        app = App(options, config)
    except (pygame.error, OSError, ValueError) as exc:  # no display, unreadable assets
        print(tr("error.window", prog="triangles", reason=exc), file=sys.stderr)
        return 1
    return app.run()
