"""A search tree over the safe lines: UCT where hard's samples used to be flat.

While safe lines remain, hard's samples (``phase.safe_phase_round``) let both
sides draw *random* safe lines until none is left, then value the give phase
by its playout.  The opponent of those samples never answers a line with the
reply that hurts it most.  Here the first few safe lines of each sample are
chosen in a tree instead (UCB1: the mover of each node picks the line whose
samples ended best for them so far, plus an exploration term), so that the
lines near the root are valued against the replies the samples have found
best, not against the average reply.  Below the tree a sample is as before:
random safe lines, then :func:`phase.playout`.

Values are margins in triangles (the root mover's points minus the other's
over the rest of the game); ``c`` is in triangles as well.  Everything is
numba (``nogil=True``), counted in scans of the legal lines like the other
sampling (never timed, so a move is a function of the seed), and leaves
``D`` as it found it.
"""

from __future__ import annotations

import math

import numpy as np

from triangles import kernels as K
from triangles.ai.effects import line_effect
from triangles.ai.phase import _draw_for, _take_and_safe, playout
from triangles.jit import njit
from triangles.kernels import BoardArrays, GameArrays

__all__ = ["safe_tree"]


@njit(nogil=True)
def _expand(
    S: BoardArrays, D: GameArrays, node: int, used: int, move: np.ndarray, first: np.ndarray, nchild: np.ndarray
) -> int:
    """Give ``node`` one child per safe line of the position ``D`` is in (in a random
    order), stored from ``used`` on; returns the new number of nodes used (``used``
    itself when they would not fit or there is no safe line: ``node`` stays a leaf)."""
    st = D.counters[0]
    k = 0
    for t_ in range(st.nlegal):
        p = D.legal_list[t_]
        closes, gives, _ = line_effect(S, D, p)
        if closes == 0 and gives == 0:
            if used + k >= move.shape[0]:
                return used
            move[used + k] = p
            k += 1
    for i in range(k - 1, 0, -1):  # a random order: the unvisited children are tried in it
        j = np.random.randint(0, i + 1)
        move[used + i], move[used + j] = move[used + j], move[used + i]
    first[node] = used
    nchild[node] = k
    return used + k


@njit(nogil=True)
def safe_tree(
    S: BoardArrays,
    D: GameArrays,
    cand: int,
    seed: int,
    max_work: int,
    c: float,
    expand_at: int,
    capacity: int,
    visits_out: np.ndarray,
    abort: np.ndarray,
) -> tuple[int, int, int]:
    """UCT over the safe lines of the position ``D`` is in: ``(pair, work, samples)``.

    ``pair`` is the root's most visited safe line (ties: the better mean; -1 when
    there is no safe line), ``work`` the scans of the legal lines done, ``samples``
    how many were run.  A sample walks down the tree by UCB1 (unvisited children
    first), grows a child for every safe line of a leaf that has had ``expand_at``
    samples (the root at once), then plays on below it as
    :func:`phase.safe_phase_round` does (take, else a safe line ranked by fresh
    dice, until nothing is safe; then :func:`phase.playout`).  Stops once ``work``
    reaches ``max_work``, or ``abort[0]`` is raised.  ``visits_out[i]`` gets the
    visits of the root's children, in the order of ``pairs`` they were grown in.
    """
    st = D.counters[0]
    me = st.player
    np.random.seed(seed)
    move = np.empty(capacity, np.int64)
    first = np.zeros(capacity, np.int64)
    nchild = np.zeros(capacity, np.int64)
    visits = np.zeros(capacity, np.int64)
    total = np.zeros(capacity, np.float64)  # the margins of its samples, for the player who drew its line
    mover = np.zeros(capacity, np.int64)  # who drew the node's line
    path = np.empty(256, np.int64)
    move[0] = -1
    work = 1
    used = _expand(S, D, 0, 1, move, first, nchild)
    for i in range(nchild[0]):
        mover[first[0] + i] = me
    if nchild[0] == 0:
        return -1, work, 0
    samples = 0
    while work < max_work and abort[0] == 0:
        node = 0
        depth = 0
        plies = 0
        net = 0
        while True:
            if nchild[node] == 0:
                if node != 0 and visits[node] >= expand_at and used < capacity and st.live > 0:
                    before = used
                    used = _expand(S, D, node, used, move, first, nchild)
                    work += 1
                    for i in range(before, used):
                        mover[i] = st.player
                if nchild[node] == 0:
                    break
            # UCB1 among the children, for the player to move here
            lnn = math.log(visits[node] + 1.0)
            best = -1
            best_u = -1e300
            f = first[node]
            for i in range(nchild[node]):
                ch = f + i
                if visits[ch] == 0:
                    best = ch
                    break
                u = total[ch] / visits[ch] + c * math.sqrt(lnn / visits[ch])
                if u > best_u:
                    best_u = u
                    best = ch
            net += _draw_for(S, D, move[best], me)
            plies += 1
            node = best
            if depth < path.shape[0]:
                path[depth] = node
                depth += 1
        # below the tree: as in phase.safe_phase_round, with fresh dice
        prio = np.random.random(S.pi.shape[0])
        while st.live > 0:
            q, safe = _take_and_safe(S, D, prio)
            work += 1
            if q < 0:
                q = safe
                if q < 0:
                    break
            net += _draw_for(S, D, q, me)
            plies += 1
        if st.live > 0:
            rest, w = playout(S, D, cand)
            work += w
            net += rest if st.player == me else -rest
        for _ in range(plies):
            K.undo_line(S, D)
        samples += 1
        visits[0] += 1
        for d in range(depth):
            n_ = path[d]
            visits[n_] += 1
            total[n_] += net if mover[n_] == me else -net
    f = first[0]
    best = -1
    for i in range(nchild[0]):
        ch = f + i
        if i < visits_out.shape[0]:
            visits_out[i] = visits[ch]
        if best < 0 or visits[ch] > visits[best]:
            best = ch
        elif visits[ch] == visits[best] and visits[ch] > 0 and total[ch] / visits[ch] > total[best] / visits[best]:
            best = ch
    return move[best], work, samples
