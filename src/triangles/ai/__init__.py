"""The computer opponent: one search engine, three levels, an exact solver.

No pygame here: the UI calls :func:`choose_move` from a worker thread.
"""

from triangles.ai.api import LEVELS, choose_move, hint, solve

__all__ = ["LEVELS", "choose_move", "hint", "solve"]
