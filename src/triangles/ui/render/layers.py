"""The committed board layer: background + filled triangles + lines + stars.

Everything that only changes when a line is drawn lives in one cached,
window-sized surface, so an idle frame is a single blit.  The layer is kept in
step with the game *incrementally*: a new move draws only its own line and the
triangles it closed (as the game recorded them: ``Game.closed_cells``).
Drawing is always done move by move in game order, so the incremental result
is pixel-identical to a rebuild from scratch.

Two surfaces are kept: ``lines`` (background, triangles, lines) and ``surf``
(``lines`` plus the additive star sprites).  After a move only the dirty
rectangle of ``surf`` is refreshed from ``lines`` and the stars touching it are
re-added under a clip, which again equals a full composition.

Going back (undo, a different game, a replay stepping backwards) restores a
saved copy of ``lines`` and draws forward from there: copies are kept from
before each of the last few moves (undo is instant) and every
``CHECKPOINT_EVERY`` moves (a long undo redraws at most that many moves).  The
empty background is the implicit checkpoint at 0, i.e. a full rebuild.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable

import numpy as np
import pygame

from triangles.rules import Board, Game, Move, Triangle
from triangles.ui.render.primitives import Point, Scratch, dashed_line, fill_triangle, glow_line, triangle_mark
from triangles.ui.render.sprites import blend_flags, lighten, line_px, star_sprite
from triangles.ui.render.theme import Color, Theme
from triangles.ui.render.viewport import Viewport

__all__ = ["BoardLayer"]

UNDO_SNAPSHOTS = 4  # copies before each of the last moves
CHECKPOINT_EVERY = 64  # and every this many moves ...
CHECKPOINTS = 4  # ... the most recent this many of them


class BoardLayer:
    """Cached committed board for one (board, theme, viewport, background)."""

    def __init__(self, board: Board, theme: Theme, viewport: Viewport, background: pygame.Surface) -> None:
        self.board = board
        self.theme = theme
        self.viewport = viewport
        self.background = background
        self.pts = viewport.points_to_screen(board.stars) if board.n else np.zeros((0, 2))
        #: star centres in window pixels, as Python tuples (fast to index per frame)
        self.screen_points: list[tuple[float, float]] = [(float(x), float(y)) for x, y in self.pts]
        self.scratch = Scratch(viewport.window_size, background)
        self._make_star_sprites()
        self.lines = background.copy()
        self.surf = background.copy()
        self.moves: list[tuple[Move, int]] = []  # what the layer shows, in order
        self._index: dict[Move, int] = {}  # move -> index in self.moves
        self._saved: dict[int, pygame.Surface] = {}  # move count -> copy of ``lines`` then
        self._game: weakref.ref[Game] | None = None  # the game last synced (not kept alive)
        self.rebuilds = 0  # statistics, for tests and the benchmark
        self.increments = 0
        self.restores = 0
        self._compose_all()

    # -- stars -------------------------------------------------------------------

    def _make_star_sprites(self) -> None:
        st = self.theme.stars
        scale = self.viewport.scale
        self.star_sprites = [star_sprite(st, t, scale) for t in st.tints]
        rng = np.random.default_rng([self.theme.background.seed, self.board.n])
        self.star_kind: np.ndarray | list[int] = (
            rng.integers(0, len(self.star_sprites), self.board.n) if self.board.n else []
        )
        half = max(h for _, h in self.star_sprites)
        self.star_half = half
        self.star_flags = blend_flags(st.blend)

    def _blit_stars(self, ids: Iterable[int]) -> None:
        for i in ids:
            spr, half = self.star_sprites[self.star_kind[i]]
            x, y = self.screen_points[i]
            self.surf.blit(spr, (round(x) - half, round(y) - half), special_flags=self.star_flags)

    def _compose_all(self) -> None:
        self._stale = False
        self.surf.blit(self.lines, (0, 0))
        self._blit_stars(range(self.board.n))

    def _compose_rect(self, rect: pygame.Rect) -> None:
        rect = rect.clip(self.surf.get_rect())
        if rect.w <= 0 or rect.h <= 0:
            return
        self.surf.blit(self.lines, rect.topleft, rect)
        h = self.star_half
        p = self.pts
        near = np.flatnonzero(
            (p[:, 0] + h >= rect.left - 1)
            & (p[:, 0] - h <= rect.right + 1)
            & (p[:, 1] + h >= rect.top - 1)
            & (p[:, 1] - h <= rect.bottom + 1)
        )
        self.surf.set_clip(rect)
        self._blit_stars(near.tolist())
        self.surf.set_clip(None)

    # -- moves -------------------------------------------------------------------

    def _draw_move(self, move: Move, owner: int, closed: Iterable[Triangle]) -> pygame.Rect:
        """Draw a move (already appended to self.moves) and the triangles it closed, which are ``owner``'s."""
        th = self.theme
        s = self.viewport.scale
        P = self.screen_points
        color = th.player_colors[owner]
        ps = th.players[owner]
        dirty = glow_line(
            self.lines,
            self.scratch,
            P[move[0]],
            P[move[1]],
            color,
            th.line_width(owner) * s,
            th.lines.glow_width * s,
            th.lines.glow_alpha,
            th.lines.core_lighten,
            ps.dash * s,
            ps.gap * s,
        )
        idx = self._index
        for a, b, d in closed:
            sides = ((a, b), (a, d), (b, d))
            tri = [P[a], P[b], P[d]]
            dirty.union_ip(
                fill_triangle(
                    self.lines,
                    self.scratch,
                    tri,
                    color,
                    th.triangles.fill_alpha,
                    th.triangles.center_lighten,
                )
            )
            triangle_mark(self.lines, tri, ps.mark, _core(th, owner), s)
            for e in sides:  # crisp cores back on top of the fill
                self._core_line(self.moves[idx[e]][1], P[e[0]], P[e[1]])
        return dirty

    def _core_line(self, owner: int, a: Point, b: Point) -> None:
        """The crisp core of one of ``owner``'s lines, in their pattern (no glow)."""
        th, s = self.theme, self.viewport.scale
        ps = th.players[owner]
        w = line_px(th.line_width(owner), s)
        if ps.line_style == "dashed":
            dashed_line(self.lines, _core(th, owner), a, b, w, ps.dash * s, ps.gap * s, phase=ps.dash * s / 2)
        else:
            pygame.draw.aaline(self.lines, _core(th, owner), a, b, w)

    def rebuild(self, game: Game) -> None:
        """Redraw everything from the background (for tests and the benchmark)."""
        self._saved.clear()
        self._restore(0)
        self._game = None
        self.sync(game)

    def sync(self, game: Game, upto: int | None = None) -> None:
        """Bring the layer up to date with ``game`` (cheap when nothing changed).

        ``upto``: show only the game's first ``upto`` lines (a zoomed layer is
        built a slice per frame: ``BoardView``); snapshots are kept as for the whole game.
        """
        total = game.move_count
        nm = total if upto is None else max(0, min(total, upto))
        if self._game is not None and self._game() is game and nm == len(self.moves) and nm == total:
            if nm == 0 or game.last_move == self.moves[-1][0]:
                return
        lines = game.lines
        try:
            self._game = weakref.ref(game)
        except TypeError:  # not weak-referenceable: always check fully
            self._game = None
        have = len(self.moves)
        common = 0  # length of the shared history
        while common < min(have, nm) and lines[common] == self.moves[common]:
            common += 1
        if common < have:
            self._restore(common)
        dirty = None
        for k in range(len(self.moves), nm):
            self._save(k, total)
            m, o = lines[k]
            self.moves.append((m, o))
            self._index[m] = k
            r = self._draw_move(m, o, self._closed_by(game, k))
            dirty = r if dirty is None else dirty.union(r)
        if self._stale:
            self._compose_all()
        elif dirty is not None:
            self.increments += 1
            self._compose_rect(dirty.inflate(4, 4))

    def _closed_by(self, game: Game, k: int) -> list[Triangle]:
        """The triangles (sorted stars) that line k closed, in board-cell order: the order they are drawn."""
        cells = self.board.cells
        out: list[Triangle] = []
        for c in sorted(game.closed_cells(k)):
            a, b, d = sorted(int(v) for v in cells[c])
            out.append((a, b, d))
        return out

    def _save(self, k: int, final: int) -> None:
        """Keep a copy of ``lines`` as it is before move k, if the policy wants one."""
        recent = k >= final - UNDO_SNAPSHOTS
        if not recent and (k == 0 or k % CHECKPOINT_EVERY):
            return
        self._saved[k] = self.lines.copy()
        keep_cp = sorted(c for c in self._saved if c % CHECKPOINT_EVERY == 0)[-CHECKPOINTS:]
        for c in list(self._saved):
            if c < final - UNDO_SNAPSHOTS and c not in keep_cp:
                del self._saved[c]

    def _restore(self, count: int) -> None:
        """Go back to at most ``count`` moves from the best saved copy (or the background)."""
        self._stale = True
        best = max((c for c in self._saved if c <= count), default=0)
        if best == 0:
            self.rebuilds += 1
            self.lines.blit(self.background, (0, 0))
        else:
            self.restores += 1
            self.lines.blit(self._saved[best], (0, 0))
        for c in [c for c in self._saved if c > best]:
            del self._saved[c]
        for m, _ in self.moves[best:]:
            del self._index[m]
        del self.moves[best:]


def _core(theme: Theme, owner: int) -> Color:
    return lighten(theme.player_colors[owner], theme.lines.core_lighten)
