"""What every scene shares: the stack protocol, layout in design points, widgets.

Why design points: a scene lays itself out once in the preset's coordinate
space (e.g. 390 x 844 for the phone) and the app's :class:`Viewport` maps that
to the real window, so resizing and fullscreen just rebuild the widgets at the
new scale.  pygame_gui elements are recreated on every rebuild (the manager is
recreated with scaled fonts), so scenes keep their *state* in plain attributes
and only draw it into widgets in :meth:`Scene.build_ui`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

import pygame
import pygame_gui
from pygame_gui.core import ObjectID, UIElement

from triangles.ui import input as inp
from triangles.ui.input import Action

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["Scene", "Overlay", "Choices", "ChoiceRow", "Rect"]

#: x, y, width, height in design points
Rect = tuple[float, float, float, float]

W = TypeVar("W", bound=UIElement)
T = TypeVar("T")


class Scene:
    """A full screen: draws everything itself."""

    #: False for overlays: the app draws the scene below first
    opaque = True

    def __init__(self, app: App) -> None:
        self.app = app
        self._widgets: list[UIElement] = []
        self._buttons: dict[UIElement, Callable[[], None]] = {}
        self.active = False

    # -- stack protocol -------------------------------------------------------------

    def enter(self) -> None:
        """Pushed onto the stack (or revealed again)."""
        self.active = True
        self.rebuild()

    def leave(self) -> None:
        """Popped off the stack or covered by another scene."""
        self.active = False
        self.clear_ui()

    def rebuild(self) -> None:
        self.clear_ui()
        if self.active:
            self.build_ui()

    def build_ui(self) -> None:
        """Create this scene's widgets (the manager is ``self.app.gui``)."""

    def clear_ui(self) -> None:
        for w in self._widgets:
            try:
                w.kill()
            except Exception:
                pass
        self._widgets.clear()
        self._buttons.clear()

    def handle(self, action: Action) -> None:
        if action.kind == inp.GUI and action.event.type == pygame_gui.UI_BUTTON_PRESSED:
            cb = self._buttons.get(action.event.ui_element)
            if cb is not None:
                cb()
                return
        self.handle_action(action)

    def handle_action(self, action: Action) -> None:
        """Everything but presses of buttons made with :meth:`button`."""

    def on_viewport(self) -> None:
        """The window changed size: refit whatever is not a widget."""

    def on_theme(self) -> None:
        """The theme changed (``app.theme``): restyle what this scene drew with the old one."""

    def closed(self) -> None:
        """Removed from the stack for good."""

    def update(self, dt: float) -> None:
        pass

    def animate(self, dt: float) -> None:
        """Animations that go on while an overlay covers this scene."""

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def draw_front(self, surface: pygame.Surface) -> None:
        """Drawn after the widgets (text that sits on a widget panel)."""

    # -- layout helpers -------------------------------------------------------------

    @property
    def design_size(self) -> tuple[float, float]:
        return self.app.viewport.design_size

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A design-point rectangle in window pixels."""
        return pygame.Rect(self.app.viewport.design_rect_to_screen((x, y, w, h)))

    def keep(self, widget: W) -> W:
        self._widgets.append(widget)
        return widget

    def button(
        self,
        rect: Rect,
        text: str,
        on_press: Callable[[], None],
        cls: str = "@menu_button",
        obj: str | None = None,
        enabled: bool = True,
    ) -> pygame_gui.elements.UIButton:
        b = pygame_gui.elements.UIButton(
            self.rect(*rect), text, self.app.gui, object_id=ObjectID(class_id=cls, object_id=obj)
        )
        if not enabled:
            b.disable()
        self._buttons[b] = on_press
        return self.keep(b)

    def label(
        self, rect: Rect, text: str, cls: str | None = None, obj: str | None = None
    ) -> pygame_gui.elements.UILabel:
        return self.keep(
            pygame_gui.elements.UILabel(
                self.rect(*rect), text, self.app.gui, object_id=ObjectID(class_id=cls, object_id=obj)
            )
        )

    def panel(self, rect: Rect) -> pygame_gui.elements.UIPanel:
        return self.keep(pygame_gui.elements.UIPanel(self.rect(*rect), starting_height=0, manager=self.app.gui))


class Overlay(Scene):
    """Drawn over the scene below, which is dimmed and keeps animating."""

    opaque = False
    dim_alpha = 120

    @property
    def below(self) -> Scene | None:
        return self.app.stack.below(self)

    def update(self, dt: float) -> None:
        b = self.below
        if b is not None:
            b.animate(dt)

    def draw(self, surface: pygame.Surface) -> None:
        if self.dim_alpha:
            surface.blit(self.app.window.veil(surface.get_size(), self.dim_alpha), (0, 0))


class Choices(Generic[T]):
    """Buttons of which one is selected (pygame_gui has no radio group); subclasses lay them out."""

    buttons: list[tuple[T, pygame_gui.elements.UIButton]]

    def _press_for(self, value: T, on_change: Callable[[T], None]) -> Callable[[], None]:
        def press() -> None:
            self.set(value)
            on_change(value)

        return press

    def set(self, value: T) -> None:
        for val, b in self.buttons:
            if val == value:
                b.select()
            else:
                b.unselect()


class ChoiceRow(Choices[T]):
    """A row of segmented buttons, one selected."""

    def __init__(
        self,
        scene: Scene,
        rect: Rect,
        options: Sequence[tuple[T, str]],
        value: T,
        on_change: Callable[[T], None],
        gap: float = 6.0,
    ) -> None:
        x, y, w, h = rect
        n = max(1, len(options))
        bw = (w - gap * (n - 1)) / n
        self.buttons: list[tuple[T, pygame_gui.elements.UIButton]] = []
        for k, (val, text) in enumerate(options):
            b = scene.button((x + k * (bw + gap), y, bw, h), text, self._press_for(val, on_change), cls="@choice")
            self.buttons.append((val, b))
        self.set(value)
