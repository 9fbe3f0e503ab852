"""Rendering: themes, the viewport and the cached, incremental board view.

Scenes use :class:`BoardView` (draw + hit-test), :class:`Viewport` (board and
design points <-> window pixels), :class:`Overlay` (hover, rubber band,
flashes, hint) and :func:`load_theme`.
"""

from triangles.ui.render.overlay import Overlay
from triangles.ui.render.theme import Color, Theme, ThemeError, load_theme
from triangles.ui.render.view import BoardView
from triangles.ui.render.viewport import Viewport

__all__ = ["BoardView", "Color", "Overlay", "Theme", "ThemeError", "Viewport", "load_theme"]
