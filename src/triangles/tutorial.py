"""The How to play examples as data, played through the real rules engine.

Why here and not in the screen: the rules' own examples (a crossing refused, a
line through a star refused, a triangle with a star inside, two triangles with
one line, moving again, a drawn game) must never disagree with the engine.
Each :class:`Example` is a small board and a script of moves with what the
rules text says should happen; :func:`play_example` plays the script through a
real :class:`~triangles.rules.Game` and returns one :class:`Frame` per step
with the engine's *actual* verdicts (the reason from ``why_illegal``, the
triangles from ``play``, scores, whose turn).  The screen draws those frames;
the tests check them against the script.  No pygame, no translations: text is
referred to by catalog keys only.
"""

from __future__ import annotations

from dataclasses import dataclass

from triangles.rules import Board, Game, Move, Reason, Refusal, Triangle

__all__ = ["Step", "Example", "Frame", "EXAMPLES", "play_example", "mismatches", "example"]

Point = tuple[float, float]


@dataclass(frozen=True)
class Step:
    """One scripted move and what the rules text expects the engine to say about it."""

    move: Move
    #: the expected refusal (the line is not drawn), or None for a line that is drawn
    refused: Reason | None = None
    #: how many triangles the line is expected to score
    scores: int = 0


@dataclass(frozen=True)
class Example:
    """A small board (star coordinates in board units, y down) and its script."""

    key: str  # "cross", "through", ...
    #: catalog keys of its short title, its caption (the rules text's figure caption) and its explanation
    title: str
    caption: str
    text: str
    stars: tuple[Point, ...]
    labels: tuple[str, ...]
    steps: tuple[Step, ...]
    extra_turn: bool = False
    tolerance: float = 3.0

    def board(self) -> Board:
        return Board(self.stars, self.tolerance)


@dataclass(frozen=True)
class Frame:
    """The position after ``index`` steps (0: the empty board) and what the last step did.

    Everything here was read from the engine, not from the script.
    """

    index: int
    #: the step's line (None for frame 0)
    move: Move | None
    #: who drew or tried the line (None for frame 0)
    player: int | None
    #: the engine's refusal of the line, or None when it was drawn
    refused: Refusal | None
    #: triangles the line scored, as the engine recorded them
    closed: tuple[Triangle, ...]
    #: triangles the line completed (all three sides drawn) that did *not* score
    unscored: tuple[Triangle, ...]
    #: for each unscored triangle, the stars inside it or on a side (why it did not score)
    inside: tuple[tuple[int, ...], ...]
    #: the lines on the board after the step, ``((i, j), owner)`` in drawing order
    lines: tuple[tuple[Move, int], ...]
    #: the scored triangles after the step, ``((i, j, k), owner)``
    triangles: tuple[tuple[Triangle, int], ...]
    scores: tuple[int, int]
    #: whose turn it is after the step
    to_move: int
    #: the same player moves again because the line scored and the option is on
    moves_again: bool
    #: 1-based number of the drawn line (None when refused or for frame 0)
    move_number: int | None
    over: bool
    winner: int | None


SQUARE: tuple[Point, ...] = ((0.0, 200.0), (200.0, 200.0), (200.0, 0.0), (0.0, 0.0))  # A B C D, counter-clockwise
ABCD = ("A", "B", "C", "D")
A, B, C, D, E = 0, 1, 2, 3, 4

#: The six examples of the rules text, in its order.
EXAMPLES: tuple[Example, ...] = (
    # 1. B-D would cross A-C; lines may still share a star
    Example(
        "cross",
        "howto.cross.title",
        "howto.cross.caption",
        "howto.cross.text",
        SQUARE,
        ABCD,
        (Step((A, C)), Step((B, D), refused="crosses"), Step((B, C))),
    ),
    # 2. A-C would pass (within the tolerance) through B; A-B and B-C are fine
    Example(
        "through",
        "howto.through.title",
        "howto.through.caption",
        "howto.through.text",
        ((0.0, 160.0), (101.0, 81.0), (200.0, 0.0), (10.0, 10.0)),
        ABCD,
        (Step((A, C), refused="through_star"), Step((A, B)), Step((B, C))),
    ),
    # 3. the big triangle ABC with D inside scores nothing; the three small ones around D do
    Example(
        "inside",
        "howto.inside.title",
        "howto.inside.caption",
        "howto.inside.text",
        ((0.0, 200.0), (220.0, 200.0), (110.0, 0.0), (110.0, 130.0)),
        ABCD,
        (
            Step((A, B)),
            Step((B, C)),
            Step((A, C), scores=0),
            Step((D, A)),
            Step((D, B), scores=1),
            Step((C, D), scores=2),
        ),
    ),
    # 4. the square's diagonal closes ABC and ACD at once
    Example(
        "diagonal",
        "howto.diagonal.title",
        "howto.diagonal.caption",
        "howto.diagonal.text",
        SQUARE,
        ABCD,
        (Step((A, B)), Step((B, C)), Step((C, D)), Step((D, A)), Step((A, C), scores=2)),
    ),
    # 5. Move again after a triangle: Player 1 closes ABC on move 3 and draws again
    Example(
        "again",
        "howto.again.title",
        "howto.again.caption",
        "howto.again.text",
        SQUARE,
        ABCD,
        (Step((A, B)), Step((B, C)), Step((A, C), scores=1), Step((C, D)), Step((D, A), scores=1)),
        extra_turn=True,
    ),
    # 6. a short game: a square with a star in the middle, two triangles each
    Example(
        "draw",
        "howto.draw.title",
        "howto.draw.caption",
        "howto.draw.text",
        SQUARE + ((100.0, 100.0),),
        ABCD + ("E",),
        (
            Step((A, B)),
            Step((C, D)),
            Step((A, E)),
            Step((C, E)),
            Step((B, E), scores=1),
            Step((D, E), scores=1),
            Step((B, C), scores=1),
            Step((D, A), scores=1),
        ),
    ),
)


def example(key: str) -> Example:
    """The example with this key (KeyError names it)."""
    for ex in EXAMPLES:
        if ex.key == key:
            return ex
    raise KeyError(key)


def _side(p: Point, q: Point, r: Point) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _stars_in(board: Board, tri: Triangle) -> tuple[int, ...]:
    """Stars inside the triangle or on a side: only to *name* why it did not score (the engine decided)."""
    pts = [(float(x), float(y)) for x, y in board.stars]
    a, b, c = (pts[k] for k in tri)
    found = []
    for k, p in enumerate(pts):
        if k in tri:
            continue
        s1, s2, s3 = _side(a, b, p), _side(b, c, p), _side(c, a, p)
        if (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0):
            found.append(k)
    return tuple(found)


def _completed(game: Game, move: Move) -> list[Triangle]:
    """Triangles whose three sides are drawn now and one of them is ``move``."""
    drawn = {m for m, _ in game.lines}
    i, j = move
    out = []
    for k in range(game.board.n):
        if k in move:
            continue
        if (min(i, k), max(i, k)) in drawn and (min(j, k), max(j, k)) in drawn:
            out.append(tuple(sorted((i, j, k))))
    return sorted(out)  # type: ignore[arg-type]


def _frame(
    game: Game,
    index: int,
    move: Move | None,
    player: int | None,
    refused: Refusal | None,
    closed: list[Triangle],
    move_number: int | None,
) -> Frame:
    unscored: list[Triangle] = []
    if move is not None and refused is None:
        unscored = [t for t in _completed(game, move) if t not in closed]
    return Frame(
        index=index,
        move=move,
        player=player,
        refused=refused,
        closed=tuple(closed),
        unscored=tuple(unscored),
        inside=tuple(_stars_in(game.board, t) for t in unscored),
        lines=tuple(game.lines),
        triangles=tuple(game.triangles),
        scores=game.scores,
        to_move=game.player,
        moves_again=bool(closed) and player is not None and game.player == player and not game.is_over(),
        move_number=move_number,
        over=game.is_over(),
        winner=game.winner(),
    )


def play_example(ex: Example) -> list[Frame]:
    """Play ``ex`` through a real Game: frame 0 (the empty board) and one frame per step.

    A step the engine refuses leaves the position as it was (and the same
    player to move), exactly as in a real game; the verdict is the engine's,
    whatever the script expected (compare with :func:`mismatches`).
    """
    game = Game(ex.board(), extra_turn=ex.extra_turn)
    frames = [_frame(game, 0, None, None, None, [], None)]
    for k, step in enumerate(ex.steps, start=1):
        i, j = step.move
        move = (int(i), int(j))  # as the script says it ("D–A"), not sorted
        player = game.player
        why: Refusal | None = game.why_illegal(i, j)
        if why is None and game.is_over():
            why = "game_over"
        if why is None:
            closed = game.play(i, j)
            frames.append(_frame(game, k, move, player, None, closed, game.move_count))
        else:
            frames.append(_frame(game, k, move, player, why, [], None))
    return frames


def mismatches(ex: Example, frames: list[Frame] | None = None) -> list[str]:
    """Where the engine disagrees with the script (empty when it agrees everywhere)."""
    frames = play_example(ex) if frames is None else frames
    out = []
    for step, fr in zip(ex.steps, frames[1:], strict=True):
        if fr.refused != step.refused:
            out.append(f"{ex.key} step {fr.index} {step.move}: engine says {fr.refused}, script {step.refused}")
        elif len(fr.closed) != step.scores:
            out.append(f"{ex.key} step {fr.index} {step.move}: scored {len(fr.closed)}, script {step.scores}")
    return out
