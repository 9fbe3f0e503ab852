"""Tests for the computer opponent (triangles.ai): exact solver, engine, levels."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from triangles.ai import LEVELS, choose_move, hint, last_info, solve
from triangles.ai import engine as E
from triangles.ai.baselines import greedy_move, move_table, random_move
from triangles.players import LevelName
from triangles.presets import get_preset
from triangles.rules import Board, Game

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def brute(game: Game, memo: dict | None = None) -> int:
    """Plain negamax over the rules API (no pruning): the mover's future points minus the opponent's."""
    if memo is None:
        memo = {}
    if game.is_over():
        return 0
    key = (frozenset(game.moves), game.player)
    if key in memo:
        return memo[key]
    me = game.player
    best = -(10**9)
    for i, j in game.legal_moves():
        closed = len(game.play(i, j))
        v = brute(game, memo)
        v = closed + v if game.player == me else closed - v
        game.undo()
        best = max(best, v)
    memo[key] = best
    return best


def state_arrays(D):
    """The meaningful part of a game's arrays (scratch beyond the history is ignored), by name."""
    ctr = D.counters[0]
    nm, btop = int(ctr["nmoves"]), int(ctr["btop"])
    out = {
        f: getattr(D, f).copy()
        for f in (
            "counters",
            "legal",
            "line_owner",
            "cell_drawn",
            "cell_blocked",
            "cell_owner",
            "legal_list",
            "legal_pos",
        )
    }
    out.update(
        moves=D.moves[:nm].copy(),
        move_player=D.move_player[:nm].copy(),
        move_bstart=D.move_bstart[:nm].copy(),
        move_closed=D.move_closed[:nm].copy(),
        bstack=D.bstack[:btop].copy(),
    )
    return out


def snapshot(game: Game):
    return (game.lines, game.scores, game.player, game.triangles, state_arrays(game.arrays()))


def assert_unchanged(game: Game, snap) -> None:
    lines, scores, player, tris, arrays = snap
    assert game.lines == lines
    assert game.scores == scores
    assert game.player == player
    assert game.triangles == tris
    now = state_arrays(game.arrays())
    assert now.keys() == arrays.keys()
    for name in arrays:
        np.testing.assert_array_equal(now[name], arrays[name], err_msg=name)


def polygon(n: int, inner: bool = False, radius: int = 1000) -> Board:
    """Regular n-gon rounded to integers (plus one star near the centre), tolerance 0."""
    pts = [
        (round(radius * math.cos(2 * math.pi * k / n + 0.1)), round(radius * math.sin(2 * math.pi * k / n + 0.1)))
        for k in range(n)
    ]

    # convex position, no three collinear (exact integer orientation tests)
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    for k in range(n):
        assert orient(pts[k], pts[(k + 1) % n], pts[(k + 2) % n]) > 0
    if inner:
        pts.append((3, 7))
        for k in range(n):  # strictly inside
            assert orient(pts[k], pts[(k + 1) % n], pts[-1]) > 0
    m = len(pts)
    for a in range(m):
        for b in range(a + 1, m):
            for c in range(b + 1, m):
                assert orient(pts[a], pts[b], pts[c]) != 0
    board = Board(pts, tolerance=0)
    assert board.clear.all()
    return board


def random_position(board: Board, extra: bool, moves: int, seed: int) -> Game:
    g = Game(board, extra)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if g.is_over():
            break
        g.play(*random_move(g, rng))
    return g


# ---------------------------------------------------------------------------
# solve: published results on convex polygons
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(3, 9))
def test_convex_polygon_first_player_wins_with_alternation(n):
    """Sankaku-tori (J. Inf. Process. 2017): on a convex polygon the first player wins."""
    assert solve(Game(polygon(n), extra_turn=False)) > 0


@pytest.mark.parametrize("n", range(3, 9))
def test_convex_polygon_plus_inner_star_first_player_cannot_win_with_alternation(n):
    assert solve(Game(polygon(n, inner=True), extra_turn=False)) <= 0


@pytest.mark.parametrize("n,inner", [(n, False) for n in range(3, 7)] + [(n, True) for n in range(3, 6)])
def test_polygons_solve_matches_brute_force_both_rules(n, inner):
    for extra in (False, True):
        g = Game(polygon(n, inner), extra)
        assert solve(g) == brute(g)


def test_polygons_with_extra_turn_brute_force_facts():
    """With the extra-turn rule the published claims do not carry over (brute force):
    a convex 4-gon or 6-gon is a draw, and a convex pentagon plus one inner star
    (6 stars) is a first-player win."""
    assert brute(Game(polygon(4), True)) == 0
    assert brute(Game(polygon(6), True)) == 0
    assert brute(Game(polygon(5), True)) > 0
    assert brute(Game(polygon(4, inner=True), True)) > 0


# ---------------------------------------------------------------------------
# solve: against brute force on random boards and positions
# ---------------------------------------------------------------------------


def small_boards() -> list[Board]:
    rng = np.random.default_rng(2024)
    out: list[Board] = []
    sizes = [5, 5, 6, 6, 6, 6, 7, 5]  # pure-Python brute force on 7 stars takes seconds
    while len(out) < 8:
        n = sizes[len(out)]
        stars = rng.integers(0, 60, size=(n, 2))
        if len({tuple(s) for s in stars}) < n:
            continue
        out.append(Board(stars, tolerance=0.5))
    return out


@pytest.mark.parametrize("k", range(8))
@pytest.mark.parametrize("extra", [False, True])
def test_solve_matches_brute_force_random_boards(k, extra):
    board = small_boards()[k]
    g = Game(board, extra)
    snap = snapshot(g)
    v = solve(g)
    assert_unchanged(g, snap)
    assert v == brute(g.clone())


@pytest.mark.parametrize("extra", [False, True])
def test_whole_board_search_matches_brute_force(extra):
    """solve answers over the regions whenever it can (tests/test_regions.py); the whole-board
    search it falls back on is checked against brute force here."""
    from triangles.ai import solver

    for board in small_boards()[:7]:
        g = Game(board, extra)
        res, _ = solver.exact(g, g.arrays(), max_nodes=10**8, abort=np.zeros(1, np.uint8))
        assert res is not None and res.value == brute(g.clone()) * E.SCALE


@pytest.mark.parametrize("extra", [False, True])
def test_solve_matches_brute_force_midgame(extra):
    for s in range(6):
        board = Board.random(7, 200, 200, seed=100 + s, tolerance=3)
        g = random_position(board, extra, moves=3 + s % 3, seed=s)
        if g.is_over():
            continue
        assert solve(g) == brute(g)


@pytest.mark.parametrize("path", ["explore", "lazy"])
@pytest.mark.parametrize("extra", [False, True])
def test_solve_line_by_line_past_the_masks_matches_brute_force(monkeypatch, extra, path):
    """A position of more legal lines than the regions' masks hold is searched a group of lines
    at a time: the lines crossing the same one or two lines by one search of the game without
    those (its root drawing only the group's lines), the rest alone, each within the window it
    maps to.  With the masks shrunk to one or two lines fewer than the position has, that runs
    on small positions, the lines alone ending in either of the searches, and gives brute
    force's value; the groups' searches are among those that ran."""
    from triangles.ai import solver

    monkeypatch.setattr(solver, "SOLVE_TT_BITS", 12)  # a table a search: kept small here
    monkeypatch.setattr(solver, "SOLVE_ROWS", 1024)
    if path == "lazy":
        monkeypatch.setattr(solver, "SOLVE_MAX_STATES", 1)  # regions refused: the lazy search answers
    groups: list[int] = []
    group = solver._group

    def counted(a: int, b: int, **kw):
        groups.append(kw["mask"].bit_count())
        return group(a, b, **kw)

    monkeypatch.setattr(solver, "_group", counted)
    checked = 0
    for s in range(8):
        board = Board.random(7, 200, 200, seed=140 + s, tolerance=3)
        g = random_position(board, extra, moves=4 + s % 3, seed=s)
        n = g.legal_count()
        if g.is_over() or n < 4:
            continue
        want = brute(g.clone())
        snap = snapshot(g)
        for over in (1, 2):
            monkeypatch.setattr(solver, "MAX_LINES", n - over)
            assert solve(g, time_limit=None) == want, (s, over)
            assert_unchanged(g, snap)
        monkeypatch.setattr(solver, "MAX_LINES", 64)
        checked += 1
    assert checked >= 5
    assert len(groups) >= 10, groups


def test_solve_a_board_past_the_masks():
    """Board 1598 has 66 legal lines, two more than the regions' masks hold: solve searches it
    line by line, and its clock and node budget stop it as they stop any other search."""
    g = Game(get_preset("phone").make_board(12, 1598), False)
    assert g.legal_count() == 66
    with pytest.raises(ValueError, match=r"too large to solve exactly: gave up after its 0 s \(66 legal lines\)"):
        solve(g, time_limit=0.0)
    with pytest.raises(ValueError, match=r"too large to solve exactly: gave up after \d+ search nodes \(66 legal"):
        solve(g, max_nodes=10)
    snap = snapshot(g)
    v = solve(g, time_limit=None)
    assert_unchanged(g, snap)
    assert abs(v) <= g.board.max_triangles


def test_fixed_scoring_lines_are_merged_and_taken_first():
    """A scoring line that borders no live triangle but those it closes and crosses no legal line
    scores the same whenever it is drawn.  The exact search lists only the best such line (the
    others are worse copies of it) and, with the extra turn, only that line when it scores (taking
    it at once is optimal).  Brute force agrees with the solver on positions where either cut
    applied."""
    met = {False: 0, True: 0}
    for s in range(60):
        extra = s % 2 == 1
        board = Board.random(6 + s % 2, 200, 200, seed=700 + s, tolerance=3)
        g = random_position(board, extra, moves=2 + s % 5, seed=s)
        if g.is_over():
            continue
        D = g.arrays()
        listed = [int(p) for p in E.ordered_lines(board.arrays, D, width=g.legal_count(), dedupe=True)]
        full = [int(p) for p in E.ordered_lines(board.arrays, D, width=g.legal_count())]
        scoring = [p for p in full if len(g.clone().play(*board.pair(p))) > 0]
        if extra and len(listed) == 1 and len(full) > 1 and listed[0] in scoring:
            met[True] += 1
            best = brute(g.clone())
            h = g.clone()
            closed = len(h.play(*board.pair(listed[0])))
            assert h.player == g.player
            assert closed + brute(h.clone()) == best  # the forced line is a best line
            assert solve(g) == best
        elif not extra and sum(p in scoring for p in listed) < len(scoring):
            met[False] += 1
            assert solve(g) == brute(g.clone())
    assert met[True] >= 3 and met[False] >= 1, met


@pytest.mark.slow
@pytest.mark.parametrize("extra", [False, True])
def test_solve_nine_stars_within_its_node_budget(extra):
    """The whole game on 9 stars is proved (solve raises when its node budget runs out; the time it
    takes is a benchmark figure, benchmarks/ai_speed.py, never asserted here)."""
    for board in (Board.random(9, 300, 300, seed=3, tolerance=3), polygon(9)):
        g = Game(board, extra)
        v = solve(g, time_limit=None)
        assert abs(v) <= len(board.cells)


def test_solve_names_its_time_limit_when_that_stops_it():
    """A whole 12-star board takes seconds: a limit of none at all stops the search, and the
    message says it was the clock, not the nodes."""
    g = Game(get_preset("phone").make_board(12, 2004), False)
    with pytest.raises(ValueError, match=r"too large to solve exactly: gave up after its 0 s \(63 legal lines\)"):
        solve(g, time_limit=0.0)
    assert g.legal_count() == 63 and g.move_count == 0  # left as it was


def test_solve_large_board_endgame_and_refusal():
    board = get_preset("phone").make_board(60, 7)
    g = Game(board, False)
    with pytest.raises(ValueError, match=r"too large to solve exactly: \d+ legal lines \(at most"):
        solve(g)  # refused on its size, before any search
    # a node budget too small also refuses, never hangs
    rng = np.random.default_rng(1)
    while g.legal_count() > 30 and not g.is_over():
        g.play(*greedy_move(g, rng))
    if not g.is_over():
        with pytest.raises(ValueError, match=r"too large to solve exactly: gave up after \d+ search nodes \(\d+ legal"):
            solve(g, max_nodes=10)
    # play on to a small endgame: solve is exact there and agrees with itself move by move
    while g.legal_count() > 14 and not g.is_over():
        g.play(*greedy_move(g, rng))
    if g.is_over():
        pytest.skip("game ended before the endgame")
    v = solve(g)
    me = g.player
    best = None
    for i, j in g.legal_moves():
        c = len(g.play(i, j))
        w = c + solve(g) if g.player == me else c - solve(g)
        g.undo()
        best = w if best is None else max(best, w)
    assert v == best


@pytest.mark.parametrize("extra", [False, True])
def test_hard_endgame_decision_matches_brute_force(extra):
    """hard's null-window decision: the proved outcome is the brute-force one,
    and the line it plays keeps that outcome (a win stays a win)."""
    from triangles.ai import api, solver

    checked = {1: 0, 0: 0, -1: 0}
    for s in range(24):
        board = Board.random(6 + s % 2, 200, 200, seed=300 + s, tolerance=3)
        g = random_position(board, extra, moves=2 + s % 4, seed=s)
        if g.is_over():
            continue
        me = g.player
        lead = g.scores[me] - g.scores[1 - me]
        final = lead + brute(g.clone())
        expected = (final > 0) - (final < 0)
        res, _ = solver.decide(g, g.arrays(), max_nodes=10_000_000, abort=np.zeros(1, np.uint8))
        assert res is not None
        outcome, p = res
        assert outcome == expected
        checked[outcome] += 1
        if outcome >= 0:
            h = g.clone()
            closed = len(h.play(*board.pair(p)))
            rest = brute(h.clone())
            after = lead + closed + (rest if h.player == me else -rest)
            assert (after > 0) - (after < 0) == outcome
        move = choose_move(g, "hard", seed=s)
        assert api.last_info().solved and api.last_info().outcome == expected
        assert g.is_legal(*move)
    assert checked[1] and checked[-1]  # both kinds of position were met


def test_solve_game_over_is_zero():
    g = random_position(Board.random(6, 100, 100, seed=1, tolerance=3), False, 100, 0)
    assert g.is_over()
    assert solve(g) == 0


# ---------------------------------------------------------------------------
# choose_move / hint
# ---------------------------------------------------------------------------

PRESET_BOARDS = [(name, n) for name in ("phone", "tablet") for n in get_preset(name).stars]


@pytest.mark.parametrize("preset,stars", PRESET_BOARDS)
def test_choose_move_legal_and_leaves_game_alone(preset, stars):
    board = get_preset(preset).make_board(stars, 11)
    for extra, frac in ((False, 0.0), (True, 0.5), (False, 0.85)):
        g = Game(board, extra)
        rng = np.random.default_rng(stars)
        target = int(frac * 3 * stars)
        while g.move_count < target and not g.is_over():
            g.play(*random_move(g, rng))
        if g.is_over():
            continue
        for level in LEVELS:
            snap = snapshot(g)
            i, j = choose_move(g, level, seed=5)
            assert_unchanged(g, snap)
            assert g.why_illegal(i, j) is None
            assert i < j


def test_choose_move_deterministic_per_seed():
    board = get_preset("phone").make_board(24, 3)
    g = random_position(board, True, 20, 4)
    for level in LEVELS:
        a = choose_move(g, level, seed=9, time_limit=30)
        b = choose_move(g, level, seed=9, time_limit=30)
        assert a == b


def find_deciding_position(extra: bool):
    """A position with one live triangle, closable now, and tied scores: closing it wins."""
    for seed in range(300):
        board = get_preset("phone").make_board(24, seed)
        g = Game(board, extra)
        rng = np.random.default_rng(seed)
        while not g.is_over():
            s = g.scores
            if g.live_triangles() == 1 and s[0] == s[1]:
                wins = [m for m in g.legal_moves() if g.closes(*m)]
                if wins:
                    return g, wins
            g.play(*random_move(g, rng))
    raise AssertionError("no deciding position found")


@pytest.mark.parametrize("extra", [False, True])
def test_takes_the_deciding_line(extra):
    g, wins = find_deciding_position(extra)
    for level in LEVELS:
        for seed in range(3):
            assert choose_move(g, level, seed=seed) in wins
    assert hint(g) in wins


def test_takes_free_triangle_on_large_board():
    """A capture that gives nothing away, alone on the board: every level takes it (180 stars)."""
    from triangles.ai.baselines import move_table

    board = get_preset("tablet").make_board(180, 2)
    checked = 0
    for extra in (False, True):
        g = Game(board, extra)
        rng = np.random.default_rng(0)
        while not g.is_over() and checked < 2 * (1 + extra):
            ids, closes, gives = move_table(board.arrays, g.arrays())
            free = [board.pair(int(p)) for p, c, x in zip(ids, closes, gives, strict=True) if c > 0 and x == 0]
            if g.move_count > 40 and free and (closes > 0).sum() == len(free):
                for level in LEVELS:
                    assert choose_move(g, level, seed=1) in free, level
                checked += 1
            g.play(*random_move(g, rng))
    assert checked == 4


def test_budget_respected_on_largest_board():
    board = get_preset("tablet").make_board(180, 5)
    g = random_position(board, False, 60, 1)
    choose_move(g, "easy")  # warm-up
    runs: tuple[tuple[LevelName, float | None], ...] = (("hard", 0.3), ("medium", 0.1), ("hard", None))
    for level, cap in runs:
        i, j = choose_move(g, level, seed=2, time_limit=cap)
        assert g.why_illegal(i, j) is None
    # a cap that fires at once still gives a legal line, from the move ordering (no wall-clock assert:
    # the speed table is benchmarks/ai_speed.py)
    i, j = choose_move(g, "hard", seed=2, time_limit=1e-6)
    assert last_info().aborted and g.why_illegal(i, j) is None


def test_a_proof_cut_by_the_cap_leaves_the_search_its_share():
    """In reach of hard's endgame proof, a cap too short for the proof still leaves
    the search time to search a few depths (it used to get none: only the first
    depth, which is too small to poll the abort flag, finished).  At 40 legal lines on this
    board the proof over the regions runs out of its budget (as most do there)."""
    board = get_preset("phone").make_board(24, 2004)
    g = Game(board)
    rng = np.random.default_rng(4)
    while g.legal_count() > 40:
        g.play(*greedy_move(g, rng))
    choose_move(g, "hard", seed=1, time_limit=30.0)  # this proof runs out of nodes, not time
    full = last_info()
    assert not full.solved and not full.aborted
    # a cap of half that move's time: the proof's share of it is surely too short
    i, j = choose_move(g, "hard", seed=1, time_limit=full.seconds / 2)
    info = last_info()
    assert g.why_illegal(i, j) is None
    assert info.aborted and not info.solved and info.depth >= 3  # not just the first depth (under 256 nodes)


def test_warm_up_and_last_info():
    from triangles.ai import last_info, warm_up

    warm_up()
    g = Game(get_preset("phone").make_board(24, 2))
    m = choose_move(g, "easy", seed=1)
    info = last_info()
    assert info.move == m and info.level == "easy" and info.nodes > 0 and info.depth >= 1 and not info.lapse


def _greedy_could_play(g: Game, move: tuple[int, int]) -> bool:
    """Whether ``move`` is one the simple rule picks: the most it can take, else the least it gives."""
    pairs, closes, gives = move_table(g.board.arrays, g.arrays())
    k = int(np.flatnonzero(pairs == g.board.pair_id(*move))[0])
    if closes.max() > 0:
        return bool(closes[k] == closes.max())
    return bool(gives[k] == gives.min())


@pytest.mark.parametrize("extra", [False, True])
def test_a_lapse_is_the_simple_rules_move_and_medium_lapses_on_some_moves(extra: bool):
    """``Level.lapse`` (``lapse_extra`` under the extra-turn rule) is the chance that a
    move is the simple rule's; medium lapses on some moves and searches on the others,
    the same way for the same seed."""
    import dataclasses

    always = dataclasses.replace(LEVELS["medium"], lapse=1.0, lapse_extra=1.0, name="always")
    never = dataclasses.replace(LEVELS["medium"], lapse=0.0, lapse_extra=0.0, name="never")
    g = Game(get_preset("phone").make_board(24, 31), extra)
    rng = np.random.default_rng(4)
    lapses = searched = 0
    while not g.is_over():
        move = choose_move(g, always, seed=g.move_count)
        assert last_info().lapse and last_info().nodes == 0 and _greedy_could_play(g, move)
        choose_move(g, never, seed=g.move_count)
        assert not last_info().lapse
        m = choose_move(g, "medium", seed=7)  # one seed for the whole game, as a caller may pass
        lapsed = last_info().lapse
        assert choose_move(g, "medium", seed=7) == m and last_info().lapse == lapsed
        if lapsed:
            lapses += 1
            assert _greedy_could_play(g, m)
        else:
            searched += 1
        g.play(*(m if rng.random() < 0.5 else random_move(g, rng)))
    assert lapses + searched >= 30
    expected = LEVELS["medium"].lapse_extra if extra else LEVELS["medium"].lapse
    assert abs(lapses / (lapses + searched) - expected) <= 0.2


def test_bad_arguments():
    g = Game(Board.random(6, 100, 100, seed=1, tolerance=3))
    with pytest.raises(ValueError, match="unknown level"):
        choose_move(g, "impossible")
    over = random_position(Board.random(6, 100, 100, seed=1, tolerance=3), False, 100, 0)
    with pytest.raises(ValueError, match="over"):
        choose_move(over, "easy")


def test_levels_are_one_engine_with_increasing_effort():
    e, m, h = LEVELS["easy"], LEVELS["medium"], LEVELS["hard"]
    assert e.work < m.work < h.work
    assert e.max_depth < m.max_depth < h.max_depth
    # what makes easy and medium beatable: leaf noise on every move, lapses on some
    assert e.noise > 0 and e.lapse == e.lapse_extra == 0
    assert m.noise == 0 and 0 < m.lapse < 1 and 0 < m.lapse_extra < 1
    assert h.noise == 0 and h.lapse == h.lapse_extra == 0


def quiet_params(salt: int):
    """A medium-like search without noise, for the kernel tests."""
    return E.SearchParams(width=8, root_width=16, qdepth=4, noise=0, salt=salt, dedupe=False, canon=False)


def test_search_restores_state_and_reports_a_legal_best_line():
    board = get_preset("phone").make_board(24, 1)
    g = random_position(board, True, 25, 3)
    D = g.arrays()
    before = state_arrays(D)
    par = quiet_params(salt=123)
    sr = E.new_search(par, board.npairs, tt_bits=16, plies=64, width=64)
    r = E.search(board.arrays, D, sr, depth=3, node_limit=10**9)
    assert not r.aborted and r.nodes > 100
    after = state_arrays(D)
    assert after.keys() == before.keys()
    for name in before:
        np.testing.assert_array_equal(after[name], before[name], err_msg=name)
    assert r.best >= 0 and g.legal_mask()[r.best]


def test_search_stops_at_its_node_limit_with_value_zero():
    board = get_preset("phone").make_board(24, 1)
    g = random_position(board, False, 10, 3)
    D = g.arrays()
    before = state_arrays(D)
    par = quiet_params(salt=0)
    r = E.search(
        board.arrays, D, E.new_search(par, board.npairs, tt_bits=12, plies=64, width=64), depth=6, node_limit=50
    )
    assert r.aborted and r.value == 0 and r.nodes == 50
    for name, array in state_arrays(D).items():
        np.testing.assert_array_equal(array, before[name], err_msg=name)


def test_move_order_puts_scoring_lines_first():
    from triangles.ai.baselines import move_table

    g, wins = find_deciding_position(False)
    S = g.board.arrays
    ids, closes, _ = move_table(S, g.arrays())
    order = E.ordered_lines(S, g.arrays(), width=len(ids))
    assert sorted(order.tolist()) == sorted(ids.tolist())
    scoring = int((closes > 0).sum())
    assert scoring >= 1
    assert {g.board.pair(int(p)) for p in order[:scoring]} == set(wins)
    assert len(E.ordered_lines(S, g.arrays(), width=0)) == 0


def test_ai_uses_only_public_names_of_board_and_game():
    import re
    from pathlib import Path

    import triangles.ai

    folder = Path(triangles.ai.__file__).parent
    private = re.compile(r"\b(game|board|g|Game|Board)\._[a-zA-Z]")
    hits = [
        f"{f.name}: {line.strip()}"
        for f in folder.glob("*.py")
        for line in f.read_text().splitlines()
        if private.search(line)
    ]
    assert hits == []


def test_no_pygame_in_ai():
    code = "import sys, triangles.ai, triangles.ai.baselines; assert 'pygame' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("extra", [False, True])
def test_levels_beat_baselines_small_sample(extra):
    """A quick strength sanity check (the real figures come from benchmarks/ai_match.py)."""
    wins = 0
    games = 6
    for g_no in range(games):
        board = get_preset("phone").make_board(24, 500 + g_no)
        g = Game(board, extra)
        rng = np.random.default_rng(g_no)
        ai_side = g_no % 2
        while not g.is_over():
            if g.player == ai_side:
                m = choose_move(g, "easy", seed=g_no)
            else:
                m = random_move(g, rng)
            g.play(*m)
        s = g.scores
        wins += s[ai_side] > s[1 - ai_side]
    assert wins >= games - 1


@pytest.mark.parametrize("extra", [False, True])
def test_table_key_kept_line_by_line_matches_the_full_count(extra):
    """The exact search updates its table key (canon_hash) from each line's changes; along
    random games it must equal the key counted afresh, and undo must give the old key back."""
    from triangles import kernels as K

    for stars, seed in ((10, 1), (24, 2), (60, 3)):
        board = get_preset("phone").make_board(stars, seed)
        g = Game(board, extra)
        S, D = board.arrays, g.arrays()
        keys = E.zobrist(board.npairs).lines
        mark = np.zeros(board.npairs, np.uint8)
        rng = np.random.default_rng(seed)
        history = []
        while D.counters[0]["live"] > 0:
            before = E.canon_hash(S, D, keys)
            history.append(before)
            legal = D.legal_list[: D.counters[0]["nlegal"]]
            K.apply_line(S, D, int(legal[rng.integers(len(legal))]))
            assert before ^ E._canon_step(S, D, keys, mark) == E.canon_hash(S, D, keys)
            assert not mark.any()
        assert len(history) > 10
        while history:
            K.undo_line(S, D)
            assert E.canon_hash(S, D, keys) == history.pop()


def safe_phase_position(stars: int, seed: int, safe_left: int) -> Game:
    """A greedy game on the phone preset, stopped once at most ``safe_left`` safe lines remain."""
    from triangles.ai.baselines import move_table

    g = Game(get_preset("phone").make_board(stars, seed))
    rng = np.random.default_rng(seed)
    while True:
        _, closes, gives = move_table(g.board.arrays, g.arrays())
        if int(((closes == 0) & (gives == 0)).sum()) <= safe_left:
            return g
        g.play(*greedy_move(g, rng))


def test_safe_choice_names_a_safe_line_within_its_budget():
    """hard's sampled choice among safe lines: a safe line, the same for the same seed, its
    work counted; no choice where one safe line (or none) is left, or where the budget
    cannot pay for enough samples of every line."""
    import dataclasses

    from triangles.ai.api import MIN_SAFE_ROUNDS, safe_choice
    from triangles.ai.baselines import move_table

    hard = LEVELS["hard"]
    assert hard.safe_mc >= MIN_SAFE_ROUNDS and hard.safe_mc_work > 0
    no_abort = np.zeros(1, np.uint8)
    for seed in (1, 2, 3):
        g = safe_phase_position(24, seed, 12)
        D = g.arrays()
        pairs, closes, gives = move_table(g.board.arrays, D)
        safe = set(pairs[(closes == 0) & (gives == 0)].tolist())
        assert len(safe) >= 2
        p, work = safe_choice(g, D, hard, 7, no_abort)
        assert p in safe and 0 < work <= hard.safe_mc_work
        assert safe_choice(g, g.arrays(), hard, 7, no_abort) == (p, work)
        # a budget for fewer than MIN_SAFE_ROUNDS rounds: no preference, and only a probe spent
        tight = dataclasses.replace(hard, safe_mc_work=work // (2 * hard.safe_mc), safe_subset=0)
        q, spent = safe_choice(g, g.arrays(), tight, 7, no_abort)
        assert q == -1 and 0 < spent < work
    g = safe_phase_position(24, 4, 1)
    assert safe_choice(g, g.arrays(), hard, 7, no_abort)[0] == -1


def test_safe_choice_samples_a_subset_where_not_every_safe_line_fits():
    """In the opening (too many safe lines for every one to get its samples) hard samples a
    seeded subset of them, with alternation; without ``safe_subset``, or with the extra turn,
    it leaves the choice to the search."""
    import dataclasses

    from triangles.ai.api import MIN_SAFE_ROUNDS, safe_choice
    from triangles.ai.baselines import move_table

    hard = LEVELS["hard"]
    assert hard.safe_subset > 0
    no_abort = np.zeros(1, np.uint8)
    for seed in (1, 2):
        g = safe_phase_position(24, seed, 10_000)  # the empty board
        D = g.arrays()
        pairs, closes, gives = move_table(g.board.arrays, D)
        safe = set(pairs[(closes == 0) & (gives == 0)].tolist())
        probe = safe_choice(g, D, dataclasses.replace(hard, safe_subset=0), 7, no_abort)
        assert probe[0] == -1  # not every safe line fits MIN_SAFE_ROUNDS samples
        assert probe[1] * len(safe) * MIN_SAFE_ROUNDS > hard.safe_mc_work
        p, work = safe_choice(g, D, hard, 7, no_abort)
        assert p in safe and probe[1] < work <= hard.safe_mc_work
        assert safe_choice(g, g.arrays(), hard, 7, no_abort) == (p, work)
        h = Game(g.board, extra_turn=True)
        assert safe_choice(h, h.arrays(), hard, 7, no_abort)[0] == -1


def test_safe_choice_halves_towards_the_best_sampled_line(monkeypatch):
    """Sequential halving, with a stand-in sampler whose lines have known means: the
    line of the best mean is chosen, the leaders get more samples than the rest,
    every round samples every remaining line with the same dice, and the work stays
    within the budget."""
    import dataclasses

    from triangles.ai import api
    from triangles.ai.baselines import move_table

    g = safe_phase_position(24, 5, 40)
    D = g.arrays()
    pairs, closes, gives = move_table(g.board.arrays, D)
    safe = [int(p) for p in pairs[(closes == 0) & (gives == 0)]]
    assert len(safe) >= 16
    rng = np.random.default_rng(0)
    mean = {p: int(v) for p, v in zip(safe, rng.permutation(len(safe)) * 4, strict=True)}  # distinct means, 4 apart
    best = max(safe, key=mean.__getitem__)
    counts = dict.fromkeys(safe, 0)
    seeds: list[int] = []
    cost = 50  # scans of the legal lines per sample

    def fake_round(S, D_, lines, cand, seed, totals, abort):
        seeds.append(seed)
        dice = np.random.default_rng(seed).integers(-6, 7)  # the same for every line in a round
        for i, p in enumerate(lines.tolist()):
            counts[p] += 1
            totals[i] += mean[p] + dice + (p * 7919 + seed) % 5 - 2
        return cost * len(lines)

    monkeypatch.setattr(api, "safe_phase_round", fake_round)
    monkeypatch.setattr(api, "SAMPLE_THREADS", 1)  # no speculative rounds: every sample counted is used
    unit = int(D.counters[0]["nlegal"])
    lv = dataclasses.replace(LEVELS["hard"], safe_mc=16, safe_mc_work=unit * cost * len(safe) * 12)
    p, work = api.safe_choice(g, D, lv, 3, np.zeros(1, np.uint8))
    assert p == best
    assert 0 < work <= lv.safe_mc_work
    assert sum(counts.values()) * cost * unit == work
    assert len(set(seeds)) == len(seeds) - 1  # the probe shares round 0's dice; every round has its own
    # the leaders: the line chosen had several times the samples of a line dropped at once
    assert counts[best] >= 4 * min(counts.values()) and min(counts.values()) >= 1


@pytest.mark.parametrize("extra", [False, True])
def test_safe_choice_on_two_threads_is_exactly_one_threads(monkeypatch, extra):
    """The samples share their rounds with a helper thread (every other round, or half the
    lines of a round alone); the choice and the work counted are exactly one thread's."""
    import threading

    from triangles.ai import api

    hard = LEVELS["hard"]
    real = api.safe_phase_round
    threads: set[int] = set()

    def spy(*args):
        threads.add(threading.get_ident())
        return real(*args)

    monkeypatch.setattr(api, "safe_phase_round", spy)
    chosen = 0
    for seed in (1, 2, 3, 6):
        g = safe_phase_position(24, seed, 20)
        if extra:
            g = Game.from_moves(g.board, g.moves, extra_turn=True)
        answers = []
        for n in (1, 2):
            monkeypatch.setattr(api, "SAMPLE_THREADS", n)
            threads.clear()
            answers.append(api.safe_choice(g, g.arrays(), hard, 7, np.zeros(1, np.uint8)))
            assert len(threads) == n
        assert answers[0] == answers[1]
        chosen += answers[0][0] >= 0
    assert chosen >= 3


def _safe_choice_of(g: Game) -> tuple[int, int]:
    from triangles.ai import api

    return api.safe_choice(g, g.arrays(), LEVELS["hard"], 7, np.zeros(1, np.uint8))


@pytest.mark.skipif(not hasattr(os, "register_at_fork"), reason="no fork on this system")
def test_safe_choice_in_a_forked_process_makes_its_own_helper_thread():
    """A process forked after the samples' helper thread exists (as a match's workers are)
    does not inherit that thread: it makes its own and gives the parent's answer."""
    import multiprocessing

    g = safe_phase_position(24, 1, 20)
    here = _safe_choice_of(g)  # the helper thread now exists in this process
    assert here[0] >= 0
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_safe_choice_of, (g,)).get(timeout=120) == here


def test_safe_trust_plays_the_sampled_line_unless_a_line_scores(monkeypatch):
    """With ``safe_trust`` the sampled safe line is played as it is when nothing can be
    taken (strict alternation); when a line scores, or under the extra-turn rule, the
    search decides as without it."""
    import dataclasses

    from triangles.ai import api
    from triangles.ai.baselines import move_table

    trusting = dataclasses.replace(LEVELS["hard"], safe_trust=True)
    plain = dataclasses.replace(trusting, safe_trust=False)
    picked: list[int] = []

    def fake_choice(game, D, lv, salt, abort):
        pairs, closes, gives = move_table(game.board.arrays, D)
        safe = sorted(int(p) for p in pairs[(closes == 0) & (gives == 0)])
        picked.append(safe[len(safe) // 2])  # a safe line the search has no reason to prefer
        return picked[-1], 0

    monkeypatch.setattr(api, "safe_choice", fake_choice)
    overruled = 0
    for seed in (1, 2, 4):  # late in the safe phase, where the search would rather hand something over
        g = safe_phase_position(24, seed, 4)
        _, closes, _ = move_table(g.board.arrays, g.arrays())
        assert closes.max() == 0
        assert g.board.pair_id(*api.choose_move(g, trusting, seed=seed)) == picked[-1]
        # the same lines under the extra-turn rule: the search decides, as without trust
        gx = Game(g.board, extra_turn=True)
        for i, j in g.moves:
            gx.play(i, j)
        searched = api.choose_move(gx, plain, seed=seed)
        assert api.choose_move(gx, trusting, seed=seed) == searched
        overruled += gx.board.pair_id(*searched) != picked[-1]
    assert overruled  # the search's own line, not the sampled one, in some position
    # a position where a line scores and safe lines remain: random lines until one appears
    rng = np.random.default_rng(8)
    g = Game(get_preset("phone").make_board(24, 8))
    while True:
        _, closes, gives = move_table(g.board.arrays, g.arrays())
        if closes.max() > 0 and int(((closes == 0) & (gives == 0)).sum()) >= 2:
            break
        moves = g.legal_moves()
        g.play(*moves[int(rng.integers(len(moves)))])
    move = api.choose_move(g, trusting, seed=8)
    assert move == api.choose_move(g, plain, seed=8) and g.board.pair_id(*move) != picked[-1]
