"""Region decomposition (triangles.ai.regions): the same values as the whole-board search, and
regions that really are independent."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import pytest

from triangles import kernels as K
from triangles.ai import LEVELS, choose_move, last_info, solver
from triangles.ai import engine as E
from triangles.ai.baselines import greedy_move, random_move
from triangles.ai.multiset import open_scout, rescout
from triangles.ai.regions import Regions, SumSearch, _alone_values, _explore, _move_sums, _sum_kernel, sum_search
from triangles.presets import get_preset
from triangles.rules import Game

NO_ABORT = np.zeros(1, np.uint8)


def whole_board(g: Game) -> int:
    """The whole-board exact search's value (triangles), never the regions."""
    res, _ = solver.exact(g, g.arrays(), max_nodes=50_000_000, abort=NO_ABORT, tt_bits=18)
    assert res is not None
    return res.value // E.SCALE


def positions(extra: bool, count: int, max_legal: int) -> list[Game]:
    """Seeded random positions on 7-11 star phone boards with at most ``max_legal`` legal lines."""
    preset = get_preset("phone")
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        g = Game(preset.make_board(7 + seed % 5, 500 + seed), extra)
        rng = np.random.default_rng(seed)
        for _ in range(int(rng.integers(0, 10))):
            if g.is_over():
                break
            g.play(*random_move(g, rng))
        seed += 1
        if not g.is_over() and g.legal_count() <= max_legal:
            out.append(g)
    return out


def greedy_to(stars: int, legal: int, seed: int, extra: bool = False) -> Game:
    g = Game(get_preset("phone").make_board(stars, 2000 + seed), extra)
    rng = np.random.default_rng(seed)
    while not g.is_over() and g.legal_count() > legal:
        g.play(*greedy_move(g, rng))
    return g


def value_of_line(g: Game, pair: int, rest_value: Callable[[Game], int] | None = None) -> int:
    """What drawing ``pair`` is worth to the mover with perfect play after it: the position
    after it valued by ``rest_value`` (None: the whole-board search)."""
    h = g.clone()
    me = h.player
    closed = len(h.play(*g.board.pair(pair)))
    if h.is_over():
        return closed
    rest = (rest_value or whole_board)(h)
    return closed + rest if h.player == me else closed - rest


@pytest.mark.parametrize("extra", [False, True])
def test_regions_give_the_whole_board_value_and_a_best_line(extra):
    for g in positions(extra, 24, max_legal=18):
        ss = sum_search(g, g.arrays(), max_states=100_000, abort=NO_ABORT)
        assert ss is not None
        r = ss.search(-1000, 1000, 10**8, NO_ABORT)
        v = whole_board(g)
        assert not r.aborted and r.value == v
        assert g.board.pair(r.pair) in g.legal_moves()
        assert value_of_line(g, r.pair) == v


@pytest.mark.parametrize("extra", [False, True])
def test_alone_values_are_exact_where_no_move_splits_a_region(extra):
    """The move ordering's estimate (a class's value to its first mover, alone) is the sum
    search's exact value for every class whose game tree never splits in two."""
    checked = 0
    for g in positions(extra, 16, max_legal=18):
        r = Regions(g, g.arrays())
        assert r.explore(100_000, NO_ABORT)
        av, mval = _alone_values(r.move_ptr, r.move_pts, r.move_kl, r.kl_ptr, r.kl_items, extra)
        ncls = len(r.total)
        simple = np.ones(ncls, bool)  # kids are interned first, so one pass decides
        for c in range(ncls):
            for m in range(r.move_ptr[c], r.move_ptr[c + 1]):
                kids = r.kl_items[r.kl_ptr[r.move_kl[m]] : r.kl_ptr[r.move_kl[m] + 1]]
                simple[c] &= len(kids) <= 1 and all(simple[k] for k in kids)
        ss = SumSearch(r)
        for cls in np.flatnonzero(simple[1:]) + 1:
            c = int(cls)
            v, _, _, aborted = _sum_kernel(
                ss.tabs, np.asarray([c], np.int64), r.n, extra, -1000, 1000, 10**7, NO_ABORT, ss.tt, ss.sums
            )
            assert not aborted and v == av[c]
            assert av[c] == max(mval[r.move_ptr[c] : r.move_ptr[c + 1]])
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("extra", [False, True])
def test_null_window_searches_bound_the_value(extra):
    """A fail-soft search in (t-1, t) returns >= t exactly when the value is >= t, sharing one
    table between searches (its entries are bounds, valid for any window)."""
    for g in positions(extra, 6, max_legal=16):
        v = whole_board(g)
        ss = sum_search(g, g.arrays(), max_states=100_000, abort=NO_ABORT)
        assert ss is not None
        for t in range(v - 3, v + 4):
            r = ss.search(t - 1, t, 10**8, NO_ABORT)
            assert (r.value >= t) == (v >= t)
            assert r.value >= t or r.value <= t - 1


@pytest.mark.parametrize("seed", range(4))
def test_regions_are_independent(seed):
    """Late in a 24-star game the board falls apart: no legal line of one region crosses a legal
    line of another, and no live triangle has undrawn sides in two regions."""
    g = greedy_to(24, 24, seed)
    D = g.arrays()
    r = Regions(g, D)
    parts = r.parts()
    assert len(parts) >= 2
    assert sum(bin(m).count("1") for m in parts) == r.n == g.legal_count()
    owner = {int(r.lines[b]): k for k, m in enumerate(parts) for b in range(r.n) if m >> b & 1}
    S = g.board.arrays
    xs, ys, pi, pj = S.xs, S.ys, S.pi, S.pj
    for p in owner:
        for q in owner:
            if owner[p] != owner[q]:
                assert not K.segments_cross(
                    xs[pi[p]], ys[pi[p]], xs[pj[p]], ys[pj[p]], xs[pi[q]], ys[pi[q]], xs[pj[q]], ys[pj[q]]
                )
    for c in range(len(S.cells)):
        if D.cell_blocked[c] == 0 and D.cell_drawn[c] < 3:
            sides = {owner[int(s)] for s in S.cell_pairs[c] if D.line_owner[s] < 0}
            assert len(sides) == 1


@pytest.mark.parametrize("extra", [False, True])
def test_decide_over_regions_agrees_with_the_whole_board_proof(extra):
    for seed in range(4):
        g = greedy_to(14, 18, seed, extra)
        if g.is_over():
            continue
        mine, _ = solver.decide_regions(g, g.arrays(), max_states=50_000, max_nodes=10**8, abort=NO_ABORT)
        theirs, _ = solver.decide(g, g.arrays(), max_nodes=50_000_000, abort=NO_ABORT)
        assert mine is not None and theirs is not None
        assert mine.outcome == theirs.outcome
        if mine.outcome >= 0:  # the proved line keeps that outcome against perfect play
            lead = g.scores[g.player] - g.scores[1 - g.player]
            assert np.sign(lead + value_of_line(g, mine.pair)) == mine.outcome


@pytest.mark.parametrize("extra", [False, True])
def test_exploring_with_tables_that_must_grow_interns_the_same_trees(extra):
    """The exploration's loop stops whenever its tables are full and goes on once they have
    grown: tables starting at one row interned every class, move and kid list the same."""
    g = Game(get_preset("phone").make_board(8, 2000), extra)  # a whole board: 15 k states
    r = Regions(g, g.arrays())
    args = (r.geo, r.n, 100_000, NO_ABORT)
    roomy, tiny = _explore(*args), _explore(*args, 1)
    assert roomy[0] and tiny[0] and roomy[3] == tiny[3] > 10_000  # every state explored, in both
    assert len(roomy[4]) > 1_024  # more classes than the tables' first room
    nmoves, nitems = roomy[4][-1], roomy[8][-1]
    for k, (a, b) in enumerate(zip(roomy[1:], tiny[1:], strict=True), start=1):
        if k in (5, 6, 7):  # the moves' points, kid lists and hashes, as far as the last class's
            a, b = a[:nmoves], b[:nmoves]
        elif k == 9:  # the kid lists' items
            a, b = a[:nitems], b[:nitems]
        assert np.array_equal(a, b), k


def test_over_budget_gives_up_and_solve_falls_back(monkeypatch):
    g = positions(False, 1, max_legal=16)[0]
    assert sum_search(g, g.arrays(), max_states=1, abort=NO_ABORT) is None
    proof, _ = solver.decide_regions(g, g.arrays(), max_states=1, max_nodes=10**6, abort=NO_ABORT)
    assert proof is None
    v = solver.solve(g)
    monkeypatch.setattr(solver, "SOLVE_MAX_STATES", 1)  # regions refused: the lazy search answers
    assert solver.solve(g) == v == whole_board(g)


def test_hard_proves_positions_the_whole_board_proof_cannot_reach():
    """At 32 legal lines on 24 stars (alternation) the whole-board proof is out of hard's reach;
    over the regions hard proves the result and plays a line that keeps it."""
    g = greedy_to(24, 32, 3)
    assert g.legal_count() > LEVELS["hard"].solve_legal
    move = choose_move(g, "hard", seed=1, time_limit=60.0)
    info = last_info()
    assert info.solved and info.outcome is not None
    without = dataclasses.replace(LEVELS["hard"], region_legal=0)
    choose_move(g, without, seed=1, time_limit=60.0)
    assert not last_info().solved
    mine, _ = solver.decide_regions(g, g.arrays(), max_states=50_000, max_nodes=10**8, abort=NO_ABORT)
    assert mine is not None and mine.outcome == info.outcome
    if info.outcome >= 0:
        ss = sum_search(g, g.arrays(), max_states=50_000, abort=NO_ABORT)
        assert ss is not None
        lead = g.scores[g.player] - g.scores[1 - g.player]
        h = g.clone()
        me = h.player
        closed = len(h.play(*move))
        rest = sum_search(h, h.arrays(), max_states=50_000, abort=NO_ABORT)
        assert rest is not None
        after = rest.search(-1000, 1000, 10**8, NO_ABORT).value
        v = closed + after if h.player == me else closed - after
        assert np.sign(lead + v) == info.outcome


def test_only_hard_proves_over_regions_and_further_with_the_extra_turn():
    from triangles.ai.regions import MAX_LINES

    hard = LEVELS["hard"]
    assert 0 < hard.region_legal <= hard.region_legal_extra <= MAX_LINES
    assert LEVELS["easy"].region_legal == LEVELS["medium"].region_legal == 0
    assert LEVELS["easy"].region_legal_extra == LEVELS["medium"].region_legal_extra == 0
    # with the extra turn past region_legal: proved (60 stars, 56 legal lines)
    g = greedy_to(60, 56, 0, extra=True)
    assert hard.region_legal < g.legal_count() <= hard.region_legal_extra
    choose_move(g, "hard", seed=1, time_limit=60.0)
    assert last_info().solved


def full_window(ss: SumSearch, root: list[int], cancel: bool) -> int:
    """The sum search's exact value of the multiset ``root`` (pairs dropped or not)."""
    r = ss.regions
    tabs = ss.tabs[:-1] + ((ss.cancel if cancel else np.zeros_like(ss.cancel)),)
    tt = np.zeros((1 << 16, 4), np.int64)
    sums = _move_sums(tabs)
    v, _, _, aborted = _sum_kernel(
        tabs, np.asarray(root, np.int64), 3 * r.n, r.extra, -1000, 1000, 10**8, NO_ABORT, tt, sums
    )
    assert not aborted
    return int(v)


def test_two_copies_of_some_classes_cancel():
    """With alternation, a class marked by ``_find_cancelling`` adds nothing in pairs: ``X + G +
    G`` is worth ``X`` (searched without dropping pairs), and dropping them keeps every value.
    Classes of more than one line qualify too, and the search changes (it is exercised)."""
    changed = 0
    longer = 0
    games = [greedy_to(14, legal, seed) for legal in (20, 26) for seed in range(6)]
    for g in games + positions(False, 12, max_legal=18):
        if g.is_over():
            continue
        r = Regions(g, g.arrays())
        assert r.explore(200_000, NO_ABORT)
        with_pairs = SumSearch(r, cancel=False).search(-1000, 1000, 10**8, NO_ABORT)
        ss = SumSearch(r)
        without = ss.search(-1000, 1000, 10**8, NO_ABORT)
        assert not with_pairs.aborted and not without.aborted
        assert without.value == with_pairs.value
        changed += without.nodes != with_pairs.nodes
        root = [int(c) for c in ss.root]
        alone = full_window(ss, root, cancel=False)
        for c in np.flatnonzero(ss.cancel)[:6]:
            assert full_window(ss, [*root, int(c), int(c)], cancel=False) == alone
            assert full_window(ss, [int(c), int(c)], cancel=False) == 0
            longer += r.move_ptr[c + 1] - r.move_ptr[c] > 1
    assert changed >= 2 and longer >= 2
    g = greedy_to(14, 20, 0, extra=True)  # under the extra-turn rule nothing cancels
    r = Regions(g, g.arrays())
    assert r.explore(200_000, NO_ABORT)
    assert not SumSearch(r).cancel.any()


def test_a_moves_key_sum_is_its_kids_keys_once_the_pairs_are_known():
    """The sum search keeps each move's kids' keys added up (a child's key in the enhanced
    cut-offs in one addition), or 0 where a kid's pairs cancel and the child's key needs the
    multiset; so a child's key is the same either way."""
    summed = paired = 0
    for g in [greedy_to(14, 24, seed) for seed in range(3)]:
        r = Regions(g, g.arrays())
        assert r.explore(200_000, NO_ABORT)
        ss = SumSearch(r)
        key, cancel = ss.tabs[6], ss.tabs[8]
        for m in range(int(r.move_ptr[-1])):
            kl = int(r.move_kl[m])
            kids = r.kl_items[r.kl_ptr[kl] : r.kl_ptr[kl + 1]]
            if cancel[kids].any():
                assert ss.sums[m] == 0
                paired += 1
            else:
                assert ss.sums[m] == key[kids].sum()  # int64 sums wrap alike
                summed += kids.size > 0
    assert summed > 100 and paired > 0


def test_moves_probed_before_sorting_give_the_value_the_sorted_moves_give():
    """The enhanced cut-offs probe a node's moves as listed and give the value of the cutting
    move the order puts first (the highest rank, the first listed among equal ranks); sorted
    afterwards, the moves stand as inserting them one by one by rank puts them."""
    from triangles.ai.multiset import children_refute, insert_ranked, list_move, sort_ranked
    from triangles.ai.tables import new_table, tt_store

    rng = np.random.default_rng(7)
    cut_seen = listed_first_differs = 0
    for _ in range(300):
        m = nmoves = int(rng.integers(1, 20))
        rank = rng.integers(0, 4, m).astype(np.int64)  # few ranks: many ties
        pts = rng.integers(0, 3, nmoves).astype(np.int64)
        sums = rng.integers(1, 2**62, nmoves).astype(np.int64)
        key = np.zeros(1, np.int64)  # the one element the moves belong to, key 0
        h = np.int64(0)
        tt = new_table(12)
        mask = np.int64(tt.shape[0] - 1)
        for g in range(nmoves):
            if rng.random() < 0.5:  # some children are in the table, with exact values
                tt_store(tt, mask, np.int64(h + sums[g]), int(rng.integers(-3, 4)), -1, -100, 100, 1, False)
        shape = (2, 64)
        mv, mvc, rk = np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
        smv, smvc, srk = np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
        for g in range(nmoves):
            list_move(mv, mvc, rk, 1, g, g, 0, rank[g])
            insert_ranked(smv, smvc, srk, 1, g, g, 0, rank[g])
        hi = int(rng.integers(-2, 4))
        ms = np.zeros(shape, np.int64)
        none = np.zeros(0, np.int64)
        chs = np.zeros(64, np.int64)
        args = (none, pts, none, none, key, np.zeros(1, np.bool_), False, hi, chs, sums)
        got = children_refute(tt, mask, h, ms, 1, 1, mv, mvc, m, *args, rk, False)
        # the reference: the sorted moves probed one at a time, the first cut wins
        want = (False, 0)
        for j in range(m):
            one = children_refute(tt, mask, h, ms, 1, 1, smv[:, j:], smvc[:, j:], 1, *args, srk[:, j:], True)
            if one[0]:
                want = one
                break
        assert got == want
        assert children_refute(tt, mask, h, ms, 1, 1, smv, smvc, m, *args, srk, True) == want
        cut_seen += got[0]
        # the first cut as listed would often give another value: the choice is exercised
        for j in range(m):
            one = children_refute(tt, mask, h, ms, 1, 1, mv[:, j:], mvc[:, j:], 1, *args, rk[:, j:], True)
            if one[0]:
                listed_first_differs += one != want
                break
        sort_ranked(mv, mvc, rk, 1, m)
        assert (mv[1, :m] == smv[1, :m]).all() and (rk[1, :m] == srk[1, :m]).all()
        order = sorted(range(nmoves), key=lambda g: -rank[g])  # Python's sort is stable
        assert list(mv[1, :m]) == order
    assert cut_seen > 50 and listed_first_differs > 10


def test_a_childs_links_patched_from_its_parents_match_a_fresh_split():
    """Exploring patches each state's links for the line drawn (``child_links``) instead of
    recomputing them: the regions found must be the same as a fresh ``split`` of the child."""
    from triangles.ai.split import child_links, components, links, split

    checked = 0
    for extra, legal in ((False, 40), (True, 56), (False, 24)):
        for seed in range(4):
            g = greedy_to(24, legal, seed, extra)
            r = Regions(g, g.arrays())
            rng = np.random.default_rng(seed)
            legal_m, drawn = np.uint64((1 << r.n) - 1), np.uint64(0)
            while legal_m:  # down a random line of play, every line of each state checked
                link, relk = np.zeros(64, np.uint64), np.zeros(64, np.uint64)
                links(legal_m, drawn, r.geo, link, relk, legal_m)
                lines = [k for k in range(r.n) if int(legal_m) >> k & 1]
                for k in lines:
                    b = np.uint64(1 << k)
                    nl, nd = legal_m & ~b & ~r.cross[k], drawn | b
                    pl, prl = link.copy(), relk.copy()
                    child_links(legal_m, drawn, k, r.geo, pl, prl)
                    got = np.zeros(64, np.uint64), np.zeros(64, np.uint64)
                    n1 = components(nl, nd, r.cross, pl, prl, *got)
                    want = np.zeros(64, np.uint64), np.zeros(64, np.uint64)
                    scratch = np.zeros(64, np.uint64), np.zeros(64, np.uint64)
                    n2 = split(nl, nd, r.geo, *scratch, *want)
                    assert n1 == n2
                    assert (got[0][:n1] == want[0][:n2]).all() and (got[1][:n1] == want[1][:n2]).all()
                    checked += 1
                k = int(rng.choice(lines))
                legal_m, drawn = legal_m & ~np.uint64(1 << k) & ~r.cross[k], drawn | np.uint64(1 << k)
    assert checked > 1000


@pytest.mark.parametrize("extra", [False, True])
def test_a_later_move_gets_a_null_window_and_its_whole_window_only_when_it_beats_the_best(extra):
    """Principal variation search: the windows open_scout and rescout give a node's child."""
    fa = np.array([2, 0, 0], np.int64)
    fb = np.array([7, 0, 0], np.int64)
    scout = np.zeros(3, np.bool_)
    stays = extra  # a scoring move keeps the mover under the extra-turn rule
    p = 1

    def child_window() -> tuple[int, int]:
        return int(fa[1]), int(fb[1])

    whole = (2 - p, 7 - p) if stays else (p - 7, p - 2)
    open_scout(fa, fb, scout, True, 0, p, extra)  # the node's first move: the whole window
    assert child_window() == whole and not scout[0]
    open_scout(fa, fb, scout, False, 0, p, extra)  # a later one: only "does it beat 2?"
    assert child_window() == ((2 - p, 3 - p) if stays else (p - 3, p - 2)) and scout[0]

    def back(value_for_mover: int) -> int:
        """The child's return value that makes the move worth ``value_for_mover``."""
        return value_for_mover - p if stays else p - value_for_mover

    assert not rescout(fa, fb, scout, 0, p, back(2), extra)  # no better: nothing more to search
    assert not scout[0]
    for v, again in ((3, True), (6, True), (7, False), (9, False)):  # 7 and above cut the node anyway
        open_scout(fa, fb, scout, False, 0, p, extra)
        assert rescout(fa, fb, scout, 0, p, back(v), extra) is again
        if again:
            assert child_window() == whole
    # a child opened with the whole window is never searched again
    open_scout(fa, fb, scout, True, 0, p, extra)
    assert not rescout(fa, fb, scout, 0, p, back(4), extra)
    # nor is one under a null window already (nothing to narrow)
    fb[0] = 3
    open_scout(fa, fb, scout, False, 0, p, extra)
    assert not scout[0]
