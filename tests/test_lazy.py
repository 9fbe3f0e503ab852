"""Regions expanded as the search reaches them (triangles.ai.lazy): the same values as the
whole-board search and as the exhaustively explored regions, under both turn rules."""

from __future__ import annotations

import numpy as np
import pytest

from test_regions import NO_ABORT, greedy_to, positions, value_of_line, whole_board
from triangles.ai.expand import SMALL, large_rank, line_rank, value_rank
from triangles.ai.lazy import _NO_SHARE, LazySum, _share_word, lazy_search, search_pair
from triangles.ai.pools import KEY, MS
from triangles.ai.regions import Regions, sum_search
from triangles.ai.tables import NOB, new_table, tt_keep_cut, tt_lower, tt_probe, tt_row, tt_store, tt_upper


@pytest.mark.parametrize("extra", [False, True])
def test_lazy_gives_the_whole_board_value_and_a_best_line(extra):
    for g in positions(extra, 24, max_legal=18):
        r = lazy_search(g, g.arrays(), max_nodes=10**8, abort=NO_ABORT, tt_bits=12)
        v = whole_board(g)
        assert not r.aborted and r.value == v
        assert g.board.pair(r.pair) in g.legal_moves()
        assert value_of_line(g, r.pair) == v


@pytest.mark.parametrize("extra", [False, True])
@pytest.mark.parametrize("small", [0, 4, 12, 64])
def test_lazy_agrees_with_the_explored_regions_whatever_is_merged(extra, small):
    """``small`` sets which regions are explored whole and merged by game tree (0: none, every
    state expanded alone; 64: all but the root's); the value cannot depend on it."""
    for seed in range(4):
        g = greedy_to(11, 30, seed, extra)
        ss = sum_search(g, g.arrays(), max_states=2_000_000, abort=NO_ABORT)
        assert ss is not None
        want = ss.search(-1000, 1000, 10**9, NO_ABORT).value
        r = lazy_search(g, g.arrays(), max_nodes=10**9, abort=NO_ABORT, small=small)
        assert not r.aborted and r.value == want


@pytest.mark.parametrize("extra", [False, True])
def test_null_windows_bound_the_value_and_share_what_they_found(extra):
    """Fail-soft probes (t - 1, t) on one LazySum: at least t exactly when the value is, and a
    later probe expands no state the earlier ones already did."""
    for seed in range(3):
        g = greedy_to(10, 34, seed, extra)
        v = lazy_search(g, g.arrays(), max_nodes=10**9, abort=NO_ABORT).value
        ls = LazySum(Regions(g, g.arrays()), tt_bits=16)
        seen = 0
        for t in (v - 2, v + 1, v, v + 3, v - 1):
            r = ls.search(t - 1, t, 10**9, NO_ABORT)
            assert not r.aborted
            assert (r.value >= t) == (v >= t)
            assert v <= r.value if r.value < t else v >= r.value  # fail-soft: a bound on the far side
            assert r.states >= seen
            seen = r.states


@pytest.mark.parametrize("extra", [False, True])
def test_a_root_of_some_lines_is_worth_the_best_of_those_lines(extra):
    """``root_lines`` lets the root draw only some lines: the value is the best of theirs by the
    whole-board search, a best line among them, and the root stays out of the table, so a
    later search of every line on the same table still gets the position's value."""
    for g in positions(extra, 10, max_legal=16):
        r = Regions(g, g.arrays())
        worth = {k: value_of_line(g, int(p)) for k, p in enumerate(r.lines)}
        for k0 in range(0, r.n, 3):
            some = {k0, (k0 + 5) % r.n, (k0 + 7) % r.n}
            ls = LazySum(r, tt_bits=14, root_lines=sum(1 << k for k in some))
            res = ls.search(-1000, 1000, 10**8, NO_ABORT)
            assert not res.aborted and res.value == max(worth[k] for k in some)
            assert res.pair in {int(r.lines[k]) for k in some} and value_of_line(g, res.pair) == res.value
            whole = LazySum(r, tt_bits=14)
            whole.tt = ls.tt
            assert whole.search(-1000, 1000, 10**8, NO_ABORT).value == max(worth.values())


def test_lines_set_aside_are_no_lines_and_score_nothing():
    """``Regions(without=...)``: the position after a line crossing the lines set aside is the
    same game, so the search of the game without them, its root drawing that line only, gives
    that line's value; lines not legal cannot be set aside, and a root of no line is refused."""
    checked = 0
    for extra in (False, True):
        for g in positions(extra, 12, max_legal=18):
            legal = {g.board.pair_id(i, j) for i, j in g.legal_moves()}
            for p in sorted(legal):
                h = g.clone()
                h.play(*g.board.pair(p))
                gone = sorted(legal - {p} - {h.board.pair_id(i, j) for i, j in h.legal_moves()})
                if not gone:
                    continue
                r = Regions(g, g.arrays(), without=gone[:2])
                assert r.n == len(legal) - len(gone[:2]) and not set(gone[:2]) & set(r.lines.tolist())
                k = int(np.flatnonzero(r.lines == p)[0])
                res = LazySum(r, tt_bits=12, root_lines=1 << k).search(-1000, 1000, 10**8, NO_ABORT)
                assert res.value == value_of_line(g, p)
                checked += 1
                break
    assert checked >= 10
    g = next(g for g in positions(False, 12, max_legal=18) if g.moves)
    with pytest.raises(ValueError, match="lines set aside must be legal"):
        Regions(g, g.arrays(), without=[g.board.pair_id(*g.moves[0])])
    r = Regions(g, g.arrays())
    for bad in (0, 1 << r.n):
        with pytest.raises(ValueError, match="root_lines must be a nonempty mask"):
            LazySum(r, root_lines=bad)


def test_a_spent_budget_says_so_and_the_game_is_untouched():
    g = greedy_to(12, 50, 0)
    before = g.clone()
    r = lazy_search(g, g.arrays(), max_nodes=1000, abort=NO_ABORT)
    assert r.aborted and r.pair == -1
    flag = np.ones(1, np.uint8)
    assert lazy_search(g, g.arrays(), max_nodes=10**9, abort=flag).aborted
    assert g.lines == before.lines and g.legal_count() == before.legal_count()


def test_a_finished_game_is_worth_nothing():
    g = greedy_to(7, 0, 0)
    assert g.is_over()
    r = lazy_search(g, g.arrays(), max_nodes=100, abort=NO_ABORT)
    assert (r.value, r.pair, r.aborted) == (0, -1, False)


def test_a_large_regions_gains_come_first_and_its_losses_last():
    """The order `large_rank` promises: a large region's move that gains outranks every move
    of a small region (even one worth more), one that loses ranks below every other, and among
    a large region's equal moves the one leaving fewer lines in large regions comes first."""
    small_moves = [value_rank(p, v, o, x) for p in (0, 1, 2) for v in (-3, 0, 3) for o in (0, 2) for x in (False, True)]
    for extra in (False, True):
        gain = large_rank(value_rank(1, 1, 0, extra), 40)
        loss = large_rank(value_rank(0, 0, 1, extra), 0)
        assert gain > max(small_moves) and loss < min(small_moves)
        quiet = [large_rank(value_rank(0, 0, 0, extra), big) for big in (0, 13, 40, 63)]
        assert quiet == sorted(quiet, reverse=True) and len(set(quiet)) == 4
        # two gains still keep the value order between them
        assert large_rank(value_rank(2, 2, 0, extra), 63) > large_rank(value_rank(1, 1, 0, extra), 0)


def test_a_large_regions_line_is_a_gain_or_a_loss_by_its_own_points_and_what_it_offers():
    """`line_rank`: a large region's line that scores is a gain (even when it offers more than
    it scores), one that only offers is a loss, and the quiet ones come between, the fewest
    lines left in large regions first; more points first among gains, whatever the regions
    it leaves would be worth to their first mover alone (they are not asked)."""
    for extra in (False, True):
        quiet = [line_rank(0, 0, big, extra) for big in (0, 13, 30, 63)]
        assert quiet == sorted(quiet, reverse=True) and len(set(quiet)) == 4
        assert quiet[1] == large_rank(value_rank(0, 0, 0, extra), 13)
        assert line_rank(1, 2, 63, extra) > max(quiet) and line_rank(0, 1, 0, extra) < min(quiet)
        assert line_rank(2, 0, 63, extra) > line_rank(1, 0, 0, extra)


@pytest.mark.parametrize("extra", [False, True])
def test_two_searches_sharing_a_table_give_one_searchs_value(extra):
    """solve's pair of searches (one of them reversing its root moves, each reading what the
    other stored): the value of one search alone, a real best line, and the nodes of both."""
    for seed in range(4):
        g = greedy_to(10, 40, seed, extra)
        one = lazy_search(g, g.arrays(), max_nodes=10**9, abort=NO_ABORT, tt_bits=16)
        r = Regions(g, g.arrays())
        first = LazySum(r, tt_bits=16)
        flag = np.zeros(1, np.uint8)
        both = search_pair(first, -1000, 1000, 10**9, flag)
        assert not both.aborted and both.value == one.value
        assert flag[0] == 1  # raised to stop the slower search
        assert both.states > first.states  # the partner's states counted too
        assert g.board.pair(both.pair) in g.legal_moves()
        # a reversed search alone (pools of its own, the shared table now full) agrees too
        second = LazySum(r, partner=first)
        assert second.tt is first.tt and second.second and not first.second
        assert second.search(-1000, 1000, 10**9, np.zeros(1, np.uint8)).value == one.value


def _lazy_value_of_line(g, pair: int) -> int:
    """:func:`value_of_line` with the rest valued by the lazy search alone (the whole-board
    search is too slow past 30-odd legal lines)."""
    return value_of_line(
        g, pair, lambda h: lazy_search(h, h.arrays(), max_nodes=10**9, abort=NO_ABORT, tt_bits=16).value
    )


@pytest.mark.parametrize("extra", [False, True])
def test_a_pair_reading_each_others_root_bound_at_every_node_keeps_the_value(extra):
    """Each search of a pair takes the highest root move's value the other proved as its
    root's lower bound and narrows the windows of the nodes it has in progress (every 1,024
    nodes as solve runs it; here at every node, so that the narrowing meets every kind of
    node): the value and a best line of one search alone, on positions of 28 to 43 legal
    lines."""
    for seed in range(6):
        g = greedy_to(11, 28 + 3 * seed, seed, extra)
        one = lazy_search(g, g.arrays(), max_nodes=10**9, abort=NO_ABORT, tt_bits=16)
        first = LazySum(Regions(g, g.arrays()), tt_bits=16, look_every=1)
        both = search_pair(first, -1000, 1000, 10**9, np.zeros(1, np.uint8))
        assert not both.aborted and both.value == one.value
        assert _lazy_value_of_line(g, both.pair) == one.value
        assert first.share[0] >> 8 == one.value  # the shared word: the best root move's value


@pytest.mark.parametrize("extra", [False, True])
def test_a_root_bound_proved_before_the_search_is_kept(extra):
    """A search whose shared word already holds a root move's value (as a partner's proof
    would): the root's value when that bound is the value or below it; fail-soft, at least
    the bound when the bound reaches the window's upper end."""
    for seed in range(3):
        g = greedy_to(10, 34, seed, extra)
        v = lazy_search(g, g.arrays(), max_nodes=10**9, abort=NO_ABORT).value
        pairs = (g.board.pair_id(i, j) for i, j in g.legal_moves())
        best = next(p for p in pairs if _lazy_value_of_line(g, p) == v)
        r = Regions(g, g.arrays())
        line = [int(x) for x in r.lines].index(best)
        for low in (v, v - 2):
            ls = LazySum(r, tt_bits=16)
            ls.share[0] = _share_word(low, line)
            res = ls.search(-1000, 1000, 10**9, NO_ABORT)
            assert not res.aborted and res.value == v
            assert _lazy_value_of_line(g, res.pair) == v
        ls = LazySum(r, tt_bits=16)
        ls.share[0] = _share_word(v, line)
        res = ls.search(v - 3, v - 1, 10**9, NO_ABORT)
        assert res.value >= v - 1  # above the window: a lower bound


def test_a_pair_stopped_from_outside_says_so_and_a_partner_needs_the_same_regions():
    g = greedy_to(12, 50, 0)
    r = Regions(g, g.arrays())
    first = LazySum(r, tt_bits=12)
    res = search_pair(first, -1000, 1000, 10**9, np.ones(1, np.uint8))
    assert res.aborted and res.pair == -1
    with pytest.raises(ValueError, match="same regions"):
        LazySum(Regions(g, g.arrays()), partner=first)
    with pytest.raises(ValueError, match="not a partner"):
        LazySum(r, partner=LazySum(r, partner=first))
    with pytest.raises(ValueError, match="not a partner"):  # a partner's own pair would share its tag
        search_pair(LazySum(r, partner=first), -1000, 1000, 10**9, np.zeros(1, np.uint8))
    with pytest.raises(ValueError, match="power of two"):
        LazySum(r, look_every=3)


def test_a_table_row_torn_by_two_writers_reads_as_absent():
    """Rows store their key xor the rest: a row half from one write and half from another
    (two searches storing at once) is a miss, never another position's bound."""
    tt = np.zeros((16, 4), np.int64)
    mask = np.int64(15)
    h = np.int64(0x5DEECE66D1234567)
    tt_store(tt, mask, h, 3, 7, -1000, 1000, 40, True)  # exact value 3, best move 7
    assert tt_probe(tt, h, mask, 0, 1, True) == (True, 3, 7)
    assert tt_probe(tt, h + 2, mask, 0, 1, True) == (False, 0, -1)
    row = int(h & mask & ~1)
    torn = tt.copy()
    torn[row, 1] = 5  # another write's value under this key
    assert tt_probe(torn, h, mask, 0, 1, True) == (False, 0, -1)
    torn = tt.copy()
    torn[row, 3] += 1  # another write's work
    assert tt_probe(torn, h, mask, 0, 1, True) == (False, 0, -1)


def test_a_row_keeps_both_bounds_where_the_lazy_search_merges():
    """Merging (the lazy search): a lower bound and then an upper bound stored for one key are
    both kept, each settles the windows it reaches, and the two meeting give the value; the
    best move of the latest search is kept.  Without merging (the sum search) the latest bound
    alone is kept, as before bounds were merged."""
    mask = np.int64(15)
    h = np.int64(0x5DEECE66D1234565)
    tt = np.zeros((16, 4), np.int64)
    tt_store(tt, mask, h, 2, 5, 0, 2, 30, True)  # failed high in the window (0, 2): at least 2
    tt_store(tt, mask, h, 4, 6, 4, 5, 20, True)  # failed low in (4, 5): at most 4
    found, v, best, _ = tt_row(tt, h, mask)
    assert found and (tt_lower(v), tt_upper(v), best) == (2, 4, 6)
    assert int((tt[:, 0] != 0).sum()) == 1  # one row for the key
    assert tt_probe(tt, h, mask, 0, 2, True) == (True, 2, 6)  # the lower bound settles (0, 2)
    assert tt_probe(tt, h, mask, 4, 5, True) == (True, 4, 6)  # the upper bound settles (4, 5)
    assert tt_probe(tt, h, mask, 2, 4, True) == (False, 0, 6)  # neither settles (2, 4)
    assert tt_probe(tt, h, mask, 0, 2, False) == (False, 0, 6)  # nor anything at the root
    tt_store(tt, mask, h, 1, 5, 1, 3, 10, True)  # a looser upper bound (at most 1 < 2: a collision's)
    found, v, _, _ = tt_row(tt, h, mask)
    assert (tt_lower(v), tt_upper(v)) == (2, 1)  # each bound only ever tightens
    tt = np.zeros((16, 4), np.int64)
    tt_store(tt, mask, h, 2, 5, 0, 2, 30, True)
    tt_store(tt, mask, h, 2, 7, 2, 4, 20, True)  # failed low at 2 in (2, 4): the two meet
    assert tt_probe(tt, h, mask, -100, 100, True) == (True, 2, 7)
    plain = np.zeros((16, 4), np.int64)
    tt_store(plain, mask, h, 2, 5, 0, 2, 30, False)
    tt_store(plain, mask, h, 4, 6, 4, 5, 20, False)
    found, v, best, _ = tt_row(plain, h, mask)
    assert found and (tt_lower(v), tt_upper(v), best) == (-NOB, 4, 6)
    assert tt_probe(plain, h, mask, 0, 2, True) == (False, 0, 6)


def test_a_cut_offs_bound_is_kept_only_where_it_evicts_nothing_searched():
    """An enhanced cut-off's lower bound goes into an empty row of its bucket, or over a row
    holding only such a bound, as a lower bound with no move; a searched row (work above one)
    of another key stays, and so does a row with a best move for the same key."""
    mask = np.int64(15)
    h = np.int64(0x5DEECE66D1234566)
    tt = np.zeros((16, 4), np.int64)
    tt_keep_cut(tt, mask, h, 4)
    found, v, best, work = tt_row(tt, h, mask)
    assert found and (tt_lower(v), tt_upper(v), best, work) == (4, NOB, -1, 1)  # lower bound 4, work 1
    assert tt_probe(tt, h, mask, 2, 4, True) == (True, 4, -1)  # settles a window it reaches
    assert tt_probe(tt, h, mask, 4, 6, True)[0] is False  # and not one it does not
    tt_keep_cut(tt, mask, h, 6)  # over its own row
    assert tt_lower(tt_row(tt, h, mask)[1]) == 6 and int((tt[:, 0] != 0).sum()) == 1
    full = np.zeros((16, 4), np.int64)
    for k, work in ((h + 16, 50), (h + 32, 40)):  # the bucket's two rows: other keys' searches
        tt_store(full, mask, np.int64(k), 1, 3, -10, 10, work, True)
    assert int((full[:, 0] != 0).sum()) == 2
    before = full.copy()
    tt_keep_cut(full, mask, h, 4)
    assert (full == before).all()
    mine = np.zeros((16, 4), np.int64)
    tt_store(mine, mask, h, 2, 7, 1, 3, 50, True)  # this key's own searched row, with its best move
    before = mine.copy()
    tt_keep_cut(mine, mask, h, 4)
    assert (mine == before).all()


@pytest.mark.parametrize("extra", [False, True])
def test_a_moves_key_sum_is_its_kids_keys(extra):
    """Each listed move keeps its kids' keys added up (the enhanced cut-offs' child key in one
    addition), or 0 where a kid's pairs cancel and the child's key needs the multiset, or
    where a kid's key was to change (a state of SMALL + 1 lines not expanded yet): a sum
    kept is never out of date."""
    from triangles.ai.pools import KL, NMV, PAIR, SUM

    g = greedy_to(11, 30, 1, extra)
    ls = LazySum(Regions(g, g.arrays()), tt_bits=16)
    ls.search(-(1 << 20), 1 << 20, 10**8, NO_ABORT)
    OU, OI, MV, KP, KI, cnt = ls.pools[0], ls.pools[1], ls.pools[2], ls.pools[3], ls.pools[4], ls.pools[7]
    summed = paired = unsummed = 0
    for g_ in range(int(cnt[NMV])):
        kl = int(MV[g_, KL])
        kids = KI[KP[kl] : KP[kl + 1]]
        if OI[kids, PAIR].any():
            assert MV[g_, SUM] == 0
            paired += 1
        elif MV[g_, SUM] == OI[kids, KEY].sum():  # int64 sums wrap alike
            summed += kids.size > 0
        else:  # 0: a kid's key was to change once expanded (a state of SMALL + 1 lines)
            assert MV[g_, SUM] == 0 and any(int(OU[k, 0]).bit_count() == SMALL + 1 for k in kids)
            unsummed += 1
    assert summed > 1000 and unsummed > 0 and (extra or paired > 0)


@pytest.mark.parametrize("extra", [False, True])
def test_a_states_key_does_not_depend_on_the_order_it_was_met(extra):
    """Two searches meet the states in different orders and give them different ids; a state
    met by both has the same key in both (where both or neither expanded it: a state of
    SMALL + 1 lines takes its game tree's key when expanded), so their shared table keys a
    position alike."""
    g = greedy_to(10, 40, 1, extra)
    r = Regions(g, g.arrays())
    first = LazySum(r, tt_bits=14)
    second = LazySum(r, partner=first)
    first.search(-1000, 1000, 10**9, NO_ABORT)
    first.share[:] = _NO_SHARE  # the second search not told the root's value: it searches on its own
    second.search(-1000, 1000, 10**9, NO_ABORT)

    def met(ls: LazySum) -> dict[tuple[int, int], tuple[int, int]]:
        """Each state met: (its object's id, that object's key)."""
        ids, rows = ls.pools[5], ls.pools[1]
        return {(int(a), int(b)): (int(v) - 1, int(rows[int(v) - 1, KEY])) for a, b, v in ids if v != 0}

    def expanded(ls: LazySum, o: int) -> bool:
        return bool(ls.pools[1][o, MS] >= 0)

    m1, m2 = met(first), met(second)
    common = m1.keys() & m2.keys()
    assert len(common) > 100
    assert any(m1[s][0] != m2[s][0] for s in common)  # the ids differ...
    for s in common:  # ...the keys do not, but where only one search expanded a state of SMALL + 1 lines
        if m1[s][1] != m2[s][1]:
            assert s[0].bit_count() == SMALL + 1
            assert expanded(first, m1[s][0]) != expanded(second, m2[s][0])


def test_a_states_key_does_not_depend_on_the_numbering_of_the_lines():
    """The regions after a line p, numbered as that position's own lines and as the lines of
    the position before p with a line p crosses set aside (one line more, every number
    shifted), are the same states with the same keys: what lets the searches of a position
    of 65 or 66 lines share a table.  The lines drawn count, through the live cells."""
    from triangles.ai.split import split, state_key

    scratch = [np.zeros(64, np.uint64) for _ in range(4)]

    def keys(r: Regions, legal: np.uint64, drawn: np.uint64) -> list[tuple[list[int], int]]:
        nc = split(legal, drawn, r.geo, *scratch)
        out = []
        for j in range(nc):
            pairs = [int(r.lines[k]) for k in range(r.n) if int(scratch[2][j]) >> k & 1]
            out.append((pairs, int(state_key(scratch[2][j], scratch[3][j], r.geo))))
        return sorted(out)

    checked = 0
    for g in positions(False, 12, max_legal=30):
        legal = sorted(g.board.pair_id(i, j) for i, j in g.legal_moves())
        for p in legal:
            h = g.clone()
            h.play(*g.board.pair(p))
            gone = sorted(set(legal) - {p} - {h.board.pair_id(i, j) for i, j in h.legal_moves()})
            if not gone or h.is_over():
                continue
            own = Regions(h, h.arrays())
            before = Regions(g, g.arrays(), without=gone[:1])
            k = int(np.flatnonzero(before.lines == p)[0])
            full = np.uint64((1 << before.n) - 1)
            b = np.uint64(1 << k)
            after = keys(before, full & ~b & ~before.cross[k], b)
            assert after == keys(own, np.uint64((1 << own.n) - 1), np.uint64(0))
            checked += 1
            break
    assert checked >= 8
    # the lines drawn count, through the live cells they leave: the state a line leaves and
    # the same legal lines with that line not drawn have different keys
    differ = 0
    for g in positions(False, 6, max_legal=30):
        r = Regions(g, g.arrays())
        full = np.uint64((1 << r.n) - 1)
        for k in range(r.n):
            b = np.uint64(1 << k)
            rest = full & ~b & ~r.cross[k]
            differ += state_key(rest, b, r.geo) != state_key(rest, np.uint64(0), r.geo)
    assert differ >= 20


@pytest.mark.parametrize("extra", [False, True])
@pytest.mark.parametrize("small", [4, 12])
def test_an_expanded_state_one_line_past_the_merged_takes_its_game_trees_key(extra, small):
    """Every region a state of ``small`` + 1 lines leaves is merged by game tree, so once it is
    expanded its key is the key exploring it whole gives (the key of every state of its
    game), and the search's value is unchanged (the explored regions' value)."""
    from triangles.ai.expand import explore_small, small_work
    from triangles.ai.pools import new_pools

    checked = shared = 0
    for seed in range(4):  # with alternation and 12, seed 3's search is the one to meet two of one game
        g = greedy_to(11, 30, seed, extra)
        r = Regions(g, g.arrays())
        ls = LazySum(r, tt_bits=16, small=small)
        got = ls.search(-1000, 1000, 10**9, NO_ABORT)
        ss = sum_search(g, g.arrays(), max_states=2_000_000, abort=NO_ABORT)
        assert ss is not None and not got.aborted
        assert got.value == ss.search(-1000, 1000, 10**9, NO_ABORT).value
        OU, OI = ls.pools[0], ls.pools[1]
        keys = []
        for o in range(1, ls.states + 1):
            if int(OU[o, 0]).bit_count() != small + 1 or OI[o, MS] < 0:
                continue
            P = new_pools(1024)
            whole, P = explore_small(OU[o, 0], OU[o, 1], P, r.geo, r.extra, small_work())
            assert OI[o, KEY] == P[1][whole, KEY]
            keys.append(int(OI[o, KEY]))
            checked += 1
        shared += len(keys) - len(set(keys))  # different states of one game tree: one key
    assert checked >= 10 and shared > 0


@pytest.mark.parametrize("extra", [False, True])
def test_solve_gives_one_value_on_one_core_or_two(extra, monkeypatch):
    """A whole 10-star board (one region of 40-odd lines: the lazy search, not the
    exploration): solve's pair and its single search agree with the lazy search alone."""
    from triangles.ai import solver
    from triangles.presets import get_preset
    from triangles.rules import Game

    g = Game(get_preset("phone").make_board(10, 2001), extra)
    before = g.clone()
    want = lazy_search(g, g.arrays(), max_nodes=10**9, abort=NO_ABORT).value
    got = []
    for threads in (1, 2):
        monkeypatch.setattr(solver, "SOLVE_THREADS", threads)
        got.append(solver.solve(g, time_limit=None))
    assert got == [want, want]
    assert g.lines == before.lines and g.legal_count() == before.legal_count()


@pytest.mark.parametrize("extra", [False, True])
def test_pools_that_start_tiny_grow_to_the_same_search(extra):
    """Every pool and table grows while a search runs (between runs of the exploring loop, and
    in an expansion's second pass); from pools of two rows the search must meet the same states
    and visit the same nodes for the same value as from the usual ones."""
    from triangles.ai.pools import new_pools

    g = greedy_to(11, 30, 1, extra)
    r = Regions(g, g.arrays())
    usual = LazySum(r, tt_bits=16).search(-(1 << 20), 1 << 20, 10**8, NO_ABORT)
    start = [p.shape[0] for p in new_pools(2)[:7]]
    assert start == [2, 2, 16, 16, 32, 64, 8]
    tiny = LazySum(r, tt_bits=16, rows=2)
    grown = tiny.search(-(1 << 20), 1 << 20, 10**8, NO_ABORT)
    assert all(p.shape[0] > n for p, n in zip(tiny.pools[:7], start, strict=True))
    assert (grown.value, grown.nodes, grown.states, grown.pair) == (usual.value, usual.nodes, usual.states, usual.pair)


def test_pools_take_the_room_the_system_allows(monkeypatch):
    """Room the system refuses is asked for again halved, down to 1024 objects, below which the
    refusal stands; a partner reserves its partner's room (and merges what its partner does)."""
    from triangles.ai import pools

    real = pools.new_pools
    asked = []
    allowed = [4096]  # the most rows the stand-in system gives

    def refusing(rows):
        asked.append(rows)
        if rows > allowed[0]:
            raise MemoryError
        return real(rows)

    monkeypatch.setattr(pools, "new_pools", refusing)
    assert pools.reserved_pools(1 << 15)[0].shape[0] == 4096
    assert asked == [1 << 15, 1 << 14, 1 << 13, 1 << 12]
    asked.clear()
    allowed[0] = 0
    with pytest.raises(MemoryError):
        pools.reserved_pools(1 << 11)
    assert asked == [1 << 11, 1 << 10]
    monkeypatch.setattr(pools, "new_pools", real)
    g = greedy_to(10, 30, 0, False)
    first = LazySum(Regions(g, g.arrays()), tt_bits=12, small=10, rows=1 << 12)
    second = LazySum(first.regions, partner=first)
    assert second.rows == 1 << 12 and second.pools[0].shape[0] == 1 << 12
    assert second.small == 10 and second.tt is first.tt
    for rows in (0, 1000):
        with pytest.raises(ValueError, match="power of two"):
            LazySum(first.regions, rows=rows)


def test_a_search_gives_up_before_its_32_bit_kid_lists_overflow():
    """The kid lists' starts and items are 32-bit: past :data:`ROOM32` kids or objects the
    pools are out of room, and below it they are not."""
    from triangles.ai.pools import NKL, NOBJ, ROOM32, new_pools, out_of_room

    P = new_pools(2)
    assert not out_of_room(P)
    P[3][P[7][NKL]] = ROOM32
    assert not out_of_room(P)
    P[3][P[7][NKL]] = ROOM32 + 1
    assert out_of_room(P)
    P[3][P[7][NKL]] = 0
    P[7][NOBJ] = ROOM32 + 1
    assert out_of_room(P)


def test_a_new_regions_facts_come_from_its_parents_live_cells():
    """An expansion works out a new large region's facts (live cells, best capture) from its
    parent's live cells instead of looking its own cells up; two levels down from the root of
    a few positions, every region a line leaves must get the facts of its own cells."""
    from triangles.ai.split import child_facts, live_cells, split, state_facts, state_key

    checked = 0
    for seed in range(3):
        g = greedy_to(11, 30, seed)
        r = Regions(g, g.arrays())
        scratch = [np.zeros(64, np.uint64) for _ in range(4)]
        und = np.zeros(r.on_cell.shape[0] + 1, np.uint64)
        single = np.zeros(64, np.int64)
        full = np.uint64((1 << r.n) - 1)
        parents = [(full, np.uint64(0))]
        for depth in range(2):
            below = []
            for legal, drawn in parents:
                n = live_cells(legal, drawn, r.geo, und)
                for k in range(r.n):
                    b = np.uint64(1 << k)
                    if not legal & b:
                        continue
                    nl, nd = legal & ~b & ~r.cross[k], drawn | b
                    nc = split(nl, nd, r.geo, *scratch)
                    for j in range(nc):
                        cl, cd = scratch[2][j], scratch[3][j]
                        want = (*state_facts(cl, cd, r.geo), state_key(cl, cd, r.geo))
                        assert child_facts(und, n, b, cl, single, r.codes) == want
                        assert not single.any()
                        checked += 1
                        if depth == 0 and k % 3 == 0:
                            below.append((cl, cd))
            parents = below
    assert checked > 1000


def test_a_root_moves_refuting_answers_are_counted_by_their_lines():
    """With alternation a root move's answers come in the order of the root moves each line
    has refuted, which needs each answer's line: a large region's k-th move is its k-th legal
    line; a small region's moves are its game tree's, with no line, and are not counted."""
    from triangles.ai.pools import ME, MS, move_line, nth_line

    small = 4
    g = greedy_to(11, 30, 0, False)
    ls = LazySum(Regions(g, g.arrays()), small=small)
    assert not ls.search(-(1 << 20), 1 << 20, 10**8, NO_ABORT).aborted
    OU, OI = ls.pools[0], ls.pools[1]
    listed = [c for c in range(1, ls.states + 1) if OI[c, MS] >= 0 and OI[c, ME] > OI[c, MS]]
    large = [c for c in listed if int(OU[c, 0]).bit_count() > small]
    few = [c for c in listed if int(OU[c, 0]).bit_count() <= small]
    assert large and few
    for c in large[:30] + few[:30]:
        legal = [i for i in range(64) if int(OU[c, 0]) >> i & 1]
        objs = np.array([few[0] if c != few[0] else large[0], c], np.int64)  # found among others
        lines = [move_line(ls.pools, objs, g_, small) for g_ in range(OI[c, MS], OI[c, ME])]
        if c in large:
            assert [nth_line(OU[c, 0], k) for k in range(len(legal))] == legal
            assert lines == legal
        else:
            assert set(lines) == {-1}
            # with small = -1 (the root's objects, never merged) every object's move has a line
            assert move_line(ls.pools, objs, OI[c, MS], -1) == legal[0]
    assert move_line(ls.pools, np.array(large[:1], np.int64), OI[few[0], MS], small) == -1  # not its move


@pytest.mark.parametrize("extra", [False, True])
def test_a_siblings_move_gives_the_childs_key_a_new_state_would(extra):
    """A node whose last move (the line x of T) left a state S not yet expanded takes its cut-off
    from the table through S's siblings: the child by a line l of S is T - l - x, which the
    sibling T - l lists as its move x.  Wherever both are expanded, that key is the one S's own
    move l gives (the node's other regions, its lone lines' pairs dropped, all alike)."""
    from triangles.ai.expand import sibling_key
    from triangles.ai.pools import KL, MS, PAIR, SUM, nth_line

    small = 4
    g = greedy_to(11, 30, 2, extra)
    ls = LazySum(Regions(g, g.arrays()), tt_bits=16, small=small)
    assert not ls.search(-(1 << 20), 1 << 20, 10**8, NO_ABORT).aborted
    P = ls.pools
    OU, OI, MV, KP, KI = P[0], P[1], P[2], P[3], P[4]

    def kids(m):
        kl = int(MV[m, KL])
        return [int(k) for k in KI[KP[kl] : KP[kl + 1]]]

    def key_of(multiset):  # the kernel's multiset key: pairs of one lone-line kind dropped
        total = 0
        for o in set(multiset):
            times = multiset.count(o) % 2 if OI[o, PAIR] else multiset.count(o)
            total += times * int(OI[o, KEY])
        return wrap(total)

    def wrap(v):  # the kernel's keys are int64 sums, which wrap
        return (v + (1 << 63)) % (1 << 64) - (1 << 63)

    def large(o):
        return OI[o, MS] >= 0 and int(OU[o, 0]).bit_count() > small

    checked = unknown = cancelled = 0
    prs = np.zeros(256, np.int64)
    lone = [o for o in range(1, ls.states + 1) if OI[o, PAIR]]
    elsewhere = lone[0] if lone else 1  # a region of the node elsewhere: a lone line if any
    for T in (o for o in range(1, ls.states + 1) if large(o)):
        LT = int(OU[T, 0])
        for k in range(LT.bit_count()):
            gm = int(OI[T, MS]) + k
            left = kids(gm)
            if MV[gm, SUM] == 0 or not left:
                continue
            x = int(nth_line(OU[T, 0], k))
            node = sorted(left + [elsewhere])
            ms = np.zeros((2, 64), np.int64)
            ms[0, : len(node)] = node
            base = np.int64(wrap(key_of(node) - int(MV[gm, SUM])))
            for S in (s for s in set(left) if large(s)):
                LS = int(OU[S, 0])
                for j in range(LS.bit_count()):
                    line = int(nth_line(OU[S, 0], j))
                    want = node.copy()
                    want.remove(S)
                    want += kids(int(OI[S, MS]) + j)
                    got = int(sibling_key(P, T, x, np.uint64(1 << line), base, small, ms, 0, len(node), prs))
                    if got == 0:
                        unknown += 1
                        continue
                    assert got == key_of(want), (T, x, S, line)
                    checked += 1
                    cancelled += any(OI[o, PAIR] and want.count(o) > 1 for o in want)
            if checked > 3000:
                break
        if checked > 3000:
            break
    assert checked > 200 and unknown > 0 and (extra or cancelled > 0)


def test_every_bucket_of_the_searches_tables_is_one_cache_line():
    """A bucket is two rows of 32 bytes: on a 64-byte boundary it is read in one line, where
    numpy's own start (16 bytes past a line) put every bucket on two."""
    for bits in (1, 12, 21):
        t = new_table(bits)
        assert t.shape == (1 << bits, 4) and t.dtype == np.int64
        assert t.flags.c_contiguous and t.flags.writeable and not t.any()
        assert t.ctypes.data % 64 == 0
    g = greedy_to(10, 30, 0)
    ls = LazySum(Regions(g, g.arrays()), tt_bits=14)
    ss = sum_search(g, g.arrays(), max_states=100_000, abort=NO_ABORT)
    assert ss is not None
    assert ls.tt.ctypes.data % 64 == 0 and ss.tt.ctypes.data % 64 == 0
    assert ls.search(-1000, 1000, 10**9, NO_ABORT).value == ss.search(-1000, 1000, 10**9, NO_ABORT).value
