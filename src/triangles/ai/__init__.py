"""The computer opponent: one search engine, levels as data, an exact solver.

No pygame here: the UI calls :func:`choose_move` from a worker thread.
"""

from triangles.ai.api import SearchInfo, choose_move, hint, last_info, warm_up
from triangles.ai.levels import LEVELS, Level
from triangles.ai.solver import solve

__all__ = ["LEVELS", "Level", "SearchInfo", "choose_move", "hint", "last_info", "solve", "warm_up"]
