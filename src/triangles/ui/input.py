"""Raw pygame events become game *actions*, in one place.

Why: the same intent arrives in several shapes (Ctrl+Z or the Undo button,
Escape or right-click, F11 or Alt+Enter), and scenes should not each decode
keyboards and mice.  :func:`translate` is called once per event by the app;
scenes only ever see :class:`Action` values (plus the pygame_gui events of
their own widgets, which arrive as ``Action("gui", event=...)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame
import pygame_gui

__all__ = ["Action", "translate"]

#: action kinds
QUIT = "quit"
FULLSCREEN = "fullscreen"
RESIZE = "resize"
POINTER_DOWN = "pointer_down"
POINTER_UP = "pointer_up"
POINTER_MOVE = "pointer_move"
CANCEL = "cancel"  # Escape / right button: drop the half-drawn line, close a dialog
UNDO = "undo"
REDO = "redo"
HINT = "hint"
CONFIRM = "confirm"  # Enter / Space
NAV = "nav"  # arrow keys: ``dx, dy`` in ``pos``
PREV = "prev"
NEXT = "next"
FIRST = "first"
LAST = "last"
GUI = "gui"  # a pygame_gui event (button pressed, ...)
FOCUS_LOST = "focus_lost"
KEY = "key"  # any other key (``event`` is the KEYDOWN): Tab, letters a scene gives a meaning
ZOOM = "zoom"  # wheel (``pos`` None: about the pointer) or + / - (about the board's middle): ``amount`` steps in
PAN = "pan"  # Shift + arrows: ``dx, dy`` in ``pos``
FIT = "fit"  # 0: the whole board again


@dataclass(frozen=True)
class Action:
    kind: str
    pos: tuple[int, int] | None = None
    event: Any = None
    amount: float = 0.0  # ZOOM: steps in (negative: out)


_GUI_TYPES = frozenset(
    {
        pygame_gui.UI_BUTTON_PRESSED,
        pygame_gui.UI_TEXT_ENTRY_FINISHED,
        pygame_gui.UI_TEXT_ENTRY_CHANGED,
        pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
        pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
        pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION,
        pygame_gui.UI_WINDOW_CLOSE,
        pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED,
    }
)


def translate(event: pygame.event.Event, gui_consumed: bool = False) -> list[Action]:
    """The actions one event means (often none).

    ``gui_consumed``: pygame_gui already used this event (a click on a button,
    typing in a text field), so it must not also act on the board.
    """
    t = event.type
    if t == pygame.QUIT:
        return [Action(QUIT)]
    if t in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
        return [Action(RESIZE)]
    if t == pygame.WINDOWFOCUSLOST:
        return [Action(FOCUS_LOST)]
    if t in _GUI_TYPES:
        return [Action(GUI, event=event)]
    if t == pygame.KEYDOWN:
        mods = getattr(event, "mod", 0)
        key = event.key
        ctrl = bool(mods & (pygame.KMOD_CTRL | pygame.KMOD_META))
        if key == pygame.K_F11 or (key in (pygame.K_RETURN, pygame.K_KP_ENTER) and mods & pygame.KMOD_ALT):
            return [Action(FULLSCREEN)]
        if gui_consumed:
            return []
        if ctrl and key == pygame.K_z:
            return [Action(REDO if mods & pygame.KMOD_SHIFT else UNDO)]
        if ctrl and key == pygame.K_y:
            return [Action(REDO)]
        if key == pygame.K_ESCAPE:
            return [Action(CANCEL)]
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            return [Action(CONFIRM)]
        if key == pygame.K_h and not ctrl:
            return [Action(HINT)]
        arrows = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}
        if key in arrows:
            return [Action(PAN if mods & pygame.KMOD_SHIFT else NAV, pos=arrows[key])]
        text = getattr(event, "unicode", "") or ""
        if key in (pygame.K_PLUS, pygame.K_KP_PLUS, pygame.K_EQUALS) or text == "+":
            return [Action(ZOOM, amount=1.0)]
        if key in (pygame.K_MINUS, pygame.K_KP_MINUS) or text == "-":
            return [Action(ZOOM, amount=-1.0)]
        if key in (pygame.K_0, pygame.K_KP0):
            return [Action(FIT)]
        if key == pygame.K_PAGEUP:
            return [Action(PREV)]
        if key == pygame.K_PAGEDOWN:
            return [Action(NEXT)]
        if key == pygame.K_HOME:
            return [Action(FIRST)]
        if key == pygame.K_END:
            return [Action(LAST)]
        return [Action(KEY, event=event)]
    if gui_consumed:
        return []
    if t == pygame.MOUSEBUTTONDOWN:
        if event.button == 1:
            return [Action(POINTER_DOWN, pos=tuple(event.pos))]
        if event.button == 3:
            return [Action(CANCEL, pos=tuple(event.pos))]
        return []
    if t == pygame.MOUSEBUTTONUP and event.button == 1:
        return [Action(POINTER_UP, pos=tuple(event.pos))]
    if t == pygame.MOUSEMOTION:
        return [Action(POINTER_MOVE, pos=tuple(event.pos))]
    if t == pygame.MOUSEWHEEL:
        steps = float(getattr(event, "precise_y", 0.0) or getattr(event, "y", 0))
        if getattr(event, "flipped", False):
            steps = -steps
        return [Action(ZOOM, amount=steps, event=event)] if steps else []
    return []
