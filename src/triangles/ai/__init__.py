"""The computer opponent: one search engine, three levels, an exact solver.

No pygame here: the UI calls :func:`choose_move` from a worker thread.
"""

from triangles.ai.api import LEVELS, choose_move, hint, last_info, solve, warm_up

__all__ = ["LEVELS", "choose_move", "hint", "last_info", "solve", "warm_up"]
