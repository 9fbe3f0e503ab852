"""The rules of Triangles: boards, games, legality, scoring, the end.

This is the contract everything else stands on (UI, AI, records, replay).  It is
pure: numpy and the numba kernels, never pygame, importable without a display.

A :class:`Board` is the immutable star field plus what follows from it alone:
which lines are clear of stars and which triangles could ever score ("cells").
A :class:`Game` is the position on a board: lines drawn, their owners, scores,
whose turn.  ``play``/``undo`` are exact inverses (python-chess ``push``/``pop``),
and ``clone`` is cheap (OpenSpiel), so searches and the UI share one path.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

import numpy as np

from triangles import kernels as K
from triangles.scatter import poisson_scatter, whole_number

__all__ = ["Board", "Game", "IllegalMove", "REASONS"]

#: Why a line may be refused, in the order they are checked.
REASONS = ("same_star", "exists", "through_star", "crosses")

Move = tuple[int, int]
Triangle = tuple[int, int, int]


class IllegalMove(ValueError):
    """A refused move; ``reason`` is one of :data:`REASONS` or ``"game_over"``."""

    def __init__(self, reason: str, move: Move | None = None) -> None:
        self.reason = reason
        self.move = move
        where = f" {move[0]}-{move[1]}" if move is not None else ""
        super().__init__(f"illegal move{where}: {reason}")


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


class Board:
    """Stars in board units and the tolerance for "passes through a star".

    ``stars`` is any (n, 2) sequence of finite numbers with no two stars at the
    same place; ``tolerance`` is a distance in the same units (>= 0).
    """

    def __init__(self, stars: Sequence[Sequence[float]] | np.ndarray, tolerance: float = 3.0) -> None:
        try:
            arr = np.array(stars, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"stars must be an (n, 2) array of numbers: {exc}") from None
        if arr.size == 0:
            arr = arr.reshape(0, 2)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError(f"stars must have shape (n, 2), got {arr.shape}")
        if not np.all(np.isfinite(arr)):
            bad = int(np.flatnonzero(~np.isfinite(arr).all(axis=1))[0])
            raise ValueError(f"star {bad} has a coordinate that is NaN or infinite")
        try:
            tol = float(tolerance)
        except (TypeError, ValueError):
            raise ValueError(f"tolerance must be a number, got {tolerance!r}") from None
        if not math.isfinite(tol) or tol < 0:
            raise ValueError(f"tolerance must be a finite number >= 0, got {tolerance!r}")
        n = arr.shape[0]
        if n > 1:
            order = np.lexsort((arr[:, 1], arr[:, 0]))
            s = arr[order]
            same = np.flatnonzero(np.all(s[1:] == s[:-1], axis=1))
            if same.size:
                a, b = sorted((int(order[same[0]]), int(order[same[0] + 1])))
                raise ValueError(f"stars {a} and {b} are at the same place {tuple(arr[a])}")
        self._stars = _readonly(np.ascontiguousarray(arr))
        self._tol = tol
        xs = np.ascontiguousarray(arr[:, 0])
        ys = np.ascontiguousarray(arr[:, 1])
        pi, pj, pid = K.pair_tables(n)
        clear = K.clear_mask(xs, ys, pi, pj, tol)
        cells, cell_pairs = K.empty_cells(xs, ys, pid, clear)
        inc_ptr, inc_cell = K.incidence(pi.shape[0], cell_pairs)
        for a in (xs, ys, pi, pj, pid, clear, cells, cell_pairs, inc_ptr, inc_cell):
            _readonly(a)
        self._pid = pid
        self._clear = clear
        self._cell_pairs = cell_pairs
        #: static tuple handed to the kernels (see triangles.kernels)
        self.kernel_data = (xs, ys, pi, pj, cells, cell_pairs, inc_ptr, inc_cell)

    # -- construction --------------------------------------------------------

    @classmethod
    def random(
        cls, n: int, width: float, height: float, seed: int, tolerance: float = 3.0
    ) -> "Board":
        """A reproducible scatter of ``n`` stars in ``[0, width] x [0, height]``.

        Dart throwing with a minimum spacing (Poisson-disk style) derived from the
        area per star, so stars never crowd or hide one another.  Only uniform
        doubles from PCG64, arithmetic and rounding are used, so the same
        arguments give the same board on every machine.
        """
        return cls(poisson_scatter(n, width, height, seed, tolerance), tolerance)

    # -- what follows from the stars alone ----------------------------------

    @property
    def stars(self) -> np.ndarray:
        """(n, 2) float64, read-only."""
        return self._stars

    @property
    def tolerance(self) -> float:
        return self._tol

    @property
    def n(self) -> int:
        return int(self._stars.shape[0])

    def __len__(self) -> int:
        return self.n

    @property
    def npairs(self) -> int:
        return int(self.kernel_data[2].shape[0])

    @property
    def pairs(self) -> np.ndarray:
        """(npairs, 2) int: the stars of each candidate line, in pair-id order."""
        return np.stack([self.kernel_data[2], self.kernel_data[3]], axis=1)

    @property
    def clear(self) -> np.ndarray:
        """uint8 mask over pairs: 1 when no other star is within the tolerance."""
        return self._clear

    @property
    def cells(self) -> np.ndarray:
        """(m, 3) star ids of every triangle that could ever score (empty, clear sides)."""
        return self.kernel_data[4]

    def check_star(self, i: object) -> int:
        k = whole_number(i, "a star index")
        if not 0 <= k < self.n:
            raise ValueError(f"star index {k} is out of range 0..{self.n - 1}")
        return k

    def pair_id(self, i: int, j: int) -> int:
        """Pair id of the line i-j (either order); ValueError when i == j or out of range."""
        a, b = self.check_star(i), self.check_star(j)
        if a == b:
            raise ValueError(f"a line needs two different stars, got {a} twice")
        return int(self._pid[a, b])

    def pair(self, p: int) -> Move:
        return int(self.kernel_data[2][p]), int(self.kernel_data[3][p])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self._tol == other._tol
            and np.array_equal(self._stars, other._stars)
        )

    def __hash__(self) -> int:
        return hash((self._tol, self._stars.tobytes()))

    def __repr__(self) -> str:
        return f"Board(n={self.n}, tolerance={self._tol})"


class Game:
    """A position on a board, with its history.  Player 0 moves first."""

    def __init__(self, board: Board, extra_turn: bool = False) -> None:
        self.board = board
        self.extra_turn = bool(extra_turn)
        ncells = board.cells.shape[0]
        self._S = board.kernel_data
        self._D = K.new_state(board.npairs, ncells, board.clear, self.extra_turn)
        self._st = self._D[0]

    @classmethod
    def from_moves(cls, board: Board, moves: Iterable[Sequence[int]], extra_turn: bool = False) -> "Game":
        """Replay ``moves`` from the empty board; IllegalMove names the first bad one."""
        g = cls(board, extra_turn)
        for i, j in moves:
            g.play(i, j)
        return g

    def clone(self) -> "Game":
        """An independent copy (shares the immutable board)."""
        g = Game.__new__(Game)
        g.board = self.board
        g.extra_turn = self.extra_turn
        g._S = self._S
        g._D = K.copy_state(self._D)
        g._st = g._D[0]
        return g

    # -- state ---------------------------------------------------------------

    @property
    def player(self) -> int:
        """Whose turn it is: 0 or 1 (after the end, who would have moved)."""
        return int(self._st[K.ST_PLAYER])

    @property
    def scores(self) -> tuple[int, int]:
        return int(self._st[K.ST_SCORE0]), int(self._st[K.ST_SCORE1])

    @property
    def move_count(self) -> int:
        return int(self._st[K.ST_NMOVES])

    @property
    def lines(self) -> list[tuple[Move, int]]:
        """Drawn lines in order, each ``((i, j), player)`` with i < j."""
        nm = self.move_count
        pi, pj = self._S[2], self._S[3]
        ps = self._D[6][:nm]
        owners = self._D[7][:nm]
        return [((int(pi[p]), int(pj[p])), int(o)) for p, o in zip(ps, owners)]

    @property
    def moves(self) -> list[Move]:
        """Drawn lines in order, as ``(i, j)`` with i < j."""
        return [m for m, _ in self.lines]

    @property
    def last_move(self) -> Move | None:
        nm = self.move_count
        return self.board.pair(int(self._D[6][nm - 1])) if nm else None

    @property
    def triangles(self) -> list[tuple[Triangle, int]]:
        """Scored triangles ``((i, j, k), owner)`` with i < j < k, sorted."""
        owner = self._D[5]
        cells = self.board.cells
        return [
            ((int(cells[c, 0]), int(cells[c, 1]), int(cells[c, 2])), int(owner[c]))
            for c in np.flatnonzero(owner >= 0)
        ]

    @property
    def triangle_owner(self) -> np.ndarray:
        """Read-only int8 per cell (``board.cells``): owner, or -1 while not closed."""
        v = self._D[5].view()
        v.flags.writeable = False
        return v

    @property
    def line_owner(self) -> np.ndarray:
        """Read-only int8 per pair: owner of the drawn line, or -1."""
        v = self._D[2].view()
        v.flags.writeable = False
        return v

    def legal_mask(self) -> np.ndarray:
        """Read-only bool view over pair ids: True where a line may be drawn now.

        After the end of the game the mask still shows the lines that would be
        allowed by the drawing rules; ``legal_moves()`` is empty then.
        """
        v = self._D[1].view(np.bool_)
        v.flags.writeable = False
        return v

    def legal_count(self) -> int:
        return 0 if self.is_over() else int(self._st[K.ST_NLEGAL])

    def legal_moves_array(self) -> np.ndarray:
        """(k, 2) int array of the legal moves, sorted; empty when the game is over."""
        if self.is_over():
            return np.empty((0, 2), np.int32)
        ids = np.flatnonzero(self._D[1])
        return np.stack([self._S[2][ids], self._S[3][ids]], axis=1)

    def legal_moves(self) -> list[Move]:
        """Sorted list of legal ``(i, j)`` with i < j; empty when the game is over."""
        return [tuple(m) for m in self.legal_moves_array().tolist()]  # type: ignore[misc]

    def is_legal(self, i: int, j: int) -> bool:
        return not self.is_over() and self.why_illegal(i, j) is None

    def why_illegal(self, i: int, j: int) -> str | None:
        """None if the drawing rules allow line i-j now, else the first reason.

        ValueError for star indices out of range.  The end of the game is not a
        drawing rule: see :meth:`play` for ``"game_over"``.
        """
        b = self.board
        a, c = b.check_star(i), b.check_star(j)
        if a == c:
            return "same_star"
        p = b._pid[a, c]
        if self._D[2][p] >= 0:
            return "exists"
        if b._clear[p] == 0:
            return "through_star"
        if self._D[1][p] == 0:
            return "crosses"
        return None

    def closes(self, i: int, j: int) -> int:
        """How many triangles the legal line i-j would score now."""
        return int(K.closing_count(self._S, self._D, self.board.pair_id(i, j)))

    # -- moves ---------------------------------------------------------------

    def play(self, i: int, j: int) -> list[Triangle]:
        """Draw line i-j for the player to move; returns the triangles it closed, sorted.

        Raises IllegalMove (and changes nothing) when the line is not allowed or
        the game is over.
        """
        why = self.why_illegal(i, j)
        move = (min(int(i), int(j)), max(int(i), int(j)))
        if why is not None:
            raise IllegalMove(why, move)
        if self._st[K.ST_LIVE] == 0:
            raise IllegalMove("game_over", move)
        closed = K.apply_line(self._S, self._D, int(self.board._pid[move]))
        if closed == 0:
            return []
        cells = self.board.cells
        out = [tuple(int(v) for v in cells[c]) for c in self._D[10][:closed]]
        out.sort()
        return out  # type: ignore[return-value]

    def undo(self) -> Move:
        """Take back the last line exactly; ValueError when nothing has been drawn."""
        p = K.undo_line(self._S, self._D)
        if p < 0:
            raise ValueError("nothing to undo")
        return self.board.pair(p)

    # -- the end -------------------------------------------------------------

    def is_over(self) -> bool:
        """True when no empty triangle can still be closed."""
        return bool(self._st[K.ST_LIVE] == 0)

    def live_triangles(self) -> int:
        """How many empty triangles can still be closed (0 once the game is over)."""
        return int(self._st[K.ST_LIVE])

    def winner(self) -> int | None:
        """0 or 1 once the game is over and someone has more triangles; else None."""
        if not self.is_over():
            return None
        s0, s1 = self.scores
        if s0 == s1:
            return None
        return 0 if s0 > s1 else 1

    def returns(self) -> tuple[int, int]:
        """Score difference from each player's side (OpenSpiel-style returns)."""
        s0, s1 = self.scores
        return s0 - s1, s1 - s0

    def __repr__(self) -> str:
        return (
            f"Game(n={self.board.n}, lines={self.move_count}, scores={self.scores}, "
            f"player={self.player}, over={self.is_over()})"
        )
