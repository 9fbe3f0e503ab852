"""The search kernels: negamax alpha-beta with a transposition table.

Everything here is numba (``nogil=True``) over the rules kernels' ``S``/``D``
tuples (:class:`~triangles.kernels.BoardArrays`, :class:`~triangles.kernels.GameArrays`),
so a search runs without the GIL in the UI's worker thread.

Values are *future* points, relative to the player to move at that node:
(their points from here on) - (the opponent's), times :data:`SCALE` so the
heuristic terms can be finer than one triangle.  Because the rules are the same
for both players that value depends only on the position, and a scoring line
under ``extra_turn`` keeps the mover, so the child is added, not negated::

    v(node) = max over lines of  closed*SCALE + (v(child) if the mover stays else -v(child))

The transposition table is keyed by a Zobrist hash of the set of drawn lines,
xor a side-to-move key (with ``extra_turn`` the same lines can be reached with
either player to move).  Entries are always-replace, storing a bound
(exact / lower / upper), the searched depth and the best line.

A search's inputs besides the position travel as one :class:`Search` named
tuple (parameters, keys, table, scratch, controls), read by field name in
Python and numba alike; :func:`search` is the Python front of the kernel
:func:`search_root`.  The search is an explicit stack, not recursion: numba's
on-disk cache does not reload recursive functions safely.
"""

from __future__ import annotations

import functools
import math
from typing import Any, NamedTuple

import numpy as np

from triangles import kernels as K
from triangles.ai.bits import GOLDEN, mix64
from triangles.ai.effects import line_effect
from triangles.jit import njit
from triangles.kernels import BoardArrays, GameArrays

__all__ = [
    "SCALE",
    "INF",
    "SOLVE_DEPTH",
    "CONTROL",
    "FRAME",
    "Zobrist",
    "TT",
    "SearchParams",
    "Search",
    "SearchResult",
    "zobrist",
    "new_tt",
    "new_search",
    "search",
    "ordered_lines",
    "line_effect",
]

#: One record of a CONTROL or FRAME array, read and written by field name (``f.alpha``):
#: ``np.void`` in Python, a numba Record in the kernels; numpy's stubs cannot name its fields.
Record = Any
#: A whole number in the kernels: numba's int64 (np.int64 in the typing, an int when returned to Python).
I64 = int | np.int64

SCALE = 64
INF = 1 << 28
SOLVE_DEPTH = 10_000  # "unbounded": deeper than any game

# the bound a table entry stores
EXACT = 1
LOWER = 2  # the value is at least the stored one (a beta cut-off)
UPPER = 3  # the value is at most the stored one (no line raised alpha)

#: A search's counters: ``ctl[0]`` of a (1,) array, written by the kernel.
CONTROL = np.dtype(
    [
        ("nodes", np.int64),  # nodes visited by this call
        ("limit", np.int64),  # the search stops once ``nodes`` reaches this
        ("aborted", np.int64),  # 1 once it stopped early (node limit or abort flag); its value is then 0
        ("best", np.int64),  # best root pair of the call (-1: none)
    ]
)

#: What a move generation saw besides the lines it listed: ``stats[0]`` of a (1,) array.
LINE_STATS = np.dtype(
    [
        ("min_give", np.int64),  # fewest triangles a non-scoring line gives away (2**30: every line scores)
        ("nsafe", np.int64),  # safe lines: neither scoring nor giving anything away
    ]
)

#: One ply of the explicit search stack.
FRAME = np.dtype(
    [
        ("alpha", np.int64),  # the window, raised as lines are searched
        ("beta", np.int64),
        ("alpha0", np.int64),  # alpha on entry (decides the stored bound)
        ("depth", np.int64),  # plies left to the horizon (<= 0: quiescence)
        ("qdepth", np.int64),  # quiescence plies left
        ("mover", np.int64),  # the player to move here
        ("key", np.uint64),  # table key of the position (full-width nodes)
        ("canon", np.uint64),  # with ``SearchParams.canon``: the position's canon_hash
        ("slot", np.int64),  # its table slot
        ("n", np.int64),  # candidate lines listed in the ply's row of ``Search.moves``
        ("idx", np.int64),  # the next candidate to search
        ("best", np.int64),  # best value so far
        ("bestp", np.int64),  # its pair (-1: none yet)
        ("p", np.int64),  # the line being searched
        ("closed", np.int64),  # what it scored, SCALE units
    ]
)


class Zobrist(NamedTuple):
    """Fixed random keys of a board size (the same on every run)."""

    lines: np.ndarray  # (npairs,) uint64 key of each pair, xored in while it is drawn
    side: np.uint64  # xored in when player 1 is to move


class TT(NamedTuple):
    """The transposition table: ``2**bits`` always-replace entries."""

    key: np.ndarray  # uint64 position key
    value: np.ndarray  # int32 value, SCALE units
    depth: np.ndarray  # int16 searched depth (-1: empty)
    flag: np.ndarray  # int8 the bound: EXACT, LOWER or UPPER
    move: np.ndarray  # int32 best pair (-1: none)


class SearchParams(NamedTuple):
    """How a search plays (build with Python ints and bools, so one compiled kernel serves all)."""

    width: int  # candidate lines per interior node (>= the legal lines: full width)
    root_width: int  # candidate lines at the root
    qdepth: int  # quiescence plies (scoring lines only) below the horizon; 0 = none
    noise: int  # leaf noise amplitude, SCALE units (0 = none)
    salt: int  # seed-derived salt for tie-breaks and noise (0 <= salt < 2**63)
    dedupe: bool  # exact search: merge the lines of fixed effect (see gen_moves)
    canon: bool  # key the table on the position's equivalence class (see canon_hash)
    #: the board's :attr:`~triangles.rules.Board.max_triangles` (0: unknown): the triangles still to
    #: score are at most this less those scored, often far fewer than the live cells (which overlap)
    faces: int = 0


class Search(NamedTuple):
    """Everything one search needs besides the position (see :func:`new_search`)."""

    par: SearchParams
    zobrist: Zobrist
    tt: TT
    moves: np.ndarray  # (plies, width) int32 candidate lines of each ply, best first
    frames: np.ndarray  # (plies,) FRAME the explicit stack
    ctl: np.ndarray  # (1,) CONTROL
    stats: np.ndarray  # (1,) LINE_STATS of the last move generation
    abort: np.ndarray  # (1,) uint8 raised by another thread to stop the search
    mark: np.ndarray  # (npairs,) uint8 zeroed scratch of the table key's update (:func:`_canon_step`)
    ranks: np.ndarray  # (width,) int64 scratch of :func:`gen_moves`' ranking
    side: np.ndarray  # (stars,) float64 scratch of :func:`triangles.kernels.draw`


class SearchResult(NamedTuple):
    value: int  # SCALE units, for the player to move (0 when aborted)
    best: int  # best root pair (-1: none)
    nodes: int
    aborted: bool


@functools.cache
def zobrist(npairs: int) -> Zobrist:
    """The Zobrist keys of a board with ``npairs`` pairs (seeded, read-only, shared)."""
    rng = np.random.Generator(np.random.PCG64(0x7A1A6135))
    keys = rng.integers(1, np.iinfo(np.uint64).max, size=npairs + 1, dtype=np.uint64)
    lines = keys[:npairs].copy()
    lines.flags.writeable = False
    return Zobrist(lines=lines, side=keys[npairs])


def new_tt(bits: int) -> TT:
    """An empty table of ``2**bits`` entries."""
    m = 1 << bits
    return TT(
        key=np.zeros(m, np.uint64),
        value=np.zeros(m, np.int32),
        depth=np.full(m, -1, np.int16),
        flag=np.zeros(m, np.int8),
        move=np.full(m, -1, np.int32),
    )


def new_search(
    par: SearchParams, npairs: int, *, tt_bits: int, plies: int, width: int, abort: np.ndarray | None = None
) -> Search:
    """A fresh :class:`Search`: its own table and stack, ``plies`` deep and ``width`` lines wide.

    ``abort`` is a (1,) uint8 flag another thread may raise (shared by the
    searches of one move); a new one when None.
    """
    return Search(
        par=par,
        zobrist=zobrist(npairs),
        tt=new_tt(tt_bits),
        moves=np.empty((plies, width), np.int32),
        frames=np.zeros(plies, FRAME),
        ctl=np.zeros(1, CONTROL),
        stats=np.zeros(1, LINE_STATS),
        abort=np.zeros(1, np.uint8) if abort is None else abort,
        mark=np.zeros(npairs, np.uint8),
        ranks=np.empty(width, np.int64),
        side=np.empty((1 + math.isqrt(1 + 8 * npairs)) // 2, np.float64),  # a star each: n(n - 1) / 2 pairs
    )


def set_root_hint(sr: Search, D: GameArrays, p: int) -> None:
    """Make the legal pair ``p`` the table's best line for the position ``D`` (a playing
    search's key), so the next search lists it first at the root.  The entry bounds
    nothing (depth 0), and a search's own result for the root replaces it."""
    key = hash_drawn(D, sr.zobrist.lines)
    if int(D.counters[0]["player"]) == 1:
        key ^= sr.zobrist.side
    slot = int(key & np.uint64(sr.tt.key.shape[0] - 1))
    sr.tt.key[slot] = key
    sr.tt.value[slot] = 0
    sr.tt.depth[slot] = 0
    sr.tt.flag[slot] = UPPER
    sr.tt.move[slot] = p


def search(
    S: BoardArrays, D: GameArrays, sr: Search, *, depth: int, node_limit: int, alpha: int = -INF, beta: int = INF
) -> SearchResult:
    """One fixed-depth alpha-beta search of the position ``D`` (left as it was).

    Stops early, with ``aborted`` set, after ``node_limit`` nodes or once the
    abort flag is raised.  The table in ``sr`` is kept between calls (that is
    what makes iterative deepening pay).
    """
    ctl = sr.ctl
    ctl["nodes"] = 0
    ctl["limit"] = node_limit
    value = search_root(S, D, sr, depth, alpha, beta)
    c = ctl[0]
    return SearchResult(value=int(value), best=int(c["best"]), nodes=int(c["nodes"]), aborted=bool(c["aborted"]))


def ordered_lines(S: BoardArrays, D: GameArrays, *, width: int, salt: int = 0, dedupe: bool = False) -> np.ndarray:
    """Up to ``width`` legal pairs of ``D`` in the search's move order, best first (int32)."""
    if width < 1:
        return np.empty(0, np.int32)
    out = np.empty(width, np.int32)
    stats = np.zeros(1, LINE_STATS)
    n = gen_moves(
        S,
        D,
        out,
        np.empty(width, np.int64),
        width,
        np.uint64(salt),
        -1,
        captures_only=False,
        dedupe=dedupe,
        stats=stats,
    )
    return out[:n]


# --------------------------------------------------------------------------
# Hashing and static evaluation
# --------------------------------------------------------------------------


@njit(nogil=True, refcount=False)
def hash_drawn(D: GameArrays, keys: np.ndarray) -> np.uint64:
    """Zobrist hash of the drawn lines (``keys``: :attr:`Zobrist.lines`)."""
    h = np.uint64(0)
    drawn = D.line_owner
    for p in range(drawn.shape[0]):
        if drawn[p] >= 0:
            h ^= keys[p]
    return h


@njit(inline="always")
def _cell_key(S: BoardArrays, keys: np.ndarray, c: int) -> np.uint64:
    """A key of the cell ``c``, made from its three sides' keys (no table of cell keys needed)."""
    sides = S.cell_pairs
    return mix64(keys[sides[c, 0]] + keys[sides[c, 1]] * np.uint64(3) + keys[sides[c, 2]] * np.uint64(5))


@njit(nogil=True, refcount=False)
def canon_hash(S: BoardArrays, D: GameArrays, keys: np.ndarray) -> np.uint64:
    """Key of what the future depends on: the legal lines and the live cells with a side drawn.

    Two positions with the same legal lines and the same live cells have the
    same future (closed and dead triangles never score again; a drawn line
    matters only through the lines it blocks, which the legal set records),
    so they share an exact value.  Which sides of a live cell are drawn
    follows from the legal set (a live cell's side is drawn or legal), and a
    cell with all three sides legal is live, so only the live cells with a
    side drawn are keyed.  The search keeps this key up to date line by line
    (:func:`_canon_step`); this full count is the reference and the root's.
    """
    lst = D.legal_list
    st = D.counters[0]
    h = np.uint64(0x243F6A8885A308D3)
    for k in range(st.nlegal):
        h ^= keys[lst[k]]
    drawn = D.cell_drawn
    blocked = D.cell_blocked
    for c in range(drawn.shape[0]):
        if blocked[c] == 0 and 1 <= drawn[c] <= 2:
            h ^= _cell_key(S, keys, c)
    return h


@njit(nogil=True, refcount=False)
def _canon_step(S: BoardArrays, D: GameArrays, keys: np.ndarray, mark: np.ndarray) -> np.uint64:
    """What the last line drawn changed in :func:`canon_hash` (xor it in): the lines it took out
    of the legal set, the cells on it that got their first side or closed, the live cells with a
    side drawn that it killed.  Work in those lines' cells, not in the board's.  ``mark``: a
    zeroed uint8 scratch over pairs, left zeroed."""
    inc_ptr = S.inc_ptr
    inc_cell = S.inc_cell
    sides = S.cell_pairs
    drawn = D.cell_drawn
    blocked = D.cell_blocked
    bstack = D.bstack
    st = D.counters[0]
    p = D.moves[st.nmoves - 1]
    b0 = D.move_bstart[st.nmoves - 1]
    b1 = st.btop
    d = keys[p]
    for t in range(inc_ptr[p], inc_ptr[p + 1]):
        c = inc_cell[t]
        # a cell on p has no side crossing p: its blocked count did not change
        if blocked[c] == 0 and (drawn[c] == 1 or drawn[c] == 3):
            d ^= _cell_key(S, keys, c)
    for k in range(b0, b1):
        q = bstack[k]
        d ^= keys[q]
        mark[q] = 1
    for k in range(b0, b1):
        q = bstack[k]
        for t in range(inc_ptr[q], inc_ptr[q + 1]):
            c = inc_cell[t]
            if drawn[c] == 0:
                continue
            # live before this line iff every side blocked now was blocked by it; count the cell
            # once, from its lowest newly blocked side
            fresh = 0
            lowest = True
            for j in range(3):
                r = sides[c, j]
                if mark[r] != 0:
                    fresh += 1
                    if r < q:
                        lowest = False
            if lowest and blocked[c] == fresh:
                d ^= _cell_key(S, keys, c)
    for k in range(b0, b1):
        mark[bstack[k]] = 0
    return d


# --------------------------------------------------------------------------
# Move generation
# --------------------------------------------------------------------------


@njit(nogil=True, refcount=False)
def _isolated(S: BoardArrays, D: GameArrays, p: int) -> bool:
    """True when the legal pair ``p`` crosses no other legal pair."""
    xs, ys, pi, pj = S.xs, S.ys, S.pi, S.pj
    lst = D.legal_list
    cx = xs[pi[p]]
    cy = ys[pi[p]]
    dx = xs[pj[p]]
    dy = ys[pj[p]]
    for k in range(D.counters[0].nlegal):
        q = lst[k]
        if q == p:
            continue
        if K.segments_cross(cx, cy, dx, dy, xs[pi[q]], ys[pi[q]], xs[pj[q]], ys[pj[q]]):
            return False
    return True


@njit(inline="always")
def _tie(p: int, salt: np.uint64) -> I64:
    """The low bits of a line's ordering key: a salted hash of its pair id (deterministic per seed)."""
    return np.int64(mix64(np.uint64(p) * GOLDEN ^ salt) >> np.uint64(48))


@njit(inline="always")
def _insert(out: np.ndarray, keys: np.ndarray, k: int, width: int, p: int, key: int) -> I64:
    """Insert ``p`` into the best-first list ``out[:k]`` (at most ``width`` long); returns the new length.

    Ordered by key, then by lower pair id: a total order, so the list depends only on the set of
    lines offered, never on the order they come in (the legal list has none)."""
    if k < width:
        pos = k
        k += 1
    elif key > keys[width - 1] or (key == keys[width - 1] and p < out[width - 1]):
        pos = width - 1
    else:
        return k
    while pos > 0 and (keys[pos - 1] < key or (keys[pos - 1] == key and out[pos - 1] > p)):
        keys[pos] = keys[pos - 1]
        out[pos] = out[pos - 1]
        pos -= 1
    keys[pos] = key
    out[pos] = p
    return k


@njit(nogil=True, refcount=False)
def gen_moves(
    S: BoardArrays,
    D: GameArrays,
    out: np.ndarray,
    keys: np.ndarray,
    width: int,
    salt: np.uint64,
    tt_move: int,
    captures_only: bool,
    dedupe: bool,
    stats: np.ndarray,
) -> I64:
    """Fill ``out`` with up to ``width`` legal pairs, best first; returns how many (``keys``, as
    long as ``out``: the ranking's scratch).

    Order: the table's move ``tt_move``; scoring lines (more triangles first);
    lines that give the opponent nothing to close; then by fewest triangles
    given away; within a class by a salted hash of the pair id (deterministic
    per seed).  ``captures_only`` lists scoring lines only.  With ``dedupe``
    (exact search), a line that crosses no legal line and borders no live
    triangle but those it closes has a *fixed* effect: 0, 1 or 2 points
    whenever it is drawn.  Of those only the lowest best-scoring one is
    listed, and with the extra turn a fixed scoring line is the only line
    listed (test_fixed_scoring_lines_are_merged_and_taken_first).

    ``stats[0]`` (LINE_STATS) receives the fewest triangles a non-scoring line
    gives away and the number of safe lines.  (Returned as a tuple instead,
    they cost the search ~8% of its speed on 60 stars.)
    """
    lst = D.legal_list
    k = 0
    # with ``dedupe``: the lowest line of each fixed effect (0, 1 or 2 points; scalars, not an
    # array: this runs at every node)
    fixed0 = -1
    fixed1 = -1
    fixed2 = -1
    min_give = np.int64(1 << 30)
    nsafe = 0
    for r in range(D.counters[0].nlegal):
        p = lst[r]
        c2, g, rel = line_effect(S, D, p)
        if c2 == 0 and g < min_give:
            min_give = g
        if c2 == 0 and g == 0:
            nsafe += 1
        if captures_only and c2 == 0:
            continue
        if dedupe and rel == c2 and p != tt_move and c2 <= 2:
            if _isolated(S, D, p):
                # its effect is fixed for good: ``c2`` points, nothing else
                if c2 == 0:
                    fixed0 = p if fixed0 < 0 else min(fixed0, p)
                elif c2 == 1:
                    fixed1 = p if fixed1 < 0 else min(fixed1, p)
                else:
                    fixed2 = p if fixed2 < 0 else min(fixed2, p)
                continue
        if p == tt_move:
            key = np.int64(7) << 58
        elif c2 > 0:
            key = (np.int64(6) << 58) + (np.int64(c2) << 54) - (np.int64(min(g, 15)) << 50)
        elif g == 0:
            key = np.int64(5) << 58
        else:
            key = (np.int64(4) << 58) - (np.int64(min(g, 15)) << 50)
        k = _insert(out, keys, k, width, p, key + _tie(p, salt))
    # Only the best fixed line: another one (or a pure-tempo line) is a worse copy of it, since a
    # strategy using it can use this one instead, and the point more goes to whoever draws it.
    # With the extra turn, a fixed scoring line is taken at once: whenever it is drawn it scores
    # the same and the drawer keeps the turn, so drawing it first loses nothing.
    best_c = 2 if fixed2 >= 0 else (1 if fixed1 >= 0 else 0)
    best_p = fixed2 if fixed2 >= 0 else (fixed1 if fixed1 >= 0 else fixed0)
    if best_p >= 0:
        if best_c > 0 and D.counters[0].extra:
            out[0] = best_p
            k = 1
        else:
            key = (np.int64(5 + (best_c > 0)) << 58) + (np.int64(best_c) << 54)
            k = _insert(out, keys, k, width, best_p, key + _tie(best_p, salt))
    st = stats[0]
    st.min_give = min_give
    st.nsafe = nsafe
    return k


# --------------------------------------------------------------------------
# The pieces of a node
# --------------------------------------------------------------------------


@njit(inline="always")
def _spend_node(ctl: Record, abort: np.ndarray) -> bool:
    """Count one node; True once the search must stop (node limit reached or abort flag raised)."""
    ctl.nodes += 1
    if ctl.nodes >= ctl.limit or ((ctl.nodes & 255) == 0 and abort[0] != 0):
        ctl.aborted = 1
    return ctl.aborted != 0


@njit(inline="always")
def _live_bound(f: Record, st: Record, par: SearchParams) -> tuple[bool, I64]:
    """(True, bound) when the window of ``f`` alone decides the node: without noise,
    future points lie within +-(triangles still to score), so a window outside that range
    cuts for free.  Those are at most the live cells, and at most ``par.faces`` less the
    triangles scored."""
    if par.noise != 0:
        return False, 0
    left = st.live
    if par.faces > 0:
        left = min(left, par.faces - st.score0 - st.score1)
    lim = left * SCALE
    if lim <= f.alpha:
        return True, lim
    if -lim >= f.beta:
        return True, -lim
    return False, 0


@njit(inline="always")
def _full_width(f: Record, ply: int, maxply: int) -> bool:
    """A node searched with a table probe and candidate lines (else: quiescence, or the stack's end)."""
    return f.depth > 0 and ply < maxply - 1


@njit(inline="always")
def _tt_probe(tt: TT, f: Record, key: np.uint64, may_cut: bool) -> tuple[bool, I64, I64]:
    """Look the node of ``f`` up (and note its key, slot and entry alpha in ``f``).

    Returns (cut, value, hint): the stored best line (-1: none) and, with
    ``may_cut``, whether the stored bound alone settles the node at its depth.
    """
    slot = np.int64(key & np.uint64(tt.key.shape[0] - 1))
    f.key = key
    f.slot = slot
    f.alpha0 = f.alpha
    if tt.key[slot] != key or tt.depth[slot] < 0:
        return False, 0, -1
    hint = tt.move[slot]
    if may_cut and tt.depth[slot] >= f.depth:
        v = np.int64(tt.value[slot])
        fl = tt.flag[slot]
        if fl == EXACT or (fl == LOWER and v >= f.beta) or (fl == UPPER and v <= f.alpha):
            return True, v, hint
    return False, 0, hint


@njit(inline="always")
def _tt_store(tt: TT, f: Record) -> None:
    """Remember the searched node of ``f`` (always replace): its value as a bound of its entry window."""
    if f.best <= f.alpha0:
        fl = UPPER
    elif f.best >= f.beta:
        fl = LOWER
    else:
        fl = EXACT
    slot = f.slot
    tt.key[slot] = f.key
    tt.value[slot] = f.best
    tt.depth[slot] = min(f.depth, 32000)
    tt.flag[slot] = fl
    tt.move[slot] = f.bestp


@njit(inline="always")
def _open_lines(f: Record, n: int) -> None:
    """A full-width node searches its ``n`` listed lines next."""
    f.n = n
    f.idx = 0
    f.best = -INF


@njit(inline="always")
def _leaf_noise(h: np.uint64, salt: np.uint64, player: int, noise: int) -> I64:
    """A deterministic value in [-noise, noise] for the position ``h`` and the mover (seeded by ``salt``)."""
    if noise == 0:
        return 0
    x = mix64(h ^ salt ^ np.uint64(player + 1))
    return np.int64(x % np.uint64(2 * noise + 1)) - noise


@njit(inline="always")
def _forced_give(min_give: int) -> I64:
    """What not scoring costs when no quiet line is safe: the fewest triangles one gives away."""
    if min_give > 0 and min_give < (1 << 30):
        return min_give * SCALE
    return 0


@njit(inline="always")
def _stand_pat(f: Record, stand: int, n: int) -> bool:
    """A quiet node: True when it takes its static value ``stand``; else its ``n``
    listed scoring lines are searched next, with ``stand`` the value to beat."""
    if f.qdepth <= 0 or n == 0 or stand >= f.beta:
        return True
    f.n = n
    f.idx = 0
    f.best = stand
    if stand > f.alpha:
        f.alpha = stand
    return False


@njit(inline="always")
def _open_child(child: Record, f: Record, qdepth: int, mover_stays: bool) -> None:
    """The child's window and depths after the line ``f.p`` scored ``f.closed``."""
    closed = f.closed
    if mover_stays:
        child.alpha = f.alpha - closed
        child.beta = f.beta - closed
    else:
        child.alpha = closed - f.beta
        child.beta = closed - f.alpha
    child.depth = f.depth - 1
    child.qdepth = qdepth if f.depth > 0 else f.qdepth - 1


@njit(inline="always")
def _back_up(f: Record, child_value: int, extra: bool) -> None:
    """Fold the value of the line ``f.p`` into its node; a beta cut-off skips the remaining lines."""
    closed = f.closed
    if closed > 0 and extra:
        v = closed + child_value
    else:
        v = closed - child_value
    if v > f.best:
        f.best = v
        f.bestp = f.p
        if v > f.alpha:
            f.alpha = v
            if v >= f.beta:
                f.idx = f.n


# --------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------

_ENTER = 0
_NEXT = 1
_RETURN = 2


@njit(nogil=True)
def search_root(S: BoardArrays, D: GameArrays, sr: Search, depth: int, alpha: int, beta: int) -> I64:
    """One fixed-depth alpha-beta search from the current position (restored after).

    Below the horizon a quiescence search tries scoring lines only, with
    'stand pat' = the static leaf value.  The best root pair is left in
    ``sr.ctl[0].best``.  If the node limit or the abort flag stops the search,
    ``sr.ctl[0].aborted`` is 1 and the value is 0.

    The helpers take records and scalars only; the calls that need the whole
    position (move generation, make / unmake, hashing) are made here.  Those
    count no references (:mod:`triangles.jit`), so their scratch comes in ``sr``;
    this loop keeps numba's counts, which measured faster on the larger boards
    (p95 on tablet 120 0.29-0.30 s against 0.35-0.36 s without them, the same
    on 24 and 60 stars: ``benchmarks/middle-game.md``, thirty-second look).
    """
    st = D.counters[0]
    par = sr.par
    ctl = sr.ctl[0]
    line_stats = sr.stats
    stats = line_stats[0]
    abort = sr.abort
    tt = sr.tt
    frames = sr.frames
    moves = sr.moves
    keys = sr.zobrist.lines
    side = sr.zobrist.side
    maxply = moves.shape[0]
    salt = np.uint64(par.salt)
    extra = st.extra == 1

    ctl.aborted = 0
    ctl.best = -1
    h = hash_drawn(D, keys)
    hc = canon_hash(S, D, keys) if par.canon else np.uint64(0)
    mark = sr.mark
    ply = 0
    f = frames[0]
    f.alpha = alpha
    f.beta = beta
    f.depth = depth
    f.qdepth = par.qdepth
    ret = np.int64(0)
    state = _ENTER
    while True:
        if state == _ENTER:
            f = frames[ply]
            out = moves[ply]
            state = _RETURN  # unless the node opens lines below
            if _spend_node(ctl, abort) or st.live == 0:
                ret = np.int64(0)
                continue
            cut, ret = _live_bound(f, st, par)
            if cut:
                continue
            f.mover = st.player
            f.bestp = -1
            if _full_width(f, ply, maxply):
                key = hc if par.canon else h
                f.canon = hc
                if st.player == 1:
                    key ^= side
                cut, ret, hint = _tt_probe(tt, f, key, may_cut=ply > 0)
                if cut:
                    continue
                width = min(par.root_width if ply == 0 else par.width, out.shape[0])
                n = gen_moves(
                    S, D, out, sr.ranks, width, salt, hint, captures_only=False, dedupe=par.dedupe, stats=line_stats
                )
                _open_lines(f, n)
                state = _NEXT
                continue
            # quiescence: the static value, unless a scoring line beats it
            ret = _leaf_noise(h, salt, st.player, par.noise)
            if ply >= maxply - 1:
                continue
            width = min(out.shape[0], par.width, 3)
            n = gen_moves(S, D, out, sr.ranks, width, salt, -1, captures_only=True, dedupe=False, stats=line_stats)
            ret -= _forced_give(stats.min_give)
            if not _stand_pat(f, ret, n):
                state = _NEXT
        elif state == _NEXT:
            f = frames[ply]
            if f.idx >= f.n:  # every listed line searched (or a cut-off)
                if _full_width(f, ply, maxply):
                    if ply == 0:
                        ctl.best = f.bestp
                    _tt_store(tt, f)
                ret = f.best
                state = _RETURN
                continue
            p = moves[ply, f.idx]
            f.idx += 1
            f.p = p
            f.closed = np.int64(K.draw(S, D, p, sr.side)) * SCALE
            h ^= keys[p]
            if par.canon and f.depth > 1:  # the child is a full-width node: it needs the key
                hc = f.canon ^ _canon_step(S, D, keys, mark)
            _open_child(frames[ply + 1], f, par.qdepth, mover_stays=st.player == f.mover)
            ply += 1
            state = _ENTER
        else:  # _RETURN
            if ply == 0:
                if ctl.aborted != 0:
                    return np.int64(0)
                return ret
            ply -= 1
            f = frames[ply]
            K.undo_line(S, D)
            h ^= keys[f.p]
            if ctl.aborted != 0:
                continue  # unwind to the root
            _back_up(f, ret, extra=extra)
            state = _NEXT
