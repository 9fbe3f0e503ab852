"""A model of the capture/give phase: what each line hands over once no line is safe.

About 17 moves into a 24-star game (strict alternation) every legal line either
scores or brings some live triangle to two drawn sides, i.e. *gives* it to the
next player.  From then on the game is a sequence of *cascades*: one player
opens (draws a line that gives something), the other takes, and the line that
takes may itself give the next triangle back, and so on, until the player to
move has nothing left to take and must open again.  The search's old static
value counted only the first step (the fewest triangles a line gives); this
module follows the whole cascade.

Vocabulary (over the rules kernels' ``S``/``D`` arrays, :mod:`triangles.kernels`):

*live* cell
    an empty triangle that can still be closed: no side blocked, not all three drawn.
*link*
    a legal pair that is a side of two or more live cells; taking one of those
    cells through it moves the others one side nearer to closing.
*component*
    live cells joined by links (union-find).  Independent components are what a
    player opens one at a time once nothing is safe; the shape class says how a
    cascade runs through one: a *chain* (each cell at most two links, no cycle)
    is eaten from one end, alternately by the two players under strict
    alternation; a *loop* closes on itself; a *tree* branches; *dense* (more
    links than a tree or a loop) is what crossing diagonals make.
*cascade* of a line ``p``
    ``p`` is drawn, then whoever is to move takes while they can (the scoring
    line closing most, then giving least, then the lowest pair id), both
    players alike.  Under strict alternation a capture does not keep the move,
    so the captures of a chain alternate between the players and a chain of
    odd length leaves the opener to open again; under the extra-turn rule the
    taker eats the whole chain and then must open.  The cascade records the
    opener's net points and who must move (open) after it.

Everything is numba (``nogil=True``) and leaves ``D`` exactly as it found it.
Values are in triangles, for the player to move.
"""

from __future__ import annotations

import numpy as np

from triangles import kernels as K
from triangles.ai.effects import line_effect
from triangles.jit import njit
from triangles.kernels import BoardArrays, GameArrays

__all__ = [
    "CHAIN",
    "LOOP",
    "TREE",
    "DENSE",
    "COMPONENT",
    "is_live",
    "effect",
    "components",
    "component_table",
    "cascade",
    "give_options",
    "give_estimate",
    "playout",
    "playout_ranked",
    "leaf_value",
    "greedy_playout",
    "safe_phase_round",
]

#: shape classes of a component (see the module's docstring)
CHAIN = 0
LOOP = 1
TREE = 2
DENSE = 3

#: One row of :func:`component_table`.
COMPONENT = np.dtype(
    [
        ("cells", np.int64),  # live cells in the component
        ("links", np.int64),  # edges: a link on k live cells of the component counts k - 1
        ("maxdeg", np.int64),  # most links on one cell
        ("ready", np.int64),  # cells with two sides drawn (closable now)
        ("shape", np.int64),  # CHAIN, LOOP, TREE or DENSE
    ]
)

_NOWHERE = np.int64(1) << np.int64(30)
#: no ranking: :func:`_take_and_safe` then picks the safe line of lowest pair id
_NO_RANK = np.empty(0, np.float64)

#: A whole number in the kernels: numba's int64 (np.int64 in the typing, an int when returned to Python).
I64 = int | np.int64


@njit(inline="always")
def is_live(D: GameArrays, c: int) -> bool:
    """The cell ``c`` can still be closed (no side blocked, not closed)."""
    return D.cell_blocked[c] == 0 and D.cell_drawn[c] < 3


#: (closes, gives, borders) of the legal pair ``p``: the engine's count, the one place it is made
effect = line_effect


@njit(inline="always")
def _draw_for(S: BoardArrays, D: GameArrays, p: int, me: int, side: np.ndarray) -> I64:
    """Draw ``p`` for the player to move (``side``: :func:`triangles.kernels.draw`'s scratch);
    what it scored, counted for ``me`` (negative when the other scored)."""
    who = D.counters[0].player
    closed = K.draw(S, D, p, side)
    return closed if who == me else -closed


@njit(nogil=True)
def _room(S: BoardArrays, cand: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scratch of the kernels below that make no arrays (they count no references,
    :mod:`triangles.jit`): room for ``cand`` ranked lines (their pairs and keys), and a star's
    side each for :func:`triangles.kernels.draw`."""
    room = max(cand, 1)
    return np.empty(room, np.int64), np.empty(room, np.int64), np.empty(S.xs.shape[0], np.float64)


@njit(inline="always")
def _find(parent: np.ndarray, a: int) -> int:
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@njit(nogil=True)
def components(S: BoardArrays, D: GameArrays, label: np.ndarray) -> int:
    """Group the live cells into components joined by links; returns how many.

    ``label[c]`` (length: cells) receives the component of cell ``c``
    (0, 1, ... in order of each component's lowest cell), -1 when not live.
    """
    m = S.cells.shape[0]
    parent = np.arange(m)
    for t_ in range(D.counters[0].nlegal):
        p = D.legal_list[t_]
        first = -1
        for t in range(S.inc_ptr[p], S.inc_ptr[p + 1]):
            c = S.inc_cell[t]
            if not is_live(D, c):
                continue
            if first < 0:
                first = c
            else:
                a = _find(parent, first)
                b = _find(parent, c)
                if a != b:
                    if a < b:
                        parent[b] = a
                    else:
                        parent[a] = b
    n = 0
    root_label = np.full(m, -1, np.int64)
    for c in range(m):
        if not is_live(D, c):
            label[c] = -1
            continue
        r = _find(parent, c)
        if root_label[r] < 0:
            root_label[r] = n
            n += 1
        label[c] = root_label[r]
    return n


@njit(nogil=True)
def component_table(S: BoardArrays, D: GameArrays, label: np.ndarray, n: int) -> np.ndarray:
    """One :data:`COMPONENT` row per component of ``label`` (from :func:`components`).

    The shape class follows from the link graph: ``links == cells - 1`` is a
    tree (a chain when no cell has more than two links), ``links == cells`` with
    every cell on exactly two links is a loop, anything else is dense.
    """
    out = np.zeros(n, COMPONENT)
    m = S.cells.shape[0]
    deg = np.zeros(m, np.int64)
    for t_ in range(D.counters[0].nlegal):
        p = D.legal_list[t_]
        k = 0
        comp = -1
        for t in range(S.inc_ptr[p], S.inc_ptr[p + 1]):
            c = S.inc_cell[t]
            if is_live(D, c):
                k += 1
                comp = label[c]
        if k >= 2:
            out[comp].links += k - 1
            for t in range(S.inc_ptr[p], S.inc_ptr[p + 1]):
                c = S.inc_cell[t]
                if is_live(D, c):
                    deg[c] += 1
    for c in range(m):
        k = label[c]
        if k < 0:
            continue
        row = out[k]
        row.cells += 1
        if deg[c] > row.maxdeg:
            row.maxdeg = deg[c]
        if D.cell_drawn[c] == 2:
            row.ready += 1
    for k in range(n):
        row = out[k]
        cells = row.cells
        links = row.links
        if links == cells - 1:
            row.shape = CHAIN if row.maxdeg <= 2 else TREE
        elif links == cells and row.maxdeg == 2:
            row.shape = LOOP
        else:
            row.shape = DENSE
    return out


@njit(nogil=True, refcount=False)
def _take(S: BoardArrays, D: GameArrays) -> int:
    """The scoring line the mover takes in a cascade: most closed, then fewest
    given, then the lowest pair id; -1 when nothing can be closed."""
    return _take_and_safe(S, D, _NO_RANK)[0]


@njit(nogil=True)
def cascade(S: BoardArrays, D: GameArrays, p: int) -> tuple[int, int, bool]:
    """Draw the legal pair ``p``, then let each player in turn take while they can.

    Returns ``(net, plies, opener_again)``: the points the player to move
    (the *opener*) scores in the cascade minus the other's, the lines drawn
    (``p`` included), and whether the opener is the one to move once nothing
    is left to take.  ``D`` is restored.
    """
    st = D.counters[0]
    opener = st.player
    net = 0
    plies = 0
    q = p
    side = np.empty(S.xs.shape[0], np.float64)
    while q >= 0:
        net += _draw_for(S, D, q, opener, side)
        plies += 1
        if st.live == 0:
            break
        q = _take(S, D)
    again = st.player == opener
    for _ in range(plies):
        K.undo_line(S, D)
    return net, plies, again


@njit(nogil=True)
def give_options(S: BoardArrays, D: GameArrays, pairs: np.ndarray, net: np.ndarray, again: np.ndarray) -> int:
    """The cascade of every legal line: fills ``pairs``, ``net`` and ``again``
    (arrays of at least ``nlegal`` entries) and returns how many."""
    k = 0
    for t_ in range(D.counters[0].nlegal):
        p = D.legal_list[t_]
        v, _, a = cascade(S, D, p)
        pairs[k] = p
        net[k] = v
        again[k] = 1 if a else 0
        k += 1
    return k


@njit(nogil=True, refcount=False)
def _min_give(S: BoardArrays, D: GameArrays) -> I64:
    """Fewest triangles a non-scoring line gives (0 when a safe line exists; 0 when every line scores)."""
    best = _NOWHERE
    for t_ in range(D.counters[0].nlegal):
        p = D.legal_list[t_]
        closes, gives, _ = effect(S, D, p)
        if closes == 0 and gives < best:
            best = gives
            if best == 0:
                return 0
    return 0 if best == _NOWHERE else best


@njit(nogil=True)
def _cheapest(S: BoardArrays, D: GameArrays, pairs: np.ndarray) -> int:
    """The lines the give phase considers first, best first, into ``pairs``
    (as many as it holds): every scoring line, most closed first, then the
    lines giving fewest; the lowest pair id among equals.  Returns how many."""
    return _cheapest_ranked(S, D, pairs, _NO_RANK)


@njit(nogil=True)
def _cheapest_ranked(S: BoardArrays, D: GameArrays, pairs: np.ndarray, prio: np.ndarray) -> int:
    """:func:`_cheapest` with ties among equals broken by the highest ``prio[p]``
    (the lowest pair id when ``prio`` is empty)."""
    return _cheapest_core(S, D, pairs, prio, np.empty(pairs.shape[0], np.int64))


@njit(nogil=True, refcount=False)
def _cheapest_core(S: BoardArrays, D: GameArrays, pairs: np.ndarray, prio: np.ndarray, keys: np.ndarray) -> int:
    """:func:`_cheapest_ranked` with ``keys`` as long as ``pairs`` for the ranking."""
    cand = pairs.shape[0]
    ranked = prio.shape[0] > 0
    k = 0
    for t_ in range(D.counters[0].nlegal):
        p = D.legal_list[t_]
        closes, gives, _ = effect(S, D, p)
        tie = np.int64((1.0 - prio[p]) * 2147483648.0) if ranked else np.int64(p)
        key = (np.int64(gives) if closes == 0 else np.int64(-1 - closes)) * (np.int64(1) << 32) + tie
        if k < cand:
            pos = k
            k += 1
        elif key < keys[cand - 1]:
            pos = cand - 1
        else:
            continue
        while pos > 0 and keys[pos - 1] > key:
            keys[pos] = keys[pos - 1]
            pairs[pos] = pairs[pos - 1]
            pos -= 1
        keys[pos] = key
        pairs[pos] = p
    return k


@njit(nogil=True)
def give_estimate(S: BoardArrays, D: GameArrays, cand: int) -> tuple[I64, I64, I64]:
    """The give phase's next step from here (ties among openings broken by the
    lowest pair id): see :func:`_give_estimate_ranked`."""
    return _give_estimate_ranked(S, D, cand, _NO_RANK)


@njit(nogil=True)
def _give_estimate_ranked(S: BoardArrays, D: GameArrays, cand: int, prio: np.ndarray) -> tuple[I64, I64, I64]:
    """The mover's estimated points from here: ``(value, line, work)``.

    Up to ``cand`` lines are tried: every scoring line, then the non-scoring
    lines giving fewest (among equals the highest ``prio[p]``, or the lowest
    pair id when ``prio`` is empty).  Each is followed through its
    cascade; whoever must open after it is charged the fewest triangles they
    can then give.  The best line for the mover and its value (net of the
    cascade, minus or plus that charge) are returned, with the work done in
    scans of the legal lines (what a search node costs, for its budget);
    ``(0, -1, work)`` when no line is legal.  This is one step of the give
    phase looked at in full instead of only its first line.
    """
    return _give_core(S, D, cand, prio, _room(S, cand))


@njit(nogil=True, refcount=False)
def _give_core(S: BoardArrays, D: GameArrays, cand: int, prio: np.ndarray, room: tuple) -> tuple[I64, I64, I64]:
    """:func:`_give_estimate_ranked` in the scratch ``room`` (:func:`_room`)."""
    st = D.counters[0]
    pairs, keys, side = room
    k = _cheapest_core(S, D, pairs, prio, keys)
    best = -_NOWHERE
    best_p = -1
    work = 1
    for i in range(k):
        p = pairs[i]
        # follow the cascade, then charge whoever must open next
        opener = st.player
        net = np.int64(0)
        plies = 0
        q = p
        while q >= 0:
            net += _draw_for(S, D, q, opener, side)
            plies += 1
            if st.live == 0:
                break
            q = _take(S, D)
            work += 1  # a line drawn and a scan of the legal lines: about one search node
        if st.live > 0:
            g = _min_give(S, D)
            work += 1
            net += -g if st.player == opener else g
        for _ in range(plies):
            K.undo_line(S, D)
        if net > best:
            best = net
            best_p = p
    if best_p < 0:
        return 0, -1, work
    return best, best_p, work


@njit(nogil=True)
def playout(S: BoardArrays, D: GameArrays, cand: int) -> tuple[I64, I64]:
    """:func:`playout_ranked` with ties broken by the lowest pair id."""
    return playout_ranked(S, D, cand, _NO_RANK)


@njit(nogil=True)
def playout_ranked(S: BoardArrays, D: GameArrays, cand: int, prio: np.ndarray) -> tuple[I64, I64]:
    """An estimated final margin: the rest of the game played by both sides as
    'take what is closable, else a safe line, else the opening that
    :func:`give_estimate` prefers'.  Returns ``(margin, work)``: the mover's
    points minus the other's from here, and the scans of the legal lines it
    made (what a search node costs, for a budget).  ``D`` is restored.

    With a ranking ``prio`` (a sample's dice), ties among equally cheap openings
    go to the highest rank instead of the lowest pair id.  As the leaf of hard's
    safe-line samples it chose better on 14-star positions
    (``benchmarks/leaf_regret.py``) but did not play better against ``mcts``
    (benchmarks/middle-game.md), so only the benchmarks rank it."""
    return _playout_core(S, D, cand, prio, _room(S, cand))


@njit(nogil=True, refcount=False)
def _playout_core(S: BoardArrays, D: GameArrays, cand: int, prio: np.ndarray, room: tuple) -> tuple[I64, I64]:
    """:func:`playout_ranked` in the scratch ``room`` (:func:`_room`)."""
    st = D.counters[0]
    me = st.player
    net = 0
    plies = 0
    work = 0
    while st.live > 0:
        q, safe = _take_and_safe(S, D, _NO_RANK)  # no ranking: the safe line of lowest pair id
        work += 1
        if q < 0:
            q = safe
        if q < 0:
            _, q, w = _give_core(S, D, cand, prio, room)
            work += w
        if q < 0:
            break
        net += _draw_for(S, D, q, me, room[2])
        plies += 1
    for _ in range(plies):
        K.undo_line(S, D)
    return net, work


@njit(nogil=True)
def leaf_value(S: BoardArrays, D: GameArrays, cand: int, ahead: int) -> tuple[I64, I64]:
    """The mover's estimated margin from a position of the give phase, and the
    work (scans of the legal lines) it took.  With ``ahead`` 0 it is the
    :func:`playout`; otherwise the best of the first ``ahead`` lines of
    :func:`_cheapest` (every scoring line, then the lines giving fewest), each
    valued by its points plus the playout of the position it leaves: one line
    looked at in full, where the playout follows a single one.  ``D`` is restored.

    With 8 lines, a slightly better estimate than the playout on 14-star
    positions (``benchmarks/leaf_regret.py``), but as the leaf of hard's
    safe-line samples it did not play better against ``mcts`` (benchmarks/middle-game.md),
    so only the benchmarks use it."""
    if ahead <= 0:
        return playout(S, D, cand)
    first = np.empty(ahead, np.int64)
    k = _cheapest(S, D, first)
    work = np.int64(1)
    if k == 0:
        return np.int64(0), work
    me = D.counters[0].player
    best = -_NOWHERE
    for i in range(k):
        closed = K.apply_line(S, D, first[i])
        rest, w = playout(S, D, cand)
        work += w
        v = closed + rest if D.counters[0].player == me else closed - rest
        K.undo_line(S, D)
        if v > best:
            best = v
    return best, work


@njit(nogil=True)
def greedy_playout(S: BoardArrays, D: GameArrays, max_plies: int) -> tuple[int, int]:
    """The rest of the game (at most ``max_plies`` lines) played by both sides
    as 'take (most closed, fewest given), else the first safe line, else the
    line giving fewest'; returns ``(margin, plies)``, the mover's points minus
    the other's over those lines.  ``D`` is restored.

    The cheap estimate of the give phase: it follows every cascade and every
    forced opening to the end, so the parity of what is left (who opens the
    last component) is in its result, which the fewest-given count is not.
    """
    st = D.counters[0]
    me = st.player
    net = 0
    plies = 0
    side = np.empty(S.xs.shape[0], np.float64)
    while st.live > 0 and plies < max_plies:
        best = -1
        best_key = -_NOWHERE
        for t_ in range(D.counters[0].nlegal):
            p = D.legal_list[t_]
            closes, gives, _ = effect(S, D, p)
            if closes > 0:
                key = np.int64(closes) * 1024 - gives + 4096
            else:
                key = -np.int64(gives)
            if key > best_key or (key == best_key and p < best):
                best_key = key
                best = p
        if best < 0:
            break
        net += _draw_for(S, D, best, me, side)
        plies += 1
    for _ in range(plies):
        K.undo_line(S, D)
    return net, plies


@njit(nogil=True, refcount=False)
def _take_and_safe(S: BoardArrays, D: GameArrays, prio: np.ndarray) -> tuple[int, int]:
    """One scan of the legal lines: ``(take, safe)``.  ``take`` is the scoring
    line that closes most, then gives fewest, then has the lowest pair id;
    ``safe`` is the line that neither scores nor gives with the highest
    ``prio[p]`` (the lowest pair id when ``prio`` is empty); -1 where there is none."""
    best = -1
    best_key = np.int64(-1)
    safe = -1
    ranked = prio.shape[0] > 0
    for t_ in range(D.counters[0].nlegal):
        p = D.legal_list[t_]
        closes, gives, _ = effect(S, D, p)
        if closes == 0:
            if gives == 0 and (safe < 0 or (prio[p] > prio[safe] if ranked else p < safe)):
                safe = p
            continue
        key = np.int64(closes) * 1024 - gives
        if key > best_key or (key == best_key and p < best):
            best_key = key
            best = p
    return best, safe


@njit(nogil=True)
def safe_phase_round(
    S: BoardArrays, D: GameArrays, pairs: np.ndarray, cand: int, seed: int, totals: np.ndarray, abort: np.ndarray
) -> I64:
    """One sample of what each line of ``pairs`` leads to while safe lines remain.

    After the line, both sides take what they can (as in a cascade), else draw
    the safe line ranked highest by the round's dice (a random rank for every
    pair, drawn from ``seed``), until nothing is safe; from there
    :func:`playout` values the give phase.  The mover's margin over the whole
    sample is added to ``totals[i]``.  Every line's sample follows the same
    ranks, so the samples of two lines draw the same safe lines wherever both
    can, and their difference comes from the lines, not the dice.  Returns
    the work done in scans of the legal lines; stops early (leaving the rest
    of ``totals`` as it was) once ``abort[0]`` is raised.  ``D`` is restored.
    """
    np.random.seed(seed)
    prio = np.random.random(S.pi.shape[0])  # the round's dice: a rank for every pair
    return _round(S, D, pairs, cand, totals, abort, prio, _room(S, cand))


@njit(nogil=True, refcount=False)
def _round(
    S: BoardArrays,
    D: GameArrays,
    pairs: np.ndarray,
    cand: int,
    totals: np.ndarray,
    abort: np.ndarray,
    prio: np.ndarray,
    room: tuple,
) -> I64:
    """:func:`safe_phase_round` with its dice drawn, in the scratch ``room`` (:func:`_room`)."""
    st = D.counters[0]
    me = st.player
    work = 0
    for i in range(pairs.shape[0]):
        if abort[0] != 0:
            break
        net = _draw_for(S, D, pairs[i], me, room[2])
        plies = 1
        work += 1
        while st.live > 0:
            q, safe = _take_and_safe(S, D, prio)
            work += 1
            if q < 0:
                q = safe
                if q < 0:
                    break
            net += _draw_for(S, D, q, me, room[2])
            plies += 1
        if st.live > 0:
            rest, w = _playout_core(S, D, cand, _NO_RANK, room)
            work += w
            net += rest if st.player == me else -rest
        for _ in range(plies):
            K.undo_line(S, D)
        totals[i] += net
    return work
