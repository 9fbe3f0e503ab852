"""The search kernels: negamax alpha-beta with a transposition table.

Everything here is numba (``nogil=True``) over the rules kernels' ``S``/``D``
tuples, so a search runs without the GIL in the UI's worker thread.

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
"""

from __future__ import annotations

import numpy as np

from triangles import kernels as K
from triangles.jit import njit

SCALE = 64
INF = 1 << 28
SOLVE_DEPTH = 10_000  # "unbounded": deeper than any game

# ctl array (int64) slots
C_NODES = 0  # nodes visited by this search
C_LIMIT = 1  # abort once C_NODES reaches this
C_ABORTED = 2  # 1 once the search stopped early (node limit or time flag)
C_HASH = 3  # running Zobrist hash of the drawn lines
C_BEST = 4  # best root pair of the last call
C_SIZE = 8

# par array (int64) slots
P_WIDTH = 0  # candidate lines per node (>= number of legal lines: full width)
P_QDEPTH = 1  # quiescence plies (scoring lines only) below the horizon; 0 = none
P_NOISE = 2  # leaf noise amplitude, in SCALE units (0 = none)
P_SALT = 3  # seed-derived salt for tie-breaks and noise
P_ROOTWIDTH = 4  # candidate lines at the root
P_DEDUPE = 5  # 1: list only one of the equivalent pure-tempo lines (exact search)
P_CANON = 6  # 1: key the TT on the position's equivalence class (see canon_hash)
P_PARITY = 7  # safe-line parity term at quiet leaves, SCALE units (0 = off)
P_PARITY_MAX = 8  # only when at most this many safe lines remain
P_SIZE = 10

# TT flags
F_EXACT = 1
F_LOWER = 2
F_UPPER = 3


def zobrist(npairs: int) -> tuple[np.ndarray, np.uint64]:
    """Fixed Zobrist keys for a board size (seeded: the same on every run)."""
    rng = np.random.Generator(np.random.PCG64(0x7A1A6135))
    keys = rng.integers(1, np.iinfo(np.uint64).max, size=npairs + 1, dtype=np.uint64)
    return keys[:npairs].copy(), keys[npairs]


def new_tt(bits: int):
    m = 1 << bits
    return (
        np.zeros(m, np.uint64),  # key
        np.zeros(m, np.int32),  # value
        np.full(m, -1, np.int16),  # depth (-1 = empty)
        np.zeros(m, np.int8),  # flag
        np.full(m, -1, np.int32),  # best pair
    )


@njit(inline="always")
def _mix(x):
    """splitmix64 finaliser: a cheap deterministic hash of a uint64."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(nogil=True)
def hash_drawn(D, zob):
    h = np.uint64(0)
    drawn = D.line_owner
    for p in range(drawn.shape[0]):
        if drawn[p] >= 0:
            h ^= zob[p]
    return h


@njit(nogil=True)
def canon_hash(S, D, zob):
    """Zobrist hash of what the future depends on: legal lines + drawn sides of live cells.

    Two positions with the same legal lines and the same drawn sides of every
    live triangle have the same future (closed and dead triangles never score
    again; a drawn line matters only through the lines it blocks, which the
    legal set records), so they share an exact value.  Legal and drawn pairs
    use different keys (``zob[p]`` rotated for drawn).
    """
    inc_ptr = S.inc_ptr
    inc_cell = S.inc_cell
    legal = D.legal
    drawn = D.line_owner
    cell_drawn = D.cell_drawn
    cell_blocked = D.cell_blocked
    h = np.uint64(0x243F6A8885A308D3)
    for p in range(legal.shape[0]):
        if legal[p] != 0:
            h ^= zob[p]
        elif drawn[p] >= 0:
            for t in range(inc_ptr[p], inc_ptr[p + 1]):
                c = inc_cell[t]
                if cell_blocked[c] == 0 and cell_drawn[c] < 3:
                    z = zob[p]
                    h ^= (z << np.uint64(17)) | (z >> np.uint64(47))
                    break
    return h


@njit(inline="always")
def line_effect(S, D, p):
    """(closes, gives, borders) for the legal pair ``p``.

    Over the live cells ``p`` is a side of: ``closes`` have both other sides
    drawn (scored by drawing ``p``), ``gives`` have one (drawing ``p`` hands the
    next player a closable triangle), ``borders`` counts them all.  A line with
    ``closes == gives == 0`` is *safe*.  The one place this is counted, for the
    search, its ordering and the baselines.
    """
    inc_ptr = S.inc_ptr
    inc_cell = S.inc_cell
    cell_drawn = D.cell_drawn
    cell_blocked = D.cell_blocked
    closes = 0
    gives = 0
    borders = 0
    for t in range(inc_ptr[p], inc_ptr[p + 1]):
        c = inc_cell[t]
        if cell_blocked[c] != 0:
            continue
        d = cell_drawn[c]
        if d == 3:
            continue
        borders += 1
        if d == 2:
            closes += 1
        elif d == 1:
            gives += 1
    return closes, gives, borders


@njit(nogil=True)
def safe_run(S, D):
    """Lines drawn by playing safe lines (no score, nothing given away) in pair
    order, one pass, until none is left; the state is restored.  Its parity
    estimates who will be first to run out of safe lines."""
    st = D.counters[0]
    legal = D.legal
    n = 0
    for p in range(legal.shape[0]):
        if legal[p] == 0 or st.live == 0:
            continue
        closes, gives, _ = line_effect(S, D, p)
        if closes == 0 and gives == 0:
            K.apply_line(S, D, p)
            n += 1
    for _ in range(n):
        K.undo_line(S, D)
    return n


@njit(nogil=True)
def _isolated(S, D, p):
    """True when the legal pair ``p`` crosses no other legal pair."""
    xs, ys, pi, pj = S.xs, S.ys, S.pi, S.pj
    legal = D.legal
    cx = xs[pi[p]]
    cy = ys[pi[p]]
    dx = xs[pj[p]]
    dy = ys[pj[p]]
    for q in range(legal.shape[0]):
        if legal[q] == 0 or q == p:
            continue
        if K.segments_cross(cx, cy, dx, dy, xs[pi[q]], ys[pi[q]], xs[pj[q]], ys[pj[q]]):
            return False
    return True


@njit(nogil=True)
def gen_moves(S, D, out, width, salt, tt_move, captures_only, hist, dedupe, info):
    """Fill ``out`` with up to ``width`` legal pairs, best first; returns how many.

    Order: the TT move; scoring lines (more triangles first); lines that give
    the opponent nothing to close; then by fewest triangles given away; within
    a class by the history score (cut-offs seen so far), then a salted hash of
    the pair id (deterministic per seed).

    ``info[0]`` receives the fewest triangles a non-scoring line gives away
    (2**30 when every legal line scores).

    With ``dedupe``, lines that are a side of no live triangle and cross no
    legal line are pure tempo moves, all equivalent: only the first is listed.
    """
    legal = D.legal
    keys = np.empty(width, np.int64)
    k = 0
    seen_pass = False
    min_give = np.int64(1 << 30)
    nsafe = 0
    for p in range(legal.shape[0]):
        if legal[p] == 0:
            continue
        c2, g, rel = line_effect(S, D, p)
        if c2 == 0 and g < min_give:
            min_give = g
        if c2 == 0 and g == 0:
            nsafe += 1
        if captures_only and c2 == 0:
            continue
        if dedupe and rel == 0 and p != tt_move:
            if _isolated(S, D, p):
                if seen_pass:
                    continue
                seen_pass = True
        if p == tt_move:
            key = np.int64(7) << 58
        elif c2 > 0:
            key = (np.int64(6) << 58) + (np.int64(c2) << 54) - (np.int64(min(g, 15)) << 50)
        elif g == 0:
            key = np.int64(5) << 58
        else:
            key = (np.int64(4) << 58) - (np.int64(min(g, 15)) << 50)
        key += np.int64(min(hist[p], (1 << 32) - 1)) << 16
        key += np.int64(_mix(np.uint64(p) * np.uint64(0x9E3779B97F4A7C15) ^ salt) >> np.uint64(48))
        # insertion into the sorted (descending) top-``width`` list
        if k < width:
            pos = k
            k += 1
        elif key > keys[width - 1]:
            pos = width - 1
        else:
            continue
        while pos > 0 and keys[pos - 1] < key:
            keys[pos] = keys[pos - 1]
            out[pos] = out[pos - 1]
            pos -= 1
        keys[pos] = key
        out[pos] = p
    info[0] = min_give
    info[1] = nsafe
    return k


_ENTER = 0
_NEXT = 1
_RETURN = 2


@njit(nogil=True)
def search_root(S, D, zob, zside, tt, ctl, par, abort, mvbuf, depth, alpha, beta):
    """One fixed-depth alpha-beta search from the current position (restored after).

    Iterative (explicit stack) rather than recursive: numba's on-disk cache does
    not reload recursive functions safely.  Below the horizon a quiescence
    search tries scoring lines only, with 'stand pat' = the static leaf value.
    The best root pair is left in ``ctl[C_BEST]``.  If the node limit or the
    abort flag stops the search, ``ctl[C_ABORTED]`` is 1 and the value is 0.
    """
    st = D.counters[0]
    tt_key, tt_val, tt_depth, tt_flag, tt_move = tt
    mask = np.uint64(tt_key.shape[0] - 1)
    maxply = mvbuf.shape[0]
    salt = np.uint64(par[P_SALT])
    dedupe = par[P_DEDUPE] != 0
    canon = par[P_CANON] != 0
    hist = np.zeros(D.legal.shape[0], np.int64)
    ginfo = np.zeros(2, np.int64)
    f_alpha = np.empty(maxply, np.int64)
    f_beta = np.empty(maxply, np.int64)
    f_alpha0 = np.empty(maxply, np.int64)
    f_best = np.empty(maxply, np.int64)
    f_bestp = np.empty(maxply, np.int64)
    f_n = np.empty(maxply, np.int64)
    f_idx = np.empty(maxply, np.int64)
    f_depth = np.empty(maxply, np.int64)
    f_qd = np.empty(maxply, np.int64)
    f_slot = np.empty(maxply, np.int64)
    f_key = np.empty(maxply, np.uint64)
    f_mover = np.empty(maxply, np.int64)
    f_closed = np.empty(maxply, np.int64)
    f_p = np.empty(maxply, np.int64)

    ctl[C_ABORTED] = 0
    ctl[C_BEST] = -1
    h = hash_drawn(D, zob)
    ply = 0
    f_alpha[0] = alpha
    f_beta[0] = beta
    f_depth[0] = depth
    f_qd[0] = par[P_QDEPTH]
    ret = np.int64(0)
    state = _ENTER
    while True:
        if state == _ENTER:
            ctl[C_NODES] += 1
            if ctl[C_NODES] >= ctl[C_LIMIT] or ((ctl[C_NODES] & 255) == 0 and abort[0] != 0):
                ctl[C_ABORTED] = 1
            if ctl[C_ABORTED] != 0 or st.live == 0:
                ret = 0
                state = _RETURN
                continue
            a = f_alpha[ply]
            b = f_beta[ply]
            if par[P_NOISE] == 0:
                # future points lie within +-(live cells): a free bound cut-off
                lim = st.live * SCALE
                if lim <= a:
                    ret = lim
                    state = _RETURN
                    continue
                if -lim >= b:
                    ret = -lim
                    state = _RETURN
                    continue
            f_mover[ply] = st.player
            f_bestp[ply] = -1
            if f_depth[ply] <= 0 or ply >= maxply - 1:
                # quiescence node
                stand = np.int64(0)
                if par[P_NOISE] != 0:
                    x = _mix(h ^ salt ^ np.uint64(st.player + 1))
                    stand = np.int64(x % np.uint64(2 * par[P_NOISE] + 1)) - par[P_NOISE]
                if ply >= maxply - 1:
                    ret = stand
                    state = _RETURN
                    continue
                out = mvbuf[ply]
                f_n[ply] = gen_moves(S, D, out, min(out.shape[0], par[P_WIDTH], 3), salt, -1, True, hist, False, ginfo)
                if ginfo[0] > 0 and ginfo[0] < (1 << 30):
                    # no quiet line is safe: not scoring costs at least ginfo[0] triangles
                    stand -= ginfo[0] * SCALE
                elif par[P_PARITY] != 0 and ginfo[0] == 0 and ginfo[1] <= par[P_PARITY_MAX]:
                    # whoever draws the last safe line makes the other give triangles away
                    if safe_run(S, D) % 2 == 1:
                        stand += par[P_PARITY]
                    else:
                        stand -= par[P_PARITY]
                if f_qd[ply] <= 0 or f_n[ply] == 0 or stand >= b:
                    ret = stand
                    state = _RETURN
                    continue
                f_best[ply] = stand
                if stand > a:
                    f_alpha[ply] = stand
                f_idx[ply] = 0
                state = _NEXT
                continue
            # full-width (or candidate-restricted) node with a TT probe
            key = canon_hash(S, D, zob) if canon else h
            if st.player == 1:
                key ^= zside
            slot = np.int64(key & mask)
            f_key[ply] = key
            f_slot[ply] = slot
            f_alpha0[ply] = a
            hint_move = -1
            if tt_key[slot] == key and tt_depth[slot] >= 0:
                hint_move = tt_move[slot]
                if tt_depth[slot] >= f_depth[ply] and ply > 0:
                    v = np.int64(tt_val[slot])
                    fl = tt_flag[slot]
                    if fl == F_EXACT or (fl == F_LOWER and v >= b) or (fl == F_UPPER and v <= a):
                        ret = v
                        state = _RETURN
                        continue
            out = mvbuf[ply]
            width = par[P_ROOTWIDTH] if ply == 0 else par[P_WIDTH]
            if width > out.shape[0]:
                width = out.shape[0]
            f_n[ply] = gen_moves(S, D, out, width, salt, hint_move, False, hist, dedupe, ginfo)
            f_idx[ply] = 0
            f_best[ply] = -INF
            state = _NEXT
        elif state == _NEXT:
            i = f_idx[ply]
            if i >= f_n[ply]:
                best = f_best[ply]
                if f_depth[ply] > 0 and ply < maxply - 1:
                    if ply == 0:
                        ctl[C_BEST] = f_bestp[ply]
                    if best <= f_alpha0[ply]:
                        fl = F_UPPER
                    elif best >= f_beta[ply]:
                        fl = F_LOWER
                    else:
                        fl = F_EXACT
                    slot = f_slot[ply]
                    tt_key[slot] = f_key[ply]
                    tt_val[slot] = best
                    tt_depth[slot] = min(f_depth[ply], 32000)
                    tt_flag[slot] = fl
                    tt_move[slot] = f_bestp[ply]
                ret = best
                state = _RETURN
                continue
            f_idx[ply] = i + 1
            p = mvbuf[ply, i]
            closed = np.int64(K.apply_line(S, D, p)) * SCALE
            h ^= zob[p]
            f_p[ply] = p
            f_closed[ply] = closed
            a = f_alpha[ply]
            b = f_beta[ply]
            c = ply + 1
            if st.player == f_mover[ply]:
                f_alpha[c] = a - closed
                f_beta[c] = b - closed
            else:
                f_alpha[c] = closed - b
                f_beta[c] = closed - a
            f_depth[c] = f_depth[ply] - 1
            f_qd[c] = par[P_QDEPTH] if f_depth[ply] > 0 else f_qd[ply] - 1
            ply = c
            state = _ENTER
        else:  # _RETURN
            if ply == 0:
                if ctl[C_ABORTED] != 0:
                    return np.int64(0)
                return ret
            ply -= 1
            p = f_p[ply]
            K.undo_line(S, D)
            h ^= zob[p]
            if ctl[C_ABORTED] != 0:
                continue  # unwind to the root
            closed = f_closed[ply]
            if closed > 0 and st.extra == 1:
                v = closed + ret
            else:
                v = closed - ret
            if v > f_best[ply]:
                f_best[ply] = v
                f_bestp[ply] = p
                if v > f_alpha[ply]:
                    f_alpha[ply] = v
                    if v >= f_beta[ply]:
                        f_idx[ply] = f_n[ply]  # cut-off
                        if closed == 0 and f_depth[ply] > 0:
                            r = 40 - min(ply, 20)
                            hist[p] += 0 * r * r
            state = _NEXT

