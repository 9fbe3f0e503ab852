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

from triangles import i18n, warmup
from triangles.i18n import detect_language, tr
from triangles.launch import LaunchOptions
from triangles.presets import Preset, get_preset
from triangles.settings import DEFAULT_THEME, Problem, Settings, SettingsStore
from triangles.ui import input as inp
from triangles.ui.navigator import Navigator
from triangles.ui.preparing import PreparingScreen
from triangles.ui.render.theme import Theme, ThemeError, load_theme
from triangles.ui.render.viewport import Viewport
from triangles.ui.sound import SoundPlayer, Sounds
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
    #: a demo's pause before each line, slow / normal / fast (seconds)
    demo_pauses: tuple[float, float, float] = (1.6, 0.7, 0.15)
    #: replaces :class:`triangles.ui.sound.Sounds` (given the live settings): a recorder in tests
    sounds: Callable[[Callable[[], Settings]], SoundPlayer] | None = None


class App:
    """The window, the scene stack, the computer's threads and the loop that drives them."""

    def __init__(self, options: LaunchOptions | None = None, config: AppConfig | None = None) -> None:
        self.options = options or LaunchOptions()
        self.config = config or AppConfig()
        #: the settings file; what it could not use is shown once the first screen is up
        self.store = SettingsStore()
        i18n.set_language(self.settings.language or detect_language())
        self.stack: SceneStack[Scene] = SceneStack()
        # the command line's preset and fullscreen win for this run; otherwise the remembered ones
        self._theme_problem: Problem | None = None  # a broken theme file, said once the first screen is up
        self.window = Window(
            self._load_theme(self.settings.theme),
            get_preset(self.options.preset or self.settings.new_game.preset),
            fullscreen=self.options.fullscreen or self.settings.fullscreen,
            on_layout=self._relayout,
            scale=self.settings.window_scale,
        )
        # the mixer opens after the window (a failure leaves the game silent); volume and mute are read live
        self.sounds: SoundPlayer = (self.config.sounds or Sounds)(lambda: self.settings)
        self.worker = AIWorker(self.config.chooser, self.config.ai_clock)
        self.hint_worker = AIWorker(hint_chooser(self.config.hinter))
        self.rng = random.Random()
        self.running = True
        self.exit_code = 0
        self.frames = 0
        self.clock = pygame.time.Clock()
        # on a cold numba cache the rules compile before the first board: show how far, not a blank window
        warmup.warm_rules(PreparingScreen(self.window).show)
        self.nav = Navigator(self)
        # the New game dialog opens on the remembered choices with the command line's on top
        self.nav.new_game_choices = self.options.new_game_choices(self.settings.new_game_choices())
        self.nav.start(self.options)
        self.report(self.store.take_problems() + self._take_theme_problem())

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
    def settings(self) -> Settings:
        """The player's settings (change them through the methods below, which apply and save them)."""
        return self.store.settings

    @property
    def animations(self) -> bool:
        """False: reduced motion, everything shows its end state at once."""
        return self.settings.animations

    @property
    def top(self) -> Scene | None:
        return self.stack.top

    def find(self, cls: type[T]) -> T | None:
        return self.stack.find(cls)

    # -- settings -----------------------------------------------------------------------

    def _load_theme(self, name: str) -> Theme:
        """The chosen theme, or Nebula when it cannot be read (a broken theme must not stop the game).

        What was wrong is kept for :meth:`_take_theme_problem`, to be said in the player's language."""
        try:
            return load_theme(name)
        except ThemeError as exc:
            from triangles.ui.scenes.settings import theme_caption

            self._theme_problem = Problem("theme.broken", (("theme", theme_caption(name)), ("reason", str(exc))))
            return load_theme(DEFAULT_THEME)

    def _take_theme_problem(self) -> list[Problem]:
        problem, self._theme_problem = self._theme_problem, None
        return [problem] if problem is not None else []

    def report(self, problems: list[Problem]) -> None:
        """One message box for everything in ``problems`` (nothing when there are none)."""
        if problems:
            self.nav.message("\n".join(p.text() for p in problems), tr("settings.title"))

    def save_settings(self) -> None:
        """Write the settings now; the first failure this session is shown, never raised."""
        problem = self.store.save()
        if problem is not None:
            self.report([problem])

    def set_language(self, code: str | None) -> None:
        """Speak ``code`` now (None: the system's language): title, every scene's text; and remember it.

        Scenes make their widgets' text with ``tr`` in ``build_ui`` and the HUD
        asks ``tr`` at every frame, so rebuilding the stack is all it takes.
        """
        self.settings.language = code
        i18n.set_language(code or detect_language())
        pygame.display.set_caption(tr("app.title"))
        for scene in self.stack:
            scene.rebuild()  # only the top one has widgets; the others build theirs when shown again
        self.save_settings()

    def set_theme(self, name: str) -> None:
        """Remember the theme and restyle everything on screen with it, boards already open too."""
        old, self.settings.theme = self.settings.theme, name
        if name != old:
            self.window.theme = self._load_theme(name)
            for scene in self.stack:
                scene.on_theme()
            self.window.refit(force=True)
        self.save_settings()
        self.report(self._take_theme_problem())

    def set_window_scale(self, scale: int | None) -> None:
        self.settings.window_scale = scale
        self.window.set_scale(scale)
        self.save_settings()

    def set_fullscreen(self, on: bool) -> None:
        self.settings.fullscreen = on
        if on != self.window.fullscreen:
            self.window.toggle_fullscreen()
        self.save_settings()

    # -- window -------------------------------------------------------------------------

    def _relayout(self) -> None:
        """A new viewport: every scene refits and rebuilds its widgets in the new manager."""
        for scene in self.stack:
            scene.on_viewport()
            scene.rebuild()

    def quit(self, force: bool = False) -> None:
        """Close the game, keeping the game in progress; if it cannot be kept, ask first (``force``: don't)."""
        if not force and self.nav.quit_would_lose_the_game():
            return
        if force:
            self.nav.save_current()
        if self.store.dirty:
            self.store.save()  # names still being typed (a failure here has nobody left to tell)
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
                self.set_fullscreen(not self.window.fullscreen)
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
            self.quit(force=True)
        except BaseException:
            self.nav.save_current()  # never lose the player's game, even to a bug
            raise
        finally:
            pygame.quit()
        return self.exit_code

    def close(self) -> None:
        """For tests: stop without the loop (saves like closing the window)."""
        if self.running:
            self.quit(force=True)
        pygame.quit()


def run(options: LaunchOptions, config: AppConfig | None = None) -> int:
    """Open the window and play until it is closed; the process exit code."""
    warmup.start()  # compile the computer player in the background while the menu shows
    try:
        app = App(options, config)
    except (pygame.error, OSError, ValueError) as exc:  # no display, unreadable assets
        print(tr("error.window", prog="triangles", reason=exc), file=sys.stderr)
        return 1
    warmup.start_here()  # no cache folder: compile the computer player in a thread instead (a no-op otherwise)
    return app.run()
