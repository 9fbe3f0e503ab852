"""Public entry points: :func:`choose_move`, :func:`hint`, :func:`solve`.

One engine (:mod:`triangles.ai.engine`), a parameter set per level
(:mod:`triangles.ai.levels`).  A move is decided by a *deterministic* node
budget, so the same seed, position and level always give the same move; the
wall-clock ``time_limit`` is only a safety cap (a timer thread raises an abort
flag that the nogil search polls).  If that cap ever fires, the move comes
from the last fully searched depth and may then depend on machine speed: that
is the trade-off for never blocking the UI.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from triangles import kernels as K
from triangles.ai import engine as E
from triangles.ai.abort import AbortTimer
from triangles.ai.baselines import greedy_move, move_table
from triangles.ai.faces import face_model, steer
from triangles.ai.levels import LEVELS, Level, get_level
from triangles.ai.phase import safe_phase_round
from triangles.ai.solver import decide, decide_regions, solve
from triangles.players import LEVEL_NAMES

if TYPE_CHECKING:
    from triangles.kernels import BoardArrays, GameArrays
    from triangles.rules import Game, Move

__all__ = ["LEVELS", "Level", "choose_move", "hint", "solve", "SearchInfo", "last_info", "warm_up", "seed_salt"]

#: the share of the wall-clock cap an endgame proof may use (the search after it has the rest)
PROOF_SHARE = 0.5

#: fewer sampled futures a safe line than this tell nothing: :func:`safe_choice` then leaves the choice to the search
MIN_SAFE_ROUNDS = 4

#: threads the safe-line samples run on (the caller's and helpers): their wall time halves on two cores
SAMPLE_THREADS = min(2, os.cpu_count() or 1)

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _forget_pool() -> None:
    """In a forked child: the parent's helper thread does not exist there, so make a new one."""
    global _POOL, _POOL_LOCK
    _POOL, _POOL_LOCK = None, threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows, which has no fork
    os.register_at_fork(after_in_child=_forget_pool)

#: depth of the playing search's stack (iterative deepening plus quiescence never get near)
MAX_PLY = 128


@dataclass
class SearchInfo:
    """What the last search on this thread did (for benchmarks and the UI)."""

    level: str = ""
    move: Move | None = None
    value: float = 0.0  # in triangles, for the mover
    depth: int = 0  # the deepest fully searched depth
    nodes: int = 0
    seconds: float = 0.0
    solved: bool = False  # the result (win / draw / loss) was proved
    outcome: int | None = None  # when solved: 1 win, 0 draw, -1 loss for the mover
    aborted: bool = False  # the wall-clock cap fired: the move may depend on machine speed
    lapse: bool = False  # the level's lapse: the simple rule's move, not the search's (``Level.lapse``)


_local = threading.local()


def last_info() -> SearchInfo:
    """What the last :func:`choose_move` on this thread did."""
    info: SearchInfo = getattr(_local, "info", SearchInfo())
    return info


def seed_salt(seed: int | None) -> int:
    """The search's salt for ``seed`` (0 for None): a whole number mixed by SeedSequence.

    Raises ValueError for anything but an int (or numpy integer) or None, so
    that a seed never depends on Python's per-process string hashing.
    """
    if seed is None:
        return 0
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise ValueError(f"seed must be a whole number (int) or None, got {type(seed).__name__} {seed!r}")
    state = np.random.SeedSequence(abs(int(seed))).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


def choose_move(game: Game, level: str | Level, *, seed: int | None = None, time_limit: float | None = None) -> Move:
    """A legal move ``(i, j)`` for the player to move; ``game`` is left as it was.

    ``level`` is a name from :data:`LEVELS` ("easy", "medium", "hard") or a
    :class:`Level` (e.g. a tuning variant made with ``dataclasses.replace``).
    Deterministic for a given seed, position and level unless the
    ``time_limit`` safety cap (default: the level's) cuts the search short.
    """
    lv = get_level(level)
    salt = seed_salt(seed)
    if game.is_over():
        raise ValueError("the game is over: no move to choose")
    t0 = time.perf_counter()
    cap = lv.time_limit if time_limit is None else float(time_limit)
    info = SearchInfo(level=lv.name)
    lapsed = _lapse_move(game, lv, salt)
    info.lapse = lapsed is not None
    move = lapsed if lapsed is not None else _engine_move(game, lv, salt, cap, info)
    info.move = move
    info.seconds = time.perf_counter() - t0
    _local.info = info
    return move


def _lapse_move(game: Game, lv: Level, salt: int) -> Move | None:
    """The simple rule's move when this move is one of the level's lapses (``Level.lapse``,
    ``Level.lapse_extra`` under the extra-turn rule), else None.  The position's move count
    is mixed into the seed, so that one seed for a whole game still lapses on some moves only."""
    chance = lv.lapse_extra if game.extra_turn else lv.lapse
    if chance <= 0:
        return None
    rng = np.random.default_rng((salt, game.move_count))
    return greedy_move(game, rng) if rng.random() < chance else None


def _engine_move(game: Game, lv: Level, salt: int, cap: float, info: SearchInfo) -> Move:
    """The engine's move: a proved win (or draw) once the rest of the game is small enough,
    else the search's line; ``info`` gathers what they did."""
    D = game.arrays()  # search on a private copy: the caller's game is never touched
    with AbortTimer(cap) as timer:
        # once the rest of the game is small enough, play a line proved to win
        # (else to draw); a lost position is left to the search below
        best_p = _proved_line(game, D, lv, cap, info)
        if best_p < 0:
            best_p = _search(game, D, lv, salt, timer.flag, info)
    if best_p < 0 or D.legal[best_p] == 0:  # cannot happen, but never return an illegal line
        best_p = int(np.flatnonzero(D.legal)[0])
    return game.board.pair(best_p)


def _proved_line(game: Game, D: GameArrays, lv: Level, cap: float, info: SearchInfo) -> int:
    """A line proved to win, else to draw, or -1 (lost, or nothing proved within the level's
    budgets): over the regions first (``Level.region_legal``, ``Level.region_legal_extra``),
    else by the whole-board proof (``Level.solve_legal``; twice as many lines with the
    extra-turn rule, where it is far cheaper)."""
    nlegal = int(D.counters[0]["nlegal"])
    reach = lv.solve_legal * (2 if game.extra_turn else 1)
    proof = None
    # the proofs may use only part of the cap: on a loaded machine a proof cut by the
    # cap used to leave the search only its first depth (too small to poll the flag)
    with AbortTimer(cap * PROOF_SHARE) as proof_timer:
        regions = lv.region_legal_extra if game.extra_turn else lv.region_legal
        if regions and nlegal <= regions:
            proof, work = decide_regions(
                game, D, max_states=lv.region_states, max_nodes=lv.region_nodes, abort=proof_timer.flag
            )
            info.nodes += work
        if proof is None and lv.solve_legal and nlegal <= reach:
            proof, nodes = decide(game, D, max_nodes=proof_budget(game, lv, nlegal), abort=proof_timer.flag)
            info.nodes += nodes
    if proof is None:
        info.aborted = bool(proof_timer.flag[0])
        return -1
    info.solved = True
    info.outcome = proof.outcome
    return proof.pair


def _node_cost(game: Game, nlegal: int) -> int:
    """Work of one search node, in the units of ``Level.work``.

    Move generation and make/unmake walk the legal lines (each looked at on
    its cells, each tested against the new line) and the stars (which side of
    the new line each lies on); the board's pairs are no longer scanned.
    Fitted to the measured time of hard's nodes on every preset
    (``benchmarks/node_cost.py``): about 0.024 us a unit, within 1.5x on
    24 to 180 stars, where pairs-based counting was 5x apart.
    """
    return 2 * nlegal + game.board.n // 2 + 32


def proof_budget(game: Game, lv: Level, nlegal: int) -> int:
    """Nodes the level's endgame proof may search in this position (``solve_nodes``,
    less on boards where ``solve_work`` allows fewer).

    A proof's node is counted as a search node (:func:`_node_cost`).  Measured
    (``benchmarks/node_cost.py``) it is cheaper: 0.6x on 24 stars and less on
    larger boards, where its nodes lie deep, among few lines; its table key is
    kept up to date line by line rather than counted at each node."""
    if lv.solve_work:
        return min(lv.solve_nodes, lv.solve_work // _node_cost(game, nlegal))
    return lv.solve_nodes


def search_params(lv: Level, nlegal: int, salt: int) -> E.SearchParams:
    """The playing search's parameters for ``lv`` with ``nlegal`` legal lines (plain ints
    and bools: one compiled kernel for every level and variant)."""
    return E.SearchParams(
        width=int(min(lv.width, nlegal)),
        root_width=int(min(lv.root_width, nlegal)),
        qdepth=int(lv.qdepth),
        noise=int(round(lv.noise * E.SCALE)),
        salt=salt,
        dedupe=False,
        canon=False,
    )


def _search(game: Game, D: GameArrays, lv: Level, salt: int, abort: np.ndarray, info: SearchInfo) -> int:
    """Iterative deepening within the level's budget: the best pair of the deepest finished depth."""
    S = game.board.arrays
    nlegal = int(D.counters[0]["nlegal"])
    node_budget = max(200, lv.work // _node_cost(game, nlegal))
    par = search_params(lv, nlegal, salt)
    sr = E.new_search(
        par, game.board.npairs, tt_bits=lv.tt_bits, plies=MAX_PLY, width=max(par.root_width, par.width, 64), abort=abort
    )
    best_p = -1
    used = 0
    sampled, work = safe_choice(game, D, lv, salt, abort)
    info.nodes += work // _node_cost(game, nlegal)
    if sampled >= 0 and lv.safe_trust and not game.extra_turn and not _can_take(game, D):
        return sampled
    if sampled >= 0:
        E.set_root_hint(sr, D, sampled)  # searched first at the root, so it wins the search's ties
    for depth in range(1, lv.max_depth + 1):
        if node_budget - used <= 0:
            break
        r = E.search(S, D, sr, depth=depth, node_limit=node_budget - used)
        used += r.nodes
        if r.aborted:
            break
        best_p = r.best
        info.depth = depth
        info.value = r.value / E.SCALE
        if depth >= nlegal:  # the whole (restricted) tree was searched
            break
    info.nodes += used
    info.aborted = info.aborted or bool(abort[0])
    if best_p < 0:
        # not even depth 1 finished: best of the move ordering (scoring, then safe lines)
        first = E.ordered_lines(S, D, width=1, salt=salt)
        if len(first):
            best_p = int(first[0])
    return best_p


def _can_take(game: Game, D: GameArrays) -> bool:
    """Whether some legal line scores."""
    _, closes, _ = move_table(game.board.arrays, D)
    return bool(closes.max(initial=0) > 0)


def safe_choice(game: Game, D: GameArrays, lv: Level, salt: int, abort: np.ndarray) -> tuple[int, int]:
    """While safe lines remain: the safe line whose sampled futures (both sides
    draw the safe lines a random ranking puts first, then the give-phase model's
    playout; see ``phase.safe_phase_round``) end best for the mover, and the work
    spent, in the units of ``Level.work``.

    The budget ``lv.safe_mc_work`` is spent by sequential halving: a stage runs
    rounds of one sample per remaining line (at most ``lv.safe_mc`` rounds),
    then keeps the better half, so the lines that stay in contention get most
    of the samples.  Every stage gets an equal share of what is left.  The pair
    is -1 (no preference) when there is at most one safe line, or when one
    sample of one line shows that fewer than :data:`MIN_SAFE_ROUNDS` rounds of
    every line would fit (their mean would be noise).  The work is counted,
    not timed, so the choice is seed-deterministic.

    On boards of at most ``lv.faces_stars`` stars only the safe lines that set the
    board's thin faces the mover's way (``faces.steer``: who draws the game's last
    line) are sampled; when that leaves one, it is the choice.
    """
    if lv.safe_mc <= 0:
        return -1, 0
    S = game.board.arrays
    pairs, closes, gives = move_table(S, D)
    safe = pairs[(closes == 0) & (gives == 0)].astype(np.int64)
    if len(safe) < 2:
        return -1, 0
    if game.board.n <= lv.faces_stars and not game.extra_turn:
        # only the safe lines that set the board's thin faces the mover's way (see ai.faces;
        # with the extra turn the last line decides nothing, so the faces are not even found)
        steered = steer(face_model(game.board), D, safe, extra_turn=False)
        if len(steered) == 1:
            return int(steered[0]), 0
        safe = steered
    unit = int(D.counters[0]["nlegal"])  # a scan of the legal lines: about one unit a line
    # one sample of one line first: when a round would not fit MIN_SAFE_ROUNDS times, stop there
    probe = np.zeros(1, np.int64)
    used = unit * int(safe_phase_round(S, D, safe[:1], lv.safe_cand, salt % (1 << 31), probe, abort))
    if abort[0]:
        return -1, used
    if used * len(safe) * MIN_SAFE_ROUNDS > lv.safe_mc_work:
        fit = lv.safe_mc_work // max(1, used * MIN_SAFE_ROUNDS)
        if lv.safe_subset <= 0 or fit < lv.safe_subset or game.extra_turn:
            return -1, used
        # too many safe lines to sample them all (the opening): a seeded random few of them,
        # rather than leave the choice to the search, which sees every safe line as equal
        # there and breaks ties at random (alternation only: measured there)
        pick = np.random.default_rng((salt, len(safe))).permutation(len(safe))[:fit]
        safe = safe[np.sort(pick)]
    alive = safe
    totals = np.zeros(len(safe), np.int64)
    helper = K.copy_state(D) if SAMPLE_THREADS > 1 else None
    samples, spent = 1, used  # for the cost of one sample
    k = 0  # rounds so far: round k uses the dice of salt + k, the same for every line
    stages = int(np.ceil(np.log2(len(safe))))
    for stage in range(stages):
        share = (lv.safe_mc_work - used) // (stages - stage)
        rounds = min(lv.safe_mc, share * samples // (spent * len(alive)))
        if rounds < 1:
            if stage > 0:
                break
            rounds = 1  # every line is sampled at least once
        r, over = 0, False
        while r < rounds and not over:
            # two rounds at once when there is a helper: they are applied below one after the
            # other, with the checks made between rounds, exactly as if run one by one
            batch = _sample_rounds(S, D, helper, alive, lv.safe_cand, salt + k, r + 1 < rounds, abort)
            for w, t in batch:
                if stage > 0 and used + spent * len(alive) // samples > lv.safe_mc_work:
                    over = True  # another round would overrun the budget
                    break
                totals += t
                k += 1
                r += 1
                used += unit * w
                spent += unit * w
                samples += len(alive)
                if abort[0]:
                    return -1, used
        # keep the better half (a stable sort: among equals, the earlier line)
        order = np.argsort(-totals, kind="stable")[: (len(alive) + 1) // 2]
        alive, totals = alive[order], totals[order]
        if len(alive) == 1:
            break
    return int(alive[int(np.argmax(totals))]), used


def _sample_rounds(
    S: BoardArrays,
    D: GameArrays,
    helper: GameArrays | None,
    alive: np.ndarray,
    cand: int,
    k: int,
    two: bool,
    abort: np.ndarray,
) -> list[tuple[int, np.ndarray]]:
    """Round ``k`` of ``phase.safe_phase_round`` over ``alive`` (its dice: ``k``), and round
    ``k + 1`` too when ``two`` and there is a helper: ``[(work, totals)]`` a round, in order.

    With a helper thread (``helper``: its own copy of the position) the second round runs
    on it, or with one round the second half of the lines.  A line's sample depends only
    on the position and the round's dice (each round seeds numba's random state, which numba
    keeps per thread), never on what was sampled before, so the results are exactly one
    thread's: the choice stays seed-deterministic, and on two cores the
    samples take about half the time (the kernel releases the GIL)."""

    def run(state: GameArrays, lines: np.ndarray, seed: int) -> tuple[int, np.ndarray]:
        t = np.zeros(len(lines), np.int64)
        return int(safe_phase_round(S, state, lines, cand, seed % (1 << 31), t, abort)), t

    if helper is None:
        return [run(D, alive, k)]
    if two:
        second = _helper_pool().submit(run, helper, alive, k + 1)
        return [run(D, alive, k), second.result()]
    h = (len(alive) + 1) // 2
    half = _helper_pool().submit(run, helper, alive[h:], k)
    w, t = run(D, alive[:h], k)
    w2, t2 = half.result()
    return [(w + w2, np.concatenate([t, t2]))]


def _helper_pool() -> ThreadPoolExecutor:
    """The helper thread the samples share (made on first use; Python joins it at exit)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=SAMPLE_THREADS - 1, thread_name_prefix="triangles-samples")
        return _POOL


def hint(game: Game, *, seed: int | None = 0, time_limit: float | None = None) -> Move:
    """A suggested move for the player to move: the "hard" engine's choice."""
    return choose_move(game, "hard", seed=seed, time_limit=time_limit)


def warm_up() -> None:
    """Load (or compile, on a cold cache) every search kernel: call once at start-up,
    e.g. in the UI's worker thread, so the first real move is not slowed down."""
    from triangles.rules import Board, Game

    g = Game(Board([(0, 0), (40, 3), (17, 35), (22, 12), (5, 28)], tolerance=1.0))
    for name in LEVEL_NAMES:
        choose_move(g, name, seed=0, time_limit=60.0)
    solve(g)
    # a board with a thin face, so that the kernels that model one are compiled too
    face_model(Board([(31, 4), (30, 25), (30, 35), (31, 57), (50, 30)], tolerance=0.5))
