"""The give-phase model (triangles.ai.phase) against brute force over the rules API.

Every quantity is recomputed here from what ``Game`` shows (drawn lines, legal
lines, closed triangles) and from play/undo on clones, never from the kernels'
incremental counters, on small random positions under both turn rules.
"""

from __future__ import annotations

import numpy as np
import pytest

from triangles.ai import phase as P
from triangles.ai import solve
from triangles.ai.engine import line_effect
from triangles.presets import get_preset
from triangles.rules import Board, Game

# ---------------------------------------------------------------------------
# brute force over the public API
# ---------------------------------------------------------------------------


def cell_sides(g: Game) -> list[tuple[int, int, int]]:
    b = g.board
    return [(b.pair_id(j, k), b.pair_id(i, k), b.pair_id(i, j)) for i, j, k in b.cells.tolist()]


def cell_state(g: Game) -> tuple[list[bool], list[int]]:
    """(live, sides drawn) of every cell, from the drawn lines, the legal lines and the owners."""
    drawn_line = g.line_owner >= 0
    legal = g.legal_mask()
    owner = g.triangle_owner
    live, drawn = [], []
    for c, sides in enumerate(cell_sides(g)):
        drawn.append(sum(bool(drawn_line[s]) for s in sides))
        live.append(owner[c] < 0 and all(drawn_line[s] or legal[s] for s in sides))
    return live, drawn


def legal_ids(g: Game) -> list[int]:
    return [] if g.is_over() else [int(p) for p in np.flatnonzero(g.legal_mask())]


def effects_ref(g: Game) -> dict[int, tuple[int, int, int]]:
    """(closes, gives, borders) of every legal line: its live cells with two, with one, and in all."""
    live, drawn = cell_state(g)
    out = {p: (0, 0, 0) for p in legal_ids(g)}
    for c, sides in enumerate(cell_sides(g)):
        if not live[c]:
            continue
        for p in sides:
            if p in out:
                closes, gives, borders = out[p]
                out[p] = (closes + (drawn[c] == 2), gives + (drawn[c] == 1), borders + 1)
    return out


def take_ref(g: Game) -> int:
    """The cascade's taking rule: most closed, then fewest given, then lowest pair id; -1: none."""
    best, best_key = -1, -1
    for p, (closes, gives, _) in sorted(effects_ref(g).items()):
        if closes and closes * 1024 - gives > best_key:
            best, best_key = p, closes * 1024 - gives
    return best


def cascade_ref(g: Game, p: int) -> tuple[int, int, bool]:
    g = g.clone()
    opener = g.player
    net = plies = 0
    q = p
    while q >= 0:
        who = g.player
        closed = len(g.play(*g.board.pair(q)))
        plies += 1
        net += closed if who == opener else -closed
        if g.is_over():
            break
        q = take_ref(g)
    return net, plies, g.player == opener


def greedy_ref(g: Game) -> tuple[int, int]:
    g = g.clone()
    me = g.player
    net = plies = 0
    while not g.is_over():
        best, best_key = -1, None
        for p, (closes, gives, _) in sorted(effects_ref(g).items()):
            key = closes * 1024 - gives + 4096 if closes else -gives
            if best_key is None or key > best_key:
                best, best_key = p, key
        who = g.player
        closed = len(g.play(*g.board.pair(best)))
        plies += 1
        net += closed if who == me else -closed
    return net, plies


def components_ref(g: Game) -> list[set[int]]:
    """Live cells joined by legal lines that are a side of two of them (breadth-first search)."""
    live, _ = cell_state(g)
    sides = cell_sides(g)
    legal = g.legal_mask()
    by_pair: dict[int, list[int]] = {}
    for c, ss in enumerate(sides):
        if live[c]:
            for s in ss:
                if legal[s]:
                    by_pair.setdefault(s, []).append(c)
    seen: set[int] = set()
    out: list[set[int]] = []
    for c in range(len(sides)):
        if not live[c] or c in seen:
            continue
        comp, todo = {c}, [c]
        while todo:
            x = todo.pop()
            for s in sides[x]:
                for y in by_pair.get(s, []):
                    if y not in comp:
                        comp.add(y)
                        todo.append(y)
        seen |= comp
        out.append(comp)
    return out


def positions(extra: bool, count: int, stars: tuple[int, ...] = (7, 8, 9, 10), last: int = 0) -> list[Game]:
    """Small random positions at every stage of a game (seeded); with ``last``, positions
    taken when at most that many legal lines are left."""
    rng = np.random.default_rng(1234 + extra)
    out: list[Game] = []
    preset = get_preset("phone")
    while len(out) < count:
        n = int(rng.choice(stars))
        g = Game(preset.make_board(n, int(rng.integers(1 << 30))), extra_turn=extra)
        plies = int(rng.integers(0, 30))
        for _ in range(plies if not last else 10_000):
            if g.is_over() or 0 < g.legal_count() <= last:
                break
            moves = g.legal_moves()
            g.play(*moves[int(rng.integers(len(moves)))])
        if not g.is_over():
            out.append(g)
    return out


def snapshot(D) -> dict[str, np.ndarray]:
    """The meaningful part of a position's arrays (scratch beyond the history is ignored)."""
    ctr = D.counters[0]
    nm, btop = int(ctr["nmoves"]), int(ctr["btop"])
    out = {
        f: getattr(D, f).copy() for f in ("counters", "legal", "line_owner", "cell_drawn", "cell_blocked", "cell_owner")
    }
    out.update(moves=D.moves[:nm].copy(), bstack=D.bstack[:btop].copy(), move_closed=D.move_closed[:nm].copy())
    return out


def assert_restored(D, before: dict[str, np.ndarray]) -> None:
    after = snapshot(D)
    for name, a in before.items():
        np.testing.assert_array_equal(after[name], a, err_msg=name)


# ---------------------------------------------------------------------------
# the quantities
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("extra", [False, True])
def test_effect_and_components_match_brute_force(extra: bool) -> None:
    for g in positions(extra, 25):
        S, D = g.board.arrays, g.arrays()
        effects = effects_ref(g)
        for p, ref in effects.items():
            assert tuple(P.effect(S, D, p)) == ref == tuple(line_effect(S, D, p))
        safe = [p for p, (closes, gives, _) in effects.items() if closes == gives == 0]
        assert tuple(P._take_and_safe(S, D, P._NO_RANK)) == (take_ref(g), min(safe, default=-1))
        label = np.empty(S.cells.shape[0], np.int64)
        n = P.components(S, D, label)
        comps = components_ref(g)
        assert n == len(comps)
        got = [set(np.flatnonzero(label == k).tolist()) for k in range(n)]
        assert sorted(sorted(c) for c in got) == sorted(sorted(c) for c in comps)
        live, drawn = cell_state(g)
        assert [label[c] >= 0 for c in range(len(live))] == live
        # the table: sizes, links and degrees counted from the legal lines
        table = P.component_table(S, D, label, n)
        sides = cell_sides(g)
        for k, comp in enumerate(got):
            row = table[k]
            assert row["cells"] == len(comp)
            assert row["ready"] == sum(drawn[c] == 2 for c in comp)
            on = [[c for c in comp if p in sides[c]] for p in legal_ids(g)]
            links = sum(len(cs) - 1 for cs in on if len(cs) >= 2)
            deg = {c: sum(1 for cs in on if len(cs) >= 2 and c in cs) for c in comp}
            assert row["links"] == links
            assert row["maxdeg"] == max(deg.values())
            if links == len(comp) - 1:
                assert row["shape"] in (P.CHAIN, P.TREE)
                assert (row["shape"] == P.CHAIN) == (max(deg.values()) <= 2)
            elif links == len(comp) and max(deg.values()) == 2:
                assert row["shape"] == P.LOOP
            else:
                assert row["shape"] == P.DENSE
        assert_restored(D, snapshot(g.arrays()))


@pytest.mark.parametrize("extra", [False, True])
def test_cascade_matches_play_on_clones(extra: bool) -> None:
    checked = 0
    for g in positions(extra, 20):
        S, D = g.board.arrays, g.arrays()
        before = snapshot(D)
        for p in legal_ids(g)[:8]:
            assert tuple(P.cascade(S, D, p)) == cascade_ref(g, p)
            checked += 1
        assert_restored(D, before)
    assert checked > 60


@pytest.mark.parametrize("extra", [False, True])
def test_greedy_playout_matches_play_on_clones(extra: bool) -> None:
    for g in positions(extra, 20):
        S, D = g.board.arrays, g.arrays()
        before = snapshot(D)
        assert tuple(P.greedy_playout(S, D, 10_000)) == greedy_ref(g)
        assert_restored(D, before)


@pytest.mark.parametrize("extra", [False, True])
def test_estimates_are_bounded_and_leave_the_position(extra: bool) -> None:
    """give_estimate names a legal line; playout's margin is a margin the rest of the
    game can reach (within the live cells), and so is the best line valued one line ahead."""
    for g in positions(extra, 15):
        S, D = g.board.arrays, g.arrays()
        before = snapshot(D)
        live = int(D.counters[0]["live"])
        value, line, work = P.give_estimate(S, D, 6)
        assert work >= 1
        assert line in legal_ids(g)
        margin, work = P.playout(S, D, 6)
        assert work >= 1
        assert abs(margin) <= live
        best, work = P.leaf_value(S, D, 6, g.legal_count())
        assert work >= 1
        assert abs(best) <= live
        assert_restored(D, before)


def star_in_triangle(extra: bool) -> Game:
    """A, B, C around a star X, the outer sides drawn: three live cells ABX, BCX, CAX in one loop."""
    g = Game(Board([(0, 0), (200, 0), (100, 180), (100, 60)], tolerance=3.0), extra_turn=extra)
    for i, j in ((0, 1), (1, 2), (0, 2)):
        g.play(i, j)
    return g


@pytest.mark.parametrize("extra", [False, True])
def test_loop_of_three_is_exact(extra: bool) -> None:
    """The commonest small component (a star inside a drawn triangle): the cascade is the
    whole rest of the game, so the model is exact there, under both turn rules.  Strict
    alternation: the opener gives two, the other can only take one and hand back two (+1
    for the opener, who then does not move again); extra turn: the other takes all three."""
    g = star_in_triangle(extra)
    S, D = g.board.arrays, g.arrays()
    label = np.empty(S.cells.shape[0], np.int64)
    n = P.components(S, D, label)
    assert n == 1
    row = P.component_table(S, D, label, n)[0]
    assert (row["cells"], row["links"], row["maxdeg"], row["shape"]) == (3, 3, 2, P.LOOP)
    exact = solve(g)
    assert exact == (-3 if extra else 1)
    for p in legal_ids(g):
        net, plies, again = P.cascade(S, D, p)
        assert net == exact
        assert (plies, again) == (3, False)
    assert P.playout(S, D, 6)[0] == exact
    assert P.give_estimate(S, D, 6)[0] == exact


@pytest.mark.parametrize("extra", [False, True])
def test_playout_is_exact_when_every_line_is_forced(extra: bool) -> None:
    """When at most two legal lines remain the model's play is perfect play: same value as the solver."""
    found = 0
    for g in positions(extra, 12, stars=(6, 7), last=2):
        S, D = g.board.arrays, g.arrays()
        exact = solve(g)
        if g.legal_count() == 1:
            assert P.playout(S, D, 6)[0] == exact
        # one ply of look-ahead (every legal line) over a playout that is forced from there: exact
        assert P.leaf_value(S, D, 6, g.legal_count())[0] == exact
        found += 1
    assert found == 12


def safe_ids(g: Game) -> list[int]:
    return [p for p, (closes, gives, _) in sorted(effects_ref(g).items()) if closes == gives == 0]


def leaf_ref(g: Game, ahead: int) -> int:
    """:func:`P.leaf_value` on clones: the playout, or with ``ahead`` the best of that many
    lines (scoring lines, most closed first, then the lines giving fewest; lowest pair id
    among equals), each valued by its points plus the playout of what it leaves."""
    if ahead == 0:
        return int(P.playout(g.board.arrays, g.arrays(), 8)[0])
    order = sorted(effects_ref(g).items(), key=lambda e: (-e[1][0], e[1][1] if e[1][0] == 0 else 0, e[0]))
    values = []
    for p, _ in order[:ahead]:
        child = g.clone()
        closed = len(child.play(*g.board.pair(p)))
        rest = 0 if child.is_over() else int(P.playout(child.board.arrays, child.arrays(), 8)[0])
        values.append(closed + (rest if child.player == g.player else -rest))
    return max(values)


def sample_ref(g: Game, p: int, seed: int) -> int:
    """One sample of :func:`P.safe_phase_round` for the line ``p``, played on clones:
    ``p``, then takes (the cascade's rule), else the safe line ranked highest by the
    round's dice (NumPy's legacy generator, the one numba's ``np.random`` follows),
    until nothing is safe; then the playout."""
    prio = np.asarray(np.random.RandomState(seed).random_sample(g.board.arrays.pi.shape[0]))
    g = g.clone()
    me = g.player
    net = 0
    q = p
    while q >= 0:
        who = g.player
        closed = len(g.play(*g.board.pair(q)))
        net += closed if who == me else -closed
        if g.is_over():
            return net
        q = take_ref(g)
        if q < 0:
            q = max(safe_ids(g), key=lambda r: float(prio[r]), default=-1)
    rest, _ = P.playout(g.board.arrays, g.arrays(), 8)
    return net + (rest if g.player == me else -rest)


@pytest.mark.parametrize("extra", [False, True])
def test_leaf_value_matches_play_on_clones(extra: bool) -> None:
    """The leaf looked at ``ahead`` lines in full is the best of those lines played on
    clones; with 0 it is the playout; the position is left as it was."""
    checked = 0
    for g in positions(extra, 20, stars=(8, 10, 12)):
        S, D = g.board.arrays, g.arrays()
        before = snapshot(D)
        for ahead in (0, 1, 3, 8):
            value, work = P.leaf_value(S, D, 8, ahead)
            assert value == leaf_ref(g, ahead), ahead
            assert work >= 1
            checked += 1
        assert_restored(D, before)
    assert checked >= 60


@pytest.mark.parametrize("extra", [False, True])
def test_safe_phase_samples_follow_the_rules(extra: bool) -> None:
    """Each line's sample is its score, the takes after it, the safe lines the round's
    dice rank highest while any remain, then the playout: equal to play on clones, the
    same for the same seed, within the live cells, and the position untouched."""
    compared = diced = 0
    for g in positions(extra, 30, stars=(7, 8, 9, 10, 12)):
        S, D = g.board.arrays, g.arrays()
        before = snapshot(D)
        pairs = np.array(legal_ids(g), np.int64)
        live = int(D.counters[0]["live"])
        totals = np.zeros(len(pairs), np.int64)
        work = P.safe_phase_round(S, D, pairs, 8, 17, totals, np.zeros(1, np.uint8))
        assert work >= len(pairs)
        assert all(abs(v) <= live for v in totals)
        again = np.zeros(len(pairs), np.int64)
        P.safe_phase_round(S, D, pairs, 8, 17, again, np.zeros(1, np.uint8))
        np.testing.assert_array_equal(again, totals)
        for p, v in zip(pairs.tolist(), totals.tolist(), strict=True):
            assert v == sample_ref(g, p, 17), p
            compared += 1
        diced += len(safe_ids(g)) > 1
        stopped = np.zeros(len(pairs), np.int64)
        P.safe_phase_round(S, D, pairs, 8, 17, stopped, np.ones(1, np.uint8))
        assert not stopped.any()  # a raised abort flag: nothing sampled
        assert_restored(D, before)
    assert compared > 100 and diced > 5


def playout_ref(g: Game, cand: int, prio: np.ndarray) -> int:
    """:func:`P.playout_ranked` on clones: take (the cascade's rule), else the safe line of
    lowest pair id, else the best of the ``cand`` cheapest openings (scoring lines, most
    closed first, then fewest given; among equals the highest ``prio``), each followed
    through its cascade and charged the fewest triangles the next opener must then give."""
    g = g.clone()
    me = g.player
    net = 0
    while not g.is_over():
        q = take_ref(g)
        if q < 0:
            q = next(iter(safe_ids(g)), -1)
        if q < 0:
            eff = effects_ref(g)

            def key(p: int, eff: dict[int, tuple[int, int, int]] = eff) -> tuple[int, int]:
                closes, gives, _ = eff[p]
                return (gives if closes == 0 else -1 - closes, int((1.0 - prio[p]) * 2147483648.0))

            best, best_v = -1, None
            for p in sorted(eff, key=key)[:cand]:
                c = g.clone()
                opener, v, r = c.player, 0, p
                while r >= 0:
                    who = c.player
                    closed = len(c.play(*c.board.pair(r)))
                    v += closed if who == opener else -closed
                    r = -1 if c.is_over() else take_ref(c)
                if not c.is_over():
                    least = min((gv for cl, gv, _ in effects_ref(c).values() if cl == 0), default=0)
                    v += -least if c.player == opener else least
                if best_v is None or v > best_v:
                    best, best_v = p, v
            q = best
        who = g.player
        closed = len(g.play(*g.board.pair(q)))
        net += closed if who == me else -closed
    return net


@pytest.mark.parametrize("extra", [False, True])
def test_ranked_playout_breaks_ties_by_the_dice(extra: bool) -> None:
    """The playout with ties among openings broken by a ranking of the pairs equals its
    reference on clones; without a ranking it is :func:`P.playout`; the ranking changes
    some values (the ties matter); the position is left as it was."""
    differ = 0
    for k, g in enumerate(positions(extra, 40, stars=(10, 12))):
        S, D = g.board.arrays, g.arrays()
        before = snapshot(D)
        prio = np.asarray(np.random.RandomState(k).random_sample(S.pi.shape[0]), np.float64)
        ranked, work = P.playout_ranked(S, D, 8, prio)
        assert work >= 1
        assert ranked == playout_ref(g, 8, prio)
        plain = P.playout(S, D, 8)[0]
        assert P.playout_ranked(S, D, 8, np.empty(0, np.float64))[0] == plain
        differ += ranked != plain
        assert_restored(D, before)
    assert differ > 0
