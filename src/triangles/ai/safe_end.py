"""The end of the safe phase played out as a game of its own: who draws the last safe line.

With strict alternation a safe line (one that neither scores nor gives) only
uses a turn, so once few are left the fight is over *parity*: whoever must
move when none is left has to open the give phase.  Sampling random orders of
the safe lines (``phase.safe_phase_round``) values a line by what both sides
do on average; here, when few safe lines are left, every set of them the two
sides can still draw is looked at, the positions where none is left are
valued by the give-phase model (:func:`triangles.ai.phase.playout`), and the
sets are backed up by negamax, so each side is assumed to choose its safe
lines well.  Safe lines score nothing and can be drawn in any order, so a
position is fixed by the *set* drawn: at most ``2**n`` positions for ``n``
safe lines, far fewer in practice (drawing one safe line can cross another or
turn it into a giving line).

A line that was not safe at the start can become safe (a crossing can block
the triangle it would have given); it then joins the lines the sets are made
of.  When the positions outrun the budget, the answer is "unknown".
"""

from __future__ import annotations

import numpy as np

from triangles import kernels as K
from triangles.ai.effects import line_effect
from triangles.ai.phase import playout
from triangles.jit import njit
from triangles.kernels import BoardArrays, GameArrays

__all__ = ["MAX_SAFE", "safe_endgame"]

#: at most this many lines can be safe along the way (a set of them is a 64-bit mask)
MAX_SAFE = 62


@njit(nogil=True)
def safe_endgame(
    S: BoardArrays, D: GameArrays, safe: np.ndarray, cand: int, max_work: int, abort: np.ndarray
) -> tuple[np.ndarray, int, bool]:
    """Negamax over the sets of ``safe`` (the position's safe lines, nothing to take) the two sides can draw.

    Returns ``(values, work, ok)``: the mover's margin from here by the
    give-phase model after each line of ``safe``, the work done in scans of the legal
    lines, and whether the answer holds (False: over ``max_work``, aborted, too
    many lines safe along the way).  ``D`` is restored.
    """
    n = safe.shape[0]
    out = np.zeros(n, np.int64)
    if n > MAX_SAFE or n < 1:
        return out, 0, False
    index_of = np.full(S.pi.shape[0], -1, np.int64)
    lines = np.zeros(MAX_SAFE, np.int64)  # the lines a set is made of: ``safe``, then any that turn safe
    for i in range(n):
        index_of[safe[i]] = i
        lines[i] = safe[i]
    nroot = n
    cap = 1024
    masks = np.zeros(cap, np.int64)
    kid_ptr = np.zeros(cap + 1, np.int64)
    kids = np.zeros(cap * 4, np.int64)
    value = np.zeros(cap, np.int64)
    seen = {np.int64(0): np.int64(0)}
    count = 1
    nkids = 0
    work = 0
    k = 0
    while k < count:  # breadth first: every set is listed after the sets it grows from
        if work > max_work or abort[0] != 0:
            return out, work, False
        m = masks[k]
        drawn = 0
        for i in range(n):
            if (m >> i) & 1:
                K.apply_line(S, D, lines[i])
                drawn += 1
        ok = True
        kid_ptr[k] = nkids
        for t_ in range(D.counters[0].nlegal):
            p = D.legal_list[t_]
            closes, gives, _ = line_effect(S, D, p)
            if closes != 0 or gives != 0:
                continue
            i = index_of[p]
            if i < 0:  # a line that turned safe
                if n == MAX_SAFE:
                    ok = False
                    break
                i = n
                index_of[p] = i
                lines[i] = p
                n += 1
            child = m | (np.int64(1) << np.int64(i))
            if child not in seen:
                if count == masks.shape[0]:
                    masks = _grown(masks)
                    value = _grown(value)
                    kid_ptr = _grown(kid_ptr)
                seen[child] = np.int64(count)
                masks[count] = child
                count += 1
            if nkids == kids.shape[0]:
                kids = _grown(kids)
            kids[nkids] = seen[child]
            nkids += 1
        work += 1 + drawn
        if ok and nkids == kid_ptr[k]:  # none left: the mover must open the give phase
            v, w = playout(S, D, cand)
            value[k] = v
            work += w
        for _ in range(drawn):
            K.undo_line(S, D)
        if not ok:
            return out, work, False
        k += 1
    kid_ptr[count] = nkids
    for k in range(count - 1, -1, -1):  # children first
        lo, hi = kid_ptr[k], kid_ptr[k + 1]
        if lo == hi:
            continue
        v = -(np.int64(1) << np.int64(40))
        for t in range(lo, hi):
            v = max(v, -value[kids[t]])
        value[k] = v
    for i in range(nroot):  # every root line is a safe line of the root: a child
        out[i] = -value[seen[np.int64(1) << np.int64(i)]]
    return out, work, True


@njit(inline="always")
def _grown(a: np.ndarray) -> np.ndarray:
    b = np.zeros(2 * a.shape[0], a.dtype)
    b[: a.shape[0]] = a
    return b
