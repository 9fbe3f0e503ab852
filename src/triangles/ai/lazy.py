"""Exact values over regions expanded only as far as the search reaches them.

:mod:`triangles.ai.regions` explores every state a region can reach before it
searches, and that exploration is what limits it on a board still in one
piece: on a whole 10-star board the sum search itself needs 0.3-2 M nodes
(0.2-1.5 s) while exploring takes 0.5-3 M region states (8-56 s), and on a
whole 12-star board the exploration had passed 3 M states after two minutes.
Here the search runs over multisets of region *states* (a state: its legal
lines and the drawn sides of its live cells, as 64-bit masks).  A state's
moves (the points a line scores, the states of the regions it leaves) are
worked out the first time the search lists it, then kept for every other
position holding it (:mod:`triangles.ai.expand`, in the pools of
:mod:`triangles.ai.pools`); where the search prunes, nothing is expanded.  A
region of at most :data:`triangles.ai.expand.SMALL` lines is still explored
whole when first met and merged with every state of the same game tree
(without that merging the search needs 50-130 times the nodes); a larger one
is never merged.  The table, its enhanced cut-offs and the move order are the
sum search's, except where a large region's moves rank
(:func:`triangles.ai.expand.large_rank`) and where the cut-offs are kept in the
table, where a root move's answers rank with alternation, and where a node
holding new states takes its cut-off through their expanded siblings before
expanding them (:func:`triangles.ai.expand.sibling_refutes`).  Whole 10-star
boards take 0.2-1.6 s; whole 12-star boards 0.4-41 s with two searches sharing the
table and the best root value proved on two cores (:func:`search_pair`, as
:func:`triangles.ai.solver.solve` runs them; ``benchmarks/middle-game.md``, fifteenth
to forty-second looks).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from triangles.ai.bits import ONE, bit_index, low_bit, popcount
from triangles.ai.expand import SMALL, expand, sibling_refutes, small_work
from triangles.ai.multiset import (
    INF,
    back_up,
    child_multiset,
    child_window,
    children_refute,
    drop_pairs,
    list_move,
    node_settles,
    open_moves,
    open_scout,
    rescout,
    search_stack,
    sort_ranked,
)
from triangles.ai.pools import (
    KEY,
    KL,
    LEFT,
    ME,
    MS,
    NOBJ,
    PAIR,
    PTS,
    RANK,
    SUM,
    move_line,
    new_lazy,
    nth_line,
    out_of_room,
    reserved_pools,
)
from triangles.ai.regions import MAX_LINES, Regions
from triangles.ai.split import split, state_facts, state_key
from triangles.ai.tables import new_table, tt_keep_cut, tt_store
from triangles.jit import njit

if TYPE_CHECKING:
    from triangles.kernels import GameArrays
    from triangles.rules import Game

__all__ = ["SMALL", "LazyResult", "LazySum", "lazy_search", "search_pair"]

_ENTER, _NEXT, _RETURN, _LIST = 0, 1, 2, 3


class LazyResult(NamedTuple):
    value: int  # a bound or the exact value of the mover's future points minus the opponent's (triangles)
    pair: int  # a best line (-1: none)
    nodes: int
    states: int  # region states met (each expanded at most once)
    aborted: bool


#: what puts a line that refuted root moves above every other answer to a root move, and
#: each root move it refuted one step higher (at most 64 steps, below the table's move)
_REFUTER, _REFUTED = 1 << 50, 1 << 44


@njit(nogil=True)
def _lazy_kernel(
    geo: tuple,
    n: int,
    extra: bool,
    alpha: int,
    beta: int,
    node_limit: int,
    abort: np.ndarray,
    tt: np.ndarray,
    small: int,
    P: tuple,
    roots: np.ndarray,
    second: bool,
    allowed: np.uint64,
    share: np.ndarray,
    look: int,
) -> tuple:
    """Fail-soft negamax alpha-beta over multisets of region states, each expanded when first
    listed: (value, best root line, nodes, aborted, the pools).  The search is
    :func:`triangles.ai.regions._sum_kernel`'s (sorted multisets, an additive table key,
    buckets of two rows, enhanced transposition cut-offs, the bound of the points left, the
    table's move first, null windows after a node's first move), with states in place of
    classes.  A small region's moves are ordered as there: with alternation by their value
    alone, then by points, then by the fewest points the regions they leave offer at once.
    A large region's move is a gain when it scores and a loss when it only offers, by its
    own points and what it offers, not by the values alone of the regions it leaves
    (:func:`triangles.ai.expand.line_rank`); its gains come before every other move, its
    losses after, and among its equal moves the one leaving the fewest lines in large regions
    comes first (:func:`triangles.ai.expand.large_rank`).
    Unlike there, a cut-off the children's stored bounds give is kept in the table where
    that evicts nothing searched (:func:`triangles.ai.tables.tt_keep_cut`), and a child's
    key is its parent's plus the sum its move keeps (``SUM``): on eight whole 12-star
    boards 11 % less time with the extra turn and 4 % with alternation, where the boards
    worth 2 gained nothing measurable (``benchmarks/middle-game.md``, twenty-first look).
    A position's row keeps both a lower and an upper bound, each store merging its bound with
    what the row holds (:func:`triangles.ai.tables.tt_store`): a position met again under
    another window keeps what both searches proved; 2-3 % fewer nodes, and the pair about 5 %
    less time on the slowest whole 12-star boards (``benchmarks/middle-game.md``,
    thirty-fifth look).
    With alternation a root move's answers (ply 1) come first in the order of the root moves
    each line has refuted so far: every root move is usually refuted, most by a few lines,
    and the order alone had found the refuting answer first at 6 of 49 such nodes on whole
    12-star board 2001, the answers that failed costing 5.8 M of its 10.7 M nodes.  On eight
    whole 12-star boards 2-56 % fewer nodes, and 29 % less time as `solve` runs the pair;
    with the extra turn 13 % more nodes, so not there (``benchmarks/middle-game.md``,
    twenty-third look).
    A node that lists states not yet expanded first tries the enhanced cut-off through their
    siblings (:func:`triangles.ai.expand.sibling_refutes`): expanding states is about 69 % of a whole 12-star
    search's time, and that cut-off settles about half of such nodes without expanding
    anything; 6 % less time in all, 9 % on the slowest boards, 12 % less memory
    (``benchmarks/middle-game.md``, twenty-fourth look).
    ``second``: a partner's search
    (:class:`LazySum`): its root moves in the reverse order, and its moves in the table
    tagged 1 where the first search's are tagged 0.
    ``allowed``: the lines the root's moves may draw (a bit a line; all set: every line), the
    root's value then being kept out of the table (:class:`LazySum`).
    ``share``: one word both searches of a pair read and write, the highest value of a root
    move either proved and that move's line (:func:`_shared`); every ``look`` + 1 nodes (a
    power of two) a search takes it as its root's lower bound, and narrows the windows of
    the nodes it has in progress (:func:`_narrow`).  Before, a search took the other's
    proofs only through the table, and could spend most of its time proving its first root
    move worth what the other had already proved of another (on board 2943, 28.9 M of its
    48 M nodes); now that proof stops where the other's bound refutes the move.  The pair
    on eleven whole 12-star boards of 16-18 triangles, one after the other in one process:
    348 and 356 s against 457 s (-23 %); board 2943 88 s against 24-26 s, and one board
    (2024) about 10 % slower (``benchmarks/middle-game.md``, fortieth look).
    The search loop is :func:`_run`; the expansions run here, between its calls."""
    stack = search_stack(n)
    ms, msz, mv, mvc, nmv, idx, fa, fb, fa0, best, bestm, hkey, rk, nodes0, scout = stack
    mask = np.int64(tt.shape[0] - 1)
    tid = 1 if second else 0

    W = small_work()
    chs = np.zeros(MAX_LINES, np.int64)
    X = (
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros(64, np.uint64),
        np.zeros((1, 64), np.int64),
        np.zeros((64, 5), np.int64),
        np.zeros((64, 64), np.uint64),
        np.zeros((64, 64), np.uint64),
        np.zeros((64, 64), np.int64),
        np.zeros(64, np.int64),
        np.zeros(geo[3].shape[0] + 1, np.uint64),  # a cell is on three lines: room for all
        np.zeros(64, np.int64),
    )
    msz[0] = roots.shape[0]
    ms[0, : roots.shape[0]] = np.sort(roots)
    fa[0] = alpha
    fb[0] = beta
    nodes = 0
    aborted = False
    ply = 0
    ret = 0
    state = _ENTER
    hint = -1
    refuted = np.zeros(64, np.int64)  # per line: the root moves it refuted (answering at ply 1)
    work = np.zeros(6 * MAX_LINES, np.int64)
    done = False
    while not done:
        state, ply, nodes, aborted, ret, hint, done = _run(
            geo,
            extra,
            small,
            tt,
            mask,
            tid,
            second,
            allowed,
            share,
            look,
            alpha,
            P,
            stack,
            chs,
            refuted,
            work,
            node_limit,
            abort,
            state,
            ply,
            nodes,
            aborted,
            ret,
            hint,
        )
        if not done:  # a node listing states not yet expanded: expanded here, then back to it
            rekeyed = False
            for k in range(msz[ply]):
                c = ms[ply, k]
                if P[1][c, MS] < 0:
                    before = P[1][c, KEY]
                    P = expand(c, P, geo, extra, small, X, W)
                    rekeyed |= P[1][c, KEY] != before
            if rekeyed:  # a state took its game tree's key: the node entered again with its new key
                state = _ENTER
                nodes -= 1
            aborted |= out_of_room(P)
    line = -1
    if not aborted:
        if bestm[0] >= 0:
            line = move_line(P, roots, bestm[0], -1)
        else:
            low, shared_line = _shared(share[0])
            if low == ret:  # its best root move is the partner's (_raise_root)
                line = shared_line
    return (0 if aborted else ret), line, nodes, aborted, P


@njit(nogil=True, refcount=False)
def _run(
    geo: tuple,
    extra: bool,
    small: int,
    tt: np.ndarray,
    mask: np.int64,
    tid: int,
    second: bool,
    allowed: np.uint64,
    share: np.ndarray,
    look: int,
    alpha: int,
    P: tuple,
    stack: tuple,
    chs: np.ndarray,
    refuted: np.ndarray,
    work: np.ndarray,
    node_limit: int,
    abort: np.ndarray,
    state: int,
    ply: int,
    nodes: int,
    aborted: bool,
    ret: int,
    hint: int,
) -> tuple:
    """:func:`_lazy_kernel`'s search loop, from the loop's state (``state`` ... ``hint``) until the
    search ends or a node lists states not yet expanded: (state, ply, nodes, aborted, ret,
    hint, done).  Expanding grows the pools, which needs reference counting; the loop does
    without (:mod:`triangles.jit`): 12 % less time for `solve` on whole 12-star boards
    (``benchmarks/middle-game.md``, thirty-second look)."""
    ms, msz, mv, mvc, nmv, idx, fa, fb, fa0, best, bestm, hkey, rk, nodes0, scout = stack
    done = False
    # the pools' arrays as the last expansion left them (they move only between calls)
    OI, MV, KP, KI = P[1], P[2], P[3], P[4]
    oleft, okey, opair = OI[:, LEFT], OI[:, KEY], OI[:, PAIR]
    mkl, mpts, msum = MV[:, KL], MV[:, PTS], MV[:, SUM]
    every = allowed == np.uint64(0xFFFFFFFFFFFFFFFF)
    while True:
        if state == _ENTER:
            state = _RETURN
            nodes += 1
            if nodes >= node_limit or ((nodes & 1023) == 0 and abort[0] != 0):
                aborted = True
            if ply > 0 and (nodes & look) == 0 and not aborted and _shared(share[0])[0] > fa[0]:
                low = _shared(share[0])[0]  # read again: the partner may have raised it since
                k = _narrow(fa, fb, fa0, best, bestm, scout, mv, idx, mpts, ply, low, extra)
                if k >= 0:  # a node in progress settled by the partner's root bound: its best returned
                    ply = k
                    idx[k] = nmv[k]
                    state = _NEXT
                    continue
            nn = msz[ply]
            ret = 0
            if aborted or nn == 0:
                continue
            cut, v, hint = node_settles(ms, ply, nn, oleft, okey, fa, fb, hkey, nodes0, nodes, tt, mask)
            if cut:
                ret = v
                continue
            # a stored move is a row of this search's pools only when this search stored it
            hint = hint >> 1 if hint >= 0 and (hint & 1) == tid else -1
            state = _LIST
        elif state == _LIST:
            nn = msz[ply]
            h = hkey[ply]
            fresh = False
            for k in range(nn):
                if OI[ms[ply, k], MS] < 0:
                    fresh = True
                    break
            if fresh:
                # below the root the new states are the kids of the last move, of the
                # object c (a small one's moves have no lines to find its siblings by);
                # the root's own objects are new before its first listing
                c = mvc[ply - 1, idx[ply - 1] - 1] if ply > 0 else 0
                if ply > 0 and popcount(P[0][c, 0]) > small:
                    cut, v = sibling_refutes(
                        c,
                        mv[ply - 1, idx[ply - 1] - 1],
                        h,
                        P,
                        geo,
                        extra,
                        small,
                        tt,
                        mask,
                        fb[ply],
                        ms,
                        ply,
                        nn,
                        work,
                    )
                    if cut:
                        ret = v
                        state = _RETURN
                        if hint < 0:
                            tt_keep_cut(tt, mask, h, v)
                        continue
                break  # expanded outside the loop, then back here
            m = 0
            for k in range(nn):
                c = ms[ply, k]
                if k > 0 and ms[ply, k - 1] == c:
                    continue
                # a root move's answers: the lines that refuted the most other root moves first
                lines = P[0][c, 0] if ply == 1 and not extra and popcount(P[0][c, 0]) > small else np.uint64(0)
                for g in range(OI[c, MS], OI[c, ME]):
                    if ply == 0 and not every and not (allowed >> np.uint64(nth_line(P[0][c, 0], g - OI[c, MS]))) & ONE:
                        continue  # a root move the caller left out (a root object's move has its line)
                    rank = (np.int64(1) << 62) if g == hint else MV[g, RANK]
                    if lines:
                        lb = low_bit(lines)
                        lines ^= lb
                        times = refuted[bit_index(lb)]
                        if times > 0 and g != hint:
                            rank += _REFUTER + times * _REFUTED
                    list_move(mv, mvc, rk, ply, m, g, c, -rank if second and ply == 0 else rank)
                    m += 1
            sort_ranked(mv, mvc, rk, ply, m)
            open_moves(nmv, idx, best, bestm, fa0, fa, ply, m)
            state = _NEXT
            if ply > 0:
                # enhanced transposition cut-off (see regions._sum_kernel), over the sorted
                # moves: here probing them as listed measured slower than sorting them first
                cut, v = children_refute(
                    tt,
                    mask,
                    h,
                    ms,
                    ply,
                    nn,
                    mv,
                    mvc,
                    m,
                    mkl,
                    mpts,
                    KI,
                    KP,
                    okey,
                    opair,
                    extra,
                    fb[ply],
                    chs,
                    msum,
                    rk,
                    True,
                )
                if cut:
                    ret = v
                    state = _RETURN
                    if hint < 0:
                        tt_keep_cut(tt, mask, h, v)
        elif state == _NEXT:
            if ply == 0 and not aborted:
                low = _shared(share[0])[0]
                if low > best[0]:
                    _raise_root(fa, fa0, best, bestm, low)  # between root moves
                    if best[0] >= fb[0]:
                        idx[0] = nmv[0]
            if aborted or idx[ply] >= nmv[ply]:
                ret = best[ply]
                if ply == 1 and not extra and not aborted and bestm[1] >= 0 and ret >= fb[1]:
                    q = move_line(P, ms[1, : msz[1]], bestm[1], small)
                    if q >= 0:
                        refuted[q] += 1
                if not aborted and (ply > 0 or every):  # a root of some lines only is not the position
                    tag = bestm[ply] * 2 + tid if bestm[ply] >= 0 else -1
                    tt_store(tt, mask, hkey[ply], ret, tag, fa0[ply], fb[ply], nodes - nodes0[ply], True)
                state = _RETURN
                continue
            g = mv[ply, idx[ply]]
            c = mvc[ply, idx[ply]]
            idx[ply] += 1
            kl = MV[g, KL]
            k2 = child_multiset(ms, msz, ply, c, KI, KP[kl], KP[kl + 1])
            if not extra:
                k2 = drop_pairs(ms, ply + 1, k2, opair)  # pairs of lone lines are worth nothing
            msz[ply + 1] = k2
            open_scout(fa, fb, scout, idx[ply] == 1, ply, MV[g, PTS], extra)
            ply += 1
            state = _ENTER
        else:  # _RETURN
            if ply == 0:
                done = True
                break
            ply -= 1
            state = _NEXT
            if aborted:
                continue
            g = mv[ply, idx[ply] - 1]
            if rescout(fa, fb, scout, ply, MV[g, PTS], ret, extra):
                ply += 1
                state = _ENTER
                continue
            back_up(best, bestm, fa, fb, idx, nmv, ply, g, MV[g, PTS], ret, extra)
            if ply == 0 and best[0] > alpha and best[0] > _shared(share[0])[0] and bestm[0] == g:
                # a root move proved worth best[0] (above the caller's alpha: not a bound from
                # a failed null window): the partner's lower bound too, with its line
                share[0] = _share_word(best[0], move_line(P, ms[0, : msz[0]], g, -1))
    return state, ply, nodes, aborted, ret, hint, done


@njit(inline="always")
def _share_word(value: int, line: int) -> np.int64:
    """A root move's value and line in one word, written and read whole by the pair."""
    return np.int64(value) * 256 + line


@njit(inline="always")
def _shared(word: np.int64) -> tuple[np.int64, np.int64]:
    """(value, line) of a word of :func:`_share_word`."""
    return word >> 8, word & 255


#: the shared word before either search has proved a root move: no bound
_NO_SHARE = -INF * 256


@njit(inline="always")
def _raise_root(fa: np.ndarray, fa0: np.ndarray, best: np.ndarray, bestm: np.ndarray, low: int) -> None:
    """The root's best and lower bound raised to ``low``, a root move's value the partner
    proved (the best move then the partner's: none of this search's rows)."""
    if low > best[0]:
        best[0] = low
        bestm[0] = -1
    if low > fa[0]:
        fa[0] = low
    if low > fa0[0]:
        fa0[0] = low


@njit(inline="always")
def _narrow(
    fa: np.ndarray,
    fb: np.ndarray,
    fa0: np.ndarray,
    best: np.ndarray,
    bestm: np.ndarray,
    scout: np.ndarray,
    mv: np.ndarray,
    idx: np.ndarray,
    mpts: np.ndarray,
    ply: int,
    low: int,
    extra: bool,
) -> int:
    """The partner proved a root move worth ``low``: raise the root's bound to it and narrow
    the windows of the nodes in progress below (plies 1 .. ``ply`` - 1, and the node ``ply``
    being entered), each as its parent would open it now, as far down as the moves in
    progress were opened with a whole window.  A null window (:func:`open_scout`) stays as
    opened, and so does the lower bound of a node whose current move is one, since
    :func:`rescout` reads the answer against the bound the scout was opened at; so does the
    root's while its current move is a scout (it is raised before its next move instead).
    Returns the shallowest ply whose best now reaches its upper bound (settled: the caller
    returns its best from there), else -1."""
    if scout[0]:
        return -1
    _raise_root(fa, fa0, best, bestm, low)
    if best[0] >= fb[0]:
        return 0
    for k in range(1, ply + 1):
        p = k - 1
        if scout[p]:
            break
        a, b = child_window(fa, fb, p, mpts[mv[p, idx[p] - 1]], extra)
        if b < fb[k]:
            fb[k] = b
        if k == ply:  # being entered: its moves not yet listed
            if a > fa[k]:
                fa[k] = a
            break
        if best[k] >= fb[k]:
            return k
        if a > fa[k]:
            if scout[k]:
                break
            fa[k] = a
            if a > fa0[k]:
                fa0[k] = a  # the table's bound: at most the raised bound is then an upper bound
    return -1


@njit(nogil=True)
def _roots(geo: tuple, n: int, P: tuple) -> tuple:
    """The position's regions as new objects, never merged, so that a root move's line is
    this position's: (their ids, the pools)."""
    link = np.zeros(64, np.uint64)
    relk = np.zeros(64, np.uint64)
    out_l = np.zeros(64, np.uint64)
    out_d = np.zeros(64, np.uint64)
    full = np.uint64(0xFFFFFFFFFFFFFFFF) if n == 64 else (ONE << np.uint64(n)) - ONE
    nc = split(full, np.uint64(0), geo, link, relk, out_l, out_d)
    roots = np.zeros(nc, np.int64)
    for j in range(nc):
        left, most = state_facts(out_l[j], out_d[j], geo)
        roots[j], P = new_lazy(out_l[j], out_d[j], P, left, most, state_key(out_l[j], out_d[j], geo))
    return roots, P


class LazySum:
    """A position's regions, searched with each region state expanded when the search first
    lists it; successive searches share the expanded states and the table (its entries are
    bounds, valid for any window).

    ``partner``: another :class:`LazySum` of the same regions whose table this one shares
    (``tt_bits`` and ``small`` are then the partner's), to search beside it on a second core
    (:func:`search_pair` makes one).  It has pools of its own (each
    expands what it meets) and tries its root moves in the reverse order, so the two start
    on different root moves and each finds the other's proofs in the table.  The two share a
    word too (``share``): the highest value of a root move either has proved, and its line,
    which each takes as its root's lower bound.  A search's own later searches keep it (a
    proved root value is a bound for any window).

    ``look_every``: how often, in nodes (a power of two), the search reads that word while a
    root move is in progress (1: at every node, for tests).

    ``rows``: room for that many region objects (a power of two) before the pools grow (a
    partner's is its partner's): a long search is faster in room reserved at once than in
    pools grown by doubling (:func:`triangles.ai.pools.new_pools`; :data:`triangles.ai.solver.SOLVE_ROWS`).

    ``root_lines``: the lines the root's moves may draw, a mask over ``r.lines`` (None: every
    one; a partner's are its partner's).  The value is then the best of those lines only, and
    the root is kept out of the table; the positions below are the game's.  :func:`triangles.ai.solver.solve`
    searches a position of more legal lines than the masks hold this way, with lines set
    aside (:class:`triangles.ai.regions.Regions`' ``without``) that each of those moves crosses.

    ``tt``: a table to search on in place of a new one (a partner's is its partner's): a
    large state's key does not depend on the search's numbering of the lines
    (:func:`triangles.ai.split.state_key`), so searches of positions that differ in a line or
    two share what they prove (:func:`triangles.ai.solver.solve` on 65 or 66 legal lines)."""

    def __init__(
        self,
        r: Regions,
        tt_bits: int = 20,
        small: int = SMALL,
        *,
        partner: LazySum | None = None,
        rows: int = 1024,
        root_lines: int | None = None,
        tt: np.ndarray | None = None,
        look_every: int = 1024,
    ) -> None:
        if not r.fits:
            raise ValueError(f"too many legal lines for the regions' masks: {r.n} (at most {MAX_LINES})")
        if partner is not None and (partner.regions is not r or partner.second):
            raise ValueError("a partner searches the same regions and is not a partner itself")
        if rows < 1 or rows & (rows - 1):
            raise ValueError(f"rows must be a power of two (the state tables are masked): {rows}")
        self.regions: Regions = r
        self.small: int = small if partner is None else partner.small
        self.second: bool = partner is not None  # tags its table moves 1 and reverses its root moves
        self.tt: np.ndarray = partner.tt if partner is not None else new_table(tt_bits) if tt is None else tt
        self.rows: int = rows if partner is None else partner.rows
        if partner is not None:
            root_lines = partner.root_lines
        if root_lines is not None and not 0 < root_lines < 1 << r.n:
            raise ValueError(f"root_lines must be a nonempty mask of the {r.n} legal lines: {root_lines:#x}")
        #: the lines the root's moves may draw (bit ``k``: ``r.lines[k]``); None: every line
        self.root_lines: int | None = root_lines
        if look_every < 1 or look_every & (look_every - 1):
            raise ValueError(f"look_every must be a power of two: {look_every}")
        self.roots, self.pools = _roots(r.geo, r.n, reserved_pools(self.rows))
        #: the highest root move's value either search of a pair proved, and its line, in one
        #: word (:func:`_share_word`): a lower bound of the root's value for both
        self.share: np.ndarray = partner.share if partner is not None else np.full(1, _NO_SHARE, np.int64)
        #: how often (nodes) the search reads the partner's bound; 1 in tests, to read it everywhere
        self.look_every: int = look_every

    @property
    def states(self) -> int:
        """Region states met so far (objects: each large one expanded at most once, each small
        one merged with the states of the same game tree)."""
        return int(self.pools[7][NOBJ]) - 1

    def search(self, alpha: int, beta: int, node_limit: int, abort: np.ndarray) -> LazyResult:
        """The value for the mover within (alpha, beta), fail-soft, in triangles, and a best line."""
        r = self.regions
        if r.n == 0:
            return LazyResult(0, -1, 0, 0, False)
        v, line, nodes, aborted, self.pools = _lazy_kernel(
            r.geo,
            r.n,
            r.extra,
            alpha,
            beta,
            node_limit,
            abort,
            self.tt,
            self.small,
            self.pools,
            self.roots,
            self.second,
            np.uint64((1 << 64) - 1 if self.root_lines is None else self.root_lines),
            self.share,
            self.look_every - 1,
        )
        pair = int(r.lines[line]) if line >= 0 and not aborted else -1
        return LazyResult(int(v), pair, int(nodes), self.states, bool(aborted))


def search_pair(first: LazySum, alpha: int, beta: int, node_limit: int, abort: np.ndarray) -> LazyResult:
    """One search of ``first``'s position by ``first`` and a partner made for it
    (``LazySum(first.regions, partner=first)``) at once, each on a core (the kernel runs
    without the GIL), the first to finish stopping the other by raising ``abort`` (left
    raised): its result, with the nodes both searched.  Aborted only when both were
    (``abort`` raised from outside, or both out of nodes).  On whole 12-star boards 1.2-1.7
    times faster than one search with alternation and 1.3-1.8 times with the extra turn, in
    about the same memory (``benchmarks/middle-game.md``, seventeenth look).  Each takes the
    best root move's value the other has proved as its root's lower bound, also inside a
    root move it is searching (:class:`LazySum`'s ``share``; fortieth look).  The partner's
    pools are dropped afterwards; ``first`` keeps its own, the shared table and the shared
    word."""
    second = LazySum(first.regions, partner=first)  # ValueError when ``first`` is a partner
    out: list[LazyResult | None] = [None, None]
    failed: list[BaseException] = []

    def run(k: int, ls: LazySum) -> None:
        res = None
        try:
            res = out[k] = ls.search(alpha, beta, node_limit, abort)
        except BaseException as e:  # re-raised in the caller's thread below
            failed.append(e)
        finally:
            if res is None or not res.aborted:
                abort[0] = 1  # done (or failed): the other stops

    helper = threading.Thread(target=run, args=(1, second), name="lazy-search-partner", daemon=True)
    helper.start()
    run(0, first)
    helper.join()
    if failed:
        raise failed[0]
    a, b = out
    assert a is not None and b is not None
    nodes = a.nodes + b.nodes
    win = a if not a.aborted else b
    return win._replace(nodes=nodes, states=a.states + b.states)


def lazy_search(
    game: Game,
    D: GameArrays,
    *,
    alpha: int = -INF,
    beta: int = INF,
    max_nodes: int,
    abort: np.ndarray,
    tt_bits: int = 20,
    small: int = SMALL,
) -> LazyResult:
    """One search of :class:`LazySum` (see there)."""
    return LazySum(Regions(game, D), tt_bits, small).search(alpha, beta, max_nodes, abort)
