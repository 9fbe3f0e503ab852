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
import weakref
from collections.abc import Iterable, Iterator, Sequence
from typing import Literal, SupportsIndex, get_args, overload

import numpy as np

from triangles import kernels as K
from triangles.kernels import BoardArrays, GameArrays
from triangles.scatter import poisson_scatter, whole_number

__all__ = [
    "Board",
    "Game",
    "IllegalMove",
    "LegalMoves",
    "REASONS",
    "Reason",
    "Refusal",
    "Move",
    "Triangle",
    "BoardArrays",
    "GameArrays",
]

#: Why a line may be refused by the drawing rules, in the order they are checked.
Reason = Literal["same_star", "exists", "through_star", "crosses"]
REASONS: tuple[Reason, ...] = get_args(Reason)
#: A refused ``play``: a drawing rule, or the game is already over.
Refusal = Reason | Literal["game_over"]

Move = tuple[int, int]
Triangle = tuple[int, int, int]


class IllegalMove(ValueError):
    """A refused move; ``reason`` is one of :data:`REASONS` or ``"game_over"``."""

    def __init__(self, reason: Refusal, move: Move | None = None) -> None:
        self.reason = reason
        self.move = move
        where = f" {move[0]}-{move[1]}" if move is not None else ""
        super().__init__(f"illegal move{where}: {reason}")


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _max_triangles(stars: np.ndarray) -> int:
    """``2n - h - 2`` for the hull's corners ``h`` (monotone chain).

    A turn within rounding of straight counts as no corner: a star on the hull
    between two corners, or one mistaken for it, only makes the bound larger,
    never smaller than what a game can score.
    """
    n = int(stars.shape[0])
    if n < 3:
        return 0
    pts = sorted((float(x), float(y)) for x, y in stars)
    span = max(float(np.ptp(stars[:, 0])), float(np.ptp(stars[:, 1])), 1e-300)
    straight = 1e-9 * span * span  # |orient| below this: collinear
    corners = 0
    for seq in (pts, pts[::-1]):
        chain: list[tuple[float, float]] = []
        for q in seq:
            while len(chain) >= 2 and K.orient(*chain[-2], *chain[-1], *q) <= straight:
                chain.pop()
            chain.append(q)
        corners += len(chain) - 1
    if corners < 3:  # every star on one line: no triangle at all
        return 0
    return 2 * n - corners - 2


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
                x, y = (float(v) for v in arr[a])
                raise ValueError(f"stars {a} and {b} are at the same place ({x:g}, {y:g})")
        self._stars = _readonly(np.ascontiguousarray(arr))
        self._tol = tol
        self._max_tri = _max_triangles(arr)
        xs = np.ascontiguousarray(arr[:, 0])
        ys = np.ascontiguousarray(arr[:, 1])
        pi, pj, pid = K.pair_tables(n)
        clear = K.clear_mask(xs, ys, pi, pj, tol)
        cells, cell_pairs = K.empty_cells(xs, ys, pid, clear)
        inc_ptr, inc_cell = K.incidence(pi.shape[0], cell_pairs)
        self._arrays = BoardArrays(
            xs=xs,
            ys=ys,
            pi=pi,
            pj=pj,
            pid=pid,
            clear=clear,
            cells=cells,
            cell_pairs=cell_pairs,
            inc_ptr=inc_ptr,
            inc_cell=inc_cell,
        )
        for array in self._arrays:
            _readonly(array)

    # -- construction --------------------------------------------------------

    @classmethod
    def random(cls, n: int, width: float, height: float, seed: int, tolerance: float = 3.0) -> Board:
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
    def arrays(self) -> BoardArrays:
        """The board's static arrays, read-only, by field name (see :class:`triangles.kernels.BoardArrays`).

        What a search kernel or a renderer needs beyond the methods here:
        stars, pair tables, cells and the pair-to-cell incidence lists.
        """
        return self._arrays

    @property
    def n(self) -> int:
        return int(self._stars.shape[0])

    def __len__(self) -> int:
        return self.n

    @property
    def npairs(self) -> int:
        return int(self._arrays.pi.shape[0])

    @property
    def pairs(self) -> np.ndarray:
        """(npairs, 2) int: the stars of each candidate line, in pair-id order."""
        return np.stack([self._arrays.pi, self._arrays.pj], axis=1)

    @property
    def clear(self) -> np.ndarray:
        """uint8 mask over pairs: 1 when no other star is within the tolerance."""
        return self._arrays.clear

    @property
    def cells(self) -> np.ndarray:
        """(m, 3) star ids of every triangle that could ever score (empty, clear sides)."""
        return self._arrays.cells

    @property
    def max_triangles(self) -> int:
        """Most triangles a whole game can score: ``2n - h - 2`` (``h`` corners of the convex hull).

        The closed triangles of a finished game are faces of one plane drawing,
        and a plane drawing on these stars has at most as many triangular faces
        as a triangulation of them.  Fewer are scored when the tolerance forbids
        a line a triangulation needs.  The exact search prunes with it.
        """
        return self._max_tri

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
        return int(self._arrays.pid[a, b])

    def pair(self, p: int) -> Move:
        """The stars ``(i, j)``, i < j, of pair id ``p``."""
        return int(self._arrays.pi[p]), int(self._arrays.pj[p])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._tol == other._tol and np.array_equal(self._stars, other._stars)

    def __hash__(self) -> int:
        return hash((self._tol, self._stars.tobytes()))

    def __repr__(self) -> str:
        return f"Board(n={self.n}, tolerance={self._tol})"


class LegalMoves(Sequence[Move]):
    """The legal moves of one position as a sorted sequence of ``(i, j)``, i < j.

    A cheap view (python-chess's ``LegalMoveGenerator``): making one costs O(1);
    ``len`` and ``in`` ask the game directly, and the sorted pair ids are
    gathered (in C, once per position) only when the moves are indexed or
    iterated, so ``random.choice(game.legal_moves())`` is as fast as the array
    path.  It compares equal to the list of the same moves, and like that list
    it keeps describing the position it was taken in: a view still alive when
    the game changes is filled in first.
    """

    __slots__ = ("_game", "_ids", "__weakref__")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._ids: np.ndarray | None = None
        views = game._views
        if len(views) >= 64:  # many views and no move yet: forget the dead ones
            views[:] = [r for r in views if (v := r()) is not None and v._ids is None]
        views.append(weakref.ref(self))

    def _current(self) -> bool:
        return self._ids is None

    def pair_ids(self) -> np.ndarray:
        """The legal pair ids, sorted (read-only int64 array)."""
        if self._ids is None:
            self._ids = self._game._legal_ids()
        return self._ids

    def __len__(self) -> int:
        if self._current():
            return self._game.legal_count()
        return int(self.pair_ids().shape[0])

    @overload
    def __getitem__(self, index: SupportsIndex) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...
    def __getitem__(self, index: SupportsIndex | slice) -> Move | list[Move]:
        ids = self.pair_ids()
        pair = self._game.board.pair
        if isinstance(index, slice):
            return [pair(int(p)) for p in ids[index]]
        return pair(int(ids[index]))

    def __iter__(self) -> Iterator[Move]:
        pair = self._game.board.pair
        return (pair(int(p)) for p in self.pair_ids())

    def __contains__(self, move: object) -> bool:
        if not (isinstance(move, tuple) and len(move) == 2):
            return False
        i, j = move
        board = self._game.board
        if not (isinstance(i, (int, np.integer)) and isinstance(j, (int, np.integer))):
            return False
        if not 0 <= i < j < board.n:  # the list holds (i, j) with i < j only
            return False
        if self._current():
            return self._game.is_legal(int(i), int(j))
        p = board.pair_id(int(i), int(j))
        ids = self.pair_ids()
        k = int(np.searchsorted(ids, p))
        return k < ids.shape[0] and int(ids[k]) == p

    def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
        """(k, 2) int32 array, so numpy (``rng.choice``, ``np.asarray``) reads it in C."""
        out = self._game.board.pairs[self.pair_ids()]
        return out if dtype is None else out.astype(dtype)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves):
            return np.array_equal(self.pair_ids(), other.pair_ids()) and self._game.board is other._game.board
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalMoves({list(self)!r})"


class Game:
    """A position on a board, with its history.  Player 0 moves first.

    >>> g = Game(Board([(0, 0), (100, 0), (100, 100), (0, 100)]))
    >>> g.play(0, 1), g.play(1, 2), g.play(0, 2)
    ([], [], [(0, 1, 2)])
    >>> g.scores, g.player
    ((1, 0), 1)
    """

    def __init__(self, board: Board, extra_turn: bool = False) -> None:
        self.board = board
        self.extra_turn = bool(extra_turn)
        self._S = board.arrays
        self._D = K.new_state(self._S, self.extra_turn)
        self._bind()
        self._version = 0  # bumped on every change (keys the legal-ids cache)
        self._ids_cache: tuple[int, np.ndarray] | None = None
        self._views: list[weakref.ref[LegalMoves]] = []  # views not yet filled in

    @classmethod
    def from_moves(cls, board: Board, moves: Iterable[Sequence[int]], extra_turn: bool = False) -> Game:
        """Replay ``moves`` from the empty board; IllegalMove names the first bad one."""
        g = cls(board, extra_turn)
        for i, j in moves:
            g.play(i, j)
        return g

    def clone(self) -> Game:
        """An independent copy (shares the immutable board)."""
        g = Game.__new__(Game)
        g.board = self.board
        g.extra_turn = self.extra_turn
        g._S = self._S
        g._D = K.copy_state(self._D)
        g._bind()
        g._version = 0
        g._ids_cache = None
        g._views = []
        return g

    def _bind(self) -> None:
        """Shortcuts into ``_D``: one-element views of the counters, and plain tuples for the kernel calls.

        (A field view ``counters["live"]`` read as ``[0]`` costs 55 ns; ``counters[0]["live"]`` 350 ns.)
        """
        c = self._D.counters
        self._player, self._score0, self._score1 = c["player"], c["score0"], c["score1"]
        self._nmoves, self._live, self._nlegal = c["nmoves"], c["live"], c["nlegal"]
        self._S_fields = tuple(self._S)
        self._D_fields = tuple(self._D)

    def arrays(self) -> GameArrays:
        """A private, writable copy of the position's arrays, by field name.

        What a search works on (:class:`triangles.kernels.GameArrays`, with
        ``board.arrays`` as its static half): the kernels ``apply_line`` /
        ``undo_line`` change it, never the game.
        """
        return K.copy_state(self._D)

    # -- state ---------------------------------------------------------------

    @property
    def player(self) -> int:
        """Whose turn it is: 0 or 1 (after the end, who would have moved)."""
        return int(self._player[0])

    @property
    def scores(self) -> tuple[int, int]:
        return int(self._score0[0]), int(self._score1[0])

    @property
    def move_count(self) -> int:
        return int(self._nmoves[0])

    @property
    def lines(self) -> list[tuple[Move, int]]:
        """Drawn lines in order, each ``((i, j), player)`` with i < j."""
        nm = self.move_count
        pi, pj = self._S.pi, self._S.pj
        ps = self._D.moves[:nm]
        owners = self._D.move_player[:nm]
        return [((int(pi[p]), int(pj[p])), int(o)) for p, o in zip(ps, owners, strict=True)]

    @property
    def moves(self) -> list[Move]:
        """Drawn lines in order, as ``(i, j)`` with i < j."""
        return [m for m, _ in self.lines]

    @property
    def last_move(self) -> Move | None:
        nm = self.move_count
        return self.board.pair(int(self._D.moves[nm - 1])) if nm else None

    def closed_cells(self, k: int) -> tuple[int, ...]:
        """The cells (rows of ``board.cells``) that the ``k``-th drawn line closed (0-based).

        Recorded by the engine as the line was drawn, so a renderer need not work it out again.
        """
        if not 0 <= k < self.move_count:
            raise IndexError(f"line {k} has not been drawn ({self.move_count} so far)")
        return tuple(int(c) for c in self._D.move_closed[k] if c >= 0)

    def closed_triangles(self, k: int) -> list[Triangle]:
        """The triangles ``(i, j, l)`` that the ``k``-th drawn line closed, sorted."""
        cells = self.board.cells
        return sorted((int(cells[c, 0]), int(cells[c, 1]), int(cells[c, 2])) for c in self.closed_cells(k))

    @property
    def triangles(self) -> list[tuple[Triangle, int]]:
        """Scored triangles ``((i, j, k), owner)`` with i < j < k, sorted."""
        owner = self._D.cell_owner
        cells = self.board.cells
        return [
            ((int(cells[c, 0]), int(cells[c, 1]), int(cells[c, 2])), int(owner[c])) for c in np.flatnonzero(owner >= 0)
        ]

    @property
    def triangle_owner(self) -> np.ndarray:
        """Read-only int8 per cell (``board.cells``): owner, or -1 while not closed."""
        v = self._D.cell_owner.view()
        v.flags.writeable = False
        return v

    @property
    def line_owner(self) -> np.ndarray:
        """Read-only int8 per pair: owner of the drawn line, or -1."""
        v = self._D.line_owner.view()
        v.flags.writeable = False
        return v

    def legal_mask(self) -> np.ndarray:
        """Read-only bool view over pair ids: True where a line may be drawn now.

        After the end of the game the mask still shows the lines that would be
        allowed by the drawing rules; ``legal_moves()`` is empty then.
        """
        v = self._D.legal.view(np.bool_)
        v.flags.writeable = False
        return v

    def legal_count(self) -> int:
        return 0 if self.is_over() else int(self._nlegal[0])

    def _legal_ids(self) -> np.ndarray:
        """Sorted legal pair ids of this position (cached until the next change)."""
        cache = self._ids_cache
        if cache is not None and cache[0] == self._version:
            return cache[1]
        ids = np.empty(0, np.int64) if self.is_over() else np.flatnonzero(self._D.legal)
        ids.flags.writeable = False
        self._ids_cache = (self._version, ids)
        return ids

    def _changing(self) -> None:
        """Before any change: views of this position that are still alive take their snapshot."""
        if self._views:
            for ref in self._views:
                view = ref()
                if view is not None and view._ids is None:
                    view._ids = self._legal_ids()
            self._views.clear()
        self._version += 1

    def legal_moves_array(self) -> np.ndarray:
        """(k, 2) int array of the legal moves, sorted; empty when the game is over."""
        ids = self._legal_ids()
        return np.stack([self._S.pi[ids], self._S.pj[ids]], axis=1)

    def legal_moves(self) -> LegalMoves:
        """The legal ``(i, j)``, i < j, sorted, as a cheap :class:`LegalMoves` view; empty when the game is over."""
        return LegalMoves(self)

    def is_legal(self, i: int, j: int) -> bool:
        return not self.is_over() and self.why_illegal(i, j) is None

    def why_illegal(self, i: int, j: int) -> Reason | None:
        """None if the drawing rules allow line i-j now, else the first reason.

        ValueError for star indices out of range.  The end of the game is not a
        drawing rule: see :meth:`play` for ``"game_over"``.
        """
        b = self.board
        a, c = b.check_star(i), b.check_star(j)
        if a == c:
            return "same_star"
        p = self._S.pid[a, c]
        if self._D.line_owner[p] >= 0:
            return "exists"
        if self._S.clear[p] == 0:
            return "through_star"
        if self._D.legal[p] == 0:
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
        if self._live[0] == 0:
            raise IllegalMove("game_over", move)
        self._changing()
        closed = K.apply_line_py(self._S_fields, self._D_fields, int(self._S.pid[move]))
        if closed == 0:
            return []
        return self.closed_triangles(self.move_count - 1)

    def undo(self) -> Move:
        """Take back the last line exactly; ValueError when nothing has been drawn."""
        if self._nmoves[0] == 0:
            raise ValueError("nothing to undo")
        self._changing()
        p = K.undo_line_py(self._S_fields, self._D_fields)
        return self.board.pair(p)

    # -- the end -------------------------------------------------------------

    def is_over(self) -> bool:
        """True when no empty triangle can still be closed."""
        return bool(self._live[0] == 0)

    def live_triangles(self) -> int:
        """How many empty triangles can still be closed (0 once the game is over)."""
        return int(self._live[0])

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
